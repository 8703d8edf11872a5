"""The compile cache cannot run code, survives concurrent writers, and degrades instead of failing
(issue 24): entries are JSON + the raw code object, checked on read and round-tripping every
field of a fresh compile (damaged entries of each kind: test_cache_damage.py); a folder of
crafted pickles runs nothing; a read-only, full or non-folder cache compiles in memory with one
warning (made for real with ``unshare -rm``: a read-only bind mount and a tiny tmpfs); nothing
in the folder is ever unpickled; ``cache=False`` never touches it. Also: ``compile(filename=)``
and ``defines`` cannot inject directives (``#include "/etc/passwd"``)."""
from __future__ import annotations

import dataclasses
import errno
import hashlib
import json
import multiprocessing as mp
import os
import pickle
import random
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
import pytest
from cache_helpers import TWICE, bait, cache_warnings, run_twice, twice

import workbench as wb
from workbench import cache_entry, cache_files, compile_cache, compiler, toolchain
from workbench.cache_files import CacheWarning


@pytest.fixture
def cache(tmp_path, monkeypatch):
    root = tmp_path / "cache"
    monkeypatch.setenv("HIPWB_CACHE_DIR", str(root))
    compiler.clear_cache(memory_only=True)
    yield root
    compiler.clear_cache(memory_only=True)


# -- the format: every field of a fresh compile round-trips exactly ---------------------------

ROUND_TRIP = r"""#include "rt_consts.h"
namespace ns { __device__ float scale[4]; __constant__ int offset; }
__device__ int counter;

template <typename T>
__global__ void axpy(T* y, const T* x, T a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] += a * x[i] * (T)ns::scale[i % 4];
}
template __global__ void axpy<float>(float*, const float*, float, int);
template __global__ void axpy<double>(double*, const double*, double, int);

extern "C" __global__ void __launch_bounds__(64) hello(int* out) {
    if (threadIdx.x == 0) printf("hello %d from %d\n", out[0], (int)blockIdx.x);
    atomicAdd(&counter, 1);
    out[threadIdx.x] = ns::offset + RT_BIAS;
}

extern "C" __global__ void reverse(float* out) {
    extern __shared__ float buf[];
    buf[threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}

__global__ void noisy(int* p) { int unused = 3; p[0] = 1; }
"""


def same(a, b, where: str) -> None:
    """a == b, field by field, with the same types all the way down (a tuple stays a tuple)."""
    assert type(a) is type(b), f"{where}: {type(a).__name__} != {type(b).__name__}"
    if dataclasses.is_dataclass(a):
        for f in dataclasses.fields(a):
            same(getattr(a, f.name), getattr(b, f.name), f"{where}.{f.name}")
    elif isinstance(a, dict):
        assert list(a) == list(b), f"{where}: keys {list(a)} != {list(b)}"
        for k in a:
            same(a[k], b[k], f"{where}[{k!r}]")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), f"{where}: length {len(a)} != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"{where}[{i}]")
    else:
        assert a == b, f"{where}: {a!r} != {b!r}"


