"""How fast a runaway emulation stops: the default wall-clock watchdog, and Ctrl-C.

1. watchdog: a one-wave kernel spinning on a global flag, launched with the default limits;
   prints when TimeLimitExceeded arrived and how many wave-instructions ran (the budget alone
   would allow 2.2 M).
2. Ctrl-C: a subprocess runs the same endless emulation (no watchdog); SIGINT is sent after
   1 s; prints the time from the signal to the process reporting EmulationInterrupted. Target:
   watchdog <= 5 s, Ctrl-C <= 1 s.

    .venv/bin/python tests/bench/interrupts.py
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

SPIN = r'''
extern "C" __global__ void spin(const int* flag, int* out) {
  int k = 0;
  while (*(volatile const int*)flag == 0) k++;
  out[threadIdx.x] = k;
}
'''
CHILD = f"""
import sys, time, numpy as np, workbench as wb
from workbench.runtime.kernel import Kernel
k = Kernel(wb.compile({SPIN!r}, "gfx942"), "spin", device="emulator")
k[1, 64](np.ones(1, np.int32), np.zeros(64, np.int32))
print("start", flush=True)
try:
    k[1, 64](np.zeros(1, np.int32), np.zeros(64, np.int32), timeout=None)
except KeyboardInterrupt as e:
    print("stopped", time.monotonic(), type(e).__name__, flush=True)
"""


def main() -> None:
    import workbench as wb
    from workbench.emu import TimeLimitExceeded
    from workbench.runtime.kernel import Kernel

    k = Kernel(wb.compile(SPIN, "gfx942"), "spin", device="emulator")
    k[1, 64](np.ones(1, np.int32), np.zeros(64, np.int32))
    t0 = time.monotonic()
    try:
        k[1, 64](np.zeros(1, np.int32), np.zeros(64, np.int32))
        print("watchdog: the kernel ended?")
    except TimeLimitExceeded as e:
        ran = str(e).split("s; ")[1].split(" wave-instructions")[0]
        print(f"watchdog: stopped after {time.monotonic() - t0:.2f} s ({ran} wave-instructions "
              f"ran; budget 2,200,000)")
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": f"{root}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    p = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, text=True,
                         env=env)
    for line in p.stdout:
        if line.startswith("start"):
            break
    time.sleep(1.0)
    sent = time.monotonic()
    p.send_signal(signal.SIGINT)
    out = p.stdout.read()
    p.wait()
    parts = out.split()
    if parts[:1] == ["stopped"]:
        print(f"Ctrl-C: {parts[2]} {float(parts[1]) - sent:.3f} s after SIGINT "
              f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)")
    else:
        print(f"Ctrl-C: unexpected output {out!r}")


if __name__ == "__main__":
    main()
