"""Shared fixtures of the Flying Carpet rule scenarios."""

from __future__ import annotations

import pytest

from sim.games.flying_carpet.state import GameState


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


@pytest.fixture
def gs():
    """Factory: ``gs(seats=3, city=[], **section)`` -> a GameState at the start of a race
    (default: the empty desert, 3 greedy seats)."""

    def make(seats: int = 3, **section):
        section.setdefault("city", [])
        return GameState(seats=seats, **section)

    return make

