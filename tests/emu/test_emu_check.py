"""Check mode (workbench.emu.observers.check): each class of bug found in a kernel that has it, and
not reported in the same kernel written correctly."""
from __future__ import annotations

import time

import numpy as np
import pytest

import workbench as wb
from workbench.runtime.kernel import Kernel

SRC = r'''
extern "C" __global__ void tr_race(const float* in, float* out) {
  __shared__ float tile[16][17];
  int tx = threadIdx.x & 15, ty = threadIdx.x >> 4;   // 256 threads = 4 waves
  tile[ty][tx] = in[ty * 16 + tx];
  out[ty * 16 + tx] = tile[tx][ty];                    // no __syncthreads: another wave's row
}
extern "C" __global__ void tr_ok(const float* in, float* out) {
  __shared__ float tile[16][17];
  int tx = threadIdx.x & 15, ty = threadIdx.x >> 4;
  tile[ty][tx] = in[ty * 16 + tx];
  __syncthreads();
  out[ty * 16 + tx] = tile[tx][ty];
}
extern "C" __global__ void war_race(const float* in, float* out) {
  __shared__ float s[128];
  int t = threadIdx.x;                                 // 128 threads = 2 waves
  s[t] = in[t];
  __syncthreads();
  float v = s[127 - t];
  s[t] = v * 2.0f;                                     // overwrites what the other wave reads
  __syncthreads();
  out[t] = s[t];
}
extern "C" __global__ void uninit(const float* in, float* out) {
  __shared__ float s[128];
  int t = threadIdx.x;                                 // 64 threads: s[64..127] never written
  s[t] = in[t];
  __syncthreads();
  out[t] = s[t] + s[t + 64];
}
extern "C" __global__ void uninit_ok(const float* in, float* out) {
  __shared__ float s[128];
  int t = threadIdx.x;
  s[t] = in[t];
  s[t + 64] = in[t + 64];
  __syncthreads();
  out[t] = s[t] + s[t + 64];
}
extern "C" __global__ void priv_uninit(const int* idx, float* out) {
  volatile float a[64];                                // volatile: really in scratch
  for (int i = 0; i < 32; ++i) a[i] = i;               // a[32..63] never written
  out[threadIdx.x] = a[idx[threadIdx.x] & 63];
}
extern "C" __global__ void priv_ok(const int* idx, float* out) {
  volatile float a[64];
  for (int i = 0; i < 64; ++i) a[i] = i;
  out[threadIdx.x] = a[idx[threadIdx.x] & 63];
}
extern "C" __global__ void early_read(const float* in, float* out) {
  float x;
  const float* p = in + threadIdx.x;
  asm volatile("global_load_dword %0, %1, off" : "=v"(x) : "v"(p) : "memory");
  out[threadIdx.x] = x + 1.0f;                         // no s_waitcnt vmcnt before the use
}
extern "C" __global__ void waited_read(const float* in, float* out) {
  float x;
  const float* p = in + threadIdx.x;
  asm volatile("global_load_dword %0, %1, off\n s_waitcnt vmcnt(0)" : "=v"(x) : "v"(p)
               : "memory");
  out[threadIdx.x] = x + 1.0f;
}
extern "C" __global__ void cond_barrier(const float* in, float* out) {
  __shared__ float s[128];
  int t = threadIdx.x;                                 // 128 threads = 2 waves
  s[t] = in[t];
  if (t < 64) __syncthreads();                         // only wave 0 reaches it
  out[t] = s[t];
}
extern "C" __global__ void spin_forever(const float* in, float* out) {
  __shared__ int flag;
  int t = threadIdx.x;                                 // 128 threads = 2 waves
  if (t == 0) flag = 0;
  __syncthreads();
  if (t >= 64) {                                       // wave 1 waits for a flag ...
    while (((volatile int*)&flag)[0] == 0) { }
  }
  __syncthreads();                                     // ... wave 0 never sets: it waits here
  out[t] = in[t];
}
extern "C" __global__ void handoff_flag(const float* in, float* out) {
  __shared__ float tile[64];
  __shared__ int flag;
  int t = threadIdx.x;                                 // wave 0 produces, wave 1 consumes
  if (t == 0) flag = 0;
  __syncthreads();
  if (t < 64) {
    tile[t] = in[t] * 2.0f;
    if (t == 0) ((volatile int*)&flag)[0] = 1;         // "publish": no barrier, no fence
  } else {
    while (((volatile int*)&flag)[0] == 0) { }
    out[t - 64] = tile[t - 64];
  }
}
'''


