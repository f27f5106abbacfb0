"""``sim replay --longest | --stalled | --where``: the game picked is the one the run's
games.parquet says, the games come from the config's run folder (or are played now), and
every replay opens with the same summary against the run's means, for every game."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.compile import compile_run
from sim.config import load
from sim.errors import ConfigError
from sim.games import available
from sim.replay_pick import Games, select, summary_lines

ROOT = Path(__file__).resolve().parents[1]
CFT = ROOT / "configs" / "clear_for_takeoff.toml"
runner = CliRunner()


def frame():
    return pl.DataFrame({"game_index": [0, 1, 2, 3, 4], "turns": [10, 30, 5, 30, 7], "stalled": [0, 0, 1, 0, 1],
                         "winner": [1, 2, -1, 2, -1],
                         "policy_s0": pl.Series(["a", "b", "a", "b", "a"], dtype=pl.Categorical)})


def test_select_longest_first_stalled_where():
    df = frame()
    assert select(df, longest=True)[0] == 1  # 30 turns twice: the lower index
    assert select(df, stalled=True)[0] == 2
    assert select(df, stalled=True, longest=True)[0] == 4
    assert select(df, where="winner = 2 AND game_index > 1")[0] == 3
    assert select(df, where="policy_s0 = 'a'", longest=True)[0:3:2] == (0, 3)
    g, desc, n = select(df, where="turns < 8", longest=True)
    assert (g, n) == (4, 2) and "longest" in desc and "turns < 8" in desc


@pytest.mark.parametrize("expr, words", [
    ("winner = = 2", "cannot evaluate"), ("nosuch > 1", "cannot evaluate"), ("1 = 1; DROP TABLE games", "no ';'"),
    ("", "not one SQL"), ("winner = 7", "no game of the 5"),
])
def test_select_bad_where(expr, words):
    with pytest.raises(ConfigError) as e:
        select(frame(), where=expr)
    assert e.value.file == "--where" and words in str(e.value)


def test_where_grammar_gives_the_games_polars_would():
    """SQL words and operators of the grammar (sim.where) select the rows they say."""
    df = frame()
    pick = {w: select(df, where=w)[0:3:2] for w in [
        "winner <> 2", "winner != 2 AND NOT stalled = 1", "winner IN (2, -1) AND turns < 10", "winner NOT IN (2, 1)",
        "turns * 2 > 40 OR turns % 5 = 2", '"winner" = 2', "5 < turns < 8", "policy_s0 = 'b' and game_index >= 2",
        "TRUE", "-turns < -20"]}
    assert pick == {"winner <> 2": (0, 3), "winner != 2 AND NOT stalled = 1": (0, 1),
                    "winner IN (2, -1) AND turns < 10": (2, 2), "winner NOT IN (2, 1)": (2, 2),
                    "turns * 2 > 40 OR turns % 5 = 2": (1, 3), '"winner" = 2': (1, 2), "5 < turns < 8": (4, 1),
                    "policy_s0 = 'b' and game_index >= 2": (3, 1), "TRUE": (0, 5), "-turns < -20": (1, 2)}


@pytest.mark.parametrize("expr, words", [
    ("game_index IN (SELECT column_1 FROM read_csv('/etc/passwd'))", "uses SELECT"),
    ("EXISTS (SELECT * FROM read_csv('/etc/passwd'))", "uses EXISTS"),
    ("game_index IN (SELECT game_index FROM read_parquet('games.parquet'))", "uses SELECT"),
    ("(SELECT COUNT(*) FROM games a, games b, games c, games d) > 0", "uses SELECT"),
    ("read_csv('/etc/passwd') = 1", "calls a function (read_csv)"),
    ("winner.__class__ = 1", "unexpected '.'"), ("winner[0] = 1", "unexpected '['"),
    ("__import__('os') = 1", "calls a function (__import__)"), ("winner = 2 # x", "no comments"),
    ("winner", "it gives Int64, not true/false"), ("turns + 1", "gives Int64"),
    ("policy_s0 = 1", "cannot compare"), ("winner IN (turns)", "IN takes a list"),
    ("winner = 99999999999999999999", "outside -2**63..2**63-1"),
    ("-" * 200 + "1 = 1", "nested deeper than 60"), ("winner BETWEEN 1 AND 2", "uses BETWEEN"),
])
def test_where_refuses_what_is_not_an_expression_over_the_columns(expr, words):
    """Issue 33: --where read files through polars SQL's table functions; now only the run's
    own columns, literals, comparisons, AND/OR/NOT, IN lists and arithmetic are accepted."""
    with pytest.raises(ConfigError) as e:
        select(frame(), where=expr)
    assert e.value.file == "--where" and words in str(e.value), str(e.value)
    assert "root:" not in str(e.value)


def test_replay_where_reads_no_file_and_plays_nothing(tmp_path, monkeypatch):
    """The issue's cases through the CLI: exit 2 naming --where, before any game is played,
    and nothing of the named file in the message."""
    monkeypatch.chdir(tmp_path)
    secret = tmp_path / "secret.csv"
    secret.write_text("column_1\nTOPSECRET\n")
    for expr in [f"game_index IN (SELECT column_1 FROM read_csv('{secret}'))",
                 f"EXISTS (SELECT * FROM read_csv('{secret}'))",
                 f"(SELECT COUNT(*) FROM read_csv('{secret}')) = 2"]:
        r = runner.invoke(app, ["replay", str(CFT), "--where", expr, "--games", "20"])
        assert r.exit_code == 2, r.output
        assert r.output.startswith("error: --where: cannot evaluate"), r.output
        assert "uses SELECT" in r.output or "uses EXISTS" in r.output, r.output
        assert "TOPSECRET" not in r.output and "playing its" not in r.output, r.output


@pytest.mark.parametrize("name", available())
def test_the_summary_has_one_format_for_every_game(name):
    """Generic over GameDef.columns: the seats with their policies, the result, each column
    against the run's mean, and the column far from its mean named first under 'stands out'."""
    cfg = load(next(p for p in sorted((ROOT / "configs").glob("*.toml")) if load(p).game == name))
    run = compile_run(cfg.model_copy(update={"games": 50}))
    cols = run.game.column_names(run.n_seats)
    rng = np.random.default_rng(1)
    df = pl.DataFrame({"game_index": np.arange(50), **{c: rng.integers(0, 4, 50) for c in cols}})
    row = {c: 1 for c in cols}
    row.update(turns=1000, stalled=0)
    if "winner" in row:
        row["winner"] = 0
    if "team_win" in row:
        row["team_win"] = 0
    lines = summary_lines(run, 3, row, Games(df, None, "50 games"), "the longest")
    assert lines[0] == f"== summary of game 3 (seed {cfg.seed}): the longest of 50 games"
    labels = run.seat_labels(3)
    assert lines[1] == "   seats: " + ", ".join(f"seat {s} {labels[s]}" for s in range(run.n_seats))
    want = f"seat 0 ({labels[0]}) won" if run.game.mode == "competitive" else "the team lost"
    assert lines[2].startswith("   result: " + want)
    assert lines[3].split()[:3] == ["column", "this", "game"]
    turns = next(ln for ln in lines if ln.split()[:1] == ["turns"])
    assert turns.split()[1] == "1000" and float(turns.split()[2]) == pytest.approx(float(df["turns"].mean()), abs=0.01)
    assert lines[-2].startswith("   stands out: turns: 1000 vs ")
    shown = {ln.split()[0] for ln in lines[4:-2]}
    assert shown == {c.name for c in run.game.result_columns}


