"""Cycle-level timing model of one CU, driven by the emulator's recorded instruction streams.

A pure model (imports nothing from ``emu``/``runtime``/``widgets``): ``InstStream`` is its
input (the emulator's stream mode produces it); ``predict(stream, chip)`` simulates the
workgroups one CU holds and extrapolates to the grid (``model``), returning a ``TimingReport``.
Every number it gives is modelled, with the sources of each chip parameter in ``chips``.
"""
from __future__ import annotations

from .chips import CHIPS, Chip, Param, get_chip
from .model import predict
from .report import TimingReport
from .stream import InstStream

__all__ = ["CHIPS", "Chip", "InstStream", "Param", "TimingReport", "get_chip", "predict"]
