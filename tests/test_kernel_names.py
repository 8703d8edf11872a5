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


SIGNS = r'''
template <int A, int B, int C, bool X, bool Y>
__global__ void k(float* o) { o[threadIdx.x] = A + B + C + X + Y; }
template __global__ void k<-1, -1, -1, true, false>(float*);
template __global__ void k<1, 1, 1, true, false>(float*);
template <typename T> __global__ void s(T* o) { o[threadIdx.x] = sizeof(T); }
template __global__ void s<double>(double*);
'''


def test_negative_template_arguments_keep_their_own_python_name():
    """k<-1, ...> and k<1, ...> were both k_1_1_1_true_false: one silently replaced the
    other in the module's kernel table."""
    m = wb.compile(SIGNS, "gfx942")
    assert set(m.kernels) == {"k_m1_m1_m1_true_false", "k_1_1_1_true_false", "s"}
    # addressable by the C++ spelling, spaces or not, and by the Python name: one object each
    neg = m["k<-1, -1, -1, true, false>"]
    assert neg is m["k<-1,-1,-1,true,false>"] is m.k_m1_m1_m1_true_false
    assert neg.name == "k_m1_m1_m1_true_false"
    o = np.zeros(64, np.float32)
    neg.on("emulator")[1, 64](o)
    assert (o == -2).all()
    m["k<1, 1, 1, true, false>"].on("emulator")[1, 64](o)
    assert (o == 4).all()
    # a template with a single instance answers to its bare name
    d = np.zeros(64, np.float64)
    m["s"].on("emulator")[1, 64](d)
    assert (d == 8).all()
    with pytest.raises(KeyError, match="'k' names 2 template instances"):
        m["gfx942"].kernel("k")


@pytest.mark.parametrize("cpp, py", [
    ("k<-1, 2>", "k_m1_2"), ("k<1, 2>", "k_1_2"), ("f<float*, int&>", "f_float_ptr_int_ref"),
    ("g<1.5>", "g_1p5"), ("C<0, 4>::k", "C_0_4_k"), ("<lambda>", "lambda"),
])
def test_the_python_name_rule(cpp, py):
    from workbench.kernel_names import identifier

    assert identifier(cpp) == py
