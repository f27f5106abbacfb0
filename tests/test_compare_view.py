"""``sim compare`` for people (issue 13, item 5) and the common play flags of every command
that plays games (item 7).

The view tests use hand-made summaries (no kernel); the CLI tests play Clear for Takeoff's
default config at a few hundred games (the kernel compiles once per source change)."""

from __future__ import annotations

import base64
import html.parser
import io
import json
import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from sim.check import compare_summaries
from sim.check.compare_view import build_view, group_of, render, render_markdown
from sim.check.configdiff import diff_lines, effective_config
from sim.cli import app
from sim.stats import wilson

ROOT = Path(__file__).resolve().parents[1]
CFT = ROOT / "configs" / "clear_for_takeoff.toml"
runner = CliRunner()


def _prop(metric, by, x, n, kind="proportion"):
    lo, hi = wilson(x, n)
    return {"metric": metric, "by": by, "value": x / n, "ci_low": float(lo), "ci_high": float(hi), "n": n,
            "kind": kind}


def _summary(wins, seed=1, games=20_000, coop=False, extra=()):
    if coop:
        recs = [_prop("win_rate", {}, wins[0], games), _prop("loss_rate", {}, games - wins[0], games)]
        mode = "cooperative"
    else:
        recs = [_prop("win_rate", {"seat": s}, w, games) for s, w in enumerate(wins)]
        fpa = _prop("first_player_advantage", {}, wins[0], games)
        fpa.update(kind="difference", value=wins[0] / games - 1 / len(wins), ci_low=fpa["ci_low"] - 1 / len(wins),
                   ci_high=fpa["ci_high"] - 1 / len(wins))
        recs.append(fpa)
        mode = "competitive"
    recs.append(_prop("stall_rate", {}, 10, games))
    recs.append({"metric": "turns_mean", "by": {}, "value": 60.0, "ci_low": 59.8, "ci_high": 60.2, "n": games,
                 "kind": "mean", "sd": 12.0})
    recs += list(extra)
    return {"game": "fakegame", "title": "Fake", "run": "fake", "mode": mode, "seed": seed, "games": games,
            "config_hash": "h", "rules_version": "1", "seats": [f"p{i}" for i in range(len(wins))], "metrics": recs}


def _text(view, width):
    buf = io.StringIO()
    render(view, Console(file=buf, width=width, color_system=None, highlight=False))
    return buf.getvalue()


def test_view_is_grouped_with_the_verdict_first_and_fits_80_columns():
    a = _summary([5200, 5000, 5000, 4800])
    b = _summary([6200, 4800, 4800, 4200], extra=[_prop("loss_rate_very_long_metric_name_of_a_game", {"k": 1},
                                                        100, 20_000)])
    rep = compare_summaries(a, b, "baseline-config-with-a-long-name", "variant-config-with-a-long-name")
    view = build_view(rep, a, b, [("seats[1].weights.attack", "0.6", "0.7")])
    out = _text(view, 80)
    lines = out.splitlines()
    first = " ".join(" ".join(lines[:2]).split())
    assert first.startswith("verdict: SIGNIFICANT change in ") and "seat balance" in first
    assert max(len(ln) for ln in lines) <= 80, [ln for ln in lines if len(ln) > 80]
    assert "  seats[1].weights.attack: 0.6 -> 0.7" in lines
    # groups in their order, each opening with its one-line answer
    heads = [i for i, ln in enumerate(lines) if re.match(r"^(Seats|Skill|Length|Result and failures|"
                                                          r"Game-specific) ─", ln)]
    assert [lines[i].split()[0] for i in heads] == ["Seats", "Length", "Game-specific"]
    seat_answer = lines[heads[0] + 1]
    # seat 0: 26.0% -> 31.0%, +5.00 pp: the largest, significant, unpaired (no per-game outcomes)
    assert seat_answer.startswith("seat balance: SIGNIFICANT change in ") and "seat 0 +5.00 pp" in seat_answer
    assert lines[heads[1] + 1].startswith("game length: no significant change (largest: ")
    sig = [r for r in rep.rows if r.significant]
    assert f"in {len(sig)} of {sum(r.tested for r in rep.rows)} tested" in first
    # the seat spread: 26.0 - 24.0 = 2.00 pp in A, 31.0 - 21.0 = 10.00 pp in B
    spread = next(ln for ln in lines if ln.startswith("seat spread"))
    assert "+2.00 pp" in spread and "+10.00 pp" in spread and "+8.00 pp" in spread
    # a wide console shows more columns on the same rows
    wide = _text(view, 160)
    head = next(ln for ln in wide.splitlines() if ln.startswith("metric"))
    assert "detectable" in head and "ρ" in head
    assert "detectable" not in next(ln for ln in lines if ln.startswith("metric"))


