"""Dice Race kernel layout: every constant the kernel, the policies, the trace and the
scenario API share. Pure Python (no numba); offsets are derived with
:class:`sim.games.base.Layout` (offset + size), indices with :func:`index_constants`.

Spec (``spec.compile_spec``): ``(p, hit)``; ``p`` int64[NP] parameters, ``hit`` int64[2 *
sides + 1]: ``hit[d]`` is how many of the sides² rolls let a token ``d`` spaces behind land
exactly on a space (one die, the other or the sum shows ``d``; the heuristic's safety term)::

    P_S P_TRACK P_SIDES P_BUMP P_EXACT P_CAP     seats, finish space, die faces, bump, rule D1, turn cap
    P_OFF_POS P_OFF_RANK P_OFF_STATS P_SIZE      state block offsets (below), state size

State: one int32 array per game; the header has fixed offsets, the blocks after it depend on
the seat count, so ``spec.compile_spec`` writes their offsets into ``p`` (each the previous
offset + its size)::

    offset            size         block
    0                 NH           header H_* (turn, seat to move, its dice, outcome)
    p[P_OFF_POS]      S            token positions 0 .. track (track = finished)
    p[P_OFF_RANK]     S            final ranks (1 = winner), 0 while the race runs or after a stall
    p[P_OFF_STATS]    S x NSTAT    per-seat counters ST_*
    (state size p[P_SIZE] = p[P_OFF_STATS] + S x NSTAT)

Actions. A legal move is a row of ACT_W int32 ``(kind, steps, dest)``: K_DIE1 / K_DIE2 move
by one die (K_DIE2 is not listed on a double: it is the same move), K_SUM by both, K_PASS
(steps 0) only when no move is allowed (rule D1). The scenario API (``state.GameState``)
uses the tuples ``(kind, steps)``: the first ACT_KEY columns.

Results: ``COLUMNS`` (one row per game), read in the kernel at ``engine.col_at(*O_X, S, s)``.
"""

from __future__ import annotations

from sim.games.base import Column, Layout, PolicyDef, column_offsets, index_constants
from sim.games.dice_race.data import (
    HEURISTIC_WEIGHT_DOCS,
    HEURISTIC_WEIGHTS,
    ROLLOUT_WEIGHT_DOCS,
    ROLLOUT_WEIGHTS,
)

# ---- spec parameter vector p (int64) -----------------------------------------------------------
_p = Layout()
P_S = _p.slot()
P_TRACK = _p.slot()
P_SIDES = _p.slot()
P_BUMP = _p.slot()
P_EXACT = _p.slot()
P_CAP = _p.slot()
P_OFF_POS = _p.slot()
P_OFF_RANK = _p.slot()
P_OFF_STATS = _p.slot()
P_SIZE = _p.slot()
NP = _p.size

# ---- state header -------------------------------------------------------------------------------
_h = Layout()
H_TURN = _h.slot()         # player turns played (the turn cap counts these)
H_CUR = _h.slot()          # the seat to move
H_DIE = _h.block(2)        # the two dice the seat to move rolled
H_DONE = _h.slot()         # 1 when the race is over (a winner or the turn cap)
H_WINNER = _h.slot()       # seat of the winner, -1 while none
H_STALL = _h.slot()        # 1 when the turn cap ended the race
NH = _h.size

# ---- per-seat counters --------------------------------------------------------------------------
STAT_NAMES = ("bumps", "bumped", "lost", "passes")
ST_BUMPS, ST_BUMPED, ST_LOST, ST_PASSES = index_constants(STAT_NAMES)
"""ST_BUMPS: opponents this seat sent back; ST_BUMPED: times it was sent back; ST_LOST: spaces it
lost to bumps; ST_PASSES: turns it had no allowed move (rule D1)."""
NSTAT = len(STAT_NAMES)

# ---- actions ------------------------------------------------------------------------------------
KIND_NAMES = ("die 1", "die 2", "sum", "pass")
K_DIE1, K_DIE2, K_SUM, K_PASS = index_constants(KIND_NAMES)
ACT_W = 3
A_KIND, A_STEPS, A_DEST = index_constants(("kind", "steps", "dest"))
ACT_KEY = 2
"""The scenario API's action tuple is the row's first ACT_KEY columns: (kind, steps)."""
MAX_ACTS = 3

