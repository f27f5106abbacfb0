"""Plain functions behind the CLI: run a config, build its frame, summary and manifest.
Nothing here exits the process; errors are exceptions (ConfigError for bad input)."""

from __future__ import annotations

import datetime as _dt
import os
import platform
import subprocess
import time
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any, Callable

import numpy as np

import sim
from sim.compile import CompiledRun
from sim.config import RunConfig
from sim.games.base import GameDef
from sim.runner import games_frame  # noqa: F401 - defined with the runner, part of this API

KEEP_FRAME = 200_000
"""A run of at most this many games keeps its whole frame (``RunOutput.df``): the per-game
outcomes of paired comparisons (:mod:`sim.check.paired`) and ``sim replay``'s pick read it;
a larger run keeps its :class:`sim.tally.Tally` and the rows written to parquet only."""


@dataclass
class GameRows:
    """The rows of a run written to parquet as it played: ``parts`` (files in game-index
    order, in the temporary ``folder``), ``longest`` (extra rows of the longest unsampled
    games, or None), ``rows`` (rows held), ``games`` (games played) and ``every`` (1: every
    game; k: a sample of every k-th game index plus every stalled game and the
    :data:`sim.runner.LONGEST` longest). The folder is removed when the object goes."""

    folder: Path
    parts: list[str]
    longest: Any
    rows: int
    games: int
    every: int = 1

    def __post_init__(self) -> None:
        import shutil
        import weakref

        weakref.finalize(self, shutil.rmtree, str(self.folder), True)

    @property
    def sampled(self) -> bool:
        return self.every > 1

    def note(self) -> dict[str, Any]:
        """What the manifest says about games.parquet (``rows`` entry)."""
        out: dict[str, Any] = {"rows": self.rows, "games": self.games, "sampled": self.sampled}
        if self.sampled:
            out.update({"every": self.every, "longest": 0 if self.longest is None else self.longest.height,
                        "rule": f"game_index % {self.every} == 0, every stalled game, and the longest games"})
        return out

    def write(self, path: Path) -> None:
        """games.parquet at ``path`` (zstd): the parts in order, then the longest extra rows;
        streamed by polars (never the whole table in memory)."""
        import polars as pl

        files = list(self.parts)
        if self.longest is not None and self.longest.height:
            extra = Path(self.folder) / "longest.parquet"
            if not extra.exists():
                self.longest.write_parquet(extra, compression="zstd")
            files.append(str(extra))
        if not files:
            raise ValueError("no rows to write")
        # one scan over the part files: polars streams it (a concat with an in-memory frame
        # would collect every row first)
        pl.scan_parquet(files).sink_parquet(path, compression="zstd")

    def frame(self):
        """Every row held, as one polars frame (reads the parts)."""
        import polars as pl

        frames = [pl.read_parquet(p) for p in self.parts]
        if self.longest is not None and self.longest.height:
            frames.append(self.longest)
        return pl.concat(frames, how="vertical_relaxed")


@dataclass
class RunOutput:
    """A finished run: ``summary`` (summary.json), ``manifest`` (manifest.json), ``tally``
    (:class:`sim.tally.Tally` of every game: what the summary and the plots are computed
    from), ``df`` (polars, one row per game: only for runs of at most :data:`KEEP_FRAME`
    games, else None) and ``rows`` (:class:`GameRows`, the games.parquet rows; None when
    none were written)."""

    run: CompiledRun
    df: Any
    summary: dict
    manifest: dict
    tally: Any = None
    rows: GameRows | None = None

    @property
    def cfg(self) -> RunConfig:
        return self.run.cfg

    @property
    def gdef(self) -> GameDef:
        return self.run.game


