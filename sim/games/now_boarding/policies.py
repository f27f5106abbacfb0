"""Team policies (``@kernel``), dispatched on the integer policy id (layout POL_*). The whole
team plays one policy; each plane decides for itself with the shared board in view (RULES.md
"Policies"). Weights (float64[N_WEIGHTS]) are read by layout W_* index; upgrade strategies
are layout STRAT_*. Every draw comes from the POLICY stream, so policies never change the
deal (common random numbers).

Temperature (the engine's weight, docs/mistakes.md): the team's decisions the engine sees are
whole phases (the flight phase, the draw, a purchase), so its dispatch has no options to
soften; greedy and heuristic soften their own scored choices inside the flight phase
(``do_pickups``, ``choose_target``) with the engine's ``prefer`` at the team's temperature, one
pick over the very scores their argmax compares (at 0 that argmax, nothing drawn). The
planner plans whole routes (``planner.py``) and purchases follow strategies: not scored.
"""

from __future__ import annotations

from sim.games.engine import W_TEMPERATURE, leaf_kernel, prefer
from sim.games.now_boarding.layout import (
    ACTIVE,
    C_ANGER,
    C_PLACE,
    C_VIPK,
    C_WHERE,
    NA,
    P_AIRIN,
    P_ANGER_LIMIT,
    P_CDEST,
    P_CFARE,
    P_MAX_SEATS,
    P_MAX_SPEED,
    P_NP,
    P_RBEST,
    P_RGAIN,
    P_ROUTE_PRICE,
    PL_PLANE,
    PL_WAIT,
    POL_GREEDY,
    POL_HEURISTIC,
    POL_PLANNER,
    POL_RANDOM,
    PW_ENDBUY,
    PW_FREE_SPEED,
    PW_SEAT1,
    PW_SEAT2,
    PW_SEAT3,
    PW_SPEED1,
    PW_SPEED2,
    S_NACTIVE,
    S_STAGE,
    S_TSEAT,
    SE_AIR,
    SE_LOAD,
    SE_MASK,
    SE_NCARR,
    SE_SEATS,
    SE_SPLEFT,
    SE_TAIR,
    SE_TCARD,
    STRAT_BALANCED,
    STRAT_ROUTES,
    STRAT_SEATS,
    STRAT_SPEED,
    U_ROUTE,
    U_SEAT,
    U_SPEED,
    VIP_CELEBRITY,
    W_ANGER,
    W_DIST,
    W_FARE,
    W_HANDOFF,
    W_SEATCAP,
    W_SPEEDCAP,
    W_STRAT,
    W_TRIP,
)
from sim.games.now_boarding.rules import (
    after_last_draw,
    airport_dist,
    can_drop,
    can_pickup,
    do_drop,
    do_pickup,
    pb,
    plane_dist,
    route_available,
    seats_needed,
    upgrade_price,
)
from sim.rng import POLICY, randint, uniform


@leaf_kernel
def fits(st, p, c):
    """Could plane p ever board card c now (seats incl. the temporary token, Celebrity rules)?"""
    b = pb(p)
    need = seats_needed(st, c)
    room = st[b + SE_SEATS] - st[b + SE_LOAD]
    if st[S_TSEAT] == p:
        room += 1
    if need > room:
        return False
    if st[C_VIPK + c] == VIP_CELEBRITY and st[b + SE_NCARR] > 0:
        return False
    return True


@leaf_kernel
def targeted_by_other(st, spec, p, c):
    """True when a plane other than p is heading for card c."""
    for q in range(spec[P_NP]):
        if q != p and st[pb(q) + SE_TCARD] == c:
            return True
    return False


@leaf_kernel
def handed_to_other(st, spec, p, c):
    """True when card c was handed off for another plane that is at the same airport."""
    a = st[C_WHERE + c]
    for q in range(spec[P_NP]):
        if q != p and st[pb(q) + SE_TCARD] == c and st[pb(q) + SE_AIR] == a:
            return True
    return False


