"""Kernel arguments as a launch passes them: typed values in order, or packed kernarg bytes.

Layout comes from the code-object metadata (``KernelArg.offset/size``, ``HiddenArg``), types
from ``BoundArg`` (exact C types). Three consumers share it:
- cupy launches (ROCm and CUDA): ``launch_values`` gives one exactly sized value per explicit
  argument; cupy hands their addresses to ``hip/cuModuleLaunchKernel``, and the HIP runtime
  copies kernelParams[i] to the metadata's ``.offset`` with ``.size`` bytes, so each value must
  be exactly ``.size`` bytes [inferred from ROCclr's per-argument KernelParameters::set; not
  verified on an AMD GPU here].
- the emulator and a raw-buffer launch: ``pack_kernargs`` builds the whole kernarg segment,
  explicit arguments at their offsets plus the COV5 hidden arguments (LLVM AMDGPUUsage,
  code object V5 metadata: the ``hidden_*`` argument kinds; their offsets as LLVM's
  AMDGPUHSAMetadataStreamer.cpp emits them and SIDefines.h ``ImplicitArg`` names them).
- ``check_layout`` verifies that the metadata offsets are the C-ABI layout of the argument
  types clang's AST reported, so a type/metadata disagreement is caught before a launch.

No cupy/torch import at module level: the emulator uses this on machines without a GPU.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..codeobject import KernelArg, KernelInfo
from .args import BoundArg, element_dtype
from .errors import LaunchError

# COV5 hidden-argument values a HIP launch implies (AMDGPUUsage, code object V5 hidden
# arguments: remainders are the size of a partial last group): the grid is given in
# workgroups, so every group is full and the remainders are 0; global offsets are 0.
_HIDDEN_ZERO = ("hidden_remainder_x", "hidden_remainder_y", "hidden_remainder_z",
                "hidden_global_offset_x", "hidden_global_offset_y", "hidden_global_offset_z")


@dataclass(frozen=True)
class DevicePointer:
    """A device address and the GPU it lives on (None: unknown, e.g. a bare integer)."""

    address: int
    device: int | None
    source: str  # "cupy", "torch", "__cuda_array_interface__"


def natural_alignment(arg: KernelArg) -> int | None:
    """Alignment the C ABI gives this argument in the kernarg segment (None: unknown)."""
    if arg.is_pointer:
        return 8  # 64-bit global/flat pointers (AMDGPUUsage "Address Spaces": 64-bit)
    dt = element_dtype(arg.ctype_canonical)
    if dt is None:
        return None  # struct passed by value: its alignment is not in the metadata
    elem = np.dtype(dt if dt != "bfloat16" else "uint16").itemsize
    if arg.size == elem:
        return elem
    # HIP vector types: power-of-two sizes are aligned to their size (float2: 8, float4: 16),
    # 3-element ones to their element (see workbench/include/hipwb/vector_types.h asserts).
    if arg.size & (arg.size - 1) == 0:
        return min(arg.size, 16)
    return elem


def check_layout(info: KernelInfo) -> None:
    """Raise LaunchError unless the explicit args sit where their C types put them."""
    end = 0
    for i, a in enumerate(info.args):
        where = f"argument {i} {a.name!r} of {info.name} ({a.ctype})"
        align = natural_alignment(a)
        if a.offset < end:
            raise LaunchError(f"{where}: metadata offset {a.offset} overlaps the previous "
                              f"argument (which ends at {end})")
        if align is not None:
            want = -(-end // align) * align
            if a.offset != want:
                raise LaunchError(f"{where}: metadata puts it at offset {a.offset}, but its "
                                  f"C type ({a.size} bytes, aligned to {align}) belongs at "
                                  f"{want}; the code object and the source disagree")
        if a.is_pointer and a.size != 8:
            raise LaunchError(f"{where}: pointer of {a.size} bytes in the metadata, expected 8")
        end = a.offset + a.size
    if info.kernarg_size and end > info.kernarg_size:
        raise LaunchError(f"{info.name}: explicit arguments end at byte {end} but the kernarg "
                          f"segment is {info.kernarg_size} bytes")


def device_pointer(value: Any) -> DevicePointer | None:
    """The device address of a GPU array (cupy, torch on a GPU, __cuda_array_interface__);
    None for host memory (numpy, torch on the CPU)."""
    mod = type(value).__module__.split(".")[0]
    if mod == "cupy":
        return DevicePointer(int(value.data.ptr), int(value.device.id), "cupy")
    if mod == "torch":
        dev = value.device
        if dev.type == "cpu":
            return None
        if dev.type != "cuda":  # ROCm builds of torch also say "cuda"
            raise LaunchError(f"a torch tensor on {dev} cannot be passed to a GPU kernel here")
        return DevicePointer(int(value.data_ptr()), dev.index, "torch")
    if isinstance(value, np.ndarray):
        return None
    cai = getattr(value, "__cuda_array_interface__", None)
    if cai is not None:
        return DevicePointer(int(cai["data"][0]), None, "__cuda_array_interface__")
    return None


def scalar_value(b: BoundArg) -> Any:
    """The exactly sized value cupy passes for a by-value argument.

    Numeric C types become numpy scalars of that type; structs and other aggregates become a
    one-element numpy array of ``V<size>`` (cupy passes a size-1 numpy array by value).
    """
    if b.kind == "raw":
        return np.frombuffer(b.scalar_bytes(), dtype=f"V{b.arg.size}").copy()
    val = b.value
    if val.nbytes != b.arg.size:  # e.g. a float4 by value bound from one number
        raise LaunchError(f"argument {b.name!r} ({b.arg.ctype}) is {b.arg.size} bytes but the "
                          f"value packs to {val.nbytes}; pass its raw bytes "
                          f"(bytes of length {b.arg.size})")
    return val


def launch_values(info: KernelInfo, bound: Sequence[BoundArg],
                  pointers: Sequence[int | None]) -> tuple:
    """One value per explicit argument, in order: np.uint64 addresses for pointers, exactly
    typed scalars for the rest (what a cupy ``Function`` call takes).

    ``bound`` may go on past the explicit arguments with a by-value struct's pointer fields
    (``BoundArg.fields``, listed after the arguments by ``bind_args``): each field's address
    is written into its struct's bytes at the field's offset."""
    n = len(info.args)
    if len(bound) < n or len(pointers) != len(bound):
        raise LaunchError(f"{info.name}: {n} arguments expected, got "
                          f"{len(bound)} bound and {len(pointers)} pointers")
    out = []
    for b, p in zip(bound[:n], pointers[:n]):
        if b.kind == "buffer":
            if p is None:
                raise LaunchError(f"argument {b.name!r} ({b.arg.ctype}) has no device address")
            out.append(np.uint64(p))
        else:
            out.append(scalar_value(b))
    for b, p in zip(bound[n:], pointers[n:]):
        i = _containing_arg(info, b)
        if p is None or b.kind != "buffer":
            raise LaunchError(f"struct field {b.name!r} ({b.arg.ctype}) has no device address")
        raw = out[i].view(np.uint8)  # the struct's V<size> value: patch the pointer in place
        at = b.arg.offset - info.args[i].offset
        raw[at:at + 8] = np.frombuffer(np.uint64(p).tobytes(), np.uint8)
    return tuple(out)


def _containing_arg(info: KernelInfo, field: BoundArg) -> int:
    """The index of the by-value argument whose bytes hold a struct field."""
    off = field.arg.offset
    for i, a in enumerate(info.args):
        if not a.is_pointer and a.offset <= off and off + field.arg.size <= a.offset + a.size:
            return i
    raise LaunchError(f"{info.name}: struct field {field.name!r} at kernarg offset {off} lies "
                      f"in no by-value argument")


def hidden_values(grid: Sequence[int], block: Sequence[int],
                  dynamic_lds: int = 0) -> dict[str, int]:
    """COV5 hidden-argument values of a HIP launch (grid in workgroups; AMDGPUUsage, COV5
    hidden arguments)."""
    dims = 3 if grid[2] > 1 or block[2] > 1 else 2 if grid[1] > 1 or block[1] > 1 else 1
    vals = {f"hidden_block_count_{c}": int(grid[i]) for i, c in enumerate("xyz")}
    vals.update({f"hidden_group_size_{c}": int(block[i]) for i, c in enumerate("xyz")})
    vals.update(dict.fromkeys(_HIDDEN_ZERO, 0))
    vals["hidden_grid_dims"] = dims
    vals["hidden_dynamic_lds_size"] = int(dynamic_lds)
    return vals


def pack_explicit(info: KernelInfo, bound: Sequence[BoundArg],
                  pointers: Sequence[int | None]) -> bytearray:
    """The explicit-argument part of the kernarg segment, each value at its metadata offset."""
    end = max((a.offset + a.size for a in info.args), default=0)
    buf = bytearray(end)
    for b, v in zip(bound, launch_values(info, bound, pointers)):
        raw = np.asarray(v).tobytes()
        buf[b.arg.offset:b.arg.offset + b.arg.size] = raw
    return buf


def pack_kernargs(info: KernelInfo, bound: Sequence[BoundArg], pointers: Sequence[int | None],
                  grid: Sequence[int], block: Sequence[int], *, dynamic_lds: int = 0,
                  hidden_pointers: Mapping[str, int] | None = None) -> bytearray:
    """The whole kernarg segment (``info.kernarg_size`` bytes): explicit args at their offsets,
    hidden args filled from the launch; hidden pointers (printf buffer, heap, queue...) come from
    ``hidden_pointers`` and are null otherwise."""
    explicit = pack_explicit(info, bound, pointers)
    size = max(info.kernarg_size, len(explicit),
               max((h.offset + h.size for h in info.hidden_args), default=0))
    buf = bytearray(size)
    buf[:len(explicit)] = explicit
    vals = hidden_values(grid, block, dynamic_lds)
    vals.update(hidden_pointers or {})
    for h in info.hidden_args:
        v = int(vals.get(h.kind, 0))
        if v >= 1 << (8 * h.size):
            raise LaunchError(f"{info.name}: {h.kind} = {v} does not fit in {h.size} bytes")
        buf[h.offset:h.offset + h.size] = v.to_bytes(h.size, "little")
    return buf
