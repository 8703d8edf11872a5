"""RDNA-only emulator semantics: DPP8, row_xmask/row_share, v_permlane16/x16 (wave32 and
wave64, gfx1100 and gfx1201), VOPD reading sources before writing, WMMA's replica check, the
encoding-length rule of the GFX11/GFX12 formats, and the gfx1150+/GFX12 SALU float compares and
GFX12 s_addk_co_i32."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import workbench as wb
from workbench.emu.decoder.rdna import encoded_words, rename

KDIR = Path(__file__).parents[1] / "kernels" / "emu"


@pytest.mark.parametrize("arch", ["gfx1100", "gfx1201"])
@pytest.mark.parametrize("wave64", [False, True])
def test_lane_exchange(arch, wave64):
    mod = wb.compile((KDIR / "rdna_lanes.hip").read_text(), arch,
                     ["-mwavefrontsize64"] if wave64 else [])
    x = np.arange(64, dtype=np.int32) * 3 + 1
    o = np.zeros(6 * 64, np.int32)
    mod.dpp_rdna.on(f"emulator:{arch}")[1, 64](x, o)
    o = o.reshape(6, 64)
    ln = np.arange(64)
    hexes = lambda s: np.array([int(h, 16) for h in s])  # noqa: E731
    want = [x[(ln & ~7) + 7 - (ln & 7)],  # dpp8:[7,6,5,4,3,2,1,0]
            x[ln // 16 * 16 + (ln % 16 ^ 3)],  # row_xmask:3
            x[ln // 16 * 16 + 5],  # row_share:5
            x[ln // 16 * 16 + hexes("0123456789abcdef")[ln % 16]],  # permlane16, identity
            x[(ln // 16 ^ 1) * 16 + hexes("76543210fedcba98")[ln % 16]],  # permlanex16
            np.where(ln % 16 >= 1, x[np.maximum(ln - 1, 0)], 0) + 1]  # row_shr:1, bound 0
    for i, w in enumerate(want):
        np.testing.assert_array_equal(o[i], w, err_msg=f"row {i}")
    isa = {i.mnemonic for i in mod.dpp_rdna.isa_for(arch)}
    assert {"v_permlane16_b32", "v_permlanex16_b32", "v_mov_b32_dpp"} <= isa


VOPD_SWAP = r"""
extern "C" __global__ void swap(float* x) {
  float a = x[threadIdx.x], b = x[64 + threadIdx.x];
  asm volatile("v_dual_mov_b32 %0, %1 :: v_dual_mov_b32 %1, %0" : "+v"(a), "+v"(b));
  x[threadIdx.x] = a; x[64 + threadIdx.x] = b;
}
"""


def test_vopd_reads_both_sources_before_writing():
    """A VOPD pair whose halves read each other's destination swaps (RDNA3 ISA "VOPD")."""
    k = wb.compile(VOPD_SWAP, "gfx1100").swap
    assert any(i.dual for i in k.isa_for("gfx1100"))
    x = np.arange(128, dtype=np.float32)
    k.on("emulator:gfx1100")[1, 32](x)
    np.testing.assert_array_equal(x[:32], np.arange(64, 96))
    np.testing.assert_array_equal(x[64:96], np.arange(32))


WMMA_HALF = r"""
typedef _Float16 h16 __attribute__((ext_vector_type(16)));
typedef float f8 __attribute__((ext_vector_type(8)));
extern "C" __global__ void wmma_half(const _Float16* a, float* c) {
  h16 v;
  for (int k = 0; k < 16; ++k) v[k] = a[threadIdx.x * 16 + k];  // copies in lanes i, i+16 differ
  f8 d = __builtin_amdgcn_wmma_f32_16x16x16_f16_w32(v, v, (f8){});
  for (int i = 0; i < 8; ++i) c[threadIdx.x * 8 + i] = d[i];
}
"""


def test_rdna3_wmma_refuses_unreplicated_operands():
    k = wb.compile(WMMA_HALF, "gfx1100").wmma_half
    a = np.arange(32 * 16, dtype=np.float16)
    with pytest.raises(Exception, match="lane copies of A differ"):
        k.on("emulator:gfx1100")[1, 32](a, np.zeros(256, np.float32))


