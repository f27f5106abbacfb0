"""What the reports, checks, compares and sweeps say about Dice Race: the metric catalogue, the
headline numbers and the report's notes. Pure data (no numba, no polars): the package's ``GAME``
(``__init__.py``) reads it into its :class:`sim.games.base.GameDef` fields, and ``metrics.py``
emits a record for every entry of :data:`CATALOGUE` (tested).
"""

from __future__ import annotations

from sim.games.base import MetricDef

LENGTH_UNIT = "player turns"
"""What the ``turns`` column counts (layout COLUMNS)."""
SEAT_NOTE = "Seats are numbered from 0 in turn order; seat 0 rolls first (RULES.md 1)."
CALIBRATION_NOTE = ("Dice Race is the project's own teaching game (the template a new game copies): its numbers "
                    "describe its RULES.md, not a published game.")
_S, _P = ("seat",), ("policy",)
CATALOGUE = (
    MetricDef("bumps_mean", "opponents sent back by landing on them, per game (all seats together, one seat, "
              "or per seat the policy sat in)", "bumps per game", "mean", by=((), _S, _P)),
    MetricDef("bumped_mean", "times the seat's token was sent back per game", "bumps per game", "mean", by=(_S,)),
    MetricDef("passes_mean", "turns per game the seat had no allowed move (exact finish only)", "turns per game",
              "mean", by=(_S,)),
    MetricDef("runner_up_gap_mean", "spaces the best non-winning token was short of the finish when the race "
              "was won (decided games)", "spaces", "mean"),
)
"""The game's metrics (the common ones are in sim.metrics.common_catalogue)."""

HEADLINE = ("bumps_mean", "runner_up_gap_mean")
"""The game's own gated numbers (``sim check``, :mod:`sim.check.paired`), beside the common
headline (win rates, first-player advantage, stall rate, length)."""

SWEEP_HEADLINE = ("bumps_mean", "runner_up_gap_mean")
"""The descriptive numbers ``sim sweep`` shows per point."""
