"""The recorded input of the timing model: per-wave dynamic instruction streams.

Why here: the timing model is pure (it imports nothing from ``emu``/``runtime``/``widgets``), so
the type it consumes lives in ``workbench.timing``; the emulator's stream mode
(``workbench.emu.observers.stream``) produces it. One row per wave per executed instruction, rows
grouped by wave and in program order within a wave.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass
class InstStream:
    """Dynamic instruction streams of the emulated waves (columns, one row per wave-instruction).

    ``wave`` [n]: wave number in the launch; ``index`` [n]: instruction index into
    ``instructions`` (``workbench.isa.Instruction``: ``addr``, ``mnemonic``, ``operands``,
    ``text``, ``source_line``); ``active`` [n]: EXEC lanes set when it issued; ``vm_lines`` [n]:
    distinct 128-byte lines a global/buffer access touched (-1 for other instructions);
    ``vm_bytes`` [n]: bytes it moved (active lanes x width). Per wave (``waves`` order):
    ``wave_workgroup`` (linear workgroup index in the launch) and ``wave_in_group``.
    ``ds``: the launch's DS records (``workbench.emu.observers.trace.DSRecords`` columns: ``wave``,
    ``pc``, ``mnemonic``, ``exec``, ``addr``, ``two_addr``) in execution order, for LDS bank cycles.
    ``vm_line_ptr`` / ``vm_line_ids``: the line ids of row r are ``vm_line_ids[ptr[r]:ptr[r+1]]``
    (the vL1D model's tags); absent on hand-made streams, whose accesses then all miss the vL1D.
    ``vm_quad_lines``: per global/buffer row, the distinct lines of each quad of 4 lanes, summed
    (the addresser's work for an uncoalesced access; -1 or absent: not recorded).
    """

    kernel: str
    arch: str
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    instructions: list
    wave: np.ndarray
    index: np.ndarray
    active: np.ndarray
    vm_lines: np.ndarray
    vm_bytes: np.ndarray
    waves: np.ndarray
    wave_workgroup: np.ndarray
    wave_in_group: np.ndarray
    ds: Any = None
    ds_truncated: bool = False
    meta: dict = field(default_factory=dict)
    vm_line_ptr: Any = None  # [n + 1] offsets into vm_line_ids (CSR); None: ids not recorded
    vm_line_ids: Any = None  # the distinct 128-byte line ids of each global/buffer row
    vm_quad_lines: Any = None  # [n] per global/buffer row: distinct lines summed over lane quads

    def __len__(self) -> int:
        return int(self.wave.shape[0])

    @property
    def workgroups(self) -> int:
        """Workgroups whose waves were recorded."""
        return int(np.unique(self.wave_workgroup).size)

    @property
    def waves_per_group(self) -> int:
        b = self.block
        return -(-(b[0] * b[1] * b[2]) // 64)

    def rows_of(self, wave: int) -> slice:
        """The row range of one wave (rows are grouped by wave)."""
        lo = int(np.searchsorted(self.wave, wave, "left"))
        hi = int(np.searchsorted(self.wave, wave, "right"))
        return slice(lo, hi)
