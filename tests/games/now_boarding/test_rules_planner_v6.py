"""Scenario tests of the rules-version-6 planner (``relay`` 1 over version 5; RULES.md
"Policies", planner): a passenger one plane sets down is waiting, for the planes committed
after it, from the move point after the set-down on, so another plane boards it in the same
round (RB "Fase de vuelo": the planes fly at once; "Dejar pasajeros", "Recoger pasajeros"; the
Pro tip on hand-offs inside the round)."""

from __future__ import annotations

import pytest

from sim.compile import run_from_dict
from sim.games import get_game
from sim.games.now_boarding.data import PLANNER_V5, PLANNER_WEIGHTS
from sim.games.now_boarding.hooks import run_traced
from sim.games.now_boarding.layout import E_DELIVER, E_DROP, E_PICK, E_ROUND

G = get_game("now_boarding")


def _relays(weights, games: int, players: int = 4) -> tuple[int, int]:
    """(relays, set-downs) over games 0..games-1 of seed 5: a relay is a passenger set down by
    one plane (not at its destination) and boarded by another plane at that airport in the same
    round; a set-down is any such drop (events E_DROP, E_PICK: plane, card, airport)."""
    run = run_from_dict({"game": "now_boarding", "seed": 5, "seats": [{"policy": "planner", "weights": weights}]
                         * players}, "<relay>")
    relays = drops = 0
    for g in range(games):
        _, ev, _, _ = run_traced(run, g)
        dropped = {}
        for r in ev:
            code = int(r[2])
            if code == E_ROUND:
                dropped = {}
            elif code == E_DROP:
                dropped[(int(r[4]), int(r[5]))] = int(r[3])
                drops += 1
            elif code == E_PICK:
                by = dropped.pop((int(r[4]), int(r[5])), None)
                if by is not None and by != int(r[3]):
                    relays += 1
    return relays, drops


def test_a_passenger_set_down_is_boarded_by_another_plane_in_the_same_round():
    """Over 30 whole 4-player games: with ``relay`` 1 (the default since rules version 6) other
    planes board passengers set down earlier in the round; with the version-5 weights (``relay``
    0) a set-down passenger waits for the next round: it has no anger cubes, and the planner
    boards this round only what it planned at the start of the round or what is angry."""
    assert PLANNER_WEIGHTS["relay"] == 1.0
    on, drops_on = _relays(dict(PLANNER_WEIGHTS), 30)
    off, drops_off = _relays(dict(PLANNER_V5), 30)
    assert off == 0 and drops_off > 100
    assert on >= 30 and drops_on > 100


def _relay_position(planner_state, weights):
    """4 planner planes, board and weather cleared, speed 3 and 2 seats each; the purple and
    orange planes (1, 2) parked at SEA with speed 1, out of the way. The red plane (3) is at ORD
    carrying a DEN->JFK passenger it boarded at DEN; at DEN an ORD->SFO passenger waits with 2
    anger cubes. The green plane (0) is at ATL carrying an ATL->JFK passenger; an ATL->SEA
    passenger waits at ATL. Returns (state, (DEN->JFK, ATL->JFK, ATL->SEA, ORD->SFO) cards)."""
    g = planner_state(weights, "SEA", 2)
    for p in (1, 2):
        g.set_plane(p, "SEA", seats=2, speed=1)
    x = g.place(g.card("DEN", "JFK"), "DEN")
    g.set_plane(3, "DEN")
    assert g.pickup(3, x) == 1
    g.set_plane(3, "ORD", seats=2, speed=3)
    y = g.place(g.card("ATL", "JFK"), "ATL")
    g.set_plane(0, "ATL", seats=2, speed=3)
    assert g.pickup(0, y) == 1
    z = g.place(g.card("ATL", "SEA"), "ATL")
    u = g.place(g.card("ORD", "SFO"), "DEN", anger=2)
    g.clear_events()
    return g, (x, y, z, u)


