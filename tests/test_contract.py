"""Layer 1 of the test plan, over every registered game (DESIGN.md "Tests"):

* thousands of playouts with the invariants checked after every step (every card and piece
  in exactly one place, no slot over capacity, ...), with random and rule-of-thumb policies;
* identical results with 1 and 2 threads and with different batch sizes;
* `sim replay` of game N reproduces row N of the run;
* the result matrix has the columns the game declares and the common columns.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sim.api import games_frame, replay
from sim.config import load, load_dict, seat_tables
from sim.games import available, get_game
from sim.runner import run_games, set_threads

ROOT = Path(__file__).resolve().parents[1]
GAMES = available()


def default_config(name: str, **over):
    cfg = load(ROOT / "configs" / f"{name}.toml")
    return cfg.with_overrides(**over)


def policy_mixes(gdef) -> list[list[str]]:
    """Seat lists covering every built-in policy (cooperative games: one policy per team)."""
    names = [p.name for p in gdef.policies]
    if gdef.mode == "cooperative":
        return [[n] * 4 if gdef.max_seats >= 4 else [n] * gdef.min_seats for n in names]
    mixes = [[n] * gdef.min_seats for n in names]
    mixes.append((names * gdef.max_seats)[: gdef.max_seats])
    return mixes


@pytest.mark.parametrize("name", GAMES)
def test_invariants_hold_after_every_step(name):
    gdef = get_game(name)
    assert gdef.check_playout is not None
    base = default_config(name).raw
    total = 0
    mixes = policy_mixes(gdef)
    n = max(600, -(-2000 // len(mixes)))
    for seats in mixes:
        raw = {**base, "seats": seats, "rotate_seats": False}
        cfg = load_dict(raw, f"<{name} {seats}>")
        spec = gdef.compile(cfg)
        ep, ew, perms, _ = seat_tables(cfg, gdef)
        codes = [gdef.check_playout(spec, ep, ew, perms, 5, g) for g in range(n)]
        bad = [(g, c) for g, c in enumerate(codes) if c != 0]
        assert not bad, f"{name} {seats}: invariant codes (game, code) {bad[:5]}"
        total += n
    assert total >= 2000


@pytest.mark.parametrize("name", GAMES)
def test_columns_and_common_columns(name):
    gdef = get_game(name)
    cfg = default_config(name, games=50)
    out = run_games(cfg, gdef)
    cols = gdef.column_names(cfg.n_seats)
    assert out.shape == (50, len(cols)) and out.dtype == np.int32
    for c in ("turns", "stalled", "reshuffles", "starved_draws"):
        assert c in cols
    if gdef.mode == "competitive":
        assert "winner" in cols and all(f"rank_s{s}" in cols for s in range(cfg.n_seats))
    else:
        assert "team_win" in cols
    df = games_frame(cfg, gdef, out)
    assert df["turns"].min() > 0
    assert set(df["stalled"].unique().to_list()) <= {0, 1}


@pytest.mark.parametrize("name", GAMES)
def test_identical_results_for_any_thread_count_and_batch_size(name):
    gdef = get_game(name)
    cfg = default_config(name, games=3000)
    spec = gdef.compile(cfg)
    try:
        set_threads(1)
        one = run_games(cfg, gdef, spec, batch_size=3000)
        set_threads(2)
        two = run_games(cfg, gdef, spec, batch_size=3000)
        small = run_games(cfg, gdef, spec, batch_size=217)
        # a later slice of the game range equals the same rows of the whole run
        part = run_games(cfg, gdef, spec, first_index=1000, count=500, batch_size=64)
    finally:
        set_threads(None)
    assert np.array_equal(one, two)
    assert np.array_equal(one, small)
    assert np.array_equal(one[1000:1500], part)
    # and the games are not all alike
    assert len(np.unique(one[:, 0])) > 10


@pytest.mark.parametrize("name", GAMES)
def test_replay_of_game_n_equals_row_n(name):
    gdef = get_game(name)
    cfg = default_config(name, games=40)
    out = run_games(cfg, gdef)
    cols = gdef.column_names(cfg.n_seats)
    for g in (0, 7, 39):
        res = replay(cfg, g)
        assert [res.row[c] for c in cols] == out[g].tolist(), f"game {g}"
        assert len(res.lines) > 5


@pytest.mark.parametrize("name", GAMES)
def test_another_seed_gives_other_games(name):
    gdef = get_game(name)
    cfg = default_config(name, games=200)
    a = run_games(cfg, gdef)
    b = run_games(cfg.with_overrides(seed=cfg.seed + 1), gdef)
    assert not np.array_equal(a, b)
