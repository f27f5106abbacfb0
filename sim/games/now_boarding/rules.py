"""Now Boarding rules as @njit primitives over the flat state (see layout.py).

One implementation of each rule: the batch kernel, the trace, ``check_playout`` and the
``GameState`` test wrapper all call these functions. Rulebook sections (RB, Spanish) are
named in each docstring; decisions on ambiguities are in RULES.md.

Conventions: ``st`` int32[STATE_SIZE], ``spec`` int64[SPEC_SIZE], ``ev`` int32[E, EV_W]
event buffer (E = 0 records nothing), airports 0..8, planes 0..n-1, cards 0..71.
Move points: one per space entered (airport spaces included); a storm space costs 2, a
tailwind space 0 (RB "Mueve tu avión").
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.games.now_boarding.layout import (
    ACTIVE,
    C_ANGER,
    C_PICK,
    C_PLACE,
    C_VIPK,
    C_WHERE,
    CAUSE_ANGER,
    CAUSE_LEFT,
    CAUSE_VIP,
    DIST,
    EV_ANGER,
    EV_BUY,
    EV_COMPLAINT,
    EV_DELIVER,
    EV_DRAW,
    EV_DROP,
    EV_LEFT,
    EV_MOVE,
    EV_PAY,
    EV_PICK,
    EV_TEMP,
    EV_VIP,
    EV_WEATHER,
    INF,
    K_ANGER_LIMIT,
    K_BETWEEN,
    K_CDEST,
    K_CFARE,
    K_COMPLAINT_LIMIT,
    K_CORIG,
    K_DRAW,
    K_LEFTOVER,
    K_MAX_SEATS,
    K_MAX_SPEED,
    K_NP,
    K_NR,
    K_RA,
    K_RB,
    K_RCOL,
    K_RESET,
    K_ROUTE_PRICE,
    K_RSP,
    K_SEATP,
    K_SPEEDP,
    K_SUPPLY,
    K_TSEAT_PRICE,
    K_TSPEED_PRICE,
    K_VIP,
    MAXP,
    MAXTOK,
    NA,
    NCARD,
    NEXT,
    NFARE,
    NRT,
    NVIP,
    P_ACTLEFT,
    P_AIR,
    P_CELEB,
    P_DELIV,
    P_FARES,
    P_LOAD,
    P_MASK,
    P_MONEY,
    P_NCARR,
    P_NERV,
    P_NUPG,
    P_OFF,
    P_ROUTE,
    P_SEATS,
    P_SPEED,
    P_SPLEFT,
    P_TCARD,
    PB,
    PILE,
    PL_COMPLAINT,
    PL_DISCARD,
    PL_LEFTOVER,
    PL_MONEY,
    PL_PLANE,
    PL_WAIT,
    PLANES,
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
    S_NEV,
    S_OVER,
    S_PILE_END,
    S_PILE_POS,
    S_ROUND,
    S_RSTAGE,
    S_SPENT,
    S_STAGE,
    S_SUP_ROUTE,
    S_SUP_SEAT,
    S_SUP_SPEED,
    S_TSEAT,
    S_TSPEED,
    S_WASTED,
    SCR_BABY,
    SCR_REACH,
    SCR_REACH_SIZE,
    ST_CAIR,
    ST_UPG,
    ST_UPGKS,
    ST_UPGR,
    U_ROUTE,
    U_SEAT,
    U_SPEED,
    U_TSEAT,
    U_TSPEED,
    V_KIND,
    V_STAGE,
    V_STATE,
    W_SPACE,
    W_TYPE,
    WP_ROUTE,
    WP_SPACE,
)

VIP_BABY, VIP_IMPATIENT, VIP_NERVOUS, VIP_FUGITIVE, VIP_FIRST, VIP_CELEBRITY, VIP_DIRECT, VIP_GRUMPY = 1, 2, 3, 4, 5, 6, 7, 8
BIG = 1 << 30


@njit(cache=True)
def pb(p):
    """Offset of plane p's block in the state."""
    return PLANES + PB * p


