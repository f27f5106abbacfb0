"""The common config schema: run size, seed, seats and their policies, checks; the game
section (``[<game name>]``) is validated by the game's own pydantic model.

A config file looks like::

    game = "clear_for_takeoff"
    games = 1000000
    seed = 20261129
    rotate_seats = true
    seats = ["greedy", "greedy", "heuristic", "random"]   # or [[seats]] tables

    [clear_for_takeoff]
    ...

Errors are raised as :class:`sim.errors.ConfigError` naming the file, the dotted key and
the reason; the CLI turns them into exit code 2.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import tomllib
from pathlib import Path
from types import SimpleNamespace
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from sim.errors import ConfigError
from sim.games.base import ENGINE_WEIGHTS
from sim.records import closest_names, metric_label, same_value

MAX_INT64 = 2**63 - 1
"""The largest integer a config may hold (TOML integers are 64-bit)."""
MAX_DEPTH = 16
"""Deepest nesting of tables and arrays a config (or a JSON file sim reads) may have."""
MAX_TURN_CAP = 2**31 - 1
"""Largest ``turn_cap``: turns are counted in int32 result columns."""
MAX_BATCH = 1 << 24
"""Largest ``batch_size`` (games per kernel call)."""
MAX_NAME = 100
"""Longest run ``name`` / seat label / policy name (characters)."""
MAX_PATH = 1000
USER_POLICY_PATTERN = r"^[^:]+\.py:[A-Za-z_][A-Za-z0-9_]*$"
"""A user policy as a seat names it (the JSON Schema's pattern; :data:`sim.userpol.SPEC_RE`)."""
"""Longest user policy ``file.py:function`` of a seat (characters)."""
MAX_EXCERPT = 40
"""Longest excerpt of user input quoted in an error message (characters)."""
MAX_CONFIG_BYTES = 10_000_000
"""Largest config file read (bytes)."""
NAME_RE = re.compile(r"[A-Za-z0-9_.\-]+")

FiniteFloat = Annotated[float, Field(allow_inf_nan=False)]
"""A float that must be finite (NaN, inf and TOML's ``1e309`` are refused); game sections
use it for weights and rates: ``x: FiniteFloat = 0.5``."""


def bounded_int(lo: int, hi: int, **kw: Any) -> Any:
    """``Annotated[int, Field(ge=lo, le=hi)]``: an integer field with a documented range
    (for card counts and sizes of game sections: ``A: bounded_int(0, 1000) = 17``)."""
    return Annotated[int, Field(ge=lo, le=hi, **kw)]


def excerpt(x: Any, n: int = MAX_EXCERPT) -> str:
    """``repr(x)`` cut to about ``n`` characters (``'abc...'`` + the length): error messages
    quote at most this much of what the user wrote."""
    r = repr(x)
    if len(r) <= n:
        return r
    return f"{r[:n]}... ({len(r)} characters)"


def cut(text: str, n: int = 300) -> str:
    """``text`` cut to ``n`` characters (a message built around user input stays short)."""
    return text if len(text) <= n else text[:n] + f"... ({len(text)} characters)"


def _key_part(k: Any) -> str:
    k = str(k)
    if k == "":
        return '""'
    if len(k) > MAX_EXCERPT:
        return k[:MAX_EXCERPT] + "..."
    return k


def check_plain(raw: Any, source: str, path: str = "", depth: int = 0) -> None:
    """Refuse what no schema should see: nesting deeper than :data:`MAX_DEPTH`, integers
    outside int64, non-finite floats (in every key, whatever the schema says) and empty key
    names; raises :class:`ConfigError` with the dotted key."""
    if depth > MAX_DEPTH:
        raise ConfigError(source, path, f"nested more than {MAX_DEPTH} levels deep")
    if isinstance(raw, dict):
        for k, v in raw.items():
            key = f"{path}.{_key_part(k)}" if path else _key_part(k)
            if k == "":
                raise ConfigError(source, key, "empty key name")
            check_plain(v, source, key, depth + 1)
    elif isinstance(raw, list):
        for i, v in enumerate(raw):
            check_plain(v, source, f"{path}[{i}]", depth + 1)
    elif isinstance(raw, bool):
        return
    elif isinstance(raw, int):
        if not -MAX_INT64 - 1 <= raw <= MAX_INT64:
            raise ConfigError(source, path, f"integer out of range (more than 64 bits): {excerpt(raw)}")
    elif isinstance(raw, float) and not math.isfinite(raw):
        raise ConfigError(source, path, f"must be a finite number, got {raw}")


def memory_bytes() -> int | None:
    """Physical memory of this machine in bytes, or None when unknown."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def _fmt_bytes(b: float) -> str:
    for unit in ("bytes", "KB", "MB", "GB", "TB", "PB"):
        if b < 1000 or unit == "PB":
            return f"{b:,.0f} {unit}" if unit == "bytes" else f"{b:,.1f} {unit}"
        b /= 1000
    return f"{b:.3g} EB"  # pragma: no cover


def run_bytes(games: int, n_columns: int, n_seats: int) -> int:
    """Estimated peak memory of a run's results in bytes: the int32 result matrix, its
    polars frame (a copy) and the per-seat policy columns; the report writer and the
    summary add little on top."""
    return games * (8 * n_columns + 4 * n_seats + 8)


def check_size(games: int, n_columns: int, n_seats: int, source: str, key: str = "games", note: str = "") -> None:
    """Refuse up front (ConfigError naming ``key``, with the estimate) a run whose results
    would not fit in this machine's memory (more than 80 % of it)."""
    need = run_bytes(games, n_columns, n_seats)
    have = memory_bytes()
    if have is not None and need > 0.8 * have:
        raise ConfigError(source, key, (
            f"{games:,} games need about {_fmt_bytes(need)} of memory for their results "
            f"({n_columns} columns per game); this machine has {_fmt_bytes(have)}: play fewer games "
            "(or several runs with different seeds)" + note))


def check_name(name: str) -> str | None:
    """Why ``name`` cannot be a run name (a report folder / baseline file name), or None:
    letters, digits, ``-``, ``_`` and ``.``, at most :data:`MAX_NAME` characters, not ``.``
    or ``..``."""
    if not name:
        return "must not be empty"
    if len(name) > MAX_NAME:
        return f"at most {MAX_NAME} characters, got {len(name)}"
    if name in (".", ".."):
        return f"{name!r} is not a file name"
    if not NAME_RE.fullmatch(name):
        return f"{excerpt(name)} is not a plain file name (letters, digits, -, _ and . only)"
    return None


class Strict(BaseModel):
    """Base model: unknown keys are errors and values are not coerced across types (a
    string "9" is not an int, 0 is not a bool; an int is still accepted where a float is
    expected)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class SeatConfig(Strict):
    """One seat entry: the policy that plays it, an optional label and policy weights."""

    policy: str = Field(max_length=MAX_PATH, description="built-in policy name (see `sim policies GAME`), or a user "
                        "policy 'file.py:function', the file relative to the config (docs/policies.md)")
    label: str | None = Field(None, min_length=1, max_length=MAX_NAME, pattern=r"^[^\x00-\x1f\x7f]+$",
                              description="name used in by-policy metrics; default: the policy name")
    weights: dict[str, FiniteFloat] = Field(default_factory=dict, description="weights of a weighted policy (finite)")
    base: str | None = Field(None, max_length=MAX_NAME,
                             description="base policy a look-ahead policy (rollout) simulates with; default: its own default")
    base_weights: dict[str, FiniteFloat] = Field(default_factory=dict,
                                                 description="weights of the base policy of a look-ahead policy (finite)")

    @property
    def name(self) -> str:
        """The seat's name in by-policy metrics: its label, else the policy's name, marked with
        the seat's engine weights when it has them (``greedy (mistake 0.2)``, ``greedy
        (mistake 0.1, temperature 2)``), so a seat that errs or plays softened is never merged
        with one of the same policy that does not."""
        if self.label:
            return self.label
        marks = [f"{w} {self.weights[w]:g}" for w in ENGINE_WEIGHTS if self.weights.get(w, 0.0)]
        return f"{self.policy} ({', '.join(marks)})" if marks else self.policy


class Target(Strict):
    """An absolute balance target on this run's point estimates.

    ``by``: the record's grouping keys; ``"*"`` matches any value (``{seat="*"}`` = every
    seat). ``min`` / ``max``: inclusive bounds in the metric's units (rates as fractions:
    0.25 = 25%); at least one is required.
    """

    metric: str = Field(max_length=MAX_NAME, description="metric name, e.g. win_rate, stall_rate, loss_rate")
    by: dict[str, str | int | FiniteFloat | bool] = Field(default_factory=dict,
                                                          description='grouping; "*" = any value')
    min: FiniteFloat | None = Field(None, description="lowest allowed value (inclusive, finite)")
    max: FiniteFloat | None = Field(None, description="highest allowed value (inclusive, finite)")

    @model_validator(mode="after")
    def _bounds(self) -> Target:
        if self.min is None and self.max is None:
            raise ValueError("a target needs min, max or both")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"min ({self.min}) is above max ({self.max})")
        return self

    def label(self, record: dict | None = None) -> str:
        """The target as a designer writes it: ``stall_rate ≤ 0.1%``, ``win_rate[seat=*] 15% to
        35%``, ``turns_mean ≥ 40``; bounds in percent when ``record`` (a matching metric
        record) is a rate (:func:`sim.report.format.is_percent`), else as numbers."""
        from sim.report.format import is_percent

        pct = record is not None and is_percent({**record, "metric": self.metric})

        def num(x: float) -> str:
            return f"{100 * x:.4g}%" if pct else f"{x:.4g}"

        if self.min is None:
            bounds = f"≤ {num(self.max)}"
        elif self.max is None:
            bounds = f"≥ {num(self.min)}"
        elif self.min == self.max:
            bounds = f"= {num(self.min)}"
        else:
            bounds = f"{num(self.min)} to {num(self.max)}"
        return f"{metric_label(self.metric, self.by)} {bounds}"

    def matches(self, rec: dict) -> bool:
        """True when ``rec`` (a metric record) is one this target constrains."""
        if rec.get("metric") != self.metric:
            return False
        by = rec.get("by") or {}
        if set(by) != set(self.by):
            return False
        return all(v == "*" or same_value(by[k], v) for k, v in self.by.items())


class CheckConfig(Strict):
    """The ``[checks]`` table of a config: how ``sim check`` decides.

    * ``alpha``: familywise error rate across the gated (headline) metrics of one check (Holm).
    * ``tolerance``: absolute change a rate may make without failing (0.01 = 1 point).
    * ``mean_tolerance``: relative change a mean may make (0.02 = 2% of the baseline mean).
    * ``tolerances``: metric name (``win_rate``) or label (``"win_rate[seat=0]"``) ->
      tolerance overriding the default of its kind (absolute for rates, relative for means).
    * ``power``: power at which the minimum detectable change is stated.
    * ``targets``: absolute bounds, see :class:`Target`.
    * ``games``: games per run for ``sim check`` / ``sim baseline`` when ``--games`` is not
      given (keeps CI fast); default: the config's ``games``. A sequential check plays at
      most this many.
    * ``sequential`` / ``looks``: see :func:`sim.check.gate.sequential_decision`.
    """

    alpha: float = Field(0.05, gt=0, lt=1, description="familywise error rate (Holm) of one check")
    tolerance: float = Field(0.01, ge=0, le=1, description="default absolute tolerance for rates")
    mean_tolerance: FiniteFloat = Field(0.02, ge=0, description="default relative tolerance for means")
    tolerances: dict[str, FiniteFloat] = Field(default_factory=dict, description="per-metric tolerance overrides")
    power: float = Field(0.8, gt=0, lt=1, description="power for the stated minimum detectable change")
    targets: list[Target] = Field(default_factory=list, description="absolute balance targets")
    games: int | None = Field(None, gt=0, le=MAX_INT64,
                              description="games for check/baseline when --games is not given (1 .. 2**63-1); "
                              "for a sequential check, the most games it plays")
    sequential: bool = Field(True, description="sim check plays games in looks (SPRT) until every gated metric "
                             "is decided; false: always the full games count")
    looks: int = Field(4, ge=1, le=16, description="looks of a sequential check: games/2**(looks-1), ... games")

    @model_validator(mode="after")
    def _nonneg(self) -> CheckConfig:
        for k, v in self.tolerances.items():
            if not v >= 0:
                raise ValueError(f"tolerances.{k} must be >= 0, got {v}")
        return self


class SweepConfig(Strict):
    """The ``[sweep]`` table of a config: the grid ``sim sweep`` plays when no ``--param`` is
    given::

        [sweep]
        games = 20_000
        [sweep.params]
        "clear_for_takeoff.hand_size" = [7, 8, 9, 10]
        "seats[2].policy" = ["greedy", "heuristic"]

    ``params``: dotted config key (as ``--set`` takes it) -> the values of the grid (TOML
    values, at least one); the grid is every combination, the first key varying slowest.
    ``games``: games per point when ``--games`` is not given. ``zip = true``: the keys move in
    lockstep (a start speed and its price list), point i taking the i-th value of each.
    """

    params: dict[str, list[Any]] = Field(min_length=1, description="dotted key -> values of the sweep grid")
    games: int | None = Field(None, gt=0, le=MAX_INT64, description="games per point (default: [checks] games, "
                              "else the config's games)")
    zip: bool = Field(False, description="true: the keys move in lockstep (point i takes the i-th value of every "
                      "key; every list as long) instead of every combination")

    @model_validator(mode="after")
    def _values(self) -> SweepConfig:
        for k, v in self.params.items():
            if not v:
                raise ValueError(f"params.{k}: give at least one value")
        return self


class SensitivityGroup(Strict):
    """One linked group of the ``[sensitivity]`` table (:class:`sim.design.Group`)."""

    leader: str = Field(max_length=200, description="dotted key that moves (e.g. now_boarding.start_speed)")
    partner: str = Field(max_length=200, description="dotted key that follows it")
    follow: Literal["list_front", "list_back", "offset"] = Field(
        description="list_front: a list whose first items go as the leader grows; list_back: a list that grows at "
        "its end with the leader; offset: a number that moves by factor x the leader's change")
    factor: FiniteFloat = Field(1.0, description="offset only: the partner moves by factor x the leader's change")


class SensitivityConfig(Strict):
    """The ``[sensitivity]`` table of a config: what ``sim sensitivity`` moves::

        [sensitivity]
        keys = ["clear_for_takeoff.hand_size", "clear_for_takeoff.deck.FLR"]   # default: every design key
        games = 5_000
        [sensitivity.steps]
        "clear_for_takeoff.hand_size" = 2           # an integer's step; a float's relative step (0.1 = 10 %)
        [sensitivity.bounds]
        "clear_for_takeoff.hand_size" = [6, 12]     # Morris: the range a key is sampled over
        [[sensitivity.groups]]
        leader = "now_boarding.start_speed"
        partner = "now_boarding.speed_prices"
        follow = "list_front"
    """

    keys: list[str] = Field(default_factory=list, max_length=500, description="dotted design keys to move "
                            "(default: every design key of the game's section)")
    games: int | None = Field(None, gt=0, le=MAX_INT64, description="games per point (default: [checks] games, "
                              "else the config's games)")
    method: Literal["oat", "morris"] = Field("oat", description="oat: one step down and up from the config's "
                                             "value; morris: Morris screening over the bounds")
    trajectories: int = Field(4, ge=2, le=100, description="Morris trajectories (points: trajectories x (keys + 1))")
    steps: dict[str, FiniteFloat] = Field(default_factory=dict, description="dotted key -> step (an integer's "
                                         "step, a float's relative step)")
    bounds: dict[str, list[FiniteFloat]] = Field(default_factory=dict, description="dotted key -> [low, high] "
                                                 "(Morris)")
    groups: list[SensitivityGroup] = Field(default_factory=list, max_length=100,
                                           description="linked groups: a key whose value forces another")

    @model_validator(mode="after")
    def _checks(self) -> SensitivityConfig:
        for k, v in self.steps.items():
            if not v > 0:
                raise ValueError(f"steps.{k}: a step must be > 0, got {v:g}")
        for k, v in self.bounds.items():
            if len(v) != 2 or not v[0] < v[1]:
                raise ValueError(f"bounds.{k}: give [low, high] with low < high")
        return self


class TuneRange(Strict):
    """One searched key of the ``[tune.space]`` table (:mod:`sim.tune`): ``low`` / ``high``
    (inclusive; an integer range when the config's value is an integer; ``step`` the grid of
    the range, ``log`` a float searched on a log scale), or ``around`` (the config's value plus
    or minus this, not below 0 when the config's is not), or ``choices`` (any TOML values,
    lists included). A list or table key (a deck's counts) with a range searches every item in
    it; ``total`` then fixes the items' sum (a deck composition, the seats' start money)."""

    low: FiniteFloat | None = Field(None, description="lowest value searched (inclusive)")
    high: FiniteFloat | None = Field(None, description="highest value searched (inclusive)")
    step: FiniteFloat | None = Field(None, gt=0, description="grid step of a range (an integer range: a whole number)")
    log: bool = Field(False, description="a float range searched on a log scale (low > 0)")
    around: FiniteFloat | None = Field(None, gt=0, description="instead of low / high: each value (each item of a "
                                       "list or table) within this much of the config's own, never below 0 when "
                                       "the config's is not")
    choices: list[Any] | None = Field(None, min_length=1, max_length=1000, description="the values searched")
    total: int | None = Field(None, description="a list or table key: the sum its items keep")

    @model_validator(mode="after")
    def _shape(self) -> TuneRange:
        if self.choices is not None:
            if self.low is not None or self.high is not None or self.total is not None or self.log or self.around:
                raise ValueError("give choices, or a range (low and high, or around), not both")
            return self
        if self.around is not None:
            if self.low is not None or self.high is not None or self.log:
                raise ValueError("give around, or low and high, not both (around takes no log)")
            return self
        if self.low is None or self.high is None:
            raise ValueError("give low and high (a range), around, or choices")
        if self.low > self.high:
            raise ValueError(f"an empty range: low ({self.low:g}) is above high ({self.high:g})")
        if self.log and not self.low > 0:
            raise ValueError("a log range needs low > 0")
        return self


class TunePrefer(Strict):
    """One ``prefer`` term of ``[tune]``: a metric record (``metric``, ``by``) kept in a band
    (``min`` / ``max``, open where missing) or near a value (``toward``), or ``least_change =
    true``: the fewest keys changed from the config. Each term is one more objective of the
    search (several objectives: a Pareto front); the targets always come first."""

    metric: str | None = Field(None, max_length=MAX_NAME, description="metric name (a record of the run)")
    by: dict[str, str | int | FiniteFloat | bool] = Field(default_factory=dict, description="the record's grouping")
    min: FiniteFloat | None = Field(None, description="lowest preferred value")
    max: FiniteFloat | None = Field(None, description="highest preferred value")
    toward: FiniteFloat | None = Field(None, description="preferred value: the distance from it is minimised")
    least_change: bool = Field(False, description="true: prefer the fewest keys changed from the config")

    @model_validator(mode="after")
    def _shape(self) -> TunePrefer:
        if self.least_change:
            if self.metric is not None or self.min is not None or self.max is not None or self.toward is not None:
                raise ValueError("least_change takes no metric, min, max or toward")
            return self
        if self.metric is None:
            raise ValueError("give a metric (with min, max or toward) or least_change = true")
        if self.min is None and self.max is None and self.toward is None:
            raise ValueError(f"{self.metric}: give min, max or toward")
        if self.toward is not None and (self.min is not None or self.max is not None):
            raise ValueError(f"{self.metric}: give toward, or min / max, not both")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"{self.metric}: an empty band: min ({self.min:g}) is above max ({self.max:g})")
        return self

    def label(self) -> str:
        if self.least_change:
            return "fewest keys changed"
        lab = metric_label(self.metric or "", self.by)
        if self.toward is not None:
            return f"{lab} near {self.toward:g}"
        if self.min is None:
            return f"{lab} <= {self.max:g}"
        if self.max is None:
            return f"{lab} >= {self.min:g}"
        return f"{lab} in [{self.min:g}, {self.max:g}]"


class TuneConfig(Strict):
    """The ``[tune]`` table of a config: what ``sim tune`` searches and what it aims for::

        [tune]
        budget = 60                      # trials (candidates) of the search
        rungs = [2000, 8000, 32000]      # games a candidate plays, rung by rung (racing)
        confirm_games = 50_000           # games of the proof on a fresh seed
        targets = [{ metric = "win_rate", by = { seat = "*" }, min = 0.22, max = 0.28 }]
        prefer = [{ least_change = true }]
        [tune.space]
        "yukon_airways.planes[0]" = { choices = ["bonus_fuel", "draw", "hand_limit", "free_moves"] }
        "yukon_airways.start_money" = { low = 0, high = 6 }

    ``targets`` default to the ``[checks]`` targets. See :mod:`sim.tune` and docs/tune.md.
    """

    space: dict[str, TuneRange] = Field(min_length=1, max_length=200, description="dotted key -> the range or "
                                        "choices searched")
    groups: list[SensitivityGroup] = Field(default_factory=list, max_length=100,
                                           description="linked keys: a searched key whose value forces another")
    targets: list[Target] = Field(default_factory=list, description="the bands every candidate must meet "
                                  "(default: the [checks] targets)")
    prefer: list[TunePrefer] = Field(default_factory=list, max_length=10, description="further objectives, "
                                     "after the targets")
    budget: int = Field(60, ge=1, le=100_000, description="trials of the search (with --resume: in all)")
    minutes: FiniteFloat | None = Field(None, gt=0, description="stop the search after this many minutes")
    rungs: list[int] = Field(default_factory=lambda: [2000, 8000, 32000], min_length=1, max_length=8,
                             description="games a candidate plays at each rung, increasing")
    confirm_games: int = Field(50_000, ge=1, le=MAX_INT64, description="games each finalist plays on the fresh "
                               "seed")
    confirm_seed: int | None = Field(None, ge=0, lt=2**63, description="the fresh seed of the proof (default: "
                                     "the config's seed + 1,000,003)")
    top: int = Field(3, ge=1, le=20, description="finalists replayed on the fresh seed")
    sampler: Literal["tpe", "nsga2", "random", "exhaustive"] = Field(
        "tpe", description="optuna's sampler: tpe (default), nsga2, random, or exhaustive (every combination of a "
        "small discrete space, optuna's BruteForceSampler)")

    @model_validator(mode="after")
    def _rungs(self) -> TuneConfig:
        for i, n in enumerate(self.rungs):
            if n < 1 or (i and n <= self.rungs[i - 1]):
                raise ValueError(f"rungs: give increasing game counts >= 1, got {self.rungs}")
        return self


TOOL_ONLY_KEYS = ("tune",)
"""Top-level tables that only a tool reads and that never change what a run plays: left out of
:meth:`RunConfig.config_hash` (a config keeps its baseline when a ``[tune]`` table is added)."""


RUN_ONLY_KEYS = ("batch_size", "threads", "backend", "workers", "progress", "out")
"""Top-level keys that only say how a run is played (never what it plays): left out of
:meth:`RunConfig.config_hash`. Only ``batch_size`` is a config key today; the others are
listed so that a future config key of that name stays out of the hash too."""


class ReportConfig(Strict):
    """The ``[report]`` table of a config: what the report's verdict calls a practical
    difference::

        [report]
        seat_spread_threshold = 0.03   # seats 3 points apart are worth a look
        policy_gap_threshold = 0.05
        rows = 1000000                 # games.parquet: a sample beyond this many games
    """

    seat_spread_threshold: float = Field(0.03, gt=0, le=1, description="seat spread (highest minus lowest seat "
                                         "win rate, as a fraction: 0.03 = 3 points) the verdict flags as a "
                                         "practical imbalance (0 < x <= 1)")
    policy_gap_threshold: float = Field(0.05, gt=0, le=1, description="gap between the best and the worst "
                                        "policy's win rate the verdict flags as a skill difference (0 < x <= 1)")
    rows: int = Field(1_000_000, ge=1, le=MAX_INT64, description="most rows games.parquet holds: a run of more "
                      "games keeps a uniform sample (every k-th game index) plus every stalled game and the "
                      "longest games (the summary always counts every game)")


class SkillConfig(Strict):
    """The ``[skill]`` table of ``sim skill``: ``ladder``, the skill levels of ``sim skill
    --ladder`` (weakest first), each a seat table like an entry of ``seats``; replaces the
    game's ladder (:mod:`sim.skill_ladder`)."""

    ladder: list[SeatConfig] = Field(default_factory=list, max_length=32, description="skill levels of "
                                     "`sim skill --ladder`, weakest first, each a seat entry (policy, weights, "
                                     "label); default: the game's ladder")

    @field_validator("ladder", mode="before")
    @classmethod
    def _level_strings(cls, v: Any) -> Any:
        if isinstance(v, list):
            return [{"policy": s} if isinstance(s, str) else s for s in v]
        return v


