"""widgets.base's bokeh mechanism: BokehJS sent once per kernel and page, and a pane whose
snapshot catches up when a browser view appears after a change (both checked in JupyterLab
with headless Chromium; here driven without a front end)."""
from __future__ import annotations

import IPython.display
import pytest
from bokeh.models import ColumnDataSource, Slider
from bokeh.plotting import figure
from jupyter_bokeh.widgets import BokehModel

from workbench.widgets import base

LOAD = "application/vnd.bokehjs_load.v0+json"


@pytest.fixture
def sent(monkeypatch):
    """What load_bokehjs publishes, starting from a kernel that has sent nothing."""
    out: list[dict] = []
    monkeypatch.setattr(IPython.display, "publish_display_data", lambda data: out.append(data))
    monkeypatch.setattr(base, "_BOKEHJS_SENT", {})
    return out


def _plot(xs):
    src = ColumnDataSource({"x": list(xs), "y": list(xs)})
    fig = figure(width=200, height=200)
    fig.scatter("x", "y", source=src)
    return fig, src


def test_core_bundle_inline_once_per_front_end(sent, monkeypatch):
    assert base.load_bokehjs() is True
    assert base.load_bokehjs() is False
    assert base.load_bokehjs(force=True) is True
    assert len(sent) == 2
    js = sent[0][LOAD]
    assert "BEGIN bokeh.min.js" in js and "cdn.bokeh.org" not in js and len(js) > 500_000
    assert "bokeh-widgets" not in js and "(bokeh.min.js)" in sent[0]["text/plain"]
    monkeypatch.setattr(base, "_front_end", lambda: "reloaded page")  # a new connection
    assert base.load_bokehjs() is True and len(sent) == 3


def test_only_the_missing_bundles_are_sent(sent):
    fig, _ = _plot([1, 2])
    assert base.load_bokehjs(fig) is True
    from bokeh.layouts import column

    with_slider = column(_plot([3])[0], Slider(start=0, end=1, value=0, step=1))
    assert base.load_bokehjs(with_slider) is True
    assert base.load_bokehjs(with_slider) is False
    second = sent[1][LOAD]
    assert "BEGIN bokeh-widgets.min.js" in second and "BEGIN bokeh.min.js" not in second
    assert len(second) < len(sent[0][LOAD])


def test_bokeh_pane_loads_bokehjs_in_a_kernel_only(sent, monkeypatch):
    pane = base.bokeh_pane(_plot([1])[0])
    assert isinstance(pane, BokehModel) and sent == []  # no kernel: nothing to send
    monkeypatch.setattr(base, "in_kernel", lambda: True)
    base.bokeh_pane(_plot([1])[0])
    base.bokeh_pane(_plot([2])[0])
    assert len(sent) == 1 and LOAD in sent[0]


def test_pane_snapshot_catches_up_when_a_view_appears():
    fig, src = _plot([1, 2])
    pane = base.bokeh_pane(fig)
    first = pane.render_bundle
    assert pane._view_count == 0  # ipywidgets counts views from 0 (None: not tracked)
    pane._view_count = 1          # a view of the unchanged document: no redraw
    assert pane.render_bundle is first
    src.data = {"x": [7, 8, 9], "y": [7, 8, 9]}
    assert pane.render_bundle is first  # a change goes to the existing view as a patch
    pane._view_count = 0                # a view going away is not a reason to redraw
    assert pane.render_bundle is first
    pane._view_count = 1                # a new view: it must draw the data as it is now
    assert pane.render_bundle is not first and "[7, 8, 9]" in str(pane.render_bundle)
    again = pane.render_bundle
    pane._view_count = 2                # nothing changed since: no second refresh
    assert pane.render_bundle is again
