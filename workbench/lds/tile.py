"""`SharedTile`: a 2-D array in LDS, (row, col) -> byte address, with padding and swizzles.

Why: most LDS bank-conflict questions are "which layout of this tile makes these lane reads
conflict-free?" - answering them needs only the address map, no compiled kernel.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..errors import ArgumentIndexError, ArgumentTypeError, ArgumentValueError

__all__ = ["SharedTile", "XorSwizzle", "element_size"]

# Element sizes in bytes of the dtype names the workbench uses (and numpy's).
_SIZES = {
    "f64": 8, "fp64": 8, "float64": 8, "double": 8, "i64": 8, "int64": 8, "u64": 8, "uint64": 8,
    "f32": 4, "fp32": 4, "float32": 4, "float": 4, "xf32": 4, "tf32": 4, "i32": 4, "int32": 4,
    "u32": 4, "uint32": 4,
    "f16": 2, "fp16": 2, "float16": 2, "half": 2, "bf16": 2, "bfloat16": 2, "i16": 2,
    "int16": 2, "u16": 2, "uint16": 2,
    "fp8": 1, "f8": 1, "bf8": 1, "e4m3": 1, "e5m2": 1, "fp8_e4m3": 1, "fp8_e5m2": 1,
    "e4m3fnuz": 1, "e5m2fnuz": 1, "i8": 1, "int8": 1, "u8": 1, "uint8": 1, "iu8": 1,
}


def element_size(dtype) -> int:
    """Bytes per element of ``dtype`` (a name like ``"bf16"``/``"f32"`` or a numpy dtype)."""
    if isinstance(dtype, str) and dtype.strip().lower() in _SIZES:
        return _SIZES[dtype.strip().lower()]
    try:
        size = np.dtype(dtype).itemsize
    except TypeError:
        size = 0
    if size <= 0:
        raise ArgumentValueError(
            f"unknown element dtype {dtype!r}; use a name such as 'f32', 'bf16', "
            f"'f16', 'fp8', 'i8' or a numpy dtype (sub-byte types are not supported)")
    return int(size)


@dataclass(frozen=True)
class XorSwizzle:
    """XOR the chunk index of a row with a key taken from the row number.

    ``chunk' = chunk ^ ((row // rows_per_key) % n)`` where ``chunk`` is the column's
    ``chunk_bytes``-sized chunk inside its row. The usual forms:

    * CK's XOR preshuffle ``x' = (y mod (KPerBlock/KPack)) XOR x`` on KPack-element vectors
      (CK-LDS, composable_kernel lds_bank_conflicts.rst): ``XorSwizzle(n=KPerBlock//KPack,
      chunk_bytes=KPack*elem_bytes)``, e.g. fp16 rows of 64 with KPack 8 -> ``XorSwizzle(8)``.
    * HipKittens ``st_16x32`` bf16 (64-byte rows): ``offset ^ (((offset % 1024) >> 9) << 5)``
      flips the 32-byte half of a row every 8 rows (HazyResearch/HipKittens
      include/types/shared/st_shape.cuh): ``XorSwizzle(n=2, chunk_bytes=32, rows_per_key=8)``;
      ``st_16x16`` bf16: ``offset ^ (((offset % 512) >> 7) << 3)`` =
      ``XorSwizzle(n=4, chunk_bytes=8, rows_per_key=4)``.

    ``rows_per_key`` > 1 serves rows shorter than one pass over the banks (several rows share a
    bank line, so they share a key). ``n`` must be a power of two so the XOR stays inside the row.
    """

    n: int
    chunk_bytes: int = 16
    rows_per_key: int = 1

    def __post_init__(self) -> None:
        for name in ("n", "chunk_bytes", "rows_per_key"):
            v = getattr(self, name)
            if not isinstance(v, (int, np.integer)) or v < 1:
                raise ArgumentValueError(f"XorSwizzle: {name} must be a positive int, got {v!r}")
        if self.n & (self.n - 1):
            raise ArgumentValueError(f"XorSwizzle: n={self.n} must be a power of two (the XOR of a "
                                     "chunk index with a key < n must stay inside the row)")

    def __call__(self, row, chunk):
        row = np.asarray(row)
        return np.asarray(chunk) ^ ((row // self.rows_per_key) % self.n)

    def __str__(self) -> str:
        key = "row" if self.rows_per_key == 1 else f"(row // {self.rows_per_key})"
        return f"{self.chunk_bytes}-byte chunk ^ ({key} % {self.n})"


Swizzle = XorSwizzle | Callable


class SharedTile:
    """A row-major ``rows x cols`` tile of ``dtype`` in LDS starting at byte ``base``.

    ``padding`` adds that many elements after each row (row pitch = (cols + padding) elements).
    ``swizzle`` permutes the ``chunk_bytes`` chunks inside each row as a function of the row:
    an ``XorSwizzle`` or a callable ``f(row, chunk) -> chunk`` on numpy int arrays (its chunk size
    is 16 bytes unless it has a ``chunk_bytes`` attribute). ``address(row, col)`` is vectorised.
    """

    def __init__(self, shape: tuple[int, int], dtype="f32", padding: int = 0,
                 swizzle: Swizzle | None = None, base: int = 0) -> None:
        if (not isinstance(shape, (tuple, list)) or len(shape) != 2
                or any(not isinstance(s, (int, np.integer)) or isinstance(s, bool) or s < 1
                       for s in shape)):
            raise ArgumentValueError(
                f"SharedTile: shape must be (rows, cols) of positive ints, got "
                f"{shape!r}")
        if not isinstance(padding, (int, np.integer)) or padding < 0:
            raise ArgumentValueError(
                f"SharedTile: padding must be a non-negative int (elements per "
                f"row), got {padding!r}")
        if not isinstance(base, (int, np.integer)) or base < 0:
            raise ArgumentValueError(
                f"SharedTile: base must be a non-negative byte address, got {base!r}")
        self.rows, self.cols = int(shape[0]), int(shape[1])
        self.dtype = dtype
        self.elem_bytes = element_size(dtype)
        self.padding = int(padding)
        self.base = int(base)
        self.swizzle = swizzle
        self.chunk_bytes = int(getattr(swizzle, "chunk_bytes", 16)) if swizzle else 0
        row_bytes = self.cols * self.elem_bytes
        if swizzle is not None:
            if not callable(swizzle):
                raise ArgumentTypeError(f"SharedTile: swizzle must be an XorSwizzle or a callable "
                                        f"f(row, chunk) -> chunk, got {type(swizzle).__name__}")
            cb = self.chunk_bytes
            if cb < self.elem_bytes or cb % self.elem_bytes:
                raise ArgumentValueError(f"SharedTile: swizzle chunk of {cb} B must hold whole "
                                         f"{self.elem_bytes}-byte elements")
            if row_bytes % cb:
                raise ArgumentValueError(
                    f"SharedTile: a row of {self.cols} x {self.elem_bytes} B = "
                    f"{row_bytes} B is not a whole number of {cb}-byte swizzle "
                    "chunks")
            if isinstance(swizzle, XorSwizzle) and (row_bytes // cb) % swizzle.n:
                raise ArgumentValueError(
                    f"SharedTile: XorSwizzle n={swizzle.n} needs the row's {row_bytes // cb} "
                    f"chunks to be a multiple of {swizzle.n}")

    @property
    def shape(self) -> tuple[int, int]:
        return (self.rows, self.cols)

    @property
    def pitch(self) -> int:
        """Bytes from one row to the next."""
        return (self.cols + self.padding) * self.elem_bytes

    @property
    def nbytes(self) -> int:
        """LDS bytes the tile spans (rows x pitch)."""
        return self.rows * self.pitch

    def address(self, row, col) -> np.ndarray | int:
        """Byte address of element (row, col); arrays broadcast. Raises on out-of-range indices."""
        r = np.asarray(row)
        c = np.asarray(col)
        for name, v, lim in (("row", r, self.rows), ("col", c, self.cols)):
            if not np.issubdtype(v.dtype, np.integer):
                raise ArgumentTypeError(f"{self!r}: {name} indices must be integers, got {v.dtype}")
            bad = (v < 0) | (v >= lim)
            if np.any(bad):
                val = int(v[bad].flat[0]) if v.ndim else int(v)
                raise ArgumentIndexError(f"{self!r}: {name} {val} out of range 0..{lim - 1}")
        r, c = np.broadcast_arrays(r.astype(np.int64), c.astype(np.int64))
        byte = c * self.elem_bytes
        if self.swizzle is not None:
            cb = self.chunk_bytes
            chunk, within = byte // cb, byte % cb
            new = np.asarray(self.swizzle(r, chunk)).astype(np.int64)
            nchunks = self.cols * self.elem_bytes // cb
            bad = (new < 0) | (new >= nchunks)
            if np.any(bad):
                rr, ch, nw = np.broadcast_arrays(r, chunk, new)
                j = int(np.flatnonzero(np.ravel(bad))[0])
                raise ArgumentValueError(f"{self!r}: swizzle maps row {int(np.ravel(rr)[j])} chunk "
                                         f"{int(np.ravel(ch)[j])} to chunk {int(np.ravel(nw)[j])}, "
                                         f"outside 0..{nchunks - 1}")
            byte = new * cb + within
        out = self.base + r * self.pitch + byte
        return int(out) if out.ndim == 0 else out

    def _key(self) -> tuple:
        return (self.rows, self.cols, self.elem_bytes, str(self.dtype), self.padding, self.base,
                self.swizzle)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SharedTile):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        pad = f", padding {self.padding}" if self.padding else ""
        swz = f", swizzle {self.swizzle}" if self.swizzle is not None else ""
        base = f", base {self.base}" if self.base else ""
        return (f"SharedTile({self.rows}x{self.cols} {self.dtype}, pitch {self.pitch} B{pad}"
                f"{swz}{base})")
