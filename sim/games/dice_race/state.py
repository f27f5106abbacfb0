"""``GameState``: one Dice Race position for scenario tests, driven by the kernel's own rule
functions (``rules.py``) and the engine's cap test (``hooks.KERNELS.stop_if_capped``): no rule
is re-implemented here. It only adds ways to build a position (tokens, dice) and to read it.

Actions are the tuples ``(kind, steps)`` of ``layout.py`` (``K_DIE1``, ``K_DIE2``, ``K_SUM``,
``K_PASS``).

Example::

    gs = GameState(seats=2, rig=Rig(dice=[3, 5]))   # seat 0 rolls 3 and 5
    gs.legal_actions()        # -> [(0, 3), (1, 5), (2, 8)]
    gs.move("sum")            # token 0 to space 8; then end_turn(): seat 1 rolls
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

import sim.games.dice_race.layout as L
import sim.games.dice_race.rules as R
from sim.compile import CompiledRun, run_from_dict
from sim.games.base import GameStateBase, Rig, expand_columns
from sim.games.dice_race.hooks import KERNELS, rollout_choice
from sim.games.dice_race.play import write_row
from sim.games.dice_race.policies import select
from sim.games.engine import event_buffer, make_rig, seat_policies
from sim.rng import CHANCE, randint, seed_streams

KIND = {name: k for k, name in enumerate(L.KIND_NAMES)}
DEALT_TURNS = 12
"""``dealt()`` lists the dice of this many turns."""


class GameState(GameStateBase):
    """One Dice Race position plus its compiled run (see the module docstring)."""

    def __init__(self, seats: int = 2, seed: int = 0, game_index: int = 0, rig: Rig | None = None,
                 policies: Sequence[str] | None = None, **section: Any):
        """Game ``game_index`` of a race of ``seats`` tokens (``policies``, default greedy) on
        ``seed``, with ``section`` overriding ``[dice_race]`` keys (the constructor convention of
        every game; ``from_run`` starts from a compiled run). Raises ConfigError for a bad
        section, ValueError for a rig the game cannot honour."""
        raw = {"game": "dice_race", "seats": list(policies or ["greedy"] * seats), "seed": seed,
               "dice_race": section}
        self._start(run_from_dict(raw, "<scenario>"), game_index, rig)

    def _start(self, run: CompiledRun, game_index: int, rig: Rig | None) -> None:
        """The position at the start of game ``game_index`` of ``run``, set up as
        ``play_batch`` sets it up (its streams, seat 0 has rolled). ``rig.dice``: the faces
        rolled, in order (two a turn, seat 0's first), then the chance stream. Raises
        ValueError for ``rig.deck`` (no deck) or a face outside 1 .. sides."""
        self.run = run
        self.spec = run.spec
        self.p = run.spec[0]
        if rig is not None and rig.deck is not None:
            raise ValueError("Dice Race has no deck to rig")
        faces = None if rig is None else rig.dice
        if faces is not None and any(not 1 <= int(f) <= int(self.p[L.P_SIDES]) for f in faces):
            raise ValueError(f"Rig.dice faces must be 1 .. {int(self.p[L.P_SIDES])}")
        _, self.rig_dice = make_rig(dice=faces)
        self.state = np.zeros(int(self.p[L.P_SIZE]), np.int32)
        self.pids, self.W = seat_policies(run.entry_policy, run.entry_weights, run.perms, np.int64(game_index))
        self.rng = np.zeros(2, np.uint64)
        seed_streams(self.rng, np.int64(run.seed), np.int64(game_index))
        self._rng0 = self.rng.copy()
        self.ev, self.evn = event_buffer(1 << 14)
        R.setup(self.state, self.spec, self.rng, self.rig_dice, self.ev, self.evn)
        self.acts = np.zeros((L.MAX_ACTS, L.ACT_W), np.int32)
        self._moved = False

    # ---- the contract -------------------------------------------------------------------
    def rows(self) -> np.ndarray:
        """The kernel's allowed rows now: int32[n, ACT_W] (kind, steps, dest)."""
        n = int(R.legal_moves(self.state, self.spec, self.acts))
        return self.acts[:n].copy()

    def legal_actions(self) -> list[tuple[int, ...]]:
        """The seat to move's allowed moves ``(kind, steps)``; none once it moved or the race
        is over."""
        if self.over or self._moved:
            return []
        return [tuple(int(v) for v in r[: L.ACT_KEY]) for r in self.rows()]

    def apply(self, action: Sequence[int]) -> None:
        """Make one allowed move (``rules.apply_move``); then ``end_turn``. Raises ValueError
        when it is not allowed here."""
        key = tuple(int(v) for v in action)
        if not self.over and not self._moved:
            for r in self.rows():
                if tuple(int(v) for v in r[: L.ACT_KEY]) == key:
                    R.apply_move(self.state, self.spec, r.copy(), self.ev, self.evn)
                    self._moved = True
                    return
        raise ValueError(f"action {key} is not allowed here; allowed: {self.legal_actions()}")

    def end_turn(self) -> None:
        """The end of the turn as the engine's loop plays it (``rules.end_turn``: the next seat
        rolls), then the turn cap (the engine's ``stop_if_capped``). A seat that has not moved
        makes its first allowed move first. The turn that finished the race still ends here
        (its count goes up, as in the engine's loop); after that, raises ValueError."""
        if not self._moved:
            if self.over:
                raise ValueError("the race is over")
            self.apply(self.legal_actions()[0])
        R.end_turn(self.state, self.spec, self.rng, self.rig_dice, self.ev, self.evn)
        self._moved = False
        KERNELS.stop_if_capped(self.state, self.spec, self.ev, self.evn)

    @property
    def over(self) -> bool:
        return bool(self.state[L.H_DONE])

    def snapshot(self) -> dict[str, Any]:
        """The position as plain values: turn, seat to move, its dice, every token's space,
        ranks, winner, stalled, over, and the per-seat counters."""
        S = self.n_seats
        return {
            "turn": int(self.state[L.H_TURN]), "seat": self.cur, "dice": self.dice,
            "positions": [self.pos(s) for s in range(S)], "ranks": [self.rank(s) for s in range(S)],
            "winner": int(self.state[L.H_WINNER]), "stalled": bool(self.state[L.H_STALL]), "over": self.over,
            **{name: [self.stat(s, k) for s in range(S)] for k, name in enumerate(L.STAT_NAMES)},
        }

    def dealt(self) -> dict[str, Any]:
        """What chance deals this game: the dice of the first DEALT_TURNS turns, in turn order.
        Every roll draws two faces from the CHANCE stream and nothing else does, so the dice
        of turn t are fixed by (seed, game index) before anyone moves: the same for every
        policy (the rollout's simulations draw from the POLICY stream). Read from a copy of
        the streams as set up (a scripted ``Rig.dice`` is not included)."""
        rng = self._rng0.copy()
        sides = int(self.p[L.P_SIDES])
        faces = [int(randint(rng, CHANCE, sides)) + 1 for _ in range(2 * DEALT_TURNS)]
        return {"dice": [faces[2 * i: 2 * i + 2] for i in range(DEALT_TURNS)]}

    def invariants(self) -> int:
        return int(R.check_invariants(self.state, self.spec))

    def choose(self) -> tuple[int, ...]:
        """The move the seat to move's policy (this run's seat) makes here, chosen as the
        engine's loop chooses it (``policies.select``, or ``hooks.rollout_choice`` for a
        look-ahead seat), drawing from this game's own POLICY stream as the loop does (so a
        game driven by ``choose`` / ``apply`` / ``end_turn`` is the batch's game). Not applied.
        Raises ValueError when the seat has moved or the race is over."""
        if self.over or self._moved:
            raise ValueError("no decision pending")
        s = self.cur
        n = int(R.legal_moves(self.state, self.spec, self.acts))
        if int(self.pids[s]) == L.POL_ROLLOUT:
            i = int(rollout_choice(self.state, self.spec, self.W[s], self.acts, n, self.rng))
        else:
            i = int(select(self.state, self.spec, self.pids[s], self.W[s], self.acts, n, self.rng))
        return tuple(int(v) for v in self.acts[i, : L.ACT_KEY])

    def row(self) -> list[int]:
        """The game's own result columns (``layout.COLUMNS``) of the position now, as
        ``play_batch`` writes them; the engine's tension columns that follow them in a batch row
        need the loop's round records (``GameDef.progress_trace``), which a scenario does not keep."""
        out = np.zeros(len(expand_columns(L.COLUMNS, self.n_seats)), np.int32)
        write_row(self.state, self.spec, out)
        return out.tolist()

    # ---- reading ------------------------------------------------------------------------
    @property
    def n_seats(self) -> int:
        return int(self.p[L.P_S])

    @property
    def cur(self) -> int:
        return int(self.state[L.H_CUR])

    @property
    def dice(self) -> tuple[int, int]:
        return int(self.state[L.H_DIE]), int(self.state[L.H_DIE + 1])

    def pos(self, s: int) -> int:
        return int(self.state[int(self.p[L.P_OFF_POS]) + s])

    def rank(self, s: int) -> int:
        return int(self.state[int(self.p[L.P_OFF_RANK]) + s])

    def stat(self, s: int, k: int) -> int:
        return int(self.state[int(R.stat_at(self.p, s, k))])

    def events(self) -> np.ndarray:
        """Events so far: int32[E, 8] rows (turn, seat, code, a, b, c, d, e)."""
        return self.ev[: int(self.evn[0])].copy()

    # ---- building a position ------------------------------------------------------------
    def put(self, s: int, space: int) -> None:
        """Put seat ``s``'s token on ``space`` (0 .. track - 1)."""
        if not 0 <= space < int(self.p[L.P_TRACK]):
            raise ValueError(f"space must be 0 .. {int(self.p[L.P_TRACK]) - 1}")
        self.state[int(self.p[L.P_OFF_POS]) + s] = space

    def set_dice(self, d1: int, d2: int) -> None:
        """Make the seat to move's dice show ``d1`` and ``d2`` (as if it had rolled them)."""
        self.state[L.H_DIE] = d1
        self.state[L.H_DIE + 1] = d2

    def move(self, kind: str) -> None:
        """Make the allowed move of kind ``kind`` ("die 1", "die 2", "sum", "pass")."""
        for r in self.rows():
            if int(r[L.A_KIND]) == KIND[kind]:
                self.apply(tuple(int(v) for v in r[: L.ACT_KEY]))
                return
        raise ValueError(f"no {kind!r} move is allowed; allowed: {self.legal_actions()}")
