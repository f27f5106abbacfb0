"""Now Boarding's team planner (policy ``planner``, RULES.md "Policies"): one team plan per round.

At the start of every flight phase ``plan_round`` plans every plane's stops as one team
decision and ``planner_step`` carries the plan out through the rule functions. Moved out of
``policies.py`` (issue 32) unchanged; the plain policies (random, greedy, heuristic and the
shared helpers ``fits`` and ``deliver_all``) stay there. Every draw comes from the POLICY
stream, so the planner never changes the deal (common random numbers).
"""

from __future__ import annotations

import numpy as np

from sim.games.engine import alloc_kernel, inline_kernel, kernel, leaf_kernel
from sim.games.now_boarding.layout import (
    ACTIVE,
    C_ANGER,
    C_ASSIGN,
    C_DROPAT,
    C_PICK,
    C_PLACE,
    C_VIPK,
    C_WHERE,
    DIST,
    INF,
    MAXP,
    NA,
    NCARD,
    P_AIRIN,
    P_ANGER_LIMIT,
    P_CDEST,
    P_CFARE,
    P_NP,
    PART_EVENING,
    PART_FINAL,
    PART_LAST,
    PL_PLANE,
    PL_WAIT,
    PLN_HEAD,
    PLN_I,
    PLN_MAXS,
    PLN_N,
    PLN_STOP,
    PW_ANGER,
    PW_CARRY,
    PW_COVER,
    PW_COVER2,
    PW_COVERCAP,
    PW_CRIT,
    PW_DELIVER,
    PW_ENDGAME,
    PW_FARE,
    PW_HFINAL,
    PW_HLATE,
    PW_HORIZON,
    PW_OEND,
    PW_OFFLOAD,
    PW_ORDERS,
    PW_PICK,
    PW_PROG,
    PW_RELAY,
    PW_RESET,
    S_NACTIVE,
    S_TSEAT,
    S_TSPEED,
    SE_ACTLEFT,
    SE_AIR,
    SE_LOAD,
    SE_SEATS,
    SE_SPEED,
    SE_SPLEFT,
)
from sim.games.now_boarding.policies import deliver_all
from sim.games.now_boarding.rules import (
    airport_dist,
    can_drop,
    can_pickup,
    do_drop,
    do_pickup,
    fly_hop,
    part_of_game,
    pb,
    plane_dist,
    seats_needed,
)

RELAYK = 5000
"""Planner plan entries (``pk_*``): a boarding of a relayed passenger (``relay``) is card +
RELAYK, a set-down card + PK_DROP·(airport + 1), a plain boarding the card."""
PK_DROP = 100
PK_BOARD, PK_SETDOWN, PK_RELAY = range(3)
RELAY_AT = 64
"""``rel`` / C_DROPAT encoding of a relay: airport + 1 + RELAY_AT × (move point or plane + 1)."""


@inline_kernel
def pk_setdown(c, a):
    """Plan entry: set card c down at airport a."""
    return c + PK_DROP * (a + 1)


@inline_kernel
def pk_relay(c):
    """Plan entry: board card c, set down earlier this round by another plane (a relay)."""
    return c + RELAYK


@inline_kernel
def pk_kind(k):
    """PK_BOARD, PK_SETDOWN or PK_RELAY: what plan entry k is (``RELAYK``)."""
    if k >= RELAYK:
        return PK_RELAY
    return PK_SETDOWN if k >= PK_DROP else PK_BOARD


@inline_kernel
def pk_card(k):
    """The card of plan entry k."""
    if k >= RELAYK:
        return k - RELAYK
    return k % PK_DROP


@inline_kernel
def pk_airport(k):
    """The airport of set-down entry k."""
    return k // PK_DROP - 1


@leaf_kernel
def _waits(taken, rel, c, a):
    """True when waiting-list card c counts as waiting at airport a for the plane being planned:
    not taken, and not a relayed passenger listed at another airport (``rel`` int64[NCARD]: 0 =
    waiting since the round began; else airport + 1 + RELAY_AT × the move point it waits from)."""
    return taken[c] == 0 and (rel[c] == 0 or rel[c] % RELAY_AT == a + 1)


@inline_kernel
def _relay_ready(rel, c, flown):
    """True when card c is not a relay, or a relay already set down once the plane being
    planned has flown ``flown`` move points this round (``rel``: see ``_waits``; it waits from
    the move point after the set-down). ``_leg``'s boarding asks it; the airport masks and the
    approach count (``_level_mask2``, ``plan_plane2``) ask only ``_waits``, so they count a relay
    set down later in the round as waiting already (a candidate stop, a pickup next round)."""
    return rel[c] == 0 or rel[c] // RELAY_AT <= flown

# ---------------------------------------------------------------- planner (team plan per round)
#
# At the start of every flight phase ``plan_round`` plans every plane's stops (up to PLN_MAXS
# airports within its move points) as one team decision: planes are committed one at a time,
# each time the plane whose best itinerary gains most over staying put; a committed plane's
# pickups are reserved for it (C_ASSIGN) and the passengers it covers for next round are marked.
# ``planner_step`` then carries the plan out through the rule functions in the round's pass order.
# The planner reads only the open board: positions, waiting passengers and their anger, cards
# aboard, money, the weather on the board now (via the distance tables); never PILE or the
# weather plan.

@leaf_kernel
def _pick_key(st, spec, c, last):
    """Boarding priority of waiting card c: the last anger cube first, then anger, then fare."""
    a = st[C_ANGER + c]
    return (1000 if a >= last else 0) + 10 * a + spec[P_CFARE + c]


@leaf_kernel
def _apply_stop(st, spec, w, p, d, s, cost, last, wl, nwl, taken, L_loc, L_mp, L_val, L_load, L_nab,
                L_abd, L_abf, L_npk, L_pk, L_vis, cap):
    """DFS level d <- level d-1 extended by a stop at airport s reached for ``cost`` move points:
    deliveries of carried cards to s, then boarding at s (by priority, while seats are free and
    the pickup is worth its seat)."""
    q = d - 1
    L_loc[d] = s
    L_mp[d] = L_mp[q] - cost
    v = L_val[q]
    ld = L_load[q]
    n = 0
    for i in range(L_nab[q]):
        if L_abd[q, i] == s:
            v += w[PW_DELIVER] + w[PW_FARE] * spec[P_CFARE + L_abf[q, i]]
            ld -= seats_needed(st, L_abf[q, i])
        else:
            L_abd[d, n] = L_abd[q, i]
            L_abf[d, n] = L_abf[q, i]
            n += 1
    npk = L_npk[q]
    for i in range(npk):
        L_pk[d, i] = L_pk[q, i]
    L_vis[d] = L_vis[q] | (1 << s)
    inround = L_mp[d] >= w[PW_HORIZON]
    for i in range(nwl[s]):
        c = wl[s, i]
        if taken[c] != 0:
            continue
        need = seats_needed(st, c)
        if n >= 7 or npk >= 15:
            continue
        a = st[C_ANGER + c]
        if a >= last and not inround:
            continue
        dd = spec[P_CDEST + c]
        g = w[PW_PICK] + w[PW_ANGER] * a - w[PW_CARRY] * airport_dist(st, p, s, dd)
        if a >= last:
            g += w[PW_CRIT]
        if g <= 0:
            continue
        if ld + need > cap:
            # anger re-set: set down the carried passenger worth least here (it waits with no
            # anger) when this one is worth more aboard
            if need != 1 or a < 2:
                continue
            wi = -1
            wk = 1e18
            for i in range(n):
                x = L_abf[d, i]
                if st[C_PICK + x] == s or st[C_VIPK + x] != 0:
                    continue
                kv = w[PW_PICK] - w[PW_CARRY] * airport_dist(st, p, s, L_abd[d, i])
                if kv < wk:
                    wk = kv
                    wi = i
            if wi < 0 or wk >= g:
                continue
            x = L_abf[d, wi]
            L_pk[d, npk] = pk_setdown(x, s)
            npk += 1
            n -= 1
            L_abd[d, wi] = L_abd[d, n]
            L_abf[d, wi] = L_abf[d, n]
            ld -= 1
            v -= w[PW_PICK]
            if npk >= 15:
                continue
        v += w[PW_PICK] + w[PW_ANGER] * a + (w[PW_CRIT] if a >= last else 0.0)
        ld += need
        L_abd[d, n] = dd
        L_abf[d, n] = c
        n += 1
        L_pk[d, npk] = c
        npk += 1
    L_nab[d] = n
    L_npk[d] = npk
    L_load[d] = ld
    L_val[d] = v


