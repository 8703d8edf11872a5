"""EmulatorDevice: runs the gfx942/gfx950 (or RDNA gfx1100/gfx1102/gfx1151/gfx1201) code object
on the CPU through ``workbench.emu``.

Buffers are numpy arrays, torch CPU tensors (shared memory: written back in place) or cupy
arrays (copied to the host and back). The kernarg segment is packed by ``marshal.pack_kernargs``
(one layout for every device) with the emulated buffer addresses.
"""
from __future__ import annotations

import sys
import weakref
from typing import Any

import numpy as np

from ..emu.engine.launch import EMULATED_ARCHS, UNSET, Buffer, execute
from ..emu.machine.elfmap import initial_segment, load_image, segment_of
from ..errors import ArgumentTypeError
from .args import BoundArg
from .device import Dim3, LaunchResult
from .errors import LaunchError
from .marshal import pack_kernargs


class EmulatorDevice:
    """The CPU emulator as a Device: ``"emulator"`` runs gfx942 code objects,
    ``"emulator:gfx950"`` gfx950 ones, ``"emulator:gfx1100"`` / ``"emulator:gfx1201"`` RDNA3 /
    RDNA4 ones (one device per target, like one GPU per ISA)."""

    kind = "emulator"
    # keywords a launch may add: kernel[grid, block](*args, budget=..., timeout=...)
    launch_options = ("budget", "timeout", "lds_oob", "stream", "workgroups", "check", "force",
                      "max_emulation_seconds", "printf_buffer")

    def __init__(self, arch: str = "gfx942") -> None:
        if arch not in EMULATED_ARCHS:
            raise LaunchError(f"the emulator runs {', '.join(EMULATED_ARCHS)} code objects, "
                              f"not {arch!r}")
        self.arch = arch
        self.name = "emulator" if arch == EMULATED_ARCHS[0] else f"emulator:{arch}"
        self._modules: dict[int, tuple[Any, dict[int, bytearray]]] = {}

    def __repr__(self) -> str:
        return f"EmulatorDevice({self.arch})"

    def launch(self, kernel: Any, info: Any, grid: Dim3, block: Dim3, args: list[BoundArg], *,
               dynamic_lds: int = 0, trace: bool = False, budget: int | None = None,
               listing: Any = None, stream: bool = False, workgroups: int | None = None,
               **options: Any) -> LaunchResult:
        """Run one launch; outputs are written back into the argument arrays in place.

        ``budget``: maximum wave-instructions (default scales with the grid); ``timeout``:
        wall-clock seconds (default ``workbench.emu.engine.launch.default_timeout``; None: no
        limit);
        ``lds_oob``: "fault" (default) or "hardware" (LDS reads outside the allocation return
        0 and writes are dropped, as on the GPU);
        ``listing``:
        the kernel's ``workbench.isa.Listing`` when no ``kernel`` object is given.
        ``check``: check mode (``workbench.emu.observers.check``; ``LaunchResult.check``).
        Bounded work (``workbench.emu.engine.footprint``): a launch estimated over half the
        available memory or over ``max_emulation_seconds`` (default 60 s, the module setting
        ``footprint.MAX_EMULATION_SECONDS``; None: no limit) is refused with ``LaunchTooLarge``
        (a LaunchError) before it starts; ``force=True`` runs it anyway.
        ``printf_buffer``: bytes of the device printf buffer (default 1 MiB,
        ``workbench.emu.engine.printf.PRINTF_BUFFER_BYTES``); when it overflows, one line says
        how much was dropped (``LaunchResult.stats["printf_dropped"]``, bytes).
        ``stream``/``workgroups``: record instruction streams of only the first workgroups
        (timing mode: ``LaunchResult.stream``; outputs are then NOT written back, as only part
        of the grid ran).
        """
        timeout = options.pop("timeout", UNSET)
        lds_oob = options.pop("lds_oob", "fault")
        check = options.pop("check", False)  # True: findings printed; "report": returned only
        force = options.pop("force", False)
        max_seconds = options.pop("max_emulation_seconds", UNSET)
        printf_buffer = options.pop("printf_buffer", None)
        if options:
            raise ArgumentTypeError(f"EmulatorDevice.launch: unknown option(s) {sorted(options)}")
        if listing is None:
            listing = kernel.isa_for(info.arch)
        bufs: list[Buffer] = []
        hosts: list[tuple[BoundArg, np.ndarray]] = []
        for b in args:
            if b.kind != "buffer":
                continue
            host = b.host_array()
            flat = np.ascontiguousarray(host).reshape(-1).view(np.uint8)
            writable = not b.arg.is_const and bool(getattr(host, "flags", None) is None
                                                   or host.flags.writeable)
            bufs.append(Buffer(b.name, flat, writable))
            hosts.append((b, host))

        def kernarg(addresses: list[int], hidden: dict[str, int]) -> bytes:
            it = iter(addresses)
            ptrs = [next(it) if b.kind == "buffer" else None for b in args]
            return bytes(pack_kernargs(info, args, ptrs, grid, block, dynamic_lds=dynamic_lds,
                                       hidden_pointers=hidden))

        # The code object's own segments (static tables such as sinf's 2/pi bits) are mapped
        # too, so what runs is the whole ELF, not only the kernel's instructions; its
        # __device__ data persists between launches as in a loaded GPU module.
        co = kernel.module[info.arch] if kernel is not None else None
        elf = co.elf if co is not None else None
        segments = self._loaded(co) if co is not None else None
        res = execute(info, listing, grid, block, bufs, kernarg, dynamic_lds=dynamic_lds,
                      trace=trace, budget=budget, elf=elf, stream=stream, workgroups=workgroups,
                      timeout=timeout, segments=segments, lds_oob=lds_oob, check=bool(check),
                      force=force, max_seconds=max_seconds, printf_buffer=printf_buffer)
        if res.printed or res.printf_dropped:  # device printf: shown in the launch's cell
            sys.stdout.write("".join(res.printed))
            if res.printf_dropped is not None:  # once per launch, after what was kept
                sys.stdout.write(res.printf_dropped.message() + "\n")
            sys.stdout.flush()
        if res.check is not None and res.check.findings and check is True:
            sys.stdout.write(res.check.text() + "\n")  # check=True: findings show in the cell
        for (b, host), buf in zip(hosts, bufs):
            if not buf.writable or stream or (res.check is not None
                                              and not res.check.completed):
                continue
            if not np.shares_memory(buf.data, host):
                np.copyto(host.reshape(-1), buf.data.view(host.dtype), casting="no")
            _write_back(b.value, host)
        stats = dict(res.stats)
        if res.printed:
            stats["printed"] = res.printed
        if res.printf_dropped is not None:
            stats["printf_dropped"] = res.printf_dropped.dropped
        return LaunchResult(info.name, self.name, tuple(grid), tuple(block), res.seconds,
                            res.trace, stats, res.stream, res.check)


    # -- __device__ / __constant__ variables (workbench.runtime.globals) ---------------------
    def _loaded(self, co: Any) -> dict[int, bytearray]:
        """The loaded-module state of one code object (segment vaddr -> current bytes)."""
        hit = self._modules.get(id(co))
        if hit is None or hit[0]() is not co:
            hit = self._modules[id(co)] = (weakref.ref(co), {})
            weakref.finalize(co, self._modules.pop, id(co), None)
        return hit[1]

    def read_global(self, module: Any, var: Any) -> bytes:
        """The current bytes of a device variable of ``module`` on this device."""
        co = module[self.arch]
        img = load_image(co.elf)
        seg = segment_of(img, var.vaddr, var.size)
        data = self._loaded(co).get(seg.vaddr) or initial_segment(img, seg)
        o = var.vaddr - seg.vaddr
        return bytes(data[o:o + var.size])

    def write_global(self, module: Any, var: Any, data: bytes) -> None:
        """Set a device variable before the next launch (what hipMemcpyToSymbol does)."""
        co = module[self.arch]
        img = load_image(co.elf)
        seg = segment_of(img, var.vaddr, var.size)
        state = self._loaded(co)
        buf = state.get(seg.vaddr)
        if buf is None:
            buf = state[seg.vaddr] = initial_segment(img, seg)
        o = var.vaddr - seg.vaddr
        buf[o:o + var.size] = data


def _write_back(value: Any, host: np.ndarray) -> None:
    """Copy a host result back into a device object (cupy); host objects share memory."""
    mod = type(value).__module__.split(".")[0]
    if mod == "cupy":
        import cupy

        value[...] = cupy.asarray(host).reshape(value.shape)
    elif mod == "torch" and value.device.type != "cpu":
        import torch

        value.copy_(torch.from_numpy(host).view(value.dtype).reshape(value.shape))
