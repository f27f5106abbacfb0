"""Common metric records: values and intervals on small frames whose answers are known."""

import numpy as np
import polars as pl
import pytest

from sim.metrics import common_metrics, mean, proportion, ratio


def test_proportion_wilson_and_rates_of_zero():
    r = proportion("x", {}, 25, 100)
    assert r["value"] == 0.25 and r["n"] == 100
    assert r["ci_low"] == pytest.approx(0.1754, abs=1e-4) and r["ci_high"] == pytest.approx(0.3430, abs=1e-4)
    z = proportion("x", {}, 0, 1_000_000)
    assert z["ci_low"] <= z["value"] == 0.0 <= z["ci_high"]


def test_mean_interval_of_counts_stays_non_negative():
    r = mean("m", {}, np.array([0] * 999 + [1]))
    assert r["value"] == 0.001 and r["ci_low"] == 0.0 and r["ci_high"] > 0.001


def test_ratio_counts_games_not_turns():
    # two kinds of game: 10 turns all foggy, 10 turns all clear -> share 0.5, but only 2 units
    num = np.array([10, 0] * 50)
    den = np.array([10, 10] * 50)
    r = ratio("fog", {}, num, den)
    assert r["value"] == 0.5 and r["n"] == 100
    # per-game shares are 1 or 0: the interval is that of a 50 % rate over 100 games (±~0.098),
    # far wider than the ±0.0098 a turn-level binomial of 1,000 turns would claim
    assert r["ci_high"] - r["ci_low"] == pytest.approx(2 * 1.96 * 0.5 / np.sqrt(100) * np.sqrt(100 / 99), rel=1e-3)


def test_competitive_metrics_on_a_known_frame():
    df = pl.DataFrame({
        "game_index": np.arange(4), "policy_s0": ["a", "b", "a", "b"], "policy_s1": ["b", "a", "b", "a"],
        "turns": [10, 20, 30, 40], "stalled": [0, 0, 0, 1], "reshuffles": [1, 1, 2, 0], "starved_draws": [0, 0, 1, 0],
        "winner": [0, 0, 1, -1], "rank_s0": [1, 1, 2, 0], "rank_s1": [2, 2, 1, 0],
    })
    recs = common_metrics(df, "competitive", 2, ["a", "b"])
    get = {(r["metric"], tuple(sorted(r["by"].items()))): r for r in recs}
    assert get[("win_rate", (("seat", 0),))]["value"] == 0.5
    assert get[("win_rate", (("seat", 1),))]["value"] == 0.25
    # policy a: seat 0 in games 0, 2 (won game 0), seat 1 in games 1, 3 (won none) -> 1 of 4
    assert get[("win_rate", (("policy", "a"),))]["value"] == 0.25
    assert get[("win_rate", (("policy", "b"),))]["value"] == 0.5
    assert get[("first_player_advantage", ())]["value"] == 0.0
    assert get[("stall_rate", ())]["value"] == 0.25
    assert get[("turns_mean", ())]["value"] == 25.0
    assert get[("starved_draw_rate", ())]["value"] == 0.25
    assert get[("rank_share", (("rank", 0), ("seat", 0)))]["value"] == 0.25
