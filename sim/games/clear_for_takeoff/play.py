"""Clear for Takeoff playouts: one game (``playout``), its result row, a parallel batch and
the traced / checked one-game entry points.

``playout`` is the single implementation of a game's turn sequence; the batch, the
invariant checker (``trace.check_playout``) and ``sim replay`` (``trace.trace``) all call
it; tracing is a buffer (``ev`` with rows) and ``snaps``. ``begin_turn`` and ``end_turn``
are the turn's fixed head and tail, shared with ``state.GameState``.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from sim.games.clear_for_takeoff.layout import (
    ACT_W,
    CH_EXCHANGE,
    COLUMNS,
    E_PASS,
    E_STALL,
    E_STARVED,
    E_TURN,
    H_CUR,
    H_DONE,
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
    O_RANK,
    O_RESHUFFLES,
    O_STALLED,
    O_STARVED,
    O_TAKEOFFS,
    O_TURNS,
    O_WEATHER_TURNS,
    O_WINNER,
    O_WINNER_TURN,
    P_CAP,
    P_OFF_OCC,
    P_OFF_RANK,
    P_OFF_WT,
    P_S,
    P_VIP2,
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
    ST_TAKEOFFS,
)
from sim.games.clear_for_takeoff.policies import choose_runway, select
from sim.games.clear_for_takeoff.rules import (
    apply_exchange,
    apply_play,
    check_invariants,
    draw_face_down,
    end_of_turn_moves,
    finish_turn,
    legal_plays,
    max_actions,
    note_turn_start,
    setup,
    stat_at,
    state_size,
)
from sim.games.engine import EV_W, batch_kernel, capped, col_at, emit, kernel, seat_policies
from sim.rng import seed_streams


@kernel
def start_game(p, deck_cards, fleet, seed, g, rig_deck, state, rng):
    """Seed game ``g``'s streams of ``seed`` into ``rng`` (uint64[2]) and deal it into
    ``state`` (``rules.setup``; ``rig_deck`` int32[0] shuffles)."""
    seed_streams(rng, seed, g)
    setup(state, p, deck_cards, fleet, rng, rig_deck)


@kernel
def begin_turn(state, p):
    """Head of the current seat's turn: note where its aircraft stand (RB Independent
    aircraft movement) and count the turn under the weather in force."""
    note_turn_start(state, p)
    state[p[P_OFF_WT] + state[H_WEATHER] - SC] += 1


@kernel
def end_turn(state, p, fleet, pid, short, vip_runway, draw, rng, ev, evn):
    """Tail of the current seat's turn, after its play or exchange: the face-down draw back
    to the hand size (RB; skipped when ``draw`` is False), a starved draw counted when the
    turn ended ``short`` cards short (RULES.md D4), the independent movement (VIP2 -> D on
    ``vip_runway``, or on the runway the seat's policy ``pid`` chooses when it is
    RUNWAY_POLICY) and the finish check / next seat (``rules.finish_turn``).

    Returns the cards short in the whole turn (``short`` + the face-down draw's).
    """
    if draw:
        short += draw_face_down(state, p, rng, ev, evn)
    if short > 0:
        state[H_STARVED] += 1
        emit(ev, evn, state[H_TURN], state[H_CUR], E_STARVED, short, 0, 0, 0, 0)
    vr = vip_runway
    if vr == RUNWAY_POLICY:
        vr = 0
        if state[p[P_OFF_OCC] + p[P_VIP2]] >= 0:  # someone's aircraft waits on VIP2
            vr = choose_runway(state, p, pid, rng)
    end_of_turn_moves(state, p, fleet, vr, ev, evn)
    finish_turn(state, p, ev, evn)
    return short


@kernel
def stop_at_cap(state, ev, evn):
    """The turn cap stops the game (RULES.md End of the game): ``H_STALL`` = 1 and an
    E_STALL event whose ``a`` is 1 when a winner had already finished (the row then says
    ``cut_off``, not ``stalled``: the outcomes partition the games)."""
    state[H_STALL] = 1
    emit(ev, evn, state[H_TURN], state[H_CUR], E_STALL, 1 if state[H_WINNER] >= 0 else 0, 0, 0, 0, 0)


@kernel
def playout(p, deck_cards, fleet, pids, W, seed, g, rig_deck, state, rng, ev, evn, snaps, check):
    """Play game ``g`` of ``seed`` into ``state`` (int32[state_size]); returns 0 or the first
    violated invariant code (``layout.V_*``, only tested with ``check``).

    ``pids`` int64[S] policy of each seat, ``W`` float64[S, N_WEIGHTS] weights;
    ``rig_deck`` int32[0] (shuffle) or the deck in draw order (``rules.setup``); ``rng``
    uint64[2] streams; ``ev`` int32[E, EV_W] / ``evn`` int64[1] the event buffer (E = 0:
    untraced); with E > 0, ``snaps`` (int32[T, state_size]) gets the state at the start of
    each turn. A game reaching the turn cap stops as a stall.
    """
    acts = np.empty((max_actions(p), ACT_W), np.int32)
    disc = np.zeros(NCT, np.int32)
    need = np.zeros(NCT, np.int32)
    start_game(p, deck_cards, fleet, seed, g, rig_deck, state, rng)
    tracing = ev.shape[0] > 0
    cap = p[P_CAP]
    while True:
        if capped(state[H_TURN], cap):
            stop_at_cap(state, ev, evn)
            break
        s = state[H_CUR]
        begin_turn(state, p)
        if tracing:
            t = state[H_TURN]
            if t < snaps.shape[0]:
                snaps[t, :] = state
        emit(ev, evn, state[H_TURN], state[H_CUR], E_TURN, 0, 0, 0, 0, 0)
        n = legal_plays(state, p, fleet, acts)
        choice = select(state, p, fleet, pids[s], W[s], acts, n, disc, need, rng)
        short = 0
        if choice >= 0:
            apply_play(state, p, fleet, acts[choice], ev, evn)
        elif choice == CH_EXCHANGE:
            short = apply_exchange(state, p, fleet, disc, rng, ev, evn)
        else:
            emit(ev, evn, state[H_TURN], state[H_CUR], E_PASS, 0, 0, 0, 0, 0)
        end_turn(state, p, fleet, pids[s], short, RUNWAY_POLICY, True, rng, ev, evn)
        if check:
            code = check_invariants(state, p, fleet)
            if code != 0:
                return code
        if state[H_DONE] == 1:
            break
    return 0


@kernel
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
    for w in range(NWEATHER):
        row[col_at(O_WEATHER_TURNS[0] + w, O_WEATHER_TURNS[1], S, 0)] = state[p[P_OFF_WT] + w]


@kernel
def play_index(p, deck_cards, fleet, entry_policy, entry_weights, perms, seed, g, check):
    """Play game ``g`` untraced with its seats' policies (``engine.seat_policies``); returns
    (state int32[state_size], invariant code: 0 unless ``check`` found a violation)."""
    pids, W = seat_policies(entry_policy, entry_weights, perms, g)
    state = np.zeros(state_size(p), np.int32)
    rng = np.zeros(2, np.uint64)
    ev = np.zeros((0, EV_W), np.int32)
    evn = np.zeros(1, np.int64)
    snaps = np.zeros((0, 1), np.int32)
    rig_deck = np.zeros(0, np.int32)
    code = playout(p, deck_cards, fleet, pids, W, seed, g, rig_deck, state, rng, ev, evn, snaps, check)
    return state, code


@batch_kernel
def play_batch(spec, entry_policy, entry_weights, perms, seed, first_index, count, out):
    """Play games ``first_index .. first_index + count - 1`` into ``out`` (int32[count, C]).

    ``spec`` = (p int64[NP], deck_cards int32[NCARDS], fleet int32[S, K]); see
    ``sim.games.base`` for the other arguments. Each game seeds its own streams.
    """
    p, deck_cards, fleet = spec
    for i in prange(count):
        ii = np.int64(i)
        # thread-private copies of the shared read-only arrays: no refcount traffic on
        # memory the other threads touch
        pp = p.copy()
        dk = deck_cards.copy()
        fl = fleet.copy()
        state, _ = play_index(pp, dk, fl, entry_policy, entry_weights, perms, seed, first_index + ii, False)
        write_row(state, (pp, dk, fl), out[ii])


@kernel
def check_game(spec, entry_policy, entry_weights, perms, seed, g):
    """Game ``g`` played as ``play_batch`` plays it, the invariants checked after every
    turn; returns 0 or the first violated ``layout.V_*`` code."""
    p, deck_cards, fleet = spec
    _, code = play_index(p, deck_cards, fleet, entry_policy, entry_weights, perms, seed, g, True)
    return code


def n_columns(n_seats: int) -> int:
    """Width of a result row for ``n_seats`` seats."""
    return sum(n_seats if c.per_seat else 1 for c in COLUMNS)


def run_traced(run, game_index: int, rig_deck=None):
    """Play game ``game_index`` of ``run`` (a ``sim.compile.CompiledRun``) with tracing.

    ``rig_deck``: None (shuffle) or int32[NCARDS] the deck in draw order. Returns
    ``(state, events int32[E, EV_W], snaps int32[T, state_size], row int32[C])``: the final
    state, the events, the state at the start of every turn and the result row.
    """
    p, deck_cards, fleet = run.spec
    g = np.int64(game_index)
    pids, W = seat_policies(run.entry_policy, run.entry_weights, run.perms, g)
    nstate = int(state_size(p))
    cap = int(p[P_CAP])
    state = np.zeros(nstate, np.int32)
    rng = np.zeros(2, np.uint64)
    ev = np.zeros((cap * 64 + 64, EV_W), np.int32)
    evn = np.zeros(1, np.int64)
    snaps = np.zeros((cap + 1, nstate), np.int32)
    rd = np.zeros(0, np.int32) if rig_deck is None else np.asarray(rig_deck, np.int32)
    playout(p, deck_cards, fleet, pids, W, np.int64(run.seed), g, rd, state, rng, ev, evn, snaps, False)
    row = np.zeros(n_columns(int(p[P_S])), np.int32)
    write_row(state, run.spec, row)
    return state, ev[: evn[0]], snaps[: int(state[H_TURN]) + 1], row
