"""What a compile shows: per kernel and target, resources, occupancy and the ISA, side by side.

``%%hipkernel`` displays a :class:`CompileReport`; ``hipwb compile`` prints its text and, with
``--json``, :func:`module_summary`. The numbers come from the code object (``KernelInfo``) and
``workbench.occupancy``; this module only arranges them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ..arch import get as get_arch
from ..codeobject import KernelInfo
from ..compiler import CodeObject, Module
from ..occupancy import Occupancy, occupancy
from ..text_table import text_table
from .base import View, details, esc, table, wrap
from .isa_view import IsaView
from .occupancy_view import OccupancyView, limiter_words

#: clang's default max flat workgroup size for HIP kernels without __launch_bounds__
#: (clang --gpu-max-threads-per-block, default 1024; AMDGPUUsage "amdgpu-flat-work-group-size").
DEFAULT_MAX_FLAT_WORKGROUP = 1024
#: Block size the summary assumes for kernels that do not declare one.
DEFAULT_BLOCK = 256


def block_for(info: KernelInfo, block: int | None = None) -> int:
    """The block size a summary evaluates occupancy at: ``block`` if given, else the kernel's
    required/declared size (reqd_work_group_size, __launch_bounds__), else 256."""
    if block is not None:
        return int(block)
    if info.reqd_workgroup_size:
        x, y, z = info.reqd_workgroup_size
        return x * y * z
    max_flat = info.resources.max_flat_workgroup_size
    if max_flat and max_flat != DEFAULT_MAX_FLAT_WORKGROUP:
        return int(max_flat)
    return min(DEFAULT_BLOCK, max_flat or DEFAULT_BLOCK)


def kernel_occupancy(info: KernelInfo, block: int | None = None) -> Occupancy | str:
    """Occupancy of ``info`` at :func:`block_for`'s block size, or why it cannot be computed."""
    try:
        return occupancy(info.resources, info.arch, block_for(info, block))
    except ValueError as e:
        return str(e)


def format_seconds(seconds: float) -> str:
    """``12.3 ms`` / ``1.23 s``: the one timing format notebooks/sanitize.cfg recognises."""
    return f"{seconds * 1e3:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def timing_phrase(seconds: float | None, cached: bool) -> str:
    """``compile time: 73.1 ms`` or ``compile time: 0.4 ms (cached)``."""
    if seconds is None:
        return "compile time: cached" if cached else ""
    return f"compile time: {format_seconds(seconds)}" + (" (cached)" if cached else "")


def kernel_summary(info: KernelInfo, block: int | None = None,
                   listing: Any = None) -> dict[str, Any]:
    """A JSON-ready description of one compiled kernel (CLI ``--json``)."""
    occ = kernel_occupancy(info, block)
    if isinstance(occ, str):
        occ_json: dict[str, Any] = {"block_size": block_for(info, block), "error": occ}
    else:
        occ_json = {
            "block_size": occ.block_size, "waves_per_simd": occ.waves_per_simd,
            "max_waves_per_simd": occ.max_waves_per_simd, "limiter": occ.limiter,
            "limits": occ.limits, "workgroups_per_unit": occ.workgroups_per_cu,
            "waves_per_unit": occ.waves_per_cu, "unit": occ.unit,
            "vgprs_allocated": occ.vgprs_allocated, "notes": list(occ.notes),
        }
    out: dict[str, Any] = {
        "name": info.name, "symbol": info.symbol, "arch": info.arch,
        "signature": info.signature,
        "args": [{"name": a.name, "ctype": a.ctype, "kind": a.kind, "offset": a.offset,
                  "size": a.size} for a in info.args],
        "kernarg_size": info.kernarg_size,
        "resources": info.resources.as_dict(),
        "occupancy": occ_json,
        "llvm_occupancy": info.llvm_occupancy,
        "code_size": info.code_size,
    }
    if listing is not None:
        out["instructions"] = len(listing)
        out["instruction_mix"] = dict(sorted(listing.mix().items()))
    return out


