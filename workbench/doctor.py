"""``hipwb doctor`` / ``%hipwb doctor``: what this machine has for hipwb, and how to fix gaps.

Reports the LLVM toolchain (paths, versions, which search rule found it, every candidate the
search tried), the gfx targets that clang accepts and which registry archs it cannot build,
ROCm, cupy and its devices, the emulator, and Python/package versions -- with the exact
commands that install whatever is missing.
"""

from __future__ import annotations

import importlib.util
import os
import platform
import re
import subprocess
import sys
from dataclasses import dataclass, field
from importlib import metadata

from . import toolchain as tc_mod
from .arch import ARCHS
from .argument_types import checked
from .widgets.base import View, esc, table, wrap

# (distribution, import name, required): what hipwb needs (pyproject.toml) and what it can use.
PACKAGES = (
    ("hip-workbench", "workbench", True),
    ("numpy", "numpy", True),
    ("pyelftools", "elftools", True),
    ("msgpack", "msgpack", True),
    ("ipython", "IPython", True),
    ("ipywidgets", "ipywidgets", True),
    ("bokeh", "bokeh", True),
    ("jupyter_bokeh", "jupyter_bokeh", True),
    ("jupyterlab", "jupyterlab", True),
    ("torch", "torch", True),
    ("pytest", "pytest", False),
    ("nbval", "nbval", False),
)
CUPY_DISTS = ("cupy-rocm-7-0", "cupy-cuda12x", "cupy")


@dataclass
class Check:
    """One line of the report: a name, what was found, and whether it is fine."""

    name: str
    value: str
    ok: bool = True
    required: bool = True


