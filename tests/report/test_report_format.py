"""sim.report.format and the TOML writer."""

from __future__ import annotations

import datetime as dt
import math
import tomllib

from sim.report.format import (
    MISSING,
    find,
    fmt_by,
    fmt_change,
    fmt_count,
    fmt_detectable,
    fmt_interval,
    fmt_number,
    fmt_p,
    fmt_pct,
    fmt_tolerance,
    fmt_value,
    is_percent,
    md_escape,
    md_table,
)
from sim.report.tomlw import config_text, dumps


def rec(value, lo=None, hi=None, kind="proportion", metric="win_rate", **extra):
    return {"metric": metric, "by": {}, "value": value, "ci_low": lo, "ci_high": hi, "n": 100, "kind": kind, **extra}


def test_proportion_interval():
    assert fmt_interval(rec(0.251, 0.249, 0.253)) == "25.1% [24.9, 25.3]"
    assert fmt_value(rec(0.251, 0.249, 0.253)) == "25.1%"
    assert fmt_interval(rec(0.5, 0.4, 0.6, kind="share")) == "50.0% [40.0, 60.0]"


def test_narrow_interval_gets_more_decimals():
    # 10 million games: +-0.027 pp would print [25.0, 25.0] with one decimal
    assert fmt_interval(rec(0.25012, 0.24985, 0.25039)) == "25.01% [24.98, 25.04]"
    assert fmt_interval(rec(0.25012, 0.250114, 0.250128)) == "25.012% [25.011, 25.013]"  # capped at 3


def test_difference_in_signed_points():
    r = rec(0.094, 0.079, 0.109, kind="difference", metric="first_player_advantage")
    assert fmt_interval(r) == "+9.4 pp [+7.9, +10.9]"
    r = rec(-0.012, -0.03, 0.006, kind="difference", metric="win_rate_diff")
    assert fmt_interval(r) == "-1.2 pp [-3.0, +0.6]"
    # a difference of means stays in its own unit
    r = rec(2.5, 1.25, 3.75, kind="difference", metric="turns_diff")
    assert fmt_interval(r) == "+2.5 [+1.2, +3.8]"
    assert is_percent(rec(1.0, kind="difference", metric="turns_diff", unit="pp"))
    assert not is_percent(rec(1.0, kind="proportion", unit="turns"))


def test_mean_quantile_count():
    assert fmt_interval(rec(63.1234, 62.43, 63.81, kind="mean")) == "63.1 [62.4, 63.8]"
    assert fmt_interval(rec(1.2913, 1.2561, 1.3264, kind="mean")) == "1.291 [1.256, 1.326]"
    assert fmt_interval(rec(63.1234, kind="mean")) == "63.12"
    assert fmt_interval(rec(60.0, kind="quantile")) == "60"
    assert fmt_interval(rec(60.5, kind="quantile")) == "60.50"
    assert fmt_interval(rec(12345.0, kind="count")) == "12,345"


def test_missing_values():
    assert fmt_interval(rec(None)) == "–"
    assert fmt_interval(rec(math.nan)) == "–"
    assert fmt_interval(rec(0.3, math.nan, math.nan)) == "30.0%"
    assert fmt_pct(None) == "–"
    assert fmt_pct(0.12345, 2) == "12.35%"
    assert fmt_count(1000000) == "1,000,000"


def test_by_and_tables():
    assert fmt_by({}) == "all games"
    assert fmt_by({"seat": 1, "rank": 2}) == "seat 1, rank 2"
    assert fmt_by({"seat": 1}, ["a", "b"]) == "seat 1 (b)"
    assert md_escape("a|b<c>") == "a\\|b&lt;c&gt;"
    assert md_table(["A", "B"], [[1, 2]]) == "| A | B |\n| :--- | ---: |\n| 1 | 2 |"
    recs = [rec(0.1), {**rec(0.2), "by": {"seat": 0}}]
    assert find(recs, "win_rate", seat=0)["value"] == 0.2
    assert find(recs, "win_rate")["value"] == 0.1
    assert find(recs, "win_rate", seat=1) is None


