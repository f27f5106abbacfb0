"""Flying Carpet ("Der fliegende Teppich", Flogaus & Feyerabend, Ravensburger 1987): 3-6
carpets race with wind cards and steering tokens through a city the players build, from
the start platform (lower left) to an exact landing on the finish platform (lower right).

Rulebook: ``shared/seeds/002_bafcc528e3332754.txt``; rules as implemented and every
decision on an ambiguity: ``RULES.md`` beside this file. The kernels are loaded by name
(``sim.games.base.HOOKS``): importing this package imports neither numba nor polars.
"""

from __future__ import annotations

from sim.games.base import GameDef
from sim.games.flying_carpet.catalogue import (
    CALIBRATION_NOTE,
    CATALOGUE,
    HEADLINE,
    LENGTH_UNIT,
    ROUNDS_METRIC,
    SEAT_NOTE,
    SWEEP_HEADLINE,
)
from sim.games.flying_carpet.config import Section
from sim.games.flying_carpet.layout import COLUMNS, N_WEIGHTS, POLICIES

GAME = GameDef(
    name="flying_carpet",
    title="Flying Carpet",
    rulebook="002_bafcc528e3332754.txt",
    version="3",
    mode="competitive",
    min_seats=3,
    max_seats=6,
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
    rounds_metric=ROUNDS_METRIC,
    compile_seconds=74,
    progress_unit="tenths of a move",
)
