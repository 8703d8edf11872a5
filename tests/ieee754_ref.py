"""IEEE 754-2019 minimum()/maximum() on Python floats and the special values the emulator's
min/max tests sweep: the reference tests/emu/test_emu_minimum_maximum.py and
tests/emu/test_emu_gaps_minmax.py check the hardware ops against (NaN if either operand is NaN;
-0 < +0)."""
from __future__ import annotations

import math

NAN = float("nan")
VALUES = [NAN, math.inf, -math.inf, 0.0, -0.0, 1.0, -2.5, 3.0, 0.5]


def minimum(x: float, y: float) -> float:
    """IEEE 754-2019 minimum(): NaN if either is NaN; -0 < +0."""
    if math.isnan(x) or math.isnan(y):
        return NAN
    if x == 0 and y == 0:
        return x if math.copysign(1, x) < 0 else y
    return min(x, y)


def maximum(x: float, y: float) -> float:
    """IEEE 754-2019 maximum(): NaN if either is NaN; +0 > -0."""
    if math.isnan(x) or math.isnan(y):
        return NAN
    if x == 0 and y == 0:
        return x if math.copysign(1, x) > 0 else y
    return max(x, y)
