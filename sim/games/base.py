"""The game contract: what every game package offers so that the runner, CLI, statistics
and reports never special-case a game. The recipe for adding one is ``docs/adding-a-game.md``.

A game lives in ``sim/games/<name>/`` with one fixed file list (``__init__.py``, ``RULES.md``,
``data.py``, ``config.py``, ``layout.py``, ``catalogue.py``, ``spec.py``, ``rules.py``,
``policies.py``, ``play.py``, ``hooks.py``, ``trace.py``, ``state.py``, ``metrics.py``;
``sim/games/dice_race`` is the template a new game copies).
The turn loop is the engine's (:mod:`sim.games.loop`): ``hooks.py`` binds it to the game's
hooks, and the kernel contract's ``play_batch`` and ``check_playout`` are the bound loop's.
Its ``__init__.py`` holds only ``GAME = GameDef(...)``. **Everything the framework reads of a game is a**
:class:`GameDef` **field or one of the hooks of** :data:`HOOKS`; no framework module reads a
game module's attribute by any other name, and none names a game.

*Fields* are plain values, set in the ``GameDef(...)`` call from the game's light modules
(``config``, ``layout``, ``catalogue``: no numba, no polars, so ``sim --help``, ``sim games``
and ``sim policies`` stay fast).

*Hooks* are the functions of the numba / polars side. They are loaded by module and function
name when first used (:meth:`GameDef.hook`, behind the properties below), so importing a game
imports neither numba nor polars; the registry (:func:`sim.games.get_game`) checks with
:func:`missing_hooks`, without importing anything, that every hook is defined when the game
registers, and refuses the game naming the missing hook. Every game names the same concept
the same way:

=====================  =========================================================================
``GameDef`` attribute  hook, loaded from ``sim.games.<name>.``
=====================  =========================================================================
``compile``            ``spec.compile_spec(cfg) -> spec`` (tuple of numpy arrays; raises ConfigError)
``play_batch``         ``hooks.play_batch`` (the batch below: the engine's loop bound to the game's
                       hooks, one numba slice kernel a thread: :mod:`sim.games.loop` ``ThreadedBatch``)
``trace``              ``trace.trace(run, game_index) -> TraceResult``
``check_playout``      ``hooks.check_playout(run, game_index) -> int`` (0 or an invariant code)
``progress_trace``     ``hooks.run_progress(run, game_index) -> int32[R, max(S, 2)]``: the game's
                       tension records (:mod:`sim.games.tension`; the engine's ``Kernels.run_progress``)
``tally_spec``         ``metrics.tally_spec(cfg) -> list[Hist | Moments]`` (what to tally, sim.tally)
``metrics``            ``metrics.metrics(tally, cfg) -> list[dict]`` (records from the Tally only)
``plots``              ``metrics.plots(tally, records, folder) -> list[(title, file name)]``
``per_game``           ``metrics.per_game(df, cfg) -> {label: (num, den)}`` (the ``headline``
                       metrics per game, for paired checks: :mod:`sim.check.paired`)
``GameState``          ``state.GameState`` (a :class:`GameStateBase`)
=====================  =========================================================================

The batch (a Python callable over the bound numba kernel ``play_slice``, one slice per thread)::

    play_batch(spec, entry_policy, entry_weights, perms, seed, first_index, count, out)

* ``spec``: whatever ``compile_spec`` returned (a tuple of numpy arrays, numba-friendly).
* ``entry_policy``: int64[E], policy id of each seat entry of the config (``[[seats]]``).
* ``entry_weights``: float64[E, W], weight vector of each entry (W = ``GameDef.n_weights +
  ENGINE_W + LOOKAHEAD_W``), in the order of the policy's ``weights`` dict (that order *is* the
  kernel's index order), then the engine's weights (:data:`ENGINE_WEIGHTS`: ``mistake`` and
  ``temperature``, which every policy takes; read with ``sim.games.engine.W_MISTAKE`` and
  ``W_TEMPERATURE``; a game that has a scoring policy, ``PolicyDef.scored``, gives the engine's
  loop its optional ``scores`` / ``scored_choice`` hooks, :mod:`sim.games.loop`). For a look-ahead policy (``PolicyDef.base`` set, e.g. ``rollout``) the leading
  slots hold its *base* policy's weights and the last ``LOOKAHEAD_W`` slots hold, from
  ``sim.games.engine.W_LA_BASE`` on: the base policy's id, then the look-ahead policy's own
  weights in declared order (``rollouts``, ``depth``, ...); for every other entry those slots
  are ``-1, 0, 0, ...``. Kernels read them with negative indices (``w[W_LA_BASE]``), so a game
  never needs to know its own width.
* ``perms``: int64[P, S]; game ``g`` seats entry ``perms[g % P, s]`` at seat ``s``
  (P = 1 and the identity without ``rotate_seats``; every permutation with it); read it with
  :func:`sim.games.engine.seat_policies`.
* ``seed``: int64 >= 0; ``first_index``: int64, the game index of row 0; ``count``: int64.
* ``out``: int32[count, C] result matrix, one row per game, columns as ``GameDef.columns``
  with per-seat columns expanded to ``<name>_s<i>`` for i < S (offsets: :func:`column_offsets`),
  then the engine's tension columns (:data:`TENSION_COLUMNS`, written by the loop; the game's
  ``write_row`` writes only its own).

Every game draws from its own streams seeded by ``sim.rng.seed_streams(rng, seed, g)``.

Common result columns (the generic metrics read them):

* all games: ``turns`` (player turns, or rounds for simultaneous games), ``stalled``
  (1 when the turn cap ended the game);
* a game with a deck declares both card columns (``sim.metrics.CARD_COLUMNS``):
  ``reshuffles`` and ``starved_draws`` (a game without one declares neither, and its report has
  no reshuffle metrics or plot);
* ``mode == "competitive"``: ``winner`` (seat, -1 when none) and ``rank`` per seat
  (1 = first to finish, 0 = not ranked because the game stalled);
* ``mode == "cooperative"``: ``team_win`` (0/1).
"""

