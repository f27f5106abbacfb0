"""One playout of Now Boarding (setup, rounds of flight + maintenance, end) and the batch kernel.

``playout`` is the single implementation of one game: ``play_batch`` (no events), ``trace``
(events recorded), ``check_playout`` (invariants checked after every step) and ``GameState``
(``setup_game`` / ``open_round`` / ``close_round``, the same pieces) all play through it.
The rules are in ``rules.py``, the team's choices in ``policies.py``; this module only puts
them in the rulebook's order (RB "Despegue y aterrizaje": flight phase, then maintenance).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from sim.games.engine import EV_W, batch_kernel, capped, col_at, kernel, seat_policies
from sim.games.now_boarding.layout import (
    K_FREE_ROUTE,
    K_NP,
    K_POOLED,
    K_TURN_CAP,
    MAXP,
    NA,
    NRT,
    NVIP,
    O_C_ANGER,
    O_C_LEFT,
    O_C_VIP,
    O_CAIR,
    O_COMPL,
    O_DELIV,
    O_FARES,
    O_LEFT,
    O_LOSS_ROUND,
    O_LOSS_STAGE,
    O_LOST_EARLY,
    O_PDELIV,
    O_PFARES,
    O_RESH,
    O_RPS,
    O_SPENT,
    O_STALLED,
    O_STARVED,
    O_TURNS,
    O_UPG,
    O_UPGKS,
    O_UPGR,
    O_VIPS,
    O_WASTED,
    O_WIN,
    P_ACTLEFT,
    P_AIR,
    P_DELIV,
    P_FARES,
    P_MASK,
    P_SEATS,
    P_SPEED,
    P_SPLEFT,
    POL_PLANNER,
    PW_TEMP,
    S_C_ANGER,
    S_C_LEFT,
    S_C_VIP,
    S_COMPL,
    S_DELIV,
    S_FARES,
    S_LEFT,
    S_LOSS_ROUND,
    S_LOSS_STAGE,
    S_LOST_EARLY,
    S_OVER,
    S_PASSES,
    S_ROUND,
    S_SPENT,
    S_STAGE,
    S_STALLED,
    S_TSPEED,
    S_VIOL,
    S_WASTED,
    S_WIN,
    ST_CAIR,
    ST_RPS,
    ST_UPG,
    ST_UPGKS,
    ST_UPGR,
    STATE_SIZE,
    U_ROUTE,
    U_SEAT,
    U_SPEED,
    U_TSEAT,
    U_TSPEED,
    VP_STATE,
    VS_ATTACHED,
)
from sim.games.now_boarding.policies import (
    accept_vip,
    choose_target,
    deliver_all,
    do_handoffs,
    do_pickups,
    free_choice,
    free_route_choice,
    plan_round,
    plan_upgrade,
    planner_step,
    stop_buying,
    strategy_of,
)
from sim.games.now_boarding.rules import (
    basket_add,
    begin_round,
    buy_basket,
    buy_one,
    check_invariants,
    draw_passengers,
    fly_hop,
    forced_free_upgrade,
    free_route,
    free_upgrade,
    game_end,
    money,
    pb,
    setup,
    setup_board,
    stall,
    upgrade_price,
    upkeep,
    vip_offer,
)
from sim.rng import seed_streams

# ---------------------------------------------------------------- setup (RB "Preparar")

@kernel
def setup_game(st, spec, pol, w, rng, rig_deck, rig_dice, ev, evn):
    """RB "Preparar" 1-15: the board and planes, the free upgrades of step 8 (the team's
    choice where the config leaves it), then the passengers, piles, weather and VIPs
    (``rules.setup``, the rigging hook)."""
    setup_board(st, spec)
    for p in range(spec[K_NP]):
        k = forced_free_upgrade(spec)
        if k < 0:
            k = free_choice(pol, w, rng)
        free_upgrade(st, spec, p, k, ev, evn)
        if spec[K_FREE_ROUTE] == 1:
            free_route(st, spec, p, free_route_choice(st, spec, p, pol, rng), ev, evn)
    setup(st, spec, rng, rig_deck, rig_dice, ev, evn)


# ---------------------------------------------------------------- flight phase

@kernel
def plane_step(st, spec, p, pol, w, rng, ev, evn):
    """One step of plane p in the flight phase (RB "Fase de vuelo"): at an airport deliver,
    hand off, board; then fly one hop toward the policy's target. True when anything changed."""
    if pol == POL_PLANNER:
        return planner_step(st, spec, p, w, ev, evn)
    changed = False
    b = pb(p)
    if st[b + P_AIR] >= 0 and st[b + P_ACTLEFT] > 0:
        if deliver_all(st, spec, p, ev, evn) > 0:
            changed = True
        if do_handoffs(st, spec, p, pol, w, rng, ev, evn) > 0:
            changed = True
        if do_pickups(st, spec, p, pol, w, rng, ev, evn) > 0:
            changed = True
    if st[b + P_SPLEFT] > 0 or st[S_TSPEED] == p:
        t = choose_target(st, spec, p, pol, w, rng)
        if t >= 0 and fly_hop(st, spec, p, t, ev, evn) > 0:
            changed = True
    return changed


