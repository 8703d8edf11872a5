"""RocmDevice without an AMD GPU: a fake cupy module (tests/gpu/fake_cupy.py) stands in for
cupy's ROCm build, so marshalling, arch/target checks, code-object loading and hiprtc options
are checked here; the real ROCm launch awaits verification on AMD hardware."""

from __future__ import annotations

import struct

import numpy as np
import pytest
import torch
from gpu.fake_cupy import FakeArray, FakeCupy

import workbench as wb
from workbench.runtime import Kernel, LaunchError
from workbench.runtime.args import bind_args
from workbench.runtime.marshal import check_layout, launch_values, pack_explicit, pack_kernargs
from workbench.runtime.rocm import (
    RocmDevice,
    TargetId,
    check_code_object,
    elf_target,
    hiprtc_options,
)

ADD = """
extern "C" __global__ void add(const float* x, const float* y, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = x[i] + y[i];
}
"""

MIXED = """
struct Pair { int a; float b; };
extern "C" __global__ void mixed(char c, short s, long long big, double d, Pair p,
                                 unsigned int* out) {
    if (threadIdx.x == 0) out[0] = c + s + (unsigned)big + (unsigned)d + p.a;
}
template <typename T> __global__ void scale(T* x, T a, int n) {
    int i = threadIdx.x; if (i < n) x[i] *= a;
}
template __global__ void scale<float>(float*, float, int);
"""


def add_reference(mem, grid, block, x, y, out, n):
    """What `add` does, on the fake device memory: checks the pointer/scalar values passed."""
    assert isinstance(n, np.int32) and all(isinstance(p, np.uint64) for p in (x, y, out))
    total = int(n)
    o = mem.view(int(out), np.float32, total)
    o[:] = mem.view(int(x), np.float32, total) + mem.view(int(y), np.float32, total)


@pytest.fixture(scope="module")
def add_module():
    return wb.compile(ADD, arch="gfx942")


@pytest.fixture(scope="module")
def mixed_module():
    return wb.compile(MIXED, arch="gfx942")


def rocm(monkeypatch, **kw) -> FakeCupy:
    return FakeCupy(hip=True, **kw).install(monkeypatch)


def test_rocm_device_reads_gcn_arch_name_with_fake_cupy_no_amd_gpu(monkeypatch):
    rocm(monkeypatch, arch="gfx942:sramecc+:xnack-")
    dev = RocmDevice(0)
    assert dev.arch == "gfx942" and dev.kind == "rocm"
    assert str(dev.target) == "gfx942:sramecc+:xnack-"
    assert dev.name == "rocm:0 (gfx942:sramecc+:xnack-)"
    assert dev.target.features == {"sramecc": "on", "xnack": "off"}


