"""Layer 1 of the test plan, over every registered game (DESIGN.md "Tests"): a game is
covered here the day it registers.

* thousands of playouts with the invariants checked after every step (every card and piece
  in exactly one place, no slot over capacity, ...), with every built-in policy;
* identical results with 1 and 2 threads and with different batch sizes;
* `sim replay` of game N reproduces row N of the run;
* the result matrix has the columns the game declares and the common columns;
* common random numbers: other policies on the same seed get the same deal and play
  another game; another seed gives other games;
* the scenario API (`GameState`) drives a game to its end through the contract methods,
  with the invariants holding after every step.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from sim.api import games_frame, replay
from sim.compile import compile_run, load_run, run_from_dict
from sim.games import available, get_game
from sim.games.base import GameStateBase
from sim.runner import run_games, set_threads
from tests.conftest import runner_config

ROOT = Path(__file__).resolve().parents[1]
GAMES = available()


def default_run(name: str, **over):
    return load_run(ROOT / "configs" / f"{name}.toml", **over)


def seat_of(gdef, name: str):
    """A seat entry playing ``name``: a look-ahead policy gets a tiny budget (one
    simulation per candidate, two turns or one round deep) so contract tests stay fast."""
    if gdef.policy(name).lookahead:
        return {"policy": name, "weights": {"rollouts": 1, "depth": 2 if gdef.mode == "competitive" else 1}}
    return name


def policy_mixes(gdef) -> list[list]:
    """Seat lists covering every built-in policy (cooperative games: one policy per team)."""
    names = [seat_of(gdef, p.name) for p in gdef.policies]
    if gdef.mode == "cooperative":
        return [[n] * 4 if gdef.max_seats >= 4 else [n] * gdef.min_seats for n in names]
    mixes = [[n] * gdef.min_seats for n in names]
    mixes.append((names * gdef.max_seats)[: gdef.max_seats])
    return mixes


@pytest.mark.parametrize("name", GAMES)
def test_invariants_hold_after_every_step(name):
    gdef = get_game(name)
    base = default_run(name).cfg.raw
    total = 0
    mixes = policy_mixes(gdef)
    n = max(600, -(-2000 // len(mixes)))
    for seats in mixes:
        run = run_from_dict({**base, "seats": seats, "rotate_seats": False, "name": f"contract-{name}"},
                            f"<{name} {seats}>")
        codes = [gdef.check_playout(run, g) for g in range(n)]
        bad = [(g, c) for g, c in enumerate(codes) if c != 0]
        assert not bad, f"{name} {seats}: invariant codes (game, code) {bad[:5]}"
        total += n
    assert total >= 2000


@pytest.mark.parametrize("name", GAMES)
def test_columns_and_common_columns(name):
    gdef = get_game(name)
    run = default_run(name, games=50)
    out = run_games(run)
    cols = gdef.column_names(run.n_seats)
    assert out.shape == (50, len(cols)) and out.dtype == np.int32
    for c in ("turns", "stalled"):
        assert c in cols
    # the card columns are declared by the games with a deck, both or neither (sim.metrics.CARD_COLUMNS)
    assert ("reshuffles" in cols) == ("starved_draws" in cols)
    if gdef.mode == "competitive":
        assert "winner" in cols and all(f"rank_s{s}" in cols for s in range(run.n_seats))
    else:
        assert "team_win" in cols
    df = games_frame(run, out)
    assert df["turns"].min() > 0
    assert set(df["stalled"].unique().to_list()) <= {0, 1}


@pytest.mark.parametrize("name", GAMES)
def test_identical_results_for_any_thread_count_and_batch_size(name):
    n = 3000
    run = load_run(runner_config(name), games=n)
    try:
        set_threads(1)
        one = run_games(run, batch_size=n)
        set_threads(2)
        two = run_games(run, batch_size=n)
        small = run_games(run, batch_size=217)
        # a later slice of the game range equals the same rows of the whole run
        part = run_games(run, first_index=1000, count=500, batch_size=64)
        sizes: list[int] = []
        paced = run_games(run, on_batch=sizes.append)  # calls sized by time (sim.runner.Pacer)
    finally:
        set_threads(None)
    assert np.array_equal(one, paced) and sum(sizes) == n and sizes[0] == 16, sizes[:3]
    assert np.array_equal(one, two)
    assert np.array_equal(one, small)
    assert np.array_equal(one[1000:1500], part)
    # and the games are not all alike
    assert len(np.unique(one[:, 0])) > 10


@pytest.mark.parametrize("name", GAMES)
def test_replay_of_game_n_equals_row_n(name):
    run = default_run(name, games=40)
    out = run_games(run)
    cols = run.game.column_names(run.n_seats)
    for g in (0, 7, 39):
        res = replay(run, g)
        assert [res.row[c] for c in cols] == out[g].tolist(), f"game {g}"
        assert len(res.lines) > 5


@pytest.mark.parametrize("name", GAMES)
def test_another_seed_gives_other_games(name):
    run = default_run(name, games=200)
    a = run_games(run)
    b = run_games(run.with_overrides(seed=run.seed + 1))
    assert not np.array_equal(a, b)


@pytest.mark.parametrize("name", GAMES)
def test_other_policies_get_the_same_deal(name):
    """DESIGN Determinism: chance and policy draw from separate streams, so what chance deals
    game g does not depend on who plays (common random numbers); the games then differ."""
    gdef = get_game(name)
    base = default_run(name, games=60)
    names = [seat_of(gdef, p.name) for p in gdef.policies]
    deals, rows = [], []
    for pol in (names[0], names[-1]):
        run = compile_run(base.cfg.with_overrides(seats=[pol] * base.n_seats, rotate_seats=False))
        deals.append([gdef.GameState.from_run(run, g).dealt() for g in range(5)])
        rows.append(run_games(run))
    assert deals[0] == deals[1]
    assert deals[0][0] != deals[0][1]  # and the deal is not the same for every game
    assert not np.array_equal(rows[0], rows[1])


@pytest.mark.parametrize("name", GAMES)
def test_game_state_contract_plays_a_game_to_its_end(name):
    """Every GameState offers the contract's methods and drives a whole game through them,
    with the kernel's invariants holding after every action and every turn end."""
    gdef = get_game(name)
    state_cls = gdef.GameState
    assert issubclass(state_cls, GameStateBase)
    run = default_run(name)
    pick = random.Random(7)
    for g in (0, 1):
        gs = state_cls.from_run(run, g)
        assert gs.invariants() == 0 and not gs.over
        snap = gs.snapshot()
        assert isinstance(snap, dict) and snap
        acted = 0
        for _ in range(int(run.cfg.turn_cap) + 1):
            if gs.over:
                break
            acts = gs.legal_actions()
            assert all(isinstance(a, tuple) and all(isinstance(x, int) for x in a) for a in acts)
            if acts:
                gs.apply(pick.choice(acts))
                acted += 1
                assert gs.invariants() == 0
            gs.end_turn()
            assert gs.invariants() == 0
        assert gs.over, f"{name} game {g} did not end within the turn cap"
        assert acted > 0
        assert gs.snapshot() != snap


@pytest.mark.parametrize("name", GAMES)
def test_game_state_refuses_an_action_that_is_not_legal(name):
    run = default_run(name)
    gs = run.game.GameState.from_run(run, 0)
    legal = set(gs.legal_actions())
    bogus = (10_000, 10_000, 10_000, 10_000)
    assert bogus not in legal
    before = gs.snapshot()
    with pytest.raises(ValueError):
        gs.apply(bogus)
    assert gs.snapshot() == before


@pytest.mark.parametrize("name", GAMES)
def test_game_state_constructor_convention(name):
    """One constructor convention in every game (docs/adding-a-game.md, "Names"):
    ``GameState(seats=N, seed=S, game_index=G, **section)`` is game G of a run of N greedy
    seats on seed S with the game's default table, the same position as ``from_run`` gives."""
    gdef = get_game(name)
    n = max(gdef.min_seats, 3)
    raw = {"game": name, "seats": ["greedy"] * n, "seed": 3, name: {}}
    a = gdef.GameState(seats=n, seed=3, game_index=1)
    b = gdef.GameState.from_run(run_from_dict(raw, "<test>"), 1)
    assert a.dealt() == b.dealt()
    assert a.snapshot() == b.snapshot()
