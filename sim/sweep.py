"""``sim sweep``: one config played at every point of a grid of key values, every point on
the same seed (common random numbers: game g of every point is dealt from the same streams),
and a report of the headline metrics against the parameter.

The grid comes from ``--param KEY=V1,V2,...`` flags (repeatable; the grid is every
combination, the first key varying slowest; with ``--zip`` the keys move in lockstep, point i
taking the i-th value of each: a start speed and its price list) or, without them, from the config's ``[sweep]``
table (:class:`sim.config.SweepConfig`). KEY is a dotted config key as ``--set`` takes it
(:mod:`sim.overrides`); a point is exactly ``sim run CONFIG --set KEY=V ...`` with the same
``--games`` and ``--seed`` (the same raw config, config hash and results, bit for bit).

Every point is validated and compiled before anything plays (a bad key or value is a
ConfigError naming the key and the ``--param``); the points are played one after the other
through :func:`sim.api.run_config` (any backend of :mod:`sim.backends`).

Output folder (``reports/<run name>-sweep/`` by default), written atomically:

* ``sweep.md`` / ``sweep.html``: the grid, a table of the headline metrics per point with
  their 95 % intervals, a table of each gated headline metric's change from the reference
  point (the one at the config's own value when the grid holds it, else the first; or
  ``--reference``) with the interval of the change, the test and the
  per-game correlation ρ (:func:`point_changes`: paired by game index, since every point
  plays the same seed), one plot per headline metric against the first parameter with
  interval bands (one line per group, e.g. per seat; with two or more parameters one plot
  per group and one line per value of the other parameters) and one per gated headline
  metric of its change with the paired interval bands (``plots/change_*.png``). The HTML
  embeds the plots as data URIs (one self-contained file); the markdown links
  ``plots/*.png``.
* ``sweep.parquet``: one row per point and metric record: ``point`` (int64), one column per
  parameter key (its value at the point), ``metric``, ``by`` (canonical JSON), ``label``,
  ``value``, ``ci_low``, ``ci_high``, ``n``, ``kind``.
* ``sweep.json``: the grid, the points (values, folder, config hash), the run facts,
  ``reference`` (index, folder) and ``changes`` (one entry per point and gated headline
  metric: ``point``, ``label``, ``change``, ``ci_low``, ``ci_high``, ``se``, ``p_value``,
  ``test``, ``corr``).
* ``points/p<NN>/``: each point's ``summary.json``, ``manifest.json`` and ``config.toml`` (the
  config as run).
* ``plots/*.png``.
"""

from __future__ import annotations

import base64
import itertools
import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from sim.errors import ConfigError
from sim.overrides import MAX_POINTS, Override, parse_param, parse_sets

SWEEP_FORMAT = "sim-sweep/1"
SWEEP_FILES = {"sweep.md", "sweep.html", "sweep.json", "sweep.parquet"}
POINT_FILES = {"summary.json", "manifest.json", "config.toml"}
"""Files of a sweep point's folder ``points/p<NN>/``."""

HEADLINE_COMMON = ("win_rate", "first_player_advantage", "loss_rate", "stall_rate", "turns_mean", "turns_p50")
"""Common metrics shown per point (every ``by`` group of each: win rate by seat and by
policy ...), in this order; a metric a game does not report is skipped."""
MAX_GROUPS = 8
"""Most ``by`` groups of one headline metric shown (the first ones, in record order)."""


@dataclass
class Point:
    """One point of the grid: ``index``, ``values`` (key -> value), the overrides that make
    it (``--set`` flags then one ``--param`` per key) and its compiled run."""

    index: int
    values: dict[str, Any]
    sets: list[Override]
    run: Any

    @property
    def folder(self) -> str:
        return f"p{self.index:02d}"

    @property
    def label(self) -> str:
        """``hand_size=7, seats[2].policy="greedy"`` (last part of each key, TOML value)."""
        return ", ".join(f"{short_key(k)}={toml_value(v)}" for k, v in self.values.items())


@dataclass
class SweepPlan:
    """A validated sweep: the config file, the parameters (key, values) in grid order, the
    points, games per point and the seed."""

    config: Path
    params: list[tuple[str, list[Any]]]
    points: list[Point]
    games: int
    seed: int
    name: str
    outputs: list[Any] = field(default_factory=list)
    zip: bool = False
    own: dict[str, Any] = field(default_factory=dict)
    """The config's own value of each swept key (after ``--set``; a key the file leaves unset is
    missing): the default reference is the point at these values (:func:`resolve_reference`)."""

    @property
    def total_games(self) -> int:
        return self.games * len(self.points)


def toml_value(v: Any) -> str:
    """``v`` as TOML text (``7``, ``"greedy"``, ``[1, 2]``)."""
    from sim.report.tomlw import _value

    return _value(v)


def short_key(key: str) -> str:
    """``key`` without a leading game table name (``clear_for_takeoff.deck.FLR`` ->
    ``deck.FLR``; ``seats[3].policy`` and ``seed`` stay as they are)."""
    from sim.games import GAMES

    head, dot, rest = key.partition(".")
    return rest if dot and head in GAMES else key


