"""Flying Carpet's engine hooks (:mod:`sim.games.loop`): what one turn is, in the engine's
words. The engine owns the loop; this module binds it (``KERNELS``) and exports the kernel
contract's ``play_batch``, ``run_traced`` and ``check_playout``.

A turn (RB "Turn") is the seat's decisions until ``H_PHASE`` is PH_END: its move, then the
die's decisions (the cloud move is chosen by ``policies.choose_cloud``, not from an
enumerated list: ``legal_actions`` returns 0 there and ``choose`` writes the one row it
plays). The turn's tail adds the bookkeeping counters (waiting near the finish, wasted
turns; not rules) and the stale-map rule of the policies (RULES.md "Policies": when a carpet
stays put after a cloud moved, its distance map is recomputed from the board), then
``rules.end_turn``.

``work`` = (acts int32[p[P_MAXACT], ACT_W], cw int32[2 * NCELL] scratch, fw float64[HAND + 1],
dmap float64[NCELL] this game's copy of the policy map, tw int64[7]: tw[0] 1 once a cloud
moved since the map was computed, tw[1] the seat's cell at the turn's start, tw[2] 1 when the
turn is a skipped one, tw[3] 1 when it started near the finish, tw[4] its blown count then,
tw[5] 1 in a look-ahead simulation (no bookkeeping; the stale map is recomputed when the
carpet stayed put, skipped turn or not, as the simulations always did), tw[6] 1 in a
simulation's first turn, the deciding seat's own, where the map is kept, tw[7] 1 when
``settle`` must recompute the map after the turn: the rules' end of the turn does not read
or move the board's clouds, so recomputing after it gives the map it gave before it; sc
float64[p[P_MAXACT]]: the rows' scores at a temperature, ``scores``).
"""

from __future__ import annotations

import numpy as np

from sim.games.engine import (
    EV_W,
    W_LA_BASE,
    W_LA_DEPTH,
    W_LA_EXTRA,
    W_LA_ROLLOUTS,
    inline_kernel,
    kernel,
    leaf_kernel,
    lookahead_seats,
    lookahead_streams,
    ranked_candidates,
)
from sim.games.flying_carpet.layout import (
    A_A,
    A_B,
    A_KIND,
    ACT_W,
    H_CUR,
    H_DONE,
    H_PHASE,
    H_PLAYED,
    H_ROUND,
    H_TURN,
    H_WINNER,
    K_CLOUD,
    K_KEEP,
    NCELL,
    NSTAT,
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
    P_S,
    P_START,
    P_STATE_SIZE,
    PH_CLOUDS,
    PH_END,
    PH_SKIP,
    POL_GREEDY,
    POL_RANDOM,  # noqa: F401  (an engine constant: the policy a mistake plays)
    POL_ROLLOUT,
    ST_BLOWN,
    ST_WAIT,
    ST_WASTED,
    W,
)
from sim.games.flying_carpet.play import (
    _apply_inline,
    _legal_inline,
    _select_inline,
    sim_score,
    write_row,  # noqa: F401  (an engine hook)
)
from sim.games.flying_carpet.policies import (
    choose_cloud,
    map_into,
    policy_map,
    prepare,
    row_score,
    score_rows,
    select,
)
from sim.games.flying_carpet.rules import (
    apply_action,
    check_invariants,
    mark_stall,
    redeal,
    setup,
    start_race,
)
from sim.games.flying_carpet.rules import end_turn as turn_tail
from sim.games.loop import bind

POL_LOOKAHEAD = POL_ROLLOUT
LEAF_STEP = True  # legal_actions, choose and apply allocate nothing
LEAF_TURN = True  # begin_turn and end_turn allocate nothing (the map recomputation is settle's)
INLINE_TURN = False  # the decision body is large
SNAP_BEFORE_CAP = True  # a capped race's last position is in the replay
CHECK_EACH_ACTION = True
TW = 8
"""Length of the turn flags ``work[4]`` (the module docstring's tw[0] .. tw[7])."""


@kernel
def new_state(spec):
    return np.zeros(spec[0][P_STATE_SIZE], np.int32)


@kernel
def shared(spec):
    return policy_map(spec)


@kernel
def new_work(spec, sh):
    p = spec[0]
    acts = np.empty((p[P_MAXACT], ACT_W), np.int32)
    cw = np.empty(2 * NCELL, np.int32)
    fw = np.empty(p[P_HAND] + 1, np.float64)
    return acts, cw, fw, sh.copy(), np.zeros(TW, np.int64), np.empty(p[P_MAXACT], np.float64)


@kernel
def thread_spec(spec):
    # thread-private copies of the shared read-only arrays: no reference-count traffic on
    # memory the other threads touch
    return (spec[0].copy(), spec[1].copy(), spec[2].copy(), spec[3].copy(), spec[4].copy(), spec[5].copy(),
            spec[6].copy(), spec[7].copy(), spec[8].copy(), spec[9].copy())