def module_summary(module: Module, *, block: int | None = None, isa: bool = True,
                   seconds: float | None = None) -> dict[str, Any]:
    """A JSON-ready description of a whole compile: per target, its kernels."""
    targets = []
    for arch in module.archs:
        co = module[arch]
        kernels = [kernel_summary(k, block, co.listing(k.name) if isa else None)
                   for k in co.kernels.values()]
        targets.append({"arch": arch, "cached": co.from_cache,
                        "warnings": [str(w) for w in co.warnings], "kernels": kernels})
    out: dict[str, Any] = {"file": module.filename, "archs": list(module.archs),
                           "targets": targets}
    if seconds is not None:
        out["compile_seconds"] = seconds
    return out


def _resource_rows(infos: list[KernelInfo | None], listings: list[Any],
                   block: int | None) -> tuple[list[list[Any]], list[int], list[str]]:
    """Rows (label, value per target) shared by the text and HTML summaries."""
    def per(fn):
        return [fn(i) if i is not None else "-" for i in infos]

    occs = [kernel_occupancy(i, block) if i is not None else "-" for i in infos]
    notes = [f"{i.arch}: occupancy not computed: {o}" for i, o in zip(infos, occs)
             if i is not None and isinstance(o, str) and o != "-"]
    # Where clang's own occupancy remark differs from the hardware value shown, and why.
    notes += [f"{o.arch}: {n}" for o in occs if isinstance(o, Occupancy) for n in o.notes]

    def occ_cell(o):
        return (f"{o.waves_per_simd} of {o.max_waves_per_simd} waves/SIMD"
                if isinstance(o, Occupancy) else "n/a")

    rows = [
        ["target", *per(lambda i: f"{get_arch(i.arch).family.upper()} "
                                  f"({get_arch(i.arch).product})")],
        ["wave size", *per(lambda i: i.resources.wave_size)],
        ["VGPRs", *per(lambda i: i.resources.vgprs)],
        ["AGPRs", *per(lambda i: i.resources.agprs if get_arch(i.arch).has_agprs else "-")],
        ["SGPRs", *per(lambda i: i.resources.sgprs)],
        ["LDS", *per(lambda i: f"{i.resources.lds_bytes} B")],
        ["scratch", *per(lambda i: f"{i.resources.scratch_bytes} B/lane")],
        ["spills VGPR/SGPR", *per(lambda i: f"{i.resources.vgpr_spills}/"
                                            f"{i.resources.sgpr_spills}")],
        ["block size", *[o.block_size if isinstance(o, Occupancy) else block_for(i, block)
                         if i is not None else "-" for i, o in zip(infos, occs)]],
        ["occupancy", *[occ_cell(o) for o in occs]],
        ["limited by", *[limiter_words(o) if isinstance(o, Occupancy) else "-" for o in occs]],
        ["ISA", *[f"{len(li)} instructions" if li is not None else "-" for li in listings]],
    ]
    bad = [i for i, r in enumerate(rows) if r[0] == "spills VGPR/SGPR"
           and any(v not in ("0/0", "-") for v in r[1:])]
    return rows, bad, notes


def _code_of(source: str) -> str:
    """Source without comments and magic lines (what is left to compile)."""
    body = re.sub(r"//[^\n]*|/\*.*?\*/", " ", source, flags=re.S)
    return "\n".join(x for x in body.splitlines() if not x.lstrip().startswith("%%"))


