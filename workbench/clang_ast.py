"""Reading clang's -ast-dump=json: kernel parameter names and C types, dynamic LDS, variables."""

from __future__ import annotations

import json
import re
from typing import Any


def kernel_params(ast_json: bytes) -> dict[str, dict[str, Any]]:
    """Per kernel (by mangled and plain name): parameter names and C types from clang's AST."""
    # A filtered dump is a sequence of JSON documents, one per matching declaration.
    text = ast_json.decode("utf-8", "replace") if isinstance(ast_json, bytes) else ast_json
    dec, pos, docs = json.JSONDecoder(), 0, []
    while True:
        while pos < len(text) and text[pos] != "{":
            pos += 1
        if pos >= len(text):
            break
        try:
            doc, pos = dec.raw_decode(text, pos)
        except ValueError:
            break
        docs.append(doc)
    out: dict[str, dict[str, Any]] = {}
    stack = docs
    while stack:
        node = stack.pop()
        inner = node.get("inner") or ()
        if node.get("kind") in ("FunctionDecl", "CXXMethodDecl") and any(
            c.get("kind") == "CUDAGlobalAttr" for c in inner
        ):
            params = [
                (c.get("name", f"arg{i}"), c["type"].get("qualType", ""),
                 c["type"].get("desugaredQualType", c["type"].get("qualType", "")))
                for i, c in enumerate(x for x in inner if x.get("kind") == "ParmVarDecl")
            ]
            rec = {"name": node.get("name", ""), "params": params,
                   "dynamic_shared": _dynamic_shared(node)}
            if node.get("mangledName"):
                out[node["mangledName"]] = rec
            out.setdefault(node.get("name", ""), rec)
        else:
            stack.extend(inner)
    return out


def _dynamic_shared(kernel: dict) -> tuple[str, ...]:
    """Names of the extern __shared__ arrays (dynamic LDS) a kernel's body declares or uses.

    An ``extern __shared__ T x[]`` (HIP_DYNAMIC_SHARED) has an incomplete array type ``T[]``;
    device code can only name such a variable when it is dynamic LDS (an extern ``__device__``
    array would not link without -fgpu-rdc). Uses inside called device functions are not seen
    (their bodies are not in the kernel's AST).
    """
    names: set[str] = set()
    stack = list(kernel.get("inner") or ())
    while stack:
        n = stack.pop()
        kind = n.get("kind")
        if kind == "VarDecl" and n.get("storageClass") == "extern" and any(
                c.get("kind") == "CUDASharedAttr" for c in n.get("inner") or ()):
            names.add(n.get("name", "?"))
        elif kind == "DeclRefExpr":
            ref = n.get("referencedDecl") or {}
            if ref.get("kind") == "VarDecl" and (ref.get("type") or {}).get(
                    "qualType", "").endswith("[]"):
                names.add(ref.get("name", "?"))
        stack.extend(n.get("inner") or ())
    return tuple(sorted(names))


_QUALS = ("const", "volatile", "__restrict", "__restrict__", "restrict")


def pointee(ctype: str) -> tuple[str | None, bool]:
    """(unqualified pointee type, is_const) for a pointer C type, else (None, False)."""
    t = ctype.strip()
    if not t.endswith("*") and not re.search(r"\*\s*(__restrict|const|volatile)\s*$", t):
        return None, False
    t = re.sub(r"\*\s*(?:__restrict|const|volatile|\s)*$", "", t).strip()
    if "*" in t:  # pointer to pointer: pass through as an opaque 64-bit value
        return t, False
    words = t.split()
    is_const = "const" in words
    base = " ".join(w for w in words if w not in _QUALS)
    return base, is_const


def variable_type(ast_json: bytes, base: str) -> str | None:
    """The (desugared) C type of the __device__/__constant__ variable ``base`` in a filtered
    AST dump, e.g. ``float[4]``."""
    text = ast_json.decode("utf-8", "replace") if isinstance(ast_json, bytes) else ast_json
    dec, pos = json.JSONDecoder(), 0
    while True:
        pos = text.find("{", pos)
        if pos < 0:
            return None
        try:
            doc, pos = dec.raw_decode(text, pos)
        except ValueError:
            return None
        stack = [doc]
        while stack:
            n = stack.pop()
            if n.get("kind") == "VarDecl" and n.get("name") == base and any(
                    c.get("kind") in ("CUDADeviceAttr", "CUDAConstantAttr")
                    for c in n.get("inner") or ()):
                t = n.get("type") or {}
                return t.get("desugaredQualType") or t.get("qualType")
            stack.extend(n.get("inner") or ())


# clang -Xclang -fdump-record-layouts-canonical: each laid-out record as clang's own ABI layout,
#          0 | struct hk::Args
#          0 |   const float * x
#         24 |   struct hk::Dims d
#         24 |     int m
#            | [sizeof=48, dsize=48, align=8,
_LAYOUT_ROW = re.compile(r"^\s*(\S*) \|( *)(.*)$")
_LAYOUT_SIZE = re.compile(r"\[sizeof=(\d+),.*?align=(\d+)")


def record_layouts(text: str) -> dict[str, dict[str, Any]]:
    """Records in a ``-fdump-record-layouts-canonical`` dump, by qualified name (``struct ``
    dropped): ``{"kind", "size", "align", "fields": [{"name", "ctype", "offset", "depth",
    "bits"}]}``. ``fields`` lists every row under the record in order, nested records' rows
    included (``depth`` 1: the record's own fields; a base class row is named ``(base)``;
    ``bits`` is True for a bit-field; clang's `` (empty)`` mark on an empty record is dropped
    from names and kept as ``"empty"``)."""
    out: dict[str, dict[str, Any]] = {}
    for block in text.split("*** Dumping AST Record Layout")[1:]:
        rec: dict[str, Any] | None = None
        for row in block.split("\n*** ", 1)[0].splitlines():
            m = _LAYOUT_ROW.match(row)
            if m is None:
                continue
            off, indent, body = m.group(1), len(m.group(2)) - 1, m.group(3).strip()
            empty = body.endswith(" (empty)")
            body = body.removesuffix(" (empty)")
            size = _LAYOUT_SIZE.search(body)
            if size is not None:
                if rec is not None:
                    rec["size"], rec["align"] = int(size.group(1)), int(size.group(2))
                continue
            if not off or not off[0].isdigit():
                continue
            if rec is None:
                kind, _, name = body.partition(" ")
                if kind not in ("struct", "class", "union"):
                    kind, name = "struct", body
                rec = out[name] = {"kind": kind, "size": None, "align": None, "fields": [],
                                   "empty": empty}
                continue
            ctype, _, fname = body.rpartition(" ")
            rec["fields"].append({"name": fname, "ctype": ctype.strip(),
                                  "offset": int(off.split(":")[0]), "depth": indent // 2,
                                  "bits": ":" in off, "empty": empty})
    return out
