"""Now Boarding's round pieces: the set-up with the team's free upgrades (``setup_game``),
the flight phase (``flight_passes``), the maintenance's upkeep and draw (``maintenance_draw``)
and a plane's purchase (``buy_phase``), and the look-ahead team's pieces (section "rollout"
below: ``redeal``, the candidate purchases, ``rollout_score``). The engine's loop
(:mod:`sim.games.loop`) plays a game; ``hooks.py`` says how (a round is the engine's turn, the
team's decisions its actions) and holds the purchase search, whose simulations are the
engine's. The rules are in ``rules.py``, the team's choices in ``policies.py``; RULES.md
"Policies".
"""

from __future__ import annotations

import numpy as np

from sim.games.engine import (
    EV_W,
    W_LA_BASE,
    col_at,
    erring,
    kernel,
    leaf_kernel,
)
from sim.games.now_boarding.layout import (
    ACTIVE,
    C_ANGER,
    C_ASSIGN,
    C_DOWN,
    C_DROPAT,
    C_PICK,
    C_PLACE,
    C_VIPK,
    C_WHERE,
    MAXR,
    MAXTOK,
    NA,
    NCARD,
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
    P_CIN,
    P_COMPLAINT_LIMIT,
    P_CORIG,
    P_FREE_ROUTE,
    P_NP,
    P_NR,
    P_POOLED,
    P_RBEST,
    P_RGAIN,
    P_RSP,
    P_SUPPLY,
    P_WTOK,
    PILE,
    PL_BOX,
    PL_PILE,
    PL_WAIT,
    POL_PLANNER,
    POL_RANDOM,
    POL_ROLLOUT,
    PW_ENDBUY,
    PW_TEMP,
    RO_COMPLAINT,
    RO_DELIVER,
    RO_MAXC,
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
    S_SUP_SEAT,
    S_SUP_SPEED,
    S_TSPEED,
    S_WASTED,
    S_WIN,
    SE_ACTLEFT,
    SE_AIR,
    SE_DELIV,
    SE_FARES,
    SE_MASK,
    SE_SEATS,
    SE_SPEED,
    SE_SPLEFT,
    ST_CAIR,
    ST_RPS,
    ST_UPG,
    ST_UPGKS,
    ST_UPGR,
    U_ROUTE,
    U_SEAT,
    U_SPEED,
    U_TSEAT,
    U_TSPEED,
    VP_STATE,
    VS_ATTACHED,
    WP_ROUTE,
    WP_SPACE,
)
from sim.games.now_boarding.planner import plan_round, planner_step
from sim.games.now_boarding.policies import (
    accept_vip,
    choose_target,
    deliver_all,
    do_handoffs,
    do_pickups,
    free_choice,
    free_route_choice,
    plan_upgrade,
    stop_buying,
    strategy_of,
)
from sim.games.now_boarding.rules import (
    after_last_draw,
    basket_add,
    buy_basket,
    buy_one,
    check_invariants,
    draw_passengers,
    fly_hop,
    forced_free_upgrade,
    free_route,
    free_upgrade,
    money,
    pb,
    route_available,
    setup,
    setup_board,
    upgrade_price,
    upkeep,
    vip_offer,
)
from sim.rng import CHANCE, randint, shuffle

# ---------------------------------------------------------------- the team's policy

@leaf_kernel
def team_policy(pol, w):
    """The plain policy that plays the team's flight phase and set-up choices: ``pol``
    itself, or for the look-ahead team (``rollout``) its base policy id (``w[W_LA_BASE]``)."""
    if pol == POL_ROLLOUT:
        return np.int64(w[W_LA_BASE])
    return np.int64(pol)


# ---------------------------------------------------------------- setup (RB "Preparar")

@kernel
def setup_game(st, spec, pol, w, rng, rig_deck, rig_dice, ev, evn):
    """RB "Preparar" 1-15: the board and planes, the free upgrades of step 8 (the team's
    choice where the config leaves it), then the passengers, piles, weather and VIPs
    (``rules.setup``, the rigging hook). Each free choice is a decision of the team: a mistake
    (``engine.erring``, the team's ``mistake`` weight) makes it as the random policy does."""
    setup_board(st, spec)
    pol = team_policy(pol, w)
    for p in range(spec[P_NP]):
        k = forced_free_upgrade(spec)
        if k < 0:
            k = free_choice(erring(pol, w, rng, POL_RANDOM), w, rng)  # a team decision: it may be a mistake
        free_upgrade(st, spec, p, k, ev, evn)
        if spec[P_FREE_ROUTE] == 1:
            free_route(st, spec, p, free_route_choice(st, spec, p, erring(pol, w, rng, POL_RANDOM), rng), ev, evn)
    setup(st, spec, rng, rig_deck, rig_dice, ev, evn)


