"""The ISA listing parser (workbench.isa) on real code objects, and the ISA view over it."""

from __future__ import annotations

import numpy as np
import pytest

import workbench as wb
from workbench import compiler
from workbench.isa import branch_labels, category, labelled_text, parse_operands
from workbench.widgets.isa_view import IsaView, ordered_mix

CELL = """%%hipkernel --arch gfx942,gfx1100
extern "C" __global__ void add(const float* x, const float* y, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = x[i] + y[i];
}
"""
BODY = CELL.split("\n", 1)[1]


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    mp.setenv("HIPWB_CACHE_DIR", str(tmp_path_factory.mktemp("hipwb-cache-isa")))
    try:
        yield wb.compile(BODY, ["gfx942", "gfx1100"], filename="cell", first_line=2)
    finally:
        mp.undo()
        compiler.clear_cache(memory_only=True)


@pytest.mark.parametrize("text, ops, n_regs", [
    ("v0, s2, v0", ("v0", "s2", "v0"), 3),
    ("v[0:1], v2, s[0:1] offset:16 glc", ("v[0:1]", "v2", "s[0:1]", "offset:16", "glc"), 3),
    ("vmcnt(0) lgkmcnt(0)", ("vmcnt(0)", "lgkmcnt(0)"), 2),
    ("a[0:3], v0, v1, a[0:3] cbsz:1 abid:2 blgp:3",
     ("a[0:3]", "v0", "v1", "a[0:3]", "cbsz:1", "abid:2", "blgp:3"), 4),
    ("s[30:31]", ("s[30:31]",), 1),
    ("", (), 0),
])
def test_parse_operands_splits_operands_and_modifiers(text, ops, n_regs):
    assert parse_operands(text) == (ops, n_regs)


@pytest.mark.parametrize("mnemonic, cat", [
    ("v_mfma_f32_16x16x16_bf16", "MFMA"), ("v_wmma_f32_16x16x16_f16", "WMMA"),
    ("ds_read_b128", "LDS"), ("s_waitcnt", "waitcnt"), ("global_load_dword", "VMEM"),
    ("s_load_dwordx2", "SMEM"), ("scratch_store_dword", "scratch"), ("s_mul_i32", "SALU"),
    ("v_add_f32_e32", "VALU"), ("s_cbranch_execz", "branch"), ("s_endpgm", "control"),
])
def test_category(mnemonic, cat):
    assert category(mnemonic) == cat


@pytest.mark.parametrize("arch", ["gfx942", "gfx1100"])
def test_listing_is_contiguous_ends_at_s_endpgm_and_cites_cell_lines(module, arch):
    lst = module[arch].listing("add")
    ins = lst.instructions
    assert ins[-1].mnemonic == "s_endpgm"  # padding (s_nop / s_code_end) dropped
    assert not any(i.mnemonic == "s_code_end" for i in ins)
    for a, b in zip(ins, ins[1:]):
        assert b.addr == a.addr + a.size
    assert {i.source_line for i in ins if i.source_line is not None} <= {3, 4, 5}
    adds = [i for i in ins if i.mnemonic.startswith("v_add_f32")]
    assert len(adds) == 1 and adds[0].source_line == 4  # `out[i] = x[i] + y[i]` is cell line 4
    stores = [i for i in ins if i.mnemonic.startswith("global_store")]
    assert len(stores) == 1 and stores[0].operands[-1] == "off"
    mix = lst.mix()
    assert sum(mix.values()) == len(lst)
    assert mix["VMEM"] == 3  # two loads and one store


def test_listing_text_interleaves_the_cell_source(module):
    text = module["gfx942"].listing("add").text(CELL)
    assert "; line 4:  if (i < n) out[i] = x[i] + y[i];" in text
    assert "; line 3:  int i = blockIdx.x * blockDim.x + threadIdx.x;" in text
    assert text.index("; line 3:") < text.index("; line 4:")


def test_isa_view_text_and_html(module):
    lst = module["gfx942"].listing("add")
    view = IsaView(lst, CELL, title="add gfx942")
    text = view.text()
    assert text.startswith(f"ISA add gfx942: {len(lst)} instructions (VALU ")
    assert repr(view) == text
    html = view.html()
    assert "<details><summary>ISA add gfx942" in html
    assert '<span class="src">; line 4: if (i &lt; n) out[i] = x[i] + y[i];</span>' in html
    assert html.count("<tr>") == len(lst.mix()) + 1  # mix table: header + one row per unit
    assert IsaView(lst, CELL, open=True).html_fragment().startswith("<details open>")


def test_ordered_mix_is_stable():
    from collections import Counter

    mix = Counter({"SMEM": 2, "VALU": 5, "zeta": 1, "alpha": 1, "other": 3})
    assert ordered_mix(mix) == [("VALU", 5), ("SMEM", 2), ("other", 3), ("alpha", 1),
                                ("zeta", 1)]


