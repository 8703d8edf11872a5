"""wb.bench: statistics and report, refusal on the emulator, and the timing loop's structure
(warm-up, flush before every timed launch, rotating argument sets) checked with a fake cupy
whose events tick 1 µs per record (tests/gpu/fake_cupy.py); real timings are taken on a GPU by
tests/gpu/verify_cuda.py and by the ``gpu``-marked test here."""

from __future__ import annotations

import numpy as np
import pytest
from gpu.fake_cupy import FakeCupy
from gpu.nvidia import needs_nvidia_gpu

import workbench as wb
from workbench.runtime import Kernel, LaunchError
from workbench.runtime.bench import BenchResult
from workbench.runtime.cuda import CudaDevice
from workbench.runtime.rocm import RocmDevice

ADD = """extern "C" __global__ void add(const float* x, const float* y, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = x[i] + y[i];
}
"""


@pytest.fixture(scope="module")
def add_module():
    return wb.compile(ADD, arch="gfx942")


def test_bench_refuses_the_emulator(add_module):
    class EmulatorDouble:
        name, kind, arch = "emulator", "emulator", "gfx942"

        def launch(self, *a, **k):
            raise AssertionError("bench must not launch on the emulator")

    x = np.ones(4, np.float32)
    with pytest.raises(LaunchError, match="bench needs a GPU, not emulator: the emulator's time "
                                          "is the CPU running an interpreter, not GPU time"):
        wb.bench(Kernel(add_module, "add"), 1, 64, x, x, x, 4, device=EmulatorDouble())


def test_result_statistics_rates_and_fraction_of_gfx942_peak():
    times = np.array([5.0, 1.0, 2.0, 3.0, 4.0]) * 1e-3
    r = BenchResult(kernel="k", device="rocm:0 (gfx942)", grid=(1, 1, 1), block=(64, 1, 1),
                    times=times, warmup=3, rotate=1, flush_bytes=512 * 2**20, flops=2.6144e12,
                    bytes=5.3e9, arch="gfx942", peak="bf16", peak_tflops=1307.4,
                    peak_gbs=5300.0)
    assert (r.median, r.min, r.max, r.reps) == (3e-3, 1e-3, 5e-3, 5)
    assert r.p20 == pytest.approx(1.8e-3) and r.p80 == pytest.approx(4.2e-3)
    assert r.tflops == pytest.approx(2.6144e12 / 3e-3 / 1e12)
    assert r.fraction_of_peak == pytest.approx(r.tflops / 1307.4)
    assert r.gbs == pytest.approx(5.3e9 / 3e-3 / 1e9)
    assert r.fraction_of_bandwidth == pytest.approx(1 / 3e-3 / 1000)
    text = repr(r)
    assert text.startswith("bench k on rocm:0 (gfx942): median 3.000 ms [min 1.000 ms, p20 "
                           "1.800 ms, p80 4.200 ms, max 5.000 ms]; 5 reps after 3 warm-up, "
                           "caches flushed (537 MB), 2 rotating argument sets")
    assert "TFLOP/s (66.7% of gfx942 bf16 peak 1307.4 TFLOP/s)" in text
    assert "GB/s (33.3% of gfx942 5300 GB/s)" in text
    html = r._repr_html_()
    assert "<table>" in html and "median" in html and "3.000 ms" in html


def test_bench_loop_with_fake_cupy_rocm_build_no_amd_gpu(monkeypatch, add_module):
    fake = FakeCupy(hip=True, cus=304).install(monkeypatch)
    dev = RocmDevice(0)
    x = fake.asarray(np.ones(256, np.float32))
    out = fake.empty(256, np.float32)
    r = wb.bench(Kernel(add_module, "add"), 1, 256, x, x, out, 256, bytes=3 * 1024,
                 warmup=4, reps=6, rotate=2, flush_l2=True, device=dev)
    # one checked launch through kernel[...], then warm-up and timed launches
    assert len(fake.launches) == 1 + 4 + 6
    timed = fake.launches[5:]
    ptr_sets = [tuple(int(v) for v in c["args"][:3]) for c in timed]
    assert len(set(ptr_sets)) == 3 and ptr_sets[0] == ptr_sets[3]  # 3 sets, cycled
    assert ptr_sets[0] == (x.data.ptr, x.data.ptr, out.data.ptr)  # set 0 = the user's arrays
    # a cache flush before every launch (warm-up and timed), 512 MiB on ROCm (MALL x 2)
    assert len(fake.memsets) == 10 and {m[2] for m in fake.memsets} == {512 * 2**20}
    # fake events tick 1 µs per record: each interval is one tick
    np.testing.assert_allclose(r.times, 1e-6)
    assert r.arch == "gfx942" and r.peak_gbs == 5300.0 and r.reps == 6
    assert "peaks: MI300X" in " ".join(r.notes) and "shorter than 10 µs" in " ".join(r.notes)


def test_bench_peak_key_and_cu_mismatch_noted_with_fake_cupy_no_amd_gpu(monkeypatch, add_module):
    fake = FakeCupy(hip=True, cus=228).install(monkeypatch)
    x = fake.asarray(np.ones(64, np.float32))
    k = Kernel(add_module, "add")
    r = wb.bench(k, 1, 64, x, x, x, 64, flops=64, warmup=0, reps=2, device=RocmDevice(0))
    assert r.flush_bytes == 0 and r.peak_tflops is None
    assert any("pass peak=" in n for n in r.notes)
    assert any("304 CUs); this GPU has 228 CUs" in n for n in r.notes)
    with pytest.raises(LaunchError, match="peak='fp64' is not one of fp32_vector"):
        wb.bench(k, 1, 64, x, x, x, 64, peak="fp64", device=RocmDevice(0))
    with pytest.raises(LaunchError, match="need reps >= 1"):
        wb.bench(k, 1, 64, x, x, x, 64, reps=0, device=RocmDevice(0))


def test_bench_on_cuda_has_no_amd_peak_with_fake_cupy_cuda_build(monkeypatch, add_module):
    fake = FakeCupy(hip=False).install(monkeypatch)
    x = fake.asarray(np.ones(64, np.float32))
    r = wb.bench(Kernel(add_module, "add"), 1, 64, x, x, x, 64, bytes=768, reps=3,
                 device=CudaDevice(0))
    assert r.fraction_of_bandwidth is None and r.gbs == pytest.approx(768 / 1e-6 / 1e9)
    assert "not an AMD GPU" in " ".join(r.notes)


@pytest.mark.gpu
@needs_nvidia_gpu
def test_bench_times_a_real_kernel_on_nvidia_gpu(add_module):
    import cupy

    n = 1 << 24
    x = cupy.ones(n, cupy.float32)
    out = cupy.empty_like(x)
    r = wb.bench(Kernel(add_module, "add"), n // 256, 256, x, x, out, n, bytes=12 * n,
                 warmup=3, reps=20, rotate=1, flush_l2=True, device="cuda")
    assert r.reps == 20 and 0 < r.min <= r.median <= r.max
    assert 50 < r.gbs < 20_000  # a GPU moves between 50 GB/s and 20 TB/s
    cupy.testing.assert_array_equal(out, 2 * x)
