"""The ``dask`` backend (scale-out): the game range is cut into chunks played by dask
workers (separate processes, started with spawn, each with one numba thread), and the chunks
are stacked in game-index order (:func:`play`), or folded on the workers into tallies the
client merges (:func:`stream`, what ``sim run --backend dask`` uses: no full table ever
reaches the client). Results equal the local backend's bit for bit.

``address=None`` starts a LocalCluster of ``workers`` processes on this machine; give the
address of a running scheduler (``tcp://host:8786``) to use a real cluster whose workers have
``sim`` installed.
"""

from __future__ import annotations

import contextlib
from typing import Callable

import numpy as np

from sim.compile import CompiledRun


def _play_chunk(raw: dict, source: str, first_index: int, count: int) -> np.ndarray:
    """Worker task: validate and compile the config once (:func:`sim.compile.run_from_dict`),
    play ``count`` games from ``first_index`` on one thread; returns int32[count, C]."""
    import sim  # noqa: F401  (numba cache folder before numba loads)
    from sim.compile import run_from_dict
    from sim.runner import run_games, set_threads

    run = run_from_dict(raw, source)
    set_threads(1)
    return run_games(run, first_index=first_index, count=count)


def _fold_chunk(raw: dict, source: str, first_index: int, count: int, plan):
    """Worker task of :func:`stream`: play ``count`` games from ``first_index`` on one thread
    and fold them (:func:`sim.runner.fold_chunk`): returns the chunk's
    :class:`sim.runner.ChunkResult` (its tally, the parquet part it wrote into
    ``plan.folder``, which must be shared with the client, and its frame only with
    ``plan.keep_frame``), never the result matrix."""
    import time

    import sim  # noqa: F401  (numba cache folder before numba loads)
    from sim.api import tally_spec
    from sim.compile import run_from_dict
    from sim.runner import fold_chunk, run_games, set_threads

    try:
        run = run_from_dict(raw, source)
        set_threads(1)
        t0 = time.perf_counter()
        mat = run_games(run, first_index=first_index, count=count)
        play_s = time.perf_counter() - t0
        res = fold_chunk(run, tally_spec(run), first_index, mat, plan)
    except KeyboardInterrupt:
        # Ctrl-C signalled the whole process group and polars, unlike the kernels, checks for
        # it: the client is stopping the run; end the task without a worker traceback
        return None
    res.play_s = play_s
    return res


def stream(run: CompiledRun, workers: int | None = 2, on_chunk: Callable[[int], None] | None = None,
           plan=None, chunk: int | None = None, address: str | None = None):
    """Play every game of ``run`` on ``workers`` dask worker processes, each chunk folded on
    its worker (:func:`_fold_chunk`): the client receives chunk tallies (and parquet part
    paths) and merges them (:func:`sim.runner.collect`: exact, so the result equals the local
    backend's whatever order the chunks finish in). Returns :class:`sim.runner.Streamed`.
    ``chunk`` as :func:`play` (at most :data:`sim.runner.CHUNK`). A remote cluster
    (``address``) needs ``plan.folder`` on a file system its workers share with the client.

    Raises ImportError with an install hint when dask.distributed is missing."""
    from sim.runner import CHUNK, RowPlan, Streamed, collect, join

    plan = plan or RowPlan()
    cfg = run.cfg
    workers = workers or 2
    chunk = chunk or max(1000, min(cfg.batch_size, CHUNK, -(-cfg.games // (4 * workers))))
    starts = list(range(0, cfg.games, chunk))
    pending: list = []
    acc = [Streamed(None)]

    def task(client, s):
        return client.submit(_fold_chunk, cfg.raw, cfg.source, s, min(chunk, cfg.games - s), plan, pure=False)

    def done(res):
        # merged as chunks arrive: the client holds the running tally and small results only
        pending.append(res)
        if len(pending) >= 16:
            acc[0] = join(acc[0], collect(pending, plan), plan)
            pending.clear()
        if on_chunk is not None:
            on_chunk(res.count)

    _run_tasks(starts, task, done, workers, address)
    out = join(acc[0], collect(pending, plan), plan)
    out.parts.sort()  # part-<first index, zero-padded>.parquet: game-index order
    out.frames.sort(key=lambda f: int(f["game_index"][0]) if f.height else -1)
    return out


def play(run: CompiledRun, workers: int | None = 2, on_chunk: Callable[[int], None] | None = None,
         chunk: int | None = None, address: str | None = None) -> np.ndarray:
    """Play every game of ``run`` on ``workers`` dask worker processes (None: 2); returns
    int32[games, C]. ``chunk``: games per task (default about a quarter of a worker's share,
    1000 to ``batch_size``); ``on_chunk(n)`` is called as each chunk arrives.

    Raises ImportError with an install hint when dask.distributed is missing (it is the
    optional ``sim[dask]`` extra).
    """
    cfg = run.cfg
    workers = workers or 2
    chunk = chunk or max(1000, min(cfg.batch_size, -(-cfg.games // (4 * workers))))
    starts = list(range(0, cfg.games, chunk))
    def task(client, s):
        return client.submit(_play_chunk, cfg.raw, cfg.source, s, min(chunk, cfg.games - s), pure=False)

    def done(mat):
        if on_chunk is not None:
            on_chunk(mat.shape[0])

    got = _run_tasks(starts, task, done, workers, address, keyed=True)
    return np.concatenate([got[s] for s in starts], axis=0)


def _run_tasks(starts, task, done, workers, address, keyed: bool = False):
    """Submit ``task(client, start)`` for every start on a LocalCluster of ``workers``
    processes (or the scheduler at ``address``), call ``done(result)`` as each finishes;
    with ``keyed`` return {start: result}. Cancels and stops quietly on any error."""
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("the dask backend needs `pip install 'sim[dask]'` (dask[distributed])") from e
    cluster = None
    if address is None:
        # Ctrl-C at a terminal signals the whole process group: the worker processes ignore
        # SIGINT (inherited through spawn) and are stopped by this process, not by the signal,
        # so an interrupted run prints no worker tracebacks
        with _sigint_ignored():
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                   dashboard_address=":0", silence_logs=50)  # CRITICAL: a worker that loses the closed
            # scheduler on shutdown logs an ERROR traceback; failed chunks still raise through their futures
        client = Client(cluster)
    else:
        client = Client(address)
    futures: dict = {}
    out: dict = {}
    try:
        futures = {task(client, s): s for s in starts}
        for fut in as_completed(futures):
            res = fut.result()
            if keyed:
                out[futures[fut]] = res
            done(res)
            fut.release()
        return out
    except BaseException:
        # interrupted (KeyboardInterrupt, SIGTERM) or a failed chunk: cancel what is queued
        # and stop the workers quietly before the error propagates
        _quiet_logs()
        with contextlib.suppress(Exception):
            client.cancel(list(futures))
        raise
    finally:
        with contextlib.suppress(Exception):
            client.close(timeout=10)
        if cluster is not None:
            with contextlib.suppress(Exception):
                cluster.close(timeout=10)


@contextlib.contextmanager
def _sigint_ignored():
    """SIGINT ignored while the block runs (only in the main thread; else nothing changes)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


def _quiet_logs() -> None:
    """Silence distributed's loggers (a shutdown after an interrupt logs closed comms)."""
    import logging

    for name in ("distributed", "tornado", "asyncio"):
        logging.getLogger(name).setLevel(logging.CRITICAL)
