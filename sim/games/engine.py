"""The shared engine: ``@njit`` helpers every game's kernel uses, so seats, the turn cap,
events, result columns and chance rigging work the same way in every game.

* **Kernel flags**: every ``@njit`` function of a game is decorated ``@kernel`` (cached,
  numpy error model) and tiny accessors ``@inline_kernel``: one set of flags for every game
  (the batch over games is the engine's: :class:`sim.games.loop.ThreadedBatch`). A function that allocates
  nothing and returns no array (most rules and policies) is ``@leaf_kernel``: the same
  flags without reference counting, the fast path of the turn loop; a search such a function
  must call that allocates is ``@alloc_kernel`` (it counts its own references).
* **Seats** (``perms`` of the contract in :mod:`sim.games.base`): game ``g`` seats config
  entry ``perms[g % P, s]`` at seat ``s``; :func:`seat_policies` gives the policy id and
  weights of every seat of game ``g``.
* **Turn cap and stall**: :func:`capped` is the one test of the cap (a game that reaches
  ``turn_cap`` turns, or rounds, stops there and is a stall, never an infinite loop).
* **Event buffer** (``sim replay``): ``ev`` int32[E, EV_W] rows ``[turn, seat, code, a, b,
  c, d, e]`` and ``evn`` int64[1], the rows written; :func:`emit` appends one row and does
  nothing when the buffer is full or has no rows (the untraced batch passes E = 0).
* **Result columns**: :func:`col_at` reads the offsets that
  :func:`sim.games.base.column_offsets` derives from the ``Column`` declarations.
* **Chance rigging** (scenario tests): ``rig_deck`` int32[n] is a preset draw order (n = 0:
  shuffle with the chance stream); ``rig_dice`` int32[1 + m] is a die script whose slot 0 is
  the read position (m = 0: roll with the chance stream). :func:`no_rig` gives the empty
  arrays the batch kernel passes.
* **Mistakes**: :func:`erring` decides whether a decision of a seat is a mistake (its
  ``mistake`` weight, ``base.ENGINE_WEIGHTS``, slot ``W_MISTAKE``), played by the game's
  ``random`` policy; the turn loop calls it before every ``choose``.
* **Temperature**: :func:`boltzmann` picks an option by softmax over a scoring policy's scores
  (the seat's ``temperature`` weight, slot ``W_TEMPERATURE``; the turn loop reads the scores
  from the game's ``scores`` hook), :func:`prefer` is the same pick one option at a time, for a
  game whose policy scores inside a longer decision (Now Boarding's flight phase).
* **Look-ahead policies** (``rollout``): a seat's weight row ends in ``LOOKAHEAD_W`` slots
  read with the negative indices ``W_LA_BASE`` (the base policy id, -1 for a plain policy),
  ``W_LA_ROLLOUTS`` (simulations per candidate action), ``W_LA_DEPTH`` (turns or rounds per
  simulation, 0 = to the end of the game) and ``W_LA_EXTRA``; the leading slots are the base
  policy's weights, so a simulation calls the base policy with the same row.
  :func:`lookahead_streams` derives the streams of one simulation from the deciding seat's
  *policy* stream: a simulation never draws from the game's chance stream, so a look-ahead
  seat never changes the deal, and every simulation is fixed by (seed, game index).
  A simulation first re-deals everything the deciding player cannot see (the game's
  ``redeal`` kernel) from a canonical order of the unseen pieces, so its choice depends only
  on what that player has seen (tests/test_contract.py and each game's rollout test).
"""

from __future__ import annotations

import numpy as np

from sim.games.base import ENGINE_W, ENGINE_WEIGHTS, LOOKAHEAD_W
from sim.jit import jit
from sim.rng import POLICY, next_u64, randint, shuffle, uniform

