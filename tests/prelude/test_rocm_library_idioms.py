"""What AMD's header-only libraries (rocPRIM, hipCUB, rocWMMA) take from HIP's headers, on
kernels of our own written in the same idioms: the legacy `hip_bfloat16` struct
(hip/hip_bfloat16.h), the HIP_VERSION macros (hip/hip_version.h), host-side names their host
code uses (int min/max, std::chrono, hipSharedMemConfig, hipGetStreamDeviceId,
hipMemcpyWithStream), and hipLaunchKernelGGL in both of HIP's forms (a macro by default, a
function template under HIP_TEMPLATE_KERNEL_LAUNCH). No library source is used here.
"""
from __future__ import annotations

import numpy as np
import pytest

import workbench
from workbench.runtime import Kernel

BF16_STRUCT = r"""
#include <hip/hip_bfloat16.h>
static_assert(sizeof(hip_bfloat16) == 2 && __is_trivial(hip_bfloat16), "C-compatible");
// a library's own bfloat16 alias and trait, as rocPRIM spells them
namespace lib { using bfloat16 = ::hip_bfloat16; }
template <class T> struct is_bf16 { static constexpr bool value = false; };
template <> struct is_bf16<lib::bfloat16> { static constexpr bool value = true; };
static_assert(is_bf16<hip_bfloat16>::value, "one type");

// out[4i..4i+3]: RNE bits, truncated bits, bits of (x + x) * 1.5, flags (isnan, isinf, iszero)
__global__ void bf16_struct(const float *in, unsigned short *out) {
  const int i = threadIdx.x;
  hip_bfloat16 r(in[i]);
  hip_bfloat16 t(in[i], hip_bfloat16::truncate);
  hip_bfloat16 a = hip_bfloat16::round_to_bfloat16(in[i]);
  a += a;
  a = a * hip_bfloat16(1.5f);
  out[4 * i] = r.data;
  out[4 * i + 1] = t.data;
  out[4 * i + 2] = a.data;
  out[4 * i + 3] = (unsigned short)(std::isnan(r) | std::isinf(r) << 1 | std::iszero(r) << 2 |
                                    (float(r) < float(t) + 1.0f) << 3);
}

int main() {   // host code uses the same operators
  hip_bfloat16 h(1.0f);
  h++;
  h = -h;
  return h == hip_bfloat16(-2.0f) ? 0 : 1;
}
"""


def _rne_bits(x: np.ndarray) -> np.ndarray:
    u = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    nan = np.isnan(x)
    r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    return np.where(nan, _trunc_bits(x), r)


def _trunc_bits(x: np.ndarray) -> np.ndarray:
    u = x.astype(np.float32).view(np.uint32)
    keep_nan = np.isnan(x) & ((u & 0xFFFF) != 0)
    return ((u >> 16) | keep_nan).astype(np.uint16)


def _bf16_value(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32)


@pytest.mark.parametrize("arch", ["gfx942", "gfx950"])
def test_hip_bfloat16_struct_rounds_truncates_and_computes_as_documented(arch):
    mod = workbench.compile(BF16_STRUCT, arch)
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, 1.00390625, 1.01171875,
                         3.4e38, -1.5e-40], np.float32)
    snan_low = np.array([0x7F800001], np.uint32).view(np.float32)   # payload only in low half
    rng = np.random.default_rng(23)
    x = np.concatenate([specials, snan_low, rng.standard_normal(64 - 11).astype(np.float32)])
    out = np.zeros(4 * 64, np.uint16)
    dev = "emulator" if arch == "gfx942" else f"emulator:{arch}"
    Kernel(mod, "bf16_struct", dev)[1, 64](x, out)
    got = out.reshape(64, 4)
    rne, trunc = _rne_bits(x), _trunc_bits(x)
    np.testing.assert_array_equal(got[:, 0], rne)
    np.testing.assert_array_equal(got[:, 1], trunc)
    assert np.isnan(_bf16_value(got[10:11, 0])).all()   # a low-half payload NaN stays a NaN
    a = _bf16_value(rne)
    with np.errstate(invalid="ignore", over="ignore"):
        twice = _bf16_value(_rne_bits(a + a))
        want = _rne_bits(twice * np.float32(1.5))
        finite = np.isfinite(a) & np.isfinite(twice * 1.5)
        v = _bf16_value(rne)
        flags = (np.isnan(v).astype(int) | np.isinf(v) << 1 | (v == 0) << 2
                 | (v < _bf16_value(trunc) + 1) << 3)
    np.testing.assert_array_equal(got[finite, 2], want[finite])
    np.testing.assert_array_equal(got[:, 3], flags)