# ---------------------------------------------------------------- flight phase

@leaf_kernel
def plane_step(st, spec, p, pol, w, rng, ev, evn):
    """One step of plane p in the flight phase (RB "Fase de vuelo"): at an airport deliver,
    hand off, board; then fly one hop toward the policy's target. True when anything changed."""
    pol = team_policy(pol, w)
    if pol == POL_PLANNER:
        return planner_step(st, spec, p, w, ev, evn)
    changed = False
    b = pb(p)
    if st[b + SE_AIR] >= 0 and st[b + SE_ACTLEFT] > 0:
        if deliver_all(st, spec, p, ev, evn) > 0:
            changed = True
        if do_handoffs(st, spec, p, pol, w, rng, ev, evn) > 0:
            changed = True
        if do_pickups(st, spec, p, pol, w, rng, ev, evn) > 0:
            changed = True
    if st[b + SE_SPLEFT] > 0 or st[S_TSPEED] == p:
        t = choose_target(st, spec, p, pol, w, rng)
        if t >= 0 and fly_hop(st, spec, p, t, ev, evn) > 0:
            changed = True
    return changed


@leaf_kernel
def flight_passes(st, spec, pol, w, rng, order, ev, evn, check):
    """RB "Fase de vuelo" (after ``rules.start_flight``): all planes act 'simultaneously',
    resolved as passes in this round's plane order; each pass every plane takes one step.
    Passes repeat until nothing changes, so hand-offs between planes within the round work
    (RB Pro tip). Returns an invariant code in check mode, else 0."""
    n = spec[P_NP]
    pol = team_policy(pol, w)
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

@leaf_kernel
def buy_phase(st, spec, p, pol, w, rng, ev, evn):
    """RB "Comprar actualizaciones" for plane p: the policy plans upgrades in its strategy's
    order while the money covers them; they are paid (pooled: one payment for all; else one
    per upgrade) with the least overpayment, which buys the temporary tokens. The look-ahead
    team buys here as its base policy (its own choice is ``rollout_buy``)."""
    pol = team_policy(pol, w)
    b = pb(p)
    strat = strategy_of(pol, w)
    budget = money(st, p)
    if budget <= 0:
        return
    seats = st[b + SE_SEATS]
    speed = st[b + SE_SPEED]
    mask = st[b + SE_MASK]
    nk = 0
    total = 0
    pooled = spec[P_POOLED] == 1
    while nk < 24:
        k, col, price = plan_upgrade(st, spec, p, pol, w, rng, seats, speed, mask, strat, budget - total)
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
    late = pol == POL_PLANNER and w[PW_ENDBUY] > 0.5 and after_last_draw(st)
    if pol == POL_PLANNER and ((w[PW_TEMP] > 0.5 and nk > 0) or late):
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


@leaf_kernel
def maintenance_draw(st, spec, pol, rng, ev, evn):
    """RB "Fase de mantenimiento" up to the purchases: anger, complaints, stage change or end
    count (``rules.upkeep``); then (not before the final round) the draw, with the VIP the
    team (plain policy ``pol``) takes. True when the game has ended."""
    if upkeep(st, spec, ev, evn):
        return True
    if st[S_STAGE] < 3:
        vi = -1
        cand = vip_offer(st, spec)
        if cand >= 0 and accept_vip(pol, rng):
            vi = cand
        draw_passengers(st, spec, st[S_STAGE], vi, ev, evn)
    return False


# ---------------------------------------------------------------- rollout (look-ahead team)
#
# Flat Monte-Carlo over one decision: the purchase of plane order[k] in a maintenance (RB
# "Comprar actualizaciones"), after the draw. The team flies as its base policy. Candidates:
# the base policy's own purchase (index 0), buying nothing (1), then the other affordable
# baskets of 0-2 speed, 0-2 seats and 0-1 route (the colour saving most distance), at most
# RO_MAXC in all. Each of ``rollouts`` simulations per candidate starts from a copy of the
# position with the hidden pieces re-dealt (``redeal``) from its own stream pair
# (``engine.lookahead_streams``, the same pair for every candidate: common random numbers),
# applies the candidate, lets the other planes buy as the base, and plays on with the base
# policy to the end (or ``depth`` rounds), without events or invariant checks.

