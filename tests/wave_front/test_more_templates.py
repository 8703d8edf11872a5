"""wb.wave on Wave's other kernel templates (wave_lang/kernel/wave/templates/, wave-lang 3.9.1)
at small shapes on the emulator, each against a torch reference at the tolerance of Wave's own
test of it (iree-org/wave tests/kernel/wave/..., tag v3.9.1; file and line at each check). New
here: GEMM schedules (PREFETCH, MODULO with an unrolling postprocess, a manual schedule),
dynamic unaligned M/N/K, buffer ops, gfx950's MFMAs and global-to-LDS loads, the igemm conv,
decode, paged decode and extend attention (Memory with physical layouts, a scalar before the
output), evoformer / T5 RPE / ALiBi / fp8 attention, MoE, speculative sampling (integer
outputs, a scalar between buffers), sliding-window / GQA / prefill attention, MXFP4 GEMM.

Where a template computes something else than its Wave test's reference (extend attention with
RPE, MoE's silu_and_mul), the reference follows the template: said at the check. Each launch
prints its emulated seconds and max error and must take < 10 s. Compiling dominates (1 to 11 s
a kernel on 2 cores; Wave's cache keeps 16, so a run compiles most): reordered_gemm.py, which
runs exactly too, is left out, as Wave takes 10 to 30 s to compile it (sympy simplifying its
remapped workgroup indices).
"""
from __future__ import annotations

import math
import time

import pytest

pytest.importorskip("wave_lang", reason="the optional wave-lang package is not installed "
                    "(pip install 'hip-workbench[wave]'; make setup installs it)")
torch = pytest.importorskip("torch")

import torch.nn.functional as F  # noqa: E402
import wave_lang.kernel.lang as tkl  # noqa: E402
from wave_lang.kernel.lang.global_symbols import GLOBAL_ADDRESS_SPACE  # noqa: E402
from wave_lang.kernel.wave.constraints import MMAType, ScaledMMAType  # noqa: E402
from wave_lang.kernel.wave.scheduling.schedule_enums import SchedulingType  # noqa: E402
from wave_lang.kernel.wave.templates.attention_common import AttentionShape  # noqa: E402
from wave_lang.kernel.wave.utils.general_utils import (  # noqa: E402
    get_default_scheduling_params,
)

import workbench as wb  # noqa: E402

# One xdist worker runs every Wave test, so no two processes write the same kernel into Wave's
# on-disk cache (~/.wave) at once (its lock is a thread lock: wave_lang/kernel/wave/cache.py).
pytestmark = pytest.mark.xdist_group("wave_front")

F16, MMA16, MMA32 = torch.float16, MMAType.F32_16x16x16_F16, MMAType.F32_32x32x8_F16
LOG2E = 1.44269504089
# Wave's attention tests' options (vanilla_attention_test.py testAttentionCausal and others)
ATTN = dict(waves_per_eu=2, denorm_fp_math_f32="preserve-sign")


def build(fn, hyper, arch="gfx942", **options):
    hyper.update({k: v for k, v in get_default_scheduling_params().items() if k not in hyper})
    return wb.wave(fn, hyper, arch=arch, **options)


def launch(kern, *args, arch="gfx942"):
    t0 = time.perf_counter()
    kern.on(f"emulator:{arch}")(*args)
    seconds = time.perf_counter() - t0
    assert seconds < 10, f"{kern.name}: one launch took {seconds:.1f} s on the emulator"
    return seconds


def check(capsys, what, seconds, out, ref, atol, rtol):
    err = float((out.float() - ref.float()).abs().max())
    with capsys.disabled():
        print(f"\nwave {what}: emulation {seconds:.2f} s, max error {err:.2e}")
    torch.testing.assert_close(out, ref, atol=atol, rtol=rtol, check_dtype=False)


def randn(*shape, dtype=F16):
    return torch.randn(*shape, dtype=dtype)


# -- GEMM (templates/gemm.py) ---------------------------------------------------------------
# the postprocess of Wave's testPureGemm for its multi-buffered schedules
UNROLL = """
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["scf.for"]} in %arg0
      : (!transform.any_op) -> !transform.any_op
    transform.loop.unroll %0 { factor = %%UNROLL_FACTOR%% } : !transform.any_op
    transform.yield
  }
}
"""


@pytest.mark.parametrize("schedule,buffer_ops", [
    (SchedulingType.NONE, True), (SchedulingType.PREFETCH, False), (SchedulingType.MODULO, True)])
