"""Offline HIP prelude (workbench/include): HIP-style kernels compile on every target, leave no
undefined symbol in the code object, and lower to the instructions HIP's own headers produce.

Device semantics (values of blockDim, shuffle results, ...) are checked once the emulator runs
these kernels; here the ISA and metadata are checked, and the inline math algorithms are built
for the host and compared with numpy in float64.
"""

from __future__ import annotations

import ctypes
import io
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest
from ulp import signed_log_uniform, ulp_error

import workbench
from workbench.arch import get as get_arch
from workbench.devlib import find_ocml

ARCHS = ("gfx90a", "gfx942", "gfx1100", "gfx1201")
KERNELS = Path(__file__).parents[1] / "kernels" / "prelude"
INCLUDE = Path(workbench.__file__).parent / "include"

EVERYTHING_KERNELS = {
    "coordinates", "sync_and_fences", "warp_ops", "atomics", "dynamic_shared", "vectors", "halves",
    "math_float",
    "math_double", "mangled_kernel", "scale_kernel_float_256", "scale_kernel_Float16_64",
}


def _source(name: str) -> str:
    return (KERNELS / name).read_text()


@pytest.fixture(scope="module")
def everything() -> workbench.Module:
    """everything.hip (one kernel per prelude section) built for all four targets."""
    return workbench.compile(_source("everything.hip"), arch=ARCHS)


@pytest.fixture(scope="module")
def reduction() -> workbench.Module:
    return workbench.compile(_source("reduction.hip"), arch=ARCHS)


def undefined_symbols(path: Path) -> list[str]:
    """Names of the undefined (UND) symbols in a code object's symbol tables."""
    out = subprocess.run(
        [workbench.find_toolchain().tool("llvm-readelf"), "--syms", "--wide", str(path)],
        capture_output=True, text=True, check=True,
    ).stdout
    names = []
    for line in out.splitlines():
        cols = line.split()
        # Num: Value Size Type Bind Vis Ndx Name
        if len(cols) >= 8 and cols[0].endswith(":") and cols[6] == "UND":
            names.append(cols[7])
    return names


def mnemonics(co, kernel: str) -> set[str]:
    return {ins.mnemonic for ins in co.listing(kernel)}


def new_style_names(arch: str) -> bool:
    """gfx11+ renamed memory instructions (global_load_b128, ds_load_b128, s_load_b32)."""
    return get_arch(arch).gfx_major >= 11


# --------------------------------------------------------------------------------------------
# compiles everywhere, self-contained


@pytest.mark.parametrize("arch", ARCHS)
def test_everything_compiles_without_undefined_symbols(everything, arch):
    co = everything[arch]
    assert set(co.kernels) == EVERYTHING_KERNELS
    assert undefined_symbols(co.path) == []


@pytest.mark.parametrize("arch", ["gfx942", "gfx1201"])
def test_unoptimized_build_has_no_undefined_symbols(arch):
    """At -O0 nothing is inlined away: every helper must still be defined in the object."""
    co = workbench.compile(_source("everything.hip"), arch=arch, opt_level=0)[arch]
    assert undefined_symbols(co.path) == []


def test_extern_c_mangled_and_template_kernels(everything):
    co = everything["gfx942"]
    assert co.kernels["coordinates"].symbol == "coordinates"
    assert co.kernels["mangled_kernel"].symbol == "_Z14mangled_kernelPf"
    f32 = co.kernels["scale_kernel_float_256"]
    f16 = co.kernels["scale_kernel_Float16_64"]
    assert f32.symbol.startswith("_Z12scale_kernelIfLi256E")
    # __launch_bounds__(BLOCK) inside a template takes the instantiation's value
    assert f32.resources.max_flat_workgroup_size == 256
    assert f16.resources.max_flat_workgroup_size == 64


