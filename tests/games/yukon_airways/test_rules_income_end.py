"""RB Einkommensphase, Wartungsphase and Spielende (with the decisions D6 and D12)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.games.base import Rig
from sim.games.engine import event_buffer
from sim.games.yukon_airways.layout import (
    DP_PLANE,
    K_DISCARD,
    K_FLY,
    K_GO,
    K_IMPROVE,
    K_PASS,
    K_TICKET,
    P_OFF_COCKPIT,
    ST_DISCARD,
    ST_IMPROVE,
    ST_OVER,
    ST_PLACE,
    STEP_NAMES,
    SYM_FUEL,
    SYM_MONEY,
)
from sim.games.yukon_airways.rules import end_game
from tests.games.yukon_airways.conftest import load_plane, set_hand, to_flights
from tests.games.yukon_airways.test_rules_flight import BY_COLOUR, PINK, flight_position


def step(g):
    return STEP_NAMES.index(g.snapshot()["step"])


def fly(g, dest, tickets):
    """Fly the actor to ``dest`` with ``tickets`` [(symbol, colour)], skipping improvements."""
    g.apply((K_FLY, dest, 0))
    for y, c in tickets:
        g.apply((K_TICKET, y, c))
    g.apply((K_GO, 0, 0))
    while step(g) == ST_IMPROVE:
        g.apply((K_IMPROVE, -1, 0))


def pass_others(g, s):
    while step(g) != ST_PLACE and g.snapshot()["actor"] != s and step(g) != ST_OVER:
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
    while step(g) != ST_PLACE:
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
    while step(g) != ST_PLACE:
        g.apply(g.legal_actions()[0])
    assert g.die(3) == (1, -1)


def test_hand_limit_only_in_maintenance(gs):
    """RB Wartungsphase d / Appendix: over the hand limit one discards (a choice) after drawing."""
    g, s = flight_position(gs)
    cards = [g.card(n, "fuel") for n in ("Mayo", "Atlin", "Teslin", "Carcross", "Carmacks", "Haines Junction", "Dawson City")]
    set_hand(g, s, cards)  # 7 cards, limit 6 (7 for seat 2): allowed during the round
    assert g.invariants() == 0
    while step(g) != ST_DISCARD and step(g) != ST_PLACE:
        g.apply(g.legal_actions()[0])
    limit = 7 if s == 2 else 6
    if step(g) == ST_DISCARD:
        a = g.snapshot()["actor"]
        assert all(x[0] == K_DISCARD for x in g.legal_actions())
        while step(g) == ST_DISCARD and g.snapshot()["actor"] == a:
            g.apply(g.legal_actions()[0])
        assert sum(g.hand(a).values()) == (7 if a == 2 else 6)
    while step(g) != ST_PLACE:
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
