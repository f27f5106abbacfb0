"""Yukon Airways' inlined decision pieces the engine's loop plays, the look-ahead's score of a
simulated game (``sim_score``) and the result row. The engine's loop (:mod:`sim.games.loop`)
plays a game and the look-ahead's simulations; ``hooks.py`` says how, and holds the look-ahead
decision (``rollout_choice``).
"""

from __future__ import annotations

from sim.games.engine import (
    col_at,
    inline_kernel,
    leaf_kernel,
)
from sim.games.yukon_airways.layout import (
    H_RESHUF,
    H_SHARED,
    H_STALL,
    H_STARVED,
    H_TIED,
    H_TURN,
    H_WINNER,
    NCOL,
    NDOCK,
    NIMP,
    O_DOCK,
    O_EMPTIED,
    O_FLIGHTS,
    O_IMP,
    O_M_VALUE,
    O_MARGIN,
    O_MONEY,
    O_RANK,
    O_RESHUFFLES,
    O_SHARED,
    O_SPENT,
    O_STALLED,
    O_START_POS,
    O_STARVED,
    O_TIED,
    O_TURNS,
    O_VISITED,
    O_WINNER,
    P_HUB,
    P_L,
    P_OFF_MAP,
    P_S,
    SE_BURNT,
    SE_DOCKS,
    SE_FLIGHTS,
    SE_IMP,
    SE_M_VALUE,
    SE_M_VISITED,
    SE_MONEY,
    SE_RANK,
    SE_SHORT,
    SE_SPENT,
    SE_START_POS,
    SE_UNFLOWN,
)
from sim.games.yukon_airways.policies import select
from sim.games.yukon_airways.rules import (
    apply_action,
    legal_actions,
    se,
    visited_locations,
)

# ---- the rollout policy (flat Monte-Carlo look-ahead; RULES.md "Policies") ---------------------
PROGRESS_SHARE = 0.5
"""A simulation scores 1 for a win plus PROGRESS_SHARE x the share of opponents with less
money (ties half): at most 0.5 without a win, so no progress outweighs a win."""


@leaf_kernel
def sim_score(state, spec, me):
    """Score of a simulated game (over, stalled or cut at its depth) for seat ``me``: 1 when
    ``me`` is the winner (``H_WINNER``; a shared win counts as none) + PROGRESS_SHARE x
    (opponents with less money + half of those with as much) / (S - 1)."""
    p = spec[0]
    S = p[P_S]
    mm = state[se(p, me, SE_MONEY)]
    ahead = 0.0
    for t in range(S):
        if t != me:
            mt = state[se(p, t, SE_MONEY)]
            if mm > mt:
                ahead += 1.0
            elif mm == mt:
                ahead += 0.5
    v = PROGRESS_SHARE * ahead / max(1, S - 1)
    if state[H_WINNER] == me and state[H_STALL] == 0:
        v += 1.0
    return v


# ---- one decision of a plain (not look-ahead) seat -------------------------------------------
_legal_inline = inline_kernel(legal_actions.py_func)
_select_inline = inline_kernel(select.py_func)
_apply_inline = inline_kernel(apply_action.py_func)
"""Inlined twins of ``rules.legal_actions``, ``policies.select`` and ``rules.apply_action`` (the
same Python functions, compiled into the engine loop's body by ``hooks.py``, so that the spec
tuple, whose arrays a call passes field by field, is not passed three times a decision)."""


@leaf_kernel
def write_row(state, spec, row):
    """Write the result columns (``layout.COLUMNS``) of a finished game into ``row`` (int32[C])."""
    p = spec[0]
    S = p[P_S]
    L = p[P_L]
    row[col_at(O_TURNS[0], O_TURNS[1], S, 0)] = state[H_TURN]
    row[col_at(O_STALLED[0], O_STALLED[1], S, 0)] = state[H_STALL]
    row[col_at(O_RESHUFFLES[0], O_RESHUFFLES[1], S, 0)] = state[H_RESHUF]
    row[col_at(O_STARVED[0], O_STARVED[1], S, 0)] = state[H_STARVED]
    row[col_at(O_WINNER[0], O_WINNER[1], S, 0)] = state[H_WINNER]
    row[col_at(O_SHARED[0], O_SHARED[1], S, 0)] = state[H_SHARED] if state[H_STALL] == 0 else 0
    row[col_at(O_TIED[0], O_TIED[1], S, 0)] = state[H_TIED] if state[H_STALL] == 0 else 0
    top = -1
    second = -1
    for s in range(S):
        m = state[se(p, s, SE_MONEY)]
        if m > top:
            second = top
            top = m
        elif m > second:
            second = m
    row[col_at(O_MARGIN[0], O_MARGIN[1], S, 0)] = (top - second) if S > 1 and state[H_STALL] == 0 else 0
    empty = 0
    for l in range(L):
        if l == p[P_HUB]:
            continue
        m = 0
        for c in range(NCOL):
            m += state[p[P_OFF_MAP] + l * NCOL + c]
        if m == 0:
            empty += 1
    row[col_at(O_EMPTIED[0], O_EMPTIED[1], S, 0)] = empty
    for s in range(S):
        row[col_at(O_RANK[0], O_RANK[1], S, s)] = state[se(p, s, SE_RANK)] if state[H_STALL] == 0 else 0
        row[col_at(O_MONEY[0], O_MONEY[1], S, s)] = state[se(p, s, SE_MONEY)]
        row[col_at(O_START_POS[0], O_START_POS[1], S, s)] = state[se(p, s, SE_START_POS)]
        for j in range(SE_M_VISITED - SE_M_VALUE + 1):
            row[col_at(O_M_VALUE[0], O_M_VALUE[1] + j, S, s)] = state[se(p, s, SE_M_VALUE + j)]
        row[col_at(O_SPENT[0], O_SPENT[1], S, s)] = state[se(p, s, SE_SPENT)]
        row[col_at(O_VISITED[0], O_VISITED[1], S, s)] = visited_locations(state, p, s)
        row[col_at(O_FLIGHTS[0], O_FLIGHTS[1], S, s)] = state[se(p, s, SE_FLIGHTS)]
        row[col_at(O_FLIGHTS[0], O_FLIGHTS[1] + 1, S, s)] = state[se(p, s, SE_SHORT)]
        row[col_at(O_FLIGHTS[0], O_FLIGHTS[1] + 2, S, s)] = state[se(p, s, SE_BURNT)]
        row[col_at(O_FLIGHTS[0], O_FLIGHTS[1] + 3, S, s)] = state[se(p, s, SE_UNFLOWN)]
        for k in range(NIMP):
            row[col_at(O_IMP[0], O_IMP[1] + k, S, s)] = state[se(p, s, SE_IMP + k)]
        for d in range(NDOCK):
            row[col_at(O_DOCK[0], O_DOCK[1] + d, S, s)] = state[se(p, s, SE_DOCKS + d)]
