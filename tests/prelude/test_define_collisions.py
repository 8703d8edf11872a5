"""No identifier of the prelude collides with a user macro.

The prelude spells its own parameters, locals and template parameters in the reserved namespace
(`__x`, `__T`), and saves/undefines the few public names it must write as such (x, y, z, w, ...:
hipwb/push_macros.h). A kernel that includes the runtime, half/bfloat16/fp8/OCP headers and
cooperative groups, and uses vector types, shuffles, atomics and math, compiles with each
single-letter macro and with the usual GEMM macros defined (`-DN=256`, `-DT=float`, ...). The
kernel itself avoids those names (with `-Dx=1` a user's own `v.x` could not compile, with ROCm
either).
"""
from __future__ import annotations

import string
from concurrent.futures import ThreadPoolExecutor

import pytest

import workbench

KERNEL = r"""
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <hip/hip_bf16.h>
#include <hip/hip_fp8.h>
#include <hip/hip_ext_ocp.h>
#include <hip/hip_fp4.h>
#include <hip/hip_cooperative_groups.h>
namespace cg = cooperative_groups;
#if HIP_FP8_TYPE_OCP
typedef __hip_fp8_e4m3 fp8one;
typedef __hip_fp8x4_e4m3 fp8four;
#else
typedef __hip_fp8_e4m3_fnuz fp8one;
typedef __hip_fp8x4_e4m3_fnuz fp8four;
#endif

template <typename Elem, int Count>
__device__ Elem total(const Elem *src) {
  Elem acc = 0;
  for (int idx = 0; idx < Count; ++idx) acc += src[idx];
  return acc;
}

__global__ void collide(float *out, int *cnt, const __half *hv, const __hip_bfloat16 *bv,
                        const fp8one *f8, unsigned long long *masks) {
  unsigned tid = __builtin_amdgcn_workitem_id_x();
  float4 vec = make_float4(1.0f, 2.0f, 3.0f, 4.0f);
  vec += vec * 2.0f;
  float val = vec[0] + vec[3] + total<float, 4>(out);
  val += __shfl_xor(val, 1) + __shfl_down_sync(~0ull, val, 2) + __shfl(val, 3);
  val = sinf(val) + expf(val) + powf(val, 2.0f) + sqrtf(fabsf(val)) + tanhf(val) + log1pf(val);
  val += __half2float(hv[tid]) + __bfloat162float(bv[tid]) + float(f8[tid]);
  __half2 hh = __floats2half2_rn(val, val);
  val += __low2float(__hmul2(hh, hh));
  fp8four quad(vec);
  float4 back = quad;
  val += back[1] + __amd_cvt_fp8_to_float(__amd_extract_fp8(0x3838, 0), __AMD_OCP_E4M3);
  val += float(__hip_fp4_e2m1(val));
  atomicAdd(cnt, 1);
  atomicMax(cnt + 1, (int)tid);
  atomicAdd(out + 1, val);
  auto blk = cg::this_thread_block();
  auto tile = cg::tiled_partition<16>(blk);
  val = cg::reduce(tile, val, cg::plus<float>());
  masks[tid] = __ballot(val > 0.0f) + __reduce_add_sync(~0ull, (int)tid);
  __syncthreads();
  out[tid] = val + (float)__popc(tid) + __int_as_float(__float_as_int(val));
}
"""

LETTERS = list(string.ascii_uppercase + string.ascii_lowercase)
GEMM = ["M", "N", "K", "T", "BM", "BN", "BK", "TILE", "BLOCK", "WARP"]
NAMES = LETTERS + [g for g in GEMM if g not in LETTERS]


def _build(defines, arch="gfx950"):
    try:
        workbench.compile(KERNEL, arch, defines=defines)
        return None
    except workbench.CompileError as e:
        return str(e)


@pytest.fixture(scope="module")
def results(request):
    """Each macro's build, for the names the session runs (``make test`` a sample: the
    all-at-once builds below hold every name on every target, so a collision anywhere fails
    there, and the sample names it)."""
    names = sorted({it.callspec.params["name"] for it in request.session.items
                    if getattr(it, "originalname", None)
                    == "test_kernel_compiles_with_the_macro_defined"})
    with ThreadPoolExecutor(2) as pool:
        return dict(zip(names, pool.map(lambda n: _build({n: 1}), names)))


def test_there_are_58_macros():
    assert len(NAMES) == 26 + 26 + 6  # M, N, K and T are letters already


# `make test` builds every 4th name alone; `make test FULL=1` every name.
@pytest.mark.sample(every=4)
@pytest.mark.parametrize("name", NAMES)
def test_kernel_compiles_with_the_macro_defined(results, name):
    assert results[name] is None, f"-D{name}=1 breaks the prelude:\n{results[name][:2000]}"


@pytest.mark.parametrize("arch", ["gfx950", "gfx942", "gfx1100"])
def test_all_macros_at_once_on_every_target(arch):
    """Every name defined at once. The fp8 headers take other branches on gfx942 (FNUZ
    instructions) and gfx1100 (software) than on gfx950 (OCP instructions)."""
    err = _build({n: 1 for n in NAMES}, arch)
    assert err is None, err[:2000]


def test_the_original_report():
    """issue 23: -DN=256 broke hipwb/vector_types.h, -DT=... the templates."""
    assert _build({"N": 256, "T": "float", "K": 64, "M": 128}) is None
