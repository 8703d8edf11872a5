"""Register state of a batch of waves, laid out for one numpy operation per instruction.

Layout (W = waves in the batch, lanes = 64 on gfx942):

* ``R``  ``[n_vgpr + n_agpr, W, 64] uint32`` — the vector file; VGPR k is row k, AGPR k is row
  ``n_vgpr + k`` (gfx942 has a unified 512-entry file split at ACCUM_OFFSET, LLVM
  AMDGPUUsage, COMPUTE_PGM_RSRC3 for GFX90A/GFX942; instructions name v/a separately, so two row
  ranges model it exactly). ``R[r]`` is a contiguous ``[W, 64]`` plane: reading one register of
  every wave of a lock-step group is a view, not a gather.
* ``S``  ``[128, W] uint32`` — SGPRs in their gfx9 operand encoding: s0..s101, 102/103
  flat_scratch, 104/105 xnack_mask, 106/107 vcc, 108..123 ttmp0..15, 124 m0, 126/127 exec
  (LLVM SIRegisterInfo.td / AMDGPU operand encoding for GFX9).
* ``SCC`` ``[W] bool``; ``EM`` ``[W, 64] bool`` — EXEC unpacked, kept in sync with S[126:128] on
  every scalar write to exec (VALU reads EM, SALU reads the bits).
* ``MODE`` ``[W] uint32`` — the MODE hardware register (s_getreg/s_setreg, ``scalar.mode``).

A ``Group`` is the set of waves standing at one PC. Its ``ix`` is a ``slice`` when the waves are
contiguous (then reads and masked writes are views: ``np.copyto(R[r, a:b], v, where=EM[a:b])``)
and an index array otherwise (gather, then scatter back).
"""
from __future__ import annotations

from typing import Any

import numpy as np

# gfx942 is wave64 only (AMDGPUUsage kernel descriptor: ENABLE_WAVEFRONT_SIZE32 is GFX10+)
LANES = 64
VCC, M0, EXEC, FLAT_SCRATCH = 106, 124, 126, 102
NULL = 125  # GFX10+ null (operands.SPECIAL_SGPR): kept at 0
N_SGPR_SLOTS = 128
M32 = 0xFFFFFFFF

Index = slice | np.ndarray


class Group:
    """Waves that execute the next instruction together (lock-step)."""

    __slots__ = ("pc", "waves", "ix", "w", "steps")

    def __init__(self, pc: int, waves: np.ndarray, steps: int = 0) -> None:
        self.pc = pc
        self.waves = waves
        self.w = len(waves)
        self.steps = steps
        self.ix = _as_index(waves)

    def __repr__(self) -> str:
        return f"Group(pc=0x{self.pc:x}, waves={self.w})"


def _as_index(waves: np.ndarray) -> Index:
    n = len(waves)
    if n and int(waves[-1]) - int(waves[0]) == n - 1:
        return slice(int(waves[0]), int(waves[0]) + n)
    return waves


def solo(st: State, g: Group) -> int:
    """The wave of ``g`` when it is one wave64 wave with all 64 lanes in EXEC and no observer
    (trace, stream, check) is attached; else -1.

    Why: the precondition of the one-wave fast paths (memory.vmem, memory.ds, valu.vcmp, ...), which
    then read and write whole register rows without EXEC masks. Read from the two EXEC SGPRs as
    Python ints (EM is kept in sync with them), a tenth of the cost of ``EM[ix].all()``."""
    if g.w != 1 or st.trace is not None:
        return -1
    j = g.ix.start
    return j if st.full[j] else -1


_MASK_ROWS: dict[int, np.ndarray] = {}  # 64-bit mask -> its [1, 64] bool lanes (read-only)


def _mask_row(v: int) -> np.ndarray:
    """The lanes of a 64-bit lane mask as a read-only [1, 64] bool array, cached: a loop
    toggles EXEC and VCC between few values, and one cached row is cheaper than unpacking."""
    row = _MASK_ROWS.get(v)
    if row is None:
        if len(_MASK_ROWS) >= 256:
            _MASK_ROWS.clear()
        row = np.unpackbits(np.frombuffer(v.to_bytes(8, "little"), np.uint8),
                            bitorder="little").view(bool).reshape(1, LANES)
        row.flags.writeable = False
        _MASK_ROWS[v] = row
    return row


