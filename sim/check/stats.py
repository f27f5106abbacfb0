"""The statistics of balance regression: pair the metric records of two runs and test each
change (used by :mod:`sim.check.gate` for ``sim check`` and ``sim compare``).

How a metric is compared (baseline ``a``, this run ``b``):

* rates (records :func:`sim.report.format.is_percent` calls percent: ``proportion``,
  ``share``): two-sided two-proportion z-test on ``round(value·n)`` successes (or the record's
  ``successes``) of ``n`` trials; the change is ``b - a`` (absolute, 0.01 = one percentage
  point).
* a difference of rates with a reference rate (``first_player_advantage``: the seat-0 win
  rate minus 1/seats) is tested as the proportion ``value + reference``; the reference is the
  record's ``reference``, else (first-player advantage only) 1/seats from ``seats``.
* ``mean`` with ``sd``: Welch test of means from (mean, sd, n).
* everything else (quantiles, counts, p-values, other differences, means without sd): shown,
  not tested.

Both tests assume independent trials. A record whose ``n`` exceeds the run's games count
(weather share over all turns, win rate by policy over seat appearances) has several correlated
trials per game, for which the binomial variance is too small (measured: 2-2.7x too small in sd
for Clear for Takeoff's weather share). Such records are tested with ``n`` capped at the games
count (successes scaled alike): the design effect of clustered trials is at most the cluster
size, so this is conservative. Rate records that one side lacks while it has records of the same
metric with the same ``by`` keys are read as 0 of n there (producers skip zero counts, e.g.
``rank_share`` rank 0 when no game stalled).

The tested rows of one comparison form the Holm family; each tested row also gets the
minimum change detectable at the stated power and level alpha/m (m = tested rows), the change
a lone moved metric needs under Holm.

Under common random numbers (same seed on both sides) the two runs are positively correlated
and the independent-sample tests overstate the variance of the change: their p-values are
conservative (a "significant" change is real; a real change may be missed).

**Paired comparisons** (issue 11). When both sides carry per-game outcomes of a metric
(:mod:`sim.check.paired`: a baseline recorded with them, or a run's frame) and played the same
seed, the change is measured game by game on the common game indices (0 .. min(N_a, N_b)-1)
with :func:`sim.stats.paired_change`: McNemar for a yes/no per game, the paired t-test for a
value per game, the delta-method variance of the ratio estimator for shares (weather_share,
win_rate by policy); the row records ``test`` and the per-game correlation ``corr`` the pairing
found. Otherwise the tests are unpaired as above, except that a record carrying ``se`` (shares
of summed counts, rates per seat appearance) is tested with that standard error
(:func:`sim.stats.unpaired_change`) instead of a capped binomial count. Every tested row gets
an interval of its change (``ci_low``, ``ci_high``: paired, Newcombe for two proportions,
normal for means and shares).
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field

from sim.records import metric_key, metric_label
from sim.report.format import PERCENT_KINDS, is_percent
from sim.stats import (
    _z_sum,
    holm,
    mean_difference_test,
    min_detectable_change,
    min_detectable_mean_change,
    paired_change,
    two_proportion_interval,
    two_proportion_test,
    unpaired_change,
    welch_interval,
)

RATE_KINDS = tuple(sorted(PERCENT_KINDS))


def is_rate(row_or_record) -> bool:
    """True when a record (or a :class:`MetricRow`) is a rate: its changes are absolute and in
    percentage points, its tolerance is ``checks.tolerance``. Same answer as the report's
    :func:`sim.report.format.is_percent`."""
    rec = row_or_record.meta if isinstance(row_or_record, MetricRow) else row_or_record
    return is_percent(rec)


@dataclass
class MetricRow:
    """One metric compared between run ``a`` (baseline) and run ``b`` (now).

    ``change`` = b - a in the metric's units. ``p_value`` raw two-sided p (None: not tested),
    ``p_holm`` Holm-adjusted across the tested rows. ``tolerance`` is the absolute threshold
    applied to |change| (for means: relative tolerance × |baseline mean|); when ``sim check``
    raised it to the change its games can detect, ``tolerance_set`` is the configured one
    (:func:`sim.check.gate.check_summary`). When a paired row's sides played different game
    counts (a sequential look against a whole baseline), ``a``, ``b`` and ``change`` are over
    the first ``games`` games of both, and ``a_run`` / ``b_run`` keep the whole runs' values
    (otherwise ``games`` is None and ``a`` / ``b`` are the whole runs'). ``detectable``:
    smallest change detectable at ``power`` and α/m (m = tested metrics), the change a lone
    moved metric needs under Holm. ``verdict``: "pass", "FAIL", "info" (not tested), "new",
    "missing" (in the baseline only: fails).
    """

    metric: str
    by: dict
    kind: str
    a: float | None
    b: float | None
    n_a: int | None = None
    n_b: int | None = None
    change: float | None = None
    p_value: float | None = None
    p_holm: float | None = None
    significant: bool = False
    tolerance: float | None = None
    detectable: float | None = None
    games_needed: int | None = None
    verdict: str = "info"
    note: str = ""
    unit: str | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    test: str | None = None
    corr: float | None = None
    headline: bool = False
    se: float | None = None
    tolerance_set: float | None = None
    games: int | None = None
    a_run: float | None = None
    b_run: float | None = None
    _power_args: tuple = field(default=(), repr=False)

    @property
    def label(self) -> str:
        return metric_label(self.metric, self.by)

    @property
    def meta(self) -> dict:
        """What the formatting helpers of :mod:`sim.report.format` read: metric, kind, unit."""
        d = {"metric": self.metric, "kind": self.kind}
        if self.unit is not None:
            d["unit"] = self.unit
        return d

    @property
    def tested(self) -> bool:
        return self.p_value is not None

    @property
    def failed(self) -> bool:
        return self.verdict in ("FAIL", "missing")



def worst_detectable(rows, shares: bool = False):
    """The rows with the largest detectable change among ``rows`` (each with ``detectable``
    set): ``(rate, mean)``, the rate row (proportions; with ``shares`` also share rows) by its
    change in points, the mean row by its change relative to ``a``; None where ``rows`` has none."""
    rates = [r for r in rows if is_rate(r) or (shares and r.kind == "share")]
    means = [r for r in rows if r.kind == "mean" and r.a]
    rate = max(rates, key=lambda r: r.detectable) if rates else None
    mean = max(means, key=lambda r: r.detectable / abs(r.a)) if means else None
    return rate, mean


def _n_seats(summary: dict) -> int | None:
    seats = summary.get("seats")
    return len(seats) if seats else None


def _rate(rec: dict, seats: int | None) -> float | None:
    """The rate a record tests: its value, or for a difference of rates value + reference
    (the record's ``reference``; for ``first_player_advantage`` without one, 1/seats). None
    when it cannot be known."""
    v = rec.get("value")
    if v is None or math.isnan(v):
        return None
    if rec.get("kind") == "difference":
        ref = rec.get("reference")
        if ref is None and rec.get("metric") == "first_player_advantage" and seats:
            ref = 1.0 / seats
        return None if ref is None else v + ref
    return v


def _trials(n: int, games: int | None) -> tuple[int, bool]:
    """Effective independent trials: ``n`` capped at the games count (see module docstring)."""
    if games and n > games:
        return int(games), True
    return int(n), False


def _counts(rec: dict, p: float, games: int | None) -> tuple[int, int, bool]:
    """(successes, trials, capped) for the two-proportion test of a rate record."""
    n, capped = _trials(rec["n"], games)
    x = rec.get("successes") if not capped else None
    if x is None:
        x = round(p * n)
    return min(max(int(x), 0), n), n, capped


def first_games_value(value: float, num, den, m: int) -> float | None:
    """A run's value of a metric over its first ``m`` games: its whole-run ``value`` moved by
    the difference between the per-game ratio ``sum(num) / sum(den)`` over the first ``m``
    games and over all of them (the per-game outcomes of a rate are its value less any
    reference, e.g. the fair share of ``first_player_advantage``). None when unknown."""
    if m <= 0 or den[:m].sum() <= 0 or den.sum() <= 0:
        return None
    if m >= num.size:
        return value
    return float(value + num[:m].sum() / den[:m].sum() - num.sum() / den.sum())


def _test_row(row: MetricRow, ra: dict, rb: dict, a: dict, b: dict, pairs=None, alpha: float = 0.05) -> None:
    """Fill ``p_value``, the change's interval and ``detectable`` inputs of ``row`` when its
    kind has a test and the records (or the per-game ``pairs`` = ((num_a, den_a), (num_b,
    den_b))) carry what it needs; otherwise explain in ``note``."""
    kind = row.kind
    va, vb, na, nb = ra.get("value"), rb.get("value"), ra.get("n"), rb.get("n")
    if va is None or vb is None or math.isnan(va) or math.isnan(vb):
        row.note = "no value"
        return
    if pairs is not None:
        (an, ad), (bn, bd) = pairs
        m = min(an.size, bn.size)
        if m >= 2 and ad[:m].sum() > 0 and bd[:m].sum() > 0:
            res = paired_change(an[:m], ad[:m], bn[:m], bd[:m], alpha)
            row.p_value, row.ci_low, row.ci_high = res["p_value"], res["ci_low"], res["ci_high"]
            row.test, row.se = res["test"], res["se"]
            row.corr = res["corr"] if res["corr"] == res["corr"] else None
            row.change = res["change"]
            row._power_args = ("se", res["se"], "paired", m, an.size)
            if not res["se"] > 0:
                # every game identical (an unchanged run): the paired spread of a *real* change
                # is unknown, so the detectable change is the unpaired one (conservative)
                alone = dataclasses.replace(row)
                _test_row(alone, ra, rb, a, b, None, alpha)
                if alone._power_args:
                    row._power_args = alone._power_args
            if an.size != bn.size:
                # the change is over those games: the row's values are too (baseline and now
                # over the same games as the change), the whole runs' values go to the note
                from sim.report.format import fmt_number

                fa, fb = first_games_value(va, an, ad, m), first_games_value(vb, bn, bd, m)
                if fa is not None and fb is not None:
                    row.a, row.b, row.a_run, row.b_run, row.games = fa, fb, va, vb, m
                    whole = [f"baseline {fmt_number(va, row.meta)} over its {an.size:,}" if an.size > m else "",
                             f"now {fmt_number(vb, row.meta)} over its {bn.size:,}" if bn.size > m else ""]
                    row.note = (f"baseline, now and change over the first {m:,} games of both; whole runs: "
                                + ", ".join(w for w in whole if w))
            return
    ga, gb = a.get("games"), b.get("games")
    sa, sb = ra.get("se"), rb.get("se")
    if (kind == "share" or is_rate(row)) and sa is not None and sb is not None and rb.get("kind") == kind:
        pa, pb = _rate(ra, _n_seats(a)), _rate(rb, _n_seats(b))
        res = unpaired_change(va, sa, vb, sb, alpha)
        row.p_value, row.ci_low, row.ci_high, row.se = res["p_value"], res["ci_low"], res["ci_high"], res["se"]
        row.test = "unpaired z (ratio se)"
        row._power_args = ("se", res["se"], "unpaired", sa, sb, gb)
        return
    if is_rate(row):
        pa, pb = _rate(ra, _n_seats(a)), _rate(rb, _n_seats(b))
        if not na or not nb or pa is None or pb is None:
            row.note = "no trial count or reference: not tested"
            return
        xa, ta, ca = _counts(ra, pa, ga)
        xb, tb, cb = _counts(rb, pb, gb)
        row.p_value = two_proportion_test(xa, ta, xb, tb)[1]
        row.ci_low, row.ci_high = two_proportion_interval(xa, ta, xb, tb, alpha)
        row.test = "two-proportion z"
        row._power_args = ("rate", pa, ta, tb, gb)
        if ca or cb:
            row.note = "n capped at games"
    elif kind == "mean":
        sa, sb = ra.get("sd"), rb.get("sd")
        if sa is None or sb is None or math.isnan(sa) or math.isnan(sb) or not na or not nb:
            row.note = "no sd: not tested"
            return
        ta, ca = _trials(na, ga)
        tb, cb = _trials(nb, gb)
        if ta < 2 or tb < 2:
            row.note = "fewer than 2 games: not tested"
            return
        row.p_value = mean_difference_test(va, sa, ta, vb, sb, tb)[1]
        row.ci_low, row.ci_high = welch_interval(va, sa, ta, vb, sb, tb, alpha)
        row.test = "Welch"
        row._power_args = ("mean", sa, ta, sb, tb, gb)
        if ca or cb:
            row.note = "n capped at games"


def detectable_at(row: MetricRow, games_b: int, alpha: float, power: float) -> float | None:
    """The minimum change of ``row`` detectable at ``power`` and level ``alpha`` had this run
    (side b) played ``games_b`` games against the same baseline (side a): the standard error
    of the change rescaled to that game count. A paired row's se shrinks with the paired games
    (``min(N_a, games_b)``, the baseline's games bound it); an unpaired row keeps the
    baseline's own variance. None for an untested row, or one whose test does not say how its
    se scales (then the detectable change at the played games is all that is known)."""
    args = row._power_args
    if not args or not games_b:
        return None
    z = _z_sum(alpha, power)
    if args[0] == "se" and len(args) >= 5 and args[2] == "paired":
        _, se, _, m, n_a = args
        return z * se * math.sqrt(m / max(1, min(int(n_a), int(games_b))))
    if args[0] == "se" and len(args) >= 6 and args[2] == "unpaired" and args[5]:
        _, _, _, sa, sb, gb = args
        return z * math.sqrt(sa * sa + sb * sb * gb / games_b)
    if args[0] == "rate" and len(args) >= 5 and args[4]:
        _, p, ta, tb, gb = args
        return min_detectable_change(p, ta, max(1, round(tb * games_b / gb)), alpha, power)
    if args[0] == "mean" and len(args) >= 6 and args[5]:
        _, sa, ta, sb, tb, gb = args
        return min_detectable_mean_change(sa, ta, sb, max(2, round(tb * games_b / gb)), alpha, power)
    return None


def _implied_zero(rec: dict, other: dict) -> dict | None:
    """For a rate record absent from ``other``: a 0-of-n record when ``other`` has records of
    the same metric with the same ``by`` keys (producers skip zero counts, e.g. rank 0 when no
    game stalled); n is taken from such a sibling. None otherwise."""
    if rec.get("kind") not in RATE_KINDS or not is_percent(rec):
        return None
    keys = set(rec.get("by") or {})
    for r in other["metrics"]:
        if r["metric"] == rec["metric"] and set(r.get("by") or {}) == keys and r.get("n"):
            return {"metric": rec["metric"], "by": dict(rec.get("by") or {}), "value": 0.0, "ci_low": None,
                    "ci_high": None, "n": r["n"], "kind": rec["kind"], "successes": 0}
    return None


def compare_records(a: dict, b: dict, alpha: float = 0.05, power: float = 0.8, per_game_a: dict | None = None,
                    per_game_b: dict | None = None, headline: tuple[str, ...] | None = None,
                    family: str = "tested") -> list[MetricRow]:
    """Pair the metrics of summaries/baselines ``a`` and ``b`` and test each change.

    Returns rows in ``a``'s order, then metrics new in ``b``. Tested rows get ``p_value``,
    ``p_holm`` (Holm across the tested rows), ``significant`` (Holm at ``alpha``) and
    ``detectable`` (minimum detectable change at ``power``, level alpha/m). A rate present on
    one side only is read as 0 of n on the other when that side has sibling records (see
    :func:`_implied_zero`); other unpaired rows get verdict "missing" / "new". Verdicts of
    paired rows are left to the caller (:func:`check_summary` applies tolerances).

    ``per_game_a`` / ``per_game_b``: label -> (num, den) per-game outcomes
    (:mod:`sim.check.paired`); used (paired tests) only when both sides played the same seed.
    ``headline``: patterns marking headline rows (default: the game's). ``family``: "tested"
    (Holm over every tested row) or "headline" (Holm over the tested headline rows only; the
    other rows keep their raw p and are information). Records repeating another metric
    (:func:`sim.check.paired.is_duplicate`, with the game's ``GameDef.duplicates``) are left out.
    """
    from sim.check.paired import duplicate_patterns, headline_patterns, is_duplicate, is_headline

    if headline is None:
        headline = headline_patterns(str(a.get("game") or b.get("game")))
    same_seed = a.get("seed") is not None and a.get("seed") == b.get("seed")
    pga = per_game_a if same_seed else None
    pgb = per_game_b if same_seed else None
    b_by_key = {metric_key(r): r for r in b["metrics"]}
    a_keys = {metric_key(r) for r in a["metrics"]}
    rows: list[MetricRow] = []
    order = [(ra, b_by_key.get(metric_key(ra))) for ra in a["metrics"]]
    order += [(None, rb) for rb in b["metrics"] if metric_key(rb) not in a_keys]
    for ra, rb in order:
        note = ""
        if rb is None:
            rb = _implied_zero(ra, b)
            if rb is None:
                rows.append(MetricRow(ra["metric"], dict(ra.get("by") or {}), ra.get("kind", ""), ra.get("value"),
                                      None, ra.get("n"), verdict="missing", note="in the baseline, not in this run"))
                continue
            note = "absent from this run: read as 0 of n"
        elif ra is None:
            ra = _implied_zero(rb, a)
            if ra is None:
                rows.append(MetricRow(rb["metric"], dict(rb.get("by") or {}), rb.get("kind", ""), None,
                                      rb.get("value"), None, rb.get("n"), verdict="new", note="not in the baseline"))
                continue
            note = "absent from the baseline: read as 0 of n"
        row = MetricRow(ra["metric"], dict(ra.get("by") or {}), ra.get("kind", ""), ra.get("value"),
                        rb.get("value"), ra.get("n"), rb.get("n"), unit=ra.get("unit"))
        rows.append(row)
        if rb.get("kind") != row.kind:
            row.note = f"kind changed: {row.kind} -> {rb.get('kind')}"
            continue
        if row.a is not None and row.b is not None:
            row.change = row.b - row.a
        lab = row.label
        pairs = (pga[lab], pgb[lab]) if pga and pgb and lab in pga and lab in pgb else None
        _test_row(row, ra, rb, a, b, pairs, alpha)
        if note:
            row.note = f"{note}; {row.note}" if row.note else note
    dups = duplicate_patterns(str(a.get("game") or b.get("game")))
    rows = [r for r in rows if not is_duplicate({"metric": r.metric, "by": r.by}, dups)]
    for r in rows:
        r.headline = is_headline({"metric": r.metric, "by": r.by}, headline)
    tested = [r for r in rows if r.tested and (family == "tested" or r.headline)]
    m = max(len(tested), 1)
    if tested:
        reject, adj = holm([r.p_value for r in tested], alpha)
        for r, rej, pa in zip(tested, reject, adj, strict=True):
            r.p_holm, r.significant = float(pa), bool(rej)
    for r in rows:
        if not r.tested:
            continue
        args = r._power_args
        if args[0] == "se":
            r.detectable = _z_sum(alpha / m, power) * args[1]
        elif args[0] == "rate":
            r.detectable = min_detectable_change(args[1], args[2], args[3], alpha / m, power)
        else:
            r.detectable = min_detectable_mean_change(args[1], args[2], args[3], args[4], alpha / m, power)
    return rows


