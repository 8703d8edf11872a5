"""By-value structs holding device pointers (HipKittens' ``globals``, Composable Kernel's
``kargs``): a dataclass mirrors the struct, its fields annotated with their C types. Real
clang and the real emulator (gfx942, gfx950); the ROCm path with a stand-in cupy (mocked, no
AMD GPU: the packed kernarg bytes); the CUDA path on a real NVIDIA GPU only (skipped here).

C types as annotations are not Python expressions: linters flag them (F722, F821) and, under
``from __future__ import annotations`` (kept here: the quoted form is what hipwb then sees),
ask for the quotes to go (UP037).
"""
# ruff: noqa: F722, F821, UP037

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from gpu.fake_cupy import FakeCupy
from gpu.nvidia import needs_nvidia_gpu

import workbench as wb
from workbench.runtime import Kernel, LaunchError
from workbench.runtime.args import bind_args
from workbench.runtime.marshal import pack_explicit, pack_kernargs
from workbench.runtime.rocm import RocmDevice
from workbench.runtime.structs import struct_layout, struct_type

ROOT = Path(__file__).resolve().parents[2]
SOURCE = (ROOT / "kernels" / "portable" / "struct_args.hip").read_text()
EMULATORS = ("emulator:gfx942", "emulator:gfx950")


@dataclass
class SaxpyArgs:
    x: "const float*"
    y: "float*"
    n: "int"
    alpha: "float"


@dataclass
class Dims:
    rows: "int"
    cols: "int"


@dataclass
class Globals:  # 3 pointers, 3 ints and a nested struct of two ints, as HipKittens' globals
    a: "const float*"
    b: "const float*"
    c: "float*"
    lda: "int"
    scale: "int"
    bias: "int"
    dims: Dims


MIXED = """
struct Mixed { float* out; float c[3]; float2 v; short s; };
extern "C" __global__ void mixed(Mixed m) {
    int i = threadIdx.x;
    if (i < 3) m.out[i] = m.c[i] * m.v.x + m.v.y + m.s;
}
"""


@dataclass
class Mixed:
    out: "float*"
    c: "float[3]"
    v: "float2"
    s: "short"


@pytest.fixture(scope="module")
def module():
    return wb.compile(SOURCE, arch=["gfx942", "gfx950"], filename="struct_args.hip")


def _globals(rng, rows=5, cols=19, lda=24):
    a = rng.random((rows, lda), dtype=np.float32)
    b = rng.random((rows, cols), dtype=np.float32)
    c = np.zeros((rows, cols), np.float32)
    return a, b, c, Globals(a, b, c, lda, 3, 7, Dims(rows, cols))


def test_layout_is_the_c_layout_and_the_kernels_metadata_size(module):
    lay = struct_layout(Globals)
    assert [(f.name, f.offset, f.size) for f in lay.fields] == [
        ("a", 0, 8), ("b", 8, 8), ("c", 16, 8), ("lda", 24, 4), ("scale", 28, 4),
        ("bias", 32, 4), ("dims", 36, 8)]
    assert (lay.size, lay.align) == (48, 8)
    for arch in ("gfx942", "gfx950"):
        assert module[arch].kernel("scale_add_2d").args[0].size == 48
        assert module[arch].kernel("saxpy_struct").args[0].size == struct_layout(SaxpyArgs).size
    mixed = struct_layout(Mixed)
    assert [(f.name, f.offset) for f in mixed.fields] == [("out", 0), ("c", 8), ("v", 24),
                                                          ("s", 32)]
    assert mixed.size == 40


@pytest.mark.parametrize("dev", EMULATORS)
def test_saxpy_struct_on_the_emulator(module, dev):
    x = np.arange(1000, dtype=np.float32)
    y = np.ones(1000, np.float32)
    module.saxpy_struct.on(dev)[4, 256](SaxpyArgs(x=x, y=y, n=1000, alpha=2.0))
    np.testing.assert_array_equal(y, 1 + 2 * x)


@pytest.mark.parametrize("dev", EMULATORS)
def test_hipkittens_like_globals_on_the_emulator(module, dev):
    a, b, c, g = _globals(np.random.default_rng(0))
    module.scale_add_2d.on(dev)[(2, 1), (16, 16)](g)
    np.testing.assert_allclose(c, 3 * a[:, :19] + b + 7, rtol=1e-6)
    # a nested struct may also be given as a dict or a tuple of its fields
    c[:] = 0
    g.dims = {"rows": 5, "cols": 19}
    module.scale_add_2d.on(dev)[(2, 1), (16, 16)](g)
    np.testing.assert_allclose(c, 3 * a[:, :19] + b + 7, rtol=1e-6)


