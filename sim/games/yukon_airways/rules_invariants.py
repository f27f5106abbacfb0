"""Yukon Airways rules, the invariants checked after every step (``sim check``, tests).

One of the rules modules split by rulebook phase (issue 32); ``rules.py`` re-exports every
function, so ``from sim.games.yukon_airways.rules import X`` keeps working. Layout and
encodings: ``layout.py``; decisions on ambiguities: ``RULES.md``.
"""

from __future__ import annotations

import numpy as np

from sim.games.engine import kernel
from sim.games.yukon_airways.layout import (
    DP_LOADING,
    DP_PLANE,
    DP_TICKET,
    GREY,
    H_ACTOR,
    H_DECK_N,
    H_DISC_N,
    H_FLIGHT,
    H_GREY_LEFT,
    H_MONEY_IN,
    H_MONEY_OUT,
    NCOL,
    NDIAL,
    NSW,
    P_FUELMAX,
    P_GREY,
    P_L,
    P_MARKERS,
    P_NDICE,
    P_NT,
    P_OFF_DECK,
    P_OFF_DISC,
    P_OFF_POOL,
    P_S,
    P_SEATS,
    P_TWO_COLOUR_SW,
    SE_DIAL,
    SE_FUEL,
    SE_MONEY,
    SE_SW,
    SW_TWO_COLOURS,
    V_CARDS,
    V_COUNTERS,
    V_DIALS,
    V_DICE,
    V_FUEL,
    V_GREY,
    V_MARKERS,
    V_MONEY,
    V_NEG_HAND,
)
from sim.games.yukon_airways.rules_common import cockpit_at, die_at, hand_at, map_at, recount, se, table_at


# ---- invariants ---------------------------------------------------------------------------------
@kernel
def check_invariants(state, spec):
    """0, or the first violated invariant (``layout.V_*``): every ticket card in exactly one
    place (deck, discard, hands, table; per type), no negative hand count, every die in one
    place (a dock, a plane, a ticket; the flight being loaded only while it is, ``H_FLIGHT``)
    with planes within their seats, every coloured marker
    in one place (box, board, cockpits), the grey supply balanced, money non-negative and
    the bank's books balanced, dials and switches in range, fuel in 0..max outside a flight;
    the dice and hand counters equal to a recount (``recount``)."""
    p, dist, loc, deck, dials, orders, visited, planes, dcol, tcount = spec
    S = p[P_S]
    L = p[P_L]
    NT = p[P_NT]
    cnt = np.zeros(NT, np.int64)
    for i in range(state[H_DECK_N]):
        cnt[state[p[P_OFF_DECK] + i]] += 1
    for i in range(state[H_DISC_N]):
        cnt[state[p[P_OFF_DISC] + i]] += 1
    for s in range(S):
        for t in range(NT):
            h = state[hand_at(p, s, t)]
            if h < 0 or state[table_at(p, s, t)] < 0:
                return V_NEG_HAND
            cnt[t] += h + state[table_at(p, s, t)]
    for t in range(NT):
        if cnt[t] != tcount[t]:
            return V_CARDS
    onplane = np.zeros(S, np.int64)
    for d in range(p[P_NDICE]):
        pl = state[die_at(p, d)]
        sd = state[die_at(p, d) + 1]
        if pl < 0 or pl > DP_LOADING:
            return V_DICE
        if pl >= DP_PLANE:
            if sd < 0 or sd >= S:
                return V_DICE
            if pl == DP_LOADING and (state[H_FLIGHT] != 1 or sd != state[H_ACTOR]):
                return V_DICE
            if pl != DP_TICKET:
                onplane[sd] += 1
    for s in range(S):
        if onplane[s] > p[P_SEATS]:
            return V_DICE
    greys = 0
    for c in range(NCOL):
        m = state[p[P_OFF_POOL] + c]
        for l in range(L):
            m += state[map_at(p, l, c)]
            for s in range(S):
                m += state[cockpit_at(p, s, l, c)]
        if m != p[P_MARKERS]:
            return V_MARKERS
    for s in range(S):
        for l in range(L):
            greys += state[cockpit_at(p, s, l, GREY)]
    if p[P_GREY] > 0 and greys + state[H_GREY_LEFT] != p[P_GREY]:
        return V_GREY
    total = 0
    for s in range(S):
        m = state[se(p, s, SE_MONEY)]
        if m < 0:
            return V_MONEY
        total += m
    if total != state[H_MONEY_IN] - state[H_MONEY_OUT]:
        return V_MONEY
    for s in range(S):
        for dd in range(NDIAL):
            v = state[se(p, s, SE_DIAL + dd)]
            if v < 0 or v >= dials[dd, 0]:
                return V_DIALS
        for j in range(NSW):
            v = state[se(p, s, SE_SW + j)]
            if v < 0 or v > 1 or (j == SW_TWO_COLOURS and v == 1 and p[P_TWO_COLOUR_SW] == 0):
                return V_DIALS
        f = state[se(p, s, SE_FUEL)]
        if f < 0 or f > p[P_FUELMAX]:
            return V_FUEL
    fresh = state.copy()
    recount(fresh, spec)
    for i in range(state.shape[0]):
        if fresh[i] != state[i]:
            return V_COUNTERS
    return 0
