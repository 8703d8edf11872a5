"""Where a MUBUF access through a V# goes, and whether it is in range (used by ``memory.buffer``
and by ``memory.ldsdma``'s buffer form): the V# fields, linear and swizzled buffer addressing
and the range check of each ISA generation.

Sources: CDNA4 ISA (gfx950) §9.1.5 "Buffer Addressing" (Tables 44-45), §9.1.5.1 "Range
Checking", §9.1.5.2 "Swizzled Buffer Addressing", §9.1.8 "Buffer Resource" (Table 48) and §9.1.9
"Memory Buffer Load to LDS"; gfx942 (CDNA3, "MI300" ISA) is taken to follow the same rules (its
V# layout is the same gfx9 one). RDNA4 ISA (gfx12) §9.4 "Buffer Addressing" (Tables 53-54),
§9.4.1 "Range Checking" (Table 56 "Buffer Out Of Bounds Selection"), §9.4.2 "Swizzled Buffer
Addressing", §9.6 "Buffer Resource" (Table 57); RDNA3.5 ISA §9.4.2 and §9.6 (Table 47) for gfx11.

V# fields (dword 0-1: base [47:0], stride [61:48]; dword 2: num_records; dword 3 below):

=================  =====================================  ===================================
field              gfx9 (CDNA3/CDNA4, Table 48)           gfx11 / gfx12 (Table 47 / Table 57)
=================  =====================================  ===================================
swizzle enable     [63] (1 bit; [62] is cache swizzle)    [63:62]: 0 off, 1 = 4-byte elements,
                                                          2 reserved, 3 = 16-byte elements
data format        dword 3 [18:15] (DFMT)                 dword 3 [17:12] (FORMAT, 6 bits)
stride scale       —                                      gfx12: dword 3 [19:18], x1/x4/x8/x32
index stride       dword 3 [22:21]: 8, 16, 32, 64         the same
add_tid_enable     dword 3 [23]                           the same
OOB_SELECT         —                                      dword 3 [29:28]
=================  =====================================  ===================================

gfx9 has no element-size field (Table 48 has user-VM enable/mode at [116:115]), so swizzled
addressing on gfx9 is refused. With add_tid_enable, a non-format MUBUF's stride is 18 bits:
``{DFMT[3:0], stride[13:0]}`` (Table 45), and DFMT 0 is then not an unbound resource.

Addressing (both generations, Tables 44/53): ``index = (idxen ? vgpr_index : 0) + (add_tid ?
lane id : 0)``, ``offset = (offen ? vgpr_offset : 0) + inst_offset`` (with ``idxen offen`` the
index is the first VGPR of the pair, the offset the second). Linear:
``address = base + sgpr_offset + index * stride + offset``. Swizzled (§9.1.5.2 / §9.4.2):
``index_msb, index_lsb = divmod(index, index_stride)``, ``offset_msb, offset_lsb =
divmod(offset, element_size)``, ``buffer_offset = (index_msb * stride + offset_msb *
element_size) * index_stride + index_lsb * element_size + offset_lsb``; on gfx9 and gfx11 the
sgpr_offset is "in the base" (``address = base + sgpr_offset + buffer_offset``), on gfx12 it is
part of ``total_offset = (vgpr_offset + inst_offset + sgpr_offset) & 0xffffffff`` before the
split (``address = base + buffer_offset``). Wider accesses address their dwords linearly from
the first one (RDNA4 §9.4.2: "addresses to higher dwords are offset linearly").

Range check, per dword for dwordx2/x3/x4 and all or nothing for atomics (the caller passes one
piece per dword, or one piece for an atomic); out-of-range loads return 0, stores and atomics
are dropped (§9.1.5.1, §9.4.1 notes):

* gfx9 (§9.1.5.1): raw (add_tid 0, swizzle 0, idxen 0): out if ``offset + payload >
  num_records`` (bytes; the bytes of the piece, the convention this module has always used,
  LLVM AMDGPUUsage "Relaxed Buffer OOB Mode": each 32-bit word independently); structured
  (add_tid 0, stride != 0, idxen 1): out if ``index >= num_records``; private (add_tid 1,
  idxen 0): no range check. Any other combination is not in the table and is refused.
* gfx11/gfx12 by OOB_SELECT (RDNA4 Table 56; gfx11 taken to be the same, the RDNA3.5 text
  around it matches): 0 — ``index >= num_records or offset + payload > stride``; 1 — ``index >=
  num_records``; 2 — ``num_records == 0``; 3 — with swizzle and stride != 0 as 0, otherwise
  ``offset + payload > num_records``, where on gfx12 "num_records is reduced by sgpr_offset".
  On gfx11 the sgpr_offset stays outside the check (LLVM IntrinsicsAMDGPU.td: "soffset
  (excluded from bounds checking and swizzling)").

One assumption, warned about (``EmulatorAssumption``) where a kernel relies on it: a gfx9
swizzle_en V# accessed with no index is addressed linearly with the raw range check (see
``ASSUMED_LINEAR``: HipKittens' validated GEMMs do exactly this).

Refused by name, because the guides leave them undefined: gfx9 swizzle_en with an index (no
element size),
the gfx9 combinations outside the range-check table, swizzle enable 2 ("Reserved"), a swizzled
access larger than the element size ("A single fetch instruction must not fetch a unit larger
than const_element_size"), a stride that is not a multiple of the element size, 16-byte accesses
with 16-byte elements on gfx12 ("16-byte elements are not supported with const_swizzle_en==3"),
and on gfx11 a swizzled access that is not dword aligned ("Swizzled addressing also requires
DWORD-aligned accesses") or crosses an element.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...decoder.operands import row_of, sread32
from ...decoder.registry import Decoded
from ...errors import BufferResourceError, UnknownInstruction

U32, U64, I64 = np.uint32, np.uint64, np.int64
LANE = np.arange(64, dtype=I64)[None, :]
_ELEMENT = np.array([0, 4, -1, 16], I64)  # RDNA swizzle enable -> element size (-1: reserved)
_SCALE = np.array([1, 4, 8, 32], I64)  # RDNA4 stride scale


class Resource(NamedTuple):
    """The V# of each wave of a group ([w] arrays)."""

    words: tuple  # the four dwords, uint32
    base: np.ndarray  # uint64
    stride: np.ndarray  # int64, effective (gfx9 add_tid: 18 bits; gfx12: scaled)
    nrec: np.ndarray  # int64
    esize: np.ndarray  # int64: 0 linear, 4 or 16 swizzled (-1 reserved, -2 gfx9 swizzle_en)
    istride: np.ndarray  # int64: 8, 16, 32, 64
    tid: np.ndarray  # bool: add_tid_enable
    oob: np.ndarray  # int64: OOB_SELECT (gfx11/12), -1 on gfx9
    fmt: np.ndarray  # int64: data format (gfx9 DFMT, RDNA FORMAT)


