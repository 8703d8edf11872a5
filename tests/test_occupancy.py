"""Occupancy model: hand-computed cases, and compiled sweeps checked against clang's remark.

hipwb's occupancy() follows the hardware for the launch asked about. clang's "Occupancy
[waves/SIMD]" remark (-Rpass-analysis=kernel-resource-usage; KernelInfo.llvm_occupancy) is
computed for the kernel's flat workgroup sizes and static LDS, and LLVM 19 and LLVM 22 compute it
differently. The sweeps hold the model of each LLVM (occupancy.llvm_remark_waves) to the real
remark of the LLVM in use, and every case where that remark differs from hipwb's hardware value
must be explained by a named rule (occupancy.LLVM_RULES, each with its citation).
"""

from __future__ import annotations

import collections
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import pytest

import workbench
from workbench import arch as wa
from workbench.occupancy import (
    LIMITERS,
    LLVM_RULES,
    OccupancyArgumentError,
    lds_allocated,
    llvm_departures,
    llvm_remark_waves,
    llvm_rules,
    occupancy,
    occupancy_table,
    sgpr_waves,
    unified_vgpr_count,
    vgpr_waves,
)

KERNELS = Path(__file__).parent / "kernels" / "occupancy"


def res(vgprs=8, agprs=0, sgprs=16, lds_bytes=0, wave_size=None, max_flat=None):
    return SimpleNamespace(vgprs=vgprs, agprs=agprs, sgprs=sgprs, lds_bytes=lds_bytes,
                           wave_size=wave_size, max_flat_workgroup_size=max_flat)


# ------------------------------------------------------------------------------------------
# Hand-computed cases (rules: LLVM AMDGPUBaseInfo.cpp IsaInfo / AMDGPUSubtarget.cpp)


def test_gfx942_128_vgprs_gives_4_waves():
    # 512 VGPRs / alignTo(128, 8) = 4 waves/SIMD (AMDGPUBaseInfo getNumWavesPerEUWithNumVGPRs).
    o = occupancy(res(vgprs=128), "gfx942", 256)
    assert (o.waves_per_simd, o.limiter, o.vgpr_limit) == (4, "vgprs", 4)
    # 256 threads = 4 waves/WG; 4 waves/SIMD x 4 SIMDs = 16 waves = 4 workgroups per CU.
    assert (o.waves_per_workgroup, o.workgroups_per_cu, o.waves_per_cu) == (4, 4, 16)
    assert o.unit == "CU" and o.vgprs_allocated == 128


def test_unified_vgprs_align_arch_part_to_4():
    a = wa.get("gfx90a")
    # alignTo(57, 4) + 7 = 67 -> granule 8 -> 72 -> 512 // 72 = 7 (plain 57 + 7 = 64 would be 8).
    assert unified_vgpr_count(a, 57, 7) == 67
    assert occupancy(res(vgprs=57, agprs=7), a, 64).waves_per_simd == 7
    # No AGPRs: the arch count is used unaligned (LLVM getTotalNumVGPRs).
    assert unified_vgpr_count(a, 57, 0) == 57
    # 256 arch + 256 AGPRs = 512 -> 1 wave (AMDGPUBaseInfo getTotalNumVGPRs: 512 on gfx90a).
    assert occupancy(res(vgprs=256, agprs=256), a, 64).waves_per_simd == 1
    # RDNA has no AGPRs.
    with pytest.raises(ValueError, match="gfx1100 has no AGPRs"):
        occupancy(res(vgprs=8, agprs=4), "gfx1100", 64)


@pytest.mark.parametrize("name,ws,vgprs,waves", [
    ("gfx1100", 32, 96, 16),   # 1536 / 96 = 16
    ("gfx1100", 32, 97, 12),   # alignTo(97, 24) = 120 -> 1536 // 120 = 12
    ("gfx1100", 32, 256, 5),   # alignTo(256, 24) = 264 -> 5
    ("gfx1100", 64, 256, 2),   # 768 // alignTo(256, 12) = 768 // 264 = 2
    ("gfx1102", 32, 65, 12),   # 1024 // alignTo(65, 16) = 1024 // 80 = 12
    ("gfx1102", 64, 65, 7),    # 512 // 72 = 7
    ("gfx1030", 32, 128, 8),   # 1024 // 128 = 8
    ("gfx1201", 32, 121, 10),  # 1536 // 144 = 10
    ("gfx1151", 32, 192, 8),   # 1536 // 192 = 8 (1.5x VGPR part)
    ("gfx942", 64, 7, 8),      # fewer than one granule never limits
])
def test_vgpr_limit(name, ws, vgprs, waves):
    o = occupancy(res(vgprs=vgprs), name, 64, wave_size=ws)
    assert o.vgpr_limit == waves == o.waves_per_simd


