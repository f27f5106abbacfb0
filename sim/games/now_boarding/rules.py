"""Now Boarding rules as ``@kernel`` functions over the flat state (see layout.py).

One implementation of each rule: the batch kernel, the trace, ``check_playout`` and the
``GameState`` scenario API all call these functions. Rulebook sections (RB = the rulebook
``001_6294676ccc783d0b.txt``, Spanish) are named in each docstring; decisions on ambiguities
are in RULES.md. No policy code here: where the team chooses (free upgrade, route colour,
boarding, flying, buying, taking a VIP) the choice comes from ``policies.py`` via ``play.py``.

Conventions: ``st`` int32[STATE_SIZE], ``spec`` int64[SPEC_SIZE], ``ev`` int32[E, EV_W] event
buffer with ``evn`` int64[1] rows written (E = 0 records nothing; rows are
``[round, plane or -1, E_*, a, b, c, d, e]``), ``rng`` uint64[2] streams (sim.rng), airports
0..8, planes 0..n-1, cards 0..71. Move points: one per space entered (airport spaces
included); a storm space costs 2, a tailwind space 0 (RB "Mueve tu avión").
"""

from __future__ import annotations

import numpy as np

from sim.games.engine import alloc_kernel, emit, inline_kernel, kernel, leaf_kernel, shuffle_or_rig
from sim.games.now_boarding.layout import (
    ACTIVE,
    BIG,
    C_ANGER,
    C_DOWN,
    C_PICK,
    C_PLACE,
    C_VIPK,
    C_WHERE,
    CAUSE_ANGER,
    CAUSE_LEFT,
    CAUSE_VIP,
    DIST,
    E_ANGER,
    E_BUY,
    E_COMPLAINT,
    E_DELIVER,
    E_DRAW,
    E_DROP,
    E_END,
    E_FINAL,
    E_LEFT,
    E_MOVE,
    E_ORDER,
    E_PAY,
    E_PICK,
    E_ROUND,
    E_STAGE,
    E_STALL,
    E_TEMP,
    E_VIP,
    E_WEATHER,
    INF,
    MAXP,
    MAXTOK,
    NA,
    NCARD,
    NEXT,
    NFARE,
    NRT,
    NVIP,
    P_AIRIN,
    P_ANGER_LIMIT,
    P_BETWEEN,
    P_BUDGET,
    P_CDEST,
    P_CFARE,
    P_CIN,
    P_COMPLAINT_LIMIT,
    P_CORIG,
    P_DRAW,
    P_DROPBAN,
    P_FREE_UPG,
    P_GRUMPY,
    P_LEFTOVER,
    P_MAX_SEATS,
    P_MAX_SPEED,
    P_NP,
    P_NR,
    P_PCOL,
    P_PHOME,
    P_PILE,
    P_RA,
    P_RB,
    P_RCOL,
    P_RESET,
    P_ROUTE_PRICE,
    P_RSP,
    P_SEATP,
    P_SPEEDP,
    P_START_SEATS,
    P_START_SPEED,
    P_SUPPLY,
    P_TSEAT_PRICE,
    P_TSPEED_PRICE,
    P_VIP,
    P_VIP_COUNT,
    P_VKIND,
    P_VSTAGES,
    P_WTOK,
    PART_DAY,
    PART_EVENING,
    PART_FINAL,
    PART_LAST,
    PB,
    PILE,
    PL_BOX,
    PL_COMPLAINT,
    PL_DISCARD,
    PL_LEFTOVER,
    PL_MONEY,
    PL_PILE,
    PL_PLANE,
    PL_WAIT,
    PLANES,
    R_LEN,
    ROUTE_TILES_PER_COLOUR,
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
    S_PILE_END,
    S_PILE_POS,
    S_ROUND,
    S_RSTAGE,
    S_SPENT,
    S_STAGE,
    S_STALLED,
    S_SUP_ROUTE,
    S_SUP_SEAT,
    S_SUP_SPEED,
    S_TSEAT,
    S_TSPEED,
    S_WASTED,
    S_WIN,
    SCR_BABY,
    SCR_BUY,
    SCR_REACH,
    SCR_REACH_SIZE,
    SE_ACTLEFT,
    SE_AIR,
    SE_CELEB,
    SE_DELIV,
    SE_FARES,
    SE_LOAD,
    SE_MASK,
    SE_MONEY,
    SE_NCARR,
    SE_NERV,
    SE_NUPG,
    SE_OFF,
    SE_ROUTE,
    SE_SEATS,
    SE_SPEED,
    SE_SPLEFT,
    SE_TCARD,
    SEAT_TILES,
    SPEED_TILES,
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
    V_ACTIVE,
    V_ANGER,
    V_CAPACITY,
    V_CARD_PLACE,
    V_COMPLAINTS,
    V_MONEY,
    V_OK,
    V_POSITION,
    V_TOKENS,
    V_UPGRADES,
    VIP_BABY,
    VIP_CELEBRITY,
    VIP_DIRECT,
    VIP_FIRST,
    VIP_FUGITIVE,
    VIP_GRUMPY,
    VIP_IMPATIENT,
    VIP_NERVOUS,
    VP_KIND,
    VP_STAGE,
    VP_STATE,
    VS_ATTACHED,
    VS_PENDING,
    VS_REFUSED,
    WP_ROUTE,
    WP_SPACE,
    WX_SPACE,
    WX_TYPE,
)
from sim.rng import CHANCE, randint, shuffle


@inline_kernel
def pb(p):
    """Offset of plane p's block in the state."""
    return PLANES + PB * p


# ------------------------------------------------------------------ cards and the ACTIVE list

@leaf_kernel
def active_add(st, c):
    st[ACTIVE + st[S_NACTIVE]] = c
    st[S_NACTIVE] += 1


@leaf_kernel
def active_remove(st, c):
    n = st[S_NACTIVE]
    for i in range(n):
        if st[ACTIVE + i] == c:
            st[ACTIVE + i] = st[ACTIVE + n - 1]
            st[S_NACTIVE] = n - 1
            return


@leaf_kernel
def seats_needed(st, c):
    """Seats a passenger takes: 2 for the Captured Fugitive VIP, else 1."""
    return 2 if st[C_VIPK + c] == VIP_FUGITIVE else 1


# ------------------------------------------------------------------ board, weather, distances

@leaf_kernel
def base_len(spec, r):
    """Move points of route r from airport to airport without weather: spaces + 1."""
    return spec[P_RSP + r] + 1


