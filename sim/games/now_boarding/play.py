"""One playout (setup, rounds of flight + maintenance, end count) and the batch kernel.

``playout`` is the single implementation used by ``play_batch`` (no events), ``trace``
(events recorded) and ``check_playout`` (invariants checked after every step).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from sim.games.now_boarding.columns import (  # noqa: E402
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
    O_RESH,
    O_RPS,
    O_SEAT,
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
)
from sim.games.now_boarding.layout import (
    ACTIVE,
    C_ANGER,
    C_PICK,
    C_PLACE,
    C_WHERE,
    EV_DRAW,
    EV_END,
    EV_FINAL,
    EV_ORDER,
    EV_ROUND,
    EV_STAGE,
    EV_W,
    K_AIRIN,
    K_ANGER_LIMIT,
    K_BUDGET,
    K_CDEST,
    K_CFARE,
    K_CIN,
    K_CORIG,
    K_DRAW,
    K_FREE_ROUTE,
    K_FREE_UPG,
    K_MAX_SEATS,
    K_MAX_SPEED,
    K_NP,
    K_NR,
    K_PCOL,
    K_PHOME,
    K_PILE,
    K_POOLED,
    K_RBEST,
    K_RCOL,
    K_RSP,
    K_START_SEATS,
    K_START_SPEED,
    K_TSEAT_PRICE,
    K_TSPEED_PRICE,
    K_TURN_CAP,
    K_VIP,
    K_VIP_COUNT,
    K_VKIND,
    K_VSTAGES,
    K_WTOK,
    MAXP,
    MAXTOK,
    NA,
    NCARD,
    NFARE,
    NRT,
    NVIP,
    P_ACTLEFT,
    P_AIR,
    P_DELIV,
    P_FARES,
    P_LOAD,
    P_MASK,
    P_MONEY,
    P_NCARR,
    P_OFF,
    P_ROUTE,
    P_SEATS,
    P_SPEED,
    P_SPLEFT,
    P_TCARD,
    PILE,
    PL_BOX,
    PL_COMPLAINT,
    PL_MONEY,
    PL_PILE,
    PL_PLANE,
    PL_WAIT,
    R_LEN,
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
    S_NACTIVE,
    S_OVER,
    S_PASSES,
    S_PILE_END,
    S_PILE_POS,
    S_ROUND,
    S_SPENT,
    S_STAGE,
    S_STALLED,
    S_SUP_ROUTE,
    S_SUP_SEAT,
    S_SUP_SPEED,
    S_TSEAT,
    S_TSPEED,
    S_VIOL,
    S_WASTED,
    S_WIN,
    ST_CAIR,
    ST_RPS,
    ST_UPG,
    ST_UPGR,
    STATE_SIZE,
    U_ROUTE,
    U_SEAT,
    U_SPEED,
    U_TSEAT,
    U_TSPEED,
    V_ACTIVE,
    V_ANGER,
    V_CAPACITY,
    V_CARD_PLACE,
    V_COMPLAINTS,
    V_KIND,
    V_MONEY,
    V_OK,
    V_POSITION,
    V_STAGE,
    V_STATE,
    V_TOKENS,
    V_UPGRADES,
    WP_ROUTE,
    WP_SPACE,
)
from sim.games.now_boarding.layout import R_LEN as R_LEN_
from sim.games.now_boarding.layout import S_RSTAGE as S_RSTAGE_
from sim.games.now_boarding.layout import SCR_BUY as SCR_BUY_
from sim.games.now_boarding.layout import ST_UPGKS as ST_UPGKS_
from sim.games.now_boarding.layout import W_TYPE as W_TYPE_
from sim.games.now_boarding.policies import (
    POL_RANDOM,
    accept_vip,
    choose_target,
    deliver_all,
    do_handoffs,
    do_pickups,
    free_choice,
    plan_upgrade,
    strategy_of,
)
from sim.games.now_boarding.rules import (
    BIG,
    anger_phase,
    apply_weather,
    compute_dist,
    draw_passengers,
    emit,
    end_count,
    fly_hop,
    grant_upgrade,
    money,
    next_pending_vip,
    pay,
    pb,
    pile_left,
    plane_dist,
    plane_init,
    refuse_stage_vips,
    route_available,
    seats_needed,
)
from sim.games.now_boarding.rules import can_drop as can_drop_
from sim.games.now_boarding.rules import can_pickup as can_pickup_
from sim.games.now_boarding.rules import do_drop as do_drop_
from sim.games.now_boarding.rules import do_pickup as do_pickup_
from sim.games.now_boarding.rules import upgrade_price as upgrade_price_
from sim.rng import CHANCE, POLICY, randint, seed_streams, shuffle, uniform

# ---------------------------------------------------------------- setup

@njit(cache=True)
def setup(st, spec, pol, w, rng, ev):
    """RB "Preparar" steps 1-15 (timer: see RULES.md). Chance (stream CHANCE): starting passengers,
    the deck shuffle, the weather plan of all 3 stages, the VIP deal."""
    st[:] = 0
    n = spec[K_NP]
    st[S_TSEAT] = -1
    st[S_TSPEED] = -1
    st[S_LOSS_STAGE] = -1
    st[S_SUP_SEAT] = 18 - n
    st[S_SUP_SPEED] = 15 - n
    for c in range(1, 6):
        st[S_SUP_ROUTE + c] = 2
    for c in range(NCARD):
        st[C_PICK + c] = -1
        st[C_WHERE + c] = -1
    # planes (steps 6-8)
    for p in range(n):
        plane_init(st, spec, p, spec[K_PHOME + p], spec[K_PCOL + p], spec[K_START_SEATS], spec[K_START_SPEED])
    for p in range(n):
        mode = spec[K_FREE_UPG]
        k = U_SEAT if mode == 1 else (U_SPEED if mode == 2 else free_choice(pol, w, rng))
        b = pb(p)
        if k == U_SEAT and st[b + P_SEATS] >= spec[K_MAX_SEATS]:
            k = U_SPEED
        if k == U_SPEED and st[b + P_SPEED] >= spec[K_MAX_SPEED]:
            k = -1
        if k >= 0:
            grant_upgrade(st, spec, p, k, 0, ev, 0)
        if spec[K_FREE_ROUTE] == 1:
            if pol == POL_RANDOM:
                col = -1
                for _ in range(20):
                    cc = 1 + randint(rng, POLICY, 5)
                    if route_available(st, spec, p, cc):
                        col = cc
                        break
            else:
                col = spec[K_RBEST + st[b + P_MASK]]
            if col >= 1 and route_available(st, spec, p, col):
                grant_upgrade(st, spec, p, U_ROUTE, col, ev, 0)
    # passengers (steps 9-11)
    deck = np.empty(NCARD, np.int64)
    nd = 0
    for c in range(NCARD):
        if spec[K_CIN + c] == 1:
            st[C_PLACE + c] = PL_PILE
            deck[nd] = c
            nd += 1
        else:
            st[C_PLACE + c] = PL_BOX
    for p in range(n):
        home = spec[K_PHOME + p]
        m = 0
        for i in range(nd):
            if deck[i] >= 0 and spec[K_CORIG + deck[i]] == home:
                m += 1
        if m == 0:
            continue
        j = randint(rng, CHANCE, m)
        for i in range(nd):
            if deck[i] >= 0 and spec[K_CORIG + deck[i]] == home:
                if j == 0:
                    c = deck[i]
                    deck[i] = -1
                    st[C_PLACE + c] = PL_WAIT
                    st[C_WHERE + c] = home
                    st[C_ANGER + c] = 0
                    emit(st, ev, EV_DRAW, c, home, spec[K_CDEST + c], spec[K_CFARE + c], -1)
                    st[ACTIVE + st[S_NACTIVE]] = c
                    st[S_NACTIVE] += 1
                    break
                j -= 1
    m = 0
    for i in range(nd):
        if deck[i] >= 0:
            deck[m] = deck[i]
            m += 1
    shuffle(deck, 0, m, rng, CHANCE)
    pos = 0
    for s in range(3):
        st[S_PILE_POS + s] = pos
        for _ in range(spec[K_PILE + s]):
            st[PILE + pos] = deck[pos]
            pos += 1
        st[S_PILE_END + s] = pos
    for i in range(pos, m):
        st[C_PLACE + deck[i]] = PL_BOX  # out of play (4-5 players: 1 card)
    # weather plan (steps 13-14): 3 x tokens distinct routes, a random space each
    nr = spec[K_NR]
    rts = np.empty(nr, np.int64)
    for r in range(nr):
        rts[r] = r
    shuffle(rts, 0, nr, rng, CHANCE)
    ntok = spec[K_WTOK]
    for s in range(3):
        for j in range(MAXTOK):
            st[WP_ROUTE + s * MAXTOK + j] = -1
            if j < ntok:
                r = rts[s * ntok + j]
                st[WP_ROUTE + s * MAXTOK + j] = r
                st[WP_SPACE + s * MAXTOK + j] = 1 + randint(rng, CHANCE, spec[K_RSP + r])
    # VIPs
    for i in range(NVIP):
        st[V_KIND + i] = spec[K_VKIND + i]
        st[V_STAGE + i] = -1
    if spec[K_VIP] == 1:
        order = np.empty(NVIP, np.int64)
        for i in range(NVIP):
            order[i] = i
        shuffle(order, 0, NVIP, rng, CHANCE)
        cap = np.zeros(3, np.int64)
        for s in range(3):
            d = spec[K_DRAW + s]
            cap[s] = (spec[K_PILE + s] + d - 1) // d
        cap[0] -= 1  # the setup draw takes no VIP
        kinds = np.empty(NVIP, np.int64)
        stages = np.empty(NVIP, np.int64)
        for i in range(NVIP):
            kinds[i] = spec[K_VKIND + order[i]]
            stages[i] = spec[K_VSTAGES + order[i]]
        for i in range(NVIP):
            st[V_KIND + i] = kinds[i]
            if i >= spec[K_VIP_COUNT]:
                continue
            m = 0
            for s in range(3):
                if (stages[i] >> s) & 1 and cap[s] > 0:
                    m += 1
            if m == 0:
                continue
            j = randint(rng, CHANCE, m)
            for s in range(3):
                if (stages[i] >> s) & 1 and cap[s] > 0:
                    if j == 0:
                        st[V_STAGE + i] = s
                        st[V_STATE + i] = 1
                        cap[s] -= 1
                        break
                    j -= 1
    # step 15: morning weather (computes every plane's distances); step 12: the first morning draw
    apply_weather(st, spec, 0, ev)
    draw_passengers(st, spec, 0, -1, ev)


# ---------------------------------------------------------------- invariants

@njit(cache=True)
def check_invariants(st, spec):
    """0, or the code (layout V_*) of the first violated invariant: every card in exactly one
    place and its zone's bookkeeping agrees, seats never over capacity (the temporary seat
    allows one above), money never negative and equal to the money cards, planes on legal
    spots, anger below the limit, complaint counters equal the complaint pile."""
    n = spec[K_NP]
    nwait = 0
    nplane = 0
    ncompl = 0
    npile = 0
    load = np.zeros(MAXP, np.int64)
    carr = np.zeros(MAXP, np.int64)
    mon = np.zeros((MAXP, NFARE), np.int64)
    for c in range(NCARD):
        pl = st[C_PLACE + c]
        if pl < 0 or pl > 7:
            return V_CARD_PLACE
        if spec[K_CIN + c] == 0 and pl != PL_BOX:
            return V_CARD_PLACE
        if pl == PL_WAIT:
            a = st[C_WHERE + c]
            if a < 0 or a >= NA or spec[K_AIRIN + a] == 0:
                return V_CARD_PLACE
            if st[C_ANGER + c] < 0 or st[C_ANGER + c] >= spec[K_ANGER_LIMIT]:
                return V_ANGER
            nwait += 1
        elif pl == PL_PLANE:
            p = st[C_WHERE + c]
            if p < 0 or p >= n:
                return V_CARD_PLACE
            load[p] += seats_needed(st, c)
            carr[p] += 1
            nplane += 1
        elif pl == PL_MONEY:
            p = st[C_WHERE + c]
            if p < 0 or p >= n:
                return V_CARD_PLACE
            mon[p, spec[K_CFARE + c]] += 1
        elif pl == PL_COMPLAINT:
            ncompl += 1
        elif pl == PL_PILE:
            npile += 1
    # piles
    tot = 0
    for s in range(3):
        for i in range(st[S_PILE_POS + s], st[S_PILE_END + s]):
            if st[C_PLACE + st[PILE + i]] != PL_PILE:
                return V_CARD_PLACE
            tot += 1
    if tot != npile:
        return V_CARD_PLACE
    # active list
    if st[S_NACTIVE] != nwait + nplane:
        return V_ACTIVE
    for i in range(st[S_NACTIVE]):
        c = st[ACTIVE + i]
        if c < 0 or c >= NCARD:
            return V_ACTIVE
        pl = st[C_PLACE + c]
        if pl != PL_WAIT and pl != PL_PLANE:
            return V_ACTIVE
        for j in range(i):
            if st[ACTIVE + j] == c:
                return V_ACTIVE
    for p in range(n):
        b = pb(p)
        if st[b + P_LOAD] != load[p] or st[b + P_NCARR] != carr[p]:
            return V_CAPACITY
        if load[p] > st[b + P_SEATS] + 1:
            return V_CAPACITY
        for v in range(NFARE):
            if st[b + P_MONEY + v] < 0 or st[b + P_MONEY + v] != mon[p, v]:
                return V_MONEY
        if st[b + P_SEATS] > spec[K_MAX_SEATS] or st[b + P_SPEED] > spec[K_MAX_SPEED]:
            return V_UPGRADES
        if st[b + P_SPLEFT] < 0:
            return V_POSITION
        a = st[b + P_AIR]
        if a >= 0:
            if a >= NA or spec[K_AIRIN + a] == 0:
                return V_POSITION
        else:
            r = st[b + P_ROUTE]
            if r < 0 or r >= spec[K_NR]:
                return V_POSITION
            o = st[b + P_OFF]
            if o <= 0 or o >= st[R_LEN + r]:
                return V_POSITION
            if (st[b + P_MASK] >> spec[K_RCOL + r]) & 1 == 0:
                return V_POSITION
    if st[S_TSEAT] < -1 or st[S_TSEAT] >= n or st[S_TSPEED] < -1 or st[S_TSPEED] >= n:
        return V_TOKENS
    nref = 0
    for i in range(NVIP):
        if st[V_STATE + i] == 3:
            nref += 1
    if st[S_C_ANGER] != ncompl or st[S_C_VIP] != nref:
        return V_COMPLAINTS
    if st[S_COMPL] != st[S_C_ANGER] + st[S_C_LEFT] + st[S_C_VIP]:
        return V_COMPLAINTS
    return V_OK


# ---------------------------------------------------------------- phases

@njit(cache=True)
def plane_step(st, spec, p, pol, w, rng, ev):
    """One step of plane p in the flight phase: at an airport deliver, hand off, board; then fly
    one hop toward the policy's target. Returns True when anything changed."""
    changed = False
    b = pb(p)
    if st[b + P_AIR] >= 0 and st[b + P_ACTLEFT] > 0:
        if deliver_all(st, spec, p, ev) > 0:
            changed = True
        if do_handoffs(st, spec, p, pol, w, rng, ev) > 0:
            changed = True
        if do_pickups(st, spec, p, pol, w, rng, ev) > 0:
            changed = True
    if st[b + P_SPLEFT] > 0 or st[S_TSPEED] == p:
        t = choose_target(st, spec, p, pol, w, rng)
        if t >= 0 and fly_hop(st, spec, p, t, ev) > 0:
            changed = True
    return changed


