"""Clear for Takeoff metrics beyond the common ones, and their plots.

* ``weather_share`` by {"weather": code}: share of all turns begun under each weather, with
  an interval that counts games, not turns, as the unit (``sim.metrics.ratio``).
* ``flr_suffered_mean`` / ``dly_suffered_mean`` by seat: aircraft of that seat sent back to
  the hangar per game, by a card an opponent played or by one the seat itself drew face up
  in an exchange (which hits the drawer's most prepared aircraft).
* ``flr_played_mean`` / ``dly_played_mean`` by seat: attack cards played per game.
* ``takeoffs_blocked_mean`` by seat, and by {} for all seats together: takeoff attempts
  stopped by the weather per game.
* ``exchanges_mean`` by seat: turns per game a seat spent exchanging cards.
* ``winner_turn_mean``: player turns until the first airline finished.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sim.games.clear_for_takeoff.data import WEATHER_CARDS
from sim.games.clear_for_takeoff.layout import WEATHER_KEYS
from sim.metrics import mean, ratio

WEATHER_LABELS = dict(zip(WEATHER_KEYS, WEATHER_CARDS))
"""Column key -> card code (``sc`` -> ``SC``, ``31l`` -> ``31L`` ...)."""


def metrics(df, cfg) -> list[dict]:
    """Records (summary.json shape) of the game-specific metrics listed above."""
    S = cfg.n_seats
    out: list[dict] = []
    turns = df["turns"].to_numpy()
    for w in WEATHER_KEYS:
        out.append(ratio("weather_share", {"weather": WEATHER_LABELS[w]}, df[f"weather_turns_{w}"].to_numpy(), turns))
    for s in range(S):
        for col, name in (("flr_suffered", "flr_suffered_mean"), ("dly_suffered", "dly_suffered_mean"),
                          ("flr_played", "flr_played_mean"), ("dly_played", "dly_played_mean"),
                          ("blocked", "takeoffs_blocked_mean")):
            out.append(mean(name, {"seat": s}, df[f"{col}_s{s}"].to_numpy()))
    blocked = sum(df[f"blocked_s{s}"].to_numpy().astype(np.int64) for s in range(S))
    out.append(mean("takeoffs_blocked_mean", {}, blocked))
    for s in range(S):
        out.append(mean("exchanges_mean", {"seat": s}, df[f"exchanges_s{s}"].to_numpy()))
    won = df.filter(df["winner"] >= 0)
    if won.height:
        out.append(mean("winner_turn_mean", {}, won["winner_turn"].to_numpy()))
    return out


def plots(df, records, folder: Path) -> list[tuple[str, str]]:
    """Weather share and attacks suffered per seat; returns (title, file name) pairs."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder = Path(folder)
    made = []
    ws = [r for r in records if r["metric"] == "weather_share"]
    if ws:
        fig, ax = plt.subplots(figsize=(6.4, 3.6))
        x = np.arange(len(ws))
        v = np.array([r["value"] for r in ws]) * 100
        ax.bar(x, v, color="#4C72B0")
        ax.set_xticks(x, [r["by"]["weather"] for r in ws])
        ax.set_ylabel("share of turns (%)")
        ax.set_title("Weather in force at the start of a turn")
        for xi, vi in zip(x, v):
            ax.text(xi, vi, f"{vi:.1f}%", ha="center", va="bottom", fontsize=8)
        fig.tight_layout()
        fig.savefig(folder / "weather_share.png", dpi=110)
        plt.close(fig)
        made.append(("Weather share of turns", "weather_share.png"))
    fl = [r for r in records if r["metric"] == "flr_suffered_mean"]
    dl = [r for r in records if r["metric"] == "dly_suffered_mean"]
    bl = [r for r in records if r["metric"] == "takeoffs_blocked_mean" and "seat" in r["by"]]
    if fl:
        fig, ax = plt.subplots(figsize=(6.4, 3.6))
        x = np.arange(len(fl))
        wdt = 0.27
        for i, (rs, lab) in enumerate(((fl, "FLR suffered"), (dl, "DLY suffered"), (bl, "takeoffs blocked"))):
            v = np.array([r["value"] for r in rs])
            lo = v - np.array([r["ci_low"] for r in rs])
            hi = np.array([r["ci_high"] for r in rs]) - v
            ax.bar(x + (i - 1) * wdt, v, wdt, yerr=[lo, hi], capsize=2, label=lab)
        ax.set_xticks(x, [f"seat {r['by']['seat']}" for r in fl])
        ax.set_ylabel("per game (mean, 95% interval)")
        ax.set_title("Setbacks per seat (FLR / DLY: played on it or drawn face up)")
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(folder / "setbacks_by_seat.png", dpi=110)
        plt.close(fig)
        made.append(("Setbacks per seat: FLR and DLY suffered, takeoffs blocked by weather", "setbacks_by_seat.png"))
    return made