def test_hip_bfloat16_paths_resolve_and_the_struct_is_not___hip_bfloat16():
    src = r"""
#include <hip/amd_detail/amd_hip_bfloat16.h>
#include <hip_bfloat16.h>
#include <hip/hip_bf16.h>
static_assert(!__is_same(hip_bfloat16, __hip_bfloat16), "two bfloat16 types, as in ROCm");
hip_bfloat16_public c_mirror = {0x3f80};
__global__ void k(hip_bfloat16 *p) { p[0] = hip_bfloat16(float(p[1]) + 1.0f); }
"""
    assert workbench.compile(src, "gfx942")["gfx942"].kernels


VERSION = r"""
#include <hip/hip_runtime.h>
#if !defined(HIP_VERSION) || HIP_VERSION < 50400000
#error "HIP_VERSION missing or too old"
#endif
#if (HIP_VERSION_MAJOR == 3 && HIP_VERSION_MINOR >= 1) || HIP_VERSION_MAJOR > 3
#define HAS_MEMCPY_WITH_STREAM 1
#endif
static_assert(HIP_VERSION == HIP_VERSION_MAJOR * 10000000 + HIP_VERSION_MINOR * 100000 +
              HIP_VERSION_PATCH, "ROCm's formula");
__global__ void version(int *out) {
  out[0] = HIP_VERSION_MAJOR; out[1] = HIP_VERSION_MINOR; out[2] = HIP_VERSION;
  out[3] = HAS_MEMCPY_WITH_STREAM;
}
"""


def test_hip_version_macros_follow_rocms_formula():
    mod = workbench.compile(VERSION, "gfx942")
    out = np.zeros(4, np.int32)
    Kernel(mod, "version", "emulator")[1, 1](out)
    assert out.tolist() == [7, 0, 70000000, 1]
    assert workbench.compile("#include <hip/hip_version.h>\n#include <hip_version.h>\n"
                             "__global__ void k(int *p) { p[0] = HIP_VERSION; }", "gfx942")


HOST_NAMES = r"""
#include <hip/hip_runtime.h>
// a block-level primitive whose template takes a bank-size default, as hipCUB's radix sort does
template <int BLOCK, hipSharedMemConfig SMEM = hipSharedMemBankSizeFourByte>
struct block_sum {
  __device__ static int run(int v, int *lds) {
    lds[threadIdx.x] = v;
    __syncthreads();
    int s = 0;
    for (int i = 0; i < BLOCK; ++i) s += lds[i];
    return s;
  }
};
__global__ void sums(const int *in, int *out) {
  __shared__ int lds[64];
  out[threadIdx.x] = block_sum<64>::run(in[threadIdx.x], lds);
}
// host code in a library's style: unqualified int min/max, std::chrono without <chrono>
inline hipError_t launch(const int *in, int *out, int cols, hipStream_t stream) {
  const int block = min(cols, 64);
  const int most = max(block, 1);
  std::chrono::high_resolution_clock::time_point start = std::chrono::high_resolution_clock::now();
  hipLaunchKernelGGL(sums, dim3(1), dim3(most), 0, stream, in, out);
  const double s = std::chrono::duration_cast<std::chrono::duration<double>>(
      std::chrono::high_resolution_clock::now() - start).count();
  int device = hipGetStreamDeviceId(stream);
  hipSharedMemConfig config;
  hipDeviceGetSharedMemConfig(&config);
  return s < 0 || device < 0 ? hipErrorInvalidValue
                             : hipMemcpyWithStream(out, in, 4, hipMemcpyDeviceToDevice, stream);
}
int main() { return launch(nullptr, nullptr, 64, 0); }
"""