@kernel
def redeal(st, spec, rng):
    """Re-deal what the team cannot see (RULES.md "Policies", rollout): the cards it has not
    seen (every pile card, the out-of-play card of 4-5 players and the cards lying face down,
    C_DOWN: drawn this maintenance, RB "Prepara la próxima ronda"), collected in card-id order;
    each face-down card's place (its airport, which its back shows, its anger and VIP), taken in
    the ACTIVE list's order, gets a card drawn uniformly from the unseen cards of that origin;
    the rest are shuffled and dealt back into the piles' remaining slots (stage sizes kept) and
    out of play; all with ``rng``'s CHANCE stream. Then the weather plan of the stages to come
    (their routes drawn again from the routes no seen stage used, ascending, each token on a
    uniform space, as RB setup 13-14 drew them). The VIP deal is left as it is (see RULES.md)."""
    na = st[S_NACTIVE]
    slot = np.empty(NCARD, np.int64)  # ACTIVE indexes of the face-down places
    sair = np.empty(NCARD, np.int64)
    sang = np.empty(NCARD, np.int64)
    svip = np.empty(NCARD, np.int64)
    nd = 0
    for i in range(na):
        c = st[ACTIVE + i]
        if st[C_DOWN + c] == 1:
            slot[nd] = i
            sair[nd] = st[C_WHERE + c]
            sang[nd] = st[C_ANGER + c]
            svip[nd] = st[C_VIPK + c]
            nd += 1
            st[C_PLACE + c] = PL_PILE  # unseen: back into the pool
            st[C_DOWN + c] = 0
            st[C_ANGER + c] = 0
            st[C_VIPK + c] = 0
    pool = np.empty(NCARD, np.int64)
    m = 0
    for c in range(NCARD):
        pl = st[C_PLACE + c]
        if pl == PL_PILE or (pl == PL_BOX and spec[P_CIN + c] == 1):
            pool[m] = c
            m += 1
    for j in range(nd):
        a = sair[j]
        cnt = 0
        for i in range(m):
            if spec[P_CORIG + pool[i]] == a:
                cnt += 1
        k = randint(rng, CHANCE, cnt)
        for i in range(m):
            c = pool[i]
            if spec[P_CORIG + c] != a:
                continue
            if k > 0:
                k -= 1
                continue
            st[C_PLACE + c] = PL_WAIT
            st[C_WHERE + c] = a
            st[C_ANGER + c] = sang[j]
            st[C_VIPK + c] = svip[j]
            st[C_PICK + c] = -1
            st[C_DOWN + c] = 1
            st[C_ASSIGN + c] = 0
            st[C_DROPAT + c] = 0
            st[ACTIVE + slot[j]] = c
            m -= 1
            for x in range(i, m):
                pool[x] = pool[x + 1]
            break
    shuffle(pool, 0, m, rng, CHANCE)
    j = 0
    for s in range(3):
        for i in range(st[S_PILE_POS + s], st[S_PILE_END + s]):
            c = pool[j]
            j += 1
            st[PILE + i] = c
            st[C_PLACE + c] = PL_PILE
    for i in range(j, m):
        st[C_PLACE + pool[i]] = PL_BOX
    s = st[S_STAGE]
    if s >= 2:
        return
    nr = spec[P_NR]
    ntok = spec[P_WTOK]
    used = np.zeros(MAXR, np.int64)
    for t in range(s + 1):
        for i in range(MAXTOK):
            r = st[WP_ROUTE + t * MAXTOK + i]
            if r >= 0:
                used[r] = 1
    rts = np.empty(MAXR, np.int64)
    q = 0
    for r in range(nr):
        if used[r] == 0:
            rts[q] = r
            q += 1
    shuffle(rts, 0, q, rng, CHANCE)
    x = 0
    for t in range(s + 1, 3):
        for i in range(MAXTOK):
            if i < ntok and x < q:
                r = rts[x]
                x += 1
                st[WP_ROUTE + t * MAXTOK + i] = r
                st[WP_SPACE + t * MAXTOK + i] = 1 + randint(rng, CHANCE, spec[P_RSP + r])
            else:
                st[WP_ROUTE + t * MAXTOK + i] = -1


@leaf_kernel
def basket_price(st, spec, p, nv, ns, nr):
    """Price of ``nv`` speed, ``ns`` seat and ``nr`` (0/1) route upgrades for plane p
    (``rules.upgrade_price`` at each level; the route is the colour saving most distance,
    P_RBEST), or -1 when one of them is not available."""
    b = pb(p)
    seats = st[b + SE_SEATS]
    speed = st[b + SE_SPEED]
    total = 0
    if spec[P_SUPPLY] == 1 and (st[S_SUP_SPEED] < nv or st[S_SUP_SEAT] < ns):
        return -1
    for _ in range(nv):
        pr = upgrade_price(st, spec, p, U_SPEED, seats, speed)
        if pr < 0:
            return -1
        total += pr
        speed += 1
    for _ in range(ns):
        pr = upgrade_price(st, spec, p, U_SEAT, seats, speed)
        if pr < 0:
            return -1
        total += pr
        seats += 1
    if nr > 0:
        mask = st[b + SE_MASK]
        col = spec[P_RBEST + mask]
        if col < 0 or spec[P_RGAIN + mask] <= 0 or not route_available(st, spec, p, col):
            return -1
        total += upgrade_price(st, spec, p, U_ROUTE, seats, speed)
    return total