@njit(cache=True)
def emit(st, ev, code, a, b, c, d, e):
    """Append one event row [code, a, b, c, d, e] when ``ev`` has room (E = 0: nothing)."""
    n = st[S_NEV]
    if n < ev.shape[0]:
        ev[n, 0] = code
        ev[n, 1] = a
        ev[n, 2] = b
        ev[n, 3] = c
        ev[n, 4] = d
        ev[n, 5] = e
        st[S_NEV] = n + 1


# ------------------------------------------------------------------ cards and the ACTIVE list

@njit(cache=True)
def active_add(st, c):
    st[ACTIVE + st[S_NACTIVE]] = c
    st[S_NACTIVE] += 1


@njit(cache=True)
def active_remove(st, c):
    n = st[S_NACTIVE]
    for i in range(n):
        if st[ACTIVE + i] == c:
            st[ACTIVE + i] = st[ACTIVE + n - 1]
            st[S_NACTIVE] = n - 1
            return


@njit(cache=True)
def seats_needed(st, c):
    """Seats a passenger takes: 2 for the Captured Fugitive VIP, else 1."""
    return 2 if st[C_VIPK + c] == VIP_FUGITIVE else 1


# ------------------------------------------------------------------ board, weather, distances

@njit(cache=True)
def base_len(spec, r):
    """Move points of route r from airport to airport without weather: spaces + 1."""
    return spec[K_RSP + r] + 1


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
def compute_dist(st, spec, p):
    """All-pairs move points for plane p (its route colours, current weather), Floyd-Warshall.

    Fills DIST/NEXT for mode 0 (every route it may use) and, in the VIP variant, mode 1 (avoiding
    routes with a weather token: a plane carrying the Nervous VIP). INF when unreachable.
    """
    mask = st[pb(p) + P_MASK]
    nr = spec[K_NR]
    for m in range(2 if spec[K_VIP] == 1 else 1):  # mode 1 only matters with the Nervous VIP
        D = DIST + (p * 2 + m) * NA * NA
        X = NEXT + (p * 2 + m) * NA * NA
        for i in range(NA):
            for j in range(NA):
                st[D + i * NA + j] = 0 if i == j else INF
                st[X + i * NA + j] = j if i == j else -1
        for r in range(nr):
            if (mask >> spec[K_RCOL + r]) & 1 == 0:
                continue
            if m == 1 and st[W_TYPE + r] != 0:
                continue
            a = spec[K_RA + r]
            b = spec[K_RB + r]
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


@njit(cache=True)
def apply_weather(st, spec, s, ev):
    """RB "Pasando a la siguiente etapa" / setup 15: remove every weather token, place the tokens
    of stage s's weather plan (alternating storm, tailwind), keep planes on their physical
    space, recompute every plane's distances."""
    n = spec[K_NP]
    nr = spec[K_NR]
    phys = np.zeros(MAXP, np.int64)
    for p in range(n):
        b = pb(p)
        if st[b + P_AIR] < 0:
            r = st[b + P_ROUTE]
            phys[p] = off_to_phys(st[W_TYPE + r], st[W_SPACE + r], st[b + P_OFF])
    for r in range(nr):
        st[W_TYPE + r] = 0
        st[W_SPACE + r] = 0
        st[R_LEN + r] = base_len(spec, r)
    for j in range(MAXTOK):
        r = st[WP_ROUTE + s * MAXTOK + j]
        if r < 0:
            continue
        t = 1 if j % 2 == 0 else 2
        st[W_TYPE + r] = t
        st[W_SPACE + r] = st[WP_SPACE + s * MAXTOK + j]
        st[R_LEN + r] = base_len(spec, r) + (1 if t == 1 else -1)
        emit(st, ev, EV_WEATHER, s, r, t, st[W_SPACE + r], 0)
    for p in range(n):
        b = pb(p)
        if st[b + P_AIR] < 0:
            r = st[b + P_ROUTE]
            o = phys_to_off(st[W_TYPE + r], st[W_SPACE + r], phys[p])
            if o <= 0:
                st[b + P_AIR] = spec[K_RA + r]
                st[b + P_ROUTE] = -1
                st[b + P_OFF] = 0
            else:
                st[b + P_OFF] = o
    for p in range(n):
        compute_dist(st, spec, p)


