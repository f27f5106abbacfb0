"""``sim sensitivity``: which design parameter moves the balance most. A plan of sweep points
around the config's own value (:mod:`sim.sweep` plays them and measures the changes), every
point on the config's seed (common random numbers), the keys ranked by their effect.

The keys are the game's design parameters (:mod:`sim.design`: deck counts, hand sizes, prices,
board sizes, rule options, each seat's policy where the config mixes policies; never run
settings such as ``games`` or ``seed``), or those ``--keys`` / ``[sensitivity] keys`` name. A
key that leads a linked group (:class:`sim.design.Group`) moves its partner with it.

Methods:

* ``oat`` (the default): point p00 is the config itself; each key is moved one step down and
  one step up from its value (an integer by 1 or its declared step, a float by its declared
  relative step, default 10 %; a choice to each other alternative), a step that would leave the
  schema's range of the key is not played (listed). Every gated headline metric's change from
  p00 is measured game by game (:func:`sim.sweep.point_changes`: McNemar, paired t, paired
  ratio) with its 95 % interval: exactly ``sim sweep CONFIG --param KEY=VALUE,NEW``'s change.
* ``morris``: SALib's Morris design (``SALib.sample.morris``, 4 levels, ``trajectories``
  trajectories of keys + 1 points) over each key's bounds (declared in ``[sensitivity]
  bounds``, else three steps wide, starting one step below the config's value, moved inside the
  schema's range), with the elementary effects, mu, mu*, sigma and the bootstrap interval of mu*
  (:func:`morris_stats`, SALib's definitions). An integer key takes the design's value rounded to
  the nearest integer (the default bounds make every level an integer already); a choice key
  with k alternatives is sampled over [0, k-1] and takes alternative ``round(x)``; an elementary
  effect is divided by the step the key really took (as a share of its range), so rounding
  never inflates an effect, and a step that rounding made 0 gives no effect. A trajectory with
  an infeasible point is dropped (listed) and the next of a reserve of as many again is used.

An infeasible point (the game cannot be set up from its values) is skipped and listed with its
reason, never a crash. Bad input (an unknown key, a key that is not a design parameter, a
declared step or bounds that leave the key's range, a group that does not fit) is a
ConfigError naming the key.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from sim.design import DesignKey, Group, follow, lookup
from sim.errors import ConfigError
from sim.overrides import Override, parse_key, parse_sets
from sim.sweep import Point, point_changes, toml_value

SENSITIVITY_FORMAT = "sim-sensitivity/1"
SENSITIVITY_FILES = {"sensitivity.md", "sensitivity.html", "sensitivity.json", "sensitivity.parquet"}
FLAG = "sensitivity"
"""The flag a point's overrides name in messages: ``(from sensitivity KEY=VALUE)``."""
MORRIS_LEVELS = 4
"""Levels of the Morris grid (SALib's default)."""
TOP = 5
"""Knobs the verdict names."""
TORNADO_KEYS = 15
"""Most keys one tornado chart shows (the highest ranked)."""


