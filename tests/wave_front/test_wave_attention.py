"""wb.wave on Wave's vanilla attention template (wave_lang/kernel/wave/templates/
vanilla_attention.py, get_vanilla_attention_kernel): batch 1 x 2 heads folded into the
template's head dimension, query and key/value length 256, head size 64, both matrix products
through MMAType.F32_16x16x16_F16, compiled for gfx942 with the options Wave's own test uses and
run on emulator:gfx942 against torch's scaled dot-product attention in fp32."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("wave_lang", reason="the optional wave-lang package is not installed "
                    "(pip install 'hip-workbench[wave]'; make setup installs it)")
torch = pytest.importorskip("torch")

from wave_lang.kernel.wave.constraints import MMAType  # noqa: E402
from wave_lang.kernel.wave.templates.attention_common import AttentionShape  # noqa: E402
from wave_lang.kernel.wave.templates.vanilla_attention import (  # noqa: E402
    get_vanilla_attention_kernel,
)
from wave_lang.kernel.wave.utils.general_utils import (  # noqa: E402
    get_default_scheduling_params,
)

import workbench as wb  # noqa: E402

# One xdist worker runs every Wave test, so no two processes write the same kernel into Wave's
# on-disk cache (~/.wave) at once (its lock is a thread lock: wave_lang/kernel/wave/cache.py).
pytestmark = pytest.mark.xdist_group("wave_front")

BATCH, HEADS, SEQ, HEAD_DIM = 1, 2, 256, 64
# Wave's test of this template: assert_close(output, torch_ref, check_dtype=False, atol=1e-3,
# rtol=1e-3), iree-org/wave tests/kernel/wave/attention/vanilla_attention_test.py line 228
# (testAttentionPure, tag v3.9.1). Its reference is torch's SDPA on the fp16 inputs; ours is
# SDPA in fp32 of the same fp16 inputs (the kernel accumulates in fp32).
ATOL, RTOL = 1e-3, 1e-3


@pytest.fixture(scope="module")
def attention():
    shape = AttentionShape(num_query_heads=BATCH * HEADS, num_kv_heads=BATCH * HEADS,
                           query_seq_len=SEQ, head_size_kv=HEAD_DIM, head_size=HEAD_DIM,
                           kv_seq_len=SEQ)
    fn, hyper, dyn = get_vanilla_attention_kernel(
        shape, (MMAType.F32_16x16x16_F16, MMAType.F32_16x16x16_F16), False)
    hyper.update(get_default_scheduling_params())
    t0 = time.perf_counter()
    # the options of Wave's testAttentionPure (vanilla_attention_test.py, same tag)
    kern = wb.wave(fn, hyper, arch="gfx942", dynamic_symbols=dyn, waves_per_eu=2,
                   denorm_fp_math_f32="preserve-sign")
    return kern, time.perf_counter() - t0


def test_attention_matches_torch_sdpa_on_the_emulator(attention, capsys):
    kern, compile_seconds = attention
    torch.manual_seed(0)
    heads = BATCH * HEADS
    q = torch.randn(heads, SEQ, HEAD_DIM, dtype=torch.float16)
    k = torch.randn(heads, SEQ, HEAD_DIM, dtype=torch.float16)
    v = torch.randn(heads, SEQ, HEAD_DIM, dtype=torch.float16)
    out = torch.full((heads, SEQ, HEAD_DIM), float("nan"))
    t0 = time.perf_counter()
    res = kern.on("emulator:gfx942")(q, k, v, out)
    seconds = time.perf_counter() - t0
    ref = torch.nn.functional.scaled_dot_product_attention(q.float(), k.float(), v.float())
    torch.testing.assert_close(out, ref, atol=ATOL, rtol=RTOL)
    assert seconds <= 30, f"one attention launch took {seconds:.1f} s on the emulator"
    assert res.block == kern.block == (256, 1, 1)
    assert res.grid == kern.grid
    with capsys.disabled():
        print(f"\nwave attention {heads}x{SEQ}x{HEAD_DIM}: compile {compile_seconds:.2f} s, "
              f"emulation {seconds:.2f} s, max |out - sdpa| "
              f"{float((out - ref).abs().max()):.2e}")


def test_attention_code_object(attention):
    kern, _ = attention
    assert kern.signature == "base_attention(q, k, v, c)"
    assert kern.kernel.info().signature == ("base_attention(const _Float16 *q, const _Float16 "
                                            "*k, const _Float16 *v, float *c)")
    assert "v_mfma_f32_16x16x16_f16" in {i.mnemonic for i in kern.isa}
    assert kern.resources.lds_bytes == kern.module.launch_info.shared_memory_bytes
