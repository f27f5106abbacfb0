"""RB Einkommensphase, Wartungsphase and Spielende (with the decisions D6 and D12)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.games.base import Rig
from sim.games.engine import event_buffer
from sim.games.yukon_airways.layout import (
    DP_PLANE,
    E_END,
    E_PLACE,
    E_ROUND,
    K_DISCARD,
    K_FLY,
    K_GO,
    K_IMPROVE,
    K_PASS,
    K_TICKET,
    P_CAP,
    P_OFF_COCKPIT,
    STEP_BURN,
    STEP_DEST,
    STEP_DISCARD,
    STEP_IMPROVE,
    STEP_NAMES,
    STEP_OVER,
    STEP_PLACE,
    SYM_FUEL,
    SYM_MONEY,
)
from sim.games.yukon_airways.rules import end_game
from tests.games.yukon_airways.conftest import load_plane, set_hand, to_flights
from tests.games.yukon_airways.test_rules_flight import BY_COLOUR, PINK, YELLOW, flight_position


def step(g):
    return STEP_NAMES.index(g.snapshot()["step"])


def fly(g, dest, tickets):
    """Fly the actor to ``dest`` with ``tickets`` [(symbol, colour)], burning the first cards of the
    hand when the tank is short, skipping improvements."""
    g.apply((K_FLY, dest, 0))
    for y, c in tickets:
        g.apply((K_TICKET, y, c))
    g.apply((K_GO, 0, 0))
    while step(g) == STEP_BURN:
        g.apply(g.legal_actions()[0])
    while step(g) == STEP_IMPROVE:
        g.apply((K_IMPROVE, -1, 0))


def pass_others(g, s):
    while step(g) != STEP_PLACE and g.snapshot()["actor"] != s and step(g) != STEP_OVER:
        g.apply(g.legal_actions()[0])


def test_income_highest_value_dollar_per_die_and_far_bonus(gs):
    """RB Einkommensphase a, b: the highest value visited (not the sum), $1 per die, +$3 per die
    flown to Inuvik."""
    g, s = flight_position(gs, fixed_orders=[3, 4, 5])  # orders no pink delivery meets
    load_plane(g, s, [0, 1, 2])
    inu, cin = g.loc("Inuvik"), g.loc("Cinnamon Strip")
    set_hand(g, s, [g.card("Cinnamon Strip", "money"), g.card("Inuvik", "money"), g.card("Inuvik", "fuel"),
                    g.card("Mayo", "fuel"), g.card("Atlin", "fuel"), g.card("Teslin", "fuel")])
    g.set_fuel(s, 7)
    g.set_dial(s, "cards_as_fuel", 3)  # value 3
    fly(g, cin, [(SYM_MONEY, PINK)])  # fuel 7 - 1 = 6
    pass_others(g, s)
    m0 = g.seat(s)["money"]
    fly(g, inu, [(SYM_MONEY, PINK), (SYM_FUEL, PINK)])
    assert g.seat(s)["burnt"] == 3 and g.seat(s)["fuel"] == 0  # Cinnamon Strip -> Inuvik: 1 + 3 + 5 = 9
    pass_others(g, s)
    g.apply((K_PASS, 0, 0))
    seat = g.seat(s)
    assert seat["m_value"] == 11 and seat["m_dice"] == 3 and seat["m_far"] == 6
    assert seat["money"] == m0 + 11 + 3 + 6


def test_maintenance_rolls_ticket_dice_discards_tickets_draws_and_returns_planes(gs):
    """RB Wartungsphase a-d and the return to Whitehorse; D6: unflown dice stay aboard."""
    extra = [6, 6, 6, 6]  # maintenance rolls of the dice on tickets
    g = gs(0, rig=Rig(dice=BY_COLOUR + extra))
    to_flights(g, [5, 5, 5, 5])
    s = g.snapshot()["actor"]
    for o in range(4):
        load_plane(g, o, [])
    load_plane(g, s, [0, 1, 3])
    set_hand(g, s, [g.card("Carcross", "money"), g.card("Carcross", "fuel")])
    fly(g, g.loc("Carcross"), [(SYM_MONEY, PINK), (SYM_FUEL, PINK)])
    disc = g.snapshot()["discard"]
    while step(g) != STEP_PLACE:
        acts = g.legal_actions()
        g.apply(acts[0])
    assert g.snapshot()["round"] == 1
    assert g.die(0) == (5, -1) and g.die(1) == (5, -1)  # rolled 6: dock 6
    assert g.die(3) == (DP_PLANE, s)  # D6 default: stays aboard
    assert g.snapshot()["discard"] >= disc + 2
    draw = [2, 3, 2, 2][s]  # draw dial values (seat 1's plane starts one step up)
    assert sum(g.hand(s).values()) == draw
    assert all(g.seat(o)["loc"] == g.loc("Whitehorse") for o in range(4))
    assert g.invariants() == 0


def test_d6_unflown_dice_rolled_option(gs):
    g = gs(0, rig=Rig(dice=BY_COLOUR + [2]), unflown_dice="roll")
    to_flights(g, [5, 5, 5, 5])
    for o in range(4):
        load_plane(g, o, [])
    s = g.snapshot()["actor"]
    load_plane(g, s, [3])
    while step(g) != STEP_PLACE:
        g.apply(g.legal_actions()[0])
    assert g.die(3) == (1, -1)


def test_hand_limit_only_in_maintenance(gs):
    """RB Wartungsphase d / Appendix: over the hand limit one discards (a choice) after drawing."""
    g, s = flight_position(gs)
    cards = [g.card(n, "fuel") for n in ("Mayo", "Atlin", "Teslin", "Carcross", "Carmacks", "Haines Junction", "Dawson City")]
    set_hand(g, s, cards)  # 7 cards, limit 6 (7 for seat 2): allowed during the round
    assert g.invariants() == 0
    while step(g) != STEP_DISCARD and step(g) != STEP_PLACE:
        g.apply(g.legal_actions()[0])
    limit = 7 if s == 2 else 6
    if step(g) == STEP_DISCARD:
        a = g.snapshot()["actor"]
        assert all(x[0] == K_DISCARD for x in g.legal_actions())
        while step(g) == STEP_DISCARD and g.snapshot()["actor"] == a:
            g.apply(g.legal_actions()[0])
        assert sum(g.hand(a).values()) == (7 if a == 2 else 6)
    while step(g) != STEP_PLACE:
        g.apply(g.legal_actions()[0])
    assert sum(g.hand(s).values()) <= limit


def _end(g):
    ev, evn = event_buffer(64)
    end_game(g.state, g.spec, ev, evn)
    return g.snapshot()


def test_end_christmas_dial_switch_and_visited_table(gs):
    """RB Spielende: Christmas dial, the marker_money switch, the visited-locations table."""
    g = gs(0)
    g.set_dial(0, "christmas", 2)  # $6
    g.set_switch(1, "marker_money")
    # seat 1: two pink markers (Carcross, Atlin) and a grey one (Mayo): 3 places visited
    for name, col in (("Carcross", 0), ("Atlin", 0), ("Mayo", 5)):
        l = g.loc(name)
        o = int(g.p[P_OFF_COCKPIT]) + (1 * 13 + l) * 6 + col
        if col < 5:
            m = g.markers()[l]
            m[col] -= 1 if m[col] else 0
            g.set_markers(l, m)
        g.state[o] += 1
    money = [g.seat(s)["money"] for s in range(4)]
    _end(g)
    assert g.seat(0)["m_christmas"] == 6 and g.seat(0)["money"] == money[0] + 6
    assert g.seat(1)["m_switch"] == 4 and g.seat(1)["m_visited"] == 2  # table[3] = 2
    assert g.seat(1)["money"] == money[1] + 4 + 2


@pytest.mark.parametrize("rule,winner,shared", [("fuel", "more_fuel", 0), ("shared", -1, 1)])
def test_d12_tie_rule(gs, rule, winner, shared):
    g = gs(0, tie_break=rule)
    for s, (m, f) in enumerate([(20, 1), (20, 3), (5, 7), (20, 3) if rule == "shared" else (19, 7)]):
        g.set_money(s, m)
        g.set_fuel(s, f)
    snap = _end(g)
    assert snap["winner"] == (1 if winner == "more_fuel" else -1) and snap["shared"] == shared
    ranks = [g.seat(s)["rank"] for s in range(4)]
    if rule == "fuel":
        assert ranks == [2, 1, 4, 3]  # money, then fuel
    else:
        assert ranks[0] == ranks[1] == ranks[3] == 1 and ranks[2] == 4


def test_fuel_tie_with_equal_fuel_is_shared(gs):
    g = gs(0, tie_break="fuel")
    for s in range(4):
        g.set_money(s, 10 if s < 2 else 3)
        g.set_fuel(s, 2)
    snap = _end(g)
    assert snap["winner"] == -1 and snap["shared"] == 1
    assert np.array_equal([g.seat(s)["rank"] for s in range(4)], [1, 1, 3, 3])


def test_income_b_old_crow_two_dollars_per_die(gs):
    """RB Einkommensphase b: "1$ pro Würfel, der sich noch auf den Flugtickets befindet. Ist man bis
    zu den Orten Old Crow oder Inuvik geflogen, erhält man pro Würfel auf diesen Flugtickets
    zusätzlich 2$ bzw. 3$." Two dice flown to Old Crow: value 10, $2 for the dice, +$2 each."""
    g, s = flight_position(gs, fixed_orders=[3, 4, 5])  # orders no pink delivery meets
    load_plane(g, s, [0, 1])
    old = g.loc("Old Crow")
    set_hand(g, s, [g.card("Old Crow", "money"), g.card("Old Crow", "fuel"), g.card("Mayo", "fuel"),
                    g.card("Atlin", "fuel")])
    g.set_fuel(s, 7)
    g.set_dial(s, "cards_as_fuel", 2)  # value 2
    m0 = g.seat(s)["money"]
    fly(g, old, [(SYM_MONEY, PINK), (SYM_FUEL, PINK)])  # Whitehorse -> Old Crow: 1 + 1 + 3 + 4 = 9
    assert g.seat(s)["loc"] == old and g.seat(s)["burnt"] == 2 and g.seat(s)["fuel"] == 0
    pass_others(g, s)
    g.apply((K_PASS, 0, 0))
    seat = g.seat(s)
    assert seat["m_value"] == 10 and seat["m_dice"] == 2 and seat["m_far"] == 4  # +$2 per die, not $3
    assert seat["m_orders"] == 0 and seat["money"] == m0 + 10 + 2 + 4


