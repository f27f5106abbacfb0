"""Shared fixtures of the Dice Race rule scenarios (RULES.md beside the game is its rulebook)."""

from __future__ import annotations

import pytest

from sim.compile import run_from_dict
from sim.games.base import Rig
from sim.games.dice_race.state import GameState


@pytest.fixture(autouse=True)
def _invariants_hold_after_each_scenario(monkeypatch):
    """Every GameState a test builds must end consistent (rules.check_invariants == 0)."""
    made = []
    start = GameState._start

    def tracked(self, *args, **kwargs):
        start(self, *args, **kwargs)
        made.append(self)

    monkeypatch.setattr(GameState, "_start", tracked)
    yield
    for g in made:
        assert g.invariants() == 0, g.snapshot()


def race(seats: int = 2, dice=None, policies=None, turn_cap: int | None = None, **section) -> GameState:
    """A race of ``seats`` tokens at its start, ``dice`` the scripted faces (two a turn, seat
    0's first), ``section`` overriding ``[dice_race]`` keys."""
    raw = {"game": "dice_race", "seats": list(policies or ["greedy"] * seats), "seed": 1, "dice_race": section}
    if turn_cap is not None:
        raw["turn_cap"] = turn_cap
    return GameState.from_run(run_from_dict(raw, "<scenario>"), 0, Rig(dice=dice) if dice is not None else None)


@pytest.fixture
def gs():
    """Factory: ``gs(seats=2, dice=[3, 5], **section)`` -> a GameState at the start of a race."""
    return race
