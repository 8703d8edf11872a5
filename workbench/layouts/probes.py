"""Probe kernels: one tiny kernel per catalog instruction that calls its clang builtin.

Compiling them proves the builtin names and argument vector types, and the disassembly tells
which mnemonic LLVM emits for each -- `emitted()` is the list "instructions this LLVM emits for
this arch" that execution checks (emulator or GPU) can build on.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..errors import ArgumentValueError
from .catalog import instructions
from .instruction import MatrixInstruction

__all__ = ["emitted", "kernel_name", "probe", "probe_source"]

_SCALAR = {"f": "float", "h": "_Float16", "s": "short", "i": "int", "d": "double",
           "bf": "__bf16"}


def _ctype(t: str) -> tuple[str, str | None]:
    """'v4h' -> ('v4h', typedef); 'float' -> ('float', None)."""
    m = re.fullmatch(r"v(\d+)(bf|[fhsid])", t)
    if not m:
        return t, None
    n, e = m.groups()
    return t, f"typedef {_SCALAR[e]} {t} __attribute__((ext_vector_type({n})));"


def kernel_name(ins: MatrixInstruction) -> str:
    """The probe kernel's name: the builtin without its prefix (f8f6f4: the mnemonic, one
    builtin emits both forms, plus ``_fmt<cbsz>_<blgp>`` for a format selection)."""
    if ins.builtin_form.startswith("f8f6f4"):
        c, b = ins.format_codes
        return "probe_" + ins.name.removeprefix("v_") + (f"_fmt{c}_{b}" if (c, b) != (0, 0)
                                                          else "")
    return "probe_" + ins.builtin.removeprefix("__builtin_amdgcn_")


def _call(ins: MatrixInstruction) -> str:
    b = ins.builtin
    if ins.builtin_form == "mfma":
        return f"{b}(a[t], b[t], c[t], 0, 0, 0)"  # cbsz, abid, blgp
    if ins.builtin_form == "wmma":
        return f"{b}(a[t], b[t], c[t])"
    if ins.builtin_form == "wmma_opsel":
        return f"{b}(a[t], b[t], c[t], false)"  # OPSEL: low halves of C/D
    if ins.builtin_form.startswith("f8f6f4"):
        # (A, B, C, A format, B format, A op_sel, A scale, B op_sel, B scale); constant zero
        # scales with op_sel 0 select the unscaled mnemonic (clang 22, llvm-objdump)
        c, f = ins.format_codes
        if ins.builtin_form == "f8f6f4":
            return f"{b}(a[t], b[t], c[t], {c}, {f}, 0, 0, 0, 0)"
        return f"{b}(a[t], b[t], c[t], {c}, {f}, 0, sa[t], 0, sb[t])"
    if ins.builtin_form == "wmma_int":
        return f"{b}(true, a[t], true, b[t], c[t], false)"  # signed A, signed B, no clamp
    if ins.builtin_form == "swmmac":  # sparse: A (compressed), B, C, compression index
        return f"{b}(a[t], b[t], c[t], idx[t])"
    if ins.builtin_form == "swmmac_int":  # signed A, signed B, index, no clamp
        return f"{b}(true, a[t], true, b[t], c[t], idx[t], false)"
    raise ArgumentValueError(f"{ins.name}: unknown builtin form {ins.builtin_form!r}")


def probe_source(instrs: MatrixInstruction | Iterable[MatrixInstruction]) -> str:
    """HIP source with one `extern "C"` probe kernel per instruction (D = A·B + C per lane; a
    sparse instruction's kernel also takes the compression indices, ``const int* idx``)."""
    items = [instrs] if isinstance(instrs, MatrixInstruction) else list(instrs)
    typedefs: dict[str, None] = {}
    kernels = []
    for ins in items:
        ret, ta, tb, tc = (_ctype(t) for t in ins.builtin_types)
        for _, td in (ret, ta, tb, tc):
            if td:
                typedefs[td] = None
        scales = ", const int* sa, const int* sb" if ins.builtin_form == "f8f6f4_scale" else (
            ", const int* idx" if ins.sparse else "")
        kernels.append(
            f'extern "C" __global__ void {kernel_name(ins)}'
            f"(const {ta[0]}* a, const {tb[0]}* b, {tc[0]}* c{scales}) {{\n"
            f"  int t = __builtin_amdgcn_workitem_id_x();\n"
            f"  c[t] = {_call(ins)};\n}}\n")
    return "\n".join([*typedefs, "", *kernels])


def probe(arch: str, *, wave_size: int | None = None) -> dict[str, tuple[str, ...]]:
    """Compile every catalog probe of `arch` (one code object) with the installed LLVM and
    return ``{catalog name: matrix mnemonics in that probe's disassembly}``. Instructions whose
    builtin needs a newer clang than the toolchain's are left out."""
    from ..compiler import compile as wb_compile  # lazy: the layout model needs no compiler
    from ..toolchain import find_toolchain

    tc = find_toolchain()
    instrs = [i for i in instructions(arch, wave_size=wave_size) if i.min_llvm <= tc.clang_major]
    if not instrs:
        return {}
    first = instrs[0]
    options = ["-mwavefrontsize64"] if first.wave_size == 64 and first.family.startswith("rdna") \
        else []
    co = wb_compile(probe_source(instrs), arch, options)[first.arch]
    out: dict[str, tuple[str, ...]] = {}
    for ins in instrs:
        seen = (i.mnemonic for i in co.listing(kernel_name(ins)))
        out[ins.name] = tuple(m for m in seen if m.startswith(("v_mfma", "v_wmma", "v_swmmac")))
    return out


def emitted(arch: str, *, wave_size: int | None = None) -> list[str]:
    """Catalog instructions of `arch` that the installed LLVM emits from their builtin: the
    probe kernel compiles and its disassembly contains exactly that mnemonic."""
    return [name for name, seen in probe(arch, wave_size=wave_size).items() if seen == (name,)]