@pytest.mark.parametrize("dev", EMULATORS)
def test_array_vector_and_short_fields_on_the_emulator(dev):
    m = wb.compile(MIXED, arch=dev.split(":")[1])
    assert m.mixed.info().args[0].size == struct_layout(Mixed).size
    out = np.zeros(3, np.float32)
    m.mixed.on(dev)[1, 64](Mixed(out, [1.0, 2.0, 3.0], (10.0, 0.5), -1))
    np.testing.assert_array_equal(out, np.array([1, 2, 3], np.float32) * 10 + 0.5 - 1)


def test_struct_fault_names_the_field(module):
    x = np.arange(10, dtype=np.float32)
    y = np.zeros(10, np.float32)
    with pytest.raises(wb.KernelFault, match=r"a\.x|a\.y"):
        module.saxpy_struct.on("emulator:gfx942")[1, 64](SaxpyArgs(x, y, 64, 1.0))


def test_wrong_field_name_missing_field_wrong_dtype_are_clear(module):
    k = module.scale_add_2d.on("emulator:gfx942")
    a, b, c, g = _globals(np.random.default_rng(1))
    g.dims = {"rows": 5, "colz": 19}
    with pytest.raises(LaunchError, match=r"argument 0 'g' of scale_add_2d, field 'dims' "
                                          r"\(Dims\) has no field 'colz'; fields: rows \(int\), "
                                          r"cols \(int\)"):
        k[1, 64](g)
    g.dims = Dims(5, 19)
    g.c = None  # a null pointer, as in C: the kernel's store through it faults, named as such
    with pytest.raises(wb.KernelFault, match=r"address 0x[0-9a-f]+\) — a null pointer"):
        k[1, 64](g)
    g.c = c.astype(np.float64)
    with pytest.raises(LaunchError, match=r"field 'c' \(float\*\) expects float32 elements, "
                                          r"got a float64 ndarray"):
        k[1, 64](g)
    g.c, g.lda = c, 2**40
    with pytest.raises(LaunchError, match=r"field 'lda' \(int\) must be in"):
        k[1, 64](g)
    g.lda = 24
    g.dims = {"rows": 5}
    with pytest.raises(LaunchError, match=r"field 'dims\.cols' \(int\) is missing"):
        k[1, 64](g)


def test_a_mirror_of_the_wrong_size_and_a_bare_dict_are_refused(module):
    @dataclass
    class Short:  # lda/scale/bias/dims left out
        a: "const float*"
        b: "const float*"
        c: "float*"

    x = np.zeros(4, np.float32)
    with pytest.raises(LaunchError, match=r"'Globals' of 48 bytes .* Short lays out to 24"):
        module.scale_add_2d.on("emulator:gfx942")[1, 64](Short(x, x, x))
    with pytest.raises(LaunchError, match=r"or a dataclass instance mirroring the struct"):
        module.saxpy_struct.on("emulator:gfx942")[1, 64]({"x": x, "y": x, "n": 4,
                                                          "alpha": 1.0})

    @dataclass
    class Odd:
        p: "float**x"

    with pytest.raises(LaunchError, match=r"field 'p' of Odd: C type 'float\*\*x'"):
        module.saxpy_struct.on("emulator:gfx942")[1, 64](Odd(x))


def test_kernarg_bytes_hold_the_field_addresses(module):
    info = module["gfx942"].kernel("saxpy_struct")
    x = np.arange(8, dtype=np.float32)
    y = np.zeros(8, np.float32)
    bound = bind_args(info, (SaxpyArgs(x, y, 8, 0.5),))
    assert [b.name for b in bound] == ["a", "a.x", "a.y"]
    assert [b.arg.offset for b in bound[1:]] == [0, 8]
    packed = pack_kernargs(info, bound, [None, 0x1000, 0x2000], (1, 1, 1), (64, 1, 1))
    assert packed[:24] == struct.pack("<QQif", 0x1000, 0x2000, 8, 0.5)


# ------------------------------------------------------- struct_type: clang's own layout

def test_struct_type_mirrors_the_struct_from_clangs_layout(module):
    G = struct_type(module.scale_add_2d)
    assert G.__qualname__ == "Globals"
    got = [(f.name, f.ctype, f.offset, f.size) for f in struct_layout(G).fields]
    assert got == [("a", "const float *", 0, 8), ("b", "const float *", 8, 8),
                   ("c", "float *", 16, 8), ("lda", "int", 24, 4), ("scale", "int", 28, 4),
                   ("bias", "int", 32, 4), ("dims", "Dims", 36, 8)]
    assert [f.offset for f in struct_layout(G).fields] == [
        f.offset for f in struct_layout(Globals).fields]  # the hand-written mirror agrees
    S = struct_type(module.saxpy_struct, "a", arch="gfx950")
    assert [f.name for f in struct_layout(S).fields] == ["x", "y", "n", "alpha"]


