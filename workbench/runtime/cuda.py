"""CudaDevice: portable HIP kernels on an NVIDIA GPU, compiled by NVRTC through cupy.

An NVIDIA GPU cannot run an AMD code object, so the Module's *source* is rebuilt: NVRTC compiles
it with the CUDA-side prelude (``workbench/include_cuda/hip/hip_runtime.h``: the HIP device API
of hipwb's portable subset on CUDA, warpSize 32) and the Module's ``-D`` defines and include
dirs. Arguments are checked against the AMD metadata exactly as on every device. Kernels that
use AMD-only features (``__builtin_amdgcn_*``, AMD inline assembly) are refused with their cell
line before NVRTC runs; a kernel that NVRTC's build lacks because the AMD-only code it needs sits
under an ``#if`` in a user header is refused as AMD-only too, naming the header line. This
device is secondary: it is where hipwb's GPU-side code paths (launch, DLPack/torch interop,
timing) run when only an NVIDIA GPU is at hand.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

from ..compiler import CompileError
from .cupy_device import CupyDevice, line_directed_source
from .errors import LaunchError

INCLUDE_DIR = Path(__file__).resolve().parent.parent / "include_cuda"
PRELUDE = "#include <hip/hip_runtime.h>\n"

# Option prefixes passed on to NVRTC; other clang options (-O3, -mcumode, -ffast-math...) mean
# nothing to NVRTC and are left out (listed in LaunchResult.stats["ignored_options"]).
_NVRTC_PASS = ("-D", "-U", "-I", "-std=", "--std=")

_AMD_BUILTIN = re.compile(r"\b__builtin_(?:amdgcn|r600)_\w+")
_ASM = re.compile(r"\b(?:asm|__asm__|__asm)\b(?:\s+(?:volatile|__volatile__|goto))*\s*\(\s*\"")
# AMD mnemonic families (ISA guides: SOP*/SMEM s_, VOP* v_, DS ds_, MUBUF buffer_, FLAT
# global_/flat_/scratch_, MIMG image_) as the first word of an inline-asm string.
_AMD_MNEMONIC = re.compile(r"^\s*(?:s_|v_|ds_|buffer_|global_|flat_|scratch_|image_)\w+")


class AmdOnlyError(LaunchError):
    """The kernel uses an AMD-only feature and cannot be built for an NVIDIA GPU."""


def _blank_comments(src: str, strings: bool = False) -> str:
    """The source with comments (and, if ``strings``, string contents) replaced by spaces;
    newlines are kept so line numbers stay."""
    out = []
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if c == "/" and src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c == "/" and src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("".join(ch if ch == "\n" else " " for ch in src[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and src[j] != c and src[j] != "\n":
                j += 2 if src[j] == "\\" else 1
            lit = src[i:j + 1]
            out.append(c + " " * max(len(lit) - 2, 0) + lit[-1:] if strings else lit)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def amd_only_uses(source: str, filename: str = "cell",
                  first_line: int = 1) -> list[tuple[int, str]]:
    """(cell line, what) for every AMD-only construct: __builtin_amdgcn_* calls and inline
    assembly whose first instruction is an AMD mnemonic."""
    found = []
    code = _blank_comments(source, strings=True).splitlines()
    for k, line in enumerate(_blank_comments(source).splitlines()):
        where = first_line + k
        for m in _AMD_BUILTIN.finditer(code[k]):
            found.append((where, m.group(0)))
        for m in _ASM.finditer(line):
            body = line[m.end():].split('"', 1)[0]
            mm = _AMD_MNEMONIC.match(body)
            if mm:
                found.append((where, f"inline asm '{mm.group(0).strip()}'"))
    return found


_QUOTED_INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def amd_only_in_headers(module: Any, limit: int = 64) -> list[tuple[str, int, str]]:
    """(header, line, what) for the AMD-only uses in the user headers the module's source
    reaches through quoted ``#include``s (found beside the file or in its include dirs; the
    prelude's own headers are not scanned). Why: a kernel compiled only under an AMD-only
    ``#if`` in a header is simply absent from NVRTC's build."""
    dirs = [Path(d) for d in getattr(module, "include_dirs", ())]
    name = getattr(module, "filename", "")
    if name and Path(name).parent.is_dir():
        dirs.insert(0, Path(name).parent)
    todo, seen, found = [(module.source, dirs)], set(), []
    while todo and len(seen) < limit:
        text, where = todo.pop()
        for inc in _QUOTED_INCLUDE.findall(_blank_comments(text)):
            hit = next((d / inc for d in where if (d / inc).is_file()), None)
            if hit is None or hit.resolve() in seen:
                continue
            seen.add(hit.resolve())
            try:
                body = hit.read_text(errors="replace")
            except OSError:
                continue
            found += [(hit.name, line, what) for line, what in amd_only_uses(body, hit.name)]
            todo.append((body, [hit.parent, *where]))
    return found


