"""Kernel names: demangling, the qualified/readable/Python names, and the source-name scans."""

from __future__ import annotations

import re
import subprocess

from . import toolchain as _tc
from .codeobject import KernelInfo


def spellings(k: KernelInfo) -> tuple[str, ...]:
    """Whitespace-free demangled spellings of a kernel: full, without parameters, readable."""
    if not k.demangled:
        return ()
    return tuple("".join(x.split()) for x in (k.demangled, qualified_name(k.demangled),
                                               readable_name(k.demangled)))


def demangle(symbols) -> dict[str, str]:
    """Itanium-mangled symbols -> their demangled C++ names (llvm-cxxfilt, one call)."""
    mangled = sorted({s for s in symbols if s.startswith("_Z")})
    if not mangled:
        return {}
    out = subprocess.run([_tc.find_toolchain().tool("llvm-cxxfilt")], input="\n".join(mangled),
                         capture_output=True, text=True)
    lines = out.stdout.splitlines()
    return dict(zip(mangled, lines)) if len(lines) == len(mangled) else {}


def _split_top(text: str, sep: str) -> list[str]:
    """``text`` split at ``sep`` outside <...> and (...)."""
    parts, depth, cur, i = [], 0, "", 0
    while i < len(text):
        c = text[i]
        if c in "<(":
            depth += 1
        elif c in ">)":
            depth -= 1
        if depth == 0 and text.startswith(sep, i):
            parts.append(cur)
            cur, i = "", i + len(sep)
            continue
        cur += c
        i += 1
    return [*parts, cur]


def qualified_name(demangled: str) -> str:
    """A demangled function name without its parameter list (and return type)."""
    depth = 0
    for i, c in enumerate(demangled):
        if c in "<":
            depth += 1
        elif c in ">":
            depth -= 1
        elif c == "(" and depth == 0 and i > 0:
            head = demangled[:i]
            # template functions print their return type first: "void scale<float>(...)"
            return _split_top(head, " ")[-1]
    return demangled


def readable_name(demangled: str) -> str:
    """The short readable form of a kernel's demangled name: namespaces dropped, the class
    template it is a member of kept (``kernel_gemm_impl<0, 16>::kernel``), casts of template
    arguments dropped (``(rocm_wmma_gemm::m_layout)0`` -> ``0``)."""
    parts = _split_top(qualified_name(demangled), "::")
    keep = len(parts) - 1
    while keep > 0 and "<" in parts[keep - 1]:
        keep -= 1
    short = "::".join(parts[keep:])
    short = re.sub(r"\((?:[\w:]+\s*)+\)(?=-?\w)", "", short)  # (ns::enum)0 -> 0
    return re.sub(r"\b(?:\w+::)+(?=\w)", "", short)  # ns::T -> T inside template args


def python_names(raws, params, demangled: dict[str, str]) -> dict[str, str]:
    """Symbol -> Python identifier: the source name, or for clashing template instances the
    readable demangled name with its template arguments (``scale<float>`` -> ``scale_float``,
    a static member of a class template -> ``kernel_gemm_impl_0_16_kernel``)."""
    base = {}
    for raw in raws:
        ast = params.get(raw.symbol) or params.get(raw.meta[".name"]) or {}
        dem = demangled.get(raw.symbol)
        fallback = _split_top(qualified_name(dem), "::")[-1].split("<")[0] if dem else raw.symbol
        base[raw.symbol] = ast.get("name") or fallback
    clash = {s for s in base if list(base.values()).count(base[s]) > 1}
    for sym in clash:
        if sym in demangled:
            base[sym] = readable_name(demangled[sym])
    # overloads (`k(float*)` and `k(double*)`) still share a name: add their parameter types
    # (before, the second silently replaced the first in the module's kernel table)
    clash = {s for s in base if list(base.values()).count(base[s]) > 1}
    for sym in clash:
        dem = demangled.get(sym, "")
        i = dem.find("(", len(qualified_name(dem))) if dem else -1
        if i >= 0:
            base[sym] += "_" + dem[i:].replace("*", "_ptr")
    names = {s: identifier(n) for s, n in base.items()}
    # what the spelling rule still maps together (k<a_b> and k<a, b>) is told apart by order
    taken: dict[str, int] = {}
    for sym in sorted(names):
        n = names[sym]
        taken[n] = taken.get(n, 0) + 1
        if taken[n] > 1:
            names[sym] = f"{n}_{taken[n]}"
    return names


