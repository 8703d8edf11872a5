"""Where a sweep's points run: on Dask (an embedded LocalCluster or any scheduler), or inline.

* ``cluster=None``: a ``distributed.LocalCluster`` of one single-threaded worker process per
  core (``workers=`` to choose), started on first use and kept for the session's next sweeps.
* ``cluster="tcp://host:8786"`` or a ``distributed.Client`` / cluster object: that scheduler's
  workers, however Dask deployed them (``dask scheduler`` + ``dask worker``, dask-ssh,
  dask-kubernetes, dask-jobqueue). They need hipwb and the same LLVM installed.
* ``cluster="inline"``: this process, one point after another (no Dask).

Workers that see the caller's cache folder (a probe file written here and looked for there) use
it: compiles and results are shared. Workers that do not get shipped code objects: this process
compiles each variant, fills in its disassembly, and sends the build with the task, so the
worker only emulates and models.

Rows come back through ``distributed.as_completed`` and are handed to ``on_rows`` as each point
finishes (the sweep caches them there). A worker that dies takes only its running points with
it: the scheduler reruns them elsewhere (distributed's own recovery), and rows already received
are kept. Ctrl-C cancels every pending point and re-raises; finished rows stay cached.
"""

from __future__ import annotations

import atexit
import os
import threading
import uuid
from collections.abc import Callable
from typing import Any

from ..errors import ArgumentTypeError, ArgumentValueError, HipwbError
from .point import Task, evaluate

__all__ = ["run", "local_client", "close_local_clusters"]

# Waiting longer for a scheduler that is not there only delays the message; a slow link can
# pass its own distributed.Client (connected with any timeout) as cluster=.
CONNECT_TIMEOUT = "5s"
_LOCAL: dict[int, Any] = {}     # workers -> Client of the embedded LocalCluster
_LOCK = threading.Lock()


class SweepClusterError(HipwbError, RuntimeError):
    """The Dask cluster could not be reached or started."""


def _need_distributed():
    try:
        import distributed
    except ImportError:
        raise SweepClusterError(
            "wb.sweep runs its points on Dask, which is not installed: pip install "
            "'hip-workbench[sweep]' (or pass cluster='inline' to run them here, one by one)"
        ) from None
    return distributed


def local_client(workers: int | None = None):
    """The session's embedded LocalCluster client with ``workers`` processes (default: cores)."""
    import multiprocessing

    distributed = _need_distributed()
    if multiprocessing.parent_process() is not None:
        # a worker process re-running a script's top level (spawn): it must not start a cluster
        raise SweepClusterError(
            "wb.sweep was called while a process started by multiprocessing imported the "
            "script: put the script's sweep under `if __name__ == \"__main__\":` (Dask starts "
            "its worker processes by re-importing the main module)")
    n = workers or os.cpu_count() or 1
    with _LOCK:
        client = _LOCAL.get(n)
        if client is not None and client.status == "running":
            return client
        import logging

        import dask

        # No dashboard; the scheduler's HTTP endpoints on a free port (not 8787, which another
        # Dask may hold: that costs a warning in the notebook). No statistical profiler in the
        # workers: it samples the running task's stack every 10 ms, which slowed the
        # emulator's pure-Python loops by about a third (tests/bench/sweep.py).
        with dask.config.set({"distributed.worker.profile.enabled": False,
                              # the event loop's health tick (20 ms) and the system monitor
                              # (500 ms) wake the worker's event-loop thread, which takes the
                              # GIL from the point being emulated
                              "distributed.admin.tick.interval": "500ms",
                              "distributed.admin.system-monitor.interval": "2s"}):
            cluster = distributed.LocalCluster(
                n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None,
                silence_logs=logging.ERROR, scheduler_kwargs={"dashboard_address": ":0"})
        client = distributed.Client(cluster, set_as_default=False)
        _LOCAL[n] = client
        return client


def close_local_clusters() -> None:
    """Shut the embedded clusters down (at exit, or to free the cores)."""
    with _LOCK:
        for client in _LOCAL.values():
            try:
                cluster = client.cluster
                client.close()
                if cluster is not None:
                    cluster.close()
            except Exception:
                pass
        _LOCAL.clear()


atexit.register(close_local_clusters)


def _client(cluster: Any, workers: int | None):
    """(client, owned): the client to use and whether this call must close it."""
    distributed = _need_distributed()
    if cluster is None or cluster == "local":
        return local_client(workers), False
    if isinstance(cluster, distributed.Client):
        return cluster, False
    if isinstance(cluster, str):
        try:
            return distributed.Client(cluster, timeout=CONNECT_TIMEOUT, set_as_default=False), \
                True
        except (OSError, TimeoutError) as e:
            raise SweepClusterError(f"cluster={cluster!r}: no Dask scheduler answered within "
                                    f"{CONNECT_TIMEOUT} ({e}); start one with `dask scheduler` "
                                    f"and workers with `dask worker {cluster}`") from None
    if hasattr(cluster, "scheduler_address"):
        return distributed.Client(cluster, set_as_default=False), True
    raise ArgumentTypeError(f"cluster must be None, 'inline', a scheduler address "
                            f"('tcp://host:8786'), a distributed.Client or a cluster object, got "
                            f"{type(cluster).__name__}")


