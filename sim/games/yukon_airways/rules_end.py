"""Yukon Airways rules, game end (RB Spielende): the final scoring and the winner.

One of the rules modules split by rulebook phase (issue 32); ``rules.py`` re-exports every
function, so ``from sim.games.yukon_airways.rules import X`` keeps working. Layout and
encodings: ``layout.py``; decisions on ambiguities: ``RULES.md``.
"""

from __future__ import annotations

from sim.games.engine import emit, leaf_kernel
from sim.games.yukon_airways.layout import (
    D_CHRISTMAS,
    E_END,
    E_END_MONEY,
    H_OVER,
    H_SHARED,
    H_STEP,
    H_TIED,
    H_TURN,
    H_WINNER,
    NCOL,
    NCOLG,
    P_L,
    P_MARKER_MONEY,
    P_S,
    P_TIE,
    SE_FUEL,
    SE_M_CHRISTMAS,
    SE_M_SWITCH,
    SE_M_VISITED,
    SE_MONEY,
    SE_RANK,
    STEP_OVER,
    SW_MARKER_MONEY,
)
from sim.games.yukon_airways.rules_common import cockpit_at, dial_value, pay, se, switch_on


# ---- game end (RB Spielende) ----------------------------------------------------------------------
@leaf_kernel
def end_game(state, spec, ev, evn):
    """RB Spielende: the Christmas dial's money, the marker_money switch ($ per marker of the
    colour one holds most of, ASSUMPTION RN 10.8), the visited-locations table (distinct
    locations on the cockpit map); most money wins. Ties (D12): tie_break = fuel gives the
    win to the most fuel left, then shares it; shared: always shared. Ranks: 1 + seats
    strictly ahead."""
    p = spec[0]
    S = p[P_S]
    for s in range(S):
        christmas, switch, k, table = end_money(state, spec, s)
        pay(state, spec, s, christmas, SE_M_CHRISTMAS)
        if switch_on(state, spec, s, SW_MARKER_MONEY) == 1:
            pay(state, spec, s, switch, SE_M_SWITCH)
        pay(state, spec, s, table, SE_M_VISITED)
        emit(ev, evn, state[H_TURN], s, E_END_MONEY, state[se(p, s, SE_M_CHRISTMAS)], state[se(p, s, SE_M_SWITCH)],
             k, state[se(p, s, SE_M_VISITED)], state[se(p, s, SE_MONEY)])
    top = -1
    ntop = 0
    for s in range(S):
        m = state[se(p, s, SE_MONEY)]
        if m > top:
            top = m
            ntop = 1
        elif m == top:
            ntop += 1
    state[H_TIED] = 1 if ntop > 1 else 0
    nfirst = 0
    first = -1
    for s in range(S):
        better = 0
        for o in range(S):
            if o != s and ahead(state, spec, o, s):
                better += 1
        state[se(p, s, SE_RANK)] = 1 + better
        if better == 0:
            nfirst += 1
            first = s
    if nfirst == 1:
        state[H_WINNER] = first
        state[H_SHARED] = 0
    else:
        state[H_WINNER] = -1
        state[H_SHARED] = 1
    state[H_OVER] = 1
    state[H_STEP] = STEP_OVER
    emit(ev, evn, state[H_TURN], state[H_WINNER], E_END, top, ntop, state[H_SHARED], 0, 0)


@leaf_kernel
def end_money(state, spec, s):
    """What the final scoring (RB Spielende, :func:`end_game`) would pay seat ``s`` in the
    position ``state``: (the Christmas dial's money, the marker_money switch's money (0 when
    the switch is off), the distinct locations visited, the visited-locations table's money)."""
    p = spec[0]
    visited = spec[6]
    L = p[P_L]
    switch = 0
    if switch_on(state, spec, s, SW_MARKER_MONEY) == 1:
        best = 0
        for c in range(NCOL):
            n = 0
            for l in range(L):
                n += state[cockpit_at(p, s, l, c)]
            if n > best:
                best = n
        switch = best * p[P_MARKER_MONEY]
    k = visited_locations(state, p, s)
    return dial_value(state, spec, s, D_CHRISTMAS), switch, k, visited[min(k, visited.shape[0] - 1)]


@leaf_kernel
def visited_locations(state, p, s):
    """The distinct locations on seat ``s``'s cockpit map (RB Spielende's visited-locations
    table counts them; the result column ``visited``)."""
    L = p[P_L]
    k = 0
    for l in range(L):
        m = 0
        for c in range(NCOLG):
            m += state[cockpit_at(p, s, l, c)]
        if m > 0:
            k += 1
    return k


@leaf_kernel
def score_now(state, spec, s):
    """Seat ``s``'s progress for tension (RULES.md "Tension"): its money, plus what the final
    scoring would pay it now (:func:`end_money`) while the game runs."""
    m = state[se(spec[0], s, SE_MONEY)]
    if state[H_STEP] == STEP_OVER:
        return m
    christmas, switch, _k, table = end_money(state, spec, s)
    return m + christmas + switch + table


@leaf_kernel
def ahead(state, spec, a, b):
    """True when seat ``a`` finishes ahead of seat ``b``: more money, or (tie_break = fuel)
    equal money and more fuel left (D12)."""
    p = spec[0]
    ma = state[se(p, a, SE_MONEY)]
    mb = state[se(p, b, SE_MONEY)]
    if ma != mb:
        return ma > mb
    if p[P_TIE] == 0:
        return state[se(p, a, SE_FUEL)] > state[se(p, b, SE_FUEL)]
    return False
