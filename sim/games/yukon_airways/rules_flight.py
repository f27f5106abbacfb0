"""Yukon Airways rules, phase 2: flights (RB Flugphase), and the income after a seat's last
flight of the round (phase 3, RB Einkommensphase).

One of the rules modules split by rulebook phase (issue 32); ``rules.py`` re-exports every
function, so ``from sim.games.yukon_airways.rules import X`` keeps working. Layout and
encodings: ``layout.py``; decisions on ambiguities: ``RULES.md``.
"""

from __future__ import annotations

from sim.games.engine import emit, inline_kernel, leaf_kernel
from sim.games.yukon_airways.layout import (
    D_CARDS_FUEL,
    DP_LOADING,
    DP_PLANE,
    DP_TICKET,
    E_BONUS,
    E_FUEL,
    E_INCOME,
    E_MARKER,
    E_ORDER_CARD,
    GREY,
    H_DEST,
    H_FL_COLS,
    H_FL_DICE,
    H_FLIGHT,
    H_GREY_LEFT,
    H_PENDING,
    H_POS,
    H_TURN,
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
    P_FUELMAX,
    P_HUB,
    P_HUB_DEST,
    P_L,
    P_NDICE,
    P_NORDP,
    P_OFF_ORDERS,
    P_OFF_TURN,
    P_ORDER_TIMING,
    P_S,
    P_SW_MONEY,
    P_THRESH,
    P_TICKET_SYM,
    P_WILD,
    RW_MONEY,
    SE_BURNT,
    SE_FLIGHTS,
    SE_FUEL,
    SE_FUEL_N,
    SE_LOC,
    SE_M_BONUS,
    SE_M_DICE,
    SE_M_FAR,
    SE_M_ORDERS,
    SE_M_VALUE,
    SE_MONEY,
    SE_PASSED,
    SE_R_COL,
    SE_R_DESTS,
    SE_R_DICE,
    SE_R_FAR,
    SE_R_FLIGHTS,
    SE_R_MAXVAL,
    SE_SHORT,
    SE_SYM,
    SW_BONUS_MONEY,
    SW_PAIR_BONUS,
    SW_TWO_WILD,
    SYM_FUEL,
    SYM_MONEY,
)
from sim.games.yukon_airways.rules_common import (
    aboard_add,
    add_fuel,
    cockpit_at,
    dial_value,
    die_at,
    draw_cards,
    fuel_cost,
    hand_at,
    hand_total,
    map_at,
    pay,
    se,
    switch_on,
)
from sim.games.yukon_airways.rules_maintenance import maintenance
from sim.games.yukon_airways.rules_turns import start_flight_turn


# ---- phase 2: flights (RB Flugphase) -------------------------------------------------------------
@inline_kernel
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
def fuel_out_least(hand, fcards, k):
    """The fewest fuel-symbol cards among ``k`` cards given up from a hand of ``hand`` cards,
    ``fcards`` of them with the fuel symbol: the seat chooses which (RULES.md S1), so it can
    keep its fuel cards for tucks that complete a fuel set (S7)."""
    return max(0, k - (hand - fcards))


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
        lim_w = payable_limit(p, fuel, col, th, hand, fcards, dial, -1, w, fuel_out_least(hand, fcards, w), True)
    return lim_t, lim_f, lim_w


@inline_kernel
def can_fly_with(state, spec, s, dest, lim_t, lim_f, lim_w):
    """``can_fly`` from the seat's ``fly_limits``: the same test, the seat read once for every
    destination."""
    p = spec[0]
    if (dest == p[P_HUB] and p[P_HUB_DEST] == 0) or dest == state[se(p, s, SE_LOC)]:
        return False
    cost = fuel_cost(state, spec, s, dest)
    for y in range(NSYM):
        if state[hand_at(p, s, dest * NSYM + y)] > 0 and cost <= (lim_f if y == SYM_FUEL else lim_t):
            return True
    return cost <= lim_w


@leaf_kernel
def can_fly(state, spec, s, dest):
    """RB Flugphase: seat ``s`` (a die aboard) may fly to ``dest`` (a destination other than
    where it is; the hub only with hub_destination, D15) when a first passenger can be loaded
    and the flight still paid (tank, fuel
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
def take_off(state, spec, s, ev, evn):
    """RB Flugphase d, Appendix Anzeigen: seat ``s``'s loaded flight pays its fuel, the tank
    first; when the tank is short it is emptied and the rest is paid with ticket cards (at most
    the cards-as-fuel dial: ``legal_actions`` offers take-off only then). Returns the cards
    still to burn: the seat chooses them one by one (step burn, RULES.md S1), then the flight
    lands (``land``)."""
    p = spec[0]
    dest = state[H_DEST]
    cost = fuel_cost(state, spec, s, dest)
    fo = se(p, s, SE_FUEL)
    burnt = 0
    if state[fo] >= cost:
        state[fo] -= cost
    else:
        burnt = cost - state[fo]
        state[fo] = 0
        state[se(p, s, SE_SHORT)] += 1
        state[se(p, s, SE_BURNT)] += burnt
    emit(ev, evn, state[H_TURN], s, E_FUEL, cost, burnt, state[fo], state[se(p, s, SE_LOC)], dest)
    return burnt


@leaf_kernel
def land(state, spec, s, rng, ev, evn):
    """RB Flugphase d-f for seat ``s``'s flight, its fuel paid (``take_off``): fly to the
    destination, take a location marker for every die (the die's colour if the destination
    has one, which gives an improvement, else a grey marker), pay the colour order cards (D8)
    and book the round's income counters (RB Einkommensphase). The route's other locations
    are flown over: nothing happens there (S4)."""
    p, dist, loc, deck, dials, orders, visited, planes, dcol, tcount = spec
    dest = state[H_DEST]
    state[H_FLIGHT] = 0
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


@inline_kernel
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
