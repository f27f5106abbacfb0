"""Scenario tests of the planner in progress mode (weight ``prog`` > 0, data.PLANNER_V4_WEIGHTS: the
rules-version-4 planner; version 5 adds plane orders and purchases, test_rules_planner_v5.py;
RULES.md "Policies", planner): legs are valued by the move points their passengers come closer to
their destinations, so boarding and set-downs follow the direction of each leg (RB "Recoger
pasajeros", "Dejar pasajeros"); a passenger at its last cube is still rescued (RB "Poner enojo y
presentar quejas"); and whole games never break an invariant (RB throughout)."""

from __future__ import annotations

import numpy as np
import pytest

import sim.games.now_boarding.layout as L
from sim.compile import run_from_dict
from sim.games import get_game
from sim.games.now_boarding.data import PLANNER_V3_WEIGHTS, PLANNER_V4_WEIGHTS
from sim.games.now_boarding.state import GameState

G = get_game("now_boarding")


def progress_planner(planner_state, **extra) -> GameState:
    """4 progress-mode planner planes, board and weather cleared; planes 1-3 parked at SEA (far
    from the scenario), plane 0 (green: white + green routes) placed by the test. ``horizon`` 0:
    the itinerary ends within this round's move points (the default looks 2 points further)."""
    return planner_state(dict(PLANNER_V4_WEIGHTS, **dict(dict(horizon=0.0), **extra)), "SEA", 2)


def test_progress_planner_boards_only_the_passenger_its_leg_brings_closer(planner_state):
    """RB "Recoger pasajeros" (a plane may pick up any passenger, but need not): plane 0 at ATL
    with 2 seats and speed 2 reaches MIA (2 points), not ORD (3). It boards the ATL->MIA passenger
    and delivers it; the ATL->ORD passenger, whom the leg to MIA would take 2 points farther from
    ORD, stays at ATL (the version-3 planner boards it for its flat ``pick`` value)."""
    g = progress_planner(planner_state)
    g.set_plane(0, "ATL", seats=2, speed=2)
    a = g.place(g.card("ATL", "MIA"), "ATL")
    b = g.place(g.card("ATL", "ORD"), "ATL")
    assert g.dist(0, "MIA") == 2 and g.dist(0, "ORD") == 3
    assert g.flight(check=True) == 0
    assert g.where(a) == ("money", 0)
    assert g.where(b) == ("waiting", g.airport("ATL"))
    v3 = planner_state(dict(PLANNER_V3_WEIGHTS), "SEA", 2)
    v3.set_plane(0, "ATL", seats=2, speed=2)
    v3.place(a, "ATL")
    v3.place(b, "ATL")
    v3.flight()
    assert v3.where(a) == ("money", 0) and v3.where(b) != ("waiting", v3.airport("ATL"))


def test_progress_planner_sets_down_a_passenger_the_leg_takes_away_and_rescues_the_last_cube(planner_state):
    """RB "Dejar pasajeros" (set down at any airport, not the one just left) and "Poner enojo":
    plane 0 at ATL carries a JFK->ORD passenger boarded at JFK; a MIA->ATL passenger waits at MIA
    at its last cube. The leg to MIA takes the JFK->ORD passenger 2 points away from ORD (ATL-ORD 3,
    MIA-ORD 5), so it is set down at ATL (no cubes: it waits for another plane) and the plane
    boards the MIA passenger, who then gains no cube at the maintenance."""
    g = progress_planner(planner_state)
    x = g.place(g.card("JFK", "ORD"), "JFK")
    g.set_plane(0, "JFK")
    assert g.pickup(0, x) == 1
    g.set_plane(0, "ATL", seats=2, speed=3)
    y = g.place(g.card("MIA", "ATL"), "MIA", anger=3)
    assert g.dist(0, "MIA") == 2
    assert g.flight(check=True) == 0
    assert g.where(x) == ("waiting", g.airport("ATL"))
    assert g.anger_of(x) == 0
    assert g.where(y) == ("aboard", 0)
    assert g.anger() is False
    assert g["COMPL"] == 0
    assert g.anger_of(x) == 1


def test_progress_planner_in_the_final_round_values_deliveries_only(planner_state):
    """RB "Salir de la aeronave": after the final round every passenger not delivered counts the
    same, so progress without a delivery is worth (almost) nothing, and so is a cube below the
    last one (no complaint can follow). Plane 0 at ATL, 1 seat, speed 2: an ATL->MIA passenger
    (2 points: delivered this round) and an ATL->SFO passenger with 2 cubes and a long trip ahead
    (progress and anger, no delivery). In the final round it takes the one it can deliver."""
    g = progress_planner(planner_state, prog=30.0)
    g.st[L.S_STAGE] = 3
    g.set_plane(0, "ATL", seats=1, speed=2)
    a = g.place(g.card("ATL", "MIA"), "ATL")
    b = g.place(g.card("ATL", "SFO"), "ATL", anger=2)
    assert g.flight(check=True) == 0
    assert g.where(a) == ("money", 0)
    assert g.where(b) == ("waiting", g.airport("ATL"))


@pytest.mark.parametrize("players,section", [(4, {}), (2, {}), (5, {"vip": True}), (4, {"action_budget": 5}),
                                             (3, {"anger_reset": "setdown", "pooled_payment": False})])
def test_progress_planner_never_takes_an_illegal_action(players, section):
    """Every invariant holds after every step (check_playout) over whole progress-mode games."""
    seat = {"policy": "planner", "weights": dict(PLANNER_V4_WEIGHTS)}
    run = run_from_dict({"game": "now_boarding", "seed": 5, "seats": [seat] * players, "now_boarding": section},
                        "<test>")
    bad = [(g, c) for g in range(60) if (c := G.check_playout(run, g)) != 0]
    assert bad == []


def test_progress_planner_delivers_more_than_the_version_3_planner_on_the_same_deals():
    """4 players, seed 11, 400 games (common random numbers): progress mode delivers more
    passengers and lasts longer (measured: RULES.md "Calibration note")."""
    def col(weights, name):
        seat = {"policy": "planner", "weights": weights} if weights else "planner"
        run = run_from_dict({"game": "now_boarding", "seed": 11, "seats": [seat] * 4, "now_boarding": {}}, "<t>")
        out = np.zeros((400, len(G.column_names(4))), np.int32)
        G.play_batch(run.spec, run.entry_policy, run.entry_weights, run.perms, np.int64(11), np.int64(0),
                     np.int64(400), out)
        return out[:, G.column_names(4).index(name)]
    v3 = dict(PLANNER_V3_WEIGHTS)
    assert col(dict(PLANNER_V4_WEIGHTS), "delivered").mean() > col(v3, "delivered").mean() + 6.0
    assert col(dict(PLANNER_V4_WEIGHTS), "turns").mean() > col(v3, "turns").mean() + 0.8
