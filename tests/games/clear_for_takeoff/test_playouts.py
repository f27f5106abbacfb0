"""Game-level properties of Clear for Takeoff playouts: the turn cap, common random numbers,
and the scenario API starting from exactly the position the playout starts from."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import sim.games.clear_for_takeoff.layout as L
import sim.games.clear_for_takeoff.rules as R
from sim.compile import compile_run, load_run, run_from_dict
from sim.games.clear_for_takeoff.play import run_traced
from sim.games.clear_for_takeoff.policies import select
from sim.games.clear_for_takeoff.state import GameState
from sim.games.clear_for_takeoff.trace import check_playout

ROOT = Path(__file__).resolve().parents[3]


def test_stall_at_turn_cap():
    """RULES.md End of the game: a game reaching turn_cap player turns stops as a stall
    (stalled = 1); airlines still on the airfield have rank 0; winner -1."""
    raw = {"game": "clear_for_takeoff", "seats": ["greedy", "greedy", "random"], "seed": 3,
           "turn_cap": 7, "clear_for_takeoff": {}}
    run = run_from_dict(raw, "<stall>")
    state, ev, snaps, row = run_traced(run, 0)
    r = dict(zip(run.game.column_names(3), (int(v) for v in row), strict=True))
    assert r["turns"] == 7 and r["stalled"] == 1
    assert r["winner"] == -1 and r["winner_turn"] == -1
    assert [r[f"rank_s{i}"] for i in range(3)] == [0, 0, 0]
    assert int(np.sum(ev[:, 2] == L.E_STALL)) == 1
    assert int(np.sum(ev[:, 2] == L.E_TURN)) == 7
    assert R.check_invariants(state, run.spec[0], run.spec[2]) == 0


def test_other_policies_get_the_same_deal():
    """DESIGN Determinism: chance and policy draw from separate streams, so the deck order
    and hands of game g do not depend on who plays; the games themselves then differ."""
    base = load_run(ROOT / "configs" / "clear_for_takeoff.toml")
    starts, rows = [], []
    for seats in (["random"] * 4, ["heuristic"] * 4):
        run = compile_run(base.cfg.with_overrides(seats=seats))
        _, _, snaps, row = run_traced(run, 11)
        starts.append(snaps[0])
        rows.append(row)
    assert np.array_equal(starts[0], starts[1])
    assert not np.array_equal(rows[0], rows[1])


def test_from_run_starts_where_the_playout_starts():
    """RB Setting up: ``GameState.from_run(run, g)`` is the position the playout of game g
    begins its first turn from (same deal, same turn-start bookkeeping)."""
    run = load_run(ROOT / "configs" / "clear_for_takeoff.toml")
    for g in (0, 5):
        _, _, snaps, _ = run_traced(run, g)
        gs = GameState.from_run(run, g)
        assert np.array_equal(gs.state, snaps[0])
        assert gs.snapshot()["turn"] == 0 and gs.snapshot()["current"] == 0


def test_scenario_api_replays_the_playout_turn_by_turn():
    """RB Playing cards / Exchanging cards / Independent aircraft movement: driving
    ``GameState`` with the seats' own policy choice (``policies.select``) every turn passes
    through exactly the playout's positions (its trace snapshots) to the same result."""
    run = load_run(ROOT / "configs" / "clear_for_takeoff.toml")
    for g in (0, 3):
        state, _, snaps, _ = run_traced(run, g)
        gs = GameState.from_run(run, g)
        acts = np.zeros((R.max_actions(gs.p), L.ACT_W), np.int32)
        disc = np.zeros(L.NCT, np.int32)
        need = np.zeros(L.NCT, np.int32)
        t = 0
        while not gs.over:
            assert np.array_equal(gs.state, snaps[t]), (g, t)
            s = gs.cur
            n = R.legal_plays(gs.state, gs.p, gs.fleet, acts)
            ch = select(gs.state, gs.p, gs.fleet, gs.pids[s], gs.W[s], acts, n, disc, need, gs.rng)
            if ch >= 0:
                action = tuple(int(v) for v in acts[ch])
            elif ch == L.CH_EXCHANGE:
                action = (L.K_EXCHANGE, *[c for c in range(L.NCT) for _ in range(int(disc[c]))])
            else:
                action = (L.K_PASS,)
            assert action in gs.legal_actions()
            gs.apply(action)
            gs.end_turn()
            t += 1
        assert np.array_equal(gs.state, state)
        assert gs.snapshot()["winner"] == int(state[L.H_WINNER]) >= 0


def test_one_action_per_turn_then_end_turn():
    """RB Playing cards: 'you can either play one card ... or exchange': one action, then
    the turn ends (the face-down draw refills the hand to nine)."""
    gs = GameState(seats=2, seed=1)
    gs.apply(gs.legal_actions()[-1])  # an exchange (listed after the plays)
    assert gs.legal_actions() == []
    with pytest.raises(ValueError, match="already acted"):
        gs.apply((L.K_PASS,))
    gs.end_turn()
    assert gs.cur == 1 and sum(gs.hand(0).values()) == 9
    assert gs.legal_actions()


def test_checked_playouts_hold_every_invariant():
    """Every invariant (``layout.V_*``) holds after every turn of 50 default games."""
    run = load_run(ROOT / "configs" / "clear_for_takeoff.toml")
    assert [check_playout(run, g) for g in range(50)] == [0] * 50