@leaf_kernel
def _dfrom(st, spec, p, loc, x):
    """Move points for plane p from ``loc`` (an airport, or -1 = its current spot) to airport x."""
    if loc >= 0:
        return airport_dist(st, p, loc, x)
    return plane_dist(st, spec, p, x)


@leaf_kernel
def _level_mask(L_nab, L_abd, d, wmask):
    """Airports worth a stop or a heading from DFS level d: waiting passengers (``wmask``) or a
    destination aboard."""
    m = wmask
    for i in range(L_nab[d]):
        m |= 1 << L_abd[d, i]
    return m


@leaf_kernel
def _end_value(st, spec, w, p, d, ncl, crl, taken, covered, L_loc, L_mp, L_val, L_nab, L_abd, L_npk, L_pk,
               hmask):
    """Value of ending the round after DFS level d, with the best heading for the move points
    left: its stop values, minus the carry cost of the cards still aboard, plus the passengers at
    their next-to-last cube within next round's reach. After flying m points toward h, the
    distance to x is at most min(d(e,x) + m, max(0, d(e,h) - m) + d(h,x)). Returns (value, h)
    (h = -1: stay)."""
    e = L_loc[d]
    m = L_mp[d]
    reach = st[pb(p) + SE_SPEED]
    bv = -1e18
    bh = -1
    for h in range(-1, NA):
        if h >= 0:
            if m <= 0 or (hmask >> h) & 1 == 0 or spec[P_AIRIN + h] == 0 or h == e:
                continue
            deh = _dfrom(st, spec, p, e, h)
            if deh >= INF:
                continue
            rem = deh - m if deh > m else 0
        v = L_val[d]
        near = INF
        tot = 0
        for i in range(L_nab[d]):
            x = L_abd[d, i]
            dx = _dfrom(st, spec, p, e, x)
            if h >= 0:
                alt = rem + airport_dist(st, p, h, x)
                dx = dx + m if dx + m < alt else alt
            tot += dx
            if dx < near:
                near = dx
        if L_nab[d] > 0:
            v -= w[PW_CARRY] * (near + 0.3 * (tot - near))
        for i in range(ncl):
            c = crl[i]
            if taken[c] != 0 or covered[c] != 0:
                continue
            mine = False
            for j in range(L_npk[d]):
                if L_pk[d, j] == c:
                    mine = True
                    break
            if mine:
                continue
            x = st[C_WHERE + c]
            dx = _dfrom(st, spec, p, e, x)
            if h >= 0:
                alt = rem + airport_dist(st, p, h, x)
                dx = dx + m if dx + m < alt else alt
            if dx <= reach:
                v += w[PW_COVER]
        if v > bv:
            bv = v
            bh = h
    return bv, bh


@leaf_kernel
def plan_plane(st, spec, w, p, wl, nwl, ncl, crl, taken, covered, best_stops, best_pk, best_h, S):
    """Best itinerary of plane p this round (depth-first over up to PLN_MAXS stops within its
    move points; boarding at each stop by priority). Writes the stops (airports, first = the
    start airport when the plane is at one) into best_stops[PLN_MAXS+1] (-1 ends) and the cards it
    boards into best_pk[16] (-1 ends). ``S``: the DFS scratch (``plan_scratch``). Returns (value
    gain over staying put, end level value)."""
    b = pb(p)
    last = spec[P_ANGER_LIMIT] - 1
    cap = st[b + SE_SEATS] + (1 if st[S_TSEAT] == p else 0)
    L_loc, L_mp, L_val, L_load, L_nab, L_abd, L_abf, L_abp, L_npk, L_pk, L_vis, stops, it, msk = S[:14]
    # level 0: the plane as it is, the cards aboard
    here = st[b + SE_AIR]
    L_loc[0] = here
    L_mp[0] = st[b + SE_SPLEFT] + int(w[PW_HORIZON])
    L_val[0] = 0.0
    L_load[0] = st[b + SE_LOAD]
    n = 0
    for i in range(st[S_NACTIVE]):
        c = st[ACTIVE + i]
        if st[C_PLACE + c] == PL_PLANE and st[C_WHERE + c] == p and n < 8:
            L_abd[0, n] = spec[P_CDEST + c]
            L_abf[0, n] = c
            n += 1
    L_nab[0] = n
    L_npk[0] = 0
    L_vis[0] = 0
    for i in range(PLN_MAXS + 1):
        best_stops[i] = -1
    for i in range(16):
        best_pk[i] = -1
    wmask = 0
    for a in range(NA):
        for i in range(nwl[a]):
            if taken[wl[a, i]] == 0:
                wmask |= 1 << a
                break
    hbase = wmask
    for i in range(ncl):
        if taken[crl[i]] == 0 and covered[crl[i]] == 0:
            hbase |= 1 << st[C_WHERE + crl[i]]
    # staying put (boarding at the start airport counts as its first stop)
    base = -1e18
    start = 0
    if here >= 0:
        _apply_stop(st, spec, w, p, 1, here, 0, last, wl, nwl, taken, L_loc, L_mp, L_val, L_load, L_nab,
                    L_abd, L_abf, L_npk, L_pk, L_vis, cap)
        start = 1
        base, h = _end_value(st, spec, w, p, 1, ncl, crl, taken, covered, L_loc, L_mp, L_val, L_nab, L_abd,
                             L_npk, L_pk, _level_mask(L_nab, L_abd, 1, hbase))
        best = base
        best_h[0] = h
        best_stops[0] = here
        for j in range(L_npk[1]):
            best_pk[j] = L_pk[1, j]
    else:
        L_loc[0] = -1
        base, h = _end_value(st, spec, w, p, 0, ncl, crl, taken, covered, L_loc, L_mp, L_val, L_nab, L_abd,
                             L_npk, L_pk, _level_mask(L_nab, L_abd, 0, hbase))
        best = base
        best_h[0] = h
    if start == 1:
        stops[1] = here
    # iterative DFS over stop sequences: it[d] = next airport to try at level d+1
    d = start
    it[d] = 0
    msk[d] = _level_mask(L_nab, L_abd, d, wmask)
    while d >= start:
        s = it[d]
        if s >= NA or d >= start + PLN_MAXS:
            d -= 1
            continue
        it[d] = s + 1
        if (msk[d] >> s) & 1 == 0 or spec[P_AIRIN + s] == 0 or (L_vis[d] >> s) & 1 or s == L_loc[d]:
            continue
        if L_loc[d] < 0:
            cost = plane_dist(st, spec, p, s)
        else:
            cost = airport_dist(st, p, L_loc[d], s)
        if cost > L_mp[d] or cost <= 0:
            continue
        _apply_stop(st, spec, w, p, d + 1, s, cost, last, wl, nwl, taken, L_loc, L_mp, L_val, L_load, L_nab,
                    L_abd, L_abf, L_npk, L_pk, L_vis, cap)
        stops[d + 1] = s
        mk = _level_mask(L_nab, L_abd, d + 1, wmask)
        v, h = _end_value(st, spec, w, p, d + 1, ncl, crl, taken, covered, L_loc, L_mp, L_val, L_nab, L_abd,
                          L_npk, L_pk, mk | hbase)
        if v > best:
            best = v
            best_h[0] = h
            for i in range(PLN_MAXS + 1):
                best_stops[i] = stops[i + 1] if i + 1 <= d + 1 else -1
            for j in range(16):
                best_pk[j] = L_pk[d + 1, j] if j < L_npk[d + 1] else -1
        d += 1
        it[d] = 0
        msk[d] = mk
    return best - base, best