@njit(cache=True)
def dist_mode(st, p):
    """0, or 1 when plane p carries the Nervous VIP (no route with a weather token)."""
    return 1 if st[pb(p) + P_NERV] > 0 else 0


@njit(cache=True)
def airport_dist(st, p, u, v):
    """Move points from airport u to airport v for plane p (its current mode)."""
    return st[DIST + (p * 2 + dist_mode(st, p)) * NA * NA + u * NA + v]



@njit(cache=True)
def _via_ends(st, spec, r, o, D, t):
    """Move points from offset ``o`` on route ``r`` to airport ``t`` via the route's end A
    (back over ``o`` spaces) and via its end B (on over ``L - o``); D: the distance table."""
    L = st[R_LEN + r]
    da = o + st[D + spec[K_RA + r] * NA + t]
    db = L - o + st[D + spec[K_RB + r] * NA + t]
    return da, db


@njit(cache=True)
def plane_dist(st, spec, p, t):
    """Move points from plane p's position (airport or route offset) to airport t."""
    b = pb(p)
    D = DIST + (p * 2 + dist_mode(st, p)) * NA * NA
    a0 = st[b + P_AIR]
    if a0 >= 0:
        return st[D + a0 * NA + t]
    da, db = _via_ends(st, spec, st[b + P_ROUTE], st[b + P_OFF], D, t)
    return da if da <= db else db


@njit(cache=True)
def pos_code(st, p):
    """Position code for events: the airport id, or 1000 + route*32 + offset."""
    b = pb(p)
    if st[b + P_AIR] >= 0:
        return st[b + P_AIR]
    return 1000 + st[b + P_ROUTE] * 32 + st[b + P_OFF]


@njit(cache=True)
def fly_hop(st, spec, p, t, ev):
    """RB "Mueve tu avión": move plane p toward airport t along its shortest path, up to the next
    airport or as far as its move points (and action budget) allow; it may stop on any route
    space. Uses the temporary speed token (+1 space) when that one space reaches the next
    airport. Returns the move points spent (0 = no move)."""
    b = pb(p)
    m = dist_mode(st, p)
    D = DIST + (p * 2 + m) * NA * NA
    X = NEXT + (p * 2 + m) * NA * NA
    allow = st[b + P_SPLEFT]
    acts = st[b + P_ACTLEFT]
    if acts < allow:
        allow = acts
    u = st[b + P_AIR]
    if u >= 0:
        if u == t or st[D + u * NA + t] >= INF:
            return 0
        v = st[X + u * NA + t]
        r = spec[K_BETWEEN + u * NA + v]
        L = st[R_LEN + r]
        if spec[K_RA + r] == u:
            o = 0
            dirn = 1
            end = v
        else:
            o = L
            dirn = -1
            end = v
        need = L
    else:
        r = st[b + P_ROUTE]
        o = st[b + P_OFF]
        L = st[R_LEN + r]
        A = spec[K_RA + r]
        B = spec[K_RB + r]
        da, db = _via_ends(st, spec, r, o, D, t)
        if da >= INF and db >= INF:
            return 0
        if da <= db:
            dirn = -1
            need = o
            end = A
        else:
            dirn = 1
            need = L - o
            end = B
    step = allow if allow < need else need
    extra = 0
    if step < need and need - step == 1 and st[S_TSPEED] == p and acts > step:
        extra = 1
        st[S_TSPEED] = -1
        emit(st, ev, EV_TEMP, p, U_TSPEED, 0, 0, 0)
    step += extra
    if step <= 0:
        return 0
    frm = pos_code(st, p)
    st[b + P_SPLEFT] -= step - extra
    st[b + P_ACTLEFT] -= step
    if step == need:
        st[b + P_AIR] = end
        st[b + P_ROUTE] = -1
        st[b + P_OFF] = 0
    else:
        st[b + P_AIR] = -1
        st[b + P_ROUTE] = r
        st[b + P_OFF] = o + dirn * step
    emit(st, ev, EV_MOVE, p, frm, pos_code(st, p), step, extra)
    return step