def resource(words, gen: int) -> Resource:
    """Decode four [w] uint32 dwords of V#s for ISA generation ``gen`` (9, 11, 12)."""
    w0, w1, w2, w3 = words
    base = w0.astype(U64) | ((w1 & U32(0xFFFF)).astype(U64) << U64(32))
    stride = ((w1 >> U32(16)) & U32(0x3FFF)).astype(I64)
    istride = np.left_shift(8, ((w3 >> U32(21)) & U32(3)).astype(I64))
    tid = ((w3 >> U32(23)) & U32(1)) != 0
    if gen < 10:
        fmt = ((w3 >> U32(15)) & U32(0xF)).astype(I64)
        stride = np.where(tid, stride | (fmt << 14), stride)
        esize = np.where((w1 >> U32(31)) != 0, -2, 0).astype(I64)
        oob = np.full(stride.shape, -1, I64)
    else:
        fmt = ((w3 >> U32(12)) & U32(0x3F)).astype(I64)
        if gen >= 12:
            stride = stride * _SCALE[((w3 >> U32(18)) & U32(3)).astype(I64)]
        esize = _ELEMENT[(w1 >> U32(30)).astype(I64)]
        oob = ((w3 >> U32(28)) & U32(3)).astype(I64)
    return Resource(tuple(words), base, stride, w2.astype(I64), esize, istride, tid, oob, fmt)


def describe(r: Resource, wv: int, gen: int) -> str:
    """The V# of wave ``wv`` as raw dwords and named fields (for error messages)."""
    raw = " ".join(f"0x{int(x[wv]):08x}" for x in r.words)
    f = (f"base 0x{int(r.base[wv]):x}, stride {int(r.stride[wv])}, num_records "
         f"{int(r.nrec[wv])}, add_tid_enable {int(r.tid[wv])}, index_stride "
         f"{int(r.istride[wv])}")
    if gen < 10:
        f += f", swizzle_en {int(r.esize[wv] != 0)}, data format {int(r.fmt[wv])}"
    else:
        swz = int(r.words[1][wv]) >> 30
        f += f", swizzle_en {swz}, format {int(r.fmt[wv])}, OOB_SELECT {int(r.oob[wv])}"
    return f"[{raw}] ({f})"


