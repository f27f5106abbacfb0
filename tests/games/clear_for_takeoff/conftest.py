"""Shared fixtures of the Clear for Takeoff rule scenarios."""

import pytest

from sim.compile import run_from_dict
from sim.games.clear_for_takeoff.state import GameState


@pytest.fixture(autouse=True)
def _invariants_hold_after_each_scenario(monkeypatch):
    """Every GameState a test builds must end consistent (rules.check_invariants == 0)."""
    made = []
    init = GameState.__init__

    def tracked(self, *args, **kwargs):
        init(self, *args, **kwargs)
        made.append(self)

    monkeypatch.setattr(GameState, "__init__", tracked)
    yield
    for gs in made:
        assert gs.invariants() == 0


NO_PLAY_HAND = {"AI": 5, "B": 4}
"""A hand with no legal play while every aircraft is in the hangar: no A / LC to place, no VIP,
no Weather / FLR / DLY, and the AI cards need an aircraft on a takeoff position."""


def exchange_only(policy: str, seed: int):
    """Game 0 of a 2-seat run (seat 0 ``policy``, seat 1 greedy) with seat 0 holding
    ``NO_PLAY_HAND``: its only legal actions are exchanges. Returns the GameState."""
    run = run_from_dict({"game": "clear_for_takeoff", "seats": [policy, "greedy"], "seed": seed,
                         "clear_for_takeoff": {}}, "<exchange only>")
    gs = GameState.from_run(run, 0)
    gs.set_hand(0, NO_PLAY_HAND)
    return gs