def test_toml_dumps_round_trip():
    data = {
        "game": "clear_for_takeoff",
        "games": 1000,
        "ratio": 0.1,
        "flag": True,
        "name with space": "tab\tquote\"back\\slash\nnewline é",
        "list": [1, 2, 3],
        "mixed": ["a", "b"],
        "when": dt.date(2026, 11, 29),
        "seats": [{"policy": "greedy", "weights": {"a": 1.5}}, {"policy": "random"}],
        "clear_for_takeoff": {"deck": {"cards": [1, 2]}, "x": 1, "inline": [{"k": 1}]},
        "checks": {},
    }
    text = dumps(data)
    assert tomllib.loads(text) == data


def test_config_text_modes(tmp_path):
    src = tmp_path / "c.toml"
    src.write_text('# hello\ngame = "g"\ngames = 10\n\n[g]\nx = 1\n', encoding="utf-8")
    raw = tomllib.loads(src.read_text())
    assert config_text(raw, src) == (src.read_text(), "copied")
    text, how = config_text(dict(raw, games=20, seed=3), src)
    assert how == "patched"
    assert tomllib.loads(text) == dict(raw, games=20, seed=3)
    assert "games = 20  # overridden; the file says: games = 10" in text
    assert "seed = 3  # set from the command line" in text
    # a change inside a table is not a CLI override: serialised from raw
    text, how = config_text(dict(raw, g={"x": 2}), src)
    assert how == "serialised" and tomllib.loads(text) == dict(raw, g={"x": 2})
    text, how = config_text(raw, tmp_path / "missing.toml")
    assert how == "serialised" and tomllib.loads(text) == raw


def test_p_values():
    assert fmt_interval(rec(0.0312, kind="p_value", metric="seat_equality_p")) == "p = 0.031"
    assert fmt_interval(rec(0.00042, kind="p_value", metric="seat_equality_p")) == "p = 0.00042"
    assert fmt_interval(rec(0.0, kind="p_value", metric="seat_equality_p")) == "p < 1e-12"


def test_fmt_p_one_rule_with_and_without_label():
    assert [fmt_p(p) for p in (0.0312, 0.001, 0.00042, 1e-13, None, math.nan)] == [
        "p = 0.031", "p = 0.001", "p = 0.00042", "p < 1e-12", MISSING, MISSING]
    assert [fmt_p(p, label=False) for p in (0.0312, 1.0, 0.00042, 0.0)] == ["0.031", "1.000", "0.00042", "< 1e-12"]


def test_fixed_precision_for_side_by_side_tables():
    win = {"metric": "win_rate", "kind": "proportion"}
    fpa = {"metric": "first_player_advantage", "kind": "difference"}
    mean = {"metric": "turns_mean", "kind": "mean"}
    assert fmt_number(0.25134, win) == "25.13%"
    assert fmt_number(0.0123, fpa) == "+1.23 pp"
    assert fmt_number(61.3449, mean) == "61.34" and fmt_number(0.00123456, mean) == "0.001235"
    assert fmt_number(12345.0, {"metric": "longest", "kind": "count"}) == "12,345"
    assert fmt_number(0.0004, {"metric": "seat_equality_p", "kind": "p_value"}) == "0.0004"
    assert fmt_number(None, win) == MISSING and fmt_number(math.nan, mean) == MISSING
    assert fmt_change(0.0123, win) == "+1.23 pp" and fmt_change(-0.0123, fpa) == "-1.23 pp"
    assert fmt_change(0.61, mean, 61.0) == "+0.61 (+1.0%)" and fmt_change(0.61, mean) == "+0.61"
    assert fmt_change(0.02, {"metric": "p", "kind": "p_value"}) == "+0.02"
    assert fmt_tolerance(0.01, win) == "1.00 pp" and fmt_tolerance(1.22, mean, 61.0) == "2% = 1.22"
    assert fmt_detectable(0.0042, win) == "0.42 pp" and fmt_detectable(0.5123, mean, short=True) == "0.512 !"
    # rate-ness is is_percent everywhere: a unit overrides the kind, a difference of rates is in points
    assert fmt_number(0.5, {"metric": "x", "kind": "proportion", "unit": "turns"}) == "0.5"
    assert fmt_change(0.01, {"metric": "win_rate_gap", "kind": "difference"}) == "+1.00 pp"
