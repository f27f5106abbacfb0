"""The engine's turn loop: one ``playout`` (and its batch, traced and checked variants) that
plays every game over a small set of per-game hooks.

A game does not write its own turn loop. It writes its rules and policies, then hands this
module its hooks (:func:`bind`); the engine owns the seeding, the set-up call, the turn cap
and the stall, the snapshots a replay reads, the optional invariant check after each step,
the dispatch between plain and look-ahead policies, the batch over game indices and the
Python entry points ``run_traced`` / ``check_playout``. A feature that touches every game's
turn (a metric, a mistake model, a user policy) is added here, once.

How binding works
-----------------
The templates below are plain Python functions that name their hooks as globals
(``begin_turn``, ``choose``, ...). :func:`bind` builds, for one game, a copy of each template
whose globals are this module's globals plus the game's hooks, and compiles it with the
template's numba flags. numba resolves globals at compile time, so a hook call compiles to a
direct call (an ``inline_kernel`` hook is inlined) and a constant hook (``SNAP_BEFORE_CAP``)
folds its dead branch away: the bound loop is as fast as a hand-written one. Each copy's
``__qualname__`` is ``<game>__<template>``, so numba's on-disk cache keeps one entry per game
(the cache folder is keyed on a hash of the package source, :mod:`sim`, so an edit to any
hook drops the cached loops too).

Each game is bound twice. The full binding plays any run; the *plain* binding compiles
``playout`` and its callers (``play_index``, ``play_slice``, ``check_index``, ``traced_index``)
again with the constant ``LOOKAHEAD_ON`` False, so they never reference the look-ahead seat's
decision (``_step_lookahead``, ``choose_lookahead``: the rollout search and its simulations);
every other kernel is the same object in both, compiled once. ``ThreadedBatch`` and the
:class:`Kernels` entry points play a run on the plain binding when no seat entry plays
``POL_LOOKAHEAD``: the same games bit for bit (the look-ahead branch is never taken there), and
a run without a look-ahead seat does not compile it (Yukon Airways' first run: 145 s -> 78 s).

Only the plain binding (the constant ``PLAIN_BINDING``) plays turns with ``_turns``, the fast
loop; the full binding plays every turn with ``_step`` / ``_step_lookahead``, since it plays only
runs with a look-ahead seat. The plain binding's checked playout (``check_index``) plays its
turns with ``_turns`` too, one turn a call, and checks after each, when the game checks after
every turn (``CHECK_BY_TURN``: ``CHECK_EACH_ACTION`` False). So a run without a look-ahead seat
compiles the decision body once, where ``_turns`` inlines it (``INLINE_TURN``), not a second time
as ``_step``.

The hooks (every game spells them the same; ``spec`` is the game's compiled spec tuple,
``state`` int32[state size], ``work`` the game's scratch tuple, ``rng`` uint64[2] streams,
``pids`` int64[S] / ``W`` float64[S, N_WEIGHTS + LOOKAHEAD_W] the seats' policies, ``ev`` /
``evn`` the event buffer of :mod:`sim.games.engine`):

====================  ===============================================================================
hook                  meaning
====================  ===============================================================================
``new_state(spec)``   a zeroed int32 state array
``shared(spec)``      read-only data computed once per batch (any array; e.g. a distance map)
``new_work(spec, shared)`` the game's scratch tuple for one game (action rows, buffers, memory
                      a policy keeps between turns); allocated once per game
``thread_spec(spec)`` the spec a batch thread plays with (a private copy, or ``spec`` itself)
``start(...)``        the set-up after the streams are seeded: ``start(state, spec, pids, W, rng,
                      rig_deck, rig_dice, work, ev, evn)``
``over(state)``       True when the game has ended
``clock(state)``      the count the turn cap limits (player turns, or rounds)
``turn_cap(spec)``    the turn cap (``engine.capped``)
``stall(state, spec, ev, evn)``  the cap stops the game (a stall)
``snap_key(state)``   index of the snapshot row the state at this turn's start is written to
``begin_turn(state, spec, pids, W, rng, rig_dice, work, ev, evn)``  the turn's fixed head
``turn_done(state, work)``  True when the current turn has no decision left
``actor(state, spec)``      the seat whose policy makes the next decision
``legal_actions(state, spec, work)``  n, the legal actions written to ``work`` (a game whose
                      policy enumerates its own choice may return 0 there)
``choose(state, spec, pid, w, work, n, rng)``  a plain policy's choice (an index, or a
                      game-defined special code ``apply`` understands)
``choose_sim(state, spec, pid, w, work, n, rng)``  a plain policy's choice inside a look-ahead
                      simulation: ``choose`` itself, unless the game's plain policy searches
                      (a search inside a simulation would recurse)
``choose_lookahead(state, spec, w, work, n, rng)``  the look-ahead seat's choice
``scores(state, spec, pid, w, work, n)``  the scores of the options plain policy ``pid`` weighs
                      at this decision (float64, higher is better, finite or -inf for an option
                      it never takes): a view of scratch the game keeps in ``work``, of length
                      m, the options scored; length 0 when ``pid`` does not score this decision
                      (its own ``choose`` then decides). The same scoring function as the
                      policy's own argmax, never a copy. Optional (:data:`OPTIONAL`): a game
                      without it scores nothing
``scored_choice(state, spec, pid, w, work, n, k)``  the choice (as ``choose`` returns it, for
                      ``apply``) that plays scored option ``k`` (< m): ``k`` itself when the
                      options are the ``n`` legal actions; a game whose options include a special
                      choice (Clear for Takeoff's exchange) maps it. Optional: ``k``
``apply(state, spec, pid, w, work, choice, rng, rig_dice, ev, evn)``  carry the choice out
``end_turn(state, spec, pids, W, rng, rig_dice, work, ev, evn)``  the turn's fixed tail
``settle(state, spec, work)``  after every turn, with reference counting: what a turn's hooks
                      leave to do that allocates (Flying Carpet's policy-map recomputation);
                      nothing in most games
``settle_due(state, work)``  True when ``settle`` has work to do after this turn (it allocates
                      nothing; the fast loop ``_turns`` returns to ``playout`` to settle). Both
                      are optional (:data:`OPTIONAL`): a game that leaves them out settles nothing
``check(state, spec)``      0, or the first violated invariant code
``finish(state, spec, ev, evn)``  after the last turn (also after a stall)
``write_row(state, spec, row)``   the result row
``sim_over(state)``   True when a look-ahead simulation may stop before the game is over (a
                      winner is known; else False)
``sim_clock(state, t)``  the count a simulation's depth limits, ``t`` being the turns it completed
                      (``t`` itself, or a round / day counter of the state)
``round_of(state, spec)``  the rounds every seat has completed (tension records are taken when it grows:
                      :mod:`sim.games.tension`)
``decided(state)``    True once the winner is known (the game may play on for ranks); a game that
                      ends when it is known returns ``over(state)``
``winner(state)``     the winning seat, -1 for none (a stall, a shared win); cooperative: 1 when the
                      team won, else 0
``progress(state, spec, hist, k)``  writes record ``k`` of the tension history: ``hist[k, s]`` the
                      progress of seat ``s`` (RULES.md "Tension"); cooperative: ``hist[k, 0]`` the
                      team's danger, ``hist[k, 1]`` 1 once the final count was made. Allocates nothing
``danger_limit(spec)``  cooperative: the danger that loses the game (optional: 0)
====================  ===============================================================================

and the constants ``POL_LOOKAHEAD`` (the policy id whose seats decide with
``choose_lookahead``), ``POL_RANDOM`` (the game's ``random`` policy, which makes a seat's
mistakes), ``LEAF_STEP`` (True when ``legal_actions``, ``choose``, ``choose_sim``,
``apply``, ``turn_done`` and ``actor`` allocate nothing themselves: a plain seat's decision is
then compiled without reference counting, ``engine.leaf_kernel``, the turn loop's fast path; a
search they call that allocates is an ``engine.alloc_kernel``, which counts its own, since
numba compiles a plain ``@kernel`` with its first caller's reference counting),
``LEAF_TURN`` (the same of ``begin_turn`` and ``end_turn``; with both, a turn of plain seats
is one call of a function with every hook inlined: ``_turn``), ``INLINE_TURN`` (``_turn`` also
inlines the decision hooks instead of calling ``_step``: faster for short turns, a longer
compile. The turns of plain seats are played in one call, ``_turns``, until the game ends, the
cap or ``settle_due``; with ``LEAF_STEP`` and ``LEAF_TURN`` it too counts no references), ``SNAP_BEFORE_CAP`` (the snapshot is taken before the cap test, so a
capped game's last position is in the replay; else after ``begin_turn``) and
``CHECK_EACH_ACTION`` (``check`` also after every decision, not only after every turn), and the
optional ``COOPERATIVE`` (True: the tension columns of a cooperative game).
Python-side hooks of :class:`Kernels`: ``trace_rows(spec) -> (event rows, snapshot rows)`` and
``snaps_used(state, snaps)``, the snapshot rows a replay reads.

A look-ahead policy (``rollout``) plays its simulations with the same hooks through
``simulate`` (every seat on the plain policies of ``pids`` / ``W``, no events, no checks): it
finishes the current turn (a candidate decision applied), then plays whole turns until the game
is over, ``sim_over``, the depth (``sim_clock`` advanced by ``depth`` from its value at the start;
the current turn is the first when the clock counts turns) or the turn cap (a stall, as in a
playout). The scenario API (``GameState``) ends a turn with ``rest_of_turn`` (the turn's
remaining decisions by the seats' policies, then ``end_turn``) and ``stop_if_capped``.

Temperature (``base.ENGINE_WEIGHTS``): after ``erring``, a seat whose ``temperature`` ``T`` is
above 0 and whose policy is not the random one asks the game's ``scores``; when the policy
scores this decision, the engine picks option k by softmax over the scores divided by ``T``
(``engine.boltzmann``, TAG's BoltzmannActionPlayer: one ``uniform`` of the POLICY stream per
option after the first) and plays ``scored_choice(k)``, else the policy's own ``choose``. At
``T`` = 0 the dispatch reads the weight and nothing else: no score is computed, nothing drawn.
A look-ahead seat's own search is not softened (its policy is not ``scored``); its simulations'
seats play their base policy's own choices (``engine.lookahead_seats`` zeroes the weight). A
game whose policy scores inside a longer decision (Now Boarding's flight phase) picks there
with ``engine.prefer`` at the seat's temperature itself.

Mistakes (``base.ENGINE_WEIGHTS``): before every decision at the table the dispatch asks
``engine.erring`` whether it is a mistake (the seat's ``mistake`` weight; no random number is
drawn at 0 or at 1), and a mistake is the decision of the game's ``random`` policy: ``choose`` and
``apply`` are called with ``POL_RANDOM`` as the policy (a look-ahead seat's mistake skips its
search). A look-ahead simulation's seats make none (``choose_sim``; ``engine.lookahead_seats``
zeroes their ``mistake``). A game whose hooks make a policy decision outside ``choose`` (a side
choice in ``end_turn``, a set-up choice) calls ``erring`` there itself.

The loop (``playout``)::

    seed the streams of (seed, g); start; [check]
    while not over:
        [snapshot if SNAP_BEFORE_CAP]
        if capped(clock, turn_cap): stall; stop
        begin_turn; [snapshot]
        while not turn_done:
            s = actor; n = legal_actions
            pid = erring(pids[s])        # a mistake: the game's random policy (POL_RANDOM)
            choice = choose_lookahead if pid == POL_LOOKAHEAD else
                     boltzmann(scores(pid)) if temperature > 0 and pid scores else choose(pid)
            apply(pid); [check if CHECK_EACH_ACTION]
        end_turn; settle; [check]; track
    finish; [the last tension record]

where ``track`` takes a tension record (:mod:`sim.games.tension`) when a round ended, or the
winner became known (then no more). The batch writes the tension columns after the game's
``write_row`` columns (:data:`sim.games.base.TENSION_COLUMNS`).
"""

