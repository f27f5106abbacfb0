"""Dice Race policies: one dispatcher (``select``) on the integer policy id.

* ``random``: uniform over the allowed moves (the POLICY stream, never CHANCE).
* ``greedy``: the move that lands furthest ahead (a finish first); ties: the first row.
* ``heuristic``: the best ``move_score`` with the seat's weights (``data.HEURISTIC_WEIGHTS``,
  read as ``w[W_*]``): progress, opponents sent back, and the expected spaces lost to the
  opponents behind the landing space; a finishing move always scores highest.

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
from sim.games.engine import leaf_kernel
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


@leaf_kernel
def select(state, spec, pid, w, acts, n, rng):
    """Index (into ``acts[:n]``) of the move policy ``pid`` makes (module docstring)."""
    if n <= 1:
        return 0
    if pid == POL_GREEDY:
        best = 0
        for i in range(1, n):
            if acts[i, A_DEST] > acts[best, A_DEST]:
                best = i
        return best
    if pid == POL_HEURISTIC:
        best = 0
        bs = move_score(state, spec, w, acts, 0)
        for i in range(1, n):
            v = move_score(state, spec, w, acts, i)
            if v > bs:
                best = i
                bs = v
        return best
    return np.int64(randint(rng, POLICY, n))