@pytest.mark.parametrize("dev", EMULATORS)
def test_struct_type_instances_launch_on_the_emulator(module, dev):
    G = struct_type(module.scale_add_2d)
    rng = np.random.default_rng(3)
    a, b, c, _ = _globals(rng)
    g = G(a=a, b=b, c=c, lda=24, scale=3, bias=7, dims={"rows": 5, "cols": 19})
    module.scale_add_2d.on(dev)[(2, 1), (16, 16)](g)
    np.testing.assert_allclose(c, 3 * a[:, :19] + b + 7, rtol=1e-6)
    g.a = a.astype(np.float16)
    with pytest.raises(LaunchError, match=r"field 'a' \(const float \*\) expects float32"):
        module.scale_add_2d.on(dev)[(2, 1), (16, 16)](g)


def test_struct_type_with_typedefs_namespaces_vectors_and_arrays():
    src = """
    namespace hk { typedef float f32; struct Dims { int m; int k; };
    struct Args { const f32* x; f32* y; int n; float alpha; Dims d; float c[3]; float2 v;
                  short s; }; }
    __global__ void k(hk::Args a) {
        int i = threadIdx.x;
        if (i < a.n) a.y[i] = a.alpha * a.x[i] + a.d.m + a.c[2] + a.v.y + a.s;
    }
    """
    m = wb.compile(src, arch="gfx950")
    A = struct_type(m.k)
    assert [(f.name, f.offset) for f in struct_layout(A).fields] == [
        ("x", 0), ("y", 8), ("n", 16), ("alpha", 20), ("d", 24), ("c", 32), ("v", 48),
        ("s", 56)]
    x = np.arange(64, dtype=np.float32)
    y = np.zeros(64, np.float32)
    m.k.on("emulator:gfx950")[1, 64](A(x=x, y=y, n=64, alpha=2.0, d=(1, 0), c=[0, 0, 3],
                                       v=(0, 4), s=5))
    np.testing.assert_array_equal(y, 2 * x + 13)


def test_struct_type_with_empty_members_wrapped_dims_and_a_null_stream():
    """HipKittens' ``gl``: a pointer, dimensions wrapped in one-field structs, an empty
    descriptor dictionary (1 byte, as C++ gives an empty class), and the globals' stream
    handle, a pointer to an opaque struct, passed as None (a null pointer)."""
    src = """
    #include <hip/hip_runtime.h>
    namespace kt { struct rdim { size_t v; }; template <class... T> struct descs {};
    template <class T> struct gl { T* raw_ptr; rdim rows_internal, cols_internal;
                                   descs<> tma_descs; };
    struct globals { gl<float> a; gl<float> c; hipStream_t stream; }; }
    __global__ void scale(const kt::globals g) {
        size_t i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < g.a.rows_internal.v * g.a.cols_internal.v) g.c.raw_ptr[i] = 2 * g.a.raw_ptr[i];
    }
    """
    m = wb.compile(src, arch="gfx950")
    G = struct_type(m.scale)
    lay = struct_layout(G)
    assert [(f.name, f.offset, f.size) for f in lay.fields] == [
        ("a", 0, 32), ("c", 32, 32), ("stream", 64, 8)]
    gl = lay.fields[0].sub
    assert [(f.name, f.kind, f.offset, f.size) for f in gl.fields] == [
        ("raw_ptr", "pointer", 0, 8), ("rows_internal", "struct", 8, 8),
        ("cols_internal", "struct", 16, 8), ("tma_descs", "struct", 24, 1)]
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    c = np.zeros_like(a)

    def view(t):  # the empty member needs no value
        return {"raw_ptr": t, "rows_internal": {"v": 3}, "cols_internal": {"v": 4}}

    m.scale.on("emulator:gfx950")[1, 64](G(a=view(a), c=view(c), stream=None))
    np.testing.assert_array_equal(c, 2 * a)
    with pytest.raises(LaunchError, match=r"field 'a.raw_ptr' \(float \*\) is missing"):
        m.scale.on("emulator:gfx950")[1, 64](G(a={"rows_internal": {"v": 3},
                                                  "cols_internal": {"v": 4}},
                                               c=view(c), stream=None))