from __future__ import annotations

import types
from dataclasses import dataclass
from typing import Any, Callable

import numba
import numpy as np

from sim.games.engine import (
    EV_W,
    KERNEL_FLAGS,
    W_TEMPERATURE,
    boltzmann,
    capped,
    erring,
    inline_kernel,
    jit,
    seat_policies,
)
from sim.games.tension import N_COMPETITIVE, N_COOPERATIVE, write_competitive, write_cooperative
from sim.rng import seed_streams

HOOKS = (
    "new_state", "shared", "new_work", "thread_spec", "start", "over", "clock", "turn_cap", "stall",
    "snap_key", "begin_turn", "turn_done", "actor", "legal_actions", "choose", "choose_sim", "choose_lookahead",
    "apply", "end_turn", "settle", "settle_due", "check", "finish", "write_row", "sim_over", "sim_clock",
    "round_of", "decided", "winner", "progress", "danger_limit", "scores", "scored_choice",
)
"""The numba hooks every game binds (see the module docstring)."""
CONSTANTS = ("POL_LOOKAHEAD", "POL_RANDOM", "SNAP_BEFORE_CAP", "CHECK_EACH_ACTION", "LEAF_STEP", "LEAF_TURN", "INLINE_TURN",
             "COOPERATIVE")
"""The compile-time constants every game binds."""

