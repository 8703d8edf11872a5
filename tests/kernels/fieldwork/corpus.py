"""The fieldwork corpus: every program, how its build compiles it, and what is expected.

Each entry: path (relative to this folder), include folders (relative to this folder, as the
program's own build would add them; the file's folder always comes first), extra clang options,
and ``fails`` -- None when the file must build for both targets, else (arch, text the error must
contain, why). ``IDIOMS`` names the idioms the corpus exists to exercise, each with a pattern
that must occur in a program that builds (its text or the headers it includes from here).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).parent
COMMON = ("common",)
LADDER = ("ladder/include",)
SDK = ("sdk/include",)
LIB = ("library/include",)


def read(path: Path) -> str:
    """UTF-8 text, or Latin-1 where a file is not UTF-8 (sdk/HelloSdk is saved in Latin-1)."""
    raw = path.read_bytes()
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


@dataclass(frozen=True)
class Entry:
    path: str
    includes: tuple[str, ...] = ()
    options: tuple[str, ...] = ()
    fails: tuple[str, str, str] | None = None
    # the first LLVM major known to give that failure (older ones build the file)
    fails_from_llvm: int = 0

    def source(self) -> str:
        """The file's text (a Latin-1 file decoded byte for byte)."""
        return read(ROOT / self.path)

    def include_dirs(self) -> list[Path]:
        return [(ROOT / self.path).parent] + [ROOT / d for d in self.includes]

    def text_with_headers(self) -> str:
        """The file and every header it includes by quotes or angle brackets that lives in
        this corpus (followed transitively), for the idiom check."""
        seen: dict[Path, str] = {}
        todo = [ROOT / self.path]
        while todo:
            f = todo.pop()
            if f in seen:
                continue
            seen[f] = read(f)
            for name in re.findall(r'#\s*include\s*[<"]([^>"]+)[>"]', seen[f]):
                for d in [f.parent, *self.include_dirs()]:
                    if (d / name).is_file():
                        todo.append((d / name).resolve())
                        break
        return "\n".join(seen.values())


_ZERO_LENGTH = ("zero-length arrays are not permitted in HIP device code",
                "the host dispatch instantiates max_per_block<32, 64>, whose __shared__ array "
                "has Block / Wave = 0 elements; clang (ROCm's too) rejects that in device code")

ENTRIES: list[Entry] = [
    # HIP basics: one idiom family each, host code in the rocm-examples manner
    *(Entry(f"basics/{n}", COMMON) for n in (
        "vector_ops.hip", "bitfield.hip", "window_mean.hip", "tiled_matmul.hip",
        "transpose_lds.hip", "transpose_lanes.hip", "group_sums.hip", "device_vars.hip",
        "greetings.hip", "peer_bandwidth.hip", "device_report.cpp")),
    Entry("basics/texture_counts.hip", COMMON,
          fails=("gfx1100", "tex2D (a texture fetch) is not available offline",
                 "texture fetches need image instructions (gfx942 has none: the program "
                 "leaves the fetch out there, and that build passes)")),
    # libraries: a host library with its header in an include folder, a device library
    Entry("library/copy_lib.hip", (*COMMON, *LIB)),
    Entry("library/use_copy_lib.cpp", LIB),
    Entry("library/cube_lib.hip", LIB),
    Entry("library/use_cube_lib.hip", (*COMMON, *LIB),
          fails=("gfx942", "undefined hidden symbol: lib_cube",
                 "calls a __device__ function of another translation unit (built with "
                 "-fgpu-rdc and linked); the workbench compiles one file")),
    # kernels loaded at run time
    Entry("module/module_kernels.hip"),
    Entry("module/loaders.hip", COMMON),
    # a block-reduction ladder in C++20
    *(Entry(f"ladder/{n}", LADDER, ("-std=c++20",)) for n in (
        "reduce_shared.hip", "reduce_unrolled.hip", "reduce_wave_tree.hip")),
    Entry("ladder/reduce_too_small.hip", LADDER, ("-std=c++20",), fails=("gfx942", *_ZERO_LENGTH),
          fails_from_llvm=22),  # clang 19.1.7 accepted zero-length arrays here, 22 rejects
    # small applications
    *(Entry(f"apps/{n}", COMMON) for n in (
        "bitonic.hip", "apsp.hip", "stencil5.hip", "scan_blocks.hip", "histo_bytes.hip")),
    # SDK-style samples: a class per sample, legacy hipThreadIdx_x names, "../include/" headers
    *(Entry(f"sdk/{n}/{n}.cpp", SDK) for n in (
        "OptionLattice", "Transforms", "ImageFilters", "ByteHisto", "GroupScan", "MatMul4",
        "HelloSdk")),
    # benchmarks
    Entry("streams/stream_bench.hip"),
    Entry("streams/common.cpp"),
    Entry("strided/strided_add.hip"),
    Entry("vectoradd/vadd2d.hip"),
    Entry("atomics/atomic_total.hip"),
    Entry("nbody/hip/nbody_aos.cpp", ("nbody",)),
    Entry("nbody/hip/nbody_tiles.cpp", ("nbody",)),
    Entry("nbody/hip/nbody_soa.cpp", ("nbody",),
          fails=("gfx942", "use of undeclared identifier 'interactions_per_second'",
                 "deliberate: the host code prints a variable it never declared, and the "
                 "error must name it")),
]

