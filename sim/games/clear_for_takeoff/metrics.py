"""Clear for Takeoff metrics beyond the common ones, and their plots.

* ``weather_share`` by {"weather": code}: share of all turns begun under each weather, with
  an interval that counts games, not turns, as the unit (``sim.metrics.ratio``).
* ``flr_suffered_mean`` / ``dly_suffered_mean`` by seat: aircraft of that seat sent back to
  the hangar per game, by a card an opponent played or by one the seat itself drew face up
  in an exchange (which hits the drawer's most prepared aircraft): the sum of the two causes,
  ``flr_played_on_mean`` / ``dly_played_on_mean`` (played on it) and ``flr_drawn_mean`` /
  ``dly_drawn_mean`` (drawn by it), each by seat too.
* ``flr_played_mean`` / ``dly_played_mean`` by seat: attack cards played per game.
* by {"policy": label}: ``flr_played_mean``, ``dly_played_mean``, ``flr_played_on_mean``,
  ``dly_played_on_mean``, ``flr_drawn_mean``, ``dly_drawn_mean``, ``flr_suffered_mean``,
  ``dly_suffered_mean``: per seat-appearance of the policy (one value per game and seat the
  policy sat in; the seats of one game are not independent, so with a policy in several
  seats the interval is a little narrow), so "does attacking pay, and who pays for it" reads
  beside ``win_rate`` by policy.
* plots: weather share, setbacks per seat by cause, attacks by policy (played, played on it,
  drawn by it).
* ``cut_off_rate``: share of games the turn cap stopped after the winner finished, before the
  finishing order was complete (counted as won; ``stall_rate`` counts only games with no
  winner, so seat win rates and the stall rate sum to 1).
* ``takeoffs_blocked_mean`` by seat, and by {} for all seats together: takeoff attempts
  stopped by the weather per game.
* ``exchanges_mean`` by seat: turns per game a seat spent exchanging cards.
* ``winner_turn_mean``: player turns until the first airline finished.
* ``forgot_draw_mean`` / ``forgot_takeoff_mean`` (RULES.md D13, only when ``forget_draw`` /
  ``forget_takeoff`` > 0, so a run without forgetting reports exactly what it reported before):
  draws and take-offs forgotten per game, all seats together ({}), by seat and by policy.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from sim.games.clear_for_takeoff.data import WEATHER_CARDS
from sim.games.clear_for_takeoff.layout import WEATHER_KEYS
from sim.metrics import ci_hi, ci_lo, proportion

WEATHER_LABELS = dict(zip(WEATHER_KEYS, WEATHER_CARDS))
"""Column key -> card code (``sc`` -> ``SC``, ``31l`` -> ``31L`` ...)."""


_SEAT_COLUMNS = {
    "flr_suffered_mean": ("flr_played_on", "flr_drawn"),
    "dly_suffered_mean": ("dly_played_on", "dly_drawn"),
    "flr_played_on_mean": ("flr_played_on",),
    "flr_drawn_mean": ("flr_drawn",),
    "dly_played_on_mean": ("dly_played_on",),
    "dly_drawn_mean": ("dly_drawn",),
    "flr_played_mean": ("flr_played",),
    "dly_played_mean": ("dly_played",),
    "takeoffs_blocked_mean": ("blocked",),
}
"""Per-seat metric -> the result columns of seat s whose sum is its value per game."""

_POLICY_VALUES = ("flr_played_mean", "dly_played_mean", "flr_played_on_mean", "dly_played_on_mean",
                  "flr_drawn_mean", "dly_drawn_mean", "flr_suffered_mean", "dly_suffered_mean")
"""The per-seat metrics also reported by policy."""


def per_game(df, cfg) -> dict:
    """Per-game (num, den) arrays [games] of ``catalogue.HEADLINE`` for paired comparisons:
    weather_share = turns under the weather / turns; cut_off and reshuffles per game."""
    turns = df["turns"].to_numpy().astype(float)
    one = np.ones(df.height)
    out = {f"weather_share[weather={WEATHER_LABELS[w]}]": (df[f"weather_turns_{w}"].to_numpy().astype(float), turns)
           for w in WEATHER_KEYS}
    out["cut_off_rate"] = (df["cut_off"].to_numpy().astype(float), one)
    out["reshuffles_mean"] = (df["reshuffles"].to_numpy().astype(float), one)
    return out


def tally_spec(cfg) -> list:
    """What :func:`metrics` reads (:mod:`sim.tally`): per weather the moment sums of (turns
    under it, turns); per seat-valued metric a histogram of (seat, policy, value) pooled over
    seats; the takeoffs blocked of all seats together; exchanges by seat; cut_off; the
    winner's turn among decided games."""

    from sim.tally import Moments, hist, seat_hist

    S, c = cfg.n_seats, pl.col
    out: list = [Moments(f"weather_{w}", ((c(f"weather_turns_{w}"), c("turns")),)) for w in WEATHER_KEYS]
    for name, cols in _SEAT_COLUMNS.items():
        out.append(seat_hist(name, S, lambda s, cols=cols: {
            "seat": pl.lit(s), "policy": c(f"policy_s{s}"), "v": sum(c(f"{k}_s{s}").cast(pl.Int64) for k in cols)}))
    out.append(hist("takeoffs_blocked", v=pl.sum_horizontal([c(f"blocked_s{s}").cast(pl.Int64) for s in range(S)])))
    out.append(seat_hist("exchanges", S, lambda s: {"seat": pl.lit(s), "v": c(f"exchanges_s{s}")}))
    out.append(hist("cut_off", v=c("cut_off")))
    out.append(hist("winner_turn", where=c("winner") >= 0, v=c("winner_turn")))
    for name, col in _forgetting(cfg):
        out.append(seat_hist(name, S, lambda s, col=col: {"seat": pl.lit(s), "policy": c(f"policy_s{s}"),
                                                          "v": c(f"{col}_s{s}")}))
        out.append(hist(f"{name}_all", v=pl.sum_horizontal([c(f"{col}_s{s}").cast(pl.Int64) for s in range(S)])))
    return out


