"""RB Flugphase (a-f) and the Appendix switches that act in flights, on rigged positions."""

from __future__ import annotations

import pytest

from sim.games.base import Rig
from sim.games.yukon_airways.layout import (
    DP_PLANE,
    DP_TICKET,
    GREY,
    K_BURN,
    K_EXTRA,
    K_FACEDOWN,
    K_FLY,
    K_GO,
    K_IMPROVE,
    K_PASS,
    K_TICKET,
    K_TUCK,
    K_WILD,
    STEP_DEST,
    STEP_IMPROVE,
    STEP_LOAD,
    STEP_NAMES,
    STEP_PLACE,
    SYM_FUEL,
    SYM_IMPROVE,
    SYM_MONEY,
)
from tests.games.yukon_airways.conftest import load_plane, set_hand, to_flights

BY_COLOUR = [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5]
PINK, YELLOW, GREEN, BLUE, RED = range(5)


def step(g):
    return STEP_NAMES.index(g.snapshot()["step"])


def flight_position(gs, **section):
    """Every seat boarded at the empty dock 6: the first flyer decides, no dice aboard."""
    g = gs(0, rig=Rig(dice=BY_COLOUR), **section)
    to_flights(g, [5, 5, 5, 5])
    s = g.snapshot()["actor"]
    assert step(g) == STEP_DEST
    for o in range(4):
        load_plane(g, o, [])
    return g, s


def test_a_flight_needs_a_passenger(gs):
    g, s = flight_position(gs)
    assert g.legal_actions() == [(K_PASS, 0, 0)]


def test_a_ticket_per_passenger_and_fuel_summed_along_the_route(gs):
    """RB Flugphase a, c, d: Whitehorse -> Mayo sums 1 + 1 + 2 fuel (Cinnamon Strip, Carmacks)."""
    g, s = flight_position(gs)
    mayo = g.loc("Mayo")
    load_plane(g, s, [0])
    set_hand(g, s, [g.card("Mayo", "money")])
    g.set_fuel(s, 7)
    assert (K_FLY, mayo, 0) in g.legal_actions()
    assert (K_FLY, g.loc("Teslin"), 0) not in g.legal_actions()  # one card cannot pay face-down
    g.apply((K_FLY, mayo, 0))
    assert step(g) == STEP_LOAD and g.legal_actions()[0] != (K_GO, 0, 0)  # a passenger first
    g.apply((K_TICKET, SYM_MONEY, PINK))
    g.apply((K_GO, 0, 0))
    seat = g.seat(s)
    assert seat["fuel"] == 3 and seat["loc"] == mayo and g.die(0) == (DP_TICKET, s)
    assert g.invariants() == 0


def test_d_cards_as_fuel_only_up_to_the_dial(gs):
    """Appendix Anzeigen: ticket cards as fuel when the tank is short, up to the dial."""
    g, s = flight_position(gs)
    mayo = g.loc("Mayo")
    load_plane(g, s, [0])
    set_hand(g, s, [g.card("Mayo", "money"), g.card("Carcross", "fuel")])
    g.set_fuel(s, 3)
    g.set_dial(s, "cards_as_fuel", 0)
    assert (K_FLY, mayo, 0) not in g.legal_actions()
    g.set_dial(s, "cards_as_fuel", 1)
    assert (K_FLY, mayo, 0) in g.legal_actions()
    disc = g.snapshot()["discard"]
    g.apply((K_FLY, mayo, 0))
    g.apply((K_TICKET, SYM_MONEY, PINK))
    g.apply((K_GO, 0, 0))
    assert g.legal_actions() == [(K_BURN, g.card("Carcross", "fuel"), 0)]  # the seat's card burns (S1)
    g.apply((K_BURN, g.card("Carcross", "fuel"), 0))
    seat = g.seat(s)
    assert seat["fuel"] == 0 and seat["burnt"] == 1 and g.hand(s) == {}
    assert g.snapshot()["discard"] == disc + 1


