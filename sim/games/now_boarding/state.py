"""``GameState``: the scenario API over one Now Boarding position (the compact int32 state).

Every rule runs through the kernel's own ``@kernel`` functions (``rules``, ``policies``,
``play``): nothing here re-implements a rule. ``from_run`` sets a game up exactly as
``play_batch`` does and opens round 1's flight phase; ``legal_actions`` / ``apply`` are the
planes' flight-phase actions (encoding in layout.py: ``(K_PICKUP, plane, card)``,
``(K_DROP, plane, card)``, ``(K_FLY, plane, airport)``); ``end_turn`` ends the round as the
playout does (the rest of the flight phase by the team policy, then maintenance) and opens
the next one. Builders (``clear``, ``place``, ``set_plane``, ``set_weather``, ``set_pile``,
``give_money`` ...) rig a position; readers (``where``, ``anger_of``, ``plane``, ``money`` ...)
read it back.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

import sim.games.now_boarding.data as data
import sim.games.now_boarding.hooks as H
import sim.games.now_boarding.layout as L
import sim.games.now_boarding.play as P
import sim.games.now_boarding.policies as POL
import sim.games.now_boarding.rules as R
from sim.compile import CompiledRun, run_from_dict
from sim.games.base import GameStateBase, Rig
from sim.games.engine import event_buffer, make_rig, no_rig, seat_policies
from sim.games.now_boarding.hooks import KERNELS
from sim.rng import seed_streams

MAX_EVENTS = 20000


class GameState(GameStateBase):
    """One Now Boarding position.

    ``GameState(seats=4, seed=0, game_index=0, rig=None, policy=None, raw=None, **section)``:
    ``seats`` planes of ``policy`` (default greedy; the team plays one policy) with ``section``
    keys as the ``[now_boarding]`` table, or ``raw`` a whole config dict (as TOML parsed); the
    position of game ``game_index`` (see :meth:`from_run`, and it for ``rig``). Raises
    ConfigError for a bad config.
    """

    def __init__(self, seats: int = 4, seed: int = 0, game_index: int = 0, rig: Rig | None = None,
                 policy: str | None = None, raw: dict[str, Any] | None = None, **section: Any):
        if raw is None:
            raw = {"game": "now_boarding", "seed": seed, "seats": [policy or "greedy"] * seats,
                   "now_boarding": section}
        self._start(run_from_dict(raw, "<GameState>"), game_index, rig)

    def _start(self, run: CompiledRun, game_index: int, rig: Rig | None) -> None:
        """Game ``game_index`` of ``run`` set up as ``play_batch`` sets it up, at the start of
        round 1's flight phase. ``rig.deck``: the pile draw order (card ids, see
        ``rules.setup``); raises ValueError for ``rig.dice`` (no dice in Now Boarding) or a
        deck with unknown, repeated or out-of-play cards."""
        self.run = run
        self.cfg = run.cfg
        self.spec = run.spec[0]
        pids, W = seat_policies(run.entry_policy, run.entry_weights, run.perms, np.int64(game_index))
        self.pol = np.int64(pids[0])
        self.w = np.ascontiguousarray(W[0])
        self.n = int(self.spec[L.P_NP])
        self.st = np.zeros(L.STATE_SIZE, np.int32)
        self.ev, self.evn = event_buffer(MAX_EVENTS)
        self.rng = np.zeros(2, np.uint64)
        self.order = np.arange(L.MAXP, dtype=np.int64)
        # the engine's view of the team (sim.games.loop): seat 0's policy, the round's decisions
        self.pids = np.array([self.pol], np.int64)
        self.W = self.w.reshape(1, -1).copy()
        self.tw = np.zeros(5, np.int64)
        rig_deck, rig_dice = no_rig()
        if rig is not None:
            if rig.dice is not None:
                raise ValueError("Now Boarding has no dice to rig")
            if rig.deck is not None:
                deck = [int(c) for c in rig.deck]
                bad = [c for c in deck if not 0 <= c < L.NCARD or not self.spec[L.P_CIN + c]]
                if bad or len(set(deck)) != len(deck):
                    raise ValueError(f"rig deck needs distinct card ids in play; bad: {bad or deck}")
                rig_deck, rig_dice = make_rig(deck=deck)
        seed_streams(self.rng, np.int64(run.seed), np.int64(game_index))
        P.setup_game(self.st, self.spec, self.pol, self.w, self.rng, rig_deck, rig_dice, self.ev, self.evn)
        st = self.st
        self._dealt = {
            "piles": [int(c) for c in st[L.PILE:L.PILE + int(st[L.S_PILE_END + 2])]],
            "waiting": sorted(int(c) for c in range(L.NCARD) if st[L.C_PLACE + c] == L.PL_WAIT),
            "weather": [(int(st[L.WP_ROUTE + i]), int(st[L.WP_SPACE + i])) for i in range(3 * L.MAXTOK)],
            "vips": [(int(st[L.VP_KIND + i]), int(st[L.VP_STAGE + i])) for i in range(L.NVIP)],
        }
        self._open()

    # ------------------------------------------------------------------ the contract
    def _open(self) -> None:
        if KERNELS.stop_if_capped(self.st, (self.spec,), self.ev, self.evn):  # the engine's cap test
            R.game_end(self.st, self.ev, self.evn)
        else:
            R.begin_round(self.st, self.spec, self.rng, self.order, self.ev, self.evn)
            self.tw[:] = 0  # hooks.begin_turn: the flight phase is the round's next decision

    def legal_actions(self) -> list[tuple[int, ...]]:
        """Every plane's legal flight-phase actions now (none when the game is over)."""
        if self.over:
            return []
        out: list[tuple[int, ...]] = []
        on_board = [a for a in range(L.NA) if self.spec[L.P_AIRIN + a]]
        for p in range(self.n):
            for c in self.active():
                if R.can_pickup(self.st, self.spec, p, c) > 0:
                    out.append((L.K_PICKUP, p, c))
                if R.can_drop(self.st, self.spec, p, c):
                    out.append((L.K_DROP, p, c))
            for a in on_board:
                if R.hop_plan(self.st, self.spec, p, a)[0] > 0:
                    out.append((L.K_FLY, p, a))
        return out

    def apply(self, action: Sequence[int]) -> None:
        """Apply one action of :meth:`legal_actions`; raises ValueError when it is not legal."""
        act = tuple(int(x) for x in action)
        if act not in self.legal_actions():
            raise ValueError(f"illegal action {act}")
        kind, p, x = act
        if kind == L.K_PICKUP:
            R.do_pickup(self.st, self.spec, p, x, self.ev, self.evn)
        elif kind == L.K_DROP:
            R.do_drop(self.st, self.spec, p, x, self.ev, self.evn)
        else:
            R.fly_hop(self.st, self.spec, p, x, self.ev, self.evn)

    def end_turn(self) -> None:
        """End the round as the playout does: the rest of the flight phase by the team policy,
        maintenance, then the next round (or the game's end). ValueError when over."""
        if self.over:
            raise ValueError("the game is over")
        self._rest_of_round(self.order)
        if self.st[L.S_OVER]:
            R.game_end(self.st, self.ev, self.evn)
        else:
            self._open()

    @property
    def over(self) -> bool:
        return bool(self.st[L.S_OVER])

    def snapshot(self) -> dict[str, Any]:
        """Round, stage, result counters, every plane, the waiting and aboard passengers, piles."""
        st = self.st
        return {
            "round": int(st[L.S_ROUND]), "stage": data.STAGES[int(st[L.S_STAGE])], "over": self.over,
            "team_win": int(st[L.S_WIN]), "stalled": int(st[L.S_STALLED]), "complaints": int(st[L.S_COMPL]),
            "delivered": int(st[L.S_DELIV]), "fares": int(st[L.S_FARES]),
            "planes": [self.plane(p) | {"money": self.money(p)} for p in range(self.n)],
            "waiting": {c: (data.AIRPORTS[self.where(c)[1]], self.anger_of(c)) for c in self.active()
                        if self.where(c)[0] == "waiting"},
            "aboard": {c: self.where(c)[1] for c in self.active() if self.where(c)[0] == "aboard"},
            "pile_left": [int(st[L.S_PILE_END + s] - st[L.S_PILE_POS + s]) for s in range(3)],
        }

    def dealt(self) -> dict[str, Any]:
        """What chance dealt at set-up (RB "Preparar"): the three piles in draw order, the
        starting passengers, the weather plan of every stage and the VIP deal."""
        return {k: list(v) for k, v in self._dealt.items()}

    def invariants(self) -> int:
        """0, or the first violated ``layout.V_*`` code (``rules.check_invariants``)."""
        return int(R.check_invariants(self.st, self.spec))

    # ------------------------------------------------------------------ names
    @staticmethod
    def airport(name: str | int) -> int:
        return name if isinstance(name, int) else data.AIRPORT_ID[name]

    def card(self, orig: str, dest: str) -> int:
        """Id of the regular passenger card orig -> dest."""
        o, d = self.airport(orig), self.airport(dest)
        for c in range(L.NCARD):
            if self.spec[L.P_CORIG + c] == o and self.spec[L.P_CDEST + c] == d:
                return c
        raise KeyError((orig, dest))

    def route(self, a: str, b: str) -> int:
        r = int(self.spec[L.P_BETWEEN + self.airport(a) * L.NA + self.airport(b)])
        if r < 0:
            raise KeyError((a, b))
        return r

    def pb(self, p: int) -> int:
        return L.PLANES + L.PB * p

    # ------------------------------------------------------------------ builders
    def clear(self) -> None:
        """Empty the board: every waiting/aboard/money/complaint card back to the box, planes
        empty, no complaints, no events, tokens in the supply."""
        st = self.st
        for c in range(L.NCARD):
            if st[L.C_PLACE + c] not in (L.PL_PILE,):
                st[L.C_PLACE + c] = L.PL_BOX
            st[L.C_WHERE + c] = -1
            st[L.C_ANGER + c] = 0
            st[L.C_VIPK + c] = 0
            st[L.C_PICK + c] = -1
        st[L.S_NACTIVE] = 0
        for k in (L.S_COMPL, L.S_C_ANGER, L.S_C_LEFT, L.S_C_VIP, L.S_OVER, L.S_LOST_EARLY):
            st[k] = 0
        self.evn[0] = 0
        st[L.S_LOSS_STAGE] = -1
        st[L.S_TSEAT] = -1
        st[L.S_TSPEED] = -1
        for p in range(self.n):
            b = self.pb(p)
            for k in (L.SE_LOAD, L.SE_NCARR, L.SE_NERV, L.SE_CELEB, L.SE_FARES, L.SE_DELIV):
                st[b + k] = 0
            st[b + L.SE_MONEY:b + L.SE_MONEY + L.NFARE] = 0
            st[b + L.SE_TCARD] = -1
        for i in range(L.NVIP):
            st[L.VP_STATE + i] = L.VS_OUT
            st[L.VP_STAGE + i] = -1

    def place(self, card: int, airport: str | int, anger: int = 0, vip: int = 0) -> int:
        """Put ``card`` waiting at ``airport`` (from the box, a pile, or waiting elsewhere)."""
        st = self.st
        if st[L.C_PLACE + card] == L.PL_PILE:
            self._unpile(card)
        assert st[L.C_PLACE + card] in (L.PL_BOX, L.PL_WAIT), "place a card from the box or a pile"
        if st[L.C_PLACE + card] != L.PL_WAIT:
            R.active_add(st, card)
        st[L.C_PLACE + card] = L.PL_WAIT
        st[L.C_WHERE + card] = self.airport(airport)
        st[L.C_ANGER + card] = anger
        st[L.C_VIPK + card] = vip
        return card

    def _unpile(self, card: int) -> None:
        """Take ``card`` out of its pile (later cards shift down; the piles shrink by one)."""
        st = self.st
        i = [int(x) for x in st[L.PILE:L.PILE + L.NCARD]].index(card)
        last = int(st[L.S_PILE_END + 2])
        st[L.PILE + i:L.PILE + last - 1] = st[L.PILE + i + 1:L.PILE + last].copy()
        for s in range(3):
            if st[L.S_PILE_END + s] > i:
                st[L.S_PILE_END + s] -= 1
            if st[L.S_PILE_POS + s] > i:
                st[L.S_PILE_POS + s] -= 1
        st[L.C_PLACE + card] = L.PL_BOX

    def give_money(self, p: int, fares: list[int]) -> None:
        """Put box (or pile) cards with these fares into plane p's money pile."""
        st = self.st
        for f in fares:
            cands = [c for c in range(L.NCARD) if self.spec[L.P_CFARE + c] == f and self.spec[L.P_CIN + c]
                     and st[L.C_PLACE + c] in (L.PL_BOX, L.PL_PILE)]
            cands.sort(key=lambda c: st[L.C_PLACE + c] != L.PL_BOX)
            for c in cands:
                if st[L.C_PLACE + c] == L.PL_PILE:
                    self._unpile(c)
                st[L.C_PLACE + c] = L.PL_MONEY
                st[L.C_WHERE + c] = p
                st[self.pb(p) + L.SE_MONEY + f] += 1
                break
            else:
                raise ValueError(f"no free card with fare {f}")

    def set_plane(self, p: int, airport: str | int | None = None, route: tuple[str, str] | None = None,
                  offset: int = 0, seats: int | None = None, speed: int | None = None,
                  colours: list[str] | None = None, speed_left: int | None = None,
                  actions: int | None = None) -> None:
        """Move/configure plane p. ``route=(a, b)`` with ``offset`` move points from a."""
        st, b = self.st, self.pb(p)
        if airport is not None:
            st[b + L.SE_AIR] = self.airport(airport)
            st[b + L.SE_ROUTE] = -1
            st[b + L.SE_OFF] = 0
        if route is not None:
            r = self.route(*route)
            st[b + L.SE_AIR] = -1
            st[b + L.SE_ROUTE] = r
            st[b + L.SE_OFF] = offset if self.spec[L.P_RA + r] == self.airport(route[0]) else st[L.R_LEN + r] - offset
        if seats is not None:
            st[b + L.SE_SEATS] = seats
        if speed is not None:
            st[b + L.SE_SPEED] = speed
            st[b + L.SE_SPLEFT] = speed
        if colours is not None:
            m = 1
            for c in colours:
                m |= 1 << data.COLOUR_ID[c]
            st[b + L.SE_MASK] = m
            for q in range(self.n):
                R.compute_dist(st, self.spec, q)
        if speed_left is not None:
            st[b + L.SE_SPLEFT] = speed_left
        st[b + L.SE_ACTLEFT] = actions if actions is not None else L.BIG

    def set_weather(self, tokens: list[tuple[str, str, str, int]]) -> None:
        """Replace the weather: (a, b, 'storm'|'tailwind', space counted from a)."""
        st = self.st
        for r in range(int(self.spec[L.P_NR])):
            st[L.WX_TYPE + r] = 0
            st[L.WX_SPACE + r] = 0
        for a, b, kind, space in tokens:
            r = self.route(a, b)
            k = int(self.spec[L.P_RSP + r])
            st[L.WX_TYPE + r] = 1 if kind == "storm" else 2
            st[L.WX_SPACE + r] = space if self.spec[L.P_RA + r] == self.airport(a) else k + 1 - space
        R.update_routes(st, self.spec)

    def set_pile(self, stage: int, cards: list[int]) -> None:
        """Make stage ``stage``'s remaining pile exactly ``cards`` (top first); the cards come from
        the box, the old remaining cards go to the box. Only for the current/next stages."""
        st = self.st
        pos = int(st[L.S_PILE_POS + stage])
        end = int(st[L.S_PILE_END + stage])
        for i in range(pos, end):
            st[L.C_PLACE + st[L.PILE + i]] = L.PL_BOX
        later = []
        for s in range(stage + 1, 3):
            later.append([int(st[L.PILE + i]) for i in range(st[L.S_PILE_POS + s], st[L.S_PILE_END + s])])
        i = pos
        for c in cards:
            assert st[L.C_PLACE + c] == L.PL_BOX, f"card {c} is not in the box"
            st[L.PILE + i] = c
            st[L.C_PLACE + c] = L.PL_PILE
            i += 1
        st[L.S_PILE_END + stage] = i
        for s, lst in zip(range(stage + 1, 3), later, strict=True):
            st[L.S_PILE_POS + s] = i
            for c in lst:
                st[L.PILE + i] = c
                i += 1
            st[L.S_PILE_END + s] = i

    def start_flight(self) -> None:
        """Refill every plane's move points and actions for a new flight phase (rules.start_flight)."""
        R.start_flight(self.st, self.spec)

    # ------------------------------------------------------------------ rule steps (kernel functions)
    def can_pickup(self, p: int, card: int) -> int:
        return int(R.can_pickup(self.st, self.spec, p, card))

    def pickup(self, p: int, card: int) -> int:
        return int(R.do_pickup(self.st, self.spec, p, card, self.ev, self.evn))

    def can_drop(self, p: int, card: int) -> bool:
        return bool(R.can_drop(self.st, self.spec, p, card))

    def drop(self, p: int, card: int) -> int:
        return int(R.do_drop(self.st, self.spec, p, card, self.ev, self.evn))

    def fly(self, p: int, target: str | int) -> int:
        """One hop toward ``target``; returns the move points spent."""
        return int(R.fly_hop(self.st, self.spec, p, self.airport(target), self.ev, self.evn))

    def fly_to(self, p: int, target: str | int) -> int:
        """Hop until at ``target`` or out of move points; returns the total spent."""
        tot = 0
        while True:
            s = self.fly(p, target)
            if s == 0:
                return tot
            tot += s

    def dist(self, p: int, target: str | int) -> int:
        return int(R.plane_dist(self.st, self.spec, p, self.airport(target)))

    def apply_weather(self, stage: int) -> None:
        """The weather of ``stage``'s plan replaces the board's (stage change)."""
        R.apply_weather(self.st, self.spec, stage, self.ev, self.evn)

    def anger(self) -> bool:
        """Anger and complaints (maintenance step 1); True when the game is lost."""
        return bool(R.anger_phase(self.st, self.spec, self.ev, self.evn))

    def maintenance(self) -> int:
        """A whole maintenance (planes buy in seat order): the round's decisions from the
        upkeep and draw on, as the engine plays them (``hooks.py``); returns S_OVER."""
        self.tw[:] = 0
        self.tw[0] = H.D_DRAW
        self._rest_of_round(np.arange(L.MAXP, dtype=np.int64))
        return int(self.st[L.S_OVER])

    def _rest_of_round(self, order: np.ndarray) -> None:
        """The round's remaining decisions by the team policy and its tail
        (``loop.rest_of_turn``), planes in ``order``."""
        KERNELS.rest_of_turn(self.st, (self.spec,), self.pids, self.W, self.rng, np.zeros(1, np.int32),
                             (order, self.tw), self.ev, self.evn)

    def flight(self, first: int = 0, check: bool = False) -> int:
        """A whole flight phase by the team policy, planes ordered from ``first``; returns 0 or
        (check) the first violated invariant."""
        order = np.array([(i + first) % self.n for i in range(L.MAXP)], dtype=np.int64)
        R.start_flight(self.st, self.spec)
        return int(P.flight_passes(self.st, self.spec, self.pol, self.w, self.rng, order, self.ev, self.evn,
                                   check))

    def step(self, p: int) -> bool:
        return bool(P.plane_step(self.st, self.spec, p, self.pol, self.w, self.rng, self.ev, self.evn))

    def deliver_all(self, p: int) -> int:
        """Plane p sets down every passenger whose destination is its airport; returns the count."""
        return int(POL.deliver_all(self.st, self.spec, p, self.ev, self.evn))

    def pay(self, p: int, amount: int) -> int:
        return int(R.pay(self.st, self.spec, p, amount, self.ev, self.evn))

    def price(self, p: int, kind: int) -> int:
        b = self.pb(p)
        return int(R.upgrade_price(self.st, self.spec, p, kind, self.st[b + L.SE_SEATS], self.st[b + L.SE_SPEED]))

    def grant(self, p: int, kind: int, colour: int = 0) -> None:
        R.grant_upgrade(self.st, self.spec, p, kind, colour, self.ev, self.evn, self.price(p, kind))

    def buy(self, p: int) -> None:
        P.buy_phase(self.st, self.spec, p, self.pol, self.w, self.rng, self.ev, self.evn)

    def end_count(self) -> bool:
        return bool(R.end_count(self.st, self.spec, self.ev, self.evn))

    def draw(self, stage: int, vip_index: int = -1) -> int:
        return int(R.draw_passengers(self.st, self.spec, stage, vip_index, self.ev, self.evn))

    def check(self) -> int:
        return self.invariants()

    def legal_pickups(self, p: int) -> list[int]:
        return [c for c in self.active() if self.can_pickup(p, c)]

    def legal_drops(self, p: int) -> list[int]:
        return [c for c in self.active() if self.can_drop(p, c)]

    # ------------------------------------------------------------------ read back
    def active(self) -> list[int]:
        return [int(x) for x in self.st[L.ACTIVE:L.ACTIVE + self.st[L.S_NACTIVE]]]

    def pile(self, stage: int) -> list[int]:
        """Cards left in ``stage``'s pile, in draw order."""
        st = self.st
        return [int(st[L.PILE + i]) for i in range(st[L.S_PILE_POS + stage], st[L.S_PILE_END + stage])]

    def where(self, card: int) -> tuple[str, int]:
        return L.PLACE_NAMES[self.st[L.C_PLACE + card]], int(self.st[L.C_WHERE + card])

    def anger_of(self, card: int) -> int:
        return int(self.st[L.C_ANGER + card])

    def plane(self, p: int) -> dict[str, int]:
        b = self.pb(p)
        st = self.st
        return {
            "airport": int(st[b + L.SE_AIR]), "route": int(st[b + L.SE_ROUTE]), "offset": int(st[b + L.SE_OFF]),
            "seats": int(st[b + L.SE_SEATS]), "speed": int(st[b + L.SE_SPEED]), "mask": int(st[b + L.SE_MASK]),
            "load": int(st[b + L.SE_LOAD]), "carried": int(st[b + L.SE_NCARR]), "speed_left": int(st[b + L.SE_SPLEFT]),
            "fares": int(st[b + L.SE_FARES]), "delivered": int(st[b + L.SE_DELIV]),
        }

    def money(self, p: int) -> int:
        return int(R.money(self.st, p))

    def __getitem__(self, key: str) -> int:
        """State scalar by layout name without the ``S_`` prefix, e.g. ``gs['COMPL']``."""
        return int(self.st[getattr(L, "S_" + key)])

    def clear_events(self) -> None:
        """Forget the event rows recorded so far (a scenario's set-up moves), so that
        :meth:`events` lists only what follows."""
        self.evn[0] = 0

    def events(self) -> list[tuple[int, ...]]:
        """Event rows recorded so far: ``(round, plane or -1, E_*, a, b, c, d, e)``."""
        return [tuple(int(x) for x in r) for r in self.ev[: int(self.evn[0])]]