@kernel
def flight_passes(st, spec, pol, w, rng, order, ev, evn, check):
    """RB "Fase de vuelo" (after ``rules.start_flight``): all planes act 'simultaneously',
    resolved as passes in this round's plane order; each pass every plane takes one step.
    Passes repeat until nothing changes, so hand-offs between planes within the round work
    (RB Pro tip). Returns an invariant code in check mode, else 0."""
    n = spec[K_NP]
    if pol == POL_PLANNER:
        plan_round(st, spec, w)
    passes = 0
    while passes < 200:
        changed = False
        for k in range(n):
            if plane_step(st, spec, order[k], pol, w, rng, ev, evn):
                changed = True
            if check:
                v = check_invariants(st, spec)
                if v != 0:
                    return v
        passes += 1
        if not changed:
            break
    st[S_PASSES] += passes
    return 0


# ---------------------------------------------------------------- maintenance

@kernel
def buy_phase(st, spec, p, pol, w, rng, ev, evn):
    """RB "Comprar actualizaciones" for plane p: the policy plans upgrades in its strategy's
    order while the money covers them; they are paid (pooled: one payment for all; else one
    per upgrade) with the least overpayment, which buys the temporary tokens."""
    b = pb(p)
    strat = strategy_of(pol, w)
    budget = money(st, p)
    if budget <= 0:
        return
    seats = st[b + P_SEATS]
    speed = st[b + P_SPEED]
    mask = st[b + P_MASK]
    nk = 0
    total = 0
    pooled = spec[K_POOLED] == 1
    while nk < 24:
        k, col, price = plan_upgrade(st, spec, p, pol, w, rng, seats, speed, mask, strat)
        if k < 0 or total + price > budget:
            break
        if stop_buying(pol, rng):
            break
        if not pooled:
            if not buy_one(st, spec, p, k, col, price, ev, evn):
                break
            budget = money(st, p)
        else:
            basket_add(st, nk, k, col, price)
            nk += 1
            total += price
        if k == U_SEAT:
            seats += 1
        elif k == U_SPEED:
            speed += 1
        elif k == U_ROUTE:
            mask |= 1 << col
    if pol == POL_PLANNER and w[PW_TEMP] > 0.5 and nk > 0:
        # the change of this purchase buys the temporary tokens still in the supply
        for kt in (U_TSEAT, U_TSPEED):
            pt = upgrade_price(st, spec, p, kt, seats, speed)
            if pt > 0 and pt <= budget - total:
                if not pooled:
                    if not buy_one(st, spec, p, kt, 0, pt, ev, evn):
                        break
                    budget = money(st, p)
                else:
                    basket_add(st, nk, kt, 0, pt)
                    nk += 1
                    total += pt
    if pooled and nk > 0:
        buy_basket(st, spec, p, nk, total, ev, evn)


