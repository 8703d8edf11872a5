"""A cached code object damaged on disk while the session runs: the next listing, launch or
compile detects it and recompiles or rewrites it, or says clearly what is wrong; a real IPython
shell (as tests/test_magics.py) shows the notebook-level path. Damaged or crafted cache files of
every kind (entry.json, code.hsaco, the device library, toolchains.json) are rebuilt with one
CacheWarning, never an exception (issue 24)."""
from __future__ import annotations

import json
import shutil
import warnings
from pathlib import Path

import numpy as np
import pytest
from cache_helpers import bait, cache_warnings, run_twice, twice
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

import workbench as wb
from workbench import compile_cache, compiler, toolchain
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
    entry = co.path
    _damage(entry)
    (co.path.with_name("listing.txt")).unlink(missing_ok=True)
    k = Kernel(mod, "twice", device="emulator")
    assert any(i.mnemonic.startswith("global_store") for i in k.isa)  # no CalledProcessError
    # the object now reads from a private copy of the build; the shared entry is not written
    # behind other processes' backs (the next lookup finds it damaged and rebuilds it)
    assert co.path != entry and co.path.read_bytes() == co.elf
    assert entry.is_relative_to(cache) and entry.read_bytes() != co.elf
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


def _edit(fn):
    def damage(entry: Path, marker: Path) -> None:
        doc = json.loads((entry / "entry.json").read_text())
        fn(doc)
        (entry / "entry.json").write_text(json.dumps(doc))
    return damage


def _resources(doc):
    return next(iter(doc["kernels"].values()))["resources"]


def _write(name, data):
    return lambda entry, marker: (entry / name).write_bytes(data)


def _replace_by_dir(entry, marker):
    (entry / "entry.json").unlink()
    (entry / "entry.json").mkdir()


def _entry_is_a_file(entry, marker):
    shutil.rmtree(entry)
    entry.write_bytes(bait(marker))


def _old_pickle_only(entry, marker):
    (entry / "entry.json").unlink()
    (entry / "info.pickle").write_bytes(bait(marker))