@leaf_kernel
def primary_dest(st, spec, p):
    """Nearest destination among the cards aboard plane p (-1 when empty)."""
    best = -1
    bd = 1 << 30
    for i in range(st[S_NACTIVE]):
        c = st[ACTIVE + i]
        if st[C_PLACE + c] == PL_PLANE and st[C_WHERE + c] == p:
            d = spec[P_CDEST + c]
            x = plane_dist(st, spec, p, d)
            if x < bd:
                bd = x
                best = d
    return best


@leaf_kernel
def deliver_all(st, spec, p, ev, evn):
    """Set down every passenger aboard p whose destination is p's airport (always taken: a
    delivery is never worse than keeping the passenger). Returns the count."""
    a = st[pb(p) + SE_AIR]
    n = 0
    i = st[S_NACTIVE] - 1
    while i >= 0:
        c = st[ACTIVE + i]
        if st[C_PLACE + c] == PL_PLANE and st[C_WHERE + c] == p and spec[P_CDEST + c] == a:
            if do_drop(st, spec, p, c, ev, evn) == 2:
                n += 1
        i -= 1
    return n


@leaf_kernel
def do_pickups(st, spec, p, pol, w, rng, ev, evn):
    """Board passengers waiting at p's airport per the policy, one at a time, the best-scored
    first (greedy 16 x anger + fare; heuristic the weighted score below, the plane's target
    first), or at the team's temperature a softmax pick over the same scores (``engine.prefer``).
    Returns the count boarded."""
    b = pb(p)
    a = st[b + SE_AIR]
    n = 0
    if pol == POL_RANDOM:
        i = 0
        while i < st[S_NACTIVE]:
            c = st[ACTIVE + i]
            if st[C_PLACE + c] == PL_WAIT and st[C_WHERE + c] == a and can_pickup(st, spec, p, c) > 0:
                if uniform(rng, POLICY) < 0.5:
                    do_pickup(st, spec, p, c, ev, evn)
                    n += 1
            i += 1
        return n
    dest0 = primary_dest(st, spec, p) if pol == POL_HEURISTIC else -1
    t = w[W_TEMPERATURE]
    while True:
        best = -1
        bs = -1e18
        mass = 0.0
        for i in range(st[S_NACTIVE]):
            c = st[ACTIVE + i]
            if st[C_PLACE + c] != PL_WAIT or st[C_WHERE + c] != a:
                continue
            if can_pickup(st, spec, p, c) == 0:
                continue
            if handed_to_other(st, spec, p, c):
                continue
            ang = st[C_ANGER + c]
            fare = spec[P_CFARE + c]
            if pol == POL_GREEDY:
                s = 16.0 * ang + fare
            else:
                s = w[W_ANGER] * ang * ang + w[W_FARE] * fare
                if st[b + SE_TCARD] != c and dest0 >= 0:
                    d = spec[P_CDEST + c]
                    det = airport_dist(st, p, a, d) + airport_dist(st, p, d, dest0) - airport_dist(st, p, a, dest0)
                    s -= w[W_TRIP] * det
                    if s < 0:
                        continue
                if st[b + SE_TCARD] == c:
                    s += 1e9
            take, bs, mass = prefer(s, t, bs, mass, rng)
            if take:
                best = c
        if best < 0:
            break
        do_pickup(st, spec, p, best, ev, evn)
        n += 1
        if pol == POL_HEURISTIC and dest0 < 0:
            dest0 = primary_dest(st, spec, p)
    return n


@leaf_kernel
def do_handoffs(st, spec, p, pol, w, rng, ev, evn):
    """Hand-off drop-offs at a non-destination airport (RB "Dejar pasajeros", Pro tip).
    random: each legal one with probability 1/8; heuristic: when another plane at this airport
    has room and reaches the destination at least ``handoff`` move points sooner (that plane
    then targets the card); greedy: never."""
    b = pb(p)
    a = st[b + SE_AIR]
    n = 0
    if pol == POL_GREEDY:
        return 0
    if pol == POL_HEURISTIC and w[W_HANDOFF] <= 0:
        return 0
    i = st[S_NACTIVE] - 1
    while i >= 0:
        c = st[ACTIVE + i]
        i -= 1
        if st[C_PLACE + c] != PL_PLANE or st[C_WHERE + c] != p:
            continue
        d = spec[P_CDEST + c]
        if d == a or not can_drop(st, spec, p, c):
            continue
        if pol == POL_RANDOM:
            if uniform(rng, POLICY) < 0.125:
                do_drop(st, spec, p, c, ev, evn)
                n += 1
            continue
        mine = airport_dist(st, p, a, d)
        for q in range(spec[P_NP]):
            if q == p:
                continue
            bq = pb(q)
            if st[bq + SE_AIR] != a or st[bq + SE_TCARD] >= 0:
                continue
            if st[bq + SE_LOAD] + seats_needed(st, c) > st[bq + SE_SEATS]:
                continue
            if st[C_VIPK + c] == VIP_CELEBRITY and st[bq + SE_NCARR] > 0:
                continue
            if airport_dist(st, q, a, d) + w[W_HANDOFF] <= mine:
                do_drop(st, spec, p, c, ev, evn)
                st[bq + SE_TCARD] = c
                n += 1
                break
    return n