def test_a_three_face_down_cards_carry_one_passenger(gs):
    g, s = flight_position(gs)
    tes = g.loc("Teslin")
    load_plane(g, s, [0, 1])
    set_hand(g, s, [g.card("Mayo", "money"), g.card("Carcross", "fuel"), g.card("Atlin", "fuel")])
    g.apply((K_FLY, tes, 0))
    assert g.legal_actions() == [(K_WILD, PINK, 0)]
    g.apply((K_WILD, PINK, 0))
    for _ in range(3):  # the seat lays its three cards face down (S1)
        g.apply(g.legal_actions()[0])
    assert g.hand(s) == {} and g.legal_actions() == [(K_GO, 0, 0)]  # no cards for the second die


def test_switch_two_face_down_cards_act_as_the_ticket(gs):
    g, s = flight_position(gs)
    load_plane(g, s, [0])
    set_hand(g, s, [g.card("Mayo", "money"), g.card("Carcross", "fuel")])
    assert (K_FLY, g.loc("Teslin"), 0) not in g.legal_actions()
    g.set_switch(s, "two_card_wild")
    assert (K_FLY, g.loc("Teslin"), 0) in g.legal_actions()


def test_e_matching_marker_gives_an_improvement_else_a_grey_marker(gs):
    g, s = flight_position(gs)
    car = g.loc("Carcross")
    g.set_markers(car, [0, 0, 0, 0, 0])
    g.set_markers(car, [1, 0, 0, 0, 1])
    load_plane(g, s, [0, 3])  # pink, yellow
    set_hand(g, s, [g.card("Carcross", "money"), g.card("Carcross", "fuel")])
    g.apply((K_FLY, car, 0))
    g.apply((K_TICKET, SYM_MONEY, PINK))
    g.apply((K_TICKET, SYM_FUEL, YELLOW))
    g.apply((K_GO, 0, 0))
    assert g.cockpit_markers(s, car) == [1, 0, 0, 0, 0, 1]  # pink taken, yellow: grey
    assert g.markers()[car] == [0, 0, 0, 0, 1]
    assert step(g) == STEP_IMPROVE  # one improvement for the one coloured marker
    g.apply((K_IMPROVE, 5, 0))  # switch two_dice_per_ticket
    assert g.seat(s)["switches"]["two_dice_per_ticket"] == 1 and step(g) == STEP_DEST


def test_e_grey_marker_when_no_colour_matches(gs):
    g, s = flight_position(gs)
    car = g.loc("Carcross")
    g.set_markers(car, [0, 0, 0, 0, 0])
    load_plane(g, s, [3])
    set_hand(g, s, [g.card("Carcross", "money")])
    g.apply((K_FLY, car, 0))
    g.apply((K_TICKET, SYM_MONEY, YELLOW))
    g.apply((K_GO, 0, 0))
    assert g.cockpit_markers(s, car)[GREY] == 1 and sum(g.cockpit_markers(s, car)[:GREY]) == 0
    assert step(g) == STEP_DEST and g.snapshot()["actor"] != s  # no improvement: next turn


def test_b_three_alike_symbols_across_tickets_give_the_bonus_and_tucks_follow_a_played_symbol(gs):
    g, s = flight_position(gs)
    car = g.loc("Carcross")
    load_plane(g, s, [0])
    set_hand(g, s, [g.card("Carcross", "money"), g.card("Atlin", "money"), g.card("Mayo", "money"),
                    g.card("Mayo", "fuel")])
    m0 = g.seat(s)["money"]
    g.apply((K_FLY, car, 0))
    g.apply((K_TICKET, SYM_MONEY, PINK))
    acts = g.legal_actions()
    assert (K_TUCK, g.card("Atlin", "money"), 0) in acts
    assert (K_TUCK, g.card("Mayo", "fuel"), 0) not in acts  # no played ticket shows fuel
    g.apply((K_TUCK, g.card("Atlin", "money"), 0))
    assert g.seat(s)["money"] == m0
    g.apply((K_TUCK, g.card("Mayo", "money"), 0))
    assert g.seat(s)["money"] == m0 + 2 and g.seat(s)["m_bonus"] == 2  # ASSUMPTION: $2


