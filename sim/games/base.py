"""The game contract: what every game module offers so that the runner, CLI, statistics
and reports never special-case a game.

A game lives in ``sim/games/<name>/`` and its ``__init__.py`` exposes ``GAME``, a
:class:`GameDef`. The numba kernel side of the contract is one function::

    play_batch(spec, entry_policy, entry_weights, perms, seed, first_index, count, out)

* ``spec``: whatever ``compile`` returned (a tuple of numpy arrays and ints, numba-friendly).
* ``entry_policy``: int64[E], policy id of each seat entry of the config (``[[seats]]``).
* ``entry_weights``: float64[E, W], weight vector of each entry (W = the game's max weights).
* ``perms``: int64[P, S]; game ``g`` seats entry ``perms[g % P, s]`` at seat ``s``
  (P = 1 and the identity without ``rotate_seats``; every permutation with it).
* ``seed``: int64 >= 0; ``first_index``: int64, the game index of row 0; ``count``: int64.
* ``out``: int32[count, C] result matrix, one row per game, columns as ``GameDef.columns``
  with per-seat columns expanded to ``<name>_s<i>`` for i < S.

Every game draws from its own streams seeded by ``sim.rng.seed_streams(rng, seed, g)``.

Common result columns (the generic metrics read them):

* all games: ``turns`` (player turns, or rounds for simultaneous games), ``stalled``
  (1 when the turn cap ended the game), ``reshuffles``, ``starved_draws``;
* ``mode == "competitive"``: ``winner`` (seat, -1 when none) and ``rank`` per seat
  (1 = first to finish, 0 = not ranked because the game stalled);
* ``mode == "cooperative"``: ``team_win`` (0/1).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Literal


@dataclass(frozen=True)
class Column:
    """One result column: int32, ``per_seat`` columns are expanded to ``<name>_s<i>``."""

    name: str
    doc: str
    per_seat: bool = False


def expand_columns(columns: tuple[Column, ...], n_seats: int) -> list[str]:
    """Column names in matrix order: a per-seat column becomes ``<name>_s0 .. _s<n-1>``."""
    names: list[str] = []
    for c in columns:
        if c.per_seat:
            names.extend(f"{c.name}_s{i}" for i in range(n_seats))
        else:
            names.append(c.name)
    return names


@dataclass(frozen=True)
class PolicyDef:
    """A built-in policy: integer id used by the kernel, named weights with defaults."""

    name: str
    id: int
    doc: str
    weights: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class TraceResult:
    """What ``GameDef.trace`` returns: the rendered log and the game's result row."""

    lines: list[str]
    row: dict[str, int]


@dataclass(frozen=True)
class GameDef:
    """Everything the framework needs from one game.

    Callables:

    * ``compile(cfg) -> spec``: ``cfg`` is a :class:`sim.config.RunConfig` whose
      ``section`` is this game's validated pydantic model; raises
      :class:`sim.errors.ConfigError` for impossible set-ups (a deck too small to deal...).
    * ``play_batch``: the njit kernel described in the module docstring.
    * ``trace(cfg, spec, entry_policy, entry_weights, perms, seed, game_index) -> TraceResult``.
    * ``metrics(df, cfg) -> list[dict]``: game-specific metric records (same record shape
      as ``summary.json``); ``df`` is the polars frame of the run.
    * ``plots(df, records, folder) -> list[tuple[str, str]]``: writes game-specific PNGs into
      ``folder`` and returns (title, file name) pairs.
    * ``check_playout(spec, entry_policy, entry_weights, perms, seed, game_index) -> int``:
      plays one game exactly as ``play_batch`` would, running the game's invariant check
      (every card / piece in exactly one place, no slot over capacity, ...) after every
      step; returns 0, or the code of the first violated invariant (documented by the game).
    """

    name: str
    title: str
    rulebook: str
    mode: Literal["competitive", "cooperative"]
    min_seats: int
    max_seats: int
    section: type
    policies: tuple[PolicyDef, ...]
    columns: tuple[Column, ...]
    compile: Callable[[Any], Any]
    play_batch: Callable[..., None]
    trace: Callable[..., TraceResult]
    metrics: Callable[..., list[dict]]
    plots: Callable[..., list[tuple[str, str]]] | None = None
    check_playout: Callable[..., int] | None = None
    n_weights: int = 8
    rules_doc: str = "RULES.md"

    def policy(self, name: str) -> PolicyDef:
        """The policy called ``name``; raises KeyError."""
        for p in self.policies:
            if p.name == name:
                return p
        raise KeyError(name)

    def column_names(self, n_seats: int) -> list[str]:
        """Result matrix column names for ``n_seats`` seats, in matrix order."""
        return expand_columns(self.columns, n_seats)
