"""Dice Race's engine hooks (:mod:`sim.games.loop`): what one turn is, in the engine's words.
The engine owns the loop; this module binds it (``KERNELS``) and exports the kernel
contract's ``play_batch``, ``run_traced`` and ``check_playout``.

A turn (RULES.md 2-5) is one decision of the seat to move, which has already rolled: the
allowed moves (``rules.legal_moves``), the choice (``policies.select``, or ``rollout_choice``
below for a look-ahead seat) and ``rules.apply_move``; the turn's tail is ``rules.end_turn``
(the finish check, the next seat, and its roll, with the scenario's scripted dice
``rig_dice`` when a test gives them).

``work`` = (acts int32[MAX_ACTS, ACT_W] the allowed moves, tw int64[1]: 1 once the seat moved,
sc float64[MAX_ACTS] the moves' scores at a temperature, ``scores``).
"""

from __future__ import annotations

import numpy as np

from sim.games.dice_race.layout import (
    ACT_W,
    E_TURN,
    H_CUR,
    H_DIE,
    H_DONE,
    H_TURN,
    H_WINNER,
    MAX_ACTS,
    P_CAP,
    P_OFF_POS,
    P_S,
    P_SIZE,
    POL_GREEDY,
    POL_RANDOM,
    POL_ROLLOUT,
)
from sim.games.dice_race.play import (
    sim_score,
    write_row,  # noqa: F401  (an engine hook)
)
from sim.games.dice_race.policies import move_score, score_moves, select
from sim.games.dice_race.rules import apply_move, check_invariants, legal_moves, mark_stall, setup
from sim.games.dice_race.rules import end_turn as pass_turn
from sim.games.engine import (
    EV_W,
    W_LA_BASE,
    W_LA_DEPTH,
    W_LA_ROLLOUTS,
    emit,
    inline_kernel,
    kernel,
    lookahead_seats,
    lookahead_streams,
    ranked_candidates,
)
from sim.games.loop import bind

POL_LOOKAHEAD = POL_ROLLOUT
LEAF_STEP = True  # legal_actions, choose and apply allocate nothing
LEAF_TURN = True  # begin_turn and end_turn allocate nothing
INLINE_TURN = True  # short turns
SNAP_BEFORE_CAP = False  # the snapshot of turn t is taken after its head (begin_turn)
CHECK_EACH_ACTION = False  # one decision a turn: checked after the turn


@kernel
def new_state(spec):
    return np.zeros(spec[0][P_SIZE], np.int32)


@kernel
def shared(spec):
    return np.zeros(0, np.int32)


@kernel
def new_work(spec, sh):
    return np.empty((MAX_ACTS, ACT_W), np.int32), np.zeros(1, np.int64), np.empty(MAX_ACTS, np.float64)


@inline_kernel
def thread_spec(spec):
    return spec


@inline_kernel
def start(state, spec, pids, W, rng, rig_deck, rig_dice, work, ev, evn):
    setup(state, spec, rng, rig_dice, ev, evn)


@inline_kernel
def over(state):
    return state[H_DONE] == 1


@inline_kernel
def clock(state):
    return state[H_TURN]


@inline_kernel
def turn_cap(spec):
    return spec[0][P_CAP]


@inline_kernel
def stall(state, spec, ev, evn):
    mark_stall(state, ev, evn)


@inline_kernel
def snap_key(state):
    return state[H_TURN]


@inline_kernel
def begin_turn(state, spec, pids, W, rng, rig_dice, work, ev, evn):
    emit(ev, evn, state[H_TURN], state[H_CUR], E_TURN, state[H_DIE], state[H_DIE + 1], 0, 0, 0)
    work[1][0] = 0


@inline_kernel
def turn_done(state, work):
    return work[1][0] == 1


@inline_kernel
def actor(state, spec):
    return state[H_CUR]


@inline_kernel
def legal_actions(state, spec, work):
    return legal_moves(state, spec, work[0])


@inline_kernel
def choose(state, spec, pid, w, work, n, rng):
    return select(state, spec, pid, w, work[0], n, rng)


choose_sim = choose


@inline_kernel
def scores(state, spec, pid, w, work, n):
    return work[2][: score_moves(state, spec, pid, w, work[0], n, work[2])]


