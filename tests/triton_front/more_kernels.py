"""Triton kernels beyond the tutorial, for tests/triton_front/test_more_kernels.py.

Why: users bring Triton kernels hipwb has not seen; these exercise the idioms common in
Triton code (triton-lang/triton python/tutorials/ and triton.language's documented API),
written for hipwb, so that the ISA Triton's AMD backend emits for them runs on the emulator:
reductions and rsqrt (layer norm, tutorial 05's forward), Philox random numbers (``tl.rand``,
tutorial 04's dropout), scans (``tl.cumsum``), max with indices and ``tl.argmax``, atomics
(int32 and fp32 ``tl.atomic_add``), transcendental elementwise maths (``tl.math.erf``,
``tl.sigmoid``, ``tl.exp``, ``tl.where``), tensor descriptors (``tl.make_tensor_descriptor``:
Triton 3.9 removed ``tl.make_block_ptr``), a persistent matmul over ``tl.range``, int8 and
transposed fp16 ``tl.dot``, a masked 2-D transpose, int64 integer arithmetic, ``tl.reduce``
with user combine functions (one over a tuple), fp64 arithmetic, programs taking a lock in turn
(``tl.atomic_cas`` spin-waits), scalar arguments of every kind and ``tl.device_print`` (which
the emulator cannot serve: the test checks the message).

Each ``*_kernel`` is a ``@triton.jit`` function; ``kernel(name, arch)`` wraps it with
``wb.triton`` and the launch options in OPTIONS. Loaded by path (tests/ is no package).
"""

from __future__ import annotations

import triton
import triton.language as tl

# -- reductions ------------------------------------------------------------------------------