@pytest.mark.parametrize("flights,orders", [(2, 2 + 2 + 3), (1, 2)])
def test_income_c_day_orders_paid_once_at_income(gs, flights, orders):
    """RB Einkommensphase c: "Nach dem eigenen letzten Flug in einer Runde erhält man ... c) die
    Belohnungen für erfüllte Auftragskarten." Order cards 6 (fuel left >= 3: $2), 7 (two
    destinations: $2), 8 (four dice delivered: $3), ASSUMPTION RN 10.7, pay once for the day at
    the seat's income, not per flight; one flight with two dice meets only card 6."""
    g, s = flight_position(gs, fixed_orders=[6, 7, 8])
    load_plane(g, s, [0, 1, 3, 4])  # pink 0 1, yellow 3 4
    set_hand(g, s, [g.card("Carcross", "money"), g.card("Carcross", "fuel"), g.card("Atlin", "money"),
                    g.card("Atlin", "fuel")])
    g.set_fuel(s, 7)
    fly(g, g.loc("Carcross"), [(SYM_MONEY, PINK), (SYM_FUEL, PINK)])
    assert g.seat(s)["m_orders"] == 0  # day orders wait for the income (D8)
    if flights == 2:
        pass_others(g, s)
        fly(g, g.loc("Atlin"), [(SYM_MONEY, YELLOW), (SYM_FUEL, YELLOW)])  # Carcross -> Atlin: 1
        assert g.seat(s)["m_orders"] == 0
    pass_others(g, s)
    m0 = g.seat(s)["money"]
    g.apply((K_PASS, 0, 0))
    seat = g.seat(s)
    assert seat["fuel"] == 7 - flights and seat["m_dice"] == 2 * flights
    assert seat["m_orders"] == orders
    assert seat["money"] == m0 + seat["m_value"] + seat["m_dice"] + orders