@leaf_kernel
def off_to_phys(t, ws, o):
    """Route offset (move points from a, current weather type t on space ws) -> physical space 1..k
    (a plane on the second half of a storm space is on the storm space itself)."""
    if t == 1:
        if o <= ws:
            return o
        return o - 1
    if t == 2:
        if o < ws:
            return o
        return o + 1
    return o


@leaf_kernel
def phys_to_off(t, ws, i):
    """Physical space i -> offset under weather (t, ws). A plane on a new tailwind space is moved
    back one space toward airport a (offset 0 = the airport); RULES.md "Weather"."""
    if t == 1:
        if i <= ws:
            return i
        return i + 1
    if t == 2:
        if i < ws:
            return i
        return i - 1
    return i


@leaf_kernel
def compute_dist(st, spec, p):
    """All-pairs move points for plane p (its route colours, current weather), Floyd-Warshall.

    Fills DIST/NEXT for mode 0 (every route it may use) and, in the VIP variant, mode 1 (avoiding
    routes with a weather token: a plane carrying the Nervous VIP). INF when unreachable.
    """
    mask = st[pb(p) + SE_MASK]
    nr = spec[P_NR]
    for m in range(2 if spec[P_VIP] == 1 else 1):  # mode 1 only matters with the Nervous VIP
        D = DIST + (p * 2 + m) * NA * NA
        X = NEXT + (p * 2 + m) * NA * NA
        for i in range(NA):
            for j in range(NA):
                st[D + i * NA + j] = 0 if i == j else INF
                st[X + i * NA + j] = j if i == j else -1
        for r in range(nr):
            if (mask >> spec[P_RCOL + r]) & 1 == 0:
                continue
            if m == 1 and st[WX_TYPE + r] != 0:
                continue
            a = spec[P_RA + r]
            b = spec[P_RB + r]
            L = st[R_LEN + r]
            if L < st[D + a * NA + b]:
                st[D + a * NA + b] = L
                st[D + b * NA + a] = L
                st[X + a * NA + b] = b
                st[X + b * NA + a] = a
        for k in range(NA):
            for i in range(NA):
                dik = st[D + i * NA + k]
                if dik >= INF:
                    continue
                for j in range(NA):
                    v = dik + st[D + k * NA + j]
                    if v < st[D + i * NA + j]:
                        st[D + i * NA + j] = v
                        st[X + i * NA + j] = st[X + i * NA + k]


@leaf_kernel
def weather_len(spec, r, t):
    """Move points of route r from airport to airport under weather type t (RB: a storm space
    counts 2, a tailwind space 0): spaces + 1, +1 storm, -1 tailwind."""
    return base_len(spec, r) + (1 if t == 1 else (-1 if t == 2 else 0))


@leaf_kernel
def update_routes(st, spec):
    """Route lengths R_LEN from the weather on the board (WX_TYPE), then every plane's
    distance tables (after any weather change)."""
    for r in range(spec[P_NR]):
        st[R_LEN + r] = weather_len(spec, r, st[WX_TYPE + r])
    for p in range(spec[P_NP]):
        compute_dist(st, spec, p)


@kernel
def apply_weather(st, spec, s, ev, evn):
    """RB "Pasando a la siguiente etapa" / setup 15: remove every weather token, place the tokens
    of stage s's weather plan (alternating storm, tailwind), keep planes on their physical
    space, recompute every plane's distances."""
    n = spec[P_NP]
    nr = spec[P_NR]
    phys = np.zeros(MAXP, np.int64)
    for p in range(n):
        b = pb(p)
        if st[b + SE_AIR] < 0:
            r = st[b + SE_ROUTE]
            phys[p] = off_to_phys(st[WX_TYPE + r], st[WX_SPACE + r], st[b + SE_OFF])
    for r in range(nr):
        st[WX_TYPE + r] = 0
        st[WX_SPACE + r] = 0
    for j in range(MAXTOK):
        r = st[WP_ROUTE + s * MAXTOK + j]
        if r < 0:
            continue
        t = 1 if j % 2 == 0 else 2
        st[WX_TYPE + r] = t
        st[WX_SPACE + r] = st[WP_SPACE + s * MAXTOK + j]
        emit(ev, evn, st[S_ROUND], -1, E_WEATHER, s, r, t, st[WX_SPACE + r], 0)
    for p in range(n):
        b = pb(p)
        if st[b + SE_AIR] < 0:
            r = st[b + SE_ROUTE]
            o = phys_to_off(st[WX_TYPE + r], st[WX_SPACE + r], phys[p])
            if o <= 0:
                st[b + SE_AIR] = spec[P_RA + r]
                st[b + SE_ROUTE] = -1
                st[b + SE_OFF] = 0
            else:
                st[b + SE_OFF] = o
    update_routes(st, spec)


@leaf_kernel
def dist_mode(st, p):
    """0, or 1 when plane p carries the Nervous VIP (no route with a weather token)."""
    return 1 if st[pb(p) + SE_NERV] > 0 else 0


@leaf_kernel
def airport_dist(st, p, u, v):
    """Move points from airport u to airport v for plane p (its current mode)."""
    return st[DIST + (p * 2 + dist_mode(st, p)) * NA * NA + u * NA + v]


@leaf_kernel
def _via_ends(st, spec, r, o, D, t):
    """Move points from offset ``o`` on route ``r`` to airport ``t`` via the route's end A
    (back over ``o`` spaces) and via its end B (on over ``L - o``); D: the distance table."""
    L = st[R_LEN + r]
    da = o + st[D + spec[P_RA + r] * NA + t]
    db = L - o + st[D + spec[P_RB + r] * NA + t]
    return da, db


@leaf_kernel
def plane_dist(st, spec, p, t):
    """Move points from plane p's position (airport or route offset) to airport t."""
    b = pb(p)
    D = DIST + (p * 2 + dist_mode(st, p)) * NA * NA
    a0 = st[b + SE_AIR]
    if a0 >= 0:
        return st[D + a0 * NA + t]
    da, db = _via_ends(st, spec, st[b + SE_ROUTE], st[b + SE_OFF], D, t)
    return da if da <= db else db


@leaf_kernel
def pos_code(st, p):
    """Position code for events: the airport id, or 1000 + route*32 + offset."""
    b = pb(p)
    if st[b + SE_AIR] >= 0:
        return st[b + SE_AIR]
    return 1000 + st[b + SE_ROUTE] * 32 + st[b + SE_OFF]


