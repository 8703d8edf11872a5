"""The Modules the GPU verification needs, built with LLVM where it runs, else unpickled.

Preferred: ``wb.compile`` on the GPU machine (carried Debian LLVM 19, HIPWB_LLVM_DIR). Fallback
for a machine where that LLVM cannot run: ``python tests/gpu/modules.py build DIR`` here pickles
the same Modules (with their code-object bytes) into DIR/modules.pkl, and ``load`` re-creates
them there; the verification prints which of the two it used.
"""

from __future__ import annotations

import hashlib
import pickle
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PORTABLE = ROOT / "kernels" / "portable"

MFMA_SRC = """typedef float f4 __attribute__((ext_vector_type(4)));
extern "C" __global__ void mm(f4* out, const float* a) {
    f4 acc = __builtin_amdgcn_mfma_f32_4x4x1f32(a[0], a[1], f4{}, 0, 0, 0);
    out[threadIdx.x] = acc;
}
"""


def specs() -> dict[str, tuple[str, dict[str, Any]]]:
    """name -> (source, compile keyword arguments) of every Module the verification uses."""
    def portable(name: str, **kw):
        return (PORTABLE / f"{name}.hip").read_text(), {"filename": f"{name}.hip", **kw}

    return {
        "vector_add": portable("vector_add"),
        "gemm_naive": portable("gemm_naive"),
        "softmax_row": portable("softmax_row"),
        "softmax_row_1024": portable("softmax_row", defines={"BLOCK": 1024}),
        "mfma": (MFMA_SRC, {}),
        "device_state": portable("device_state"),
        "struct_args": portable("struct_args"),
    }


def _key(src: str, kw: dict) -> str:
    return hashlib.sha256(repr((src, sorted(kw.items()))).encode()).hexdigest()


def build(out_dir: Path) -> Path:
    import workbench as wb

    table = {}
    for src, kw in specs().values():
        mod = wb.compile(src, **kw)
        for co in mod.objects.values():
            # the ELF bytes, and the ISA listing the launch guard's emulator runs (the GPU
            # machine may have no llvm-objdump), go into the pickled CodeObject
            assert co.elf and co.disassembly()
        table[_key(src, kw)] = mod
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / "modules.pkl"
    path.write_bytes(pickle.dumps(table))
    return path


def load(carry: Path | None) -> tuple[dict[str, Any], str]:
    """(name -> Module, how they were made: "llvm: <clang>" or "pickle: <file>")."""
    import workbench as wb

    try:
        tc = wb.find_toolchain()
        mods = {name: wb.compile(src, **kw) for name, (src, kw) in specs().items()}
        return mods, f"llvm: clang {tc.clang_version} at {tc.bin_dir}"
    except Exception as e:  # no usable LLVM here: fall back to the Modules built elsewhere
        if carry is None or not (carry / "modules.pkl").exists():
            raise
        reason = f"{type(e).__name__}: {str(e).splitlines()[0][:120]}"
    table = pickle.loads((carry / "modules.pkl").read_bytes())
    tmp = Path(tempfile.mkdtemp(prefix="hipwb-mods-"))
    mods = {}
    for name, (src, kw) in specs().items():
        mod = table[_key(src, kw)]
        for arch, co in mod.objects.items():
            p = tmp / f"{name}-{arch}.hsaco"
            p.write_bytes(co.elf)
            co.path = p
        mods[name] = mod
    return mods, f"pickle: {carry / 'modules.pkl'} (LLVM unusable: {reason})"


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "build":
        sys.exit("usage: python tests/gpu/modules.py build DIR")
    print(build(Path(sys.argv[2])))
