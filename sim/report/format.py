"""Formatting of metric records for reports and the CLI.

A metric record is the ``summary.json`` shape::

    {"metric": "win_rate", "by": {"seat": 0}, "value": 0.251, "ci_low": 0.249,
     "ci_high": 0.253, "n": 1000000, "kind": "proportion"}

Proportions and shares print as percentages (``25.1% [24.9, 25.3]``), differences of
rates as signed percentage points (``+1.2 pp [+0.3, +2.1]``), means with as many
decimals as their interval justifies (``61.34 [61.20, 61.48]``), quantiles and counts as
plain numbers. The number of decimals grows when the interval is too narrow to show at
one decimal, so a 10-million-game run does not print ``25.1% [25.1, 25.1]``.

:func:`is_percent` is the one answer to "is this record a rate?" for reports, the CLI and
``sim check`` alike. Tables that set two runs side by side (``sim check``, ``sim compare``)
use the fixed-precision helpers :func:`fmt_number`, :func:`fmt_change`,
:func:`fmt_tolerance` and :func:`fmt_detectable`; every p-value prints through :func:`fmt_p`.
A missing value prints as :data:`MISSING`.

Only the standard library is imported: the CLI can use this module cheaply.
"""

from __future__ import annotations

import html
import math
from typing import Any, Iterable, Sequence

PERCENT_KINDS = frozenset({"proportion", "share"})
MISSING = "–"
# a "difference" record whose metric name contains one of these is a difference of rates
_RATE_HINTS = ("rate", "advantage", "share", "prob", "win", "loss", "pct", "percent")


def _num(x: Any) -> float | None:
    """``x`` as a finite float, or None (None, NaN, inf, non-numbers)."""
    if x is None or isinstance(x, bool):
        return None
    try:
        f = float(x)
    except (TypeError, ValueError):
        return None
    return f if math.isfinite(f) else None


def is_percent(record: dict) -> bool:
    """True when the record's value is a rate to show in percent (or percentage points).

    An explicit ``"unit"`` key wins (``"%"``, ``"percent"`` or ``"pp"`` mean percent, any
    other unit means not); else proportions and shares are percent, and a ``difference``
    is percent when its metric name looks like a rate (``..._rate``, ``..._advantage``,
    ``..._share``...).
    """
    unit = record.get("unit")
    if unit is not None:
        return str(unit).lower() in ("%", "percent", "pp", "percentage points")
    kind = record.get("kind")
    if kind in PERCENT_KINDS:
        return True
    if kind == "difference":
        name = str(record.get("metric", "")).lower()
        return any(h in name for h in _RATE_HINTS)
    return False


def _decimals_for_width(width: float | None, default: int, lo: int = 0, hi: int = 4) -> int:
    """Decimals that show an interval of ``width`` with about two significant digits."""
    if width is None or width <= 0:
        return default
    d = 1 - math.floor(math.log10(width))
    return max(lo, min(hi, d))


def fmt_pct(x: Any, decimals: int = 1, sign: bool = False) -> str:
    """A fraction as a percentage: ``0.2513 -> "25.1%"``; ``"–"`` when missing/NaN."""
    f = _num(x)
    if f is None:
        return MISSING
    return f"{f * 100:{'+' if sign else ''}.{decimals}f}%"


def fmt_p(p: Any, label: bool = True) -> str:
    """A p-value: ``"p = 0.031"``, ``"p = 0.00042"``, ``"p < 1e-12"`` (three decimals from
    0.001 up, else two significant digits); with ``label=False`` the bare number
    (``"0.031"``, ``"< 1e-12"``) for a table column headed "p". :data:`MISSING` when missing."""
    f = _num(p)
    if f is None:
        return MISSING
    if f < 1e-12:
        return "p < 1e-12" if label else "< 1e-12"
    text = f"{f:.3f}" if f >= 0.001 else f"{f:.2g}"
    return f"p = {text}" if label else text


