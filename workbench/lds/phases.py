"""Which lanes of one DS instruction the LDS services together ("phases"), per arch family.

Why: bank conflicts only arise between lanes of the same phase, and the grouping depends on
the instruction width and the chip. Every table names its source; where no measurement or
document exists the table carries an ``assumption`` text saying what is assumed and why, and
every output that uses the table shows it.
"""
from __future__ import annotations

from dataclasses import dataclass

from .. import arch as _arch
from ..errors import ArgumentValueError
from .instructions import DsInstruction, ds_instruction

__all__ = ["PhaseTable", "phase_table"]


@dataclass(frozen=True)
class PhaseTable:
    """The lane groups ("phases") of one instruction on one arch, and the banks they address.

    ``banks`` is the modulus of the bank index (``dword mod banks``) for this instruction: on
    gfx950 the wide read path has 64 banks while other accesses see 32 (HipKittens' rocprofv3
    measurement on gfx950; LLVM's ldsbankcount32 and rocprofiler-compute's 32 banks elsewhere).
    ``assumption`` is None when ``source`` documents or measured the grouping.
    """

    arch: str
    instruction: str
    groups: tuple[tuple[int, ...], ...]
    banks: int
    source: str
    assumption: str | None = None

    @property
    def wave_size(self) -> int:
        return sum(len(g) for g in self.groups)

    @property
    def is_assumption(self) -> bool:
        return self.assumption is not None

    def provenance(self) -> str:
        """One line: where the grouping comes from (``ASSUMPTION: ...`` when unsourced)."""
        if self.assumption is None:
            return f"source: {self.source}"
        return f"ASSUMPTION: {self.assumption} (basis: {self.source})"

    def __repr__(self) -> str:
        groups = "; ".join(_ranges(g) for g in self.groups) or "none (no LDS bank access)"
        return (f"PhaseTable({self.instruction} on {self.arch}: {len(self.groups)} phases x "
                f"{self.banks} banks [{groups}]; {self.provenance()})")


def _ranges(lanes) -> str:
    """Compact lane list: (0,1,2,3,20,21) -> '0-3,20-21'."""
    lanes = sorted(lanes)
    out: list[str] = []
    i = 0
    while i < len(lanes):
        j = i
        while j + 1 < len(lanes) and lanes[j + 1] == lanes[j] + 1:
            j += 1
        out.append(str(lanes[i]) if i == j else f"{lanes[i]}-{lanes[j]}")
        i = j + 1
    return ",".join(out)


def _contiguous(wave: int, size: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(range(s, s + size)) for s in range(0, wave, size))


def _lane_sets(*sets: str) -> tuple[tuple[int, ...], ...]:
    """Parse '0-3,20-23'-style lane sets (how the sources print them)."""
    out = []
    for s in sets:
        lanes: list[int] = []
        for part in s.split(","):
            lo, _, hi = part.partition("-")
            lanes.extend(range(int(lo), int(hi or lo) + 1))
        out.append(tuple(sorted(lanes)))
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# Sourced groupings (tags as in docs/sources.md)
# ---------------------------------------------------------------------------------------------
# CK-LDS (ROCm/composable_kernel docs/conceptual/ck_tile/hardware/
# lds_bank_conflicts.rst): ds_read_b128 is serviced in 8 groups of 8 lanes, non-contiguous,
# chosen to match MFMA "vertical" operand reads.
_CK_READ_B128 = _lane_sets("0-3,20-23", "4-7,16-19", "8-11,28-31", "12-15,24-27",
                           "32-35,52-55", "36-39,48-51", "40-43,60-63", "44-47,56-59")
_SRC_CK_READ = ("CK-LDS (composable_kernel docs, ck_tile/hardware/lds_bank_conflicts.rst): "
                "ds_read_b128 in 8 groups of 8 lanes {0-3,20-23},{4-7,16-19},...")
_SRC_CK_WRITE = ("CK-LDS (composable_kernel docs, ck_tile/hardware/lds_bank_conflicts.rst): "
                 "ds_write_b128 in 8 phases of 8 consecutive lanes")
