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


def _planner_state(weights: dict, park: str, seats: int) -> GameState:
    """4 planner planes with ``weights``, board and weather cleared, every plane parked at
    ``park`` with ``seats`` seats and speed 3 (a test moves the planes it uses)."""
    seat = {"policy": "planner", "weights": weights}
    g = GameState(raw={"game": "now_boarding", "seed": 0, "seats": [seat] * 4, "now_boarding": {}})
    g.clear()
    g.set_weather([])
    g.start_flight()
    for p in range(4):
        g.set_plane(p, park, seats=seats, speed=3)
    return g


@pytest.fixture(scope="session")
def planner_state():
    """Factory fixture: ``planner_state(weights, park, seats)`` -> GameState (planner scenarios)."""
    return _planner_state


@pytest.fixture(scope="session")
def make():
    """Factory fixture: ``make(players, policy=..., clear=..., **section)`` -> GameState."""
    return _make
