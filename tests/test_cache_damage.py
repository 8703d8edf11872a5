"""A cached code object damaged on disk while the session runs: the next listing, launch or
compile detects it and recompiles or rewrites it, or says clearly what is wrong; a real IPython
shell (as tests/test_magics.py) shows the notebook-level path."""
from __future__ import annotations

import numpy as np
import pytest
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

import workbench as wb
from workbench import compiler
from workbench.cache_files import CacheWarning
from workbench.runtime.kernel import Kernel

SRC = """extern "C" __global__ void twice(const float* x, float* y) {
    y[threadIdx.x] = 2.0f * x[threadIdx.x];
}
"""


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("HIPWB_CACHE_DIR", str(tmp_path / "cache"))
    compiler.clear_cache(memory_only=True)
    yield tmp_path / "cache"
    compiler.clear_cache(memory_only=True)


def _damage(path):
    path.write_bytes(b"\x7fELF garbage" + bytes(64))


def test_damaged_object_rewritten_before_listing_and_launch(cache):
    mod = wb.compile(SRC, "gfx942")
    co = mod["gfx942"]
    _damage(co.path)
    (co.path.with_name("listing.txt")).unlink(missing_ok=True)
    k = Kernel(mod, "twice", device="emulator")
    assert any(i.mnemonic.startswith("global_store") for i in k.isa)  # no CalledProcessError
    assert co.path.read_bytes() == co.elf  # the file was rewritten from the build
    x = np.arange(64, dtype=np.float32)
    y = np.zeros(64, np.float32)
    k[1, 64](x, y)
    np.testing.assert_array_equal(y, 2 * x)


def test_damaged_entry_recompiled_by_the_next_compile(cache):
    co = wb.compile(SRC, "gfx942")["gfx942"]
    _damage(co.path)
    compiler.clear_cache(memory_only=True)  # as a new process would: only the disk cache
    with pytest.warns(CacheWarning, match=r"is damaged \(code.hsaco does not match its "
                                          r"SHA-256\); rebuilding it") as warned:
        again = wb.compile(SRC, "gfx942")
    assert len(warned) == 1 and "\n" not in str(warned[0].message)
    assert not again.from_cache  # the damaged entry was not served
    new = again["gfx942"]
    assert new.path.read_bytes() == new.elf and new.elf.startswith(b"\x7fELF\x02")
    assert "<twice>:" in new.disassembly()
    assert wb.compile(SRC, "gfx942").from_cache  # and the rebuilt entry serves later compiles


def test_damaged_listing_cache_regenerated(cache):
    co = wb.compile(SRC, "gfx942")["gfx942"]
    co.disassembly()
    co.path.with_name("listing.txt").write_text("garbage\n")
    fresh = wb.compile(SRC, "gfx942")["gfx942"]
    assert "<twice>:" in fresh.disassembly()


def test_unreadable_object_without_build_copy_is_a_clear_error(cache, tmp_path):
    co = wb.compile(SRC, "gfx942")["gfx942"]
    bare = compiler.CodeObject(co.arch, tmp_path / "x.hsaco", co.kernels, co.command, 0.0)
    _damage(bare.path)
    with pytest.raises(compiler.CompileError, match=r"llvm-objdump cannot read the gfx942 code "
                                                    r"object .*clear_cache\(\)"):
        bare.disassembly()


def test_magic_session_survives_a_damaged_cache(cache):
    ip = InteractiveShell.instance()
    ip.run_line_magic("load_ext", "workbench")
    with capture_output():
        ip.run_cell_magic("hipkernel", "--arch gfx942", SRC)
    k = ip.user_ns["twice"]
    _damage(k.module["gfx942"].path)
    k.module["gfx942"].path.with_name("listing.txt").unlink(missing_ok=True)
    with capture_output():
        ip.run_cell_magic("hipkernel", "--arch gfx942 --show isa", SRC)
    r = ip.run_cell("import numpy as np; _y = np.zeros(64, np.float32); "
                    "twice[1, 64](np.ones(64, np.float32), _y); assert (_y == 2).all()")
    assert r.success, r.error_in_exec
