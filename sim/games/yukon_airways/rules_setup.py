"""Yukon Airways rules, set-up (RB Vorbereitung).

One of the rules modules split by rulebook phase (issue 32); ``rules.py`` re-exports every
function, so ``from sim.games.yukon_airways.rules import X`` keeps working. Layout and
encodings: ``layout.py``; decisions on ambiguities: ``RULES.md``.
"""

from __future__ import annotations

import numpy as np

from sim.games.engine import emit, kernel, shuffle_or_rig
from sim.games.yukon_airways.layout import (
    E_START,
    H_DECK_N,
    H_GREY_LEFT,
    H_MONEY_IN,
    NCOL,
    P_DEAL,
    P_FIXED0,
    P_FIXED_ORDERS,
    P_FUEL0,
    P_GREY,
    P_HUB,
    P_L,
    P_MARKERS,
    P_MONEY0,
    P_NCARDS,
    P_NDICE,
    P_NORD,
    P_NORDP,
    P_OFF_DECK,
    P_OFF_ORDERS,
    P_OFF_POOL,
    P_OFF_TURN,
    P_S,
    SE_DOCK,
    SE_FUEL,
    SE_LOC,
    SE_MONEY,
    SE_START_POS,
)
from sim.games.yukon_airways.rules_common import draw_card, improve, map_at, roll_die_to_dock, se
from sim.games.yukon_airways.rules_turns import begin_round
from sim.rng import CHANCE, randint, shuffle


# ---- set-up (RB Vorbereitung) --------------------------------------------------------------------
@kernel
def setup(state, spec, rng, rig_deck, rig_dice, ev, evn):
    """Set up game (RB Vorbereitung) into ``state`` (int32[p[P_SIZE]], zeroed here):
    three order cards face up (shuffled, or ``fixed_orders``); the day track on Tuesday;
    every cockpit at its lowest values, fuel 4, switches off; the seaplane card's starting
    improvement; the ticket deck shuffled (or ``rig_deck``, card types in draw order) and six
    cards dealt to each seat; planes at Whitehorse; every die rolled (``rig_dice``) onto the
    dock of its face; as many coloured markers as players drawn at random onto every
    location but Whitehorse; a random start player, turn order clockwise from it, start money
    $1, $2, ... by turn order. Chance draws in that order from the CHANCE stream."""
    p, dist, loc, deck, dials, orders, visited, planes, dcol, tcount = spec
    S = p[P_S]
    L = p[P_L]
    state[:] = 0
    # order cards
    nordp = p[P_NORDP]
    if p[P_FIXED_ORDERS] == 1:
        for i in range(nordp):
            state[p[P_OFF_ORDERS] + i] = p[P_FIXED0 + i]
    else:
        idx = np.arange(p[P_NORD]).astype(np.int32)
        shuffle(idx, 0, idx.shape[0], rng, CHANCE)
        for i in range(nordp):
            state[p[P_OFF_ORDERS] + i] = idx[i]
    # cockpits and planes
    for s in range(S):
        state[se(p, s, SE_FUEL)] = p[P_FUEL0]
        state[se(p, s, SE_LOC)] = p[P_HUB]
        state[se(p, s, SE_DOCK)] = -1
        if planes[s] >= 0:
            improve(state, spec, s, planes[s], False)
    # tickets
    nc = p[P_NCARDS]
    for i in range(nc):
        state[p[P_OFF_DECK] + i] = deck[i]
    shuffle_or_rig(state, p[P_OFF_DECK], p[P_OFF_DECK] + nc, rng, CHANCE, rig_deck)
    if rig_deck.shape[0] > 0:  # the rig lists the first card drawn first; the top is the end
        o = p[P_OFF_DECK]
        for i in range(nc // 2):
            t = state[o + i]
            state[o + i] = state[o + nc - 1 - i]
            state[o + nc - 1 - i] = t
    state[H_DECK_N] = nc
    for s in range(S):
        for _ in range(p[P_DEAL]):
            draw_card(state, spec, s, rng, ev, evn)
    # dice
    for d in range(p[P_NDICE]):
        roll_die_to_dock(state, spec, d, rng, rig_dice, ev, evn)
    # location markers
    m = p[P_MARKERS]
    bag = np.empty(NCOL * m, np.int32)
    for c in range(NCOL):
        for i in range(m):
            bag[c * m + i] = c
    shuffle(bag, 0, bag.shape[0], rng, CHANCE)
    k = 0
    for l in range(L):
        if l == p[P_HUB]:
            continue
        for _ in range(S):
            state[map_at(p, l, bag[k])] += 1
            k += 1
    for i in range(k, bag.shape[0]):
        state[p[P_OFF_POOL] + bag[i]] += 1
    state[H_GREY_LEFT] = p[P_GREY] if p[P_GREY] > 0 else -1
    # start player, turn order, start money
    first = randint(rng, CHANCE, S)
    for i in range(S):
        s = (first + i) % S
        state[p[P_OFF_TURN] + i] = s
        state[se(p, s, SE_START_POS)] = i
        state[se(p, s, SE_MONEY)] = p[P_MONEY0 + i]
        state[H_MONEY_IN] += p[P_MONEY0 + i]
    emit(ev, evn, 0, first, E_START, 0, 0, 0, 0, 0)
    begin_round(state, spec, ev, evn)
