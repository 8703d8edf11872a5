"""``hipwb corpus DIR``: every HIP file of a checkout compiled with its own flags (from
compile_commands.json), a table of what compiles, and smoke runs on the emulator. Run on a
small checkout written here, through the real console script and the real clang."""
from __future__ import annotations

import json
import os
import subprocess

import pytest
from test_cli import hipwb_command

from workbench.corpus import find_sources, parse_command, run_corpus

SAXPY = """#include "tile.h"
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i] + SHIFT;
}
"""
WIDTHS = """#include <hip/hip_runtime.h>
__global__ void widen(const int* in, long long* out, int n) {
    int i = threadIdx.x;
    if (i < n) out[i] = (long long)in[i] * WIDTH;
}
"""
OOB = """__global__ void oob(int* p) { p[threadIdx.x * 100000] = 1; }
"""


@pytest.fixture(scope="module")
def checkout(tmp_path_factory):
    """A checkout: src/ with a .hip, a .cpp kernel, a .cpp host file, a failing file, and an
    include folder named only by compile_commands.json."""
    root = tmp_path_factory.mktemp("checkout")
    (root / "src").mkdir()
    (root / "include").mkdir()
    (root / "build").mkdir()
    (root / "include" / "tile.h").write_text("#pragma once\n")
    (root / "src" / "saxpy.hip").write_text(SAXPY)
    (root / "src" / "widen.cpp").write_text(WIDTHS)
    (root / "src" / "host.cpp").write_text("int main() { return 0; }\n")  # no kernel: skipped
    (root / "src" / "oob.hip").write_text(OOB)
    (root / "src" / "broken.hip").write_text("__global__ void f(int* p) { p[0] = zz; }\n")
    (root / "build" / "ignored.hip").write_text("this is not C++\n")  # build/ is skipped
    db = [{"directory": str(root / "build"), "file": "../src/saxpy.hip",
           "arguments": ["hipcc", "-I../include", "-DSHIFT=1.0f", "--offload-arch=gfx90a",
                         "-O2", "-c", "../src/saxpy.hip", "-o", "saxpy.o"]},
          {"directory": str(root), "file": "src/widen.cpp",
           "command": "hipcc -x hip -std=c++17 -D WIDTH=3 -fgpu-rdc -c src/widen.cpp"}]
    (root / "compile_commands.json").write_text(json.dumps(db))
    return root


def test_sources_are_hip_files_and_kernel_files_outside_build_folders(checkout):
    found = [str(p.relative_to(checkout)) for p in find_sources(checkout)]
    assert found == ["src/broken.hip", "src/oob.hip", "src/saxpy.hip", "src/widen.cpp"]


def test_compile_command_flags_kept_and_dropped(tmp_path):
    f = parse_command(["hipcc", "-I", "inc", "-isystem/opt/x", "-DA=1", "-D", "B", "-UB",
                       "--offload-arch=gfx90a", "-x", "hip", "-std=c++20", "-O1", "-ffast-math",
                       "-o", "out.o", "-c", "a.hip", "-fgpu-rdc", "-w"], tmp_path)
    assert f.include_dirs == [str(tmp_path / "inc"), "/opt/x"]
    assert f.defines == {"A": "1"}
    assert f.options == ["-std=c++20", "-ffast-math", "-w"]


def test_run_corpus_uses_each_files_flags_and_smoke_runs(checkout):
    seen = []
    rep = run_corpus(checkout, ["gfx942", "gfx1100"],
                     compile_commands=checkout / "compile_commands.json", run=True, jobs=2,
                     progress=lambda f: seen.append(f.path))
    by = {f.path: f for f in rep.files}
    assert sorted(seen) == sorted(by) == ["src/broken.hip", "src/oob.hip", "src/saxpy.hip",
                                          "src/widen.cpp"]
    # saxpy needs -I../include and -DSHIFT from the database; widen needs WIDTH
    assert by["src/saxpy.hip"].ok and by["src/saxpy.hip"].kernels == ("saxpy",)
    assert by["src/widen.cpp"].ok and by["src/widen.cpp"].kernels == ("widen",)
    assert not by["src/broken.hip"].ok and "zz" in by["src/broken.hip"].error
    runs = {r.name: r for f in rep.files for r in f.runs}
    assert runs["saxpy"].status == "ran" and runs["widen"].status == "ran"
    assert runs["oob"].status == "fault" and "out-of-bounds" in runs["oob"].detail
    assert rep.counts() == {"files": 4, "compiled": 3, "failed": 1, "kernels": 3, "ran": 2,
                            "fault": 1}
    text = rep.text()
    assert text.startswith(f"hipwb corpus {checkout}: 3 of 4 files compile (3 kernels); "
                           "smoke runs: ran 2, fault 1")
    assert "src/broken.hip" in text and "error" in text


def test_console_script(checkout, tmp_path):
    env = {**os.environ, "HIPWB_CACHE_DIR": str(tmp_path / "cache")}
    out = subprocess.run([*hipwb_command(), "corpus", str(checkout), "--json",
                          "--compile-commands", str(checkout / "compile_commands.json")],
                         capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 1, out.stderr  # one file does not compile
    doc = json.loads(out.stdout)
    assert doc["counts"]["compiled"] == 3 and doc["counts"]["files"] == 4
    bad = subprocess.run([*hipwb_command(), "corpus", str(checkout / "src" / "oob.hip")],
                         capture_output=True, text=True, env=env, timeout=60)
    assert bad.returncode == 2 and "not a folder" in bad.stderr and "hipwb compile" in bad.stderr


def test_a_kernel_spelled_through_a_macro_or_only_launched_is_found(tmp_path):
    """A library may spell __global__ through its own macro (rocWMMA's samples do); the file
    still defines (__launch_bounds__) and launches kernels."""
    (tmp_path / "macro.cpp").write_text(
        "#define LIB_KERNEL __global__\n"
        "LIB_KERNEL void __launch_bounds__(64) k(int* p) { p[threadIdx.x] = 1; }\n")
    (tmp_path / "launch.cpp").write_text(
        "#include \"k.h\"\n"
        "int main() { hipLaunchKernelGGL(k, dim3(1), dim3(64), 0, 0, nullptr); }\n")
    (tmp_path / "plain.cpp").write_text("int launch_count = 0;  // no kernel here\n")
    found = [p.name for p in find_sources(tmp_path)]
    assert found == ["launch.cpp", "macro.cpp"]


def test_smoke_run_gives_dynamic_lds_the_most_the_target_allows(tmp_path):
    """An extern __shared__ kernel smoke-runs with the largest dynamic LDS its workgroup can
    have (64 KiB on gfx942 less the static part), so an access at the end of it runs."""
    (tmp_path / "dyn.hip").write_text(
        "__global__ void tail(int* out) {\n"
        "  __shared__ int fixed[64];\n"
        "  extern __shared__ int dyn[];\n"
        "  fixed[threadIdx.x] = 1;\n"
        "  dyn[(65536 - 256) / 4 - 1 - threadIdx.x] = fixed[threadIdx.x];\n"
        "  out[threadIdx.x] = dyn[(65536 - 256) / 4 - 1 - threadIdx.x];\n"
        "}\n"
        "__global__ void beyond(int* out) {\n"
        "  extern __shared__ int dyn[];\n"
        "  dyn[65536 / 4 + threadIdx.x] = 1;\n"
        "}\n")
    rep = run_corpus(tmp_path, ["gfx942"], run=True, jobs=1)
    runs = {r.name: r for r in rep.files[0].runs}
    assert runs["tail"].status == "ran", runs["tail"]
    assert runs["beyond"].status == "fault", runs["beyond"]