def test_including_cmath_and_algorithm_still_works():
    """Host <cmath>/<algorithm> declarations coexist with the prelude's device overloads."""
    src = """
#include <cmath>
#include <algorithm>
extern "C" __global__ void k(float* o, int* n) {
  o[0] = std::exp(o[1]) + sqrtf(o[2]) + std::max(o[3], o[4]) + powf(o[5], 2.0f) + sinf(o[6]);
  n[0] = std::max(n[1], n[2]) + min(n[3], 4);
}
"""
    co = workbench.compile(src, arch="gfx942")["gfx942"]
    assert undefined_symbols(co.path) == []


def test_library_math_without_ocml_fails_with_a_clear_message(monkeypatch):
    """With ocml turned off, a library function fails at its line, naming what to install."""
    monkeypatch.setenv("HIPWB_OCML", "off")
    src = 'extern "C" __global__ void k(double* x) {\n  x[0] = exp(x[1]) + log1pf(1.0f);\n}'
    with pytest.raises(workbench.CompileError) as err:
        workbench.compile(src, arch="gfx942")
    msg = str(err.value)
    assert "exp needs AMD's device math library (ocml.bc)" in msg
    assert "rocm-device-libs" in msg and "log1pf" in msg


@pytest.mark.skipif(find_ocml() is None, reason="no ocml.bc installed (rocm-device-libs)")
def test_library_math_links_ocml_and_leaves_no_undefined_symbols():
    src = """
extern "C" __global__ void k(double* x, float* y) {
  x[0] = exp(x[1]) + pow(x[2], 2.5) + tgamma(x[3]) + std::log1p(x[4]);
  y[0] = log1pf(y[1]) + erfinvf(y[2]) + tgammaf(y[3]) + std::atan2(y[4], y[5]) + -INFINITY;
}
"""
    mod = workbench.compile(src, arch=["gfx942", "gfx1100"])
    for arch in ("gfx942", "gfx1100"):
        assert undefined_symbols(mod[arch].path) == []


# --------------------------------------------------------------------------------------------
# what the ISA shows


@pytest.mark.parametrize("arch", ARCHS)
def test_syncthreads_emits_a_barrier(everything, arch):
    m = mnemonics(everything[arch], "sync_and_fences")
    if get_arch(arch).gfx_major >= 12:  # gfx12 splits the barrier (LLVM GFX12 s_barrier_signal)
        assert {"s_barrier_signal", "s_barrier_wait"} <= m
    else:
        assert "s_barrier" in m


@pytest.mark.parametrize("arch", ARCHS)
def test_shuffles_use_ds_bpermute(everything, arch):
    co = everything[arch]
    assert "ds_bpermute_b32" in mnemonics(co, "warp_ops")
    # the double shuffle moves two dwords: at least 2 bpermutes more than the 32-bit ones
    n = sum(ins.mnemonic == "ds_bpermute_b32" for ins in co.listing("warp_ops"))
    assert n >= 9


@pytest.mark.parametrize("arch", ARCHS)
def test_float4_moves_are_single_128_bit_accesses(everything, arch):
    m = mnemonics(everything[arch], "vectors")
    if new_style_names(arch):
        expected = {"global_load_b128", "global_store_b128", "ds_load_b128", "ds_store_b128"}
    else:
        expected = {"global_load_dwordx4", "global_store_dwordx4", "ds_read_b128",
                    "ds_write_b128"}
    assert expected <= m


@pytest.mark.parametrize("arch", ARCHS)
def test_atomics_on_shared_and_global_memory(everything, arch):
    """Generic-pointer atomics become ds_* on __shared__ arrays and global_* on buffers."""
    m = mnemonics(everything[arch], "atomics")
    assert {"ds_add_u32", "ds_add_f32"} <= m
    assert any(x.startswith("global_atomic_inc") for x in m)
    assert any(x.startswith("global_atomic_dec") for x in m)
    assert any(x.startswith("global_atomic_cmpswap") for x in m)
    assert not any(x.startswith("flat_atomic") for x in m)


