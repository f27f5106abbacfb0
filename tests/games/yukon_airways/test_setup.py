"""RB Vorbereitung: each set-up rule, on the default 4-player config."""

from __future__ import annotations

from sim.games.base import Rig
from sim.games.yukon_airways.data import COLOURS
from sim.games.yukon_airways.layout import (
    H_DOCK_DICE,
    NCOL,
    NDOCK,
    NSYM,
    SE_ABOARD,
    SE_FUEL_N,
    SE_HAND_N,
    STEP_NAMES,
    STEP_PLACE,
    SYM_FUEL,
    V_COUNTERS,
)


def test_three_order_cards_face_up(gs):
    g = gs(0)
    orders = g.dealt()["orders"]
    assert len(orders) == 3 and len(set(orders)) == 3 and all(0 <= o < 9 for o in orders)
    assert len({tuple(gs(k).dealt()["orders"]) for k in range(12)}) > 3  # shuffled per game


def test_fixed_orders_first_game(gs):
    assert gs(0, fixed_orders=[1, 7, 9]).dealt()["orders"] == [0, 6, 8]


def test_day_track_on_tuesday_and_first_boarding_turn(gs):
    g = gs(0)
    snap = g.snapshot()
    assert snap["round"] == 0 and snap["step"] == STEP_NAMES[STEP_PLACE]
    assert snap["actor"] == g.turn_order()[0]


def test_cockpits_lowest_fuel_four_switches_off_plus_the_starting_improvement(gs):
    g = gs(0)
    starts = {0: ("dials", "bonus_fuel"), 1: ("dials", "draw"), 2: ("dials", "hand_limit"), 3: ("switches", "free_moves")}
    for s in range(4):
        seat = g.seat(s)
        assert seat["fuel"] == 4
        part, name = starts[s]
        for n, v in seat["dials"].items():
            assert v == (1 if (part, n) == starts[s] else 0), (s, n)
        for n, v in seat["switches"].items():
            assert v == (1 if (part, n) == starts[s] else 0), (s, n)
        assert sum(seat["improvements"].values()) == 0  # the starting improvement is not counted


def test_advanced_side_has_no_starting_improvement(gs):
    g = gs(0, advanced=True)
    for s in range(4):
        assert all(v == 0 for v in g.seat(s)["dials"].values())
        assert all(v == 0 for v in g.seat(s)["switches"].values())


def test_six_secret_tickets_each_rest_is_the_draw_pile(gs):
    g = gs(0)
    for s in range(4):
        assert sum(g.hand(s).values()) == 6
    assert g.snapshot()["deck"] == 72 - 24


def test_rigged_deck_deals_the_first_cards_to_the_first_seat(gs, run4):
    deck = sorted(run4.spec[3].tolist(), reverse=True)
    g = gs(0, rig=Rig(deck=deck))
    first = {}
    for t in deck[:6]:
        first[t] = first.get(t, 0) + 1
    assert g.hand(0) == first
    assert g.dealt()["draw_pile"][-1] == deck[24]  # the next card drawn


def test_planes_at_whitehorse(gs):
    g = gs(0)
    assert all(g.seat(s)["loc"] == g.loc("Whitehorse") for s in range(4))


def test_every_die_on_the_dock_of_its_face(gs):
    faces = [1, 2, 3, 4, 5, 6, 6, 5, 4, 3, 2, 1, 1, 1, 6]
    g = gs(0, rig=Rig(dice=faces))
    for d, f in enumerate(faces):
        assert g.die(d) == (f - 1, -1)


def test_as_many_markers_as_players_on_every_location_but_whitehorse(gs):
    g = gs(3)
    m = g.markers()
    hub = g.loc("Whitehorse")
    assert sum(m[hub]) == 0
    assert all(sum(m[l]) == 4 for l in range(13) if l != hub)
    assert sum(sum(r) for r in m) == 48
    assert len({tuple(map(tuple, gs(k).markers())) for k in range(5)}) == 5  # random per game
    assert NCOL == 5


def test_three_players_put_three_markers(gs):
    from sim.games.yukon_airways.state import GameState
    from tests.games.yukon_airways.conftest import make_run
    run = make_run(seats=["greedy"] * 3)
    g = GameState.from_run(run, 0)
    assert all(sum(g.markers()[l]) == 3 for l in range(1, 13))


def test_random_start_player_and_start_money_by_turn_order(gs):
    firsts = set()
    for k in range(20):
        g = gs(k)
        order = g.turn_order()
        firsts.add(order[0])
        assert order == [(order[0] + i) % 4 for i in range(4)]  # clockwise from the start player
        for i, s in enumerate(order):
            assert g.seat(s)["money"] == i + 1 and g.seat(s)["start_pos"] == i
    assert firsts == {0, 1, 2, 3}
    assert gs(0).invariants() == 0


def test_dice_and_hand_counters_after_set_up_and_a_wrong_counter_is_reported(gs):
    """The state's counters (layout H_DOCK_DICE, SE_ABOARD .. SE_FUEL_N) after the set-up
    (RB Vorbereitung: the dice rolled onto the docks, six tickets dealt, planes empty) equal a
    recount; check_invariants reports a counter that does not (V_COUNTERS)."""
    g = gs(3)
    docks = [[sum(1 for d in g.dice_at(k) if g.colour_of(d) == COLOURS[c]) for c in range(NCOL)] for k in range(NDOCK)]
    assert [[int(g.state[H_DOCK_DICE + k * NCOL + c]) for c in range(NCOL)] for k in range(NDOCK)] == docks
    assert sum(map(sum, docks)) == 15
    for s in range(4):
        hand = g.hand(s)
        assert int(g.state[g._se(s, SE_HAND_N)]) == sum(hand.values()) == 6
        assert int(g.state[g._se(s, SE_FUEL_N)]) == sum(n for t, n in hand.items() if t % NSYM == SYM_FUEL)
        assert int(g.state[g._se(s, SE_ABOARD)]) == 0
    assert g.invariants() == 0
    g.state[H_DOCK_DICE + 2 * NCOL + 1] += 1
    assert g.invariants() == V_COUNTERS
