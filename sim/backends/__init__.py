"""Registry of the backends that play a run's game range, by name -> module path.

Every backend module exposes the same function::

    play(run: CompiledRun, workers: int | None, on_chunk: Callable[[int], None] | None) -> np.ndarray

returning the result matrix int32[games, C] of the whole run (columns
``run.game.column_names(n_seats)``) and calling ``on_chunk(n)`` after each piece of ``n``
games. ``workers`` is the backend's parallelism: numba threads for ``local`` (None: all
cores), worker processes for ``dask``. Every game seeds its own streams from (seed, game
index), so every backend gives the same matrix bit for bit; tests prove it.

and a streaming form that folds chunks as they finish (what :func:`sim.api.run_config` uses)::

    stream(run, workers, on_chunk, plan: RowPlan, chunk: int | None) -> sim.runner.Streamed

returning the merged :class:`sim.tally.Tally` of every game, the parquet parts written
(``plan.folder``) and the frames kept (``plan.keep_frame``); the client never holds a
whole result matrix.

Backend modules import :mod:`sim.runner` (the in-process primitive), never each other nor
this registry; importing the registry itself is free (no numba).
"""

from __future__ import annotations

import importlib
from typing import Callable

BACKENDS: dict[str, str] = {
    "local": "sim.backends.local",
    "dask": "sim.backends.dask",
}


def get_backend(name: str) -> Callable:
    """The ``play`` function of the backend registered as ``name``; raises ValueError naming
    the registered backends for an unknown name."""
    if name not in BACKENDS:
        raise ValueError(f"unknown backend {name!r}; one of {', '.join(BACKENDS)}")
    return importlib.import_module(BACKENDS[name]).play


def get_stream(name: str) -> Callable:
    """The ``stream`` function of the backend registered as ``name`` (ValueError as
    :func:`get_backend`)."""
    if name not in BACKENDS:
        raise ValueError(f"unknown backend {name!r}; one of {', '.join(BACKENDS)}")
    return importlib.import_module(BACKENDS[name]).stream
