"""The real-world corpus: every file, how its own build compiles it, and what is expected.

Each entry: path (relative to this folder), include folders (relative to this folder, as the
example's CMake/Makefile adds them), extra clang options, and ``fails`` — None when the file must
build for both targets, else (arch, text the error must contain, why).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).parent
RE = "rocm-examples"
HE = "HIP-Examples"
RE_INC = (f"{RE}/Common",)
RED_INC = (f"{RE}/Common", f"{RE}/Tutorials/reduction/include")
HE_INC = (f"{HE}/HIP-Examples-Applications/include",)


@dataclass(frozen=True)
class Entry:
    path: str
    includes: tuple[str, ...] = ()
    options: tuple[str, ...] = ()
    fails: tuple[str, str, str] | None = None
    # the first LLVM major known to give that failure (older ones build the file); measured
    # versions only: 19 and 22 are what hipwb's suite runs with
    fails_from_llvm: int = 0

    def source(self) -> str:
        """The file's text (Latin-1 files decoded byte for byte)."""
        raw = (ROOT / self.path).read_bytes()
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            return raw.decode("latin-1")

    def include_dirs(self) -> list[Path]:
        here = (ROOT / self.path).parent
        return [here] + [ROOT / d for d in self.includes]


_BASIC = ["bandwidth", "bit_extract", "cooperative_groups", "device_globals", "dynamic_shared",
          "events", "gpu_arch", "hello_world", "hello_world_cuda", "inline_assembly",
          "llvm_ir_to_executable", "assembly_to_executable", "matrix_multiplication",
          "module_api", "moving_average", "multi_gpu_data_transfer", "occupancy",
          "runtime_compilation", "saxpy", "shared_memory", "streams", "warp_shuffle"]
ENTRIES: list[Entry] = (
    [Entry(f"{RE}/HIP-Basic/{n}/main.hip", RE_INC) for n in _BASIC]
    + [Entry(f"{RE}/HIP-Basic/device_query/main.cpp", RE_INC),
       Entry(f"{RE}/HIP-Basic/module_api/module.hip", RE_INC),
       Entry(f"{RE}/HIP-Basic/static_host_library/library/library.hip", RE_INC),
       Entry(f"{RE}/HIP-Basic/static_host_library/main.cpp",
             (*RE_INC, f"{RE}/HIP-Basic/static_host_library/library")),
       Entry(f"{RE}/HIP-Basic/static_device_library/library/library.hip", RE_INC),
       Entry(f"{RE}/HIP-Basic/static_device_library/main.hip",
             (*RE_INC, f"{RE}/HIP-Basic/static_device_library/library"),
             fails=("gfx942", "undefined hidden symbol: device_square",
                    "calls a __device__ function of another translation unit (built with "
                    "-fgpu-rdc and linked); the workbench compiles one file")),
       Entry(f"{RE}/HIP-Basic/texture_management/main.hip", RE_INC,
             fails=("gfx1100", "tex2D (a texture fetch) is not available offline",
                    "texture fetches need image instructions (gfx942 has none: the example "
                    "skips them there, and that build passes)"))]
    + [Entry(f"{RE}/Applications/{n}/main.hip", RE_INC)
       for n in ("bitonic_sort", "convolution", "floyd_warshall", "histogram", "prefix_sum")]
    + [Entry(f"{RE}/Tutorials/reduction/example/v{i}.hip", RED_INC, ("-std=c++20",))
       for i in (1, 2, 3, 4, 5, 6, 7, 9)]
    + [Entry(f"{RE}/Tutorials/reduction/example/v8.hip", RED_INC, ("-std=c++20",),
             fails=("gfx942", "zero-length arrays are not permitted in HIP device code",
                    "upstream: the host code instantiates kernel<32, 64>, whose __shared__ "
                    "array has BlockSize / WarpSize = 0 elements; clang (ROCm's too) rejects "
                    "that in device code"),
             fails_from_llvm=22)]  # measured: clang 19.1.7 accepts it, clang 22.1.8 rejects
    + [Entry(f"{HE}/HIP-Examples-Applications/{n}/{n}.cpp", HE_INC)
       for n in ("BinomialOption", "BitonicSort", "FastWalshTransform", "FloydWarshall",
                 "HelloWorld", "Histogram", "MatrixMultiplication", "PrefixSum",
                 "RecursiveGaussian", "SimpleConvolution", "dct", "dwtHaar1D")]
    + [Entry(f"{HE}/vectorAdd/vectoradd_hip.cpp"),
       Entry(f"{HE}/reduction/reduction.cpp"),
       Entry(f"{HE}/add4/hip-stream.cpp"),
       Entry(f"{HE}/add4/common.cpp"),
       Entry(f"{HE}/strided-access/benchmark-hip.cpp"),
       Entry(f"{HE}/mini-nbody/hip/nbody-orig.cpp", (f"{HE}/mini-nbody",)),
       Entry(f"{HE}/mini-nbody/hip/nbody-block.cpp", (f"{HE}/mini-nbody",),
             fails=("gfx942", "use of undeclared identifier 'rate'",
                    "the upstream file uses an undeclared variable in host code")),
       Entry(f"{HE}/mini-nbody/hip/nbody-soa.cpp", (f"{HE}/mini-nbody",),
             fails=("gfx942", "use of undeclared identifier 'rate'",
                    "the upstream file uses an undeclared variable in host code"))]
)
