"""A mergeable, exact summary of a set of games: what every metric and plot is computed from,
so a run of any size is summarised in constant memory and the result never depends on how
the games were cut into chunks (:mod:`sim.runner` folds chunk after chunk; the dask backend
folds worker tallies the same way).

A :class:`Tally` holds, per named source of a spec (a list of :class:`Hist` and
:class:`Moments`, declared by :mod:`sim.metrics` for the common metrics and by each game's
``metrics.tally_spec(cfg)``):

* a **joint histogram** (:class:`Hist`): a polars frame of key columns (small integers, or
  policy labels) and an ``int64`` ``count``, sorted by the keys. A chunk's histogram is
  ``df.select(exprs).group_by(keys).len()``; merging is concat + group_by sum + sort. Seat
  stacking: a Hist may have several *parts* (one per seat, say), whose rows are pooled;
* **integer moment sums** (:class:`Moments`) of a pair of per-unit integers ``x``, ``t``:
  ``n, Σx, Σt, Σx², Σt², Σxt`` as Python ints, for a ratio ``Σx / Σt`` whose pairs would
  make too many histogram cells (turns under a weather / all turns).

Counts and sums are integers, so merging is exact and order-free: summary records of a
streamed run equal those of the whole table bit for bit. The record builders here take
weighted forms (values + counts; moment sums): :func:`mean_record`, :func:`quantile_value`
(== ``np.quantile(..., method="linear")``), :func:`ratio_record`, :func:`ratio_se`; the
proportion builder (counts already) is :func:`sim.metrics.proportion`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Iterable, Mapping, Sequence

import numpy as np
import polars as pl

COUNT = "count"
"""Name of a histogram's count column (int64)."""


@dataclass(frozen=True)
class Hist:
    """A joint histogram source: ``parts`` is a tuple of ``{key: polars expression}`` dicts
    with the same keys (one part per seat when a metric pools seat-games; one part for a
    per-game histogram); each expression gives a small integer (or a policy label) per game.
    ``where`` (a boolean expression) keeps only the games it is true for."""

    name: str
    parts: tuple[Mapping[str, pl.Expr], ...]
    where: pl.Expr | None = None

    @property
    def keys(self) -> list[str]:
        return list(self.parts[0])


@dataclass(frozen=True)
class Moments:
    """Integer moment sums of a pair (x, t) over units (games, or seat-games with one part
    per seat): ``parts`` is a tuple of ``(x expression, t expression)``."""

    name: str
    parts: tuple[tuple[pl.Expr, pl.Expr], ...]


def hist(name: str, where: pl.Expr | None = None, **keys: pl.Expr) -> Hist:
    """A one-part (per-game) :class:`Hist` with ``keys`` as its key expressions."""
    return Hist(name, (keys,), where)


def seat_hist(name: str, n_seats: int, make, where: pl.Expr | None = None) -> Hist:
    """A :class:`Hist` pooled over seats: ``make(s)`` returns the part ``{key: expr}`` of seat s."""
    return Hist(name, tuple(make(s) for s in range(n_seats)), where)


_MOMENT_KEYS = ("n", "x", "t", "xx", "tt", "xt")


