"""Device libraries linked into offline compiles: hipwb's own bitcode and AMD's ocml math.

Why: without ROCm the prelude has no device library, yet clang's printf lowering calls
``__printf_alloc``, glibc's assert calls ``__assert_fail`` and the full HIP math API (log1pf,
erfinvf, tgammaf, double exp/sin, ...) is AMD's ocml. hipwb builds its own small bitcode
(``include/hipwb/devlib/hipwb_devlib.hip``: printf buffer allocator, assert, and the
``__oclc_*`` constants ocml reads) once per target into the compile cache, and links ocml's
bitcode when one is installed. Both go in with ``-mlink-builtin-bitcode``: only the functions a
kernel calls are linked, internalized and optimized with it, exactly as ROCm links its device
libraries.

ocml is looked for, first found wins: ``HIPWB_DEVICE_LIB_PATH`` (a folder holding ocml.bc), the
``triton`` Python package's AMD backend (``triton/backends/amd/lib/ocml.bc``, a recent ocml),
then the Debian/Ubuntu package ``rocm-device-libs`` (``/usr/lib/<triplet>/amdgcn/bitcode``) and
ROCm-style folders. ``tools/setup-system.sh llvm`` installs rocm-device-libs (485 KB).
"""
from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

from . import cache_files as _files
from .errors import HipwbError

DEVLIB_SOURCE = Path(__file__).parent / "include" / "hipwb" / "devlib" / "hipwb_devlib.hip"
SYSTEM_OCML_DIRS = ("/usr/lib/x86_64-linux-gnu/amdgcn/bitcode", "/usr/lib/aarch64-linux-gnu/"
                    "amdgcn/bitcode", "/usr/lib/amdgcn/bitcode", "/usr/share/amdgcn/bitcode",
                    "/opt/rocm/amdgcn/bitcode", "/opt/rocm/lib/llvm/lib/clang/amdgcn/bitcode")
OCML_HINT = ("AMD's device math library (ocml.bc) was not found: install the Debian/Ubuntu "
             "package rocm-device-libs (tools/setup-system.sh llvm does), or `pip install "
             "triton`, or set HIPWB_DEVICE_LIB_PATH to a folder holding ocml.bc")


class DevlibError(HipwbError, RuntimeError):
    """hipwb's device library could not be built (the message holds clang's output)."""


def find_ocml() -> Path | None:
    """Path of AMD's ocml.bc (see the module docstring for the search order), or None.

    ``HIPWB_OCML=off`` turns ocml off (the prelude's own math only)."""
    if os.environ.get("HIPWB_OCML", "").lower() in ("off", "0", "no"):
        return None
    env = os.environ.get("HIPWB_DEVICE_LIB_PATH")
    candidates = [Path(env) / "ocml.bc"] if env else []
    candidates += [_triton_ocml()]
    candidates += [Path(d) / "ocml.bc" for d in SYSTEM_OCML_DIRS]
    for c in candidates:
        if c is not None and c.is_file():
            return c
    return None


def _triton_ocml() -> Path | None:
    try:  # find_spec locates the package without importing it (importing triton is slow)
        spec = importlib.util.find_spec("triton")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0]) / "backends" / "amd" / "lib" / "ocml.bc"


def isa_version(arch: str) -> int:
    """ocml's ``__oclc_ISA_version`` of a target: gfx942 -> 9402, gfx90a -> 9010, gfx1100 ->
    11000 (major * 1000 + minor * 100 + stepping; the last two hex digits of the name are the
    minor version and the stepping, as in ROCm-Device-Libs' oclc_isa_version_*.bc)."""
    m = re.fullmatch(r"gfx(\d+)([0-9a-f])([0-9a-f])", arch)
    if m is None:
        raise ValueError(f"not a gfx target name: {arch!r}")
    return int(m.group(1)) * 1000 + int(m.group(2), 16) * 100 + int(m.group(3), 16)


