"""Mistakes (issue 38): the engine's ``mistake`` weight on every policy of every game
(``sim.games.base.ENGINE_WEIGHTS``, ``sim.games.engine.erring``, the dispatch of
``sim.games.loop``).

* ``mistake = 1`` plays exactly as the game's ``random`` policy on the same deals (every
  built-in policy, the look-ahead one included): the engine hands every decision to the random
  policy and draws no coin, so the random policy's own draws are the same;
* ``mistake = 0`` (explicit) plays bit for bit as a seat without the weight (no coin drawn;
  the committed baselines, ``make check-baselines``, say the same of every shipped config);
* a mistake never changes a deal: the dealt cards / dice of games 0-99 are the same with
  every seat erring half the time, while the games played differ;
* the config accepts ``mistake`` on any seat, refuses a value outside [0, 1] naming the key,
  and names a seat that errs apart from one of the same policy that does not.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sim.compile import compile_run, load_run, run_from_dict
from sim.errors import ConfigError
from sim.games import available, get_game
from sim.games.engine import W_MISTAKE
from sim.runner import run_games
from tests.conftest import runner_config

ROOT = Path(__file__).resolve().parents[1]
GAMES = available()


def _seat(entry, **weights) -> dict:
    """A config seat entry (a policy name or a table) with ``weights`` added."""
    d = {"policy": entry} if isinstance(entry, str) else {**entry}
    d["weights"] = {**d.get("weights", {}), **weights}
    return d


def _tiny(gdef, name: str):
    """A seat playing ``name``; a look-ahead policy gets the smallest budget."""
    if gdef.policy(name).lookahead:
        return {"policy": name, "weights": {"rollouts": 1, "depth": 1}}
    return name


def _with_seat0(run, entry):
    """``run`` with its first seat (cooperative: every seat, the team's one policy) replaced."""
    seats = list(run.cfg.raw["seats"])
    if run.game.mode == "cooperative":
        seats = [entry] * len(seats)
    else:
        seats[0] = entry
    return compile_run(run.cfg.with_overrides(seats=seats))


@pytest.mark.parametrize("name", GAMES)
def test_mistake_one_plays_exactly_as_random(name):
    """Every non-random policy with ``mistake = 1`` gives the result rows of ``random`` in the
    same seat, game for game (the issue's "with mistake=1.0 that policy plays exactly as random
    does on the same deals")."""
    gdef = get_game(name)
    base = load_run(runner_config(name), games=60)
    want = run_games(_with_seat0(base, "random"))
    for p in gdef.policies:
        if p.name == "random":
            continue
        got = run_games(_with_seat0(base, _seat(_tiny(gdef, p.name), mistake=1.0)))
        assert np.array_equal(got, want), f"{name}: {p.name} with mistake = 1 does not play as random"


@pytest.mark.parametrize("name", GAMES)
def test_mistake_zero_draws_nothing(name):
    """``mistake = 0`` on every seat is the game as shipped, bit for bit."""
    base = load_run(runner_config(name), games=60)
    seats = [_seat(s, mistake=0.0) for s in base.cfg.raw["seats"]]
    assert np.array_equal(run_games(compile_run(base.cfg.with_overrides(seats=seats))), run_games(base))


@pytest.mark.parametrize("name", GAMES)
def test_mistakes_never_change_a_deal(name):
    """Every seat erring half the time: the dealt cards (dice, weather plan ...) of games 0-99
    are the same as without mistakes; the games themselves differ."""
    gdef = get_game(name)
    base = load_run(runner_config(name), games=100)
    seats = [_seat(s, mistake=0.5) for s in base.cfg.raw["seats"]]
    erring = compile_run(base.cfg.with_overrides(seats=seats))
    assert (erring.entry_weights[:, W_MISTAKE] == 0.5).all()
    for g in range(100):
        assert gdef.GameState.from_run(erring, g).dealt() == gdef.GameState.from_run(base, g).dealt(), f"game {g}"
    assert not np.array_equal(run_games(erring), run_games(base))


def test_mistakes_cost_wins_in_dice_race():
    """A heuristic seat that errs half the time against three heuristic seats wins less than
    its fair share, seeded (4,000 games, rotated seats: 25 % without mistakes)."""
    raw = {"game": "dice_race", "games": 4000, "seed": 5, "rotate_seats": True,
           "seats": [{"policy": "heuristic", "label": "erring", "weights": {"mistake": 0.5}},
                     "heuristic", "heuristic", "heuristic"], "dice_race": {}}
    run = run_from_dict(raw, "<mistakes>")
    out = run_games(run)
    cols = run.game.column_names(run.n_seats)
    winner = out[:, cols.index("winner")]
    perms = run.perms
    erring_seat = np.array([list(perms[g % perms.shape[0]]).index(0) for g in range(out.shape[0])])
    share = float(np.mean(winner == erring_seat))
    assert share < 0.22, share


# ---- the config --------------------------------------------------------------------------
def test_every_policy_takes_mistake_and_a_rollout_keeps_its_budget_check():
    raw = {"game": "clear_for_takeoff", "seats": [
        {"policy": "rollout", "weights": {"rollouts": 2, "depth": 1, "mistake": 0.25}},
        {"policy": "greedy", "weights": {"mistake": 0.1}}, "heuristic", "random"], "clear_for_takeoff": {}}
    run = run_from_dict(raw, "<mistakes>")
    assert list(run.entry_weights[:, W_MISTAKE]) == [0.25, 0.1, 0.0, 0.0]
    assert run.labels == ["rollout (mistake 0.25)", "greedy (mistake 0.1)", "heuristic", "random"]
    bad = {**raw, "seats": [{"policy": "rollout", "weights": {"rollouts": 1.5}}, "greedy"]}
    with pytest.raises(ConfigError, match="look-ahead budget"):
        run_from_dict(bad, "<mistakes>")


@pytest.mark.parametrize("value", [-0.1, 1.5])
def test_a_mistake_outside_zero_to_one_is_refused_naming_the_key(value):
    raw = {"game": "dice_race", "seats": [{"policy": "greedy", "weights": {"mistake": value}}, "greedy"]}
    with pytest.raises(ConfigError) as e:
        run_from_dict(raw, "cfg.toml")
    assert e.value.key == "seats[0].weights.mistake" and "probability from 0 to 1" in str(e.value)


def test_an_unknown_weight_names_the_engine_weights():
    raw = {"game": "dice_race", "seats": [{"policy": "greedy", "weights": {"mistak": 0.1}}, "greedy"]}
    with pytest.raises(ConfigError) as e:
        run_from_dict(raw, "cfg.toml")
    assert "did you mean 'mistake'" in str(e.value) and "every policy takes ['mistake', 'temperature']" in str(e.value)


def test_a_seat_that_errs_is_named_apart_from_one_that_does_not():
    """Two greedy seats, one erring: by-policy metrics must not merge them, so the erring seat
    is named ``greedy (mistake 0.2)`` (a label, when given, wins)."""
    raw = {"game": "dice_race", "seats": [{"policy": "greedy", "weights": {"mistake": 0.2}}, "greedy"]}
    assert run_from_dict(raw, "<m>").labels == ["greedy (mistake 0.2)", "greedy"]
    raw["seats"][0]["label"] = "novice"
    assert run_from_dict(raw, "<m>").labels == ["novice", "greedy"]