@leaf_kernel
def hop_plan(st, spec, p, t):
    """RB "Mueve tu avión": the next hop of plane p toward airport t along its shortest path, up
    to the next airport or as far as its move points (and action budget) allow; it may stop on
    any route space. The temporary speed token adds the 1 space that reaches the next airport.
    Returns (points, token, route, offset, direction, need, end airport); points 0 = no move
    (at t, t unreachable, or no move points)."""
    b = pb(p)
    m = dist_mode(st, p)
    D = DIST + (p * 2 + m) * NA * NA
    X = NEXT + (p * 2 + m) * NA * NA
    allow = st[b + SE_SPLEFT]
    acts = st[b + SE_ACTLEFT]
    if acts < allow:
        allow = acts
    u = st[b + SE_AIR]
    if u >= 0:
        if u == t or st[D + u * NA + t] >= INF:
            return 0, 0, -1, 0, 0, 0, -1
        v = st[X + u * NA + t]
        r = spec[P_BETWEEN + u * NA + v]
        L = st[R_LEN + r]
        if spec[P_RA + r] == u:
            o = 0
            dirn = 1
        else:
            o = L
            dirn = -1
        end = v
        need = L
    else:
        r = st[b + SE_ROUTE]
        o = st[b + SE_OFF]
        L = st[R_LEN + r]
        da, db = _via_ends(st, spec, r, o, D, t)
        if da >= INF and db >= INF:
            return 0, 0, -1, 0, 0, 0, -1
        if da <= db:
            dirn = -1
            need = o
            end = spec[P_RA + r]
        else:
            dirn = 1
            need = L - o
            end = spec[P_RB + r]
    step = allow if allow < need else need
    extra = 0
    if step < need and need - step == 1 and st[S_TSPEED] == p and acts > step:
        extra = 1
    step += extra
    if step <= 0:
        return 0, 0, -1, 0, 0, 0, -1
    return step, extra, r, o, dirn, need, end


@leaf_kernel
def fly_hop(st, spec, p, t, ev, evn):
    """RB "Mueve tu avión": fly plane p one hop toward airport t (see ``hop_plan``), using the
    temporary speed token when the plan needs it. Returns the move points spent (0 = no move)."""
    step, extra, r, o, dirn, need, end = hop_plan(st, spec, p, t)
    if step <= 0:
        return 0
    b = pb(p)
    if extra == 1:
        st[S_TSPEED] = -1
        emit(ev, evn, st[S_ROUND], p, E_TEMP, p, U_TSPEED, 0, 0, 0)
    frm = pos_code(st, p)
    st[b + SE_SPLEFT] -= step - extra
    st[b + SE_ACTLEFT] -= step
    if step == need:
        st[b + SE_AIR] = end
        st[b + SE_ROUTE] = -1
        st[b + SE_OFF] = 0
    else:
        st[b + SE_AIR] = -1
        st[b + SE_ROUTE] = r
        st[b + SE_OFF] = o + dirn * step
    emit(ev, evn, st[S_ROUND], p, E_MOVE, p, frm, pos_code(st, p), step, extra)
    return step


# ------------------------------------------------------------------ pickups and drop-offs

@leaf_kernel
def can_pickup(st, spec, p, c):
    """RB "Recoger pasajeros": 0 = illegal; 1 = legal; 2 = legal only with the temporary seat token.

    Plane p must be at the card's airport with an action left; seats: load + need <= seats (the
    token allows one passenger above the limit); VIPs: Celebrity flies alone, First in Line
    boards before anyone else at its airport, Captured Fugitive needs 2 seats."""
    b = pb(p)
    a = st[b + SE_AIR]
    if a < 0 or st[C_PLACE + c] != PL_WAIT or st[C_WHERE + c] != a or st[b + SE_ACTLEFT] <= 0:
        return 0
    vip = st[C_VIPK + c]
    if st[b + SE_CELEB] > 0:
        return 0
    if vip == VIP_CELEBRITY and st[b + SE_NCARR] > 0:
        return 0
    if vip != VIP_FIRST and spec[P_VIP] == 1:
        for i in range(st[S_NACTIVE]):
            x = st[ACTIVE + i]
            if x != c and st[C_VIPK + x] == VIP_FIRST and st[C_PLACE + x] == PL_WAIT and st[C_WHERE + x] == a:
                return 0
    need = seats_needed(st, c)
    if st[b + SE_LOAD] + need <= st[b + SE_SEATS]:
        return 1
    if st[S_TSEAT] == p and st[b + SE_LOAD] + need <= st[b + SE_SEATS] + 1:
        return 2
    return 0


@leaf_kernel
def do_pickup(st, spec, p, c, ev, evn):
    """Board card c on plane p (caller checked ``can_pickup``). RB: its anger cubes go back to the
    supply (not for the Impatient VIP; not in 'setdown' reset mode; the Grumpy VIP keeps
    ``grumpy_reset``, 0 by default). Returns can_pickup's code."""
    k = can_pickup(st, spec, p, c)
    if k == 0:
        return 0
    b = pb(p)
    a = st[b + SE_AIR]
    if k == 2:
        st[S_TSEAT] = -1
        emit(ev, evn, st[S_ROUND], p, E_TEMP, p, U_TSEAT, 0, 0, 0)
    st[C_PLACE + c] = PL_PLANE
    st[C_WHERE + c] = p
    st[C_PICK + c] = a
    st[b + SE_LOAD] += seats_needed(st, c)
    st[b + SE_NCARR] += 1
    st[b + SE_ACTLEFT] -= 1
    vip = st[C_VIPK + c]
    if vip == VIP_NERVOUS:
        st[b + SE_NERV] += 1
    if vip == VIP_CELEBRITY:
        st[b + SE_CELEB] += 1
    anger = st[C_ANGER + c]
    if spec[P_RESET] == 0 and vip != VIP_IMPATIENT:
        st[C_ANGER + c] = spec[P_GRUMPY] if vip == VIP_GRUMPY else 0
    for q in range(spec[P_NP]):
        if st[pb(q) + SE_TCARD] == c:
            st[pb(q) + SE_TCARD] = -1
    emit(ev, evn, st[S_ROUND], p, E_PICK, p, c, a, anger, k)
    return k


@leaf_kernel
def can_drop(st, spec, p, c):
    """RB "Dejar pasajeros": plane p at an airport, card aboard p, not at the airport it was just
    picked up from, an action left; the Direct Flight VIP leaves only at its destination."""
    b = pb(p)
    a = st[b + SE_AIR]
    if a < 0 or st[C_PLACE + c] != PL_PLANE or st[C_WHERE + c] != p or st[b + SE_ACTLEFT] <= 0:
        return False
    if st[C_PICK + c] == a:
        return False
    if st[C_VIPK + c] == VIP_DIRECT and spec[P_CDEST + c] != a:
        return False
    return True


