"""Now Boarding (Fowers Games, 2019): cooperative, simultaneous pick-up-and-deliver.

The team plays one policy; see RULES.md for the rules as implemented and every decision.
"""

from __future__ import annotations

from sim.games.base import GameDef
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
)
