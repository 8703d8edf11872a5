"""Launch overhead of ``kernel[grid, block](...)`` over a raw cupy RawKernel call, for one hipwb
tree; run it for two trees (an old commit's and the current one) interleaved in one session to
compare them side by side on the same GPU.

    python tests/gpu/overhead_old_new.py ROOT CARRY    # ROOT: a hipwb tree, CARRY: its modules

Prints per call count: the raw call's time (measured before and after) and the extra time of
kernel[1, 256](...) with cupy arrays and with torch tensors (sync outside the timed loop).
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
from hosttime import per_call  # tests/gpu/hosttime.py (this script's folder)


def main() -> None:
    root, carry = (os.path.abspath(a) for a in sys.argv[1:3])
    sys.path[:0] = [root, os.path.join(root, "tests", "gpu")]
    import cupy
    import modules
    import torch

    import workbench as wb
    from workbench.runtime import Kernel
    from workbench.runtime.cuda import nvrtc_options, nvrtc_source

    mods, _how = modules.load(Path(carry))
    dev = wb.set_device("cuda")
    mod = mods["vector_add"]
    k = Kernel(mod, "vector_add").on(dev)
    rk = cupy.RawKernel(nvrtc_source(mod), "vector_add", options=nvrtc_options(mod)[0])
    n = 256
    x, y, o = (cupy.ones(n, cupy.float32) for _ in range(3))
    xt, yt, ot = (torch.ones(n, device="cuda") for _ in range(3))
    n32 = np.int32(n)
    sync = cupy.cuda.runtime.deviceSynchronize
    for calls in (1000, 4000, 20000):
        r1 = per_call(lambda: rk((1,), (256,), (x, y, o, n32)), calls, sync)
        c = per_call(lambda: k[1, 256](x, y, o, n), calls, sync)
        t = per_call(lambda: k[1, 256](xt, yt, ot, n), calls, sync)
        r2 = per_call(lambda: rk((1,), (256,), (x, y, o, n32)), calls, sync)
        raw = (r1 + r2) / 2
        print(f"RESULT {os.path.basename(root)} calls={calls}: raw {r1:.2f}/{r2:.2f} us, "
              f"cupy +{c - raw:.2f}, torch +{t - raw:.2f}")


if __name__ == "__main__":
    main()
