"""The plain binding (sim.games.loop.bind): a run without a look-ahead seat plays the loop
compiled without the look-ahead branch, and it plays the very same games as the full binding:
result rows, invariant checks and traced events of every game's default config, bit for bit.
(It exists for compile time: issue 34; the full binding's rows here come from calling its
``play_slice`` directly.)"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from sim.compile import load_run, run_from_dict
from sim.games import available, get_game

ROOT = Path(__file__).resolve().parents[1]


def _kernels(run):
    import importlib

    return importlib.import_module(f"{run.game.package}.hooks").KERNELS


def _default(game: str):
    run = load_run(ROOT / "configs" / f"{game}.toml", games=60)
    if any(p.lookahead and p.id in set(run.entry_policy.tolist()) for p in run.game.policies):
        pytest.skip(f"{game}'s default config has a look-ahead seat")
    return run


@pytest.mark.parametrize("game", available())
def test_a_run_without_a_lookahead_seat_plays_the_plain_binding_and_the_same_games(game):
    run = _default(game)
    k = _kernels(run)
    batch = k.play_batch
    assert batch.kernel_for(run.entry_policy) is batch.plain
    assert batch.plain is not batch.kernel
    cols = len(run.game.column_names(run.n_seats))
    rows = {}
    for name, kern in (("full", batch.kernel), ("plain", batch.plain)):
        out = np.zeros((60, cols), np.int32)
        kern(run.spec, run.entry_policy, run.entry_weights, run.perms, np.int64(run.seed), np.int64(0),
             np.int64(60), out)
        rows[name] = out
    assert rows["full"].any()
    np.testing.assert_array_equal(rows["full"], rows["plain"])
    sh = k.shared_of(run.spec)
    args = (run.spec, sh, run.entry_policy, run.entry_weights, run.perms, np.int64(run.seed))
    for g in range(3):
        assert k.check_index(*args, np.int64(g)) == k.plain_check_index(*args, np.int64(g)) == 0


@pytest.mark.parametrize("game", available())
def test_a_lookahead_seat_takes_the_full_binding(game):
    gdef = get_game(game)
    look = [p for p in gdef.policies if p.lookahead]
    if not look:
        pytest.skip(f"{game} has no look-ahead policy")
    plain = next(p.name for p in gdef.policies if not p.lookahead)
    seats = [plain] * gdef.min_seats
    seats[-1] = {"policy": look[0].name, "weights": {"rollouts": 1, "depth": 1}}
    if gdef.mode == "cooperative":
        seats = [seats[-1]] * gdef.min_seats
    run = run_from_dict({"game": game, "name": "t", "games": 2, "seed": 3, "seats": seats}, "<test>")
    k = _kernels(run)
    assert k.play_batch.kernel_for(run.entry_policy) is k.play_batch.kernel
    assert not k.plain_for(run.entry_policy)


@pytest.mark.parametrize("game", available())
def test_the_plain_binding_traces_the_same_game(game):
    run = _default(game)
    k = _kernels(run)
    assert k.plain_for(run.entry_policy)
    state_p, ev_p, snaps_p, row_p = k.run_traced(run, 1)
    full = replace(k, plain_check_index=None, plain_traced_index=None)
    assert not full.plain_for(run.entry_policy)
    state_f, ev_f, snaps_f, row_f = full.run_traced(run, 1)
    assert len(ev_p) > 0
    for a, b in ((state_p, state_f), (ev_p, ev_f), (snaps_p, snaps_f), (row_p, row_f)):
        np.testing.assert_array_equal(a, b)


def test_a_plain_run_compiles_no_lookahead_decision(tmp_path):
    """What the plain binding exists for: a fresh process with an empty cache plays a greedy
    Dice Race run and an invariant-checked game, and numba compiled ``_step_lookahead`` (the
    look-ahead seat's decision, which reaches the rollout search) not once, nor ``_step`` (the
    plain seats' decision as a function of its own: a game that checks after every turn,
    ``CHECK_BY_TURN``, plays its checked game with ``_turns`` too, which inlines the decision);
    a rollout seat then compiles both. (``LOOKAHEAD_ON`` and ``PLAIN_BINDING`` are constants that
    numba prunes before typing.)"""
    import os
    import subprocess
    import sys

    code = """
import tomllib
from pathlib import Path
from sim.compile import run_from_dict
from sim.runner import run_games
from sim.games.dice_race import hooks
raw = tomllib.loads(Path(%r).read_text())
for k in ("checks", "sweep"):
    raw.pop(k, None)
raw["games"] = 4
step = hooks.KERNELS.play_batch.plain.py_func.__globals__["_step_lookahead"]
plain_step = hooks.KERNELS.play_batch.plain.py_func.__globals__["_step"]
raw["seats"] = ["greedy"] * len(raw["seats"])
run = run_from_dict(raw, "plain")
run_games(run)
assert run.game.check_playout(run, 0) == 0
print(len(step.overloads), len(plain_step.overloads))
raw["seats"][0] = {"policy": "rollout", "weights": {"rollouts": 1, "depth": 1}}
run_games(run_from_dict(raw, "full"))
print(len(step.overloads), len(plain_step.overloads))
""" % str(ROOT / "configs" / "dice_race.toml")
    env = {**os.environ, "SIM_CACHE_DIR": str(tmp_path / "cache"), "SIM_PREBUILT": "0"}
    env.pop("NUMBA_CACHE_DIR", None)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["0", "0", "1", "1"]