def test_cached_module_equals_a_fresh_compile_field_by_field(cache, tmp_path):
    (tmp_path / "rt_consts.h").write_text("#define RT_BIAS 7\n")
    args = dict(options=["-Wall"], include_dirs=[tmp_path], filename="rt.hip", first_line=3)
    fresh = wb.compile(ROUND_TRIP, ["gfx942", "gfx1100"], **args)
    assert not fresh.from_cache
    keys = {arch: fresh[arch].path.parent.name for arch in fresh.archs}
    fresh_deps = {arch: compile_cache._memo[keys[arch]][1] for arch in fresh.archs}
    compiler.clear_cache(memory_only=True)  # as a new process would: only the disk
    with warnings.catch_warnings():
        warnings.simplefilter("error", CacheWarning)
        cached = wb.compile(ROUND_TRIP, ["gfx942", "gfx1100"], **args)
    assert cached.from_cache
    for arch in ("gfx942", "gfx1100"):
        a, b = fresh[arch], cached[arch]
        for f in dataclasses.fields(a):
            if f.name not in ("from_cache", "_listing_text"):
                same(getattr(a, f.name), getattr(b, f.name), f"{arch}.{f.name}")
        same(a.elf, b.elf, f"{arch}.elf")
        # KernelInfo compares metadata with compare=False: same() walked it all the same
        ks = a.kernels
        assert {"axpy_float", "axpy_double", "hello", "reverse", "noisy"} <= set(ks)
        assert ks["hello"].resources.max_flat_workgroup_size == 64
        assert ks["reverse"].dynamic_shared == ("buf",)
        assert ks["axpy_float"].demangled.startswith("void axpy<float>")
        assert any(h.kind == "hidden_printf_buffer" for h in ks["hello"].hidden_args)
        assert ks["hello"].metadata["remark"] and ks["axpy_float"].metadata["source_name"]
        assert {"ns::scale", "ns::offset", "counter"} <= set(a.variables)
        assert any("unused" in w.message for w in a.warnings)
        # the header list too (it decides whether an edited header rebuilds)
        deps_disk = compile_cache._read(a.path.parent, keys[arch])[1]
        assert any(p.endswith("rt_consts.h") for p, *_ in deps_disk)
        same(fresh_deps[arch], deps_disk, f"{arch}.deps")
    # an edited header still invalidates an entry read back from disk
    compiler.clear_cache(memory_only=True)
    hdr = tmp_path / "rt_consts.h"
    hdr.write_text("#define RT_BIAS 9\n")
    st = os.stat(hdr)
    os.utime(hdr, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    assert not wb.compile(ROUND_TRIP, ["gfx942", "gfx1100"], **args).from_cache


def test_an_entry_is_json_and_raw_bytes_only(cache):
    co = wb.compile(twice(3), "gfx942")["gfx942"]
    entry = co.path.parent
    assert sorted(p.name for p in entry.iterdir()) == ["code.hsaco", "entry.json"]
    doc = json.loads((entry / "entry.json").read_text())
    assert doc["format"] == compiler.CACHE_FORMAT == cache_entry.FORMAT
    assert doc["sha256"] == hashlib.sha256((entry / "code.hsaco").read_bytes()).hexdigest()
    assert not list(cache.rglob("*.pickle"))


def test_every_dataclass_field_has_a_checked_kind():
    """A field added to KernelInfo & co. without a cache spec would not round-trip: refused."""
    @dataclasses.dataclass
    class Grown:
        a: int
        b: str = ""

    with pytest.raises(AssertionError, match="the cache spec names"):
        cache_entry._record(Grown, {"a": cache_entry.INT})


def test_builds_are_reproducible():
    """Content addressing rests on it: the same source gives the same bytes in any folder."""
    a = wb.compile(twice(5), "gfx942", cache=False)["gfx942"]
    b = wb.compile(twice(5), "gfx942", cache=False)["gfx942"]
    assert a.path != b.path and a.elf == b.elf


def test_a_folder_of_crafted_pickles_and_json_runs_nothing(cache, tmp_path):
    """Every file of a real cache replaced by a pickle that would create a marker when
    unpickled (or by JSON naming Python objects): compiles, listings and launches work, and the
    marker never appears."""
    marker = tmp_path / "PWNED"
    probe = tmp_path / "PROBE"
    pickle.loads(bait(probe))  # the bait is live: unpickling it does create its marker
    assert probe.exists()
    sources = [twice(k) for k in (60, 61, 62)]
    toolchain.reset_cache()  # so that this cache gets its toolchains.json too
    for s in sources:
        wb.compile(s, ["gfx942", "gfx1100"])
    crafted_json = json.dumps({"py/object": "os.system", "py/reduce": [
        {"py/function": "builtins.open"}, {"py/tuple": [str(marker), "w"]}]}).encode()
    files = sorted(p for p in cache.rglob("*") if p.is_file())
    names = [p.name for p in files]
    # 6 code objects, 2 device libraries, 2 precompiled preludes (one per arch)
    assert names.count("entry.json") == 10 and "toolchains.json" in names
    assert names.count("prelude.pch") == 2
    seen: dict[str, int] = {}
    for p in files:  # of each kind of file, every other one a pickle, the rest crafted JSON
        seen[p.name] = seen.get(p.name, -1) + 1
        p.write_bytes(bait(marker) if seen[p.name] % 2 else crafted_json)
        if p.name == "entry.json":
            (p.parent / "info.pickle").write_bytes(bait(marker))
    compiler.clear_cache(memory_only=True)
    toolchain.reset_cache()
    try:
        with warnings.catch_warnings(record=True) as record:
            warnings.simplefilter("always")
            for k, s in zip((60, 61, 62), sources):
                mod = wb.compile(s, ["gfx942", "gfx1100"])
                assert "<twice>:" in mod["gfx942"].disassembly()
                run_twice(mod, k)
            compiler.clear_cache(memory_only=True)
            for s in sources:
                assert wb.compile(s, ["gfx942", "gfx1100"]).from_cache
    finally:
        toolchain.reset_cache()
    got = cache_warnings(record)
    # one per damaged thing: 6 entries, 2 device libraries, 2 preludes, toolchains.json
    assert len(got) == 11 and all("damaged" in g for g in got), got
    assert not marker.exists()


# -- unusable cache folders: one warning, compiled in memory ---------------------------------

def test_cache_dir_that_is_a_file_compiles_in_memory_with_one_warning(tmp_path, monkeypatch):
    f = tmp_path / "not-a-dir"
    f.write_text("just a file\n")
    monkeypatch.setenv("HIPWB_CACHE_DIR", str(f))
    compiler.clear_cache(memory_only=True)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        for k in (70, 71):
            mod = wb.compile(twice(k), "gfx942")
            assert not mod.from_cache
            assert "<twice>:" in mod["gfx942"].disassembly()
            run_twice(mod, k)
        assert wb.compile(twice(70), "gfx942").from_cache  # the in-process memo still serves
    got = cache_warnings(record)
    assert len(got) == 1 and "cannot write the compile cache" in got[0], got
    assert "a path in it is a file" in got[0] and "compiling in memory" in got[0]
    assert f.read_text() == "just a file\n"
    compiler.clear_cache(memory_only=True)


@pytest.mark.parametrize("err, why", [(errno.ENOSPC, "the disk is full"),
                                      (errno.EROFS, "read-only file system")])
def test_full_disk_and_read_only_mocked_oserror_compiles_in_memory(cache, monkeypatch, err, why):
    """The same path as the unshare tests below, by an injected OSError (runs everywhere)."""
    real = cache_files.new_entry_dir

    def refuse(parent):
        if parent.is_relative_to(cache):
            raise OSError(err, os.strerror(err))
        return real(parent)  # this process's own folder still works

    monkeypatch.setattr(cache_files, "new_entry_dir", refuse)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        for k in (72, 73):
            mod = wb.compile(twice(k + err), "gfx942")
            run_twice(mod, k + err)
    got = cache_warnings(record)
    assert len(got) == 1 and why in got[0], got
    assert not list(cache.glob("objects/*/*/entry.json"))  # nor a device library


PROBE_SCRIPT = r"""
import json, os, sys, warnings
import numpy as np
got = []
warnings.simplefilter("always")
warnings.showwarning = lambda m, c, *a, **k: got.append([c.__name__, str(m)])
import workbench as wb
from workbench import compile_cache, compiler
from workbench.runtime.kernel import Kernel
cfg = json.loads(sys.argv[1])
res = {"from_cache": [], "errors": []}
for _ in range(2):  # the second pass reads the disk as a new process would
    compiler.clear_cache(memory_only=True)
    for k in cfg["ks"]:
        src = cfg["src"].replace("K", f"{k}.0f")
        try:
            mod = wb.compile(src, "gfx942", cache=cfg["cache"])
            assert "<twice>:" in mod["gfx942"].disassembly()
            x = np.arange(64, dtype=np.float32); y = np.zeros(64, np.float32)
            Kernel(mod, "twice", device="emulator")[1, 64](x, y)
            assert (y == k * x).all()
            res["from_cache"].append(mod.from_cache)
        except Exception as e:
            res["errors"].append(f"{type(e).__name__}: {e}")
root = compile_cache.cache_dir()
bad = 0
entries = sorted(root.glob("??/*/entry.json")) if root.is_dir() else []
for e in entries:
    try:
        compile_cache._read(e.parent, e.parent.name)
    except Exception:
        bad += 1
res.update(warnings=got, entries=len(entries), bad=bad,
           leftovers=[p.name for p in root.rglob(".tmp-*")] if root.is_dir() else [],
           exists=os.path.lexists(os.environ["HIPWB_CACHE_DIR"]))
print("RESULT " + json.dumps(res))
"""


def probe(tmp_path: Path, cache_dir: Path, ks, *, cache=True, wrap: str = "") -> dict:
    """Run PROBE_SCRIPT in a fresh process (optionally inside ``wrap``, a shell line that
    ends by running "$@"), with HIPWB_CACHE_DIR=cache_dir; its JSON result."""
    script = tmp_path / "probe.py"
    script.write_text(PROBE_SCRIPT)
    cfg = json.dumps({"ks": list(ks), "src": TWICE, "cache": cache})
    cmd = [sys.executable, str(script), cfg]
    if wrap:
        cmd = ["unshare", "-rm", "sh", "-c", wrap, "sh", *cmd]
    env = {**os.environ, "HIPWB_CACHE_DIR": str(cache_dir)}
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    line = next(ln for ln in out.stdout.splitlines() if ln.startswith("RESULT "))
    return json.loads(line[len("RESULT "):])


def _unshare_works() -> bool:
    if shutil.which("unshare") is None:
        return False
    d = tempfile.mkdtemp()
    try:
        r = subprocess.run(["unshare", "-rm", "sh", "-c",
                            f"mount -t tmpfs -o size=16k tmpfs {d} && "
                            f"mount --bind {d} {d} && mount -o remount,bind,ro {d}"],
                           capture_output=True, timeout=30)
        return r.returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False
    finally:
        shutil.rmtree(d, ignore_errors=True)


UNSHARE = _unshare_works()
needs_unshare = pytest.mark.skipif(not UNSHARE, reason="unshare -rm (user+mount namespaces) "
                                   "is not permitted here; the *_mocked_* tests stand in")


@needs_unshare
def test_read_only_cache_serves_hits_and_compiles_the_rest_in_memory(tmp_path):
    root = tmp_path / "ro-cache"
    first = probe(tmp_path, root, [80])  # a cache holding one entry
    assert first["entries"] == 1 and not first["warnings"] and not first["errors"]
    before = sorted(str(p.relative_to(root)) for p in root.rglob("*"))
    res = probe(tmp_path, root, [80, 81], wrap=f"mount --bind {root} {root} && "
                f"mount -o remount,bind,ro {root} && exec \"$@\"")
    assert not res["errors"], res["errors"]
    assert res["from_cache"] == [True, False, True, False]  # 81 is rebuilt in memory each time
    assert len(res["warnings"]) == 1, res["warnings"]
    cat, msg = res["warnings"][0]
    assert cat == "CacheWarning" and "read-only file system" in msg and "in memory" in msg
    assert sorted(str(p.relative_to(root)) for p in root.rglob("*")) == before


@needs_unshare
@pytest.mark.parametrize("size, fill", [("64k", True), ("20k", False)])
def test_full_cache_filesystem_compiles_in_memory_with_one_warning(tmp_path, size, fill):
    """A tmpfs filled before the run, and one that fills up during it (the device library fits,
    the code objects do not): compiles work, nothing half-written is left or served."""
    root = tmp_path / "full-cache"
    root.mkdir()
    fill_cmd = f"dd if=/dev/zero of={root}/fill bs=1k 2>/dev/null; " if fill else ""
    res = probe(tmp_path, root, [82, 83, 84, 85],
                wrap=f"mount -t tmpfs -o size={size} tmpfs {root} && {fill_cmd}exec \"$@\"")
    assert not res["errors"], res["errors"]
    assert len(res["warnings"]) == 1, res["warnings"]
    cat, msg = res["warnings"][0]
    assert cat == "CacheWarning" and "the disk is full" in msg and "in memory" in msg
    assert res["bad"] == 0 and res["leftovers"] == []


def test_cache_false_never_touches_the_cache_folder(tmp_path):
    for target in (tmp_path / "absent", tmp_path / "a-file"):
        if target.name == "a-file":
            target.write_text("x")
        res = probe(tmp_path, target, [86], cache=False)
        assert not res["errors"] and not res["warnings"], res
        assert res["from_cache"] == [False, False]
        assert res["exists"] == (target.name == "a-file")
    assert (tmp_path / "a-file").read_text() == "x"


# -- concurrent writers ----------------------------------------------------------------------

N_PROCS, N_SOURCES = 4, 20


def _pin_prelude(digest: str) -> None:
    """Fix the prelude's part of the cache key for this run: the prelude is edited in place
    while tests run (a shared working tree), and a key that moves between the writers and the
    second pass would count as rebuilds."""
    compile_cache.prelude_hash = lambda: digest


def _writer(seed: int, root: str, prelude: str, barrier, results) -> None:
    os.environ["HIPWB_CACHE_DIR"] = root
    import workbench as wb  # noqa: F401 (imported before the barrier: all start together)

    _pin_prelude(prelude)

    order = list(range(N_SOURCES))
    random.Random(seed).shuffle(order)
    barrier.wait()
    out = []
    for i in order:
        mod = wb.compile(twice(100 + i), "gfx942")
        co = mod["gfx942"]
        co.disassembly()  # touches the entry (listing.txt, intact_path) as sessions do
        co.intact_path()
        out.append((i, hashlib.sha256(co.elf).hexdigest(), mod.from_cache))
    results.put((seed, out))


@pytest.mark.slow
def test_concurrent_writers_leave_every_entry_valid(tmp_path, monkeypatch):
    root = tmp_path / "shared"
    prelude = compile_cache.prelude_hash()
    monkeypatch.setattr(compile_cache, "prelude_hash", lambda: prelude)
    ctx = mp.get_context("spawn")
    barrier, results = ctx.Barrier(N_PROCS), ctx.Queue()
    procs = [ctx.Process(target=_writer, args=(s, str(root), prelude, barrier, results))
             for s in range(N_PROCS)]
    t0 = time.perf_counter()
    for p in procs:
        p.start()
    got = dict(results.get(timeout=240) for _ in procs)
    for p in procs:
        p.join(30)
        assert p.exitcode == 0
    seconds = time.perf_counter() - t0
    shas: dict[int, set[str]] = {}
    for out in got.values():
        for i, sha, _ in out:
            shas.setdefault(i, set()).add(sha)
    assert all(len(s) == 1 for s in shas.values())  # every process saw the same bytes
    built = sum(not hit for out in got.values() for *_, hit in out)
    entries = sorted(root.glob("objects/??/*/entry.json"))
    invalid = 0
    for e in entries:
        try:
            co, _ = compile_cache._read(e.parent, e.parent.name)
            assert {hashlib.sha256(co.elf).hexdigest()} in shas.values()
        except Exception:
            invalid += 1
    monkeypatch.setenv("HIPWB_CACHE_DIR", str(root))
    compiler.clear_cache(memory_only=True)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        rebuilt = sum(not wb.compile(twice(100 + i), "gfx942").from_cache
                      for i in range(N_SOURCES))
    compiler.clear_cache(memory_only=True)
    print(f"\n{N_PROCS} processes x {N_SOURCES} sources: {built} builds, {len(entries)} "
          f"entries, {invalid} invalid, {rebuilt} rebuilt on the second pass, {seconds:.1f} s")
    assert len(entries) == N_SOURCES
    assert invalid == 0 and rebuilt == 0
    assert not cache_warnings(record)
    assert not list(root.rglob(".tmp-*")) and not list(root.rglob(".stale-*"))


# -- names and filenames cannot inject directives --------------------------------------------

BROKEN = "__global__ void broken(int* p) {\n    p[0] = undefined_name;\n}\n"
PASSWD_LINE = Path("/etc/passwd").read_text().splitlines()[0] if Path(
    "/etc/passwd").exists() else "root:x:0:0"


@pytest.mark.parametrize("name", ['a"b.hip', "back\\slash.hip", "../up/../x.hip", "..",
                                  "sp ace:colon.hip", "é.hip", 'x" #include "/etc/passwd',
                                  'x\\" #include "/etc/passwd', "\\", '"'])
def test_odd_filenames_compile_and_are_cited_exactly(name):
    mod = wb.compile(TWICE.replace("K", "2.0f"), "gfx942", filename=name, cache=False)
    run_twice(mod, 2)
    assert any(i.source_line == 2 for i in mod.isa("twice").instructions)
    with pytest.raises(wb.CompileError) as info:
        wb.compile(BROKEN, "gfx942", filename=name, first_line=4, cache=False)
    err = info.value
    assert str(err).startswith(f"{name} line 5: use of undeclared identifier 'undefined_name'")
    assert [(d.file, d.line) for d in err.diagnostics if d.severity == "error"] == [(name, 5)]
    assert PASSWD_LINE not in str(err) and "passwd' file not found" not in str(err)


@pytest.mark.parametrize("name", ['cell"\n#include "/etc/passwd"\n//', "a\nb", "a\rb",
                                  "nul\0", "tab\there", "esc\x1b[2J", "del\x7f"])
def test_filenames_with_control_characters_are_refused_by_name(name):
    with pytest.raises(ValueError, match=r"compile\(filename=.*control character"):
        wb.compile(TWICE.replace("K", "2.0f"), "gfx942", filename=name, cache=False)


def test_filename_and_first_line_of_the_wrong_kind_are_refused_by_name():
    with pytest.raises(TypeError, match=r"argument 'filename' takes str, got bytes"):
        wb.compile(TWICE, "gfx942", filename=b"cell", cache=False)
    with pytest.raises(ValueError, match="valid Unicode"):
        wb.compile(TWICE, "gfx942", filename="\ud800.hip", cache=False)
    for bad in ('1 "x"\n#include "/etc/passwd"', 1.5, True):  # not an int at all
        with pytest.raises(TypeError, match=r"argument 'first_line' takes int"):
            wb.compile(TWICE, "gfx942", first_line=bad, cache=False)
    for bad in (0, -3, 2**31):
        with pytest.raises(ValueError, match=r"compile\(first_line="):
            wb.compile(TWICE, "gfx942", first_line=bad, cache=False)
    assert wb.compile(TWICE.replace("K", "2.0f"), "gfx942", first_line=np.int64(7),
                      cache=False).first_line == 7


@pytest.mark.parametrize("defines, what", [
    ({"X": '2\n#include "/etc/passwd"'}, "control character '\\\\n'"),
    ({"X": "2\r"}, "control character"),
    ({"X=3 -include /etc/passwd": None}, "not a macro name"),
    ({"X Y": 1}, "not a macro name"),
    ({"": 1}, "not a macro name"),
    ({5: 1}, "'defines' takes a mapping of str to"),  # a wrong type, named
])
def test_defines_cannot_inject_lines(defines, what):
    with pytest.raises((ValueError, TypeError), match=r"defines\[.*" + what
                       if "mapping" not in what else what):
        wb.compile(TWICE, "gfx942", defines=defines, cache=False)


def test_function_like_and_plain_defines_still_work():
    src = TWICE.replace("K", "SCALE(1.0f)")
    mod = wb.compile(src, "gfx942", defines={"SCALE(v)": "(v * TWO)", "TWO": "2.0f",
                                             "FLAG": None, "TABBED": "1\t+ 1"}, cache=False)
    run_twice(mod, 2)
