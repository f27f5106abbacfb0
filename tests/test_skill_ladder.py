"""``sim skill --ladder`` (issue 38 item 3, :mod:`sim.skill_ladder`): a ladder of skill levels,
each level's whole table on the same deals, ``skill_ladder`` records per (level, seat) with
Wilson intervals, the step between adjacent levels, one chart, skill.html/md/json."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from sim import skill_ladder as LD
from sim.cli import app
from sim.compile import run_from_dict
from sim.config import load_dict
from sim.errors import ConfigError
from sim.games import get_game
from sim.runner import run_games

LADDER = ["random", {"policy": "greedy", "weights": {"mistake": 0.5}}, "greedy", "heuristic"]


def _cfg(games: int = 240, **extra):
    raw = {"game": "dice_race", "games": games, "seed": 11, "seats": ["greedy", "greedy", "greedy", "greedy"],
           "dice_race": {}, "skill": {"ladder": LADDER}, **extra}
    return load_dict(raw, "ladder.toml")


def test_the_default_ladder_climbs_the_policies_and_doubles_the_look_ahead():
    lad = LD.default_ladder(get_game("clear_for_takeoff"))
    assert [t["policy"] for t in lad] == ["random", "greedy", "greedy", "heuristic", "rollout", "rollout"]
    assert lad[1]["weights"] == {"mistake": 0.5}
    assert lad[5]["weights"]["rollouts"] == 2 * lad[4]["weights"]["rollouts"]


def test_each_level_is_the_run_of_its_config_and_levels_share_their_deals():
    """A level's games are ``sim run`` of the config with every seat at the level (bit for
    bit); every level plays the same seed (common random numbers)."""
    lad = LD.plan(_cfg(), games=240)
    assert lad.levels == ["random", "greedy (mistake 0.5)", "greedy", "heuristic"]
    kinds = [(r.kind, r.level, r.below) for r in lad.runs]
    assert kinds[:4] == [("level", lv, None) for lv in lad.levels]
    assert kinds[4:] == [("step", lad.levels[i], lad.levels[i - 1]) for i in range(1, 4)]
    assert all(r.run.cfg.games == 240 for r in lad.runs)  # 240 = 10 x 4!: the steps need no rounding
    LD.play(lad, threads=1)
    raw = {"game": "dice_race", "games": 240, "seed": 11, "seats": ["heuristic"] * 4, "dice_race": {}}
    assert np.array_equal(lad.runs[3].matrix, run_games(run_from_dict(raw, "<heuristic>")))


def test_records_have_wilson_intervals_per_level_and_seat_and_the_steps_pay():
    lad = LD.play(LD.plan(_cfg(games=2400), games=2400), threads=2)
    data = LD.summary(lad)
    recs = data["metrics"]
    lv = [r for r in recs if r["metric"] == "skill_ladder"]
    assert len(lv) == 4 * 4
    for level in lad.levels:  # the seats of one level split its games (no stalls in Dice Race)
        assert sum(r["successes"] for r in lv if r["by"]["level"] == level) == 2400
    assert all(r["ci_low"] <= r["value"] <= r["ci_high"] for r in lv)
    steps = {r["by"]["level"]: r for r in recs if r["metric"] == "skill_step"}
    # seeded figures: a greedy seat against three half-random greedy seats, a heuristic one against greedy
    assert steps["greedy (mistake 0.5)"]["pays"] and steps["greedy"]["pays"]
    assert steps["greedy (mistake 0.5)"]["value"] > 0.30
    assert {r["by"]["level"] for r in recs if r["metric"] == "skill_ladder_length"} == set(lad.levels)
    assert len([r for r in recs if r["metric"] == "skill_ladder_shift"]) == 3 * 4
    assert data["verdict"].count("steps of skill pay") == 1


def test_a_bad_level_names_its_key():
    with pytest.raises(ConfigError) as e:
        LD.plan(_cfg(skill={"ladder": ["random", "gredy"]}))
    assert e.value.key == "skill.ladder[1].policy"
    with pytest.raises(ConfigError) as e:
        LD.plan(_cfg(skill={"ladder": ["random", "random"]}))
    assert "listed twice" in str(e.value)


def test_cli_writes_the_ladder_report(tmp_path: Path):
    cfg = tmp_path / "dr.toml"
    cfg.write_text('game = "dice_race"\nseed = 3\nseats = ["greedy", "greedy"]\n[skill]\n'
                   'ladder = ["random", "greedy", "heuristic"]\n')
    out = tmp_path / "lad"
    res = CliRunner().invoke(app, ["skill", str(cfg), "--ladder", "--games", "120", "--out", str(out), "--quiet"])
    assert res.exit_code == 0, res.output
    for f in ("skill.html", "skill.md", "skill.json", LD.PLOT):
        assert (out / f).is_file(), f
    data = json.loads((out / "skill.json").read_text())
    assert data["format"] == LD.FORMAT and data["levels"] == ["random", "greedy", "heuristic"]
    assert data["length_unit"] == "player turns"  # in the summary itself, not added by the CLI
    assert (out / "skill.html").read_text().count("data:image/png;base64,") == 1  # the chart embedded: one file
    assert {(r["by"]["level"], r["by"]["seat"]) for r in data["metrics"] if r["metric"] == "skill_ladder"} == {
        (lv, s) for lv in data["levels"] for s in range(2)}
    bad = CliRunner().invoke(app, ["skill", str(cfg), "--ladder", "--policies", "greedy", "--out", str(out)])
    assert bad.exit_code == 2 and "--policies" in bad.output


def test_the_first_player_is_the_games_own_yukon_draws_its_start_player():
    """Yukon Airways draws its start player, so seat 0 (the bonus-fuel plane, ahead at greedy)
    is not the first player: each level's ``skill_ladder_first_player`` is the run's own
    ``first_player_advantage`` of the same games (the start player's), and the page says so."""
    from sim.api import run_config

    raw = {"game": "yukon_airways", "games": 400, "seed": 11, "seats": ["greedy"] * 4, "yukon_airways": {}}
    lad = LD.play(LD.plan(load_dict({**raw, "skill": {"ladder": ["random", "greedy"]}}, "y.toml"), games=400),
                  threads=1)
    data = LD.summary(lad)
    fp = {r["by"]["level"]: r for r in data["metrics"] if r["metric"] == "skill_ladder_first_player"}
    seat0 = {r["by"]["level"]: r for r in data["metrics"] if r["metric"] == "skill_ladder" and r["by"]["seat"] == 0}
    for level in ("random", "greedy"):
        run = run_from_dict({**raw, "seats": [level] * 4}, "<level>")
        want = next(r for r in run_config(run, threads=1, write_rows=False).summary["metrics"]
                    if r["metric"] == "first_player_advantage")
        assert fp[level]["value"] == pytest.approx(want["value"], abs=1e-12), level
        assert (fp[level]["ci_low"], fp[level]["ci_high"]) == pytest.approx((want["ci_low"], want["ci_high"]), abs=1e-12)
    # seat 0's lead at greedy is its plane's, not the first player's
    assert seat0["greedy"]["value"] - 0.25 > fp["greedy"]["value"] + 0.05
    assert "start player" in data["first_player_doc"] and "seat 0 is not the first player" in data["seat_note"]
    md = LD.render_markdown(data, None)
    assert "seat 0 plays first" not in md.lower() and f"First player: {data['first_player_doc'].rstrip('.')}." in md
    assert "The first player's advantage runs from" in data["verdict"]
