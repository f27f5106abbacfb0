"""Shared helpers for the Now Boarding tests (rigged positions through GameState)."""

from __future__ import annotations

import pytest

from sim.games.now_boarding.state import GameState


def _make(players: int = 4, policy: str = "greedy", seed: int = 0, game_index: int = 0, clear: bool = True,
         **section) -> GameState:
    """A set-up game; ``clear`` empties the board and the weather for a rigged scenario."""
    g = GameState(players=players, policy=policy, seed=seed, game_index=game_index, section=section)
    if clear:
        g.clear()
        g.set_weather([])
        g.start_flight()
    return g


@pytest.fixture(scope="session")
def make():
    """Factory fixture: ``make(players, policy=..., clear=..., **section)`` -> GameState."""
    return _make
