"""Arch registry: lookups, errors, and internal consistency of the sourced numbers."""

from __future__ import annotations

import dataclasses

import pytest

import workbench
from workbench import arch as wa

EXPECTED = ["gfx90a", "gfx942", "gfx950", "gfx1030", "gfx1100", "gfx1102", "gfx1151", "gfx1201"]


def test_registry_has_exactly_the_listed_archs():
    assert list(wa.ARCHS) == EXPECTED
    for name, a in wa.ARCHS.items():
        assert a.name == name
        assert wa.get(name) is a


@pytest.mark.parametrize("spelling,name", [
    ("gfx942:sramecc+:xnack-", "gfx942"),
    ("gfx90a:xnack+", "gfx90a"),
    ("  GFX1100 ", "gfx1100"),
    ("amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-", "gfx942"),
])
def test_feature_suffixes_and_triples_are_stripped(spelling, name):
    assert wa.get(spelling).name == name


def test_get_passes_an_arch_through():
    a = wa.get("gfx1201")
    assert wa.get(a) is a


def test_unknown_arch_lists_known_ones():
    with pytest.raises(ValueError) as e:
        wa.get("gfx908")
    msg = str(e.value)
    assert "gfx908" in msg
    for name in EXPECTED:
        assert name in msg


def test_non_string_name_is_a_type_error():
    with pytest.raises(TypeError, match="str"):
        wa.get(942)  # type: ignore[arg-type]


def test_arch_is_frozen_and_hashable():
    a = wa.get("gfx942")
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.cu_count = 1  # type: ignore[misc]
    with pytest.raises(TypeError):
        a.peak_tflops["bf16"] = 0.0  # type: ignore[index]
    assert len({a, wa.get("gfx942"), wa.get("gfx90a")}) == 2


@pytest.mark.parametrize("name", EXPECTED)
def test_families_and_wave_sizes(name):
    a = wa.get(name)
    assert a.family in ("cdna2", "cdna3", "cdna4", "rdna2", "rdna3", "rdna3.5", "rdna4")
    assert a.is_cdna != a.is_rdna
    assert a.wave_size == a.default_wave_size
    if a.is_cdna:
        assert a.wave_sizes == (64,) and a.wave_size == 64
        assert a.has_mfma and a.has_agprs and not a.has_wmma
        assert a.simds_per_workgroup_unit == 4 and a.max_waves_per_simd == 8
    else:
        assert a.wave_sizes == (32, 64) and a.wave_size == 32
        assert not a.has_mfma and not a.has_agprs and a.max_agprs == 0
        # WGP mode: a workgroup's waves share 2 CUs x 2 SIMDs (BaseInfo getEUsPerCU = 4).
        assert a.simds_per_workgroup_unit == 4 and a.max_waves_per_simd == 16
        assert a.lds_bytes_per_workgroup_unit == 2 * a.lds_bytes_per_cu


@pytest.mark.parametrize("name,w32,w64,g32,g64", [
    ("gfx1030", 1024, 512, 16, 8),
    ("gfx1100", 1536, 768, 24, 12),
    ("gfx1102", 1024, 512, 16, 8),
    ("gfx1151", 1536, 768, 24, 12),
    ("gfx1201", 1536, 768, 24, 12),
])
def test_rdna_vgpr_files(name, w32, w64, g32, g64):
    a = wa.get(name)
    assert (a.vgprs_per_simd(32), a.vgprs_per_simd(64)) == (w32, w64)
    assert (a.vgpr_granule(32), a.vgpr_granule(64)) == (g32, g64)
    assert a.vgprs_per_simd() == w32
    # The register file holds the same bytes in either wave size.
    assert w32 * 32 == w64 * 64


@pytest.mark.parametrize("name", ["gfx90a", "gfx942", "gfx950"])
def test_cdna_vgpr_file(name):
    a = wa.get(name)
    assert a.vgprs_per_simd() == 512 and a.vgpr_granule() == 8
    assert a.max_arch_vgprs + a.max_agprs == a.max_vgprs_per_wave == 512
    assert a.unified_vgpr_file and a.sgprs_limit_occupancy