def test_replay_longest_from_the_run_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, ["run", str(CFT), "--games", "120", "--threads", "1", "--quiet"])
    assert r.exit_code == 0, r.output
    df = pl.read_parquet(tmp_path / "reports" / "clear_for_takeoff" / "games.parquet")
    best = df.sort(["turns", "game_index"], descending=[True, False]).row(0, named=True)
    r = runner.invoke(app, ["replay", str(CFT), "--longest"])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    g = best["game_index"]
    assert lines[0] == (f"== summary of game {g} (seed 20261129): the longest ({best['turns']} turns) of 120 games "
                        "in reports/clear_for_takeoff/")
    assert "run mean (sd) over 120 games" in lines[3]
    assert any(ln.startswith(f"Clear for Takeoff: game {g} of seed 20261129") for ln in lines)
    # --where with --longest: the longest of the matching games
    sub = df.filter(pl.col("winner") == 2)
    want = sub.sort(["turns", "game_index"], descending=[True, False])["game_index"][0]
    r = runner.invoke(app, ["replay", str(CFT), "--longest", "--where", "winner = 2"])
    assert r.exit_code == 0 and r.output.startswith(f"== summary of game {want} "), r.output
    # a run of another seed is not this config's run: its games are played now instead
    r = runner.invoke(app, ["replay", str(CFT), "--longest", "--seed", "4", "--games", "30",
                            "--run", str(tmp_path / "reports" / "clear_for_takeoff")])
    assert r.exit_code == 2 and "another config (keys that differ: seed)" in r.output, r.output


