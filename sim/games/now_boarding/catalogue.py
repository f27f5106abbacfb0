"""What the reports, checks, compares and sweeps say about Now Boarding: the metric catalogue,
the headline numbers and the report's notes. Pure data (no numba, no polars): the package's
``GAME`` (``__init__.py``) reads it into its :class:`sim.games.base.GameDef` fields, and
``metrics.py`` emits a record for every entry of :data:`CATALOGUE` (tested).
"""

from __future__ import annotations

from sim.games.base import MetricDef

LENGTH_UNIT = "rounds"
"""What the ``turns`` column counts in Now Boarding: rounds (flight phase + maintenance), final round
included; every plane acts in every round."""
SEAT_NOTE = ("Seats are the team's planes (one player each). The order the planes act in is drawn at "
             "random every round (RULES.md \"Flight phase\"), so no seat plays first.")
CALIBRATION_NOTE = ("How strong the simulated team is, and what its win rate means (RULES.md, \"Calibration "
                    "note\"). Every seat plays the shipped team, planner: each round the team agrees one plan (which "
                    "plane carries which passengers, where a passenger changes planes within the round, which "
                    "passenger is rescued before the last anger cube) and it buys speed first, then routes. It wins "
                    "52.5 % of 2-player games, 35.8 % with 3, 31.5 % with 4 (it delivers about 60 of the 71 "
                    "passengers who arrive) and 25.1 % with 5 (20,000 games each, the shipped configs); pilots who "
                    "each play for themselves (greedy) win 1.9 % with 2 players and almost never with more. The "
                    "team is good but not the best possible: a team that tries out each purchase over the next two "
                    "rounds (rollout) wins 43.0 % of 4-player games where planner wins 32.6 % on the same deals, "
                    "and a human table may coordinate better or worse than either. So a win rate here is how often "
                    "a team this good wins, not how hard the game is for people: read win rates as relative "
                    "(variant A against variant B on the same seeds: which is harder, and by how many points) more "
                    "than as the game's difficulty. Most lost games are lost at the final count (about 6.5 "
                    "passengers left where a win allows 5): the verdict's How close and Near misses lines say by how much.")


def verdict_notes(cfg, records: list) -> list[str]:
    """``GameDef.verdict_notes``: how close the games came, at the complaint limit: the share of
    games that ended on exactly the limit (lost by the last complaint, at the final count or
    earlier) and on one fewer (won by one), from the ``complaints_share`` records, each with its
    95 % interval, and as a share of the lost (won) games: a game ends early only at the limit,
    so one ending on one fewer was won (or stalled: the stall rate is shown beside it)."""
    from sim.report.format import find, fmt_interval

    limit = int(cfg.section.complaint_limit)
    at, below, lost, won = (find(records, "complaints_share", complaints=limit),
                            find(records, "complaints_share", complaints=limit - 1), find(records, "loss_rate"),
                            find(records, "win_rate"))
    if at is None or not at.get("n"):
        return []
    text = f"**Near misses:** {fmt_interval(at)} of the games ended on exactly {limit} complaints, the limit"
    if lost is not None and lost.get("value"):
        text += (f" ({at['value'] / lost['value']:.0%} of the lost games, whether the limit was reached at the final "
                 "count or earlier, when a passenger left; the How close line counts only the final count)")
    if below is not None and limit > 1:
        text += f"; {fmt_interval(below)} ended on {limit - 1}, one complaint short of it"
        if won is not None and won.get("value"):
            text += f" ({below['value'] / won['value']:.0%} of the won games)"
    return [text + "."]


FAILURE_METRICS = ("loss_stage_share", "complaints_by_cause_mean")
"""Records whose largest values are the team's main failure modes (the report's verdict)."""
STAGE_CODES = {"morning": "first stage (morning pile)", "afternoon": "second stage", "evening": "third stage",
               "final": "the final round and the end count (1 complaint per 2 undelivered passengers)"}
CAUSE_CODES = {"anger": "a waiting passenger reached the 4th anger cube and left",
               "leftover": "end count: 1 complaint per 2 passengers still waiting or aboard",
               "vip": "a VIP not taken by the end of its stage"}
AIRPORT_CODES = {"ATL": "Atlanta", "DEN": "Denver", "DFW": "Dallas/Fort Worth", "JFK": "New York JFK",
                 "LAX": "Los Angeles", "MIA": "Miami", "ORD": "Chicago O'Hare", "SEA": "Seattle",
                 "SFO": "San Francisco"}
