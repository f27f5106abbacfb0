"""Dice Race's engine hooks (:mod:`sim.games.loop`): what one turn is, in the engine's words.
The engine owns the loop; this module binds it (``KERNELS``) and exports the kernel
contract's ``play_batch``, ``run_traced`` and ``check_playout``.

A turn (RULES.md 2-5) is one decision of the seat to move, which has already rolled: the
allowed moves (``rules.legal_moves``), the choice (``policies.select``, or
``play.rollout_choice`` for a look-ahead seat) and ``rules.apply_move``, followed at once by
``rules.end_turn`` (the next seat rolls). The roll sits in ``apply`` because only ``start``
and ``apply`` receive the scenario's scripted dice (``rig_dice``); ``begin_turn`` and
``end_turn`` do not, so the ``end_turn`` hook has nothing left to do.

``work`` = (acts int32[MAX_ACTS, ACT_W] the allowed moves, tw int64[1]: 1 once the seat moved).
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
    MAX_ACTS,
    P_CAP,
    P_SIZE,
    POL_ROLLOUT,
)
from sim.games.dice_race.play import (
    rollout_choice,
    write_row,  # noqa: F401  (an engine hook)
)
from sim.games.dice_race.policies import select
from sim.games.dice_race.rules import apply_move, check_invariants, legal_moves, mark_stall, setup
from sim.games.dice_race.rules import end_turn as pass_turn
from sim.games.engine import emit, inline_kernel, kernel
from sim.games.loop import bind

POL_LOOKAHEAD = POL_ROLLOUT
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
    return np.empty((MAX_ACTS, ACT_W), np.int32), np.zeros(1, np.int64)


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
def begin_turn(state, spec, pids, W, rng, work, ev, evn):
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


@inline_kernel
def choose_lookahead(state, spec, w, work, n, rng):
    return rollout_choice(state, spec, w, work[0], n, rng)


@inline_kernel
def apply(state, spec, pid, w, work, choice, rng, rig_dice, ev, evn):
    apply_move(state, spec, work[0][choice], ev, evn)
    pass_turn(state, spec, rng, rig_dice, ev, evn)
    work[1][0] = 1


@inline_kernel
def end_turn(state, spec, pids, W, rng, work, ev, evn):
    pass  # the turn's tail (rules.end_turn) ran in ``apply``: it rolls, and needs rig_dice


@inline_kernel
def check(state, spec):
    return check_invariants(state, spec)


@inline_kernel
def finish(state, spec, ev, evn):
    pass


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
check_playout = KERNELS.check_playout
