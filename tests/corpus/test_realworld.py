"""Real HIP code just works: public HIP programs compile unchanged, and their kernels run.

The corpus (tests/kernels/realworld, sources and licences in its README) holds whole files from
AMD's rocm-examples and HIP-Examples, host code included. Every file is compiled for gfx942 and
gfx1100 with the include folders and options of its own build; the few that cannot build
offline must fail with the stated message. Kernels with clear semantics then run on the
emulator (gfx942, and built for gfx1201 on the RDNA4 emulator in wave32) and must match numpy.
"""
from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

import workbench
from workbench.runtime import Kernel
from workbench.toolchain import find_toolchain

sys.path.insert(0, str(Path(__file__).parents[1] / "kernels" / "realworld"))
from corpus import ENTRIES, Entry  # noqa: E402

ARCHS = ("gfx942", "gfx1100")
BUILDS = [e for e in ENTRIES if e.fails is None]


def _build(e: Entry):
    try:
        return workbench.compile(e.source(), arch=list(ARCHS), include_dirs=e.include_dirs(),
                                 options=list(e.options), filename=str(Path(e.path).name))
    except workbench.CompileError as err:
        return err


@pytest.fixture(scope="module")
def built() -> dict[str, object]:
    """Every corpus file compiled once (two files at a time, each for both targets)."""
    with ThreadPoolExecutor(2) as pool:
        return dict(zip((e.path for e in ENTRIES), pool.map(_build, ENTRIES)))


def test_corpus_is_at_least_40_programs_with_at_least_40_kernels(built):
    assert len(BUILDS) >= 40
    kernels = sum(len(built[e.path]["gfx942"].kernels) for e in BUILDS
                  if not isinstance(built[e.path], Exception))
    assert kernels >= 40, kernels


@pytest.mark.parametrize("entry", BUILDS, ids=lambda e: e.path)
def test_compiles_unchanged_for_gfx942_and_gfx1100(built, entry):
    mod = built[entry.path]
    assert not isinstance(mod, Exception), str(mod)
    assert set(mod.archs) == set(ARCHS)
    # the same kernels for both targets
    assert set(mod["gfx942"].kernels) == set(mod["gfx1100"].kernels)


@pytest.mark.parametrize("entry", [e for e in ENTRIES if e.fails], ids=lambda e: e.path)
def test_what_cannot_build_offline_fails_clearly(built, entry):
    arch, text, _why = entry.fails
    err = built[entry.path]
    if find_toolchain().clang_major < entry.fails_from_llvm:  # an older clang builds it
        assert not isinstance(err, Exception), str(err)
        return
    assert isinstance(err, workbench.CompileError)
    assert err.arch == arch and text in str(err)


# --------------------------------------------------------------------------------------------
# kernels run on the emulator against numpy

RNG = np.random.default_rng(17)


def _kernel(built, path: str, name: str) -> Kernel:
    mod = built[path]
    assert not isinstance(mod, Exception), str(mod)
    names = [k for k in mod["gfx942"].kernels if k == name or k.startswith(name)]
    assert names, f"{name} not in {list(mod['gfx942'].kernels)}"
    return Kernel(mod, names[0], "emulator")


def _saxpy(k):
    x = RNG.standard_normal(1000).astype(np.float32)
    y = RNG.standard_normal(1000).astype(np.float32)
    want = np.float32(2.0) * x + y
    k[4, 256](np.float32(2.0), x, y, 1000)
    np.testing.assert_allclose(y, want, rtol=1e-6)


def _bit_extract(k):
    x = RNG.integers(0, 2**32, 5000, dtype=np.uint32)
    out = np.zeros_like(x)
    k[4, 256](out, x, x.size)
    np.testing.assert_array_equal(out, (x >> 8) & 0xF)


