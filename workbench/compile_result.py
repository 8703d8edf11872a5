"""What compile() and load() return: Module (one code object per arch) and CodeObject (kernels,
ISA), and the kernel table both build from a code object (``kernel_infos``)."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from . import cache_files as _files
from . import clang_ast
from . import kernel_names as _names
from . import toolchain as _tc
from .codeobject import DeviceVariable, HiddenArg, KernelArg, KernelInfo, RawKernel, resources_of
from .compile_diagnostics import CompileError, Diagnostic
from .errors import ArgumentAttributeError, ArgumentKeyError, ArgumentTypeError, ArgumentValueError

DEFAULT_FILENAME = "cell"


@dataclass
class CodeObject:
    """One compiled code object (one arch) and the kernels in it."""

    arch: str
    path: Path
    kernels: dict[str, KernelInfo]
    command: tuple[str, ...]
    compile_seconds: float
    from_cache: bool = False
    warnings: tuple[Diagnostic, ...] = ()
    _listing_text: str | None = field(default=None, repr=False)
    # __device__/__constant__ variables by source name (hipMemcpyToSymbol's symbols)
    variables: dict[str, DeviceVariable] = field(default_factory=dict)
    # The ELF as built (kept in memory, so a file damaged on disk later is detected and
    # rewritten instead of failing llvm-objdump or a GPU loader)
    _elf: bytes | None = field(default=None, repr=False)
    # address -> workbench.inline_sites.Site (None: not covered), filled on demand by listing()
    _site_memo: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def elf(self) -> bytes:
        if self._elf is None:
            self._elf = self.path.read_bytes()
        return self._elf

    @property
    def target_id(self) -> str:
        """The target ID its ELF header pins (``gfx942``; ``gfx90a:xnack+`` for a build that
        needs XNACK on; ``gfx942:sramecc+:xnack-``), as ROCm spells a GPU's."""
        from .amdgpu_elf import elf_target, target_id

        return target_id(self.arch, elf_target(self.elf))

    def intact_path(self) -> Path:
        """``path``, or a private copy of the in-memory ELF when the file on disk no longer
        holds it (a cache entry damaged or deleted while the session runs). The copy goes to
        this process's own folder, never into the cache: a shared entry is only ever written
        whole by ``compile_cache.store`` (the next lookup rebuilds a damaged one)."""
        if self._elf is None:
            return self.path
        try:
            ok = self.path.read_bytes() == self._elf
        except OSError:
            ok = False
        if not ok:
            self.path = _files.private_copy(self._elf)
            self._listing_text = None
        return self.path

    def empty_kernels(self) -> list[str]:
        """Kernels whose whole code is one ``s_endpgm`` (4 bytes on every AMDGPU target,
        AMD ISA guides "SOPP"): the body compiled to nothing for this target, e.g. code behind
        ``#if __gfx90a__ || __gfx908__`` built for gfx942; a launch computes nothing."""
        return [n for n, k in self.kernels.items() if 0 < k.code_size <= 4]

    def kernel(self, name: str) -> KernelInfo:
        """A kernel by Python name, ELF symbol, demangled name (with or without its parameter
        list, e.g. ``kernel_gemm_impl<(ns::m_layout)0, 16>::kernel`` or its readable short
        form) or source name; a source name shared by several template instances is refused
        with the instances to pick from."""
        if name in self.kernels:
            return self.kernels[name]
        want = "".join(name.split())
        hits = [k for k in self.kernels.values()
                if name == k.symbol or want in _names.spellings(k)]
        if len(hits) > 1 and not any(name == k.symbol for k in hits):
            shown = "; ".join(f"{k.name} ({k.demangled or k.symbol})" for k in hits)
            raise ArgumentKeyError(
                f"{name!r} names {len(hits)} overloads in the {self.arch} code object; pick one "
                f"by its Python name or its demangled name with the parameter list: {shown}")
        if hits:
            return next((k for k in hits if name == k.symbol), hits[0])
        same = [k for k in self.kernels.values() if name == k.metadata.get("source_name")]
        if len(same) == 1:
            return same[0]
        if same:
            shown = "; ".join(f"{k.name} ({k.demangled or k.symbol})" for k in same)
            raise ArgumentKeyError(
                f"{name!r} names {len(same)} template instances in the {self.arch} "
                f"code object; pick one by its Python or demangled name: {shown}")
        known = ", ".join(self.kernels) or "none"
        raise ArgumentKeyError(
            f"no kernel {name!r} in the {self.arch} code object (kernels: {known})")

    def disassembly(self) -> str:
        """The llvm-objdump listing (with source lines) of the whole code object, cached."""
        if self._listing_text is None:
            path = self.intact_path()
            cached = path.with_name("listing.txt")
            text = cached.read_text(errors="replace") if cached.exists() else ""
            # a listing names every kernel (<symbol>:); one that does not is damaged
            if text and all(f"<{k.symbol}>:" in text for k in self.kernels.values()):
                self._listing_text = text
            else:
                tc = _tc.find_toolchain()
                cmd = [tc.tool("llvm-objdump"), "-d", "-l", f"--mcpu={self.arch}"]
                # RDNA defaults to wave32; without the attribute, wave64 kernels disassemble
                # with wave32 register-tuple sizes (e.g. WMMA accumulators).
                if any(k.resources.wave_size == 64 for k in self.kernels.values()):
                    from .arch import get as get_arch

                    if get_arch(self.arch).gfx_major >= 10:
                        cmd.append("--mattr=+wavefrontsize64")
                out = subprocess.run([*cmd, str(path)], capture_output=True, text=True)
                if out.returncode != 0:
                    raise CompileError(
                        f"llvm-objdump cannot read the {self.arch} code object {path} "
                        f"({out.stderr.strip()[:200]}); the cached file is damaged: run "
                        f"workbench.compiler.clear_cache() and compile again")
                self._listing_text = out.stdout
                try:
                    _files.atomic_write(cached, out.stdout.encode())
                except OSError:
                    pass  # a read-only or full cache: the listing stays in memory
        return self._listing_text

    def listing(self, kernel: str):
        """The parsed ISA listing of one kernel (``workbench.isa.Listing``); instructions
        inlined from headers carry their header line and the user's line that called it."""
        from .isa import parse_listing, place_sites

        info = self.kernel(kernel)
        listing = parse_listing(self.disassembly(), info.symbol)
        inlined = [i.addr for i in listing if i.source_line is None and i.source_file]
        return place_sites(listing, self._sites(inlined)) if inlined else listing

    def _sites(self, addrs: list[int]) -> dict:
        """Inline call sites of these addresses (``workbench.inline_sites``), memoised."""
        from .inline_sites import inline_sites
        from .isa import is_user_file

        todo = [a for a in addrs if a not in self._site_memo]
        if todo:
            self._site_memo.update(dict.fromkeys(todo))
            try:
                tc = _tc.find_toolchain()
            except _tc.ToolchainError:  # a code object carried to a machine without LLVM (the
                return {}  # GPU side of a launch guard): the listing keeps innermost files only
            self._site_memo.update(inline_sites(tc.tool("llvm-symbolizer"), self.intact_path(),
                                                todo, lambda f: is_user_file(f, None)))
        return {a: self._site_memo[a] for a in addrs if self._site_memo.get(a) is not None}


