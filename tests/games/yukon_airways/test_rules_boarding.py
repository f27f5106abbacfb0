"""RB Boardingphase (a-d) and the docks of the Appendix (Stege 1-6), on rigged positions."""

from __future__ import annotations

import pytest

from sim.games.base import Rig
from sim.games.yukon_airways.layout import (
    DP_PLANE,
    K_ABILITY,
    K_BUY,
    K_MOVE,
    K_MOVE_DONE,
    K_PLACE,
    K_TAKE,
    K_TAKE_DONE,
    STEP_BUY,
    STEP_DEST,
    STEP_MOVE,
    STEP_NAMES,
    STEP_PLACE,
    STEP_TAKE,
)
from tests.games.yukon_airways.conftest import BY_COLOUR, GREEN, PINK, YELLOW, load_plane, to_flights


def step(g):
    return STEP_NAMES.index(g.snapshot()["step"])


def test_a_shared_docks_and_the_new_turn_order_lowest_dock_first_top_to_bottom(gs):
    """RB Boardingphase a + 'neue Zugreihenfolge': a later marker goes under the earlier ones."""
    g = gs(0, rig=Rig(dice=BY_COLOUR))
    order = g.turn_order()
    to_flights(g, [2, 0, 2, 1])
    assert g.turn_order() == [order[1], order[3], order[0], order[2]]
    assert step(g) == STEP_DEST and g.snapshot()["actor"] == order[1]


def test_every_dock_can_be_chosen_even_when_taken(gs):
    g = gs(0, rig=Rig(dice=BY_COLOUR))
    g.apply((K_PLACE, 0, 0))
    g.end_turn()
    assert (K_PLACE, 0, 0) in g.legal_actions() and len(g.legal_actions()) == 6


def test_dock_2_draws_a_ticket(gs):
    """Steg 2: "Man darf eine Ticketkarte ziehen" (used when wanted, RULES.md S2)."""
    g = gs(0, rig=Rig(dice=BY_COLOUR))
    s = g.turn_order()[0]
    before = sum(g.hand(s).values())
    g.apply((K_PLACE, 1, 0))
    g.apply((K_ABILITY, 1, 0))
    assert sum(g.hand(s).values()) == before + 1


def test_one_colour_only_and_dock_3_gives_a_second_colour(gs):
    """RB Boardingphase c: one or more dice of one colour; Steg 3: two different colours."""
    faces = [3, 1, 1, 3, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5]  # dock 3: pink 0, yellow 3, green 6-8
    g = gs(0, rig=Rig(dice=faces))
    s = g.turn_order()[0]
    g.apply((K_PLACE, 2, 0))
    g.apply((K_MOVE_DONE, 0, 0))
    acts = g.legal_actions()
    assert (K_TAKE_DONE, 0, 0) not in acts  # a first take is due
    assert {(a[1], a[2]) for a in acts} == {(PINK, 1), (YELLOW, 1), (GREEN, 1), (GREEN, 2), (GREEN, 3)}
    g.apply((K_TAKE, GREEN, 3))
    acts = g.legal_actions()
    assert acts[0] == (K_TAKE_DONE, 0, 0) and (K_TAKE, PINK, 1) in acts and (K_TAKE, GREEN, 1) not in acts
    g.apply((K_TAKE, PINK, 1))  # the plane is full now: the turn ends
    assert step(g) == STEP_PLACE and g.snapshot()["actor"] != s
    assert sorted(d for d in range(15) if g.die(d) == (DP_PLANE, s)) == [0, 6, 7, 8]


def test_other_docks_allow_one_colour(gs):
    faces = [1, 1, 1, 1, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5]  # dock 1: pink 0-2, yellow 3
    g = gs(0, rig=Rig(dice=faces))
    s = g.turn_order()[0]
    g.apply((K_PLACE, 0, 0))
    g.apply((K_MOVE_DONE, 0, 0))
    g.apply((K_TAKE, PINK, 2))
    assert step(g) == STEP_PLACE  # no second colour, turn over
    assert sum(1 for d in range(15) if g.die(d) == (DP_PLANE, s)) == 2


def test_takes_no_more_dice_than_free_seats(gs):
    g = gs(0, rig=Rig(dice=BY_COLOUR))
    s = g.turn_order()[0]
    load_plane(g, s, [12, 13, 14])
    g.apply((K_PLACE, 0, 0))
    g.apply((K_MOVE_DONE, 0, 0))
    assert g.legal_actions() == [(K_TAKE, PINK, 1)]


