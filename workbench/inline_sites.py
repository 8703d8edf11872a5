"""Where code inlined from headers was called: per instruction address, the user's source line
that (through any depth of inlining) reached it, and the header's own ``file:line``.

Why: a tile library's code lives in headers; ``llvm-objdump -l`` prints only the innermost
location of each instruction, so an instruction inlined from ``warp.h`` or a user's own
``tile.h`` had no line of the user's file. The code object's line tables carry the whole
inline chain (clang's ``-gline-tables-only`` emits ``DW_TAG_inlined_subroutine`` entries for
symbolization; LLVM docs "llvm-symbolizer", ``--inlining``), which ``llvm-symbolizer
--output-style=JSON`` prints innermost frame first: the first frame in the user's file is the
line that called into the header (a user helper inlined further out keeps its own line).
"""
from __future__ import annotations

import json
import subprocess
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Site:
    """One instruction's origin: ``user_line`` (the user's file, None when no frame is in it)
    and ``header``: the header frames from the user's call inwards, ``"tile.h:40 > sync.h:24"``,
    one per file (a header's calls within itself fold into the line first reached), None when
    the instruction is the user's own code; ``header_file``: the path of the last header in
    that chain, as the line tables name it (where its line's text can be read)."""

    user_line: int | None
    header: str | None
    header_file: str | None = None


def inline_sites(symbolizer: str, elf: Path, addrs: Iterable[int],
                 is_user: Callable[[str], bool]) -> dict[int, Site]:
    """Symbolize ``addrs`` of the code object at ``elf`` with their inline chains; an address
    the line tables do not cover is left out. ``is_user(path)``: whether a file is the user's.

    An empty dict when the symbolizer is missing or fails: the listing then keeps the innermost
    location only, as before.
    """
    todo = sorted(set(addrs))
    if not todo or not Path(symbolizer).exists():
        return {}
    try:
        out = subprocess.run(
            [symbolizer, "--obj", str(elf), "--inlining", "--relative-address",
             "--output-style=JSON"],
            input="\n".join(hex(a) for a in todo), capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return {}
    if out.returncode != 0:
        return {}
    sites: dict[int, Site] = {}
    for line in out.stdout.splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        frames = [f for f in rec.get("Symbol", []) if f.get("FileName") and f.get("Line")]
        if not frames:
            continue
        try:
            addr = int(rec["Address"], 16)
        except (KeyError, TypeError, ValueError):
            continue
        mine = [i for i, f in enumerate(frames) if is_user(f["FileName"])]
        # the innermost frame in the user's file is the line that called into the headers
        inside = frames[:mine[0]] if mine else frames
        chain: list[tuple[str, int]] = []
        path = None
        for f in reversed(inside):  # from the user's call inwards; a file's own inner calls
            name = f["FileName"].rsplit("/", 1)[-1]  # (its helpers) fold into its first line
            if not chain or chain[-1][0] != name:
                chain.append((name, int(f["Line"])))
                path = f["FileName"]
        header = " > ".join(f"{n}:{ln}" for n, ln in chain) or None
        sites[addr] = Site(int(frames[mine[0]]["Line"]) if mine else None, header,
                           path if header else None)
    return sites
