"""``sim tune``: search the config's design keys for values that meet the designer's targets,
then prove the best candidates on games the search never saw.

The search space and the objectives come from the config's ``[tune]`` table
(:class:`sim.config.TuneConfig`, docs/tune.md):

* ``[tune.space]``: dotted keys (as ``--set`` takes them) with an integer or float range
  (``low``, ``high``, ``step``, ``log``; the config's value says whether the key is an integer),
  ``choices`` (any TOML values, whole lists included), or, on a list of numbers, a range every
  item takes, with ``total`` keeping the items' sum (a deck composition). ``[[tune.groups]]``:
  linked keys as in ``[sensitivity]`` (:class:`sim.design.Group`): a searched leader's partner
  follows the leader's change from the config's value.
* ``targets`` (default: the ``[checks]`` targets): the bands a candidate must meet. The
  search minimises the **miss**: the sum, over every record a target matches, of how far the
  record's value lies outside its band, in the metric's unit (a rate as a fraction: 0.01 = one
  point). The band is first narrowed on each side by the half-width of the record's 95 %
  interval the proof will have (its interval at this rung scaled by sqrt(games / confirm
  games)), so that a candidate the search calls on target can pass the proof, which asks for the
  whole interval inside the band.
* ``prefer``: further objectives after the targets (a metric in a band or near a value, the
  fewest keys changed). One objective is searched with optuna's TPE; several give a Pareto
  front (TPE handles several objectives; ``sampler = "nsga2"`` takes NSGA-II).

**Common random numbers.** Every candidate plays the config's seed, game for game: game g of
every candidate is dealt from the same streams, so two candidates differ by their values, not
by their luck.

**Racing.** A candidate plays in rungs (``rungs``, default 2,000, 8,000 and 32,000 games; each
rung plays its games from game 0, so rung k+1 holds rung k's games). After every rung but the
last it is dropped (optuna's PRUNED state) when even the most favourable reading of its
intervals (every record moved to the end of its 95 % interval nearest the band) misses by more
than the best miss another candidate measured at the same rung on the same games. The
preferences never drop a candidate.

**Proof.** The ``top`` best candidates that played every rung (ranked by miss, then by the
preferences in the order given, then by the fewest keys changed) are played again on a fresh
seed (``confirm_seed``, default the config's seed + 1,000,003) with ``confirm_games`` games. A
finalist passes when every target record's 95 % interval lies inside its band. The
recommendation is the first finalist, in the search's order, that passes (never the best of the
proof's draws, which would flatter it again); when none passes, the page says so and how close
the closest came. The recommendation is then compared with the current config on the fresh
seed, game by game (paired, as ``sim compare`` does).

Output folder (``reports/<run name>-tune/`` by default): ``tuned.toml`` (the original file,
comments kept, each changed value commented; ``sim run tuned.toml`` plays it), ``tune.html``
(verdict first), ``tune.md``, ``tune.json``, ``plots/*.png`` and ``tune.db``: the optuna study
(SQLite), which holds every finished trial from the start of the search, so Ctrl-C keeps them
and ``--resume`` continues. Everything but ``tune.db`` is written at the end, atomically.

Bad input (an unknown key, a key that is a run setting, an empty range, a value the config's
key cannot take, a target or preference no metric of the game has, a budget below 1) is a
ConfigError naming the key; nothing is played or written.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from sim.errors import ConfigError
from sim.overrides import Override, parse_key, parse_sets

TUNE_FORMAT = "sim-tune/1"
TUNE_FILES = {"tune.md", "tune.html", "tune.json", "tuned.toml", "tune.db"}
FLAG = "[tune]"
"""The flag a candidate's overrides name in messages: ``(from [tune] KEY=VALUE)``."""
CONFIRM_SEED_OFFSET = 1_000_003
"""The proof's default seed is the config's seed plus this (a fresh set of streams)."""
PENALTY = 1e6
"""The objective value of a candidate the game cannot be set up from (every objective)."""
Z95 = 1.959963984540054
LADDER_METRICS = {
    "skill_ladder": {frozenset({"level", "seat"}), frozenset({"level"})},
    "skill_ladder_first_player": {frozenset({"level"})},
    "skill_ladder_length": {frozenset({"level"})},
    "skill_step": {frozenset({"level", "below"})},
}
"""Records of the skill ladder (:mod:`sim.skill_ladder`) a target or a preference may name: a
candidate then also plays the config's ladder at every rung (every level on the same deals)."""


class Infeasible(Exception):
    """A candidate the game cannot be set up from (a list whose fixed total forces an item out
    of its range, a config the game refuses); the message says why."""


# ------------------------------------------------------------------ the search space


