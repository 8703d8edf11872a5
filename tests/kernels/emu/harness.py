"""Launch a kernel on the emulator with its code object's data segments mapped.

``Kernel[grid, block](...)`` on device "emulator" goes through
``workbench.runtime.emulator.EmulatorDevice``, which does not yet hand the code object's bytes to
``workbench.emu.engine.launch.execute(elf=...)``; kernels that read ``static const`` tables or
``__device__`` data need this path until it does. Host numpy arrays only.
"""
from __future__ import annotations

import numpy as np

from workbench.emu.engine.launch import Buffer, EmuResult, execute
from workbench.runtime.args import bind_args
from workbench.runtime.marshal import pack_kernargs


def launch_image(mod, name: str, grid, block, *args, arch: str = "gfx942") -> EmuResult:
    """Run kernel ``name`` of ``mod`` on the emulator with ``elf=`` given; arrays updated in
    place (const pointer parameters are read-only buffers)."""
    co = mod[arch]
    info = co.kernel(name)
    grid = tuple(grid) + (1,) * (3 - len(grid))
    block = tuple(block) + (1,) * (3 - len(block))
    bound = bind_args(info, args)
    bufs = [Buffer(b.name, np.ascontiguousarray(b.value).reshape(-1).view(np.uint8),
                   not b.arg.is_const) for b in bound if b.kind == "buffer"]

    def kernarg(addrs, hidden):
        it = iter(addrs)
        ptrs = [next(it) if b.kind == "buffer" else None for b in bound]
        return bytes(pack_kernargs(info, bound, ptrs, grid, block, hidden_pointers=hidden))

    return execute(info, co.listing(name), grid, block, bufs, kernarg, elf=co.elf)