_kernel_factory: Callable[[Module, str], Any] | None = None


def set_kernel_factory(factory: Callable[[Module, str], Any] | None) -> None:
    """Install what builds the launchable kernel of a module (``workbench.Kernel``).

    Why a hook: ``Kernel`` lives in the runtime, a layer above the compiler (docs/architecture.md),
    so ``Module`` cannot import it; the package's front door (``workbench/__init__``) installs it.
    """
    global _kernel_factory
    _kernel_factory = factory


@dataclass
class Module:
    """The result of one compile() or load(): a code object per arch, and its kernels.

    ``module["add"]``, ``module.add`` and ``module.get_function("add")`` give the launchable
    kernel (one object per name, the one ``%%hipkernel`` binds); ``module["gfx942"]`` gives the
    code object of one arch. A loaded module has no ``source`` (""): its ISA shows the line
    numbers of the code object's line tables, without their text.
    """

    source: str
    archs: tuple[str, ...]
    objects: dict[str, CodeObject]
    options: tuple[str, ...] = ()
    # What another compiler (NVRTC on CudaDevice, hiprtc on RocmDevice) needs to rebuild it.
    defines: dict[str, str | int | None] = field(default_factory=dict)
    include_dirs: tuple[str, ...] = ()
    filename: str = DEFAULT_FILENAME
    first_line: int = 1

    _bound: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def __getitem__(self, key: str) -> Any:
        """The code object of an arch (``module["gfx942"]``) or a kernel by name
        (``module["add"]``, the same as ``module.get_function("add")``)."""
        hit = self.objects.get(key)
        if hit is not None:
            return hit
        if isinstance(key, str) and self._has_kernel(key):
            return self.get_function(key)
        from .arch import get as get_arch

        try:
            name = get_arch(key).name
        except (KeyError, ValueError):
            known = ", ".join(self.kernel_names()) or "none"
            raise ArgumentKeyError(
                f"{key!r} is neither a kernel of this module (kernels: {known}) nor "
                f"an arch it was compiled for ({', '.join(self.archs)})") from None
        if name not in self.objects:
            raise ArgumentKeyError(f"the module holds code objects for {', '.join(self.archs)}, "
                                   f"not {name}")
        return self.objects[name]

    def kernel_names(self) -> list[str]:
        """Python names of the kernels, over all archs, in source order."""
        names: dict[str, None] = {}
        for co in self.objects.values():
            names.update(dict.fromkeys(co.kernels))
        return list(names)

    def _has_kernel(self, name: str) -> bool:
        for co in self.objects.values():
            try:
                co.kernel(name)
                return True
            except KeyError as e:
                if "overloads" in str(e):
                    raise  # an ambiguous name: say which overloads it could mean
        return False

    def get_function(self, name: str) -> Any:
        """The launchable kernel ``name`` (``workbench.Kernel``), by any spelling
        ``CodeObject.kernel`` takes (``"k<-1, 2>"``, ``"k_m1_2"``, the symbol): one object
        per kernel, named by its Python name."""
        if not isinstance(name, str):
            raise ArgumentTypeError(f"Module.get_function(name): takes a kernel name (str), got "
                                    f"{type(name).__name__} {name!r:.40} (kernels: "
                                    f"{', '.join(self.kernel_names()) or 'none'})")
        for co in self.objects.values():
            try:
                name = co.kernel(name).name
                break
            except KeyError:
                continue
        k = self._bound.get(name)
        if k is None:
            if _kernel_factory is None:
                raise RuntimeError("no kernel factory: import workbench (its __init__ installs "
                                   "workbench.Kernel)")
            k = self._bound[name] = _kernel_factory(self, name)
        return k

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name in type(self).__dataclass_fields__:
            raise AttributeError(name)
        if self._has_kernel(name):
            return self.get_function(name)
        known = ", ".join(self.kernel_names()) or "none"
        raise ArgumentAttributeError(f"Module has no attribute or kernel {name!r} (kernels: "
                                     f"{known})")

    def __dir__(self) -> list[str]:
        return sorted({*super().__dir__(), *self.kernel_names()})

    def isa(self, kernel: str, arch: str | None = None):
        """The ISA listing of ``kernel`` on ``arch`` (default: the first), with this module's
        source lines: ``print`` shows each source line above its code."""
        co = self.objects.get(arch or self.archs[0]) or self[arch]
        source = "\n" * (self.first_line - 1) + self.source
        return replace(co.listing(kernel), source=source, title=f"{kernel} {co.arch}")

    @property
    def kernels(self) -> dict[str, KernelInfo]:
        """Kernels of the first arch, by Python name."""
        return self.objects[self.archs[0]].kernels

    @property
    def compile_seconds(self) -> float:
        return max(co.compile_seconds for co in self.objects.values())

    @property
    def from_cache(self) -> bool:
        return all(co.from_cache for co in self.objects.values())

    def _of_arch(self, table: dict[str, Any], arch: str, owner: str) -> Any:
        """``table[arch]`` of a per-arch artefact (a front end's IR, its MLIR), or an error
        naming the archs ``owner`` was compiled for."""
        if arch not in table:
            raise ArgumentValueError(f"{owner} was compiled for {', '.join(self.archs)}, "
                                     f"not {arch}")
        return table[arch]

    def add_arch_hint(self, arch: str) -> str:
        """How to get a code object for ``arch`` into a module like this one (the end of the
        error a launch on a device of another arch raises)."""
        if not self.source:  # wb.load: the code objects came from elsewhere
            return f"load a code object built for {arch} (wb.load takes a list, one per arch)"
        both = ",".join((*self.archs, arch))
        return f"compile with --arch {arch} (or add it, e.g. --arch {both})"


