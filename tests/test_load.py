"""wb.load: an AMDGPU code object built anywhere becomes a Module that inspects, runs, traces,
checks and times exactly as the compiled one it came from; anything else is refused by name."""

from __future__ import annotations

import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import workbench as wb
from workbench.amdgpu_elf import UnsupportedCodeObject
from workbench.toolchain import find_toolchain

# LDS, a barrier and a loop whose trip count is an argument: what emulation, trace and timing see
SRC = r"""
extern "C" __global__ void smooth(const float* x, float* y, int taps, float scale) {
    __shared__ float tile[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = x[i];
    __syncthreads();
    float acc = 0.0f;
    for (int j = 0; j < taps; ++j)
        acc += tile[(threadIdx.x + j) % blockDim.x];
    y[i] = acc * scale;
}

template <typename T>
__global__ void axpy(const T* __restrict__ x, T* y, T a, unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] += a * x[i];
}
template __global__ void axpy<float>(const float* __restrict__, float*, float, unsigned);
"""
ARCHS = ("gfx942", "gfx950", "gfx1100")
CHIPS = {"gfx942": "mi300x", "gfx950": "mi355x"}


@pytest.fixture(scope="module")
def compiled():
    return wb.compile(SRC, arch=list(ARCHS))


@pytest.fixture(scope="module")
def loaded(compiled):
    return wb.load([compiled[a].elf for a in ARCHS])


def _inputs(block: int = 128, grid: int = 2):
    x = np.linspace(-1.0, 1.0, grid * block, dtype=np.float32)
    return x, np.zeros_like(x)


@pytest.mark.parametrize("arch", ARCHS)
def test_loaded_bytes_give_the_compiled_resources_occupancy_and_isa(compiled, loaded, arch):
    ck, lk = compiled.smooth, loaded.smooth
    assert loaded[arch].arch == arch and loaded[arch].elf == compiled[arch].elf
    assert lk.info(arch).resources == ck.info(arch).resources
    assert lk.info(arch).descriptor == ck.info(arch).descriptor
    for block in (64, 256, 1024):
        assert lk.occupancy(block, arch) == ck.occupancy(block, arch)
    ci, li = ck.isa_for(arch), lk.isa_for(arch)
    assert [(i.addr, i.text) for i in li] == [(i.addr, i.text) for i in ci]
    # the line tables are in the ELF: the same line numbers, without the source text
    assert [i.source_line for i in li] == [i.source_line for i in ci]
    assert "; line 4:  int i = blockIdx.x" in ci.text()
    assert "; line 4:" in li.text() and "blockIdx" not in li.text()


@pytest.mark.parametrize("arch", ARCHS)
def test_loaded_kernel_emulates_and_traces_like_the_compiled_one(compiled, loaded, arch):
    device = f"emulator:{arch}"
    x, y_c = _inputs()
    compiled.smooth.on(device)[2, 128](x, y_c, 5, 0.5)
    _, y_l = _inputs()
    loaded.smooth.on(device)[2, 128](x, y_l, np.int32(5), np.float32(0.5))
    assert np.array_equal(y_c, y_l) and y_c.any()
    tc = compiled.smooth.on(device).trace[2, 128](x, np.zeros_like(x), 5, 0.5)
    tl = loaded.smooth.on(device).trace[2, 128](x, np.zeros_like(x), 5, 0.5)
    assert len(tl.ds) == len(tc.ds) > 0
    assert tl.mnemonic_counts == tc.mnemonic_counts
    assert tl.pc_counts == tc.pc_counts and tl.wave_instructions == tc.wave_instructions


@pytest.mark.parametrize("arch", sorted(CHIPS))
def test_loaded_kernel_times_and_checks_like_the_compiled_one(compiled, loaded, arch):
    x, y = _inputs(256)
    rc = compiled.smooth.timing[2, 256](x, y, 4, 1.0, chip=CHIPS[arch], max_rows=2000)
    rl = loaded.smooth.timing[2, 256](x, y, 4, 1.0, chip=CHIPS[arch], max_rows=2000)
    assert rl.cycles == rc.cycles > 0 and rl.batch_cycles == rc.batch_cycles
    cc = compiled.smooth.on(f"emulator:{arch}").check[1, 256](x, y, 4, 1.0)
    cl = loaded.smooth.on(f"emulator:{arch}").check[1, 256](x, y, 4, 1.0)
    assert cl.counts == cc.counts and cl.completed and not cl


