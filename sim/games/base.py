"""The game contract: what every game package offers so that the runner, CLI, statistics
and reports never special-case a game. The recipe for adding one is ``docs/adding-a-game.md``.

A game lives in ``sim/games/<name>/`` with one fixed file list (``__init__.py``, ``RULES.md``,
``data.py``, ``config.py``, ``layout.py``, ``spec.py``, ``rules.py``, ``policies.py``,
``play.py``, ``hooks.py``, ``trace.py``, ``state.py``, ``metrics.py``; ``sim/games/dice_race`` is
the template a new game copies). Its ``__init__.py`` holds only
``GAME = GameDef(...)``; the kernels are loaded by module and function *name* when first used
(:class:`GameDef` properties), so ``sim --help``, ``sim games`` and ``sim policies`` never
import numba, and every game names the same concept the same way:

=====================  =========================================================================
``GameDef`` attribute  loaded from ``sim.games.<name>.``
=====================  =========================================================================
``compile``            ``spec.compile_spec(cfg) -> spec`` (tuple of numpy arrays; raises ConfigError)
``play_batch``         ``hooks.play_batch`` (the numba kernel below, the engine's loop bound to the
                       game's hooks: :mod:`sim.games.loop`)
``trace``              ``trace.trace(run, game_index) -> TraceResult``
``check_playout``      ``hooks.check_playout(run, game_index) -> int`` (0 or an invariant code)
``tally_spec``         ``metrics.tally_spec(cfg) -> list[Hist | Moments]`` (what to tally, sim.tally)
``metrics``            ``metrics.metrics(tally, cfg) -> list[dict]`` (records from the Tally only)
``plots``              ``metrics.plots(tally, records, folder) -> list[(title, file name)]``
``GameState``          ``state.GameState`` (a :class:`GameStateBase`)
=====================  =========================================================================

The numba kernel::

    play_batch(spec, entry_policy, entry_weights, perms, seed, first_index, count, out)

* ``spec``: whatever ``compile_spec`` returned (a tuple of numpy arrays, numba-friendly).
* ``entry_policy``: int64[E], policy id of each seat entry of the config (``[[seats]]``).
* ``entry_weights``: float64[E, W], weight vector of each entry (W = ``GameDef.n_weights +
  LOOKAHEAD_W``), in the order of the policy's ``weights`` dict (that order *is* the kernel's
  index order). For a look-ahead policy (``PolicyDef.base`` set, e.g. ``rollout``) the leading
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
  with per-seat columns expanded to ``<name>_s<i>`` for i < S (offsets: :func:`column_offsets`).

Every game draws from its own streams seeded by ``sim.rng.seed_streams(rng, seed, g)``.

Common result columns (the generic metrics read them):

* all games: ``turns`` (player turns, or rounds for simultaneous games), ``stalled``
  (1 when the turn cap ended the game), ``reshuffles``, ``starved_draws``;
* ``mode == "competitive"``: ``winner`` (seat, -1 when none) and ``rank`` per seat
  (1 = first to finish, 0 = not ranked because the game stalled);
* ``mode == "cooperative"``: ``team_win`` (0/1).
"""

from __future__ import annotations

import abc
import importlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Literal, Mapping, Sequence

if TYPE_CHECKING:  # pragma: no cover
    from sim.compile import CompiledRun


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

    @property
    def lookahead(self) -> bool:
        """True for a look-ahead policy (one that simulates with a base policy)."""
        return self.base is not None


LOOKAHEAD_W = 4
"""Trailing weight slots of every entry: the base policy id, then up to three look-ahead
weights (see the module docstring)."""


@dataclass(frozen=True)
class TraceResult:
    """What ``trace`` returns: the rendered log and the game's result row (name -> value)."""

    lines: list[str]
    row: dict[str, int]


@dataclass(frozen=True)
class GameDef:
    """Everything the framework needs from one game (see the module docstring for the
    functions it loads by name from ``package``).

    ``version`` is the rules version: bump it whenever a rule, a default or a policy changes
    what a seeded game plays; it is written into baselines, goldens and the manifest.
    ``overrides`` replaces loaded functions by name (test doubles only).
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
    overrides: Mapping[str, Any] = field(default_factory=dict)

    def _load(self, module: str, attr: str) -> Any:
        if attr in self.overrides:
            return self.overrides[attr]
        return getattr(importlib.import_module(f"{self.package}.{module}"), attr)

    @property
    def compile(self) -> Callable[[Any], Any]:
        """``spec.compile_spec(cfg) -> spec``; raises :class:`sim.errors.ConfigError`."""
        return self._load("spec", "compile_spec")

    @property
    def play_batch(self) -> Callable[..., None]:
        """``play.play_batch``: the numba kernel of the module docstring."""
        return self._load("hooks", "play_batch")

    @property
    def trace(self) -> Callable[..., TraceResult]:
        """``trace.trace(run, game_index) -> TraceResult`` (``sim replay``)."""
        return self._load("trace", "trace")

    @property
    def check_playout(self) -> Callable[..., int]:
        """``trace.check_playout(run, game_index) -> int``: game ``game_index`` played exactly
        as ``play_batch`` plays it, with the invariants checked after every step; 0, or the
        code of the first violated invariant (``layout.V_*``)."""
        return self._load("hooks", "check_playout")

    @property
    def tally_spec(self) -> Callable[[Any], list]:
        """``metrics.tally_spec(cfg) -> list[Hist | Moments]``: the joint histograms and moment
        sums (:mod:`sim.tally`) the game's ``metrics`` and ``plots`` read; folded chunk by
        chunk, so a run of any size is summarised in flat memory."""
        return self._load("metrics", "tally_spec")

    @property
    def metrics(self) -> Callable[..., list[dict]]:
        """``metrics.metrics(tally, cfg) -> list[dict]``: game-specific records, computed from
        the :class:`sim.tally.Tally` only (a games frame is tallied first)."""
        return self._load("metrics", "metrics")

    @property
    def plots(self) -> Callable[..., list[tuple[str, str]]]:
        """``metrics.plots(tally, records, folder) -> [(title, file name)]``: from the tally
        and the records only."""
        return self._load("metrics", "plots")

    @property
    def GameState(self) -> type[GameStateBase]:  # noqa: N802  (a class)
        """``state.GameState``, the scenario API over one position."""
        return self._load("state", "GameState")

    def policy(self, name: str) -> PolicyDef:
        """The policy called ``name``; raises KeyError."""
        for p in self.policies:
            if p.name == name:
                return p
        raise KeyError(name)

    def column_names(self, n_seats: int) -> list[str]:
        """Result matrix column names for ``n_seats`` seats, in matrix order."""
        return expand_columns(self.columns, n_seats)


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
    def from_run(cls, run: CompiledRun, game_index: int = 0, rig: Rig | None = None) -> GameStateBase:
        """The position at the start of game ``game_index`` of ``run`` (set up exactly as
        ``play_batch`` sets it up, chance optionally rigged): :meth:`_start` on a new object.
        Raises ValueError for a rig the game cannot honour."""
        gs = cls.__new__(cls)
        gs._start(run, game_index, rig)
        return gs

    def _start(self, run: CompiledRun, game_index: int, rig: Rig | None) -> None:
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
