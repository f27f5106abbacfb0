"""Now Boarding metrics (records for summary.json) and plots.

The framework adds win_rate, loss_rate, stall_rate and turns (rounds) itself. Here:

* ``complaints_mean``; ``complaints_share`` by {"complaints": k} (distribution); ``lost_early_rate``
  (3 complaints before the end count);
* ``loss_stage_share`` by {"stage": name} and ``loss_round_share`` by {"round": r}, among lost
  games; ``loss_round_mean``;
* ``complaints_by_cause_mean`` by {"cause": "anger" | "leftover" | "vip"};
  ``complaints_by_airport_mean`` by {"airport": code} (anger complaints, by origin airport);
* ``delivered_mean``, ``left_over_mean``, ``fares_mean``, ``spent_mean``, ``wasted_mean``;
* ``upgrades_mean`` by {"kind": ...}; ``upgrades_by_round_mean`` by {"round": r};
  ``upgrades_by_stage_mean`` by {"kind": seat|speed|route, "stage": ...};
* ``rounds_per_stage_mean`` by {"stage": ...}; ``stage_reached_rate`` by {"stage": ...};
* ``plane_fares_mean`` / ``plane_delivered_mean`` by {"seat": s}; ``vips_taken_mean`` (VIP variant).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sim.games.now_boarding.data import AIRPORTS, ROUTES_23, ROUTES_45, STAGES, UPGRADE_KINDS
from sim.games.now_boarding.layout import COLUMNS
from sim.metrics import ci_hi, ci_lo, proportion

STAGE_NAMES = STAGES
CAUSES = (("anger", "complaints_anger"), ("leftover", "complaints_leftover"), ("vip", "complaints_vip"))
KINDS = tuple(UPGRADE_KINDS)


def _share(metric, by, k, n):
    """A share among games (a proportion record of kind ``share``)."""
    return {**proportion(metric, by, k, n), "kind": "share"}


def _on_board(n_seats: int) -> set[str]:
    """Airports on the board side of ``n_seats`` players (RB setup 1)."""
    return {a for r in (ROUTES_45 if n_seats >= 4 else ROUTES_23) for a in r[:2]}


def per_game(df, cfg) -> dict:
    """Per-game (num, den) arrays [games] of ``catalogue.HEADLINE`` for paired comparisons."""
    one = np.ones(df.height)
    return {"complaints_mean": (df["complaints"].to_numpy().astype(float), one),
            "delivered_mean": (df["delivered"].to_numpy().astype(float), one),
            "lost_early_rate": (df["lost_early"].to_numpy().astype(float), one)}


ROUND_COLUMNS = tuple(c.name for c in COLUMNS if c.name.startswith("upgrades_r"))
"""The upgrades-per-round columns (``upgrades_r1`` ..; the last counts later rounds too)."""
_MEANS = ("delivered", "left_over", "fares", "spent", "wasted")


def _timeline_hist(columns=ROUND_COLUMNS):
    """(round, still running in it, upgrades bought in its maintenance), pooled over the
    rounds of the ``upgrades_r<r>`` ``columns``."""
    import polars as pl

    from sim.tally import Hist

    c = pl.col
    return Hist("upgrades_round", tuple({"round": pl.lit(int(rc[10:])), "alive": c("turns") >= int(rc[10:]),
                                         "u": c(rc)} for rc in columns))


def _timeline_tally(data):
    """``data`` when it is a tally, else the timeline tally of the games frame ``data`` (its
    ``upgrades_r<r>`` columns), or None without them."""
    from sim.tally import Tally

    if data is None or isinstance(data, Tally):
        return data
    cols = sorted((c for c in data.columns if c.startswith("upgrades_r")), key=lambda c: int(c[10:]))
    if not cols or "turns" not in data.columns:
        return None
    return Tally.of_frame(data, [_timeline_hist(tuple(cols))])


def tally_spec(cfg) -> list:
    """What :func:`metrics` and :func:`plots` read (:mod:`sim.tally`): one histogram per
    per-game count (complaints, causes, airports on the board, deliveries, money, upgrades by
    kind and by kind and stage, rounds per stage, VIPs), lost games by (stage, round), planes
    by (seat, value), and the upgrade timeline: (round, still running in it, upgrades bought
    in its maintenance) pooled over the rounds."""
    import polars as pl

    from sim.tally import hist, seat_hist

    c = pl.col
    out: list = [hist("complaints", v=c("complaints")), hist("lost_early", v=c("lost_early")),
                 hist("loss", where=c("loss_stage") >= 0, stage=c("loss_stage"), round=c("loss_round"))]
    out += [hist(col, v=c(col)) for _, col in CAUSES]
    out += [hist(f"complaints_{a}", v=c(f"complaints_{a}")) for a in AIRPORTS if a in _on_board(cfg.n_seats)]
    out += [hist(name, v=c(name)) for name in _MEANS]
    out += [hist(f"upg_{k}", v=c(f"upg_{k}")) for k in KINDS]
    out += [hist(f"upg_{k}_{s}", v=c(f"upg_{k}_{s}")) for k in ("seat", "speed", "route") for s in STAGE_NAMES[:3]]
    out += [hist(f"rounds_{name}", v=c(f"rounds_{name}")) for name in STAGE_NAMES]
    for col in ("plane_fares", "plane_delivered"):
        out.append(seat_hist(col, cfg.n_seats, lambda s, col=col: {"seat": pl.lit(s), "v": c(f"{col}_s{s}")}))
    out.append(_timeline_hist())
    if getattr(cfg.section, "vip", False):
        out.append(hist("vips_taken", v=c("vips_taken")))
    return out


def metrics(tally, cfg) -> list[dict]:
    """Game-specific records (shape of summary.json) from the :class:`sim.tally.Tally` of
    :func:`tally_spec` (or a games frame, tallied here)."""
    import polars as pl

    from sim.tally import game_tally, mean_record, quantile_record

    t = game_tally(tally, tally_spec, cfg)
    if t is None:
        return []
    n = t.games
    out: list[dict] = []
    cv, cc = t.counts("complaints", "v")
    out.append(mean_record("complaints_mean", {}, cv, cc))
    for q, name in ((0.5, "complaints_p50"), (0.95, "complaints_p95")):
        out.append(quantile_record(name, {}, cv, cc, q))
    for k in range(int(cv.max()) + 1):
        out.append(_share("complaints_share", {"complaints": k}, int(cc[cv == k].sum()), n))
    out.append(proportion("lost_early_rate", {}, t.total("lost_early", "v"), n))
    nl = t.count("loss")
    if nl:
        for s, name in enumerate(STAGE_NAMES):
            out.append(_share("loss_stage_share", {"stage": name}, t.count("loss", pl.col("stage") == s), nl))
        rv, rc = t.counts("loss", "round")
        out.append(mean_record("loss_round_mean", {}, rv, rc))
        for r in range(1, int(rv.max()) + 1):
            out.append(_share("loss_round_share", {"round": r}, int(rc[rv == r].sum()), nl))
    for cause, col in CAUSES:
        out.append(mean_record("complaints_by_cause_mean", {"cause": cause}, *t.counts(col, "v")))
    on_board = _on_board(cfg.n_seats)
    for a in AIRPORTS:
        if a in on_board:
            out.append(mean_record("complaints_by_airport_mean", {"airport": a}, *t.counts(f"complaints_{a}", "v")))
    for name in _MEANS:
        out.append(mean_record(f"{name}_mean", {}, *t.counts(name, "v")))
    for k in KINDS:
        out.append(mean_record("upgrades_mean", {"kind": k}, *t.counts(f"upg_{k}", "v")))
    rounds = [int(rc[10:]) for rc in ROUND_COLUMNS]
    last = max((r for r in rounds if t.total("upgrades_round", "u", pl.col("round") == r)), default=0)
    for r in rounds:
        if r <= max(last, 1):
            out.append(mean_record("upgrades_by_round_mean", {"round": r}, *t.counts("upgrades_round", "u", round=r)))
    for k in ("seat", "speed", "route"):
        for s in STAGE_NAMES[:3]:
            out.append(mean_record("upgrades_by_stage_mean", {"kind": k, "stage": s}, *t.counts(f"upg_{k}_{s}", "v")))
    for name in STAGE_NAMES:
        v, k = t.counts(f"rounds_{name}", "v")
        out.append(mean_record("rounds_per_stage_mean", {"stage": name}, v, k))
        out.append(proportion("stage_reached_rate", {"stage": name}, int(k[v > 0].sum()), n))
    for s in range(cfg.n_seats):
        out.append(mean_record("plane_fares_mean", {"seat": s}, *t.counts("plane_fares", "v", seat=s)))
        out.append(mean_record("plane_delivered_mean", {"seat": s}, *t.counts("plane_delivered", "v", seat=s)))
    if getattr(cfg.section, "vip", False):
        out.append(mean_record("vips_taken_mean", {}, *t.counts("vips_taken", "v")))
    return out


def upgrade_timeline(tally):
    """Upgrades bought per round over the games still running in it: ``(rounds, means, lows,
    highs, games)`` lists (round r counts the games with ``turns >= r``, i.e. that played
    round r; 95 % normal intervals), from the tally's ``upgrades_round`` histogram (or a
    games frame's ``upgrades_r<r>`` columns), or None without it. The record ``upgrades_by_round_mean`` averages over all games instead (a
    game over counts 0)."""
    from sim.tally import mean_record

    tally = _timeline_tally(tally)
    if tally is None or "upgrades_round" not in tally.hists or tally.games == 0:
        return None
    h = tally.hist("upgrades_round")
    rounds = sorted(set(h["round"].to_list()))
    xs, ys, lo, hi, alive = [], [], [], [], []
    for r in rounds:
        v, k = tally.counts("upgrades_round", "u", round=r, alive=1)
        m = int(k.sum())
        if m == 0:
            break
        rec = mean_record("upgrades_by_round_mean", {"round": r}, v, k)
        xs.append(r)
        ys.append(rec["value"])
        lo.append(ci_lo(rec))
        hi.append(ci_hi(rec))
        alive.append(m)
    return (xs, ys, lo, hi, alive) if xs else None


def plots(tally, records, folder) -> list[tuple[str, str]]:
    """From the records and the :class:`sim.tally.Tally` of :func:`tally_spec` (or a games
    frame): stage of the loss, complaints by cause and by origin airport, and the upgrade timeline
    over the games still running in each round (with their number); (title, file) pairs.

    The game length (rounds) histogram is the generic one: a "round of the loss" chart would
    repeat it (nearly every game is lost)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import PercentFormatter

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    made: list[tuple[str, str]] = []

    def bar(metric, key, title, xlabel, ylabel, fname, percent=True, color="#4C72B0", names=None):
        rs = [r for r in records if r["metric"] == metric]
        if not rs:
            return
        fig, ax = plt.subplots(figsize=(7.0, 3.9))
        x = np.arange(len(rs))
        k = 100.0 if percent else 1.0
        v = np.array([r["value"] for r in rs]) * k
        lo = np.array([ci_lo(r) for r in rs]) * k
        hi = np.array([ci_hi(r) for r in rs]) * k
        ax.bar(x, v, color=color, zorder=2)
        ax.errorbar(x, v, yerr=[np.maximum(v - lo, 0), np.maximum(hi - v, 0)], fmt="none", ecolor="black",
                    capsize=4, zorder=3)
        for xi, vi, h in zip(x, v, hi):
            ax.text(xi, h, f"{vi:.1f}%" if percent else f"{vi:.2f}", ha="center", va="bottom", fontsize=8)
        ax.set_xticks(x, [names.get(str(r["by"][key]), str(r["by"][key])) if names else str(r["by"][key])
                          for r in rs])
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        if percent:
            ax.yaxis.set_major_formatter(PercentFormatter(xmax=100, decimals=0))
        ax.set_ylim(0, max(float(hi.max()), 1e-9) * 1.15)
        ax.set_title(title)
        ax.grid(axis="y", color="#dddddd", linewidth=0.8)
        ax.set_axisbelow(True)
        fig.tight_layout()
        fig.savefig(folder / fname, dpi=110)
        plt.close(fig)
        made.append((title, fname))

    n_lost = next((r["n"] for r in records if r["metric"] == "loss_stage_share"), 0)
    bar("loss_stage_share", "stage", f"When the team loses: stage of the loss ({n_lost:,} lost games)",
        "stage (final = the final round and the end count)", "share of lost games (%)", "nb_loss_stage.png",
        color="#C44E52")
    bar("complaints_by_cause_mean", "cause", "Complaints per game by cause (the team loses at 3)", "cause",
        "complaints per game (mean)", "nb_complaints_cause.png", percent=False, color="#DD8452",
        names={"anger": "anger\n(4th cube)", "leftover": "end count\n(undelivered)", "vip": "VIP\nnot taken"})
    bar("complaints_by_airport_mean", "airport", "Anger complaints by origin airport", "origin airport",
        "complaints per game (mean)", "nb_complaints_airport.png", percent=False, color="#DD8452")
    tally = _timeline_tally(tally)
    tl = upgrade_timeline(tally)
    if tl is not None:
        xs, ys, lo, hi, alive = tl
        last = int(tally.hist("upgrades_round")["round"].max())
        fig, ax = plt.subplots(figsize=(8.4, 4.2))
        ax.fill_between(xs, lo, hi, color="#55A868", alpha=0.25, label="95% interval")
        ax.plot(xs, ys, marker="o", color="#55A868", label="upgrades bought (mean over games still running)")
        ax.set_xlabel("round (its maintenance)" + (f"; round {last} includes later rounds" if xs and xs[-1] == last
                                                   else ""))
        ax.set_ylabel("upgrades bought per game (whole team)")
        ax.set_xticks(xs)
        ax2 = ax.twinx()
        ax2.bar(xs, alive, color="#999999", alpha=0.25, width=0.8, label="games still running (right axis)")
        ax2.set_ylabel("games still running")
        ax2.set_ylim(0, max(alive) * 1.05)
        ax.set_zorder(ax2.get_zorder() + 1)
        ax.patch.set_visible(False)
        step = max(1, len(xs) // 10)
        for x, a in list(zip(xs, alive))[::step]:
            ax2.annotate(f"{a:,}", (x, a), xytext=(0, 2), textcoords="offset points", ha="center",
                         fontsize=6, color="#555555", rotation=90 if a >= 10_000 else 0, va="bottom")
        ax.set_title("Upgrade timeline over the games still running")
        h1, l1 = ax.get_legend_handles_labels()
        h2, l2 = ax2.get_legend_handles_labels()
        ax.legend(h1 + h2, l1 + l2, loc="upper center", bbox_to_anchor=(0.5, -0.17), ncol=3, fontsize=8,
                  frameon=False)
        fig.tight_layout()
        fig.savefig(folder / "nb_upgrades.png", dpi=110)
        plt.close(fig)
        made.append(("Upgrade timeline (mean over the games still running in each round, their number shaded)",
                     "nb_upgrades.png"))
    bystage = [r for r in records if r["metric"] == "upgrades_by_stage_mean"]
    if bystage:
        fig, ax = plt.subplots(figsize=(7.0, 3.9))
        kinds3 = ["seat", "speed", "route"]
        wdt = 0.27
        x = np.arange(3)
        for i, (st, colr) in enumerate(zip(STAGE_NAMES[:3], ("#8172B3", "#64B5CD", "#CCB974"), strict=True)):
            rs = [next(r for r in bystage if r["by"] == {"kind": k, "stage": st}) for k in kinds3]
            v = np.array([r["value"] for r in rs])
            e = [v - np.array([ci_lo(r) for r in rs]), np.array([ci_hi(r) for r in rs]) - v]
            ax.bar(x + (i - 1) * wdt, v, wdt, yerr=np.maximum(e, 0), capsize=2, color=colr, label=st)
        ax.set_xticks(x, ["seat", "speed", "route"])
        ax.set_xlabel("permanent upgrade")
        ax.set_ylabel("bought per game (whole team)")
        ax.set_title("Permanent upgrades by kind and stage of the maintenance")
        ax.legend(title="stage", loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
        fig.tight_layout()
        fig.savefig(folder / "nb_upgrades_stage.png", dpi=110)
        plt.close(fig)
        made.append(("Permanent upgrades by kind and stage", "nb_upgrades_stage.png"))
    return made
