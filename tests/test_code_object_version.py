"""``-mcode-object-version=4|5|6`` compiles, carries that version and runs on the emulator.

hipwb links its own device library (workbench/devlib.py) into every offline compile; clang links
bitcode only when the modules' ``amdhsa_code_object_version`` flags agree, so the library is
built per code-object version (as ROCm links oclc_abi_version_{400,500,600}.bc), with that
``__oclc_ABI_version`` and the printf buffer where that version's hidden arguments put it (byte
24 in v4, 72 in v5/v6). The prelude's blockDim/gridDim read v4's dispatch packet.
EI_ABIVERSION (ELF byte 8): 2 = v4, 3 = v5, 4 = v6 (LLVM AMDGPUUsage, "ELF Header").
"""
from __future__ import annotations

import re
import subprocess

import numpy as np
import pytest

import workbench as wb
from workbench import devlib
from workbench.amdgpu_elf import elf_target
from workbench.runtime import Kernel
from workbench.toolchain import find_toolchain

EI_ABIVERSION = {4: 2, 5: 3, 6: 4}
ARCHS = ("gfx942", "gfx950")
VERSIONS = (4, 5, 6)

SRC = r"""
extern "C" __global__ void plain(unsigned* out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = i + 1000u * gridDim.x + 7u * blockDim.y;
}
extern "C" __global__ void shout(int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = i;
  if (i % 100 == 5) printf("i=%d dim=%u grid=%u\n", i, blockDim.x, gridDim.x);
}
#if defined(__HIPWB_OCML)
extern "C" __global__ void logs(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = log1pf(x[i]);
}
#endif
"""

_built: dict[tuple[str, int], wb.Module] = {}


def _mod(arch: str, version: int) -> wb.Module:
    if (arch, version) not in _built:
        _built[arch, version] = wb.compile(SRC, arch,
                                           options=[f"-mcode-object-version={version}"])
    return _built[arch, version]


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("version", VERSIONS)
def test_code_object_carries_the_version_asked_for(arch, version):
    elf = _mod(arch, version).objects[arch].elf
    assert elf[8] == EI_ABIVERSION[version]
    assert elf_target(elf).code_object_version == version


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("version", VERSIONS)
def test_plain_kernel_runs_on_the_emulator(arch, version):
    out = np.zeros(256, np.uint32)
    Kernel(_mod(arch, version), "plain", f"emulator:{arch}")[4, 64](out)
    assert np.array_equal(out, np.arange(256, dtype=np.uint32) + 4000 + 7)


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("version", VERSIONS)
def test_printf_runs_on_the_emulator(arch, version, capsys):
    out = np.zeros(384, np.int32)
    res = Kernel(_mod(arch, version), "shout", f"emulator:{arch}")[3, 128](out)
    want = [f"i={i} dim=128 grid=3\n" for i in (5, 105, 205, 305)]
    assert res.stats["printed"] == tuple(want)
    assert capsys.readouterr().out.splitlines() == [w.rstrip("\n") for w in want]
    assert np.array_equal(out, np.arange(384))


@pytest.mark.skipif(devlib.find_ocml() is None, reason="no ocml.bc installed (rocm-device-libs)")
@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("version", VERSIONS)
def test_ocml_math_runs_on_the_emulator(arch, version):
    n = 300
    x = np.linspace(-0.5, 3.0, n).astype(np.float32)
    y = np.zeros(n, np.float32)
    Kernel(_mod(arch, version), "logs", f"emulator:{arch}")[3, 128](x, y, n)
    ref = np.log1p(x.astype(np.float64))
    assert np.max(np.abs(y - ref) / np.maximum(np.abs(ref), 1e-30)) < 2e-7


@pytest.mark.parametrize("option", ["-mcode-object-version=7", "-mcode-object-version=3",
                                    "-mcode-object-version=", "-mcode-object-version=five"])
def test_unsupported_version_is_a_clear_compile_error(option):
    with pytest.raises(wb.CompileError) as e:
        wb.compile(SRC, "gfx942", options=[option], cache=False)
    msg = str(e.value)
    assert msg.startswith(f"{option}: hipwb builds code object versions 4, 5 and 6")
    assert "cannot link module" not in msg and "<U+" not in msg


def test_unsupported_version_in_other_spellings_names_them():
    with pytest.raises(wb.CompileError, match=r"^-Xclang -mcode-object-version=none: .*4, 5 "):
        wb.compile(SRC, "gfx942", options=["-Xclang", "-mcode-object-version=none"])
    with pytest.raises(wb.CompileError, match=r"^-Xarch_gfx950 -mcode-object-version=7: ") as e:
        wb.compile(SRC, ["gfx942", "gfx950"], options=["-Xarch_gfx950", "-mcode-object-version=7"])
    assert e.value.arch == "gfx950"


def test_spellings_as_clang_reads_them():
    cov = devlib.code_object_version
    assert cov([]) is None and cov(["-O2", "-DX=4"]) is None
    assert cov(["-mcode-object-version=4"]) == 4
    assert cov(["-mcode-object-version=4", "-mcode-object-version=5"]) == 5  # the last wins
    assert cov(["-Xclang", "-mcode-object-version=4", "-mcode-object-version=5"]) == 4  # cc1's
    assert cov(["-Xarch_device", "-mcode-object-version=4"]) == 4
    assert cov(["-Xarch_amdgcn", "-mcode-object-version=4"]) == 4
    assert cov(["-Xarch_host", "-mcode-object-version=4"]) is None
    scoped = ["-mcode-object-version=6", "-Xarch_gfx942", "-mcode-object-version=4"]
    assert cov(scoped, "gfx942") == 4 and cov(scoped, "gfx950") == 6 and cov(scoped) == 6
    assert cov(["-mcode-object-version=7", "-mcode-object-version=5"]) == 5  # as clang: the last


def test_other_spellings_build_that_version_per_target():
    for opts, want in ((["-Xclang", "-mcode-object-version=4"], {"gfx942": 4, "gfx950": 4}),
                       (["-Xarch_device", "-mcode-object-version=5"], {"gfx942": 5, "gfx950": 5}),
                       (["-mcode-object-version=5", "-Xarch_gfx942", "-mcode-object-version=4"],
                        {"gfx942": 4, "gfx950": 5})):
        m = wb.compile(SRC, list(want), options=opts)
        for arch, version in want.items():
            assert m.objects[arch].elf[8] == EI_ABIVERSION[version], (opts, arch)
            out = np.zeros(384, np.int32)
            res = Kernel(m, "shout", f"emulator:{arch}")[3, 128](out)
            assert res.stats["printed"][0] == "i=5 dim=128 grid=3\n", (opts, arch)


def test_device_library_is_built_per_version(tmp_path):
    """One library folder per version, each with its module flag and __oclc_ABI_version."""
    tc = find_toolchain()
    libs = {v: devlib.hipwb_bitcode(tc, "gfx942", [f"-mcode-object-version={v}"], tmp_path)
            for v in VERSIONS}
    assert len({p.parent for p in libs.values()}) == 3
    dis = tc.bin_dir / "llvm-dis"
    if not dis.exists():
        pytest.skip("no llvm-dis to read the bitcode")
    for v, path in libs.items():
        ir = subprocess.run([str(dis), "-o", "-", str(path)], capture_output=True, text=True,
                            check=True).stdout
        assert f'!"amdhsa_code_object_version", i32 {v * 100}}}' in ir
        assert re.search(rf"@__oclc_ABI_version = linkonce_odr .*constant i32 {v * 100}\b", ir)
