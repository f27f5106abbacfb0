"""Yukon Airways scenario API: :class:`GameState`, one position driven by the kernel's own
``@kernel`` rule functions (``rules.legal_actions``, ``rules.apply_action``,
``rules.check_invariants``); nothing here re-implements a rule.

Rigging: ``Rig(deck=[...])`` is the ticket draw pile in draw order (card types, ``type =
location * 3 + symbol``; the deal takes the first 6 for the first seat ...), and must hold
the deck's cards; ``Rig(dice=[...])`` are die faces in roll order (set-up rolls die 0, 1, ...;
maintenance rolls the dice on tickets in die order).

Builders for scenario tests (each keeps every card, die, marker and dollar in one place, and
the dice and hand counters equal to a recount, ``rules.recount``):
``give_card``, ``set_money``, ``set_fuel``, ``set_dial``, ``set_switch``, ``set_symbols``, ``put_die``,
``set_markers``, ``set_location``; readers ``seat``, ``hand``, ``dice_at``, ``markers``.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

import sim.games.yukon_airways.layout as Y
from sim.compile import CompiledRun, run_from_dict
from sim.games.base import GameStateBase, Rig
from sim.games.engine import EV_W, make_rig, seat_policies
from sim.games.yukon_airways.data import COLOURS, SYMBOLS
from sim.games.yukon_airways.hooks import KERNELS
from sim.games.yukon_airways.policies import CTX, seat_weights, select
from sim.games.yukon_airways.rules import apply_action, check_invariants, legal_actions, recount, setup
from sim.rng import seed_streams


class GameState(GameStateBase):
    """One Yukon Airways position (see the module docstring).

    ``GameState(seats=4, seed=0, game_index=0, rig=None, policies=None, **section)``: ``seats``
    greedy seats (or ``policies``) with ``section`` keys as the ``[yukon_airways]`` table (the
    code's defaults otherwise), the position at the start of game ``game_index``; or
    :meth:`from_run` for a compiled run. Raises ConfigError for a bad section.
    """

    def __init__(self, seats: int = 4, seed: int = 0, game_index: int = 0, rig: Rig | None = None,
                 policies: Sequence[Any] | None = None, **section: Any):
        raw = {"game": "yukon_airways", "seats": list(policies or ["greedy"] * seats), "seed": seed,
               "yukon_airways": section}
        self._start(run_from_dict(raw, "<scenario>"), game_index, rig)

    # ---- contract ----------------------------------------------------------------------------
    def _start(self, run: CompiledRun, game_index: int, rig: Rig | None) -> None:
        """The position play_batch starts game ``game_index`` from (set-up done, the first
        seat about to place its marker); ``rig.deck`` is the draw pile in draw order (card
        types, the deck's cards), ``rig.dice`` die faces in roll order. Raises ValueError for
        a deck that is not the config's."""
        spec = run.spec
        p = spec[0]
        rig_deck, rig_dice = make_rig(None if rig is None else rig.deck, None if rig is None else rig.dice)
        if rig_deck.shape[0] > 0 and sorted(rig_deck.tolist()) != sorted(spec[3].tolist()):
            raise ValueError("Rig(deck=...) must hold exactly the deck's cards (card types)")
        pids, W = seat_policies(run.entry_policy, run.entry_weights, run.perms, np.int64(game_index))
        seat_weights(pids, W)
        state = np.zeros(int(p[Y.P_SIZE]), np.int32)
        rng = np.zeros(2, np.uint64)
        seed_streams(rng, np.int64(run.seed), np.int64(game_index))
        setup(state, spec, rng, rig_deck, rig_dice, np.zeros((0, EV_W), np.int32), np.zeros(1, np.int64))
        self.run = run
        self.spec = spec
        self.p = p
        self.state = state
        self.rng = rng
        self.rig_dice = rig_dice
        self.pids = pids
        self.W = W
        self.ev = np.zeros((4096, EV_W), np.int32)
        self.evn = np.zeros(1, np.int64)
        self._acts = np.zeros((Y.MAX_ACTS, Y.ACT_W), np.int32)
        self._dealt = {
            "draw_pile": self._pile(int(p[Y.P_OFF_DECK]), int(state[Y.H_DECK_N])),
            "hands": [self.hand(s) for s in range(run.n_seats)],
            "dice": [int(state[int(p[Y.P_OFF_DIE]) + 2 * d]) for d in range(int(p[Y.P_NDICE]))],
            "markers": self.markers(),
            "turn_order": [int(state[int(p[Y.P_OFF_TURN]) + i]) for i in range(run.n_seats)],
            "orders": [int(state[int(p[Y.P_OFF_ORDERS]) + i]) for i in range(int(p[Y.P_NORDP]))],
        }

    def legal_actions(self) -> list[tuple[int, ...]]:
        """The actions of the seat to decide (``layout`` action encoding)."""
        if self.over:
            return []
        n = legal_actions(self.state, self.spec, self._acts)
        return [tuple(int(x) for x in self._acts[i]) for i in range(n)]

    def apply(self, action: Sequence[int]) -> None:
        """Apply one action; ValueError when it is not legal here."""
        act = tuple(int(x) for x in action)
        if act not in self.legal_actions():
            raise ValueError(f"action {act} is not legal at step {Y.STEP_NAMES[int(self.state[Y.H_STEP])]}")
        apply_action(self.state, self.spec, np.asarray(act, np.int32), self.rng, self.rig_dice, self.ev, self.evn)

    def end_turn(self) -> None:
        """Finish the current player turn: every decision still open in it takes its first
        legal option (skip, done, pass where the rules allow; else the first dock, take or
        ticket), then the automation runs to the next turn (RB: refuel, turn order, income,
        maintenance, the end of the game)."""
        t0 = int(self.state[Y.H_TURN])
        while not self.over and int(self.state[Y.H_TURN]) == t0:
            acts = self.legal_actions()
            self.apply(acts[0])
        KERNELS.stop_if_capped(self.state, self.spec, self.ev, self.evn)  # the engine's cap test

    @property
    def over(self) -> bool:
        """True at the end of the game (or when the turn cap is reached)."""
        return int(self.state[Y.H_STEP]) == Y.STEP_OVER or int(self.state[Y.H_TURN]) >= int(self.p[Y.P_CAP])

    def snapshot(self) -> dict[str, Any]:
        """The position as plain values."""
        st = self.state
        return {
            "round": int(st[Y.H_ROUND]), "step": Y.STEP_NAMES[int(st[Y.H_STEP])], "actor": int(st[Y.H_ACTOR]),
            "turn": int(st[Y.H_TURN]), "deck": int(st[Y.H_DECK_N]), "discard": int(st[Y.H_DISC_N]),
            "winner": int(st[Y.H_WINNER]), "shared": int(st[Y.H_SHARED]),
            "seats": [self.seat(s) for s in range(self.run.n_seats)],
            "hands": [self.hand(s) for s in range(self.run.n_seats)],
            "dice": [self.die(d) for d in range(int(self.p[Y.P_NDICE]))],
            "markers": self.markers(),
            "turn_order": self.turn_order(),
        }

    def dealt(self) -> dict[str, Any]:
        """What chance dealt at set-up: draw pile, hands, dice docks, markers, turn order, orders."""
        return self._dealt

    def invariants(self) -> int:
        """0, or the first violated invariant code (``rules.check_invariants``)."""
        return int(check_invariants(self.state, self.spec))

    # ---- readers -----------------------------------------------------------------------------
    def _pile(self, off: int, n: int) -> list[int]:
        return [int(self.state[off + i]) for i in range(n)]

    def _se(self, s: int, f: int) -> int:
        return int(self.p[Y.P_OFF_SEAT]) + s * Y.SW + f

    def loc(self, name: str) -> int:
        """Location index of ``name``."""
        return [x.name for x in self.run.cfg.section.locations].index(name)

    def card(self, name: str, symbol: str) -> int:
        """Card type of the ticket naming ``name`` with ``symbol``."""
        return self.loc(name) * Y.NSYM + SYMBOLS.index(symbol)

    def seat(self, s: int) -> dict[str, Any]:
        """Seat ``s``'s record: money, fuel, plane location, dock, dial steps, switches ..."""
        g = lambda f: int(self.state[self._se(s, f)])  # noqa: E731
        return {
            "money": g(Y.SE_MONEY), "fuel": g(Y.SE_FUEL), "loc": g(Y.SE_LOC), "dock": g(Y.SE_DOCK),
            "passed": g(Y.SE_PASSED), "start_pos": g(Y.SE_START_POS), "rank": g(Y.SE_RANK),
            "dials": {Y.DIAL_NAMES[d]: g(Y.SE_DIAL + d) for d in range(Y.NDIAL)},
            "switches": {Y.IMP_NAMES[Y.NDIAL + j]: g(Y.SE_SW + j) for j in range(Y.NSW)},
            "symbols": [g(Y.SE_SYM + y) for y in range(Y.NSYM)],
            "round_max_value": g(Y.SE_R_MAXVAL), "round_dice": g(Y.SE_R_DICE), "round_far": g(Y.SE_R_FAR),
            "m_value": g(Y.SE_M_VALUE), "m_dice": g(Y.SE_M_DICE), "m_far": g(Y.SE_M_FAR), "m_bonus": g(Y.SE_M_BONUS),
            "m_orders": g(Y.SE_M_ORDERS), "m_christmas": g(Y.SE_M_CHRISTMAS), "m_switch": g(Y.SE_M_SWITCH),
            "m_visited": g(Y.SE_M_VISITED), "spent": g(Y.SE_SPENT), "flights": g(Y.SE_FLIGHTS),
            "burnt": g(Y.SE_BURNT), "unflown": g(Y.SE_UNFLOWN),
            "improvements": {Y.IMP_NAMES[k]: g(Y.SE_IMP + k) for k in range(Y.NIMP)},
        }

    def hand(self, s: int) -> dict[int, int]:
        """Seat ``s``'s hand: card type -> count."""
        base = int(self.p[Y.P_OFF_HAND]) + s * int(self.p[Y.P_NT])
        return {t: int(self.state[base + t]) for t in range(int(self.p[Y.P_NT])) if self.state[base + t] > 0}

    def die(self, d: int) -> tuple[int, int]:
        """Die ``d``'s (place, seat): place 0..5 a dock, DP_PLANE, DP_TICKET, DP_LOADING."""
        o = int(self.p[Y.P_OFF_DIE]) + 2 * d
        return int(self.state[o]), int(self.state[o + 1])

    def dice_at(self, dock: int) -> list[int]:
        """Die ids on ``dock`` (0-based)."""
        return [d for d in range(int(self.p[Y.P_NDICE])) if self.die(d)[0] == dock]

    def colour_of(self, d: int) -> str:
        """Colour name of die ``d``."""
        return COLOURS[int(self.spec[8][d])]

    def markers(self) -> list[list[int]]:
        """Coloured markers on the board: [location][colour]."""
        o = int(self.p[Y.P_OFF_MAP])
        return [[int(self.state[o + l * Y.NCOL + c]) for c in range(Y.NCOL)] for l in range(int(self.p[Y.P_L]))]

    def cockpit_markers(self, s: int, l: int) -> list[int]:
        """Markers on seat ``s``'s cockpit map at location ``l``: colours then grey."""
        o = int(self.p[Y.P_OFF_COCKPIT]) + (s * int(self.p[Y.P_L]) + l) * Y.NCOLG
        return [int(self.state[o + c]) for c in range(Y.NCOLG)]

    def turn_order(self) -> list[int]:
        """Seats in the current turn order."""
        return [int(self.state[int(self.p[Y.P_OFF_TURN]) + i]) for i in range(self.run.n_seats)]

    def events(self) -> list[tuple[int, ...]]:
        """Events emitted by the actions applied through this object (rows of engine.emit)."""
        return [tuple(int(x) for x in self.ev[i]) for i in range(int(self.evn[0]))]

    def policy_choice(self) -> tuple[int, ...]:
        """The action the seat's own policy would choose now (POLICY stream advances)."""
        n = legal_actions(self.state, self.spec, self._acts)
        s = int(self.state[Y.H_ACTOR])
        k = 0 if n == 1 else int(select(self.state, self.spec, self.pids[s], self.W[s], self._acts, n, self.rng,
                                        np.zeros(CTX, np.int64)))
        return tuple(int(x) for x in self._acts[k])

    # ---- builders ------------------------------------------------------------------------------
    def give_card(self, s: int, t: int, n: int = 1) -> None:
        """Move ``n`` cards of type ``t`` to seat ``s``'s hand from the draw pile, else the
        discard pile, else another seat's hand; ValueError when none holds one."""
        for _ in range(n):
            for off, hk in ((int(self.p[Y.P_OFF_DECK]), Y.H_DECK_N), (int(self.p[Y.P_OFF_DISC]), Y.H_DISC_N)):
                pile = self._pile(off, int(self.state[hk]))
                if t in pile:
                    i = pile.index(t)
                    pile.pop(i)
                    self.state[off:off + len(pile)] = pile
                    self.state[hk] -= 1
                    break
            else:
                nt = int(self.p[Y.P_NT])
                other = [o for o in range(self.run.n_seats)
                         if o != s and self.state[int(self.p[Y.P_OFF_HAND]) + o * nt + t] > 0]
                if not other:
                    raise ValueError(f"no card of type {t} in the draw pile, discard pile or another hand")
                self.state[int(self.p[Y.P_OFF_HAND]) + other[0] * nt + t] -= 1
            self.state[int(self.p[Y.P_OFF_HAND]) + s * int(self.p[Y.P_NT]) + t] += 1
        recount(self.state, self.spec)

    def clear_hand(self, s: int) -> None:
        """Put seat ``s``'s whole hand on the discard pile."""
        base = int(self.p[Y.P_OFF_HAND]) + s * int(self.p[Y.P_NT])
        for t in range(int(self.p[Y.P_NT])):
            while self.state[base + t] > 0:
                self.state[base + t] -= 1
                self.state[int(self.p[Y.P_OFF_DISC]) + int(self.state[Y.H_DISC_N])] = t
                self.state[Y.H_DISC_N] += 1
        recount(self.state, self.spec)

    def set_money(self, s: int, m: int) -> None:
        """Seat ``s`` holds ``m`` dollars (the difference booked to the bank)."""
        o = self._se(s, Y.SE_MONEY)
        self.state[Y.H_MONEY_IN] += m - int(self.state[o])
        self.state[o] = m

    def set_fuel(self, s: int, f: int) -> None:
        """Seat ``s``'s fuel needle on ``f``."""
        self.state[self._se(s, Y.SE_FUEL)] = f

    def set_location(self, s: int, l: int) -> None:
        """Seat ``s``'s plane at location ``l``."""
        self.state[self._se(s, Y.SE_LOC)] = l

    def set_dial(self, s: int, name: str, step: int) -> None:
        """Seat ``s``'s dial ``name`` on step index ``step``."""
        self.state[self._se(s, Y.SE_DIAL + Y.DIAL_NAMES.index(name))] = step

    def set_switch(self, s: int, name: str, on: int = 1) -> None:
        """Seat ``s``'s switch ``name`` on (1) or off (0)."""
        self.state[self._se(s, Y.SE_SW + Y.IMP_NAMES.index(name) - Y.NDIAL)] = on

    def set_symbols(self, s: int, symbol: str, n: int) -> None:
        """Seat ``s`` has collected ``n`` ``symbol`` symbols this round (towards a bonus)."""
        self.state[self._se(s, Y.SE_SYM + SYMBOLS.index(symbol))] = n

    def put_die(self, d: int, place: int, s: int = -1) -> None:
        """Die ``d`` to ``place`` (a dock 0..5, or DP_PLANE with seat ``s``)."""
        o = int(self.p[Y.P_OFF_DIE]) + 2 * d
        self.state[o] = place
        self.state[o + 1] = s
        recount(self.state, self.spec)

    def set_markers(self, l: int, counts: Sequence[int]) -> None:
        """Location ``l`` holds ``counts[c]`` markers of colour c (the box supplies or takes
        the difference); ValueError when the box has too few."""
        po = int(self.p[Y.P_OFF_POOL])
        mo = int(self.p[Y.P_OFF_MAP]) + l * Y.NCOL
        for c in range(Y.NCOL):
            diff = int(counts[c]) - int(self.state[mo + c])
            if int(self.state[po + c]) - diff < 0:
                raise ValueError(f"not enough {COLOURS[c]} markers in the box")
            self.state[po + c] -= diff
            self.state[mo + c] = int(counts[c])