@dataclass
class Tally:
    """Histograms (name -> polars frame of keys + ``count``) and moment sums (name ->
    ``{"n","x","t","xx","tt","xt"}`` Python ints) of ``games`` games; see the module
    docstring. Build with :meth:`of_frame`, combine with :meth:`merge`."""

    games: int = 0
    hists: dict[str, pl.DataFrame] = field(default_factory=dict)
    moments: dict[str, dict[str, int]] = field(default_factory=dict)

    @classmethod
    def of_frame(cls, df: pl.DataFrame, spec: Sequence[Hist | Moments]) -> "Tally":
        """The tally of the games of frame ``df`` (columns of :func:`sim.api.games_frame`)
        for ``spec``. Raises polars errors for an expression over a missing column."""
        lazy = df.lazy()
        queries: list[pl.LazyFrame] = []
        names: list[str] = []
        sums: list[pl.Expr] = []
        for src in spec:
            if isinstance(src, Hist):
                base = lazy if src.where is None else lazy.filter(src.where)
                keys = src.keys
                frames = [_plain(base.select([e.alias(k) for k, e in part.items()])) for part in src.parts]
                pooled = frames[0] if len(frames) == 1 else pl.concat(frames, how="vertical_relaxed")
                queries.append(pooled.group_by(keys).len(name=COUNT).with_columns(pl.col(COUNT).cast(pl.Int64))
                               .sort(keys))
                names.append(src.name)
            else:
                for i, (x, t) in enumerate(src.parts):
                    x64, t64 = x.cast(pl.Int64), t.cast(pl.Int64)
                    p = f"{src.name}\x00{i}\x00"
                    sums += [x64.sum().alias(p + "x"), t64.sum().alias(p + "t"), (x64 * x64).sum().alias(p + "xx"),
                             (t64 * t64).sum().alias(p + "tt"), (x64 * t64).sum().alias(p + "xt")]
        if sums:
            queries.append(lazy.select(sums))
        got = pl.collect_all(queries)  # one pass, the sources in parallel
        hists = dict(zip(names, got[:len(names)]))
        row = got[-1].row(0, named=True) if sums else {}
        moments: dict[str, dict[str, int]] = {}
        for src in spec:
            if isinstance(src, Moments):
                m = dict.fromkeys(_MOMENT_KEYS, 0)
                for i in range(len(src.parts)):
                    p = f"{src.name}\x00{i}\x00"
                    m["n"] += df.height
                    for k in _MOMENT_KEYS[1:]:
                        m[k] += int(row[p + k] or 0)
                moments[src.name] = m
        return cls(df.height, hists, moments)

    def merge(self, other: "Tally") -> "Tally":
        """The tally of both sets of games (exact; the result does not depend on the order)."""
        return merge_tallies([self, other])

    def hist(self, name: str) -> pl.DataFrame:
        """Histogram ``name`` (keys + ``count``, sorted by the keys); KeyError if not tallied."""
        return self.hists[name]

    def counts(self, name: str, key: str, **where: Any) -> tuple[np.ndarray, np.ndarray]:
        """(values, counts) of key ``key`` of histogram ``name``, summed over the other keys,
        among the cells whose keys equal ``where`` (``seat=2``); values sorted ascending."""
        h = self.hists[name]
        for k, v in where.items():
            h = h.filter(pl.col(k) == v)
        g = h.group_by(key).agg(pl.col(COUNT).sum()).sort(key)
        return g[key].to_numpy(), g[COUNT].to_numpy().astype(np.int64)

    def count(self, name: str, expr: pl.Expr | None = None) -> int:
        """Games (units) of histogram ``name`` whose keys satisfy ``expr`` (all without)."""
        h = self.hists[name]
        if expr is not None:
            h = h.filter(expr)
        return int(h[COUNT].sum())

    def total(self, name: str, key: str, expr: pl.Expr | None = None) -> int:
        """Σ of key ``key`` over the units of histogram ``name`` (whose keys satisfy ``expr``)."""
        h = self.hists[name]
        if expr is not None:
            h = h.filter(expr)
        return int((h[key].cast(pl.Int64) * h[COUNT]).sum())

    def summary_size(self) -> int:
        """Cells held (histogram rows + moment sets): a measure of the tally's memory."""
        return sum(h.height for h in self.hists.values()) + len(self.moments)


def _plain(df: pl.LazyFrame) -> pl.LazyFrame:
    """Categorical / Enum key columns as strings (chunks' dictionaries differ), integers and
    booleans as int64 (one dtype whatever the expression)."""
    out = []
    for name, dt in df.collect_schema().items():
        if dt in (pl.Categorical,) or isinstance(dt, (pl.Categorical, pl.Enum)):
            out.append(pl.col(name).cast(pl.String))
        elif dt == pl.Boolean:
            out.append(pl.col(name).cast(pl.Int64))
        elif dt.is_integer():
            out.append(pl.col(name).cast(pl.Int64))
        else:
            out.append(pl.col(name))
    return df.select(out)


