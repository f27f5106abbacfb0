"""``--set KEY=VALUE``: a dotted key and a TOML value written into the config before
validation; the report's config.toml shows it; a bad key or value is one message naming the
key and the flag, exit 2, nothing written."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.errors import ConfigError
from sim.overrides import apply_sets, load, parse_set, parse_value, split_values

ROOT = Path(__file__).resolve().parents[1]
CFT = ROOT / "configs" / "clear_for_takeoff.toml"
NB = ROOT / "configs" / "now_boarding.toml"
runner = CliRunner()


@pytest.mark.parametrize("text, value", [
    ("7", 7), ("0.5", 0.5), ("true", True), ('"x"', "x"), ("[1,2,3]", [1, 2, 3]), ("greedy", "greedy"),
    ("{ a = 1 }", {"a": 1}), (" 8 ", 8), ("1.2.3", "1.2.3"),
])
def test_values_are_toml_values_and_a_bare_word_is_a_string(text, value):
    assert parse_value(text) == value and type(parse_value(text)) is type(value)


def test_split_values_keeps_arrays_and_strings_whole():
    assert split_values("7,8,[1,2],'a,b',{x = [1,2]}") == ["7", "8", "[1,2]", "'a,b'", "{x = [1,2]}"]


def test_apply_sets_paths():
    raw = {"seats": ["greedy", {"policy": "heuristic"}], "g": {"a": 1}}
    out = apply_sets(raw, [parse_set("seats[0].weights.attack=0.5"), parse_set("g.deck.FLR=2"),
                           parse_set("seats[1].policy=random"), parse_set("seed=4")], "f.toml")
    assert out == {"seats": [{"policy": "greedy", "weights": {"attack": 0.5}}, {"policy": "random"}],
                   "g": {"a": 1, "deck": {"FLR": 2}}, "seed": 4}
    assert raw == {"seats": ["greedy", {"policy": "heuristic"}], "g": {"a": 1}}  # a copy
    with pytest.raises(ConfigError) as e:
        apply_sets(raw, [parse_set("seats[2].policy=x")], "f.toml")
    assert e.value.key == "seats[2]" and "(from --set seats[2].policy=x)" in e.value.reason
    with pytest.raises(ConfigError) as e:
        apply_sets(raw, [parse_set("g.a.b=1")], "f.toml")
    assert e.value.key == "g.a" and "is an integer, not a table" in e.value.reason


def test_load_with_sets_validates_the_overridden_values():
    cfg = load(CFT, ["clear_for_takeoff.hand_size=8", "clear_for_takeoff.deck.FLR=2", "seats[2].weights.attack=0.5",
                     "games=77", "seats[3].policy=greedy"])
    assert cfg.section.hand_size == 8 and cfg.section.deck.FLR == 2 and cfg.games == 77
    assert cfg.seats[2].weights == {"attack": 0.5} and cfg.seats[3].policy == "greedy"
    assert cfg.config_hash() != load(CFT).config_hash()
    nb = load(NB, ["now_boarding.start_speed=2"])
    assert nb.section.start_speed == 2


def test_run_report_config_shows_the_override(tmp_path):
    out = tmp_path / "rep"
    r = runner.invoke(app, ["run", str(CFT), "--games", "30", "--out", str(out), "--threads", "1", "--quiet",
                            "--set", "clear_for_takeoff.deck.FLR=2", "--set", "seats[3].policy=greedy",
                            "--set", "seed=9"])
    assert r.exit_code == 0, r.output
    as_run = tomllib.loads((out / "config.toml").read_text())
    assert as_run["clear_for_takeoff"]["deck"]["FLR"] == 2 and as_run["seed"] == 9
    assert as_run["seats"][3]["policy"] == "greedy"
    assert load(out / "config.toml").config_hash() == json.loads((out / "summary.json").read_text())["config_hash"]
    assert json.loads((out / "summary.json").read_text())["seed"] == 9


BAD = [
    ("clear_for_takeoff.hand_siz=8", "clear_for_takeoff.hand_siz", "unknown key"),
    ("clear_for_takeoff.hand_size=abc", "clear_for_takeoff.hand_size", "valid integer"),
    ("clear_for_takeoff.deck.FLR=-1", "clear_for_takeoff.deck.FLR", "greater than or equal"),
    ("seats[7].policy=greedy", "seats[7]", "no such item"),
    ("seats[1].policy=genius", "seats[1].policy", "unknown policy"),
    ("games=0", "games", "greater than 0"),
    ("seed.x=1", "seed", "not a table"),
    ("seats[0].weights.bravery=1.0", "seats[0].weights.bravery", "has no weight"),
]


@pytest.mark.parametrize("arg, key, words", BAD)
def test_a_bad_set_exits_2_naming_the_key_and_the_flag(tmp_path, arg, key, words):
    out = tmp_path / "rep"
    r = runner.invoke(app, ["run", str(CFT), "--games", "10", "--out", str(out), "--set", arg])
    assert r.exit_code == 2, r.output
    assert r.output.count("error:") == 1 and f"key '{key}'" in r.output and words in r.output, r.output
    assert f"(from --set {arg})" in r.output, r.output
    assert not out.exists()


@pytest.mark.parametrize("arg, words", [("nokey", "not KEY=VALUE"), ("x=[1,2", "not a TOML value"),
                                        ("a..b=1", "not a dotted config key"), ("=3", "empty key")])
def test_a_malformed_set_exits_2(arg, words):
    r = runner.invoke(app, ["validate", str(CFT), "--set", arg])
    assert r.exit_code == 2 and words in r.output and r.output.startswith("error: --set"), r.output


def test_validate_baseline_check_replay_take_set(tmp_path):
    r = runner.invoke(app, ["validate", str(CFT), "--set", "clear_for_takeoff.hand_size=8"])
    assert r.exit_code == 0 and "ok:" in r.output
    r = runner.invoke(app, ["validate", str(CFT), "--set", "clear_for_takeoff.hand_size=99"])
    assert r.exit_code == 2 and "(from --set clear_for_takeoff.hand_size=99)" in r.output
    base = tmp_path / "b.json"
    r = runner.invoke(app, ["baseline", str(CFT), "--games", "40", "--out", str(base), "--threads", "1",
                            "--set", "clear_for_takeoff.hand_size=8"])
    assert r.exit_code == 0, r.output
    data = json.loads(base.read_text())
    assert data["config_hash"] == load(CFT, ["clear_for_takeoff.hand_size=8", "games=40"]).config_hash()
    r = runner.invoke(app, ["check", str(CFT), "--games", "40", "--baseline", str(base), "--threads", "1",
                            "--set", "clear_for_takeoff.hand_size=8"])
    assert r.exit_code in (0, 1), r.output
    r = runner.invoke(app, ["check", str(CFT), "--baseline", str(base), "--set", "clear_for_takeoff.hand_size=x"])
    assert r.exit_code == 2 and "(from --set clear_for_takeoff.hand_size=x)" in r.output
    r = runner.invoke(app, ["replay", str(CFT), "--game", "1", "--set", "seats[3].policy=greedy"])
    assert r.exit_code == 0, r.output
    seats = r.output.split("\n")[1]
    assert seats.startswith("   seats:") and seats.count("greedy") == 3 and "random" not in seats, seats


def test_compare_set_b_changes_side_b_only(tmp_path):
    out = tmp_path / "cmp"
    r = runner.invoke(app, ["compare", str(CFT), str(CFT), "--games", "40", "--out", str(out), "--threads", "1",
                            "--set-b", "clear_for_takeoff.hand_size=7"])
    assert r.exit_code == 0, r.output
    data = json.loads((out / "compare.json").read_text())
    text = json.dumps(data)
    assert "turns_mean" in text
    r = runner.invoke(app, ["compare", str(CFT), str(CFT), "--games", "40", "--out", str(out),
                            "--set-b", "clear_for_takeoff.hand_size=x"])
    assert r.exit_code == 2 and "(from --set-b clear_for_takeoff.hand_size=x)" in r.output
