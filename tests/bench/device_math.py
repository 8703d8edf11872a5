"""Device math library choice, measured side by side: compile time of the three ways to give
offline HIP kernels HIP's full math API.

  prelude        hipwb's prelude alone (HIPWB_OCML=off): its inline float math, no ocml
  prelude+ocml   the prelude, with AMD's ocml.bc (and hipwb's devlib) linked through
                 -mlink-builtin-bitcode: what hipwb does (workbench/devlib.py)
  wrapper+ocml   clang's own HIP wrapper headers (-include __clang_hip_runtime_wrapper.h, which
                 pull in <cmath>/<cstdlib> and declare every function as an __ocml_* call) with
                 ocml + ockl linked; needs a folder with ROCm's hip/ headers and ocml/ockl
                 (HIPWB_BENCH_ROCM_INCLUDE, HIPWB_BENCH_ROCM_LIB; the triton wheel's
                 triton/backends/amd/{include,lib} work), else skipped

Each is a bare clang command (the same one hipwb runs, without its AST dumps), median of N
(default 5, HIPWB_BENCH_N), interleaved so all see the same machine load; CPU time (user +
system of clang and its children) is the number to compare on a shared machine. Two kernels:
one with only prelude math (expf, rsqrtf), one with library math (log1pf, erfinvf, tgammaf,
double exp).
Prints milliseconds and ratios to the prelude; there is no goal, it informs the choice that
README "Device math" states.
"""
from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from workbench import compiler, devlib  # noqa: E402
from workbench.toolchain import find_toolchain  # noqa: E402

N = int(os.environ.get("HIPWB_BENCH_N", "5"))
ARCH = "gfx942"
SIMPLE = """__global__ void k(const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = expf(x[i]) * rsqrtf(x[i] + 1.0f);
}"""
LIBRARY = """__global__ void k(const float* x, float* y, const double* a, double* b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = log1pf(x[i]) + erfinvf(x[i]) + tgammaf(x[i]);
  b[i] = exp(a[i]);
}"""


def _time(cmd: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of clang and its children: robust on a loaded machine)."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        raise SystemExit(f"failed: {' '.join(cmd)}\n{p.stderr[-2000:]}")
    return wall, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def main() -> None:
    tc = find_toolchain()
    ocml = devlib.find_ocml()
    if ocml is None:
        raise SystemExit(devlib.OCML_HINT)
    base = [tc.clang, "-x", "hip", f"--offload-arch={ARCH}", "--offload-device-only",
            "--no-gpu-bundle-output", "-O3", "-nogpuinc", "-nogpulib", "-mprintf-kind=buffered"]
    pre = ["-isystem", str(compiler.INCLUDE_DIR), "-include", "hip/hip_runtime.h"]
    root = compiler.cache_dir()
    link = devlib.link_flags(tc, ARCH, [], root)
    inc, lib = os.environ.get("HIPWB_BENCH_ROCM_INCLUDE"), os.environ.get("HIPWB_BENCH_ROCM_LIB")
    with tempfile.TemporaryDirectory() as d:
        work = Path(d)
        (work / "simple.hip").write_text(SIMPLE)
        (work / "library.hip").write_text(LIBRARY)
        out = str(work / "o.hsaco")
        runs = {
            "prelude (simple kernel)": base + pre + ["-D__HIPWB_NO_OCML=1", "-o", out,
                                                     str(work / "simple.hip")],
            "prelude+ocml (simple kernel)": base + pre + ["-D__HIPWB_OCML=1", *link, "-o", out,
                                                          str(work / "simple.hip")],
            "prelude+ocml (library math)": base + pre + ["-D__HIPWB_OCML=1", *link, "-o", out,
                                                         str(work / "library.hip")],
        }
        if inc and lib:
            runs["wrapper+ocml (library math)"] = [
                tc.clang, "-x", "hip", f"--offload-arch={ARCH}", "--offload-device-only",
                "--no-gpu-bundle-output", "-O3", "-nogpuinc", "-nogpulib",
                "-mprintf-kind=buffered", "-isystem", inc,
                "-D__HIP_PLATFORM_AMD__", "-include", "__clang_hip_runtime_wrapper.h",
                "-include", "hip/hip_runtime.h",
                "-Xclang", "-mlink-builtin-bitcode", "-Xclang", f"{lib}/ocml.bc",
                "-Xclang", "-mlink-builtin-bitcode", "-Xclang", f"{lib}/ockl.bc",
                # the __oclc_* constants, from hipwb's devlib (ROCm ships them as oclc_*.bc)
                "-Xclang", "-mlink-builtin-bitcode", "-Xclang",
                str(devlib.hipwb_bitcode(tc, ARCH, [], root)),
                "-o", out, str(work / "library.hip")]
        times: dict[str, list[tuple[float, float]]] = {k: [] for k in runs}
        for _ in range(N):
            for k, cmd in runs.items():
                times[k].append(_time(cmd))
    ref = statistics.median(c for _, c in times["prelude (simple kernel)"])
    print(f"ocml: {ocml} ({ocml.stat().st_size // 1024} KiB); {N} runs each, {ARCH}")
    for k, ts in times.items():
        wall = statistics.median(w for w, _ in ts)
        cpu = statistics.median(c for _, c in ts)
        print(f"  {k:30s} CPU median {cpu * 1e3:7.1f} ms (x{cpu / ref:.2f} of the prelude)  "
              f"wall median {wall * 1e3:7.1f} ms")
    if not (inc and lib):
        print("  wrapper+ocml: skipped (set HIPWB_BENCH_ROCM_INCLUDE and HIPWB_BENCH_ROCM_LIB)")


if __name__ == "__main__":
    main()