def test_switches_pair_bonus_and_bonus_money(gs):
    g, s = flight_position(gs)
    car = g.loc("Carcross")
    load_plane(g, s, [0])
    set_hand(g, s, [g.card("Carcross", "money"), g.card("Atlin", "money")])
    g.set_switch(s, "pair_bonus")
    g.set_switch(s, "bonus_money")
    m0 = g.seat(s)["money"]
    g.apply((K_FLY, car, 0))
    g.apply((K_TICKET, SYM_MONEY, PINK))
    g.apply((K_TUCK, g.card("Atlin", "money"), 0))
    assert g.seat(s)["money"] == m0 + 2 + 2


def test_any_symbol_may_be_tucked_under_face_down_cards(gs):
    g, s = flight_position(gs)
    load_plane(g, s, [0])
    set_hand(g, s, [g.card("Mayo", "money"), g.card("Atlin", "money"), g.card("Teslin", "money"),
                    g.card("Mayo", "fuel")])
    g.apply((K_FLY, g.loc("Carcross"), 0))
    g.apply((K_WILD, PINK, 0))
    for t in ("Atlin", "Teslin", "Mayo"):
        g.apply((K_FACEDOWN, g.card(t, "money"), 0))
    assert (K_TUCK, g.card("Mayo", "fuel"), 0) in g.legal_actions()


def test_d7_ticket_symbol_counts_option(gs):
    """D7: with ticket_symbol_counts = false only tucked cards collect symbols."""
    for counts, bonus in ((True, 2), (False, 0)):
        g, s = flight_position(gs, ticket_symbol_counts=counts)
        car = g.loc("Carcross")
        load_plane(g, s, [0, 1, 2])
        set_hand(g, s, [g.card("Carcross", "money")] * 2 + [g.card("Carcross", "fuel"), g.card("Atlin", "money")])
        g.apply((K_FLY, car, 0))
        g.apply((K_TICKET, SYM_MONEY, PINK))
        g.apply((K_TICKET, SYM_MONEY, PINK))
        g.apply((K_TUCK, g.card("Atlin", "money"), 0))
        assert g.seat(s)["m_bonus"] == bonus, counts


def test_switch_two_dice_per_ticket(gs):
    g, s = flight_position(gs)
    load_plane(g, s, [0, 3])
    set_hand(g, s, [g.card("Carcross", "money")])
    g.set_switch(s, "two_dice_per_ticket")
    g.apply((K_FLY, g.loc("Carcross"), 0))
    g.apply((K_TICKET, SYM_MONEY, PINK))
    assert (K_EXTRA, YELLOW, 0) in g.legal_actions()
    g.apply((K_EXTRA, YELLOW, 0))
    assert (K_EXTRA, YELLOW, 0) not in g.legal_actions()
    g.apply((K_GO, 0, 0))
    assert g.die(0) == (DP_TICKET, s) and g.die(3) == (DP_TICKET, s)


def test_a_later_flight_starts_where_the_plane_is(gs):
    """RB Flugphase: every flight after the first starts from the plane's location."""
    g, s = flight_position(gs)
    load_plane(g, s, [0, 1])
    set_hand(g, s, [g.card("Carmacks", "money"), g.card("Mayo", "money")])
    g.set_fuel(s, 7)
    g.apply((K_FLY, g.loc("Carmacks"), 0))
    g.apply((K_TICKET, SYM_MONEY, PINK))
    g.apply((K_GO, 0, 0))
    if step(g) == STEP_IMPROVE:
        g.apply((K_IMPROVE, -1, 0))
    assert g.seat(s)["fuel"] == 5
    while g.snapshot()["actor"] != s:
        g.apply((K_PASS, 0, 0))
    assert (K_FLY, g.loc("Carmacks"), 0) not in g.legal_actions()  # not where it is
    g.apply((K_FLY, g.loc("Mayo"), 0))
    g.apply((K_TICKET, SYM_MONEY, PINK))
    g.apply((K_GO, 0, 0))
    assert g.seat(s)["fuel"] == 3  # Carmacks -> Mayo costs 2


