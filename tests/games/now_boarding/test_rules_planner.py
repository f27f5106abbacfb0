"""Scenario tests of the planner team's flight-phase behaviours (RULES.md "Policies", planner):
the anger re-set of a passing plane (RB "Recoger pasajeros": cubes go back at pickup) and the
off-load of a carried passenger its plan takes away from its destination (RB "Dejar pasajeros":
set down at any airport, it waits there for another plane: a relay)."""

from __future__ import annotations

from sim.games.now_boarding.data import PLANNER_V3_WEIGHTS
from sim.games.now_boarding.state import GameState


def planner(weights=None) -> GameState:
    """4 planner planes in the version-3 mode (PLANNER_V3_WEIGHTS, prog = 0: these behaviours are
    that mode's), the board and weather cleared, every plane parked at SEA with 2 seats."""
    seat = {"policy": "planner", "weights": {**PLANNER_V3_WEIGHTS, **(weights or {})}}
    g = GameState(raw={"game": "now_boarding", "seed": 0, "seats": [seat] * 4, "now_boarding": {}})
    g.clear()
    g.set_weather([])
    g.start_flight()
    for p in range(4):
        g.set_plane(p, "SEA", seats=2)
    return g


def offload_position(weights):
    """Plane 0 (green) at ATL carries a JFK->LAX passenger boarded at JFK; a MIA->ATL passenger
    at its last cube waits at MIA (2 points away; MIA is farther from LAX than ATL is)."""
    g = planner(weights)
    x = g.place(g.card("JFK", "LAX"), "JFK")
    g.set_plane(0, "JFK")
    assert g.pickup(0, x) == 1
    g.set_plane(0, "ATL", seats=2)
    y = g.place(g.card("MIA", "ATL"), "MIA", anger=3)
    assert g.dist(0, "MIA") == 2
    g.flight()
    return g, x, y


def test_planner_offloads_a_passenger_its_plan_takes_away_from_the_destination():
    """RB "Dejar pasajeros" (hand-off): with ``offload`` the plane sets the JFK->LAX passenger
    down at ATL before it flies to MIA for the rescue; it waits at ATL without cubes for a relay."""
    g, x, y = offload_position({})
    assert g.where(x) == ("waiting", g.airport("ATL"))
    assert g.anger_of(x) == 0
    assert g.where(y) == ("aboard", 0)
    assert g.plane(0)["carried"] == 1
    g.anger()
    assert g.anger_of(x) == 1  # it waits, so it gains its first cube at the maintenance


def test_planner_keeps_the_passenger_aboard_without_offload():
    g, x, y = offload_position({"offload": 0})
    assert g.where(x) == ("aboard", 0)
    assert g.where(y) == ("aboard", 0)
    assert g.plane(0)["carried"] == 2


def reset_position(weights):
    """Plane 0 at ATL with 2 seats; an ATL->LAX passenger with 1 cube waits at ATL, a MIA->ATL
    passenger at its last cube at MIA. Pickup value 0 and a high carry cost: the round plan itself
    never boards the ATL->LAX passenger (its value is negative), only the re-set rule can."""
    g = planner(dict(weights, pick=0.0, anger=0.0, carry=2.0))
    g.set_plane(0, "ATL", seats=2)
    x = g.place(g.card("ATL", "LAX"), "ATL", anger=1)
    y = g.place(g.card("MIA", "ATL"), "MIA", anger=3)
    g.flight()
    return g, x, y


def test_planner_resets_anger_of_a_passenger_at_an_airport_it_leaves():
    """RB "Recoger pasajeros": the passing plane boards the ATL->LAX passenger into the seat its
    plan leaves free, so its cube goes back (anger 0), and still rescues the MIA passenger."""
    g, x, y = reset_position({"reset": 1.0})
    assert g.anger_of(x) == 0
    assert g.where(x)[0] in ("aboard", "waiting") and g.where(x) != ("waiting", g.airport("ATL"))
    assert g.where(y) == ("aboard", 0)


def test_planner_without_reset_leaves_the_passenger_waiting_with_its_cube():
    g, x, y = reset_position({"reset": 0.0})
    assert g.where(x) == ("waiting", g.airport("ATL"))
    assert g.anger_of(x) == 1
    assert g.where(y) == ("aboard", 0)