_TEMPLATES: list[tuple[str, Callable, dict, str, str]] = []


def _template(leaf: str = "", sim: str = "", plain: bool = False, **flags: Any) -> Callable[[Callable], Callable]:
    """Register a template with its numba flags; ``leaf`` (``"LEAF_STEP"``, ``"LEAF_TURN"``,
    ``"LEAF_LOOP"`` or ``"LEAF_SIM"``): compiled without reference counting (``engine.leaf_kernel``'s flags) for a
    game whose constant of that name is True; ``sim``: the name of its look-ahead copy, bound
    with the constant ``IN_SIM`` True (the template itself sees it False); ``plain``: it has a
    copy in the plain binding (:func:`bind`), bound with ``LOOKAHEAD_ON`` False."""
    def reg(f: Callable) -> Callable:
        _TEMPLATES.append((f.__name__, f, {**KERNEL_FLAGS, **flags}, leaf, sim))
        if plain:
            _PLAIN.append(f.__name__)
        return f

    return reg


_PLAIN: list[str] = []
"""The templates the plain binding compiles again (``playout`` and its callers): every other
kernel is shared between the two bindings, so it is compiled (and cached) once."""


@inline_kernel
def _no_settle(state, spec, work):
    pass


@inline_kernel
def _never_due(state, work):
    return False


@inline_kernel
def _no_limit(spec):
    return 0


_NO_SCORES = np.zeros(0, np.float64)


@inline_kernel
def _no_scores(state, spec, pid, w, work, n):
    return _NO_SCORES


@inline_kernel
def _option_itself(state, spec, pid, w, work, n, k):
    return k


OPTIONAL = {"settle": _no_settle, "settle_due": _never_due, "danger_limit": _no_limit, "scores": _no_scores,
            "scored_choice": _option_itself, "COOPERATIVE": False}
"""Hooks and constants a game may leave out, with the engine's default: nothing to settle after
a turn; a competitive game (``COOPERATIVE`` False), which has no ``danger_limit``; no policy that
scores its options (``scores``: none, so ``temperature`` changes nothing) and scored options
that are the legal actions themselves (``scored_choice``)."""


# ---- the templates (plain Python: ``bind`` compiles one copy per game) ----------------------
@_template(inline="always")
def _snap(state, snaps, last):
    """Write ``state`` to snapshot row ``snap_key(state)`` when it is a new row that fits;
    returns the row last written."""
    k = snap_key(state)  # noqa: F821  (a hook)
    if k != last and 0 <= k < snaps.shape[0]:
        for i in range(state.shape[0]):  # element by element: a slice copy would allocate
            snaps[k, i] = state[i]
        return k
    return last


@_template(leaf="LEAF_STEP")
def _softened(state, spec, pid, w, work, n, rng, t):
    """``_decide`` at temperature ``t`` > 0: when ``pid`` scores this decision (the ``scores``
    hook), a softmax pick over its scores (``engine.boltzmann``) played as ``scored_choice``;
    else ``choose``. A call, not inlined: the hot loop of a seat without a temperature keeps
    only the test."""
    sc = scores(state, spec, pid, w, work, n)  # noqa: F821
    if sc.shape[0] > 0:
        return scored_choice(state, spec, pid, w, work, n, boltzmann(sc, t, rng))  # noqa: F821
    return choose(state, spec, pid, w, work, n, rng)  # noqa: F821


@_template(inline="always")
def _decide(state, spec, pid, w, work, n, rng):
    """The choice of a plain policy ``pid`` at the table (after ``erring``): at the seat's
    ``temperature`` above 0 and a policy other than random, ``_softened``; else ``choose``. At
    0 one read of the weight row, nothing computed or drawn."""
    t = w[W_TEMPERATURE]
    if t > 0.0 and pid != POL_RANDOM:  # noqa: F821
        return _softened(state, spec, pid, w, work, n, rng, t)
    return choose(state, spec, pid, w, work, n, rng)  # noqa: F821