@pytest.mark.parametrize("sgprs,waves", [(80, 8), (100, 8), (101, 7), (108, 7)])
def test_gfx9_sgpr_table(sgprs, waves):
    # GCNSubtarget::getOccupancyWithNumSGPRs: <=80 10, <=88 9, <=100 8, else 7; max 8 waves.
    o = occupancy(res(sgprs=sgprs), "gfx942", 64)
    assert o.sgpr_limit == waves == o.waves_per_simd
    assert o.limiter == ("sgprs" if waves < 8 else "waves")


def test_rdna_sgprs_never_limit():
    assert occupancy(res(sgprs=106), "gfx1201", 64).sgpr_limit == 16


def test_lds_limit_cdna():
    # 65536 // 20000 = 3 workgroups x 4 waves = 12 waves / 4 SIMDs = 3 waves/SIMD.
    o = occupancy(res(lds_bytes=20000), "gfx942", 256)
    assert (o.waves_per_simd, o.limiter, o.lds_workgroups, o.workgroups_per_cu) == (3, "lds", 3, 3)
    # One 64-wide workgroup with 40 KiB: 1 group x 1 wave, divideCeil(1, 4) = 1.
    assert occupancy(res(lds_bytes=40960), "gfx90a", 64).waves_per_simd == 1
    # gfx950 has 160 KiB: 163840 // 40960 = 4 groups x 4 waves / 4 = 4.
    assert occupancy(res(lds_bytes=40960), "gfx950", 256).waves_per_simd == 4


def test_lds_limit_rdna_uses_the_wgp():
    # WGP mode: 131072 // 32768 = 4 groups x 2 waves (64 threads, wave32) / 4 SIMDs = 2.
    o = occupancy(res(lds_bytes=32768), "gfx1100", 64)
    assert (o.waves_per_simd, o.unit, o.lds_workgroups) == (2, "WGP", 4)


def test_dynamic_lds_adds_to_static():
    o = occupancy(res(lds_bytes=16384), "gfx942", 256, dynamic_lds=16384)
    assert o.lds_bytes == 32768 and o.waves_per_simd == 2
    with pytest.raises(ValueError, match="dynamic_lds 65536"):
        occupancy(res(lds_bytes=1024), "gfx942", 256, dynamic_lds=65536)
    with pytest.raises(ValueError, match="dynamic_lds must be >= 0"):
        occupancy(res(), "gfx942", 256, dynamic_lds=-1)


@pytest.mark.parametrize("name,block,waves", [
    ("gfx942", 768, 6),    # 12 waves/WG -> 32 // 12 = 2 WGs -> 24 waves / 4 = 6
    ("gfx942", 448, 7),    # 7 waves/WG -> 4 WGs -> 28 / 4 = 7
    ("gfx942", 1024, 8),   # 16 waves/WG -> 2 WGs -> 32 / 4 = 8
    ("gfx1100", 704, 11),  # wave32: 22 waves/WG -> 64 // 22 = 2 -> 44 / 4 = 11
    ("gfx1100", 192, 15),  # 6 waves/WG -> 10 WGs -> 60 / 4 = 15
])
def test_workgroup_slot_limit(name, block, waves):
    o = occupancy(res(), name, block)
    assert o.workgroup_limit == waves == o.waves_per_simd
    assert o.limiter == ("workgroup_size" if waves < o.max_waves_per_simd else "waves")


def test_block_size_defaults_to_max_flat_and_is_checked():
    assert occupancy(res(max_flat=768), "gfx942").block_size == 768
    assert occupancy(res(), "gfx942").block_size == 1024
    with pytest.raises(ValueError, match="block_size=512 exceeds .* 256"):
        occupancy(res(max_flat=256), "gfx942", 512)
    with pytest.raises(ValueError, match="block_size=2048 is outside"):
        occupancy(res(), "gfx942", 2048)


