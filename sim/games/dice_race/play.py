"""Dice Race's look-ahead policy (``rollout_choice`` and its simulation) and the result row.
The engine's loop (:mod:`sim.games.loop`) plays a race; ``hooks.py`` says how.
"""

from __future__ import annotations

from sim.games.dice_race.layout import (
    H_STALL,
    H_TURN,
    H_WINNER,
    NSTAT,
    O_BUMPED,
    O_BUMPS,
    O_PASSES,
    O_POSITION,
    O_RANK,
    O_STALLED,
    O_TURNS,
    O_WINNER,
    P_OFF_POS,
    P_OFF_RANK,
    P_OFF_STATS,
    P_S,
    ST_BUMPED,
    ST_BUMPS,
    ST_PASSES,
)
from sim.games.engine import (
    col_at,
    leaf_kernel,
)

# ---- the rollout policy (flat Monte-Carlo look-ahead; RULES.md "Policies") ---------------------
PROGRESS_SHARE = 0.5
"""A simulation scores 1 for a win plus PROGRESS_SHARE x the share of opponents behind the
deciding token (ties half): at most 0.5 without a win, so no progress outweighs a win."""


@leaf_kernel
def sim_score(state, spec, me):
    """Score of a simulated race (over, stalled or cut at its depth) for seat ``me``: 1 when
    ``me`` won + PROGRESS_SHARE x (opponents behind + half of those level) / (S - 1)."""
    p = spec[0]
    S = p[P_S]
    q0 = p[P_OFF_POS]
    mine = state[q0 + me]
    ahead = 0.0
    for t in range(S):
        if t != me:
            if mine > state[q0 + t]:
                ahead += 1.0
            elif mine == state[q0 + t]:
                ahead += 0.5
    v = PROGRESS_SHARE * ahead / max(1, S - 1)
    if state[H_WINNER] == me and state[H_STALL] == 0:
        v += 1.0
    return v


# ---- the result row -----------------------------------------------------------------------------
@leaf_kernel
def write_row(state, spec, row):
    """Write the result columns (``layout.COLUMNS``) of a finished race into ``row`` (int32[C])."""
    p = spec[0]
    S = p[P_S]
    row[col_at(O_TURNS[0], O_TURNS[1], S, 0)] = state[H_TURN]
    row[col_at(O_STALLED[0], O_STALLED[1], S, 0)] = state[H_STALL]
    row[col_at(O_WINNER[0], O_WINNER[1], S, 0)] = state[H_WINNER]
    for s in range(S):
        st = p[P_OFF_STATS] + s * NSTAT
        row[col_at(O_RANK[0], O_RANK[1], S, s)] = state[p[P_OFF_RANK] + s]
        row[col_at(O_POSITION[0], O_POSITION[1], S, s)] = state[p[P_OFF_POS] + s]
        row[col_at(O_BUMPS[0], O_BUMPS[1], S, s)] = state[st + ST_BUMPS]
        row[col_at(O_BUMPED[0], O_BUMPED[1], S, s)] = state[st + ST_BUMPED]
        row[col_at(O_PASSES[0], O_PASSES[1], S, s)] = state[st + ST_PASSES]
