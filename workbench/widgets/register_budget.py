"""``wb.register_budget(arch, vgprs)``: one SIMD's VGPR file and what it holds at each wave size.

Why a picture: on RDNA the same kernel can run as wave32 or wave64, and the VGPR file is fixed in
bytes, not in registers. gfx1100/gfx1201 have 1536 VGPRs per lane-slot in wave32 and 768 in wave64
(both 192 KiB per SIMD), allocated in granules of 24 and 12 (LLVM AMDGPUBaseInfo.cpp,
``getTotalNumVGPRs`` / ``getVGPRAllocGranule`` with the ``allocate1_5xvgprs`` feature); a wave
of V VGPRs takes ``align(V, granule)`` of them and the SIMD holds
``min(file // align(V, granule), max waves)`` waves (``IsaInfo::getNumWavesPerEUWithNumVGPRs``;
``workbench.occupancy.vgpr_waves``). The view draws that as bars (the file split into its
resident waves) and as a step chart of waves/SIMD against VGPRs per wave, one line per wave
size. Every number comes from ``workbench.arch`` and ``workbench.occupancy``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..arch import Arch
from ..arch import get as get_arch
from ..argument_types import checked
from ..errors import ArgumentValueError
from ..occupancy import vgpr_waves
from .base import View, esc, table, wrap

__all__ = ["RegisterBudget", "WaveBudget", "register_budget"]

# One colour per wave size; resident waves alternate between its two shades.
_SHADES = {32: ("#2a7ab0", "#6aa8d6"), 64: ("#d9650b", "#f2a65e")}
_UNUSED = "#e4e4e4"
_BAR_X, _BAR_W, _BAR_H = 78, 600, 26


@dataclass(frozen=True)
class WaveBudget:
    """What one SIMD's VGPR file holds at one wave size for waves of ``vgprs`` VGPRs."""

    wave_size: int
    file: int          # VGPRs per lane-slot in one SIMD's file at this wave size
    granule: int       # allocation granule (VGPRs)
    vgprs: int         # VGPRs the kernel uses per wave
    allocated: int     # VGPRs one wave takes from the file (rounded up to the granule)
    waves: int         # waves/SIMD the VGPRs allow (capped at the SIMD's wave slots)
    max_waves: int     # the SIMD's wave slots
    full_at: int       # the most VGPRs a wave may use with every wave slot filled

    @property
    def kib(self) -> int:
        """The file in KiB: VGPRs x lanes x 4 bytes."""
        return self.file * self.wave_size * 4 // 1024

    @property
    def threads(self) -> int:
        """Work-items resident on the SIMD: waves x lanes."""
        return self.waves * self.wave_size

    @property
    def unused(self) -> int:
        """VGPRs of the file no resident wave holds."""
        return self.file - self.waves * self.allocated

    @property
    def limiter(self) -> str:
        return "wave slots" if self.waves == self.max_waves else "VGPRs"

    def line(self) -> str:
        return (f"wave{self.wave_size}: {self.file} VGPRs x {self.wave_size} lanes x 4 B = "
                f"{self.kib} KiB; a {self.vgprs}-VGPR wave takes {self.allocated} "
                f"(granule {self.granule}) -> {self.waves} waves/SIMD = {self.threads} threads "
                f"(limited by {self.limiter}; {self.unused} VGPRs unused); all "
                f"{self.max_waves} wave slots up to {self.full_at} VGPRs")


