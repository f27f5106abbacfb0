"""The scenario API of Flying Carpet: one position driven by the kernel's own ``@kernel``
rule functions (``rules``); this module only builds positions and reads them back.

Example::

    gs = GameState(seats=3, city=[])                    # an empty desert
    gs.put(0, 5, 7)                                     # seat 0's carpet to (5, 7)
    gs.set_hand(0, ["R32", "V1", "V2", "L11"])
    gs.play("R32", "dark blue")                         # up 3, then right 2 + wind
    gs.pos(0)                                           # -> (9, 10): wind 2 at row 10

Actions are the kernel's tuples ``(kind, a, b, c, land)`` (``layout`` docstring).
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

import sim.games.flying_carpet.layout as L
import sim.games.flying_carpet.rules as R
from sim.compile import CompiledRun, run_from_dict
from sim.games.base import GameStateBase, Rig
from sim.games.engine import event_buffer, make_rig
from sim.games.flying_carpet.data import COLOURS
from sim.games.flying_carpet.hooks import KERNELS
from sim.rng import seed_streams

CARD_KIND = {name: k for k, name in enumerate(L.CARD_KIND_NAMES)}
TOKEN = {name: i for i, name in enumerate(L.TOKEN_NAMES)}
LAND = {name: i for i, name in enumerate(L.LAND_NAMES)}


class GameState(GameStateBase):
    """One Flying Carpet position plus its compiled run (see the module docstring)."""

    def __init__(self, seats: int = 4, seed: int = 0, game_index: int = 0, rig: Rig | None = None,
                 policies: Sequence[str] | None = None, **section: Any):
        """A race of ``seats`` carpets (greedy, or ``policies``) with ``section`` overriding
        ``[flying_carpet]`` keys (``city=[]`` for the empty desert), at the start of game
        ``game_index``. Raises ConfigError for a bad section."""
        raw = {"game": "flying_carpet", "seats": list(policies or ["greedy"] * seats), "seed": seed,
               "flying_carpet": section}
        self._start(run_from_dict(raw, "<scenario>"), game_index, rig)

    # ---- the contract -------------------------------------------------------------------
    def _start(self, run: CompiledRun, game_index: int, rig: Rig | None) -> None:
        """Game ``game_index`` of ``run`` set up as ``play_batch`` sets it up (what
        :meth:`from_run` and the constructor call). ``rig.deck``: every card id in draw
        order; ``rig.dice``: die faces in roll order. Raises ValueError for a deck that is not
        every card id once."""
        self.run = run
        self.spec = run.spec
        self.p = run.spec[0]
        p = self.p
        rd, rs = make_rig(None if rig is None else rig.deck, None if rig is None else rig.dice)
        if rd.shape[0] and sorted(rd.tolist()) != list(range(int(p[L.P_NC]))):
            raise ValueError(f"Rig(deck=...) must order every card id 0..{int(p[L.P_NC]) - 1} exactly once")
        self.rig_dice = rs
        self.state = np.zeros(int(p[L.P_STATE_SIZE]), np.int32)
        self.rng = np.zeros(2, np.uint64)
        seed_streams(self.rng, np.int64(run.seed), np.int64(game_index))
        R.setup(self.state, self.spec, self.rng, rd, rs)
        self._dealt = {
            "deck": [int(c) for c in self._deck()],
            "hands": [self.hand_ids(s) for s in range(self.n_seats)],
        }
        self.ev, self.evn = event_buffer(1 << 14)
        nbig = max(int(p[L.P_MAXACT]), 1 + int(p[L.P_NPC]) * L.NCELL)
        self.acts = np.zeros((nbig, L.ACT_W), np.int32)
        self.work = np.zeros(2 * L.NCELL, np.int32)
        self.dmap = KERNELS.shared_of(self.spec)
        R.start_race(self.state, self.spec, self.ev, self.evn)

    def rows(self) -> np.ndarray:
        """The kernel's legal rows now: int32[n, ACT_W]."""
        n = int(R.legal_actions(self.state, self.spec, self.acts, self.work))
        return self.acts[:n].copy()

    def legal_actions(self) -> list[tuple[int, ...]]:
        if self.over:
            return []
        return [tuple(int(v) for v in r[: L.ACT_KEY]) for r in self.rows()]

    def apply(self, action: Sequence[int]) -> None:
        key = tuple(int(v) for v in action)
        if not self.over:
            for r in self.rows():
                if tuple(int(v) for v in r[: L.ACT_KEY]) == key:
                    R.apply_action(self.state, self.spec, r.copy(), self.rng, self.rig_dice, self.ev, self.evn)
                    return
        raise ValueError(f"action {key} is not legal here (phase {L.PHASE_NAMES[self.phase]})")

    def end_turn(self) -> None:
        """Finish the turn: a pending choice takes ``rules.default_action`` (no card played:
        drift; die choices: keep, stay, first carpet), then ``rules.end_turn``; the turn cap
        marks a stall."""
        if self.over:
            return
        for _ in range(16):
            if self.phase == L.PH_END:
                break
            i = int(R.default_action(self.state, self.spec, self.acts, self.work))
            if i < 0:
                break
            R.apply_action(self.state, self.spec, self.acts[i].copy(), self.rng, self.rig_dice, self.ev, self.evn)
        R.end_turn(self.state, self.spec, self.ev, self.evn)
        KERNELS.stop_if_capped(self.state, self.spec, self.ev, self.evn)  # the engine's cap test

    @property
    def over(self) -> bool:
        return bool(self.state[L.H_DONE])

    def snapshot(self) -> dict[str, Any]:
        S = self.n_seats
        return {
            "turn": int(self.state[L.H_TURN]), "played": int(self.state[L.H_PLAYED]), "seat": self.cur,
            "phase": L.PHASE_NAMES[self.phase],
            "carpets": [self.pos(s) for s in range(S)], "tokens": [self.tokens(s) for s in range(S)],
            "skip": [self.skip(s) for s in range(S)], "ranks": [self.rank(s) for s in range(S)],
            "hands": [self.hand(s) for s in range(S)], "stack": int(self.state[L.H_DECK_N]),
            "discard": int(self.state[L.H_DISC_N]), "supply": int(self.state[L.H_SUPPLY]),
            "anchors": [self.anchor(i) for i in range(int(self.p[L.P_NPC]))],
            "winner": int(self.state[L.H_WINNER]), "done": self.over, "stalled": bool(self.state[L.H_STALL]),
        }

    def dealt(self) -> dict[str, Any]:
        return {k: (list(v) if not isinstance(v, list) else [list(x) if isinstance(x, list) else x for x in v])
                for k, v in self._dealt.items()}

    def invariants(self) -> int:
        return int(R.check_invariants(self.state, self.spec))

    # ---- reading ------------------------------------------------------------------------
    @property
    def n_seats(self) -> int:
        return int(self.p[L.P_S])

    @property
    def cur(self) -> int:
        return int(self.state[L.H_CUR])

    @property
    def phase(self) -> int:
        return int(self.state[L.H_PHASE])

    def _deck(self) -> np.ndarray:
        d0 = int(self.p[L.P_OFF_DECK])
        return self.state[d0: d0 + int(self.state[L.H_DECK_N])].copy()

    def pos(self, s: int) -> tuple[int, int]:
        c = int(self.state[int(self.p[L.P_OFF_POS]) + s])
        return c % L.W, c // L.W

    def tokens(self, s: int) -> int:
        return int(self.state[int(self.p[L.P_OFF_TOK]) + s])

    def skip(self, s: int) -> int:
        return int(self.state[int(self.p[L.P_OFF_SKIP]) + s])

    def rank(self, s: int) -> int:
        return int(self.state[int(self.p[L.P_OFF_RANK]) + s])

    def stat(self, s: int, st: int) -> int:
        return int(self.state[int(self.p[L.P_OFF_STATS]) + s * L.NSTAT + st])

    def hand_ids(self, s: int) -> list[int]:
        HAND = int(self.p[L.P_HAND])
        h0 = int(self.p[L.P_OFF_HAND]) + s * HAND
        return [int(c) for c in self.state[h0: h0 + HAND]]

    def hand(self, s: int) -> list[str]:
        return [L.CARD_KIND_NAMES[int(self.spec[5][c])] if c >= 0 else "-" for c in self.hand_ids(s)]

    def anchor(self, piece: int) -> tuple[int, int]:
        c = int(self.state[int(self.p[L.P_OFF_ANCH]) + piece])
        return c % L.W, c // L.W

    def scenery(self, x: int, y: int) -> int:
        """0 free, else 1 + the piece index covering (x, y)."""
        return int(self.state[int(self.p[L.P_OFF_SCEN]) + y * L.W + x])

    def events(self) -> np.ndarray:
        """Events so far: int32[E, 8] rows (turn, seat, code, a, b, c, d, e)."""
        return self.ev[: int(self.evn[0])].copy()

    def ends(self, kind: str, colour: str | None = None, token: str = "none") -> set:
        """End cells (x, y), or "blown", of the legal rows playing card kind ``kind`` (or
        "token" / "drift") with option ``colour`` and ``token``."""
        out = set()
        for r in self.rows():
            if not self._match(r, kind, colour, token, None):
                continue
            e = int(r[L.A_END])
            out.add("blown" if e == L.END_BLOWN else (e % L.W, e // L.W))
        return out

    def _match(self, r, kind, colour, token, land) -> bool:
        k = int(r[L.A_KIND])
        if kind == "token":
            ok = k == L.K_TOKEN and int(r[L.A_C]) == TOKEN[token]
        elif kind == "drift":
            ok = k == L.K_DRIFT and (colour is None or int(r[L.A_A]) == int(colour))
        else:
            ok = (k == L.K_CARD and int(r[L.A_EXTRA]) == CARD_KIND[kind] and int(r[L.A_C]) == TOKEN[token]
                  and (colour is None or int(r[L.A_B]) == COLOURS.index(colour)))
        return ok and (land is None or int(r[L.A_LAND]) == LAND[land])

    # ---- building a position --------------------------------------------------------------
    def put(self, s: int, x: int, y: int) -> None:
        """Put seat ``s``'s carpet on (x, y) and, when it is the seat to move, restart its turn."""
        self.state[int(self.p[L.P_OFF_POS]) + s] = y * L.W + x
        if s == self.cur:
            self.state[L.H_MOVED_FROM] = y * L.W + x

    def set_tokens(self, s: int, n: int) -> None:
        """Seat ``s`` holds ``n`` tokens (the difference goes to or comes from the supply)."""
        k = int(self.p[L.P_OFF_TOK]) + s
        self.state[L.H_SUPPLY] -= n - int(self.state[k])
        self.state[k] = n

    def set_skip(self, s: int, n: int) -> None:
        self.state[int(self.p[L.P_OFF_SKIP]) + s] = n
        if s == self.cur and self.phase in (L.PH_MOVE, L.PH_SKIP):
            self.state[L.H_PHASE] = L.PH_SKIP if n > 0 else L.PH_MOVE

    def set_current(self, s: int) -> None:
        """Seat ``s`` begins a turn now (``rules.begin_turn``)."""
        self.state[L.H_TURN] -= 1
        R.begin_turn(self.state, self.p, s, self.ev, self.evn)

    def _take_from_deck(self, kind: int) -> int:
        d0 = int(self.p[L.P_OFF_DECK])
        n = int(self.state[L.H_DECK_N])
        for i in range(n - 1, -1, -1):
            cid = int(self.state[d0 + i])
            if int(self.spec[5][cid]) == kind:
                self.state[d0 + i: d0 + n - 1] = self.state[d0 + i + 1: d0 + n].copy()
                self.state[L.H_DECK_N] = n - 1
                return cid
        raise ValueError(f"no {L.CARD_KIND_NAMES[kind]} card left in the stack")

    def _to_deck_bottom(self, cid: int) -> None:
        d0 = int(self.p[L.P_OFF_DECK])
        n = int(self.state[L.H_DECK_N])
        self.state[d0 + 1: d0 + n + 1] = self.state[d0: d0 + n].copy()
        self.state[d0] = cid
        self.state[L.H_DECK_N] = n + 1

    def set_hand(self, s: int, kinds: Sequence[str]) -> None:
        """Give seat ``s`` exactly the cards of ``kinds`` (its old cards go under the stack;
        the new ones come out of it: cards are conserved)."""
        HAND = int(self.p[L.P_HAND])
        if len(kinds) != HAND:
            raise ValueError(f"a hand holds {HAND} cards")
        h0 = int(self.p[L.P_OFF_HAND]) + s * HAND
        for j in range(HAND):
            if self.state[h0 + j] >= 0:
                self._to_deck_bottom(int(self.state[h0 + j]))
        for j, name in enumerate(kinds):
            self.state[h0 + j] = self._take_from_deck(CARD_KIND[name])

    def stack_deck(self, kinds: Sequence[str]) -> None:
        """Make ``kinds`` the next cards drawn, first name first."""
        ids = [self._take_from_deck(CARD_KIND[k]) for k in kinds]
        d0 = int(self.p[L.P_OFF_DECK])
        n = int(self.state[L.H_DECK_N])
        for cid in reversed(ids):
            self.state[d0 + n] = cid
            n += 1
        self.state[L.H_DECK_N] = n

    def move_piece(self, piece: int, x: int, y: int) -> None:
        """Move piece ``piece`` to anchor (x, y) (a builder: the caller keeps the board legal)."""
        old = int(self.state[int(self.p[L.P_OFF_ANCH]) + piece])
        R.place_piece(self.state, self.spec, piece, old, 0)
        R.place_piece(self.state, self.spec, piece, y * L.W + x, piece + 1)
        self.state[int(self.p[L.P_OFF_ANCH]) + piece] = y * L.W + x

    # ---- playing ---------------------------------------------------------------------------
    def play(self, kind: str, colour: str | None = None, token: str = "none", land: str | None = None,
             exchange: int | None = None) -> None:
        """Play the legal row matching card kind ``kind`` (or "token" with ``token`` its
        direction, or "drift" with ``exchange`` a hand slot), option ``colour``, ``token`` and
        landing choice ``land`` ("block" / "force"); raises ValueError when none is legal."""
        col = exchange if kind == "drift" else colour
        if kind == "drift" and exchange is None:
            col = -1
        for r in self.rows():
            if self._match(r, kind, col, token, land):
                R.apply_action(self.state, self.spec, r.copy(), self.rng, self.rig_dice, self.ev, self.evn)
                return
        raise ValueError(f"no legal row for {kind} {colour} token={token} land={land}; "
                         f"legal: {self.legal_actions()}")

    def choose(self, kind: int, a: int = -1) -> None:
        """Apply the legal die-decision row of ``kind`` (K_CLOUD / K_KEEP / K_SWAP / K_HOP)
        with first argument ``a``."""
        for r in self.rows():
            if int(r[L.A_KIND]) == kind and (a < 0 or int(r[L.A_A]) == a):
                R.apply_action(self.state, self.spec, r.copy(), self.rng, self.rig_dice, self.ev, self.evn)
                return
        raise ValueError(f"no legal row of kind {kind} with a={a}")
