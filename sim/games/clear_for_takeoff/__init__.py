"""Clear for Takeoff ("Взлёт разрешён!"): competitive card game; 2-6 airlines race their
fleets from the hangar through stands, taxiways and two runways into the air.

Rulebook: ``shared/seeds/000_513cea2297b34943.txt``; rules as implemented and every
decision on an ambiguity: ``RULES.md`` beside this file. The kernels are loaded by name
(``sim.games.base.HOOKS``): importing this package imports neither numba nor polars.
"""

from __future__ import annotations

from sim.games.base import GameDef
from sim.games.clear_for_takeoff.catalogue import (
    CALIBRATION_NOTE,
    CATALOGUE,
    HEADLINE,
    LENGTH_UNIT,
    SEAT_NOTE,
    SWEEP_HEADLINE,
)
from sim.games.clear_for_takeoff.config import Section
from sim.games.clear_for_takeoff.layout import COLUMNS, N_WEIGHTS, POLICIES

GAME = GameDef(
    name="clear_for_takeoff",
    title="Clear for Takeoff",
    rulebook="000_513cea2297b34943.txt",
    version="2",
    mode="competitive",
    min_seats=2,
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
    compile_seconds=52,
    yardstick="yardstick",
    progress_unit="preparation steps",
)
