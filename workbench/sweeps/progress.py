"""A sweep's progress: a bar in Jupyter (ipywidgets), one rewritten line in a terminal.

Why our own: the line says what the numbers mean for a sweep (points done of total, from the
cache, failed, elapsed), and it must work with Dask's ``as_completed`` loop, where tqdm-style
wrappers would hide the failures. Nothing is shown with ``progress=False``.
"""

from __future__ import annotations

import sys
import time
from typing import Any

__all__ = ["Progress"]


def _in_jupyter() -> bool:
    try:
        from IPython import get_ipython

        ip = get_ipython()
        return ip is not None and type(ip).__name__ == "ZMQInteractiveShell"
    except Exception:
        return False


class Progress:
    """Counts finished points; redraws at most 10 times a second and once at the end."""

    def __init__(self, total: int, cached: int, how: str, enabled: bool = True,
                 stream: Any = None):
        self.total, self.cached, self.done, self.failed = total, cached, cached, 0
        self.how = how
        self.enabled = enabled and total > 0
        self.stream = stream or sys.stderr
        self.t0 = time.perf_counter()
        self._last = 0.0
        self._bar = self._label = None
        if self.enabled and _in_jupyter():
            try:
                import ipywidgets as w
                from IPython.display import display

                self._bar = w.IntProgress(min=0, max=total, value=self.done,
                                          description="sweep", bar_style="info")
                self._label = w.Label(self._text())
                box = w.HBox([self._bar, self._label])
                # the widget, with a text/plain that does not change from run to run (nbval
                # compares text/plain; the widget's own repr holds the live counts)
                bundle = dict(box._repr_mimebundle_() or {})
                bundle["text/plain"] = f"sweep progress: {total} points"
                # the static picture a saved notebook shows once the bar's model is gone
                bundle["text/html"] = (f'<div class="hipwb">sweep progress: {total} points '
                                       "(the live bar ran while the cell ran)</div>")
                display(bundle, raw=True)
            except Exception:
                self._bar = None

    def _text(self) -> str:
        el = time.perf_counter() - self.t0
        parts = [f"{self.done}/{self.total} points"]
        if self.cached:
            parts.append(f"{self.cached} from cache")
        if self.failed:
            parts.append(f"{self.failed} failed")
        parts.append(f"{el:.0f} s")
        return ", ".join(parts) + (f" ({self.how})" if self.how else "")

    def step(self, failed: bool) -> None:
        self.done += 1
        self.failed += bool(failed)
        now = time.perf_counter()
        if now - self._last >= 0.1 and self.done < self.total:
            self._last = now
            self._draw(final=False)

    def _draw(self, final: bool) -> None:
        if not self.enabled:
            return
        if self._bar is not None:
            self._bar.value = self.done
            self._label.value = self._text()
            if final:
                self._bar.bar_style = "success" if not self.failed else "warning"
        else:
            end = "\n" if final else ""
            self.stream.write(f"\rsweep: {self._text()}{end}")
            self.stream.flush()

    def close(self, interrupted: bool = False) -> None:
        if interrupted and self._bar is not None:
            self._bar.bar_style = "danger"
        self._draw(final=True)