class RunConfig(Strict):
    """A validated run: the common keys plus ``section``, the game's validated model.

    ``source`` is the file it came from (for messages), ``raw`` the parsed TOML as read.
    """

    game: str = Field(description="registered game name (see `sim games`)")
    name: str | None = Field(None, description="run name: report folder reports/<name>; default the file stem; "
                             "a plain file name (letters, digits, -, _, .)")
    games: int = Field(10_000, gt=0, le=MAX_INT64,
                       description="number of playouts (1 .. 2**63-1; streamed: memory does not grow with it)")
    seed: int = Field(0, ge=0, lt=2**63, description="master seed; game g uses streams of (seed, g)")
    rotate_seats: bool = Field(False, description="play every seating permutation of the seat entries equally often")
    turn_cap: int = Field(2000, gt=0, le=MAX_TURN_CAP,
                          description="a playout reaching this many turns is stopped and counted a stall (1 .. 2**31-1)")
    batch_size: int = Field(65_536, gt=0, le=MAX_BATCH,
                            description="most games per kernel call (calls are sized to about half a second of games up to this; 1 .. 2**24; does not change results)")
    seats: list[SeatConfig] = Field(min_length=1, description="one entry per seat, in turn order from the first player")
    checks: CheckConfig = Field(default_factory=CheckConfig, description="[checks] table for `sim check` / `sim baseline`")
    sweep: SweepConfig | None = Field(None, description="[sweep] table: the grid of `sim sweep`")
    sensitivity: SensitivityConfig | None = Field(None, description="[sensitivity] table: the keys, steps, bounds "
                                                  "and linked groups of `sim sensitivity`")
    report: ReportConfig = Field(default_factory=ReportConfig, description="[report] table: thresholds of the "
                                 "report's verdict")
    tune: TuneConfig | None = Field(None, description="[tune] table: the search space and objectives of `sim tune`")
    skill: SkillConfig | None = Field(None, description="[skill] table: the skill ladder of `sim skill --ladder`")

    source: str = Field("<memory>", exclude=True)
    section: Any = Field(None, exclude=True)
    raw: dict[str, Any] = Field(default_factory=dict, exclude=True)

    @field_validator("name")
    @classmethod
    def _plain_name(cls, v: str | None) -> str | None:
        if v is not None:
            why = check_name(v)
            if why:
                raise ValueError(why)
        return v

    @field_validator("seats", mode="before")
    @classmethod
    def _seat_strings(cls, v: Any) -> Any:
        if isinstance(v, list):
            return [{"policy": s} if isinstance(s, str) else s for s in v]
        return v

    @property
    def n_seats(self) -> int:
        return len(self.seats)

    @property
    def run_name(self) -> str:
        return self.name or Path(self.source).stem

    def config_hash(self) -> str:
        """SHA-256 (16 hex) of the canonical JSON of the parsed TOML (key order-insensitive),
        without the run-only keys of :data:`RUN_ONLY_KEYS` (batch size, threads, backend ...)
        and the tool tables of :data:`TOOL_ONLY_KEYS` (``[tune]``), which cannot change a
        result: a run differing only in them is identical to its baseline."""
        raw = {k: v for k, v in self.raw.items() if k not in RUN_ONLY_KEYS + TOOL_ONLY_KEYS}
        return hashlib.sha256(json.dumps(raw, sort_keys=True, default=str).encode()).hexdigest()[:16]

    def with_overrides(self, origins: dict[str, str] | None = None, **kw: Any) -> RunConfig:
        """A copy with CLI overrides (``games``, ``seed``...) applied and validated again. An
        error about one of them says "(from the command line)", or, for a key in ``origins``
        (override key -> the config key it was read from, e.g. ``{"games": "checks.games"}``),
        names that key instead."""
        kw = {k: v for k, v in kw.items() if v is not None}
        if not kw:
            return self
        raw = dict(self.raw)
        raw.update(kw)
        return load_dict(raw, self.source, flag_keys={k: (origins or {}).get(k, "") for k in kw})


