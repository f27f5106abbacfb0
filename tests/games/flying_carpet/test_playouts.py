"""Properties of many playouts of the shipped configs (every policy)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sim.api import games_frame
from sim.compile import load_run
from sim.runner import run_games

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def default_frame():
    run = load_run(ROOT / "configs" / "flying_carpet.toml", games=2000)
    return run, games_frame(run, run_games(run))


def test_outcomes_partition_the_races(default_frame):
    """Every race has a winner (rank 1, exactly one) or is a stall; none both."""
    run, df = default_frame
    S = run.n_seats
    won = df["winner"].to_numpy() >= 0
    stalled = df["stalled"].to_numpy() == 1
    assert np.all(won ^ stalled)
    ranks = np.stack([df[f"rank_s{s}"].to_numpy() for s in range(S)], axis=1)
    assert np.all((ranks == 1).sum(axis=1) == won.astype(int))
    w = df["winner"].to_numpy()
    assert np.all(ranks[won, w[won]] == 1)
    assert np.all(df["winner_turn"].to_numpy()[won] <= df["turns"].to_numpy()[won])
    assert stalled.mean() < 0.01


def test_tokens_are_conserved_per_seat(default_frame):
    """Five at the start, two more per "two_tokens" face at most, none replaced otherwise."""
    run, df = default_frame
    for s in range(run.n_seats):
        used = df[f"tokens_used_s{s}"].to_numpy()
        left = df[f"tokens_left_s{s}"].to_numpy()
        gained = 2 * df[f"die_4_s{s}"].to_numpy()
        assert np.all(used + left <= 5 + gained) and np.all(used + left >= 5)


def test_policies_play_differently_and_greedy_beats_random(default_frame):
    run, df = default_frame
    wins = {}
    for label in ("greedy", "heuristic", "random"):
        app = w = 0
        for s in range(run.n_seats):
            at = (df[f"policy_s{s}"] == label).to_numpy()
            app += at.sum()
            w += (at & (df["winner"].to_numpy() == s)).sum()
        wins[label] = w / app
    assert wins["random"] < 0.05 < wins["greedy"]
    blown_random = np.mean([df[f"blown_off_s{s}"].to_numpy()[(df[f"policy_s{s}"] == "random").to_numpy()].mean()
                            for s in range(run.n_seats)])
    assert blown_random > 0.5


def test_race_length_is_plausible(default_frame):
    run, df = default_frame
    t = df["turns"].to_numpy()
    assert 20 < t.mean() < 120 and t.min() >= 4
    assert np.all(df["rounds"].to_numpy() >= t // run.n_seats - 1)


@pytest.mark.parametrize("config", ["flying_carpet_desert", "flying_carpet_crowded", "flying_carpet_tactical",
                                    "flying_carpet_hand3", "flying_carpet_3p", "flying_carpet_6p"])
def test_every_variant_plays_to_the_end(config):
    run = load_run(ROOT / "configs" / f"{config}.toml", games=300)
    df = games_frame(run, run_games(run))
    assert df["stalled"].mean() < 0.02
    if config == "flying_carpet_tactical":
        assert sum(df[f"star_landings_s{s}"].sum() for s in range(run.n_seats)) == 0


def test_invariants_hold_in_checked_playouts():
    run = load_run(ROOT / "configs" / "flying_carpet.toml")
    codes = [run.game.check_playout(run, g) for g in range(150)]
    assert codes == [0] * 150


def test_replay_draws_the_board_at_every_turn():
    """`sim replay`: every turn shows the 12 board rows, the hand and what was played."""
    run = load_run(ROOT / "configs" / "flying_carpet.toml")
    res = run.game.trace(run, 0)
    heads = [i for i, line in enumerate(res.lines) if line.startswith("turn ")]
    assert len(heads) == res.row["turns"]
    for i in heads:
        rows = res.lines[i + 1: i + 13]
        assert [int(r.split()[0]) for r in rows] == list(range(11, -1, -1))
        assert all(len(r.split()[1]) == 24 for r in rows)
        assert res.lines[i + 13].startswith("  hand: ")
    assert sum("plays" in line for line in res.lines) >= len(heads) - res.row["skipped_s0"] - res.row["skipped_s1"] \
        - res.row["skipped_s2"] - res.row["skipped_s3"]
    assert res.lines[-1].startswith("result: winner seat")