@njit(cache=True)
def flight_phase(st, spec, pol, w, rng, ev, order, check):
    """RB "Fase de vuelo": all planes act 'simultaneously', resolved as passes in this round's
    random plane order; each pass every plane takes one step (deliver/hand off/board at its
    airport, then one hop). Passes repeat until nothing changes, so hand-offs between planes
    within the round work (RB Pro tip). Returns an invariant code in check mode, else 0."""
    n = spec[K_NP]
    budget = spec[K_BUDGET]
    for p in range(n):
        b = pb(p)
        st[b + P_SPLEFT] = st[b + P_SPEED]
        st[b + P_ACTLEFT] = budget if budget > 0 else BIG
        st[b + P_TCARD] = -1
    passes = 0
    while passes < 200:
        changed = False
        for k in range(n):
            if plane_step(st, spec, order[k], pol, w, rng, ev):
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


@njit(cache=True)
def buy_phase(st, spec, p, pol, w, rng, ev):
    """RB "Comprar actualizaciones" for plane p: plan upgrades in strategy order while the money
    covers them, pay (pooled: one payment for all; else one per upgrade) with the least
    overpayment, and spend any overpayment on the free temporary tokens ($2 seat, $1 speed)."""
    b = pb(p)
    strat = strategy_of(pol, w)
    budget = money(st, p)
    if budget <= 0:
        return
    seats = st[b + P_SEATS]
    speed = st[b + P_SPEED]
    mask = st[b + P_MASK]
    K = SCR_BUY_  # basket in scratch: kinds [0:24], colours [24:48], prices [48:72]
    nk = 0
    total = 0
    pooled = spec[K_POOLED] == 1
    while nk < 24:
        k, col, price = plan_upgrade(st, spec, p, pol, w, rng, seats, speed, mask, strat)
        if k < 0 or total + price > budget:
            break
        if pol == POL_RANDOM and uniform(rng, POLICY) < 0.3:
            break
        if not pooled:
            paid = pay(st, spec, p, price, ev)
            if paid < 0:
                break
            grant_upgrade(st, spec, p, k, col, ev, price)
            spend_slack(st, spec, p, paid - price, ev)
            budget = money(st, p)
        else:
            st[K + nk] = k
            st[K + 24 + nk] = col
            st[K + 48 + nk] = price
            nk += 1
            total += price
        if k == U_SEAT:
            seats += 1
        elif k == U_SPEED:
            speed += 1
        elif k == U_ROUTE:
            mask |= 1 << col
    if pooled and nk > 0:
        paid = pay(st, spec, p, total, ev)
        if paid >= 0:
            for i in range(nk):
                grant_upgrade(st, spec, p, st[K + i], st[K + 24 + i], ev, st[K + 48 + i])
            spend_slack(st, spec, p, paid - total, ev)


