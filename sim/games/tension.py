"""Tension: how the race went, not only who won it (issue 35), recorded by the engine's loop
for every game in flat memory.

Every game defines a **progress** measure (its ``progress`` hook, defined and justified in its
RULES.md "Tension"): one integer per seat that a player at the table can read and that grows
toward winning (a competitive game), or the team's **danger** (a cooperative game: the
complaints that lose it at ``danger_limit``) with a flag for the end-of-game count. The loop
(:mod:`sim.games.loop`) writes one **record** of it into ``hist`` int32[R, max(S, 2)]:

* at the end of every round (the ``round_of`` hook counts the rounds every seat has completed),
* once more when the winner is known (the ``decided`` hook; Clear for Takeoff plays on for
  ranks after its first finisher: the race for the win is over there), and then no more;
* else at the game's end, after ``finish`` (a cooperative game's end-of-game count), when the
  game ended inside a round or after its last round-end record.

So record ``k`` (0-based) is "round k + 1"; a game of R records had R rounds, its last one
possibly cut short by the finish. From the records and the winner, :func:`write_columns`
computes the per-game columns of :data:`sim.games.base.TENSION_COLUMNS` (their docs there) that
the common metrics (:mod:`sim.metrics`) summarise. Definitions (docs/tension.md says why):

* **sole leader** of a record: the one seat with the highest progress, or none on a tie;
* **lead change**: a record whose sole leader differs from the last sole leader seen before
  it (a tie keeps the lead with its holder; the first sole leader is no change);
* **decisive round**: the number of records before the winner became sole leader for good
  (R when the winner is not the sole leader at the end);
* **midpoint**: record ``(R - 1) // 2``; the **midpoint deficit** is the best other seat's
  progress minus the winner's there (> 0: the winner trailed); the **midpoint leader** its
  sole leader (-1: a tie);
* **margin**: the winner's final progress minus the best other seat's;
* **drama** (Ludii's Drama): the mean, over the records where the winner trailed, of its
  deficit as a share of its final progress, in thousandths (0: it never trailed);
* **midpoint gap** of every seat (``mid_behind``): the midpoint leader's progress minus the
  seat's (0 for a leader), from which the win chance of a seat that trailed by so much follows.

Cooperative: the **lost round** (first record at or beyond the limit), the **closest call**
(most danger of any record), the **rounds one short** (records at limit - 1), and **one
short**: the game ended at its final count with exactly the limit (one fewer and it was won).
"""

from __future__ import annotations

from sim.games.base import TENSION_COLUMNS, column_offsets
from sim.games.engine import leaf_kernel

_C = column_offsets(TENSION_COLUMNS["competitive"])
_K = column_offsets(TENSION_COLUMNS["cooperative"])
N_COMPETITIVE = sum(not c.per_seat for c in TENSION_COLUMNS["competitive"])
"""Plain columns :func:`write_competitive` writes for a competitive game (``TENSION_COLUMNS``),
before its per-seat column (``mid_behind``): S + N_COMPETITIVE in all."""
N_COOPERATIVE = len(TENSION_COLUMNS["cooperative"])
"""Columns :func:`write_cooperative` writes for a cooperative game."""
T_ROUNDS, T_CHANGES, T_DECISIVE, T_MID_DEFICIT, T_MID_LEADER, T_MARGIN, T_DRAMA, T_MID_BEHIND = (
    _C[c.name][0] for c in TENSION_COLUMNS["competitive"])
"""Offsets of the competitive columns from the first (derived from their declaration, like every
layout's ``O_*``); ``T_MID_BEHIND`` is the per-seat column's, seat ``s`` at ``+ s``."""
K_ROUNDS, K_LOST, K_CLOSEST, K_SHORT, K_ONE_SHORT = (_K[c.name][0] for c in TENSION_COLUMNS["cooperative"])
"""Offsets of the cooperative columns from the first."""