@inline_kernel
def start(state, spec, pids, W_, rng, rig_deck, rig_dice, work, ev, evn):
    setup(state, spec, rng, rig_deck, rig_dice)
    start_race(state, spec, ev, evn)


@inline_kernel
def over(state):
    return state[H_DONE] == 1


@inline_kernel
def clock(state):
    return state[H_PLAYED]


@inline_kernel
def turn_cap(spec):
    return spec[0][P_CAP]


@inline_kernel
def stall(state, spec, ev, evn):
    mark_stall(state, ev, evn)


@inline_kernel
def snap_key(state):
    return state[H_TURN]


@leaf_kernel
def _turn_head(state, spec, work):
    """The turn's bookkeeping head: where the seat stands, whether the turn is a skipped one,
    whether it starts near the finish, its blown count (``work[4]``, see the docstring)."""
    p = spec[0]
    tw = work[4]
    s = state[H_CUR]
    pos0 = state[p[P_OFF_POS] + s]
    fin = p[P_FINISH]
    tw[1] = pos0
    tw[2] = 1 if state[H_PHASE] == PH_SKIP else 0
    tw[3] = 1 if abs(pos0 % W - fin % W) + abs(pos0 // W - fin // W) <= p[P_NEAR] else 0
    tw[4] = state[p[P_OFF_STATS] + s * NSTAT + ST_BLOWN]
    tw[6] = 0


@inline_kernel
def begin_turn(state, spec, pids, W_, rng, rig_dice, work, ev, evn):
    _turn_head(state, spec, work)


@inline_kernel
def turn_done(state, work):
    return state[H_PHASE] == PH_END


@inline_kernel
def actor(state, spec):
    return state[H_CUR]


@inline_kernel
def legal_actions(state, spec, work):
    if state[H_PHASE] == PH_CLOUDS:
        return 0
    return _legal_inline(state, spec, work[0], work[1])


@inline_kernel
def _cloud_choice(state, spec, pid, w, work, rng):
    acts = work[0]
    piece, anchor = choose_cloud(state, spec, work[3], pid, w, rng, work[1])
    acts[0, :] = -1
    acts[0, A_KIND] = K_KEEP if piece < 0 else K_CLOUD
    acts[0, A_A] = piece
    acts[0, A_B] = anchor
    return 0


@inline_kernel
def choose(state, spec, pid, w, work, n, rng):
    if state[H_PHASE] == PH_CLOUDS:
        return _cloud_choice(state, spec, pid, w, work, rng)
    return _select_inline(state, spec, work[3], pid, w, work[0], n, rng, work[2])


choose_sim = choose


@inline_kernel
def scores(state, spec, pid, w, work, n):
    return work[5][: score_rows(state, spec, work[3], pid, w, work[0], n, work[2], work[5])]


@inline_kernel
def choose_lookahead(state, spec, w, work, n, rng):
    if state[H_PHASE] == PH_CLOUDS:  # the rollout seat moves clouds as its base policy does
        return _cloud_choice(state, spec, np.int64(w[W_LA_BASE]), w, work, rng)
    return rollout_choice(state, spec, work[3], w, work[0], n, rng, work[2], work[4][0] != 0)


@inline_kernel
def apply(state, spec, pid, w, work, choice, rng, rig_dice, ev, evn):
    if state[H_PHASE] == PH_CLOUDS:
        row = work[0][0]
        apply_action(state, spec, row, rng, rig_dice, ev, evn)
        if row[A_A] >= 0:
            work[4][0] = 1
    else:
        _apply_inline(state, spec, work[0][choice], rng, rig_dice, ev, evn)


@leaf_kernel
def _turn_stats(state, spec, work):
    """The turn's bookkeeping tail (not rules): waiting near the finish and wasted turns
    (``ST_WAIT``, ``ST_WASTED``; none in a look-ahead simulation). Returns True when the seat's
    distance map must be recomputed (the stale-map rule of the module docstring), which
    ``settle`` does after the turn."""
    p = spec[0]
    tw = work[4]
    dist = work[3]
    s = state[H_CUR]
    if tw[5] != 0:  # a look-ahead simulation (rollout_choice): the stale-map rule only
        if tw[6] == 0 and tw[0] != 0 and state[p[P_OFF_RANK] + s] == 0 and state[p[P_OFF_POS] + s] == tw[1]:
            tw[0] = 0
            return True
    elif state[p[P_OFF_RANK] + s] == 0:
        st = p[P_OFF_STATS] + s * NSTAT
        if tw[3] != 0:
            state[st + ST_WAIT] += 1
        if tw[2] == 0:
            pos0 = tw[1]
            pos1 = state[p[P_OFF_POS] + s]
            if state[st + ST_BLOWN] > tw[4] or dist[pos1] >= dist[pos0]:
                state[st + ST_WASTED] += 1
            if tw[0] != 0 and pos1 == pos0:
                tw[0] = 0
                return True
    return False


@inline_kernel
def end_turn(state, spec, pids, W_, rng, rig_dice, work, ev, evn):
    if _turn_stats(state, spec, work):
        work[4][7] = 1  # settle recomputes the map (policies.map_into allocates)
    turn_tail(state, spec, ev, evn)


@inline_kernel
def settle(state, spec, work):
    tw = work[4]
    if tw[7] != 0:  # the map of the stale-map rule, recomputed from the board (rare)
        tw[7] = 0
        s0 = spec[0][P_OFF_SCEN]
        map_into(spec, state[s0: s0 + NCELL], work[3])


@inline_kernel
def settle_due(state, work):
    return work[4][7] != 0


@inline_kernel
def check(state, spec):
    return check_invariants(state, spec)


@inline_kernel
def finish(state, spec, ev, evn):
    pass


@inline_kernel
def sim_over(state):
    return False


@inline_kernel
def sim_clock(state, t):
    return t


@inline_kernel
def round_of(state, spec):
    return state[H_ROUND] - 1  # rounds begun, counted up when the turn passes back round the table


@inline_kernel
def decided(state):
    return state[H_WINNER] >= 0  # the first carpet home wins (play_for_placings plays on)


@inline_kernel
def winner(state):
    return state[H_WINNER]


@inline_kernel
def progress(state, spec, hist, k):
    # RULES.md "Tension": tenths of a move of the course covered, on the distance map of the
    # board as set up (spec[7], turns to the finish): 10 x (start's distance - the carpet's)
    p = spec[0]
    dist = spec[7]
    d0 = dist[p[P_START]]
    for s in range(p[P_S]):
        d = min(dist[state[p[P_OFF_POS] + s]], d0)
        hist[k, s] = int(10.0 * (d0 - d) + 0.5)


def trace_rows(spec) -> tuple[int, int]:
    """Event and snapshot rows a traced race can need (24 events a turn)."""
    cap = int(spec[0][P_CAP])
    return cap * 24 + 256, cap + 2


def snaps_used(state, snaps):
    """The snapshots of the turns played (row t: the start of turn t; row 0 unused)."""
    return snaps[: int(state[H_TURN]) + 1]


KERNELS = bind("flying_carpet", globals(), trace_rows, snaps_used)
play_batch = KERNELS.play_batch
run_traced = KERNELS.run_traced
run_progress = KERNELS.run_progress
check_playout = KERNELS.check_playout
simulate = KERNELS.simulate


# ---- the look-ahead policy's decision (RULES.md "Policies", ``rollout``) ---------------------
# Its simulations are the engine's ``simulate`` over the hooks above, so it is defined after the
# binding; ``choose_lookahead`` calls it (numba resolves the name when it compiles).
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
    (paired comparison), applied, and played on by the engine's ``simulate`` (every seat on
    the base policy; the first, continued turn keeps the map as it is, a later one where the
    carpet stayed put after a cloud moved recomputes it). The highest mean
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
    stw = np.zeros(TW, np.int64)  # a simulation's turn flags: as long as a game's (settle's tw[7])
    sw = (sacts, swork, sfw, sdmap, stw, np.empty(p[P_MAXACT], np.float64))
    S = p[P_S]
    pids, Wb = lookahead_seats(base, w, S)
    for _r in range(R):
        lookahead_streams(rng, sub)
        for k in range(K):
            sstate[:] = state
            srng[:] = sub
            sdmap[:] = dmap
            redeal(sstate, spec, me, srng, tmp)
            row = acts[cand[k]]
            apply_action(sstate, spec, row, srng, rig_dice, ev, evn)
            stw[:] = 0
            stw[0] = 1 if stale else 0
            stw[5] = 1  # a simulation: no bookkeeping counters
            stw[6] = 1  # its first turn is the deciding seat's own, continued
            simulate(sstate, spec, pids, Wb, srng, rig_dice, sw, ev, evn, depth)
            total[k] += sim_score(sstate, spec, sdmap, me)
    return cand[np.argmax(total)]  # ties: the earlier candidate (the base's choice first)


# ---- user policies (docs/policies.md, sim.userpol) -------------------------------------------
# A user seat plays USER_BASE's id; the engine asks its user function every decision where
# ``user_legal`` gives rows (a return of -1 leaves the decision to USER_BASE).
USER_BASE = POL_GREEDY
"""The built-in policy of a user seat's decisions its function leaves (-1) or is not asked:
the cloud move of the die's cloud face (RB "Die", chosen by ``policies.choose_cloud``, not from
an enumerated list) and every -1."""


@inline_kernel
def user_legal(state, spec, work, n):
    """The rows a user policy chooses among and their count: the legal actions of the phase
    (``layout`` A_* columns: the move, then the die's decisions); none (0) in the cloud
    phase, which the base decides."""
    if state[H_PHASE] == PH_CLOUDS:
        return work[0], 0
    return work[0], n



@kernel
def user_redeal(state, spec, seat, rng):
    """Re-deal what ``seat`` cannot see (the policy check's hidden-information test): the
    rollout's ``rules.redeal`` (the supply stack and every other seat's hand)."""
    redeal(state, spec, seat, rng, np.empty(2 * spec[0][P_NC], np.int32))
    return 0