def test_load_from_a_path_names_the_module_after_the_file(compiled, tmp_path):
    path = tmp_path / "smooth_gfx942.hsaco"
    path.write_bytes(compiled["gfx942"].elf)
    for given in (path, str(path)):
        m = wb.load(given)
        assert m.archs == ("gfx942",) and m.filename == "smooth_gfx942.hsaco"
        assert m.source == "" and m.kernel_names() == ["smooth", "axpy"]
    assert wb.load(path, name="mine").filename == "mine"
    # the listing's cache never goes beside the user's file
    wb.load(path).smooth.isa  # noqa: B018
    assert sorted(p.name for p in tmp_path.iterdir()) == ["smooth_gfx942.hsaco"]


def test_a_list_of_two_arches_makes_one_module_holding_both(compiled, tmp_path):
    (tmp_path / "a.hsaco").write_bytes(compiled["gfx1100"].elf)
    m = wb.load([tmp_path / "a.hsaco", compiled["gfx942"].elf])
    assert m.archs == ("gfx1100", "gfx942") and m.filename == "code object"
    assert m.smooth.info("gfx1100").resources.wave_size == 32
    assert m.smooth.info("gfx942").resources.wave_size == 64
    x, y = _inputs()
    m.smooth.on("emulator:gfx1100")[2, 128](x, y, 1, 2.0)
    assert np.array_equal(y, 2 * x)


def test_a_clang_offload_bundle_gives_one_code_object_per_arch(compiled, tmp_path):
    tc = find_toolchain()
    bundler = Path(tc.tool("clang-offload-bundler"))
    if not bundler.exists():
        pytest.skip(f"no clang-offload-bundler in {tc.bin_dir}")
    ins = []
    for a in ("gfx942", "gfx1100"):
        ins.append(tmp_path / f"{a}.hsaco")
        ins[-1].write_bytes(compiled[a].elf)
    out = tmp_path / "fat.hsaco"
    subprocess.run([str(bundler), "-type=o", "-targets=host-x86_64-unknown-linux-gnu,"
                    "hipv4-amdgcn-amd-amdhsa--gfx942,hipv4-amdgcn-amd-amdhsa--gfx1100",
                    "-input=/dev/null", *(f"-input={p}" for p in ins), f"-output={out}"],
                   check=True, capture_output=True)
    assert out.read_bytes().startswith(b"__CLANG_OFFLOAD_BUNDLE__")
    m = wb.load(out)
    assert sorted(m.archs) == ["gfx1100", "gfx942"]
    assert m["gfx942"].elf == compiled["gfx942"].elf
    assert m["gfx1100"].elf == compiled["gfx1100"].elf


def test_a_host_object_with_a_hip_fatbin_section_gives_its_device_code(tmp_path):
    tc = find_toolchain()
    src = tmp_path / "k.hip"
    src.write_text('#include <hip/hip_runtime.h>\nextern "C" __global__ void twice(float* p) '
                   '{ p[threadIdx.x] *= 2.0f; }\n')
    inc = Path(wb.compiler.INCLUDE_DIR)
    obj = tmp_path / "k.o"
    subprocess.run([tc.clang, "-x", "hip", "--offload-arch=gfx942", "--offload-arch=gfx1100",
                    "-c", "-O2", "-nogpulib", "-nogpuinc", "-isystem", str(inc), "-idirafter",
                    str(inc / "hip"), "-o", str(obj), str(src)], check=True, capture_output=True)
    m = wb.load(obj)
    assert sorted(m.archs) == ["gfx1100", "gfx942"] and m.kernel_names() == ["twice"]
    p = np.arange(64, dtype=np.float32)
    m.twice.on("emulator:gfx942")[1, 64](p)
    assert np.array_equal(p, 2 * np.arange(64, dtype=np.float32))