KERNEL_FLAGS = {"cache": True, "error_model": "numpy"}
kernel = jit(**KERNEL_FLAGS)
"""Decorator of every game kernel function (``@kernel``)."""
inline_kernel = jit(inline="always", **KERNEL_FLAGS)
"""Decorator of tiny accessors (offset arithmetic) that numba should inline."""
leaf_kernel = jit(_nrt=False, **KERNEL_FLAGS)
"""Decorator of a kernel function that allocates nothing and returns no array, and calls only
such functions (the per-turn rules and policies): compiled without numba's reference counting,
so a call costs no atomic increments / decrements of its array arguments' counts (they were
about a third of a turn's time, and shared counts cost the 2-thread scaling). numba refuses
to compile an allocation in such a function; ``tests/test_kernels.py`` checks that none
returns an array."""
alloc_kernel = jit(_nrt=True, **KERNEL_FLAGS)
"""Decorator of a kernel function that allocates (or returns an array) and that a leaf
kernel, or a hook a leaf loop inlines, calls (Now Boarding's planner search, from its
decision hooks): compiled with reference counting whoever calls it. A plain ``@kernel``
inherits its first caller's flag, so one called from a leaf is compiled without it and numba
refuses its allocations; this one counts its own references, and the leaf caller, which
passes it borrowed arrays and receives a number, still counts none."""

EV_W = 8
EV_TURN, EV_SEAT, EV_CODE, EV_A, EV_B, EV_C, EV_D, EV_E = range(EV_W)

W_LA_BASE = -LOOKAHEAD_W
"""Weight-row index (negative) of the base policy id of a look-ahead seat (-1: plain seat)."""
W_LA_ROLLOUTS = W_LA_BASE + 1
"""Weight-row index of a look-ahead seat's simulations per candidate action."""
W_LA_DEPTH = W_LA_BASE + 2
"""Weight-row index of a look-ahead seat's simulation depth (turns / rounds; 0 = to the end)."""
W_LA_EXTRA = W_LA_BASE + 3
"""Weight-row index of a look-ahead policy's third weight (game-defined, 0 when unused)."""
W_MISTAKE = -(LOOKAHEAD_W + ENGINE_W)
"""Weight-row index (negative) of the seat's ``mistake`` probability (``base.ENGINE_WEIGHTS``),
the first engine slot."""
W_TEMPERATURE = W_MISTAKE + 1
"""Weight-row index (negative) of the seat's ``temperature`` (``base.ENGINE_WEIGHTS``), the
second engine slot, just before the look-ahead slots."""
assert W_TEMPERATURE == -LOOKAHEAD_W - ENGINE_W + list(ENGINE_WEIGHTS).index("temperature")


# ---- mistakes ------------------------------------------------------------------------------
@inline_kernel
def erring(pid, w, rng, random_pid):
    """The policy that makes one decision of a seat playing ``pid`` (int64) with weight row
    ``w`` (float64[W]): ``random_pid`` (the game's ``random`` policy id) when the decision is a
    mistake, else ``pid``. A mistake happens with probability ``w[W_MISTAKE]``
    (``base.ENGINE_WEIGHTS``): at 0 (the default) no random number is drawn (a seat without
    mistakes plays bit for bit as before); at 1 or more none either (every decision is the
    random policy's: the seat plays exactly as ``random`` on the same deals); in between one
    ``uniform`` of the POLICY stream (``rng`` uint64[2]) decides, so a deal never changes.
    The engine's dispatch (:mod:`sim.games.loop`) calls it before every ``choose``; a game
    calls it for a decision its hooks make outside ``choose`` (a side choice in ``end_turn``
    or at set-up), so the whole seat errs alike."""
    m = w[W_MISTAKE]
    if m > 0.0:
        if m >= 1.0 or uniform(rng, POLICY) < m:
            return np.int64(random_pid)
    return np.int64(pid)


