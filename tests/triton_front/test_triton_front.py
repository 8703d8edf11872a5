"""wb.triton: Triton's tutorial kernels compiled by Triton's AMD backend, launched as a Triton
user writes it on emulator:gfx942 and emulator:gfx950, checked against torch; the IR stages,
the ISA with the kernel's Python lines, Triton's kernel ABI (hidden scratch pointers, dynamic
LDS), the signature forms and their errors."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

triton = pytest.importorskip("triton", reason="the optional triton package is not installed "
                             "(pip install 'hip-workbench[triton]'; make setup installs it)")
torch = pytest.importorskip("torch")

# the tutorial kernels notebook 07 runs (kernels/ is no package: loaded by path)
from triton_kernel_files import TUTORIAL as T  # noqa: E402
from triton_kernel_files import write_and_load  # noqa: E402

import workbench as wb  # noqa: E402
from workbench.errors import LaunchError  # noqa: E402
from workbench.triton_front import TritonCompileError, TritonKernel, TritonModule  # noqa: E402
from workbench.triton_front.kernel import _scratch  # noqa: E402

add_kernel, matmul_kernel, softmax_kernel = T.add_kernel, T.matmul_kernel, T.softmax_kernel

ARCHS = ("gfx942", "gfx950")


@pytest.fixture(scope="module")
def add():
    return wb.triton(add_kernel, arch=list(ARCHS))


@pytest.mark.parametrize("arch", ARCHS)
def test_vector_add_is_exact_on_the_emulator(add, arch):
    n = 3000  # not a multiple of BLOCK: the mask matters
    torch.manual_seed(0)
    x, y = torch.randn(n), torch.randn(n)
    out = torch.full((n,), float("nan"))
    res = add.on(f"emulator:{arch}")[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](
        x, y, out, n, BLOCK=1024)
    assert torch.equal(out, x + y)
    assert res.block == (256, 1, 1) and res.grid == (3, 1, 1)  # num_warps=4 waves of 64
    # numpy arrays and an int grid launch the same specialization
    o2 = np.zeros(n, np.float32)
    add.on(f"emulator:{arch}")[3](x.numpy(), y.numpy(), o2, n, BLOCK=1024)
    assert np.array_equal(o2, (x + y).numpy())


def test_specializations_follow_tritons_jit(add):
    n = 4096
    x, y, out = torch.randn(n), torch.randn(n), torch.empty(n)
    k = add.specialize(x, y, out, n, BLOCK=512)
    spec = add.module.spec
    # tensors: element type, 16-byte aligned (D), within 2 GiB (S: buffer instructions)
    assert spec.types[:4] == ("*fp32", "*fp32", "*fp32", "i32")
    assert spec.attrs[:4] == ("DS", "DS", "DS", "D")
    assert dict(spec.constexprs) == {"BLOCK": 512}
    assert k.info("gfx942").signature == ("add_kernel(float *x_ptr, float *y_ptr, float *out_ptr, "
                                          "int n, void *global_scratch, void *profile_scratch)")
    # 512 elements over 256 lanes, 16-byte aligned: 2 per lane in one vector load
    assert any(i.mnemonic == "buffer_load_dwordx2" for i in k.isa)
    # a new constexpr value or an unaligned n is another specialization, cached by signature
    before = len(add._modules)
    add.specialize(x, y, out, n, BLOCK=512)
    assert len(add._modules) == before
    add.specialize(x, y, out, n - 1, BLOCK=512)
    assert add.module.spec.attrs[3] == "" and len(add._modules) == before + 1


@pytest.mark.parametrize("arch", ARCHS)
def test_fused_softmax_within_tritons_tutorial_tolerance(arch):
    # Triton's python/tutorials/02-fused-softmax.py checks
    # `assert torch.allclose(y_triton, y_torch)`: allclose's defaults, rtol=1e-5, atol=1e-8.
    sm = wb.triton(softmax_kernel, arch=arch)
    torch.manual_seed(1)
    x = torch.randn(37, 181)  # irregular rows and columns, as the tutorial's test
    y = torch.empty_like(x)
    sm[(x.shape[0],)](y, x, x.stride(0), y.stride(0), x.shape[1], BLOCK=256)
    assert torch.allclose(y, torch.softmax(x, dim=1))
    assert sm.metadata["shared"] > 0  # the row reductions go through LDS (dynamic)


@pytest.mark.parametrize("arch", ARCHS)
def test_small_matmul_uses_mfma_and_matches_torch(arch):
    # Triton's python/tutorials/03-matrix-multiplication.py: fp16 inputs pass when
    # torch.allclose(triton_output, torch_output, atol=1e-2, rtol=0) (rtol 1e-2 on MI200 only).
    mm = wb.triton(matmul_kernel, arch=arch)
    M = N = K = 64
    torch.manual_seed(2)
    a = torch.randn(M, K, dtype=torch.float16)
    b = torch.randn(K, N, dtype=torch.float16)
    c = torch.empty(M, N, dtype=torch.float16)
    mm[((M // 32) * (N // 32),)](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0),
                                 b.stride(1), c.stride(0), c.stride(1), BLOCK_M=32,
                                 BLOCK_N=32, BLOCK_K=32, GROUP_M=1)
    assert torch.allclose(c, torch.matmul(a, b), atol=1e-2, rtol=0)
    mfma = {i.mnemonic for i in mm.isa if i.mnemonic.startswith("v_mfma")}
    assert mfma == {"v_mfma_f32_32x32x8_f16" if arch == "gfx942" else "v_mfma_f32_32x32x16_f16"}
    assert mm.occupancy().waves_per_simd >= 1


def test_ir_stages_and_the_isa_shows_python_lines(add):
    x = torch.randn(1024)
    add.specialize(x, x, x, 1024, BLOCK=1024)
    m = add.module
    assert isinstance(m, TritonModule) and m.archs == ARCHS
    for arch in ARCHS:
        ir = m.ir_for(arch)
        assert {"ttir", "ttgir", "llir", "amdgcn"} <= set(ir)
        assert "tt.func" in ir["ttir"] and "ttg." in ir["ttgir"]
        assert "define amdgpu_kernel void @add_kernel" in ir["llir"]
        assert f"-amd-amdhsa-unknown-{arch}\"" in ir["amdgcn"]  # .amdgcn_target
    assert add.ir is m.ir and add.ir["ttgir"] == m.ir_for("gfx942")["ttgir"]
    text = str(add.isa)
    assert "tl.store(out_ptr + offs, x + y, mask=mask)" in text
    assert "x = tl.load(x_ptr + offs, mask=mask)" in text
    # lines Triton inlined from triton/language sit at the kernel line that called them
    sm = wb.triton(softmax_kernel)
    xs = torch.randn(4, 64)
    sm.specialize(xs, xs, 64, 64, 64, BLOCK=64)
    rows = [t for k, t in sm.isa.rows() if k == "src"]
    assert any("tl.max(x, axis=0)" in r and "[inlined from standard.py:" in r for r in rows)
    # the usual views of a Module work on it
    assert m["gfx942"].kernels["add_kernel"].resources.vgprs > 0
    assert add.resources.wave_size == 64


def test_hidden_scratch_arguments_are_passed_and_sized_as_tritons_launcher(add):
    x = torch.randn(256)
    out = torch.empty(256)
    add.specialize(x, x, out, 256, BLOCK=256)
    info = add.kernel.info("gfx942")
    assert [a.name for a in info.args[-2:]] == ["global_scratch", "profile_scratch"]
    assert all(a.kind == "global_buffer" for a in info.args[-2:])
    # Triton's AMD launcher allocates grid size * metadata size bytes when a kernel asks for
    # scratch (triton/backends/amd/driver.py): a kernel whose metadata asks for global scratch
    meta = {a: {**m, "global_scratch_size": 96} for a, m in add.module.metadata.items()}
    asking = dataclasses.replace(add.module, metadata=meta)
    g, p = _scratch(asking, (5, 2, 1))
    assert g.nbytes == 5 * 2 * 96 and p.nbytes == 16
    k = TritonKernel.__new__(TritonKernel)
    k.__dict__.update(add.__dict__)
    k._modules = {key: asking for key in add._modules}
    k._state = {"last": asking}
    res = k.on("emulator:gfx942")[(1,)](x, x, out, 256, BLOCK=256)
    assert torch.equal(out, x + x) and res.grid == (1, 1, 1)


def test_explicit_signature_compiles_now_and_launches():
    k = wb.triton(add_kernel, signature="*fp32, *fp32, *fp32, i32", constexprs={"BLOCK": 64},
                  arch="gfx950")
    assert k._last is not None and k.module.archs == ("gfx950",)
    assert k.module.spec.text() == "x_ptr: *fp32, y_ptr: *fp32, out_ptr: *fp32, n: i32, BLOCK=64"
    x = np.arange(100, dtype=np.float32)
    out = np.zeros(100, np.float32)
    k[(2,)](x, x, out, 100)
    assert np.array_equal(out, 2 * x)
    with pytest.raises(LaunchError, match=r"expects float32 elements, got a float16"):
        k[(2,)](x.astype(np.float16), x, out, 100)
    d = wb.triton(add_kernel, signature={"x_ptr": "*fp16:16", "y_ptr": "*fp16", "out_ptr": "*fp16",
                                         "n": "i32"}, constexprs={"BLOCK": 64})
    assert d.module.spec.attrs[:2] == ("D", "")


def test_bad_arguments_are_named():
    with pytest.raises(TypeError, match="must be a @triton.jit function"):
        wb.triton(lambda x: x)
    with pytest.raises(ValueError, match="gives 3 type.*4 non-constexpr"):
        wb.triton(add_kernel, signature="*fp32, *fp32, i32", constexprs={"BLOCK": 8})
    with pytest.raises(ValueError, match=r"unknown Triton type '\*f32'"):
        wb.triton(add_kernel, signature="*f32, *fp32, *fp32, i32", constexprs={"BLOCK": 8})
    with pytest.raises(ValueError, match="unknown Triton option.*num_wraps"):
        wb.triton(add_kernel, num_wraps=4)
    with pytest.raises(ValueError, match="power of 2"):
        wb.triton(add_kernel, num_warps=3)
    k = wb.triton(add_kernel)
    with pytest.raises(LaunchError, match="not been compiled yet"):
        k.module  # noqa: B018
    with pytest.raises(LaunchError, match="missing a required argument: 'BLOCK'"):
        k[(1,)](torch.zeros(4), torch.zeros(4), torch.zeros(4), 4)


def test_compile_error_names_the_file_line(tmp_path):
    mod = write_and_load(tmp_path, "broken_kernel",
                         "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                         "def broken(x_ptr, BLOCK: tl.constexpr):\n"
                         "    offs = tl.arange(0, BLOCK)\n"
                         "    tl.store(x_ptr + offs, undefined_name)\n")
    with pytest.raises(TritonCompileError, match=r"broken_kernel.py line 8: .*undefined_name"
                       r"[\s\S]*tl.store\(x_ptr \+ offs, undefined_name\)") as e:
        wb.triton(mod.broken, signature="*fp32", constexprs={"BLOCK": 64})
    assert e.value.line == 8 and e.value.arch == "gfx942"


def test_an_mlir_verifier_error_names_the_file_line(tmp_path, capsys):
    # Triton raises only "RuntimeError: error encountered during parsing" for an op MLIR's
    # verifier rejects (here tl.atomic_cas with a scalar cmp against a block of pointers); the
    # reason and the line are in the diagnostic MLIR writes to file descriptor 2, and Triton
    # prints the whole module to stdout
    mod = write_and_load(tmp_path, "cas_kernel",
                         "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                         "def cas(p_ptr, BLOCK: tl.constexpr):\n"
                         "    offs = tl.arange(0, BLOCK)\n"
                         "    tl.atomic_cas(p_ptr + offs, 0, offs)\n")
    with pytest.raises(TritonCompileError, match=r"cas_kernel.py line 8: Triton cannot compile "
                       r"cas for gfx942: 'tt.atomic_cas' op failed to verify that ptr type "
                       r"matches cmp type\n    tl.atomic_cas") as e:
        wb.triton(mod.cas, signature="*i32", constexprs={"BLOCK": 64})
    assert e.value.line == 8
    assert "tt.func" in e.value.output and "tt.func" not in capsys.readouterr().out


def test_a_kernel_that_uses_its_scratch_launches(monkeypatch):
    # Triton's floating-point sanitizer (instrumentation_mode="fpsan") keeps per-program state
    # in the profile scratch: its metadata asks for profile_scratch_size bytes per program,
    # and the kernel writes there (its arithmetic is the sanitizer's, so the product is not)
    from workbench.triton_front import kernel as kmod

    mm = wb.triton(matmul_kernel, instrumentation_mode="fpsan")
    seen = []
    real = kmod._scratch
    monkeypatch.setattr(kmod, "_scratch", lambda m, g: seen.append(real(m, g)) or seen[-1])
    a = torch.randn(64, 64, dtype=torch.float16)
    c = torch.empty(64, 64, dtype=torch.float16)
    mm.on("emulator:gfx942")[(4,)](a, a, c, 64, 64, 64, 64, 1, 64, 1, 64, 1,
                                   BLOCK_M=32, BLOCK_N=32, BLOCK_K=32, GROUP_M=2)
    size = mm.metadata["profile_scratch_size"]
    (g, p), = seen
    assert size > 0 and p.nbytes == 4 * size and g.nbytes == 16
    assert p.any()  # the kernel wrote its scratch, inside the buffer (else a KernelFault)


def test_trace_check_and_timing_launch_as_triton_does():
    sm = wb.triton(softmax_kernel)
    x = torch.randn(8, 100)
    y = torch.empty_like(x)
    args = (y, x, 100, 100, 100)
    tr = sm.trace[(8,)](*args, BLOCK=128)
    assert isinstance(tr, wb.Trace)
    conflicts = wb.trace_conflicts(tr, source=sm.kernel)
    assert conflicts.rows  # the row reductions' LDS accesses, by kernel line
    assert sm.check[(8,)](*args, BLOCK=128) is not None
    rep = sm.timing[(8,)](*args, BLOCK=128)  # the chip of the first arch: MI300X for gfx942
    assert rep.chip.name == "mi300x" and rep.seconds > 0
    with pytest.raises(LaunchError, match="grid must be 1 to 3 ints"):
        sm[(8.0,)](*args, BLOCK=128)


def test_strided_tensors_are_passed_as_triton_passes_them():
    """Triton passes a tensor's data_ptr() and the kernel walks the strides it is given: b.T
    (a transposed view) and a numpy column slice launch and give the product of the views."""
    k = wb.triton(matmul_kernel, arch="gfx942")
    M = N = K = 64
    a = torch.randn(M, K, dtype=torch.bfloat16)
    b = torch.randn(N, K, dtype=torch.bfloat16).T  # strides (1, K)
    out, _ = T.matmul(k, a, b, out_dtype=torch.float32)
    assert (out - a.float() @ b.float()).abs().max() < 1e-3
    wide = np.random.default_rng(0).standard_normal((M, 100)).astype(np.float16)[:, :K]
    out, _ = T.matmul(k, torch.from_numpy(wide), torch.from_numpy(wide.T.copy()),
                      out_dtype=torch.float32)
    ref = torch.from_numpy(wide).float() @ torch.from_numpy(wide.T.copy()).float()
    assert (out - ref).abs().max() < 1e-2


def test_a_negative_stride_is_refused_by_name():
    k = wb.triton(add_kernel, arch="gfx942")
    x = np.arange(64, dtype=np.float32)[::-1]
    with pytest.raises(LaunchError, match="argument 'x_ptr'.*negative"):
        k[(1,)](x, x, np.zeros(64, np.float32), 64, BLOCK=64)


def test_a_launch_on_an_arch_not_built_says_how_to_add_it():
    k = wb.triton(add_kernel, arch="gfx942")
    x = torch.randn(64)
    with pytest.raises(LaunchError, match=r"give wb.triton arch='gfx942,gfx950' "
                                          r"\(%%triton --arch gfx942,gfx950\)"):
        k.on("emulator:gfx950")[(1,)](x, x, torch.empty(64), 64, BLOCK=64)
    with pytest.raises(LaunchError, match="mi355x runs gfx950 code objects: give wb.triton"):
        k.timing[(1,)](x, x, torch.empty(64), 64, BLOCK=64, chip="mi355x")