@dataclass
class Dim:
    """One searched key of ``[tune.space]``: ``key`` (dotted, as written), ``path``
    (:func:`sim.overrides.parse_key`), ``kind`` (``int``, ``float``, ``choice``, ``list``: a list
    of numbers searched item by item, ``table``: a table of numbers such as a deck's card counts,
    searched entry by entry), the table entry ``spec`` and the config's ``current`` value."""

    key: str
    path: tuple
    kind: str
    spec: Any
    current: Any
    integer: bool = True

    @property
    def texts(self) -> list[str]:
        """A choice key's alternatives as TOML text (optuna's categorical values)."""
        from sim.sweep import toml_value

        return [toml_value(c) for c in self.spec.choices]

    def size(self) -> float:
        """How many values the key can take (inf for a continuous range)."""
        s = self.spec
        if self.kind == "choice":
            return float(len(s.choices))
        if not self.integer and s.step is None:
            return math.inf
        step = s.step or 1

        def count(i: int | None) -> float:
            lo, hi = self.bounds(i)
            return float(math.floor((hi - lo) / step + 1e-9) + 1)

        if self.kind in ("list", "table"):
            k = len(self.current) - (1 if s.total is not None else 0)
            return math.prod(count(i) for i in range(k))
        return count(None)

    def _values(self) -> list:
        if self.kind == "table":
            return list(self.current.values())
        return list(self.current) if self.kind == "list" else [self.current]

    def bounds(self, i: int | None = None) -> tuple[float, float]:
        """The range of the value (``i`` None) or of item ``i`` of a list or table: ``low`` /
        ``high``, or the config's value plus or minus ``around`` (not below 0 when the config's
        value is not)."""
        s = self.spec
        if s.around is None:
            return float(s.low), float(s.high)
        c = self._values()[0 if i is None else i]
        lo = c - s.around
        if c >= 0:
            lo = max(0.0, lo)
        return float(lo), float(c + s.around)

    def range_text(self) -> str:
        s = self.spec
        if s.around is not None:
            return f"its value ± {s.around:g}"
        return f"[{s.low:g}, {s.high:g}]"

    def item_names(self) -> list[str]:
        """optuna's parameter names of a list's or a table's items: ``KEY[i]`` / ``KEY.NAME``."""
        if self.kind == "table":
            return [f"{self.key}.{k}" for k in self.current]
        return [f"{self.key}[{i}]" for i in range(len(self.current))]

    def suggest(self, trial: Any) -> Any:
        """The value trial ``trial`` (optuna) takes for this key; raises :class:`Infeasible`
        when a fixed total forces the last item of a list out of its range."""
        s = self.spec
        if self.kind == "choice":
            t = trial.suggest_categorical(self.key, self.texts)
            return s.choices[self.texts.index(t)]
        if self.kind in ("int", "float"):
            return self._one(trial, self.key)
        names = self.item_names()
        free = len(names) - 1 if s.total is not None else len(names)
        items = [self._one(trial, name, i) for i, name in enumerate(names[:free])]
        if s.total is not None:
            last = s.total - sum(items)
            lo, hi = self.bounds(len(names) - 1)
            if not (lo <= last <= hi):
                raise Infeasible(f"{self.key}: the items {items} leave {last:g} for the last item (total "
                                 f"{s.total}), outside [{lo:g}, {hi:g}]")
            items.append(int(last) if self.integer else float(last))
        return dict(zip(self.current, items)) if self.kind == "table" else items

    def _one(self, trial: Any, name: str, i: int | None = None) -> Any:
        s = self.spec
        lo, hi = self.bounds(i)
        if self.integer:
            return trial.suggest_int(name, int(lo), int(hi), step=int(s.step or 1))
        return trial.suggest_float(name, lo, hi, step=s.step, log=s.log)

    def params_of(self, value: Any) -> dict[str, Any] | None:
        """The optuna parameters that stand for ``value`` (to enqueue the config itself as the
        first trial), or None when the value lies outside the searched space."""
        from sim.sweep import toml_value

        s = self.spec
        if self.kind == "choice":
            t = toml_value(value)
            return {self.key: t} if t in self.texts else None
        if self.kind == "table":
            if set(value) != set(self.current):
                return None
            vals = [value[k] for k in self.current]
        else:
            vals = [value] if self.kind in ("int", "float") else list(value)
        names = [self.key] if self.kind in ("int", "float") else self.item_names()
        if self.kind in ("list", "table") and s.total is not None:
            if sum(vals) != s.total:
                return None
            vals, names = vals[:-1], names[:-1]
        step = s.step or (1 if self.integer else None)
        for i, v in enumerate(vals):
            lo, hi = self.bounds(None if self.kind in ("int", "float") else i)
            if not (lo <= v <= hi) or (step and abs((v - lo) / step - round((v - lo) / step)) > 1e-9):
                return None
        return dict(zip(names, vals))

    def changed(self, value: Any) -> int:
        """How many items of this key ``value`` changes from the config (a scalar: 0 or 1)."""
        if self.kind == "list":
            return sum(1 for a, b in zip(value, self.current) if a != b)
        if self.kind == "table":
            return sum(1 for k in self.current if value.get(k) != self.current[k])
        from sim.sweep import _same

        return 0 if _same(self.current, value) else 1


