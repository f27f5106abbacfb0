"""Now Boarding's engine hooks (:mod:`sim.games.loop`): what one turn is, in the engine's
words. The engine owns the loop; this module binds it (``KERNELS``) and exports the kernel
contract's ``play_batch``, ``run_traced`` and ``check_playout``.

Now Boarding is cooperative: the whole team is one player (seat 0's policy; every seat names
the same one), and an engine turn is a round (RB "Despegue y aterrizaje"; the turn cap counts
rounds). Its decisions are the team's: the flight phase (decision 0: the team's plan of every
plane's steps, ``play.flight_passes``), the maintenance's upkeep and draw (decision 1,
``play.maintenance_draw``, whose VIP choice is the policy's; the round ends there when the game
does), then one purchase per plane in this round's plane order (decision k + 2 for plane
order[k], RB "Comprar actualizaciones"): choice 0 is the policy's own purchase
(``play.buy_phase``), choice i > 0 the basket the look-ahead team's search (``rollout_decide``)
or the planner's end search (``purchase_search``, ``endsearch`` > 0, after the last draw) found
best. ``legal_actions`` is 1 for every team decision: the policies plan them internally, and
enumerating the baskets costs a search. The engine checks the invariants after each decision
(so after the whole flight phase, not after each plane step inside it).

``work`` = (order int64[MAXP] this round's plane order, tw int64[5]: tw[0] the next decision,
tw[1] 1 when the round has no decision left, tw[2:5] the chosen basket (speed, seat, route
upgrades)).
"""

from __future__ import annotations

import numpy as np

from sim.games.engine import (
    EV_W,
    W_LA_BASE,
    W_LA_DEPTH,
    W_LA_ROLLOUTS,
    alloc_kernel,
    inline_kernel,
    kernel,
    leaf_kernel,
    lookahead_seats,
    lookahead_streams,
)
from sim.games.loop import bind
from sim.games.now_boarding.layout import (
    MAXP,
    P_COMPLAINT_LIMIT,
    P_NP,
    P_TURN_CAP,
    POL_PLANNER,
    POL_RANDOM,  # noqa: F401  (an engine constant: the policy a mistake plays)
    POL_ROLLOUT,
    PW_ENDSEARCH,
    RO_MAXC,
    S_COMPL,
    S_LOST_EARLY,
    S_OVER,
    S_ROUND,
    S_STALLED,
    S_VIOL,
    S_WIN,
    STATE_SIZE,
)
from sim.games.now_boarding.play import (
    basket_price,
    buy_basket_of,
    buy_phase,
    flight_passes,
    maintenance_draw,
    redeal,
    rollout_candidates,
    rollout_score,
    setup_game,
    team_policy,
)
from sim.games.now_boarding.play import write_row as _write_row
from sim.games.now_boarding.rules import after_last_draw, begin_round, check_invariants, game_end, money
from sim.games.now_boarding.rules import stall as _stall

POL_LOOKAHEAD = POL_ROLLOUT
LEAF_STEP = True  # legal_actions, choose and apply allocate nothing themselves: the searches they call
# (the planner's end search, its flight plan, the invariant check) are @alloc_kernel
LEAF_TURN = True  # begin_turn and end_turn allocate nothing
INLINE_TURN = True  # a round's six or so decisions are short: inlined into the turn loop
SNAP_BEFORE_CAP = False
CHECK_EACH_ACTION = True
D_FLIGHT = 0
"""Decision index of the flight phase."""
D_DRAW = 1
"""Decision index of the maintenance's upkeep and draw."""
D_BUY = 2
"""Decision index of the purchase of plane order[0] (order[k]: D_BUY + k)."""


@kernel
def new_state(spec):
    return np.zeros(STATE_SIZE, np.int32)


@kernel
def shared(spec):
    return np.zeros(0, np.int32)


@kernel
def new_work(spec, sh):
    return np.empty(MAXP, np.int64), np.zeros(5, np.int64)


@inline_kernel
def thread_spec(spec):
    return spec


@inline_kernel
def start(state, spec, pids, W, rng, rig_deck, rig_dice, work, ev, evn):
    setup_game(state, spec[0], pids[0], W[0], rng, rig_deck, rig_dice, ev, evn)


@inline_kernel
def over(state):
    return state[S_OVER] != 0


@inline_kernel
def clock(state):
    return state[S_ROUND]


@inline_kernel
def turn_cap(spec):
    return spec[0][P_TURN_CAP]


@inline_kernel
def stall(state, spec, ev, evn):
    _stall(state, ev, evn)


@inline_kernel
def snap_key(state):
    return state[S_ROUND]


@inline_kernel
def begin_turn(state, spec, pids, W, rng, rig_dice, work, ev, evn):
    begin_round(state, spec[0], rng, work[0], ev, evn)
    work[1][0] = D_FLIGHT
    work[1][1] = 0


@inline_kernel
def turn_done(state, work):
    return work[1][1] == 1


@inline_kernel
def actor(state, spec):
    return 0  # the team plays seat 0's policy


@inline_kernel
def legal_actions(state, spec, work):
    return 1


