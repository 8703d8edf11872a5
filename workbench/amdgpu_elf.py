"""An AMDGPU code object as bytes: what its ELF header says, and the code objects in a bundle.

The header names the processor (``e_flags`` & EF_AMDGPU_MACH), the code-object version
(``EI_ABIVERSION``) and the xnack/sramecc settings, so a code object from anywhere (hipcc, a
``.hsaco`` a library ships, hipwb's own compile) tells which hipwb arch it is for without a
word from the user. A clang offload bundle (``__CLANG_OFFLOAD_BUNDLE__``: one code object per
target, the "fat binary" hipcc embeds in a host program's ``.hip_fatbin`` section) is split
into its AMDGPU entries.

Sources: LLVM AMDGPUUsage "ELF Header" (EI_OSABI, EI_ABIVERSION, e_flags;
https://llvm.org/docs/AMDGPUUsage.html), llvm/include/llvm/BinaryFormat/ELF.h (LLVM 22: the
EF_AMDGPU_* and ELFABIVERSION_AMDGPU_HSA_* values), the ELF-64 object file format (header and
section-header layout) and clang's ClangOffloadBundler documentation, "Bundled Code Object
Layout" (https://clang.llvm.org/docs/ClangOffloadBundler.html).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from .arch import ARCHS
from .codeobject import CodeObjectError

EM_AMDGPU = 224
ELFOSABI_AMDGPU_HSA = 64
# EI_ABIVERSION of an HSA code object -> its code-object version (ELF.h ELFABIVERSION_AMDGPU_HSA_*)
CODE_OBJECT_VERSIONS = {0: 2, 1: 3, 2: 4, 3: 5, 4: 6}
SUPPORTED_VERSIONS = (4, 5, 6)  # the metadata note and hidden arguments hipwb reads
EF_AMDGPU_MACH = 0x0FF
EF_AMDGPU_FEATURE_XNACK_V4 = 0x300  # UNSUPPORTED 0x000, ANY 0x100, OFF 0x200, ON 0x300
EF_AMDGPU_FEATURE_SRAMECC_V4 = 0xC00  # UNSUPPORTED 0x000, ANY 0x400, OFF 0x800, ON 0xC00
EF_AMDGPU_GENERIC_VERSION = 0xFF000000  # v6 generic targets (gfx9-4-generic ...)
_SETTING = {0: "unsupported", 1: "any", 2: "off", 3: "on"}
ET_REL, ET_EXEC, ET_DYN = 1, 2, 3
SHT_NOBITS = 8

# Every AMDGCN EF_AMDGPU_MACH value of ELF.h (LLVM 22), to name a processor hipwb does not model.
MACH_NAMES = {
    0x20: "gfx600", 0x21: "gfx601", 0x22: "gfx700", 0x23: "gfx701", 0x24: "gfx702",
    0x25: "gfx703", 0x26: "gfx704", 0x28: "gfx801", 0x29: "gfx802", 0x2a: "gfx803",
    0x2b: "gfx810", 0x2c: "gfx900", 0x2d: "gfx902", 0x2e: "gfx904", 0x2f: "gfx906",
    0x30: "gfx908", 0x31: "gfx909", 0x32: "gfx90c", 0x33: "gfx1010", 0x34: "gfx1011",
    0x35: "gfx1012", 0x36: "gfx1030", 0x37: "gfx1031", 0x38: "gfx1032", 0x39: "gfx1033",
    0x3a: "gfx602", 0x3b: "gfx705", 0x3c: "gfx805", 0x3d: "gfx1035", 0x3e: "gfx1034",
    0x3f: "gfx90a", 0x41: "gfx1100", 0x42: "gfx1013", 0x43: "gfx1150", 0x44: "gfx1103",
    0x45: "gfx1036", 0x46: "gfx1101", 0x47: "gfx1102", 0x48: "gfx1200", 0x49: "gfx1250",
    0x4a: "gfx1151", 0x4c: "gfx942", 0x4e: "gfx1201", 0x4f: "gfx950", 0x51: "gfx9-generic",
    0x52: "gfx10-1-generic", 0x53: "gfx10-3-generic", 0x54: "gfx11-generic",
    0x55: "gfx1152", 0x58: "gfx1153", 0x59: "gfx12-generic", 0x5a: "gfx1251",
    0x5f: "gfx9-4-generic",
}
# e_machine of ELF files people mistake for code objects (the ELF-64 gABI machine table)
_MACHINES = {3: "x86 (i386)", 62: "x86-64", 183: "AArch64", 190: "NVIDIA CUDA", 243: "RISC-V",
             21: "PowerPC64", 40: "ARM"}

BUNDLE_MAGIC = b"__CLANG_OFFLOAD_BUNDLE__"
COMPRESSED_BUNDLE_MAGIC = b"CCOB"  # clang-offload-bundler -compress (zlib or zstd)
PACKAGER_MAGIC = b"\x10\xff\x10\xad"  # clang-offload-packager images (--offload-new-driver)


class UnsupportedCodeObject(CodeObjectError):
    """An AMDGPU code object hipwb reads but cannot model: another processor, an old or
    generic code-object version, an unlinked object, a compressed bundle."""


@dataclass(frozen=True)
class ElfTarget:
    """What an AMDGPU code object's ELF header says it was built for."""

    mach: int  # EF_AMDGPU_MACH
    xnack: str  # "unsupported" | "any" | "off" | "on"
    sramecc: str
    code_object_version: int = 0  # 4, 5, 6 (0: not an HSA code object)
    e_type: int = ET_DYN
    generic_version: int = 0  # v6 generic targets, else 0

    @property
    def processor(self) -> str:
        """LLVM's name of the processor (``gfx942``), or the mach value in hex."""
        return MACH_NAMES.get(self.mach, f"{self.mach:#x}")


