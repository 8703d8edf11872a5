"""Occupancy model: kernel resources x arch x block size -> waves per SIMD and what limits it.

The rules are LLVM 19's, so that our number equals the "Occupancy [waves/SIMD]" remark clang
prints (-Rpass-analysis=kernel-resource-usage); tests/test_occupancy.py checks that on a sweep.
Sources (LLVM 19, llvm/lib/Target/AMDGPU/; summary in shared/reference/amd_hw_facts.md §4):
  GCNSubtarget::computeOccupancy = min(MaxWavesPerEU, LDS/workgroup limit, SGPR limit, VGPR
    limit); AMDGPUAsmPrinter feeds it the kernel's max flat workgroup size, its static LDS, and
    .sgpr_count / the unified VGPR count (AMDGPUResourceUsageAnalysis).
  IsaInfo::getNumWavesPerEUWithNumVGPRs, getTotalNumVGPRs, getVGPRAllocGranule (AMDGPUBaseInfo)
  GCNSubtarget::getOccupancyWithNumSGPRs (table for GFX8/9; none on GFX10+)
  AMDGPUSubtarget::getOccupancyWithLocalMemSize + IsaInfo::getMaxWorkGroupsPerCU (workgroup
    slots, barriers, LDS; waves are spread over the EUs of a CU, or of a WGP in WGP mode)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from .arch import Arch
from .arch import get as get_arch

__all__ = [
    "LIMITERS", "Occupancy", "OccupancyTable", "ResourcesLike", "occupancy", "occupancy_table",
    "unified_vgpr_count",
]

#: Possible values of `Occupancy.limiter`, in the order ties are attributed.
LIMITERS = ("vgprs", "sgprs", "lds", "barriers", "workgroup_size", "waves")


class ResourcesLike(Protocol):
    """What occupancy() reads from `workbench.codeobject.Resources` (duck-typed)."""

    vgprs: int  # architected VGPRs
    agprs: int  # accumulation VGPRs (0 where the arch has none)
    sgprs: int  # SGPRs including VCC/FLAT_SCRATCH/XNACK_MASK, as .sgpr_count reports them
    lds_bytes: int  # static LDS per workgroup


@dataclass(frozen=True)
class Occupancy:
    """Achievable occupancy of one kernel launch shape, and every per-resource limit."""

    arch: str
    wave_size: int
    block_size: int
    waves_per_workgroup: int
    waves_per_simd: int  # what LLVM reports: min of the *_limit fields below
    waves_per_cu: int  # waves resident on one CU (WGP on RDNA in WGP mode): WGs x waves/WG
    workgroups_per_cu: int  # workgroups resident on one CU (WGP on RDNA in WGP mode)
    limiter: str  # one of LIMITERS; "waves" = only the hardware's max waves/SIMD limits
    unit: str  # "CU" or "WGP": what *_per_cu counts on this arch
    simds_per_unit: int
    vgprs_allocated: int  # unified VGPR count rounded up to the allocation granule
    lds_bytes: int  # static + dynamic LDS per workgroup
    max_waves_per_simd: int
    vgpr_limit: int  # waves/SIMD allowed by VGPRs alone
    sgpr_limit: int  # waves/SIMD allowed by SGPRs alone (max waves where SGPRs do not limit)
    lds_limit: int  # waves/SIMD allowed by LDS alone
    workgroup_limit: int  # waves/SIMD allowed by workgroup slots / barriers alone
    lds_workgroups: int | None  # workgroups per unit LDS allows (None: kernel uses no LDS)
    max_workgroups: int  # workgroups per unit allowed by wave slots and barriers

    @property
    def limits(self) -> dict[str, int]:
        """Per-resource waves/SIMD limits, for tables."""
        return {"vgprs": self.vgpr_limit, "sgprs": self.sgpr_limit, "lds": self.lds_limit,
                "workgroups": self.workgroup_limit, "waves": self.max_waves_per_simd}

    @property
    def fraction(self) -> float:
        """Occupancy as a fraction of the hardware's max waves per SIMD."""
        return self.waves_per_simd / self.max_waves_per_simd


