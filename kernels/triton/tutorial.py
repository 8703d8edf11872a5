"""Triton's tutorial kernels for hipwb: vector add, fused softmax, matmul, fused attention forward.

Why: notebook 07 and tests/triton_front run the same @triton.jit kernels with the same shapes,
launch settings and torch references; this file (loadable by path, or by name with
kernels/triton on ``sys.path``: ``kernels`` is no package) keeps them in one place.

The kernels are written for hipwb in the spirit of Triton's tutorials (triton-lang/triton
python/tutorials/): 01-vector-add.py (one block of elements per program, a mask for the tail),
02-fused-softmax.py (a row padded to a power of two with -inf, max-subtracted; one row per
program, where 02 today loops persistent programs over the rows),
03-matrix-multiplication.py (grouped program ordering for L2 reuse, masked edges, fp32
accumulation, the cast to the output type at the end) and 06-fused-attention.py (FlashAttention
v2's online softmax over K/V blocks in base 2: scale by sm_scale * log2(e), ``exp2``). Vector
add and softmax run at their tutorial's sizes; the others are kept small for the CPU emulator:
matmul 256^3, attention B=1, H=2, N=256, D=64.

Use: ``kern = kernel("matmul", "gfx950")`` (a ``wb.triton`` TritonKernel with this file's
launch options), then ``out, ref, err, ok, seconds = launch("matmul", kern, "gfx950",
dtype="fp8")`` runs it on ``emulator:gfx950`` against torch. The wrappers ``add``, ``softmax``,
``matmul`` and ``attention`` launch a kernel on given tensors as the tutorials' wrappers do.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import torch
import triton
import triton.language as tl

ARCHS = ("gfx942", "gfx950")

# -- the kernels ---------------------------------------------------------------------------


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """out = x + y over n elements; each program adds one BLOCK of them."""
    start = tl.program_id(0) * BLOCK
    offs = start + tl.arange(0, BLOCK)
    mask = offs < n  # the last program runs past n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


@triton.jit
def softmax_kernel(out_ptr, in_ptr, in_stride, out_stride, n_cols, BLOCK: tl.constexpr):
    """Softmax of one row per program; BLOCK is n_cols rounded up to a power of two."""
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    inside = cols < n_cols
    # the padding reads -inf: it changes neither the max nor the sum of exponentials
    x = tl.load(in_ptr + row * in_stride + cols, mask=inside, other=-float("inf"))
    shifted = x - tl.max(x, axis=0)  # exp of a value <= 0 cannot overflow
    e = tl.exp(shifted)
    total = tl.sum(e, axis=0)
    tl.store(out_ptr + row * out_stride + cols, e / total, mask=inside)


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                  stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                  GROUP_M: tl.constexpr):
    """C[M, N] = A[M, K] @ B[K, N], one BLOCK_M x BLOCK_N tile of C per program.

    A and B: fp16, bf16 or fp8 (the dot takes them as they are), accumulated in fp32 and
    stored as C's element type. A 1-D grid of cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N) programs;
    consecutive programs walk down a group of GROUP_M tile rows before moving one tile column
    right, so programs running together share rows of A and columns of B."""
    pid = tl.program_id(0)
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    per_group = GROUP_M * tiles_n
    group = pid // per_group
    row0 = group * GROUP_M
    rows_here = tl.minimum(tiles_m - row0, GROUP_M)  # the last group may be shorter
    in_group = pid % per_group
    tile_m = row0 + in_group % rows_here
    tile_n = in_group // rows_here

    rm = tile_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tile_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a_tile = a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak
    b_tile = b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        # out-of-range rows, columns and the K tail read 0: they add nothing to the dot
        a = tl.load(a_tile, mask=(rm[:, None] < M) & (rk[None, :] < K - k0), other=0.0)
        b = tl.load(b_tile, mask=(rk[:, None] < K - k0) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        a_tile += BLOCK_K * stride_ak
        b_tile += BLOCK_K * stride_bk
    c = c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn
    tl.store(c, acc.to(c_ptr.dtype.element_ty), mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def attention_fwd_kernel(q_ptr, k_ptr, v_ptr, o_ptr, sm_scale,
                         stride_z, stride_h, stride_n, stride_d, H, N_CTX,
                         HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                         CAUSAL: tl.constexpr):
    """O = softmax(Q K^T * sm_scale) V for BLOCK_M query rows of one (batch, head) per program.

    Q, K, V, O: [Z, H, N_CTX, HEAD_DIM] with the same strides. The scores are never stored:
    each K/V block updates the running row max m, the running sum of exponentials l and the
    unnormalized output acc (rescaled by exp2(m_old - m_new) when the max grows); O = acc / l
    at the end. Exponentials are taken in base 2 (exp2 is the hardware's v_exp_f32), with the
    scale folded into sm_scale * log2(e). Grid: (cdiv(N_CTX, BLOCK_M), Z * H)."""
    block_m = tl.program_id(0)
    zh = tl.program_id(1)
    base = (zh // H).to(tl.int64) * stride_z + (zh % H).to(tl.int64) * stride_h
    rows = block_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    d = tl.arange(0, HEAD_DIM)
    row_ok = rows < N_CTX
    q = tl.load(q_ptr + base + rows[:, None] * stride_n + d[None, :] * stride_d,
                mask=row_ok[:, None], other=0.0)
    scale = sm_scale * 1.4426950408889634  # log2(e): exp(x) = exp2(x * log2(e))

    m = tl.full((BLOCK_M,), -float("inf"), tl.float32)
    l = tl.zeros((BLOCK_M,), tl.float32)  # noqa: E741
    acc = tl.zeros((BLOCK_M, HEAD_DIM), tl.float32)
    end = N_CTX
    if CAUSAL:  # keys after the block's last row are masked for all its rows
        end = tl.minimum(N_CTX, (block_m + 1) * BLOCK_M)
    for start in range(0, end, BLOCK_N):
        keys = start + cols
        key_ok = keys < N_CTX
        kv = base + keys[:, None] * stride_n + d[None, :] * stride_d
        k = tl.load(k_ptr + kv, mask=key_ok[:, None], other=0.0)
        s = tl.dot(q, tl.trans(k)) * scale  # [BLOCK_M, BLOCK_N] scores, log2 units
        keep = key_ok[None, :]
        if CAUSAL:
            keep = keep & (keys[None, :] <= rows[:, None])
        s = tl.where(keep, s, -float("inf"))
        m_new = tl.maximum(m, tl.max(s, axis=1))
        p = tl.math.exp2(s - m_new[:, None])
        grow = tl.math.exp2(m - m_new)  # 0 on the first block (m = -inf)
        l = l * grow + tl.sum(p, axis=1)  # noqa: E741
        v = tl.load(v_ptr + kv, mask=key_ok[:, None], other=0.0)
        acc = tl.dot(p.to(v.dtype), v, acc * grow[:, None])
        m = m_new
    out = acc / l[:, None]
    tl.store(o_ptr + base + rows[:, None] * stride_n + d[None, :] * stride_d,
             out.to(o_ptr.dtype.element_ty), mask=row_ok[:, None])


KERNELS = {"add": add_kernel, "softmax": softmax_kernel, "matmul": matmul_kernel,
           "attention": attention_fwd_kernel}

# -- launch settings, shapes, tolerances ---------------------------------------------------

# compile options per kernel (wb.triton keywords) and the constexprs of its launch
OPTIONS = {
    "add": {"num_warps": 4},
    "softmax": {"num_warps": 4},
    "matmul": {"num_warps": 4, "num_stages": 2},
    "attention": {"num_warps": 4, "num_stages": 1},  # 06's AMD configs use num_stages=1
}
CONSTEXPRS = {
    "add": {"BLOCK": 1024},
    "matmul": {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32, "GROUP_M": 2},
    "matmul_fp8": {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 64, "GROUP_M": 2},
    "attention": {"BLOCK_M": 64, "BLOCK_N": 32},
}
# the emulated problem sizes (Triton's tutorials use larger ones on a GPU)
SHAPES = {
    "add": {"n": 98_432},                # 01's size: not a multiple of BLOCK
    "softmax": {"rows": 1823, "cols": 781},  # 02's own test: 781 columns padded to 1024
    "matmul": {"M": 256, "N": 256, "K": 256},
    "attention": {"Z": 1, "H": 2, "N_CTX": 256, "HEAD_DIM": 64},
}
DTYPES = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16,
          "fp8": torch.float8_e4m3fn}  # fp8: OCP e4m3, Triton's tl.float8e4nv (gfx950)
# the output type each matmul input type stores
MATMUL_OUT = {"fp16": "fp16", "bf16": "fp32", "fp8": "fp32"}
# tolerances, as Triton's tutorials check their kernels (python/tutorials/0X-*.py); ``allowed``
# turns them into a bound per element, ``Run.ok`` says whether a launch kept within it
TOLERANCES = {
    "add": {"atol": 0.0, "rtol": 0.0, "short": "exact",
            "why": "fp32 addition is exact (torch.equal)"},
    "softmax": {"atol": 1e-8, "rtol": 1e-5, "short": "allclose defaults (02)",
                "why": "02-fused-softmax.py: assert "
                "torch.allclose(y_triton, y_torch), allclose's defaults"},
    "matmul": {"atol": 1e-2, "rtol": 0.0, "short": "atol 1e-2, rtol 0 (03)",
               "why": "03-matrix-multiplication.py: "
               "torch.allclose(triton_output, torch_output, atol=1e-2, rtol=rtol), rtol 0 "
               "(1e-2 on gfx90a only); a 16-bit C may also differ by one unit in the last "
               "place of torch's C (the same fp32 sum, rounded after a different order)"},
    "matmul_fp8": {"atol": 0.0, "rtol": 0.0, "short": "K * 2^-24 * (|A| @ |B|)",
                   "why": "C in fp32 from the same fp8 values: "
                   "any summation order is within K * 2**-24 * (|A| @ |B|) of the exact sum "
                   "(each product of two e4m3 values is exact in fp32)"},
    "attention": {"atol": 1e-2, "rtol": 0.0, "short": "atol 1e-2, rtol 0 (06)",
                  "why": "06-fused-attention.py test_op: "
                  "torch.testing.assert_close(tri_out, ref_out, atol=1e-2, rtol=0) (fp16)"},
}


def tolerance(name: str, dtype: str | None = None) -> dict:
    """TOLERANCES of a kernel (matmul on fp8: its own entry)."""
    return TOLERANCES["matmul_fp8" if name == "matmul" and dtype == "fp8" else name]


def allowed(name: str, ref: torch.Tensor, args: dict, dtype: str | None = None) -> torch.Tensor:
    """The largest |output - reference| each element may show (see TOLERANCES)."""
    tol = tolerance(name, dtype)
    bound = tol["atol"] + tol["rtol"] * ref.float().abs()
    if name == "matmul" and dtype == "fp8":
        a, b = args["a"].float().abs(), args["b"].float().abs()
        bound = bound + a.shape[1] * 2.0 ** -24 * (a @ b)
    if name == "matmul" and ref.dtype in (torch.float16, torch.bfloat16):
        bound = torch.maximum(bound, _ulp(ref))
    return torch.broadcast_to(bound, ref.shape)


def _ulp(x: torch.Tensor) -> torch.Tensor:
    """One unit in the last place of each element of x in x's (normal) floating type."""
    _, e = torch.frexp(x.float().abs())  # |x| = m * 2**e, 0.5 <= m < 1
    return torch.finfo(x.dtype).eps * torch.exp2((e - 1).float())


def device(arch: str) -> str:
    return f"emulator:{arch}"


def kernel(name: str, arch: str | tuple[str, ...] = ARCHS, **options: Any):
    """``wb.triton`` of a tutorial kernel with its OPTIONS (``options`` override them)."""
    import workbench as wb

    return wb.triton(KERNELS[name], arch=arch, **{**OPTIONS[name], **options})


def constexprs(name: str, dtype: str | None = None) -> dict[str, int]:
    """The launch's constexprs: matmul on fp8 takes a deeper K block (the fp8 MFMAs' K)."""
    if name == "matmul" and dtype == "fp8":
        return dict(CONSTEXPRS["matmul_fp8"])
    return dict(CONSTEXPRS.get(name, {}))


# -- wrappers: launch a kernel on tensors, as the tutorials' host functions do --------------
# (outputs start as NaN, not torch.empty's leftovers: an element the kernel misses shows)


def add(kern: Any, x: torch.Tensor, y: torch.Tensor, device: str | None = None,
        BLOCK: int = 1024):
    """(x + y, LaunchResult): cdiv(n, BLOCK) programs."""
    out = torch.full_like(x, math.nan)
    n = x.numel()
    res = _on(kern, device)[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](
        x, y, out, n, BLOCK=BLOCK)
    return out, res


def softmax(kern: Any, x: torch.Tensor, device: str | None = None):
    """(row softmax of a 2-D x, LaunchResult): one program per row."""
    out = torch.full_like(x, math.nan)
    res = _on(kern, device)[(x.shape[0],)](out, x, x.stride(0), out.stride(0), x.shape[1],
                                           BLOCK=triton.next_power_of_2(x.shape[1]))
    return out, res


def matmul(kern: Any, a: torch.Tensor, b: torch.Tensor, out_dtype: torch.dtype = torch.float16,
           device: str | None = None, **meta: int):
    """(a @ b as out_dtype, LaunchResult): a 1-D grid of tiles in grouped order."""
    (M, K), (K2, N) = a.shape, b.shape
    if K != K2:
        raise ValueError(f"matmul: a is {M}x{K} but b is {K2}x{N}")
    meta = {**CONSTEXPRS["matmul"], **meta}
    c = torch.full((M, N), math.nan, dtype=out_dtype)
    grid = triton.cdiv(M, meta["BLOCK_M"]) * triton.cdiv(N, meta["BLOCK_N"])
    res = _on(kern, device)[(grid,)](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0),
                                     b.stride(1), c.stride(0), c.stride(1), **meta)
    return c, res


