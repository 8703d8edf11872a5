"""Device printf on the emulator: the hidden printf buffer, read back after the launch.

Why: HIP kernels print. The workbench compiles device printf with clang's buffered lowering
(``-mprintf-kind=buffered``; llvm/lib/Transforms/Utils/AMDGPUEmitPrintf.cpp): each call reserves
a frame through ``__printf_alloc`` (hipwb/devlib) in the buffer whose address is the kernel's
``hidden_printf_buffer`` argument, and the format strings are in the code object's
``amdhsa.printf`` metadata as ``"0:0:<md5 low 64 bits, hex>,<format>"``. The buffer starts with
a uint32 write offset and a uint32 size; frames follow from byte 8:

    uint32 control   bit 0: stderr, bit 1: the format is a constant, bits 2..31: frame bytes
    uint64 hash      (constant format) — or the format string itself, NUL-padded to 8 bytes
    arguments        %s: the string's bytes with NUL, padded to 8; others: 8 bytes each
                     (32-bit integers zero-extended, float widened to double)

Frames are in allocation order: the emulator runs a wave's lanes in lane order and advances the
waves that stand at the same instruction together, in wave order, so each printf call prints
for all those waves (by wave, then lane) before the next call's lines.
"""
from __future__ import annotations

import re
import struct
from dataclasses import dataclass

# Bytes of the printf buffer per launch (module setting; ``printf_buffer=`` per launch). Frames
# past it are dropped (printf returns -1); the launch then reports how much (``overflow``).
PRINTF_BUFFER_BYTES = 1 << 20
MAX_PRINTF_BUFFER_BYTES = (1 << 32) - 1  # the header's size field is a uint32
_SPEC = re.compile(r"%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d+))?(hh|h|ll|l|j|z|t|L)?"
                   r"([diouxXfFeEgGaAcspn%])")


def formats(metadata: dict) -> dict[int, str]:
    """hash -> format string, from a code object's decoded metadata (``amdhsa.printf``)."""
    out: dict[int, str] = {}
    for entry in metadata.get("amdhsa.printf", ()) or ():
        head, _, fmt = str(entry).partition(",")
        parts = head.split(":")
        try:
            out[int(parts[-1], 16)] = fmt
        except ValueError:
            continue
    return out


def buffer_size(value: int | None) -> int:
    """The printf buffer's bytes for a launch: ``value`` (the ``printf_buffer=`` keyword)
    checked, or the module setting ``PRINTF_BUFFER_BYTES`` when None."""
    from ...errors import LaunchError

    if value is None:
        value = PRINTF_BUFFER_BYTES
    if isinstance(value, bool) or not isinstance(value, int) \
            or not 64 <= value <= MAX_PRINTF_BUFFER_BYTES:
        raise LaunchError(f"printf_buffer= takes a number of bytes from 64 to "
                          f"{MAX_PRINTF_BUFFER_BYTES:,} (the header's size is a uint32), got "
                          f"{value!r}")
    return int(value)


