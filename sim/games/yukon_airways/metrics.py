"""Yukon Airways metrics (records for summary.json, built with the ``sim.metrics`` builders
only) and plots.

The framework adds win_rate by seat and policy, rank shares, first_player_advantage (by
seat), stall_rate and turns. Here:

* ``tie_rate`` (money tied for first before the tie rule), ``shared_win_rate``,
  ``outcome_share`` by {"outcome": "seat <i>" | "shared" | "stall"} (they add up to 1);
* ``win_rate`` by {"start_pos": i} and by {"start_money": m} (the first-player advantage by
  the initial turn order and its start money);
* ``margin_mean`` and ``margin_p50`` / ``margin_p95`` (decided games);
* ``money_mean`` by {"seat": s}; ``money_source_mean`` by {"source": ...} (per seat-game:
  value, dice, far, bonus, orders, christmas, switch, visited; and ``spent``);
* ``improvements_mean`` by {"kind": ...} (per seat-game);
* ``dock_share`` by {"dock": d} (of all dock choices) and ``dock_win_share`` by {"dock": d}
  (share of dock d choices made by the game's winner);
* ``flights_per_round_mean``; ``short_flight_share`` (flights with cards burnt as fuel);
  ``burnt_mean``; ``unflown_mean`` (dice left aboard, per seat-game); ``visited_mean``;
* ``emptied_mean`` (locations without a coloured marker at the end).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sim.games.yukon_airways.catalogue import FIRST_PLAYER_DOC
from sim.games.yukon_airways.data import DIALS, START_MONEY, SWITCHES
from sim.metrics import ci_hi, ci_lo, first_player_record, proportion

SOURCES = ("value", "dice", "far", "bonus", "orders", "christmas", "switch", "visited")
IMPS = tuple(DIALS) + SWITCHES


def per_game(df, cfg) -> dict:
    """Per-game (num, den) arrays [games] of ``catalogue.HEADLINE`` for paired comparisons."""
    one = np.ones(df.height)
    winner = df["winner"].to_numpy()
    out = {"tie_rate": (df["tied"].to_numpy().astype(float), one),
           "shared_win_rate": (df["shared_win"].to_numpy().astype(float), one)}
    for i in range(cfg.n_seats):
        won = sum(((df[f"start_pos_s{s}"].to_numpy() == i) & (winner == s)).astype(float) for s in range(cfg.n_seats))
        out[f"win_rate[start_pos={i}]"] = (won, one)
    out["first_player_advantage"] = out["win_rate[start_pos=0]"]  # the start player, not seat 0 (FIRST_PLAYER_DOC)
    return out


def tally_spec(cfg) -> list:
    """What :func:`metrics` reads (:mod:`sim.tally`): the outcome (winner, shared, stalled,
    tied) with the winner's place in the first turn order; the margin of decided games; money
    by seat; per seat-game histograms (pooled over seats) of every money source, improvement,
    flight and map count; the moment sums of the dock shares and the short-flight share (seat-
    games as units)."""
    import polars as pl

    from sim.tally import Moments, hist, seat_hist

    S, c = cfg.n_seats, pl.col
    wsp = pl.lit(-1)
    for s in reversed(range(S)):
        wsp = pl.when(c("winner") == s).then(c(f"start_pos_s{s}")).otherwise(wsp)
    out: list = [hist("outcome", winner=c("winner"), shared=c("shared_win"), stalled=c("stalled"), tied=c("tied"),
                      wsp=wsp),
                 hist("margin", where=c("winner") >= 0, v=c("margin")),
                 seat_hist("money", S, lambda s: {"seat": pl.lit(s), "v": c(f"money_s{s}")})]
    stacked = [f"m_{src}" for src in SOURCES] + ["spent"] + [f"imp_{k}" for k in IMPS] + [
        "flights", "burnt", "unflown", "visited"]
    out += [seat_hist(name, S, lambda s, name=name: {"v": c(f"{name}_s{s}")}) for name in stacked]

    def total(s):
        return pl.sum_horizontal([c(f"dock{d + 1}_s{s}") for d in range(6)])

    for d in range(6):
        out.append(Moments(f"dock_{d + 1}", tuple((c(f"dock{d + 1}_s{s}"), total(s)) for s in range(S))))
        out.append(Moments(f"dock_win_{d + 1}", tuple((c(f"dock{d + 1}_s{s}") * (c("winner") == s).cast(pl.Int64),
                                                       c(f"dock{d + 1}_s{s}")) for s in range(S))))
    out.append(Moments("short_flights", tuple((c(f"short_flights_s{s}"), c(f"flights_s{s}")) for s in range(S))))
    out.append(hist("emptied", v=c("emptied")))
    return out


def metrics(tally, cfg) -> list[dict]:
    """Game-specific records (see the module docstring) from the :class:`sim.tally.Tally` of
    :func:`tally_spec` (or a games frame, tallied here)."""
    import polars as pl

    from sim.tally import game_tally, mean_record, quantile_record, ratio_record

    t = game_tally(tally, tally_spec, cfg)
    if t is None:
        return []
    n = t.games
    out: list[dict] = []
    S = cfg.n_seats
    sec = cfg.section
    c = pl.col
    out.append(proportion("tie_rate", {}, t.total("outcome", "tied"), n))
    out.append(proportion("shared_win_rate", {}, t.total("outcome", "shared"), n))
    for s in range(S):
        out.append({**proportion("outcome_share", {"outcome": f"seat {s}"}, t.count("outcome", c("winner") == s), n),
                    "kind": "share"})
    out.append({**proportion("outcome_share", {"outcome": "shared"}, t.total("outcome", "shared"), n), "kind": "share"})
    out.append({**proportion("outcome_share", {"outcome": "stall"}, t.total("outcome", "stalled"), n), "kind": "share"})
    money = list(sec.start_money) if sec.start_money else list(START_MONEY)
    for i in range(S):
        w = t.count("outcome", (c("winner") >= 0) & (c("wsp") == i))
        out.append(proportion("win_rate", {"start_pos": i}, w, n))
        out.append(proportion("win_rate", {"start_money": int(money[i])}, w, n))
    # the start player is drawn, so seat 0 is not the first player (SEAT_NOTE)
    start = next(r for r in out if r["metric"] == "win_rate" and r["by"] == {"start_pos": 0})
    out.append(first_player_record(start["successes"], n, S, FIRST_PLAYER_DOC))
    mv, mc = t.counts("margin", "v")
    if mc.sum():
        out.append(mean_record("margin_mean", {}, mv, mc))
        out.append(quantile_record("margin_p50", {}, mv, mc, 0.5))
        out.append(quantile_record("margin_p95", {}, mv, mc, 0.95))
    for s in range(S):
        out.append(mean_record("money_mean", {"seat": s}, *t.counts("money", "v", seat=s)))
    for src in SOURCES:
        out.append(mean_record("money_source_mean", {"source": src}, *t.counts(f"m_{src}", "v")))
    out.append(mean_record("money_source_mean", {"source": "spent"}, *t.counts("spent", "v")))
    for k in IMPS:
        out.append(mean_record("improvements_mean", {"kind": k}, *t.counts(f"imp_{k}", "v")))
    for d in range(6):
        out.append(ratio_record("dock_share", {"dock": d + 1}, t.moments[f"dock_{d + 1}"]))
        if t.moments[f"dock_win_{d + 1}"]["t"] > 0:
            out.append(ratio_record("dock_win_share", {"dock": d + 1}, t.moments[f"dock_win_{d + 1}"]))
    fv, fc = t.counts("flights", "v")
    out.append(mean_record("flights_per_round_mean", {}, fv, fc, scale=sec.rounds))
    if int((fv * fc).sum()) > 0:
        out.append(ratio_record("short_flight_share", {}, t.moments["short_flights"]))
    out.append(mean_record("burnt_mean", {}, *t.counts("burnt", "v")))
    out.append(mean_record("unflown_mean", {}, *t.counts("unflown", "v")))
    out.append(mean_record("visited_mean", {}, *t.counts("visited", "v")))
    out.append(mean_record("emptied_mean", {}, *t.counts("emptied", "v")))
    return out


def plots(tally, records, folder) -> list[tuple[str, str]]:
    """Money by source, improvements by kind, dock choices and their win share, from the
    records (``tally`` unused); returns (title, file name) pairs."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder = Path(folder)
    made = []

    from matplotlib.ticker import PercentFormatter

    def bars(metric, key, title, fname, ylabel, percent=False, xlabel="", fair=None, zoom=False):
        rs = [r for r in records if r["metric"] == metric and key in r["by"]]
        if not rs:
            return
        fig, ax = plt.subplots(figsize=(max(6.4, 0.8 * len(rs) + 1.5), 4.0))
        x = np.arange(len(rs))
        k = 100.0 if percent else 1.0
        v = np.array([r["value"] for r in rs]) * k
        lo = np.array([ci_lo(r) for r in rs]) * k
        hi = np.array([ci_hi(r) for r in rs]) * k
        if zoom:  # an axis not from 0: points with their intervals, never bars
            ax.errorbar(x, v, yerr=[np.maximum(v - lo, 0), np.maximum(hi - v, 0)], fmt="o", color="#4C72B0",
                        elinewidth=2.5, capsize=7, zorder=3)
        else:
            ax.bar(x, v, color="#4C72B0", zorder=2)
            ax.errorbar(x, v, yerr=[np.maximum(v - lo, 0), np.maximum(hi - v, 0)], fmt="none", ecolor="black",
                        capsize=4, zorder=3)
        ax.set_xticks(x, [str(r["by"][key]) for r in rs], rotation=30 if len(rs) > 6 else 0,
                      ha="right" if len(rs) > 6 else "center")
        ax.set_ylabel(ylabel)
        ax.set_xlabel(xlabel or key)
        ax.set_title(title)
        if fair is not None:
            ax.axhline(fair * k, color="#555555", linestyle="--", linewidth=1, label=f"fair share {fair * k:.1f}%")
            ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.2), frameon=False)
        if zoom:
            ref = [r for r in list(lo) + list(hi) + ([fair * k] if fair is not None else []) if np.isfinite(r)]
            if ref:  # no finite value (every game stalled): matplotlib's own limits
                span = max(ref) - min(ref)
                ax.set_ylim(max(0.0, min(ref) - 0.3 * span), max(ref) + 0.3 * span)
        else:
            top = float(np.nanmax(hi)) if np.isfinite(hi).any() else 0.0
            ax.set_ylim(0, max(top, 1e-9) * 1.15)
        if percent:
            ax.yaxis.set_major_formatter(PercentFormatter(xmax=100, decimals=None if zoom else 0))
        ax.grid(axis="y", color="#dddddd", linewidth=0.8)
        ax.set_axisbelow(True)
        for xi, vi, h in zip(x, v, hi):
            if zoom:
                ax.annotate(f"{vi:.1f}%", (xi, vi), xytext=(9, 0), textcoords="offset points", va="center", fontsize=8)
            else:
                ax.text(xi, h, f"{vi:.1f}{'%' if percent else ''}", ha="center", va="bottom", fontsize=7)
        fig.tight_layout()
        fig.savefig(folder / fname, dpi=110)
        plt.close(fig)
        made.append((title, fname))

    bars("money_source_mean", "source", "Where the money came from (mean per seat and game, 95% interval)",
         "money_sources.png", "$ per seat and game", xlabel="source of money (spent = paid out)")
    bars("improvements_mean", "kind", "Improvements taken by kind (mean per seat and game)",
         "improvements.png", "improvements per seat and game", xlabel="improvement (dial or switch)")
    bars("dock_share", "dock", "Dock choices (share of all choices)", "dock_share.png", "share of choices (%)",
         percent=True, xlabel="dock (1 none, 2 ticket, 3 two colours, 4 move+fuel, 5 +2 fuel, 6 improvement)")
    bars("dock_win_share", "dock", "Share of a dock's choices made by the eventual winner",
         "dock_win_share.png", "share of the dock's choices (%)", percent=True, xlabel="dock",
         fair=1.0 / max(1, len([r for r in records if r["metric"] == "money_mean"])))
    bars("win_rate", "start_pos", "Win rate by place in the first turn order", "win_by_start.png",
         "games won (%)", percent=True, xlabel="position in the first turn order (0 = start player)",
         fair=1.0 / max(1, len([r for r in records if r["metric"] == "win_rate" and "start_pos" in r["by"]])),
         zoom=True)
    return made