# ------------------------------------------------------------------ pickups and drop-offs

@njit(cache=True)
def can_pickup(st, spec, p, c):
    """RB "Recoger pasajeros": 0 = illegal; 1 = legal; 2 = legal only with the temporary seat token.

    Plane p must be at the card's airport with an action left; seats: load + need <= seats (the
    token allows one passenger above the limit); VIPs: Celebrity flies alone, First in Line
    boards before anyone else at its airport, Captured Fugitive needs 2 seats."""
    b = pb(p)
    a = st[b + P_AIR]
    if a < 0 or st[C_PLACE + c] != PL_WAIT or st[C_WHERE + c] != a or st[b + P_ACTLEFT] <= 0:
        return 0
    vip = st[C_VIPK + c]
    if st[b + P_CELEB] > 0:
        return 0
    if vip == VIP_CELEBRITY and st[b + P_NCARR] > 0:
        return 0
    if vip != VIP_FIRST and spec[K_VIP] == 1:
        for i in range(st[S_NACTIVE]):
            x = st[ACTIVE + i]
            if x != c and st[C_VIPK + x] == VIP_FIRST and st[C_PLACE + x] == PL_WAIT and st[C_WHERE + x] == a:
                return 0
    need = seats_needed(st, c)
    if st[b + P_LOAD] + need <= st[b + P_SEATS]:
        return 1
    if st[S_TSEAT] == p and st[b + P_LOAD] + need <= st[b + P_SEATS] + 1:
        return 2
    return 0


@njit(cache=True)
def do_pickup(st, spec, p, c, ev):
    """Board card c on plane p (caller checked ``can_pickup``). RB: its anger cubes go back to the
    supply (not for the Impatient VIP; not in 'setdown' reset mode). Returns can_pickup's code."""
    k = can_pickup(st, spec, p, c)
    if k == 0:
        return 0
    b = pb(p)
    a = st[b + P_AIR]
    if k == 2:
        st[S_TSEAT] = -1
        emit(st, ev, EV_TEMP, p, U_TSEAT, 0, 0, 0)
    st[C_PLACE + c] = PL_PLANE
    st[C_WHERE + c] = p
    st[C_PICK + c] = a
    st[b + P_LOAD] += seats_needed(st, c)
    st[b + P_NCARR] += 1
    st[b + P_ACTLEFT] -= 1
    vip = st[C_VIPK + c]
    if vip == VIP_NERVOUS:
        st[b + P_NERV] += 1
    if vip == VIP_CELEBRITY:
        st[b + P_CELEB] += 1
    anger = st[C_ANGER + c]
    if spec[K_RESET] == 0 and vip != VIP_IMPATIENT:
        st[C_ANGER + c] = 0
    for q in range(spec[K_NP]):
        if st[pb(q) + P_TCARD] == c:
            st[pb(q) + P_TCARD] = -1
    emit(st, ev, EV_PICK, p, c, a, anger, k)
    return k


