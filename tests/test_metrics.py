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
    assert get[("reshuffles_mean", ())]["value"] == 1.0

    # a game without a deck declares no card columns: the same frame without them gives the
    # same records but the two card metrics (sim.metrics.CARD_COLUMNS)
    bare = common_metrics(df.drop("reshuffles", "starved_draws"), "competitive", 2, ["a", "b"])
    names = {r["metric"] for r in bare}
    assert "reshuffles_mean" not in names and "starved_draw_rate" not in names
    assert [r for r in recs if r["metric"] not in ("reshuffles_mean", "starved_draw_rate")] == bare


# ---------------------------------------------------------------------------- the catalogue

import json  # noqa: E402
from pathlib import Path  # noqa: E402

from sim.games import available, get_game  # noqa: E402
from sim.metrics import RECORD_KINDS, catalogue, closest_names, spread  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def _assert_in_catalogue(records, cat, where):
    for r in records:
        m = cat.get(r["metric"])
        assert m is not None, f"{where}: {r['metric']} is not in the catalogue"
        assert tuple(sorted(r.get("by") or {})) in m.by, f"{where}: {r['metric']} by {r['by']} not in {m.by}"
        assert r["kind"] == m.kind, f"{where}: {r['metric']} kind {r['kind']} != catalogue {m.kind}"


@pytest.mark.parametrize("game", sorted(available()))
def test_every_metric_a_run_emits_is_in_its_game_catalogue(game):
    """Play a small run of the game's shipped config and check every record (name, by keys,
    kind) against the catalogue; the summary's catalogue section defines every name it uses."""
    from sim.api import games_frame, summarize
    from sim.compile import compile_run
    from sim.config import load
    from sim.runner import run_games

    cfg = load(ROOT / "configs" / f"{game}.toml").with_overrides(games=300)
    run = compile_run(cfg)
    summary = summarize(run, games_frame(run, run_games(run)))
    cat = catalogue(run.game)
    _assert_in_catalogue(summary["metrics"], cat, game)
    assert set(summary["catalogue"]) == {r["metric"] for r in summary["metrics"]}
    for name, entry in summary["catalogue"].items():
        assert entry["definition"] == cat[name].definition and entry["unit"] == cat[name].unit


def test_every_metric_of_every_committed_baseline_is_in_the_catalogue():
    """The baselines hold the metrics of every shipped config (VIPs, 2-6 seats, variants)."""
    files = sorted((ROOT / "reports" / "baselines").glob("*.json"))
    assert len(files) >= 19
    for f in files:
        d = json.loads(f.read_text())
        _assert_in_catalogue(d["metrics"], catalogue(get_game(d["game"])), f.name)


@pytest.mark.parametrize("game", sorted(available()))
def test_catalogue_entries_are_complete(game):
    gdef = get_game(game)
    cat = catalogue(gdef)
    for name, m in cat.items():
        assert m.name == name and m.definition and m.unit, name
        assert m.kind in RECORD_KINDS, (name, m.kind)
        assert m.by and all(tuple(sorted(b)) == b for b in m.by), (name, m.by)
    # the common metrics are defined once, in sim.metrics, with the game's length unit
    assert "stall_rate" in cat and "turns_p50" in cat
    if gdef.mode == "competitive":
        assert ("seat",) in cat["win_rate"].by and ("policy",) in cat["win_rate"].by
    else:
        assert cat["loss_rate"].kind == "proportion"


def test_codes_are_decoded():
    from sim.games.clear_for_takeoff.data import WEATHER_CARDS

    cat = catalogue(get_game("clear_for_takeoff"))
    codes = cat["weather_share"].codes
    assert set(codes) == set(WEATHER_CARDS)
    assert "fog" in codes["FG"] and "crosswind" in codes["XW"] and "de-icing" in codes["ICE"]
    nb = catalogue(get_game("now_boarding"))
    assert nb["turns_p50"].unit == "rounds" and "rounds" in nb["turns_mean"].definition
    assert set(nb["complaints_by_cause_mean"].codes) == {"anger", "leftover", "vip"}
    assert catalogue(get_game("clear_for_takeoff"))["turns_p50"].unit == "player turns"
    yk = catalogue(get_game("yukon_airways"))
    assert {("seat",), ("policy",), ("start_pos",), ("start_money",)} <= set(yk["win_rate"].by)


def test_closest_names():
    names = catalogue(get_game("clear_for_takeoff"))
    assert closest_names("stall_rat", names)[0] == "stall_rate"
    assert "weather_share" in closest_names("wether_share", names)


def test_spread_of_two_seats_uses_the_multinomial_variance():
    a = proportion("win_rate", {"seat": 0}, 300, 1000)
    b = proportion("win_rate", {"seat": 1}, 200, 1000)
    d = spread(a, b)
    se = np.sqrt((0.3 + 0.2 - 0.1 ** 2) / 1000)
    assert d["value"] == pytest.approx(0.1)
    assert d["ci_low"] == pytest.approx(0.1 - 1.959964 * se, rel=1e-5)
    assert d["ci_high"] == pytest.approx(0.1 + 1.959964 * se, rel=1e-5)
    # two policies over different samples: the variances add
    p = proportion("win_rate", {"policy": "a"}, 300, 1000)
    q = proportion("win_rate", {"policy": "b"}, 400, 2000)
    e = spread(p, q)
    se2 = np.sqrt(0.3 * 0.7 / 1000 + 0.2 * 0.8 / 2000)
    assert e["ci_high"] - e["value"] == pytest.approx(1.959964 * se2, rel=1e-5)
