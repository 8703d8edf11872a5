"""Reading clang's stderr: CompileError, its diagnostics, the error message, and LLVM's remarks."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .errors import HipwbError
from .prelude import INCLUDE_DIR


class CompileError(HipwbError):
    """clang rejected the source; ``diagnostics`` cite the user's own line numbers."""

    def __init__(self, message: str, diagnostics: Sequence[Diagnostic] = (), arch: str = ""):
        super().__init__(message)
        self.diagnostics = tuple(diagnostics)
        self.arch = arch


@dataclass(frozen=True)
class Diagnostic:
    """One clang diagnostic: where (file as the user knows it, line, column) and what."""

    file: str
    line: int
    column: int
    severity: str  # "error", "warning", "note"
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {self.severity}: {self.message}"


_DIAG_RE = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): "
                      r"(?P<sev>error|warning|note|fatal error): (?P<msg>.*)$")
_USER_DIAG_RE = re.compile(r"^:(?P<line>\d+):(?P<col>\d+): "
                           r"(?P<sev>error|warning|note|fatal error): (?P<msg>.*)$")


def parse_diagnostics(stderr: str, src: Path, filename: str) -> list[Diagnostic]:
    """clang's error/warning/note lines, with the temporary path shown as the user's name."""
    out = []
    for line in stderr.splitlines():
        # the user's own file first: its name may hold ':' or spaces (compile(filename=...))
        m = (_USER_DIAG_RE.match(line[len(filename):]) if line.startswith(filename + ":")
             else None)
        if m is not None:
            if "[-Rpass-analysis" not in line:
                out.append(Diagnostic(filename, int(m["line"]), int(m["col"]), m["sev"],
                                      m["msg"]))
            continue
        m = _DIAG_RE.match(line)
        if not m or "[-Rpass-analysis" in line:
            continue
        file = m["file"]
        if file in (str(src), src.name):
            file = filename
        out.append(Diagnostic(Path(file).name if file.startswith(str(INCLUDE_DIR)) else file,
                              int(m["line"]), int(m["col"]), m["sev"], m["msg"]))
    return out


_NOISE = ("[-Rpass-analysis", "could not determine the original source location")
_BACKEND_RE = re.compile(r"(?:fatal )?error(?: in backend)?: (.*)")


def _user_site(diags, error: Diagnostic, filename: str) -> Diagnostic | None:
    """The first note of ``error`` (its instantiation / expansion chain, up to the next error)
    that is in the user's own source, if any."""
    seen = False
    for d in diags:
        if d is error:
            seen = True
        elif seen and d.severity in ("error", "fatal error"):
            return None
        elif seen and d.severity == "note" and d.file == filename:
            return d
    return None


def error_message(arch: str, diags, stderr: str, src: Path, filename: str) -> str:
    """A CompileError's message: a headline naming the user's line (or the target whose code
    generator failed), then clang's output with the user's file name and no remark noise."""
    lines = [ln for ln in stderr.splitlines() if not any(n in ln for n in _NOISE)]
    text = "\n".join(lines).replace(str(src), filename).replace(str(INCLUDE_DIR) + "/", "")
    errors = [d for d in diags if d.severity in ("error", "fatal error")]
    backend = next((m.group(1) for ln in lines if (m := _BACKEND_RE.match(ln.strip()))), None)
    if not errors and backend:
        # LLVM's code generator refused (no source line): say so, naming the target.
        head = f"the {arch} code generator failed: {backend.removeprefix('error in backend: ')}"
    elif not errors:
        head = "compilation failed"
    elif errors[0].file == filename:
        head = f"{filename} line {errors[0].line}: {errors[0].message}"
    elif (site := _user_site(diags, errors[0], filename)) is not None:
        # an error inside a header (a hipwb prelude template, a user include) reached from the
        # user's code: the headline names the user's line, then where the error itself is
        head = (f"{filename} line {site.line}: {errors[0].message} "
                f"(in {errors[0].file}:{errors[0].line}, reached from this line)")
    else:
        head = f"{errors[0].file}:{errors[0].line}: {errors[0].message}"
    return f"{head}  [{arch}]\n{text.strip()}"


_REMARK_RE = re.compile(r"remark: \s*(?P<key>[^:]+?): (?P<val>\S+) \[-Rpass-analysis")


def parse_remarks(stderr: str) -> dict[str, dict[str, str]]:
    """LLVM's kernel-resource-usage remark, per function: {"Occupancy [waves/SIMD]": "8", ...}."""
    out: dict[str, dict[str, str]] = {}
    current = None
    for line in stderr.splitlines():
        m = _REMARK_RE.search(line)
        if not m:
            continue
        key, val = m["key"].strip(), m["val"]
        if key == "Function Name":
            current = out.setdefault(val, {})
        elif current is not None:
            current[key] = val
    return out