def _fmt_loc(loc: tuple) -> str:
    out = ""
    for p in loc:
        if isinstance(p, int):
            out += f"[{p}]"
        elif not str(p).startswith("function-") and p not in ("str", "int", "float", "bool", "dict", "list"):
            part = _key_part(p)
            out += f".{part}" if out else part
    return out


def _model_at(model: Any, loc: tuple) -> Any:
    """The pydantic model class that validates the table at ``loc`` (a pydantic error's
    location, from ``model``), or None when no model does (a dict of weights, a list of
    values)."""
    import typing

    for part in loc:
        if isinstance(part, int):
            continue
        field = getattr(model, "model_fields", {}).get(part)
        if field is None:
            return None
        ann = field.annotation
        found = None
        stack = [ann]
        while stack:  # the model inside Optional[...] / list[...] / a union
            t = stack.pop()
            if isinstance(t, type) and issubclass(t, BaseModel):
                found = t
                break
            stack.extend(typing.get_args(t))
        if found is None:
            return None
        model = found
    return model


def did_you_mean(key: str, known: list[str]) -> str:
    """`` (did you mean 'seed'?)`` when ``key`` is close to one of ``known``
    (:func:`sim.records.closest_names`, a strict cutoff: a key is short), else ''."""
    near = closest_names(key, known, n=1, cutoff=0.75, same_prefix=False)
    return f" (did you mean {near[0]!r}?)" if near else ""