# ---- temperature ---------------------------------------------------------------------------
@inline_kernel
def prefer(v, t, top, mass, rng):
    """One option of a pick over options met one at a time, scored ``v`` (float64, higher is
    better; -inf: never picked unless it is the first and every option is -inf; never +inf or
    NaN) at temperature ``t``; ``top`` and
    ``mass`` carry the pick's state from option to option (start with ``top`` below every score,
    e.g. -1e18, and ``mass`` 0.0). Returns ``(take, top, mass)``: ``take`` True when this option
    replaces the one picked so far.

    ``t`` == 0 (no temperature): ``take`` when ``v > top`` (``top`` the best score so far), the
    argmax that keeps the first of equal scores, and nothing is drawn. ``t`` > 0: a softmax pick,
    option i with probability ``exp(v_i / t) / sum_j exp(v_j / t)`` at the end: ``mass`` is the
    options' weight so far relative to ``exp(top / t)`` (``top`` the highest score so far, so no
    exponential overflows), and the option is taken with probability its weight over ``mass``
    (weighted reservoir sampling: one ``uniform`` of the POLICY stream of ``rng`` per option
    after the first, so a deal never changes)."""
    if t > 0.0:
        if mass == 0.0:
            return True, v, 1.0
        if v == -np.inf:
            return False, top, mass
        if v > top:
            mass = mass * np.exp((top - v) / t) + 1.0
            top = v
            wi = 1.0
        else:
            wi = np.exp((v - top) / t)
            mass += wi
        return uniform(rng, POLICY) * mass < wi, top, mass
    if v > top:
        return True, v, mass
    return False, top, mass


@leaf_kernel
def boltzmann(sc, t, rng):
    """Index of the option a scoring policy plays at temperature ``t`` > 0 (the seat's
    ``temperature`` weight, ``W_TEMPERATURE``): option i of ``sc`` (float64[m], m >= 1, the
    policy's scores, higher is better, finite or -inf) with probability
    ``exp(sc[i] / t) / sum_j exp(sc[j] / t)`` (TAG's BoltzmannActionPlayer; numerically stable,
    :func:`prefer`). ``t`` is in the scores' own units: an option one unit below another is
    picked e^(-1 / t) times as often. Draws m - 1 ``uniform`` of the POLICY stream of ``rng``;
    ``sc`` is only read. The engine's dispatch (:mod:`sim.games.loop`) calls it with the game's
    ``scores`` hook's scores."""
    top = -np.inf
    mass = 0.0
    k = 0
    for i in range(sc.shape[0]):
        take, top, mass = prefer(sc[i], t, top, mass, rng)
        if take:
            k = i
    return np.int64(k)


# ---- look-ahead ----------------------------------------------------------------------------
@leaf_kernel
def lookahead_streams(rng, sub):
    """Seed ``sub`` (uint64[2]) for one simulation from the *policy* stream of ``rng``
    (uint64[2]; advances ``rng[POLICY]`` twice, never the chance stream): ``sub[0]`` is the
    simulation's chance stream (its re-deal, dice and draws), ``sub[1]`` its policy stream."""
    sub[0] = next_u64(rng, POLICY)
    sub[1] = next_u64(rng, POLICY)


@kernel
def ranked_candidates(sc, first, k):
    """A look-ahead decision's candidates: ``first`` (the base policy's own choice, an index
    into ``sc``, or any value outside ``0 .. n-1`` when it is not one of the scored options),
    then the other indices of ``sc`` (float64[n], the base policy's score, higher = better)
    from the best down, ties to the lower index, ``k`` (>= 1) in all at most. Returns int64[m],
    m = min(k, n + (first not an index))."""
    n = sc.shape[0]
    inside = 0 <= first < n
    m = min(k, n if inside else n + 1)
    out = np.empty(m, np.int64)
    order = np.argsort(-sc, kind="mergesort")
    out[0] = first
    j = 1
    for i in order:
        if j >= m:
            break
        if i != first:
            out[j] = i
            j += 1
    return out


@kernel
def lookahead_seats(base, w, n_seats):
    """The seat tables of a look-ahead simulation (``loop.simulate``): every one of ``n_seats``
    seats plays the plain policy ``base`` with the deciding seat's weight row ``w`` (float64[W]:
    the base policy's weights lead it), without its engine weights (``mistake`` 0: a
    simulation models the base policy as it plays, and draws no mistake coin). Returns (pids
    int64[n_seats], W float64[n_seats, W])."""
    pids = np.full(n_seats, base, np.int64)
    W = np.empty((n_seats, w.shape[0]), np.float64)
    for s in range(n_seats):
        W[s, :] = w
        W[s, W_MISTAKE] = 0.0  # the simulated players make no mistakes (draw no coin)
    return pids, W