DAMAGE = {
    "garbage": (_write("entry.json", b"{not json"), "not JSON"),
    "not_utf8": (_write("entry.json", b"\xff\xfe\x00"), "not JSON"),
    "a_pickle": (lambda e, m: (e / "entry.json").write_bytes(bait(m)), "not JSON"),
    "deep_nesting": (_write("entry.json", b"[" * 200_000), "not JSON"),
    "huge_int": (_write("entry.json", b'{"format": 1' + b"0" * 6000 + b"}"), "not JSON"),
    "not_an_object": (_write("entry.json", b"[1, 2]"), "not an object"),
    "wrong_type": (_edit(lambda d: _resources(d).update(vgprs="12")), "vgprs is str"),
    "bool_for_int": (_edit(lambda d: _resources(d).update(vgprs=True)), "vgprs is bool"),
    "missing_key": (_edit(lambda d: d.pop("variables")), "lacks ['variables']"),
    "unknown_key": (_edit(lambda d: d.update({"py/object": "os.system"})), "py/object"),
    "missing_field": (_edit(lambda d: _resources(d).pop("sgprs")), "lacks ['sgprs']"),
    "other_key": (_edit(lambda d: d.update(key="0" * 64)), "another key"),
    "old_format": (_edit(lambda d: d.update(format=9)), "format 9"),
    "bad_sha_text": (_edit(lambda d: d.update(sha256="x")), "not a SHA-256"),
    "hash_mismatch": (_write("code.hsaco", b"\x7fELF garbage" + bytes(64)), "SHA-256"),
    "missing_object": (lambda e, m: (e / "code.hsaco").unlink(), "code.hsaco is missing"),
    "missing_json": (lambda e, m: (e / "entry.json").unlink(), "entry.json is missing"),
    "json_is_a_folder": (_replace_by_dir, "directory"),
    "entry_is_a_file": (_entry_is_a_file, "Not a directory"),
    "old_pickle_left": (_old_pickle_only, "entry.json is missing"),
}


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_damaged_entry_is_rebuilt_with_one_warning(cache, tmp_path, damage):
    fn, reason = DAMAGE[damage]
    k = 10 + list(DAMAGE).index(damage)  # a source of its own per case
    entry = wb.compile(twice(k), "gfx942")["gfx942"].path.parent
    marker = tmp_path / "PWNED"
    fn(entry, marker)
    compiler.clear_cache(memory_only=True)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        mod = wb.compile(twice(k), "gfx942")
    got = cache_warnings(record)
    assert len(got) == 1, got
    assert "is damaged" in got[0] and reason in got[0] and "rebuilding it" in got[0]
    assert "\n" not in got[0]
    assert not mod.from_cache
    run_twice(mod, k)
    compiler.clear_cache(memory_only=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error", CacheWarning)
        again = wb.compile(twice(k), "gfx942")  # the rebuilt entry is sound and serves
    assert again.from_cache
    compile_cache._read(entry, entry.name)
    assert not marker.exists()


def _devlib_entries(root: Path) -> list[Path]:
    return sorted(p for p in (root / "objects" / "devlib").iterdir() if p.is_dir())


@pytest.mark.parametrize("damage", ["flipped_bits", "garbage_json", "missing_json",
                                    "a_pickle", "a_file"])
def test_damaged_device_library_is_rebuilt_with_one_warning(cache, tmp_path, damage):
    k = 40 + ["flipped_bits", "garbage_json", "missing_json", "a_pickle", "a_file"].index(damage)
    wb.compile(twice(k), "gfx942")
    (lib,) = [p for p in _devlib_entries(cache) if "gfx942" in p.name]
    good = (lib / "hipwb.bc").read_bytes()
    marker = tmp_path / "PWNED"
    if damage == "flipped_bits":
        (lib / "hipwb.bc").write_bytes(good[:100] + bytes(50) + good[150:])
    elif damage == "garbage_json":
        (lib / "entry.json").write_text("{")
    elif damage == "missing_json":
        (lib / "entry.json").unlink()
    elif damage == "a_pickle":
        (lib / "entry.json").write_bytes(bait(marker))
        (lib / "hipwb.bc").write_bytes(bait(marker))
    else:
        shutil.rmtree(lib)
        lib.write_bytes(bait(marker))
    compiler.clear_cache(memory_only=True)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        mod = wb.compile(twice(k + 100), "gfx942")  # a new object: links the library
    got = cache_warnings(record)
    assert len(got) == 1 and "device library" in got[0] and "rebuilding it" in got[0], got
    run_twice(mod, k + 100)
    assert (lib / "hipwb.bc").read_bytes() == good  # rebuilt, the same bytes
    assert not marker.exists()


@pytest.mark.parametrize("content", [b"{not json", b"[]", b'{"/usr/lib/llvm-22/bin": 5}',
                                     b'{"x": {"stamp": 1, "version": "22", "major": "22"}}',
                                     "pickle"])
def test_damaged_toolchains_json_is_probed_again_with_one_warning(cache, tmp_path, content):
    wb.compile(twice(2), "gfx942")
    probes = cache / "toolchains.json"
    marker = tmp_path / "PWNED"
    probes.write_bytes(bait(marker) if content == "pickle" else content)
    toolchain.reset_cache()
    try:
        with warnings.catch_warnings(record=True) as record:
            warnings.simplefilter("always")
            mod = wb.compile(twice(2), "gfx942")
    finally:
        toolchain.reset_cache()
    got = cache_warnings(record)
    assert len(got) == 1 and "toolchains.json is damaged" in got[0], got
    run_twice(mod, 2)
    saved = json.loads(probes.read_text())  # rewritten whole
    assert all(set(v) == {"stamp", "version", "major", "archs"} for v in saved.values())
    assert not marker.exists()
