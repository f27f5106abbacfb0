"""Issue 40, items 3, 6 and 7: what a designer reads of Yukon Airways (seats named by their
planes, the start player's advantage said to be the drawn start player's, the calibration note),
of Now Boarding (a README paragraph and calibration note in plain words, how close the lost
games came in the verdict), and the plots' smaller lies (a loud heat-map scale, a missing bar
without a word, p95 drawn over the median, a sawtooth from binning, compare sides with one
name). Summaries are the committed baselines (20,000 games, the shipped configs), so the figures
asserted are the ones the issue quotes."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]


def _baseline(name: str) -> dict:
    """A committed baseline as a run's summary (the keys the report and the terminal read)."""
    b = json.loads((ROOT / "reports" / "baselines" / f"{name}.json").read_text())
    from sim.games import get_game
    from sim.metrics import catalogue

    gdef = get_game(b["game"])
    cat = catalogue(gdef)
    return {"game": b["game"], "title": b["title"], "run": b["run"], "mode": b["mode"], "seed": b["seed"],
            "games": b["games"], "seats": b["seats"], "rotate_seats": True, "metrics": b["metrics"],
            "catalogue": {k: cat[k].as_json() for k in dict.fromkeys(r["metric"] for r in b["metrics"]) if k in cat}}


def _cfg(name: str):
    from sim.overrides import load, parse_sets

    return load(ROOT / "configs" / f"{name}.toml", parse_sets([]))


# ---------------------------------------------------------------------------- item 3: Yukon Airways


def test_yukon_seats_are_named_by_their_planes_only_where_planes_differ():
    from sim.games import get_game

    g = get_game("yukon_airways")
    cfg = _cfg("yukon_airways")
    assert g.seat_traits(cfg) == ["plane: bonus fuel", "plane: draw", "plane: hand limit", "plane: free moves"]
    assert g.seat_traits(_cfg("yukon_airways_advanced")) is None  # no starting improvement: seats alike
    from types import SimpleNamespace as NS

    assert g.seat_traits(NS(n_seats=4, section=NS(advanced=False, planes=["draw"] * 4))) is None  # one card for all
    assert g.seat_traits(NS(n_seats=2, section=NS(advanced=False, planes=["draw", None, "x"]))) == [
        "plane: draw", "plane: no improvement"]
    assert get_game("clear_for_takeoff").seat_traits is None


def test_yukon_terminal_names_planes_and_says_the_advantage_is_the_drawn_start_players(capsys, monkeypatch):
    from sim.cli import print_summary

    monkeypatch.setenv("COLUMNS", "200")  # one line per row

    summary = {**_baseline("yukon_airways"), "seat_traits": ["plane: bonus fuel", "plane: draw", "plane: hand limit",
                                                            "plane: free moves"]}
    print_summary(summary, {"games_per_s": None, "threads": 1, "wall_s": 1.0})
    out = " ".join(capsys.readouterr().out.split())
    assert "win rate seat 0 (plane: bonus fuel) │ 38.5% [37.8, 39.1]" in out
    assert "win rate seat 2 (plane: hand limit) │ 15.2% [14.7, 15.7]" in out
    assert "start player's advantage (drawn; seats differ by plane) │ -6.4 pp [-6.9, -5.9]" in out
    assert "win rate start position 0 (starts) │ 18.6%" in out and "win rate start position 3 (last) │ 31.7%" in out
    assert ("note: each seat keeps its plane (seat 0 bonus fuel, seat 1 draw, seat 2 hand limit, seat 3 free "
            "moves), so the seat win rates compare planes; the start player is drawn each game") in out


def test_yukon_report_names_planes_states_the_turn_order_spread_and_blames_no_single_side():
    from sim.games import get_game
    from sim.report.writer import render_markdown

    gdef = get_game("yukon_airways")
    cfg = _cfg("yukon_airways")
    summary = {**_baseline("yukon_airways"), "seat_traits": gdef.seat_traits(cfg)}
    md = render_markdown(cfg, gdef, summary, {}, [], [])
    verdict = md[md.index("## Verdict"):md.index("> **Calibration note")]
    assert ("seat spread 23.2 points [22.3, 24.2] between seat 0 (plane: bonus fuel) 38.5% [37.8, 39.1] and "
            "seat 2 (plane: hand limit) 15.2% [14.7, 15.7]") in verdict
    assert "the seats start differently (their planes), so this is the spread of their set-ups" in verdict
    assert ("the start player (drawn each game) wins 18.6% [18.1, 19.1], the last in the turn order 31.7% "
            "[31.1, 32.4]; start positions 3 and 0 differ by 13.1 points [12.2, 14.1]: **above** the practical "
            "threshold of 3 points") in verdict
    assert "| Seat | Starts with | Win rate [95% CI] | Games |" in md
    assert "| 0 | plane: bonus fuel | 38.5% [37.8, 39.1] |" in md
    note = gdef.calibration_note
    assert "on both sides the money by turn order" in note and "the start player wins 18.6 %, the fourth 31.7 %" in note
    assert "advanced side 17.5 % and 33.1 %" in note and "on the advanced side the start money" not in note
    # the numbers of the note are the baselines' (20,000 games each)
    adv = _baseline("yukon_airways_advanced")["metrics"]
    pos = {r["by"]["start_pos"]: r["value"] for r in adv if r["metric"] == "win_rate" and "start_pos" in r["by"]}
    assert f"{pos[0] * 100:.1f} % and {pos[3] * 100:.1f} %" in note