from __future__ import annotations

import abc
import ast
import importlib
import importlib.util
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Literal, Mapping, Protocol, Sequence


class Run(Protocol):
    """A compiled run as a game's hooks see it (``sim.compile.CompiledRun`` is one):
    declared here so that the contract imports nothing of the framework (``sim.compile``
    imports this module)."""

    cfg: Any
    game: GameDef
    spec: Any
    entry_policy: Any
    entry_weights: Any
    perms: Any
    labels: list[str]

    @property
    def seed(self) -> int: ...

    @property
    def n_seats(self) -> int: ...

    def seat_labels(self, game_index: int) -> list[str]: ...


@dataclass(frozen=True)
class Column:
    """One result column: int32, ``per_seat`` columns are expanded to ``<name>_s<i>``.
    ``none``: the value the column holds in a game where it does not apply (a loss round in a
    game that was won, the winner's turn in a stalled game); summaries of the column (the
    replay's run mean) leave those games out."""

    name: str
    doc: str
    per_seat: bool = False
    none: int | None = None

    def applies(self, value: float) -> bool:
        """False when ``value`` is the column's ``none`` (it does not apply in that game)."""
        return self.none is None or value != self.none


def expand_columns(columns: Sequence[Column], n_seats: int) -> list[str]:
    """Column names in matrix order: a per-seat column becomes ``<name>_s0 .. _s<n-1>``."""
    names: list[str] = []
    for c in columns:
        if c.per_seat:
            names.extend(f"{c.name}_s{i}" for i in range(n_seats))
        else:
            names.append(c.name)
    return names


