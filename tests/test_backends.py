"""Backends (sim.backends): every registered backend gives the local backend's result matrix
bit for bit (DESIGN.md: backends change nothing in the results), and the registry is the one
place that names them."""

from pathlib import Path

import numpy as np
import pytest

from sim.backends import BACKENDS, get_backend
from sim.backends import dask as dask_backend
from sim.backends import local as local_backend
from sim.compile import load_run
from sim.games import available
from sim.runner import run_games
from tests.conftest import runner_config

ROOT = Path(__file__).resolve().parents[1]


def test_registry_names_local_and_dask_and_rejects_others():
    assert list(BACKENDS) == ["local", "dask"]
    assert get_backend("local") is local_backend.play and get_backend("dask") is dask_backend.play
    with pytest.raises(ValueError, match="unknown backend 'spark'; one of local, dask"):
        get_backend("spark")


@pytest.mark.parametrize("name", available())
def test_every_backend_equals_the_in_process_runner(name):
    run = load_run(runner_config(name), games=1500)
    expected = run_games(run)
    local = get_backend("local")(run, 1, None)
    assert local.dtype == np.int32 and np.array_equal(local, expected), name
    seen = []
    # one cluster start per game is slow: keep chunks small so every worker plays several
    remote = dask_backend.play(run, 2, seen.append, chunk=400)
    assert remote.shape == expected.shape and np.array_equal(remote, expected), name
    assert sorted(seen) == [300, 400, 400, 400]
