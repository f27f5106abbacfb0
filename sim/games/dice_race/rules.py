"""Dice Race rules as ``@leaf_kernel`` functions over the flat state (``layout.py``), in
RULES.md order: set-up (1), the roll (2), the allowed moves (3, with rule D1), the move and
the bump (3, 4), the finish (5), the end of a turn, the turn cap (6) and the invariants.

No policy code here: no policy ids, no weights. The engine's loop (``hooks.py``) and the
scenario API (``state.py``) call these same functions.
"""

from __future__ import annotations

from sim.games.dice_race.layout import (
    A_DEST,
    A_KIND,
    A_STEPS,
    E_BUMP,
    E_FINISH,
    E_MOVE,
    E_PASS,
    E_ROLL,
    E_STALL,
    H_CUR,
    H_DIE,
    H_DONE,
    H_STALL,
    H_TURN,
    H_WINNER,
    K_DIE1,
    K_DIE2,
    K_PASS,
    NSTAT,
    P_BUMP,
    P_EXACT,
    P_OFF_POS,
    P_OFF_RANK,
    P_OFF_STATS,
    P_S,
    P_SIDES,
    P_SIZE,
    P_TRACK,
    ST_BUMPED,
    ST_BUMPS,
    ST_LOST,
    ST_PASSES,
    V_CUR,
    V_DICE,
    V_FINISH,
    V_POS,
    V_RANK,
)
from sim.games.engine import emit, inline_kernel, leaf_kernel, roll
from sim.rng import CHANCE


@inline_kernel
def stat_at(p, s, k):
    """State offset of seat ``s``'s counter ``k`` (``layout.ST_*``)."""
    return p[P_OFF_STATS] + s * NSTAT + k


# ---- 1. Set-up and 2. the roll ----------------------------------------------------------------
@leaf_kernel
def roll_dice(state, p, rng, rig_dice, ev, evn):
    """RULES.md 2: the seat to move rolls the two dice (the CHANCE stream, or the scripted
    faces of ``rig_dice``); event E_ROLL."""
    sides = p[P_SIDES]
    state[H_DIE] = roll(rng, CHANCE, sides, rig_dice)
    state[H_DIE + 1] = roll(rng, CHANCE, sides, rig_dice)
    emit(ev, evn, state[H_TURN], state[H_CUR], E_ROLL, state[H_DIE], state[H_DIE + 1], 0, 0, 0)


@leaf_kernel
def setup(state, spec, rng, rig_dice, ev, evn):
    """RULES.md 1: every token on the start (space 0), seat 0 to move; then it rolls (2).
    ``state`` is zeroed here (int32[p[P_SIZE]])."""
    p = spec[0]
    for i in range(p[P_SIZE]):
        state[i] = 0
    state[H_WINNER] = -1
    roll_dice(state, p, rng, rig_dice, ev, evn)


# ---- 3. The move ------------------------------------------------------------------------------
@leaf_kernel
def _add(acts, n, kind, steps, dest):
    acts[n, A_KIND] = kind
    acts[n, A_STEPS] = steps
    acts[n, A_DEST] = dest
    return n + 1


@leaf_kernel
def legal_moves(state, spec, acts):
    """RULES.md 3: the moves the seat to move may make with its dice, written to ``acts``
    (int32[MAX_ACTS, ACT_W]); returns their number (>= 1). By one die, by the other (not on
    a double: the same move), or by the sum; ``dest`` is capped at the finish. Rule D1
    (``exact_finish``): a move past the finish is not allowed, and with none left the only
    action is K_PASS."""
    p = spec[0]
    track = p[P_TRACK]
    pos = state[p[P_OFF_POS] + state[H_CUR]]
    d1 = state[H_DIE]
    d2 = state[H_DIE + 1]
    n = 0
    for k in range(3):
        if k == K_DIE1:
            steps = d1
        elif k == K_DIE2:
            if d2 == d1:
                continue
            steps = d2
        else:
            steps = d1 + d2
        dest = pos + steps
        if dest > track:
            if p[P_EXACT] != 0:
                continue
            dest = track
        n = _add(acts, n, k, steps, dest)
    if n == 0:
        n = _add(acts, 0, K_PASS, 0, pos)
    return n


@leaf_kernel
def _rank_all(state, p, winner):
    """RULES.md 5: the winner ranks 1, the others by position, further ahead first; tokens
    level share the better rank (1, 2, 2, 4)."""
    S = p[P_S]
    q0 = p[P_OFF_POS]
    for s in range(S):
        if s == winner:
            state[p[P_OFF_RANK] + s] = 1
            continue
        r = 2
        for t in range(S):
            if t != s and t != winner and state[q0 + t] > state[q0 + s]:
                r += 1
        state[p[P_OFF_RANK] + s] = r