@leaf_kernel
def do_drop(st, spec, p, c, ev, evn):
    """Set card c down from plane p at its airport. At the destination: delivered, the card goes to
    p's money pile (fare earned by p alone). Elsewhere: it waits there face up (hand-off).
    Returns 0 illegal, 1 hand-off, 2 delivered."""
    if not can_drop(st, spec, p, c):
        return 0
    b = pb(p)
    a = st[b + SE_AIR]
    st[b + SE_LOAD] -= seats_needed(st, c)
    st[b + SE_NCARR] -= 1
    st[b + SE_ACTLEFT] -= 1
    vip = st[C_VIPK + c]
    if vip == VIP_NERVOUS:
        st[b + SE_NERV] -= 1
    if vip == VIP_CELEBRITY:
        st[b + SE_CELEB] -= 1
    st[C_PICK + c] = -1
    if spec[P_CDEST + c] == a:
        f = spec[P_CFARE + c]
        st[C_PLACE + c] = PL_MONEY
        st[C_WHERE + c] = p
        st[C_ANGER + c] = 0
        st[b + SE_MONEY + f] += 1
        st[b + SE_FARES] += f
        st[b + SE_DELIV] += 1
        st[S_FARES] += f
        st[S_DELIV] += 1
        active_remove(st, c)
        emit(ev, evn, st[S_ROUND], p, E_DELIVER, p, c, a, f, 0)
        return 2
    st[C_PLACE + c] = PL_WAIT
    st[C_WHERE + c] = a
    if spec[P_RESET] == 1 and vip != VIP_IMPATIENT:
        st[C_ANGER + c] = spec[P_GRUMPY] if vip == VIP_GRUMPY else 0
    emit(ev, evn, st[S_ROUND], p, E_DROP, p, c, a, 0, 0)
    return 1


# ------------------------------------------------------------------ maintenance

@leaf_kernel
def add_complaint(st, spec, cause, c, ev, evn):
    """One card onto the complaint pile (cause CAUSE_*; c = passenger card or VIP index or -1).
    Returns True when the pile reaches the limit (RB "Fuera del negocio": all lose at once)."""
    st[S_COMPL] += 1
    if cause == CAUSE_ANGER:
        st[S_C_ANGER] += 1
        st[ST_CAIR + spec[P_CORIG + c]] += 1
    elif cause == CAUSE_LEFT:
        st[S_C_LEFT] += 1
    else:
        st[S_C_VIP] += 1
    emit(ev, evn, st[S_ROUND], -1, E_COMPLAINT, cause, c, st[S_COMPL], 0, 0)
    return st[S_COMPL] >= spec[P_COMPLAINT_LIMIT]


@leaf_kernel
def lose(st):
    """Record a loss now (stage and round) and end the game."""
    st[S_OVER] = 1
    st[S_LOST_EARLY] = 1
    st[S_LOSS_STAGE] = st[S_STAGE]
    st[S_LOSS_ROUND] = st[S_ROUND]


@leaf_kernel
def anger_phase(st, spec, ev, evn):
    """RB "Poner enojo y presentar quejas": +1 anger on every waiting passenger (+2 at an airport
    where a Crying Baby VIP waits, for the others); the card reaching the limit (4th cube)
    leaves to the complaint pile. Returns True when the game is lost."""
    for a in range(NA):
        st[SCR_BABY + a] = 0
    n = st[S_NACTIVE]
    for i in range(n):
        c = st[ACTIVE + i]
        if st[C_PLACE + c] == PL_WAIT and st[C_VIPK + c] == VIP_BABY:
            st[SCR_BABY + st[C_WHERE + c]] = 1
    limit = spec[P_ANGER_LIMIT]
    for i in range(n - 1, -1, -1):
        c = st[ACTIVE + i]
        if st[C_PLACE + c] != PL_WAIT:
            continue
        inc = 1
        if st[SCR_BABY + st[C_WHERE + c]] == 1 and st[C_VIPK + c] != VIP_BABY:
            inc = 2
        st[C_ANGER + c] += inc
        emit(ev, evn, st[S_ROUND], -1, E_ANGER, c, st[C_WHERE + c], st[C_ANGER + c], 0, 0)
        if st[C_ANGER + c] >= limit:
            st[C_PLACE + c] = PL_COMPLAINT
            st[C_WHERE + c] = -1
            st[C_ANGER + c] = 0
            active_remove(st, c)
            if add_complaint(st, spec, CAUSE_ANGER, c, ev, evn):
                lose(st)
                return True
    return False


@leaf_kernel
def pile_left(st, s):
    """Cards left in stage s's pile (RB "Fase de mantenimiento": pile sizes are public)."""
    return st[S_PILE_END + s] - st[S_PILE_POS + s]


@leaf_kernel
def part_of_game(st):
    """The part of the game a round is in, as every player knows it (RB "Preparar la próxima
    ronda": a stage's pile is drawn until it is empty; "Salir de la aeronave": the final round
    after the evening's last draw): PART_DAY (morning and afternoon), PART_EVENING (evening
    before its pile's last draw), PART_LAST (from the maintenance that draws the evening pile's
    last cards: the round after it) or PART_FINAL (the final round, stage 3)."""
    if st[S_STAGE] >= 3:
        return PART_FINAL
    if st[S_STAGE] == 2:
        return PART_LAST if pile_left(st, 2) <= 0 else PART_EVENING
    return PART_DAY


@leaf_kernel
def after_last_draw(st):
    """True from the maintenance that draws the evening pile's last cards to the end (the round
    after it and the final round follow; ``part_of_game`` PART_LAST or PART_FINAL)."""
    return part_of_game(st) >= PART_LAST


@leaf_kernel
def draw_passengers(st, spec, s, vip_idx, ev, evn):
    """RB setup 12 / "Prepara la próxima ronda": draw the stage's 'draw per round' cards from pile s
    onto their origin airports (anger 0), face down (C_DOWN: the back shows the origin, the
    destination is seen when ``start_flight`` turns them over). ``vip_idx`` >= 0 attaches that VIP
    card to the first card drawn (Grumpy starts with 1 anger). Returns the number drawn."""
    k = spec[P_DRAW + s]
    drawn = 0
    for _ in range(k):
        if pile_left(st, s) <= 0:
            break
        c = st[PILE + st[S_PILE_POS + s]]
        st[S_PILE_POS + s] += 1
        st[C_PLACE + c] = PL_WAIT
        st[C_WHERE + c] = spec[P_CORIG + c]
        st[C_ANGER + c] = 0
        st[C_PICK + c] = -1
        st[C_DOWN + c] = 1
        active_add(st, c)
        emit(ev, evn, st[S_ROUND], -1, E_DRAW, c, spec[P_CORIG + c], spec[P_CDEST + c], spec[P_CFARE + c], s)
        if drawn == 0 and vip_idx >= 0:
            kind = st[VP_KIND + vip_idx]
            st[C_VIPK + c] = kind
            st[VP_STATE + vip_idx] = VS_ATTACHED
            if kind == VIP_GRUMPY:
                st[C_ANGER + c] = 1
            emit(ev, evn, st[S_ROUND], -1, E_VIP, c, kind, vip_idx, 0, 0)
        drawn += 1
    return drawn


