"""Yukon Airways rules as ``@kernel`` functions: set-up, legal actions, apply (with the
automation the rulebook runs by itself: refuel, the new turn order, income, maintenance, the
end of the game), the winner and the invariants. Layout and encodings: ``layout.py``;
decisions on ambiguities: ``RULES.md``. No policy code here.

The spec tuple is ``(p, dist, loc, deck, dials, orders, visited, planes, dcol, corder,
tcount)`` (``spec.compile_spec``); ``state`` is int32[p[P_SIZE]].
"""

from __future__ import annotations

import numpy as np

from sim.games.engine import emit, inline_kernel, kernel, leaf_kernel, roll, shuffle_or_rig
from sim.games.yukon_airways.layout import (
    D_BONUS_FUEL,
    D_CARDS_FUEL,
    D_CHRISTMAS,
    D_DRAW,
    D_HAND,
    DP_LOADING,
    DP_PLANE,
    DP_TICKET,
    E_BONUS,
    E_BUY,
    E_DISCARD,
    E_DOCK,
    E_DRAW,
    E_END,
    E_END_MONEY,
    E_EXTRA,
    E_FLY,
    E_FUEL,
    E_IMPROVE,
    E_INCOME,
    E_MARKER,
    E_MOVE,
    E_ORDER,
    E_ORDER_CARD,
    E_PASS,
    E_PLACE,
    E_REFUEL,
    E_RESHUFFLE,
    E_ROLL,
    E_ROUND,
    E_START,
    E_STARVED,
    E_TAKE,
    E_TICKET,
    E_TUCK,
    E_WILD,
    GREY,
    H_ACTOR,
    H_ARRIVAL,
    H_COLOURS,
    H_DECK_N,
    H_DEST,
    H_DISC_N,
    H_DOCK_DICE,
    H_FL_COLS,
    H_FL_DICE,
    H_FL_ROOM,
    H_FL_SYMS,
    H_FL_TICKETS,
    H_FL_WILD,
    H_FREE,
    H_GREY_LEFT,
    H_MONEY_IN,
    H_MONEY_OUT,
    H_OVER,
    H_PENDING,
    H_POS,
    H_RESHUF,
    H_ROUND,
    H_SHARED,
    H_STARVED,
    H_STEP,
    H_TAKEN,
    H_TIED,
    H_TURN,
    H_WINNER,
    K_BUY,
    K_DISCARD,
    K_EXTRA,
    K_FLY,
    K_GO,
    K_IMPROVE,
    K_MOVE,
    K_MOVE_DONE,
    K_PASS,
    K_PLACE,
    K_TAKE,
    K_TAKE_DONE,
    K_TICKET,
    K_TUCK,
    K_WILD,
    NCOL,
    NCOLG,
    NDIAL,
    NDOCK,
    NIMP,
    NSW,
    NSYM,
    OF_AMOUNT,
    OF_KIND,
    OF_PARAM,
    OF_PLACES,
    OF_REWARD,
    OK_COLOUR,
    OK_DELIVERED,
    OK_DESTS,
    OK_FUEL_LEFT,
    OK_PLACES,
    P_BONUS_FUEL,
    P_BONUS_IMP,
    P_BONUS_MONEY,
    P_DEAL,
    P_DOCK4_FUEL,
    P_DOCK5_FUEL,
    P_DOCK6_COST,
    P_FIXED0,
    P_FIXED_ORDERS,
    P_FREE_MOVES,
    P_FUEL0,
    P_FUELMAX,
    P_GREY,
    P_HUB,
    P_L,
    P_MARKER_MONEY,
    P_MARKERS,
    P_MONEY0,
    P_NCARDS,
    P_NDICE,
    P_NORD,
    P_NORDP,
    P_NT,
    P_OFF_COCKPIT,
    P_OFF_DDOWN,
    P_OFF_DECK,
    P_OFF_DIE,
    P_OFF_DISC,
    P_OFF_HAND,
    P_OFF_MAP,
    P_OFF_ORDERS,
    P_OFF_POOL,
    P_OFF_SEAT,
    P_OFF_TABLE,
    P_OFF_TDOWN,
    P_OFF_TURN,
    P_ORDER_TIMING,
    P_ROUNDS,
    P_S,
    P_SEATS,
    P_SW_MONEY,
    P_THRESH,
    P_TICKET_SYM,
    P_TIE,
    P_TWO_COLOUR_SW,
    P_UNFLOWN,
    P_WILD,
    RW_MONEY,
    SE_AB_COL,
    SE_ABOARD,
    SE_ARRIVE,
    SE_BURNT,
    SE_CARDS_IN,
    SE_DIAL,
    SE_DOCK,
    SE_DOCKS,
    SE_FLIGHTS,
    SE_FUEL,
    SE_FUEL_N,
    SE_HAND_N,
    SE_IMP,
    SE_LOC,
    SE_M_BONUS,
    SE_M_CHRISTMAS,
    SE_M_DICE,
    SE_M_FAR,
    SE_M_ORDERS,
    SE_M_SWITCH,
    SE_M_VALUE,
    SE_M_VISITED,
    SE_MONEY,
    SE_PASSED,
    SE_R_COL,
    SE_R_DESTS,
    SE_R_DICE,
    SE_R_FAR,
    SE_R_FLIGHTS,
    SE_R_MAXVAL,
    SE_RANK,
    SE_SHORT,
    SE_SPENT,
    SE_START_POS,
    SE_SW,
    SE_SYM,
    SE_UNFLOWN,
    ST_BUY,
    ST_DEST,
    ST_DISCARD,
    ST_IMPROVE,
    ST_LOAD,
    ST_MOVE,
    ST_OVER,
    ST_PLACE,
    ST_TAKE,
    SW,
    SW_BONUS_MONEY,
    SW_FREE_MOVES,
    SW_MARKER_MONEY,
    SW_PAIR_BONUS,
    SW_TWO_COLOURS,
    SW_TWO_DICE,
    SW_TWO_WILD,
    SYM_FUEL,
    SYM_MONEY,
    V_CARDS,
    V_COUNTERS,
    V_DIALS,
    V_DICE,
    V_FUEL,
    V_GREY,
    V_MARKERS,
    V_MONEY,
    V_NEG_HAND,
)
from sim.rng import CHANCE, randint, shuffle


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
def give_up_cards(state, spec, s, k, to_table):
    """Seat ``s`` gives up ``k`` cards of its hand (face-down tickets to the table, or cards
    burnt as fuel to the discard pile): the cards of the cheapest locations first (``corder``;
    RULES.md S1, a named simplification of the player's free choice)."""
    p = spec[0]
    corder = spec[9]
    left = k
    i = 0
    while left > 0 and i < corder.shape[0]:
        t = corder[i]
        while left > 0 and state[hand_at(p, s, t)] > 0:
            hand_add(state, p, s, t, -1)
            if to_table:
                state[table_at(p, s, t)] += 1
                state[tdown_at(p, s, t)] += 1
            else:
                discard_card(state, spec, t)
            left -= 1
        i += 1


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


