"""Readable kernel names: static __global__ members of class templates (as in AMD's
rocm_wmma_gemm) and template instances get demangled Python names, and any instance can be
picked by its Python, demangled or short demangled name; run on the emulator."""
from __future__ import annotations

import numpy as np
import pytest

import workbench as wb
from workbench.compiler import qualified_name, readable_name
from workbench.runtime import Kernel

SRC = r'''
namespace rocm_wmma_gemm {
enum class m_layout { row, col };
template <m_layout L, int TILE>
struct kernel_gemm_impl {
    static __global__ void kernel(float* out, int n) {
        if (threadIdx.x < n) out[threadIdx.x] = TILE + (int)L;
    }
};
template struct kernel_gemm_impl<m_layout::row, 16>;
template struct kernel_gemm_impl<m_layout::col, 32>;
}
template <typename T> __global__ void scale(T* x, T a) { x[threadIdx.x] *= a; }
template __global__ void scale<float>(float*, float);
namespace solo { struct only { static __global__ void run(int* x) { x[0] = 7; } }; }
'''


@pytest.fixture(scope="module")
def mod():
    return wb.compile(SRC, "gfx942")


def test_member_kernels_of_class_templates_get_readable_names(mod):
    assert set(mod.kernels) == {"kernel_gemm_impl_0_16_kernel", "kernel_gemm_impl_1_32_kernel",
                                "scale", "run"}
    k = mod.kernels["kernel_gemm_impl_1_32_kernel"]
    assert k.demangled == ("rocm_wmma_gemm::kernel_gemm_impl<(rocm_wmma_gemm::m_layout)1, 32>"
                           "::kernel(float*, int)")
    assert [a.name for a in k.args] == ["out", "n"] and k.args[1].ctype == "int"


def test_pick_an_instantiation_by_any_spelling(mod):
    co = mod["gfx942"]
    want = co.kernels["kernel_gemm_impl_1_32_kernel"]
    for name in ("kernel_gemm_impl<1, 32>::kernel",
                 "rocm_wmma_gemm::kernel_gemm_impl<(rocm_wmma_gemm::m_layout)1,32>::kernel",
                 want.demangled, want.symbol):
        assert co.kernel(name) is want
    with pytest.raises(KeyError, match=r"'kernel' names 2 template instances .*pick one by its "
                                       r"Python or demangled name: kernel_gemm_impl_0_16_kernel"):
        co.kernel("kernel")
    assert co.kernel("run").demangled == "solo::only::run(int*)"


def test_picked_instances_run(mod):
    out = np.zeros(64, np.float32)
    Kernel(mod, "kernel_gemm_impl<1, 32>::kernel", device="emulator")[1, 64](out, 64)
    assert (out == 33).all()
    Kernel(mod, "kernel_gemm_impl_0_16_kernel", device="emulator")[1, 64](out, 64)
    assert (out == 16).all()


def test_readable_name_rules():
    assert qualified_name("void scale<float>(float*, float)") == "scale<float>"
    assert readable_name("a::b::f<a::T>(int)") == "f<T>"
    assert readable_name("ns::C<(ns::E)0, 4>::k(float*)") == "C<0, 4>::k"


def test_magic_binds_readable_names(tmp_path, monkeypatch):
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.utils.capture import capture_output

    monkeypatch.setenv("HIPWB_CACHE_DIR", str(tmp_path / "cache"))
    ip = InteractiveShell.instance()
    ip.run_line_magic("load_ext", "workbench")
    with capture_output() as cap:
        ip.run_cell_magic("hipkernel", "--arch gfx942", SRC)
    assert "kernel_gemm_impl_0_16_kernel" in cap.outputs[0].data["text/plain"]
    r = ip.run_cell("import numpy as np; _o = np.zeros(64, np.float32); "
                    "kernel_gemm_impl_1_32_kernel.on('emulator')[1, 64](_o, 64); "
                    "assert (_o == 33).all()")
    assert r.success, r.error_in_exec
