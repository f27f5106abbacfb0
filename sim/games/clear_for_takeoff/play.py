"""Clear for Takeoff playouts: one game, a parallel batch, and the result columns.

``play_game`` is the single implementation of a turn sequence; the batch kernel, the
invariant checker and ``sim replay`` all call it (tracing is a flag and a buffer).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from sim.games.base import Column, expand_columns
from sim.games.clear_for_takeoff.policies import choose_runway, select
from sim.games.clear_for_takeoff.rules import (
    ACT_W,
    E_PASS,
    E_STALL,
    E_STARVED,
    E_TURN,
    EV_W,
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
    NSTAT,
    NWEATHER,
    P_CAP,
    P_K,
    P_OFF_OCC,
    P_OFF_POS,
    P_OFF_RANK,
    P_OFF_START,
    P_OFF_STATS,
    P_OFF_WT,
    P_S,
    P_VIP2,
    SC,
    ST_BLOCKED,
    ST_DLY,
    ST_DLY_PLAYED,
    ST_EXCH,
    ST_FLR,
    ST_FLR_PLAYED,
    ST_TAKEOFFS,
    apply_exchange,
    apply_play,
    check_invariants,
    draw_face_down,
    end_of_turn_moves,
    finish_turn,
    legal_plays,
    log,
    max_actions,
    setup,
    state_size,
)
from sim.rng import seed_streams

WEATHER_KEYS = ("sc", "fg", "31l", "31r", "sn", "xw", "ice")

COLUMNS = (
    Column("turns", "player turns played"),
    Column("stalled", "1 when the turn cap ended the game before one airline remained"),
    Column("reshuffles", "times the discard pile was shuffled into a new deck"),
    Column("starved_draws", "draws cut short because deck and discard pile were both empty"),
    Column("winner", "seat of the first airline with every aircraft airborne, -1 if none"),
    Column("winner_turn", "player turn on which the winner finished, -1 if none"),
    Column("rank", "finishing position (1 = first), 0 = still on the airfield at a stall", per_seat=True),
    Column("flr_suffered", "aircraft sent to the hangar by FLR (played or drawn face up)", per_seat=True),
    Column("dly_suffered", "aircraft sent to the hangar by DLY (played or drawn face up)", per_seat=True),
    Column("flr_played", "FLR cards played on opponents", per_seat=True),
    Column("dly_played", "DLY cards played on opponents", per_seat=True),
    Column("blocked", "takeoff attempts stopped by the weather", per_seat=True),
    Column("takeoffs", "aircraft that took off", per_seat=True),
    Column("exchanges", "turns spent exchanging cards", per_seat=True),
) + tuple(Column(f"weather_turns_{w}", f"turns begun under {w.upper()} weather") for w in WEATHER_KEYS)

_SEAT_STATS = (ST_FLR, ST_DLY, ST_FLR_PLAYED, ST_DLY_PLAYED, ST_BLOCKED, ST_TAKEOFFS, ST_EXCH)


@njit(cache=True, error_model="numpy")
def play_game(p, deck_cards, fleet, pids, W, seed, g, preset, state, rng, ev, evn, snaps, check):
    """Play game ``g`` of ``seed`` into ``state``; returns 0 or an invariant code.

    ``pids`` int64[S] policy of each seat, ``W`` float64[S, 8] weights; ``preset`` int32
    deck order (first entry -1: shuffle). With ``ev`` of more than one row, events are
    logged and ``snaps`` (int32[T, state_size]) gets the state at the start of each turn.
    With ``check`` the invariants are tested after every turn.
    """
    K = p[P_K]
    acts = np.empty((max_actions(p), ACT_W), np.int32)
    disc = np.zeros(NCT, np.int32)
    need = np.zeros(NCT, np.int32)
    seed_streams(rng, seed, g)
    setup(state, p, deck_cards, fleet, rng, preset)
    tracing = ev.shape[0] > 1
    cap = p[P_CAP]
    while True:
        if state[H_TURN] >= cap:
            state[H_STALL] = 1
            log(ev, evn, state, E_STALL, 0, 0, 0, 0, 0)
            break
        s = state[H_CUR]
        for k in range(K):
            state[p[P_OFF_START] + s * K + k] = state[p[P_OFF_POS] + s * K + k]
        state[p[P_OFF_WT] + state[H_WEATHER] - SC] += 1
        if tracing:
            t = state[H_TURN]
            if t < snaps.shape[0]:
                snaps[t, :] = state
            log(ev, evn, state, E_TURN, 0, 0, 0, 0, 0)
        n = legal_plays(state, p, fleet, acts)
        choice = select(state, p, fleet, pids[s], W[s], acts, n, disc, need, rng)
        short = 0
        if choice >= 0:
            apply_play(state, p, fleet, acts[choice], ev, evn)
        elif choice == -1:
            short = apply_exchange(state, p, fleet, disc, rng, ev, evn)
        else:
            log(ev, evn, state, E_PASS, 0, 0, 0, 0, 0)
        short += draw_face_down(state, p, rng, ev, evn)
        if short > 0:
            state[H_STARVED] += 1
            log(ev, evn, state, E_STARVED, short, 0, 0, 0, 0)
        vr = 0
        if state[p[P_OFF_OCC] + p[P_VIP2]] >= 0:  # someone's aircraft waits on VIP2
            vr = choose_runway(state, p, pids[s], rng)
        end_of_turn_moves(state, p, fleet, vr, ev, evn)
        finish_turn(state, p, ev, evn)
        if check:
            code = check_invariants(state, p, fleet)
            if code != 0:
                return code
        if state[H_DONE] == 1:
            break
    return 0


@njit(cache=True, error_model="numpy")
def fill_row(state, p, row):
    """Write the result columns (see ``COLUMNS``; per-seat columns for S seats) of a
    finished game into ``row`` (int32[C])."""
    S = p[P_S]
    row[0] = state[H_TURN]
    row[1] = state[H_STALL]
    row[2] = state[H_RESHUF]
    row[3] = state[H_STARVED]
    row[4] = state[H_WINNER]
    row[5] = state[H_WINNER_TURN]
    c = 6
    for s in range(S):
        row[c + s] = state[p[P_OFF_RANK] + s]
    c += S
    for st in _SEAT_STATS:
        for s in range(S):
            row[c + s] = state[p[P_OFF_STATS] + s * NSTAT + st]
        c += S
    for w in range(NWEATHER):
        row[c + w] = state[p[P_OFF_WT] + w]


@njit(cache=True, error_model="numpy")
def seat_policies(entry_policy, entry_weights, perms, g):
    """Policy ids (int64[S]) and weights (float64[S, W]) of game g's seats."""
    prow = perms[g % perms.shape[0]]
    S = prow.shape[0]
    pids = np.empty(S, np.int64)
    W = np.empty((S, entry_weights.shape[1]), np.float64)
    for s in range(S):
        pids[s] = entry_policy[prow[s]]
        W[s, :] = entry_weights[prow[s]]
    return pids, W


