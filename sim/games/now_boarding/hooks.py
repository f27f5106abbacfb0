"""Now Boarding's engine hooks (:mod:`sim.games.loop`): what one turn is, in the engine's
words. The engine owns the loop; this module binds it (``KERNELS``) and exports the kernel
contract's ``play_batch``, ``run_traced`` and ``check_playout``.

Now Boarding is cooperative: the whole team is one player (seat 0's policy; every seat names
the same one), and an engine turn is a round (RB "Despegue y aterrizaje"; the turn cap counts
rounds). Its decisions are the team's: first the flight phase (one decision: the team's plan
of every plane's steps, ``play.flight_passes``, followed by the maintenance's upkeep and draw,
``play.maintenance_draw``, whose VIP choice is the policy's), then one purchase decision per
plane in this round's plane order (RB "Comprar actualizaciones"): choice 0 is the policy's own
purchase (``play.buy_phase``), choice i > 0 the basket the look-ahead team's search
(``play.rollout_decide``) or the planner's end search (``play.purchase_search``, ``endsearch``
> 0, after the last draw) found best. ``legal_actions`` is 1 for every team decision: the
policies plan them internally, and enumerating the baskets costs a search.

``work`` = (order int64[MAXP] this round's plane order, tw int64[5]: tw[0] the next decision
(0 the flight phase, k + 1 the purchase of plane order[k]), tw[1] 1 when the round has no
decision left, tw[2:5] the chosen basket (speed, seat, route upgrades)).
"""

from __future__ import annotations

import numpy as np

from sim.games.engine import inline_kernel, kernel
from sim.games.loop import bind
from sim.games.now_boarding.layout import (
    K_NP,
    K_TURN_CAP,
    MAXP,
    POL_PLANNER,
    POL_ROLLOUT,
    PW_ENDSEARCH,
    S_OVER,
    S_ROUND,
    S_VIOL,
    STATE_SIZE,
)
from sim.games.now_boarding.play import (
    buy_basket_of,
    buy_phase,
    flight_passes,
    maintenance_draw,
    purchase_search,
    rollout_decide,
    setup_game,
    team_policy,
)
from sim.games.now_boarding.play import (
    write_row as _write_row,
)
from sim.games.now_boarding.rules import after_last_draw, begin_round, check_invariants, game_end
from sim.games.now_boarding.rules import stall as _stall

POL_LOOKAHEAD = POL_ROLLOUT
SNAP_BEFORE_CAP = False
CHECK_EACH_ACTION = True


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
    return spec[0][K_TURN_CAP]


@inline_kernel
def stall(state, spec, ev, evn):
    _stall(state, ev, evn)


@inline_kernel
def snap_key(state):
    return state[S_ROUND]


@inline_kernel
def begin_turn(state, spec, pids, W, rng, work, ev, evn):
    begin_round(state, spec[0], rng, work[0], ev, evn)
    work[1][0] = 0
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


@kernel
def choose(state, spec, pid, w, work, n, rng):
    k = work[1][0] - 1
    if k >= 0 and pid == POL_PLANNER and w[PW_ENDSEARCH] > 0.5 and after_last_draw(state):
        best, cand, _nc, _tot = purchase_search(state, spec[0], work[0], k, POL_PLANNER, w, rng,
                                                np.int64(w[PW_ENDSEARCH]), 0)
        return _store(work, best, cand)
    return 0


@kernel
def choose_lookahead(state, spec, w, work, n, rng):
    k = work[1][0] - 1
    if k < 0:
        return 0  # the flight phase: the team flies as its base policy
    best, cand, _nc, _tot = rollout_decide(state, spec[0], work[0], k, w, rng)
    return _store(work, best, cand)


@kernel
def apply(state, spec, pid, w, work, choice, rng, rig_dice, ev, evn):
    K = spec[0]
    order = work[0]
    tw = work[1]
    k = tw[0] - 1
    if k < 0:
        flight_passes(state, K, pid, w, rng, order, ev, evn, False)
        if maintenance_draw(state, K, team_policy(pid, w), rng, ev, evn):
            tw[1] = 1  # the game ended in the upkeep: no purchases
            return
    elif choice == 0:
        buy_phase(state, K, order[k], team_policy(pid, w), w, rng, ev, evn)
    else:
        buy_basket_of(state, K, order[k], tw[2], tw[3], tw[4], ev, evn)
    tw[0] += 1
    if tw[0] > K[K_NP]:
        tw[1] = 1


@inline_kernel
def end_turn(state, spec, pids, W, rng, work, ev, evn):
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


def trace_rows(spec) -> tuple[int, int]:
    """Event rows (20,000) and snapshot rows (one a round) of a traced game."""
    return 20_000, int(spec[0][K_TURN_CAP]) + 2


def snaps_used(state, snaps):
    """The snapshots of the rounds played (row r: the start of round r; row 0 unused)."""
    return snaps[: int(state[S_ROUND]) + 1]


KERNELS = bind("now_boarding", globals(), trace_rows, snaps_used)
play_batch = KERNELS.play_batch
run_traced = KERNELS.run_traced
check_playout = KERNELS.check_playout
