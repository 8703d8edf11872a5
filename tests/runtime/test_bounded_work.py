"""Bounded work: every emulated launch, trace, check and timing estimates its memory and
emulation time before it starts (workbench/emu/engine/footprint.py), refuses what is over half
the available memory or over ``max_emulation_seconds`` with a LaunchError that names the grid,
the estimate, the limit and what to do, and ``force=True`` runs it anyway; Ctrl-C stops a
forced huge launch within a second or two.

Kernels are compiled by the real clang and run on the real emulator; nothing is mocked. The
limits are changed through their documented settings (``footprint.MAX_EMULATION_SECONDS``,
``MEMORY_FRACTION``, ``STATE_BYTES_PER_BATCH``).
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

import workbench as wb
from workbench.emu import EmulationInterrupted
from workbench.emu.engine import footprint
from workbench.emu.engine.launch import _workgroup_ids
from workbench.runtime import Kernel, LaunchError

REPO = Path(__file__).resolve().parents[2]
SRC = r'''
extern "C" __global__ void add(const float* x, const float* y, float* o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = x[i] + y[i];
}
extern "C" __global__ void spin(float* o, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = (float)i;
  for (int k = 0; k < iters; ++k) a = a * 0.999f + 1.0f;
  o[i] = a;
}
extern "C" __global__ void ids(int* o) {
  int w = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  if (threadIdx.x == 0) {
    o[3 * w] = blockIdx.x; o[3 * w + 1] = blockIdx.y; o[3 * w + 2] = blockIdx.z;
  }
}
'''
HUGE = (1, 2**31)  # the grid: 2**31 workgroups
# exclusive: refusals timed in seconds and Ctrl-C sent after a sleep; under xdist these run on
# one worker, one at a time, beside no browser test (tests/conftest.py).
pytestmark = pytest.mark.xdist_group("exclusive")


@pytest.fixture(scope="module")
def mod():
    return wb.compile(SRC, "gfx942")


@pytest.fixture(scope="module")
def add(mod):
    return Kernel(mod, "add", device="emulator")


@pytest.fixture
def xyo():
    n = 1024
    return np.ones(n, np.float32), np.ones(n, np.float32), np.zeros(n, np.float32), n


def _refused(call) -> tuple[LaunchError, float, int]:
    """Run ``call``, expecting LaunchTooLarge; (error, seconds, peak traced bytes)."""
    tracemalloc.start()
    t0 = time.monotonic()
    try:
        with pytest.raises(footprint.LaunchTooLarge) as ei:
            call()
    finally:
        took = time.monotonic() - t0
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return ei.value, took, peak


def test_huge_grid_is_refused_at_once_with_numbers_and_what_to_do(add, xyo):
    add[1, 64](*xyo)  # decoded once: the refusal below times the check alone
    xyo[2][:] = 0
    err, took, peak = _refused(lambda: add[HUGE, 64](*xyo))
    msg = str(err)
    assert isinstance(err, LaunchError) and isinstance(err, ValueError)
    assert "grid (1, 2147483648, 1)" in msg and "2,147,483,648 wave(s)" in msg
    assert "would take at least" in msg and "max_emulation_seconds=60" in msg
    assert "workgroups=N" in msg and "force=True" in msg
    assert took < 2.0, took  # before: 27 s to reach 4 GB, never finished
    assert peak < 20 << 20, peak  # nothing allocated per workgroup (before: > 8.6 GB)
    assert (xyo[2] == 0).all()


@pytest.mark.parametrize("how", ["trace", "check"])
def test_trace_and_check_are_bounded_too(add, xyo, how):
    launcher = getattr(add, how)
    err, took, peak = _refused(lambda: launcher[HUGE, 64](*xyo))
    assert "2,147,483,648 wave(s)" in str(err) and took < 2.0 and peak < 20 << 20


def test_timing_of_a_huge_grid_emulates_only_one_cus_workgroups(add, xyo):
    """kernel.timing samples the workgroups one CU holds and multiplies out: a 2**31-workgroup
    grid is modelled in well under a second, with no per-grid allocation (before: the Jupyter
    kernel was OOM-killed at 23 GB)."""
    tracemalloc.start()
    t0 = time.monotonic()
    rep = add.timing[HUGE, 64](*xyo, chip="mi300x")
    took = time.monotonic() - t0
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert rep.workgroups == 2**31 and rep.seconds > 0
    assert took < 10.0 and peak < 200 << 20, (took, peak)


def test_timing_takes_the_same_limits(add, xyo, monkeypatch):
    monkeypatch.setattr(footprint, "STATE_BYTES_PER_BATCH", 1 << 16)
    with pytest.raises(footprint.LaunchTooLarge, match="max_emulation_seconds=1e-06"):
        add.timing[4, 64](*xyo, chip="mi300x", max_emulation_seconds=1e-6)
    assert add.timing[4, 64](*xyo, chip="mi300x", max_emulation_seconds=1e-6,
                             force=True).seconds > 0


def test_limit_per_launch_module_setting_and_force(add, monkeypatch):
    n = 256 * 64
    x, y = np.arange(n, dtype=np.float32), np.ones(n, np.float32)
    o = np.zeros(n, np.float32)
    with pytest.raises(footprint.LaunchTooLarge, match=r"max_emulation_seconds=1e-05"):
        add[256, 64](x, y, o, n, max_emulation_seconds=1e-5)
    assert (o == 0).all()  # refused before anything ran
    monkeypatch.setattr(footprint, "MAX_EMULATION_SECONDS", 1e-5)
    with pytest.raises(footprint.LaunchTooLarge, match="MAX_EMULATION_SECONDS"):
        add[256, 64](x, y, o, n)
    add[256, 64](x, y, o, n, max_emulation_seconds=None)  # None: no limit
    np.testing.assert_array_equal(o, x + 1)
    o[:] = 0
    add[256, 64](x, y, o, n, force=True)
    np.testing.assert_array_equal(o, x + 1)


@pytest.mark.parametrize("bad", [0, -1, "60", float("nan"), True])
def test_bad_limit_values_are_refused(add, xyo, bad):
    with pytest.raises(LaunchError, match="max_emulation_seconds="):
        add[1, 64](*xyo, max_emulation_seconds=bad)


def test_force_takes_a_bool(add, xyo):
    with pytest.raises(LaunchError, match="force= takes True or False"):
        add[1, 64](*xyo, force="yes")


def test_memory_over_the_fraction_of_available_is_refused(add, monkeypatch):
    """The memory estimate (buffer copies + one batch of wave state) against MEMORY_FRACTION of
    MemAvailable: lowered to a sliver through the setting, a 64 MiB launch is refused."""
    n = 1 << 24
    x = np.ones(n, np.float32)
    o = np.zeros(n, np.float32)
    avail = footprint.available_memory()
    assert avail is not None and avail > 0
    monkeypatch.setattr(footprint, "MEMORY_FRACTION", (32 << 20) / avail)
    with pytest.raises(footprint.LaunchTooLarge) as ei:
        add[1, 64](x, x, o, n)
    msg = str(ei.value)
    assert "of memory (buffers 193.0 MiB" in msg and "available now" in msg
    assert "force=True" in msg
    add[1, 64](x, x, o, n, force=True)
    assert o[:64].sum() == 128 and o[64] == 0


def test_memory_estimate_covers_what_a_launch_allocates(mod):
    """The estimate is not a guess: the traced peak of real launches (plain, check, stream)
    stays under the estimate plus 25%."""
    add = Kernel(mod, "add", device="emulator")
    seen = {}
    real = footprint.estimate

    def spy(*a, **kw):
        seen["fp"] = fp = real(*a, **kw)
        return fp

    waves = 4096
    n = waves * 64
    x, y, o = (np.ones(n, np.float32) for _ in range(3))
    for opts in ({}, {"check": "report"}, {"stream": True, "workgroups": waves}):
        footprint.estimate = spy
        try:
            tracemalloc.start()
            add.launch(waves, 64, x, y, o, n, **opts)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
            footprint.estimate = real
        est = seen["fp"].memory_bytes
        assert peak <= est * 1.25, (opts, peak, est)


def test_projection_from_measured_batches_stops_a_loop_the_estimate_cannot_see(mod,
                                                                                monkeypatch):
    """The shortest path counts a loop once; after the first batches the measured rate
    projects the whole launch, and the rest is refused before it runs (outputs untouched)."""
    spin = Kernel(mod, "spin", device="emulator")
    # small batches, so the launch has many
    monkeypatch.setattr(footprint, "STATE_BYTES_PER_BATCH", 64 * 1024)
    o = np.full(64 * 64, -1, np.float32)
    # the limit sits between one batch's time and the whole launch's (64 batches): the
    # projection refuses the rest; a smaller limit than one batch is the running watchdog's
    with pytest.raises(footprint.LaunchTooLarge, match=r"the first \d+ of 64 workgroups took"):
        spin[64, 64](o, 3000, max_emulation_seconds=0.5)
    assert (o == -1).all()
    spin[64, 64](o, 3, max_emulation_seconds=30)
    assert (o != -1).all()


def test_grid_ids_are_made_per_batch_in_dispatch_order(mod):
    grid = (3, 4, 5)
    old = np.stack(np.meshgrid(np.arange(3), np.arange(4), np.arange(5), indexing="ij"),
                   -1).transpose(2, 1, 0, 3).reshape(-1, 3)
    np.testing.assert_array_equal(_workgroup_ids(grid, 0, 60), old)
    np.testing.assert_array_equal(_workgroup_ids(grid, 7, 23), old[7:23])
    k = Kernel(mod, "ids", device="emulator")
    out = np.full(60 * 3, -1, np.int32)
    k[grid, 64](out)
    np.testing.assert_array_equal(out.reshape(-1, 3), old)


def test_more_work_items_than_a_dispatch_holds_is_refused(add, xyo):
    with pytest.raises(LaunchError, match=r"along x; a dispatch allows at most 4,294,967,295"):
        add[2**31, 64](*xyo)
    with pytest.raises(LaunchError, match="along x"):
        add.timing[2**31, 64](*xyo, chip="mi300x")


CHILD = r"""
import faulthandler, signal, sys, time, numpy as np, workbench as wb
faulthandler.register(signal.SIGUSR1)  # where it is, should SIGINT not stop it (the test asks)
# As ipykernel does while it runs a cell (Kernel.pre_handler_hook): Python's own SIGINT handler.
# A child inherits an ignored SIGINT, and Python then installs none: under the parallel suite
# the worker's SIGINT was ignored (ipykernel's IPKernelApp.init_signal sets SIG_IGN), and the
# emulation ran on untouched by the signal.
signal.signal(signal.SIGINT, signal.default_int_handler)
from workbench.runtime import Kernel
k = Kernel(wb.compile(sys.argv[1], "gfx942"), "add", device="emulator")
x = np.ones(1024, np.float32); o = np.zeros(1024, np.float32)
launch = {"launch": k, "check": k.check, "trace": k.trace}[sys.argv[2]]
# One small launch first: the code object is decoded and the mode's modules imported before
# "start", so the 1.5 s below are spent emulating the huge grid even on a loaded machine (a
# first check launch takes 0.3 s idle; once, under the parallel suite at load 8 on 2 cores,
# SIGINT landed before the emulation began and came back a plain KeyboardInterrupt).
launch[1, 64](x, x, o, 1024)
print("start", flush=True)
try:
    launch[(1, 2**31), 64](x, x, o, 1024, force=True)