@leaf_kernel
def choose_target(st, spec, p, pol, w, rng):
    """Airport plane p flies toward next (-1 = stay). Sets SE_TCARD to the card it goes to fetch.

    greedy: with passengers aboard, the nearest destination; empty, the most urgent waiting
    passenger no other plane is fetching (score 10*anger + 2*fare - distance), kept once chosen.
    heuristic: the best of deliveries (fare*w_fare - dist*w_dist) and pickups
    (w_anger*anger^2 + w_fare*fare - w_dist*dist - w_trip*trip), +2 for the current target.
    random: a random airport, kept until reached.

    At the team's temperature (``w[W_TEMPERATURE]`` > 0) the scored choices, greedy's passenger
    to fetch and the heuristic's delivery or pickup, are softmax picks over the same scores
    (``engine.prefer``, the POLICY stream); greedy's nearest-destination delivery and its
    last-cube diversion are rules (nearest first) and stay as they are."""
    b = pb(p)
    here = st[b + SE_AIR]
    if pol == POL_RANDOM:
        t = st[b + SE_TAIR]
        if t < 0 or t == here:
            t = randint(rng, POLICY, NA)
            if spec[P_AIRIN + t] == 0:
                return -1
            st[b + SE_TAIR] = t
        return t
    n = st[S_NACTIVE]
    last = spec[P_ANGER_LIMIT] - 1
    left = st[b + SE_SPLEFT]
    t = w[W_TEMPERATURE]
    if pol == POL_GREEDY:
        tc = st[b + SE_TCARD]
        if st[b + SE_NCARR] > 0:
            # a passenger at its last anger cube, reachable this round, with room aboard: divert
            if tc >= 0 and st[C_PLACE + tc] == PL_WAIT and st[C_WHERE + tc] != here:
                return st[C_WHERE + tc]
            best = -1
            bd = 1 << 30
            for i in range(n):
                c = st[ACTIVE + i]
                if st[C_PLACE + c] != PL_WAIT or st[C_ANGER + c] < last or st[C_WHERE + c] == here:
                    continue
                if targeted_by_other(st, spec, p, c) or not fits(st, p, c):
                    continue
                x = plane_dist(st, spec, p, st[C_WHERE + c])
                if x <= left and x < bd:
                    bd = x
                    best = c
            if best >= 0:
                st[b + SE_TCARD] = best
                return st[C_WHERE + best]
            st[b + SE_TCARD] = -1
            best = -1
            bd = 1 << 30
            bf = -1
            for i in range(n):
                c = st[ACTIVE + i]
                if st[C_PLACE + c] == PL_PLANE and st[C_WHERE + c] == p:
                    d = spec[P_CDEST + c]
                    x = plane_dist(st, spec, p, d)
                    f = spec[P_CFARE + c]
                    if x < bd or (x == bd and f > bf):
                        bd = x
                        bf = f
                        best = d
            return best
        if tc >= 0 and st[C_PLACE + tc] == PL_WAIT and st[C_WHERE + tc] != here:
            return st[C_WHERE + tc]
        best = -1
        bs = -1e18
        mass = 0.0
        for i in range(n):
            c = st[ACTIVE + i]
            if st[C_PLACE + c] != PL_WAIT or st[C_WHERE + c] == here:
                continue
            if targeted_by_other(st, spec, p, c) or not fits(st, p, c):
                continue
            x = plane_dist(st, spec, p, st[C_WHERE + c])
            s = 10.0 * st[C_ANGER + c] + 2.0 * spec[P_CFARE + c] - x
            if st[C_ANGER + c] >= last and x > left:
                s -= 40.0  # cannot be reached before it complains
            take, bs, mass = prefer(s, t, bs, mass, rng)
            if take:
                best = c
        st[b + SE_TCARD] = best
        if best < 0:
            return -1
        return st[C_WHERE + best]
    # heuristic
    tc = st[b + SE_TCARD]
    best_t = -1
    best_c = -1
    bs = -1e18
    mass = 0.0
    for i in range(n):
        c = st[ACTIVE + i]
        pl = st[C_PLACE + c]
        if pl == PL_PLANE and st[C_WHERE + c] == p:
            d = spec[P_CDEST + c]
            if d == here:
                continue
            s = w[W_FARE] * spec[P_CFARE + c] - w[W_DIST] * plane_dist(st, spec, p, d)
            take, bs, mass = prefer(s, t, bs, mass, rng)
            if take:
                best_t = d
                best_c = -1
        elif pl == PL_WAIT:
            a = st[C_WHERE + c]
            if a == here or targeted_by_other(st, spec, p, c) or not fits(st, p, c):
                continue
            ang = st[C_ANGER + c]
            x = plane_dist(st, spec, p, a)
            s = (w[W_ANGER] * ang * ang + w[W_FARE] * spec[P_CFARE + c] - w[W_DIST] * x
                 - w[W_TRIP] * airport_dist(st, p, a, spec[P_CDEST + c]))
            if ang >= last and x > left:
                s -= w[W_ANGER] * ang * ang  # hopeless: it complains before this plane arrives
            if c == tc:
                s += 2.0
            take, bs, mass = prefer(s, t, bs, mass, rng)
            if take:
                best_t = a
                best_c = c
    st[b + SE_TCARD] = best_c
    return best_t


