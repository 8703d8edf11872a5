"""The softmax tutorial's portable steps on an NVIDIA GPU (CudaDevice), in one run.

1. correctness: steps 1, 2, 3 (__shfl_xor version), 4, 5, 6 through ``Kernel[grid, block](...)``
   on cupy arrays, against torch.softmax (the same awkward rows as on the emulator: -inf rows,
   huge values, lengths not a multiple of 8, a 32k+5 row), with warpSize = 32;
2. the AMD-only steps (DPP step 3, the MFMA attention tile) are refused with an error naming
   the kernel;
3. measured GB/s (2 x rows x cols x element size per launch; wb.bench, L2 flushed) of each step at
   8192 x 1024 (and steps 5/6 at 1024 x 32768) next to torch.softmax on the same GPU (L2 flushed
   before each timed call too).

Usage: python tests/gpu/verify_softmax_cuda.py [--carry DIR] [--out DIR]
       python tests/gpu/verify_softmax_cuda.py build DIR   (pickles the Modules where LLVM runs)
"""

from __future__ import annotations

import argparse
import importlib.util
import pickle
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
SOFTMAX = ROOT / "kernels" / "softmax"
_spec = importlib.util.spec_from_file_location("softmax_steps", SOFTMAX / "steps.py")
S = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(S)

import workbench as wb  # noqa: E402

FILES = sorted({s["file"] for s in S.all_steps()} | {"step7_attention.hip"})
LINES: list[str] = []


def say(line: str = "") -> None:
    LINES.append(line)
    print(line, flush=True)


def build(out: Path) -> Path:
    mods = {f: S.compile_file(f, "gfx942") for f in FILES}
    for m in mods.values():
        for co in m.objects.values():
            # the ELF bytes and the ISA listing go into the pickle: the launch guard emulates
            # from the listing, and the GPU machine may have no llvm-objdump to make one
            assert co.elf and co.disassembly()
    out.mkdir(parents=True, exist_ok=True)
    (out / "softmax_modules.pkl").write_bytes(pickle.dumps(mods))
    return out / "softmax_modules.pkl"


