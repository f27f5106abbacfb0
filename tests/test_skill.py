"""`sim skill` (issue 10, item 3): the skill table of a competitive game (one seat of each
policy against a field of each policy, rotated seats, the same deals in every cell) and of a
cooperative game (each policy as the whole team). Its numbers are checked against `sim run`
of the same seat list, which must give the same win counts bit for bit."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.games import get_game
from sim.stats import wilson

ROOT = Path(__file__).resolve().parents[1]
CFT = ROOT / "configs" / "clear_for_takeoff.toml"
NB = ROOT / "configs" / "now_boarding.toml"
runner = CliRunner()

POLICIES = ["random", "greedy", "heuristic"]
ASKED = 300
GAMES = 312  # 300 rounded up to whole rotations of 4! = 24 seatings


def skill(*args: str):
    threads = [] if "--threads" in args else ["--threads", "1"]
    return runner.invoke(app, ["skill", *args, "--quiet", *threads])


@pytest.fixture(scope="module")
def cft_table(tmp_path_factory):
    out = tmp_path_factory.mktemp("skill") / "cft-skill"
    r = skill(str(CFT), "--policies", ",".join(POLICIES), "--games", str(ASKED), "--out", str(out))
    assert r.exit_code == 0, r.output
    return out, json.loads((out / "skill.json").read_text()), r.output


def cell(data: dict, policy: str, field: str | None = None) -> dict:
    by = {"policy": policy} if field is None else {"policy": policy, "field": field}
    hits = [m for m in data["metrics"] if m["by"] == by]
    assert len(hits) == 1, by
    return hits[0]


def cft_config(tmp_path: Path, seats: str, games: int, name: str) -> Path:
    """The shipped CfT config with its seat list and game count replaced."""
    text = CFT.read_text()
    text, k = re.subn(r"^seats = \[.*?^\]", f"seats = {seats}", text, count=1, flags=re.S | re.M)
    assert k == 1
    text = text.replace("games = 1_000_000", f"games = {games}", 1)
    p = tmp_path / f"{name}.toml"
    p.write_text(text)
    return p


def run_summary(config: Path, out: Path) -> dict:
    r = runner.invoke(app, ["run", str(config), "--out", str(out), "--threads", "1", "--quiet"])
    assert r.exit_code == 0, r.output
    return json.loads((out / "summary.json").read_text())


def policy_wins(summary: dict, policy: str) -> tuple[int, int]:
    rec = next(m for m in summary["metrics"] if m["metric"] == "win_rate" and m["by"] == {"policy": policy})
    return rec["successes"], rec["n"]


def test_records_have_the_documented_keys_and_wilson_intervals(cft_table):
    _, data, _ = cft_table
    assert data["format"] == "sim-skill/1" and data["game"] == "clear_for_takeoff"
    assert data["seed"] == 20261129 and data["games"] == GAMES and data["games_requested"] == ASKED
    assert data["rules_version"] and re.fullmatch(r"[0-9a-f]{16}", data["config_hash"])
    assert data["fair_share"] == 0.25 and data["policies"] == POLICIES
    assert len(data["metrics"]) == 9
    seen = set()
    for m in data["metrics"]:
        assert {"metric", "by", "value", "ci_low", "ci_high", "n"} <= set(m)
        assert m["metric"] == "skill_win_rate" and set(m["by"]) == {"policy", "field"}
        seen.add((m["by"]["policy"], m["by"]["field"]))
        assert m["n"] == GAMES
        assert m["value"] == m["successes"] / GAMES
        lo, hi = wilson(m["successes"], GAMES)
        assert m["ci_low"] == pytest.approx(float(lo), abs=1e-12)
        assert m["ci_high"] == pytest.approx(float(hi), abs=1e-12)
    assert seen == {(p, f) for p in POLICIES for f in POLICIES}


def test_a_cell_is_the_same_games_as_sim_run_of_its_seat_list(cft_table, tmp_path):
    """greedy in one seat against three heuristic seats, rotated: `sim run` with that seat list
    (same seed, same games) counts the same wins for greedy, bit for bit."""
    _, data, _ = cft_table
    cfg = cft_config(tmp_path, '["greedy", "heuristic", "heuristic", "heuristic"]', GAMES, "greedy_vs_heuristic")
    wins, n = policy_wins(run_summary(cfg, tmp_path / "run1"), "greedy")
    rec = cell(data, "greedy", "heuristic")
    assert (wins, n) == (rec["successes"], rec["n"])


def test_the_diagonal_is_the_fair_share_and_matches_sim_run(cft_table, tmp_path):
    """A policy against a field of itself with rotated seats wins about 1/S; the tested seat
    of the diagonal is the first entry (labelled here so `sim run` can count it)."""
    _, data, _ = cft_table
    for p in POLICIES:
        rec = cell(data, p, p)
        assert abs(rec["value"] - 0.25) < 0.08, (p, rec["value"])
    seats = '[{ policy = "heuristic", label = "tested" }, "heuristic", "heuristic", "heuristic"]'
    cfg = cft_config(tmp_path, seats, GAMES, "diag")
    wins, n = policy_wins(run_summary(cfg, tmp_path / "run2"), "tested")
    rec = cell(data, "heuristic", "heuristic")
    assert (wins, n) == (rec["successes"], rec["n"])


def test_skill_shows_in_the_table(cft_table):
    """The stronger policies win more against every field (what CfT's default mix shows:
    heuristic > greedy > random), and the paired comparisons agree with the cells."""
    _, data, _ = cft_table
    for f in POLICIES:
        assert cell(data, "random", f)["value"] < cell(data, "greedy", f)["value"] < cell(data, "heuristic", f)["value"]
    comps = data["comparisons"]
    assert len(comps) == 9
    for c in comps:
        a, b = cell(data, c["a"], c["field"]), cell(data, c["b"], c["field"])
        assert c["diff"] == pytest.approx(a["value"] - b["value"], abs=1e-12)
        assert c["only_a"] - c["only_b"] == a["successes"] - b["successes"]
        assert c["ci_low"] <= c["diff"] <= c["ci_high"] and c["p"] <= c["p_holm"] <= 1
    rh = next(c for c in comps if (c["field"], c["a"], c["b"]) == ("random", "random", "heuristic"))
    assert rh["significant"] and rh["diff"] < -0.2


def test_report_files_and_the_html_matrix(cft_table):
    out, data, output = cft_table
    for f in ("skill.json", "skill.md", "skill.html", "skill_heatmap.png"):
        assert (out / f).is_file(), f
    assert (out / "skill_heatmap.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    md = (out / "skill.md").read_text()
    assert md.splitlines()[2].startswith("**Skill matters")
    assert "1/4 = 25.0%" in md
    html = (out / "skill.html").read_text()
    # one file: the heat map embedded, no link to the PNG beside it
    assert "<table>" in html and '<img alt="win-rate heat map" src="data:image/png;base64,' in html
    assert 'src="skill_heatmap.png"' not in html
    row = re.search(r"<td[^>]*><strong>greedy</strong></td>(.*?)</tr>", html, re.S)
    assert row, "the matrix row of greedy"
    from sim.report.format import fmt_interval

    cells = re.findall(r"<td[^>]*>(.*?)</td>", row.group(1))
    assert [re.sub(r"</?em>", "", c) for c in cells] == [fmt_interval(cell(data, "greedy", f)) for f in POLICIES]
    assert "report:" in output and "heuristic" in output


@pytest.mark.parametrize("args, message", [
    (["--policies", "random,genius"], "unknown policy 'genius'"),
    (["--policies", "random,random"], "listed twice"),
    (["--policies", ","], "names no policy"),
    (["--games", "0"], "--games': must be at least 1"),
    (["--games", "-5"], "--games': must be at least 1"),
    (["--lookahead-games", "0"], "--lookahead-games': must be at least 1"),
    (["--backend", "cloud"], "--backend: must be one of"),
    (["--threads", "0"], "--threads: must be"),
], ids=lambda x: x if isinstance(x, str) else " ".join(x))
def test_bad_input_exits_2_and_writes_nothing(tmp_path, args, message):
    out = tmp_path / "out"
    r = skill(str(CFT), *args, "--out", str(out))
    assert r.exit_code == 2, r.output
    assert r.output.count("error:") == 1 and message in r.output, r.output
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_unwritable_or_foreign_out_exits_2_and_touches_nothing(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    r = skill(str(CFT), "--policies", "random", "--games", "24", "--out", str(blocker / "sub"))
    assert r.exit_code == 2 and "--out:" in r.output, r.output
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("keep")
    r = skill(str(CFT), "--policies", "random", "--games", "24", "--out", str(foreign))
    assert r.exit_code == 2 and "not a sim skill folder" in r.output, r.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "mine"]
    assert [p.name for p in foreign.iterdir()] == ["notes.txt"] and blocker.read_text() == "x"


def test_a_failed_write_leaves_nothing_and_an_old_table_as_it_was(tmp_path, monkeypatch):
    out = tmp_path / "t"
    r = skill(str(CFT), "--policies", "random,greedy", "--games", "24", "--out", str(out))
    assert r.exit_code == 0, r.output
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    assert set(before) == {"skill.json", "skill.md", "skill.html", "skill_heatmap.png"}

    import sim.skill

    def boom(*_a, **_k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(sim.skill, "render_markdown", boom)
    r = skill(str(CFT), "--policies", "random,greedy", "--games", "48", "--out", str(out))
    assert r.exit_code == 2 and "No space left on device" in r.output, r.output
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert [p.name for p in tmp_path.iterdir()] == ["t"]  # no temporary sibling left
    monkeypatch.undo()
    # an earlier skill folder is replaced (sim's own), with the same numbers for the same games
    r = skill(str(CFT), "--policies", "random,greedy", "--games", "24", "--out", str(out))
    assert r.exit_code == 0, r.output
    assert json.loads((out / "skill.json").read_text())["metrics"] == json.loads(before["skill.json"])["metrics"]
    assert [p.name for p in tmp_path.iterdir()] == ["t"]


def test_cooperative_game_is_a_one_dimensional_table(tmp_path):
    """Now Boarding: each policy plays the whole team; one record per policy, the team win
    count equal to `sim run` of the config with that team."""
    out = tmp_path / "nb"
    r = skill(str(NB), "--policies", "greedy,heuristic", "--games", "200", "--out", str(out))
    assert r.exit_code == 0, r.output
    data = json.loads((out / "skill.json").read_text())
    assert data["mode"] == "cooperative" and data["games"] == 200 and data["fair_share"] is None
    assert [m["by"] for m in data["metrics"]] == [{"policy": "greedy"}, {"policy": "heuristic"}]
    assert all(m["n"] == 200 for m in data["metrics"]) and len(data["comparisons"]) == 1
    text = NB.read_text().replace('seats = ["planner", "planner", "planner", "planner"]',
                                  'seats = ["heuristic", "heuristic", "heuristic", "heuristic"]', 1)
    text = re.sub(r"^games = .*$", "games = 200", text, count=1, flags=re.M)
    cfg = tmp_path / "nb_heuristic.toml"
    cfg.write_text(text)
    summary = run_summary(cfg, tmp_path / "nbrun")
    team = next(m for m in summary["metrics"] if m["metric"] == "win_rate" and m["by"] == {})
    assert team["successes"] == cell(data, "heuristic")["successes"]
    html = (out / "skill.html").read_text()
    assert "Team win rate" in html and "<table>" in html


def test_plan_gives_lookahead_cells_their_own_game_count(monkeypatch):
    """A cell in which a look-ahead policy plays (tested seat or field) gets --lookahead-games,
    the others --games, both rounded up to whole rotations; every cell is the config with its
    seats, games, seed and rotate_seats replaced. (No game of this branch has a look-ahead
    policy yet: heuristic stands in for one, and the cells are not compiled.)"""
    from types import SimpleNamespace

    import sim.skill
    from sim.config import load
    from sim.games.base import PolicyDef

    cfg = load(CFT)  # validated before heuristic turns into a stand-in look-ahead policy
    monkeypatch.setattr(PolicyDef, "lookahead", property(lambda self: self.name == "heuristic"))
    monkeypatch.setattr(sim.skill, "run_from_dict",
                        lambda raw, source: SimpleNamespace(cfg=SimpleNamespace(games=raw["games"]), raw=raw))
    table = sim.skill.plan(cfg, ["random", "heuristic"], games=100, lookahead_games=30)
    got = {(c.policy, c.field): c.run.raw["games"] for c in table.cells}
    assert got == {("random", "random"): 120, ("random", "heuristic"): 48,
                   ("heuristic", "random"): 48, ("heuristic", "heuristic"): 48}
    assert (table.games, table.lookahead_games) == (120, 48)
    raw = table.cells[1].run.raw
    assert raw["seats"] == [{"policy": "random"}] + [{"policy": "heuristic"}] * 3
    assert raw["rotate_seats"] is True and raw["seed"] == 20261129
    assert raw["clear_for_takeoff"] == cfg.raw["clear_for_takeoff"]


def test_an_entry_named_like_a_config_seat_plays_its_weights(tmp_path):
    from sim.config import load
    from sim.skill import entries_of

    seats = '[{ policy = "heuristic", label = "careful", weights = { attack = 0.5 } }, "greedy", "greedy", "random"]'
    cfg = load(cft_config(tmp_path, seats, 24, "labelled"))
    assert entries_of(cfg, ["careful", "greedy", "heuristic"]) == {
        "careful": {"policy": "heuristic", "label": "careful", "weights": {"attack": 0.5}},
        "greedy": {"policy": "greedy"},
        "heuristic": {"policy": "heuristic"},
    }
    assert list(entries_of(cfg, None)) == [p.name for p in get_game("clear_for_takeoff").policies]
    assert list(entries_of(cfg, None))[:3] == ["random", "greedy", "heuristic"]


def test_the_headline_difference_says_which_games_it_is_over():
    """Issue 40, item 4: a look-ahead cell plays fewer games (--lookahead-games 48) than the
    others (1,008); the headline's paired difference is over the 48 deals both played, so it
    gives both rates over those deals (their difference is the headline figure) and the cells'
    own game counts, which the table's rates are over."""
    from types import SimpleNamespace

    import numpy as np

    from sim.metrics import proportion
    from sim.skill import comparisons, verdict

    rng = np.random.default_rng(5)
    wins = {("rollout", "greedy"): rng.random(48) < 0.9, ("greedy", "greedy"): rng.random(1008) < 0.25,
            ("rollout", "rollout"): rng.random(48) < 0.25, ("greedy", "rollout"): rng.random(48) < 0.05}
    cells = [SimpleNamespace(policy=p, field=f, wins=w) for (p, f), w in wins.items()]
    table = SimpleNamespace(names=["rollout", "greedy"], competitive=True, n_seats=4, cells=cells)
    comps = comparisons(table)
    records = [proportion("skill_win_rate", {"policy": c.policy, "field": c.field}, int(c.wins.sum()),
                          int(c.wins.size)) for c in cells]
    text = verdict(table, records, comps)
    big = max(comps, key=lambda c: abs(c["diff"]))
    assert (big["field"], big["n"], big["n_a"], big["n_b"]) == ("greedy", 48, 48, 1008)
    ra, rb = wins[("rollout", "greedy")].mean(), wins[("greedy", "greedy")][:48].mean()
    assert big["diff"] == pytest.approx(ra - rb)
    want = (f"playing rollout instead of greedy moves one seat's win rate by {100 * (ra - rb):.1f} points "
            f"[{100 * big['ci_low']:.1f}, {100 * big['ci_high']:.1f}], on the 48 deals both played (rollout "
            f"{100 * ra:.1f}% − greedy {100 * rb:.1f}% of them; the table's cells are over 48 and 1,008 games).")
    assert text.endswith(want), text
    # equal cells: no such clause, the table and the headline are the same games
    same = SimpleNamespace(names=["rollout", "greedy"], competitive=True, n_seats=4,
                           cells=[SimpleNamespace(policy=c.policy, field=c.field, wins=c.wins[:48]) for c in cells])
    assert "deals both played" not in verdict(same, records, comparisons(same))
