"""wb.sweep on real Dask: the embedded LocalCluster, shipped code objects, and a scheduler with
two worker processes of which one is killed mid-sweep (every row still comes back)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import workbench as wb
from workbench.sweeps import executor

from .test_sweep import SRC, inputs, launch, reference

distributed = pytest.importorskip("distributed")

# Dask worker processes and a scheduler port: one test of this module at a time, on one worker
pytestmark = pytest.mark.xdist_group("exclusive")

COLS = ["BLOCK", "VEC", "status", "vgprs", "exact", "modelled_us"]


def sweep(src, cluster, space=None, check=300, **kw):
    return wb.sweep(src, space or dict(BLOCK=[64, 128, 256], VEC=[1, 2]), launch=launch,
                    inputs=inputs, reference=reference, check_shape=(check,),
                    shapes=[(1 << 18,)], targets="mi300x", cluster=cluster, progress=False, **kw)


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("HIPWB_CACHE_DIR", str(tmp_path / "cache"))
    yield tmp_path / "cache"
    executor.close_local_clusters()


def test_local_cluster_gives_the_inline_rows(cache):
    src = SRC + "// local cluster\n"
    on_dask = sweep(src, None, workers=2)
    assert on_dask.attrs["ran"].startswith("Dask, 2 workers") and "shared cache" in \
        on_dask.attrs["ran"]
    assert on_dask["worker"].str.startswith("tcp://").all() or \
        on_dask["worker"].nunique() >= 1
    inline = sweep(src, "inline", cache=False)
    assert on_dask[COLS].equals(inline[COLS])


def test_workers_without_the_cache_folder_get_shipped_code_objects(cache, tmp_path,
                                                                    monkeypatch):
    own = tmp_path / "worker-cache"
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                       dashboard_address=None,
                                       env={"HIPWB_CACHE_DIR": str(own)})
    client = distributed.Client(cluster, set_as_default=False)
    try:
        monkeypatch.setattr(executor, "shares_cache", lambda client, base: False)
        res = sweep(SRC + "// shipped\n", client, space=dict(BLOCK=[64], VEC=[1, 2]))
        assert "code objects shipped" in res.attrs["ran"]
        assert (res["status"] == "ok").all() and res["exact"].all()
        # the worker compiled nothing: its own cache folder holds no code object
        assert not list(own.rglob("*.hsaco")) and not (own / "objects").exists()
    finally:
        client.close()
        cluster.close()


def _start(cmd, env):
    return subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)


def test_a_worker_killed_mid_sweep_loses_no_rows(cache, tmp_path):
    dask = str(Path(sys.executable).with_name("dask"))
    env = dict(os.environ)
    sched_file = tmp_path / "scheduler.json"
    procs = [_start([dask, "scheduler", "--scheduler-file", str(sched_file), "--port", "0",
                     "--no-dashboard", "--host", "127.0.0.1"], env)]
    try:
        deadline = time.time() + 60
        while not sched_file.exists() and time.time() < deadline:
            time.sleep(0.2)
        address = json.loads(sched_file.read_text())["address"]
        for name in ("w1", "w2"):
            procs.append(_start([dask, "worker", address, "--nthreads", "1", "--no-nanny",
                                 "--no-dashboard", "--name", name, "--host", "127.0.0.1"], env))
        client = distributed.Client(address, set_as_default=False)
        client.wait_for_workers(2, timeout=60)
        client.close()

        space = dict(BLOCK=[32, 64, 128, 256], VEC=[1, 2])    # 8 points
        out: dict = {}

        def go():
            # a check over 2^17 elements: each point takes a second or two
            out["res"] = sweep(SRC + "// killed worker\n", address, space=space, check=1 << 17)

        th = threading.Thread(target=go)
        th.start()
        rows_dir = cache / "sweeps"
        deadline = time.time() + 300
        while time.time() < deadline and not list(rows_dir.rglob("*.json")):
            time.sleep(0.02)
        done_before = len(list(rows_dir.rglob("*.json")))
        assert th.is_alive() and done_before < 8, "the sweep ended before the kill"
        procs[1].send_signal(signal.SIGKILL)      # worker w1, without a nanny to restart it
        procs[1].wait(timeout=30)
        th.join(timeout=600)
        res = out["res"]
        assert len(res) == 8 and (res["status"] == "ok").all(), res[["status", "error"]]
        assert sorted(zip(res["BLOCK"], res["VEC"])) == sorted(
            (b, v) for b in space["BLOCK"] for v in space["VEC"])
        assert res.attrs["evaluated"] == 8
        # the survivor finished the points after the kill, w1's unfinished one among them
        assert (res["worker"] == "w2").sum() >= 8 - done_before - 1
    finally:
        for p in procs:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)


INTERRUPTED = r'''
import signal
import sys
# Ctrl-C as in a terminal: a child of a pytest-xdist worker inherits SIGINT ignored (a Jupyter
# kernel started in that worker set it so), and Python keeps an ignored SIGINT ignored
signal.signal(signal.SIGINT, signal.default_int_handler)
sys.path.insert(0, sys.argv[1])
from test_sweep import SRC, inputs, launch, reference
import workbench as wb

if __name__ == "__main__":
    wb.sweep(SRC + "// interrupted\n", dict(BLOCK=[32, 64, 128, 256], VEC=[1, 2, 4]),
             launch=launch, inputs=inputs, reference=reference, check_shape=(1 << 17,),
             shapes=[(1 << 18,)], targets="mi300x", workers=2, progress=False)
'''


def test_ctrl_c_stops_the_sweep_and_keeps_the_finished_rows(cache, tmp_path):
    script = tmp_path / "interrupted.py"
    script.write_text(INTERRUPTED)
    proc = subprocess.Popen([sys.executable, str(script), str(Path(__file__).parent)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ))
    rows_dir = cache / "sweeps"
    deadline = time.time() + 300
    while time.time() < deadline and not list(rows_dir.rglob("*.json")) and proc.poll() is None:
        time.sleep(0.02)
    assert proc.poll() is None, proc.communicate()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode != 0 and "KeyboardInterrupt" in err
    done = len(list(rows_dir.rglob("*.json")))
    assert f"sweep interrupted: {done} of 12 points finished" in out
    assert 1 <= done < 12
    # running it again evaluates only what the interrupted run had not finished
    res = sweep(SRC + "// interrupted\n", None, space=dict(BLOCK=[32, 64, 128, 256],
                                                           VEC=[1, 2, 4]), check=1 << 17,
                workers=2)
    assert res.attrs["from_cache"] == done and res.attrs["evaluated"] == 12 - done
    assert (res["status"] == "ok").all()
