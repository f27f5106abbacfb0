"""Registry of games: name -> module path, imported lazily. The one framework module that
names the games: everything else reads a game through its :class:`GameDef`
(:mod:`sim.games.base`)."""

from __future__ import annotations

import importlib
import importlib.util

from sim.games.base import GameDef, check_hooks

GAMES: dict[str, str] = {
    "clear_for_takeoff": "sim.games.clear_for_takeoff",
    "now_boarding": "sim.games.now_boarding",
    "flying_carpet": "sim.games.flying_carpet",
    "yukon_airways": "sim.games.yukon_airways",
    "dice_race": "sim.games.dice_race",
}


_CHECKED: dict[str, GameDef] = {}
"""Games whose hooks :func:`get_game` has checked (by name, with the GameDef checked)."""


def get_game(name: str) -> GameDef:
    """The :class:`GameDef` registered as ``name``; raises KeyError for an unknown game.

    The game registers here: the first time a GameDef is asked for, its hooks are checked
    (:func:`sim.games.base.check_hooks`, statically, importing no kernel); a game that lacks
    one raises ValueError naming the game and the hook."""
    if name not in GAMES:
        raise KeyError(name)
    gdef = importlib.import_module(GAMES[name]).GAME
    if _CHECKED.get(name) is not gdef:
        check_hooks(gdef)
        if gdef.name != name:
            raise ValueError(f"game {name!r}: its GameDef is named {gdef.name!r}")
        _CHECKED[name] = gdef
    return gdef


def available() -> list[str]:
    """Names of the registered games whose module is present."""
    out = []
    for name, mod in GAMES.items():
        if importlib.util.find_spec(mod) is not None:
            out.append(name)
    return out