def elf_target(elf: bytes, what: str = "the code object") -> ElfTarget:
    """Read e_machine, EI_ABIVERSION and e_flags of a 64-bit little-endian AMDGPU ELF;
    CodeObjectError naming ``what`` when the bytes are not one."""
    elf = bytes(elf[:64])
    if elf[:4] != b"\x7fELF":
        raise CodeObjectError(f"{what} is not an ELF file (it starts with {elf[:8]!r})")
    if len(elf) < 64 or elf[4] != 2:
        raise CodeObjectError(f"{what} is not a 64-bit ELF file"
                              + (f" (only {len(elf)} bytes)" if len(elf) < 64 else ""))
    (e_type, machine) = struct.unpack_from("<HH", elf, 16)
    if elf[5] != 1 or machine != EM_AMDGPU:
        if elf[5] != 1:
            machine = struct.unpack_from(">H", elf, 18)[0]
        kind = _MACHINES.get(machine, "another machine")
        raise CodeObjectError(f"{what} is not an AMDGPU ELF (e_machine={machine}: {kind}); "
                              f"an AMDGPU code object has e_machine {EM_AMDGPU} (EM_AMDGPU)")
    (flags,) = struct.unpack_from("<I", elf, 48)
    version = CODE_OBJECT_VERSIONS.get(elf[8], 0) if elf[7] == ELFOSABI_AMDGPU_HSA else 0
    return ElfTarget(flags & EF_AMDGPU_MACH,
                     _SETTING[(flags & EF_AMDGPU_FEATURE_XNACK_V4) >> 8],
                     _SETTING[(flags & EF_AMDGPU_FEATURE_SRAMECC_V4) >> 10],
                     version, e_type, (flags & EF_AMDGPU_GENERIC_VERSION) >> 24)


def check_whole(elf: bytes, what: str) -> None:
    """CodeObjectError when the file ends before what its headers describe (a truncated copy):
    the program and section header tables and every section's contents must lie inside it."""
    n = len(elf)
    phoff, shoff = struct.unpack_from("<QQ", elf, 32)
    phentsize, phnum, shentsize, shnum = struct.unpack_from("<HHHH", elf, 54)
    ends = [("its program headers", phoff + phnum * phentsize),
            ("its section headers", shoff + shnum * shentsize)]
    if shoff + shnum * shentsize <= n and shentsize >= 40:
        for i in range(shnum):
            sh_type, = struct.unpack_from("<I", elf, shoff + i * shentsize + 4)
            off, size = struct.unpack_from("<QQ", elf, shoff + i * shentsize + 24)
            if sh_type != SHT_NOBITS:
                ends.append((f"section {i}", off + size))
    for part, end in ends:
        if end > n:
            raise CodeObjectError(f"{what} is truncated: {part} end at byte {end} but it has "
                                  f"{n} bytes; copy the whole file again")


def hipwb_arch(target: ElfTarget, what: str) -> str:
    """The hipwb arch of a code object's header, or UnsupportedCodeObject naming what it is."""
    version = target.code_object_version
    if version == 0:
        raise UnsupportedCodeObject(f"{what} is an AMDGPU ELF but not an HSA code object (its "
                                    f"OS/ABI is not AMDGPU_HSA, {ELFOSABI_AMDGPU_HSA}): a PAL or "
                                    f"Mesa graphics shader, not a HIP/HSA kernel")
    if version not in SUPPORTED_VERSIONS:
        raise UnsupportedCodeObject(
            f"{what} is code object v{version}; hipwb reads v4, v5 and v6 (LLVM AMDGPUUsage "
            f"'Code Object Metadata'): rebuild it with a newer clang or hipcc "
            f"(-mcode-object-version=5)")
    if target.e_type == ET_REL:
        raise UnsupportedCodeObject(
            f"{what} is a relocatable object (ELF type ET_REL), not a linked code object: link "
            f"it first (ld.lld -shared -o kernel.hsaco {what if ' ' not in what else 'FILE.o'})")
    for arch in ARCHS.values():
        if arch.elf_mach == target.mach:
            return arch.name
    name = MACH_NAMES.get(target.mach)
    said = f"processor {name} (EF_AMDGPU_MACH {target.mach:#x})" if name else (
        f"EF_AMDGPU_MACH {target.mach:#x}, a value LLVM 22 does not name")
    hint = ("; a generic target's code runs on several processors: rebuild it for one of them "
            "(--offload-arch=gfx942, say)" if name and name.endswith("-generic") else "")
    raise UnsupportedCodeObject(f"{what} is for {said}, which hipwb does not model; hipwb knows "
                                f"{', '.join(ARCHS)}{hint}")


