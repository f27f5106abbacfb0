"""Dice Race policies: one dispatcher (``select``) on the integer policy id.

* ``random``: uniform over the allowed moves (the POLICY stream, never CHANCE).
* ``greedy``: the move that lands furthest ahead (a finish first); ties: the first row.
* ``heuristic``: the best ``move_score`` with the seat's weights (``data.HEURISTIC_WEIGHTS``,
  read as ``w[W_*]``): progress, opponents sent back, and the expected spaces lost to the
  opponents behind the landing space; a finishing move always scores highest.

Greedy and heuristic score their moves with one function, ``option_score``: ``select`` plays
its first best, and the engine's ``temperature`` softmaxes over it (``score_moves``, the
``scores`` hook; docs/mistakes.md).

The look-ahead ``rollout`` lives in ``play.py`` (it plays whole turns). Policies read only what
a player at the table sees: the track and the dice (Dice Race hides nothing).
"""

from __future__ import annotations

import numpy as np

from sim.games.dice_race.layout import (
    A_DEST,
    A_KIND,
    H_CUR,
    K_PASS,
    P_BUMP,
    P_OFF_POS,
    P_S,
    P_SIDES,
    P_TRACK,
    POL_GREEDY,
    POL_HEURISTIC,
    W_BUMP,
    W_PROGRESS,
    W_SAFETY,
)
from sim.games.engine import inline_kernel, leaf_kernel
from sim.rng import POLICY, randint

WIN_SCORE = 1e9
"""The score of a finishing move: above any other."""


@leaf_kernel
def move_score(state, spec, w, acts, i):
    """The heuristic's score of row ``i`` of ``acts`` for the seat to move: WIN_SCORE for a
    finish; else ``w[W_PROGRESS]`` x spaces moved + ``w[W_BUMP]`` x spaces the opponents on
    the landing space lose / (S - 1) (RULES.md 4; a bump sets back one rival of S - 1, a
    space of progress gains on all of them) - ``w[W_SAFETY]`` x the expected spaces lost there:
    for each opponent ``d`` spaces behind, (its rolls that land exactly, ``spec[1][d]``, of
    sides²) x the bump (an upper bound: it counts each opponent as if it took that move)."""
    p = spec[0]
    hit = spec[1]
    if acts[i, A_KIND] == K_PASS:
        return 0.0
    me = state[H_CUR]
    q0 = p[P_OFF_POS]
    src = state[q0 + me]
    dest = acts[i, A_DEST]
    track = p[P_TRACK]
    if dest >= track:
        return WIN_SCORE
    back = p[P_BUMP]
    loss = min(back, dest)
    sent = 0
    threat = 0.0
    sides = p[P_SIDES]
    for t in range(p[P_S]):
        if t == me:
            continue
        x = state[q0 + t]
        if x == dest and dest > 0 and back > 0:
            sent += loss
            x = dest - loss  # it goes back and may land on me next
        d = dest - x
        if 0 < d <= 2 * sides:
            threat += hit[d] / (sides * sides)
    return w[W_PROGRESS] * (dest - src) + w[W_BUMP] * sent / (p[P_S] - 1) - w[W_SAFETY] * threat * loss


@inline_kernel
def option_score(state, spec, pid, w, acts, i):
    """The score the scoring policy ``pid`` (greedy or heuristic) gives row ``i`` of ``acts``,
    higher is better: greedy the landing space (a finish lands furthest), heuristic
    ``move_score``. ``select`` plays the first best; the engine's temperature softmaxes over it
    (``score_moves``)."""
    if pid == POL_GREEDY:
        return np.float64(acts[i, A_DEST])
    return move_score(state, spec, w, acts, i)


@leaf_kernel
def select(state, spec, pid, w, acts, n, rng):
    """Index (into ``acts[:n]``) of the move policy ``pid`` makes (module docstring): for greedy
    and heuristic the first of the best ``option_score``, else uniform (POLICY stream)."""
    if n <= 1:
        return 0
    if pid == POL_GREEDY or pid == POL_HEURISTIC:
        best = 0
        bs = option_score(state, spec, pid, w, acts, 0)
        for i in range(1, n):
            v = option_score(state, spec, pid, w, acts, i)
            if v > bs:
                best = i
                bs = v
        return best
    return np.int64(randint(rng, POLICY, n))


@leaf_kernel
def score_moves(state, spec, pid, w, acts, n, out):
    """The engine's ``scores`` hook: ``option_score`` of each of the ``n`` moves into ``out``
    (float64[>= n]) for greedy and heuristic; returns the moves scored, n, or 0 (another policy,
    or a single move: nothing to choose)."""
    if n <= 1 or not (pid == POL_GREEDY or pid == POL_HEURISTIC):
        return 0
    for i in range(n):
        out[i] = option_score(state, spec, pid, w, acts, i)
    return n
