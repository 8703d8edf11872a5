"""ds_swizzle_b32's FFT and rotate modes (offset >= 0xC000) on the emulator. Before, these
offsets were taken for quad-permute patterns (offset[15] = 1) and gave silently wrong lanes.

Expected lanes come from two places independent of the emulator's ``swizzle_lanes``: the RDNA3
ISA guide's example tables for DS_SWIZZLE_B32 (§16.15; input {1, 2, ... 0x20}), and a scalar
per-lane model of the guide's pseudocode (string bit reversal, thread_valid -> 0 for a source
lane whose EXEC bit is off) run on real kernels: gfx942 wave64 and gfx1201 wave32, with some
lanes' EXEC bit off. LLVM assembles and prints both modes for every GFX9+ target
(AMDGPUInstPrinter::printSwizzle), so both archs carry them.
"""
from __future__ import annotations

import numpy as np
import pytest

import workbench as wb
from workbench.emu.errors import EmulatorError
from workbench.emu.semantics.memory.ds import swizzle_lanes

# RDNA3 ISA §16.15 DS_SWIZZLE_B32 example swizzles of the input {1, 2, ... 0x20} (hex values)
GUIDE = {
    0xE000: "1,11,9,19,5,15,d,1d,3,13,b,1b,7,17,f,1f,2,12,a,1a,6,16,e,1e,4,14,c,1c,8,18,10,20",
    0xE010: "1,9,5,d,3,b,7,f,2,a,6,e,4,c,8,10,11,19,15,1d,13,1b,17,1f,12,1a,16,1e,14,1c,18,20",
    0xC000 | 1 << 5: "2,3,4,5,6,7,8,9,a,b,c,d,e,f,10,11,12,13,14,15,16,17,18,19,1a,1b,1c,1d,"
                     "1e,1f,20,1",  # rotate left by 1, mask 0
    0xC400 | 1 << 5: "20,1,2,3,4,5,6,7,8,9,a,b,c,d,e,f,10,11,12,13,14,15,16,17,18,19,1a,1b,1c,"
                     "1d,1e,1f",  # rotate right by 1, mask 0
}
OFFSETS = [0xE000, 0xE005, 0xE010, 0xE01F, 0xC000 | 3 << 5, 0xC400 | 7 << 5, 0xC000 | 31 << 5,
           0x041F]
SRC = "\n".join([
    'extern "C" __global__ void swz(const int* x, const int* on, int* o) {',
    "  int t = blockIdx.x * blockDim.x + threadIdx.x;",
    "  int v = x[t];",
    f"  int* p = o + {len(OFFSETS)} * t;",
    "  if (on[t]) {",
    *[f"    p[{k}] = __builtin_amdgcn_ds_swizzle(v, {off:#x});" for k, off in enumerate(OFFSETS)],
    "  }",
    "}"])


def ref_source_lane(i: int, offset: int) -> int:
    """The guide's pseudocode for one lane (FFT, rotate with mask 0, bit-mask mode)."""
    if offset >= 0xE000:
        mask = offset & 0x1F
        j = int(format(i & 0x1F, "05b")[::-1], 2) >> bin(mask).count("1")
        return (j | (i & mask)) | (i & 0x20)
    if offset >= 0xC000:
        rot = (offset >> 5) & 0x1F
        if offset & 0x400:
            rot = -rot
        return ((i + rot) % 32) | (i & 0x20)
    and_m, or_m, xor_m = offset & 0x1F, (offset >> 5) & 0x1F, (offset >> 10) & 0x1F
    return (((i & and_m) | or_m) ^ xor_m) | (i & 0x20)


@pytest.mark.parametrize("offset", sorted(GUIDE))
def test_lanes_match_the_guides_examples(offset):
    want = [int(v, 16) - 1 for v in GUIDE[offset].split(",")]
    lanes = swizzle_lanes(offset)
    assert lanes[:32].tolist() == want
    assert (lanes[32:] - 32).tolist() == want  # the upper half of a wave64 does the same


def test_fft_no_swizzle_and_refused_rotate_mask():
    assert swizzle_lanes(0xE01F).tolist() == list(range(64))  # guide: "0x1f: No swizzle"
    with pytest.raises(ValueError, match="rotate mode with mask 0x1"):
        swizzle_lanes(0xC021)


@pytest.mark.parametrize("arch,wave", [("gfx942", 64), ("gfx1201", 32)])
def test_swizzle_modes_per_lane_with_exec(arch, wave):
    mod = wb.compile(SRC, arch)
    text = " ".join(i.text for i in mod.swz.isa_for(arch))
    # LLVM 22 prints the modes symbolically, LLVM 19 as the raw offset
    assert "swizzle(FFT,5)" in text or f"offset:{0xE005}" in text
    assert "swizzle(ROTATE,1,7)" in text or f"offset:{0xC400 | 7 << 5}" in text
    n = 2 * wave
    rng = np.random.default_rng(7)
    x = rng.integers(1, 2**31, n).astype(np.int32)
    on = (rng.random(n) > 0.3).astype(np.int32)
    on[:4] = 1
    sentinel = -123
    out = np.full(len(OFFSETS) * n, sentinel, np.int32)
    mod.swz.on(f"emulator:{arch}")[2, wave](x, on, out)
    got = out.reshape(n, len(OFFSETS))
    for t in range(n):
        base = t - t % wave
        for k, off in enumerate(OFFSETS):
            if not on[t]:
                want = sentinel  # EXEC off: no store
            else:
                j = base + ref_source_lane(t % wave, off)
                want = x[j] if on[j] else 0  # an inactive source lane reads as 0
            assert got[t, k] == want, (f"{arch} lane {t} offset {off:#06x}: got {got[t, k]}, "
                                       f"want {want}")


def test_rotate_with_mask_is_refused_by_name():
    src = """extern "C" __global__ void k(const int* x, int* o) {
      o[threadIdx.x] = __builtin_amdgcn_ds_swizzle(x[threadIdx.x], 0xC021); }"""
    k = wb.compile(src, "gfx942").k.on("emulator:gfx942")
    with pytest.raises(EmulatorError, match="rotate mode with mask 0x1"):
        k[1, 64](np.zeros(64, np.int32), np.zeros(64, np.int32))