def test_d_refuel_one_per_free_barrel_plus_bonus_fuel_dial_tank_capped(gs):
    g = gs(0, rig=Rig(dice=BY_COLOUR))
    s = g.turn_order()[0]
    g.set_dial(s, "bonus_fuel", 1)  # value 1
    g.set_fuel(s, 2)
    g.apply((K_PLACE, 0, 0))
    g.apply((K_MOVE_DONE, 0, 0))
    g.apply((K_TAKE, PINK, 3))  # one free seat
    assert g.seat(s)["fuel"] == 2 + 1 + 1
    g2 = gs(0, rig=Rig(dice=BY_COLOUR))
    s2 = g2.turn_order()[0]
    g2.apply((K_PLACE, 5, 0))  # dock 6 holds no dice: four free barrels
    g2.end_turn()
    assert g2.seat(s2)["fuel"] == 7  # 4 + 4 (+ bonus) capped at the tank


def test_moving_a_die_costs_1_and_docks_1_and_6_are_adjacent(gs):
    g = gs(0, rig=Rig(dice=BY_COLOUR))
    s = g.turn_order()[0]
    g.set_switch(s, "free_moves", 0)
    g.set_money(s, 3)
    g.apply((K_PLACE, 5, 0))
    assert step(g) == STEP_BUY or step(g) == STEP_MOVE
    if step(g) == STEP_BUY:
        g.apply((K_BUY, -1, 0))
    g.apply((K_MOVE, 0, 0))  # pink die 0: dock 1 -> dock 6 (downwards wraps)
    assert g.die(0) == (5, -1) and g.seat(s)["money"] == 2
    g.apply((K_MOVE, 13, 1))  # red die 13: dock 5 -> dock 6
    assert g.die(13) == (5, -1) and g.seat(s)["money"] == 1
    g.apply((K_MOVE, 0, 1))  # dock 6 -> dock 1 (upwards wraps)
    assert g.die(0) == (0, -1) and g.seat(s)["money"] == 0
    assert g.legal_actions() == [(K_MOVE_DONE, 0, 0)]  # no money, no free move left
    assert g.invariants() == 0


def test_switch_free_moves_gives_two_free_moves(gs):
    g = gs(0, rig=Rig(dice=BY_COLOUR))
    s = g.turn_order()[0]
    g.set_switch(s, "free_moves", 1)
    g.set_money(s, 1)
    g.apply((K_PLACE, 0, 0))
    for d in (3, 4, 5):
        g.apply((K_MOVE, d, 0))  # dock 2 -> dock 1
    assert g.seat(s)["money"] == 0 and g.seat(s)["spent"] == 1


def test_dock_4_one_free_move_and_one_fuel(gs):
    g = gs(0, rig=Rig(dice=BY_COLOUR))
    s = g.turn_order()[0]
    g.set_switch(s, "free_moves", 0)
    g.set_fuel(s, 4)
    m = g.seat(s)["money"]
    g.apply((K_PLACE, 3, 0))
    g.apply((K_ABILITY, 1, 0))
    assert g.seat(s)["fuel"] == 5 and step(g) == STEP_MOVE
    g.apply((K_MOVE, 12, 0))  # red: dock 5 -> dock 4, free
    assert g.seat(s)["money"] == m
    if m > 0:
        g.apply((K_MOVE, 13, 0))
        assert g.seat(s)["money"] == m - 1


def test_dock_5_two_fuel(gs):
    g = gs(0, rig=Rig(dice=BY_COLOUR))
    s = g.turn_order()[0]
    g.set_fuel(s, 3)
    g.apply((K_PLACE, 4, 0))
    g.apply((K_ABILITY, 1, 0))
    assert g.seat(s)["fuel"] == 5


def test_dock_6_pay_1_for_an_improvement(gs):
    g = gs(0, rig=Rig(dice=BY_COLOUR))
    s = g.turn_order()[0]
    g.set_money(s, 4)
    g.apply((K_PLACE, 5, 0))
    assert step(g) == STEP_BUY
    acts = g.legal_actions()
    assert acts[0] == (K_BUY, -1, 0) and (K_BUY, 4, 0) in acts  # christmas dial
    g.apply((K_BUY, 4, 0))
    seat = g.seat(s)
    assert seat["money"] == 3 and seat["dials"]["christmas"] == 1 and seat["improvements"]["christmas"] == 1
    assert g.invariants() == 0