def test_wave_size_comes_from_the_kernel():
    assert occupancy(res(wave_size=64), "gfx1100", 64).wave_size == 64
    assert occupancy(res(), "gfx1100", 64).wave_size == 32
    with pytest.raises(ValueError, match="contradicts"):
        occupancy(res(wave_size=32), "gfx1100", 64, wave_size=64)
    with pytest.raises(ValueError, match="wave size 32 is not supported on gfx942"):
        occupancy(res(wave_size=32), "gfx942", 64)


def test_missing_fields_are_named():
    with pytest.raises(TypeError, match="'sgprs'"):
        occupancy(SimpleNamespace(vgprs=1, agprs=0, lds_bytes=0), "gfx942", 64)
    assert occupancy({"vgprs": 1, "sgprs": 1, "lds_bytes": 0}, "gfx942", 64).waves_per_simd == 8


def test_table_rows_agree_with_occupancy():
    for name in wa.ARCHS:
        a = wa.get(name)
        for ws in a.wave_sizes:
            t = occupancy_table(a, ws, block_size=256)
            assert t.vgpr_rows[0][0] == 1 and t.vgpr_rows[-1][1] == a.max_vgprs_per_wave
            for lo, hi, w in t.vgpr_rows:
                for v in (lo, hi):
                    # past the ArchVGPRs (256), the unified file's rest are AGPRs
                    r = res(vgprs=min(v, a.max_arch_vgprs), agprs=max(0, v - a.max_arch_vgprs))
                    assert occupancy(r, a, 64, wave_size=ws).vgpr_limit == w
            assert t.lds_rows[-1][1] == a.lds_bytes_per_workgroup
            for lo, hi, _groups, w in t.lds_rows:
                for b in (lo, hi):
                    assert occupancy(res(lds_bytes=b), a, 256, wave_size=ws).lds_limit == w
            assert "waves/SIMD" in t.as_text()
    rows = occupancy_table("gfx942").vgpr_rows
    assert rows[:2] == ((1, 64, 8), (65, 72, 7)) and rows[-1] == (257, 512, 1)


# ------------------------------------------------------------------------------------------
# Where the LLVM remarks and the hardware part (hand-computed; occupancy.LLVM_RULES)


def test_block_range_rule_gfx942_448_threads():
    # 448 threads = 7 waves; 32 wave slots per CU hold 4 such workgroups = 28 waves = 7/SIMD.
    # LLVM 22 reports 8: the best any block size up to 448 reaches (256 threads: 8 x 4 waves).
    r = res(vgprs=2, sgprs=8, wave_size=64, max_flat=448)
    o = occupancy(r, "gfx942")
    assert (o.waves_per_simd, o.workgroups_per_cu, o.limiter) == (7, 4, "workgroup_size")
    assert llvm_remark_waves(r, "gfx942", 19) == 7 and llvm_remark_waves(r, "gfx942", 22) == 8
    assert llvm_departures(r, "gfx942", 22) == ("block-range",)
    assert llvm_departures(r, "gfx942", 19) == ()
    assert o.notes == ("LLVM 22 reports 8 waves/SIMD here: the best any block size up to 448 "
                       "threads reaches (llvm-project PR #123748); a 448-thread launch holds "
                       "whole workgroups of 7 waves: 7 waves/SIMD",)
    # A launch with another block size than the kernel's max is not what the remark is about.
    o256 = occupancy(r, "gfx942", 256)
    assert o256.notes == () and o256.waves_per_simd == 8


def test_lds_granule_rule_gfx950():
    # 12288 B rounds up to 10 x 1280 = 12800 B: 163840 // 12800 = 12 one-wave workgroups per CU
    # = 3 waves/SIMD; LLVM 19/22 divide by 12288 -> 13 -> ceil(13 / 4) = 4.
    r = res(vgprs=2, sgprs=8, lds_bytes=12288, wave_size=64, max_flat=64)
    o = occupancy(r, "gfx950")
    assert (o.lds_bytes_allocated, o.lds_workgroups, o.waves_per_simd) == (12800, 12, 3)
    assert llvm_remark_waves(r, "gfx950", 22) == 4
    assert llvm_departures(r, "gfx950", 22) == ("lds-granule",)
    # LLVM 19 cannot build gfx950, so the note names LLVM 22 only.
    assert o.notes[0].startswith("LLVM 22 reports 4 waves/SIMD here: it divides 12288 B")
    # RDNA allocates 1 KiB blocks in WGP mode: 33000 B -> 33792 B -> 131072 // 33792 = 3.
    assert occupancy(res(lds_bytes=33000), "gfx1100", 64).lds_workgroups == 3