@dataclass(frozen=True)
class Overflow:
    """What a full printf buffer dropped: every frame past its end. ``__printf_alloc`` still
    advances the write offset for them, so the bytes asked for are known exactly (modulo 4 GiB:
    the offset is a uint32); the number of dropped lines is estimated at the kept frames' mean
    size."""

    size: int  # bytes of the buffer (header included)
    requested: int  # frame bytes all printf calls asked for
    kept: int  # bytes of the frames that fit
    kept_frames: int

    @property
    def dropped(self) -> int:
        return self.requested - self.kept

    @property
    def dropped_frames(self) -> int:
        """About how many printf calls were dropped (at the kept frames' mean size)."""
        return round(self.dropped * self.kept_frames / self.kept) if self.kept else 0

    def message(self) -> str:
        """One line: how much was dropped and the ``printf_buffer=`` that holds it all."""
        need = -(-(8 + self.requested) // (1 << 20)) << 20  # whole MiB
        lines = self.dropped_frames
        more = f", about {lines:,} printf calls" if lines else ""
        return (f"[hipwb] device printf: the {self.size:,}-byte printf buffer overflowed and "
                f"{self.dropped:,} of {self.requested:,} bytes of output were dropped{more} "
                f"({self.kept_frames:,} printed). To get it all, launch with "
                f"printf_buffer={need:_} (bytes), or set "
                f"workbench.emu.engine.printf.PRINTF_BUFFER_BYTES")


def overflow(buf: bytes) -> Overflow | None:
    """The Overflow of a printf buffer (the whole buffer), or None when everything fit."""
    used, size = struct.unpack_from("<II", buf, 0)
    if 8 + used <= size:
        return None
    end = min(size, len(buf))
    pos, frames = 8, 0
    while pos + 4 <= end:
        n = struct.unpack_from("<I", buf, pos)[0] >> 2
        if n < 4 or pos + n > end:
            break
        pos += n
        frames += 1
    return Overflow(size, used, pos - 8, frames)


def header(size: int = PRINTF_BUFFER_BYTES) -> bytes:
    """The buffer's initial 8 bytes: write offset 0, total size."""
    return struct.pack("<II", 0, size)


def decode(buf: bytes, fmts: dict[int, str]) -> list[str]:
    """The printed text of every complete frame in ``buf`` (the whole buffer, header included)."""
    used, size = struct.unpack_from("<II", buf, 0)
    end = min(8 + used, size, len(buf))
    pos, out = 8, []
    while pos + 4 <= end:
        ctrl = struct.unpack_from("<I", buf, pos)[0]
        n = ctrl >> 2
        if n < 4 or pos + n > end:
            break
        frame = buf[pos + 4:pos + n]
        pos += n
        if ctrl & 2:
            h = struct.unpack_from("<Q", frame, 0)[0]
            fmt = fmts.get(h)
            rest = frame[8:]
            if fmt is None:
                out.append(f"<printf: format {h:016x} not in the code object's metadata>")
                continue
        else:
            fmt, used_n = _cstring(frame, 0)
            rest = frame[used_n:]
        out.append(format_frame(fmt, rest))
    return out


def _cstring(b: bytes, at: int) -> tuple[str, int]:
    """The NUL-terminated string at ``at`` and the bytes it occupies (padded to 8)."""
    nul = b.find(b"\0", at)
    nul = len(b) if nul < 0 else nul
    s = b[at:nul].decode("utf-8", "replace")
    return s, (nul - at + 1 + 7) // 8 * 8


def format_frame(fmt: str, args: bytes) -> str:
    """C printf formatting of one frame's arguments (as the frame stores them)."""
    pos = 0

    def word() -> int:
        nonlocal pos
        v = struct.unpack_from("<Q", args, pos)[0] if pos + 8 <= len(args) else 0
        pos += 8
        return v

    def one(m: re.Match) -> str:
        nonlocal pos
        flags, width, prec, length, conv = m.groups()
        if conv == "%":
            return "%"
        if width == "*":
            width = str(_signed(word(), 32))
        if prec == "*":
            prec = str(_signed(word(), 32))
        spec = "%" + flags + (width or "") + (f".{prec}" if prec is not None else "")
        if conv == "s":
            if pos >= len(args):
                return (spec + "s") % ""
            s, n = _cstring(args, pos)
            pos += n
            return (spec + "s") % s
        v = word()
        bits = 64 if length in ("ll", "l", "j", "z", "t") else 32
        if conv in "di":
            return (spec + "d") % _signed(v, bits)
        if conv in "ouxX":
            u = v & ((1 << bits) - 1)
            if u == 0:  # C's '#' adds no 0x prefix to zero (Python's does)
                spec = spec.replace("#", "")
            return (spec + ("d" if conv == "u" else conv)) % u
        if conv == "c":
            return (spec + "c") % chr(v & 0xFF)
        if conv == "p":
            return (spec + "s") % f"0x{v:x}"
        if conv == "n":
            return ""
        d = struct.unpack("<d", struct.pack("<Q", v))[0]
        if conv in "aA":
            return (spec + "s") % (d.hex() if conv == "a" else d.hex().upper())
        return (spec + conv) % d

    return _SPEC.sub(one, fmt)


def _signed(v: int, bits: int) -> int:
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v
