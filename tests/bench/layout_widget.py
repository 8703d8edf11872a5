"""Time the layout explorer's recomputes (target: <= 100 ms per interaction).

Run: ``.venv/bin/python tests/bench/layout_widget.py``. Builds one live widget, then drives its
controls as a user would (instruction, operand, modifier, colour, lane, arch/wave switches) and
prints the Python-side time of each recompute, first visit (cold caches) and repeat (cached
rows). Bokeh's comm messages are serialised as in Jupyter; the browser's redraw is not timed.
"""

from __future__ import annotations

import statistics
import time

import workbench as wb

STEPS = [
    ("instruction", "v_mfma_f32_32x32x8_bf16"), ("operand", "C"), ("operand", "B"),
    ("instruction", "v_mfma_f32_32x32x2_f32"), ("operand", "C"),
    ("instruction", "v_mfma_f32_32x32x1_2b_f32"), ("operand", "A"), ("cbsz", 1), ("abid", 1),
    ("operand", "B"), ("blgp", 3), ("operand", "C"),
    ("instruction", "v_mfma_f32_4x4x4_16b_f16"), ("operand", "A"),
    ("instruction", "v_mfma_f64_16x16x4_f64"), ("operand", "D"), ("blgp", 5),
    ("instruction", "v_mfma_f32_16x16x32_fp8_fp8"), ("operand", "A"),
    ("color_by", "register"), ("lane", 37), ("color_by", "lane"), ("lane", 5),
    ("arch", "gfx1100"), ("instruction", "v_wmma_f16_16x16x16_f16"), ("operand", "D"),
    ("opsel", 4), ("wave_size", 64), ("operand", "A"),
    ("arch", "gfx1201"), ("instruction", "v_wmma_i32_16x16x32_iu4"), ("operand", "B"),
    ("arch", "gfx942"), ("instruction", "v_mfma_f32_16x16x16_bf16"), ("operand", "A"),
]


def run(label: str, w) -> list[float]:
    times = []
    for name, value in STEPS:
        t0 = time.perf_counter()
        w.controls[name].value = value
        dt = (time.perf_counter() - t0) * 1000
        times.append(dt)
        print(f"  {label:6s} {name:11s} = {str(value):28s} {dt:7.2f} ms "
              f"({w.ins.name} {w.controls['operand'].value}, "
              f"{len(w.figures.source.data['lane'])} rows)")
    return times


def main() -> None:
    t0 = time.perf_counter()
    w = wb.layout("v_mfma_f32_16x16x16_bf16", arch="gfx942").widget()
    print(f"build widget (imports bokeh/ipywidgets): {(time.perf_counter() - t0) * 1000:.1f} ms")
    cold = run("cold", w)
    warm = run("repeat", w)
    for label, ts in (("cold", cold), ("repeat", warm)):
        print(f"{label:6s}: median {statistics.median(ts):.2f} ms, max {max(ts):.2f} ms over "
              f"{len(ts)} interactions; target 100 ms")


if __name__ == "__main__":
    main()
