"""Clear for Takeoff's turn pieces: the turn's fixed head and tail
(``begin_turn``, ``end_turn``, shared with ``state.GameState``), a choice carried out
(``apply_choice``), the cap's stop and the result row. The engine's loop
(:mod:`sim.games.loop`) plays them in order; ``hooks.py`` says how.

The look-ahead policy's scoring of a simulation (``progress``, ``sim_value``) is here; its
decision (``hooks.rollout_choice``) plays its simulations with the engine's ``simulate``.
"""

from __future__ import annotations

import numpy as np

from sim.games.clear_for_takeoff.layout import (
    CH_EXCHANGE,
    E_FORGOT_DRAW,
    E_PASS,
    E_STALL,
    E_STARVED,
    H_CUR,
    H_RESHUF,
    H_STALL,
    H_STARVED,
    H_TURN,
    H_WEATHER,
    H_WINNER,
    H_WINNER_TURN,
    NCT,
    NWEATHER,
    O_BLOCKED,
    O_CUT_OFF,
    O_DLY_DRAWN,
    O_DLY_PLAYED,
    O_DLY_PLAYED_ON,
    O_EXCHANGES,
    O_FLR_DRAWN,
    O_FLR_PLAYED,
    O_FLR_PLAYED_ON,
    O_FORGOT_DRAW,
    O_FORGOT_TOFF,
    O_RANK,
    O_RESHUFFLES,
    O_STALLED,
    O_STARVED,
    O_TAKEOFFS,
    O_TURNS,
    O_WEATHER_TURNS,
    O_WINNER,
    O_WINNER_TURN,
    P_FORGET_DRAW,
    P_HAND,
    P_K,
    P_MOVE1,
    P_OFF_OCC,
    P_OFF_RANK,
    P_OFF_WT,
    P_S,
    P_VIP2,
    POL_RANDOM,
    POL_ROLLOUT,
    POS_NONE,
    RUNWAY_POLICY,
    SC,
    ST_BLOCKED,
    ST_DLY,
    ST_DLY_DRAWN,
    ST_DLY_PLAYED,
    ST_EXCH,
    ST_FLR,
    ST_FLR_DRAWN,
    ST_FLR_PLAYED,
    ST_FORGOT_DRAW,
    ST_FORGOT_TOFF,
    ST_TAKEOFFS,
)
from sim.games.clear_for_takeoff.policies import choose_runway, units, whole_steps
from sim.games.clear_for_takeoff.rules import (
    apply_exchange,
    apply_play,
    draw_face_down,
    end_of_turn_moves,
    finish_turn,
    forgets,
    hand_total,
    note_turn_start,
    pos_at,
    setup,
    stat_at,
)
from sim.games.engine import (
    W_LA_BASE,
    col_at,
    emit,
    erring,
    inline_kernel,
    leaf_kernel,
)
from sim.rng import seed_streams


@leaf_kernel
def start_game(p, deck_cards, fleet, seed, g, rig_deck, state, rng):
    """Seed game ``g``'s streams of ``seed`` into ``rng`` (uint64[2]) and deal it into
    ``state`` (``rules.setup``; ``rig_deck`` int32[0] shuffles)."""
    seed_streams(rng, seed, g)
    setup(state, p, deck_cards, fleet, rng, rig_deck)


@leaf_kernel
def begin_turn(state, p):
    """Head of the current seat's turn: note where its aircraft stand (RB Independent
    aircraft movement) and count the turn under the weather in force."""
    note_turn_start(state, p)
    state[p[P_OFF_WT] + state[H_WEATHER] - SC] += 1