# The loop's hot path: the hooks are inlined into small functions that the reference-counting
# loop calls with its arguments as they are (a call passes arrays borrowed): extracting arrays
# from the spec / work tuples, or a seat's weight row, inside the loop would count references
# (atomic operations) every turn. For a game whose hooks allocate nothing (LEAF_STEP /
# LEAF_TURN) these functions are compiled without reference counting (engine.leaf_kernel).
@_template(leaf="LEAF_STEP", sim="_sim_step")
def _step(state, spec, pids, W, s, work, rng, rig_dice, ev, evn):
    """One decision of seat ``s`` playing its plain policy ``pids[s]`` (weights ``W[s]``):
    ``legal_actions``, ``erring`` and ``_decide`` (``choose_sim`` in the look-ahead copy
    ``_sim_step``, which is this very function when a game's ``choose_sim`` is its ``choose``),
    ``apply``, compiled into one function."""
    pid = pids[s]
    w = W[s]
    n = legal_actions(state, spec, work)  # noqa: F821
    if IN_SIM:  # noqa: F821  (a constant: one branch is compiled)
        c = choose_sim(state, spec, pid, w, work, n, rng)  # noqa: F821
    else:
        pid = erring(pid, w, rng, POL_RANDOM)  # noqa: F821  (a mistake: the random policy decides)
        c = _decide(state, spec, pid, w, work, n, rng)
    apply(state, spec, pid, w, work, c, rng, rig_dice, ev, evn)  # noqa: F821


@_template()
def _step_lookahead(state, spec, W, s, work, rng, rig_dice, ev, evn):
    """One decision of the look-ahead seat ``s`` (``choose_lookahead``: it allocates), or, when
    it is a mistake (``engine.erring``), of the game's random policy."""
    w = W[s]
    n = legal_actions(state, spec, work)  # noqa: F821
    pid = erring(POL_LOOKAHEAD, w, rng, POL_RANDOM)  # noqa: F821
    if pid == POL_LOOKAHEAD:  # noqa: F821
        c = choose_lookahead(state, spec, w, work, n, rng)  # noqa: F821
    else:
        c = choose(state, spec, pid, w, work, n, rng)  # noqa: F821
    apply(state, spec, pid, w, work, c, rng, rig_dice, ev, evn)  # noqa: F821


@_template(leaf="LEAF_LOOP", inline="always", sim="_sim_turn")
def _turn(state, spec, pids, W, rng, rig_dice, work, ev, evn, snaps, last):
    """A whole turn of plain seats: ``begin_turn``, the snapshot (not in the look-ahead copy
    ``_sim_turn``), the decisions until ``turn_done``, ``end_turn``; returns the last snapshot
    row written. Inlined into ``_turns``, which ``playout`` uses when no seat looks ahead and
    no invariant is checked, and into ``simulate``; compiled without reference counting when
    the hooks allocate nothing (``LEAF_LOOP`` = ``LEAF_STEP`` and ``LEAF_TURN``). A decision
    calls ``_step`` (its body compiled once), or with ``INLINE_TURN`` (short turns, where the
    call is a measurable share of a turn) has the decision hooks inlined here too."""
    begin_turn(state, spec, pids, W, rng, rig_dice, work, ev, evn)  # noqa: F821
    if not SNAP_BEFORE_CAP and not IN_SIM:  # noqa: F821
        last = _snap(state, snaps, last)
    while not turn_done(state, work):  # noqa: F821
        s = actor(state, spec)  # noqa: F821
        if INLINE_TURN:  # noqa: F821  (constants: one branch is compiled)
            pid = pids[s]
            w = W[s]
            n = legal_actions(state, spec, work)  # noqa: F821
            if IN_SIM:  # noqa: F821
                c = choose_sim(state, spec, pid, w, work, n, rng)  # noqa: F821
            else:
                pid = erring(pid, w, rng, POL_RANDOM)  # noqa: F821
                c = _decide(state, spec, pid, w, work, n, rng)
            apply(state, spec, pid, w, work, c, rng, rig_dice, ev, evn)  # noqa: F821
        elif IN_SIM:  # noqa: F821
            _sim_step(state, spec, pids, W, s, work, rng, rig_dice, ev, evn)  # noqa: F821
        else:
            _step(state, spec, pids, W, s, work, rng, rig_dice, ev, evn)
    end_turn(state, spec, pids, W, rng, rig_dice, work, ev, evn)  # noqa: F821
    return last


@_template(leaf="LEAF_LOOP")
def _record(state, spec, tk, hist):
    """Take tension record ``tk[2]`` (``progress``) when ``hist`` has room for it. A call, not
    inlined: once a round, and its five call sites (``_track`` in ``_turns`` and ``playout``,
    the last record) then compile the game's ``progress`` once."""
    k = tk[2]
    if k < hist.shape[0]:
        progress(state, spec, hist, k)  # noqa: F821
        tk[2] = k + 1


@_template(inline="always")
def _track(state, spec, tk, hist):
    """After a turn: a tension record when a round ended (``round_of`` grew past ``tk[1]``) or
    the winner became known (``decided``: the last record; ``tk[0]`` = 0 stops the tracking).
    A turn that ends the game takes none: ``playout`` takes the last one after ``finish``.
    ``tk`` int64[3]: on, rounds recorded, records taken."""
    if tk[0] == 0 or over(state):  # noqa: F821
        return
    if decided(state):  # noqa: F821
        _record(state, spec, tk, hist)
        tk[0] = 0
        return
    r = round_of(state, spec)  # noqa: F821
    if r > tk[1]:
        tk[1] = r
        _record(state, spec, tk, hist)


@_template(leaf="LEAF_LOOP")
def _turns(state, spec, pids, W, rng, rig_dice, work, ev, evn, snaps, last, cap, tk, hist, one):
    """The turns of plain seats (``_turn``, inlined) in one call, as ``playout`` plays them,
    until the game is over, the clock reaches ``cap`` (returned with the snapshot taken when
    ``SNAP_BEFORE_CAP``; ``playout`` stalls it) or ``settle_due``, or after one turn when
    ``one`` (a checked playout, ``CHECK_BY_TURN``); returns the last snapshot row written. One
    call for all the turns: a call per turn passes every array of the state, spec and work
    tuples, which cost Clear for Takeoff about 7 % of its games per second."""
    while not over(state):  # noqa: F821
        if SNAP_BEFORE_CAP:  # noqa: F821
            last = _snap(state, snaps, last)
        if capped(clock(state), cap):  # noqa: F821
            return last
        last = _turn(state, spec, pids, W, rng, rig_dice, work, ev, evn, snaps, last)
        _track(state, spec, tk, hist)
        if one or settle_due(state, work):  # noqa: F821
            return last
    return last


