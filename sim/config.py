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
import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from sim.errors import ConfigError
from sim.records import metric_label, same_value


class Strict(BaseModel):
    """Base model: unknown keys are errors and values are not coerced across types (a
    string "9" is not an int, 0 is not a bool; an int is still accepted where a float is
    expected)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class SeatConfig(Strict):
    """One seat entry: the policy that plays it, an optional label and policy weights."""

    policy: str = Field(description="built-in policy name (see `sim policies GAME`)")
    label: str | None = Field(None, description="name used in by-policy metrics; default: the policy name")
    weights: dict[str, float] = Field(default_factory=dict, description="weights of a weighted policy")

    @property
    def name(self) -> str:
        return self.label or self.policy


class Target(Strict):
    """An absolute balance target on this run's point estimates.

    ``by``: the record's grouping keys; ``"*"`` matches any value (``{seat="*"}`` = every
    seat). ``min`` / ``max``: inclusive bounds in the metric's units (rates as fractions:
    0.25 = 25%); at least one is required.
    """

    metric: str = Field(description="metric name, e.g. win_rate, stall_rate, loss_rate")
    by: dict[str, str | int | float | bool] = Field(default_factory=dict, description='grouping; "*" = any value')
    min: float | None = Field(None, description="lowest allowed value (inclusive)")
    max: float | None = Field(None, description="highest allowed value (inclusive)")

    @model_validator(mode="after")
    def _bounds(self) -> Target:
        if self.min is None and self.max is None:
            raise ValueError("a target needs min, max or both")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"min ({self.min}) is above max ({self.max})")
        return self

    def label(self) -> str:
        lo = "-inf" if self.min is None else f"{self.min:g}"
        hi = "inf" if self.max is None else f"{self.max:g}"
        return f"{metric_label(self.metric, self.by)} in [{lo}, {hi}]"

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

    * ``alpha``: familywise error rate across all tested metrics of one check (Holm).
    * ``tolerance``: absolute change a rate may make without failing (0.01 = 1 point).
    * ``mean_tolerance``: relative change a mean may make (0.02 = 2% of the baseline mean).
    * ``tolerances``: metric name (``win_rate``) or label (``"win_rate[seat=0]"``) ->
      tolerance overriding the default of its kind (absolute for rates, relative for means).
    * ``power``: power at which the minimum detectable change is stated.
    * ``targets``: absolute bounds, see :class:`Target`.
    * ``games``: games per run for ``sim check`` / ``sim baseline`` when ``--games`` is not
      given (keeps CI fast); default: the config's ``games``.
    """

    alpha: float = Field(0.05, gt=0, lt=1, description="familywise error rate (Holm) of one check")
    tolerance: float = Field(0.01, ge=0, le=1, description="default absolute tolerance for rates")
    mean_tolerance: float = Field(0.02, ge=0, description="default relative tolerance for means")
    tolerances: dict[str, float] = Field(default_factory=dict, description="per-metric tolerance overrides")
    power: float = Field(0.8, gt=0, lt=1, description="power for the stated minimum detectable change")
    targets: list[Target] = Field(default_factory=list, description="absolute balance targets")
    games: int | None = Field(None, gt=0, description="games for check/baseline when --games is not given")

    @model_validator(mode="after")
    def _nonneg(self) -> CheckConfig:
        for k, v in self.tolerances.items():
            if not v >= 0:
                raise ValueError(f"tolerances.{k} must be >= 0, got {v}")
        return self