def tally_spec(run: CompiledRun) -> list:
    """What a run tallies (:mod:`sim.tally`): the common sources
    (:func:`sim.metrics.common_tally_spec`) and the game's (``metrics.tally_spec(cfg)``)."""
    from sim.metrics import common_tally_spec, has_cards

    cfg, gdef = run.cfg, run.game
    labels = [s.name for s in cfg.seats]
    return common_tally_spec(gdef.mode, cfg.n_seats, labels, has_cards(gdef)) + list(game_tally_spec(gdef, cfg))


def game_tally_spec(gdef: GameDef, cfg: RunConfig) -> list:
    """The game's own tally sources; none for a game without a package (a test double)."""
    if "tally_spec" not in gdef.overrides and not gdef.package:
        return []
    return gdef.tally_spec(cfg)


def summarize(run: CompiledRun, data) -> dict:
    """summary.json content: run facts, every metric record (common + game's) and the
    ``catalogue`` section (metric name -> definition, unit, kind, groupings and decoded codes,
    :func:`sim.metrics.catalogue`) of the metrics the records name. ``data`` is the run's
    :class:`sim.tally.Tally` (of :func:`tally_spec`) or a games frame (tallied here: the
    same records)."""
    from sim.metrics import catalogue, common_metrics
    from sim.records import metric_key
    from sim.tally import Tally

    cfg, gdef = run.cfg, run.game
    labels = [s.name for s in cfg.seats]
    t = data if isinstance(data, Tally) else Tally.of_frame(data, tally_spec(run))
    own = list(gdef.metrics(t, cfg))
    # a game's record replaces the common one of the same metric and grouping (Yukon's
    # first_player_advantage is its drawn start player's, not seat 0's), as its catalogue entries
    # and its per-game outcomes (sim.check.paired.per_game) do
    mine = {metric_key(r) for r in own}
    records = [r for r in common_metrics(t, gdef.mode, cfg.n_seats, labels) if metric_key(r) not in mine] + own
    cat = catalogue(gdef)
    traits = gdef.seat_traits(cfg) if gdef.seat_traits is not None else None
    return {
        "game": gdef.name, "title": gdef.title, "rules_version": gdef.version, "run": cfg.run_name, "mode": gdef.mode,
        "seed": cfg.seed, "games": cfg.games, "config_hash": cfg.config_hash(),
        "seats": labels, "rotate_seats": cfg.rotate_seats,
        **({"seat_traits": [str(x) for x in traits]} if traits else {}), "metrics": records,
        "catalogue": {k: cat[k].as_json() for k in dict.fromkeys(r["metric"] for r in records) if k in cat},
    }