def math_defines(options: Sequence[str]) -> dict[str, int]:
    """The ``__oclc_*`` control values clang's options select (as ROCm's driver picks oclc_*.bc):
    -ffast-math / -ffinite-math-only / -funsafe-math-optimizations /
    -fgpu-flush-denormals-to-zero / -fno-hip-fp32-correctly-rounded-divide-sqrt."""
    o = set(options)
    fast = "-ffast-math" in o
    return {
        "__HIPWB_FINITE_ONLY": int(fast or "-ffinite-math-only" in o),
        "__HIPWB_UNSAFE_MATH": int(fast or "-funsafe-math-optimizations" in o),
        "__HIPWB_DAZ": int("-fgpu-flush-denormals-to-zero" in o),
        "__HIPWB_CORRECT_SQRT": int("-fno-hip-fp32-correctly-rounded-divide-sqrt" not in o),
    }


def wave64(arch: str, options: Sequence[str]) -> bool:
    """Whether the compile makes wave64 code (the arch's default unless -m[no-]wavefrontsize64)."""
    from .arch import get as get_arch

    w64 = get_arch(arch).default_wave_size == 64
    for o in options:
        if o == "-mwavefrontsize64":
            w64 = True
        elif o == "-mno-wavefrontsize64":
            w64 = False
    return w64


COV_OPTION = "-mcode-object-version="
CODE_OBJECT_VERSIONS = (4, 5, 6)  # what hipwb builds, links and reads (amdgpu_elf.py)


class CodeObjectVersionError(DevlibError, ValueError):
    """A ``-mcode-object-version`` value hipwb cannot build (the message names the option)."""


def code_object_version(options: Sequence[str], arch: str | None = None) -> int | None:
    """The code-object version a compile's ``options`` ask for on ``arch``, or None (clang's
    default: 6 with LLVM 22, 5 before LLVM 20).

    Spellings, as clang reads them: ``-mcode-object-version=N`` and ``-Xarch_device`` /
    ``-Xarch_amdgcn`` / ``-Xarch_<arch>`` followed by it (the last of these wins), then
    ``-Xclang -mcode-object-version=N`` (the driver passes it after its own, so it wins). With
    ``arch`` None only the spellings that apply to every device target count.
    CodeObjectVersionError for a value other than 4, 5, 6 (clang's ``none`` is for device
    libraries; v2/v3 code objects are not read by hipwb and not built by LLVM 22).
    """
    driver = cc1 = None
    i = 0
    while i < len(options):
        o = options[i]
        nxt = options[i + 1] if i + 1 < len(options) else ""
        if o.startswith(COV_OPTION):
            driver = o
        elif o == "-Xclang" and nxt.startswith(COV_OPTION):
            cc1 = f"-Xclang {nxt}"
            i += 1
        elif o.startswith("-Xarch_") and nxt.startswith(COV_OPTION):
            if o[len("-Xarch_"):] in ("device", "amdgcn", arch):
                driver = f"{o} {nxt}"
            i += 1
        i += 1
    version = None
    for spelled in (driver, cc1):  # both are checked, as clang does; the cc1 one wins
        if spelled is None:
            continue
        value = spelled.rpartition("=")[2]
        if not re.fullmatch(r"[456]", value):
            raise CodeObjectVersionError(
                f"{spelled}: hipwb builds code object versions 4, 5 and 6 "
                f"(-mcode-object-version=4, =5 or =6; leave it out for clang's default), "
                f"not {value!r}")
        version = int(value)
    return version


def default_code_object_version(tc) -> int:
    """The code-object version ``tc``'s clang makes when none is asked for (its module flag
    ``amdhsa_code_object_version``, 600 -> 6), read once from an empty compile."""
    return _default_cov(tc.clang)


