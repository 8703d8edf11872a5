"""LDS bank model: phases per DS instruction and arch, conflict counting, access patterns.

A pure model (no emulator, runtime or widgets): ``analyze(addresses, exec_mask, instruction,
arch)`` counts bank conflicts of one execution or a batch; ``SharedTile`` plus the pattern
generators (``row_access``, ``column_access``, ``pattern``, ``mfma_operand_reads``) build the
addresses of common tile accesses so layouts can be compared without compiling anything.
The cost model and its sources are in ``workbench.lds.analysis``; phase tables (each with its
source, or marked as an assumption) in ``workbench.lds.phases``.
"""
from __future__ import annotations

from .analysis import Access, AccessBatch, PhaseResult, analyze, analyze_batch
from .instructions import DsInstruction, UnsupportedInstruction, ds_instruction
from .patterns import AccessGroup, column_access, mfma_operand_reads, pattern, row_access
from .phases import PhaseTable, phase_table
from .tile import SharedTile, XorSwizzle, element_size
from .trace_analysis import trace_conflicts

__all__ = [
    "Access", "AccessBatch", "AccessGroup", "DsInstruction", "PhaseResult", "PhaseTable",
    "SharedTile", "UnsupportedInstruction", "XorSwizzle", "analyze", "analyze_batch",
    "column_access", "ds_instruction", "element_size", "mfma_operand_reads", "pattern",
    "phase_table", "row_access", "trace_conflicts",
]
