"""gfx950 transposing LDS reads: ds_read_b64_tr_b16 / _b8 / _b4 and ds_read_b96_tr_b6.

What the hardware does (CDNA4 ISA §11.4 "MFMA Transpose Load from LDS": "read N bits of data
per lane from data share, interpret the data as a matrix with <b>-bit elements and transpose
the matrix"; "each lane holds 4 consecutive M or N values" for b16): every lane reads
``nbytes`` (8, or 12 for b6) at its own address, like ds_read_b64/b96; then, within each group
of 16 lanes, the loaded data is one row-major tile of E rows x 16 columns of b-bit elements
(E = 64/b elements per lane, 16 for b6), row r made of lanes r*L .. r*L+L-1 of the group
(L = lanes per row = 16*b / (8*nbytes)), and lane j of the group receives column j:

    result[j] element r = loaded[lane r*L + j // E] element (j mod E),  r = 0 .. E-1

packed little-endian at bit r*b of the destination registers (2, or 3 for b6).

Sources for the exchange (the ISA text is about the MFMA use, not this formula): AMD's own GPU
tests of all four instructions, ROCm rocm-libraries shared/rocroller/test/unit/
TransposeLoadsTest.cpp (TransposeInstructionsTest B16/B8/B6/B4 "GPUTest"s, run on hardware with
the HasDSReadTransposeB* capabilities): their expected index maps reduce to exactly
``result[j][r] = tile[r][j]`` above (fp6 packed little-endian, 16 per 96 bits; fp4 low nibble
first, as their packF6x16/packFP4x8); triton's "16 is the number of lanes that participate in
the data shuffle" (AMD TransLocalLoadOpConversion); Modular's ds_read_tr8_b64 docs ("each
16-lane row reads 16x8 bytes and performs two interleaved 8x8 byte transposes").
ds_read_b96_tr_b6 needs 16-byte aligned addresses (the rocRoller test pads each 96-bit row to
128 bits: "DS_READ_B96_TR_B6 requires 128b-aligned addresses"); the emulator faults on a
misaligned one. It also requires a full EXEC mask (clang never emits these under divergence;
the exchange with an inactive lane is undefined) and refuses anything else.
"""
from __future__ import annotations

from functools import cache

import numpy as np

from ...decoder.operands import row_of
from ...decoder.registry import Decoded, semantic
from ...errors import EmulatorError
from .ds import _addr_reader, _allowed, _offset, lds_offsets
from .memops import gather

U32 = np.uint32
# mnemonic -> (bytes read per lane, element bits)
TRANSPOSED = {"ds_read_b64_tr_b16": (8, 16), "ds_read_b64_tr_b8": (8, 8),
              "ds_read_b64_tr_b4": (8, 4), "ds_read_b96_tr_b6": (12, 6)}


@cache
def exchange(nbytes: int, bits: int) -> tuple[np.ndarray, np.ndarray]:
    """(source lane [64, E], source element [64, E]) of each result element of a wave."""
    per_lane = 8 * nbytes // bits  # E: elements a lane loads (and receives)
    lanes_per_row = 16 * bits // (8 * nbytes)  # L
    j = np.arange(64)[:, None]
    r = np.arange(per_lane)[None, :]
    src_lane = 16 * (j // 16) + r * lanes_per_row + (j % 16) // per_lane
    src_elem = np.broadcast_to((j % 16) % per_lane, src_lane.shape)
    return src_lane.astype(np.int64), np.ascontiguousarray(src_elem, np.int64)


@cache
def _flat_exchange(nbytes: int, bits: int) -> np.ndarray:
    """Flat element index (lane * E + element) of each result element, [64 * E]."""
    lane, elem = exchange(nbytes, bits)
    return (lane * (8 * nbytes // bits) + elem).reshape(-1)


def transpose_bits(words: np.ndarray, nbytes: int, bits: int) -> np.ndarray:
    """Loaded data uint32 [w, 64, nbytes/4] -> transposed data of the same shape."""
    w = words.shape[0]
    if bits in (8, 16):  # whole bytes / half-words: one gather of typed elements
        el = np.ascontiguousarray(words, U32).view(np.uint8 if bits == 8 else np.uint16)
        out = np.take(el.reshape(w, -1), _flat_exchange(nbytes, bits), axis=1)
        return out.view(U32).reshape(words.shape)
    per_lane = 8 * nbytes // bits
    b = np.unpackbits(np.ascontiguousarray(words, U32).view(np.uint8), axis=-1,
                      bitorder="little").reshape(w, 64, per_lane, bits)
    lane, elem = exchange(nbytes, bits)
    out = b[:, lane, elem, :]  # [w, 64, E, bits]
    packed = np.packbits(out.reshape(w, 64, per_lane * bits), axis=-1, bitorder="little")
    return np.ascontiguousarray(packed).view(U32).reshape(words.shape)


def _build_tr(d: Decoded):
    _allowed(d)
    nbytes, bits = TRANSPOSED[d.base]
    dst, vaddr = d.ops
    ra = _addr_reader(d, vaddr, _offset(d))
    row = row_of(dst, d.kernel.n_vgpr)
    ndw = nbytes // 4
    align = 16 if nbytes == 12 else 1

    def run(st, g):
        if not st.EM[g.ix].all():
            raise EmulatorError(f"`{d.inst.text}` at pc 0x{d.addr:x} executed with a partial "
                                "EXEC mask; the 16-lane exchange of a transposing LDS read "
                                "with inactive lanes is not modelled")
        a = ra(st, g)
        if align > 1 and (a % align).any():
            bad = (a % align) != 0
            w_, lane = (int(x[0]) for x in np.nonzero(bad))
            raise EmulatorError(f"`{d.inst.text}` at pc 0x{d.addr:x}: lane {lane} reads LDS "
                                f"address {int(a[w_, lane])}, which is not {align}-byte "
                                f"aligned ({d.base} needs 128-bit aligned addresses)")
        if st.trace is not None:
            st.trace.ds(st, g, d, a, nbytes)
        o = lds_offsets(st, g, d, a, None, nbytes, False)
        v = transpose_bits(gather(st.lds_flat, st.lds32_flat, o, nbytes), nbytes, bits)
        for k in range(ndw):
            st.vwrite(row + k, g, v[..., k])
    return run


semantic(*TRANSPOSED)(_build_tr)