@kernel
def maintenance(st, spec, pol, w, rng, order, ev, evn):
    """RB "Fase de mantenimiento": anger, complaints, stage change or end count
    (``rules.upkeep``); then (not before the final round) the draw, with the VIP the team
    takes; then every plane's upgrades, in this round's plane order."""
    if upkeep(st, spec, ev, evn):
        return
    if st[S_STAGE] < 3:
        vi = -1
        cand = vip_offer(st, spec)
        if cand >= 0 and accept_vip(pol, rng):
            vi = cand
        draw_passengers(st, spec, st[S_STAGE], vi, ev, evn)
    for k in range(spec[K_NP]):
        buy_phase(st, spec, order[k], pol, w, rng, ev, evn)


# ---------------------------------------------------------------- rounds and the game

@kernel
def open_round(st, spec, rng, order, ev, evn):
    """Start the next round (``rules.begin_round``), or, at the turn cap, stop the game as a
    stall. Returns False when the game stalled."""
    if capped(st[S_ROUND], spec[K_TURN_CAP]):
        stall(st, ev, evn)
        return False
    begin_round(st, spec, rng, order, ev, evn)
    return True


@kernel
def close_round(st, spec, pol, w, rng, order, ev, evn, check):
    """The rest of a round: the flight phase by the team policy, then maintenance. Returns 0,
    or in check mode the first violated invariant code."""
    v = flight_passes(st, spec, pol, w, rng, order, ev, evn, check)
    if v != 0:
        return v
    maintenance(st, spec, pol, w, rng, order, ev, evn)
    if check:
        return check_invariants(st, spec)
    return 0


@kernel
def playout(st, spec, pol, w, rng, rig_deck, rig_dice, ev, evn, check):
    """Play one whole game into ``st`` int32[STATE_SIZE] with policy ``pol`` and weights ``w``
    float64[W]. ``ev``/``evn`` receive events (E = 0: none); ``check``: check_invariants after
    every step (the first violation goes to st[S_VIOL] and the game stops there)."""
    setup_game(st, spec, pol, w, rng, rig_deck, rig_dice, ev, evn)
    if check:
        v = check_invariants(st, spec)
        if v != 0:
            st[S_VIOL] = v
            return
    order = np.empty(MAXP, np.int64)
    while st[S_OVER] == 0:
        if not open_round(st, spec, rng, order, ev, evn):
            break
        v = close_round(st, spec, pol, w, rng, order, ev, evn, check)
        if v != 0:
            st[S_VIOL] = v
            return
    game_end(st, ev, evn)


@kernel
def write_row(st, spec, row):
    """Fill one result row (int32[C], layout.COLUMNS order, per-seat columns for S planes)."""
    S = spec[K_NP]
    row[col_at(O_TURNS[0], O_TURNS[1], S, 0)] = st[S_ROUND]
    row[col_at(O_STALLED[0], O_STALLED[1], S, 0)] = st[S_STALLED]
    row[col_at(O_RESH[0], O_RESH[1], S, 0)] = 0
    row[col_at(O_STARVED[0], O_STARVED[1], S, 0)] = 0
    row[col_at(O_WIN[0], O_WIN[1], S, 0)] = st[S_WIN]
    row[col_at(O_COMPL[0], O_COMPL[1], S, 0)] = st[S_COMPL]
    row[col_at(O_C_ANGER[0], O_C_ANGER[1], S, 0)] = st[S_C_ANGER]
    row[col_at(O_C_LEFT[0], O_C_LEFT[1], S, 0)] = st[S_C_LEFT]
    row[col_at(O_C_VIP[0], O_C_VIP[1], S, 0)] = st[S_C_VIP]
    row[col_at(O_LOST_EARLY[0], O_LOST_EARLY[1], S, 0)] = st[S_LOST_EARLY]
    row[col_at(O_LOSS_STAGE[0], O_LOSS_STAGE[1], S, 0)] = st[S_LOSS_STAGE]
    row[col_at(O_LOSS_ROUND[0], O_LOSS_ROUND[1], S, 0)] = st[S_LOSS_ROUND]
    row[col_at(O_DELIV[0], O_DELIV[1], S, 0)] = st[S_DELIV]
    row[col_at(O_LEFT[0], O_LEFT[1], S, 0)] = st[S_LEFT]
    row[col_at(O_FARES[0], O_FARES[1], S, 0)] = st[S_FARES]
    row[col_at(O_SPENT[0], O_SPENT[1], S, 0)] = st[S_SPENT]
    row[col_at(O_WASTED[0], O_WASTED[1], S, 0)] = st[S_WASTED]
    for k in range(5):
        row[col_at(O_UPG[0], O_UPG[1], S, 0) + k] = st[ST_UPG + k]
    for s in range(4):
        row[col_at(O_RPS[0], O_RPS[1], S, 0) + s] = st[ST_RPS + s]
    for a in range(NA):
        row[col_at(O_CAIR[0], O_CAIR[1], S, 0) + a] = st[ST_CAIR + a]
    for r in range(NRT):
        row[col_at(O_UPGR[0], O_UPGR[1], S, 0) + r] = st[ST_UPGR + r]
    t = 0
    for i in range(NVIP):
        if st[VP_STATE + i] == VS_ATTACHED:
            t += 1
    row[col_at(O_VIPS[0], O_VIPS[1], S, 0)] = t
    for k in range(9):
        row[col_at(O_UPGKS[0], O_UPGKS[1], S, 0) + k] = st[ST_UPGKS + k]
    for p in range(S):
        row[col_at(O_PFARES[0], O_PFARES[1], S, p)] = st[pb(p) + P_FARES]
        row[col_at(O_PDELIV[0], O_PDELIV[1], S, p)] = st[pb(p) + P_DELIV]


