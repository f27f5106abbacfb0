"""Wind cards and the wind zones (RB "The Wind Cards", "The Wind Zones"), with the rulebook's
own examples, and the readings D1, D3, D4, D5 of RULES.md (both values of each option)."""

from __future__ import annotations

import sim.games.flying_carpet.layout as L


def piece(name: str, x: int, y: int) -> dict:
    """A city entry of a config section."""
    return {"piece": name, "at": [x, y]}


def test_rulebook_example_card_has_four_moves(gs):
    """RB "The Wind Cards", first example: light blue right 2 then up 3, dark blue up 3 then
    right 2, beige left 2 then down 3, orange down 3 then left 2 (here in the windless zone
    at the start, the wind of row 8 joins the dark blue sideways movement)."""
    g = gs()
    g.put(0, 5, 5)
    g.set_hand(0, ["R32", "V1", "V2", "L11"])
    assert g.ends("R32", "light blue") == {(7, 8)}
    assert g.ends("R32", "dark blue") == {(8, 8)}      # up 3 to row 8 (wind 1): right 2 + 1
    assert g.ends("R32", "beige") == {(3, 2)}
    assert g.ends("R32", "orange") == {(3, 2)}


def test_rulebook_elephant_example_only_dark_blue(gs):
    """RB "another example": at the bottom edge beside a piece, only up 3 then right 2: not
    sideways first (into the piece), not down (further down does not go)."""
    g = gs(city=[piece("small_house", 3, 0)])
    g.put(0, 2, 0)
    g.set_hand(0, ["R32", "V1", "V2", "L11"])
    assert g.ends("R32", "light blue") == set()
    assert g.ends("R32", "dark blue") == {(4, 3)}
    assert g.ends("R32", "beige") == set() and g.ends("R32", "orange") == set()


def test_rulebook_wind_example_zone_two_adds_two(gs):
    """RB "The Wind Zones": one up, one right as on the card, and the wind of zone 2 pushes
    two more to the right."""
    g = gs()
    g.put(0, 5, 9)
    g.set_hand(0, ["R11", "V1", "V2", "L11"])
    assert g.ends("R11", "dark blue") == {(8, 10)}


def test_the_arrow_order_decides_which_zone_blows(gs):
    """RB "The Wind Zones": the wind adds at the moment of the sideways movement, so from row 8
    sideways first takes wind 1, up first takes the wind 2 of row 9."""
    g = gs()
    g.put(0, 5, 8)
    g.set_hand(0, ["R11", "V1", "V2", "L11"])
    assert g.ends("R11", "light blue") == {(7, 9)}
    assert g.ends("R11", "dark blue") == {(8, 9)}


def test_rulebook_cloud_example(gs):
    """RB "Drifting / sinking", last example: only the wind 2 at the start of the move can be
    used; down first and then 1 + 1 sideways would hit the cloud."""
    g = gs(city=[piece("small_cloud", 6, 8)])
    g.put(0, 5, 9)
    g.set_hand(0, ["L11", "V1", "V2", "R11"])
    assert g.ends("L11", "beige") == {(8, 8)}      # right 1 + wind 2 in row 9, then down 1
    assert g.ends("L11", "orange") == set()        # down to row 8, right 1 + wind 1: the cloud


def test_one_sideways_movement_never_in_steps(gs):
    """RB "Important: Per turn only one sideways movement": when both L-shaped paths are
    blocked the card has no move, although a staircase would reach the same cell."""
    rock = {"kind": "cloud", "cells": [[0, 0]]}
    g = gs(clouds_anywhere=True, pieces={"r1": rock, "r2": rock}, city=[piece("r1", 5, 6), piece("r2", 6, 5)])
    g.put(0, 5, 5)
    g.set_hand(0, ["R22", "V1", "V2", "L11"])
    assert g.ends("R22", "light blue") == set() and g.ends("R22", "dark blue") == set()


def test_blown_beyond_the_edge_back_to_the_start(gs):
    """RB "The Wind Cards": a carpet blown beyond the edge begins again from the start (D5)."""
    g = gs()
    g.put(0, 21, 10)
    g.set_hand(0, ["R11", "V3", "V2", "L11"])
    assert g.ends("R11", "dark blue") == {"blown"}
    assert g.ends("V3", "light blue") == {"blown"}     # beyond the top edge
    g.play("R11", "dark blue")
    assert g.pos(0) == (0, 0) and g.stat(0, L.ST_BLOWN) == 1


def test_off_board_illegal_reading(gs):
    """D5 ``off_board = "illegal"``: a move beyond the edge may not be chosen."""
    g = gs(off_board="illegal")
    g.put(0, 21, 10)
    g.set_hand(0, ["R11", "V3", "V2", "L11"])
    assert g.ends("R11", "dark blue") == set() and g.ends("V3", "light blue") == set()


def test_the_bottom_edge_cannot_be_passed(gs):
    """RB "another example": further down than the bottom edge does not go."""
    g = gs()
    g.put(0, 5, 1)
    g.set_hand(0, ["V3", "V1", "V2", "L11"])
    assert g.ends("V3", "beige") == set()
    assert g.ends("V1", "beige") == {(5, 0)}