def test_gemm_dynamic_unaligned(capsys, schedule, buffer_ops):
    """M, N, K dynamic, sizes no tile divides (reads past the edges masked or, with buffer ops,
    bounded by the buffer's size); MODULO with testPureGemm's loop unrolling postprocess."""
    from wave_lang.kernel.wave.templates.gemm import get_gemm_kernel

    fn, hyper, dyn = get_gemm_kernel((128, 128, 256), True, MMA16)
    opts = {}
    if schedule == SchedulingType.MODULO:
        hyper[tkl.sym.UNROLL_FACTOR] = 2
        opts["postprocess"] = UNROLL
    kern = build(fn, hyper, dynamic_symbols=dyn, schedule=schedule, use_buffer_ops=buffer_ops,
                 **opts)
    torch.manual_seed(0)
    for m, n, k in ((100, 72, 160), (17, 23, 136)):  # K > 4 * BLOCK_K: the template's Assumption
        a, b, c = randn(m, k), randn(n, k), torch.full((m, n), math.nan)
        s = launch(kern, a, b, c)
        # wave_gemm_test.py:433 (testGemmSmallTiles: dynamic dims, use_buffer_ops=True)
        check(capsys, f"gemm {schedule.name} {m}x{n}x{k}", s, c, a.float() @ b.float().T,
              2e-4, 1e-5)


@pytest.mark.parametrize("mma,g2s", [(MMAType.F32_16x16x32_F16, False),
                                     (MMAType.F32_32x32x16_F16, False), (MMA16, True)])
def test_gemm_gfx950_mfma(capsys, mma, g2s):
    """gfx950's double-K f16 MFMAs; use_global_to_shared loads A and B straight into LDS
    (buffer_load_dwordx4 ... lds, gfx950's 16-byte LDS DMA)."""
    from wave_lang.kernel.wave.templates.gemm import get_gemm_kernel

    fn, hyper, _ = get_gemm_kernel((128, 128, 128), False, mma)
    kern = build(fn, hyper, arch="gfx950", use_global_to_shared=g2s)
    mnemonics = {i.mnemonic for i in kern.isa}
    assert f"v_mfma_f32_{mma.name[4:].lower()}" in mnemonics
    if g2s:
        assert any(i.mnemonic.startswith("buffer_load") and " lds" in i.text for i in kern.isa)
    torch.manual_seed(1)
    a, b, c = randn(128, 128), randn(128, 128), torch.full((128, 128), math.nan)
    s = launch(kern, a, b, c, arch="gfx950")
    # wave_gemm_test.py:433 (testGemmSmallTiles); :302 (testGemmGatherToLDS) compares with IREE
    check(capsys, f"gemm gfx950 {mma.name}", s, c, a.float() @ b.float().T, 2e-4, 1e-5)


def test_gemm_with_a_manual_prefetch_schedule(capsys):
    """templates/test_kernels.py get_gemm_prefetch_kernel_and_schedule: a two-stage pipeline
    given as a @wave_schedule function (wave_compile's third argument: wb.wave's
    wave_schedule=), with the options it returns, as wave_gemm_test.py's
    test_gemm_prefetch_manual_schedule compiles it."""
    from wave_lang.kernel.wave.templates import test_kernels

    fn, schedule, options = test_kernels.get_gemm_prefetch_kernel_and_schedule(
        (128, 128, 128), compile_to_mlir=False)
    kern = wb.wave(fn, options.subs, wave_schedule=schedule, schedule=options.schedule,
                   use_scheduling_barriers=options.use_scheduling_barriers)
    torch.manual_seed(3)
    a, b, c = randn(128, 128), randn(128, 128), torch.randn(128, 128)
    s = launch(kern, a, b, c)
    # wave_gemm_test.py test_gemm_prefetch_manual_schedule compares with IREE's matmul; here
    # testGemmSmallTiles' tolerance (wave_gemm_test.py:433)
    check(capsys, "gemm manual prefetch schedule", s, c, a.float() @ b.float().T, 2e-4, 1e-5)


def test_gfx950_global_to_lds_with_double_k_mfma_reads_past_a():
    """Wave 3.9.1 miscompiles use_global_to_shared with F32_16x16x32_F16 (a combination its
    testGemmGatherToLDS does not run): the gather_to_lds column is k * 32 + 8 * ((t mod 4) xor
    ((t / 4) mod 8)), up to 63 + 32 k in a 32-wide K tile, so threads load columns of later K
    tiles (of the next row, in the last tile) and the last row of A runs past its end (the LDS
    reads are swizzled the same way, past the 8 KiB allocation); on a GPU the product is wrong
    (the same kernel on the emulator with padded A and lds_oob="hardware" is off by ~68). The
    emulator stops at the first such access."""
    from wave_lang.kernel.wave.templates.gemm import get_gemm_kernel

    fn, hyper, _ = get_gemm_kernel((128, 128, 128), False, MMAType.F32_16x16x32_F16)
    kern = build(fn, hyper, arch="gfx950", use_global_to_shared=True)
    assert "xori" in kern.mlir and "amdgpu.gather_to_lds" in kern.mlir
    a, b = randn(128, 128), randn(128, 128)
    with pytest.raises(wb.KernelFault, match="out-of-bounds"):
        kern.on("emulator:gfx950")(a, b, torch.zeros(128, 128))


