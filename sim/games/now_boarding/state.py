"""``GameState``: a Python wrapper over the compact int32 state for tests and scenarios.

Every rule runs through ``play.gs_op`` — the same @njit functions the batch kernel uses.
Build a position (``clear``, ``place``, ``set_plane``, ``set_weather``, ``set_pile``...),
act (``pickup``, ``drop``, ``fly``, ``anger``, ``maintenance``...), read back (``where``,
``anger_of``, ``plane``, ``money``, counters).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.games.now_boarding import data
from sim.games.now_boarding import layout as L
from sim.games.now_boarding import play as P

_POL = {"random": 0, "greedy": 1, "heuristic": 2}


class GameState:
    """One Now Boarding position. ``raw``: a config dict (as TOML parsed) or None for 4 greedy
    players; the game is set up from (seed, game_index) like game ``game_index`` of a run."""

    def __init__(self, raw: dict[str, Any] | None = None, seed: int = 0, game_index: int = 0,
                 players: int | None = None, section: dict | None = None, policy: str | None = None):
        from sim.config import load_dict, seat_tables
        from sim.games import get_game

        if raw is None:
            n = players or 4
            raw = {"game": "now_boarding", "seed": seed, "seats": [policy or "greedy"] * n,
                   "now_boarding": section or {}}
        self.cfg = load_dict(raw, "<GameState>")
        gdef = get_game("now_boarding")
        self.spec = gdef.compile(self.cfg)
        ep, ew, _perms, _ = seat_tables(self.cfg, gdef)
        self.pol = np.int64(ep[0])
        self.w = np.ascontiguousarray(ew[0])
        self.n = int(self.spec[L.K_NP])
        self.st = np.zeros(L.STATE_SIZE, np.int32)
        self.ev = np.zeros((20000, L.EV_W), np.int32)
        self.rng = np.zeros(2, np.uint64)
        from sim.rng import seed_streams

        seed_streams(self.rng, np.int64(seed), np.int64(game_index))
        self._op(P.OP_SETUP)

    # ------------------------------------------------------------------ plumbing
    def _op(self, op: int, a: int = 0, b: int = 0, c: int = 0) -> int:
        return int(P.gs_op(np.int64(op), self.st, self.spec, self.pol, self.w, self.rng, self.ev,
                           np.int64(a), np.int64(b), np.int64(c)))

    @staticmethod
    def airport(name: str | int) -> int:
        return name if isinstance(name, int) else data.AIRPORT_ID[name]

    def card(self, orig: str, dest: str) -> int:
        """Id of the regular passenger card orig -> dest."""
        o, d = self.airport(orig), self.airport(dest)
        for c in range(L.NCARD):
            if self.spec[L.K_CORIG + c] == o and self.spec[L.K_CDEST + c] == d:
                return c
        raise KeyError((orig, dest))

    def route(self, a: str, b: str) -> int:
        r = int(self.spec[L.K_BETWEEN + self.airport(a) * L.NA + self.airport(b)])
        if r < 0:
            raise KeyError((a, b))
        return r

    def pb(self, p: int) -> int:
        return L.PLANES + L.PB * p

    # ------------------------------------------------------------------ rigging
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
        for k in (L.S_COMPL, L.S_C_ANGER, L.S_C_LEFT, L.S_C_VIP, L.S_OVER, L.S_LOST_EARLY, L.S_NEV):
            st[k] = 0
        st[L.S_LOSS_STAGE] = -1
        st[L.S_TSEAT] = -1
        st[L.S_TSPEED] = -1
        for p in range(self.n):
            b = self.pb(p)
            for k in (L.P_LOAD, L.P_NCARR, L.P_NERV, L.P_CELEB, L.P_FARES, L.P_DELIV):
                st[b + k] = 0
            st[b + L.P_MONEY:b + L.P_MONEY + L.NFARE] = 0
            st[b + L.P_TCARD] = -1
        for i in range(L.NVIP):
            st[L.V_STATE + i] = 0
            st[L.V_STAGE + i] = -1

    def place(self, card: int, airport: str | int, anger: int = 0, vip: int = 0) -> int:
        """Put ``card`` waiting at ``airport`` (from wherever it was, pile excluded)."""
        st = self.st
        if st[L.C_PLACE + card] == L.PL_PILE:
            self._unpile(card)
        assert st[L.C_PLACE + card] in (L.PL_BOX, L.PL_WAIT), "place a card from the box or a pile"
        if st[L.C_PLACE + card] != L.PL_WAIT:
            st[L.ACTIVE + st[L.S_NACTIVE]] = card
            st[L.S_NACTIVE] += 1
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
            cands = [c for c in range(L.NCARD) if self.spec[L.K_CFARE + c] == f and self.spec[L.K_CIN + c]
                     and st[L.C_PLACE + c] in (L.PL_BOX, L.PL_PILE)]
            cands.sort(key=lambda c: st[L.C_PLACE + c] != L.PL_BOX)
            for c in cands:
                if st[L.C_PLACE + c] == L.PL_PILE:
                    self._unpile(c)
                st[L.C_PLACE + c] = L.PL_MONEY
                st[L.C_WHERE + c] = p
                st[self.pb(p) + L.P_MONEY + f] += 1
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
            st[b + L.P_AIR] = self.airport(airport)
            st[b + L.P_ROUTE] = -1
            st[b + L.P_OFF] = 0
        if route is not None:
            r = self.route(*route)
            st[b + L.P_AIR] = -1
            st[b + L.P_ROUTE] = r
            st[b + L.P_OFF] = offset if self.spec[L.K_RA + r] == self.airport(route[0]) else st[L.R_LEN + r] - offset
        if seats is not None:
            st[b + L.P_SEATS] = seats
        if speed is not None:
            st[b + L.P_SPEED] = speed
            st[b + L.P_SPLEFT] = speed
        if colours is not None:
            m = 1
            for c in colours:
                m |= 1 << data.COLOUR_ID[c]
            st[b + L.P_MASK] = m
            self._op(P.OP_DIST)
        if speed_left is not None:
            st[b + L.P_SPLEFT] = speed_left
        st[b + L.P_ACTLEFT] = actions if actions is not None else (1 << 30)

    def set_weather(self, tokens: list[tuple[str, str, str, int]]) -> None:
        """Replace the weather: (a, b, 'storm'|'tailwind', space counted from a)."""
        st = self.st
        for r in range(int(self.spec[L.K_NR])):
            st[L.W_TYPE + r] = 0
            st[L.W_SPACE + r] = 0
        for a, b, kind, space in tokens:
            r = self.route(a, b)
            k = int(self.spec[L.K_RSP + r])
            st[L.W_TYPE + r] = 1 if kind == "storm" else 2
            st[L.W_SPACE + r] = space if self.spec[L.K_RA + r] == self.airport(a) else k + 1 - space
        self._op(P.OP_RELEN)

    def set_pile(self, stage: int, cards: list[int]) -> None:
        """Make stage ``stage``'s remaining pile exactly ``cards`` (top first); the cards come from
        the box, the old remaining cards go to the box. Only for the current/next stages."""
        st = self.st
        pos = int(st[L.S_PILE_POS + stage])
        end = int(st[L.S_PILE_END + stage])
        for i in range(pos, end):
            st[L.C_PLACE + st[L.PILE + i]] = L.PL_BOX
        # rebuild the PILE array from this stage on
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
        """Refill every plane's move points for a new flight phase (no budget)."""
        budget = int(self.spec[L.K_BUDGET])
        for p in range(self.n):
            b = self.pb(p)
            self.st[b + L.P_SPLEFT] = self.st[b + L.P_SPEED]
            self.st[b + L.P_ACTLEFT] = budget if budget > 0 else (1 << 30)

    # ------------------------------------------------------------------ actions (shared rules)
    def can_pickup(self, p: int, card: int) -> int:
        return self._op(P.OP_CAN_PICK, p, card)

    def pickup(self, p: int, card: int) -> int:
        return self._op(P.OP_PICK, p, card)

    def can_drop(self, p: int, card: int) -> bool:
        return bool(self._op(P.OP_CAN_DROP, p, card))

    def drop(self, p: int, card: int) -> int:
        return self._op(P.OP_DROP, p, card)

    def fly(self, p: int, target: str | int) -> int:
        """One hop toward ``target``; returns the move points spent."""
        return self._op(P.OP_FLY, p, self.airport(target))

    def fly_to(self, p: int, target: str | int) -> int:
        """Hop until at ``target`` or out of move points; returns the total spent."""
        tot = 0
        while True:
            s = self.fly(p, target)
            if s == 0:
                return tot
            tot += s

    def dist(self, p: int, target: str | int) -> int:
        return self._op(P.OP_PDIST, p, self.airport(target))

    def anger(self) -> bool:
        """Anger and complaints (maintenance step 1); True when the game is lost."""
        return bool(self._op(P.OP_ANGER))

    def maintenance(self) -> int:
        return self._op(P.OP_MAINT)

    def flight(self, first: int = 0, check: bool = False) -> int:
        """A whole flight phase by the team policy, planes ordered from ``first``."""
        return self._op(P.OP_FLIGHT, first, 1 if check else 0)

    def step(self, p: int) -> bool:
        return bool(self._op(P.OP_STEP, p))

    def pay(self, p: int, amount: int) -> int:
        return self._op(P.OP_PAY, p, amount)

    def price(self, p: int, kind: int) -> int:
        return self._op(P.OP_PRICE, p, kind)

    def grant(self, p: int, kind: int, colour: int = 0) -> None:
        self._op(P.OP_GRANT, p, kind, colour)

    def buy(self, p: int) -> None:
        self._op(P.OP_BUY, p)

    def end_count(self) -> bool:
        return bool(self._op(P.OP_END))

    def draw(self, stage: int, vip_index: int = -1) -> int:
        return self._op(P.OP_DRAW, stage, vip_index)

    def check(self) -> int:
        return self._op(P.OP_CHECK)

    def legal_pickups(self, p: int) -> list[int]:
        return [c for c in self.active() if self.can_pickup(p, c)]

    def legal_drops(self, p: int) -> list[int]:
        return [c for c in self.active() if self.can_drop(p, c)]

    # ------------------------------------------------------------------ read back
    def active(self) -> list[int]:
        return [int(x) for x in self.st[L.ACTIVE:L.ACTIVE + self.st[L.S_NACTIVE]]]

    def where(self, card: int) -> tuple[str, int]:
        return L.PLACE_NAMES[self.st[L.C_PLACE + card]], int(self.st[L.C_WHERE + card])

    def anger_of(self, card: int) -> int:
        return int(self.st[L.C_ANGER + card])

    def plane(self, p: int) -> dict[str, int]:
        b = self.pb(p)
        st = self.st
        return {
            "airport": int(st[b + L.P_AIR]), "route": int(st[b + L.P_ROUTE]), "offset": int(st[b + L.P_OFF]),
            "seats": int(st[b + L.P_SEATS]), "speed": int(st[b + L.P_SPEED]), "mask": int(st[b + L.P_MASK]),
            "load": int(st[b + L.P_LOAD]), "carried": int(st[b + L.P_NCARR]), "speed_left": int(st[b + L.P_SPLEFT]),
            "fares": int(st[b + L.P_FARES]), "delivered": int(st[b + L.P_DELIV]),
        }

    def money(self, p: int) -> int:
        b = self.pb(p)
        return int(sum(v * self.st[b + L.P_MONEY + v] for v in range(L.NFARE)))

    def __getitem__(self, key: str) -> int:
        """State scalar by layout name without the ``S_`` prefix, e.g. ``gs['COMPL']``."""
        return int(self.st[getattr(L, "S_" + key)])

    def events(self) -> list[str]:
        from sim.games.now_boarding.trace import render

        return render(self.spec, self.ev, int(self.st[L.S_NEV]))
