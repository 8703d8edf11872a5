"""HIP's warp-sync reductions (__reduce_*_sync), matches (__match_any/all_sync) and lane masks
(__lanemask_lt/gt/eq) from hipwb's prelude (hipwb/warp.h), run on the emulator.

tests/kernels/warp_sync/warp_sync.hip is compiled for gfx942, gfx950 (wave64), gfx1100 and
gfx1201 (wave32) and RDNA in wave64; lanes are split into groups per wave (some lanes leave before
the call, so EXEC is divergent, and one call site sees several disjoint masks) and every lane's
result is compared with a numpy model of HIP's semantics. Also: HIP's compile-time errors (a
mask that is not 64 bits, a __match_* value of the wrong type), its run-time mask check (a mask
naming lanes that do not make the call is a device-side assertion, a KernelFault here), and that
HIP code defining its own __lanemask_le/__lanemask_ge (HIP has none) still compiles.
"""
from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pytest
from unseen_harness import kernel, split, wave_size

import workbench as wb
from workbench import CompileError, KernelFault

HERE = Path(__file__).parents[1] / "kernels" / "warp_sync"
ARCHS = ("gfx942", "gfx950", "gfx1100", "gfx1201", "gfx1100-w64")
_k = functools.partial(kernel, HERE)
BLOCKS, THREADS = 2, 128
N = BLOCKS * THREADS