# gfx9 swizzle_en with no index (no idxen, no add_tid): the guides give no element size, so
# the swizzled formula cannot be evaluated; with index 0 it would still move every offset by a
# factor index_stride, and HipKittens' GEMMs (HazyResearch/HipKittens, kernels/gemm/bf16fp32:
# make_srsrc sets stride, cache swizzle and swizzle enable, then issues offen-only loads),
# validated against torch on MI325X and MI355X, read their tiles correctly. So the hardware
# addresses such an access linearly; it is modelled that way (raw range check), and each kernel
# that does it is told once, as an assumption, not a documented rule.
ASSUMED_LINEAR = ("gfx9 V# with swizzle_en and no index (no idxen, no add_tid): addressed "
                  "linearly as a raw buffer. The ISA guide (CDNA4 Table 48: no element-size "
                  "field) leaves it undefined; linear is what HipKittens' GEMMs, validated on "
                  "MI325X/MI355X, rely on")


def _assume_linear(st, d: Decoded) -> None:
    import warnings

    from ...errors import EmulatorAssumption

    name = st.launch.kernel_name if getattr(st, "launch", None) is not None else "?"
    warnings.warn(f"kernel {name!r}: {ASSUMED_LINEAR}", EmulatorAssumption, stacklevel=2)


class Access:
    """One buffer instruction's addressing: its operands, read per lock-step group.

    ``payload``: the bytes one lane moves (the element a swizzled access must fit in)."""

    def __init__(self, d: Decoded, vaddr, srsrc, soff, payload: int):
        if srsrc.kind != "s" or srsrc.n != 4:
            raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "resource is not s[n:n+3]")
        self.idxen, self.offen = bool(d.mods.get("idxen")), bool(d.mods.get("offen"))
        need = int(self.idxen) + int(self.offen)
        if need != (vaddr.n if vaddr.kind == "v" else 0):
            raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text,
                                     f"vaddr {vaddr.text} does not match idxen/offen (needs "
                                     f"{need} VGPRs)")
        nv = d.kernel.n_vgpr
        self.vidx = row_of(vaddr, nv, 0) if self.idxen else None
        self.voff = row_of(vaddr, nv, int(self.idxen)) if self.offen else None
        self.d, self.s0, self.gen = d, srsrc.idx, d.kernel.gen
        self.imm = int(d.mods.get("offset", 0))
        self.soff = sread32(soff)
        self.payload = payload

    # ---- refusals -----------------------------------------------------------------------
    def _refuse(self, st, g, r: Resource, bad, why: str):
        """Raise for the first wave with ``bad`` ([w] or [w, 64]) set."""
        bad = np.asarray(bad)
        wv = int(np.argwhere(bad.any(axis=1) if bad.ndim == 2 else bad)[0, 0])
        d = self.d
        wave = int(g.waves[wv])
        name = st.launch.kernel_name if getattr(st, "launch", None) is not None else "?"
        loc = f" ({d.inst.location()})" if d.inst.location() else ""
        wg = tuple(int(x) for x in st.wg_global[wave])
        lanes = ""
        if bad.ndim == 2:
            ln = [int(x) for x in np.flatnonzero(bad[wv])]
            lanes = f", lanes {ln if len(ln) <= 8 else ln[:8] + ['...']}"
        s0 = self.s0
        raise BufferResourceError(
            f"kernel {name!r}: {d.mnemonic} at pc 0x{d.addr:x}{loc}: buffer resource "
            f"s[{s0}:{s0 + 3}] = {describe(r, wv, self.gen)} of wave "
            f"{int(st.wave_in_wg[wave])} in workgroup {wg}{lanes}: {why}: `{d.inst.text}`",
            kernel=name, pc=d.addr, instruction=d.inst.text,
            resource=tuple(int(x[wv]) for x in r.words))

    def _check_resource(self, st, g, r: Resource, em):
        live = em.any(axis=1)
        nb = self.payload

        def need(bad, why):
            bad = bad & live
            if bad.any():
                self._refuse(st, g, r, bad, why)

        if self.gen < 10:
            need((r.fmt == 0) & ~r.tid,
                 "data format 0 (BUF_DATA_FORMAT_INVALID, an unbound resource) in V# dword 3 "
                 "[18:15]; make_buffer_rsrc flags 0x00020000 (data format 32) is the gfx9 "
                 "convention")
            indexed = r.tid | self.idxen
            need((r.esize != 0) & indexed,
                 "swizzle_en set, but the gfx9 V# has no element-size field (CDNA4 ISA Table 48), "
                 "so swizzled addressing is undefined")
            if ((r.esize != 0) & ~indexed & live).any():
                _assume_linear(st, self.d)
            need(r.tid & self.idxen,
                 "add_tid_enable with idxen: no range-check rule for it (CDNA4 ISA §9.1.5.1 "
                 "covers private: add_tid and no idxen; structured: idxen, no add_tid)")
            need(~r.tid & (r.stride == 0) & self.idxen,
                 "idxen with stride 0: no range-check rule for it (CDNA4 ISA §9.1.5.1: "
                 "structured buffers have stride != 0)")
            return
        need((r.fmt == 0) & ~r.tid,
             "format 0 (BUF_FMT_INVALID, an unbound resource) in V# dword 3 [17:12]")
        need(r.esize == -1, "swizzle enable 2 (\"Reserved\" in the V# table)")
        sw = r.esize > 0
        need(sw & (nb > r.esize),
             f"a {nb}-byte access to swizzled {'4' if (r.esize == 4).any() else '16'}-byte "
             "elements (\"must not fetch a unit larger than const_element_size\")")
        need(sw & (r.stride % np.maximum(r.esize, 1) != 0),
             "a stride that is not a multiple of the swizzle element size (\"STRIDE must be a "
             "multiple of const_element_size\")")
        if self.gen >= 12:
            need(sw & (r.esize == 16) & (nb == 16),
                 "a 16-byte access with 16-byte swizzle elements (RDNA4 ISA §9.4.2: \"16-byte "
                 "elements are not supported with const_swizzle_en==3\")")

    # ---- the addressing -----------------------------------------------------------------
    def pieces(self, st, g, em, comps):
        """(index, width, in-range lanes [w, 64], addresses [w, 64] uint64) of each
        range-checked piece ``(byte offset, width)`` of the access by the lanes ``em``."""
        r = resource(tuple(st.S[self.s0 + k, g.ix] for k in range(4)), self.gen)
        self._check_resource(st, g, r, em)
        soff = np.broadcast_to(np.asarray(self.soff(st, g)).astype(I64), (g.w,))[:, None]
        off = np.full((g.w, 64), self.imm, I64)
        if self.voff is not None:
            off = off + st.R[self.voff, g.ix].astype(I64)
        idx = np.zeros((g.w, 64), I64)
        if self.vidx is not None:
            idx = idx + st.R[self.vidx, g.ix].astype(I64)
        idx = np.where(r.tid[:, None], idx + LANE, idx)
        stride, nrec = r.stride[:, None], r.nrec[:, None]
        sw = (r.esize > 0)[:, None]
        addr = self._address(st, g, r, em, idx, off, soff, sw)
        for k, (co, w) in enumerate(comps):
            ok = em & self._in_range(r, idx, off + co + w, soff, stride, nrec, sw)
            yield k, w, ok, (addr + co).astype(U64)

    def _address(self, st, g, r, em, idx, off, soff, sw):
        base = r.base[:, None].astype(I64)
        stride = r.stride[:, None]
        linear = base + soff + idx * stride + off
        if not sw.any():
            return linear
        es = np.maximum(r.esize, 1)[:, None]
        ist = r.istride[:, None]
        o = (off + soff) & 0xFFFFFFFF if self.gen >= 12 else off
        if self.gen == 11:
            live = em & sw
            self._need_lanes(st, g, r, live & (o % 4 != 0),
                             "a swizzled access that is not dword aligned (RDNA3.5 ISA §9.4.2: "
                             "\"Swizzled addressing also requires DWORD-aligned accesses\")")
            self._need_lanes(st, g, r, live & (o % es + self.payload > es),
                             "a swizzled access that crosses an element (not defined by RDNA3.5 "
                             "ISA §9.4.2)")
        bo = (idx // ist * stride + o // es * es) * ist + idx % ist * es + o % es
        swz = base + bo + (soff if self.gen < 12 else 0)
        return np.where(sw, swz, linear)

    def _need_lanes(self, st, g, r, bad, why):
        if bad.any():
            self._refuse(st, g, r, bad, why)

    def _in_range(self, r, idx, end, soff, stride, nrec, sw):
        """In-range lanes of one piece ending at byte ``end`` of the offset."""
        if self.gen < 10:
            if self.idxen:  # structured: the index alone (CDNA4 ISA §9.1.5.1)
                ok = idx < nrec
            else:  # raw: the offset against num_records bytes
                ok = end <= nrec
            return ok | r.tid[:, None]  # private (add_tid, no idxen): no range check
        oob = r.oob[:, None]
        structured = (idx < nrec) & (end <= stride)
        raw_nrec = nrec - soff if self.gen >= 12 else nrec
        mode3 = np.where(sw & (stride != 0), structured, end <= raw_nrec)
        return np.select([oob == 0, oob == 1, oob == 2], [structured, idx < nrec,
                                                          np.broadcast_to(nrec != 0, idx.shape)],
                         mode3)
