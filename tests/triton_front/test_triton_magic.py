"""%%triton in a real IPython shell: @triton.jit functions of the cell bound as launchable
kernels (hipwb's binding rules), --signature compiling now, errors at the cell line."""

from __future__ import annotations

import numpy as np
import pytest
from IPython.utils.capture import capture_output

pytest.importorskip("triton", reason="the optional triton package is not installed "
                    "(pip install 'hip-workbench[triton]'; make setup installs it)")

from workbench.triton_front import TritonKernel  # noqa: E402
from workbench.triton_front.cell import CellError  # noqa: E402

CELL = """import triton
import triton.language as tl

SCALE = 3.0

@triton.jit
def scale_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) * 3.0, mask=m)

@triton.jit
def _twice(x):
    return x + x

@triton.jit
def twice_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, _twice(tl.load(x_ptr + offs, mask=m)), mask=m)
"""


def run(shell, line: str, cell: str) -> str:
    with capture_output() as cap:
        shell.run_cell_magic("triton", line, cell)
    return cap.stdout


def test_cell_binds_kernels_that_launch_on_both_archs(shell):
    shell.user_ns.pop("scale_kernel", None)
    shell.user_ns["twice_kernel"] = "my data"  # a user's value is kept
    out = run(shell, "--arch gfx942,gfx950", CELL)
    k = shell.user_ns["scale_kernel"]
    assert isinstance(k, TritonKernel) and k.archs == ("gfx942", "gfx950")
    assert shell.user_ns["twice_kernel"] == "my data"
    assert isinstance(shell.user_ns["twice_kernel_kernel"], TritonKernel)
    assert "'twice_kernel' holds your str: kept it; kernel twice_kernel is bound as " \
           "twice_kernel_kernel" in out
    assert shell.user_ns["SCALE"] == 3.0  # the cell's other names reach the notebook
    assert "compiles at its first launch" in out
    x = np.arange(300, dtype=np.float32)
    o = np.zeros_like(x)
    for arch in ("gfx942", "gfx950"):
        o[:] = 0
        k.on(f"emulator:{arch}")[(3,)](x, o, 300, BLOCK=128)
        assert np.array_equal(o, x * 3)
    t = shell.user_ns["twice_kernel_kernel"]
    t[(1,)](x, o, 300, BLOCK=512)  # calls the cell's @triton.jit helper
    assert np.array_equal(o, x + x)
    # the ISA shows the cell's lines, numbered as the cell (the %%triton line is line 1)
    rows = [r for kind, r in k.isa.rows() if kind == "src"]
    assert any(r.startswith("; line 11:  tl.store(out_ptr + offs, tl.load(") for r in rows)
    # running the cell again rebinds the kernels
    run(shell, "--arch gfx942,gfx950", CELL)
    assert shell.user_ns["scale_kernel"] is not k


def test_signature_compiles_now_and_reports_resources(shell):
    out = run(shell, "--arch gfx950 --num-warps 2 --signature "
                     "'scale_kernel(*fp32, *fp32, i32, BLOCK=256)'", CELL)
    k = shell.user_ns["scale_kernel"]
    assert k._last is not None and k.block() == 128
    assert "scale_kernel(x_ptr: *fp32, out_ptr: *fp32, n: i32, BLOCK=256): gfx950" in out
    assert "VGPRs" in out and "waves/SIMD" in out
    x = np.ones(256, np.float32)
    o = np.zeros_like(x)
    k[(1,)](x, o, 256)
    assert np.array_equal(o, x * 3)


@pytest.mark.parametrize(("cell", "message"), [
    ("import triton\n\n@triton.jit\ndef k(x_ptr:\n    pass\n",
     r"cell line 5: SyntaxError: .*"),
    ("import triton\nimport triton.language as tl\nraise ValueError('no')\n",
     r"cell line 4: ValueError: no"),
    ("import triton\nimport triton.language as tl\n\n@triton.jit\ndef bad(x_ptr, B: "
     "tl.constexpr):\n    o = tl.arange(0, B)\n    tl.store(x_ptr + o, nope)\n",
     r"cell line 8: Triton cannot compile bad for gfx942: NameError\('nope is not "
     r"defined'\)\n    tl.store\(x_ptr \+ o, nope\)"),
])
def test_errors_name_the_cell_line(shell, cell, message):
    line = "--signature 'bad(*fp32, B=64)'" if "def bad" in cell else ""
    with capture_output(), pytest.raises(CellError, match=message):
        shell.run_cell_magic("triton", line, cell)


def test_a_compile_error_at_first_launch_names_the_cell_line(shell):
    cell = ("import triton\nimport triton.language as tl\n\n@triton.jit\n"
            "def late(x_ptr, B: tl.constexpr):\n    tl.store(x_ptr + tl.arange(0, B), nope)\n")
    run(shell, "", cell)
    with pytest.raises(RuntimeError, match=r"cell line 7: Triton cannot compile late"):
        shell.user_ns["late"][(1,)](np.zeros(64, np.float32), B=64)


def test_bad_options_are_usage_errors(shell):
    from IPython.core.error import UsageError

    with pytest.raises(UsageError, match="unknown option --bogus"):
        shell.run_cell_magic("triton", "--bogus", CELL)
    with pytest.raises(CellError, match=r"--signature: no @triton.jit function nothere"):
        shell.run_cell_magic("triton", "--signature 'nothere(i32)'", CELL)