def test_replay_without_a_run_plays_the_games_to_pick_from(tmp_path, monkeypatch):
    from sim.api import run_config
    from sim.compile import load_run

    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, ["replay", str(CFT), "--longest", "--games", "40"])
    assert r.exit_code == 0, r.output
    df = run_config(load_run(CFT, games=40), threads=1).df
    g = df.sort(["turns", "game_index"], descending=[True, False])["game_index"][0]
    assert f"== summary of game {g} " in r.output and "of 40 games played now" in r.output
    assert "playing its 40 games now" in r.output  # the note (stderr)
    assert not (tmp_path / "reports").exists()


@pytest.mark.parametrize("args, words", [
    (["--game", "1", "--longest"], "give one or the other"),
    ([], "which game?"),
    (["--stalled", "--games", "20"], "no game of the 20 is stalled; --where EXPR picks a game by any "
                                     "column (e.g. --where 'turns > 200'), --longest the longest game"),
    (["--where", "nosuch = 1", "--games", "20"], "cannot evaluate"),
])
def test_replay_bad_picks_exit_2(tmp_path, monkeypatch, args, words):
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, ["replay", str(CFT), *args])
    assert r.exit_code == 2 and words in r.output, r.output


def test_a_column_that_does_not_apply_is_averaged_over_the_games_it_applies_to():
    """Now Boarding's ``loss_round`` is 0 (``Column.none``) in a game that was won: a lost
    game's loss round is compared with the mean over the lost games only, and a won game shows
    '-' there, with no sd and never under 'stands out'."""
    cfg = load(ROOT / "configs" / "now_boarding.toml")
    run = compile_run(cfg.model_copy(update={"games": 6}))
    cols = run.game.column_names(run.n_seats)
    base = {c: [0] * 6 for c in cols}
    base["game_index"] = list(range(6))
    base["team_win"] = [1, 1, 1, 0, 0, 0]
    base["loss_round"] = [0, 0, 0, 8, 10, 12]
    base["loss_stage"] = [-1, -1, -1, 1, 2, 2]
    df = pl.DataFrame(base)
    lost = {c: 0 for c in cols} | {"team_win": 0, "loss_round": 16, "loss_stage": 3}
    lines = summary_lines(run, 4, lost, Games(df, None, "6 games"), None)
    row = next(ln for ln in lines if ln.split()[:1] == ["loss_round"])
    # mean 10 and sd 2 of (8, 10, 12): 16 is +3.0 sd
    assert row.split()[1:4] == ["16", "10", "(2;"] and "+3.0 sd) over the 3 games it applies to" in row, row
    assert "loss_round: 16 vs 10 (+3.0 sd)" in lines[-2]
    won = {c: 0 for c in cols} | {"team_win": 1, "loss_round": 0, "loss_stage": -1}
    lines = summary_lines(run, 0, won, Games(df, None, "6 games"), None)
    row = next(ln for ln in lines if ln.split()[:1] == ["loss_round"])
    assert row.split()[1:3] == ["-", "10"] and "sd)" not in row and "over the 3 games it applies to" in row, row
    assert "loss_round" not in lines[-2] and "loss_stage" not in lines[-2]
    # without a run to compare with, the result line promises no 'stands out' section
    lines = summary_lines(run, 4, lost, None, None, note="no run")
    assert lines[2] == "   result: the team lost" and not any("stands out" in ln for ln in lines)
    # and the columns at 0 in this game come on one line, after the others
    assert [ln.split()[0] for ln in lines[4:-2]] == ["loss_stage", "loss_round"], lines
    zero = lines[-2].removeprefix("   0 in this game: ").split(", ")
    assert zero == [c.name for c in run.game.result_columns if c.name not in ("loss_stage", "loss_round")]
    # a won game: the loss columns do not apply
    lines = summary_lines(run, 0, won, None, None, note="no run")
    assert lines[4:7] == ["   team_win                 1", "   loss_stage               - (does not apply in this game)",
                          "   loss_round               - (does not apply in this game)"], lines