# HipKittens rocprofv3 SQ_LDS_BANK_CONFLICT phase solver on gfx950 (HazyResearch/HipKittens
# analysis/paper_experiments/phases/*/phase_results.txt and bank_results.txt, re-read in the
# thebard85kigz/hipkittens copy of that tree).
_HK_READ_B128 = _lane_sets("0-3,12-15,20-27", "4-11,16-19,28-31", "32-35,44-47,52-59",
                           "36-43,48-51,60-63")
_HK_READ_B96 = _CK_READ_B128  # HK phase_results.txt for ds_read_b96 lists exactly these 8 sets
_SRC_HK = ("HipKittens gfx950 rocprofv3 phase/bank solver (HazyResearch/HipKittens "
           "analysis/paper_experiments/phases/*/phase_results.txt)")
# AMD APP OpenCL Programming Guide §6.2 (GCN): "Bank conflicts are determined by what addresses
# are accessed on each half wavefront boundary. Threads 0 through 31 are checked for conflicts
# as are threads 32 through 63" (quoted in community.amd.com thread 196599); CK's CDNA bank
# tutorial (composable_kernel branch aghamari/ua-on-develop-v2, assets/bank_rules_interactive
# .html) draws one half-wave (32 lanes x 32 banks) per panel.
_SRC_HALF_WAVE = ("AMD APP OpenCL Programming Guide §6.2 (GCN): lanes 0-31 and 32-63 are "
                  "checked for conflicts separately; CK CDNA bank tutorial draws half-waves")

_GFX942_ASSUMED_ON_CDNA2 = ("CDNA2 LDS is the same 32 x 4 B design as CDNA3 (RPC "
                            "pipeline-descriptions: 'On CDNA accelerators, the LDS contains 32 "
                            "banks'); the gfx942 grouping is assumed, not measured on gfx90a")


def _cdna3_tables(wave: int) -> dict[str, tuple]:
    """(groups, banks, source, assumption) per access class on CDNA3 (gfx942), 32 banks."""
    half = _contiguous(wave, 32)
    q16 = _contiguous(wave, 16)
    e8 = _contiguous(wave, 8)
    return {
        "b32": (half, 32, _SRC_HALF_WAVE, None),
        "b64": (q16, 32, "AMD APP OpenCL Programming Guide §6.2 (GCN): 'a simple sequential "
                "address pattern, where each work-item reads a float2 value from LDS, generates "
                "a conflict-free access pattern'; HipKittens measured ds_write_b64 on gfx950 as "
                "4 x 16 consecutive lanes (phases/ds_write_b64/phase_results.txt)",
                "gfx942 ds_read_b64/ds_write_b64 not measured: assumed 4 phases of 16 "
                "consecutive lanes (16 lanes x 8 B = 128 B = one pass over 32 banks)"),
        "b96_load": (_CK_READ_B128, 32, _SRC_HK + ": gfx950 ds_read_b96 = CK's b128 grouping "
                     "at 32 banks",
                     "gfx942 ds_read_b96 not measured: assumed the grouping HipKittens measured "
                     "for gfx950 ds_read_b96, whose 32-bank path was not widened on CDNA4"),
        "b96_store": (e8, 32, _SRC_CK_WRITE,
                      "ds_write_b96 not measured: assumed ds_write_b128's 8 phases of 8 "
                      "consecutive lanes"),
        "b128_load": (_CK_READ_B128, 32, _SRC_CK_READ, None),
        "b128_store": (e8, 32, _SRC_CK_WRITE, None),
        "atomic32": (half, 32, _SRC_HALF_WAVE,
                     "LDS atomics not measured: assumed the half-wave phases of 32-bit accesses"),
        "atomic64": (q16, 32, "RPC pipeline-descriptions: 128 B/clk over 32 banks",
                     "64-bit LDS atomics not measured: assumed 4 phases of 16 consecutive lanes"),
        "pair32": (q16, 32, "RPC pipeline-descriptions: 128 B/clk over 32 banks",
                   "READ2/WRITE2_B32 not measured: each lane moves 8 B like ds_read_b64, so "
                   "assumed 4 phases of 16 consecutive lanes"),
        "pair64": (e8, 32, "RPC pipeline-descriptions: 128 B/clk over 32 banks",
                   "READ2/WRITE2_B64 not measured: each lane moves 16 B like ds_write_b128, so "
                   "assumed 8 phases of 8 consecutive lanes"),
    }