@kernel
def plan_scratch():
    """The DFS scratch of ``plan_plane`` / ``plan_plane2`` (made once per ``plan_round``, reused by
    every plan; ``plan_plane`` uses the first 14): per level d < PLN_MAXS+3 its location, move
    points, value, load, cards aboard (count, destinations, cards, where boarded),
    boardings/set-downs (count, list int64[D, 16]), visited airports, stop, next airport to try,
    airport mask and boarded cards (bitmask int64[D, 2]); then one plan's cover candidates
    (``_cover_value``: cards, airports, cover2 flags, int64[NCARD] each) and the plane's
    distances (DF int64[NA+1, NA], see ``plan_plane2``). Returns the tuple (L_loc, L_mp, L_val,
    L_load, L_nab, L_abd, L_abf, L_abp, L_npk, L_pk, L_vis, stops, it, msk, L_bm, ce, cx, c2, DF)."""
    D = PLN_MAXS + 3
    return (np.empty(D, np.int64), np.empty(D, np.int64), np.empty(D, np.float64), np.empty(D, np.int64),
            np.empty(D, np.int64), np.empty((D, 8), np.int64), np.empty((D, 8), np.int64),
            np.empty((D, 8), np.int64), np.empty(D, np.int64), np.empty((D, 16), np.int64),
            np.zeros(D, np.int64), np.empty(D, np.int64), np.zeros(D, np.int64), np.zeros(D, np.int64),
            np.zeros((D, 2), np.int64), np.empty(NCARD, np.int64), np.empty(NCARD, np.int64),
            np.empty(NCARD, np.int64), np.empty((NA + 1, NA), np.int64))


@kernel
def plan_arrays():
    """One set of the team's plan arrays (``_commit``): stops int64[MAXP, PLN_MAXS+1],
    boardings/set-downs int64[MAXP, 16], headings int64[MAXP, 1], gains and values
    float64[MAXP]."""
    return (np.empty((MAXP, PLN_MAXS + 1), np.int64), np.empty((MAXP, 16), np.int64), np.empty((MAXP, 1), np.int64),
            np.empty(MAXP, np.float64), np.empty(MAXP, np.float64))


@kernel
def commit_scratch():
    """The scratch of ``_commit``: (taken int64[NCARD], covered int64[NCARD], done int64[MAXP],
    dirty int64[MAXP], committed stops int64[PLN_MAXS], relays ``rel`` int64[NCARD] (see
    ``_waits``), the waiting lists with the relays int64[NA, NCARD] and their lengths
    int64[NA], the move points flown to each committed stop int64[PLN_MAXS])."""
    return (np.zeros(NCARD, np.int64), np.zeros(NCARD, np.int64), np.zeros(MAXP, np.int64),
            np.zeros(MAXP, np.int64), np.empty(PLN_MAXS, np.int64), np.zeros(NCARD, np.int64),
            np.empty((NA, NCARD), np.int64), np.zeros(NA, np.int64), np.empty(PLN_MAXS, np.int64))


@leaf_kernel
def planner_horizon(w, part):
    """The planner's horizon (move points a plan may run past the round; progress mode) in a
    part of the game (``rules.part_of_game``): ``hfinal`` in the final round, ``endgame`` in
    the round after the last draw, ``hlate`` in the evening (that round too when ``endgame`` is
    off), else ``horizon``; a part's weight at -1 (``endgame``: 0) falls back to ``horizon``."""
    if part == PART_FINAL and w[PW_HFINAL] >= 0:
        return w[PW_HFINAL]
    if part == PART_LAST and w[PW_ENDGAME] > 0:
        # its itinerary may run ``endgame`` points into the final round, and progress counts
        # only as far as it ends in a delivery by then
        return w[PW_ENDGAME]
    if (part == PART_EVENING or part == PART_LAST) and w[PW_HLATE] >= 0:
        # the evening's own horizon (rules version 7): shorter plans where the passengers crowd
        # the board
        return w[PW_HLATE]
    return w[PW_HORIZON]


@leaf_kernel
def planner_orders(w, part):
    """The planner's plane orders (progress mode) in a part of the game (``rules.part_of_game``):
    ``oend`` after the last draw (PART_LAST, PART_FINAL) when it is >= 0, else ``orders``."""
    if part >= PART_LAST and w[PW_OEND] >= 0:
        return w[PW_OEND]
    return w[PW_ORDERS]


