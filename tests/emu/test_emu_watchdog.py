"""Runaway kernels: the wall-clock watchdog next to the instruction budget, and Ctrl-C.

The interrupt test is real: a Jupyter kernel (ipykernel, started by jupyter_client exactly as
JupyterLab does) runs an endless emulation, gets "Interrupt kernel" (SIGINT), and must answer
with ``EmulationInterrupted`` and then run the same kernel again. Stop times are printed by
tests/bench/interrupts.py, not asserted here.
"""
from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np
import pytest

import workbench as wb
from workbench.emu import BudgetExceeded, EmulationInterrupted, EmulatorError, TimeLimitExceeded
from workbench.emu.engine import launch as emu_launch
from workbench.runtime.kernel import Kernel

SPIN = r'''
extern "C" __global__ void spin(const int* flag, int* out) {
  int k = 0;
  while (*(volatile const int*)flag == 0) k++;
  out[threadIdx.x] = k;
}
'''
REPO = Path(__file__).resolve().parents[2]
# exclusive: wall-clock timeouts and a real Jupyter kernel on local ports; under xdist these run
# on one worker, one at a time, beside no browser test (tests/conftest.py).
pytestmark = pytest.mark.xdist_group("exclusive")


@pytest.fixture(scope="module")
def spin():
    return Kernel(wb.compile(SPIN, "gfx942"), "spin", device="emulator")


def test_watchdog_stops_a_runaway_loop_then_kernel_still_works(spin):
    out = np.zeros(64, np.int32)
    t0 = time.monotonic()
    with pytest.raises(TimeLimitExceeded) as ei:
        spin[1, 64](np.zeros(1, np.int32), out, timeout=0.3)
    took = time.monotonic() - t0
    msg = str(ei.value)
    assert "'spin'" in msg and "timeout 0.3 s" in msg and "source line 4" in msg
    assert "pass timeout=" in msg
    assert isinstance(ei.value, BudgetExceeded)  # code catching the budget catches both
    assert took < 0.3 + 10  # the budget alone would take 2.2M wave-instructions
    spin[1, 64](np.ones(1, np.int32), out)  # the kernel and the device keep working
    assert (out == 0).all()


def test_default_watchdog_is_seconds_not_the_budget(spin):
    assert emu_launch.default_timeout(1) <= 5.0  # a one-wave runaway stops within 5 s
    assert emu_launch.default_timeout(1024) > emu_launch.default_timeout(1)
    # a budget the loop cannot reach in 4 s (the default one, 2.2M wave-instructions, may run
    # out first now that one wave emulates at more than 0.5M wave-instructions/s)
    with pytest.raises(TimeLimitExceeded, match=r"timeout 4\.004 s"):
        spin.launch(1, 64, np.zeros(1, np.int32), np.zeros(64, np.int32), budget=10**9)


def test_budget_still_applies_and_timeout_none_disables_watchdog(spin):
    with pytest.raises(BudgetExceeded, match=r"exceeded its budget of 5,000") as ei:
        spin.launch(1, 64, np.zeros(1, np.int32), np.zeros(64, np.int32), budget=5_000,
                    timeout=None)
    assert not isinstance(ei.value, TimeLimitExceeded)


def test_bad_timeout_is_refused(spin):
    with pytest.raises(EmulatorError, match=r"timeout must be a positive number"):
        spin[1, 64](np.zeros(1, np.int32), np.zeros(64, np.int32), timeout=-1)


def test_interrupt_kernel_stops_emulation_and_session_survives(tmp_path):
    """JupyterLab's "Interrupt kernel" on a real ipykernel running an endless emulation."""
    jc = pytest.importorskip("jupyter_client.manager")
    env = {**os.environ, "PYTHONPATH": f"{REPO}{os.pathsep}{os.environ.get('PYTHONPATH', '')}",
           "HIPWB_CACHE_DIR": str(tmp_path / "cache")}
    km, kc = jc.start_new_kernel(kernel_name="python3", env=env)
    try:
        setup = ("%load_ext workbench\nimport numpy as np, time\n"
                 "flag = np.zeros(1, np.int32); out = np.zeros(64, np.int32)")
        assert kc.execute_interactive(setup, timeout=60)["content"]["status"] == "ok"
        cell = "%%hipkernel --arch gfx942\n" + SPIN
        r = kc.execute_interactive(cell, timeout=120)
        assert r["content"]["status"] == "ok", r["content"]
        # stop_on_error=False: otherwise ipykernel aborts requests that arrive just after the
        # interrupted cell's error (its abort window), and the follow-up cell below may come
        # back "aborted" under load; that is Jupyter's Run-All behaviour, not hipwb's.
        msg_id = kc.execute("spin[1, 64](flag, out, timeout=None)", stop_on_error=False)
        time.sleep(1.5)  # let the emulation run
        km.interrupt_kernel()
        reply = kc.get_shell_msg(timeout=30)
        while reply["parent_header"].get("msg_id") != msg_id:
            reply = kc.get_shell_msg(timeout=30)
        c = reply["content"]
        assert c["status"] == "error" and c["ename"] == "EmulationInterrupted", c
        assert "'spin' interrupted after" in c["evalue"] and "source line" in c["evalue"]
        again = kc.execute_interactive("flag[0] = 1; spin[1, 64](flag, out); "
                                       "assert (out == 0).all()", timeout=60)
        assert again["content"]["status"] == "ok", again["content"]
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def test_emulation_interrupted_is_a_keyboard_interrupt():
    assert issubclass(EmulationInterrupted, KeyboardInterrupt)


def test_watchdog_does_not_count_decoding_slow_decode_stand_in(monkeypatch):
    """The watchdog times emulation, not the one-time decode of the kernel: an -O0 build of tens
    of thousands of instructions decodes for seconds (before: its first launch hit the default
    4 s watchdog after 17 instructions). A decode slowed by a sleeping stand-in shows it."""
    real = emu_launch.program_for

    def slow(info, listing):
        time.sleep(0.6)
        return real(info, listing)

    monkeypatch.setattr(emu_launch, "program_for", slow)
    src = ('extern "C" __global__ void count(int* o, int n) {\n'
           '  int s = 0;\n  for (int i = 0; i < n; ++i) s += i ^ (int)threadIdx.x;\n'
           '  o[threadIdx.x] = s;\n}')
    k = Kernel(wb.compile(src, "gfx942"), "count", device="emulator")
    out = np.zeros(64, np.int32)
    k[1, 64](out, 300, timeout=0.5)  # ~2,000 wave-instructions: the watchdog looks many times
    want = [sum(i ^ t for i in range(300)) for t in range(64)]
    np.testing.assert_array_equal(out, want)