# ---------------------------------------------------------------- entry points

@kernel
def play_game(K, entry_policy, entry_weights, perms, seed, g, st, rig_deck, rig_dice, ev, evn, check):
    """Game ``g`` of ``seed`` into ``st``, exactly as the batch plays it: the team plays the
    policy and weights of seat 0 (a cooperative game: every seat names the same ones).
    Returns st[S_VIOL] (0 unless ``check`` found a violation)."""
    pids, W = seat_policies(entry_policy, entry_weights, perms, g)
    rng = np.empty(2, np.uint64)
    seed_streams(rng, seed, g)
    playout(st, K, pids[0], W[0], rng, rig_deck, rig_dice, ev, evn, check)
    return st[S_VIOL]


@kernel
def play_index(K, entry_policy, entry_weights, perms, seed, g, row):
    """One untraced, unrigged game ``g`` of the batch into ``row`` int32[C]."""
    st = np.empty(STATE_SIZE, np.int32)
    ev = np.zeros((0, EV_W), np.int32)
    evn = np.zeros(1, np.int64)
    rig_deck = np.zeros(0, np.int32)
    rig_dice = np.zeros(1, np.int32)
    play_game(K, entry_policy, entry_weights, perms, seed, g, st, rig_deck, rig_dice, ev, evn, False)
    write_row(st, K, row)


@batch_kernel
def play_batch(spec, entry_policy, entry_weights, perms, seed, first_index, count, out):
    """Games first_index .. first_index+count-1 into ``out`` int32[count, C] (the contract in
    sim/games/base.py); ``spec`` is the 1-tuple ``(K,)`` of ``spec.compile_spec``."""
    K = spec[0]
    for i in prange(count):
        play_index(K, entry_policy, entry_weights, perms, seed, first_index + np.int64(i), out[i])


def play_traced(run, game_index: int, rows: int, check: bool = False,
                rig: tuple[np.ndarray, np.ndarray] | None = None):
    """Game ``game_index`` of ``run`` (a CompiledRun) with an event buffer of ``rows`` rows.
    Returns (state int32[STATE_SIZE], events int32[n, EV_W], violation code)."""
    from sim.games.engine import event_buffer, no_rig

    st = np.zeros(STATE_SIZE, np.int32)
    ev, evn = event_buffer(rows)
    rig_deck, rig_dice = rig if rig is not None else no_rig()
    v = play_game(run.spec[0], run.entry_policy, run.entry_weights, run.perms, np.int64(run.seed),
                  np.int64(game_index), st, rig_deck, rig_dice, ev, evn, check)
    return st, ev[: int(evn[0])], int(v)