def merge_tallies(tallies: Iterable[Tally]) -> Tally:
    """One tally of several (exact integer sums; every histogram sorted by its keys, so the
    result is the same whatever the order or the chunking)."""
    tallies = [t for t in tallies if t is not None]
    if not tallies:
        return Tally()
    if len(tallies) == 1:
        return tallies[0]
    names = list(dict.fromkeys(k for t in tallies for k in t.hists))
    hists = {}
    for name in names:
        frames = [t.hists[name] for t in tallies if name in t.hists]
        keys = [c for c in frames[0].columns if c != COUNT]
        cat = pl.concat(frames, how="vertical_relaxed")
        hists[name] = cat.group_by(keys).agg(pl.col(COUNT).sum().cast(pl.Int64)).sort(keys)
    moments: dict[str, dict[str, int]] = {}
    for t in tallies:
        for name, m in t.moments.items():
            acc = moments.setdefault(name, dict.fromkeys(_MOMENT_KEYS, 0))
            for k in _MOMENT_KEYS:
                acc[k] += m[k]
    return Tally(sum(t.games for t in tallies), hists, moments)


# ----------------------------------------------------------------------- weighted statistics


def _sums(values, counts) -> tuple[int, int, int]:
    """Exact (n, Σv, Σv²) of integer ``values`` with integer ``counts`` (Python ints)."""
    n = s = ss = 0
    for v, c in zip(np.asarray(values).tolist(), np.asarray(counts).tolist()):
        v, c = int(v), int(c)
        n += c
        s += c * v
        ss += c * v * v
    return n, s, ss


def weighted_mean_sd(values, counts, scale: int = 1) -> tuple[int, float, float]:
    """(n, mean, sd with ddof=1) of integer ``values`` repeated ``counts`` times, each divided
    by ``scale``: computed exactly in rationals, then rounded once (equal to numpy's
    ``mean`` / ``std(ddof=1)`` of the expanded array up to numpy's own float rounding, about
    1e-15 relative). mean is NaN for n == 0, sd for n < 2."""
    n, s, ss = _sums(values, counts)
    if n == 0:
        return 0, float("nan"), float("nan")
    m = float(Fraction(s, n * scale))
    if n < 2:
        return n, m, float("nan")
    var = Fraction(n * ss - s * s, n * (n - 1) * scale * scale)
    return n, m, math.sqrt(float(var)) if var > 0 else 0.0


def mean_record(metric: str, by: dict, values, counts, scale: int = 1) -> dict[str, Any]:
    """The mean record of :func:`sim.metrics.mean` from a histogram (``values`` int, ``counts``
    int; each value divided by ``scale``): mean, sd and the normal 95 % interval, the lower
    bound held at 0 for non-negative counts."""
    from sim.stats import mean_interval

    n, m, sd = weighted_mean_sd(values, counts, scale)
    lo, hi = mean_interval(m, sd, n)
    v = np.asarray(values)
    c = np.asarray(counts)
    if n and v[c > 0].min() >= 0 and lo < 0:  # counts: the normal interval must not leave [0, inf)
        lo = 0.0
    return {"metric": metric, "by": by, "value": m, "ci_low": lo, "ci_high": hi, "n": int(n),
            "kind": "mean", "sd": sd}


def quantile_value(values, counts, q: float) -> float:
    """``np.quantile(expanded, q, method="linear")`` of ``values`` (sorted ascending, distinct)
    repeated ``counts`` times, from the cumulative counts, bit for bit the same float (numpy
    2.x: virtual index ``(n - 1) q``, its floor and the next order statistic, numpy's two-sided
    lerp). NaN for no values."""
    v = np.asarray(values, dtype=float)
    c = np.asarray(counts, dtype=np.int64)
    keep = c > 0
    v, c = v[keep], c[keep]
    n = int(c.sum())
    if n == 0:
        return float("nan")
    cum = np.cumsum(c)
    h = float(np.float64(n - 1) * np.float64(q))

    def order(i: int) -> float:  # the i-th smallest (0-based) of the expanded data
        return float(v[int(np.searchsorted(cum, i, side="right"))])

    if h >= n - 1:
        return order(n - 1)
    if h < 0:
        return order(0)
    prev = math.floor(h)
    a, b = np.float64(order(prev)), np.float64(order(prev + 1))
    g = np.float64(h - prev)
    d = b - a
    return float(b - d * (np.float64(1.0) - g)) if g >= 0.5 else float(a + d * g)