def test_wrong_wave_size_is_rejected():
    with pytest.raises(ValueError, match="wave_size=32 is not supported on gfx942"):
        wa.get("gfx942").vgprs_per_simd(32)


# VGPR file KiB per CU from ROCm gpu-specs (SPECS): 512 on CDNA2-4; gfx1030 256 and gfx1102
# 256 (older table, per CU), gfx1100/1151/1201 768 per WGP = 384 per CU.
@pytest.mark.parametrize("name,kib_per_cu", [
    ("gfx90a", 512), ("gfx942", 512), ("gfx950", 512), ("gfx1030", 256),
    ("gfx1100", 384), ("gfx1102", 256), ("gfx1151", 384), ("gfx1201", 384),
])
def test_vgpr_file_matches_specs_table(name, kib_per_cu):
    a = wa.get(name)
    ws = a.default_wave_size
    assert a.vgprs_per_simd(ws) * ws * 4 * a.simds_per_cu == kib_per_cu * 1024


@pytest.mark.parametrize("name", EXPECTED)
def test_peaks_match_cus_times_clock_times_rate(name):
    """peak = CUs x clock x FLOP/CU/clk (the formula behind the MI300 / MI350 documentation's
    peak tables) for every stated dtype."""
    a = wa.get(name)
    assert set(a.peak_tflops) == set(wa.PEAK_KEYS) == set(a.flops_per_cu_per_clock)
    checked = 0
    for key in wa.PEAK_KEYS:
        peak, rate = a.peak_tflops[key], a.flops_per_cu_per_clock[key]
        assert (peak is None) == (rate is None), (name, key)
        if peak is None:
            continue
        expect = a.cu_count * a.clock_ghz * rate / 1000.0
        assert peak == pytest.approx(expect, rel=0.01), (name, key, peak, expect)
        checked += 1
    assert checked >= 2


def test_published_peaks():
    # ROCm's MI300 microarchitecture page (peak column); its MI350 series page (peak table).
    assert wa.get("gfx942").peak_tflops["bf16"] == 1307.4
    assert wa.get("gfx942").peak_tflops["fp8"] == 2614.9
    # MI350 series page: 2.5 / 5.0 PF, rounded; the table keeps the product it rounds
    # (256 CUs x 2.4 GHz x 4096 / 8192), one figure everywhere (issue 29).
    assert wa.get("gfx950").peak_tflops["bf16"] == 2516.6
    assert wa.get("gfx950").peak_tflops["fp8"] == 5033.2
    # MI250DOC: 362.1 TF FP16 for the two-GCD OAM -> half per GCD.
    assert wa.get("gfx90a").peak_tflops["fp16"] == pytest.approx(362.1 / 2, abs=0.1)


def test_matrix_dtype_support_is_consistent_with_predicates():
    for a in wa.ARCHS.values():
        if a.peak_tflops["fp8"] is not None:
            assert a.has_fp8_fnuz or a.has_ocp_fp8, a.name
        assert not (a.has_fp8_fnuz and a.has_ocp_fp8), a.name
        if a.has_wmma or a.has_mfma:
            assert a.peak_tflops["fp16"] > a.peak_tflops["fp32_vector"], a.name


def test_lds_facts():
    assert wa.get("gfx950").lds_bytes_per_workgroup == 163840
    assert wa.get("gfx950").lds_alloc_granule == 1280
    for name in ("gfx90a", "gfx942"):
        a = wa.get(name)
        assert a.lds_bytes_per_cu == a.lds_bytes_per_workgroup == 65536
        assert a.lds_alloc_granule == 512 and a.lds_banks == 32 and a.lds_bank_width == 4


