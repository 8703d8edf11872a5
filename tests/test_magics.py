"""%%hipkernel / %%hipfile / %hipwb in a real IPython shell, and the views they display."""

from __future__ import annotations

import configparser
import re
from pathlib import Path

import pytest
from IPython.core.error import UsageError
from IPython.utils.capture import capture_output

import workbench as wb
from workbench import compiler
from workbench.codeobject import Resources
from workbench.magics import CellCompileError, HipMagics
from workbench.occupancy import occupancy
from workbench.runtime.kernel import Kernel
from workbench.widgets.occupancy_view import (
    OccupancyExplorer,
    OccupancyView,
    occupancy_table_view,
)

ADD = """extern "C" __global__ void add(const float* x, const float* y, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = x[i] + y[i];
}
"""
SANITIZE = Path(__file__).resolve().parents[1] / "notebooks" / "sanitize.cfg"


def magics(ip) -> HipMagics:
    return ip.magics_manager.registry["HipMagics"]


def run_magic(ip, line: str, cell: str):
    with capture_output() as cap:
        ip.run_cell_magic("hipkernel", line, cell)
    return cap.outputs


def sanitize(text: str) -> str:
    cfg = configparser.ConfigParser()
    cfg.read(SANITIZE)
    for sec in cfg.sections():
        text = re.sub(cfg[sec]["regex"], cfg[sec]["replace"], text)
    return text


def test_kernel_is_bound_and_the_report_has_text_and_html(shell):
    shell.user_ns.pop("add", None)
    outs = run_magic(shell, "--arch gfx942", ADD)
    k = shell.user_ns["add"]
    assert isinstance(k, Kernel) and k.module.archs == ("gfx942",)
    assert k.signature == "add(const float *x, const float *y, float *out, int n)"
    (out,) = outs
    text, html = out.data["text/plain"], out.data["text/html"]
    assert text.startswith("1 kernel for gfx942 (compile time: ")
    assert re.search(r"VGPRs\s+8\b", text) and re.search(r"SGPRs\s+14\b", text)
    assert re.search(r"occupancy\s+8 of 8 waves/SIMD", text)
    assert "block size        256" in text and "ISA               23 instructions" in text
    assert "/tmp" not in text and "/tmp" not in html  # no paths
    assert "<details><summary>ISA add gfx942: 23 instructions" in html
    assert "<summary>occupancy gfx942: 8 waves/SIMD" in html
    # The ISA's source lines are cell lines: line 4 is `if (i < n) ...` (line 1: %%hipkernel).
    assert '<span class="src">; line 4: if (i &lt; n) out[i] = x[i] + y[i];</span>' in html


def test_cached_and_cold_outputs_are_equal_after_sanitizing(shell):
    src = ADD.replace("add(", "add_sanitize(")
    cold = run_magic(shell, "--arch gfx942,gfx1100", src)[0].data
    warm = run_magic(shell, "--arch gfx942,gfx1100", src)[0].data
    assert "(cached)" in warm["text/plain"] and "(cached)" not in cold["text/plain"]
    for mime in ("text/plain", "text/html"):
        assert sanitize(cold[mime]) == sanitize(warm[mime])
    assert "compile time: <t>" in sanitize(warm["text/plain"])


def test_archs_side_by_side_in_columns(shell):
    (out,) = run_magic(shell, "--arch gfx942,gfx1100", ADD)
    lines = out.data["text/plain"].splitlines()
    header = lines[2].split()
    assert header == ["gfx942", "gfx1100"]
    assert lines[4].split() == ["wave", "size", "64", "32"]
    assert shell.user_ns["add"].module.archs == ("gfx942", "gfx1100")


def test_compile_error_cites_the_cell_line_and_the_shell_survives(shell):
    run_magic(shell, "--arch gfx942", ADD)
    before = shell.user_ns["add"]
    cell = "%%hipkernel\n__global__ void broken(int* p) {\n    p[0] = nope;\n}\n"
    with capture_output() as cap:
        res = shell.run_cell(cell)
    err = res.error_in_exec
    assert isinstance(err, CellCompileError) and isinstance(err, wb.CompileError)
    assert str(err).startswith("cell line 3: use of undeclared identifier 'nope'")
    assert "p[0] = nope;" in str(err)
    shown = cap.stdout + cap.stderr
    assert "CellCompileError" in shown and "cell line 3" in shown
    assert "Traceback" not in shown and "magics.py" not in shown  # no Python traceback
    assert shell.user_ns["add"] is before  # earlier kernels survive
    assert "broken" not in shell.user_ns
    assert shell.run_cell("survived = 40 + 2").success
    assert shell.user_ns["survived"] == 42