def _moves(g) -> list[tuple[int, int, int, int]]:
    """The flight's (code, plane, card, airport) for every boarding, set-down and delivery."""
    return [(r[2], r[3], r[4], r[5]) for r in g.events() if r[2] in (E_PICK, E_DROP, E_DELIVER)]


@pytest.mark.parametrize("first", [0, 1, 3])
def test_the_red_plane_hands_a_passenger_to_the_green_plane_at_ord_to_rescue_an_angry_one(planner_state, first):
    """RB "Dejar pasajeros" (a passenger may be set down at any airport and waits there) and
    "Recoger pasajeros" (any plane may board it; the cubes go back): the relay inside the round
    (``relay`` 1, the default since rules version 6), on a position taken from game 0 of seed
    20261129, round 3, with the other passengers removed. The red plane at ORD (speed 3) could
    deliver its DEN->JFK passenger (ORD-JFK 3 move points), but then the ORD->SFO passenger at
    DEN gets a third cube. The team plan instead: the red plane sets the JFK passenger down at
    ORD and flies to DEN (3 points), where it boards the angry passenger (its cubes go back);
    the green plane boards the ATL->SEA passenger, flies ATL->ORD (3 points, green route), sets
    it down there, where the red route to SEA starts (4 points for the red plane, 13 for the
    green one), and boards the JFK passenger the red plane left (at move point 3, after the
    set-down at point 0): both JFK passengers are 3 points from JFK for the next round.
    Whatever plane moves first."""
    g, (x, y, z, u) = _relay_position(planner_state, dict(PLANNER_WEIGHTS))
    ORD, DEN = g.airport("ORD"), g.airport("DEN")
    assert g.dist(3, "JFK") == 3 and g.dist(3, "DEN") == 3 and g.dist(0, "ORD") == 3
    assert g.flight(first=first, check=True) == 0
    moves = _moves(g)
    assert moves.index((E_DROP, 3, x, ORD)) < moves.index((E_PICK, 0, x, ORD))
    assert (E_PICK, 3, u, DEN) in moves and (E_DROP, 0, z, ORD) in moves
    assert g.where(x) == ("aboard", 0) and g.where(y) == ("aboard", 0)
    assert g.where(u) == ("aboard", 3) and g.anger_of(u) == 0
    assert g.where(z) == ("waiting", ORD)
    assert g.plane(0)["airport"] == ORD and g.plane(3)["airport"] == DEN


def test_without_relays_the_red_plane_delivers_and_the_angry_passenger_waits(planner_state):
    """The same position with ``relay`` 0 (the version-5 commitment; the rest version 7): a
    passenger the red plane set down would wait for the next round, so the red plane delivers
    its JFK passenger itself (ORD-JFK 3 points) and the ORD->SFO passenger at DEN keeps its 2
    cubes; the green plane carries both of its ATL passengers."""
    g, (x, y, z, u) = _relay_position(planner_state, dict(PLANNER_WEIGHTS, relay=0.0))
    assert g.flight(check=True) == 0
    moves = _moves(g)
    assert (E_DELIVER, 3, x, g.airport("JFK")) in moves
    assert g.where(x) == ("money", 3)
    assert g.where(u) == ("waiting", g.airport("DEN")) and g.anger_of(u) == 2
    assert g.where(y) == ("aboard", 0) and g.where(z) == ("aboard", 0)


@pytest.mark.parametrize("players,section", [(4, {}), (2, {}), (5, {"vip": True}), (3, {"anger_reset": "setdown"})])
def test_version_6_planner_never_takes_an_illegal_action(players, section):
    """Every invariant holds after every step (check_playout) over whole version-6 games."""
    run = run_from_dict({"game": "now_boarding", "seed": 6, "seats": ["planner"] * players,
                         "now_boarding": section}, "<test>")
    bad = [(g, c) for g in range(30) if (c := G.check_playout(run, g)) != 0]
    assert bad == []