def test_code_object_v4_from_plain_clang_loads_and_runs(tmp_path):
    """v4 reads the work-group size from the dispatch packet, not hidden arguments."""
    src = tmp_path / "v4.hip"
    src.write_text('extern "C" __attribute__((global)) void ids(unsigned* out) {\n'
                   '  unsigned i = __builtin_amdgcn_workgroup_id_x() * '
                   '__builtin_amdgcn_workgroup_size_x() + __builtin_amdgcn_workitem_id_x();\n'
                   '  out[i] = i; }\n')
    out = tmp_path / "v4.hsaco"
    subprocess.run([find_toolchain().clang, "-x", "hip", "--offload-arch=gfx942",
                    "--offload-device-only", "--no-gpu-bundle-output", "-nogpulib", "-nogpuinc",
                    "-O2", "-mcode-object-version=4", "-o", str(out), str(src)], check=True,
                   capture_output=True)
    assert out.read_bytes()[8] == 2  # EI_ABIVERSION 2: code object v4
    m = wb.load(out)
    got = np.zeros(256, np.uint32)
    m.ids[4, 64](got)
    assert np.array_equal(got, np.arange(256, dtype=np.uint32))


def test_cxx_kernel_arguments_are_typed_from_the_mangled_name(loaded):
    info = loaded.axpy.info()
    assert [a.ctype for a in info.args] == ["const float *", "float *", "float", "unsigned int"]
    assert [a.name for a in info.args] == ["arg0", "arg1", "arg2", "arg3"]
    assert info.args[0].is_const and info.args[0].pointee == "float"
    with pytest.raises(wb.LaunchError, match="expects float32 elements, got a float64"):
        loaded.axpy[1, 64](np.zeros(64), np.zeros(64), 1.0, 64)


def test_extern_c_by_value_arguments_are_typed_by_the_value_given(loaded):
    info = loaded.smooth.info()
    assert info.signature == "smooth(void *arg0, void *arg1, <4 bytes> arg2, <4 bytes> arg3)"
    assert info.llvm_occupancy is None
    x, y = _inputs()
    loaded.smooth[2, 128](x, y, 1, 3.0)  # int -> int32, float -> float32 (4 bytes each)
    assert np.array_equal(y, 3 * x)
    loaded.smooth[2, 128](x, y, np.uint32(1), struct.pack("<f", 0.5))
    assert np.array_equal(y, x / 2)
    with pytest.raises(wb.LaunchError, match="4 bytes in the kernel's metadata but got a float64"):
        loaded.smooth[2, 128](x, y, 1, np.float64(2.0))
    with pytest.raises(wb.LaunchError, match="whose C type the code object does not record"):
        loaded.smooth[2, 128](x, y, 1, "2")


def test_target_id_reads_xnack_and_sramecc_from_e_flags(compiled):
    elf = bytearray(compiled["gfx942"].elf)
    assert compiled["gfx942"].target_id == "gfx942"  # xnack and sramecc "any"
    flags = struct.unpack_from("<I", elf, 48)[0]
    struct.pack_into("<I", elf, 48, (flags & ~0xF00) | 0x300 | 0x800)  # xnack on, sramecc off
    assert wb.load(bytes(elf))["gfx942"].target_id == "gfx942:sramecc-:xnack+"


def _patched(elf: bytes, offset: int, fmt: str, value: int) -> bytes:
    out = bytearray(elf)
    struct.pack_into(fmt, out, offset, value)
    return bytes(out)


def test_bytes_that_are_not_an_elf_are_refused_by_name(tmp_path):
    with pytest.raises(wb.CodeObjectError, match=r"code object given as bytes is not an ELF "
                                                 r"file \(it starts with b'hello wo'\)"):
        wb.load(b"hello world")
    (tmp_path / "notes.txt").write_text("just text")
    with pytest.raises(wb.CodeObjectError, match=r"notes\.txt is not an ELF file"):
        wb.load(tmp_path / "notes.txt")
    with pytest.raises(wb.CodeObjectError, match="is empty"):
        wb.load(b"")
    with pytest.raises(wb.CodeObjectError, match="no such file: .*missing.hsaco"):
        wb.load(tmp_path / "missing.hsaco")
    assert issubclass(wb.CodeObjectError, wb.HipwbError)


def test_an_x86_elf_is_refused_naming_its_machine():
    if not Path("/bin/ls").exists():
        pytest.skip("no /bin/ls")
    with pytest.raises(wb.CodeObjectError, match=r"/bin/ls is not an AMDGPU ELF "
                                                 r"\(e_machine=62: x86-64\)"):
        wb.load("/bin/ls")


