"""``sim tune``: the search finds the candidate an exhaustive play of a small space names best,
racing never drops it, the proof replays the finalists on a fresh seed and the recommendation's
numbers are the proof's, tuned.toml is the original file with the values changed (and plays),
``--resume`` continues a study, a ``[tune]`` table leaves the config's hash (and its baseline)
alone, and bad input exits 2 naming the key with nothing written."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.errors import ConfigError

ROOT = Path(__file__).resolve().parents[1]
DICE = ROOT / "configs" / "dice_race.toml"
YA = ROOT / "configs" / "yukon_airways.toml"
runner = CliRunner()

TABLE = """
[tune]
budget = {budget}
rungs = {rungs}
confirm_games = 1500
top = 2
sampler = "{sampler}"
targets = [{{ metric = "turns_mean", min = {lo}, max = {hi} }}]
[tune.space]
"dice_race.track" = {{ low = 24, high = 27 }}
"dice_race.bump" = {{ choices = [2, 6] }}
"""


def _config(tmp_path: Path, budget: int = 8, rungs: str = "[1000]", sampler: str = "exhaustive",
            lo: float = 11.0, hi: float = 11.2, extra: str = "") -> Path:
    text = DICE.read_text(encoding="utf-8").replace("games = 200_000", "games = 1_000")
    p = tmp_path / "dice.toml"
    p.write_text(text + TABLE.format(budget=budget, rungs=rungs, sampler=sampler, lo=lo, hi=hi) + extra,
                 encoding="utf-8")
    return p


def _exhaustive(config: Path, games: int, seed: int) -> dict[tuple[int, int], float]:
    """turns_mean of every candidate of the space, each played on its own through the API."""
    from sim.api import run_config
    from sim.cli_common import compile_checked

    out = {}
    for track in range(24, 28):
        for bump in (2, 6):
            run = compile_checked(config, sets=[f"dice_race.track={track}", f"dice_race.bump={bump}"], games=games,
                                  seed=seed)
            o = run_config(run, threads=1, write_rows=False)
            rec = next(r for r in o.summary["metrics"] if r["metric"] == "turns_mean")
            out[(track, bump)] = (rec["value"], rec["ci_low"], rec["ci_high"])
    return out


def _miss(v, lo, hi, band, games, confirm):
    m = (hi - lo) / 2 * math.sqrt(games / confirm)
    a, b = band[0] + m, band[1] - m
    if a > b:
        a = b = (band[0] + band[1]) / 2
    return max(0.0, a - v, v - b)


def _search(config: Path, tmp_path: Path):
    from sim.tune import open_study, plan_tune, search

    plan = plan_tune(config)
    study = open_study(plan, tmp_path / "tune.db", resume=False)
    search(plan, study, threads=1)
    return plan, study


def test_exhaustive_search_ranks_the_candidate_exhaustive_play_names_best(tmp_path):
    """Every one of the 8 candidates played (optuna's BruteForceSampler, one rung): the search's
    first-ranked candidate is the one with the least miss when each candidate is played on its
    own through the API, and every trial's miss is that candidate's, number for number."""
    from sim.tune import ranked_trials, values_of

    cfg = _config(tmp_path)
    plan, study = _search(cfg, tmp_path)
    truth = _exhaustive(cfg, 1000, plan.seed)
    misses = {k: _miss(*v, (11.0, 11.2), 1000, 1500) for k, v in truth.items()}
    ranked = ranked_trials(plan, study)
    assert len(ranked) == 8  # the whole space, each candidate once
    for t in ranked:
        v = values_of(plan, t)
        assert t.user_attrs["objectives"][0] == pytest.approx(misses[(v["dice_race.track"], v["dice_race.bump"])],
                                                              abs=1e-12)
    best = min(misses.values())
    want = sorted(k for k, m in misses.items() if m == best)
    top = values_of(plan, ranked[0])
    assert (top["dice_race.track"], top["dice_race.bump"]) in want
    # the shipped value (track 30, bump 6) lies outside the space: no trial stands for the config
    assert not any(t.user_attrs.get("is_config") for t in study.trials)


def test_racing_drops_only_candidates_that_cannot_beat_the_best(tmp_path):
    """Two rungs: a dropped candidate's most favourable reading at its rung missed by more than
    the best miss another candidate measured there, and the best of the exhaustive play on the
    full rung is among those that played every rung."""
    import optuna

    cfg = _config(tmp_path, rungs="[300, 1200]")
    plan, study = _search(cfg, tmp_path)
    trials = study.trials
    dropped = [t for t in trials if t.state == optuna.trial.TrialState.PRUNED]
    assert dropped, "a band this narrow drops some candidates at the first rung"
    for t in dropped:
        r = t.user_attrs["dropped_at"]
        others = [u.user_attrs["miss_by_rung"][r] for u in trials if u.number < t.number
                  and len(u.user_attrs.get("miss_by_rung", [])) > r]
        assert t.user_attrs["optimistic_by_rung"][r] > min(others)
    truth = _exhaustive(cfg, 1200, plan.seed)
    misses = {k: _miss(*v, (11.0, 11.2), 1200, 1500) for k, v in truth.items()}
    best = min(misses, key=lambda k: (misses[k], k))
    from sim.tune import values_of

    full = {(values_of(plan, t)["dice_race.track"], values_of(plan, t)["dice_race.bump"])
            for t in trials if t.state == optuna.trial.TrialState.COMPLETE}
    assert best in full


def test_tune_writes_a_proved_recommendation_and_a_tuned_config_that_plays(tmp_path):
    """The CLI end to end: the verdict's numbers are the proof's (fresh seed, its games), the
    comparison with the config is paired, tuned.toml is the original file (comments kept) with
    the changed values commented, and it loads and plays."""
    cfg = _config(tmp_path, lo=11.0, hi=11.6)
    out = tmp_path / "out"
    r = runner.invoke(app, ["tune", str(cfg), "--out", str(out), "--threads", "1", "--quiet"], env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    assert {"tune.html", "tune.md", "tune.json", "tune.db", "tuned.toml"} <= {p.name for p in out.iterdir()}
    data = json.loads((out / "tune.json").read_text())
    assert data["format"] == "sim-tune/1" and data["confirm_seed"] != data["seed"]
    rec = data["recommendation"]
    assert rec is not None and rec["passed"]
    (row,) = rec["rows"]
    assert row["inside"] and 11.0 <= row["ci_low"] <= row["ci_high"] <= 11.6
    # the proof is a plain run of the candidate on the fresh seed: the same number
    from sim.api import run_config
    from sim.cli_common import compile_checked

    sets = [f"{c['key']}={c['to']}" for c in rec["changes"]]
    o = run_config(compile_checked(cfg, sets=sets, games=1500, seed=data["confirm_seed"]), threads=1,
                   write_rows=False)
    turns = next(x for x in o.summary["metrics"] if x["metric"] == "turns_mean")
    assert row["value"] == pytest.approx(turns["value"], rel=1e-12)
    assert any(c["label"] == "turns_mean" and c["test"].startswith("paired") for c in data["comparison"])
    md = (out / "tune.md").read_text()
    assert md.index("## Verdict") < md.index("## Finalists") < md.index("## The search")
    tuned = (out / "tuned.toml").read_text()
    assert "# Dice Race (template)" in tuned  # the original's comments are kept
    from sim.config import load

    new = load(out / "tuned.toml")
    for c in rec["changes"]:
        key = c["key"].split(".")[-1]
        assert str(getattr(new.section, key)) == c["to"]
        assert f"sim tune: was {c['from']}" in tuned
    r2 = runner.invoke(app, ["run", str(out / "tuned.toml"), "--games", "200", "--out", str(tmp_path / "run"),
                             "--threads", "1", "--quiet"])
    assert r2.exit_code == 0, r2.output


def test_resume_continues_the_study_and_refuses_a_fresh_start_over_it(tmp_path):
    cfg = _config(tmp_path, budget=3, sampler="tpe", rungs="[300]")
    out = tmp_path / "out"
    args = ["tune", str(cfg), "--out", str(out), "--threads", "1", "--quiet"]
    r = runner.invoke(app, args)
    assert r.exit_code == 0, r.output
    first = json.loads((out / "tune.json").read_text())["trials"]
    assert len([t for t in first if not t["simplify"]]) == 3
    again = runner.invoke(app, args)
    assert again.exit_code == 2 and "--resume continues it" in again.output
    r2 = runner.invoke(app, args + ["--resume", "--budget", "5"])
    assert r2.exit_code == 0, r2.output
    trials = json.loads((out / "tune.json").read_text())["trials"]
    assert [t["number"] for t in trials[:len(first)]] == [t["number"] for t in first]  # the first search kept
    assert len([t for t in trials if not t["simplify"]]) == 5


def test_a_tune_table_leaves_the_config_hash_alone(tmp_path):
    """Adding [tune] changes nothing a run plays: the hash a baseline is keyed on stays."""
    from sim.config import load

    plain = tmp_path / "plain.toml"
    plain.write_text(DICE.read_text(encoding="utf-8").replace("games = 200_000", "games = 1_000"), encoding="utf-8")
    assert load(_config(tmp_path)).config_hash() == load(plain).config_hash()


@pytest.mark.parametrize(("extra_table", "key", "words"), [
    ('"dice_race.track" = { low = 9, high = 3 }', "tune.space", "an empty range"),
    ('"dice_race.nope" = { low = 1, high = 3 }', "tune.space.dice_race.nope", "no such key"),
    ('"turn_cap" = { low = 100, high = 300 }', "tune.space.turn_cap", "a run setting"),
    ('"dice_race.track" = { low = 1, high = 3 }', "tune.space.dice_race.track", "not a value the key can take"),
])
def test_bad_space_exits_2_naming_the_key_and_writes_nothing(tmp_path, extra_table, key, words):
    _refused(tmp_path, f"\n[tune]\n[tune.space]\n{extra_table}\n", key, words)


def _refused(tmp_path: Path, tune_text: str, key: str, words: str) -> None:
    """``sim tune`` on the dice race with ``tune_text`` appended: exit 2, one message naming
    ``key`` and saying ``words``, no output folder."""
    cfg = tmp_path / "bad.toml"
    cfg.write_text(DICE.read_text(encoding="utf-8") + tune_text, encoding="utf-8")
    out = tmp_path / "out"
    r = runner.invoke(app, ["tune", str(cfg), "--out", str(out), "--quiet"], env={"COLUMNS": "300"})
    assert r.exit_code == 2, r.output
    assert key in r.output and words in r.output
    assert not out.exists()


@pytest.mark.parametrize(("tune_lines", "key", "words"), [
    ('budget = 0', "tune.budget", "greater than or equal to 1"),
    ('bogus = 1', "tune.bogus", ""),
    ('targets = [{ metric = "nope_rate", max = 0.1 }]', "tune.targets[0].metric", "unknown metric"),
    ('targets = [{ metric = "win_rate", by = { colour = "*" }, max = 0.5 }]', "tune.targets[0].by", "groupings"),
    ('prefer = [{ metric = "turns_mean" }]', "tune.prefer", "give min, max or toward"),
])
def test_bad_objective_exits_2_naming_the_key(tmp_path, tune_lines, key, words):
    _refused(tmp_path, f"\n[tune]\n{tune_lines}\n[tune.space]\n" '"dice_race.track" = { low = 24, high = 27 }\n',
             key, words)


def test_budget_flag_of_zero_and_a_config_without_tune_exit_2(tmp_path):
    r = runner.invoke(app, ["tune", str(_config(tmp_path)), "--budget", "0", "--out", str(tmp_path / "o")])
    assert r.exit_code == 2 and "--budget" in r.output
    r2 = runner.invoke(app, ["tune", str(DICE), "--out", str(tmp_path / "o")], env={"COLUMNS": "300"})
    assert r2.exit_code == 2 and "no [tune] table" in r2.output
    assert not (tmp_path / "o").exists()


def test_a_list_with_a_total_keeps_its_sum_and_an_impossible_draw_is_infeasible():
    """start_money searched item by item with total 10: the last item is what the total leaves,
    and a draw that leaves it outside the range is infeasible (not an error)."""
    import optuna

    from sim.config import TuneRange
    from sim.tune import Dim, Infeasible

    d = Dim("yukon_airways.start_money", ("yukon_airways", "start_money"), "list",
            TuneRange(low=0, high=6, total=10), [1, 2, 3, 4])
    assert d.params_of([1, 2, 3, 4]) == {"yukon_airways.start_money[0]": 1, "yukon_airways.start_money[1]": 2,
                                         "yukon_airways.start_money[2]": 3}
    ok = optuna.trial.FixedTrial({"yukon_airways.start_money[0]": 2, "yukon_airways.start_money[1]": 2,
                                  "yukon_airways.start_money[2]": 2})
    assert d.suggest(ok) == [2, 2, 2, 4]
    bad = optuna.trial.FixedTrial({"yukon_airways.start_money[0]": 0, "yukon_airways.start_money[1]": 0,
                                   "yukon_airways.start_money[2]": 0})
    with pytest.raises(Infeasible, match="leave 10 for the last item"):
        d.suggest(bad)
    assert d.changed([2, 2, 2, 4]) == 2 and d.size() == 7 ** 3


def test_miss_narrows_the_band_by_the_proofs_interval():
    """A record at 27.8 % with a 1.0-point interval at 2,000 games: on target (band 22-28 %) by
    its value, but the proof's 50,000 games give a half-width of 0.1 point, so it misses by
    0.0 only once the band is narrowed to 27.9 %: the miss counts 0; at 27.95 % it counts 0.05 pt."""
    from sim.tune import Row, miss

    r = Row("win_rate[seat=0]", 0.278, 0.273, 0.283, 0.22, 0.28, True)
    assert miss([r], 2000, 50_000) == 0.0
    r2 = Row("win_rate[seat=0]", 0.2795, 0.2745, 0.2845, 0.22, 0.28, True)
    assert miss([r2], 2000, 50_000) == pytest.approx(0.2795 - (0.28 - 0.005 * math.sqrt(2000 / 50_000)))
    assert miss([r2], 2000, 50_000, narrow=False) == 0.0
    assert miss([r2], 2000, 50_000, optimistic=True) == 0.0
    assert not r2.inside() and Row("x", 0.25, 0.24, 0.26, 0.22, 0.28, True).inside()
    from sim.tune import interval_miss

    assert interval_miss([r2]) == pytest.approx(0.2845 - 0.28)  # the proof's figure: 0 exactly when it passes
    assert interval_miss([Row("x", 0.25, 0.24, 0.26, 0.22, 0.28, True)]) == 0.0


def test_plan_refuses_a_confirm_seed_equal_to_the_search_seed(tmp_path):
    from sim.tune import plan_tune

    cfg = _config(tmp_path, extra="")
    text = cfg.read_text().replace("top = 2", "top = 2\nconfirm_seed = 20261210")
    cfg.write_text(text)
    with pytest.raises(ConfigError, match="must differ from the search's seed"):
        plan_tune(cfg)


def test_ctrl_c_keeps_the_finished_trials_and_resume_continues(tmp_path):
    """SIGINT during the search: exit 130, one line naming the trials kept in tune.db and the
    --resume command; nothing else written; --resume then plays on from there."""
    import os
    import signal
    import subprocess
    import sys

    cfg = _config(tmp_path, budget=400, sampler="random", rungs="[200, 800]")
    out = tmp_path / "out"
    env = {**os.environ, "COLUMNS": "200"}
    p = subprocess.Popen([sys.executable, "-m", "sim.cli", "tune", str(cfg), "--out", str(out), "--threads", "1"],
                         stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    seen = 0
    for line in p.stderr:
        if line.startswith("trial "):
            seen += 1
            if seen == 3:
                p.send_signal(signal.SIGINT)
                break
    _out, rest = p.communicate(timeout=120)
    assert p.returncode == 130, rest
    assert "finished trials kept in" in rest and "--resume" in rest
    assert sorted(x.name for x in out.iterdir()) == ["tune.db"]
    import optuna

    study = optuna.load_study(study_name="sim-tune", storage=f"sqlite:///{out / 'tune.db'}")
    S = optuna.trial.TrialState
    kept = len(study.get_trials(states=(S.COMPLETE, S.PRUNED)))
    assert kept >= 3 and not study.get_trials(states=(S.RUNNING,))
    r = runner.invoke(app, ["tune", str(cfg), "--out", str(out), "--threads", "1", "--quiet", "--resume",
                            "--budget", str(kept + 2)])
    assert r.exit_code == 0, r.output
    data = json.loads((out / "tune.json").read_text())
    assert data["counts"]["complete"] + data["counts"]["dropped"] >= kept + 2


def test_a_deck_searched_around_its_counts_keeps_its_total_and_tuned_toml_edits_each_count(tmp_path):
    """``deck = { around = 2, total = 108 }``: every count within 2 of the config's, the sum
    kept; tuned.toml changes the changed counts on their own lines (comments kept), and loads."""
    import optuna

    from sim.tune import Finalist, plan_tune
    from sim.tune_report import change_lines, tuned_toml

    src = (ROOT / "configs" / "clear_for_takeoff.toml").read_text(encoding="utf-8")
    cfg = tmp_path / "cft.toml"
    cfg.write_text(src + '\n[tune]\ntargets = [{ metric = "turns_mean", min = 120, max = 130 }]\n[tune.space]\n'
                   '"clear_for_takeoff.deck" = { around = 2, total = 108 }\n', encoding="utf-8")
    plan = plan_tune(cfg)
    (d,) = plan.dims
    assert d.kind == "table" and d.bounds(0) == (15.0, 19.0) and d.bounds(10) == (0.0, 4.0)  # A = 17, FG = 2
    names = d.item_names()
    params = {n: d.current[n.split(".")[-1]] for n in names[:-1]}
    params["clear_for_takeoff.deck.A"] = 15
    params["clear_for_takeoff.deck.B"] = 13
    deck = d.suggest(optuna.trial.FixedTrial(params))
    assert sum(deck.values()) == 108 and deck["A"] == 15 and deck["B"] == 13 and deck["ICE"] == 3
    f = Finalist(7, {d.key: deck}, [0.0], 2)
    assert change_lines(plan, f) == [("clear_for_takeoff.deck.A", "17", "15"), ("clear_for_takeoff.deck.B", "11", "13")]
    text = tuned_toml(plan, f, tmp_path / "out" / "tuned.toml")
    assert "A = 15 # sim tune: was 17" in text and "B = 13 # sim tune: was 11" in text and "C = 11\n" in text
    assert "# ASSUMPTION: six airlines" in text
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "tuned.toml").write_text(text, encoding="utf-8")
    from sim.config import load

    assert load(tmp_path / "out" / "tuned.toml").section.deck.A == 15


def test_a_linked_partner_follows_the_searched_leader(tmp_path):
    """[[tune.groups]] as in [sensitivity]: Now Boarding's speed_prices follow start_speed (a
    start speed of 4 drops the price of reaching 4), and a partner that is searched itself is
    refused."""
    nb = ROOT / "configs" / "now_boarding.toml"
    text = nb.read_text(encoding="utf-8").split("# `sim tune configs/now_boarding.toml`")[0]
    rest = nb.read_text(encoding="utf-8").split("[now_boarding]\n", 1)[1]
    group = ('\n[[tune.groups]]\nleader = "now_boarding.start_speed"\npartner = "now_boarding.speed_prices"\n'
             'follow = "list_front"\n')
    cfg = tmp_path / "nb.toml"
    cfg.write_text(text + '[tune]\n[tune.space]\n"now_boarding.start_speed" = { low = 2, high = 4 }\n' + group
                   + "\n[now_boarding]\n" + rest, encoding="utf-8")
    from sim.tune import plan_tune

    plan = plan_tune(cfg)
    ovs = {o.key: o.value for o in plan.overrides({"now_boarding.start_speed": 4})}
    assert ovs == {"now_boarding.start_speed": 4, "now_boarding.speed_prices": [7, 9, 11, 13, 15]}
    ovs = {o.key: o.value for o in plan.overrides({"now_boarding.start_speed": 2})}
    assert ovs["now_boarding.speed_prices"] == [3, 5, 7, 9, 11, 13, 15]
    cfg.write_text(text + '[tune]\n[tune.space]\n"now_boarding.start_speed" = { low = 2, high = 4 }\n'
                   '"now_boarding.speed_prices" = { around = 1 }\n' + group + "\n[now_boarding]\n" + rest,
                   encoding="utf-8")
    with pytest.raises(ConfigError, match="is searched itself"):
        plan_tune(cfg)


def test_tuned_toml_changes_only_changed_keys_and_never_comments_inside_an_inline_table(tmp_path):
    """A seat's policy (an inline table inside the seats array) changed: the comment goes on the
    array's line (a comment inside ``{ ... }`` is not TOML), unchanged searched keys keep their
    lines untouched, and the file reads back as the config the proof played."""
    import tomllib

    from sim.tune import Finalist, plan_tune
    from sim.tune_report import tuned_toml

    src = YA.read_text(encoding="utf-8").replace(
        '"yukon_airways.start_money" = { low = 0, high = 6 }',
        '"yukon_airways.start_money" = { low = 0, high = 6 }\n"seats[3].policy" = { choices = ["random", "greedy"] }')
    cfg = tmp_path / "ya.toml"
    cfg.write_text(src, encoding="utf-8")
    plan = plan_tune(cfg)
    values = plan.current()
    values["seats[3].policy"] = "greedy"
    values["yukon_airways.planes[0]"] = "draw"
    text = tuned_toml(plan, Finalist(4, values, [0.0], 2), tmp_path / "o" / "tuned.toml")
    data = tomllib.loads(text)
    assert data["seats"][3] == {"policy": "greedy"} and data["yukon_airways"]["planes"][0] == "draw"
    assert '] # sim tune: [3].policy was "random"' in text
    assert 'planes = ["draw", "draw", "hand_limit", "free_moves"] # sim tune: [0] was "bonus_fuel"; ASSUMPTION' in text
    assert "start_money = [1, 2, 3, 4] # RB Vorbereitung" in text  # searched, unchanged, untouched


def test_ladder_targets_play_the_skill_ladder_for_every_candidate(tmp_path):
    """A target on ``skill_ladder`` (issue 38: a band for every seat at every level): each
    candidate also plays the config's ladder on the same seed, and the proof's rows are the
    ladder's records of the finalist on the fresh seed, number for number."""
    from sim import skill_ladder
    from sim.cli_common import compile_checked

    text = DICE.read_text(encoding="utf-8").replace("games = 200_000", "games = 1_000")
    text += ('\n[skill]\nladder = ["random", "greedy"]\n\n[tune]\nbudget = 3\nrungs = [300]\nconfirm_games = 600\n'
             'top = 1\nsampler = "random"\n'
             'targets = [{ metric = "skill_ladder", by = { level = "greedy", seat = "*" }, min = 0.2, max = 0.5 }]\n'
             '[tune.space]\n"dice_race.bump" = { choices = [2, 6] }\n')
    cfg = tmp_path / "dl.toml"
    cfg.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    r = runner.invoke(app, ["tune", str(cfg), "--out", str(out), "--threads", "1", "--quiet"], env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    data = json.loads((out / "tune.json").read_text())
    fin = data["finalists"][0]
    labels = [row["label"] for row in fin["rows"]]
    assert labels == [f"skill_ladder[level=greedy,seat={s}]" for s in range(3)]
    run = compile_checked(cfg, sets=[f"dice_race.bump={fin['values']['dice_race.bump']}"], games=600,
                          seed=data["confirm_seed"])
    ladder = skill_ladder.plan(run.cfg, games=600)
    skill_ladder.play(ladder, threads=1)
    want = {f"skill_ladder[level=greedy,seat={x['by']['seat']}]": x["value"] for x in skill_ladder.records(ladder)
            if x["metric"] == "skill_ladder" and x["by"].get("level") == "greedy"}
    assert {row["label"]: row["value"] for row in fin["rows"]} == pytest.approx(want, rel=1e-12)
