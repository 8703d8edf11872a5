"""One error style: every error hipwb raises for the user is a ``HipwbError`` (and the built-in
class Python would raise), and in IPython its traceback shows the user's frames, not hipwb's
(``%hipwb traceback on`` shows them). Real IPython shell."""
from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

import workbench as wb
from workbench.devlib import DevlibError
from workbench.emu.errors import EmulatorError
from workbench.errors import ArgumentTypeError, HipwbError, show_tracebacks
from workbench.occupancy import OccupancyArgumentError

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _run(shell, capsys, code: str) -> str:
    capsys.readouterr()
    shell.run_cell(code)
    out = capsys.readouterr()
    return ANSI.sub("", out.out + out.err)


@pytest.mark.parametrize("cls", [wb.LaunchError, wb.KernelFault, wb.CompileError,
                                 wb.ToolchainError, ArgumentTypeError,
                                 OccupancyArgumentError, EmulatorError, DevlibError])
def test_every_user_error_is_a_hipwb_error(cls):
    assert issubclass(cls, HipwbError)


def test_a_wrong_type_is_a_hipwb_error_and_a_type_error():
    with pytest.raises(TypeError) as ei:
        wb.occupancy_table("gfx942", block_size="256")
    assert isinstance(ei.value, HipwbError)
    assert str(ei.value).startswith("block_size must be an int in 1..1024")
    assert str(ei.value).endswith("got str '256'")


def test_ipython_hides_hipwb_frames_until_traceback_on(shell, capsys):
    shell.run_cell("import workbench as wb\ndef user_helper(n):\n"
                   "    return wb.get_arch(n)\n")
    try:
        text = _run(shell, capsys, "user_helper(256)")
        assert "ArgumentTypeError" in text and "takes str or Arch, got int 256" in text
        assert "user_helper" in text  # the user's own frames stay
        assert "argument_types.py" not in text and "workbench/" not in text
        assert re.search(r"\(\d+ frames? inside hipwb hidden: %hipwb traceback on", text)
        assert "your frames only" in _run(shell, capsys, "%hipwb traceback")
        assert "every frame" in _run(shell, capsys, "%hipwb traceback on")
        text = _run(shell, capsys, "user_helper(256)")
        assert "argument_types.py" in text and "hidden" not in text
    finally:
        show_tracebacks(False)
    text = _run(shell, capsys, "%hipwb traceback sideways")
    assert "UsageError" in text and "takes on or off" in text


class _Wrong:
    """A value of a type no public function takes."""

    def __repr__(self) -> str:
        return "<wrong>"


# Valid values for the parameters that come before the one under test.
_VALID = {"source": "__global__ void k(float* x) { x[0] = 1; }",
          "resources": {"vgprs": 8, "agprs": 0, "sgprs": 16, "lds_bytes": 0},
          "arch": "gfx942", "name": "gfx942", "instruction": "v_mfma_f32_16x16x16_bf16",
          "spec": "emulator", "enabled": True, "row": 0, "col": 0, "grid": 1, "block": 64,
          "space": {"A": [1]}, "rows": [[1, 2]], "header": ["a", "b"]}


_LDS = """__global__ void t(float* x) { __shared__ float s[64]; s[threadIdx.x] = x[threadIdx.x];
    __syncthreads(); x[threadIdx.x] = s[63 - threadIdx.x]; }"""


def _valid(name: str, fname: str):
    if name == "trace" or (name == "subjects" and fname == "lds_heatmap"):
        import numpy as np

        return wb.compile(_LDS).t.trace[1, 64](np.zeros(64, np.float32))
    if name == "tile":
        return wb.SharedTile((16, 16), "f32")
    if name == "kernel":
        return wb.compile(_VALID["source"]).k
    if name == "code_object":
        return wb.compile(_VALID["source"])["gfx942"].elf
    if name == "hyperparams" and fname == "wave":
        return {}
    if name == "fn" and fname == "triton":  # a @triton.jit function (the optional triton)
        pytest.importorskip("triton", reason="the optional triton package is not installed")
        import importlib.util

        path = Path(__file__).parents[1] / "kernels" / "triton" / "tutorial.py"
        spec = importlib.util.spec_from_file_location("tutorial", path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod.add_kernel
    return _VALID.get(name)


def _public_functions():
    return [n for n in wb.__all__ if not isinstance(getattr(wb, n), type)]


def _cases():
    for fname in _public_functions():
        sig = inspect.signature(getattr(wb, fname))
        for p in sig.parameters.values():
            if p.kind is not p.VAR_KEYWORD:
                yield pytest.param(fname, p.name, id=f"{fname}-{p.name}")


@pytest.mark.parametrize("fname, pname", list(_cases()))
def test_every_argument_of_every_public_function_refuses_a_wrong_type(fname, pname, tmp_path,
                                                                        monkeypatch):
    monkeypatch.setenv("HIPWB_CACHE_DIR", str(tmp_path))
    fn = getattr(wb, fname)
    params = list(inspect.signature(fn).parameters.values())
    p = next(q for q in params if q.name == pname)
    args, kwargs = [], {}
    if p.kind is p.VAR_POSITIONAL:
        args = [_valid(q.name, fname) for q in params[:params.index(p)]] + [_Wrong()]
    else:
        for q in params:
            if q is p:
                break
            if q.kind is q.VAR_POSITIONAL and fname == "lds_heatmap":
                args.append(_valid("subjects", fname))
            elif q.default is q.empty and q.kind is not q.VAR_POSITIONAL:
                args.append(_valid(q.name, fname))
        if p.kind is p.KEYWORD_ONLY:
            kwargs = {pname: _Wrong()}
        else:
            args.append(_Wrong())
    if (fname, pname) == ("bench", "args"):  # with no GPU here, bench's first complaint
        with pytest.raises(wb.LaunchError, match="bench needs a GPU"):
            fn(*args, **kwargs)
        return
    with pytest.raises(HipwbError) as ei:
        fn(*args, **kwargs)
    assert isinstance(ei.value, (TypeError, ValueError)), type(ei.value)
    assert "<wrong>" in str(ei.value) or "_Wrong" in str(ei.value) or pname in str(ei.value), \
        str(ei.value)


def test_public_function_list_is_what_the_wrong_type_test_covers():
    assert len(_public_functions()) >= 20
    assert sum(1 for _ in _cases()) >= 50
