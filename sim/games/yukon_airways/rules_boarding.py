"""Yukon Airways rules, phase 1: boarding (RB Boardingphase).

One of the rules modules split by rulebook phase (issue 32); ``rules.py`` re-exports every
function, so ``from sim.games.yukon_airways.rules import X`` keeps working. Layout and
encodings: ``layout.py``; decisions on ambiguities: ``RULES.md``.
"""

from __future__ import annotations

from sim.games.engine import emit, inline_kernel, leaf_kernel
from sim.games.yukon_airways.layout import (
    D_BONUS_FUEL,
    E_DOCK,
    E_ORDER,
    E_PLACE,
    E_REFUEL,
    H_ARRIVAL,
    H_COLOURS,
    H_DECK_N,
    H_DISC_N,
    H_FREE,
    H_POS,
    H_TAKEN,
    H_TURN,
    NCOL,
    P_DOCK4_FUEL,
    P_DOCK5_FUEL,
    P_DOCK6_COST,
    P_FREE_MOVES,
    P_FUELMAX,
    P_OFF_TURN,
    P_S,
    P_SEATS,
    SE_ARRIVE,
    SE_DOCK,
    SE_DOCKS,
    SE_FUEL,
    SE_MONEY,
    STEP_ABILITY,
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
    """RB Boardingphase a: the marker goes to dock ``k`` (under markers already there: a
    later arrival); ``dock_ability`` follows (b)."""
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


@inline_kernel
def dock_ability(state, spec, s, k, ev, evn):
    """RB Boardingphase b, "Wenn gewollt, kann die Aktion des gewählten Stegs genutzt werden",
    and Appendix Stege, for seat ``s`` at dock ``k`` (0-based); returns the next step. Using
    an ability is the seat's choice (RULES.md S2): docks 2 (draw a ticket), 4 (+1 fuel) and 5
    (+2 fuel) ask (STEP_ABILITY, ``use_ability``) when using it changes something (a card left
    to draw; fuel below the tank's top); dock 6 asks whether to pay for an improvement
    (STEP_BUY) when the seat can pay and improve. Dock 3's second colour and dock 4's free die
    move are granted here: taking or moving is itself optional (steps take and move)."""
    p = spec[0]
    if k == 1:
        if state[H_DECK_N] + state[H_DISC_N] > 0:
            return STEP_ABILITY
    elif k == 2:
        state[H_COLOURS] += 1
        emit(ev, evn, state[H_TURN], s, E_DOCK, k, state[H_COLOURS], 0, 0, 0)
    elif k == 3:
        state[H_FREE] += 1
        emit(ev, evn, state[H_TURN], s, E_DOCK, k, state[H_FREE], -1, 0, 0)
        if p[P_DOCK4_FUEL] > 0 and state[se(p, s, SE_FUEL)] < p[P_FUELMAX]:
            return STEP_ABILITY
    elif k == 4:
        if p[P_DOCK5_FUEL] > 0 and state[se(p, s, SE_FUEL)] < p[P_FUELMAX]:
            return STEP_ABILITY
    elif k == 5:
        if state[se(p, s, SE_MONEY)] >= p[P_DOCK6_COST] and any_improvable(state, spec, s):
            return STEP_BUY
    return STEP_MOVE


@inline_kernel
def use_ability(state, spec, s, k, rng, ev, evn):
    """Seat ``s`` uses the ability of dock ``k`` (0-based; STEP_ABILITY, RB Appendix Stege):
    2 draws a ticket, 4 adds one fuel, 5 two fuel (the tank caps it)."""
    p = spec[0]
    if k == 1:
        draw_cards(state, spec, s, 1, rng, ev, evn)
        emit(ev, evn, state[H_TURN], s, E_DOCK, k, 1, 0, 0, 0)
    elif k == 3:
        add_fuel(state, spec, s, p[P_DOCK4_FUEL])
        emit(ev, evn, state[H_TURN], s, E_DOCK, k, -1, state[se(p, s, SE_FUEL)], 0, 0)
    elif k == 4:
        add_fuel(state, spec, s, p[P_DOCK5_FUEL])
        emit(ev, evn, state[H_TURN], s, E_DOCK, k, state[se(p, s, SE_FUEL)], 0, 0, 0)


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
