"""Dice Race metrics beyond the common ones (win rates, first-player advantage, stalls,
length), and their plot.

* ``bumps_mean``: opponents sent back per game, all seats together, by seat and by policy
  (per seat-appearance of the policy).
* ``bumped_mean`` by seat: times a seat's token was sent back per game.
* ``passes_mean`` by seat: turns a seat had no allowed move per game (only with
  ``exact_finish``, RULES.md D1).
* ``runner_up_gap_mean``: spaces the best loser was short of the finish when the race was won
  (decided games): how close the races are.
* plot: bumps made and suffered per seat.

``catalogue.HEADLINE`` (what ``sim check`` gates beside the common numbers) and ``per_game``
(the same numbers game by game, for paired comparisons) name ``bumps_mean`` and
``runner_up_gap_mean``; the catalogue and the report's notes are in ``catalogue.py``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from sim.metrics import ci_hi, ci_lo
from sim.records import metric_label


def _runner_up(S: int) -> pl.Expr:
    """The best position of a seat other than the winner."""
    c = pl.col
    return pl.max_horizontal([pl.when(c("winner") != s).then(c(f"position_s{s}")).otherwise(-1) for s in range(S)])


def per_game(df, cfg) -> dict:
    """Per-game (num, den) arrays [games] of :data:`HEADLINE` for paired comparisons: bumps
    of all seats / 1; the runner-up's gap / 1 in decided games (0 / 0 otherwise)."""
    S = cfg.n_seats
    one = np.ones(df.height)
    bumps = df.select(pl.sum_horizontal([pl.col(f"bumps_s{s}").cast(pl.Int64) for s in range(S)])).to_series()
    decided = (df["winner"].to_numpy() >= 0).astype(float)
    gap = (cfg.section.track - df.select(_runner_up(S)).to_series().to_numpy()) * decided
    return {metric_label("bumps_mean", {}): (bumps.to_numpy().astype(float), one),
            metric_label("runner_up_gap_mean", {}): (gap.astype(float), decided)}


def tally_spec(cfg) -> list:
    """What :func:`metrics` reads (:mod:`sim.tally`): per seat a histogram of (seat, policy,
    bumps, bumped, passes) pooled over seats; bumps of all seats per game; the runner-up's gap
    in decided games."""
    from sim.tally import hist, seat_hist

    S, c = cfg.n_seats, pl.col
    return [
        seat_hist("seat", S, lambda s: {"seat": pl.lit(s), "policy": c(f"policy_s{s}"), "bumps": c(f"bumps_s{s}"),
                                        "bumped": c(f"bumped_s{s}"), "passes": c(f"passes_s{s}")}),
        hist("bumps", v=pl.sum_horizontal([c(f"bumps_s{s}").cast(pl.Int64) for s in range(S)])),
        hist("gap", where=c("winner") >= 0, v=cfg.section.track - _runner_up(S)),
    ]


def metrics(tally, cfg) -> list[dict]:
    """Records (summary.json shape) of the metrics listed above, from the
    :class:`sim.tally.Tally` of :func:`tally_spec` (or a games frame, tallied here)."""
    from sim.tally import game_tally, mean_record

    t = game_tally(tally, tally_spec, cfg)
    if t is None:
        return []
    out = [mean_record("bumps_mean", {}, *t.counts("bumps", "v"))]
    for s in range(cfg.n_seats):
        out.append(mean_record("bumps_mean", {"seat": s}, *t.counts("seat", "bumps", seat=s)))
        out.append(mean_record("bumped_mean", {"seat": s}, *t.counts("seat", "bumped", seat=s)))
        out.append(mean_record("passes_mean", {"seat": s}, *t.counts("seat", "passes", seat=s)))
    present = set(t.hist("seat")["policy"].to_list())
    for label in dict.fromkeys(x.name for x in cfg.seats):
        if label in present:
            out.append(mean_record("bumps_mean", {"policy": label}, *t.counts("seat", "bumps", policy=label)))
    v, k = t.counts("gap", "v")
    if k.sum():
        out.append(mean_record("runner_up_gap_mean", {}, v, k))
    return out


def plots(tally, records, folder: Path) -> list[tuple[str, str]]:
    """Bumps made and suffered per seat, from the records (``tally`` unused); returns
    (title, file name) pairs."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    made = [r for r in records if r["metric"] == "bumps_mean" and "seat" in r["by"]]
    took = [r for r in records if r["metric"] == "bumped_mean" and "seat" in r["by"]]
    if not made or len(made) != len(took):
        return []
    fig, ax = plt.subplots(figsize=(7.2, 4.0))
    x = np.arange(len(made))
    wdt = 0.38
    for rs, dx, label, colour in ((made, -wdt / 2, "sent an opponent back", "#55A868"),
                                  (took, wdt / 2, "was sent back", "#C44E52")):
        v = np.array([r["value"] for r in rs])
        lo = v - np.array([ci_lo(r) for r in rs])
        hi = np.array([ci_hi(r) for r in rs]) - v
        ax.bar(x + dx, v, wdt, yerr=[np.maximum(lo, 0), np.maximum(hi, 0)], capsize=3, label=label, color=colour)
    ax.set_xticks(x, [f"seat {r['by']['seat']}" for r in made])
    ax.set_xlabel("seat in turn order (seat 0 rolls first)")
    ax.set_ylabel("bumps per game (mean, 95% interval)")
    ax.set_title("Bumps per seat: made and suffered")
    ax.legend(fontsize=8, frameon=False)
    fig.tight_layout()
    fig.savefig(Path(folder) / "bumps_by_seat.png", dpi=110)
    plt.close(fig)
    return [("Bumps per seat: opponents sent back, and times sent back", "bumps_by_seat.png")]