def test_dock_6_without_money_has_no_purchase(gs):
    g = gs(0, rig=Rig(dice=BY_COLOUR))
    s = g.turn_order()[0]
    g.set_money(s, 0)
    g.apply((K_PLACE, 5, 0))
    assert step(g) == STEP_MOVE


def test_d9_seventh_switch_two_colours(gs):
    """D9: with two_colour_switch the research note's seventh switch lets a seat take a second
    colour on any dock (and a third on dock 3)."""
    faces = [1, 1, 1, 1, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5]  # dock 1: pink 0-2, yellow 3
    g = gs(0, rig=Rig(dice=faces), two_colour_switch=True)
    s = g.turn_order()[0]
    g.set_switch(s, "two_colours")
    assert g.invariants() == 0
    g.apply((K_PLACE, 0, 0))
    g.apply((K_MOVE_DONE, 0, 0))
    g.apply((K_TAKE, PINK, 2))
    assert step(g) == STEP_TAKE and (K_TAKE, YELLOW, 1) in g.legal_actions()
    g2 = gs(0, rig=Rig(dice=faces))
    s2 = g2.turn_order()[0]
    g2.set_switch(s2, "two_colours")
    assert g2.invariants() != 0  # the switch does not exist without the option


def test_new_turn_order_is_the_next_days_boarding_order(gs):
    """RB Boardingphase, 'neue Zugreihenfolge' (the Zugleiste): "Nachdem alle Spieler diese Schritte
    durchlaufen haben, wird eine neue Zugreihenfolge festgelegt. Der Spieler, der auf dem Steg mit
    der niedrigsten Nummer steht, kommt auf Platz eins usw." The order set on Tuesday is the order
    of Wednesday's boarding turns (and the next new order comes from Wednesday's docks)."""
    g = gs(0, rig=Rig(dice=BY_COLOUR))
    order = g.turn_order()
    to_flights(g, [2, 0, 2, 1])
    new = [order[1], order[3], order[0], order[2]]
    assert g.turn_order() == new and new != order
    while g.snapshot()["round"] == 0:  # every seat passes; maintenance (discards to the hand limit)
        g.apply(g.legal_actions()[0])
    assert step(g) == STEP_PLACE
    boarded = []
    for k in [5, 4, 3, 0]:
        assert step(g) == STEP_PLACE
        boarded.append(g.snapshot()["actor"])
        g.apply((K_PLACE, k, 0))
        g.end_turn()
    assert boarded == new  # Wednesday boards in Tuesday's new order, not from the start player
    assert g.turn_order() == [new[3], new[2], new[1], new[0]]  # Wednesday's docks 6, 5, 4, 1


def test_c_no_die_moves_once_dice_are_taken(gs):
    """RB Boardingphase c: "Bevor man Würfel nimmt, kann man Würfel auf angrenzende Stege
    verschieben." Moves are offered before the first take (free moves and money left), none after
    it, even on dock 3 where a second colour may still be taken."""
    faces = [3, 1, 1, 3, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5]  # dock 3: pink 0, yellow 3, green 6-8
    g = gs(0, rig=Rig(dice=faces))
    s = g.turn_order()[0]
    g.set_switch(s, "free_moves", 1)
    g.set_money(s, 3)
    g.apply((K_PLACE, 2, 0))
    assert step(g) == STEP_MOVE and (K_MOVE, 1, 0) in g.legal_actions()  # before taking: moves allowed
    g.apply((K_MOVE_DONE, 0, 0))
    g.apply((K_TAKE, GREEN, 2))
    assert step(g) == STEP_TAKE and g.snapshot()["actor"] == s  # the turn goes on: a second colour
    acts = g.legal_actions()
    assert {a[0] for a in acts} == {K_TAKE_DONE, K_TAKE}
    assert (K_TAKE, PINK, 1) in acts and not any(a[0] == K_MOVE for a in acts)
    with pytest.raises(ValueError):
        g.apply((K_MOVE, 1, 0))  # pink die 1: dock 1 -> dock 6, refused after a take
    assert g.die(1) == (0, -1) and g.seat(s)["money"] == 3