def quantile_record(metric: str, by: dict, values, counts, q: float) -> dict[str, Any]:
    """The quantile record of :func:`sim.metrics.quantile` from a histogram."""
    n = int(np.asarray(counts, dtype=np.int64).sum())
    return {"metric": metric, "by": by, "value": quantile_value(values, counts, q) if n else float("nan"),
            "ci_low": None, "ci_high": None, "n": n, "kind": "quantile"}


def ratio_se(m: Mapping[str, int]) -> tuple[float, float]:
    """(r, se) of the ratio ``r = Σx / Σt`` over ``n`` units and its delta-method standard error
    ``sd(u, ddof=1) / √n`` with ``u = (x - r t) / mean(t)`` (:func:`sim.stats.ratio_influence`),
    from the integer moment sums ``m`` (:class:`Moments`), exactly in rationals:
    ``Σ(x - r t)² = (T² Σx² - 2 X T Σxt + X² Σt²) / T²``. r is NaN when Σt == 0, se NaN
    below 2 units too."""
    n, X, T = m["n"], m["x"], m["t"]
    if T <= 0 or n == 0:
        return float("nan"), float("nan")
    r = float(Fraction(X, T))
    if n < 2:
        return r, float("nan")
    ss = Fraction(T * T * m["xx"] - 2 * X * T * m["xt"] + X * X * m["tt"], T * T)  # Σ(x - r t)²
    var_u = ss / (n - 1) / (Fraction(T, n) ** 2)
    return r, math.sqrt(float(var_u) / n) if var_u > 0 else 0.0


def moments_of(x, t, counts) -> dict[str, int]:
    """Moment sums (:class:`Moments`) of integer pairs ``(x, t)`` repeated ``counts`` times
    (a (num, den) joint histogram)."""
    out = dict.fromkeys(_MOMENT_KEYS, 0)
    for a, b, c in zip(np.asarray(x).tolist(), np.asarray(t).tolist(), np.asarray(counts).tolist()):
        a, b, c = int(a), int(b), int(c)
        out["n"] += c
        out["x"] += c * a
        out["t"] += c * b
        out["xx"] += c * a * a
        out["tt"] += c * b * b
        out["xt"] += c * a * b
    return out


def ratio_record(metric: str, by: dict, m: Mapping[str, int]) -> dict[str, Any]:
    """The share record of :func:`sim.metrics.ratio` from moment sums: ``Σx / Σt`` with the
    delta-method 95 % interval (the game, not the turn, as the unit) and ``se``."""
    r, se = ratio_se(m)
    n = int(m["n"])
    lo = hi = float("nan")
    if n > 1 and m["t"] > 0:
        lo, hi = max(0.0, r - 1.959963984540054 * se), min(1.0, r + 1.959963984540054 * se)
    out = {"metric": metric, "by": by, "value": r, "ci_low": lo, "ci_high": hi, "n": n, "kind": "share"}
    if se == se:
        out["se"] = se
    return out


def as_tally(data, spec_fn, *args) -> Tally:
    """``data`` itself when it is a :class:`Tally`, else the tally of the polars frame ``data``
    for ``spec_fn(*args)`` (the frame-taking forms of the metric functions)."""
    if isinstance(data, Tally):
        return data
    return Tally.of_frame(data, spec_fn(*args))


def game_tally(data, spec_fn, cfg) -> Tally | None:
    """The opening of every game's ``metrics(tally, cfg)``: ``data`` as a :class:`Tally` (a
    frame is tallied for ``spec_fn(cfg)``, see :func:`as_tally`), or None when it holds no games
    (the game then has no records to give)."""
    t = as_tally(data, spec_fn, cfg)
    return t if t.games > 0 else None
