"""The precompiled prelude (workbench/prelude_pch.py): the same code objects, less parsing.

Every ``.hip`` file under ``tests/kernels/`` and ``kernels/`` is compiled with the prelude
precompiled and parsed (``HIPWB_PCH=0``), and the code objects' text sections and metadata
notes must be byte-identical. The rest checks the rules of the module docstring: which flags
reach the header's key, that a sweep over a user ``-D`` reuses one header, that clang's refusal
(a header from another option set) falls back, and that the stub never enters a cell's header
list.
"""
from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import pytest
from elftools.elf.elffile import ELFFile

import workbench as wb
from workbench import CompileError, compiler, prelude_pch
from workbench.toolchain import find_toolchain

ROOT = Path(__file__).resolve().parents[2]
FIELDWORK_ROOT = ROOT / "tests" / "kernels" / "fieldwork"
sys.path.insert(0, str(FIELDWORK_ROOT))
import corpus  # noqa: E402  (tests/kernels/fieldwork/corpus.py: how each program builds)
from conftest import full_run  # noqa: E402

FIELDWORK = {FIELDWORK_ROOT / e.path: e for e in corpus.ENTRIES}
FILES = sorted([*ROOT.glob("tests/kernels/**/*.hip"), *ROOT.glob("kernels/**/*.hip")])
# Tried in order: the first arch the parsed prelude builds a file for is compared.
ARCHS = ("gfx942", "gfx950", "gfx1100", "gfx1201")


def sections(elf: bytes) -> dict[str, bytes]:
    """The text section and the metadata note of a code object."""
    f = ELFFile(io.BytesIO(elf))
    return {s.name: s.data() for s in f.iter_sections() if s.name in (".text", ".note")}


def how_to_build(path: Path) -> tuple[list[Path], tuple[str, ...]]:
    """The include folders and options a file's own build passes (the fieldwork corpus says
    for its programs; the timing ladder uses the tutorial's gemm header)."""
    entry = FIELDWORK.get(path)
    if entry is not None:
        return [FIELDWORK_ROOT / d for d in entry.includes], tuple(entry.options)
    return [path.parent, ROOT / "kernels" / "gemm"], ()


def compare(path: Path) -> str | None:
    """Build one file both ways for the first arch that takes it; None when none does
    (the fieldwork corpus's programs that must fail)."""
    src = corpus.read(path)
    dirs, options = how_to_build(path)
    for arch in ARCHS:
        kw = dict(cache=False, filename="k.hip", include_dirs=[path.parent, *dirs],
                  options=options)
        try:
            with prelude_pch.using(False):
                plain = wb.compile(src, arch, **kw)
        except CompileError:
            continue
        with prelude_pch.using(True):
            fast = wb.compile(src, arch, **kw)
        assert "-include-pch" in fast[arch].command, path
        a, b = sections(plain[arch].elf), sections(fast[arch].elf)
        assert set(a) == {".text", ".note"}, path
        assert a == b, f"{path.relative_to(ROOT)} ({arch}): code differs with the PCH"
        assert ({n: k.args for n, k in plain[arch].kernels.items()}
                == {n: k.args for n, k in fast[arch].kernels.items()}), path
        assert ({n: k.dynamic_shared for n, k in plain[arch].kernels.items()}
                == {n: k.dynamic_shared for n, k in fast[arch].kernels.items()}), path
        assert plain[arch].variables == fast[arch].variables, path
        return arch
    return None


def test_the_corpus_is_there():
    assert len(FILES) > 100


# The files whose comparison costs most (cold, 2-core machine): the build that parses the
# prelude runs one filtered AST dump per kernel, each parsing the prelude again.
HEAVY = {"tests/kernels/emu/mfma_regs.hip": "31 s: 40 kernels",
         "tests/kernels/prelude/ocml_math.hip": "16-22 s",
         "tests/kernels/warp_sync/warp_sync.hip": "12 s"}


# `make test` compares a sample (every 12th file, the heavy three left to FULL=1);
# `make test FULL=1` every file.
@pytest.mark.sample(every=12)
@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_kernel_file_builds_the_same_code_both_ways(path, request):
    rel = str(path.relative_to(ROOT))
    if rel in HEAVY and not full_run(request.config):
        pytest.skip(f"compared with FULL=1 only ({HEAVY[rel]} cold)")
    expected_to_fail = {FIELDWORK_ROOT / e.path for e in corpus.ENTRIES if e.fails}
    arch = compare(path)
    assert arch is not None or path in expected_to_fail, f"no arch builds {path}"