TENSION_COLUMNS: dict[str, tuple[Column, ...]] = {
    "competitive": (
        Column("tension_rounds", "rounds recorded for tension: one record at the end of every round until "
               "the winner is known, the last one when it is (or at the game's end)"),
        Column("lead_changes", "times the sole lead in progress passed to another seat (ties keep it)"),
        Column("decisive_round", "rounds before the winner led alone for good (tension_rounds: not even at "
               "the end); -1 without a winner", none=-1),
        Column("mid_deficit", "at the midpoint round ((tension_rounds - 1) // 2, 0-based): the best other "
               "seat's progress minus the winner's (> 0: the winner trailed); 0 without a winner"),
        Column("mid_leader", "the seat leading alone at the midpoint round, -1 on a tie there", none=-1),
        Column("margin", "the winner's final progress minus the best other seat's; 0 without a winner"),
        Column("drama", "mean deficit of the winner in the rounds it trailed, in thousandths of its final "
               "progress (Ludii's Drama); 0 when it never trailed, -1 without a winner", none=-1),
        Column("mid_behind", "at the midpoint round: the leader's progress minus this seat's (0: it led "
               "or shared the lead)", per_seat=True),
    ),
    "cooperative": (
        Column("tension_rounds", "rounds recorded for tension (one record per round, the last after the "
               "final count)"),
        Column("lost_round", "the round the team reached the losing danger (complaint limit), -1 when it "
               "never did", none=-1),
        Column("closest_call", "the most danger (complaints) of any round"),
        Column("rounds_one_short", "rounds that ended one complaint short of the limit"),
        Column("one_short", "1 when the final count ended the game on exactly the complaint limit: one "
               "complaint fewer and the team had won"),
    ),
}
"""Columns the engine appends to every game's result row (:mod:`sim.games.tension`): the
tension of the race, by mode. Their values come from the game's ``progress`` hook; their
metrics are common to every game (:mod:`sim.metrics`)."""


def column_offsets(columns: Sequence[Column]) -> dict[str, tuple[int, int]]:
    """Where each declared column sits in a result row, for any seat count.

    Returns ``name -> (fixed, per_seat)``: the column starts at ``fixed + per_seat * S`` in a
    row of S seats (a per-seat column's seat ``s`` at that offset ``+ s``), where ``fixed`` is
    the number of plain columns and ``per_seat`` the number of per-seat columns declared
    before it. Layouts derive their ``O_*`` constants from this, never by hand; the kernel
    reads them with :func:`sim.games.engine.col_at`.
    """
    out: dict[str, tuple[int, int]] = {}
    fixed = per = 0
    for c in columns:
        if c.name in out:
            raise ValueError(f"column {c.name!r} declared twice")
        out[c.name] = (fixed, per)
        if c.per_seat:
            per += 1
        else:
            fixed += 1
    return out


class Layout:
    """Allocates consecutive slots of one flat kernel array (spec or state), so every offset
    is derived as the previous offset + its size, never typed by hand::

        _s = Layout()
        S_ROUND = _s.slot()          # one int
        S_PILE_POS = _s.block(3)     # three ints
        STATE_SIZE = _s.size

    Module-level ints made this way are compile-time constants for numba like literals.
    """

    def __init__(self, start: int = 0):
        self.size = start

    def slot(self) -> int:
        """Offset of a new single slot."""
        return self.block(1)

    def block(self, n: int) -> int:
        """Offset of a new block of ``n`` slots; raises ValueError for n < 0."""
        if n < 0:
            raise ValueError(f"block size must be >= 0, got {n}")
        off = self.size
        self.size += int(n)
        return off


def index_constants(names: Sequence[str]) -> tuple[int, ...]:
    """``0 .. len(names) - 1``: unpack into ``W_*`` / ``E_*`` constants so that an index is
    derived from its list (``W_ANGER, W_FARE = index_constants(WEIGHTS)``), never typed."""
    return tuple(range(len(names)))