@alloc_kernel
def plan_round(st, spec, w):
    """The planner's team decision for this flight phase: every plane's stops (PLN_*), the
    passengers each boards (C_ASSIGN), the set-downs (C_DROPAT) and the heading after its last
    stop; with ``prog`` > 0 each plane's itinerary comes from ``plan_plane2`` (progress mode; in
    the final round, RB "Salir de la aeronave", progress and anger below the last cube are worth
    1/20: only deliveries and rescues count),
    else from ``plan_plane``. The horizon (move points a plan may run past the round) and the
    plane orders depend on the part of the game (``planner_horizon``, ``planner_orders``).
    Deterministic in the open board; uses
    no random draw."""
    n = spec[P_NP]
    last = spec[P_ANGER_LIMIT] - 1
    wl = np.empty((NA, NCARD), np.int64)
    nwl = np.zeros(NA, np.int64)
    key = np.zeros(NCARD, np.int64)
    crl = np.empty(NCARD, np.int64)
    ncl = 0
    for i in range(st[S_NACTIVE]):
        c = st[ACTIVE + i]
        st[C_ASSIGN + c] = 0
        st[C_DROPAT + c] = 0
        if st[C_PLACE + c] != PL_WAIT:
            continue
        a = st[C_WHERE + c]
        k = _pick_key(st, spec, c, last)
        key[c] = k
        j = nwl[a]
        while j > 0 and key[wl[a, j - 1]] < k:
            wl[a, j] = wl[a, j - 1]
            j -= 1
        wl[a, j] = c
        nwl[a] += 1
        if st[C_ANGER + c] == last - 1 or (w[PW_COVER2] > 0 and st[C_ANGER + c] == last - 2):
            crl[ncl] = c
            ncl += 1
    prog = w[PW_PROG] > 0
    TD = np.empty((NA, NA), np.int64)
    wv = w.copy()
    part = part_of_game(st)
    if prog:
        _team_dist(st, spec, TD)
        if part == PART_FINAL:
            # the final round: only deliveries count at the end (RB "Salir de la aeronave"), and a
            # cube short of the last one files no complaint any more
            wv[PW_PROG] = w[PW_PROG] * 0.05
            wv[PW_ANGER] = w[PW_ANGER] * 0.05
        wv[PW_HORIZON] = planner_horizon(w, part)
    for p in range(n):
        st[PLN_N + p] = 0
        st[PLN_I + p] = 0
        st[PLN_HEAD + p] = -1
    S = plan_scratch()
    # the first commitment's plans are the same for every trial (nothing taken or covered yet)
    stops0, pks0, heads0, gain0, val0 = plan_arrays()
    zt = np.zeros(NCARD, np.int64)
    zc = np.zeros(NCARD, np.int64)
    for p in range(n):
        if prog:
            g, v = plan_plane2(st, spec, wv, p, TD, wl, nwl, ncl, crl, zt, zc, zt, stops0[p], pks0[p], heads0[p],
                               S)
        else:
            g, v = plan_plane(st, spec, w, p, wl, nwl, ncl, crl, zt, zc, stops0[p], pks0[p], heads0[p], S)
        gain0[p] = g
        val0[p] = v
    pre = np.full(MAXP, -1, np.int64)
    # two team plans: the best so far (index bi) and the trial's (1 - bi)
    TS = np.empty((2, MAXP, PLN_MAXS + 1), np.int64)
    TP = np.empty((2, MAXP, 16), np.int64)
    TH = np.empty((2, MAXP, 1), np.int64)
    TG = np.empty((2, MAXP), np.float64)
    TV = np.empty((2, MAXP), np.float64)
    C = commit_scratch()
    bi = 0
    bt = _commit(st, spec, wv, w, prog, TD, wl, nwl, ncl, crl, stops0, pks0, heads0, gain0, val0, pre,
                 TS[0], TP[0], TH[0], TG[0], TV[0], C, S)
    gval = TV[0].copy()
    orders = planner_orders(w, part)
    if prog and orders > 0.5 and n > 1:
        # plane orders (the team's commitment order): the greedy commitment against forced first
        # planes (``orders`` 1: each plane first; 2: each ordered pair first); the team plan with
        # the highest total value is flown (every trial is the same deterministic search). The
        # greedy commitment is the trial that forces its own first plane, which is skipped, and so
        # is forcing first a plane whose greedy plan is worth what its first choice was (it lost
        # nothing to the others; with ``orders`` 1 only).
        g1 = 0
        for p in range(1, n):
            if gain0[p] > gain0[g1]:
                g1 = p
        if orders < 1.5:
            for f in range(n):
                if f == g1 or gval[f] >= val0[f] - 1e-9:
                    continue
                pre[0] = f
                t = _commit(st, spec, wv, w, prog, TD, wl, nwl, ncl, crl, stops0, pks0, heads0, gain0, val0, pre,
                            TS[1 - bi], TP[1 - bi], TH[1 - bi], TG[1 - bi], TV[1 - bi], C, S)
                if t > bt + 1e-9:
                    bt = t
                    bi = 1 - bi
        else:
            # every ordered pair of first planes (and each first plane with the greedy rest): the
            # trials with the same first plane share its commitment and the re-plans after it
            # (saved in C2 / SS .. SV)
            C2 = commit_scratch()
            SS, SP, SH, SG, SV = plan_arrays()
            for f in range(n):
                a = 1 - bi
                _commit_init(spec, wl, nwl, stops0, pks0, heads0, gain0, val0, TS[a], TP[a], TH[a], TG[a], TV[a], C)
                pre[0] = f
                pre[1] = -1
                t1 = _commit_steps(st, spec, wv, w, prog, TD, ncl, crl, pre, 0, 1, 0.0, TS[a], TP[a], TH[a], TG[a],
                                   TV[a], C, S)
                _commit_copy(C, TS[a], TP[a], TH[a], TG[a], TV[a], n, C2, SS, SP, SH, SG, SV)
                for f2 in range(-1, n):
                    if f2 == f or (f == g1 and f2 < 0):
                        continue
                    a = 1 - bi
                    _commit_copy(C2, SS, SP, SH, SG, SV, n, C, TS[a], TP[a], TH[a], TG[a], TV[a])
                    pre[1] = f2
                    t = _commit_steps(st, spec, wv, w, prog, TD, ncl, crl, pre, 1, -1, t1, TS[a], TP[a], TH[a],
                                      TG[a], TV[a], C, S)
                    if t > bt + 1e-9:
                        bt = t
                        bi = a
    # the plan into the state: stops (PLN_*), boardings (C_ASSIGN), set-downs (C_DROPAT), heading
    bstops = TS[bi]
    bpks = TP[bi]
    bheads = TH[bi]
    for p in range(n):
        ns = 0
        for i in range(PLN_MAXS + 1):
            s = bstops[p, i]
            if s < 0:
                break
            if i == 0 and s == st[pb(p) + SE_AIR]:
                continue
            if ns < PLN_MAXS:
                st[PLN_STOP + p * PLN_MAXS + ns] = s
                ns += 1
        st[PLN_N + p] = ns
        for j in range(16):
            c = bpks[p, j]
            if c < 0:
                break
            k = pk_kind(c)
            if k == PK_SETDOWN:
                st[C_DROPAT + pk_card(c)] = pk_airport(c) + 1
            elif k == PK_BOARD:
                st[C_ASSIGN + c] = p + 1
        st[PLN_HEAD + p] = bheads[p, 0]
    # relays: the plane that sets the passenger down hands it to the one planned to board it
    for p in range(n):
        for j in range(16):
            c = bpks[p, j]
            if c < 0:
                break
            if pk_kind(c) == PK_RELAY:
                st[C_DROPAT + pk_card(c)] += RELAY_AT * (p + 1)


