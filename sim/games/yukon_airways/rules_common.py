"""Yukon Airways rules, the helpers every phase uses: accessors of the flat state, the counters
(layout: H_DOCK_DICE, SE_ABOARD .. SE_FUEL_N), money, cards, cockpit improvements and dice.

One of the rules modules split by rulebook phase (issue 32); ``rules.py`` re-exports every
function, so ``from sim.games.yukon_airways.rules import X`` keeps working. Layout and
encodings: ``layout.py``; decisions on ambiguities: ``RULES.md``.
"""

from __future__ import annotations

from sim.games.engine import emit, leaf_kernel, roll
from sim.games.yukon_airways.layout import (
    DP_PLANE,
    E_DRAW,
    E_RESHUFFLE,
    E_ROLL,
    E_STARVED,
    H_DECK_N,
    H_DISC_N,
    H_DOCK_DICE,
    H_MONEY_IN,
    H_MONEY_OUT,
    H_RESHUF,
    H_STARVED,
    H_TURN,
    NCOL,
    NCOLG,
    NDIAL,
    NDOCK,
    NIMP,
    NSYM,
    P_FUELMAX,
    P_L,
    P_NDICE,
    P_NT,
    P_OFF_COCKPIT,
    P_OFF_DDOWN,
    P_OFF_DECK,
    P_OFF_DIE,
    P_OFF_DISC,
    P_OFF_HAND,
    P_OFF_MAP,
    P_OFF_SEAT,
    P_OFF_TABLE,
    P_OFF_TDOWN,
    P_S,
    P_TWO_COLOUR_SW,
    SE_AB_COL,
    SE_ABOARD,
    SE_CARDS_IN,
    SE_DIAL,
    SE_FUEL,
    SE_FUEL_N,
    SE_HAND_N,
    SE_IMP,
    SE_LOC,
    SE_MONEY,
    SE_SPENT,
    SE_SW,
    SW,
    SW_TWO_COLOURS,
    SYM_FUEL,
)
from sim.rng import CHANCE, shuffle


# ---- accessors ----------------------------------------------------------------------------------
@leaf_kernel
def se(p, s, f):
    """Offset of field ``f`` (SE_*) of seat ``s``'s record."""
    return p[P_OFF_SEAT] + s * SW + f


@leaf_kernel
def hand_at(p, s, t):
    """Offset of the count of card type ``t`` in seat ``s``'s hand."""
    return p[P_OFF_HAND] + s * p[P_NT] + t


@leaf_kernel
def table_at(p, s, t):
    """Offset of the count of card type ``t`` seat ``s`` played this round."""
    return p[P_OFF_TABLE] + s * p[P_NT] + t


@leaf_kernel
def tdown_at(p, s, t):
    """Offset of the count of card type ``t`` seat ``s`` played face down this round (RB
    Flugphase a: "drei beliebige verdeckte Karten"; included in ``table_at``'s count)."""
    return p[P_OFF_TDOWN] + s * p[P_NT] + t


@leaf_kernel
def die_at(p, d):
    """Offset of die ``d``'s (place, seat) pair."""
    return p[P_OFF_DIE] + 2 * d


@leaf_kernel
def map_at(p, l, c):
    """Offset of the count of colour ``c`` markers on location ``l``."""
    return p[P_OFF_MAP] + l * NCOL + c


@leaf_kernel
def cockpit_at(p, s, l, c):
    """Offset of seat ``s``'s markers of colour ``c`` (GREY = grey) on location ``l`` of its map."""
    return p[P_OFF_COCKPIT] + (s * p[P_L] + l) * NCOLG + c


@leaf_kernel
def dial_value(state, spec, s, d):
    """Value of seat ``s``'s dial ``d`` (D_*) at its current step (RB Appendix Anzeigen)."""
    p = spec[0]
    dials = spec[4]
    return dials[d, 1 + state[se(p, s, SE_DIAL + d)]]


@leaf_kernel
def switch_on(state, spec, s, j):
    """1 when seat ``s``'s switch ``j`` (SW_*) is on (RB Appendix Schalter)."""
    return state[se(spec[0], s, SE_SW + j)]


@leaf_kernel
def hand_total(state, spec, s):
    """Ticket cards in seat ``s``'s hand (the counter SE_HAND_N)."""
    return state[se(spec[0], s, SE_HAND_N)]