def _flagged(key: str, flag_keys: dict[str, str] | set[str] | None) -> tuple[str, str]:
    """(key, note) of an error about ``key`` when the value came from an override
    (:meth:`RunConfig.with_overrides`): the config key it was read from (``checks.games``) and
    no note, or ``key`` and " (from the command line)"; ``key`` and '' when no override set it."""
    top = key.split(".")[0].split("[")[0]
    if not flag_keys or top not in flag_keys:
        return key, ""
    origin = flag_keys.get(top, "") if isinstance(flag_keys, dict) else ""
    if origin:
        return origin + key[len(top):], ""
    return key, " (from the command line)"


def _raise_validation(e: ValidationError, source: str, prefix: str = "",
                      flag_keys: dict[str, str] | set[str] | None = None, model: Any = None):
    errors = e.errors()
    # an unknown key explains a missing one next to it (a typo): report it first
    errors.sort(key=lambda x: x["type"] != "extra_forbidden")
    err = errors[0]
    key = _fmt_loc(err["loc"])
    if prefix:
        key = f"{prefix}.{key}" if key else prefix
    msg = err["msg"]
    if err["type"] == "extra_forbidden":
        msg = "unknown key"
        at = _model_at(model, tuple(err["loc"][:-1])) if model is not None and err["loc"] else None
        if at is not None and isinstance(err["loc"][-1], str):
            known = [k for k, f in at.model_fields.items() if not f.exclude]
            msg += did_you_mean(err["loc"][-1], known)
    elif err["type"] == "value_error":  # a validator's own message: it names the value itself
        msg = cut(msg.removeprefix("Value error, "))
    elif "input" in err and not isinstance(err["input"], dict | list):
        msg = f"{cut(msg)} (got {excerpt(err['input'])})"
    else:
        msg = cut(msg)
    key, note = _flagged(key, flag_keys)
    raise ConfigError(source, key, msg + note) from None