def test_blank_lines_before_the_magic_shift_cell_lines(shell):
    cell = "\n\n%%hipkernel\n__global__ void broken2(int* p) {\n    p[0] = nope2;\n}\n"
    with capture_output():
        res = shell.run_cell(cell, store_history=True)
    assert str(res.error_in_exec).startswith("cell line 5: use of undeclared identifier")


@pytest.mark.parametrize("line, match", [
    ("--arch gfx9999", r"unknown arch 'gfx9999'; known archs: gfx90a, gfx942"),
    ("--frobnicate", r"unknown option --frobnicate"),
    ("--show everything", r"argument --show: invalid choice: 'everything'"),
    ("-D 9x=1", r"'9x' is not a valid macro name"),
])
def test_bad_options_are_usage_errors_naming_the_option(shell, line, match):
    with pytest.raises(UsageError, match=match):
        run_magic(shell, line, ADD)


def test_defines_show_isa_and_show_none(shell):
    src = "__global__ void fill(int* p) { p[0] = VALUE; }\n"
    (out,) = run_magic(shell, "--arch gfx942 -D VALUE=1234 --show isa", src)
    text = out.data["text/plain"]
    assert "ISA fill gfx942:" in text and "0x4d2" in text  # 1234 in the listing
    assert "<details open><summary>ISA fill gfx942" in out.data["text/html"]
    assert run_magic(shell, "--arch gfx942 -D VALUE=7 --show none", src) == []
    assert shell.user_ns["fill"].module.defines == {"VALUE": "7"}


def test_hipfile_header_include_and_invalidation(shell):
    with capture_output() as cap:
        shell.run_cell_magic("hipfile", "tile.h", "#define TILE 3\n")
    assert cap.stdout.strip() == 'saved tile.h (1 lines): #include "tile.h" in %%hipkernel cells'
    src = '#include "tile.h"\n__global__ void tiled(int* p) { p[0] = TILE * 1000; }\n'
    run_magic(shell, "--arch gfx942", src)
    m = magics(shell)
    assert not m.last_module.from_cache
    assert "0xbb8" in m.last_module["gfx942"].disassembly()
    run_magic(shell, "--arch gfx942", src)
    assert m.last_module.from_cache
    with capture_output() as cap:
        shell.run_cell_magic("hipfile", "tile.h", "#define TILE 3\n")
    assert cap.stdout.startswith("unchanged tile.h")
    run_magic(shell, "--arch gfx942", src)
    assert m.last_module.from_cache  # an unchanged header keeps the cache
    with capture_output():
        shell.run_cell_magic("hipfile", "tile.h", "#define TILE 7\n")
    run_magic(shell, "--arch gfx942", src)
    assert not m.last_module.from_cache
    assert "0x1b58" in m.last_module["gfx942"].disassembly()  # 7000
    # Cells that do not include a session header keep flags that do not name the session.
    run_magic(shell, "--arch gfx942", ADD)
    assert str(m.header_dir) not in " ".join(m.last_module["gfx942"].command)
    with pytest.raises(UsageError, match="relative name without '..'"):
        shell.run_cell_magic("hipfile", "../evil.h", "x")


def test_hipwb_arch_sets_the_default(shell):
    with capture_output() as cap:
        shell.run_line_magic("hipwb", "arch gfx1100")
    assert cap.stdout.strip() == "default arch: gfx1100 (set by %hipwb arch)"
    try:
        run_magic(shell, "", ADD.replace("add(", "add_default_arch("))
        assert shell.user_ns["add_default_arch"].module.archs == ("gfx1100",)
    finally:
        with capture_output() as cap:
            shell.run_line_magic("hipwb", "arch auto")
    assert cap.stdout.strip() == "default arch: gfx942 (detected (auto))"
    with pytest.raises(UsageError, match="unknown arch 'gfx1'"):
        shell.run_line_magic("hipwb", "arch gfx1")