# ------------------------------------------------------------------------------------------
# The sweep: compile real kernels, compare with LLVM's remark

SWEEP_ARCHS = ("gfx90a", "gfx942", "gfx950", "gfx1030", "gfx1100", "gfx1102", "gfx1151",
               "gfx1201")
CDNA = tuple(a for a in SWEEP_ARCHS if wa.get(a).is_cdna)
RDNA = tuple(a for a in SWEEP_ARCHS if wa.get(a).is_rdna)
WAVE64 = ("-mwavefrontsize64",)


def _llvm_major() -> int:
    return workbench.find_toolchain().clang_major


def _buildable(archs) -> tuple[str, ...]:
    """The archs the clang in use builds (gfx950 needs LLVM >= 20: Arch.min_llvm_major)."""
    major = _llvm_major()
    return tuple(a for a in archs if major >= wa.get(a).min_llvm_major)


def clobber_source() -> str:
    """Kernels whose inline-asm clobbers pin exact VGPR / SGPR counts (all archs)."""
    vgprs = sorted(set(range(4, 257, 4)) | {65, 73, 81, 89, 97, 105, 121, 129, 137, 145, 169,
                                            177, 193, 209, 217, 241})
    out = []
    for n in vgprs:  # v0 holds the work-item id, so a clobber of v(n-1) makes n VGPRs
        out.append(f'extern "C" __global__ void __launch_bounds__(256) v{n}(float* x) '
                   f'{{ asm volatile("; clobber" ::: "v{n - 1}"); x[threadIdx.x] = 1.0f; }}')
    for n in (16, 64, 80, 86, 90, 94, 96, 98, 100, 102):
        out.append(f'extern "C" __global__ void __launch_bounds__(256) s{n}(float* x) '
                   f'{{ asm volatile("; clobber" ::: "s{n - 1}"); x[threadIdx.x] = 1.0f; }}')
    return "\n".join(out) + "\n"


def agpr_clobber_source() -> str:
    """CDNA kernels with exact ArchVGPR + AGPR counts (exercises alignTo(arch, 4) + AGPRs)."""
    pairs = [(1, 1), (3, 4), (22, 32), (57, 7), (61, 4), (93, 3), (125, 3), (64, 64),
             (130, 128), (200, 56), (256, 256)]
    return "\n".join(
        f'extern "C" __global__ void __launch_bounds__(256) av{v}_{g}(float* x) '
        f'{{ asm volatile("; clobber" ::: "v{v - 1}", "a{g - 1}"); x[threadIdx.x] = 1.0f; }}'
        for v, g in pairs) + "\n"


def _file(name: str) -> str:
    return (KERNELS / name).read_text()


# (label, source, archs, options): one workbench.compile call each.
SWEEP_SOURCES = (
    ("pressure", lambda: _file("pressure.hip"), SWEEP_ARCHS, ()),
    ("pressure-w64", lambda: _file("pressure.hip"), RDNA, WAVE64),
    ("lds", lambda: _file("lds.hip"), SWEEP_ARCHS, ()),
    ("lds-w64", lambda: _file("lds.hip"), RDNA, WAVE64),
    ("sgpr", lambda: _file("sgpr.hip"), SWEEP_ARCHS, ()),
    ("clobber", clobber_source, SWEEP_ARCHS, ()),
    ("clobber-w64", clobber_source, RDNA, WAVE64),
    ("mfma", lambda: _file("mfma.hip") + agpr_clobber_source(), CDNA, ()),
)


@dataclass(frozen=True)
class Case:
    source: str
    arch: str
    kernel: str
    info: object  # workbench KernelInfo

    @property
    def label(self) -> str:
        return f"{self.arch}/w{self.info.resources.wave_size}/{self.source}/{self.kernel}"


