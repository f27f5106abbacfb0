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
from sim.games.now_boarding.layout import E_DROP, E_PICK, E_ROUND
from sim.games.now_boarding.play import play_traced

G = get_game("now_boarding")


def _relays(weights, games: int, players: int = 4) -> tuple[int, int]:
    """(relays, set-downs) over games 0..games-1 of seed 5: a relay is a passenger set down by
    one plane (not at its destination) and boarded by another plane at that airport in the same
    round; a set-down is any such drop (events E_DROP, E_PICK: plane, card, airport)."""
    run = run_from_dict({"game": "now_boarding", "seed": 5, "seats": [{"policy": "planner", "weights": weights}]
                         * players}, "<relay>")
    relays = drops = 0
    for g in range(games):
        _, ev, _ = play_traced(run, g, 20_000)
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


@pytest.mark.parametrize("players,section", [(4, {}), (2, {}), (5, {"vip": True}), (3, {"anger_reset": "setdown"})])
def test_version_6_planner_never_takes_an_illegal_action(players, section):
    """Every invariant holds after every step (check_playout) over whole version-6 games."""
    run = run_from_dict({"game": "now_boarding", "seed": 6, "seats": ["planner"] * players,
                         "now_boarding": section}, "<test>")
    bad = [(g, c) for g in range(30) if (c := G.check_playout(run, g)) != 0]
    assert bad == []
