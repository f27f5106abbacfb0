"""Yukon Airways policies: one dispatcher on the integer policy id.

* ``random``: uniform over the legal actions (POLICY stream).
* ``greedy``: the scoring below with the fixed weights ``data.GREEDY_WEIGHTS`` (money now,
  markers now; no look at dock order, far destinations or new places).
* ``heuristic``: the same scoring with the seat's weights (``data.HEURISTIC_WEIGHTS``:
  money, improvement, far, dock_order, keep_tickets, new_place), read as ``w[W_*]``.

Both scored policies take the first best-scoring action (``action_score``); the engine's
``temperature`` softmaxes over the same scores (``score_actions``, the ``scores`` hook). They
read only what a player at the table sees: the docks, the board's markers, their own hand and
cockpit. Which cards to give up (face down, burnt as fuel, tucked, discarded) is scored by
``card_worth``; whether to use a dock's ability by ``sc_ability`` (RULES.md "Policies").
"""

from __future__ import annotations

import numpy as np

from sim.games.engine import W_LA_BASE, inline_kernel, kernel, leaf_kernel
from sim.games.yukon_airways.layout import (
    D_CARDS_FUEL,
    D_CHRISTMAS,
    GREEDY_W,
    H_ACTOR,
    H_DEST,
    H_DOCK_DICE,
    H_FLIGHT,
    H_FREE,
    H_ROUND,
    IMP_PRIOR,
    K_ABILITY,
    K_BURN,
    K_BUY,
    K_DISCARD,
    K_EXTRA,
    K_FACEDOWN,
    K_FLY,
    K_GO,
    K_IMPROVE,
    K_MOVE,
    K_PLACE,
    K_TAKE,
    K_TICKET,
    K_TUCK,
    K_WILD,
    NCOL,
    NCOLG,
    NDIAL,
    NDOCK,
    NSYM,
    P_BONUS_FUEL,
    P_BONUS_MONEY,
    P_DOCK4_FUEL,
    P_DOCK5_FUEL,
    P_DOCK6_COST,
    P_FUELMAX,
    P_HUB,
    P_L,
    P_MARKER_MONEY,
    P_ROUNDS,
    P_SEATS,
    P_THRESH,
    POL_GREEDY,
    POL_HEURISTIC,
    POL_RANDOM,
    POL_ROLLOUT,
    SE_DIAL,
    SE_DOCK,
    SE_FUEL,
    SE_LOC,
    SE_MONEY,
    SE_PASSED,
    SE_R_MAXVAL,
    SE_SYM,
    SW_MARKER_MONEY,
    SW_PAIR_BONUS,
    SYM_FUEL,
    SYM_MONEY,
    W_DOCK_ORDER,
    W_FAR,
    W_IMPROVE,
    W_KEEP,
    W_MONEY,
    W_NEW_PLACE,
    W_REACH,
)
from sim.games.yukon_airways.rules import (
    aboard,
    aboard_colour,
    cockpit_at,
    dial_value,
    die_at,
    dock_colour,
    flight_colour_count,
    fuel_cost,
    hand_at,
    hand_total,
    map_at,
    se,
    switch_on,
    wild_size,
)
from sim.rng import POLICY, randint

CX_ABOARD = 0
CX_FREE = 1
CX_GROUP = 2
CX_BEST = 3
CTX = 4
"""Slots of the per-decision context: dice aboard, free seats, the largest colour group on the
seat's dock and its colour. The dice aboard by colour and on each dock by colour are the
state's counters (``rules.aboard_colour``, ``rules.dock_colour``)."""
PASSENGER = 3.0
"""Value (in $ of w_money) of a die aboard: about what it earns when flown."""
_PRIOR = np.array(IMP_PRIOR, np.float64)
_GREEDY = np.array(GREEDY_W, np.float64)


@kernel
def seat_weights(pids, W):
    """Give the greedy seats (and the rollout seats whose base is greedy) their fixed weights
    (``data.GREEDY_WEIGHTS``) in the leading slots of ``W`` (float64[S, N_WEIGHTS +
    LOOKAHEAD_W], modified in place)."""
    for s in range(pids.shape[0]):
        if pids[s] == POL_GREEDY or (pids[s] == POL_ROLLOUT and W[s, W_LA_BASE] == POL_GREEDY):
            W[s, : _GREEDY.shape[0]] = _GREEDY


