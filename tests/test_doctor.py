"""workbench.doctor: what it reports about the toolchain, targets, runtime and packages."""

from __future__ import annotations

import importlib.util

import pytest

from workbench import toolchain
from workbench.arch import ARCHS
from workbench.doctor import DoctorReport, doctor, rocm_gpu_arch


@pytest.fixture(scope="module")
def report() -> DoctorReport:
    return doctor()


def _checks(rep: DoctorReport, section: str) -> dict[str, str]:
    return {c.name: c.value for c in rep.sections[section]}


def test_toolchain_section_names_the_rule_paths_and_versions(report):
    tc = toolchain.find_toolchain()
    tool = _checks(report, "Toolchain (LLVM with the AMDGPU target)")
    assert tool["found by"] == f"{tc.source} rule: {tc.bin_dir}"
    assert tool["clang"] == f"{tc.clang} (clang version {tc.clang_version})"
    for name in ("ld.lld", "llvm-objdump", "llvm-readelf"):
        assert tool[name].startswith(tc.tool(name) + " (")
    assert any(k.startswith("search: ") for k in tool)
    assert report.ok


def test_targets_lists_what_clang_cannot_build(report):
    tc = toolchain.find_toolchain()
    t = _checks(report, "Targets")
    assert "gfx942" in t["clang accepts"].split()
    builds = t["hipwb archs it builds"].split()
    assert builds == [a for a in ARCHS if tc.supports(a)]
    if tc.clang_major < 20:  # gfx950 arrived in LLVM 20
        assert t["hipwb archs it cannot build"] == (
            f"gfx950 (needs LLVM >= 20, this is {tc.clang_major})")
        assert any("To build gfx950" in f and "gfx950 (MI350X/MI355X) is lost" in f
                   and "clang-22 lld-22 llvm-22" in f for f in report.fixes)
    else:
        assert "hipwb archs it cannot build" not in t


def test_runtime_and_python_sections(report):
    gpu = _checks(report, "GPU runtime")
    assert gpu["ROCm"] == ("no (offline prelude headers)" if toolchain.rocm_path() is None
                           else f"yes, {toolchain.rocm_path()}")
    if importlib.util.find_spec("cupy") is None:
        assert gpu["cupy"].startswith("not installed")
        assert any("hip-workbench[rocm]" in f for f in report.fixes)
    py = _checks(report, "Python")
    import numpy

    assert py["numpy"] == numpy.__version__
    assert py["hip-workbench"] != "missing"


def test_text_and_html_renderings(report):
    text = report.text()
    assert text.startswith("hipwb doctor: OK\n")
    assert repr(report) == text
    assert "\nTo fix:\n" in text or not report.fixes
    html = report.html()
    assert html.count("<table>") == len(report.sections)


def test_missing_toolchain_is_reported_with_the_install_hint(tmp_path, monkeypatch):
    monkeypatch.setenv("HIPWB_LLVM_DIR", str(tmp_path))
    toolchain.reset_cache()
    try:
        rep = doctor()
    finally:
        monkeypatch.delenv("HIPWB_LLVM_DIR")
        toolchain.reset_cache()
    assert not rep.ok
    tool = _checks(rep, "Toolchain (LLVM with the AMDGPU target)")
    assert tool["toolchain"] == "not found"
    assert tool["search: HIPWB_LLVM_DIR"].startswith(f"{tmp_path}: missing clang")
    assert "Targets" not in rep.sections
    assert any("apt-get install -y clang-22 lld-22 llvm-22" in f for f in rep.fixes)
    text = rep.text()
    assert text.startswith("hipwb doctor: problems found")
    assert " ! toolchain" in text
    assert '<tr class="hot"><td>toolchain</td>' in rep.html()


@pytest.mark.skipif(importlib.util.find_spec("cupy") is not None, reason="cupy installed")
def test_no_gpu_arch_without_cupy(monkeypatch):
    monkeypatch.delenv("HIPWB_DEVICE", raising=False)
    assert rocm_gpu_arch() is None