def _from_table(cfg: Any) -> list[tuple[str, tuple, list[Any]]]:
    from sim.overrides import parse_key

    out = []
    for k, vals in cfg.sweep.params.items():
        try:
            path = parse_key(k, "[sweep]")
        except ConfigError as e:
            raise ConfigError(cfg.source, f"sweep.params.{k}", e.reason) from None
        out.append((k, path, list(vals)))
    return out


def _at_point(err: ConfigError, point: Point, flag: str) -> ConfigError:
    """``err`` (a point's config error) naming the point and the flag of its grid: "(from
    [sweep] KEY=V, sweep point p01)" when the error names the key a grid value set, else
    "(at sweep point p01: [sweep] KEY=V, ...)" (a value that made another key wrong, such as
    ``game`` switched to a game that does not read the config's game table)."""
    where = f"sweep point {point.folder}"
    tagged = [ov for ov in point.sets if ov.flag == flag and ov.origin in err.reason]
    if tagged:
        o = tagged[-1].origin
        reason = err.reason.replace(o, f"{o[:-1]}, {where})")
    else:
        grid = ", ".join(f"{flag} {k}={toml_value(v)}" for k, v in point.values.items())
        reason = f"{err.reason} (at {where}: {grid})"
    return ConfigError(err.file, err.key, reason)


def _group_hint(err: ConfigError, point: Point, base: Any) -> ConfigError:
    """``err`` with a hint when its key is the partner of a linked group
    (:mod:`sim.design`) whose leader the point moved alone: the partner's value that follows,
    and how to sweep both (``--zip``) or use ``sim sensitivity``."""
    from sim.design import follow, groups_of, lookup
    from sim.overrides import parse_key

    for g in groups_of(base.game):
        if err.key != g.partner or g.leader not in point.values or g.partner in point.values:
            continue
        try:
            dump = {**base.raw, base.game: base.section.model_dump(by_alias=True)}
            own = lookup(dump, parse_key(g.leader))
            want = follow(g, lookup(dump, parse_key(g.partner)), point.values[g.leader] - own)
        except (KeyError, ValueError, TypeError, ConfigError):
            continue
        return ConfigError(err.file, err.key, f"{err.reason}; {g.partner} follows {g.leader} (a linked group): "
                           f"{g.leader}={toml_value(point.values[g.leader])} takes {g.partner}={toml_value(want)}, "
                           "so sweep both in lockstep (--zip --param ... --param ...) or use sim sensitivity")
    return err


def plan_sweep(config: Path, params: Sequence[str] | None = None, games: int | None = None, seed: int | None = None,
               sets: Sequence[str] | None = None, zip_keys: bool | None = None) -> SweepPlan:
    """Parse the grid, validate and compile every point (nothing is played).

    ``params``: ``--param KEY=V1,V2,...`` texts (None or empty: the config's ``[sweep]``);
    ``games``: games per point (None: ``[sweep] games``, else ``[checks] games``, else the
    config's ``games``); ``seed``: the seed of every point (None: the config's); ``sets``:
    ``--set`` flags applied to every point first; ``zip_keys``: the keys move in lockstep
    (``--zip``; None: the ``[sweep]`` table's ``zip``), point i taking the i-th value of every
    key, instead of every combination. Raises ConfigError (the key, the flag) for
    a bad flag, a bad key or value at any point (naming the point and ``--param`` or
    ``[sweep]``), points of different games, no grid, a key given twice, zipped keys with
    lists of different lengths, or more than :data:`sim.overrides.MAX_POINTS` points.
    """
    from sim.check import checks_of
    from sim.cli_common import compile_checked
    from sim.overrides import load

    base_sets = parse_sets(sets)
    base = load(config, base_sets)
    if params:
        grid = [parse_param(p) for p in params]
    elif base.sweep is not None:
        grid = _from_table(base)
    else:
        raise ConfigError(str(config), "sweep", "no grid: give --param KEY=V1,V2,... or a [sweep] table with "
                          "params = { \"KEY\" = [V1, V2, ...] }")
    keys = [k for k, _p, _v in grid]
    paths = [p for _k, p, _v in grid]
    for i, p in enumerate(paths):
        if p in paths[:i]:
            if params:
                raise ConfigError("--param", keys[i], "given twice")
            raise ConfigError(base.source, f"sweep.params.{keys[i]}",
                              f"the same config key as sweep.params.{keys[paths.index(p)]}")
    if zip_keys is None:
        zip_keys = bool(not params and base.sweep is not None and base.sweep.zip)
    n_points = 1
    for _k, _p, vals in grid:
        n_points *= len(vals)
    if zip_keys:
        lengths = {len(vals) for _k, _p, vals in grid}
        if len(lengths) > 1:
            k0, _p0, v0 = grid[0]
            bad = next((k, v) for k, _p, v in grid if len(v) != len(v0))
            file, key = ("--param", bad[0]) if params else (base.source, f"sweep.params.{bad[0]}")
            raise ConfigError(file, key, f"has {len(bad[1])} values where {k0} has {len(v0)}: zipped keys move in "
                              "lockstep, so every key needs as many values")
        n_points = lengths.pop()
    if n_points > MAX_POINTS:
        file, key = ("--param", "") if params else (base.source, "sweep.params")
        raise ConfigError(file, key, f"the grid has {n_points:,} points; at most {MAX_POINTS}")
    origins = None  # where games per point came from: an error about it names that key
    if games is None:
        if base.sweep is not None and base.sweep.games:
            games, origins = base.sweep.games, {"games": "sweep.games"}
        elif checks_of(base).games:
            games, origins = checks_of(base).games, {"games": "checks.games"}
        else:
            games = base.games
    flag = "--param" if params else "[sweep]"
    points = []
    combos = zip(*[vals for _k, _p, vals in grid]) if zip_keys else itertools.product(*[vals for _k, _p, vals in grid])
    for i, combo in enumerate(combos):
        ovs = list(base_sets)
        for (k, p, _vals), v in zip(grid, combo):
            ovs.append(Override(k, p, v, flag, f"{k}={toml_value(v)}"))
        point = Point(i, dict(zip(keys, combo)), ovs, None)
        try:
            point.run = compile_checked(config, sets=ovs, origins=origins, games=games, seed=seed)
            if points and point.run.cfg.game != points[0].run.cfg.game:  # as sim compare refuses two games
                raise ConfigError(str(config), "game", f"plays {point.run.cfg.game!r} where point p00 plays "
                                  f"{points[0].run.cfg.game!r}: a sweep compares the points of one game, game "
                                  "by game on the same seed")
        except ConfigError as e:
            raise _group_hint(_at_point(e, point, flag), point, base) from None
        points.append(point)
    first = points[0].run.cfg
    from sim.design import lookup

    own = {}
    for k, p, _v in grid:
        try:
            own[k] = lookup(base.raw, p)
        except KeyError:
            pass
    return SweepPlan(Path(config), [(k, list(v)) for k, _p, v in grid], points, games, first.seed,
                     base.run_name, zip=bool(zip_keys), own=own)


