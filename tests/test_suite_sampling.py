"""The sample of the sweeps that make test runs (tests/conftest.py ``sampled``): every group of a
``@pytest.mark.sample(every=k, per=...)`` test runs at least once, the other parameters rotate
over the groups, a test's first and last cases always run, and unmarked tests are untouched."""
from __future__ import annotations

from types import SimpleNamespace

import pytest
from conftest import sampled


class Item:
    """The little of a pytest item that ``sampled`` reads."""

    def __init__(self, fn: str, mark, **params):
        self.nodeid = f"tests/t.py::{fn}[{'-'.join(map(str, params.values()))}]"
        self.callspec = SimpleNamespace(params=params)
        self._mark = mark

    def get_closest_marker(self, name):
        return self._mark if name == "sample" else None

    def __repr__(self):
        return self.nodeid


def grid(fn, mark, cases, archs):
    return [Item(fn, mark, case=c, arch=a) for c in cases for a in archs]


ARCHS = ("gfx942", "gfx950", "gfx1100", "gfx1201")


def test_every_case_runs_once_and_the_archs_rotate():
    items = grid("f", pytest.mark.sample(every=4, per=("case",)).mark, "abcdefgh", ARCHS)
    kept, dropped = sampled(items)
    assert len(kept) + len(dropped) == len(items) == 32
    ran = [(it.callspec.params["case"], it.callspec.params["arch"]) for it in kept]
    # first and last always; otherwise case number g on arch g % 4
    assert ran == [("a", "gfx942"), ("b", "gfx950"), ("c", "gfx1100"), ("d", "gfx1201"),
                   ("e", "gfx942"), ("f", "gfx950"), ("g", "gfx1100"), ("h", "gfx1201")]


def test_a_group_shorter_than_its_turn_still_runs_once():
    mark = pytest.mark.sample(every=4, per=("case",)).mark
    items = grid("f", mark, "ab", ARCHS) + grid("f", mark, "cd", ARCHS[:2]) + grid("f", mark, "e",
                                                                                  ARCHS)
    kept, _ = sampled(items)
    per_case = {c: [it.callspec.params["arch"] for it in kept if it.callspec.params["case"] == c]
                for c in "abcde"}
    assert per_case == {"a": ["gfx942"], "b": ["gfx950"], "c": ["gfx942"],  # 2 % 2
                        "d": ["gfx950"],  # 3 % 2
                        "e": ["gfx942", "gfx1201"]}  # its turn, and the test's last case


def test_without_per_every_kth_and_the_last():
    items = [Item("f", pytest.mark.sample(every=3).mark, n=i) for i in range(8)]
    kept, _ = sampled(items)
    assert [it.callspec.params["n"] for it in kept] == [0, 3, 6, 7]


def test_unmarked_tests_and_other_functions_are_untouched_and_order_is_kept():
    mark = pytest.mark.sample(every=2, per=("case",)).mark
    plain = [Item("g", None, case=c, arch=a) for c in "ab" for a in ARCHS]
    items = plain[:4] + grid("f", mark, "abc", ARCHS[:2]) + plain[4:]
    kept, dropped = sampled(items)
    assert all(it in kept for it in plain)
    assert [it for it in items if it in kept] == kept
    assert [it.nodeid for it in dropped] == ["tests/t.py::f[a-gfx950]", "tests/t.py::f[b-gfx942]"]
    assert sampled(items) == (kept, dropped)  # deterministic: every xdist worker agrees


def test_unhashable_parameters_group_by_identity():
    steps = [{"name": "naive"}, {"name": "mfma"}]
    mark = pytest.mark.sample(every=2, per=("s",)).mark
    items = [Item("f", mark, s=s, shape=sh) for s in steps for sh in ("tiles", "edges")]
    kept, _ = sampled(items)
    assert [(it.callspec.params["s"]["name"], it.callspec.params["shape"]) for it in kept] == \
        [("naive", "tiles"), ("mfma", "edges")]


@pytest.mark.xdist_group("exclusive")
def test_xdist_groups_reach_the_scheduler(request):
    """Under make test (pytest-xdist, --dist loadgroup) a grouped test's node id carries its
    group, which is all the scheduler sees. With pytest 9.2 and xdist 3.8.0 it does not
    (pytest-dev/pytest-xdist#1386): the browser tests then ran two labs at once and module
    fixtures were built once per worker, silently; hence the pin in pyproject.toml."""
    if not getattr(request.config.option, "loadgroup", False):
        pytest.skip("only under pytest-xdist --dist loadgroup (make test)")
    assert request.node.nodeid.endswith("@exclusive"), request.node.nodeid