def attention(kern: Any, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
              sm_scale: float | None = None, causal: bool = False, device: str | None = None,
              **meta: int):
    """(attention output like q, LaunchResult); q, k, v: [Z, H, N_CTX, HEAD_DIM], contiguous."""
    if not (q.shape == k.shape == v.shape and q.stride() == k.stride() == v.stride()):
        raise ValueError("attention: q, k and v take one shape and one layout here "
                         f"(got {tuple(q.shape)}, {tuple(k.shape)}, {tuple(v.shape)})")
    Z, H, n, d = q.shape
    sm_scale = 1.0 / math.sqrt(d) if sm_scale is None else sm_scale
    meta = {**CONSTEXPRS["attention"], **meta}
    o = torch.full_like(q, math.nan)
    grid = (triton.cdiv(n, meta["BLOCK_M"]), Z * H)
    res = _on(kern, device)[grid](q, k, v, o, sm_scale, *q.stride(), H, n, HEAD_DIM=d,
                                  CAUSAL=causal, **meta)
    return o, res


def tile_order(M: int, N: int, BLOCK_M: int, BLOCK_N: int, GROUP_M: int) -> list[tuple]:
    """(tile row, tile column) of C each program id computes, as matmul_kernel maps them:
    the grouped ordering of 03-matrix-multiplication.py ("L2 Cache Optimizations")."""
    tiles_m, tiles_n = -(-M // BLOCK_M), -(-N // BLOCK_N)
    order = []
    for pid in range(tiles_m * tiles_n):
        row0 = pid // (GROUP_M * tiles_n) * GROUP_M
        rows_here = min(tiles_m - row0, GROUP_M)
        in_group = pid % (GROUP_M * tiles_n)
        order.append((row0 + in_group % rows_here, in_group // rows_here))
    return order


def _on(kern: Any, device: str | None) -> Any:
    return kern.on(device) if device is not None else kern


# -- inputs and torch references -----------------------------------------------------------


def inputs(name: str, dtype: str | None = None, seed: int = 0, **shape: int) -> dict:
    """The tutorial's inputs (torch, CPU) for one kernel at SHAPES (``shape`` overrides)."""
    s = {**SHAPES[name], **shape}
    g = torch.Generator().manual_seed(seed)
    if name == "add":
        return {"x": torch.rand(s["n"], generator=g), "y": torch.rand(s["n"], generator=g)}
    if name == "softmax":
        return {"x": torch.randn(s["rows"], s["cols"], generator=g)}
    if name == "matmul":
        dt = DTYPES[dtype or "fp16"]
        a = torch.randn(s["M"], s["K"], generator=g).to(dt)
        b = torch.randn(s["K"], s["N"], generator=g).to(dt)
        return {"a": a, "b": b}
    if name == "attention":  # 06's test_op: normal(0, 0.5), sm_scale 0.5
        dt = DTYPES[dtype or "fp16"]
        size = (s["Z"], s["H"], s["N_CTX"], s["HEAD_DIM"])
        q, k, v = (torch.empty(size).normal_(0.0, 0.5, generator=g).to(dt) for _ in range(3))
        return {"q": q, "k": k, "v": v, "sm_scale": 0.5}
    raise KeyError(f"no tutorial kernel {name!r}; known: {list(KERNELS)}")


def reference(name: str, causal: bool = False, out_dtype: str | None = None,
              **args: Any) -> torch.Tensor:
    """torch's answer for ``inputs(name)``: x + y; torch.softmax; torch.matmul (fp8: in fp32 from
    the same fp8 values); attention as 06's test_op computes it (scores and softmax in fp32,
    P rounded to the input type, P @ V)."""
    if name == "add":
        return args["x"] + args["y"]
    if name == "softmax":
        return torch.softmax(args["x"], dim=1)
    if name == "matmul":
        a, b = args["a"], args["b"]
        out = DTYPES[out_dtype or MATMUL_OUT.get(_dtype_name(a.dtype), "fp32")]
        if a.dtype == torch.float16 and out == torch.float16:
            return torch.matmul(a, b)
        return torch.matmul(a.float(), b.float()).to(out)
    if name == "attention":
        q, k, v = args["q"], args["k"], args["v"]
        s = torch.matmul(q.float(), k.float().transpose(2, 3)) * args["sm_scale"]
        if causal:
            n = q.shape[2]
            s = s.masked_fill(~torch.tril(torch.ones(n, n, dtype=torch.bool)), -math.inf)
        p = torch.softmax(s, dim=-1).to(q.dtype)
        return torch.matmul(p, v)
    raise KeyError(f"no tutorial kernel {name!r}; known: {list(KERNELS)}")


def _dtype_name(dt: torch.dtype) -> str:
    return next(k for k, v in DTYPES.items() if v == dt)


class Run(NamedTuple):
    """One checked launch: the kernel's output, torch's, their largest absolute difference,
    whether every element is within ``allowed`` (the tutorial's tolerance), and the launch's
    host seconds on the emulator (LaunchResult.seconds)."""

    output: torch.Tensor
    reference: torch.Tensor
    max_error: float
    ok: bool
    seconds: float


def launch(name: str, kern: Any, arch: str, *, dtype: str | None = None, seed: int = 0,
           causal: bool = False, out_dtype: str | None = None, **shape: int) -> Run:
    """Run a tutorial kernel on ``emulator:<arch>`` with ``inputs(name, dtype, seed, **shape)``
    and compare it with ``reference``: Run(output, reference, max_error, ok, seconds).
    ``dtype``: matmul's inputs ("fp16", "bf16", "fp8"), attention's ("fp16", "bf16");
    ``out_dtype``: matmul's C (default MATMUL_OUT[dtype]); ``causal``: attention's mask."""
    args = inputs(name, dtype, seed, **shape)
    dev = device(arch)
    if name == "add":
        out, res = add(kern, args["x"], args["y"], dev, **constexprs("add"))
    elif name == "softmax":
        out, res = softmax(kern, args["x"], dev)
    elif name == "matmul":
        out_dtype = out_dtype or MATMUL_OUT[dtype or "fp16"]
        out, res = matmul(kern, args["a"], args["b"], DTYPES[out_dtype], dev,
                          **constexprs("matmul", dtype))
    elif name == "attention":
        out, res = attention(kern, args["q"], args["k"], args["v"], args["sm_scale"], causal,
                             dev, **constexprs("attention"))
    else:
        raise KeyError(f"no tutorial kernel {name!r}; known: {list(KERNELS)}")
    ref = reference(name, causal=causal, out_dtype=out_dtype, **args)
    diff = (out.float() - ref.float()).abs()
    ok = bool((diff <= allowed(name, ref, args, dtype)).all())
    return Run(out, ref, diff.max().item(), ok, res.seconds)


def mfma(kern: Any, arch: str) -> list[str]:
    """The MFMA instructions (mnemonics, sorted) in the last specialization's ISA for arch."""
    return sorted({i.mnemonic for i in kern.isa_for(arch) if i.mnemonic.startswith("v_mfma")})