@pytest.fixture(scope="module")
def mod():
    return wb.compile(SRC, "gfx942")


def _check(mod, name, block, n=256):
    k = Kernel(mod, name, device="emulator")
    x = np.arange(n, dtype=np.float32)
    out = np.zeros(n, np.float32)
    return k.check[1, block](x, out), x, out


def test_lds_race_read_after_write(mod):
    rep, _, _ = _check(mod, "tr_race", 256)
    assert rep.kinds() == {"lds-race"}
    f = rep.findings[0]
    assert f.kernel == "tr_race" and f.source_line == 6 and len(f.waves) == 2
    assert f.address is not None and f.lanes
    assert "read-after-write" in f.detail
    ok, x, out = _check(mod, "tr_ok", 256)
    assert not ok, ok.text()
    np.testing.assert_array_equal(out.reshape(16, 16), x.reshape(16, 16).T)


def test_lds_race_write_after_read(mod):
    rep, _, _ = _check(mod, "war_race", 128)
    assert rep.kinds() == {"lds-race"}
    assert any("write-after-read" in f.detail for f in rep.findings)


def test_uninitialised_lds_read(mod):
    rep, _, _ = _check(mod, "uninit", 64)
    assert rep.kinds() == {"uninit-lds"}
    f = rep.findings[0]
    assert f.address is not None and 256 <= f.address < 512  # s[64..127]
    ok, _, _ = _check(mod, "uninit_ok", 64)
    assert not ok, ok.text()


def test_uninitialised_scratch_read(mod):
    idx = np.arange(64, dtype=np.int32)
    for name, bad in (("priv_uninit", True), ("priv_ok", False)):
        out = np.zeros(64, np.float32)
        rep = Kernel(mod, name, device="emulator").check[1, 64](idx, out)
        if bad:
            assert rep.kinds() == {"uninit-scratch"}, rep.text()
            f = rep.findings[0]
            assert f.lanes == (32,) and "offset 128" in f.detail, f.text()
        else:
            np.testing.assert_array_equal(out, np.arange(64))
            assert not rep, rep.text()


def test_register_read_before_waitcnt(mod):
    rep, _, _ = _check(mod, "early_read", 64)
    assert rep.kinds() == {"waitcnt"}, rep.text()
    assert "global_load_dword" in rep.findings[0].detail
    ok, x, out = _check(mod, "waited_read", 64)
    assert not ok, ok.text()
    np.testing.assert_array_equal(out[:64], x[:64] + 1)


def test_conditional_barrier_is_a_mismatch(mod):
    rep, _, _ = _check(mod, "cond_barrier", 128)
    assert rep.kinds() == {"barrier-mismatch"}, rep.text()
    assert "ended after 0" in rep.findings[0].detail


@pytest.mark.xdist_group("exclusive")  # timed (tests/conftest.py)
def test_spin_without_writer_is_a_livelock_not_a_hang(mod):
    t0 = time.monotonic()
    rep, _, out = _check(mod, "spin_forever", 128)
    assert time.monotonic() - t0 < 5
    assert "livelock" in rep.kinds(), rep.text()
    f = [f for f in rep.findings if f.kind == "livelock"][0]
    assert f.waves == (1,) and not rep.completed
    assert "wave(s) 0 wait at barrier #2" in f.detail, f.detail
    assert not out.any()  # a launch that never ends writes nothing back


@pytest.mark.xdist_group("exclusive")  # timed (tests/conftest.py)
def test_busy_wait_handoff_is_reported_within_5s(mod):
    t0 = time.monotonic()
    rep, x, out = _check(mod, "handoff_flag", 128)
    assert time.monotonic() - t0 < 5
    assert "lds-race" in rep.kinds(), rep.text()
    assert rep.completed
    np.testing.assert_array_equal(out[:64], x[:64] * 2)


def test_check_true_prints_findings(mod, capsys):
    k = Kernel(mod, "tr_race", device="emulator")
    res = k[1, 256](np.zeros(256, np.float32), np.zeros(256, np.float32), check=True)
    assert res.check.kinds() == {"lds-race"}
    assert "[lds-race] tr_race" in capsys.readouterr().out


SAME_INSTRUCTION = r'''
extern "C" __global__ void all_write_one(float* out) {
  __shared__ float s[64];
  s[threadIdx.x & 63] = threadIdx.x;                   // 2 waves write the same 64 floats
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x & 63];
}
'''


