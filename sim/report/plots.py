"""The generic report plots (matplotlib, Agg backend, imported inside the functions).

Every function writes one PNG into ``folder`` and returns ``(title, file name)``, or None
when the data needed is absent. Intervals come from the metric records (what the tables
print); the frame is used for distributions and as a fallback when a record is missing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from sim.report.format import find

DPI = 110
BAR = "#4C72B0"
ALT = "#DD8452"
STALL = "#C44E52"
GRID = dict(axis="y", color="#dddddd", linewidth=0.8)


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _percent_axis(ax, axis: str = "y") -> None:
    """Percent tick labels on ``axis`` with as many decimals as the axis's current span needs for
    its ticks to read differently (0 from a span of 8 points, then 1, then 2): call it after the
    data and limits are set."""
    from matplotlib.ticker import PercentFormatter

    lo, hi = ax.get_ylim() if axis == "y" else ax.get_xlim()
    span = abs(hi - lo) * 100
    fmt = PercentFormatter(xmax=1.0, decimals=0 if span >= 8 else 1 if span >= 0.8 else 2)
    (ax.yaxis if axis == "y" else ax.xaxis).set_major_formatter(fmt)


def _save(fig, folder: Path, name: str) -> None:
    fig.tight_layout(rect=(0, getattr(fig, "_sim_legend_strip", 0.0), 1, 1))
    fig.savefig(folder / name, dpi=DPI)
    _plt().close(fig)


def _num(x: Any) -> float:
    try:
        f = float(x)
    except (TypeError, ValueError):
        return float("nan")
    return f


def proportion_with_ci(records: Sequence[dict], metric: str, by: dict, df=None, expr=None) -> tuple[float, float, float]:
    """(value, low, high) of a proportion: from the record ``metric``/``by``; else from the
    frame (``expr`` a boolean polars expression, Wilson interval); else NaNs."""
    r = find(records, metric, **by)
    if r is not None:
        v = _num(r.get("value"))
        lo, hi = _num(r.get("ci_low")), _num(r.get("ci_high"))
        return v, lo, hi
    if df is not None and expr is not None and df.height > 0:
        from sim.stats import wilson

        k = int(df.select(expr.cast(int).sum()).item())
        n = df.height
        lo, hi = wilson(k, n)
        return k / n, float(lo), float(hi)
    nan = float("nan")
    return nan, nan, nan


def _err(values, lows, highs):
    """Asymmetric error bar array, zeros where an interval is missing."""
    import numpy as np

    v = np.asarray(values, dtype=float)
    lo = np.asarray(lows, dtype=float)
    hi = np.asarray(highs, dtype=float)
    below = np.where(np.isfinite(lo), v - lo, 0.0)
    above = np.where(np.isfinite(hi), hi - v, 0.0)
    return np.clip(np.vstack([below, above]), 0, None)


def _label_bars(ax, bars, values, highs) -> None:
    import math

    for b, v, h in zip(bars, values, highs, strict=False):
        if not math.isfinite(v):
            continue
        top = h if math.isfinite(h) else v
        ax.annotate(
            f"{v * 100:.1f}%",
            (b.get_x() + b.get_width() / 2, top),
            xytext=(0, 3),
            textcoords="offset points",
            ha="center",
            va="bottom",
            fontsize=8,
        )


def _bar_chart(folder: Path, name: str, title: str, labels, values, lows, highs, xlabel: str,
               ylabel: str, fair: float | None = None, fair_label: str = "") -> None:
    import math

    plt = _plt()
    width = max(5.0, min(12.0, 1.2 + 0.9 * len(labels)))
    fig, ax = plt.subplots(figsize=(width, 4.0))
    xs = list(range(len(labels)))
    bars = ax.bar(xs, values, color=BAR, width=0.6, zorder=2)
    ax.errorbar(xs, values, yerr=_err(values, lows, highs), fmt="none", ecolor="black", capsize=5,
                linewidth=1.2, zorder=3, label="95% interval (Wilson)")
    _label_bars(ax, bars, values, highs)
    if fair is not None:
        ax.axhline(fair, linestyle="--", color="#555555", linewidth=1, zorder=1, label=fair_label)
    ax.set_xticks(xs, labels, rotation=0 if len(labels) <= 6 else 30, ha="center" if len(labels) <= 6 else "right")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    finite = [h for h in list(highs) + list(values) if math.isfinite(h)]
    headroom_for_legend(ax, max(finite + [fair or 0.0, 0.05]))
    _percent_axis(ax)
    ax.grid(**GRID)
    ax.set_axisbelow(True)
    _legend_outside(ax)
    _save(fig, folder, name)


def _legend_outside(ax, ncol: int = 3, handles=None, labels=None) -> None:
    """The axes' legend in a strip along the figure's bottom edge, below the tick labels and the
    axis label (it covers no data and no text: :func:`_save` lays the axes out above the strip)."""
    if handles is None:
        handles, labels = ax.get_legend_handles_labels()
    if handles:
        fig = ax.figure
        leg = fig.legend(handles, labels, loc="lower center", bbox_to_anchor=(0.5, 0.005),
                         ncol=min(ncol, len(handles)), fontsize=8, frameon=False)
        fig.canvas.draw()
        fig._sim_legend_strip = (leg.get_window_extent().height + 4) / fig.bbox.height


def scaled_limits(lows, highs, extra=(), pad: float = 0.25, floor: float = 0.0, ceil: float = 1.0,
                  min_span: float = 0.01) -> tuple[float, float]:
    """y limits that fit the intervals ``lows``..``highs`` (and the ``extra`` reference
    values) with ``pad`` of their span on each side, clipped to [floor, ceil]: a 1-point
    spread between seats fills the axis instead of hiding at the top of a 0-100 % scale."""
    import math

    vals = [float(v) for v in list(lows) + list(highs) + list(extra) if v is not None and math.isfinite(float(v))]
    if not vals:
        return floor, ceil
    lo, hi = min(vals), max(vals)
    span = max(hi - lo, min_span)
    return max(floor, lo - pad * span), min(ceil, hi + pad * span)


def _interval_chart(folder: Path, name: str, title: str, labels, values, lows, highs, xlabel: str,
                    ylabel: str, fair: float | None = None, fair_label: str = "",
                    interval_label: str = "95% interval (Wilson)") -> None:
    """Rates as points with their 95 % interval bars on an axis scaled to the intervals (not
    from 0), the fair share dashed, each point labelled with its value; legend below."""
    import math

    plt = _plt()
    longest = max((len(line) for lab in labels for line in str(lab).splitlines()), default=0)
    width = max(5.5, min(12.0, 1.6 + max(1.0, 0.09 * longest) * len(labels)))
    fig, ax = plt.subplots(figsize=(width, 4.2 + 0.15 * max(str(lab).count("\n") for lab in labels or [""])))
    xs = list(range(len(labels)))
    ax.errorbar(xs, values, yerr=_err(values, lows, highs), fmt="o", color=BAR, ecolor=BAR, elinewidth=2.5,
                capsize=8, capthick=2, markersize=7, zorder=3, label=interval_label)
    for x, v in zip(xs, values, strict=False):
        if math.isfinite(v):
            ax.annotate(f"{v * 100:.1f}%", (x, v), xytext=(10, 0), textcoords="offset points", ha="left",
                        va="center", fontsize=8)
    if fair is not None:
        ax.axhline(fair, linestyle="--", color="#555555", linewidth=1, zorder=1, label=fair_label)
    lo, hi = scaled_limits(lows, highs, [fair] if fair is not None else [])
    ax.set_ylim(lo, hi)
    ax.set_xlim(-0.6, len(labels) - 0.4)
    ax.set_xticks(xs, labels, rotation=0 if len(labels) <= 6 else 30, ha="center" if len(labels) <= 6 else "right")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.yaxis.set_major_formatter(_pct_fmt(hi - lo))
    ax.grid(**GRID)
    ax.set_axisbelow(True)
    _legend_outside(ax)
    _save(fig, folder, name)


def headroom_for_legend(ax, top: float) -> None:
    """y range 0..top with room above the bars (and their labels) for a one-row legend;
    ticks stop at 100%."""
    import numpy as np

    upper = top * 1.32 if top < 0.75 else top + 0.3
    ax.set_ylim(0, upper)
    if upper > 1.0:
        ax.set_yticks(np.linspace(0, 1, 6))


def plot_win_rate_by_seat(df, records, seat_labels: Sequence[str] | None, n_seats: int, folder: Path,
                          rotate: bool = False, seat_axis: str = "seat in turn order (seat 0 plays first)",
                          traits: Sequence[str] = ()) -> tuple[str, str] | None:
    """Win rate of each seat with its Wilson 95% interval on an axis scaled to the intervals,
    and a dashed line at the fair share 1/seats. ``seat_axis`` names what a seat is in the
    game (its x label, wrapped to the figure); ``traits`` what else tells the seats apart
    (``GameDef.seat_traits``: Yukon's planes), a line under each seat's tick."""
    import polars as pl

    if n_seats < 1:
        return None
    vals, lows, highs, labels = [], [], [], []
    for i in range(n_seats):
        expr = (pl.col("winner") == i) if df is not None and "winner" in df.columns else None
        v, lo, hi = proportion_with_ci(records, "win_rate", {"seat": i}, df, expr)
        vals.append(v)
        lows.append(lo)
        highs.append(hi)
        lab = f"seat {i}"
        if seat_labels and not rotate and i < len(seat_labels):
            lab += f"\n{seat_labels[i]}"
        if i < len(traits):
            lab += "\n" + str(traits[i])
        labels.append(lab)
    name = "win_rate_seat.png"
    _interval_chart(folder, name, "Win rate by seat (axis zoomed to the intervals)", labels, vals, lows, highs,
                    seat_axis + ("\n(policies rotated over seats)" if rotate else ""),
                    "games won (%)", fair=1.0 / n_seats, fair_label=f"fair share 1/{n_seats} = {100 / n_seats:.1f}%")
    return ("Win rate by seat", name)


def plot_win_rate_by_policy(records, n_seats: int, folder: Path) -> tuple[str, str] | None:
    """Win rate of each policy label (records ``win_rate`` by ``{"policy": label}``), per game
    and seat the policy sat in, with Wilson intervals on a scaled axis."""
    recs = [r for r in records if r.get("metric") == "win_rate" and set((r.get("by") or {})) == {"policy"}]
    if not recs:
        return None
    labels = [str(r["by"]["policy"]) for r in recs]
    vals = [_num(r.get("value")) for r in recs]
    lows = [_num(r.get("ci_low")) for r in recs]
    highs = [_num(r.get("ci_high")) for r in recs]
    name = "win_rate_policy.png"
    _interval_chart(folder, name, "Win rate by policy (per game and seat the policy played)", labels, vals, lows,
                    highs, "policy", "games won (%)", fair=1.0 / n_seats if n_seats else None,
                    fair_label=f"fair share 1/{n_seats} = {100 / n_seats:.1f}%" if n_seats else "")
    return ("Win rate by policy", name)


def plot_rank_distribution(df, records, n_seats: int, folder: Path,
                           seat_axis: str = "seat in turn order (seat 0 plays first)", traits: Sequence[str] = (),
                           threshold: float = 0.03) -> tuple[str, str] | None:
    """A seat x rank table of the share of games each seat finished at each rank, every cell
    labelled with its value (one decimal) and coloured by its distance from the fair share
    1/seats (unranked = the game ended before the seat finished). The colours reach full
    strength at ``threshold`` (the report's seat-spread threshold, 3 points by default), at 3
    standard errors of a share, or at the largest distance, whichever is largest, and the colour
    bar says where: a difference far below what matters stays pale. ``traits`` name the seats
    (``GameDef.seat_traits``)."""
    import numpy as np

    shares = np.full((n_seats, n_seats + 1), np.nan)  # column 0 = unranked
    for i in range(n_seats):
        for r in range(n_seats + 1):
            rec = find(records, "rank_share", seat=i, rank=r)
            if rec is not None:
                shares[i, r] = _num(rec.get("value"))
    if np.isnan(shares[:, 1:]).all():
        if df is None or "rank_s0" not in df.columns or df.height == 0:
            return None
        for i in range(n_seats):
            col = df[f"rank_s{i}"].to_numpy()
            for r in range(n_seats + 1):
                shares[i, r] = float((col == r).mean())
    shares = np.nan_to_num(shares)
    plt = _plt()
    order = list(range(1, n_seats + 1)) + ([0] if shares[:, 0].sum() > 0 else [])
    grid = shares[:, order]  # seats x ranks
    fair = 1.0 / n_seats
    dev = grid[:, :n_seats] - fair
    n_games = next((int(r["n"]) for r in records if r.get("metric") == "rank_share" and r.get("n")), None)
    if n_games is None and df is not None:
        n_games = df.height
    # colours saturate at the larger of the largest deviation and 3 standard errors of a share,
    # so sampling noise stays pale
    noise = 3 * float(np.sqrt(fair * (1 - fair) / n_games)) if n_games else 0.0
    lim = max(float(np.abs(dev).max()), noise, float(threshold), 0.002)
    why = ("the largest distance" if lim == float(np.abs(dev).max()) else
           "3 standard errors of a share" if lim == noise else "the seat-spread threshold" if lim == threshold
           else "a floor")
    fig, ax = plt.subplots(figsize=(max(7.0, 2.6 + 1.1 * len(order)), max(3.4, 1.4 + 0.55 * n_seats)))
    colour = np.zeros_like(grid)
    colour[:, :n_seats] = dev
    im = ax.imshow(colour, cmap="RdBu_r", vmin=-lim, vmax=lim, aspect="auto")
    for i in range(n_seats):
        for j in range(len(order)):
            ax.text(j, i, f"{grid[i, j] * 100:.1f}%", ha="center", va="center", fontsize=8,
                    color="white" if j < n_seats and abs(dev[i, j]) > 0.6 * lim else "black")
    ax.set_xticks(range(len(order)), [_ordinal(r) if r else "unranked\n(not finished)" for r in order])
    ax.set_yticks(range(n_seats), [f"seat {i}" + (f"\n{traits[i]}" if i < len(traits) else "")
                                   for i in range(n_seats)])
    ax.set_xlabel("finishing rank (1st = first to finish)")
    ax.set_ylabel("seat")
    ax.set_title(f"Finishing rank by seat: share of games (fair share {fair * 100:.1f}%)\n{seat_axis}",
                 fontsize=10)
    cb = fig.colorbar(im, ax=ax, fraction=0.05, pad=0.02)
    cb.set_label(f"above / below the fair share (points)\nfull colour at ±{lim * 100:.1f} ({why})", fontsize=8)
    from matplotlib.ticker import FuncFormatter

    places = 1 if lim >= 0.004 else 2
    cb.ax.yaxis.set_major_formatter(FuncFormatter(lambda x, _pos: f"{x * 100:+.{places}f}" if abs(x) > 1e-12 else "0"))
    name = "rank_distribution.png"
    _save(fig, folder, name)
    return ("Finishing rank by seat", name)


def _ordinal(n: int) -> str:
    suffix = "th" if 11 <= n % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


_TALLIED = {"turns": ("length", "stalled"), "reshuffles": ("reshuffles", None)}
"""Column -> (its histogram in the common tally, the 0/1 key split by) (sim.metrics)."""


def _has(data, col: str) -> bool:
    """True when ``data`` (a :class:`sim.tally.Tally` or a games frame) can count ``col``."""
    from sim.tally import Tally

    if data is None:
        return False
    if isinstance(data, Tally):
        return col in _TALLIED and _TALLIED[col][0] in data.hists and data.games > 0
    return col in data.columns and data.height > 0


def _counts(df, col: str, split: str | None = None):
    """Value counts of an integer column as numpy arrays (values, counts[, split counts]),
    from a :class:`sim.tally.Tally` (its common histograms) or a games frame."""
    import numpy as np
    import polars as pl

    from sim.tally import COUNT, Tally

    if isinstance(df, Tally):
        name, key = _TALLIED[col]
        h = df.hist(name)
        split = key if split is not None and key in h.columns else None
        g = h.group_by(col).agg(pl.col(COUNT).sum().alias("n"),
                                (pl.col(COUNT) * (pl.col(split) != 0) if split else pl.lit(0)).sum().alias("k"))
        g = g.sort(col)
        return g[col].to_numpy(), g["n"].to_numpy(), g["k"].to_numpy().astype(np.int64)
    if split is not None and split in df.columns:
        g = (df.group_by(col).agg(pl.len().alias("n"), (pl.col(split) != 0).sum().alias("k"))
             .sort(col))
        return g[col].to_numpy(), g["n"].to_numpy(), g["k"].to_numpy()
    g = df.group_by(col).agg(pl.len().alias("n")).sort(col)
    return g[col].to_numpy(), g["n"].to_numpy(), np.zeros(g.height, dtype=np.int64)


def bin_width(lo: int, hi: int, max_bins: int = 60, period: int = 1) -> int:
    """The integer bin width for values ``lo``..``hi`` in at most ``max_bins`` bins: a multiple of
    ``period`` (the seats, for lengths in player turns: a game ends on some seats' turns more
    often, and a width that is not a whole number of rounds holds one or two of each turn of the
    round by turns, drawing a sawtooth the games do not have)."""
    import math

    width = max(1, math.ceil((hi - lo + 1) / max_bins))
    if width > 1 and period > 1:
        width = period * math.ceil(width / period)
    return width


def _binned(values, counts, stalls, max_bins: int = 60, period: int = 1):
    """Aggregate integer value counts into at most ``max_bins`` equal integer-width bins (a
    multiple of ``period`` wide when wider than 1: :func:`bin_width`)."""
    import numpy as np

    lo, hi = int(values.min()), int(values.max())
    width = bin_width(lo, hi, max_bins, period)
    idx = (values - lo) // width
    nb = int(idx.max()) + 1
    c = np.bincount(idx, weights=counts, minlength=nb)
    s = np.bincount(idx, weights=stalls, minlength=nb)
    left = lo + width * np.arange(nb)
    return left, width, c, s


def plot_game_length(df, records, folder: Path, unit: str = "turns", period: int = 1) -> tuple[str, str] | None:
    """Histogram of game length (the ``turns`` column, counted in ``unit``: "player turns",
    "rounds") with the median and 95th percentile marked (one-wide bars centred on their
    value, so the median line stands on the median's bar); legend below the axes.

    Stalled games (turn cap) are stacked in red; when they sit far beyond the finished
    games (a cap of 2000 turns for 70-turn games) they are left out of the bars, so the
    finished games keep the resolution, and their count is stated on the plot instead.
    """
    import numpy as np

    if not _has(df, "turns"):
        return None
    values, counts, stalls = _counts(df, "turns", "stalled")
    total = int(counts.sum())
    n_stall = int(stalls.sum())
    finished = counts - stalls
    separate = False
    if n_stall and finished.sum() > 0:
        fin_max = int(values[finished > 0].max())
        fin_min = int(values[finished > 0].min())
        stall_min = int(values[stalls > 0].min())
        separate = stall_min > fin_max + max(10, (fin_max - fin_min) // 2)
    if separate:
        keep = values <= fin_max
        values, counts, stalls = values[keep], finished[keep], np.zeros(int(keep.sum()), dtype=np.int64)
    left, width, c, s = _binned(values, counts, stalls, period=period)
    plt = _plt()
    fig, ax = plt.subplots(figsize=(8.0, 4.0))
    done = (c - s) / total
    # one-wide bins are centred on their value, so a line at the median 9 stands on bar 9
    align = "center" if width == 1 else "edge"
    bw = 0.9 if width == 1 else width
    ax.bar(left, done, width=bw, align=align, color=BAR, label="finished", linewidth=0)
    stall_text = f"stalled at the turn cap: {n_stall:,} game{'s' if n_stall != 1 else ''} ({n_stall / total:.2%})"
    if n_stall and not separate:
        ax.bar(left, s / total, bottom=done, width=bw, align=align, color=STALL, linewidth=0,
               label=stall_text)
    marks = {}  # value -> what it marks: a 95th percentile equal to the median is one line, named both
    for q, what in (("turns_p50", "median"), ("turns_p95", "95th percentile")):
        r = find(records, q)
        if r is not None and np.isfinite(_num(r.get("value"))):
            marks.setdefault(_num(r["value"]), []).append(what)
    for v, whats in marks.items():
        if separate and v > values.max():
            continue
        both = len(whats) > 1
        ax.axvline(v, color="black", linestyle="-" if whats[0] == "median" else ":", linewidth=1.2,
                   label=(f"median and 95th percentile (equal): {v:g} {unit}" if both
                          else f"{whats[0]}: {v:g} {unit}"))
    top = float((c / total).max()) if c.size else 1.0
    ax.set_ylim(0, top * 1.12)
    ax.set_xlabel(f"game length ({unit} per game)" + (f", bins of {width}" if width > 1 else "")
                  + (f" ({width // period} round{'s' if width // period > 1 else ''} of {period} seats)"
                     if width > 1 and period > 1 else ""))
    if width == 1 and len(left) <= 30:
        ax.set_xticks(left)
    ax.set_ylabel("share of games (%)")
    ax.set_title(f"Game length in {unit} ({total:,} games)")
    ax.yaxis.set_major_formatter(_pct_fmt(top))
    ax.grid(**GRID)
    ax.set_axisbelow(True)
    handles, labels = ax.get_legend_handles_labels()
    if separate:  # a legend entry only: bars at the cap would squeeze the finished games
        from matplotlib.patches import Patch

        handles.append(Patch(color=STALL))
        labels.append(stall_text + ";\nnot drawn: far right of the finished games")
    _legend_outside(ax, 2, handles, labels)
    name = "game_length.png"
    _save(fig, folder, name)
    return ("Game length", name)


def _pct_fmt(top: float):
    from matplotlib.ticker import PercentFormatter

    # decimals=None lets the formatter show as many as the tick spacing needs (2.5%, not 2%)
    return PercentFormatter(xmax=1.0, decimals=None if top < 0.5 else 0)


def plot_reshuffles(df, folder: Path, mode: str = "competitive") -> tuple[str, str] | None:
    """Bar chart of reshuffles per game (share of games with 0, 1, 2... reshuffles); None
    when the game has no reshuffles column or :func:`sim.report.format.reshuffles_shown`
    says no (``mode`` "cooperative" and no game reshuffled)."""
    from sim.report.format import reshuffles_shown

    if not _has(df, "reshuffles"):
        return None
    values, counts, _ = _counts(df, "reshuffles")
    if not reshuffles_shown(mode, int(values.max()) > 0):
        return None
    return _share_bars(folder, "reshuffles.png", "Reshuffles per game", values, counts,
                       "reshuffles of the draw pile per game")


def plot_team_outcome(df, records, folder: Path) -> tuple[str, str] | None:
    """Cooperative games: team win rate (with loss and stall rates) and Wilson intervals."""
    import polars as pl

    has = df is not None
    items = []
    v, lo, hi = proportion_with_ci(records, "win_rate", {}, df,
                                   (pl.col("team_win") != 0) if has and "team_win" in df.columns else None)
    items.append(("team win", v, lo, hi))
    loss_expr = None
    if has and "team_win" in df.columns:
        loss_expr = (pl.col("team_win") == 0)
        if "stalled" in df.columns:
            loss_expr = loss_expr & (pl.col("stalled") == 0)
    v, lo, hi = proportion_with_ci(records, "loss_rate", {}, df, loss_expr)
    items.append(("team loss", v, lo, hi))
    v, lo, hi = proportion_with_ci(records, "stall_rate", {}, df,
                                   (pl.col("stalled") != 0) if has and "stalled" in df.columns else None)
    items.append(("stalled (turn cap)", v, lo, hi))
    import math

    items = [it for it in items if math.isfinite(it[1])]
    if not items:
        return None
    name = "team_outcome.png"
    _bar_chart(folder, name, "Outcome of the team", [i[0] for i in items], [i[1] for i in items],
               [i[2] for i in items], [i[3] for i in items], "outcome", "games (%)")
    return ("Team outcome", name)


def _tension_tally(data, mode: str, n_seats: int):
    """The tension histograms (:func:`sim.metrics.tension_tally_spec`) of ``data`` (a
    :class:`sim.tally.Tally` holding them, or a games frame with the tension columns), or None."""
    from sim.metrics import TENSION_KEY, tension_tally_spec
    from sim.tally import Tally

    if data is None:
        return None
    if isinstance(data, Tally):
        key = "tension_lead" if mode == "competitive" else "tension_coop"
        return data if key in data.hists and data.games > 0 else None
    if TENSION_KEY not in data.columns or data.height == 0:
        return None
    return Tally.of_frame(data, tension_tally_spec(mode, n_seats))


def _finish(fig, ax, folder: Path, name: str, title: str) -> tuple[str, str]:
    """Title, grid and legend of a one-axes plot, saved as ``name``: returns ``(title, name)``."""
    ax.set_title(title)
    ax.grid(**GRID)
    ax.set_axisbelow(True)
    ax.legend(fontsize=8, frameon=False)
    _save(fig, folder, name)
    return (title, name)


def _share_bars(folder: Path, name: str, title: str, values, counts, xlabel: str) -> tuple[str, str]:
    """A bar chart of the share of games at each value (``values`` int, ``counts`` games;
    integer bins when there are many), with the mean as a dashed line."""
    import numpy as np

    values = np.asarray(values)
    counts = np.asarray(counts)
    left, width, c, _ = _binned(values, counts, counts * 0, max_bins=40)
    total = counts.sum()
    mean = float((values * counts).sum() / total)
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7.0, 3.8))
    ax.bar(left, c / total, width=0.85 if width == 1 else width, align="center" if width == 1 else "edge",
           color=BAR, linewidth=0)
    ax.axvline(mean, color="black", linestyle="--", linewidth=1, label=f"mean: {mean:.2f}")
    ax.set_ylim(0, float((c / total).max()) * 1.15)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("share of games (%)")
    if width == 1 and len(left) <= 25:
        ax.set_xticks(left)
    ax.yaxis.set_major_formatter(_pct_fmt((c / total).max()))
    return _finish(fig, ax, folder, name, title)


MIN_POINT = 30
"""Fewest seat-games behind a point of the comeback plot (a rate of fewer says nothing)."""


def comeback_points(behind, n, k, max_points: int = 12) -> list[tuple[float, int, int, str]]:
    """The comeback plot's points from per-deficit counts (``behind`` sorted ascending, ``n``
    seat-games, ``k`` of them won): deficit 0 (leading) alone, the other deficits grouped into
    at most ``max_points`` - 1 ranges of equal integer width, each range holding at least
    :data:`MIN_POINT` seat-games (thinner ranges are dropped). Returns (x: the range's mean
    deficit, wins, seat-games, label "a" or "a-b")."""
    import numpy as np

    behind = np.asarray(behind, dtype=np.int64)
    n = np.asarray(n, dtype=np.int64)
    k = np.asarray(k, dtype=np.int64)
    out: list[tuple[float, int, int, str]] = []
    zero = behind == 0
    if n[zero].sum() >= MIN_POINT:
        out.append((0.0, int(k[zero].sum()), int(n[zero].sum()), "0"))
    rest = behind > 0
    if not rest.any():
        return out
    b, nn, kk = behind[rest], n[rest], k[rest]
    lo, hi = int(b.min()), int(b.max())
    width = max(1, -(-(hi - lo + 1) // (max_points - 1)))
    idx = (b - lo) // width
    for j in np.unique(idx):
        m = idx == j
        tot = int(nn[m].sum())
        if tot < MIN_POINT:
            continue
        a, z = lo + int(j) * width, lo + int(j) * width + width - 1
        x = float((b[m] * nn[m]).sum() / tot)
        out.append((x, int(kk[m].sum()), tot, str(a) if width == 1 else f"{a}-{z}"))
    return out


def _plot_decisive(t, folder: Path) -> tuple[str, str]:
    """The distribution of the decisive point (a game's share of rounds before its winner led
    alone for good): a bar at each share a game can have when there are few (Yukon's six days),
    else tenths of the game."""
    import numpy as np
    from matplotlib.ticker import PercentFormatter

    from sim.metrics import decisive_share

    h = t.hist("tension_decisive")
    share = decisive_share(h["d"].to_numpy(), h["r"].to_numpy())
    cnt = h["count"].to_numpy()
    fig, ax = _plt().subplots(figsize=(7.0, 3.8))
    vals = np.unique(np.round(share, 9))
    if len(vals) <= 12:
        bins = np.array([cnt[np.isclose(share, v)].sum() for v in vals]) / cnt.sum()
        ax.bar(vals, bins, width=0.6 / max(len(vals), 2), color=BAR, linewidth=0)
        edges = vals
        ax.set_xlim(-0.06, 1.06)
    else:
        edges = np.linspace(0.0, 1.0, 11)
        idx = np.minimum((share * 10).astype(int), 9)
        bins = np.bincount(idx, weights=cnt, minlength=10) / cnt.sum()
        ax.bar(edges[:-1], bins, width=0.1, align="edge", color=BAR, linewidth=0, edgecolor="white")
        ax.set_xlim(0, 1)
    m = float((share * cnt).sum() / cnt.sum())
    ax.axvline(m, color="black", linestyle="--", linewidth=1, label=f"mean: {m * 100:.1f} % of the game")
    ax.set_xticks(edges)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0, 0))
    ax.set_xlabel("share of the game's rounds before the winner led alone for good (100 %: never)")
    ax.set_ylabel("share of games (%)")
    ax.set_ylim(0, float(bins.max()) * 1.15)
    ax.yaxis.set_major_formatter(_pct_fmt(bins.max()))
    return _finish(fig, ax, folder, "decisive_point.png", "When the winner took the lead for good")


def _plot_comeback(t, folder: Path, n_seats: int, unit: str) -> tuple[str, str] | None:
    """A seat's win chance by how far it trailed the leader at the midpoint (:func:`comeback_points`),
    each point with its Wilson interval (:func:`sim.metrics.proportion`, which keeps the bounds on
    their side of a rate of 0 or 1); None with fewer than two points."""
    import numpy as np
    import polars as pl

    from sim.metrics import proportion

    g = t.hist("tension_gap").group_by("behind").agg(
        pl.col("count").sum().alias("n"), (pl.col("count") * pl.col("won").cast(pl.Int64)).sum().alias("k")).sort("behind")
    pts = comeback_points(g["behind"].to_numpy(), g["n"].to_numpy(), g["k"].to_numpy())
    if len(pts) < 2:
        return None
    x = np.array([c for c, _, _, _ in pts], dtype=float)
    recs = [proportion("win", {}, k, n) for _, k, n, _ in pts]
    p = np.array([r["value"] for r in recs])
    lo = np.array([r["ci_low"] for r in recs])
    hi = np.array([r["ci_high"] for r in recs])
    fig, ax = _plt().subplots(figsize=(7.0, 3.8))
    ax.errorbar(x, p, yerr=[p - lo, hi - p], fmt="o", color=BAR, ecolor="#888888", capsize=3, markersize=4)
    ax.axhline(1.0 / max(n_seats, 1), color="black", linestyle=":", linewidth=1, label=f"fair share (1/{n_seats})")
    ax.set_ylim(0, min(1.0, float(hi.max()) * 1.1 + 0.02))
    _percent_axis(ax)
    labels = [lab for _, _, _, lab in pts]
    if len(pts) <= 16:
        ax.set_xticks(x)
        ax.set_xticklabels(labels, rotation=30 if max(len(s) for s in labels) > 3 else 0, fontsize=8)
    ax.set_xlabel(f"behind the leader at the midpoint ({unit}; 0 = leading)")
    ax.set_ylabel("win chance (%)")
    return _finish(fig, ax, folder, "comeback.png", "Win chance by midpoint deficit (comebacks)")


def plot_tension(data, records, folder: Path, mode: str, n_seats: int, unit: str) -> list[tuple[str, str]]:
    """The report's tension plots (docs/tension.md), from the tension histograms of ``data``:
    competitive: lead changes per game, the decisive point's distribution, and a seat's win
    chance by how far it trailed the leader at the midpoint (Wilson 95 % intervals; ``unit``
    the game's progress unit); cooperative: the most complaints of won games and the round lost
    games were lost in. Empty when the data has no tension columns."""
    import polars as pl

    t = _tension_tally(data, mode, n_seats)
    if t is None:
        return []
    out: list[tuple[str, str]] = []
    if mode == "cooperative":
        h = t.hist("tension_coop")
        for where, key, name, title, xlabel in (
                (pl.col("team_win") != 0, "closest_call", "closest_call.png", "Closest call of the won games",
                 "most complaints a won game reached"),
                ((pl.col("team_win") == 0) & (pl.col("lost_round") >= 0), "lost_round", "lost_round.png",
                 "Round in which the lost games were lost", "round the complaint limit was reached")):
            g = h.filter(where).group_by(key).agg(pl.col("count").sum()).sort(key)
            if g.height:
                out.append(_share_bars(folder, name, title, g[key].to_numpy(), g["count"].to_numpy(), xlabel))
        return out
    if t.count("tension_lead") == 0:
        return out
    v, c = t.counts("tension_lead", "lead_changes")
    out.append(_share_bars(folder, "lead_changes.png", "Lead changes per game", v, c,
                           "times the lead passed to another seat (games with a winner)"))
    out.append(_plot_decisive(t, folder))
    fig = _plot_comeback(t, folder, n_seats, unit)
    return out + ([fig] if fig is not None else [])
