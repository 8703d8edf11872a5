"""ROCm's device-header surface in the offline prelude: the include paths real code writes, the
fp8 families per target, host-and-device conversions, and what a pasted file's host code uses
(std::string without <string>, <omp.h> with `#pragma omp`). Values are checked in
test_fp8_emu.py and test_ocp_emu.py; this file checks that code written for ROCm compiles (or,
where ROCm refuses it, is refused) unchanged.
"""
from __future__ import annotations

import numpy as np
import pytest

import workbench
from workbench import KernelFault

HEADERS = [
    "hip/hip_fp8.h", "hip/hip_ext_ocp.h", "hip/hip_fp4.h", "hip/hip_fp6.h", "hip/hip_ldg.h",
    "hip/hip_bf16.h", "hip/hip_fp16.h", "hip/hip_vector_types.h", "hip/math_functions.h",
    "hip/amd_detail/amd_hip_runtime.h", "hip/amd_detail/amd_hip_fp16.h",
    "hip/amd_detail/amd_hip_bf16.h", "hip/amd_detail/amd_hip_vector_types.h",
    "hip/amd_detail/amd_warp_functions.h", "hip/amd_detail/amd_warp_sync_functions.h",
    "hip/amd_detail/amd_device_functions.h", "hip/amd_detail/amd_hip_atomic.h",
    "hip/amd_detail/amd_math_functions.h", "hip/amd_detail/hip_ldg.h",
    "hip/amd_detail/amd_hip_fp8.h", "hip/amd_detail/amd_hip_cooperative_groups.h",
    "hip/amd_detail/amd_hip_ocp_types.h", "hip/amd_detail/amd_hip_fp4.h",
    "hip/amd_detail/amd_hip_fp6.h", "hip/hip_bfloat16.h", "hip/amd_detail/amd_hip_bfloat16.h",
    "hip/hip_version.h", "hip/hip_ext.h",
    # ROCm's include layout: code built with -I$ROCM_PATH/include/hip drops the prefix
    "hip_bf16.h", "hip_fp16.h", "hip_fp8.h", "hip_runtime.h", "hip_ext_ocp.h", "hip_ext.h",
]


def test_every_rocm_include_path_resolves():
    src = "".join(f"#include <{h}>\n" for h in HEADERS) + r"""
static_assert(__is_same(HIP_vector_type<float, 4>, float4), "HIP_vector_type<float, 4> is float4");
static_assert(sizeof(__hip_fp8x4_e4m3) == 4 && sizeof(__amd_fp8x2_storage_t) == 2, "sizes");
__global__ void k(const float *p, float *q) { q[threadIdx.x] = __ldg(p + threadIdx.x); }
"""
    mod = workbench.compile(src, ["gfx942", "gfx950"])
    assert all(mod[a].kernels for a in ("gfx942", "gfx950"))


def test_the_users_include_dir_comes_first(tmp_path):
    """hipwb's hip/ folder is found without the prefix only after the user's -I folders."""
    (tmp_path / "hip_bf16.h").write_text("#define USERS_OWN_BF16 1\n")
    src = ("#include <hip_bf16.h>\n#ifndef USERS_OWN_BF16\n#error prelude's header won\n#endif\n"
           "__global__ void k(float *p) { p[0] = 1; }\n")
    assert workbench.compile(src, "gfx942", include_dirs=[tmp_path])["gfx942"].kernels


FP8_MACROS = r"""
#include <hip/hip_fp8.h>
#if defined(__gfx942__)
static_assert(HIP_FP8_TYPE_FNUZ && !HIP_FP8_TYPE_OCP && HIP_FP8_CVT_FAST_PATH, "gfx942");
#elif defined(__gfx950__)
static_assert(!HIP_FP8_TYPE_FNUZ && HIP_FP8_TYPE_OCP && HIP_FP8_CVT_FAST_PATH, "gfx950");
#else
static_assert(HIP_FP8_TYPE_FNUZ && HIP_FP8_TYPE_OCP && !HIP_FP8_CVT_FAST_PATH, "software");
#endif
static_assert(__HIP_E4M3 == 0 && __HIP_E5M2 == 1 && __HIP_E4M3_FNUZ == 2 &&
              __HIP_E5M2_FNUZ == 3 && __HIP_NOSAT == 0 && __HIP_SATFINITE == 1, "enums");
__global__ void k(float *p) { p[0] = 1; }
"""


def test_fp8_family_macros_per_target():
    assert workbench.compile(FP8_MACROS, ["gfx942", "gfx950", "gfx1100"])


@pytest.mark.parametrize("arch, other", [("gfx942", "__hip_fp8_e4m3"),
                                         ("gfx950", "__hip_fp8_e4m3_fnuz")])
def test_the_other_fp8_family_is_host_only_on_device(arch, other):
    """As in ROCm: gfx942 converts FNUZ only, gfx950 OCP only; the other family's members are
    __host__, so device code using them does not compile (host code may)."""
    src = (f"#include <hip/hip_fp8.h>\n__global__ void k(const float *p, {other} *q) "
           "{ q[0] = " + other + "(p[0]); }\n")
    with pytest.raises(workbench.CompileError):
        workbench.compile(src, arch)
    host = (f"#include <hip/hip_fp8.h>\nfloat h(float v) {{ return float({other}(v)); }}\n"
            "__global__ void k(float *p) { p[0] = 1; }\n")
    assert workbench.compile(host, arch)[arch].kernels


def test_asking_a_target_for_the_other_fp8_family_is_a_device_assertion():
    src = ("#include <hip/hip_fp8.h>\n__global__ void k(const float *p, unsigned char *q) {\n"
           "  q[threadIdx.x] =\n"
           "      __hip_cvt_float_to_fp8(p[threadIdx.x], __HIP_SATFINITE, __HIP_E4M3);\n"
           "}\n")
    mod = workbench.compile(src, "gfx942")
    with pytest.raises(KernelFault, match="type is unsupported by current target device"):
        mod.k[1, 64](np.ones(64, np.float32), np.zeros(64, np.uint8))


PASTED = r"""
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <omp.h>
#include <cstdio>

__global__ void scale(float *p, float s) { p[threadIdx.x] *= s; }

int main() {
  std::string name = "scale";          // no <string>: ROCm's hip_runtime.h brings it
  float host[256];
  for (int i = 0; i < 256; ++i) host[i] = 1.0f;
  float sum = 0.0f;
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < 256; ++i) sum += host[i] * omp_get_thread_num();
  // __host__ __device__ conversions, called from host code
  float2 f = __half22float2(__floats2half2_rn(1.0f, 2.0f));
  float g = __half2float(__float2half(3.0f)) + __bfloat162float(__float2bfloat16(4.0f));
  float4 v = make_float4(1, 2, 3, 4) * 2.0f;   // vector operators on the host
  std::complex<double> z(1.0, 2.0);
  printf("%s %f %f %f %f %f\n", name.c_str(), sum, f.x + g, v.w, z.real(), omp_get_wtime());
  float *d;
  hipMalloc(&d, 256 * sizeof(float));
  hipLaunchKernelGGL(scale, dim3(1), dim3(256), 0, 0, d, 2.0f);
  return 0;
}
"""


def test_host_code_of_a_pasted_file_parses():
    assert workbench.compile(PASTED, "gfx942")["gfx942"].kernels