@pytest.mark.parametrize("dest,orders", [("Dawson City", 3), ("Mayo", 0)])
def test_income_c_places_order(gs, dest, orders):
    """RB Einkommensphase c: order card 9 (ASSUMPTION RN 10.7: a flight to Dawson City, Old Crow or
    Inuvik this day pays $3) is met by Dawson City, not by Mayo."""
    g, s = flight_position(gs, fixed_orders=[9, 3, 4])
    load_plane(g, s, [0])
    set_hand(g, s, [g.card(dest, "money")])
    g.set_fuel(s, 7)
    fly(g, g.loc(dest), [(SYM_MONEY, PINK)])
    assert g.seat(s)["m_orders"] == 0
    pass_others(g, s)
    g.apply((K_PASS, 0, 0))
    assert g.seat(s)["m_orders"] == orders


@pytest.mark.parametrize("fuel,flies,orders", [(3, False, 2), (2, False, 0), (4, True, 2), (3, True, 0)])
def test_d11_fuel_left_order_met_with_the_fuel_at_income(gs, fuel, flies, orders):
    """RB Einkommensphase c, D11: order card 6 (ASSUMPTION RN 10.7: at least 3 fuel left, $2) is met
    with the fuel at the seat's income, after its flights (Carcross costs 1), or without a flight."""
    g, s = flight_position(gs, fixed_orders=[6, 3, 4])
    load_plane(g, s, [0])
    set_hand(g, s, [g.card("Carcross", "money")])
    g.set_fuel(s, fuel)
    if flies:
        fly(g, g.loc("Carcross"), [(SYM_MONEY, PINK)])
        pass_others(g, s)
    g.apply((K_PASS, 0, 0))
    seat = g.seat(s)
    assert seat["fuel"] == fuel - flies and seat["flights"] == int(flies)
    assert seat["m_orders"] == orders