# ---- set-up (RB Vorbereitung) --------------------------------------------------------------------
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


@kernel
def setup(state, spec, rng, rig_deck, rig_dice, ev, evn):
    """Set up game (RB Vorbereitung) into ``state`` (int32[p[P_SIZE]], zeroed here):
    three order cards face up (shuffled, or ``fixed_orders``); the day track on Tuesday;
    every cockpit at its lowest values, fuel 4, switches off; the seaplane card's starting
    improvement; the ticket deck shuffled (or ``rig_deck``, card types in draw order) and six
    cards dealt to each seat; planes at Whitehorse; every die rolled (``rig_dice``) onto the
    dock of its face; as many coloured markers as players drawn at random onto every
    location but Whitehorse; a random start player, turn order clockwise from it, start money
    $1, $2, ... by turn order. Chance draws in that order from the CHANCE stream."""
    p, dist, loc, deck, dials, orders, visited, planes, dcol, corder, tcount = spec
    S = p[P_S]
    L = p[P_L]
    state[:] = 0
    # order cards
    nordp = p[P_NORDP]
    if p[P_FIXED_ORDERS] == 1:
        for i in range(nordp):
            state[p[P_OFF_ORDERS] + i] = p[P_FIXED0 + i]
    else:
        idx = np.arange(p[P_NORD]).astype(np.int32)
        shuffle(idx, 0, idx.shape[0], rng, CHANCE)
        for i in range(nordp):
            state[p[P_OFF_ORDERS] + i] = idx[i]
    # cockpits and planes
    for s in range(S):
        state[se(p, s, SE_FUEL)] = p[P_FUEL0]
        state[se(p, s, SE_LOC)] = p[P_HUB]
        state[se(p, s, SE_DOCK)] = -1
        if planes[s] >= 0:
            improve(state, spec, s, planes[s], False)
    # tickets
    nc = p[P_NCARDS]
    for i in range(nc):
        state[p[P_OFF_DECK] + i] = deck[i]
    shuffle_or_rig(state, p[P_OFF_DECK], p[P_OFF_DECK] + nc, rng, CHANCE, rig_deck)
    if rig_deck.shape[0] > 0:  # the rig lists the first card drawn first; the top is the end
        o = p[P_OFF_DECK]
        for i in range(nc // 2):
            t = state[o + i]
            state[o + i] = state[o + nc - 1 - i]
            state[o + nc - 1 - i] = t
    state[H_DECK_N] = nc
    for s in range(S):
        for _ in range(p[P_DEAL]):
            draw_card(state, spec, s, rng, ev, evn)
    # dice
    for d in range(p[P_NDICE]):
        roll_die_to_dock(state, spec, d, rng, rig_dice, ev, evn)
    # location markers
    m = p[P_MARKERS]
    bag = np.empty(NCOL * m, np.int32)
    for c in range(NCOL):
        for i in range(m):
            bag[c * m + i] = c
    shuffle(bag, 0, bag.shape[0], rng, CHANCE)
    k = 0
    for l in range(L):
        if l == p[P_HUB]:
            continue
        for _ in range(S):
            state[map_at(p, l, bag[k])] += 1
            k += 1
    for i in range(k, bag.shape[0]):
        state[p[P_OFF_POOL] + bag[i]] += 1
    state[H_GREY_LEFT] = p[P_GREY] if p[P_GREY] > 0 else -1
    # start player, turn order, start money
    first = randint(rng, CHANCE, S)
    for i in range(S):
        s = (first + i) % S
        state[p[P_OFF_TURN] + i] = s
        state[se(p, s, SE_START_POS)] = i
        state[se(p, s, SE_MONEY)] = p[P_MONEY0 + i]
        state[H_MONEY_IN] += p[P_MONEY0 + i]
    emit(ev, evn, 0, first, E_START, 0, 0, 0, 0, 0)
    begin_round(state, spec, ev, evn)


# ---- phase 1: boarding (RB Boardingphase) --------------------------------------------------------
@leaf_kernel
def begin_round(state, spec, ev, evn):
    """A new day: clear the docks and the round counters, the first seat of the turn order
    starts its boarding turn (RB Spielablauf, Boardingphase)."""
    p = spec[0]
    S = p[P_S]
    for s in range(S):
        state[se(p, s, SE_DOCK)] = -1
        state[se(p, s, SE_ARRIVE)] = 0
        state[se(p, s, SE_PASSED)] = 0
        for y in range(NSYM):
            state[se(p, s, SE_SYM + y)] = 0
        state[se(p, s, SE_R_MAXVAL)] = 0
        state[se(p, s, SE_R_DICE)] = 0
        state[se(p, s, SE_R_FAR)] = 0
        state[se(p, s, SE_R_DESTS)] = 0
        state[se(p, s, SE_R_FLIGHTS)] = 0
        for c in range(NCOL):
            state[se(p, s, SE_R_COL + c)] = 0
    state[H_ARRIVAL] = 0
    emit(ev, evn, state[H_TURN], -1, E_ROUND, state[H_ROUND], 0, 0, 0, 0)
    start_boarding_turn(state, spec, 0)


@leaf_kernel
def start_turn(state, spec, pos, step):
    """The seat at turn-order position ``pos`` takes a turn, beginning at ``step`` (ST_*)."""
    p = spec[0]
    state[H_POS] = pos
    state[H_ACTOR] = state[p[P_OFF_TURN] + pos]
    state[H_STEP] = step
    state[H_TURN] += 1


@leaf_kernel
def start_boarding_turn(state, spec, pos):
    """The seat at turn-order position ``pos`` boards: it places its marker first."""
    start_turn(state, spec, pos, ST_PLACE)


@leaf_kernel
def can_take(state, spec, s):
    """True when seat ``s`` can still take a die (RB Boardingphase c): a free seat on its
    plane, colours left to take and a die of an untaken colour on its dock."""
    p = spec[0]
    if state[H_COLOURS] <= 0 or aboard(state, spec, s) >= p[P_SEATS]:
        return False
    k = state[se(p, s, SE_DOCK)]
    for c in range(NCOL):
        if (state[H_TAKEN] >> c) & 1 == 0 and dock_colour(state, spec, k, c) > 0:
            return True
    return False


@leaf_kernel
def place_marker(state, spec, s, k, ev, evn):
    """RB Boardingphase a+b: the marker goes to dock ``k`` (under markers already there: a
    later arrival), then the dock's ability (RB Appendix Stege): 1 none; 2 draw a ticket;
    3 dice of two colours; 4 one free die move and +1 fuel; 5 two fuel; 6 pay for an
    improvement (a decision, ST_BUY). Abilities 2, 4, 5 never hurt and are always used
    (RULES.md S2)."""
    p = spec[0]
    state[se(p, s, SE_DOCK)] = k
    state[se(p, s, SE_ARRIVE)] = state[H_ARRIVAL]
    state[H_ARRIVAL] += 1
    state[se(p, s, SE_DOCKS + k)] += 1
    state[H_FREE] = p[P_FREE_MOVES] if switch_on(state, spec, s, SW_FREE_MOVES) == 1 else 0
    state[H_COLOURS] = 1 + switch_on(state, spec, s, SW_TWO_COLOURS)
    state[H_TAKEN] = 0
    emit(ev, evn, state[H_TURN], s, E_PLACE, k, state[se(p, s, SE_ARRIVE)], 0, 0, 0)
    return k


@leaf_kernel
def dock_ability(state, spec, s, k, rng, ev, evn):
    """RB Appendix Stege, the automatic abilities of dock ``k`` (0-based) for seat ``s``;
    returns the next step (ST_BUY for dock 6 when the seat can pay and improve)."""
    p = spec[0]
    if k == 1:
        draw_cards(state, spec, s, 1, rng, ev, evn)
        emit(ev, evn, state[H_TURN], s, E_DOCK, k, 1, 0, 0, 0)
    elif k == 2:
        state[H_COLOURS] += 1
        emit(ev, evn, state[H_TURN], s, E_DOCK, k, state[H_COLOURS], 0, 0, 0)
    elif k == 3:
        state[H_FREE] += 1
        add_fuel(state, spec, s, p[P_DOCK4_FUEL])
        emit(ev, evn, state[H_TURN], s, E_DOCK, k, state[H_FREE], state[se(p, s, SE_FUEL)], 0, 0)
    elif k == 4:
        add_fuel(state, spec, s, p[P_DOCK5_FUEL])
        emit(ev, evn, state[H_TURN], s, E_DOCK, k, state[se(p, s, SE_FUEL)], 0, 0, 0)
    elif k == 5:
        if state[se(p, s, SE_MONEY)] >= p[P_DOCK6_COST] and any_improvable(state, spec, s):
            return ST_BUY
    return ST_MOVE


@leaf_kernel
def order_key(state, p, s):
    """Seat ``s``'s place in the new turn order: its dock, then its arrival (RB Boardingphase)."""
    return state[se(p, s, SE_DOCK)] * 64 + state[se(p, s, SE_ARRIVE)]


@leaf_kernel
def finish_boarding_turn(state, spec, s, ev, evn):
    """RB Boardingphase d: refuel (+1 per free barrel space, i.e. free seat, plus the bonus
    fuel dial; the tank caps it), then the next seat boards; after the last one the new turn
    order is set (RB: lowest dock first, top to bottom on a dock) and flights begin."""
    p = spec[0]
    S = p[P_S]
    gain = p[P_SEATS] - aboard(state, spec, s) + dial_value(state, spec, s, D_BONUS_FUEL)
    add_fuel(state, spec, s, gain)
    emit(ev, evn, state[H_TURN], s, E_REFUEL, gain, state[se(p, s, SE_FUEL)], 0, 0, 0)
    pos = state[H_POS] + 1
    if pos < S:
        start_boarding_turn(state, spec, pos)
        return
    # new turn order: by (dock, arrival); insertion sort of the S seats in place
    to = p[P_OFF_TURN]
    for i in range(S):
        state[to + i] = i
    for i in range(1, S):
        j = i
        while j > 0 and order_key(state, p, state[to + j - 1]) > order_key(state, p, state[to + j]):
            t = state[to + j - 1]
            state[to + j - 1] = state[to + j]
            state[to + j] = t
            j -= 1
    order = state[to:to + S]
    emit(ev, evn, state[H_TURN], -1, E_ORDER, order[0], order[1] if S > 1 else -1,
         order[2] if S > 2 else -1, order[3] if S > 3 else -1, 0)
    start_flight_turn(state, spec, 0)


# ---- phase 2: flights (RB Flugphase) -------------------------------------------------------------
@leaf_kernel
def start_flight_turn(state, spec, pos):
    """The seat at turn-order position ``pos`` (one that has not passed) chooses a flight."""
    start_turn(state, spec, pos, ST_DEST)


@leaf_kernel
def next_flyer(state, spec, rng, rig_dice, ev, evn):
    """RB Flugphase: turns go round the turn order, again and again, until every seat has
    made its last flight; then the maintenance (RB Wartungsphase)."""
    p = spec[0]
    S = p[P_S]
    for i in range(1, S + 1):
        pos = (state[H_POS] + i) % S
        s = state[p[P_OFF_TURN] + pos]
        if state[se(p, s, SE_PASSED)] == 0:
            start_flight_turn(state, spec, pos)
            return
    maintenance(state, spec, rng, rig_dice, ev, evn)


@leaf_kernel
def set_size(state, spec, s):
    """Alike symbols that make a set: three, two with switch pair_bonus (RB Flugphase b)."""
    p = spec[0]
    t = p[P_THRESH]
    if switch_on(state, spec, s, SW_PAIR_BONUS) == 1 and t > 1:
        t -= 1
    return t


@leaf_kernel
def fuel_cards(state, spec, s):
    """Cards with the fuel symbol in seat ``s``'s hand (the counter SE_FUEL_N)."""
    return state[se(spec[0], s, SE_FUEL_N)]


@inline_kernel
def fuel_in_cheapest(state, spec, s, k):
    """Fuel-symbol cards among the ``k`` cards ``give_up_cards`` would take from seat ``s``."""
    p = spec[0]
    corder = spec[9]
    left = k
    n = 0
    i = 0
    while left > 0 and i < corder.shape[0]:
        t = corder[i]
        m = min(left, state[hand_at(p, s, t)])
        if t % NSYM == SYM_FUEL:
            n += m
        left -= m
        i += 1
    return n


@inline_kernel
def flight_numbers(state, spec, s):
    """What ``payable_after`` reads of seat ``s`` that does not depend on the destination nor on
    the cards given up: (tank fuel, fuel symbols collected today, set size, cards in hand,
    fuel-symbol cards in hand, the cards-as-fuel dial). Read once per decision by
    ``legal_actions``, which asks ``payable_with`` for many destinations and cards."""
    p = spec[0]
    return (state[se(p, s, SE_FUEL)], state[se(p, s, SE_SYM + SYM_FUEL)], set_size(state, spec, s),
            hand_total(state, spec, s), fuel_cards(state, spec, s), dial_value(state, spec, s, D_CARDS_FUEL))


@inline_kernel
def payable_limit(p, fuel, col, th, hand, fcards, dial, sym, cards, fuel_out, tuck_fuel):
    """The highest fuel cost ``payable_after`` accepts, from the seat's ``flight_numbers``
    (``fuel`` .. ``dial``), the other arguments as there (-1: none). With ``k`` more fuel-symbol
    cards tucked (0 .. the fuel cards left, only when ``tuck_fuel``; each completed fuel set
    fills the tank to ``fuel_k``) a cost is payable when its short part ``max(0, cost -
    fuel_k)`` is within the dial and the ``hand - cards - k`` cards left, i.e. ``cost <=
    fuel_k + min(dial, hand - cards - k)`` where that minimum is >= 0; the limit is the largest
    such bound over ``k``. A flight is payable exactly when its cost is at most the limit
    (``payable_with``), so ``legal_actions`` tests every destination against a limit computed
    once per decision."""
    if sym == SYM_FUEL:
        col += 1
        if col >= th:
            col = 0
            fuel = min(fuel + p[P_BONUS_FUEL], p[P_FUELMAX])
    tot = hand - cards
    fc = fcards - fuel_out if tuck_fuel else 0
    lim = -1
    for k in range(fc + 1):
        if k > 0:
            col += 1
            if col >= th:
                col = 0
                fuel = min(fuel + p[P_BONUS_FUEL], p[P_FUELMAX])
        room = min(dial, tot - k)
        if room >= 0 and fuel + room > lim:
            lim = fuel + room
    return lim


@inline_kernel
def payable_with(p, fuel, col, th, hand, fcards, dial, cost, sym, cards, fuel_out, tuck_fuel):
    """``payable_after`` from the seat's ``flight_numbers`` (``fuel`` .. ``dial``) and the
    flight's fuel ``cost`` (``fuel_cost``, >= 0); the other arguments as there: ``cost`` at
    most the ``payable_limit``."""
    return cost <= payable_limit(p, fuel, col, th, hand, fcards, dial, sym, cards, fuel_out, tuck_fuel)


@leaf_kernel
def payable_after(state, spec, s, dest, sym, cards, fuel_out, tuck_fuel):
    """RB Flugphase b + d, Appendix: True when seat ``s``'s flight to ``dest`` can still be
    paid after the seat gives up ``cards`` cards (``fuel_out`` of them with the fuel symbol) and
    adds symbol ``sym`` (-1: none) to its day's collection: with some number of fuel-symbol
    cards still tucked (only when ``tuck_fuel``: a played fuel ticket or face-down cards on this
    flight), each completed fuel set filling the tank, the short part is within the
    cards-as-fuel dial and the cards left (the tank pays first). RULES.md S7.
    (``flight_numbers`` + ``payable_with``.)"""
    fuel, col, th, hand, fcards, dial = flight_numbers(state, spec, s)
    return payable_with(spec[0], fuel, col, th, hand, fcards, dial, fuel_cost(state, spec, s, dest), sym, cards,
                        fuel_out, tuck_fuel)


@leaf_kernel
def wild_size(state, spec, s):
    """Face-down cards that carry one passenger: three, two with switch two_card_wild."""
    p = spec[0]
    w = p[P_WILD]
    if switch_on(state, spec, s, SW_TWO_WILD) == 1 and w > 1:
        w -= 1
    return w


@inline_kernel
def fly_limits(state, spec, s):
    """The ``payable_limit`` of seat ``s``'s first passenger of a flight, read once for every
    destination: (a ticket without the fuel symbol, a fuel ticket, the face-down cards; -1
    when the hand is smaller than ``wild_size``). A ticket's own symbol other than fuel does
    not change the fuel, so money and improvement tickets share one limit."""
    p = spec[0]
    fuel, col, th, hand, fcards, dial = flight_numbers(state, spec, s)
    w = wild_size(state, spec, s)
    lim_t = payable_limit(p, fuel, col, th, hand, fcards, dial, -1, 1, 0, False)
    lim_f = payable_limit(p, fuel, col, th, hand, fcards, dial, SYM_FUEL if p[P_TICKET_SYM] == 1 else -1, 1, 1,
                          True)
    lim_w = -1
    if hand >= w:
        lim_w = payable_limit(p, fuel, col, th, hand, fcards, dial, -1, w, fuel_in_cheapest(state, spec, s, w), True)
    return lim_t, lim_f, lim_w


@inline_kernel
def can_fly_with(state, spec, s, dest, lim_t, lim_f, lim_w):
    """``can_fly`` from the seat's ``fly_limits``: the same test, the seat read once for every
    destination."""
    p = spec[0]
    if dest == p[P_HUB] or dest == state[se(p, s, SE_LOC)]:
        return False
    cost = fuel_cost(state, spec, s, dest)
    for y in range(NSYM):
        if state[hand_at(p, s, dest * NSYM + y)] > 0 and cost <= (lim_f if y == SYM_FUEL else lim_t):
            return True
    return cost <= lim_w


@leaf_kernel
def can_fly(state, spec, s, dest):
    """RB Flugphase: seat ``s`` (a die aboard) may fly to ``dest`` (a destination other than
    where it is) when a first passenger can be loaded and the flight still paid (tank, fuel
    sets, then cards up to the cards-as-fuel dial; ``payable_after``): a ticket naming
    ``dest`` or the face-down cards; exactly the first loading actions ``legal_actions``
    offers at step ``load``. (``can_fly_with`` on the seat's ``fly_limits``.)"""
    lim_t, lim_f, lim_w = fly_limits(state, spec, s)
    return can_fly_with(state, spec, s, dest, lim_t, lim_f, lim_w)


@leaf_kernel
def add_symbol(state, spec, s, sym, ev, evn):
    """RB Flugphase b: one more ``sym`` symbol in seat ``s``'s collection this round; three
    alike (two with switch pair_bonus) give that symbol's bonus (money, fuel or an
    improvement, RB Appendix Boni; switch bonus_money adds money) and start a new set."""
    p = spec[0]
    o = se(p, s, SE_SYM + sym)
    state[o] += 1
    thresh = p[P_THRESH]
    if switch_on(state, spec, s, SW_PAIR_BONUS) == 1 and thresh > 1:
        thresh -= 1
    if state[o] < thresh:
        return
    state[o] = 0
    if sym == SYM_MONEY:
        pay(state, spec, s, p[P_BONUS_MONEY], SE_M_BONUS)
    elif sym == SYM_FUEL:
        add_fuel(state, spec, s, p[P_BONUS_FUEL])
    else:
        state[H_PENDING] += p[P_BONUS_IMP]
    if switch_on(state, spec, s, SW_BONUS_MONEY) == 1:
        pay(state, spec, s, p[P_SW_MONEY], SE_M_BONUS)
    emit(ev, evn, state[H_TURN], s, E_BONUS, sym, state[se(p, s, SE_MONEY)], state[se(p, s, SE_FUEL)],
         state[H_PENDING], 0)


@leaf_kernel
def flight_colour_count(state, c):
    """Dice of colour ``c`` on the flight being loaded (4-bit counters of ``H_FL_COLS``)."""
    return (state[H_FL_COLS] >> (4 * c)) & 15


@leaf_kernel
def load_die(state, spec, s, c):
    """One die of colour ``c`` from seat ``s``'s plane onto a ticket of this flight."""
    p = spec[0]
    dcol = spec[8]
    for d in range(p[P_NDICE]):
        o = die_at(p, d)
        if state[o] == DP_PLANE and state[o + 1] == s and dcol[d] == c:
            state[o] = DP_LOADING
            aboard_add(state, p, s, c, -1)
            state[H_FL_DICE] += 1
            state[H_FL_COLS] += 1 << (4 * c)
            return d
    return -1


@leaf_kernel
def reward_order(state, spec, s, row, times, rng, ev, evn):
    """Pay seat ``s`` order card ``row``'s reward ``times`` times (RB Flugphase f,
    Einkommensphase c)."""
    orders = spec[5]
    amount = orders[row, OF_AMOUNT] * times
    if amount <= 0:
        return
    if orders[row, OF_REWARD] == RW_MONEY:
        pay(state, spec, s, amount, SE_M_ORDERS)
    else:
        draw_cards(state, spec, s, amount, rng, ev, evn)
    emit(ev, evn, state[H_TURN], s, E_ORDER_CARD, row, amount, orders[row, OF_REWARD], 0, 0)


@leaf_kernel
def resolve_flight(state, spec, s, rng, ev, evn):
    """RB Flugphase c-f for seat ``s``'s loaded flight: pay the fuel (tank first, the short
    part with ticket cards, up to the dial; Appendix), fly to the destination, take a
    location marker for every die (the die's colour if the destination has one, which gives
    an improvement, else a grey marker), pay the colour order cards (D8) and book the round's
    income counters (RB Einkommensphase)."""
    p, dist, loc, deck, dials, orders, visited, planes, dcol, corder, tcount = spec
    dest = state[H_DEST]
    cost = fuel_cost(state, spec, s, dest)
    fo = se(p, s, SE_FUEL)
    burnt = 0
    if state[fo] >= cost:
        state[fo] -= cost
    else:
        burnt = cost - state[fo]
        state[fo] = 0
        give_up_cards(state, spec, s, burnt, False)
        state[se(p, s, SE_SHORT)] += 1
        state[se(p, s, SE_BURNT)] += burnt
    emit(ev, evn, state[H_TURN], s, E_FUEL, cost, burnt, state[fo], state[se(p, s, SE_LOC)], dest)
    state[se(p, s, SE_LOC)] = dest
    n = 0
    for d in range(p[P_NDICE]):
        o = die_at(p, d)
        if state[o] != DP_LOADING:
            continue
        state[o] = DP_TICKET
        c = dcol[d]
        n += 1
        state[se(p, s, SE_R_COL + c)] += 1
        if state[map_at(p, dest, c)] > 0:
            state[map_at(p, dest, c)] -= 1
            state[cockpit_at(p, s, dest, c)] += 1
            state[H_PENDING] += 1
            emit(ev, evn, state[H_TURN], s, E_MARKER, d, c, 1, 0, 0)
        elif state[H_GREY_LEFT] != 0:
            state[cockpit_at(p, s, dest, GREY)] += 1
            if state[H_GREY_LEFT] > 0:
                state[H_GREY_LEFT] -= 1
            emit(ev, evn, state[H_TURN], s, E_MARKER, d, c, 0, 0, 0)
        else:
            emit(ev, evn, state[H_TURN], s, E_MARKER, d, c, -1, 0, 0)
    v = loc[dest, 0]
    if v > state[se(p, s, SE_R_MAXVAL)]:
        state[se(p, s, SE_R_MAXVAL)] = v
    state[se(p, s, SE_R_DICE)] += n
    state[se(p, s, SE_R_FAR)] += loc[dest, 1] * n
    state[se(p, s, SE_R_DESTS)] |= 1 << dest
    state[se(p, s, SE_R_FLIGHTS)] += 1
    state[se(p, s, SE_FLIGHTS)] += 1
    if p[P_ORDER_TIMING] == 0:
        for i in range(p[P_NORDP]):
            row = state[p[P_OFF_ORDERS] + i]
            if orders[row, OF_KIND] == OK_COLOUR:
                k = flight_colour_count(state, orders[row, OF_PARAM])
                reward_order(state, spec, s, row, k, rng, ev, evn)


@leaf_kernel
def income(state, spec, s, rng, ev, evn):
    """RB Einkommensphase, after seat ``s``'s last flight of the round: a) the highest
    location value visited this round; b) $1 per die on its tickets, plus the far bonus per
    die flown to Old Crow / Inuvik; c) the order cards met this round (all of them with
    order_timing = income, D8)."""
    p = spec[0]
    orders = spec[5]
    pay(state, spec, s, state[se(p, s, SE_R_MAXVAL)], SE_M_VALUE)
    pay(state, spec, s, state[se(p, s, SE_R_DICE)], SE_M_DICE)
    pay(state, spec, s, state[se(p, s, SE_R_FAR)], SE_M_FAR)
    dests = state[se(p, s, SE_R_DESTS)]
    nd = 0
    for l in range(p[P_L]):
        nd += (dests >> l) & 1
    for i in range(p[P_NORDP]):
        row = state[p[P_OFF_ORDERS] + i]
        kind = orders[row, OF_KIND]
        par = orders[row, OF_PARAM]
        times = 0
        if kind == OK_COLOUR:
            if p[P_ORDER_TIMING] == 1:
                times = state[se(p, s, SE_R_COL + par)]
        elif kind == OK_FUEL_LEFT:
            times = 1 if state[se(p, s, SE_FUEL)] >= par else 0
        elif kind == OK_DESTS:
            times = 1 if nd >= par else 0
        elif kind == OK_DELIVERED:
            times = 1 if state[se(p, s, SE_R_DICE)] >= par else 0
        elif kind == OK_PLACES:
            times = 1 if (dests & orders[row, OF_PLACES]) != 0 else 0
        reward_order(state, spec, s, row, times, rng, ev, evn)
    emit(ev, evn, state[H_TURN], s, E_INCOME, state[se(p, s, SE_R_MAXVAL)], state[se(p, s, SE_R_DICE)],
         state[se(p, s, SE_R_FAR)], state[se(p, s, SE_MONEY)], 0)


# ---- phase 4: maintenance (RB Wartungsphase) ------------------------------------------------------
@leaf_kernel
def maintenance(state, spec, rng, rig_dice, ev, evn):
    """RB Wartungsphase: a) the dice on tickets are rolled onto their docks (with
    unflown_dice = roll also the dice still aboard, D6); b) the played tickets are discarded;
    c) every seat draws by its draw dial; d) seats over their hand limit discard (a decision,
    ST_DISCARD, in turn order); then planes back to Whitehorse and the next day. After the
    last day the game ends (RB Spielende; the last maintenance changes no score and is
    skipped)."""
    p = spec[0]
    S = p[P_S]
    if state[H_ROUND] + 1 >= p[P_ROUNDS]:
        end_game(state, spec, ev, evn)
        return
    for d in range(p[P_NDICE]):
        pl = state[die_at(p, d)]
        if pl == DP_TICKET or (pl == DP_PLANE and p[P_UNFLOWN] == 1):
            if pl == DP_PLANE:
                aboard_add(state, p, state[die_at(p, d) + 1], spec[8][d], -1)
            roll_die_to_dock(state, spec, d, rng, rig_dice, ev, evn)
    for s in range(S):
        for t in range(p[P_NT]):
            k = state[table_at(p, s, t)]
            kd = state[tdown_at(p, s, t)]
            for j in range(k):
                if j < kd:
                    discard_face_down(state, spec, t, s)
                else:
                    discard_card(state, spec, t)
            state[table_at(p, s, t)] = 0
            state[tdown_at(p, s, t)] = 0
    for i in range(S):
        s = state[p[P_OFF_TURN] + i]
        draw_cards(state, spec, s, dial_value(state, spec, s, D_DRAW), rng, ev, evn)
    next_discarder(state, spec, -1, ev, evn)


@leaf_kernel
def next_discarder(state, spec, after, ev, evn):
    """RB Wartungsphase d: the next seat in turn order after position ``after`` whose hand is
    over its hand limit discards; when none is left, planes return and the next day begins."""
    p = spec[0]
    S = p[P_S]
    for pos in range(after + 1, S):
        s = state[p[P_OFF_TURN] + pos]
        if hand_total(state, spec, s) > dial_value(state, spec, s, D_HAND):
            state[H_POS] = pos
            state[H_ACTOR] = s
            state[H_STEP] = ST_DISCARD
            state[H_TURN] += 1
            return
    for s in range(S):
        state[se(p, s, SE_LOC)] = p[P_HUB]
    state[H_ROUND] += 1
    begin_round(state, spec, ev, evn)


# ---- game end (RB Spielende) ----------------------------------------------------------------------
@leaf_kernel
def end_game(state, spec, ev, evn):
    """RB Spielende: the Christmas dial's money, the marker_money switch ($ per marker of the
    colour one holds most of, ASSUMPTION RN 10.8), the visited-locations table (distinct
    locations on the cockpit map); most money wins. Ties (D12): tie_break = fuel gives the
    win to the most fuel left, then shares it; shared: always shared. Ranks: 1 + seats
    strictly ahead."""
    p = spec[0]
    visited = spec[6]
    S = p[P_S]
    L = p[P_L]
    for s in range(S):
        pay(state, spec, s, dial_value(state, spec, s, D_CHRISTMAS), SE_M_CHRISTMAS)
        if switch_on(state, spec, s, SW_MARKER_MONEY) == 1:
            best = 0
            for c in range(NCOL):
                n = 0
                for l in range(L):
                    n += state[cockpit_at(p, s, l, c)]
                if n > best:
                    best = n
            pay(state, spec, s, best * p[P_MARKER_MONEY], SE_M_SWITCH)
        k = 0
        for l in range(L):
            m = 0
            for c in range(NCOLG):
                m += state[cockpit_at(p, s, l, c)]
            if m > 0:
                k += 1
        pay(state, spec, s, visited[min(k, visited.shape[0] - 1)], SE_M_VISITED)
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
    state[H_STEP] = ST_OVER
    emit(ev, evn, state[H_TURN], state[H_WINNER], E_END, top, ntop, state[H_SHARED], 0, 0)


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


# ---- legal actions ----------------------------------------------------------------------------
@leaf_kernel
def put(acts, n, kind, a, b):
    """Append the action (kind, a, b) to ``acts`` at row ``n``; returns n + 1."""
    acts[n, 0] = kind
    acts[n, 1] = a
    acts[n, 2] = b
    return n + 1


@leaf_kernel
def legal_actions(state, spec, acts):
    """Fill ``acts`` (int32[MAX_ACTS, ACT_W]) with the actions legal for the seat to decide
    (``H_ACTOR``) at step ``H_STEP``; returns their number. The first row is the option that
    skips or ends an optional step (``GameState.end_turn`` takes it). Rules cited per step:
    RB Boardingphase a (place), Steg 6 (buy), c (move: $1 per die and step to an adjacent dock,
    1 and 6 adjacent; free moves first; take: one colour, two with dock 3 / two_colours, up to
    the free seats), RB Flugphase (dest, load: a ticket naming the destination per passenger or
    the face-down cards, a tucked card of a played ticket's symbol, any symbol under face-down
    cards, the flight still payable after every card, payable_after; go when payable now), RB
    Flugphase e (improve), RB Wartungsphase d
    (discard)."""
    p, dist, loc, deck, dials, orders, visited, planes, dcol, corder, tcount = spec
    s = state[H_ACTOR]
    st = state[H_STEP]
    n = 0
    if st == ST_PLACE:
        for k in range(NDOCK):
            n = put(acts, n, K_PLACE, k, 0)
    elif st == ST_BUY:
        n = put(acts, n, K_BUY, -1, 0)
        for kind in range(NIMP):
            if improvable(state, spec, s, kind):
                n = put(acts, n, K_BUY, kind, 0)
    elif st == ST_MOVE:
        n = put(acts, n, K_MOVE_DONE, 0, 0)
        if state[H_FREE] > 0 or state[se(p, s, SE_MONEY)] > 0:
            for d in range(p[P_NDICE]):
                if state[die_at(p, d)] < NDOCK:
                    n = put(acts, n, K_MOVE, d, 0)
                    n = put(acts, n, K_MOVE, d, 1)
    elif st == ST_TAKE:
        if state[H_TAKEN] != 0:
            n = put(acts, n, K_TAKE_DONE, 0, 0)
        free = p[P_SEATS] - aboard(state, spec, s)
        k = state[se(p, s, SE_DOCK)]
        for c in range(NCOL):
            if (state[H_TAKEN] >> c) & 1 == 1:
                continue
            m = min(dock_colour(state, spec, k, c), free)
            for cnt in range(1, m + 1):
                n = put(acts, n, K_TAKE, c, cnt)
    elif st == ST_DEST:
        n = put(acts, n, K_PASS, 0, 0)
        if aboard(state, spec, s) > 0:
            lim_t, lim_f, lim_w = fly_limits(state, spec, s)
            for dest in range(p[P_L]):
                if can_fly_with(state, spec, s, dest, lim_t, lim_f, lim_w):
                    n = put(acts, n, K_FLY, dest, 0)
    elif st == ST_LOAD:
        dest = state[H_DEST]
        # payable_after(state, spec, s, dest, ...) with the seat and the flight read once
        fuel, col, th, tot, fcards, dial = flight_numbers(state, spec, s)
        cost = fuel_cost(state, spec, s, dest)
        tuck_fuel = (state[H_FL_SYMS] >> SYM_FUEL) & 1 == 1 or state[H_FL_WILD] > 0
        if state[H_FL_DICE] > 0 and payable_with(p, fuel, col, th, tot, fcards, dial, cost, -1, 0, 0, False):
            n = put(acts, n, K_GO, 0, 0)
        tick_ok = 0  # bit y: a ticket naming dest with symbol y can be played
        for y in range(NSYM):
            if state[hand_at(p, s, dest * NSYM + y)] > 0 and \
                    payable_with(p, fuel, col, th, tot, fcards, dial, cost, y if p[P_TICKET_SYM] == 1 else -1, 1,
                                 1 if y == SYM_FUEL else 0, tuck_fuel or y == SYM_FUEL):
                tick_ok |= 1 << y
        w = wild_size(state, spec, s)
        wild_ok = tot >= w and payable_with(p, fuel, col, th, tot, fcards, dial, cost, -1, w,
                                            fuel_in_cheapest(state, spec, s, w), True)
        for c in range(NCOL):
            if aboard_colour(state, spec, s, c) == 0:
                continue
            for y in range(NSYM):
                if (tick_ok >> y) & 1 == 1:
                    n = put(acts, n, K_TICKET, y, c)
            if wild_ok:
                n = put(acts, n, K_WILD, c, 0)
            if state[H_FL_ROOM] > 0:
                n = put(acts, n, K_EXTRA, c, 0)
        if state[H_FL_TICKETS] > 0:
            tuck_ok = 0  # bit y: a card with symbol y may be tucked
            for y in range(NSYM):
                if ((state[H_FL_SYMS] >> y) & 1 == 1 or state[H_FL_WILD] > 0) and \
                        payable_with(p, fuel, col, th, tot, fcards, dial, cost, y, 1, 1 if y == SYM_FUEL else 0,
                                     tuck_fuel):
                    tuck_ok |= 1 << y
            if tuck_ok != 0:
                for t in range(p[P_NT]):
                    if (tuck_ok >> (t % NSYM)) & 1 == 1 and state[hand_at(p, s, t)] > 0:
                        n = put(acts, n, K_TUCK, t, 0)
    elif st == ST_IMPROVE:
        n = put(acts, n, K_IMPROVE, -1, 0)
        for kind in range(NIMP):
            if improvable(state, spec, s, kind):
                n = put(acts, n, K_IMPROVE, kind, 0)
    elif st == ST_DISCARD:
        for t in range(p[P_NT]):
            if state[hand_at(p, s, t)] > 0:
                n = put(acts, n, K_DISCARD, t, 0)
    return n


# ---- apply ------------------------------------------------------------------------------------
@leaf_kernel
def after_moves(state, spec, s, ev, evn):
    """End of the moves: take dice when a die can be taken, else refuel (RB Boardingphase c, d)."""
    if can_take(state, spec, s):
        state[H_STEP] = ST_TAKE
    else:
        finish_boarding_turn(state, spec, s, ev, evn)


@leaf_kernel
def after_flight(state, spec, s, rng, rig_dice, ev, evn):
    """After a flight: the improvements it earned (a decision each), else the next turn."""
    if state[H_PENDING] > 0 and any_improvable(state, spec, s):
        state[H_STEP] = ST_IMPROVE
    else:
        state[H_PENDING] = 0
        next_flyer(state, spec, rng, rig_dice, ev, evn)


@leaf_kernel
def apply_action(state, spec, act, rng, rig_dice, ev, evn):
    """Apply the legal action ``act`` (int32[ACT_W]) of the seat to decide and run the
    automation that follows, up to the next decision (see ``legal_actions`` for the rules)."""
    p, dist, loc, deck, dials, orders, visited, planes, dcol, corder, tcount = spec
    s = state[H_ACTOR]
    kind = act[0]
    a = act[1]
    b = act[2]
    T = state[H_TURN]
    if kind == K_PLACE:
        place_marker(state, spec, s, a, ev, evn)
        state[H_STEP] = dock_ability(state, spec, s, a, rng, ev, evn)
    elif kind == K_BUY:
        if a >= 0:
            charge(state, spec, s, p[P_DOCK6_COST])
            improve(state, spec, s, a, True)
        emit(ev, evn, T, s, E_BUY, a, p[P_DOCK6_COST], state[se(p, s, SE_MONEY)], 0, 0)
        state[H_STEP] = ST_MOVE
    elif kind == K_MOVE:
        o = die_at(p, a)
        frm = state[o]
        to = (frm + (NDOCK - 1 if b == 0 else 1)) % NDOCK
        state[o] = to
        dock_add(state, frm, dcol[a], -1)
        dock_add(state, to, dcol[a], 1)
        paid = 0
        if state[H_FREE] > 0:
            state[H_FREE] -= 1
        else:
            charge(state, spec, s, 1)
            paid = 1
        emit(ev, evn, T, s, E_MOVE, a, frm, to, paid, dcol[a])
    elif kind == K_MOVE_DONE:
        after_moves(state, spec, s, ev, evn)
    elif kind == K_TAKE:
        k = state[se(p, s, SE_DOCK)]
        got = 0
        for d in range(p[P_NDICE]):
            o = die_at(p, d)
            if got < b and state[o] == k and dcol[d] == a:
                state[o] = DP_PLANE
                state[o + 1] = s
                got += 1
        dock_add(state, k, a, -got)
        aboard_add(state, p, s, a, got)
        state[H_TAKEN] |= 1 << a
        state[H_COLOURS] -= 1
        emit(ev, evn, T, s, E_TAKE, a, b, k, 0, 0)
        if not can_take(state, spec, s):
            finish_boarding_turn(state, spec, s, ev, evn)
    elif kind == K_TAKE_DONE:
        finish_boarding_turn(state, spec, s, ev, evn)
    elif kind == K_PASS:
        state[se(p, s, SE_PASSED)] = 1
        left = aboard(state, spec, s)
        state[se(p, s, SE_UNFLOWN)] += left
        emit(ev, evn, T, s, E_PASS, left, 0, 0, 0, 0)
        income(state, spec, s, rng, ev, evn)
        next_flyer(state, spec, rng, rig_dice, ev, evn)
    elif kind == K_FLY:
        state[H_DEST] = a
        state[H_FL_TICKETS] = 0
        state[H_FL_DICE] = 0
        state[H_FL_ROOM] = 0
        state[H_FL_SYMS] = 0
        state[H_FL_WILD] = 0
        state[H_FL_COLS] = 0
        state[H_PENDING] = 0
        state[H_STEP] = ST_LOAD
        emit(ev, evn, T, s, E_FLY, a, state[se(p, s, SE_LOC)], fuel_cost(state, spec, s, a),
             state[se(p, s, SE_FUEL)], aboard(state, spec, s))
    elif kind == K_TICKET:
        t = state[H_DEST] * NSYM + a
        hand_add(state, p, s, t, -1)
        state[table_at(p, s, t)] += 1
        d = load_die(state, spec, s, b)
        state[H_FL_TICKETS] += 1
        state[H_FL_SYMS] |= 1 << a
        if switch_on(state, spec, s, SW_TWO_DICE) == 1:
            state[H_FL_ROOM] += 1
        emit(ev, evn, T, s, E_TICKET, t, d, b, 0, 0)
        if p[P_TICKET_SYM] == 1:
            add_symbol(state, spec, s, a, ev, evn)
    elif kind == K_WILD:
        w = wild_size(state, spec, s)
        give_up_cards(state, spec, s, w, True)
        d = load_die(state, spec, s, a)
        state[H_FL_TICKETS] += 1
        state[H_FL_WILD] += 1
        if switch_on(state, spec, s, SW_TWO_DICE) == 1:
            state[H_FL_ROOM] += 1
        emit(ev, evn, T, s, E_WILD, w, d, a, 0, 0)
    elif kind == K_EXTRA:
        d = load_die(state, spec, s, a)
        state[H_FL_ROOM] -= 1
        emit(ev, evn, T, s, E_EXTRA, d, a, 0, 0, 0)
    elif kind == K_TUCK:
        hand_add(state, p, s, a, -1)
        state[table_at(p, s, a)] += 1
        emit(ev, evn, T, s, E_TUCK, a, a % NSYM, 0, 0, 0)
        add_symbol(state, spec, s, a % NSYM, ev, evn)
    elif kind == K_GO:
        resolve_flight(state, spec, s, rng, ev, evn)
        after_flight(state, spec, s, rng, rig_dice, ev, evn)
    elif kind == K_IMPROVE:
        if a >= 0:
            improve(state, spec, s, a, True)
            state[H_PENDING] -= 1
        else:
            state[H_PENDING] = 0
        emit(ev, evn, T, s, E_IMPROVE, a, state[H_PENDING], 0, 0, 0)
        after_flight(state, spec, s, rng, rig_dice, ev, evn)
    elif kind == K_DISCARD:
        hand_add(state, p, s, a, -1)
        discard_card(state, spec, a)
        emit(ev, evn, T, s, E_DISCARD, a, 0, 0, 0, 0)
        if hand_total(state, spec, s) <= dial_value(state, spec, s, D_HAND):
            next_discarder(state, spec, state[H_POS], ev, evn)




# ---- invariants ---------------------------------------------------------------------------------
@kernel
def check_invariants(state, spec):
    """0, or the first violated invariant (``layout.V_*``): every ticket card in exactly one
    place (deck, discard, hands, table; per type), no negative hand count, every die in one
    place (a dock, a plane, a ticket) with planes within their seats, every coloured marker
    in one place (box, board, cockpits), the grey supply balanced, money non-negative and
    the bank's books balanced, dials and switches in range, fuel in 0..max outside a flight;
    the dice and hand counters equal to a recount (``recount``)."""
    p, dist, loc, deck, dials, orders, visited, planes, dcol, corder, tcount = spec
    S = p[P_S]
    L = p[P_L]
    NT = p[P_NT]
    cnt = np.zeros(NT, np.int64)
    for i in range(state[H_DECK_N]):
        cnt[state[p[P_OFF_DECK] + i]] += 1
    for i in range(state[H_DISC_N]):
        cnt[state[p[P_OFF_DISC] + i]] += 1
    for s in range(S):
        for t in range(NT):
            h = state[hand_at(p, s, t)]
            if h < 0 or state[table_at(p, s, t)] < 0:
                return V_NEG_HAND
            cnt[t] += h + state[table_at(p, s, t)]
    for t in range(NT):
        if cnt[t] != tcount[t]:
            return V_CARDS
    onplane = np.zeros(S, np.int64)
    for d in range(p[P_NDICE]):
        pl = state[die_at(p, d)]
        sd = state[die_at(p, d) + 1]
        if pl < 0 or pl > DP_LOADING:
            return V_DICE
        if pl >= DP_PLANE:
            if sd < 0 or sd >= S:
                return V_DICE
            if pl == DP_LOADING and (state[H_STEP] != ST_LOAD or sd != state[H_ACTOR]):
                return V_DICE
            if pl != DP_TICKET:
                onplane[sd] += 1
    for s in range(S):
        if onplane[s] > p[P_SEATS]:
            return V_DICE
    greys = 0
    for c in range(NCOL):
        m = state[p[P_OFF_POOL] + c]
        for l in range(L):
            m += state[map_at(p, l, c)]
            for s in range(S):
                m += state[cockpit_at(p, s, l, c)]
        if m != p[P_MARKERS]:
            return V_MARKERS
    for s in range(S):
        for l in range(L):
            greys += state[cockpit_at(p, s, l, GREY)]
    if p[P_GREY] > 0 and greys + state[H_GREY_LEFT] != p[P_GREY]:
        return V_GREY
    total = 0
    for s in range(S):
        m = state[se(p, s, SE_MONEY)]
        if m < 0:
            return V_MONEY
        total += m
    if total != state[H_MONEY_IN] - state[H_MONEY_OUT]:
        return V_MONEY
    for s in range(S):
        for dd in range(NDIAL):
            v = state[se(p, s, SE_DIAL + dd)]
            if v < 0 or v >= dials[dd, 0]:
                return V_DIALS
        for j in range(NSW):
            v = state[se(p, s, SE_SW + j)]
            if v < 0 or v > 1 or (j == SW_TWO_COLOURS and v == 1 and p[P_TWO_COLOUR_SW] == 0):
                return V_DIALS
        f = state[se(p, s, SE_FUEL)]
        if f < 0 or f > p[P_FUELMAX]:
            return V_FUEL
    fresh = state.copy()
    recount(fresh, spec)
    for i in range(state.shape[0]):
        if fresh[i] != state[i]:
            return V_COUNTERS
    return 0
