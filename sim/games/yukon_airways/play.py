"""Yukon Airways playouts: one game (``playout``, the single implementation), its result
row, the parallel batch, and the traced / checked one-game entry points of trace.py and
state.py.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from sim.games.engine import (
    EV_W,
    W_LA_BASE,
    W_LA_DEPTH,
    W_LA_EXTRA,
    W_LA_ROLLOUTS,
    batch_kernel,
    capped,
    col_at,
    emit,
    inline_kernel,
    kernel,
    leaf_kernel,
    lookahead_streams,
    ranked_candidates,
    seat_policies,
)
from sim.games.yukon_airways.layout import (
    ACT_W,
    E_STALL,
    H_ACTOR,
    H_RESHUF,
    H_ROUND,
    H_SHARED,
    H_STALL,
    H_STARVED,
    H_STEP,
    H_TIED,
    H_TURN,
    H_WINNER,
    MAX_ACTS,
    NCOL,
    NCOLG,
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
    P_CAP,
    P_HUB,
    P_L,
    P_NCARDS,
    P_NT,
    P_OFF_MAP,
    P_ROUNDS,
    P_S,
    P_SIZE,
    POL_RANDOM,
    POL_ROLLOUT,
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
    STEP_OVER,
)
from sim.games.yukon_airways.policies import CTX, action_score, fill_context, seat_weights, select
from sim.games.yukon_airways.rules import (
    apply_action,
    check_invariants,
    cockpit_at,
    legal_actions,
    redeal,
    se,
    setup,
)
from sim.rng import seed_streams

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


@leaf_kernel
def simulate(state, spec, base, w, rng, rig_dice, acts, ctx, depth, me, ev, evn):
    """Play the game in ``state`` on, every seat playing policy ``base`` with the weight row
    ``w``, until it is over, the turn cap, or ``depth`` days after the current one (0 = no
    limit); no events (``ev`` has 0 rows), no invariant checks; the same steps as
    ``playout``. Returns ``sim_score`` for seat ``me``."""
    p = spec[0]
    cap = p[P_CAP]
    stop = state[H_ROUND] + depth
    while state[H_STEP] != STEP_OVER:
        if capped(state[H_TURN], cap):
            break
        if depth > 0 and state[H_ROUND] >= stop:
            break
        n = legal_actions(state, spec, acts)
        k = 0
        if n > 1:
            k = select(state, spec, base, w, acts, n, rng, ctx)
        apply_action(state, spec, acts[k], rng, rig_dice, ev, evn)
    return sim_score(state, spec, me)


@kernel
def rollout_choice(state, spec, w, acts, n, rng, ctx):
    """Index (into ``acts[:n]``) of the action a ``rollout`` seat takes (RULES.md "Policies").

    ``w`` the seat's weight row: the base policy's weights, then (``engine.W_LA_*``) the base
    id, ``rollouts``, ``depth`` (days) and ``candidates``. Candidates: the base policy's own
    choice (``select``), then the other actions by the base's ``action_score`` (ties by
    order; a random base: by order), at most ``candidates`` (0 = all). For each of
    ``rollouts`` simulations ``engine.lookahead_streams`` seeds it from this seat's POLICY
    stream (the game's CHANCE stream is never drawn from); every candidate is tried on a copy
    of the position whose unseen tickets are re-dealt (``rules.redeal``) from those same
    streams (a paired comparison), applied, and played on by ``simulate``. The highest mean
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
    me = state[H_ACTOR]
    b = select(state, spec, base, w, acts, n, rng, ctx)
    sc = np.zeros(n)
    if base != POL_RANDOM:
        fill_context(state, spec, me, ctx)
        for i in range(n):
            sc[i] = action_score(state, spec, me, w, acts, i, ctx)
    cand = ranked_candidates(sc, b, K)
    if K == 1:
        return b
    sstate = np.empty_like(state)
    sub = np.zeros(2, np.uint64)
    srng = np.zeros(2, np.uint64)
    sacts = np.empty((MAX_ACTS, ACT_W), np.int32)
    sctx = np.zeros(CTX, np.int64)
    tmp = np.empty(p[P_NT] + p[P_NCARDS], np.int32)
    rig_dice = np.zeros(1, np.int32)
    ev = np.zeros((0, EV_W), np.int32)
    evn = np.zeros(1, np.int64)
    total = np.zeros(K)
    for _r in range(R):
        lookahead_streams(rng, sub)
        for k in range(K):
            sstate[:] = state
            srng[:] = sub
            redeal(sstate, spec, me, srng, tmp)
            apply_action(sstate, spec, acts[cand[k]], srng, rig_dice, ev, evn)
            total[k] += simulate(sstate, spec, base, w, srng, rig_dice, sacts, sctx, depth, me, ev, evn)
    return cand[np.argmax(total)]  # ties: the earlier candidate (the base's choice first)


# ---- one decision of a plain (not look-ahead) seat -------------------------------------------
_legal_inline = inline_kernel(legal_actions.py_func)
_select_inline = inline_kernel(select.py_func)
_apply_inline = inline_kernel(apply_action.py_func)
"""Inlined twins of ``rules.legal_actions``, ``policies.select`` and ``rules.apply_action`` (the
same Python functions, compiled into ``step``'s body)."""


@leaf_kernel
def step(state, spec, pid, w, acts, rng, rig_dice, ctx, ev, evn):
    """One decision of the seat to decide, playing the plain policy ``pid`` with weights ``w``:
    ``rules.legal_actions``, the choice (``policies.select``; the only action when there is
    one) and ``rules.apply_action``, exactly as ``playout`` calls them, inlined into one
    function so that the spec tuple (whose arrays a call passes field by field) is passed once
    per decision instead of three times."""
    n = _legal_inline(state, spec, acts)
    k = 0
    if n > 1:
        k = _select_inline(state, spec, pid, w, acts, n, rng, ctx)
    _apply_inline(state, spec, acts[k], rng, rig_dice, ev, evn)


@kernel
def playout(spec, pids, W, seed, g, rig_deck, rig_dice, state, rng, ev, evn, snaps, check):
    """Play game ``g`` of ``seed`` into ``state`` (int32[p[P_SIZE]]); returns 0 or the first
    violated invariant code (with ``check``, tested after every action).

    ``pids`` int64[S] policy of each seat, ``W`` float64[S, N_WEIGHTS]; ``rig_deck`` /
    ``rig_dice`` the engine's rigging arrays; events go to ``ev``/``evn``; ``snaps``
    int32[R, size] receives the state at the start of each round r < R (R = 0: none).
    The turn cap (``engine.capped`` on player turns) ends the game as a stall.
    """
    p = spec[0]
    acts = np.empty((MAX_ACTS, ACT_W), np.int32)
    ctx = np.zeros(CTX, np.int64)
    seed_streams(rng, seed, g)
    seat_weights(pids, W)
    setup(state, spec, rng, rig_deck, rig_dice, ev, evn)
    cap = p[P_CAP]
    last_round = -1
    while state[H_STEP] != STEP_OVER:
        if capped(state[H_TURN], cap):
            state[H_STALL] = 1
            state[H_WINNER] = -1
            state[H_SHARED] = 0
            emit(ev, evn, state[H_TURN], -1, E_STALL, 0, 0, 0, 0, 0)
            break
        r = state[H_ROUND]
        if r != last_round:
            if r < snaps.shape[0]:
                snaps[r, :] = state
            last_round = r
        s = state[H_ACTOR]
        if s < 0 or s >= pids.shape[0]:
            s = 0  # no seat decides (the step has one action): any seat's policy will do
        if pids[s] == POL_ROLLOUT:
            n = legal_actions(state, spec, acts)
            k = 0
            if n > 1:
                k = rollout_choice(state, spec, W[s], acts, n, rng, ctx)
            apply_action(state, spec, acts[k], rng, rig_dice, ev, evn)
        else:  # a plain seat, or an automatic step (one action, no choice)
            step(state, spec, pids[s], W[s], acts, rng, rig_dice, ctx, ev, evn)
        if check:
            code = check_invariants(state, spec)
            if code != 0:
                return code
    return 0


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
        v = 0
        for l in range(L):
            m = 0
            for c in range(NCOLG):
                m += state[cockpit_at(p, s, l, c)]
            if m > 0:
                v += 1
        row[col_at(O_VISITED[0], O_VISITED[1], S, s)] = v
        row[col_at(O_FLIGHTS[0], O_FLIGHTS[1], S, s)] = state[se(p, s, SE_FLIGHTS)]
        row[col_at(O_FLIGHTS[0], O_FLIGHTS[1] + 1, S, s)] = state[se(p, s, SE_SHORT)]
        row[col_at(O_FLIGHTS[0], O_FLIGHTS[1] + 2, S, s)] = state[se(p, s, SE_BURNT)]
        row[col_at(O_FLIGHTS[0], O_FLIGHTS[1] + 3, S, s)] = state[se(p, s, SE_UNFLOWN)]
        for k in range(NIMP):
            row[col_at(O_IMP[0], O_IMP[1] + k, S, s)] = state[se(p, s, SE_IMP + k)]
        for d in range(NDOCK):
            row[col_at(O_DOCK[0], O_DOCK[1] + d, S, s)] = state[se(p, s, SE_DOCKS + d)]


@kernel
def play_index(spec, entry_policy, entry_weights, perms, seed, g, rig_deck, rig_dice, check):
    """Play game ``g`` untraced with its seats' policies; returns (state, invariant code)."""
    p = spec[0]
    pids, W = seat_policies(entry_policy, entry_weights, perms, g)
    state = np.zeros(p[P_SIZE], np.int32)
    rng = np.zeros(2, np.uint64)
    ev = np.zeros((0, EV_W), np.int32)
    evn = np.zeros(1, np.int64)
    snaps = np.zeros((0, p[P_SIZE]), np.int32)
    code = playout(spec, pids, W, seed, g, rig_deck, rig_dice, state, rng, ev, evn, snaps, check)
    return state, code


@batch_kernel
def play_batch(spec, entry_policy, entry_weights, perms, seed, first_index, count, out):
    """Play games ``first_index .. first_index + count - 1`` into ``out`` (int32[count, C]);
    the contract of ``sim.games.base``. Each game seeds its own streams."""
    for i in prange(count):
        ii = np.int64(i)
        rig_deck = np.zeros(0, np.int32)
        rig_dice = np.zeros(1, np.int32)
        state, _ = play_index(spec, entry_policy, entry_weights, perms, seed, first_index + ii,
                              rig_deck, rig_dice, False)
        write_row(state, spec, out[ii])


@kernel
def check_one(spec, entry_policy, entry_weights, perms, seed, g):
    """Game ``g`` with the invariants checked after every action; 0 or a code."""
    rig_deck = np.zeros(0, np.int32)
    rig_dice = np.zeros(1, np.int32)
    _, code = play_index(spec, entry_policy, entry_weights, perms, seed, g, rig_deck, rig_dice, True)
    return code


@kernel
def play_traced(spec, entry_policy, entry_weights, perms, seed, g, ev, evn, snaps, row):
    """Game ``g`` with events (``ev``/``evn``), round snapshots (``snaps``) and its result
    ``row``; returns the final state."""
    p = spec[0]
    pids, W = seat_policies(entry_policy, entry_weights, perms, g)
    state = np.zeros(p[P_SIZE], np.int32)
    rng = np.zeros(2, np.uint64)
    rig_deck = np.zeros(0, np.int32)
    rig_dice = np.zeros(1, np.int32)
    playout(spec, pids, W, seed, g, rig_deck, rig_dice, state, rng, ev, evn, snaps, False)
    write_row(state, spec, row)
    return state


def run_traced(run, game_index: int):
    """Play game ``game_index`` of ``run`` traced. Returns (final state, events int32[E, 8],
    round snapshots int32[R, size], row int32[C])."""
    p = run.spec[0]
    size = int(p[P_SIZE])
    ev = np.zeros((20_000, EV_W), np.int32)
    evn = np.zeros(1, np.int64)
    snaps = np.zeros((int(p[P_ROUNDS]), size), np.int32)
    row = np.zeros(len(run.game.column_names(run.n_seats)), np.int32)
    state = play_traced(run.spec, run.entry_policy, run.entry_weights, run.perms, np.int64(run.seed),
                        np.int64(game_index), ev, evn, snaps, row)
    return state, ev[: evn[0]], snaps, row


def check_game(run, game_index: int) -> int:
    """Game ``game_index`` of ``run`` with invariants after every action; 0 or a V_* code."""
    return int(check_one(run.spec, run.entry_policy, run.entry_weights, run.perms, np.int64(run.seed),
                         np.int64(game_index)))


