"""The launch guard (workbench/runtime/guard.py): a GPU launch whose boundary workgroups, run on
the emulator (real clang build, real emulator), access memory outside a buffer is refused before
it runs.

No GPU exists here: the GPU side is the real RocmDevice / CudaDevice over a stand-in cupy module
(tests/gpu/fake_cupy.py) that records each launch it receives — every such test says
``mock_gpu`` in its name. What a real NVIDIA GPU does is checked by .gpu_carry/guard_check.py.
"""
from __future__ import annotations

import struct
import warnings

import numpy as np
import pytest
from gpu.fake_cupy import FakeCupy

import workbench as wb
from workbench.lane_gates import Gate
from workbench.runtime import Kernel, LaunchError, guard
from workbench.runtime.cuda import CudaDevice
from workbench.runtime.guard import GuardWarning, LaunchRefused
from workbench.runtime.rocm import RocmDevice

SRC = r'''
struct Pair { int a; float b; };
extern "C" __global__ void copy_off_by_one(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) y[i] = x[i];
}
extern "C" __global__ void copy(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i];
}
extern "C" __global__ void store_off_by_one(float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) y[i] = 1.0f;
}
extern "C" __global__ void gather(const float* x, const int* idx, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[idx[i] - 1];
}
extern "C" __global__ void wait_flag(const volatile int* flag, float* y) {
    while (flag[0] == 0) { }
    y[threadIdx.x] = 1.0f;
}
extern "C" __global__ void by_value(Pair p, float* y) { y[threadIdx.x] = p.a + p.b; }
extern "C" __global__ void axpy(const float* x, float* y, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
struct Views { const float* x; float* y; int n; };
extern "C" __global__ void copy_struct(Views v, int slack) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < v.n + slack) v.y[i] = v.x[i];
}
extern "C" __global__ void checked(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (x[0] < 0.0f && i == n) __builtin_trap();
    if (i < n) y[i] = x[i];
}
'''


def _copy_ref(mem, grid, block, x, y, n):
    """What the GPU would compute for copy (the in-bounds part only)."""
    m = int(n)
    mem.view(int(y), np.float32, m)[:] = mem.view(int(x), np.float32, m)


@pytest.fixture(scope="module")
def mod():
    return wb.compile(SRC, "gfx942")


@pytest.fixture
def rocm(monkeypatch):
    fake = FakeCupy(hip=True, kernels={"copy": _copy_ref}).install(monkeypatch)
    return fake, RocmDevice(0)


@pytest.fixture
def counted(monkeypatch):
    """Counts the pre-flights that can decide a verdict: with the launch's own arguments, or at
    the size gated_preflight guessed (``counted.guess`` those too); the real one runs each
    time. ``counted.widest``: the tries with every lane-gate size at its widest."""
    calls = CountedCalls()
    real = guard.preflight

    def preflight(*a, **kw):
        purpose = getattr(a[5], "purpose", None)
        (calls.widest if purpose == "widest" else calls).append(a[4:6])
        if purpose == "guess":
            calls.guess.append(a[4:6])
        return real(*a, **kw)

    monkeypatch.setattr(guard, "preflight", preflight)
    return calls


class CountedCalls(list):
    def __init__(self):
        super().__init__()
        self.widest: list = []
        self.guess: list = []


