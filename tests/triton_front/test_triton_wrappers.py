"""wb.triton of kernels wrapped in @triton.autotune / @triton.heuristics (workbench/triton_front/
tuning.py): the jit function inside launches with the heuristics' values and one autotune
config (the first, or ``config=i``), the config's pre_hook runs, conflicting meta-parameters
are refused as Triton refuses them, and Triton's post-tuning reset_to_zero happens once per
tuning key. Before this, wb.triton refused any wrapped kernel ("fn must be a @triton.jit
function, got Autotuner")."""

from __future__ import annotations

import pytest

triton = pytest.importorskip("triton", reason="the optional triton package is not installed "
                             "(pip install 'hip-workbench[triton]'; make setup installs it)")
torch = pytest.importorskip("torch")
tl = pytest.importorskip("triton.language")

import workbench as wb  # noqa: E402
from workbench.errors import ArgumentValueError, LaunchError  # noqa: E402

CONFIGS = [triton.Config({"BLOCK": 128}, num_warps=2),
           triton.Config({"BLOCK": 256, "waves_per_eu": 2}, num_warps=4)]


@triton.autotune(configs=CONFIGS, key=["n"])
@triton.heuristics({"EVEN": lambda args: args["n"] % args["BLOCK"] == 0})
@triton.jit
def scaled_kernel(x_ptr, out_ptr, n, scale, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if EVEN:  # no mask needed: the heuristic saw that n is a multiple of BLOCK
        tl.store(out_ptr + offs, tl.load(x_ptr + offs) * scale)
    else:
        m = offs < n
        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) * scale, mask=m)


HOOKED = []


@triton.autotune(configs=[triton.Config({"BLOCK": 64}, pre_hook=lambda a: HOOKED.append(a["n"])),
                          triton.Config({"BLOCK": 128})],
                 key=["n"], reset_to_zero=["acc_ptr"])
@triton.jit
def accumulate_kernel(x_ptr, acc_ptr, n, BLOCK: tl.constexpr):
    """acc[0] += sum(x): after Triton's benchmarks of a new key, acc is reset to zero."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.atomic_add(acc_ptr, tl.sum(tl.load(x_ptr + offs, mask=offs < n, other=0.0), axis=0))


def _grid(n):
    return lambda meta: (triton.cdiv(n, meta["BLOCK"]),)


@pytest.mark.parametrize("arch", ["gfx942", "gfx950"])
def test_autotune_and_heuristics_launch_the_jit_function(arch):
    k = wb.triton(scaled_kernel, arch=arch)
    assert k.name == "scaled_kernel" and k.configs == CONFIGS and k.config is None
    for n in (1000, 1024):  # EVEN False, then True (1024 % 128 == 0)
        x = torch.randn(n)
        out = torch.full_like(x, float("nan"))
        res = k.on(f"emulator:{arch}")[_grid(n)](x, out, n, 0.5)
        assert torch.equal(out, x * 0.5)
        spec = dict(k.module.spec.constexprs)
        assert spec == {"BLOCK": 128, "EVEN": n == 1024}  # config 0, and the heuristic's value
        assert res.block == (128, 1, 1)  # config 0's num_warps=2: two waves of 64


def test_config_picks_another_autotune_config():
    k = wb.triton(scaled_kernel, arch="gfx942", config=1)
    n = 1000
    x, out = torch.randn(n), torch.empty(n)
    res = k[_grid(n)](x, out, n, 2.0)
    assert torch.equal(out, x * 2)
    assert dict(k.module.spec.constexprs)["BLOCK"] == 256 and res.grid == (4, 1, 1)
    # the config's AMD option reached Triton, its num_warps the launch
    assert k.module.triton_options["waves_per_eu"] == 2 and res.block == (256, 1, 1)
    with pytest.raises(ArgumentValueError, match=r"index 0\.\.1 into the autotuner's 2"):
        wb.triton(scaled_kernel, config=2)


def test_meta_parameters_given_twice_are_refused_as_triton_does():
    k = wb.triton(scaled_kernel, arch="gfx942")
    x = torch.randn(256)
    with pytest.raises(LaunchError, match="Conflicting meta-parameters: BLOCK"):
        k[(1,)](x, x, 256, 1.0, BLOCK=256)


def test_pre_hook_runs_and_reset_to_zero_follows_the_first_launch_of_a_key():
    k = wb.triton(accumulate_kernel, arch="gfx942")
    HOOKED.clear()
    x = torch.ones(200)
    acc = torch.full((1,), 1000.0)  # garbage Triton's post-benchmark reset clears
    k[_grid(200)](x, acc, 200)
    assert acc.item() == 200 and HOOKED == [200]
    k[_grid(200)](x, acc, 200)  # same key: no reset, the kernel accumulates
    assert acc.item() == 400 and HOOKED == [200, 200]
    k[_grid(100)](x, acc, 100)  # a new key: reset again
    assert acc.item() == 100


def test_a_triton_cell_binds_an_autotuned_kernel(shell):
    from IPython.utils.capture import capture_output

    cell = ("import triton\nimport triton.language as tl\n\n"
            "@triton.autotune(configs=[triton.Config({'BLOCK': 64}), "
            "triton.Config({'BLOCK': 128})], key=['n'])\n"
            "@triton.jit\n"
            "def tuned_add(x_ptr, out_ptr, n, BLOCK: tl.constexpr):\n"
            "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
            "    m = offs < n\n"
            "    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) + 1, mask=m)\n")
    with capture_output():
        shell.run_cell_magic("triton", "--option config=1", cell)
    k = shell.user_ns["tuned_add"]
    x, out = torch.randn(300), torch.empty(300)
    k[_grid(300)](x, out, 300)
    assert torch.equal(out, x + 1) and dict(k.module.spec.constexprs)["BLOCK"] == 128