INTERNAL_KEYS = ("source", "section", "raw")
"""RunConfig fields filled by the loader, never by the file."""


def _check_seat_names(cfg: RunConfig, gdef: Any, source: str) -> None:
    """Seats sharing a name (label, or the policy's name) must play the same policy with the
    same weights (competitive games; a cooperative team's one policy is the game's own check),
    and a label must not be the name of another policy: by-policy metrics would merge
    different players into one row."""
    policy_names = {p.name for p in gdef.policies}
    first: dict[str, int] = {}
    for i, seat in enumerate(cfg.seats):
        if seat.label is not None and seat.label != seat.policy and seat.label in policy_names:
            raise ConfigError(source, f"seats[{i}].label",
                              f"{excerpt(seat.label)} is the name of another policy; choose a label that is not a policy name")
        j = first.setdefault(seat.name, i)
        other = cfg.seats[j]
        if gdef.mode == "competitive" and j != i and (other.policy != seat.policy or dict(other.weights) != dict(seat.weights)
                                                      or other.base != seat.base
                                                      or dict(other.base_weights) != dict(seat.base_weights)):
            raise ConfigError(source, f"seats[{i}]" + (".label" if seat.label else ""),
                              f"seat {i} is named {excerpt(seat.name)} like seat {j}, which plays another policy or "
                              "other weights; give one of them a label of its own")


