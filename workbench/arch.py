"""AMD GPU architecture registry: one frozen, sourced record per supported gfx target.

Every number carries its source. Tags used in the comments:
  BASEINFO   LLVM llvm/lib/Target/AMDGPU/Utils/AMDGPUBaseInfo.cpp, namespace IsaInfo (LLVM 19)
  SUBTARGET  LLVM llvm/lib/Target/AMDGPU/AMDGPUSubtarget.cpp / GCNSubtarget.cpp (LLVM 19)
  USAGE      LLVM llvm/docs/AMDGPUUsage.rst (processor table, EF_AMDGPU_MACH values, kernel
             descriptor, initial wave state)
  ZIG        ziglang/zig lib/std/Target/amdgcn.zig (auto-generated mirror of LLVM CPU features)
  SPECS      ROCm/rocm-docs docs/reference/gpu-specs.rst (AMD GPU specifications tables)
  MI250DOC   ROCm docs conceptual/gpu-arch/mi250.md (per-GCD CUs, clock, FLOPS/clock/CU, bandwidth)
  MI300DOC   ROCm docs conceptual/gpu-arch/mi300.md (FLOPS/clock/CU table, 5.3 TB/s)
  MI350DOC   ROCm docs reference/gpu-arch/mi350.rst and the CDNA 4 white paper it links
  CALC       ROCm/amd_matrix_instruction_calculator (instructions per architecture, FLOPs per CU
             / WGP per clock)
  RPC        ROCm/rocprofiler-compute docs/conceptual/pipeline-descriptions.rst (CDNA LDS)
  CK-LDS     ROCm/composable_kernel docs/conceptual/ck_tile/hardware/lds_bank_conflicts.rst
  HK         HazyResearch/HipKittens analysis/paper_experiments/phases (gfx950 LDS banks and
             rocminfo agent info, measured with rocprofv3)
  HIPFP8     ROCm HIP docs, reference/fp8_numbers (ROCm 6.2): FNUZ FP8 on gfx940/941/942
  PRECISION  ROCm docs, "Data types and precision support" (FNUZ vs OCP FP8 per architecture)
  ROCDL-TEST LLVM mlir/test/Target/LLVMIR/rocdl.mlir (f8f6f4 MFMA format codes)
  SCHED      LLVM llvm/lib/Target/AMDGPU/SISchedule.td (MFMA/WMMA passes per target)
  CK-MFMA    ROCm/composable_kernel include/ck_tile/ops/gemm/warp/warp_gemm_attribute_mfma_impl.hpp
  HIPRTC     ROCm HIP docs, how-to/hip_rtc (gfx10+ compiles in WGP mode by default)
  READELF    measured: llvm-readelf -h of a code object built by clang for the target (LLVM 19
             for all but gfx950; LLVM 22.1.8 for every target, gfx950 included)
  LLVM19     measured: clang 19 -Rpass-analysis=kernel-resource-usage occupancy remark
  LLVM22     measured: clang 22.1.8 (Debian) the same way; tests/test_occupancy.py sweeps it
  LDSGRAN    llvm-project PR #224852 (2026, "Add LDS encoding granularity to TargetParser"):
             LDS is *allocated* in 1280-B blocks on gfx950 and 1024-B blocks on GFX10.3, GFX11
             and GFX12.0, which *encode* COMPUTE_PGM_RSRC2.LDS_SIZE in 512-B units (the
             AMDGPUUsage COMPUTE_PGM_RSRC2 table gives the encoding)
[derived] marks arithmetic on sourced numbers; [3rd-party] marks non-AMD/non-LLVM sources;
ASSUMPTION marks a value no source gives.
Full titles and links of the tags: docs/sources.md.
Peak numbers are dense (no sparsity) and use the clock in `clock_ghz`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from .argument_types import checked
from .errors import ArgumentTypeError, ArgumentValueError

__all__ = ["ARCHS", "Arch", "PEAK_KEYS", "get", "normalize_name"]

#: dtype keys of `Arch.peak_tflops` / `Arch.flops_per_cu_per_clock` (dense peaks).
PEAK_KEYS = ("fp32_vector", "fp32_matrix", "fp16", "bf16", "fp8", "int8")


def _frozen(d: Mapping) -> Mapping:
    return MappingProxyType(dict(d))


@dataclass(frozen=True)
class Arch:
    """Facts about one gfx target that kernels, occupancy and widgets rely on."""

    name: str
    family: str  # "cdna2" | "cdna3" | "cdna4" | "rdna2" | "rdna3" | "rdna3.5" | "rdna4"
    product: str  # the product the peak/clock/bandwidth numbers describe
    gfx_major: int  # 9, 10, 11, 12: GFX generation (rules in LLVM key off it)
    wave_sizes: tuple[int, ...]
    default_wave_size: int
    simds_per_cu: int
    cus_per_wgp: int | None  # RDNA groups 2 CUs into a work-group processor; None on CDNA
    wgp_mode: bool  # HIP's default on gfx10+: a workgroup owns a whole WGP (4 SIMDs)
    vgpr_file: tuple[tuple[int, int], ...]  # (wave size, VGPRs per SIMD lane-slot)
    vgpr_granules: tuple[tuple[int, int], ...]  # (wave size, allocation granule)
    max_vgprs_per_wave: int  # ArchVGPRs + AGPRs a wave can address
    max_arch_vgprs: int
    max_agprs: int
    unified_vgpr_file: bool  # gfx90a+: AGPRs come from the same file as ArchVGPRs
    max_waves_per_simd: int
    sgprs_addressable: int
    sgprs_per_simd: int | None
    sgpr_granule: int
    sgprs_limit_occupancy: bool
    lds_bytes_per_cu: int
    lds_bytes_per_wgp: int | None
    lds_bytes_per_workgroup: int
    lds_alloc_granule: int
    lds_banks: int
    lds_bank_width: int
    max_workgroup_size: int
    max_barriers_per_cu: int  # workgroups with >1 wave need a barrier slot (LLVM's limit)
    cu_count: int | None
    clock_ghz: float | None
    memory_bandwidth_gbs: float | None
    has_mfma: bool
    has_wmma: bool
    has_agprs: bool
    has_packed_tid: bool
    has_architected_flat_scratch: bool
    has_fp8_fnuz: bool
    has_ocp_fp8: bool
    elf_mach: int  # EF_AMDGPU_MACH_* value in e_flags
    min_llvm_major: int  # oldest LLVM whose clang builds this target (hipwb needs >= 19)
    xcd_count: int  # compute dies (XCDs) per device, each with its own L2; 1 on one-die parts
    flops_per_cu_per_clock: Mapping[str, int | None] = field(hash=False, repr=False)
    peak_tflops: Mapping[str, float | None] = field(hash=False, repr=False)

    @property
    def wave_size(self) -> int:
        """The wave size HIP compiles for by default on this target."""
        return self.default_wave_size

    def check_wave_size(self, wave_size: int | None) -> int:
        """``wave_size``, or the default wave size for None; ValueError if the target lacks it."""
        ws = self.default_wave_size if wave_size is None else wave_size
        if ws not in self.wave_sizes:
            raise ArgumentValueError(
                f"wave_size={ws} is not supported on {self.name} "
                f"(supported: {', '.join(map(str, self.wave_sizes))})"
            )
        return ws

    def vgprs_per_simd(self, wave_size: int | None = None) -> int:
        """VGPRs (per lane) in one SIMD's register file for waves of `wave_size`."""
        return dict(self.vgpr_file)[self.check_wave_size(wave_size)]

    def vgpr_granule(self, wave_size: int | None = None) -> int:
        """VGPR allocation granule for waves of `wave_size`."""
        return dict(self.vgpr_granules)[self.check_wave_size(wave_size)]

    @property
    def simds_per_workgroup_unit(self) -> int:
        """SIMDs that the waves of one workgroup share: the CU (CDNA) or the WGP in WGP mode."""
        if self.cus_per_wgp is not None and self.wgp_mode:
            return self.simds_per_cu * self.cus_per_wgp
        return self.simds_per_cu

    @property
    def lds_bytes_per_workgroup_unit(self) -> int:
        """LDS shared by the workgroups resident on one CU (CDNA) or WGP (RDNA, WGP mode)."""
        if self.lds_bytes_per_wgp is not None and self.wgp_mode:
            return self.lds_bytes_per_wgp
        return self.lds_bytes_per_cu

    @property
    def is_cdna(self) -> bool:
        return self.family.startswith("cdna")

    @property
    def is_rdna(self) -> bool:
        return self.family.startswith("rdna")