# ---------------------------------------------------------------------------- item 6: Now Boarding


def test_now_boarding_verdict_says_how_close_the_lost_games_came():
    from sim.games import get_game
    from sim.report.writer import render_markdown

    gdef = get_game("now_boarding")
    md = render_markdown(_cfg("now_boarding"), gdef, _baseline("now_boarding"), {}, [], [])
    verdict = md[md.index("## Verdict"):md.index("> **Calibration note")]
    # 33.5 % of the 20,000 games end on exactly the limit of 3 complaints: 49 % of the 68.5 % lost
    # and 19.7 % end on 2, one short: 63 % of the 31.5 % won (the two "of the lost games" shares differ
    # in what they count, and the line says so)
    assert ("- **Near misses:** 33.5% [32.8, 34.1] of the games ended on exactly 3 complaints, the limit (49% of "
            "the lost games, whether the limit was reached at the final count or earlier, when a passenger left; the "
            "How close line counts only the final count); 19.7% [19.2, 20.3] ended on 2, one complaint short of it "
            "(63% of the won games).") in verdict
    assert ("21.7% [21.2, 22.3] of the games were lost at the final count by a single complaint (one fewer and "
            "the team had won): 32% of the lost games") in verdict


def test_now_boarding_texts_speak_to_a_designer_not_of_planner_internals():
    from sim.games import get_game

    note = get_game("now_boarding").calibration_note
    readme = (ROOT / "README.md").read_text()
    para = readme[readme.index("**Now Boarding's shipped team**"):]
    para = para[:para.index("\n\n")]
    for text in (note, para):
        for jargon in ("endsearch", "orders =", "rules version", "version 7", "progress mode", "PLANNER_V", "horizon"):
            assert jargon not in text, jargon
    assert "How strong it is:" in para and "What the number means:" in para
    assert "**31.5 % [30.9, 32.2] with 4**" in para and "43.0 % [40.0, 46.1]" in para
    assert "a win rate here is how often a team this good wins, not how hard the game is for people" in note
    assert "read win rates as relative" in note


# ---------------------------------------------------------------------------- item 7: plots


def _rank_records(dev: float, n: int) -> list[dict]:
    recs = []
    for s in range(4):
        for r in range(5):
            v = 0.0 if r == 0 else 0.25 + (dev if s == r - 1 else -dev / 3)
            recs.append({"metric": "rank_share", "by": {"seat": s, "rank": r}, "value": v, "n": n})
    return recs


def test_rank_heat_map_colours_reach_full_strength_at_the_threshold_not_at_a_tiny_deviation(tmp_path, saved_figures):
    from sim.report.plots import plot_rank_distribution

    with saved_figures() as f:
        plot_rank_distribution(None, _rank_records(0.006, 1_000_000), 4, tmp_path, threshold=0.03)
        plot_rank_distribution(None, _rank_records(0.09, 1_000_000), 4, tmp_path, threshold=0.03)
    quiet, loud = f.figs
    assert quiet.axes[0].images[0].norm.vmax == pytest.approx(0.03)  # not the 0.6-point deviation
    assert "full colour at ±3.0 (the seat-spread threshold)" in quiet.axes[1].get_ylabel()
    assert loud.axes[0].images[0].norm.vmax == pytest.approx(0.09)
    assert "full colour at ±9.0 (the largest distance)" in loud.axes[1].get_ylabel()


