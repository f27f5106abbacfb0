"""Yukon Airways' engine hooks (:mod:`sim.games.loop`): what one turn is, in the engine's
words. The engine owns the loop; this module binds it (``KERNELS``) and exports the kernel
contract's ``play_batch``, ``run_traced`` and ``check_playout``.

The rules advance as a sequence of steps (``H_STEP``), each one decision of the seat in
``H_ACTOR`` (RB day structure: placement, flights, tickets, the day's end ...); an engine
turn is one such step: ``rules.legal_actions``, the choice (``policies.select``, or
``play.rollout_choice`` for a look-ahead seat; no choice when there is one action) and
``rules.apply_action``. A step no seat decides (``H_ACTOR`` -1) is taken by seat 0's policy,
which has nothing to choose. The turn cap counts player turns (``H_TURN``); snapshots are
taken once a round (``H_ROUND``, a day).

``work`` = (acts int32[MAX_ACTS, ACT_W], ctx int64[CTX] the policies' context, tw int64[1]:
1 once the step's action was taken).
"""

from __future__ import annotations

import numpy as np

from sim.games.engine import emit, inline_kernel, kernel
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
    P_ROUNDS,
    P_S,
    P_SIZE,
    POL_ROLLOUT,
    ST_OVER,
)
from sim.games.yukon_airways.play import (
    _apply_inline,
    _legal_inline,
    _select_inline,
    rollout_choice,
    write_row,  # noqa: F401  (an engine hook)
)
from sim.games.yukon_airways.policies import CTX, seat_weights
from sim.games.yukon_airways.rules import check_invariants, setup

POL_LOOKAHEAD = POL_ROLLOUT
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
    return np.empty((MAX_ACTS, ACT_W), np.int32), np.zeros(CTX, np.int64), np.zeros(1, np.int64)


@inline_kernel
def thread_spec(spec):
    return spec


@inline_kernel
def start(state, spec, pids, W, rng, rig_deck, rig_dice, work, ev, evn):
    seat_weights(pids, W)
    setup(state, spec, rng, rig_deck, rig_dice, ev, evn)


@inline_kernel
def over(state):
    return state[H_STEP] == ST_OVER


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
def begin_turn(state, spec, pids, W, rng, work, ev, evn):
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
def end_turn(state, spec, pids, W, rng, work, ev, evn):
    pass


@inline_kernel
def check(state, spec):
    return check_invariants(state, spec)


@inline_kernel
def finish(state, spec, ev, evn):
    pass


def trace_rows(spec) -> tuple[int, int]:
    """Event rows (20,000) and snapshot rows (one a round) of a traced game."""
    return 20_000, int(spec[0][P_ROUNDS])


def snaps_used(state, snaps):
    """Every round's snapshot row (row r: the start of round r)."""
    return snaps


KERNELS = bind("yukon_airways", globals(), trace_rows, snaps_used)
play_batch = KERNELS.play_batch
run_traced = KERNELS.run_traced
check_playout = KERNELS.check_playout
