"""VALU carry-out masks (v_add_co_u32, v_add_co_ci_u32 / v_addc_co_u32 and the subtract forms)
under a divergent EXEC: lanes outside EXEC read 0 in the written SGPR mask, on CDNA (gfx942) and
RDNA (gfx1100, gfx1201; wave32 writes one SGPR, wave64 a pair) alike — the semantics are shared
(workbench.emu.semantics.valu.table). Why: LLVM 19 turns such a mask into SCC with `s_cmp_lg_u32
mask, 0` in gfx1201's 64-bit remainder, so a stale bit of an inactive lane corrupted the
quotient."""
from __future__ import annotations

import numpy as np
import pytest

import workbench as wb

# Every mask is preset to all ones, so a bit left over for an inactive lane shows in the output.
SRC = r"""
extern "C" __global__ void carry(const unsigned* x, const unsigned* y, MASK* m,
                                 unsigned* r) {
  unsigned a = x[threadIdx.x], b = y[threadIdx.x];
  MASK m0, m1, m2, m3;
  unsigned r0, r1, r2, r3;
  if (threadIdx.x & 1) {
    asm volatile("s_mov_bBITS %0, -1\n\ts_mov_bBITS %1, -1\n\t"
                 "s_mov_bBITS %2, -1\n\ts_mov_bBITS %3, -1\n\t"
                 "ADD %4, %0, %8, %9\n\tADDC %5, %1, %8, %9, %0\n\t"
                 "SUB %6, %2, %8, %9\n\tSUBB %7, %3, %8, %9, %2"
                 : "=&s"(m0), "=&s"(m1), "=&s"(m2), "=&s"(m3),
                   "=&v"(r0), "=&v"(r1), "=&v"(r2), "=&v"(r3)
                 : "v"(a), "v"(b));
    unsigned t = threadIdx.x;
    m[t] = m0; m[64 + t] = m1; m[128 + t] = m2; m[192 + t] = m3;
    r[t] = r0; r[64 + t] = r1; r[128 + t] = r2; r[192 + t] = r3;
  }
}
"""
# gfx9 (CDNA3 ISA) names vs GFX11/GFX12 (RDNA3/RDNA4 ISA) names of the same four operations
NAMES = {"cdna": ("v_add_co_u32_e64", "v_addc_co_u32_e64", "v_sub_co_u32_e64",
                  "v_subb_co_u32_e64"),
         "rdna": ("v_add_co_u32", "v_add_co_ci_u32_e64", "v_sub_co_u32", "v_sub_co_ci_u32_e64")}
CASES = [("gfx942", 64), ("gfx1100", 32), ("gfx1100", 64), ("gfx1201", 32), ("gfx1201", 64)]


def _source(arch: str, wave: int) -> str:
    add, addc, sub, subb = NAMES["cdna" if arch == "gfx942" else "rdna"]
    return (SRC.replace("MASK", "unsigned long long" if wave == 64 else "unsigned")
            .replace("BITS", str(wave)).replace("ADDC", addc).replace("ADD", add)
            .replace("SUBB", subb).replace("SUB", sub))


@pytest.mark.parametrize("arch,wave", CASES, ids=[f"{a}-w{w}" for a, w in CASES])
def test_carry_out_mask_is_zero_for_inactive_lanes(arch, wave):
    opts = ["-mwavefrontsize64"] if wave == 64 and arch != "gfx942" else []
    mod = wb.compile(_source(arch, wave), arch, opts)
    rng = np.random.default_rng(7)
    x = rng.integers(0, 2**32, 64, dtype=np.uint64)
    y = rng.integers(0, 2**32, 64, dtype=np.uint64)
    x[::4], y[::4] = 0xFFFFFFFF, 1  # a carry in lanes 0 mod 4 (inactive) and ...
    x[1::4], y[1::4] = 0xFFFFFFFF, 1  # ... in lanes 1 mod 4 (active)
    x[3::8], y[3::8] = 5, 5  # equal operands: no borrow, and the borrow-in decides
    mdt = np.uint64 if wave == 64 else np.uint32
    m = np.zeros(256, mdt)
    r = np.zeros(256, np.uint32)
    mod.carry.on(f"emulator:{arch}")[1, wave](x.astype(np.uint32), y.astype(np.uint32), m, r)

    lanes = np.arange(64)
    active = (lanes % 2 == 1) & (lanes < wave)
    c0 = (x + y > 0xFFFFFFFF) & active
    s1 = x + y + c0
    c1 = (s1 > 0xFFFFFFFF) & active
    b2 = (y > x) & active
    b3 = (y + b2 > x) & active
    bits = lambda c: int(np.packbits(c, bitorder="little").view(np.uint64)[0])  # noqa: E731
    want_m = [bits(c0), bits(c1), bits(b2), bits(b3)]
    want_r = [(x + y) & 0xFFFFFFFF, s1 & 0xFFFFFFFF, (x - y) & 0xFFFFFFFF,
              (x - y - b2) & 0xFFFFFFFF]
    m = m.reshape(4, 64).astype(np.uint64)
    r = r.reshape(4, 64)
    for k in range(4):
        assert (m[k][active] == want_m[k]).all(), (k, hex(int(m[k][active][0])),
                                                   hex(want_m[k]))
        np.testing.assert_array_equal(r[k][active], want_r[k][active].astype(np.uint32),
                                      err_msg=f"result {k}")
    assert int(m[0][active][0]) & ~bits(active) == 0  # no bit of an inactive lane
