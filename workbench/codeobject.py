"""Read an AMDGPU code object (ELF): kernels, arguments, resources and kernel descriptors.

Everything here comes from the ELF itself — the NT_AMDGPU_METADATA note (MessagePack) and the
64-byte ``<kernel>.kd`` descriptors — so what the occupancy table counts and what the emulator
executes is the same object. Field meanings: LLVM AMDGPUUsage "Code Object V5 Metadata" and
"Kernel Descriptor" (llvm/docs/AMDGPUUsage.rst, https://llvm.org/docs/AMDGPUUsage.html).
"""

from __future__ import annotations

import io
import struct
from dataclasses import dataclass, field
from typing import Any

import msgpack
from elftools.elf.elffile import ELFFile

from .errors import HipwbError

# ELF note type of the code-object v3+ metadata (AMDGPUUsage "Code Object Metadata").
NT_AMDGPU_METADATA = 32


class CodeObjectError(HipwbError, ValueError):
    """The bytes are not an AMDGPU code object hipwb can read."""


@dataclass(frozen=True)
class Resources:
    """Per-kernel hardware resources as the code-object metadata reports them."""

    vgprs: int  # architected VGPRs (.vgpr_count)
    agprs: int  # accumulation VGPRs (.agpr_count; 0 where the arch has none)
    sgprs: int  # .sgpr_count, includes VCC/FLAT_SCRATCH/XNACK as LLVM counts them
    lds_bytes: int  # static LDS (.group_segment_fixed_size)
    scratch_bytes: int  # private memory per work-item (.private_segment_fixed_size)
    vgpr_spills: int
    sgpr_spills: int
    wave_size: int
    max_flat_workgroup_size: int
    dynamic_stack: bool = False

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class KernelArg:
    """One explicit kernel argument: name and C type from clang's AST, layout from metadata."""

    name: str
    ctype: str  # e.g. "const float *", "int", "__hip_bfloat16 *"
    offset: int
    size: int
    kind: str  # metadata .value_kind: global_buffer, by_value, dynamic_shared_pointer, ...
    pointee: str | None = None  # C type pointed to (unqualified), for pointer args
    is_const: bool = False
    canonical: str | None = None  # ctype with typedefs resolved (clang's desugared type)

    @property
    def ctype_canonical(self) -> str:
        """The C type launches type the argument by: typedefs (std::size_t, uint, uint2)
        resolved to what they name (``unsigned long``, ``__hipwb_vec<unsigned int, 2>``)."""
        return self.canonical or self.ctype

    @property
    def is_pointer(self) -> bool:
        return self.kind in ("global_buffer", "dynamic_shared_pointer") or self.pointee is not None


@dataclass(frozen=True)
class HiddenArg:
    """An implicit (hidden_*) kernel argument the runtime must fill (COV5, AMDGPUUsage)."""

    kind: str
    offset: int
    size: int


