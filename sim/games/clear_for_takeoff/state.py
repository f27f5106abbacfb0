"""``GameState``: one Clear for Takeoff position for scenario tests, driven by the kernel's
own ``@kernel`` rule functions (``rules.py``) and the playout's turn head and tail
(``play.begin_turn`` / ``play.end_turn``): no rule is re-implemented here. It only adds ways
to build a position (hands, deck order, aircraft positions, weather) and to read it back.

Actions are the tuples of ``layout.py``: a play ``(kind, gid, arg, lc)`` as the kernel lists
it, ``(K_EXCHANGE, c1, .., cm)`` or ``(K_PASS,)``.

Example::

    gs = GameState(seats=2)                  # or GameState.from_run(run, game_index, Rig(...))
    gs.set_hand(0, {"A": 3, "LC": 1})
    gs.put(0, 3, gs.slot_a(0))               # seat 0's wide-body on stand 0's A place
    gs.play("advance", gs.gid(0, 3))         # needs 3 B cards: raises ValueError
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Any, Sequence

import numpy as np

import sim.games.clear_for_takeoff.layout as L
import sim.games.clear_for_takeoff.rules as R
from sim.compile import CompiledRun, run_from_dict
from sim.games.base import GameStateBase, Rig
from sim.games.clear_for_takeoff.hooks import KERNELS, decide
from sim.games.clear_for_takeoff.play import begin_turn, end_turn, start_game
from sim.games.engine import emit, event_buffer, make_rig, seat_policies

KIND = {name: i for i, name in enumerate(L.KIND_NAMES)}
CARD = {name: i for i, name in enumerate(L.CARD_NAMES)}
EVENT_ROWS = 4096


class GameState(GameStateBase):
    """One game's compact state plus its compiled run.

    ``GameState(seats=2, seed=0, game_index=0, deck_order=None, **section)``: a run of
    ``seats`` greedy seats, ``section`` keys overriding the default ``[clear_for_takeoff]``
    table; ``deck_order`` (card names, first drawn first) puts those cards on top of the
    deck in that order, the rest below in deck order. Raises ConfigError for a bad section.
    """

    def __init__(self, seats: int = 2, seed: int = 0, game_index: int = 0, deck_order=None, **section):
        raw = {"game": "clear_for_takeoff", "seats": ["greedy"] * seats, "seed": seed,
               "clear_for_takeoff": section}
        run = run_from_dict(raw, "<scenario>")
        rig = None
        if deck_order is not None:
            rest = [int(c) for c in run.spec[1]]
            top = [CARD[c] for c in deck_order]
            for c in top:
                rest.remove(c)
            rig = Rig(deck=top + rest[::-1])
        self._start(run, game_index, rig)

    def _start(self, run: CompiledRun, game_index: int, rig: Rig | None) -> None:
        """The position at the start of game ``game_index`` of ``run``, set up as
        ``play_batch`` sets it up (its seed streams, its seats' policies). ``rig.deck``: the
        whole deck in draw order (first drawn first, card-type ids, the same cards as the
        config's deck), dealt as the shuffled deck would be. Raises ValueError for a deck
        that is not the config's, and for ``rig.dice`` (the game has no dice)."""
        self.run = run
        self.cfg = run.cfg
        self.spec = run.spec
        self.p, self.deck_cards, self.fleet = run.spec
        self.pids, self.W = seat_policies(run.entry_policy, run.entry_weights, run.perms, np.int64(game_index))
        rig_deck = np.zeros(0, np.int32)
        if rig is not None:
            if rig.dice is not None:
                raise ValueError("Clear for Takeoff has no dice to rig")
            if rig.deck is not None:
                if sorted(int(c) for c in rig.deck) != sorted(int(c) for c in self.deck_cards):
                    raise ValueError("Rig.deck must hold exactly the cards of the config's deck")
                rig_deck, _ = make_rig(deck=rig.deck)
        self.state = np.zeros(R.state_size(self.p), np.int32)
        self.rng = np.zeros(2, np.uint64)
        start_game(self.p, self.deck_cards, self.fleet, np.int64(run.seed), np.int64(game_index), rig_deck,
                   self.state, self.rng)
        off, n = int(self.p[L.P_OFF_DECK]), int(self.state[L.H_DECK_N])
        self._dealt = {
            "deck": [L.CARD_NAMES[int(c)] for c in self.state[off:off + n][::-1]],  # first drawn first
            "hands": [self.hand(s) for s in range(int(self.p[L.P_S]))],
            "weather": self.weather,
        }
        self.ev, self.evn = event_buffer(EVENT_ROWS)
        self._acted = False
        self._short = 0
        self._begin()

    def _emit(self, code: int, a: int = 0) -> None:
        emit(self.ev, self.evn, self.state[L.H_TURN], self.state[L.H_CUR], code, a, 0, 0, 0, 0)

    def _begin(self) -> None:
        """The playout's turn head (``play.begin_turn``) and its E_TURN event."""
        begin_turn(self.state, self.p)
        self._emit(L.E_TURN)

    # ---- the contract ------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        """True when the game has ended: finished (RB Welcome on board) or stalled at the cap."""
        return bool(self.state[L.H_DONE] or self.state[L.H_STALL])

    def _plays(self) -> np.ndarray:
        acts = np.zeros((R.max_actions(self.p), L.ACT_W), np.int32)
        n = R.legal_plays(self.state, self.p, self.fleet, acts)
        return acts[:n]

    def legal_actions(self) -> list[tuple[int, ...]]:
        """The current seat's legal actions (``layout`` encoding): its plays, every exchange
        of 1 to exchange-max held cards (RB Exchanging cards), or ``(K_PASS,)`` with an empty
        hand and no play; none once it has acted this turn or the game is over."""
        if self.over or self._acted:
            return []
        out = [tuple(int(v) for v in a) for a in self._plays()]
        held = [c for c in range(L.NCT) for _ in range(int(self.state[R.hand_at(self.p, self.cur, c)]))]
        mx = min(int(self.p[L.P_EXMAX]), len(held))
        for m in range(1, mx + 1):
            out.extend(sorted({(L.K_EXCHANGE, *cs) for cs in combinations(held, m)}))
        if not out:
            out.append((L.K_PASS,))
        return out

    def apply(self, action: Sequence[int]) -> int:
        """Apply one action of the current seat (one per turn, then ``end_turn``). Returns
        the cards an exchange came up short (a starved draw), else 0. Raises ValueError when
        the action is not legal here."""
        a = tuple(int(v) for v in action)
        if self.over:
            raise ValueError("the game is over")
        if self._acted:
            raise ValueError(f"seat {self.cur} has already acted this turn: end_turn() first")
        if not a:
            raise ValueError("empty action")
        if a[0] == L.K_EXCHANGE:
            disc = np.zeros(L.NCT, np.int32)
            for c, k in Counter(a[1:]).items():
                if not 0 <= c < L.NCT or self.state[R.hand_at(self.p, self.cur, c)] < k:
                    raise ValueError(f"illegal exchange {a}: seat {self.cur} holds {self.hand(self.cur)}")
                disc[c] = k
            if not 1 <= int(disc.sum()) <= int(self.p[L.P_EXMAX]):
                raise ValueError(f"an exchange is 1 to {int(self.p[L.P_EXMAX])} cards, got {int(disc.sum())}")
            short = int(R.apply_exchange(self.state, self.p, self.fleet, disc, self.rng, self.ev, self.evn))
            self._short += short
            self._acted = True
            return short
        if a[0] == L.K_PASS:
            if len(self._plays()) or R.hand_total(self.state, self.p, self.cur) > 0:
                raise ValueError("a pass is legal only with an empty hand and no play")
            self._emit(L.E_PASS)
            self._acted = True
            return 0
        for row in self._plays():
            if tuple(int(v) for v in row) == a:
                R.apply_play(self.state, self.p, self.fleet, row.copy(), self.ev, self.evn)
                self._acted = True
                return 0
        raise ValueError(f"illegal play {a}; legal: {self.legal()}")

    def end_turn(self, vip_runway: int | None = None, draw: bool = True) -> int:
        """End the current seat's turn as the playout does (``play.end_turn``: face-down draw
        back to the hand size unless ``draw`` is False, the starved-draw count, independent
        movement, finish check, next seat), then stop at the turn cap or begin the next
        turn. ``vip_runway`` (0 = 31L, 1 = 31R) overrides the policy's runway for an aircraft
        leaving VIP2. Returns the cards short in this turn (exchange and draw)."""
        if self.over:
            raise ValueError("the game is over")
        s = self.cur
        vr = L.RUNWAY_POLICY if vip_runway is None else int(vip_runway)
        short = int(end_turn(self.state, self.p, self.fleet, self.pids[s], self.W[s], self._short, vr, draw, self.rng,
                             self.ev, self.evn))
        self._short = 0
        self._acted = False
        if not self.state[L.H_DONE] and not KERNELS.stop_if_capped(self.state, self.spec, self.ev, self.evn):
            self._begin()
        return short

    def choose(self, rng: np.ndarray | None = None) -> tuple[int, ...]:
        """The action the current seat's policy (this run's seat, e.g. ``rollout``) chooses
        here, as the playout chooses it (``hooks.decide``), without applying it: a play tuple,
        ``(K_EXCHANGE, c1, ..)`` or ``(K_PASS,)``. Draws from a copy of ``rng`` (uint64[2];
        default: a copy of this game's streams), so the game's own streams do not move.
        Raises ValueError when the seat has acted or the game is over."""
        if self.over or self._acted:
            raise ValueError("no decision pending")
        s = self.cur
        acts = np.zeros((R.max_actions(self.p), L.ACT_W), np.int32)
        n = R.legal_plays(self.state, self.p, self.fleet, acts)
        disc = np.zeros(L.NCT, np.int32)
        need = np.zeros(L.NCT, np.int32)
        r = (self.rng if rng is None else np.asarray(rng, np.uint64)).copy()
        st = self.state.copy()
        c = int(decide(st, self.spec, self.pids[s], self.W[s], acts, n, disc, need, r))
        if c >= 0:
            return tuple(int(v) for v in acts[c])
        if c == L.CH_EXCHANGE:
            return (L.K_EXCHANGE, *[cc for cc in range(L.NCT) for _ in range(int(disc[cc]))])
        return (L.K_PASS,)

    def snapshot(self) -> dict[str, Any]:
        """The position as plain values: turn, current seat, weather, deck / discard sizes,
        hands (card name -> count), aircraft places (``slot_name``), ranks, winner, stalled (the
        turn cap stopped a game with no winner), cut_off (it stopped a won game early), over."""
        S, K = int(self.p[L.P_S]), int(self.p[L.P_K])
        return {
            "turn": int(self.state[L.H_TURN]),
            "current": self.cur,
            "weather": self.weather,
            "deck": self.deck_size(),
            "discard": self.discard_size(),
            "hands": [self.hand(s) for s in range(S)],
            "aircraft": [[self.where(s, k) for k in range(K) if self.fleet[s, k] > 0] for s in range(S)],
            "ranks": [self.rank(s) for s in range(S)],
            "winner": int(self.state[L.H_WINNER]),
            "stalled": bool(self.state[L.H_STALL]) and int(self.state[L.H_WINNER]) < 0,
            "cut_off": bool(self.state[L.H_STALL]) and int(self.state[L.H_WINNER]) >= 0,
            "over": self.over,
        }

    def dealt(self) -> dict[str, Any]:
        """What the shuffle dealt (RB Setting up): the deck in draw order after the deal, the
        starting hands and the first weather card; the same for every policy."""
        return {k: (list(v) if isinstance(v, list) else v) for k, v in self._dealt.items()}

    def invariants(self) -> int:
        """0, or the first violated ``layout.V_*`` code (``rules.check_invariants``)."""
        return int(R.check_invariants(self.state, self.p, self.fleet))

    # ---- reading -----------------------------------------------------------------------------
    @property
    def cur(self) -> int:
        return int(self.state[L.H_CUR])

    @property
    def weather(self) -> str:
        return L.CARD_NAMES[int(self.state[L.H_WEATHER])]

    def gid(self, seat: int, k: int) -> int:
        return seat * int(self.p[L.P_K]) + k

    def size(self, seat: int, k: int) -> int:
        return int(self.fleet[seat, k])

    def pos(self, seat: int, k: int) -> int:
        return int(self.state[R.pos_at(self.p, seat, k)])

    def where(self, seat: int, k: int) -> str:
        return L.slot_name(self.p, self.pos(seat, k))

    def occupant(self, slot: int) -> int:
        return int(R.occ(self.state, self.p, slot))

    def hand(self, seat: int) -> dict[str, int]:
        base = int(self.p[L.P_OFF_HAND]) + seat * L.NCT
        return {L.CARD_NAMES[c]: int(self.state[base + c]) for c in range(L.NCT) if self.state[base + c]}

    def deck_size(self) -> int:
        return int(self.state[L.H_DECK_N])

    def discard_size(self) -> int:
        return int(self.state[L.H_DISC_N])

    def rank(self, seat: int) -> int:
        return int(self.state[int(self.p[L.P_OFF_RANK]) + seat])

    def stat(self, seat: int, st: int) -> int:
        return int(self.state[R.stat_at(self.p, seat, st)])

    def events(self) -> np.ndarray:
        """Trace events so far: int32[E, EV_W] (turn, seat, code, a, b, c, d, e)."""
        return self.ev[: self.evn[0]].copy()

    # ---- slot ids ----------------------------------------------------------------------------
    def slot_a(self, stand: int) -> int:
        return 2 * stand

    def slot_2(self, stand: int) -> int:
        """The second place (B on an A-B stand, C on an A-C stand) of ``stand``."""
        return 2 * stand + 1

    def first_ac_stand(self) -> int:
        return int(self.p[L.P_NST] - self.p[L.P_NAC])

    @property
    def vip1(self) -> int:
        return int(self.p[L.P_VIP1])

    @property
    def vip2(self) -> int:
        return int(self.p[L.P_VIP2])

    def d(self, runway: int, j: int) -> int:
        return int(R.d_slot(self.p, runway, j))

    def to(self, runway: int) -> int:
        return int(R.to_slot(self.p, runway))

    # ---- building a position -----------------------------------------------------------------
    def _take_from_deck(self, c: int) -> None:
        d0 = int(self.p[L.P_OFF_DECK])
        n = int(self.state[L.H_DECK_N])
        for i in range(n - 1, -1, -1):
            if self.state[d0 + i] == c:
                self.state[d0 + i: d0 + n - 1] = self.state[d0 + i + 1: d0 + n].copy()
                self.state[L.H_DECK_N] = n - 1
                return
        raise ValueError(f"no {L.CARD_NAMES[c]} card left in the deck")

    def _to_deck_bottom(self, c: int) -> None:
        d0 = int(self.p[L.P_OFF_DECK])
        n = int(self.state[L.H_DECK_N])
        self.state[d0 + 1: d0 + n + 1] = self.state[d0: d0 + n].copy()
        self.state[d0] = c
        self.state[L.H_DECK_N] = n + 1

    def set_hand(self, seat: int, cards: dict[str, int]) -> None:
        """Give ``seat`` exactly ``cards`` (names -> counts): its old hand goes to the
        bottom of the deck, the new cards come out of the deck (cards are conserved)."""
        base = int(self.p[L.P_OFF_HAND]) + seat * L.NCT
        for c in range(L.NCT):
            for _ in range(int(self.state[base + c])):
                self._to_deck_bottom(c)
            self.state[base + c] = 0
        for name, k in cards.items():
            for _ in range(k):
                self._take_from_deck(CARD[name])
                self.state[base + CARD[name]] += 1

    def stack_deck(self, names: list[str]) -> None:
        """Make ``names`` the next cards drawn, first name first (taken from the deck; a
        name may repeat)."""
        d0 = int(self.p[L.P_OFF_DECK])
        n = int(self.state[L.H_DECK_N])
        rest = [int(c) for c in self.state[d0: d0 + n]]
        for name in names:
            c = CARD[name]
            if c not in rest:
                raise ValueError(f"no {name} card left in the deck")
            rest.reverse()  # take the copy nearest the top
            rest.remove(c)
            rest.reverse()
        top = [CARD[name] for name in names]
        self.state[d0: d0 + n] = np.array(rest + top[::-1], np.int32)

    def empty_deck_into_discard(self, keep: int = 0) -> None:
        """Move all but the top ``keep`` deck cards to the discard pile."""
        d0 = int(self.p[L.P_OFF_DECK])
        n = int(self.state[L.H_DECK_N])
        moved = self.state[d0: d0 + n - keep].copy()
        top = self.state[d0 + n - keep: d0 + n].copy()
        for c in moved:
            R.discard(self.state, self.p, int(c), 1)
        self.state[d0: d0 + keep] = top
        self.state[L.H_DECK_N] = keep

    def set_weather(self, name: str) -> None:
        """Lay the Weather card ``name`` (taken from the deck) as the weather in force."""
        c = CARD[name]
        self._take_from_deck(c)
        R.set_weather(self.state, self.p, c)

    def put(self, seat: int, k: int, slot: int) -> None:
        """Place aircraft k of ``seat`` on ``slot`` (or POS_HANGAR / POS_AIRBORNE), as if it
        stood there when the current turn began."""
        R.set_pos(self.state, self.p, self.gid(seat, k), slot)
        R.note_turn_start(self.state, self.p)

    def set_current(self, seat: int) -> None:
        """Make it ``seat``'s turn (not yet acted), its aircraft where they stand now."""
        self.state[L.H_CUR] = seat
        self._acted = False
        R.note_turn_start(self.state, self.p)

    def deice(self, seat: int, k: int) -> None:
        self.state[int(self.p[L.P_OFF_DEICED]) + self.gid(seat, k)] = 1

    def deiced(self, seat: int, k: int) -> bool:
        return bool(self.state[int(self.p[L.P_OFF_DEICED]) + self.gid(seat, k)])

    # ---- playing by name ---------------------------------------------------------------------
    def legal(self) -> list[tuple[str, int, int, int]]:
        """Legal plays of the current seat by kind name: (kind, aircraft gid, arg, LC used)."""
        return [(L.KIND_NAMES[a[0]], int(a[1]), int(a[2]), int(a[3])) for a in self._plays()]

    def play(self, kind: str, gid: int = -1, arg: int | str = 0) -> None:
        """Apply the legal play (kind, gid, arg) (``gid`` -1: any aircraft; for 'weather'
        ``arg`` may be a card name) through ``apply``; raises ValueError when not legal."""
        if isinstance(arg, str):
            arg = CARD[arg]
        for a in self._plays():
            if a[0] == KIND[kind] and (gid < 0 or a[1] == gid) and a[2] == arg:
                self.apply(tuple(int(v) for v in a))
                return
        raise ValueError(f"illegal play {kind} {gid} {arg}; legal: {self.legal()}")

    def exchange(self, cards: dict[str, int]) -> int:
        """Exchange ``cards`` (names -> counts) face up through ``apply``; returns the cards
        short (starved). Raises ValueError for cards not held or a wrong count."""
        held = self.hand(self.cur)
        for name, k in cards.items():
            if k < 0 or held.get(name, 0) < k:
                raise ValueError(f"seat {self.cur} holds {held.get(name, 0)} {name}, cannot exchange {k}")
        return self.apply((L.K_EXCHANGE, *sorted(CARD[n] for n, k in cards.items() for _ in range(k))))