def test_hipwb_other_commands(shell):
    with pytest.raises(UsageError, match="unknown option 'bogus'"):
        shell.run_line_magic("hipwb", "bogus")
    with pytest.raises(UsageError, match="usage: %hipwb arch"):
        shell.run_line_magic("hipwb", "")
    with capture_output() as cap:
        shell.run_line_magic("hipwb", "cache")
    assert cap.stdout.startswith("compile cache: ")
    with capture_output() as cap:
        shell.run_line_magic("hipwb", "doctor")
    (out,) = cap.outputs
    assert out.data["text/plain"].startswith("hipwb doctor: OK")
    with capture_output() as cap:
        shell.run_line_magic("hipwb", "cache clear")
    assert cap.stdout.strip() == "compile cache cleared"
    assert not compiler.cache_dir().exists()
    with pytest.raises(UsageError, match="unknown device 'tpu'"):
        shell.run_line_magic("hipwb", "device tpu")
    try:
        with capture_output() as cap:
            shell.run_line_magic("hipwb", "device emulator")
        assert cap.stdout.strip() == "device: emulator"
        assert wb.get_device().kind == "emulator"
    finally:
        with capture_output():
            shell.run_line_magic("hipwb", "device auto")


# -- binding kernels never loses user data ----------------------------------------------------

DATA_NP = """extern "C" __global__ void data(float* o) { o[threadIdx.x] = 1.0f; }
extern "C" __global__ void np(float* o) { o[threadIdx.x] = 2.0f; }
"""


def test_a_user_variable_or_module_is_kept_and_the_kernel_bound_beside_it(shell):
    """Issue 24: a kernel named ``data`` or ``np`` replaced the user's variable / module."""
    import numpy

    for n in ("data_kernel", "data_kernel2", "np_kernel"):
        shell.user_ns.pop(n, None)
    shell.run_cell("import numpy as np\ndata = np.arange(5)")
    mine = shell.user_ns["data"]
    with capture_output() as cap:
        shell.run_cell_magic("hipkernel", "--arch gfx942 --show none", DATA_NP)
    assert shell.user_ns["data"] is mine and shell.user_ns["np"] is numpy
    assert isinstance(shell.user_ns["data_kernel"], Kernel)
    assert shell.user_ns["data_kernel"].name == "data"
    assert shell.user_ns["np_kernel"].name == "np"
    assert cap.stdout.splitlines() == [
        "%%hipkernel: the name 'data' holds your ndarray: kept it; kernel data is bound as "
        "data_kernel",
        "%%hipkernel: the name 'np' holds your module: kept it; kernel np is bound as np_kernel"]
    # re-running the cell rebinds the kernels where they are, and says so again
    first = shell.user_ns["data_kernel"]
    with capture_output() as cap:
        shell.run_cell_magic("hipkernel", "--arch gfx942 --show none", DATA_NP)
    assert shell.user_ns["data_kernel"] is not first and shell.user_ns["data"] is mine
    assert "bound as data_kernel" in cap.stdout and "data_kernel2" not in shell.user_ns
    # the bound kernel launches
    out = numpy.zeros(64, numpy.float32)
    shell.user_ns["out"] = out
    shell.run_cell("data_kernel.on('emulator')[1, 64](out)").raise_error()
    assert (out == 1).all()


def test_a_kernel_name_that_holds_a_kernel_is_rebound_silently(shell):
    with capture_output():
        shell.run_cell_magic("hipkernel", "--arch gfx942 --show none", ADD)
    first = shell.user_ns["add"]
    with capture_output() as cap:
        shell.run_cell_magic("hipkernel", "--arch gfx942 --show none", ADD)
    assert shell.user_ns["add"] is not first and isinstance(shell.user_ns["add"], Kernel)
    assert cap.stdout == ""


