"""Register pressure per instruction (workbench.pressure, workbench.operand_roles).

Why: ``kernel.pressure()`` claims which registers are live at every instruction. These tests
hold it to exact answers on hand-written listings (straight line, a loop carrying registers
around its back edge, a branch), to the def/use rules of each instruction family, to its two
independent passes (dataflow over blocks and a backward walk from every use) on every GEMM and
softmax tutorial kernel, and to the machine itself: on the emulator, every register the
analysis calls dead is overwritten with garbage before every instruction (VGPRs in the lanes
EXEC enables), and the kernels must still compute the right answer. The compiler's allocation
bounds the peak from above; from below it is within 8 registers except where the allocator
leaves holes (EXCEPTIONS).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

import workbench as wb
from workbench.arch import get as get_arch
from workbench.branches import branch_target
from workbench.isa import Instruction, parse_asm
from workbench.operand_roles import AGPR_BASE, SGPR_BASE, def_use, register_ranges
from workbench.pressure import liveness, pressure

ROOT = Path(__file__).resolve().parents[1]


def _load(name: str, path: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


G = _load("gemm_steps", "kernels/gemm/steps.py")
SM = _load("softmax_steps", "kernels/softmax/steps.py")
CLANG = wb.find_toolchain().clang_major


def _buildable(arch: str):
    return pytest.mark.skipif(CLANG < get_arch(arch).min_llvm_major,
                              reason=f"clang {CLANG} cannot build {arch}")


def _ins(addr: int, text: str) -> Instruction:
    """An Instruction as the listing parser makes it from one line of objdump text."""
    mnemonic, ops, n, dual = parse_asm(text)
    return Instruction(addr=addr, mnemonic=mnemonic, operands=ops, words=(0,),
                       source_line=None, text=text, n_regs=n, dual=dual)


def _listing(lines: list[str]) -> list[Instruction]:
    return [_ins(4 * i, t) for i, t in enumerate(lines)]


# -- the def/use table --------------------------------------------------------------------------
@pytest.mark.parametrize("text, defs, uses", [
    ("v_add_co_u32_e32 v4, vcc, v4, v8", "v4, vcc_lo, vcc_hi", "v4, v8"),
    ("v_addc_co_u32_e32 v4, vcc, v5, v9, vcc", "v4, vcc_lo, vcc_hi", "v5, v9, vcc_lo, vcc_hi"),
    ("v_div_scale_f32 v4, s[0:1], v2, v2, v3", "v4, s[0:1]", "v[2:3]"),
    ("v_mad_u64_u32 v[8:9], s[0:1], s6, v0, 0", "v[8:9], s[0:1]", "v0, s6"),
    ("v_add_co_ci_u32_e64 v3, null, s1, 0, s3", "v3", "s1, s3"),
    ("v_div_fmas_f32 v4, v4, v5, v7", "v4", "v[4:5], v7, vcc_lo, vcc_hi"),
    ("v_mfma_f32_16x16x16_bf16 v[0:3], v[20:21], v[24:25], v[0:3]", "v[0:3]",
     "v[0:3], v[20:21], v[24:25]"),
    ("v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]", "a[0:15]",
     "v[0:3], a[0:15]"),
    ("v_mfma_scale_f32_16x16x128_f8f6f4 v[2:5], v[20:27], v[28:35], v[2:5], v18, v18 "
     "op_sel_hi:[0,0,0]", "v[2:5]", "v[2:5], v18, v[20:35]"),
    ("v_smfmac_f32_16x16x32_f16 v[0:3], v[4:5], v[6:9], v10", "v[0:3]", "v[0:10]"),
    ("v_cmp_gt_i32_e32 vcc, s4, v0", "vcc_lo, vcc_hi", "v0, s4"),
    ("v_cmpx_eq_u32_e32 v0, v1", "", "v[0:1]"),
    ("v_cndmask_b32_e32 v8, 0, v8, vcc", "v8", "v8, vcc_lo, vcc_hi"),
    ("v_fmac_f32_e32 v8, v9, v1", "v8", "v1, v[8:9]"),
    ("v_writelane_b32 v0, s0, 5", "v0", "v0, s0"),
    ("v_readlane_b32 s2, v1, 63", "s2", "v1"),
    ("v_accvgpr_write_b32 a43, 0", "a43", ""),
    ("v_accvgpr_read_b32 v1, a72", "v1", "a72"),
    ("v_mov_b32_dpp v6, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf", "v6", "v1"),
    ("v_mov_b32_dpp v6, v1 row_shr:1 row_mask:0xf bank_mask:0xf", "v6", "v1, v6"),
    ("v_mov_b32_dpp v6, v1 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:1", "v6", "v1"),
    ("v_mov_b32_sdwa v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:DWORD", "v1",
     "v[1:2]"),
    ("v_permlane32_swap_b32_e32 v1, v6", "v1, v6", "v1, v6"),
    ("v_mov_b16_e32 v0.h, v1.l", "v0", "v[0:1]"),
    ("v_dual_mov_b32 v1, 0 :: v_dual_add_f32 v2, v3, v4", "v[1:2]", "v[3:4]"),
    ("global_load_dwordx4 v[12:15], v[6:7], off", "v[12:15]", "v[6:7]"),
    ("global_store_dword v[0:1], v8, off", "", "v[0:1], v8"),
    ("global_load_short_d16_hi v1, v[4:5], off", "v1", "v1, v[4:5]"),
    ("buffer_load_dwordx4 v2, s[4:7], 0 offen lds", "", "v2, s[4:7]"),
    ("global_load_lds_dwordx4 v[2:3], off", "", "v[2:3]"),
    ("global_atomic_add_f32 v1, v2, off", "", "v[1:2]"),
    ("global_atomic_add v0, v1, v2, off sc0", "v0", "v[1:2]"),
    ("buffer_atomic_add v1, v2, s[0:3], 0 offen glc", "v1", "v[1:2], s[0:3]"),
    ("scratch_load_dword v0, off, s0 offset:4", "v0", "s0"),
    ("ds_read_b128 v[20:23], v18", "v[20:23]", "v18"),
    ("ds_write_b128 v36, v[12:15]", "", "v[12:15], v36"),
    ("ds_read2st64_b64 v[2:5], v42 offset1:4", "v[2:5]", "v42"),
    ("ds_bpermute_b32 v7, v1, v10", "v7", "v1, v10"),
    ("ds_add_rtn_u32 v0, v1, v2", "v0", "v[1:2]"),
    ("ds_read_u16_d16_hi v3, v4", "v3", "v[3:4]"),
    ("s_load_dwordx2 s[2:3], s[0:1], 0x10", "s[2:3]", "s[0:1]"),
    ("s_and_saveexec_b64 s[8:9], s[2:3]", "s[8:9]", "s[2:3]"),
    ("s_or_b64 exec, exec, s[0:1]", "", "s[0:1]"),
    ("s_cmp_gt_i32 s4, 0", "", "s4"),
    ("s_addk_i32 s20, 0x80", "s20", "s20"),
    ("s_cbranch_vccnz 3", "", "vcc_lo, vcc_hi"),
    ("s_waitcnt vmcnt(0) lgkmcnt(0)", "", ""),
    ("s_swappc_b64 s[30:31], s[4:5]", "s[30:31]", "s[4:5]"),
    ("s_setpc_b64 s[30:31]", "", "s[30:31]"),
    ("s_load_b64 s[0:1], s[0:1], null", "s[0:1]", "s[0:1]"),
    ("s_fmac_f32 s0, s1, s2", "s0", "s[0:2]"),
    ("v_fma_mixlo_f16 v0, v1, v2, v3", "v0", "v[0:3]"),
    ("v_add_f16_e64 v0, v1, v2 op_sel:[0,0,1]", "v0", "v[0:2]"),
    ("v_pk_add_f32 v[18:19], v[22:23], v[2:3] op_sel:[0,1]", "v[18:19]", "v[2:3], v[22:23]"),
])
def test_def_use_by_family(text, defs, uses):
    d, u = def_use(_ins(0, text))
    assert (register_ranges(d), register_ranges(u)) == (defs, uses)


def test_wave32_vcc_is_its_low_half():
    d, u = def_use(_ins(0, "v_cmp_eq_u32_e32 vcc_lo, 1, v1"), wave64=False)
    assert register_ranges(d) == "vcc_lo"
    assert register_ranges(def_use(_ins(0, "s_cbranch_vccz 2"), wave64=False)[1]) == "vcc_lo"


def test_branch_targets_are_pc_plus_4_plus_4_simm16():
    assert branch_target(_ins(0x10, "s_cbranch_scc1 7")) == 0x30
    assert branch_target(_ins(0x67C, "s_cbranch_scc0 65527")) == 0x65C  # -9
    assert branch_target(_ins(0x10, "s_endpgm")) is None


# -- exact answers on hand-written listings -----------------------------------------------------
def _sets(lines: list[str], method: str, wave: int = 64) -> list[str]:
    lv = liveness(_listing(lines), wave, method)
    return [register_ranges(lv.live(i)) for i in range(len(lines))]


STRAIGHT = ["v_mov_b32_e32 v1, 1.0", "v_mov_b32_e32 v2, 2.0",
            "v_mov_b32_e32 v3, 0",  # a dead def: live at this instruction only
            "v_add_f32_e32 v4, v1, v2", "global_store_dword v[6:7], v4, off", "s_endpgm"]
LOOP = ["v_mov_b32_e32 v1, 0", "v_mov_b32_e32 v3, 1.0", "s_mov_b32 s2, 4",
        "v_add_f32_e32 v1, v1, v3",  # loop head (0xc)
        "v_mul_f32_e32 v3, v3, v0",  # v3 carried around the back edge to the head
        "s_add_i32 s2, s2, -1", "s_cmp_lg_u32 s2, 0",
        "s_cbranch_scc1 65531",  # 0x1c + 4 - 5 * 4 = 0xc
        "global_store_dword v[4:5], v1, off", "s_endpgm"]
BRANCH = ["v_cmp_gt_i32_e32 vcc, 0, v0", "s_and_saveexec_b64 s[2:3], vcc",
          "s_cbranch_execz 2",  # 0x8 + 4 + 8 = 0x14, the join
          "v_mov_b32_e32 v1, v0", "v_add_f32_e32 v2, v1, v1",
          "s_or_b64 exec, exec, s[2:3]", "global_store_dword v[4:5], v2, off", "s_endpgm"]


@pytest.mark.parametrize("method", ["dataflow", "walk"])
def test_straight_line_exact(method):
    assert _sets(STRAIGHT, method) == [
        "v1, v[6:7]", "v[1:2], v[6:7]", "v[1:3], v[6:7]", "v[1:2], v4, v[6:7]", "v4, v[6:7]",
        ""]


@pytest.mark.parametrize("method", ["dataflow", "walk"])
def test_loop_carries_registers_around_the_back_edge(method):
    body = "v[0:1], v[3:5], s2"
    assert _sets(LOOP, method) == ["v[0:1], v[4:5]", "v[0:1], v[3:5]"] + [body] * 6 + [
        "v1, v[4:5]", ""]


@pytest.mark.parametrize("method", ["dataflow", "walk"])
def test_branch_both_ways_scalar_rule(method):
    # v2 is read after the join and not written on the skip path: live from the entry. In the
    # then-block, before its write, the scalar rule calls it dead although the lanes outside
    # EXEC keep their old v2 (the documented underestimate under divergence).
    assert _sets(BRANCH, method) == [
        "v0, v2, v[4:5], vcc_lo, vcc_hi", "v0, v2, v[4:5], s[2:3], vcc_lo, vcc_hi",
        "v0, v2, v[4:5], s[2:3]",
        "v[0:1], v[4:5], s[2:3]", "v[1:2], v[4:5], s[2:3]", "v2, v[4:5], s[2:3]",
        "v2, v[4:5]", ""]


def test_counts_by_class():
    p = liveness(_listing(LOOP))
    assert p.counts("vgpr") == (4, 5, 5, 5, 5, 5, 5, 5, 3, 0)
    assert p.counts("sgpr") == (0, 0, 1, 1, 1, 1, 1, 1, 0, 0)


# -- small real kernels: the rule's invariants, both passes, on CDNA and RDNA ---------------------
SMALL = r"""
extern "C" __global__ void straight(const float* x, float* y) {
    int i = threadIdx.x;
    float a = x[i], b = x[i + 64], c = x[i + 128];
    y[i] = a * b + c;
    y[i + 64] = a - c;
}
extern "C" __global__ void loop(const float* x, float* y, int n) {
    int i = threadIdx.x;
    float acc = 0.0f;
#pragma unroll 1
    for (int j = 0; j < n; ++j) acc += x[j * 64 + i];
    y[i] = acc;
}
extern "C" __global__ void branch(const float* x, float* y, float* z) {
    int i = threadIdx.x;
    float v = x[i];
    if (v > 0.0f) y[i] = v * 3.0f;
    z[i] = v + 1.0f;
}
"""
ARCHS = [pytest.param(a, marks=_buildable(a)) for a in ("gfx942", "gfx1100", "gfx1201")]


@pytest.fixture(scope="module")
def small():
    return {}


def _small(cache, arch):
    if arch not in cache:
        cache[arch] = wb.compile(SMALL, arch)
    return cache[arch]


def _both(k, arch):
    p, w = (pressure(k.isa_for(arch), k.info(arch).resources, arch, m)
            for m in ("dataflow", "walk"))
    assert p.liveness.masks == w.liveness.masks
    return p


@pytest.mark.parametrize("arch", ARCHS)
def test_straight_line_kernel_matches_a_forward_scan(small, arch):
    k = _small(small, arch)["straight"]
    p, ins = _both(k, arch), list(k.isa_for(arch))
    assert not any(branch_target(i) is not None for i in ins)
    du = [def_use(i, p.wave_size == 64) for i in ins]
    for i in range(len(ins)):  # live(i) = def(i) ∪ read at some j >= i before a write in i+1..j-1
        want, dead = set(du[i][0]), set()
        for j in range(i, len(ins)):
            want |= du[j][1] - dead
            if j > i:
                dead |= du[j][0]
        assert set(p.liveness.live(i)) == want, (i, ins[i].text)
    assert p.total[-1] == 0 and p.peak["vgpr"].count <= p.allocated["vgpr"]


def _loops(ins):
    at = {x.addr: j for j, x in enumerate(ins)}
    return [(at[t], b) for b, x in enumerate(ins) if (t := branch_target(x)) is not None
            and at[t] <= b]


@pytest.mark.parametrize("arch", ARCHS)
def test_loop_kernel_keeps_its_accumulator_live_around_the_loop(small, arch):
    k = _small(small, arch)["loop"]
    p, ins = _both(k, arch), list(k.isa_for(arch))
    (head, back), = _loops(ins)
    acc = [r for i in range(head, back + 1) if ins[i].mnemonic.startswith("v_add_f32")
           for r in def_use(ins[i])[0] & def_use(ins[i])[1]]
    assert acc, "no acc += x in the loop"
    assert all(acc[0] in p.liveness.live(i) for i in range(head, back + 1))


@pytest.mark.parametrize("arch", ARCHS)
def test_branch_kernel_keeps_values_used_after_the_join_live_across_it(small, arch):
    k = _small(small, arch)["branch"]
    p, ins = _both(k, arch), list(k.isa_for(arch))
    at = {x.addr: j for j, x in enumerate(ins)}
    b, join = next((i, at[t]) for i, x in enumerate(ins)
                   if (t := branch_target(x)) is not None and at[t] > i)
    du = [def_use(x, p.wave_size == 64) for x in ins]
    across = [r for r in set().union(*(d for d, _ in du[:b]))
              if r < AGPR_BASE and not any(r in du[i][0] for i in range(b, join))
              and any(r in du[i][1] for i in range(join, len(ins)))]
    assert across
    assert all(r in p.liveness.live(i) for r in across for i in range(b, join))


# -- the machine agrees: registers called dead can be trashed ------------------------------------
@pytest.fixture
def trash_dead(monkeypatch):
    """Before every instruction the emulator runs, overwrite each VGPR and AGPR that is not live
    there by ``liveness`` in the lanes EXEC enables, and each dead SGPR s0..s99, in every wave.

    Only the enabled lanes: the scalar rule (workbench.pressure docstring) does not promise
    that lanes outside EXEC hold nothing needed. Softmax step 2 on gfx942 shows it: v1 = -inf
    is set for all lanes, set again inside ``if (tid < cols)``, and read after the join by
    all lanes, so before the inner write v1 is dead by the rule while the disabled lanes still
    need it (trashing them there gives wrong rows)."""
    from workbench.emu.engine import scheduler

    schedule, rng = scheduler._schedule, np.random.default_rng(7)

    def trashing(prog):
        runs, kinds, targets = schedule(prog)
        lv, nv = liveness(prog.listing, prog.info.wave), prog.info.n_vgpr
        vec = set(range(nv)) | {AGPR_BASE + k for k in range(prog.info.n_agpr)}
        out = []
        for i, run in enumerate(runs):
            live = set(lv.live(i))
            rows = np.array([r if r < AGPR_BASE else nv + r - AGPR_BASE
                             for r in sorted(vec - live)], np.int64)
            srows = np.array([k for k in range(100) if SGPR_BASE + k not in live], np.int64)

            def step(st, g, run=run, rows=rows, srows=srows):
                w = g.waves
                old = st.R[np.ix_(rows, w)]
                st.R[np.ix_(rows, w)] = np.where(st.EM[w][None], rng.integers(
                    0, 1 << 32, old.shape, np.uint32), old)
                st.S[np.ix_(srows, w)] = rng.integers(0, 1 << 32, (len(srows), len(w)),
                                                      np.uint32)
                return run(st, g)
            out.append(step)
        return out, kinds, targets

    monkeypatch.setattr(scheduler, "_schedule", trashing)


@pytest.mark.parametrize("arch", ARCHS)
def test_small_kernels_survive_trashed_dead_registers(small, arch, trash_dead):
    m = _small(small, arch)
    x = np.linspace(-2, 2, 256, dtype=np.float32)
    y, z = np.zeros(256, np.float32), np.zeros(256, np.float32)
    dev = f"emulator:{arch}"
    m["straight"].on(dev)[1, 64](x, y)
    assert np.allclose(y[:64], x[:64] * x[64:128] + x[128:192], rtol=1e-6)  # fma
    assert np.array_equal(y[64:128], x[:64] - x[128:192])
    m["loop"].on(dev)[1, 64](x, y, 3)
    assert np.allclose(y[:64], x[:64] + x[64:128] + x[128:192])
    y[:] = 0
    m["branch"].on(dev)[1, 64](x, y, z)
    assert np.array_equal(y[:64], np.where(x[:64] > 0, x[:64] * 3, 0))
    assert np.array_equal(z[:64], x[:64] + 1)


# step 3, and every step of EXCEPTIONS (below), one with edge tiles where the step has them
TRASHED = [(3, "gfx942", "bf16", False), (5, "gfx942", "bf16", True),
           (5, "gfx950", "bf16", False), (7, "gfx942", "bf16", True),
           (9, "gfx942", "bf16", True), (11, "gfx950", "bf16", False),
           (11, "gfx950", "fp8", True)]


@pytest.mark.parametrize("step, arch, dtype, edges", [
    pytest.param(*t, marks=_buildable(t[1]), id=f"{t[0]}-{t[1]}-{t[2]}") for t in TRASHED])
def test_gemm_steps_survive_trashed_dead_registers(step, arch, dtype, edges, trash_dead):
    s = G.step(step)
    M, N, K = s["bm"] - 24 * edges, s["bn"] - 40 * edges, 2 * s["k_multiple"][dtype]
    A, B, a, b = G.inputs(M, N, K, dtype, seed=3)
    C = np.full((M, N), np.nan, np.float32)
    grid, block = G.launch(s, M, N, K)
    G.kernel(s, arch, dtype, device=f"emulator:{arch}")[grid, block](A, B, C, M, N, K,
                                                                      timeout=300)
    assert np.array_equal(C, G.reference(a, b))


@pytest.mark.parametrize("arch", [pytest.param(a, marks=_buildable(a))
                                  for a in ("gfx942", "gfx950")])
@pytest.mark.parametrize("key", [2, 3, "3s", 5, 6])
def test_softmax_steps_survive_trashed_dead_registers(key, arch, trash_dead):
    s = SM.step(key)
    mod = SM.compile_file(s["file"], arch)
    kernels = {k: wb.Kernel(mod, k, device=f"emulator:{arch}") for k in s["kernels"]}
    x = SM.inputs(6, 203, seed=5)
    assert SM.max_error(SM.run(s, kernels, x), SM.reference(x, s["dtype"])) <= SM.TOL[s["dtype"]]


# -- the tutorials: both passes agree everywhere; the peak against the allocation ----------------
def _gemm_targets():
    for s in G.all_steps(extra=False):
        for t in G.targets(s):
            yield pytest.param(s, t["arch"], t["dtype"], marks=_buildable(t["arch"]),
                               id=f"{s['step']}-{t['arch']}-{t['dtype']}")


def _softmax_kernels():
    for s in SM.all_steps():
        for k in s["kernels"]:
            for arch in ("gfx942", "gfx950"):
                yield pytest.param(s, k, arch, marks=_buildable(arch), id=f"{k}-{arch}")


# Steps whose allocation exceeds what their live ranges need by more than 8 registers. Not an
# analysis error: on the emulator every register the analysis calls dead in them is trashed
# before every instruction without changing C (test_gemm_steps_survive_trashed_dead_registers),
# and for step 9 on gfx942 LLVM's own tracker
# (-mllvm -amdgpu-print-max-reg-pressure-regusage-after-scheduler) reports 200 VGPRs at its
# peak against 201 here. The allocator leaves holes: the unrolled MFMA chains write each
# accumulator tile to a new 4-aligned tuple (dst != srcC, an early-clobber), so tiles rotate
# through registers that are free at different times and the highest register used climbs.
EXCEPTIONS = {
    (5, "gfx942", "bf16"): "needs 137, allocated 168",
    (5, "gfx950", "bf16"): "needs 149, allocated 160",
    (7, "gfx942", "bf16"): "needs 137, allocated 152",
    (9, "gfx942", "bf16"): "needs 201, allocated 242 (LLVM's pre-RA peak: 200)",
    (11, "gfx950", "bf16"): "needs 224 + 153 = 377, allocated 256 + 158 = 414",
}


@pytest.fixture(scope="module")
def gemm_pressure():
    memo: dict = {}

    def get(s, arch, dtype):
        key = (s["step"], arch, dtype)
        if key not in memo:
            k = wb.Kernel(G.compile_step(s, arch, dtype), s["kernel"])
            memo[key] = (k.pressure(arch), pressure(k.isa_for(arch), k.info(arch).resources,
                                                    arch, "walk"))
        return memo[key]
    return get


@pytest.mark.parametrize("s, arch, dtype", list(_gemm_targets()))
def test_gemm_passes_agree_on_every_instruction(s, arch, dtype, gemm_pressure):
    p, w = gemm_pressure(s, arch, dtype)
    assert p.liveness.masks == w.liveness.masks
    assert (p.vgpr, p.agpr, p.sgpr) == (w.vgpr, w.agpr, w.sgpr)
    assert not p.notes


@pytest.mark.parametrize("s, kernel, arch", list(_softmax_kernels()))
def test_softmax_passes_agree_on_every_instruction(s, kernel, arch):
    k = wb.Kernel(SM.compile_file(s["file"], arch), kernel)
    p = k.pressure(arch)
    w = pressure(k.isa_for(arch), k.info(arch).resources, arch, "walk")
    assert p.liveness.masks == w.liveness.masks
    assert p.needed <= p.allocated["vgpr+agpr"]


@pytest.mark.parametrize("s, arch, dtype", list(_gemm_targets()))
def test_gemm_peak_is_within_8_of_the_allocation(s, arch, dtype, gemm_pressure):
    """The Done-when line. The comparable figure is ``needed``: the per-class peaks, AGPRs
    after alignTo(VGPRs, 4) on gfx90a+, i.e. what the compiler's own count
    (unified_vgpr_count(vgprs, agprs)) would be for the tightest assignment of these live
    ranges. Live registers are distinct registers the kernel names, so needed <= allocated
    always; the lower bound is where the analysis could be missing reads or widths."""
    p, _ = gemm_pressure(s, arch, dtype)
    alloc = p.allocated["vgpr+agpr"]
    assert p.peak["vgpr+agpr"].count <= p.needed <= alloc
    why = EXCEPTIONS.get((s["step"], arch, dtype))
    if why:
        assert p.needed < alloc - 8, f"no longer an exception ({why}): drop it"
        pytest.xfail(f"allocator holes: {why}")
    assert p.needed >= alloc - 8


@pytest.mark.parametrize("s, arch, dtype", list(_gemm_targets()))
def test_gemm_peak_location_is_reported_and_both_passes_agree(s, arch, dtype, gemm_pressure):
    p, w = gemm_pressure(s, arch, dtype)
    for kind in ("vgpr+agpr", "vgpr", "sgpr"):
        pk = p.peak[kind]
        assert pk == w.peak[kind]
        assert pk.at and pk.addr == p.instructions[pk.at[0]].addr
        assert pk.instruction == p.instructions[pk.at[0]].text
    assert p.peak["vgpr+agpr"].location.startswith("source line ")
    text = p.text()
    assert p.peak["vgpr+agpr"].instruction in text and p.peak["vgpr+agpr"].location in text


# -- the public door and the view ----------------------------------------------------------------
def test_kernel_pressure_text_and_views(small):
    m = _small(small, "gfx942")
    p = m["loop"].pressure()
    assert p.arch == "gfx942" and p.wave_size == 64 and len(p.rows()) == len(p.instructions)
    assert p.rows()[0][:2] == (0, f"{p.instructions[0].addr:#x}")
    assert "VGPR file: needs" in str(p) and "8 waves/SIMD" in str(p)
    assert p.waves(64) == 8 and p.waves(65) == 7  # gfx942: 512 VGPRs per SIMD, granule 8
    assert [t.registers for t in p.thresholds][:3] == [64, 72, 80]
    v = p.view()
    html = p._repr_html_()
    assert "<svg" in html and "8 waves/SIMD" in html and "allocated" in html
    assert "<script" not in html and html == p._repr_html_()  # static: no script, same bytes
    bundle = p._repr_mimebundle_()
    assert bundle["text/plain"] == p.text() and "<svg" in bundle["text/html"]
    from bokeh.models import HoverTool, Span

    fig = v.figure()
    assert fig.select_one({"type": HoverTool}) is not None
    assert {s.location for s in fig.select({"type": Span})} >= {64, p.allocated["vgpr+agpr"]}


def test_view_of_a_kernel_with_agprs_draws_them(gemm_pressure):
    s = G.step(11)
    if CLANG < get_arch("gfx950").min_llvm_major:
        pytest.skip("no gfx950")
    p, _ = gemm_pressure(s, "gfx950", "bf16")
    svg = p.view().svg()
    assert "<title>AGPR</title>" in svg and "2 waves/SIMD" in svg and "allocated 414" in svg
    assert "AGPR" in p.text() and "VGPR peak aligned to 4 + AGPR peak" in p.text()
