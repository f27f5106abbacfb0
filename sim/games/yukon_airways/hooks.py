"""Yukon Airways' engine hooks (:mod:`sim.games.loop`): what one turn is, in the engine's
words. The engine owns the loop; this module binds it (``KERNELS``) and exports the kernel
contract's ``play_batch``, ``run_traced`` and ``check_playout``.

The rules advance as a sequence of steps (``H_STEP``), each one decision of the seat in
``H_ACTOR`` (RB day structure: placement, flights, tickets, the day's end ...); an engine
turn is one such step: ``rules.legal_actions``, the choice (``policies.select``, or
``hooks.rollout_choice`` for a look-ahead seat; no choice when there is one action) and
``rules.apply_action``. A step no seat decides (``H_ACTOR`` -1) is taken by seat 0's policy,
which has nothing to choose. The turn cap counts player turns (``H_TURN``); snapshots are
taken once a round (``H_ROUND``, a day).

``work`` = (acts int32[MAX_ACTS, ACT_W], ctx int64[CTX] the policies' context, tw int64[1]:
1 once the step's action was taken, sc float64[MAX_ACTS] the actions' scores at a temperature,
``scores``).
"""

from __future__ import annotations

import numpy as np

from sim.games.engine import (
    EV_W,
    W_LA_BASE,
    W_LA_DEPTH,
    W_LA_EXTRA,
    W_LA_ROLLOUTS,
    emit,
    inline_kernel,
    kernel,
    lookahead_seats,
    lookahead_streams,
    ranked_candidates,
)
from sim.games.loop import bind
from sim.games.yukon_airways.layout import (
    ACT_W,
    E_STALL,
    H_ACTOR,
    H_ROUND,
    H_SHARED,
    H_STALL,
    H_STEP,
    H_TURN,
    H_WINNER,
    MAX_ACTS,
    P_CAP,
    P_NCARDS,
    P_NT,
    P_ROUNDS,
    P_S,
    P_SIZE,
    POL_GREEDY,
    POL_RANDOM,
    POL_ROLLOUT,
    STEP_OVER,
)
from sim.games.yukon_airways.play import (
    _apply_inline,
    _legal_inline,
    _select_inline,
    sim_score,
    write_row,  # noqa: F401  (an engine hook)
)
from sim.games.yukon_airways.policies import (
    CTX,
    action_score,
    fill_context,
    score_actions,
    seat_weights,
    select,
)
from sim.games.yukon_airways.rules import apply_action, check_invariants, redeal, score_now, setup

POL_LOOKAHEAD = POL_ROLLOUT
LEAF_STEP = True  # legal_actions, choose and apply allocate nothing
LEAF_TURN = True  # begin_turn and end_turn allocate nothing
INLINE_TURN = False  # the decision body is large: inlined into _turns it made the cold compile of a run 75 -> 99 s
                     # for 30 % more games a second (2026-12-07; a step's call passes 164 words of array fields)
SNAP_BEFORE_CAP = False
CHECK_EACH_ACTION = False  # a turn is one action: checked after every turn


@kernel
def new_state(spec):
    return np.zeros(spec[0][P_SIZE], np.int32)


@kernel
def shared(spec):
    return np.zeros(0, np.int32)


@kernel
def new_work(spec, sh):
    return np.empty((MAX_ACTS, ACT_W), np.int32), np.zeros(CTX, np.int64), np.zeros(1, np.int64), np.empty(MAX_ACTS)


@inline_kernel
def thread_spec(spec):
    return spec


@inline_kernel
def start(state, spec, pids, W, rng, rig_deck, rig_dice, work, ev, evn):
    seat_weights(pids, W)
    setup(state, spec, rng, rig_deck, rig_dice, ev, evn)


@inline_kernel
def over(state):
    return state[H_STEP] == STEP_OVER


@inline_kernel
def clock(state):
    return state[H_TURN]


@inline_kernel
def turn_cap(spec):
    return spec[0][P_CAP]


@inline_kernel
def stall(state, spec, ev, evn):
    state[H_STALL] = 1
    state[H_WINNER] = -1
    state[H_SHARED] = 0
    emit(ev, evn, state[H_TURN], -1, E_STALL, 0, 0, 0, 0, 0)


@inline_kernel
def snap_key(state):
    return state[H_ROUND]


@inline_kernel
def begin_turn(state, spec, pids, W, rng, rig_dice, work, ev, evn):
    work[2][0] = 0


@inline_kernel
def turn_done(state, work):
    return work[2][0] == 1