def test_a_truncated_code_object_is_refused_with_its_size(compiled, tmp_path):
    elf = compiled["gfx942"].elf
    (tmp_path / "cut.hsaco").write_bytes(elf[:len(elf) // 2])
    with pytest.raises(wb.CodeObjectError, match=rf"cut\.hsaco is truncated: .* but it has "
                                                 rf"{len(elf) // 2} bytes"):
        wb.load(tmp_path / "cut.hsaco")
    with pytest.raises(wb.CodeObjectError, match="is not a 64-bit ELF file .only 20 bytes"):
        wb.load(elf[:20])


def test_an_unknown_processor_is_refused_naming_the_value_and_the_known_archs(compiled):
    elf = compiled["gfx942"].elf
    flags = struct.unpack_from("<I", elf, 48)[0]
    with pytest.raises(UnsupportedCodeObject, match=r"processor gfx908 \(EF_AMDGPU_MACH 0x30\)"
                                                    r".*hipwb knows gfx90a, gfx942, gfx950"):
        wb.load(_patched(elf, 48, "<I", (flags & ~0xFF) | 0x30))
    with pytest.raises(wb.CodeObjectError, match="EF_AMDGPU_MACH 0x7a, a value LLVM 22 does "
                                                 "not name"):
        wb.load(_patched(elf, 48, "<I", (flags & ~0xFF) | 0x7A))
    with pytest.raises(wb.CodeObjectError, match="gfx9-4-generic.*rebuild it for one of them"):
        wb.load(_patched(elf, 48, "<I", (flags & ~0xFF) | 0x5F))


def test_old_versions_unlinked_objects_and_packed_bundles_are_refused(compiled):
    elf = compiled["gfx942"].elf
    with pytest.raises(wb.CodeObjectError, match="code object v3; hipwb reads v4, v5 and v6"):
        wb.load(_patched(elf, 8, "<B", 1))  # EI_ABIVERSION 1: v3
    with pytest.raises(wb.CodeObjectError, match=r"relocatable object .*ld\.lld -shared"):
        wb.load(_patched(elf, 16, "<H", 1))  # e_type ET_REL
    with pytest.raises(wb.CodeObjectError, match="compressed clang offload bundle.*"
                                                 "clang-offload-bundler -unbundle"):
        wb.load(b"CCOB" + bytes(60))
    with pytest.raises(wb.CodeObjectError, match="damaged clang offload bundle"):
        wb.load(b"__CLANG_OFFLOAD_BUNDLE__\x01")


def test_an_empty_list_and_two_objects_for_one_arch_are_refused(compiled):
    with pytest.raises(ValueError, match="the list is empty") as ei:
        wb.load([])
    assert isinstance(ei.value, wb.HipwbError)
    elf = compiled["gfx942"].elf
    with pytest.raises(wb.CodeObjectError, match=r"code object 1 \(bytes\) and code object 0 "
                                                 r"\(bytes\) are both for gfx942"):
        wb.load([elf, elf])
    with pytest.raises(TypeError, match="argument 'code_object' takes bytes"):
        wb.load(42)


def test_hipwb_inspect_reports_a_code_object_file(compiled, tmp_path):
    (tmp_path / "k.hsaco").write_bytes(compiled["gfx942"].elf)
    cmd = [sys.executable, "-m", "workbench.cli", "inspect"]
    r = subprocess.run([*cmd, "k.hsaco", "--isa"], capture_output=True, text=True,
                       cwd=tmp_path, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("k.hsaco: 2 kernels for gfx942")
    assert "smooth(void *arg0, void *arg1, <4 bytes> arg2, <4 bytes> arg3)" in r.stdout
    assert "occupancy" in r.stdout and "ds_read" in r.stdout
    r = subprocess.run([*cmd, "/bin/ls"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and "not an AMDGPU ELF" in r.stderr


def test_a_launch_on_an_arch_not_loaded_says_load_one(compiled):
    from workbench.errors import LaunchError

    m = wb.load(compiled["gfx942"].elf)
    x, y = _inputs()
    with pytest.raises(LaunchError, match=r"emulator:gfx950 runs gfx950 code objects: load a "
                                          r"code object built for gfx950"):
        m.smooth.on("emulator:gfx950")[2, 128](x, y, np.int32(5), np.float32(0.5))