@kernel
def _store(work, best, cand):
    if best > 0:
        work[1][2] = cand[best, 0]
        work[1][3] = cand[best, 1]
        work[1][4] = cand[best, 2]
    return best


@alloc_kernel
def _end_search(state, spec, w, work, k, rng):
    best, cand, _nc, _tot = purchase_search(state, spec[0], work[0], k, POL_PLANNER, w, rng,
                                            np.int64(w[PW_ENDSEARCH]), 0)
    return _store(work, best, cand)


@inline_kernel
def choose(state, spec, pid, w, work, n, rng):
    k = work[1][0] - D_BUY
    if k >= 0 and pid == POL_PLANNER and w[PW_ENDSEARCH] > 0.5 and after_last_draw(state):
        return _end_search(state, spec, w, work, k, rng)  # the planner's end search (it allocates)
    return 0


@inline_kernel
def choose_sim(state, spec, pid, w, work, n, rng):
    return 0  # inside a simulation every purchase is the policy's own (no search)


@kernel
def choose_lookahead(state, spec, w, work, n, rng):
    k = work[1][0] - D_BUY
    if k < 0:
        return 0  # the flight phase and the draw: the team plays as its base policy
    best, cand, _nc, _tot = rollout_decide(state, spec[0], work[0], k, w, rng)
    return _store(work, best, cand)


@leaf_kernel
def apply(state, spec, pid, w, work, choice, rng, rig_dice, ev, evn):
    K = spec[0]
    order = work[0]
    tw = work[1]
    d = tw[0]
    if d == D_FLIGHT:
        flight_passes(state, K, pid, w, rng, order, ev, evn, False)
    elif d == D_DRAW:
        if maintenance_draw(state, K, team_policy(pid, w), rng, ev, evn):
            tw[1] = 1  # the game ended in the upkeep: no purchases
            return
    elif choice == 0:
        buy_phase(state, K, order[d - D_BUY], team_policy(pid, w), w, rng, ev, evn)
    else:
        buy_basket_of(state, K, order[d - D_BUY], tw[2], tw[3], tw[4], ev, evn)
    tw[0] = d + 1
    if tw[0] >= D_BUY + K[P_NP]:
        tw[1] = 1


@inline_kernel
def end_turn(state, spec, pids, W, rng, rig_dice, work, ev, evn):
    pass


@inline_kernel
def check(state, spec):
    v = check_invariants(state, spec[0])
    if v != 0:
        state[S_VIOL] = v
    return v


@inline_kernel
def finish(state, spec, ev, evn):
    game_end(state, ev, evn)


@inline_kernel
def write_row(state, spec, row):
    _write_row(state, spec[0], row)


@inline_kernel
def sim_over(state):
    return False


@inline_kernel
def sim_clock(state, t):
    return t


COOPERATIVE = True  # the tension columns of a team game: danger (complaints) against its limit


@inline_kernel
def round_of(state, spec):
    return state[S_ROUND]  # a turn of the engine is a whole round


@inline_kernel
def decided(state):
    return over(state)


@inline_kernel
def winner(state):
    return state[S_WIN]


@inline_kernel
def danger_limit(spec):
    return spec[0][P_COMPLAINT_LIMIT]


@inline_kernel
def progress(state, spec, hist, k):
    # RULES.md "Tension": the complaint pile, and whether the end count was made (the game
    # ended neither early by complaints nor by the turn cap)
    hist[k, 0] = state[S_COMPL]
    hist[k, 1] = 1 if state[S_OVER] != 0 and state[S_LOST_EARLY] == 0 and state[S_STALLED] == 0 else 0


def trace_rows(spec) -> tuple[int, int]:
    """Event rows (20,000) and snapshot rows (one a round) of a traced game."""
    return 20_000, int(spec[0][P_TURN_CAP]) + 2


def snaps_used(state, snaps):
    """The snapshots of the rounds played (row r: the start of round r; row 0 unused)."""
    return snaps[: int(state[S_ROUND]) + 1]


KERNELS = bind("now_boarding", globals(), trace_rows, snaps_used)
play_batch = KERNELS.play_batch
run_traced = KERNELS.run_traced
run_progress = KERNELS.run_progress
check_playout = KERNELS.check_playout
simulate = KERNELS.simulate