@leaf_kernel
def buy_basket_of(st, spec, p, nv, ns, nr, ev, evn):
    """Plane p buys ``nv`` speed, ``ns`` seat and ``nr`` route upgrades (``basket_price``)
    through the rule functions: one pooled payment (``rules.buy_basket``) or one payment each
    (``rules.buy_one``, stopping at the first the money cards cannot pay)."""
    b = pb(p)
    seats = st[b + SE_SEATS]
    speed = st[b + SE_SPEED]
    pooled = spec[P_POOLED] == 1
    nk = 0
    total = 0
    for i in range(nv + ns + nr):
        if i < nv:
            k = U_SPEED
            col = 0
        elif i < nv + ns:
            k = U_SEAT
            col = 0
        else:
            k = U_ROUTE
            col = spec[P_RBEST + st[b + SE_MASK]]
        price = upgrade_price(st, spec, p, k, seats, speed)
        if price < 0:
            break
        if pooled:
            basket_add(st, nk, k, col, price)
            nk += 1
            total += price
        elif not buy_one(st, spec, p, k, col, price, ev, evn):
            return
        if k == U_SPEED:
            speed += 1
        elif k == U_SEAT:
            seats += 1
    if pooled and nk > 0:
        buy_basket(st, spec, p, nk, total, ev, evn)


@kernel
def rollout_candidates(st, spec, p, base, w, rng, cand, sim):
    """Candidate purchases of plane p into ``cand`` int64[RO_MAXC, 3] (speeds, seats, route):
    row 0 the base policy's own purchase (found by letting it buy on the scratch copy ``sim``
    with a copy of ``rng``), row 1 nothing (unless that is the base's), then the other
    affordable baskets (more speed first). Returns the number of candidates (1: no choice)."""
    b = pb(p)
    sim[:] = st
    r2 = rng.copy()
    ev0 = np.zeros((0, EV_W), np.int32)
    evn0 = np.zeros(1, np.int64)
    buy_phase(sim, spec, p, base, w, r2, ev0, evn0)
    dv = sim[b + SE_SPEED] - st[b + SE_SPEED]
    ds = sim[b + SE_SEATS] - st[b + SE_SEATS]
    dr = 1 if sim[b + SE_MASK] != st[b + SE_MASK] else 0
    cand[0, 0] = dv
    cand[0, 1] = ds
    cand[0, 2] = dr
    nc = 1
    budget = money(st, p)
    for nv in range(2, -1, -1):
        for ns in range(2, -1, -1):
            for nr in range(1, -1, -1):
                if nc >= RO_MAXC:
                    break
                if nv == dv and ns == ds and nr == dr:
                    continue
                pr = 0 if nv + ns + nr == 0 else basket_price(st, spec, p, nv, ns, nr)
                if pr < 0 or pr > budget:
                    continue
                cand[nc, 0] = nv
                cand[nc, 1] = ns
                cand[nc, 2] = nr
                nc += 1
    # "nothing" right after the base's own choice (it is always affordable)
    for i in range(2, nc):
        if cand[i, 0] + cand[i, 1] + cand[i, 2] == 0:
            for x in range(3):
                t = cand[1, x]
                cand[1, x] = cand[i, x]
                cand[i, x] = t
            break
    return nc


@leaf_kernel
def rollout_score(st, spec):
    """Score of one simulation for the team: 1 for a win (``rules.game_end`` ran when the
    game ended), plus RO_DELIVER x delivered / cards in the game, minus RO_COMPLAINT x
    complaints / complaint limit (capped at the limit): the small terms stay within
    (-RO_COMPLAINT, RO_DELIVER], never a win's worth."""
    ncards = 0
    for c in range(NCARD):
        ncards += spec[P_CIN + c]
    lim = spec[P_COMPLAINT_LIMIT]
    cp = st[S_COMPL] if st[S_COMPL] < lim else lim
    win = st[S_WIN] if st[S_OVER] == 1 else 0
    return win + RO_DELIVER * st[S_DELIV] / max(ncards, 1) - RO_COMPLAINT * cp / max(lim, 1)


@leaf_kernel
def write_row(st, spec, row):
    """Fill one result row (int32[C], layout.COLUMNS order, per-seat columns for S planes)."""
    S = spec[P_NP]
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
        row[col_at(O_PFARES[0], O_PFARES[1], S, p)] = st[pb(p) + SE_FARES]
        row[col_at(O_PDELIV[0], O_PDELIV[1], S, p)] = st[pb(p) + SE_DELIV]
