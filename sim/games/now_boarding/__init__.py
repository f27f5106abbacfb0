"""Now Boarding (Fowers Games, 2019): cooperative, simultaneous pick-up-and-deliver.

The team plays one policy; see RULES.md for the rules as implemented and every decision.
"""

from __future__ import annotations

from sim.games.base import Column, GameDef, PolicyDef
from sim.games.now_boarding.config import NowBoardingSection
from sim.games.now_boarding.layout import NRT


def _compile(cfg):
    from sim.games.now_boarding.spec import compile_spec

    return compile_spec(cfg)


def _play_batch(*args):
    from sim.games.now_boarding.play import play_batch

    return play_batch(*args)


def _trace(*args, **kw):
    from sim.games.now_boarding.trace import trace

    return trace(*args, **kw)


def _metrics(df, cfg):
    from sim.games.now_boarding.metrics import metrics

    return metrics(df, cfg)


def _plots(df, records, folder):
    from sim.games.now_boarding.metrics import plots

    return plots(df, records, folder)


def _check_playout(*args):
    from sim.games.now_boarding.trace import check_playout

    return check_playout(*args)


HEURISTIC_WEIGHTS = {
    "anger": 2.0,  # × anger² of a waiting passenger (urgency)
    "fare": 1.0,  # × fare ($) of a pickup or delivery
    "dist": 1.0,  # × move points to reach the pickup / destination
    "trip": 0.25,  # × move points of the passenger's own trip (pickup targets) or of the detour (boarding)
    "handoff": 3.0,  # hand a passenger to a plane at the same airport that is this many points closer (0 = never)
    "strategy": 0.0,  # upgrades: 0 balanced (cheapest), 1 seats first, 2 speed first, 3 routes first
    "seat_cap": 4.0,  # buy seats up to this many
    "speed_cap": 6.0,  # buy speed up to this
}

POLICIES = (
    PolicyDef("random", 0, "random legal actions: random boarding (1/2), hand-offs (1/8), random destinations, random upgrades"),
    PolicyDef("greedy", 1, "dispatcher: deliver the nearest destination aboard; empty planes fetch the most urgent "
              "passenger nobody else is fetching (10·anger + 2·fare − distance); board the angriest first; "
              "balanced upgrades (cheapest next)"),
    PolicyDef("heuristic", 2, "weighted dispatcher: scores deliveries and pickups with the weights, detour-aware "
              "boarding, hand-offs at shared airports, configurable upgrade strategy and caps",
              dict(HEURISTIC_WEIGHTS)),
)


def _columns() -> tuple[Column, ...]:
    from sim.games.now_boarding.data import AIRPORTS

    doc = {
        "turns": "rounds played (final round included)",
        "stalled": "1 when turn_cap stopped the game",
        "reshuffles": "always 0 (no reshuffles in Now Boarding)",
        "starved_draws": "always 0 (a pile never runs short: stages change instead)",
        "team_win": "1 when the team ends with fewer complaints than the limit",
        "complaints": "cards in the complaint pile at the end (incl. the end count)",
        "complaints_anger": "passengers who left at their 4th anger cube",
        "complaints_leftover": "end count: 1 per 2 undelivered passengers",
        "complaints_vip": "VIPs not taken by the end of their stage",
        "lost_early": "1 when 3 complaints ended the game before the end count",
        "loss_stage": "-1 no loss; 0 morning, 1 afternoon, 2 evening, 3 final round/end count",
        "loss_round": "round of the loss (0 = none)",
        "delivered": "passengers delivered to their destination",
        "left_over": "passengers waiting or aboard when the game ended",
        "fares": "$ earned (all planes)",
        "spent": "$ paid for upgrades (overpayment included)",
        "wasted": "$ overpaid and lost (no change), after free temporary tokens",
        "upg_seat": "seat upgrades bought", "upg_speed": "speed upgrades bought",
        "upg_route": "route upgrades bought", "upg_temp_seat": "temporary seat tokens bought",
        "upg_temp_speed": "temporary speed tokens bought",
        "rounds_morning": "rounds played in the morning stage", "rounds_afternoon": "rounds in the afternoon",
        "rounds_evening": "rounds in the evening", "rounds_final": "final round played (0/1)",
        "vips_taken": "VIP cards attached to passengers",
    }
    cols = []
    from sim.games.now_boarding.columns import COLUMN_NAMES

    for name in COLUMN_NAMES:
        if name.startswith("complaints_") and name[11:] in AIRPORTS:
            d = f"anger complaints by passengers from {name[11:]}"
        elif name.count("_") == 2 and name.startswith("upg_") and name.split("_")[2] in (
                "morning", "afternoon", "evening"):
            _, kind, stage = name.split("_")
            d = f"{kind} upgrades bought in maintenances of {stage} rounds"
        elif name.startswith("upgrades_r"):
            r = name[10:]
            d = f"upgrades bought in the maintenance of round {r}" + (" or later" if int(r) == NRT else "")
        else:
            d = doc[name]
        cols.append(Column(name, d))
    cols.append(Column("plane_fares", "$ earned by this player's plane", per_seat=True))
    cols.append(Column("plane_delivered", "passengers delivered by this player's plane", per_seat=True))
    return tuple(cols)


GAME = GameDef(
    name="now_boarding",
    title="Now Boarding",
    rulebook="/work/shared/seeds/001_6294676ccc783d0b.txt",
    mode="cooperative",
    min_seats=2,
    max_seats=5,
    section=NowBoardingSection,
    policies=POLICIES,
    columns=_columns(),
    compile=_compile,
    play_batch=_play_batch,
    trace=_trace,
    metrics=_metrics,
    plots=_plots,
    check_playout=_check_playout,
    n_weights=8,
)