def play_sweep(plan: SweepPlan, threads: int | None = None, on_progress: Callable[[int], None] | None = None,
               backend: str = "local", workers: int = 2) -> list[Any]:
    """Play every point of ``plan`` (in order, each through :func:`sim.api.run_config`);
    returns their RunOutputs (also kept in ``plan.outputs``)."""
    from sim.api import run_config

    plan.outputs = [run_config(p.run, threads=threads, on_progress=on_progress, backend=backend, workers=workers,
                               write_rows=False)  # no games.parquet: a sweep writes none
                    for p in plan.points]
    return plan.outputs


def headline_records(game: str, records: Sequence[dict]) -> list[tuple[str, str]]:
    """The headline series of a summary: ``(metric, canonical by JSON)`` in display order
    (:data:`HEADLINE_COMMON`, then the game's ``GameDef.sweep_headline``, the tension metrics of
    its mode, then the rest of its gated ``GameDef.headline``; at most :data:`MAX_GROUPS` groups
    of one metric)."""
    from sim.check.paired import matches, registered_game
    from sim.metrics import TENSION_METRICS
    from sim.records import metric_key

    gdef = registered_game(game)
    out: list[tuple[str, str]] = []
    tension = TENSION_METRICS.get(gdef.mode, ()) if gdef is not None else ()
    for name in HEADLINE_COMMON + (tuple(gdef.sweep_headline) if gdef is not None else ()) + tension:
        keys = [metric_key(r) for r in records if r.get("metric") == name]
        out.extend(list(dict.fromkeys(keys))[:MAX_GROUPS])
    for pattern in gdef.headline if gdef is not None else ():
        keys = [metric_key(r) for r in records if matches(pattern, r)]
        out.extend([k for k in dict.fromkeys(keys) if k not in out][:MAX_GROUPS])
    return out


def _same(v: Any, w: Any) -> bool:
    return type(w) is type(v) and w == v or (_numeric([v, w]) and float(v) == float(w))


def own_point(plan: SweepPlan) -> int | None:
    """The index of the point at the config's own value of every swept key
    (:attr:`SweepPlan.own`), or None when the grid does not hold it."""
    if len(plan.own) != len(plan.params):
        return None
    for p in plan.points:
        if all(_same(plan.own[k], p.values[k]) for k, _v in plan.params):
            return p.index
    return None


def resolve_reference(plan: SweepPlan, text: str | None) -> int:
    """The index of the point ``--reference`` names: None -> the point at the config's own
    values when the grid holds it (:func:`own_point`), else 0 (the first point); ``pNN`` (the
    point's folder, as the tables head it); for a one-parameter grid also one of its values
    (TOML text, as in ``--param``). Raises ConfigError (file ``--reference``) otherwise."""
    from sim.config import excerpt
    from sim.overrides import parse_value

    if text is None:
        own = own_point(plan)
        return 0 if own is None else own
    t = text.strip()
    m = re.fullmatch(r"p(\d+)", t)
    if m:
        i = int(m.group(1))
        if i < len(plan.points):
            return i
        raise ConfigError("--reference", "", f"no point {excerpt(t)}: the points are p00 .. p{len(plan.points) - 1:02d}")
    if len(plan.params) == 1:
        key, vals = plan.params[0]
        try:
            v = parse_value(t)
        except ValueError:
            v = t
        for p in plan.points:
            if _same(v, p.values[key]):
                return p.index
        raise ConfigError("--reference", key, f"{excerpt(t)} is not a value of the grid "
                          f"({', '.join(toml_value(x) for x in vals)}); or give a point as pNN")
    raise ConfigError("--reference", "", f"{excerpt(t)}: with several parameters name the point as pNN "
                      f"(p00 .. p{len(plan.points) - 1:02d}, see the table headers)")