def test_fallback_names_taken_too_count_up_and_keep_other_kernels_names(shell):
    src = ("extern \"C\" __global__ void cfg(float* o) { o[0] = 1.0f; }\n"
           "extern \"C\" __global__ void cfg_kernel2(float* o) { o[0] = 2.0f; }\n")
    shell.user_ns.update(cfg={"lr": 0.1}, cfg_kernel="my notes")
    shell.user_ns.pop("cfg_kernel2", None)
    shell.user_ns.pop("cfg_kernel3", None)
    with capture_output() as cap:
        shell.run_cell_magic("hipkernel", "--arch gfx942 --show none", src)
    assert shell.user_ns["cfg"] == {"lr": 0.1} and shell.user_ns["cfg_kernel"] == "my notes"
    assert shell.user_ns["cfg_kernel2"].name == "cfg_kernel2"  # the cell's own kernel
    assert shell.user_ns["cfg_kernel3"].name == "cfg"
    assert cap.stdout.strip() == ("%%hipkernel: the name 'cfg' holds your dict: kept it; "
                                  "kernel cfg is bound as cfg_kernel3")


def test_builtins_and_keywords_are_not_shadowed(shell):
    src = ("extern \"C\" __global__ void sum(float* o) { o[0] = 1.0f; }\n"
           "extern \"C\" __global__ void lambda(float* o) { o[0] = 2.0f; }\n")
    for n in ("sum", "lambda", "sum_kernel", "lambda_kernel"):
        shell.user_ns.pop(n, None)
    with capture_output() as cap:
        shell.run_cell_magic("hipkernel", "--arch gfx942 --show none", src)
    assert "sum" not in shell.user_ns and "lambda" not in shell.user_ns
    assert shell.user_ns["sum_kernel"].name == "sum"
    assert shell.user_ns["lambda_kernel"].name == "lambda"
    assert "'sum' is a Python builtin" in cap.stdout
    assert "'lambda' is a Python keyword" in cap.stdout
    assert shell.ev("sum([1, 2])") == 3


def test_time_launch_uses_the_bound_name(shell):
    shell.run_cell("import numpy as np\nx = np.ones(64, np.float32)")
    shell.user_ns.pop("np_kernel", None)
    src = 'extern "C" __global__ void np(float* o) { o[threadIdx.x] = 2.0f; }\n'
    with capture_output() as cap:
        shell.run_cell_magic("hipkernel", "--arch gfx942 --show none --time mi300x "
                             "--launch 'np[1, 64](x)'", src)
    assert "bound as np_kernel" in cap.stdout and "modelled timing" in cap.stdout


# -- views -------------------------------------------------------------------------------------

def _res(vgprs=8, agprs=0, sgprs=14, lds=0, ws=64, max_flat=1024) -> Resources:
    return Resources(vgprs=vgprs, agprs=agprs, sgprs=sgprs, lds_bytes=lds, scratch_bytes=0,
                     vgpr_spills=0, sgpr_spills=0, wave_size=ws,
                     max_flat_workgroup_size=max_flat)


def test_occupancy_view_highlights_the_limiter():
    occ = occupancy(_res(vgprs=128), "gfx942", 256)  # 512 / 128 = 4 waves (VGPR-bound)
    view = OccupancyView(occ, _res(vgprs=128))
    text = view.text()
    assert text.splitlines()[0] == ("gfx942 wave64, block 256: 4 of 8 waves/SIMD, limited by "
                                    "VGPRs; 4 workgroups = 16 waves per CU")
    marked = [ln for ln in text.splitlines() if ln.startswith("* ")]
    assert len(marked) == 1 and marked[0].split()[1:3] == ["VGPRs", "128"]
    assert '<tr class="hot"><td>VGPRs</td>' in view.html()
    lds = occupancy(_res(lds=48 * 1024), "gfx942", 256)  # one 48 KiB workgroup per 64 KiB CU
    assert lds.limiter == "lds"
    assert '<tr class="hot"><td>LDS</td>' in OccupancyView(lds).html()


def test_occupancy_table_view_marks_the_kernels_row():
    view = occupancy_table_view("gfx942", vgprs=100)
    text = view.text()
    assert re.search(r"^\* 97-128 +4$", text, re.M)  # 97..128 VGPRs -> 4 waves (512 / 128)
    assert len(re.findall(r"^\* ", text, re.M)) == 1
    assert text.startswith("occupancy table gfx942 wave64")
    rdna = occupancy_table_view("gfx1100").text()
    assert "SGPRs/wave" not in rdna  # no SGPR limit on gfx10+