@leaf_kernel
def aboard(state, spec, s):
    """Dice aboard seat ``s``'s plane (the counter SE_ABOARD)."""
    return state[se(spec[0], s, SE_ABOARD)]


@leaf_kernel
def aboard_colour(state, spec, s, c):
    """Dice of colour ``c`` aboard seat ``s``'s plane (the counter SE_AB_COL + c)."""
    return state[se(spec[0], s, SE_AB_COL + c)]


@leaf_kernel
def dock_colour(state, spec, k, c):
    """Dice of colour ``c`` on dock ``k`` (0-based; the counter block H_DOCK_DICE)."""
    return state[H_DOCK_DICE + k * NCOL + c]


# ---- counters (layout: H_DOCK_DICE, SE_ABOARD .. SE_FUEL_N) ---------------------------------------
@leaf_kernel
def hand_add(state, p, s, t, n):
    """Add ``n`` (+1 or -1) cards of type ``t`` to seat ``s``'s hand, with its counters."""
    state[hand_at(p, s, t)] += n
    state[se(p, s, SE_HAND_N)] += n
    if t % NSYM == SYM_FUEL:
        state[se(p, s, SE_FUEL_N)] += n


@leaf_kernel
def dock_add(state, k, c, n):
    """Count ``n`` (+1 or -1) dice of colour ``c`` on dock ``k``."""
    state[H_DOCK_DICE + k * NCOL + c] += n


@leaf_kernel
def aboard_add(state, p, s, c, n):
    """Count ``n`` (+1 or -1) dice of colour ``c`` aboard seat ``s``'s plane."""
    state[se(p, s, SE_ABOARD)] += n
    state[se(p, s, SE_AB_COL + c)] += n


@leaf_kernel
def recount_fuel_cards(state, spec, s):
    """Set seat ``s``'s counter SE_FUEL_N from its hand."""
    p = spec[0]
    n = 0
    for l in range(p[P_L]):
        n += state[hand_at(p, s, l * NSYM + SYM_FUEL)]
    state[se(p, s, SE_FUEL_N)] = n


@leaf_kernel
def recount(state, spec):
    """Set every counter (H_DOCK_DICE, and per seat SE_ABOARD, SE_AB_COL, SE_HAND_N,
    SE_FUEL_N) from the die places and the hands: their definition. The rules keep them
    up to date move by move; ``check_invariants`` compares them with this recount, and the
    scenario builders (``state.GameState``) call it after moving dice or cards by hand."""
    p = spec[0]
    dcol = spec[8]
    for i in range(NDOCK * NCOL):
        state[H_DOCK_DICE + i] = 0
    for s in range(p[P_S]):
        state[se(p, s, SE_ABOARD)] = 0
        for c in range(NCOL):
            state[se(p, s, SE_AB_COL + c)] = 0
        n = 0
        for t in range(p[P_NT]):
            n += state[hand_at(p, s, t)]
        state[se(p, s, SE_HAND_N)] = n
        recount_fuel_cards(state, spec, s)
    for d in range(p[P_NDICE]):
        pl = state[die_at(p, d)]
        if pl < NDOCK:
            dock_add(state, pl, dcol[d], 1)
        elif pl == DP_PLANE:
            aboard_add(state, p, state[die_at(p, d) + 1], dcol[d], 1)


@leaf_kernel
def fuel_cost(state, spec, s, dest):
    """Fuel of a flight of seat ``s`` from where its plane is to ``dest``: the summed signs of
    the cheapest route (RB Flugphase d)."""
    return spec[1][state[se(spec[0], s, SE_LOC)], dest]


# ---- money, cards, improvements -----------------------------------------------------------------
@leaf_kernel
def pay(state, spec, s, amount, source):
    """The bank pays seat ``s`` ``amount`` dollars, booked under ``source`` (SE_M_*)."""
    p = spec[0]
    state[se(p, s, SE_MONEY)] += amount
    state[se(p, s, source)] += amount
    state[H_MONEY_IN] += amount


@leaf_kernel
def charge(state, spec, s, amount):
    """Seat ``s`` pays the bank ``amount`` dollars (die moves, dock 6)."""
    p = spec[0]
    state[se(p, s, SE_MONEY)] -= amount
    state[se(p, s, SE_SPENT)] += amount
    state[H_MONEY_OUT] += amount