def _policy_to_flights_of_day(g, day):
    """Play every decision as the seats' policies would, up to the first flight turn of ``day``."""
    while not (g.snapshot()["round"] == day and step(g) == STEP_DEST):
        assert not g.over
        g.apply(g.policy_choice())


def test_spielende_after_the_sixth_day(gs):
    """RB Spielablauf / Spielende: "Das Spiel wird über sechs Runden gespielt" ... "Nach der sechsten
    Runde endet das Spiel; wer am meisten Geld besitzt, gewinnt." When every seat passes on
    Saturday (the fifth day) Sunday's boarding follows; when every seat has passed on Sunday the
    game is over at once (S5: the last maintenance is skipped) with the end money paid."""
    g = gs(0)
    boarded = []
    while not (g.snapshot()["round"] == 4 and step(g) == STEP_DEST):
        if step(g) == STEP_PLACE and g.snapshot()["round"] not in boarded:
            boarded.append(g.snapshot()["round"])
        assert not g.over
        g.apply(g.policy_choice())
    assert boarded == [0, 1, 2, 3, 4]
    while step(g) == STEP_DEST:
        g.apply((K_PASS, 0, 0))
    while step(g) == STEP_DISCARD:
        g.apply(g.policy_choice())
    assert step(g) == STEP_PLACE and g.snapshot()["round"] == 5 and not g.over  # Sunday boards
    _policy_to_flights_of_day(g, 5)
    n_ev = len(g.events())
    assert all(g.seat(s)["m_visited"] == 0 and g.seat(s)["rank"] == 0 for s in range(4))
    for _ in range(4):
        assert step(g) == STEP_DEST and g.seat(g.snapshot()["actor"])["passed"] == 0
        g.apply((K_PASS, 0, 0))
    snap = g.snapshot()
    assert snap["step"] == "over" and snap["round"] == 5 and g.over and g.legal_actions() == []
    assert snap["turn"] < int(g.p[P_CAP])  # over by the rules, not by the turn cap
    ev = g.events()[n_ev:]
    assert not any(e[2] in (E_ROUND, E_PLACE) for e in ev)  # no seventh day
    assert sum(e[2] == E_END for e in ev) == 1
    table = [0, 0, 1, 2, 4, 6, 9, 12, 16, 20, 25, 30, 36]  # ASSUMPTION RN 10.8 (the config's table)
    for s in range(4):
        places = sum(1 for l in range(13) if sum(g.cockpit_markers(s, l)) > 0)
        assert g.seat(s)["m_visited"] == table[places]
    assert max(g.seat(s)["m_visited"] for s in range(4)) > 0  # the end money was paid
    money = [g.seat(s)["money"] for s in range(4)]
    top = [s for s in range(4) if money[s] == max(money)]
    fuel = [g.seat(s)["fuel"] for s in top]
    if max(fuel) != min(fuel) or len(top) == 1:  # the richest seat wins, a tie by the most fuel (D12)
        assert snap["winner"] == top[fuel.index(max(fuel))] and g.seat(snap["winner"])["rank"] == 1
    else:
        assert snap["winner"] == -1 and snap["shared"] == 1