@inline_kernel
def best_group(state, k, free, colours):
    """Dice a seat could board at dock ``k`` (the dock counters ``H_DOCK_DICE``): the largest
    ``colours`` colour groups, at most ``free`` dice; returns (dice, best colour)."""
    best = 0
    bc = -1
    second = 0
    for c in range(NCOL):
        m = state[H_DOCK_DICE + k * NCOL + c]
        if m > best:
            second = best
            best = m
            bc = c
        elif m > second:
            second = m
    n = best + (second if colours > 1 else 0)
    return min(n, free), bc


@leaf_kernel
def card_reachable(state, spec, s, x):
    """True when seat ``s`` can still fly to location ``x``: on a later day from the hub with a
    full tank and its cards-as-fuel dial, or today (its last flight not made) from where the
    plane is or lands, with the tank left after the flight being loaded and the dial (one
    card kept for the ticket)."""
    p = spec[0]
    dist = spec[1]
    dial = dial_value(state, spec, s, D_CARDS_FUEL)
    if state[H_ROUND] + 1 < p[P_ROUNDS] and dist[p[P_HUB], x] <= p[P_FUELMAX] + dial:
        return True
    if state[se(p, s, SE_PASSED)] == 1:
        return False
    here = state[se(p, s, SE_LOC)]
    fuel = state[se(p, s, SE_FUEL)]
    if state[H_FLIGHT] == 1 and state[H_ACTOR] == s:
        fuel = max(0, fuel - fuel_cost(state, spec, s, state[H_DEST]))
        here = state[H_DEST]
    return dist[here, x] <= fuel + min(dial, max(0, hand_total(state, spec, s) - 1))


@inline_kernel
def card_worth(state, spec, s, t, w):
    """How much seat ``s`` likes to keep ticket card type ``t`` (RULES.md "Policies"): 1 for any
    card (it can still be laid face down, tucked or burnt), plus 0.2 x its destination's value
    while the destination can be reached (``card_reachable``), plus, then, 0.2 x its far bonus
    and 0.2 x ``w[W_IMPROVE]`` when a passenger aboard has a marker of its colour there. The
    weight ``w[W_REACH]`` blends: 0 values every card by its destination's value alone (the
    cheapest location is given up first, the fixed rule of rules version 2), 1 as above."""
    p = spec[0]
    loc = spec[2]
    x = t // NSYM
    r = w[W_REACH]
    v = 0.2 * loc[x, 0]
    if r <= 0.0:
        return 1.0 + v
    if not card_reachable(state, spec, s, x):
        return 1.0 + v * (1.0 - r)
    v += r * 0.2 * loc[x, 1]
    for c in range(NCOL):
        if aboard_colour(state, spec, s, c) > 0 and state[map_at(p, x, c)] > 0:
            v += r * 0.2 * w[W_IMPROVE]
            break
    return 1.0 + v


@inline_kernel
def sc_ability(state, spec, s, a, w):
    """Score of using (``a`` 1) or not (0) the ability of the seat's dock (RB Boardingphase b):
    a card drawn at dock 2 is worth ``w[W_KEEP]`` x 3; fuel at docks 4 and 5 0.3 x
    ``w[W_MONEY]`` per fuel the tank takes. Both are never harmful, so a scoring policy uses
    them (``legal_actions`` asks only when using one changes something)."""
    if a == 0:
        return 0.0
    p = spec[0]
    k = state[se(p, s, SE_DOCK)]
    if k == 1:
        return 3.0 * w[W_KEEP]
    gain = p[P_DOCK4_FUEL] if k == 3 else p[P_DOCK5_FUEL]
    gain = min(gain, p[P_FUELMAX] - state[se(p, s, SE_FUEL)])
    return 0.3 * w[W_MONEY] * gain


@inline_kernel
def fill_context(state, spec, s, ctx):
    """What every action of one decision looks at, computed once per decision into ``ctx``
    (int64[CTX]): dice aboard, free seats, the largest colour group on the seat's dock and its
    colour."""
    p = spec[0]
    n = aboard(state, spec, s)
    ctx[CX_ABOARD] = n
    ctx[CX_FREE] = p[P_SEATS] - n
    k = state[se(p, s, SE_DOCK)]
    g = 0
    bc = -1
    if k >= 0:
        g, bc = best_group(state, k, ctx[CX_FREE], 1)
    ctx[CX_GROUP] = g
    ctx[CX_BEST] = bc