def test_view_no_change_and_a_cooperative_game():
    a = _summary([8000], coop=True)
    rep = compare_summaries(a, _summary([8000], coop=True))
    view = build_view(rep, a, a, [], "")
    out = " ".join(_text(view, 80).split())
    # team win, team loss, stall rate, turns
    assert out.startswith("verdict: no significant change in any of the 4 tested metrics")
    assert "would have detected rates moving" in out
    assert "changed config keys: none" in out
    assert [g.key for g in view.groups] == ["length", "failures"]
    fail = next(g for g in view.groups if g.key == "failures")
    assert [v.short for v in fail.rows] == ["team win rate", "team loss rate"]
    assert fail.answer.startswith("team result and failures: no significant change (largest: ")
    md = render_markdown(view, ["x.png"], "plots/")
    assert md.index("## Verdict") < md.index("![x.png](plots/x.png)") < md.index("## Length")


def test_groups_of_metrics():
    from sim.check.stats import MetricRow

    def g(metric, by=None, **kw):
        return group_of(MetricRow(metric, by or {}, "proportion", 0.1, 0.1), **kw)

    assert g("win_rate", {"seat": 1}) == g("win_rate", {"start_pos": 0}) == g("rank_share", {"seat": 0, "rank": 2}) \
        == "seats"
    assert g("win_rate", {"policy": "greedy"}) == "skill" and g("win_rate") == "failures"
    assert g("reshuffles_mean") == g("stall_rate") == g("rounds_mean", rounds_metric="rounds_mean") == "length"
    assert g("loss_stage_share", {"stage": "x"}, failure=("loss_stage_share",)) == "failures"
    assert g("weather_share", {"weather": "SC"}) == "game"


def test_changed_keys_of_effective_configs():
    from sim.config import load
    from sim.overrides import load as load_set
    from sim.overrides import parse_sets

    a = effective_config(load(CFT))
    b = effective_config(load_set(CFT, parse_sets(["seats[2].weights.attack=0.7", "clear_for_takeoff.deck.FLR=3"])))
    assert diff_lines(a, b) == [("seats[2].weights.attack", "0.6", "0.7"), ("clear_for_takeoff.deck.FLR", "4", "3")]
    # an explicit default is no change; a policy swap shows the policy and its weights
    c = effective_config(load_set(CFT, parse_sets(["clear_for_takeoff.hand_size=9", "seats[3].policy=heuristic"])))
    lines = diff_lines(a, c)
    assert lines[0] == ("seats[3].policy", '"random"', '"heuristic"') and len(lines) == 2
    assert lines[1][0] == "seats[3].weights" and lines[1][1] == "{}" and lines[1][2].startswith("{ progress = 1.0, lead = 0.5")


