"""Finding the game to replay (``sim replay --longest | --stalled | --where EXPR``) and the
summary every replay opens with: the game's result columns against the run's averages, in
the same format for every game (generic over ``GameDef.result_columns``).

Where the games come from (decided here, documented in the README):

1. ``--run DIR``: that report folder's ``games.parquet`` (the ``--out`` of ``sim run``); it
   must be a run of the same config (its ``config.toml`` equals the config as loaded, but for
   ``games``, ``batch_size``, ``name``, ``[checks]``, ``[sweep]``, ``[sensitivity]``, ``[tune]`` and
   ``[report]``, which do not change what game g plays). A folder holding report folders (``--run reports``) gives its newest run of
   the config;
2. else ``reports/<run name>/`` when it is such a run, else the newest run of the config among
   the folders of ``reports/`` (``sim run CONFIG --out reports/other`` is found too);
3. else games are played now, in memory, to pick from: ``--games N``, else the config's games
   but at most :data:`PLAY_NOW_MAX` (a warning says so; nothing is written; ``sim run CONFIG``
   keeps a run of every game to pick from next time).

``--game N`` replays game N without playing anything; its summary compares with the run of
1. or 2. when there is one, else shows the game's own values only.

``--where`` is a boolean expression in SQL syntax over the games.parquet columns
(``flr_played_on_s1 > 10 AND winner = 3``), built as a polars filter from a whitelisted grammar
(:mod:`sim.where`: columns, literals, comparisons, AND/OR/NOT, IN lists, arithmetic; no
functions, tables or subqueries, never Python ``eval``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sim.errors import ConfigError

PLAY_KEYS_IGNORED = ("games", "batch_size", "name", "checks", "sweep", "sensitivity", "report", "tune")
"""Config keys that do not change what game g of a seed plays (a run folder made with other
values of these is still a run of the same games)."""
PLAY_NOW_MAX = 20_000
"""Most games ``sim replay --longest | --stalled | --where`` plays now when there is no run to
pick from and no ``--games`` (a config's million games took 5 1/2 minutes)."""
MAX_WHERE = 1000
"""Longest ``--where`` expression (characters)."""
STANDOUT_SD = 2.0
"""A value this many standard deviations from the run's mean is named under "stands out"."""
CATEGORY_COLUMNS = ("winner", "rank")
"""Common result columns that are labels, not amounts (a seat, a place): shown, never named
under "stands out" and given no sd (:mod:`sim.games.base`)."""


@dataclass
class Games:
    """The games to pick from / average over: ``df`` (polars, games.parquet columns),
    ``where`` (the folder, or None when played now) and a phrase saying which they are."""

    df: Any
    where: Path | None
    what: str


def _play_identity(raw: dict) -> dict:
    return {k: v for k, v in raw.items() if k not in PLAY_KEYS_IGNORED}


def run_folder_problem(folder: Path, cfg: Any) -> str | None:
    """Why ``folder`` is not a run of ``cfg``'s games to pick from, or None."""
    import tomllib

    if not (folder / "games.parquet").is_file():
        return "has no games.parquet (not a report folder of `sim run`)"
    try:
        raw = tomllib.loads((folder / "config.toml").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return "has no readable config.toml"
    a, b = _play_identity(raw), _play_identity(cfg.raw)
    if a != b:
        keys = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
        return f"is a run of another config (keys that differ: {', '.join(keys)})"
    return None


def read_games(folder: Path):
    """games.parquet of ``folder`` (polars); raises ConfigError when unreadable."""
    import polars as pl

    try:
        return pl.read_parquet(folder / "games.parquet")
    except (pl.exceptions.PolarsError, OSError) as e:
        from sim.config import cut

        raise ConfigError(str(folder / "games.parquet"), "", f"not a readable parquet file ({cut(str(e), 100)})") \
            from None


def newest_run(parent: Path, cfg: Any) -> Path | None:
    """The folder of ``parent`` (one level down) that is a run of ``cfg``'s games
    (:func:`run_folder_problem`) with the newest games.parquet, or None."""
    best: tuple[float, str] | None = None
    try:
        subs = sorted(p for p in parent.iterdir() if p.is_dir())
    except OSError:
        return None
    for p in subs:
        try:
            if run_folder_problem(p, cfg) is None:
                key = ((p / "games.parquet").stat().st_mtime, str(p))
                best = key if best is None or key > best else best
        except OSError:
            continue
    return Path(best[1]) if best is not None else None


def find_games(cfg: Any, run_dir: Path | None) -> tuple[Games | None, str]:
    """The run folder to use as :class:`Games` (see the module docstring: ``run_dir``, a run
    or a folder of runs; else ``reports/<run name>/``, else the newest run of ``cfg`` in
    ``reports/``), or None and why not. Raises ConfigError when ``run_dir`` is given and is
    neither a run of ``cfg`` nor a folder holding one."""
    folder = run_dir if run_dir is not None else Path("reports") / cfg.run_name
    try:
        is_dir = folder.is_dir()
    except OSError as e:  # a name too long ...
        if run_dir is not None:
            raise ConfigError(str(folder), "", f"cannot read (--run): {e.strerror or e}") from None
        is_dir = False
    if run_dir is not None and is_dir and not (folder / "games.parquet").exists():
        inner = newest_run(folder, cfg)  # a folder of report folders (--run reports)
        if inner is None:
            raise ConfigError(str(folder), "", f"--run: neither a report folder of `sim run` nor a folder holding a "
                              f"run of this config; make one with `sim run {cfg.source} --out {folder / cfg.run_name}`")
        found, _ = find_games(cfg, inner)
        found.what += f" (the newest run of this config in {folder}/)"
        return found, ""
    why = None
    if not is_dir:
        if run_dir is not None:
            raise ConfigError(str(folder), "", "no such folder (--run)")
        why = f"no run of this config at {folder}/"
    else:
        why = run_folder_problem(folder, cfg)
        if why and run_dir is not None:
            raise ConfigError(str(folder), "", f"--run: {why}")
        why = f"{folder}/ {why}" if why else None
    if why:
        other = newest_run(folder.parent, cfg) if run_dir is None else None
        if other is None:
            return None, why + f" nor in any folder of {folder.parent}/" if not is_dir else why
        found, _ = find_games(cfg, other)
        found.what += f" (the newest run of this config in {folder.parent}/)"
        return found, ""
    df = read_games(folder)
    missing = [c for c in play_columns(cfg) if c not in df.columns]
    if missing:
        raise ConfigError(str(folder / "games.parquet"), "", f"lacks the column(s) {', '.join(missing[:8])} of a run "
                          "of this config (not written by `sim run` of it)")
    return Games(df, folder, games_phrase(folder, df.height)), ""


def games_phrase(folder: Path, rows: int) -> str:
    """Which games ``folder``'s games.parquet holds: all of the run's, or (its manifest's
    ``rows`` entry says so) a sample: every k-th game index, every stalled game and the
    longest games of a run too large to keep every row."""
    import json

    try:
        info = json.loads((folder / "manifest.json").read_text(encoding="utf-8")).get("rows") or {}
    except (OSError, ValueError, AttributeError):
        info = {}
    if isinstance(info, dict) and info.get("sampled"):
        games, every = (info.get(k) for k in ("games", "every"))
        if not all(isinstance(v, int) and not isinstance(v, bool) and 0 < v < 2**63 for v in (games, every)):
            return f"{rows:,} sampled games in {folder}/ (its manifest's rows entry does not say of how many)"
        return (f"{rows:,} sampled games in {folder}/ (a sample of the run's {games:,}: the games "
                f"whose index is a multiple of {every:,}, every stalled game and the longest games)")
    return f"{rows:,} games in {folder}/"


def play_columns(cfg: Any) -> list[str]:
    """The games.parquet columns of a run of ``cfg`` (:func:`sim.runner.games_frame`)."""
    from sim.games import get_game

    n = cfg.n_seats
    return ["game_index", *(f"policy_s{s}" for s in range(n)), *get_game(cfg.game).column_names(n)]


def parse_where(where: str, columns: list[str]):
    """The polars filter of the ``--where`` text over ``columns`` (:mod:`sim.where`); raises
    ConfigError (``--where``) for text outside the grammar. Nothing is evaluated."""
    from sim.config import excerpt
    from sim.where import WhereError, where_expr

    if len(where) > MAX_WHERE or ";" in where or not where.strip():
        raise ConfigError("--where", "", f"{excerpt(where)} is not one SQL boolean expression "
                          f"(at most {MAX_WHERE} characters, no ';')")
    try:
        return where_expr(where, list(columns))
    except WhereError as e:
        raise ConfigError("--where", "", f"cannot evaluate {excerpt(where)} over the games' columns ({e}); "
                          f"columns: {', '.join(list(columns)[:60])}") from None


def select(df, longest: bool = False, stalled: bool = False, where: str | None = None) -> tuple[int, str, int]:
    """Pick a game: the games matching ``where`` (:func:`parse_where`) and, with
    ``stalled``, stalled; then the longest of them (most ``turns``, the lowest index on a
    tie) with ``longest``, else the first (lowest index). Returns (game index, a phrase
    describing the choice, how many games matched). Raises ConfigError (``--where``) for an
    expression outside :mod:`sim.where`'s grammar or that does not give true/false over the
    frame, or when no game matches."""
    import polars as pl

    from sim.config import cut, excerpt

    sel = df
    what = []
    if where is not None:
        plain = df.with_columns(pl.col(pl.Categorical).cast(pl.Utf8))
        cols = ", ".join(df.columns[:60])
        expr = parse_where(where, plain.columns)
        try:
            kind = plain.lazy().select(expr.alias("m")).collect_schema()["m"]
            if kind != pl.Boolean:
                raise TypeError(f"it gives {kind}, not true/false")
            sel = plain.filter(expr)
        except Exception as e:  # noqa: BLE001  (polars raises several kinds on a type mismatch)
            raise ConfigError("--where", "", f"cannot evaluate {excerpt(where)} over the games' columns "
                              f"({cut(str(e).splitlines()[0] if str(e) else type(e).__name__, 160)}); "
                              f"columns: {cols}") from None
        what.append(f"matching {where}")
    if stalled:
        sel = sel.filter(pl.col("stalled") == 1)
        what.insert(0, "stalled")
    if sel.height == 0:
        hint = ""
        if stalled:  # say so, and how else to pick an unusual game
            hint = ("; --where EXPR picks a game by any column (e.g. --where 'turns > 200'), --longest "
                    "the longest game")
        raise ConfigError("--where" if where is not None else "--stalled", "",
                          f"no game of the {df.height:,} is {' and '.join(what)}{hint}")
    if longest:
        best = sel.sort(["turns", "game_index"], descending=[True, False]).row(0, named=True)
        desc = "the longest" + (f" of the {sel.height:,} {' and '.join(what)}" if what else "") + \
            f" ({best['turns']} turns)"
    else:
        best = sel.sort("game_index").row(0, named=True)
        desc = "the first" + (f" of the {sel.height:,} {' and '.join(what)}" if what else "")
    return int(best["game_index"]), desc, sel.height


def _fmt(x: float) -> str:
    if x != x:
        return "-"
    if float(x).is_integer() and abs(x) < 1e15:
        return f"{int(x)}"
    return f"{x:.2f}" if abs(x) < 100 else f"{x:.1f}"


def _seat_names(run: Any, g: int) -> list[str]:
    row = run.perms[g % run.perms.shape[0]]
    out = []
    for s, e in enumerate(row):
        seat = run.cfg.seats[int(e)]
        name = seat.name if seat.name == seat.policy else f"{seat.name} ({seat.policy})"
        out.append(f"seat {s} {name}")
    return out


def _result(run: Any, row: dict, g: int, compared: bool = True) -> str:
    labels = run.seat_labels(g)
    cap = run.cfg.turn_cap
    if run.game.mode == "competitive":
        w = int(row.get("winner", -1))
        if w >= 0:
            return f"seat {w} ({labels[w]}) won"
        return f"no winner: stalled at the turn cap ({cap})" if row.get("stalled") else "no winner (a shared win or a tie)"
    if row.get("team_win"):
        return "the team won"
    if row.get("stalled"):
        return f"no result: stalled at the turn cap ({cap})"
    return "the team lost" + (" (see what stands out below)" if compared else "")


def summary_lines(run: Any, g: int, row: dict, games: Games | None, pick: str | None, note: str = "") -> list[str]:
    """The summary a replay opens with (see the module docstring): game ``g`` of ``run``,
    its result row ``row`` (column -> value, as ``TraceResult.row``) against the means of
    ``games`` (None: the game's values only, with ``note`` saying why), ``pick`` the phrase
    saying how the game was chosen (None: ``--game``)."""
    n = run.cfg.n_seats
    head = f"== summary of game {g} (seed {run.seed})"
    if pick:
        head += f": {pick} of {games.what}" if games else f": {pick}"
    df = games.df if games is not None else None
    lines = [head, "   seats: " + ", ".join(_seat_names(run, g)), "   result: " + _result(run, row, g, df is not None)]
    if df is not None:
        lines.append(f"   {'column':<24} {'this game':<22} run mean (sd) over {df.height:,} games")
    else:
        lines.append(f"   {'column':<24} this game   ({note}; `sim run` keeps a run, then this compares with its means)")
    stand: list[tuple[float, str]] = []
    zero: list[str] = []
    for c in run.game.result_columns:
        names = [f"{c.name}_s{s}" for s in range(n)] if c.per_seat else [c.name]
        vals = [float(row.get(k, float("nan"))) for k in names]
        if df is None:
            if not any(c.applies(v) for v in vals):
                lines.append(f"   {c.name:<24} - (does not apply in this game)")
            elif all(v == 0 for v in vals):  # listed together below: a game leaves many counts at 0
                zero.append(c.name)
            else:
                lines.append(f"   {c.name:<24} {' / '.join(_fmt(v) for v in vals)}")
            continue
        means, sds = [], []
        for k in names:
            col = df[k].cast(float) if k in df.columns else None
            if col is not None and c.none is not None:  # only the games where the column applies
                col = col.filter(col != float(c.none))
            means.append(float(col.mean()) if col is not None and col.len() else float("nan"))
            sds.append(float(col.std()) if col is not None and col.len() > 1 else float("nan"))
        if all(sd == 0 and v == m for v, m, sd in zip(vals, means, sds)):
            continue  # the same in every game of the run: says nothing about this one
        label = c.name in CATEGORY_COLUMNS
        zs = [(v - m) / sd if sd and sd == sd and not label and c.applies(v) else 0.0
              for v, m, sd in zip(vals, means, sds)]
        for k, v, m, z in zip(names, vals, means, zs):
            if abs(z) >= STANDOUT_SD and math.isfinite(z):
                who = f" (seat {k.rsplit('_s', 1)[1]})" if c.per_seat else ""
                stand.append((abs(z), f"{c.name}{who}: {_fmt(v)} vs {_fmt(m)} ({z:+.1f} sd)"))
        this = " / ".join(_fmt(v) if c.applies(v) else "-" for v in vals)
        mean = " / ".join(_fmt(m) for m in means)
        if c.none is not None and not c.per_seat:
            k = names[0]
            applies = int((df[k] != c.none).sum()) if k in df.columns else 0
            z = f"; {zs[0]:+.1f} sd" if c.applies(vals[0]) else ""
            lines.append(f"   {c.name:<24} {this:<22} {mean} ({_fmt(sds[0])}{z}) over the {applies:,} games it applies to")
        elif c.name == "winner" and "winner" in df.columns:
            share = float((df["winner"] == int(vals[0])).mean())
            lines.append(f"   {c.name:<24} {this:<22} the same in {100 * share:.1f}% of the run's games")
        elif c.per_seat or label:
            lines.append(f"   {c.name:<24} {this:<22} {mean}")
        else:
            lines.append(f"   {c.name:<24} {this:<22} {mean} ({_fmt(sds[0])}; {zs[0]:+.1f} sd)")
    if zero:
        lines.append("   0 in this game: " + ", ".join(zero))
    if df is not None:
        stand.sort(key=lambda t: -t[0])
        lines.append("   stands out: " + ("; ".join(s for _z, s in stand[:5]) if stand
                                          else f"nothing (every column within {STANDOUT_SD:g} sd of the run's mean)"))
    lines.append("")
    return lines
