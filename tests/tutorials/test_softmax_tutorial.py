"""The softmax tutorial (kernels/softmax, notebook 04): every step on the emulator vs torch.

Why: the notebook's claims (each step computes softmax like torch, including rows of -inf, huge
values and lengths that are not a multiple of the 8-wide vectors; the attention tile matches
torch's scaled_dot_product_attention) must hold on gfx942 and gfx950; the ISA checks pin what
each step is about (DPP row_bcast, 128-bit loads, MFMA).
"""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import numpy as np
import pytest

import workbench as wb

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("softmax_steps", ROOT / "kernels/softmax/steps.py")
S = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(S)


def _archs():
    from workbench.arch import get as get_arch
    tc = wb.find_toolchain()
    for arch in ("gfx942", "gfx950"):
        old = tc.clang_major < get_arch(arch).min_llvm_major
        yield pytest.param(arch, id=arch, marks=pytest.mark.skipif(
            old, reason=f"clang {tc.clang_major} cannot build {arch}"))


def _kernels(s, arch):
    mod = S.compile_file(s["file"], arch)
    return {k: wb.Kernel(mod, k, device=f"emulator:{arch}") for k in s["kernels"]}


@pytest.mark.parametrize("arch", list(_archs()))
@pytest.mark.parametrize("s", S.all_steps(), ids=lambda s: f"{s['step']}-{s['name']}")
@pytest.mark.parametrize("shape", [(6, 203), (5, 64)], ids=["odd", "wave"])
def test_step_matches_torch(s, arch, shape):
    x = S.inputs(*shape, seed=shape[1])
    y = S.run(s, _kernels(s, arch), x)
    ref = S.reference(x, s["dtype"])
    assert np.isnan(ref[0]).all() and not np.isnan(ref[1:]).any()  # the -inf row is NaN in torch
    err = S.max_error(y, ref)
    assert err <= S.TOL[s["dtype"]], f"max |y - torch| = {err}"


@pytest.mark.parametrize("arch", list(_archs()))
def test_long_row_split_across_waves(arch):
    """Step 6 on a 32k+5 row (vector head/body/tail, 16 waves) equals torch's bf16 softmax."""
    s = S.step("long_rows")
    x = S.inputs(4, 32768 + 5, seed=1)
    err = S.max_error(S.run(s, _kernels(s, arch), x), S.reference(x, "bf16"))
    assert err <= S.TOL["bf16"]


def test_wrong_result_is_caught():
    """The comparison fails when a kernel is wrong (a softmax that forgets to normalise)."""
    x = S.inputs(6, 203, seed=0)
    ref = S.reference(x, "f32")
    assert S.max_error(ref * 1.001, ref) > S.TOL["f32"]
    assert S.max_error(np.nan_to_num(ref), ref) == float("inf")


def attention_inputs(nq: int, nkeys: int, seed: int = 0):
    import torch
    g = torch.Generator().manual_seed(seed)
    q, k, v = (torch.randn(n, 64, generator=g).to(torch.bfloat16) for n in (nq, nkeys, nkeys))
    bits = [t.view(torch.int16).numpy().view(np.uint16) for t in (q, k, v)]
    ref = torch.nn.functional.scaled_dot_product_attention(
        q.float()[None], k.float()[None], v.float()[None])[0].numpy()
    return bits, ref


@pytest.mark.parametrize("arch", list(_archs()))
@pytest.mark.parametrize("nkeys", [128, 200])
def test_attention_tile_matches_sdpa(arch, nkeys):
    """One head, 64-query tiles (two of them), K/V of 128 or 200 keys (a partial KV block)."""
    mod = S.compile_file("step7_attention.hip", arch)
    k = wb.Kernel(mod, "attention_tile", device=f"emulator:{arch}")
    (q, kk, v), ref = attention_inputs(128, nkeys, seed=nkeys)
    out = np.full((128, 64), np.nan, np.float32)
    k[2, 256](q, kk, v, out, nkeys, 1 / math.sqrt(64))
    # P is rounded to bf16 before the P.V MFMA (as in FlashAttention/HipKittens): ~2^-9 relative.
    assert np.abs(out - ref).max() < 4e-3