def kernel_infos(raws: list[RawKernel], arch: str, params: dict[str, Any] | None = None,
                 remarks: dict[str, dict[str, str]] | None = None) -> dict[str, KernelInfo]:
    """One code object's kernels by Python name: the ELF metadata joined with what else is
    known of them. A compile adds clang's AST (``params``: argument names and C types) and
    LLVM's resource remarks; without an AST (a loaded code object) a C++ kernel's argument
    types come from its demangled name, and an ``extern "C"`` kernel's pointers are ``void *``
    and its by-value arguments untyped (``ctype`` "": a launch types them by the value
    given), named ``arg0``, ``arg1``... as the metadata does not name them."""
    params, remarks = params or {}, remarks or {}
    kernels: dict[str, KernelInfo] = {}
    demangled = _names.demangle(raw.symbol for raw in raws)
    pynames = _names.python_names(raws, params, demangled)
    for raw in raws:
        m = raw.meta
        explicit = [a for a in m.get(".args", []) if not a[".value_kind"].startswith("hidden_")]
        ast = params.get(raw.symbol) or params.get(m[".name"]) or _from_name(
            demangled.get(raw.symbol, ""), explicit)
        rem = remarks.get(raw.symbol) or remarks.get(m[".name"]) or {}
        hidden = tuple(HiddenArg(a[".value_kind"], a[".offset"], a[".size"])
                       for a in m.get(".args", []) if a[".value_kind"].startswith("hidden_"))
        args = []
        for i, a in enumerate(explicit):
            pname, ctype, canon = (ast["params"][i] if i < len(ast["params"])
                                   else (a.get(".name", f"arg{i}"), "", ""))
            pointee, is_const = clang_ast.pointee(canon or ctype)
            args.append(KernelArg(
                name=pname or a.get(".name", f"arg{i}"), ctype=ctype or canon, offset=a[".offset"],
                size=a[".size"], kind=a[".value_kind"], pointee=pointee,
                is_const=is_const or bool(a.get(".is_const", False)),
                canonical=canon if canon and canon != ctype else None,
            ))
        occ = rem.get("Occupancy [waves/SIMD]")
        reqd = m.get(".reqd_workgroup_size")
        pyname = pynames[raw.symbol]
        kernels[pyname] = KernelInfo(
            name=pyname, symbol=raw.symbol, arch=arch, args=tuple(args), hidden_args=hidden,
            kernarg_size=int(m.get(".kernarg_segment_size", 0)),
            kernarg_align=int(m.get(".kernarg_segment_align", 8)),
            resources=resources_of(m, rem), descriptor=raw.descriptor, entry=raw.entry,
            code_size=raw.code_size, llvm_occupancy=int(occ) if occ and occ.isdigit() else None,
            reqd_workgroup_size=tuple(reqd) if reqd else None,
            metadata={**m, "source_name": ast["name"], "remark": rem},
            dynamic_shared=tuple(ast.get("dynamic_shared", ())),
            demangled=demangled.get(raw.symbol, ""),
        )
    return kernels


def _from_name(demangled: str, explicit: list[dict]) -> dict[str, Any]:
    """What a kernel's name says of its arguments when no AST does (the shape of
    ``clang_ast.kernel_params``): C types from the demangled name when it lists one per
    argument, else pointers as ``void *`` and by-value arguments untyped."""
    types = _names.demangled_params(demangled) if demangled else None
    if types is None or len(types) != len(explicit):
        types = ["void *" if a[".value_kind"] == "global_buffer" else "" for a in explicit]
    return {"name": "", "params": [(a.get(".name", f"arg{i}"), t, "")
                                   for i, (a, t) in enumerate(zip(explicit, types))]}