@njit(cache=True, error_model="numpy")
def play_index(p, deck_cards, fleet, entry_policy, entry_weights, perms, seed, g, check):
    """Play game ``g`` untraced with its seats' policies; returns (state, invariant code)."""
    pids, W = seat_policies(entry_policy, entry_weights, perms, g)
    state = np.zeros(state_size(p), np.int32)
    rng = np.zeros(2, np.uint64)
    ev = np.zeros((1, EV_W), np.int32)
    evn = np.zeros(1, np.int64)
    snaps = np.zeros((1, 1), np.int32)
    preset = np.full(1, -1, np.int32)
    code = play_game(p, deck_cards, fleet, pids, W, seed, g, preset, state, rng, ev, evn, snaps, check)
    return state, code


@njit(cache=True, error_model="numpy", parallel=True)
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
        state, _ = play_index(pp, deck_cards.copy(), fleet.copy(), entry_policy, entry_weights, perms, seed,
                              first_index + ii, False)
        fill_row(state, pp, out[ii])


@njit(cache=True, error_model="numpy")
def check_batch(spec, entry_policy, entry_weights, perms, seed, first_index, count):
    """Play ``count`` games checking the invariants after every turn; returns int64[count]
    codes (0 = every invariant held; see ``rules.check_invariants``)."""
    p, deck_cards, fleet = spec
    codes = np.zeros(count, np.int64)
    for i in range(count):
        _, codes[i] = play_index(p, deck_cards, fleet, entry_policy, entry_weights, perms, seed, first_index + i, True)
    return codes


def check_playout(spec, entry_policy, entry_weights, perms, seed, game_index) -> int:
    """Contract hook: one game with invariants checked after every turn; 0 or a code."""
    return int(check_batch(spec, entry_policy, entry_weights, perms, np.int64(seed), np.int64(game_index), 1)[0])


def run_traced(spec, entry_policy, entry_weights, perms, seed, game_index, preset=None):
    """Play one game with tracing. Returns (state, events int32[E, 8], snaps int32[T, n],
    row int32[C])."""
    p, deck_cards, fleet = spec
    pids, W = seat_policies(entry_policy, entry_weights, perms, np.int64(game_index))
    nstate = int(state_size(p))
    cap = int(p[P_CAP])
    state = np.zeros(nstate, np.int32)
    rng = np.zeros(2, np.uint64)
    ev = np.zeros((cap * 64 + 64, EV_W), np.int32)
    evn = np.zeros(1, np.int64)
    snaps = np.zeros((cap + 1, nstate), np.int32)
    pre = np.full(1, -1, np.int32) if preset is None else np.asarray(preset, np.int32)
    play_game(p, deck_cards, fleet, pids, W, np.int64(seed), np.int64(game_index), pre, state, rng, ev, evn, snaps, False)
    S = int(p[P_S])
    row = np.zeros(len(expand_columns(COLUMNS, S)), np.int32)
    fill_row(state, p, row)
    return state, ev[: evn[0]], snaps[: int(state[H_TURN]) + 1], row