# ---------------------------------------------------------------------------------------------
# Shared rule values
# ---------------------------------------------------------------------------------------------
# CDNA2/3/4 (gfx90a-class, FeatureGFX90AInsts):
_CDNA_COMMON = dict(
    gfx_major=9,
    wave_sizes=(64,),  # SPECS (wavefront size 64); BASEINFO
    default_wave_size=64,
    simds_per_cu=4,  # BASEINFO getEUsPerCU (4 per CU); MI250DOC "four SIMD units"
    cus_per_wgp=None,
    wgp_mode=False,
    vgpr_file=((64, 512),),  # BASEINFO getTotalNumVGPRs: 512 with GFX90A insts
    vgpr_granules=((64, 8),),  # BASEINFO getVGPRAllocGranule: 8 with GFX90A insts
    max_vgprs_per_wave=512,  # BASEINFO: 512 (<=256 ArchVGPR + AGPRs)
    max_arch_vgprs=256,  # USAGE: COMPUTE_PGM_RSRC3.ACCUM_OFFSET range 4..256
    max_agprs=256,  # [derived] 512 total (BASEINFO) - 256 arch
    unified_vgpr_file=True,  # USAGE RSRC1 VGPR count on gfx90a+: align(arch,4) + agpr
    max_waves_per_simd=8,  # BASEINFO getMaxWavesPerEU: 8 with FeatureGFX90AInsts
    sgprs_addressable=102,  # BASEINFO: 102 on GFX8/9 (+VCC/FLAT_SCRATCH/XNACK: SUBTARGET)
    sgprs_per_simd=800,  # BASEINFO getTotalNumSGPRs: 800 per SIMD (VI+)
    sgpr_granule=16,  # BASEINFO getSGPRAllocGranule: 16 (VI+)
    sgprs_limit_occupancy=True,  # SUBTARGET: the pre-GFX10 SGPR table still applies to gfx9
    lds_bytes_per_wgp=None,
    lds_bank_width=4,  # RPC, CK-LDS: 4-byte banks
    max_workgroup_size=1024,  # BASEINFO getMaxFlatWorkGroupSize 1024
    max_barriers_per_cu=16,  # BASEINFO getMaxWorkGroupsPerCU: MaxBarriers = 16
    has_mfma=True,  # CALC (MFMA on CDNA1-3); SCHED, CK-MFMA (CDNA4)
    has_wmma=False,
    has_agprs=True,  # CALC (AccVGPR operands on CDNA1-3); USAGE ACCUM_OFFSET
)

