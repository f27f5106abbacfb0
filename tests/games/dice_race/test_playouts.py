"""Properties of many Dice Race playouts (RULES.md 3-6), and the replay / scenario API
playing exactly the batch's games."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sim.api import games_frame, replay
from sim.compile import load_run
from sim.games.base import TENSION_COLUMNS
from sim.games.dice_race.state import GameState
from sim.runner import run_games

CONFIG = Path(__file__).resolve().parents[3] / "configs" / "dice_race.toml"


@pytest.fixture(scope="module")
def frame():
    run = load_run(CONFIG, games=3000)
    return run, games_frame(run, run_games(run))


def test_outcomes_partition_the_games(frame):
    """RULES.md 5, 6: every race has one winner on the finish, or is a stall; the default
    rules never stall."""
    run, df = frame
    S, track = run.n_seats, run.cfg.section.track
    w = df["winner"].to_numpy()
    assert ((w >= 0) ^ (df["stalled"].to_numpy() == 1)).all() and (w >= 0).all()
    pos = np.stack([df[f"position_s{s}"].to_numpy() for s in range(S)], 1)
    rank = np.stack([df[f"rank_s{s}"].to_numpy() for s in range(S)], 1)
    assert (pos[np.arange(len(w)), w] == track).all()
    assert ((pos == track).sum(1) == 1).all() and (pos >= 0).all()
    assert (rank[np.arange(len(w)), w] == 1).all() and ((rank == 1).sum(1) == 1).all()


def test_bumps_made_equal_bumps_suffered(frame):
    """RULES.md 4: every bump has a maker and a victim. No deck: no card columns
    (``sim.metrics.CARD_COLUMNS``), so no reshuffle metrics either."""
    run, df = frame
    S = run.n_seats
    made = sum(df[f"bumps_s{s}"].to_numpy() for s in range(S))
    took = sum(df[f"bumped_s{s}"].to_numpy() for s in range(S))
    assert (made == took).all() and made.sum() > 0
    assert "reshuffles" not in df.columns and "starved_draws" not in df.columns
    assert sum(df[f"passes_s{s}"].sum() for s in range(S)) == 0  # no passes without exact_finish


def test_a_race_lasts_at_least_the_fastest_finish(frame):
    """RULES.md 3: at most 2 x sides spaces a turn: the winner needs track / 12 turns of its
    own at least (3 on 30 spaces), so a race of S seats at least 2S + 1 player turns."""
    run, df = frame
    assert df["turns"].min() >= 2 * run.n_seats + 1


def test_replay_of_game_n_equals_row_n(frame):
    """`sim replay` plays the batch's game: its row is row n of the run."""
    run, df = frame
    cols = run.game.column_names(run.n_seats)
    out = run_games(run.with_overrides(games=50))
    for g in (0, 13, 49):
        assert [replay(run, g).row[c] for c in cols] == out[g].tolist()


@pytest.mark.parametrize("seats", [["greedy", "heuristic", "random"],
                                   [{"policy": "rollout", "weights": {"rollouts": 4}}, "heuristic"]])
def test_the_scenario_api_driven_by_the_policies_is_the_batch_game(seats):
    """GameState.choose / apply / end_turn call the same rule and policy kernels with the same
    streams as the engine's loop: the game they play is row g of the batch, bit for bit."""
    run = load_run(CONFIG, games=20, seats=seats, rotate_seats=False)
    out = run_games(run)
    for g in range(8):
        gs = GameState.from_run(run, g)
        while not gs.over:
            gs.apply(gs.choose())
            gs.end_turn()
        row = gs.row()  # the game's own columns: the engine's tension columns follow them
        assert len(row) == out.shape[1] - len(TENSION_COLUMNS["competitive"]) - run.n_seats + 1
        assert row == out[g].tolist()[: len(row)], g


def test_exact_finish_races_end_with_passes_and_no_overshoot():
    """RULES.md D1 (exact_finish = true): the winner still lands on the finish; the seats
    pass some turns, and the races are longer than with D1 = false."""
    base = load_run(CONFIG, games=2000)
    exact = base.with_overrides(**{"dice_race": {**base.cfg.raw["dice_race"], "exact_finish": True}})
    a = games_frame(base, run_games(base))
    b = games_frame(exact, run_games(exact))
    S = base.n_seats
    assert sum(b[f"passes_s{s}"].sum() for s in range(S)) > 0
    assert b["turns"].mean() > a["turns"].mean()
    w = b["winner"].to_numpy()
    assert (b["stalled"].to_numpy() == 0).all() and (w >= 0).all()
