"""Numbers that are the point: chance at set-up is fair, and with the advanced seaplane side
(no starting improvement) and rotated seats no seat is favoured."""

from __future__ import annotations

import numpy as np
from scipy.stats import chisquare

from sim.api import games_frame
from sim.compile import load_run
from sim.games.yukon_airways.state import GameState
from sim.runner import run_games
from tests.games.yukon_airways.conftest import ROOT


def test_setup_dice_faces_and_start_player_are_uniform(run4):
    """RB Vorbereitung: every die rolled (faces 1-6 equally likely); a random start player."""
    faces = np.zeros(6, int)
    first = np.zeros(4, int)
    for g in range(600):
        d = GameState.from_run(run4, g).dealt()
        for dock in d["dice"]:
            faces[dock] += 1
        first[d["turn_order"][0]] += 1
    assert faces.sum() == 600 * 15
    assert chisquare(faces).pvalue > 1e-3
    assert chisquare(first).pvalue > 1e-3


def test_advanced_side_rotated_seats_win_equally():
    run = load_run(ROOT / "configs" / "yukon_airways_advanced.toml", games=12_000)
    df = games_frame(run, run_games(run))
    wins = [int((df["winner"] == s).sum()) for s in range(4)]
    assert chisquare(wins).pvalue > 1e-3, wins
    assert all(abs(w / df.height - 0.245) < 0.03 for w in wins)


def test_the_first_player_advantage_is_the_start_players():
    """The start player is drawn (RB Vorbereitung), so seat 0 is not the first player: the
    first_player_advantage of a Yukon run is the start player's win rate (start_pos 0, counted
    independently here from the games frame) minus 1/4, one record, in the summary and in the
    paired per-game outcomes sim check compares."""
    from sim.api import summarize
    from sim.check.paired import per_game

    run = load_run(ROOT / "configs" / "yukon_airways.toml", games=2_000)
    df = games_frame(run, run_games(run))
    won = sum(((df[f"start_pos_s{s}"] == 0) & (df["winner"] == s)).to_numpy() for s in range(4))
    recs = [r for r in summarize(run, df)["metrics"] if r["metric"] == "first_player_advantage"]
    assert len(recs) == 1 and recs[0]["successes"] == int(won.sum())
    assert abs(recs[0]["value"] - (won.mean() - 0.25)) < 1e-12 and "start player" in recs[0]["doc"]
    seat0 = float((df["winner"] == 0).mean())
    assert abs(seat0 - won.mean()) > 0.05  # seat 0 (bonus fuel) is not the start player: they differ
    num, den = per_game(df, run.cfg, "competitive", "yukon_airways")["first_player_advantage"]
    assert (num == won).all() and (den == 1).all()