# ---- the look-ahead team's purchase search (RULES.md "Policies", ``rollout``; the planner's
# ``endsearch``). Its simulations are the engine's ``simulate`` over the hooks above, so it is
# defined after the binding; ``choose`` and ``choose_lookahead`` call it (numba resolves the names
# when it compiles).
@kernel
def purchase_search(st, spec, order, k, base, w, rng, nsim, depth):
    """Flat Monte-Carlo over the purchase of plane order[k] (state after the maintenance
    draw; RB "Comprar actualizaciones"): the candidates (``rollout_candidates``), each
    simulated ``nsim`` times (the engine's ``simulate``: the other planes' purchases and then
    ``depth`` more rounds, 0 = to the end, with the plain policy ``base`` and weights ``w``) on a re-dealt copy (``redeal``) with the same stream
    pair per simulation for every candidate. Draws only from ``rng``'s POLICY stream
    (``engine.lookahead_streams``), and nothing when there is no choice. Returns (choice,
    cand int64[RO_MAXC, 3], nc, total score float64[RO_MAXC]); the best total wins, ties to
    the base's own choice (row 0), then the first."""
    p = order[k]
    cand = np.zeros((RO_MAXC, 3), np.int64)
    tot = np.zeros(RO_MAXC, np.float64)
    sim = np.empty(st.shape[0], np.int32)
    nc = rollout_candidates(st, spec, p, base, w, rng, cand, sim)
    if nc <= 1:
        return 0, cand, nc, tot
    ev0 = np.zeros((0, EV_W), np.int32)
    evn0 = np.zeros(1, np.int64)
    sub = np.empty(2, np.uint64)
    srng = np.empty(2, np.uint64)
    sorder = np.empty(MAXP, np.int64)
    stw = np.zeros(5, np.int64)
    swork = (sorder, stw)
    sspec = (spec,)
    pids, Wb = lookahead_seats(base, w, 1)  # the team is one player
    rig0 = np.zeros(1, np.int32)
    sdepth = depth + 1 if depth > 0 else 0  # simulate counts this round as the first
    last = k + 1 >= spec[P_NP]
    for _ in range(nsim):
        lookahead_streams(rng, sub)
        for i in range(nc):
            sim[:] = st
            srng[0] = sub[0]
            srng[1] = sub[1]
            redeal(sim, spec, srng)
            sorder[:] = order
            if i == 0:
                buy_phase(sim, spec, p, base, w, srng, ev0, evn0)
            else:
                buy_basket_of(sim, spec, p, cand[i, 0], cand[i, 1], cand[i, 2], ev0, evn0)
            stw[0] = k + 3  # the next decision: the purchase of plane order[k + 1]
            stw[1] = 1 if last else 0
            simulate(sim, sspec, pids, Wb, srng, rig0, swork, ev0, evn0, sdepth)
            tot[i] += rollout_score(sim, spec)
    best = 0
    for i in range(1, nc):
        if tot[i] > tot[best] + 1e-9:
            best = i
    return best, cand, nc, tot


@kernel
def rollout_decide(st, spec, order, k, w, rng):
    """The look-ahead team's decision for the purchase of plane order[k]: ``purchase_search``
    with its base policy (``w[W_LA_BASE]``), ``w[W_LA_ROLLOUTS]`` simulations per candidate
    and depth ``w[W_LA_DEPTH]``. Returns what ``purchase_search`` returns."""
    return purchase_search(st, spec, order, k, np.int64(w[W_LA_BASE]), w, rng,
                           np.int64(w[W_LA_ROLLOUTS]), np.int64(w[W_LA_DEPTH]))


# ---- user policies (docs/policies.md, sim.userpol) -------------------------------------------
# The team's user policy decides each plane's purchase (RB "Comprar actualizaciones") among the
# affordable baskets; the flight phase and the maintenance draw are USER_BASE's.
USER_BASE = POL_PLANNER
"""The built-in team policy of the decisions a user policy is not asked (the flight phase's
plan, the maintenance draw and its VIP choice) or leaves (-1)."""
UB_W = 4
"""Columns of a user basket row: speed upgrades, seat upgrades, route upgrade (0/1), price."""


@kernel
def user_legal(state, spec, work, n):
    """The rows a user policy chooses among and their count: at a purchase decision of plane
    ``p`` (= ``work[0][work[1][0] - D_BUY]``, this round's plane order), every affordable basket int32[m, UB_W] (speeds 0-2, seats 0-2, route
    0/1, price in money, ``play.basket_price``), row 0 buying nothing; none (0) at the flight
    phase and the draw."""
    k = work[1][0] - D_BUY
    rows = np.zeros((18, UB_W), np.int32)
    if k < 0:
        return rows, 0
    K = spec[0]
    p = work[0][k]
    budget = money(state, p)
    m = 1  # row 0: nothing
    for nv in range(3):
        for ns in range(3):
            for nr in range(2):
                if nv + ns + nr == 0:
                    continue
                pr = basket_price(state, K, p, nv, ns, nr)
                if pr < 0 or pr > budget:
                    continue
                rows[m, 0] = nv
                rows[m, 1] = ns
                rows[m, 2] = nr
                rows[m, 3] = pr
                m += 1
    return rows, m


@inline_kernel
def user_choice(state, spec, work, acts, c):
    """The ``choose`` code of user choice ``c``: the basket stored as the decision's basket
    (``work[1][2:5]``) and played by ``apply`` (choice 1: ``play.buy_basket_of``)."""
    work[1][2] = acts[c, 0]
    work[1][3] = acts[c, 1]
    work[1][4] = acts[c, 2]
    return 1


@kernel
def user_redeal(state, spec, seat, rng):
    """Re-deal what the team cannot see (the policy check's hidden-information test): the
    rollout's ``play.redeal`` (the pile and the face-down cards)."""
    redeal(state, spec[0], rng)
    return 0