@pytest.mark.parametrize(("arch", "options"), [(a, ()) for a in ARCHS]
                         + [("gfx1100", ("-mwavefrontsize64",))])
def test_warp_size_is_the_targets_wave_size(arch, options):
    src = 'extern "C" __global__ void ws(int* out) { out[threadIdx.x] = warpSize; }'
    co = workbench.compile(src, arch=arch, options=options)[arch]
    wave = 64 if options else get_arch(arch).wave_size
    assert co.kernels["ws"].resources.wave_size == wave
    # immediates of the move instructions (gfx11 may pair the move as a VOPD v_dual_mov_b32)
    movs = [ins.text for ins in co.listing("ws") if "mov" in ins.mnemonic]
    stored = {tok for text in movs for tok in re.split(r"[\s,]+", text)}
    assert str(wave) in stored
    assert str(96 - wave) not in stored  # 32 <-> 64


_SLOAD_DWORDS = {"dword": 1, "dwordx2": 2, "dwordx4": 4, "dwordx8": 8, "dwordx16": 16,
                 "b32": 1, "b64": 2, "b96": 3, "b128": 4, "b256": 8, "b512": 16}


def _kernarg_bytes_loaded(co, kernel: str) -> set[int]:
    """Kernarg byte offsets covered by the kernel's s_load instructions (immediate offsets)."""
    covered: set[int] = set()
    for ins in co.listing(kernel):
        m = re.fullmatch(r"s_load_(\w+)", ins.mnemonic)
        if not m or m.group(1) not in _SLOAD_DWORDS:
            continue
        last = ins.regs[-1]  # gfx11 prints a zero offset as the `null` soffset register
        offset = 0 if last == "null" else int(last, 0)
        covered.update(range(offset, offset + 4 * _SLOAD_DWORDS[m.group(1)]))
    return covered


@pytest.mark.parametrize("arch", ARCHS)
def test_block_and_grid_dims_read_cov5_hidden_arguments(arch):
    """blockDim = hidden_group_size_*, gridDim = hidden_block_count_* (AMDGPUUsage,
    code object V5 hidden arguments);
    with uniform work-groups the remainder terms fold away and no dispatch pointer is used."""
    src = """
extern "C" __global__ void dims(unsigned* out) {
  out[0] = blockDim.x; out[1] = gridDim.y; out[2] = blockDim.z; out[3] = gridDim.x;
}
"""
    co = workbench.compile(src, arch=arch)[arch]
    k = co.kernels["dims"]
    start = k.hidden("hidden_block_count_x").offset
    # the prelude's struct offsets agree with what LLVM's metadata says
    for kind, rel in [("hidden_block_count_y", 4), ("hidden_group_size_x", 12),
                      ("hidden_group_size_z", 16), ("hidden_remainder_x", 18)]:
        assert k.hidden(kind).offset - start == rel
    loaded = _kernarg_bytes_loaded(co, "dims")
    for kind in ["hidden_group_size_x", "hidden_group_size_z", "hidden_block_count_x",
                 "hidden_block_count_y"]:
        h = k.hidden(kind)
        assert set(range(h.offset, h.offset + h.size)) <= loaded, kind
    # uniform-work-group-size folds `id < block_count` and `remainder != 0`: nothing to compare
    assert not {m for m in mnemonics(co, "dims") if m.startswith(("s_cmp", "v_cmp"))}
    assert not k.descriptor.enable_sgpr_dispatch_ptr


