"""Whole HIP programs as the field writes them compile, and their kernels run.

The corpus (tests/kernels/fieldwork, README there) holds whole programs written for hipwb in the
idioms of public HIP samples -- AMD's rocm-examples and HIP-Examples among them -- host code,
helper headers in include folders and main() included; no third-party source. Every file is
compiled for gfx942 and gfx1100 with the include folders and options of its own build; the few
that cannot build offline must fail with the stated message; every idiom the corpus exists for
must occur in a program that builds. Kernels then run on the emulator (gfx942 in wave64, and
built for gfx1201 on the RDNA4 emulator in wave32) and must match numpy.
"""
from __future__ import annotations

import re
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

import workbench
from workbench.runtime import Kernel
from workbench.toolchain import find_toolchain

sys.path.insert(0, str(Path(__file__).parents[1] / "kernels" / "fieldwork"))
from corpus import ENTRIES, IDIOMS, ROOT, Entry, read  # noqa: E402

ARCHS = ("gfx942", "gfx1100")
BUILDS = [e for e in ENTRIES if e.fails is None]


RDNA4 = "gfx1201"


def _build(e: Entry):
    # the programs whose kernels run are built for the RDNA4 emulator in the same call: one
    # more target costs far less than a second compile of the file
    archs = [*ARCHS, RDNA4] if e.path in {path for path, _ in RUNS} else list(ARCHS)
    try:
        return workbench.compile(e.source(), arch=archs, include_dirs=e.include_dirs(),
                                 options=list(e.options), filename=Path(e.path).name)
    except workbench.CompileError as err:
        return err


@pytest.fixture(scope="module")
def built() -> dict[str, object]:
    """Every corpus file compiled once (two files at a time, each for both targets)."""
    with ThreadPoolExecutor(2) as pool:
        return dict(zip((e.path for e in ENTRIES), pool.map(_build, ENTRIES)))


def test_corpus_is_at_least_35_programs_with_at_least_80_kernels(built):
    assert len(BUILDS) >= 35
    kernels = sum(len(built[e.path]["gfx942"].kernels) for e in BUILDS
                  if not isinstance(built[e.path], Exception))
    assert kernels >= 80, kernels


@pytest.mark.parametrize("entry", BUILDS, ids=lambda e: e.path)
def test_compiles_for_gfx942_and_gfx1100(built, entry):
    mod = built[entry.path]
    assert not isinstance(mod, Exception), str(mod)
    assert set(ARCHS) <= set(mod.archs)
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


def test_every_idiom_occurs_in_a_program_that_builds():
    """... for gfx942 at least: the texture program builds there, not for gfx1100."""
    texts = [e.text_with_headers() for e in ENTRIES if e.fails is None or e.fails[0] != "gfx942"]
    missing = [name for name, pattern in IDIOMS.items()
               if not any(re.search(pattern, t) for t in texts)]
    assert not missing


def test_the_corpus_is_our_own():
    """No licence files, no third-party notices: every source says it was written for hipwb.
    (One file is Latin-1, as some older samples are; it compiles as it is.)"""
    files = [p for p in ROOT.rglob("*") if p.suffix in {".hip", ".cpp", ".hpp", ".h"}]
    assert len(files) >= len(ENTRIES)
    for p in files:
        text = read(p)
        assert "hipwb" in text[:1500], p
        assert "copyright" not in text.lower() and "licen" not in text.lower(), p
    assert not list(ROOT.rglob("LICENSE*"))
    assert any(p.read_bytes() != read(p).encode() for p in files)  # the Latin-1 one


# --------------------------------------------------------------------------------------------
# kernels run on the emulator against numpy

RNG = np.random.default_rng(23)


def _pick(mod, arch: str, name: str) -> str:
    names = [k for k in mod[arch].kernels if k == name or k.startswith(name)]
    assert names, f"{name} not in {list(mod[arch].kernels)}"
    return names[0]


def _axpy(get, wave):
    x, y = (RNG.standard_normal(1000).astype(np.float32) for _ in range(2))
    want = np.float32(2.5) * x + y
    get("axpy")[4, 256](np.float32(2.5), x, y, 1000)
    np.testing.assert_allclose(y, want, rtol=1e-6, atol=1e-6)  # a * x + y may be fused


