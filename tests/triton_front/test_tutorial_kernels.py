"""Triton's tutorial kernels (kernels/triton/tutorial.py, notebook 07) on emulator:gfx942 and
emulator:gfx950 against CPU torch.

Why: the notebook claims each kernel computes what torch does, exactly where the maths is exact
(fp32 vector add) and otherwise within the tolerance Triton's own tutorial uses for that kernel
(cited at each check, triton-lang/triton python/tutorials/), and that the ISA Triton's AMD
backend emits does what the tutorials teach: the matmul and the attention run on MFMAs, the
attention's exponentials are the hardware's v_exp_f32. Each launch's emulated seconds and max
error are reported at the end of the run (conftest.py), never asserted.
"""

from __future__ import annotations

import pytest

triton = pytest.importorskip("triton", reason="the optional triton package is not installed "
                             "(pip install 'hip-workbench[triton]'; make setup installs it)")
torch = pytest.importorskip("torch")

from triton_kernel_files import TUTORIAL as T  # noqa: E402  (after the importorskip)

ARCHS = T.ARCHS
_KERNELS: dict = {}

# the MFMA Triton 3.9's AMD backend picks for each (kernel, input type, arch) at these shapes
MFMA = {
    ("matmul", "fp16", "gfx942"): "v_mfma_f32_32x32x8_f16",
    ("matmul", "fp16", "gfx950"): "v_mfma_f32_32x32x16_f16",
    ("matmul", "bf16", "gfx942"): "v_mfma_f32_32x32x8_bf16",
    ("matmul", "bf16", "gfx950"): "v_mfma_f32_32x32x16_bf16",
    ("matmul", "fp8", "gfx950"): "v_mfma_f32_32x32x64_f8f6f4",
    ("attention", "fp16", "gfx942"): "v_mfma_f32_32x32x8_f16",
    ("attention", "fp16", "gfx950"): "v_mfma_f32_32x32x16_f16",
}


def _kernel(name, arch):
    """One wb.triton kernel per (kernel, arch), so its ISA is that arch's."""
    key = (name, arch)
    if key not in _KERNELS:
        _KERNELS[key] = T.kernel(name, arch)
    return _KERNELS[key]


def _launch(record_property, name, arch, label=None, **kw):
    run = T.launch(name, _kernel(name, arch), arch, **kw)
    tol = T.tolerance(name, kw.get("dtype"))["short"]
    if name == "matmul" and kw.get("out_dtype") in ("fp16", "bf16"):
        tol += " or 1 ulp of C"
    record_property("triton_tutorial", f"{arch}  {label or name:<29} {run.seconds:5.2f} s "
                    f"emulated   max |err| {run.max_error:<9.3g} allowed: {tol}")
    assert not torch.isnan(run.output.float()).any(), "an output element was never written"
    return run


def _mnemonics(name, arch):
    return {i.mnemonic for i in _kernel(name, arch).isa_for(arch)}


@pytest.mark.parametrize("arch", ARCHS)
def test_vector_add_is_exact(arch, record_property):
    run = _launch(record_property, "add", arch, label="add n=98432")
    # fp32 addition is correctly rounded: the kernel's sums are torch's, bit for bit
    assert torch.equal(run.output, run.reference) and run.ok
    assert run.output.numel() % T.CONSTEXPRS["add"]["BLOCK"]  # the tail's mask was exercised


@pytest.mark.parametrize("arch", ARCHS)
def test_fused_softmax_within_the_tutorials_tolerance(arch, record_property):
    run = _launch(record_property, "softmax", arch, label="softmax 1823x781")
    # python/tutorials/02-fused-softmax.py:
    #     assert torch.allclose(y_triton, y_torch), (y_triton, y_torch)
    # (allclose's defaults rtol=1e-5, atol=1e-8), on the same 1823 x 781 input shape
    assert run.output.shape == (1823, 781)
    assert torch.allclose(run.output, run.reference) and run.ok
    assert any(m.startswith("v_exp_f32") for m in _mnemonics("softmax", arch))


@pytest.mark.parametrize("dtype", ["fp16", "bf16"])
@pytest.mark.parametrize("arch", ARCHS)
def test_matmul_within_the_tutorials_tolerance_on_mfma(arch, dtype, record_property):
    # python/tutorials/03-matrix-multiplication.py:
    #     rtol = 1e-2 if is_hip_cdna2() else 0
    #     if torch.allclose(triton_output, torch_output, atol=1e-2, rtol=rtol): ...
    # With C kept in fp32 the check holds as written (rtol=0: gfx942/gfx950 are not CDNA2).
    run = _launch(record_property, "matmul", arch, label=f"matmul 256^3 {dtype}->fp32",
                  dtype=dtype, out_dtype="fp32")
    assert torch.allclose(run.output, run.reference, atol=1e-2, rtol=0)
    # The tutorial's C is 16-bit: both sides round their own fp32 sum, summed in another
    # order, so where one unit in the last place exceeds 1e-2 (|C| >= 16 in fp16) a sum near
    # a rounding boundary may round the other way; no more than that is allowed (run.ok).
    run16 = _launch(record_property, "matmul", arch, label=f"matmul 256^3 {dtype}->{dtype}",
                    dtype=dtype, out_dtype=dtype)
    assert run16.ok, f"max |err| {run16.max_error}"
    diff = (run16.output.float() - run16.reference.float()).abs()
    assert bool((diff <= 1e-2).float().mean() > 0.999)
    # what the tutorial teaches: tl.dot is a matrix-core instruction
    assert T.mfma(_kernel("matmul", arch), arch) == [MFMA["matmul", dtype, arch]]


