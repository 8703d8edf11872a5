"""Occupancy model: kernel resources x arch x block size -> waves per SIMD and what limits it.

hipwb follows the hardware for the launch it is asked about. Where clang's "Occupancy
[waves/SIMD]" remark (-Rpass-analysis=kernel-resource-usage) answers a different question, the
difference is a named rule, modelled in `llvm_remark_waves` and explained in `Occupancy.notes`;
tests/test_occupancy.py checks the model of each LLVM against its real remark on a sweep.
Sources (LLVM, llvm/lib/Target/AMDGPU/; tags in docs/sources.md: BASEINFO, SUBTARGET):
  GCNSubtarget::computeOccupancy = min(MaxWavesPerEU, LDS/workgroup limit, SGPR limit, VGPR
    limit); AMDGPUAsmPrinter feeds it the kernel's flat workgroup sizes, its static LDS, and
    .sgpr_count / the unified VGPR count (AMDGPUResourceUsageAnalysis).
  IsaInfo::getNumWavesPerEUWithNumVGPRs, getTotalNumVGPRs, getVGPRAllocGranule (AMDGPUBaseInfo)
  GCNSubtarget::getOccupancyWithNumSGPRs (table for GFX8/9; none on GFX10+)
  IsaInfo::getMaxWorkGroupsPerCU (workgroup slots, barriers; waves are spread over the EUs of a
    CU, or of a WGP in WGP mode) with LLVM 19's getOccupancyWithLocalMemSize or LLVM 22's
    getOccupancyWithWorkGroupSizes.
The two rules where hipwb and the remark part (see `LLVM_RULES`):
  "block-range": LLVM >= 20 prints the best occupancy of any block size the kernel allows
    (1..max flat workgroup size), llvm-project PR #123748 ("Occupancy w.r.t. workgroup size
    range is also a range", 2025); LLVM 19 prints it for the max flat size. The hardware holds
    whole workgroups (AMD APP profiler guide, kernel occupancy: "wavefronts are scheduled as part
    of a work-group"), so a 448-thread launch on gfx942 holds 4 x 7 waves = 7 waves/SIMD, as
    LLVM 19 says; LLVM 22's 8 is what a smaller block (e.g. 256) would reach.
  "lds-granule": the hardware allocates a workgroup's LDS in granules (AMDGPUUsage,
    COMPUTE_PGM_RSRC2.LDS_SIZE: 128 dwords on GFX7-GFX12, 320 dwords on GFX950); LLVM 19 and 22
    divide the unrounded size (their FIXME), fixed upstream after 22 by llvm-project
    PR #205637 ("Occupancy calculation for LDS aligned to allocation granularity", 2026).
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Any, Protocol

from .arch import Arch
from .arch import get as get_arch
from .argument_types import checked
from .display import Displayable
from .errors import ArgumentTypeError, ArgumentValueError

__all__ = [
    "LIMITERS", "LLVM_RULES", "Occupancy", "OccupancyArgumentError", "OccupancyTable",
    "ResourcesLike", "lds_allocated",
    "llvm_departures", "llvm_remark_waves", "llvm_rules", "occupancy", "occupancy_table",
    "unified_vgpr_count",
]

#: Possible values of `Occupancy.limiter`, in the order ties are attributed.
LIMITERS = ("vgprs", "sgprs", "lds", "barriers", "workgroup_size", "waves")

#: Where an LLVM's occupancy remark leaves the hardware rule hipwb follows (module docstring).
LLVM_RULES = {
    "block-range": "LLVM >= 20 reports the best occupancy of any block size from the kernel's "
                   "min to its max flat workgroup size (llvm-project PR #123748); a launch "
                   "holds whole workgroups of the size it is launched with",
    "lds-granule": "LLVM <= 22 divides the LDS per workgroup unrounded (llvm-project "
                   "PR #205637 fixed it later); the hardware allocates it in granules "
                   "(AMDGPUUsage, COMPUTE_PGM_RSRC2.LDS_SIZE)",
}
#: The first LLVM major whose remark follows each rule's LLVM side (None: not yet fixed in
#: any LLVM hipwb supports). "block-range": PR #123748 opened 2025-01-21, after the LLVM 19
#: release; measured: 19 reports the max-size value, 22 the range maximum; 20 and 21 are not
#: installed here to measure, and are assumed to follow the PR.
_RULE_SINCE = {"block-range": 20}
_RULE_UNTIL = {"lds-granule": 22}  # last LLVM major that ignores the granule (measured: 19, 22)


class OccupancyArgumentError(ArgumentValueError):
    """A numeric argument of the occupancy API is not an int in its valid range (negative,
    fractional, or above what the arch has); names the argument and the range."""

    def __init__(self, message: str, argument: str = ""):
        super().__init__(message)
        self.argument = argument


class OccupancyArgumentTypeError(OccupancyArgumentError, TypeError):
    """The same, for a value that is not an int at all (a str, a float, a bool): also a
    ``TypeError``, as Python raises for a wrong type."""


#: The oldest LLVM major hipwb supports (DESIGN: clang >= 19 with the AMDGPU target).
MIN_LLVM_MAJOR = 19


def _int_arg(name: str, value: Any, lo: int, hi: int | None, what: str = "") -> int:
    """``value`` as an int in ``lo..hi`` (None: no upper bound), else OccupancyArgumentError
    naming ``name``, the range and (``what``) where the bound comes from."""
    span = f"{lo}..{hi}" if hi is not None else f">= {lo}"
    why = f" ({what})" if what else ""
    try:
        if isinstance(value, bool):
            raise TypeError
        v = operator.index(value)  # ints and numpy integers; not floats, strings, None
    except TypeError:
        raise OccupancyArgumentTypeError(f"{name} must be an int in {span}{why}, got "
                                         f"{type(value).__name__} {value!r}", name) from None
    if v < lo or (hi is not None and v > hi):
        raise OccupancyArgumentError(f"{name}={v} is outside {span}{why}", name)
    return v


def _sgpr_max(a: Arch) -> int:
    """SGPRs a kernel can report (.sgpr_count): the addressable ones plus VCC, and on GFX8/9
    FLAT_SCRATCH and XNACK_MASK (AMDGPU::IsaInfo::getNumExtraSGPRs)."""
    return a.sgprs_addressable + (6 if a.sgprs_limit_occupancy else 2)


def _wave_arg(a: Arch, value: Any, name: str = "wave_size") -> int:
    ws = _int_arg(name, value, 1, None)
    if ws not in a.wave_sizes:
        raise OccupancyArgumentError(f"{name}={ws}: wave size {ws} is not supported on "
                                     f"{a.name} (supported: "
                                     f"{', '.join(map(str, a.wave_sizes))})", name)
    return ws


class ResourcesLike(Protocol):
    """What occupancy() reads from `workbench.codeobject.Resources` (duck-typed)."""

    vgprs: int  # architected VGPRs
    agprs: int  # accumulation VGPRs (0 where the arch has none)
    sgprs: int  # SGPRs including VCC/FLAT_SCRATCH/XNACK_MASK, as .sgpr_count reports them
    lds_bytes: int  # static LDS per workgroup


@dataclass(frozen=True)
class Occupancy(Displayable):
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
    lds_bytes_allocated: int = 0  # lds_bytes rounded up to the arch's LDS allocation granule
    #: Where clang's occupancy remark (computed for the kernel's max flat workgroup size and
    #: its static LDS) differs from this launch's hardware value, one sentence per LLVM rule.
    notes: tuple[str, ...] = ()
    # The inputs, kept for the views (what each resource uses; the explorer's sliders).
    resources: Any = field(default=None, repr=False, compare=False)
    dynamic_lds: int = 0

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
    agprs when agprs > 0; elsewhere max(vgprs, agprs). (AMDGPUBaseInfo.cpp; AMDGPUUsage,
    COMPUTE_PGM_RSRC3.ACCUM_OFFSET)
    """
    vgprs = _int_arg("vgprs", vgprs, 0, arch.max_arch_vgprs, f"{arch.name}'s ArchVGPRs")
    agprs = _int_arg("agprs", agprs, 0, arch.max_agprs, f"{arch.name}'s AGPRs")
    if arch.unified_vgpr_file and agprs > 0:
        return _align(vgprs, 4) + agprs
    return max(vgprs, agprs)


