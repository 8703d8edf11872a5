"""Per-chip parameter tables of the timing model, one table per chip, every number with its source.

Why one table: the model's behaviour must be traceable to documents, not tuned to a benchmark.
Each ``Param`` carries its source; values marked ``ASSUMPTION`` have no primary source found
in this project's references and are stated as such wherever the report lists its sources.

Source keys (full titles in ``SOURCES``, and in docs/sources.md): SCHED = LLVM AMDGPU
SISchedule.td, BASEINFO = LLVM AMDGPUBaseInfo.cpp, GCN = AMD "Graphics Cores Next architecture"
white paper (2012), RPC = rocprofiler-compute docs (conceptual/*.rst), CK-LDS = composable_kernel's
LDS bank-conflict page, HK = HipKittens' gfx950 LDS measurement, FP8BLOG = AMD's CDNA4 FP8 GEMM
blog, MAF / GLUON = AMD's measured clocks under matrix load (the power-limited clock).

The clock: ``clock_ghz`` is the maximum engine clock, which the spec peaks assume. AMD's own
measurements show it is not sustained under matrix load (MAF: MI300X at its max-achievable BF16
FLOPs runs at a 1207 MHz median clock, against 2.1 GHz; GLUON: MI355X GEMMs imply 1.44-1.56 GHz,
against 2.4 GHz). ``clock_sustained_ghz_<dtype>`` holds those figures; ``clock_ghz_at`` gives the
modelled clock of a kernel from its MFMA-pipe busy fraction by the rule in ``clock_load_rule``
(an ASSUMPTION: linear between the max clock at 0% and the sustained clock at 100%).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .. import arch as _arch
from ..errors import ArgumentValueError

SOURCES = {
    "BASEINFO": "LLVM llvm/lib/Target/AMDGPU/Utils/AMDGPUBaseInfo.cpp (getEUsPerCU: 4 SIMDs "
                "per CU on CDNA)",
    "SCHED": "LLVM llvm/lib/Target/AMDGPU/SISchedule.td (MFMA passes, 1 pass = 4 cycles)",
    "GCN": "AMD Graphics Cores Next architecture white paper (SIMD16 x 4 cycles per wave64 "
           "instruction; one issue slot per SIMD every 4 cycles, at most one instruction per wave "
           "and per instruction type per slot)",
    "RPC": "rocprofiler-compute conceptual docs: pipeline-descriptions.rst (LDS: 32 banks x 4 B "
           "on CDNA; a SIMD pair's port moves 64 B per cycle per direction; address and data "
           "share the input port), l2-cache.rst, vector-l1-cache.rst",
    "CK-LDS": "ROCm/composable_kernel docs/conceptual/ck_tile/hardware/lds_bank_conflicts.rst "
              "(gfx942 LDS: 32 banks x 4 B, bank = (byte address / 4) mod 32)",
    "HK": "HazyResearch/HipKittens analysis/paper_experiments/phases/*/bank_results.txt "
          "(rocprofv3 SQ_LDS_BANK_CONFLICT solver on gfx950: ds_read_b64 / ds_read_b128 wrap "
          "at bank 64)",
    "FP8BLOG": "ROCm/rocm-blogs blogs/software-tools-optimization/cdna4-gemm-kernels/README.md "
               "(AMD, 'FP8 GEMM Optimization on AMD CDNA4 Architecture'), Table 1: CDNA3 -> "
               "CDNA4 LDS 64 -> 160 KB, banks 32 -> 64, LDS read 128 -> 256 B/clk",
    "CDNA3WP": "AMD CDNA 3 architecture white paper (L2: 4 MB per XCD, 16 channels x 128 B/clk; "
               "256 MB AMD Infinity Cache with 17.2 TB/s peak bandwidth)",
    "GPUSPECS": "ROCm documentation, reference/gpu-specs (MI300X and MI355X: 256 MiB L3 cache, "
                "the Infinity Cache)",
    "MI350DOC": "AMD Instinct MI350 series documentation (CDNA4: 8 XCD x 32 CU, 4 MB L2 per XCD "
                "with 16 channels, 160 KB LDS with doubled read bandwidth, 8 TB/s HBM3E)",
    "ISA": "AMD Instinct CDNA3 / CDNA4 ISA reference guides (s_sleep: 64 x SIMM16 clocks; "
           "s_nop: SIMM16+1 wait states; s_waitcnt field layout)",
    "BENCH": "samuel-bohman/AI-benchmarking-guide, Azure_Results/ND_MI300X_v5_results.md "
             "(HBM bandwidth: Copy 4.11, Mul 4.26, Add 4.14, Triad 4.09 TB/s)",
    "RPCSOL": "ROCm/rocprofiler-compute src/rocprof_compute_soc/analysis_configs/gfx942 and "
              "gfx950 0200_system-speed-of-light.yaml (AMD's peak formulas: vL1D Cache BW "
              "max_sclk x 128 B x CUs; L2 Cache BW max_sclk x 128 B x L2 channels)",
    "GPUOPEN": "GPUOpen, T. Lottes (AMD), 'Understanding Memory Coalescing on GCN' (peak TEX "
               "throughput per CU: a filtered 2x2 quad per clock, 64-wide wave in 16 clocks; "
               "single-channel buffer loads 4 clocks per wave in specific cases, multi-channel "
               "16)",
    "LATMEAS": "MrRoy09/AMD-CDNA3-CacheBenchmarking l2_coherence_tests/cache_latency_test "
               "(readme.md and l1_latency_test.cpp, commit 0aa9f84): one lane on MI300X times a "
               "global_load_dword + s_waitcnt vmcnt(0) with s_memtime (the shader-clock counter; "
               "s_memrealtime is the 100 MHz one, LLVM libc GPU/amdgpu utils.h), mean of 256: "
               "cold 1212, vL1D hit 112, L2 hit (nt) 224 cycles",
    "LATMEAS2": "tingqli/pyhip docs/mem_latency.md (commit 3b45d9d): s_memtime-timed loads, "
                "one wave per CU, on MI308X (gfx942): buffer_load_dwordx4 latency 500-800, "
                "ds_read_b128 / b32 50 / 55 cycles",
    "MAF": "ROCm/rocm-blogs blogs/software-tools-optimization/measuring-max-achievable-flops-"
           "part2/README.md (AMD, Feb 2025), Table 1: MI300X max-achievable FLOPs (hipBLASLt, "
           "4096x4864x32896, trig_float data) with the median clock: FP16 654 TF (1115 MHz), "
           "BF16 708 TF (1207 MHz), FP8 1273 TF (1230 MHz); 'the power management system reduces "
           "the clock speed when running dense tensor-core logic'; software efficiency up to 94%; "
           "low-toggle data (zeros) can inflate the clock by more than 50%",
    "GLUON": "ROCm/rocm-blogs blogs/software-tools-optimization/gluon-gemm-tutorial/README.md "
             "(AMD, Apr 2026), MI355: FP16 4096x4096x8192 at 1489 TFLOPS with 98.75% MFMA "
             "efficiency, BF8 4096x4096x16384 at 3257 TFLOPS with 99.72% (ATT hot-loop MFMA "
             "busy, 'clock-independent'); fewer L2 misses -> 'power drops ... sustained clock "
             "... lifts'",
    "ASSUMPTION": "no primary source found in this project's references; a stated model choice",
    "FITTED": "no published value found: fitted once, jointly over all eleven rungs of the "
              "CDNA4 FP8 GEMM blog (ROCm/rocm-blogs @ c9ef8066, Table 5) and HipKittens' bf16 "
              "GEMMs, never to one kernel; tests/bench/timing.py prints the fit",
    "MI325XSPEC": "AMD Instinct MI325X data sheet: 256 GB HBM3E at 6.0 TB/s (MI300X: 192 GB "
                  "HBM3 at 5.3 TB/s), same 304 CUs and 2.1 GHz peak engine clock, 1000 W "
                  "typical board power (MI300X: 750 W)",
}


@dataclass(frozen=True)
class Param:
    """One model parameter: value, unit and where it comes from."""

    value: float
    unit: str
    source: str
    note: str = ""

    @property
    def assumed(self) -> bool:
        return self.source.startswith("ASSUMPTION")

    @property
    def fitted(self) -> bool:
        """Fitted jointly to published measurements (tests/bench/timing.py), not measured."""
        return self.source.startswith("FITTED")


@dataclass(frozen=True)
class Chip:
    """A GPU for the timing model: identity plus the ``params`` table (name -> Param)."""

    name: str
    product: str
    arch: str
    params: dict = field(default_factory=dict)

    def __getitem__(self, key: str) -> float:
        return self.params[key].value

    def table(self) -> list[tuple[str, str, str, str]]:
        """(name, value with unit, source, note) rows, for reports."""
        return [(k, f"{p.value:g} {p.unit}".strip(), p.source, p.note)
                for k, p in self.params.items()]

    @property
    def clock_hz(self) -> float:
        """The maximum engine clock (what the spec peaks assume)."""
        return self["clock_ghz"] * 1e9

    def peak_flops(self, dtype: str, clock_hz: float | None = None) -> float | None:
        """Dense matrix peak in FLOP/s for 'bf16' (also f16), 'fp8', 'f32', or None; at the max
        clock unless ``clock_hz`` is given."""
        key = {"bf16": "flop_per_cu_clk_bf16", "f16": "flop_per_cu_clk_bf16",
               "fp8": "flop_per_cu_clk_fp8", "f32": "flop_per_cu_clk_f32"}.get(dtype)
        if key is None or key not in self.params:
            return None
        return self["cus"] * (clock_hz or self.clock_hz) * self[key]

    def sustained_clock_key(self, dtype: str) -> str:
        """The ``clock_sustained_ghz_*`` parameter for a matrix dtype: its own where a source
        gives one, else bf16's (the table's notes say which dtypes reuse it)."""
        key = f"clock_sustained_ghz_{dtype}"
        return key if key in self.params else "clock_sustained_ghz_bf16"

    def clock_ghz_at(self, mfma_busy: float, dtype: str) -> float:
        """Modelled engine clock (GHz) of a kernel whose MFMA pipes are busy ``mfma_busy`` of the
        time chip-wide, with ``dtype`` its dominant matrix type (``clock_load_rule``)."""
        top = self["clock_ghz"]
        low = self[self.sustained_clock_key(dtype)]
        u = min(1.0, max(0.0, float(mfma_busy)))
        return top - self["clock_load_rule"] * (top - low) * u

    @property
    def hbm_bytes_per_s(self) -> float:
        return self["hbm_tbs"] * 1e12

    @property
    def achievable_hbm_bytes_per_s(self) -> float:
        return self["hbm_achievable_tbs"] * 1e12


def _device(arch: str, matrix_dtypes: tuple[str, ...]) -> dict:
    """CUs, XCDs, clock, matrix FLOP/CU/clk and HBM peak from ``workbench.arch``, the one place
    those facts live (each sourced there)."""
    a = _arch.get(arch)
    src = f"workbench.arch {arch} ({a.product})"
    per_clk = {d: Param(a.flops_per_cu_per_clock[k], "FLOP/CU/clk", src)
               for d, k in (("bf16", "bf16"), ("fp8", "fp8"), ("f32", "fp32_matrix"))
               if d in matrix_dtypes}
    return {
        "cus": Param(a.cu_count, "CUs", src),
        "xcds": Param(a.xcd_count, "XCDs", src),
        "clock_ghz": Param(a.clock_ghz, "GHz", src),
        **{f"flop_per_cu_clk_{d}": p for d, p in per_clk.items()},
        "flop_per_cu_clk_valu_f32": Param(a.flops_per_cu_per_clock["fp32_vector"],
                                          "FLOP/CU/clk", src, "vector (VALU) fp32, an FMA "
                                          "counted as 2 FLOP: the non-matrix compute ceiling"),
        "hbm_tbs": Param(a.memory_bandwidth_gbs / 1000.0, "TB/s", src),
    }


def _common(lds_read_port: float, lds_read_src: str) -> dict:
    """Parameters shared by CDNA3 and CDNA4 (issue model, latencies, LDS ports)."""
    A = "ASSUMPTION"
    return {
        "simds_per_cu": Param(4, "", "BASEINFO (getEUsPerCU: 4 SIMDs per CU); GCN"),
        "issue_interval": Param(4, "cycles", "GCN (a SIMD gets an issue slot every 4 cycles)"),
        "valu_cycles": Param(4, "cycles", "GCN (wave64 on a 16-lane SIMD: 4 cycles)"),
        "trans_cycles": Param(16, "cycles", "SCHED (WriteTrans32 = 4 in the gfx940 model: 'F16 "
                              "or F32 transcendental instructions (these are quarter rate)'; "
                              "latency = 1 / (operations per cycle) / 4)",
                              "v_exp/log/rcp/rsq/sqrt/sin/cos"),
        "salu_cycles": Param(4, "cycles", "GCN (one issue slot)"),
        "smem_latency": Param(200, "cycles", f"{A}: scalar-cache hit latency"),
        "lds_latency": Param(50, "cycles", "LATMEAS2 (ds_read_b128 / ds_read_b32 without "
                             "conflicts: 50 / 55 cycles round trip, MI308X = CDNA3)",
                             "the model adds the port and bank time on top"),
        "lds_read_port": Param(lds_read_port, "B/clk per SIMD pair", lds_read_src),
        "l2_efficiency": Param(
            0.55, "x the L2 peak", "FITTED: jointly over the CDNA4 FP8 GEMM blog's eleven rungs "
            "(tests/bench/timing.py)", "the share of the L2's 128 B/clk per channel that a "
            "CU's requests get under full load (channel conflicts, queueing); no public "
            "measurement of achievable L2 bandwidth on MI300X/MI355X found (HBM's measured "
            "share, BENCH, is 0.78)"),
        "l2_cycles_per_line_cu": Param(
            2.8, "cycles per 128-B line", "FITTED: jointly over the CDNA4 FP8 GEMM blog's eleven "
            "rungs and HipKittens' bf16 GEMMs (tests/bench/timing.py)", "the least time between "
            "two of one CU's L2 line requests, however idle the other CUs (the vL1D-to-L2 "
            "request path); the published kernels that move the most data per CU all run at "
            "0.21-0.26 distinct lines per cycle per CU"),
        "lds_write_port": Param(64, "B/clk per SIMD pair",
                                "RPC (pipeline-descriptions.rst): address and data share the "
                                "input port (b32 store: 8 cycles, b128: 20)"),
        "ta_cycles": Param(4, "cycles per instruction",
                           "GPUOPEN (GCN TEX unit: 32-bit or smaller single-channel buffer loads "
                           "take 4 clocks per wave, in specific (coalesced) cases)",
                           "the fast case: <= 4 bytes per lane and the lanes' bytes on no more "
                           "lines than their size needs; the data path (lines at the vL1D rate) "
                           "limits wider accesses too; a GCN-era figure, the CDNA vL1D is assumed "
                           "no slower"),
        "ta_cycles_multi": Param(16, "cycles per instruction",
                                 "GPUOPEN (GCN TEX unit: multi-channel buffer loads take 16 clocks "
                                 "per wave; address generation is one quad of 4 lanes per clock)",
                                 "> 4 bytes per lane (dwordx2/x3/x4, also into LDS), or "
                                 "<= 4 bytes spread over more lines than their size needs "
                                 "(scattered lanes: no fast case, so the quad rate); stores too"),
        "ta_cycles_per_quad_line": Param(
            1, "cycles per distinct line of a lane quad",
            "GPUOPEN (address generation for one quad of 4 lanes per clock) extended by an "
            "ASSUMPTION: a quad whose lanes touch k distinct lines takes k clocks",
            "so an uncoalesced load costs the distinct lines of its quads (64 for a wave of byte "
            "loads from 16 rows, 4 lanes per row); checked against the CDNA4 FP8 blog's naive "
            "and LDS-tiling rungs, not fitted"),
        "l1_bytes_per_clk": Param(128, "B/clk per CU",
                                  "RPCSOL (vL1D Cache BW peak = max_sclk x 128 B x CUs: one "
                                  "128-byte line lookup per CU per clock)"),
        "line_bytes": Param(128, "B", "CDNA3WP (128-byte L2 line)"),
        "l1_bytes": Param(32 * 1024, "B per CU", "GPUSPECS (L1 vector cache 32 KiB per CU on "
                          "MI300X, MI325X and MI355X)", "128-B lines in l1_sets sets, LRU within "
                          "a set, allocating on a load miss; stores write through to L2 without "
                          "allocating (ASSUMPTION: the replacement and write policy are not "
                          "published)"),
        "l1_sets": Param(4, "sets", "wave-lang documentation, 'Buffer Loads, Stores, and L1 "
                         "Cache Swizzling' (IREE/AMD): on MI300-class GPUs the L1 cache is "
                         "divided into 4 cache sets indexed by address bits 7 and 8, so "
                         "power-of-two strides of 256 B or more all map to one set",
                         "each set holds l1_bytes / 4 / 128 = 64 lines; CDNA3's organisation, "
                         "also used for CDNA4"),
        "l1_latency": Param(112, "cycles", "LATMEAS (vL1D hit, MI300X, shader clock)",
                            "CDNA3 measurement, also used for CDNA4"),
        "l2_bytes_per_clk_xcd": Param(2048, "B/clk per XCD", "CDNA3WP / MI350DOC / RPCSOL: 16 "
                                      "channels x 128 B/clk"),
        "l2_latency": Param(224, "cycles", "LATMEAS (NT load, bypasses vL1D, hits L2; "
                            "MI300X, shader clock)", "CDNA3 measurement, also used for CDNA4: no "
                            "CDNA4 measurement found"),
        "hbm_latency": Param(650, "cycles", "LATMEAS2 (buffer_load_dwordx4 pointer chase over "
                             "each CU's own large buffer, 500-800 cycles, mean of the range; "
                             "MI308X = CDNA3)", "L2-miss load-to-use latency; LATMEAS's single "
                             "cold first load (1212) also pays first-touch costs; CDNA3 value "
                             "used for CDNA4"),
        "vmem_lines_in_flight": Param(
            192, "128-B line requests per CU", "FITTED: jointly over the CDNA4 FP8 GEMM "
            "blog's eleven rungs (tests/bench/timing.py); no public figure found for the vL1D's "
            "outstanding-miss capacity", "a CU's global/buffer line requests between issue and "
            "data return; a request waits for a free slot, so a CU moves at most this many lines "
            "per round-trip latency (Little's law): memory latency under load comes out of "
            "occupancy rather than a bigger constant"),
        "barrier_latency": Param(4, "cycles", f"{A}: one issue slot after the last arrival"),
        "sleep_unit": Param(64, "cycles per SIMM16", "ISA (s_sleep)"),
    }


def _clock_rule() -> dict:
    return {"clock_load_rule": Param(
        1.0, "x (max - sustained) per unit of MFMA busy",
        "ASSUMPTION: modelled clock = max clock - (max clock - sustained clock of the kernel's "
        "dominant matrix dtype) x the kernel's MFMA-pipe busy fraction, chip-wide (the grid's "
        "MFMA pipe cycles over 4 pipes x CUs x the modelled cycles); linear, no source gives the "
        "clock as a function of load",
        "the endpoints are sourced (max clock; MAF / GLUON sustained clocks), the line between "
        "them is not; input data toggle rates (MAF) are not modelled")}


MI300X = Chip("mi300x", "AMD Instinct MI300X", "gfx942", {
    **_device("gfx942", ("bf16", "fp8", "f32")),
    "clock_sustained_ghz_bf16": Param(
        1.207, "GHz", "MAF (MI300X BF16 MAF 708 TF at a 1207 MHz median clock)",
        "708e12 / (304 CUs x 2048 FLOP/clk x 1.207e9) = 94% MFMA busy at that clock, taken as "
        "the full-load clock; the other matrix dtypes (f32, i8, f64) have no figure and reuse it"),
    "clock_sustained_ghz_f16": Param(
        1.115, "GHz", "MAF (MI300X FP16 MAF 654 TF at a 1115 MHz median clock)",
        "654e12 / (304 x 2048 x 1.115e9) = 94% MFMA busy, taken as the full-load clock"),
    "clock_sustained_ghz_fp8": Param(
        1.230, "GHz", "MAF (MI300X FP8 MAF 1273 TF at a 1230 MHz median clock)",
        "1273e12 / (304 x 4096 x 1.230e9) = 83% MFMA busy, taken as the full-load clock"),
    **_clock_rule(),
    "hbm_achievable_tbs": Param(4.11, "TB/s", "BENCH (measured BabelStream Copy on an Azure "
                                "ND MI300X v5)"),
    "infinity_cache_tbs": Param(
        17.2, "TB/s", "CDNA3WP (256 MB AMD Infinity Cache, 17.2 TB/s peak bandwidth)",
        "the memory-side cache between the XCDs' L2s and HBM; drawn on the roofline only: the "
        "model times no Infinity-Cache hits (every L2 miss is timed as an HBM access)"),
    "lds_banks": Param(32, "banks x 4 B", "RPC (pipeline-descriptions.rst: 32 banks on CDNA); "
                       "CK-LDS"),
    **_common(64, "RPC (pipeline-descriptions.rst: 64 B per cycle per direction per port)"),
})

MI355X = Chip("mi355x", "AMD Instinct MI355X", "gfx950", {
    **_device("gfx950", ("bf16", "fp8")),
    "clock_sustained_ghz_fp8": Param(
        1.557, "GHz", "GLUON (MI355 BF8 GEMM: 3257 TFLOPS at 99.72% MFMA efficiency)",
        "3257e12 / (256 CUs x 8192 FLOP/clk x 0.9972) = 1.557e9; a lower bound (the whole "
        "kernel's MFMA busy is at most the hot loop's)"),
    "clock_sustained_ghz_f16": Param(
        1.438, "GHz", "GLUON (MI355 FP16 GEMM: 1489 TFLOPS at 98.75% MFMA efficiency)",
        "1489e12 / (256 x 4096 x 0.9875) = 1.438e9; a lower bound as for fp8"),
    "clock_sustained_ghz_bf16": Param(
        1.557, "GHz", "GLUON x MAF: GLUON's FP16 figure (1.438 GHz) times the BF16 / FP16 "
        "sustained-clock ratio AMD measured on MI300X (MAF: 1207 / 1115 MHz = 1.083); no MI355X "
        "BF16 figure found",
        "the ratio is an MI300X measurement applied to MI355X (ASSUMPTION); the other matrix "
        "dtypes reuse this clock"),
    **_clock_rule(),
    "hbm_achievable_tbs": Param(6.2, "TB/s", "BENCH-derived: MI300X's measured copy fraction "
                                "(4.11 / 5.3 = 0.775) times 8.0 TB/s; no MI355X copy measurement "
                                "found"),
    "infinity_cache_tbs": Param(
        17.2, "TB/s", "ASSUMPTION: MI300X's 17.2 TB/s (CDNA3WP); no public MI355X Infinity "
        "Cache bandwidth found. MI355X keeps MI300X's 256 MB Infinity Cache (GPUSPECS) and its "
        "memory-side place behind the XCDs' L2s, so the same peak is assumed",
        "drawn on the roofline only, as on MI300X (no Infinity-Cache hits are modelled)"),
    "lds_banks": Param(64, "banks x 4 B (wide reads)", "HK (measured on gfx950); FP8BLOG "
                       "Table 1 (CDNA4: 64 banks)"),
    **_common(128, "MI350DOC 'doubled read bandwidth'; FP8BLOG Table 1 (LDS read 128 -> 256 "
              "B/clk): 2 x 64 B/clk"),
})

MI325X = Chip("mi325x", "AMD Instinct MI325X", "gfx942", {
    **MI300X.params,
    "hbm_tbs": Param(6.0, "TB/s", "MI325XSPEC (HBM3E; MI300X: 5.3)"),
    "hbm_achievable_tbs": Param(
        4.65, "TB/s", "BENCH-derived: MI300X's measured copy fraction (4.11 / 5.3 = 0.775) times "
        "6.0 TB/s; no MI325X copy measurement found"),
    "clock_sustained_ghz_bf16": Param(
        1.207, "GHz", "MAF (MI300X's figure, used for MI325X)",
        "ASSUMPTION: MI325X's 1000 W power limit (MI300X: 750 W, MI325XSPEC) should sustain a "
        "higher clock under matrix load, but no MI325X figure is published, so MI300X's is kept "
        "(matrix-bound kernels are likely modelled somewhat slow); f16 and fp8 likewise"),
})

CHIPS = {c.name: c for c in (MI300X, MI325X, MI355X)}


def get_chip(chip: str | Chip) -> Chip:
    """A chip by name ('mi300x', 'mi325x', 'mi355x'), case-insensitive; a Chip passes through."""
    if isinstance(chip, Chip):
        return chip
    key = str(chip).lower().replace(" ", "").replace("-", "")
    if key not in CHIPS:
        raise ArgumentValueError(f"unknown chip {chip!r}; modelled chips: {', '.join(CHIPS)}")
    return CHIPS[key]