def _forgetting(cfg) -> list[tuple[str, str]]:
    """(metric, result column) of the forgetting options that are on (RULES.md D13)."""
    sec = cfg.section
    return [(m, col) for m, col, q in (("forgot_draw_mean", "forgot_draw", sec.forget_draw),
                                       ("forgot_takeoff_mean", "forgot_takeoff", sec.forget_takeoff)) if q > 0]


def metrics(tally, cfg) -> list[dict]:
    """Records (summary.json shape) of the game-specific metrics listed above, from the
    :class:`sim.tally.Tally` of :func:`tally_spec` (or a games frame, tallied here)."""
    from sim.tally import game_tally, mean_record, ratio_record

    t = game_tally(tally, tally_spec, cfg)
    if t is None:
        return []
    S = cfg.n_seats
    out: list[dict] = []
    for w in WEATHER_KEYS:
        out.append(ratio_record("weather_share", {"weather": WEATHER_LABELS[w]}, t.moments[f"weather_{w}"]))
    for s in range(S):
        for name in _SEAT_COLUMNS:
            out.append(mean_record(name, {"seat": s}, *t.counts(name, "v", seat=s)))
    labels = [x.name for x in cfg.seats]
    present = set(t.hist(next(iter(_SEAT_COLUMNS)))["policy"].to_list())
    for label in dict.fromkeys(labels):
        if label not in present:
            continue
        for name in _POLICY_VALUES:
            v, k = t.counts(name, "v", policy=label)
            if k.sum():
                out.append(mean_record(name, {"policy": label}, v, k))
    out.append(mean_record("takeoffs_blocked_mean", {}, *t.counts("takeoffs_blocked", "v")))
    for s in range(S):
        out.append(mean_record("exchanges_mean", {"seat": s}, *t.counts("exchanges", "v", seat=s)))
    out.append(proportion("cut_off_rate", {}, t.total("cut_off", "v"), t.games))
    v, k = t.counts("winner_turn", "v")
    if k.sum():
        out.append(mean_record("winner_turn_mean", {}, v, k))
    for name, _col in _forgetting(cfg):
        out.append(mean_record(name, {}, *t.counts(f"{name}_all", "v")))
        for s in range(S):
            out.append(mean_record(name, {"seat": s}, *t.counts(name, "v", seat=s)))
        for label in dict.fromkeys(labels):
            v, k = t.counts(name, "v", policy=label)
            if k.sum():
                out.append(mean_record(name, {"policy": label}, v, k))
    return out


