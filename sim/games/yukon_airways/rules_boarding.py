"""Yukon Airways rules, phase 1: boarding (RB Boardingphase).

One of the rules modules split by rulebook phase (issue 32); ``rules.py`` re-exports every
function, so ``from sim.games.yukon_airways.rules import X`` keeps working. Layout and
encodings: ``layout.py``; decisions on ambiguities: ``RULES.md``.
"""

from __future__ import annotations

from sim.games.engine import emit, leaf_kernel
from sim.games.yukon_airways.layout import (
    D_BONUS_FUEL,
    E_DOCK,
    E_ORDER,
    E_PLACE,
    E_REFUEL,
    H_ARRIVAL,
    H_COLOURS,
    H_FREE,
    H_POS,
    H_TAKEN,
    H_TURN,
    NCOL,
    P_DOCK4_FUEL,
    P_DOCK5_FUEL,
    P_DOCK6_COST,
    P_FREE_MOVES,
    P_OFF_TURN,
    P_S,
    P_SEATS,
    SE_ARRIVE,
    SE_DOCK,
    SE_DOCKS,
    SE_FUEL,
    SE_MONEY,
    STEP_BUY,
    STEP_MOVE,
    SW_FREE_MOVES,
    SW_TWO_COLOURS,
)
from sim.games.yukon_airways.rules_common import (
    aboard,
    add_fuel,
    any_improvable,
    dial_value,
    dock_colour,
    draw_cards,
    se,
    switch_on,
)
from sim.games.yukon_airways.rules_turns import start_boarding_turn, start_flight_turn


# ---- phase 1: boarding (RB Boardingphase) --------------------------------------------------------
@leaf_kernel
def can_take(state, spec, s):
    """True when seat ``s`` can still take a die (RB Boardingphase c): a free seat on its
    plane, colours left to take and a die of an untaken colour on its dock."""
    p = spec[0]
    if state[H_COLOURS] <= 0 or aboard(state, spec, s) >= p[P_SEATS]:
        return False
    k = state[se(p, s, SE_DOCK)]
    for c in range(NCOL):
        if (state[H_TAKEN] >> c) & 1 == 0 and dock_colour(state, spec, k, c) > 0:
            return True
    return False


@leaf_kernel
def place_marker(state, spec, s, k, ev, evn):
    """RB Boardingphase a+b: the marker goes to dock ``k`` (under markers already there: a
    later arrival), then the dock's ability (RB Appendix Stege): 1 none; 2 draw a ticket;
    3 dice of two colours; 4 one free die move and +1 fuel; 5 two fuel; 6 pay for an
    improvement (a decision, STEP_BUY). Abilities 2, 4, 5 never hurt and are always used
    (RULES.md S2)."""
    p = spec[0]
    state[se(p, s, SE_DOCK)] = k
    state[se(p, s, SE_ARRIVE)] = state[H_ARRIVAL]
    state[H_ARRIVAL] += 1
    state[se(p, s, SE_DOCKS + k)] += 1
    state[H_FREE] = p[P_FREE_MOVES] if switch_on(state, spec, s, SW_FREE_MOVES) == 1 else 0
    state[H_COLOURS] = 1 + switch_on(state, spec, s, SW_TWO_COLOURS)
    state[H_TAKEN] = 0
    emit(ev, evn, state[H_TURN], s, E_PLACE, k, state[se(p, s, SE_ARRIVE)], 0, 0, 0)
    return k


@leaf_kernel
def dock_ability(state, spec, s, k, rng, ev, evn):
    """RB Appendix Stege, the automatic abilities of dock ``k`` (0-based) for seat ``s``;
    returns the next step (STEP_BUY for dock 6 when the seat can pay and improve)."""
    p = spec[0]
    if k == 1:
        draw_cards(state, spec, s, 1, rng, ev, evn)
        emit(ev, evn, state[H_TURN], s, E_DOCK, k, 1, 0, 0, 0)
    elif k == 2:
        state[H_COLOURS] += 1
        emit(ev, evn, state[H_TURN], s, E_DOCK, k, state[H_COLOURS], 0, 0, 0)
    elif k == 3:
        state[H_FREE] += 1
        add_fuel(state, spec, s, p[P_DOCK4_FUEL])
        emit(ev, evn, state[H_TURN], s, E_DOCK, k, state[H_FREE], state[se(p, s, SE_FUEL)], 0, 0)
    elif k == 4:
        add_fuel(state, spec, s, p[P_DOCK5_FUEL])
        emit(ev, evn, state[H_TURN], s, E_DOCK, k, state[se(p, s, SE_FUEL)], 0, 0, 0)
    elif k == 5:
        if state[se(p, s, SE_MONEY)] >= p[P_DOCK6_COST] and any_improvable(state, spec, s):
            return STEP_BUY
    return STEP_MOVE


@leaf_kernel
def order_key(state, p, s):
    """Seat ``s``'s place in the new turn order: its dock, then its arrival (RB Boardingphase)."""
    return state[se(p, s, SE_DOCK)] * 64 + state[se(p, s, SE_ARRIVE)]


@leaf_kernel
def finish_boarding_turn(state, spec, s, ev, evn):
    """RB Boardingphase d: refuel (+1 per free barrel space, i.e. free seat, plus the bonus
    fuel dial; the tank caps it), then the next seat boards; after the last one the new turn
    order is set (RB: lowest dock first, top to bottom on a dock) and flights begin."""
    p = spec[0]
    S = p[P_S]
    gain = p[P_SEATS] - aboard(state, spec, s) + dial_value(state, spec, s, D_BONUS_FUEL)
    add_fuel(state, spec, s, gain)
    emit(ev, evn, state[H_TURN], s, E_REFUEL, gain, state[se(p, s, SE_FUEL)], 0, 0, 0)
    pos = state[H_POS] + 1
    if pos < S:
        start_boarding_turn(state, spec, pos)
        return
    # new turn order: by (dock, arrival); insertion sort of the S seats in place
    to = p[P_OFF_TURN]
    for i in range(S):
        state[to + i] = i
    for i in range(1, S):
        j = i
        while j > 0 and order_key(state, p, state[to + j - 1]) > order_key(state, p, state[to + j]):
            t = state[to + j - 1]
            state[to + j - 1] = state[to + j]
            state[to + j] = t
            j -= 1
    order = state[to:to + S]
    emit(ev, evn, state[H_TURN], -1, E_ORDER, order[0], order[1] if S > 1 else -1,
         order[2] if S > 2 else -1, order[3] if S > 3 else -1, 0)
    start_flight_turn(state, spec, 0)