@dataclass(frozen=True)
class PolicyDef:
    """A built-in policy: integer id used by the kernel, named weights with defaults.

    The order of ``weights`` is the kernel's weight index order (``W_*`` in the game's
    ``layout.py`` are derived from the same list).
    """

    name: str
    id: int
    doc: str
    weights: dict[str, float] = field(default_factory=dict)
    base: str | None = None
    """Set for a look-ahead policy: the name of the base policy its simulations play by
    default (a seat may name another with ``base = "..."``). Its own ``weights`` (at most
    ``LOOKAHEAD_W - 1``) go to the trailing slots of the weight row, after the base id."""
    weight_docs: Mapping[str, str] = field(default_factory=dict)
    """What each weight does, one line each (``sim policies`` prints it); every weight has one."""
    scored: bool = False
    """True when the policy scores its options, so the engine's ``temperature`` softens its
    choice: the game's ``scores`` hook (:mod:`sim.games.loop`) scores its decisions (a game
    that scores inside a longer decision picks with ``engine.prefer`` there). The config
    refuses a temperature above 0 on any other policy; ``tests/test_temperature.py`` checks
    that the hook scores exactly the declared policies."""

    @property
    def lookahead(self) -> bool:
        """True for a look-ahead policy (one that simulates with a base policy)."""
        return self.base is not None


LOOKAHEAD_W = 4
"""Trailing weight slots of every entry: the base policy id, then up to three look-ahead
weights (see the module docstring)."""

ENGINE_WEIGHTS: dict[str, float] = {"mistake": 0.0, "temperature": 0.0}
"""Weights every policy of every game takes (one shared declaration; :mod:`sim.config`
accepts them on any seat, ``sim policies`` lists them), with their defaults. The engine's
policy dispatch reads them (:func:`sim.games.engine.erring`, :func:`sim.games.engine.boltzmann`),
never a game's policy (but for the decisions a game's policy makes inside a longer one, as
the engine's helpers say):

* ``mistake``: probability in [0, 1] that a decision of the seat is a mistake, played by
  the game's ``random`` policy instead of the seat's own (a uniformly random legal action
  as that game's ``random`` draws it). 0 (the default) draws no random number: a seat
  without mistakes plays bit for bit as before; 1 draws no coin either, so the seat plays
  exactly as ``random`` does on the same deals. The coin and the random action come from
  the game's POLICY stream, so a deal never changes.
* ``temperature``: >= 0; above 0 a policy that scores its options (``PolicyDef.scored``: the
  game's ``scores`` hook, :mod:`sim.games.loop`) picks one by softmax over its scores divided
  by the temperature, in the scores' own units (docs/mistakes.md says per game what one unit
  is), instead of the best: an option one unit below another is picked e^(-1/T) times as
  often. 0 (the default) draws nothing and plays the policy's own choice, bit for bit; a tiny
  temperature plays the best option, a huge one every scored option alike. The draws come from
  the POLICY stream, so a deal never changes. A mistake (``mistake``) is the random policy's
  decision and is not softened. The config refuses it above 0 on a policy that does not
  score."""

ENGINE_WEIGHT_DOCS: dict[str, str] = {
    "mistake": "probability in [0, 1] that a decision is a mistake: played by the game's random policy instead "
               "(engine-wide, every policy; 0 = never, draws nothing; 1 = plays as random)",
    "temperature": "softmax temperature >= 0 of a scoring policy (marked 'scores'): it picks option i with "
                   "probability proportional to exp(score_i / temperature) instead of the best (engine-wide; "
                   "0 = the best, draws nothing; in the policy's score units, docs/mistakes.md)",
}
"""What each engine weight does, one line each (``sim policies`` prints it)."""

ENGINE_W = len(ENGINE_WEIGHTS)
"""Weight slots of every entry between the policy's own weights and the look-ahead slots:
the :data:`ENGINE_WEIGHTS` in their order (read with the negative indices
``sim.games.engine.W_MISTAKE``, ``W_TEMPERATURE``). A weight row is ``n_weights`` policy slots, then
``ENGINE_W``, then ``LOOKAHEAD_W``."""


@dataclass(frozen=True)
class TraceResult:
    """What ``trace`` returns: the rendered log and the game's result row (name -> value)."""

    lines: list[str]
    row: dict[str, int]