@functools.cache
def _default_cov(clang: str) -> int:
    p = subprocess.run([clang, "-x", "hip", "--offload-arch=gfx942", "--offload-device-only",
                        "-nogpulib", "-nogpuinc", "-emit-llvm", "-S", "-o", "-", os.devnull],
                       capture_output=True, text=True)
    m = re.search(r'"amdhsa_code_object_version", i32 (\d+)', p.stdout)
    if p.returncode != 0 or m is None:
        raise DevlibError(f"could not read {clang}'s default code-object version:\n{p.stderr}")
    return int(m.group(1)) // 100


DEVLIB_FORMAT = 4  # 4: per code-object version; 3: foldable __oclc_* constants; 2: a checked
# SHA-256; 1: a bare .bc file


def hipwb_bitcode(tc, arch: str, options: Sequence[str], cache_root: Path | None) -> Path:
    """hipwb's device library for one target, built on first use and kept in the cache.

    Kept as a folder ``<cache_root>/devlib/hipwb-<arch>-<hash>/`` holding ``hipwb.bc`` and
    ``entry.json`` (its size and SHA-256), which appears whole in one rename. A damaged one is
    rebuilt with one CacheWarning; with no ``cache_root`` (``compile(cache=False)``) or an
    unusable one, the library lives in this process's own folder.

    It is built for the code-object version the compile asks for (``-mcode-object-version``):
    clang links bitcode only when the modules' ``amdhsa_code_object_version`` flags agree, and
    ``__oclc_ABI_version`` (400, 500, 600, as ROCm's oclc_abi_version_*.bc) and the printf
    buffer's place in the hidden arguments follow it. Left out, clang's default (keyed as
    "default": ``tc.identity`` fixes it) is read at build time.
    """
    cov = code_object_version(options, arch)
    defs = dict(math_defines(options), __HIPWB_WAVE64=int(wave64(arch, options)),
                __HIPWB_ISA_VERSION=isa_version(arch))
    h = hashlib.sha256()
    for part in (f"devlib-format-{DEVLIB_FORMAT}", tc.identity, arch,
                 f"code-object-version-{cov or 'default'}",
                 repr(sorted(defs.items())), DEVLIB_SOURCE.read_text(),
                 (DEVLIB_SOURCE.parent.parent / "printf.h").read_text(),
                 (DEVLIB_SOURCE.parent.parent / "config.h").read_text()):
        h.update(part.encode() + b"\0")
    name = f"hipwb-{arch}-{h.hexdigest()[:20]}"
    homes = ([cache_root / "devlib"] if cache_root is not None else [])
    homes.append(_files.private_dir() / "devlib")
    data = b""
    for home in homes:  # the cache; this process's own folder when the cache cannot take it
        state = _check(home / name)
        if state is True:
            return home / name / "hipwb.bc"
        if state is not None:
            _files.warn(f"hipwb: the device library {home / name} is damaged ({state}); "
                        f"rebuilding it")
        data = data or _build(tc, arch, defs, cov or default_code_object_version(tc))
        doc = json.dumps({"format": DEVLIB_FORMAT, "size": len(data),
                          "sha256": hashlib.sha256(data).hexdigest()}).encode()
        try:
            _files.store_dir(home / name, {"hipwb.bc": data, "entry.json": doc},
                             lambda p: _check(p) is True)
            return home / name / "hipwb.bc"
        except OSError as e:
            if home is homes[-1]:
                raise
            _files.unusable(cache_root, e)
    raise AssertionError("unreachable")


def _check(entry: Path) -> bool | str | None:
    """True when the library folder is sound, None when there is none, else what is wrong."""
    try:
        doc = _files.read_json(entry / "entry.json", 1 << 16)
        with open(entry / "hipwb.bc", "rb") as f:
            data = f.read(1 << 28)
    except FileNotFoundError as e:
        if not os.path.lexists(entry):
            return None
        return f"{Path(e.filename or '?').name} is missing"
    except (OSError, _files.BadEntry) as e:
        if isinstance(e, OSError) and not os.path.lexists(entry):
            return None
        return str(e) if isinstance(e, _files.BadEntry) else (e.strerror or type(e).__name__)
    if (type(doc) is not dict or doc.get("format") != DEVLIB_FORMAT
            or doc.get("size") != len(data)
            or doc.get("sha256") != hashlib.sha256(data).hexdigest()):
        return "hipwb.bc does not match its SHA-256"
    return True