@dataclass(repr=False)
class DoctorReport(View):
    """Everything ``hipwb doctor`` found, as sections of checks, plus the fixes to run."""

    sections: dict[str, list[Check]] = field(default_factory=dict)
    fixes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when nothing required is missing (a GPU is optional: the emulator runs)."""
        return all(c.ok or not c.required for cs in self.sections.values() for c in cs)

    def add(self, section: str, check: Check) -> None:
        self.sections.setdefault(section, []).append(check)

    def text(self) -> str:
        out = [f"hipwb doctor: {'OK' if self.ok else 'problems found'}"]
        for name, checks in self.sections.items():
            out.append(f"\n{name}")
            width = max(len(c.name) for c in checks)
            for c in checks:
                mark = " " if c.ok else ("!" if c.required else "-")
                out.append(f" {mark} {c.name.ljust(width)}  {c.value}")
        out.append("\n(! required and missing, - optional and missing)")
        if self.fixes:
            out.append("\nTo fix:")
            for fix in self.fixes:
                out += ["  " + line for line in fix.splitlines()]
        return "\n".join(out)

    def html(self) -> str:
        status = "OK" if self.ok else "problems found"
        body = [f"<div><b>hipwb doctor: {esc(status)}</b></div>"]
        for name, checks in self.sections.items():
            rows = [(c.name, c.value) for c in checks]
            hot = [i for i, c in enumerate(checks) if not c.ok and c.required]
            body.append(f"<div><b>{esc(name)}</b>{table(None, rows, hot=hot)}</div>")
        if self.fixes:
            body.append("<div><b>To fix</b><pre>" + esc("\n\n".join(self.fixes)) + "</pre></div>")
        return wrap("".join(body))


def _version_of(tool: str) -> str:
    """First version line of ``tool --version``."""
    try:
        out = subprocess.run([tool, "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"does not run ({e})"
    m = re.search(r"(?:clang|LLVM|LLD) version \S+", out.stdout + out.stderr)
    return m.group(0) if m else (out.stdout.strip().splitlines() or ["?"])[0]


def _sudo() -> str:
    return "" if os.geteuid() == 0 else "sudo "


def _toolchain(rep: DoctorReport) -> tc_mod.Toolchain | None:
    sec = "Toolchain (LLVM with the AMDGPU target)"
    # The search as find_toolchain() runs it, candidate by candidate.
    for bin_dir, rule in tc_mod._candidates():
        probed = tc_mod._probe(bin_dir)
        value = f"clang {probed[0]} at {bin_dir}" if isinstance(probed, tuple) else probed
        rep.add(sec, Check(f"search: {rule}", value, ok=True, required=False))
    try:
        tc = tc_mod.find_toolchain()
    except tc_mod.ToolchainError as e:
        rep.add(sec, Check("toolchain", "not found", ok=False))
        rep.fixes.append(str(e))
        return None
    rep.add(sec, Check("found by", f"{tc.source} rule: {tc.bin_dir}"))
    for tool in tc_mod.TOOLS:
        rep.add(sec, Check(tool, f"{tc.tool(tool)} ({_version_of(tc.tool(tool))})"))
    return tc


def _targets(rep: DoctorReport, tc: tc_mod.Toolchain) -> None:
    sec = "Targets"
    gfx9plus = [a for a in tc.offload_archs if re.match(r"gfx(9|1[0-9])", a)]
    rep.add(sec, Check("clang accepts", " ".join(gfx9plus) or "(could not list targets)",
                       ok=bool(tc.offload_archs)))
    can = [a for a in ARCHS if tc.supports(a)]
    cannot = [a for a in ARCHS if not tc.supports(a)]
    rep.add(sec, Check("hipwb archs it builds", " ".join(can) or "none", ok=bool(can)))
    if cannot:
        why = {"gfx950": f"needs LLVM >= {tc_mod.GFX950_MIN_MAJOR}, this is {tc.clang_major}"}
        value = ", ".join(f"{a} ({why[a]})" if a in why else a for a in cannot)
        rep.add(sec, Check("hipwb archs it cannot build", value, ok=False, required=False))
        lost = (" gfx950 (MI350X/MI355X) is lost: its MFMA shapes, 160 KiB LDS and the tutorials'"
                " gfx950 steps." if "gfx950" in cannot else "")
        rep.fixes.append(
            f"To build {', '.join(cannot)}:{lost} Install LLVM 22 "
            f"(`{_sudo()}apt-get install -y {' '.join(tc_mod.APT_PACKAGES)}`; Debian bookworm has "
            "it in bookworm-security) or ROCm's clang, and point HIPWB_LLVM_DIR at its bin/ "
            "folder if it is not found by itself, e.g. "
            "`export HIPWB_LLVM_DIR=/usr/lib/llvm-22/bin`.")


def _device_math(rep: DoctorReport) -> None:
    """Where HIP's library math (log1pf, double exp, ...) comes from offline: AMD's ocml.bc."""
    from .devlib import OCML_HINT, find_ocml

    ocml = find_ocml()
    rep.add("Targets", Check("device math library (ocml)",
                             str(ocml) if ocml else "not found: log1pf, erfinvf, double math, "
                             "... are refused", ok=ocml is not None, required=False))
    if ocml is None:
        rep.fixes.append(OCML_HINT + ".")


def _precompiled_prelude(rep: DoctorReport, tc: tc_mod.Toolchain) -> None:
    """Whether cold compiles load the prelude precompiled (workbench/prelude_pch.py)."""
    from .prelude_pch import status

    ok, value = status(tc)
    rep.add("Targets", Check("precompiled prelude", value, ok=ok, required=False))


def _gpu(rep: DoctorReport) -> None:
    sec = "GPU runtime"
    rocm = tc_mod.rocm_path()
    rep.add(sec, Check("ROCm", f"yes, {rocm}" if rocm else "no (offline prelude headers)",
                       ok=True, required=False))
    dist = next((d for d in CUPY_DISTS if _dist_version(d)), None)
    if dist is None:
        rep.add(sec, Check("cupy", "not installed: kernels run on the CPU emulator",
                           ok=False, required=False))
        rep.fixes.append(
            "Optional, to run on a GPU: "
            f"`{sys.executable} -m pip install 'hip-workbench[rocm]'` (AMD, cupy-rocm-7-0) or "
            "'hip-workbench[cuda]' (NVIDIA, portable kernels only).")
    else:
        from .runtime.devices import _cupy_backend

        backend, count = _cupy_backend()
        rep.add(sec, Check("cupy", f"{dist} {_dist_version(dist)}: {backend or 'unusable'} "
                                   f"backend, {count} device(s)", ok=True, required=False))
        if backend is not None and count:
            from .runtime.devices import devices

            try:
                names = [d.name for d in devices() if d.kind != "emulator"]
            except Exception as e:  # a broken driver must not break the report
                names = [f"error listing devices: {e}"]
            rep.add(sec, Check("devices", ", ".join(names), ok=True, required=False))
    emu = importlib.util.find_spec("workbench.runtime.emulator") is not None
    rep.add(sec, Check("emulator", "available" if emu else "not in this build",
                       ok=emu, required=False))
    env = os.environ.get("HIPWB_DEVICE")
    if env:
        rep.add(sec, Check("HIPWB_DEVICE", env, required=False))


def _dist_version(dist: str) -> str | None:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def _python(rep: DoctorReport) -> None:
    sec = "Python"
    rep.add(sec, Check("python", f"{platform.python_version()} ({sys.executable})"))
    missing = []
    for dist, module, required in PACKAGES:
        ver = _dist_version(dist)
        if ver is None and importlib.util.find_spec(module) is not None:
            ver = "installed (no metadata)"
        rep.add(sec, Check(dist, ver or "missing", ok=ver is not None, required=required))
        if ver is None and required:
            missing.append(dist)
    if missing:
        rep.fixes.append(f"{sys.executable} -m pip install {' '.join(missing)}")
    _triton(rep)
    _wave(rep)


def _triton(rep: DoctorReport) -> None:
    """The optional Triton front end (wb.triton, %%triton): triton's version, not imported."""
    from .triton_front.availability import INSTALL, PINNED, version

    ver = version()
    note = "" if ver in (None, PINNED) else f" (hipwb is tested with {PINNED})"
    rep.add("Python", Check("triton", f"{ver}{note}: wb.triton, %%triton" if ver else
                            "not installed (wb.triton, %%triton need it)",
                            ok=ver is not None, required=False))
    if ver is None:
        rep.fixes.append(f"For Triton kernels (wb.triton, %%triton): {INSTALL}")


