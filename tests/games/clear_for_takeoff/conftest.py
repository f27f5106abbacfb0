"""Shared fixtures of the Clear for Takeoff rule scenarios."""

import pytest

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
