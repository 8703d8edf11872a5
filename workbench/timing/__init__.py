"""Cycle-level timing model of one CU, driven by the emulator's recorded instruction streams.

A pure model (imports nothing from ``emu``/``runtime``/``widgets``): ``InstStream`` is its
input (the emulator's stream mode produces it).
"""
from __future__ import annotations

from .stream import InstStream

__all__ = ["InstStream"]