def _dim(base: Any, key: str, spec: Any, dump: dict, source: str) -> Dim:
    from sim.config import RunConfig
    from sim.design import lookup

    where = f"tune.space.{key}"
    try:
        path = parse_key(key, source)
    except ConfigError as e:
        raise ConfigError(source, where, e.reason) from None
    if path[0] in RunConfig.model_fields and path[0] != "seats":
        raise ConfigError(source, where, f"{key!r} is a run setting, not a design parameter (the search plays every "
                          "candidate with the config's run settings)")
    try:
        cur = lookup(dump, path)
    except KeyError:
        raise ConfigError(source, where, f"no such key {key!r} in the config or the {base.game} section") from None
    if spec.choices is not None:
        return Dim(key, path, "choice", spec, cur)

    def number(x: Any) -> bool:
        return isinstance(x, int | float) and not isinstance(x, bool)

    if isinstance(cur, list):
        if not cur or not all(number(x) for x in cur):
            raise ConfigError(source, where, "a range fits a number or a list of numbers; give choices for this key")
        integer = all(isinstance(x, int) for x in cur)
        d = Dim(key, path, "list", spec, cur, integer)
    elif isinstance(cur, dict):
        if not cur or not all(number(x) for x in cur.values()):
            raise ConfigError(source, where, "a range fits a number, a list of numbers or a table of numbers (a "
                              "deck's counts); give choices for this key")
        integer = all(isinstance(x, int) for x in cur.values())
        d = Dim(key, path, "table", spec, dict(cur), integer)
    elif number(cur):
        integer = isinstance(cur, int)
        if spec.total is not None:
            raise ConfigError(source, where, "total applies to a list or a table key only")
        d = Dim(key, path, "int" if integer else "float", spec, cur, integer)
    else:
        raise ConfigError(source, where, f"{key!r} is not a number; give choices for it")
    if d.kind in ("list", "table") and spec.total is not None:
        lows = sum(d.bounds(i)[0] for i in range(len(cur)))
        highs = sum(d.bounds(i)[1] for i in range(len(cur)))
        if not lows <= spec.total <= highs:
            raise ConfigError(source, where, f"total {spec.total} cannot be made of {len(cur)} items in "
                              f"{d.range_text()} (they sum to {lows:g} .. {highs:g})")
    if integer:
        for name, x in (("low", spec.low), ("high", spec.high), ("step", spec.step), ("around", spec.around)):
            if x is not None and not float(x).is_integer():
                raise ConfigError(source, where, f"an integer key's {name} must be a whole number, got {x:g}")
        if spec.log:
            raise ConfigError(source, where, "log applies to a float range only")
    return d


# ------------------------------------------------------------------ the plan


@dataclass
class Objective:
    """One objective of the search: ``name`` (``miss`` or a preference's label) and, for a
    preference, its :class:`sim.config.TunePrefer`."""

    name: str
    prefer: Any = None


@dataclass
class TunePlan:
    """A validated search (nothing played): the config, its ``[tune]`` table, the searched
    keys, the targets, the objectives, the rungs, the proof's games and seed."""

    config: Path
    base: Any
    table: Any
    dims: list[Dim]
    groups: list[Any]
    targets: list[Any]
    targets_key: str
    objectives: list[Objective]
    rungs: list[int]
    confirm_games: int
    seed: int
    confirm_seed: int
    budget: int
    minutes: float | None
    base_sets: list[Override]
    dump: dict
    name: str
    origins: dict[str, str] | None = None
    speed: float | None = None
    """Games per second of the config (measured before the search)."""
    rate_units: bool = False
    """Every target record is a rate: a miss reads in points."""

    @property
    def ladder(self) -> bool:
        """A target or a preference names a skill-ladder record: every candidate plays the ladder."""
        names = [t.metric for t in self.targets] + [p.metric for p in self.table.prefer if not p.least_change]
        return any(n in LADDER_METRICS for n in names)

    @property
    def game(self) -> str:
        return self.base.game

    def space_size(self) -> float:
        n = 1.0
        for d in self.dims:
            n *= d.size()
        return n

    def overrides(self, values: dict[str, Any]) -> list[Override]:
        """The ``--set``-style overrides that make a candidate (its keys, then the partners of
        its linked groups); raises :class:`Infeasible` when a partner cannot follow."""
        from sim.design import follow, lookup
        from sim.sweep import toml_value

        ovs = list(self.base_sets)
        for d in self.dims:
            v = values[d.key]
            ovs.append(Override(d.key, d.path, v, FLAG, f"{d.key}={toml_value(v)}"))
        for g in self.groups:
            if g.leader not in values:
                continue
            lead = next(d for d in self.dims if d.key == g.leader)
            try:
                pv = lookup(self.dump, parse_key(g.partner, FLAG))
                new = follow(g, pv, values[g.leader] - lead.current)
            except (KeyError, ValueError) as e:
                raise Infeasible(f"{g.partner} cannot follow {g.leader}: {e}") from None
            ovs.append(Override(g.partner, parse_key(g.partner, FLAG), new, FLAG, f"{g.partner}={toml_value(new)}"))
        return ovs

    def current(self) -> dict[str, Any]:
        return {d.key: d.current for d in self.dims}