@dataclass(frozen=True)
class MetricDef:
    """One entry of a game's metric catalogue (what a metric of ``summary.json`` means).

    ``name`` the record's ``metric``; ``definition`` plain words (what is counted, among which
    games); ``unit`` what the value is in ("% of games", "player turns", "complaints per game");
    ``kind`` the records' ``kind`` (``sim.metrics.RECORD_KINDS``); ``by`` the groupings its
    records can have (each a tuple of ``by`` keys, sorted; ``()`` = all games); ``codes`` decoded
    values of a ``by`` key (``{"SC": "clear sky: no restriction", ...}``)."""

    name: str
    definition: str
    unit: str
    kind: str
    by: tuple[tuple[str, ...], ...] = ((),)
    codes: Mapping[str, str] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        """The entry as written into ``summary.json``'s ``catalogue`` section."""
        return {"definition": self.definition, "unit": self.unit, "kind": self.kind,
                "by": [list(b) for b in self.by], **({"codes": dict(self.codes)} if self.codes else {})}


@dataclass(frozen=True)
class SpeedTarget:
    """A speed target of one game beyond the common one (``sim.bench``): ``games_per_min`` on
    2 threads of the game's default config as shipped, when its seats play ``policy``; ``what``
    completes the README sentence ``Target <n> <title> <what>: met.``"""

    games_per_min: int
    policy: str
    what: str


HOOKS: dict[str, tuple[str, str]] = {
    "compile": ("spec", "compile_spec"),
    "play_batch": ("hooks", "play_batch"),
    "trace": ("trace", "trace"),
    "check_playout": ("hooks", "check_playout"),
    "progress_trace": ("hooks", "run_progress"),
    "tally_spec": ("metrics", "tally_spec"),
    "metrics": ("metrics", "metrics"),
    "plots": ("metrics", "plots"),
    "per_game": ("metrics", "per_game"),
    "GameState": ("state", "GameState"),
}
"""Every hook of the contract: ``GameDef`` attribute -> (module of the game package, name in
it). The module docstring says what each one is; :func:`missing_hooks` checks them."""

YARDSTICK_FUNCTIONS = ("available", "measure")
"""What the module a game names as its ``yardstick`` defines (see :class:`GameDef`)."""