@njit(cache=True)
def spend_slack(st, spec, p, slack, ev):
    """Overpayment buys the temporary seat, then the temporary speed token, when in the supply."""
    ps = spec[K_TSEAT_PRICE]
    if st[S_TSEAT] < 0 and slack >= ps and ps > 0:
        grant_upgrade(st, spec, p, U_TSEAT, 0, ev, ps)
        st[S_WASTED] -= ps
        slack -= ps
    pv = spec[K_TSPEED_PRICE]
    if st[S_TSPEED] < 0 and slack >= pv and pv > 0:
        grant_upgrade(st, spec, p, U_TSPEED, 0, ev, pv)
        st[S_WASTED] -= pv


@njit(cache=True)
def maintenance(st, spec, pol, w, rng, ev, order):
    """RB "Fase de mantenimiento": anger and complaints; then (not after the final round) draw the
    next passengers, changing stage and weather when the stage's pile is empty (after the
    evening pile: the next round is the final one, no draw, no weather change); then
    upgrades. After the final round: the end count (RB "Salir de la aeronave")."""
    if anger_phase(st, spec, ev):
        return
    s = st[S_STAGE]
    if s == 3:
        end_count(st, spec, ev)
        return
    if pile_left(st, s) <= 0:
        if refuse_stage_vips(st, spec, s, ev):
            return
        if s < 2:
            s += 1
            st[S_STAGE] = s
            emit(st, ev, EV_STAGE, s, st[S_ROUND], 0, 0, 0)
            apply_weather(st, spec, s, ev)
        else:
            st[S_STAGE] = 3
            emit(st, ev, EV_FINAL, st[S_ROUND] + 1, 0, 0, 0, 0)
    if st[S_STAGE] < 3:
        vi = -1
        if spec[K_VIP] == 1:
            cand = next_pending_vip(st, s)
            if cand >= 0 and pile_left(st, s) > 0 and accept_vip(pol, rng):
                vi = cand
        draw_passengers(st, spec, s, vi, ev)
    n = spec[K_NP]
    for k in range(n):
        buy_phase(st, spec, order[k], pol, w, rng, ev)