# RDNA2/3/3.5/4 (GFX10.3+):
_RDNA_COMMON = dict(
    wave_sizes=(32, 64),  # SPECS "32 or 64"; LLVM's default on GFX10+ is 32
    default_wave_size=32,
    simds_per_cu=2,  # BASEINFO getEUsPerCU: 4 per WGP = 2 per CU
    cus_per_wgp=2,  # BASEINFO (WGP = 2 CUs); SPECS RX 7900 XTX: 96 CUs = 48 WGPs [derived]
    wgp_mode=True,  # HIPRTC doc: gfx10+ builds in WGP mode by default; BASEINFO getEUsPerCU = 4
    max_vgprs_per_wave=256,  # BASEINFO (GFX10+)
    max_arch_vgprs=256,  # BASEINFO (GFX10+)
    max_agprs=0,  # no AccVGPRs on RDNA
    unified_vgpr_file=False,
    max_waves_per_simd=16,  # BASEINFO getMaxWavesPerEU: 16 with GFX10.3 insts
    sgprs_addressable=106,  # BASEINFO: 106 addressable on GFX10+
    sgprs_per_simd=None,  # GFX10+: 128 SGPRs always allocated per wave, no per-SIMD limit used
    sgpr_granule=8,  # BASEINFO getSGPRAllocGranule: 8 on GFX10+
    sgprs_limit_occupancy=False,  # SUBTARGET: no SGPR occupancy limit on GFX10+
    lds_bytes_per_cu=65536,  # BASEINFO getLocalMemorySize: 128 KiB per WGP, half per CU
    lds_bytes_per_wgp=131072,  # SPECS "LDS 128 KiB"; LLVM19 uses it in WGP mode
    lds_bytes_per_workgroup=65536,  # ZIG addressablelocalmemorysize65536: 64 KiB per workgroup
    # LDSGRAN: allocated in 1 KiB blocks (AMDGPUUsage's 512 B is the LDS_SIZE encoding unit).
    lds_alloc_granule=1024,
    min_llvm_major=19,  # all RDNA targets here build with LLVM 19 (LLVM19 sweep) and 22
    # One graphics die: the compute units share one L2 (SPECS lists one L2 per device; Navi 31's
    # chiplets are memory/cache dies [3rd-party]).
    xcd_count=1,
    lds_banks=32,  # ZIG ldsbankcount32: LLVM models 32 banks; no AMD doc found
    lds_bank_width=4,  # ASSUMPTION: CDNA's 4-byte banks (RPC); no RDNA document found
    max_workgroup_size=1024,  # BASEINFO getMaxFlatWorkGroupSize 1024
    max_barriers_per_cu=32,  # BASEINFO: MaxBarriers = 32 in gfx10+ WGP mode
    has_mfma=False,
    has_agprs=False,
    has_packed_tid=True,  # ZIG packed_tid on gfx11 and gfx12 (gfx1030 overridden)
    has_architected_flat_scratch=True,  # ZIG architected_flat_scratch on gfx11/gfx12
    has_fp8_fnuz=False,
)