def test_host_names_amds_libraries_use_are_declared_and_the_kernel_runs():
    mod = workbench.compile(HOST_NAMES, "gfx942")
    x = np.arange(64, dtype=np.int32)
    out = np.zeros(64, np.int32)
    Kernel(mod, "sums", "emulator")[1, 64](x, out)
    assert (out == x.sum()).all()


# hipLaunchKernelGGL: HIP's macro form (default) deduces the template arguments left out of a
# parenthesised template-id and converts arguments (float* -> const T*, int -> size_t) as a
# chevron launch does; the function template (HIP_TEMPLATE_KERNEL_LAUNCH) cannot, but takes
# `k<A, B>` without parentheses, which the macro splits at the comma.
DEDUCED = r"""
#include <hip/hip_runtime.h>
template <int BLOCK, int W, int ITEMS, typename T>
__global__ void scale(const T *in, T *out, T v, size_t n) {
  const unsigned i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) out[i] = in[i] * v + W * ITEMS;
}
int main() {
  float *a = nullptr, *b = nullptr;
  constexpr int W = 64;
  int n = 512;
  hipLaunchKernelGGL((scale<256, W, 4>), dim3(2), dim3(256), 0, 0, a, b, 2.0f, n);
  hipLaunchKernelGGL(HIP_KERNEL_NAME(scale<256, W, 2, double>), dim3(2), dim3(256), 0, 0,
                     (const double *)nullptr, (double *)nullptr, 1.0, (size_t)n);
  if (n > 0) hipLaunchKernelGGL((scale<256, W, 4>), dim3(2), dim3(256), 0, 0, a, b, 1.0f, n);
  else return 1;
  return 0;
}
"""
UNPARENTHESISED = r"""
#include <hip/hip_runtime.h>
template <typename T, int N>
__global__ void add_n(T *out) { out[threadIdx.x] += N; }
int main() {
  float *d = nullptr;
  hipLaunchKernelGGL(add_n<float, 3>, dim3(1), dim3(64), 0, 0, d);
  return 0;
}
"""
TEMPLATE_FORM = ["-DHIP_TEMPLATE_KERNEL_LAUNCH"]


def test_hiplaunchkernelggl_is_a_macro_by_default_and_deduces_template_arguments():
    mod = workbench.compile(DEDUCED, "gfx942")
    names = sorted(mod["gfx942"].kernels)
    assert len(names) == 2, names
    k = Kernel(mod, next(n for n in names if "float" in n), "emulator")
    x = np.arange(512, dtype=np.float32)
    out = np.zeros_like(x)
    k[2, 256](x, out, np.float32(2.0), 512)
    np.testing.assert_array_equal(out, x * 2 + 256)
    with pytest.raises(workbench.CompileError):
        workbench.compile(UNPARENTHESISED, "gfx942")


def test_hiplaunchkernelggl_is_the_function_template_under_hip_template_kernel_launch():
    mod = workbench.compile(UNPARENTHESISED, "gfx942", options=TEMPLATE_FORM)
    assert len(mod["gfx942"].kernels) == 1
    with pytest.raises(workbench.CompileError, match="no matching function for call to "
                                                     "'hipLaunchKernelGGL'"):
        workbench.compile(DEDUCED, "gfx942", options=TEMPLATE_FORM)


