"""CudaDevice: portable HIP on an NVIDIA GPU through NVRTC.

The first tests need no GPU (a fake cupy CUDA build, tests/gpu/fake_cupy.py, or none at all):
AMD-only detection, NVRTC options and source, kernel lookup. The tests marked ``gpu`` run the
portable kernels for real and are skipped where cupy (CUDA build) sees no NVIDIA GPU.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import numpy as np
import pytest
from gpu.fake_cupy import FakeCupy
from gpu.nvidia import needs_nvidia_gpu

import workbench as wb
from workbench.compiler import CompileError
from workbench.runtime import Kernel, LaunchError
from workbench.runtime.cuda import (
    INCLUDE_DIR,
    AmdOnlyError,
    CudaDevice,
    amd_only_uses,
    nvrtc_options,
    nvrtc_source,
)

ROOT = Path(__file__).resolve().parents[2]
PORTABLE = ROOT / "kernels" / "portable"

MFMA = """typedef float f4 __attribute__((ext_vector_type(4)));
extern "C" __global__ void mm(f4* out, const float* a) {
    // __builtin_amdgcn_s_sleep in a comment is fine
    f4 acc = __builtin_amdgcn_mfma_f32_4x4x1f32(a[0], a[1], f4{}, 0, 0, 0);
    out[threadIdx.x] = acc;
}
"""
ADD = """extern "C" __global__ void add(const float* x, const float* y, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = x[i] + y[i];
}
"""


def cuda_fake(monkeypatch, **kw) -> FakeCupy:
    return FakeCupy(hip=False, name="Fake NVIDIA", **kw).install(monkeypatch)


def _module(name: str, **kw):
    return wb.compile((PORTABLE / f"{name}.hip").read_text(), filename=f"{name}.hip", **kw)


# ---------------------------------------------------------------------------- no GPU needed

def test_amd_only_builtin_refused_before_nvrtc_with_fake_cupy_cuda_build(monkeypatch):
    fake = cuda_fake(monkeypatch)
    mod = wb.compile(MFMA, arch="gfx942", first_line=3)
    out = fake.empty(64 * 4, np.float32)
    a = fake.empty(2, np.float32)
    with pytest.raises(AmdOnlyError, match="AMD-only: uses __builtin_amdgcn_mfma_f32_4x4x1f32 "
                                           "at cell line 6; an NVIDIA GPU runs only portable"):
        Kernel(mod, "mm").on(CudaDevice(0))[1, 64](out, a)
    assert fake.raw_modules == []  # refused before NVRTC was asked


def test_amd_only_scan_ignores_comments_strings_and_ptx():
    src = ('int a; // __builtin_amdgcn_s_sleep(1)\n'
           'printf("__builtin_amdgcn_readfirstlane");\n'
           'asm("mov.u32 %0, %%laneid;" : "=r"(l));\n'
           'asm volatile("v_mov_b32 %0, 0" : "=v"(r));\n'
           '/* __builtin_amdgcn_x\n */ __asm__ __volatile__("s_nop 0");\n')
    assert amd_only_uses(src, first_line=10) == [(13, "inline asm 'v_mov_b32'"),
                                                 (15, "inline asm 's_nop'")]


def test_nvrtc_options_and_source_from_module(tmp_path):
    mod = wb.compile(ADD, arch="gfx942", defines={"BLOCK": 64, "FLAG": None},
                     include_dirs=[tmp_path], options=("-ffast-math", "-DEXTRA=2", "-std=c++17"),
                     filename="vec.hip", first_line=4)
    opts, ignored = nvrtc_options(mod)
    assert opts == (f"-I{INCLUDE_DIR}", f"-I{tmp_path.resolve()}", "-DBLOCK=64", "-DFLAG",
                    "-DEXTRA=2", "-std=c++17")
    assert ignored == ("-ffast-math",)
    src = nvrtc_source(mod)
    assert src.startswith('#include <hip/hip_runtime.h>\n#line 4 "vec.hip"\n') and ADD in src
    assert (INCLUDE_DIR / "hip" / "hip_runtime.h").is_file()


def test_cuda_launch_through_nvrtc_with_fake_cupy_cuda_build(monkeypatch):
    def add_ref(mem, grid, block, x, y, out, n):
        m = int(n)
        mem.view(int(out), np.float32, m)[:] = (mem.view(int(x), np.float32, m)
                                                + mem.view(int(y), np.float32, m))

    fake = cuda_fake(monkeypatch, kernels={"add": add_ref})
    mod = wb.compile(ADD, arch=["gfx942", "gfx1100"])
    dev = CudaDevice(0)
    assert (dev.kind, dev.arch, dev.name) == ("cuda", None, "cuda:0 (Fake NVIDIA)")
    x = np.arange(10, dtype=np.float32)
    out = np.zeros(10, np.float32)
    Kernel(mod, "add").on(dev)[1, 32](x, x, out, 10)
    np.testing.assert_array_equal(out, 2 * x)
    rec = fake.raw_modules[0]
    assert rec["path"] is None and rec["code"] == nvrtc_source(mod)
    assert rec["options"] == nvrtc_options(mod)[0]
    Kernel(mod, "add").on(dev)[1, 32](x, x, out, 10)
    assert len(fake.raw_modules) == 1  # one NVRTC build per module content


def test_cpp_kernel_found_by_name_expression_with_fake_cupy_cuda_build(monkeypatch):
    src = "__global__ void twice(float* x) { x[threadIdx.x] *= 2.0f; }\n"
    mod = wb.compile(src)
    sym = mod.kernels["twice"].symbol
    assert sym.startswith("_Z")
    fake = cuda_fake(monkeypatch, missing_symbols=[sym])
    Kernel(mod, "twice").on(CudaDevice(0))[1, 4](fake.empty(4, np.float32))
    assert [r["name_expressions"] for r in fake.raw_modules] == [None, ["twice"]]
    assert fake.launches[0]["name"] == "twice"


def test_nvrtc_rejection_is_a_compile_error_with_fake_cupy_cuda_build(monkeypatch):
    cuda_fake(monkeypatch, compile_error='cell(2): error: identifier "foo" is undefined')
    mod = wb.compile(ADD)
    with pytest.raises(CompileError, match='NVRTC rejected cell .*\ncell\\(2\\): error'):
        Kernel(mod, "add").on(CudaDevice(0))[1, 4](*(np.ones(4, np.float32),) * 3, 4)


def test_nvidia_gpu_only_when_asked_with_fake_cupy_cuda_build(monkeypatch):
    cuda_fake(monkeypatch)
    devices = importlib.import_module("workbench.runtime.devices")
    monkeypatch.delenv("HIPWB_DEVICE", raising=False)
    assert devices.default_device().kind == "emulator"
    monkeypatch.setenv("HIPWB_DEVICE", "cuda")
    assert isinstance(devices.default_device(), CudaDevice)
    with pytest.raises(LaunchError, match="no rocm device: cupy sees 1 cuda device"):
        wb.set_device("rocm")
    with pytest.raises(LaunchError, match="trace records the emulator"):
        CudaDevice(0).launch(None, None, (1, 1, 1), (1, 1, 1), [], trace=True)


BIG_LDS = """extern "C" __global__ void big_lds(float* out) {
    HIP_DYNAMIC_SHARED(float, tile)
    const int n = 60 * 1024 / 4;
    for (int i = threadIdx.x; i < n; i += blockDim.x) tile[i] = (float)i;
    __syncthreads();
    out[threadIdx.x] = tile[n - 1 - threadIdx.x];
}
"""


def test_dynamic_lds_over_48k_opted_in_with_fake_cupy_cuda_build(monkeypatch):
    fake = cuda_fake(monkeypatch)
    out = fake.empty(64, np.float32)
    k = Kernel(wb.compile(BIG_LDS), "big_lds").on(CudaDevice(0))
    k[1, 64, 60 * 1024](out)
    k[1, 64, 60 * 1024](out)
    assert [a[1:] for a in fake.func_attributes] == [(8, 60 * 1024)]  # set once
    assert fake.launches[0]["shared_mem"] == 60 * 1024


def test_portable_kernels_also_run_on_the_gfx942_emulator():
    """The same sources are AMD kernels too: wave64 on the emulator matches numpy."""
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal((2, 300)).astype(np.float32)
    out = np.zeros(300, np.float32)
    Kernel(_module("vector_add"), "vector_add").on("emulator")[2, 256](x, y, out, 300)
    np.testing.assert_array_equal(out, x + y)
    a, b = rng.standard_normal((19, 7)).astype(np.float32), rng.standard_normal((7, 18)).astype(
        np.float32)
    c = np.zeros((19, 18), np.float32)
    Kernel(_module("gemm_naive"), "gemm_naive").on("emulator")[(2, 2), (16, 16)](a, b, c, 19,
                                                                                 18, 7)
    np.testing.assert_allclose(c, a @ b, rtol=1e-5, atol=1e-5)
    xs = (rng.standard_normal((2, 300)) * 4).astype(np.float32)
    ys = np.zeros_like(xs)
    Kernel(_module("softmax_row"), "softmax_row").on("emulator")[2, 256](xs, ys, 2, 300)
    e = np.exp(xs - xs.max(axis=1, keepdims=True))
    np.testing.assert_allclose(ys, e / e.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-7)


# ------------------------------------------------------------------------- NVIDIA GPU tests

def _kernel(name: str, **kw) -> Kernel:
    return Kernel(_module(name, **kw), name).on("cuda")


@needs_nvidia_gpu
@pytest.mark.gpu
def test_portable_kernels_match_torch_on_nvidia_gpu():
    import cupy
    import torch

    torch.manual_seed(0)
    n = 1_000_003
    x, y = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
    out = torch.empty_like(x)
    _kernel("vector_add")[(n + 255) // 256, 256](x, y, out, n)
    torch.testing.assert_close(out, x + y, rtol=0, atol=0)

    m, nn, k = 129, 257, 65
    a, b = cupy.random.randn(m, k, dtype=cupy.float32), cupy.random.randn(k, nn, dtype=cupy.float32)
    c = cupy.zeros((m, nn), cupy.float32)
    _kernel("gemm_naive")[((nn + 15) // 16, (m + 15) // 16), (16, 16)](a, b, c, m, nn, k)
    cupy.testing.assert_allclose(c, a @ b, rtol=1e-4, atol=1e-4)

    rows, cols = 37, 3001
    xs = torch.randn(rows, cols, device="cuda") * 4
    ys = torch.empty_like(xs)
    _kernel("softmax_row")[rows, 256](xs, ys, rows, cols)
    torch.testing.assert_close(ys, torch.softmax(xs, dim=1), rtol=1e-5, atol=1e-6)


@needs_nvidia_gpu
@pytest.mark.gpu
def test_host_arrays_staged_and_written_back_on_nvidia_gpu():
    x = np.arange(1000, dtype=np.float32)
    out = np.zeros_like(x)
    res = _kernel("vector_add")[4, 256](x, x, out, 1000)
    np.testing.assert_array_equal(out, 2 * x)
    assert res.stats == {"staged": 3}


@needs_nvidia_gpu
@pytest.mark.gpu
def test_hip_warp_api_prelude_on_nvidia_gpu():
    import cupy

    src = """
    __global__ void warp_ops(unsigned long long* ballots, float* xs, int* lanes) {
        HIP_DYNAMIC_SHARED(float, tile)
        int t = hipThreadIdx_x;
        tile[t] = (float)t;
        __syncthreads();
        float v = tile[t];
        float s = v;
        for (int o = warpSize / 2; o > 0; o /= 2) s += __shfl_xor_sync(~0ull, s, o);
        ballots[t] = __ballot(t % 3 == 0);
        xs[t] = s + __shfl_down(v, 1) * 0.0f + __shfl(v, 0) * 0.0f;
        lanes[t] = __lane_id() + 100 * (warpSize == 32) + 1000 * __any(t == 5);
    }
    """
    mod = wb.compile(src)
    n = 64
    ballots = cupy.zeros(n, cupy.uint64)
    xs = cupy.zeros(n, cupy.float32)
    lanes = cupy.zeros(n, cupy.int32)
    Kernel(mod, "warp_ops").on("cuda")[1, n, n * 4](ballots, xs, lanes)
    t = np.arange(n)
    want_ballot = [sum(1 << j for j in range(32) if (w * 32 + j) % 3 == 0) for w in (0, 1)]
    np.testing.assert_array_equal(ballots.get(), np.repeat(want_ballot, 32).astype(np.uint64))
    np.testing.assert_array_equal(xs.get(), np.repeat([t[:32].sum(), t[32:].sum()], 32))
    np.testing.assert_array_equal(lanes.get(), t % 32 + 100 + 1000 * (t < 32))


@needs_nvidia_gpu
@pytest.mark.gpu
def test_template_kernel_and_amd_only_refusal_on_nvidia_gpu():
    import cupy

    src = ("template <typename T> __global__ void scale(T* x, T a, int n) {\n"
           "  int i = threadIdx.x; if (i < n) x[i] *= a; }\n"
           "template __global__ void scale<float>(float*, float, int);\n")
    x = cupy.ones(8, cupy.float32)
    Kernel(wb.compile(src), "scale").on("cuda")[1, 8](x, 3.0, 8)
    np.testing.assert_array_equal(x.get(), np.full(8, 3, np.float32))
    with pytest.raises(AmdOnlyError, match="at cell line 4"):
        Kernel(wb.compile(MFMA), "mm").on("cuda")[1, 64](cupy.zeros(256, cupy.float32),
                                                         cupy.zeros(2, cupy.float32))


@needs_nvidia_gpu
@pytest.mark.gpu
def test_dynamic_lds_over_48k_on_nvidia_gpu():
    import cupy

    out = cupy.zeros(64, cupy.float32)
    Kernel(wb.compile(BIG_LDS), "big_lds").on("cuda")[1, 64, 60 * 1024](out)
    np.testing.assert_array_equal(out.get(), 15 * 1024 - 1 - np.arange(64, dtype=np.float32))


def test_kernel_compiled_only_for_amd_in_a_header_refused_as_amd_only_with_fake_cupy_cuda_build(
        monkeypatch, tmp_path):
    """A kernel under an AMD-only #if whose AMD code sits in a user header is absent from
    NVRTC's build: refused as AMD-only, naming the header line, not as a missing symbol."""
    (tmp_path / "wave.h").write_text(
        "#pragma once\n#if defined(__HIP_PLATFORM_AMD__)\n#define HAVE_SWIZZLE 1\n"
        "__device__ float swz(float v) {\n"
        "  return __builtin_bit_cast(float, __builtin_amdgcn_ds_swizzle(\n"
        "      __builtin_bit_cast(int, v), 0x1f));\n}\n#endif\n")
    src = ('#include "wave.h"\n'
           'extern "C" __global__ void plain(float* y) { y[threadIdx.x] = 1.0f; }\n'
           '#if HAVE_SWIZZLE\n'
           'extern "C" __global__ void swizzled(float* y) { y[threadIdx.x] = swz(y[0]); }\n'
           '#endif\n')
    fake = cuda_fake(monkeypatch, missing_symbols=("swizzled",))
    mod = wb.compile(src, "gfx942", include_dirs=[tmp_path])
    y = fake.empty(64, np.float32)
    Kernel(mod, "plain").on(CudaDevice(0))[1, 64](y)  # the portable kernel still runs
    with pytest.raises(AmdOnlyError, match=r"AMD-only: kernel 'swizzled' is not in NVRTC's "
                                           r"build .* __builtin_amdgcn_ds_swizzle at wave\.h "
                                           r"line 5"):
        Kernel(mod, "swizzled").on(CudaDevice(0))[1, 64](y)
