"""Static renderings of one operand layout: deterministic text and a coloured HTML table.

These are what a saved notebook, GitHub/nbviewer and nbval see of ``wb.layout(...)``: no ids,
no scripts, the same bytes on every run.
"""

from __future__ import annotations

import textwrap

import numpy as np

from ..layouts.layout import INDEX, index_names
from .base import esc, wrap
from .layout_data import (
    Placement,
    facts,
    index_cells,
    index_sets,
    k_groups,
    lane_colors,
    lane_words,
    matrix_text,
    operand_note,
    other_set_of,
    remaps,
    slot_names,
)

__all__ = ["layout_html", "layout_text", "modifier_note"]


def modifier_note(p: Placement) -> str:
    """One sentence on what the active modifiers do to this operand ('' when none)."""
    m, ins = p.mods, p.ins
    notes = []
    if m.cbsz or m.abid:
        src = ", ".join(f"{b}<-{ins.source_block(b, m.cbsz, m.abid)}" for b in range(ins.blocks))
        notes.append(f"CBSZ={m.cbsz} ABID={m.abid}: block <- A block read: {src}")
    if m.blgp and ins.blgp == "lanes":
        notes.append(f"BLGP={m.blgp}: B lanes are read through the BLGP lane pattern")
    if m.blgp and ins.blgp == "negate":
        neg = [op for op, on in zip("ABC", ins.negate_mask(m.blgp)) if on]
        notes.append(f"BLGP={m.blgp} negates {', '.join(neg) or 'nothing'}"
                     + (f" ({p.operand} is negated)" if p.negated() else ""))
    if m.opsel:
        notes.append(f"OPSEL={m.opsel}: the high 16 bits of each C/D register")
    if m.index_key:
        notes.append(f"index_key={m.index_key} (OPSEL): index set {m.index_key} of "
                     f"{index_sets(ins)} in the index VGPR")
    return "; ".join(notes)


def layout_text(p: Placement, lane: int | None = None) -> str:
    """The instruction's facts, the catalog's printed matrix and (optionally) one lane's
    registers: the explorer's ``text/plain``."""
    ins = p.ins
    width = max(len(k) for k, _ in facts(ins))
    head = [f"{ins.name} on {ins.arch}, operand {p.operand}"]
    head += [f"  {k.ljust(width)}  {v}" for k, v in facts(ins)]
    if operand_note(p):
        head.append(textwrap.fill(operand_note(p), width=100, break_on_hyphens=False))
    note = modifier_note(p)
    if note:
        head.append(note)
    head.append(matrix_text(p))
    if lane is not None:
        head.append(lane_words(p, lane))
    return "\n".join(head)


_CSS = """<style>
.hipwb table.hwl { border-collapse: collapse; margin: 2px 12px 6px 0; }
.hipwb table.hwl td, .hipwb table.hwl th { padding: 0 3px; border: 1px solid rgba(0,0,0,0.10);
  font-family: var(--jp-code-font-family, monospace); font-size: 11px; text-align: center;
  line-height: 1.35; }
.hipwb table.hwl td { color: #111; }
.hipwb table.hwl th { font-weight: normal; opacity: 0.7; }
.hipwb table.hwl td.sel { outline: 2px solid #000; outline-offset: -2px; font-weight: 700; }
.hipwb table.hwl td.un { background: #e4e4e4; color: #888; }
"""


def _style(classes: dict[str, str]) -> str:
    rules = "".join(f".hipwb table.hwl td.{c} {{ background: {col}; }}\n"
                    for c, col in classes.items())
    return _CSS + rules + "</style>"


def _cell_names(p: Placement, first: np.ndarray) -> np.ndarray:
    if p.operand == INDEX:
        return index_cells(p, p.lane[first], p.reg[first], p.elem[first])
    cells = np.char.add(np.char.add(p.lane[first].astype(str), "."), p.reg[first].astype(str))
    if p.elems_per_reg > 1:
        cells = np.char.add(np.char.add(cells, "."), p.elem[first].astype(str))
    return cells


def _matrix_tables(p: Placement, lane: int | None, classes: dict[str, str]) -> str:
    ins, op = p.ins, p.operand
    blocks, rows, cols = p.shape
    first = p.used & (p.replica == 0)
    lanes = p.lane[first].reshape(p.shape)
    cells = _cell_names(p, first).reshape(p.shape)
    sel = np.zeros(p.shape, dtype=bool)
    if lane is not None:  # every element any copy of which sits in `lane`
        hit = p.used & (p.lane == lane)
        sel[p.block[hit], p.row[hit], p.col[hit]] = True
    colors = lane_colors(ins.wave_size)
    rname, cname = index_names(op)
    groups = k_groups(p)
    top = ""
    if groups is not None:  # sparse A / I: which logical k each pair of stored columns holds
        top = "<tr><th>logical k</th>" + "".join(
            f'<th colspan="2">{groups[c]}</th>' for c in range(0, cols, 2)) + "</tr>"
    out = []
    for b in range(blocks):
        head = "".join(f"<th>{c}</th>" for c in range(cols))
        body = []
        for r in range(rows):
            tds = []
            for c in range(cols):
                ln = int(lanes[b, r, c])
                classes[f"l{ln}"] = colors[ln]
                extra = " sel" if sel[b, r, c] else ""
                tds.append(f'<td class="l{ln}{extra}">{cells[b, r, c]}</td>')
            body.append(f"<tr><th>{r}</th>{''.join(tds)}</tr>")
        title = f"<div>block {b}</div>" if blocks > 1 else ""
        out.append(f'<div>{title}<table class="hwl">{top}<tr><th>{rname}\\{cname}</th>{head}'
                   f"</tr>{''.join(body)}</table></div>")
    return '<div class="row">' + "".join(out) + "</div>"