@dataclass(frozen=True)
class KernelDescriptor:
    """The 64-byte kernel descriptor (LLVM AMDGPUUsage, "Kernel Descriptor")."""

    group_segment_fixed_size: int
    private_segment_fixed_size: int
    kernarg_size: int
    entry_offset: int  # KERNEL_CODE_ENTRY_BYTE_OFFSET, from the descriptor's address
    rsrc3: int
    rsrc1: int
    rsrc2: int
    kernel_code_properties: int
    kernarg_preload: int

    @classmethod
    def from_bytes(cls, raw: bytes) -> KernelDescriptor:
        if len(raw) != 64:
            raise CodeObjectError(f"kernel descriptor must be 64 bytes, got {len(raw)}")
        gs, ps, ks = struct.unpack_from("<III", raw, 0)
        (entry,) = struct.unpack_from("<q", raw, 16)
        rsrc3, rsrc1, rsrc2 = struct.unpack_from("<III", raw, 44)
        props, preload = struct.unpack_from("<HH", raw, 56)
        return cls(gs, ps, ks, entry, rsrc3, rsrc1, rsrc2, props, preload)

    @staticmethod
    def _bits(word: int, lo: int, hi: int) -> int:
        return (word >> lo) & ((1 << (hi - lo + 1)) - 1)

    # COMPUTE_PGM_RSRC1 fields (bits per LLVM AMDGPUUsage, "compute_pgm_rsrc1 for GFX6-GFX12")
    @property
    def granulated_vgpr_count(self) -> int:
        return self._bits(self.rsrc1, 0, 5)

    @property
    def float_round_mode_32(self) -> int:
        return self._bits(self.rsrc1, 12, 13)

    @property
    def float_round_mode_16_64(self) -> int:
        return self._bits(self.rsrc1, 14, 15)

    @property
    def float_denorm_mode_32(self) -> int:
        """0 flush src+dst, 1 flush dst, 2 flush src, 3 keep denormals."""
        return self._bits(self.rsrc1, 16, 17)

    @property
    def float_denorm_mode_16_64(self) -> int:
        return self._bits(self.rsrc1, 18, 19)

    @property
    def dx10_clamp(self) -> bool:
        return bool(self._bits(self.rsrc1, 21, 21))

    @property
    def ieee_mode(self) -> bool:
        return bool(self._bits(self.rsrc1, 23, 23))

    # COMPUTE_PGM_RSRC2
    @property
    def enable_private_segment(self) -> bool:
        return bool(self._bits(self.rsrc2, 0, 0))

    @property
    def user_sgpr_count(self) -> int:
        return self._bits(self.rsrc2, 1, 5)

    @property
    def enable_sgpr_workgroup_id(self) -> tuple[bool, bool, bool]:
        return tuple(bool(self._bits(self.rsrc2, b, b)) for b in (7, 8, 9))  # type: ignore

    @property
    def enable_sgpr_workgroup_info(self) -> bool:
        return bool(self._bits(self.rsrc2, 10, 10))

    @property
    def enable_vgpr_workitem_id(self) -> int:
        """0: x only, 1: x and y, 2: x, y and z."""
        return self._bits(self.rsrc2, 11, 12)

    # COMPUTE_PGM_RSRC3 (gfx90a/gfx940+)
    @property
    def accum_offset(self) -> int:
        """First AGPR index in the unified VGPR file (gfx90a+): 4 * (ACCUM_OFFSET + 1)."""
        return 4 * (self._bits(self.rsrc3, 0, 5) + 1)

    @property
    def tg_split(self) -> bool:
        return bool(self._bits(self.rsrc3, 16, 16))

    # kernel_code_properties (descriptor bits 448..463)
    def _prop(self, bit: int) -> bool:
        return bool((self.kernel_code_properties >> bit) & 1)

    @property
    def enable_sgpr_private_segment_buffer(self) -> bool:
        return self._prop(0)

    @property
    def enable_sgpr_dispatch_ptr(self) -> bool:
        return self._prop(1)

    @property
    def enable_sgpr_queue_ptr(self) -> bool:
        return self._prop(2)

    @property
    def enable_sgpr_kernarg_segment_ptr(self) -> bool:
        return self._prop(3)

    @property
    def enable_sgpr_dispatch_id(self) -> bool:
        return self._prop(4)

    @property
    def enable_sgpr_flat_scratch_init(self) -> bool:
        return self._prop(5)

    @property
    def enable_sgpr_private_segment_size(self) -> bool:
        return self._prop(6)

    @property
    def wave32(self) -> bool:
        return self._prop(10)

    @property
    def uses_dynamic_stack(self) -> bool:
        return self._prop(11)

    @property
    def kernarg_preload_length(self) -> int:
        """Dwords of kernarg preloaded into user SGPRs (bits 470:464)."""
        return self.kernarg_preload & 0x7F

    @property
    def kernarg_preload_offset(self) -> int:
        """Dword offset into the kernarg segment of the preloaded part (bits 479:471)."""
        return self.kernarg_preload >> 7