@inline_kernel
def end_turn(state, p, fleet, pid, w, short, vip_runway, draw, rng, ev, evn):
    """Tail of the current seat's turn, after its play or exchange: the face-down draw back
    to the hand size (RB; skipped when ``draw`` is False), a starved draw counted when the
    turn ended ``short`` cards short (RULES.md D4), the independent movement (VIP2 -> D on
    ``vip_runway``, or on the runway the seat's policy ``pid`` with weight row ``w``
    float64[W] chooses when it is RUNWAY_POLICY: a decision of the seat, so it may be a
    mistake, ``engine.erring``) and the finish check / next seat (``rules.finish_turn``).

    Forgetting (RULES.md D13, option ``forget_draw``; RB "Remember to make sure that you have
    nine cards in your hand at the end of your turn. If you forget you will have to wait until
    the end of your next turn"): a seat whose hand is short of the hand size forgets its draw
    with that chance (``rules.forgets``, the POLICY stream of ``rng``; nothing drawn when 0):
    no card is drawn now, the next turn's draw refills the hand. ``forget_takeoff`` acts in
    ``rules.end_of_turn_moves``.

    Returns the cards short in the whole turn (``short`` + the face-down draw's).
    """
    if draw:
        s = state[H_CUR]
        have = hand_total(state, p, s)
        if have < p[P_HAND] and forgets(p, P_FORGET_DRAW, rng):
            state[stat_at(p, s, ST_FORGOT_DRAW)] += 1
            emit(ev, evn, state[H_TURN], s, E_FORGOT_DRAW, p[P_HAND] - have, 0, 0, 0, 0)
        else:
            short += draw_face_down(state, p, rng, ev, evn)
    if short > 0:
        state[H_STARVED] += 1
        emit(ev, evn, state[H_TURN], state[H_CUR], E_STARVED, short, 0, 0, 0, 0)
    vr = vip_runway
    if vr == RUNWAY_POLICY:
        vr = 0
        if state[p[P_OFF_OCC] + p[P_VIP2]] >= 0:  # someone's aircraft waits on VIP2
            vr = choose_runway(state, p, erring(pid, w, rng, POL_RANDOM), rng)
    end_of_turn_moves(state, p, fleet, vr, rng, ev, evn)
    finish_turn(state, p, ev, evn)
    return short


@leaf_kernel
def stop_at_cap(state, ev, evn):
    """The turn cap stops the game (RULES.md End of the game): ``H_STALL`` = 1 and an
    E_STALL event whose ``a`` is 1 when a winner had already finished (the row then says
    ``cut_off``, not ``stalled``: the outcomes partition the games)."""
    state[H_STALL] = 1
    emit(ev, evn, state[H_TURN], state[H_CUR], E_STALL, 1 if state[H_WINNER] >= 0 else 0, 0, 0, 0, 0)


@inline_kernel
def apply_choice(state, p, fleet, acts, choice, disc, rng, ev, evn):
    """Carry out the current seat's ``choice`` (``decide``): play ``acts[choice]``, exchange
    the cards of ``disc`` (CH_EXCHANGE) or pass (CH_PASS). Returns the cards an exchange
    came up short (RULES.md D4), else 0."""
    if choice >= 0:
        apply_play(state, p, fleet, acts[choice], ev, evn)
        return 0
    if choice == CH_EXCHANGE:
        return apply_exchange(state, p, fleet, disc, rng, ev, evn)
    emit(ev, evn, state[H_TURN], state[H_CUR], E_PASS, 0, 0, 0, 0, 0)
    return 0


@leaf_kernel
def plain_policy(pid, w):
    """The plain policy a seat's side choices (the VIP2 runway) use: its own, or the base
    policy of a look-ahead seat."""
    if pid == POL_ROLLOUT:
        return np.int64(w[W_LA_BASE])
    return pid


@leaf_kernel
def progress(state, p, fleet, s):
    """Seat ``s``'s share of its race run, in [0, 1]: the cost-weighted progress of its
    aircraft (``policies.units`` of 5, each aircraft weighted by its movement cost)."""
    K = p[P_K]
    done = 0.0
    tot = 0.0
    for k in range(K):
        size = fleet[s, k]
        if size == 0 or state[pos_at(p, s, k)] == POS_NONE:
            continue
        c = p[P_MOVE1 + size - 1]
        done += c * units(p, state[pos_at(p, s, k)])
        tot += c * 5.0
    return done / tot if tot > 0 else 1.0


@leaf_kernel
def progress_steps(state, p, fleet, s):
    """Seat ``s``'s progress for tension (RULES.md "Tension"): the preparation steps its
    aircraft have completed, counted as a player counts them at the table (hangar 0, A 1, B / C
    and the VIP lane 2, D 3, takeoff position 4, airborne 5: ``policies.whole_steps``, that is
    ``units`` rounded down), every aircraft alike; int."""
    n = 0
    for k in range(p[P_K]):
        if fleet[s, k] != 0:
            n += whole_steps(p, state[pos_at(p, s, k)])
    return n