def test_occupancy_explorer_recomputes_live():
    ex = OccupancyExplorer(_res(), "gfx942", 256)
    assert ex.text() == OccupancyView(occupancy(_res(), "gfx942", 256), _res()).text()
    bundle = ex._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html"}  # no live widget outside a kernel
    box = ex.widget()
    assert not box.children[-1]._stale  # the figure held its data when wrapped
    ctl = box.controls
    ctl["vgprs"].value = 200  # -> 512 / 256 after the 8-register granule = 2 waves
    assert "2 of 8 waves/SIMD, limited by VGPRs" in ctl["html"].value
    assert ctl["dot"].data == {"x": [200], "y": [2]}
    ctl["block"].value = 1024
    assert "block 1024:" in ctl["html"].value
    xs, ys = ctl["curve"].data["x"], ctl["curve"].data["y"]
    assert len(xs) == 256 and ys[0] == 8 and ys[-1] == 2


def test_wave64_compiles_rdna_for_wave64(shell):
    (out,) = run_magic(shell, "--arch gfx942,gfx1100 --wave64 --block 128", ADD)
    lines = out.data["text/plain"].splitlines()
    assert lines[4].split() == ["wave", "size", "64", "64"]
    assert lines[11].split() == ["block", "size", "128", "128"]
    k = shell.user_ns["add"]
    assert k.info("gfx1100").resources.wave_size == 64
    assert k.occupancy(128, arch="gfx1100").waves_per_workgroup == 2


def test_spills_are_highlighted_and_cells_without_kernels_say_so(shell):
    src = """__global__ void __attribute__((amdgpu_num_vgpr(24)))
spilly(const float* x, float* out, int n) {
    float acc[48];
    for (int j = 0; j < 48; ++j) acc[j] = 0.0f;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        for (int j = 0; j < 48; ++j) acc[j] = acc[j] * x[i] + (float)j;
    float s = 0.0f;
    for (int j = 0; j < 48; ++j) s += acc[j];
    out[threadIdx.x] = s;
}
"""
    (out,) = run_magic(shell, "--arch gfx942", src)
    res = shell.user_ns["spilly"].resources
    assert res.vgpr_spills > 0 and res.scratch_bytes > 0
    assert f"spills VGPR/SGPR  {res.vgpr_spills}/0" in out.data["text/plain"]
    assert (f'<tr class="hot"><td>spills VGPR/SGPR</td><td>{res.vgpr_spills}/0</td></tr>'
            in out.data["text/html"])
    (none,) = run_magic(shell, "--arch gfx942", "__device__ int helper(int v) { return v; }\n")
    assert ("warning: no kernels in this source (mark device entry points __global__): nothing "
            "to launch") in none.data["text/plain"]
    assert "no kernels in this source" in none.data["text/html"]


def test_empty_kernel_body_and_empty_cell_are_said(shell):
    """AMD's MFMA examples guard bodies with #if __gfx90a__ || __gfx908__: built for gfx942
    each is a lone s_endpgm; the report says so (text and HTML), and an empty cell too."""
    src = """extern "C" __global__ void guarded(float* out) {
#if __gfx90a__ || __gfx908__
    out[threadIdx.x] = 1.0f;
#endif
}
extern "C" __global__ void real(float* out) { out[threadIdx.x] = 2.0f; }
"""
    (out,) = run_magic(shell, "--arch gfx942", src)
    warn = ("warning: guarded compiles to a lone s_endpgm for gfx942: its body is empty there "
            "(code behind a preprocessor guard for other targets, such as #if __gfx90a__ || "
            "__gfx908__?), so a launch computes nothing")
    assert warn in out.data["text/plain"]
    assert "guarded compiles to a lone s_endpgm" in out.data["text/html"]
    assert "real compiles" not in out.data["text/plain"]
    (empty,) = run_magic(shell, "--arch gfx942", "\n// nothing yet\n")
    assert "the cell is empty: nothing was compiled" in empty.data["text/plain"]
    res = shell.run_cell("import numpy as np; _o = np.zeros(64, np.float32); "
                         "real[1, 64](_o); assert (_o == 2).all()")
    assert res.success  # the session goes on
