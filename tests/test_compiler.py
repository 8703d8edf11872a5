"""compile(): cache hits, header invalidation, errors at the user's lines, archs, templates."""

from __future__ import annotations

import os

import pytest

import workbench as wb
from workbench import compiler, toolchain

ADD = """extern "C" __global__ void add(const float* x, const float* y, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = x[i] + y[i];
}
"""


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory, monkeypatch):
    """One private disk cache for this module; the in-process memo starts empty per test."""
    root = tmp_path_factory.getbasetemp() / "hipwb-cache-compiler"
    monkeypatch.setenv("HIPWB_CACHE_DIR", str(root))
    compiler.clear_cache(memory_only=True)
    yield
    compiler.clear_cache(memory_only=True)


def test_second_compile_is_a_cache_hit_in_memory_and_on_disk():
    src = ADD.replace("add(", "add_cache_probe(")
    first = wb.compile(src, "gfx942")
    assert not first.from_cache
    again = wb.compile(src, "gfx942")
    assert again.from_cache
    assert again["gfx942"].path == first["gfx942"].path
    compiler.clear_cache(memory_only=True)  # as a fresh process would see it
    disk = wb.compile(src, "gfx942")
    assert disk.from_cache
    assert disk["gfx942"].kernels["add_cache_probe"].resources == \
        first["gfx942"].kernels["add_cache_probe"].resources
    # Different flags are a different object.
    assert not wb.compile(src, "gfx942", opt_level=1).from_cache


def test_editing_an_included_header_invalidates_the_cache(tmp_path):
    hdr = tmp_path / "scale.h"
    hdr.write_text("#define SCALE 3\n")
    src = ('#include "scale.h"\n'
           "__global__ void scaled(int* p) { p[0] = SCALE * 1000; }\n")
    first = wb.compile(src, "gfx942", include_dirs=[tmp_path])
    assert "0xbb8" in first["gfx942"].disassembly()  # 3000
    assert wb.compile(src, "gfx942", include_dirs=[tmp_path]).from_cache
    hdr.write_text("#define SCALE 5\n")  # same size: only the content hash tells
    st = os.stat(hdr)
    os.utime(hdr, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    edited = wb.compile(src, "gfx942", include_dirs=[tmp_path])
    assert not edited.from_cache
    assert "0x1388" in edited["gfx942"].disassembly()  # 5000


def test_compile_error_cites_cell_lines():
    body = "__global__ void broken(int* p) {\n    p[0] = undefined_name;\n}\n"
    with pytest.raises(wb.CompileError) as info:
        wb.compile(body, "gfx942", filename="cell", first_line=2)
    err = info.value
    assert str(err).startswith("cell line 3: use of undeclared identifier 'undefined_name'")
    first = next(d for d in err.diagnostics if d.severity == "error")
    assert (first.file, first.line) == ("cell", 3)
    assert "p[0] = undefined_name;" in str(err)  # clang's snippet
    assert err.arch == "gfx942"


def test_an_error_inside_a_prelude_template_is_headed_by_the_cell_line_that_reached_it():
    # HIP's *_sync functions static_assert a 64-bit mask; the assertion fires in warp.h, but
    # the line to fix is the cell's
    body = ("__global__ void k(float* x) {\n  float v = x[threadIdx.x];\n"
            "  v += __shfl_xor_sync(0xffffffff, v, 1);\n  x[threadIdx.x] = v;\n}\n")
    with pytest.raises(wb.CompileError) as info:
        wb.compile(body, "gfx942", filename="cell", cache=False)
    head = str(info.value).splitlines()[0]
    assert head.startswith("cell line 3: static assertion failed")
    assert "(in " in head and "warp.h:" in head and "reached from this line" in head


def test_unknown_arch_is_named():
    with pytest.raises(ValueError, match="unknown arch 'gfx9999'.*gfx942"):
        wb.compile(ADD, "gfx9999")


def test_empty_llvm_dir_gives_the_install_hint(tmp_path, monkeypatch):
    monkeypatch.setenv("HIPWB_LLVM_DIR", str(tmp_path))
    toolchain.reset_cache()
    try:
        with pytest.raises(wb.ToolchainError) as info:
            wb.compile(ADD.replace("add(", "add_no_llvm("), "gfx942")
        msg = str(info.value)
        assert str(tmp_path) in msg and "missing clang" in msg
        assert "apt-get install -y clang-22 lld-22 llvm-22" in msg
        assert "HIPWB_LLVM_DIR" in msg
    finally:
        monkeypatch.delenv("HIPWB_LLVM_DIR")
        toolchain.reset_cache()
    assert wb.find_toolchain().clang_major >= 19


def test_several_archs_in_one_call():
    mod = wb.compile(ADD, ["gfx942", "gfx1100", "gfx942"])
    assert mod.archs == ("gfx942", "gfx1100")  # deduplicated, in order
    assert mod["gfx942"].arch == "gfx942" and mod["gfx1100"].arch == "gfx1100"
    assert mod["gfx942"].kernels["add"].resources.wave_size == 64
    assert mod["gfx1100"].kernels["add"].resources.wave_size == 32
    assert mod["gfx942"].elf != mod["gfx1100"].elf
    with pytest.raises(KeyError, match="gfx942, gfx1100, not gfx90a"):
        mod["gfx90a"]


def test_template_kernels_get_python_names():
    src = """template <typename T>
__global__ void scale(T* x, T a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
}
template __global__ void scale<float>(float*, float, int);
template __global__ void scale<double>(double*, double, int);
"""
    ks = wb.compile(src, "gfx942").kernels
    assert set(ks) == {"scale_float", "scale_double"}
    f, d = ks["scale_float"], ks["scale_double"]
    assert f.symbol != d.symbol and f.symbol.startswith("_Z")
    assert [a.ctype for a in f.args] == ["float *", "float", "int"]
    assert [a.ctype for a in d.args] == ["double *", "double", "int"]
    assert f.signature == "scale_float(float *x, float a, int n)"


def test_backend_failure_names_the_target_and_leaves_no_crash_files(tmp_path, monkeypatch):
    """A builtin the target's code generator cannot select (i8 16x16x16 MFMA is gone on gfx942)
    fails with a head naming the target and the reason, and clang writes no reproducer files."""
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    src = """typedef int i4 __attribute__((ext_vector_type(4)));
extern "C" __global__ void mm(i4* out, const int* a) {
    out[threadIdx.x] = __builtin_amdgcn_mfma_i32_16x16x16i8(a[0], a[1], i4{}, 0, 0, 0);
}"""
    with pytest.raises(wb.CompileError) as e:
        wb.compile(src, arch="gfx942", cache=False)
    head = str(e.value).splitlines()[0]
    assert head.startswith("the gfx942 code generator failed: Cannot select: intrinsic")
    assert "mfma.i32.16x16x16i8" in head
    assert not list(tmp_path.glob("cell-*"))