def fmt_count(n: Any) -> str:
    """An integer with thousands separators: ``1000000 -> "1,000,000"``."""
    f = _num(n)
    if f is None:
        return MISSING
    if f.is_integer():
        return f"{int(f):,}"
    return f"{f:,.2f}"


def _plain(f: float, decimals: int, sign: bool = False) -> str:
    return f"{f:{'+' if sign else ''}.{decimals}f}"


def fmt_value(record: dict, decimals: int | None = None) -> str:
    """The record's value alone, in its unit (``"25.1%"``, ``"+1.2 pp"``, ``"61.34"``, ``"58"``)."""
    return _fmt(record, decimals, with_ci=False)


def fmt_interval(record: dict, decimals: int | None = None) -> str:
    """Value and 95% interval of a metric record, e.g. ``"25.1% [24.9, 25.3]"``.

    Percent records: ``"25.1% [24.9, 25.3]"``; differences of rates in signed percentage
    points: ``"+1.2 pp [+0.3, +2.1]"``; means: ``"61.34 [61.20, 61.48]"``; records without
    an interval print the value only. ``decimals`` forces the number of decimals
    (default: 1 for percentages, more when the interval is narrower than 0.2 pp).
    """
    return _fmt(record, decimals, with_ci=True)


def _fmt(record: dict, decimals: int | None, with_ci: bool) -> str:
    v = _num(record.get("value"))
    if v is None:
        return MISSING
    lo, hi = _num(record.get("ci_low")), _num(record.get("ci_high"))
    has_ci = with_ci and lo is not None and hi is not None
    kind = record.get("kind")
    diff = kind == "difference"
    if is_percent(record):
        if decimals is None:
            # one decimal, more when the interval is narrower than 0.1 pp
            width = (hi - lo) * 100 if has_ci else None
            decimals = 1 if not width or width <= 0 else max(1, min(3, -math.floor(math.log10(width))))
        unit = " pp" if diff else "%"
        text = _plain(v * 100, decimals, sign=diff) + unit
        if has_ci:
            text += f" [{_plain(lo * 100, decimals, diff)}, {_plain(hi * 100, decimals, diff)}]"
        return text
    if kind == "p_value" and decimals is None:
        return fmt_p(v)
    if kind in ("quantile", "count") and decimals is None and v.is_integer():
        text = f"{int(v):,}" if kind == "count" else f"{int(v)}"
        if has_ci:
            text += f" [{lo:g}, {hi:g}]"
        return text
    if decimals is None:
        if has_ci:
            decimals = _decimals_for_width(hi - lo, 2)
        else:
            decimals = 2 if abs(v) < 100 else 1
    text = _plain(v, decimals, sign=diff)
    if has_ci:
        text += f" [{_plain(lo, decimals, diff)}, {_plain(hi, decimals, diff)}]"
    return text


def fmt_number(value: Any, record: dict) -> str:
    """``value`` in the unit of ``record`` (a metric record, or any dict with ``metric``,
    ``kind`` and optionally ``unit``) at a fixed precision, so two runs line up in one table:
    percent records ``"25.13%"`` (differences of rates ``"+1.23 pp"``), p-values as
    :func:`fmt_p` without label, integral counts ``"12,345"``, anything else four significant
    digits (``"61.34"``). :data:`MISSING` when missing or not finite."""
    v = _num(value)
    if v is None:
        return MISSING
    kind = record.get("kind")
    if is_percent(record):
        return f"{100 * v:+.2f} pp" if kind == "difference" else f"{100 * v:.2f}%"
    if kind == "p_value":
        return fmt_p(v, label=False)
    if kind == "count" and v.is_integer():
        return f"{int(v):,}"
    return f"{v:.4g}"


