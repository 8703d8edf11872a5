"""The package keeps docs/architecture.md's picture: a layer imports only layers below it, and no
module imports itself back through a cycle.

Layers, bottom to top (docs/architecture.md "The one data flow" and "Rules that keep the picture
simple"):

0. models — pure functions over data: ``arch``, ``occupancy``, ``layouts``, ``lds``, ``timing``,
   plus the data-only helpers they share (``text_table``, ``errors``, ``display``);
1. compiler — ``toolchain``, ``compile_options``, ``codeobject``, ``isa``, ``compiler``,
   ``devlib`` (the device libraries a compile links) and ``layouts.probes`` (it compiles one
   probe kernel per catalog instruction, so it sits above the compiler although it lives next
   to the catalog);
2. emu — the emulator (executes code objects and listings);
3. runtime — devices, ``Kernel`` launches (the emulator is one device);
4. widgets — views over all of the above;
5. front doors — ``magics``, ``cli``, ``doctor``, ``corpus``, ``sweeps`` and the package
   itself (``workbench``: ``import workbench as wb``).

Every ``import`` counts, also those inside functions (a lazy import is still a dependency)
and under ``if TYPE_CHECKING:`` (a type named is a dependency too). No cycle anywhere: not
between modules, and not between the sub-packages and modules of one package (its floors:
``emu``'s ``numerics < machine < decoder < semantics < observers < engine``, say, import one
way). The house rules the house issue set sit here too: no module over ``MAX_LINES`` lines
but those ``LONG_MODULES`` names with a reason, at most ``MAX_EMU_ENTRIES`` entries at the top
of ``workbench/emu/``, and a README of at most ``MAX_README_LINES`` lines (the rest is docs/).
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "workbench"

LAYERS: dict[str, int] = {
    "workbench.arch": 0, "workbench.occupancy": 0, "workbench.layouts": 0, "workbench.lds": 0,
    "workbench.timing": 0, "workbench.text_table": 0, "workbench.errors": 0,
    "workbench.argument_types": 0,
    "workbench.display": 0, "workbench.sweep_rules": 0, "workbench.branches": 0,
    "workbench.toolchain": 1, "workbench.compile_options": 1, "workbench.codeobject": 1,
    "workbench.isa": 1, "workbench.compiler": 1, "workbench.devlib": 1,
    "workbench.prelude": 1, "workbench.prelude_pch": 1, "workbench.compile_diagnostics": 1,
    "workbench.header_deps": 1,
    "workbench.kernel_names": 1, "workbench.clang_ast": 1, "workbench.clang_driver": 1,
    "workbench.kernel_binding": 1,
    "workbench.argument_flow": 1,
    "workbench.lane_gates": 1,
    "workbench.compile_result": 1, "workbench.compile_cache": 1, "workbench.cache_entry": 1,
    "workbench.cache_files": 1, "workbench.amdgpu_elf": 1, "workbench.loader": 1,
    "workbench.layouts.probes": 1, "workbench.inline_sites": 1,
    "workbench.operand_roles": 1, "workbench.pressure": 1, "workbench.matrix_use": 1,
    "workbench.kernel_views": 1,
    "workbench.emu": 2,
    "workbench.runtime": 3,
    "workbench.widgets": 4,
    "workbench.magics": 5, "workbench.cli": 5, "workbench.doctor": 5, "workbench.corpus": 5,
    "workbench.sweeps": 5, "workbench.triton_front": 5, "workbench.wave_front": 5,
    "workbench": 5,
}
NAMES = ["models", "compiler", "emu", "runtime", "widgets", "front doors"]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer(mod: str) -> int:
    """The layer of a module: its longest prefix in LAYERS; a module not placed fails."""
    parts = mod.split(".")
    for n in range(len(parts), 0, -1):
        hit = LAYERS.get(".".join(parts[:n]))
        if hit is not None and (n > 1 or mod == "workbench"):
            return hit
    raise AssertionError(f"{mod} is in no layer: place it in LAYERS (tests/test_layers.py)")


def is_module(mod: str) -> bool:
    p = ROOT.joinpath(*mod.split("."))
    return p.with_suffix(".py").exists() or (p / "__init__.py").exists()


def _type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING")


def imports(path: Path) -> list[tuple[str, int, bool]]:
    """(imported workbench module, line, runs at import time) for every import in a file,
    those inside functions and under ``if TYPE_CHECKING:`` included (not run at import time)."""
    me = module_name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    out: list[tuple[str, int, bool]] = []

    def visit_one(child: ast.AST, eager: bool) -> None:
        if isinstance(child, ast.If) and _type_checking(child):
            for sub in child.body:
                visit_one(sub, False)
            for sub in child.orelse:
                visit_one(sub, eager)
            return
        if isinstance(child, ast.Import):
            out.extend((a.name, child.lineno, eager) for a in child.names
                       if a.name.split(".")[0] == "workbench")
        elif isinstance(child, ast.ImportFrom):
            if child.level:
                base = package.split(".")
                base = base[:len(base) - (child.level - 1)]
                src = ".".join(base + ([child.module] if child.module else []))
            else:
                src = child.module or ""
            if src.split(".")[0] == "workbench":
                for a in child.names:
                    sub = f"{src}.{a.name}"
                    out.append((sub if is_module(sub) else src, child.lineno, eager))
        inner = eager and not isinstance(
            child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        for grand in ast.iter_child_nodes(child):
            visit_one(grand, inner)

    for top in ast.iter_child_nodes(ast.parse(path.read_text(), str(path))):
        visit_one(top, True)
    return out


FILES = sorted(PKG.rglob("*.py"))
GRAPH = {module_name(p): imports(p) for p in FILES}


def test_every_module_has_a_layer():
    for mod in GRAPH:
        layer(mod)


def test_no_module_imports_a_layer_above_its_own():
    bad = []
    for mod, deps in GRAPH.items():
        mine = layer(mod)
        for dep, line, _eager in deps:
            theirs = layer(dep)
            if theirs > mine:
                bad.append(f"{mod} ({NAMES[mine]}) line {line} imports {dep} ({NAMES[theirs]})")
    assert not bad, "upward imports:\n" + "\n".join(bad)


def _cycles(edges: dict[str, set[str]]) -> list[str]:
    """Every back edge of a depth-first walk, as the cycle it closes ("a -> b -> a")."""
    cycles: list[str] = []
    state: dict[str, int] = {}

    def walk(node: str, stack: list[str]) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append(" -> ".join(stack[stack.index(nxt):] + [nxt]))
            elif nxt not in state:
                walk(nxt, stack)
        stack.pop()
        state[node] = 2

    for m in sorted(edges):
        if m not in state:
            walk(m, [])
    return cycles


def _edges() -> dict[str, set[str]]:
    """module -> the workbench modules it imports, lazily and for type checking included."""
    return {m: {d for d, _, _ in deps if d != m and d in GRAPH} for m, deps in GRAPH.items()}


def test_no_import_cycles():
    """No module reaches itself back, counting every import (lazy and TYPE_CHECKING too)."""
    cycles = _cycles(_edges())
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


PACKAGES = sorted(m for m in GRAPH if (ROOT.joinpath(*m.split(".")) / "__init__.py").exists())


def _floors(package: str, edges: dict[str, set[str]]) -> dict[str, set[str]]:
    """A package's direct children (sub-packages and modules) and which import which."""
    def child(m: str) -> str | None:
        if not m.startswith(package + "."):
            return None
        return package + "." + m[len(package) + 1:].split(".")[0]

    out: dict[str, set[str]] = {}
    for m, deps in edges.items():
        a = child(m)
        if a is None:
            continue
        for d in deps:
            b = child(d)
            if b is not None and b != a:
                out.setdefault(a, set()).add(b)
    return out