def wave_budget(arch: Arch, wave_size: int, vgprs: int) -> WaveBudget:
    """The budget of ``arch``'s VGPR file at ``wave_size`` for waves of ``vgprs`` VGPRs."""
    file, granule = arch.vgprs_per_simd(wave_size), arch.vgpr_granule(wave_size)
    allocated = -(-max(vgprs, 1) // granule) * granule
    full_at = max(v for v in range(1, arch.max_vgprs_per_wave + 1)
                  if vgpr_waves(arch, v, wave_size) == arch.max_waves_per_simd)
    return WaveBudget(wave_size, file, granule, vgprs, allocated,
                      vgpr_waves(arch, vgprs, wave_size), arch.max_waves_per_simd, full_at)


class RegisterBudget(View):
    """One SIMD's VGPR file split into its resident waves, per wave size, and the waves/SIMD
    curve of each wave size against VGPRs per wave (static SVG; text as numbers)."""

    def __init__(self, arch: Arch, vgprs: int) -> None:
        self.arch = arch
        self.vgprs = vgprs
        self.budgets = [wave_budget(arch, ws, vgprs) for ws in arch.wave_sizes]

    def title(self) -> str:
        a = self.arch
        return (f"{a.name} ({a.product}): one SIMD's VGPR file and {self.vgprs}-VGPR waves")

    def curve(self, wave_size: int) -> list[tuple[int, int, int]]:
        """(first VGPRs, last VGPRs, waves/SIMD) steps of the waves/SIMD curve."""
        steps: list[list[int]] = []
        for v in range(1, self.arch.max_vgprs_per_wave + 1):
            w = vgpr_waves(self.arch, v, wave_size)
            if steps and steps[-1][2] == w:
                steps[-1][1] = v
            else:
                steps.append([v, v, w])
        return [(lo, hi, w) for lo, hi, w in steps]

    def text(self) -> str:
        rows = [self.title()] + ["  " + b.line() for b in self.budgets]
        rows.append("  source: LLVM AMDGPUBaseInfo.cpp getTotalNumVGPRs / getVGPRAllocGranule "
                    "/ getNumWavesPerEUWithNumVGPRs (workbench.occupancy)")
        return "\n".join(rows)

    # -- static picture --------------------------------------------------------------------
    def _bars_svg(self) -> tuple[list[str], int]:
        out, y = [], 8
        for b in self.budgets:
            dark, light = _SHADES.get(b.wave_size, ("#555", "#999"))
            scale = _BAR_W / b.file
            out.append(f'<text x="0" y="{y + 17}" font-weight="600">wave{b.wave_size}</text>')
            x = float(_BAR_X)
            for k in range(b.waves):
                w = b.allocated * scale
                out.append(f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{_BAR_H}" '
                           f'fill="{dark if k % 2 == 0 else light}" stroke="#fff" '
                           f'stroke-width="0.5"><title>wave {k}: VGPRs {k * b.allocated}-'
                           f'{(k + 1) * b.allocated - 1}</title></rect>')
                if w >= 22:
                    out.append(f'<text x="{x + w / 2:.1f}" y="{y + 17}" fill="#fff" '
                               f'font-size="10" text-anchor="middle">w{k}</text>')
                x += w
            if b.unused:
                out.append(f'<rect x="{x:.1f}" y="{y}" width="{_BAR_X + _BAR_W - x:.1f}" '
                           f'height="{_BAR_H}" fill="{_UNUSED}"><title>{b.unused} VGPRs '
                           f"unused</title></rect>")
            out.append(f'<rect x="{_BAR_X}" y="{y}" width="{_BAR_W}" height="{_BAR_H}" '
                       f'fill="none" stroke="#666"/>')
            out.append(f'<text x="{_BAR_X}" y="{y + _BAR_H + 14}" font-size="11">'
                       f"{esc(b.file)} VGPRs x {b.wave_size} lanes x 4 B = {b.kib} KiB: "
                       f"{b.waves} waves x {b.allocated} VGPRs = {b.threads} threads "
                       f"({esc(b.limiter)}{'; ' + str(b.unused) + ' unused' if b.unused else ''})"
                       "</text>")
            y += _BAR_H + 26
        return out, y

    def _chart_svg(self, top: int) -> tuple[list[str], int]:
        a = self.arch
        h, vmax, wmax = 150, a.max_vgprs_per_wave, a.max_waves_per_simd
        x0, y0 = _BAR_X, top + 24 + h

        def px(v: float) -> float:
            return x0 + _BAR_W * v / vmax

        def py(w: float) -> float:
            return y0 - h * w / wmax

        out = [f'<text x="0" y="{top + 8}" font-weight="600">waves/SIMD</text>',
               f'<line x1="{x0}" y1="{y0}" x2="{x0 + _BAR_W}" y2="{y0}" stroke="#666"/>',
               f'<line x1="{x0}" y1="{y0}" x2="{x0}" y2="{y0 - h}" stroke="#666"/>']
        for w in range(0, wmax + 1, max(1, wmax // 4)):
            out.append(f'<text x="{x0 - 6}" y="{py(w) + 4:.1f}" font-size="10" '
                       f'text-anchor="end">{w}</text>')
            out.append(f'<line x1="{x0}" y1="{py(w):.1f}" x2="{x0 + _BAR_W}" y2="{py(w):.1f}" '
                       f'stroke="#ddd" stroke-width="0.5"/>')
        for v in range(0, vmax + 1, 32):
            out.append(f'<text x="{px(v):.1f}" y="{y0 + 13}" font-size="10" '
                       f'text-anchor="middle">{v}</text>')
        out.append(f'<text x="{x0 + _BAR_W / 2}" y="{y0 + 27}" font-size="11" '
                   f'text-anchor="middle">VGPRs per wave</text>')
        for b in self.budgets:
            dark = _SHADES.get(b.wave_size, ("#555",))[0]
            pts = []
            for lo, hi, w in self.curve(b.wave_size):
                pts += [f"{px(lo - 1):.1f},{py(w):.1f}", f"{px(hi):.1f},{py(w):.1f}"]
            dash = ' stroke-dasharray="6 3"' if b.wave_size == 64 and len(self.budgets) > 1 \
                else ""
            out.append(f'<polyline points="{" ".join(pts)}" fill="none" stroke="{dark}" '
                       f'stroke-width="2"{dash}/>')
            out.append(f'<circle cx="{px(self.vgprs):.1f}" cy="{py(b.waves):.1f}" r="4" '
                       f'fill="{dark}"><title>wave{b.wave_size}: {b.waves} waves at '
                       f"{self.vgprs} VGPRs</title></circle>")
            out.append(f'<text x="{px(self.vgprs) + 6:.1f}" y="{py(b.waves) - 6:.1f}" '
                       f'font-size="10" fill="{dark}">wave{b.wave_size}: {b.waves}</text>')
        out.append(f'<line x1="{px(self.vgprs):.1f}" y1="{y0}" x2="{px(self.vgprs):.1f}" '
                   f'y2="{y0 - h}" stroke="#888" stroke-dasharray="2 2"/>')
        keys = "".join(
            f'<tspan fill="{_SHADES.get(b.wave_size, ("#555",))[0]}">'
            f"{'-- ' if b.wave_size == 64 and len(self.budgets) > 1 else '— '}wave"
            f"{b.wave_size}   </tspan>" for b in self.budgets)
        out.append(f'<text x="{x0 + _BAR_W - 150}" y="{top + 8}" font-size="11">{keys}</text>')
        return out, y0 + 34

    def svg(self) -> str:
        bars, y = self._bars_svg()
        chart, height = self._chart_svg(y + 6)
        body = "".join(bars + chart)
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_BAR_X + _BAR_W + 10}" '
                f'height="{height}" font-family="sans-serif" font-size="12">{body}</svg>')

    def html(self) -> str:
        rows = [(f"wave{b.wave_size}", b.file, f"{b.kib} KiB", b.granule, b.allocated,
                 b.waves, b.threads, b.full_at) for b in self.budgets]
        facts = table(["wave size", "VGPRs/SIMD", "file", "granule", "allocated", "waves/SIMD",
                       "threads", "all slots up to"], rows, numeric=[1, 3, 4, 5, 6, 7])
        note = ("bars: one SIMD's VGPR file, split into the waves it holds (hover a block); "
                "chart: waves/SIMD against VGPRs per wave, the dot at this kernel's count. "
                "Source: LLVM AMDGPUBaseInfo.cpp (getTotalNumVGPRs, getVGPRAllocGranule, "
                "getNumWavesPerEUWithNumVGPRs), as workbench.occupancy applies them.")
        return wrap(f"<div><b>{esc(self.title())}</b></div>{self.svg()}{facts}"
                    f'<div class="muted">{esc(note)}</div>')


@checked
def register_budget(arch: str = "gfx1100", vgprs: int = 96) -> RegisterBudget:
    """One SIMD's VGPR file at each wave size of ``arch``, split into the waves of ``vgprs``
    VGPRs each that it holds, with the waves/SIMD curve (``workbench.occupancy`` rules).

    E.g. ``wb.register_budget("gfx1100", 96)``: 16 wave32 waves (512 threads) or 8 wave64
    waves (512 threads) fill gfx1100's 192 KiB per SIMD.
    """
    a = get_arch(arch)
    if not 1 <= vgprs <= a.max_vgprs_per_wave:
        raise ArgumentValueError(f"vgprs={vgprs}: a wave on {a.name} uses 1..."
                                 f"{a.max_vgprs_per_wave} VGPRs")
    return RegisterBudget(a, vgprs)
