"""Stream mode: record every wave's dynamic instruction stream for the timing model.

Why: ``workbench.timing`` replays the instructions each wave really executed (branch outcomes,
EXEC, global lines touched, LDS addresses) through a cycle model. The engine calls ``step``
before each instruction of a lock-step group (one record per group, expanded per wave at the
end); global/buffer accesses add the 128-byte lines they touched to the current record.
Cheap when off: the engine tests one attribute.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ...timing.stream import InstStream

LINE_SHIFT = 7  # 128-byte lines: the L2 cache line of CDNA3 (AMD CDNA3 ISA guide, memory model)


class StreamRecorder:
    """Collects (pc, waves, EXEC lanes) per executed group-instruction and VMEM line counts."""

    def __init__(self) -> None:
        self.idx: list[int] = []
        self.waves: list[np.ndarray] = []
        self.active: list[np.ndarray] = []
        self.vm: dict[int, list] = {}  # step -> [line ids [w, k] arrays, bytes [w]]

    def step(self, st: Any, g: Any) -> None:
        self.idx.append(g.pc)
        self.waves.append(st.wave_global[g.waves])
        self.active.append(st.EM[g.ix].sum(axis=1).astype(np.int16))

    def vmem(self, g: Any, addr: np.ndarray, mask: np.ndarray | None, nbytes: int) -> None:
        """A global/buffer access piece of the current step: its 128-byte lines per wave."""
        a = np.broadcast_to(np.asarray(addr).astype(np.uint64), (g.w, 64))
        lines = (a >> np.uint64(LINE_SHIFT)).astype(np.int64)
        last = (a + np.uint64(max(nbytes, 1) - 1)) >> np.uint64(LINE_SHIFT)
        m = np.ones((g.w, 64), bool) if mask is None else np.broadcast_to(mask, (g.w, 64))
        lines = np.where(m, lines, -1)
        spill = np.where(m, last.astype(np.int64), -1)
        nb = m.sum(axis=1).astype(np.int64) * nbytes
        cur = self.vm.setdefault(len(self.idx) - 1, [[], np.zeros(g.w, np.int64)])
        cur[0].append(lines)
        cur[0].append(spill)
        cur[1] += nb

    def finish(self, kernel: str, arch: str, grid, block, instructions: list, wave_wg: dict,
               wave_in: dict, ds: Any = None, ds_truncated: bool = False) -> InstStream:
        lens = np.array([len(w) for w in self.waves], np.int64)
        n = int(lens.sum())
        idx = np.repeat(np.array(self.idx, np.int32), lens)
        wave = np.concatenate(self.waves) if self.waves else np.zeros(0, np.int64)
        active = np.concatenate(self.active) if self.active else np.zeros(0, np.int16)
        vm_lines = np.full(n, -1, np.int32)
        vm_bytes = np.zeros(n, np.int64)
        vm_quads = np.full(n, -1, np.int32)
        starts = np.concatenate([[0], np.cumsum(lens)[:-1]]) if len(lens) else lens
        id_parts = []  # each access's rows' distinct line ids, ascending, in row order
        for s, (pieces, nb) in self.vm.items():
            allc = np.concatenate(pieces, axis=1)
            # distinct lines of each quad of 4 lanes, over all pieces of the access (the
            # addresser's unit: GPUOpen, "Understanding Memory Coalescing on GCN": address
            # generation for 4 lanes per clock)
            w = allc.shape[0]
            q = np.sort(np.concatenate([p.reshape(w, 16, 4) for p in pieces], axis=2), axis=2)
            qd = (((q[:, :, 1:] != q[:, :, :-1]) & (q[:, :, 1:] >= 0)).sum(axis=2)
                  + (q[:, :, 0] >= 0)).sum(axis=1)
            srt = np.sort(allc, axis=1)
            new = np.concatenate([srt[:, :1] >= 0, (np.diff(srt, axis=1) != 0) & (srt[:, 1:] >= 0)],
                                 axis=1)
            distinct = new.sum(axis=1)
            r0 = int(starts[s])
            vm_lines[r0:r0 + len(nb)] = distinct
            vm_bytes[r0:r0 + len(nb)] = nb
            vm_quads[r0:r0 + len(nb)] = qd
            id_parts.append(srt[new])  # row-major: row r0's ids, then r0 + 1's, ...
        order = np.argsort(wave, kind="stable")
        waves = np.unique(wave)
        # the line ids as CSR over the rows in stream order (the vL1D model's tags): row r's
        # ids are its distinct lines, vm_lines[r] of them (none where it accessed nothing)
        counts = np.maximum(vm_lines, 0).astype(np.int64)
        first = np.concatenate([[0], np.cumsum(counts)[:-1]])  # row -> its ids, recorded order
        ptr = np.concatenate([[0], np.cumsum(counts[order])])
        flat = np.concatenate(id_parts).astype(np.int64) if id_parts else np.zeros(0, np.int64)
        line_ids = flat[np.repeat(first[order] - ptr[:-1], counts[order]) + np.arange(ptr[-1])]
        return InstStream(kernel, arch, tuple(grid), tuple(block), list(instructions),
                          wave[order], idx[order], active[order], vm_lines[order],
                          vm_bytes[order], waves,
                          np.array([wave_wg[int(w)] for w in waves], np.int64),
                          np.array([wave_in[int(w)] for w in waves], np.int64), ds, ds_truncated,
                          vm_line_ptr=ptr, vm_line_ids=line_ids, vm_quad_lines=vm_quads[order])
