"""tests/triton_front: the report of the Triton tutorial kernels' emulated launches.

Each launch in test_tutorial_kernels.py records one line (arch, kernel, emulated seconds, max
|error| vs torch, the tolerance) with ``record_property("triton_tutorial", line)``; the lines
travel with the test reports (also from pytest-xdist workers) and are printed at the end of
the run (test_more_kernels.py's under ``triton_more``). Timing is reported, never asserted.
"""

from __future__ import annotations

KEY = "triton_tutorial"
# test_more_kernels.py reports its launches the same way, under its own heading
SECTIONS = {KEY: "Triton tutorial kernels on the emulator",
            "triton_more": "More Triton kernels on the emulator (test_more_kernels.py)"}


def pytest_terminal_summary(terminalreporter):
    for section, title in SECTIONS.items():
        lines = [value for reports in terminalreporter.stats.values() for rep in reports
                 for key, value in getattr(rep, "user_properties", ()) if key == section]
        if lines:
            terminalreporter.write_sep("-", title)
            for line in sorted(set(lines)):
                terminalreporter.write_line(line)
