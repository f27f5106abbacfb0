"""Game-level properties of Clear for Takeoff playouts: the turn cap, common random numbers,
and the scenario API starting from exactly the position the playout starts from."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import sim.games.clear_for_takeoff.layout as L
import sim.games.clear_for_takeoff.rules as R
from sim.api import run_config
from sim.compile import compile_run, load_run, run_from_dict
from sim.games.clear_for_takeoff.hooks import check_playout, run_traced
from sim.games.clear_for_takeoff.policies import select
from sim.games.clear_for_takeoff.state import GameState

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
    """RB "The game turn": 'During your turn, you must perform (only) one of the following
    two actions: 1. Exchange cards from your hand with cards from the deck, face-up. 2. Play
    cards from your hand and draw cards from the deck, face-down.': one action, then the turn
    ends (the face-down draw refills the hand to nine)."""
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


# ---------------------------------------------------------------------------------------
# Outcomes partition the games (RULES.md End of the game: stalled = no winner, cut_off)
# ---------------------------------------------------------------------------------------
STUCK_DECK = {"A": 17, "B": 11, "C": 11, "D": 17, "LC": 8, "VIP": 6, "AI": 8, "FLR": 4, "DLY": 6,
              "SC": 0, "FG": 0, "31L": 0, "31R": 0, "SN": 0, "XW": 20, "ICE": 0}


def _stuck_rig(games: int = 500, turn_cap: int = 30):
    """Two airlines of medium aircraft only, crosswind the only weather in the deck: once an
    XW is laid it is never replaced, so no medium takes off again; the small-only airline 0
    can still finish. With play_out_ranks the cap then cuts the finishing order short."""
    raw = {"game": "clear_for_takeoff", "seats": ["heuristic", "random", "greedy"], "seed": 5, "games": games,
           "turn_cap": turn_cap, "rotate_seats": False,
           "clear_for_takeoff": {"deck": STUCK_DECK, "airlines": [{"small": 2, "medium": 0, "wide": 0},
                                                                  {"small": 0, "medium": 2, "wide": 0},
                                                                  {"small": 0, "medium": 2, "wide": 0}]}}
    return run_from_dict(raw, "<stuck>")


def _assert_partition(res) -> tuple[int, int]:
    """Seat wins + stalls = games, exactly, in the rows and in the summary's rates; a game is
    never both won and stalled; cut_off games are won games. Returns (stalls, cut-offs)."""
    df, n, S = res.df, res.df.height, res.cfg.n_seats
    won = df["winner"].to_numpy() >= 0
    stalled = df["stalled"].to_numpy()
    cut = df["cut_off"].to_numpy()
    assert set(np.unique(stalled)) <= {0, 1} and set(np.unique(cut)) <= {0, 1}
    assert not np.any(won & (stalled == 1))
    assert np.all(won | (stalled == 1))
    assert not np.any(cut & ~won)
    wins = [int((df["winner"] == s).sum()) for s in range(S)]
    assert sum(wins) + int(stalled.sum()) == n
    rates = {(r["metric"], tuple(sorted(r["by"].items()))): r for r in res.summary["metrics"]}
    total = sum(rates[("win_rate", (("seat", s),))]["value"] for s in range(S)) + rates[("stall_rate", ())]["value"]
    assert total == pytest.approx(1.0, abs=1e-12)
    assert rates[("cut_off_rate", ())]["value"] == pytest.approx(cut.sum() / n, abs=1e-15)
    return int(stalled.sum()), int(cut.sum())


def test_outcomes_partition_with_a_stuck_airline():
    """RULES.md End of the game: in the stuck-airline rig (500 games, cap 30 turns) the cap
    stops 239 games nobody had won (stalled) and 261 won games whose finishing order it cut
    off (cut_off, counted as won): win rates + stall rate = 1 (before, cut-off games also
    counted as stalled and the sum was 1.52)."""
    res = run_config(_stuck_rig(), threads=1)
    assert _assert_partition(res) == (239, 261)
    cut = res.df.filter(res.df["cut_off"] == 1)
    assert (cut["winner"] == 0).all() and (cut["rank_s0"] == 1).all()
    assert ((cut["rank_s1"] == 0) & (cut["rank_s2"] == 0)).all()


@pytest.mark.parametrize("name", ["clear_for_takeoff", "clear_for_takeoff_6p", "clear_for_takeoff_asymmetric"])
@pytest.mark.parametrize("cap", [None, 100])
def test_outcomes_partition_in_every_shipped_config(name, cap):
    """RULES.md End of the game: in every shipped configuration (as shipped, and with a
    100-turn cap that stops games before and after the first finisher) seat win rates plus
    the stall rate sum to exactly 1."""
    over = {"games": 400} if cap is None else {"games": 400, "turn_cap": cap}
    res = run_config(load_run(ROOT / "configs" / f"{name}.toml", **over), threads=1)
    stalls, cuts = _assert_partition(res)
    if cap is not None:
        assert cuts > 0


# ---------------------------------------------------------------------------------------
# The scenario API counts as the kernel counts (RULES.md D4, starved draws)
# ---------------------------------------------------------------------------------------
STARVE_DECK = {"A": 12, "B": 7, "C": 7, "D": 12, "LC": 4, "VIP": 2, "AI": 4, "FLR": 2, "DLY": 2,
               "SC": 1, "FG": 1, "31L": 0, "31R": 0, "SN": 1, "XW": 1, "ICE": 1}


def _drive(gs: GameState) -> None:
    """Play ``gs`` to its end with the seats' own choices (``policies.select``), one
    ``apply`` and one ``end_turn`` per turn."""
    acts = np.zeros((R.max_actions(gs.p), L.ACT_W), np.int32)
    disc = np.zeros(L.NCT, np.int32)
    need = np.zeros(L.NCT, np.int32)
    while not gs.over:
        s = gs.cur
        n = R.legal_plays(gs.state, gs.p, gs.fleet, acts)
        ch = select(gs.state, gs.p, gs.fleet, gs.pids[s], gs.W[s], acts, n, disc, need, gs.rng)
        if ch >= 0:
            gs.apply(tuple(int(v) for v in acts[ch]))
        elif ch == L.CH_EXCHANGE:
            gs.apply((L.K_EXCHANGE, *[c for c in range(L.NCT) for _ in range(int(disc[c]))]))
        else:
            gs.apply((L.K_PASS,))
        with pytest.raises(ValueError, match="already acted"):
            gs.apply((L.K_PASS,))
        gs.end_turn()


def test_scenario_api_counts_starved_draws_as_the_kernel_does():
    """RULES.md D4 (starved draw) and RB 'you must perform one of the following two actions':
    in a 57-card, 6-seat game with finished hands out of play, driving ``GameState`` one
    action per turn (a second action raises) reproduces the kernel's final state and its
    counters exactly: starved draws (a turn short in its exchange and its face-down draw
    counts once), reshuffles, turns, stall / cut-off."""
    raw = {"game": "clear_for_takeoff", "seats": ["heuristic", "random", "greedy", "greedy", "random", "heuristic"],
           "seed": 5, "turn_cap": 600, "clear_for_takeoff": {"deck": STARVE_DECK, "finished_hand": "out_of_play"}}
    run = run_from_dict(raw, "<starve>")
    cols = run.game.column_names(6)
    seen = []
    for g in (1, 0):
        state, ev, _, row = run_traced(run, g)
        r = dict(zip(cols, (int(v) for v in row), strict=True))
        gs = GameState.from_run(run, g)
        _drive(gs)
        assert np.array_equal(gs.state, state), g
        assert int(gs.state[L.H_STARVED]) == r["starved_draws"] == int(np.sum(ev[:, 2] == L.E_STARVED))
        assert int(gs.state[L.H_RESHUF]) == r["reshuffles"]
        snap = gs.snapshot()
        assert (int(snap["stalled"]), int(snap["cut_off"])) == (r["stalled"], r["cut_off"])
        seen.append((r["starved_draws"], r["cut_off"]))
    assert seen == [(13, 0), (23, 1)]


def test_setback_columns_split_the_hits_by_cause():
    """RB Exchanging (a face-up FLR / DLY hits the drawer's own most prepared aircraft) and
    RB Playing cards (an FLR / DLY played on an opponent): the row's flr/dly ``_drawn``
    columns count the face-up hits of the trace (E_HIT with d = 1) on each seat, the
    ``_played_on`` columns the played ones, and ``flr_played`` / ``dly_played`` the cards each
    seat played."""
    run = load_run(ROOT / "configs" / "clear_for_takeoff.toml")
    K = int(run.spec[0][L.P_K])
    cols = run.game.column_names(4)
    tot = np.zeros(6, np.int64)
    for g in range(12):
        _, ev, _, row = run_traced(run, g)
        r = dict(zip(cols, (int(v) for v in row), strict=True))
        hits = ev[(ev[:, 2] == L.E_HIT) & (ev[:, 4] >= 0)]
        for s in range(4):
            mine = hits[hits[:, 4] // K == s]
            by_me = hits[hits[:, 1] == s]
            for card, name in ((L.FLR, "flr"), (L.DLY, "dly")):
                drawn = int(np.sum((mine[:, 3] == card) & (mine[:, 6] == 1)))
                played_on = int(np.sum((mine[:, 3] == card) & (mine[:, 6] == 0)))
                played = int(np.sum((by_me[:, 3] == card) & (by_me[:, 6] == 0)))
                assert (r[f"{name}_drawn_s{s}"], r[f"{name}_played_on_s{s}"], r[f"{name}_played_s{s}"]) == \
                    (drawn, played_on, played), (g, s, name)
                tot += [drawn, played_on, played, 0, 0, 0] if name == "flr" else [0, 0, 0, drawn, played_on, played]
    assert tot[0] > 0 and tot[1] > 0 and tot[3] > 0 and tot[4] > 0
    assert tot[1] == tot[2] and tot[4] == tot[5]  # every played hit lands on an opponent