@_template(leaf="LEAF_TURN")
def _head(state, spec, pids, W, rng, rig_dice, work, ev, evn):
    """``begin_turn``."""
    begin_turn(state, spec, pids, W, rng, rig_dice, work, ev, evn)  # noqa: F821


@_template(leaf="LEAF_TURN")
def _tail(state, spec, pids, W, rng, rig_dice, work, ev, evn):
    """``end_turn``."""
    end_turn(state, spec, pids, W, rng, rig_dice, work, ev, evn)  # noqa: F821


@_template(leaf="LEAF_STEP")
def _next_actor(state, spec, work):
    """-1 when the turn has no decision left (``turn_done``), else the seat to decide
    (``actor``)."""
    if turn_done(state, work):  # noqa: F821
        return -1
    return actor(state, spec)  # noqa: F821


@_template(plain=True)
def playout(spec, pids, W, seed, g, rig_deck, rig_dice, state, rng, work, ev, evn, snaps, check_on, tk, hist):
    """Play game ``g`` of ``seed`` into ``state`` (the module docstring's loop); returns 0 or
    the first violated invariant code (tested only with ``check_on``).

    ``pids`` int64[S], ``W`` float64[S, W]: the seats' policies; ``rig_deck`` int32[n] /
    ``rig_dice`` int32[1 + m]: chance rigging (:mod:`sim.games.engine`; empty: none);
    ``rng`` uint64[2]; ``work``: ``new_work``'s tuple; ``ev`` int32[E, EV_W] / ``evn`` int64[1]
    the event buffer (E = 0: untraced); ``snaps`` int32[T, state size] (T = 0: none); ``tk``
    int64[3] / ``hist`` int32[R, max(S, 2)]: the tension records (``_track``; ``tk`` [1, 0, 0]
    at the start), ``tk[2]`` of them taken."""
    seed_streams(rng, seed, g)
    start(state, spec, pids, W, rng, rig_deck, rig_dice, work, ev, evn)  # noqa: F821
    if check_on:
        code = check(state, spec)  # noqa: F821
        if code != 0:
            return code
    cap = turn_cap(spec)  # noqa: F821
    last = -1
    fast = not check_on  # read by the plain binding only, which has no look-ahead seat
    while not over(state):  # noqa: F821
        if SNAP_BEFORE_CAP:  # noqa: F821
            last = _snap(state, snaps, last)
        if capped(clock(state), cap):  # noqa: F821
            stall(state, spec, ev, evn)  # noqa: F821
            break
        if PLAIN_BINDING:  # noqa: F821  (constants: the full binding plays only runs with a look-ahead seat)
            if fast:  # turns until over, capped (the top of this loop stalls it) or settle_due
                last = _turns(state, spec, pids, W, rng, rig_dice, work, ev, evn, snaps, last, cap, tk, hist, False)
                settle(state, spec, work)  # noqa: F821
                continue
            if CHECK_BY_TURN:  # noqa: F821  (a game checked after every turn: one turn of _turns, checked)
                last = _turns(state, spec, pids, W, rng, rig_dice, work, ev, evn, snaps, last, cap, tk, hist, True)
                settle(state, spec, work)  # noqa: F821
                code = check(state, spec)  # noqa: F821
                if code != 0:
                    return code
                continue
        _head(state, spec, pids, W, rng, rig_dice, work, ev, evn)
        if not SNAP_BEFORE_CAP:  # noqa: F821
            last = _snap(state, snaps, last)
        s = _next_actor(state, spec, work)
        while s >= 0:
            if LOOKAHEAD_ON and pids[s] == POL_LOOKAHEAD:  # noqa: F821  (a constant first: pruned when False)
                _step_lookahead(state, spec, W, s, work, rng, rig_dice, ev, evn)
            else:
                _step(state, spec, pids, W, s, work, rng, rig_dice, ev, evn)
            if CHECK_EACH_ACTION and check_on:  # noqa: F821
                code = check(state, spec)  # noqa: F821
                if code != 0:
                    return code
            s = _next_actor(state, spec, work)
        _tail(state, spec, pids, W, rng, rig_dice, work, ev, evn)
        settle(state, spec, work)  # noqa: F821
        _track(state, spec, tk, hist)
        if check_on:
            code = check(state, spec)  # noqa: F821
            if code != 0:
                return code
    finish(state, spec, ev, evn)  # noqa: F821
    if tk[0] != 0:  # the game's end (after a final count), unless the winner's record was taken
        _record(state, spec, tk, hist)
        tk[0] = 0
    return 0


@_template(leaf="LEAF_SIM")
def simulate(state, spec, pids, W, rng, rig_dice, work, ev, evn, depth):
    """A look-ahead simulation (the module docstring): play on from ``state`` (inside a turn
    or at its end) with the plain policies ``pids`` int64[S] / ``W`` float64[S, W] in every
    seat, no invariant checks, events into ``ev`` / ``evn`` (give it 0 rows), until the game is
    over, ``sim_over``, ``depth`` > 0 reached on ``sim_clock`` or the turn cap (``stall``);
    ``finish`` when the game is over. Returns the turns completed (the current one first)."""
    cap = turn_cap(spec)  # noqa: F821
    c0 = sim_clock(state, 0)  # noqa: F821
    s = _next_actor(state, spec, work)  # the rest of the current turn
    while s >= 0:
        _sim_step(state, spec, pids, W, s, work, rng, rig_dice, ev, evn)  # noqa: F821  (bound by bind)
        s = _next_actor(state, spec, work)
    _tail(state, spec, pids, W, rng, rig_dice, work, ev, evn)
    settle(state, spec, work)  # noqa: F821
    t = 1
    while True:
        if over(state) or sim_over(state):  # noqa: F821
            break
        if depth > 0 and sim_clock(state, t) - c0 >= depth:  # noqa: F821
            break
        if capped(clock(state), cap):  # noqa: F821
            stall(state, spec, ev, evn)  # noqa: F821
            break
        _sim_turn(state, spec, pids, W, rng, rig_dice, work, ev, evn, ev, -1)  # noqa: F821  (no snapshot)
        settle(state, spec, work)  # noqa: F821
        t += 1
    if over(state):  # noqa: F821
        finish(state, spec, ev, evn)  # noqa: F821
    return t


