"""Plots overlaying two runs (run A and run B) for ``sim compare``."""

from __future__ import annotations

import math
from pathlib import Path

from sim.report.format import find
from sim.report.plots import DPI, GRID, _err, _num, _pct_fmt, _percent_axis, _plt, headroom_for_legend

A_COLOR = "#4C72B0"
B_COLOR = "#DD8452"


def _rate(summary: dict, **by) -> tuple[float, float, float]:
    r = find(summary.get("metrics", []), "win_rate", **by)
    if r is None:
        nan = float("nan")
        return nan, nan, nan
    return _num(r.get("value")), _num(r.get("ci_low")), _num(r.get("ci_high"))


def _seats(summary: dict) -> list[int]:
    return sorted({int(r["by"]["seat"]) for r in summary.get("metrics", [])
                   if r.get("metric") == "win_rate" and set(r.get("by") or {}) == {"seat"}})


def _policies(summary: dict) -> list[str]:
    out: list[str] = []
    for r in summary.get("metrics", []):
        if r.get("metric") == "win_rate" and set(r.get("by") or {}) == {"policy"}:
            p = str(r["by"]["policy"])
            if p not in out:
                out.append(p)
    return out


def _wrapped_title(ax, title: str, width_in: float) -> None:
    """``title`` broken at "A vs B" and wrapped to the figure's width (long side labels name the
    changed config keys), so no line runs past the figure's edge."""
    import textwrap

    head, sep, tail = title.partition(": ")
    per_line = max(20, int(width_in * 10))
    lines = [head] if sep else []
    lines += textwrap.wrap(tail if sep else title, per_line)
    ax.set_title("\n".join(lines), fontsize=11)


def _paired_bars(path: Path, title: str, xlabels: list[str], a: list[tuple], b: list[tuple],
                 a_label: str, b_label: str, xlabel: str, fair: float | None = None) -> None:
    import numpy as np

    plt = _plt()
    fig, ax = plt.subplots(figsize=(max(5.5, 1.5 + 1.3 * len(xlabels)), 4.2))
    xs = np.arange(len(xlabels))
    w = 0.38
    tops = []
    for off, data, color, lab in ((-w / 2, a, A_COLOR, a_label), (w / 2, b, B_COLOR, b_label)):
        v = [d[0] for d in data]
        lo = [d[1] for d in data]
        hi = [d[2] for d in data]
        ax.bar(xs + off, np.nan_to_num(v), width=w, color=color, label=lab, zorder=2)
        ax.errorbar(xs + off, np.nan_to_num(v), yerr=_err(v, lo, hi), fmt="none", ecolor="black",
                    capsize=4, linewidth=1.1, zorder=3)
        for x, val, h in zip(xs + off, v, hi, strict=True):
            if math.isfinite(val):
                ax.annotate(f"{val * 100:.1f}%", (x, h if math.isfinite(h) else val), xytext=(0, 3),
                            textcoords="offset points", ha="center", va="bottom", fontsize=7)
        tops += [t for t in hi + v if math.isfinite(t)]
    if fair is not None:
        ax.axhline(fair, linestyle="--", color="#555555", linewidth=1, zorder=1, label=f"fair share {fair:.0%}" if fair * 100 == round(fair * 100) else f"fair share {fair:.1%}")
    headroom_for_legend(ax, max(tops + [fair or 0.0, 0.05]))
    ax.set_xticks(xs, xlabels)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("games won (%)")
    _wrapped_title(ax, title, fig.get_figwidth())
    _percent_axis(ax)
    ax.grid(**GRID)
    ax.set_axisbelow(True)
    ax.legend(fontsize=8, frameon=False, loc="upper center", ncol=3)
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    plt.close(fig)


