"""Code inlined from headers keeps a source line: every ISA row and every finding names the
user's line that called into the header and the header's own ``file:line``.

Why: most of a tile library's code lives in headers; before, such instructions showed
``line ?`` in the ISA view, the conflict table and fault messages.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import workbench as wb
from workbench.emu import KernelFault

HERE = Path(__file__).parent / "kernels" / "inline"
SRC = '''#include "tile.h"
__device__ float helper(float v) {
  return sqrtf(v) + 1.0f;
}
extern "C" __global__ void k(float* a, int n) {
  __shared__ float t[64 * 32];
  int i = threadIdx.x;
  float v = helper(a[i]);
  v = stage(t, i, v);
  a[i < n ? i : 4096] = v;
}
'''


@pytest.fixture(scope="module")
def mod():
    return wb.compile(SRC, arch="gfx942", include_dirs=[str(HERE)])


def test_isa_rows_of_header_code_name_the_calling_line_and_the_header(mod):
    lst = mod.isa("k")
    ds = [i for i in lst if i.mnemonic.startswith("ds_")]
    assert ds and all(i.source_line == 9 for i in ds), [(i.text, i.source_line) for i in ds]
    assert {i.header for i in ds} == {"tile.h:5", "tile.h:7"}
    # the prelude's own headers count as headers too: threadIdx.x (coordinates.h) on line 7
    tid = [i for i in lst if i.header and i.header.startswith("coordinates.h")]
    assert tid and all(i.source_line == 7 for i in tid)
    # the barrier is reached through tile.h:6 into the prelude's sync.h: the whole chain
    bar = next(i for i in lst if i.mnemonic == "s_barrier")
    assert bar.source_line == 9 and bar.header.startswith("tile.h:6 > sync.h:")
    # no instruction is left without a line of the user's file
    assert all(i.source_line for i in lst), [i.text for i in lst if not i.source_line]
    text = lst.text()
    assert "; line 9:  v = stage(t, i, v);  [inlined from tile.h:5]" in text


def test_the_user_helper_keeps_its_own_line(mod):
    """A __device__ function in the cell, inlined into the kernel, keeps its line (3); the
    sqrtf it calls is the prelude's math.h reached from line 3, not from the kernel's line 8."""
    line3 = [i for i in mod.isa("k") if i.source_line == 3]
    own = [i for i in line3 if i.header is None]
    sqrt = [i for i in line3 if i.header]
    assert own and sqrt and {i.header.split(":")[0] for i in sqrt} == {"math.h"}


def test_conflict_table_names_the_call_site_and_the_header(mod):
    a = np.ones(64, np.float32)
    tr = mod["k"].trace[1, 64](a, np.int32(64))
    rep = wb.trace_conflicts(tr, source=mod["k"])
    wheres = sorted(i.where() for i in rep.instructions)
    assert wheres == ["9 (tile.h:5)", "9 (tile.h:7)"], wheres
    assert "v = stage(t, i, v);" in rep.text()


def test_a_fault_and_a_check_finding_name_both(mod):
    a = np.ones(64, np.float32)
    with pytest.raises(KernelFault, match=r"source line 10\b"):
        mod["k"][1, 64](a, np.int32(8))
    rep = mod["k"].check[1, 64](a, np.int32(64))
    # a clean kernel: the header's barrier orders the LDS accesses
    assert not rep.findings, rep.text()


def test_without_a_symbolizer_the_listing_is_as_before(monkeypatch, tmp_path):
    """No llvm-symbolizer (an LLVM install without it): header code keeps its file only."""
    from workbench.inline_sites import inline_sites

    assert inline_sites(str(tmp_path / "llvm-symbolizer"), tmp_path / "x", [0x100],
                        lambda f: True) == {}


def test_a_code_object_read_where_there_is_no_llvm(mod, monkeypatch):
    """A Module carried (pickled, with its listing) to a machine without LLVM — the GPU side of
    the launch guard — still gives its listing: header code then has no calling line."""
    import copy
    import pickle

    from workbench import toolchain

    co = mod["gfx942"]
    co.disassembly()
    carried = pickle.loads(pickle.dumps(copy.copy(co)))
    carried._site_memo = {}

    def no_llvm(*a, **k):
        raise toolchain.ToolchainError("No usable LLVM toolchain (test: none on this machine)")

    monkeypatch.setattr(toolchain, "find_toolchain", no_llvm)
    lst = carried.listing("k")
    assert len(lst) == len(mod.isa("k"))
    assert all(i.header is None for i in lst)
    assert any(i.source_line is None and i.source_file == "tile.h" for i in lst)