@_template()
def rest_of_turn(state, spec, pids, W, rng, rig_dice, work, ev, evn):
    """The scenario API's end of a turn: the current turn's remaining decisions by the seats'
    policies (``choose_lookahead`` for a look-ahead seat, as in a playout), then ``end_turn``."""
    s = _next_actor(state, spec, work)
    while s >= 0:
        if pids[s] == POL_LOOKAHEAD:  # noqa: F821
            _step_lookahead(state, spec, W, s, work, rng, rig_dice, ev, evn)
        else:
            _step(state, spec, pids, W, s, work, rng, rig_dice, ev, evn)
        s = _next_actor(state, spec, work)
    _tail(state, spec, pids, W, rng, rig_dice, work, ev, evn)
    settle(state, spec, work)  # noqa: F821


@_template()
def stop_if_capped(state, spec, ev, evn):
    """The loop's cap test between two turns, for the scenario API (``GameState.end_turn``):
    when the game is not over and ``clock`` reached ``turn_cap``, ``stall`` it and return
    True."""
    if not over(state) and capped(clock(state), turn_cap(spec)):  # noqa: F821
        stall(state, spec, ev, evn)  # noqa: F821
        return True
    return False


@_template(inline="always")
def _tension_buffers(spec, n_seats):
    """A fresh ``tk`` int64[3] (tracking on) and ``hist`` int32[turn cap + 2, max(S, 2)]: room
    for a record per round (a round has at least one turn) and the last one."""
    tk = np.zeros(3, np.int64)
    tk[0] = 1
    hist = np.empty((turn_cap(spec) + 2, max(n_seats, 2)), np.int32)  # noqa: F821
    return tk, hist


@_template(inline="always")
def _write_tension(state, spec, n_seats, tk, hist, row):
    """The engine's tension columns (:mod:`sim.games.tension`) into the last columns of
    ``row``, after the game's own."""
    if COOPERATIVE:  # noqa: F821  (a constant: one branch is compiled)
        write_cooperative(hist, tk[2], danger_limit(spec), row, row.shape[0] - N_COOPERATIVE)  # noqa: F821
    else:
        write_competitive(hist, tk[2], n_seats, winner(state), row, row.shape[0] - N_COMPETITIVE - n_seats)  # noqa: F821


@_template(inline="always", plain=True)
def play_index(spec, shared_data, entry_policy, entry_weights, perms, seed, g, check_on):
    """Game ``g`` untraced and unrigged with its seats' policies (``engine.seat_policies``);
    returns (state, invariant code: 0 unless ``check_on`` found a violation, ``tk``, ``hist``:
    its tension records, see ``playout``). Inlined into its callers (``play_slice``,
    ``check_index``): compiled on its own, this thin layer re-optimised the whole game once
    more (Clear for Takeoff's cold compile 56.1 s -> 51.5 s of CPU); ``playout`` is not
    inlined (three entry points call it: typing it three times cost more than it saved)."""
    pids, W = seat_policies(entry_policy, entry_weights, perms, g)
    state = new_state(spec)  # noqa: F821
    rng = np.zeros(2, np.uint64)
    work = new_work(spec, shared_data)  # noqa: F821
    ev = np.zeros((0, EV_W), np.int32)
    evn = np.zeros(1, np.int64)
    snaps = np.zeros((0, 1), np.int32)
    rig_deck = np.zeros(0, np.int32)
    rig_dice = np.zeros(1, np.int32)
    tk, hist = _tension_buffers(spec, pids.shape[0])
    code = playout(spec, pids, W, seed, g, rig_deck, rig_dice, state, rng, work, ev, evn, snaps, check_on, tk, hist)
    return state, code, tk, hist


@_template(nogil=True, plain=True)
def play_slice(spec, entry_policy, entry_weights, perms, seed, first_index, count, out):
    """Play games ``first_index .. first_index + count - 1`` into ``out`` (int32[count, C]) on
    the calling thread, without the GIL (:class:`ThreadedBatch` runs one slice a thread). Each
    game seeds its own streams from (seed, game index), so any batch size or thread count gives
    the same rows."""
    sh = shared(spec)  # noqa: F821
    for i in range(count):
        ii = np.int64(i)
        sp = thread_spec(spec)  # noqa: F821
        state, _, tk, hist = play_index(sp, sh, entry_policy, entry_weights, perms, seed, first_index + ii, False)
        write_row(state, spec, out[ii])  # noqa: F821
        _write_tension(state, spec, perms.shape[1], tk, hist, out[ii])


@_template(plain=True)
def check_index(spec, shared_data, entry_policy, entry_weights, perms, seed, g):
    """Game ``g`` played as ``play_batch`` plays it, ``check`` after every turn (and every
    decision with ``CHECK_EACH_ACTION``); 0 or the first violated invariant code."""
    _, code, _, _ = play_index(spec, shared_data, entry_policy, entry_weights, perms, seed, g, True)
    return code


@_template(plain=True)
def traced_index(spec, shared_data, entry_policy, entry_weights, perms, seed, g, rig_deck, rig_dice, ev, evn,
                 snaps, row):
    """Game ``g`` as the batch plays it (with chance rigging when ``rig_deck`` / ``rig_dice``
    are not empty), its events in ``ev`` / ``evn``, snapshots in ``snaps`` and its result in
    ``row``; returns the final state and its tension records (``hist[:n]``, ``n``)."""
    pids, W = seat_policies(entry_policy, entry_weights, perms, g)
    state = new_state(spec)  # noqa: F821
    rng = np.zeros(2, np.uint64)
    work = new_work(spec, shared_data)  # noqa: F821
    tk, hist = _tension_buffers(spec, pids.shape[0])
    playout(spec, pids, W, seed, g, rig_deck, rig_dice, state, rng, work, ev, evn, snaps, False, tk, hist)
    write_row(state, spec, row)  # noqa: F821
    _write_tension(state, spec, pids.shape[0], tk, hist, row)
    return state, hist, tk[2]