def compare_plots(a_summary: dict, b_summary: dict, a_label: str, b_label: str, folder: Path,
                  a_df=None, b_df=None) -> list[Path]:
    """Write plots comparing run A with run B into ``folder``; return the files written.

    * ``compare_win_rate_seat.png``: win rate by seat, A and B side by side with 95%
      interval bars (competitive; seats present in either run), or
      ``compare_win_rate.png``: the team win rate (records ``win_rate`` by ``{}``);
    * ``compare_win_rate_policy.png``: win rate by policy when either run has
      by-policy records;
    * ``compare_game_length.png``: overlaid game-length histograms (share of games per
      turn count), when both frames are given and have ``turns``.
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []

    seats = sorted(set(_seats(a_summary)) | set(_seats(b_summary)))
    if seats:
        a = [_rate(a_summary, seat=s) for s in seats]
        b = [_rate(b_summary, seat=s) for s in seats]
        n_a, n_b = len(a_summary.get("seats") or []), len(b_summary.get("seats") or [])
        fair = 1.0 / n_a if n_a and n_a == n_b else None
        path = folder / "compare_win_rate_seat.png"
        _paired_bars(path, f"Win rate by seat: {a_label} vs {b_label}", [f"seat {s}" for s in seats],
                     a, b, a_label, b_label, "seat in turn order (seat 0 plays first)", fair)
        written.append(path)
    else:
        a, b = _rate(a_summary), _rate(b_summary)
        if math.isfinite(a[0]) or math.isfinite(b[0]):
            path = folder / "compare_win_rate.png"
            _paired_bars(path, f"Team win rate: {a_label} vs {b_label}", ["team"], [a], [b],
                         a_label, b_label, "")
            written.append(path)

    pols = _policies(a_summary)
    pols += [p for p in _policies(b_summary) if p not in pols]
    if pols:
        a = [_rate(a_summary, policy=p) for p in pols]
        b = [_rate(b_summary, policy=p) for p in pols]
        path = folder / "compare_win_rate_policy.png"
        _paired_bars(path, f"Win rate by policy: {a_label} vs {b_label}", pols, a, b, a_label, b_label,
                     "policy")
        written.append(path)

    if (a_df is not None and b_df is not None and "turns" in a_df.columns and "turns" in b_df.columns
            and a_df.height and b_df.height):
        path = folder / "compare_game_length.png"
        unit = (a_summary.get("catalogue") or {}).get("turns_mean", {}).get("unit") or "turns"
        n = len(a_summary.get("seats") or [])
        period = n if unit == "player turns" and n > 1 and n == len(b_summary.get("seats") or []) else 1
        _length_overlay(path, a_df, b_df, a_label, b_label, unit, period)
        written.append(path)
    return written


def _length_overlay(path: Path, a_df, b_df, a_label: str, b_label: str, unit: str = "turns",
                    period: int = 1) -> None:
    """A's and B's game-length distributions as outlined steps over the same bins (whole rounds
    of ``period`` player turns when binned: :func:`sim.report.plots.bin_width`)."""
    import numpy as np
    import polars as pl

    def counts(df):
        g = df.group_by("turns").agg(pl.len().alias("n")).sort("turns")
        return g["turns"].to_numpy().astype(np.int64), g["n"].to_numpy().astype(float)

    from sim.report.plots import bin_width

    av, ac = counts(a_df)
    bv, bc = counts(b_df)
    lo = int(min(av.min(), bv.min()))
    hi = int(max(av.max(), bv.max()))
    width = bin_width(lo, hi, 60, period)
    lo -= lo % width if width > 1 else 0  # bins start at a multiple of their width: the same for A and B
    nb = (hi - lo) // width + 1
    edges = lo + width * np.arange(nb + 1)
    ha = np.bincount((av - lo) // width, weights=ac, minlength=nb) / ac.sum()
    hb = np.bincount((bv - lo) // width, weights=bc, minlength=nb) / bc.sum()
    plt = _plt()
    fig, ax = plt.subplots(figsize=(8.0, 4.0))
    for h, color, lab, df in ((ha, A_COLOR, a_label, a_df), (hb, B_COLOR, b_label, b_df)):
        ax.stairs(h, edges, color=color, linewidth=1.6, label=f"{lab} (median {df['turns'].median():g})")
        ax.stairs(h, edges, color=color, alpha=0.15, fill=True)
    ax.set_xlabel(f"game length ({unit} per game)" + (f", bins of {width}" if width > 1 else ""))
    ax.set_ylabel("share of games (%)")
    _wrapped_title(ax, f"Game length: {a_label} vs {b_label}", fig.get_figwidth())
    ax.yaxis.set_major_formatter(_pct_fmt(max(ha.max(), hb.max())))
    ax.grid(**GRID)
    ax.set_axisbelow(True)
    ax.legend(fontsize=8, frameon=False)
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    plt.close(fig)