def test_user_defines_the_prelude_never_spells_stay_out_of_the_key():
    tc = find_toolchain()
    base = compiler.clang_driver.clang_flags(tc, (), {}, (), "3")
    swept = [compiler.clang_driver.clang_flags(tc, ("-DBLOCK=64",), {"N": n, "TILE": 16}, (),
                                                "3") for n in (128, 256)]
    keys = {prelude_pch.key(tc, "gfx942", prelude_pch.build_flags(f)) for f in [base, *swept]}
    assert len(keys) == 1
    # a macro the prelude tests (NDEBUG: assert), a reserved name, -O and -std all change it
    for extra in (("-DNDEBUG",), ("-D_GLIBCXX_ASSERTIONS",), ("-std=c++20",), ("-ffast-math",)):
        f = compiler.clang_driver.clang_flags(tc, extra, {}, (), "3")
        assert prelude_pch.key(tc, "gfx942", prelude_pch.build_flags(f)) not in keys, extra
    other_o = compiler.clang_driver.clang_flags(tc, (), {}, (), "1")
    assert prelude_pch.key(tc, "gfx942", prelude_pch.build_flags(other_o)) not in keys


@pytest.mark.parametrize("option", ["-E", "-S", "-save-temps", "-Xclang", "-fsyntax-only",
                                    "-emit-llvm", "-include-pch"])
def test_options_that_change_clangs_action_parse_the_prelude(option):
    tc = find_toolchain()
    flags = compiler.clang_driver.clang_flags(tc, (option,), {}, (), "3")
    assert prelude_pch.build_flags(flags) is None