@leaf_kernel
def _commit(st, spec, wv, w, prog, TD, wl, nwl, ncl, crl, stops0, pks0, heads0, gain0, val0, pre,
            stops, pks, heads, gain, val, C, S):
    """One team commitment (``plan_round``): planes are committed one at a time, each time the one
    whose best itinerary gains most over staying put (``pre`` int64[MAXP]: the planes committed
    first, -1 ends the prefix); its
    pickups are reserved for it, the passengers it covers are marked, and the planes that
    planned on them re-plan. With ``relay`` the passengers it sets down wait (on the scratch
    copies of the waiting lists ``wl``/``nwl``) for the planes committed after it, from the move
    point after the set-down (``rel``: see ``_waits``), and every uncommitted plane re-plans; a
    plan's boarding of such a passenger is ``pk_relay``. Writes the team plan, starting from
    the first plans ``stops0`` .. ``val0``, into stops int64[MAXP, PLN_MAXS+1], boardings/set-downs pks int64[MAXP, 16],
    headings heads int64[MAXP, 1] in ``plan_plane2``'s encoding, each plane's best gain
    gain float64[MAXP] and committed plan value val float64[MAXP] (rows of the first n
    planes); ``C``: ``commit_scratch``, ``S``: ``plan_scratch``. Returns the total value of
    the committed plans; reads the state, writes nothing in it."""
    _commit_init(spec, wl, nwl, stops0, pks0, heads0, gain0, val0, stops, pks, heads, gain, val, C)
    return _commit_steps(st, spec, wv, w, prog, TD, ncl, crl, pre, 0, -1, 0.0, stops, pks, heads, gain, val, C,
                         S)


@leaf_kernel
def _commit_init(spec, wl, nwl, stops0, pks0, heads0, gain0, val0, stops, pks, heads, gain, val, C):
    """Starts a team commitment (``_commit``): nothing taken, covered, committed or relayed yet,
    the relays' waiting lists (``C``) a copy of ``wl``/``nwl``, the plans the first plans
    ``stops0`` .. ``val0`` (shapes as in ``_commit``)."""
    n = spec[P_NP]
    taken, covered, done, dirty, cs, rel, wlr, nwlr, cum = C
    for c in range(NCARD):
        rel[c] = 0
    # the waiting lists this commitment plans on and adds its relays to (the caller's stay as
    # they are)
    for a in range(NA):
        nwlr[a] = nwl[a]
        for i in range(nwl[a]):
            wlr[a, i] = wl[a, i]
    for c in range(NCARD):
        taken[c] = 0
        covered[c] = 0
    for p in range(MAXP):
        done[p] = 0
        dirty[p] = 0
    _copy_plans(n, stops0, pks0, heads0, gain0, val0, stops, pks, heads, gain, val)


@leaf_kernel
def _copy_plans(n, stops, pks, heads, gain, val, stops2, pks2, heads2, gain2, val2):
    """Copies the plans of the first n planes (``_commit``'s plan arrays) into the second ones."""
    for p in range(n):
        for i in range(PLN_MAXS + 1):
            stops2[p, i] = stops[p, i]
        for j in range(16):
            pks2[p, j] = pks[p, j]
        heads2[p, 0] = heads[p, 0]
        gain2[p] = gain[p]
        val2[p] = val[p]


@leaf_kernel
def _commit_copy(C, stops, pks, heads, gain, val, n, C2, stops2, pks2, heads2, gain2, val2):
    """Copies a commitment in progress (the scratch ``C`` and the plans of the first n planes)
    into ``C2`` and the second plan arrays (same shapes): the shared prefix of the plane-order
    trials (``plan_round``, ``orders`` 2)."""
    taken, covered, done, dirty, cs, rel, wlr, nwlr, cum = C
    taken2, covered2, done2, dirty2, cs2, rel2, wlr2, nwlr2, cum2 = C2
    for c in range(NCARD):
        taken2[c] = taken[c]
        covered2[c] = covered[c]
        rel2[c] = rel[c]
    for p in range(MAXP):
        done2[p] = done[p]
        dirty2[p] = dirty[p]
    for a in range(NA):
        nwlr2[a] = nwlr[a]
        for i in range(nwlr[a]):
            wlr2[a, i] = wlr[a, i]
    _copy_plans(n, stops, pks, heads, gain, val, stops2, pks2, heads2, gain2, val2)


@leaf_kernel
def _commit_steps(st, spec, wv, w, prog, TD, ncl, crl, pre, it0, stop, total, stops, pks, heads, gain, val, C, S):
    """Steps it0 .. n-1 of a team commitment (``_commit``; started by ``_commit_init`` or copied
    by ``_commit_copy``), each: the planes marked dirty re-plan, then one plane is committed
    (``pre[it]``, else the largest gain). ``stop`` >= 0: return at step ``stop`` once its
    re-plans are done, before its commitment. Returns ``total`` plus the values of the plans
    committed."""
    n = spec[P_NP]
    last = spec[P_ANGER_LIMIT] - 1
    taken, covered, done, dirty, cs, rel, wlr, nwlr, cum = C
    relay = prog and w[PW_RELAY] > 0
    wl = wlr
    nwl = nwlr
    for it in range(it0, n):
        bp = -1
        bg = -1e18
        for p in range(n):
            if done[p] == 1:
                continue
            if dirty[p] == 1:
                if prog:
                    g, v = plan_plane2(st, spec, wv, p, TD, wl, nwl, ncl, crl, taken, covered, rel, stops[p], pks[p],
                                       heads[p], S)
                else:
                    g, v = plan_plane(st, spec, w, p, wl, nwl, ncl, crl, taken, covered, stops[p], pks[p], heads[p],
                                      S)
                gain[p] = g
                val[p] = v
                dirty[p] = 0
            if gain[p] > bg:
                bg = gain[p]
                bp = p
        if it == stop:
            return total
        if it < MAXP and pre[it] >= 0:
            bp = pre[it]
        if bp < 0:
            break
        p = bp
        done[p] = 1
        total += val[p]
        tk_air = 0
        ncov = False
        ns = 0
        e = st[pb(p) + SE_AIR]
        for i in range(PLN_MAXS + 1):
            s = stops[p, i]
            if s < 0:
                break
            e = s
            if i == 0 and s == st[pb(p) + SE_AIR]:
                continue
            if ns < PLN_MAXS:
                cs[ns] = s
                ns += 1
        for j in range(16):
            c = pks[p, j]
            if c < 0:
                break
            k = pk_kind(c)
            if k == PK_RELAY:
                taken[pk_card(c)] = 1
            elif k == PK_BOARD:
                taken[c] = 1
                tk_air |= 1 << st[C_WHERE + c]
        # mark next-round-critical passengers this plane covers from its end
        h = heads[p, 0]
        m = st[pb(p) + SE_SPLEFT]
        loc = -1 if ns == 0 and st[pb(p) + SE_AIR] < 0 else e
        for i in range(ns):
            cum[i] = plane_dist(st, spec, p, cs[0]) if i == 0 else cum[i - 1] + airport_dist(st, p, cs[i - 1], cs[i])
        if ns > 0:
            m -= cum[ns - 1]
        if m < 0:
            m = 0
        if relay:
            # the passengers this plane sets down wait there for the planes committed after it,
            # from the move point after the set-down (the move points flown to that stop)
            for j in range(16):
                c = pks[p, j]
                if c < 0:
                    break
                if pk_kind(c) != PK_SETDOWN:
                    continue
                x = pk_card(c)
                a = pk_airport(c)
                el = 0
                if a != st[pb(p) + SE_AIR] and ns > 0:
                    el = cum[ns - 1]
                    for i in range(ns):
                        if cs[i] == a:
                            el = cum[i]
                            break
                if nwl[a] < NCARD:
                    wl[a, nwl[a]] = x
                    nwl[a] += 1
                rel[x] = a + 1 + RELAY_AT * (el + 1)
                taken[x] = 0
                ncov = True
        reach = st[pb(p) + SE_SPEED]
        rem = 0
        if h >= 0:
            deh = _dfrom(st, spec, p, loc, h)
            rem = deh - m if deh > m else 0
        ncap = st[pb(p) + SE_SEATS] + (1 if st[S_TSEAT] == p else 0)
        nc = 0
        for i in range(ncl):
            c = crl[i]
            if taken[c] != 0:
                continue
            x = st[C_WHERE + c]
            dx = _dfrom(st, spec, p, loc, x)
            if h >= 0:
                alt = rem + airport_dist(st, p, h, x)
                dx = dx + m if dx + m < alt else alt
            r2 = reach * (last - st[C_ANGER + c])
            if dx <= r2:
                if w[PW_COVERCAP] > 0 and covered[c] == 0:
                    if nc >= ncap:
                        continue
                    nc += 1
                if covered[c] == 0:
                    ncov = True
                covered[c] = 1
        # the others re-plan when this plane took or covered what they planned on (progress
        # mode: only a plane whose plan boards a card now taken, or ends where one was taken)
        for q in range(n):
            if done[q] == 0:
                if not prog or ncov:
                    dirty[q] = 1
                    continue
                last_s = heads[q, 0]
                for i in range(PLN_MAXS + 1):
                    if stops[q, i] >= 0:
                        if last_s < 0:
                            last_s = stops[q, i]
                        elif heads[q, 0] < 0:
                            last_s = stops[q, i]
                if last_s >= 0 and (tk_air >> last_s) & 1:
                    dirty[q] = 1
                    continue
                for j in range(16):
                    c = pks[q, j]
                    if c < 0:
                        break
                    if pk_kind(c) != PK_SETDOWN and taken[pk_card(c)] != 0:
                        dirty[q] = 1
                        break
    return total


