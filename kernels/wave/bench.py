"""Wave's GEMM and attention templates for notebook 08, next to the Triton and HIP versions.

Why: notebook 08 compiles Wave's own templates (``wave_lang.kernel.wave.templates``) with
``wb.wave`` at several shapes and archs and compares them with ``kernels/triton/tutorial.py``
and the HIP kernels of notebooks 03 and 04; this file keeps the template calls, the options,
the tolerances (with their sources) and the HIP launches in one place. ``kernels`` is no
package: put this folder on ``sys.path`` and ``import bench``.

One template call per compile: the shapes, the tile and the MMAType are part of what a
template builds (its hyperparameters and constraints), so ``gemm`` and ``attention`` call it for
every ``wb.wave``, one arch each.
"""

from __future__ import annotations

import importlib.util
import inspect
import sys
from pathlib import Path
from typing import Any

import numpy as np
import torch

HERE = Path(__file__).resolve().parent
KERNELS = HERE.parent

# torch.testing.assert_close's atol/rtol for each template, as Wave's own tests check them
TOLERANCES = {
    "gemm": {"atol": 2e-4, "rtol": 1e-5,
             "why": "iree-org/wave tests/kernel/wave/wave_gemm_test.py, testGemmSmallTiles "
                    "(tag v3.9.1): fp16 x fp16 -> fp32 against a reference matmul"},
    "attention": {"atol": 1e-3, "rtol": 1e-3,
                  "why": "iree-org/wave tests/kernel/wave/attention/vanilla_attention_test.py, "
                         "testAttentionPure (tag v3.9.1): assert_close(output, torch_ref, "
                         "atol=1e-3, rtol=1e-3)"},
}


def gemm(shape: tuple[int, int, int], arch: str = "gfx942", mma: Any = None,
         block: tuple[int, int, int] | None = None, **options: Any):
    """``wb.wave`` of Wave's GEMM template (``templates/gemm.py``, ``get_gemm_kernel``):
    C[M, N] f32 = A[M, K] f16 @ B[N, K]^T. ``mma``: an ``MMAType`` (default
    ``F32_16x16x16_F16``); ``block``: the template's ``block_shape`` (BLOCK_M, BLOCK_N,
    BLOCK_K; default 64, 64, 32); ``options``: WaveCompileOptions fields."""
    from wave_lang.kernel.wave.constraints import MMAType
    from wave_lang.kernel.wave.templates.gemm import get_gemm_kernel

    import workbench as wb

    fn, hyper, _ = get_gemm_kernel(shape, False, mma or MMAType.F32_16x16x16_F16,
                                   block_shape=block)
    return wb.wave(fn, hyper, arch=arch, **options)


def attention(heads: int, seq: int, dim: int, arch: str = "gfx942"):
    """``wb.wave`` of Wave's vanilla attention template (``templates/vanilla_attention.py``):
    q, k, v [heads, seq, dim] f16 -> c [heads, seq, dim] f32, both products through
    ``F32_16x16x16_F16``, with the scheduling parameters and options of Wave's
    testAttentionPure (``waves_per_eu=2``, ``denorm_fp_math_f32="preserve-sign"``)."""
    from wave_lang.kernel.wave.constraints import MMAType
    from wave_lang.kernel.wave.templates.attention_common import AttentionShape
    from wave_lang.kernel.wave.templates.vanilla_attention import get_vanilla_attention_kernel
    from wave_lang.kernel.wave.utils.general_utils import get_default_scheduling_params

    import workbench as wb

    shape = AttentionShape(num_query_heads=heads, num_kv_heads=heads, query_seq_len=seq,
                           head_size_kv=dim, head_size=dim, kv_seq_len=seq)
    mma = MMAType.F32_16x16x16_F16
    fn, hyper, dyn = get_vanilla_attention_kernel(shape, (mma, mma), False)
    hyper.update(get_default_scheduling_params())
    return wb.wave(fn, hyper, arch=arch, dynamic_symbols=dyn, waves_per_eu=2,
                   denorm_fp_math_f32="preserve-sign")


def randn(*shape: int, seed: int = 0, dtype: torch.dtype = torch.float16) -> torch.Tensor:
    """Seeded normal values (torch, CPU) in ``dtype``."""
    g = torch.Generator().manual_seed(seed)
    return torch.randn(*shape, generator=g).to(dtype)