def vgpr_waves(arch: Arch, vgpr_count: int, wave_size: int | None = None) -> int:
    """Waves/SIMD allowed by `vgpr_count` VGPRs (IsaInfo::getNumWavesPerEUWithNumVGPRs)."""
    vgpr_count = _int_arg("vgpr_count", vgpr_count, 0, arch.max_vgprs_per_wave,
                          f"{arch.name}'s VGPRs per wave")
    if wave_size is not None:
        wave_size = _wave_arg(arch, wave_size)
    granule = arch.vgpr_granule(wave_size)
    max_waves = arch.max_waves_per_simd
    # AMDGPUAsmPrinter uses max(NumVGPR, 1); fewer than one granule never limits.
    if max(vgpr_count, 1) < granule:
        return max_waves
    total = arch.vgprs_per_simd(wave_size)
    return min(max(total // _align(vgpr_count, granule), 1), max_waves)


def sgpr_waves(arch: Arch, sgprs: int) -> int:
    """Waves/SIMD allowed by `sgprs` SGPRs (GCNSubtarget::getOccupancyWithNumSGPRs, LLVM 19)."""
    sgprs = _int_arg("sgprs", sgprs, 0, _sgpr_max(arch), f"{arch.name}'s SGPRs per wave")
    max_waves = arch.max_waves_per_simd
    if not arch.sgprs_limit_occupancy:  # GFX10+: getMaxWavesPerEU()
        return max_waves
    # GFX8/GFX9 (VOLCANIC_ISLANDS..GFX9) table of getOccupancyWithNumSGPRs (GCNSubtarget.cpp).
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
    waves_per_wg = _int_arg("waves_per_wg", waves_per_wg, 1,
                            _ceil_div(arch.max_workgroup_size, min(arch.wave_sizes)),
                            f"a {arch.max_workgroup_size}-thread workgroup's waves")
    wave_slots = arch.max_waves_per_simd * arch.simds_per_workgroup_unit
    if waves_per_wg == 1:  # single-wave workgroups use no barrier
        return wave_slots, "workgroup_size"
    by_waves = wave_slots // waves_per_wg
    if arch.max_barriers_per_cu < by_waves:
        return arch.max_barriers_per_cu, "barriers"
    return by_waves, "workgroup_size"


def lds_allocated(arch: Arch, lds_bytes: int) -> int:
    """LDS a workgroup takes from its CU: `lds_bytes` rounded up to the allocation granule.

    AMDGPUUsage, COMPUTE_PGM_RSRC2.LDS_SIZE: roundup(size / (128 * 4)) on GFX7-GFX12,
    roundup(size / (320 * 4)) on GFX950 (`Arch.lds_alloc_granule`).
    """
    lds_bytes = _int_arg("lds_bytes", lds_bytes, 0, arch.lds_bytes_per_workgroup,
                         f"{arch.name}'s LDS per workgroup")
    return _align(lds_bytes, arch.lds_alloc_granule) if lds_bytes > 0 else 0


def _waves_from_groups(arch: Arch, groups: int, waves_per_wg: int) -> int:
    # AMDGPUSubtarget::getOccupancyWithLocalMemSize: divideCeil(groups * waves/WG, EUs per CU),
    # clamped to [1, MaxWavesPerEU] (LLVM returns 1 when not even one group fits).
    waves = _ceil_div(groups * waves_per_wg, arch.simds_per_workgroup_unit)
    return max(1, min(waves, arch.max_waves_per_simd))


def _field(resources: Any, name: str, default: Any = None) -> Any:
    if isinstance(resources, dict):
        return resources.get(name, default)
    return getattr(resources, name, default)


def _int_field(resources: Any, name: str, a: Arch | None = None) -> int:
    value = _field(resources, name)
    if value is None:
        raise ArgumentTypeError(
            f"resources has no {name!r}: pass workbench Resources (or an object/dict with "
            "vgprs, agprs, sgprs, lds_bytes)"
        )
    hi, what = None, ""
    if a is not None:
        hi, what = {"vgprs": (a.max_arch_vgprs, "ArchVGPRs"), "agprs": (a.max_agprs, "AGPRs"),
                    "sgprs": (_sgpr_max(a), "SGPRs per wave"),
                    "lds_bytes": (a.lds_bytes_per_workgroup, "LDS per workgroup")}[name]
        what = f"{a.name}'s {what}"
    return _int_arg(f"resources.{name}", value, 0, hi, what)


@checked(own=("resources", "block_size", "dynamic_lds", "wave_size"))
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
    if wave_size is not None:
        wave_size = _wave_arg(a, wave_size)
    if res_ws is not None and wave_size is not None and int(res_ws) != wave_size:
        raise OccupancyArgumentError(
            f"wave_size={wave_size} contradicts the kernel's compiled wave size {res_ws}",
            "wave_size")
    ws = (_wave_arg(a, res_ws, "resources.wave_size") if res_ws is not None
          else wave_size if wave_size is not None else a.default_wave_size)

    max_flat = _field(resources, "max_flat_workgroup_size")
    if block_size is None:
        block_size = int(max_flat) if max_flat else a.max_workgroup_size
    block_size = _int_arg("block_size", block_size, 1, a.max_workgroup_size,
                          f"threads per workgroup on {a.name}")
    if max_flat and block_size > int(max_flat):
        raise OccupancyArgumentError(
            f"block_size={block_size} exceeds the kernel's max flat workgroup size {max_flat} "
            f"(__launch_bounds__): use 1..{max_flat}", "block_size")

    vgprs = _int_field(resources, "vgprs", a)
    raw_agprs = _field(resources, "agprs", 0) or 0
    if raw_agprs and not a.has_agprs:
        raise OccupancyArgumentError(f"resources.agprs={raw_agprs} but {a.name} has no AGPRs",
                                     "resources.agprs")
    agprs = _int_field({"agprs": raw_agprs}, "agprs", a)
    sgprs = _int_field(resources, "sgprs", a)
    if isinstance(dynamic_lds, (int, float)) and not isinstance(dynamic_lds, bool) \
            and dynamic_lds < 0:
        raise OccupancyArgumentError(f"dynamic_lds must be >= 0, got {dynamic_lds}",
                                     "dynamic_lds")
    dynamic_lds = _int_arg("dynamic_lds", dynamic_lds, 0, a.lds_bytes_per_workgroup,
                           f"{a.name}'s LDS per workgroup")
    lds = _int_field(resources, "lds_bytes", a) + dynamic_lds
    if lds > a.lds_bytes_per_workgroup:
        raise OccupancyArgumentError(
            f"LDS per workgroup {lds} B (static {lds - dynamic_lds} + dynamic_lds "
            f"{dynamic_lds}) exceeds {a.name}'s {a.lds_bytes_per_workgroup} B limit",
            "dynamic_lds")

    waves_per_wg = _ceil_div(block_size, ws)
    units = a.simds_per_workgroup_unit
    max_waves = a.max_waves_per_simd

    vgpr_total = unified_vgpr_count(a, vgprs, agprs)
    v_limit = vgpr_waves(a, vgpr_total, ws)
    s_limit = sgpr_waves(a, sgprs)

    max_wgs, wg_reason = max_workgroups_per_unit(a, waves_per_wg)
    wg_limit = _waves_from_groups(a, max_wgs, waves_per_wg)
    # The unit's LDS (WGP-mode size on RDNA) over the granule-rounded LDS per workgroup (the
    # "lds-granule" rule; LLVM <= 22 divides by the unrounded size). Zero LDS never limits.
    lds_unit = a.lds_bytes_per_workgroup_unit
    lds_alloc = lds_allocated(a, lds)
    lds_wgs = lds_unit // lds_alloc if lds > 0 else None
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
    notes: tuple[str, ...] = ()
    if max_flat and block_size == int(max_flat) and not dynamic_lds:
        notes = _remark_notes(resources, a, waves, block_size, lds, lds_alloc, lds_wgs)
    return Occupancy(
        arch=a.name, wave_size=ws, block_size=block_size, waves_per_workgroup=waves_per_wg,
        waves_per_simd=waves, waves_per_cu=wgs * waves_per_wg, workgroups_per_cu=wgs,
        limiter=limiter, unit="WGP" if a.cus_per_wgp and a.wgp_mode else "CU",
        simds_per_unit=units, vgprs_allocated=_align(max(vgpr_total, 1), granule),
        lds_bytes=lds, max_waves_per_simd=max_waves, vgpr_limit=v_limit, sgpr_limit=s_limit,
        lds_limit=l_limit, workgroup_limit=wg_limit, lds_workgroups=lds_wgs,
        max_workgroups=max_wgs, lds_bytes_allocated=lds_alloc, notes=notes,
        resources=resources, dynamic_lds=dynamic_lds,
    )


# ---------------------------------------------------------------------------------------------
# What clang's occupancy remark says (per LLVM version), and where it leaves the hardware


def llvm_rules(llvm_major: int) -> frozenset[str]:
    """The `LLVM_RULES` in which LLVM `llvm_major`'s remark departs from the hardware rule."""
    llvm_major = _int_arg("llvm_major", llvm_major, MIN_LLVM_MAJOR, None,
                          "the LLVM majors hipwb supports")
    on = {r for r, since in _RULE_SINCE.items() if llvm_major >= since}
    on |= {r for r, until in _RULE_UNTIL.items() if llvm_major <= until}
    return frozenset(on)


def _range_max_waves_per_cu(a: Arch, ws: int, lds_wgs: int, min_block: int,
                            max_block: int) -> int:
    """Most waves per unit any block size in [min_block, max_block] allows (LLVM >= 20).

    The upper end of the range AMDGPUSubtarget::getOccupancyWithWorkGroupSizes returns since
    llvm-project PR #123748. Its rule, as documented there: start from the workgroup count
    the smallest size allows; if the largest size yields at least as many waves, take that;
    otherwise grow the small workgroups by the spare wave slots, keeping their count, up to
    the largest size's waves per workgroup.
    """
    slots = a.max_waves_per_simd * a.simds_per_workgroup_unit
    w_min, w_max = _ceil_div(min_block, ws), _ceil_div(max_block, ws)
    g_min = min(max_workgroups_per_unit(a, w_min)[0], lds_wgs)  # groups at the smallest size
    g_max = min(max_workgroups_per_unit(a, w_max)[0], lds_wgs)
    small, big = g_min * w_min, g_max * w_max
    if big >= small:
        return big
    spare_per_group = (slots - small) // g_min
    return small + g_min * min(spare_per_group, w_max - w_min)


def llvm_remark_waves(resources: ResourcesLike | Any, arch: str | Arch, llvm_major: int,
                      *, min_block: int = 1) -> int:
    """The "Occupancy [waves/SIMD]" clang `llvm_major` prints for a kernel with `resources`.

    A model of the compiler (not of the hardware) so that tests can hold each LLVM to its own
    remark; `occupancy()` is what a launch gets. `min_block` is the kernel's min flat
    workgroup size (1 under HIP's __launch_bounds__).
    """
    a = get_arch(arch)
    min_block = _int_arg("min_block", min_block, 1, a.max_workgroup_size,
                         f"threads per workgroup on {a.name}")
    return _remark_with(resources, a, llvm_rules(llvm_major), min_block)


def _remark_with(resources: Any, a: Arch, rules: frozenset[str], min_block: int = 1) -> int:
    """Occupancy at the kernel's max flat workgroup size, departing from hardware in `rules`."""
    res_ws = _field(resources, "wave_size")
    ws = int(res_ws) if res_ws is not None else a.default_wave_size
    max_flat = int(_field(resources, "max_flat_workgroup_size") or a.max_workgroup_size)
    vgprs = _int_field(resources, "vgprs", a)
    agprs = _int_field({"agprs": _field(resources, "agprs", 0) or 0}, "agprs", a)
    sgprs = _int_field(resources, "sgprs", a)
    lds = _int_field(resources, "lds_bytes", a)
    max_waves = a.max_waves_per_simd
    lds_div = lds if "lds-granule" in rules else lds_allocated(a, lds)
    lds_wgs = a.lds_bytes_per_workgroup_unit // max(lds_div, 1)
    if lds_wgs == 0:
        wg_waves = 1  # both LLVMs: more LDS than the unit has -> occupancy 1
    elif "block-range" in rules:
        per_unit = _range_max_waves_per_cu(a, ws, lds_wgs, min(min_block, max_flat), max_flat)
        wg_waves = max(1, min(_ceil_div(per_unit, a.simds_per_workgroup_unit), max_waves))
    else:
        wpw = _ceil_div(max_flat, ws)
        groups = min(max_workgroups_per_unit(a, wpw)[0], lds_wgs)
        wg_waves = _waves_from_groups(a, groups, wpw)
    v_limit = vgpr_waves(a, unified_vgpr_count(a, vgprs, agprs), ws)
    return min(max_waves, wg_waves, v_limit, sgpr_waves(a, sgprs))


def llvm_departures(resources: ResourcesLike | Any, arch: str | Arch,
                    llvm_major: int) -> tuple[str, ...]:
    """The `LLVM_RULES` that make LLVM `llvm_major`'s remark differ from the hardware value.

    A rule counts when following the hardware in it alone changes that LLVM's value; empty
    when the remark equals `occupancy()` at the kernel's max flat workgroup size.
    """
    a = get_arch(arch)
    rules = llvm_rules(llvm_major)
    remark = _remark_with(resources, a, rules)
    if remark == _remark_with(resources, a, frozenset()):
        return ()
    return tuple(r for r in LLVM_RULES
                 if r in rules and _remark_with(resources, a, rules - {r}) != remark)


#: The LLVM majors whose remarks `Occupancy.notes` compares with (the two hipwb is tested on).
NOTE_MAJORS = (19, 22)


def _remark_notes(resources: Any, a: Arch, waves: int, block: int, lds: int, lds_alloc: int,
                  lds_wgs: int | None) -> tuple[str, ...]:
    """One sentence per rule by which LLVM 19's or 22's remark differs from `waves`."""
    notes = []
    majors = [m for m in NOTE_MAJORS if m >= a.min_llvm_major]  # LLVMs that build this arch
    for rule in LLVM_RULES:
        said = [f"LLVM {m} reports {llvm_remark_waves(resources, a, m)}" for m in majors
                if rule in llvm_departures(resources, a, m)]
        if not said:
            continue
        if rule == "block-range":
            ws = int(_field(resources, "wave_size") or a.default_wave_size)
            why = (f"the best any block size up to {block} threads reaches (llvm-project "
                   f"PR #123748); a {block}-thread launch holds whole workgroups of "
                   f"{_ceil_div(block, ws)} waves: {waves} waves/SIMD")
        else:
            why = (f"it divides {lds} B of LDS unrounded; the hardware allocates {lds_alloc} B "
                   f"({a.lds_alloc_granule}-B granules, AMDGPUUsage LDS_SIZE), so "
                   f"{lds_wgs} workgroups fit: {waves} waves/SIMD")
        notes.append(f"{' and '.join(said)} waves/SIMD here: {why}")
    return tuple(notes)


@dataclass(frozen=True)
class OccupancyTable(Displayable):
    """Ranges of one resource per workgroup/wave and the waves/SIMD each allows."""

    arch: str
    wave_size: int
    block_size: int
    vgpr_rows: tuple[tuple[int, int, int], ...]  # (min VGPRs, max VGPRs, waves/SIMD)
    sgpr_rows: tuple[tuple[int, int, int], ...]  # (min SGPRs, max SGPRs, waves/SIMD)
    lds_rows: tuple[tuple[int, int, int, int], ...]  # (min B, max B, workgroups/unit, waves)
    # Rows to mark in the views (a kernel's own counts), by resource: "vgprs", "sgprs", "lds".
    marks: dict[str, int | None] = field(default_factory=dict, compare=False)

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


@checked(own=("wave_size", "block_size", "vgprs", "sgprs", "lds_bytes"))
def occupancy_table(arch: str | Arch, wave_size: int | None = None, *,
                    block_size: int = 256, vgprs: int | None = None, sgprs: int | None = None,
                    lds_bytes: int | None = None) -> OccupancyTable:
    """Resource ranges -> waves/SIMD on `arch`, by the same rules occupancy() applies.

    VGPR rows count the unified VGPRs a wave allocates; LDS rows assume `block_size` threads
    and count whole allocation granules (`lds_allocated`).
    `vgprs`/`sgprs`/`lds_bytes` mark the rows a kernel's own counts fall in (``*`` in the text).

    VGPR rows count the unified VGPRs a wave allocates; LDS rows assume `block_size` threads.
    """
    a = get_arch(arch)
    ws = a.default_wave_size if wave_size is None else _wave_arg(a, wave_size)
    block_size = _int_arg("block_size", block_size, 1, a.max_workgroup_size,
                          f"threads per workgroup on {a.name}")
    marks = {"vgprs": (vgprs, a.max_vgprs_per_wave, "VGPRs per wave"),
             "sgprs": (sgprs, _sgpr_max(a), "SGPRs per wave"),
             "lds_bytes": (lds_bytes, a.lds_bytes_per_workgroup, "LDS per workgroup")}
    vgprs, sgprs, lds_bytes = (None if v is None else _int_arg(k, v, 0, hi, f"{a.name}'s {w}")
                               for k, (v, hi, w) in marks.items())

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
    sgpr_hi = _sgpr_max(a)  # + VCC/FS/XNACK
    sgpr_rows = ranges(lambda n: sgpr_waves(a, n), sgpr_hi)
    wpw = _ceil_div(block_size, ws)
    max_wgs, _ = max_workgroups_per_unit(a, wpw)
    unit_lds = a.lds_bytes_per_workgroup_unit
    lds_rows: list[list[int]] = []
    g = a.lds_alloc_granule  # every size in one granule allocates the same (lds_allocated)
    for k in range(1, _ceil_div(a.lds_bytes_per_workgroup, g) + 1):
        lo, hi = (k - 1) * g + 1, min(k * g, a.lds_bytes_per_workgroup)
        groups = min(unit_lds // (k * g), max_wgs)
        if lds_rows and lds_rows[-1][2] == groups:
            lds_rows[-1][1] = hi
        else:
            lds_rows.append([lo, hi, groups, _waves_from_groups(a, groups, wpw)])
    return OccupancyTable(arch=a.name, wave_size=ws, block_size=block_size,
                          vgpr_rows=tuple(vgpr_rows), sgpr_rows=tuple(sgpr_rows),
                          lds_rows=tuple(tuple(r) for r in lds_rows),
                          marks={"vgprs": vgprs, "sgprs": sgprs, "lds": lds_bytes})