@leaf_kernel
def sole_leader(hist, k, S):
    """The seat with the highest progress in record ``k`` of ``hist`` (int32[R, >= S]), or -1
    when two or more share it."""
    best = hist[k, 0]
    who = 0
    ties = 1
    for s in range(1, S):
        v = hist[k, s]
        if v > best:
            best = v
            who = s
            ties = 1
        elif v == best:
            ties += 1
    return who if ties == 1 else -1


@leaf_kernel
def lead_step(hist, k, S, holder):
    """The lead after record ``k`` given its ``holder`` before it (-1: nobody has led alone
    yet): ``(holder, 1)`` when the record's sole leader is another seat than a holder (a lead
    change), ``(holder, 0)`` otherwise; a tie keeps the lead with its holder, and the first sole
    leader takes it without a change. The one rule of a lead change: the columns' count and
    ``sim replay``'s marks (:mod:`sim.replay_progress`) both step through it."""
    lead = sole_leader(hist, k, S)
    if lead >= 0 and lead != holder:
        return lead, 1 if holder >= 0 else 0
    return holder, 0


@leaf_kernel
def best_other(hist, k, S, w):
    """The highest progress in record ``k`` among the seats other than ``w``."""
    best = -2147483647
    for s in range(S):
        if s != w and hist[k, s] > best:
            best = hist[k, s]
    return best


@leaf_kernel
def write_competitive(hist, n, S, w, row, off):
    """The competitive columns of a game of ``n`` records of ``S`` seats won by seat ``w`` (-1:
    no winner, a stall or a shared win) into ``row[off: off + N_COMPETITIVE + S]``, in the order
    of ``TENSION_COLUMNS["competitive"]`` (module docstring)."""
    changes = 0
    holder = -1
    for k in range(n):
        holder, c = lead_step(hist, k, S, holder)
        changes += c
    mid = (n - 1) // 2
    row[off + T_ROUNDS] = n
    row[off + T_CHANGES] = changes
    row[off + T_MID_LEADER] = sole_leader(hist, mid, S) if n > 0 else -1
    top = -2147483647
    for s in range(S):
        if n > 0 and hist[mid, s] > top:
            top = hist[mid, s]
    for s in range(S):
        row[off + T_MID_BEHIND + s] = top - hist[mid, s] if n > 0 else 0
    if w < 0 or n == 0 or S < 2:
        row[off + T_DECISIVE] = -1
        row[off + T_MID_DEFICIT] = 0
        row[off + T_MARGIN] = 0
        row[off + T_DRAMA] = -1
        return
    k = n - 1
    while k >= 0 and sole_leader(hist, k, S) == w:
        k -= 1
    row[off + T_DECISIVE] = k + 1
    row[off + T_MID_DEFICIT] = best_other(hist, mid, S, w) - hist[mid, w]
    final = hist[n - 1, w]
    row[off + T_MARGIN] = final - best_other(hist, n - 1, S, w)
    total = 0
    trailing = 0
    for k in range(n):
        d = best_other(hist, k, S, w) - hist[k, w]
        if d > 0:
            total += d
            trailing += 1
    if trailing == 0:
        row[off + T_DRAMA] = 0
    else:
        row[off + T_DRAMA] = int(1000.0 * total / (trailing * max(final, 1)) + 0.5)


@leaf_kernel
def write_cooperative(hist, n, limit, row, off):
    """The cooperative columns of a game of ``n`` records (``hist[k, 0]`` the danger, ``hist[k,
    1]`` 1 once the final count was made) that is lost at ``limit`` into ``row[off: off +
    N_COOPERATIVE]``, in the order of ``TENSION_COLUMNS["cooperative"]``."""
    lost = -1
    closest = 0
    short = 0
    for k in range(n):
        d = hist[k, 0]
        if d > closest:
            closest = d
        if d == limit - 1:
            short += 1
        if lost < 0 and d >= limit:
            lost = k + 1
    row[off + K_ROUNDS] = n
    row[off + K_LOST] = lost
    row[off + K_CLOSEST] = closest
    row[off + K_SHORT] = short
    row[off + K_ONE_SHORT] = 1 if n > 0 and hist[n - 1, 1] != 0 and hist[n - 1, 0] == limit else 0