# The RDNA VGPR file and allocation granule follow one feature (BASEINFO
# getTotalNumVGPRs / getVGPRAllocGranule): with allocate1_5xvgprs (ZIG) 1536 (w32) / 768 (w64)
# VGPRs in granules of 24 / 12; without it (GFX10.3+) 1024 / 512 in granules of 16 / 8.
_VGPRS_1_5X = dict(vgpr_file=((32, 1536), (64, 768)), vgpr_granules=((32, 24), (64, 12)))
_VGPRS_GFX10_3 = dict(vgpr_file=((32, 1024), (64, 512)), vgpr_granules=((32, 16), (64, 8)))

# RDNA3 / RDNA3.5 rates, one WMMA set (CALC, RDNA3): f16/bf16/iu8 WMMA 1024 FLOP/WGP/clk =
# 512 per CU; FP32 vector [derived] 64 lanes x FMA = 128 per CU (VOPD dual issue can double it).
_RDNA3_FLOPS_PER_CU_PER_CLOCK = {"fp32_vector": 128, "fp32_matrix": None, "fp16": 512,
                                 "bf16": 512, "fp8": None, "int8": 512}


def _peaks(cus: int | None, clock: float | None, per_clk: Mapping[str, int | None],
           published: Mapping[str, float | None]) -> Mapping[str, float | None]:
    """Peak TFLOPS per dtype: the published value where one exists, else CUs x clock x rate."""
    out: dict[str, float | None] = {}
    for key in PEAK_KEYS:
        if published.get(key) is not None:
            out[key] = published[key]
        elif per_clk.get(key) is not None and cus is not None and clock is not None:
            out[key] = round(cus * clock * per_clk[key] / 1000.0, 1)  # [derived]
        else:
            out[key] = None
    return _frozen(out)


def _make(**kw) -> Arch:
    per_clk = kw.pop("flops_per_cu_per_clock")
    published = kw.pop("published_tflops", {})
    peaks = _peaks(kw["cu_count"], kw["clock_ghz"], per_clk, published)
    return Arch(flops_per_cu_per_clock=_frozen({k: per_clk.get(k) for k in PEAK_KEYS}),
                peak_tflops=peaks, **kw)


