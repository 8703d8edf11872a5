"""workbench.timing: the CU model's physics checks, its parts, Kernel.timing, the timeline.

No AMD GPU exists here: every number checked is the model's own ("modelled"); the physics
checks compare it with the chip table's peaks, which carry their sources (timing/chips.py).
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest
from IPython.core.error import UsageError
from IPython.utils.capture import capture_output

import workbench as wb
from workbench.errors import LaunchError
from workbench.runtime.kernel import Kernel
from workbench.timing import CHIPS, get_chip, predict
from workbench.timing import classes as C

ROOT = Path(__file__).resolve().parents[2]
KDIR = ROOT / "tests" / "kernels" / "timing"


def _kernel(name: str, file: str, arch: str = "gfx942") -> Kernel:
    return Kernel(wb.compile((KDIR / file).read_text(), arch=arch), name)


@pytest.fixture(scope="module")
def mfma_report():
    k = _kernel("mfma_loop", "mfma_loop.hip")
    per_cu = k.occupancy(256, "gfx942").workgroups_per_cu
    g = int(get_chip("mi300x")["cus"]) * per_cu  # exactly one full round
    return k.timing[g, 256](np.zeros(g * 256, np.float32), 256, chip="mi300x")


# -- physics checks ------------------------------------------------------------------------------
def test_mfma_only_loop_at_full_occupancy_models_at_least_98_percent_of_peak(mfma_report):
    """>= 98% MFMA efficiency and >= 98% of the matrix peak at the modelled clock.

    The spec peak (1307.4 TF bf16 on MI300X) assumes the 2.1 GHz max engine clock, which AMD's
    own measurements show is not sustained under matrix load (rocm-blogs measuring-max-
    achievable-flops-part2: MI300X BF16 at a 1207 MHz median clock, the power-limited clock), so
    the model runs an MFMA-bound kernel at its power-limited clock: the check is against the
    peak at that clock; at clock='max' it holds against the spec peak itself.
    """
    r = mfma_report
    assert r.workgroups_per_cu == 8 and r.dtype == "bf16"
    assert r.clock_mode == "modelled"
    assert r.mfma_efficiency >= 0.98
    assert 98.0 <= r.percent_of_peak_at_clock <= 100.0
    assert r.limiter.startswith("MFMA-bound")
    # the clock: MFMA load ~99% -> close to the MAF clock (1.207 GHz), far below the max clock
    sustained = r.chip["clock_sustained_ghz_bf16"]
    assert r.mfma_load >= 0.98
    assert sustained <= r.clock_ghz <= sustained + 0.02 * (2.1 - sustained) + 1e-9
    assert r.percent_of_peak == pytest.approx(r.percent_of_peak_at_clock * r.clock_ghz / 2.1)


def test_mfma_only_loop_at_the_max_clock_models_at_least_98_percent_of_the_spec_peak(
        mfma_report):
    k = _kernel("mfma_loop", "mfma_loop.hip")
    g = mfma_report.workgroups
    r = k.timing[g, 256](np.zeros(g * 256, np.float32), 256, chip="mi300x", clock="max")
    assert r.clock_mode == "max" and r.clock_ghz == 2.1
    assert 98.0 <= r.percent_of_peak <= 100.0
    # the modelled report's max-clock figure is this run's
    assert mfma_report.tflops_at_max_clock == pytest.approx(r.tflops, rel=1e-9)
    assert "the max engine clock (clock='max')" in r.summary()


def test_streaming_copy_models_the_achievable_hbm_bandwidth_not_above():
    k = _kernel("copy4", "copy.hip")
    n4 = 4 << 20
    x = np.zeros((n4, 4), np.float32)
    y = np.zeros_like(x)
    r = k.timing[(n4 + 255) // 256, 256](x, y, n4, chip="mi300x")
    achievable = r.chip.achievable_hbm_bytes_per_s / 1e9
    assert r.gbs <= achievable * 1.0001
    assert r.gbs >= 0.95 * achievable
    assert r.limiter.startswith("VMEM-bound")
    assert not y.any()  # timing runs part of the grid and writes nothing back
    # no MFMA work: no power-limited clock drop, the copy runs at the max engine clock
    assert r.mfma_load == 0 and r.clock_ghz == r.chip["clock_ghz"]


def test_the_modelled_clock_follows_the_linear_rule_between_sourced_endpoints():
    for chip in CHIPS.values():
        top = chip["clock_ghz"]
        for dt in ("bf16", "f16", "fp8", "f32"):
            low = chip[chip.sustained_clock_key(dt)]
            assert low < top
            assert chip.clock_ghz_at(0.0, dt) == top
            assert chip.clock_ghz_at(1.0, dt) == pytest.approx(low)
            assert chip.clock_ghz_at(0.5, dt) == pytest.approx((top + low) / 2)
        assert chip.params["clock_load_rule"].assumed
        for key, p in chip.params.items():
            if key.startswith("clock_sustained_ghz_"):
                assert p.source.split()[0] in ("MAF", "GLUON"), key
    # the arithmetic of the sourced values (rocm-blogs gluon-gemm-tutorial, MAF part 2)
    mi355 = get_chip("mi355x")
    assert mi355["clock_sustained_ghz_fp8"] == pytest.approx(3257e12 / (256 * 8192 * 0.9972)
                                                             / 1e9, abs=1e-3)
    assert mi355["clock_sustained_ghz_f16"] == pytest.approx(1489e12 / (256 * 4096 * 0.9875)
                                                             / 1e9, abs=1e-3)
    assert get_chip("mi300x")["clock_sustained_ghz_bf16"] == 1.207


def test_the_clock_converts_the_same_cycles_and_a_bad_clock_is_refused():
    prog = ["v_mfma_f32_16x16x16_bf16 a[0:3], v[0:1], v[2:3], a[0:3]"] * 8 + ["s_endpgm"]
    top = predict(_stream(prog), "mi300x", clock="max")
    mod = predict(_stream(prog), "mi300x")
    # one wave on one of 304 CUs: a tiny chip-wide MFMA load, a clock just below the max
    assert mod.cycles == top.cycles and mod.mfma_load == top.mfma_load
    assert 0 < mod.mfma_load < 0.01
    assert mod.clock_ghz == pytest.approx(2.1 - (2.1 - 1.207) * mod.mfma_load)
    assert mod.seconds == pytest.approx(top.seconds * 2.1 / mod.clock_ghz)
    assert mod.max_clock_seconds == pytest.approx(top.seconds)
    with pytest.raises(ValueError, match="clock='fast': use 'modelled'"):
        predict(_stream(prog), "mi300x", clock="fast")


# -- parts ---------------------------------------------------------------------------------------
def test_waitcnt_named_and_raw_forms():
    assert C.parse_waitcnt("s_waitcnt vmcnt(0) lgkmcnt(0)") == (0, 0, -1)
    assert C.parse_waitcnt("s_waitcnt lgkmcnt(3)") == (-1, 3, -1)
    # raw SIMM16: vmcnt 5 (bits 3:0), expcnt 7 (no wait), lgkmcnt 15 (no wait)
    v = 5 | (7 << 4) | (15 << 8)
    assert C.parse_waitcnt(f"s_waitcnt {v}") == (5, -1, -1)


def test_instruction_classes():
    mf = C.classify("v_mfma_f32_16x16x16_bf16", "", "gfx942")
    assert (mf.kind, mf.cycles, mf.flops, mf.dtype) == (C.MFMA, 16, 8192, "bf16")
    f8 = C.classify("v_mfma_scale_f32_16x16x128_f8f6f4", "", "gfx950")
    assert (f8.cycles, f8.flops, f8.dtype) == (32, 65536, "fp8")  # SCHED: 8 passes with fp8
    assert C.classify("v_exp_f32_e32", "", "gfx942").kind == C.TRANS
    assert C.classify("v_add_f32_e32", "", "gfx942").kind == C.VALU
    assert C.classify("ds_read_b128", "", "gfx942").kind == C.LDS
    assert C.classify("global_store_dwordx4", "", "gfx942").kind == C.VMEM_STORE
    assert C.classify("buffer_load_dword", "", "gfx942").kind == C.VMEM_LOAD
    assert C.classify("s_nop", "s_nop 4", "gfx942").cycles == 5
    assert C.classify("s_sleep", "s_sleep 2", "gfx942").cycles == 128
    assert C.classify("s_setprio", "s_setprio 1", "gfx942").prio == 1
    assert C.classify("s_load_dwordx4", "", "gfx942").kind == C.SMEM


def test_every_chip_parameter_names_its_source():
    for chip in CHIPS.values():
        for name, p in chip.params.items():
            assert p.source, f"{chip.name}.{name} has no source"
        assert chip.peak_flops("bf16") is not None
    assert abs(get_chip("MI300X").peak_flops("bf16") / 1e12 - 1307.4) < 1.0
    assert abs(get_chip("mi355x").peak_flops("fp8") / 1e12 - 5033) < 5
    with pytest.raises(ValueError,
                       match="unknown chip 'h100'; modelled chips: mi300x, mi325x, mi355x"):
        get_chip("h100")


def test_timing_errors_name_the_chip_and_the_arch(mfma_report):
    k = _kernel("copy4", "copy.hip")
    x = np.zeros((64, 4), np.float32)
    with pytest.raises(LaunchError, match="compiled for gfx942 but mi355x runs gfx950"):
        k.timing[1, 64](x, x.copy(), 64, chip="mi355x")
    with pytest.raises(LaunchError, match="chip='rdna9'"):
        k.timing[1, 64](x, x.copy(), 64, chip="rdna9")
    with pytest.raises(LaunchError, match="clock='turbo': use 'modelled'"):
        k.timing[1, 64](x, x.copy(), 64, chip="mi300x", clock="turbo")
    with pytest.raises(LaunchError, match=r"kernel.timing\[grid, block\]"):
        k.timing[1](x, x.copy(), 64)


def test_predict_refuses_a_stream_of_another_arch():
    k = _kernel("copy4", "copy.hip")
    x = np.zeros((256, 4), np.float32)
    s = k.launch(1, 256, x, x.copy(), 256, device="emulator", stream=True).stream
    with pytest.raises(ValueError, match="the stream is gfx942 code but mi355x runs gfx950"):
        predict(s, "mi355x")


def test_report_text_is_labelled_modelled_and_lists_sources(mfma_report):
    t = mfma_report.text()
    assert "modelled" in mfma_report.summary()
    assert "BASEINFO (getEUsPerCU: 4 SIMDs per CU)" in t and "ASSUMPTION" in t and "vL1D" in t
    assert "AMDGPUBaseInfo.cpp" in t  # the key's full title is listed under the table
    assert "This timing leans on" in t and "clock_load_rule" in t  # the report names them
    # the MFMA loop's load and clock depend a little on the LLVM's schedule (99% and 1.21 GHz
    # with LLVM 22, 98% with LLVM 19): check the line's form and that it states the report's own
    # numbers, near MI300X's sourced 1.207 GHz sustained bf16 clock
    m = re.search(r"power-limited clock under (\d+)% MFMA load \(chip-wide\): (\d\.\d\d) GHz "
                  r"\(modelled;", t)
    assert m, t
    assert int(m.group(1)) >= 95 and m.group(2) == f"{mfma_report.clock_ghz:.2f}"
    assert 1.20 <= mfma_report.clock_ghz <= 1.25
    assert "clock_load_rule" in t and "MAF:" in t
    assert "<details>" in mfma_report._repr_html_()


# -- timeline ------------------------------------------------------------------------------------
def test_timeline_static_view_groups_waves_by_simd(mfma_report):
    v = mfma_report.timeline(end=2000)
    text = v.text()
    assert text.index("SIMD 0") < text.index("SIMD 1") < text.index("SIMD 3")
    assert "MMMM" in text and "(modelled)" in text
    fig = v.figure()  # the live view's bokeh figure, with hover
    assert any(type(t).__name__ == "HoverTool" for t in fig.tools)
    with pytest.raises(ValueError, match="end must be after start"):
        mfma_report.timeline(start=50, end=10)


def test_timeline_static_view_shows_the_waits_a_load_span_covers():
    """A copy waits on its load (s_waitcnt vmcnt) before it stores: the load's span (issue to
    data return) covers that wait, and the character chart shows the wait ('.'), not 'L'."""
    k = _kernel("copy4", "copy.hip")
    x = np.zeros((256, 4), np.float32)
    r = k.timing[1, 256](x, x.copy(), 256, chip="mi300x")
    waits = [(a, b) for (_w, a, b, kind, _r) in r.spans if kind == 6 and b - a >= 200]
    assert waits, "the copy should wait for its load"
    text = r.timeline(width=60).text()
    rows = [line for line in text.splitlines() if line.startswith("  wave")]
    assert rows and all("." in row for row in rows), text
    assert all("L" in row for row in rows), text  # the load's issue still shows


def _mfma_overlap(report, w1: int, w2: int, lo: int, hi: int) -> tuple[float, float]:
    """(MFMA cycles of w1 in [lo, hi), cycles where w1 and w2 both have an MFMA span)."""
    n = hi - lo
    a = np.zeros(n, bool)
    b = np.zeros(n, bool)
    for (w, s, e, kind, _r) in report.spans:
        if kind != 0 or e <= lo or s >= hi:
            continue
        tgt = a if w == w1 else b if w == w2 else None
        if tgt is not None:
            tgt[max(s, lo) - lo:min(e, hi) - lo] = True
    return float(a.sum()), float((a & b).sum())


@pytest.mark.skipif(wb.find_toolchain().clang_major < wb.arch.get("gfx950").min_llvm_major,
                    reason="the ping-pong step builds for gfx950 only (LLVM >= 20)")
def test_pingpong_partner_waves_alternate_memory_and_mfma_phases():
    sys.path.insert(0, str(ROOT / "kernels" / "gemm"))
    try:
        import steps
    finally:
        sys.path.pop(0)
    s = steps.step("pingpong8")
    k = steps.kernel(s, "gfx950", "bf16")
    M = N = K = 1024
    g, b = steps.launch(s, M, N, K)
    A, B, _, _ = steps.inputs(M, N, K, "bf16")
    r = k.timing[g, b](A, B, np.zeros((M, N), np.float32), M, N, K, chip="mi355x")
    assert sorted(r.wave_simd.values()) == [0, 0, 1, 1, 2, 2, 3, 3]
    end = max(e for (_w, _s, e, _k, _r) in r.spans)
    lo, hi = end // 4, 3 * end // 4  # steady state
    for w in range(4):  # waves w and w + 4 share SIMD w
        mine, both = _mfma_overlap(r, w, w + 4, lo, hi)
        assert mine > 0.2 * (hi - lo)
        assert both < 0.2 * mine, f"SIMD {w}: partner waves overlap in MFMA {both}/{mine}"


# -- magic ---------------------------------------------------------------------------------------
def test_hipkernel_time_prints_the_modelled_summary(shell):
    shell.user_ns.update(x=np.zeros((4096, 4), np.float32), y=np.zeros((4096, 4), np.float32))
    with capture_output() as cap:
        shell.run_cell_magic("hipkernel", "--show none --time mi300x --launch "
                             "'copy4[16, 256](x, y, 4096)'", (KDIR / "copy.hip").read_text())
    assert "copy4 on AMD Instinct MI300X (mi300x, gfx942) - modelled timing" in cap.stdout
    assert "limiter" in cap.stdout
    with pytest.raises(UsageError, match="--time needs --launch"):
        shell.run_cell_magic("hipkernel", "--time mi300x", (KDIR / "copy.hip").read_text())
    with pytest.raises(UsageError, match="unknown chip"):
        shell.run_cell_magic("hipkernel", "--time a100 --launch 'copy4[1, 64](x, y, 64)'",
                             (KDIR / "copy.hip").read_text())
    with pytest.raises(UsageError, match="no kernel 'nope'"):
        shell.run_cell_magic("hipkernel", "--time mi300x --launch 'nope[1, 64](x, y, 64)'",
                             (KDIR / "copy.hip").read_text())


# -- the pure model on a hand-made stream (no emulator) -------------------------------------------
class _Ins:
    def __init__(self, addr: int, text: str):
        self.addr, self.text, self.source_line = addr, text, 0
        self.mnemonic = text.split()[0]


def _stream(program: list[str], waves: int = 1, vm_lines: int = 2):
    from workbench.timing import InstStream

    insts = [_Ins(4 * i, t) for i, t in enumerate(program)]
    n = len(program)
    wave = np.repeat(np.arange(waves), n)
    index = np.tile(np.arange(n), waves).astype(np.int32)
    is_vm = np.array([t.startswith("global_") for t in program] * waves)
    return InstStream("k", "gfx942", (waves, 1, 1), (64, 1, 1), insts, wave, index,
                      np.full(n * waves, 64, np.int16), np.where(is_vm, vm_lines, -1),
                      np.where(is_vm, 64 * 4 * vm_lines // 2, 0), np.arange(waves),
                      np.arange(waves), np.zeros(waves, np.int64))


def test_a_load_then_waitcnt_stalls_for_the_memory_latency():
    chip = get_chip("mi300x")
    r = predict(_stream(["global_load_dword v1, v[2:3], off", "s_waitcnt vmcnt(0)",
                         "v_add_f32_e32 v1, v1, v1", "s_endpgm"]), chip)
    wait = r.stalls[0]["wait vmcnt"]
    # no footprint given: every line from HBM; the data path serves 2 lines at the CU's
    # share of HBM bandwidth, then the HBM latency
    hbm_cu = chip.achievable_hbm_bytes_per_s / chip.clock_hz / chip["cus"]
    service = int(np.ceil(2 * 128 / hbm_cu))
    expect = chip["ta_cycles"] + service + chip["hbm_latency"] - chip["issue_interval"]
    assert abs(wait - expect) <= chip["issue_interval"]
    assert r.limiter.startswith("latency-bound") and "wait vmcnt" in r.limiter


def test_the_texture_addresser_rate_depends_on_width_and_spread():
    from workbench.timing.costs import ta_address_cycles

    chip = get_chip("mi355x")
    fast, slow = chip["ta_cycles"], chip["ta_cycles_multi"]
    assert (fast, slow) == (4, 16)  # GPUOpen, 'Understanding Memory Coalescing on GCN'
    nbytes = np.array([256, 1024, 256, 64, 256, 64])  # 64 lanes x 4, x 16, x 4, x 1, x 4, x 1
    lines = np.array([2, 8, 64, 1, -1, 16])  # the last: bytes 64 apart (scattered)
    got = ta_address_cycles(nbytes, np.full(6, 64), lines, chip).tolist()
    assert got == [fast, slow, slow, fast, fast, slow]


def test_a_wide_load_waits_for_the_multi_channel_address_rate():
    chip = get_chip("mi300x")
    r = predict(_stream(["global_load_dwordx4 v[1:4], v[2:3], off", "s_waitcnt vmcnt(0)",
                         "v_add_f32_e32 v1, v1, v1", "s_endpgm"], vm_lines=8), chip)
    hbm_cu = chip.achievable_hbm_bytes_per_s / chip.clock_hz / chip["cus"]
    service = int(np.ceil(8 * 128 / hbm_cu))
    expect = chip["ta_cycles_multi"] + service + chip["hbm_latency"] - chip["issue_interval"]
    assert abs(r.stalls[0]["wait vmcnt"] - expect) <= chip["issue_interval"]


def test_two_waves_on_one_simd_share_its_mfma_pipe():
    prog = ["v_mfma_f32_16x16x16_bf16 a[0:3], v[0:1], v[2:3], a[0:3]"] * 8 + ["s_endpgm"]
    one = predict(_stream(prog, waves=1), "mi300x")
    # five one-wave workgroups per CU (a grid of one full round): waves 0 and 4 land on SIMD 0
    # and take turns on its pipe
    five = predict(_stream(prog, waves=5), "mi300x", workgroups_per_cu=5,
                   total_workgroups=304 * 5)
    assert five.wave_simd[0] == five.wave_simd[4] == 0
    assert five.batch_cycles >= 2 * 8 * 16 and one.batch_cycles < 2 * 8 * 16
    assert five.stalls[4].get("MFMA pipe busy", 0) >= 8 * 16 - 16


def test_a_barrier_released_by_the_last_waves_end_is_a_barrier_span():
    """s_barrier counts live waves: when the wave that never arrives ends, the waiting wave goes
    on, and that wait is a barrier span on the timeline, as for an ordinary release."""
    from workbench.timing import InstStream
    from workbench.timing.simulate import S_BAR

    progs = [["global_load_dword v1, v[2:3], off", "s_waitcnt vmcnt(0)", "s_endpgm"],
             ["s_barrier", "s_endpgm"]]  # one workgroup of two waves
    insts, wave, index = [], [], []
    for w, prog in enumerate(progs):
        for t in prog:
            wave.append(w)
            index.append(len(insts))
            insts.append(_Ins(4 * len(insts), t))
    is_vm = np.array([insts[i].mnemonic.startswith("global_") for i in index])
    s = InstStream("k", "gfx942", (1, 1, 1), (128, 1, 1), insts, np.array(wave),
                   np.array(index, np.int32), np.full(len(wave), 64, np.int16),
                   np.where(is_vm, 2, -1), np.where(is_vm, 256, 0), np.arange(2),
                   np.zeros(2, np.int64), np.arange(2))
    r = predict(s, "mi300x")
    bars = [sp for sp in r.spans if sp[0] == 1 and sp[3] == S_BAR]
    assert len(bars) == 1
    _, start, end, _, _ = bars[0]
    # wave 1 waits until wave 0 has its load back and ends (not only until its own arrival)
    assert end >= max(sp[2] for sp in r.spans if sp[0] == 0)
    assert end - start >= r.chip["hbm_latency"]
    assert r.stalls[1]["barrier"] >= r.chip["hbm_latency"]


def test_a_load_into_lds_takes_lds_bank_cycles_and_a_register_load_does_not():
    chip = get_chip("mi300x")
    to_lds = predict(_stream(["global_load_lds_dwordx4 v[2:3], off", "s_waitcnt vmcnt(0)",
                              "s_endpgm"]), chip)
    to_regs = predict(_stream(["global_load_dwordx4 v[4:7], v[2:3], off", "s_waitcnt vmcnt(0)",
                               "s_endpgm"]), chip)
    # 256 bytes (the hand-made stream's vm_bytes) over 32 banks x 4 B per clock: 2 bank cycles
    assert to_lds.busy["LDS"] * to_lds.window_cycles == 256 / (4 * chip["lds_banks"])
    assert to_regs.busy["LDS"] == 0
