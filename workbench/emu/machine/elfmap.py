"""Map a code object's loadable segments into a launch's memory (read-only tables, device data).

Why: kernels read data the compiler placed in the code object itself — ``static const`` tables
(e.g. the 2/pi bits of the prelude's sinf reduction), ``__constant__`` and ``__device__``
variables — through ``s_getpc_b64`` + offset addressing. The loader maps every ``PT_LOAD``
segment at ``load base + p_vaddr`` with ``p_filesz`` bytes from the file and the rest of
``p_memsz`` zeroed (AMDGPUUsage "Code Object" / ELF gABI program loading), and applies the
dynamic relocations: ``R_AMDGPU_RELATIVE64`` stores ``load base + addend`` and
``R_AMDGPU_ABS64`` stores ``S + A`` (llvm/include/llvm/BinaryFormat/ELFRelocs/AMDGPU.def;
AMDGPUUsage "Relocation Records"). The emulator's load base is ``memory.CODE_BASE``.

Loaded-module state: ``execute`` may pass a ``state`` dict (segment vaddr -> bytes) that
outlives one launch, as a module loaded on a GPU does: segments found in it are mapped from it
instead of the file, and after a launch that completed, every writable segment is captured back
into it — so ``__device__`` variables keep their values between launches and the host can set
them before one (``hipMemcpyToSymbol``; ``workbench.runtime.globals``). Without a state dict,
every launch starts from the file's initialisers.
"""
from __future__ import annotations

import hashlib
import io
import struct
from dataclasses import dataclass

import numpy as np

from ..errors import EmulatorError
from .memory import CODE_BASE, Memory, Region

R_AMDGPU_NONE, R_AMDGPU_ABS64, R_AMDGPU_RELATIVE64 = 0, 3, 13


@dataclass(frozen=True)
class Segment:
    name: str  # the sections it holds, e.g. ".rodata" or ".data .bss"
    vaddr: int
    memsz: int
    data: bytes  # p_filesz bytes; the rest of memsz is zero
    writable: bool


@dataclass(frozen=True)
class Image:
    """What a code object contributes to a launch's memory: segments and 64-bit fixups."""

    segments: tuple[Segment, ...]
    fixups: tuple[tuple[int, int], ...]  # (vaddr, value relative to the load base or absolute)
    relative: tuple[bool, ...]  # per fixup: add the load base


_CACHE: dict[bytes, Image] = {}


def load_image(elf: bytes) -> Image:
    """Parse (once per distinct ELF) the PT_LOAD segments and dynamic relocations."""
    key = hashlib.blake2b(elf, digest_size=16).digest()
    img = _CACHE.get(key)
    if img is None:
        img = _CACHE[key] = _parse(elf)
        if len(_CACHE) > 64:
            _CACHE.pop(next(iter(_CACHE)))
    return img


def _parse(elf: bytes) -> Image:
    from elftools.elf.elffile import ELFFile
    from elftools.elf.relocation import RelocationSection

    f = ELFFile(io.BytesIO(elf))
    secs = [s for s in f.iter_sections() if s["sh_flags"] & 2 and s["sh_size"]]  # SHF_ALLOC
    segs = []
    for seg in f.iter_segments():
        if seg["p_type"] != "PT_LOAD" or seg["p_memsz"] == 0:
            continue
        lo, hi = seg["p_vaddr"], seg["p_vaddr"] + seg["p_memsz"]
        names = [s.name for s in secs if lo <= s["sh_addr"] < hi]
        segs.append(Segment(" ".join(names) or f"segment@0x{lo:x}", lo, seg["p_memsz"],
                            seg.data()[:seg["p_filesz"]], bool(seg["p_flags"] & 2)))  # PF_W
    fixups, relative = [], []
    for sec in f.iter_sections():
        if not isinstance(sec, RelocationSection) or not sec["sh_flags"] & 2:
            continue
        symtab = f.get_section(sec["sh_link"]) if sec["sh_link"] else None
        for rel in sec.iter_relocations():
            t = rel["r_info_type"]
            addend = rel["r_addend"] if sec.is_RELA() else 0
            if t == R_AMDGPU_NONE:
                continue
            if t == R_AMDGPU_RELATIVE64:
                fixups.append((rel["r_offset"], addend))
                relative.append(True)
            elif t == R_AMDGPU_ABS64 and symtab is not None:
                sym = symtab.get_symbol(rel["r_info_sym"])
                if sym["st_shndx"] == "SHN_UNDEF":
                    raise EmulatorError(f"code object relocation against the undefined symbol "
                                        f"{sym.name!r}; the emulator has no loader to resolve it")
                fixups.append((rel["r_offset"], sym["st_value"] + addend))
                relative.append(True)
            else:
                raise EmulatorError(f"code object relocation type {t} at 0x{rel['r_offset']:x} "
                                    f"is not supported by the emulator's loader")
    return Image(tuple(segs), tuple(fixups), tuple(relative))


def map_image(mem: Memory, img: Image) -> list[tuple[Region, Segment]]:
    """Add the image's segments to ``mem`` (before ``finalize``)."""
    return [(mem.add(f"<code object {s.name}>", s.memsz, s.writable, base=CODE_BASE + s.vaddr), s)
            for s in img.segments]


def fill_image(mem: Memory, mapped: list[tuple[Region, Segment]], img: Image,
               state: dict[int, bytearray] | None = None) -> None:
    """Copy segment bytes and apply the relocations (after ``finalize``); segments present in
    ``state`` (a loaded module's current bytes, already relocated) come from there."""
    state = state or {}
    for r, s in mapped:
        v = mem.view(r)
        v[:] = np.frombuffer(bytes(initial_segment(img, s) if s.vaddr not in state
                                   else state[s.vaddr]), np.uint8)


def initial_segment(img: Image, seg: Segment) -> bytearray:
    """A segment as the loader leaves it: file bytes, zero fill to p_memsz, relocations
    applied (values relative to ``CODE_BASE``)."""
    out = bytearray(seg.memsz)
    out[:len(seg.data)] = seg.data
    for (vaddr, value), rel in zip(img.fixups, img.relative):
        if seg.vaddr <= vaddr and vaddr + 8 <= seg.vaddr + seg.memsz:
            o = vaddr - seg.vaddr
            out[o:o + 8] = struct.pack("<Q", (CODE_BASE if rel else 0) + value)
        elif not any(s.vaddr <= vaddr < s.vaddr + s.memsz for s in img.segments):
            raise EmulatorError(f"code object relocation at 0x{vaddr:x} lies outside its segments")
    return out


def capture(mem: Memory, mapped: list[tuple[Region, Segment]],
            state: dict[int, bytearray]) -> None:
    """After a completed launch: keep every writable segment's bytes in ``state``."""
    for r, s in mapped:
        if s.writable:
            state[s.vaddr] = bytearray(mem.view(r).tobytes())


def segment_of(img: Image, vaddr: int, size: int) -> Segment:
    """The loadable segment holding ``[vaddr, vaddr + size)``."""
    for s in img.segments:
        if s.vaddr <= vaddr and vaddr + size <= s.vaddr + s.memsz:
            return s
    raise EmulatorError(f"0x{vaddr:x}+{size} is in no loadable segment of the code object")