# ---- seats -------------------------------------------------------------------------------
@kernel
def seat_policies(entry_policy, entry_weights, perms, g):
    """Policy ids int64[S] and weights float64[S, W] of the seats of game ``g`` (entry
    ``perms[g % P, s]`` plays seat ``s``)."""
    prow = perms[g % perms.shape[0]]
    S = prow.shape[0]
    pids = np.empty(S, np.int64)
    W = np.empty((S, entry_weights.shape[1]), np.float64)
    for s in range(S):
        pids[s] = entry_policy[prow[s]]
        W[s, :] = entry_weights[prow[s]]
    return pids, W


# ---- turn cap ----------------------------------------------------------------------------
@inline_kernel
def capped(turns, cap):
    """True when a game that has played ``turns`` turns (or rounds) must stop as a stall."""
    return turns >= cap


# ---- events ------------------------------------------------------------------------------
def event_buffer(rows: int) -> tuple[np.ndarray, np.ndarray]:
    """An empty event buffer: ``ev`` int32[rows, EV_W] and ``evn`` int64[1] (rows = 0: off)."""
    return np.zeros((rows, EV_W), np.int32), np.zeros(1, np.int64)


@leaf_kernel
def emit(ev, evn, turn, seat, code, a, b, c, d, e):
    """Append the event ``[turn, seat, code, a, b, c, d, e]`` when the buffer has room."""
    n = evn[0]
    if n < ev.shape[0]:
        ev[n, 0] = turn
        ev[n, 1] = seat
        ev[n, 2] = code
        ev[n, 3] = a
        ev[n, 4] = b
        ev[n, 5] = c
        ev[n, 6] = d
        ev[n, 7] = e
        evn[0] = n + 1


# ---- result columns ----------------------------------------------------------------------
@inline_kernel
def col_at(fixed, per_seat, n_seats, seat):
    """Offset in a result row of ``seat``'s cell of a column at (``fixed``, ``per_seat``)
    (see :func:`sim.games.base.column_offsets`; ``seat`` = 0 for a plain column)."""
    return fixed + per_seat * n_seats + seat


# ---- chance rigging ----------------------------------------------------------------------
def no_rig() -> tuple[np.ndarray, np.ndarray]:
    """The unrigged ``(rig_deck, rig_dice)``: int32[0] and int32[1] (chance decides all)."""
    return np.zeros(0, np.int32), np.zeros(1, np.int32)


def make_rig(deck=None, dice=None) -> tuple[np.ndarray, np.ndarray]:
    """``(rig_deck, rig_dice)`` arrays for a scenario: ``deck`` the preset draw order in the
    game's card ids (first = drawn first; the game maps it to its pile), ``dice`` the faces
    in roll order. Either may be None."""
    rd = np.zeros(0, np.int32) if deck is None else np.asarray(list(deck), np.int32)
    rs = np.zeros(1, np.int32) if dice is None else np.asarray([0] + list(dice), np.int32)
    return rd, rs


@leaf_kernel
def rigged(rig_deck):
    """True when a preset draw order is given."""
    return rig_deck.shape[0] > 0


@leaf_kernel
def shuffle_or_rig(arr, start, stop, rng, stream, rig_deck):
    """Shuffle ``arr[start:stop]`` with ``stream``, or, when ``rig_deck`` is given, copy it
    there instead (the caller validates that it holds the same cards)."""
    if rig_deck.shape[0] > 0:
        for i in range(stop - start):
            arr[start + i] = rig_deck[i]
    else:
        shuffle(arr, start, stop, rng, stream)


@leaf_kernel
def roll(rng, stream, sides, rig_dice):
    """A die face 1..``sides``: the next scripted face while ``rig_dice`` has one, else a
    roll of ``stream``."""
    k = rig_dice[0]
    if k + 1 < rig_dice.shape[0]:
        rig_dice[0] = k + 1
        return np.int64(rig_dice[k + 1])
    return randint(rng, stream, sides) + 1