def plan_tune(config: Path, sets: Sequence[str] | None = None, budget: int | None = None,
              games: int | None = None, minutes: float | None = None, seed: int | None = None,
              confirm_games: int | None = None) -> TunePlan:
    """Validate the ``[tune]`` table of ``config`` (after ``--set`` flags ``sets``) and the
    flags: ``budget`` trials (None: the table's), ``games`` of the last rung (None: the table's
    rungs; given: the rungs keep their count, each a quarter of the next, at least 100),
    ``minutes`` of search (None: the table's), ``seed`` of the search (None: the config's),
    ``confirm_games`` of the proof (None: the table's).
    Compiles the config itself (nothing is played). Raises ConfigError naming the key."""
    from sim.check import checks_of
    from sim.cli_common import compile_checked
    from sim.design import Group
    from sim.overrides import load

    base_sets = parse_sets(sets)
    base = load(config, base_sets)
    compile_checked(config, sets=base_sets, seed=seed, games=games)  # a bad flag is named before a missing table
    table = base.tune
    source = base.source
    if table is None:
        raise ConfigError(str(config), "tune", "no [tune] table: declare the keys to search in [tune.space], e.g. "
                          "\"game.key\" = { low = 1, high = 9 } (docs/tune.md)")
    if budget is not None and budget < 1:
        raise ConfigError("--budget", "", f"must be at least 1 trial, got {budget}")
    dump = {**base.raw, base.game: base.section.model_dump(by_alias=True) if base.section is not None else {}}
    dims = [_dim(base, k, spec, dump, source) for k, spec in table.space.items()]
    paths = [d.path for d in dims]
    for i, d in enumerate(dims):
        for j, q in enumerate(paths[:i]):
            if d.path[:len(q)] == q or q[:len(d.path)] == d.path:
                raise ConfigError(source, f"tune.space.{d.key}", f"overlaps tune.space.{dims[j].key}: one key, "
                                  "searched once")
    groups = [Group(g.leader, g.partner, g.follow, g.factor) for g in table.groups]
    for i, g in enumerate(groups):
        lead = next((d for d in dims if d.key == g.leader), None)
        if lead is None or lead.kind not in ("int", "float"):
            raise ConfigError(source, f"tune.groups[{i}]", f"leader {g.leader!r} is not a numeric key of [tune.space]")
        if any(d.key == g.partner for d in dims):
            raise ConfigError(source, f"tune.groups[{i}]", f"partner {g.partner!r} is searched itself")
    if table.targets:
        targets, targets_key = list(table.targets), "tune.targets"
    else:
        targets, targets_key = list(checks_of(base).targets), "checks.targets"
    if not targets:
        raise ConfigError(source, "tune.targets", "no targets: give [tune] targets = [{ metric = ..., min = ..., "
                          "max = ... }] or [checks] targets")
    rungs = list(table.rungs)
    if games is not None:
        rungs = [max(100, games // 4 ** (len(rungs) - 1 - i)) for i in range(len(rungs))]
        rungs = sorted(set(rungs))
    plan = TunePlan(Path(config), base, table, dims, groups, targets, targets_key,
                    [Objective("miss")] + [Objective(p.label(), p) for p in table.prefer], rungs,
                    confirm_games or table.confirm_games, 0, 0, budget or table.budget,
                    minutes if minutes is not None else table.minutes, base_sets, dump, base.run_name)
    run = compile_checked(config, sets=base_sets, games=rungs[0], seed=seed)
    plan.seed = run.cfg.seed
    plan.confirm_seed = table.confirm_seed if table.confirm_seed is not None else \
        (plan.seed + CONFIRM_SEED_OFFSET) % 2**63
    if plan.confirm_seed == plan.seed:
        raise ConfigError(source, "tune.confirm_seed", "must differ from the search's seed: the proof plays fresh games")
    _check_names(plan, run)
    for d in dims:  # every value of the space must be one the config's key can take
        _check_corners(plan, d)
    return plan


def _check_names(plan: TunePlan, run: Any) -> None:
    """ConfigError for a target or a preference that names no metric (or grouping) of the game."""
    from sim.api import metric_names
    from sim.check.gate import check_record_names

    items = [(f"{plan.targets_key}[{i}]", t.metric, t.by) for i, t in enumerate(plan.targets)]
    items += [(f"tune.prefer[{i}]", p.metric, p.by) for i, p in enumerate(plan.table.prefer) if not p.least_change]
    check_record_names(items, {**metric_names(run), **LADDER_METRICS}, plan.base.source)


def _check_corners(plan: TunePlan, d: Dim) -> None:
    """Validate the config with the key at each end of its range (each choice): a value the
    key cannot take (a schema bound, an unknown name) is a ConfigError naming
    ``tune.space.KEY`` before anything plays. A whole candidate the game cannot set up (a
    total, a board) is only found when it is drawn: it is then infeasible, not an error."""
    from sim.overrides import load
    from sim.sweep import toml_value

    s = d.spec

    def end(b: float) -> Any:
        return int(b) if d.integer else b

    if d.kind == "choice":
        moves = [(d.key, d.path, v) for v in s.choices]
    elif d.kind == "list":  # each item at each end, the others as they are
        moves = [(f"{d.key}[{i}]", d.path + (i,), end(b)) for i in range(len(d.current)) for b in d.bounds(i)]
    elif d.kind == "table":
        moves = [(f"{d.key}.{k}", d.path + (k,), end(b)) for i, k in enumerate(d.current) for b in d.bounds(i)]
    else:
        moves = [(d.key, d.path, end(b)) for b in d.bounds()]
    for key, path, v in moves:
        ov = Override(key, path, v, FLAG, f"{key}={toml_value(v)}")
        try:
            load(plan.config, list(plan.base_sets) + [ov])
        except ConfigError as e:
            if s.total is not None:
                continue  # with a total, an item at one end forces the others: not a candidate
            raise ConfigError(plan.base.source, f"tune.space.{d.key}",
                              f"{key}={toml_value(v)} is not a value the key can take: {e.reason}") from None


# ------------------------------------------------------------------ scoring


@dataclass
class Row:
    """One target applied to one record of a run: ``label``, ``value``, its 95 % interval
    (``lo``, ``hi``), the band (``min``, ``max``; None open), ``rate`` (a rate: shown in
    percent) and ``n`` (games)."""

    label: str
    value: float | None
    lo: float | None
    hi: float | None
    min: float | None
    max: float | None
    rate: bool
    metric: str = ""
    kind: str = ""

    @property
    def record(self) -> dict:
        """The row as a metric record (what :mod:`sim.report.format` reads)."""
        return {"metric": self.metric, "kind": self.kind, "value": self.value, "ci_low": self.lo, "ci_high": self.hi}

    def inside(self) -> bool:
        """The whole interval lies inside the band (the proof's test)."""
        if self.value is None or self.lo is None or self.hi is None:
            return False
        return (self.min is None or self.lo >= self.min) and (self.max is None or self.hi <= self.max)

    def to_json(self) -> dict:
        return {"label": self.label, "value": self.value, "ci_low": self.lo, "ci_high": self.hi,
                "min": self.min, "max": self.max, "inside": self.inside()}


def target_rows(summary: dict, targets: Sequence[Any]) -> list[Row]:
    """Every target applied to every record it matches (:func:`sim.check.gate.evaluate_targets`);
    a target that matches nothing gives a row without a value."""
    from sim.check.gate import evaluate_targets
    from sim.report.format import is_percent

    out = []
    for t in evaluate_targets(summary, list(targets)):
        rate = bool(t.kind) and is_percent({"metric": t.metric, "kind": t.kind})
        v = None if t.value is None or (isinstance(t.value, float) and math.isnan(t.value)) else float(t.value)
        out.append(Row(t.label, v, t.ci_low, t.ci_high, t.min, t.max, rate, t.metric, t.kind))
    return out


def _band(r: Row, margin: float) -> tuple[float, float]:
    lo = -math.inf if r.min is None else r.min + margin
    hi = math.inf if r.max is None else r.max - margin
    if lo > hi:  # a band narrower than two margins: its middle
        mid = (r.min + r.max) / 2 if r.min is not None and r.max is not None else (lo + hi) / 2
        lo = hi = mid
    return lo, hi


def margin(r: Row, games: int, confirm_games: int) -> float:
    """The half-width of ``r``'s 95 % interval at ``confirm_games`` games, from its interval at
    ``games`` (it shrinks as 1/sqrt(games)); 0 without an interval."""
    if r.lo is None or r.hi is None or r.value is None:
        return 0.0
    return max(0.0, (r.hi - r.lo) / 2) * math.sqrt(games / max(confirm_games, 1))


def miss(rows: Sequence[Row], games: int, confirm_games: int, optimistic: bool = False, narrow: bool = True) -> float:
    """How far the records lie outside their bands, summed (metric units; see the module
    docstring): each band narrowed by the proof's interval half-width (``narrow``); with
    ``optimistic`` every record is read at the end of its interval nearest the band. A row
    without a value counts :data:`PENALTY`."""
    total = 0.0
    for r in rows:
        if r.value is None:
            return PENALTY
        lo, hi = _band(r, margin(r, games, confirm_games) if narrow else 0.0)
        if optimistic and r.lo is not None and r.hi is not None:
            total += max(0.0, lo - r.hi, r.lo - hi)
        else:
            total += max(0.0, lo - r.value, r.value - hi)
    return total


def interval_miss(rows: Sequence[Row]) -> float:
    """How far the records' 95 % intervals reach outside their bands, summed (metric units): 0
    exactly when every interval lies inside its band (the proof passes). A row without a value
    or an interval counts :data:`PENALTY`."""
    total = 0.0
    for r in rows:
        if r.value is None or r.lo is None or r.hi is None:
            return PENALTY
        total += max(0.0, (r.min - r.lo) if r.min is not None else 0.0, (r.hi - r.max) if r.max is not None else 0.0)
    return total


def prefer_value(p: Any, summary: dict, plan: TunePlan, values: dict[str, Any]) -> float:
    """The value of preference ``p`` (:class:`sim.config.TunePrefer`) for a candidate: the
    number of items changed (``least_change``), the distance from ``toward``, or how far the
    record lies outside its band (0 inside); PENALTY when no record matches."""
    if p.least_change:
        return float(sum(d.changed(values[d.key]) for d in plan.dims))
    from sim.config import Target

    recs = [r for r in summary["metrics"] if Target(metric=p.metric, by=p.by, min=0.0).matches(r)]
    vals = [float(r["value"]) for r in recs if isinstance(r.get("value"), int | float)]
    if not vals:
        return PENALTY
    if p.toward is not None:
        return sum(abs(v - p.toward) for v in vals)
    lo = -math.inf if p.min is None else p.min
    hi = math.inf if p.max is None else p.max
    return sum(max(0.0, lo - v, v - hi) for v in vals)


# ------------------------------------------------------------------ playing


def _play(plan: TunePlan, values: dict[str, Any] | None, games: int, seed: int, threads: int | None,
          backend: str, workers: int, keep_frame: bool = False) -> Any:
    """Play the config with a candidate's ``values`` (None: the config itself); raises
    :class:`Infeasible` when the game cannot be set up from them."""
    from sim.api import run_config
    from sim.cli_common import compile_checked

    ovs = plan.base_sets if values is None else plan.overrides(values)
    try:
        run = compile_checked(plan.config, sets=ovs, games=games, seed=seed)
    except ConfigError as e:
        raise Infeasible(e.reason) from None
    out = run_config(run, threads=threads, backend=backend, workers=workers, write_rows=False,
                     keep_frame=keep_frame)
    if plan.ladder:  # the ladder's records join the run's: every level on the same seed
        from sim import skill_ladder

        try:
            ladder = skill_ladder.plan(run.cfg, games=games)
        except ConfigError as e:
            raise Infeasible(f"the skill ladder: {e.reason}") from None
        skill_ladder.play(ladder, threads=threads, backend=backend, workers=workers)
        out.summary = {**out.summary, "metrics": list(out.summary["metrics"]) + skill_ladder.records(ladder)}
    return out


def measure_speed(plan: TunePlan, threads: int | None = None, backend: str = "local", workers: int = 2) -> Any:
    """Play the config itself at the first rung (after its kernels are loaded and a first short
    run has paid the one-time costs, neither counted): sets ``plan.speed`` (games per second, play and summary) and returns the output.
    ConfigError when a target matches no record of the config."""
    from sim.api import prepare
    from sim.cli_common import compile_checked

    prepare(compile_checked(plan.config, sets=plan.base_sets, games=plan.rungs[0], seed=plan.seed))
    _play(plan, None, min(plan.rungs[0], 100), plan.seed, threads, backend, workers)  # one-time costs: not counted
    t0 = time.perf_counter()
    out = _play(plan, None, plan.rungs[0], plan.seed, threads, backend, workers)
    plan.speed = plan.rungs[0] / max(time.perf_counter() - t0, 1e-6)
    rows = target_rows(out.summary, plan.targets)
    plan.rate_units = bool(rows) and all(r.rate for r in rows)
    for i, t in enumerate(plan.targets):
        if not any(t.matches(r) for r in out.summary["metrics"]):
            raise ConfigError(plan.base.source, f"{plan.targets_key}[{i}]", f"{t.label()} matches no record of this "
                              "config (check the metric's by keys and values)")
    return out


def miss_words(plan: TunePlan, m: float | None) -> str:
    """A miss as the terminal says it: ``0.85 points`` when every target is a rate."""
    if m is None:
        return "–"
    if m >= PENALTY:
        return "no value"
    return f"{100 * m:.2f} points" if plan.rate_units else f"{m:.3g}"


def plan_lines(plan: TunePlan) -> list[str]:
    """The plan as the terminal prints it before playing."""
    from sim.sensitivity import _duration
    from sim.sweep import toml_value

    lines = [f"tune {plan.name} ({plan.game}): {len(plan.dims)} key{'s' if len(plan.dims) != 1 else ''} searched"]
    for d in plan.dims:
        s = d.spec
        if d.kind == "choice":
            what = "one of " + ", ".join(d.texts)
        else:
            what = d.range_text() + (f" step {s.step:g}" if s.step else "") + (" log" if s.log else "")
            if d.kind in ("list", "table"):
                what = f"each of {len(d.current)} {'items' if d.kind == 'list' else 'entries'} in {what}" + \
                    (f", total {s.total}" if s.total is not None else "")
        lines.append(f"  {d.key} = {toml_value(d.current)}: {what}")
    for g in plan.groups:
        lines.append(f"  linked: {g.describe()}")
    size = plan.space_size()
    lines.append("space: " + ("continuous" if math.isinf(size) else f"{size:,.0f} candidates"))
    lines.append("targets (" + plan.targets_key + "): " + "; ".join(t.label() for t in plan.targets))
    if len(plan.objectives) > 1:
        lines.append("then: " + "; ".join(o.name for o in plan.objectives[1:]))
    rung_games = sum(plan.rungs)
    lines.append(f"budget {plan.budget} trials, rungs of {', '.join(f'{n:,}' for n in plan.rungs)} games on seed "
                 f"{plan.seed} (every candidate the same games); proof: the best {plan.table.top} on "
                 f"{plan.confirm_games:,} games of seed {plan.confirm_seed}")
    if plan.speed:
        most = plan.budget * rung_games / plan.speed
        proof = (plan.table.top + 1) * plan.confirm_games / plan.speed
        cap = f", capped at {plan.minutes:g} min" if plan.minutes else ""
        lines.append(f"estimate: at most {_duration(most)} of search{cap} (racing drops most candidates early) "
                     f"+ {_duration(proof)} of proof, at the config's {plan.speed:,.0f} games/s")
    return lines


# ------------------------------------------------------------------ the search


def _sampler(plan: TunePlan):
    import optuna

    name = plan.table.sampler
    seed = plan.seed % 2**32
    if name == "random":
        return optuna.samplers.RandomSampler(seed=seed)
    if name == "nsga2":
        return optuna.samplers.NSGAIISampler(seed=seed)
    if name == "exhaustive":
        import warnings

        with warnings.catch_warnings():  # experimental in optuna 3-5: the interface we use is stable
            warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
            return optuna.samplers.BruteForceSampler(seed=seed)
    return optuna.samplers.TPESampler(seed=seed, multivariate=True, n_startup_trials=min(10, max(2, plan.budget // 5)))


def study_meta(plan: TunePlan) -> dict:
    """What a study was started for (kept in the study; ``--resume`` refuses another)."""
    return {"config_hash": plan.base.config_hash(), "seed": plan.seed, "rungs": plan.rungs,
            "space": {d.key: d.spec.model_dump() for d in plan.dims},
            "objectives": [o.name for o in plan.objectives], "targets": [t.label() for t in plan.targets]}


def open_study(plan: TunePlan, db: Path, resume: bool):
    """The optuna study in SQLite file ``db``: a new one, or (``resume``) the one there, which
    must have been started for the same config, space, rungs and objectives (ConfigError
    otherwise). A new study is refused when ``db`` holds one (use ``--resume``)."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    url = f"sqlite:///{db}"
    meta = study_meta(plan)
    if resume:
        if not db.is_file():
            raise ConfigError("--resume", "", f"no search to resume: {db} does not exist")
        study = optuna.load_study(study_name="sim-tune", storage=url, sampler=_sampler(plan))
        old = study.user_attrs.get("meta")
        if old != json.loads(json.dumps(meta)):
            raise ConfigError("--resume", "", f"{db} holds a search of another config, space, rungs or objectives; "
                              "resume it with the config it was started with, or choose another --out")
        return study
    if db.exists():
        raise ConfigError("--out", "", f"{db} holds a search already: --resume continues it; remove the folder or "
                          "choose another --out to start afresh")
    directions = ["minimize"] * len(plan.objectives)
    study = optuna.create_study(study_name="sim-tune", storage=url, sampler=_sampler(plan), directions=directions)
    study.set_user_attr("meta", meta)
    cur = {}
    for d in plan.dims:
        p = d.params_of(d.current)
        if p is None:
            cur = None
            break
        cur.update(p)
    if cur is not None:
        study.enqueue_trial(cur, user_attrs={"is_config": True})  # the config itself: the yardstick
    return study


def _best_at(study: Any, rung: int, number: int) -> float | None:
    best = None
    for t in study.get_trials(deepcopy=False):
        if t.number == number:
            continue
        m = t.user_attrs.get("miss_by_rung")
        if m and len(m) > rung and m[rung] is not None:
            best = m[rung] if best is None else min(best, m[rung])
    return best


def make_objective(plan: TunePlan, threads: int | None, backend: str, workers: int,
                   on_games: Callable[[int], None] | None = None):
    """The optuna objective of ``plan``: plays a trial's candidate rung by rung on the search's
    seed, drops it by the racing rule (module docstring) and returns its objectives. Records in
    the trial's user attributes: ``values`` (key -> TOML text), ``miss_by_rung``,
    ``optimistic_by_rung``, ``games``, ``rows`` (the last rung's target rows), ``objectives``,
    ``changed`` and, for an infeasible candidate, ``infeasible`` (why)."""
    import optuna

    from sim.sweep import toml_value

    n_obj = len(plan.objectives)

    def objective(trial):
        try:
            values = {d.key: d.suggest(trial) for d in plan.dims}
            plan.overrides(values)
        except Infeasible as e:
            trial.set_user_attr("infeasible", str(e))
            return PENALTY if n_obj == 1 else [PENALTY] * n_obj
        trial.set_user_attr("values", {k: toml_value(v) for k, v in values.items()})
        trial.set_user_attr("changed", sum(d.changed(values[d.key]) for d in plan.dims))
        misses: list[float] = []
        optimistic: list[float] = []
        out = None
        for r, games in enumerate(plan.rungs):
            try:
                out = _play(plan, values, games, plan.seed, threads, backend, workers)
            except Infeasible as e:
                trial.set_user_attr("infeasible", str(e))
                return PENALTY if n_obj == 1 else [PENALTY] * n_obj
            if on_games is not None:
                on_games(games)
            rows = target_rows(out.summary, plan.targets)
            misses.append(miss(rows, games, plan.confirm_games))
            optimistic.append(miss(rows, games, plan.confirm_games, optimistic=True))
            trial.set_user_attr("miss_by_rung", misses)
            trial.set_user_attr("optimistic_by_rung", optimistic)
            trial.set_user_attr("games", games)
            trial.set_user_attr("rows", [x.to_json() for x in rows])
            if r < len(plan.rungs) - 1:
                best = _best_at(trial.study, r, trial.number)
                if best is not None and optimistic[-1] > best:
                    trial.set_user_attr("dropped_at", r)
                    if n_obj == 1:
                        trial.report(misses[-1], r)
                    raise optuna.TrialPruned()
        vals = [misses[-1]] + [prefer_value(o.prefer, out.summary, plan, values) for o in plan.objectives[1:]]
        trial.set_user_attr("objectives", vals)
        return vals[0] if n_obj == 1 else vals

    return objective


def search(plan: TunePlan, study: Any, threads: int | None = None, backend: str = "local", workers: int = 2,
           on_trial: Callable[[Any], None] | None = None, on_games: Callable[[int], None] | None = None) -> int:
    """Run trials until the study holds ``plan.budget`` finished ones (complete, pruned or
    failed; :func:`simplify`'s trials not counted) or ``plan.minutes`` pass; returns the trials run now. KeyboardInterrupt propagates
    (the finished trials stay in the study)."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    done = len([t for t in study.get_trials(deepcopy=False) if t.state.is_finished() and not t.user_attrs.get("simplify")])
    todo = plan.budget - done
    if todo <= 0:
        return 0
    callbacks = [lambda s, t: on_trial(t)] if on_trial is not None else []
    before = len(study.get_trials(deepcopy=False))
    study.optimize(make_objective(plan, threads, backend, workers, on_games), n_trials=todo,
                   timeout=None if plan.minutes is None else plan.minutes * 60, callbacks=callbacks,
                   catch=())
    return len(study.get_trials(deepcopy=False)) - before


def simplify(plan: TunePlan, study: Any, threads: int | None = None, backend: str = "local", workers: int = 2,
             on_trial: Callable[[Any], None] | None = None) -> int:
    """The least edit that works: take the best candidate of the search (:func:`ranked_trials`)
    and put its changed keys back to the config's values one at a time (in the order of
    ``[tune.space]``), each as one more trial on the same games (a candidate the study already
    played is not played again); a key stays back when the candidate's miss does not grow.
    Returns the trials played (tagged ``simplify`` in their user attributes)."""
    import optuna

    ranked = ranked_trials(plan, study)
    if not ranked:
        return 0
    best = ranked[0]
    values = values_of(plan, best)
    goal = best.user_attrs["objectives"][0]
    order = [d for d in plan.dims if d.changed(values[d.key])]
    if len(order) < 1:
        return 0
    played = 0
    objective = make_objective(plan, threads, backend, workers)
    for d in order:
        trial_values = dict(values)
        trial_values[d.key] = d.current
        params: dict[str, Any] = {}
        for e in plan.dims:
            p = e.params_of(trial_values[e.key])
            if p is None:
                params = {}
                break
            params.update(p)
        if not params:
            continue
        key = json.dumps({k: _text(v) for k, v in trial_values.items()}, sort_keys=True)
        known = next((t for t in study.get_trials(deepcopy=False)
                      if t.state == optuna.trial.TrialState.COMPLETE and "objectives" in t.user_attrs
                      and json.dumps(t.user_attrs.get("values"), sort_keys=True) == key), None)
        if known is None:
            study.enqueue_trial(params, user_attrs={"simplify": True})
            callbacks = [lambda s, t: on_trial(t)] if on_trial is not None else []
            study.optimize(objective, n_trials=1, callbacks=callbacks)
            played += 1
            known = study.get_trials(deepcopy=False)[-1]
        done = known.state == optuna.trial.TrialState.COMPLETE and "objectives" in known.user_attrs
        if done and known.user_attrs["objectives"][0] <= goal:
            values = trial_values
    return played


def _text(v: Any) -> str:
    from sim.sweep import toml_value

    return toml_value(v)


# ------------------------------------------------------------------ the proof


@dataclass
class Finalist:
    """A candidate replayed on the fresh seed: the trial ``number``, ``values`` (key -> value),
    the search's objectives, and the proof's ``rows``, ``miss`` (:func:`interval_miss`: 0 when
    it passes) and ``passed``."""

    number: int
    values: dict[str, Any]
    objectives: list[float]
    changed: int
    is_config: bool = False
    rows: list[Row] = field(default_factory=list)
    miss: float | None = None
    passed: bool = False
    output: Any = None
    infeasible: str | None = None


def ranked_trials(plan: TunePlan, study: Any) -> list[Any]:
    """The trials that played every rung, best first: by miss, then the preferences in order,
    then the fewest items changed, then the trial number; one per distinct candidate."""
    import optuna

    seen, out = set(), []
    done = [t for t in study.get_trials(deepcopy=False)
            if t.state == optuna.trial.TrialState.COMPLETE and "objectives" in t.user_attrs]
    done.sort(key=lambda t: (*t.user_attrs["objectives"], t.user_attrs.get("changed", 0), t.number))
    for t in done:
        k = json.dumps(t.user_attrs["values"], sort_keys=True)
        if k not in seen:
            seen.add(k)
            out.append(t)
    return out


def values_of(plan: TunePlan, trial: Any) -> dict[str, Any]:
    """A trial's candidate as config values (from its TOML texts)."""
    import tomllib

    return {k: tomllib.loads(f"v = {t}")["v"] for k, t in trial.user_attrs["values"].items()}


def prove(plan: TunePlan, study: Any, threads: int | None = None, backend: str = "local", workers: int = 2,
          on_games: Callable[[int], None] | None = None) -> tuple[list[Finalist], Any]:
    """Replay the ``top`` best candidates and the config itself on the fresh seed with
    ``confirm_games`` games (module docstring); returns the finalists (search order) and the
    config's output on the fresh seed."""
    finalists = []
    for t in ranked_trials(plan, study)[:plan.table.top]:
        f = Finalist(t.number, values_of(plan, t), list(t.user_attrs["objectives"]), t.user_attrs.get("changed", 0),
                     bool(t.user_attrs.get("is_config")))
        try:
            f.output = _play(plan, f.values, plan.confirm_games, plan.confirm_seed, threads, backend, workers,
                             keep_frame=True)
        except Infeasible as e:  # pragma: no cover - it played at every rung
            f.infeasible = str(e)
            finalists.append(f)
            continue
        if on_games is not None:
            on_games(plan.confirm_games)
        f.rows = target_rows(f.output.summary, plan.targets)
        f.miss = interval_miss(f.rows)
        f.passed = bool(f.rows) and all(r.inside() for r in f.rows)
        finalists.append(f)
    current = _play(plan, None, plan.confirm_games, plan.confirm_seed, threads, backend, workers, keep_frame=True)
    if on_games is not None:
        on_games(plan.confirm_games)
    return finalists, current


def recommendation(finalists: Sequence[Finalist]) -> Finalist | None:
    """The first finalist, in the search's order, that passed the proof (None: none did)."""
    return next((f for f in finalists if f.passed), None)


def closest(finalists: Sequence[Finalist]) -> Finalist | None:
    """The finalist whose proof missed the targets least (the page's "how close")."""
    played = [f for f in finalists if f.miss is not None]
    return min(played, key=lambda f: (f.miss, f.number)) if played else None


def paired_comparison(current: Any, chosen: Finalist) -> Any:
    """The chosen finalist against the config itself on the fresh seed, game by game
    (:func:`sim.check.gate.compare_summaries` with per-game outcomes: McNemar, paired t)."""
    from sim.check.gate import compare_summaries
    from sim.check.paired import per_game

    def pg(o):
        return per_game(o.df, o.run.cfg, o.run.game.mode, o.run.game.name) if o.df is not None else None

    return compare_summaries(current.summary, chosen.output.summary, "current", "tuned",
                             per_game_a=pg(current), per_game_b=pg(chosen.output))
