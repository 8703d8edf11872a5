"""The launch guard: before a GPU launch runs, emulate its boundary workgroups and refuse it
when one of them reads or writes outside a buffer.

Why: on a GPU nothing checks a global access (``workbench.errors.GPU_OOB``): an off-by-one
index aborts the process (AMD) or loses the CUDA context (NVIDIA) — the notebook must be
restarted — or silently overwrites another allocation. The emulator executes the AMD build of
the same kernel and faults precisely, so a few workgroups of it, run with buffers of exactly
the passed sizes, tell before the GPU runs whether the grid's edges stay inside the buffers.

What is checked (the "pre-flight"), once per launch signature — kernel, grid, block, dynamic
LDS bytes, by-value argument values, each buffer's byte size:
- the workgroups ``boundary_workgroups(grid)`` picks (the first, the last, and the last along
  each grid dimension: at most 5), on the emulator, of the kernel's AMD build: the GPU's own
  code object on ROCm; for a CUDA launch (NVRTC's build of the same source, 32-lane warps)
  the module's wave32 build if it has one, else its first emulated one (a kernel whose
  addressing depends on the wave size may then differ; the refusal says so);
- every pointer argument is backed by a buffer of exactly its byte size, holding the user's
  data when the GPU-resident buffers total at most ``COPY_LIMIT`` bytes (host arrays are used
  as they are). Above that, the buffers are stand-ins filled with zeros; a fault seen then is
  re-run with every stand-in byte 0x5A and refused only if it recurs at the same place (an
  address that depends on buffer contents would move). Launches whose buffers total more than
  ``STANDIN_LIMIT`` bytes are not emulated (inconclusive);
- ``__device__`` variables hold their initial values (the code object's), not what a GPU
  launch or ``kernel.globals`` left there;
- under ``BUDGET`` wave-instructions and ``TIMEOUT`` seconds. LDS stays as the GPU treats it
  (an LDS access outside the allocation reads 0, writes are dropped) and is not judged.

Verdicts (``GuardVerdict``, also ``kernel.last_guard``): "checked" (the boundary workgroups
stayed inside the buffers; not a proof for the other workgroups), "refused" (``LaunchRefused``
names the argument, workgroup, thread, lane, byte offset and buffer size; a trap run with the
user's data is refused too), "inconclusive"
(budget or time exhausted, an instruction the emulator lacks, no emulated AMD build, ...: the
launch goes ahead, with one warning per kernel and reason). Verdicts are kept per signature,
so a repeated launch costs one dict lookup (and a repeat with other data in the same buffers
keeps the first verdict). A scalar the emulated build's ISA shows cannot reach an address, a
branch or EXEC (``workbench.argument_flow``: ``y[i] = a * x[i]``'s ``a``) is left out of the
signature, so a new value of it keeps the verdict too. A size that only gates lanes
(``workbench.lane_gates``: ``if (i < n)``) is left out too: a verdict checked at ``n`` covers
any size that runs a subset of those lanes, a launch past it is checked afresh. Override:
``kernel[grid, block](..., guard=False)`` for one launch, ``wb.set_guard(False)`` for the
session.
"""

from __future__ import annotations

import time
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..argument_types import checked
from ..errors import GPU_OOB, KernelFault
from ..lane_gates import Gate
from .args import BoundArg
from .errors import LaunchError
from .gated_preflight import gated_preflight

GPU_KINDS = ("rocm", "cuda")  # device kinds whose launches are guarded (real GPUs)
BUDGET = 1_000_000  # wave-instructions for all checked workgroups of one pre-flight
TIMEOUT = 2.0  # seconds of emulation for one pre-flight (None: no limit)
COPY_LIMIT = 64 << 20  # GPU-resident buffer bytes copied to the host for a pre-flight
STANDIN_LIMIT = 2 << 30  # buffer bytes in all above which no pre-flight runs (host memory)
MAX_VERDICTS = 256  # launch configurations, and signatures per configuration, kept per kernel
_MEMORY_SPACES = ("global", "flat", "scalar memory")

