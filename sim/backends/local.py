"""The ``local`` backend: every game of the run on numba threads in this process
(:func:`sim.runner.run_games`)."""

from __future__ import annotations

from typing import Callable

import numpy as np

from sim.compile import CompiledRun
from sim.runner import CHUNK, RowPlan, Streamed, run_games, set_threads, stream_run

PROGRESS_BATCH = 16384


def play(run: CompiledRun, workers: int | None = None,
         on_chunk: Callable[[int], None] | None = None) -> np.ndarray:
    """Play every game of ``run`` on ``workers`` numba threads (None: all cores); returns
    int32[games, C]. With ``on_chunk`` the batches are at most :data:`PROGRESS_BATCH` games
    (the first batch also compiles or loads the kernel, so a progress bar moves early);
    batch size never changes results. Raises ValueError for an impossible thread count."""
    set_threads(workers)
    batch = min(run.cfg.batch_size, PROGRESS_BATCH) if on_chunk is not None else None
    return run_games(run, batch_size=batch, on_batch=on_chunk)


def stream(run: CompiledRun, workers: int | None = None, on_chunk: Callable[[int], None] | None = None,
           plan: RowPlan | None = None, chunk: int | None = None) -> Streamed:
    """Play every game of ``run`` on ``workers`` numba threads in chunks of ``chunk`` games
    (default :data:`sim.runner.CHUNK`), folding each into the tally and the rows of ``plan``
    (:func:`sim.runner.stream_run`); batches as :func:`play`."""
    from sim.api import tally_spec

    set_threads(workers)
    batch = min(run.cfg.batch_size, PROGRESS_BATCH) if on_chunk is not None else None
    return stream_run(run, tally_spec(run), plan or RowPlan(), chunk=chunk or CHUNK, batch_size=batch,
                      on_batch=on_chunk)
