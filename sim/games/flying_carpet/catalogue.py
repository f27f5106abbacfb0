"""What the reports, checks, compares and sweeps say about Flying Carpet: the metric catalogue,
the headline numbers and the report's notes. Pure data (no numba, no polars): the package's
``GAME`` (``__init__.py``) reads it into its :class:`sim.games.base.GameDef` fields, and
``metrics.py`` emits a record for every entry of :data:`CATALOGUE` (tested).
"""

from __future__ import annotations

from sim.games.base import MetricDef
from sim.games.flying_carpet.data import FINISH_NEAR

LENGTH_UNIT = "player turns"
"""What the ``turns`` column counts: every turn begun, skipped and extra turns included
(RULES.md "Turn order inside a turn"); ``rounds_mean`` counts rounds."""
ROUNDS_METRIC = "rounds_mean"
SEAT_NOTE = "Seats are numbered from 0 in turn order; seat 0 plays first in every round."
CALIBRATION_NOTE = ("Wind cards, scenery pieces and the die faces are ASSUMPTIONS from the research note "
                    "(RULES.md, NOTE A1-A17); the measured effect of each option is tabled in RULES.md "
                    "(\"Measured effect of each option\", rules version 1).")
DIE_CODES = {"1": "skip the next turn", "2": "move the clouds", "3": "another turn at once",
             "4": "two steering tokens from the supply", "5": "swap places with a carpet",
             "6": "hop to a free space at most four away"}
"""Special die faces (RULES.md "The special die")."""
_S, _P = ("seat",), ("policy",)
CATALOGUE = (
    MetricDef("rounds_mean", "rounds begun per race", "rounds", "mean"),
    MetricDef("blown_off_mean", "times per race the carpet was blown beyond the edge of the board (back to "
              "the start)", "times per race", "mean", by=(_S, _P)),
    MetricDef("skipped_mean", "turns per race the seat skipped (blocked, or the die said so)", "turns per race",
              "mean", by=(_S,)),
    MetricDef("blocks_given_mean", "carpets the seat blocked by landing on them, per race", "per race", "mean",
              by=(_S,)),
    MetricDef("blocks_suffered_mean", "times per race the seat was blocked by a carpet landing on it",
              "per race", "mean", by=(_S,)),
    MetricDef("forced_given_mean", "intermediate landings the seat forced on others, per race", "per race",
              "mean", by=(_S,)),
    MetricDef("forced_suffered_mean", "intermediate landings forced on the seat, per race", "per race", "mean",
              by=(_S,)),
    MetricDef("tokens_left_mean", "steering tokens the seat still held at the end of the race", "tokens",
              "mean", by=(_S,)),
    MetricDef("star_landings_mean", "moves per race that ended on a free star (the die was rolled)",
              "per race", "mean", by=(_S,)),
    MetricDef("wasted_mean", "turns per race that ended no nearer the finish than they began (blown off "
              "included)", "turns per race", "mean", by=(_S, _P)),
    MetricDef("winner_tokens_left_mean", "steering tokens the winner still held at the finish (decided races)",
              "tokens", "mean"),
    MetricDef("winner_wait_turns_mean", f"turns the winner began within {FINISH_NEAR} spaces of the finish "
              "without landing exactly (decided races)", "turns", "mean"),
    MetricDef("exact_wait_win_share", f"share of decided races in which a loser had waited within "
              f"{FINISH_NEAR} spaces of the finish for the exact landing", "% of decided races", "proportion"),
    MetricDef("win_rate_after_face", "win rate of the seats of a race that rolled this die face at least once",
              "% of seat-races", "proportion", by=(("face",),), codes=DIE_CODES),
    MetricDef("win_rate_no_roll", "win rate of the seats of a race that never rolled the die",
              "% of seat-races", "proportion"),
)
"""The game's metrics (the common ones are in sim.metrics.common_catalogue)."""

HEADLINE = ("rounds_mean",)
"""The game's own gated numbers (``sim check``, :mod:`sim.check.paired`), beside the common
headline (win rates, first-player advantage, stall rate, length)."""

SWEEP_HEADLINE = ("rounds_mean", "winner_tokens_left_mean")
"""A few descriptive numbers ``sim sweep`` shows per point, after the common ones and before the
rest of :data:`HEADLINE`."""