def test_launch_bounds_become_llvm_attributes():
    """__launch_bounds__(128, 2) -> "amdgpu-flat-work-group-size"="1,128", "amdgpu-waves-per-eu"."""
    tc = workbench.find_toolchain()
    src = 'extern "C" __global__ void __launch_bounds__(128, 2) k(float* p) { p[0] = 1.0f; }\n'
    ir = subprocess.run(
        [tc.clang, "-x", "hip", "--offload-arch=gfx942", "--offload-device-only", "-nogpuinc",
         "-nogpulib", "-isystem", str(INCLUDE), "-include", "hip/hip_runtime.h", "-O1", "-S",
         "-emit-llvm", "-o", "-", "-"],
        input=src, capture_output=True, text=True, check=True,
    ).stdout
    assert '"amdgpu-flat-work-group-size"="1,128"' in ir
    assert re.search(r'"amdgpu-waves-per-eu"="2(,\d+)?"', ir)


def test_launch_bounds_in_metadata(everything):
    assert everything["gfx942"].kernels["coordinates"].resources.max_flat_workgroup_size == 128


# --------------------------------------------------------------------------------------------
# a kernel written for real HIP


@pytest.mark.parametrize("arch", ARCHS)
def test_real_hip_reduction_compiles_everywhere(reduction, arch):
    co = reduction[arch]
    assert undefined_symbols(co.path) == []
    bounded, unbounded = co.kernels["block_sum"], co.kernels["block_sum_unbounded"]
    assert bounded.resources.max_flat_workgroup_size == 256
    assert unbounded.resources.max_flat_workgroup_size == 1024
    assert bounded.resources.lds_bytes == 32  # float partial[8]
    assert "ds_bpermute_b32" in mnemonics(co, "block_sum")
    assert [a.name for a in bounded.args] == ["in", "out", "n"]


# --------------------------------------------------------------------------------------------
# the builtin-free parts, built for the host: shuffle lanes and the inline math algorithms


def _cuda_shuffle_source(kind: str, self_: np.ndarray, arg: np.ndarray, width: np.ndarray):
    """CUDA's documented shuffle rules, written independently of the prelude."""
    segment = self_ // width
    if kind == "idx":
        return segment * width + arg % width
    if kind == "up":
        return np.where(self_ % width < arg, self_, self_ - arg)
    if kind == "down":
        return np.where(self_ % width + arg >= width, self_, self_ + arg)
    src = self_ ^ arg  # xor: lanes of later segments are off limits
    return np.where(src // width > segment, self_, src)


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("kind", ["idx", "up", "down", "xor"])
def test_shuffle_source_lanes_follow_cuda(host, wave, kind):
    widths = [w for w in (1, 2, 4, 8, 16, 32, 64) if w <= wave]
    args = range(-5, 2 * wave) if kind == "idx" else range(0, 2 * wave)
    self_, arg, width = (np.ascontiguousarray(a.ravel(), dtype=np.int32) for a in
                         np.meshgrid(np.arange(wave), np.array(args), np.array(widths)))
    got = np.empty_like(self_)
    i32p = ctypes.POINTER(ctypes.c_int)
    host.hipwb_shfl_src(["idx", "up", "down", "xor"].index(kind),
                        *(a.ctypes.data_as(i32p) for a in (self_, arg, width, got)),
                        ctypes.c_long(got.size))
    np.testing.assert_array_equal(got, _cuda_shuffle_source(kind, self_, arg, width))
    assert ((got >= 0) & (got < wave)).all()


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    """hipwb/math_inline.h and hipwb/shuffle_lanes.h built into a host shared library."""
    lib = tmp_path_factory.mktemp("hostprelude") / "libhipwb_host.so"
    subprocess.run(
        [workbench.find_toolchain().clang, "-x", "c++", "-std=c++17", "-O2", "-shared", "-fPIC",
         "-I", str(INCLUDE), str(KERNELS / "host_harness.cpp"), "-o", str(lib), "-lm"],
        check=True, capture_output=True,
    )
    return ctypes.CDLL(str(lib))


_F32P = ctypes.POINTER(ctypes.c_float)


def _call(lib, name: str, *inputs: np.ndarray, outputs: int = 1) -> list[np.ndarray]:
    args = [np.ascontiguousarray(x, dtype=np.float32) for x in inputs]
    outs = [np.empty_like(args[0]) for _ in range(outputs)]
    getattr(lib, name)(*(a.ctypes.data_as(_F32P) for a in args + outs),
                       ctypes.c_long(args[0].size))
    return outs


def _trig_inputs() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(1)
    near_multiples = np.float32(np.arange(1, 20000) * (np.pi / 2))  # worst cancellation
    return {
        "small": rng.uniform(-10, 10, 20000),
        "cody-waite": rng.uniform(-2.0**17, 2.0**17, 20000),
        "payne-hanek": signed_log_uniform(rng, 2.0**17, 3e38, 20000),
        "tiny": signed_log_uniform(rng, 1e-30, 1e-2, 5000),
        "near k*pi/2": near_multiples,
        "switch": np.float32(2.0**17) * np.array([1 - 2**-24, 1, 1 + 2**-23, -1]),
    }


@pytest.mark.parametrize(("name", "ref", "max_ulp"), [
    ("hipwb_sinf", np.sin, 2.0), ("hipwb_cosf", np.cos, 2.0), ("hipwb_tanf", np.tan, 3.0),
])
def test_trig_accuracy(host, name, ref, max_ulp):
    for label, x in _trig_inputs().items():
        x = x.astype(np.float32)
        (got,) = _call(host, name, x)
        err = ulp_error(got, ref(x.astype(np.float64)))
        assert err.max() <= max_ulp, f"{name} {label}: {err.max():.2f} ulp at x={x[err.argmax()]!r}"


def test_trig_special_values(host):
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan], dtype=np.float32)
    (s,), (c,) = _call(host, "hipwb_sinf", x), _call(host, "hipwb_cosf", x)
    assert s[0] == 0 and not np.signbit(s[0]) and s[1] == 0 and np.signbit(s[1])
    assert c[0] == 1 and c[1] == 1
    assert np.isnan(s[2:]).all() and np.isnan(c[2:]).all()


