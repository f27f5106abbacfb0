"""Dice Race's look-ahead policy (``rollout_choice`` and its simulation) and the result row.
The engine's loop (:mod:`sim.games.loop`) plays a race; ``hooks.py`` says how.
"""

from __future__ import annotations

import numpy as np

from sim.games.dice_race.layout import (
    ACT_W,
    H_CUR,
    H_DONE,
    H_STALL,
    H_TURN,
    H_WINNER,
    MAX_ACTS,
    NSTAT,
    O_BUMPED,
    O_BUMPS,
    O_PASSES,
    O_POSITION,
    O_RANK,
    O_RESHUFFLES,
    O_STALLED,
    O_STARVED,
    O_TURNS,
    O_WINNER,
    P_CAP,
    P_OFF_POS,
    P_OFF_RANK,
    P_OFF_STATS,
    P_S,
    POL_RANDOM,
    ST_BUMPED,
    ST_BUMPS,
    ST_PASSES,
)
from sim.games.dice_race.policies import move_score, select
from sim.games.dice_race.rules import apply_move, end_turn, legal_moves
from sim.games.engine import (
    EV_W,
    W_LA_BASE,
    W_LA_DEPTH,
    W_LA_ROLLOUTS,
    capped,
    col_at,
    kernel,
    leaf_kernel,
    lookahead_streams,
    ranked_candidates,
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


@leaf_kernel
def simulate(state, spec, base, w, rng, rig_dice, acts, depth, me, ev, evn):
    """Play the race in ``state`` on (the next seat has rolled), every seat playing policy
    ``base`` with the weight row ``w``, until it is over, the turn cap, or ``depth`` further
    player turns (0 = no limit); no events (``ev`` has 0 rows), no invariant checks; the
    same steps as the engine's loop. Returns ``sim_score`` for seat ``me``."""
    cap = spec[0][P_CAP]
    stop = state[H_TURN] + depth
    while state[H_DONE] == 0:
        if capped(state[H_TURN], cap):
            break
        if depth > 0 and state[H_TURN] >= stop:
            break
        n = legal_moves(state, spec, acts)
        k = select(state, spec, base, w, acts, n, rng)
        apply_move(state, spec, acts[k], ev, evn)
        end_turn(state, spec, rng, rig_dice, ev, evn)
    return sim_score(state, spec, me)


@kernel
def rollout_choice(state, spec, w, acts, n, rng):
    """Index (into ``acts[:n]``) of the move a ``rollout`` seat makes (RULES.md "Policies").

    ``w`` the seat's weight row: the base policy's weights, then (``engine.W_LA_*``) the base
    id, ``rollouts`` and ``depth``. Candidates: the base policy's own choice (``select``),
    then the other moves by the base's ``move_score`` (a random base: by order). For each of
    ``rollouts`` simulations ``engine.lookahead_streams`` seeds it from this seat's POLICY
    stream (the game's CHANCE stream is never drawn from); every candidate is tried on a copy
    of the position with those same streams (the same simulated dice: a paired comparison),
    applied, and played on by ``simulate``. Dice Race hides nothing, so there is no re-deal
    (a game with hidden pieces re-deals them first: ``rules.redeal`` in the other games).
    The highest mean ``sim_score`` wins; ties go to the earlier candidate."""
    if n <= 1:
        return 0
    base = np.int64(w[W_LA_BASE])
    R = np.int64(w[W_LA_ROLLOUTS])
    depth = np.int64(w[W_LA_DEPTH])
    me = state[H_CUR]
    b = select(state, spec, base, w, acts, n, rng)
    sc = np.zeros(n)
    if base != POL_RANDOM:
        for i in range(n):
            sc[i] = move_score(state, spec, w, acts, i)
    cand = ranked_candidates(sc, b, n)
    # scratch of every simulation, allocated once per decision
    sstate = np.empty_like(state)
    sub = np.zeros(2, np.uint64)
    srng = np.zeros(2, np.uint64)
    sacts = np.empty((MAX_ACTS, ACT_W), np.int32)
    rig_dice = np.zeros(1, np.int32)
    ev = np.zeros((0, EV_W), np.int32)
    evn = np.zeros(1, np.int64)
    K = cand.shape[0]
    total = np.zeros(K)
    for _r in range(R):
        lookahead_streams(rng, sub)
        for k in range(K):
            sstate[:] = state
            srng[:] = sub
            apply_move(sstate, spec, acts[cand[k]], ev, evn)
            end_turn(sstate, spec, srng, rig_dice, ev, evn)
            total[k] += simulate(sstate, spec, base, w, srng, rig_dice, sacts, depth, me, ev, evn)
    return cand[np.argmax(total)]  # ties: the earlier candidate (the base's choice first)


# ---- the result row -----------------------------------------------------------------------------
@leaf_kernel
def write_row(state, spec, row):
    """Write the result columns (``layout.COLUMNS``) of a finished race into ``row`` (int32[C])."""
    p = spec[0]
    S = p[P_S]
    row[col_at(O_TURNS[0], O_TURNS[1], S, 0)] = state[H_TURN]
    row[col_at(O_STALLED[0], O_STALLED[1], S, 0)] = state[H_STALL]
    row[col_at(O_RESHUFFLES[0], O_RESHUFFLES[1], S, 0)] = 0
    row[col_at(O_STARVED[0], O_STARVED[1], S, 0)] = 0
    row[col_at(O_WINNER[0], O_WINNER[1], S, 0)] = state[H_WINNER]
    for s in range(S):
        st = p[P_OFF_STATS] + s * NSTAT
        row[col_at(O_RANK[0], O_RANK[1], S, s)] = state[p[P_OFF_RANK] + s]
        row[col_at(O_POSITION[0], O_POSITION[1], S, s)] = state[p[P_OFF_POS] + s]
        row[col_at(O_BUMPS[0], O_BUMPS[1], S, s)] = state[st + ST_BUMPS]
        row[col_at(O_BUMPED[0], O_BUMPED[1], S, s)] = state[st + ST_BUMPED]
        row[col_at(O_PASSES[0], O_PASSES[1], S, s)] = state[st + ST_PASSES]
