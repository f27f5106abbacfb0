"""Shared helpers for the Now Boarding tests (rigged positions through GameState)."""

from __future__ import annotations

import numpy as np
import pytest

import sim.games.now_boarding.layout as L
from sim.games.now_boarding.state import GameState


def assert_same_chance(ev_a: np.ndarray, ev_b: np.ndarray) -> None:
    """Two traces (int32[n, EV_W] events) of the same game index were dealt alike by chance:
    the plane orders, passenger draws and weather (E_ORDER, E_DRAW, E_WEATHER) of every round
    both games played to its end are identical and not empty (the shorter game's last round may
    end inside its maintenance: a loss stops the draw)."""
    rounds = min(ev_a[:, 0].max(), ev_b[:, 0].max())
    for code in (L.E_ORDER, L.E_DRAW, L.E_WEATHER):
        ea = ev_a[(ev_a[:, 2] == code) & (ev_a[:, 0] < rounds)]
        eb = ev_b[(ev_b[:, 2] == code) & (ev_b[:, 0] < rounds)]
        assert len(ea) > 0 and np.array_equal(ea, eb), code


def cleared(g: GameState) -> GameState:
    """``g`` with the board and the weather emptied and a new flight phase started (a rigged
    scenario's blank position); returns ``g``."""
    g.clear()
    g.set_weather([])
    g.start_flight()
    return g


def _make(players: int = 4, policy: str = "greedy", seed: int = 0, game_index: int = 0, clear: bool = True,
         **section) -> GameState:
    """A set-up game; ``clear`` empties the board and the weather for a rigged scenario."""
    g = GameState(seats=players, policy=policy, seed=seed, game_index=game_index, **section)
    return cleared(g) if clear else g


def _planner_state(weights: dict, park: str, seats: int) -> GameState:
    """4 planner planes with ``weights``, board and weather cleared, every plane parked at
    ``park`` with ``seats`` seats and speed 3 (a test moves the planes it uses)."""
    seat = {"policy": "planner", "weights": weights}
    g = cleared(GameState(raw={"game": "now_boarding", "seed": 0, "seats": [seat] * 4, "now_boarding": {}}))
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
