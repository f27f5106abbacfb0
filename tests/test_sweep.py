"""``sim sweep``: a point is exactly ``sim run --set`` (bit for bit), every point shares the
seed and the deals, a bad grid exits 2 before anything is written, and the report has its
files, its table and its embedded plots."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.errors import ConfigError
from sim.sweep import is_sweep_folder, plan_sweep

ROOT = Path(__file__).resolve().parents[1]
CFT = ROOT / "configs" / "clear_for_takeoff.toml"
runner = CliRunner()


def test_a_point_equals_sim_run_with_set(tmp_path):
    sw = tmp_path / "sw"
    r = runner.invoke(app, ["sweep", str(CFT), "--param", "clear_for_takeoff.hand_size=7,8", "--games", "60",
                            "--seed", "5", "--out", str(sw), "--threads", "1", "--quiet"], env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    r_sweep = r
    rep = tmp_path / "run"
    r = runner.invoke(app, ["run", str(CFT), "--set", "clear_for_takeoff.hand_size=8", "--games", "60", "--seed", "5",
                            "--out", str(rep), "--threads", "1", "--quiet"])
    assert r.exit_code == 0, r.output
    point = json.loads((sw / "points" / "p01" / "summary.json").read_text())
    run = json.loads((rep / "summary.json").read_text())
    assert point["metrics"] == run["metrics"]  # every value and interval, bit for bit
    assert point["config_hash"] == run["config_hash"]
    assert tomllib.loads((sw / "points" / "p01" / "config.toml").read_text()) == \
        tomllib.loads((rep / "config.toml").read_text())
    # the other point really played another hand size
    p0 = json.loads((sw / "points" / "p00" / "summary.json").read_text())
    assert p0["metrics"] != point["metrics"]
    # the terminal table: a row per point (the reference marked), each seat's win rate with its interval
    from sim.report.format import find, fmt_interval

    lines = r_sweep.output.splitlines()
    row0 = next(ln for ln in lines if "p00 hand_size=7 (reference)" in ln)
    row1 = next(ln for ln in lines if "p01 hand_size=8" in ln)
    for s in (0, 1):
        assert fmt_interval(find(p0["metrics"], "win_rate", seat=s)) in row0
        assert fmt_interval(find(point["metrics"], "win_rate", seat=s)) in row1
    assert "2 points x 60 games on seed 5" in r_sweep.output and "win_rate[seat=0]" in r_sweep.output
    assert tomllib.loads((sw / "points" / "p00" / "config.toml").read_text())["clear_for_takeoff"]["hand_size"] == 7
    # sweep.parquet holds the same numbers, the parameter as a column
    df = pl.read_parquet(sw / "sweep.parquet")
    assert df["clear_for_takeoff.hand_size"].dtype == pl.Int64
    assert df.height == len(p0["metrics"]) + len(point["metrics"])
    p1 = df.filter(pl.col("point") == 1)
    assert set(p1["clear_for_takeoff.hand_size"].to_list()) == {8}
    want = [r["value"] for r in run["metrics"]]
    assert p1["value"].to_list() == pytest.approx(want, nan_ok=True, abs=0, rel=0)


def test_every_point_shares_the_seed_and_the_deals():
    plan = plan_sweep(CFT, ["seats[3].policy=random,greedy", "clear_for_takeoff.exchange_max=3,4"], games=10, seed=11)
    assert len(plan.points) == 4
    assert {p.run.cfg.seed for p in plan.points} == {11}
    assert [p.values for p in plan.points] == [
        {"seats[3].policy": "random", "clear_for_takeoff.exchange_max": 3},
        {"seats[3].policy": "random", "clear_for_takeoff.exchange_max": 4},
        {"seats[3].policy": "greedy", "clear_for_takeoff.exchange_max": 3},
        {"seats[3].policy": "greedy", "clear_for_takeoff.exchange_max": 4},
    ]
    assert [p.run.cfg.seats[3].policy for p in plan.points] == ["random", "random", "greedy", "greedy"]
    for g in (0, 1, 7):
        dealt = [p.run.game.GameState.from_run(p.run, g).dealt() for p in plan.points]
        assert all(d == dealt[0] for d in dealt[1:]), g


@pytest.mark.parametrize("param, key, words", [
    ("clear_for_takeoff.hand_siz=7,8", "clear_for_takeoff.hand_siz", "unknown key"),
    ("clear_for_takeoff.hand_size=9,abc", "clear_for_takeoff.hand_size", "valid integer"),
    ("clear_for_takeoff.hand_size=9,60", "clear_for_takeoff.hand_size", "less than or equal"),
    ("seats[9].policy=greedy", "seats[9]", "no such item"),
    ("clear_for_takeoff.hand_size", "", "not KEY=V1,V2"),
    ("clear_for_takeoff.hand_size=8,,9", "clear_for_takeoff.hand_size", "empty value"),
    ("clear_for_takeoff.hand_size=8,8", "clear_for_takeoff.hand_size", "listed twice"),
    ("clear_for_takeoff.hand_size=[1,2", "clear_for_takeoff.hand_size", "not a TOML value"),
])
def test_a_bad_param_exits_2_and_writes_nothing(tmp_path, param, key, words):
    out = tmp_path / "sw"
    r = runner.invoke(app, ["sweep", str(CFT), "--param", param, "--games", "20", "--out", str(out), "--quiet"])
    assert r.exit_code == 2, r.output
    assert r.output.count("error:") == 1 and words in r.output, r.output
    if key:
        assert f"key '{key}'" in r.output, r.output
    assert not out.exists()


def test_no_grid_and_a_repeated_key_exit_2(tmp_path):
    out = tmp_path / "sw"
    r = runner.invoke(app, ["sweep", str(CFT), "--games", "20", "--out", str(out)])
    assert r.exit_code == 2 and "no grid" in r.output and "--param" in r.output
    r = runner.invoke(app, ["sweep", str(CFT), "--param", "seed=1,2", "--param", "seed=3", "--out", str(out)])
    assert r.exit_code == 2 and "given twice" in r.output
    assert not out.exists()


def test_the_report_files_and_the_embedded_plots(tmp_path):
    out = tmp_path / "sw"
    r = runner.invoke(app, ["sweep", str(CFT), "--param", "clear_for_takeoff.hand_size=7,8,9", "--games", "40",
                            "--out", str(out), "--threads", "1", "--quiet"])
    assert r.exit_code == 0, r.output
    for f in ("sweep.html", "sweep.md", "sweep.parquet", "sweep.json"):
        assert (out / f).is_file(), f
    for i in range(3):
        for f in ("summary.json", "manifest.json", "config.toml"):
            assert (out / "points" / f"p{i:02d}" / f).is_file(), (i, f)
    pngs = sorted(p.name for p in (out / "plots").glob("*.png"))
    assert "win_rate_by_seat.png" in pngs and "turns_mean.png" in pngs and "flr_suffered_mean_by_seat.png" in pngs
    html = (out / "sweep.html").read_text()
    assert html.count('src="data:image/png;base64,') == len(pngs)
    assert 'src="plots/' not in html
    md = (out / "sweep.md").read_text()
    assert md.count("](plots/") == len(pngs)
    assert "| win_rate[seat=0] |" in md and "p02: hand_size=9" in md
    meta = json.loads((out / "sweep.json").read_text())
    assert meta["params"] == [{"key": "clear_for_takeoff.hand_size", "values": [7, 8, 9]}]
    assert meta["games"] == 40 and len({p["config_hash"] for p in meta["points"]}) == 3
    assert is_sweep_folder(out)
    # a second sweep replaces its own folder; a folder of something else is refused
    r = runner.invoke(app, ["sweep", str(CFT), "--param", "clear_for_takeoff.hand_size=7", "--games", "10",
                            "--out", str(out), "--threads", "1", "--quiet"])
    assert r.exit_code == 0, r.output
    assert [p.name for p in (out / "points").iterdir()] == ["p00"]
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    r = runner.invoke(app, ["sweep", str(CFT), "--param", "seed=1", "--games", "10", "--out", str(other)])
    assert r.exit_code == 2 and "not a sim sweep folder" in r.output
    assert (other / "notes.txt").read_text() == "mine"


def test_the_sweep_table_of_a_config(tmp_path):
    cfg = tmp_path / "cft.toml"
    cfg.write_text(CFT.read_text() + '\n[sweep]\ngames = 12\n[sweep.params]\n"clear_for_takeoff.deck.FLR" = [2, 4]\n')
    plan = plan_sweep(cfg)
    assert plan.games == 12 and [p.values for p in plan.points] == [{"clear_for_takeoff.deck.FLR": 2},
                                                                   {"clear_for_takeoff.deck.FLR": 4}]
    assert [p.run.cfg.section.deck.FLR for p in plan.points] == [2, 4]
    # --param replaces the table's grid; --games its games
    plan = plan_sweep(cfg, ["clear_for_takeoff.hand_size=8"], games=5)
    assert plan.games == 5 and [p.values for p in plan.points] == [{"clear_for_takeoff.hand_size": 8}]
    bad = tmp_path / "bad.toml"
    bad.write_text(CFT.read_text() + '\n[sweep.params]\n"clear_for_takeoff.deck.FLR" = [2, -1]\n')
    with pytest.raises(ConfigError) as e:
        plan_sweep(bad)
    assert e.value.key == "clear_for_takeoff.deck.FLR" and "[sweep]" in e.value.reason
    r = runner.invoke(app, ["sweep", str(bad), "--out", str(tmp_path / "sw")])
    assert r.exit_code == 2 and "clear_for_takeoff.deck.FLR" in r.output
    assert not (tmp_path / "sw").exists()


def test_the_dask_backend_plays_the_same_sweep(tmp_path):
    """Each point goes through the backend registry: dask gives the local numbers bit for bit."""
    outs = {}
    for backend, extra in (("local", ["--threads", "1"]), ("dask", ["--workers", "1"])):
        outs[backend] = tmp_path / backend
        r = runner.invoke(app, ["sweep", str(CFT), "--param", "clear_for_takeoff.hand_size=7,8", "--games", "24",
                                "--out", str(outs[backend]), "--backend", backend, "--quiet", *extra])
        assert r.exit_code == 0, r.output
    for p in ("p00", "p01"):
        a, b = (json.loads((outs[k] / "points" / p / "summary.json").read_text()) for k in ("local", "dask"))
        assert a["metrics"] == b["metrics"], p
        man = json.loads((outs["dask"] / "points" / p / "manifest.json").read_text())
        assert man["backend"] == "dask"


def test_changes_from_the_reference_are_paired_by_game_index(tmp_path):
    """Every gated headline metric of a point gets its change from the reference point, tested
    game by game; each figure equals an independent computation on the two points' games
    (statsmodels McNemar, scipy's paired t interval, the delta-method variance of a share from
    the games' covariance matrix), and sweep.md names the test and the correlation."""
    import numpy as np
    from scipy import stats as st
    from statsmodels.stats.contingency_tables import mcnemar

    from sim.sweep import play_sweep, point_changes, write_sweep

    plan = plan_sweep(CFT, ["seats[2].weights.attack=0.6,1.5,3.0"], games=300, seed=5)
    outs = play_sweep(plan, threads=1)
    ch = point_changes(plan, outs, reference=1)
    assert set(ch) == {0, 2}
    a, b = outs[1].df, outs[2].df
    assert a["game_index"].to_list() == b["game_index"].to_list()
    row = ch[2]["turns_mean"]
    ta, tb = a["turns"].to_numpy().astype(float), b["turns"].to_numpy().astype(float)
    ref = st.ttest_rel(tb, ta)
    lo, hi = ref.confidence_interval(0.95)
    assert row.test == "paired t" and row.change == pytest.approx(tb.mean() - ta.mean())
    assert (row.ci_low, row.ci_high) == pytest.approx((lo, hi)) and row.p_value == pytest.approx(ref.pvalue)
    assert row.corr == pytest.approx(np.corrcoef(ta, tb)[0, 1])
    row = ch[2]["win_rate[seat=0]"]
    wa, wb = (a["winner"].to_numpy() == 0), (b["winner"].to_numpy() == 0)
    table = [[int((~wa & ~wb).sum()), int((~wa & wb).sum())], [int((wa & ~wb).sum()), int((wa & wb).sum())]]
    disc = table[0][1] + table[1][0]
    assert row.test == "mcnemar" and row.change == pytest.approx(wb.mean() - wa.mean())
    assert row.p_value == pytest.approx(mcnemar(table, exact=disc < 25, correction=False).pvalue)
    row = ch[2]["weather_share[weather=SC]"]
    xa, xb = a["weather_turns_sc"].to_numpy().astype(float), b["weather_turns_sc"].to_numpy().astype(float)
    g = np.array([-1 / ta.mean(), xa.mean() / ta.mean() ** 2, 1 / tb.mean(), -xb.mean() / tb.mean() ** 2])
    se = float(np.sqrt(g @ np.cov(np.vstack([xa, ta, xb, tb])) @ g / ta.size))
    assert row.test == "paired ratio" and row.se == pytest.approx(se, rel=1e-9)
    assert row.change == pytest.approx(xb.sum() / tb.sum() - xa.sum() / ta.sum())
    # the report: the table, the tests it used, the change plots, sweep.json's figures
    out = write_sweep(tmp_path / "sw", plan, outs, reference=1)
    md = (out / "sweep.md").read_text()
    assert "## Change from p01 (seats[2].weights.attack=1.5)" in md
    assert "* mcnemar: McNemar" in md and "* paired ratio:" in md and "* paired t:" in md
    section = md.split("## Change from p01", 1)[1]
    line = next(x for x in section.splitlines() if x.startswith("| turns_mean |"))
    assert "paired t" in line and "ρ " in line
    assert (out / "plots" / "change_win_rate_by_seat.png").is_file()
    html = (out / "sweep.html").read_text()
    assert "Change from p01" in html
    meta = json.loads((out / "sweep.json").read_text())
    assert meta["reference"] == {"index": 1, "folder": "points/p01"}
    got = {(c["point"], c["label"]): c for c in meta["changes"]}
    assert got[(2, "turns_mean")]["ci_low"] == pytest.approx(lo) and got[(0, "turns_mean")]["test"] == "paired t"


def test_a_swept_seed_is_compared_unpaired():
    from sim.sweep import play_sweep, point_changes

    plan = plan_sweep(CFT, ["seed=3,4"], games=80)
    ch = point_changes(plan, play_sweep(plan, threads=1))
    tests = {r.test for r in ch[1].values()}
    assert tests and not any(t.startswith(("mcnemar", "paired")) for t in tests), tests
    assert all(r.corr is None for r in ch[1].values())


def test_reference_names_a_point():
    from sim.sweep import resolve_reference

    plan = plan_sweep(CFT, ["clear_for_takeoff.hand_size=7,8,9"], games=10)
    assert resolve_reference(plan, None) == 2  # the config's own hand size (issue 40), not the first point
    assert resolve_reference(plan, "8") == 1 and resolve_reference(plan, "p02") == 2
    for bad, words in (("p07", "no point"), ("10", "not a value of the grid")):
        with pytest.raises(ConfigError) as e:
            resolve_reference(plan, bad)
        assert words in e.value.reason
    plan = plan_sweep(CFT, ["clear_for_takeoff.hand_size=7,8", "clear_for_takeoff.exchange_max=3,4"], games=10)
    assert resolve_reference(plan, "p03") == 3
    with pytest.raises(ConfigError) as e:
        resolve_reference(plan, "8")
    assert "pNN" in e.value.reason
    r = runner.invoke(app, ["sweep", str(CFT), "--param", "clear_for_takeoff.hand_size=7,8", "--reference", "p09",
                            "--games", "10", "--quiet"])
    assert r.exit_code == 2 and "--reference" in r.output and "no point" in r.output


def test_headline_series_come_from_the_game_def():
    """A point's headline series: the common ones, then the game's ``GameDef.sweep_headline``,
    then the rest of its gated ``GameDef.headline`` (no list of games in sim/sweep.py)."""
    from sim.games import get_game
    from sim.sweep import HEADLINE_COMMON, headline_records

    gdef = get_game("clear_for_takeoff")
    names = list(HEADLINE_COMMON) + list(gdef.sweep_headline) + ["cut_off_rate"]
    recs = [{"metric": m, "by": {}, "value": 0.0} for m in reversed(names)]
    recs.append({"metric": "weather_share", "by": {"weather": "SC"}, "value": 0.1})
    got = [m for m, _by in headline_records("clear_for_takeoff", recs)]
    # the headline's weather_share[weather] and cut_off_rate, in its order; reshuffles_mean is shown already
    assert gdef.headline == ("weather_share[weather]", "cut_off_rate", "reshuffles_mean")
    assert got == names[:-1] + ["weather_share", "cut_off_rate"]
    assert [m for m, _by in headline_records("not_a_game", recs)] == list(HEADLINE_COMMON)


BASE = 'game = "clear_for_takeoff"\ngames = 8\nseed = 1\nseats = ["greedy", "greedy"]\n'
HUGE = 9_000_000_000_000_000_000  # games no machine can hold the results of


@pytest.mark.parametrize("tail, command, line", [
    ('[sweep.params]\nzz = [[1]]\n', "sweep",
     "key 'zz': unknown key (from [sweep] zz=[1], sweep point p00)"),
    ('[sweep.params]\n"clear_for_takeoff.hand_size" = [7, 99]\n', "sweep",
     "key 'clear_for_takeoff.hand_size': Input should be less than or equal to 30 (got 99) "
     "(from [sweep] clear_for_takeoff.hand_size=99, sweep point p01)"),
    ('[sweep.params]\n"seats[5]" = ["greedy"]\n', "sweep",
     "key 'seats[5]': no such item: the list has 2 (items 0..1) (from [sweep] seats[5]=\"greedy\", sweep point p00)"),
    ('[clear_for_takeoff]\nhand_size = 7\n[sweep.params]\ngame = ["clear_for_takeoff", "now_boarding"]\n', "sweep",
     "key 'clear_for_takeoff': unknown key (at sweep point p01: [sweep] game=\"now_boarding\")"),
    ('[sweep.params]\ngame = ["clear_for_takeoff", "yukon_airways"]\n', "sweep",
     "key 'game': plays 'yukon_airways' where point p00 plays 'clear_for_takeoff': a sweep compares the points "
     "of one game, game by game on the same seed (at sweep point p01: [sweep] game=\"yukon_airways\")"),
    ('[sweep.params]\n"seats[0].policy" = ["greedy"]\n"seats[00].policy" = ["random"]\n', "sweep",
     "key 'sweep.params.seats[00].policy': the same config key as sweep.params.seats[0].policy"),
    (f'[sweep]\ngames = {HUGE}\n[sweep.params]\nseed = [1, 2]\n', "sweep", "key 'sweep.games': 9,000,000,"),
    (f'[checks]\ngames = {HUGE}\n', "check", "key 'checks.games': 9,000,000,"),
    (f'[checks]\ngames = {HUGE}\n', "baseline", "key 'checks.games': 9,000,000,"),
])
def test_validate_refuses_what_the_command_reading_the_table_refuses(tmp_path, tail, command, line):
    """Issue 33: `sim validate` parses [sweep] and [checks] as `sim sweep` / `sim check` /
    `sim baseline` do (every point of the grid compiled, nothing played) and gives the very
    line that command gives; the point and the table are named once."""
    cfg = tmp_path / "c.toml"
    cfg.write_text(BASE + tail)
    out = tmp_path / "out"
    extra = {"sweep": ["--out", str(out)], "check": ["--baseline", str(tmp_path / "none.json")],
             "baseline": ["--out", str(out)]}[command]
    lines = []
    for argv in (["validate", str(cfg)], [command, str(cfg), "--quiet", *extra]):
        r = runner.invoke(app, argv)
        assert r.exit_code == 2, (argv, r.output)
        assert r.output.count("\n") == 1 and r.output.startswith(f"error: {cfg}: {line}"), (argv, r.output)
        assert r.output.count("(from ") <= 1
        lines.append(r.output)
    assert lines[0] == lines[1]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.toml"]


def test_validate_counts_the_points_of_a_good_sweep_table_and_plays_nothing(tmp_path, monkeypatch):
    import sim.api

    def boom(*a, **k):
        raise AssertionError("validate played games")

    monkeypatch.setattr(sim.api, "run_config", boom)
    cfg = tmp_path / "c.toml"
    cfg.write_text(BASE + '[sweep.params]\n"clear_for_takeoff.hand_size" = [7, 8, 9]\nseed = [1, 2]\n')
    r = runner.invoke(app, ["validate", str(cfg)])
    assert r.exit_code == 0, r.output
    assert r.output.startswith(f"ok: {cfg} (clear_for_takeoff, 2 seats, 8 games, seed 1, config hash ")
    assert r.output.rstrip().endswith(", [sweep] 6 points)")


def test_a_sweep_grid_naming_a_game_point_names_the_param_flag(tmp_path):
    """Issue 33: a --param grid that switches `game` to a cooperative game names --param and the point."""
    r = runner.invoke(app, ["sweep", str(CFT), "--param", "game=clear_for_takeoff,now_boarding", "--games", "8",
                            "--out", str(tmp_path / "sw"), "--quiet"])
    assert r.exit_code == 2, r.output
    assert r.output == (f"error: {CFT}: key 'clear_for_takeoff': unknown key "
                        "(at sweep point p01: --param game=\"now_boarding\")\n")
    assert not (tmp_path / "sw").exists()