def point_changes(plan: SweepPlan, outputs: Sequence[Any], reference: int = 0) -> dict[int, dict[str, Any]]:
    """The change of every gated headline metric (:func:`sim.check.paired.headline_patterns`)
    and every tension metric (:data:`sim.metrics.TENSION_METRICS`, docs/tension.md) of each
    point from point ``reference``: ``point index -> {label: MetricRow}`` (every
    point but the reference), from :func:`sim.check.stats.compare_records` with the per-game
    outcomes of both points (:func:`sim.check.paired.per_game`).

    Points on the same seed (every point of a sweep, unless ``seed`` is swept) are compared
    game by game (game g of both points dealt from the same streams): McNemar for a yes/no
    per game, the paired t-test for a value per game, the ratio estimator's delta-method
    variance for shares of turns; ``row.corr`` is the per-game correlation the pairing found.
    Points on different seeds get the unpaired tests. ``row.ci_low`` / ``ci_high``: the 95 %
    interval of the change (unadjusted for the many figures); ``row.test`` names the test.
    """
    from sim.check.paired import per_game
    from sim.check.stats import compare_records

    def pg(o):
        run, df = getattr(o, "run", None), getattr(o, "df", None)
        return None if run is None or df is None else per_game(df, run.cfg, run.game.mode, run.game.name)

    from sim.metrics import TENSION_METRICS

    pgs = [pg(o) for o in outputs]
    ref = outputs[reference].summary
    tension = set(TENSION_METRICS.get(str(ref.get("mode")), ()))
    out: dict[int, dict[str, Any]] = {}
    for p, o in zip(plan.points, outputs):
        if p.index == reference:
            continue
        rows = compare_records(ref, o.summary, per_game_a=pgs[reference], per_game_b=pgs[p.index],
                               family="headline")
        out[p.index] = {r.label: r for r in rows if (r.headline or r.metric in tension) and r.tested}
    return out


def _column(values: list[Any]):
    import polars as pl

    kinds = {type(v) for v in values}
    if kinds <= {bool}:
        return pl.Series(values, dtype=pl.Boolean)
    if kinds <= {int}:
        return pl.Series(values, dtype=pl.Int64)
    if kinds <= {int, float}:
        return pl.Series([float(v) for v in values], dtype=pl.Float64)
    if kinds <= {str}:
        return pl.Series(values, dtype=pl.Utf8)
    return pl.Series([toml_value(v) for v in values], dtype=pl.Utf8)


def records_frame(plan: SweepPlan, summaries: Sequence[dict]):
    """``sweep.parquet``: one row per point and metric record (see the module docstring)."""
    import polars as pl

    from sim.records import metric_key, metric_label

    rows: dict[str, list] = {"point": []}
    for k, _v in plan.params:
        rows[k] = []
    for c in ("metric", "by", "label", "value", "ci_low", "ci_high", "n", "kind"):
        rows[c] = []

    def num(x):
        try:
            return None if x is None else float(x)
        except (TypeError, ValueError):
            return None

    for p, s in zip(plan.points, summaries):
        for r in s["metrics"]:
            rows["point"].append(p.index)
            for k, _v in plan.params:
                rows[k].append(p.values[k])
            rows["metric"].append(r["metric"])
            rows["by"].append(metric_key(r)[1])
            rows["label"].append(metric_label(r["metric"], r.get("by")))
            for c in ("value", "ci_low", "ci_high"):
                rows[c].append(num(r.get(c)))
            rows["n"].append(int(r["n"]) if isinstance(r.get("n"), int) else None)
            rows["kind"].append(str(r.get("kind")))
    cols = {"point": pl.Series(rows["point"], dtype=pl.Int64)}
    for k, _v in plan.params:
        cols[k] = _column(rows[k])
    cols["metric"] = pl.Series(rows["metric"], dtype=pl.Utf8)
    cols["by"] = pl.Series(rows["by"], dtype=pl.Utf8)
    cols["label"] = pl.Series(rows["label"], dtype=pl.Utf8)
    for c in ("value", "ci_low", "ci_high"):
        cols[c] = pl.Series(rows[c], dtype=pl.Float64)
    cols["n"] = pl.Series(rows["n"], dtype=pl.Int64)
    cols["kind"] = pl.Series(rows["kind"], dtype=pl.Utf8)
    return pl.DataFrame(cols)


def _find(records: Sequence[dict], key: tuple[str, str]) -> dict | None:
    from sim.records import metric_key

    for r in records:
        if metric_key(r) == key:
            return r
    return None


