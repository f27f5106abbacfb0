"""Clear for Takeoff's engine hooks (:mod:`sim.games.loop`): what one turn is, in the
engine's words. The engine owns the loop; this module binds it (``KERNELS``) and exports the
kernel contract's ``play_batch``, ``run_traced`` and ``check_playout``.

A turn (RB Turn sequence) is one decision of the seat to move: a play, an exchange or a pass
(``policies.select``, or ``play.rollout_choice`` for a look-ahead seat), then the turn's
fixed tail (``play.end_turn``: the face-down draw, the independent movement, the finish
check). ``work`` = (acts int32[max_actions, ACT_W], disc int32[NCT], need int32[NCT], tw
int64[2]: tw[0] 1 once the seat has acted this turn, tw[1] the cards its exchange came up
short, RULES.md D4).
"""

from __future__ import annotations

import numpy as np

from sim.games.clear_for_takeoff.layout import (
    ACT_W,
    E_TURN,
    H_CUR,
    H_DONE,
    H_TURN,
    NCT,
    P_CAP,
    POL_ROLLOUT,
    RUNWAY_POLICY,
)
from sim.games.clear_for_takeoff.play import (
    apply_choice,
    plain_policy,
    rollout_choice,
    stop_at_cap,
    write_row,  # noqa: F401  (an engine hook)
)
from sim.games.clear_for_takeoff.play import begin_turn as turn_head
from sim.games.clear_for_takeoff.play import end_turn as turn_tail
from sim.games.clear_for_takeoff.policies import select
from sim.games.clear_for_takeoff.rules import check_invariants, legal_plays, max_actions, setup, state_size
from sim.games.engine import emit, inline_kernel, kernel
from sim.games.loop import bind

POL_LOOKAHEAD = POL_ROLLOUT
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
    return acts, np.zeros(NCT, np.int32), np.zeros(NCT, np.int32), np.zeros(2, np.int64)


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
def begin_turn(state, spec, pids, W, rng, work, ev, evn):
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


@inline_kernel
def choose_lookahead(state, spec, w, work, n, rng):
    return rollout_choice(state, spec[0], spec[2], w, work[0], n, work[1], work[2], rng)


@inline_kernel
def apply(state, spec, pid, w, work, choice, rng, rig_dice, ev, evn):
    work[3][1] = apply_choice(state, spec[0], spec[2], work[0], choice, work[1], rng, ev, evn)
    work[3][0] = 1


@inline_kernel
def end_turn(state, spec, pids, W, rng, work, ev, evn):
    s = state[H_CUR]
    turn_tail(state, spec[0], spec[2], plain_policy(pids[s], W[s]), work[3][1], RUNWAY_POLICY, True, rng, ev, evn)


@inline_kernel
def check(state, spec):
    return check_invariants(state, spec[0], spec[2])


@inline_kernel
def finish(state, spec, ev, evn):
    pass


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
check_playout = KERNELS.check_playout