def load(carry: Path) -> tuple[dict, str]:
    try:
        return {f: S.compile_file(f, "gfx942") for f in FILES}, "llvm"
    except Exception as e:  # no LLVM on the GPU machine: the Modules compiled elsewhere
        mods = pickle.loads((carry / "softmax_modules.pkl").read_bytes())
        for m in mods.values():  # their include dir, as it is on this machine
            m.include_dirs = [str(SOFTMAX)]
        return mods, f"pickle ({type(e).__name__})"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--carry", default=str(ROOT / ".gpu_carry" / "softmax"))
    ap.add_argument("--out", default=None)
    opt = ap.parse_args()
    import cupy
    import torch

    mods, how = load(Path(opt.carry))
    dev = wb.set_device("cuda")
    say(f"== softmax tutorial on {dev.name} (CudaDevice, warpSize 32), modules: {how} ==")
    fails = 0

    def kernels(s):
        return {k: wb.Kernel(mods[s["file"]], k) for k in s["kernels"]}

    def run(s, x):
        rows, cols = x.shape
        ks = kernels(s)
        if s["dtype"] == "bf16":
            xin = cupy.asarray(S.to_bf16_bits(x))
            y = cupy.zeros((rows, cols), cupy.uint16)
        else:
            xin = cupy.asarray(x)
            y = cupy.full((rows, cols), np.nan, cupy.float32)
        block = s["block"]
        if s["name"] == "three_pass":
            m = cupy.zeros(rows, cupy.float32)
            sm = cupy.zeros(rows, cupy.float32)
            g = -(-rows // block)
            calls = [(ks["row_max"], g, (xin, m, rows, cols)),
                     (ks["row_expsum"], g, (xin, m, sm, rows, cols)),
                     (ks["normalise"], -(-rows * cols // block), (xin, m, sm, y, rows, cols))]
        else:
            grid = rows if s["grid"] == "rows" else -(-rows // (block // 32))
            calls = [(ks[s["kernels"][0]], grid, (xin, y, rows, cols))]
        return calls, y

    say("-- correctness vs torch.softmax (max |y - torch|; tolerance f32 1e-5, bf16 2^-8)")
    portable = [s for s in S.all_steps() if s["portable"]]
    for s in portable:
        shapes = [(6, 203), (5, 64), (64, 4096)] + ([(4, 32768 + 5)] if s["dtype"] == "bf16"
                                                      else [])
        errs, verdicts = [], set()
        for shape in shapes:
            x = S.inputs(*shape, seed=shape[1])
            calls, y = run(s, x)
            for k, g, args in calls:
                k[g, s["block"]](*args)
                verdicts.add(k.last_guard.status if k.last_guard else "none")
            cupy.cuda.runtime.deviceSynchronize()
            yy = cupy.asnumpy(y)
            yy = S.from_bf16_bits(yy) if s["dtype"] == "bf16" else yy
            errs.append(S.max_error(yy, S.reference(x, s["dtype"])))
        ok = max(errs) <= S.TOL[s["dtype"]] and verdicts == {"checked"}
        fails += not ok
        say(f"[{'PASS' if ok else 'FAIL'}] step {s['step']} {s['name']}: "
            + ", ".join(f"{r}x{c}: {e:.2e}" for (r, c), e in zip(shapes, errs))
            + f"; launch guard: {', '.join(sorted(verdicts))}")

    say("-- AMD-only steps: refused as AMD-only (AmdOnlyError, before NVRTC) naming the use")
    from workbench.runtime.cuda import AmdOnlyError
    x0 = cupy.zeros((4, 64), cupy.float32)
    q0 = cupy.zeros(64 * 64, cupy.uint16)
    for f, k, args in (("step3_wave_row.hip", "softmax_wave_dpp", (x0, x0.copy(), 4, 64)),
                       ("step7_attention.hip", "attention_tile",
                        (q0, q0, q0, cupy.zeros(64 * 64, cupy.float32), 64, 0.125))):
        try:
            wb.Kernel(mods[f], k)[1, 256](*args)
            cupy.cuda.runtime.deviceSynchronize()
            say(f"[FAIL] {k}: ran on CUDA")
            fails += 1
        except Exception as e:
            ok = isinstance(e, AmdOnlyError) and "AMD-only" in str(e)
            fails += not ok
            say(f"[{'PASS' if ok else 'FAIL'}] {k}: {type(e).__name__}: {str(e)[:200]}")

    say("-- measured GB/s (2 x rows x cols x element bytes per launch; median, L2 flushed)")
    for rows, cols, steps in ((8192, 1024, portable),
                              (1024, 32768, [S.step("bf16_vec"), S.step("long_rows")])):
        x = np.random.default_rng(0).standard_normal((rows, cols)).astype(np.float32)
        for s in steps:
            calls, _ = run(s, x)
            nbytes = 2 * rows * cols * (2 if s["dtype"] == "bf16" else 4)
            tot = 0.0
            for k, g, args in calls:
                r = wb.bench(k, g, s["block"], *args, flush_l2=True, warmup=5, reps=30)
                tot += r.median
            say(f"step {s['step']:>2} {s['name']:14s} {rows}x{cols} {s['dtype']:4s} "
                f"{tot * 1e6:9.1f} us  {nbytes / tot / 1e9:7.0f} GB/s")
        scrub = torch.empty(256 * 2**20, dtype=torch.uint8, device="cuda")  # > the 50 MB L2
        for dt in (torch.float32, torch.bfloat16):
            t = torch.from_numpy(x).to("cuda", dt)
            for _ in range(5):
                torch.softmax(t, dim=1)
            times = []
            for _ in range(30):
                a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                scrub.zero_()  # flush L2, as wb.bench(flush_l2=True) does for the steps
                a.record()
                torch.softmax(t, dim=1)
                b.record()
                torch.cuda.synchronize()
                times.append(a.elapsed_time(b) / 1e3)
            med = float(np.median(times))
            say(f"torch.softmax  {rows}x{cols} {str(dt)[6:]:8s} {med * 1e6:9.1f} us  "
                f"{2 * t.numel() * t.element_size() / med / 1e9:7.0f} GB/s")
    say(f"== {'all passed' if not fails else f'{fails} FAILED'} ==")
    if opt.out:
        Path(opt.out).mkdir(parents=True, exist_ok=True)
        (Path(opt.out) / "softmax_cuda.txt").write_text("\n".join(LINES) + "\n")
    return 1 if fails else 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "build":
        print(build(Path(sys.argv[2])))
        sys.exit(0)
    sys.exit(main())
