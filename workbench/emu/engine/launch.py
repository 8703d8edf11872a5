"""One emulated launch: map buffers, build the kernarg segment, run all workgroups, copy back.

``execute`` is device-independent (numpy buffers in, numpy buffers out); ``EmulatorDevice``
(workbench/runtime/emulator.py) adapts bound launch arguments to it. Compiled programs are
cached per kernel (keyed by symbol, arch and the instruction words), so repeated launches
decode nothing.
"""
from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...errors import LaunchError
from ..errors import BarrierDeadlock, EmulationInterrupted, EmulatorError, Livelock
from ..machine.elfmap import capture, fill_image, load_image, map_image
from ..machine.memory import Memory
from ..machine.state import State
from ..observers.coverage import record
from ..observers.stream import StreamRecorder
from ..observers.trace import DEFAULT_MAX_DS_ROWS, TraceRecorder
from ..semantics.scalar.mode import mode_from_descriptor
from . import footprint, printf
from .abi import DISPATCH_PACKET_SIZE, QUEUE_SIZE, dispatch_packet, init_batch, waves_per_group
from .decode import Program
from .printf import decode as decode_printf
from .printf import formats as printf_formats
from .printf import header as printf_header
from .scheduler import Launch, run_batch

DEFAULT_BUDGET_BASE = 2_000_000  # wave-instructions every launch may run ...
DEFAULT_BUDGET_PER_WAVE = 200_000  # ... plus this much per wave of the grid
# Wall-clock watchdog (seconds): a runaway one-wave loop stops after DEFAULT_TIMEOUT_BASE, a
# large grid gets DEFAULT_TIMEOUT_PER_WAVE more per wave (a 1024-wave GEMM: ~8 s). Both are
# module settings; ``timeout=`` per launch (None: no limit).
DEFAULT_TIMEOUT_BASE = 4.0
DEFAULT_TIMEOUT_PER_WAVE = 0.004
CHECK_TIMEOUT_FACTOR = 4  # default watchdog multiplier in check mode
# Per-thread stack a kernel with a dynamic call stack (recursion, indirect calls: the
# descriptor's USES_DYNAMIC_STACK) gets beyond its fixed private segment: HIP's default
# hipLimitStackSize, 1024 bytes (HIP documentation, "Call stack": an MI300X "could use
# 304 · 2048 · 1024 bytes = 608 MiB for the call stack by default")
DEFAULT_STACK_BYTES = 1024
# The wave64 CDNA targets whose code objects the emulator executes: gfx942 (CDNA3) and gfx950
# (CDNA4: LLVM AMDGPU.td FeatureISAVersion9_5_Common = FeatureISAVersion9_4_Common plus the
# gfx950 features, llvm/llvm-project PR 116307).
# RDNA3 gfx1100/gfx1102/gfx1151 and RDNA4 gfx1201 run wave32 (default) and wave64: the GFX11 /
# GFX12 encodings and mnemonics (workbench/emu/decoder/rdna.py) on the same engine; gfx1102 and
# gfx1151
# share gfx1100's ISA in LLVM (AMDGPU.td FeatureISAVersion11_0_Common / 11_5_Common; gfx1151
# adds no instruction the compiler emits for HIP kernels here).
EMULATED_ARCHS = ("gfx942", "gfx950", "gfx1100", "gfx1102", "gfx1151", "gfx1201")

_CACHE: OrderedDict = OrderedDict()
_CACHE_SIZE = 64


@dataclass
class Buffer:
    """A launch buffer: ``data`` is a flat uint8 view of the host array."""

    name: str
    data: np.ndarray
    writable: bool = True


@dataclass
class EmuResult:
    seconds: float
    wave_instructions: int
    waves: int
    trace: Any = None
    stats: dict = field(default_factory=dict)
    stream: Any = None  # workbench.timing.InstStream (stream mode)
    printed: tuple[str, ...] = ()  # device printf output, in order (wave, then lane)
    printf_dropped: Any = None  # printf.Overflow when the printf buffer overflowed
    check: Any = None  # workbench.emu.observers.check.CheckReport (check mode)


def program_for(info: Any, listing: Any) -> Program:
    """The compiled Program of a kernel, from the cache when its code is unchanged."""
    d = info.descriptor
    key = (info.symbol, info.arch, d.rsrc1, d.rsrc2, d.rsrc3, d.kernel_code_properties,
           hash(tuple((i.addr, i.words) for i in listing)))
    prog = _CACHE.get(key)
    if prog is None:
        d = info.descriptor
        prog = Program(listing, info.name, d.float_denorm_mode_32, d.float_denorm_mode_16_64,
                       d.dx10_clamp, d.ieee_mode, mode=mode_from_descriptor(d), arch=info.arch,
                       wave=32 if d.wave32 else 64)
        _CACHE[key] = prog
        if len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    else:
        _CACHE.move_to_end(key)
    return prog