@leaf_kernel
def plan_upgrade(st, spec, p, pol, w, rng, seats, speed, mask, strat, budget):
    """Next upgrade plane p wants (kind, colour, price) given the planned seats/speed/mask and
    the money not yet planned (``budget``, $); kind -1 = none. The planner's ``endbuy`` after
    the last draw picks among the affordable seat and speed only (nothing to save for).
    Strategy order: 'first' strategies return their kind while available even if unaffordable
    (the plane saves for it); balanced returns the cheapest available."""
    seat_cap = spec[P_MAX_SEATS]
    speed_cap = spec[P_MAX_SPEED]
    if pol == POL_HEURISTIC:
        if w[W_SEATCAP] < seat_cap:
            seat_cap = int(w[W_SEATCAP])
        if w[W_SPEEDCAP] < speed_cap:
            speed_cap = int(w[W_SPEEDCAP])
    ps = upgrade_price(st, spec, p, U_SEAT, seats, speed) if seats < seat_cap else -1
    pv = upgrade_price(st, spec, p, U_SPEED, seats, speed) if speed < speed_cap else -1
    col = spec[P_RBEST + mask]
    pr = -1
    if col >= 0 and route_available(st, spec, p, col):
        pr = upgrade_price(st, spec, p, U_ROUTE, seats, speed)
    if pol == POL_PLANNER:
        eb = w[PW_ENDBUY]
        if eb > 0.5 and after_last_draw(st):
            # money has no use after the game (RB "Salir de la aeronave"): nothing to save for
            oks = ps >= 0 and ps <= budget
            okv = pv >= 0 and pv <= budget
            if oks and (not okv or (eb > 1.5 and eb < 2.5) or (eb < 1.5 and ps < pv)):
                return U_SEAT, 0, ps
            if okv:
                return U_SPEED, 0, pv
            return -1, 0, 0
        if ps >= 0 and st[S_STAGE] >= 2 and seats < w[PW_SEAT3]:
            return U_SEAT, 0, ps
        if pv >= 0 and speed < w[PW_SPEED1]:
            return U_SPEED, 0, pv
        if ps >= 0 and seats < w[PW_SEAT1]:
            return U_SEAT, 0, ps
        if pv >= 0 and speed < w[PW_SPEED2]:
            return U_SPEED, 0, pv
        if ps >= 0 and seats < w[PW_SEAT2]:
            return U_SEAT, 0, ps
        if pr >= 0 and spec[P_RGAIN + mask] > 0:
            return U_ROUTE, col, pr
        if pv >= 0 and (ps < 0 or pv <= ps):
            return U_SPEED, 0, pv
        if ps >= 0:
            return U_SEAT, 0, ps
        return -1, 0, 0
    if pol == POL_RANDOM:
        k = randint(rng, POLICY, 3)
        if k == 0 and ps >= 0:
            return U_SEAT, 0, ps
        if k == 1 and pv >= 0:
            return U_SPEED, 0, pv
        if k == 2:
            c = 1 + randint(rng, POLICY, 5)
            if route_available(st, spec, p, c):
                return U_ROUTE, c, spec[P_ROUTE_PRICE]
        return -1, 0, 0
    if strat == STRAT_SEATS:
        if ps >= 0:
            return U_SEAT, 0, ps
        if pv >= 0:
            return U_SPEED, 0, pv
        if pr >= 0:
            return U_ROUTE, col, pr
        return -1, 0, 0
    if strat == STRAT_SPEED:
        if pv >= 0:
            return U_SPEED, 0, pv
        if ps >= 0:
            return U_SEAT, 0, ps
        if pr >= 0:
            return U_ROUTE, col, pr
        return -1, 0, 0
    if strat == STRAT_ROUTES:
        if pr >= 0:
            return U_ROUTE, col, pr
        if ps >= 0 and (pv < 0 or ps <= pv):
            return U_SEAT, 0, ps
        if pv >= 0:
            return U_SPEED, 0, pv
        return -1, 0, 0
    # balanced: cheapest (ties seat, speed, route)
    k = -1
    c = 0
    price = 1 << 30
    if ps >= 0 and ps < price:
        k = U_SEAT
        price = ps
    if pv >= 0 and pv < price:
        k = U_SPEED
        price = pv
    if pr >= 0 and pr < price:
        k = U_ROUTE
        c = col
        price = pr
    if k < 0:
        return -1, 0, 0
    return k, c, price