@dataclass
class Step:
    """What a point moved: ``key``, ``step`` (``-1``, ``+1``, ``-10%``, ``=any`` ...) and the
    key's new ``value`` (partners in ``partners``: key -> value)."""

    key: str
    step: str
    value: Any
    partners: dict[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        from sim.sweep import short_key

        if self.step.startswith("="):
            return f"{short_key(self.key)} {self.step}"
        return f"{short_key(self.key)} {self.step} (= {_show(self.value)})"


@dataclass
class SensitivityPlan:
    """A validated sensitivity run (nothing played yet): ``points[0]`` is the config itself
    (``method`` oat) or the first Morris point; ``steps[i]`` says what point i moved (None for
    p00 of oat, a Morris point's values in ``morris_rows``); ``skipped``: ``(point, reason)`` of
    every infeasible point or step outside the range."""

    config: Path
    base: Any
    keys: list[DesignKey]
    method: str
    points: list[Point]
    steps: list[Step | None]
    skipped: list[tuple[str, str]]
    games: int
    seed: int
    name: str
    bounds: dict[str, tuple[float, float]] = field(default_factory=dict)
    morris_rows: list[list[float]] = field(default_factory=list)
    trajectories: int = 0
    outputs: list[Any] = field(default_factory=list)

    @property
    def total_games(self) -> int:
        return self.games * len(self.points)

    @property
    def game(self) -> str:
        return self.base.game


def _show(v: Any) -> str:
    return v if isinstance(v, str) else toml_value(v)


def _mode(game: str) -> str:
    from sim.games import get_game

    return get_game(game).mode


def _resolve_keys(base: Any, wanted: Sequence[str], all_keys: list[DesignKey], file: str, where: str) -> list[DesignKey]:
    """The design keys ``wanted`` names, in that order; ConfigError for a key that is unknown
    or not a design parameter."""
    from sim.config import RunConfig

    by_name = {k.key: k for k in all_keys}
    out = []
    for k in wanted:
        k = k.strip()
        key_of_err = where if where else k
        try:
            path = parse_key(k, file)
        except ConfigError as e:
            raise ConfigError(file, key_of_err, f"{k!r}: {e.reason}") from None
        if k in by_name:
            if by_name[k] not in out:
                out.append(by_name[k])
            continue
        dump = {**base.raw, base.game: base.section.model_dump(by_alias=True) if base.section is not None else {}}
        known = True
        try:
            lookup(dump, path)
        except KeyError:
            known = path[0] in RunConfig.model_fields and len(path) == 1
        if known:
            why = "a run setting, not a design parameter" if path[0] in RunConfig.model_fields else \
                "not a design parameter (not a number or a choice of the game's section, or left out by the game: " \
                "see docs/sensitivity.md)"
            raise ConfigError(file, key_of_err, f"{k!r} is {why}; the design keys are listed by "
                              "`sim sensitivity CONFIG --dry-run`")
        raise ConfigError(file, key_of_err, f"no such key {k!r} in the config or the {base.game} section")
    return out


def _apply_table(keys: list[DesignKey], table: Any, source: str) -> dict[str, tuple[float, float]]:
    """Declared steps and bounds of ``[sensitivity]`` onto the selected keys; returns the
    declared bounds. ConfigError naming ``sensitivity.steps.KEY`` / ``sensitivity.bounds.KEY``
    for a key not selected, a step of the wrong kind or one that leaves the key's range."""
    by_name = {k.key: k for k in keys}
    bounds: dict[str, tuple[float, float]] = {}
    if table is None:
        return bounds
    for name, step in table.steps.items():
        where = f"sensitivity.steps.{name}"
        k = by_name.get(name)
        if k is None:
            raise ConfigError(source, where, f"{name!r} is not one of the keys moved (a design key of the game, "
                              "in [sensitivity] keys when that is given)")
        if k.kind == "choice":
            raise ConfigError(source, where, "a choice key takes each alternative; it has no step")
        if k.kind == "int" and (float(step) != int(step) or step < 1):
            raise ConfigError(source, where, f"an integer key's step must be a whole number >= 1, got {step:g}")
        k.step = int(step) if k.kind == "int" else float(step)
        for d in (-1, 1):
            v = k.value + d * k.step if k.kind == "int" else k.value * (1 + d * k.step)
            if not k.in_range(v):
                raise ConfigError(source, where, f"a step of {step:g} from {_show(k.value)} gives {_show(v)}, "
                                  f"outside the key's range {k.range_text()}")
    for name, (lo, hi) in table.bounds.items():
        where = f"sensitivity.bounds.{name}"
        k = by_name.get(name)
        if k is None:
            raise ConfigError(source, where, f"{name!r} is not one of the keys moved")
        if k.kind == "choice":
            raise ConfigError(source, where, "a choice key is sampled over its alternatives; it takes no bounds")
        if k.kind == "int" and not (float(lo).is_integer() and float(hi).is_integer()):
            raise ConfigError(source, where, f"an integer key's bounds must be whole numbers, got [{lo:g}, {hi:g}]")
        if not (k.in_range(lo) and k.in_range(hi)):
            raise ConfigError(source, where, f"[{lo:g}, {hi:g}] leaves the key's range {k.range_text()}")
        bounds[name] = (lo, hi)
    return bounds


def _check_groups(base: Any, keys: list[DesignKey], groups: list[Group], source: str) -> None:
    """ConfigError (``sensitivity.groups[i]``) for a declared group that does not fit: a leader
    that is not an integer design key (list rules) or a number, a partner missing from the
    config or of the wrong type for its rule."""
    dump = {**base.raw, base.game: base.section.model_dump(by_alias=True)}
    names = {k.key: k for k in keys}
    for i, g in enumerate(groups):
        where = f"sensitivity.groups[{i}]"
        lead = names.get(g.leader)
        if lead is None or lead.kind == "choice":
            raise ConfigError(source, where, f"leader {g.leader!r} is not a numeric design key of the game")
        if g.follow != "offset" and lead.kind != "int":
            raise ConfigError(source, where, f"{g.follow}: leader {g.leader!r} must be an integer key")
        try:
            pv = lookup(dump, parse_key(g.partner, source))
        except KeyError:
            raise ConfigError(source, where, f"partner {g.partner!r} is not a key of the config") from None
        try:
            follow(g, pv, lead.step if g.follow == "offset" else -1)
        except ValueError as e:
            raise ConfigError(source, where, f"the group does not fit: {e}") from None


def _override(key: str, value: Any, shown: Any) -> Override:
    return Override(key, parse_key(key, FLAG), value, FLAG, f"{key}={_show(shown)}")


def _moves(k: DesignKey, v: Any, dump: dict) -> tuple[list[Override], dict[str, Any]]:
    """The overrides that set key ``k`` to ``v`` (and its partners), and the partners' values;
    raises ValueError when a partner cannot follow."""
    ovs = [_override(k.set_key, k.set_value(v), v)]
    partners = {}
    for g in k.groups:
        pv = lookup(dump, parse_key(g.partner, FLAG))
        new = follow(g, pv, v - k.value)
        partners[g.partner] = new
        ovs.append(_override(g.partner, new, new))
    return ovs, partners


def oat_steps(k: DesignKey) -> list[tuple[str, Any] | tuple[str, Any, str]]:
    """``(step label, new value)`` of each OAT point of ``k``; a step outside the key's range is
    ``(label, value, reason)`` (not played)."""
    out: list = []
    if k.kind == "choice":
        return [(f"={_show(c)}", c) for c in k.choices if not (type(c) is type(k.value) and c == k.value)]
    for d in (-1, 1):
        if k.kind == "int":
            v, lab = k.value + d * int(k.step), f"{'+' if d > 0 else '-'}{int(k.step)}"
        else:
            if k.value == 0:  # a relative step of 0 is no step: the step itself, absolute
                v, lab = d * k.step, f"{'+' if d > 0 else '-'}{k.step:g}"
            else:
                v, lab = k.value * (1 + d * k.step), f"{'+' if d > 0 else '-'}{100 * k.step:g}%"
        if k.in_range(v):
            out.append((lab, v))
        else:
            out.append((lab, v, f"outside the key's range {k.range_text()}"))
    return out


def plan_sensitivity(config: Path, keys: Sequence[str] | None = None, games: int | None = None,
                     seed: int | None = None, sets: Sequence[str] | None = None, method: str | None = None,
                     trajectories: int | None = None) -> SensitivityPlan:
    """Validate the keys and compile every point (nothing is played).

    ``keys``: dotted design keys (``--keys``; None: ``[sensitivity] keys``, else every design
    key); ``games`` per point (None: ``[sensitivity] games``, else ``[checks] games``, else
    the config's); ``seed`` (None: the config's); ``sets``: ``--set`` flags applied first;
    ``method``: "oat" or "morris" (None: the table's, else oat); ``trajectories``: Morris
    trajectories (None: the table's, default 4). Raises ConfigError for bad input (module
    docstring); an infeasible point is listed in ``plan.skipped``.
    """
    from sim.check import checks_of
    from sim.design import design_keys
    from sim.overrides import load

    base_sets = parse_sets(sets)
    base = load(config, base_sets)
    table = base.sensitivity
    method = method or (table.method if table is not None else "oat")
    if method not in ("oat", "morris"):
        raise ConfigError("--method", "", f"must be oat or morris, got {method!r}")
    extra = [Group(g.leader, g.partner, g.follow, g.factor) for g in (table.groups if table is not None else [])]
    all_keys = design_keys(base, _mode(base.game), extra)
    if keys:
        chosen = _resolve_keys(base, keys, all_keys, "--keys", "")
    elif table is not None and table.keys:
        chosen = _resolve_keys(base, table.keys, all_keys, base.source, "sensitivity.keys")
    else:
        chosen = list(all_keys)
    if not chosen:
        raise ConfigError(str(config), base.game, "the game's section has no design parameters to move")
    bounds = _apply_table(chosen, table, base.source)
    if extra:
        _check_groups(base, all_keys, extra, base.source)
    origins = None
    if games is None:
        if table is not None and table.games:
            games, origins = table.games, {"games": "sensitivity.games"}
        elif checks_of(base).games:
            games, origins = checks_of(base).games, {"games": "checks.games"}
        else:
            games = base.games
    dump = {**base.raw, base.game: base.section.model_dump(by_alias=True)}
    plan = SensitivityPlan(Path(config), base, chosen, method, [], [], [], games, 0, base.run_name)
    if method == "oat":
        _plan_oat(plan, base_sets, dump, origins, seed)
    else:
        r = trajectories or (table.trajectories if table is not None else 4)
        _plan_morris(plan, base_sets, dump, origins, seed, r, bounds)
    if not plan.points:
        raise ConfigError(str(config), "", "no point of the plan can be played: " +
                          "; ".join(f"{p}: {why}" for p, why in plan.skipped[:3]))
    plan.seed = plan.points[0].run.cfg.seed
    return plan


def _compile(config: Path, point: Point, origins, games: int, seed: int | None):
    from sim.cli_common import compile_checked

    return compile_checked(config, sets=point.sets, origins=origins, games=games, seed=seed)


def _plan_oat(plan: SensitivityPlan, base_sets: list[Override], dump: dict, origins, seed) -> None:
    p0 = Point(0, {}, list(base_sets), None)
    p0.run = _compile(plan.config, p0, origins, plan.games, seed)  # a bad config: the usual error, exit 2
    plan.points.append(p0)
    plan.steps.append(None)
    for k in plan.keys:
        for item in oat_steps(k):
            lab, v = item[0], item[1]
            st = Step(k.key, lab, v)
            if len(item) == 3:
                plan.skipped.append((st.label, item[2]))
                continue
            try:
                ovs, st.partners = _moves(k, v, dump)
            except ValueError as e:
                plan.skipped.append((st.label, f"its group cannot follow: {e}"))
                continue
            pt = Point(len(plan.points), {k.key: v, **st.partners}, list(base_sets) + ovs, None)
            try:
                pt.run = _compile(plan.config, pt, origins, plan.games, seed)
            except ConfigError as e:
                plan.skipped.append((st.label, f"sensitivity point {st.label}: {e}"))
                continue
            plan.points.append(pt)
            plan.steps.append(st)


def morris_bounds(k: DesignKey, declared: tuple[float, float] | None) -> tuple[float, float]:
    """The range Morris samples ``k`` over: ``declared``, else for a number three steps wide
    from one step below the config's value (a float: relative steps), moved inside the schema's
    range (the whole range when it is narrower); a choice key: [0, k-1]."""
    if k.kind == "choice":
        return 0.0, float(len(k.choices) - 1)
    if declared is not None:
        return float(declared[0]), float(declared[1])
    s = k.step if k.kind == "int" else abs(k.value) * k.step or k.step
    lo, hi = k.value - s, k.value + 2 * s
    if k.lo is not None and lo < k.lo:
        lo, hi = k.lo, k.lo + 3 * s
    if k.hi is not None and hi > k.hi:
        lo, hi = k.hi - 3 * s, k.hi
    if k.lo is not None and lo < k.lo:
        lo = k.lo
    return float(lo), float(hi)


def morris_value(k: DesignKey, x: float) -> Any:
    """The config value design coordinate ``x`` stands for (module docstring: integers rounded,
    a choice's alternative ``round(x)``)."""
    if k.kind == "int":
        return int(math.floor(x + 0.5))
    if k.kind == "choice":
        return k.choices[min(len(k.choices) - 1, max(0, int(math.floor(x + 0.5))))]
    return float(x)


def morris_coord(k: DesignKey, v: Any) -> float:
    """The coordinate a config value takes in the elementary effects (a choice: its index)."""
    if k.kind == "choice":
        return float(next(i for i, c in enumerate(k.choices) if type(c) is type(v) and c == v))
    return float(v)


def _plan_morris(plan: SensitivityPlan, base_sets, dump, origins, seed, r: int, declared: dict) -> None:
    from SALib.sample import morris as morris_sample

    ks = plan.keys
    plan.bounds = {k.key: morris_bounds(k, declared.get(k.key)) for k in ks}
    problem = {"num_vars": len(ks), "names": [k.key for k in ks], "bounds": [list(plan.bounds[k.key]) for k in ks]}
    sample_seed = plan.base.seed if seed is None else seed
    X = morris_sample.sample(problem, N=2 * r, num_levels=MORRIS_LEVELS, seed=sample_seed % (2**32))
    D = len(ks)
    kept = 0
    for t in range(2 * r):
        if kept == r:
            break
        rows = X[t * (D + 1):(t + 1) * (D + 1)]
        pts, steps, bad = [], [], None
        for j, row in enumerate(rows):
            vals = {k.key: morris_value(k, x) for k, x in zip(ks, row)}
            ovs = list(base_sets)
            try:
                for k in ks:
                    o, _p = _moves(k, vals[k.key], dump) if k.groups else ([_override(k.set_key, k.set_value(vals[k.key]),
                                                                                       vals[k.key])], {})
                    ovs += o
            except ValueError as e:
                bad = (f"trajectory {t} point {j}", f"its group cannot follow: {e}")
                break
            pt = Point(len(plan.points) + j, vals, ovs, None)
            try:
                pt.run = _compile(plan.config, pt, origins, plan.games, seed)
            except ConfigError as e:
                bad = (f"trajectory {t} point {j}", str(e))
                break
            pts.append(pt)
            steps.append(Step("", f"t{t}", None))
        if bad is not None:
            plan.skipped.append((f"{bad[0]} (dropped with its trajectory)", bad[1]))
            continue
        plan.points.extend(pts)
        plan.steps.extend(steps)
        plan.morris_rows.extend([[morris_coord(k, p.values[k.key]) for k in ks] for p in pts])
        kept += 1
    plan.trajectories = kept


# ------------------------------------------------------------------ speed and the plan text


def measure_speed(plan: SensitivityPlan, threads: int | None = None, backend: str = "local",
                  workers: int = 2, games: int = 2000) -> tuple[float, float]:
    """(games per second, seconds of overhead per point) of the config, measured by playing
    its first point on ``backend``, ``min(games, plan.games)`` games and a tenth of that
    (after its kernels are compiled or loaded from the cache, which is not counted): the
    difference of the two times gives the speed, the rest the cost of a point (set-up,
    summary, paired per-game outcomes)."""
    from sim.api import prepare, run_config

    n2 = max(2, min(games, plan.games))
    n1 = max(1, n2 // 10)
    times = []
    for n in (n1, n1, n2):  # the first call pays one-time costs (imports, caches): not counted
        run = _compile(plan.config, Point(0, {}, plan.points[0].sets, None), None, n, plan.seed)
        prepare(run)
        t0 = time.perf_counter()
        run_config(run, threads=threads, backend=backend, workers=workers, write_rows=False)
        times.append(time.perf_counter() - t0)
    dt = times[2] - times[1]
    gps = (n2 - n1) / dt if dt > 0 else n2 / max(times[2], 1e-9)
    return gps, max(0.0, times[1] - n1 / gps)


def plan_lines(plan: SensitivityPlan, speed: tuple[float, float] | None = None) -> list[str]:
    """The plan as the terminal prints it before playing: method, keys (each with its steps or
    bounds and groups), points, games per point, games in all and the time estimate."""
    lines = [f"sensitivity of {plan.name} ({plan.game}), method {plan.method}: {len(plan.keys)} key"
             f"{'s' if len(plan.keys) != 1 else ''}"]
    for k in plan.keys:
        if plan.method == "oat":
            moves = ", ".join(s[0] + ("" if s[0].startswith("=") else f" (= {_show(s[1])})")
                              + (" not played: out of range" if len(s) == 3 else "") for s in oat_steps(k))
        else:
            lo, hi = plan.bounds[k.key]
            moves = f"over {', '.join(_show(c) for c in k.choices)}" if k.kind == "choice" else \
                f"over [{lo:g}, {hi:g}]"
        grp = "".join(f"; {g.describe()}" for g in k.groups)
        lines.append(f"  {k.key} = {_show(k.value)}: {moves}{grp}")
    if plan.method == "morris":
        lines.append(f"Morris: {plan.trajectories} trajectories of {len(plan.keys) + 1} points, {MORRIS_LEVELS} levels")
    lines.append(f"{len(plan.points)} points x {plan.games:,} games = {plan.total_games:,} games in all, "
                 f"every point on seed {plan.seed}")
    if plan.skipped:
        lines.append(f"{len(plan.skipped)} point{'s' if len(plan.skipped) != 1 else ''} not played:")
        lines += [f"  {p}: {why}" for p, why in plan.skipped]
    if speed is not None:
        gps, over = speed
        est = plan.total_games / gps + over * len(plan.points) if gps > 0 else float("nan")
        lines.append(f"estimate: about {_duration(est)} at the config's measured {gps:,.0f} games/s "
                     f"(+{over:.1f} s a point)")
    return lines


def _duration(s: float) -> str:
    if not s == s:
        return "?"
    if s < 90:
        return f"{s:.0f} s"
    if s < 5400:
        return f"{s / 60:.0f} min"
    return f"{s / 3600:.1f} h"


# ------------------------------------------------------------------ results


def play(plan: SensitivityPlan, threads: int | None = None, on_progress: Callable[[int], None] | None = None,
         backend: str = "local", workers: int = 2) -> list[Any]:
    """Play every point (:func:`sim.sweep.play_sweep`); returns their RunOutputs."""
    from sim.sweep import play_sweep

    return play_sweep(plan, threads=threads, on_progress=on_progress, backend=backend, workers=workers)  # type: ignore[arg-type]


def step_text(r: dict) -> str:
    """``+1 (= 10)`` for a number's step, ``=greedy`` for a choice's alternative."""
    return r["step"] if r["step"].startswith("=") else f"{r['step']} (= {r['value']})"


def is_change_rate(row: Any) -> bool:
    from sim.check.stats import is_rate

    return bool(is_rate(row) or row.kind == "share")


def oat_records(plan: SensitivityPlan, outputs: Sequence[Any]) -> list[dict]:
    """One record per OAT point and gated headline metric: ``metric`` (label), ``key``,
    ``step``, ``value`` (the key's new value, TOML text), ``change`` (point minus p00, in the
    metric's unit: rates as fractions), ``ci_low`` / ``ci_high`` (its paired 95 % interval),
    ``p`` (the test's p-value), ``n`` (the point's games the metric counts: all of them, or
    those it is defined on, such as the games with a sole midpoint leader of ``runaway_rate``),
    ``test``, ``corr``, ``point`` (folder),
    ``rate`` (True for a rate: shown in percentage points)."""
    changes = point_changes(plan, outputs, 0)  # type: ignore[arg-type]
    out = []
    for p in plan.points[1:]:
        st = plan.steps[p.index]
        for label, r in changes.get(p.index, {}).items():
            out.append({"metric": label, "key": st.key, "step": st.step, "value": _show(st.value),
                        "change": _num(r.change), "ci_low": _num(r.ci_low), "ci_high": _num(r.ci_high),
                        "p": _num(r.p_value), "n": int(r.n_b) if r.n_b is not None else plan.games,
                        "test": r.test, "corr": _num(r.corr),
                        "point": p.folder, "rate": is_change_rate(r)})
    return out


def _num(x: Any) -> float | None:
    from sim.report.writer import _finite

    return _finite(x)


def ranking(records: Sequence[dict], metric: str) -> list[tuple[str, dict]]:
    """The keys ranked by the largest |change| of ``metric`` over their steps: ``[(key, that
    record)]``, largest first (ties: the key's order in the plan)."""
    best: dict[str, dict] = {}
    for r in records:
        if r["metric"] != metric or r.get("change") is None:
            continue
        if r["key"] not in best or abs(r["change"]) > abs(best[r["key"]]["change"]):
            best[r["key"]] = r
    order = list(best)
    return sorted(best.items(), key=lambda kv: (-abs(kv[1]["change"]), order.index(kv[0])))


def balance_metric(plan: SensitivityPlan, metrics: Sequence[str]) -> tuple[str, str]:
    """(metric label, designer words) of the verdict: first-player advantage for a competitive
    game (seat balance), else the team's win rate, else the first headline metric."""
    for m, words in (("first_player_advantage", "seat balance (first-player advantage)"),
                     ("win_rate", "the team's win rate"), ("loss_rate", "the loss rate")):
        if m in metrics:
            return m, words
    return metrics[0], metrics[0]


def fmt_change(r: dict, ci: bool = True) -> str:
    """``+1.2 pp [+0.4, +2.0]`` (rates in percentage points) or ``-3.1 [-4.0, -2.2]``."""
    scale = 100.0 if r.get("rate") else 1.0
    lo, hi = r.get("ci_low"), r.get("ci_high")
    if r.get("step") != "morris" and r["change"] == 0 and lo == 0 and hi == 0:
        return "0 (no game differs)"
    width = (hi - lo) * scale if lo is not None and hi is not None else 0.0
    dec = 2 if not width > 0 else max(0, min(4, 1 - math.floor(math.log10(width))))
    while dec < 4 and any(x and round(scale * x, dec) == 0 for x in (lo, hi)):
        dec += 1  # a bound near 0 shows on which side of 0 it lies (no "+0.0" or "-0.0")
    text = f"{scale * r['change']:+.{dec}f}" + (" pp" if r.get("rate") else "")
    if ci and lo is not None and hi is not None:
        text += f" [{scale * lo:+.{dec}f}, {scale * hi:+.{dec}f}]"
    return text


# ------------------------------------------------------------------ Morris


def bounds_text(plan: SensitivityPlan, key: str) -> str:
    """A Morris key's range as the tables show it: ``[8, 11]``, or a choice's alternatives."""
    k = next(k for k in plan.keys if k.key == key)
    if k.kind == "choice":
        return ", ".join(_show(c) for c in k.choices)
    lo, hi = plan.bounds[key]
    return f"[{lo:g}, {hi:g}]"


def sd_text(r: dict) -> str:
    """A record's sigma, unsigned, in the unit of its change (``0.9 pp``), or ``-``."""
    if r.get("sigma") is None:
        return "-"
    return fmt_change({**r, "change": r["sigma"]}, False).lstrip("+")


def morris_stats(rows: Sequence[Sequence[float]], y: Sequence[float], bounds: Sequence[tuple[float, float]],
                 num_resamples: int = 1000, conf_level: float = 0.95, seed: int = 0) -> dict[str, list[float]]:
    """Morris statistics of trajectories of D+1 points (``rows``: [points, D] coordinates,
    trajectory after trajectory, each point differing from the one before in one coordinate;
    ``y``: [points] the metric; ``bounds``: D ranges). An elementary effect of coordinate j is
    ``(y[i+1] - y[i]) / ((x[i+1, j] - x[i, j]) / (hi_j - lo_j))`` (SALib's definition: per whole
    range, its step being the one really taken); a step of 0 gives none. Returns ``mu``,
    ``mu_star``, ``sigma`` (ddof 1), ``mu_star_conf`` (SALib's bootstrap: ``num_resamples``
    resamples of the effects, the normal quantile times their sd; ``seed`` its generator) and
    ``n`` (effects per coordinate), each a list of D floats (NaN where there is no effect)."""
    import numpy as np
    from scipy.stats import norm

    X = np.asarray(rows, dtype=float)
    Y = np.asarray(y, dtype=float)
    D = X.shape[1]
    size = D + 1
    ee: list[list[float]] = [[] for _ in range(D)]
    for t in range(X.shape[0] // size):
        xs, ys = X[t * size:(t + 1) * size], Y[t * size:(t + 1) * size]
        for i in range(D):
            d = xs[i + 1] - xs[i]
            moved = np.flatnonzero(d != 0)
            if len(moved) != 1:
                continue
            j = int(moved[0])
            lo, hi = bounds[j]
            ee[j].append(float((ys[i + 1] - ys[i]) / (d[j] / (hi - lo))))
    rng = np.random.default_rng(seed)
    out: dict[str, list[float]] = {"mu": [], "mu_star": [], "sigma": [], "mu_star_conf": [], "n": []}
    z = norm.ppf(0.5 + conf_level / 2)
    for j in range(D):
        e = np.asarray(ee[j])
        out["n"].append(float(len(e)))
        if len(e) == 0:
            for k in ("mu", "mu_star", "sigma", "mu_star_conf"):
                out[k].append(float("nan"))
            continue
        out["mu"].append(float(np.mean(e)))
        out["mu_star"].append(float(np.mean(np.abs(e))))
        out["sigma"].append(float(np.std(e, ddof=1)) if len(e) > 1 else float("nan"))
        idx = rng.integers(len(e), size=(num_resamples, len(e)))
        out["mu_star_conf"].append(float(z * np.mean(np.abs(e[idx]), axis=1).std(ddof=1)))
    return out


def morris_records(plan: SensitivityPlan, outputs: Sequence[Any]) -> list[dict]:
    """One record per headline metric and key: ``metric``, ``key``, ``step`` ("morris"),
    ``change`` (= mu*), ``ci_low`` / ``ci_high`` (mu* -/+ its bootstrap half-width), ``p``
    (None), ``n`` (elementary effects), ``mu``, ``mu_star``, ``mu_star_conf``, ``sigma``,
    ``low`` / ``high`` (the key's bounds), ``rate``."""
    from sim.report.format import is_percent
    from sim.sweep import _find, _label, headline_records

    summaries = [o.summary for o in outputs]
    series = headline_records(plan.game, [r for s in summaries for r in s["metrics"]])
    bounds = [plan.bounds[k.key] for k in plan.keys]
    bounds_c = [(0.0, float(len(k.choices) - 1)) if k.kind == "choice" else plan.bounds[k.key] for k in plan.keys]
    out = []
    for s_key in series:
        recs = [_find(s["metrics"], s_key) for s in summaries]
        if any(r is None or _num(r.get("value")) is None for r in recs):
            continue
        y = [float(r["value"]) for r in recs]
        st = morris_stats(plan.morris_rows, y, bounds_c, seed=plan.seed % (2**32))
        rate = is_percent(recs[0])
        for j, k in enumerate(plan.keys):
            mu_star, conf = st["mu_star"][j], st["mu_star_conf"][j]
            out.append({"metric": _label(s_key), "key": k.key, "step": "morris", "change": _num(mu_star),
                        "ci_low": _num(mu_star - conf) if conf == conf else None,
                        "ci_high": _num(mu_star + conf) if conf == conf else None,
                        "p": None, "n": int(st["n"][j]), "mu": _num(st["mu"][j]), "mu_star": _num(mu_star),
                        "mu_star_conf": _num(conf), "sigma": _num(st["sigma"][j]),
                        "low": bounds[j][0], "high": bounds[j][1], "rate": rate})
    return out


# ------------------------------------------------------------------ the report


def records_of(plan: SensitivityPlan, outputs: Sequence[Any]) -> list[dict]:
    return oat_records(plan, outputs) if plan.method == "oat" else morris_records(plan, outputs)


def _metrics(records: Sequence[dict], plan: SensitivityPlan | None = None) -> list[str]:
    """The metrics of ``records`` in record order; with ``plan``, the verdict's metric first."""
    out = list(dict.fromkeys(r["metric"] for r in records))
    if plan is not None and out:
        first = balance_metric(plan, out)[0]
        out = [first] + [m for m in out if m != first]
    return out


def verdict_lines(plan: SensitivityPlan, records: Sequence[dict]) -> list[str]:
    """The verdict: the five knobs that move the balance metric most, each with its change
    (oat: the step that moved it most, with its paired interval; morris: mu* and sigma)."""
    from sim.report.format import md_escape

    metrics = _metrics(records)
    if not metrics:
        return ["No change could be measured (every point was skipped or no headline metric is tested)."]
    metric, words = balance_metric(plan, metrics)
    ranked = ranking(records, metric)
    top = ranked[:TOP]
    lines = []
    mine = [r for r in records if r["metric"] == metric and r.get("change") is not None]
    if plan.method == "oat" and mine and all(
            r.get("ci_low") is not None and r.get("ci_high") is not None and r["ci_low"] <= 0 <= r["ci_high"]
            for r in mine):
        lines += [f"**No knob moved {words} beyond sampling noise at {plan.games:,} games a point**: every "
                  "change's 95 % interval holds 0. The largest changes, to play again with more games "
                  "(`--games`) before reading them as effects:", ""]
    lines += [f"**The {len(top)} knobs that move {words} most** (of {len(ranked)} keys"
             + (", one step each way from the config's own value" if plan.method == "oat" else
                ", Morris screening: mu* is the mean absolute effect over the key's range") + "):", ""]
    for i, (key, r) in enumerate(top, 1):
        if plan.method == "oat":
            sig = "" if r.get("p") is None else f", p = {r['p']:.2g}"
            lines.append(f"{i}. `{md_escape(key)}` {md_escape(step_text(r))}: {metric} {fmt_change(r)}{sig}")
        else:
            lines.append(f"{i}. `{md_escape(key)}` (over {md_escape(bounds_text(plan, key))}): mu* "
                         f"{fmt_change({**r, 'change': r['mu_star']})}, sigma {sd_text(r)}")
    lines.append("")
    if plan.method == "oat":
        lines += ["Read a change whose interval holds 0 as noise. Every change is measured from the same point "
                  "p00, so all of them share p00's own luck: when most changes of a metric lean one way, p00 may "
                  "simply have drawn an unusual value (more games per point narrow every interval).", ""]
    return lines


def _tick_formatter(scale: float, lo: float, hi: float):
    """A formatter with as many decimals as the tick spacing needs (ticks never round alike)."""
    from matplotlib.ticker import FuncFormatter

    span = max(abs(hi - lo) * scale, 1e-12)
    dec = max(0, min(6, 1 - math.floor(math.log10(span / 5))))
    return FuncFormatter(lambda v, _p: f"{scale * v:+.{dec}f}")


def tornado_plots(plan: SensitivityPlan, records: Sequence[dict], folder: Path) -> list[tuple[str, str, str]]:
    """One tornado chart per headline metric (``tornado_<metric>.png``): the
    :data:`TORNADO_KEYS` keys of largest effect, highest first; oat: one bar per step with its
    paired 95 % interval; morris: mu* with its bootstrap interval. Returns ``[(metric, title,
    file name)]``."""
    from sim.report.plots import DPI, GRID, _plt
    from sim.sweep import _slug

    plt = _plt()
    out = []
    for metric in _metrics(records, plan):
        ranked = ranking(records, metric)[:TORNADO_KEYS]
        if not ranked:
            continue
        rows = []
        for key, _best in ranked:
            rows += [r for r in records if r["metric"] == metric and r["key"] == key and r.get("change") is not None]
        rate = bool(rows[0].get("rate"))
        scale = 100.0 if rate else 1.0
        fig, ax = plt.subplots(figsize=(7.5, 0.8 + 0.32 * len(rows)))
        ys = list(range(len(rows)))[::-1]
        labels, colors = [], []
        for r in rows:
            labels.append(f"{r['key'].split('.', 1)[-1] if r['key'].startswith(plan.game + '.') else r['key']} "
                          + (step_text(r) if plan.method == "oat" else ""))
            colors.append("C3" if r["step"].startswith("-") else "C0" if r["step"].startswith("+") else "C2")
        vals = [r["change"] for r in rows]
        err = [[max(0.0, r["change"] - r["ci_low"]) if r.get("ci_low") is not None else 0.0 for r in rows],
               [max(0.0, r["ci_high"] - r["change"]) if r.get("ci_high") is not None else 0.0 for r in rows]]
        ax.barh(ys, vals, color=colors, xerr=err, capsize=2, error_kw={"elinewidth": 0.8})
        ax.axvline(0.0, color="0.3", linewidth=0.8)
        ax.set_yticks(ys, labels, fontsize=7)
        lo = min([v - e for v, e in zip(vals, err[0])] + [0.0])
        hi = max([v + e for v, e in zip(vals, err[1])] + [0.0])
        ax.xaxis.set_major_formatter(_tick_formatter(scale, lo, hi))
        unit = " (percentage points)" if rate else ""
        if metric.startswith("turns_"):
            from sim.games import get_game

            unit = f" ({get_game(plan.game).length_unit})"
        if plan.method == "oat":
            ax.set_xlabel(f"change of {metric}{unit}", fontsize=9)
            title = f"{metric}: change per step from the config's own value\n(95% paired intervals)"
            from matplotlib.patches import Patch

            kinds = [("C3", "one step down"), ("C0", "one step up"), ("C2", "another alternative")]
            ax.legend(handles=[Patch(color=c, label=t) for c, t in kinds if c in colors], fontsize=7,
                      loc="lower right")
        else:
            ax.set_xlabel(f"mu* of {metric} per the key's range{unit}", fontsize=9)
            title = f"{metric}: Morris mu* (mean |elementary effect|)\n(95% bootstrap intervals)"
        ax.set_title(title, fontsize=10)
        ax.grid(**{**GRID, "axis": "x"})
        fig.tight_layout()
        name = f"tornado_{_slug(metric).replace('=', '-')}.png"  # the names the folder check reads: [\w.-]
        fig.savefig(folder / name, dpi=DPI)
        plt.close(fig)
        out.append((metric, title.replace("\n", " "), name))
    return out


def render_md(plan: SensitivityPlan, records: Sequence[dict], figures: list[tuple[str, str, str]]) -> str:
    """The text of ``sensitivity.md``: the verdict, the tornado charts, the ranked table per
    metric, the points not played and how the run was made."""
    from sim.report.format import md_escape, md_table

    src = lambda name: f"plots/{name}"  # noqa: E731
    title = plan.outputs[0].summary.get("title", plan.game) if plan.outputs else plan.game
    lines = [f"# Sensitivity: {md_escape(title)} ({md_escape(plan.name)})", ""]
    lines += verdict_lines(plan, records)
    how = (f"Method `{plan.method}`: {len(plan.keys)} keys, {len(plan.points)} points x {plan.games:,} games, every "
           f"point on seed {plan.seed} (common random numbers: game g of every point is dealt from the same streams).")
    if plan.method == "oat":
        how += (" Point p00 is the config itself; every other point moves one key one step (its linked partner "
                "with it); each change is that point minus p00, measured game by game, with its paired 95 % "
                "interval (per figure, not adjusted for the many figures): the same number `sim sweep CONFIG "
                "--param KEY=OWN,NEW` gives.")
    else:
        how += (f" SALib's Morris design, {plan.trajectories} trajectories, {MORRIS_LEVELS} levels; mu* = mean "
                "|elementary effect|, an effect being the change of the metric divided by the key's step as a "
                "share of its range (so mu* is in the metric's unit per whole range); sigma = their sd "
                "(interactions or non-linearity); the interval is mu* ± SALib's 95 % bootstrap half-width.")
    lines += [how, ""]
    lines += ["## Tornado charts", ""]
    for metric, t, name in figures:
        lines += [f"### {md_escape(metric)}", "", f"![{md_escape(t)}]({src(name)})", ""]
    lines += ["## Table", ""]
    for metric in _metrics(records, plan):
        lines += [f"### {md_escape(metric)}", ""]
        rows = []
        for rank, (key, _b) in enumerate(ranking(records, metric), 1):
            for r in (x for x in records if x["metric"] == metric and x["key"] == key):
                if plan.method == "oat":
                    rows.append([str(rank), f"`{md_escape(key)}`", md_escape(r["step"]), md_escape(r["value"]),
                                 fmt_change(r), "-" if r["p"] is None else f"{r['p']:.3g}",
                                 md_escape(r.get("test") or ""), r["point"]])
                else:
                    rows.append([str(rank), f"`{md_escape(key)}`", md_escape(bounds_text(plan, key)),
                                 fmt_change({**r, "change": r["mu_star"]}),
                                 fmt_change({**r, "change": r["mu"] or 0.0}, False),
                                 sd_text(r),
                                 str(r["n"])])
        head = ["rank", "key", "step", "value", "change [95 % interval]", "p", "test", "point"] \
            if plan.method == "oat" else ["rank", "key", "bounds", "mu* [95 % interval]", "mu", "sigma", "effects"]
        lines += [md_table(head, rows), ""]
    if plan.skipped:
        lines += ["## Points not played", ""]
        lines += [f"* {md_escape(p)}: {md_escape(why)}" for p, why in plan.skipped] + [""]
    lines += ["## Files", "", "`sensitivity.json` (the plan, the points and every record), `sensitivity.parquet` "
              "(the records), `points/p<NN>/` (each point's summary, manifest and config as run), `plots/`.", ""]
    return "\n".join(lines)


def is_sensitivity_folder(folder: Path) -> bool:
    """True when ``folder`` is a sensitivity folder sim wrote (``sensitivity.json`` of
    :data:`SENSITIVITY_FORMAT`, nothing but its files, ``plots/`` and ``points/``)."""
    from sim.sweep import is_points_folder

    return is_points_folder(folder, "sensitivity", SENSITIVITY_FILES)


def default_folder(plan: SensitivityPlan) -> Path:
    """``reports/<run name>-sensitivity``."""
    return Path("reports") / f"{plan.name}-sensitivity"


def records_frame(records: Sequence[dict]):
    """``sensitivity.parquet``: one row per record (columns of :func:`oat_records` /
    :func:`morris_records`; values as TOML text)."""
    import polars as pl

    cols = ["metric", "key", "step", "value", "change", "ci_low", "ci_high", "p", "n", "test", "corr", "point",
            "mu", "mu_star", "mu_star_conf", "sigma", "low", "high"]
    types = {"metric": pl.Utf8, "key": pl.Utf8, "step": pl.Utf8, "value": pl.Utf8, "test": pl.Utf8, "point": pl.Utf8,
             "n": pl.Int64}
    return pl.DataFrame({c: pl.Series([r.get(c) for r in records], dtype=types.get(c, pl.Float64)) for c in cols})


def write_sensitivity(dest: Path, plan: SensitivityPlan, outputs: Sequence[Any] | None = None) -> tuple[Path, list[dict]]:
    """Write the folder of a played ``plan`` atomically: ``sensitivity.html`` (self-contained),
    ``sensitivity.md``, ``sensitivity.json``, ``sensitivity.parquet``, ``plots/tornado_*.png``,
    ``points/p<NN>/``. Returns (``dest``, the records). Raises OutputError."""
    from sim.jsonio import write_json
    from sim.outputs import atomic_folder
    from sim.report.writer import _write_parquet, render_html
    from sim.sweep import write_points

    outputs = list(outputs if outputs is not None else plan.outputs)
    plan.outputs = outputs
    records = records_of(plan, outputs)
    with atomic_folder(dest, is_sensitivity_folder, "sensitivity") as tmp:
        write_points(tmp, plan.points, outputs, "sensitivity")
        plots = tmp / "plots"
        plots.mkdir()
        figures = tornado_plots(plan, records, plots)
        md = render_md(plan, records, figures)
        (tmp / "sensitivity.md").write_text(md, encoding="utf-8")
        # the report's page maker embeds plots/*.png, so the page is one file
        (tmp / "sensitivity.html").write_text(render_html(md, f"Sensitivity: {plan.name}", plots), encoding="utf-8")
        _write_parquet(records_frame(records), tmp / "sensitivity.parquet")
        write_json({
            "format": SENSITIVITY_FORMAT, "config": str(plan.config), "run": plan.name, "game": plan.game,
            "method": plan.method, "seed": plan.seed, "games": plan.games,
            "keys": [{"key": k.key, "kind": k.kind, "value": k.value, "low": k.lo, "high": k.hi,
                      "choices": k.choices, "step": k.step, "bounds": list(plan.bounds.get(k.key, ())) or None,
                      "groups": [{"partner": g.partner, "follow": g.follow, "factor": g.factor} for g in k.groups]}
                     for k in plan.keys],
            "points": [{"index": p.index, "folder": f"points/{p.folder}",
                        "key": st.key if st else None, "step": st.step if st else None,
                        "values": p.values, "config_hash": p.run.cfg.config_hash()}
                       for p, st in zip(plan.points, plan.steps)],
            "skipped": [{"point": p, "reason": why} for p, why in plan.skipped],
            "trajectories": plan.trajectories if plan.method == "morris" else None,
            "records": records,
            "ranking": {m: [k for k, _r in ranking(records, m)] for m in _metrics(records)},
            "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        }, tmp / "sensitivity.json")
    return Path(dest), records


def ranked_table(plan: SensitivityPlan, records: Sequence[dict], width: int = 120):
    """The terminal summary (a rich Table): the keys ranked by their effect on the verdict's
    metric, each with its largest change and interval (oat) or mu* and sigma (morris)."""
    from rich.markup import escape
    from rich.table import Table

    metrics = _metrics(records)
    if not metrics:
        t = Table(title="no change measured")
        return t
    metric, words = balance_metric(plan, metrics)
    t = Table(title=escape(f"{plan.name}: keys ranked by their effect on {words}, {plan.games:,} games a point, "
                           f"seed {plan.seed}"))
    t.add_column("rank", justify="right")
    t.add_column("key", overflow="fold")
    if plan.method == "oat":
        t.add_column("step")
        t.add_column(escape(f"change of {metric} [95 % paired interval]"), justify="right")
        t.add_column("p", justify="right")
    else:
        t.add_column("bounds")
        t.add_column(escape(f"mu* of {metric} [95 %]"), justify="right")
        t.add_column("sigma", justify="right")
    for i, (key, r) in enumerate(ranking(records, metric), 1):
        if plan.method == "oat":
            t.add_row(str(i), escape(key), escape(step_text(r)), escape(fmt_change(r)),
                      "-" if r["p"] is None else f"{r['p']:.3g}")
        else:
            t.add_row(str(i), escape(key), escape(bounds_text(plan, key)), escape(fmt_change(r)), escape(sd_text(r)))
    return t
