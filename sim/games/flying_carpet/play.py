"""Flying Carpet playouts: THE one implementation of a race (``playout``), the result row,
one untraced game of a batch, the parallel batch, and the traced / checked one-game entry
points ``trace.py`` uses.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from sim.games.base import expand_columns
from sim.games.engine import (
    EV_W,
    W_LA_BASE,
    W_LA_DEPTH,
    W_LA_EXTRA,
    W_LA_ROLLOUTS,
    batch_kernel,
    capped,
    col_at,
    inline_kernel,
    kernel,
    leaf_kernel,
    lookahead_streams,
    ranked_candidates,
    seat_policies,
)
from sim.games.flying_carpet.layout import (
    A_A,
    A_B,
    A_KIND,
    ACT_W,
    COLUMNS,
    H_CUR,
    H_DONE,
    H_PHASE,
    H_PLAYED,
    H_RESHUF,
    H_ROUND,
    H_STALL,
    H_STARVED,
    H_TURN,
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
    P_FINISH,
    P_HAND,
    P_MAXACT,
    P_NC,
    P_NEAR,
    P_OFF_POS,
    P_OFF_RANK,
    P_OFF_SCEN,
    P_OFF_STATS,
    P_OFF_TOK,
    P_S,
    P_STATE_SIZE,
    PH_CLOUDS,
    PH_END,
    PH_SKIP,
    POL_ROLLOUT,
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
    W,
)
from sim.games.flying_carpet.policies import choose_cloud, map_into, policy_map, prepare, row_score, select
from sim.games.flying_carpet.rules import (
    apply_action,
    check_invariants,
    end_turn,
    legal_actions,
    mark_stall,
    redeal,
    setup,
    start_race,
)
from sim.rng import seed_streams

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
same Python functions, compiled into ``step``'s body)."""


@leaf_kernel
def step(state, spec, dmap, pid, w, acts, work, rng, fw, rig_dice, ev, evn):
    """One decision (outside the die's cloud move) of the seat to move, playing the plain
    policy ``pid`` with weights ``w``: ``rules.legal_actions``, ``policies.select`` and
    ``rules.apply_action``, exactly as ``playout`` calls them, inlined into one function so
    that the spec tuple (whose arrays a call passes field by field) is passed once per
    decision instead of three times."""
    n = _legal_inline(state, spec, acts, work)
    i = _select_inline(state, spec, dmap, pid, w, acts, n, rng, fw)
    _apply_inline(state, spec, acts[i], rng, rig_dice, ev, evn)


