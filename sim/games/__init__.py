"""Registry of games: name -> module path, imported lazily (numba compiles on import)."""

from __future__ import annotations

import importlib
import importlib.util

from sim.games.base import GameDef

GAMES: dict[str, str] = {
    "clear_for_takeoff": "sim.games.clear_for_takeoff",
    "now_boarding": "sim.games.now_boarding",
    "flying_carpet": "sim.games.flying_carpet",
    "yukon_airways": "sim.games.yukon_airways",
    "dice_race": "sim.games.dice_race",
}


def get_game(name: str) -> GameDef:
    """The :class:`GameDef` registered as ``name``; raises KeyError for an unknown game."""
    if name not in GAMES:
        raise KeyError(name)
    return importlib.import_module(GAMES[name]).GAME


def available() -> list[str]:
    """Names of the registered games whose module is present."""
    out = []
    for name, mod in GAMES.items():
        if importlib.util.find_spec(mod) is not None:
            out.append(name)
    return out