def _sees(path: str, token: str) -> bool:
    try:
        with open(path) as f:
            return f.read() == token
    except OSError:
        return False


def shares_cache(client: Any, base: str) -> bool:
    """Whether every worker sees this process's cache folder (a probe file written here)."""
    os.makedirs(base, exist_ok=True)
    token = uuid.uuid4().hex
    probe = os.path.join(base, f".sweep-probe-{token}")
    try:
        with open(probe, "w") as f:
            f.write(token)
        seen = client.run(_sees, probe, token)
        return bool(seen) and all(seen.values())
    except OSError:
        return False
    finally:
        try:
            os.unlink(probe)
        except OSError:
            pass


def ship(task: Task) -> Task | None:
    """``task`` with its build attached (compiled here, disassembly filled in), or None when it
    does not compile here (the task then runs inline, to report the error)."""
    import dataclasses

    from .point import build, resolve_target

    _, arch, _ = resolve_target(task.target)
    try:
        module = build(task.spec, arch, task.params)
        co = module[arch]
        _ = co.elf           # read now: the worker has no access to this path
        co.disassembly()
        for name in co.kernels:
            co.listing(name)
    except Exception:
        return None
    return dataclasses.replace(task, module=module, toolchain="")


def run(tasks: list[Task], cluster: Any, workers: int | None,
        on_rows: Callable[[int, list[dict]], None], base: str,
        announce: Callable[[str], None] = lambda how: None) -> str:
    """Evaluate ``tasks``; ``on_rows(i, rows)`` as each finishes. Returns how they ran."""
    if not tasks:
        return "nothing to run"
    if isinstance(cluster, str) and cluster == "inline":
        announce("inline, in this process")
        for i, t in enumerate(tasks):
            on_rows(i, evaluate(t))
        return "inline, in this process"
    if workers is not None and (not isinstance(workers, int) or workers < 1):
        raise ArgumentValueError(f"workers must be a positive int, got {workers!r}")
    client, owned = _client(cluster, workers)
    spec = tasks[0].spec
    pickle_by_value(spec.launch, spec.inputs, spec.reference, spec.flops)
    try:
        shared = shares_cache(client, base)
        how = f"Dask, {len(client.scheduler_info().get('workers', {}))} workers at " \
              f"{client.scheduler.address}, " + ("shared cache folder" if shared else
                                                  "code objects shipped")
        announce(how)
        return _submit(client, tasks, on_rows, shared, base, how)
    finally:
        if owned:
            client.close()


def _submit(client: Any, tasks: list[Task], on_rows, shared: bool, base: str, how: str) -> str:
    import dataclasses

    from distributed import as_completed

    futures: dict[Any, int] = {}
    try:
        for i, t in enumerate(tasks):
            if shared:
                t = dataclasses.replace(t, cache_base=base)
            else:
                shipped = ship(t)
                if shipped is None:
                    on_rows(i, evaluate(t))
                    continue
                t = shipped
            # pure=False: a point reruns when asked, even with identical arguments
            futures[client.submit(evaluate_packed, pack(t), pure=False,
                                  key=f"sweep-{t.key[:16]}-{i}")] = i
        for fut in as_completed(list(futures), loop=client.loop):
            i = futures[fut]
            try:
                rows = fut.result()
            except Exception as e:     # the point's worker died too often (KilledWorker), ...
                rows = _failed(tasks[i], e)
            on_rows(i, rows)
    except KeyboardInterrupt:
        client.cancel(list(futures))
        raise
    return how


def pack(task: Task) -> bytes:
    """The task as cloudpickle bytes: distributed pickles a task with plain pickle first, which
    sends the user's functions by module path; cloudpickle with ``pickle_by_value`` sends them
    whole."""
    import cloudpickle

    return cloudpickle.dumps(task)


def evaluate_packed(blob: bytes) -> list[dict]:
    """``evaluate`` of a packed task (runs on the worker)."""
    import cloudpickle

    return evaluate(cloudpickle.loads(blob))


def _failed(task: Task, e: BaseException) -> list[dict]:
    from ..sweep_rules import shape_label
    from .point import resolve_target

    label, arch, _ = resolve_target(task.target)
    shapes = task.spec.shapes or ((),)
    text = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
    if "deserializ" in text.lower():
        text += (" -- the worker could not load the sweep's task: its functions (launch, "
                 "inputs, reference) must be importable there, or defined in the notebook or "
                 "script itself; the workers need hipwb installed")
    return [dict(task.params, target=label, arch=arch, status="worker error", error=text,
                 compiled=False, shape=shape_label(s)) for s in shapes]


def pickle_by_value(*fns: Any) -> None:
    """Send the user's functions to the workers by value (cloudpickle), not as a module path
    the workers may not be able to import (a test file, a script beside the notebook)."""
    import sys

    try:
        import cloudpickle
    except ImportError:
        return
    for fn in fns:
        name = getattr(getattr(fn, "__func__", fn), "__module__", None)
        mod = sys.modules.get(name) if name else None
        path = getattr(mod, "__file__", None) or ""
        if mod is None or name == "__main__" or not path or "site-packages" in path or \
                name.split(".")[0] in ("workbench", "numpy", "torch", "builtins"):
            continue
        try:
            cloudpickle.register_pickle_by_value(mod)
        except (ValueError, TypeError):
            pass
