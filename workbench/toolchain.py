"""Find and describe the LLVM toolchain that builds AMD GPU code objects.

Search order (docs/architecture.md "Key decisions"): ``HIPWB_LLVM_DIR``, ROCm's LLVM
(``$ROCM_PATH/llvm/bin``, ``/opt/rocm/llvm/bin``), ``/usr/lib/llvm-{22,21,20,19}/bin`` (newest
first), then PATH. A directory is accepted only when it holds clang >= 19 (the first release that
knows every target we list except gfx950, which needs >= 20), ld.lld, llvm-objdump and
llvm-readelf.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from . import cache_files as _files
from .argument_types import checked
from .errors import HipwbError

MIN_CLANG_MAJOR = 19
TOOLS = ("clang", "ld.lld", "llvm-objdump", "llvm-readelf")
# Newest first: the system LLVMs looked for under /usr/lib/llvm-N/bin.
SYSTEM_MAJORS = (22, 21, 20, 19)
# LLVM >= 20 builds gfx950 (MI350X/MI355X); 19 builds every other arch hipwb lists.
GFX950_MIN_MAJOR = 20
# Debian/Ubuntu package names that provide TOOLS. Debian bookworm ships LLVM 22 in
# bookworm-security (1:22.1.8); clang-19 is the fallback where 22 is not packaged.
APT_PACKAGES = ("clang-22", "lld-22", "llvm-22")
APT_FALLBACK = ("clang-19", "lld-19", "llvm-19")


class ToolchainError(HipwbError, RuntimeError):
    """No usable LLVM with the AMDGPU target was found; the message says how to install one."""


@dataclass(frozen=True)
class Toolchain:
    """Paths and identity of one LLVM installation able to build AMDGPU code objects."""

    bin_dir: Path
    clang_version: str
    clang_major: int
    source: str  # which search rule found it: "HIPWB_LLVM_DIR", "ROCm", "system", "PATH"
    rocm_path: Path | None = None
    offload_archs: tuple[str, ...] = field(default=(), compare=False)

    def tool(self, name: str) -> str:
        """Absolute path of one of clang, ld.lld, llvm-objdump, llvm-readelf."""
        return str(self.bin_dir / name)

    @property
    def clang(self) -> str:
        return self.tool("clang")

    @property
    def identity(self) -> str:
        """A string that changes whenever the compiler would produce different code."""
        return f"{self.bin_dir}|{self.clang_version}|rocm={self.rocm_path}"

    def supports(self, arch: str) -> bool:
        """Whether this clang accepts ``--offload-arch=arch`` (gfx950 needs LLVM >= 20)."""
        return arch.split(":")[0] in self.offload_archs


def install_hint(problem: str) -> str:
    """The exact commands that fix a missing or too-old toolchain."""
    sudo = "" if os.geteuid() == 0 else "sudo "
    return (
        f"{problem}\n"
        "hipwb needs LLVM's clang >= 19 with the AMDGPU target, plus ld.lld, llvm-objdump and "
        "llvm-readelf.\nInstall them (Debian/Ubuntu):\n"
        f"    {sudo}apt-get update && {sudo}apt-get install -y {' '.join(APT_PACKAGES)}\n"
        f"(where LLVM 22 is not packaged: {' '.join(APT_FALLBACK)}, which cannot build gfx950)\n"
        "or point HIPWB_LLVM_DIR at a bin/ folder that has them (e.g. /opt/rocm/llvm/bin), "
        "then run `hipwb doctor`."
    )


def _candidates() -> list[tuple[Path, str]]:
    out: list[tuple[Path, str]] = []
    env = os.environ.get("HIPWB_LLVM_DIR")
    if env:
        # An explicit choice is final: never fall back silently past it.
        return [(Path(env), "HIPWB_LLVM_DIR")]
    rocm = rocm_path()
    if rocm is not None:
        out.append((rocm / "llvm" / "bin", "ROCm"))
    for major in SYSTEM_MAJORS:
        out.append((Path(f"/usr/lib/llvm-{major}/bin"), "system"))
    clang = shutil.which("clang")
    if clang:
        out.append((Path(clang).resolve().parent, "PATH"))
    return out


def rocm_path() -> Path | None:
    """ROCm installation root from ``ROCM_PATH`` or ``/opt/rocm``, if it has HIP headers."""
    for cand in (os.environ.get("ROCM_PATH"), "/opt/rocm"):
        if cand and (Path(cand) / "include" / "hip" / "hip_runtime.h").exists():
            return Path(cand)
    return None


_VERSION_RE = re.compile(r"clang version (\d+)\.(\d+)\.(\d+)")


def _probe(bin_dir: Path) -> tuple[str, int] | str:
    """(version, major) of clang in bin_dir, or a reason why the folder is unusable."""
    missing = [t for t in TOOLS if not (bin_dir / t).exists()]
    if missing:
        return f"{bin_dir}: missing {', '.join(missing)}"
    try:
        out = subprocess.run(
            [str(bin_dir / "clang"), "--version"], capture_output=True, text=True, timeout=30
        ).stdout
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"{bin_dir}/clang does not run: {e}"
    m = _VERSION_RE.search(out)
    if not m:
        return f"{bin_dir}/clang: cannot read its version from {out.strip()[:80]!r}"
    major = int(m.group(1))
    if major < MIN_CLANG_MAJOR:
        return f"{bin_dir}/clang is version {m.group(0)[14:]}, hipwb needs >= {MIN_CLANG_MAJOR}"
    return f"{m.group(1)}.{m.group(2)}.{m.group(3)}", major


def _offload_archs(bin_dir: Path) -> tuple[str, ...]:
    """The gfx targets this clang's AMDGPU backend knows (from ``llc``-style CPU listing)."""
    try:
        out = subprocess.run(
            [str(bin_dir / "clang"), "--target=amdgcn-amd-amdhsa", "-nogpulib",
             "--print-supported-cpus"],
            capture_output=True, text=True, timeout=60,
        )
    except (OSError, subprocess.TimeoutExpired):
        return ()
    text = out.stdout + out.stderr
    return tuple(sorted(set(re.findall(r"^\s*(gfx[0-9a-f]+)\s", text, re.M))))