@inline_kernel
def sc_place(state, spec, s, a, w, ctx):
    """Score of placing at dock ``a``: dice to board, flight order, the dock's ability."""
    p = spec[0]
    wm = w[W_MONEY]
    free = ctx[CX_FREE]
    g, bc = best_group(state, a, free, 2 if a == 2 else 1)
    v = g * PASSENGER * wm + w[W_DOCK_ORDER] * (NDOCK - a)
    if a == 1:
        v += w[W_KEEP]
    elif a == 3:
        v += 0.5 * wm
        if bc >= 0 and g < free:
            if dock_colour(state, spec, (a + NDOCK - 1) % NDOCK, bc) > 0 or \
                    dock_colour(state, spec, (a + 1) % NDOCK, bc) > 0:
                v += 0.8 * PASSENGER * wm
    elif a == 4:
        v += 1.0 * wm
    elif a == 5:
        if state[se(p, s, SE_MONEY)] >= p[P_DOCK6_COST]:
            v += w[W_IMPROVE] - wm * p[P_DOCK6_COST]
    return v


@inline_kernel
def sc_improve(state, spec, s, kind, w):
    """Value of improvement ``kind``: the Christmas dial's next step and the marker_money
    switch in money at the end; any other by its rank (``IMPROVEMENT_PRIOR``) times the share
    of the game still to play."""
    p = spec[0]
    dials = spec[4]
    if kind == D_CHRISTMAS:
        st = state[se(p, s, SE_DIAL + D_CHRISTMAS)]
        return w[W_MONEY] * (dials[D_CHRISTMAS, 2 + st] - dials[D_CHRISTMAS, 1 + st])
    if kind == NDIAL + SW_MARKER_MONEY:
        best = 0
        for c in range(NCOL):
            m = 0
            for l in range(p[P_L]):
                m += state[cockpit_at(p, s, l, c)]
            best = max(best, m)
        return w[W_MONEY] * p[P_MARKER_MONEY] * (best + 1)
    left = p[P_ROUNDS] - state[H_ROUND]
    return w[W_IMPROVE] * _PRIOR[kind] * left / p[P_ROUNDS]


@inline_kernel
def sc_move(state, spec, s, a, b, w, ctx):
    """Score of moving die ``a`` one dock (``b`` 0 down / 1 up): only a die of the colour
    the seat will take, onto its own dock, while seats are free."""
    p = spec[0]
    dcol = spec[8]
    k = state[se(p, s, SE_DOCK)]
    frm = state[die_at(p, a)]
    to = (frm + (NDOCK - 1 if b == 0 else 1)) % NDOCK
    if to != k or frm == k:
        return -100.0
    free = ctx[CX_FREE]
    g = ctx[CX_GROUP]
    bc = ctx[CX_BEST]
    if g >= free or (bc >= 0 and dcol[a] != bc):
        return -100.0
    cost = 0.0 if state[H_FREE] > 0 else w[W_MONEY]
    return PASSENGER * w[W_MONEY] * 0.5 - cost


@inline_kernel
def sc_take(state, spec, a, b, w):
    """Score of taking ``b`` dice of colour ``a``."""
    p = spec[0]
    markers = 0
    for l in range(p[P_L]):
        markers += state[map_at(p, l, a)]
    wm = w[W_MONEY]
    return b * (PASSENGER * wm - 0.3 * wm) + (0.3 * w[W_IMPROVE] if markers > 0 else 0.0)


@inline_kernel
def sc_fly(state, spec, s, a, w, ctx):
    """Score of flying to ``a``: income gained, far bonus, matching markers, a new place,
    minus fuel and cards burnt."""
    p = spec[0]
    loc = spec[2]
    wm = w[W_MONEY]
    n = ctx[CX_ABOARD]
    tick = 0
    for y in range(NSYM):
        tick += state[hand_at(p, s, a * NSYM + y)]
    k = min(n, max(tick, 1))
    v = max(0, loc[a, 0] - state[se(p, s, SE_R_MAXVAL)]) * wm * (1.0 + 0.1 * w[W_FAR])
    v += k * wm + loc[a, 1] * k * w[W_FAR]
    for c in range(NCOL):
        v += min(aboard_colour(state, spec, s, c), state[map_at(p, a, c)]) * w[W_IMPROVE]
    seen = 0
    for c in range(NCOLG):
        seen += state[cockpit_at(p, s, a, c)]
    if seen == 0:
        v += w[W_NEW_PLACE]
    cost = fuel_cost(state, spec, s, a)
    short = cost - state[se(p, s, SE_FUEL)]
    v -= 0.3 * wm * cost
    if short > 0:
        v -= short * w[W_KEEP] * 1.5
    return v