@leaf_kernel
def add_fuel(state, spec, s, n):
    """Move seat ``s``'s fuel needle ``n`` to the right, no further than the tank (RN 4.1)."""
    p = spec[0]
    o = se(p, s, SE_FUEL)
    state[o] = min(state[o] + n, p[P_FUELMAX])


@leaf_kernel
def redeal(state, spec, seat, rng, tmp):
    """Re-deal what seat ``seat`` cannot see (for a look-ahead simulation; not a rule of
    play). RB Vorbereitung: the tickets are dealt face down and "kept secret from the other
    players", the rest is the draw pile. The unseen tickets (the draw pile and every other
    seat's hand) are collected sorted by card type (a canonical order), shuffled with ``rng``'s
    CHANCE stream and dealt back: every other hand keeps its number of tickets, the draw pile
    its size. The other seats' face-down tickets (RB Flugphase a: "verdeckte Karten"), on the
    table this day and in the discard pile (``P_OFF_DDOWN``), are unseen too: they join the
    pool and are dealt back into the same places (per seat and type count on the table, per
    slot in the discard pile). The face-up discards stay as they are (RULES.md "Policies").
    ``tmp`` int32[NT + NCARDS] scratch."""
    p = spec[0]
    S = p[P_S]
    NT = p[P_NT]
    d0 = p[P_OFF_DECK]
    dn = state[H_DECK_N]
    for t in range(NT):
        tmp[t] = 0
    for i in range(dn):
        tmp[state[d0 + i]] += 1
    for o in range(S):
        if o != seat:
            for t in range(NT):
                tmp[t] += state[hand_at(p, o, t)] + state[tdown_at(p, o, t)]
    x0 = p[P_OFF_DISC]
    y0 = p[P_OFF_DDOWN]
    nd = state[H_DISC_N]
    for i in range(nd):
        if state[y0 + i] > 0 and state[y0 + i] != seat + 1:
            tmp[state[x0 + i]] += 1
    m = 0
    for t in range(NT):
        for _ in range(tmp[t]):
            tmp[NT + m] = t
            m += 1
    shuffle(tmp, NT, NT + m, rng, CHANCE)
    k = NT
    for o in range(S):
        if o != seat:
            h = 0
            for t in range(NT):
                h += state[hand_at(p, o, t)]
                state[hand_at(p, o, t)] = 0
            for _ in range(h):
                state[hand_at(p, o, tmp[k])] += 1
                k += 1
            recount_fuel_cards(state, spec, o)  # the hand keeps its size (SE_HAND_N)
    for o in range(S):
        if o != seat:
            h = 0
            for t in range(NT):
                h += state[tdown_at(p, o, t)]
                state[table_at(p, o, t)] -= state[tdown_at(p, o, t)]
                state[tdown_at(p, o, t)] = 0
            for _ in range(h):
                state[tdown_at(p, o, tmp[k])] += 1
                state[table_at(p, o, tmp[k])] += 1
                k += 1
    for i in range(nd):
        if state[y0 + i] > 0 and state[y0 + i] != seat + 1:
            state[x0 + i] = tmp[k]
            k += 1
    for i in range(dn):
        state[d0 + i] = tmp[k]
        k += 1


@leaf_kernel
def draw_card(state, spec, s, rng, ev, evn):
    """Seat ``s`` draws the top ticket card (RB Wartungsphase c, Steg 2, order cards); an
    empty draw pile is refilled by shuffling the discard pile. Returns 1, or 0 when both
    piles are empty (a starved draw)."""
    p = spec[0]
    if state[H_DECK_N] == 0:
        nd = state[H_DISC_N]
        if nd == 0:
            return 0
        for i in range(nd):
            state[p[P_OFF_DECK] + i] = state[p[P_OFF_DISC] + i]
            state[p[P_OFF_DDOWN] + i] = 0
        state[H_DECK_N] = nd
        state[H_DISC_N] = 0
        shuffle(state, p[P_OFF_DECK], p[P_OFF_DECK] + nd, rng, CHANCE)
        state[H_RESHUF] += 1
        emit(ev, evn, state[H_TURN], s, E_RESHUFFLE, nd, 0, 0, 0, 0)
    n = state[H_DECK_N] - 1
    t = state[p[P_OFF_DECK] + n]
    state[H_DECK_N] = n
    hand_add(state, p, s, t, 1)
    state[se(p, s, SE_CARDS_IN)] += 1
    return 1


