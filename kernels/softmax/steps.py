"""Index of the softmax tutorial's kernels (steps.json) and the helpers to run one step.

Why: the notebook's claims and the tests run the same kernels with the same launch geometry and
the same awkward inputs (rows of -inf, huge values, lengths that are not a multiple of 8); this
file (loadable by path, ``kernels`` is no package) keeps that in one place.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
INDEX = json.loads((HERE / "steps.json").read_text())


def all_steps() -> list[dict]:
    """The tutorial's softmax steps in order (step 7, attention, is separate: attention.hip)."""
    return INDEX["steps"]


def step(key: int | str) -> dict:
    """One step by its number, its label ("3s") or its name."""
    for s in all_steps():
        if key in (s["step"], s["name"]):
            return s
    raise KeyError(f"no softmax step {key!r}; known: {[s['name'] for s in all_steps()]}")


def compile_file(file: str, arch: str):
    """``workbench.compile`` of one file of kernels/softmax for one arch."""
    import workbench as wb

    return wb.compile((HERE / file).read_text(), arch=arch, include_dirs=[HERE], filename=file)


def inputs(rows: int, cols: int, seed: int = 0) -> np.ndarray:
    """fp32 rows x cols: normal values x 4, plus the awkward rows the tutorial checks.

    Row 0 all -inf (softmax is NaN, as in torch), row 1 half -inf, row 2 values near 1e30 and
    -1e30 (exp of x - max must not overflow), row 3 one huge value (3e38) among small ones.
    """
    g = np.random.default_rng(seed)
    x = (g.standard_normal((rows, cols)) * 4).astype(np.float32)
    if rows > 3:
        x[0] = -np.inf
        x[1, ::2] = -np.inf
        x[2] = np.where(g.random(cols) < 0.5, 1e30, -1e30).astype(np.float32) + x[2]
        x[3, cols // 3] = 3e38
    return x


def to_bf16_bits(x: np.ndarray) -> np.ndarray:
    """fp32 -> bf16 raw bits (round to nearest even, via torch)."""
    import torch

    return torch.from_numpy(x).to(torch.bfloat16).view(torch.int16).numpy().view(np.uint16)


def from_bf16_bits(b: np.ndarray) -> np.ndarray:
    """bf16 raw bits -> fp32."""
    return (b.astype(np.uint32) << 16).view(np.float32)


def reference(x: np.ndarray, dtype: str) -> np.ndarray:
    """torch.softmax over rows in fp32 (of the bf16-rounded input for bf16 steps), as fp32."""
    import torch

    t = torch.from_numpy(from_bf16_bits(to_bf16_bits(x)) if dtype == "bf16" else x)
    y = torch.softmax(t, dim=1)
    if dtype == "bf16":
        y = y.to(torch.bfloat16).float()
    return y.numpy()


def run(s: dict, kernels: dict, x: np.ndarray, wave: int = 64) -> np.ndarray:
    """Launch step ``s`` (its kernels by name in ``kernels``) on x; returns y as fp32."""
    rows, cols = x.shape
    block = s["block"]
    if s["dtype"] == "bf16":
        xin = to_bf16_bits(x)
        y = np.zeros((rows, cols), np.uint16)
    else:
        xin = np.ascontiguousarray(x)
        y = np.full((rows, cols), np.nan, np.float32)
    if s["name"] == "three_pass":
        m = np.zeros(rows, np.float32)
        sm = np.zeros(rows, np.float32)
        g = -(-rows // block)
        kernels["row_max"][g, block](xin, m, rows, cols)
        kernels["row_expsum"][g, block](xin, m, sm, rows, cols)
        kernels["normalise"][-(-rows * cols // block), block](xin, m, sm, y, rows, cols)
    else:
        (name,) = s["kernels"]
        grid = rows if s["grid"] == "rows" else -(-rows // (block // wave))
        kernels[name][grid, block](xin, y, rows, cols)
    return from_bf16_bits(y) if s["dtype"] == "bf16" else y


def max_error(y: np.ndarray, ref: np.ndarray) -> float:
    """Largest |y - ref| where ref is finite; inf if NaNs disagree (NaN rows must stay NaN)."""
    if not np.array_equal(np.isnan(y), np.isnan(ref)):
        return float("inf")
    ok = ~np.isnan(ref)
    return float(np.max(np.abs(y[ok] - ref[ok]))) if ok.any() else 0.0


# Tolerances: fp32 steps differ from torch only by expf's and the summation order's rounding;
# bf16 steps by one bf16 rounding of the output (half an ulp of values <= 1: 2^-9).
TOL = {"f32": 1e-5, "bf16": 2.0 ** -8}