# -- convolution (templates/conv.py) --------------------------------------------------------
def test_igemm_conv2d_global(capsys):
    """Implicit-GEMM conv2d reading x and w from global memory: LLVM computes its 16-bit
    indices with v_mad_legacy_u16 (the emulator lacked it)."""
    from wave_lang.kernel.wave.templates.conv import get_igemm_conv2d

    n, c, h, w, nf, hf, wf, stride = 2, 10, 5, 5, 16, 2, 2, 1
    torch.manual_seed(1)
    x, we = randn(n, c, h, w), randn(nf, c, hf, wf)
    ref = F.conv2d(x.float(), we.float(), stride=stride)
    fn, hyper = get_igemm_conv2d(layout="nchw_fchw", n=n, h=h, w=w, c=c, hf=hf, wf=wf, nf=nf,
                                 stride=stride, input_dtype=tkl.f16, output_dtype=tkl.f32,
                                 mem_space=GLOBAL_ADDRESS_SPACE)
    kern = build(fn, hyper)
    assert "v_mad_legacy_u16" in {i.mnemonic for i in kern.isa}
    out = torch.full_like(ref, math.nan)
    s = launch(kern, x, we, out)
    check(capsys, "igemm conv2d", s, out, ref, 1e-3, 1e-3)  # wave_e2e_test.py:1749


# -- decode attention -----------------------------------------------------------------------
def test_decode_attention_two_phases(capsys):
    """Flash decoding, dynamic dimensions; phase 0 takes v.permute(...) as Wave's test passes
    it (not contiguous: Wave's launcher copies it, as wb.wave does for a read-only buffer)."""
    from wave_lang.kernel.wave.templates.decode_attention import get_decode_attention_kernels

    shape = B, M, N, K1, K2 = 2, 16, 64, 64, 256
    p0, p1, h0, h1, d0, d1, splits = get_decode_attention_kernels(shape, MMA16, True)
    k0, k1 = build(p0, h0, dynamic_symbols=d0), build(p1, h1, dynamic_symbols=d1)
    torch.manual_seed(0)
    q, k, v = randn(B, M, K1), randn(B, K2, K1), randn(B, K2, N)
    part, part_max = torch.zeros(splits, B, N, M), torch.zeros(splits, B, M)
    out = torch.full((B, M, N), math.nan)
    s = launch(k0, q * math.sqrt(1.0 / K1) * LOG2E, k, v.permute([0, 2, 1]), part, part_max)
    s += launch(k1, part, part_max, out)
    ref = F.scaled_dot_product_attention(q.float(), k.float(), v.float())
    check(capsys, "decode attention", s, out, ref, 1e-3, 1e-3)  # decode_attention_test.py:126


def test_gqa_decode_attention(capsys):
    from wave_lang.kernel.wave.templates import gqa_decode_attention

    shape = AttentionShape(num_seqs=1, num_query_heads=16, num_kv_heads=1, query_seq_len=1,
                           kv_seq_len=256, head_size_kv=64, head_size=64)
    splits, kv_shape = 8, (1, 256, 1, 64)
    p0, p1, h0, h1 = gqa_decode_attention.get_gqa_decode_attention_kernels(
        shape, (MMA32, MMA32), splits, kv_shape, kv_shape)
    k0, k1 = build(p0, h0), build(p1, h1)
    torch.manual_seed(0)
    q, k, v = randn(1, 16, 64), randn(*kv_shape), randn(*kv_shape)
    part, part_max = torch.zeros(splits, 1, 64, 16), torch.zeros(splits, 1, 16)
    out = torch.zeros(1, 16, 64, dtype=F16)
    s = launch(k0, q, k, v, part, part_max) + launch(k1, part, part_max, out)
    ref = F.scaled_dot_product_attention(q.float()[:, :, None], k.float().transpose(1, 2),
                                         v.float().transpose(1, 2), scale=1 / 8)[:, :, 0]
    check(capsys, "gqa decode attention", s, out, ref, 1e-3, 1e-3)  # decode_attention_test:228