def _label(key: tuple[str, str]) -> str:
    from sim.records import metric_label

    return metric_label(key[0], json.loads(key[1]))


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.=-]+", "_", text).strip("_")[:80] or "plot"


def _numeric(values: Sequence[Any]) -> bool:
    return all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)


def _f(x: Any) -> float:
    try:
        return float("nan") if x is None else float(x)
    except (TypeError, ValueError):
        return float("nan")


def sweep_plots(plan: SweepPlan, summaries: Sequence[dict], series: list[tuple[str, str]],
                folder: Path, changes: dict[int, dict[str, Any]] | None = None,
                reference: int = 0) -> list[tuple[str, str]]:
    """One PNG per headline metric against the first parameter (see the module docstring);
    returns ``[(title, file name)]``. With ``changes`` (:func:`point_changes`): one PNG per
    gated headline metric of its change from point ``reference`` with the bands of the change's
    interval (paired where the points share the seed), file ``change_<metric>.png``; the
    reference point is drawn at 0."""
    from sim.report.format import is_percent
    from sim.report.plots import DPI, GRID, _percent_axis, _plt

    plt = _plt()
    key0, vals0 = plan.params[0]
    numeric = _numeric(vals0)
    xs = [float(v) for v in vals0] if numeric else list(range(len(vals0)))
    others = [] if plan.zip else plan.params[1:]  # zipped keys: one line along the first key
    combos = list(itertools.product(*[v for _k, v in others])) if others else [()]

    def at(x_value, combo) -> int:
        for p in plan.points:
            if p.values[key0] == x_value and all(p.values[k] == v for (k, _vs), v in zip(others, combo)):
                return p.index
        raise KeyError(x_value)  # pragma: no cover

    def group(k: tuple[str, str]) -> tuple[str, tuple[str, ...]]:
        return k[0], tuple(sorted(json.loads(k[1])))

    figures = []
    for metric, by_keys in dict.fromkeys(group(k) for k in series):
        keys = [k for k in series if group(k) == (metric, by_keys)]
        units = [[k] for k in keys] if others else [keys]
        for unit in units:
            fig, ax = plt.subplots(figsize=(7.0, 4.0))
            lines = [(k, c) for k in unit for c in combos]
            percent = False
            for j, (k, combo) in enumerate(lines):
                recs = [_find(summaries[at(v, combo)]["metrics"], k) for v in vals0]
                if changes is None:
                    v = [_f(r.get("value")) if r else float("nan") for r in recs]
                    lo = [_f(r.get("ci_low")) if r else float("nan") for r in recs]
                    hi = [_f(r.get("ci_high")) if r else float("nan") for r in recs]
                else:
                    cells = [_change_cell(changes, at(x, combo), reference, _label(k)) for x in vals0]
                    v, lo, hi = ([c[i] for c in cells] for i in range(3))
                percent = percent or any(r is not None and is_percent(r) for r in recs)
                if others:
                    name = ", ".join(f"{short_key(kk)}={toml_value(cv)}" for (kk, _vs), cv in zip(others, combo))
                else:
                    name = _label(k)
                color = f"C{j % 10}"
                ax.plot(xs, v, marker="o", color=color, label=name)
                if any(x == x for x in lo):
                    ax.fill_between(xs, lo, hi, color=color, alpha=0.18, linewidth=0)
            if percent:
                _percent_axis(ax)
            if not numeric or (all(isinstance(v, int) for v in vals0) and len(xs) <= 20):
                ax.set_xticks(xs, [toml_value(v) for v in vals0])
            title = _label(unit[0]) if others else metric + (f" by {', '.join(by_keys)}" if by_keys else "")
            if changes is None:
                ax.set_title(f"{title} against {short_key(key0)} (95% interval bands)")
                ax.set_ylabel(metric + (" (%)" if percent else ""))
            else:
                ax.axhline(0.0, color="0.4", linewidth=0.8)
                paired = len({p.run.cfg.seed for p in plan.points}) == 1
                ax.set_title(f"{title}: change from p{reference:02d} (95% {'paired ' if paired else ''}interval bands)",
                             fontsize=10)
                ax.set_ylabel(f"change of {metric}" + (" (percentage points)" if percent else ""))
                if percent:
                    from matplotlib.ticker import FuncFormatter

                    ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _pos: f"{100 * y:+.1f}"))
                    percent = False
            ax.set_xlabel(key0)
            ax.grid(**GRID)
            if len(lines) > 1:
                ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
            import textwrap

            # long metric names: titles and y labels wrapped, so none runs past the figure's edge
            ax.set_title(textwrap.fill(ax.get_title(), 52 if len(lines) > 1 else 64), fontsize=10)
            ax.set_ylabel(textwrap.fill(ax.get_ylabel(), 34))
            name = f"{_slug(title)}.png" if changes is None else f"change_{_slug(title)}.png"
            fig.tight_layout()
            fig.savefig(folder / name, dpi=DPI)
            plt.close(fig)
            what = title if changes is None else f"change of {title} from p{reference:02d}"
            figures.append((f"{what} against {key0}", name))
    return figures