def fmt_change(change: Any, record: dict, base: Any = None) -> str:
    """A change between two runs in the unit of ``record``: rates in signed percentage
    points (``"+1.23 pp"``), p-values ``"+0.031"``, other values signed with four
    significant digits and, when ``base`` (the first run's value) is non-zero, relative to it
    (``"+0.61 (+1.0%)"``). :data:`MISSING` when missing."""
    d = _num(change)
    if d is None:
        return MISSING
    if is_percent(record):
        return f"{100 * d:+.2f} pp"
    if record.get("kind") == "p_value":
        return f"{d:+.2g}"
    b = _num(base)
    if b:
        return f"{d:+.4g} ({100 * d / abs(b):+.1f}%)"
    return f"{d:+.4g}"


def fmt_tolerance(tol: Any, record: dict, base: Any = None) -> str:
    """An absolute tolerance on a change: rates in percentage points (``"1.00 pp"``), other
    values relative to a non-zero ``base`` and absolute (``"2% = 1.2"``), else plain."""
    t = _num(tol)
    if t is None:
        return MISSING
    if is_percent(record):
        return f"{100 * t:.2f} pp"
    b = _num(base)
    if b:
        return f"{100 * t / abs(b):.3g}% = {t:.3g}"
    return f"{t:.3g}"


def fmt_detectable(d: Any, record: dict, short: bool = False) -> str:
    """A minimum detectable change (rates in percentage points, else three significant
    digits); ``short`` appends ``" !"`` (the run is too small to detect its tolerance)."""
    f = _num(d)
    if f is None:
        return MISSING
    text = f"{100 * f:.2f} pp" if is_percent(record) else f"{f:.3g}"
    return text + (" !" if short else "")


def fmt_by(by: dict | None, seat_labels: Sequence[str] | None = None) -> str:
    """A record's ``by`` as text: ``{"seat": 0, "rank": 1} -> "seat 0, rank 1"``; ``{}`` -> ``"all games"``.

    With ``seat_labels``, seats get their label: ``"seat 0 (greedy)"``.
    """
    if not by:
        return "all games"
    parts = []
    for k, v in by.items():
        if k == "seat" and seat_labels is not None and isinstance(v, int) and 0 <= v < len(seat_labels):
            parts.append(f"seat {v} ({seat_labels[v]})")
        else:
            parts.append(f"{k} {v}")
    return ", ".join(parts)


def md_escape(text: Any) -> str:
    """Text safe inside a markdown table cell (pipes escaped, HTML special characters escaped)."""
    return html.escape(str(text), quote=False).replace("|", "\\|").replace("\n", " ")


def md_table(headers: Sequence[str], rows: Iterable[Sequence[Any]], align: str | None = None) -> str:
    """A GitHub/markdown ``tables``-extension table. ``align`` is one letter per column
    (``l``, ``r``, ``c``); default: first column left, the others right. Cells are used as
    given (escape user text with :func:`md_escape` first)."""
    headers = list(headers)
    if align is None:
        align = "l" + "r" * (len(headers) - 1)
    marks = {"l": ":---", "r": "---:", "c": ":---:"}
    lines = [
        "| " + " | ".join(headers) + " |",
        "| " + " | ".join(marks[a] for a in align) + " |",
    ]
    for row in rows:
        lines.append("| " + " | ".join(str(c) for c in row) + " |")
    return "\n".join(lines)


def reshuffles_shown(mode: str, any_reshuffle: bool) -> bool:
    """Whether the terminal summary and the report's plot show reshuffles: always in a
    competitive game, in a cooperative one only when some game reshuffled (a team game's draw
    pile may never run out, and a row of zeros answers nothing). The Markdown report's length
    table lists ``reshuffles_mean`` either way."""
    return mode == "competitive" or bool(any_reshuffle)


def find(records: Iterable[dict], metric: str, **by: Any) -> dict | None:
    """The first record named ``metric`` whose ``by`` equals ``by`` exactly, or None."""
    for r in records:
        if r.get("metric") == metric and (r.get("by") or {}) == by:
            return r
    return None