def test_replay_takes_the_game_index_as_an_argument_too():
    a = runner.invoke(app, ["replay", str(CFT), "3"])
    b = runner.invoke(app, ["replay", str(CFT), "--game", "3"])
    assert a.exit_code == 0 and a.output == b.output and "== summary of game 3 " in a.output
    r = runner.invoke(app, ["replay", str(CFT), "3", "--game", "4"])
    assert r.exit_code == 2 and "given twice" in r.output, r.output


@pytest.mark.parametrize("damage", ["no turns", "no game_index", "every x", "games Infinity", "games 1e308"])
def test_a_damaged_run_folder_is_one_message_not_a_traceback(tmp_path, monkeypatch, damage):
    """Issue 33: `sim replay --run DIR` raised a traceback when games.parquet lacked a column
    or the manifest's rows entry held a non-integer."""
    import json

    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, ["run", str(CFT), "--games", "60", "--threads", "1", "--quiet", "--out", "rep"])
    assert r.exit_code == 0, r.output
    rep = tmp_path / "rep"
    if damage.startswith("no "):
        df = pl.read_parquet(rep / "games.parquet")
        df.drop(damage[3:]).write_parquet(rep / "games.parquet")
    else:
        man = json.loads((rep / "manifest.json").read_text())
        key, value = damage.split()
        man["rows"] = {"sampled": True, "every": 5, "games": 60, key: value}
        (rep / "manifest.json").write_text(json.dumps(man).replace('"Infinity"', "Infinity").replace('"1e308"', "1e308"))
    r = runner.invoke(app, ["replay", str(CFT), "--longest", "--run", "rep"])
    if damage.startswith("no "):
        assert r.exit_code == 2, r.output
        assert r.output.strip() == (f"error: rep/games.parquet: lacks the column(s) {damage[3:]} of a run of this "
                                    "config (not written by `sim run` of it)"), r.output
    else:
        assert r.exit_code == 0, r.output
        assert "60 sampled games in rep/ (its manifest's rows entry does not say of how many)" in r.output


def test_replay_without_a_run_plays_a_bounded_number_with_a_warning(tmp_path, monkeypatch):
    """Issue 40, item 5: no run to pick from and no --games: at most PLAY_NOW_MAX games are
    played (the config's 1,000,000 took 5 1/2 minutes), with a warning naming the command that
    keeps a run; the summary says which games the pick is of."""
    import sim.replay_pick

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sim.replay_pick, "PLAY_NOW_MAX", 30)
    r = runner.invoke(app, ["replay", str(CFT), "--longest"])
    assert r.exit_code == 0, r.output
    assert (f"warning: no run of this config at reports/clear_for_takeoff/ nor in any folder of reports/; playing "
            f"only the first 30 of its 1,000,000 games now to pick from (`sim run {CFT}` keeps a run of all of them "
            "to pick from; --games N plays N now)") in r.output
    assert "of 30 games played now" in r.output.splitlines()[1]
    assert not (tmp_path / "reports").exists()