@njit(cache=True)
def can_drop(st, spec, p, c):
    """RB "Dejar pasajeros": plane p at an airport, card aboard p, not at the airport it was just
    picked up from, an action left; the Direct Flight VIP leaves only at its destination."""
    b = pb(p)
    a = st[b + P_AIR]
    if a < 0 or st[C_PLACE + c] != PL_PLANE or st[C_WHERE + c] != p or st[b + P_ACTLEFT] <= 0:
        return False
    if st[C_PICK + c] == a:
        return False
    if st[C_VIPK + c] == VIP_DIRECT and spec[K_CDEST + c] != a:
        return False
    return True


@njit(cache=True)
def do_drop(st, spec, p, c, ev):
    """Set card c down from plane p at its airport. At the destination: delivered, the card goes to
    p's money pile (fare earned by p alone). Elsewhere: it waits there face up (hand-off).
    Returns 0 illegal, 1 hand-off, 2 delivered."""
    if not can_drop(st, spec, p, c):
        return 0
    b = pb(p)
    a = st[b + P_AIR]
    st[b + P_LOAD] -= seats_needed(st, c)
    st[b + P_NCARR] -= 1
    st[b + P_ACTLEFT] -= 1
    vip = st[C_VIPK + c]
    if vip == VIP_NERVOUS:
        st[b + P_NERV] -= 1
    if vip == VIP_CELEBRITY:
        st[b + P_CELEB] -= 1
    st[C_PICK + c] = -1
    if spec[K_CDEST + c] == a:
        f = spec[K_CFARE + c]
        st[C_PLACE + c] = PL_MONEY
        st[C_WHERE + c] = p
        st[C_ANGER + c] = 0
        st[b + P_MONEY + f] += 1
        st[b + P_FARES] += f
        st[b + P_DELIV] += 1
        st[S_FARES] += f
        st[S_DELIV] += 1
        active_remove(st, c)
        emit(st, ev, EV_DELIVER, p, c, a, f, 0)
        return 2
    st[C_PLACE + c] = PL_WAIT
    st[C_WHERE + c] = a
    if spec[K_RESET] == 1 and vip != VIP_IMPATIENT:
        st[C_ANGER + c] = 1 if vip == VIP_GRUMPY else 0
    emit(st, ev, EV_DROP, p, c, a, 0, 0)
    return 1


# ------------------------------------------------------------------ maintenance

@njit(cache=True)
def add_complaint(st, spec, cause, c, ev):
    """One card onto the complaint pile (cause CAUSE_*; c = passenger card or VIP index or -1).
    Returns True when the pile reaches the limit (RB "Fuera del negocio": all lose at once)."""
    st[S_COMPL] += 1
    if cause == CAUSE_ANGER:
        st[S_C_ANGER] += 1
        st[ST_CAIR + spec[K_CORIG + c]] += 1
    elif cause == CAUSE_LEFT:
        st[S_C_LEFT] += 1
    else:
        st[S_C_VIP] += 1
    emit(st, ev, EV_COMPLAINT, cause, c, st[S_COMPL], 0, 0)
    return st[S_COMPL] >= spec[K_COMPLAINT_LIMIT]


@njit(cache=True)
def lose(st):
    """Record a loss now (stage and round) and end the game."""
    st[S_OVER] = 1
    st[S_LOST_EARLY] = 1
    st[S_LOSS_STAGE] = st[S_STAGE]
    st[S_LOSS_ROUND] = st[S_ROUND]


@njit(cache=True)
def anger_phase(st, spec, ev):
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
    limit = spec[K_ANGER_LIMIT]
    for i in range(n - 1, -1, -1):
        c = st[ACTIVE + i]
        if st[C_PLACE + c] != PL_WAIT:
            continue
        inc = 1
        if st[SCR_BABY + st[C_WHERE + c]] == 1 and st[C_VIPK + c] != VIP_BABY:
            inc = 2
        st[C_ANGER + c] += inc
        emit(st, ev, EV_ANGER, c, st[C_WHERE + c], st[C_ANGER + c], 0, 0)
        if st[C_ANGER + c] >= limit:
            st[C_PLACE + c] = PL_COMPLAINT
            st[C_WHERE + c] = -1
            st[C_ANGER + c] = 0
            active_remove(st, c)
            if add_complaint(st, spec, CAUSE_ANGER, c, ev):
                lose(st)
                return True
    return False