@dataclass(frozen=True)
class GameDef:
    """Everything the framework needs from one game: the fields below, and the hooks of
    :data:`HOOKS`, loaded from ``package`` (see the module docstring).

    ``version`` is the rules version: bump it whenever a rule, a default or a policy changes
    what a seeded game plays; it is written into baselines, goldens and the manifest.
    ``overrides`` replaces hooks by attribute or function name (test doubles only).

    What the reports, checks and compares say about the game (a game declares them in its
    ``catalogue.py``; the defaults suit a competitive game played in seat order):

    * ``catalogue``: a :class:`MetricDef` for every record the game's ``metrics`` emits (an
      entry with a common metric's name adds its ``by`` groupings, or replaces it);
    * ``headline``: the game's own gated numbers, patterns ``"name"``, ``"name[key]"``,
      ``"name[*]"`` (``sim check`` gates on them beside the common ones; ``per_game`` gives
      them per game; ``sim compare`` shows them first among the game's metrics);
    * ``sweep_headline``: a few descriptive metric names ``sim sweep`` shows per point, after
      the common ones and before the rest of ``headline``;
    * ``length_unit``: what the ``turns`` column counts ("player turns", "rounds");
    * ``seat_note`` / ``seat_axis``: who plays first, the report's sentence and the x label of
      its per-seat plots;
    * ``calibration_note``: how far to trust the absolute numbers (component assumptions ...);
    * ``seat_traits``: None, or ``f(cfg) -> list[str] | None``: what tells the seats apart beyond
      their policy, one short text per seat (Yukon's ``"plane: bonus fuel"``), None when every
      seat starts alike; ``summary.json`` keeps it as ``seat_traits`` and the terminal table, the
      report's tables, verdict and seat plots name each seat by it;
    * ``verdict_notes``: None, or ``f(cfg, records) -> list[str]``: the game's own verdict
      bullets (markdown, without the leading "- "), after the common ones (Now Boarding's
      near misses: games that ended on exactly the complaint limit);
    * ``failure_metrics``: metrics whose largest records are a cooperative game's main
      failure modes (the report's verdict, ``sim compare``'s "Result and failures" group);
    * ``rounds_metric``: a metric of rounds per game beside ``turns`` (``sim compare``'s
      "Length" group), or None;
    * ``progress_unit``: what the game's ``progress`` hook counts (the tension records,
      :mod:`sim.games.tension`; "preparation steps", "$"), the unit of ``margin``;
    * ``duplicates``: records that repeat another metric, left out of the check and compare
      tables: patterns over their labels (``sim.records.metric_label``: ``name[key=value]``;
      ``*`` matches any text, every other character itself), e.g. a game's
      ``outcome_share[outcome=seat *]`` that is its ``win_rate`` by seat.

    Tooling (none changes a result):

    * ``compile_seconds``: rough cold compile time of the game's kernels on the reference
      machine (the README's bench table); ``sim.warm`` compiles the slowest games first;
    * ``speed_target``: a :class:`SpeedTarget` the bench reports on, or None;
    * ``yardstick``: None, or the module of the game package (``"yardstick"``) holding the C
      yardstick of ``make bench``: a plain C port of one hot rule function, with
      ``available() -> bool`` (a C compiler is there) and ``measure() -> dict`` (``{"function",
      "states", "numba_ns", "c_ns", "ratio"}``); the bench times the first registered game
      that declares one.
    """

    name: str
    title: str
    rulebook: str
    version: str
    mode: Literal["competitive", "cooperative"]
    min_seats: int
    max_seats: int
    section: type
    policies: tuple[PolicyDef, ...]
    columns: tuple[Column, ...]
    package: str = ""
    n_weights: int = 8
    rules_doc: str = "RULES.md"
    catalogue: tuple[MetricDef, ...] = ()
    headline: tuple[str, ...] = ()
    sweep_headline: tuple[str, ...] = ()
    length_unit: str = "player turns"
    seat_note: str = "Seats are numbered from 0 in turn order; seat 0 plays first."
    seat_axis: str = "seat in turn order (seat 0 plays first)"
    calibration_note: str = ""
    seat_traits: Callable[[Any], list[str] | None] | None = None
    verdict_notes: Callable[[Any, list], list[str]] | None = None
    failure_metrics: tuple[str, ...] = ()
    rounds_metric: str | None = None
    progress_unit: str = "progress points"
    duplicates: tuple[str, ...] = ()
    compile_seconds: float = 0.0
    speed_target: SpeedTarget | None = None
    yardstick: str | None = None
    overrides: Mapping[str, Any] = field(default_factory=dict)

    def hook(self, name: str) -> Any:
        """Hook ``name`` of :data:`HOOKS` (``"play_batch"``, ``"GameState"`` ...), imported
        on first use; an ``overrides`` entry under the attribute or the function name wins."""
        module, attr = HOOKS[name]
        for key in (name, attr):
            if key in self.overrides:
                return self.overrides[key]
        return getattr(importlib.import_module(f"{self.package}.{module}"), attr)

    @property
    def compile(self) -> Callable[[Any], Any]:
        """``spec.compile_spec(cfg) -> spec``; raises :class:`sim.errors.ConfigError`."""
        return self.hook("compile")

    @property
    def play_batch(self) -> Callable[..., None]:
        """``hooks.play_batch``: the numba kernel of the module docstring (the engine's loop)."""
        return self.hook("play_batch")

    @property
    def trace(self) -> Callable[..., TraceResult]:
        """``trace.trace(run, game_index) -> TraceResult`` (``sim replay``)."""
        return self.hook("trace")

    @property
    def check_playout(self) -> Callable[..., int]:
        """``hooks.check_playout(run, game_index) -> int``: game ``game_index`` played exactly
        as ``play_batch`` plays it, with the invariants checked after every step; 0, or the
        code of the first violated invariant (``layout.V_*``)."""
        return self.hook("check_playout")

    @property
    def progress_trace(self) -> Callable[..., Any]:
        """``hooks.run_progress(run, game_index) -> int32[R, max(S, 2)]``: the tension records
        of a game as the batch plays it (:mod:`sim.games.tension`): record k = every seat's
        progress at the end of round k + 1 (cooperative: danger, final-count flag)."""
        return self.hook("progress_trace")

    @property
    def tally_spec(self) -> Callable[[Any], list]:
        """``metrics.tally_spec(cfg) -> list[Hist | Moments]``: the joint histograms and moment
        sums (:mod:`sim.tally`) the game's ``metrics`` and ``plots`` read; folded chunk by
        chunk, so a run of any size is summarised in flat memory."""
        return self.hook("tally_spec")

    @property
    def metrics(self) -> Callable[..., list[dict]]:
        """``metrics.metrics(tally, cfg) -> list[dict]``: game-specific records, computed from
        the :class:`sim.tally.Tally` only (a games frame is tallied first)."""
        return self.hook("metrics")

    @property
    def plots(self) -> Callable[..., list[tuple[str, str]]]:
        """``metrics.plots(tally, records, folder) -> [(title, file name)]``: from the tally
        and the records only."""
        return self.hook("plots")

    @property
    def per_game(self) -> Callable[..., dict]:
        """``metrics.per_game(df, cfg) -> {label: (num, den)}``: per-game float arrays [games]
        of the ``headline`` metrics (labels as ``sim.records.metric_label`` writes them), for
        paired checks (:mod:`sim.check.paired`)."""
        return self.hook("per_game")

    @property
    def GameState(self) -> type[GameStateBase]:  # noqa: N802  (a class)
        """``state.GameState``, the scenario API over one position."""
        return self.hook("GameState")

    def yardstick_module(self) -> Any:
        """The game's C yardstick module (``available()``, ``measure()``), or None."""
        if self.yardstick is None:
            return None
        return importlib.import_module(f"{self.package}.{self.yardstick}")

    def policy(self, name: str) -> PolicyDef:
        """The policy called ``name``; raises KeyError."""
        for p in self.policies:
            if p.name == name:
                return p
        raise KeyError(name)

    @property
    def result_columns(self) -> tuple[Column, ...]:
        """Every column of a result row: the game's ``columns``, then the engine's tension
        columns of its mode (:data:`TENSION_COLUMNS`)."""
        return tuple(self.columns) + TENSION_COLUMNS[self.mode]

    def column_names(self, n_seats: int) -> list[str]:
        """Result matrix column names for ``n_seats`` seats, in matrix order (the game's
        columns, then the engine's tension columns)."""
        return expand_columns(self.result_columns, n_seats)


