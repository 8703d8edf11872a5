"""tests/triton_front: the report of the Triton tutorial kernels' emulated launches.

Each launch in test_tutorial_kernels.py records one line (arch, kernel, emulated seconds, max
|error| vs torch, the tolerance) with ``record_property("triton_tutorial", line)``; the lines
travel with the test reports (also from pytest-xdist workers) and are printed at the end of
the run. Timing is reported, never asserted.
"""

from __future__ import annotations

KEY = "triton_tutorial"


def pytest_terminal_summary(terminalreporter):
    lines = [value for reports in terminalreporter.stats.values() for rep in reports
             for key, value in getattr(rep, "user_properties", ()) if key == KEY]
    if lines:
        terminalreporter.write_sep("-", "Triton tutorial kernels on the emulator")
        for line in sorted(set(lines)):
            terminalreporter.write_line(line)