def _check_engine_weights(gdef: Any, pdef: Any, seat: SeatConfig, i: int, source: str) -> None:
    """The engine's weights every policy takes (``sim.games.base.ENGINE_WEIGHTS``): ``mistake``
    is a probability, from 0 to 1; ``temperature`` is 0 or more (finite: every weight is), and
    above 0 only on a policy that scores its options (``PolicyDef.scored``: elsewhere it would
    change nothing)."""
    v = seat.weights.get("mistake")
    if v is not None and not 0.0 <= v <= 1.0:
        raise ConfigError(source, f"seats[{i}].weights.mistake",
                          f"{v!r} is not a probability from 0 to 1 (the share of the seat's decisions made at random)")
    t = seat.weights.get("temperature")
    if t is not None and not t >= 0.0:
        raise ConfigError(source, f"seats[{i}].weights.temperature",
                          f"{t!r} is not a temperature of 0 or more (0: the policy plays its best option)")
    if t and not pdef.scored:
        scoring = [p.name for p in gdef.policies if p.scored]
        raise ConfigError(source, f"seats[{i}].weights.temperature",
                          f"policy {pdef.name!r} does not score its options, so a temperature would change nothing; "
                          f"in {gdef.name} it softens {', '.join(scoring) or 'no policy'} (docs/mistakes.md)")