def test_blocked_option_illegal_or_stop_before(gs):
    """D1: an option whose path meets scenery is illegal; ``stop_before``: the carpet stops in
    front of the obstacle."""
    g = gs(city=[piece("palace", 8, 0)])
    g.put(0, 6, 1)
    g.set_hand(0, ["R22", "V1", "V2", "L11"])
    assert g.ends("R22", "light blue") == set()
    g = gs(city=[piece("palace", 8, 0)], blocked_option="stop_before")
    g.put(0, 6, 1)
    g.set_hand(0, ["R22", "V1", "V2", "L11"])
    assert g.ends("R22", "light blue") == {(7, 1)}


def test_other_carpets_are_jumped_over(gs):
    """RB "Important: During a move, other playing pieces may be jumped over"."""
    g = gs()
    g.put(0, 5, 5)
    g.put(1, 6, 5)
    g.put(2, 7, 6)
    g.set_hand(0, ["R32", "V1", "V2", "L11"])
    assert g.ends("R32", "light blue") == {(7, 8)}


def test_headwind_brakes_a_leftward_move(gs):
    """RB "The Wind Zones": on a move to the left the wind brakes. D3 "brake": left 1 against
    wind 2 nets 0; "net": it turns into 1 to the right."""
    g = gs()
    g.put(0, 5, 10)
    g.set_hand(0, ["R11", "V1", "V2", "L12"])
    assert g.ends("R11", "beige") == {(5, 9)}
    assert g.ends("L12", "light blue") == {(5, 11)}     # left 2 + wind 2 = 0, then up 1
    g = gs(headwind="net")
    g.put(0, 5, 10)
    g.set_hand(0, ["R11", "V1", "V2", "L12"])
    assert g.ends("R11", "beige") == {(6, 9)}


def test_wind_carries_a_vertical_only_move(gs):
    """D4: the wind acts every turn (RB "The Wind Zones"), after a vertical-only movement in
    the row reached; ``wind_without_sideways = "none"``: it does not."""
    g = gs()
    g.put(0, 5, 8)
    g.set_hand(0, ["V1", "V2", "V3", "L11"])
    assert g.ends("V1", "light blue") == {(7, 9)}
    g = gs(wind_without_sideways="none")
    g.put(0, 5, 8)
    g.set_hand(0, ["V1", "V2", "V3", "L11"])
    assert g.ends("V1", "light blue") == {(5, 9)}


def test_card_is_discarded_and_replaced(gs):
    """RB "Rules of Play": the card goes face up beside the board and a new one is drawn."""
    g = gs()
    g.put(0, 5, 5)
    g.set_hand(0, ["R32", "V1", "V2", "L11"])
    g.stack_deck(["V3"])
    stack = g.snapshot()["stack"]
    g.play("R32", "dark blue")
    assert g.hand(0) == ["V3", "V1", "V2", "L11"]
    assert g.snapshot()["discard"] == 1 and g.snapshot()["stack"] == stack - 1


def test_discard_pile_is_shuffled_into_a_new_stack(gs):
    """RB "Rules of Play": "When the face-down stack is used up, the discard pile is shuffled
    and placed beside the board as the new face-down stack." 60 turns of drifting with an
    exchange use up the 72 - 12 cards of the stack; the next exchange draws from the
    shuffled discard pile (which holds the card just laid down)."""
    g = gs()
    assert g.snapshot()["stack"] == 60
    for _ in range(60):
        g.play("drift", exchange=0)
        g.end_turn()
    snap = g.snapshot()
    assert snap["stack"] == 0 and snap["discard"] == 60 and int(g.state[L.H_RESHUF]) == 0
    d0 = int(g.p[L.P_OFF_DISC])
    pile = [int(c) for c in g.state[d0: d0 + 60]]
    out = g.hand_ids(g.cur)[0]
    g.play("drift", exchange=0)
    pile.append(out)
    snap = g.snapshot()
    assert snap["stack"] == 60 and snap["discard"] == 0 and int(g.state[L.H_RESHUF]) == 1
    drawn = g.hand_ids(g.cur)[0]
    k0 = int(g.p[L.P_OFF_DECK])
    new_stack = [int(c) for c in g.state[k0: k0 + 60]]
    assert sorted(new_stack + [drawn]) == sorted(pile)           # exactly the discard pile
    assert new_stack + [drawn] != pile                            # shuffled, not laid back in order
    assert [e[3] for e in g.events() if e[2] == L.E_RESHUFFLE] == [61]


def test_blown_beyond_the_left_edge_back_to_the_start(gs):
    """RB "The Wind Cards": "A player whose playing piece is blown beyond the edge of the board
    must begin the race again from the starting platform" - the left edge too (D5). In the
    light-blue zone the wind brakes the same move (D3) and keeps it on the board."""
    g = gs()
    g.put(0, 1, 3)
    g.set_hand(0, ["L12", "R32", "V2", "L11"])
    assert g.ends("L12", "light blue") == {"blown"}      # left 2 from x = 1, no wind
    assert g.ends("R32", "beige") == {"blown"}           # left 2, then down 3
    assert g.ends("token", token="left") == {(0, 3)}
    g.put(0, 1, 7)
    assert g.ends("L12", "light blue") == {(0, 8)}       # left 2 - wind 1 = left 1, up 1
    g.put(0, 1, 3)
    g.play("L12", "light blue")
    assert g.pos(0) == (0, 0) and g.stat(0, L.ST_BLOWN) == 1
    g.end_turn()
    g.put(1, 0, 4)
    g.play("token", token="left")
    assert g.pos(1) == (0, 0) and g.stat(1, L.ST_BLOWN) == 1
