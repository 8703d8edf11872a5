"""Wave's kernel ABI as wb.wave lays it out: a scalar parameter after the buffers (32 bits, as
Wave's runtime passes it), and the code object taken from Wave's cache (the IREE executable it
hands back) byte for byte the one a fresh compile writes."""

# No `from __future__ import annotations`: Wave reads the kernel's annotations with
# typing.get_type_hints, which cannot see the symbols local to batched_gemm_from.

import numpy as np
import pytest

pytest.importorskip("wave_lang", reason="the optional wave-lang package is not installed "
                    "(pip install 'hip-workbench[wave]'; make setup installs it)")
torch = pytest.importorskip("torch")

import wave_lang.kernel.lang as tkl  # noqa: E402
import wave_lang.kernel.wave as tkw  # noqa: E402
from wave_lang.kernel.lang.global_symbols import (  # noqa: E402
    GLOBAL_ADDRESS_SPACE,
    SHARED_ADDRESS_SPACE,
)
from wave_lang.kernel.wave.constraints import MMAType  # noqa: E402
from wave_lang.kernel.wave.templates.gemm import get_gemm_kernel  # noqa: E402
from wave_lang.kernel.wave.utils.general_utils import (  # noqa: E402
    get_default_scheduling_params,
)

import workbench as wb  # noqa: E402
from workbench.errors import LaunchError  # noqa: E402
from workbench.wave_front.build import build  # noqa: E402

# One xdist worker runs every Wave test, so no two processes write the same kernel into Wave's
# on-disk cache (~/.wave) at once (its lock is a thread lock: wave_lang/kernel/wave/cache.py).
pytestmark = pytest.mark.xdist_group("wave_front")

BATCHES, SIZE = 3, 64


def batched_gemm_from():
    """Wave's sequential batched GEMM with a start index (iree-org/wave tests/kernel/wave/
    wave_gemm_test.py, testSequentialBatchedGemmWhile, tag v3.9.1): batches init_value.. are
    computed, the ones before are left alone."""
    B, M, N, K = tkl.sym.B, tkl.sym.M, tkl.sym.N, tkl.sym.K
    BLOCK_M, BLOCK_N, BLOCK_K = tkl.sym.BLOCK_M, tkl.sym.BLOCK_N, tkl.sym.BLOCK_K
    ADDRESS_SPACE = tkl.sym.ADDRESS_SPACE
    constraints = [tkw.WorkgroupConstraint(M, BLOCK_M, 0), tkw.WorkgroupConstraint(N, BLOCK_N, 1),
                   tkw.TilingConstraint(K, BLOCK_K), tkw.WaveConstraint(M, BLOCK_M / 2),
                   tkw.WaveConstraint(N, BLOCK_N / 2), tkw.TilingConstraint(B),
                   tkw.HardwareConstraint(threads_per_wave=64, vector_shapes={B: 0})]

    @tkw.wave(constraints)
    def batched_gemm(a: tkl.Memory[B, M, K, ADDRESS_SPACE, tkl.f16],
                     b: tkl.Memory[B, N, K, ADDRESS_SPACE, tkl.f16],
                     c: tkl.Memory[B, M, N, GLOBAL_ADDRESS_SPACE, tkl.f32],
                     init_value: tkl.i32):  # type: ignore
        @tkw.iterate(B, start=init_value, condition=B < BATCHES, init_args=[])
        def body():
            c_reg = tkl.Register[B, M, N, tkl.f32](0.0)

            @tkw.iterate(K, init_args=[c_reg])
            def repeat(acc: tkl.Register[B, M, N, tkl.f32]) -> tkl.Register[B, M, N, tkl.f32]:
                return tkw.mma(tkw.read(a), tkw.read(b), acc)

            tkw.write(repeat, c)
            index_b = tkw.self_index(B, tkl.i32)
            tkw.set_symbol(B, tkw.apply_expr(index_b, lambda x: x + 1))

    hyper = {ADDRESS_SPACE: SHARED_ADDRESS_SPACE, BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32,
             B: BATCHES, M: SIZE, N: SIZE, K: SIZE, **get_default_scheduling_params()}
    return batched_gemm, hyper


def test_a_scalar_goes_after_the_buffers_as_32_bits():
    fn, hyper = batched_gemm_from()
    kern = wb.wave(fn, hyper)
    assert kern.kernel.info().signature == ("batched_gemm(const _Float16 *a, const _Float16 *b, "
                                            "float *c, int init_value)")
    torch.manual_seed(0)
    a = torch.randn(BATCHES, SIZE, SIZE, dtype=torch.float16)
    b = torch.randn(BATCHES, SIZE, SIZE, dtype=torch.float16)
    c = torch.zeros(BATCHES, SIZE, SIZE)
    kern(a, b, c, 1)
    ref = torch.matmul(a.float(), b.float().transpose(-2, -1))
    assert not c[0].any()  # before init_value: not computed
    torch.testing.assert_close(c[1:], ref[1:], atol=2e-4, rtol=1e-5)
    with pytest.raises(LaunchError, match=r"argument init_value \(i32\) is an int32 scalar, got "
                                          r"float 1.5"):
        kern(a, b, c, 1.5)
    with pytest.raises(LaunchError, match=r"argument init_value .* is a scalar but got an array"):
        kern(a, b, c, np.int32([1]))


def test_the_code_object_from_waves_cache_is_the_compiled_one(tmp_path, monkeypatch):
    from wave_lang.kernel.wave import cache

    if not cache.is_cache_enabled():
        pytest.skip("Wave's cache is off here (WAVE_CACHE_ON=0)")
    # a cache of this test's own: the first build compiles, the second is served by the cache
    monkeypatch.setattr(cache, "_global_cache_manager", cache.WaveCacheManager(tmp_path))
    fn, hyper, _ = get_gemm_kernel((64, 64, 64), False, MMAType.F32_16x16x16_F16)
    fresh = build(fn, dict(hyper), ("gfx942",), {})
    cached = build(fn, dict(hyper), ("gfx942",), {})
    assert (fresh.origin, cached.origin) == ({"gfx942": "compiled"}, {"gfx942": "wave cache"})
    assert fresh["gfx942"].elf == cached["gfx942"].elf
    assert fresh.mlir == cached.mlir
    assert fresh.abi.grid([]) == cached.abi.grid([]) == (1, 1, 1)