class State:
    """All architectural state of the waves of one batch of workgroups."""

    def __init__(self, n_waves: int, n_vgpr: int, n_agpr: int, n_wg: int, lds_bytes: int,
                 scratch_bytes: int, wave: int = 64) -> None:
        self.W = n_waves
        # wave32 (RDNA's default): lanes 32..63 of every row exist but are never enabled; a lane
        # mask is one SGPR (vcc_lo, exec_lo, s[n]) and exec_hi is ignored (RDNA3 ISA §3.3
        # "wave32: EXEC_HI is ignored", LLVM AMDGPUUsage "wavefrontsize32")
        self.wave = wave
        self.gen = 9  # ISA generation (workbench.emu.decoder.rdna.generation): GFX12 ABI
                      # differences
        self.n_vgpr, self.n_agpr = n_vgpr, n_agpr
        self.R = np.zeros((max(1, n_vgpr + n_agpr), n_waves, LANES), np.uint32)
        self.S = np.zeros((N_SGPR_SLOTS, n_waves), np.uint32)
        # typed views of the same bits (the VALU fast path reads and writes through them)
        self.R32f, self.R32i = self.R.view(np.float32), self.R.view(np.int32)
        self.S32f, self.S32i = self.S.view(np.float32), self.S.view(np.int32)
        self.SCC = np.zeros(n_waves, bool)
        self.EM = np.zeros((n_waves, LANES), bool)
        # per wave: every one of the 64 lanes is in EXEC (a Python list: the one-wave fast
        # paths test it per instruction). Kept with EM by every EXEC write (sync_exec,
        # set_exec_int, set_exec_lanes); never True in wave32, where lanes 32..63 are off.
        self.full = [False] * n_waves
        self.MODE = np.zeros(n_waves, np.uint32)  # the MODE hardware register (scalar.mode)
        self.n_wg = n_wg
        self.lds_bytes = lds_bytes
        # LDS: one row per workgroup, rounded to 16 bytes so uint32/uint64/16-byte views exist,
        # plus two 16-byte pads past the allocation for lds_oob="hardware": reads outside the
        # allocation are sent to the zero pad, writes to the junk pad (memory.ds.lds_offsets).
        self.lds_oob = "fault"  # or "hardware"
        self.lds_zero_pad = (lds_bytes + 15) // 16 * 16
        self.lds_junk_pad = self.lds_zero_pad + 16
        self.lds = np.zeros((n_wg, self.lds_zero_pad + 32), np.uint8)
        self.lds32 = self.lds.view(np.uint32)
        self.lds_flat = self.lds.reshape(-1)
        self.lds32_flat = self.lds32.reshape(-1)
        # scratch: per-lane private bytes, lane-major rows of scratch_stride bytes
        self.scratch_bytes = scratch_bytes
        self.scratch_stride = (scratch_bytes + 15) // 16 * 16
        self.scratch = np.zeros(n_waves * LANES * self.scratch_stride, np.uint8)
        self.scratch32 = self.scratch.view(np.uint32)
        self.wg = np.zeros(n_waves, np.int64)  # workgroup index within the batch
        self.wg_global = np.zeros((n_waves, 3), np.int64)  # workgroup id x, y, z
        self.wave_in_wg = np.zeros(n_waves, np.int64)
        self.wave_global = np.zeros(n_waves, np.int64)  # wave number in the whole launch
        self.wg_first = 0  # dispatch number of this batch's first workgroup (scalar.mode HW_ID)
        self.mem: Any = None  # workbench.emu.machine.memory.Memory
        self.trace: Any | None = None  # workbench.emu.observers.trace.TraceRecorder
        self.launch: Any = None  # workbench.emu.engine.scheduler.Launch (kernel name, listing, ...)
        self.cur: Any = None  # the instruction being executed (for error messages)

    # ---- vector file -------------------------------------------------------------------------
    def vwrite(self, r: int, g: Group, val: Any) -> None:
        """Write one vector register of the group's waves under EXEC."""
        ix = g.ix
        if isinstance(ix, slice):
            np.copyto(self.R[r, ix], val, where=self.EM[ix], casting="unsafe")
        else:
            cur = self.R[r, ix]
            np.copyto(cur, val, where=self.EM[ix], casting="unsafe")
            self.R[r, ix] = cur

    def vwrite_masked(self, r: int, g: Group, val: Any, mask: np.ndarray) -> None:
        """Write one vector register where ``mask`` (already combined with EXEC) is set."""
        ix = g.ix
        if isinstance(ix, slice):
            np.copyto(self.R[r, ix], val, where=mask, casting="unsafe")
        else:
            cur = self.R[r, ix]
            np.copyto(cur, val, where=mask, casting="unsafe")
            self.R[r, ix] = cur

    # ---- scalar file -------------------------------------------------------------------------
    def swrite(self, r: int, g: Group, val: Any) -> None:
        """Write one SGPR (or special) of the group's waves; keeps EM in sync with exec."""
        self.S[r, g.ix] = val
        if r == EXEC or r == EXEC + 1:
            self.sync_exec(g.ix)
        elif r == NULL:
            self.S[NULL, g.ix] = 0

    def sync_exec(self, ix: Index) -> None:
        self.set_exec_lanes(ix, self.lanemask(EXEC, ix, fresh=True))

    def set_exec_lanes(self, ix: Index, em: np.ndarray) -> None:
        """EM of the waves ``ix`` (and ``full``) from a [w, 64] bool lane mask."""
        self.EM[ix] = em
        full = self.EM[ix].all(axis=1).tolist()
        if isinstance(ix, slice):
            self.full[ix] = full
        else:
            for w, f in zip(ix.tolist(), full):
                self.full[w] = f

    def set_exec_int(self, j: int, v: int) -> None:
        """EXEC of one wave ``j`` from a Python int (the one-wave SALU path)."""
        self.S[EXEC, j] = v & 0xFFFFFFFF
        if self.wave == 32:
            v &= 0xFFFFFFFF
        else:
            self.S[EXEC + 1, j] = v >> 32
        self.EM[j] = _mask_row(v)[0]
        self.full[j] = v == 0xFFFFFFFFFFFFFFFF

    def lanemask(self, r: int, ix: Index, fresh: bool = False) -> np.ndarray:
        """SGPR pair r, r+1 (wave32: SGPR r alone) as a [w, 64] bool lane mask (vcc, s[n:n+1],
        exec)."""
        if r == EXEC and not fresh:
            return self.EM[ix]
        if ix.__class__ is slice and ix.stop - ix.start == 1 and self.wave == 64:
            j = ix.start  # one wave: the cached row of the pair's value (read-only)
            return _mask_row(self.S.item(r, j) | self.S.item(r + 1, j) << 32)
        if self.wave == 32:
            b = np.ascontiguousarray(self.S[r, ix]).reshape(-1, 1).view(np.uint8)  # [w, 4]
            m = np.zeros((b.shape[0], LANES), bool)
            m[:, :32] = np.unpackbits(b, axis=-1, bitorder="little").view(bool)
            return m
        b = np.ascontiguousarray(self.S[r:r + 2, ix].T).view(np.uint8)  # [w, 8] LE bytes
        return np.unpackbits(b, axis=-1, bitorder="little").view(bool)

    def write_lanemask(self, r: int, g: Group, mask: np.ndarray) -> None:
        """Write a [w, 64] bool mask into SGPR pair r, r+1 (bit i = lane i); wave32: SGPR r;
        ``null``: nowhere."""
        if r == NULL:
            return
        words = np.packbits(mask, axis=-1, bitorder="little").view(np.uint32)  # [w, 2]
        self.S[r, g.ix] = words[:, 0]
        if self.wave == 64:
            self.S[r + 1, g.ix] = words[:, 1]
        if r == EXEC:
            self.sync_exec(g.ix)


def pack_mask(mask: np.ndarray) -> np.ndarray:
    """[w, 64] bool -> [w] uint64 (bit i = lane i)."""
    return np.packbits(mask, axis=-1, bitorder="little").view(np.uint64)[:, 0]


def unpack_mask(bits: np.ndarray) -> np.ndarray:
    """[w] uint64 -> [w, 64] bool."""
    b = np.ascontiguousarray(bits, dtype=np.uint64).reshape(-1, 1).view(np.uint8)
    return np.unpackbits(b, axis=-1, bitorder="little").view(bool)
