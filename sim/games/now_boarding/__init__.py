"""Now Boarding (Fowers Games, 2019): cooperative, simultaneous pick-up-and-deliver.

The team plays one policy; see RULES.md for the rules as implemented and every decision.
"""

from __future__ import annotations

from sim.games.base import GameDef, SpeedTarget
from sim.games.now_boarding.catalogue import (
    CALIBRATION_NOTE,
    CATALOGUE,
    FAILURE_METRICS,
    HEADLINE,
    LENGTH_UNIT,
    SEAT_NOTE,
    SWEEP_HEADLINE,
    verdict_notes,
)
from sim.games.now_boarding.config import Section
from sim.games.now_boarding.layout import COLUMNS, N_WEIGHTS, POLICIES

GAME = GameDef(
    name="now_boarding",
    title="Now Boarding",
    rulebook="001_6294676ccc783d0b.txt",
    version="7",
    mode="cooperative",
    min_seats=2,
    max_seats=5,
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
    verdict_notes=verdict_notes,
    failure_metrics=FAILURE_METRICS,
    compile_seconds=187,
    speed_target=SpeedTarget(200_000, "planner", "planner games a minute (the shipped 4-player team, issue 10)"),
    progress_unit="complaints",
)
