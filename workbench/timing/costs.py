"""Per-row costs of a recorded stream: class of each row, LDS bank/port cycles, VMEM service.

Why separate from the simulator: these are vectorised numpy passes over the whole stream (one
``workbench.lds`` analysis per DS mnemonic), done once; the event loop then only reads lists.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..lds import UnsupportedInstruction, analyze_batch
from . import classes as C
from .chips import Chip
from .stream import InstStream


@dataclass
class RowCosts:
    """Python lists indexed by stream row (the event loop's inputs)."""

    kind: list
    cycles: list  # MFMA pipe cycles, NOP/SLEEP stall, TRANS/VALU busy
    flops: list
    lds_bank: list  # LDS: bank-busy cycles (workbench.lds: sum of phase degrees)
    lds_port: list  # LDS: port cycles (bytes over the pair's port rate)
    lds_write: list  # LDS: True for writes/atomics
    lds_conflict: list  # LDS: the bank cycles that are conflicts (workbench.lds conflict_cycles)
    lds_dma: list  # VMEM loads into LDS (``lds`` modifier, global_load_lds_*): bank cycles
    vm_cycles: list  # VMEM: data-path service cycles (max of L1, L2-share, HBM-share rates)
    vm_lines: list  # VMEM: 128-byte line requests of the row (for the CU's in-flight bound)
    vm_ids: list  # VMEM loads: the row's line ids (vL1D tags), or None (not recorded / stores)
    ta: list  # VMEM: texture-addresser cycles (``ta_address_cycles``)
    waits: list  # WAIT: (vmcnt, lgkmcnt, expcnt)
    prio: list
    classes: dict  # instruction index -> InstClass
    lds_from_trace: int = 0  # LDS rows costed from recorded addresses
    lds_estimated: int = 0  # LDS rows costed without addresses (trace truncated)
    inst: list = field(default_factory=list)  # instruction index of each row
    lds_bytes: float = 0.0  # bytes the rows moved through the LDS (DS and loads into LDS)
    line_cost: tuple = (0.0, 0.0)  # data-path cycles per line: (vL1D, one L2 request)


def _classes(stream: InstStream, chip: Chip) -> dict:
    out = {}
    for i in np.unique(stream.index):
        ins = stream.instructions[int(i)]
        out[int(i)] = C.classify(ins.mnemonic, ins.text, stream.arch, int(chip["trans_cycles"]),
                                 int(chip["sleep_unit"]))
    return out


def _is_write(mn: str) -> bool:
    return mn.startswith(("ds_write", "ds_store", "ds_add", "ds_sub", "ds_inc", "ds_dec",
                          "ds_min", "ds_max", "ds_and", "ds_or", "ds_xor", "ds_cmpst",
                          "ds_wrxchg", "ds_pk_add")) and "_rtn" not in mn


def _lds_record_costs(stream: InstStream, chip: Chip) -> dict:
    """(wave, pc, occurrence) -> (bank cycles, port cycles, write, bytes, conflict cycles) from
    the recorded DS addresses."""
    ds = stream.ds
    out: dict = {}
    if ds is None or len(ds) == 0:
        return out
    n = len(ds)
    bank = np.zeros(n, np.int64)
    conf = np.zeros(n, np.int64)
    mnem = np.asarray(ds.mnemonic).astype(str)
    for mn in np.unique(mnem):
        sel = np.nonzero(mnem == mn)[0]
        two = bool(ds.two_addr[sel[0]])
        addr = ds.addr[sel] if two else ds.addr[sel][:, :, 0]
        try:
            b = analyze_batch(addr.astype(np.int64), ds.exec[sel], mn, stream.arch)
            bank[sel] = b.cycles
            conf[sel] = b.conflict_cycles
        except (UnsupportedInstruction, ValueError, KeyError):
            act = ds.exec[sel].sum(axis=1)
            bank[sel] = np.ceil(act * ds.width[sel] * (2 if two else 1)
                                / (4 * chip["lds_banks"])).astype(np.int64)
    act = ds.exec.sum(axis=1).astype(np.int64)
    nbytes = act * ds.width * np.where(ds.two_addr, 2, 1)
    write = np.array([_is_write(m) for m in mnem], bool)
    port = np.where(write, np.ceil((act * 4 + nbytes) / chip["lds_write_port"]),
                    np.ceil(nbytes / chip["lds_read_port"])).astype(np.int64)
    key = ds.wave.astype(np.int64) * (1 << 32) + ds.pc.astype(np.int64)
    order = np.lexsort((np.arange(n), key))
    ks = key[order]
    first = np.r_[True, ks[1:] != ks[:-1]]
    grp_start = np.maximum.accumulate(np.where(first, np.arange(n), 0))
    rank = np.arange(n) - grp_start
    for j, r, k in zip(order.tolist(), rank.tolist(), ks.tolist()):
        out[(k, r)] = (int(bank[j]), int(max(port[j], 1)), bool(write[j]), int(nbytes[j]),
                       int(conf[j]))
    return out


def ta_address_cycles(nbytes: np.ndarray, active: np.ndarray, lines: np.ndarray,
                      chip: Chip, quad_lines: np.ndarray | None = None) -> np.ndarray:
    """Texture-addresser cycles of VMEM instructions (``ta_cycles`` / ``ta_cycles_multi``).

    The fast rate needs <= 4 bytes per active lane whose bytes lie on no more lines than their
    size needs (one spare line for misalignment); ``lines`` < 0 (not recorded) counts as compact.
    Otherwise the addresser takes a quad of 4 lanes per clock (16 clocks per wave) and, per
    quad, one clock for each distinct line its lanes touch (``quad_lines``, summed over the
    quads; ``ta_cycles_per_quad_line``): an uncoalesced access whose lanes scatter over many
    lines pays for each of them.
    """
    nbytes = np.asarray(nbytes, np.float64)
    width = nbytes / np.maximum(np.asarray(active, np.float64), 1)
    need = np.ceil(nbytes / chip["line_bytes"]) + 1
    compact = (np.asarray(lines) < 0) | (np.asarray(lines) <= need)
    slow = np.full(nbytes.shape, float(chip["ta_cycles_multi"]))
    if quad_lines is not None:
        slow = np.maximum(slow, np.asarray(quad_lines, np.float64)
                          * chip["ta_cycles_per_quad_line"])
    return np.where((width <= 4) & compact, chip["ta_cycles"], slow).astype(np.int64)


def shared_line_cycles(chip: Chip, lines: float, dram_fraction: float, busy_floor: float) -> float:
    """Cycles per line that misses the vL1D: this CU's turn at the XCD's shared L2 channels
    and, for the missing fraction, at the chip's HBM.

    Why not a fixed 1/CUs share: the CUs of an XCD run the same kernel at the same average
    rate, but not in step, so a CU's burst is served by what the others leave free (statistical
    multiplexing). The others' load is this CU's own average line rate, ``lines`` over the
    least time its streams can take (``busy_floor``: its busiest unit), times the other CUs;
    what remains of the achievable capacity serves this CU, never less than its fair share
    (the old 1/CUs rule, reached when every CU saturates the L2).
    """
    line = chip["line_bytes"]
    n_x = chip["cus"] / chip["xcds"]
    rate = lines / max(busy_floor, 1.0)  # this CU's average line requests per cycle (at most)
    l2 = chip["l2_bytes_per_clk_xcd"] * chip["l2_efficiency"] / line  # lines/clk per XCD
    l2_free = max(l2 - (n_x - 1) * rate, l2 / n_x)
    hbm = chip.achievable_hbm_bytes_per_s / chip.clock_hz / line  # lines/clk, chip-wide
    hbm_free = max(hbm - (chip["cus"] - 1) * rate * dram_fraction, hbm / chip["cus"])
    return max(1.0 / l2_free, dram_fraction / hbm_free, chip["l2_cycles_per_line_cu"])


def row_costs(stream: InstStream, chip: Chip, dram_fraction: float) -> RowCosts:
    """Costs of every stream row on ``chip``; ``dram_fraction``: share of line bytes from HBM."""
    cls = _classes(stream, chip)
    idx = stream.index
    n = len(stream)
    lut_kind = np.zeros(max(cls) + 1, np.int64)
    lut_cyc = np.zeros(max(cls) + 1, np.int64)
    lut_flop = np.zeros(max(cls) + 1, np.int64)
    lut_prio = np.zeros(max(cls) + 1, np.int64)
    for i, c in cls.items():
        lut_kind[i] = c.kind
        lut_cyc[i] = c.cycles if c.kind != C.VALU else chip["valu_cycles"]
        lut_flop[i] = c.flops
        lut_prio[i] = c.prio
    kind = lut_kind[idx]
    # VMEM data-path service: every line crosses the vL1D; a line that misses it takes this
    # CU's turn at the XCD's L2 and, for the missing fraction, at HBM (``shared_line_cycles``)
    is_vm = (kind == C.VMEM_LOAD) | (kind == C.VMEM_STORE)
    lines = np.where(stream.vm_lines >= 0, stream.vm_lines,
                     np.ceil(stream.vm_bytes / chip["line_bytes"])).astype(np.float64)
    lines = np.where(is_vm, np.maximum(lines, 1), 0)
    per_line_l1 = chip["line_bytes"] / chip["l1_bytes_per_clk"]
    ta = np.where(is_vm, ta_address_cycles(stream.vm_bytes, stream.active, stream.vm_lines, chip,
                                           stream.vm_quad_lines), 0).astype(np.int64)
    per_simd = (np.where((kind == C.VALU) | (kind == C.TRANS) | (kind == C.MFMA),
                         lut_cyc[idx], 0).sum() / chip["simds_per_cu"])
    # the L2 requests: a load's lines that an earlier load already brought into the vL1D are
    # not requested again, so distinct load lines (when recorded) plus every store line
    demand = float(lines.sum())
    if stream.vm_line_ids is not None and len(stream.vm_line_ids):
        demand = float(np.unique(stream.vm_line_ids).size
                       + lines[kind == C.VMEM_STORE].sum()
                       + lines[(kind == C.VMEM_LOAD) & (stream.vm_lines < 0)].sum())
    c_miss = shared_line_cycles(chip, demand, dram_fraction,
                                max(per_simd, float(ta.sum()), float(lines.sum()) * per_line_l1))
    vm = np.where(is_vm, np.ceil(lines * max(per_line_l1, c_miss)), 0).astype(np.int64)
    # LDS rows: match the k-th execution of (wave, pc) to the k-th DS record of the same
    lds_bank = np.zeros(n, np.int64)
    lds_port = np.zeros(n, np.int64)
    lds_write = np.zeros(n, bool)
    lds_conflict = np.zeros(n, np.int64)
    lds_bytes = 0
    rows = np.nonzero(kind == C.LDS)[0]
    # a load with the ``lds`` modifier (or gfx950's global_load_lds_*) stores its data into LDS
    # instead of VGPRs (LLVM AMDGPU operand docs, gfx9 vdst of buffer loads: "data are stored
    # directly into LDS"): those bytes take LDS bank cycles at banks x 4 B per clock
    # (rocprofiler-compute pipeline-descriptions.rst: each bank moves 4 B per clock)
    dma_idx = np.zeros(max(cls) + 1, bool)
    for i in cls:
        ins = stream.instructions[i]
        dma_idx[i] = cls[i].kind == C.VMEM_LOAD and (
            "_lds_" in ins.mnemonic or "lds" in ins.text.replace(",", " ").split()[1:])
    lds_dma = np.where(dma_idx[idx], np.ceil(stream.vm_bytes / (4 * chip["lds_banks"])),
                       0).astype(np.int64)
    rc = RowCosts(*([] for _ in range(14)), cls)  # one list each, all filled below
    if rows.size:
        rec = _lds_record_costs(stream, chip)
        pcs = np.array([stream.instructions[int(i)].addr for i in range(len(stream.instructions))],
                       np.int64)
        key = stream.wave[rows].astype(np.int64) * (1 << 32) + pcs[idx[rows]]
        order = np.lexsort((rows, key))
        ks = key[order]
        first = np.r_[True, ks[1:] != ks[:-1]]
        m = len(rows)
        grp_start = np.maximum.accumulate(np.where(first, np.arange(m), 0))
        rank = np.arange(m) - grp_start
        for j, r, k in zip(rows[order].tolist(), rank.tolist(), ks.tolist()):
            hit = rec.get((k, r))
            if hit is None:
                mn = stream.instructions[int(idx[j])].mnemonic
                act = int(stream.active[j])
                w = _is_write(mn)
                bank_c = max(1, -(-act * 4 // (4 * int(chip["lds_banks"]))))
                port_c = max(1, -(-act * 4 // int(chip["lds_write_port" if w else
                                                       "lds_read_port"])))
                lds_bank[j], lds_port[j], lds_write[j] = bank_c, port_c, w
                lds_bytes += act * 4
                rc.lds_estimated += 1
            else:
                lds_bank[j], lds_port[j], lds_write[j], nb, lds_conflict[j] = hit
                lds_bytes += nb
                rc.lds_from_trace += 1
    waits = [(-1, -1, -1)] * (max(cls) + 1)
    for i, c in cls.items():
        waits[i] = c.waits
    rc.kind = kind.tolist()
    rc.cycles = lut_cyc[idx].tolist()
    rc.flops = lut_flop[idx].tolist()
    rc.lds_bank = lds_bank.tolist()
    rc.lds_port = lds_port.tolist()
    rc.lds_write = lds_write.tolist()
    rc.lds_conflict = lds_conflict.tolist()
    rc.lds_dma = lds_dma.tolist()
    rc.vm_cycles = vm.tolist()
    rc.vm_lines = lines.astype(np.int64).tolist()
    # loads' line ids for the vL1D (stores write through to L2 without allocating: the
    # write policy is an ASSUMPTION, chips.py l1_bytes)
    rc.vm_ids = [None] * n
    ptr, ids = stream.vm_line_ptr, stream.vm_line_ids
    if ptr is not None:
        for j in np.nonzero(kind == C.VMEM_LOAD)[0].tolist():
            a, b = int(ptr[j]), int(ptr[j + 1])
            if b > a:
                rc.vm_ids[j] = ids[a:b].tolist()
    rc.line_cost = (per_line_l1, c_miss)
    rc.ta = ta.tolist()
    rc.waits = [waits[i] for i in idx.tolist()]
    rc.prio = lut_prio[idx].tolist()
    rc.inst = idx.tolist()
    rc.lds_bytes = float(lds_bytes) + float(np.where(dma_idx[idx], stream.vm_bytes, 0).sum())
    return rc