def _change_cell(changes: dict[int, dict[str, Any]], point: int, reference: int,
                 label: str) -> tuple[float, float, float]:
    """(change, ci_low, ci_high) of ``label`` at ``point`` (zeros at the reference; NaN
    when not tested)."""
    if point == reference:
        return 0.0, 0.0, 0.0
    r = changes.get(point, {}).get(label)
    if r is None:
        return float("nan"), float("nan"), float("nan")
    return _f(r.change), _f(r.ci_low), _f(r.ci_high)


TEST_NAMES = {
    "mcnemar": "McNemar (yes/no per game, paired)",
    "paired t": "paired t-test (a value per game)",
    "paired ratio": "paired ratio estimator (delta-method variance of a share of summed counts)",
    "two-proportion z": "two-proportion z (unpaired)",
    "Welch": "Welch (unpaired means)",
    "unpaired z (ratio se)": "unpaired z with the ratio estimator's se",
}
"""What each test name of a change (``MetricRow.test``) means, for the sweep report."""


def _fmt_change_ci(r: Any) -> str:
    """``+0.93 pp [+0.45, +1.40] ρ 0.78`` (rates in points; values in their unit, to about two
    significant digits of the interval's width); ``0 (no game differs)`` for a paired change
    of exactly 0 with 0 spread."""
    import math

    from sim.check.stats import is_rate

    if r.change == 0 and r.se == 0:
        return "0 (no game differs)"
    rate = is_rate(r) or r.kind == "share"
    scale = 100.0 if rate else 1.0
    width = (r.ci_high - r.ci_low) * scale if r.ci_low is not None and r.ci_high is not None else 0.0
    dec = 2 if not width > 0 else max(0, min(4, 1 - math.floor(math.log10(width))))

    def f(x: float) -> str:
        return f"{scale * x:+.{dec}f}"

    text = f(r.change) + (" pp" if rate else "")
    if r.ci_low is not None and r.ci_high is not None:
        text += f" [{f(r.ci_low)}, {f(r.ci_high)}]"
    if r.corr is not None and r.corr == r.corr:
        text += f" ρ {r.corr:.2f}"
    return text


def render_sweep_md(plan: SweepPlan, summaries: Sequence[dict], series: list[tuple[str, str]],
                    figures: list[tuple[str, str]], image_src: Callable[[str], str] | None = None,
                    changes: dict[int, dict[str, Any]] | None = None, reference: int = 0) -> str:
    """The text of ``sweep.md`` (``image_src(file name)`` -> the image address; default
    ``plots/<name>``); with ``changes`` (:func:`point_changes`) a table of each gated headline
    metric's change from point ``reference``, its interval, the test and the correlation."""
    from sim.report.format import fmt_interval, md_escape, md_table

    src = image_src or (lambda name: f"plots/{name}")
    s0 = summaries[0]
    lines = [f"# Sweep: {md_escape(s0['title'])} ({md_escape(plan.name)})", ""]
    if changes:
        lines += ["## Verdict", "", *sweep_verdict(plan, changes, reference), ""]
    grid = "; ".join(f"`{k}` = {', '.join(toml_value(v) for v in vals)}" for k, vals in plan.params)
    if plan.zip:
        grid += " (in lockstep)"
    lines += [f"{len(plan.points)} points ({grid}), {plan.games:,} games each, every point on seed {plan.seed} "
              "(common random numbers: game g of every point is dealt from the same streams, so differences "
              "between points are the parameter's, not the deal's). Intervals are 95 %.", "",
              f"Config: `{md_escape(str(plan.config))}`; each point is `sim run` with "
              f"`--set KEY=VALUE` for its values, `--games {plan.games} --seed {plan.seed}` "
              "(its summary and config as run: `points/p<NN>/`).", ""]
    lines += ["## Headline metrics per point", ""]
    headers = ["metric"] + [f"p{p.index:02d}: {p.label}" for p in plan.points]
    rows = []
    for k in series:
        row = [md_escape(_label(k))]
        for s in summaries:
            r = _find(s["metrics"], k)
            row.append(fmt_interval(r) if r else "-")
        rows.append(row)
    lines += [md_table(headers, rows), ""]
    if changes:
        lines += _changes_md(plan, changes, reference)
    lines += ["## Plots", ""]
    for title, name in figures:
        lines += [f"### {md_escape(title)}", "", f"![{md_escape(title)}]({src(name)})", ""]
    lines += ["## Files", "",
              "`sweep.parquet` (one row per point and metric record, the parameter values as columns), "
              "`sweep.json` (the grid and points), `points/p<NN>/summary.json`, `manifest.json`, `config.toml`, "
              "`plots/`.", ""]
    return "\n".join(lines)


