"""Plots (issue 13 item 4): axes scaled to the data, no duplicate charts, per-round series over
the games still running, the median line on the median."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from sim.report.plots import plot_game_length, scaled_limits


def test_win_rate_axis_is_zoomed_to_a_small_spread():
    # four seats within 1.1 points of each other: the axis spans the intervals, not 0..100 %
    lows, highs = [0.245, 0.250, 0.247, 0.252], [0.251, 0.256, 0.253, 0.258]
    lo, hi = scaled_limits(lows, highs, [0.25])
    assert 0.24 < lo < 0.245 and 0.258 < hi < 0.265
    # a large spread still fits everything and never leaves 0..1
    lo, hi = scaled_limits([0.0, 0.4], [0.05, 0.95], [0.5])
    assert lo == 0.0 and hi == 1.0


def test_game_length_median_line_stands_on_the_median_bar(tmp_path, monkeypatch):
    """One-wide bars are centred on their value and the median line is drawn at the median
    itself (it was drawn at 9.5 and labelled 9)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.axes

    lines = []
    orig = matplotlib.axes.Axes.axvline

    def spy(self, x=0, *a, **k):
        lines.append((x, k.get("label")))
        return orig(self, x, *a, **k)

    monkeypatch.setattr(matplotlib.axes.Axes, "axvline", spy)
    turns = np.array([8] * 30 + [9] * 40 + [10] * 30)
    df = pl.DataFrame({"turns": turns, "stalled": np.zeros(100, dtype=np.int32)})
    recs = [{"metric": "turns_p50", "by": {}, "value": 9.0, "kind": "quantile"},
            {"metric": "turns_p95", "by": {}, "value": 10.0, "kind": "quantile"}]
    assert plot_game_length(df, recs, tmp_path, "rounds") == ("Game length", "game_length.png")
    assert (9.0, "median: 9 rounds") in lines and (10.0, "95th percentile: 10 rounds") in lines


def test_now_boarding_upgrade_timeline_averages_over_the_games_still_running():
    from sim.games.now_boarding.metrics import upgrade_timeline

    # 3 games: lengths 1, 2, 3 rounds; upgrades 2 in every round played
    df = pl.DataFrame({"turns": [1, 2, 3], "upgrades_r1": [2, 2, 2], "upgrades_r2": [0, 2, 2],
                       "upgrades_r3": [0, 0, 2], "upgrades_r4": [0, 0, 0]})
    xs, ys, lo, hi, alive = upgrade_timeline(df)
    assert xs == [1, 2, 3] and alive == [3, 2, 1]
    assert ys == pytest.approx([2.0, 2.0, 2.0])  # the all-games mean would say 2, 4/3, 2/3


def test_now_boarding_plots_have_no_duplicate_charts(tmp_path):
    from sim.games.now_boarding.metrics import plots
    from sim.metrics import mean, proportion

    n = 50
    df = pl.DataFrame({"turns": np.full(n, 5), "upgrades_r1": np.ones(n, dtype=np.int32)})
    recs = [{**proportion("loss_stage_share", {"stage": s}, k, n), "kind": "share"}
            for s, k in (("morning", 5), ("afternoon", 40), ("evening", 5), ("final", 0))]
    recs += [{**proportion("loss_round_share", {"round": r}, 10, n), "kind": "share"} for r in range(1, 6)]
    recs += [{**proportion("complaints_share", {"complaints": 3}, 50, n), "kind": "share"}]
    recs += [mean("complaints_by_cause_mean", {"cause": c}, np.full(n, v)) for c, v in (("anger", 3), ("leftover", 0))]
    made = dict((f, t) for t, f in plots(df, recs, tmp_path))
    # the loss-round chart repeated the game-length histogram; the complaint count was one 100 % bar
    assert "nb_loss_round.png" not in made and "nb_complaints.png" not in made
    assert {"nb_loss_stage.png", "nb_complaints_cause.png", "nb_upgrades.png"} <= set(made)
    assert "games still running" in made["nb_upgrades.png"]
    assert all((tmp_path / f).stat().st_size > 2000 for f in made)


@pytest.mark.parametrize("game", ["clear_for_takeoff", "flying_carpet", "now_boarding", "yukon_airways"])
def test_a_one_game_run_writes_its_report_with_every_plot(game, tmp_path):
    """A run of one game has means and shares with no interval (NaN: fewer than 2 games): the
    plots draw them without an error bar instead of failing on NaN axis limits (sim run
    --games 1 crashed in the weather plot)."""
    import json
    from pathlib import Path

    from typer.testing import CliRunner

    from sim.cli import app

    config = Path(__file__).resolve().parents[2] / "configs" / f"{game}.toml"
    out = tmp_path / "one"
    res = CliRunner().invoke(app, ["run", str(config), "--games", "1", "--threads", "1", "--quiet", "--out", str(out)])
    assert res.exit_code == 0, res.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["games"] == 1
    pngs = sorted(p.name for p in (out / "plots").glob("*.png"))
    assert len(pngs) >= 4, pngs
    html = (out / "report.html").read_text()
    assert html.count("data:image/png;base64,") >= len(pngs)
