"""Scale-out backend: the game range is cut into chunks played by dask workers (separate
processes, started with spawn, each with one numba thread), and the chunks are stacked in
game-index order. Results equal the local backend's bit for bit.

``address=None`` starts a LocalCluster of ``workers`` processes on this machine; give the
address of a running scheduler (``tcp://host:8786``) to use a real cluster whose workers have
``sim`` installed.
"""

from __future__ import annotations

import numpy as np


def _play_chunk(raw: dict, source: str, first_index: int, count: int) -> np.ndarray:
    """Worker task: validate the config again, compile, play ``count`` games from
    ``first_index`` on one thread; returns int32[count, C]."""
    import sim  # noqa: F401  (numba cache folder before numba loads)
    from sim.compile import run_from_dict
    from sim.runner import run_games, set_threads

    run = run_from_dict(raw, source)
    set_threads(1)
    return run_games(run, first_index=first_index, count=count)


def run_games_dask(run, workers: int = 2, chunk: int | None = None, address: str | None = None,
                   on_chunk=None) -> np.ndarray:
    """Play every game of ``run`` (a CompiledRun) on dask workers; returns int32[games, C].

    Raises ImportError with an install hint when dask.distributed is missing.
    """
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("the dask backend needs `pip install 'sim[dask]'` (dask[distributed])") from e
    cfg = run.cfg
    chunk = chunk or max(1000, min(cfg.batch_size, -(-cfg.games // (4 * workers))))
    starts = list(range(0, cfg.games, chunk))
    cluster = None
    if address is None:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=":0", silence_logs=40)
        client = Client(cluster)
    else:
        client = Client(address)
    try:
        futures = {client.submit(_play_chunk, cfg.raw, cfg.source, s, min(chunk, cfg.games - s), pure=False): s
                   for s in starts}
        parts: dict[int, np.ndarray] = {}
        for fut in as_completed(futures):
            parts[futures[fut]] = fut.result()
            if on_chunk is not None:
                on_chunk(parts[futures[fut]].shape[0])
        return np.concatenate([parts[s] for s in starts], axis=0)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
