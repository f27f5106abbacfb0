"""Dice Race (template): a 2-4 seat dice race, the project's teaching game and the template a
new game copies (docs/adding-a-game.md walks through it file by file).

Rulebook: ``RULES.md`` beside this file (our own game, so RULES.md is its rulebook). The
kernels are loaded by name (``sim.games.base.HOOKS``): importing this package imports neither
numba nor polars.
"""

from __future__ import annotations

from sim.games.base import GameDef
from sim.games.dice_race.catalogue import (
    CALIBRATION_NOTE,
    CATALOGUE,
    HEADLINE,
    LENGTH_UNIT,
    SEAT_NOTE,
    SWEEP_HEADLINE,
)
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
    catalogue=CATALOGUE,
    headline=HEADLINE,
    sweep_headline=SWEEP_HEADLINE,
    length_unit=LENGTH_UNIT,
    seat_note=SEAT_NOTE,
    calibration_note=CALIBRATION_NOTE,
    compile_seconds=30,
    progress_unit="spaces",
)
