"""Flying Carpet metrics beyond the common ones (win rate by seat and policy, first-player
advantage, turns, stall rate, reshuffles, starved draws), and their plots. Every record is
built with the ``sim.metrics`` builders.

* ``rounds_mean``: rounds begun per race.
* by seat: ``blown_off_mean``, ``skipped_mean`` (die and blocks), ``blocks_given_mean``,
  ``blocks_suffered_mean``, ``forced_given_mean``, ``forced_suffered_mean``,
  ``tokens_left_mean``, ``star_landings_mean``, ``wasted_mean`` (turns that ended no nearer
  the finish, blown off included).
* by policy: ``wasted_mean`` and ``blown_off_mean`` per seat-appearance of the policy.
* ``winner_tokens_left_mean``: steering tokens the winner still held at the finish.
* ``win_rate_after_face`` by {"face": f}: win rate of the seats of a race that rolled face f
  at least once (each face's effect on the roller), against ``win_rate_no_roll`` (seats that
  never rolled).
* ``exact_wait_win_share``: share of decided races in which a loser had waited near the
  finish (``wait_turns`` > 0: it began turns within ``data.FINISH_NEAR`` spaces of the finish
  without landing exactly), i.e. the race was decided while someone waited for the exact
  landing; ``winner_wait_turns_mean``: the winner's own waiting turns.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sim.metrics import ci_hi, ci_lo, proportion

SEAT_MEANS = ("blown_off", "skipped", "blocks_given", "blocks_suffered", "forced_given", "forced_suffered",
              "tokens_left", "star_landings", "wasted")


def per_game(df, cfg) -> dict:
    """Per-game (num, den) arrays [games] of ``catalogue.HEADLINE`` for paired comparisons."""
    return {"rounds_mean": (df["rounds"].to_numpy().astype(float), np.ones(df.height))}


def _winner_value(col: str, S: int):
    """Per game: column ``<col>_s<winner>`` (0 without a winner)."""
    import polars as pl

    e = pl.lit(0)
    for s in reversed(range(S)):
        e = pl.when(pl.col("winner") == s).then(pl.col(f"{col}_s{s}")).otherwise(e)
    return e


def tally_spec(cfg) -> list:
    """What :func:`metrics` reads (:mod:`sim.tally`): rounds; per seat-valued column a
    histogram of (seat, policy, value) pooled over seats; among decided races the winner's
    tokens left and waiting turns and whether a loser waited; per seat-race the die faces
    rolled (one 0/1 key per face) and whether the seat won."""
    import polars as pl

    from sim.tally import hist, seat_hist

    S, c = cfg.n_seats, pl.col
    out: list = [hist("rounds", v=c("rounds"))]
    for col in SEAT_MEANS:
        out.append(seat_hist(col, S, lambda s, col=col: {"seat": pl.lit(s), "policy": c(f"policy_s{s}"),
                                                          "v": c(f"{col}_s{s}")}))
    decided = c("winner") >= 0
    out.append(hist("winner_tokens_left", where=decided, v=_winner_value("tokens_left", S)))
    out.append(hist("winner_wait_turns", where=decided, v=_winner_value("wait_turns", S)))
    out.append(hist("loser_waited", where=decided, v=pl.any_horizontal(
        [(c("winner") != s) & (c(f"wait_turns_s{s}") > 0) for s in range(S)])))
    out.append(seat_hist("faces", S, lambda s: {**{f"d{f}": c(f"die_{f}_s{s}") > 0 for f in range(1, 7)},
                                                "won": c("winner") == s}))
    return out


def metrics(tally, cfg) -> list[dict]:
    """Records (summary.json shape) of the metrics in the module docstring, from the
    :class:`sim.tally.Tally` of :func:`tally_spec` (or a games frame, tallied here)."""
    import polars as pl

    from sim.tally import game_tally, mean_record

    t = game_tally(tally, tally_spec, cfg)
    if t is None:
        return []
    S = cfg.n_seats
    out: list[dict] = [mean_record("rounds_mean", {}, *t.counts("rounds", "v"))]
    for s in range(S):
        for col in SEAT_MEANS:
            out.append(mean_record(f"{col}_mean", {"seat": s}, *t.counts(col, "v", seat=s)))
    labels = [seat.name for seat in cfg.seats]
    for label in dict.fromkeys(labels):
        for col in ("wasted", "blown_off"):
            v, k = t.counts(col, "v", policy=label)
            if k.sum():
                out.append(mean_record(f"{col}_mean", {"policy": label}, v, k))
    nd = t.count("loser_waited")
    if nd:
        out.append(mean_record("winner_tokens_left_mean", {}, *t.counts("winner_tokens_left", "v")))
        out.append(mean_record("winner_wait_turns_mean", {}, *t.counts("winner_wait_turns", "v")))
        out.append(proportion("exact_wait_win_share", {}, t.count("loser_waited", pl.col("v") != 0), nd))
    c = pl.col
    for f in range(1, 7):
        n = t.count("faces", c(f"d{f}") != 0)
        if n:
            out.append(proportion("win_rate_after_face", {"face": f}, t.count("faces", (c(f"d{f}") != 0) & (c("won") != 0)),
                                  n))
    none = pl.all_horizontal([c(f"d{f}") == 0 for f in range(1, 7)])
    n0 = t.count("faces", none)
    if n0:
        out.append(proportion("win_rate_no_roll", {}, t.count("faces", none & (c("won") != 0)), n0))
    return out


def plots(tally, records, folder: Path) -> list[tuple[str, str]]:
    """Die faces against the roller's win rate, and setbacks per seat, from the records
    (``tally`` unused); (title, file) pairs."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder = Path(folder)
    made = []
    faces = [r for r in records if r["metric"] == "win_rate_after_face"]
    base = [r for r in records if r["metric"] == "win_rate_no_roll"]
    if faces:
        from matplotlib.ticker import PercentFormatter

        fig, ax = plt.subplots(figsize=(7.4, 4.2))
        x = np.arange(len(faces))
        v = np.array([r["value"] for r in faces]) * 100
        lo = np.array([ci_lo(r) for r in faces]) * 100
        hi = np.array([ci_hi(r) for r in faces]) * 100
        ax.errorbar(x, v, yerr=[v - lo, hi - v], fmt="o", color="#4C72B0", elinewidth=2.5, capsize=7,
                    label="win rate of the rollers, 95% interval")
        for xi, vi in zip(x, v):
            ax.annotate(f"{vi:.1f}%", (xi, vi), xytext=(9, 0), textcoords="offset points", va="center", fontsize=8)
        ref = [float(lo.min()), float(hi.max())]
        if base:
            b = base[0]["value"] * 100
            ref.append(b)
            ax.axhline(b, color="#C44E52", linestyle="--", label=f"seats that never rolled: {b:.1f}%")
        span = max(ref) - min(ref)
        ax.set_ylim(max(0.0, min(ref) - 0.25 * span), min(100.0, max(ref) + 0.25 * span))
        ax.set_xlim(-0.6, len(faces) - 0.4)
        ax.yaxis.set_major_formatter(PercentFormatter(xmax=100, decimals=None))
        short = {"1": "skip", "2": "clouds", "3": "extra turn", "4": "2 tokens", "5": "swap", "6": "hop"}
        ax.set_xticks(x, [f"face {r['by']['face']}\n{short.get(str(r['by']['face']), '')}" for r in faces])
        ax.set_xlabel("die face rolled at least once in the race")
        ax.set_ylabel("win rate of the roller (%)")
        ax.set_title("Special die: win rate of the seats that rolled each face (axis zoomed)")
        ax.grid(axis="y", color="#dddddd", linewidth=0.8)
        ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.22), ncol=2, frameon=False)
        fig.tight_layout()
        fig.savefig(folder / "die_faces.png", dpi=110)
        plt.close(fig)
        made.append(("Special die: win rate of seats that rolled each face (95% intervals)", "die_faces.png"))
    names = ("blown_off_mean", "skipped_mean", "forced_suffered_mean")
    recs = [[r for r in records if r["metric"] == m and "seat" in r["by"]] for m in names]
    if recs[0]:
        fig, ax = plt.subplots(figsize=(7.0, 4.2))
        x = np.arange(len(recs[0]))
        wdt = 0.27
        for i, (rs, lab) in enumerate(zip(recs, ("blown off", "turns skipped", "forced landings"))):
            v = np.array([r["value"] for r in rs])
            lo = v - np.array([ci_lo(r) for r in rs])
            hi = np.array([ci_hi(r) for r in rs]) - v
            ax.bar(x + (i - 1) * wdt, v, wdt, yerr=[lo, hi], capsize=2, label=lab)
        ax.set_xticks(x, [f"seat {r['by']['seat']}" for r in recs[0]])
        ax.set_ylabel("times per race (mean, 95% interval)")
        ax.set_xlabel("seat in turn order (seat 0 plays first)")
        ax.set_title("Setbacks per seat")
        ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.18), ncol=3, frameon=False)
        fig.tight_layout()
        fig.savefig(folder / "setbacks_by_seat.png", dpi=110)
        plt.close(fig)
        made.append(("Setbacks per seat: blown off, turns skipped, forced landings", "setbacks_by_seat.png"))
    return made