def _groups(ws: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(grp, masks): a group per lane (-1: leaves before the call) and each calling lane's mask,
    the bits of the lanes of its wave in the same group. Wave 0 calls with the whole wave,
    wave 1 with two contiguous halves and one absent lane, later waves at random."""
    r = np.random.default_rng(seed)
    grp = r.integers(-1, 4, N).astype(np.int32)
    grp[:ws] = 0
    grp[ws:2 * ws] = np.arange(ws) >= ws // 2
    grp[ws + 3] = -1
    masks = np.zeros(N, np.uint64)
    for w0 in range(0, N, ws):
        g = grp[w0:w0 + ws]
        for k in set(g.tolist()) - {-1}:
            bits = np.uint64(sum(1 << int(j) for j in np.flatnonzero(g == k)))
            masks[w0:w0 + ws][g == k] = bits
    return grp, masks


def _peers(grp: np.ndarray, ws: int, gid: int) -> np.ndarray:
    """Global indices of the lanes in gid's group (its wave, its group)."""
    w0 = gid - gid % ws
    return w0 + np.flatnonzero(grp[w0:w0 + ws] == grp[gid])


@pytest.mark.parametrize("arch", ARCHS)
def test_reductions_per_lane_with_partial_masks(arch):
    ws = wave_size(arch)
    grp, masks = _groups(ws, 5)
    r = np.random.default_rng(6)
    xi = r.integers(-2**31, 2**31, N, dtype=np.int64).astype(np.int32)
    xu = r.integers(0, 2**32, N, dtype=np.uint64).astype(np.uint32)
    out_i = np.full(3 * N, 77, np.int32)
    out_u = np.full(6 * N, 77, np.uint32)
    _k("warp_sync.hip", "reduce_groups", arch)[BLOCKS, THREADS](grp, masks, xi, xu, out_i, out_u)
    out_i, out_u = out_i.reshape(N, 3), out_u.reshape(N, 6)
    for gid in range(N):
        if grp[gid] < 0:  # a lane that left writes nothing
            assert (out_i[gid] == 77).all() and (out_u[gid] == 77).all(), gid
            continue
        p = _peers(grp, ws, gid)
        vi, vu = xi[p], xu[p]
        want_i = [vi.astype(np.int64).sum() & 0xFFFFFFFF, vi.min(), vi.max()]
        want_i[0] = np.uint32(want_i[0]).view(np.int32)  # the int sum wraps modulo 2^32
        want_u = [vu.astype(np.uint64).sum() & 0xFFFFFFFF, vu.min(), vu.max(),
                  np.bitwise_and.reduce(vu), np.bitwise_or.reduce(vu), np.bitwise_xor.reduce(vu)]
        np.testing.assert_array_equal(out_i[gid], np.array(want_i, np.int32), err_msg=f"{gid}")
        np.testing.assert_array_equal(out_u[gid], np.array(want_u, np.uint32), err_msg=f"{gid}")


@pytest.mark.parametrize("arch", ARCHS)
def test_reductions_in_both_branches_of_a_divergent_if(arch):
    ws = wave_size(arch)
    grp, masks = _groups(ws, 9)
    xu = np.random.default_rng(10).integers(0, 2**32, N, dtype=np.uint64).astype(np.uint32)
    out = np.zeros(2 * N, np.uint32)
    _k("warp_sync.hip", "reduce_branches", arch)[BLOCKS, THREADS](grp, masks, xu, out)
    out = out.reshape(N, 2)
    for gid in np.flatnonzero(grp >= 0):
        v = xu[_peers(grp, ws, gid)]
        if grp[gid] & 1:
            want = [np.bitwise_xor.reduce(v), v.max()]
        else:
            want = [np.bitwise_or.reduce(v), v.min()]
        np.testing.assert_array_equal(out[gid], np.array(want, np.uint32), err_msg=f"{gid}")


@functools.cache
def _extra_module(arch: str):
    real, opts = split(arch)
    return wb.compile((HERE / "warp_sync.hip").read_text(), real, opts, filename="warp_sync.hip",
                      defines={"HIP_ENABLE_EXTRA_WARP_SYNC_TYPES": None})


@pytest.mark.parametrize("arch", ARCHS)
def test_extra_types_behind_hips_macro(arch):
    ws = wave_size(arch)
    grp, masks = _groups(ws, 31)
    r = np.random.default_rng(32)
    xl = r.integers(-2**62, 2**62, N, dtype=np.int64)
    xf = r.integers(-1000, 1000, N).astype(np.float32)  # integers: every sum order is exact
    xd = r.integers(-2**40, 2**40, N).astype(np.float64)
    outs = [np.zeros(3 * N, np.int64), np.zeros(4 * N, np.uint64), np.zeros(3 * N, np.float32),
            np.zeros(2 * N, np.float64), np.zeros(N, np.int32)]
    k = _extra_module(arch)["reduce_extra"].on(f"emulator:{split(arch)[0]}")
    k[BLOCKS, THREADS](grp, masks, xl, xf, xd, *outs)
    out_l, out_u, out_f, out_d, out_i = (o.reshape(N, -1) for o in outs)
    for gid in np.flatnonzero(grp >= 0):
        p = _peers(grp, ws, gid)
        lv, uv = xl[p], xl[p].view(np.uint64)
        np.testing.assert_array_equal(out_l[gid], [lv.sum(), lv.min(), lv.max()])  # wraps
        np.testing.assert_array_equal(out_u[gid], [uv.max(), np.bitwise_and.reduce(uv),
                                                   np.bitwise_or.reduce(uv),
                                                   np.bitwise_xor.reduce(uv)])
        np.testing.assert_array_equal(out_f[gid], [xf[p].sum(), xf[p].min(), xf[p].max()])
        np.testing.assert_array_equal(out_d[gid], [xd[p].sum(), xd[p].max()])
        assert out_i[gid, 0] == np.bitwise_xor.reduce(lv.astype(np.int32)), gid


def test_extra_types_need_hips_macro():
    src = WRONG_MASK.format(call="(int)__reduce_add_sync(~0ull, (float)v)")
    with pytest.raises(CompileError) as err:
        wb.compile(src, "gfx942")
    assert "__reduce_add_sync" in str(err.value)


def _match_values(dtype, seed: int) -> np.ndarray:
    """Few distinct values, so that groups share some; floats include -0.0 (== +0.0 in HIP)
    and two NaN bit patterns (a NaN matches lanes holding the same bits)."""
    r = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "f":
        pool = np.array([0.0, -0.0, 1.5, np.nan, -2.25], dtype)
        v = pool[r.integers(0, len(pool), N)]
        bits = v.view(np.uint32 if dtype == np.float32 else np.uint64).copy()
        other_nan = np.isnan(v) & (r.integers(0, 2, N) == 1)
        bits[other_nan] |= 1  # a second NaN payload
        return bits.view(dtype)
    big = np.iinfo(dtype).max
    pool = np.array([0, 1, big, big - 1] if np.dtype(dtype).itemsize == 8 else [0, 1, 7, big],
                    dtype)
    return pool[r.integers(0, len(pool), N)]


def _same(a, b) -> bool:
    return bool(a == b) or a.tobytes() == b.tobytes()


MATCH = [("match_i32", np.int32), ("match_u32", np.uint32), ("match_i64", np.int64),
         ("match_long", np.int64), ("match_f32", np.float32), ("match_f64", np.float64)]


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("name,dtype", MATCH, ids=[m[0] for m in MATCH])
def test_match_any_and_all_per_lane(arch, name, dtype):
    ws = wave_size(arch)
    grp, masks = _groups(ws, 13)
    v = _match_values(dtype, 14)
    v[ws:ws + ws // 2] = v[ws]  # wave 1's first half: one value, so __match_all_sync holds
    any_, all_ = np.zeros(N, np.uint64), np.zeros(N, np.uint64)
    pred = np.full(N, 5, np.int32)
    _k("warp_sync.hip", name, arch)[BLOCKS, THREADS](grp, masks, v, any_, all_, pred)
    seen_all = 0
    for gid in np.flatnonzero(grp >= 0):
        p = _peers(grp, ws, gid)
        w0 = gid - gid % ws
        want_any = sum(1 << int(j - w0) for j in p if _same(v[j], v[gid]))
        everyone = all(_same(v[j], v[p[0]]) for j in p)
        seen_all += everyone
        assert int(any_[gid]) == want_any, (gid, hex(int(any_[gid])), hex(want_any))
        assert int(all_[gid]) == (int(masks[gid]) if everyone else 0), gid
        assert pred[gid] == int(everyone), gid
    assert seen_all > 0  # the data exercises both outcomes of __match_all_sync
    assert seen_all < (grp >= 0).sum()


@pytest.mark.parametrize("arch", ARCHS)
def test_maskless_match_uses_the_running_lanes(arch):
    ws = wave_size(arch)
    x = np.random.default_rng(19).integers(-3, 9, ws).astype(np.int32)
    x[x >= 0] |= 5 << 8  # the same x >> 8 on every running lane: __match_all holds
    any_, all_ = np.zeros(ws, np.uint64), np.zeros(ws, np.uint64)
    pred = np.full(ws, 7, np.int32)
    _k("warp_sync.hip", "match_running", arch)[1, ws](x, any_, all_, pred)
    run = np.flatnonzero(x >= 0)
    exec_ = sum(1 << int(j) for j in run)
    for i in run:
        assert int(any_[i]) == sum(1 << int(j) for j in run if (x[j] & 3) == (x[i] & 3)), i
        assert int(all_[i]) == exec_ and pred[i] == 1, i


@pytest.mark.parametrize("arch", ARCHS)
def test_lanemasks_are_64_bit_and_follow_exec(arch):
    ws = wave_size(arch)
    grp, _ = _groups(ws, 17)
    out = np.full(3 * N, 0xDEAD, np.uint64)
    _k("warp_sync.hip", "lanemasks", arch)[BLOCKS, THREADS](grp, out)
    out = out.reshape(N, 3)
    for gid in range(N):
        lane, w0 = gid % ws, gid - gid % ws
        if grp[gid] < 0:
            assert (out[gid] == 0xDEAD).all()
            continue
        exec_ = sum(1 << j for j in range(ws) if grp[w0 + j] >= 0)
        want = [((1 << lane) - 1) & exec_, (((1 << 64) - 1) << (lane + 1)) & exec_, 1 << lane]
        assert [int(x) for x in out[gid]] == want, (gid, [hex(int(x)) for x in out[gid]])


@pytest.mark.parametrize("arch", ARCHS)
def test_wave_aggregated_compaction(arch):
    n = N - 37  # a ragged last wave
    x = np.random.default_rng(21).integers(-5, 6, N).astype(np.int32)
    out = np.zeros(N, np.int32)
    count = np.zeros(1, np.int32)
    _k("warp_sync.hip", "compact", arch)[BLOCKS, THREADS](x, n, out, count)
    kept = x[:n][x[:n] > 0]
    assert count[0] == len(kept)
    # each wave's block of slots keeps its lanes' order; waves may take their blocks in any order
    np.testing.assert_array_equal(np.sort(out[:len(kept)]), np.sort(kept))
    assert (out[len(kept):] == 0).all()


@pytest.mark.parametrize("arch", ("gfx942", "gfx1100"))
def test_mask_naming_absent_lanes_is_a_device_assertion(arch):
    x = np.arange(64, dtype=np.int32)
    out = np.zeros(64, np.int32)
    with pytest.raises(KernelFault) as err:
        _k("warp_sync.hip", "bad_mask", arch)[1, 64](x, out)
    msg = str(err.value)
    assert "__reduce_add_sync" in msg and "mask == the lanes calling with it" in msg
    assert err.value.lanes and all(lane % 4 == 0 for lane in err.value.lanes)


@pytest.mark.parametrize("arch", ("gfx942", "gfx1201"))
def test_mask_naming_lanes_of_another_mask_is_a_device_assertion(arch):
    x = np.zeros(64, np.int32)
    out = np.zeros(64, np.uint64)
    with pytest.raises(KernelFault) as err:
        _k("warp_sync.hip", "bad_match", arch)[1, 64](x, out)
    assert "__match_any_sync" in str(err.value)
    assert err.value.lanes and all(lane % 2 == 0 for lane in err.value.lanes)


WRONG_MASK = """
__global__ void k(int* p) {{
  int v = p[threadIdx.x];
  p[threadIdx.x] = {call};
}}
"""


@pytest.mark.parametrize("call", [
    "__reduce_add_sync(0xffffffffu, v)",
    "__reduce_or_sync(0xffffffff, (unsigned)v)",
    "(int)__match_any_sync(0xffffffffu, v)",
    "__shfl_xor_sync(0xffffffff, v, 1)",
    "(int)__ballot_sync(0xffffffffu, v)",
    "(__syncwarp(0xffffffffu), v)",
])
def test_32_bit_mask_is_a_compile_error_as_in_hip(call):
    with pytest.raises(CompileError) as err:
        wb.compile(WRONG_MASK.format(call=call), "gfx1100")
    assert "must be a 64-bit integer" in str(err.value)


def test_match_of_a_16_bit_value_is_a_compile_error_as_in_hip():
    src = WRONG_MASK.format(call="(int)__match_any_sync(~0ull, (short)v)")
    with pytest.raises(CompileError) as err:
        wb.compile(src, "gfx942")
    assert "__match_any_sync/__match_all_sync take int" in str(err.value)


def test_own_lanemask_le_ge_compile_as_with_hip():
    """HIP has no __lanemask_le/ge, so HIP code defines them itself; that must still build."""
    src = """
    __device__ unsigned long long __lanemask_le() { return __lanemask_lt() | __lanemask_eq(); }
    __device__ unsigned long long __lanemask_ge() { return __lanemask_gt() | __lanemask_eq(); }
    __global__ void k(unsigned long long* out) {
      out[2 * threadIdx.x] = __lanemask_le();
      out[2 * threadIdx.x + 1] = __lanemask_ge();
    }
    """
    out = np.zeros(128, np.uint64)
    wb.compile(src, "gfx942")["k"].on("emulator:gfx942")[1, 64](out)
    le, ge = out[0::2].astype(object), out[1::2].astype(object)
    assert [int(m) for m in le] == [(1 << (j + 1)) - 1 for j in range(64)]
    assert [int(m) for m in ge] == [((1 << 64) - 1) ^ ((1 << j) - 1) for j in range(64)]