def test_gfx11_gfx12_lengths_and_renames():
    # first dwords with the format bits of a VOPD fmaak (K literal), GFX12 VGLOBAL, GFX11 FLAT;
    # v_permlane16_b32 and s_load_b32 as llvm-objdump 22 prints them (tests/kernels/emu)
    assert encoded_words("v_dual_fmaak_f32", (0xC8420000, 0, 0), 11) == ("VOPD", 3)
    assert encoded_words("global_load_b32", (0xEE050000, 0, 0), 12) == ("FLAT", 3)
    assert encoded_words("global_load_b32", (0xDC520000, 0), 11) == ("FLAT", 2)
    assert encoded_words("v_permlane16_b32", (0xD65B0006, 0x03FC0106, 0xFEDCBA98), 11) == (
        "VOP3", 3)
    assert encoded_words("s_load_b32", (0xF40000C0, 0xF8000024), 11) == ("SMEM", 2)
    assert rename("global_load_b128") == "global_load_dwordx4"
    assert rename("ds_load_2addr_stride64_b32") == "ds_read2st64_b32"
    assert rename("s_add_co_ci_u32") == "s_addc_u32"


def test_row_xmask_is_rdna_only():
    from workbench.emu.semantics.valu import table as valu

    src, ok = valu.dpp_lanes(0x165, 11)
    assert src[16] == 21 and src[21] == 16 and ok.all()
    with pytest.raises(ValueError):
        valu.dpp_lanes(0x165)  # not a gfx9 control



COLUMN = r"""
extern "C" __global__ void column(float* out) {
  __shared__ float s[32 * 32];
  s[threadIdx.x * 32] = threadIdx.x;  // one column: every lane on bank 0
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x * 32];
}
"""


@pytest.mark.parametrize("arch", ["gfx1100", "gfx1201"])
def test_lds_trace_of_a_wave32_kernel_is_analysed(arch):
    """Emulator traces of RDNA wave32 kernels go through the same bank model (RDNA phase tables
    of workbench.lds.phases: assumed, flagged there): a column store is a 32-way conflict."""
    k = wb.compile(COLUMN, arch).column
    out = np.zeros(32, np.float32)
    tr = k.on(f"emulator:{arch}").trace[1, 32](out)
    np.testing.assert_array_equal(out, np.arange(32))
    text = str(wb.trace_conflicts(tr, source=k))
    assert "32-way" in text, text


OOB = r"""
extern "C" __global__ void oob(float* x, int n) {
  x[threadIdx.x + n] = 1.0f;   // lanes past the buffer fault
}
extern "C" __global__ void spin(int* x) {
  while (*(volatile int*)x == 0) { }
}
"""


@pytest.mark.parametrize("arch", ["gfx1100", "gfx1201"])
def test_memcheck_and_budget_on_wave32(arch):
    """The same bounds check and instruction budget as on gfx942, naming wave32 lanes."""
    mod = wb.compile(OOB, arch)
    with pytest.raises(wb.KernelFault) as e:
        mod.oob.on(f"emulator:{arch}")[1, 32](np.zeros(40, np.float32), 16)
    assert "oob" in str(e.value) and "lane" in str(e.value)
    assert min(e.value.lanes) == 24 and max(e.value.lanes) == 31
    from workbench.emu import BudgetExceeded

    with pytest.raises(BudgetExceeded):
        mod.spin.on(f"emulator:{arch}")[1, 32](np.zeros(1, np.int32), budget=20_000)


BUF = r"""
extern "C" __global__ void bufload(const float* x, unsigned* o, int n, int flags) {
  __amdgpu_buffer_rsrc_t r = __builtin_amdgcn_make_buffer_rsrc((void*)x, 0, n * 4, flags);
  o[threadIdx.x] = __builtin_amdgcn_raw_buffer_load_b32(r, threadIdx.x * 4, 0, 0);
}
"""


@pytest.mark.parametrize("arch", ["gfx1100", "gfx1201"])
def test_raw_buffer_load_range_checked(arch):
    """GFX11/GFX12 V# OOB_SELECT (RDNA4 ISA §9.4.1 Table 56) with stride 0 and no index:
    3 (raw): offsets past num_records read 0; 0 (structured): offset + payload > stride (0) puts
    every lane out; 1: only index >= num_records (index 0) is out; 2: only num_records == 0."""
    k = wb.compile(BUF, arch).bufload.on(f"emulator:{arch}")
    x = np.arange(32, dtype=np.float32) + 1
    bits = x.view(np.uint32)
    for oob, n, want in [(3, 20, np.where(np.arange(32) < 20, bits, 0)), (0, 20, 0 * bits),
                         (1, 20, bits), (2, 20, bits), (2, 0, 0 * bits), (1, 0, 0 * bits)]:
        o = np.full(32, 7, np.uint32)
        k[1, 32](x, o, n, 0x01016000 | oob << 28)
        np.testing.assert_array_equal(o, want, err_msg=f"OOB_SELECT {oob}, num_records {n}")