_ARCH_LIST = [
    # ----------------------------------------------------------------------------------- CDNA2
    _make(
        name="gfx90a",
        family="cdna2",
        # One GCD of an MI250 (each GCD is one HIP device): MI250DOC "The MI250 GCD has 104
        # active CUs", "peak clock frequency of 1.7 GHz", "1.6 TB/sec per GCD".
        product="MI250 (one GCD)",
        cu_count=104,  # MI250DOC
        clock_ghz=1.7,  # MI250DOC
        memory_bandwidth_gbs=1600.0,  # MI250DOC: 1.6 TB/s per GCD
        lds_bytes_per_cu=65536,  # SPECS MI250 row: 64 KiB
        lds_bytes_per_workgroup=65536,  # SPECS: the CU's whole 64 KiB
        lds_alloc_granule=512,  # USAGE GRANULATED_LDS_SIZE: 128 dwords
        lds_banks=32,  # RPC: 32 banks x 4 B
        has_packed_tid=True,  # USAGE processor table lists gfx90a as packed TID
        has_architected_flat_scratch=False,  # ZIG: only gfx942/gfx950/gfx11/gfx12 have it
        has_fp8_fnuz=False,  # CALC: FP8 MFMAs start with CDNA3
        has_ocp_fp8=False,
        elf_mach=0x3F,  # USAGE EF_AMDGPU_MACH; READELF: e_flags 0x53F = 0x3F | xnack/sramecc bits
        min_llvm_major=19,  # LLVM19 sweep
        xcd_count=1,  # one GCD is one die and one HIP device (MI250DOC: "The MI250 GCD")
        # MI250DOC FLOPS/CLOCK/CU table (per CU, so valid per GCD):
        flops_per_cu_per_clock={"fp32_vector": 128, "fp32_matrix": 256, "fp16": 1024,
                                "bf16": 1024, "fp8": None, "int8": 1024},
        # MI250DOC per-OAM peaks are for both GCDs (e.g. FP16 362.1 TF); one GCD is half
        # [derived]: 104 x 1.7 GHz x FLOPS/clk/CU, computed by _peaks.
        **_CDNA_COMMON,
    ),
    # ----------------------------------------------------------------------------------- CDNA3
    _make(
        name="gfx942",
        family="cdna3",
        product="MI300X",
        cu_count=304,  # SPECS / MI300DOC: 304 (38 per XCD)
        clock_ghz=2.1,  # [derived] from MI300DOC: 1307.4 TF / (304 x 2048) = 2.1 GHz
        memory_bandwidth_gbs=5300.0,  # MI300DOC: 5.3 TB/s
        lds_bytes_per_cu=65536,  # SPECS: 64 KiB
        lds_bytes_per_workgroup=65536,  # SPECS: the CU's whole 64 KiB
        lds_alloc_granule=512,  # USAGE GRANULATED_LDS_SIZE: 128 dwords
        lds_banks=32,  # RPC, CK-LDS; ZIG ldsbankcount32
        has_packed_tid=True,  # ZIG packed_tid
        has_architected_flat_scratch=True,  # ZIG architected_flat_scratch
        has_fp8_fnuz=True,  # HIPFP8: gfx940/941/942 FP8 is FNUZ; no OCP FP8
        has_ocp_fp8=False,
        elf_mach=0x4C,  # USAGE EF_AMDGPU_MACH; READELF: e_flags 0x54C (LLVM 19 and 22)
        min_llvm_major=19,  # LLVM19 sweep
        xcd_count=8,  # MI300DOC: 8 XCDs x 38 active CUs = 304, 4 MB L2 per XCD
        # MI300DOC FLOPS/CLOCK/CU: vector FP32 256, matrix FP32 256, FP16/BF16 2048,
        # FP8/INT8 4096.
        flops_per_cu_per_clock={"fp32_vector": 256, "fp32_matrix": 256, "fp16": 2048,
                                "bf16": 2048, "fp8": 4096, "int8": 4096},
        # MI300DOC peak column (TFLOPS / TOPS).
        published_tflops={"fp32_vector": 163.4, "fp32_matrix": 163.4, "fp16": 1307.4,
                          "bf16": 1307.4, "fp8": 2614.9, "int8": 2614.9},
        **_CDNA_COMMON,
    ),
    # ----------------------------------------------------------------------------------- CDNA4
    _make(
        name="gfx950",
        family="cdna4",
        product="MI355X",
        cu_count=256,  # SPECS: 256 (32 per XCD)
        clock_ghz=2.4,  # HK's rocminfo (agent_info.csv): max engine clock 2400 MHz
        memory_bandwidth_gbs=8000.0,  # MI350DOC: HBM3E 8 TB/s
        lds_bytes_per_cu=163840,  # MI350DOC 160 KB; ZIG addressablelocalmemorysize163840
        # ZIG 163840; LLVM22: 163840 B of __shared__ builds, 163844 B fails with "local memory
        # (163844) exceeds limit (163840)".
        lds_bytes_per_workgroup=163840,
        # USAGE: GFX950 roundup(size/(320*4)); LDSGRAN: 1280-B allocation blocks.
        # (LLVM 22 itself encodes LDS_SIZE for PAL in 2048-B units on gfx950, measured with llc
        # -mtriple=amdgcn-amd-amdpal: 10240 B -> 5, 10244 B -> 6; HSA leaves it to the CP.)
        lds_alloc_granule=1280,
        # HK: 64 banks measured for ds_read_b64/b128; LLVM (ZIG ldsbankcount32) and
        # rocprof-compute (soc_gfx950.py lds_banks_per_cu) still say 32, and ds_read_b96 /
        # ds_write_b64 behave as 32 -- the wide read path is 64.
        lds_banks=64,
        has_packed_tid=True,  # ZIG packed_tid
        has_architected_flat_scratch=True,  # ZIG architected_flat_scratch
        has_fp8_fnuz=False,  # gfx950 uses OCP FP8 [3rd-party: Modular docs, get_amd_fp8_dtype]
        has_ocp_fp8=True,  # ROCDL-TEST: f8f6f4 format 0 = fp8 E4M3
        elf_mach=0x4F,  # USAGE EF_AMDGPU_MACH; READELF (LLVM 22): e_flags 0x54F
        # _CDNA_COMMON's register file (512 unified VGPRs, granule 8, 256 arch + 256 AGPRs),
        # 8 waves/SIMD, 4 SIMDs and the GFX9 SGPR table hold for gfx950 too: the model of
        # LLVM22's remark built on them equals the real remark on every gfx950 kernel of
        # tests/test_occupancy.py (VGPR clobbers up to v255, AGPRs up to 256 + 256, SGPR
        # clobbers, LDS up to 98304 B; 286 kernels).
        # clang 19 rejects --offload-arch=gfx950 ("invalid target ID"); LLVM22 builds it.
        # AMDGPUUsage lists gfx950 from LLVM 20 on (toolchain/doctor say the same).
        min_llvm_major=20,
        xcd_count=8,  # MI350DOC: 8 XCDs x 32 active CUs = 256; HK rocminfo 8 XCC
        # [derived] from MI350DOC peaks: bf16 2.5 PF = 256 x 2.4 x 4096,
        # fp8/int8 5.0 = x 8192, FP32 157.3 TF = x 256.
        flops_per_cu_per_clock={"fp32_vector": 256, "fp32_matrix": 256, "fp16": 4096,
                                "bf16": 4096, "fp8": 8192, "int8": 8192},
        # MI350DOC peak table (FP32 157.3 TF is given once, used for both).
        # AMD's pages round these to 2.5 and 5.0 PF; the table keeps the product, so that every
        # figure hipwb prints (here, notebooks, timing reports) is the one number 2516.6.
        published_tflops={"fp32_vector": 157.3, "fp32_matrix": 157.3, "fp16": 2516.6,
                          "bf16": 2516.6, "fp8": 5033.2, "int8": 5033.2},
        **_CDNA_COMMON,
    ),
    # ----------------------------------------------------------------------------------- RDNA2
    _make(
        name="gfx1030",
        family="rdna2",
        product="Radeon RX 6900 XT",
        gfx_major=10,
        cu_count=80,  # SPECS (2024 copy of gpu-arch-specs.rst): RX 6900 XT 80 CUs, gfx1030
        clock_ghz=2.25,  # [3rd-party] AMD product table quoted by wccftech/hardforum: 2250 MHz
        memory_bandwidth_gbs=512.0,  # [3rd-party] same sources: 256-bit GDDR6, 512 GB/s
        # No allocate1_5xvgprs (ZIG; same rule as gfx1102). Cross-check: SPECS VGPR file
        # 256 KiB per CU = 2 SIMDs x 1024 x 32 lanes x 4 B [derived].
        **_VGPRS_GFX10_3,
        has_wmma=False,  # WMMA arrives with RDNA3 (CALC: WMMA on RDNA3 and RDNA4)
        has_ocp_fp8=False,
        elf_mach=0x36,  # READELF: e_flags 0x36 for gfx1030
        # [derived] 64 lanes x FMA = 128 FP32 FLOP/CU/clk; packed FP16 doubles it; checks
        # with the [3rd-party] 23.04 TF FP32 for 80 CUs x 2.25 GHz. No bf16/fp8 math.
        flops_per_cu_per_clock={"fp32_vector": 128, "fp32_matrix": None, "fp16": 256,
                                "bf16": None, "fp8": None, "int8": None},
        **{**_RDNA_COMMON,
           # ZIG lists packed_tid and architected_flat_scratch for gfx11/gfx12, not gfx1030.
           "has_packed_tid": False, "has_architected_flat_scratch": False},
    ),
    # ----------------------------------------------------------------------------------- RDNA3
    _make(
        name="gfx1100",
        family="rdna3",
        product="Radeon RX 7900 XTX",
        gfx_major=11,
        cu_count=96,  # SPECS
        clock_ghz=2.5,  # [3rd-party] guru3d RX 7900 XTX review: ~2.5 GHz boost
        memory_bandwidth_gbs=960.0,  # [3rd-party] same review: 960 GB/s
        **_VGPRS_1_5X,  # 1.5x VGPR part (ZIG allocate1_5xvgprs)
        has_wmma=True,  # CALC (RDNA3 WMMA); GPUOpen "WMMA on RDNA 3"
        has_ocp_fp8=False,  # CALC: no fp8 WMMA on RDNA3
        elf_mach=0x41,  # USAGE EF_AMDGPU_MACH; READELF 0x41
        flops_per_cu_per_clock=_RDNA3_FLOPS_PER_CU_PER_CLOCK,
        # [3rd-party] Wikipedia's RDNA 3 table: ~122.8 TF FP16 (checks with 48 WGP x 1024 FLOP/clk
        # (CALC) x 2.5 GHz [derived]).
        published_tflops={"fp16": 122.8},
        **_RDNA_COMMON,
    ),
    _make(
        name="gfx1102",
        family="rdna3",
        product="Radeon RX 7600",
        gfx_major=11,
        cu_count=32,  # SPECS: RX 7600 32 CUs, gfx1102
        clock_ghz=2.655,  # [3rd-party] AMD launch figures via propakistani.pk: 2655 MHz boost
        memory_bandwidth_gbs=288.0,  # [3rd-party] same: 18 Gbps x 128-bit = 288 GB/s
        **_VGPRS_GFX10_3,  # ZIG: no allocate1_5xvgprs on gfx1102
        has_wmma=True,  # CALC (RDNA3 WMMA: gfx1100-1103)
        has_ocp_fp8=False,
        elf_mach=0x47,  # USAGE EF_AMDGPU_MACH; READELF 0x47
        flops_per_cu_per_clock=_RDNA3_FLOPS_PER_CU_PER_CLOCK,
        **_RDNA_COMMON,
    ),
    # --------------------------------------------------------------------------------- RDNA3.5
    _make(
        name="gfx1151",
        family="rdna3.5",
        product="Radeon 8060S (Ryzen AI Max+ 395)",
        gfx_major=11,
        cu_count=40,  # SPECS: Ryzen AI Max+ 395 / Radeon 8060S, 40 CUs, gfx1151
        clock_ghz=2.9,  # [3rd-party] fpsbench.com Radeon 8060S: 2900 MHz boost
        memory_bandwidth_gbs=None,  # shared LPDDR5X; no authoritative figure found
        **_VGPRS_1_5X,  # ZIG allocate1_5xvgprs; SPECS 768 KiB
        has_wmma=True,  # CALC covers gfx1150-1153 as RDNA3 WMMA
        has_ocp_fp8=False,
        elf_mach=0x4A,  # USAGE EF_AMDGPU_MACH; READELF 0x4A
        flops_per_cu_per_clock=_RDNA3_FLOPS_PER_CU_PER_CLOCK,  # CALC: gfx1150-1153 as RDNA3
        **_RDNA_COMMON,
    ),
    # ----------------------------------------------------------------------------------- RDNA4
    _make(
        name="gfx1201",
        family="rdna4",
        product="Radeon RX 9070 XT",
        gfx_major=12,
        cu_count=64,  # SPECS: RX 9070 XT 64 CUs, gfx1201
        clock_ghz=2.97,  # [3rd-party] multiplayer.it RX 9070 XT specifications: 2970 MHz
        memory_bandwidth_gbs=640.0,  # [3rd-party] same page: 20 Gbps x 256-bit
        **_VGPRS_1_5X,  # ZIG allocate1_5xvgprs (gfx1200/1201); SPECS 768 KiB
        has_wmma=True,  # CALC (RDNA4 WMMA); GPUOpen "Matrix Cores of RDNA 4"
        # CALC: fp8/bf8 WMMA on RDNA4; PRECISION (ROCm "Data types and precision support") lists
        # OCP FP8 (not FNUZ) for gfx12.
        has_ocp_fp8=True,
        elf_mach=0x4E,  # USAGE EF_AMDGPU_MACH; READELF 0x4E
        # CALC (RDNA4): f16/bf16 2048 FLOP/WGP/clk = 1024 per CU; fp8/iu8 4096/WGP = 2048.
        flops_per_cu_per_clock={"fp32_vector": 128, "fp32_matrix": None, "fp16": 1024,
                                "bf16": 1024, "fp8": 2048, "int8": 2048},
        **_RDNA_COMMON,
    ),
]