@pytest.mark.parametrize("package", PACKAGES)
def test_no_circles_between_the_floors_of_a_package(package):
    """Inside each package, its sub-packages and modules import one way (floors, no circles)."""
    cycles = _cycles(_floors(package, _edges()))
    assert not cycles, f"circles inside {package}:\n" + "\n".join(cycles)


def test_the_cycle_walk_sees_a_lazy_and_a_type_only_cycle(monkeypatch):
    """The checker itself: a cycle closed by a function-level import and one closed under
    TYPE_CHECKING are both found, and a floor cycle between two sub-packages too."""
    lazy = {"workbench.a": "def f():\n    from . import b\n",
            "workbench.b": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                           "    from . import a\n"}
    graph = {}
    monkeypatch.setitem(globals(), "is_module", lambda m: True)
    for mod, text in lazy.items():
        monkeypatch.setattr(Path, "read_text", lambda self, *a, _t=text, **k: _t)
        graph[mod] = {d for d, _, _ in imports(PKG / f"{mod.split('.')[1]}.py")}
    assert graph == {"workbench.a": {"workbench.b"}, "workbench.b": {"workbench.a"}}
    assert _cycles(graph) == ["workbench.a -> workbench.b -> workbench.a"]
    floors = _floors("workbench.p", {"workbench.p.x.m": {"workbench.p.y.n"},
                                     "workbench.p.y.n": {"workbench.p.x.k"}})
    assert _cycles(floors) == ["workbench.p.x -> workbench.p.y -> workbench.p.x"]


