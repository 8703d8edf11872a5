"""The timing report says what the compiler decided (workbench/timing/compiler_notes.py): scratch
memory (spills, a local array indexed at run time) with its per-wave instruction count, and
which LLVM's register allocation the numbers rest on. Real clang builds, real emulator."""
from __future__ import annotations

import numpy as np
import pytest

import workbench as wb
from workbench.timing.compiler_notes import _llvm, compiler_notes

SRC = r"""
extern "C" __global__ void local_array(const float* x, float* o, int k) {
  float a[64];
  for (int j = 0; j < 64; ++j) a[j] = x[threadIdx.x + j];
  o[threadIdx.x] = a[k & 63] + a[(k * 7) & 63];
}
extern "C" __global__ void plain(const float* x, float* o) {
  o[threadIdx.x] = 2.0f * x[threadIdx.x];
}
"""


@pytest.fixture(scope="module")
def mod():
    return wb.compile(SRC, "gfx942")


def test_scratch_use_is_named_with_its_bytes_and_instructions(mod):
    x, o = np.ones(512, np.float32), np.zeros(256, np.float32)
    rep = mod.local_array.timing[2, 256](x, o, 5, chip="mi300x")
    scratch = mod["gfx942"].kernels["local_array"].resources.scratch_bytes
    (note,) = [n for n in rep.notes if n.startswith("SCRATCH")]
    assert scratch > 0 and f"{scratch} bytes of private (scratch) memory" in note
    executed = int(note.split("each wave executed ")[1].split()[0])
    assert executed >= 16  # per wave (LLVM 22: 16 scratch_store_dwordx4 for the array, 2 loads)
    assert any("upstream LLVM" in n and "VGPRs" in n for n in rep.notes)
    assert "note: SCRATCH" in rep.text()


def test_a_build_in_registers_has_no_scratch_note(mod):
    x, o = np.ones(256, np.float32), np.zeros(256, np.float32)
    rep = mod.plain.timing[1, 256](x, o, chip="mi300x")
    r = mod["gfx942"].kernels["plain"].resources
    assert not any(n.startswith("SCRATCH") for n in rep.notes)
    assert any(f"Registers ({r.vgprs} VGPRs, {r.agprs} AGPRs, {r.sgprs} SGPRs)" in n
               for n in rep.notes)


def test_which_llvm():
    assert _llvm(["/usr/lib/llvm-22/bin/clang", "-x", "hip"]) == "upstream LLVM 22"
    assert _llvm(["/opt/rocm-6.4.0/llvm/bin/clang"]) == "ROCm's LLVM"
    assert compiler_notes(0, 0, ["/usr/lib/llvm-19/bin/clang"], 8, 0, 12)[0].startswith(
        "Registers (8 VGPRs, 0 AGPRs, 12 SGPRs)")