def _square(get, wave):
    x = RNG.standard_normal(3000).astype(np.float32)
    out = np.zeros_like(x)
    get("square_all_float")[4, 256](out, x, x.size)  # 1024 threads, 3000 elements
    np.testing.assert_array_equal(out, x * x)
    xd = RNG.standard_normal(700)
    outd = np.zeros_like(xd)
    get("square_all_double")[2, 128](outd, xd, xd.size)
    np.testing.assert_array_equal(outd, xd * xd)


def _hadamard(get, wave):
    a, b = (RNG.standard_normal(777).astype(np.float32) for _ in range(2))
    c = np.zeros_like(a)
    get("hadamard")[(777 + 31) // 32, 32](c, a, b, 777)
    np.testing.assert_array_equal(c, a * b)


def _extract(get, wave):
    x = RNG.integers(0, 2**32, 5000, dtype=np.uint32)
    out = np.zeros_like(x)
    get("extract_field")[4, 256](out, x, x.size)
    np.testing.assert_array_equal(out, (x >> 8) & 0xF)


def _window_mean(get, wave):
    # window_mean<256, 61>: floor of each window's mean
    x = RNG.integers(0, 1000, 2000, dtype=np.uint32)
    out = np.zeros(2000 - 61 + 1, np.uint32)
    get("window_mean")[(out.size + 255) // 256, 256](x, out, x.size)
    want = np.convolve(x.astype(np.int64), np.ones(61, np.int64), "valid") // 61
    np.testing.assert_array_equal(out, want)


def _tile_gemm(get, wave):
    # tile_gemm<16>: C (64x48) = A (64x32) @ B (32x48), one 16x16 tile a block
    a = RNG.standard_normal((64, 32)).astype(np.float32)
    b = RNG.standard_normal((32, 48)).astype(np.float32)
    c = np.zeros((64, 48), np.float32)
    get("tile_gemm")[(48 // 16, 64 // 16), (16, 16)](a, b, c, 32)
    np.testing.assert_allclose(c, a @ b, rtol=1e-4, atol=1e-4)


def _transpose_fixed(get, wave):
    m = RNG.standard_normal((64, 64)).astype(np.float32)
    out = np.zeros_like(m)
    get("transpose_fixed")[(16, 16), (4, 4)](out, m)
    np.testing.assert_array_equal(out, m.T)


def _transpose_sized(get, wave):
    m = RNG.standard_normal((8, 8)).astype(np.float32)
    out = np.zeros_like(m)
    get("transpose_sized").launch((2, 2), (4, 4), out, m, 8, dynamic_lds=4 * 4 * 4)
    np.testing.assert_array_equal(out, m.T)


def _transpose_lanes(get, wave):
    m = RNG.standard_normal((4, 4)).astype(np.float32)
    out = np.zeros_like(m)
    get("transpose_shuffle")[(1, 1), (4, 4)](out, m, 4)
    np.testing.assert_array_equal(out, m.T)
    m = RNG.standard_normal((16, 16)).astype(np.float32)
    for name in ("transpose_asm", "transpose_by_target"):
        out = np.zeros_like(m)
        get(name)[(2, 2), (8, 8)](out, m, 16)
        np.testing.assert_array_equal(out, m.T, err_msg=name)


def _group_sums(get, wave):
    # block_and_tile_sums<16>: the block's sum and each 16-thread tile's sum
    v = RNG.integers(0, 100, 64, dtype=np.uint32)
    block = np.zeros(1, np.uint32)
    tiles = np.zeros(4, np.uint32)
    get("block_and_tile_sums")[1, 64](v, block, tiles)
    assert block[0] == v.sum()
    np.testing.assert_array_equal(tiles, v.reshape(4, 16).sum(axis=1))


def _device_vars(get, wave):
    k = get("weigh")
    x = RNG.standard_normal(512).astype(np.float32)
    w = np.arange(1, 9, dtype=np.float32)
    k.globals["weights"] = w
    k.globals["offset"] = 0.25
    out = np.zeros_like(x)
    k[2, 256](out, x, x.size)
    np.testing.assert_allclose(out, x * np.tile(w, 64) + np.float32(0.25), rtol=1e-6, atol=1e-6)


def _histogram(get, wave):
    # block_histogram: per-block histograms of per_thread bytes per thread
    block, items, blocks = 128, 16, 3
    data = RNG.integers(0, 256, block * items * blocks, dtype=np.uint8)
    bins = np.zeros(256 * blocks, np.uint32)
    get("block_histogram").launch(blocks, block, data, bins, items, dynamic_lds=256 * block)
    want = np.stack([np.bincount(d, minlength=256) for d in data.reshape(blocks, -1)])
    np.testing.assert_array_equal(bins.reshape(blocks, 256), want)


def _copy_words(get, wave):
    x = RNG.integers(0, 2**32, 512, dtype=np.uint32)
    out = np.zeros_like(x)
    get("copy_words")[2, 256](out, x, 512)
    np.testing.assert_array_equal(out, x)


def _module_copy(get, wave):
    x = RNG.standard_normal(64).astype(np.float32)
    out = np.zeros_like(x)
    get("module_copy")[1, 64](out, x)
    np.testing.assert_array_equal(out, x)


def _bitonic(get, wave):
    # the host loop: phase 0..log2(n)-1, pass 0..phase, ascending
    keys = RNG.integers(0, 2**32, 1024, dtype=np.uint32)
    want = np.sort(keys)
    k = get("bitonic_pass")
    for phase in range(10):
        for step in range(phase + 1):
            k[1024 // 2 // 256, 256](keys, phase, step, True)
    np.testing.assert_array_equal(keys, want)


def _apsp(get, wave):
    # relax_through over all k: shortest paths of a random graph (16 nodes, 8x8 blocks)
    n = 16
    dist = RNG.integers(1, 50, (n, n), dtype=np.uint32)
    np.fill_diagonal(dist, 0)
    via = np.tile(np.arange(n, dtype=np.uint32), (n, 1))
    want = dist.astype(np.int64)
    k = get("relax_through")
    for kk in range(n):
        want = np.minimum(want, want[:, kk:kk + 1] + want[kk:kk + 1, :])
        k[(n // 8, n // 8), (8, 8)](dist, via, n, kk)
    np.testing.assert_array_equal(dist, want)


def _stencil(get, wave):
    # convolve<5> with the mask in __constant__ memory; a 40x24 image padded by 2
    w, h = 40, 24
    padded = np.zeros((h + 4, w + 4), np.float32)
    padded[2:-2, 2:-2] = RNG.integers(0, 11, (h, w))
    mask = (1.0 / (1 + np.arange(25) % 7)).astype(np.float32)
    k = get("convolve")
    k.globals["mask"] = mask
    out = np.zeros((h, w), np.float32)
    k[(3, 2), (16, 16)](padded, out, np.array([w, h], np.uint32).tobytes())
    win = np.lib.stride_tricks.sliding_window_view(padded, (5, 5))
    np.testing.assert_allclose(out, np.einsum("yxij,ij->yx", win, mask.reshape(5, 5)), rtol=1e-5)


def _scan(get, wave):
    n, threads = 1500, 128
    x = RNG.integers(0, 5, n).astype(np.float32)
    blocks = -(-n // (2 * threads))
    totals = np.zeros(blocks, np.float32)
    data = x.copy()
    get("scan_pairs").launch(blocks, threads, data, totals, n, dynamic_lds=2 * threads * 4)
    chunks = [np.cumsum(x[i:i + 2 * threads]) for i in range(0, n, 2 * threads)]
    np.testing.assert_array_equal(data, np.concatenate(chunks))
    np.testing.assert_array_equal(totals, [c[-1] for c in chunks])
    carries = np.concatenate([[0], np.cumsum(totals)[:-1]]).astype(np.float32)
    get("add_carries")[-(-n // 256), 256](data, carries, n, 2 * threads)
    np.testing.assert_array_equal(data, np.cumsum(x))


def _vadd2d(get, wave):
    w, h = 64, 16
    b, c = (RNG.standard_normal(w * h).astype(np.float32) for _ in range(2))
    a = np.zeros_like(b)
    get("vadd2d")[(w // 16, h // 16), (16, 16)](a, b, c, w, h)
    np.testing.assert_array_equal(a, b + c)


def _strided(get, wave):
    n, stride = 500, 3
    x, y = (RNG.standard_normal(n * stride).astype(np.float32) for _ in range(2))
    z = np.zeros_like(x)
    get("add_strided")[2, 128](x, y, z, stride, n)
    np.testing.assert_array_equal(z[::stride], (x + y)[::stride])
    assert not z.reshape(n, stride)[:, 1:].any()


def _atomic_total(get, wave):
    x = RNG.integers(-1000, 1000, 4096, dtype=np.int32)
    for name in ("atomic_total_1", "atomic_total_4", "atomic_total_16"):
        out = np.zeros(1, np.int32)
        get(name)[4, 128](x, out, x.size)
        assert out[0] == x.sum(), name


def _triad(get, wave):
    b, c = RNG.standard_normal(3000), RNG.standard_normal(3000)
    a = np.zeros_like(b)
    get("triad_looper_double")[4, 256](a, b, c, 3.0, a.size)
    np.testing.assert_allclose(a, b + 3.0 * c, rtol=1e-15, atol=1e-15)  # fused or not


def _transforms(get, wave):
    # Walsh-Hadamard (all spans), Haar levels of 256-sample chunks, 8x8 DCT round trip
    n = 1024
    x = RNG.standard_normal(n).astype(np.float32)
    data = x.copy()
    k = get("walshButterfly")
    span = 1
    while span < n:
        k[n // 2 // 256, 256](data, span)
        span *= 2
    hadamard = np.array([[1.0]])
    while hadamard.shape[0] < n:
        hadamard = np.block([[hadamard, hadamard], [hadamard, -hadamard]])
    np.testing.assert_allclose(data, hadamard @ x.astype(np.float64), rtol=1e-4, atol=1e-3)

    coeffs = np.zeros(n, np.float32)
    get("haarDecompose")[n // 256, 128](x, coeffs, 8)
    approx = x.astype(np.float64).reshape(-1, 256)
    want = np.zeros_like(approx)
    while approx.shape[1] > 1:
        even, odd = approx[:, 0::2], approx[:, 1::2]
        want[:, even.shape[1]:2 * even.shape[1]] = (even - odd) / np.sqrt(2)
        approx = (even + odd) / np.sqrt(2)
    want[:, 0] = approx[:, 0]
    np.testing.assert_allclose(coeffs, want.reshape(-1), rtol=1e-4, atol=1e-4)

    side = 16
    img = RNG.uniform(0, 255, (side, side)).astype(np.float32)
    kk = np.arange(8)
    basis = np.sqrt(np.where(kk[:, None] == 0, 1 / 8, 2 / 8)) * np.cos(
        (2 * kk[None, :] + 1) * kk[:, None] * np.pi / 16)
    basis = basis.astype(np.float32)
    spectrum = np.zeros_like(img)
    dct = get("dct8x8")
    dct[(2, 2), (8, 8)](spectrum, img, basis, side, 0)
    tiles = img.reshape(2, 8, 2, 8).transpose(0, 2, 1, 3).astype(np.float64)
    want = (basis @ tiles @ basis.T).transpose(0, 2, 1, 3).reshape(side, side)
    np.testing.assert_allclose(spectrum, want, rtol=1e-4, atol=2e-3)
    back = np.zeros_like(img)
    dct[(2, 2), (8, 8)](back, spectrum, basis, side, 1)
    np.testing.assert_allclose(back, img, rtol=1e-4, atol=2e-3)


def _ladder_shared(get, wave):
    # the device lambda `max` is an empty closure: one byte, passed as raw bytes
    x = RNG.integers(0, 2**28, 1000, dtype=np.uint32)
    for name in ("reduce_interleaved", "reduce_strided_index", "reduce_sequential"):
        out = np.zeros(4, np.uint32)
        get(name).launch(4, 256, x, out, b"\0", 0, x.size, dynamic_lds=256 * 4)
        np.testing.assert_array_equal(out, [c.max() for c in np.array_split(x, [256, 512, 768])],
                                      err_msg=name)
    out = np.zeros(2, np.uint32)
    get("reduce_first_add").launch(2, 256, x, out, b"\0", 0, x.size, dynamic_lds=256 * 4)
    np.testing.assert_array_equal(out, [x[:512].max(), x[512:].max()])


def _ladder_unrolled(get, wave):
    x = RNG.integers(-10**6, 10**6, 2000, dtype=np.int32)
    for name in ("reduce_unrolled_volatile", "reduce_unrolled_shuffle"):
        out = np.zeros(4, np.int32)
        get(f"{name}_256u_{wave}u")[4, 256](x, out, b"\0", 0, x.size)
        np.testing.assert_array_equal(out, [x[i:i + 512].sum() for i in range(0, 2048, 512)],
                                      err_msg=name)


def _ladder_wave_tree(get, wave):
    # 4 items a thread, 256 threads: 1024 inputs a block; exact in float (small integers)
    x = RNG.integers(-100, 100, 3000).astype(np.float32)
    out = np.zeros(3, np.float32)
    get(f"reduce_wave_tree_256u_{wave}u")[3, 256](x, out, b"\0", 0.0, x.size)
    np.testing.assert_array_equal(out, [x[i:i + 1024].sum() for i in range(0, 3072, 1024)])


RUNS = [
    ("basics/vector_ops.hip", _axpy),
    ("basics/vector_ops.hip", _square),
    ("basics/vector_ops.hip", _hadamard),
    ("basics/bitfield.hip", _extract),
    ("basics/window_mean.hip", _window_mean),
    ("basics/tiled_matmul.hip", _tile_gemm),
    ("basics/transpose_lds.hip", _transpose_fixed),
    ("basics/transpose_lds.hip", _transpose_sized),
    ("basics/transpose_lanes.hip", _transpose_lanes),
    ("basics/group_sums.hip", _group_sums),
    ("basics/device_vars.hip", _device_vars),
    ("apps/histo_bytes.hip", _histogram),
    ("library/copy_lib.hip", _copy_words),
    ("module/module_kernels.hip", _module_copy),
    ("apps/bitonic.hip", _bitonic),
    ("apps/apsp.hip", _apsp),
    ("apps/stencil5.hip", _stencil),
    ("apps/scan_blocks.hip", _scan),
    ("vectoradd/vadd2d.hip", _vadd2d),
    ("strided/strided_add.hip", _strided),
    ("atomics/atomic_total.hip", _atomic_total),
    ("streams/stream_bench.hip", _triad),
    ("sdk/Transforms/Transforms.cpp", _transforms),
    ("ladder/reduce_shared.hip", _ladder_shared),
    ("ladder/reduce_unrolled.hip", _ladder_unrolled),
    ("ladder/reduce_wave_tree.hip", _ladder_wave_tree),
]
IDS = [f"{p}:{c.__name__.lstrip('_')}" for p, c in RUNS]


@pytest.mark.parametrize("path,check", RUNS, ids=IDS)
def test_runs_on_the_emulator_and_matches_numpy(built, path, check):
    mod = built[path]
    assert not isinstance(mod, Exception), str(mod)
    check(lambda name: Kernel(mod, _pick(mod, "gfx942", name), "emulator"), 64)


@pytest.mark.parametrize("path,check", RUNS, ids=IDS)
def test_runs_on_the_rdna4_emulator_in_wave32(built, path, check):
    """The same kernels built for gfx1201 (wave32, GFX12 encodings) run on
    ``emulator:gfx1201`` and pass the same numpy checks."""
    mod = built[path]
    assert not isinstance(mod, Exception), str(mod)
    check(lambda name: Kernel(mod, _pick(mod, RDNA4, name), f"emulator:{RDNA4}"), 32)


def test_device_printf_reaches_the_output(built, capsys):
    """greet_kernel's lines appear in the output: call by call, each by wave, then lane."""
    mod = built["basics/greetings.hip"]
    res = Kernel(mod, "greet_kernel", "emulator")[2, 2]()
    out = capsys.readouterr().out.splitlines()
    want = ["greetings from either side"] * 4
    want += [f"greetings from block {b}, thread {t}" for b in range(2) for t in range(2)]
    assert out == want
    assert len(res.stats["printed"]) == 8