def test_sincos_matches_sin_and_cos(host):
    x = np.concatenate(list(_trig_inputs().values())).astype(np.float32)
    s, c = _call(host, "hipwb_sincosf", x, outputs=2)
    np.testing.assert_array_equal(s, _call(host, "hipwb_sinf", x)[0])
    np.testing.assert_array_equal(c, _call(host, "hipwb_cosf", x)[0])


def test_tanh_accuracy(host):
    rng = np.random.default_rng(2)
    x = np.concatenate([rng.uniform(-12, 12, 20000), rng.uniform(-0.6, 0.6, 20000),
                        signed_log_uniform(rng, 1e-30, 1e-2, 5000),
                        [0.55, -0.55, 9.1, 9.0, 50.0, -50.0]]).astype(np.float32)
    (got,) = _call(host, "hipwb_tanhf", x)
    err = ulp_error(got, np.tanh(x.astype(np.float64)))
    assert err.max() <= 2.0, f"{err.max():.2f} ulp at x={x[err.argmax()]!r}"
    (special,) = _call(host, "hipwb_tanhf", np.array([np.inf, -np.inf, np.nan, -0.0]))
    assert special[0] == 1 and special[1] == -1 and np.isnan(special[2])
    assert special[3] == 0 and np.signbit(special[3])


def test_pow_accuracy(host):
    rng = np.random.default_rng(3)
    x = np.concatenate([np.abs(signed_log_uniform(rng, 1e-3, 1e3, 30000)),
                        rng.uniform(0.5, 2.0, 30000),  # large |y|: results near over/underflow
                        -np.abs(signed_log_uniform(rng, 1e-2, 1e2, 10000))])
    y = np.concatenate([rng.uniform(-12, 12, 30000), rng.uniform(-1000, 1000, 30000),
                        np.round(rng.uniform(-20, 20, 10000))])  # negative x: integer y
    x, y = x.astype(np.float32), y.astype(np.float32)
    ref = np.power(x.astype(np.float64), y.astype(np.float64))
    (got,) = _call(host, "hipwb_powf", x, y)
    finite = np.abs(ref) < np.finfo(np.float32).max
    err = ulp_error(got[finite], ref[finite])
    assert err.max() <= 2.0, f"{err.max():.2f} ulp"
    assert np.isinf(got[~finite]).all()