@njit(cache=True)
def playout(st, spec, pol, w, rng, ev, check):
    """Play one whole game into ``st``. ``ev`` int32[E, EV_W] receives events (E = 0: none);
    ``check``: run check_invariants after every step (first violation in st[S_VIOL])."""
    setup(st, spec, pol, w, rng, ev)
    if check:
        v = check_invariants(st, spec)
        if v != 0:
            st[S_VIOL] = v
            return
    n = spec[K_NP]
    order = np.empty(MAXP, np.int64)
    cap = spec[K_TURN_CAP]
    while st[S_OVER] == 0:
        if st[S_ROUND] >= cap:
            st[S_STALLED] = 1
            st[S_OVER] = 1
            break
        st[S_ROUND] += 1
        st[ST_RPS + st[S_STAGE]] += 1
        st[S_RSTAGE_] = st[S_STAGE]
        for i in range(n):
            order[i] = i
        shuffle(order, 0, n, rng, CHANCE)
        emit(st, ev, EV_ROUND, st[S_ROUND], st[S_STAGE], st[S_COMPL], 0, 0)
        emit(st, ev, EV_ORDER, order[0], order[1] if n > 1 else -1, order[2] if n > 2 else -1,
             order[3] if n > 3 else -1, order[4] if n > 4 else -1)
        v = flight_phase(st, spec, pol, w, rng, ev, order, check)
        if v != 0:
            st[S_VIOL] = v
            return
        maintenance(st, spec, pol, w, rng, ev, order)
        if check:
            v = check_invariants(st, spec)
            if v != 0:
                st[S_VIOL] = v
                return
    win = 1 if (st[S_STALLED] == 0 and st[S_LOSS_STAGE] < 0) else 0
    st[S_WIN] = win
    if st[S_LOST_EARLY] == 1 or st[S_STALLED] == 1:
        # passengers still on the board when the game stopped
        st[S_LEFT] = st[S_NACTIVE]
    emit(st, ev, EV_END, win, st[S_COMPL], st[S_ROUND], st[S_LOSS_STAGE], st[S_LEFT])