def test_struct_type_refuses_what_it_cannot_mirror():
    src = """
    struct __attribute__((packed)) P { char c; float* p; };
    struct B { int lo : 4; int hi : 28; float* p; };
    __global__ void packed(P a) { if (a.c) *a.p = 1; }
    __global__ void bits(B b) { if (b.lo) *b.p = b.hi; }
    __global__ void plain(float* p, int n) { if (n) *p = 1; }
    """
    m = wb.compile(src, arch="gfx942")
    with pytest.raises(LaunchError, match=r"clang puts field 'p' \(float \*\) at offset 1, "
                                          r"the C rules hipwb applies at 8"):
        struct_type(m.packed)
    with pytest.raises(LaunchError, match=r"struct B has a bit-field \(int lo\)"):
        struct_type(m.bits)
    with pytest.raises(LaunchError, match=r"argument 'n' of plain is a int, not a struct"):
        struct_type(m.plain, "n")
    with pytest.raises(LaunchError, match=r"plain has no argument 'q' \(arguments: p, n\)"):
        struct_type(m.plain, "q")


# ------------------------------------------------------- ROCm, mocked (no AMD GPU here)

def _saxpy_reference(mem, grid, block, a):
    """What saxpy_struct does, on the fake device memory, from the struct's bytes."""
    x, y, n, alpha = struct.unpack("<QQif", np.asarray(a).tobytes())
    mem.view(y, np.float32, n)[:] += alpha * mem.view(x, np.float32, n)


def test_rocm_struct_kernarg_bytes_with_fake_cupy_mocked_no_amd_gpu(monkeypatch, module):
    fake = FakeCupy(hip=True, kernels={"saxpy_struct": _saxpy_reference}).install(monkeypatch)
    dev = RocmDevice(0)
    k = Kernel(module, "saxpy_struct").on(dev)
    x = np.arange(300, dtype=np.float32)
    y = np.ones(300, np.float32)  # host arrays: staged to the device and copied back
    d_x = fake.asarray(x)  # a device array: passed in place
    res = k[2, 256](SaxpyArgs(x=d_x, y=y, n=300, alpha=3.0), guard=False)
    (val,) = fake.launches[0]["args"]
    assert np.asarray(val).dtype.str == "|V24"  # one by-value argument of the metadata's size
    px, py, n, alpha = struct.unpack("<QQif", np.asarray(val).tobytes())
    assert px == d_x.data.ptr and py not in (0, px) and (n, alpha) == (300, 3.0)
    np.testing.assert_array_equal(y, 1 + 3 * x)
    assert res.stats["staged"] == 1
    # the value is what the emulator packs at the argument's offset for the same addresses
    info = module["gfx942"].kernel("saxpy_struct")
    bound = bind_args(info, (SaxpyArgs(x=d_x, y=y, n=300, alpha=3.0),))
    assert pack_explicit(info, bound, [None, px, py])[:24] == np.asarray(val).tobytes()


# ------------------------------------------------------- CUDA: a real NVIDIA GPU only

@needs_nvidia_gpu
@pytest.mark.gpu
def test_struct_kernels_on_nvidia_gpu():
    import cupy

    mod = wb.compile(SOURCE, arch="gfx942", filename="struct_args.hip")
    dev = "cuda"
    x = cupy.arange(100_003, dtype=cupy.float32)
    y = cupy.ones(100_003, dtype=cupy.float32)
    mod.saxpy_struct.on(dev)[(100_003 + 255) // 256, 256](SaxpyArgs(x, y, 100_003, 2.0))
    cupy.testing.assert_array_equal(y, 1 + 2 * x)
    a, b, c, g = _globals(np.random.default_rng(2), rows=300, cols=257, lda=260)
    mod.scale_add_2d.on(dev)[((257 + 15) // 16, (300 + 15) // 16), (16, 16)](g)  # host arrays
    np.testing.assert_allclose(c, 3 * a[:, :257] + b + 7, rtol=1e-6)
    ga, gb, gc = cupy.asarray(a), cupy.asarray(b), cupy.zeros_like(cupy.asarray(c))
    g2 = Globals(ga, gb, gc, 260, 3, 7, Dims(300, 257))
    mod.scale_add_2d.on(dev)[((257 + 15) // 16, (300 + 15) // 16), (16, 16)](g2)
    np.testing.assert_allclose(gc.get(), 3 * a[:, :257] + b + 7, rtol=1e-6)
    S = struct_type(mod.saxpy_struct)  # clang's layout, the same bytes on the NVIDIA GPU
    y[:] = 1
    mod.saxpy_struct.on(dev)[(100_003 + 255) // 256, 256](S(x=x, y=y, n=100_003, alpha=0.5))
    cupy.testing.assert_array_equal(y, 1 + 0.5 * x)