def _defines(path: Path, name: str) -> bool:
    """True when the module at ``path`` binds ``name`` at its top level (a function, class,
    assignment or import), read statically: nothing is imported, nothing compiled. A line
    ``def name(``, ``class name`` or ``name =`` at the margin answers at once; otherwise the
    module is parsed (``ast``), which also finds imported and unpacked names."""
    text = path.read_text(encoding="utf-8")
    if re.search(rf"^(?:(?:async\s+)?def\s+{name}\s*\(|class\s+{name}\b|{name}\s*(?::[^=\n]*)?=(?!=))", text, re.M):
        return True
    for node in ast.parse(text).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name:
            return True
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(n, ast.Name) and n.id == name for t in targets for n in ast.walk(t)):
                return True
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            if any((a.asname or a.name).split(".")[0] == name for a in node.names):
                return True
    return False


def missing_hooks(gdef: GameDef) -> list[str]:
    """What ``gdef`` lacks of the contract, one line each naming the hook and where it was
    looked for (empty when complete): every hook of :data:`HOOKS` not in ``overrides`` must be
    defined at the top level of its module in ``gdef.package``, and the ``yardstick`` module,
    when declared, must define :data:`YARDSTICK_FUNCTIONS`. Read statically (``ast``): nothing
    is imported, so the registry checks a game when it registers without loading numba."""
    wanted: list[tuple[str, str, str]] = [(hook, mod, attr) for hook, (mod, attr) in HOOKS.items()
                                          if hook not in gdef.overrides and attr not in gdef.overrides]
    if gdef.yardstick is not None:
        wanted += [(f"yardstick.{fn}", gdef.yardstick, fn) for fn in YARDSTICK_FUNCTIONS]
    if not wanted:
        return []
    spec = importlib.util.find_spec(gdef.package) if gdef.package else None
    if spec is None or not spec.submodule_search_locations:
        return [f"{hook}: no package {gdef.package!r} to load it from" for hook, _m, _a in wanted]
    folder = Path(list(spec.submodule_search_locations)[0])
    out: list[str] = []
    for hook, mod, attr in wanted:
        f = folder / f"{mod}.py"
        if not f.is_file():
            f = folder / mod / "__init__.py"
        if not f.is_file():
            out.append(f"{hook}: {gdef.package}.{mod} does not exist")
        elif not _defines(f, attr):
            out.append(f"{hook}: {gdef.package}.{mod} defines no {attr}")
    return out


