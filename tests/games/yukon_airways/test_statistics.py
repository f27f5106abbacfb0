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