@pytest.fixture(scope="module")
def sweep() -> list[Case]:
    cases = []
    for label, source, archs, options in SWEEP_SOURCES:
        archs = _buildable(archs)
        mod = workbench.compile(source(), archs, options)
        for a in archs:
            for kname, ki in sorted(mod[a].kernels.items()):
                cases.append(Case(label, a, kname, ki))
    return cases


def _ours(case: Case):
    r = case.info.resources
    return occupancy(r, case.arch, r.max_flat_workgroup_size)


def _check_against_remarks(cases: list[Case]) -> tuple[list[str], dict]:
    """Hold each case to the remark of the LLVM in use; return problems and a summary.

    Per case: the model of this LLVM (llvm_remark_waves) must equal its remark; hipwb's
    hardware value at the kernel's max flat size must equal the remark unless a named rule
    (llvm_departures) explains the difference; and the model says what LLVM 19 and LLVM 22
    report, so the cases where those two disagree -- and which one hipwb follows -- are listed.
    """
    major = _llvm_major()
    bad, agree, by_rule, llvm_split, differs = [], 0, collections.Counter(), [], []
    for c in cases:
        r = c.info.resources
        remark = c.info.llvm_occupancy
        hw = occupancy(r, c.arch, r.max_flat_workgroup_size).waves_per_simd
        model = llvm_remark_waves(r, c.arch, major)
        why = (f"vgprs={r.vgprs} agprs={r.agprs} sgprs={r.sgprs} lds={r.lds_bytes} "
               f"block={r.max_flat_workgroup_size}")
        if model != remark:
            bad.append(f"{c.label}: LLVM {major} remark {remark}, hipwb's model of LLVM "
                       f"{major} {model} ({why})")
        rules = llvm_departures(r, c.arch, major)
        if hw == remark:
            agree += 1
            if rules:
                bad.append(f"{c.label}: rules {rules} claimed but hardware {hw} == remark ({why})")
        elif not rules:
            bad.append(f"{c.label}: hardware {hw} != remark {remark}, no rule explains it ({why})")
        else:
            by_rule[" + ".join(rules)] += 1
            differs.append(f"{c.label}: LLVM {major} remark {remark}, hipwb {hw} "
                           f"({' + '.join(rules)}; {why})")
        w19, w22 = llvm_remark_waves(r, c.arch, 19), llvm_remark_waves(r, c.arch, 22)
        if w19 != w22 and wa.get(c.arch).min_llvm_major <= 19:  # both LLVMs build it
            follows = "19" if hw == w19 else "22" if hw == w22 else "neither"
            llvm_split.append(f"{c.label}: LLVM 19 {w19}, LLVM 22 {w22}, hipwb {hw} (follows "
                              f"{follows}; {' + '.join(llvm_departures(r, c.arch, 22))})")
    summary = {"llvm": major, "cases": len(cases), "agree": agree, "by_rule": by_rule,
               "differs": differs, "llvm_split": llvm_split,
               "both_build": sum(wa.get(c.arch).min_llvm_major <= 19 for c in cases)}
    return bad, summary


def _print_summary(title: str, summary: dict, capsys) -> None:
    with capsys.disabled():
        print(f"\n{title}: {summary['cases']} kernels, LLVM {summary['llvm']} remark equals "
              f"hipwb (hardware) on {summary['agree']}; differs by rule: "
              + (", ".join(f"{k}={v}" for k, v in sorted(summary["by_rule"].items()))
                 or "none"))
        for line in summary["differs"]:
            print(f"    {line}")
        split = summary["llvm_split"]
        if summary["both_build"]:
            print(f"  LLVM 19 and LLVM 22 (modelled) disagree on {len(split)} of the "
                  f"{summary['both_build']} kernels both build; hipwb follows the hardware:")
        for line in split:
            print(f"    {line}")


