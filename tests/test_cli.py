"""The ``hipwb`` console script, run as a subprocess: output and exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SCALE = """#include "offset.h"
template <typename T>
__global__ void scale(T* x, T a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * a + OFFSET;
}
template __global__ void scale<float>(float*, float, int);
template __global__ void scale<double>(double*, double, int);
"""


def hipwb_command() -> list[str]:
    script = Path(sys.executable).with_name("hipwb")
    return [str(script)] if script.exists() else [sys.executable, "-m", "workbench.cli"]


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    cache = tmp_path_factory.mktemp("hipwb-cache-cli")
    work = tmp_path_factory.mktemp("cli")
    (work / "scale.hip").write_text(SCALE)
    (work / "offset.h").write_text("#define OFFSET 1\n")  # found beside the .hip file
    (work / "bad.hip").write_text("__global__ void f(int* p) {\n  p[0] = zz;\n}\n")
    (work / "cxx20.hip").write_text(  # consteval and <=> need -std=c++20; FAST needs -ffast-math
        "#include <compare>\nconsteval int two() { return 2; }\n"
        "#ifndef __FAST_MATH__\n#error needs -ffast-math\n#endif\n"
        "__global__ void f(float* p) { p[0] = two() * ((1 <=> 2) < 0); }\n")
    env = {**os.environ, "HIPWB_CACHE_DIR": str(cache)}

    def _run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([*hipwb_command(), *args], capture_output=True, text=True,
                              cwd=work, env=env, timeout=120)

    return _run


def test_compile_prints_the_summary_for_each_kernel_and_arch(run):
    r = run("compile", "scale.hip", "--arch", "gfx942,gfx1100")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert out.startswith("scale.hip: 2 kernels for gfx942, gfx1100 (compile time: ")
    assert "scale_float(float *x, float a, int n)" in out
    assert "scale_double(double *x, double a, int n)" in out
    assert out.count("wave size         64                 32") == 2
    assert "occupancy" in out and "limited by" in out and "; line" not in out


def test_compile_isa_prints_listing_with_file_lines(run):
    r = run("compile", "scale.hip", "--arch", "gfx942", "--isa")
    assert r.returncode == 0, r.stderr
    assert "ISA scale_float gfx942:" in r.stdout
    assert "; line 5: if (i < n) x[i] = x[i] * a + OFFSET;" in r.stdout
    assert "s_endpgm" in r.stdout


def test_compile_json(run):
    r = run("compile", "scale.hip", "--arch", "gfx942,gfx1100", "--json", "-D", "OFFSET_UNUSED=2",
            "-O", "2", "--block", "128")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["file"] == "scale.hip" and data["archs"] == ["gfx942", "gfx1100"]
    t942 = data["targets"][0]
    assert t942["arch"] == "gfx942"
    k = {k["name"]: k for k in t942["kernels"]}["scale_float"]
    assert [a["name"] for a in k["args"]] == ["x", "a", "n"]
    assert [a["ctype"] for a in k["args"]] == ["float *", "float", "int"]
    assert k["resources"]["wave_size"] == 64
    occ = k["occupancy"]
    assert occ["block_size"] == 128 and occ["waves_per_simd"] == 8 and occ["limiter"] == "waves"
    assert k["instructions"] == sum(k["instruction_mix"].values())
    assert data["targets"][1]["kernels"][0]["resources"]["wave_size"] == 32


def test_compile_error_exit_1_cites_file_and_line(run):
    r = run("compile", "bad.hip", "--arch", "gfx942")
    assert r.returncode == 1
    first = r.stderr.splitlines()[0]
    assert first == "bad.hip:2: error: use of undeclared identifier 'zz' [gfx942]"
    assert "p[0] = zz;" in r.stderr and r.stdout == ""


def test_compile_takes_the_flags_a_makefile_passes_hipcc(run):
    """-std=, -f..., -W..., -w, -m... go to clang as they are (HipKittens' Makefiles pass
    -std=c++20 -ffast-math -w); --option passes any other."""
    r = run("compile", "cxx20.hip", "--arch", "gfx950", "-std=c++20", "-ffast-math", "-w")
    assert r.returncode == 0, r.stderr
    assert "1 kernel for gfx950" in r.stdout
    r = run("compile", "cxx20.hip", "--arch", "gfx950", "--option=-std=c++20",
            "--option=-ffast-math")
    assert r.returncode == 0, r.stderr
    r = run("compile", "cxx20.hip", "--arch", "gfx950", "-ffast-math")
    assert r.returncode == 1 and "consteval" in r.stderr


@pytest.mark.parametrize("args, message", [
    (("compile", "scale.hip", "--arch", "gfx9999"), "--arch: unknown arch 'gfx9999'"),
    (("compile", "missing.hip"), "no such file: missing.hip"),
    (("compile", "scale.hip", "--frobnicate"), "unrecognized arguments: --frobnicate"),
    (("compile", "scale.hip", "-D", "1X=2"), "'1X' is not a valid macro name"),
    (("explode",), "invalid choice: 'explode'"),
])
def test_usage_errors_exit_2(run, args, message):
    r = run(*args)
    assert r.returncode == 2
    assert message in r.stderr and "usage: hipwb" in r.stderr


def test_doctor(run):
    r = run("doctor")
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.startswith("hipwb doctor: OK")
    assert "clang version" in r.stdout and "gfx942" in r.stdout
    j = run("doctor", "--json")
    data = json.loads(j.stdout)
    assert data["ok"] is True and "Targets" in data["sections"]


def test_no_llvm_exits_1_with_install_commands(tmp_path):
    env = {**os.environ, "HIPWB_LLVM_DIR": str(tmp_path)}
    r = subprocess.run([*hipwb_command(), "doctor"], capture_output=True, text=True, env=env,
                       timeout=120)
    assert r.returncode == 1
    assert "apt-get install -y clang-22 lld-22 llvm-22" in r.stdout
    (tmp_path / "x.hip").write_text("__global__ void f(int* p) { p[0] = 1; }\n")
    c = subprocess.run([*hipwb_command(), "compile", "x.hip"], capture_output=True, text=True,
                       env=env, cwd=tmp_path, timeout=120)
    assert c.returncode == 1
    assert "No usable LLVM toolchain" in c.stderr and "apt-get install" in c.stderr


def test_a_name_compile_refuses_is_a_usage_error(run, tmp_path):
    """compile() refuses control characters in a file name or a define: exit 2, one line
    naming the argument, no traceback."""
    odd = tmp_path / "a\tb.hip"
    odd.write_text("__global__ void f(int* p) { p[0] = 1; }\n")
    out = run("compile", str(odd))
    assert out.returncode == 2, out.stderr
    assert "control character" in out.stderr and "Traceback" not in out.stderr
    out = run("compile", "scale.hip", "-D", "X=1\n2")
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