@pytest.mark.parametrize("arch", ARCHS)
def test_matmul_masks_the_edges(arch, record_property):
    # M, N, K not multiples of the 64 x 64 x 32 tile: the masked loads read 0, the masked
    # store leaves C's padding alone (every element written: no NaN left, _launch checks)
    run = _launch(record_property, "matmul", arch, label="matmul 100x72x50 fp16->fp32",
                  dtype="fp16", out_dtype="fp32", M=100, N=72, K=50)
    assert run.output.shape == (100, 72)
    assert torch.allclose(run.output, run.reference, atol=1e-2, rtol=0)  # as above (03)


def test_grouped_ordering_visits_every_tile_once():
    # 03's "L2 Cache Optimizations": programs walk GROUP_M tile rows down, then right
    order = T.tile_order(256, 256, 64, 64, 2)
    assert sorted(order) == [(m, n) for m in range(4) for n in range(4)]
    assert order[:4] == [(0, 0), (1, 0), (0, 1), (1, 1)]
    assert sorted(T.tile_order(100, 72, 64, 64, 2)) == [(0, 0), (0, 1), (1, 0), (1, 1)]


def test_fp8_matmul_on_gfx950(record_property):
    # gfx950 has OCP fp8 natively (triton/backends/amd/compiler.py HIPOptions: "native
    # support for OCP fp8 variants since CDNA4"; the FNUZ fp8e4b8/fp8e5b16 are deprecated dot
    # operands there): torch.float8_e4m3fn is Triton's tl.float8e4nv
    kern = _kernel("matmul", "gfx950")
    run = _launch(record_property, "matmul", "gfx950", label="matmul 256^3 fp8e4m3->fp32",
                  dtype="fp8")
    assert kern.module.spec.types[:3] == ("*fp8e4nv", "*fp8e4nv", "*fp32")
    # The reference is torch.matmul in fp32 of the same fp8 values. Each product of two e4m3
    # values (4-bit significands) is exact in fp32, so only the fp32 additions round: any
    # order of them is within K * 2**-24 * (|A| @ |B|) of the exact sum (the usual gamma_K
    # bound, K = 256). run.ok checks that bound per element; it is < 1e-2 here, tighter than
    # 03's fp8 check (atol=0.125 against an fp16 C). Reading the bytes as FNUZ e4m3 instead of
    # OCP would halve every value and fail it.
    a, b = T.inputs("matmul", "fp8").values()
    bound = T.allowed("matmul", run.reference, {"a": a, "b": b}, "fp8")
    assert run.ok and float(bound.max()) < 1e-2
    assert T.mfma(kern, "gfx950") == [MFMA["matmul", "fp8", "gfx950"]]


def test_ocp_fp8_on_gfx942_is_converted_to_fp16(record_property):
    # not a tutorial claim, what Triton does: gfx942's fp8 MFMAs take FNUZ fp8, so Triton's AMD
    # backend converts OCP e4m3 to fp16 in software and uses the fp16 MFMA
    kern = _kernel("matmul", "gfx942")
    run = _launch(record_property, "matmul", "gfx942", label="matmul 256^3 fp8e4m3->fp32",
                  dtype="fp8")
    assert kern.module.spec.types[:2] == ("*fp8e4nv", "*fp8e4nv") and run.ok
    assert T.mfma(kern, "gfx942") == ["v_mfma_f32_32x32x8_f16"]


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("arch", ARCHS)
def test_attention_forward_within_the_tutorials_tolerance(arch, causal, record_property):
    run = _launch(record_property, "attention", arch, causal=causal,
                  label=f"attention 1x2x256x64{' causal' if causal else ''}")
    # python/tutorials/06-fused-attention.py test_op, the fp16 forward output:
    #     torch.testing.assert_close(tri_out, ref_out, atol=1e-2, rtol=0)
    # (older versions: assert torch.allclose(ref_out, tri_out, atol=1e-2, rtol=0)), its
    # reference computed as there: softmax in fp32, P rounded to fp16, P @ V
    torch.testing.assert_close(run.output, run.reference, atol=1e-2, rtol=0)
    ops = _mnemonics("attention", arch)
    # both dots on matrix cores, the online softmax's exp2 on the hardware's v_exp_f32
    assert T.mfma(_kernel("attention", arch), arch) == [MFMA["attention", "fp16", arch]]
    exps = [i for i in _kernel("attention", arch).isa_for(arch)
            if i.mnemonic.startswith("v_exp_f32")]
    assert exps and "v_exp_f32_e32" in ops
    assert all(i.source_file == "tutorial.py" for i in exps)


@pytest.mark.parametrize("arch", ARCHS)
def test_attention_masks_a_ragged_sequence(arch, record_property):
    # N_CTX = 200: the last query block and the last key block run past the sequence
    for causal in (False, True):
        run = _launch(record_property, "attention", arch, causal=causal, N_CTX=200,
                      label=f"attention 1x2x200x64{' causal' if causal else ''}")
        torch.testing.assert_close(run.output, run.reference, atol=1e-2, rtol=0)  # 06, above
