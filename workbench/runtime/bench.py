"""wb.bench: time a kernel on a GPU with device events, the way the vendor benchmarks do.

Method (the hygiene of AMD's ROCm blog "Measuring max-achievable FLOPs, part 2": warm-up,
rotating buffers, cold caches; and of HipKittens' GEMM tests, kernels/gemm/bf16fp32/mi350x/
test_python.py: 500 warm-up then 100 event-timed launches, fresh inputs each time): warm-up
launches first; then every timed launch sits between two GPU events on one stream (no host
sync inside the loop), optionally after overwriting a buffer larger than the caches
(``flush_l2``) and/or with one of several copies of every pointer argument (``rotate``) so no
input is still cached from the previous launch. Reports the median and the spread (min, p20,
p80, max), TFLOP/s and GB/s from the ``flops``/``bytes`` you state, and on an AMD GPU the
fraction of the peaks in ``workbench.arch``. The emulator is refused: its time is the CPU's.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..arch import PEAK_KEYS
from ..arch import get as get_arch
from ..argument_types import checked
from ..errors import ArgumentTypeError
from .args import BoundArg, bind_args, normalize_dims
from .errors import LaunchError

# Below this median the GPU may sit idle between the start event and the kernel while the host
# is still launching it, so intervals can include launch gaps (host launch costs a few µs).
SHORT_KERNEL_S = 10e-6


@dataclass
class BenchResult:
    """Timings of one kernel configuration; seconds per launch in ``times``."""

    kernel: str
    device: str
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    times: np.ndarray
    warmup: int
    rotate: int
    flush_bytes: int  # 0: no flush between launches
    flops: float | None = None
    bytes: float | None = None
    arch: str | None = None
    peak: str | None = None  # key of Arch.peak_tflops the FLOP rate is compared with
    peak_tflops: float | None = None
    peak_gbs: float | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def reps(self) -> int:
        return len(self.times)

    @property
    def median(self) -> float:
        return float(np.median(self.times))

    @property
    def min(self) -> float:
        return float(np.min(self.times))

    @property
    def max(self) -> float:
        return float(np.max(self.times))

    @property
    def p20(self) -> float:
        return float(np.percentile(self.times, 20))

    @property
    def p80(self) -> float:
        return float(np.percentile(self.times, 80))

    @property
    def tflops(self) -> float | None:
        """FLOP rate at the median time, in TFLOP/s (None without ``flops``)."""
        return None if self.flops is None else self.flops / self.median / 1e12

    @property
    def gbs(self) -> float | None:
        """Bandwidth at the median time, in GB/s (None without ``bytes``)."""
        return None if self.bytes is None else self.bytes / self.median / 1e9

    @property
    def fraction_of_peak(self) -> float | None:
        if self.tflops is None or not self.peak_tflops:
            return None
        return self.tflops / self.peak_tflops

    @property
    def fraction_of_bandwidth(self) -> float | None:
        if self.gbs is None or not self.peak_gbs:
            return None
        return self.gbs / self.peak_gbs

    def as_dict(self) -> dict[str, Any]:
        return {"kernel": self.kernel, "device": self.device, "median_s": self.median,
                "min_s": self.min, "p20_s": self.p20, "p80_s": self.p80, "max_s": self.max,
                "reps": self.reps, "warmup": self.warmup, "rotate": self.rotate,
                "flush_bytes": self.flush_bytes, "tflops": self.tflops, "gbs": self.gbs,
                "fraction_of_peak": self.fraction_of_peak,
                "fraction_of_bandwidth": self.fraction_of_bandwidth, "notes": self.notes}

    # -- text ------------------------------------------------------------------------------
    def _method(self) -> str:
        parts = [f"{self.reps} reps after {self.warmup} warm-up"]
        parts.append(f"caches flushed ({self.flush_bytes / 1e6:.0f} MB)" if self.flush_bytes
                     else "no cache flush")
        if self.rotate:
            parts.append(f"{self.rotate + 1} rotating argument sets")
        return ", ".join(parts)

    def _rates(self) -> list[str]:
        out = []
        if self.tflops is not None:
            s = f"{self.tflops:.3g} TFLOP/s"
            if self.fraction_of_peak is not None:
                s += (f" ({100 * self.fraction_of_peak:.1f}% of {self.arch} {self.peak} peak "
                      f"{self.peak_tflops:g} TFLOP/s)")
            out.append(s)
        if self.gbs is not None:
            s = f"{self.gbs:.4g} GB/s"
            if self.fraction_of_bandwidth is not None:
                s += (f" ({100 * self.fraction_of_bandwidth:.1f}% of {self.arch} "
                      f"{self.peak_gbs:g} GB/s)")
            out.append(s)
        return out

    def __repr__(self) -> str:
        head = (f"bench {self.kernel} on {self.device}: median {_fmt(self.median)} "
                f"[min {_fmt(self.min)}, p20 {_fmt(self.p20)}, p80 {_fmt(self.p80)}, "
                f"max {_fmt(self.max)}]; {self._method()}")
        lines = [head, *(f"  {r}" for r in self._rates()), *(f"  note: {n}" for n in self.notes)]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        e = html.escape
        rows = [("median", _fmt(self.median)), ("min / p20", f"{_fmt(self.min)} / "
                                                             f"{_fmt(self.p20)}"),
                ("p80 / max", f"{_fmt(self.p80)} / {_fmt(self.max)}"),
                ("method", self._method())]
        rows += [("rate", r) for r in self._rates()]
        rows += [("note", n) for n in self.notes]
        body = "".join(f"<tr><th style='text-align:left'>{e(k)}</th><td>{e(v)}</td></tr>"
                       for k, v in rows)
        return (f"<div><b>bench {e(self.kernel)}</b> on {e(self.device)}, grid "
                f"{self.grid}, block {self.block}<table>{body}</table></div>")


def _fmt(seconds: float) -> str:
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.3f} ms"
    return f"{seconds * 1e6:.2f} µs"


def _resolve_device(kernel: Any, device: Any):
    from .devices import get_device, parse_device

    if device is not None:
        return parse_device(device)
    bound = getattr(kernel, "_device", None)
    return parse_device(bound) if bound is not None else get_device()


def _kernel_info(kernel: Any, dev: Any):
    return kernel.info() if dev.arch is None else kernel.info(dev.arch)


def _copy_set(dev: Any, bound: list[BoundArg], keep: list) -> list[BoundArg]:
    """The same arguments with every buffer copied to fresh GPU memory (one rotation set)."""
    from .marshal import device_pointer

    cp = dev.cupy
    rt = cp.cuda.runtime
    out = []
    for b in bound:
        if b.kind != "buffer":
            out.append(b)
            continue
        n = b.nbytes()
        dst = cp.empty(max(n, 1), dtype=cp.uint8)
        dp = device_pointer(b.value)
        if dp is not None:
            rt.memcpy(dst.data.ptr, dp.address, n, rt.memcpyDeviceToDevice)
        else:
            host = np.ascontiguousarray(b.host_array()).reshape(-1).view(np.uint8)
            dst.set(host)
        keep.append(dst)
        out.append(BoundArg(b.arg, "buffer", dst, b.dtype))
    return out


@checked
def bench(kernel: Any, grid: Any, block: Any, *args: Any, flops: float | None = None,
          bytes: float | None = None, warmup: int = 10, reps: int = 100, rotate: int = 0,
          flush_l2: bool = False, peak: str | None = None, device: Any = None,
          dynamic_lds: int = 0) -> BenchResult:
    """Time ``kernel[grid, block](*args)`` on a GPU with device events.

    ``flops``/``bytes``: work per launch, for TFLOP/s and GB/s. ``rotate=N`` adds N copies of
    every pointer argument and cycles through them; ``flush_l2`` overwrites a buffer larger than
    the caches before every launch. ``peak``: which ``Arch.peak_tflops`` entry (e.g. "bf16",
    "fp32_vector") the FLOP rate is compared with on an AMD GPU.
    """
    if not callable(getattr(kernel, "launch", None)):
        raise ArgumentTypeError(f"wb.bench: argument 'kernel' takes a Kernel (module.name or a "
                                f"%%hipkernel name), got {type(kernel).__name__}")
    grid3, block3 = normalize_dims(grid, "grid"), normalize_dims(block, "block")
    dev = _resolve_device(kernel, device)
    if getattr(dev, "kind", None) == "emulator" or not hasattr(dev, "prepare"):
        raise LaunchError(
            f"bench needs a GPU, not {getattr(dev, 'name', dev)}: the emulator's time is the "
            "CPU running an interpreter, not GPU time. Use a ROCm GPU (set_device('rocm')), or "
            "kernel.trace[...] for what the emulator can tell (instruction mix, LDS conflicts)")
    if int(reps) < 1 or int(warmup) < 0 or int(rotate) < 0:
        raise LaunchError(f"need reps >= 1, warmup >= 0, rotate >= 0; got reps={reps}, "
                          f"warmup={warmup}, rotate={rotate}")
    if peak is not None and peak not in PEAK_KEYS:
        raise LaunchError(f"peak={peak!r} is not one of {', '.join(PEAK_KEYS)}")
    # The public path first: every check a launch makes, and a first (untimed) run.
    kernel.launch(grid3, block3, *args, device=dev, dynamic_lds=dynamic_lds)
    info = _kernel_info(kernel, dev)
    bound = bind_args(info, args)
    cp = dev.cupy
    need = rotate * sum(b.nbytes() for b in bound if b.kind == "buffer")
    fbytes = dev.flush_bytes() if flush_l2 else 0
    free = dev.memory_free()
    if need + fbytes > 0.8 * free:
        raise LaunchError(f"rotate={rotate} and flush_l2={flush_l2} need "
                          f"{(need + fbytes) / 2**30:.2f} GiB but {dev.name} has "
                          f"{free / 2**30:.2f} GiB free; use a smaller rotate")
    keep: list = []
    with cp.cuda.Device(dev.index):
        sets = [bound] + [_copy_set(dev, bound, keep) for _ in range(rotate)]
        launches = [dev.prepare(kernel, info, grid3, block3, s, dynamic_lds=dynamic_lds)
                    for s in sets]
        flush = cp.empty(fbytes, dtype=cp.uint8) if fbytes else None
        stream = cp.cuda.get_current_stream()
        rt = cp.cuda.runtime

        def one(i: int) -> None:
            if flush is not None:
                rt.memsetAsync(flush.data.ptr, i & 0xFF, fbytes, stream.ptr)
            launches[i % len(launches)](stream)

        for i in range(int(warmup)):
            one(i)
        events = [(cp.cuda.Event(), cp.cuda.Event()) for _ in range(int(reps))]
        for i, (start, end) in enumerate(events):
            if flush is not None:
                rt.memsetAsync(flush.data.ptr, i & 0xFF, fbytes, stream.ptr)
            start.record(stream)
            launches[i % len(launches)](stream)
            end.record(stream)
        events[-1][1].synchronize()
        times = np.array([cp.cuda.get_elapsed_time(s, e) * 1e-3 for s, e in events])
    return _result(kernel, dev, info, grid3, block3, times, int(warmup), int(rotate), fbytes,
                   flops, bytes, peak)


def _result(kernel, dev, info, grid, block, times, warmup, rotate, fbytes, flops, nbytes,
            peak) -> BenchResult:
    notes = []
    peak_tflops = peak_gbs = None
    arch_name = dev.arch
    if arch_name is not None:
        arch = get_arch(arch_name)
        peak_gbs = arch.memory_bandwidth_gbs
        if peak is not None:
            peak_tflops = arch.peak_tflops.get(peak)
        elif flops is not None:
            notes.append(f"pass peak= (one of {', '.join(PEAK_KEYS)}) to compare the FLOP rate "
                         f"with {arch.name}'s peak")
        cus = getattr(dev, "compute_units", lambda: 0)()
        if cus and arch.cu_count and cus != arch.cu_count:
            notes.append(f"peaks are for {arch.product} ({arch.cu_count} CUs); this GPU has "
                         f"{cus} CUs")
        elif peak_gbs or peak_tflops:
            notes.append(f"peaks: {arch.product}, from workbench.arch")
    else:
        notes.append(f"{dev.name} is not an AMD GPU: no peak from workbench.arch")
    if float(np.median(times)) < SHORT_KERNEL_S:
        notes.append("kernel shorter than 10 µs: intervals may include GPU idle time while the "
                     "host launches; read the times as upper bounds")
    return BenchResult(kernel=info.name, device=dev.name, grid=grid, block=block, times=times,
                       warmup=warmup, rotate=rotate, flush_bytes=fbytes, flops=flops,
                       bytes=nbytes, arch=arch_name, peak=peak, peak_tflops=peak_tflops,
                       peak_gbs=peak_gbs, notes=tuple(notes))
