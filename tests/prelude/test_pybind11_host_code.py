"""A HIP file that binds its launcher for Python with pybind11, as HipKittens' kernels do
(``PYBIND11_MODULE`` in the same .cpp as the kernel): its host code is parsed with the
includes ``python3 -m pybind11 --includes`` prints, never run, and the kernel, which takes one
struct of pointers by value, runs on the emulator. pybind11 is pinned in the ``pybind``
extra (``make setup`` installs it)."""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import workbench as wb

SRC = r'''
#include <hip/hip_runtime.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <vector>
namespace py = pybind11;
struct Axpy { const float* x; float* y; int n; float a; };
__global__ void axpy(const Axpy p) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < p.n) p.y[i] += p.a * p.x[i];
}
void launch(std::uintptr_t x, std::uintptr_t y, int n, float a) {
    Axpy p{reinterpret_cast<const float*>(x), reinterpret_cast<float*>(y), n, a};
    hipLaunchKernelGGL(axpy, dim3((n + 255) / 256), dim3(256), 0, 0, p);
}
PYBIND11_MODULE(axpy_ext, m) {
    m.doc() = "a HIP kernel bound for Python";
    m.def("launch", &launch, py::arg("x"), py::arg("y"), py::arg("n"), py::arg("a"));
    m.def("count", [](std::vector<int> v) { return v.size(); });
}
'''


def _pybind11_includes() -> list[str]:
    run = subprocess.run([sys.executable, "-m", "pybind11", "--includes"], capture_output=True,
                         text=True)
    if run.returncode != 0:
        pytest.fail("pybind11 is not installed: `make setup` installs the pinned extra "
                    f"'pybind' ({run.stderr.strip()[:200]})")
    return run.stdout.split()


def test_a_pybind11_module_file_compiles_and_its_kernel_runs():
    m = wb.compile(SRC, arch=["gfx942", "gfx950"], options=["-std=c++20",
                                                             *_pybind11_includes()])
    assert [k for k in m.kernels] == ["axpy"]
    A = wb.struct_type(m.axpy)
    for arch in ("gfx942", "gfx950"):
        x = np.arange(300, dtype=np.float32)
        y = np.ones(300, np.float32)
        m.axpy.on(f"emulator:{arch}")[2, 256](A(x=x, y=y, n=300, a=2.0))
        np.testing.assert_array_equal(y, 1 + 2 * x)