@leaf_kernel
def draw_cards(state, spec, s, k, rng, ev, evn):
    """Seat ``s`` draws ``k`` cards; counts one starved draw when the piles run dry."""
    got = 0
    for _ in range(k):
        got += draw_card(state, spec, s, rng, ev, evn)
    if got < k:
        state[H_STARVED] += 1
        emit(ev, evn, state[H_TURN], s, E_STARVED, k - got, 0, 0, 0, 0)
    if k > 0:
        emit(ev, evn, state[H_TURN], s, E_DRAW, got, hand_total(state, spec, s), 0, 0, 0)


@leaf_kernel
def discard_card(state, spec, t):
    """Put one card of type ``t`` on the discard pile."""
    p = spec[0]
    state[p[P_OFF_DISC] + state[H_DISC_N]] = t
    state[p[P_OFF_DDOWN] + state[H_DISC_N]] = 0
    state[H_DISC_N] += 1


@leaf_kernel
def discard_face_down(state, spec, t, s):
    """Put one card of type ``t`` seat ``s`` played face down (RB Flugphase a: "verdeckte
    Karten") on the discard pile, face down: it stays ``s``'s secret (``P_OFF_DDOWN``)."""
    discard_card(state, spec, t)
    state[spec[0][P_OFF_DDOWN] + state[H_DISC_N] - 1] = s + 1


@leaf_kernel
def lay_face_down(state, spec, s, t):
    """Seat ``s`` lays one card of type ``t`` from its hand face down on the flight being loaded
    (RB Flugphase a: "drei beliebige verdeckte Karten"; which cards is the seat's choice,
    ``legal_actions`` step facedown, RULES.md S1)."""
    p = spec[0]
    hand_add(state, p, s, t, -1)
    state[table_at(p, s, t)] += 1
    state[tdown_at(p, s, t)] += 1


@leaf_kernel
def burn_card(state, spec, s, t):
    """Seat ``s`` burns one card of type ``t`` from its hand as fuel: it goes to the discard
    pile (RB Appendix Anzeigen: "wie viele Ticketkarten man in Treibstoff umwandeln kann"; which
    cards is the seat's choice, ``legal_actions`` step burn, RULES.md S1)."""
    hand_add(state, spec[0], s, t, -1)
    discard_card(state, spec, t)


@leaf_kernel
def improvable(state, spec, s, kind):
    """True when seat ``s`` can take improvement ``kind``: a dark dial below its last step or
    a switch still off (RB Flugphase e; Appendix)."""
    p = spec[0]
    dials = spec[4]
    if kind < NDIAL:
        return state[se(p, s, SE_DIAL + kind)] + 1 < dials[kind, 0]
    j = kind - NDIAL
    if j == SW_TWO_COLOURS and p[P_TWO_COLOUR_SW] == 0:
        return False
    return state[se(p, s, SE_SW + j)] == 0


@leaf_kernel
def any_improvable(state, spec, s):
    """True when seat ``s`` has an improvement left to take."""
    for k in range(NIMP):
        if improvable(state, spec, s, k):
            return True
    return False


@leaf_kernel
def improve(state, spec, s, kind, counted):
    """Seat ``s`` takes improvement ``kind`` (a dial one step right, or a switch on); counted
    in the statistics unless it is the seaplane card's starting improvement."""
    p = spec[0]
    if kind < NDIAL:
        state[se(p, s, SE_DIAL + kind)] += 1
    else:
        state[se(p, s, SE_SW + kind - NDIAL)] = 1
    if counted:
        state[se(p, s, SE_IMP + kind)] += 1


# ---- dice (RB Vorbereitung, Wartungsphase a) --------------------------------------------------
@leaf_kernel
def roll_die_to_dock(state, spec, d, rng, rig_dice, ev, evn):
    """Roll die ``d`` and lay it on the dock of its face (RB Vorbereitung, Wartungsphase a).
    The die comes from a ticket, from set-up (not counted anywhere yet) or, when the caller
    has taken it off a plane's counters, from a plane."""
    p = spec[0]
    f = roll(rng, CHANCE, NDOCK, rig_dice)
    state[die_at(p, d)] = f - 1
    state[die_at(p, d) + 1] = -1
    dock_add(state, f - 1, spec[8][d], 1)
    emit(ev, evn, state[H_TURN], -1, E_ROLL, d, f, 0, 0, 0)
