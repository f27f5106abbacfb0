"""A Python wrapper over one Clear for Takeoff state for tests and the scenario API.

It calls the same @njit rule functions the kernel uses (one implementation of each rule);
it only adds ways to build a position: hands, deck order, aircraft positions, weather.

Example::

    gs = GameState(seats=2)
    gs.set_hand(0, {"A": 3, "LC": 1})
    gs.put(0, 3, gs.slot_a(0))          # seat 0's wide-body on stand 0's A place
    gs.play("advance", gs.gid(0, 3))    # needs 3 B cards: raises ValueError
"""

from __future__ import annotations

import numpy as np

from sim.config import load_dict
from sim.games.clear_for_takeoff import rules as R
from sim.games.clear_for_takeoff.config import compile_spec
from sim.games.clear_for_takeoff.trace import slot_name
from sim.rng import seed_streams

KIND = {name: i for i, name in enumerate(("place", "advance", "to_d", "vip", "weather", "flr", "dly", "ai"))}
CARD = {name: i for i, name in enumerate(R.CARD_NAMES)}


class GameState:
    """One game's compact state plus its spec.

    ``section`` keys override the default ``[clear_for_takeoff]`` table; ``deck_order``
    (card names, top card first) rigs the shuffle. Raises ConfigError for a bad section.
    """

    def __init__(self, seats: int = 2, seed: int = 0, game_index: int = 0, deck_order=None, **section):
        raw = {"game": "clear_for_takeoff", "seats": ["greedy"] * seats, "seed": seed,
               "clear_for_takeoff": section}
        self.cfg = load_dict(raw, "<scenario>")
        self.p, self.deck_cards, self.fleet = compile_spec(self.cfg)
        self.spec = (self.p, self.deck_cards, self.fleet)
        self.state = np.zeros(R.state_size(self.p), np.int32)
        self.rng = np.zeros(2, np.uint64)
        seed_streams(self.rng, seed, game_index)
        preset = np.full(1, -1, np.int32)
        if deck_order is not None:
            # the deck is dealt from its end: put the named cards last, the rest before them
            rest = list(self.deck_cards)
            top = [CARD[c] for c in deck_order]
            for c in top:
                rest.remove(c)
            preset = np.array(rest + top[::-1], np.int32)
        R.setup(self.state, self.p, self.deck_cards, self.fleet, self.rng, preset)
        self.ev = np.zeros((4096, R.EV_W), np.int32)
        self.evn = np.zeros(1, np.int64)
        self.begin_turn()

    # ---- reading --------------------------------------------------------------------
    @property
    def cur(self) -> int:
        return int(self.state[R.H_CUR])

    @property
    def weather(self) -> str:
        return R.CARD_NAMES[int(self.state[R.H_WEATHER])]

    def gid(self, seat: int, k: int) -> int:
        return seat * int(self.p[R.P_K]) + k

    def size(self, seat: int, k: int) -> int:
        return int(self.fleet[seat, k])

    def pos(self, seat: int, k: int) -> int:
        return int(self.state[R.pos_at(self.p, seat, k)])

    def where(self, seat: int, k: int) -> str:
        return slot_name(self.p, self.pos(seat, k))

    def occupant(self, slot: int) -> int:
        return int(self.state[int(self.p[R.P_OFF_OCC]) + slot])

    def hand(self, seat: int) -> dict[str, int]:
        base = int(self.p[R.P_OFF_HAND]) + seat * R.NCT
        return {R.CARD_NAMES[c]: int(self.state[base + c]) for c in range(R.NCT) if self.state[base + c]}

    def deck_size(self) -> int:
        return int(self.state[R.H_DECK_N])

    def discard_size(self) -> int:
        return int(self.state[R.H_DISC_N])

    def rank(self, seat: int) -> int:
        return int(self.state[int(self.p[R.P_OFF_RANK]) + seat])

    def stat(self, seat: int, st: int) -> int:
        return int(self.state[R.stat_at(self.p, seat, st)])

    def invariants(self) -> int:
        return int(R.check_invariants(self.state, self.p, self.fleet))

    # ---- slot ids -------------------------------------------------------------------
    def slot_a(self, stand: int) -> int:
        return 2 * stand

    def slot_2(self, stand: int) -> int:
        """The second place (B on an A-B stand, C on an A-C stand) of ``stand``."""
        return 2 * stand + 1

    def first_ac_stand(self) -> int:
        return int(self.p[R.P_NST] - self.p[R.P_NAC])

    @property
    def vip1(self) -> int:
        return int(self.p[R.P_VIP1])

    @property
    def vip2(self) -> int:
        return int(self.p[R.P_VIP2])

    def d(self, runway: int, j: int) -> int:
        return int(R.d_slot(self.p, runway, j))

    def to(self, runway: int) -> int:
        return int(R.to_slot(self.p, runway))

    # ---- building a position --------------------------------------------------------
    def _take_from_deck(self, c: int) -> None:
        d0 = int(self.p[R.P_OFF_DECK])
        n = int(self.state[R.H_DECK_N])
        for i in range(n - 1, -1, -1):
            if self.state[d0 + i] == c:
                self.state[d0 + i: d0 + n - 1] = self.state[d0 + i + 1: d0 + n].copy()
                self.state[R.H_DECK_N] = n - 1
                return
        raise ValueError(f"no {R.CARD_NAMES[c]} card left in the deck")

    def _to_deck_bottom(self, c: int) -> None:
        d0 = int(self.p[R.P_OFF_DECK])
        n = int(self.state[R.H_DECK_N])
        self.state[d0 + 1: d0 + n + 1] = self.state[d0: d0 + n].copy()
        self.state[d0] = c
        self.state[R.H_DECK_N] = n + 1

    def set_hand(self, seat: int, cards: dict[str, int]) -> None:
        """Give ``seat`` exactly ``cards`` (names -> counts): its old hand goes to the
        bottom of the deck, the new cards come out of the deck (cards are conserved)."""
        base = int(self.p[R.P_OFF_HAND]) + seat * R.NCT
        for c in range(R.NCT):
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
        d0 = int(self.p[R.P_OFF_DECK])
        n = int(self.state[R.H_DECK_N])
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
        d0 = int(self.p[R.P_OFF_DECK])
        n = int(self.state[R.H_DECK_N])
        moved = self.state[d0: d0 + n - keep].copy()
        top = self.state[d0 + n - keep: d0 + n].copy()
        for c in moved:
            R.discard(self.state, self.p, int(c), 1)
        self.state[d0: d0 + keep] = top
        self.state[R.H_DECK_N] = keep

    def set_weather(self, name: str) -> None:
        """Lay the Weather card ``name`` (taken from the deck) as the weather in force."""
        c = CARD[name]
        self._take_from_deck(c)
        R.set_weather(self.state, self.p, c)

    def put(self, seat: int, k: int, slot: int) -> None:
        """Place aircraft k of ``seat`` on ``slot`` (or R.POS_HANGAR / R.POS_AIRBORNE)."""
        R.set_pos(self.state, self.p, self.gid(seat, k), slot)
        self.begin_turn()

    def set_current(self, seat: int) -> None:
        self.state[R.H_CUR] = seat
        self.begin_turn()

    def deice(self, seat: int, k: int) -> None:
        self.state[int(self.p[R.P_OFF_DEICED]) + self.gid(seat, k)] = 1

    def deiced(self, seat: int, k: int) -> bool:
        return bool(self.state[int(self.p[R.P_OFF_DEICED]) + self.gid(seat, k)])

    # ---- playing ----------------------------------------------------------------------
    def begin_turn(self) -> None:
        """Note where the current seat's aircraft stand as its turn begins."""
        s, K = self.cur, int(self.p[R.P_K])
        for k in range(K):
            self.state[int(self.p[R.P_OFF_START]) + s * K + k] = self.state[R.pos_at(self.p, s, k)]

    def legal(self) -> list[tuple[str, int, int, int]]:
        """Legal plays of the current seat: (kind, aircraft gid, arg, LC used)."""
        acts = np.zeros((R.max_actions(self.p), R.ACT_W), np.int32)
        n = R.legal_plays(self.state, self.p, self.fleet, acts)
        names = list(KIND)
        return [(names[a[0]], int(a[1]), int(a[2]), int(a[3])) for a in acts[:n]]

    def play(self, kind: str, gid: int = -1, arg: int = 0) -> None:
        """Apply the legal play (kind, gid, arg); raises ValueError when it is not legal.
        For 'weather' ``arg`` may be a card name."""
        if isinstance(arg, str):
            arg = CARD[arg]
        acts = np.zeros((R.max_actions(self.p), R.ACT_W), np.int32)
        n = R.legal_plays(self.state, self.p, self.fleet, acts)
        for a in acts[:n]:
            if a[0] == KIND[kind] and (gid < 0 or a[1] == gid) and a[2] == arg:
                R.apply_play(self.state, self.p, self.fleet, a.copy(), self.ev, self.evn)
                return
        raise ValueError(f"illegal play {kind} {gid} {arg}; legal: {self.legal()}")

    def exchange(self, cards: dict[str, int]) -> int:
        """Exchange ``cards`` (names -> counts) face up; returns cards short (starved)."""
        disc = np.zeros(R.NCT, np.int32)
        held = self.hand(self.cur)
        for name, k in cards.items():
            if k < 0 or held.get(name, 0) < k:
                raise ValueError(f"seat {self.cur} holds {held.get(name, 0)} {name}, cannot exchange {k}")
            disc[CARD[name]] = k
        if not 1 <= int(disc.sum()) <= int(self.p[R.P_EXMAX]):
            raise ValueError(f"an exchange is 1 to {int(self.p[R.P_EXMAX])} cards, got {int(disc.sum())}")
        return int(R.apply_exchange(self.state, self.p, self.fleet, disc, self.rng, self.ev, self.evn))

    def end_turn(self, vip_runway: int = 0, draw: bool = True) -> int:
        """Face-down draw back to the hand size (unless ``draw`` is False), independent
        movement, finish check, next seat. Returns the cards short in the draw."""
        short = int(R.draw_face_down(self.state, self.p, self.rng, self.ev, self.evn)) if draw else 0
        R.end_of_turn_moves(self.state, self.p, self.fleet, vip_runway, self.ev, self.evn)
        R.finish_turn(self.state, self.p, self.ev, self.evn)
        if not self.state[R.H_DONE]:
            self.begin_turn()
        return short

    def events(self) -> np.ndarray:
        """Trace events logged so far: int32[E, 8] (turn, seat, code, a, b, c, d, e)."""
        return self.ev[: self.evn[0]].copy()