@leaf_kernel
def next_pending_vip(st, s):
    """Index of the first VIP card pending for stage s, or -1."""
    for i in range(NVIP):
        if st[VP_STAGE + i] == s and st[VP_STATE + i] == VS_PENDING:
            return i
    return -1


@leaf_kernel
def refuse_stage_vips(st, spec, s, ev, evn):
    """VIP variant: every VIP of stage s not taken by the end of the stage is 1 complaint.
    Returns True when the game is lost."""
    for i in range(NVIP):
        if st[VP_STAGE + i] == s and st[VP_STATE + i] == VS_PENDING:
            st[VP_STATE + i] = VS_REFUSED
            if add_complaint(st, spec, CAUSE_VIP, i, ev, evn):
                lose(st)
                return True
    return False


@leaf_kernel
def end_count(st, spec, ev, evn):
    """RB "Salir de la aeronave": every passenger still waiting or aboard is taken; 1 complaint per
    2 of them (rounded down). Fewer complaints than the limit wins ("Volando alto")."""
    left = 0
    n = st[S_NACTIVE]
    for i in range(n):
        c = st[ACTIVE + i]
        if st[C_PLACE + c] == PL_PLANE:
            b = pb(st[C_WHERE + c])
            st[b + SE_LOAD] -= seats_needed(st, c)
            st[b + SE_NCARR] -= 1
            if st[C_VIPK + c] == VIP_NERVOUS:
                st[b + SE_NERV] -= 1
            if st[C_VIPK + c] == VIP_CELEBRITY:
                st[b + SE_CELEB] -= 1
        st[C_PLACE + c] = PL_LEFTOVER
        st[C_WHERE + c] = -1
        st[C_ANGER + c] = 0
        left += 1
    st[S_NACTIVE] = 0
    st[S_LEFT] = left
    emit(ev, evn, st[S_ROUND], -1, E_LEFT, left, 0, 0, 0, 0)
    extra = left // spec[P_LEFTOVER]
    lost = False
    for _ in range(extra):
        if add_complaint(st, spec, CAUSE_LEFT, -1, ev, evn):
            lost = True
    st[S_OVER] = 1
    if lost:
        st[S_LOSS_STAGE] = st[S_STAGE]
        st[S_LOSS_ROUND] = st[S_ROUND]
    return lost


# ------------------------------------------------------------------ upgrades and money

@leaf_kernel
def money(st, p):
    """Total $ in plane p's money pile."""
    b = pb(p)
    t = 0
    for v in range(NFARE):
        t += v * st[b + SE_MONEY + v]
    return t


@leaf_kernel
def pay(st, spec, p, amount, ev, evn):
    """RB "Comprar actualizaciones": discard money cards of plane p worth at least ``amount`` with
    the least overpayment (no change is given). Returns the $ paid, or -1 if unaffordable."""
    b = pb(p)
    if amount <= 0:
        return 0
    total = money(st, p)
    if total < amount:
        return -1
    hi = amount + NFARE  # a minimal cover never exceeds amount + max fare - 1
    if hi > total:
        hi = total
    # reach[v, s] (scratch, row stride hi+1): sum s reachable using fare values 1..v
    W = hi + 1
    if NFARE * W > SCR_REACH_SIZE:
        return -1
    R = SCR_REACH
    for i in range(NFARE * W):
        st[R + i] = 0
    st[R] = 1
    for v in range(1, NFARE):
        cnt = st[b + SE_MONEY + v]
        for s in range(W):
            if st[R + (v - 1) * W + s] == 0:
                continue
            for k in range(cnt + 1):
                t = s + k * v
                if t > hi:
                    break
                st[R + v * W + t] = 1
    best = -1
    for s in range(amount, hi + 1):
        if st[R + (NFARE - 1) * W + s] == 1:
            best = s
            break
    if best < 0:
        return -1
    # reconstruct: how many cards of each value
    s = best
    for v in range(NFARE - 1, 0, -1):
        cnt = st[b + SE_MONEY + v]
        for k in range(cnt + 1):
            t = s - k * v
            if t < 0:
                break
            if st[R + (v - 1) * W + t] == 1:
                # discard k cards of fare v (lowest card ids first)
                left = k
                for c in range(NCARD):
                    if left == 0:
                        break
                    if st[C_PLACE + c] == PL_MONEY and st[C_WHERE + c] == p and spec[P_CFARE + c] == v:
                        st[C_PLACE + c] = PL_DISCARD
                        st[C_WHERE + c] = -1
                        left -= 1
                st[b + SE_MONEY + v] -= k
                s = t
                break
    st[S_SPENT] += best
    st[S_WASTED] += best - amount
    emit(ev, evn, st[S_ROUND], p, E_PAY, p, best, amount, 0, 0)
    return best


@leaf_kernel
def upgrade_price(st, spec, p, kind, seats, speed):
    """Price of the next upgrade of ``kind`` for a plane with ``seats``/``speed`` (RB: the price
    rises with the count already reached); -1 when not available (cap, supply, token taken)."""
    if kind == U_SEAT:
        if seats >= spec[P_MAX_SEATS]:
            return -1
        if spec[P_SUPPLY] == 1 and st[S_SUP_SEAT] <= 0:
            return -1
        return spec[P_SEATP + seats + 1]
    if kind == U_SPEED:
        if speed >= spec[P_MAX_SPEED]:
            return -1
        if spec[P_SUPPLY] == 1 and st[S_SUP_SPEED] <= 0:
            return -1
        return spec[P_SPEEDP + speed + 1]
    if kind == U_ROUTE:
        return spec[P_ROUTE_PRICE]
    if kind == U_TSEAT:
        return spec[P_TSEAT_PRICE] if st[S_TSEAT] < 0 else -1
    if kind == U_TSPEED:
        return spec[P_TSPEED_PRICE] if st[S_TSPEED] < 0 else -1
    return -1


@leaf_kernel
def route_available(st, spec, p, colour):
    """Colour 1..5 not held by plane p (and a tile left when supply limits are on)."""
    if colour < 1 or colour > 5:
        return False
    if (st[pb(p) + SE_MASK] >> colour) & 1:
        return False
    if spec[P_SUPPLY] == 1 and st[S_SUP_ROUTE + colour] <= 0:
        return False
    return True