UPGRADE_CODES = {"seat": "permanent seat", "speed": "permanent speed", "route": "route (colour) upgrade",
                 "temp_seat": "temporary seat token", "temp_speed": "temporary speed token"}
_G = "per game (whole team)"
CATALOGUE = (
    MetricDef("complaints_mean", "cards in the complaint pile at the end of the game (end count included); the "
              "team loses at 3", "complaints per game", "mean"),
    MetricDef("complaints_p50", "median complaints at the end of the game", "complaints", "quantile"),
    MetricDef("complaints_p95", "95th percentile of complaints at the end of the game", "complaints", "quantile"),
    MetricDef("complaints_share", "share of games ending with this many complaints", "% of games", "share",
              by=(("complaints",),)),
    MetricDef("lost_early_rate", "share of games lost during play (3 complaints before the end count)",
              "% of games", "proportion"),
    MetricDef("loss_stage_share", "share of lost games lost in each stage", "% of lost games", "share",
              by=(("stage",),), codes=STAGE_CODES),
    MetricDef("loss_round_mean", "round in which a lost game was lost (lost games)", "rounds", "mean"),
    MetricDef("loss_round_share", "share of lost games lost in each round", "% of lost games", "share",
              by=(("round",),)),
    MetricDef("complaints_by_cause_mean", "complaints per game by cause", "complaints per game", "mean",
              by=(("cause",),), codes=CAUSE_CODES),
    MetricDef("complaints_by_airport_mean", "anger complaints per game by the passengers' origin airport "
              "(airports on the board side in use)", "complaints per game", "mean", by=(("airport",),),
              codes=AIRPORT_CODES),
    MetricDef("delivered_mean", "passengers delivered to their destination", f"passengers {_G}", "mean"),
    MetricDef("left_over_mean", "passengers still waiting or aboard when the game ended", f"passengers {_G}",
              "mean"),
    MetricDef("fares_mean", "$ earned by all planes", f"$ {_G}", "mean"),
    MetricDef("spent_mean", "$ paid for upgrades (overpayment included)", f"$ {_G}", "mean"),
    MetricDef("wasted_mean", "$ overpaid and lost (no change is given), after free temporary tokens",
              f"$ {_G}", "mean"),
    MetricDef("upgrades_mean", "upgrades bought per game by kind", f"upgrades {_G}", "mean", by=(("kind",),),
              codes=UPGRADE_CODES),
    MetricDef("upgrades_by_round_mean", "upgrades bought in the maintenance of each round, averaged over ALL "
              "games (a game already over counts 0; the plot averages over the games still running)",
              f"upgrades {_G}", "mean", by=(("round",),)),
    MetricDef("upgrades_by_stage_mean", "permanent upgrades bought per game by kind and by the stage of the "
              "maintenance", f"upgrades {_G}", "mean", by=(("kind", "stage"),), codes={**UPGRADE_CODES, **STAGE_CODES}),
    MetricDef("rounds_per_stage_mean", "rounds played in each stage (0 for a stage never reached)",
              "rounds per game", "mean", by=(("stage",),), codes=STAGE_CODES),
    MetricDef("stage_reached_rate", "share of games that played at least one round of the stage", "% of games",
              "proportion", by=(("stage",),), codes=STAGE_CODES),
    MetricDef("plane_fares_mean", "$ earned by this seat's plane per game", "$ per game", "mean",
              by=(("seat",),)),
    MetricDef("plane_delivered_mean", "passengers delivered by this seat's plane per game",
              "passengers per game", "mean", by=(("seat",),)),
    MetricDef("vips_taken_mean", "VIP cards attached to passengers per game (VIP variant only)", "VIPs per game",
              "mean"),
)
"""The game's metrics (the common ones are in sim.metrics.common_catalogue)."""

HEADLINE = ("complaints_mean", "delivered_mean", "lost_early_rate")
"""The game's own gated numbers (``sim check``, :mod:`sim.check.paired`), beside the common
headline (team win rate, stall rate, length)."""

SWEEP_HEADLINE = ("complaints_mean", "lost_early_rate", "upgrades_mean")
"""A few descriptive numbers ``sim sweep`` shows per point, after the common ones and before the
rest of :data:`HEADLINE`."""
