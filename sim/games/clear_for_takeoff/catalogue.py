"""What the reports, checks, compares and sweeps say about Clear for Takeoff: the metric catalogue,
the headline numbers and the report's notes. Pure data (no numba, no polars): the package's
``GAME`` (``__init__.py``) reads it into its :class:`sim.games.base.GameDef` fields, and
``metrics.py`` emits a record for every entry of :data:`CATALOGUE` (tested).
"""

from __future__ import annotations

from sim.games.base import MetricDef

LENGTH_UNIT = "player turns"
"""What the ``turns`` column counts (layout COLUMNS): one airline's turn, not a round."""
SEAT_NOTE = ("Seats are numbered from 0 in turn order; seat 0 plays first and play goes clockwise "
             "(RULES.md D1); a finished airline leaves the turn order (D12).")
CALIBRATION_NOTE = ("Deck counts and fleets are assumptions from the research note, not the printed game "
                    "(RULES.md, Component data): read the numbers as a comparison of variants on the same "
                    "seeds, not as the published game's balance.")
WEATHER_CODES = {
    "SC": "clear sky: no restriction",
    "FG": "fog: no takeoff, both D sequences hold",
    "31L": "runway 31L closed: no takeoff on it, its sequence holds",
    "31R": "runway 31R closed: no takeoff on it, its sequence holds",
    "SN": "snow: no wide-body takeoff; one extra movement card to place or advance",
    "XW": "crosswind: no medium takeoff",
    "ICE": "ice: no takeoff without de-icing (Anti-Ice cards)",
}
"""Weather card codes (RULES.md "Weather at takeoff")."""
_S, _P = ("seat",), ("policy",)
CATALOGUE = (
    MetricDef("weather_share", "share of all player turns begun under each weather card (a game, not a "
              "turn, is the unit of the interval)", "% of turns", "share", by=(("weather",),), codes=WEATHER_CODES),
    MetricDef("flr_suffered_mean", "aircraft sent back to the hangar by FLR (failure) per game: played on "
              "the seat by an opponent plus drawn face up by the seat itself", "aircraft per game", "mean",
              by=(_S, _P)),
    MetricDef("dly_suffered_mean", "aircraft set back by DLY (delay) per game: played on the seat plus drawn "
              "face up by it", "aircraft per game", "mean", by=(_S, _P)),
    MetricDef("flr_played_on_mean", "FLR cards an opponent played on the seat per game", "cards per game",
              "mean", by=(_S, _P)),
    MetricDef("flr_drawn_mean", "FLR cards the seat drew face up in an exchange (hitting its own most "
              "prepared aircraft) per game", "cards per game", "mean", by=(_S, _P)),
    MetricDef("dly_played_on_mean", "DLY cards an opponent played on the seat per game", "cards per game",
              "mean", by=(_S, _P)),
    MetricDef("dly_drawn_mean", "DLY cards the seat drew face up in an exchange per game", "cards per game",
              "mean", by=(_S, _P)),
    MetricDef("flr_played_mean", "FLR cards the seat played on opponents per game", "cards per game", "mean",
              by=(_S, _P)),
    MetricDef("dly_played_mean", "DLY cards the seat played on opponents per game", "cards per game", "mean",
              by=(_S, _P)),
    MetricDef("takeoffs_blocked_mean", "takeoff attempts stopped by the weather per game (all seats "
              "together, or one seat)", "attempts per game", "mean", by=((), _S)),
    MetricDef("exchanges_mean", "turns per game the seat spent exchanging cards", "turns per game", "mean",
              by=(_S,)),
    MetricDef("cut_off_rate", "share of games the turn cap stopped after the winner finished, before the "
              "finishing order was complete (counted as won)", "% of games", "proportion"),
    MetricDef("winner_turn_mean", "player turns until the first airline had every aircraft airborne "
              "(decided games)", "player turns", "mean"),
    MetricDef("forgot_draw_mean", "turns per game the seat forgot its face-down draw back to the hand size and "
              "waited until the end of its next turn (RULES.md D13; reported when forget_draw > 0)",
              "turns per game", "mean", by=((), _S, _P)),
    MetricDef("forgot_takeoff_mean", "aircraft per game cleared for take-off whose player forgot them: sent to "
              "the end of the D sequence (RULES.md D13; reported when forget_takeoff > 0)", "aircraft per game",
              "mean", by=((), _S, _P)),
)
"""The game's metrics (the common ones are in sim.metrics.common_catalogue)."""

HEADLINE = ("weather_share[weather]", "cut_off_rate", "reshuffles_mean")
"""The game's own gated numbers (``sim check``, :mod:`sim.check.paired`), beside the common
headline (win rates, first-player advantage, stall rate, length)."""

SWEEP_HEADLINE = ("flr_suffered_mean", "dly_suffered_mean", "takeoffs_blocked_mean", "reshuffles_mean")
"""A few descriptive numbers ``sim sweep`` shows per point, after the common ones and before the
rest of :data:`HEADLINE`."""
