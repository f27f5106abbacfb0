"""Fixtures for the Yukon Airways tests: compiled runs and a GameState factory with helpers
that drive a position to the step a scenario needs (through the kernel's own actions)."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path

import pytest

from sim.compile import run_from_dict
from sim.games.base import Rig
from sim.games.yukon_airways.layout import DP_PLANE, K_PLACE
from sim.games.yukon_airways.state import GameState

ROOT = Path(__file__).resolve().parents[3]
CONFIG = ROOT / "configs" / "yukon_airways.toml"
# die d has colour d // 3: pink 0-2, yellow 3-5, green 6-8, blue 9-11, red 12-14
BY_COLOUR = [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5]
"""A dice rig (``Rig(dice=...)``): dock k + 1 gets the three dice of colour k, dock 6 none."""
PINK, YELLOW, GREEN, BLUE, RED = range(5)


def raw_config() -> dict:
    """The default config as parsed TOML (a fresh copy)."""
    with open(CONFIG, "rb") as f:
        return tomllib.load(f)


def make_run(seats=None, **section):
    """A compiled run of the default config with ``section`` keys of [yukon_airways] replaced."""
    raw = copy.deepcopy(raw_config())
    raw["yukon_airways"].update(section)
    raw["rotate_seats"] = False
    if seats is not None:
        raw["seats"] = seats
    return run_from_dict(raw, "<yukon test>")


@pytest.fixture(scope="session")
def run4():
    return make_run()


@pytest.fixture
def gs(run4):
    """``gs(g=0, rig=None, run=None)`` -> a GameState at the start of game g."""
    def make(g=0, rig: Rig | None = None, run=None, **section):
        r = run if run is not None else (make_run(**section) if section else run4)
        return GameState.from_run(r, g, rig)
    return make


def to_flights(g: GameState, docks):
    """Every seat in boarding order places at ``docks[i]`` and ends its turn (first legal
    option for the rest); returns the position at the first flight decision."""
    for k in docks:
        g.apply((K_PLACE, k, 0))
        g.end_turn()
    return g


def load_plane(g: GameState, s: int, dice):
    """Seat ``s``'s plane holds exactly ``dice`` (ids); dice it held go to dock 1."""
    for d in range(15):
        place, seat = g.die(d)
        if place == DP_PLANE and seat == s:
            g.put_die(d, 0)
    for d in dice:
        g.put_die(d, DP_PLANE, s)


def set_hand(g: GameState, s: int, cards):
    """Seat ``s``'s hand is exactly ``cards`` (card types)."""
    g.clear_hand(s)
    for t in cards:
        g.give_card(s, t)
