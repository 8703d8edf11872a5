"""Helpers shared by the instruction families: typed reads, fault messages, lane constants."""
from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import GPU_OOB
from ..errors import KernelFault, UnknownInstruction
from ..machine.state import LANES
from .registry import Decoded

LANE = np.arange(LANES, dtype=np.int64)
T64 = {"u64", "i64", "f64", "b64"}
T16 = {"u16", "i16", "f16", "b16", "bf16"}

_VIEW = {"u32": None, "b32": None, "i32": np.int32, "f32": np.float32}


def bits_of(t: str) -> int:
    return 64 if t in T64 else (16 if t in T16 else 32)


def to_typed(x: Any, t: str) -> Any:
    """uint32 (or uint64 for 64-bit types) bit patterns -> numpy values of type ``t``."""
    if t in ("u32", "b32", "u64", "b64"):
        return x
    if t == "i32":
        return x.view(np.int32)
    if t == "f32":
        return x.view(np.float32)
    if t == "i64":
        return x.view(np.int64)
    if t == "f64":
        return x.view(np.float64)
    h = (x & np.uint32(0xFFFF)).astype(np.uint16)
    if t in ("u16", "b16"):
        return h
    if t == "i16":
        return h.view(np.int16)
    if t == "f16":
        return h.view(np.float16)
    if t == "bf16":
        return (h.astype(np.uint32) << 16).view(np.float32)
    raise ValueError(f"unknown operand type {t}")


def from_typed(r: Any, t: str) -> Any:
    """numpy values of type ``t`` -> uint32 bits (uint64 for 64-bit types)."""
    if t == "f32":
        return np.asarray(r, np.float32).view(np.uint32)
    if t in ("u32", "b32", "i32"):
        r = np.asarray(r)
        return r if r.dtype == np.uint32 else r.astype(np.uint32)
    if t == "f64":
        return np.asarray(r, np.float64).view(np.uint64)
    if t in ("u64", "b64", "i64"):
        return np.asarray(r).astype(np.uint64)
    if t == "f16":
        return np.asarray(r, np.float16).view(np.uint16).astype(np.uint32)
    if t in ("u16", "b16", "i16"):
        return np.asarray(r).astype(np.uint16).astype(np.uint32)
    raise ValueError(f"unknown result type {t}")


def need_no_mods(d: Decoded, allowed: set) -> None:
    """Raise UnknownInstruction for any modifier outside ``allowed`` (never silently skip)."""
    for k, v in d.mods.items():
        if k not in allowed:
            raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text,
                                     f"modifier {k}:{v} not implemented")


def fault(st: Any, g: Any, d: Decoded, space: str, bad: np.ndarray, addr: int, why: str,
          write: bool) -> None:
    """Raise a KernelFault for the lanes ``bad`` ([w, 64] bool) of group ``g``."""
    where = np.argwhere(bad)
    wv, ln = int(where[0, 0]), int(where[0, 1])
    wave = int(g.waves[wv])
    lanes = [int(x) for x in where[where[:, 0] == wv][:, 1]]
    wg = tuple(int(x) for x in st.wg_global[wave])
    name = st.launch.kernel_name if st.launch is not None else "?"
    line = d.inst.source_line
    src = f" ({d.inst.location()})" if d.inst.location() else ""
    shown = lanes if len(lanes) <= 8 else lanes[:8] + ["..."]
    kind = "write" if write else "read"
    reason = ("misaligned" if why.startswith("misaligned") else
              "read-only" if why.startswith("write to read-only") else "out of range")
    buffer = offset = size = None
    gpu = ""
    if st.mem is not None and space in ("global", "flat", "scalar memory"):
        r, off = st.mem.nearest(addr)
        if r is not None:
            buffer, offset, size = r.name, off, r.size
        if reason == "out of range":
            gpu = f". {GPU_OOB}"
    msg = (f"kernel {name!r}: out-of-bounds {space} {kind} by `{d.inst.text}` at pc "
           f"0x{d.addr:x}{src}: lanes {shown} of wave {int(st.wave_in_wg[wave])} in workgroup "
           f"{wg} (first: lane {ln}, address 0x{addr:x}) — {why}{gpu}")
    raise KernelFault(msg, kernel=name, pc=d.addr, lanes=lanes, address=addr, source_line=line,
                      instruction=d.inst.text, buffer=buffer, workgroup=wg,
                      wave=int(st.wave_in_wg[wave]), space=space, offset=offset,
                      buffer_size=size, write=write, reason=reason)