# ---------------------------------------------------------------- planner, progress mode (prog > 0)
#
# Version 4 of the planner: the value of an itinerary is the work it does. Every leg (stop to
# stop) is worth ``prog`` per move point its passengers come closer to their destinations, on
# the team distance (the shortest trip by any plane, so a passenger set down where another
# plane's colour route starts has come closer). Boarding is decided per leg: at an airport the
# plane sets down the carried passengers the next leg takes away from their destinations (RB
# "Dejar pasajeros": they wait there with no cubes) and boards the waiting passengers the leg
# brings closer, the passengers at their last cube (rescue), and the angry ones (``anger`` per
# cube removed: RB "Recoger pasajeros"), best first, swapping a carried passenger for a better
# one when the plane is full. The last leg may end short of its airport (the heading).


@leaf_kernel
def _team_dist(st, spec, TD):
    """TD[u, v] int64[NA, NA]: the fewest move points from u to v by any plane (mode 0, the
    weather on the board now)."""
    n = spec[P_NP]
    for u in range(NA):
        for v in range(NA):
            best = INF
            for p in range(n):
                x = st[DIST + (p * 2) * NA * NA + u * NA + v]
                if x < best:
                    best = x
            TD[u, v] = best


@inline_kernel
def _leg(st, spec, w, p, TD, d, s, cost, last, wl, nwl, taken, rel, L_loc, L_mp, L_val, L_load, L_nab,
         L_abf, L_abp, L_npk, L_pk, L_bm, cap, DF):
    """DFS level d+1 <- level d extended by a leg from L_loc[d] to airport s, ``cost`` move points
    (a partial leg, the heading, when cost > the move points left: the plane flies them toward
    s). At L_loc[d] (an airport) first the set-downs and boarding for this leg, then the leg's
    progress; at s (full leg) the deliveries. ``L_bm[d]`` int64[2]: the cards boarded in
    L_pk[d] as a bitmask (card c: bit c % 64 of word c // 64); ``DF``: plane p's distances
    (``plan_plane2``). Returns True for a full leg."""
    q = d
    e = L_loc[q]
    d1 = d + 1
    full = cost <= L_mp[q]
    m = cost if full else L_mp[q]
    rem = cost - m
    v = L_val[q]
    ld = L_load[q]
    n = 0
    npk = L_npk[q]
    for i in range(npk):
        L_pk[d1, i] = L_pk[q, i]
    L_bm[d1, 0] = L_bm[q, 0]
    L_bm[d1, 1] = L_bm[q, 1]
    wp = w[PW_PROG]
    # carried passengers: keep, or set down at e when the leg takes them away
    for i in range(L_nab[q]):
        c = L_abf[q, i]
        dd = spec[P_CDEST + c]
        if e >= 0:
            t0 = TD[e, dd]
        else:
            t0 = DF[NA, dd]
        t1 = rem + TD[s, dd]
        if t0 + m < t1:
            t1 = t0 + m
        g = t0 - t1
        if (e >= 0 and g < 0 and L_abp[q, i] != e and st[C_VIPK + c] == 0 and npk < 15):
            L_pk[d1, npk] = pk_setdown(c, e)
            npk += 1
            ld -= seats_needed(st, c)
            continue
        L_abf[d1, n] = c
        L_abp[d1, n] = L_abp[q, i]
        n += 1
        v += wp * g
    # boarding at e for this leg, best first
    if e >= 0:
        inround = L_mp[q] >= w[PW_HORIZON]
        while n < 7 and npk < 15:
            bc = -1
            bs = 0.0
            for i in range(nwl[e]):
                c = wl[e, i]
                if not _waits(taken, rel, c, e):
                    continue
                if not _relay_ready(rel, c, L_mp[0] - L_mp[q]):
                    continue  # a relay not yet set down when this plane is here
                # boarded (or boarded and set down again) in this plan: a waiting card is never
                # aboard, so its set-down implies its boarding
                if (L_bm[d1, c >> 6] >> (c & 63)) & 1:
                    continue
                dd = spec[P_CDEST + c]
                t0 = TD[e, dd]
                t1 = rem + TD[s, dd]
                if t0 + m < t1:
                    t1 = t0 + m
                g = wp * (t0 - t1)
                a = st[C_ANGER + c] if rel[c] == 0 else 0
                sc = g + w[PW_ANGER] * a
                if a >= last and inround:
                    sc += w[PW_CRIT]
                if sc > bs:
                    bs = sc
                    bc = c
            if bc < 0:
                break
            need = seats_needed(st, bc)
            if ld + need > cap:
                # swap: set down the carried passenger worth least on this leg (not boarded here)
                if need != 1:
                    break
                wi = -1
                wk = 1e18
                for i in range(n):
                    x = L_abf[d1, i]
                    if L_abp[d1, i] == e or st[C_VIPK + x] != 0:
                        continue
                    dd = spec[P_CDEST + x]
                    t1 = rem + TD[s, dd]
                    if TD[e, dd] + m < t1:
                        t1 = TD[e, dd] + m
                    kv = wp * (TD[e, dd] - t1)
                    if kv < wk:
                        wk = kv
                        wi = i
                if wi < 0 or wk + w[PW_PICK] >= bs:
                    break
                x = L_abf[d1, wi]
                L_pk[d1, npk] = pk_setdown(x, e)
                npk += 1
                n -= 1
                L_abf[d1, wi] = L_abf[d1, n]
                L_abp[d1, wi] = L_abp[d1, n]
                ld -= 1
                v -= wk
                if npk >= 15:
                    break
            L_pk[d1, npk] = bc if rel[bc] == 0 else pk_relay(bc)
            npk += 1
            L_bm[d1, bc >> 6] |= np.int64(1) << (bc & 63)
            L_abf[d1, n] = bc
            L_abp[d1, n] = e
            n += 1
            ld += need
            v += bs
    # the leg: arrive at s and deliver
    if full:
        L_loc[d1] = s
        L_mp[d1] = L_mp[q] - cost
        k = 0
        for i in range(n):
            c = L_abf[d1, i]
            if spec[P_CDEST + c] == s:
                v += w[PW_DELIVER] + w[PW_FARE] * spec[P_CFARE + c]
                ld -= seats_needed(st, c)
            else:
                L_abf[d1, k] = c
                L_abp[d1, k] = L_abp[d1, i]
                k += 1
        n = k
    else:
        L_loc[d1] = e
        L_mp[d1] = 0
    L_nab[d1] = n
    L_npk[d1] = npk
    L_load[d1] = ld
    L_val[d1] = v
    return full


