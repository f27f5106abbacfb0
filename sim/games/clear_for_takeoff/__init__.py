"""Clear for Takeoff ("Взлёт разрешён!"): competitive card game; 2-6 airlines race their
fleets from the hangar through stands, taxiways and two runways into the air.

Rulebook: ``shared/seeds/000_513cea2297b34943.txt``; rules as implemented and every
decision on an ambiguity: ``RULES.md`` beside this file.
"""

from __future__ import annotations

from sim.games.base import GameDef
from sim.games.clear_for_takeoff.config import Section, compile_spec
from sim.games.clear_for_takeoff.metrics import game_metrics, game_plots
from sim.games.clear_for_takeoff.play import COLUMNS, check_playout, play_batch
from sim.games.clear_for_takeoff.policies import POLICIES
from sim.games.clear_for_takeoff.trace import trace

GAME = GameDef(
    name="clear_for_takeoff",
    title="Clear for Takeoff",
    rulebook="000_513cea2297b34943.txt",
    mode="competitive",
    min_seats=2,
    max_seats=6,
    section=Section,
    policies=POLICIES,
    columns=COLUMNS,
    compile=compile_spec,
    play_batch=play_batch,
    trace=trace,
    metrics=game_metrics,
    plots=game_plots,
    check_playout=check_playout,
    n_weights=8,
)