@njit(cache=True)
def pile_left(st, s):
    return st[S_PILE_END + s] - st[S_PILE_POS + s]


@njit(cache=True)
def draw_passengers(st, spec, s, vip_idx, ev):
    """RB setup 12 / "Prepara la próxima ronda": draw the stage's 'draw per round' cards from pile s
    onto their origin airports (anger 0). ``vip_idx`` >= 0 attaches that VIP card to the first
    card drawn (Grumpy starts with 1 anger). Returns the number drawn."""
    k = spec[K_DRAW + s]
    drawn = 0
    for _ in range(k):
        if pile_left(st, s) <= 0:
            break
        c = st[PILE + st[S_PILE_POS + s]]
        st[S_PILE_POS + s] += 1
        st[C_PLACE + c] = PL_WAIT
        st[C_WHERE + c] = spec[K_CORIG + c]
        st[C_ANGER + c] = 0
        st[C_PICK + c] = -1
        active_add(st, c)
        emit(st, ev, EV_DRAW, c, spec[K_CORIG + c], spec[K_CDEST + c], spec[K_CFARE + c], s)
        if drawn == 0 and vip_idx >= 0:
            kind = st[V_KIND + vip_idx]
            st[C_VIPK + c] = kind
            st[V_STATE + vip_idx] = 2
            if kind == VIP_GRUMPY:
                st[C_ANGER + c] = 1
            emit(st, ev, EV_VIP, c, kind, vip_idx, 0, 0)
        drawn += 1
    return drawn


@njit(cache=True)
def next_pending_vip(st, s):
    """Index of the first VIP card pending for stage s, or -1."""
    for i in range(NVIP):
        if st[V_STAGE + i] == s and st[V_STATE + i] == 1:
            return i
    return -1


@njit(cache=True)
def refuse_stage_vips(st, spec, s, ev):
    """VIP variant: every VIP of stage s not taken by the end of the stage is 1 complaint.
    Returns True when the game is lost."""
    for i in range(NVIP):
        if st[V_STAGE + i] == s and st[V_STATE + i] == 1:
            st[V_STATE + i] = 3
            if add_complaint(st, spec, CAUSE_VIP, i, ev):
                lose(st)
                return True
    return False


@njit(cache=True)
def end_count(st, spec, ev):
    """RB "Salir de la aeronave": every passenger still waiting or aboard is taken; 1 complaint per
    2 of them (rounded down). Fewer complaints than the limit wins ("Volando alto")."""
    left = 0
    n = st[S_NACTIVE]
    for i in range(n):
        c = st[ACTIVE + i]
        if st[C_PLACE + c] == PL_PLANE:
            b = pb(st[C_WHERE + c])
            st[b + P_LOAD] -= seats_needed(st, c)
            st[b + P_NCARR] -= 1
            if st[C_VIPK + c] == VIP_NERVOUS:
                st[b + P_NERV] -= 1
            if st[C_VIPK + c] == VIP_CELEBRITY:
                st[b + P_CELEB] -= 1
        st[C_PLACE + c] = PL_LEFTOVER
        st[C_WHERE + c] = -1
        st[C_ANGER + c] = 0
        left += 1
    st[S_NACTIVE] = 0
    st[S_LEFT] = left
    emit(st, ev, EV_LEFT, left, 0, 0, 0, 0)
    extra = left // spec[K_LEFTOVER]
    lost = False
    for _ in range(extra):
        if add_complaint(st, spec, CAUSE_LEFT, -1, ev):
            lost = True
    st[S_OVER] = 1
    if lost:
        st[S_LOSS_STAGE] = st[S_STAGE]
        st[S_LOSS_ROUND] = st[S_ROUND]
    return lost


