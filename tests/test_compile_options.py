"""-D and --arch parsing shared by `hipwb compile` and `%%hipkernel` (workbench.compile_options)."""

from __future__ import annotations

import pytest

from workbench.compile_options import parse_archs, parse_defines


def test_defines_with_and_without_values():
    assert parse_defines(["N=4", "FAST", "EMPTY=", "EXPR=a=b"]) == {
        "N": "4", "FAST": None, "EMPTY": "", "EXPR": "a=b"}
    assert parse_defines([]) == {}


@pytest.mark.parametrize("item, name", [("1X=2", "1X"), ("=3", ""), ("A-B", "A-B")])
def test_bad_macro_name_is_named(item, name):
    with pytest.raises(ValueError, match=f"^-D {item!r}: {name!r} is not a valid macro name$"):
        parse_defines(["OK=1", item])


def test_archs_normalised_in_order_with_repeats_dropped():
    assert parse_archs(" gfx1100, gfx942:sramecc+:xnack- ,gfx1100,") == ("gfx1100", "gfx942")


def test_empty_and_unknown_archs_are_named():
    with pytest.raises(ValueError, match="^--arch needs at least one gfx target"):
        parse_archs(" , ")
    with pytest.raises(ValueError, match="^--arch: unknown arch 'gfx9999'; known archs: gfx90a"):
        parse_archs("gfx942,gfx9999")
