"""The verdict at the top of the report (issue 13 item 3): seat spread against the config's
threshold, the policy gap, length in the game's unit, stalls, a cooperative game's failure
modes, each with its interval; the game's calibration and seat notes; every metric row with
its catalogue definition; nothing false for the game."""

from __future__ import annotations

import pytest

from sim.report.format import find
from sim.report.writer import render_markdown, verdict_lines


def _verdict(md: str) -> str:
    return md.split("## Verdict", 1)[1].split("\n## ", 1)[0]


def test_seat_spread_is_highest_minus_lowest_seat_with_its_interval(race_report):
    out, cfg, gdef, df, summary, manifest = race_report
    md = (out / "report.md").read_text()
    v = _verdict(md)
    seats = [find(summary["metrics"], "win_rate", seat=s) for s in range(4)]
    hi, lo = max(seats, key=lambda r: r["value"]), min(seats, key=lambda r: r["value"])
    d = hi["value"] - lo["value"]
    assert f"seat spread {d * 100:.1f} points [" in v
    assert f"between seat {hi['by']['seat']} (greedy)" in v and f"seat {lo['by']['seat']} (random)" in v
    # seat 0 is favoured by construction (34 % vs 20 %): far above a 3-point threshold
    assert "**above** the practical threshold of 3 points (`[report] seat_spread_threshold`), beyond sampling noise" in v
    pol = [find(summary["metrics"], "win_rate", policy=p) for p in ("greedy", "heuristic", "random")]
    best = max(pol, key=lambda r: r["value"])
    assert f"**Skill:** {best['by']['policy']} wins" in v and "`[report] policy_gap_threshold`" in v
    p50 = find(summary["metrics"], "turns_p50")["value"]
    assert f"**Length:** median {int(p50)} player turns" in v
    assert "**Stalls:**" in v and "reached the turn cap" in v
    # the verdict comes before the plots, the tables and the run facts
    assert md.index("## Verdict") < md.index("## Plots") < md.index("\n## Win rate by seat") < md.index("\n## Run")


def test_the_threshold_comes_from_the_config(competitive):
    cfg, gdef, df, summary, manifest = competitive
    high = cfg.model_copy(update={"report": cfg.report.model_copy(update={"seat_spread_threshold": 0.5})})
    v = "\n".join(verdict_lines(high, gdef, summary, *_info_of(gdef)))
    assert "below the practical threshold of 50 points" in v and "beyond sampling noise" in v


def _info_of(gdef):
    from sim.report.writer import _info

    return _info(gdef)


def test_report_threshold_is_validated():
    from sim.config import load_dict
    from sim.errors import ConfigError

    base = {"game": "clear_for_takeoff", "seats": ["greedy", "greedy"]}
    assert load_dict(dict(base, report={"seat_spread_threshold": 0.02})).report.seat_spread_threshold == 0.02
    with pytest.raises(ConfigError, match="report.seat_spread_threshold"):
        load_dict(dict(base, report={"seat_spread_threshold": 3}))
    with pytest.raises(ConfigError, match="report.seat_spred"):
        load_dict(dict(base, report={"seat_spred": 0.1}))


def _nb_summary():
    from sim.metrics import proportion

    def share(metric, by, k, n):
        return {**proportion(metric, by, k, n), "kind": "share"}

    def mean_rec(metric, by, v, lo, hi, n):
        return {"metric": metric, "by": by, "value": v, "ci_low": lo, "ci_high": hi, "n": n, "kind": "mean",
                "sd": 1.0}

    n = 4000
    recs = [
        proportion("win_rate", {}, 4, n), proportion("loss_rate", {}, 3996, n), proportion("stall_rate", {}, 0, n),
        mean_rec("turns_mean", {}, 9.8, 9.7, 9.9, n),
        {"metric": "turns_p50", "by": {}, "value": 10.0, "ci_low": None, "ci_high": None, "n": n, "kind": "quantile"},
        share("loss_stage_share", {"stage": "morning"}, 100, 3996),
        share("loss_stage_share", {"stage": "afternoon"}, 2100, 3996),
        share("loss_stage_share", {"stage": "evening"}, 1700, 3996),
        share("loss_stage_share", {"stage": "final"}, 96, 3996),
        mean_rec("complaints_by_cause_mean", {"cause": "anger"}, 2.99, 2.98, 3.0, n),
        mean_rec("complaints_by_cause_mean", {"cause": "leftover"}, 0.05, 0.04, 0.06, n),
        mean_rec("rounds_per_stage_mean", {"stage": "morning"}, 4.0, 4.0, 4.0, n),
    ]
    return {"game": "now_boarding", "title": "Now Boarding", "run": "nb", "mode": "cooperative", "seed": 1,
            "games": n, "config_hash": "x", "seats": ["greedy"] * 4, "rotate_seats": False, "metrics": recs}


def test_cooperative_verdict_names_the_failure_modes_in_rounds_and_no_first_seat():
    from sim.config import load_dict
    from sim.games import get_game

    gdef = get_game("now_boarding")
    cfg = load_dict({"game": "now_boarding", "seats": ["greedy"] * 4})
    summary = _nb_summary()
    md = render_markdown(cfg, gdef, summary, {}, [], [])
    v = _verdict(md)
    assert "**Team result:** the team wins 0.1% [" in v and "and loses 99.9% [" in v
    # the top two loss stages, with the stage decoded, and the top complaint cause
    assert "stage afternoon (second stage): 52.6% [" in v and "stage evening (third stage): 42.5% [" in v
    assert "**Failure mode, share of lost games lost in each stage:** stage afternoon" in v
    assert "cause anger (a waiting passenger reached the 4th anger cube and left): 2.990 [2.980, 3.000]" in v
    assert "**Length:** median 10 rounds" in v and "player turns" not in md
    assert "seat 0 plays first" not in md and "seat 0 first" not in md
    assert "drawn at random every round" in md
    # the calibration note sits right after the verdict, before the numbers' tables
    assert md.index("**Calibration note (Now Boarding).**") < md.index("## Team result")
    assert "read win rates as relative" in md
    # every metric row carries its definition
    assert "share of lost games lost in each stage" in md
    assert "| `rounds_per_stage_mean` | rounds played in each stage (0 for a stage never reached) (rounds per game)" in md
    assert "| `turns_p50` | median game length (rounds): half the games are this long or shorter |" in md


def test_yukon_report_says_the_start_player_is_random():
    from sim.games import get_game
    from sim.metrics import report_info

    info = report_info(get_game("yukon_airways"))
    assert "seat 0 is not the first player" in info["seat_note"] and "random" in info["seat_axis"]
    assert report_info(get_game("flying_carpet"))["rounds_metric"] == "rounds_mean"


def test_other_metrics_decode_codes(tmp_path, competitive):
    """Codes of the catalogue are decoded where a record shows them (Clear for Takeoff's weather)."""
    from sim.games import get_game
    from sim.metrics import ratio

    cfg, _gdef, df, summary, manifest = competitive
    gdef = get_game("clear_for_takeoff")
    recs = summary["metrics"] + [ratio("weather_share", {"weather": "FG"}, [1, 2, 3], [10, 10, 10])]
    md = render_markdown(cfg, gdef, dict(summary, metrics=recs), manifest, [], [])
    assert "| weather FG (fog: no takeoff, both D sequences hold) | 20.0%" in md
    assert "share of all player turns begun under each weather card" in md