def target_id(arch: str, target: ElfTarget) -> str:
    """The target ID (``gfx942``, ``gfx90a:xnack+``, ``gfx942:sramecc+:xnack-``): the features
    the code object pins on or off, in the order ROCm spells them."""
    feats = [f"{f}{'+' if s == 'on' else '-'}" for f, s in (("sramecc", target.sramecc),
                                                               ("xnack", target.xnack))
             if s in ("on", "off")]
    return ":".join([arch, *feats])


def is_bundle(data: bytes) -> bool:
    return data[:len(BUNDLE_MAGIC)] == BUNDLE_MAGIC


def refuse_packed(data: bytes, what: str) -> None:
    """UnsupportedCodeObject for the offload containers hipwb does not unpack, naming the tool
    that does."""
    if data[:4] == COMPRESSED_BUNDLE_MAGIC:
        raise UnsupportedCodeObject(
            f"{what} is a compressed clang offload bundle; unpack it with clang-offload-bundler "
            f"-unbundle -type=o -input={what if ' ' not in what else 'FILE'} "
            f"-targets=hipv4-amdgcn-amd-amdhsa--gfx942 -output=gfx942.hsaco (its "
            f"-list option names the targets) and load the code objects it writes")
    if data[:4] == PACKAGER_MAGIC:
        raise UnsupportedCodeObject(
            f"{what} is a clang-offload-packager image (--offload-new-driver); extract its code "
            f"objects with llvm-offload-binary (or clang-offload-packager) and load those")


def split_bundle(data: bytes, what: str) -> list[tuple[str, bytes]]:
    """(bundle entry ID, bytes) of each AMDGPU entry of a clang offload bundle: magic, entry
    count, then per entry its offset (from the bundle's start), size, ID length and ID, all
    integers 64-bit little-endian (ClangOffloadBundler "Bundled Code Object Layout")."""
    def fail(why: str) -> CodeObjectError:
        return CodeObjectError(f"{what} is a damaged clang offload bundle: {why}")

    pos = len(BUNDLE_MAGIC)
    if len(data) < pos + 8:
        raise fail("it ends before its entry count")
    (count,) = struct.unpack_from("<Q", data, pos)
    pos += 8
    entries = []
    for i in range(count):
        if len(data) < pos + 24:
            raise fail(f"entry {i} of {count} is cut off")
        off, size, id_len = struct.unpack_from("<QQQ", data, pos)
        pos += 24
        if pos + id_len > len(data):
            raise fail(f"entry {i} of {count} is cut off")
        entry_id = data[pos:pos + id_len].decode("utf-8", "replace")
        pos += id_len
        if off + size > len(data):
            raise fail(f"entry {entry_id!r} claims bytes {off}..{off + size} of {len(data)}")
        if "amdgcn-amd-amdhsa" in entry_id and size:
            entries.append((entry_id, bytes(data[off:off + size])))
    if not entries:
        raise UnsupportedCodeObject(f"{what} is a clang offload bundle without an AMDGPU "
                                    f"code object (no amdgcn-amd-amdhsa entry)")
    return entries


def hip_fatbin(data: bytes, what: str) -> list[tuple[str, bytes]] | None:
    """(entry ID and where, bytes) of the AMDGPU entries of the offload bundles in a host ELF's
    ``.hip_fatbin`` section (what hipcc links into a program or library), or None when it has
    none. The section holds one bundle per translation unit, each starting at its magic."""
    import io

    from elftools.elf.elffile import ELFFile

    try:
        sec = ELFFile(io.BytesIO(data)).get_section_by_name(".hip_fatbin")
        blob = sec.data() if sec is not None else b""
    except Exception:  # pyelftools raises its own hierarchy for a damaged host file
        return None
    out: list[tuple[str, bytes]] = []
    start = blob.find(BUNDLE_MAGIC)
    while start >= 0:
        where = f"the bundle at byte {start} of {what}'s .hip_fatbin"
        out += [(f"{eid!r} of {where}", elf) for eid, elf in split_bundle(blob[start:], where)]
        start = blob.find(BUNDLE_MAGIC, start + 1)
    if not out and blob:
        refuse_packed(blob.lstrip(b"\0"), f"{what}'s .hip_fatbin section")
    return out or None
