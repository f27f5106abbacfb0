"""Yukon Airways (Ludonova 2019, Al Leduc): competitive; 1-4 seaplane pilots fly passengers
(dice) from the docks of Whitehorse to the lakes and towns of the Yukon for six days.

Rulebook: ``shared/seeds/003_e6e45b8a601bcc4b.txt`` (German); rules as implemented and every
decision on an ambiguity: ``RULES.md`` beside this file. The kernels are loaded by name
(``sim.games.base.HOOKS``): importing this package imports neither numba nor polars.
"""

from __future__ import annotations

from sim.games.base import GameDef
from sim.games.yukon_airways.catalogue import (
    CALIBRATION_NOTE,
    CATALOGUE,
    DUPLICATES,
    HEADLINE,
    LENGTH_UNIT,
    SEAT_AXIS,
    SEAT_NOTE,
    SWEEP_HEADLINE,
    seat_traits,
)
from sim.games.yukon_airways.config import Section
from sim.games.yukon_airways.layout import COLUMNS, N_WEIGHTS, POLICIES

GAME = GameDef(
    name="yukon_airways",
    title="Yukon Airways",
    rulebook="003_e6e45b8a601bcc4b.txt",
    version="3",
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
    seat_axis=SEAT_AXIS,
    calibration_note=CALIBRATION_NOTE,
    seat_traits=seat_traits,
    duplicates=DUPLICATES,
    compile_seconds=100,
    progress_unit="$",
)