@triton.jit
def layer_norm_fwd_kernel(x_ptr, y_ptr, w_ptr, b_ptr, mean_ptr, rstd_ptr, stride, N, eps,
                          BLOCK: tl.constexpr):
    """One row per program: mean, biased variance, rstd = 1/sqrt(var + eps), then
    y = (x - mean) * rstd * w + b, the row walked in BLOCK-wide chunks (N need not fit one)."""
    row = tl.program_id(0)
    x_ptr += row * stride
    y_ptr += row * stride
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + cols, mask=cols < N, other=0.0).to(tl.float32)
    mean = tl.sum(acc, axis=0) / N
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + cols, mask=cols < N, other=0.0).to(tl.float32)
        d = tl.where(cols < N, x - mean, 0.0)
        acc += d * d
    var = tl.sum(acc, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, rstd)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        mask = cols < N
        w = tl.load(w_ptr + cols, mask=mask)
        b = tl.load(b_ptr + cols, mask=mask)
        x = tl.load(x_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        y = (x - mean) * rstd * w + b
        tl.store(y_ptr + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def cumsum_kernel(x_ptr, out_ptr, n_rows, n_cols, stride, ROWS: tl.constexpr,
                  BLOCK: tl.constexpr, REVERSE: tl.constexpr):
    """Inclusive prefix sums along each row (from the right with REVERSE); ROWS rows per
    program, each padded to BLOCK columns with zeros."""
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    offs = rows[:, None] * stride + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    tl.store(out_ptr + offs, tl.cumsum(x, axis=1, reverse=REVERSE), mask=mask)


@triton.jit
def argmax_kernel(x_ptr, max_ptr, idx_ptr, argmin_ptr, n_cols, stride, LOW: tl.constexpr,
                  HIGH: tl.constexpr, BLOCK: tl.constexpr):
    """Per row: the max and its (first) index through tl.max(return_indices=True), and
    tl.argmin; the padding reads LOW for the max and HIGH for the argmin."""
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    lo = tl.load(x_ptr + row * stride + cols, mask=mask, other=LOW)
    hi = tl.load(x_ptr + row * stride + cols, mask=mask, other=HIGH)
    m, i = tl.max(lo, axis=0, return_indices=True)
    tl.store(max_ptr + row, m)
    tl.store(idx_ptr + row, i)
    tl.store(argmin_ptr + row, tl.argmin(hi, axis=0))


@triton.jit
def _xor(a, b):
    return a ^ b


@triton.jit
def _min_abs_first(v0, i0, v1, i1):
    """Combine for (|x|, index): the smaller |x|, the smaller index among equals."""
    take0 = (v0 < v1) | ((v0 == v1) & (i0 < i1))
    return tl.where(take0, v0, v1), tl.where(take0, i0, i1)


@triton.jit
def custom_reduce_kernel(x_ptr, xor_ptr, minabs_ptr, where_ptr, n_cols, stride,
                         BLOCK: tl.constexpr):
    """Per row of int32: the XOR of all elements (tl.reduce with a user combine) and the
    smallest |x| with its first index (tl.reduce over a tuple of two tensors)."""
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0)
    tl.store(xor_ptr + row, tl.reduce(x, 0, _xor))
    v = tl.where(mask, tl.abs(x), 2147483647)
    m, i = tl.reduce((v, cols), 0, _min_abs_first)
    tl.store(minabs_ptr + row, m)
    tl.store(where_ptr + row, i)


# -- random numbers, atomics, elementwise maths ---------------------------------------------


@triton.jit
def dropout_kernel(x_ptr, out_ptr, rand_ptr, n, p, scale, seed, BLOCK: tl.constexpr):
    """Tutorial 04's seeded dropout: keep x * scale where tl.rand(seed, offset) > p, else 0;
    the uniform numbers are stored too."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    r = tl.rand(seed, offs)
    tl.store(rand_ptr + offs, r, mask=mask)
    tl.store(out_ptr + offs, tl.where(r > p, x * scale, 0.0), mask=mask)


@triton.jit
def histogram_kernel(x_ptr, w_ptr, count_ptr, wsum_ptr, n, n_bins, BIN_WIDTH: tl.constexpr,
                     BLOCK: tl.constexpr):
    """Histogram of int32 values, bin = x // BIN_WIDTH (values past the last bin dropped):
    an int32 count (tl.atomic_add of 1) and an fp32 sum of weights per bin."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    w = tl.load(w_ptr + offs, mask=mask, other=0.0)
    b = x // BIN_WIDTH
    ok = mask & (b < n_bins)
    tl.atomic_add(count_ptr + b, 1, mask=ok)
    tl.atomic_add(wsum_ptr + b, w, mask=ok)


@triton.jit
def activations_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """Six activations of x, stored at out[k * n + i]: gelu (erf), silu (tl.sigmoid),
    elu, leaky relu, softplus (threshold 20) and a clamp."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    gelu = 0.5 * x * (1.0 + tl.math.erf(x * 0.7071067811865476))
    silu = x * tl.sigmoid(x)
    elu = tl.where(x > 0, x, tl.exp(x) - 1.0)
    leaky = tl.where(x >= 0, x, 0.01 * x)
    softplus = tl.where(x > 20.0, x, tl.log(1.0 + tl.exp(x)))
    clamp = tl.minimum(tl.maximum(x, -1.5), 2.5)
    tl.store(out_ptr + offs, gelu, mask=mask)
    tl.store(out_ptr + n + offs, silu, mask=mask)
    tl.store(out_ptr + 2 * n + offs, elu, mask=mask)
    tl.store(out_ptr + 3 * n + offs, leaky, mask=mask)
    tl.store(out_ptr + 4 * n + offs, softplus, mask=mask)
    tl.store(out_ptr + 5 * n + offs, clamp, mask=mask)


@triton.jit
def int64_ops_kernel(a_ptr, b_ptr, out_ptr, n, SHIFT: tl.constexpr, BLOCK: tl.constexpr):
    """Integer arithmetic on int64 (b never 0), results at out[k * n + i]: a // b and a % b
    (truncating, as C: Triton emits sdiv/srem), a << SHIFT, a >> SHIFT (arithmetic), a logical
    shift right by (b & 63), min, max, a * b (wrapping) and a ^ b | (a & 255)."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=1)
    b = tl.load(b_ptr + offs, mask=mask, other=1)
    ua = a.to(tl.uint64, bitcast=True)
    lsr = (ua >> (b & 63).to(tl.uint64)).to(tl.int64, bitcast=True)
    res = (a // b, a % b, a << SHIFT, a >> SHIFT, lsr, tl.minimum(a, b), tl.maximum(a, b),
           a * b, (a ^ b) | (a & 255))
    for k in tl.static_range(9):
        tl.store(out_ptr + k * n + offs, res[k], mask=mask)


@triton.jit
def fp64_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """fp64 elementwise, results at out[k * n + i]: x / y, sqrt|x|, fma(x, y, x), exp(y),
    log|x|, x rounded to fp32 and back, and where(x > y, x - y, y * 0.5)."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=1.0)
    y = tl.load(y_ptr + offs, mask=mask, other=1.0)
    res = (x / y, tl.sqrt(tl.abs(x)), tl.fma(x, y, x), tl.exp(y), tl.log(tl.abs(x)),
           x.to(tl.float32).to(tl.float64), tl.where(x > y, x - y, y * 0.5))
    for k in tl.static_range(7):
        tl.store(out_ptr + k * n + offs, res[k], mask=mask)


@triton.jit
def transpose_kernel(x_ptr, y_ptr, M, N, stride_xm, stride_ym, BLOCK_M: tl.constexpr,
                     BLOCK_N: tl.constexpr, TRANS: tl.constexpr):
    """y[N, M] = x[M, N]^T one BLOCK_M x BLOCK_N tile per program, the edges masked; with
    TRANS the tile is turned by tl.trans in registers, else stored through swapped offsets."""
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm[:, None] * stride_xm + rn[None, :], mask=mask)
    if TRANS:
        tl.store(y_ptr + rn[:, None] * stride_ym + rm[None, :], tl.trans(x), mask=tl.trans(mask))
    else:
        tl.store(y_ptr + rn[None, :] * stride_ym + rm[:, None], x, mask=mask)


# -- matmuls ---------------------------------------------------------------------------------


@triton.jit
def descriptor_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                             BLOCK_K: tl.constexpr):
    """C = A @ B through tensor descriptors (tl.make_tensor_descriptor: the API Triton 3.9 keeps
    where it removed tl.make_block_ptr/tl.advance): block loads at [row, col] offsets read
    zeros past M, N, K and the block store leaves them alone; grid (tiles_m, tiles_n).
    Row-major operands whose row strides are multiples of 16 bytes."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[stride_am, 1],
                                       block_shape=[BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[stride_bk, 1],
                                       block_shape=[BLOCK_K, BLOCK_N])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[stride_cm, 1],
                                       block_shape=[BLOCK_M, BLOCK_N])
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        a = a_desc.load([pid_m * BLOCK_M, k0])
        b = b_desc.load([k0, pid_n * BLOCK_N])
        acc = tl.dot(a, b, acc)
    c_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], acc.to(c_desc.dtype))