SALU_FMA = r"""
extern "C" __global__ void k(const float* in, float* out) {
  int sa = __builtin_amdgcn_readfirstlane(__builtin_bit_cast(int, in[0]));
  int sb = __builtin_amdgcn_readfirstlane(__builtin_bit_cast(int, in[1]));
  float r, q;
  asm volatile("s_fmamk_f32 %0, %1, 0x40400000, %2" : "=s"(r) : "s"(sa), "s"(sb));
  asm volatile("s_fmaak_f32 %0, %1, %2, 0x40400000" : "=s"(q) : "s"(sa), "s"(sb));
  if (threadIdx.x == 0) { out[0] = r; out[1] = q; }
  asm volatile("s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)");
}
"""


def test_gfx12_salu_k_literal_fma_and_vgpr_dealloc_message():
    # s_fmamk_f32 D, S0, K, S1 = S0*K + S1; s_fmaak_f32 D, S0, S1, K = S0*S1 + K (RDNA4 ISA);
    # both carry the K dword (LLVM 19 emits s_fmamk_f32 for gfx1201, and ends gfx11/12 kernels
    # with s_sendmsg MSG_DEALLOC_VGPRS, a no-op here)
    k = wb.Kernel(wb.compile(SALU_FMA, arch="gfx1201"), "k", device="emulator:gfx1201")
    text = [i.text for i in k.isa.instructions]
    assert any(t.startswith("s_fmamk_f32") for t in text)
    assert any("MSG_DEALLOC_VGPRS" in t for t in text)
    out = np.zeros(2, np.float32)
    k[1, 32](np.array([5.0, 7.0], np.float32), out)
    assert out.tolist() == [5 * 3 + 7, 5 * 7 + 3]


def test_the_plain_emulator_runs_the_arch_the_module_was_built_for():
    # "kernel[...] on a gfx1100 build" (issue 13's complaint) runs without naming a device; a
    # device that names another arch is still refused with the hint to compile for it
    src = ('extern "C" __global__ void add1(const float* x, float* y, int n) {'
           ' int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = x[i] + 1.0f; }')
    x = np.arange(100, dtype=np.float32)
    for arch in ("gfx1100", "gfx1201"):
        y = np.zeros_like(x)
        r = wb.compile(src, arch=arch).add1[1, 128](x, y, 100)
        assert r.device == f"emulator:{arch}" and (y == x + 1).all()
    k = wb.Kernel(wb.compile(src, arch="gfx1100"), "add1", device="emulator:gfx950")
    with pytest.raises(wb.LaunchError, match="compiled for gfx1100 but emulator:gfx950"):
        k[1, 64](x, np.zeros_like(x), 100)


# the SALU float compares (RDNA4 ISA SOPC S_CMP_*_F32/_F16, also gfx1150+): SCC = S0 <rel> S1,
# "lg" ordered not-equal, "o"/"u" (un)ordered, "n*" negations (true for NaN); written out here
# independently of the emulator's predicate table
REL = {"lt": lambda a, b: a < b, "eq": lambda a, b: a == b, "le": lambda a, b: a <= b,
       "gt": lambda a, b: a > b, "lg": lambda a, b: a < b or a > b, "ge": lambda a, b: a >= b,
       "o": lambda a, b: a == a and b == b, "u": lambda a, b: a != a or b != b,
       "nge": lambda a, b: not a >= b, "nlg": lambda a, b: not (a < b or a > b),
       "ngt": lambda a, b: not a > b, "nle": lambda a, b: not a <= b,
       "neq": lambda a, b: not a == b, "nlt": lambda a, b: not a < b}


def _scmp_source(t: str) -> str:
    body = "".join(
        f'    asm volatile("s_cmp_{c}_{t} %1, %2\\n\\ts_cselect_b32 %0, 1, 0" : "=s"(r) : '
        f'"s"(a), "s"(b));\n    if (threadIdx.x == 0) out[p * {len(REL)} + {i}] = r;\n'
        for i, c in enumerate(REL))
    return ('extern "C" __global__ void scmp(const unsigned* in, unsigned* out, int n) {\n'
            '  for (int p = 0; p < n; ++p) {\n'
            '    unsigned a = __builtin_amdgcn_readfirstlane(in[2 * p]);\n'
            '    unsigned b = __builtin_amdgcn_readfirstlane(in[2 * p + 1]);\n'
            '    unsigned r;\n' + body + '  }\n}\n')


