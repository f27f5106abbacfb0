"""Whole playouts: invariants after every step, determinism, replay agreement, completed-game
structure (rounds per stage from the Preflight chart), card conservation, metrics, plots, golden."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from sim.config import load, load_dict, seat_tables
from sim.games import get_game

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "tests" / "playthroughs" / "now_boarding.txt"
G = get_game("now_boarding")


def setup_run(raw_extra=None, players=4, policy="greedy", section=None, weights=None):
    seat = policy if weights is None else {"policy": policy, "weights": weights}
    raw = {"game": "now_boarding", "seed": 11, "seats": [seat] * players, "now_boarding": section or {}}
    raw.update(raw_extra or {})
    cfg = load_dict(raw, "<test>")
    spec = G.compile(cfg)
    ep, ew, perms, _ = seat_tables(cfg, G)
    return cfg, spec, ep, ew, perms


def batch(spec, ep, ew, perms, seed, first, count, n_seats):
    out = np.zeros((count, len(G.column_names(n_seats))), np.int32)
    G.play_batch(spec, ep, ew, perms, np.int64(seed), np.int64(first), np.int64(count), out)
    return out


@pytest.mark.parametrize("players,policy,section", [
    (2, "random", {}), (3, "greedy", {}), (5, "heuristic", {}), (4, "greedy", {"vip": True}),
    (4, "random", {"vip": True}), (4, "heuristic", {"action_budget": 5, "anger_limit": 9}),
    (3, "greedy", {"anger_reset": "setdown", "pooled_payment": False, "supply_limits": True}),
])
def test_invariants_after_every_step(players, policy, section):
    """Every card in exactly one place, seats within capacity, money >= 0 and equal to the money
    cards, planes on legal spots, complaint counters = complaint pile (check_playout codes)."""
    cfg, spec, ep, ew, perms = setup_run(players=players, policy=policy, section=section)
    bad = [(g, c) for g in range(150) if (c := G.check_playout(spec, ep, ew, perms, 3, g)) != 0]
    assert bad == []


def test_deterministic_and_batch_split_invariant():
    cfg, spec, ep, ew, perms = setup_run(section={"vip": True}, policy="heuristic")
    a = batch(spec, ep, ew, perms, 5, 0, 300, 4)
    b = batch(spec, ep, ew, perms, 5, 0, 300, 4)
    c = np.vstack([batch(spec, ep, ew, perms, 5, 0, 120, 4), batch(spec, ep, ew, perms, 5, 120, 180, 4)])
    assert np.array_equal(a, b) and np.array_equal(a, c)
    d = batch(spec, ep, ew, perms, 6, 0, 300, 4)
    assert not np.array_equal(a, d)


def test_policies_share_the_deal():
    """Common random numbers: chance uses its own stream, so the policy does not change the setup."""
    from sim.games.now_boarding.state import GameState

    a = GameState(players=4, policy="greedy", game_index=9)
    b = GameState(players=4, policy="heuristic", game_index=9)
    from sim.games.now_boarding import layout as L

    assert np.array_equal(a.st[L.PILE:L.PILE + L.NCARD], b.st[L.PILE:L.PILE + L.NCARD])
    assert a.active() == b.active()


@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_replay_row_equals_batch_row(policy):
    cfg, spec, ep, ew, perms = setup_run(policy=policy, section={"vip": True})
    out = batch(spec, ep, ew, perms, 7, 40, 6, 4)
    names = G.column_names(4)
    for i in range(6):
        tr = G.trace(cfg, spec, ep, ew, perms, 7, 40 + i)
        assert tr.row == {k: int(v) for k, v in zip(names, out[i], strict=True)}
        assert tr.lines[-1].startswith("== WIN" if tr.row["team_win"] else "== LOSS")


@pytest.mark.parametrize("players,rounds", [(2, [3, 5, 9, 1]), (3, [3, 5, 8, 1]), (4, [4, 5, 7, 1]),
                                            (5, [3, 6, 4, 1])])
def test_completed_games_follow_the_preflight_chart(players, rounds):
    """RB "Despegue y aterrizaje": each stage lasts until its pile is empty (pile / draw rounds,
    the setup draw counting as the morning's first), then 1 final round. With complaints made
    impossible every game completes: rounds per stage are the chart's, and every passenger card in
    play is delivered, left over, or (none) complained about."""
    cfg, spec, ep, ew, perms = setup_run(players=players, section={"anger_limit": 20, "complaint_limit": 50})
    out = batch(spec, ep, ew, perms, 1, 0, 200, players)
    names = G.column_names(players)
    col = {k: out[:, i] for i, k in enumerate(names)}
    assert (col["loss_stage"] == -1).all() and (col["team_win"] == 1).all()
    for s, name in enumerate(("morning", "afternoon", "evening", "final")):
        assert (col[f"rounds_{name}"] == rounds[s]).all()
    assert (col["turns"] == sum(rounds)).all()
    in_play = {2: 42, 3: 56, 4: 71, 5: 71}[players]
    assert (col["delivered"] + col["left_over"] + col["complaints_anger"] == in_play).all()
    assert (col["complaints_leftover"] == col["left_over"] // 2).all()
    assert (col["fares"] == sum(col[f"plane_fares_s{s}"] for s in range(players))).all()
    assert (col["spent"] - col["wasted"] <= col["fares"]).all()
    for k in ("seat", "speed", "route"):  # upgrades by kind and stage add up to the kind's total
        assert (sum(col[f"upg_{k}_{s}"] for s in ("morning", "afternoon", "evening")) == col[f"upg_{k}"]).all()
    assert (sum(col[f"upgrades_r{r}"] for r in range(1, 21)) == sum(
        col[f"upg_{k}"] for k in ("seat", "speed", "route", "temp_seat", "temp_speed"))).all()


def test_stall_when_the_turn_cap_is_reached():
    cfg, spec, ep, ew, perms = setup_run(raw_extra={"turn_cap": 3}, section={"anger_limit": 20})
    out = batch(spec, ep, ew, perms, 1, 0, 20, 4)
    names = G.column_names(4)
    assert (out[:, names.index("stalled")] == 1).all() and (out[:, names.index("turns")] == 3).all()
    assert (out[:, names.index("team_win")] == 0).all()


def test_metrics_and_plots(tmp_path):
    cfg, spec, ep, ew, perms = setup_run(section={"vip": True})
    out = batch(spec, ep, ew, perms, 1, 0, 400, 4)
    df = pl.DataFrame({k: out[:, i] for i, k in enumerate(G.column_names(4))}).with_columns(
        pl.arange(0, 400).alias("game_index"))
    recs = G.metrics(df, cfg)
    names = {r["metric"] for r in recs}
    for m in ("complaints_mean", "complaints_share", "complaints_by_cause_mean", "complaints_by_airport_mean",
              "delivered_mean", "left_over_mean", "fares_mean", "upgrades_mean", "rounds_per_stage_mean",
              "loss_round_share", "loss_stage_share", "upgrades_by_round_mean", "upgrades_by_stage_mean",
              "vips_taken_mean"):
        assert m in names, m
    assert not names & {"win_rate", "loss_rate", "stall_rate", "turns_mean"}
    share = sum(r["value"] for r in recs if r["metric"] == "complaints_share")
    assert abs(share - 1.0) < 1e-9
    cm = [r for r in recs if r["metric"] == "complaints_mean"][0]
    assert cm["value"] == pytest.approx(out[:, G.column_names(4).index("complaints")].mean())
    assert cm["ci_low"] <= cm["value"] <= cm["ci_high"] and "sd" in cm
    made = G.plots(df, recs, tmp_path)
    assert len(made) == 4 and all((tmp_path / f).stat().st_size > 1000 for _, f in made)


def test_golden_playthrough():
    """The trace of game 0 of the default config; regenerate with SIM_REGEN_GOLDEN=1."""
    cfg = load(ROOT / "configs" / "now_boarding.toml")
    spec = G.compile(cfg)
    ep, ew, perms, _ = seat_tables(cfg, G)
    tr = G.trace(cfg, spec, ep, ew, perms, cfg.seed, 0)
    text = "\n".join(tr.lines) + "\n" + "\n".join(f"{k} = {v}" for k, v in tr.row.items()) + "\n"
    if os.environ.get("SIM_REGEN_GOLDEN") == "1" or not GOLDEN.exists():
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(text)
    assert text == GOLDEN.read_text()
