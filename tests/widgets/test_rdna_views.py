"""The RDNA pictures: wb.register_budget (VGPR file per SIMD at wave32 and wave64, from the
occupancy model) and wb.dual_issue (VOPD pairs of compiled gfx1100/gfx1201 code)."""
from __future__ import annotations

import re

import numpy as np
import pytest

import workbench as wb
from workbench.widgets.base import WIDGET_MIME

OUTER = r"""
extern "C" __global__ void outer(const float* a, const float* b, float* c) {
  const int t = threadIdx.x;
  float x[4], y[4], acc[4][4] = {};
  for (int k = 0; k < 8; ++k) {
#pragma unroll
    for (int i = 0; i < 4; ++i) { x[i] = a[(k * 4 + i) * 32 + t]; y[i] = b[(k * 4 + i) * 32 + t]; }
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
      for (int j = 0; j < 4; ++j) acc[i][j] = __builtin_fmaf(x[i], y[j], acc[i][j]);
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) c[(i * 4 + j) * 32 + t] = acc[i][j];
}
"""


def test_register_budget_wave32_and_wave64_share_one_file():
    rb = wb.register_budget("gfx1100", 96)
    w32, w64 = rb.budgets
    assert (w32.wave_size, w32.file, w32.granule, w32.waves, w32.threads) == (32, 1536, 24, 16, 512)
    assert (w64.wave_size, w64.file, w64.granule, w64.waves, w64.threads) == (64, 768, 12, 8, 512)
    assert w32.kib == w64.kib == 192 and (w32.full_at, w64.full_at) == (96, 48)
    for b in rb.budgets:  # the occupancy model's answer, row by row
        table = wb.occupancy_table("gfx1100", b.wave_size)
        assert b.waves == next(w for lo, hi, w in table.vgpr_rows if lo <= 96 <= hi)
        assert [(lo, hi, w) for lo, hi, w in table.vgpr_rows] == rb.curve(b.wave_size)
    text = rb.text()
    assert "wave32: 1536 VGPRs x 32 lanes x 4 B = 192 KiB" in text
    assert "-> 8 waves/SIMD = 512 threads (limited by VGPRs" in text
    html = rb.html()
    assert "<script" not in html and html.count("<svg") == 1 and html == rb.html()
    # one block per resident wave (16 + 8), each with a tooltip naming its VGPRs
    assert len(re.findall(r"<title>wave \d+: VGPRs", html)) == 24
    assert rb._repr_html_() == html and repr(rb) == text  # a static View: no widget needed


def test_register_budget_leftover_and_single_wave_size():
    small = wb.register_budget("gfx1102", 72)
    w32 = small.budgets[0]
    assert (w32.allocated, w32.waves, w32.unused) == (80, 12, 64)
    assert "64 VGPRs unused" in small.text() and "64 VGPRs unused</title>" in small.html()
    cdna = wb.register_budget("gfx942", 128)
    assert [b.wave_size for b in cdna.budgets] == [64] and cdna.budgets[0].waves == 4
    with pytest.raises(ValueError, match="vgprs=300"):
        wb.register_budget("gfx1100", 300)


@pytest.fixture(scope="module", params=["gfx1100", "gfx1201"])
def outer(request):
    arch = request.param
    on = wb.compile(OUTER, arch).outer
    off = wb.compile(OUTER, arch, ["-mllvm", "-amdgpu-enable-vopd=0"]).outer
    return arch, on, off


def test_vopd_pairs_obey_the_bank_rule_and_save_issue_slots(outer):
    arch, on, off = outer
    lon, loff = on.isa_for(arch), off.isa_for(arch)
    d_on, d_off = lon.dual_issue(), loff.dual_issue()
    assert d_on.vopd > 0 and d_off.vopd == 0
    assert d_on.ops == d_off.ops == d_on.slots + d_on.vopd       # same work, fewer slots
    assert d_on.by_op["v_fmac_f32"] >= 2 * d_on.pairs["v_dual_fmac_f32 :: v_dual_fmac_f32"]
    for ins in lon:
        if ins.dual is None:
            continue
        x, y = ins.regs, ins.dual[1]
        vx, vy = (re.fullmatch(r"v(\d+)", o) for o in (x[0], y[0]))
        assert int(vx[1]) % 2 != int(vy[1]) % 2, ins.text     # dst: one even, one odd
        for k in (1, 2):                                        # src0, src1: banks mod 4
            a, b = (re.fullmatch(r"v(\d+)", o[k]) if k < len(o) else None for o in (x, y))
            if a and b:
                assert int(a[1]) % 4 != int(b[1]) % 4, ins.text
    view = wb.dual_issue(lon, loff, labels=("VOPD on", "VOPD off"))
    text = view.text()
    assert text.startswith(f"VOPD on: {d_on.ops} VALU ops in {d_on.slots} issue slots (static)")
    assert f"VOPD off: {d_off.ops} VALU ops in {d_off.ops} issue slots" in text
    assert f"issue slots relative to VOPD on: 1.00 / {d_off.slots / d_on.slots:.2f}" in text
    assert "densest VOPD stretch" in text and "VOPD_VGPR_BANK_MASKS" in text
    html = view.html()
    assert "<script" not in html and html.count("<svg") == 3 and html == view.html()
    assert html.count("VOPD half X") == 1 and "v_dual_fmac_f32" in html
    assert view._repr_html_() == html and WIDGET_MIME not in html


def test_dual_issue_counts_executions_from_a_trace(outer):
    arch, on, _ = outer
    a = np.ones(32 * 32 + 32, np.float32)        # lane t of wave 1 reads up to row 31 + 1
    c = np.zeros(16 * 32 + 32, np.float32)
    tr = on.on(f"emulator:{arch}").trace[1, 64](a, a, c)            # two wave32 waves
    np.testing.assert_array_equal(c, np.full_like(c, 8))            # 8 k-steps of 1 * 1
    static, run = on.isa_for(arch).dual_issue(), on.isa_for(arch).dual_issue(tr.pc_counts)
    assert (run.vopd, run.ops) == (2 * static.vopd, 2 * static.ops)
    view = wb.dual_issue(on, arch=arch, counts=tr, labels=["run"])
    assert view.text().startswith(f"run: {run.ops} VALU ops in {run.slots} issue slots (executed)")
    with pytest.raises(TypeError, match="counts: give a Trace"):
        wb.dual_issue(on, arch=arch, counts=3.5)
    with pytest.raises(ValueError, match="one label per listing"):
        wb.dual_issue(on, on, arch=arch, labels=["x"])
    with pytest.raises(TypeError, match="listings .* or kernels, got int"):
        wb.dual_issue(3)