def test_rocm_loads_our_code_object_and_marshals_with_fake_cupy_no_amd_gpu(monkeypatch,
                                                                          add_module):
    fake = rocm(monkeypatch, kernels={"add": add_reference})
    dev = RocmDevice(0)
    k = Kernel(add_module, "add").on(dev)
    x = np.arange(300, dtype=np.float32)
    y = torch.full((300,), 0.5)  # torch on the CPU: staged like numpy
    out = np.zeros(300, np.float32)
    res = k[(300 + 255) // 256, 256](x, y, out, 300)
    # the very file hipwb built and analysed is what was loaded, by path
    assert fake.raw_modules == [{"code": None, "options": (), "backend": "nvrtc",
                                 "path": str(add_module["gfx942"].path),
                                 "name_expressions": None}]
    call = fake.launches[0]
    assert call["name"] == "add" and call["grid"] == (2, 1, 1) and call["block"] == (256, 1, 1)
    assert [type(v) for v in call["args"]] == [np.uint64] * 3 + [np.int32]
    np.testing.assert_array_equal(out, x + 0.5)  # copied back into the user's array
    assert res.stats == {"staged": 3, "code_object": "hipwb"}
    k[1, 256](x, y, out, 300)
    assert len(fake.raw_modules) == 1  # the loaded module is reused


def test_rocm_device_arrays_passed_in_place_with_fake_cupy_no_amd_gpu(monkeypatch, add_module):
    fake = rocm(monkeypatch, kernels={"add": add_reference})
    dev = RocmDevice(0)
    x = fake.asarray(np.ones(64, np.float32))
    out = fake.empty(64, np.float32)
    Kernel(add_module, "add").on(dev)[1, 64](x, x, out, 64)
    ptrs = [int(v) for v in fake.launches[0]["args"][:3]]
    assert ptrs == [x.data.ptr, x.data.ptr, out.data.ptr]  # no copies of device arrays
    np.testing.assert_array_equal(out.get(), np.full(64, 2, np.float32))
    other = FakeArray(fake, (64,), np.float32, device=1)
    with pytest.raises(LaunchError, match="argument 2 'out' is on GPU 1 .* GPU 0"):
        Kernel(add_module, "add").on(dev)[1, 64](x, x, other, 64)


def test_rocm_marshalling_exact_c_types_with_fake_cupy_no_amd_gpu(monkeypatch, mixed_module):
    fake = rocm(monkeypatch)
    dev = RocmDevice(0)
    out = fake.empty(1, np.uint32)
    pair = struct.pack("<if", 7, 1.5)
    Kernel(mixed_module, "mixed").on(dev)[1, 64](-3, 1000, 2**40, 2.0, pair, out)
    vals = fake.launches[0]["args"]
    info = mixed_module.kernels["mixed"]
    assert [np.asarray(v).dtype.str for v in vals] == ["|i1", "<i2", "<i8", "<f8", "|V8", "<u8"]
    assert [np.asarray(v).nbytes for v in vals] == [a.size for a in info.args]
    # the values laid at the metadata offsets are the kernarg bytes a HIP launch builds
    bound = bind_args(info, (-3, 1000, 2**40, 2.0, pair, out))
    packed = pack_explicit(info, bound, [None] * 5 + [out.data.ptr])
    for v, a in zip(vals, info.args):
        assert packed[a.offset:a.offset + a.size] == np.asarray(v).tobytes()
    assert packed[info.args[4].offset:][:8] == pair


def test_template_kernel_by_mangled_symbol_with_fake_cupy_no_amd_gpu(monkeypatch, mixed_module):
    fake = rocm(monkeypatch)
    x = fake.empty(8, np.float32)
    Kernel(mixed_module, "scale").on(RocmDevice(0))[1, 8](x, 2.0, 8)
    assert fake.launches[0]["name"] == "_Z5scaleIfEvPT_S0_i"
    assert [type(v) for v in fake.launches[0]["args"]] == [np.uint64, np.float32, np.int32]


def test_rocm_refuses_code_object_for_other_arch_with_fake_cupy_no_amd_gpu(monkeypatch):
    fake = rocm(monkeypatch, arch="gfx1100")
    dev = RocmDevice(0)
    mod = wb.compile(ADD, arch="gfx90a")
    x = np.ones(4, np.float32)
    with pytest.raises(LaunchError, match="compiled for gfx90a .* compile with --arch gfx1100"):
        Kernel(mod, "add").on(dev)[1, 64](x, x, x, 4)
    # called directly, bypassing the Kernel layer's check, the device refuses too
    info = mod.kernels["add"]
    with pytest.raises(LaunchError, match="compiled for gfx90a but rocm:0 \\(gfx1100\\) runs "
                                          "gfx1100"):
        dev.launch(Kernel(mod, "add"), info, (1, 1, 1), (64, 1, 1),
                   bind_args(info, (x,) * 3 + (4,)))
    assert fake.raw_modules == [] and fake.launches == []


def test_elf_target_checks_processor_and_features_no_amd_gpu(add_module):
    elf = add_module["gfx942"].elf
    et = elf_target(elf)
    assert et.mach == 0x4C  # EF_AMDGPU_MACH_AMDGCN_GFX942 (LLVM BinaryFormat/ELF.h)
    assert (et.xnack, et.sramecc) == ("any", "any")
    target = TargetId.parse("gfx942:sramecc+:xnack-")
    check_code_object("gfx942", elf, target)  # "any" runs everywhere
    flags = struct.unpack_from("<I", elf, 48)[0]
    xnack_on = bytearray(elf)
    struct.pack_into("<I", xnack_on, 48, (flags & ~0x300) | 0x300)
    with pytest.raises(LaunchError, match="built with xnack\\+ but this GPU runs "
                                          "gfx942:sramecc\\+:xnack-"):
        check_code_object("gfx942", bytes(xnack_on), target, "add")
    relabelled = bytearray(elf)
    struct.pack_into("<I", relabelled, 48, (flags & ~0xFF) | 0x3F)  # gfx90a's mach
    with pytest.raises(LaunchError, match="names processor 0x3f, not gfx942"):
        check_code_object("gfx942", bytes(relabelled), target, "add")
    with pytest.raises(LaunchError, match="not a 64-bit ELF"):
        elf_target(b"\x7fELF" + bytes(10))


def test_hiprtc_backend_options_from_module_with_fake_cupy_no_amd_gpu(monkeypatch, tmp_path):
    fake = rocm(monkeypatch, arch="gfx942:sramecc+:xnack-")
    (tmp_path / "defs.h").write_text("#define EXTRA 1\n")
    mod = wb.compile(ADD, arch="gfx942", defines={"BLOCK": 128, "FAST": None},
                     include_dirs=[tmp_path], options=("-ffast-math",), first_line=5)
    opts = hiprtc_options(mod, TargetId.parse("gfx942:sramecc+:xnack-"))
    assert opts == ("--offload-arch=gfx942:sramecc+:xnack-", "-O3", "-DBLOCK=128", "-DFAST",
                    f"-I{tmp_path.resolve()}", "-ffast-math")
    dev = RocmDevice(0, backend="hiprtc")
    x = fake.empty(4, np.float32)
    res = Kernel(mod, "add").on(dev)[1, 4](x, x, x, 4)
    rec = fake.raw_modules[0]
    assert rec["path"] is None and rec["backend"] == "nvrtc" and rec["options"] == opts
    assert rec["code"].startswith('#line 5 "cell"\n') and ADD in rec["code"]
    assert res.stats["code_object"] == "hiprtc rebuild" and "hiprtc" in dev.name
    with pytest.raises(LaunchError, match="unknown RocmDevice backend"):
        RocmDevice(0, backend="hipcc")


def test_cuda_build_of_cupy_is_not_a_rocm_device(monkeypatch):
    FakeCupy(hip=False).install(monkeypatch)
    with pytest.raises(LaunchError, match="built for CUDA, not ROCm"):
        RocmDevice(0)


def test_device_selection_prefers_rocm_with_fake_cupy_no_amd_gpu(monkeypatch):
    rocm(monkeypatch, devices=2)
    monkeypatch.delenv("HIPWB_DEVICE", raising=False)
    dev = wb.get_device()
    assert isinstance(dev, RocmDevice) and dev.index == 0
    assert [d.name for d in wb.devices()[:2]] == ["rocm:0 (gfx942:sramecc+:xnack-)",
                                                  "rocm:1 (gfx942:sramecc+:xnack-)"]
    assert wb.set_device("rocm:1").index == 1
    with pytest.raises(LaunchError, match="rocm:2 does not exist"):
        wb.set_device("rocm:2")
    with pytest.raises(LaunchError, match="no cuda device: cupy sees 2 rocm device"):
        wb.set_device("cuda")


def test_kernarg_segment_with_hidden_args_no_amd_gpu(add_module):
    info = add_module.kernels["add"]
    x = np.ones(4, np.float32)
    bound = bind_args(info, (x, x, x, 4))
    seg = pack_kernargs(info, bound, [0x1000, 0x2000, 0x3000, None], (3, 1, 1), (64, 1, 1))
    assert len(seg) == info.kernarg_size
    assert struct.unpack_from("<QQQi", seg, 0) == (0x1000, 0x2000, 0x3000, 4)
    hidden = {h.kind: h for h in info.hidden_args}

    def at(kind):
        h = hidden[kind]
        return int.from_bytes(seg[h.offset:h.offset + h.size], "little")

    assert (at("hidden_block_count_x"), at("hidden_group_size_x"), at("hidden_grid_dims")) == (
        3, 64, 1)
    assert at("hidden_block_count_y") == 1 and at("hidden_remainder_x") == 0
    with pytest.raises(LaunchError, match="argument 'out' .* has no device address"):
        launch_values(info, bound, [1, 2, None, None])


def test_layout_check_names_disagreeing_argument(add_module):
    from dataclasses import replace

    info = add_module.kernels["add"]
    check_layout(info)
    bad = replace(info, args=(*info.args[:3], replace(info.args[3], offset=28)))
    with pytest.raises(LaunchError, match="argument 3 'n' of add \\(int\\): metadata puts it at "
                                          "offset 28, .* belongs at 24"):
        check_layout(bad)
