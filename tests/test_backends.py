"""The dask backend (worker processes) gives the local backend's result matrix bit for bit
(DESIGN.md: backends change nothing in the results)."""

from pathlib import Path

import numpy as np
import pytest

from sim.backends.dask import run_games_dask
from sim.config import load
from sim.games import available, get_game
from sim.runner import run_games

pytest.importorskip("distributed")
ROOT = Path(__file__).resolve().parents[1]


def test_dask_backend_equals_local_for_every_game():
    cfgs = [load(ROOT / "configs" / f"{name}.toml").with_overrides(games=1500) for name in available()]
    # one cluster start per game is slow: keep chunks small so every worker plays several
    for cfg in cfgs:
        local = run_games(cfg, get_game(cfg.game))
        remote = run_games_dask(cfg, workers=2, chunk=400)
        assert remote.shape == local.shape
        assert np.array_equal(remote, local), cfg.game