class CompileReport(View):
    """The summary of one compile: every kernel, every target side by side, ISA collapsible.

    ``source`` is the text whose line N is the ISA's source line N (a whole notebook cell, or
    the .hip file); ``seconds``/``cached`` describe the compile for the one timing phrase.
    """

    def __init__(self, module: Module, *, source: str | None = None,
                 seconds: float | None = None, block: int | None = None,
                 show_isa: bool = False, title: str = "", kernels: Sequence[str] | None = None):
        self.module = module
        self.only = None if kernels is None else tuple(kernels)
        self.source = source
        self.seconds = seconds
        self.block = block
        self.show_isa = show_isa
        self.title = title
        self._listings: dict[str, list[Any]] = {}

    @property
    def cached(self) -> bool:
        return self.module.from_cache

    def _objects(self) -> list[CodeObject]:
        return [self.module[a] for a in self.module.archs]

    def kernel_names(self) -> list[str]:
        names: dict[str, None] = {}
        for co in self._objects():
            names.update(dict.fromkeys(co.kernels))
        return [n for n in names if self.only is None or n in self.only]

    def _per_target(self, name: str) -> tuple[list[KernelInfo | None], list[Any]]:
        infos = [co.kernels.get(name) for co in self._objects()]
        if name not in self._listings:  # parsed once for both renderings
            self._listings[name] = [co.listing(name) if i is not None else None
                                    for co, i in zip(self._objects(), infos)]
        return infos, self._listings[name]

    def _warnings(self) -> list[str]:
        seen: dict[str, None] = {}
        for co in self._objects():
            for w in co.warnings:
                seen[str(w)] = None
        empty: dict[str, list[str]] = {}
        for co in self._objects():
            for name in co.empty_kernels():
                if self.only is None or name in self.only:
                    empty.setdefault(name, []).append(co.arch)
        for name, archs in empty.items():
            seen[f"{name} compiles to a lone s_endpgm for {', '.join(archs)}: its body is "
                 f"empty there (code behind a preprocessor guard for other targets, such as "
                 f"#if __gfx90a__ || __gfx908__?), so a launch computes nothing"] = None
        if not any(co.kernels for co in self._objects()):
            if self.source is not None and not _code_of(self.source).strip():
                seen["the cell is empty: nothing was compiled, no kernel to launch"] = None
            else:
                seen["no kernels in this source (mark device entry points __global__): "
                     "nothing to launch"] = None
        return list(seen)

    def headline(self) -> str:
        names = self.kernel_names()
        what = f"{len(names)} kernel" + ("s" if len(names) != 1 else "")
        if self.only is not None and len(names) == 1:
            what = f"kernel {names[0]}"
        head = f"{self.title + ': ' if self.title else ''}{what} for {', '.join(self.module.archs)}"
        # A kernel's own view (kernels=[name]) describes the kernel, not a compile: no timing.
        phrase = timing_phrase(self.seconds, self.cached) if self.only is None else ""
        return head + (f" ({phrase})" if phrase else "")

    def text(self) -> str:
        parts = [self.headline()]
        parts += [f"warning: {w}" for w in self._warnings()]
        for name in self.kernel_names():
            infos, listings = self._per_target(name)
            first = next(i for i in infos if i is not None)
            rows, _bad, notes = _resource_rows(infos, listings, self.block)
            parts.append(first.signature)
            parts.append(text_table(["", *self.module.archs], rows, indent="  "))
            parts += [f"  note: {n}" for n in notes]
            if self.show_isa:
                for arch, li in zip(self.module.archs, listings):
                    if li is not None:
                        parts.append(IsaView(li, self.source, title=f"{name} {arch}").text())
        return "\n".join(parts)

    def html(self) -> str:
        body = [f"<div><b>{esc(self.headline())}</b></div>"]
        for w in self._warnings():
            body.append(f'<div class="bad">warning: {esc(w)}</div>')
        for name in self.kernel_names():
            infos, listings = self._per_target(name)
            first = next(i for i in infos if i is not None)
            rows, bad, notes = _resource_rows(infos, listings, self.block)
            body.append(f"<h4>{esc(first.signature)}</h4>")
            body.append(table(["", *self.module.archs], rows, hot=bad))
            body += [f'<div class="muted">note: {esc(n)}</div>' for n in notes]
            cards = []
            for arch, info, li in zip(self.module.archs, infos, listings):
                if info is None:
                    continue
                parts = []
                occ = kernel_occupancy(info, self.block)
                if isinstance(occ, Occupancy):
                    parts.append(details(f"occupancy {arch}: {occ.waves_per_simd} waves/SIMD, "
                                         f"limited by {limiter_words(occ)}",
                                         OccupancyView(occ, info.resources).html_fragment()))
                if li is not None:
                    parts.append(IsaView(li, self.source, title=f"{name} {arch}",
                                         open=self.show_isa).html_fragment())
                cards.append(f"<div>{''.join(parts)}</div>")
            body.append(f'<div class="row">{"".join(cards)}</div>')
        if not self.kernel_names():
            body.append("<div>no kernels (mark device entry points __global__)</div>")
        return wrap("".join(body))
