"""The timing model's memory path, piece by piece (workbench/timing: costs.py, simulate.py).

Real clang and the real emulator record the streams where addresses matter (per-quad line
counts, the vL1D's tags); hand-made streams check the pure model's queues. Each test names the
rule it checks and where the rule comes from.
"""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import workbench as wb
from workbench.timing import InstStream, Param, get_chip, predict
from workbench.timing.costs import shared_line_cycles, ta_address_cycles

# lane l of one wave reads a[row * STRIDE + l % PER_ROW] for row = l / PER_ROW (and the row 64
# further down when TWICE), REPS times, each pass ``step`` bytes further along the same line
# (a run-time step, so the compiler cannot merge the passes' loads)
ROWS = """
extern "C" __global__ void rows(const unsigned char* a, float* out, int step) {
  int l = threadIdx.x;
  float s = 0.0f;
  for (int r = 0; r < REPS; ++r) {
    s += (float)a[(l / PER_ROW) * STRIDE + (l % PER_ROW) + r * step];
    if (TWICE) s += (float)a[(l / PER_ROW + 64) * STRIDE + (l % PER_ROW) + r * step];
  }
  out[l] = s;
}
"""


def _rows(per_row: int, stride: int, reps: int = 1, twice: int = 0):
    """(kernel, args) of ``ROWS`` for gfx942 with those defines."""
    m = wb.compile(ROWS, arch="gfx942", defines={"PER_ROW": per_row, "STRIDE": stride,
                                                 "REPS": reps, "TWICE": twice})
    a = np.zeros(130 * stride + 256, np.uint8)
    return m["rows"], (a, np.zeros(64, np.float32), 8)


def _first_load(s: InstStream) -> int:
    names = [s.instructions[int(i)].mnemonic for i in s.index]
    return next(j for j, n in enumerate(names) if n.startswith("global_load"))


@pytest.mark.parametrize("per_row, quad_lines", [(4, 16), (1, 64)])
def test_the_stream_records_each_quads_distinct_lines(per_row, quad_lines):
    # GPUOpen, 'Understanding Memory Coalescing on GCN': the addresser takes a quad of 4 lanes
    # per clock. 4 lanes per row: a quad reads one line; 1 lane per row: a quad reads 4 lines
    k, args = _rows(per_row, 4096)
    s = k.launch(1, 64, *args, device="emulator:gfx942", stream=True).stream
    j = _first_load(s)
    assert int(s.vm_quad_lines[j]) == quad_lines
    ids = s.vm_line_ids[s.vm_line_ptr[j]:s.vm_line_ptr[j + 1]]
    assert len(ids) == int(s.vm_lines[j]) == 64 // per_row  # the tags are the distinct lines
    assert len(set(ids.tolist())) == len(ids)


def test_an_uncoalesced_access_pays_each_line_of_its_quads():
    chip = get_chip("mi300x")
    # 64 one-byte lanes: compact (one line) -> the fast 4 clocks; 16 rows x 4 lanes -> 16 quads
    # of one line each -> 16 clocks; 64 rows -> 64 quad-lines -> 64 clocks
    got = ta_address_cycles(np.array([64, 64, 64]), np.full(3, 64), np.array([1, 16, 64]),
                            chip, np.array([16, 16, 64])).tolist()
    assert got == [chip["ta_cycles"], chip["ta_cycles_multi"], 64]