class RunConfig(Strict):
    """A validated run: the common keys plus ``section``, the game's validated model.

    ``source`` is the file it came from (for messages), ``raw`` the parsed TOML as read.
    """

    game: str = Field(description="registered game name (see `sim games`)")
    name: str | None = Field(None, description="run name: report folder reports/<name>; default the file stem")
    games: int = Field(10_000, gt=0, description="number of playouts")
    seed: int = Field(0, ge=0, lt=2**63, description="master seed; game g uses streams of (seed, g)")
    rotate_seats: bool = Field(False, description="play every seating permutation of the seat entries equally often")
    turn_cap: int = Field(2000, gt=0, description="a playout reaching this many turns is stopped and counted a stall")
    batch_size: int = Field(65_536, gt=0, description="games per kernel call (does not change results)")
    seats: list[SeatConfig] = Field(min_length=1, description="one entry per seat, in turn order from the first player")
    checks: CheckConfig = Field(default_factory=CheckConfig, description="[checks] table for `sim check` / `sim baseline`")

    source: str = Field("<memory>", exclude=True)
    section: Any = Field(None, exclude=True)
    raw: dict[str, Any] = Field(default_factory=dict, exclude=True)

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
        """SHA-256 (16 hex) of the canonical JSON of the parsed TOML (key order-insensitive)."""
        return hashlib.sha256(json.dumps(self.raw, sort_keys=True, default=str).encode()).hexdigest()[:16]

    def with_overrides(self, **kw: Any) -> RunConfig:
        """A copy with CLI overrides (``games``, ``seed``...) applied and validated again."""
        kw = {k: v for k, v in kw.items() if v is not None}
        if not kw:
            return self
        raw = dict(self.raw)
        raw.update(kw)
        return load_dict(raw, self.source, flag_keys=set(kw))


def _fmt_loc(loc: tuple) -> str:
    out = ""
    for p in loc:
        if isinstance(p, int):
            out += f"[{p}]"
        elif not str(p).startswith("function-") and p not in ("str", "int", "float", "bool", "dict", "list"):
            out += f".{p}" if out else str(p)
    return out


def _raise_validation(e: ValidationError, source: str, prefix: str = "", flag_keys: set[str] | None = None):
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
    elif "input" in err and not isinstance(err["input"], dict | list):
        msg = f"{msg} (got {err['input']!r})"
    if flag_keys and key.split(".")[0] in flag_keys:
        msg += " (from the command line)"
    raise ConfigError(source, key, msg) from None


def load_dict(raw: dict[str, Any], source: str = "<memory>", flag_keys: set[str] | None = None) -> RunConfig:
    """Validate a parsed config dict; raises :class:`ConfigError`."""
    from sim.games import GAMES, get_game

    game_name = raw.get("game")
    if game_name is None:
        raise ConfigError(source, "game", f"missing; one of {sorted(GAMES)}")
    if not isinstance(game_name, str) or game_name not in GAMES:
        raise ConfigError(source, "game", f"unknown game {game_name!r}; one of {sorted(GAMES)}")
    gdef = get_game(game_name)
    common = {k: v for k, v in raw.items() if k != game_name}
    try:
        cfg = RunConfig.model_validate(common)
    except ValidationError as e:
        _raise_validation(e, source, flag_keys=flag_keys)
    section_raw = raw.get(game_name, {})
    if not isinstance(section_raw, dict):
        raise ConfigError(source, game_name, "must be a table")
    try:
        section = gdef.section.model_validate(section_raw)
    except ValidationError as e:
        _raise_validation(e, source, prefix=game_name)
    n = len(cfg.seats)
    if not gdef.min_seats <= n <= gdef.max_seats:
        raise ConfigError(source, "seats", f"{game_name} takes {gdef.min_seats} to {gdef.max_seats} seats, got {n}")
    for i, seat in enumerate(cfg.seats):
        try:
            pdef = gdef.policy(seat.policy)
        except KeyError:
            names = [p.name for p in gdef.policies]
            raise ConfigError(source, f"seats[{i}].policy", f"unknown policy {seat.policy!r}; one of {names}") from None
        for w in seat.weights:
            if w not in pdef.weights:
                raise ConfigError(
                    source, f"seats[{i}].weights.{w}",
                    f"policy {pdef.name!r} has no weight {w!r}; its weights are {list(pdef.weights) or 'none'}",
                )
    # validation only: impossible set-ups (a deck too small to deal, ...) are found when the
    # run is compiled (sim.compile.compile_run)
    return cfg.model_copy(update={"source": source, "section": section, "raw": raw})


def load(path: str | Path) -> RunConfig:
    """Read and validate a TOML config file; raises :class:`ConfigError` (missing file,
    TOML syntax, unknown keys, wrong types, impossible values)."""
    path = Path(path)
    source = str(path)
    if not path.is_file():
        raise ConfigError(source, "", "no such file")
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(source, "", f"TOML syntax error: {e}") from None
    except UnicodeDecodeError as e:
        raise ConfigError(source, "", f"not UTF-8 text: {e}") from None
    return load_dict(raw, source)
