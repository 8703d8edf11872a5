"""Compile probes: every catalog builtin compiles with the installed LLVM and emits exactly the
catalog mnemonic (proves builtin names, argument vector types and the builtin -> mnemonic map)."""

from __future__ import annotations

import subprocess

import pytest

from workbench import ToolchainError, find_toolchain, layouts
from workbench.layouts import probes

try:
    TC = find_toolchain()
except ToolchainError as e:  # pragma: no cover - CI always has clang
    pytest.skip(f"no LLVM toolchain: {e}", allow_module_level=True)

TARGETS = [("gfx90a", 64), ("gfx942", 64), ("gfx1100", 32), ("gfx1100", 64), ("gfx1102", 32),
           ("gfx1151", 32), ("gfx1151", 64), ("gfx1201", 32), ("gfx1201", 64)]


@pytest.mark.parametrize("arch,ws", TARGETS, ids=lambda x: str(x))
def test_every_builtin_emits_its_mnemonic(arch, ws):
    seen = probes.probe(arch, wave_size=ws)
    names = layouts.names(arch, wave_size=ws)
    assert sorted(seen) == sorted(names)
    wrong = {n: s for n, s in seen.items() if s != (n,)}
    assert not wrong, f"{arch} wave{ws}: probe emitted other mnemonics: {wrong}"
    assert probes.emitted(arch, wave_size=ws) == names


def test_gfx950_probes_need_llvm20():
    if TC.clang_major >= 20 and TC.supports("gfx950"):
        assert probes.emitted("gfx950") == layouts.names("gfx950")
    else:  # LLVM 19 has none of the gfx950 builtins: they are left out, not failed
        assert probes.probe("gfx950") == {}
        assert all(i.min_llvm == 20 for i in layouts.list("gfx950"))


def test_probe_source_is_plain_hip():
    ins = layouts.get("v_wmma_i32_16x16x16_iu8", "gfx1100", wave_size=64)
    src = probes.probe_source(ins)
    assert "typedef int v4i __attribute__((ext_vector_type(4)));" in src
    assert "__builtin_amdgcn_wmma_i32_16x16x16_iu8_w64(true, a[t], true, b[t], c[t], false)" in src
    assert f'extern "C" __global__ void {probes.kernel_name(ins)}' in src


def _reg(base: int, n: int) -> str:
    return f"v{base}" if n == 1 else f"v[{base}:{base + n - 1}]"


def _asm(text: str, arch: str) -> subprocess.CompletedProcess:
    return subprocess.run([TC.tool("llvm-mc"), "-arch=amdgcn", f"-mcpu={arch}"], input=text,
                          capture_output=True, text=True)


def test_gfx90a_spellings_are_llvm_aliases_on_gfx942():
    aliased = [i for i in layouts.list("gfx942") if i.aliases]
    assert len(aliased) >= 20
    for ins in aliased:
        r = ins.vgprs
        ops = (f"{_reg(0, r['D'])}, {_reg(64, r['A'])}, {_reg(72, r['B'])}, "
               f"{_reg(0, r['C'])}")
        for alias in ins.aliases:
            out = _asm(f"{alias} {ops}\n", "gfx942")
            assert out.returncode == 0, out.stderr
            assert f"\t{ins.name} " in out.stdout, (alias, out.stdout)
            assert layouts.get(alias, "gfx942") is ins
        # ...but not the other way round: gfx90a rejects the gfx942 spelling
        if ins.name not in layouts.names("gfx90a"):
            bad = _asm(f"{ins.name} {ops}\n", "gfx90a")
            assert bad.returncode != 0 and "not supported" in bad.stderr