@kernel
def playout(spec, dmap, pids, Wt, seed, g, rig_deck, rig_dice, state, rng, acts, work, fw, ev, evn, snaps, check):
    """Play race ``g`` of ``seed`` into ``state`` (int32[p[P_STATE_SIZE]]); returns 0 or the
    first invariant code (``check``: tested after every action and every turn end).

    ``dmap``: ``policies.policy_map(spec)``; ``pids`` int64[S] / ``Wt`` float64[S, N_WEIGHTS]:
    each seat's policy; ``rig_deck`` / ``rig_dice``: the engine's rigging arrays; ``acts`` int32[p[P_MAXACT], ACT_W], ``work``
    int32[2 * NCELL], ``fw`` float64[HAND + 1]: scratch; ``ev`` / ``evn``: the event buffer
    (0 rows: untraced); ``snaps`` int32[T, state size]: the state at the start of turn t is
    written to row t while t < T (T = 0: none). Turn loop: a turn is the seat's actions until
    PH_END (a move, then the die's decisions), the bookkeeping counters of a turn (waiting
    near the finish, wasted turns; not rules), then ``rules.end_turn``. ``dmap`` is this
    game's own copy: when a carpet stays put after a cloud moved, it is recomputed from the
    board (``policies.map_into``), so a stale map cannot hold carpets in place for ever."""
    p = spec[0]
    dist = dmap
    seed_streams(rng, seed, g)
    setup(state, spec, rng, rig_deck, rig_dice)
    start_race(state, spec, ev, evn)
    cap = p[P_CAP]
    fin_cell = p[P_FINISH]
    fx = fin_cell % W
    fy = fin_cell // W
    s0 = p[P_OFF_SCEN]
    stale = False
    while True:
        t = state[H_TURN]
        if t < snaps.shape[0]:
            snaps[t, :] = state
        if capped(state[H_PLAYED], cap):
            mark_stall(state, ev, evn)
            break
        s = state[H_CUR]
        pos0 = state[p[P_OFF_POS] + s]
        skipped = state[H_PHASE] == PH_SKIP
        near = abs(pos0 % W - fx) + abs(pos0 // W - fy) <= p[P_NEAR]
        blown0 = state[p[P_OFF_STATS] + s * NSTAT + ST_BLOWN]
        pid = pids[s]
        w = Wt[s]  # one view of the seat's weight row per turn
        while state[H_PHASE] != PH_END:
            if state[H_PHASE] == PH_CLOUDS:
                cp = pid
                if cp == POL_ROLLOUT:  # the rollout seat moves clouds as its base policy does
                    cp = np.int64(w[W_LA_BASE])
                piece, anchor = choose_cloud(state, spec, dmap, cp, w, rng, work)
                acts[0, :] = -1
                acts[0, A_KIND] = K_KEEP if piece < 0 else K_CLOUD
                acts[0, A_A] = piece
                acts[0, A_B] = anchor
                apply_action(state, spec, acts[0], rng, rig_dice, ev, evn)
                stale = stale or piece >= 0
            elif pid == POL_ROLLOUT:
                n = legal_actions(state, spec, acts, work)
                i = rollout_choice(state, spec, dmap, w, acts, n, rng, fw, stale)
                apply_action(state, spec, acts[i], rng, rig_dice, ev, evn)
            else:
                step(state, spec, dmap, pid, w, acts, work, rng, fw, rig_dice, ev, evn)
            if check:
                code = check_invariants(state, spec)
                if code != 0:
                    return code
        if state[p[P_OFF_RANK] + s] == 0:
            st = p[P_OFF_STATS] + s * NSTAT
            if near:
                state[st + ST_WAIT] += 1
            if not skipped:
                pos1 = state[p[P_OFF_POS] + s]
                if state[st + ST_BLOWN] > blown0 or dist[pos1] >= dist[pos0]:
                    state[st + ST_WASTED] += 1
                if stale and pos1 == pos0:
                    map_into(spec, state[s0: s0 + NCELL], dmap)
                    stale = False
        end_turn(state, spec, ev, evn)
        if check:
            code = check_invariants(state, spec)
            if code != 0:
                return code
        if state[H_DONE] == 1:
            break
    return 0


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


@kernel
def play_index(spec, dmap, entry_policy, entry_weights, perms, seed, g, check):
    """Race ``g`` untraced with its seats' policies (``engine.seat_policies``); returns
    (state int32[state size], invariant code)."""
    p = spec[0]
    pids, Wt = seat_policies(entry_policy, entry_weights, perms, g)
    state = np.zeros(p[P_STATE_SIZE], np.int32)
    rng = np.zeros(2, np.uint64)
    acts = np.empty((p[P_MAXACT], ACT_W), np.int32)
    work = np.empty(2 * NCELL, np.int32)
    fw = np.empty(p[P_HAND] + 1, np.float64)
    ev = np.zeros((0, EV_W), np.int32)
    evn = np.zeros(1, np.int64)
    snaps = np.zeros((0, 1), np.int32)
    rig_deck = np.zeros(0, np.int32)
    rig_dice = np.zeros(1, np.int32)
    code = playout(spec, dmap, pids, Wt, seed, g, rig_deck, rig_dice, state, rng, acts, work, fw, ev, evn, snaps, check)
    return state, code


@batch_kernel
def play_batch(spec, entry_policy, entry_weights, perms, seed, first_index, count, out):
    """Play races ``first_index .. first_index + count - 1`` into ``out`` (int32[count, C]).

    ``spec``: ``spec.compile_spec``'s tuple; the other arguments as in ``sim.games.base``.
    Each race seeds its own streams, so any batch size or thread count gives the same rows."""
    dmap = policy_map(spec)
    for i in prange(count):
        ii = np.int64(i)
        # thread-private copies of the shared read-only arrays: no reference-count traffic on
        # memory the other threads touch
        sp = (spec[0].copy(), spec[1].copy(), spec[2].copy(), spec[3].copy(), spec[4].copy(), spec[5].copy(),
              spec[6].copy(), spec[7].copy(), spec[8].copy(), spec[9].copy())
        state, _ = play_index(sp, dmap.copy(), entry_policy, entry_weights, perms, seed, first_index + ii, False)
        write_row(state, spec, out[ii])


@kernel
def traced_playout(spec, dmap, entry_policy, entry_weights, perms, seed, g, rig_deck, rig_dice, ev, evn, snaps, check):
    """Race ``g`` played exactly as ``play_index`` plays it, with the event buffer ``ev`` /
    ``evn``, turn snapshots ``snaps`` and chance rigging; returns (state, code)."""
    p = spec[0]
    pids, Wt = seat_policies(entry_policy, entry_weights, perms, g)
    state = np.zeros(p[P_STATE_SIZE], np.int32)
    rng = np.zeros(2, np.uint64)
    acts = np.empty((p[P_MAXACT], ACT_W), np.int32)
    work = np.empty(2 * NCELL, np.int32)
    fw = np.empty(p[P_HAND] + 1, np.float64)
    code = playout(spec, dmap, pids, Wt, seed, g, rig_deck, rig_dice, state, rng, acts, work, fw, ev, evn, snaps, check)
    return state, code


_MAPS: dict[int, tuple] = {}


def run_map(spec) -> np.ndarray:
    """``policies.policy_map(spec)``, computed once per spec of this process (the batch kernel
    computes it once per batch itself)."""
    key = id(spec)
    hit = _MAPS.get(key)
    if hit is None or hit[0] is not spec:
        if len(_MAPS) > 32:
            _MAPS.clear()
        hit = (spec, policy_map(spec))
        _MAPS[key] = hit
    return hit[1]


def run_traced(run, game_index: int):
    """Race ``game_index`` of the CompiledRun ``run`` with events and snapshots.

    Returns (state int32[n], events int32[E, EV_W], snaps int32[T, n] (row t = the start of
    turn t; row 0 unused), row int32[C])."""
    spec = run.spec
    p = spec[0]
    cap = int(p[P_CAP])
    n = int(p[P_STATE_SIZE])
    ev = np.zeros((cap * 24 + 256, EV_W), np.int32)
    evn = np.zeros(1, np.int64)
    snaps = np.zeros((cap + 2, n), np.int32)
    rig_deck = np.zeros(0, np.int32)
    rig_dice = np.zeros(1, np.int32)
    state, _ = traced_playout(spec, run_map(spec).copy(), run.entry_policy, run.entry_weights, run.perms, np.int64(run.seed),
                              np.int64(game_index), rig_deck, rig_dice, ev, evn, snaps, False)
    S = int(p[P_S])
    row = np.zeros(len(expand_columns(COLUMNS, S)), np.int32)
    write_row(state, spec, row)
    return state, ev[: evn[0]], snaps[: int(state[H_TURN]) + 1], row


def check_one(run, game_index: int) -> int:
    """Race ``game_index`` of ``run`` as the batch plays it, the invariants checked after
    every action and turn end; 0 or the first V_* code."""
    _, code = play_index(run.spec, run_map(run.spec).copy(), run.entry_policy, run.entry_weights, run.perms, np.int64(run.seed),
                         np.int64(game_index), True)
    return int(code)