def git_revision(cwd: Path | None = None) -> str:
    """``git rev-parse HEAD`` (+ ``-dirty`` with uncommitted changes to tracked files), or
    'unknown'. Files under ``reports/`` do not count: they are sim's own outputs (``make
    baselines`` rewrites reports/baselines/*.json one after the other, and a tree whose only
    changes are those generated files still runs the code of HEAD)."""
    try:
        rev = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, timeout=5,
                             cwd=cwd).stdout.strip()
        if not rev:
            return "unknown"
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", ":(top)",
                                ":(top,exclude)reports"], capture_output=True,
                               text=True, timeout=5, cwd=cwd).stdout.strip()
        return rev + ("-dirty" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def versions() -> dict[str, str]:
    out = {"sim": sim.__version__, "python": platform.python_version()}
    for pkg in ("numba", "numpy", "polars", "matplotlib", "pydantic", "scipy", "statsmodels", "optuna"):
        try:
            out[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            out[pkg] = "missing"
    return out


def manifest(run: CompiledRun, wall_s: float, threads: int, backend: str = "local", workers: int | None = None) -> dict:
    """manifest.json content: versions, git revision, source hash, seed, config hash,
    wall time (s), games/s, threads, host."""
    cfg = run.cfg
    return {
        "run": cfg.run_name, "game": cfg.game, "rules_version": run.game.version, "config": str(cfg.source), "config_hash": cfg.config_hash(),
        "seed": cfg.seed, "games": cfg.games, "threads": threads, "batch_size": cfg.batch_size,
        "backend": backend, "workers": workers,
        "wall_s": round(wall_s, 4), "games_per_s": round(cfg.games / wall_s, 1) if wall_s > 0 else None,
        "versions": versions(), "git_revision": git_revision(), "source_hash": sim.source_hash(),
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "machine": {"platform": platform.platform(), "cpus": os.cpu_count()},
        **({"policy_files": run.policy_files} if run.users is not None else {}),
    }


def prepare(run: CompiledRun) -> float:
    """Compile ``run``'s batch kernel (or load it from numba's on-disk cache) without playing
    a game: a call with zero games. Returns the seconds it took (tens of seconds on the first
    run of a game after a source change, a fraction of a second afterwards); a later call in
    the same process is instant. The dask backend's workers then load the filled cache."""
    cfg = run.cfg
    t0 = time.perf_counter()
    out = np.zeros((0, len(run.game.column_names(cfg.n_seats))), dtype=np.int32)
    run.game.play_batch(run.spec, run.entry_policy, run.entry_weights, run.perms, np.int64(cfg.seed),
                        np.int64(0), np.int64(0), out)
    return time.perf_counter() - t0


def _parallelism(backend: str, threads: int | None, workers: int) -> tuple[int, int]:
    """(what the backend is given, numba threads in force): the local backend sets and runs
    ``threads`` numba threads (None: all cores); dask runs ``workers`` one-thread processes.
    Raises ValueError for an impossible thread count."""
    from sim.runner import set_threads

    if backend == "local":
        n = set_threads(threads)
        return n, n
    return workers, 1


def play_run(run: CompiledRun, threads: int | None = None, on_progress: Callable[[int], None] | None = None,
             backend: str = "local", workers: int = 2) -> tuple[np.ndarray, float, int]:
    """Play every game of ``run`` on ``backend`` (see :func:`run_config`) and time it, nothing
    more: returns the result matrix int32[games, C] (columns ``run.game.column_names``), the
    wall time in seconds and the numba thread count in force (1 for ``dask``). The kernels
    are compiled first (:func:`prepare`), so the wall time is the play alone. Raises
    ValueError for an unknown backend or an impossible thread count."""
    from sim.backends import get_backend

    play = get_backend(backend)
    parallel, nthreads = _parallelism(backend, threads, workers)
    prepare(run)  # so the play time (and games/s) excludes compilation
    t0 = time.perf_counter()
    matrix = play(run, parallel, on_progress)
    return matrix, time.perf_counter() - t0, nthreads


def row_plan(run: CompiledRun, rows: int | None, folder: Path | None, keep_frame: bool | None):
    """The :class:`sim.runner.RowPlan` of a run: every game's row up to ``rows`` games (None:
    the config's ``[report] rows``), else every k-th game index (k = ceil(games / rows)) plus
    every stalled game and the longest; ``keep_frame`` None = at most :data:`KEEP_FRAME`."""
    from sim.runner import RowPlan

    cfg = run.cfg
    limit = rows if rows is not None else getattr(getattr(cfg, "report", None), "rows", 1_000_000)
    every = 1 if cfg.games <= limit else -(-cfg.games // limit)
    keep = cfg.games <= KEEP_FRAME if keep_frame is None else keep_frame
    return RowPlan(folder=folder, every=every, keep_frame=keep)


def run_config(run: CompiledRun, threads: int | None = None, on_progress: Callable[[int], None] | None = None,
               backend: str = "local", workers: int = 2, compile_s: float | None = None,
               rows: int | None = None, write_rows: bool = True, keep_frame: bool | None = None,
               chunk: int | None = None) -> RunOutput:
    """Play every game of ``run`` on ``backend`` (a name of :data:`sim.backends.BACKENDS`:
    "local" = ``threads`` numba threads here, None = all cores; "dask" = ``workers`` processes;
    identical results), time it and summarise it (no report written).

    The games are played in chunks (:data:`sim.runner.CHUNK`, or ``chunk``) folded into a
    :class:`sim.tally.Tally` as they finish, so memory stays flat in the game count; the
    summary is computed from the tally (equal to the whole-table computation whatever the
    chunking). With ``write_rows`` each chunk's rows go to parquet part files in a temporary
    folder (``RunOutput.rows``; :func:`sim.report.write_report` joins them into
    games.parquet): every game up to ``rows`` games (None: ``[report] rows``), else a sample
    (:func:`row_plan`). ``keep_frame``: keep the whole frame in ``RunOutput.df`` (None: runs of
    at most :data:`KEEP_FRAME` games).

    ``on_progress(n)`` is called as each piece of ``n`` games finishes (the CLI's progress
    bar). The kernels are compiled first (:func:`prepare`): the manifest's ``wall_s`` is the
    play and fold, ``play_s`` the kernels alone (summed over chunks), ``games_per_s`` the games
    over ``wall_s``, ``compile_s`` the compile / cache load (measured here unless the caller
    prepared the kernels and passes its ``compile_s``). Raises ValueError for an unknown
    backend or an impossible thread count.
    """
    import tempfile

    from sim.backends import get_stream

    if compile_s is None:  # a caller that compiled first (the CLI's notice) passes its time
        compile_s = prepare(run)
    folder = None
    try:  # from the folder's creation until GameRows owns it: any exit removes it
        folder = Path(tempfile.mkdtemp(prefix="sim-rows-")) if write_rows else None
        plan = row_plan(run, rows, folder, keep_frame)
        stream = get_stream(backend)
        parallel, nthreads = _parallelism(backend, threads, workers)
        prepare(run)  # so the play time (and games/s) excludes compilation
        t0 = time.perf_counter()
        got = stream(run, parallel, on_progress, plan=plan, chunk=chunk)
        wall = time.perf_counter() - t0
        game_rows = None if folder is None else GameRows(
            folder, got.parts, got.longest, got.rows + (0 if got.longest is None else got.longest.height),
            run.cfg.games, plan.every)  # removes the folder when it goes (also at exit)
    except BaseException:  # interrupted (Ctrl-C, SIGTERM) or failed: leave no part files behind
        if folder is not None:
            import shutil

            shutil.rmtree(folder, ignore_errors=True)
        raise
    df = None
    if plan.keep_frame:
        import polars as pl

        df = pl.concat(got.frames, how="vertical_relaxed") if got.frames else games_frame(
            run, np.zeros((0, len(run.game.column_names(run.cfg.n_seats))), dtype=np.int32))
    man = manifest(run, wall, nthreads, backend, None if backend == "local" else workers)
    man["compile_s"] = round(compile_s, 3)
    man["play_s"] = round(got.play_s, 4)
    if game_rows is not None:
        man["rows"] = game_rows.note()
    return RunOutput(run, df, summarize(run, got.tally), man, got.tally, game_rows)


def replay(run: CompiledRun, game_index: int):
    """The trace of game ``game_index`` of ``run``: a :class:`sim.games.base.TraceResult`."""
    return run.game.trace(run, game_index)


def metric_names(run: CompiledRun, games: int | None = None) -> dict[str, set[frozenset]]:
    """The metric catalogue of ``run``'s game: metric name -> the sets of ``by`` keys its
    records may have (``{"win_rate": {frozenset({"seat"}), frozenset({"policy"})}, ...}``), from
    :func:`sim.metrics.catalogue_names`. Nothing is played or compiled (``games`` is ignored; it
    was the size of the tiny run this once played). A name in the catalogue may still match no
    record of a particular config (``vips_taken_mean`` without VIPs): ``sim check`` reports that
    target as "no match"."""
    from sim.metrics import catalogue_names

    return catalogue_names(run.game)