def check_portable(module: Any) -> None:
    """Raise AmdOnlyError naming the first AMD-only use and its cell line."""
    filename = getattr(module, "filename", "cell")
    uses = amd_only_uses(module.source, filename, getattr(module, "first_line", 1))
    if uses:
        line, what = uses[0]
        more = f" (and {len(uses) - 1} more)" if len(uses) > 1 else ""
        raise AmdOnlyError(
            f"AMD-only: uses {what} at {filename} line {line}{more}; an NVIDIA GPU runs only "
            "portable HIP. Run it on a ROCm GPU or the emulator (set_device('emulator')).")


def nvrtc_options(module: Any) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(options for NVRTC, module options left out): prelude dir, include dirs, defines."""
    opts = [f"-I{INCLUDE_DIR}"]
    for d in getattr(module, "include_dirs", ()):
        opts.append(f"-I{d}")
    for k, v in (getattr(module, "defines", None) or {}).items():
        opts.append(f"-D{k}" if v is None else f"-D{k}={v}")
    ignored = []
    user = list(getattr(module, "options", ()))
    i = 0
    while i < len(user):
        o = user[i]
        if o in ("-D", "-U", "-I") and i + 1 < len(user):
            opts.append(o + user[i + 1])
            i += 2
            continue
        (opts if o.startswith(_NVRTC_PASS) else ignored).append(o)
        i += 1
    return tuple(opts), tuple(ignored)


def nvrtc_source(module: Any) -> str:
    """Prelude include, then the source under a #line so NVRTC errors cite cell lines."""
    return PRELUDE + line_directed_source(module)


