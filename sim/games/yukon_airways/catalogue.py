"""What the reports, checks, compares and sweeps say about Yukon Airways: the metric catalogue,
the headline numbers and the report's notes. Pure data (no numba, no polars): the package's
``GAME`` (``__init__.py``) reads it into its :class:`sim.games.base.GameDef` fields, and
``metrics.py`` emits a record for every entry of :data:`CATALOGUE` (tested).
"""

from __future__ import annotations

from sim.games.base import MetricDef

LENGTH_UNIT = "player turns"
"""What the ``turns`` column counts: boarding turns, flight turns and maintenance discards of all
players; a game is six rounds (days)."""
SEAT_NOTE = ("Seats are numbered from 0; the start player is drawn at random and the turn order changes "
             "every day (lowest dock first), so seat 0 is not the first player: see win_rate by start_pos "
             "for the initial turn order.")
SEAT_AXIS = "seat (start player drawn at random each game)"
FIRST_PLAYER_DOC = ("The start player's win rate (first in the first day's turn order; the start player is "
                    "drawn at random, so this is not seat 0) minus the fair share 1/seats, in percentage points.")
"""What Yukon's ``first_player_advantage`` measures (the report prints it under the table)."""
CALIBRATION_NOTE = ("The components are ASSUMPTIONS until real data is typed in (RULES.md, Policies). Two "
                    "inequalities show with them. The planes: each seat flies its own seaplane card, whose "
                    "starting improvement differs (seat 0 bonus fuel wins 38.5 % in the default 4-player mix, "
                    "seat 2 hand limit 15.2 %; on the advanced side no plane has one and the seats are even, "
                    "24.1-25.0 %), so a seat's win rate is its plane's, not its turn order's. The start money: "
                    "on both sides the money by turn order ($1 for the start player ... $4 for the fourth) "
                    "over-compensates going first: the start player wins 18.6 %, the fourth 31.7 % (advanced "
                    "side 17.5 % and 33.1 %; 20,000 games each, the shipped configs).")


def seat_traits(cfg) -> list[str] | None:
    """``GameDef.seat_traits``: each seat named by its seaplane card's starting improvement
    (``"plane: bonus fuel"``) when the seats' planes differ; None on the advanced side (no
    starting improvement) or when every seat flies the same card."""
    sec = cfg.section
    if sec.advanced:
        return None
    planes = list(sec.planes)[: cfg.n_seats]
    if len(planes) < cfg.n_seats or len(set(planes)) <= 1:
        return None
    return [f"plane: {str(p).replace('_', ' ') if p is not None else 'no improvement'}" for p in planes]


SOURCE_CODES = {"value": "highest location value of each round", "dice": "$1 per die on tickets",
                "far": "dice flown to far destinations (Old Crow, Inuvik)", "bonus": "symbol bonuses",
                "orders": "order cards", "christmas": "the Christmas dial", "switch": "the marker_money switch",
                "visited": "the visited-locations table", "spent": "money paid for die moves and dock 6"}
DOCK_CODES = {"1": "no ability", "2": "draw a ticket", "3": "dice of two different colours",
              "4": "one free die move and +1 fuel", "5": "+2 fuel", "6": "pay $1 for one improvement"}
"""Dock abilities (RULES.md Phase 1 b)."""
_PS = "per seat and game"
CATALOGUE = (
    MetricDef("first_player_advantage", FIRST_PLAYER_DOC, "percentage points", "difference"),
    MetricDef("win_rate", "share of games a seat won (by seat); by policy: wins per game and seat the policy "
              "sat in; by start_pos / start_money: the seat at that place of the first turn order (which "
              "started with that money)", "", "", by=(("start_pos",), ("start_money",))),
    MetricDef("tie_rate", "share of games where two or more seats ended with the most money (before the tie "
              "rule)", "% of games", "proportion"),
    MetricDef("shared_win_rate", "share of games whose first place is shared", "% of games", "proportion"),
    MetricDef("outcome_share", "how games end: won by a seat, shared, or stalled (they add up to 100 %)",
              "% of games", "share", by=(("outcome",),)),
    MetricDef("margin_mean", "winner's money minus the best other seat's (decided games)", "$", "mean"),
    MetricDef("margin_p50", "median winning margin (decided games)", "$", "quantile"),
    MetricDef("margin_p95", "95th percentile of the winning margin (decided games)", "$", "quantile"),
    MetricDef("money_mean", "money of the seat at the end", "$ per game", "mean", by=(("seat",),)),
    MetricDef("money_source_mean", "money earned from each source (spent: paid out)", f"$ {_PS}", "mean",
              by=(("source",),), codes=SOURCE_CODES),
    MetricDef("improvements_mean", "improvements taken of each kind (dials and switches)", f"improvements {_PS}",
              "mean", by=(("kind",),)),
    MetricDef("dock_share", "share of all dock choices that chose this dock", "% of choices", "share",
              by=(("dock",),), codes=DOCK_CODES),
    MetricDef("dock_win_share", "share of this dock's choices made by the game's eventual winner",
              "% of choices", "share", by=(("dock",),)),
    MetricDef("flights_per_round_mean", "flights per seat and day", "flights per seat and day", "mean"),
    MetricDef("short_flight_share", "share of flights with ticket cards burnt as fuel", "% of flights", "share"),
    MetricDef("burnt_mean", "ticket cards burnt as fuel", f"cards {_PS}", "mean"),
    MetricDef("unflown_mean", "dice still aboard after a day's last flight, summed over the days", f"dice {_PS}",
              "mean"),
    MetricDef("visited_mean", "distinct locations on the seat's cockpit map at the end", f"locations {_PS}",
              "mean"),
    MetricDef("emptied_mean", "locations without a coloured marker at the end", "locations per game", "mean"),
)
"""The game's metrics (the common ones are in sim.metrics.common_catalogue; ``win_rate`` gains the
groupings by start position and start money)."""

HEADLINE = ("tie_rate", "shared_win_rate", "win_rate[start_pos]")
"""The game's own gated numbers (``sim check``, :mod:`sim.check.paired`), beside the common
headline (win rates, first-player advantage, stall rate, length)."""

SWEEP_HEADLINE = ("margin_mean", "tie_rate", "shared_win_rate")
"""A few descriptive numbers ``sim sweep`` shows per point, after the common ones and before the
rest of :data:`HEADLINE`."""
DUPLICATES = ("outcome_share[outcome=seat *]", "outcome_share[outcome=stall]")
"""Records that repeat another metric (``win_rate`` by seat, ``stall_rate``): left out of the
check and compare tables."""