@njit(cache=True)
def write_row(st, spec, row):
    """Fill one result row (int32[C], COLUMN_NAMES order + per-seat blocks)."""
    n = spec[K_NP]
    row[O_TURNS] = st[S_ROUND]
    row[O_STALLED] = st[S_STALLED]
    row[O_RESH] = 0
    row[O_STARVED] = 0
    row[O_WIN] = st[S_WIN]
    row[O_COMPL] = st[S_COMPL]
    row[O_C_ANGER] = st[S_C_ANGER]
    row[O_C_LEFT] = st[S_C_LEFT]
    row[O_C_VIP] = st[S_C_VIP]
    row[O_LOST_EARLY] = st[S_LOST_EARLY]
    row[O_LOSS_STAGE] = st[S_LOSS_STAGE]
    row[O_LOSS_ROUND] = st[S_LOSS_ROUND]
    row[O_DELIV] = st[S_DELIV]
    row[O_LEFT] = st[S_LEFT]
    row[O_FARES] = st[S_FARES]
    row[O_SPENT] = st[S_SPENT]
    row[O_WASTED] = st[S_WASTED]
    for k in range(5):
        row[O_UPG + k] = st[ST_UPG + k]
    for s in range(4):
        row[O_RPS + s] = st[ST_RPS + s]
    for a in range(NA):
        row[O_CAIR + a] = st[ST_CAIR + a]
    for r in range(NRT):
        row[O_UPGR + r] = st[ST_UPGR + r]
    t = 0
    for i in range(NVIP):
        if st[V_STATE + i] == 2:
            t += 1
    row[O_VIPS] = t
    for k in range(9):
        row[O_UPGKS + k] = st[ST_UPGKS_ + k]
    for p in range(n):
        row[O_SEAT + p] = st[pb(p) + P_FARES]
        row[O_SEAT + n + p] = st[pb(p) + P_DELIV]