def _cdna4_tables(wave: int) -> dict[str, tuple]:
    """gfx950: HipKittens-measured reads/writes; the rest as on gfx942 (32 banks)."""
    t = _cdna3_tables(wave)
    out = {k: (g, b, s, (a or "") + ("; " if a else "") + "not measured on gfx950: assumed as "
               "on gfx942 (LLVM ldsbankcount32 and rocprof-compute lds_banks_per_cu=32 still "
               "apply outside the widened read path: LLVM's gfx950 feature list, "
               "rocprofiler-compute soc_gfx950.py)")
           for k, (g, b, s, a) in t.items()}
    out["b128_load"] = (_HK_READ_B128, 64, _SRC_HK + ": 4 phases x 16 lanes, 64 banks", None)
    out["b96_load"] = (_HK_READ_B96, 32, _SRC_HK + ": 8 phases x 8 lanes, 32 banks", None)
    out["b64_load"] = (_contiguous(wave, 32), 64, _SRC_HK + ": 2 phases x 32 lanes, 64 banks",
                       None)
    out["b64_store"] = (_contiguous(wave, 16), 32, _SRC_HK + ": 4 phases x 16 lanes, 32 banks",
                        None)
    # transposing reads: each lane still reads 8 (12) contiguous bytes at its own address and
    # the transpose is a 16-lane exchange afterwards (fam_dstr), so they are taken to go through
    # the LDS like the plain read of the same width -- nobody has measured them
    out["tr64"] = (out["b64_load"][0], 64, _SRC_HK + ": ds_read_b64 2 phases x 32 lanes, 64 "
                   "banks", "ds_read_b64_tr_b* phases not measured: assumed those of ds_read_b64 "
                   "(same 8 bytes per lane at the lane's own address; the transpose is a "
                   "16-lane exchange after the read)")
    out["tr96"] = (_HK_READ_B96, 32, _SRC_HK + ": ds_read_b96 8 phases x 8 lanes, 32 banks",
                   "ds_read_b96_tr_b6 phases not measured: assumed those of ds_read_b96 (same "
                   "12 bytes per lane at the lane's own address)")
    return out


def _cdna2_tables(wave: int) -> dict[str, tuple]:
    """gfx90a: the gfx942 tables, each marked as assumed for CDNA2 where gfx942's is sourced."""
    out = {}
    for k, (g, b, s, a) in _cdna3_tables(wave).items():
        if s is _SRC_HALF_WAVE and a is None:
            out[k] = (g, b, s, None)  # the GCN-wide half-wave rule covers CDNA2 too
        else:
            out[k] = (g, b, s, f"{a}; on gfx90a taken as on gfx942" if a
                      else _GFX942_ASSUMED_ON_CDNA2)
    return out