def sweep_verdict(plan: SweepPlan, changes: dict[int, dict[str, Any]], reference: int, shown: int = 3) -> list[str]:
    """The sweep's verdict (markdown bullets): how many changes from the reference point lie
    beyond sampling noise (their 95 % interval excludes 0), and the ``shown`` changes that stand
    out most from their noise (largest change over its interval's half-width), each with its
    point, value and interval."""
    from sim.report.format import md_escape

    ref = plan.points[reference]
    rows = [(p, r) for p in plan.points if p.index in changes for r in changes[p.index].values()
            if r.ci_low is not None and r.ci_high is not None and r.change == r.change]
    beyond = [(p, r) for p, r in rows if r.ci_low > 0 or r.ci_high < 0]

    def strength(pr) -> float:
        _p, r = pr
        half = (r.ci_high - r.ci_low) / 2
        return abs(r.change) / half if half > 0 else (float("inf") if r.change else 0.0)

    out = [f"- **{len(beyond)} of {len(rows)} changes** from p{ref.index:02d} ({md_escape(ref.label)}) lie beyond "
           "sampling noise (their 95 % interval excludes 0; unadjusted for the many figures)."]
    for p, r in sorted(rows, key=strength, reverse=True)[:shown]:
        word = "beyond noise" if (p, r) in beyond else "within noise"
        out.append(f"- `{md_escape(r.label)}` at p{p.index:02d} ({md_escape(p.label)}): "
                   f"{md_escape(_fmt_change_ci(r))}, {word}.")
    return out


def _changes_md(plan: SweepPlan, changes: dict[int, dict[str, Any]], reference: int) -> list[str]:
    """The "Change from the reference point" section of ``sweep.md``."""
    from sim.report.format import md_escape, md_table

    ref = plan.points[reference]
    others = [p for p in plan.points if p.index in changes]
    labels = list(dict.fromkeys(lab for p in others for lab in changes[p.index]))
    seeds = {p.run.cfg.seed for p in plan.points}
    lines = [f"## Change from p{ref.index:02d} ({md_escape(ref.label)})", "",
             f"Each gated headline metric of each point minus its value at p{ref.index:02d}"
             + (" (the config's own value; `--reference pNN` chooses another)" if reference == own_point(plan)
                else " (the first point: the grid does not hold the config's own value; `--reference pNN` chooses "
                "another)" if reference == 0 else " (chosen with `--reference`)")
             + ", with the 95 % interval of the change (per figure, not adjusted for the many figures) and "
             "ρ, the per-game correlation of the two points. "
             + ("Every point played the same seed and game indices, so each change is measured game by game "
                "(the deal's luck cancels as far as ρ shows: ρ near 0, pairing gains nothing). "
                if len(seeds) == 1 else
                "Points on different seeds are compared with unpaired tests (no ρ). ")
             + "The column 'test' names the test of each row:", ""]
    used = list(dict.fromkeys(r.test for p in others for r in changes[p.index].values() if r.test))
    lines += [f"* {md_escape(t)}: {TEST_NAMES.get(t, t)}" for t in used] + [""]
    headers = ["metric", "test"] + [f"p{p.index:02d}: {md_escape(p.label)}" for p in others]
    rows = []
    for lab in labels:
        cells = [changes[p.index].get(lab) for p in others]
        tests = " / ".join(dict.fromkeys(c.test for c in cells if c is not None and c.test))
        rows.append([md_escape(lab), md_escape(tests)] + [_fmt_change_ci(c) if c is not None else "-" for c in cells])
    return lines + [md_table(headers, rows, "ll" + "r" * len(others)), ""]


def sweep_table(plan: SweepPlan, reference: int = 0, width: int = 120):
    """The terminal summary of a played sweep (a rich Table): one row per point (the
    reference point marked), one column per headline series (:func:`headline_records`) with
    its value and 95 % interval, as many as fit ``width`` characters (at least two; the title
    says how many more are in sweep.md)."""
    from rich.markup import escape
    from rich.table import Table

    from sim.report.format import fmt_interval

    summaries = [o.summary for o in plan.outputs]
    series = headline_records(plan.points[0].run.cfg.game, [r for s in summaries for r in s["metrics"]])
    cells = {k: [(fmt_interval(r) if (r := _find(s["metrics"], k)) else "-") for s in summaries] for k in series}
    first = max(len(f"p{p.index:02d} {p.label} (reference)") for p in plan.points) + 3
    shown, used = [], first
    for k in series:
        w = max(len(_label(k)), *(len(c) for c in cells[k])) + 3
        if len(shown) >= 2 and used + w > width:
            break
        shown.append(k)
        used += w
    more = len(series) - len(shown)
    title = (f"{len(plan.points)} points x {plan.games:,} games on seed {plan.seed}: headline metrics, 95 % intervals"
             + (f" ({more} more in sweep.md)" if more else ""))
    t = Table(title=escape(title))
    t.add_column("point", overflow="fold")
    for k in shown:
        t.add_column(escape(_label(k)), justify="right", overflow="fold")
    for i, p in enumerate(plan.points):
        t.add_row(escape(f"p{p.index:02d} {p.label}" + (" (reference)" if i == reference else "")),
                  *(escape(cells[k][i]) for k in shown))
    return t


def is_sweep_folder(folder: Path) -> bool:
    """True when ``folder`` is a sweep sim wrote: ``sweep.json`` of :data:`SWEEP_FORMAT` and
    nothing but :data:`SWEEP_FILES`, ``plots/`` with the plots sweep.md shows and ``points/``
    with ``p<NN>/`` folders of :data:`POINT_FILES`."""
    return is_points_folder(folder, "sweep", SWEEP_FILES)


