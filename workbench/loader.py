"""load(code_object) -> Module: an AMDGPU code object from anywhere, as the Module compile() gives.

A ``.hsaco`` that hipcc, a library or hipwb itself built becomes a Module whose kernels launch
on the emulator (or a GPU), trace, check and time, and whose ISA, resources and occupancy show,
exactly as for a compiled one: they all read the same ELF. The arch comes from the ELF header
(``amdgpu_elf``); kernels, resources and descriptors from the metadata note, as after a compile
(``compile_result.kernel_infos``). What only a compile knows is absent: the source (the ISA
shows the line numbers of the code object's line tables, without their text), LLVM's remarks
(``KernelInfo.llvm_occupancy`` is None, and on gfx90a+ a kernel using AGPRs counts its VGPRs
as the metadata's unified count less its AGPRs, up to 3 above the compiler's own), argument
names (``arg0``...) and, for ``extern "C"`` kernels, argument C types (pointers take any array;
by-value arguments are typed by the value passed, ``np.float32(2.0)`` for an exact type).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from . import amdgpu_elf
from . import cache_files as _files
from .argument_types import checked
from .codeobject import CodeObjectError, DeviceVariable, read_kernels, read_variables
from .compile_result import CodeObject, Module, kernel_infos
from .errors import ArgumentValueError
from .kernel_names import demangle

__all__ = ["CodeObjectError", "load"]

_Item = bytes | bytearray | str | os.PathLike


@checked
def load(code_object: _Item | Sequence[_Item], *, name: str | None = None) -> Module:
    """A Module of the AMDGPU code objects given: ELF bytes, a path to a ``.hsaco``/``.co``
    file, a clang offload bundle (``__CLANG_OFFLOAD_BUNDLE__``, one code object per target), a
    host program or library with a ``.hip_fatbin`` section, or a list of those (one code object
    per arch). The arch comes from each ELF header. ``name`` names the module in reports
    (default: the file's name). Bytes that are not such a code object raise
    ``CodeObjectError`` naming the file and what is wrong with it."""
    items = ([code_object] if isinstance(code_object, (bytes, bytearray, str, os.PathLike))
             else list(code_object))
    if not items:
        raise ArgumentValueError("wb.load(code_object): the list is empty; give at least one "
                                 "code object (bytes or a path to a .hsaco file)")
    objects: dict[str, CodeObject] = {}
    seen: dict[str, str] = {}
    for i, item in enumerate(items):
        what, data = _read(item, i if len(items) > 1 else None)
        for entry, elf in _code_objects(data, what):
            co = _code_object(elf, entry)
            if co.arch in objects:
                fat = (" (a program's .hip_fatbin holds one bundle per source file: load the "
                       "code object of the one you want, e.g. its .hsaco from hipcc "
                       "--genco)" if ".hip_fatbin" in entry else "")
                raise CodeObjectError(f"{entry} and {seen[co.arch]} are both for {co.arch}; a "
                                      f"module holds one code object per arch: load them as "
                                      f"two modules{fat}")
            objects[co.arch], seen[co.arch] = co, entry
    if name is None:
        paths = [Path(x).name for x in items if isinstance(x, (str, os.PathLike))]
        name = paths[0] if len(paths) == 1 and len(items) == 1 else "code object"
    return Module(source="", archs=tuple(objects), objects=objects, filename=name)


def _read(item: _Item, index: int | None) -> tuple[str, bytes]:
    """(how messages name it, its bytes) of one item of ``load``'s argument."""
    if isinstance(item, (bytes, bytearray)):
        what = ("the code object given as bytes" if index is None
                else f"code object {index} (bytes)")
        data = bytes(item)
    else:
        path = Path(os.fspath(item)).expanduser()
        what = str(path) if index is None else f"code object {index} ({path})"
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise CodeObjectError(f"no such file: {path}") from None
        except IsADirectoryError:
            raise CodeObjectError(f"{path} is a folder, not a code object file") from None
        except OSError as e:
            raise CodeObjectError(f"cannot read {path}: {e.strerror or e}") from None
    if not data:
        raise CodeObjectError(f"{what} is empty (0 bytes)")
    return what, data


def _code_objects(data: bytes, what: str) -> list[tuple[str, bytes]]:
    """(how messages name it, ELF bytes) of each code object in one file: itself, the AMDGPU
    entries of a clang offload bundle, or those of a host ELF's ``.hip_fatbin``."""
    if amdgpu_elf.is_bundle(data):
        return [(f"bundle entry {eid!r} of {what}", elf)
                for eid, elf in amdgpu_elf.split_bundle(data, what)]
    amdgpu_elf.refuse_packed(data, what)
    try:
        amdgpu_elf.elf_target(data, what)
    except CodeObjectError:
        fat = amdgpu_elf.hip_fatbin(data, what) if data[:4] == b"\x7fELF" else None
        if fat is None:
            raise
        return [(f"bundle entry {eid}", elf) for eid, elf in fat]
    return [(what, data)]


def _code_object(elf: bytes, what: str) -> CodeObject:
    """One code object, checked whole and read as a compile reads its own."""
    target = amdgpu_elf.elf_target(elf, what)
    amdgpu_elf.check_whole(elf, what)
    arch = amdgpu_elf.hipwb_arch(target, what)
    try:
        raws = read_kernels(elf)[1]
        found = read_variables(elf)
    except CodeObjectError as e:
        raise CodeObjectError(f"{what}: {e}") from None
    except Exception as e:  # pyelftools, msgpack and struct raise their own hierarchies
        raise CodeObjectError(f"{what} cannot be read as a code object "
                              f"({type(e).__name__}: {e})") from None
    names = demangle(s for s, *_ in found)
    variables = {names.get(s, s): DeviceVariable(names.get(s, s), s, vaddr, size, sec)
                 for s, vaddr, size, sec in found}
    return CodeObject(arch=arch, path=_files.private_copy(elf), kernels=kernel_infos(raws, arch),
                      command=(), compile_seconds=0.0, variables=variables, _elf=elf)
