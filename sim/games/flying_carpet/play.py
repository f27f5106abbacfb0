"""Flying Carpet's look-ahead policy (``rollout_choice`` and its simulation), the inlined
decision pieces the engine's loop plays and the result row. The engine's loop
(:mod:`sim.games.loop`) plays a race; ``hooks.py`` says how.
"""

from __future__ import annotations

import numpy as np

from sim.games.engine import (
    EV_W,
    W_LA_BASE,
    W_LA_DEPTH,
    W_LA_EXTRA,
    W_LA_ROLLOUTS,
    capped,
    col_at,
    inline_kernel,
    kernel,
    leaf_kernel,
    lookahead_streams,
    ranked_candidates,
)
from sim.games.flying_carpet.layout import (
    A_A,
    A_B,
    A_KIND,
    H_CUR,
    H_DONE,
    H_PHASE,
    H_PLAYED,
    H_RESHUF,
    H_ROUND,
    H_STALL,
    H_STARVED,
    H_WINNER,
    H_WINNER_TURN,
    K_CLOUD,
    K_KEEP,
    NCELL,
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
    P_CAP,
    P_HAND,
    P_MAXACT,
    P_NC,
    P_OFF_POS,
    P_OFF_RANK,
    P_OFF_SCEN,
    P_OFF_STATS,
    P_OFF_TOK,
    P_S,
    PH_CLOUDS,
    PH_END,
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
from sim.games.flying_carpet.policies import choose_cloud, map_into, prepare, row_score, select
from sim.games.flying_carpet.rules import (
    apply_action,
    end_turn,
    legal_actions,
    redeal,
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


@kernel
def simulate(state, spec, dmap, base, w, rng, rig_dice, acts, work, fw, stale, depth, me, ev, evn):
    """Play the race in ``state`` on from the middle of a turn, every seat playing policy
    ``base`` with the weight row ``w``, until it ends, the turn cap, or ``depth`` further
    player turns (0 = no limit); no events (``ev`` has 0 rows), no invariant checks. The
    same turn steps as ``playout`` (die decisions, the stale-map recomputation of ``dmap``,
    which is this simulation's own copy). Returns ``sim_score`` for seat ``me``."""
    p = spec[0]
    cap = p[P_CAP]
    s0 = p[P_OFF_SCEN]
    turns = 0
    first = True
    while True:
        s = state[H_CUR]
        pos0 = state[p[P_OFF_POS] + s]
        while state[H_PHASE] != PH_END:
            if state[H_PHASE] == PH_CLOUDS:
                piece, anchor = choose_cloud(state, spec, dmap, base, w, rng, work)
                acts[0, :] = -1
                acts[0, A_KIND] = K_KEEP if piece < 0 else K_CLOUD
                acts[0, A_A] = piece
                acts[0, A_B] = anchor
                apply_action(state, spec, acts[0], rng, rig_dice, ev, evn)
                stale = stale or piece >= 0
            else:
                n = legal_actions(state, spec, acts, work)
                i = select(state, spec, dmap, base, w, acts, n, rng, fw)
                apply_action(state, spec, acts[i], rng, rig_dice, ev, evn)
        if not first and stale and state[p[P_OFF_RANK] + s] == 0 and state[p[P_OFF_POS] + s] == pos0:
            map_into(spec, state[s0: s0 + NCELL], dmap)
            stale = False
        first = False
        end_turn(state, spec, ev, evn)
        if state[H_DONE] == 1:
            break
        turns += 1
        if depth > 0 and turns >= depth:
            break
        if capped(state[H_PLAYED], cap):
            break
    return sim_score(state, spec, dmap, me)


@kernel
def rollout_choice(state, spec, dmap, w, acts, n, rng, fw, stale):
    """Index (into ``acts[:n]``) of the row a ``rollout`` seat plays (RULES.md "Policies").

    ``w`` the seat's weight row: the base policy's weights, then (``engine.W_LA_*``) the base
    id, ``rollouts``, ``depth`` and ``candidates``. Candidates: the base policy's own choice
    (``select``), then the other rows by the base's ``row_score`` (ties by row order), at most
    ``candidates`` (0 = every row). For each of ``rollouts`` simulations,
    ``engine.lookahead_streams`` seeds the simulation from this seat's POLICY stream (the
    game's CHANCE stream is never drawn from); every candidate is then tried on a copy of the
    position whose unseen cards are re-dealt (``rules.redeal``) from those same streams
    (paired comparison), applied, and played on by ``simulate``. The highest mean
    ``sim_score`` wins; ties go to the earlier candidate (the base's choice first)."""
    p = spec[0]
    if n <= 1:
        return 0
    base = np.int64(w[W_LA_BASE])
    R = np.int64(w[W_LA_ROLLOUTS])
    depth = np.int64(w[W_LA_DEPTH])
    K = np.int64(w[W_LA_EXTRA])
    if K <= 0 or K > n:
        K = n
    me = state[H_CUR]
    # candidates: the base's choice, then the rest by the base's score
    b = select(state, spec, dmap, base, w, acts, n, rng, fw)
    ld = prepare(state, spec, dmap, base, w, acts, n, fw)
    sc = np.empty(n)
    for i in range(n):
        sc[i] = row_score(state, spec, dmap, base, w, acts, i, fw, ld)
    cand = ranked_candidates(sc, b, K)
    if K == 1:
        return b
    # scratch of every simulation, allocated once per decision
    sstate = np.empty_like(state)
    sub = np.zeros(2, np.uint64)
    srng = np.zeros(2, np.uint64)
    sacts = np.empty((p[P_MAXACT], acts.shape[1]), np.int32)
    swork = np.empty(2 * NCELL, np.int32)
    sfw = np.empty(p[P_HAND] + 1, np.float64)
    sdmap = np.empty(NCELL, np.float64)
    tmp = np.empty(2 * p[P_NC], np.int32)
    rig_dice = np.zeros(1, np.int32)
    ev = np.zeros((0, EV_W), np.int32)
    evn = np.zeros(1, np.int64)
    total = np.zeros(K)
    for _r in range(R):
        lookahead_streams(rng, sub)
        for k in range(K):
            sstate[:] = state
            srng[:] = sub
            sdmap[:] = dmap
            redeal(sstate, spec, me, srng, tmp)
            row = acts[cand[k]]
            apply_action(sstate, spec, row, srng, rig_dice, ev, evn)
            total[k] += simulate(sstate, spec, sdmap, base, w, srng, rig_dice, sacts, swork, sfw, stale, depth, me,
                                 ev, evn)
    return cand[np.argmax(total)]  # ties: the earlier candidate (the base's choice first)


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
