"""``%%hipkernel --sweep SETUP --out NAME`` in a real IPython shell (cluster='inline')."""

from __future__ import annotations

import pytest
from IPython.core.error import UsageError

from .test_sweep import SRC, inputs, launch, reference


def test_the_magic_sweeps_the_cell_and_binds_the_result(shell, capsys):
    shell.user_ns.update(setup=dict(space=dict(BLOCK=[64, 128], VEC=[1]), launch=launch,
                                    inputs=inputs, reference=reference, check_shape=(300,),
                                    shapes=[(1 << 16,)], cluster="inline", progress=False))
    shell.run_cell_magic("hipkernel", "--arch gfx942 --sweep setup --out res --show none",
                         SRC + "// magic\n")
    res = shell.user_ns["res"]
    assert len(res) == 2 and (res["status"] == "ok").all() and res["exact"].all()
    assert set(res["target"]) == {"gfx942"} and (res["modelled_us"] > 0).all()
    assert "scale" not in shell.user_ns     # a sweep cell binds the result, not a kernel


@pytest.mark.parametrize("line, error", [
    ("--sweep nope", "no such variable"),
    ("--sweep notdict", "a dict of wb.sweep arguments"),
    ("--sweep withtargets", "come from the cell's options"),
    ("--out res", "--out goes with --sweep"),
    ("--sweep setup --out 'a b'", "not a Python variable name"),
    ("--sweep setup -O1", "compiles every variant at -O3"),
    ("--sweep setup --time mi300x --launch 'k[1, 64]()'", "drop --time"),
])
def test_magic_usage_errors(shell, line, error):
    shell.user_ns.update(notdict=[1], withtargets=dict(space={"A": [1]}, targets="mi300x"),
                         setup=dict(space={"A": [1]}, launch=launch))
    with pytest.raises(UsageError, match=error):
        shell.run_cell_magic("hipkernel", line, SRC)
