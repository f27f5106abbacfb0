"""Clear for Takeoff's engine hooks (:mod:`sim.games.loop`): what one turn is, in the
engine's words. The engine owns the loop; this module binds it (``KERNELS``) and exports the
kernel contract's ``play_batch``, ``run_traced`` and ``check_playout``.

A turn (RB Turn sequence) is one decision of the seat to move: a play, an exchange or a pass
(``policies.select``, or ``hooks.rollout_choice`` for a look-ahead seat), then the turn's
fixed tail (``play.end_turn``: the face-down draw, the independent movement, the finish
check). ``work`` = (acts int32[max_actions, ACT_W], disc int32[NCT], need int32[NCT], tw
int64[2]: tw[0] 1 once the seat has acted this turn, tw[1] the cards its exchange came up
short, RULES.md D4; sc float64[max_actions + 1]: the options' scores at a temperature,
``scores``: the plays, then the exchange).
"""

from __future__ import annotations

import numpy as np

from sim.games.clear_for_takeoff.layout import (
    ACT_W,
    CH_EXCHANGE,
    CH_PASS,
    E_TURN,
    H_CUR,
    H_DONE,
    H_TURN,
    H_WINNER,
    NCT,
    P_CAP,
    P_S,
    POL_GREEDY,
    POL_HEURISTIC,
    POL_RANDOM,  # noqa: F401  (an engine constant: the policy a mistake plays)
    POL_ROLLOUT,
    RUNWAY_POLICY,
    W_ATTACK,
)
from sim.games.clear_for_takeoff.play import (
    _same_disc,
    apply_choice,
    plain_policy,
    progress_steps,
    sim_value,
    stop_at_cap,
    write_row,  # noqa: F401  (an engine hook)
)
from sim.games.clear_for_takeoff.play import begin_turn as turn_head
from sim.games.clear_for_takeoff.play import end_turn as turn_tail
from sim.games.clear_for_takeoff.policies import (
    choose_exchange,
    policy_exchange,
    score_options,
    score_play,
    select,
)
from sim.games.clear_for_takeoff.rules import (
    apply_exchange,
    apply_play,
    check_invariants,
    hand_total,
    legal_plays,
    max_actions,
    redeal,
    setup,
    state_size,
)
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

POL_LOOKAHEAD = POL_ROLLOUT
LEAF_STEP = True  # legal_actions, choose and apply allocate nothing
LEAF_TURN = True  # begin_turn and end_turn allocate nothing
INLINE_TURN = True  # short turns: the decision call was 15-20 % of a turn
SNAP_BEFORE_CAP = False  # the snapshot of turn t is taken after its head (begin_turn)
CHECK_EACH_ACTION = False  # one decision a turn: checked after the turn's tail


@kernel
def new_state(spec):
    return np.zeros(state_size(spec[0]), np.int32)


@kernel
def shared(spec):
    return np.zeros(0, np.int32)


@kernel
def new_work(spec, sh):
    acts = np.empty((max_actions(spec[0]), ACT_W), np.int32)
    return (acts, np.zeros(NCT, np.int32), np.zeros(NCT, np.int32), np.zeros(2, np.int64),
            np.empty(acts.shape[0] + 1, np.float64))


@kernel
def thread_spec(spec):
    # thread-private copies of the shared read-only arrays: no refcount traffic on memory the
    # other threads touch
    return spec[0].copy(), spec[1].copy(), spec[2].copy()


@inline_kernel
def start(state, spec, pids, W, rng, rig_deck, rig_dice, work, ev, evn):
    setup(state, spec[0], spec[1], spec[2], rng, rig_deck)


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
    stop_at_cap(state, ev, evn)


@inline_kernel
def snap_key(state):
    return state[H_TURN]


@inline_kernel
def begin_turn(state, spec, pids, W, rng, rig_dice, work, ev, evn):
    turn_head(state, spec[0])
    emit(ev, evn, state[H_TURN], state[H_CUR], E_TURN, 0, 0, 0, 0, 0)
    work[3][0] = 0
    work[3][1] = 0


@inline_kernel
def turn_done(state, work):
    return work[3][0] == 1


@inline_kernel
def actor(state, spec):
    return state[H_CUR]


@inline_kernel
def legal_actions(state, spec, work):
    return legal_plays(state, spec[0], spec[2], work[0])


@inline_kernel
def choose(state, spec, pid, w, work, n, rng):
    return select(state, spec[0], spec[2], pid, w, work[0], n, work[1], work[2], rng)


choose_sim = choose


@inline_kernel
def scores(state, spec, pid, w, work, n):
    return work[4][: score_options(state, spec[0], spec[2], pid, w, work[0], n, work[4])]