# ---- binding ---------------------------------------------------------------------------------
_POOL: dict = {}


def _no_lookahead(entry_policy: np.ndarray, lookahead_id: int) -> bool:
    """True when no entry of ``entry_policy`` (int64[E]) plays the look-ahead policy
    ``lookahead_id``: the plain binding (:func:`bind`) plays the run, bit for bit as the full
    one would."""
    return not np.any(np.asarray(entry_policy) == lookahead_id)


class ThreadedBatch:
    """The batch contract's ``play_batch(spec, entry_policy, entry_weights, perms, seed,
    first_index, count, out)`` (:mod:`sim.games.base`): ``count`` games split into one
    contiguous slice per numba thread (``numba.get_num_threads()``, which ``sim.runner`` sets),
    each played by the bound ``play_slice`` kernel on its own Python thread with the GIL
    released. Each game seeds its own streams from (seed, game index), so the rows are the same
    whatever the thread count.

    Why threads and not numba's ``parallel=True``: a ``prange`` batch made numba compile and
    optimise the whole game a further time for its parallel wrapper, the largest single share
    of a game's cold compile (Now Boarding 20 s, Clear for Takeoff 10 s of about 60; issue 34);
    a plain loop over a slice compiles in a fraction of that and plays at the same speed."""

    def __init__(self, kernel: Any, plain: Any = None, lookahead_id: int = -1) -> None:
        self.kernel = kernel
        self.plain = plain
        self.lookahead_id = lookahead_id

    def kernel_for(self, entry_policy: np.ndarray) -> Any:
        """The plain binding's ``play_slice`` when no entry of ``entry_policy`` is the look-ahead
        policy (:func:`bind`), else the full one."""
        if self.plain is not None and _no_lookahead(entry_policy, self.lookahead_id):
            return self.plain
        return self.kernel

    def __call__(self, spec, entry_policy, entry_weights, perms, seed, first_index, count, out) -> None:
        count = int(count)
        kernel = self.kernel_for(entry_policy)
        k = max(1, min(numba.get_num_threads(), count))
        if k == 1:
            kernel(spec, entry_policy, entry_weights, perms, np.int64(seed), np.int64(first_index),
                   np.int64(count), out)
            return
        from concurrent.futures import ThreadPoolExecutor

        pool = _POOL.get(k)
        if pool is None:
            pool = _POOL[k] = ThreadPoolExecutor(max_workers=k, thread_name_prefix="sim-batch")
        cuts = np.linspace(0, count, k + 1).astype(np.int64)
        futures = [pool.submit(kernel, spec, entry_policy, entry_weights, perms, np.int64(seed),
                               np.int64(first_index + a), np.int64(b - a), out[a:b])
                   for a, b in zip(cuts[:-1], cuts[1:], strict=True) if b > a]
        for f in futures:
            f.result()


@dataclass(frozen=True)
class Kernels:
    """One game's bound loop: the numba kernels ``playout``, ``play_index``, ``play_batch``,
    ``check_index``, ``traced_index``, ``simulate``, ``rest_of_turn`` and
    ``stop_if_capped`` (the templates above), the hooks they were bound to,
    and the Python entry points :meth:`run_traced` and :meth:`check_playout`.

    ``plain_check_index`` / ``plain_traced_index``: the plain binding's (:func:`bind`), which the
    entry points (and ``play_batch``) use when no seat entry plays ``lookahead_id``."""

    game: str
    hooks: dict
    playout: Any
    play_index: Any
    play_batch: Any
    check_index: Any
    traced_index: Any
    simulate: Any
    rest_of_turn: Any
    stop_if_capped: Any
    trace_rows: Callable[[Any], tuple[int, int]]
    snaps_used: Callable[[np.ndarray, np.ndarray], np.ndarray]
    plain_check_index: Any = None
    plain_traced_index: Any = None
    lookahead_id: int = -1

    def plain_for(self, entry_policy: np.ndarray) -> bool:
        """True when no entry of ``entry_policy`` plays the look-ahead policy: the plain
        binding plays the run, bit for bit as the full one would."""
        return self.plain_check_index is not None and _no_lookahead(entry_policy, self.lookahead_id)

    def shared_of(self, spec: Any) -> Any:
        """``shared(spec)``, computed once per spec object of this process."""
        key = id(spec)
        hit = _SHARED.get((self.game, key))
        if hit is None or hit[0] is not spec:
            if len(_SHARED) > 64:
                _SHARED.clear()
            hit = (spec, self.hooks["shared"](spec))
            _SHARED[(self.game, key)] = hit
        return hit[1]

    def run_traced(self, run: Any, game_index: int, rig_deck: Any = None, rig_dice: Any = None,
                   progress: list | None = None):
        """Play game ``game_index`` of ``run`` (a :class:`sim.compile.CompiledRun`) with
        events and snapshots, exactly as the batch plays it (``rig_deck`` / ``rig_dice``: an
        optional chance script, :mod:`sim.games.engine`).

        Returns ``(state int32[n], events int32[E, EV_W], snaps int32[T, n], row int32[C])``:
        the final state, the events, the snapshot rows ``snaps_used`` keeps (row t: the state
        at the start of turn, or round, t) and the result row. ``progress``: a list that
        receives the tension records int32[R, max(S, 2)] (:mod:`sim.games.tension`). Raises
        RuntimeError when the event buffer (``trace_rows``) filled up."""
        other = _user_kernels(self, run)
        if other is not None:  # a run with user policies plays its own binding (sim.userpol)
            return other.run_traced(run, game_index, rig_deck, rig_dice, progress)
        spec = run.spec
        n_ev, n_snap = self.trace_rows(spec)
        state0 = self.hooks["new_state"](spec)
        ev = np.zeros((n_ev, EV_W), np.int32)
        evn = np.zeros(1, np.int64)
        snaps = np.zeros((n_snap, state0.shape[0]), np.int32)
        rd = np.zeros(0, np.int32) if rig_deck is None else np.asarray(rig_deck, np.int32)
        rc = np.zeros(1, np.int32) if rig_dice is None else np.asarray(rig_dice, np.int32)
        row = np.zeros(len(run.game.column_names(run.n_seats)), np.int32)
        traced = self.plain_traced_index if self.plain_for(run.entry_policy) else self.traced_index
        state, hist, n = traced(spec, self.shared_of(spec), run.entry_policy, run.entry_weights,
                                           run.perms, np.int64(run.seed), np.int64(game_index), rd, rc, ev, evn,
                                           snaps, row)
        if progress is not None:
            progress.append(hist[:n].copy())
        return state, ev[: evn[0]], self.snaps_used(state, snaps), row

    def run_progress(self, run: Any, game_index: int) -> np.ndarray:
        """The tension records of game ``game_index`` of ``run`` as the batch plays it:
        int32[R, max(S, 2)], record k the progress of every seat at the end of round k + 1
        (cooperative: danger, final-count flag); :mod:`sim.games.tension`."""
        out: list = []
        self.run_traced(run, game_index, progress=out)
        return out[0]

    def check_playout(self, run: Any, game_index: int) -> int:
        """Game ``game_index`` of ``run`` played exactly as ``play_batch`` plays it, with the
        game's invariants checked after every step; 0, or the first violated code."""
        other = _user_kernels(self, run)
        if other is not None:
            return other.check_playout(run, game_index)
        check = self.plain_check_index if self.plain_for(run.entry_policy) else self.check_index
        return int(check(run.spec, self.shared_of(run.spec), run.entry_policy, run.entry_weights,
                         run.perms, np.int64(run.seed), np.int64(game_index)))