def plots(tally, records, folder: Path) -> list[tuple[str, str]]:
    """Weather share and setbacks per seat (FLR / DLY by cause, takeoffs blocked), from the
    records (``tally`` unused); returns (title, file name) pairs."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder = Path(folder)
    made = []
    ws = [r for r in records if r["metric"] == "weather_share"]
    if ws:
        from matplotlib.ticker import PercentFormatter

        fig, ax = plt.subplots(figsize=(7.2, 4.0))
        x = np.arange(len(ws))
        v = np.array([r["value"] for r in ws]) * 100
        lo = np.array([ci_lo(r) for r in ws]) * 100
        hi = np.array([ci_hi(r) for r in ws]) * 100
        ax.bar(x, v, color="#4C72B0", zorder=2)
        ax.errorbar(x, v, yerr=[np.maximum(v - lo, 0), np.maximum(hi - v, 0)], fmt="none", ecolor="black",
                    capsize=4, zorder=3)
        codes = [r["by"]["weather"] for r in ws]
        short = {"SC": "clear", "FG": "fog", "31L": "31L closed", "31R": "31R closed", "SN": "snow",
                 "XW": "crosswind", "ICE": "ice"}
        ax.set_xticks(x, [f"{c}\n{short.get(c, '')}" for c in codes])
        ax.set_xlabel("weather card in force")
        ax.set_ylabel("share of player turns (%)")
        ax.yaxis.set_major_formatter(PercentFormatter(xmax=100, decimals=0))
        ax.set_ylim(0, float(hi.max()) * 1.15)
        ax.set_title("Weather in force at the start of a turn (95% intervals)")
        for xi, vi, h in zip(x, v, hi):
            ax.text(xi, h, f"{vi:.1f}%", ha="center", va="bottom", fontsize=8)
        ax.grid(axis="y", color="#dddddd", linewidth=0.8)
        ax.set_axisbelow(True)
        fig.tight_layout()
        fig.savefig(folder / "weather_share.png", dpi=110)
        plt.close(fig)
        made.append(("Weather share of turns (SC clear, FG fog, 31L/31R runway closed, SN snow, XW crosswind, "
                     "ICE ice)", "weather_share.png"))

    def by_seat(metric):
        return [r for r in records if r["metric"] == metric and "seat" in r["by"]]

    fl_on, fl_dr = by_seat("flr_played_on_mean"), by_seat("flr_drawn_mean")
    dl_on, dl_dr = by_seat("dly_played_on_mean"), by_seat("dly_drawn_mean")
    bl = by_seat("takeoffs_blocked_mean")
    if fl_on and len(fl_on) == len(fl_dr) == len(dl_on) == len(dl_dr) == len(bl):
        fig, ax = plt.subplots(figsize=(7.2, 4.4))
        x = np.arange(len(fl_on))
        wdt = 0.27

        def vals(rs):
            return np.array([r["value"] for r in rs])

        ax.bar(x - wdt, vals(fl_on), wdt, label="FLR played on it", color="#C44E52")
        ax.bar(x - wdt, vals(fl_dr), wdt, bottom=vals(fl_on), label="FLR drawn by it", color="#E8A0A2")
        ax.bar(x, vals(dl_on), wdt, label="DLY played on it", color="#4C72B0")
        ax.bar(x, vals(dl_dr), wdt, bottom=vals(dl_on), label="DLY drawn by it", color="#A5BDE0")
        v = vals(bl)
        lo = v - np.array([ci_lo(r) for r in bl])
        hi = np.array([ci_hi(r) for r in bl]) - v
        ax.bar(x + wdt, v, wdt, yerr=[lo, hi], capsize=2, label="takeoffs blocked", color="#8C8C8C")
        ax.set_xticks(x, [f"seat {r['by']['seat']}" for r in fl_on])
        ax.set_ylabel("aircraft or attempts per game (mean)")
        ax.set_title("Setbacks per seat: FLR / DLY by cause, takeoffs blocked")
        top = max(float((vals(fl_on) + vals(fl_dr)).max()), float((vals(dl_on) + vals(dl_dr)).max()),
                  float(np.array([ci_hi(r) for r in bl]).max()))
        ax.set_ylim(0, top * 1.1)
        ax.set_xlabel("seat in turn order (seat 0 plays first)")
        ax.legend(fontsize=7, ncol=3, loc="upper center", bbox_to_anchor=(0.5, -0.18), frameon=False)
        fig.tight_layout()
        fig.savefig(folder / "setbacks_by_seat.png", dpi=110)
        plt.close(fig)
        made.append(("Setbacks per seat: FLR and DLY played on it or drawn by it, takeoffs blocked by weather",
                     "setbacks_by_seat.png"))
    pol = sorted({r["by"]["policy"] for r in records if r["metric"] == "flr_played_mean" and "policy" in r["by"]})
    if pol:
        def rec(metric, label):
            return next((r for r in records if r["metric"] == metric and r["by"].get("policy") == label), None)

        def total(kind, q):
            """FLR + DLY of one kind for policy q: the sum of the two means and a 95 % interval at least
            as wide as the sum's (the two cards' half-widths added: sd(X + Y) <= sd(X) + sd(Y))."""
            rs = [rec(f"{card}_{kind}_mean", q) for card in ("flr", "dly")]
            v = sum(r["value"] for r in rs if r is not None)
            half = sum((ci_hi(r) - ci_lo(r)) / 2 for r in rs if r is not None and np.isfinite(ci_hi(r) - ci_lo(r)))
            return v, half

        fig, ax = plt.subplots(figsize=(7.2, 4.6))
        x = np.arange(len(pol))
        wdt = 0.27
        tops = []
        for off, kind, label, colour in ((-wdt, "played", "FLR + DLY played", "#55A868"),
                                         (0.0, "played_on", "played on it", "#C44E52"),
                                         (wdt, "drawn", "drawn by it (own face-up draw)", "#E8A0A2")):
            vh = [total(kind, q) for q in pol]
            v = np.array([a for a, _ in vh])
            h = np.array([b for _, b in vh])
            ax.bar(x + off, v, wdt, yerr=[np.minimum(h, v), h], capsize=2, ecolor="black", label=label, color=colour)
            for xi, vi, hi in zip(x + off, v, h):  # a value on every bar: a policy that never attacks shows 0
                ax.annotate("0: none" if vi == 0 else f"{vi:.2f}", (xi, vi + hi), xytext=(0, 2),
                            textcoords="offset points", ha="center", va="bottom", fontsize=7)
            tops.append(float((v + h).max()))
        ax.set_xticks(x, pol)
        ax.set_ylabel("cards per game and seat (mean)")
        ax.set_title("Attacks by policy: played, suffered from opponents, self-inflicted\n"
                     "(error bars: 95 % intervals of FLR + DLY, the two cards' half-widths added)", fontsize=10)
        ax.set_ylim(0, max(tops) * 1.15 + 1e-9)
        ax.set_xlabel("policy")
        ax.legend(fontsize=7, ncol=3, loc="upper center", bbox_to_anchor=(0.5, -0.18), frameon=False)
        fig.tight_layout()
        fig.savefig(folder / "attacks_by_policy.png", dpi=110)
        plt.close(fig)
        never = [q for q in pol if total("played", q)[0] == 0]
        made.append(("Attacks by policy: FLR and DLY played, played on it, drawn by it"
                     + (f" ({', '.join(never)} played no attack card: its bar is 0)" if never else ""),
                     "attacks_by_policy.png"))
    return made
