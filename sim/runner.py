"""The in-process primitive every backend calls: split a game range into batches, run the
game's kernel on each, gather the result matrix. Batch size and thread count never change
results: every game seeds its own streams from (seed, game index).

Which backend plays a whole run, and the timing, are :mod:`sim.backends` and
:func:`sim.api.run_config`; progress display is the CLI's."""

from __future__ import annotations

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
    """Play games ``first_index .. first_index + count - 1`` of ``run`` (default: every game)
    in batches of ``batch_size`` (default the config's ``batch_size``).

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