# The house rules (issue 22): small modules, a findable emulator, a short README.
MAX_LINES = 600
LONG_MODULES: dict[str, str] = {}  # "workbench/x.py": "why it stays long"
MAX_EMU_ENTRIES = 12
MAX_README_LINES = 150


def test_no_module_is_over_the_line_limit():
    long = {str(p.relative_to(ROOT)): n for p in FILES
            if (n := len(p.read_text().splitlines())) > MAX_LINES}
    unexplained = {p: n for p, n in long.items() if p not in LONG_MODULES}
    assert not unexplained, (f"modules over {MAX_LINES} lines (split them, or list them in "
                             f"LONG_MODULES with a reason): {unexplained}")
    stale = set(LONG_MODULES) - set(long)
    assert not stale, f"LONG_MODULES names modules that are no longer long: {stale}"


def test_the_emulator_top_level_is_short():
    entries = sorted(p.name for p in (PKG / "emu").iterdir() if p.name != "__pycache__")
    assert len(entries) <= MAX_EMU_ENTRIES, entries
    for sub in (PKG / "emu").iterdir():
        if sub.is_dir() and sub.name != "__pycache__":
            init = sub / "__init__.py"
            assert init.exists(), f"{sub} is not a package"
            doc = ast.get_docstring(ast.parse(init.read_text()))
            assert doc and len(doc) > 80, f"{init} needs a paragraph saying what the floor holds"


def test_the_readme_is_short():
    n = len((ROOT / "README.md").read_text().splitlines())
    assert n <= MAX_README_LINES, f"README.md has {n} lines (at most {MAX_README_LINES}; "\
                                  "the rest belongs in docs/)"


@pytest.mark.parametrize("source, expect", [
    ("from ..runtime.kernel import Kernel\n", "workbench.emu.x (emu) line 1 imports "
                                              "workbench.runtime.kernel (runtime)"),
    ("def f():\n    from ..widgets import base\n", "line 2 imports workbench.widgets.base"),
])
def test_the_walk_sees_an_upward_import(tmp_path, source, expect, monkeypatch):
    """The checker itself: a planted upward import (also a lazy one) is reported."""
    fake = PKG / "emu" / "x.py"
    monkeypatch.setattr(Path, "read_text", lambda self, *a, **k: source)
    deps = imports(fake)
    mod = module_name(fake)
    msgs = [f"{mod} ({NAMES[layer(mod)]}) line {line} imports {d} ({NAMES[layer(d)]})"
            for d, line, _ in deps if layer(d) > layer(mod)]
    assert msgs and expect in msgs[0]


def _code_strings(path: Path) -> list[tuple[int, str]]:
    """String constants of a file's code (docstrings left out)."""
    tree = ast.parse(path.read_text(), str(path))
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docs.add(id(body[0].value))
    return [(n.lineno, n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs]


def test_the_package_never_reads_tests():
    """No code under workbench/ names the repository's tests/ tree (a path part "tests")."""
    hits = [f"{p.relative_to(ROOT)}:{line}: {s!r}" for p in FILES
            for line, s in _code_strings(p) if "tests" in s.replace("\\", "/").split("/")]
    assert not hits, hits
