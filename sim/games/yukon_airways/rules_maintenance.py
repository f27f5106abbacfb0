"""Yukon Airways rules, phase 4: maintenance (RB Wartungsphase).

One of the rules modules split by rulebook phase (issue 32); ``rules.py`` re-exports every
function, so ``from sim.games.yukon_airways.rules import X`` keeps working. Layout and
encodings: ``layout.py``; decisions on ambiguities: ``RULES.md``.
"""

from __future__ import annotations

from sim.games.engine import leaf_kernel
from sim.games.yukon_airways.layout import (
    D_DRAW,
    D_HAND,
    DP_PLANE,
    DP_TICKET,
    H_ACTOR,
    H_POS,
    H_ROUND,
    H_STEP,
    H_TURN,
    P_HUB,
    P_NDICE,
    P_NT,
    P_OFF_TURN,
    P_ROUNDS,
    P_S,
    P_UNFLOWN,
    SE_LOC,
    STEP_DISCARD,
)
from sim.games.yukon_airways.rules_common import (
    aboard_add,
    dial_value,
    die_at,
    discard_card,
    discard_face_down,
    draw_cards,
    hand_total,
    roll_die_to_dock,
    se,
    table_at,
    tdown_at,
)
from sim.games.yukon_airways.rules_end import end_game
from sim.games.yukon_airways.rules_turns import begin_round


# ---- phase 4: maintenance (RB Wartungsphase) ------------------------------------------------------
@leaf_kernel
def maintenance(state, spec, rng, rig_dice, ev, evn):
    """RB Wartungsphase: a) the dice on tickets are rolled onto their docks (with
    unflown_dice = roll also the dice still aboard, D6); b) the played tickets are discarded;
    c) every seat draws by its draw dial; d) seats over their hand limit discard (a decision,
    STEP_DISCARD, in turn order); then planes back to Whitehorse and the next day. After the
    last day the game ends (RB Spielende; the last maintenance changes no score and is
    skipped)."""
    p = spec[0]
    S = p[P_S]
    if state[H_ROUND] + 1 >= p[P_ROUNDS]:
        end_game(state, spec, ev, evn)
        return
    for d in range(p[P_NDICE]):
        pl = state[die_at(p, d)]
        if pl == DP_TICKET or (pl == DP_PLANE and p[P_UNFLOWN] == 1):
            if pl == DP_PLANE:
                aboard_add(state, p, state[die_at(p, d) + 1], spec[8][d], -1)
            roll_die_to_dock(state, spec, d, rng, rig_dice, ev, evn)
    for s in range(S):
        for t in range(p[P_NT]):
            k = state[table_at(p, s, t)]
            kd = state[tdown_at(p, s, t)]
            for j in range(k):
                if j < kd:
                    discard_face_down(state, spec, t, s)
                else:
                    discard_card(state, spec, t)
            state[table_at(p, s, t)] = 0
            state[tdown_at(p, s, t)] = 0
    for i in range(S):
        s = state[p[P_OFF_TURN] + i]
        draw_cards(state, spec, s, dial_value(state, spec, s, D_DRAW), rng, ev, evn)
    next_discarder(state, spec, -1, ev, evn)


@leaf_kernel
def next_discarder(state, spec, after, ev, evn):
    """RB Wartungsphase d: the next seat in turn order after position ``after`` whose hand is
    over its hand limit discards; when none is left, planes return and the next day begins."""
    p = spec[0]
    S = p[P_S]
    for pos in range(after + 1, S):
        s = state[p[P_OFF_TURN] + pos]
        if hand_total(state, spec, s) > dial_value(state, spec, s, D_HAND):
            state[H_POS] = pos
            state[H_ACTOR] = s
            state[H_STEP] = STEP_DISCARD
            state[H_TURN] += 1
            return
    for s in range(S):
        state[se(p, s, SE_LOC)] = p[P_HUB]
    state[H_ROUND] += 1
    begin_round(state, spec, ev, evn)