_SHARED: dict = {}


def _user_kernels(kernels: Kernels, run: Any) -> Kernels | None:
    """The binding with user policies (:mod:`sim.userpol`) ``run`` plays, when it has one and
    it is not ``kernels``: a game's trace calls its built-in binding's ``run_traced``."""
    users = getattr(run, "users", None)
    if users is None or users.kernels is kernels:
        return None
    return users.kernels


def bind(game: str, hooks: dict, trace_rows: Callable, snaps_used: Callable) -> Kernels:
    """Compile-ready copies of the engine's templates for ``game`` bound to ``hooks`` (a dict
    holding every name of :data:`HOOKS` and :data:`CONSTANTS`, e.g. the game module's
    ``globals()``); nothing is compiled until a kernel is first called.

    Raises ValueError naming the game and the missing hooks."""
    missing = [h for h in HOOKS + CONSTANTS if h not in hooks and h not in OPTIONAL]
    if missing:
        raise ValueError(f"game {game!r} does not define the engine hooks {', '.join(missing)}")
    hooks = {h: hooks.get(h, OPTIONAL.get(h)) for h in HOOKS + CONSTANTS}
    ns = dict(globals())
    ns.update(hooks)
    ns["LEAF_LOOP"] = bool(hooks["LEAF_STEP"] and hooks["LEAF_TURN"])
    # a simulation counts no references when its turns do not and nothing is settled after them
    # (settle allocates): the look-ahead's simulations of Clear for Takeoff lost 12 % of their
    # time to reference counting (perf)
    ns["LEAF_SIM"] = ns["LEAF_LOOP"] and hooks["settle"] is _no_settle
    ns["IN_SIM"] = False
    ns["LOOKAHEAD_ON"] = True
    ns["PLAIN_BINDING"] = False
    ns["CHECK_BY_TURN"] = not hooks["CHECK_EACH_ACTION"]
    ns["N_COMPETITIVE"], ns["N_COOPERATIVE"] = N_COMPETITIVE, N_COOPERATIVE
    built: dict[str, Any] = {}

    def compiled(name: str, f: Callable, flags: dict, leaf: str, globs: dict):
        if leaf and ns[leaf]:
            flags = {**flags, "_nrt": False}
        fn = types.FunctionType(f.__code__, globs, f"{game}__{name}", f.__defaults__, f.__closure__)
        fn.__qualname__ = f"{game}__{name}"
        fn.__module__ = __name__
        fn.__doc__ = f.__doc__
        return jit(**flags)(fn)  # compiled lazily, when first called: every name is bound by then

    for name, f, flags, leaf, _sim in _TEMPLATES:
        ns[name] = built[name] = compiled(name, f, flags, leaf, ns)
    sim_ns = {**ns, "IN_SIM": True}  # the look-ahead copies' globals
    for _name, f, flags, leaf, sim in _TEMPLATES:
        if not sim:
            continue
        if sim == "_sim_step" and hooks["choose_sim"] is hooks["choose"]:
            built[sim] = built["_step"]  # the same function: compile it once
        else:
            built[sim] = compiled(sim, f, flags, leaf, sim_ns)
        ns[sim] = sim_ns[sim] = built[sim]
    # the plain binding: playout and its callers again with LOOKAHEAD_ON False, every other
    # kernel the same object (compiled once); a run without a look-ahead seat never compiles
    # the look-ahead's decision, search and simulations
    plain_ns = {**ns, "LOOKAHEAD_ON": False, "PLAIN_BINDING": True}
    plain: dict[str, Any] = {}
    for name, f, flags, leaf, _sim in _TEMPLATES:
        if name in _PLAIN:
            plain_ns[name] = plain[name] = compiled(f"plain_{name}", f, flags, leaf, plain_ns)
    return Kernels(game, {h: hooks[h] for h in HOOKS}, built["playout"], built["play_index"],
                   ThreadedBatch(built["play_slice"], plain["play_slice"], hooks["POL_LOOKAHEAD"]),
                   built["check_index"], built["traced_index"], built["simulate"], built["rest_of_turn"],
                   built["stop_if_capped"], trace_rows, snaps_used, plain["check_index"], plain["traced_index"],
                   hooks["POL_LOOKAHEAD"])