def identifier(name: str) -> str:
    """A readable C++ kernel name as a Python identifier that keeps distinct names distinct:
    a minus before a number is ``m`` (``k<-1, 2>`` -> ``k_m1_2``, never ``k<1, 2>``'s
    ``k_1_2``), a decimal point ``p``, ``*`` ``ptr``, ``&`` ``ref``; any other run of
    characters that cannot stand in an identifier is one ``_``."""
    n = re.sub(r"-(?=\d)", "_m", name)
    n = re.sub(r"(?<=\d)\.(?=\d)", "p", n)
    n = n.replace("*", "_ptr").replace("&", "_ref")
    n = re.sub(r"_+", "_", re.sub(r"\W", "_", n)).strip("_") or "kernel"
    return f"k_{n}" if n[0].isdigit() else n


_ATTR_RE = re.compile(r"__launch_bounds__\s*\([^()]*\)|__attribute__\s*\(\(.*?\)\)", re.S)
_KERNEL_RE = re.compile(r"\b__global__\b[^;{}()]*?\b([A-Za-z_]\w*)\s*(?:<[^;{}()]*>\s*)?\(")


def guess_kernel_names(text: str) -> list[str]:
    """Names of ``__global__`` functions as written in the source (a fast pre-scan).

    Used only to start filtered AST dumps while clang compiles; kernels it misses are looked
    up afterwards by their real names, so a wrong guess costs time, never correctness.
    """
    body = _ATTR_RE.sub(" ", re.sub(r"//[^\n]*|/\*.*?\*/", " ", text, flags=re.S))
    return list(dict.fromkeys(_KERNEL_RE.findall(body)))[:8]


def ast_filter_name(raw) -> str:
    """The source name of a kernel for clang's -ast-dump-filter (demangled base name)."""
    name = raw.meta[".name"]
    m = re.match(r"_Z(?:N\d*)?(\d+)", name)
    if m and name.startswith("_Z"):
        start = m.end()
        return name[start : start + int(m.group(1))]
    return name


# C types as llvm-cxxfilt spells them -> as clang's AST (and the launch's type table) does
_DEMANGLED_TYPES = {"std::bfloat16_t": "__bf16", "std::float16_t": "_Float16"}


def demangled_params(demangled: str) -> list[str] | None:
    """The C types of a kernel's parameters from its demangled name (Itanium mangling keeps
    them, typedefs resolved), spelled as clang prints types: ``float const*`` -> ``const float
    *``, ``__hipwb_vec<float, 4u>`` -> ``__hipwb_vec<float, 4>``; None for a name without a
    parameter list (an ``extern "C"`` kernel: its code object does not record its types)."""
    head = qualified_name(demangled)
    i = demangled.find("(", len(head)) if demangled else -1
    if i < 0 or not demangled.endswith(")"):
        return None
    inner = demangled[i + 1:-1].strip()
    if inner in ("", "void"):
        return []
    out = []
    for t in _split_top(inner, ","):
        t = re.sub(r"(?<=\d)u\b", "", t.strip())  # template arguments: 4u -> 4
        t = _DEMANGLED_TYPES.get(t, t)
        m = re.fullmatch(r"(.+?)\s+const\s*(\*+)(.*)", t)  # float const* -> const float *
        if m:
            t = f"const {m[1]} {m[2]}{m[3]}"
        t = re.sub(r"(?<=[\w>])\s*\*", " *", t, count=1)  # float* -> float *
        out.append(t)
    return out