class CudaDevice(CupyDevice):
    """An NVIDIA GPU via cupy (CUDA build); runs portable HIP kernels rebuilt by NVRTC."""

    kind = "cuda"
    arch = None  # not an AMD ISA: Kernel uses any arch's metadata to check arguments

    def __init__(self, index: int = 0):
        super().__init__(index)
        runtime = self.cupy.cuda.runtime
        if getattr(runtime, "is_hip", False):
            raise LaunchError("this cupy is built for ROCm: use RocmDevice ('rocm') on AMD GPUs")
        self.props = runtime.getDeviceProperties(self.index)
        raw = self.props.get("name", b"")
        self.gpu_name = raw.decode() if isinstance(raw, bytes) else str(raw)
        self.name = f"cuda:{self.index} ({self.gpu_name})"
        self._modules: dict[str, tuple[Any, tuple[str, ...]]] = {}
        self._dyn_lds: dict[int, int] = {}

    def raw_module(self, module: Any, name_expressions: tuple[str, ...] = ()) -> Any:
        """The cupy RawModule of a Module's source (one NVRTC build per content, cached)."""
        opts, ignored = nvrtc_options(module)
        src = nvrtc_source(module)
        key = hashlib.sha256("\0".join((src, *opts, "|", *name_expressions)).encode()).hexdigest()
        hit = self._modules.get(key)
        if hit is None:
            check_portable(module)
            kw = {"name_expressions": list(name_expressions)} if name_expressions else {}
            raw = self.cupy.RawModule(code=src, options=opts, **kw)
            hit = self._modules[key] = (raw, ignored)
        return hit[0]

    def _load_function(self, kernel: Any, info: Any) -> Any:
        module = kernel.module
        raw = self.raw_module(module)
        try:
            fn = raw.get_function(info.symbol)
        except self.cupy.cuda.compiler.CompileException as e:
            raise _compile_error(module, e) from None
        except Exception as first:
            fn = self._by_name_expression(module, info, first)
        self._check_params(fn, info)
        return fn

    def _global(self, module: Any, var: Any) -> Any:
        if not re.fullmatch(r"[A-Za-z_]\w*", var.name):
            raise LaunchError(f"{var.name}: NVRTC names C++ variables in namespaces or classes "
                              f"by its own mangling; on {self.name} only plain global names "
                              f"are reachable (declare it at file scope or extern \"C\")")
        return self.raw_module(module).get_global(var.name)

    def _by_name_expression(self, module: Any, info: Any, first: Exception) -> Any:
        """C++ kernels whose NVRTC mangling differs (prelude types): look up by source name."""
        src_name = info.metadata.get("source_name") or ""
        if not info.symbol.startswith("_Z") or not re.fullmatch(r"[A-Za-z_]\w*", src_name):
            _absent_amd_only(module, info)
            raise LaunchError(f"NVRTC's build of {module.filename} has no kernel "
                              f"{info.symbol!r}: {first}") from None
        try:
            return self.raw_module(module, (src_name,)).get_function(src_name)
        except self.cupy.cuda.compiler.CompileException as e:
            raise _compile_error(module, e) from None
        except Exception as e:
            raise LaunchError(
                f"NVRTC's build has no kernel {info.symbol!r} ({src_name}): {e}. Template "
                "kernels need an explicit instantiation; extern \"C\" names always match"
            ) from None

    def _check_params(self, fn: Any, info: Any) -> None:
        """Compare each parameter's size in the CUDA build with the AMD metadata (CUDA >= 12.4
        cuFuncGetParamInfo, through cuda-python when installed; skipped otherwise)."""
        try:
            from cuda.bindings import driver as cu
        except ImportError:
            return
        if not hasattr(cu, "cuFuncGetParamInfo"):
            return
        try:
            handle = cu.CUfunction(int(fn.ptr))
            cu.cuFuncGetParamInfo(handle, 0)
        except Exception:  # a cuda-python that cannot wrap cupy's handle: nothing to compare
            return
        ok = cu.CUresult.CUDA_SUCCESS
        for i, a in enumerate(info.args):
            err, _offset, size = cu.cuFuncGetParamInfo(handle, i)
            if err != ok and i == 0:
                return  # this driver cannot tell (cuFuncGetParamInfo unsupported)
            if err != ok:
                raise LaunchError(f"{info.name} takes {len(info.args)} arguments in the AMD "
                                  f"code object but only {i} in the NVRTC build")
            if size != a.size:
                raise LaunchError(
                    f"argument {i} {a.name!r} ({a.ctype}) of {info.name} is {size} bytes in the "
                    f"NVRTC build but {a.size} bytes in the AMD code object; that type is not "
                    "portable")
        if cu.cuFuncGetParamInfo(handle, len(info.args))[0] == ok:
            raise LaunchError(f"{info.name} takes more arguments in the NVRTC build than the "
                              f"{len(info.args)} of the AMD code object")

    def set_dynamic_lds(self, fn: Any, dynamic_lds: int) -> None:
        # Over 48 KiB of dynamic shared memory needs a per-function opt-in on NVIDIA GPUs
        # (CUDA Programming Guide, "Shared Memory"): CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
        # (= 8 in cuda.h's CUfunction_attribute).
        if dynamic_lds <= 48 * 1024 or self._dyn_lds.get(fn.ptr, 0) >= dynamic_lds:
            return
        drv = self.cupy.cuda.driver
        attr = getattr(drv, "CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES", 8)
        drv.funcSetAttribute(fn.ptr, attr, int(dynamic_lds))
        self._dyn_lds[fn.ptr] = int(dynamic_lds)

    def ignored_options(self, module: Any) -> tuple[str, ...]:
        """The module's clang options that NVRTC does not receive."""
        return nvrtc_options(module)[1]

    def l2_bytes(self) -> int:
        return int(self.props.get("l2CacheSize", 0))


def _compile_error(module: Any, e: Exception) -> CompileError:
    log = getattr(e, "get_message", lambda: str(e))()
    return CompileError(f"NVRTC rejected {getattr(module, 'filename', 'cell')} (portable HIP on "
                        f"CUDA; see workbench/include_cuda/hip/hip_runtime.h):\n{log}")


def _absent_amd_only(module: Any, info: Any) -> None:
    """A kernel the AMD build has but NVRTC's does not, in a source whose headers use AMD-only
    features, was compiled only for AMD: refuse it as AMD-only, naming the first use."""
    uses = amd_only_in_headers(module)
    if uses:
        hdr, line, what = uses[0]
        more = f" (and {len(uses) - 1} more)" if len(uses) > 1 else ""
        raise AmdOnlyError(
            f"AMD-only: kernel {info.name!r} is not in NVRTC's build of {module.filename}: its "
            f"headers use {what} at {hdr} line {line}{more}, so the source compiles it only for "
            "AMD. Run it on a ROCm GPU or the emulator (set_device('emulator')).")
