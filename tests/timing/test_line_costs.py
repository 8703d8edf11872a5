"""Costs per source line and per instruction (``report.lines()``, ``report.isa()``): the
simulator's accounting adds up to the waves' lifetimes, and the costly line comes first.

Every number is the model's own (modelled); the checks are its bookkeeping and its ordering.
"""
from __future__ import annotations

import re

import numpy as np
import pytest

import workbench as wb
from workbench.branches import branch_labels, labelled_text
from workbench.runtime.kernel import Kernel
from workbench.timing.simulate import S_BAR, S_WAIT

# one LDS read of the loop is 32-way conflicted (a column of a 64x64 float tile: every lane on
# bank 0), the other is conflict-free; the loop keeps the LDS busy so the conflict dominates
CONFLICT = r'''
extern "C" __global__ void column_sum(const float* x, float* out, int iters) {
  __shared__ float tile[64 * 64];
  int t = threadIdx.x;
  for (int i = 0; i < 64; ++i) tile[i * 64 + t] = x[i * 64 + t];
  __syncthreads();
  float acc = 0.0f;
  for (int i = 0; i < iters; ++i) {
    float col = tile[t * 64 + (i & 63)];
    float row = tile[(i & 63) * 64 + t];
    acc += col * row;
  }
  out[blockIdx.x * 64 + t] = acc;
}
'''
CONFLICT_LINE = 9  # `float col = tile[t * 64 + (i & 63)];` (line 1 is the empty first line)

# a global load, an LDS round trip and a barrier (one workgroup per slot, one generation)
STAGED = r'''
extern "C" __global__ void staged(const float* x, float* out) {
  __shared__ float tile[256];
  int t = threadIdx.x;
  tile[t] = x[blockIdx.x * 256 + t] * 2.0f;
  __syncthreads();
  out[blockIdx.x * 256 + t] = tile[255 - t] + tile[t];
}
'''


@pytest.fixture(scope="module")
def conflict_report():
    k = Kernel(wb.compile(CONFLICT, arch="gfx942"), "column_sum")
    x = np.arange(64 * 64, dtype=np.float32)
    return k.timing[8, 64](x, np.zeros(8 * 64, np.float32), 64, chip="mi300x")


@pytest.fixture(scope="module")
def staged_report():
    k = Kernel(wb.compile(STAGED, arch="gfx942"), "staged")
    x = np.arange(4 * 256, dtype=np.float32)
    return k.timing[4, 256](x, np.zeros(4 * 256, np.float32), chip="mi300x")


def _lifetimes(rep) -> int:
    return sum(rep.wave_end[w] - rep.wave_start[w] for w in rep.wave_end)


@pytest.mark.parametrize("which", ["conflict_report", "staged_report"])
def test_issue_and_stall_cycles_per_line_add_up_to_the_waves_lifetimes(which, request):
    """Summed issue + stall cycles of all lines == the summed lifetimes of the simulated waves,
    and within 1% of the lifetimes read off the timeline's spans (first span to s_endpgm)."""
    rep = request.getfixturevalue(which)
    lines = rep.lines()
    assert rep.complete
    assert lines.total_cycles == _lifetimes(rep)
    first: dict = {}
    for (w, a, _b, _k, _r) in rep.spans:
        first[w] = min(first.get(w, a), a)
    assert not rep.spans_truncated and set(first) == set(rep.wave_end)
    from_spans = sum(rep.wave_end[w] - first[w] for w in first)
    assert abs(lines.total_cycles - from_spans) <= 0.01 * from_spans
    # and the per-line stalls are the per-wave stalls, reason by reason
    per_wave = rep.stall_totals()
    per_line: dict = {}
    for row in lines:
        for k, v in row.stalls.items():
            per_line[k] = per_line.get(k, 0) + v
    assert per_line == {k: v for k, v in per_wave.items() if v}


def test_the_deliberately_conflicted_lds_read_is_the_costliest_line(conflict_report):
    rep = conflict_report
    lines = rep.lines()
    top = lines[0]
    assert top.line == CONFLICT_LINE, lines.text()
    assert "tile[t * 64" in top.text
    assert top.stalls.get("LDS conflict", 0) > top.stall / 2
    assert any(c.text.startswith("ds_read") and c.stalls.get("LDS conflict")
               for c in top.instructions)
    # the row read of the next line is charged far fewer conflict cycles
    row_line = next(r for r in lines if r.line == CONFLICT_LINE + 1)
    assert row_line.stalls.get("LDS conflict", 0) * 4 < top.stalls["LDS conflict"]
    assert f"line {CONFLICT_LINE}" in rep.limiter and "LDS conflict" in rep.limiter


