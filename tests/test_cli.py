"""CLI and bad input: every bad input exits 2 with one message naming the file, the key and
the reason, and no report folder is created or touched."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sim.cli import app

ROOT = Path(__file__).resolve().parents[1]
CFT = ROOT / "configs" / "clear_for_takeoff.toml"
runner = CliRunner()


def cft_text(**replace) -> str:
    text = CFT.read_text()
    for old, new in replace.items():
        assert old in text, old
        text = text.replace(old, new)
    return text


def test_run_writes_the_full_report(tmp_path):
    out = tmp_path / "rep"
    r = runner.invoke(app, ["run", str(CFT), "--games", "400", "--seed", "3", "--out", str(out), "--threads", "1"])
    assert r.exit_code == 0, r.output
    for f in ("report.html", "report.md", "summary.json", "games.parquet", "config.toml", "manifest.json"):
        assert (out / f).is_file(), f
    assert list((out / "plots").glob("*.png"))
    summary = json.loads((out / "summary.json").read_text())
    assert summary["games"] == 400 and summary["seed"] == 3
    wr = [m for m in summary["metrics"] if m["metric"] == "win_rate" and "seat" in m["by"]]
    assert len(wr) == 4 and all(m["ci_low"] <= m["value"] <= m["ci_high"] for m in wr)
    names = {m["metric"] for m in summary["metrics"]}
    for k in ("win_rate", "rank_share", "first_player_advantage", "stall_rate", "turns_mean", "turns_p05",
              "turns_p50", "turns_p95", "reshuffles_mean", "starved_draw_rate", "weather_share",
              "flr_suffered_mean", "dly_suffered_mean", "takeoffs_blocked_mean"):
        assert k in names, k
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["seed"] == 3 and manifest["games"] == 400 and manifest["games_per_s"] > 0
    # issue 13 item 7: the play time and games/s exclude compiling (or loading) the kernels
    assert manifest["compile_s"] >= 0 and manifest["games_per_s"] == pytest.approx(400 / manifest["wall_s"], rel=1e-2)
    assert "Kernel compile / cache load" in (out / "report.md").read_text()
    assert "win rate seat 0" in r.output and "report:" in r.output


def test_validate_games_policies():
    r = runner.invoke(app, ["validate", str(CFT)])
    assert r.exit_code == 0 and "ok:" in r.output
    r = runner.invoke(app, ["games"])
    assert r.exit_code == 0 and "clear_for_takeoff" in r.output
    r = runner.invoke(app, ["policies", "clear_for_takeoff"])
    assert r.exit_code == 0 and "greedy" in r.output and "heuristic" in r.output and "attack" in r.output


def test_the_summary_shows_reshuffles_where_a_game_has_them(tmp_path):
    """The end-of-run table: a competitive game always shows its reshuffles per game; a team
    game only when a game reshuffled (as the report's plot): Now Boarding never does."""
    r = runner.invoke(app, ["run", str(CFT), "--games", "200", "--out", str(tmp_path / "a"), "--threads", "1"])
    assert r.exit_code == 0 and "reshuffles per game" in r.output, r.output
    nb = ROOT / "configs" / "now_boarding.toml"
    r = runner.invoke(app, ["run", str(nb), "--games", "40", "--out", str(tmp_path / "b"), "--threads", "1"])
    assert r.exit_code == 0 and "team win rate" in r.output and "reshuffles" not in r.output, r.output


def test_replay_prints_the_game():
    r = runner.invoke(app, ["replay", str(CFT), "--game", "3"])
    assert r.exit_code == 0, r.output
    assert "turn 1: seat 0" in r.output and "hand:" in r.output and "result: winner seat" in r.output


BAD = [
    ("syntax", "game = \n", "", "TOML syntax error"),
    ("unknown_key", cft_text(**{"turn_cap = 2000": "turn_cap = 2000\nspeed = 3"}), "speed", "unknown key"),
    ("unknown_section_key", cft_text(**{"d_queue = 3 ": "d_queu = 3 "}), "clear_for_takeoff.d_queu", "unknown key"),
    ("wrong_type", cft_text(**{"seed = 20261129": 'seed = "abc"'}), "seed", "integer"),
    ("games_zero", cft_text(**{"games = 1_000_000": "games = 0"}), "games", "greater than 0"),
    ("unknown_policy", cft_text(**{'{ policy = "random" }': '{ policy = "genius" }'}), "seats[3].policy", "unknown policy"),
    ("unknown_game", cft_text(**{'game = "clear_for_takeoff"': 'game = "chess"'}), "game", "unknown game"),
    ("small_deck", cft_text(**{"A = 17": "A = 0", "B = 11": "B = 0", "C = 11": "C = 0", "D = 17": "D = 1",
                               "LC = 8": "LC = 0", "VIP = 6": "VIP = 0", "AI = 8": "AI = 0"}),
     "clear_for_takeoff.deck", "cannot deal"),
    ("too_many_players",
     cft_text(**{'seats = [': 'seats = ["random",'}).split('[[clear_for_takeoff.airlines]]\nname = "Airline 5"')[0],
     "seats", "5 seats but only 4 airlines"),
    ("too_many_seats", cft_text(**{'seats = [': 'seats = ["random", "random", "random",'}), "seats", "2 to 6 seats"),
    ("unknown_weight", cft_text(**{'{ policy = "heuristic" }': '{ policy = "heuristic", weights = { bravery = 1.0 } }'}),
     "seats[2].weights.bravery", "no weight"),
    # a typo names the key it is close to (difflib), at the top, in a table, in a game section,
    # in a weight and in a policy name
    ("typo_key", cft_text(**{"seed = 20261129": "sede = 20261129"}), "sede", "unknown key (did you mean 'seed'?)"),
    ("typo_checks_key", cft_text(**{"[checks]": "[checks]\nalpah = 0.1"}), "checks.alpah",
     "unknown key (did you mean 'alpha'?)"),
    ("typo_section_key", cft_text(**{"d_queue = 3 ": "d_queu = 3 "}), "clear_for_takeoff.d_queu",
     "unknown key (did you mean 'd_queue'?)"),
    ("typo_weight", cft_text(**{'{ policy = "heuristic" }': '{ policy = "heuristic", weights = { atack = 1.0 } }'}),
     "seats[2].weights.atack", "has no weight 'atack' (did you mean 'attack'?)"),
    ("typo_policy", cft_text(**{'{ policy = "random" }': '{ policy = "heuristik" }'}), "seats[3].policy",
     "unknown policy 'heuristik' (did you mean 'heuristic'?)"),
]


@pytest.mark.parametrize("case,text,key,reason", BAD, ids=[b[0] for b in BAD])
def test_bad_input_exits_2_with_one_clear_message(tmp_path, case, text, key, reason):
    cfg = tmp_path / f"{case}.toml"
    cfg.write_text(text)
    out = tmp_path / "out"
    for cmd in (["run", str(cfg), "--games", "10", "--out", str(out)], ["validate", str(cfg)]):
        r = runner.invoke(app, cmd)
        assert r.exit_code == 2, (cmd, r.output)
        msg = r.output.strip()
        assert msg.startswith("error: ") and str(cfg) in msg and reason in msg, msg
        if key:
            assert f"key '{key}'" in msg, msg
        assert len(msg.splitlines()) == 1
    assert not out.exists()


def test_an_unknown_key_far_from_every_key_gets_no_suggestion(tmp_path):
    cfg = tmp_path / "far.toml"
    cfg.write_text(cft_text(**{"turn_cap = 2000": "turn_cap = 2000\nzzz = 3"}))
    r = runner.invoke(app, ["validate", str(cfg)])
    assert r.exit_code == 2 and r.output.strip().endswith("key 'zzz': unknown key"), r.output


def test_bad_flags_exit_2_and_touch_nothing(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("x")
    r = runner.invoke(app, ["run", str(CFT), "--games", "0", "--out", str(out)])
    assert r.exit_code == 2 and "key 'games'" in r.output and "command line" in r.output
    r = runner.invoke(app, ["run", str(tmp_path / "missing.toml"), "--out", str(out)])
    assert r.exit_code == 2 and "no such file" in r.output
    assert [p.name for p in out.iterdir()] == ["keep.txt"]
    # a good config must not replace a folder that is not a report either
    r = runner.invoke(app, ["run", str(CFT), "--games", "50", "--out", str(out)])
    assert r.exit_code == 2 and "not a sim report folder" in r.output
    assert [p.name for p in out.iterdir()] == ["keep.txt"]


def test_console_script_runs_in_a_subprocess(tmp_path):
    r = subprocess.run([sys.executable, "-m", "sim.cli", "validate", str(CFT)], capture_output=True, text=True)
    assert r.returncode == 0 and "ok:" in r.stdout
    bad = tmp_path / "b.toml"
    bad.write_text("game = 'clear_for_takeoff'\nseats = []\n")
    r = subprocess.run([sys.executable, "-m", "sim.cli", "run", str(bad)], capture_output=True, text=True)
    assert r.returncode == 2 and "key 'seats'" in r.stderr


@pytest.mark.parametrize("line,replacement,key", [
    ("seed = 20261129", 'seed = "20261129"', "seed"),
    ("rotate_seats = true", 'rotate_seats = "yes"', "rotate_seats"),
    ("hand_size = 9 ", "hand_size = 9.0 ", "clear_for_takeoff.hand_size"),
    ("A = 17", 'A = "17"', "clear_for_takeoff.deck.A"),
    ("direct_to_takeoff = false", "direct_to_takeoff = 0", "clear_for_takeoff.direct_to_takeoff"),
    ('{ policy = "random" }', '{ polcy = "random" }', "seats[3].polcy"),
])
def test_values_are_not_coerced_across_types(tmp_path, line, replacement, key):
    """A string where a number belongs, 0 for a boolean, a float count: exit 2, not a silent
    conversion (a quoted seed would also change the config hash)."""
    cfg = tmp_path / "c.toml"
    cfg.write_text(cft_text(**{line: replacement}))
    r = runner.invoke(app, ["validate", str(cfg)])
    assert r.exit_code == 2 and f"key '{key}'" in r.output, r.output


def test_unknown_backend_exits_2_naming_the_registered_ones(tmp_path):
    r = runner.invoke(app, ["run", str(CFT), "--games", "10", "--backend", "spark", "--out", str(tmp_path / "o")])
    assert r.exit_code == 2 and "--backend: must be one of local, dask, got 'spark'" in r.output, r.output
    assert not (tmp_path / "o").exists()


LIGHT_CODE = """
import sys
from sim.cli import app
try:
    app(sys.argv[1:], prog_name="sim", standalone_mode=False)
except SystemExit:
    pass
print("HEAVY", sorted(m for m in ("numba", "polars", "matplotlib") if m in sys.modules))
"""


@pytest.mark.parametrize("args", [["--help"], ["games"], ["policies", "clear_for_takeoff"],
                                  ["policies", "now_boarding"], ["--version"]], ids=" ".join)
def test_listing_commands_import_no_numba_polars_or_matplotlib(args):
    """`sim --help`, `sim games` and `sim policies GAME` answer from the GameDef alone (issue 7):
    the kernels, polars and matplotlib load only for commands that play or plot."""
    r = subprocess.run([sys.executable, "-c", LIGHT_CODE, *args], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == "HEAVY []", r.stdout
    if args[0] == "--help":  # every command's one-line help fits (click cuts a longer one with '...')
        commands = r.stdout.split("Commands:")[1]
        assert "..." not in commands and "  skill " in commands, r.stdout
    if args[0] == "games":
        assert "clear_for_takeoff" in r.stdout and "now_boarding" in r.stdout
    elif args[0] == "policies":
        assert "greedy" in r.stdout
        if args[1] == "now_boarding":  # each weight with what it does
            assert re.search(r"^    orders = 1\.0 +progress mode: 1 = besides the greedy commitment", r.stdout, re.M)
    elif args[0] == "--version":
        from sim.games import available, get_game

        first = r.stdout.splitlines()[0]
        assert first.startswith("sim 0.") and all(f"{g} rules v{get_game(g).version}" in first for g in available())


def test_validate_rejects_an_unknown_checks_metric_naming_the_closest_without_playing(tmp_path, monkeypatch):
    """Issue 13 item 7: `sim validate` checks [checks] targets and tolerances against the
    game's metric catalogue (sim.metrics.catalogue) and plays nothing: one message naming the
    key and the closest names, exit 2."""
    import sim.api
    import sim.runner

    def boom(*a, **k):
        raise AssertionError("validate played games")

    monkeypatch.setattr(sim.runner, "run_games", boom)
    monkeypatch.setattr(sim.api, "play_run", boom)
    monkeypatch.setattr(sim.api, "prepare", boom)
    cfg = tmp_path / "c.toml"
    cfg.write_text(cft_text(**{'{ metric = "stall_rate", max = 0.001 }': '{ metric = "stall_rat", max = 0.001 }'}))
    r = runner.invoke(app, ["validate", str(cfg)])
    assert r.exit_code == 2, r.output
    assert "key 'checks.targets[0].metric'" in r.output
    assert "unknown metric 'stall_rat'" in r.output and "did you mean stall_rate" in r.output
    assert r.output.count("error:") == 1
    # a tolerance key is checked the same way
    cfg.write_text(cft_text(**{"[checks]": "[checks]\ntolerances = { wether_share = 0.01 }"}))
    r = runner.invoke(app, ["validate", str(cfg)])
    assert r.exit_code == 2 and "checks.tolerances.wether_share" in r.output and "weather_share" in r.output, r.output
    # a known metric with a grouping it never has
    cfg.write_text(cft_text(**{'{ metric = "stall_rate", max = 0.001 }': '{ metric = "stall_rate", by = { seat = 0 }, max = 0.001 }'}))
    r = runner.invoke(app, ["validate", str(cfg)])
    assert r.exit_code == 2 and "checks.targets[0].by" in r.output, r.output
    # every shipped config's [checks] passes
    for c in sorted((ROOT / "configs").glob("*.toml")):
        r = runner.invoke(app, ["validate", str(c)])
        assert r.exit_code == 0 and "ok:" in r.output, (c.name, r.output)


def test_run_reports_the_compile_time_of_the_notice_not_a_second_instant_call(tmp_path, monkeypatch):
    """issue 13 item 7: the CLI compiles before its progress bar (cli_progress.prepare_kernels);
    the manifest's compile_s is that call's time, not the instant second call inside
    api.run_config."""
    import sim.api

    calls = []
    monkeypatch.setattr(sim.api, "prepare", lambda run: calls.append(1) or (7.0 if len(calls) == 1 else 0.0))
    out = tmp_path / "rep"
    r = runner.invoke(app, ["run", str(CFT), "--games", "48", "--out", str(out), "--threads", "1", "--quiet"])
    assert r.exit_code == 0, r.output
    assert json.loads((out / "manifest.json").read_text())["compile_s"] == 7.0


def test_compile_notices_name_what_numba_compiles_and_stay_quiet_on_a_cache_hit(monkeypatch):
    """Issue 34: a first run says what it compiles (numba's "numba:compile" events, fired on a
    cache miss only): a first line, one line per function with at least NOTICE_S seconds of
    its own, the total; a function already compiled prints nothing."""
    from numba import njit

    import sim.cli_progress as P

    monkeypatch.setattr(P, "NOTICE_S", 0.0)  # name every function compiled here

    @njit
    def inner(x):
        return x * 2 + 1

    @njit
    def outer(x):
        return inner(x) - 1

    lines: list[str] = []
    with P.compile_notices("Toy Game", lines.append):
        assert outer(3) == 6
    assert lines[0] == "compiling Toy Game kernels (once per install or code change) ..."
    assert re.fullmatch(r"  compiled .*test_cli\.test_compile_notices.*inner in \d+ s", lines[1]), lines
    assert re.fullmatch(r"  compiled .*outer in \d+ s", lines[2]), lines
    assert re.fullmatch(r"compiled Toy Game kernels in \d+ s \(cached for later runs\)", lines[3]), lines
    assert len(lines) == 4
    again: list[str] = []
    with P.compile_notices("Toy Game", again.append):
        assert outer(4) == 8
    assert again == []
    with P.compile_notices("Toy Game", None):  # --quiet: no listener at all
        assert outer(5) == 10


def test_the_speed_column_stops_when_the_last_game_is_played():
    """Seen at 80 columns: after the last game the bar's games/s kept falling while the report
    was written (9,632 then 1,992 games/s for the same 2,000 games). It divides by the time to
    the last game."""
    from types import SimpleNamespace

    from sim.cli_progress import games_per_second

    done = SimpleNamespace(finished=True, finished_time=0.25, elapsed=4.0, completed=2000)
    assert games_per_second(done) == "8,000 games/s"
    running = SimpleNamespace(finished=False, finished_time=None, elapsed=0.5, completed=1000)
    assert games_per_second(running) == "2,000 games/s"
    assert games_per_second(SimpleNamespace(finished=False, finished_time=None, elapsed=None, completed=0)) \
        == "0 games/s"


def test_first_player_advantage_of_fixed_mixed_seats_carries_the_caveat(tmp_path):
    """Issue 40, item 0: with fixed seats of different policies the first-player advantage
    mixes the seat's effect with the policies'; `sim run` and the report say so (as `sim check`
    does), and say nothing of the kind for rotated seats or four seats of one policy."""
    want = ("seat 0's win rate minus 1/4 with fixed seats of different policies (greedy, greedy, heuristic, "
            "random): it mixes the seat's effect with the policies'; set rotate_seats = true to measure the seat "
            "alone")
    r = runner.invoke(app, ["run", str(CFT), "--games", "48", "--threads", "1", "--quiet", "--set",
                            "rotate_seats=false", "--out", str(tmp_path / "fixed")])
    assert r.exit_code == 0, r.output
    assert f"note: first-player advantage: {want}" in " ".join(r.output.split())
    assert f"**Caveat:** S{want[1:]}." in (tmp_path / "fixed" / "report.md").read_text()
    for name, sets in (("rotated", []), ("greedy", ["--set", "rotate_seats=false"] + [
            x for i in range(4) for x in ("--set", f'seats[{i}].policy="greedy"')])):
        r = runner.invoke(app, ["run", str(CFT), "--games", "48", "--threads", "1", "--quiet", *sets,
                                "--out", str(tmp_path / name)])
        assert r.exit_code == 0, r.output
        assert "mixes the seat's effect" not in r.output
        assert "Caveat" not in (tmp_path / name / "report.md").read_text()