@leaf_kernel
def sim_value(state, p, fleet, s):
    """Score of a finished simulation for seat ``s`` (RULES.md Policies, ``rollout``): 1 when
    ``s`` finished first; when another airline did, 0.1 x ``progress`` (< 0.1, never worth a
    win); at a depth cut (no winner yet) 0.45 x (1 + s's progress - the best progress of the
    other airlines still racing) + 0.1 x ``progress`` (in [0, 1), a lead proxy of the win)."""
    win = state[H_WINNER]
    if win == s:
        return 1.0
    own = progress(state, p, fleet, s)
    if win >= 0:
        return 0.1 * own
    S = p[P_S]
    other = 0.0
    for o in range(S):
        if state[p[P_OFF_RANK] + o] != 0 or o == s:
            continue
        v = progress(state, p, fleet, o)
        if v > other:
            other = v
    return 0.45 * (1.0 + own - other) + 0.1 * own


@leaf_kernel
def _same_disc(a, b):
    for c in range(NCT):
        if a[c] != b[c]:
            return False
    return True


@leaf_kernel
def write_row(state, spec, row):
    """Write the result columns (``layout.COLUMNS``, per-seat columns for S seats) of a
    finished game into ``row`` (int32[C])."""
    p = spec[0]
    S = p[P_S]
    row[col_at(O_TURNS[0], O_TURNS[1], S, 0)] = state[H_TURN]
    # RULES.md End of the game: stalled = the cap stopped a game nobody had won; cut_off = it
    # stopped a won game before the finishing order was complete (never both)
    won = 1 if state[H_WINNER] >= 0 else 0
    row[col_at(O_STALLED[0], O_STALLED[1], S, 0)] = state[H_STALL] * (1 - won)
    row[col_at(O_CUT_OFF[0], O_CUT_OFF[1], S, 0)] = state[H_STALL] * won
    row[col_at(O_RESHUFFLES[0], O_RESHUFFLES[1], S, 0)] = state[H_RESHUF]
    row[col_at(O_STARVED[0], O_STARVED[1], S, 0)] = state[H_STARVED]
    row[col_at(O_WINNER[0], O_WINNER[1], S, 0)] = state[H_WINNER]
    row[col_at(O_WINNER_TURN[0], O_WINNER_TURN[1], S, 0)] = state[H_WINNER_TURN]
    for s in range(S):
        row[col_at(O_RANK[0], O_RANK[1], S, s)] = state[p[P_OFF_RANK] + s]
        row[col_at(O_FLR_PLAYED_ON[0], O_FLR_PLAYED_ON[1], S, s)] = state[stat_at(p, s, ST_FLR)]
        row[col_at(O_FLR_DRAWN[0], O_FLR_DRAWN[1], S, s)] = state[stat_at(p, s, ST_FLR_DRAWN)]
        row[col_at(O_DLY_PLAYED_ON[0], O_DLY_PLAYED_ON[1], S, s)] = state[stat_at(p, s, ST_DLY)]
        row[col_at(O_DLY_DRAWN[0], O_DLY_DRAWN[1], S, s)] = state[stat_at(p, s, ST_DLY_DRAWN)]
        row[col_at(O_FLR_PLAYED[0], O_FLR_PLAYED[1], S, s)] = state[stat_at(p, s, ST_FLR_PLAYED)]
        row[col_at(O_DLY_PLAYED[0], O_DLY_PLAYED[1], S, s)] = state[stat_at(p, s, ST_DLY_PLAYED)]
        row[col_at(O_BLOCKED[0], O_BLOCKED[1], S, s)] = state[stat_at(p, s, ST_BLOCKED)]
        row[col_at(O_TAKEOFFS[0], O_TAKEOFFS[1], S, s)] = state[stat_at(p, s, ST_TAKEOFFS)]
        row[col_at(O_EXCHANGES[0], O_EXCHANGES[1], S, s)] = state[stat_at(p, s, ST_EXCH)]
        row[col_at(O_FORGOT_DRAW[0], O_FORGOT_DRAW[1], S, s)] = state[stat_at(p, s, ST_FORGOT_DRAW)]
        row[col_at(O_FORGOT_TOFF[0], O_FORGOT_TOFF[1], S, s)] = state[stat_at(p, s, ST_FORGOT_TOFF)]
    for w in range(NWEATHER):
        row[col_at(O_WEATHER_TURNS[0] + w, O_WEATHER_TURNS[1], S, 0)] = state[p[P_OFF_WT] + w]