def test_waits_and_barriers_are_charged_to_their_own_lines(staged_report):
    """A wait's cycles go to the s_waitcnt's line, a barrier's to __syncthreads (a header line
    with the user's call site); the timeline's wait and barrier spans match those charges."""
    rep = staged_report
    costs = rep.lines().instructions
    by_text = {}
    for c in costs:
        by_text.setdefault(c.text.split()[0], []).append(c)
    waits = sum(c.stalls.get("wait vmcnt", 0) for c in by_text["s_waitcnt"])
    assert waits > 0
    assert all(not c.stalls.get("wait vmcnt") for c in costs
               if not c.text.startswith("s_waitcnt"))
    span_wait = sum(b - a for (_w, a, b, k, _r) in rep.spans if k == S_WAIT)
    charged = sum(c.stalls.get("wait vmcnt", 0) + c.stalls.get("wait lgkmcnt", 0)
                  + c.stalls.get("LDS conflict", 0) for c in costs)
    # a wait span runs from the s_waitcnt's issue; the charge starts one issue slot later
    assert charged <= span_wait
    sync = [r for r in rep.lines() if r.header and "sync.h" in r.header]
    assert sync and all(r.line == 6 for r in sync)
    # a header line quotes the header's own text (found through the prelude's include folder)
    assert any("s_barrier" in r.text for r in sync)
    bars = [(w, a, b) for (w, a, b, k, _r) in rep.spans if k == S_BAR]
    if bars:
        assert any(r.stalls.get("barrier") for r in sync)


def test_the_isa_view_shows_cycles_and_shares_with_source_markers(conflict_report):
    isa = conflict_report.isa()
    text = isa.text()
    assert "modelled" in text
    assert f"; line {CONFLICT_LINE}: float col = tile[t * 64 + (i & 63)];" in text
    shares = [s for _c, s, _t in isa.rows() if s >= 0]
    assert sum(shares) == pytest.approx(1.0)
    html = isa._repr_html_()
    assert "rgba(230, 85, 13" in html and "ds_read_b" in html
    # the ISA view's markup, which the hipwb-lab extension links both ways (isalink.js): a
    # .hipwb <pre> with "; line N" markers as span.src and the instructions as text
    assert html.startswith('<div class="hipwb">') and "<pre>" in html
    assert f'<span class="src">; line {CONFLICT_LINE}: float col' in html
    table = conflict_report.lines()._repr_html_()
    assert "LDS conflict" in table and "<table>" in table


def test_the_timed_isa_names_branch_targets_by_label(conflict_report):
    """The loop's back edge reads ``s_cbranch_* L1`` with an ``L1:`` line right above the
    instruction it jumps to (PC + 4 + SIMM16 * 4), as in the ISA view; not objdump's SIMM16."""
    isa = conflict_report.isa()
    rows = [t.strip() for _c, _s, t in isa.rows()]
    branches = [t for t in rows if t.startswith("s_cbranch_")]
    assert branches and all(re.match(r"s_cbranch_\w+ L\d+$", t) for t in branches), branches
    for t in branches:
        label = t.split()[1]
        at = rows.index(f"{label}:")
        assert not rows[at + 1].startswith(("L", ";")), rows[at:at + 2]
    by_addr = {ins.addr: ins for ins in isa.instructions}
    back = next(ins for ins in isa.instructions if ins.mnemonic.startswith("s_cbranch_"))
    simm = int(back.regs[0], 0) & 0xFFFF
    target = back.addr + 4 + 4 * (simm - 0x10000 if simm & 0x8000 else simm)
    assert target in by_addr
    labels = branch_labels(isa.instructions)
    after = rows[rows.index(f"{labels[target]}:") + 1]
    assert after == labelled_text(by_addr[target], labels), (after, by_addr[target].text)
    html = isa._repr_html_()
    assert '<span class="label">L1:</span>' in html


def test_a_report_without_source_still_lists_lines(conflict_report):
    import dataclasses

    rep = dataclasses.replace(conflict_report, source=None)
    lines = rep.lines()
    assert lines[0].line == CONFLICT_LINE and lines[0].text == ""
    assert f"line {CONFLICT_LINE}" in lines.text()


def test_top_limits_what_the_table_shows_not_the_shares(conflict_report):
    full, top = conflict_report.lines(), conflict_report.lines(top=2)
    assert top.total_cycles == full.total_cycles and top.share(top[0]) == full.share(full[0])
    page = top._repr_html_()
    assert page.count("<tr style=") == 2 and f"{len(full) - 2} more lines" in page
    assert top.text().count("\n") == full.text(top=2).count("\n")


@pytest.mark.parametrize("top", [0, -2, "3", 2.0])
def test_a_bad_top_is_named(conflict_report, top):
    from workbench.errors import ArgumentValueError

    with pytest.raises(ArgumentValueError, match=r"report.lines\(top="):
        conflict_report.lines(top=top)


def test_a_prefix_simulation_says_its_cycles_cover_the_prefix():
    k = Kernel(wb.compile(CONFLICT, arch="gfx942"), "column_sum")
    x = np.arange(64 * 64, dtype=np.float32)
    rep = k.timing[8, 64](x, np.zeros(8 * 64, np.float32), 64, chip="mi300x", max_rows=300)
    assert not rep.complete
    assert f"the first {rep.simulated_rows:,} of {rep.total_rows:,}" in rep.lines().text()
    assert "simulated prefix" in rep.isa().text()
    assert "simulated prefix" in rep.lines()._repr_html_()