@inline_kernel
def sc_load(state, spec, s, kind, a, b, w):
    """Score of a passenger (ticket ``a``/colour ``b``, face-down or second die of colour ``a``)."""
    p = spec[0]
    c = b if kind == K_TICKET else a
    dest = state[H_DEST]
    v = w[W_MONEY]
    if state[map_at(p, dest, c)] > flight_colour_count(state, c):
        v += w[W_IMPROVE]
    if kind == K_WILD:
        v -= w[W_KEEP] * wild_size(state, spec, s)
    if kind == K_TICKET and state[se(p, s, SE_SYM + a)] + 1 >= p[P_THRESH]:
        v += 0.3 * w[W_MONEY]
    return v


@inline_kernel
def sc_tuck(state, spec, s, a, w):
    """Score of tucking card type ``a``: the bonus it completes minus the card."""
    p = spec[0]
    y = a % NSYM
    th = p[P_THRESH] - (1 if switch_on(state, spec, s, SW_PAIR_BONUS) == 1 and p[P_THRESH] > 1 else 0)
    keep = w[W_KEEP] * card_worth(state, spec, s, a, w)
    if state[se(p, s, SE_SYM + y)] + 1 < th:
        return -keep
    if y == SYM_MONEY:
        gain = p[P_BONUS_MONEY] * w[W_MONEY]
    elif y == SYM_FUEL:
        gain = 0.4 * p[P_BONUS_FUEL] * w[W_MONEY]
    else:
        gain = w[W_IMPROVE]
    return gain - keep


@inline_kernel
def action_score(state, spec, s, w, acts, i, ctx):
    """Score of action ``i`` of ``acts`` for seat ``s`` (higher is better; ``ctx`` filled by
    ``fill_context``): one small scoring function per action kind."""
    p = spec[0]
    kind = acts[i, 0]
    a = acts[i, 1]
    b = acts[i, 2]
    if kind == K_PLACE:
        v = sc_place(state, spec, s, a, w, ctx)
    elif kind == K_BUY or kind == K_IMPROVE:
        v = 0.0
        if a >= 0:
            v = sc_improve(state, spec, s, a, w) - (w[W_MONEY] * p[P_DOCK6_COST] if kind == K_BUY else 0.0)
    elif kind == K_MOVE:
        v = sc_move(state, spec, s, a, b, w, ctx)
    elif kind == K_TAKE:
        v = sc_take(state, spec, a, b, w)
    elif kind == K_FLY:
        v = sc_fly(state, spec, s, a, w, ctx)
    elif kind == K_TICKET or kind == K_WILD or kind == K_EXTRA:
        v = sc_load(state, spec, s, kind, a, b, w)
    elif kind == K_TUCK:
        v = sc_tuck(state, spec, s, a, w)
    elif kind == K_GO:
        v = 0.5
    elif kind == K_DISCARD or kind == K_FACEDOWN or kind == K_BURN:
        v = -card_worth(state, spec, s, a, w)
    elif kind == K_ABILITY:
        v = sc_ability(state, spec, s, a, w)
    else:
        v = 0.0
    return v


@inline_kernel
def select_scored(state, spec, w, acts, n, ctx):
    """Index of the best-scoring of the ``n`` legal ``acts`` (first of equals; ``action_score``)."""
    s = state[H_ACTOR]
    fill_context(state, spec, s, ctx)
    best = 0
    bv = -1e18
    for i in range(n):
        v = action_score(state, spec, s, w, acts, i, ctx)
        if v > bv:
            bv = v
            best = i
    return best


@leaf_kernel
def select(state, spec, pid, w, acts, n, rng, ctx):
    """Index of the action policy ``pid`` chooses among the ``n`` legal ``acts``
    (int32[MAX_ACTS, ACT_W]) for the seat to decide; ``w`` its weights (float64[N_WEIGHTS]),
    ``ctx`` a scratch int64[CTX]."""
    if pid == POL_RANDOM:
        return randint(rng, POLICY, n)
    return select_scored(state, spec, w, acts, n, ctx)


@leaf_kernel
def score_actions(state, spec, pid, w, acts, n, ctx, out):
    """The engine's ``scores`` hook: ``action_score`` of each of the ``n`` legal ``acts`` into
    ``out`` (float64[>= n]) for greedy and heuristic, the scores ``select_scored`` takes the
    first best of; returns the actions scored, n, or 0 (another policy, or one action)."""
    if n <= 1 or (pid != POL_GREEDY and pid != POL_HEURISTIC):
        return 0
    s = state[H_ACTOR]
    fill_context(state, spec, s, ctx)
    for i in range(n):
        out[i] = action_score(state, spec, s, w, acts, i, ctx)
    return n