@inline_kernel
def actor(state, spec):
    s = state[H_ACTOR]
    if s < 0 or s >= spec[0][P_S]:
        s = 0  # no seat decides (the step has one action): any seat's policy will do
    return s


@inline_kernel
def legal_actions(state, spec, work):
    return _legal_inline(state, spec, work[0])


@inline_kernel
def choose(state, spec, pid, w, work, n, rng):
    if n <= 1:
        return 0
    return _select_inline(state, spec, pid, w, work[0], n, rng, work[1])


choose_sim = choose


@inline_kernel
def scores(state, spec, pid, w, work, n):
    return work[3][: score_actions(state, spec, pid, w, work[0], n, work[1], work[3])]


@inline_kernel
def choose_lookahead(state, spec, w, work, n, rng):
    if n <= 1:
        return 0
    return rollout_choice(state, spec, w, work[0], n, rng, work[1])


@inline_kernel
def apply(state, spec, pid, w, work, choice, rng, rig_dice, ev, evn):
    _apply_inline(state, spec, work[0][choice], rng, rig_dice, ev, evn)
    work[2][0] = 1


@inline_kernel
def end_turn(state, spec, pids, W, rng, rig_dice, work, ev, evn):
    pass


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
    return state[H_ROUND]  # a simulation's depth is in days


@inline_kernel
def round_of(state, spec):
    return state[H_ROUND]  # days completed (the maintenance counts the day up)


@inline_kernel
def decided(state):
    return over(state)  # the final scoring decides


@inline_kernel
def winner(state):
    return state[H_WINNER]  # -1 for a shared win


@inline_kernel
def progress(state, spec, hist, k):
    for s in range(spec[0][P_S]):
        hist[k, s] = score_now(state, spec, s)  # money plus the final scoring as it stands


def trace_rows(spec) -> tuple[int, int]:
    """Event rows (20,000) and snapshot rows (one a round) of a traced game."""
    return 20_000, int(spec[0][P_ROUNDS])


def snaps_used(state, snaps):
    """Every round's snapshot row (row r: the start of round r)."""
    return snaps


KERNELS = bind("yukon_airways", globals(), trace_rows, snaps_used)
play_batch = KERNELS.play_batch
run_traced = KERNELS.run_traced
run_progress = KERNELS.run_progress
check_playout = KERNELS.check_playout
simulate = KERNELS.simulate


# ---- the look-ahead policy's decision (RULES.md "Policies", ``rollout``) ---------------------
# Its simulations are the engine's ``simulate`` over the hooks above, so it is defined after the
# binding; ``choose_lookahead`` calls it (numba resolves the name when it compiles).
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
    streams (a paired comparison), applied, and played on by the engine's ``simulate`` (every seat on the base policy, ``depth`` days
    after the current one, 0 = to the end). The highest mean
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
    stw = np.zeros(1, np.int64)
    sw = (sacts, sctx, stw, np.empty(MAX_ACTS))
    S = p[P_S]
    pids, Wb = lookahead_seats(base, w, S)
    for _r in range(R):
        lookahead_streams(rng, sub)
        for k in range(K):
            sstate[:] = state
            srng[:] = sub
            redeal(sstate, spec, me, srng, tmp)
            apply_action(sstate, spec, acts[cand[k]], srng, rig_dice, ev, evn)
            stw[0] = 1  # the candidate was this step's action
            simulate(sstate, spec, pids, Wb, srng, rig_dice, sw, ev, evn, depth)
            total[k] += sim_score(sstate, spec, me)
    return cand[np.argmax(total)]  # ties: the earlier candidate (the base's choice first)


# ---- user policies (docs/policies.md, sim.userpol) -------------------------------------------
# A user seat plays USER_BASE's id; the engine asks its user function every decision where
# ``user_legal`` gives rows (a return of -1 leaves the decision to USER_BASE).
USER_BASE = POL_GREEDY
"""The built-in policy of a user seat's decisions its function leaves (-1)."""


@inline_kernel
def user_legal(state, spec, work, n):
    """The rows a user policy chooses among and their count: the step's legal actions
    (``layout`` ACT_W columns, as ``rules.legal_actions`` writes them); none (0) for a step
    with one action (nothing to choose)."""
    if n <= 1:
        return work[0], 0
    return work[0], n



@kernel
def user_redeal(state, spec, seat, rng):
    """Re-deal what ``seat`` cannot see (the policy check's hidden-information test): the
    rollout's ``rules.redeal`` (the draw pile and every other seat's tickets)."""
    p = spec[0]
    redeal(state, spec, seat, rng, np.empty(p[P_NT] + p[P_NCARDS], np.int32))
    return 0
