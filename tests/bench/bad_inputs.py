"""The bad-input audit (issue 24): every case of ``tests/bad_input_cases.py`` — bad or hostile
inputs to the public API, the magics (in a real IPython shell) and the ``hipwb`` command — run
in its own subprocess with a time limit (no result in ``--timeout`` seconds: "hang") and an
address-space limit (RLIMIT_AS), then a table of counts: ok / clear / internal / hang / crash /
silent / data-lost (and "known": cases marked as left failing, with their reason), followed by
the output of every case that is neither ok nor clear.

Why subprocesses: a hang, a segfault or a runaway allocation must count as what it is, not
stop the audit. The kernels the cases launch are compiled once here into a private cache
(HIPWB_CACHE_DIR in a temporary folder) so a child's compile is a cache hit.

    .venv/bin/python tests/bench/bad_inputs.py [--timeout 10] [--mem-gib 6] [-j 2] [-k SUBSTR]
    .venv/bin/python tests/bench/bad_inputs.py --one CASE_ID   # one case, in this process
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent
sys.path.insert(0, str(TESTS))

from bad_input_cases import CASES, KERNELS  # noqa: E402
from bad_input_runner import OUTCOMES, Modules, classify_cli, cli_argv, run_case  # noqa: E402

MARK = "@@bad-input-result "


def _one(case_id: str, tmp: Path) -> None:
    """Run one case here and print its result as one JSON line (the child's side)."""
    case = next(c for c in CASES if c.id == case_id)
    shell = None
    if case.kind == "magic":
        from IPython.core.interactiveshell import InteractiveShell

        shell = InteractiveShell.instance()
        shell.run_line_magic("load_ext", "workbench")
    try:
        res = run_case(case, Modules(), tmp, shell)
        outcome, output = res.outcome, res.output
    except MemoryError:
        outcome, output = "crash", "MemoryError in the runner"
    print(MARK + json.dumps({"outcome": outcome, "output": output[-4000:]}), flush=True)


def _limits(mem_bytes: int):
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (mem_bytes, mem_bytes))
    return apply


def _child(case, timeout: float, mem: int, env: dict) -> tuple[str, str, float]:
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="hipwb-bad-") as d:
        tmp = Path(d)
        if case.kind == "cli":
            argv = [str(ROOT / ".venv" / "bin" / "hipwb"), *cli_argv(case, tmp)]
        else:
            argv = [sys.executable, __file__, "--one", case.id, "--tmp", d]
        try:
            p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, env=env,
                               cwd=d, preexec_fn=_limits(mem), errors="replace")
        except subprocess.TimeoutExpired:
            return "hang", f"no result in {timeout} s", time.perf_counter() - t0
    dt = time.perf_counter() - t0
    if p.returncode < 0:
        return "crash", f"killed by signal {-p.returncode}\n{p.stderr[-2000:]}", dt
    if case.kind == "cli":
        out = f"exit {p.returncode}\n{p.stderr[-2000:]}"
        return classify_cli(case, p.returncode, p.stderr), out, dt
    for line in p.stdout.splitlines():
        if line.startswith(MARK):
            r = json.loads(line[len(MARK):])
            return r["outcome"], r["output"], dt
    tail = (p.stdout[-1000:] + p.stderr[-2000:])
    if "MemoryError" in tail:
        return "crash", tail, dt
    kind = "internal" if "Traceback" in tail else "crash"
    return kind, f"exit {p.returncode}, no result\n{tail}", dt


def _warm(env: dict, cases: list) -> None:
    """Compile every kernel the cases use into the private cache: ``KERNELS``, and the cells of
    the magic cases (run here once in a shell of our own, their output dropped)."""
    os.environ.update(env)
    import workbench as wb

    for src, arch in KERNELS.values():
        wb.compile(src, arch)
    magic = [c for c in cases if c.kind == "magic" and any("%%hipkernel" in x for x in c.code)]
    if magic:
        from IPython.core.interactiveshell import InteractiveShell

        shell = InteractiveShell.instance()
        shell.run_line_magic("load_ext", "workbench")
        with tempfile.TemporaryDirectory() as d:
            for c in magic:
                run_case(c, Modules(), Path(d), shell)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--one", help=argparse.SUPPRESS)
    ap.add_argument("--tmp", help=argparse.SUPPRESS)
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--mem-gib", type=float, default=6.0)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("-k", dest="select", help="only cases whose id holds this text")
    args = ap.parse_args()
    if args.one:
        _one(args.one, Path(args.tmp))
        return 0
    t0 = time.perf_counter()
    cache = tempfile.mkdtemp(prefix="hipwb-bad-cache-")
    env = {**os.environ, "HIPWB_CACHE_DIR": cache, "PYTHONPATH": str(ROOT)}
    cases = [c for c in CASES if not args.select or args.select in c.id]
    _warm(env, cases)
    print(f"{len(cases)} cases ({sum(c.kind == 'api' for c in cases)} API, "
          f"{sum(c.kind == 'magic' for c in cases)} magic, {sum(c.kind == 'cli' for c in cases)}"
          f" CLI); warm cache {time.perf_counter() - t0:.1f} s", flush=True)
    mem = int(args.mem_gib * 2**30)
    with ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda c: _child(c, args.timeout, mem, env), cases))
    counts = dict.fromkeys((*OUTCOMES, "known"), 0)
    bad = []
    for case, (outcome, output, dt) in zip(cases, results):
        good = outcome in ("ok", "clear")
        if case.known and not good:
            counts["known"] += 1
            bad.append((case, f"known ({case.known}): {outcome}", output, dt))
            continue
        counts[outcome] += 1
        if not good:
            bad.append((case, outcome, output, dt))
        elif case.known:
            bad.append((case, f"{outcome}, though marked known: unmark it", "", dt))
    for case, outcome, output, dt in bad:
        print(f"\n=== {case.id} [{case.kind}] -> {outcome} ({dt:.1f} s); expected "
              f"{case.expect}{f' naming {case.match!r}' if case.match else ''}")
        print(output.strip()[-1500:])
    slow = sorted(zip(results, cases), key=lambda rc: -rc[0][2])[:5]
    print("\nslowest: " + ", ".join(f"{c.id} {r[2]:.1f} s" for r, c in slow))
    print("\n" + " | ".join(f"{k:>9}" for k in counts))
    print(" | ".join(f"{v:>9}" for v in counts.values()))
    print(f"{len(cases)} cases in {time.perf_counter() - t0:.0f} s wall")
    return 0 if all(o in ("ok", "clear") for o, _, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