def test_off_by_one_refused_naming_argument_workgroup_lane_offset_mock_gpu(mod, rocm):
    fake, dev = rocm
    n = 1000
    x, y = np.arange(n, dtype=np.float32), np.zeros(n, np.float32)
    k = Kernel(mod, "copy_off_by_one", device=dev)
    with pytest.raises(LaunchRefused) as ei:
        k[(n + 1 + 255) // 256, 256](x, y, n)  # the grid covers n + 1 threads
    e = ei.value
    # thread 1000 = workgroup 3, thread 232 = wave 3, lane 40 reads x[1000]: 4000 bytes in
    assert (e.argument, e.workgroup, e.thread, e.lane) == ("x", (3, 0, 0), (232, 0, 0), 40)
    assert (e.offset, e.buffer_size) == (4000, 4000)
    msg = str(e)
    for part in ("copy_off_by_one[(4, 1, 1), (256, 1, 1)] on rocm:0", "refused before it ran",
                 "thread (232, 0, 0) of workgroup (3, 0, 0) (wave 3, lane 40) reads argument 0 "
                 "'x' (const float *) at byte offset 4000 (element 1000) — just past its end; "
                 "the buffer is 4000 bytes", "source line 5",
                 "workgroups (0, 0, 0), (3, 0, 0) of the gfx942 build",
                 "Memory access fault by GPU node", "cudaErrorIllegalAddress",
                 "silently reads or overwrites", "guard=False", "wb.set_guard(False)"):
        assert part in msg, part
    assert fake.launches == []  # nothing reached the GPU
    assert k.last_guard.status == "refused" and k.last_guard.contents == "copied"
    np.testing.assert_array_equal(y, 0)  # the pre-flight never writes the user's arrays


def test_store_past_the_end_names_the_written_argument_mock_gpu(mod, rocm):
    fake, dev = rocm
    y = dev.cupy.asarray(np.zeros(300, np.float32))  # a device array: copied for the check
    with pytest.raises(LaunchRefused, match=r"thread \(44, 0, 0\) of workgroup \(1, 0, 0\) "
                                            r"\(wave 0, lane 44\) writes argument 0 'y' "
                                            r"\(float \*\) at byte offset 1200 \(element 300\)"):
        Kernel(mod, "store_off_by_one", device=dev)[2, 256](y, 300)
    assert fake.launches == []


def test_correct_kernel_launches_and_preflight_runs_once_per_signature_mock_gpu(
        mod, rocm, counted):
    fake, dev = rocm
    k = Kernel(mod, "copy", device=dev)
    x = dev.cupy.asarray(np.arange(1000, dtype=np.float32))
    y = dev.cupy.asarray(np.zeros(1000, np.float32))
    for _ in range(3):
        k[4, 256](x, y, 1000)
    assert len(fake.launches) == 3 and len(counted) == 1  # the later two: a dict lookup
    assert k[4, 256]._last is not None  # ... on the prebound fast path
    assert k.last_guard.status == "checked"
    assert "boundary workgroups (0, 0, 0), (3, 0, 0)" in k.last_guard.reason
    np.testing.assert_array_equal(y.get(), np.arange(1000, dtype=np.float32))
    k[4, 256](x, y, 999)  # n only gates lanes (workbench.lane_gates): 999 <= 1000 is covered
    k[4, 256](x, y, 999)
    assert len(counted) == 1 and len(fake.launches) == 5
    # a smaller buffer under the same launch: checked again, and refused (y has 500 floats)
    short = dev.cupy.asarray(np.zeros(500, np.float32))
    with pytest.raises(LaunchRefused, match="writes argument 1 'y'"):
        k[4, 256](x, short, 1000)
    # the guess (the widest try's first fault, at 1000) and the launch's own check: both refused;
    # the first launch's one pre-flight was a guess as well (checked at 1000)
    assert len(counted) == 3 and len(counted.guess) == 2 and len(fake.launches) == 5


def test_struct_of_pointers_is_checked_and_a_field_overrun_refused_mock_gpu(mod, rocm):
    """A by-value struct's pointer fields are buffers like pointer arguments: the pre-flight
    emulates them (no 'arguments differ' warning) and names the field it overruns."""
    fake, dev = rocm
    k = Kernel(mod, "copy_struct", device=dev)
    V = wb.struct_type(k)
    x, y = np.arange(300, dtype=np.float32), np.zeros(300, np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error", GuardWarning)
        k[2, 256](V(x=x, y=y, n=300), 0)
    assert k.last_guard.status == "checked", k.last_guard.reason
    assert len(fake.launches) == 1
    with pytest.raises(LaunchRefused) as ei:
        k[2, 256](V(x=x, y=y, n=300), 1)
    assert ei.value.argument == "v.x" and ei.value.offset == 1200, str(ei.value)
    assert "reads field 'v.x' of argument 0 'v' (const float *) at byte offset 1200 " \
           "(element 300) — just past its end; the buffer is 1200 bytes" in str(ei.value)
    assert len(fake.launches) == 1
    # a smaller buffer in a field, all else equal, is a new signature: checked, and refused
    with pytest.raises(LaunchRefused, match=r"writes field 'v.y'"):
        k[2, 256](V(x=x, y=y[:100], n=300), 0)
    assert len(fake.launches) == 1


def test_a_scalar_that_cannot_move_an_access_reuses_the_verdict_mock_gpu(mod, rocm, counted):
    """axpy's a only scales data (workbench.argument_flow proves it from the ISA): a new a
    every call keeps the verdict, on the full path and the prebound fast path; n only gates
    which lanes run (workbench.lane_gates): a smaller n is covered, a larger one checked."""
    fake, dev = rocm
    k = Kernel(mod, "axpy", device=dev)
    x = dev.cupy.asarray(np.ones(1000, np.float32))
    y = dev.cupy.asarray(np.zeros(1000, np.float32))
    for j in range(20):
        k[4, 256](x, y, 0.5 + j, 1000)
    assert len(counted) == 1 and len(fake.launches) == 20
    assert guard.relevance(k, dev, k.info("gfx942")) == (
        True, True, False, Gate(increasing=True, signed=True, bits=32))
    k[4, 256](x, y, 2.0, 999)
    k[4, 256](x, y, 3.0, 999)
    assert len(counted) == 1
    with pytest.raises(LaunchRefused):  # past the checked n, and past the buffers
        k[4, 256](x, y, 3.0, 1001)
    assert len(counted) == 2


def test_guard_false_and_set_guard_override_mock_gpu(mod, rocm, counted):
    fake, dev = rocm
    x = np.arange(1000, dtype=np.float32)
    y = np.zeros(1000, np.float32)
    k = Kernel(mod, "copy", device=dev)
    k[4, 256](x, y, 2000, guard=False)  # would be refused; launched as asked
    assert len(fake.launches) == 1 and counted == []
    with pytest.raises(LaunchError, match="guard= takes True or False, got 0"):
        k[4, 256](x, y, 1000, guard=0)
    assert wb.set_guard(False) is True
    try:
        k[4, 256](x, y, 2000)
        assert len(fake.launches) == 2 and counted == []
    finally:
        wb.set_guard(True)
    with pytest.raises(LaunchRefused):
        k[4, 256](x, y, 2000)
    assert len(fake.launches) == 2


def test_session_keeps_working_after_a_refusal_mock_gpu(mod, rocm, counted):
    fake, dev = rocm
    x = np.arange(1000, dtype=np.float32)
    y = np.zeros(1000, np.float32)
    bad = Kernel(mod, "copy_off_by_one", device=dev)
    for _ in range(2):  # refused again from the kept verdict, without a second pre-flight
        with pytest.raises(LaunchRefused, match="argument 0 'x'"):
            bad[4, 256](x, y, 1000)
    assert len(counted) == 1 + len(counted.guess)  # the launch's own, after a failed guess
    Kernel(mod, "copy", device=dev)[4, 256](x, y, 1000)
    np.testing.assert_array_equal(y, x)
    assert len(fake.launches) == 1


def test_inconclusive_preflight_launches_and_says_why_mock_gpu(mod, rocm, monkeypatch):
    fake, dev = rocm
    monkeypatch.setattr(guard, "BUDGET", 5_000)  # the spin below never ends on the emulator
    flag = np.zeros(1, np.int32)
    y = np.zeros(64, np.float32)
    k = Kernel(mod, "wait_flag", device=dev)
    with pytest.warns(GuardWarning, match="wait_flag: launched without a bounds check — the "
                                          "emulator stopped: .*budget"):
        k[1, 64](flag, y)
    assert k.last_guard.status == "inconclusive" and len(fake.launches) == 1


def test_arch_the_emulator_cannot_run_is_inconclusive_mock_gpu(monkeypatch):
    fake = FakeCupy(hip=True, arch="gfx90a:sramecc+:xnack-").install(monkeypatch)
    dev = RocmDevice(0)
    m = wb.compile(SRC, "gfx90a")
    k = Kernel(m, "copy_off_by_one", device=dev)
    with pytest.warns(GuardWarning, match="the emulator does not run gfx90a"):
        k[4, 256](np.zeros(1000, np.float32), np.zeros(1000, np.float32), 1000)
    assert k.last_guard.status == "inconclusive" and len(fake.launches) == 1


def test_big_buffers_use_stand_ins_and_data_dependent_faults_are_not_refused_mock_gpu(
        mod, rocm, monkeypatch):
    fake, dev = rocm
    monkeypatch.setattr(guard, "COPY_LIMIT", 0)  # as if the GPU buffers were over 64 MiB
    cp = dev.cupy
    x, y = cp.asarray(np.arange(1000, dtype=np.float32)), cp.asarray(np.zeros(1000, np.float32))
    # an index fault: the same with zero-filled and 0x5A-filled stand-ins -> refused
    with pytest.raises(LaunchRefused, match=r"stand-in buffers, zero-filled and 0x5A-filled, "
                                            r"faulting the same way"):
        Kernel(mod, "copy_off_by_one", device=dev)[4, 256](x, y, 1000)
    # x[idx[i] - 1]: zero stand-ins read x[-1], the 0x5A ones far elsewhere -> not judged
    idx = cp.asarray(np.arange(1, 1001, dtype=np.int32))
    k = Kernel(mod, "gather", device=dev)
    with pytest.warns(GuardWarning, match="address depends on buffer contents"):
        k[4, 256](x, idx, y, 1000)
    assert k.last_guard.status == "inconclusive" and len(fake.launches) == 1


def test_data_dependent_fault_with_copied_contents_is_refused_mock_gpu(mod, rocm):
    fake, dev = rocm
    x = np.arange(1000, dtype=np.float32)
    idx = np.arange(1, 1001, dtype=np.int32)
    idx[999] = 1001  # reads x[1000] in the last workgroup
    with pytest.raises(LaunchRefused, match=r"thread \(231, 0, 0\) of workgroup \(3, 0, 0\).*"
                                            r"reads argument 0 'x'"):
        Kernel(mod, "gather", device=dev)[4, 256](x, idx, np.zeros(1000, np.float32), 1000)
    assert fake.launches == []


def test_by_value_size_mismatch_refused_before_the_gpu_mock_gpu(mod, rocm):
    fake, dev = rocm
    k = Kernel(mod, "by_value", device=dev)
    y = np.zeros(64, np.float32)
    with pytest.raises(LaunchError, match=r"argument 0 'p' of by_value has type 'Pair' "
                                          r"\(8 bytes\): pass its raw bytes \(bytes of length 8\)"):
        k[1, 64](struct.pack("<if", 2, 0.5) + b"\0", y)  # 9 bytes for an 8-byte struct
    assert fake.launches == []
    k[1, 64](struct.pack("<if", 2, 0.5), y)
    assert len(fake.launches) == 1 and k.last_guard.status == "checked"


def test_trap_with_the_users_data_refused_mock_gpu(mod, rocm):
    fake, dev = rocm
    k = Kernel(mod, "checked", device=dev)
    x, y = np.ones(1000, np.float32), np.zeros(1000, np.float32)
    k[4, 256](x, y, 1000)  # x[0] >= 0: no trap
    assert k.last_guard.status == "checked" and len(fake.launches) == 1
    x[0] = -1.0  # the same signature with other data: still the kept verdict (documented)
    k[4, 256](x, y, 1000)
    with pytest.raises(LaunchRefused, match=r"the emulated gfx942 build traps in workgroup "
                                            r"\(3, 0, 0\).*queue error"):
        k[4, 256](x, y, 999)  # a new signature: checked with x's data, thread 999 traps
    assert len(fake.launches) == 2


def test_cuda_launch_guarded_with_the_amd_build_mock_gpu(monkeypatch):
    fake = FakeCupy(hip=False, name="Fake NVIDIA", kernels={"copy": _copy_ref}).install(
        monkeypatch)
    dev = CudaDevice(0)
    x, y = np.arange(1000, dtype=np.float32), np.zeros(1000, np.float32)
    # NVIDIA warps have 32 lanes: the wave32 (gfx1100) build is the one emulated
    m = wb.compile(SRC, ["gfx942", "gfx1100"])
    with pytest.raises(LaunchRefused, match=r"on cuda:0 \(Fake NVIDIA\) refused before it ran: "
                                            r"thread \(232, 0, 0\).* of the gfx1100 build") as ei:
        Kernel(m, "copy_off_by_one").on(dev)[4, 256](x, y, 1000)
    assert "lane waves" not in str(ei.value)
    # only a wave64 build: checked on it, and the message says the wave sizes differ
    m64 = wb.compile(SRC, "gfx942")
    with pytest.raises(LaunchRefused, match=r"of the gfx942 build .*64-lane waves, the NVIDIA "
                                            r"GPU 32-lane warps"):
        Kernel(m64, "copy_off_by_one").on(dev)[4, 256](x, y, 1000)
    assert fake.launches == []
    Kernel(m, "copy").on(dev)[4, 256](x, y, 1000)
    np.testing.assert_array_equal(y, x)


def test_emulator_fault_says_what_the_gpu_would_do(mod):
    x, y = np.arange(1000, dtype=np.float32), np.zeros(1000, np.float32)
    with pytest.raises(wb.KernelFault) as ei:
        Kernel(mod, "copy_off_by_one", device="emulator")[4, 256](x, y, 1000)
    f = ei.value
    assert (f.buffer, f.offset, f.buffer_size, f.workgroup, f.wave) == ("x", 4000, 4000,
                                                                        (3, 0, 0), 3)
    assert "0 bytes past the end of buffer 'x' (size 4000). On a GPU this access is not " \
           "checked: it faults" in str(f)


def test_boundary_workgroups():
    assert guard.boundary_workgroups((1, 1, 1)) == ((0, 0, 0),)
    assert guard.boundary_workgroups((4, 1, 1)) == ((0, 0, 0), (3, 0, 0))
    assert guard.boundary_workgroups((4, 3, 2)) == ((0, 0, 0), (3, 2, 1), (3, 0, 0), (0, 2, 0),
                                                    (0, 0, 1))


def test_execute_runs_only_the_chosen_workgroups(mod):
    """emu.launch.execute(only=..., write_back=...), which the pre-flight uses."""
    from workbench.emu.engine.launch import Buffer, execute
    from workbench.emu.errors import EmulatorError
    from workbench.runtime.args import bind_args
    from workbench.runtime.marshal import pack_kernargs

    k = Kernel(mod, "copy", device="emulator")
    info, listing = k.info("gfx942"), k.isa_for("gfx942")
    x, y = np.arange(1000, dtype=np.float32), np.zeros(1000, np.float32)
    bound = bind_args(info, (x, y, 1000))

    def run(only, write_back):
        bufs = [Buffer("x", x.view(np.uint8), False), Buffer("y", y.view(np.uint8), True)]

        def kernarg(addrs, hidden):
            return bytes(pack_kernargs(info, bound, [*addrs, None], (4, 1, 1), (256, 1, 1),
                                       hidden_pointers=hidden))

        return execute(info, listing, (4, 1, 1), (256, 1, 1), bufs, kernarg, only=only,
                       write_back=write_back)

    run([(1, 0, 0)], write_back=False)
    assert not y.any()  # nothing written back
    res = run([(1, 0, 0)], write_back=True)
    np.testing.assert_array_equal(y[256:512], x[256:512])
    assert not y[:256].any() and not y[512:].any() and res.wave_instructions > 0
    with pytest.raises(EmulatorError, match=r"not all inside the grid \(4, 1, 1\)"):
        run([(4, 0, 0)], write_back=False)


def test_a_size_past_the_checked_one_is_checked_and_refused_mock_gpu(mod, rocm, counted):
    """copy's n gates its lanes: checked at 1000, every n up to 1000 reuses the verdict (on
    the prebound fast path too); n = 1100 with 1000-float buffers runs lanes the first check
    never ran, so it is checked, and refused, while smaller sizes keep launching."""
    fake, dev = rocm
    k = Kernel(mod, "copy", device=dev)
    x = dev.cupy.asarray(np.ones(1000, np.float32))
    y = dev.cupy.asarray(np.zeros(1000, np.float32))
    for n in range(1000, 900, -1):
        k[5, 256](x, y, n)
    assert len(counted) == 1 and len(fake.launches) == 100
    assert len(counted.widest) == 1  # every lane of 5 x 256 let through: past the buffers
    # the first fault of that try was thread 0 of workgroup 4 (1024): checked at 1024, which
    # the boundary workgroups (0 and 4) pass, so it covers every n up to 1024
    assert len(counted.guess) == 1
    assert k.last_guard.status == "checked" and k.last_guard.bounds[0][2] == 1024
    with pytest.raises(LaunchRefused, match="argument 0 'x'"):
        k[5, 256](x, y, 1100)
    assert len(counted) == 2 and len(fake.launches) == 100
    k[5, 256](x, y, 950)  # still covered by the check at 1000
    assert len(counted) == 2 and len(fake.launches) == 101
    assert len(counted.widest) == 1  # the widest sizes, refused once, are not tried again
    with pytest.raises(LaunchRefused) as ei:  # the refusal holds for 1100 itself
        k[5, 256](x, y, 1100)
    assert ei.value.argument == "x" and ei.value.offset >= 4000  # named as the first time


def test_a_refused_size_repeated_names_the_argument_again_mock_gpu(mod, rocm, counted):
    """The off-by-one kernel with sizes that gate its lanes: refused, and refused again from
    the kept verdict (no second pre-flight) with the same argument, lane and offset."""
    fake, dev = rocm
    k = Kernel(mod, "copy_off_by_one", device=dev)
    x = dev.cupy.asarray(np.ones(1000, np.float32))
    y = dev.cupy.asarray(np.zeros(1000, np.float32))
    for _ in range(2):
        with pytest.raises(LaunchRefused) as ei:
            k[4, 256](x, y, 1000)
        assert ei.value.argument == "x" and ei.value.offset == 4000, str(ei.value)
    assert len(counted) == 1 + len(counted.guess) and fake.launches == []


def test_a_size_checked_at_its_widest_covers_every_size_mock_gpu(mod, rocm, counted):
    """A grid that matches its buffers: with every lane the size lets through (n = INT_MAX)
    the boundary workgroups stay inside, so one pre-flight covers any n, larger ones too."""
    fake, dev = rocm
    k = Kernel(mod, "copy", device=dev)
    x = dev.cupy.asarray(np.ones(1024, np.float32))
    y = dev.cupy.asarray(np.zeros(1024, np.float32))
    for n in (10, 1024, 5000, 7, 2**31 - 1):
        k[4, 256](x, y, n)
    assert len(counted.widest) == 1 and len(counted) == 0 and len(fake.launches) == 5
    assert "any size is covered" in k.last_guard.reason


def test_sizes_in_any_order_on_a_rounded_up_grid_cost_two_preflights_mock_gpu(mod, rocm,
                                                                               counted):
    """1000-float buffers, a grid of 4 x 256: with every lane let through the last workgroup
    faults (thread 232, global index 1000), so 1000 is checked next and passes: every size up
    to it, in any order, then launches on that verdict; 1001 is checked and refused."""
    import random

    fake, dev = rocm
    k = Kernel(mod, "copy", device=dev)
    x = dev.cupy.asarray(np.ones(1000, np.float32))
    y = dev.cupy.asarray(np.zeros(1000, np.float32))
    sizes = random.Random(3).sample(range(1, 1001), 200)
    for n in sizes:
        k[4, 256](x, y, n)
    assert (len(counted.widest), len(counted), len(counted.guess)) == (1, 1, 1)
    assert len(fake.launches) == 200 and k.last_guard.bounds[0][2] == 1000
    with pytest.raises(LaunchRefused, match="argument 0 'x'"):
        k[4, 256](x, y, 1001)