def test_the_vl1d_keeps_what_fits_in_a_set_and_loses_what_does_not():
    # wave-lang's note on MI300's L1: 4 sets by address bits 7-8, so a power-of-two stride of
    # 256 B or more puts every line in one set (64 lines of 128 B here). 128 rows 4 KiB apart
    # (two loads of 64) overflow one set and LRU keeps nothing for the next pass; 4 KiB + 128 B
    # apart they spread over all 4 sets and every later pass hits
    k, args = _rows(1, 4096, reps=4, twice=1)
    one_set = k.timing[1, 64](*args, chip="mi300x")
    k, args = _rows(1, 4096 + 128, reps=4, twice=1)
    spread = k.timing[1, 64](*args, chip="mi300x")
    assert one_set.l1_hit_rate == 0.0
    assert spread.l1_hit_rate == pytest.approx(3 / 4, abs=0.02)  # passes 2-4 hit
    assert spread.seconds < one_set.seconds
    # 64 rows fit one set: the second load of each line hits
    k, args = _rows(1, 4096, reps=4)
    assert k.timing[1, 64](*args, chip="mi300x").l1_hit_rate == pytest.approx(3 / 4, abs=0.02)


def test_a_burst_is_served_by_what_the_other_cus_leave_free():
    chip = get_chip("mi355x")
    line = chip["line_bytes"]
    n_x = chip["cus"] / chip["xcds"]
    cap = chip["l2_bytes_per_clk_xcd"] * chip["l2_efficiency"] / line  # lines/clk per XCD
    # an otherwise idle XCD: only the per-CU request rate limits a burst
    assert shared_line_cycles(chip, 1.0, 0.0, 1e9) == chip["l2_cycles_per_line_cu"]
    # every CU saturating: the fair 1/CUs share, whatever the per-CU rate allows
    assert shared_line_cycles(chip, 1e9, 0.0, 1.0) == pytest.approx(n_x / cap)
    # in between: what the other CUs, at this CU's own average rate, leave free
    rate = 0.5 * cap / n_x
    assert shared_line_cycles(chip, rate * 1000, 0.0, 1000) == pytest.approx(
        max(1 / (cap - (n_x - 1) * rate), chip["l2_cycles_per_line_cu"]))


class _Ins:
    def __init__(self, addr: int, text: str):
        self.addr, self.text, self.source_line = addr, text, 0
        self.mnemonic = text.split()[0]


def _loads(n: int, lines: int) -> InstStream:
    """One wave: ``n`` loads of ``lines`` 128-B lines each, then a wait for all of them."""
    prog = [f"global_load_dwordx4 v[{4 * i}:{4 * i + 3}], v[200:201], off" for i in range(n)]
    prog += ["s_waitcnt vmcnt(0)", "s_endpgm"]
    insts = [_Ins(4 * i, t) for i, t in enumerate(prog)]
    m = len(prog)
    is_vm = np.array([t.startswith("global_") for t in prog])
    return InstStream("k", "gfx942", (1, 1, 1), (64, 1, 1), insts, np.zeros(m, np.int64),
                      np.arange(m, dtype=np.int32), np.full(m, 64, np.int16),
                      np.where(is_vm, lines, -1), np.where(is_vm, 128 * lines, 0),
                      np.arange(1), np.zeros(1, np.int64), np.zeros(1, np.int64))


def test_lines_in_flight_bound_the_rate_littles_law():
    # 32 loads of 8 lines: with 16 slots only 2 loads are in flight, so each pair waits a whole
    # round trip (>= the L2-miss latency); with the table's slots all 256 lines are in flight
    base = get_chip("mi300x")
    few = dataclasses.replace(base, params={**base.params, "vmem_lines_in_flight": Param(
        16, "lines", "test")})
    s = _loads(32, 8)
    # a small footprint: the lines hit L2, so the round trip is the L2 latency and the data
    # path (this CU's share of L2) is not what limits the fast case
    slow, fast = (predict(s, c, footprint_bytes=1024) for c in (few, base))
    # Little's law: 256 lines through 16 slots is 16 round trips of at least the L2 latency
    assert slow.cycles >= 16 * base["l2_latency"]
    # with all lines in flight the data path (the CU's L2 service) is what remains
    assert fast.cycles < slow.cycles / 3 and fast.busy["VMEM"] > 0.7
    # the waiting shows where the hardware would hold it: at the addresser (VMEM issue busy)
    assert slow.stalls[0].get("VMEM issue busy", 0) > fast.stalls[0].get("VMEM issue busy", 0)