def _wave(rep: DoctorReport) -> None:
    """The optional Wave front end (wb.wave): wave-lang's version and the IREE compiler and
    runtime it builds with, none imported."""
    from .wave_front.availability import INSTALL, PINNED, versions

    found = versions()
    for dist, ver in found.items():
        note = "" if ver in (None, PINNED[dist]) else f" (hipwb is tested with {PINNED[dist]})"
        rep.add("Python", Check(dist, f"{ver}{note}: wb.wave" if ver else
                                "not installed (wb.wave needs it)",
                                ok=ver is not None, required=False))
    if None in found.values():
        rep.fixes.append(f"For Wave kernels (wb.wave): {INSTALL}")


@checked
def doctor() -> DoctorReport:
    """Inspect this machine; see the module docstring for what is checked."""
    rep = DoctorReport()
    tc = _toolchain(rep)
    if tc is not None:
        _targets(rep, tc)
        _device_math(rep)
        _precompiled_prelude(rep, tc)
    _gpu(rep)
    _python(rep)
    return rep


def rocm_gpu_arch() -> str | None:
    """The gfx arch of the ROCm GPU launches would use, or None (no cupy/ROCm GPU here).

    cupy is imported only when it is installed or HIPWB_DEVICE names a device, so that
    machines without a GPU stack pay nothing.
    """
    env = os.environ.get("HIPWB_DEVICE", "")
    if importlib.util.find_spec("cupy") is None and not env.startswith("rocm"):
        return None
    try:
        from .runtime.devices import get_device

        dev = get_device()
    except Exception:  # no emulator module, no device: nothing detected
        return None
    if dev.kind == "rocm" and dev.arch:
        return dev.arch.split(":")[0]
    return None