def test_pow_special_cases_follow_c99(host):
    """Annex F.9.4.4 cases, compared with the C library's pow (numpy, float64) bit for bit."""
    vals = np.array([0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 3.0, -3.0, np.inf, -np.inf,
                     np.nan, 1e-45, 2.5, -2.5])
    x, y = (a.ravel().astype(np.float32) for a in np.meshgrid(vals, vals))
    with np.errstate(all="ignore"):
        ref = np.power(x.astype(np.float64), y.astype(np.float64)).astype(np.float32)
    (got,) = _call(host, "hipwb_powf", x, y)
    for xi, yi, g, r in zip(x, y, got, ref):
        same = (np.isnan(g) and np.isnan(r)) or (g == r and np.signbit(g) == np.signbit(r))
        assert same, f"powf({xi!r}, {yi!r}) = {g!r}, C gives {r!r}"


def test_two_over_pi_table_is_right():
    """The Payne-Hanek table equals the leading bits of 2/pi (pi by Machin's formula)."""
    k = 600  # bits of precision

    def arctan_inv(n: int) -> int:  # arctan(1/n) * 2^k
        total, term, i = 0, (1 << k) // n, 0
        while term:
            total += term // (2 * i + 1) if i % 2 == 0 else -(term // (2 * i + 1))
            term //= n * n
            i += 1
        return total

    pi = 16 * arctan_inv(5) - 4 * arctan_inv(239)  # pi * 2^k
    two_over_pi = (2 << (2 * k)) // pi  # (2/pi) * 2^k
    text = (INCLUDE / "hipwb" / "math_inline.h").read_text()
    body = text.split("#define __HIPWB_TWO_OVER_PI_BITS", 1)[1].split("}", 1)[0]
    words = [int(w, 16) for w in re.findall(r"0x([0-9A-F]{8})u", body)]
    expected = [(two_over_pi >> (k - 32 * (i + 1))) & 0xFFFFFFFF for i in range(len(words))]
    assert len(words) == 8 and words == expected


@pytest.mark.skipif(find_ocml() is None, reason="needs AMD's ocml.bc (rocm-device-libs)")
@pytest.mark.parametrize("arch", ["gfx942", "gfx950", "gfx1100"])
def test_ocml_control_constants_fold_away(arch):
    """ocml branches on __oclc_ISA_version & co.; hipwb's device library defines them as
    ROCm's oclc bitcode does (folded once linked), so no kernel loads them at run time."""
    from elftools.elf.elffile import ELFFile

    from workbench import devlib

    src = ("extern \"C\" __global__ void k(const float* x, float* o) {\n"
           "  o[threadIdx.x] = log1pf(x[threadIdx.x]) + erfinvf(x[threadIdx.x]);\n}\n")
    co = workbench.compile(src, arch, cache=False)[arch]
    symbols = [s.name for sec in ELFFile(io.BytesIO(co.elf)).iter_sections()
               if sec.header.sh_type in ("SHT_SYMTAB", "SHT_DYNSYM") for s in sec.iter_symbols()]
    assert not [s for s in symbols if s.startswith("__oclc_")], symbols
    assert "s_getpc_b64" not in co.disassembly()
    ir = ('@__oclc_ISA_version = protected local_unnamed_addr addrspace(4) '
          'externally_initialized constant i32 9500, align 4\n')
    assert devlib.foldable_constants(ir) == ('@__oclc_ISA_version = linkonce_odr protected '
                                             'local_unnamed_addr addrspace(4) constant i32 '
                                             '9500, align 4\n')