def test_two_waves_writing_one_byte_in_one_instruction_race():
    k = Kernel(wb.compile(SAME_INSTRUCTION, "gfx942"), "all_write_one", device="emulator")
    rep = k.check[1, 128](np.zeros(128, np.float32))
    assert rep.kinds() == {"lds-race"}, rep.text()
    assert "write-after-write" in rep.findings[0].detail


def test_rdna_wave32_race_found_counters_not_modelled():
    """gfx1100 wave32: LDS races are checked; the s_waitcnt model is gfx9-only and says so."""
    k = Kernel(wb.compile(SRC, "gfx1100"), "tr_race", device="emulator:gfx1100")
    x = np.arange(256, dtype=np.float32)
    rep = k.check[1, 256](x, np.zeros(256, np.float32))
    assert rep.kinds() == {"lds-race"} and not rep.waitcnt_checked
    assert "not modelled" in rep.text()
    ok = Kernel(wb.compile(SRC, "gfx1100"), "tr_ok", device="emulator:gfx1100")
    assert not ok.check[1, 256](x, np.zeros(256, np.float32)).findings


WIDE_LOAD = r'''
extern "C" __global__ void early_read2(const float2* in, float* out) {
  float2 x;
  const float2* p = in + threadIdx.x;
  asm volatile("global_load_dwordx2 %0, %1, off" : "=v"(x) : "v"(p) : "memory");
  out[threadIdx.x] = x.x + x.y;                        // a register pair, no s_waitcnt
}
'''


def test_register_range_read_before_waitcnt():
    k = Kernel(wb.compile(WIDE_LOAD, "gfx942"), "early_read2", device="emulator")
    rep = k.check[1, 64](np.zeros(128, np.float32), np.zeros(64, np.float32))
    assert rep.kinds() == {"waitcnt"}, rep.text()
    assert "global_load_dwordx2" in rep.findings[0].detail


GLOBAL_SPIN = r'''
extern "C" __global__ void wait_global(int* flag, float* out) {
  if (threadIdx.x >= 64) {                             // wave 1 waits for wave 0's flag
    while (((volatile int*)flag)[0] == 0) { }
  } else if (threadIdx.x == 0 && out[0] == 1.0f) {     // ... which is set only if out[0] == 1
    ((volatile int*)flag)[0] = 1;
  }
  out[threadIdx.x] = 2.0f;
}
'''


@pytest.mark.xdist_group("exclusive")  # timed (tests/conftest.py)
@pytest.mark.parametrize("released", [True, False], ids=["flag-set", "never-set"])
def test_spin_on_a_global_flag(released):
    k = Kernel(wb.compile(GLOBAL_SPIN, "gfx942"), "wait_global", device="emulator")
    out = np.zeros(128, np.float32)
    out[0] = 1.0 if released else 0.0
    flag = np.zeros(1, np.int32)
    t0 = time.monotonic()
    rep = k.check[1, 128](flag, out)
    assert time.monotonic() - t0 < 5
    if released:
        assert rep.completed and "livelock" not in rep.kinds(), rep.text()
        assert flag[0] == 1 and (out == 2).all()
    else:
        assert rep.kinds() == {"livelock"}, rep.text()
        f = rep.findings[0]
        assert f.waves == (1,) and "global 0x" in f.detail, f.text()


def test_counter_model_retires_only_what_is_surely_back():
    """lgkmcnt(N>0) never retires an SMEM load (out of order) nor the N youngest LDS ops;
    vmcnt(N) retires all but the N youngest VMEM ops (stores count too)."""
    from workbench.emu.observers.check import _retire

    smem, ds1, ds2 = (("smem",), frozenset({1000}), 0), (("lgkm",), frozenset({1}), 1), \
        (("lgkm",), frozenset({2}), 2)
    assert _retire((smem, ds1, ds2), {"lgkmcnt": 1}) == (smem, ds2)
    assert _retire((smem, ds1, ds2), {"lgkmcnt": 0}) == ()
    ld, st, ld2 = (("vm",), frozenset({1}), 0), (("vm",), frozenset(), 1), \
        (("vm",), frozenset({2}), 2)
    assert _retire((ld, st, ld2), {"vmcnt": 1}) == (ld2,)
    assert _retire((ld, st, ld2), {"vmcnt": 2}) == (st, ld2)
