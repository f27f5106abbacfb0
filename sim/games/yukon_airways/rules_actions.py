"""Yukon Airways rules, the decisions: the legal actions of the seat to decide, and applying one
(with the automation the rulebook runs by itself: refuel, income, maintenance, the end).

One of the rules modules split by rulebook phase (issue 32); ``rules.py`` re-exports every
function, so ``from sim.games.yukon_airways.rules import X`` keeps working. Layout and
encodings: ``layout.py``; decisions on ambiguities: ``RULES.md``.
"""

from __future__ import annotations

from sim.games.engine import emit, inline_kernel, leaf_kernel
from sim.games.yukon_airways.layout import (
    D_HAND,
    DP_PLANE,
    E_BURN,
    E_BUY,
    E_DECLINE,
    E_DISCARD,
    E_EXTRA,
    E_FACEDOWN,
    E_FLY,
    E_IMPROVE,
    E_MOVE,
    E_PASS,
    E_TAKE,
    E_TICKET,
    E_TUCK,
    E_WILD,
    H_ACTOR,
    H_COLOURS,
    H_DEST,
    H_FL_COLS,
    H_FL_DICE,
    H_FL_ROOM,
    H_FL_SYMS,
    H_FL_TICKETS,
    H_FL_WILD,
    H_FLIGHT,
    H_FREE,
    H_GIVE,
    H_PENDING,
    H_POS,
    H_STEP,
    H_TAKEN,
    H_TURN,
    K_ABILITY,
    K_BURN,
    K_BUY,
    K_DISCARD,
    K_EXTRA,
    K_FACEDOWN,
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
    NDIAL,
    NDOCK,
    NIMP,
    NSYM,
    P_DOCK6_COST,
    P_L,
    P_NDICE,
    P_NT,
    P_SEATS,
    P_TICKET_SYM,
    SE_DOCK,
    SE_FUEL,
    SE_LOC,
    SE_MONEY,
    SE_PASSED,
    SE_UNFLOWN,
    STEP_ABILITY,
    STEP_BURN,
    STEP_BUY,
    STEP_DEST,
    STEP_DISCARD,
    STEP_FACEDOWN,
    STEP_IMPROVE,
    STEP_LOAD,
    STEP_MOVE,
    STEP_PLACE,
    STEP_TAKE,
    SW_TWO_DICE,
    SYM_FUEL,
)
from sim.games.yukon_airways.rules_boarding import (
    can_take,
    dock_ability,
    finish_boarding_turn,
    place_marker,
    use_ability,
)
from sim.games.yukon_airways.rules_common import (
    aboard,
    aboard_add,
    aboard_colour,
    any_improvable,
    burn_card,
    charge,
    dial_value,
    die_at,
    discard_card,
    dock_add,
    dock_colour,
    fuel_cost,
    hand_add,
    hand_at,
    hand_total,
    improvable,
    improve,
    lay_face_down,
    se,
    switch_on,
    table_at,
)
from sim.games.yukon_airways.rules_flight import (
    add_symbol,
    can_fly_with,
    flight_numbers,
    fly_limits,
    fuel_out_least,
    income,
    land,
    load_die,
    next_flyer,
    payable_with,
    take_off,
    wild_size,
)
from sim.games.yukon_airways.rules_maintenance import next_discarder


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
    RB Boardingphase a (place), b (ability: "Wenn gewollt", docks 2, 4, 5; S2), Steg 6 (buy),
    c (move: $1 per die and step to an adjacent dock, 1 and 6 adjacent; free moves first; take:
    one colour, two with dock 3 / two_colours, up to the free seats), RB Flugphase (dest, load:
    a ticket naming the destination per passenger or the face-down cards, a tucked card of a
    played ticket's symbol, any symbol under face-down cards, the flight still payable after
    every card, payable_after; go when payable now; facedown: any card of the hand that leaves
    the flight payable, "drei beliebige verdeckte Karten"; burn: any card of the hand, S1),
    RB Flugphase b / e (improve), RB Wartungsphase d (discard)."""
    p, dist, loc, deck, dials, orders, visited, planes, dcol, tcount = spec
    s = state[H_ACTOR]
    st = state[H_STEP]
    n = 0
    if st == STEP_PLACE:
        for k in range(NDOCK):
            n = put(acts, n, K_PLACE, k, 0)
    elif st == STEP_ABILITY:
        n = put(acts, n, K_ABILITY, 0, 0)
        n = put(acts, n, K_ABILITY, 1, 0)
    elif st == STEP_BUY:
        n = put(acts, n, K_BUY, -1, 0)
        for kind in range(NIMP):
            if improvable(state, spec, s, kind):
                n = put(acts, n, K_BUY, kind, 0)
    elif st == STEP_MOVE:
        n = put(acts, n, K_MOVE_DONE, 0, 0)
        if state[H_FREE] > 0 or state[se(p, s, SE_MONEY)] > 0:
            for d in range(p[P_NDICE]):
                if state[die_at(p, d)] < NDOCK:
                    n = put(acts, n, K_MOVE, d, 0)
                    n = put(acts, n, K_MOVE, d, 1)
    elif st == STEP_TAKE:
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
    elif st == STEP_DEST:
        n = put(acts, n, K_PASS, 0, 0)
        if aboard(state, spec, s) > 0:
            lim_t, lim_f, lim_w = fly_limits(state, spec, s)
            for dest in range(p[P_L]):
                if can_fly_with(state, spec, s, dest, lim_t, lim_f, lim_w):
                    n = put(acts, n, K_FLY, dest, 0)
    elif st == STEP_LOAD:
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
                                            fuel_out_least(tot, fcards, w), True)
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
    elif st == STEP_FACEDOWN:
        # the H_GIVE cards still due leave the flight payable: this card, then the fewest fuel cards
        fuel, col, th, tot, fcards, dial = flight_numbers(state, spec, s)
        cost = fuel_cost(state, spec, s, state[H_DEST])
        g = state[H_GIVE]
        for t in range(p[P_NT]):
            if state[hand_at(p, s, t)] > 0:
                f = 1 if t % NSYM == SYM_FUEL else 0
                if payable_with(p, fuel, col, th, tot, fcards, dial, cost, -1, g,
                                f + fuel_out_least(tot - 1, fcards - f, g - 1), True):
                    n = put(acts, n, K_FACEDOWN, t, 0)
    elif st == STEP_BURN:
        for t in range(p[P_NT]):
            if state[hand_at(p, s, t)] > 0:
                n = put(acts, n, K_BURN, t, 0)
    elif st == STEP_IMPROVE:
        n = put(acts, n, K_IMPROVE, -1, 0)
        for kind in range(NIMP):
            if improvable(state, spec, s, kind):
                n = put(acts, n, K_IMPROVE, kind, 0)
    elif st == STEP_DISCARD:
        for t in range(p[P_NT]):
            if state[hand_at(p, s, t)] > 0:
                n = put(acts, n, K_DISCARD, t, 0)
    return n


# ---- apply ------------------------------------------------------------------------------------
@inline_kernel
def after_moves(state, spec, s, ev, evn):
    """End of the moves: take dice when a die can be taken, else refuel (RB Boardingphase c, d)."""
    if can_take(state, spec, s):
        state[H_STEP] = STEP_TAKE
    else:
        finish_boarding_turn(state, spec, s, ev, evn)


@inline_kernel
def after_flight(state, spec, s, rng, rig_dice, ev, evn):
    """After a flight: the improvements its markers earned (RB Flugphase e, a decision each),
    else the next turn."""
    if state[H_PENDING] > 0 and any_improvable(state, spec, s):
        state[H_STEP] = STEP_IMPROVE
    else:
        state[H_PENDING] = 0
        next_flyer(state, spec, rng, rig_dice, ev, evn)


@leaf_kernel
def improve_while_loading(state, spec, s):
    """RB Flugphase b: an improvement set completed while the flight is loaded gives its
    improvement at once ("Hat man drei gleiche Symbole gesammelt, erhält man einen
    entsprechenden Bonus"), before the fuel is paid (d): a decision (STEP_IMPROVE), then the
    loading goes on (RULES.md S3)."""
    if state[H_PENDING] > 0 and any_improvable(state, spec, s):
        state[H_STEP] = STEP_IMPROVE
    else:
        state[H_PENDING] = 0
        state[H_STEP] = STEP_LOAD


@inline_kernel
def touch_down(state, spec, s, rng, rig_dice, ev, evn):
    """The flight's fuel is paid: it lands (``land``), then its improvements or the next turn."""
    land(state, spec, s, rng, ev, evn)
    after_flight(state, spec, s, rng, rig_dice, ev, evn)


@leaf_kernel
def apply_action(state, spec, act, rng, rig_dice, ev, evn):
    """Apply the legal action ``act`` (int32[ACT_W]) of the seat to decide and run the
    automation that follows, up to the next decision (see ``legal_actions`` for the rules)."""
    p, dist, loc, deck, dials, orders, visited, planes, dcol, tcount = spec
    s = state[H_ACTOR]
    kind = act[0]
    a = act[1]
    b = act[2]
    T = state[H_TURN]
    if kind == K_PLACE:
        place_marker(state, spec, s, a, ev, evn)
        state[H_STEP] = dock_ability(state, spec, s, a, ev, evn)
    elif kind == K_ABILITY:
        k = state[se(p, s, SE_DOCK)]
        if a == 1:
            use_ability(state, spec, s, k, rng, ev, evn)
        else:
            emit(ev, evn, T, s, E_DECLINE, k, 0, 0, 0, 0)
        state[H_STEP] = STEP_MOVE
    elif kind == K_BUY:
        if a >= 0:
            charge(state, spec, s, p[P_DOCK6_COST])
            improve(state, spec, s, a, True)
        emit(ev, evn, T, s, E_BUY, a, p[P_DOCK6_COST], state[se(p, s, SE_MONEY)], 0, 0)
        state[H_STEP] = STEP_MOVE
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
        state[H_FLIGHT] = 1
        state[H_STEP] = STEP_LOAD
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
            improve_while_loading(state, spec, s)
    elif kind == K_WILD:
        w = wild_size(state, spec, s)
        d = load_die(state, spec, s, a)
        state[H_FL_TICKETS] += 1
        state[H_FL_WILD] += 1
        if switch_on(state, spec, s, SW_TWO_DICE) == 1:
            state[H_FL_ROOM] += 1
        state[H_GIVE] = w
        state[H_STEP] = STEP_FACEDOWN
        emit(ev, evn, T, s, E_WILD, w, d, a, 0, 0)
    elif kind == K_FACEDOWN:
        lay_face_down(state, spec, s, a)
        state[H_GIVE] -= 1
        emit(ev, evn, T, s, E_FACEDOWN, a, state[H_GIVE], 0, 0, 0)
        if state[H_GIVE] == 0:
            state[H_STEP] = STEP_LOAD
    elif kind == K_EXTRA:
        d = load_die(state, spec, s, a)
        state[H_FL_ROOM] -= 1
        emit(ev, evn, T, s, E_EXTRA, d, a, 0, 0, 0)
    elif kind == K_TUCK:
        hand_add(state, p, s, a, -1)
        state[table_at(p, s, a)] += 1
        emit(ev, evn, T, s, E_TUCK, a, a % NSYM, 0, 0, 0)
        add_symbol(state, spec, s, a % NSYM, ev, evn)
        improve_while_loading(state, spec, s)
    elif kind == K_GO:
        burn = take_off(state, spec, s, ev, evn)
        if burn > 0:
            state[H_GIVE] = burn
            state[H_STEP] = STEP_BURN
        else:
            touch_down(state, spec, s, rng, rig_dice, ev, evn)
    elif kind == K_BURN:
        burn_card(state, spec, s, a)
        state[H_GIVE] -= 1
        emit(ev, evn, T, s, E_BURN, a, state[H_GIVE], 0, 0, 0)
        if state[H_GIVE] == 0:
            touch_down(state, spec, s, rng, rig_dice, ev, evn)
    elif kind == K_IMPROVE:
        if a >= 0:
            improve(state, spec, s, a, True)
            state[H_PENDING] -= 1
            if state[H_FLIGHT] == 1 and a == NDIAL + SW_TWO_DICE:
                state[H_FL_ROOM] += state[H_FL_TICKETS]  # RB Flugphase c: dice go on the tickets after b
        else:
            state[H_PENDING] = 0
        emit(ev, evn, T, s, E_IMPROVE, a, state[H_PENDING], 0, 0, 0)
        if state[H_FLIGHT] == 1:
            improve_while_loading(state, spec, s)
        else:
            after_flight(state, spec, s, rng, rig_dice, ev, evn)
    elif kind == K_DISCARD:
        hand_add(state, p, s, a, -1)
        discard_card(state, spec, a)
        emit(ev, evn, T, s, E_DISCARD, a, 0, 0, 0, 0)
        if hand_total(state, spec, s) <= dial_value(state, spec, s, D_HAND):
            next_discarder(state, spec, state[H_POS], ev, evn)