# A trap (``__builtin_trap``, ``abort``, a failed ``assert``) ends the kernel with an error on
# every GPU: on AMD ``s_trap`` raises a queue error (ROCm debug agent docs: "a queue error (for
# example ... executing an s_trap 2)") and the process is aborted; on NVIDIA a failed device
# assert is cudaErrorAssert, after which "the process must be terminated and relaunched" (CUDA
# Runtime API, enum cudaError).
GPU_TRAP = ("On a GPU a trap ends the kernel with an error that needs a restart (AMD: a queue "
            "error aborts the process; NVIDIA: cudaErrorAssert, the CUDA context is lost)")

_state = {"on": True}
_warned: set[tuple[str, str]] = set()


@checked
def set_guard(enabled: bool) -> bool:
    """Turn the launch guard on or off for this session; returns the previous setting.

    Why: a kernel the guard cannot judge fairly (e.g. addresses that depend on atomics across
    workgroups) can still be launched; ``guard=False`` does the same for one launch.
    """
    if not isinstance(enabled, bool):
        raise LaunchError(f"set_guard takes True or False, got {enabled!r}")
    old, _state["on"] = _state["on"], enabled
    return old


def guard_enabled() -> bool:
    """Whether GPU launches are checked before they run (``set_guard``)."""
    return _state["on"]


@dataclass(frozen=True)
class GuardVerdict:
    """What the pre-flight of one launch signature found (``kernel.last_guard``)."""

    status: str  # "checked" | "refused" | "inconclusive"
    workgroups: tuple[tuple[int, int, int], ...]  # the workgroups emulated
    arch: str | None  # the AMD build that was emulated
    reason: str  # the refusal message, why it is inconclusive, or what was checked
    seconds: float  # time the pre-flight took
    contents: str = ""  # "copied" | "stand-ins" (buffer contents the emulator saw)
    # lane gates: (argument index, Gate, value checked with); the verdict holds for a launch
    # whose value of each is covered (``covers``)
    bounds: tuple = ()
    passes: bool = field(init=False, default=True)  # whether the launch may go ahead

    def __post_init__(self) -> None:
        # plain attributes, not properties: the prebound fast path reads them on every launch
        object.__setattr__(self, "passes", self.status != "refused")
        object.__setattr__(self, "_ranges", tuple(
            (i, *g.accepts(c, self.status != "checked")) for i, g, c in self.bounds))

    def covers(self, args: tuple) -> bool:
        """Whether the verdict holds for ``args``' lane-gate sizes (``Gate.accepts``)."""
        try:
            return all(lo <= args[i] <= hi for i, lo, hi in self._ranges)
        except (TypeError, IndexError):  # a size that is no number: the full path says so
            return False

    def __str__(self) -> str:
        return f"guard {self.status} ({self.seconds * 1e3:.0f} ms): {self.reason}"


class LaunchRefused(LaunchError):
    """A GPU launch the guard refused before it ran: the emulated AMD build of the kernel
    accessed memory outside an argument's buffer (or trapped) in a boundary workgroup."""

    def __init__(self, message: str, verdict: GuardVerdict | None = None,
                 fault: KernelFault | None = None, argument: str | None = None,
                 thread: tuple[int, int, int] | None = None):
        super().__init__(message)
        self.verdict = verdict
        self.fault = fault
        self.argument = argument  # the C parameter name of the buffer
        self.thread = thread  # threadIdx (x, y, z) of the first faulting lane
        self.workgroup = fault.workgroup if fault is not None else None
        self.lane = fault.lanes[0] if fault is not None and fault.lanes else None
        self.offset = fault.offset if fault is not None else None
        self.buffer_size = fault.buffer_size if fault is not None else None


def boundary_workgroups(grid: tuple[int, int, int]) -> tuple[tuple[int, int, int], ...]:
    """The workgroups a pre-flight runs: the first, the last, and the last along each grid
    dimension (the others at 0), without repeats; at most 5."""
    last = tuple(g - 1 for g in grid)
    picks = [(0, 0, 0), last, (last[0], 0, 0), (0, last[1], 0), (0, 0, last[2])]
    return tuple(dict.fromkeys(picks))


# ---------------------------------------------------------------------------------------------
# Signatures: what a verdict depends on, computed on the full path and on the fast path alike.

