"""The issue-24 grid, ``add[(1, 2**31), 64]``, on the emulator: how fast each entry point answers
and how much memory it takes, and how fast Ctrl-C stops the forced launch.

Each case runs in its own process; the parent samples the child's RSS every 20 ms (peak over
the call, process start-up included) and kills it past ``--cap`` GB or ``--limit`` s.

1. ``launch``/``trace``/``check``: the refusal (LaunchTooLarge): seconds and peak RSS.
2. ``timing``: the modelled report (only one CU's workgroups are emulated).
3. ``force``: ``force=True``, SIGINT after 3 s: seconds from the signal to EmulationInterrupted.

Before issue 24 (same machine): the launch grew to 4 GB in 27.7 s (killed), SIGINT was not
answered in 17.6 s (killed at 6 GB), ``timing`` reached 4 GB in 2.8 s (in a notebook: 23 GB,
OOM-killed).

    .venv/bin/python tests/bench/big_grid.py
"""
from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

SRC = r'''
extern "C" __global__ void add(const float* x, const float* y, float* o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = x[i] + y[i];
}
'''
CHILD = r"""
import sys, time, numpy as np, workbench as wb
from workbench.runtime import Kernel
k = Kernel(wb.compile(sys.argv[1], "gfx942"), "add", device="emulator")
x = np.ones(1024, np.float32); o = np.zeros(1024, np.float32)
k[1, 64](x, x, o, 1024)  # decoded once, outside the measurement
mode = sys.argv[2]
print("start", flush=True)
t0 = time.monotonic()
try:
    if mode == "timing":
        k.timing[(1, 2**31), 64](x, x, o, 1024, chip="mi300x")
    elif mode == "force":
        k[(1, 2**31), 64](x, x, o, 1024, force=True)
    else:
        {"launch": k, "trace": k.trace, "check": k.check}[mode][(1, 2**31), 64](x, x, o, 1024)
    print("answered", time.monotonic() - t0, "report", flush=True)
except BaseException as e:
    print("answered", time.monotonic() - t0, type(e).__name__, time.monotonic(), flush=True)
"""


def run(mode: str, cap_gb: float, limit: float, sigint_after: float | None = None) -> str:
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": f"{root}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    p = subprocess.Popen([sys.executable, "-c", CHILD, SRC, mode], stdout=subprocess.PIPE,
                         text=True, env=env)
    lines: list[str] = []

    def read() -> None:
        for line in p.stdout:
            lines.append(line.split())

    threading.Thread(target=read, daemon=True).start()
    while not lines and p.poll() is None:
        time.sleep(0.01)
    t0, peak, sent, killed = time.monotonic(), 0, None, ""
    while p.poll() is None:
        try:
            with open(f"/proc/{p.pid}/statm") as f:
                peak = max(peak, int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE"))
        except OSError:
            break
        el = time.monotonic() - t0
        if sigint_after is not None and sent is None and el > sigint_after:
            sent = time.monotonic()
            p.send_signal(signal.SIGINT)
        if peak > cap_gb * 1e9 or el > limit:
            killed = f"KILLED at {el:.1f} s, {peak / 1e9:.2f} GB"
            p.kill()
            break
        time.sleep(0.02)
    p.wait()
    time.sleep(0.05)
    ans = next((x for x in lines if x[:1] == ["answered"]), None)
    if killed or ans is None:
        return f"{mode:7s} {killed or 'no answer'}"
    what = ans[2]
    text = f"{mode:7s} {what} after {float(ans[1]):.3f} s, peak RSS {peak / 2**20:.0f} MiB"
    if sent is not None and len(ans) > 3:
        text += f"; {float(ans[3]) - sent:.3f} s after SIGINT"
    return text


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cap", type=float, default=4.0, help="kill a child past this many GB")
    ap.add_argument("--limit", type=float, default=60.0, help="kill a child after this long")
    a = ap.parse_args()
    for mode in ("launch", "trace", "check", "timing"):
        print(run(mode, a.cap, a.limit), flush=True)
    print(run("force", a.cap, a.limit, sigint_after=3.0), flush=True)
    print(f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)")


if __name__ == "__main__":
    main()
