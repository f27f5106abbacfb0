"""Split a run's game range into batches, run the game's kernel on each, gather the
result matrix. Batch size and thread count never change results: every game seeds its
own streams from (seed, game index)."""

from __future__ import annotations

import time
from typing import Callable

import numpy as np

from sim.compile import CompiledRun


def set_threads(threads: int | None) -> int:
    """Set numba's worker count (None: all cores); returns the count in force.

    Raises ValueError when ``threads`` is < 1 or above the cores numba can use.
    """
    import numba

    if threads is not None:
        if threads < 1 or threads > numba.config.NUMBA_NUM_THREADS:
            raise ValueError(f"threads must be 1..{numba.config.NUMBA_NUM_THREADS}, got {threads}")
        numba.set_num_threads(threads)
    else:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    return numba.get_num_threads()


def run_games(
    run: CompiledRun,
    first_index: int = 0,
    count: int | None = None,
    batch_size: int | None = None,
    on_batch: Callable[[int], None] | None = None,
) -> np.ndarray:
    """Play games ``first_index .. first_index + count - 1`` of ``cfg``.

    Returns the result matrix int32[count, C] (columns ``run.game.column_names(n_seats)``).
    ``on_batch(n)`` is called after each batch with the number of games it played.
    """
    cfg, gdef = run.cfg, run.game
    count = cfg.games if count is None else count
    batch = batch_size or cfg.batch_size
    play_batch = gdef.play_batch
    ncol = len(gdef.column_names(cfg.n_seats))
    out = np.zeros((count, ncol), dtype=np.int32)
    start = 0
    while start < count:
        n = min(batch, count - start)
        play_batch(run.spec, run.entry_policy, run.entry_weights, run.perms, np.int64(cfg.seed),
                        np.int64(first_index + start), np.int64(n), out[start:start + n])
        start += n
        if on_batch is not None:
            on_batch(n)
    return out


def timed_run(run: CompiledRun, progress: bool = False, backend: str = "local",
              workers: int = 2) -> tuple[np.ndarray, float]:
    """Play the whole run on ``backend`` ("local": numba threads here; "dask": ``workers``
    processes, see :mod:`sim.backends.dask`) with an optional rich progress bar (games/s,
    ETA). Returns (matrix, wall seconds)."""
    cfg = run.cfg
    t0 = time.perf_counter()

    def play(on_batch=None):
        if backend == "dask":
            from sim.backends.dask import run_games_dask

            return run_games_dask(run, workers=workers, on_chunk=on_batch)
        # the first batch also compiles (or loads) the kernel: keep batches small enough
        # that a progress bar moves
        return run_games(run, batch_size=min(cfg.batch_size, 16384) if on_batch else None,
                         on_batch=on_batch)

    if not progress:
        out = play()
        return out, time.perf_counter() - t0
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    class Rate(TextColumn):
        def render(self, task):  # games per second so far
            el = task.elapsed or 0.0
            rate = task.completed / el if el > 0 else 0.0
            from rich.text import Text
            return Text(f"{rate:,.0f} games/s")

    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  Rate(""), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                  transient=False) as bar:
        task = bar.add_task(cfg.run_name, total=cfg.games)
        out = play(lambda n: bar.advance(task, n))
    return out, time.perf_counter() - t0
