"""The ``local`` backend: every game of the run on numba threads in this process
(:func:`sim.runner.run_games`)."""

from __future__ import annotations

from typing import Callable

import numpy as np

from sim.compile import CompiledRun
from sim.runner import CHUNK, RowPlan, Streamed, run_games, set_threads, stream_run


def play(run: CompiledRun, workers: int | None = None,
         on_chunk: Callable[[int], None] | None = None) -> np.ndarray:
    """Play every game of ``run`` on ``workers`` numba threads (None: all cores); returns
    int32[games, C]. The kernel calls are sized by time (:class:`sim.runner.Pacer`: about half
    a second each, so Ctrl-C is honoured and ``on_chunk`` called that often); the call size
    never changes results. Raises ValueError for an impossible thread count."""
    set_threads(workers)
    return run_games(run, on_batch=on_chunk)


def stream(run: CompiledRun, workers: int | None = None, on_chunk: Callable[[int], None] | None = None,
           plan: RowPlan | None = None, chunk: int | None = None) -> Streamed:
    """Play every game of ``run`` on ``workers`` numba threads in chunks of ``chunk`` games
    (default :data:`sim.runner.CHUNK`), folding each into the tally and the rows of ``plan``
    (:func:`sim.runner.stream_run`); batches as :func:`play`."""
    from sim.api import tally_spec

    set_threads(workers)
    return stream_run(run, tally_spec(run), plan or RowPlan(), chunk=chunk or CHUNK, on_batch=on_chunk)