@njit(parallel=True, cache=True)
def play_batch(spec, entry_policy, entry_weights, perms, seed, first_index, count, out):
    """Games first_index .. first_index+count-1 into ``out`` int32[count, C] (the contract in
    sim/games/base.py). The team plays entry 0's policy and weights; ``perms`` is ignored
    (cooperative game: seats are interchangeable)."""
    pol = entry_policy[0]
    w = entry_weights[0]
    for i in prange(count):
        g = first_index + np.int64(i)
        rng = np.empty(2, np.uint64)
        seed_streams(rng, seed, g)
        st = np.empty(STATE_SIZE, np.int32)
        ev = np.zeros((0, EV_W), np.int32)
        playout(st, spec, pol, w, rng, ev, False)
        write_row(st, spec, out[i])


# ---------------------------------------------------------------- one entry point for the GameState wrapper

OP_CHECK, OP_CAN_PICK, OP_PICK, OP_CAN_DROP, OP_DROP, OP_FLY, OP_ANGER, OP_MAINT, OP_DIST, OP_WEATHER, \
    OP_RELEN, OP_PAY, OP_PDIST, OP_GRANT, OP_BUY, OP_FLIGHT, OP_SETUP, OP_END, OP_DRAW, OP_STEP, \
    OP_PRICE, OP_DELIVER_ALL, OP_PLAYOUT = range(23)