def test_sweep_agrees_with_llvm_on_every_kernel(sweep, capsys):
    assert all(c.info.llvm_occupancy is not None for c in sweep), "missing LLVM remark"
    bad, summary = _check_against_remarks(sweep)
    _print_summary("occupancy sweep", summary, capsys)
    assert not bad, f"{len(bad)}/{len(sweep)} cases fail:\n" + "\n".join(bad[:40])
    # The disagreement the issue reported is in the set, with the rule that explains it.
    split = "\n".join(summary["llvm_split"])
    assert "gfx942/w64/lds/nolds_b448: LLVM 19 7, LLVM 22 8, hipwb 7 (follows 19; " \
           "block-range)" in split
    assert set(summary["by_rule"]) <= {*LLVM_RULES, " + ".join(LLVM_RULES)}


def test_resources_vgprs_are_arch_vgprs(sweep):
    """Resources.vgprs must be the ArchVGPR count (LLVM's remark "VGPRs"), AGPRs apart.

    On gfx90a+ the metadata's .vgpr_count is the unified total alignTo(arch, 4) + AGPRs, so
    reading it as ArchVGPRs double-counts AGPRs in every occupancy computed from Resources.
    """
    bad = [f"{c.label}: Resources.vgprs={c.info.resources.vgprs}, "
           f"agprs={c.info.resources.agprs}, remark VGPRs={c.info.metadata['remark']['VGPRs']}"
           for c in sweep
           if "VGPRs" in c.info.metadata.get("remark", {})
           and int(c.info.metadata["remark"]["VGPRs"]) != c.info.resources.vgprs]
    assert not bad, "workbench.codeobject Resources.vgprs is not ArchVGPRs:\n" + "\n".join(bad[:20])


def test_sweep_hits_every_limiter_on_every_arch(sweep, capsys):
    hits: dict[tuple[str, int], collections.Counter] = collections.defaultdict(
        collections.Counter)
    for c in sweep:
        hits[(c.arch, c.info.resources.wave_size)][_ours(c).limiter] += 1
    with capsys.disabled():
        print(f"\noccupancy sweep: {len(sweep)} kernels checked against LLVM")
        for (a, ws), cnt in sorted(hits.items()):
            print(f"  {a:8} wave{ws}: {sum(cnt.values()):4} cases  "
                  + "  ".join(f"{k}={cnt[k]}" for k in LIMITERS if cnt[k]))
    for a in _buildable(SWEEP_ARCHS):
        arch = wa.get(a)
        for ws in arch.wave_sizes:
            cnt = hits[(a, ws)]
            assert sum(cnt.values()) >= 100, (a, ws, cnt)
            need = {"vgprs", "lds", "workgroup_size", "waves"}
            if arch.sgprs_limit_occupancy:
                need.add("sgprs")
            missing = need - set(cnt)
            assert not missing, f"{a} wave{ws}: no case limited by {sorted(missing)}"


# ------------------------------------------------------------------------------------------
# gfx950 (MI355X): registers x LDS x block size, against LLVM's own remark

GFX950_VGPRS = (32, 96, 128, 200)  # 8, 5, 4, 2 waves/SIMD by VGPRs (512 / alignTo(v, 8))
GFX950_LDS = (0, 12288, 40960, 98304)  # 98304 B: more than gfx942's 64 KiB, fits 160 KiB
GFX950_BLOCKS = (64, 256, 448, 1024)


def gfx950_source() -> str:
    """One kernel per (VGPRs, LDS bytes, block size): a clobber pins the VGPRs, a static
    __shared__ array the LDS, __launch_bounds__ the block size."""
    out = ["template <int N> __device__ __attribute__((always_inline)) void touch(float* x) {",
           "  __shared__ float s[N / 4];", "  const int t = threadIdx.x;",
           "  s[t % (N / 4)] = x[t];", "  __syncthreads();",
           "  x[t] = s[(t * 7 + 3) % (N / 4)];", "}"]
    for v in GFX950_VGPRS:
        for lds in GFX950_LDS:
            for b in GFX950_BLOCKS:
                body = f"touch<{lds}>(x);" if lds else "x[threadIdx.x] += 1.0f;"
                out.append(f'extern "C" __global__ void __launch_bounds__({b}) '
                           f'g950_v{v}_l{lds}_b{b}(float* x) '
                           f'{{ asm volatile("; clobber" ::: "v{v - 1}"); {body} }}')
    return "\n".join(out) + "\n"