@inline_kernel
def _level_mask2(spec, L_nab, L_abf, d, wmask, e, wl, nwl, taken, rel):
    """Airports worth a leg from progress-mode level d at airport ``e`` (-1: on a route):
    ``wmask``, a destination aboard, or the destination of a passenger waiting at e (boarded
    for the leg)."""
    m = wmask
    for i in range(L_nab[d]):
        m |= 1 << spec[P_CDEST + L_abf[d, i]]
    if e >= 0:
        for i in range(nwl[e]):
            c = wl[e, i]
            if _waits(taken, rel, c, e):
                m |= 1 << spec[P_CDEST + c]
    return m


@inline_kernel
def _cover_value(st, spec, w, p, e, m, h, nce, ce, cx, c2, L_bm, d, DF):
    """``cover`` per passenger at its next-to-last cube (not taken, not covered, not boarded in
    this plan) within next round's speed of the plane's end: at ``e`` (-1 = its current spot),
    having flown ``m`` more points toward ``h`` (-1 none). ``ce[:nce]``: the crl cards neither
    taken nor covered, in crl order, ``cx`` their airports, ``c2`` 1 below the next-to-last
    cube (cover2); ``L_bm[d]``: the cards boarded in this plan (see ``_leg``); ``DF``: plane p's
    distances (``plan_plane2``)."""
    reach = st[pb(p) + SE_SPEED]
    cap = st[pb(p) + SE_SEATS] + (1 if st[S_TSEAT] == p else 0)
    nc = 0
    rem = 0
    er = e if e >= 0 else NA
    if h >= 0:
        deh = DF[er, h]
        rem = deh - m if deh > m else 0
    v = 0.0
    for i in range(nce):
        c = ce[i]
        if w[PW_COVERCAP] > 0 and nc >= cap:
            break
        if (L_bm[d, c >> 6] >> (c & 63)) & 1:
            continue
        x = cx[i]
        dx = DF[er, x]
        if h >= 0:
            alt = rem + DF[h, x]
            dx = dx + m if dx + m < alt else alt
        if c2[i] != 0:
            if dx <= 2 * reach:
                v += w[PW_COVER2]
                nc += 1
        elif dx <= reach:
            v += w[PW_COVER]
            nc += 1
    return v


@leaf_kernel
def plan_plane2(st, spec, w, p, TD, wl, nwl, ncl, crl, taken, covered, rel, best_stops, best_pk, best_h, S):
    """Progress-mode itinerary of plane p (see the section comment): depth-first over up to
    PLN_MAXS full legs, each level ending either there or with a partial leg (heading). Writes the
    stops into best_stops[PLN_MAXS+1] (-1 ends; the start airport is not a stop), the boardings
    (card) and set-downs (``pk_setdown``) into best_pk[16], the heading into best_h[0].
    ``S``: the DFS scratch (``plan_scratch``). Returns (gain over the best plan that stays put,
    its value)."""
    b = pb(p)
    last = spec[P_ANGER_LIMIT] - 1
    cap = st[b + SE_SEATS] + (1 if st[S_TSEAT] == p else 0)
    L_loc, L_mp, L_val, L_load, L_nab, L_abd, L_abf, L_abp, L_npk, L_pk, L_vis, stops, it, msk, L_bm, ce, cx, c2, DF = S
    here = st[b + SE_AIR]
    # the plane's distances: DF[u, v] from airport u, DF[NA, v] from where it is now
    for u in range(NA):
        for x in range(NA):
            DF[u, x] = airport_dist(st, p, u, x)
    for x in range(NA):
        DF[NA, x] = plane_dist(st, spec, p, x)
    L_loc[0] = here
    L_bm[0, 0] = 0
    L_bm[0, 1] = 0
    L_mp[0] = st[b + SE_SPLEFT] + int(w[PW_HORIZON])
    L_val[0] = 0.0
    L_load[0] = st[b + SE_LOAD]
    n = 0
    for i in range(st[S_NACTIVE]):
        c = st[ACTIVE + i]
        if st[C_PLACE + c] == PL_PLANE and st[C_WHERE + c] == p and n < 8:
            L_abf[0, n] = c
            L_abp[0, n] = st[C_PICK + c]
            n += 1
    L_nab[0] = n
    L_npk[0] = 0
    for i in range(PLN_MAXS + 1):
        best_stops[i] = -1
    for i in range(16):
        best_pk[i] = -1
    best_h[0] = -1
    wmask = 0
    for a in range(NA):
        for i in range(nwl[a]):
            if _waits(taken, rel, wl[a, i], a):
                wmask |= 1 << a
                break
    hbase = wmask
    nce = 0
    for i in range(ncl):
        c = crl[i]
        if taken[c] == 0 and covered[c] == 0:
            hbase |= 1 << st[C_WHERE + c]
            ce[nce] = c
            cx[nce] = st[C_WHERE + c]
            c2[nce] = 1 if st[C_ANGER + c] < last - 1 else 0
            nce += 1
    # staying put: the cards aboard where they are
    base = _cover_value(st, spec, w, p, here, 0, -1, nce, ce, cx, c2, L_bm, 0, DF)
    best = base
    it[0] = 0
    L_vis[0] = 0
    d = 0
    msk[0] = _level_mask2(spec, L_nab, L_abf, 0, hbase, here, wl, nwl, taken, rel)
    while d >= 0:
        s = it[d]
        if s >= NA or d >= PLN_MAXS:
            d -= 1
            continue
        it[d] = s + 1
        if (msk[d] >> s) & 1 == 0 or spec[P_AIRIN + s] == 0 or s == L_loc[d] or L_mp[d] <= 0 or (L_vis[d] >> s) & 1:
            continue
        cost = DF[L_loc[d] if L_loc[d] >= 0 else NA, s]
        if cost >= INF or cost <= 0:
            continue
        full = _leg(st, spec, w, p, TD, d, s, cost, last, wl, nwl, taken, rel, L_loc, L_mp, L_val, L_load,
                    L_nab, L_abf, L_abp, L_npk, L_pk, L_bm, cap, DF)
        d1 = d + 1
        # approach: the waiting passengers at s the free seats can take next round (``pick`` each,
        # by the share of the way flown)
        free = cap - L_load[d1]
        nw = 0
        for i in range(nwl[s]):
            c = wl[s, i]
            if _waits(taken, rel, c, s) and (L_bm[d1, c >> 6] >> (c & 63)) & 1 == 0:
                nw += 1
        if nw > free:
            nw = free
        appr = w[PW_PICK] * nw if nw > 0 else 0.0
        if full:
            v = L_val[d1] + appr + _cover_value(st, spec, w, p, s, 0, -1, nce, ce, cx, c2, L_bm, d1, DF)
        else:
            v = L_val[d1] + appr * L_mp[d] / cost + _cover_value(st, spec, w, p, L_loc[d], L_mp[d], s, nce, ce,
                                                                   cx, c2, L_bm, d1, DF)
        if v > best:
            best = v
            for i in range(PLN_MAXS + 1):
                best_stops[i] = -1
            k = 0
            for i in range(1, d + 1):
                best_stops[k] = stops[i]
                k += 1
            if full:
                best_stops[k] = s
                best_h[0] = -1
            else:
                best_h[0] = s
            for j in range(16):
                best_pk[j] = L_pk[d1, j] if j < L_npk[d1] else -1
        if full:
            stops[d1] = s
            L_vis[d1] = L_vis[d] | (1 << s)
            d = d1
            it[d] = 0
            msk[d] = _level_mask2(spec, L_nab, L_abf, d, hbase, s, wl, nwl, taken, rel)
    return best - base, best


