"""wb.table and wb.code: HTML for notebooks, text for print; long tables are marked sortable."""

from __future__ import annotations

from pathlib import Path

import pytest

import workbench as wb

REPO = Path(__file__).resolve().parents[2]


def test_table_text_is_the_aligned_table_and_html_right_aligns_numbers():
    t = wb.table([["step 1", 1.02, "12%"], ["step 10", 2486.7, "98.8%"]],
                 ["step", "TFLOP/s", "peak"], title="ladder")
    assert str(t).splitlines() == ["ladder", "step     TFLOP/s  peak",
                                   "step 1   1.02     12%", "step 10  2486.7   98.8%"]
    html = t.html()
    assert '<th class="num">TFLOP/s</th>' in html and '<td class="num">98.8%</td>' in html
    assert '<td>step 10</td>' in html  # text stays left-aligned
    assert "hipwb-sortable" not in html  # two rows: not sortable
    assert "<script" not in html


def test_long_tables_are_sortable_and_hot_rows_marked():
    t = wb.table([[i, 10 - i] for i in range(9)], ["a", "b"], hot=[3])
    html = t.html()
    assert '<table class="hipwb-sortable"' in html
    assert html.count('<tr class="hot">') == 1


def test_table_rejects_ragged_rows_naming_the_row():
    with pytest.raises(ValueError, match="row 1 has 1 cells, the header 2"):
        wb.table([[1, 2], [3]], ["a", "b"])


def test_code_highlights_a_kernel_file_and_prints_it_plain():
    path = REPO / "kernels" / "gemm" / "step01_naive.hip"
    c = wb.code(path)
    assert str(c) == path.read_text()
    html = c.html()
    assert "step01_naive.hip" in html and '<pre class="hipwb-code">' in html
    assert html.count("<span class=") > 20  # keywords, types, operators as token classes
    assert "<style>.hipwb pre.hipwb-code" in html  # coloured by a stylesheet scoped to the block
    assert "__global__" in html


def test_code_of_a_missing_file_says_which():
    with pytest.raises(FileNotFoundError, match="no file .*nope.hip"):
        wb.code(Path("nope.hip"))