@leaf_kernel
def apply_move(state, spec, row, ev, evn):
    """Carry out one legal row of ``legal_moves`` for the seat to move: RULES.md 3 (the
    token moves ``steps`` spaces), 4 (the bump: every opponent on the landing space, unless it
    is the start or the finish, goes back ``bump`` spaces, not below the start) and 5 (the
    finish: the race ends at once, ranks are given). K_PASS moves nothing (rule D1)."""
    p = spec[0]
    s = state[H_CUR]
    q0 = p[P_OFF_POS]
    if row[A_KIND] == K_PASS:
        state[stat_at(p, s, ST_PASSES)] += 1
        emit(ev, evn, state[H_TURN], s, E_PASS, 0, 0, 0, 0, 0)
        return
    src = state[q0 + s]
    dest = row[A_DEST]
    state[q0 + s] = dest
    emit(ev, evn, state[H_TURN], s, E_MOVE, row[A_KIND], row[A_STEPS], src, dest, 0)
    track = p[P_TRACK]
    if dest >= track:
        state[H_DONE] = 1
        state[H_WINNER] = s
        _rank_all(state, p, s)
        emit(ev, evn, state[H_TURN], s, E_FINISH, s, state[H_TURN] + 1, 0, 0, 0)
        return
    back = p[P_BUMP]
    if dest == 0 or back == 0:
        return
    for t in range(p[P_S]):
        if t != s and state[q0 + t] == dest:
            to = max(0, dest - back)
            state[q0 + t] = to
            state[stat_at(p, s, ST_BUMPS)] += 1
            state[stat_at(p, t, ST_BUMPED)] += 1
            state[stat_at(p, t, ST_LOST)] += dest - to
            emit(ev, evn, state[H_TURN], s, E_BUMP, t, dest, to, 0, 0)


# ---- the end of a turn and 6. the turn cap ------------------------------------------------------
@leaf_kernel
def end_turn(state, spec, rng, rig_dice, ev, evn):
    """The end of a player turn: the turn count goes up; unless the race is over, play passes
    to the next seat, which rolls (RULES.md 2). The roll is part of this step (not of the
    next turn's head) so that a scenario's scripted dice reach it: the engine's
    ``begin_turn`` hook gets no ``rig_dice``."""
    p = spec[0]
    state[H_TURN] += 1
    if state[H_DONE] != 0:
        return
    state[H_CUR] = (state[H_CUR] + 1) % p[P_S]
    roll_dice(state, p, rng, rig_dice, ev, evn)


@leaf_kernel
def mark_stall(state, ev, evn):
    """RULES.md 6: the turn cap ends the race with no winner (a stall); no seat is ranked."""
    state[H_DONE] = 1
    state[H_STALL] = 1
    state[H_WINNER] = -1
    emit(ev, evn, state[H_TURN], -1, E_STALL, 0, 0, 0, 0, 0)


# ---- invariants -------------------------------------------------------------------------------
@leaf_kernel
def check_invariants(state, spec):
    """0, or the first violated ``layout.V_*`` code: every token on 0 .. track; while the race
    runs, the dice show 1 .. sides, no token is on the finish and no seat is ranked; the seat
    to move is a seat; a won race has its winner on the finish with rank 1, a stalled one no
    ranks."""
    p = spec[0]
    S = p[P_S]
    track = p[P_TRACK]
    q0 = p[P_OFF_POS]
    r0 = p[P_OFF_RANK]
    if state[H_CUR] < 0 or state[H_CUR] >= S:
        return V_CUR
    on_finish = 0
    for s in range(S):
        x = state[q0 + s]
        if x < 0 or x > track:
            return V_POS
        if x == track:
            on_finish += 1
    if state[H_DONE] == 0:
        for k in range(2):
            if state[H_DIE + k] < 1 or state[H_DIE + k] > p[P_SIDES]:
                return V_DICE
        if on_finish > 0:
            return V_FINISH
        for s in range(S):
            if state[r0 + s] != 0:
                return V_RANK
        return 0
    w = state[H_WINNER]
    if state[H_STALL] != 0:
        if w != -1 or on_finish > 0:
            return V_FINISH
        for s in range(S):
            if state[r0 + s] != 0:
                return V_RANK
        return 0
    if w < 0 or w >= S or on_finish != 1 or state[q0 + w] != track:
        return V_FINISH
    for s in range(S):
        r = state[r0 + s]
        if (s == w) != (r == 1) or r < 1 or r > S:
            return V_RANK
    return 0