def _build(tc, arch: str, defs: dict[str, int], cov: int) -> bytes:
    """Compile hipwb_devlib.hip to bitcode for ``arch`` and code-object version ``cov`` with
    the ``__HIPWB_*`` values."""
    from .arch import get as get_arch

    work = Path(tempfile.mkdtemp(dir=_files.private_dir()))
    try:
        out = work / "hipwb.bc"
        # wave64 on a wave32-default target (gfx10+) needs the flag; gfx9 is wave64 only
        wave = (["-mwavefrontsize64"] if defs["__HIPWB_WAVE64"]
                and get_arch(arch).default_wave_size == 32 else [])
        text = work / "hipwb.ll"
        version = [f"{COV_OPTION}{cov}", f"-D__HIPWB_ABI_VERSION={cov * 100}"]
        cmd = [tc.clang, "-x", "hip", f"--offload-arch={arch}", "--offload-device-only",
               "-nogpuinc", "-nogpulib", "-O2", "-emit-llvm", "-S", "-mprintf-kind=buffered",
               "-fgpu-rdc", "-fuse-cuid=none",
               *wave, *version, *[f"-D{k}={v}" for k, v in defs.items()], "-o", str(text),
               str(DEVLIB_SOURCE)]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode == 0:
            text.write_text(foldable_constants(text.read_text()))
            p = subprocess.run([tc.clang, "--target=amdgcn-amd-amdhsa", f"-mcpu={arch}",
                                "-nogpulib", "-x", "ir", "-c", "-emit-llvm", "-o", str(out),
                                str(text)], capture_output=True, text=True)
        if p.returncode != 0:
            raise DevlibError(f"building hipwb's device library for {arch} failed:\n{p.stderr}")
        return out.read_bytes()
    finally:
        shutil.rmtree(work, ignore_errors=True)


_OCLC_RE = re.compile(r"^(@__oclc_\w+ = )(?:dso_local )?protected (local_unnamed_addr "
                      r"addrspace\(4\)) externally_initialized constant", re.M)


def foldable_constants(ir: str) -> str:
    """The ``__oclc_*`` constants as ROCm's oclc_*.bc define them: ``linkonce_odr`` and not
    ``externally_initialized``.

    Why: HIP makes every ``__constant__`` variable ``externally_initialized`` (the host may
    write it with hipMemcpyToSymbol), so LLVM may not fold its value; ocml would then load
    ``__oclc_ISA_version`` & co. at run time and branch on them (log1pf on gfx950: 588
    instructions instead of 417). ROCm-Device-Libs' oclc bitcode defines them as
    ``linkonce_odr protected addrspace(4) constant`` (its oclc/src/*.cl compiled as OpenCL
    constants), which the optimizer folds once linked. An LLVM that spells them otherwise
    keeps them as they are: slower code, same results.
    """
    return _OCLC_RE.sub(r"\1linkonce_odr protected \2 constant", ir)


def link_flags(tc, arch: str, options: Sequence[str], cache_root: Path | None) -> list[str]:
    """The -mlink-builtin-bitcode flags of one offline compile for ``arch``."""
    # ocml first: its references to the __oclc_* constants must exist when hipwb's library
    # is linked (each library contributes only what is referenced by then)
    ocml = find_ocml()
    libs = [ocml] if ocml is not None else []
    libs.append(hipwb_bitcode(tc, arch, options, cache_root))
    flags: list[str] = []
    for lib in libs:
        flags += ["-Xclang", "-mlink-builtin-bitcode", "-Xclang", str(lib)]
    return flags