def check(out: torch.Tensor, ref: torch.Tensor, name: str) -> tuple[float, bool]:
    """(max |out - ref|, whether every element is within TOLERANCES[name]: |out - ref| <=
    atol + rtol * |ref|, torch.testing.assert_close's test), compared in float64."""
    tol = TOLERANCES[name]
    out, ref = out.double(), ref.double()
    ok = bool(torch.isclose(out, ref, atol=tol["atol"], rtol=tol["rtol"]).all())
    return float((out - ref).abs().max()), ok


def excerpt(fn: Any, first: str, last: str) -> str:
    """The source lines of ``fn`` from the line holding ``first`` to the one holding ``last``,
    dedented to the first one's indentation."""
    lines = inspect.getsource(fn).splitlines()
    i = next(n for n, line in enumerate(lines) if first in line)
    j = next(n for n, line in enumerate(lines) if n >= i and last in line)
    cut = len(lines[i]) - len(lines[i].lstrip())
    return "\n".join(line[cut:] for line in lines[i:j + 1])


def loop_mlir(kern: Any, arch: str | None = None) -> str:
    """The body of the first ``scf.for`` (the K loop) of the MLIR Wave generated, without
    source locations."""
    text = kern.module.mlir_for(arch or kern.archs[0])
    lines = text.splitlines()
    i = next(n for n, line in enumerate(lines) if "scf.for" in line)
    depth, out = 0, []
    for line in lines[i:]:
        out.append(line.split(" loc(")[0].strip())
        depth += line.count("{") - line.count("}")
        if depth <= 0:
            break
    return "\n".join(out)


def sibling(folder: str):
    """``kernels/<folder>/steps.py`` as a module of its own (gemm's and softmax's are both
    named ``steps``)."""
    key = f"hipwb_{folder}_steps"
    if key not in sys.modules:
        spec = importlib.util.spec_from_file_location(key, KERNELS / folder / "steps.py")
        mod = importlib.util.module_from_spec(spec)
        sys.modules[key] = mod
        spec.loader.exec_module(mod)
    return sys.modules[key]


def hip_attention(arch: str):
    """Notebook 04's fused attention tile (``kernels/softmax/step7_attention.hip``,
    ``attention_tile``: bf16 Q, K, V of one head, fp32 O, 64 queries per 256-thread
    workgroup) as a ``workbench.Kernel``."""
    import workbench as wb

    return wb.Kernel(sibling("softmax").compile_file("step7_attention.hip", arch),
                     "attention_tile")


def hip_attention_timing(kern: Any, chip: str, queries: int, keys: int, dim: int = 64):
    """The timing model's report of the HIP tile on ``queries`` x ``keys`` (one head; its
    launch: queries / 64 workgroups of 256 threads), FLOPs 4 * queries * keys * dim."""
    q = np.zeros((queries, dim), np.uint16)  # bf16 bits; the model's time ignores the values
    kv = np.zeros((keys, dim), np.uint16)
    o = np.zeros((queries, dim), np.float32)
    return kern.timing[queries // 64, 256](q, kv, kv, o, keys, dim ** -0.5, chip=chip,
                                           flops=4.0 * queries * keys * dim)


# the columns of notebook 08's side-by-side tables (``row``)
HEADER = ("chip", "kernel", "inputs", "matrix instructions", "VGPRs", "LDS B/WG", "waves/SIMD",
          "µs (modelled)", "TFLOP/s", "MFMA busy", "VALU busy", "limiter")


def row(chip: str, label: str, inputs: str, kern: Any, occ: Any, rep: Any) -> list:
    """One row of a side-by-side table (HEADER): the kernel's matrix instructions and VGPRs,
    its occupancy at the launch's block (LDS bytes per workgroup, waves per SIMD), and
    the timing report's modelled time, TFLOP/s, MFMA and VALU busy and limiter."""
    mfmas = " + ".join(dict.fromkeys(u.mnemonic for u in kern.matrix_instructions().uses))
    return [chip, label, inputs, mfmas, kern.resources.vgprs, occ.lds_bytes, occ.waves_per_simd,
            f"{rep.seconds * 1e6:.0f}", f"{rep.tflops:.0f}", f"{rep.busy['MFMA']:.0%}",
            f"{rep.busy['VALU']:.0%}", rep.limiter.split(":")[0]]
