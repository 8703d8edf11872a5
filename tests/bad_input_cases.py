"""The case table of the bad-input audit (issue 24): ``CASES`` and the kernels they launch.

Run by ``tests/bench/bad_inputs.py`` (each case in its own subprocess with time and memory
limits) and ``tests/test_bad_inputs.py`` (in-process), both through ``bad_input_runner``.
``K.<name>`` in an API case is the module of ``KERNELS[name]``; ``a``/``b``/``n`` are made by
the ``ADD`` prologue. Each case states what it expects: ``ok`` (its own code asserts the
result against numpy) or ``clear`` (a ``HipwbError`` whose message holds ``match``).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Case:
    id: str
    kind: str  # "api", "magic" or "cli"
    code: str | tuple[str, ...]  # API snippet, IPython cells, or hipwb's argv
    expect: str = "clear"  # "ok" or "clear"
    match: str = ""  # a substring the error message must hold
    check: str = ""  # an expression that must hold afterwards (else data-lost)
    exit: int = 2  # CLI: the exit code expected
    files: tuple[tuple[str, str | bytes], ...] = ()  # CLI: files written under tmp first
    known: str = ""  # why this case is left failing (reported as "known")


_ADD = """#include <hip/hip_runtime.h>
__global__ void add(const float* a, float* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] = a[i] + 1.0f;
}"""
_SC = """__global__ void sc(float* out, int i, float f, unsigned u, double d, long long l) {
  if (threadIdx.x == 0) { out[0] = i; out[1] = f; out[2] = u; out[3] = d;
    out[4] = l < 0 ? -1.0f : (l > 0 ? 1.0f : 0.0f); }
}"""
_BYTES = """__global__ void u8(const unsigned char* a, unsigned char* b, int n) {
  int i = threadIdx.x; if (i < n) b[i] = a[i];
}"""
_FP8 = """#include <hip/hip_fp8.h>
__global__ void f8(const __hip_fp8_e4m3* a, float* out, int n) {
  int i = threadIdx.x; if (i < n) out[i] = static_cast<float>(a[i]);
}"""
_HALF = """#include <hip/hip_fp16.h>
__global__ void h(const __half* a, __half* b, int n) {
  int i = threadIdx.x; if (i < n) b[i] = __float2half(__half2float(a[i]) * 2.0f);
}"""
_SPIN = "__global__ void spin(volatile int* x) { while (x[0] == 0) { } }"
_TRAP = """__global__ void trapk(float* x) { if (threadIdx.x == 3) __builtin_trap();
  x[threadIdx.x] = 1.0f; }"""
_OOB = "__global__ void oob(float* x) { x[threadIdx.x + 4096] = 1.0f; }"
_PRINTF = """__global__ void pr() { printf("lane %d says hello, world\\n", (int)threadIdx.x); }"""
_DYN = """__global__ void dyn(float* x) { extern __shared__ float s[];
  s[threadIdx.x] = x[threadIdx.x]; __syncthreads();
  x[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x]; }"""
_LB = "__global__ void __launch_bounds__(128) lb(float* x) { x[threadIdx.x] = 1.0f; }"
_ST = """struct P { float* x; int n; };
__global__ void st(P p) { if ((int)threadIdx.x < p.n) p.x[threadIdx.x] = 2.0f; }"""
_LDS = """__global__ void t(float* x) { __shared__ float s[64]; s[threadIdx.x] = x[threadIdx.x];
  __syncthreads(); x[threadIdx.x] = s[63 - threadIdx.x]; }"""

KERNELS = {"add": (_ADD, "gfx942"), "sc": (_SC, "gfx942"), "u8": (_BYTES, "gfx942"),
           "f8": (_FP8, "gfx950"), "h": (_HALF, "gfx942"), "spin": (_SPIN, "gfx942"),
           "trap": (_TRAP, "gfx942"), "oob": (_OOB, "gfx942"), "pr": (_PRINTF, "gfx942"),
           "dyn": (_DYN, "gfx942"), "lb": (_LB, "gfx942"), "st": (_ST, "gfx942"),
           "lds": (_LDS, "gfx942"),
           "k": ("__global__ void k(float* x) { x[0] = 1; }", "gfx942")}  # SRC, warmed

ADD = ("k = K.add.add; a = np.arange(64, dtype=np.float32); b = np.zeros(64, np.float32); "
       "n = 64\n")
SC = "s = K.sc.sc; o = np.zeros(8, np.float32)\n"
SRC = "src = '__global__ void k(float* x) { x[0] = 1; }'\n"
SWEEP = ("SW = 'extern \"C\" __global__ void w(float* y, int n) { int i = blockIdx.x * BLOCK + "
         "threadIdx.x; if (i < n) y[i] = 2.0f * i; }'\n"
         "SWK = dict(launch=lambda s, p: ((-(-s[0] // max(p['BLOCK'], 1)),), (p['BLOCK'],)), "
         "inputs=lambda s, p: (np.zeros(s[0], np.float32), s[0]), "
         "reference=lambda s, p, a: 2.0 * np.arange(s[0], dtype=np.float32), "
         "check_shape=(100,), targets='mi300x', cluster='inline', progress=False)\n")
RES = {"vgprs": 8, "agprs": 0, "sgprs": 16, "lds_bytes": 0}  # ``RES`` in a case's namespace
TORCH = "import torch\n"
_SRC_OK = "__global__ void k(float* x) { x[threadIdx.x] = 1.0f; }\n"


def api(id: str, code: str, match: str = "", *, pre: str = "", check: str = "",
        known: str = "") -> Case:
    return Case(id, "api", pre + code, "clear", match, check, known=known)


def ok(id: str, code: str, *, pre: str = "", known: str = "") -> Case:
    return Case(id, "api", pre + code, "ok", known=known)


def magic(id: str, *cells: str, match: str = "", check: str = "", expect: str = "clear",
          known: str = "") -> Case:
    return Case(id, "magic", cells, expect, match, check, known=known)


def cli(id: str, *argv: str, match: str, exit: int = 2, files=(), known: str = "") -> Case:
    return Case(id, "cli", argv, "clear", match, exit=exit, files=tuple(files), known=known)


_CASES = [
    # --- wb.compile ---------------------------------------------------------------------
    api("compile-source-int", "wb.compile(5)", "'source'"),
    api("compile-source-bytes", "wb.compile(b'__global__ void k() {}')", "'source'"),
    api("compile-source-none", "wb.compile(None)", "'source'"),
    api("compile-arch-int", "wb.compile(src, 942)", "'arch'", pre=SRC),
    api("compile-arch-empty", "wb.compile(src, '')", "arch", pre=SRC),
    api("compile-arch-empty-list", "wb.compile(src, [])", "arch", pre=SRC),
    api("compile-arch-unknown", "wb.compile(src, 'gfx9999')", "gfx9999", pre=SRC),
    api("compile-arch-cuda", "wb.compile(src, 'sm_90')", "sm_90", pre=SRC),
    api("compile-arch-list-int", "wb.compile(src, ['gfx942', 5])", "'arch'", pre=SRC),
    ok("compile-arch-newline", "assert wb.compile(src, ' gfx942\\n').archs == ('gfx942',)",
       pre=SRC),
    api("compile-options-str", "wb.compile(src, 'gfx942', '-O3')", "'options'", pre=SRC),
    api("compile-options-int", "wb.compile(src, 'gfx942', [5])", "'options'", pre=SRC),
    api("compile-options-bogus", "wb.compile(src, 'gfx942', ['--bogus-flag'])", "--bogus-flag",
        pre=SRC),
    api("compile-define-name-digit", "wb.compile(src, defines={'1X': 1})", "1X", pre=SRC),
    api("compile-define-name-newline", "wb.compile(src, defines={'A\\nB': 1})", "A\\nB",
        pre=SRC),
    api("compile-define-name-space", "wb.compile(src, defines={'A B': 1})", "A B", pre=SRC),
    api("compile-define-value-newline",
        "wb.compile(src, defines={'A': '1\\n#include \"/etc/passwd\"'})", "'A'", pre=SRC),
    api("compile-define-key-int", "wb.compile(src, defines={5: 1})", "'defines'", pre=SRC),
    api("compile-define-value-list", "wb.compile(src, defines={'A': [1]})", "'defines'",
        pre=SRC),
    api("compile-defines-list", "wb.compile(src, defines=['A=1'])", "'defines'", pre=SRC),
    api("compile-include-str", "wb.compile(src, include_dirs='/usr/include')", "'include_dirs'",
        pre=SRC),
    api("compile-include-int", "wb.compile(src, include_dirs=[5])", "'include_dirs'", pre=SRC),
    api("compile-filename-nul", "wb.compile(src, filename='a\\x00b.hip')", "filename", pre=SRC),
    api("compile-filename-newline", "wb.compile(src, filename='a\\nb.hip')", "filename",
        pre=SRC),
    api("compile-filename-ctrl", "wb.compile(src, filename='a\\x1bb.hip')", "filename",
        pre=SRC),
    api("compile-filename-int", "wb.compile(src, filename=5)", "'filename'", pre=SRC),
    ok("compile-filename-quotes",
       "m = wb.compile(src, filename='my \"odd\" \\\\name\\'s.hip'); assert m.k", pre=SRC),
    api("compile-filename-dotdot-error",
        "wb.compile('int x = ;', filename='../../etc/evil.hip')", "evil.hip:1"),
    api("compile-first-line-zero", "wb.compile(src, first_line=0)", "first_line", pre=SRC),
    api("compile-first-line-negative", "wb.compile(src, first_line=-5)", "first_line", pre=SRC),
    api("compile-first-line-huge", "wb.compile(src, first_line=2**40)", "first_line", pre=SRC),
    api("compile-first-line-float", "wb.compile(src, first_line=1.5)", "'first_line'", pre=SRC),
    api("compile-opt-level-7", "wb.compile(src, opt_level=7)", "opt_level", pre=SRC),
    api("compile-opt-level-word", "wb.compile(src, opt_level='fast')", "opt_level", pre=SRC),
    api("compile-opt-level-neg", "wb.compile(src, opt_level=-1)", "opt_level", pre=SRC),
    api("compile-cache-str", "wb.compile(src, cache='yes')", "'cache'", pre=SRC),
    api("compile-syntax-error-line",
        "wb.compile('__global__ void k(float* x) {\\n  x[0] = 1;\\n  x[1] = oops;\\n}')",
        ":3:"),
    api("compile-syntax-error-first-line",
        "wb.compile('__global__ void k(float* x) {\\n  x[0] = oops;\\n}', first_line=10,"
        " filename='cell.hip')", "cell.hip:11"),
    api("compile-nul-in-source", "wb.compile('__global__ void k(float* x) { x[0] = 1; }\\x00')",
        "NUL"),
    api("compile-unknown-kwarg", "wb.compile(src, archs='gfx942')", "archs", pre=SRC),
    api("compile-missing-include", "wb.compile('#include \"nope.h\"\\n__global__ void k() {}')",
        "nope.h"),
    # --- launches -----------------------------------------------------------------------
    api("launch-grid-0", "k[0, 64](a, b, n)", "grid", pre=ADD),
    api("launch-block-0", "k[1, 0](a, b, n)", "block", pre=ADD),
    api("launch-grid-negative", "k[-1, 64](a, b, n)", "grid", pre=ADD),
    api("launch-block-negative", "k[1, -64](a, b, n)", "block", pre=ADD),
    api("launch-grid-float", "k[1.0, 64](a, b, n)", "grid", pre=ADD),
    api("launch-block-float", "k[1, 64.0](a, b, n)", "block", pre=ADD),
    api("launch-grid-bool", "k[True, 64](a, b, n)", "grid", pre=ADD),
    api("launch-block-float-after-valid", "k[1, 64](a, b, n); k[1, 64.0](a, b, n)", "block",
        pre=ADD),
    api("launch-grid-bool-after-valid", "k[1, 64](a, b, n); k[True, 64](a, b, n)", "grid",
        pre=ADD),
    api("launch-block-4-tuple", "k[1, (64, 1, 1, 1)](a, b, n)", "block", pre=ADD),
    api("launch-grid-empty-tuple", "k[(), 64](a, b, n)", "grid", pre=ADD),
    api("launch-grid-str", "k['1', 64](a, b, n)", "grid", pre=ADD),
    api("launch-one-item", "k[1](a, b, n)", "block", pre=ADD),
    api("launch-four-items", "k[1, 64, 0, 5](a, b, n)", "grid", pre=ADD),
    api("launch-block-2048", "k[1, 2048](a, b, n)", "1024", pre=ADD),
    api("launch-block-1025", "k[1, (1025, 1, 1)](a, b, n)", "1024", pre=ADD),
    api("launch-block-3d-too-many", "k[1, (32, 32, 2)](a, b, n)", "1024", pre=ADD),
    api("launch-launch-bounds", "K.lb.lb[1, 256](np.zeros(256, np.float32))", "128"),
    api("launch-grid-2**31", "k[2**31, 64](a, b, n)", "work-items", pre=ADD),
    api("launch-grid-2**31-block-1", "k[2**31, 1](a, b, n)", "grid", pre=ADD),
    api("launch-grid-huge-3d", "k[(2**20, 2**20, 2**20), 64](a, b, n)", "grid", pre=ADD),
    api("launch-too-few-args", "k[1, 64](a, b)", "3", pre=ADD, check="b.sum() == 0"),
    api("launch-too-many-args", "k[1, 64](a, b, n, n)", "3", pre=ADD),
    api("launch-no-args", "k[1, 64]()", "3", pre=ADD),
    api("launch-wrong-dtype", "k[1, 64](a.astype(np.float64), b, n)", "'a'", pre=ADD),
    api("launch-wrong-dtype-int", "k[1, 64](a.astype(np.int32), b, n)", "'a'", pre=ADD),
    api("launch-non-contiguous", "k[1, 64](np.zeros(128, np.float32)[::2], b, n)", "'a'",
        pre=ADD),
    api("launch-non-contiguous-2d", "k[1, 64](a, np.zeros((8, 16), np.float32).T, n)", "'b'",
        pre=ADD),
    api("launch-read-only-output", "b.setflags(write=False); k[1, 64](a, b, n)", "'b'",
        pre=ADD, check="b.sum() == 0"),
    api("launch-big-endian", "k[1, 64](a.astype('>f4'), b, n)", "'a'", pre=ADD),
    api("launch-object-array", "k[1, 64](np.array([1.0] * 64, dtype=object), b, n)", "'a'",
        pre=ADD),
    api("launch-masked-array", "k[1, 64](np.ma.array(a), b, n)", "'a'", pre=ADD),
    api("launch-none-pointer", "k[1, 64](None, b, n)", "'a'", pre=ADD),
    api("launch-int-for-pointer", "k[1, 64](12345, b, n)", "'a'", pre=ADD),
    api("launch-str-for-pointer", "k[1, 64]('a', b, n)", "'a'", pre=ADD),
    api("launch-list-for-pointer", "k[1, 64](list(a), b, n)", "'a'", pre=ADD),
    api("launch-scalar-for-pointer", "k[1, 64](np.float32(1), b, n)", "'a'", pre=ADD),
    api("launch-int-overflow", "k[1, 64](a, b, 2**40)", "'n'", pre=ADD),
    api("launch-int-negative-overflow", "k[1, 64](a, b, -2**31 - 1)", "'n'", pre=ADD),
    api("launch-float-for-int", "k[1, 64](a, b, 64.0)", "'n'", pre=ADD),
    api("launch-str-for-int", "k[1, 64](a, b, '64')", "'n'", pre=ADD),
    api("launch-none-for-int", "k[1, 64](a, b, None)", "'n'", pre=ADD),
    api("launch-bool-for-int", "k[1, 64](a, b, True)", "'n'", pre=ADD),
    api("launch-array-for-int", "k[1, 64](a, b, a)", "'n'", pre=ADD),
    api("launch-str-for-float", "s[1, 64](o, 1, 'x', 1, 1.0, 1)", "'f'", pre=SC),
    api("launch-negative-unsigned", "s[1, 64](o, 1, 1.0, -1, 1.0, 1)", "'u'", pre=SC),
    api("launch-unsigned-overflow", "s[1, 64](o, 1, 1.0, 2**32, 1.0, 1)", "'u'", pre=SC),
    api("launch-longlong-overflow", "s[1, 64](o, 1, 1.0, 1, 1.0, 2**63)", "'l'", pre=SC),
    api("launch-complex-for-double", "s[1, 64](o, 1, 1.0, 1, 1j, 1)", "'d'", pre=SC),
    api("launch-float-overflow", "s[1, 64](o, 1, 1e300, 1, 1.0, 1)", "'f'", pre=SC),
    api("launch-dynamic-lds-negative", "K.dyn.dyn[1, 64, -4](a)", "dynamic_lds",
        pre=ADD),
    api("launch-dynamic-lds-huge", "K.dyn.dyn[1, 64, 2**40](a)", "LDS", pre=ADD),
    api("launch-dynamic-lds-float", "K.dyn.dyn[1, 64](a, dynamic_lds=256.0)", "dynamic_lds",
        pre=ADD),
    api("launch-dynamic-lds-missing", "K.dyn.dyn[1, 64](a)", "extern __shared__", pre=ADD),
    api("launch-unknown-kwarg", "k[1, 64](a, b, n, shared_mem=0)", "shared_mem", pre=ADD),
    api("launch-kwarg-as-arg", "k[1, 64](a=a, b=b, n=n)", "a", pre=ADD),
    api("launch-infinite-loop", "K.spin.spin[1, 1](np.zeros(1, np.int32), "
        "max_emulation_seconds=1)", "max_emulation_seconds=1"),
    api("launch-max-seconds-negative", "K.spin.spin[1, 1](np.zeros(1, np.int32), "
        "max_emulation_seconds=-1)", "max_emulation_seconds"),
    api("launch-max-seconds-str", "k[1, 64](a, b, n, max_emulation_seconds='1')",
        "max_emulation_seconds", pre=ADD),
    api("launch-budget-negative", "k[1, 64](a, b, n, budget=-1)", "budget", pre=ADD),
    api("launch-trap", "K.trap.trapk[1, 64](np.zeros(64, np.float32))", "lane"),
    api("launch-oob-store", "K.oob.oob[1, 64](np.zeros(64, np.float32))", "lane"),
    api("launch-oob-store-address", "K.oob.oob[1, 64](np.zeros(64, np.float32))", "0x"),
    ok("launch-printf-overflow",
       "import io, contextlib\nbuf = io.StringIO()\nwith contextlib.redirect_stdout(buf):\n"
       "    K.pr.pr[1, 64](printf_buffer=256)\n"
       "assert 'dropped' in buf.getvalue() or 'printf' in buf.getvalue(), buf.getvalue()"),
    api("launch-printf-buffer-negative", "K.pr.pr[1, 64](printf_buffer=-1)", "printf_buffer"),
    api("launch-on-unknown-device", "k.on('tpu')[1, 64](a, b, n)", "tpu", pre=ADD),
    api("launch-device-kwarg-bad", "k.launch(1, 64, a, b, n, device='rocm:99')", "rocm",
        pre=ADD),
    api("launch-after-fault-data-kept", "try:\n    k[1, 64](a, b, 'x')\nexcept wb.HipwbError:\n"
        "    pass\nk[1, 64](a, b, 2**40)", "'n'", pre=ADD, check="(b == 0).all()"),
    api("trace-grid-0", "k.trace[0, 64](a, b, n)", "grid", pre=ADD),
    api("check-wrong-dtype", "k.check[1, 64](a.astype(np.float64), b, n)", "'a'", pre=ADD),
    api("timing-unknown-chip", "k.timing[1, 64](a, b, n, chip='h100')", "h100", pre=ADD),
    api("kernel-info-bad-arch", "k.info('gfx1100')", "gfx1100", pre=ADD),
    api("kernel-occupancy-block-0", "k.occupancy(0)", "block", pre=ADD),
    api("kernel-occupancy-block-str", "k.occupancy('256')", "block", pre=ADD),
    api("kernel-isa-for-bad-arch", "k.isa_for('gfx9999')", "gfx9999", pre=ADD),
    api("kernel-globals-unknown", "k.globals['nope']", "nope", pre=ADD),
    # --- module lookups -----------------------------------------------------------------
    api("module-getitem-unknown", "K.add['nope']", "nope"),
    api("module-getattr-unknown", "K.add.nope", "nope"),
    api("module-getitem-int", "K.add[5]", "5"),
    api("module-getitem-none", "K.add[None]", "None"),
    api("module-get-function-int", "K.add.get_function(5)", "5"),
    api("module-getitem-other-arch", "K.add['gfx1100']", "gfx1100"),
    # --- occupancy ----------------------------------------------------------------------
    api("occupancy-block-0", "wb.occupancy(RES, 'gfx942', 0)", "block"),
    api("occupancy-block-negative", "wb.occupancy(RES, 'gfx942', -64)", "block"),
    api("occupancy-block-2048", "wb.occupancy(RES, 'gfx942', 2048)", "block"),
    api("occupancy-vgprs-huge", "wb.occupancy(dict(RES, vgprs=10**6), 'gfx942', 256)", "vgprs"),
    api("occupancy-vgprs-negative", "wb.occupancy(dict(RES, vgprs=-1), 'gfx942', 256)", "vgprs"),
    api("occupancy-vgprs-float", "wb.occupancy(dict(RES, vgprs=8.5), 'gfx942', 256)", "vgprs"),
    api("occupancy-unknown-arch", "wb.occupancy(RES, 'gfx9999', 256)", "gfx9999"),
    api("occupancy-wave-size-16", "wb.occupancy(RES, 'gfx942', 256, wave_size=16)",
        "wave_size"),
    api("occupancy-dict-missing", "wb.occupancy({}, 'gfx942', 256)", "vgprs"),
    api("occupancy-dict-unknown-key", "wb.occupancy({'vgpr': 8, 'agprs': 0, 'sgprs': 16, "
        "'lds_bytes': 0}, 'gfx942', 256)", "vgpr"),
    api("occupancy-resources-int", "wb.occupancy(8, 'gfx942', 256)", "resources"),
    api("occupancy-lds-huge", "wb.occupancy(RES, 'gfx942', 256, dynamic_lds=2**30)",
        "dynamic_lds"),
    api("occupancy-table-block-0", "wb.occupancy_table('gfx942', block_size=0)", "block_size"),
    api("occupancy-table-block-2048", "wb.occupancy_table('gfx942', block_size=2048)",
        "block_size"),
    api("occupancy-table-vgprs-huge", "wb.occupancy_table('gfx942', vgprs=10**6)", "vgprs"),
    api("occupancy-table-vgprs-negative", "wb.occupancy_table('gfx942', vgprs=-1)", "vgprs"),
    api("occupancy-table-unknown-arch", "wb.occupancy_table('gfx9999')", "gfx9999"),
    api("occupancy-table-wave-16", "wb.occupancy_table('gfx942', 16)", "wave_size"),
    api("occupancy-table-wave-32-cdna", "wb.occupancy_table('gfx942', 32)", "wave_size"),
    # --- matrix instructions and layouts ------------------------------------------------
    api("matrix-unknown-name", "wb.matrix_instruction('v_mfma_nope', 'gfx942')", "v_mfma_nope"),
    api("matrix-wrong-arch", "wb.matrix_instruction('v_mfma_f32_16x16x16_bf16', 'gfx1100')",
        "gfx1100"),
    api("matrix-unknown-arch", "wb.matrix_instruction('v_mfma_f32_16x16x16_bf16', 'gfx9999')",
        "gfx9999"),
    api("matrix-empty-name", "wb.matrix_instruction('', 'gfx942')", "''"),
    api("matrix-instructions-unknown-arch", "wb.matrix_instructions('gfx9999')", "gfx9999"),
    api("layout-bad-operand", "wb.layout('v_mfma_f32_16x16x16_bf16', 'gfx942', 'E')", "E"),
    api("layout-unknown-name", "wb.layout('v_nope', 'gfx942')", "v_nope"),
    api("layout-wave-size-16", "wb.layout('v_mfma_f32_16x16x16_bf16', 'gfx942', "
        "wave_size=16)", "wave_size"),
    api("layout-wave-size-32-cdna", "wb.layout('v_mfma_f32_16x16x16_bf16', 'gfx942', "
        "wave_size=32)", "wave_size"),
    api("layout-lane-out-of-range", "wb.layout('v_mfma_f32_16x16x16_bf16', 'gfx942', lane=64)",
        "lane"),
    api("layout-cbsz-bad", "wb.layout('v_mfma_f32_16x16x16_bf16', 'gfx942', cbsz=9)", "cbsz"),
    api("layout-color-by-bad", "wb.layout('v_mfma_f32_16x16x16_bf16', 'gfx942', "
        "color_by='rainbow')", "rainbow"),
    api("matrix-coords-bad-lane",
        "wb.matrix_instruction('v_mfma_f32_16x16x16_bf16', 'gfx942').A.coords(99, 0, 0)",
        "lane"),
    # --- LDS -----------------------------------------------------------------------------
    api("tile-zero-rows", "wb.SharedTile((0, 16), 'f32')", "shape"),
    api("tile-negative-cols", "wb.SharedTile((16, -1), 'f32')", "shape"),
    api("tile-1d-shape", "wb.SharedTile((16,), 'f32')", "shape"),
    api("tile-shape-int", "wb.SharedTile(16, 'f32')", "shape"),
    api("tile-bad-dtype", "wb.SharedTile((16, 16), 'complex512')", "complex512"),
    api("tile-negative-padding", "wb.SharedTile((16, 16), 'f32', padding=-1)", "padding"),
    api("row-access-out-of-range", "wb.row_access(wb.SharedTile((16, 16), 'f32'), 99)", "row"),
    api("row-access-negative", "wb.row_access(wb.SharedTile((16, 16), 'f32'), -1)", "row"),
    api("column-access-out-of-range", "wb.column_access(wb.SharedTile((16, 16), 'f32'), 16)",
        "col"),
    api("row-access-bad-instruction",
        "wb.row_access(wb.SharedTile((16, 16), 'f32'), 0, 'ds_nope')", "ds_nope"),
    api("row-access-not-a-tile", "wb.row_access((16, 16), 0)", "tile"),
    api("mfma-reads-bad-operand", "wb.mfma_operand_reads(operand='Z', "
        "tile=wb.SharedTile((16, 16), 'f32'))", "Z"),
    api("trace-conflicts-int", "wb.trace_conflicts(5)", "trace"),
    api("trace-conflicts-str", "wb.trace_conflicts('trace')", "trace"),
    api("trace-conflicts-array", "wb.trace_conflicts(np.zeros(4))", "trace"),
    api("trace-conflicts-kernel", "wb.trace_conflicts(K.add.add)", "trace"),
    api("lds-heatmap-int", "wb.lds_heatmap(5)", "got int"),
    api("lds-heatmap-nothing", "wb.lds_heatmap()", "lds_heatmap"),
    api("lds-heatmap-bad-mode", "wb.lds_heatmap(wb.row_access(wb.SharedTile((16, 16), 'f32'),"
        " 0), mode='best')", "mode"),
    # --- devices, guard, arch, structs, bench -------------------------------------------
    api("set-device-tpu", "wb.set_device('tpu')", "tpu"),
    api("set-device-rocm-99", "wb.set_device('rocm:99')", "rocm"),
    api("set-device-cuda", "wb.set_device('cuda')", "cuda"),
    api("set-device-emulator-bad-arch", "wb.set_device('emulator:gfx9999')", "gfx9999"),
    api("set-device-int", "wb.set_device(0)", "spec"),
    api("set-guard-str", "wb.set_guard('x')", "enabled"),
    api("get-arch-unknown", "wb.get_arch('gfx9999')", "gfx9999"),
    api("get-arch-empty", "wb.get_arch('')", "''"),
    api("get-arch-int", "wb.get_arch(942)", "name"),
    api("show-tracebacks-str", "wb.show_tracebacks('on')", "on"),
    api("struct-type-no-struct", "wb.struct_type(K.add.add)", "struct"),
    api("struct-type-bad-name", "wb.struct_type(K.st.st, 'nope')", "nope"),
    api("struct-type-index-out", "wb.struct_type(K.st.st, 5)", "5"),
    api("struct-type-not-kernel", "wb.struct_type(5)", "kernel"),
    api("struct-launch-none-field",
        "P = wb.struct_type(K.st.st)\nK.st.st[1, 64](P(x=None, n=4))", "x"),
    api("struct-launch-unknown-field",
        "P = wb.struct_type(K.st.st)\nK.st.st[1, 64]({'x': np.zeros(64, np.float32), 'n': 4, "
        "'m': 1})", "m"),
    api("struct-launch-int-for-struct", "K.st.st[1, 64](5)", "p"),
    api("bench-on-emulator", "wb.bench(k, 1, 64, a, b, n)", "GPU", pre=ADD),
    api("devices-arg", "wb.devices(5)", "devices"),
    # --- valid edge cases ---------------------------------------------------------------
    ok("edge-block-1-1-1", "k[1, (1, 1, 1)](a, b, 1); assert b[0] == 1 and b[1:].sum() == 0",
       pre=ADD),
    ok("edge-n-0", "k[1, 64](a, b, 0); assert (b == 0).all()", pre=ADD),
    ok("edge-zero-size-arrays", "x = np.zeros(0, np.float32); k[1, 64](x, x.copy(), 0)",
       pre=ADD),
    ok("edge-one-element-grid", "k[(1,), [64]](a, b, n); assert (b == a + 1).all()", pre=ADD),
    ok("edge-grid-numpy-int", "k[np.int64(2), np.int32(32)](a, b, n); assert (b == a + 1).all()",
       pre=ADD),
    ok("edge-2d-grid", "k[(1, 2), 32](a, b, 32); assert (b[:32] == a[:32] + 1).all()", pre=ADD),
    ok("edge-numpy-int-scalars",
       "for v in (np.int8(64), np.uint8(64), np.int32(64), np.int64(64), np.uint64(64)):\n"
       "    b[:] = 0; k[1, 64](a, b, v); assert (b == a + 1).all(), v", pre=ADD),
    ok("edge-numpy-float-scalars",
       "s[1, 64](o, np.int16(-3), np.float16(1.5), np.uint32(7), np.float32(2.5), "
       "np.int64(-2**40))\nassert list(o[:5]) == [-3, 1.5, 7, 2.5, -1], o",
       pre=SC),
    ok("edge-int-limits", "s[1, 64](o, 2**31 - 1, 1.0, 2**32 - 1, 1.0, -2**63)\n"
       "assert o[0] == np.float32(2**31 - 1) and o[2] == np.float32(2**32 - 1) and o[4] == -1",
       pre=SC),
    ok("edge-int-for-float", "s[1, 64](o, 1, 3, 1, 4, 1); assert o[1] == 3 and o[3] == 4",
       pre=SC),
    ok("edge-fp16-arrays",
       "x = np.linspace(-4, 4, 64).astype(np.float16); y = np.zeros_like(x)\n"
       "K.h.h[1, 64](x, y, 64); assert (y == x * np.float16(2)).all()"),
    ok("edge-torch-cpu", "a, b = torch.arange(64, dtype=torch.float32), torch.zeros(64)\n"
       "k[1, 64](a, b, 64); assert torch.equal(b, a + 1)", pre=ADD + TORCH),
    ok("edge-torch-float8-fp8-pointee",
       "x = torch.linspace(-4, 4, 64).to(torch.float8_e4m3fn); y = np.zeros(64, np.float32)\n"
       "K.f8.f8[1, 64](x, y, 64); assert (y == x.float().numpy()).all(), y", pre=TORCH),
    ok("edge-torch-float8-u8-pointee",
       "x = torch.linspace(-4, 4, 64).to(torch.float8_e4m3fn); y = np.zeros(64, np.uint8)\n"
       "K.u8.u8[1, 64](x, y, 64); assert (y == x.view(torch.uint8).numpy()).all()", pre=TORCH),
    api("torch-float8-float-pointee",
        "k[1, 64](torch.zeros(64).to(torch.float8_e4m3fn), b, n)", "'a'", pre=ADD + TORCH),
    api("torch-float8-output-read-only-view",
        "k[1, 64](a, torch.zeros(64).to(torch.float8_e5m2), n)", "'b'", pre=ADD + TORCH),
    api("torch-wrong-dtype", "k[1, 64](torch.zeros(64, dtype=torch.float64), b, n)", "'a'",
        pre=ADD + TORCH),
    api("torch-non-contiguous", "k[1, 64](torch.zeros(128)[::2], b, n)", "'a'",
        pre=ADD + TORCH),
    ok("edge-u8-bytes", "x = np.arange(64, dtype=np.uint8); y = np.zeros_like(x)\n"
       "K.u8.u8[1, 64](x, y, 64); assert (x == y).all()"),
    ok("edge-dynamic-lds", "x = np.arange(64, dtype=np.float32)\n"
       "K.dyn.dyn[1, 64, 256](x); assert (x == np.arange(64)[::-1]).all()"),
    ok("edge-struct-dict", "x = np.zeros(64, np.float32)\nP = wb.struct_type(K.st.st)\n"
       "K.st.st[1, 64](P(x=x, n=4)); assert list(x[:5]) == [2, 2, 2, 2, 0]"),
    ok("edge-occupancy-ok", "o = wb.occupancy(RES, 'gfx942', 1024); "
       "assert o.waves_per_simd >= 1"),
    # --- wb.sweep (inline: the audit's subprocess limits stay with one process) ----------
    api("sweep-space-str", "wb.sweep(SW, 'BLOCK=64', **SWK)", "'space'", pre=SWEEP),
    api("sweep-space-float", "wb.sweep(SW, dict(BLOCK=[6.5]), **SWK)", "BLOCK", pre=SWEEP),
    api("sweep-space-name", "wb.sweep(SW, {'2X': [1]}, **SWK)", "2X", pre=SWEEP),
    api("sweep-space-empty", "wb.sweep(SW, dict(BLOCK=[]), **SWK)", "no values", pre=SWEEP),
    api("sweep-target", "wb.sweep(SW, dict(BLOCK=[64]), **dict(SWK, targets='h100'))",
        "h100", pre=SWEEP),
    api("sweep-launch-none", "wb.sweep(SW, dict(BLOCK=[64]), **dict(SWK, launch=None))",
        "'launch'", pre=SWEEP),
    api("sweep-reference-no-shape",
        "wb.sweep(SW, dict(BLOCK=[64]), **dict(SWK, check_shape=None))", "check_shape",
        pre=SWEEP),
    api("sweep-cluster-bad", "wb.sweep(SW, dict(BLOCK=[64]), **dict(SWK, cluster=5))",
        "cluster", pre=SWEEP),
    api("sweep-cluster-unreachable",
        "wb.sweep(SW, dict(BLOCK=[64]), **dict(SWK, cluster='tcp://127.0.0.1:9', "
        "cache=False))", "no Dask scheduler answered", pre=SWEEP),
    ok("sweep-failures-are-rows",
       "r = wb.sweep(SW, dict(BLOCK=[64, 0]), **SWK)\n"
       "assert list(r['status']) == ['ok', 'launch error'], r[['status', 'error']]\n"
       "assert 'block' in r['error'].iloc[1]", pre=SWEEP),
    ok("sweep-reference-raises",
       "r = wb.sweep(SW, dict(BLOCK=[64]), **dict(SWK, reference=lambda s, p, a: 1 / 0))\n"
       "assert r['status'].iloc[0] == 'reference error'\n"
       "assert 'ZeroDivisionError' in r['error'].iloc[0]", pre=SWEEP),
]

_K = "%%hipkernel\n__global__ void {0}(float* x) {{ x[threadIdx.x] = 1.0f; }}"
_BAD = "%%hipkernel\n__global__ void {0}(float* x) {{\n  x[0] = oops;\n}}"

_SHELL_CASES = [
    # --- %%hipkernel, %%hipfile, %hipwb in a real IPython shell ---------------------------
    magic("hipkernel-unknown-option", "%%hipkernel --bogus\n__global__ void k() {}",
          match="--bogus"),
    magic("hipkernel-bad-arch", "%%hipkernel --arch gfx9999\n__global__ void k() {}",
          match="gfx9999"),
    magic("hipkernel-empty-arch", "%%hipkernel --arch ,\n__global__ void k() {}", match="arch"),
    magic("hipkernel-bad-opt", "%%hipkernel -O 9\n__global__ void k() {}", match="-O"),
    magic("hipkernel-bad-define", "%%hipkernel -D 1X=2\n__global__ void k() {}", match="1X"),
    magic("hipkernel-bad-block", "%%hipkernel --block x\n__global__ void k() {}",
          match="--block"),
    magic("hipkernel-block-0", "%%hipkernel --block 0\n__global__ void k(float* x) {}",
          match="block"),
    magic("hipkernel-bad-show", "%%hipkernel --show all\n__global__ void k() {}",
          match="--show"),
    magic("hipkernel-unbalanced-quote", "%%hipkernel -D 'X=1\n__global__ void k() {}",
          match="cannot parse"),
    magic("hipkernel-time-unknown-chip",
          "%%hipkernel --time h100 --launch 'k[1, 64](x)'\n__global__ void k(float* x) {}",
          match="h100"),
    magic("hipkernel-launch-without-time",
          "%%hipkernel --launch 'k[1, 64](x)'\n__global__ void k(float* x) {}",
          match="--time"),
    magic("hipkernel-compile-error-cell-line", _BAD.format("k"), match="line 3"),
    magic("hipkernel-failed-cell-keeps-kernel", _K.format("k1"), "prev = k1", _BAD.format("k1"),
          match="line 3", check="k1 is prev"),
    magic("hipkernel-keeps-user-variable", "add = 5", _K.format("add"), expect="ok",
          check="add == 5 and type(add_kernel).__name__ == 'Kernel'"),
    magic("hipkernel-keeps-np-module", "import numpy as np", _K.format("np"), expect="ok",
          check="np.__name__ == 'numpy' and type(np_kernel).__name__ == 'Kernel'"),
    magic("hipkernel-keeps-function", "def f(): return 1", _K.format("f"), expect="ok",
          check="f() == 1 and type(f_kernel).__name__ == 'Kernel'"),
    magic("hipkernel-keyword-name", _K.format("lambda"), expect="ok",
          check="type(lambda_kernel).__name__ == 'Kernel'"),
    magic("hipkernel-builtin-name", _K.format("sum"), expect="ok",
          check="sum([1, 2]) == 3 and type(sum_kernel).__name__ == 'Kernel'"),
    magic("hipkernel-fallback-taken-too", "add = 1; add_kernel = 2", _K.format("add"),
          expect="ok", check="add == 1 and add_kernel == 2 and "
          "type(add_kernel2).__name__ == 'Kernel'"),
    magic("hipkernel-launch-wrong-dtype", _K.format("k"), "import numpy as np",
          "k[1, 64](np.zeros(64))", match="'x'"),
    magic("hipkernel-launch-fault-hides-frames",
          "%%hipkernel\n__global__ void k(float* x) { x[threadIdx.x + 4096] = 1.0f; }",
          "import numpy as np", "k[1, 64](np.zeros(64, np.float32))", match="lane"),
    magic("hipkernel-no-kernel-cell", "%%hipkernel\n// nothing here yet", expect="ok"),
    magic("hipfile-dotdot", "%%hipfile ../x.h\n#define X 1", match=".."),
    magic("hipfile-absolute", "p = tmp / 'user.h'; p.write_text('mine')",
          "%%hipfile {p}\n#define X 1", match="hipfile",
          check="p.read_text() == 'mine'"),
    magic("hipfile-subfolder", "%%hipfile a/b.h\n#define AB 7",
          "%%hipkernel\n#include \"a/b.h\"\n__global__ void k(int* x) { x[0] = AB; }",
          "import numpy as np; x = np.zeros(1, np.int32); k[1, 1](x); assert x[0] == 7",
          expect="ok"),
    magic("hipfile-no-name", "%%hipfile\n#define X 1", match="hipfile"),
    magic("hipfile-two-names", "%%hipfile a.h b.h\n#define X 1", match="hipfile"),
    magic("hipfile-newline-name",
          "get_ipython().run_cell_magic('hipfile', 'a\\nb.h', '#define X 1')", match="hipfile"),
    magic("hipfile-nul-name",
          "get_ipython().run_cell_magic('hipfile', 'a\\x00b.h', '#define X 1')",
          match="hipfile"),
    magic("hipfile-dotdot-inside", "%%hipfile a/../../x.h\n#define X 1", match=".."),
    magic("hipwb-unknown-subcommand", "%hipwb frobnicate", match="frobnicate"),
    magic("hipwb-arch-unknown", "%hipwb arch gfx9999", match="gfx9999"),
    magic("hipwb-arch-two-values", "%hipwb arch gfx942 gfx950", match="arch"),
    magic("hipwb-device-tpu", "%hipwb device tpu", match="tpu"),
    magic("hipwb-device-rocm-99", "%hipwb device rocm:99", match="device"),
    magic("hipwb-cache-purge", "%hipwb cache purge", match="purge"),
    magic("hipwb-traceback-maybe", "%hipwb traceback maybe", match="on or off"),
    magic("hipwb-unbalanced-quote", "%hipwb arch 'gfx942", match="cannot parse"),
    magic("magic-api-error-hides-frames", "import workbench as wb",
          "wb.occupancy_table('gfx942', block_size='256')", match="block_size"),
    # --- the hipwb command ----------------------------------------------------------------
    cli("cli-no-arguments", match="usage"),
    cli("cli-unknown-command", "frobnicate", match="frobnicate"),
    cli("cli-compile-missing-file", "compile", "{tmp}/missing.hip", match="missing.hip"),
    cli("cli-compile-directory", "compile", "{tmp}", match="no such file"),
    cli("cli-compile-bad-arch", "compile", "{tmp}/k.hip", "--arch", "gfx9999", match="gfx9999",
        files=[("k.hip", _SRC_OK)]),
    cli("cli-compile-empty-arch", "compile", "{tmp}/k.hip", "--arch", "", match="arch",
        files=[("k.hip", _SRC_OK)]),
    cli("cli-compile-unknown-flag", "compile", "{tmp}/k.hip", "--frob", match="--frob",
        files=[("k.hip", _SRC_OK)]),
    cli("cli-compile-bad-define", "compile", "{tmp}/k.hip", "-D", "1X", match="1X",
        files=[("k.hip", _SRC_OK)]),
    cli("cli-compile-define-newline", "compile", "{tmp}/k.hip", "-D", "A=1\n#error x",
        match="A", files=[("k.hip", _SRC_OK)]),
    cli("cli-compile-bad-opt", "compile", "{tmp}/k.hip", "-O", "9", match="-O",
        files=[("k.hip", _SRC_OK)]),
    cli("cli-compile-bad-block", "compile", "{tmp}/k.hip", "--block", "x", match="--block",
        files=[("k.hip", _SRC_OK)]),
    cli("cli-compile-block-0", "compile", "{tmp}/k.hip", "--block", "0", match="--block",
        files=[("k.hip", _SRC_OK)]),
    cli("cli-compile-undecodable", "compile", "{tmp}/bin.hip", match="bin.hip",
        files=[("bin.hip", b"\xff\xfe\x00\x81 __global__")]),
    cli("cli-compile-nul-bytes", "compile", "{tmp}/nul.hip", match="nul.hip",
        files=[("nul.hip", b"__global__ void k() {}\x00\x00")]),
    cli("cli-compile-syntax-error", "compile", "{tmp}/bad.hip", match="bad.hip:3", exit=1,
        files=[("bad.hip", "__global__ void k(float* x) {\n  x[0] = 1;\n  x[1] = oops;\n}\n")]),
    cli("cli-corpus-on-file", "corpus", "{tmp}/k.hip", match="not a folder",
        files=[("k.hip", _SRC_OK)]),
    cli("cli-corpus-missing", "corpus", "{tmp}/nowhere", match="not a folder"),
    cli("cli-corpus-bad-json", "corpus", "{tmp}/c", "--compile-commands", "{tmp}/cc.json",
        match="cc.json", files=[("c/k.hip", _SRC_OK), ("cc.json", "{not json")]),
    cli("cli-corpus-json-not-list", "corpus", "{tmp}/c", "--compile-commands", "{tmp}/cc.json",
        match="cc.json", files=[("c/k.hip", _SRC_OK), ("cc.json", '{"a": 1}')]),
    cli("cli-corpus-missing-json", "corpus", "{tmp}/c", "--compile-commands",
        "{tmp}/none.json", match="none.json", files=[("c/k.hip", _SRC_OK)]),
    cli("cli-corpus-jobs-0", "corpus", "{tmp}/c", "--jobs", "0", match="--jobs",
        files=[("c/k.hip", _SRC_OK)]),
    cli("cli-corpus-bad-arch", "corpus", "{tmp}/c", "--arch", "gfx9999", match="gfx9999",
        files=[("c/k.hip", _SRC_OK)]),
    cli("cli-doctor-unknown-flag", "doctor", "--frob", match="--frob"),
]

CASES = [*_CASES, *_SHELL_CASES]