# Across rows of 16 lanes: row_bcast + v_readlane on gfx942, the permlane swaps on gfx950.
CROSS_ROW = {"gfx942": ["row_bcast:15", "row_bcast:31", "v_readlane"],
             "gfx950": ["v_permlane16_swap_b32", "v_permlane32_swap_b32"]}
ISA_WANT = {
    "wave_row": ["row_mirror", "row_half_mirror", "quad_perm", "CROSS_ROW"],
    "wave_row_shfl": ["ds_bpermute_b32"],
    "online": ["CROSS_ROW"],
    "bf16_vec": ["global_load_dwordx4", "global_store_dwordx4", "CROSS_ROW"],
    "long_rows": ["global_load_dwordx4", "s_barrier", "CROSS_ROW"],
}


@pytest.mark.parametrize("arch", list(_archs()))
@pytest.mark.parametrize("s", S.all_steps(), ids=lambda s: f"{s['step']}-{s['name']}")
def test_step_isa(s, arch):
    """No spills; each step's instruction is in its ISA; only step 2 and 6 use LDS memory."""
    mod = S.compile_file(s["file"], arch)
    for name in s["kernels"]:
        info = mod.kernels[name]
        r = info.resources
        assert r.vgpr_spills == 0 and r.sgpr_spills == 0
        isa = "\n".join(i.text for i in mod[arch].listing(name))
        for want in ISA_WANT.get(s["name"], []):
            for w in CROSS_ROW[arch] if want == "CROSS_ROW" else [want]:
                assert w in isa, f"{w} missing from {name}"
        if s["name"] in ("wave_row", "online", "bf16_vec", "long_rows"):
            other = CROSS_ROW["gfx950" if arch == "gfx942" else "gfx942"]
            assert not any(w in isa for w in other[:2])
        assert (r.lds_bytes > 0) == (s["name"] in ("block_row", "long_rows"))


@pytest.mark.parametrize("arch", list(_archs()))
def test_attention_isa(arch):
    mod = S.compile_file("step7_attention.hip", arch)
    isa = "\n".join(i.text for i in mod[arch].listing("attention_tile"))
    assert "v_mfma_f32_16x16x16_bf16" in isa
    assert ("v_mfma_f32_16x16x32_bf16" in isa) == (arch == "gfx950")
    assert mod.kernels["attention_tile"].resources.lds_bytes == 0


CONTROLS = ["quad_perm:[1,0,3,2]", "quad_perm:[2,3,0,1]", "row_half_mirror", "row_mirror",
            "row_bcast:15 row_mask:0xa", "row_bcast:31 row_mask:0xc"]


@pytest.mark.parametrize("arch", list(_archs()))
def test_dpp_probe_lanes(arch):
    """The reduction stages read the lanes the tutorial's picture says (from the emulator's run)."""
    mod = S.compile_file("step3_wave_row.hip", arch)
    src = np.zeros((6, 64), np.float32)
    for k in range(6):
        wb.Kernel(mod, f"wave_probe_{k}", device=f"emulator:{arch}")[1, 64](src[k])
        ins = [i.text for i in mod[arch].listing(f"wave_probe_{k}")
               if "_dpp" in i.mnemonic or "permlane" in i.mnemonic]
        want = CONTROLS[k] if k < 4 or arch == "gfx942" else CROSS_ROW["gfx950"][k - 4]
        assert len(ins) == 1 and want in ins[0]
    src = src.astype(int)
    lane = np.arange(64)
    assert (src[0] == lane ^ 1).all() and (src[1] == lane ^ 2).all()
    assert (src[2] == (lane & ~7) + 7 - (lane & 7)).all()
    assert (src[3] == (lane & ~15) + 15 - (lane & 15)).all()
    if arch == "gfx942":
        assert (src[4] == np.where((lane // 16) % 2 == 1, (lane // 16) * 16 - 1, -1)).all()
        assert (src[5] == np.where(lane >= 32, 31, -1)).all()
    else:
        assert (src[4] == lane ^ 16).all() and (src[5] == lane ^ 32).all()