def test_attacks_by_policy_has_intervals_and_says_a_bar_of_zero(tmp_path, saved_figures):
    from sim.games.clear_for_takeoff.metrics import plots

    vals = {"greedy": (0.0, 0.0, 0.9, 2.0, 1.8, 1.6), "heuristic": (2.4, 1.6, 0.7, 0.5, 1.0, 0.9)}
    names = ("flr_played_mean", "dly_played_mean", "flr_played_on_mean", "dly_played_on_mean", "flr_drawn_mean",
             "dly_drawn_mean")
    recs = [{"metric": m, "by": {"policy": q}, "value": v, "ci_low": v - 0.05, "ci_high": v + 0.05,
             "n": 1000, "kind": "mean"} for q, vs in vals.items() for m, v in zip(names, vs)]
    with saved_figures() as f:
        made = plots(None, recs, tmp_path)
    title = next(t for t, name in made if name == "attacks_by_policy.png")
    assert "(greedy played no attack card: its bar is 0)" in title and "heuristic" not in title
    ax = f.figs[-1].axes[0]
    texts = [t.get_text() for t in ax.texts]
    assert texts == ["0: none", "4.00", "2.90", "1.20", "3.40", "1.90"]  # played, played on it, drawn by it
    # each bar's interval: FLR's and DLY's half-widths added (0.05 + 0.05), not clipped below 0 for greedy's 0
    played = [c for c in ax.containers if getattr(c, "errorbar", None) is not None][0]
    (g_lo, g_hi), (h_lo, h_hi) = [(seg[0][1], seg[1][1]) for seg in played.errorbar.lines[2][0].get_segments()]
    assert (g_lo, g_hi) == pytest.approx((0.0, 0.1)) and (h_lo, h_hi) == pytest.approx((3.9, 4.1))


def test_length_plot_draws_one_line_for_a_median_equal_to_the_95th_percentile(tmp_path, saved_figures):
    import polars as pl

    from sim.report.plots import plot_game_length

    turns = np.array([17] * 90 + list(range(7, 17)) * 1, dtype=np.int32)
    df = pl.DataFrame({"turns": turns, "stalled": np.zeros(len(turns), dtype=np.int32)})
    recs = [{"metric": "turns_p50", "by": {}, "value": 17.0}, {"metric": "turns_p95", "by": {}, "value": 17.0}]
    with saved_figures() as f:
        plot_game_length(df, recs, tmp_path, "rounds")
    fig = f.figs[-1]
    assert len(fig.axes[0].lines) == 1
    labels = [t.get_text() for leg in fig.legends for t in leg.get_texts()]
    assert "median and 95th percentile (equal): 17 rounds" in labels
    recs[1]["value"] = 20.0
    with saved_figures() as f:
        plot_game_length(df, recs, tmp_path, "rounds")
    labels = [t.get_text() for leg in f.figs[-1].legends for t in leg.get_texts()]
    assert "median: 17 rounds" in labels and "95th percentile: 20 rounds" in labels


def test_player_turn_bins_are_whole_rounds_so_no_sawtooth():
    from sim.report.plots import _binned, bin_width

    assert bin_width(60, 460, 60, 4) == 8 and bin_width(60, 460, 60, 1) == 7 and bin_width(5, 40, 60, 4) == 1
    # games end on the start player's turn 10 times as often as on the others': a width of 7
    # holds one or two such turns by turns (a sawtooth), a width of 8 always two (flat)
    values = np.arange(64, 464)
    counts = np.where(values % 4 == 0, 100, 10)
    _l, width, c, _s = _binned(values, counts, counts * 0, period=4)
    assert width == 8 and len(set(c[:-1].tolist())) == 1
    _l, width, c, _s = _binned(values, counts, counts * 0, period=1)
    assert width == 7 and len(set(c[:-1].tolist())) > 1


def test_compare_sides_of_one_config_are_named_by_the_changed_keys():
    from sim.cli_regress import side_labels

    assert side_labels("clear_for_takeoff", [("clear_for_takeoff.deck.FLR", "4", "2")]) == {
        "a": "A: deck.FLR=4", "b": "B: deck.FLR=2"}
    two = side_labels("x", [("seats[2].weights.attack", "0.6", "0.7"), ("x.hand_size", "9", "10"),
                            ("x.deck.FLR", "4", "2")])
    assert two == {"a": "A: seats[2].weights.attack=0.6, hand_size=9 +1 more",
                   "b": "B: seats[2].weights.attack=0.7, hand_size=10 +1 more"}
    assert side_labels("x", []) == {"a": "A:x", "b": "B:x"}


def test_figcheck_finds_repeated_ticks_and_cut_off_text():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import PercentFormatter

    from sim.report.figcheck import figure_problems

    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot([0, 1], [0.01, 0.03])
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))  # 1.0 %, 1.5 % ... all read "2%"
    ax.set_xlabel("x" * 200)
    fig.tight_layout()
    problems = figure_problems(fig)
    assert any("y tick labels repeat: 1%, 2%, 2%, 2%, 3%" in p for p in problems), problems
    assert any("is cut off at the figure's edge" in p for p in problems), problems
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=1))
    ax.set_xlabel("x")
    fig.tight_layout()
    assert figure_problems(fig) == []
    plt.close(fig)