def test_replay_finds_the_newest_run_of_the_config_wherever_sim_run_put_it(tmp_path, monkeypatch):
    """`sim run --out reports/x` and `sim replay` agree on where reports are: without --run the
    newest run of the config among the folders of reports/ is used; --run takes a report folder
    or a folder of them; a folder with no run of the config is refused with the command to make
    one."""
    import os

    monkeypatch.chdir(tmp_path)
    for out, n in (("reports/early", "40"), ("reports/late", "50")):
        r = runner.invoke(app, ["run", str(CFT), "--games", n, "--threads", "1", "--quiet", "--out", out])
        assert r.exit_code == 0, r.output
    os.utime(tmp_path / "reports/early/games.parquet", (1e9, 1e9))  # the older run
    late = pl.read_parquet(tmp_path / "reports/late/games.parquet")
    g = late.sort(["turns", "game_index"], descending=[True, False])["game_index"][0]
    r = runner.invoke(app, ["replay", str(CFT), "--longest"])
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[0].startswith(f"== summary of game {g} (seed 20261129): the longest")
    assert r.output.splitlines()[0].endswith("of 50 games in reports/late/ (the newest run of this config in "
                                             "reports/)"), r.output.splitlines()[0]
    r = runner.invoke(app, ["replay", str(CFT), "--longest", "--run", "reports"])
    assert r.exit_code == 0 and r.output.splitlines()[0].endswith(
        "of 50 games in reports/late/ (the newest run of this config in reports/)"), r.output
    (tmp_path / "empty").mkdir()
    r = runner.invoke(app, ["replay", str(CFT), "--longest", "--run", "empty"])
    assert r.exit_code == 2, r.output
    assert r.output.strip() == ("error: empty: --run: neither a report folder of `sim run` nor a folder holding a run "
                                f"of this config; make one with `sim run {CFT} --out empty/clear_for_takeoff`")


def test_a_long_game_is_paged_on_a_terminal_and_whole_when_piped(monkeypatch):
    """Issue 40, item 5: a game of thousands of lines goes through the pager on a terminal;
    piped (CliRunner) it is printed whole, the summary first and the result last."""
    import sim.cli

    r = runner.invoke(app, ["replay", str(CFT), "--game", "3"])
    lines = r.output.splitlines()
    assert r.exit_code == 0 and len(lines) > 1000
    assert lines[0].startswith("== summary of game 3")
    # the log ends with the result, then the per-round progress table (docs/tension.md)
    res = max(i for i, ln in enumerate(lines) if ln.startswith("result: winner seat"))
    assert lines[res + 1].startswith("== progress by round") and " lead change" in lines[-1]
    paged = []
    monkeypatch.setattr(sim.cli, "_stdout_is_terminal", lambda: True)
    monkeypatch.setattr(sim.cli, "page", lambda text: paged.append(text) or True)
    r = runner.invoke(app, ["replay", str(CFT), "--game", "3"])
    assert r.exit_code == 0 and r.output == "" and len(paged) == 1
    assert paged[0].splitlines() == lines


def test_a_sensitivity_or_report_table_does_not_make_another_config(tmp_path):
    """[sensitivity] and [report] do not change what game g plays: a run folder made without them
    is still a run of the config that has them (replay picks from it instead of playing again)."""
    import tomllib

    from sim.replay_pick import run_folder_problem

    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "games.parquet").write_bytes(b"")
    (folder / "config.toml").write_text(CFT.read_text())
    raw = tomllib.loads(CFT.read_text())
    cfg = load(CFT)
    extra = cfg.model_copy(update={"raw": {**raw, "sensitivity": {"keys": ["clear_for_takeoff.hand_size"]},
                                           "report": {"rows": 10}}})
    assert run_folder_problem(folder, extra) is None
    other = cfg.model_copy(update={"raw": {**raw, "seed": raw["seed"] + 1}})
    assert "keys that differ: seed" in run_folder_problem(folder, other)