def test_paged_decode_attention(capsys):
    """GQA paged decoding with a logit cap; request_indices holds num_seqs + 1 offsets for its
    Memory[S] (the kernel reads entry s + 1)."""
    from wave_lang.kernel.wave.templates.paged_decode_attention import (
        get_paged_decode_attention_kernels,
        get_paged_decode_intermediate_arrays_shapes,
        paged_decode_attention_shape,
    )

    hq, hkv, d, lens, cap = 16, 2, 64, (93, 107), 30.0
    shape = paged_decode_attention_shape(num_query_heads=hq, num_kv_heads=hkv, head_size=d,
                                         head_size_kv=d, block_size=32, num_seqs=len(lens))
    p0, p1, h0, h1, d0, d1 = get_paged_decode_attention_kernels(shape, (MMA16, MMA16), 8,
                                                                logit_cap=cap)
    k0, k1 = build(p0, h0, dynamic_symbols=d0), build(p1, h1, dynamic_symbols=d1)
    torch.manual_seed(0)
    total = sum(lens)
    q, kc, vc = randn(len(lens), hq, d), randn(total, hkv, d), randn(total, hkv, d)
    table = torch.randperm(total).to(torch.int32)  # the cache rows of each sequence, paged
    starts = torch.tensor([0, lens[0], total], dtype=torch.int32)
    s0, s1 = get_paged_decode_intermediate_arrays_shapes(shape, 8)
    part, part_max = torch.full(s0, math.nan), torch.full(s1, math.nan)
    out = torch.zeros(len(lens), hq, d, dtype=F16)
    s = launch(k0, q, kc, vc, starts, table, part, part_max)
    s += launch(k1, part, part_max, starts, out)
    ref = torch.empty(len(lens), hq, d)
    for i in range(len(lens)):  # paged_attention_test.py ref_paged_attn, one query per sequence
        rows = table[starts[i]:starts[i + 1]].long()
        kk, vv = (x[rows].float().repeat_interleave(hq // hkv, 1) for x in (kc, vc))
        a = torch.einsum("hd,khd->hk", q[i].float() * d ** -0.5, kk)
        ref[i] = torch.einsum("hk,khd->hd", torch.softmax(cap * torch.tanh(a / cap), -1), vv)
    check(capsys, "paged decode attention", s, out, ref, 1e-3, 1e-3)  # paged_attention_test:355


# -- extend attention (physical layouts, a scalar before the output) -------------------------
def _extend_inputs(prefix=(19, 31), extend=(16, 15), hq=4, hkv=1, d=64):
    """extend_attention_test.py create_inputs with fixed lengths: the KV cache holds each
    sequence's prefix and extension, kv_indices its prefix rows, q/k/v_extend the extension."""
    torch.manual_seed(0)
    seq = [p + e for p, e in zip(prefix, extend)]
    start = [sum(seq[:i]) for i in range(len(seq))]
    kb = torch.empty(sum(seq), hkv, d, dtype=F16).normal_(0.1, 0.2)
    vb = torch.empty(sum(seq), hkv, d, dtype=F16).normal_(0.1, 0.2)
    ext = torch.cat([torch.arange(s + p, s + n) for s, p, n in zip(start, prefix, seq)])
    q = torch.empty(sum(extend), hq, d, dtype=F16).normal_(0.1, 0.2)
    cum = lambda xs: torch.tensor([sum(xs[:i]) for i in range(len(xs) + 1)],  # noqa: E731
                                  dtype=torch.int32)
    kv_indices = torch.cat([torch.arange(s, s + p) for s, p in zip(start, prefix)]).int()
    return dict(q=q, k=kb[ext].contiguous(), v=vb[ext].contiguous(), kb=kb, vb=vb,
                qo=cum(extend), kv_indptr=cum(prefix), kv_indices=kv_indices, prefix=prefix,
                extend=extend, start=start)


def _extend_reference(x, causal, cap=0.0, rpe=None):
    """Attention of each extension token over its sequence's prefix and extension (causal among
    the extension); with ``rpe``, rpe[i - j] added where 0 <= i - j < len(rpe) - 1 for query i
    and key j both in the extension, as the RPE template adds it (its second loop only)."""
    out = []
    for i, (p, e, st) in enumerate(zip(x["prefix"], x["extend"], x["start"])):
        q = x["q"][x["qo"][i]:x["qo"][i + 1]].float().transpose(0, 1)
        hq = q.shape[0]
        k, v = (t[st:st + p + e].float().transpose(0, 1).repeat_interleave(
            hq // t.shape[1], 0) for t in (x["kb"], x["vb"]))
        a = q @ k.transpose(1, 2) / math.sqrt(q.shape[-1])
        if cap:
            a = cap * torch.tanh(a / cap)
        qi, kj = torch.arange(e)[:, None], torch.arange(p + e)[None, :] - p
        if rpe is not None:
            diff = qi - kj
            near = (kj >= 0) & (diff >= 0) & (diff < len(rpe) - 1)
            a = a + torch.where(near, rpe[diff.clamp(0, len(rpe) - 1)], 0.0)
        if causal:
            a = a.masked_fill(kj > qi, -math.inf)
        out.append((torch.softmax(a, -1) @ v).transpose(0, 1))
    return torch.cat(out)


def _extend_shapes(x, hq):
    shape = AttentionShape(num_seqs=len(x["prefix"]), context_len=64, num_query_heads=hq,
                           num_kv_heads=x["k"].shape[1], head_size=64, head_size_kv=64,
                           block_size=64, max_seq_len=max(x["extend"]))
    return shape, (x["q"].shape, x["k"].shape, x["v"].shape, x["kb"].shape, x["vb"].shape,
                   (x["q"].shape[0], hq, 64))


def test_extend_attention(capsys):
    from wave_lang.kernel.wave.templates.extend_attention import get_extend_attention_kernel

    x = _extend_inputs()
    shape, shapes = _extend_shapes(x, 4)
    fn, hyper, dyn = get_extend_attention_kernel(shape, (MMA16, MMA16), *shapes, is_causal=True,
                                                 logit_cap=30.0, num_waves=4)
    kern = build(fn, hyper, dynamic_symbols=dyn, use_buffer_ops=True)
    out = torch.full(shapes[-1], math.nan)
    s = launch(kern, x["q"], x["k"], x["v"], x["kb"], x["vb"], x["qo"], x["kv_indptr"],
               x["kv_indices"], max(x["extend"]), out)
    ref = _extend_reference(x, True, cap=30.0)
    check(capsys, "extend attention", s, out, ref, 1e-3, 1e-3)  # extend_attention_test:453


def test_extend_attention_rpe(capsys):
    """T5 relative position bias in extend attention. Wave's test (extend_attention_test.py:577,
    atol=rtol=5e-2) biases prefix keys too, which the template does not; at its long sequences
    the difference hides in that tolerance, at these it would not: the reference here is the
    template's, at the tolerance of extend attention (line 453)."""
    from wave_lang.kernel.wave.templates import extend_attention_rpe

    x = _extend_inputs()
    shape, shapes = _extend_shapes(x, 4)
    max_rpe = 10
    fn, hyper, dyn = extend_attention_rpe.get_extend_attention_rpe_kernel(
        shape, (MMA16, MMA16), *shapes, is_causal=True, num_waves=4,
        max_rpe_context_length=max_rpe)
    kern = build(fn, hyper, dynamic_symbols=dyn)
    rpe = torch.randn(max_rpe + 1)
    rpe[max_rpe] = 0
    out = torch.full(shapes[-1], math.nan)
    s = launch(kern, x["q"], x["k"], x["v"], x["kb"], x["vb"], x["qo"], x["kv_indptr"],
               x["kv_indices"], rpe, max(x["extend"]), out)
    check(capsys, "extend attention rpe", s, out, _extend_reference(x, True, rpe=rpe), 1e-3,
          1e-3)


# -- attention variants ---------------------------------------------------------------------
def test_evoformer_bf16(capsys):
    from wave_lang.kernel.wave.templates.evoformer import get_evoformer_kernel

    batch, n, kv, heads, hd, qs, vd = shape = (1, 4, 64, 2, 32, 64, 32)
    tiles = (1, 1, 32, 1, None, 64, 32)  # evoformer_test.py default_tile_sizes
    fn, hyper = get_evoformer_kernel(*zip(shape, tiles), MMA32, tkl.bf16)
    kern = build(fn, hyper, **ATTN)
    torch.manual_seed(0)
    bf = torch.bfloat16
    q, k, v = randn(batch, n, qs, heads, hd, dtype=bf), randn(batch, n, kv, heads, hd, dtype=bf), \
        randn(batch, n, kv, heads, vd, dtype=bf)
    mask_bias = 1e9 * (torch.randint(0, 2, (batch, n, kv)).to(bf) - 1)
    bias = randn(batch, heads, qs, kv, dtype=bf)
    out = torch.full((batch, n, qs, heads, vd), math.nan, dtype=bf)
    dk = math.sqrt(1.0 / hd)
    s = launch(kern, q * dk * LOG2E, k, v.permute([0, 1, 4, 3, 2]), mask_bias, bias * LOG2E, out)
    a = q.float().transpose(-2, -3) @ k.float().transpose(-2, -3).transpose(-1, -2) * dk
    a = a + mask_bias.float().view(batch, n, 1, 1, kv) + bias.float().view(batch, 1, heads, qs, kv)
    ref = (torch.softmax(a, -1) @ v.float().transpose(-2, -3)).transpose(-2, -3)
    check(capsys, "evoformer bf16", s, out, ref, 5e-2, 0)  # evoformer_test.py:136 (bf16 eps)


def _bhsd(h=4, s=128, d=64, seed=0):
    torch.manual_seed(seed)
    return randn(h, s, d), randn(h, s, d), randn(h, s, d)


def test_t5_rpe_attention(capsys):
    from wave_lang.kernel.wave.templates.t5_rpe_attention import get_t5_rpe_attention_kernel

    shape = AttentionShape(num_query_heads=4, num_kv_heads=4, head_size=64, head_size_kv=64,
                           query_seq_len=128, kv_seq_len=128)
    max_rpe = 10
    fn, hyper, _ = get_t5_rpe_attention_kernel(shape, (MMA32, MMA32), dynamic_dims=False,
                                               max_rpe_context_length=max_rpe)
    kern = build(fn, hyper)
    q, k, v = _bhsd()
    rpe = torch.randn(max_rpe + 1)
    rpe[max_rpe] = 0
    out = torch.full((4, 128, 64), math.nan)
    dk = math.sqrt(1.0 / 64)
    s = launch(kern, q * dk * LOG2E, k, v.permute([0, 2, 1]), rpe * LOG2E, out)
    diff = torch.arange(128)[:, None] - torch.arange(128)[None, :]
    bias = torch.where((diff >= 0) & (diff <= max_rpe), rpe[diff.clamp(0, max_rpe)], 0.0)
    ref = torch.softmax(q.float() @ k.float().transpose(1, 2) * dk + bias, -1) @ v.float()
    check(capsys, "t5 rpe attention", s, out, ref, 2e-3, 2e-3)  # t5_rpe_attention_test.py:77


def test_alibi_attention(capsys):
    from wave_lang.kernel.wave.templates.alibi_attention import get_alibi_attention_kernel

    shape = AttentionShape(num_query_heads=4, num_kv_heads=4, head_size=64, head_size_kv=64,
                           query_seq_len=128, kv_seq_len=128)
    fn, hyper, _ = get_alibi_attention_kernel(shape, (MMA16, MMA16), dynamic_dims=False)
    kern = build(fn, hyper)
    q, k, v = _bhsd()
    slopes = 2.0 ** (-8.0 / 4 * torch.arange(1, 5))  # precompute_alibi_slopes(4 heads)
    out = torch.full((4, 128, 64), math.nan)
    dk = math.sqrt(1.0 / 64)
    s = launch(kern, q * dk * LOG2E, k, v.permute([0, 2, 1]), slopes * LOG2E, out)
    rel = torch.clamp(torch.arange(128)[None, :] - torch.arange(128)[:, None], max=0)
    a = q.float() @ k.float().transpose(1, 2) * dk + slopes[:, None, None] * rel
    ref = torch.softmax(a, -1) @ v.float()
    check(capsys, "alibi attention", s, out, ref, 2e-3, 2e-3)  # alibi_attention_test.py:87


def test_causal_sliding_window_attention_k8_mfma(capsys):
    """Vanilla attention, causal with a 32-token window, through the K8-split MFMA pair."""
    from wave_lang.kernel.wave.templates.vanilla_attention import get_vanilla_attention_kernel

    shape = AttentionShape(num_query_heads=2, num_kv_heads=2, query_seq_len=128, head_size=64,
                           head_size_kv=64, kv_seq_len=128)
    fn, hyper, dyn = get_vanilla_attention_kernel(
        shape, (MMAType.F32_32x32x16_K8_F16, MMA32), False, is_causal=True,
        is_v_transposed=True, sliding_window_size=32)
    kern = build(fn, hyper, dynamic_symbols=dyn, **ATTN)
    q, k, v = _bhsd(h=2, seed=1)
    out = torch.full((2, 128, 64), math.nan)
    s = launch(kern, q, k, v.permute([0, 2, 1]), out)
    mask = torch.ones(128, 128, dtype=torch.bool).tril().triu(-32)
    ref = F.scaled_dot_product_attention(q.float(), k.float(), v.float(), attn_mask=mask)
    check(capsys, "sliding window attention", s, out, ref, 1e-3, 1e-3)  # vanilla_attn_test:333


def test_gqa_bshd_causal_attention(capsys):
    from wave_lang.kernel.wave.templates import gqa_vanilla_attention

    shape = AttentionShape(num_seqs=1, num_query_heads=4, num_kv_heads=1, query_seq_len=128,
                           kv_seq_len=128, head_size_kv=64, head_size=64)
    fn, hyper, dyn = gqa_vanilla_attention.get_gqa_bshd_attention_kernel(shape, (MMA16, MMA16),
                                                                          is_causal=True)
    kern = build(fn, hyper, dynamic_symbols=dyn, **ATTN)
    torch.manual_seed(1)
    q, k, v = randn(1, 4, 128, 64), randn(1, 1, 128, 64), randn(1, 1, 128, 64)
    out = torch.full((1, 128, 4, 64), math.nan)
    s = launch(kern, *(t.transpose(1, 2).contiguous() for t in (q, k, v)), out)
    ref = F.scaled_dot_product_attention(q.float(), k.float().expand(1, 4, 128, 64),
                                         v.float().expand(1, 4, 128, 64), is_causal=True)
    check(capsys, "gqa bshd attention", s, out.transpose(1, 2), ref, 1e-3, 1e-3)  # gqa:126


def test_prefill_attention_head_size_13(capsys):
    """Two sequences packed in one array, head size 13 (no MFMA K multiple)."""
    from wave_lang.kernel.wave.templates.prefill_attention import get_prefill_attention_kernel

    lens, d = (64, 64), 13
    shape = AttentionShape(num_query_heads=1, num_kv_heads=1, head_size=d, head_size_kv=d,
                           num_seqs=2, max_seq_len=64, total_seq_len=128)
    torch.manual_seed(1)
    q, k, v = randn(128, 1, d), randn(128, 1, d), randn(128, 1, d)
    out = torch.full((128, 1, d), math.nan)
    fn, hyper = get_prefill_attention_kernel(shape, (MMA16, MMA16), q.shape, k.shape, v.shape,
                                             out.shape)
    kern = build(fn, hyper)
    offsets, seq_lens = (torch.tensor(t, dtype=torch.int32) for t in ((0, 64), lens))
    s = launch(kern, q * math.sqrt(1.0 / d) * LOG2E, k, v, offsets, seq_lens, out)
    ref = torch.cat([F.scaled_dot_product_attention(*(t[i:i + 64].float().transpose(0, 1)
                                                      for t in (q, k, v))).transpose(0, 1)
                     for i in (0, 64)])
    check(capsys, "prefill attention", s, out, ref, 1e-3, 1e-3)  # prefill_attention_test.py:68


@pytest.mark.parametrize("arch,f8", [("gfx942", torch.float8_e4m3fnuz),
                                     ("gfx950", torch.float8_e4m3fn)])
def test_quantized_fp8_attention(capsys, arch, f8):
    """Per-tensor fp8 attention (q, k, v and the probabilities through fp8 MFMAs). gfx950 takes
    the OCP e4m3fn the template can be given: its default FNUZ type IREE refuses there ("F8E5M2FNUZ
    and F8E4M3FNUZ types are not supported on non-gfx942")."""
    from wave_lang.kernel.wave.templates.quantized_attention import (
        get_brevitas_pertensor_fp8_attention_kernel,
    )
    from wave_lang.kernel.wave.utils.torch_utils import quantized_tensor

    h, n, d = 2, 128, 64
    scales = dict(q_scale=0.02578124962747097, k_scale=0.02363281324505806,
                  v_scale=0.010286458767950535)  # quantized_attention_test.py
    shape = AttentionShape(num_query_heads=h, num_kv_heads=h, query_seq_len=n, head_size_kv=d,
                           head_size=d, kv_seq_len=n)
    fn, hyper, dyn = get_brevitas_pertensor_fp8_attention_kernel(
        shape, (MMAType.F32_16x16x32_F8, MMAType.F32_16x16x32_K4_F8), f8_dtype=f8, **scales)
    kern = build(fn, hyper, arch=arch, dynamic_symbols=dyn, **ATTN)
    torch.manual_seed(0)
    q, k, v = (quantized_tensor((h, n, d), dtype=F16, scale=128) for _ in range(3))
    out = torch.full((h, n, d), math.nan)
    s = launch(kern, q, k, v, out, arch=arch)
    sdpa = F.scaled_dot_product_attention(*(t.float() * scales[f"{c}_scale"]
                                            for t, c in zip((q, k, v), "qkv")))
    rmse = float(torch.sqrt(torch.mean(torch.square(out - sdpa))))
    assert rmse < 0.04, rmse  # quantized_attention_test.py:113
    # the template's own arithmetic (fp8 casts, the online softmax over 64-key tiles, the
    # probabilities scaled to the fp8 range and clamped): exact but for fp32 rounding
    q8, k8, v8 = (t.to(f8).float() for t in (q, k, v))
    top = torch.finfo(f8).max
    scale = math.sqrt(1.0 / d) * LOG2E * scales["q_scale"] * scales["k_scale"]
    m, total, acc = torch.full((h, n), -1e6), torch.zeros(h, n), torch.zeros(h, n, d)
    for j in range(0, n, 64):
        x = q8 @ k8[:, j:j + 64].transpose(1, 2) * scale
        m_new = torch.maximum(m, x.amax(-1))
        e = torch.exp2(x - m_new[..., None] + math.log2(top))
        total = total * torch.exp2(m - m_new) + e.sum(-1)
        p8 = e.clamp(max=top).to(f8).float()
        acc = acc * torch.exp2(m - m_new)[..., None] + p8 @ v8[:, j:j + 64]
        m = m_new
    check(capsys, f"fp8 attention {arch} (rmse vs sdpa {rmse:.3f})", s, out,
          acc / total[..., None] * scales["v_scale"], 1e-5, 1e-4)


# -- MoE, speculative sampling, MXFP4 -------------------------------------------------------
def test_moe_gemm_and_silu_and_mul(capsys):
    """templates/moe.py: the expert GEMM (K = 511, M = 33: no tile divides them) in bf16 and
    silu_and_mul in fp16. moe_test.py holds both to rtol=1e-1, atol=1e-2 (line 258) against
    gate * up / (1 + exp(-gate)); the template computes -1 / (-1 + exp2(-gate)) * gate * up
    (cst_1 = -1.0), which that reference is not, so ours repeats the template's fp16 steps."""
    from wave_lang.kernel.wave.templates.moe import get_gemm_kernel, get_silu_and_mul_kernel

    m, k, n = 33, 511, 128
    fn, hyper = get_gemm_kernel(m, k, n, MMA16, tkl.bf16)
    gemm = build(fn, hyper, **ATTN)  # moe_test.py get_wave_gemm_kernel's options
    torch.manual_seed(0)
    a, b = torch.rand(m, k, dtype=torch.bfloat16), torch.rand(n, k, dtype=torch.bfloat16)
    c = torch.full((m, n), math.nan)
    s = launch(gemm, a, b, c)
    check(capsys, "moe gemm 33x128x511", s, c, a.float() @ b.float().T, 2e-4, 1e-5)  # gemm:433
    fn, hyper = get_silu_and_mul_kernel(m, n, tkl.f16)
    silu = build(fn, hyper)
    sign = torch.randint(0, 2, (m, n)) * 2 - 1
    x1 = ((torch.rand(m, n) * 2.5 + 0.5) * sign).to(F16)  # away from 0, where -1 + exp2 cancels
    x2, out = randn(m, n), torch.full((m, n), math.nan, dtype=F16)
    s = launch(silu, x1, x2, out)
    ref = (-1 / (-1 + torch.exp2(-x1))) * x1 * x2  # each step rounded to fp16, as the kernel's
    check(capsys, "moe silu_and_mul", s, out, ref, 1e-3, 2e-3)


def test_speculative_sampling(capsys):
    """speculative_decode_test.py testReferenceSpeculativeDecoding (lines 228-333): its draft
    tree, logits and expected outputs for thresholds (1, 1), which must come out exactly (its
    (0, 0) case, another compile, passes too)."""
    from wave_lang.kernel.wave.templates import speculative_decoding

    i32 = torch.int32
    candidates = torch.tensor([[0, 1, 2, 3, 4, 5], [7, 8, 9, 10, 11, 12]], dtype=i32)
    retrieve = torch.tensor([[0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11]], dtype=i32)
    next_token = torch.tensor([[1, 2, -1, 4, 5, -1], [4, 2, 3, -1, 5, -1]], dtype=i32)
    next_sibling = torch.tensor([[-1, 3, -1, -1, -1, -1], [-1, -1, -1, -1, 1, -1]], dtype=i32)
    logits = torch.ones(2, 6, 64)
    for b, t, tok in ((0, 0, 3), (0, 3, 4), (0, 4, 5), (1, 0, 11), (1, 4, 12)):
        logits[b, t, tok] = 10
    logits[..., 18] = torch.where(logits.amax(-1) < 10, 10.0, 1.0)
    target = torch.softmax(logits / 0.01, -1)
    predicts = [3, -1, -1, 4, 5, 18, 11, -1, -1, -1, 12, 18]
    steps, ts, ta = 4, 1, 1
    fn, hyper, _ = speculative_decoding.get_speculative_sampling_kernel(2, steps, ta, ts, 6, 64,
                                                                        len(predicts))
    kern = build(fn, hyper, **ATTN)
    torch.manual_seed(0)
    out_predicts = torch.full((len(predicts),), -1, dtype=i32)
    out_index, out_accepted = torch.full((2, steps), -1, dtype=i32), torch.zeros(2, dtype=i32)
    s = launch(kern, torch.rand(2, 6), torch.rand(2), target, torch.zeros_like(target),
               candidates, retrieve, next_token, next_sibling, steps, out_predicts, out_accepted,
               out_index)
    with capsys.disabled():
        print(f"\nwave speculative sampling: emulation {s:.2f} s")
    assert out_predicts.tolist() == predicts
    assert out_index.tolist() == [[0, 3, 4, 5], [6, 10, 11, -1]]
    assert out_accepted.tolist() == [3, 2]


def test_mxfp4_scaled_gemm_gfx950(capsys):
    """templates/test_kernels.py get_broadcasted_scale_gemm_mxfp4: fp4 (e2m1) operands packed two
    a byte with e8m0 scales, A's one per row, through v_mfma_scale_f32_16x16x128_f8f6f4; the
    packed data are uint8 tensors for i8 Memory, as Wave's test passes them."""
    from wave_lang.kernel.wave.templates.test_kernels import get_broadcasted_scale_gemm_mxfp4

    m = n = k = 256
    fn, hyper = get_broadcasted_scale_gemm_mxfp4((m, n, k), ScaledMMAType.F32_16x16x128_F8F6F4)
    kern = build(fn, hyper, arch="gfx950")
    torch.manual_seed(5)  # wave_gemm_mxfp_test.py generate_gemm_afp4wfp4_inputs
    x, w = (torch.randint(0, 256, (r, k // 2), dtype=torch.uint8) for r in (m, n))
    x_scale = torch.randint(124, 128, (m,), dtype=torch.uint8)
    w_scale = torch.randint(124, 128, (n, k // 32), dtype=torch.uint8)
    out = torch.full((m, n), math.nan)
    s = launch(kern, x, x_scale, w, w_scale, out, arch="gfx950")
    e2m1 = torch.tensor([0, 0.5, 1, 1.5, 2, 3, 4, 6, -0.0, -0.5, -1, -1.5, -2, -3, -4, -6])
    fp4 = lambda t: e2m1[torch.stack([t & 15, t >> 4], -1).flatten(1).long()]  # noqa: E731
    a = fp4(x) * 2.0 ** (x_scale.float() - 127)[:, None]
    b = fp4(w) * (2.0 ** (w_scale.float() - 127)).repeat_interleave(32, 1)
    # wave_gemm_mxfp_test.py:572: assert_close's float32 default
    check(capsys, "mxfp4 scaled gemm", s, out, a @ b.T, 1e-5, 1.3e-6)