def signature(bound: list[BoundArg], args: tuple, keep: tuple | None = None) -> tuple:
    """One hashable item per argument: a buffer's byte size, a plain int/float scalar as
    given (what the prebound fast path sees), any other by-value argument as its bytes.
    ``keep`` (``relevance``): a scalar that cannot move an access is None, whatever its value;
    a struct keeps only the bytes of its dwords that can."""
    out = []
    for i, (b, a) in enumerate(zip(bound, args)):
        k = True if keep is None or i >= len(keep) else keep[i]
        if b.kind == "buffer":
            out.append(b.nbytes())
        elif k is False or isinstance(k, Gate):  # a gate's value: the verdict's bounds
            out.append(None)
        elif type(a) is int or type(a) is float or type(a) is bool or (
                type(a) is tuple and all(type(e) in (int, float, bool) for e in a)):
            out.append(a)  # as the fast path's key has it (a vector given as a tuple)
        else:
            raw = b.scalar_bytes()
            if b.fields:  # a struct of pointers: its buffers' sizes, not their addresses
                ptrs = {(f.arg.offset - b.arg.offset) // 4 + j for f in b.fields for j in (0, 1)}
                dwords = [d for d in (range((len(raw) + 3) // 4) if k is True else k)
                          if d not in ptrs]
                raw = b"".join(raw[4 * d:4 * d + 4] for d in dwords)
                out.append(("struct", raw, tuple(f.nbytes() for f in b.fields)))
                continue
            if k is not True:  # the dword indices (within the argument) that count
                raw = b"".join(raw[4 * d:4 * d + 4] for d in k)
            out.append(("bytes", raw))
    return tuple(out)


def fast_signature(bound: list[BoundArg], keep: tuple | None = None):
    """``argv -> signature`` for the prebound fast path, specialised to this argument list
    (one tuple display, no loop: it runs on every repeated GPU launch). Buffers give their
    ``.nbytes`` (cupy arrays and torch tensors have it); scalars are themselves, or None when
    ``keep`` says they cannot move an access (as ``signature`` gives)."""
    consts: dict[int, bytes] = {}

    def item(i: int, b: BoundArg) -> str:
        if b.kind == "buffer":
            return f"argv[{i}].nbytes"
        k = True if keep is None or i >= len(keep) else keep[i]
        if k is False or isinstance(k, Gate):
            return "None"
        if b.fields:  # a struct of pointers (a dataclass): its fields' sizes, its other bytes
            # as the first launch had them (the device plan declines if they changed)
            consts[i] = signature([b], (b.source,), (k,))[0][1]
            sizes = ", ".join(f"argv[{i}].{'.'.join(f.name.split('.')[1:])}.nbytes"
                              for f in b.fields)
            return f"('struct', C[{i}], ({sizes},))"
        return "None" if k is False else f"argv[{i}]"

    n = len(bound) - sum(len(b.fields) for b in bound)  # structs' fields come last
    items = ", ".join(item(i, b) for i, b in enumerate(bound[:n]))
    return eval(f"lambda argv, C=C: ({items},)", {"C": consts})  # noqa: S307 - indices only


def relevance(kernel: Any, dev: Any, info: Any) -> tuple | None:
    """Per explicit argument of ``info``: True (its value can move an access or a branch of
    the emulated build, or cannot be shown not to), False (it provably cannot: left out of the
    verdict's key), a ``Gate`` (it only decides which lanes run: out of the key, into the
    verdict's bounds; ``workbench.lane_gates``), or for a struct the tuple of its dword
    indices that can (``workbench.argument_flow``). Kept per kernel and arch; None when no
    build is read."""
    arch, _ = emulated_arch(kernel.module, dev, info.name)
    if arch is None:
        return None
    memo = kernel._relevance
    key = (arch, info.name)
    if key not in memo:
        memo[key] = _relevance(kernel, arch, info)
    return memo[key]


def _relevance(kernel: Any, arch: str, info: Any) -> tuple | None:
    from ..argument_flow import argument_flow
    from ..lane_gates import lane_gates

    try:
        einfo = kernel.info(arch)
        listing = kernel.isa_for(arch)
        flow = argument_flow(einfo, listing)
    except Exception:  # no listing here (no llvm-objdump): every argument counts
        return None
    if flow.all_relevant or len(einfo.args) != len(info.args):
        return None
    gates = lane_gates(einfo, listing)
    out: list = []
    for i, a in enumerate(einfo.args):
        if i in gates and info.args[i].size == a.size and not info.args[i].is_pointer:
            out.append(gates[i])
        elif a.is_pointer:
            out.append(True)
        elif a.size <= 8 or not flow.relevant(a.offset, a.size):
            out.append(flow.relevant(a.offset, a.size))
        else:  # a struct by value: the dwords of it that count
            out.append(tuple(d for d in range((a.size + 3) // 4)
                             if flow.relevant(a.offset + 4 * d, 4)))
    return tuple(out)


def guarded_plan(plan: Any, verdicts: dict, prefix: tuple, bound: list[BoundArg],
                 keep: tuple | None = None):
    """Wrap a device's prebound plan: it runs only for argument signatures whose verdict
    passes (or while the guard is off); anything else returns None, so the full path (with
    its pre-flight) decides. ``verdicts``: the kernel's {prefix: {signature: verdict}};
    ``keep``: ``relevance`` of the arguments."""
    sig = fast_signature(bound, keep)  # more arguments than it reads: the plan declines
    state = _state
    table = verdicts.setdefault(prefix, {})  # this launcher's verdicts: one hash per call
    gated = keep is not None and any(isinstance(k, Gate) for k in keep)

    def run(argv: tuple):
        nonlocal table
        try:
            key = sig(argv)
            v = table.get(key)
            if v is None:  # the kernel's table may have been replaced (bounded memo)
                table = verdicts.setdefault(prefix, {})
                v = table.get(key)
        except (AttributeError, TypeError, IndexError):  # no .nbytes, unhashable, too few
            return None
        if v is not None and (not gated or v.covers(argv)):  # lane-gate sizes within bounds
            return plan(argv) if v.passes else None
        return plan(argv) if not state["on"] else None

    return run


# ---------------------------------------------------------------------------------------------
# The pre-flight

def check_launch(kernel: Any, dev: Any, info: Any, grid: tuple, block: tuple,
                 bound: list[BoundArg], args: tuple, dynamic_lds: int) -> GuardVerdict:
    """The verdict for this launch (cached per signature on ``kernel``); raises LaunchRefused
    when it is "refused". Warns once per kernel and reason when it is inconclusive."""
    prefix = guard_prefix(dev, grid, block, dynamic_lds)
    keep = relevance(kernel, dev, info)
    gates = [(i, k) for i, k in enumerate(keep or ()) if isinstance(k, Gate)]
    sig = signature(bound, args, keep)
    key = (prefix, sig, tuple(int(args[i]) for i, _ in gates))  # a refusal's: its sizes too
    verdicts = kernel._verdicts
    table = verdicts.get(prefix)
    if table is None:
        if len(verdicts) >= MAX_VERDICTS:
            verdicts.clear()
            kernel._refusals.clear()
        table = verdicts[prefix] = {}
    v = table.get(sig)
    if v is None or not v.covers(args):
        old, run = v, (kernel, dev, info, grid, block, dynamic_lds)
        v, err = gated_preflight(preflight, gates, args, bound, run, key[:2]) if gates else (
            preflight(*run[:5], bound, dynamic_lds))
        if len(table) >= MAX_VERDICTS:
            table.clear()
        if old is None or v.status == "checked" or old.status != "checked":
            table[sig] = v  # a refusal past a checked bound keeps the checked verdict
        if err is not None:
            if len(kernel._refusals) >= MAX_VERDICTS:
                kernel._refusals.clear()
            kernel._refusals[key] = err
    kernel.last_guard = v
    if v.status == "refused":
        err = kernel._refusals.get(key)
        raise err if err is not None else LaunchRefused(v.reason, v)
    if v.status == "inconclusive" and (info.name, v.reason) not in _warned:
        _warned.add((info.name, v.reason))
        warnings.warn(f"{info.name}: launched without a bounds check — {v.reason}",
                      GuardWarning, stacklevel=4)
    return v


class GuardWarning(UserWarning):
    """The launch guard could not judge a launch (it ran unchecked); says why."""


def guard_prefix(dev: Any, grid: tuple, block: tuple, dynamic_lds: int) -> tuple:
    """The part of a verdict's key fixed per launcher: device kind/arch and configuration."""
    return (dev.kind, dev.arch, grid, block, dynamic_lds)


def emulated_arch(module: Any, dev: Any, name: str) -> tuple[str | None, str]:
    """(the AMD build of kernel ``name`` to emulate for ``dev``, or None and why).

    A ROCm GPU runs its own code object. A CUDA launch runs NVRTC's build of the same source,
    with 32-lane warps: a wave32 build (RDNA) is preferred when the module has one, so that
    addresses computed from ``warpSize`` agree; else the first build the emulator runs.
    """
    from ..emu.engine.launch import EMULATED_ARCHS

    if dev.arch is not None:  # an AMD GPU runs this very code object
        if dev.arch in EMULATED_ARCHS:
            return dev.arch, ""
        return None, f"the emulator does not run {dev.arch} code objects"
    archs = [a for a in module.archs if a in EMULATED_ARCHS]
    if not archs:
        return None, (f"the module has no build the emulator runs ({', '.join(module.archs)}; "
                      f"it runs {', '.join(EMULATED_ARCHS)})")
    wave32 = [a for a in archs if _wave32(module, a, name)]
    return (wave32 or archs)[0], ""


def _wave32(module: Any, arch: str, name: str) -> bool:
    try:
        return bool(module[arch].kernel(name).descriptor.wave32)
    except (KeyError, ValueError):
        return False


def preflight(kernel: Any, dev: Any, info: Any, grid: tuple, block: tuple,
              bound: list[BoundArg], dynamic_lds: int
              ) -> tuple[GuardVerdict, LaunchRefused | None]:
    """Emulate the boundary workgroups; (verdict, the LaunchRefused to raise or None).

    Never raises for the emulator's own limits: anything it cannot do makes the verdict
    inconclusive (the launch then goes ahead); only an interrupt (Ctrl-C) propagates.
    """
    from ..emu.errors import EmulatorError

    t0 = time.perf_counter()
    wgs = boundary_workgroups(grid)

    def verdict(status: str, reason: str, arch: str | None = None, contents: str = ""):
        return GuardVerdict(status, wgs, arch, reason, time.perf_counter() - t0, contents)

    arch, why = emulated_arch(kernel.module, dev, info.name)
    if arch is None:
        return verdict("inconclusive", why), None
    try:
        einfo = kernel.info(arch)
        listing = kernel.isa_for(arch)
        elf = kernel.module[arch].elf
    except Exception as e:  # e.g. no llvm-objdump for the listing on this machine
        return verdict("inconclusive", f"the {arch} build could not be read for emulation: "
                       f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}",
                       arch), None
    n = len(info.args)  # bound goes on past the arguments with structs' pointer fields
    if len(einfo.args) != n or any(
            a.size != b.arg.size or a.is_pointer != b.arg.is_pointer
            for a, b in zip(einfo.args, bound[:n])):
        return verdict("inconclusive", f"the {arch} build's arguments differ from the "
                       "launch's metadata", arch), None
    ebound = [BoundArg(a, b.kind, b.value, b.dtype) for a, b in zip(einfo.args, bound)]
    ebound += [_field_in(einfo, info, b) for b in bound[n:]]
    total = sum(b.nbytes() for b in bound if b.kind == "buffer")
    if total > STANDIN_LIMIT:
        return verdict("inconclusive", f"its buffers total {total / 2**30:.1f} GiB, over the "
                       f"{STANDIN_LIMIT >> 30} GiB the pre-flight emulates with", arch), None
    resident = sum(b.nbytes() for b in bound if b.kind == "buffer" and _on_gpu(b.value))
    copied = resident <= COPY_LIMIT
    contents = "copied" if copied else "stand-ins"
    run = _Runner(einfo, listing, elf, grid, block, ebound, dynamic_lds)
    try:
        fault = run(wgs, "copy" if copied else "zeros")
        if fault is not None and not copied:
            again = run((fault.workgroup,), "pattern")
            if again is None or _where(again) != _where(fault):
                return verdict("inconclusive", f"with zero-filled stand-ins for the buffers "
                               f"(over {COPY_LIMIT >> 20} MiB on the GPU: not copied) "
                               f"{_short(fault)}, but not with 0x5A-filled ones: the address "
                               "depends on buffer contents", arch, contents), None
    except EmulatorError as e:
        return verdict("inconclusive", f"the emulator stopped: {_first_line(e)}", arch,
                       contents), None
    except (ValueError, TypeError, IndexError, NotImplementedError, MemoryError) as e:
        return verdict("inconclusive", f"the emulator could not run it: {type(e).__name__}: "
                       f"{_first_line(e)}", arch, contents), None
    names = [b.name for b in ebound if b.kind == "buffer"]  # arguments and struct fields
    label = ", ".join(str(w) for w in wgs)
    if fault is None:
        data = ("the arguments' data" if copied else
                "zero-filled stand-ins (GPU buffers over the copy limit)")
        return verdict("checked", f"boundary workgroups {label} of the {arch} build stayed "
                       f"inside every buffer, run with {data}", arch, contents), None
    if fault.reason == "trap" and copied:
        msg = _trap_message(info, dev, grid, block, arch, fault)
        v = verdict("refused", msg, arch, contents)
        return v, LaunchRefused(msg, v, fault, thread=_thread(fault, block, einfo))
    if not (fault.space in _MEMORY_SPACES and fault.reason == "out of range"
            and fault.buffer in names):
        return verdict("inconclusive", f"not judged: {_short(fault)}", arch, contents), None
    msg = _refusal_message(info, dev, grid, block, arch, fault, einfo, ebound, copied, wgs)
    v = verdict("refused", msg, arch, contents)
    return v, LaunchRefused(msg, v, fault, argument=fault.buffer,
                            thread=_thread(fault, block, einfo))


class _Runner:
    """Runs chosen workgroups of one launch on the emulator, buffers filled a given way;
    returns the first KernelFault (or None), never touching the user's arrays."""

    def __init__(self, info, listing, elf, grid, block, bound, dynamic_lds):
        self.info, self.listing, self.elf = info, listing, elf
        self.grid, self.block, self.bound, self.lds = grid, block, bound, dynamic_lds

    def __call__(self, workgroups, fill: str) -> KernelFault | None:
        from ..emu.engine.launch import Buffer, execute
        from .marshal import pack_kernargs

        info, bound = self.info, self.bound
        bufs = [Buffer(b.name, self._data(b, fill), True) for b in bound if b.kind == "buffer"]

        def kernarg(addresses: list[int], hidden: dict[str, int]) -> bytes:
            it = iter(addresses)
            ptrs = [next(it) if b.kind == "buffer" else None for b in bound]
            return bytes(pack_kernargs(info, bound, ptrs, self.grid, self.block,
                                       dynamic_lds=self.lds, hidden_pointers=hidden))

        try:
            execute(info, self.listing, self.grid, self.block, bufs, kernarg,
                    dynamic_lds=self.lds, budget=BUDGET, timeout=TIMEOUT, elf=self.elf,
                    lds_oob="hardware", only=workgroups, write_back=False)
        except KernelFault as f:
            return f
        return None

    @staticmethod
    def _data(b: BoundArg, fill: str) -> np.ndarray:
        n = b.nbytes()
        if fill == "copy":
            host = b.host_array()  # shares memory with host arrays; execute only reads it
            return np.ascontiguousarray(host).reshape(-1).view(np.uint8)
        if fill == "zeros":
            return np.zeros(n, np.uint8)
        return np.full(n, 0x5A, np.uint8)  # "pattern": every byte 0x5A


def _field_in(einfo: Any, info: Any, b: BoundArg) -> BoundArg:
    """A struct's pointer field re-based onto the emulated build's kernarg offsets (the
    struct's own layout is the same; where it sits in the kernarg segment may differ)."""
    import dataclasses

    parent = b.name.split(".", 1)[0]
    i = next(k for k, a in enumerate(info.args) if a.name == parent)
    shift = einfo.args[i].offset - info.args[i].offset
    return dataclasses.replace(b, arg=dataclasses.replace(b.arg, offset=b.arg.offset + shift))


def _on_gpu(value: Any) -> bool:
    from .marshal import device_pointer

    try:
        return device_pointer(value) is not None
    except LaunchError:
        return True


def _where(f: KernelFault) -> tuple:
    return (f.buffer, f.offset, f.workgroup, f.wave, f.lanes[:1], f.pc)


def _first_line(e: BaseException) -> str:
    text = str(e)
    return text.splitlines()[0] if text else type(e).__name__


def _short(f: KernelFault) -> str:
    lane = f.lanes[0] if f.lanes else "?"
    where = (f"{f.space} {'write' if f.write else 'read'}" if f.space else "a trap")
    return f"{where} in workgroup {f.workgroup}, lane {lane} (`{f.instruction}`)"


def _thread(f: KernelFault, block: tuple, info: Any) -> tuple[int, int, int] | None:
    """threadIdx (x, y, z) of the fault's first lane."""
    if f.wave is None or not f.lanes:
        return None
    wave = 32 if info.descriptor.wave32 else 64
    t = f.wave * wave + f.lanes[0]
    return (t % block[0], t // block[0] % block[1], t // (block[0] * block[1]))


def _itemsize(arg: Any) -> int | None:
    """Bytes per element of a pointer argument's C pointee type (None: void or a struct)."""
    from .args import element_dtype

    dt = element_dtype(arg.pointee)
    if dt is None:
        return None
    return 2 if dt == "bfloat16" else np.dtype(dt).itemsize


def _launch_text(info: Any, grid: tuple, block: tuple) -> str:
    return f"{info.name}[{grid}, {block}]"


def _refusal_message(info, dev, grid, block, arch, f: KernelFault, einfo, ebound,
                     copied: bool, wgs) -> str:
    arg = next(b.arg for b in ebound if b.kind == "buffer" and b.name == f.buffer)
    i = next(k for k, a in enumerate(einfo.args) if a.name == f.buffer.split(".", 1)[0])
    what = (f"argument {i} '{arg.name}'" if arg.name == einfo.args[i].name else
            f"field '{arg.name}' of argument {i} '{einfo.args[i].name}'")
    off, size = f.offset, f.buffer_size
    if off >= size:
        rel = f"{off - size} bytes past its end" if off > size else "just past its end"
    elif off < 0:
        rel = f"{-off} bytes before its start"
    else:
        rel = "an access that runs past its end"
    thread = _thread(f, block, einfo)
    item = _itemsize(arg)
    if item and off % item == 0:
        at = f"byte offset {off} (element {off // item})"
    else:
        at = f"byte offset {off}"
    lanes = ", ".join(map(str, f.lanes[:8])) + (", ..." if len(f.lanes) > 8 else "")
    line = f", source line {f.source_line}" if f.source_line else ""
    data = ("its buffers holding the arguments' data" if copied else
            "stand-in buffers, zero-filled and 0x5A-filled, faulting the same way with both "
            f"(GPU buffers over {COPY_LIMIT >> 20} MiB in all are not copied)")
    kind = "writes" if f.write else "reads"
    wave = 32 if einfo.descriptor.wave32 else 64
    if dev.arch is None and wave != 32:  # a CUDA launch checked on a wave64 build
        data += (f"; note: that build runs {wave}-lane waves, the NVIDIA GPU 32-lane warps "
                 "(an address computed from warpSize may differ there)")
    return (
        f"{_launch_text(info, grid, block)} on {dev.name} refused before it ran: thread "
        f"{thread} of workgroup {f.workgroup} (wave {f.wave}, lane {f.lanes[0]}) {kind} "
        f"{what} ({arg.ctype}) at {at} — {rel}; the buffer is "
        f"{size} bytes (`{f.instruction}`{line}; lanes {lanes} of that wave). Found by "
        f"emulating workgroups {', '.join(map(str, wgs))} of the {arch} build with {data}. "
        f"{GPU_OOB}. Fix the bounds check or the grid; to launch anyway: "
        f"{_launch_text(info, grid, block)}(..., guard=False), or wb.set_guard(False) for "
        "the session.")


def _trap_message(info, dev, grid, block, arch, f: KernelFault) -> str:
    return (f"{_launch_text(info, grid, block)} on {dev.name} refused before it ran: the "
            f"emulated {arch} build traps in workgroup {f.workgroup}: {f}. {GPU_TRAP}. To "
            f"launch anyway: {_launch_text(info, grid, block)}(..., guard=False), or "
            "wb.set_guard(False) for the session.")
