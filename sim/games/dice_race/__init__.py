"""Dice Race (template): a 2-4 seat dice race, the project's teaching game and the template a
new game copies (docs/adding-a-game.md walks through it file by file).

Rulebook: ``RULES.md`` beside this file (our own game, so RULES.md is its rulebook). The
kernels are loaded by name (``sim.games.base.GameDef``): importing this package does not
import numba.
"""

from __future__ import annotations

from sim.games.base import GameDef
from sim.games.dice_race.config import Section
from sim.games.dice_race.layout import COLUMNS, N_WEIGHTS, POLICIES

GAME = GameDef(
    name="dice_race",
    title="Dice Race (template)",
    rulebook="RULES.md",
    version="1",
    mode="competitive",
    min_seats=2,
    max_seats=4,
    section=Section,
    policies=POLICIES,
    columns=COLUMNS,
    package=__name__,
    n_weights=N_WEIGHTS,
)
