"""Yukon Airways rules, the order of play (RB Spielablauf): a new day begins with the boarding
phase, and who takes the next boarding or flight turn.

One of the rules modules split by rulebook phase (issue 32); ``rules.py`` re-exports every
function, so ``from sim.games.yukon_airways.rules import X`` keeps working. Layout and
encodings: ``layout.py``; decisions on ambiguities: ``RULES.md``.
"""

from __future__ import annotations

from sim.games.engine import emit, leaf_kernel
from sim.games.yukon_airways.layout import (
    E_ROUND,
    H_ACTOR,
    H_ARRIVAL,
    H_POS,
    H_ROUND,
    H_STEP,
    H_TURN,
    NCOL,
    NSYM,
    P_OFF_TURN,
    P_S,
    SE_ARRIVE,
    SE_DOCK,
    SE_PASSED,
    SE_R_COL,
    SE_R_DESTS,
    SE_R_DICE,
    SE_R_FAR,
    SE_R_FLIGHTS,
    SE_R_MAXVAL,
    SE_SYM,
    STEP_DEST,
    STEP_PLACE,
)
from sim.games.yukon_airways.rules_common import se


# ---- turns: the order of play (RB Spielablauf) ------------------------------------------------
@leaf_kernel
def begin_round(state, spec, ev, evn):
    """A new day: clear the docks and the round counters, the first seat of the turn order
    starts its boarding turn (RB Spielablauf, Boardingphase)."""
    p = spec[0]
    S = p[P_S]
    for s in range(S):
        state[se(p, s, SE_DOCK)] = -1
        state[se(p, s, SE_ARRIVE)] = 0
        state[se(p, s, SE_PASSED)] = 0
        for y in range(NSYM):
            state[se(p, s, SE_SYM + y)] = 0
        state[se(p, s, SE_R_MAXVAL)] = 0
        state[se(p, s, SE_R_DICE)] = 0
        state[se(p, s, SE_R_FAR)] = 0
        state[se(p, s, SE_R_DESTS)] = 0
        state[se(p, s, SE_R_FLIGHTS)] = 0
        for c in range(NCOL):
            state[se(p, s, SE_R_COL + c)] = 0
    state[H_ARRIVAL] = 0
    emit(ev, evn, state[H_TURN], -1, E_ROUND, state[H_ROUND], 0, 0, 0, 0)
    start_boarding_turn(state, spec, 0)


@leaf_kernel
def start_turn(state, spec, pos, step):
    """The seat at turn-order position ``pos`` takes a turn, beginning at ``step`` (STEP_*)."""
    p = spec[0]
    state[H_POS] = pos
    state[H_ACTOR] = state[p[P_OFF_TURN] + pos]
    state[H_STEP] = step
    state[H_TURN] += 1


@leaf_kernel
def start_boarding_turn(state, spec, pos):
    """The seat at turn-order position ``pos`` boards: it places its marker first."""
    start_turn(state, spec, pos, STEP_PLACE)


@leaf_kernel
def start_flight_turn(state, spec, pos):
    """The seat at turn-order position ``pos`` (one that has not passed) chooses a flight."""
    start_turn(state, spec, pos, STEP_DEST)
