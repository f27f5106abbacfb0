"""The in-process primitive every backend calls: split a game range into batches, run the
game's kernel on each, gather the result matrix. Batch size and thread count never change
results: every game seeds its own streams from (seed, game index).

Which backend plays a whole run, and the timing, are :mod:`sim.backends` and
:func:`sim.api.run_config`; progress display is the CLI's."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

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


CALL_SECONDS = 0.5
"""Target wall time of one kernel call (:class:`Pacer`): Python honours a signal (Ctrl-C,
SIGTERM) only between two calls, and the progress bar moves after each."""


class Pacer:
    """Kernel calls sized by time, not by a fixed game count: the first call plays a few games
    a thread, each later one about :data:`CALL_SECONDS` of games at the speed the calls so far
    measured (at most 8 times the previous call, at most ``cap`` games: the config's
    ``batch_size``). A call of the Now Boarding planner team used to play 65,536 games, about
    87 s before Ctrl-C took effect. The call size never changes a result (every game seeds its
    own streams from (seed, game index))."""

    def __init__(self, cap: int, target: float = CALL_SECONDS, first: int | None = None):
        import numba

        self.cap = max(1, int(cap))
        self.target = float(target)
        self.n = max(1, min(self.cap, first if first is not None else 8 * numba.get_num_threads()))

    def take(self, remaining: int) -> int:
        """Games for the next call (at most ``remaining``)."""
        return max(1, min(self.n, remaining))

    def played(self, n: int, seconds: float) -> None:
        """Record that a call of ``n`` games took ``seconds``; sizes the next call."""
        want = self.cap if seconds <= 0 else int(n / seconds * self.target)
        self.n = max(1, min(self.cap, want, 8 * max(n, 1)))


def run_games(
    run: CompiledRun,
    first_index: int = 0,
    count: int | None = None,
    batch_size: int | None = None,
    on_batch: Callable[[int], None] | None = None,
    pacer: Pacer | None = None,
) -> np.ndarray:
    """Play games ``first_index .. first_index + count - 1`` of ``run`` (default: every game)
    in kernel calls of ``batch_size`` games; without ``batch_size`` the calls are sized by
    time (``pacer``, default a new :class:`Pacer` capped at the config's ``batch_size``).

    Returns the result matrix int32[count, C] (columns ``run.game.column_names(n_seats)``).
    ``on_batch(n)`` is called after each call with the number of games it played.
    """
    import time

    cfg, gdef = run.cfg, run.game
    count = cfg.games if count is None else count
    if batch_size is None and pacer is None:
        pacer = Pacer(cfg.batch_size)
    play_batch = gdef.play_batch
    ncol = len(gdef.column_names(cfg.n_seats))
    out = np.zeros((count, ncol), dtype=np.int32)
    start = 0
    while start < count:
        n = min(batch_size, count - start) if batch_size else pacer.take(count - start)
        t0 = time.perf_counter()
        play_batch(run.spec, run.entry_policy, run.entry_weights, run.perms, np.int64(cfg.seed),
                   np.int64(first_index + start), np.int64(n), out[start:start + n])
        if not batch_size:
            pacer.played(n, time.perf_counter() - t0)
        start += n
        if on_batch is not None:
            on_batch(n)
    return out


# ------------------------------------------------------------------------------- streaming

CHUNK = 65_536
"""Games per chunk of a streamed run (:func:`stream_run`): the only per-game arrays alive
are one chunk's result matrix and its frame. The chunk size never changes a result."""
LONGEST = 1000
"""A sampled games.parquet keeps this many of the longest games beyond the sample."""


@dataclass
class RowPlan:
    """Which rows of a streamed run are kept: ``folder`` (parquet part files go there; None =
    no rows written), ``every`` (a game is written when ``game_index % every == 0`` or it
    stalled; 1 = every game), ``longest`` (with ``every > 1``, also the ``longest`` longest
    games, most turns then lowest index) and ``keep_frame`` (keep every chunk's frame in
    memory: small runs, for paired comparisons and ``sim replay``)."""

    folder: Path | None = None
    every: int = 1
    longest: int = LONGEST
    keep_frame: bool = False


@dataclass
class ChunkResult:
    """One folded chunk: its first game index and size, its :class:`sim.tally.Tally`, the
    parquet part it wrote (or None), its frame (``keep_frame``) and its longest unsampled
    games (``every > 1``)."""

    first: int
    count: int
    tally: Any
    part: str | None = None
    frame: Any = None
    longest: Any = None
    rows: int = 0
    play_s: float = 0.0


def _longest(df, n: int):

    return df.sort(["turns", "game_index"], descending=[True, False]).head(n) if n else df.clear()


def fold_chunk(run: CompiledRun, spec: list, first: int, matrix: np.ndarray, plan: RowPlan) -> ChunkResult:
    """Fold the result matrix int32[count, C] of games ``first ..`` into a
    :class:`ChunkResult`: the tally of ``spec`` (:func:`sim.api.tally_spec`), the rows of
    ``plan`` written to ``plan.folder/part-<first>.parquet`` (zstd)."""
    import polars as pl

    from sim.tally import Tally

    df = games_frame(run, matrix, first)
    res = ChunkResult(first, df.height, Tally.of_frame(df, spec))
    if plan.folder is not None:
        sel = df
        if plan.every > 1:
            keep = (pl.col("game_index") % plan.every == 0) | (pl.col("stalled") != 0)
            sel = df.filter(keep)
            res.longest = _longest(df.filter(~keep), plan.longest)
        path = Path(plan.folder) / f"part-{first:019d}.parquet"
        try:
            sel.write_parquet(path, compression="zstd")
        except (OSError, pl.exceptions.PolarsError):
            if Path(plan.folder).is_dir():
                raise
            return res  # the run was abandoned (interrupted) and its folder removed: nothing to keep
        res.part, res.rows = str(path), sel.height
    if plan.keep_frame:
        res.frame = df
    return res


def merge_longest(a, b, n: int):
    """The ``n`` longest rows of two frames (most turns, then the lowest game index)."""
    import polars as pl

    if a is None:
        return b
    if b is None:
        return a
    return _longest(pl.concat([a, b], how="vertical_relaxed"), n)


@dataclass
class Streamed:
    """A streamed run: the merged ``tally``, the parquet ``parts`` in game-index order, the
    ``longest`` extra rows, the ``frames`` kept (``keep_frame``), rows written and the kernel
    seconds."""

    tally: Any
    parts: list[str] = field(default_factory=list)
    longest: Any = None
    frames: list = field(default_factory=list)
    rows: int = 0
    play_s: float = 0.0


def collect(results, plan: RowPlan) -> Streamed:
    """Fold :class:`ChunkResult` s (any order) into one :class:`Streamed`: tallies merged
    (exact, order-free), parts and frames in game-index order."""
    from sim.tally import merge_tallies

    results = sorted(results, key=lambda r: r.first)
    out = Streamed(merge_tallies([r.tally for r in results]))
    for r in results:
        if r.part:
            out.parts.append(r.part)
        out.rows += r.rows
        out.longest = merge_longest(out.longest, r.longest, plan.longest)
        if r.frame is not None:
            out.frames.append(r.frame)
        out.play_s += r.play_s
    return out


def stream_run(run: CompiledRun, spec: list, plan: RowPlan, chunk: int = CHUNK, batch_size: int | None = None,
               on_batch: Callable[[int], None] | None = None) -> Streamed:
    """Play every game of ``run`` here, ``chunk`` games at a time (kernel calls of
    ``batch_size`` games, or sized by time when None: one :class:`Pacer` for the run), folding each chunk (:func:`fold_chunk`) as it finishes: memory holds one
    chunk's matrix and frame, the running tally and the kept rows of ``plan``. Tallies are
    merged every 16 chunks (exact: the result does not depend on ``chunk``)."""
    import time

    from sim.tally import merge_tallies

    cfg = run.cfg
    pending: list[ChunkResult] = []
    acc = Streamed(None)
    pacer = None if batch_size else Pacer(cfg.batch_size)  # one pace for the whole run
    start = 0
    while start < cfg.games:
        n = min(chunk, cfg.games - start)
        t0 = time.perf_counter()
        mat = run_games(run, first_index=start, count=n, batch_size=min(batch_size, n) if batch_size else None,
                        on_batch=on_batch, pacer=pacer)
        play = time.perf_counter() - t0
        r = fold_chunk(run, spec, start, mat, plan)
        r.play_s = play
        del mat
        pending.append(r)
        if len(pending) >= 16:
            part = collect(pending, plan)
            acc = join(acc, part, plan)
            pending = []
        start += n
    acc = join(acc, collect(pending, plan), plan)
    if acc.tally is None:
        acc.tally = merge_tallies([])
    return acc


def join(a: Streamed, b: Streamed, plan: RowPlan) -> Streamed:
    """Two :class:`Streamed` of disjoint game ranges as one (``a``'s parts first)."""
    from sim.tally import merge_tallies

    return Streamed(merge_tallies([a.tally, b.tally]), a.parts + b.parts, merge_longest(a.longest, b.longest,
                    plan.longest), a.frames + b.frames, a.rows + b.rows, a.play_s + b.play_s)


def games_frame(run: CompiledRun, matrix: np.ndarray, first_index: int = 0):
    """polars DataFrame of a result matrix: ``game_index`` (int64), ``policy_s<i>`` (the
    label of the seat entry playing seat i in that game), then the game's columns."""
    import polars as pl

    cfg, gdef, perms, labels = run.cfg, run.game, run.perms, run.labels
    n = matrix.shape[0]
    gi = np.arange(first_index, first_index + n, dtype=np.int64)
    cols: dict[str, Any] = {"game_index": gi}
    lab = np.array(labels, dtype=object)
    rows = perms[gi % perms.shape[0]]
    for s in range(cfg.n_seats):
        cols[f"policy_s{s}"] = pl.Series(lab[rows[:, s]].tolist(), dtype=pl.Categorical) if n else pl.Series([], dtype=pl.Utf8)
    for j, name in enumerate(gdef.column_names(cfg.n_seats)):
        cols[name] = matrix[:, j]
    return pl.DataFrame(cols)
