"""``sim sensitivity``: an OAT change is exactly the two-point sweep's paired change, the
default keys cover every design key of the section, a linked group moves its partner, Morris
statistics agree with SALib's analyze on the same points, bad input exits 2 and writes nothing;
``sim sweep``'s reference defaults to the config's own value and ``--zip`` moves keys in
lockstep."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.errors import ConfigError
from sim.sensitivity import morris_stats, plan_sensitivity
from sim.sweep import plan_sweep, resolve_reference

ROOT = Path(__file__).resolve().parents[1]
CFT = ROOT / "configs" / "clear_for_takeoff.toml"
NB = ROOT / "configs" / "now_boarding.toml"
YA = ROOT / "configs" / "yukon_airways.toml"
runner = CliRunner()


def test_oat_change_equals_the_two_point_sweep(tmp_path):
    """Every metric's change of hand_size +1 (9 -> 10) and its interval are the sweep's from the
    config's own value (9), which the sweep takes as its reference though it is not the first
    point."""
    se = tmp_path / "se"
    r = runner.invoke(app, ["sensitivity", str(CFT), "--keys", "clear_for_takeoff.hand_size", "--games", "120",
                            "--seed", "5", "--out", str(se), "--threads", "1", "--quiet"], env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    assert "3 points x 120 games = 360 games in all" in r.output and "estimate: about" in r.output
    data = json.loads((se / "sensitivity.json").read_text())
    up = {x["metric"]: x for x in data["records"] if x["step"] == "+1"}
    assert up and all(x["key"] == "clear_for_takeoff.hand_size" and x["value"] == "10" for x in up.values())
    assert up["win_rate[seat=0]"]["n"] == 120
    sw = tmp_path / "sw"
    r2 = runner.invoke(app, ["sweep", str(CFT), "--param", "clear_for_takeoff.hand_size=10,9", "--games", "120",
                             "--seed", "5", "--out", str(sw), "--threads", "1", "--quiet"], env={"COLUMNS": "200"})
    assert r2.exit_code == 0, r2.output
    sweep = json.loads((sw / "sweep.json").read_text())
    assert sweep["reference"]["index"] == 1  # the config's own hand size, not the first point
    changes = {c["label"]: c for c in sweep["changes"] if c["point"] == 0}
    assert set(changes) == set(up)
    for label, c in changes.items():
        for f_se, f_sw in (("change", "change"), ("ci_low", "ci_low"), ("ci_high", "ci_high"), ("p", "p_value")):
            assert up[label][f_se] == pytest.approx(c[f_sw], rel=1e-12, abs=1e-15), (label, f_se)
    # the point's summary is the sweep's, bit for bit
    p_se = json.loads((se / "points" / data["points"][2]["folder"].split("/")[-1] / "summary.json").read_text())
    p_sw = json.loads((sw / "points" / "p00" / "summary.json").read_text())
    assert p_se["metrics"] == p_sw["metrics"]
    # n is the games the point's record counts (runaway_rate: those with a sole midpoint leader)
    from sim.records import metric_label

    point_n = {metric_label(m["metric"], m["by"]): m["n"] for m in p_se["metrics"]}
    assert all(x["n"] == point_n[label] for label, x in up.items())
    assert up["runaway_rate"]["n"] < 120
    # the files, the verdict first in the page, the ranked terminal table
    assert {p.name for p in se.iterdir()} >= {"sensitivity.html", "sensitivity.md", "sensitivity.json",
                                               "sensitivity.parquet", "points", "plots"}
    # every number of the verdict stands in the table beside it (the same record, the same text)
    from sim.sensitivity import fmt_change, ranking

    md = (se / "sensitivity.md").read_text()
    verdict = md.split("## Tornado charts")[0]
    fpa = [x for x in data["records"] if x["metric"] == "first_player_advantage"]
    best = ranking(fpa, "first_player_advantage")[0][1]
    assert f"first_player_advantage {fmt_change(best)}" in verdict
    # at 120 games a point nothing is beyond noise: the verdict says so before it ranks
    noise = all(x["ci_low"] <= 0 <= x["ci_high"] for x in fpa)
    assert noise and "No knob moved seat balance" in verdict and "beyond sampling noise at 120 games a point" in verdict
    table = md.split("## Table")[1].split("### ")[1]
    assert table.startswith("first_player_advantage") and f"| {fmt_change(best)} |" in table
    html = (se / "sensitivity.html").read_text()
    assert "knobs that move seat balance" in html and html.index("knobs that move") < html.index("Tornado")
    assert "data:image/png;base64," in html
    import polars as pl

    df = pl.read_parquet(se / "sensitivity.parquet")
    assert df.height == len(data["records"])
    assert "keys ranked by their effect on seat balance" in r.output
    from sim.sensitivity import is_sensitivity_folder

    assert is_sensitivity_folder(se)  # a second run may replace it


def test_default_keys_cover_every_design_key():
    from sim.games.clear_for_takeoff.config import Deck

    plan = plan_sensitivity(CFT, games=10)
    keys = [k.key for k in plan.keys]
    want = ["hand_size", "exchange_max", "stands_ab", "stands_ac", "d_queue", "play_out_ranks", "direct_to_takeoff",
            "finished_hand", "dly_own_aircraft", "snow_extra", "join_held_sequence", "reshuffle",
            "failure_target"]
    want += [f"move_cards[{i}]" for i in range(3)] + [f"anti_ice_cards[{i}]" for i in range(3)]
    want += [f"deck.{f.alias or n}" for n, f in Deck.model_fields.items()]
    assert sorted(k for k in keys if k.startswith("clear_for_takeoff.")) == sorted(f"clear_for_takeoff.{w}" for w in want)
    assert [k for k in keys if not k.startswith("clear_for_takeoff.")] == [f"seats[{i}].policy" for i in range(4)]
    # one point per step (the config itself first): ints both ways, each other alternative of a choice
    n_int = 5 + 6 + 16
    n_choice = 8 + 4 * 2
    assert len(plan.points) == 1 + 2 * n_int - 2 + n_choice  # move_cards[0] and anti_ice_cards[0] are at 1
    assert sorted(p for p, _w in plan.skipped) == ["anti_ice_cards[0] -1 (= 0)", "move_cards[0] -1 (= 0)"]
    assert plan.points[0].sets == [] and plan.points[0].run.cfg.config_hash() == \
        plan_sweep(CFT, ["clear_for_takeoff.hand_size=9"], games=10).points[0].run.cfg.config_hash()
    seat = next(p for p, s in zip(plan.points, plan.steps) if s and s.key == "seats[3].policy" and s.value == "greedy")
    assert [s.policy for s in seat.run.cfg.seats] == ["greedy", "greedy", "heuristic", "greedy"]


def test_now_boarding_start_speed_moves_its_price_list():
    with pytest.raises(ConfigError) as e:  # alone, the start speed cannot move
        plan_sweep(NB, ["now_boarding.start_speed=2"], games=10)
    assert e.value.key == "now_boarding.speed_prices" and "sweep point p00" in e.value.reason
    assert "now_boarding.start_speed=2 takes now_boarding.speed_prices=[3, 5, 7, 9, 11, 13, 15]" in e.value.reason
    plan = plan_sensitivity(NB, ["now_boarding.start_speed"], games=10)
    got = {s.value: (p.run.cfg.section.start_speed, list(p.run.cfg.section.speed_prices))
           for p, s in zip(plan.points, plan.steps) if s is not None}
    assert got == {2: (2, [3, 5, 7, 9, 11, 13, 15]), 4: (4, [7, 9, 11, 13, 15])}
    assert not plan.skipped
    # the same two points as a lockstep sweep
    sw = plan_sweep(NB, ["now_boarding.start_speed=2,4", "now_boarding.speed_prices=[3,5,7,9,11,13,15],[7,9,11,13,15]"],
                    games=10, zip_keys=True)
    assert [p.run.cfg.config_hash() for p in sw.points] == [p.run.cfg.config_hash() for p in plan.points[1:]]
    with pytest.raises(ConfigError) as e:
        plan_sweep(NB, ["now_boarding.start_speed=2,4", "now_boarding.speed_prices=[3,5,7,9,11,13,15]"], games=10,
                   zip_keys=True)
    assert e.value.key == "now_boarding.speed_prices" and "lockstep" in e.value.reason


def test_sweep_reference_is_the_configs_own_value():
    plan = plan_sweep(CFT, ["clear_for_takeoff.hand_size=7,8,9"], games=10)
    assert resolve_reference(plan, None) == 2
    plan = plan_sweep(CFT, ["clear_for_takeoff.hand_size=7,8"], games=10)
    assert resolve_reference(plan, None) == 0  # not on the grid: the first point
    plan = plan_sweep(CFT, ["clear_for_takeoff.hand_size=8,9", "clear_for_takeoff.exchange_max=4,5"], games=10)
    assert plan.points[resolve_reference(plan, None)].values == {"clear_for_takeoff.hand_size": 9,
                                                                 "clear_for_takeoff.exchange_max": 4}


def test_morris_statistics_agree_with_salib():
    from SALib.analyze import morris as morris_analyze
    from SALib.sample import morris as morris_sample

    problem = {"num_vars": 3, "names": ["a", "b", "c"], "bounds": [[0, 3], [2, 8], [10, 13]]}
    X = morris_sample.sample(problem, N=6, num_levels=4, seed=7)
    assert np.allclose(X, np.round(X))  # integral levels: the case sim's default bounds give
    Y = X[:, 0] ** 2 - 3 * X[:, 1] + X[:, 0] * X[:, 2] + np.sin(X[:, 2])
    want = morris_analyze.analyze(problem, X, Y, num_levels=4, num_resamples=500, seed=11)
    got = morris_stats(X, Y, [tuple(b) for b in problem["bounds"]], num_resamples=500, seed=11)
    for k in ("mu", "mu_star", "sigma", "mu_star_conf"):
        assert np.allclose(got[k], want[k], rtol=1e-12), k
    assert got["n"] == [6.0, 6.0, 6.0]


def test_morris_run_writes_mu_star_and_sigma_as_salib(tmp_path):
    from SALib.analyze import morris as morris_analyze

    out = tmp_path / "m"
    r = runner.invoke(app, ["sensitivity", str(YA), "--method", "morris", "--keys",
                            "yukon_airways.bonus_money,yukon_airways.free_moves", "--trajectories", "3", "--games", "40",
                            "--seed", "3", "--out", str(out), "--threads", "1", "--quiet"], env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    data = json.loads((out / "sensitivity.json").read_text())
    assert data["trajectories"] == 3 and len(data["points"]) == 9
    X = np.array([[p["values"]["yukon_airways.bonus_money"], p["values"]["yukon_airways.free_moves"]]
                  for p in data["points"]], dtype=float)
    bounds = [k["bounds"] for k in data["keys"]]
    assert bounds == [[1, 4], [1, 4]]
    recs = [x for x in data["records"] if x["metric"] == "first_player_advantage"]
    assert len(recs) == 2
    y = []
    for p in data["points"]:
        s = json.loads((out / p["folder"] / "summary.json").read_text())
        y.append(next(m["value"] for m in s["metrics"] if m["metric"] == "first_player_advantage" and not m.get("by")))
    problem = {"num_vars": 2, "names": ["a", "b"], "bounds": bounds}
    want = morris_analyze.analyze(problem, X, np.array(y), num_levels=4, num_resamples=1000, seed=3)
    for j, rec in enumerate(recs):
        assert rec["mu_star"] == pytest.approx(want["mu_star"][j], abs=1e-12)
        assert rec["mu"] == pytest.approx(want["mu"][j], abs=1e-12)
        assert rec["sigma"] == pytest.approx(want["sigma"][j], abs=1e-12)
        assert rec["mu_star_conf"] == pytest.approx(want["mu_star_conf"][j], abs=1e-12)
        assert rec["change"] == rec["mu_star"] and rec["step"] == "morris"


def _with_table(tmp_path: Path, table: str) -> Path:
    p = tmp_path / "cft.toml"
    p.write_text(CFT.read_text() + "\n" + table)
    return p


@pytest.mark.parametrize("args, table, words", [
    (["--keys", "clear_for_takeoff.no_such_key"], "", "no such key 'clear_for_takeoff.no_such_key'"),
    (["--keys", "seed"], "", "'seed' is a run setting"),
    (["--keys", "games"], "", "'games' is a run setting"),
    (["--keys", "clear_for_takeoff.airlines"], "", "'clear_for_takeoff.airlines' is not a design parameter"),
    ([], "[sensitivity]\nkeys = [\"clear_for_takeoff.hand_size\"]\n[sensitivity.steps]\n"
         "\"clear_for_takeoff.hand_size\" = 25\n",
     "key 'sensitivity.steps.clear_for_takeoff.hand_size': a step of 25 from 9 gives -16, outside the key's range 1 .. 30"),
    ([], "[sensitivity]\nkeys = [\"clear_for_takeoff.hand_size\"]\n[[sensitivity.groups]]\n"
         "leader = \"clear_for_takeoff.hand_size\"\npartner = \"clear_for_takeoff.exchange_max\"\nfollow = \"list_front\"\n",
     "key 'sensitivity.groups[0]': the group does not fit: clear_for_takeoff.exchange_max is not a list of numbers"),
    ([], "[sensitivity]\nnope = 1\n", "sensitivity.nope"),
])
def test_bad_input_exits_2_and_writes_nothing(tmp_path, args, table, words):
    cfg = _with_table(tmp_path, table) if table else CFT
    out = tmp_path / "out"
    r = runner.invoke(app, ["sensitivity", str(cfg), *args, "--games", "10", "--out", str(out), "--quiet"],
                      env={"COLUMNS": "300"})
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), r.output
    assert words in lines[0], lines[0]
    assert not out.exists() and not any(p.name.startswith(".out") for p in tmp_path.iterdir())


def test_dry_run_prints_the_plan_and_writes_nothing(tmp_path):
    """--dry-run prints the plan and the estimate (a short timed run of the config) and writes nothing."""
    out = tmp_path / "d"
    r = runner.invoke(app, ["sensitivity", str(NB), "--keys", "now_boarding.start_speed", "--games", "50",
                            "--dry-run", "--out", str(out), "--quiet"], env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    assert "now_boarding.start_speed = 3: -1 (= 2), +1 (= 4); now_boarding.speed_prices follows" in r.output
    assert "3 points x 50 games = 150 games in all" in r.output and "games/s" in r.output
    assert not out.exists()


def test_an_infeasible_point_is_skipped_and_listed():
    plan = plan_sensitivity(CFT, ["clear_for_takeoff.stands_ac"], games=10,
                            sets=["clear_for_takeoff.stands_ab=0", "clear_for_takeoff.stands_ac=1"])
    assert [s.value for s in plan.steps if s is not None] == [2]
    ((point, why),) = plan.skipped
    assert point == "stands_ac -1 (= 0)"
    assert why.startswith("sensitivity point stands_ac -1 (= 0): ") and "at least one stand" in why


def test_validate_reads_the_sensitivity_table(tmp_path):
    good = _with_table(tmp_path, "[sensitivity]\nkeys = [\"clear_for_takeoff.hand_size\"]\n")
    r = runner.invoke(app, ["validate", str(good)])
    assert r.exit_code == 0 and "[sensitivity] 1 key, 3 points" in r.output, r.output
    bad = tmp_path / "bad.toml"
    bad.write_text(CFT.read_text() + "\n[sensitivity]\nkeys = [\"seed\"]\n")
    r = runner.invoke(app, ["validate", str(bad)])
    assert r.exit_code == 2 and "key 'sensitivity.keys': 'seed' is a run setting" in r.output, r.output


def test_tornado_tick_labels_stay_distinct():
    from sim.sensitivity import _tick_formatter

    for lo, hi, scale in ((0.0, 0.0004, 100.0), (-0.02, 0.03, 100.0), (-3.0, 70.0, 1.0), (0.0, 0.002, 1.0)):
        f = _tick_formatter(scale, lo, hi)
        ticks = np.linspace(lo, hi, 6)
        labels = [f(t, None) for t in ticks]
        assert len(set(labels)) == len(labels), labels


def test_oat_steps_of_each_kind():
    from sim.design import DesignKey
    from sim.sensitivity import oat_steps

    assert oat_steps(DesignKey("k", "int", 9, 1, 30, step=2)) == [("-2", 7), ("+2", 11)]
    assert oat_steps(DesignKey("k", "int", 1, 1, 5)) == [("-1", 0, "outside the key's range 1 .. 5"), ("+1", 2)]
    assert oat_steps(DesignKey("k", "float", 0.5, 0, 1, step=0.1)) == [("-10%", 0.45), ("+10%", 0.55)]
    assert oat_steps(DesignKey("k", "float", 0.0, 0, 1, step=0.1)) == [
        ("-0.1", -0.1, "outside the key's range 0 .. 1"), ("+0.1", 0.1)]
    assert oat_steps(DesignKey("k", "choice", "same", choices=["same", "any"])) == [("=any", "any")]
    assert oat_steps(DesignKey("k", "choice", False, choices=[False, True])) == [("=true", True)]


def test_a_strict_bound_steps_inside_for_integers_only():
    """Field(gt=0) bounds an integer key at 1, a float key at 0 itself (not at 1)."""
    from pydantic import BaseModel, Field

    from sim.design import _bounds

    class M(BaseModel):
        i: int = Field(3, gt=0, lt=10)
        f: float = Field(0.5, gt=0, lt=1)

    assert _bounds(M.model_fields["i"], True) == (1, 9)
    assert _bounds(M.model_fields["f"], False) == (0, 1)