# ---- trace events (engine.emit rows: turn, seat, code, a, b, c, d, e) ---------------------------
EVENT_NAMES = ("turn", "roll", "move", "bump", "pass", "finish", "stall")
E_TURN, E_ROLL, E_MOVE, E_BUMP, E_PASS, E_FINISH, E_STALL = index_constants(EVENT_NAMES)
"""E_TURN (a, b: the dice), E_ROLL (a, b: the dice of the seat to move next), E_MOVE (a kind, b
steps, c from, d to), E_BUMP (a victim seat, b from, c to), E_PASS, E_FINISH (a seat, b turn),
E_STALL."""

# ---- invariant codes (rules.check_invariants; 0 = all hold) -------------------------------------
INVARIANT_NAMES = (
    "ok",
    "a token is off the track (below 0 or past the finish)",
    "a die shows a face outside 1 .. sides while the race runs",
    "the seat to move is not a seat",
    "ranks disagree with the outcome (a rank while running, no rank 1 for the winner)",
    "a token on the finish but no winner",
)
(_, V_POS, V_DICE, V_CUR, V_RANK, V_FINISH) = index_constants(INVARIANT_NAMES)

# ---- policies -----------------------------------------------------------------------------------
POLICY_NAMES = ("random", "greedy", "heuristic", "rollout")
POL_RANDOM, POL_GREEDY, POL_HEURISTIC, POL_ROLLOUT = index_constants(POLICY_NAMES)
WEIGHT_NAMES: tuple[str, ...] = tuple(HEURISTIC_WEIGHTS)
W_PROGRESS, W_BUMP, W_SAFETY = index_constants(WEIGHT_NAMES)
N_WEIGHTS = len(WEIGHT_NAMES)

POLICIES = (
    PolicyDef("random", POL_RANDOM, "uniform over the allowed moves"),
    PolicyDef("greedy", POL_GREEDY, "rule of thumb: the move that goes furthest (a finish first)", scored=True),
    PolicyDef("heuristic", POL_HEURISTIC, "weighted score of each move: progress, opponents sent back, the "
              "expected spaces lost to opponents behind the landing space (weights below); a finish first",
              dict(HEURISTIC_WEIGHTS), weight_docs=HEURISTIC_WEIGHT_DOCS, scored=True),
    PolicyDef("rollout", POL_ROLLOUT, "flat Monte-Carlo look-ahead: each allowed move is played out `rollouts` "
              "times by the base policy in every seat on simulated dice; plays the best mean of win + a small "
              "progress term", dict(ROLLOUT_WEIGHTS), base="heuristic", weight_docs=ROLLOUT_WEIGHT_DOCS),
)
assert tuple(pd.name for pd in POLICIES) == POLICY_NAMES

# ---- result columns -----------------------------------------------------------------------------
COLUMNS = (
    Column("turns", "player turns played"),
    Column("stalled", "1 when the turn cap ended the race with no winner; seat wins and stalls partition "
           "the games"),
    Column("winner", "seat of the first token to finish, -1 if none"),
    Column("rank", "1 = winner, then by position (tokens level share a rank); 0 = the race stalled",
           per_seat=True),
    Column("position", "the token's space when the race ended (track = finished)", per_seat=True),
    Column("bumps", "opponents this seat sent back by landing on them", per_seat=True),
    Column("bumped", "times this seat's token was sent back", per_seat=True),
    Column("passes", "turns this seat had no allowed move (only with exact_finish)", per_seat=True),
)

_O = column_offsets(COLUMNS)
O_TURNS = _O["turns"]
O_STALLED = _O["stalled"]
O_WINNER = _O["winner"]
O_RANK = _O["rank"]
O_POSITION = _O["position"]
O_BUMPS = _O["bumps"]
O_BUMPED = _O["bumped"]
O_PASSES = _O["passes"]
