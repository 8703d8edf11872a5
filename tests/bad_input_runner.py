"""Bad and hostile inputs for hipwb's public surface (issue 24): the case table and the
in-process runner shared by ``tests/bench/bad_inputs.py`` (each case in its own subprocess,
with time and memory limits) and ``tests/test_bad_inputs.py`` (the same cases as unit tests).

A case is an API snippet (run with ``wb``, ``np``, ``K`` — compiled modules of ``KERNELS``,
compiled once — and ``tmp``, a private folder), a list of IPython cells (the last one is under
test) or a ``hipwb`` command line. ``expect="ok"``: a valid edge case whose code asserts its
result against numpy; ``expect="clear"``: it must fail with a ``HipwbError`` (a ``UsageError``
for a magic's options; exit code ``exit`` for the CLI) whose message holds ``match``.
``check`` is a Python expression that must hold afterwards (else "data-lost"). ``known`` marks
a case left failing on purpose, with the reason.

Outcomes: ok, clear, internal (another exception, or a message without ``match``), hang, crash,
silent (no error where one is due, or a wrong result), data-lost.
"""
from __future__ import annotations

import contextlib
import io
import os
import re
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bad_input_cases import KERNELS, RES

OUTCOMES = ("ok", "clear", "internal", "hang", "crash", "silent", "data-lost")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


@dataclass(frozen=True)
class Result:
    outcome: str
    output: str


class Modules:
    """``K.add``: the compiled module of ``KERNELS["add"]``, compiled once (cache-backed)."""

    def __init__(self) -> None:
        self._mods: dict[str, Any] = {}

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        if name not in self._mods:
            import workbench as wb

            src, arch = KERNELS[name]
            self._mods[name] = wb.compile(src, arch)
        return self._mods[name]


def _classify_exception(case: Any, e: BaseException, text: str) -> Result:
    from workbench.errors import HipwbError

    if isinstance(e, MemoryError):
        return Result("crash", text)
    if isinstance(e, AssertionError):
        return Result("silent", text)
    if isinstance(e, HipwbError) and case.expect == "clear" and case.match in str(e):
        return Result("clear", text)
    return Result("internal", text)


def run_api(case: Any, modules: Modules, tmp: Path) -> Result:
    import numpy as np

    import workbench as wb

    ns: dict[str, Any] = {"wb": wb, "np": np, "K": modules, "tmp": tmp, "RES": dict(RES)}
    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
            exec(compile(case.code, f"<case {case.id}>", "exec"), ns)  # noqa: S102
    except BaseException as e:  # noqa: BLE001  (the point: classify whatever comes out)
        text = buf.getvalue() + "".join(traceback.format_exception(e))
        res = _classify_exception(case, e, text)
    else:
        text = buf.getvalue()
        res = Result("ok" if case.expect == "ok" else "silent", text)
    if res.outcome in ("ok", "clear") and case.check and not eval(case.check, ns):  # noqa: S307
        return Result("data-lost", f"check failed: {case.check}\n{text}")
    return res


def run_magic(case: Any, shell: Any, tmp: Path) -> Result:
    """Run the cells in ``shell`` (a fresh namespace); the last cell is the one under test."""
    from IPython.core.error import UsageError

    from workbench.errors import HipwbError

    shell.reset(new_session=False)
    shell.user_ns["tmp"] = tmp
    cells = list(case.code)
    out = ""
    result = None
    for i, cell in enumerate(cells):
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
            result = shell.run_cell(cell, store_history=False)
        out += ANSI.sub("", buf.getvalue())
        if i < len(cells) - 1 and not result.success:
            return Result("internal", f"setup cell {i} failed:\n{out}")
    assert result is not None
    err = result.error_in_exec or result.error_before_exec
    if case.expect == "ok":
        res = Result("ok", out) if err is None else _classify_exception(case, err, out)
    elif err is None:
        res = Result("silent", out)
    elif isinstance(err, (HipwbError, UsageError)) and case.match in str(err):
        res = Result("clear" if "workbench/" not in out else "internal", out)
    else:
        res = _classify_exception(case, err, out)
    if res.outcome in ("ok", "clear") and case.check:
        if not eval(case.check, shell.user_ns):  # noqa: S307
            return Result("data-lost", f"check failed: {case.check}\n{out}")
    return res


def cli_argv(case: Any, tmp: Path) -> list[str]:
    """The case's command line with ``{tmp}`` filled in, after writing its files."""
    for rel, data in case.files:
        p = tmp / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, bytes):
            p.write_bytes(data)
        else:
            p.write_text(data)
    return [a.replace("{tmp}", str(tmp)) for a in case.code]


def classify_cli(case: Any, code: int, stderr: str) -> str:
    if "Traceback (most recent call last)" in stderr:
        return "internal"
    if code == 0:
        return "silent"
    if code == case.exit and case.match in stderr:
        return "clear"
    return "internal" if code in (1, 2) else "crash"


def run_cli(case: Any, tmp: Path) -> Result:
    """The command in-process (``workbench.cli.main``), its output captured."""
    from workbench import cli

    argv = cli_argv(case, tmp)
    out, err = io.StringIO(), io.StringIO()
    cwd = os.getcwd()
    try:
        os.chdir(tmp)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli.main(argv)
    except BaseException as e:  # noqa: BLE001
        return Result("internal", "".join(traceback.format_exception(e)))
    finally:
        os.chdir(cwd)
    text = err.getvalue()
    return Result(classify_cli(case, code, text), f"exit {code}\n{text}{out.getvalue()[-800:]}")


def run_case(case: Any, modules: Modules, tmp: Path, shell: Any = None) -> Result:
    if case.kind == "api":
        return run_api(case, modules, tmp)
    if case.kind == "magic":
        return run_magic(case, shell, tmp)
    return run_cli(case, tmp)