# rocWMMA's idioms: HIP's three-level vector types extended by the library (HIP_vector_base
# specialized for 8-wide vectors with ext_vector storage read through `.data`, a member of
# HIP_vector_type defined out of class for one of them), std::min evaluated in an enumerator
# (libstdc++'s constexpr template, not a device overload), and hipExtLaunchKernelGGL naming a
# kernel template in host code.
VECTOR_LEVELS = r"""
#include <hip/hip_runtime.h>
#include <hip/hip_ext.h>
#include <cstdint>

#define LIB_REGISTER(TYPE, RANK)                                                         \
  template <> struct HIP_vector_base<TYPE, RANK> {                                       \
    using Native_vec_ = TYPE __attribute__((ext_vector_type(RANK)));                     \
    union { Native_vec_ data; };                                                         \
    using value_type = TYPE;                                                             \
    HIP_vector_base() = default;                                                         \
    template <typename... A, typename std::enable_if<sizeof...(A) == RANK>::type * = nullptr> \
    __host__ __device__ constexpr HIP_vector_base(A... a) noexcept : data{a...} {}       \
    __host__ __device__ constexpr explicit HIP_vector_base(TYPE v) noexcept              \
        : data((Native_vec_)v) {}                                                        \
  };
LIB_REGISTER(float, 8)
LIB_REGISTER(_Float16, 8)

// the library's increment for its half vectors, defined for one specialization only
template <>
__host__ __device__ inline HIP_vector_type<_Float16, 8> &
HIP_vector_type<_Float16, 8>::operator++() noexcept {
  return *this += HIP_vector_type<_Float16, 8>{static_cast<_Float16>(0.5f)};
}

template <uint32_t D> struct io_traits {
  enum : uint32_t { wave = 64u, stride = std::min(D, wave), rows = wave / stride };
};
static_assert(io_traits<16>::stride == 16 && io_traits<256>::rows == 1, "constexpr std::min");
static_assert(sizeof(HIP_vector_type<float, 8>) == 32 && alignof(HIP_vector_type<float, 8>) == 32,
              "the library's storage decides the layout");

template <typename T, int SHIFT>
__global__ void lanes8(const float *in, float *out, T *half_out) {
  using f8 = HIP_vector_type<float, 8>;
  using h8 = HIP_vector_type<T, 8>;
  const int t = threadIdx.x;
  f8 v;
  for (int i = 0; i < 8; ++i) v.data[i] = in[8 * t + i];
  f8 w = v * 2.0f + f8(1.0f);
  w -= f8(0.f, 1.f, 2.f, 3.f, 4.f, 5.f, 6.f, 7.f);
  h8 h(static_cast<T>(SHIFT));
  ++h;
  h++;
  float4 q = make_float4(1.f, 2.f, 3.f, 4.f);
  q.data = q.data * 2.0f;  // ext_vector arithmetic on the storage
  for (int i = 0; i < 8; ++i) {
    out[8 * t + i] = w[i] + q[i % 4];
    half_out[8 * t + i] = h.data[i];
  }
}

int main() {
  hipDeviceptr_t a = nullptr, b = nullptr, c = nullptr;
  hipEvent_t start, stop;
  hipEventCreate(&start);
  hipEventCreate(&stop);
  hipExtLaunchKernelGGL(lanes8<_Float16, 3>, dim3(1), dim3(64), 0, 0, start, stop, 0,
                        (const float *)a, (float *)b, (_Float16 *)c);
  return 0;
}
"""


@pytest.mark.parametrize("arch", ["gfx942", "gfx1100"])
def test_a_library_extends_hips_vector_levels_and_hipextlaunchkernelggl_instantiates(arch):
    mod = workbench.compile(VECTOR_LEVELS, arch)
    assert mod.kernel_names() == ["lanes8"]  # the one instantiation, named in host code only
    assert mod[arch].kernels["lanes8"].demangled.startswith("void lanes8<_Float16, 3>(")
    x = np.arange(8 * 64, dtype=np.float32)
    out = np.zeros_like(x)
    half_out = np.zeros(8 * 64, np.float16)
    Kernel(mod, "lanes8", f"emulator:{arch}")[1, 64](x, out, half_out)
    lane = np.arange(8 * 64) % 8
    np.testing.assert_array_equal(out, x * 2 + 1 - lane + 2 * (lane % 4 + 1))
    # ++h uses the library's definition (+0.5); h++ the prelude's, which calls it
    np.testing.assert_array_equal(half_out, np.full(8 * 64, 4.0, np.float16))