@dataclass(frozen=True)
class KernelInfo:
    """One kernel of a code object: what a launch needs and what the hardware will see."""

    name: str  # Python-friendly name: the demangled base name
    symbol: str  # ELF symbol (mangled for C++ kernels)
    arch: str
    args: tuple[KernelArg, ...]
    hidden_args: tuple[HiddenArg, ...]
    kernarg_size: int
    kernarg_align: int
    resources: Resources
    descriptor: KernelDescriptor
    entry: int  # vaddr of the first instruction
    code_size: int
    llvm_occupancy: int | None = None  # waves/SIMD from -Rpass-analysis=kernel-resource-usage
    reqd_workgroup_size: tuple[int, int, int] | None = None
    metadata: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    # extern __shared__ arrays (dynamic LDS, e.g. HIP_DYNAMIC_SHARED) the kernel's own body
    # uses, from clang's AST; a launch without dynamic LDS bytes is refused (it would fault).
    dynamic_shared: tuple[str, ...] = ()
    demangled: str = ""  # the C++ name llvm-cxxfilt gives a mangled symbol ("" for C names)

    def hidden(self, kind: str) -> HiddenArg | None:
        """The hidden argument of this kind (e.g. "hidden_block_count_x"), if the kernel uses it."""
        return next((h for h in self.hidden_args if h.kind == kind), None)

    @property
    def signature(self) -> str:
        # an argument nobody typed (a loaded extern "C" kernel) shows its size
        params = ", ".join(f"{a.ctype or f'<{a.size} bytes>'} {a.name}".replace("* ", "*")
                           for a in self.args)
        return f"{self.name}({params})"


@dataclass(frozen=True)
class RawKernel:
    """What the ELF alone says of one kernel, before the AST adds names and C types."""

    symbol: str
    meta: dict[str, Any]
    descriptor: KernelDescriptor
    entry: int
    code_size: int


@dataclass(frozen=True)
class DeviceVariable:
    """A ``__device__`` / ``__constant__`` variable of a code object (what hipMemcpyToSymbol
    names): ELF symbol, address in the code object, size, and its C type from clang's AST."""

    name: str  # source name (demangled: ``ns::scale``)
    symbol: str  # ELF symbol (mangled for namespaced C++ names)
    vaddr: int  # st_value: offset from the code object's load base
    size: int
    section: str  # ".data", ".bss", ".rodata" (a __constant__ the kernels only read)
    ctype: str | None = None  # e.g. "float[4]", "int", "double"; None when the AST had none


def read_variables(elf_bytes: bytes) -> list[tuple[str, int, int, str]]:
    """(symbol, vaddr, size, section) of every global data object of a code object: the
    OBJECT symbols of .data/.bss/.rodata other than kernel descriptors (``*.kd``) and HIP's
    compilation-unit marker (``__hip_cuid_*``)."""
    elf = _open(elf_bytes)
    symtab = elf.get_section_by_name(".symtab")
    if symtab is None:
        return []
    out = []
    for sym in symtab.iter_symbols():
        if sym["st_info"]["type"] != "STT_OBJECT" or sym["st_info"]["bind"] == "STB_LOCAL":
            continue
        if sym.name.endswith(".kd") or sym.name.startswith("__hip_cuid_"):
            continue
        shndx = sym["st_shndx"]
        if not isinstance(shndx, int):
            continue
        out.append((sym.name, int(sym["st_value"]), int(sym["st_size"]),
                    elf.get_section(shndx).name))
    return out


def read_metadata(elf_bytes: bytes) -> dict[str, Any]:
    """The decoded NT_AMDGPU_METADATA MessagePack map of a code object."""
    elf = _open(elf_bytes)
    for section in elf.iter_sections():
        if section.header.sh_type != "SHT_NOTE":
            continue
        for note in section.iter_notes():
            if note["n_name"] == "AMDGPU" and note["n_type"] == NT_AMDGPU_METADATA:
                desc = note["n_descdata"]
                raw = desc if isinstance(desc, bytes) else bytes(desc, "latin-1")
                return msgpack.unpackb(raw, raw=False, strict_map_key=False)
    raise CodeObjectError("code object has no AMDGPU metadata note (is it code object v3+?)")