def _check_base(gdef: Any, pdef: Any, seat: SeatConfig, i: int, source: str) -> None:
    """``base`` / ``base_weights`` belong to a look-ahead policy only; the base must be a
    policy of the game that does not look ahead itself, and its weights must be its own."""
    if not pdef.lookahead:
        for key, val in (("base", seat.base), ("base_weights", seat.base_weights)):
            if val:
                raise ConfigError(source, f"seats[{i}].{key}",
                                  f"policy {pdef.name!r} does not look ahead; only a look-ahead policy "
                                  f"({', '.join(p.name for p in gdef.policies if p.lookahead) or 'none in this game'}) "
                                  f"takes {key}")
        return
    base_name = seat.base or pdef.base
    plain = [p.name for p in gdef.policies if not p.lookahead]
    if base_name not in plain:
        raise ConfigError(source, f"seats[{i}].base",
                          f"unknown base policy {excerpt(base_name)}; one of {plain}")
    for w, v in seat.weights.items():
        if w in ENGINE_WEIGHTS:
            continue  # checked by _check_engine_weights
        lo = 1 if w == "rollouts" else 0
        if v != int(v) or not lo <= v <= 1_000_000:
            raise ConfigError(source, f"seats[{i}].weights.{_key_part(w)}",
                              f"{v!r} is not a whole number from {lo} to 1000000 (a look-ahead budget)")
    bdef = gdef.policy(base_name)
    for w in seat.base_weights:
        if w not in bdef.weights:
            raise ConfigError(
                source, f"seats[{i}].base_weights.{_key_part(w)}",
                f"base policy {bdef.name!r} has no weight {excerpt(w)}; its weights are {list(bdef.weights) or 'none'}",
            )


def _is_user_policy(name: str) -> bool:
    from sim.userpol import is_user_spec

    return is_user_spec(name)


def _check_user_seat(gdef: Any, seat: SeatConfig, i: int, source: str) -> None:
    """A seat naming a user policy (``file.py:function``, docs/policies.md): the file is
    loaded (it is code: it runs now) and checked (:func:`sim.userpol.load_policy`); its weights
    must be the policy's own or the engine's; a user policy takes no ``base``."""
    from sim.userpol import config_dir, load_policy

    pol = load_policy(seat.policy, config_dir(source), gdef.name, source, f"seats[{i}].policy")
    for w in seat.weights:
        if w not in pol.weights and w not in ENGINE_WEIGHTS:
            known = list(pol.weights) + list(ENGINE_WEIGHTS)
            raise ConfigError(source, f"seats[{i}].weights.{_key_part(w)}",
                              f"policy {pol.label} has no weight {excerpt(w)}{did_you_mean(w, known)}; its weights "
                              f"are {list(pol.weights) or 'none'}, and every policy takes {list(ENGINE_WEIGHTS)}")
    for key, val in (("base", seat.base), ("base_weights", seat.base_weights)):
        if val:
            raise ConfigError(source, f"seats[{i}].{key}", f"a user policy ({pol.label}) takes no {key}")
    # a user policy scores nothing the engine can soften (docs/policies.md): temperature is refused
    _check_engine_weights(gdef, SimpleNamespace(name=pol.label, scored=False), seat, i, source)


def _check_run_name(cfg: RunConfig, source: str) -> None:
    if cfg.name is not None:
        return
    stem = Path(source).stem
    if source == "<memory>":
        return
    why = check_name(stem) if (stem in ("", ".", "..") or len(stem) > MAX_NAME
                               or any(ord(c) < 32 or c == "\x7f" for c in stem)) else None
    if why:
        raise ConfigError(source, "name", f"the file name cannot name the report ({why}); set name = \"...\"")