@leaf_kernel
def _planned_later(st, p, d):
    """True when airport d is one of plane p's stops still ahead this round."""
    for i in range(st[PLN_I + p], st[PLN_N + p]):
        if st[PLN_STOP + p * PLN_MAXS + i] == d:
            return True
    return False


@leaf_kernel
def _next_target(st, p):
    """Airport plane p flies toward next under its plan: its next stop, else its heading (-1)."""
    i = st[PLN_I + p]
    if i < st[PLN_N + p]:
        return st[PLN_STOP + p * PLN_MAXS + i]
    return st[PLN_HEAD + p]


@leaf_kernel
def _reserved(st, spec, p, here):
    """Seats plane p keeps free for the passengers planned for it at later stops (not ``here``)."""
    r = 0
    for i in range(st[S_NACTIVE]):
        c = st[ACTIVE + i]
        if st[C_PLACE + c] == PL_WAIT and st[C_ASSIGN + c] == p + 1 and st[C_WHERE + c] != here:
            r += seats_needed(st, c)
    return r


@leaf_kernel
def planner_step(st, spec, p, w, ev, evn):
    """One pass step of plane p under the planner (see ``plane_step``): at an airport deliver,
    set down the passengers planned to wait here and (``offload``) those the rest of its plan
    does not bring closer to their destination (they wait with no cubes, for a relay), board the
    passengers planned for it here, then (``reset``) any passenger with that many cubes into the
    seats its plan leaves free (boarding removes the cubes: RB "Recoger pasajeros"); once its stops
    are done it also boards any unplanned passenger with anger that fits. Then it flies one hop
    toward its next stop or heading. True when anything changed."""
    b = pb(p)
    changed = False
    here = st[b + SE_AIR]
    if here >= 0 and st[b + SE_ACTLEFT] > 0:
        if deliver_all(st, spec, p, ev, evn) > 0:
            changed = True
        i = st[PLN_I + p]
        if i < st[PLN_N + p] and st[PLN_STOP + p * PLN_MAXS + i] == here:
            st[PLN_I + p] = i + 1
            changed = True
        t = _next_target(st, p)
        moving = t >= 0 and t != here and st[b + SE_SPLEFT] > 0
        i = st[S_NACTIVE] - 1
        while i >= 0:
            c = st[ACTIVE + i]
            i -= 1
            if st[C_PLACE + c] != PL_PLANE or st[C_WHERE + c] != p or not can_drop(st, spec, p, c):
                continue
            if st[C_DROPAT + c] > 0 and st[C_DROPAT + c] % RELAY_AT == here + 1:
                do_drop(st, spec, p, c, ev, evn)
                st[C_ASSIGN + c] = st[C_DROPAT + c] // RELAY_AT  # a relay: the plane planned to board it
                st[C_DROPAT + c] = 0
                changed = True
                continue
            if w[PW_OFFLOAD] > 0.5 and moving and st[C_VIPK + c] == 0:
                d = spec[P_CDEST + c]
                if not _planned_later(st, p, d) and airport_dist(st, p, t, d) >= airport_dist(st, p, here, d):
                    do_drop(st, spec, p, c, ev, evn)
                    changed = True
        progress = True
        while progress:
            progress = False
            for i in range(st[S_NACTIVE]):
                c = st[ACTIVE + i]
                if st[C_PLACE + c] == PL_WAIT and st[C_WHERE + c] == here and st[C_ASSIGN + c] == p + 1:
                    if can_pickup(st, spec, p, c) > 0:
                        do_pickup(st, spec, p, c, ev, evn)
                        st[C_ASSIGN + c] = 0
                        changed = True
                        progress = True
                        break
        if w[PW_RESET] > 0 and moving:
            room = st[b + SE_SEATS] - st[b + SE_LOAD] - _reserved(st, spec, p, here)
            while room > 0:
                bc = -1
                bk = 0
                for i in range(st[S_NACTIVE]):
                    c = st[ACTIVE + i]
                    if (st[C_PLACE + c] == PL_WAIT and st[C_WHERE + c] == here and st[C_ASSIGN + c] == 0
                            and st[C_ANGER + c] >= w[PW_RESET] and seats_needed(st, c) <= room
                            and can_pickup(st, spec, p, c) == 1):
                        k = _pick_key(st, spec, c, spec[P_ANGER_LIMIT] - 1)
                        if k > bk:
                            bk = k
                            bc = c
                if bc < 0:
                    break
                room -= seats_needed(st, bc)
                do_pickup(st, spec, p, bc, ev, evn)
                changed = True
        if st[PLN_I + p] >= st[PLN_N + p] and (st[PLN_HEAD + p] < 0 or st[PLN_HEAD + p] == here
                                                or st[b + SE_SPLEFT] == 0):
            progress = True
            while progress:
                progress = False
                bc = -1
                bk = 0
                for i in range(st[S_NACTIVE]):
                    c = st[ACTIVE + i]
                    if (st[C_PLACE + c] == PL_WAIT and st[C_WHERE + c] == here and st[C_ASSIGN + c] == 0
                            and st[C_ANGER + c] > 0 and can_pickup(st, spec, p, c) == 1):
                        k = _pick_key(st, spec, c, spec[P_ANGER_LIMIT] - 1)
                        if k > bk:
                            bk = k
                            bc = c
                if bc >= 0:
                    do_pickup(st, spec, p, bc, ev, evn)
                    changed = True
                    progress = True
    if st[b + SE_SPLEFT] > 0 or st[S_TSPEED] == p:
        t = _next_target(st, p)
        if t >= 0 and fly_hop(st, spec, p, t, ev, evn) > 0:
            changed = True
    return changed