# ------------------------------------------------------------------ upgrades and money

@njit(cache=True)
def money(st, p):
    """Total $ in plane p's money pile."""
    b = pb(p)
    t = 0
    for v in range(NFARE):
        t += v * st[b + P_MONEY + v]
    return t


@njit(cache=True)
def pay(st, spec, p, amount, ev):
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
        cnt = st[b + P_MONEY + v]
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
        cnt = st[b + P_MONEY + v]
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
                    if st[C_PLACE + c] == PL_MONEY and st[C_WHERE + c] == p and spec[K_CFARE + c] == v:
                        st[C_PLACE + c] = PL_DISCARD
                        st[C_WHERE + c] = -1
                        left -= 1
                st[b + P_MONEY + v] -= k
                s = t
                break
    st[S_SPENT] += best
    st[S_WASTED] += best - amount
    emit(st, ev, EV_PAY, p, best, amount, 0, 0)
    return best


@njit(cache=True)
def upgrade_price(st, spec, p, kind, seats, speed):
    """Price of the next upgrade of ``kind`` for a plane with ``seats``/``speed`` (RB: the price
    rises with the count already reached); -1 when not available (cap, supply, token taken)."""
    if kind == U_SEAT:
        if seats >= spec[K_MAX_SEATS]:
            return -1
        if spec[K_SUPPLY] == 1 and st[S_SUP_SEAT] <= 0:
            return -1
        return spec[K_SEATP + seats + 1]
    if kind == U_SPEED:
        if speed >= spec[K_MAX_SPEED]:
            return -1
        if spec[K_SUPPLY] == 1 and st[S_SUP_SPEED] <= 0:
            return -1
        return spec[K_SPEEDP + speed + 1]
    if kind == U_ROUTE:
        return spec[K_ROUTE_PRICE]
    if kind == U_TSEAT:
        return spec[K_TSEAT_PRICE] if st[S_TSEAT] < 0 else -1
    if kind == U_TSPEED:
        return spec[K_TSPEED_PRICE] if st[S_TSPEED] < 0 else -1
    return -1


@njit(cache=True)
def route_available(st, spec, p, colour):
    """Colour 1..5 not held by plane p (and a tile left when supply limits are on)."""
    if colour < 1 or colour > 5:
        return False
    if (st[pb(p) + P_MASK] >> colour) & 1:
        return False
    if spec[K_SUPPLY] == 1 and st[S_SUP_ROUTE + colour] <= 0:
        return False
    return True


@njit(cache=True)
def grant_upgrade(st, spec, p, kind, colour, ev, price):
    """Give plane p one upgrade (already paid, or free at setup when price = 0): seat, speed,
    route colour, or a temporary token. Counts it in the statistics when bought (price >= 0
    and round >= 1)."""
    b = pb(p)
    if kind == U_SEAT:
        st[b + P_SEATS] += 1
        st[S_SUP_SEAT] -= 1
    elif kind == U_SPEED:
        st[b + P_SPEED] += 1
        st[S_SUP_SPEED] -= 1
    elif kind == U_ROUTE:
        st[b + P_MASK] |= 1 << colour
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
        st[b + P_NUPG] += 1
        idx = r - 1 if r - 1 < NRT else NRT - 1
        st[ST_UPGR + idx] += 1
    emit(st, ev, EV_BUY, p, kind, colour, price, 0)


@njit(cache=True)
def plane_init(st, spec, p, home, colour, seats, speed):
    """A starting plane (RB setup 6-7): seats, speed, white + its colour, at its home airport."""
    b = pb(p)
    st[b + P_SEATS] = seats
    st[b + P_SPEED] = speed
    st[b + P_MASK] = 1 | (1 << colour)
    st[b + P_AIR] = home
    st[b + P_ROUTE] = -1
    st[b + P_OFF] = 0
    st[b + P_TCARD] = -1