def test_isa_view_of_a_kernel_uses_its_own_source_lines(module):
    from workbench.runtime.kernel import Kernel
    from workbench.widgets.isa_view import isa_view

    view = isa_view(Kernel(module, "add"), "gfx1100")
    assert view.title == "add gfx1100" and view.open
    assert "; line 4: if (i < n) out[i] = x[i] + y[i];" in view.text()
    assert view.listing.instructions == module["gfx1100"].listing("add").instructions
    # Instructions inlined from a header sit under the user's line that called into it, with
    # the header's file:line (tests/test_inline_sites.py has the details).
    headers = {(i.source_line, i.header) for i in view.listing if i.header}
    assert headers  # threadIdx & co. come from the prelude
    for line, h in headers:
        assert line and h.startswith("coordinates.h:")
        assert f"[inlined from {h}]" in view.text()


CALLS = """
__device__ __attribute__((noinline)) int twice(int v) { return 2 * v; }
__device__ __attribute__((noinline)) int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
__global__ void calls(int* out) { out[threadIdx.x] = twice(threadIdx.x) + fact(5); }
__global__ void plain(int* out) { out[threadIdx.x] = 1; }
"""


@pytest.mark.parametrize("arch", ["gfx942", "gfx1100", "gfx1201"])
def test_listing_of_a_kernel_with_calls_holds_its_callees(arch):
    """Non-inlined device functions run as real calls (s_swappc_b64): the kernel's listing
    (ISA view and emulator input) continues with each function it calls, recursion included,
    and a kernel that calls nothing gets none of them."""
    m = wb.compile(CALLS, arch)
    listing = m.calls.isa_for(arch)
    assert sorted(listing.callees.values()) == ["_Z4facti", "_Z5twicei"]
    assert "; called function _Z4facti:" in str(listing)
    starts = {i.addr for i in listing}
    assert set(listing.callees) <= starts
    assert m.plain.isa_for(arch).callees == {}
    out = np.zeros(64, np.int32)
    m.calls.on(f"emulator:{arch}")[1, 64](out)
    np.testing.assert_array_equal(out, 2 * np.arange(64) + 120)


LOOP = """
extern "C" __global__ void loop(float* x, int n) {
    float s = 0;
    for (int i = 0; i < n; ++i) s += x[i] * x[i + 1];
    x[threadIdx.x] = s;
}
"""


@pytest.mark.parametrize("arch", ["gfx942", "gfx1100"])
def test_branches_show_labels_at_their_targets(arch):
    """A loop's back edge prints as ``s_cbranch_* L<n>`` and ``L<n>:`` stands right above the
    instruction at PC + 4 + SIMM16 * 4 (SOPP encoding), the address objdump's ``<loop+0x..>``
    comment names too; source lines stay interleaved; Instruction.text keeps objdump's raw
    operand for the emulator and the timing model."""
    lst = wb.compile(LOOP, arch).loop.isa_for(arch)
    labels = lst.labels()
    branches = [i for i in lst if i.mnemonic.startswith("s_cbranch_")]
    assert branches and labels
    start = lst.instructions[0].addr
    back = 0
    for br in branches:
        simm = int(br.text.split()[1]) & 0xFFFF
        target = br.addr + 4 + 4 * (simm - 0x10000 if simm & 0x8000 else simm)
        sym, _, off = br.target.partition("+")
        assert (sym, start + int(off, 16)) == ("loop", target)  # objdump's <loop+0x..> agrees
        assert lst.shown(br, labels) == f"{br.mnemonic} {labels[target]}"
        back += target < br.addr
    assert back == 1  # the loop's back edge
    # the same labels for any instruction sequence (the timing model's listing, say)
    assert branch_labels(list(lst)) == labels
    assert [labelled_text(b, labels) for b in branches] == [lst.shown(b) for b in branches]
    rows = lst.rows()
    for k, (kind, text) in enumerate(rows):
        if kind == "label":
            addr = next(a for a, name in labels.items() if f"{name}:" == text)
            nxt = next(t for kd, t in rows[k + 1:] if kd == "ins")
            assert nxt == lst.shown(lst.at(addr), labels)
    text = lst.text(with_addresses=True)
    for addr, name in labels.items():
        below = text.split(f"\n{name}:\n", 1)[1].split("\n", 1)[0]
        assert below.startswith(f"{addr:6x}  "), (name, below)
    assert "; line 4:" in text and "; line 5:" in text
    assert not any(t.split()[-1].isdigit() for kd, t in rows
                   if kd == "ins" and t.startswith("s_cbranch"))
    view = IsaView(lst, "\n" + LOOP)
    vt = view.text()
    assert all(f"\n{name}:\n" in vt for name in labels.values())
    assert f"    {lst.shown(branches[-1], labels)}" in vt
    html = view.html()
    assert all('<span class="label" style="' in html and f">{name}:</span>" in html
               for name in labels.values())
    assert all(i.text.split()[1] == i.regs[0] and i.regs[0].isdigit() for i in branches)