def test_a_sweep_over_a_user_define_reuses_one_header(tmp_path, monkeypatch):
    monkeypatch.setenv("HIPWB_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("HIPWB_PCH", "1")
    src = "__global__ void k(float* o) { o[threadIdx.x] = BLOCK * N; }\n"
    for n in (1, 2, 3):
        mod = wb.compile(src, "gfx942", defines={"BLOCK": 64, "N": n})
        assert "-include-pch" in mod["gfx942"].command
    assert len(list((tmp_path / "objects" / "pch").glob("prelude-gfx942-*"))) == 1
    deps = compiler.compile_cache._memo  # the stub is never one of the cell's headers
    assert not any(prelude_pch.STUB_NAME in str(d) for _, ds in deps.values() for d in ds or ())


def test_a_header_clang_refuses_is_dropped_and_the_cell_still_compiles(tmp_path, monkeypatch):
    """A header whose entry is sound but whose content is another option set's (clang: "-O
    differs in precompiled file"): the compile runs again parsing the prelude, the entry is
    dropped, and the next compile builds a good one."""
    monkeypatch.setenv("HIPWB_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("HIPWB_PCH", "1")
    src = "__global__ void k(float* o) { o[threadIdx.x] = 2.0f; }\n"
    wb.compile(src, "gfx942", opt_level=1)
    wb.compile(src + "// 2\n", "gfx942", opt_level=3)
    o1, o3 = (next((tmp_path / "objects" / "pch").glob(f"prelude-gfx942-{k}")) for k in (
        prelude_pch.key(find_toolchain(), "gfx942", prelude_pch.build_flags(
            compiler.clang_driver.clang_flags(find_toolchain(), (), {}, (), o)))
        for o in ("1", "3")))
    (o3 / "prelude.pch").unlink()
    os.link(o1 / "prelude.pch", o3 / "prelude.pch")
    (o3 / "entry.json").write_bytes((o1 / "entry.json").read_bytes())
    prelude_pch._verified.clear()
    mod = wb.compile(src + "// 3\n", "gfx942", opt_level=3)
    assert "-include-pch" not in mod["gfx942"].command and "-O3" in mod["gfx942"].command
    assert not o3.exists()
    assert "-include-pch" in wb.compile(src + "// 4\n", "gfx942")["gfx942"].command


def test_off_switch_and_rocm_headers_parse_the_prelude(monkeypatch):
    monkeypatch.setenv("HIPWB_PCH", "0")
    mod = wb.compile("__global__ void k(int* o) { *o = 1; }\n", "gfx942", cache=False)
    assert "-include-pch" not in mod["gfx942"].command
    assert "hip/hip_runtime.h" in mod["gfx942"].command


def test_leading_prelude_includes_join_the_header_and_nothing_else_does():
    lead = prelude_pch.leading_includes
    assert lead('#line 2 "cell"\n// fp8\n#include <hip/hip_fp8.h>\n#include "hip/hip_runtime.h"\n'
                '/* ocp */ #include <hip/hip_ext_ocp.h>\nint x;\n#include <hip/hip_fp4.h>\n') == (
        "hip/hip_fp8.h", "hip/hip_ext_ocp.h")
    # anything before them (a macro, a condition, a user header) keeps them in the cell
    assert lead("#define FP8_OFF 1\n#include <hip/hip_fp8.h>\n") == ()
    assert lead("#ifdef USE_FP8\n#include <hip/hip_fp8.h>\n#endif\n") == ()
    assert lead('#include "mine.h"\n#include <hip/hip_fp8.h>\n') == ()
    assert lead("#include <cmath>\n#include <hip/hip_bf16.h>\n") == ()  # both in the umbrella


def test_a_cell_that_includes_hip_fp8_first_loads_it_precompiled(tmp_path, monkeypatch):
    monkeypatch.setenv("HIPWB_CACHE_DIR", str(tmp_path))
    src = ("#include <hip/hip_fp8.h>\n"
           "extern \"C\" __global__ void k(const __hip_fp8_e4m3* x, float* o) {\n"
           "  o[threadIdx.x] = log1pf(float(x[threadIdx.x]));\n}\n")
    with prelude_pch.using(True):
        fast = wb.compile(src, "gfx950", cache=False)["gfx950"]
    with prelude_pch.using(False):
        plain = wb.compile(src, "gfx950", cache=False)["gfx950"]
    assert "-include-pch" in fast.command
    assert sections(fast.elf) == sections(plain.elf)
    assert fast.kernels["k"].args == plain.kernels["k"].args


def test_a_second_cache_folder_gets_a_copy_and_a_lost_stub_is_written_again(tmp_path,
                                                                            monkeypatch):
    src = "__global__ void k(float* o) { o[threadIdx.x] = 3.0f; }\n"
    monkeypatch.setenv("HIPWB_PCH", "1")
    monkeypatch.setenv("HIPWB_CACHE_DIR", str(tmp_path / "a"))
    wb.compile(src, "gfx942")
    builds = dict(prelude_pch.build_seconds)  # a rebuild would record a new time
    monkeypatch.setenv("HIPWB_CACHE_DIR", str(tmp_path / "b"))
    (stub,) = [p for p in prelude_pch.stub_dir().iterdir() if p.name == prelude_pch.STUB_NAME]
    stub.unlink()  # a temporary-folder cleaner took it
    mod = wb.compile(src + "// b\n", "gfx942")
    assert "-include-pch" in mod["gfx942"].command and str(tmp_path / "b") in " ".join(
        mod["gfx942"].command)
    assert prelude_pch.build_seconds == builds  # copied from folder a, not rebuilt
    assert stub.read_bytes() == b"#include <hip/hip_runtime.h>\n"


def test_cells_with_their_own_include_folders_share_the_header(tmp_path, monkeypatch):
    """-I folders stay out of the key: two cells with different folders load one header, and
    their code is the same as when the prelude is parsed."""
    monkeypatch.setenv("HIPWB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("HIPWB_PCH", "1")
    src = '#include "scale.h"\n__global__ void k(float* o) { o[threadIdx.x] = SCALE * 2.0f; }\n'
    mods = []
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "scale.h").write_text("#define SCALE 3.0f\n")
        mods.append(wb.compile(src, "gfx942", include_dirs=[tmp_path / name],
                               options=[f"-iquote{tmp_path / name}"]))
    assert all("-include-pch" in m["gfx942"].command for m in mods)
    assert len(list((tmp_path / "cache" / "objects" / "pch").glob("prelude-gfx942-*"))) == 1
    with prelude_pch.using(False):
        plain = wb.compile(src, "gfx942", include_dirs=[tmp_path / "one"], cache=False)
    assert sections(plain["gfx942"].elf) == sections(mods[0]["gfx942"].elf)


@pytest.mark.parametrize("shadow", ["hip/hip_runtime.h", "cmath", "bits/c++config.h"])
def test_a_folder_holding_a_header_the_prelude_reads_makes_the_cell_parse_it(
        tmp_path, monkeypatch, shadow):
    """A user folder is searched before the prelude's and the system's: one that holds a file
    by a name the prelude includes (its own header, a C++ header, a libstdc++ internal) gets
    the prelude parsed, so that file is the one clang reads, as it would be without a PCH."""
    monkeypatch.setenv("HIPWB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("HIPWB_PCH", "1")
    src = "__global__ void k(float* o) { o[threadIdx.x] = 1.0f; }\n"
    assert "-include-pch" in wb.compile(src, "gfx942", include_dirs=[tmp_path])[
        "gfx942"].command  # nothing in the folder yet
    (tmp_path / shadow).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / shadow).write_text("#error the user's own file was read\n")
    with pytest.raises(CompileError, match="the user's own file was read"):
        wb.compile(src + "// 2\n", "gfx942", include_dirs=[tmp_path])
    assert prelude_pch.shadows([str(tmp_path)], [f"/usr/include/c++/12/{shadow}"]) == str(
        tmp_path / shadow)