def test_rdna_lds_granule_and_device_topology():
    # LDSGRAN (llvm-project PR #224852): 1 KiB allocation blocks on GFX10.3/11/12.0.
    for name in ("gfx1030", "gfx1100", "gfx1102", "gfx1151", "gfx1201"):
        assert wa.get(name).lds_alloc_granule == 1024
    # The timing model needs CUs and XCDs per chip: MI300X 8 x 38, MI355X 8 x 32 (ROCm's
    # MI300 and MI350 microarchitecture pages).
    assert (wa.get("gfx942").cu_count, wa.get("gfx942").xcd_count) == (304, 8)
    assert (wa.get("gfx950").cu_count, wa.get("gfx950").xcd_count) == (256, 8)
    assert all(a.cu_count % a.xcd_count == 0 for a in wa.ARCHS.values() if a.cu_count)


def _elf_flags(path) -> int:
    data = open(path, "rb").read()
    return int.from_bytes(data[48:52], "little")  # e_flags of an ELF64 header


def test_elf_mach_and_llvm_support_match_the_compiler_in_use():
    """Measured with the clang in use: e_flags' EF_AMDGPU_MACH byte, and which targets build."""
    from workbench import toolchain
    from workbench.compiler import CompileError
    tc = toolchain.find_toolchain()
    src = '__global__ void k(int* p) { p[threadIdx.x] = 1; }\n'
    for a in wa.ARCHS.values():
        if tc.clang_major < a.min_llvm_major:
            with pytest.raises(CompileError, match=f"cannot build {a.name}"):
                workbench.compile(src, a.name)
            continue
        co = workbench.compile(src, a.name)[a.name]
        assert _elf_flags(co.path) & 0xFF == a.elf_mach, a.name


def test_gfx950_lds_limit_is_the_compilers():
    """LLVM 22 builds 163840 B of static LDS for gfx950 and rejects 4 B more (ROCm's MI350
    page: 160 KB; LLVM's addressablelocalmemorysize163840)."""
    from workbench import toolchain
    from workbench.compiler import CompileError
    if toolchain.find_toolchain().clang_major < wa.get("gfx950").min_llvm_major:
        pytest.skip("this clang cannot build gfx950 (LLVM >= 20 needed)")
    body = ("__global__ void __launch_bounds__(256) k(float* p) {{ __shared__ float s[{n}]; "
            "s[threadIdx.x] = p[threadIdx.x]; __syncthreads(); p[threadIdx.x] = s[{n} - 1]; }}\n")
    limit = wa.get("gfx950").lds_bytes_per_workgroup
    info = workbench.compile(body.format(n=limit // 4), "gfx950")["gfx950"].kernels["k"]
    assert info.resources.lds_bytes == limit
    with pytest.raises(CompileError, match=f"exceeds limit \\({limit}\\)"):
        workbench.compile(body.format(n=limit // 4 + 1), "gfx950")


def test_elf_mach_values_are_unique():
    machs = [a.elf_mach for a in wa.ARCHS.values()]
    assert len(set(machs)) == len(machs)
    assert wa.get("gfx942").elf_mach == 0x4C and wa.get("gfx1030").elf_mach == 0x36


def test_feature_predicates():
    assert not wa.get("gfx90a").has_architected_flat_scratch
    assert wa.get("gfx942").has_architected_flat_scratch
    assert wa.get("gfx942").has_fp8_fnuz and not wa.get("gfx942").has_ocp_fp8
    assert wa.get("gfx950").has_ocp_fp8
    assert wa.get("gfx1201").has_ocp_fp8 and wa.get("gfx1201").has_wmma
    assert not wa.get("gfx1030").has_wmma


def test_min_llvm_major_agrees_with_the_toolchain_rule():
    from workbench import toolchain
    assert wa.get("gfx950").min_llvm_major == toolchain.GFX950_MIN_MAJOR
    assert all(a.min_llvm_major == toolchain.MIN_CLANG_MAJOR
               for a in wa.ARCHS.values() if a.name != "gfx950")