@inline_kernel
def scored_choice(state, spec, pid, w, work, n, k):
    if k < n:
        return np.int64(k)
    return policy_exchange(state, spec[0], spec[2], state[H_CUR], pid, w, work[1], work[2])  # option n: the exchange


@inline_kernel
def choose_lookahead(state, spec, w, work, n, rng):
    return rollout_choice(state, spec, w, work[0], n, work[1], work[2], rng)


@inline_kernel
def apply(state, spec, pid, w, work, choice, rng, rig_dice, ev, evn):
    work[3][1] = apply_choice(state, spec[0], spec[2], work[0], choice, work[1], rng, ev, evn)
    work[3][0] = 1


@inline_kernel
def end_turn(state, spec, pids, W, rng, rig_dice, work, ev, evn):
    s = state[H_CUR]
    turn_tail(state, spec[0], spec[2], plain_policy(pids[s], W[s]), W[s], work[3][1], RUNWAY_POLICY, True, rng, ev,
              evn)


@inline_kernel
def check(state, spec):
    return check_invariants(state, spec[0], spec[2])


@inline_kernel
def finish(state, spec, ev, evn):
    pass


@inline_kernel
def sim_over(state):
    return state[H_WINNER] >= 0  # a simulation stops at the first finish (play.sim_value)


@inline_kernel
def sim_clock(state, t):
    return t


@inline_kernel
def round_of(state, spec):
    return state[H_TURN] // spec[0][P_S]  # every airline plays once a round until the first finishes


@inline_kernel
def decided(state):
    return state[H_WINNER] >= 0  # the first airline airborne wins; play may go on for ranks


@inline_kernel
def winner(state):
    return state[H_WINNER]


@inline_kernel
def progress(state, spec, hist, k):
    for s in range(spec[0][P_S]):
        hist[k, s] = progress_steps(state, spec[0], spec[2], s)


def trace_rows(spec) -> tuple[int, int]:
    """Event and snapshot rows a traced game can need: 64 events a turn, a snapshot a turn."""
    cap = int(spec[0][P_CAP])
    return cap * 64 + 64, cap + 1


def snaps_used(state, snaps):
    """The snapshots of the turns played (row t: the start of turn t)."""
    return snaps[: int(state[H_TURN]) + 1]


KERNELS = bind("clear_for_takeoff", globals(), trace_rows, snaps_used)
play_batch = KERNELS.play_batch
run_traced = KERNELS.run_traced
run_progress = KERNELS.run_progress
check_playout = KERNELS.check_playout
simulate = KERNELS.simulate