@pytest.mark.parametrize("t", ["f32", "f16"])
@pytest.mark.parametrize("arch", ["gfx1151", "gfx1201"])
def test_salu_float_compares(arch, t):
    pairs = [(1.0, 2.0), (2.0, 1.0), (3.0, 3.0), (-0.0, 0.0), (np.nan, 1.0), (1.0, np.nan),
             (np.nan, np.nan), (-np.inf, 5.0)]
    ft, it = (np.float32, np.uint32) if t == "f32" else (np.float16, np.uint16)
    bits = np.array(pairs, ft).view(it).astype(np.uint32).reshape(-1)
    if t == "f16":
        bits |= np.uint32(0xFFFF0000)  # the high half is not part of an f16 source
    out = np.zeros(len(pairs) * len(REL), np.uint32)
    k = wb.compile(_scmp_source(t), arch).scmp
    assert any(i.mnemonic == f"s_cmp_nlt_{t}" for i in k.isa_for(arch))
    k.on(f"emulator:{arch}")[1, 32](bits, out, len(pairs))
    want = [int(f(float(a), float(b))) for a, b in pairs for f in REL.values()]
    assert out.tolist() == want


SADDK = r"""
extern "C" __global__ void addk(const int* in, int* out) {
  int x = __builtin_amdgcn_readfirstlane(in[blockIdx.x]);
  unsigned scc;
  asm volatile("s_addk_co_i32 %0, 0xffa0\n\ts_cselect_b32 %1, 1, 0" : "+s"(x), "=s"(scc));
  if (threadIdx.x == 0) { out[2 * blockIdx.x] = x; out[2 * blockIdx.x + 1] = scc; }
}
"""


def test_gfx12_addk_co_is_addk_with_signed_overflow_in_scc():
    # S_ADDK_CO_I32 (RDNA4 ISA; gfx9's S_ADDK_I32): D += sext(K16); SCC = signed overflow
    x = np.array([5, -2**31 + 10, 2**31 - 1], np.int32)
    out = np.zeros(6, np.int32)
    wb.compile(SADDK, "gfx1201").addk.on("emulator:gfx1201")[3, 32](x, out)
    assert out.tolist() == [5 - 96, 0, (-2**31 + 10 - 96) + 2**32, 1, 2**31 - 1 - 96, 0]


SRNDNE = r"""
extern "C" __global__ void rnd(const float* in, float* out) {
  float x = __builtin_bit_cast(float, __builtin_amdgcn_readfirstlane(
      __builtin_bit_cast(int, in[blockIdx.x])));
  float r;
  asm volatile("s_rndne_f32 %0, %1" : "=s"(r) : "s"(x));
  if (threadIdx.x == 0) out[blockIdx.x] = r;
}
"""


@pytest.mark.parametrize("arch", ["gfx1151", "gfx1201"])
def test_salu_rndne_rounds_half_to_even(arch):
    # S_RNDNE_F32 (RDNA3.5/RDNA4 SALU float op, as V_RNDNE_F32): nearest integer, ties to even
    x = np.array([2.5, 3.5, -0.5, -2.5, 1.25, 8388609.0, np.inf], np.float32)
    out = np.zeros_like(x)
    wb.compile(SRNDNE, arch).rnd.on(f"emulator:{arch}")[len(x), 32](x, out)
    assert out.tolist() == [2.0, 4.0, -0.0, -2.0, 1.0, 8388609.0, np.inf]
    assert np.signbit(out[2])


MED3_NUM = r"""
extern "C" __global__ void med3(const float* x, float* o) {
  float v = x[threadIdx.x], r;
  asm volatile("v_med3_num_f32 %0, %1, -1.0, 1.0" : "=v"(r) : "v"(v));
  o[threadIdx.x] = r;
}
"""


def test_gfx12_med3_num_is_med3():
    # V_MED3_NUM_F32 (RDNA4 ISA) is GFX12's name of V_MED3_F32: here a clamp to [-1, 1]
    x = np.linspace(-3, 3, 32).astype(np.float32)
    o = np.zeros_like(x)
    wb.compile(MED3_NUM, "gfx1201").med3.on("emulator:gfx1201")[1, 32](x, o)
    np.testing.assert_array_equal(o, np.clip(x, -1, 1))


MOV_B16 = r"""
extern "C" __global__ void mov16(const unsigned* x, unsigned* o) {
  unsigned a = x[threadIdx.x], b = x[32 + threadIdx.x];
  asm volatile("v_mov_b16_e32 %0.h, %1.l" : "+v"(a) : "v"(b));
  o[threadIdx.x] = a;
}
"""


def test_true16_mov_b16_writes_one_half():
    # V_MOV_B16 with true16 operands (RDNA3 ISA; LLVM 22 emits it for gfx1100): v.h = src.l,
    # the low half of the destination is kept
    x = (np.arange(64, dtype=np.uint32) * 0x10001 + 0x12340000).astype(np.uint32)
    o = np.zeros(32, np.uint32)
    wb.compile(MOV_B16, "gfx1100").mov16.on("emulator:gfx1100")[1, 32](x, o)
    np.testing.assert_array_equal(o, (x[:32] & 0xFFFF) | ((x[32:] & 0xFFFF) << 16))