# idiom -> a pattern one building program (with its corpus headers) must contain
IDIOMS: dict[str, str] = {
    "whole file with main()": r"\bint main\(",
    "host-only translation unit": r"copylib::round_trip\(words",
    "helper header from an include folder": r'#include "field_utils.hpp"',
    "header by relative path": r'#include "\.\./include/SampleKit\.hpp"',
    "angle-bracket project header": r"#include <compile_time\.hpp>",
    "HIP_CHECK macro": r"#define HIP_CHECK\(",
    "std::vector host code": r"std::vector<",
    "triple-chevron launch with stream": r"<<<[^>]*hipStreamDefault>>>",
    "triple-chevron launch, two arguments": r"<<<\d+, \d+>>>",
    "hipLaunchKernelGGL": r"hipLaunchKernelGGL\(",
    "hipLaunchKernelGGL of a parenthesised template": r"hipLaunchKernelGGL\(\(\w+<",
    "HIP_KERNEL_NAME": r"HIP_KERNEL_NAME\(",
    "legacy hipThreadIdx_x / hipBlockDim_x": r"hipThreadIdx_x",
    "template kernel": r"template<[^>]*>\s*__global__",
    "default template argument": r"template<unsigned int Width = 64>",
    "constexpr": r"\bconstexpr\b",
    "static_assert": r"static_assert\(",
    "static shared memory": r"__shared__ \w+ \w+\[",
    "2D shared array": r"__shared__ float \w+\[Tile\]\[Tile\]",
    "extern __shared__ (dynamic)": r"extern __shared__",
    "HIP_DYNAMIC_SHARED": r"HIP_DYNAMIC_SHARED\(",
    "shared-memory tree reduction": r"partial\[t\] = op\(partial\[t\], partial\[t \+ s\]\)",
    "volatile warp-synchronous shared memory": r"volatile T\* lockstep",
    "__shfl": r"__shfl\(",
    "__shfl_down": r"__shfl_down\(",
    "__launch_bounds__": r"__launch_bounds__\(",
    "__syncthreads": r"__syncthreads\(\)",
    "atomicAdd": r"atomicAdd\(",
    "__constant__ memory": r"__constant__",
    "__device__ variables": r"__device__ float \w+;",
    "__host__ __device__ function": r"__host__ __device__",
    "device printf": r"printf\(\"greetings from block",
    "inline assembly": r"asm volatile\(",
    "per-target #if (__gfx1100__)": r"__gfx1100__",
    "__HIP_PLATFORM_AMD__": r"__HIP_PLATFORM_AMD__",
    "__bitextract_u32": r"__bitextract_u32\(",
    "__popc / __clz / __ffs": r"__ffs\(",
    "cooperative groups": r"cg::tiled_partition<",
    "hipLaunchCooperativeKernel": r"hipLaunchCooperativeKernel\(",
    "texture object": r"hipCreateTextureObject\(",
    "hipModuleLoad / hipModuleLaunchKernel": r"hipModuleLaunchKernel\(",
    "hiprtc": r"hiprtcCreateProgram\(",
    "extern \"C\" kernel": r'extern "C" __global__',
    "events": r"hipEventElapsedTime\(",
    "streams": r"hipStreamCreate\(",
    "hipMemcpyAsync": r"hipMemcpyAsync\(",
    "pinned host memory": r"hipHostMalloc\(",
    "mapped host memory": r"hipHostGetDevicePointer\(",
    "hipMemcpyToSymbol / hipGetSymbolAddress": r"hipGetSymbolAddress\(",
    "occupancy API": r"hipOccupancyMaxPotentialBlockSize\(",
    "device properties": r"hipGetDeviceProperties\(",
    "peer access": r"hipDeviceEnablePeerAccess\(",
    "hipMemset": r"hipMemset\(",
    "device lambda as kernel argument": r"\[\] __device__\(",
    "C++20 templated lambda": r"\[&\]<int \w+>\(\)",
    "std::array non-type template argument": r"ct::dispatch<std::array\{",
    "index_sequence pack expansion": r"std::index_sequence<I\.\.\.>",
    "structured bindings": r"const auto \[",
    "vector types (float4, uchar4, uint4)": r"make_uint4\(",
    "float4 arithmetic": r"pUp \* levelA",
    "uint2 kernel argument": r"const uint2 size",
    "double precision": r"square_all<<<grid, block, 0, hipStreamDefault>>>",
    "#pragma pack": r"#pragma pack\(push, 1\)",
    "#pragma unroll": r"#pragma unroll",
    "pthreads on the host": r"pthread_create\(",
    "class-based sample framework": r"class \w+ : public samplekit::SampleBase",
    "function-like macro in device code": r"#define mad\(",
    "memalign / aligned allocation": r"memalign\(",
    "command-line parser": r"args\.option<",
    "std::chrono timing": r"std::chrono::",
    "std::filesystem": r"std::filesystem::",
    "__restrict__": r"__restrict__",
    "rsqrtf / float3 shared tiles": r"__shared__ float3",
}