def _moving_average(k):
    # moving_average<256, 97> (the example's instantiation): floor of each window's mean
    x = RNG.integers(0, 1000, 2000, dtype=np.uint32)
    out = np.zeros(2000 - 97 + 1, np.uint32)
    k[(out.size + 255) // 256, 256](x, out, x.size)
    want = np.convolve(x.astype(np.int64), np.ones(97, np.int64), "valid") // 97
    np.testing.assert_array_equal(out, want)


def _pairwise(k):
    a, b = (RNG.standard_normal(777).astype(np.float32) for _ in range(2))
    c = np.zeros_like(a)
    k[(777 + 31) // 32, 32](c, a, b, 777)
    np.testing.assert_array_equal(c, a * b)


def _matmul(k):
    # matrix_multiplication_kernel<16>: C (64x48) = A (64x32) @ B (32x48), one 16x16 tile a block
    a = RNG.standard_normal((64, 32)).astype(np.float32)
    b = RNG.standard_normal((32, 48)).astype(np.float32)
    c = np.zeros((64, 48), np.float32)
    k[(48 // 16, 64 // 16), (16, 16)](a, b, c, 32)
    np.testing.assert_allclose(c, a @ b, rtol=1e-4, atol=1e-4)


def _transpose_static64(k):
    m = RNG.standard_normal((64, 64)).astype(np.float32)
    out = np.zeros_like(m)
    k[(16, 16), (4, 4)](out, m)
    np.testing.assert_array_equal(out, m.T)


def _transpose_dynamic(k):
    m = RNG.standard_normal((4, 4)).astype(np.float32)
    out = np.zeros_like(m)
    k.launch((1, 1), (4, 4), out, m, 4, dynamic_lds=m.nbytes)
    np.testing.assert_array_equal(out, m.T)


def _transpose_shfl(k):
    m = RNG.standard_normal((4, 4)).astype(np.float32)
    out = np.zeros_like(m)
    k[(1, 1), (4, 4)](out, m, 4)
    np.testing.assert_array_equal(out, m.T)


def _coop_reduce(k):
    # vector_reduce_kernel<16>: the block's sum and each 16-thread partition's sum
    v = RNG.integers(0, 100, 64, dtype=np.uint32)
    block = np.zeros(1, np.uint32)
    parts = np.zeros(4, np.uint32)
    k[1, 64](v, block, parts)
    assert block[0] == v.sum()
    np.testing.assert_array_equal(parts, v.reshape(4, 16).sum(axis=1))


def _histogram(k):
    # histogram256_block: per-block histograms of items_per_thread bytes per thread
    block, items, blocks = 128, 16, 3
    data = RNG.integers(0, 256, block * items * blocks, dtype=np.uint8)
    bins = np.zeros(256 * blocks, np.uint32)
    k.launch(blocks, block, data, bins, items, dynamic_lds=256 * block)
    want = np.stack([np.bincount(d, minlength=256) for d in data.reshape(blocks, -1)])
    np.testing.assert_array_equal(bins.reshape(blocks, 256), want)


def _square(k):
    x = RNG.standard_normal(3000).astype(np.float32)
    out = np.zeros_like(x)
    k[4, 256](out, x, x.size)
    np.testing.assert_array_equal(out, x * x)


def _copy_u32(k):
    x = RNG.integers(0, 2**32, 512, dtype=np.uint32)
    out = np.zeros_like(x)
    k[2, 256](out, x, 512)
    np.testing.assert_array_equal(out, x)


def _copy_f32(k):
    x = RNG.standard_normal(64).astype(np.float32)
    out = np.zeros_like(x)
    k[1, 64](out, x)
    np.testing.assert_array_equal(out, x)


def _vectoradd(k):
    w, h = 64, 16
    b, c = (RNG.standard_normal(w * h).astype(np.float32) for _ in range(2))
    a = np.zeros_like(b)
    k[(w // 16, h // 16), (16, 16)](a, b, c, w, h)
    np.testing.assert_array_equal(a, b + c)


def _strided_add(k):
    n, stride = 500, 3
    x, y = (RNG.standard_normal(n * stride).astype(np.float32) for _ in range(2))
    z = np.zeros_like(x)
    k[2, 128](x, y, z, stride, n)
    np.testing.assert_array_equal(z[::stride], (x + y)[::stride])
    assert not z.reshape(n, stride)[:, 1:].any()


def _atomic_sum(k):
    x = RNG.integers(-1000, 1000, 4096, dtype=np.int32)
    out = np.zeros(1, np.int32)
    k[4, 128](x, out, x.size)
    assert out[0] == x.sum()


def _bitonic_sort(k):
    # the example's host loop: step i = 0..log2(n)-1, stage j = 0..i, ascending
    a = RNG.integers(0, 2**31, 1024, dtype=np.uint32)
    want = np.sort(a)
    for step in range(10):
        for stage in range(step + 1):
            k[1024 // 2 // 256, 256](a, step, stage, True)
    np.testing.assert_array_equal(a, want)


def _floyd_warshall(k):
    # floyd_warshall_kernel over all k: shortest paths of a random graph (16 nodes, 2D blocks)
    n = 16
    adj = RNG.integers(1, 50, (n, n), dtype=np.uint32)
    np.fill_diagonal(adj, 0)
    nxt = np.tile(np.arange(n, dtype=np.uint32), (n, 1))
    want = adj.astype(np.int64)
    for kk in range(n):
        want = np.minimum(want, want[:, kk:kk + 1] + want[kk:kk + 1, :])
        k[(n // 8, n // 8), (8, 8)](adj, nxt, n, kk)
    np.testing.assert_array_equal(adj, want)


RUNS = [
    ("rocm-examples/HIP-Basic/saxpy/main.hip", "saxpy_kernel", _saxpy),
    ("rocm-examples/HIP-Basic/bit_extract/main.hip", "bit_extract_kernel", _bit_extract),
    ("rocm-examples/HIP-Basic/moving_average/main.hip", "moving_average", _moving_average),
    ("rocm-examples/HIP-Basic/occupancy/main.hip", "pairwise_product_kernel", _pairwise),
    ("rocm-examples/HIP-Basic/matrix_multiplication/main.hip", "matrix_multiplication_kernel",
     _matmul),
    ("rocm-examples/HIP-Basic/shared_memory/main.hip", "matrix_transpose_kernel",
     _transpose_static64),
    ("rocm-examples/HIP-Basic/dynamic_shared/main.hip", "matrix_transpose_kernel",
     _transpose_dynamic),
    ("rocm-examples/HIP-Basic/warp_shuffle/main.hip", "matrix_transpose_kernel",
     _transpose_shfl),
    ("rocm-examples/HIP-Basic/cooperative_groups/main.hip", "vector_reduce_kernel",
     _coop_reduce),
    ("rocm-examples/Applications/histogram/main.hip", "histogram256_block", _histogram),
    ("rocm-examples/HIP-Basic/assembly_to_executable/main.hip", "vector_square_kernel",
     _square),
    ("rocm-examples/HIP-Basic/llvm_ir_to_executable/main.hip", "vector_square_kernel", _square),
    ("rocm-examples/HIP-Basic/static_host_library/library/library.hip", "copy_kernel",
     _copy_u32),
    ("rocm-examples/HIP-Basic/module_api/module.hip", "test_module_api_kernel", _copy_f32),
    ("rocm-examples/Applications/bitonic_sort/main.hip", "bitonic_sort_kernel", _bitonic_sort),
    ("rocm-examples/Applications/floyd_warshall/main.hip", "floyd_warshall_kernel",
     _floyd_warshall),
    ("HIP-Examples/vectorAdd/vectoradd_hip.cpp", "vectoradd_float", _vectoradd),
    ("HIP-Examples/strided-access/benchmark-hip.cpp", "elementwise_add", _strided_add),
    ("HIP-Examples/reduction/reduction.cpp", "atomic_reduction_kernel", _atomic_sum),
]


@pytest.mark.parametrize("path,name,check", RUNS, ids=[f"{p}:{n}" for p, n, _ in RUNS])
def test_runs_on_the_emulator_and_matches_numpy(built, path, name, check):
    check(_kernel(built, path, name))


def test_hello_world_prints_from_the_device(built, capsys):
    """The example's printf lines appear in the output: call by call, each by wave, then lane."""
    k = _kernel(built, "rocm-examples/HIP-Basic/hello_world/main.hip", "helloworld_kernel")
    res = k[2, 2]()
    out = capsys.readouterr().out.splitlines()
    want = ["Hello world from device or host!"] * 4
    want += [f"Hello world from device kernel block {b} thread {t}!"
             for b in range(2) for t in range(2)]
    assert out == want
    assert len(res.stats["printed"]) == 8


@pytest.mark.parametrize("path,name,check", RUNS, ids=[f"{p}:{n}" for p, n, _ in RUNS])
def test_runs_on_the_rdna4_emulator_in_wave32(path, name, check):
    """The same kernels built for gfx1201 (wave32, GFX12 names such as s_addk_co_i32 and the
    SALU float ops) run on ``emulator:gfx1201`` and pass the same numpy checks."""
    e = next(e for e in ENTRIES if e.path == path)
    mod = workbench.compile(e.source(), arch="gfx1201", include_dirs=e.include_dirs(),
                            options=list(e.options), filename=str(Path(e.path).name))
    names = [k for k in mod.kernels if k == name or k.startswith(name)]
    assert names, f"{name} not in {list(mod.kernels)}"
    check(Kernel(mod, names[0], "emulator:gfx1201"))