# ---- the look-ahead policy's decision (RULES.md Policies, ``rollout``) ------------------------
# Its simulations are the engine's ``simulate`` over the hooks above, so it is defined after the
# binding; ``choose_lookahead`` calls it (numba resolves the name when it compiles).
@kernel
def rollout_choice(state, spec, w, acts, n, disc, need, rng):
    """``rollout``'s choice for the current seat (RULES.md Policies): like ``select``'s (an
    index into ``acts[:n]``, CH_EXCHANGE with ``disc`` filled, or CH_PASS).

    ``w`` is the seat's weight row: the base policy's weights, then ``w[W_LA_BASE]`` the base
    id, ``w[W_LA_ROLLOUTS]`` simulations per candidate, ``w[W_LA_DEPTH]`` turns per
    simulation after this one (0 = until a winner), ``w[W_LA_EXTRA]`` the play cap.
    Candidates: the base policy's own choice first, then up to ``candidates`` other plays
    ranked by the base policy's score (``policies.score_play``), then the exchanges of
    ``policies.choose_exchange`` keeping and not keeping the attack cards (when they differ
    from one already listed). Each of ``rollouts`` rounds draws one pair of simulation
    streams from the policy stream (``engine.lookahead_streams``) and plays every candidate
    on a copy of them (common random numbers): re-deal the unseen cards
    (``rules.redeal``), the candidate, then the engine's ``simulate`` (the rest of the turn and
    ``depth`` more turns, or to the first finish, with the base policy in every seat);
    ``play.sim_value`` scores it. The best total wins; ties keep the earlier
    candidate (the base policy's choice first). The game's chance stream is never drawn.
    """
    p, fleet = spec[0], spec[2]
    base = np.int64(w[W_LA_BASE])
    R = np.int64(w[W_LA_ROLLOUTS])
    depth = np.int64(w[W_LA_DEPTH])
    ncap = np.int64(w[W_LA_EXTRA])
    s = state[H_CUR]
    h = hand_total(state, p, s)
    bc = select(state, p, fleet, base, w, acts, n, disc, need, rng)
    if bc == CH_PASS or R <= 0:
        return bc
    if ncap > n:
        ncap = n
    m_max = ncap + 3
    cidx = np.empty(m_max, np.int64)
    cdisc = np.zeros((m_max, NCT), np.int32)
    if bc == CH_EXCHANGE:
        cdisc[0, :] = disc
    # the base policy's choice, then the best-scored other plays
    sc = np.empty(n if ncap > 0 else 0, np.float64)
    for i in range(sc.shape[0]):
        sc[i] = score_play(state, p, fleet, acts[i, 0], acts[i, 1], acts[i, 2], acts[i, 3], base, w)
    ranked = ranked_candidates(sc, bc, ncap + 1)
    m = ranked.shape[0]
    cidx[:m] = ranked
    # exchanges: the base policy's rule keeping the attack cards, and not keeping them
    if h > 0:
        keep = base == POL_HEURISTIC and w[W_ATTACK] > 0
        for variant in range(2):
            kk = keep if variant == 0 else not keep
            choose_exchange(state, p, fleet, s, kk, disc, need, True)
            dup = False
            for j in range(m):
                if cidx[j] == CH_EXCHANGE and _same_disc(cdisc[j], disc):
                    dup = True
            if not dup:
                cidx[m] = CH_EXCHANGE
                cdisc[m, :] = disc
                m += 1
    if m == 1:
        if bc == CH_EXCHANGE:
            disc[:] = cdisc[0]
        return bc
    scratch = np.empty_like(state)
    sub = np.zeros(2, np.uint64)
    srng = np.zeros(2, np.uint64)
    sacts = np.empty_like(acts)
    row = np.empty(ACT_W, np.int32)
    sdisc = np.zeros(NCT, np.int32)
    sneed = np.zeros(NCT, np.int32)
    stw = np.zeros(2, np.int64)
    swork = (sacts, sdisc, sneed, stw, np.empty(acts.shape[0] + 1, np.float64))
    S = p[P_S]
    pids, W = lookahead_seats(base, w, S)
    rig0 = np.zeros(1, np.int32)
    sdepth = depth + 1 if depth > 0 else 0  # simulate counts the candidate's own turn
    ev0 = np.zeros((0, EV_W), np.int32)
    evn0 = np.zeros(1, np.int64)
    tot = np.zeros(m, np.float64)
    for _ in range(R):
        lookahead_streams(rng, sub)
        for c in range(m):
            scratch[:] = state
            srng[:] = sub
            redeal(scratch, p, s, srng)
            short = 0
            if cidx[c] >= 0:
                row[:] = acts[cidx[c]]
                apply_play(scratch, p, fleet, row, ev0, evn0)
            else:
                sdisc[:] = cdisc[c]
                short = apply_exchange(scratch, p, fleet, sdisc, srng, ev0, evn0)
            stw[0] = 1  # the candidate is the turn's decision: simulate goes on with its tail
            stw[1] = short
            simulate(scratch, spec, pids, W, srng, rig0, swork, ev0, evn0, sdepth)
            tot[c] += sim_value(scratch, p, fleet, s)
    best = np.argmax(tot)  # ties: the earlier candidate (the base policy's choice first)
    if cidx[best] == CH_EXCHANGE:
        disc[:] = cdisc[best]
    return cidx[best]


@kernel
def decide(state, spec, pid, w, acts, n, disc, need, rng):
    """The current seat's choice with policy ``pid`` and weight row ``w``: ``rollout_choice``
    for POL_ROLLOUT, else ``policies.select``; same return convention as ``select``."""
    if pid == POL_ROLLOUT:
        return rollout_choice(state, spec, w, acts, n, disc, need, rng)
    return select(state, spec[0], spec[2], pid, w, acts, n, disc, need, rng)


# ---- user policies (docs/policies.md, sim.userpol) -------------------------------------------
# A user seat plays USER_BASE's id; the engine asks its user function every decision where
# ``user_legal`` gives rows (a return of -1 leaves the decision to USER_BASE).
USER_BASE = POL_GREEDY
"""The built-in policy of a user seat's decisions its function leaves (-1) or is not asked:
the exchange or pass of a turn without a play (RB Exchanging cards), and every -1."""




@kernel
def user_redeal(state, spec, seat, rng):
    """Re-deal what ``seat`` cannot see (the policy check's hidden-information test): the
    rollout's ``rules.redeal`` (the draw pile's order and every opponent's hand)."""
    redeal(state, spec[0], seat, rng)
    return 0