@pytest.mark.parametrize("timing", ["when_met", "income"])
def test_f_colour_order_card_pays_at_the_flight_or_at_income(gs, timing):
    """RB Flugphase f / Einkommensphase c, D8: order card 1 pays $1 per pink die delivered."""
    g, s = flight_position(gs, fixed_orders=[1, 7, 9], order_timing=timing)
    load_plane(g, s, [0, 1])
    set_hand(g, s, [g.card("Carcross", "money"), g.card("Carcross", "fuel")])
    g.apply((K_FLY, g.loc("Carcross"), 0))
    g.apply((K_TICKET, SYM_MONEY, PINK))
    g.apply((K_TICKET, SYM_FUEL, PINK))
    g.apply((K_GO, 0, 0))
    paid = g.seat(s)["m_orders"]
    assert paid == (2 if timing == "when_met" else 0)
    while step(g) != STEP_DEST or g.snapshot()["actor"] != s:
        g.apply(g.legal_actions()[0])
    g.apply((K_PASS, 0, 0))
    assert g.seat(s)["m_orders"] == 2


def test_dice_stay_aboard_after_pass(gs):
    g, s = flight_position(gs)
    load_plane(g, s, [0])
    g.apply((K_PASS, 0, 0))
    assert g.die(0) == (DP_PLANE, s) and g.seat(s)["unflown"] == 1


@pytest.mark.parametrize("grey,expected", [(0, 2), (1, 1), (2, 2)])
def test_d5_grey_supply_unlimited_or_limited(gs, grey, expected):
    """D5: grey_markers = 0 is an unlimited supply; a limited one runs out and records no visit."""
    g, s = flight_position(gs, grey_markers=grey, fixed_orders=[3, 4, 5])
    car = g.loc("Carcross")
    g.set_markers(car, [0, 0, 0, 0, 0])
    load_plane(g, s, [3, 4])
    set_hand(g, s, [g.card("Carcross", "money"), g.card("Carcross", "fuel")])
    g.apply((K_FLY, car, 0))
    g.apply((K_TICKET, SYM_MONEY, YELLOW))
    g.apply((K_TICKET, SYM_FUEL, YELLOW))
    g.apply((K_GO, 0, 0))
    assert g.cockpit_markers(s, car)[GREY] == expected
    assert g.invariants() == 0


@pytest.mark.parametrize("collected,offered", [(2, True), (1, False)])
def test_d_a_fuel_set_completed_by_the_ticket_pays_the_flight(gs, collected, offered):
    """RB Flugphase b + d, Appendix Boni: a face-up ticket's own fuel symbol (D7) that completes
    three alike fills the tank before the fuel is paid, so the flight it makes payable is
    offered (Mayo costs 4, the tank holds 3, no cards as fuel; the set gives +2)."""
    g, s = flight_position(gs)
    mayo = g.loc("Mayo")
    load_plane(g, s, [0])
    set_hand(g, s, [g.card("Mayo", "fuel"), g.card("Mayo", "money")])
    g.set_fuel(s, 3)
    g.set_dial(s, "cards_as_fuel", 0)
    g.set_symbols(s, "fuel", collected)
    assert ((K_FLY, mayo, 0) in g.legal_actions()) == offered
    if not offered:
        return
    g.apply((K_FLY, mayo, 0))
    assert g.legal_actions() == [(K_TICKET, SYM_FUEL, PINK)]  # the money ticket leaves the tank short
    g.apply((K_TICKET, SYM_FUEL, PINK))
    assert g.seat(s)["fuel"] == 5 and g.seat(s)["symbols"][SYM_FUEL] == 0
    g.apply((K_GO, 0, 0))
    assert g.seat(s)["fuel"] == 1 and g.seat(s)["loc"] == mayo and g.seat(s)["burnt"] == 0
    assert g.invariants() == 0


def _skip_improvements(g):
    while step(g) == STEP_IMPROVE:
        g.apply((K_IMPROVE, -1, 0))