def is_points_folder(folder: Path, stem: str, files: set[str]) -> bool:
    """True when ``folder`` holds ``<stem>.json`` of format ``sim-<stem>/...`` and nothing but
    ``files``, ``plots/`` with the plots ``<stem>.md`` shows and ``points/`` with ``p<NN>/``
    folders of :data:`POINT_FILES` (a sweep's or a sensitivity run's folder)."""
    try:
        data = json.loads((folder / f"{stem}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return False
    if not (isinstance(data, dict) and str(data.get("format", "")).startswith(f"sim-{stem}/")):
        return False
    from sim.outputs import only_own

    def points(folder: Path) -> bool:
        try:
            return all(re.fullmatch(r"p\d+", e.name) and not e.is_symlink() and e.is_dir() and only_own(e, POINT_FILES, "")
                       for e in folder.iterdir())
        except OSError:
            return False

    return only_own(folder, files, f"{stem}.md", plots="plots", dirs={"points": points})


def default_folder(plan: SweepPlan) -> Path:
    """``reports/<run name>-sweep``."""
    return Path("reports") / f"{plan.name}-sweep"


def write_points(folder: Path, points: Sequence[Point], outputs: Sequence[Any], what: str = "sweep") -> None:
    """``folder/points/p<NN>/``: each point's ``summary.json``, ``manifest.json`` and
    ``config.toml`` (the config as run, headed by the ``--set`` flags that make the point)."""
    from sim.jsonio import write_json
    from sim.report.tomlw import config_text

    pts = folder / "points"
    pts.mkdir()
    for p, o in zip(points, outputs):
        d = pts / p.folder
        d.mkdir()
        write_json(o.summary, d / "summary.json")
        write_json(o.manifest, d / "manifest.json")
        text, _how = config_text(o.cfg.raw, o.cfg.source)
        head = f"# {what} point " + p.folder + ": " + ", ".join(f"--set {ov.key}={toml_value(ov.value)}"
                                                              for ov in p.sets) + "\n"
        (d / "config.toml").write_text(head + text, encoding="utf-8")


def write_sweep(dest: Path, plan: SweepPlan, outputs: Sequence[Any] | None = None, reference: int = 0) -> Path:
    """Write the sweep folder of a played ``plan`` atomically (see the module docstring);
    the changes of the gated headline metrics are measured from point ``reference``
    (:func:`point_changes`). Returns ``dest``. Raises OutputError for a folder that cannot be
    written or is not a sweep sim wrote."""
    from sim.jsonio import write_json
    from sim.outputs import atomic_folder
    from sim.report.writer import _write_parquet, render_html

    outputs = list(outputs if outputs is not None else plan.outputs)
    summaries = [o.summary for o in outputs]
    series = headline_records(plan.points[0].run.cfg.game, [r for s in summaries for r in s["metrics"]])
    with atomic_folder(dest, is_sweep_folder, "sweep") as tmp:
        write_points(tmp, plan.points, outputs)
        _write_parquet(records_frame(plan, summaries), tmp / "sweep.parquet")
        plots = tmp / "plots"
        plots.mkdir()
        changes = point_changes(plan, outputs, reference) if len(outputs) > 1 else {}
        figures = sweep_plots(plan, summaries, series, plots)
        if changes:
            labels = dict.fromkeys(lab for c in changes.values() for lab in c)
            gated = [k for k in series if _label(k) in labels]
            figures += sweep_plots(plan, summaries, gated, plots, changes, reference)
        md = render_sweep_md(plan, summaries, series, figures, changes=changes, reference=reference)
        (tmp / "sweep.md").write_text(md, encoding="utf-8")

        def data_uri(name: str) -> str:
            return "data:image/png;base64," + base64.b64encode((plots / name).read_bytes()).decode("ascii")

        html_md = render_sweep_md(plan, summaries, series, figures, data_uri, changes, reference)
        (tmp / "sweep.html").write_text(render_html(html_md, f"Sweep: {plan.name}"), encoding="utf-8")
        wall = sum(float(o.manifest.get("wall_s") or 0.0) for o in outputs)
        write_json({
            "format": SWEEP_FORMAT, "config": str(plan.config), "run": plan.name, "game": summaries[0]["game"],
            "seed": plan.seed, "games": plan.games,
            "params": [{"key": k, "values": v} for k, v in plan.params], "zip": plan.zip,
            "points": [{"index": p.index, "folder": f"points/{p.folder}", "values": p.values,
                        "config_hash": p.run.cfg.config_hash()} for p in plan.points],
            "headline": [_label(k) for k in series],
            "reference": {"index": reference, "folder": f"points/{plan.points[reference].folder}"},
            "changes": [{"point": i, "label": lab, "change": r.change, "ci_low": r.ci_low, "ci_high": r.ci_high,
                         "se": r.se, "p_value": r.p_value, "test": r.test, "corr": r.corr}
                        for i, c in changes.items() for lab, r in c.items()],
            "wall_s": round(wall, 4), "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        }, tmp / "sweep.json")
    return Path(dest)