@inline_kernel
def choose_lookahead(state, spec, w, work, n, rng):
    return rollout_choice(state, spec, w, work[0], n, rng)


@inline_kernel
def apply(state, spec, pid, w, work, choice, rng, rig_dice, ev, evn):
    apply_move(state, spec, work[0][choice], ev, evn)
    work[1][0] = 1


@inline_kernel
def end_turn(state, spec, pids, W, rng, rig_dice, work, ev, evn):
    pass_turn(state, spec, rng, rig_dice, ev, evn)


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
    return state[H_TURN] // spec[0][P_S]  # every seat rolls once a round


@inline_kernel
def decided(state):
    return state[H_WINNER] >= 0


@inline_kernel
def winner(state):
    return state[H_WINNER]


@inline_kernel
def progress(state, spec, hist, k):
    p = spec[0]
    for s in range(p[P_S]):
        hist[k, s] = state[p[P_OFF_POS] + s]  # spaces along the track (RULES.md "Tension")


def trace_rows(spec) -> tuple[int, int]:
    """Event rows (turn, roll, move, finish and up to three bumps a turn: 8) and snapshot rows
    (one a turn) a traced race can need."""
    cap = int(spec[0][P_CAP])
    return cap * 8 + 16, cap + 1


def snaps_used(state, snaps):
    """The snapshots of the turns played (row t: the start of turn t)."""
    return snaps[: int(state[H_TURN]) + 1]


KERNELS = bind("dice_race", globals(), trace_rows, snaps_used)
play_batch = KERNELS.play_batch
run_traced = KERNELS.run_traced
run_progress = KERNELS.run_progress
check_playout = KERNELS.check_playout
simulate = KERNELS.simulate


# ---- the look-ahead policy's decision (RULES.md "Policies", ``rollout``) ---------------------
# Its simulations are the engine's ``simulate`` over the hooks above, so it is defined after the
# binding; ``choose_lookahead`` calls it (numba resolves the name when it compiles).
@kernel
def rollout_choice(state, spec, w, acts, n, rng):
    """Index (into ``acts[:n]``) of the move a ``rollout`` seat makes (RULES.md "Policies").

    ``w`` the seat's weight row: the base policy's weights, then (``engine.W_LA_*``) the base
    id, ``rollouts`` and ``depth``. Candidates: the base policy's own choice (``select``),
    then the other moves by the base's ``move_score`` (a random base: by order). For each of
    ``rollouts`` simulations ``engine.lookahead_streams`` seeds it from this seat's POLICY
    stream (the game's CHANCE stream is never drawn from); every candidate is tried on a copy
    of the position with those same streams (the same simulated dice: a paired comparison),
    applied, and played on by the engine's ``simulate`` (every seat on the base policy,
    ``depth`` further player turns, 0 = to the end). Dice Race hides nothing, so there is no re-deal
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
    stw = np.zeros(1, np.int64)
    sw = (sacts, stw, np.empty(MAX_ACTS, np.float64))
    S = spec[0][P_S]
    pids, Wb = lookahead_seats(base, w, S)
    sdepth = depth + 1 if depth > 0 else 0  # simulate counts the deciding seat's own turn
    for _r in range(R):
        lookahead_streams(rng, sub)
        for k in range(K):
            sstate[:] = state
            srng[:] = sub
            apply_move(sstate, spec, acts[cand[k]], ev, evn)
            stw[0] = 1  # the candidate was the turn's decision: simulate goes on with its tail
            simulate(sstate, spec, pids, Wb, srng, rig_dice, sw, ev, evn, sdepth)
            total[k] += sim_score(sstate, spec, me)
    return cand[np.argmax(total)]  # ties: the earlier candidate (the base's choice first)


# ---- user policies (docs/policies.md, sim.userpol) -------------------------------------------
# A user seat plays USER_BASE's id; the engine asks its user function every decision where
# ``user_legal`` gives rows (a return of -1 leaves the decision to USER_BASE).
USER_BASE = POL_GREEDY
"""The built-in policy of a user seat's decisions its function leaves (-1) or is not asked."""




@kernel
def user_redeal(state, spec, seat, rng):
    """Re-deal what ``seat`` cannot see (the policy check's hidden-information test): nothing,
    Dice Race hides nothing."""
    return 0