def test_b_three_alike_collect_across_flights_of_the_day_and_start_afresh_next_day(gs):
    """RB Flugphase b: the symbols of a day's flights add up (the issue: "in the round, across
    flights"); the next day starts with none."""
    g, s = flight_position(gs)
    load_plane(g, s, [0, 1])
    set_hand(g, s, [g.card("Carcross", "money"), g.card("Atlin", "money"), g.card("Mayo", "money")])
    g.set_fuel(s, 7)
    g.apply((K_FLY, g.loc("Carcross"), 0))
    g.apply((K_TICKET, SYM_MONEY, PINK))
    g.apply((K_GO, 0, 0))
    _skip_improvements(g)
    assert g.seat(s)["symbols"][SYM_MONEY] == 1 and g.seat(s)["m_bonus"] == 0
    while g.snapshot()["actor"] != s:
        g.apply((K_PASS, 0, 0))
    g.apply((K_FLY, g.loc("Atlin"), 0))  # the second flight, from Carcross
    g.apply((K_TICKET, SYM_MONEY, PINK))
    g.apply((K_TUCK, g.card("Mayo", "money"), 0))
    assert g.seat(s)["m_bonus"] == 2 and g.seat(s)["symbols"][SYM_MONEY] == 0  # ASSUMPTION: $2
    g.apply((K_GO, 0, 0))
    _skip_improvements(g)
    g.set_symbols(s, "fuel", 2)
    while g.snapshot()["round"] == 0:
        g.apply(g.legal_actions()[0])
    assert g.seat(s)["symbols"] == [0, 0, 0]


def test_flight_turns_go_round_skipping_seats_that_passed_until_all_pass(gs):
    """RB Flugphase: one flight per turn in the new turn order, again and again; a seat that
    passes makes no more flights (its income at once); when all have passed, the maintenance
    and the next day (RB Wartungsphase)."""
    g, a = flight_position(gs)
    order = g.turn_order()
    b = order[1]
    load_plane(g, a, [0, 1, 2])
    load_plane(g, b, [3])
    set_hand(g, a, [g.card("Carcross", "money"), g.card("Atlin", "money")])
    g.set_fuel(a, 7)
    seen = []
    while g.snapshot()["round"] == 0 and step(g) in (STEP_DEST, STEP_LOAD, STEP_IMPROVE):
        actor = g.snapshot()["actor"]
        if step(g) == STEP_DEST:
            seen.append(actor)
            acts = g.legal_actions()
            if actor == a and len(acts) > 1:
                dest = g.loc("Carcross") if g.seat(a)["flights"] == 0 else g.loc("Atlin")
                g.apply((K_FLY, dest, 0))
                g.apply((K_TICKET, SYM_MONEY, PINK))
                g.apply((K_GO, 0, 0))
            else:
                g.apply((K_PASS, 0, 0))
        else:
            g.apply(g.legal_actions()[0])
    # a flies, b c d pass; a flies again (the others are skipped); a passes
    assert seen == [a, b, order[2], order[3], a, a]
    assert g.seat(a)["flights"] == 2 and g.seat(a)["loc"] == g.loc("Atlin")
    while g.snapshot()["round"] == 0:  # maintenance: discards down to the hand limit
        g.apply(g.legal_actions()[0])
    assert all(g.seat(o)["loc"] == g.loc("Whitehorse") for o in range(4)) and step(g) == STEP_PLACE


def test_d_a_fuel_set_completed_by_a_later_tuck_pays_the_flight(gs):
    """RB Flugphase b + d, RULES.md S7: a fuel ticket that is the second of three alike and a
    fuel card tucked under it complete the set; its +2 fuel pays Mayo (4) from a tank of 3.
    The flight may not take off before the tank can pay."""
    g, s = flight_position(gs)
    mayo = g.loc("Mayo")
    load_plane(g, s, [0])
    set_hand(g, s, [g.card("Mayo", "fuel"), g.card("Atlin", "fuel")])
    g.set_fuel(s, 3)
    g.set_dial(s, "cards_as_fuel", 0)
    g.set_symbols(s, "fuel", 1)
    assert (K_FLY, mayo, 0) in g.legal_actions()
    g.apply((K_FLY, mayo, 0))
    g.apply((K_TICKET, SYM_FUEL, PINK))
    assert g.legal_actions() == [(K_TUCK, g.card("Atlin", "fuel"), 0)]  # no take-off with the tank short
    g.apply((K_TUCK, g.card("Atlin", "fuel"), 0))
    assert g.seat(s)["fuel"] == 5 and g.legal_actions()[0] == (K_GO, 0, 0)
    g.apply((K_GO, 0, 0))
    assert g.seat(s)["fuel"] == 1 and g.seat(s)["loc"] == mayo and g.seat(s)["burnt"] == 0
    assert g.invariants() == 0


