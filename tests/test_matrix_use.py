"""kernel.matrix_instructions(): the MFMA/WMMA mnemonics of a kernel's ISA, counted and looked up
in the layout catalog (what a tl.dot or an MFMA builtin became)."""

import pytest

import workbench as wb
from workbench.errors import ArgumentKeyError
from workbench.isa import Instruction, Listing
from workbench.matrix_use import matrix_uses

SRC = r'''
typedef _Float16 h4 __attribute__((ext_vector_type(4)));
typedef float f4 __attribute__((ext_vector_type(4)));
__global__ void k(const h4* a, const h4* b, f4* c) {
  int t = threadIdx.x;
  f4 acc = {0, 0, 0, 0};
  acc = __builtin_amdgcn_mfma_f32_16x16x16f16(a[t], b[t], acc, 0, 0, 0);
  acc = __builtin_amdgcn_mfma_f32_16x16x16f16(a[t + 64], b[t + 64], acc, 0, 0, 0);
  c[t] = acc;
}
'''


@pytest.fixture(scope="module")
def module():
    return wb.compile(SRC, arch="gfx942,gfx950")


@pytest.mark.parametrize("arch", ["gfx942", "gfx950"])
def test_a_builtin_becomes_its_mfma_with_the_catalog_layouts(module, arch):
    uses = module.k.matrix_instructions(arch)
    assert [(u.mnemonic, u.count) for u in uses] == [("v_mfma_f32_16x16x16_f16", 2)]
    ins = uses[0]
    assert ins is wb.matrix_instruction("v_mfma_f32_16x16x16_f16", arch)
    assert (ins.A.regs, ins.B.regs, ins.C.regs) == (2, 2, 4)
    assert uses["v_mfma_f32_16x16x16_f16"] is ins
    assert uses.uses[0].lines == (7, 8)  # the two builtin calls' lines
    text = str(uses)
    assert "16x16x16" in text and "f16 x f16 -> f32" in text and "2 / 2 / 4" in text
    assert uses.summary() == f"k on {arch}: 2 x v_mfma_f32_16x16x16_f16"


def test_an_unknown_mnemonic_is_named(module):
    uses = module.k.matrix_instructions()
    with pytest.raises(ArgumentKeyError, match="uses no v_mfma_f32_32x32x8_f16; it uses "
                                               "v_mfma_f32_16x16x16_f16"):
        uses["v_mfma_f32_32x32x8_f16"]


def test_a_kernel_without_matrix_instructions_says_so():
    m = wb.compile("__global__ void z(float* p) { p[0] = 1; }", arch="gfx942")
    uses = m.z.matrix_instructions()
    assert len(uses) == 0
    assert uses.summary() == "z on gfx942 uses no matrix instruction (MFMA/WMMA)"


def _ins(addr, mnemonic, *ops, line=None):
    return Instruction(addr, mnemonic, ops, (0, 0), line, f"{mnemonic} {', '.join(ops)}",
                       n_regs=sum(":" not in o for o in ops))


def test_f8f6f4_formats_come_from_cbsz_and_blgp_and_uncatalogued_stay_visible():
    listing = Listing("k", [
        _ins(0, "v_mfma_f32_16x16x128_f8f6f4", "v[0:3]", "v[4:11]", "v[12:19]", "v[0:3]",
             "cbsz:1", "blgp:0", line=3),
        _ins(8, "v_mfma_f32_16x16x128_f8f6f4", "v[0:3]", "v[4:11]", "v[12:19]", "v[0:3]",
             line=4),
        _ins(16, "v_mfma_f32_99x99x99_f16", "v[0:3]", "v[4:5]", "v[6:7]", "v[0:3]"),
    ])
    uses = matrix_uses(listing, "gfx950")
    by = {(u.mnemonic, u.formats): u for u in uses}
    bf8 = by[("v_mfma_f32_16x16x128_f8f6f4", (1, 0))].instruction
    fp8 = by[("v_mfma_f32_16x16x128_f8f6f4", (0, 0))].instruction
    assert (bf8.a_type, bf8.b_type) != (fp8.a_type, fp8.b_type)  # CBSZ=1: A is bf8
    unknown = by[("v_mfma_f32_99x99x99_f16", (0, 0))]
    assert unknown.instruction is None and unknown.shape == "?"
    assert "not catalogued" in str(uses)
    with pytest.raises(ArgumentKeyError, match="not in hipwb's layout catalog for gfx950"):
        uses["v_mfma_f32_99x99x99_f16"]