#: name -> Arch for every supported target.
ARCHS: Mapping[str, Arch] = MappingProxyType({a.name: a for a in _ARCH_LIST})


def normalize_name(name: str) -> str:
    """Strip target-ID feature suffixes: 'gfx942:sramecc+:xnack-' -> 'gfx942'."""
    if not isinstance(name, str):
        raise ArgumentTypeError(f"arch name must be a str, got {type(name).__name__}: {name!r}")
    base = name.strip().split(":", 1)[0].strip().lower()
    if base.startswith("amdgcn-amd-amdhsa--"):  # full target triple from code-object metadata
        base = base[len("amdgcn-amd-amdhsa--"):]
    return base


@checked(public="get_arch")
def get(name: str | Arch) -> Arch:
    """Look up an Arch by gfx name (feature suffixes allowed); an Arch passes through."""
    if isinstance(name, Arch):
        return name
    base = normalize_name(name)
    try:
        return ARCHS[base]
    except KeyError:
        raise ArgumentValueError(
            f"unknown arch {name!r}; known archs: {', '.join(ARCHS)}"
        ) from None


def parse_list(arch: str | Sequence[str]) -> tuple[str, ...]:
    """``"gfx942"``, ``"gfx942,gfx950"`` or a list of names -> the arch names, validated,
    normalised and in order, repeats dropped (the ``arch=`` of wb.triton and wb.wave)."""
    items = [a.strip() for a in arch.split(",")] if isinstance(arch, str) else list(arch)
    if not items or not all(isinstance(a, str) and a for a in items):
        raise ArgumentValueError(f"arch: one or more gfx targets, e.g. 'gfx942' or "
                                 f"'gfx942,gfx950', got {arch!r}")
    out: list[str] = []
    for a in items:
        try:
            name = get(a).name
        except (KeyError, ValueError) as e:
            raise ArgumentValueError(f"arch {a!r}: {e}") from None
        if name not in out:
            out.append(name)
    return tuple(out)
