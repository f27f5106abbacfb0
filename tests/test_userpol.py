"""User policy files (docs/policies.md, sim.userpol): a seat names ``file.py:function``; the
config is refused with a clear message for a missing file or function, a wrong signature or an
undeclared weight; ``sim policy-check`` rejects (exit 2) a policy that returns an illegal index
or reads hidden information; the compiled loop is cached per file content; the manifest and
the baseline record the file's hash."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.compile import load_run
from sim.config import load
from sim.errors import ConfigError

ROOT = Path(__file__).resolve().parents[1]
DR = ROOT / "configs" / "dice_race.toml"
CFT = ROOT / "configs" / "clear_for_takeoff.toml"
DR_EXAMPLE = ROOT / "configs" / "dice_race_example_policy.toml"
runner = CliRunner()

HEADER = "from sim.userpol import user_policy\n\n\n"


def write_case(tmp_path: Path, base: Path, policy_src: str, seat: str, name: str = "pols.py",
               others: str = '{ policy = "greedy" }, { policy = "heuristic" }') -> Path:
    """A copy of ``base`` in ``tmp_path`` whose seats are ``seat`` then ``others``, and the
    policy file ``name`` holding ``policy_src``."""
    (tmp_path / name).write_text(HEADER + policy_src)
    text = base.read_text()
    start = text.index("seats = [")
    end = text.index("]\n", start) + 2
    text = text[:start] + f"seats = [{seat}, {others}]\n" + text[end:]
    text = text.replace("#:schema ../docs/schema/", "#:schema ")
    cfg = tmp_path / "case.toml"
    cfg.write_text(text)
    return cfg


GOOD = '''@user_policy("dice_race", weights={"x": 1.0})
def far(view):
    best = 0
    for i in range(view.n):
        if view.actions[i, 2] > view.actions[best, 2]:
            best = i
    return best
'''


@pytest.mark.parametrize("seat, src, words", [
    ('{ policy = "nope.py:far" }', GOOD, ["seats[0].policy", "does not exist"]),
    ('{ policy = "pols.py:missing" }', GOOD, ["seats[0].policy", "defines no function 'missing'", "['far']"]),
    ('{ policy = "pols.py:plain" }', "def plain(view):\n    return 0\n", ["seats[0].policy", "not decorated"]),
    ('{ policy = "pols.py:two" }', '@user_policy("dice_race")\ndef two(view, extra):\n    return 0\n',
     ["seats[0].policy", "wrong signature", "one argument"]),
    ('{ policy = "pols.py:other" }', '@user_policy("clear_for_takeoff")\ndef other(view):\n    return 0\n',
     ["seats[0].policy", "a policy of 'clear_for_takeoff', not of 'dice_race'"]),
    ('{ policy = "pols.py:far", weights = { y = 2.0 } }', GOOD, ["seats[0].weights.y", "has no weight 'y'"]),
    ('{ policy = "pols.py:far", weights = { temperature = 1.0 } }', GOOD,
     ["seats[0].weights.temperature", "pols.py:far", "does not score its options"]),
    ('{ policy = "pols.py:far" }', GOOD.replace("    return best", "    return best +"),
     ["seats[0].policy", "syntax error"]),
])
def test_a_bad_policy_reference_is_refused_naming_the_file_and_key(tmp_path, seat, src, words):
    cfg = write_case(tmp_path, DR, src, seat)
    with pytest.raises(ConfigError) as e:
        load(cfg)
    assert e.value.file == str(cfg)
    for w in words:
        assert w in str(e.value), str(e.value)
    r = runner.invoke(app, ["policy-check", str(cfg)])
    assert r.exit_code == 2 and words[0] in r.output


def test_a_config_without_user_policies_imports_no_policy_file(tmp_path):
    """sim runs no code from a config that names no policy file: a .py beside it is never
    imported (it would raise)."""
    (tmp_path / "evil.py").write_text("raise SystemExit('imported!')\n")
    cfg = tmp_path / "plain.toml"
    cfg.write_text(DR.read_text().replace("#:schema ../docs/schema/", "#:schema "))
    assert load(cfg).seats[0].policy == "greedy"
    r = runner.invoke(app, ["policy-check", str(cfg)])
    assert r.exit_code == 2 and "names no user policy" in r.output


def test_the_key_changes_with_the_file_and_only_with_it(tmp_path):
    from sim.userpol import load_policy, set_key

    (tmp_path / "a.py").write_text(HEADER + GOOD)
    a = load_policy("a.py:far", tmp_path, "dice_race")
    (tmp_path / "b.py").write_text(HEADER + GOOD)  # the same content in another file: the same loop
    b = load_policy("b.py:far", tmp_path, "dice_race")
    (tmp_path / "c.py").write_text(HEADER + GOOD.replace("> view", ">= view"))
    c = load_policy("c.py:far", tmp_path, "dice_race")
    assert a.sha256 == b.sha256 != c.sha256
    assert set_key("dice_race", [a]) == set_key("dice_race", [b]) != set_key("dice_race", [c])
    assert set_key("dice_race", [a]) != set_key("clear_for_takeoff", [a])


ILLEGAL = '''@user_policy("dice_race")
def overshoot(view):
    return view.n
'''


def test_policy_check_rejects_an_illegal_index_naming_file_seat_turn_and_action(tmp_path):
    cfg = write_case(tmp_path, DR, ILLEGAL, '{ policy = "pols.py:overshoot" }')
    r = runner.invoke(app, ["policy-check", str(cfg), "--speed-games", "0"])
    assert r.exit_code == 2, r.output
    out = " ".join(r.output.split())
    assert f"{tmp_path / 'pols.py'}:overshoot chose action" in out
    assert "at seat" in out and "turn" in out and "where the legal choices are 0 .." in out
    # the run itself: the same error from the batch kernel, told by sim.userpol.user_error
    from sim.runner import run_games
    from sim.userpol import user_error

    run = load_run(cfg, games=50)
    with pytest.raises(Exception) as e:
        run_games(run, count=50, batch_size=50)
    err = user_error(e.value, run.users)
    assert err is not None and err.kind == "illegal" and "overshoot chose action" in str(err)
    # and sim run stops before it writes anything
    out_dir = tmp_path / "rep"
    r = runner.invoke(app, ["run", str(cfg), "--games", "50", "--out", str(out_dir), "--quiet"])
    assert r.exit_code == 2 and "overshoot chose action" in " ".join(r.output.split())
    assert not out_dir.exists()


PEEK = '''from sim.games.clear_for_takeoff.layout import H_DECK_N, P_OFF_DECK


@user_policy("clear_for_takeoff")
def peek(view):
    top = view.state[view.spec[0][P_OFF_DECK] + view.state[H_DECK_N] - 1]  # the draw pile's top: hidden
    return top % view.n
'''


def test_policy_check_rejects_a_policy_that_reads_the_draw_pile(tmp_path):
    """RB: the draw pile lies face down. A policy that chooses by the card on top of it changes
    its choice when the unseen cards are re-dealt (the rollout's rules.redeal)."""
    cfg = write_case(tmp_path, CFT, PEEK, '{ policy = "pols.py:peek" }',
                     others='{ policy = "greedy" }, { policy = "heuristic" }')
    r = runner.invoke(app, ["policy-check", str(cfg), "--speed-games", "0"])
    assert r.exit_code == 2, r.output
    out = " ".join(r.output.split())
    assert "peek reads hidden information" in out and "re-dealt" in out


def test_the_example_passes_and_a_second_process_compiles_nothing(tmp_path):
    r = runner.invoke(app, ["policy-check", str(DR_EXAMPLE), "--games", "100", "--speed-games", "200"])
    assert r.exit_code == 0, r.output
    assert "dice_race_example.py:cautious" in r.output and "ok" in r.output
    code = (
        "from numba.core.event import install_recorder\n"
        "from sim.compile import load_run\n"
        "from sim.runner import run_games\n"
        f"run = load_run({str(DR_EXAMPLE)!r}, games=20)\n"
        "with install_recorder('numba:compile') as rec:\n"
        "    run_games(run, count=20, batch_size=20)\n"
        "print(len(rec.buffer))\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "0"  # loaded from numba's cache: no compile event


def test_the_user_seat_plays_its_function(tmp_path):
    """The user seat plays its function, not its base policy: the same deals give other
    winners than with the base (greedy) in its seat."""
    from sim.runner import run_games

    run = load_run(DR_EXAMPLE, games=400)
    from sim.compile import base_run

    a = run_games(run, count=400, batch_size=400)
    b = run_games(base_run(run), count=400, batch_size=400)
    cols = run.game.column_names(run.n_seats)
    assert a.shape == b.shape
    assert not np.array_equal(a[:, cols.index("winner")], b[:, cols.index("winner")])


def test_manifest_report_and_baseline_record_the_policy_file(tmp_path):
    out = tmp_path / "rep"
    r = runner.invoke(app, ["run", str(DR_EXAMPLE), "--games", "300", "--out", str(out), "--quiet"])
    assert r.exit_code == 0, r.output
    man = json.loads((out / "manifest.json").read_text())
    (pf,) = man["policy_files"]
    import hashlib

    src = ROOT / "configs" / "policies" / "dice_race_example.py"
    assert pf["name"] == "policies/dice_race_example.py:cautious"
    assert pf["sha256"] == hashlib.sha256(src.read_bytes()).hexdigest()
    md = (out / "report.md").read_text()
    assert "policies/dice_race_example.py:cautious" in md and pf["sha256"] in md
    from sim.check.files import make_baseline
    from sim.check.gate import policy_files_note

    summary = json.loads((out / "summary.json").read_text())
    base = make_baseline(summary, man)
    assert base["policy_files"] == man["policy_files"]
    assert policy_files_note(base, man) is None
    changed = {**man, "policy_files": [{**pf, "sha256": "ab" * 32}]}
    note = policy_files_note(base, changed)
    assert note.startswith("user policy file changed") and pf["sha256"][:12] in note and "abababababab" in note
    assert policy_files_note({"metrics": []}, {}) is None  # an old baseline, a run without user policies


def test_skill_takes_a_user_policy(tmp_path):
    from sim.skill import plan

    cfg = load(DR)
    spec = "policies/dice_race_example.py:cautious"
    table = plan(cfg, ["greedy", spec], games=12)
    assert list(table.entries) == ["greedy", spec]
    users = [c.run.users for c in table.cells if c.run.users is not None]
    assert len(users) == 3  # every cell but greedy against greedy
    assert len({u.key for u in users}) == 1  # one binding, whichever seat names the file


WRITES = '''@user_policy("dice_race")
def cheat(view):
    view.state[0] = 0  # the view is read-only
    return 0
'''

RANDOM = '''import numpy as np


@user_policy("dice_race")
def dice(view):
    return int(np.random.random() * view.n)  # numba's own generator: not the seat's stream
'''


def test_policy_check_rejects_a_write_into_the_view_and_a_nondeterministic_policy(tmp_path):
    cfg = write_case(tmp_path, DR, WRITES, '{ policy = "pols.py:cheat" }')
    r = runner.invoke(app, ["policy-check", str(cfg), "--speed-games", "0"])
    assert r.exit_code == 2, r.output
    out = " ".join(r.output.split())
    assert "pols.py:cheat does not compile with numba" in out and "setitem" in out
    (tmp_path / "b").mkdir()
    cfg = write_case(tmp_path / "b", DR, RANDOM, '{ policy = "pols.py:dice" }')
    r = runner.invoke(app, ["policy-check", str(cfg), "--speed-games", "0"])
    assert r.exit_code == 2, r.output
    out = " ".join(r.output.split())
    assert "dice is not deterministic" in out and "game " in out


@pytest.mark.parametrize("game, function", [
    ("clear_for_takeoff", "vip_hoarder"), ("flying_carpet", "cards_first"), ("now_boarding", "no_seats"),
    ("yukon_airways", "never_pass"),
])
def test_the_aviation_games_examples_load_with_their_policy_file_recorded(game, function):
    """The four aviation games' examples (configs/policies/<game>_example.toml, beside their
    policy files: kept out of the shipped configs CI plays, docs/policies.md) validate, name
    their function, and record the file's sha256, without compiling anything."""
    import hashlib

    cfg_path = ROOT / "configs" / "policies" / f"{game}_example.toml"
    r = runner.invoke(app, ["validate", str(cfg_path)])
    assert r.exit_code == 0 and r.output.startswith("ok: ") and f"({game}, " in r.output, r.output
    run = load_run(cfg_path, games=4)
    src = ROOT / "configs" / "policies" / f"{game}_example.py"
    assert [(Path(f["path"]).name, f["name"], f["sha256"]) for f in run.policy_files] == [
        (src.name, f"{src.name}:{function}", hashlib.sha256(src.read_bytes()).hexdigest())]
    assert f"configs/policies/{game}_example.toml" in (ROOT / "docs" / "policies.md").read_text()