def _rdna_tables(wave: int, banks: int) -> dict[str, tuple]:
    """RDNA: no phase measurement exists (no AMD document or public measurement found);
    consecutive lanes filling one bank pass."""
    src = f"LLVM models {banks} banks x 4 B on RDNA (AMDGPU feature ldsbankcount32 of gfx11/gfx12)"
    why = ("RDNA LDS phases are undocumented and unmeasured (no AMD document or public "
           "measurement found): assumed phases of "
           "consecutive lanes that move {bytes} B = one pass over {banks} banks")

    def table(bytes_per_lane: int, lanes: int) -> tuple:
        return (_contiguous(wave, lanes), banks, src,
                why.format(bytes=lanes * bytes_per_lane, banks=banks))

    per_pass = banks * 4
    return {
        "b32": table(4, min(wave, per_pass // 4)),
        "b64": table(8, per_pass // 8),
        "b96_load": table(12, 8),
        "b96_store": table(12, 8),
        "b128_load": table(16, per_pass // 16),
        "b128_store": table(16, per_pass // 16),
        "atomic32": table(4, min(wave, per_pass // 4)),
        "atomic64": table(8, per_pass // 8),
        "pair32": table(8, per_pass // 8),
        "pair64": table(16, per_pass // 16),
    }


_PERMUTE_NOTE = ("does not access LDS memory banks: the ISA describes DS_PERMUTE_B32/"
                 "DS_BPERMUTE_B32 as 'Does not actually write any LDS memory' (CDNA4 ISA §11.3 "
                 "Table 58) and DS_SWIZZLE_B32 as a dword swizzle where 'no data is written to "
                 "LDS' (GCN ISA opcode notes, as kept in jbarczak/Pyramid GCN disassembler); they "
                 "use the LDS crossbar only, so the model reports no bank conflicts for them")


def _access_class(op: DsInstruction) -> str:
    if op.transpose_bits:
        return "tr64" if op.size == 8 else "tr96"
    if op.addresses == 2:
        return "pair64" if op.size == 8 else "pair32"
    if op.kind == "atomic":
        return "atomic64" if op.size == 8 else "atomic32"
    if op.size <= 4:
        return "b32"  # sub-dword accesses occupy one dword slot of a bank
    if op.size == 8:
        return "b64"
    suffix = "_load" if op.kind == "load" else "_store"
    return ("b96" if op.size == 12 else "b128") + suffix


def phase_table(instruction: str | DsInstruction, arch: str = "gfx942",
                wave_size: int | None = None) -> PhaseTable:
    """The phase grouping of ``instruction`` on ``arch`` for waves of ``wave_size`` lanes.

    >>> phase_table("ds_read_b128", "gfx942").groups[0]
    (0, 1, 2, 3, 20, 21, 22, 23)
    """
    op = instruction if isinstance(instruction, DsInstruction) else ds_instruction(instruction)
    a = _arch.get(arch)
    wave = a.default_wave_size if wave_size is None else int(wave_size)
    if wave not in a.wave_sizes:
        raise ArgumentValueError(
            f"{op.name} on {a.name}: {wave} lanes is not a wave size of {a.name} "
            f"(supported: {', '.join(map(str, a.wave_sizes))})")
    if a.lds_bank_width != 4:
        raise ArgumentValueError(
            f"{a.name}: lds_bank_width={a.lds_bank_width}; the bank model counts "
            "4-byte dwords")
    if not op.touches_banks:
        return PhaseTable(a.name, op.name, (), a.lds_banks, "CDNA4 ISA guide §11.3 Table 58",
                          f"{op.name} {_PERMUTE_NOTE}; not measured")
    if a.family == "cdna3":
        tables = _cdna3_tables(wave)
    elif a.family == "cdna4":
        tables = _cdna4_tables(wave)
    elif a.family == "cdna2":
        tables = _cdna2_tables(wave)
    elif a.is_rdna:
        tables = _rdna_tables(wave, a.lds_banks)
    else:  # a new family in arch.py needs its own phase tables here
        raise ArgumentValueError(f"no LDS phase tables for {a.name} (family {a.family!r})")
    cls = _access_class(op)
    if cls not in tables and cls.startswith("tr"):
        raise ArgumentValueError(
            f"{op.name} is a gfx950 instruction; {a.name} has no transposing LDS "
            "reads (LLVM DSInstructions.td: DS_READ_*_TR_* are gfx950-only)")
    key = cls
    if cls == "b64" and op.kind != "atomic":
        key = "b64_load" if op.kind == "load" else "b64_store"
        if key not in tables:
            key = "b64"
    groups, banks, source, assumption = tables[key]
    return PhaseTable(a.name, op.name, groups, banks, source, assumption)