@njit(cache=True)
def gs_op(op, st, spec, pol, w, rng, ev, a, b, c):
    """Run one rule primitive on a state (the GameState wrapper's single numba entry point, so the
    wrapper and the kernel share every rule). Returns the primitive's int result (0 if none)."""
    n = spec[K_NP]
    if op == OP_CHECK:
        return check_invariants(st, spec)
    if op == OP_CAN_PICK:
        return can_pickup_(st, spec, a, b)
    if op == OP_PICK:
        return do_pickup_(st, spec, a, b, ev)
    if op == OP_CAN_DROP:
        return 1 if can_drop_(st, spec, a, b) else 0
    if op == OP_DROP:
        return do_drop_(st, spec, a, b, ev)
    if op == OP_FLY:
        return fly_hop(st, spec, a, b, ev)
    if op == OP_ANGER:
        return 1 if anger_phase(st, spec, ev) else 0
    if op == OP_MAINT:
        order = np.arange(MAXP)
        maintenance(st, spec, pol, w, rng, ev, order)
        return st[S_OVER]
    if op == OP_DIST:
        for p in range(n):
            compute_dist(st, spec, p)
        return 0
    if op == OP_WEATHER:
        apply_weather(st, spec, a, ev)
        return 0
    if op == OP_RELEN:
        for r in range(spec[K_NR]):
            t = st[W_TYPE_ + r]
            st[R_LEN_ + r] = spec[K_RSP + r] + 1 + (1 if t == 1 else (-1 if t == 2 else 0))
        for p in range(n):
            compute_dist(st, spec, p)
        return 0
    if op == OP_PAY:
        return pay(st, spec, a, b, ev)
    if op == OP_PDIST:
        return plane_dist(st, spec, a, b)
    if op == OP_GRANT:
        grant_upgrade(st, spec, a, b, c, ev, upgrade_price_(st, spec, a, b, st[pb(a) + P_SEATS], st[pb(a) + P_SPEED]))
        return 0
    if op == OP_BUY:
        buy_phase(st, spec, a, pol, w, rng, ev)
        return 0
    if op == OP_FLIGHT:
        order = np.arange(MAXP)
        for i in range(n):
            order[i] = (i + a) % n
        return flight_phase(st, spec, pol, w, rng, ev, order, b == 1)
    if op == OP_SETUP:
        setup(st, spec, pol, w, rng, ev)
        return 0
    if op == OP_END:
        return 1 if end_count(st, spec, ev) else 0
    if op == OP_DRAW:
        return draw_passengers(st, spec, a, b, ev)
    if op == OP_STEP:
        return 1 if plane_step(st, spec, a, pol, w, rng, ev) else 0
    if op == OP_PRICE:
        return upgrade_price_(st, spec, a, b, st[pb(a) + P_SEATS], st[pb(a) + P_SPEED])
    if op == OP_DELIVER_ALL:
        return deliver_all(st, spec, a, ev)
    if op == OP_PLAYOUT:
        # game b of seed a, exactly as play_batch plays it (c = 1: check invariants every step)
        seed_streams(rng, a, b)
        playout(st, spec, pol, w, rng, ev, c == 1)
        return st[S_VIOL]
    return -1