def _align(x: int, a: int) -> int:
    return -(-x // a) * a


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def unified_vgpr_count(arch: Arch, vgprs: int, agprs: int) -> int:
    """VGPRs a wave takes from the SIMD file (LLVM AMDGPU::getTotalNumVGPRs).

    gfx90a+: AGPRs follow the ArchVGPRs at ACCUM_OFFSET (4-aligned), so alignTo(vgprs, 4) +
    agprs when agprs > 0; elsewhere max(vgprs, agprs). (AMDGPUBaseInfo.cpp, amd_hw_facts §4.1)
    """
    if arch.unified_vgpr_file and agprs > 0:
        return _align(vgprs, 4) + agprs
    return max(vgprs, agprs)


def vgpr_waves(arch: Arch, vgpr_count: int, wave_size: int | None = None) -> int:
    """Waves/SIMD allowed by `vgpr_count` VGPRs (IsaInfo::getNumWavesPerEUWithNumVGPRs)."""
    granule = arch.vgpr_granule(wave_size)
    max_waves = arch.max_waves_per_simd
    # AMDGPUAsmPrinter uses max(NumVGPR, 1); fewer than one granule never limits.
    if max(vgpr_count, 1) < granule:
        return max_waves
    total = arch.vgprs_per_simd(wave_size)
    return min(max(total // _align(vgpr_count, granule), 1), max_waves)


def sgpr_waves(arch: Arch, sgprs: int) -> int:
    """Waves/SIMD allowed by `sgprs` SGPRs (GCNSubtarget::getOccupancyWithNumSGPRs, LLVM 19)."""
    max_waves = arch.max_waves_per_simd
    if not arch.sgprs_limit_occupancy:  # GFX10+: getMaxWavesPerEU()
        return max_waves
    # GFX8/GFX9 (VOLCANIC_ISLANDS..GFX9) table; amd_hw_facts §4.1.
    if sgprs <= 80:
        waves = 10
    elif sgprs <= 88:
        waves = 9
    elif sgprs <= 100:
        waves = 8
    else:
        waves = 7
    return min(waves, max_waves)


def max_workgroups_per_unit(arch: Arch, waves_per_wg: int) -> tuple[int, str]:
    """Workgroups one CU/WGP can hold by wave slots and barriers (IsaInfo::getMaxWorkGroupsPerCU).

    Returns (count, which limit bound it: "barriers" or "workgroup_size").
    """
    wave_slots = arch.max_waves_per_simd * arch.simds_per_workgroup_unit
    if waves_per_wg == 1:  # single-wave workgroups use no barrier
        return wave_slots, "workgroup_size"
    by_waves = wave_slots // waves_per_wg
    if arch.max_barriers_per_cu < by_waves:
        return arch.max_barriers_per_cu, "barriers"
    return by_waves, "workgroup_size"


def _waves_from_groups(arch: Arch, groups: int, waves_per_wg: int) -> int:
    # AMDGPUSubtarget::getOccupancyWithLocalMemSize: divideCeil(groups * waves/WG, EUs per CU),
    # clamped to [1, MaxWavesPerEU] (LLVM returns 1 when not even one group fits).
    waves = _ceil_div(groups * waves_per_wg, arch.simds_per_workgroup_unit)
    return max(1, min(waves, arch.max_waves_per_simd))


def _field(resources: Any, name: str, default: Any = None) -> Any:
    if isinstance(resources, dict):
        return resources.get(name, default)
    return getattr(resources, name, default)


def _int_field(resources: Any, name: str) -> int:
    value = _field(resources, name)
    if value is None:
        raise TypeError(
            f"resources has no {name!r}: pass workbench Resources (or an object/dict with "
            "vgprs, agprs, sgprs, lds_bytes)"
        )
    value = int(value)
    if value < 0:
        raise ValueError(f"resources.{name} must be >= 0, got {value}")
    return value


def occupancy(
    resources: ResourcesLike | Any,
    arch: str | Arch,
    block_size: int | None = None,
    *,
    dynamic_lds: int = 0,
    wave_size: int | None = None,
) -> Occupancy:
    """Waves per SIMD a kernel with `resources` reaches when launched with `block_size` threads.

    `block_size` defaults to the kernel's max flat workgroup size (what LLVM assumes);
    `dynamic_lds` is added to the static LDS. The wave size is the kernel's (Resources) unless
    the resources do not say, then `wave_size` or the arch default.
    """
    a = get_arch(arch)
    res_ws = _field(resources, "wave_size")
    if res_ws is not None and wave_size is not None and int(res_ws) != int(wave_size):
        raise ValueError(
            f"wave_size={wave_size} contradicts the kernel's compiled wave size {res_ws}"
        )
    ws = int(res_ws if res_ws is not None else wave_size if wave_size is not None
             else a.default_wave_size)
    if ws not in a.wave_sizes:
        raise ValueError(f"wave size {ws} is not supported on {a.name} "
                         f"(supported: {', '.join(map(str, a.wave_sizes))})")

    max_flat = _field(resources, "max_flat_workgroup_size")
    if block_size is None:
        block_size = int(max_flat) if max_flat else a.max_workgroup_size
    block_size = int(block_size)
    if not 1 <= block_size <= a.max_workgroup_size:
        raise ValueError(f"block_size={block_size} is outside 1..{a.max_workgroup_size} "
                         f"for {a.name}")
    if max_flat and block_size > int(max_flat):
        raise ValueError(f"block_size={block_size} exceeds the kernel's max flat workgroup "
                         f"size {max_flat} (__launch_bounds__)")

    vgprs = _int_field(resources, "vgprs")
    agprs = int(_field(resources, "agprs", 0) or 0)
    sgprs = _int_field(resources, "sgprs")
    if dynamic_lds < 0:
        raise ValueError(f"dynamic_lds must be >= 0, got {dynamic_lds}")
    lds = _int_field(resources, "lds_bytes") + int(dynamic_lds)
    if agprs and not a.has_agprs:
        raise ValueError(f"resources.agprs={agprs} but {a.name} has no AGPRs")
    if lds > a.lds_bytes_per_workgroup:
        raise ValueError(
            f"LDS per workgroup {lds} B (static {lds - dynamic_lds} + dynamic_lds "
            f"{dynamic_lds}) exceeds {a.name}'s {a.lds_bytes_per_workgroup} B limit"
        )

    waves_per_wg = _ceil_div(block_size, ws)
    units = a.simds_per_workgroup_unit
    max_waves = a.max_waves_per_simd

    vgpr_total = unified_vgpr_count(a, vgprs, agprs)
    v_limit = vgpr_waves(a, vgpr_total, ws)
    s_limit = sgpr_waves(a, sgprs)

    max_wgs, wg_reason = max_workgroups_per_unit(a, waves_per_wg)
    wg_limit = _waves_from_groups(a, max_wgs, waves_per_wg)
    # LLVM divides the unit's LDS (WGP-mode size on RDNA) by max(bytes, 1) and ignores the
    # allocation granule (its own FIXME); zero LDS therefore never limits.
    lds_unit = a.lds_bytes_per_workgroup_unit
    lds_wgs = lds_unit // lds if lds > 0 else None
    l_limit = _waves_from_groups(a, lds_wgs, waves_per_wg) if lds_wgs else max_waves

    waves = min(max_waves, v_limit, s_limit, l_limit, wg_limit)
    limiter = "waves"
    if waves < max_waves:
        for name, lim in (("vgprs", v_limit), ("sgprs", s_limit), ("lds", l_limit),
                          (wg_reason, wg_limit)):
            if lim == waves:
                limiter = name
                break

    # Resident workgroups: wave slots left by registers, LDS and workgroup slots.
    reg_waves = min(v_limit, s_limit, max_waves) * units
    wgs = min(reg_waves // waves_per_wg, max_wgs, lds_wgs if lds_wgs is not None else max_wgs)
    granule = a.vgpr_granule(ws)
    return Occupancy(
        arch=a.name, wave_size=ws, block_size=block_size, waves_per_workgroup=waves_per_wg,
        waves_per_simd=waves, waves_per_cu=wgs * waves_per_wg, workgroups_per_cu=wgs,
        limiter=limiter, unit="WGP" if a.cus_per_wgp and a.wgp_mode else "CU",
        simds_per_unit=units, vgprs_allocated=_align(max(vgpr_total, 1), granule),
        lds_bytes=lds, max_waves_per_simd=max_waves, vgpr_limit=v_limit, sgpr_limit=s_limit,
        lds_limit=l_limit, workgroup_limit=wg_limit, lds_workgroups=lds_wgs,
        max_workgroups=max_wgs,
    )


@dataclass(frozen=True)
class OccupancyTable:
    """Ranges of one resource per workgroup/wave and the waves/SIMD each allows."""

    arch: str
    wave_size: int
    block_size: int
    vgpr_rows: tuple[tuple[int, int, int], ...]  # (min VGPRs, max VGPRs, waves/SIMD)
    sgpr_rows: tuple[tuple[int, int, int], ...]  # (min SGPRs, max SGPRs, waves/SIMD)
    lds_rows: tuple[tuple[int, int, int, int], ...]  # (min B, max B, workgroups/unit, waves)

    def as_text(self) -> str:
        """Plain-text rendering (notebook fallback, CLI)."""
        out = [f"{self.arch} wave{self.wave_size}"]
        out.append("  VGPRs/wave       waves/SIMD")
        out += [f"  {lo:>4}-{hi:<4}        {w}" for lo, hi, w in self.vgpr_rows]
        if len(self.sgpr_rows) > 1:
            out.append("  SGPRs/wave       waves/SIMD")
            out += [f"  {lo:>4}-{hi:<4}        {w}" for lo, hi, w in self.sgpr_rows]
        out.append(f"  LDS bytes/workgroup (block {self.block_size})   workgroups   waves/SIMD")
        out += [f"  {lo:>6}-{hi:<6}                  {g:>3}          {w}"
                for lo, hi, g, w in self.lds_rows]
        return "\n".join(out)


def occupancy_table(arch: str | Arch, wave_size: int | None = None, *,
                    block_size: int = 256) -> OccupancyTable:
    """Resource ranges -> waves/SIMD on `arch`, by the same rules occupancy() applies.

    VGPR rows count the unified VGPRs a wave allocates; LDS rows assume `block_size` threads.
    """
    a = get_arch(arch)
    ws = a.default_wave_size if wave_size is None else wave_size
    a.vgpr_granule(ws)  # validates the wave size
    if not 1 <= block_size <= a.max_workgroup_size:
        raise ValueError(f"block_size={block_size} is outside 1..{a.max_workgroup_size}")

    def ranges(limit_of, hi_max: int) -> list[tuple[int, int, int]]:
        rows: list[list[int]] = []
        for n in range(1, hi_max + 1):
            w = limit_of(n)
            if rows and rows[-1][2] == w:
                rows[-1][1] = n
            else:
                rows.append([n, n, w])
        return [tuple(r) for r in rows]

    vgpr_rows = ranges(lambda n: vgpr_waves(a, n, ws), a.max_vgprs_per_wave)
    sgpr_hi = a.sgprs_addressable + (6 if a.sgprs_limit_occupancy else 2)  # + VCC/FS/XNACK
    sgpr_rows = ranges(lambda n: sgpr_waves(a, n), sgpr_hi)
    wpw = _ceil_div(block_size, ws)
    max_wgs, _ = max_workgroups_per_unit(a, wpw)
    unit_lds = a.lds_bytes_per_workgroup_unit
    lds_rows: list[list[int]] = []
    lo = 1
    while lo <= a.lds_bytes_per_workgroup:
        q = unit_lds // lo
        hi = min(unit_lds // q, a.lds_bytes_per_workgroup)  # largest size with the same q
        groups = min(q, max_wgs)
        if lds_rows and lds_rows[-1][2] == groups:
            lds_rows[-1][1] = hi
        else:
            lds_rows.append([lo, hi, groups, _waves_from_groups(a, groups, wpw)])
        lo = hi + 1
    return OccupancyTable(arch=a.name, wave_size=ws, block_size=block_size,
                          vgpr_rows=tuple(vgpr_rows), sgpr_rows=tuple(sgpr_rows),
                          lds_rows=tuple(tuple(r) for r in lds_rows))