def test_gfx950_sweep_registers_lds_block_sizes(capsys):
    """At least 40 gfx950 configurations; resources and occupancy held to LLVM's remark."""
    if _llvm_major() < wa.get("gfx950").min_llvm_major:
        pytest.skip("this clang cannot build gfx950 (LLVM >= 20 needed)")
    kernels = workbench.compile(gfx950_source(), "gfx950")["gfx950"].kernels
    cases = [Case("gfx950-sweep", "gfx950", k, ki) for k, ki in sorted(kernels.items())]
    assert len(cases) == len(GFX950_VGPRS) * len(GFX950_LDS) * len(GFX950_BLOCKS) >= 40
    bad = []
    for c in cases:
        v, lds, b = (int(p[1:]) for p in c.kernel.split("_")[1:])
        r, remark = c.info.resources, c.info.metadata.get("remark", {})
        got = (r.vgprs, r.lds_bytes, r.max_flat_workgroup_size)
        if got != (v, lds, b) or int(remark.get("VGPRs", -1)) != v \
                or int(remark.get("LDS Size [bytes/block]", -1)) != lds:
            bad.append(f"{c.label}: resources {got}, remark {remark}, expected {(v, lds, b)}")
    problems, summary = _check_against_remarks(cases)
    _print_summary("gfx950 sweep", summary, capsys)
    assert not bad and not problems, "\n".join((bad + problems)[:40])
    limiters = collections.Counter(_ours(c).limiter for c in cases)
    assert {"vgprs", "lds", "workgroup_size", "waves"} <= set(limiters), limiters


def test_compile_report_explains_where_the_remark_differs():
    """A user sees hipwb's hardware value and, beside it, what clang's remark says and why."""
    from workbench.widgets.compile_report import CompileReport, kernel_summary
    src = ('extern "C" __global__ void __launch_bounds__(448) k(float* x) '
           '{ x[threadIdx.x] += 1.0f; }\n')
    mod = workbench.compile(src, "gfx942")
    info = mod["gfx942"].kernels["k"]
    major = _llvm_major()
    assert info.llvm_occupancy == (8 if "block-range" in llvm_rules(major) else 7)
    text = CompileReport(mod).text()
    assert "7 of 8 waves/SIMD" in text
    note = ("note: gfx942: LLVM 22 reports 8 waves/SIMD here: the best any block size up to "
            "448 threads reaches (llvm-project PR #123748)")
    assert note in text
    assert kernel_summary(info)["occupancy"]["notes"] == list(occupancy(info.resources,
                                                                        "gfx942").notes)


# ------------------------------------------------------------------------------------------
# Every numeric argument is checked: an int in its range, or an error naming it and the range
# (issue 24: occupancy_table(vgprs=-1) was accepted)

BAD_TABLE = [
    ({"vgprs": -1}, r"^vgprs=-1 is outside 0\.\.512 \(gfx942's VGPRs per wave\)$"),
    ({"vgprs": 513}, r"vgprs=513 is outside 0\.\.512"),
    ({"vgprs": 1.5}, r"vgprs must be an int in 0\.\.512 .*got float 1\.5"),
    ({"vgprs": "64"}, r"vgprs must be an int .*got str '64'"),
    ({"vgprs": True}, r"vgprs must be an int .*got bool"),
    ({"sgprs": -3}, r"sgprs=-3 is outside 0\.\.108 \(gfx942's SGPRs per wave\)"),
    ({"sgprs": 109}, r"sgprs=109 is outside 0\.\.108"),
    ({"lds_bytes": -1}, r"lds_bytes=-1 is outside 0\.\.65536"),
    ({"lds_bytes": 65537}, r"lds_bytes=65537 is outside 0\.\.65536 \(gfx942's LDS per workgroup"),
    ({"block_size": 0}, r"block_size=0 is outside 1\.\.1024"),
    ({"block_size": 2048}, r"block_size=2048 is outside 1\.\.1024"),
    ({"block_size": 256.0}, r"block_size must be an int in 1\.\.1024"),
    ({"wave_size": 32}, r"wave_size=32: wave size 32 is not supported on gfx942 \(supported: 64\)"),
    ({"wave_size": -64}, r"wave_size=-64 is outside >= 1"),
]


@pytest.mark.parametrize("kw, match", BAD_TABLE)
def test_occupancy_table_refuses_bad_numbers_naming_argument_and_range(kw, match):
    with pytest.raises(OccupancyArgumentError, match=match) as ei:
        occupancy_table("gfx942", **kw)
    assert isinstance(ei.value, ValueError) and ei.value.argument == next(iter(kw))