@leaf_kernel
def grant_upgrade(st, spec, p, kind, colour, ev, evn, price):
    """Give plane p one upgrade (already paid, or free at setup when price = 0): seat, speed,
    route colour, or a temporary token. Counts it in the statistics when bought (price >= 0
    and round >= 1)."""
    b = pb(p)
    if kind == U_SEAT:
        st[b + SE_SEATS] += 1
        st[S_SUP_SEAT] -= 1
    elif kind == U_SPEED:
        st[b + SE_SPEED] += 1
        st[S_SUP_SPEED] -= 1
    elif kind == U_ROUTE:
        st[b + SE_MASK] |= 1 << colour
        st[S_SUP_ROUTE + colour] -= 1
        compute_dist(st, spec, p)
    elif kind == U_TSEAT:
        st[S_TSEAT] = p
    elif kind == U_TSPEED:
        st[S_TSPEED] = p
    r = st[S_ROUND]
    if r >= 1:
        st[ST_UPG + kind] += 1
        if kind <= U_ROUTE:
            rs = st[S_RSTAGE] if st[S_RSTAGE] < 3 else 2
            st[ST_UPGKS + kind * 3 + rs] += 1
        st[b + SE_NUPG] += 1
        idx = r - 1 if r - 1 < NRT else NRT - 1
        st[ST_UPGR + idx] += 1
    emit(ev, evn, st[S_ROUND], p, E_BUY, p, kind, colour, price, 0)


@leaf_kernel
def plane_init(st, spec, p, home, colour, seats, speed):
    """A starting plane (RB setup 6-7): seats, speed, white + its colour, at its home airport."""
    b = pb(p)
    st[b + SE_SEATS] = seats
    st[b + SE_SPEED] = speed
    st[b + SE_MASK] = 1 | (1 << colour)
    st[b + SE_AIR] = home
    st[b + SE_ROUTE] = -1
    st[b + SE_OFF] = 0
    st[b + SE_TCARD] = -1


# ------------------------------------------------------------------ setup (RB "Preparar")

@leaf_kernel
def setup_board(st, spec):
    """RB "Preparar" steps 1-7: an empty state, the tile supply, every plane at its home
    airport with the starting seats and speed, white + its own colour."""
    st[:] = 0
    n = spec[P_NP]
    st[S_TSEAT] = -1
    st[S_TSPEED] = -1
    st[S_LOSS_STAGE] = -1
    # RB components: 18 seat / 15 speed tiles, less each plane's starting seat and wing; the
    # free set-up upgrades (step 8) take theirs in grant_upgrade; 10 route tiles = 2 per colour
    st[S_SUP_SEAT] = SEAT_TILES - n
    st[S_SUP_SPEED] = SPEED_TILES - n
    for c in range(1, 6):
        st[S_SUP_ROUTE + c] = ROUTE_TILES_PER_COLOUR
    for c in range(NCARD):
        st[C_PICK + c] = -1
        st[C_WHERE + c] = -1
    for p in range(n):
        plane_init(st, spec, p, spec[P_PHOME + p], spec[P_PCOL + p], spec[P_START_SEATS], spec[P_START_SPEED])


@leaf_kernel
def forced_free_upgrade(spec):
    """RB setup 8: the free permanent upgrade fixed by the config (U_SEAT / U_SPEED), or -1
    when the team chooses (``free_upgrade = "policy"``)."""
    mode = spec[P_FREE_UPG]
    return U_SEAT if mode == 1 else (U_SPEED if mode == 2 else -1)


@leaf_kernel
def free_upgrade(st, spec, p, kind, ev, evn):
    """RB setup 8: plane p takes the free permanent seat or speed ``kind``; a seat at its cap
    becomes speed, a speed at its cap nothing."""
    b = pb(p)
    k = kind
    if k == U_SEAT and st[b + SE_SEATS] >= spec[P_MAX_SEATS]:
        k = U_SPEED
    if k == U_SPEED and st[b + SE_SPEED] >= spec[P_MAX_SPEED]:
        k = -1
    if k >= 0:
        grant_upgrade(st, spec, p, k, 0, ev, evn, 0)


@leaf_kernel
def free_route(st, spec, p, colour, ev, evn):
    """RB setup 8 (2 players): plane p takes route colour ``colour`` free when it may
    (a colour 1..5 it lacks, a tile left); -1 or an unavailable colour: nothing."""
    if colour >= 1 and route_available(st, spec, p, colour):
        grant_upgrade(st, spec, p, U_ROUTE, colour, ev, evn, 0)