class _Imgs(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.srcs, self.ids = [], []

    def handle_starttag(self, tag, attrs):
        d = dict(attrs)
        if tag == "img":
            self.srcs.append(d.get("src", ""))
        if "id" in d:
            self.ids.append(d["id"])


def test_cli_compare_80_columns_changed_keys_html_and_checks_games_default(tmp_path):
    out = tmp_path / "cmp"
    r = runner.invoke(app, ["compare", str(CFT), str(CFT), "--set", "checks.games=300", "--out", str(out),
                            "--threads", "1", "--quiet", "--set-b", "seats[2].weights.attack=0.7"],
                      env={"COLUMNS": "80"})
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert max(len(ln) for ln in lines) <= 80, [ln for ln in lines if len(ln) > 80]
    assert lines[0].startswith("verdict: ")
    words = " ".join(r.output.split())  # the side labels name the changed key: the line wraps at 80
    assert "A: seats[2].weights.attack=0.6 vs B: seats[2].weights.attack=0.7: 300 games each on seed 20261129" in words
    assert "  seats[2].weights.attack: 0.6 -> 0.7" in lines
    assert lines.index("changed config keys (A -> B), 1:") < next(
        i for i, ln in enumerate(lines) if ln.startswith("Seats ─"))
    data = json.loads((out / "compare.json").read_text())
    # --games defaults to A's [checks] games (300 here), not the config's 1,000,000
    assert data["a"]["games"] == data["b"]["games"] == 300
    assert data["changed_keys"] == [{"key": "seats[2].weights.attack", "a": "0.6", "b": "0.7"}]
    assert [g["key"] for g in data["groups"]] == ["seats", "skill", "length", "game"]
    labels = {r["label"] for r in data["metrics"]}
    assert "win_rate[seat=0]" in labels and not any(x.startswith("rank_share[") and "rank=1" in x for x in labels)
    paired = {r["label"]: r["test"] for r in data["metrics"] if r["label"] in ("win_rate[seat=0]", "turns_mean")}
    assert paired == {"win_rate[seat=0]": "mcnemar", "turns_mean": "paired t"}
    # compare.html: self-contained (every image a PNG data URI), parses, verdict anchored
    page = (out / "compare.html").read_text()
    p = _Imgs()
    p.feed(page)
    p.close()
    assert len(p.srcs) == 3 and "verdict" in p.ids
    for src in p.srcs:
        assert src.startswith("data:image/png;base64,")
        assert base64.b64decode(src.split(",", 1)[1])[:8] == b"\x89PNG\r\n\x1a\n"
    assert "src=\"compare_" not in page and "src=\"plots/" not in page
    md = (out / "compare.md").read_text()
    assert "![compare_win_rate_seat.png](compare_win_rate_seat.png)" in md
    assert sorted(x.name for x in out.iterdir()) == ["compare.html", "compare.json", "compare.md",
                                                     "compare_game_length.png", "compare_win_rate_policy.png",
                                                     "compare_win_rate_seat.png"]
    # an explicit --games wins
    r = runner.invoke(app, ["compare", str(CFT), str(CFT), "--games", "120", "--out", str(out), "--quiet"])
    assert r.exit_code == 0, r.output
    assert json.loads((out / "compare.json").read_text())["a"]["games"] == 120
    assert "changed config keys: none" in r.output


# --- the common flags on every command that plays games ------------------------------------

FLAGS = {"--quiet": [], "--seed": ["5"], "--threads": ["1"], "--backend": ["local"], "--workers": ["2"]}


@pytest.fixture(scope="module")
def base_file(tmp_path_factory):
    p = tmp_path_factory.mktemp("base") / "b.json"
    r = runner.invoke(app, ["baseline", str(CFT), "--games", "40", "--out", str(p), "--quiet"])
    assert r.exit_code == 0, r.output
    return p


def _argv(cmd, tmp, base):
    c = str(CFT)
    return {
        "baseline": ["baseline", c, "--games", "40", "--out", str(tmp / "b.json")],
        "check": ["check", c, "--games", "40", "--baseline", str(base), "--json", str(tmp / "c.json")],
        "compare": ["compare", c, c, "--games", "40", "--out", str(tmp / "cmp")],
        "sweep": ["sweep", c, "--param", "clear_for_takeoff.hand_size=8,9", "--games", "40", "--out",
                  str(tmp / "sw")],
        "skill": ["skill", c, "--policies", "random,greedy", "--games", "24", "--out", str(tmp / "sk")],
        "replay": ["replay", c, "--longest", "--games", "30"],
        "run": ["run", c, "--games", "40", "--out", str(tmp / "run")],
    }[cmd]


COMMANDS = ("baseline", "check", "compare", "sweep", "skill", "replay", "run")


@pytest.mark.parametrize("flag", list(FLAGS))
@pytest.mark.parametrize("cmd", COMMANDS)
def test_every_command_that_plays_takes_the_common_flags(cmd, flag, tmp_path, base_file, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, _argv(cmd, tmp_path, base_file) + [flag, *FLAGS[flag]])
    assert r.exit_code in ((0, 1) if cmd == "check" else (0,)), r.output
    if flag != "--seed":
        return
    if cmd == "baseline":
        assert json.loads((tmp_path / "b.json").read_text())["seed"] == 5
    elif cmd == "check":  # not the baseline's seed: compared unpaired, and it says so
        data = json.loads((tmp_path / "c.json").read_text())
        assert data["now"]["seed"] == 5 and any("compared unpaired" in n for n in data["notes"])
        assert not any(r["test"] in ("mcnemar", "paired t", "paired ratio") for r in data["metrics"])
    elif cmd == "compare":
        data = json.loads((tmp_path / "cmp" / "compare.json").read_text())
        assert data["a"]["seed"] == data["b"]["seed"] == 5
    elif cmd == "sweep":
        assert "on seed 5" in r.output
    elif cmd == "skill":
        assert json.loads((tmp_path / "sk" / "skill.json").read_text())["seed"] == 5
    elif cmd == "run":
        assert json.loads((tmp_path / "run" / "summary.json").read_text())["seed"] == 5


@pytest.mark.parametrize("cmd", COMMANDS)
def test_a_bad_common_flag_exits_2_before_playing(cmd, tmp_path, base_file, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for bad in (["--backend", "nope"], ["--workers", "0"], ["--threads", "0"]):
        r = runner.invoke(app, _argv(cmd, tmp_path, base_file) + bad)
        assert r.exit_code == 2 and bad[0] in r.output, (bad, r.output)
    assert not list(tmp_path.iterdir())


def test_compare_help_says_what_games_defaults_to():
    r = runner.invoke(app, ["compare", "--help"], env={"COLUMNS": "80"})
    text = " ".join(r.output.split())
    assert r.exit_code == 0 and "--games defaults to A's [checks] games" in text
    assert "(default: A's [checks] games, else A's games;" in text and "\\[" not in text
    for flag in ("--seed", "--threads", "--quiet", "--backend", "--workers", "--all", "--out"):
        assert flag in text


def test_cli_compare_a_report_folder_with_its_config_is_paired(tmp_path):
    run = tmp_path / "runA"
    r = runner.invoke(app, ["run", str(CFT), "--games", "200", "--out", str(run), "--quiet"])
    assert r.exit_code == 0, r.output
    out = tmp_path / "cmp"
    r = runner.invoke(app, ["compare", str(run), str(CFT), "--out", str(out), "--quiet"], env={"COLUMNS": "80"})
    assert r.exit_code == 0, r.output
    data = json.loads((out / "compare.json").read_text())
    # the config side played the folder's seed and games: the same games, paired, no change
    assert data["b"]["games"] == 200 and data["b"]["seed"] == data["a"]["seed"] == 20261129
    rows = {x["label"]: x for x in data["metrics"]}
    assert rows["win_rate[seat=0]"]["test"] == "mcnemar" and rows["turns_mean"]["test"] == "paired t"
    assert all(x["change"] in (0, None) for x in data["metrics"])
    assert data["changed_keys"] == [] and data["verdict"][0].startswith("verdict: no significant change")