def check_hooks(gdef: GameDef) -> None:
    """Raise ValueError naming the game and every hook :func:`missing_hooks` finds missing."""
    missing = missing_hooks(gdef)
    if missing:
        raise ValueError(f"game {gdef.name!r} does not meet the contract (sim/games/base.py HOOKS): "
                         + "; ".join(missing))


@dataclass(frozen=True)
class Rig:
    """Chance fixed by a scenario test (the kernel's rigging hook, see ``sim.games.engine``).

    ``deck``: the draw pile in draw order (first = drawn first), in the game's own card ids
    (a game documents which pile it rigs); ``dice``: die faces in the order they are rolled.
    ``None`` leaves that part to the chance stream. A game that has no deck or no dice
    raises ValueError when asked to rig it.
    """

    deck: Sequence[int] | None = None
    dice: Sequence[int] | None = None


class GameStateBase(abc.ABC):
    """The scenario side of the contract: one position of one game, driven by the *same*
    ``@njit`` rule functions the kernel uses (a facade never re-implements a rule).

    Every game's ``state.GameState`` offers at least these methods, with these names; the
    contract test drives every registered game through them. An action is a tuple of ints in
    the kernel's own action encoding (documented in the game's ``layout.py``).
    """

    @classmethod
    def from_run(cls, run: Run, game_index: int = 0, rig: Rig | None = None) -> GameStateBase:
        """The position at the start of game ``game_index`` of ``run`` (set up exactly as
        ``play_batch`` sets it up, chance optionally rigged): :meth:`_start` on a new object.
        Raises ValueError for a rig the game cannot honour."""
        gs = cls.__new__(cls)
        gs._start(run, game_index, rig)
        return gs

    def _start(self, run: Run, game_index: int, rig: Rig | None) -> None:
        """Set this object up as game ``game_index`` of ``run`` (what the default
        :meth:`from_run` and a game's own convenience constructor call; documents what
        ``rig.deck`` rigs). A game implements this or overrides :meth:`from_run`."""
        raise NotImplementedError(f"{type(self).__name__} implements neither _start nor from_run")

    @abc.abstractmethod
    def legal_actions(self) -> list[tuple[int, ...]]:
        """The actions the player to move (the plane to act, ...) may take now."""

    @abc.abstractmethod
    def apply(self, action: Sequence[int]) -> None:
        """Apply one action; raises ValueError when it is not legal here."""

    @abc.abstractmethod
    def end_turn(self) -> None:
        """End the current turn (competitive games) or round (simultaneous games) with the
        automatic steps the rulebook runs then (draws, automatic moves, maintenance ...)."""

    @property
    @abc.abstractmethod
    def over(self) -> bool:
        """True when the game has ended (a winner, a team result or the turn cap)."""

    @abc.abstractmethod
    def snapshot(self) -> dict[str, Any]:
        """The position read back as plain Python values (for assertions and messages)."""

    @abc.abstractmethod
    def dealt(self) -> dict[str, Any]:
        """What chance dealt at set-up (deck order, hands, dice, weather plan ...), as plain
        Python values: the same for every policy on the same (seed, game index), which the
        common-random-numbers test asserts."""

    @abc.abstractmethod
    def invariants(self) -> int:
        """0, or the code of the first violated invariant (the kernel's check_invariants)."""