def _open(elf_bytes: bytes) -> ELFFile:
    try:
        elf = ELFFile(io.BytesIO(elf_bytes))
    except Exception as e:  # pyelftools raises its own hierarchy
        raise CodeObjectError(f"not an ELF file: {e}") from None
    # EM_AMDGPU = 224 (LLVM BinaryFormat/ELF.h)
    if elf.header.e_machine not in ("EM_AMDGPU", 224):
        raise CodeObjectError(f"not an AMDGPU ELF (e_machine={elf.header.e_machine})")
    return elf


def read_kernels(elf_bytes: bytes) -> tuple[dict[str, Any], list[RawKernel]]:
    """Metadata plus, per kernel, its descriptor and code range."""
    meta = read_metadata(elf_bytes)
    elf = _open(elf_bytes)
    symtab = elf.get_section_by_name(".symtab")
    if symtab is None:
        raise CodeObjectError("code object has no symbol table")
    syms = {s.name: s for s in symtab.iter_symbols()}
    out = []
    for km in meta.get("amdhsa.kernels", []):
        sym = km[".symbol"]
        kd = syms.get(sym)
        if kd is None:
            raise CodeObjectError(f"kernel descriptor symbol {sym!r} not found")
        kd_addr = kd["st_value"]
        desc = KernelDescriptor.from_bytes(_read_vaddr(elf, kd_addr, 64))
        code_sym = syms.get(km[".name"]) or syms.get(sym[: -len(".kd")])
        entry = kd_addr + desc.entry_offset
        size = code_sym["st_size"] if code_sym is not None else 0
        out.append(RawKernel(sym[: -len(".kd")], km, desc, entry, size))
    return meta, out


def _read_vaddr(elf: ELFFile, addr: int, size: int) -> bytes:
    for seg in elf.iter_segments():
        if seg["p_type"] != "PT_LOAD":
            continue
        lo = seg["p_vaddr"]
        if lo <= addr and addr + size <= lo + seg["p_filesz"]:
            data = seg.data()
            return data[addr - lo : addr - lo + size]
    raise CodeObjectError(f"address {addr:#x} is not in a loaded segment")


def resources_of(meta: dict[str, Any], remark: dict[str, str] | None = None) -> Resources:
    """Resources of one kernel from its metadata map (and LLVM's resource remark, if any).

    On gfx90a+ ``.vgpr_count`` is the unified count alignTo(ArchVGPRs, 4) + AGPRs (checked
    against clang's remark with llvm-readelf), so the architected count is taken from the
    remark's "VGPRs", else recovered as .vgpr_count - .agpr_count (exact up to the 4-alignment,
    which is all occupancy needs).
    """
    agprs = int(meta.get(".agpr_count", 0))
    vgprs = int(meta.get(".vgpr_count", 0))
    if remark and str(remark.get("VGPRs", "")).isdigit():
        vgprs = int(remark["VGPRs"])
    elif agprs:
        vgprs -= agprs
    return Resources(
        vgprs=vgprs,
        agprs=agprs,
        sgprs=int(meta.get(".sgpr_count", 0)),
        lds_bytes=int(meta.get(".group_segment_fixed_size", 0)),
        scratch_bytes=int(meta.get(".private_segment_fixed_size", 0)),
        vgpr_spills=int(meta.get(".vgpr_spill_count", 0)),
        sgpr_spills=int(meta.get(".sgpr_spill_count", 0)),
        wave_size=int(meta.get(".wavefront_size", 64)),
        max_flat_workgroup_size=int(meta.get(".max_flat_workgroup_size", 1024)),
        dynamic_stack=bool(meta.get(".uses_dynamic_stack", False)),
    )


def text_section(elf_bytes: bytes) -> tuple[int, bytes]:
    """(vaddr, bytes) of the .text section: the machine code the emulator fetches from."""
    elf = _open(elf_bytes)
    sec = elf.get_section_by_name(".text")
    if sec is None:
        raise CodeObjectError("code object has no .text section")
    return sec["sh_addr"], sec.data()