def test_occupancy_table_takes_the_arch_maxima_and_numpy_ints():
    import numpy as np

    t = occupancy_table("gfx950", vgprs=np.int64(512), sgprs=108, lds_bytes=163840)
    assert t.marks == {"vgprs": 512, "sgprs": 108, "lds": 163840}
    assert occupancy_table("gfx1100", 32, vgprs=256).marks["vgprs"] == 256
    with pytest.raises(OccupancyArgumentError, match=r"vgprs=257 is outside 0\.\.256 "
                                                     r"\(gfx1100's VGPRs per wave\)"):
        occupancy_table("gfx1100", 32, vgprs=257)


BAD_OCC = [
    ({"vgprs": -1}, {}, r"resources\.vgprs=-1 is outside 0\.\.256 \(gfx942's ArchVGPRs\)"),
    ({"vgprs": 300}, {}, r"resources\.vgprs=300 is outside 0\.\.256"),
    ({"agprs": 257}, {}, r"resources\.agprs=257 is outside 0\.\.256 \(gfx942's AGPRs\)"),
    ({"sgprs": 2.5}, {}, r"resources\.sgprs must be an int in 0\.\.108"),
    ({"lds_bytes": -8}, {}, r"resources\.lds_bytes=-8 is outside 0\.\.65536"),
    ({}, {"block_size": -1}, r"block_size=-1 is outside 1\.\.1024"),
    ({}, {"block_size": 64.5}, r"block_size must be an int"),
    ({}, {"dynamic_lds": 1.5}, r"dynamic_lds must be an int in 0\.\.65536"),
    ({}, {"dynamic_lds": 70000}, r"dynamic_lds=70000 is outside 0\.\.65536"),
    ({}, {"wave_size": 32}, r"wave_size=32: wave size 32 is not supported on gfx942"),
]


@pytest.mark.parametrize("fields, kw, match", BAD_OCC)
def test_occupancy_refuses_bad_numbers(fields, kw, match):
    kw = {"block_size": 256, **kw}
    block = kw.pop("block_size")
    with pytest.raises(OccupancyArgumentError, match=match):
        occupancy(res(**fields), "gfx942", block, **kw)


def test_helpers_and_llvm_models_check_their_numbers_too():
    a = wa.get("gfx942")
    with pytest.raises(OccupancyArgumentError, match=r"vgpr_count=-4 is outside 0\.\.512"):
        vgpr_waves(a, -4)
    with pytest.raises(OccupancyArgumentError, match=r"sgprs=200 is outside 0\.\.108"):
        sgpr_waves(a, 200)
    with pytest.raises(OccupancyArgumentError, match=r"lds_bytes=-1 is outside 0\.\.65536"):
        lds_allocated(a, -1)
    with pytest.raises(OccupancyArgumentError, match=r"agprs=-1 is outside 0\.\.256"):
        unified_vgpr_count(a, 8, -1)
    with pytest.raises(OccupancyArgumentError, match=r"llvm_major=18 is outside >= 19"):
        llvm_rules(18)
    with pytest.raises(OccupancyArgumentError, match=r"llvm_major must be an int"):
        llvm_remark_waves(res(), "gfx942", 22.0)
    with pytest.raises(OccupancyArgumentError, match=r"min_block=0 is outside 1\.\.1024"):
        llvm_remark_waves(res(), "gfx942", 22, min_block=0)
    with pytest.raises(OccupancyArgumentError, match=r"resources\.vgprs=-2"):
        llvm_departures(res(vgprs=-2), "gfx942", 22)


def test_kernel_occupancy_checks_its_numbers():
    k = workbench.compile(
        'extern "C" __global__ void f(float* o) { o[threadIdx.x] = 1.0f; }', "gfx942")["f"]
    assert k.occupancy(256).waves_per_simd >= 1
    with pytest.raises(OccupancyArgumentError, match=r"dynamic_lds=-5|dynamic_lds must be >= 0"):
        k.occupancy(256, dynamic_lds=-5)
    with pytest.raises(ValueError, match=r"block"):
        k.occupancy(0)