@triton.jit
def persistent_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk,
                             stride_bn, stride_cm, stride_cn, BLOCK_M: tl.constexpr,
                             BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                             NUM_PROGS: tl.constexpr):
    """C = A @ B with NUM_PROGS programs, each looping (tl.range) over the tiles
    pid, pid + NUM_PROGS, ...; masked edges."""
    pid = tl.program_id(0)
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    for tile in tl.range(pid, tiles_m * tiles_n, NUM_PROGS):
        rm = (tile // tiles_n) * BLOCK_M + tl.arange(0, BLOCK_M)
        rn = (tile % tiles_n) * BLOCK_N + tl.arange(0, BLOCK_N)
        rk = tl.arange(0, BLOCK_K)
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k0 in range(0, K, BLOCK_K):
            a = tl.load(a_ptr + rm[:, None] * stride_am + (k0 + rk)[None, :] * stride_ak,
                        mask=(rm[:, None] < M) & ((k0 + rk)[None, :] < K), other=0.0)
            b = tl.load(b_ptr + (k0 + rk)[:, None] * stride_bk + rn[None, :] * stride_bn,
                        mask=((k0 + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
            acc = tl.dot(a, b, acc)
        tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn,
                 acc.to(c_ptr.dtype.element_ty), mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def int8_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    """C[int32] = A[int8] @ B[int8], accumulated in int32 (tl.dot out_dtype=tl.int32);
    row-major operands, masked edges; grid (tiles_m, tiles_n)."""
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.int32)
    for k0 in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * stride_am + (k0 + rk)[None, :],
                    mask=(rm[:, None] < M) & ((k0 + rk)[None, :] < K), other=0)
        b = tl.load(b_ptr + (k0 + rk)[:, None] * stride_bk + rn[None, :],
                    mask=((k0 + rk)[:, None] < K) & (rn[None, :] < N), other=0)
        acc = tl.dot(a, b, acc, out_dtype=tl.int32)
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def matmul_bt_kernel(a_ptr, bt_ptr, c_ptr, M, N, K, stride_am, stride_btn, stride_cm,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    """C = A @ Bt^T with Bt [N, K] row-major (a linear layer's weight): each Bt tile is
    loaded as it lies and turned by tl.trans for the dot; masked edges, C as c_ptr's type."""
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * stride_am + (k0 + rk)[None, :],
                    mask=(rm[:, None] < M) & ((k0 + rk)[None, :] < K), other=0.0)
        bt = tl.load(bt_ptr + rn[:, None] * stride_btn + (k0 + rk)[None, :],
                     mask=(rn[:, None] < N) & ((k0 + rk)[None, :] < K), other=0.0)
        acc = tl.dot(a, tl.trans(bt), acc)
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], acc.to(c_ptr.dtype.element_ty),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def ordered_sum_kernel(x_ptr, out_ptr, lock_ptr, order_ptr, n, BLOCK: tl.constexpr):
    """out[0] += the sum of this program's BLOCK of x, the programs adding in pid order: each
    waits (tl.atomic_cas in a while loop) until the lock holds its pid, adds, records its turn
    (order[pid] = order[64]++) and hands the lock to pid + 1 -- a deterministic reduction."""
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    part = tl.sum(tl.load(x_ptr + offs, mask=offs < n, other=0.0), axis=0)
    while tl.atomic_cas(lock_ptr, pid, -1) != pid:
        pass
    tl.store(out_ptr, tl.load(out_ptr) + part)
    tl.store(order_ptr + pid, tl.atomic_add(order_ptr + 64, 1))
    tl.atomic_xchg(lock_ptr, pid + 1)


@triton.jit
def scalar_args_kernel(out_ptr, a, b, c, d, flag, BLOCK: tl.constexpr, SCALE: tl.constexpr = 3):
    """out[:] = (a * SCALE + b if flag else c) + d: fp32 a and c, i32 b, i64 d (converted to
    fp32 on the scalar unit), u1 flag, a constexpr with a default."""
    v = tl.where(flag, a * SCALE + b, c) + d
    tl.store(out_ptr + tl.arange(0, BLOCK), v + tl.zeros((BLOCK,), tl.float32))


@triton.jit
def print_kernel(x_ptr, BLOCK: tl.constexpr):
    """tl.device_print: OCKL's hostcall printf (not emulated)."""
    tl.device_print("x", tl.load(x_ptr + tl.arange(0, BLOCK)))


KERNELS = {
    "layer_norm": layer_norm_fwd_kernel, "cumsum": cumsum_kernel, "argmax": argmax_kernel,
    "custom_reduce": custom_reduce_kernel, "dropout": dropout_kernel,
    "histogram": histogram_kernel, "activations": activations_kernel,
    "int64_ops": int64_ops_kernel, "fp64": fp64_kernel, "transpose": transpose_kernel,
    "descriptor_matmul": descriptor_matmul_kernel, "persistent_matmul": persistent_matmul_kernel,
    "int8_matmul": int8_matmul_kernel, "matmul_bt": matmul_bt_kernel,
    "scalar_args": scalar_args_kernel, "print": print_kernel,
    "ordered_sum": ordered_sum_kernel,
}
# wb.triton options per kernel (default num_warps=4, num_stages=2)
OPTIONS = {"layer_norm": {"num_warps": 2}, "cumsum": {"num_warps": 2},
           "argmax": {"num_warps": 2}, "custom_reduce": {"num_warps": 2},
           "transpose": {"num_warps": 2}, "scalar_args": {"num_warps": 1},
           "ordered_sum": {"num_warps": 1},
           "print": {"num_warps": 1}}


def kernel(name: str, arch: str | tuple[str, ...] = ("gfx942", "gfx950")):
    """``wb.triton`` of one kernel here with its OPTIONS."""
    import workbench as wb

    return wb.triton(KERNELS[name], arch=list(arch) if isinstance(arch, tuple) else arch,
                     **OPTIONS.get(name, {}))
