"""`make bench` plumbing (sim/bench.py): the README section it renders, the markers it writes
between, and one tiny run end to end. Never a timing: the bench is a target, not a test."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sim import bench

RESULT = {
    "date": "2026-12-01 16:00 UTC", "games": 200, "repeats": 1,
    "machine": {"platform": "Linux", "cpus": 2},
    "speed": [
        {"game": "clear_for_takeoff", "seats": "greedy", "threads": 1, "games_per_s": 10_000.0,
         "games_per_min": 600_000, "turns_per_game": 103.0, "ns_per_turn": 970.0, "scaling": None, "load": 1.0},
        {"game": "clear_for_takeoff", "seats": "greedy", "threads": 2, "games_per_s": 19_000.0,
         "games_per_min": 1_140_000, "turns_per_game": 103.0, "ns_per_turn": 1020.0, "scaling": 1.9, "load": 2.0},
        {"game": "yukon_airways", "seats": "greedy", "threads": 1, "games_per_s": 5_000.0,
         "games_per_min": 300_000, "turns_per_game": 74.0, "ns_per_turn": 2700.0, "scaling": None, "load": 1.0},
        {"game": "yukon_airways", "seats": "greedy", "threads": 2, "games_per_s": 9_000.0,
         "games_per_min": 540_000, "turns_per_game": 74.0, "ns_per_turn": 3000.0, "scaling": 1.8, "load": 2.0},
        {"game": "now_boarding", "seats": "shipped", "policies": ["planner"], "threads": 1, "games_per_s": 400.0,
         "games_per_min": 24_000, "turns_per_game": 16.0, "ns_per_turn": 150_000.0, "scaling": None, "load": 1.0},
        {"game": "now_boarding", "seats": "shipped", "policies": ["planner"], "threads": 2, "games_per_s": 750.0,
         "games_per_min": 45_000, "turns_per_game": 16.0, "ns_per_turn": 160_000.0, "scaling": 1.875, "load": 2.0},
    ],
    "start": [{"game": "clear_for_takeoff", "cold_s": 61.0, "warm_s": 1.5, "shipped_s": 4.2, "shipped": True, "load": 1.0},
              {"game": "now_boarding", "cold_s": 120.0, "warm_s": 3.5, "shipped_s": 118.0, "shipped": False, "load": 1.0}],
    "c_yardstick": {"function": "clear_for_takeoff.rules.legal_plays", "states": 3000, "numba_ns": 150.0,
                    "c_ns": 100.0, "ratio": 1.5, "load": 1.0},
    "memory": [{"game": "clear_for_takeoff", "seats": "greedy", "games": 1_000_000, "peak_gib": 0.8, "wall_s": 60.0, "load": 2.0}],
}


def test_markdown_states_every_figure_and_the_targets():
    md = bench.render_markdown(RESULT)
    assert "| Clear for Takeoff | greedy | 10,000 /s | 19,000 /s | 1.90x | 1.14 M | 103 | 970 | 1.0 / 2.0 |" in md
    # Yukon misses the million by 46 % and the scaling target; Clear for Takeoff meets both
    assert "missed by Yukon Airways (0.54 M, 46 % short)" in md
    # Now Boarding's shipped planner team against issue 10's 200,000 a minute
    assert ("Target 200,000 Now Boarding planner games a minute (the shipped 4-player team, issue 10): "
            "missed (45,000, 78 % short).") in md
    assert "missed by Yukon Airways greedy (1.80x), Now Boarding shipped (1.88x)." in md
    assert "| Clear for Takeoff | 61 s | 1.5 s | 4.2 s | 1.0 |" in md
    assert "| Now Boarding | 120 s | 3.5 s | 118 s (no archive for this source: compiled) | 1.0 |" in md
    assert ("Target: a new user's first run of 1,000 games in at most 60 s (issue 34): missed by Now Boarding "
            "(118 s).") in md
    assert "numba 150 ns per call, plain C (`gcc -O2`) 100 ns per call: 1.50x, outside the 1.3x target" in md
    assert "| Clear for Takeoff | greedy | 1,000,000 | 0.80 GiB | 60 s | 2.0 |" in md


@pytest.mark.parametrize("config", ["configs/now_boarding.toml", "configs/clear_for_takeoff_6p.toml"])
def test_memory_runs_put_every_seat_on_greedy(config):
    """The memory runs' --set override gives the config's seat count, every seat greedy (Now
    Boarding's shipped planner would make 10 M games take hours)."""
    from sim import overrides
    from sim.config import load

    shipped = load(config)
    cfg = overrides.load(config, [bench.greedy_seats(config)])
    assert len(cfg.seats) == shipped.n_seats == {"configs/now_boarding.toml": 4}.get(config, 6)
    assert {s.policy for s in shipped.seats} != {"greedy"}
    assert [s.policy for s in cfg.seats] == ["greedy"] * shipped.n_seats


def test_replace_section_keeps_the_rest_of_the_readme():
    text = f"# title\n\nbefore\n{bench.START}\nold table\n{bench.END}\nafter\n"
    out = bench.replace_section(text, "new table")
    assert out == f"# title\n\nbefore\n{bench.START}\nnew table\n{bench.END}\nafter\n"
    with pytest.raises(ValueError, match="markers"):
        bench.replace_section("no markers here", "x")


def test_quick_run_writes_json_and_readme(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text(f"top\n{bench.START}\n{bench.END}\nbottom\n")
    out = tmp_path / "bench.json"
    bench.main(["--games", "200", "--quick", "--game", "clear_for_takeoff", "--out", str(out), "--readme", str(readme)])
    res = json.loads(out.read_text())
    rows = res["speed"]
    assert [(r["seats"], r["threads"]) for r in rows] == [("greedy", 1), ("greedy", 2), ("shipped", 1), ("shipped", 2)]
    assert all(r["game"] == "clear_for_takeoff" and r["games"] == 200 and r["games_per_s"] > 0 for r in rows)
    assert rows[0]["scaling"] is None and rows[1]["scaling"] > 0
    # the same games at 1 and 2 threads: the same mean length
    assert rows[0]["turns_per_game"] == rows[1]["turns_per_game"]
    assert "start" not in res and "memory" not in res and "c_yardstick" not in res  # --quick skips them
    text = readme.read_text()
    assert text.startswith(f"top\n{bench.START}\n") and text.endswith(f"{bench.END}\nbottom\n")
    assert "| Clear for Takeoff | greedy |" in text and "| Clear for Takeoff | shipped |" in text


def test_against_column_and_verdict_compare_the_two_sources_game_by_game():
    """``--against REV``: each start row's cold compile beside REV's, and one sentence with the
    ratios that names every game compiling slower (here Now Boarding, 120 / 100 s = +20 %)."""
    result = dict(RESULT, against={"rev": "ba47cb8", "commit": "ba47cb8" + "0" * 33})
    result["start"] = [dict(RESULT["start"][0], against_cold_s=75.5),
                       dict(RESULT["start"][1], against_cold_s=100.0),
                       {"game": "yukon_airways", "cold_s": 90.0, "warm_s": 2.0, "shipped_s": 4.0, "shipped": True,
                        "load": 1.0, "against_cold_s": None, "against_error": "no configs/yukon_airways.toml there"}]
    md = bench.render_markdown(result)
    assert "| the same at `ba47cb8` |" in md and "|---|---|---|---|---|---|" in md
    assert "| Clear for Takeoff | 61 s | 76 s | 1.5 s | 4.2 s | 1.0 |" in md
    assert "| Yukon Airways | 90 s | - (no configs/yukon_airways.toml there) | 2.0 s |" in md
    assert ("Cold compile against `ba47cb8` on this host in the same run, each game's two runs minutes apart "
            "(this source's time / that one's): Clear for Takeoff 0.81x, Now Boarding 1.20x; slower: Now Boarding "
            "(+20 %).") in md
    fine = dict(result, start=result["start"][:1])
    assert "Clear for Takeoff 0.81x; no game compiles slower." in bench.render_markdown(fine)
    assert "the same at" not in bench.render_markdown(RESULT)  # no --against: no column


def _git_head() -> str | None:
    try:
        return subprocess.run(["git", "-C", str(bench.ROOT), "rev-parse", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


@pytest.mark.skipif(_git_head() is None, reason="not a git checkout")
def test_source_at_writes_the_revisions_tree_and_a_child_run_there_imports_it(tmp_path):
    """The tree ``git archive`` writes holds the package and the default configs, and a child
    with ``cold_env``'s environment, started in that tree, imports that tree's ``sim``."""
    commit = bench.source_at("HEAD", tmp_path)
    assert commit == _git_head() and len(commit) == 40
    assert (tmp_path / "sim" / "cli.py").is_file() and (tmp_path / "configs" / "clear_for_takeoff.toml").is_file()
    env = bench.cold_env(tmp_path / "cache", tmp_path)
    assert env["SIM_PREBUILT"] == "0" and env["SIM_CACHE_DIR"] == str(tmp_path / "cache")
    out = subprocess.run([sys.executable, "-c", "import sim; print(sim.__file__)"], cwd=tmp_path, env=env,
                         capture_output=True, text=True, check=True).stdout.strip()
    assert Path(out) == tmp_path / "sim" / "__init__.py"
    assert bench.cold_env(tmp_path / "c").get("PYTHONPATH") == os.environ.get("PYTHONPATH")  # this source: as is


def test_an_unknown_revision_fails_before_any_timing(tmp_path, capsys):
    with pytest.raises(ValueError, match="no-such-rev"):
        bench.source_at("no-such-rev", tmp_path)
    with pytest.raises(SystemExit) as e:
        bench.main(["--quick", "--start", "--against", "no-such-rev", "--game", "dice_race",
                    "--out", str(tmp_path / "b.json"), "--readme", "-"])
    assert e.value.code == 2 and "--against no-such-rev" in capsys.readouterr().err
    assert not (tmp_path / "b.json").exists()
