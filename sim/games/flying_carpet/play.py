"""Flying Carpet's inlined decision pieces the engine's loop plays, the look-ahead's score of a
simulated race (``sim_score``) and the result row. The engine's loop (:mod:`sim.games.loop`)
plays a race and the look-ahead's simulations; ``hooks.py`` says how, and holds the look-ahead
decision (``rollout_choice``).
"""

from __future__ import annotations

from sim.games.engine import (
    col_at,
    inline_kernel,
    leaf_kernel,
)
from sim.games.flying_carpet.layout import (
    H_PLAYED,
    H_RESHUF,
    H_ROUND,
    H_STALL,
    H_STARVED,
    H_WINNER,
    H_WINNER_TURN,
    NSTAT,
    O_BLOCK_G,
    O_BLOCK_S,
    O_BLOWN,
    O_DIE1,
    O_EXCH,
    O_FORCE_G,
    O_FORCE_S,
    O_RANK,
    O_RESHUFFLES,
    O_ROUNDS,
    O_SKIPPED,
    O_STALLED,
    O_STARS,
    O_STARVED,
    O_TOK_LEFT,
    O_TOK_USED,
    O_TURNS,
    O_WAIT,
    O_WASTED,
    O_WINNER,
    O_WINNER_TURN,
    P_OFF_POS,
    P_OFF_RANK,
    P_OFF_STATS,
    P_OFF_TOK,
    P_S,
    ST_BLOCK_G,
    ST_BLOCK_S,
    ST_BLOWN,
    ST_DIE1,
    ST_EXCH,
    ST_FORCE_G,
    ST_FORCE_S,
    ST_SKIPPED,
    ST_STARS,
    ST_TOK_USED,
    ST_WAIT,
    ST_WASTED,
)
from sim.games.flying_carpet.policies import select
from sim.games.flying_carpet.rules import (
    apply_action,
    legal_actions,
)

# ---- the rollout policy (flat Monte-Carlo look-ahead; RULES.md "Policies") ---------------------
PROGRESS_SHARE = 0.5
"""A simulation scores 1 for a win plus PROGRESS_SHARE x the share of opponents the deciding
carpet is ahead of (placed before them, or nearer the finish by the policy map): at most 0.5
without a win, so no progress outweighs a win."""


@leaf_kernel
def sim_score(state, spec, dmap, me):
    """Score of a simulated race (finished, stalled or cut at its depth) for seat ``me``:
    1 when ``me`` won (rank 1) + PROGRESS_SHARE x (opponents behind + half the ties) / (S - 1),
    "behind" by place (a placed carpet before every unplaced one), then by ``dmap``."""
    p = spec[0]
    S = p[P_S]
    r0 = p[P_OFF_RANK]
    q0 = p[P_OFF_POS]
    rm = state[r0 + me]
    km = -1000.0 + rm if rm > 0 else dmap[state[q0 + me]]
    ahead = 0.0
    for t in range(S):
        if t == me:
            continue
        rt = state[r0 + t]
        kt = -1000.0 + rt if rt > 0 else dmap[state[q0 + t]]
        if km < kt:
            ahead += 1.0
        elif km == kt:
            ahead += 0.5
    v = PROGRESS_SHARE * ahead / max(1, S - 1)
    if rm == 1:
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
    """Write the result columns (``layout.COLUMNS``, per-seat columns for S seats) of a
    finished race into ``row`` (int32[C])."""
    p = spec[0]
    S = p[P_S]
    row[col_at(O_TURNS[0], O_TURNS[1], S, 0)] = state[H_PLAYED]
    row[col_at(O_ROUNDS[0], O_ROUNDS[1], S, 0)] = state[H_ROUND]
    row[col_at(O_STALLED[0], O_STALLED[1], S, 0)] = state[H_STALL]
    row[col_at(O_RESHUFFLES[0], O_RESHUFFLES[1], S, 0)] = state[H_RESHUF]
    row[col_at(O_STARVED[0], O_STARVED[1], S, 0)] = state[H_STARVED]
    row[col_at(O_WINNER[0], O_WINNER[1], S, 0)] = state[H_WINNER]
    row[col_at(O_WINNER_TURN[0], O_WINNER_TURN[1], S, 0)] = state[H_WINNER_TURN]
    for s in range(S):
        st = p[P_OFF_STATS] + s * NSTAT
        row[col_at(O_RANK[0], O_RANK[1], S, s)] = state[p[P_OFF_RANK] + s]
        row[col_at(O_BLOWN[0], O_BLOWN[1], S, s)] = state[st + ST_BLOWN]
        row[col_at(O_SKIPPED[0], O_SKIPPED[1], S, s)] = state[st + ST_SKIPPED]
        row[col_at(O_BLOCK_G[0], O_BLOCK_G[1], S, s)] = state[st + ST_BLOCK_G]
        row[col_at(O_BLOCK_S[0], O_BLOCK_S[1], S, s)] = state[st + ST_BLOCK_S]
        row[col_at(O_FORCE_G[0], O_FORCE_G[1], S, s)] = state[st + ST_FORCE_G]
        row[col_at(O_FORCE_S[0], O_FORCE_S[1], S, s)] = state[st + ST_FORCE_S]
        row[col_at(O_TOK_LEFT[0], O_TOK_LEFT[1], S, s)] = state[p[P_OFF_TOK] + s]
        row[col_at(O_TOK_USED[0], O_TOK_USED[1], S, s)] = state[st + ST_TOK_USED]
        row[col_at(O_STARS[0], O_STARS[1], S, s)] = state[st + ST_STARS]
        row[col_at(O_EXCH[0], O_EXCH[1], S, s)] = state[st + ST_EXCH]
        row[col_at(O_WAIT[0], O_WAIT[1], S, s)] = state[st + ST_WAIT]
        row[col_at(O_WASTED[0], O_WASTED[1], S, s)] = state[st + ST_WASTED]
        for f in range(6):
            row[col_at(O_DIE1[0], O_DIE1[1] + f, S, s)] = state[st + ST_DIE1 + f]