@kernel
def setup(st, spec, rng, rig_deck, rig_dice, ev, evn):
    """RB "Preparar" steps 9-15 (after ``setup_board`` and the free upgrades of step 8).
    Chance (stream CHANCE): the starting passengers (one per plane from its home airport), the
    deck shuffle into the three stage piles, the weather plan of all 3 stages, the VIP deal;
    then the morning weather and the first morning draw.

    Rigging hook: ``rig_deck`` int32[k] (card ids, k = 0: shuffle) is the draw order of the
    piles: its cards still in the deck after the starting passengers come first, in that
    order, then the rest of the deck in card-id order; the shuffle draws nothing then.
    ``rig_dice`` is unused (the game has no dice)."""
    n = spec[P_NP]
    deck = np.empty(NCARD, np.int64)
    nd = 0
    for c in range(NCARD):
        if spec[P_CIN + c] == 1:
            st[C_PLACE + c] = PL_PILE
            deck[nd] = c
            nd += 1
        else:
            st[C_PLACE + c] = PL_BOX
    for p in range(n):
        home = spec[P_PHOME + p]
        m = 0
        for i in range(nd):
            if deck[i] >= 0 and spec[P_CORIG + deck[i]] == home:
                m += 1
        if m == 0:
            continue
        j = randint(rng, CHANCE, m)
        for i in range(nd):
            if deck[i] >= 0 and spec[P_CORIG + deck[i]] == home:
                if j == 0:
                    c = deck[i]
                    deck[i] = -1
                    st[C_PLACE + c] = PL_WAIT
                    st[C_WHERE + c] = home
                    st[C_ANGER + c] = 0
                    emit(ev, evn, st[S_ROUND], -1, E_DRAW, c, home, spec[P_CDEST + c], spec[P_CFARE + c], -1)
                    active_add(st, c)
                    break
                j -= 1
    m = 0
    for i in range(nd):
        if deck[i] >= 0:
            deck[m] = deck[i]
            m += 1
    if rig_deck.shape[0] > 0:
        order = np.empty(m, np.int32)
        k = 0
        for i in range(rig_deck.shape[0]):
            for j in range(m):
                if deck[j] == rig_deck[i]:
                    order[k] = rig_deck[i]
                    k += 1
                    break
        for j in range(m):
            found = False
            for i in range(rig_deck.shape[0]):
                if rig_deck[i] == deck[j]:
                    found = True
                    break
            if not found:
                order[k] = deck[j]
                k += 1
        shuffle_or_rig(deck, 0, m, rng, CHANCE, order)
    else:
        shuffle_or_rig(deck, 0, m, rng, CHANCE, rig_deck)
    pos = 0
    for s in range(3):
        st[S_PILE_POS + s] = pos
        for _ in range(spec[P_PILE + s]):
            st[PILE + pos] = deck[pos]
            pos += 1
        st[S_PILE_END + s] = pos
    for i in range(pos, m):
        st[C_PLACE + deck[i]] = PL_BOX  # out of play (4-5 players: 1 card)
    # weather plan (steps 13-14): 3 x tokens distinct routes, a random space each
    nr = spec[P_NR]
    rts = np.empty(nr, np.int64)
    for r in range(nr):
        rts[r] = r
    shuffle(rts, 0, nr, rng, CHANCE)
    ntok = spec[P_WTOK]
    for s in range(3):
        for j in range(MAXTOK):
            st[WP_ROUTE + s * MAXTOK + j] = -1
            if j < ntok:
                r = rts[s * ntok + j]
                st[WP_ROUTE + s * MAXTOK + j] = r
                st[WP_SPACE + s * MAXTOK + j] = 1 + randint(rng, CHANCE, spec[P_RSP + r])
    # VIPs
    for i in range(NVIP):
        st[VP_KIND + i] = spec[P_VKIND + i]
        st[VP_STAGE + i] = -1
    if spec[P_VIP] == 1:
        vorder = np.empty(NVIP, np.int64)
        for i in range(NVIP):
            vorder[i] = i
        shuffle(vorder, 0, NVIP, rng, CHANCE)
        cap = np.zeros(3, np.int64)
        for s in range(3):
            d = spec[P_DRAW + s]
            cap[s] = (spec[P_PILE + s] + d - 1) // d
        cap[0] -= 1  # the setup draw takes no VIP
        kinds = np.empty(NVIP, np.int64)
        stages = np.empty(NVIP, np.int64)
        for i in range(NVIP):
            kinds[i] = spec[P_VKIND + vorder[i]]
            stages[i] = spec[P_VSTAGES + vorder[i]]
        for i in range(NVIP):
            st[VP_KIND + i] = kinds[i]
            if i >= spec[P_VIP_COUNT]:
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
                        st[VP_STAGE + i] = s
                        st[VP_STATE + i] = VS_PENDING
                        cap[s] -= 1
                        break
                    j -= 1
    # step 15: morning weather (computes every plane's distances); step 12: the first morning draw
    apply_weather(st, spec, 0, ev, evn)
    draw_passengers(st, spec, 0, -1, ev, evn)


# ------------------------------------------------------------------ rounds (RB "Despegue y aterrizaje")

@leaf_kernel
def start_flight(st, spec):
    """RB "Fase de vuelo" start: the passenger cards drawn face down are turned over (step 2:
    "Voltee todas las tarjetas de pasajeros boca abajo"), every plane gets its speed in move
    points and the action budget (unlimited without the timer option); no plane is heading for
    a card yet. With ``drop_ban = "phase"`` the drop-off ban of RB "Dejar pasajeros" ("del que lo
    acaba de recoger") ends with the flight phase of the pickup: the cards aboard forget the
    airport they were picked up from."""
    for i in range(st[S_NACTIVE]):
        st[C_DOWN + st[ACTIVE + i]] = 0
    if spec[P_DROPBAN] == 1:
        for i in range(st[S_NACTIVE]):
            c = st[ACTIVE + i]
            if st[C_PLACE + c] == PL_PLANE:
                st[C_PICK + c] = -1
    budget = spec[P_BUDGET]
    for p in range(spec[P_NP]):
        b = pb(p)
        st[b + SE_SPLEFT] = st[b + SE_SPEED]
        st[b + SE_ACTLEFT] = budget if budget > 0 else BIG
        st[b + SE_TCARD] = -1


@leaf_kernel
def begin_round(st, spec, rng, order, ev, evn):
    """A new round: count it (and its stage), draw this round's plane order (chance: planes act
    'simultaneously', resolved in a random order, RULES.md "Flight phase") into ``order``
    int64[MAXP], and start the flight phase."""
    n = spec[P_NP]
    st[S_ROUND] += 1
    st[ST_RPS + st[S_STAGE]] += 1
    st[S_RSTAGE] = st[S_STAGE]
    for i in range(n):
        order[i] = i
    shuffle(order, 0, n, rng, CHANCE)
    emit(ev, evn, st[S_ROUND], -1, E_ROUND, st[S_ROUND], st[S_STAGE], st[S_COMPL], 0, 0)
    emit(ev, evn, st[S_ROUND], -1, E_ORDER, order[0], order[1] if n > 1 else -1, order[2] if n > 2 else -1,
         order[3] if n > 3 else -1, order[4] if n > 4 else -1)
    start_flight(st, spec)


@leaf_kernel
def stall(st, ev, evn):
    """The turn cap stopped the game: a stall (neither a win nor a loss)."""
    st[S_STALLED] = 1
    st[S_OVER] = 1
    emit(ev, evn, st[S_ROUND], -1, E_STALL, st[S_ROUND], 0, 0, 0, 0)


@kernel
def upkeep(st, spec, ev, evn):
    """RB "Fase de mantenimiento" up to the draw: anger and complaints; after the final round
    the end count (RB "Salir de la aeronave"); else, when the stage's pile is empty, the
    stage's VIPs not taken are complaints and the next stage begins with its weather (after
    the evening pile: the next round is the final one, no draw, no weather change).
    Returns True when the game has ended."""
    if anger_phase(st, spec, ev, evn):
        return True
    s = st[S_STAGE]
    if s == 3:
        end_count(st, spec, ev, evn)
        return True
    if pile_left(st, s) <= 0:
        if refuse_stage_vips(st, spec, s, ev, evn):
            return True
        if s < 2:
            s += 1
            st[S_STAGE] = s
            emit(ev, evn, st[S_ROUND], -1, E_STAGE, s, st[S_ROUND], 0, 0, 0)
            apply_weather(st, spec, s, ev, evn)
        else:
            st[S_STAGE] = 3
            emit(ev, evn, st[S_ROUND], -1, E_FINAL, st[S_ROUND] + 1, 0, 0, 0, 0)
    return False