@leaf_kernel
def strategy_of(pol, w):
    """Upgrade strategy of the team (STRAT_*): the heuristic's ``strategy`` weight rounded
    (out of range: balanced); the other policies buy balanced."""
    if pol == POL_HEURISTIC:
        s = int(w[W_STRAT] + 0.5)
        if s < 0 or s > 3:
            s = 0
        return s
    return STRAT_BALANCED


@leaf_kernel
def free_choice(pol, w, rng):
    """RB setup 8, free seat (U_SEAT) or speed (U_SPEED) when the config leaves it to the team:
    speed for the speed-first strategy, a coin for random, else a seat."""
    if pol == POL_RANDOM:
        return U_SEAT if uniform(rng, POLICY) < 0.5 else U_SPEED
    if pol == POL_PLANNER:
        return U_SPEED if w[PW_FREE_SPEED] > 0.5 else U_SEAT
    if strategy_of(pol, w) == STRAT_SPEED:
        return U_SPEED
    return U_SEAT


@leaf_kernel
def accept_vip(pol, rng):
    """VIP variant: greedy and heuristic take a pending VIP at once (refusing is a sure complaint);
    random takes it with probability 1/2."""
    if pol == POL_RANDOM:
        return uniform(rng, POLICY) < 0.5
    return True


@leaf_kernel
def free_route_choice(st, spec, p, pol, rng):
    """RB setup 8 (2 players): the route colour plane p takes free. random: up to 20 random
    colours until one is available (-1 if none); else the colour saving the most distance
    for its route mask (spec P_RBEST, -1 when none helps)."""
    if pol == POL_RANDOM:
        for _ in range(20):
            cc = 1 + randint(rng, POLICY, 5)
            if route_available(st, spec, p, cc):
                return cc
        return -1
    return spec[P_RBEST + st[pb(p) + SE_MASK]]


@leaf_kernel
def stop_buying(pol, rng):
    """random: stop planning more upgrades with probability 0.3 after each affordable one."""
    return pol == POL_RANDOM and uniform(rng, POLICY) < 0.3