except KeyboardInterrupt as e:
    print("stopped", time.monotonic(), type(e).__name__, flush=True)
"""


@pytest.mark.parametrize("how", ["launch", "check"])
def test_ctrl_c_stops_a_forced_huge_launch_fast(tmp_path, how):
    """SIGINT (what Jupyter's "Interrupt kernel" sends) to a process running the 2**31 grid with
    force=True: EmulationInterrupted within 2 s (measured ~0.2 s; before: 51 s, or never)."""
    env = {**os.environ, "PYTHONPATH": f"{REPO}{os.pathsep}{os.environ.get('PYTHONPATH', '')}",
           "HIPWB_CACHE_DIR": str(tmp_path / "cache")}
    err_file = tmp_path / "stderr.txt"  # a file, not a pipe: the child never blocks writing it
    with open(err_file, "w") as err_out:
        p = subprocess.Popen([sys.executable, "-c", CHILD, SRC, how], stdout=subprocess.PIPE,
                             stderr=err_out, text=True, env=env)
    try:
        for line in p.stdout:
            if line.startswith("start"):
                break
        time.sleep(1.5)  # well inside the emulation of the first batches
        sent = time.monotonic()
        p.send_signal(signal.SIGINT)
        try:
            out, _ = p.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            p.send_signal(signal.SIGUSR1)  # the child's stacks, to say where it was stuck
            time.sleep(2)
            p.kill()
            p.communicate()
            pytest.fail(f"still running 30 s after SIGINT; its threads then:\n"
                        f"{err_file.read_text()[-6000:]}")
        done = time.monotonic()
    finally:
        if p.poll() is None:
            p.kill()
    assert out.split()[:1] == ["stopped"], out
    assert out.split()[2] == EmulationInterrupted.__name__, out
    assert float(out.split()[1]) - sent < 2.0 and done - sent < 5.0, (out, sent, done)
