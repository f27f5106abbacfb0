"""Metrics shared by every game, computed with polars from the games frame.

Each metric is a record ``{"metric", "by", "value", "ci_low", "ci_high", "n", "kind"}``
(means add ``"sd"``): the format of ``summary.json`` that reports and ``sim check`` read.
Proportions carry Wilson 95 % intervals, means normal 95 % intervals.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from sim.stats import mean_interval, ratio_influence, wilson


def proportion(metric: str, by: dict, successes: int, n: int) -> dict[str, Any]:
    """A proportion record with its Wilson 95 % interval."""
    lo, hi = wilson(successes, n)
    value = successes / n if n else float("nan")
    if n:  # float rounding can put a bound a hair beyond a rate of exactly 0 or 1
        lo, hi = min(float(lo), value), max(float(hi), value)
    return {"metric": metric, "by": by, "value": value,
            "ci_low": float(lo), "ci_high": float(hi), "n": int(n), "kind": "proportion",
            "successes": int(successes)}


def ratio(metric: str, by: dict, num, den) -> dict[str, Any]:
    """A share of summed per-game counts, ``sum(num) / sum(den)`` (e.g. turns under fog /
    all turns), with a 95 % interval that treats the game, not the turn, as the unit
    (delta method: turns of one game are not independent). ``n`` is the number of games;
    ``se`` (absent below 2 games) the delta-method standard error, which unpaired comparisons
    test with (:func:`sim.stats.unpaired_change`)."""
    x = np.asarray(num, dtype=float)
    t = np.asarray(den, dtype=float)
    n = x.size
    total = t.sum()
    r = float(x.sum() / total) if total > 0 else float("nan")
    lo = hi = se = float("nan")
    if n > 1 and total > 0:
        se = float(np.std(x - r * t, ddof=1) / np.sqrt(n) / t.mean())
        lo, hi = max(0.0, r - 1.959963984540054 * se), min(1.0, r + 1.959963984540054 * se)
    out = {"metric": metric, "by": by, "value": r, "ci_low": lo, "ci_high": hi, "n": int(n), "kind": "share"}
    if se == se:  # the delta-method standard error (games as the unit): what comparisons test with
        out["se"] = se
    return out


def mean(metric: str, by: dict, values: pl.Series | np.ndarray) -> dict[str, Any]:
    """A mean record with sd and its normal 95 % interval."""
    v = np.asarray(values, dtype=float)
    n = v.size
    m = float(v.mean()) if n else float("nan")
    sd = float(v.std(ddof=1)) if n > 1 else float("nan")
    lo, hi = mean_interval(m, sd, n)
    if n and v.min() >= 0 and lo < 0:  # counts: the normal interval must not leave [0, inf)
        lo = 0.0
    return {"metric": metric, "by": by, "value": m, "ci_low": lo, "ci_high": hi, "n": int(n),
            "kind": "mean", "sd": sd}


def quantile(metric: str, by: dict, values, q: float) -> dict[str, Any]:
    """A quantile record (no interval)."""
    v = np.asarray(values, dtype=float)
    return {"metric": metric, "by": by, "value": float(np.quantile(v, q)) if v.size else float("nan"),
            "ci_low": None, "ci_high": None, "n": int(v.size), "kind": "quantile"}


def length_metrics(df: pl.DataFrame) -> list[dict]:
    """stall_rate, turns mean and p05/p50/p95, reshuffles_mean, starved_draw_rate."""
    n = df.height
    turns = df["turns"].to_numpy()
    out = [proportion("stall_rate", {}, int(df["stalled"].sum()), n), mean("turns_mean", {}, turns)]
    for q, name in ((0.05, "turns_p05"), (0.5, "turns_p50"), (0.95, "turns_p95")):
        out.append(quantile(name, {}, turns, q))
    out.append(mean("reshuffles_mean", {}, df["reshuffles"].to_numpy()))
    out.append(proportion("starved_draw_rate", {}, int((df["starved_draws"] > 0).sum()), n))
    return out


def competitive_metrics(df: pl.DataFrame, n_seats: int, labels: list[str]) -> list[dict]:
    """Win rate by seat and by policy, rank shares by seat, first-player advantage and a
    chi-square test of equal seat win rates (``seat_equality_p``)."""
    from scipy.stats import chisquare

    n = df.height
    out: list[dict] = []
    wins = [int((df["winner"] == s).sum()) for s in range(n_seats)]
    for s in range(n_seats):
        out.append(proportion("win_rate", {"seat": s}, wins[s], n))
    # by policy: wins per seat-appearance of the policy
    for label in dict.fromkeys(labels):
        app = 0
        w = 0
        for s in range(n_seats):
            at = df[f"policy_s{s}"] == label
            app += int(at.sum())
            w += int((at & (df["winner"] == s)).sum())
        if app:
            # trials are seat appearances, several per game: the se counts games as the unit
            num = np.zeros(n)
            den = np.zeros(n)
            for s in range(n_seats):
                at = (df[f"policy_s{s}"] == label).to_numpy()
                den += at
                num += at & (df["winner"] == s).to_numpy()
            rec = proportion("win_rate", {"policy": label}, w, app)
            if n > 1:
                _, u = ratio_influence(num, den)
                rec["se"] = float(u.std(ddof=1) / np.sqrt(n))
            out.append(rec)
    for s in range(n_seats):
        col = df[f"rank_s{s}"]
        for r in range(0, n_seats + 1):
            k = int((col == r).sum())
            if r == 0 and k == 0:
                continue
            out.append({**proportion("rank_share", {"seat": s, "rank": r}, k, n), "kind": "share"})
    r0 = proportion("win_rate", {"seat": 0}, wins[0], n)
    fair = 1.0 / n_seats
    out.append({"metric": "first_player_advantage", "by": {}, "value": r0["value"] - fair,
                "ci_low": r0["ci_low"] - fair, "ci_high": r0["ci_high"] - fair, "n": n,
                "kind": "difference", "reference": fair, "successes": wins[0]})
    decided = sum(wins)
    if decided > 0 and n_seats > 1:
        p = float(chisquare(wins).pvalue)
        out.append({"metric": "seat_equality_p", "by": {}, "value": p, "ci_low": None, "ci_high": None,
                    "n": decided, "kind": "p_value"})
    return out


def cooperative_metrics(df: pl.DataFrame) -> list[dict]:
    """Team win rate and loss rate (a game neither won nor stalled is lost)."""
    n = df.height
    won = int(df["team_win"].sum())
    lost = int(((df["team_win"] == 0) & (df["stalled"] == 0)).sum())
    return [proportion("win_rate", {}, won, n), proportion("loss_rate", {}, lost, n)]


def common_metrics(df: pl.DataFrame, mode: str, n_seats: int, labels: list[str]) -> list[dict]:
    """Every common metric for a game of ``mode`` ("competitive" / "cooperative")."""
    if mode == "competitive":
        head = competitive_metrics(df, n_seats, labels)
    else:
        head = cooperative_metrics(df)
    return head + length_metrics(df)