def default_budget(n_waves: int) -> int:
    return DEFAULT_BUDGET_BASE + DEFAULT_BUDGET_PER_WAVE * n_waves


def default_timeout(n_waves: int) -> float:
    """The watchdog's default wall-clock limit for a launch of ``n_waves`` waves (seconds)."""
    return DEFAULT_TIMEOUT_BASE + DEFAULT_TIMEOUT_PER_WAVE * n_waves


UNSET: Any = object()  # "argument not given" (None means "no limit")


def execute(info: Any, listing: Any, grid: Sequence[int], block: Sequence[int],
            buffers: Sequence[Buffer], kernarg: Callable[[list[int], dict[str, int]], bytes],
            *, dynamic_lds: int = 0, trace: bool = False, budget: int | None = None,
            max_ds_rows: int = DEFAULT_MAX_DS_ROWS, max_waves: int | None = None,
            elf: bytes | None = None, stream: bool = False,
            workgroups: int | None = None, timeout: Any = UNSET,
            segments: dict[int, bytearray] | None = None,
            lds_oob: str = "fault", check: bool = False,
            only: Sequence[Sequence[int]] | None = None, write_back: bool = True,
            force: bool = False, max_seconds: Any = UNSET,
            printf_buffer: int | None = None) -> EmuResult:
    """Run ``info``'s code (``listing``) over the grid; buffers are updated in place.

    ``kernarg(addresses, hidden_pointers)`` returns the kernarg segment bytes given the emulated
    address of each buffer (same order) and the hidden pointers the emulator provides.
    ``budget``: wave-instructions (default ``default_budget``); ``timeout``: wall-clock seconds
    (default ``default_timeout``, None: no limit) — whichever is reached first stops the launch.
    ``elf``: the code object's bytes; its loadable segments (constant tables, ``__device__``
    data) are then mapped at ``memory.CODE_BASE`` (``elfmap``). Without it, a kernel that reads
    such data faults with the address it tried. ``segments``: the loaded module's state
    (``elfmap``): mapped from, and its writable segments updated after a completed launch.
    ``lds_oob``: "fault" (default: an LDS access outside the allocation raises KernelFault) or
    "hardware" (reads return 0, writes are dropped, as on the GPU; see ``memory.ds``).
    ``stream``: also record every wave's instruction stream (``EmuResult.stream``, for
    ``workbench.timing``); ``workgroups``: run only the first that many workgroups of the grid
    (in dispatch order), e.g. those one CU holds. ``check``: run in check mode
    (``workbench.emu.observers.check``): ``EmuResult.check`` is the CheckReport; a barrier deadlock
    or a
    spin-wait livelock becomes a finding (outputs are then not written back).
    ``only``: run exactly these workgroup ids ((x, y, z) each, in the given order) instead of
    the grid, e.g. the boundary workgroups the launch guard checks (``runtime.guard``);
    ``write_back=False``: leave ``buffers`` untouched (what ran is discarded).
    Bounded work (``footprint``): before anything is allocated, a launch over half the
    available memory or over ``max_seconds`` of estimated emulation (default
    ``footprint.MAX_EMULATION_SECONDS``; None: no limit) raises ``footprint.LaunchTooLarge``;
    ``force=True`` runs it anyway. ``printf_buffer``: bytes of the device printf buffer
    (default ``printf.PRINTF_BUFFER_BYTES``); an overflow is reported in
    ``EmuResult.printf_dropped``.
    """
    t0 = time.monotonic()
    if info.arch not in EMULATED_ARCHS:
        raise EmulatorError(f"the emulator runs {' and '.join(EMULATED_ARCHS)} code objects; "
                            f"{info.name} is {info.arch}")
    wave = 32 if info.descriptor.wave32 else 64
    grid = tuple(int(x) for x in grid)
    block = tuple(int(x) for x in block)
    prog = program_for(info, listing)
    desc = info.descriptor
    wpg = waves_per_group(block, wave)
    n_wg = grid[0] * grid[1] * grid[2]
    n_waves = n_wg * wpg
    if budget is None:
        budget = default_budget(n_waves)
    if lds_oob not in ("fault", "hardware"):
        raise EmulatorError(f"lds_oob must be 'fault' or 'hardware', got {lds_oob!r}")
    if not isinstance(force, bool):
        raise LaunchError(f"force= takes True or False, got {force!r}")
    seconds_given = max_seconds is not UNSET
    max_seconds = (footprint.MAX_EMULATION_SECONDS if max_seconds is UNSET
                   else footprint.resolve_max_seconds(max_seconds))
    pbytes = printf.buffer_size(printf_buffer)
    has_printf = info.hidden("hidden_printf_buffer") is not None
    timeout_from = "timeout"
    if timeout is UNSET:
        # check mode does per-access bookkeeping in Python: its watchdog allows more time
        timeout = default_timeout(n_waves) * (CHECK_TIMEOUT_FACTOR if check else 1)
        # a launch's own max_emulation_seconds caps the watchdog too: a loop the estimate
        # cannot see stops there, not later
        if seconds_given and max_seconds is not None and not force and max_seconds < timeout:
            timeout, timeout_from = max_seconds, "max_emulation_seconds"
    elif timeout is not None and not (isinstance(timeout, (int, float)) and timeout > 0):
        raise EmulatorError(f"timeout must be a positive number of seconds or None, "
                            f"got {timeout!r}")
    lds = desc.group_segment_fixed_size + int(dynamic_lds)
    scratch = desc.private_segment_fixed_size
    if desc.uses_dynamic_stack:
        scratch = max(scratch, DEFAULT_STACK_BYTES)
    # entry point: with kernarg preloading the first 256 bytes are a compatibility prologue
    entry_addr = info.entry + (256 if desc.kernarg_preload_length else 0)
    if entry_addr not in prog.index:
        raise EmulatorError(f"{info.name}: entry 0x{entry_addr:x} is not in the listing")
    entry = prog.index[entry_addr]
    if only is not None:
        ids = np.array([[int(v) for v in wg] for wg in only], np.int64).reshape(-1, 3)
        if ((ids < 0) | (ids >= np.array(grid))).any():
            raise EmulatorError(f"workgroups {only} are not all inside the grid {grid}")
        n_ids = len(ids)
    else:
        ids, n_ids = None, n_wg  # workgroup ids are made per batch: never for the whole grid
    n_run = n_ids if workgroups is None else max(0, min(n_ids, int(workgroups)))
    # bounded work: estimated before anything is allocated (footprint.py)
    fp = footprint.estimate(
        prog, entry, grid, block, wave, run_wgs=n_run,
        buffer_bytes=sum(int(b.data.nbytes) for b in buffers),
        printf_bytes=pbytes if has_printf else 0, lds=lds, scratch=scratch, trace=trace,
        stream=stream, check=check, max_ds_rows=max_ds_rows, max_waves=max_waves)
    if not force:
        footprint.check(fp, info.name, max_seconds=max_seconds)
    # memory map
    mem = Memory()
    regions = [mem.add(b.name, b.data.nbytes, b.writable) for b in buffers]
    # kernarg segment, padded to 64 bytes so that a scalar load LLVM widened past the last
    # argument (e.g. s_load_dwordx8 over a 28-byte tail) is not reported as a fault
    ksize = max(64, (info.kernarg_size + 63) // 64 * 64)
    kreg = mem.add("<kernarg segment>", ksize, writable=False)
    dreg = mem.add("<dispatch packet>", DISPATCH_PACKET_SIZE, writable=False)
    qreg = mem.add("<queue>", QUEUE_SIZE, writable=False)
    # device printf: a buffer behind the hidden_printf_buffer argument (emu/engine/printf.py)
    preg = mem.add("<printf buffer>", pbytes) if has_printf else None
    image = load_image(elf) if elf is not None else None
    mapped = map_image(mem, image) if image is not None else []
    mem.finalize()
    if image is not None:
        fill_image(mem, mapped, image, segments)
    for b, r in zip(buffers, regions):
        mem.view(r)[:] = b.data
    hidden = {}
    if preg is not None:
        mem.view(preg)[:8] = np.frombuffer(printf_header(pbytes), np.uint8)
        hidden["hidden_printf_buffer"] = preg.base
    kbytes = bytes(kernarg([r.base for r in regions], hidden))
    kview = mem.view(kreg)
    kview[: min(len(kbytes), ksize)] = np.frombuffer(kbytes, np.uint8)[:ksize]
    mem.view(dreg)[:] = np.frombuffer(
        dispatch_packet(grid, block, lds, scratch, kreg.base), np.uint8)
    # stream mode needs the LDS rows too: the timing model costs each access's bank conflicts
    recorder = (TraceRecorder(max_ds_rows if (trace or stream) else 0)
                if (trace or stream or check) else None)
    if stream:
        recorder.stream = StreamRecorder()
    checker = None
    if check:
        from ..observers.check import Checker

        checker = recorder.check = Checker(prog, info.name, lds, info.arch)
    wave_wg: dict[int, int] = {}
    wave_in: dict[int, int] = {}
    # the watchdog counts emulation only: decoding a big kernel once (an -O0 build of tens of
    # thousands of instructions takes seconds) is bounded work, not a runaway loop
    launch = Launch(prog, info.name, mem, budget, recorder, timeout=timeout,
                    started=time.monotonic(), timeout_from=timeout_from)
    # batches of whole workgroups (register files, scratch and LDS rows within the cap)
    wg_per_batch = fp.workgroups_per_batch
    limit = None if force else max_seconds
    try:
        for s in range(0, n_run, wg_per_batch):
            e = min(s + wg_per_batch, n_run)
            wg_ids = ids[s:e] if ids is not None else _workgroup_ids(grid, s, e)
            st = State(len(wg_ids) * wpg, prog.info.n_vgpr, prog.info.n_agpr, len(wg_ids), lds,
                       scratch, wave)
            st.mem = mem
            st.gen = prog.info.gen
            st.lds_oob = lds_oob
            st.dynamic_stack = bool(desc.uses_dynamic_stack)  # scratch faults name the limit
            st.trace = recorder
            st.launch = launch
            init_batch(st, desc, grid, block, wg_ids, kreg.base, dreg.base, qreg.base, kview,
                       scratch_base=0)
            st.wave_global = (s * wpg + np.arange(st.W)).astype(np.int64)
            st.wg_first = s
            st.MODE[:] = np.uint32(max(prog.info.mode, 0))
            if stream:
                for w in range(st.W):
                    wave_wg[int(st.wave_global[w])] = s + int(st.wg[w])
                    wave_in[int(st.wave_global[w])] = int(st.wave_in_wg[w])
            if checker is not None:
                checker.batch(st)
            try:
                run_batch(launch, st, entry)
                if checker is not None:
                    checker.end_batch(st)
            except (BarrierDeadlock, Livelock):
                if checker is None:
                    raise
                break
            except EmulatorError as exc:
                # what the kernel printed before it failed (an assert's message) goes with it
                _attach_printed(exc, _printed(mem, preg, elf))
                raise
            del st
            # the measured rate of the batches so far projects the whole launch (loops the
            # estimate could not see); over the limit, the rest is refused before it runs
            footprint.check_progress(fp, info.name, done_wgs=e,
                                     elapsed=time.monotonic() - launch.started, max_seconds=limit)
    except KeyboardInterrupt as exc:  # Ctrl-C between two batches (inside one: run_batch)
        if isinstance(exc, EmulationInterrupted):
            raise
        raise EmulationInterrupted(
            f"emulation of kernel {info.name!r} interrupted after {launch.executed:,} "
            f"wave-instructions; the launch's outputs were not written back, and the kernel "
            f"can be launched again") from None
    record(prog, launch.counts)
    if segments is not None and not stream:
        capture(mem, mapped, segments)
    for b, r in zip(buffers, regions):
        # stream mode may run part of the grid, a stopped check-mode launch did not finish:
        # no write-back
        if (b.writable and write_back and not stream
                and (checker is None or checker.report.completed)):
            b.data[:] = mem.view(r)
    tr = strm = None
    if recorder is not None:
        tr = recorder.finish(info.name, prog, launch.counts, launch.executed)
        if stream:
            strm = recorder.stream.finish(info.name, info.arch, grid, block, prog.insts, wave_wg,
                                          wave_in, tr.ds, tr.truncated)
    secs = time.monotonic() - t0
    return EmuResult(secs, launch.executed, n_waves, tr if trace else None,
                     {"wave_instructions": launch.executed, "waves": n_waves}, strm,
                     printed=_printed(mem, preg, elf),
                     check=checker.report if checker is not None else None,
                     printf_dropped=(printf.overflow(bytes(mem.view(preg)))
                                     if preg is not None else None))


def _workgroup_ids(grid: tuple, start: int, stop: int) -> np.ndarray:
    """Workgroup ids (x, y, z) of dispatch numbers ``start``..``stop``-1 ([n, 3] int64): x
    fastest, then y, then z, as a GPU dispatches them; only one batch's worth is ever made."""
    lin = np.arange(start, stop, dtype=np.int64)
    gx, gy = grid[0], grid[1]
    return np.stack([lin % gx, lin // gx % gy, lin // (gx * gy)], -1)


def _printed(mem: Memory, preg: Any, elf: bytes | None) -> tuple[str, ...]:
    """The device printf output of the launch so far (empty without a printf buffer)."""
    if preg is None:
        return ()
    from ...codeobject import read_metadata

    fmts = printf_formats(read_metadata(elf)) if elf is not None else {}
    return tuple(decode_printf(bytes(mem.view(preg)), fmts))


def _attach_printed(e: EmulatorError, printed: tuple[str, ...]) -> None:
    """Add the device output printed before a failure to the error's message."""
    e.printed = printed
    if not printed:
        return
    shown = list(printed[-20:])
    more = f" (last 20 of {len(printed)})" if len(printed) > 20 else ""
    text = "".join(s if s.endswith("\n") else s + "\n" for s in shown).rstrip("\n")
    e.args = (f"{e.args[0] if e.args else ''}\ndevice output before the failure{more}:\n{text}",
              *e.args[1:])