def test_e_two_dice_of_one_colour_and_one_marker_of_it_the_second_die_takes_grey(gs):
    """RB Flugphase e: "Für jeden Würfel auf den Flugtickets werden die Ortmarker am Zielort
    verglichen. Hat ein Würfel die selbe Farbe wie ein Ortmarker, wird der entsprechende Ortsmarker
    auf den Ort des Spielertableaus gelegt. Ansonsten nimmt man sich einen grauen." Two pink dice,
    Carcross holds one pink marker: the first die takes it (one improvement), the second a grey one."""
    g, s = flight_position(gs, fixed_orders=[3, 4, 5])
    car = g.loc("Carcross")
    g.set_markers(car, [1, 0, 0, 0, 0])
    load_plane(g, s, [0, 1])  # two pink dice
    set_hand(g, s, [g.card("Carcross", "money"), g.card("Carcross", "fuel")])
    g.apply((K_FLY, car, 0))
    g.apply((K_TICKET, SYM_MONEY, PINK))
    g.apply((K_TICKET, SYM_FUEL, PINK))
    g.apply((K_GO, 0, 0))
    assert g.die(0) == (DP_TICKET, s) and g.die(1) == (DP_TICKET, s)
    assert g.cockpit_markers(s, car) == [1, 0, 0, 0, 0, 1]  # one pink, one grey
    assert g.markers()[car] == [0, 0, 0, 0, 0]
    assert step(g) == STEP_IMPROVE
    g.apply((K_IMPROVE, 5, 0))  # switch two_dice_per_ticket: the only improvement
    assert g.seat(s)["improvements"]["two_dice_per_ticket"] == 1
    assert step(g) == STEP_DEST and g.snapshot()["actor"] != s  # no second improvement for the grey marker
    assert g.invariants() == 0


@pytest.mark.parametrize("collected,improvements", [(2, 1), (1, 0)])
def test_boni_three_improvement_symbols_give_one_improvement(gs, collected, improvements):
    """RB Appendix Boni: "Es gibt drei verschiedene Boni, die man mit drei übereinstimmenden Symbolen
    erhalten kann. Man erhält entweder Geld, mehr Treibstoff oder man kann eine Verbesserung
    durchführen." An improvement ticket that is the third improvement symbol of the day gives one
    improvement (ASSUMPTION RN 10.2: one; the die's marker is grey); the second symbol gives none."""
    g, s = flight_position(gs, fixed_orders=[3, 4, 5])
    car = g.loc("Carcross")
    g.set_markers(car, [0, 0, 0, 0, 0])  # the yellow die gets a grey marker: no marker improvement
    load_plane(g, s, [3])
    set_hand(g, s, [g.card("Carcross", "improvement")])
    g.set_symbols(s, "improvement", collected)
    m0, f0 = g.seat(s)["money"], g.seat(s)["fuel"]
    g.apply((K_FLY, car, 0))
    g.apply((K_TICKET, SYM_IMPROVE, YELLOW))
    seat = g.seat(s)
    assert seat["symbols"][SYM_IMPROVE] == (0 if improvements else collected + 1)
    if improvements:  # at once, while the flight is loaded (RB Flugphase b, RULES.md S3)
        assert step(g) == STEP_IMPROVE and g.snapshot()["actor"] == s
        g.apply((K_IMPROVE, 4, 0))  # the Christmas dial one step
        assert g.seat(s)["dials"]["christmas"] == 1 and g.seat(s)["improvements"]["christmas"] == 1
        assert step(g) == STEP_LOAD  # one improvement only: the loading goes on
    g.apply((K_GO, 0, 0))
    seat = g.seat(s)
    assert seat["money"] == m0 and seat["fuel"] == f0 - 1 and seat["m_bonus"] == 0  # no money or fuel bonus
    assert g.cockpit_markers(s, car) == [0, 0, 0, 0, 0, 1]
    assert step(g) == STEP_DEST and g.snapshot()["actor"] != s  # the grey marker gives no improvement
    assert g.invariants() == 0