@leaf_kernel
def vip_offer(st, spec):
    """VIP variant, RB "Prepara la próxima ronda": the VIP card offered with this draw (the first
    pending VIP of the stage while its pile has cards), or -1."""
    s = st[S_STAGE]
    if s >= 3 or spec[P_VIP] != 1:
        return -1
    cand = next_pending_vip(st, s)
    if cand >= 0 and pile_left(st, s) > 0:
        return cand
    return -1


@leaf_kernel
def spend_slack(st, spec, p, slack, ev, evn):
    """RB "Comprar actualizaciones": overpayment buys the temporary seat, then the temporary
    speed token, when in the supply (no change is given)."""
    ps = spec[P_TSEAT_PRICE]
    if st[S_TSEAT] < 0 and slack >= ps and ps > 0:
        grant_upgrade(st, spec, p, U_TSEAT, 0, ev, evn, ps)
        st[S_WASTED] -= ps
        slack -= ps
    pv = spec[P_TSPEED_PRICE]
    if st[S_TSPEED] < 0 and slack >= pv and pv > 0:
        grant_upgrade(st, spec, p, U_TSPEED, 0, ev, evn, pv)
        st[S_WASTED] -= pv


@leaf_kernel
def buy_one(st, spec, p, kind, colour, price, ev, evn):
    """RB "Comprar actualizaciones", one upgrade paid on its own (``pooled_payment = false``):
    pay, take it, spend the overpayment. Returns False when unaffordable (nothing changes)."""
    paid = pay(st, spec, p, price, ev, evn)
    if paid < 0:
        return False
    grant_upgrade(st, spec, p, kind, colour, ev, evn, price)
    spend_slack(st, spec, p, paid - price, ev, evn)
    return True


@leaf_kernel
def basket_add(st, nk, kind, colour, price):
    """Put upgrade ``nk`` (0..23) of a pooled purchase in the scratch basket."""
    st[SCR_BUY + nk] = kind
    st[SCR_BUY + 24 + nk] = colour
    st[SCR_BUY + 48 + nk] = price


@leaf_kernel
def buy_basket(st, spec, p, nk, total, ev, evn):
    """RB "Comprar actualizaciones", pooled payment (BGA): one payment of ``total`` for the
    ``nk`` upgrades of the basket, then each is taken and the overpayment spent; nothing when
    unaffordable."""
    paid = pay(st, spec, p, total, ev, evn)
    if paid >= 0:
        for i in range(nk):
            grant_upgrade(st, spec, p, st[SCR_BUY + i], st[SCR_BUY + 24 + i], ev, evn, st[SCR_BUY + 48 + i])
        spend_slack(st, spec, p, paid - total, ev, evn)


@leaf_kernel
def game_end(st, ev, evn):
    """RB "Volando alto" / "Fuera del negocio": the team wins when the game ended with fewer
    complaints than the limit (no loss recorded) and did not stall; passengers still on the
    board of a lost or stalled game are counted as left over."""
    win = 1 if (st[S_STALLED] == 0 and st[S_LOSS_STAGE] < 0) else 0
    st[S_WIN] = win
    if st[S_LOST_EARLY] == 1 or st[S_STALLED] == 1:
        st[S_LEFT] = st[S_NACTIVE]
    emit(ev, evn, st[S_ROUND], -1, E_END, win, st[S_COMPL], st[S_ROUND], st[S_LOSS_STAGE], st[S_LEFT])


# ------------------------------------------------------------------ invariants

@alloc_kernel
def check_invariants(st, spec):
    """0, or the code (layout V_*) of the first violated invariant: every card in exactly one
    place and its zone's bookkeeping agrees, seats never over capacity (the temporary seat
    allows one above), money never negative and equal to the money cards, planes on legal
    spots, anger below the limit, complaint counters equal the complaint pile."""
    n = spec[P_NP]
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
        if spec[P_CIN + c] == 0 and pl != PL_BOX:
            return V_CARD_PLACE
        if pl == PL_WAIT:
            a = st[C_WHERE + c]
            if a < 0 or a >= NA or spec[P_AIRIN + a] == 0:
                return V_CARD_PLACE
            if st[C_ANGER + c] < 0 or st[C_ANGER + c] >= spec[P_ANGER_LIMIT]:
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
            mon[p, spec[P_CFARE + c]] += 1
        elif pl == PL_COMPLAINT:
            ncompl += 1
        elif pl == PL_PILE:
            npile += 1
    tot = 0
    for s in range(3):
        for i in range(st[S_PILE_POS + s], st[S_PILE_END + s]):
            if st[C_PLACE + st[PILE + i]] != PL_PILE:
                return V_CARD_PLACE
            tot += 1
    if tot != npile:
        return V_CARD_PLACE
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
        if st[b + SE_LOAD] != load[p] or st[b + SE_NCARR] != carr[p]:
            return V_CAPACITY
        if load[p] > st[b + SE_SEATS] + 1:
            return V_CAPACITY
        for v in range(NFARE):
            if st[b + SE_MONEY + v] < 0 or st[b + SE_MONEY + v] != mon[p, v]:
                return V_MONEY
        if st[b + SE_SEATS] > spec[P_MAX_SEATS] or st[b + SE_SPEED] > spec[P_MAX_SPEED]:
            return V_UPGRADES
        if st[b + SE_SPLEFT] < 0:
            return V_POSITION
        a = st[b + SE_AIR]
        if a >= 0:
            if a >= NA or spec[P_AIRIN + a] == 0:
                return V_POSITION
        else:
            r = st[b + SE_ROUTE]
            if r < 0 or r >= spec[P_NR]:
                return V_POSITION
            o = st[b + SE_OFF]
            if o <= 0 or o >= st[R_LEN + r]:
                return V_POSITION
            if (st[b + SE_MASK] >> spec[P_RCOL + r]) & 1 == 0:
                return V_POSITION
    if st[S_TSEAT] < -1 or st[S_TSEAT] >= n or st[S_TSPEED] < -1 or st[S_TSPEED] >= n:
        return V_TOKENS
    nref = 0
    for i in range(NVIP):
        if st[VP_STATE + i] == VS_REFUSED:
            nref += 1
    if st[S_C_ANGER] != ncompl or st[S_C_VIP] != nref:
        return V_COMPLAINTS
    if st[S_COMPL] != st[S_C_ANGER] + st[S_C_LEFT] + st[S_C_VIP]:
        return V_COMPLAINTS
    return V_OK
