"""A full device printf buffer says so (issue 24: output was cut at about 37k lines with no word):
one line after the kept output names the dropped bytes and printf calls and the
``printf_buffer=`` that holds it all; with that keyword (or the module setting) every line is
printed. Real kernel, real emulator, real devlib ``__printf_alloc``."""
from __future__ import annotations

import numpy as np
import pytest

import workbench as wb
from workbench.emu.engine import printf
from workbench.runtime import Kernel, LaunchError

SRC = r'''
extern "C" __global__ void chatty(int per_thread) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < per_thread; ++k) printf("t=%d k=%d\n", i, k);
}
'''
THREADS, PER = 1024, 40  # 40,960 lines: over the default 1 MiB buffer


@pytest.fixture(scope="module")
def chatty():
    return Kernel(wb.compile(SRC, "gfx942"), "chatty", device="emulator")


def _frame_bytes() -> int:
    # control word (4) + format hash (8) + two 32-bit arguments widened to 8 bytes each
    return 4 + 8 + 2 * 8


def test_overflow_is_reported_once_with_the_numbers_and_the_fix(chatty, capsys):
    res = chatty[4, 256](PER)
    lines = capsys.readouterr().out.splitlines()
    notes = [s for s in lines if s.startswith("[hipwb]")]
    assert len(notes) == 1 and lines[-1] == notes[0]
    fb = _frame_bytes()
    kept = (printf.PRINTF_BUFFER_BYTES - 8) // fb
    assert len(lines) - 1 == kept == 37_448  # the "about 37k lines" of the issue
    total = THREADS * PER
    dropped = (total - kept) * fb
    assert res.stats["printf_dropped"] == dropped
    note = notes[0]
    assert f"the {printf.PRINTF_BUFFER_BYTES:,}-byte printf buffer overflowed" in note
    assert f"{dropped:,} of {total * fb:,} bytes" in note
    assert f"about {total - kept:,} printf calls" in note and f"({kept:,} printed)" in note
    assert "printf_buffer=2_097_152" in note and "PRINTF_BUFFER_BYTES" in note


def test_printf_buffer_keyword_gets_it_all(chatty, capsys):
    res = chatty[4, 256](PER, printf_buffer=2 << 20)
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == THREADS * PER and not any(s.startswith("[hipwb]") for s in lines)
    assert "printf_dropped" not in res.stats
    assert sorted(lines)[:2] == ["t=0 k=0", "t=0 k=1"]


def test_module_setting_gets_it_all(chatty, capsys, monkeypatch):
    monkeypatch.setattr(printf, "PRINTF_BUFFER_BYTES", 2 << 20)
    chatty[4, 256](PER)
    assert len(capsys.readouterr().out.splitlines()) == THREADS * PER


def test_a_buffer_that_fits_says_nothing(chatty, capsys):
    chatty[1, 64](2)
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 128 and "[hipwb]" not in "".join(out)


@pytest.mark.parametrize("bad", [0, 63, 2**32, -5, 1.5, "1M", True])
def test_bad_buffer_sizes_are_refused(chatty, bad):
    with pytest.raises(LaunchError, match=r"printf_buffer= takes a number of bytes from 64"):
        chatty[1, 64](1, printf_buffer=bad)


def test_overflow_reads_the_header_exactly():
    """__printf_alloc advances the offset even for frames that do not fit."""
    buf = bytearray(64)
    buf[:8] = np.array([100, 64], np.uint32).tobytes()
    for at in (8, 28):  # two 20-byte frames fit in 56 bytes; the rest was dropped
        buf[at:at + 4] = np.uint32(20 << 2 | 2).tobytes()
    ov = printf.overflow(bytes(buf))
    assert (ov.size, ov.requested, ov.kept, ov.kept_frames) == (64, 100, 40, 2)
    assert ov.dropped == 60 and ov.dropped_frames == 3
    buf[:4] = np.uint32(56).tobytes()
    assert printf.overflow(bytes(buf)) is None