def load_dict(raw: dict[str, Any], source: str = "<memory>",
              flag_keys: dict[str, str] | set[str] | None = None) -> RunConfig:
    """Validate a parsed config dict; raises :class:`ConfigError`. ``flag_keys``: the keys
    an override set (:meth:`RunConfig.with_overrides`), a set or a dict key -> the config key
    the value was read from ('' for the command line)."""
    from sim.games import GAMES, get_game

    game_name = raw.get("game")
    if game_name is None:
        raise ConfigError(source, "game", f"missing; one of {sorted(GAMES)}")
    if not isinstance(game_name, str) or game_name not in GAMES:
        raise ConfigError(source, "game", f"unknown game {excerpt(game_name)}; one of {sorted(GAMES)}")
    check_plain(raw, source)
    for k in INTERNAL_KEYS:
        if k in raw:
            raise ConfigError(source, k, "unknown key")
    gdef = get_game(game_name)
    common = {k: v for k, v in raw.items() if k != game_name}
    try:
        cfg = RunConfig.model_validate(common)
    except ValidationError as e:
        _raise_validation(e, source, flag_keys=flag_keys, model=RunConfig)
    section_raw = raw.get(game_name, {})
    if not isinstance(section_raw, dict):
        raise ConfigError(source, game_name, "must be a table")
    try:
        section = gdef.section.model_validate(section_raw)
    except ValidationError as e:
        _raise_validation(e, source, prefix=game_name, model=gdef.section)
    n = len(cfg.seats)
    if not gdef.min_seats <= n <= gdef.max_seats:
        raise ConfigError(source, "seats", f"{game_name} takes {gdef.min_seats} to {gdef.max_seats} seats, got {n}")
    for i, seat in enumerate(cfg.seats):
        if _is_user_policy(seat.policy):
            _check_user_seat(gdef, seat, i, source)
            continue
        try:
            pdef = gdef.policy(seat.policy)
        except KeyError:
            names = [p.name for p in gdef.policies]
            raise ConfigError(source, f"seats[{i}].policy",
                              f"unknown policy {excerpt(seat.policy)}{did_you_mean(seat.policy, names)}; one of {names}") from None
        for w in seat.weights:
            if w not in pdef.weights and w not in ENGINE_WEIGHTS:
                known = list(pdef.weights) + list(ENGINE_WEIGHTS)
                raise ConfigError(
                    source, f"seats[{i}].weights.{_key_part(w)}",
                    f"policy {pdef.name!r} has no weight {excerpt(w)}{did_you_mean(w, known)}; its weights "
                    f"are {list(pdef.weights) or 'none'}, and every policy takes {list(ENGINE_WEIGHTS)}",
                )
        _check_engine_weights(gdef, pdef, seat, i, source)
        _check_base(gdef, pdef, seat, i, source)
    _check_seat_names(cfg, gdef, source)
    _check_run_name(cfg, source)
    games_key, note = _flagged("games", flag_keys)
    check_size(cfg.games, len(gdef.column_names(n)), n, source, games_key, note)
    # validation only: impossible set-ups (a deck too small to deal, ...) are found when the
    # run is compiled (sim.compile.compile_run)
    return cfg.model_copy(update={"source": source, "section": section, "raw": raw})


def read_raw(path: str | Path) -> dict[str, Any]:
    """Read and parse a TOML config file (not validated); raises :class:`ConfigError`
    (missing file, too large, TOML syntax, not UTF-8, too deep, unreadable)."""
    path = Path(path)
    source = str(path)
    if not path.is_file():
        raise ConfigError(source, "", "no such file")
    try:
        if path.stat().st_size > MAX_CONFIG_BYTES:
            raise ConfigError(source, "", f"larger than {MAX_CONFIG_BYTES // 1_000_000} MB: not a config")
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(source, "", f"TOML syntax error: {cut(str(e), 200)}") from None
    except UnicodeDecodeError as e:
        raise ConfigError(source, "", f"not UTF-8 text: {e}") from None
    except RecursionError:
        raise ConfigError(source, "", f"nested more than {MAX_DEPTH} levels deep") from None
    except OSError as e:
        raise ConfigError(source, "", f"cannot read: {e.strerror or e}") from None


def load(path: str | Path) -> RunConfig:
    """Read and validate a TOML config file; raises :class:`ConfigError` (missing file,
    TOML syntax, unknown keys, wrong types, impossible values). With ``--set`` overrides:
    :func:`sim.overrides.load`."""
    return load_dict(read_raw(path), str(Path(path)))


def json_schema(game: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a config file of ``game``: the common keys of
    :class:`RunConfig` (every key with its description, default and range) plus the game's
    ``[<game>]`` table (its ``Section`` model), unknown keys forbidden, ``game`` fixed and the
    seat policies listed. TOML editors (taplo / Even Better TOML) read it from a
    ``#:schema <path>`` first line. Raises KeyError for an unknown game."""
    from sim.games import get_game

    gdef = get_game(game)
    schema = RunConfig.model_json_schema(mode="validation")
    for k in INTERNAL_KEYS:
        schema.get("properties", {}).pop(k, None)
    section = gdef.section.model_json_schema(mode="validation")
    defs = schema.setdefault("$defs", {})
    defs.update(section.pop("$defs", {}))
    props = schema["properties"]
    props["game"] = {"const": game, "description": f"{gdef.title}: this schema's game", "title": "Game"}
    props[game] = section
    seat = defs.get("SeatConfig")
    if seat:
        pol = seat["properties"]["policy"]
        pol["anyOf"] = [{"enum": [p.name for p in gdef.policies]},
                        {"pattern": USER_POLICY_PATTERN,
                         "description": "a user policy: file.py:function (docs/policies.md)"}]
        pol["description"] += ": " + "; ".join(f"{p.name}: {p.doc}" for p in gdef.policies)
        base = seat["properties"].get("base")
        if base is not None:
            base["anyOf"] = [{"enum": [p.name for p in gdef.policies if not p.lookahead]}, {"type": "null"}]
    seats = props.get("seats")
    if seats is not None and "items" in seats:  # a seat may be written as its policy name alone
        seats["items"] = {"anyOf": [seats["items"], {"enum": [p.name for p in gdef.policies]},
                                    {"type": "string", "pattern": USER_POLICY_PATTERN}]}
    schema["required"] = sorted(set(schema.get("required", [])) | {"game", "seats"})
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = f"sim config: {gdef.title} ({game})"
    return schema
