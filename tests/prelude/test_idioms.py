"""Everyday HIP idioms compile offline, as pasted (tests/kernels/idioms/idioms.py)."""
from __future__ import annotations

import importlib.util
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import workbench

_spec = importlib.util.spec_from_file_location(
    "hipwb_idioms", Path(__file__).parents[1] / "kernels" / "idioms" / "idioms.py")
_mod = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_mod)
IDIOMS = _mod.IDIOMS
# Texture fetches need image instructions: gfx942 has none (clang defines __HIP_NO_IMAGE_SUPPORT
# and the idiom skips the fetch, as ROCm's own examples do); on gfx1100 the prelude refuses
# tex1Dfetch with a message, since the emulator does not execute MIMG either.
TEXTURE = "texture_object_parameter"


@pytest.fixture(scope="module")
def results():
    def build(src):
        try:
            return workbench.compile(src, arch=["gfx942", "gfx1100"])
        except workbench.CompileError as e:
            return e
    with ThreadPoolExecutor(2) as pool:
        return dict(zip(IDIOMS, pool.map(build, IDIOMS.values())))


def test_there_are_26_idioms():
    assert len(IDIOMS) == 26


@pytest.mark.parametrize("name", [n for n in IDIOMS if n != TEXTURE])
def test_idiom_compiles_for_gfx942_and_gfx1100(results, name):
    res = results[name]
    assert not isinstance(res, Exception), str(res)
    assert res["gfx942"].kernels and res["gfx1100"].kernels


def test_texture_idiom_compiles_for_gfx942_and_fails_clearly_on_gfx1100():
    assert workbench.compile(IDIOMS[TEXTURE], arch="gfx942")["gfx942"].kernels
    with pytest.raises(workbench.CompileError) as err:
        workbench.compile(IDIOMS[TEXTURE], arch="gfx1100")
    assert "tex1Dfetch (a texture fetch) is not available offline" in str(err.value)
    assert "cell line 5" in str(err.value)