def _probe_cache_path() -> Path:
    env = os.environ.get("HIPWB_CACHE_DIR")
    return (Path(env) if env else Path.home() / ".cache" / "hipwb") / "toolchains.json"


def _probe_cached(bin_dir: Path, disk: bool = True
                  ) -> tuple[tuple[str, int] | str, tuple[str, ...]]:
    """_probe and _offload_archs, remembered on disk per clang binary (path, size, mtime).

    Two clang subprocesses cost ~40 ms, which would dominate a warm compile in a fresh
    process; the answer only changes when the binary does. The file is plain JSON, checked on
    read: a damaged one is probed again and rewritten, with one CacheWarning. With ``disk``
    False nothing is read or written (``compile(cache=False)`` leaves the cache folder alone).
    """
    try:
        st = (bin_dir / "clang").resolve().stat()
        stamp = f"{(bin_dir / 'clang').resolve()}|{st.st_size}|{st.st_mtime_ns}"
    except OSError:
        return _probe(bin_dir), ()
    path = _probe_cache_path()
    saved = _read_probes(path) if disk else {}
    hit = saved.get(str(bin_dir))
    if hit is not None and hit["stamp"] == stamp and all((bin_dir / t).exists() for t in TOOLS):
        return (hit["version"], hit["major"]), tuple(hit["archs"])
    probed = _probe(bin_dir)
    if isinstance(probed, str):
        return probed, ()
    archs = _offload_archs(bin_dir)
    if not disk:
        return probed, archs
    saved[str(bin_dir)] = {"stamp": stamp, "version": probed[0], "major": probed[1],
                           "archs": list(archs)}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _files.atomic_write(path, json.dumps(saved).encode())
    except OSError:
        pass  # a read-only home only costs the probe next time
    return probed, archs


_PROBE_FIELDS = {"stamp": str, "version": str, "major": int, "archs": list}


def _read_probes(path: Path) -> dict[str, dict]:
    """toolchains.json as {bin_dir: probe}, only entries of the right shape; a damaged file
    warns once and counts as empty (it is rewritten after the probe)."""
    try:
        saved = _files.read_json(path, 1 << 20)
    except OSError:
        return {}
    except _files.BadEntry as e:
        _files.warn(f"hipwb: {path} is damaged ({e}); probing the toolchain again",
                    once_for=f"probes:{path}")
        return {}
    good = {}
    for k, v in saved.items() if type(saved) is dict else ():
        if (type(v) is dict and all(type(v.get(f)) is t for f, t in _PROBE_FIELDS.items())
                and all(type(a) is str for a in v["archs"])):
            good[k] = v
    if type(saved) is not dict or len(good) != len(saved):
        _files.warn(f"hipwb: {path} is damaged (not the probes hipwb writes); probing the "
                    f"toolchain again", once_for=f"probes:{path}")
    return good


_found: Toolchain | None = None


@checked
def find_toolchain(*, probe_cache: bool = True) -> Toolchain:
    """The first usable toolchain in docs/architecture.md's search order, or ToolchainError with a
    hint.

    Found once per process (``reset_cache`` forgets it). ``probe_cache=False``: neither read
    nor write the probe file ``toolchains.json`` in the cache folder for this search."""
    global _found
    if _found is not None:
        return _found
    reasons = []
    for bin_dir, source in _candidates():
        probed, archs = _probe_cached(bin_dir, probe_cache)
        if isinstance(probed, str):
            reasons.append(probed)
            continue
        version, major = probed
        _found = Toolchain(
            bin_dir=bin_dir,
            clang_version=version,
            clang_major=major,
            source=source,
            rocm_path=rocm_path() if source == "ROCm" else None,
            offload_archs=archs,
        )
        return _found
    detail = "; ".join(reasons) if reasons else "no clang found on PATH or in /usr/lib/llvm-*"
    raise ToolchainError(install_hint(f"No usable LLVM toolchain ({detail})."))


def reset_cache() -> None:
    """Forget the cached toolchain (after HIPWB_LLVM_DIR or PATH changed)."""
    global _found
    _found = None
