"""Index of the GEMM tutorial's kernels (steps.json) and the few helpers to run one step.

Why: the notebook, the tests and the timing model's calibration all run the same kernels with
the same launch geometry and inputs; this file (loadable by path, ``kernels`` is no package)
keeps that in one place. C[M][N] fp32 = A[M][K] . B[N][K]^T, A/B raw bf16 / fp8 E4M3 (OCP) bits.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
INDEX = json.loads((HERE / "steps.json").read_text())


def all_steps(extra: bool = True) -> list[dict]:
    """The tutorial's steps in order (and, with ``extra``, the blog-only rungs)."""
    return INDEX["steps"] + (INDEX["blog_extra"] if extra else [])


def step(key: int | str) -> dict:
    """One step by its number (1..), its ``step`` label ("9a") or its ``name``."""
    for s in all_steps():
        if key in (s["step"], s["name"]):
            return s
    raise KeyError(f"no GEMM step {key!r}; known: {[s['name'] for s in all_steps()]}")


def targets(s: dict) -> list[dict]:
    """The (arch, dtype) targets a step builds for (fp8 only on gfx950)."""
    return [t for t in INDEX["targets"] if t["arch"] in s["archs"]]


def source(s: dict) -> str:
    """The step's .hip source text."""
    return (HERE / s["file"]).read_text()


def compile_step(s: dict, arch: str, dtype: str):
    """``workbench.compile`` of the step's file for one target; returns the Module."""
    import workbench as wb

    target = next(t for t in INDEX["targets"] if t["arch"] == arch and t["dtype"] == dtype)
    return wb.compile(source(s), arch=arch, defines=target["defines"], include_dirs=[HERE],
                      filename=s["file"])


def kernel(s: dict, arch: str, dtype: str, device: str | None = None):
    """The step's kernel for one target as a launchable ``workbench.Kernel``.

    ``device`` as for ``wb.set_device`` (e.g. "emulator:gfx950"); None = the default device.
    """
    import workbench as wb

    return wb.Kernel(compile_step(s, arch, dtype), s["kernel"], device=device)


def launch(s: dict, M: int, N: int, K: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(grid, block) of the step for an M x N x K problem."""
    if s["grid"] == "xy16":
        return (-(-N // 16), -(-M // 16)), tuple(s["block"])
    return (-(-M // s["bm"]) * -(-N // s["bn"]),), tuple(s["block"])


def check_shape(s: dict, dtype: str, M: int, N: int, K: int) -> None:
    """Raise ValueError when the step cannot handle this shape (K multiple, edges)."""
    km = s["k_multiple"][dtype]
    if K % km:
        raise ValueError(f"step {s['step']} ({s['name']}) needs K % {km} == 0, got K={K}")
    if not s["edges"] and (M % s["bm"] or N % s["bn"]):
        raise ValueError(f"step {s['step']} needs M % {s['bm']} == 0 and N % {s['bn']} == 0")


def inputs(M: int, N: int, K: int, dtype: str, seed: int = 0):
    """Integer-valued A (M x K) and B (N x K) in [-4, 4] as raw bits, plus their float values.

    Integers this small are exact in bf16 and fp8 E4M3, and every partial sum of K <= 2^17
    products stays exact in fp32, so the kernels must match the reference bit for bit.
    """
    import torch

    g = torch.Generator().manual_seed(seed)
    a = torch.randint(-4, 5, (M, K), generator=g).float()
    b = torch.randint(-4, 5, (N, K), generator=g).float()
    if dtype == "bf16":
        bits = [t.to(torch.bfloat16).view(torch.int16).numpy().view(np.uint16) for t in (a, b)]
    elif dtype == "fp8":
        bits = [t.to(torch.float8_e4m3fn).view(torch.uint8).numpy() for t in (a, b)]
    else:
        raise ValueError(f"dtype must be 'bf16' or 'fp8', got {dtype!r}")
    return bits[0], bits[1], a.numpy(), b.numpy()


def reference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """C = A . B^T in float64, returned as float32 (exact for the integer inputs above)."""
    return (a.astype(np.float64) @ b.astype(np.float64).T).astype(np.float32)