def _lane_table(p: Placement, lane: int | None, classes: dict[str, str]) -> str:
    """Lanes (rows) x register slots (columns); a cell names the element it holds, coloured by
    the element's row."""
    ins = p.ins
    slots = p.regs * p.elems_per_reg
    step = p.span  # a 64-bit element fills a register pair: one column per pair
    grid = [["" for _ in range(slots)] for _ in range(ins.wave_size)]
    klass = [["un" for _ in range(slots)] for _ in range(ins.wave_size)]
    multi = ins.blocks > 1
    hues = lane_colors(16)  # 16 hues; rows beyond 16 repeat them
    for i in np.flatnonzero(other_set_of(p) >= 0):  # I: the fields of the other index sets
        grid[int(p.lane[i])][int(p.slot[i])] = f"key {int(other_set_of(p)[i])}"
    used = np.flatnonzero(p.used)
    for i in used:
        ln, s = int(p.lane[i]), int(p.slot[i])
        r, c, b = int(p.row[i]), int(p.col[i]), int(p.block[i])
        label = f"{b}:{r},{c}" if multi else f"{r},{c}"
        grid[ln][s] = label if not grid[ln][s] else grid[ln][s] + " " + label
        klass[ln][s] = f"r{r % 16}"
        classes[f"r{r % 16}"] = hues[r % 16]
    head = "".join(f"<th>{name}</th>" for name in slot_names(p))
    body = []
    for ln in range(ins.wave_size):
        mark = " sel" if ln == lane else ""
        tds = "".join(f'<td class="{klass[ln][s]}{mark}">{esc(grid[ln][s])}</td>'
                      for s in range(0, slots, step))
        body.append(f"<tr><th>{ln}</th>{tds}</tr>")
    rname, cname = index_names(p.operand)
    what = f"block:{rname},{cname}" if multi else f"{rname},{cname}"
    grey = ("grey: unused (key n: a field of index set index_key=n)" if p.operand == INDEX
            else "grey: unused")
    return (f'<table class="hwl"><tr><th>lane</th>{head}</tr>{"".join(body)}</table>'
            f'<div class="muted">cells: the {p.operand} element ({what}) a register slot '
            f"holds; colour: its row {rname}; {grey}</div>")


def layout_html(p: Placement, lane: int | None = None) -> str:
    """A coloured ``lane.reg`` table of the matrix (and a collapsed lane-major table)."""
    ins, op = p.ins, p.operand
    classes: dict[str, str] = {}
    matrix = _matrix_tables(p, lane, classes)
    lanes = _lane_table(p, lane, classes)
    info = "".join(f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v in facts(ins))
    fmt = "lane.reg.elem" if p.elems_per_reg > 1 else "lane.reg"
    legend = (f"cell = {fmt}: the lane, the VGPR offset from the operand's base register"
              + (", the sub-element (bits elem*" + str(p.bits) + "..)" if p.elems_per_reg > 1
                 else "") + "; colour = lane (hue: lane mod 16, shade: lane / 16)")
    if op == INDEX:
        legend = ("cell = lane[hi:lo]: the lane and the bits of its index VGPR (v0, the "
                  "SWMMAC's Src2) holding the 2-bit index of stored A[i,k]; colour = lane (hue: "
                  "lane mod 16, shade: lane / 16)")
    if k_groups(p) is not None:
        legend += "; logical k: the group of 4 logical k that stored columns 2g, 2g+1 come from"
    if p.replicas > 1:
        legend += f"; each element is also held by lanes +16, +32.. ({p.replicas} copies)"
    if remaps(p):
        legend += "; with the modifiers: the slot each element is read from"
    key = f", index_key={p.mods.index_key}" if op == INDEX and index_sets(ins) > 1 else ""
    parts = [f"<div><b>{esc(ins.name)}</b> on {esc(ins.arch)}, operand <b>{op}</b>"
             f" ({esc(p.ins.dtype(op))}{key})</div>",
             f'<table class="hwl" style="margin-bottom:4px">{info}</table>']
    if operand_note(p):
        parts.append(f'<div class="caption">{esc(operand_note(p))}</div>')
    note = modifier_note(p)
    if note:
        parts.append(f"<div>{esc(note)}</div>")
    if lane is not None:
        parts.append(f"<div>{esc(lane_words(p, lane))}</div>")
    parts += [matrix, f'<div class="muted">{esc(legend)}</div>',
              f"<details><summary>lane-major view ({ins.wave_size} lanes x "
              f"{p.regs} VGPRs)</summary>{lanes}</details>"]
    return _style(classes) + wrap("".join(parts))
