"""Balance regression: baselines, metric-by-metric comparison of two runs, balance targets.

Used by ``sim baseline`` / ``sim check`` / ``sim compare`` (:mod:`sim.cli_regress`). Everything
here works on the ``summary.json`` shape::

    {"game", "title", "run", "mode", "seed", "games", "config_hash", "seats": [labels],
     "metrics": [{"metric", "by", "value", "ci_low", "ci_high", "n", "kind", "sd"?}, ...]}

A metric is identified by ``(metric, canonical JSON of by)``.

How a metric is compared (baseline ``a``, this run ``b``):

* ``proportion`` and ``share``: two-sided two-proportion z-test on ``round(value·n)`` successes
  of ``n`` trials; the change is ``b - a`` (absolute, 0.01 = one percentage point).
* ``first_player_advantage`` (``difference``): the seat-0 win rate minus 1/seats, so it is
  tested as the proportion ``value + 1/seats`` (needs ``seats`` in both files).
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

A tested metric **fails** when its Holm-adjusted p-value (family = every tested metric of the
run) is below ``alpha`` AND ``|change|`` exceeds its tolerance: ``tolerance`` (absolute) for
rates, ``mean_tolerance`` (relative to the baseline mean) for means, ``tolerances[metric]``
(same unit as its kind's default) overriding either. Holm keeps the chance that an unchanged
game fails at <= ``alpha`` however the metrics correlate; the tolerance keeps a huge run from
failing on changes too small to matter. A metric of the baseline missing from the run fails
(the baseline is stale); a new metric is informational.

Targets (``[[checks.targets]]``) are absolute bounds on the point estimate of this run, e.g.
``{metric="win_rate", by={seat="*"}, min=0.22, max=0.28}``. A ``by`` value ``"*"`` matches any
value of that key; a record matches when its ``by`` has exactly the target's keys. A target
matching no record is a config error (exit code 2).

Under common random numbers (same seed on both sides) the two runs are positively correlated
and the independent-sample tests above overstate the variance of the change: their p-values
are conservative (a "significant" change is real; a real change may be missed).

The ``[checks]`` table's models (:class:`CheckConfig`, :class:`Target`) live in
:mod:`sim.config` with the rest of the schema. This module imports only pydantic and numpy at
import time; scipy, statsmodels and rich load inside the functions that use them.
"""

from __future__ import annotations

import datetime as _dt
import json
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from sim.config import CheckConfig, Target  # noqa: F401  (re-exported)
from sim.errors import ConfigError
from sim.stats import (  # noqa: F401  (min_detectable_change re-exported for reports)
    games_for_change,
    holm,
    mean_difference_test,
    min_detectable_change,
    min_detectable_mean_change,
    two_proportion_test,
)

BASELINE_FORMAT = "sim-baseline/1"
CHECK_FORMAT = "sim-check/1"
COMPARE_FORMAT = "sim-compare/1"
RATE_KINDS = ("proportion", "share")
IDENTICAL_MESSAGE = "identical to baseline (same config, seed and code)"

# --- config ---------------------------------------------------------------------------------


def checks_of(cfg: Any) -> CheckConfig:
    """The :class:`CheckConfig` of a RunConfig (validates a plain dict too); raises ConfigError."""
    c = getattr(cfg, "checks", None)
    if isinstance(c, CheckConfig):
        return c
    try:
        return CheckConfig.model_validate(c or {})
    except ValidationError as e:
        err = e.errors()[0]
        key = ".".join(str(p) for p in ("checks", *err["loc"]))
        raise ConfigError(getattr(cfg, "source", "<memory>"), key, err["msg"]) from None


# --- files ----------------------------------------------------------------------------------


class MetricRecord(BaseModel):
    """One metric record as stored in summary.json / a baseline (extra keys kept)."""

    model_config = ConfigDict(extra="allow")

    metric: str
    by: dict[str, Any] = Field(default_factory=dict)
    value: float | None
    ci_low: float | None = None
    ci_high: float | None = None
    n: int | None = Field(None, ge=0)
    kind: str
    sd: float | None = Field(None, ge=0)


class _SummaryFile(BaseModel):
    model_config = ConfigDict(extra="allow")

    game: str
    run: str = ""
    seed: int | None = None
    games: int | None = None
    config_hash: str | None = None
    seats: list[str | int] | None = None
    metrics: list[MetricRecord]


class _BaselineFile(_SummaryFile):
    format: Literal["sim-baseline/1"]
    run: str
    seed: int
    games: int
    config_hash: str
    package_version: str | None = None
    git_revision: str | None = None
    created: str | None = None


def _read_json(path: Path, what: str) -> Any:
    if not path.is_file():
        hint = " (a folder)" if path.is_dir() else ""
        if what == "baseline" and not path.exists():
            hint = "; record one with `sim baseline CONFIG`"
        raise ConfigError(str(path), "", f"no such {what} file{hint}")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as e:
        raise ConfigError(str(path), "", f"not UTF-8 text: {e}") from None
    except json.JSONDecodeError as e:
        raise ConfigError(str(path), "", f"not valid JSON: {e}") from None


def _validate(data: Any, model: type[BaseModel], path: Path) -> dict:
    if not isinstance(data, dict):
        raise ConfigError(str(path), "", f"expected a JSON object, got {type(data).__name__}")
    if model is _BaselineFile and data.get("format") != BASELINE_FORMAT:
        raise ConfigError(str(path), "format", f"expected {BASELINE_FORMAT!r}, got {data.get('format')!r}")
    try:
        m = model.model_validate(data)
    except ValidationError as e:
        err = e.errors()[0]
        key = ".".join(str(p) for p in err["loc"])
        raise ConfigError(str(path), key, err["msg"]) from None
    out = dict(data)
    out["metrics"] = [r.model_dump(exclude_none=False) for r in m.metrics]
    out["_path"] = str(path)
    seen: set[tuple[str, str]] = set()
    for i, r in enumerate(out["metrics"]):
        k = metric_key(r)
        if k in seen:
            raise ConfigError(str(path), f"metrics.{i}", f"duplicate metric {metric_label(r['metric'], r['by'])}")
        seen.add(k)
    return out


def load_baseline(path: str | Path) -> dict:
    """Read and validate a baseline file; raises :class:`ConfigError` (missing, not JSON,
    not an object, wrong ``format``, missing/mistyped keys, duplicate metrics)."""
    path = Path(path)
    return _validate(_read_json(path, "baseline"), _BaselineFile, path)


def load_summary(path: str | Path) -> dict:
    """Read and validate a ``summary.json`` (or a report folder holding one); raises ConfigError."""
    path = Path(path)
    if path.is_dir():
        path = path / "summary.json"
    return _validate(_read_json(path, "summary"), _SummaryFile, path)


def make_baseline(summary: dict, manifest: dict | None = None, created: str | None = None) -> dict:
    """A baseline dict (format ``sim-baseline/1``) from a run's summary and manifest.

    Keys: format, game, run, config_hash, seed, games, package_version, git_revision, created
    (ISO 8601 UTC), plus title, mode, seats and the metric records as in the summary.
    """
    import sim

    manifest = manifest or {}
    versions = manifest.get("versions") or {}
    return {
        "format": BASELINE_FORMAT,
        "game": summary["game"],
        "run": summary.get("run", ""),
        "title": summary.get("title"),
        "mode": summary.get("mode"),
        "config_hash": summary.get("config_hash") or manifest.get("config_hash", ""),
        "seed": int(summary.get("seed", manifest.get("seed", 0))),
        "games": int(summary["games"]),
        "seats": summary.get("seats"),
        "package_version": versions.get("sim", sim.__version__) if isinstance(versions, dict) else sim.__version__,
        "git_revision": manifest.get("git_revision"),
        "created": created or _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat(),
        "metrics": [dict(r) for r in summary["metrics"]],
    }


def write_json(data: dict, path: str | Path) -> Path:
    """Write ``data`` as indented, strict JSON (NaN and infinities become null, so jq and CI
    tools can read it; keys starting with "_" are dropped); creates folders; returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(_strict_json(data), indent=2, default=_json_default, allow_nan=False)
    path.write_text(text + "\n", encoding="utf-8")
    return path


def _strict_json(o: Any) -> Any:
    if isinstance(o, float):
        return o if math.isfinite(o) else None
    if isinstance(o, dict):
        return {k: _strict_json(v) for k, v in o.items() if not (isinstance(k, str) and k.startswith("_"))}
    if isinstance(o, list | tuple):
        return [_strict_json(v) for v in o]
    if hasattr(o, "item") and not isinstance(o, str | bytes):
        return _strict_json(o.item())
    return o


def _json_default(o: Any) -> Any:
    if hasattr(o, "item"):
        return o.item()
    if isinstance(o, Path):
        return str(o)
    raise TypeError(f"not JSON serialisable: {type(o).__name__}")


# --- metric identity and formatting ---------------------------------------------------------


def metric_key(rec: dict) -> tuple[str, str]:
    """Identity of a metric record: (name, canonical JSON of ``by``)."""
    return rec["metric"], json.dumps(rec.get("by") or {}, sort_keys=True, default=str)


def metric_label(metric: str, by: dict | None) -> str:
    """Human label: ``win_rate[seat=0]``, ``rank_share[seat=1,rank=2]``, ``stall_rate``."""
    if not by:
        return metric
    return f"{metric}[{','.join(f'{k}={v}' for k, v in by.items())}]"


def _same_value(a: Any, b: Any) -> bool:
    return a == b or str(a) == str(b)


def _is_rate(kind: str, metric: str) -> bool:
    return kind in RATE_KINDS or (kind == "difference" and metric == "first_player_advantage")


def fmt_value(v: float | None, kind: str, metric: str = "") -> str:
    """A value for tables: rates as percent, first-player advantage in points, else 4 digits."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "-"
    if kind in RATE_KINDS:
        return f"{100 * v:.2f}%"
    if kind == "difference" and metric == "first_player_advantage":
        return f"{100 * v:+.2f} pp"
    if kind == "count":
        return f"{v:.0f}" if float(v).is_integer() else f"{v:.4g}"
    return f"{v:.4g}"


def fmt_change(d: float | None, kind: str, metric: str = "", base: float | None = None) -> str:
    """A change for tables: rates in percentage points, means also relative."""
    if d is None or math.isnan(d):
        return "-"
    if _is_rate(kind, metric):
        return f"{100 * d:+.2f} pp"
    if kind == "p_value":
        return f"{d:+.2g}"
    if base:
        return f"{d:+.4g} ({100 * d / abs(base):+.1f}%)"
    return f"{d:+.4g}"


def fmt_p(p: float | None) -> str:
    if p is None or math.isnan(p):
        return "-"
    if p < 1e-6:
        return "<1e-6"
    return f"{p:.2g}" if p < 0.01 else f"{p:.3f}"


# --- comparing two runs ---------------------------------------------------------------------


@dataclass
class MetricRow:
    """One metric compared between run ``a`` (baseline) and run ``b`` (now).

    ``change`` = b - a in the metric's units. ``p_value`` raw two-sided p (None: not tested),
    ``p_holm`` Holm-adjusted across the tested rows. ``tolerance`` is the absolute threshold
    applied to |change| (for means: relative tolerance × |baseline mean|). ``detectable``:
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
    _power_args: tuple = field(default=(), repr=False)

    @property
    def label(self) -> str:
        return metric_label(self.metric, self.by)

    @property
    def tested(self) -> bool:
        return self.p_value is not None

    @property
    def failed(self) -> bool:
        return self.verdict in ("FAIL", "missing")


def _n_seats(summary: dict) -> int | None:
    seats = summary.get("seats")
    return len(seats) if seats else None


def _rate(rec: dict, seats: int | None) -> float | None:
    """The rate a record tests: its value, or for first_player_advantage value + reference
    (the record's ``reference``, else 1/seats). None when it cannot be known."""
    v = rec.get("value")
    if v is None or math.isnan(v):
        return None
    if rec.get("kind") == "difference":
        ref = rec.get("reference", 1.0 / seats if seats else None)
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


def _test_row(row: MetricRow, ra: dict, rb: dict, a: dict, b: dict) -> None:
    """Fill ``p_value`` and ``detectable`` inputs of ``row`` when its kind has a test and the
    records carry what it needs; otherwise explain in ``note``."""
    kind, metric = row.kind, row.metric
    va, vb, na, nb = ra.get("value"), rb.get("value"), ra.get("n"), rb.get("n")
    if va is None or vb is None or math.isnan(va) or math.isnan(vb):
        row.note = "no value"
        return
    ga, gb = a.get("games"), b.get("games")
    if _is_rate(kind, metric):
        pa, pb = _rate(ra, _n_seats(a)), _rate(rb, _n_seats(b))
        if not na or not nb or pa is None or pb is None:
            row.note = "no trial count or reference: not tested"
            return
        xa, ta, ca = _counts(ra, pa, ga)
        xb, tb, cb = _counts(rb, pb, gb)
        row.p_value = two_proportion_test(xa, ta, xb, tb)[1]
        row._power_args = ("rate", pa, ta, tb)
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
        row._power_args = ("mean", sa, ta, sb, tb)
        if ca or cb:
            row.note = "n capped at games"


def _implied_zero(rec: dict, other: dict) -> dict | None:
    """For a rate record absent from ``other``: a 0-of-n record when ``other`` has records of
    the same metric with the same ``by`` keys (producers skip zero counts, e.g. rank 0 when no
    game stalled); n is taken from such a sibling. None otherwise."""
    if rec.get("kind") not in RATE_KINDS:
        return None
    keys = set(rec.get("by") or {})
    for r in other["metrics"]:
        if r["metric"] == rec["metric"] and set(r.get("by") or {}) == keys and r.get("n"):
            return {"metric": rec["metric"], "by": dict(rec.get("by") or {}), "value": 0.0, "ci_low": None,
                    "ci_high": None, "n": r["n"], "kind": rec["kind"], "successes": 0}
    return None


def compare_records(a: dict, b: dict, alpha: float = 0.05, power: float = 0.8) -> list[MetricRow]:
    """Pair the metrics of summaries/baselines ``a`` and ``b`` and test each change.

    Returns rows in ``a``'s order, then metrics new in ``b``. Tested rows get ``p_value``,
    ``p_holm`` (Holm across the tested rows), ``significant`` (Holm at ``alpha``) and
    ``detectable`` (minimum detectable change at ``power``, level alpha/m). A rate present on
    one side only is read as 0 of n on the other when that side has sibling records (see
    :func:`_implied_zero`); other unpaired rows get verdict "missing" / "new". Verdicts of
    paired rows are left to the caller (:func:`check_summary` applies tolerances).
    """
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
                        rb.get("value"), ra.get("n"), rb.get("n"))
        rows.append(row)
        if rb.get("kind") != row.kind:
            row.note = f"kind changed: {row.kind} -> {rb.get('kind')}"
            continue
        if row.a is not None and row.b is not None:
            row.change = row.b - row.a
        _test_row(row, ra, rb, a, b)
        if note:
            row.note = f"{note}; {row.note}" if row.note else note
    tested = [r for r in rows if r.tested]
    m = max(len(tested), 1)
    if tested:
        reject, adj = holm([r.p_value for r in tested], alpha)
        for r, rej, pa in zip(tested, reject, adj, strict=True):
            r.p_holm, r.significant = float(pa), bool(rej)
    for r in tested:
        args = r._power_args
        if args[0] == "rate":
            r.detectable = min_detectable_change(args[1], args[2], args[3], alpha / m, power)
        else:
            r.detectable = min_detectable_mean_change(args[1], args[2], args[3], args[4], alpha / m, power)
    return rows


@dataclass
class TargetRow:
    """One target applied to one matching record; a target matching nothing gives one row
    with verdict "no match" and no value. ``value``/``ci_*`` in the metric's units."""

    target: str
    metric: str
    by: dict
    kind: str
    value: float | None
    min: float | None
    max: float | None
    ci_low: float | None = None
    ci_high: float | None = None
    verdict: str = "pass"  # "pass" | "FAIL" | "no match"
    note: str = ""

    @property
    def label(self) -> str:
        return metric_label(self.metric, self.by)


def evaluate_targets(summary: dict, targets: list[Target]) -> list[TargetRow]:
    """Apply each target to every matching record of ``summary``.

    A record passes when its value lies in [min, max] (point estimate; missing bounds are
    open). When its interval crosses a bound the note says the verdict could flip with more
    games. A target matching nothing gives one row with verdict "no match".
    """
    out: list[TargetRow] = []
    for t in targets:
        matched = [r for r in summary["metrics"] if t.matches(r)]
        if not matched:
            out.append(TargetRow(t.label(), t.metric, dict(t.by), "", None, t.min, t.max, verdict="no match",
                                 note="no metric of this run matches (check the name and by keys)"))
            continue
        for r in matched:
            v = r.get("value")
            row = TargetRow(t.label(), r["metric"], dict(r.get("by") or {}), r.get("kind", ""), v, t.min, t.max,
                            r.get("ci_low"), r.get("ci_high"))
            if v is None or math.isnan(v):
                row.verdict, row.note = "FAIL", "no value"
            elif (t.min is not None and v < t.min) or (t.max is not None and v > t.max):
                row.verdict = "FAIL"
                row.note = "below min" if t.min is not None and v < t.min else "above max"
            lo, hi = r.get("ci_low"), r.get("ci_high")
            if v is not None and lo is not None and hi is not None:
                crosses = any(b is not None and lo < b < hi for b in (t.min, t.max))
                if crosses:
                    row.note = (row.note + "; " if row.note else "") + "interval crosses the bound: more games would settle it"
            out.append(row)
    return out


@dataclass
class CheckReport:
    """Outcome of ``sim check``: metric rows, target rows and what made the run fail.

    ``exit_code``: 0 pass, 1 a regression or a missed target, 2 a target matching nothing.
    """

    game: str
    run: str
    alpha: float
    power: float
    baseline: dict  # baseline metadata (no metrics)
    now: dict  # this run's metadata (no metrics)
    rows: list[MetricRow]
    targets: list[TargetRow]
    identical: bool = False
    notes: list[str] = field(default_factory=list)

    @property
    def regressions(self) -> list[MetricRow]:
        return [r for r in self.rows if r.failed]

    @property
    def missed_targets(self) -> list[TargetRow]:
        return [t for t in self.targets if t.verdict == "FAIL"]

    @property
    def bad_targets(self) -> list[TargetRow]:
        return [t for t in self.targets if t.verdict == "no match"]

    @property
    def exit_code(self) -> int:
        if self.bad_targets:
            return 2
        return 1 if self.regressions or self.missed_targets else 0

    @property
    def passed(self) -> bool:
        return self.exit_code == 0


_META = ("game", "run", "config_hash", "seed", "games", "package_version", "git_revision", "created")


def _meta(d: dict) -> dict:
    return {k: d.get(k) for k in _META if k in d}


def tolerance_for(row: MetricRow, checks: CheckConfig) -> float | None:
    """Absolute threshold on |change| for ``row`` (None for untested kinds).

    ``checks.tolerances`` is looked up by the row's label (``win_rate[seat=0]``), then by its
    metric name (``win_rate``), then the kind's default applies.
    """
    def own(default: float) -> float:
        return checks.tolerances.get(row.label, checks.tolerances.get(row.metric, default))

    if _is_rate(row.kind, row.metric):
        return own(checks.tolerance)
    if row.kind == "mean":
        rel = own(checks.mean_tolerance)
        return rel * abs(row.a) if row.a else rel
    return None


def check_summary(baseline: dict, summary: dict, checks: CheckConfig | None = None,
                  manifest: dict | None = None) -> CheckReport:
    """Compare a run's ``summary`` with a ``baseline`` (see the module docstring for the rule)
    and apply ``checks.targets`` to the run.

    Raises :class:`ConfigError` when the baseline belongs to another game (bad input).
    ``identical`` is set when config hash, seed, games and every metric value are equal.
    """
    checks = checks or CheckConfig()
    if baseline.get("game") != summary.get("game"):
        raise ConfigError(baseline.get("_path", "baseline"), "game",
                          f"baseline is for {baseline.get('game')!r}, this run plays {summary.get('game')!r}")
    rows = compare_records(baseline, summary, checks.alpha, checks.power)
    m = max(sum(r.tested for r in rows), 1)
    for r in rows:
        if r.verdict in ("missing", "new"):
            continue
        r.tolerance = tolerance_for(r, checks) if r.tested else None
        if not r.tested:
            r.verdict = "info"
        elif r.significant and r.change is not None and abs(r.change) > r.tolerance:
            r.verdict = "FAIL"
            r.note = r.note or "significant and beyond tolerance"
        else:
            r.verdict = "pass"
            if r.significant:
                r.note = "significant but within tolerance"
        if (r.tested and _is_rate(r.kind, r.metric) and r.tolerance and r.detectable
                and r.detectable > r.tolerance and r.tolerance < 1):
            # effective trials per game (<= 1: capped at one per game) converts trials to games
            per_game = r._power_args[3] / summary["games"] if summary.get("games") else 1.0
            n = games_for_change(r._power_args[1], r.tolerance, checks.alpha / m, checks.power)
            r.games_needed = math.ceil(n / per_game)
        elif r.tested and r.kind == "mean" and r.tolerance and r.detectable and r.detectable > r.tolerance:
            # the detectable change scales as 1/sqrt(games)
            r.games_needed = math.ceil((summary.get("games") or r.n_b or 1) * (r.detectable / r.tolerance) ** 2)
    now = _meta(summary)
    if manifest:
        now.setdefault("git_revision", manifest.get("git_revision"))
        versions = manifest.get("versions") or {}
        if isinstance(versions, dict) and "sim" in versions:
            now.setdefault("package_version", versions["sim"])
    report = CheckReport(summary["game"], summary.get("run", ""), checks.alpha, checks.power, _meta(baseline),
                         now, rows, evaluate_targets(summary, checks.targets))
    same_inputs = all(baseline.get(k) == summary.get(k) for k in ("config_hash", "seed", "games"))
    same_values = (
        {metric_key(r): _strict_json(r.get("value")) for r in baseline["metrics"]}
        == {metric_key(r): _strict_json(r.get("value")) for r in summary["metrics"]}
    )
    if same_inputs and same_values:
        report.identical = True
        report.notes.append(IDENTICAL_MESSAGE)
    elif same_inputs:
        report.notes.append(
            "same config, seed and games as the baseline but different numbers: the code changed "
            f"(baseline revision {baseline.get('git_revision') or '?'}, now {now.get('git_revision') or '?'})"
        )
    elif baseline.get("seed") == summary.get("seed"):
        report.notes.append("same seed as the baseline (common random numbers): the tests are conservative")
    known = {r["metric"] for r in summary["metrics"]} | {metric_label(r["metric"], r.get("by")) for r in summary["metrics"]}
    unknown = sorted(set(checks.tolerances) - known)
    if unknown:
        report.notes.append(f"checks.tolerances names metrics this run does not produce: {', '.join(unknown)}")
    short = [r for r in rows if r.games_needed]
    if short:
        worst = max(r.games_needed for r in short)
        report.notes.append(
            f"{len(short)} metric(s) marked '!' under 'detectable' cannot reliably detect a change as "
            f"large as their tolerance at {summary.get('games')} games ({100 * checks.power:.0f}% power, "
            f"α/{m} per metric); about {worst:,} games per run would be needed for all of them"
        )
    return report


# --- output ---------------------------------------------------------------------------------


def _row_dict(r: MetricRow) -> dict:
    d = asdict(r)
    d.pop("_power_args", None)
    d["label"] = r.label
    return d


def check_to_json(report: CheckReport) -> dict:
    """JSON-ready dict (format ``sim-check/1``) of a check: verdicts, rows, targets, notes."""
    return {
        "format": CHECK_FORMAT,
        "game": report.game,
        "run": report.run,
        "passed": report.passed,
        "exit_code": report.exit_code,
        "identical": report.identical,
        "alpha": report.alpha,
        "power": report.power,
        "baseline": report.baseline,
        "now": report.now,
        "notes": report.notes,
        "regressions": [r.label for r in report.regressions],
        "missed_targets": [f"{t.target}: {t.label}" for t in report.missed_targets],
        "metrics": [_row_dict(r) for r in report.rows],
        "targets": [{**asdict(t), "label": t.label} for t in report.targets],
    }


def check_to_junit(report: CheckReport) -> str:
    """JUnit XML: one ``<testsuite>`` with a ``<testcase>`` per metric and per (target, record);
    regressions and missed targets are ``<failure>``, targets matching nothing ``<error>``,
    metrics that are not tested pass (their values are in the message-free system-out)."""
    import xml.etree.ElementTree as ET

    suites = ET.Element("testsuites")
    suite = ET.SubElement(suites, "testsuite", name=f"sim check {report.run or report.game}")
    n = failures = errors = 0
    for r in report.rows:
        n += 1
        case = ET.SubElement(suite, "testcase", classname=f"sim.check.{report.game}.metrics", name=r.label)
        text = (f"baseline {fmt_value(r.a, r.kind, r.metric)}, now {fmt_value(r.b, r.kind, r.metric)}, "
                f"change {fmt_change(r.change, r.kind, r.metric, r.a)}, p(Holm) {fmt_p(r.p_holm)}, "
                f"tolerance {_fmt_tol(r)}, verdict {r.verdict}" + (f" ({r.note})" if r.note else ""))
        if r.failed:
            failures += 1
            f = ET.SubElement(case, "failure", message=f"{r.label}: {r.verdict}: {r.note}", type="regression")
            f.text = text
        else:
            ET.SubElement(case, "system-out").text = text
    for t in report.targets:
        n += 1
        case = ET.SubElement(suite, "testcase", classname=f"sim.check.{report.game}.targets",
                             name=f"{t.target}: {t.label}" if t.verdict != "no match" else t.target)
        text = f"value {fmt_value(t.value, t.kind, t.metric)}, bounds [{t.min}, {t.max}]" + (f" ({t.note})" if t.note else "")
        if t.verdict == "FAIL":
            failures += 1
            ET.SubElement(case, "failure", message=f"{t.label} = {fmt_value(t.value, t.kind, t.metric)}: {t.note}",
                          type="target").text = text
        elif t.verdict == "no match":
            errors += 1
            ET.SubElement(case, "error", message=t.note, type="config").text = t.target
        else:
            ET.SubElement(case, "system-out").text = text
    if report.notes:
        ET.SubElement(suite, "system-out").text = "\n".join(report.notes)
    for el in (suite, suites):
        el.set("tests", str(n))
        el.set("failures", str(failures))
        el.set("errors", str(errors))
    suite.set("skipped", "0")
    ET.indent(suites)
    return ET.tostring(suites, encoding="unicode", xml_declaration=True) + "\n"


def _fmt_tol(r: MetricRow) -> str:
    if r.tolerance is None:
        return "-"
    if _is_rate(r.kind, r.metric):
        return f"{100 * r.tolerance:.2f} pp"
    if r.a:
        return f"{100 * r.tolerance / abs(r.a):.3g}% = {r.tolerance:.3g}"
    return f"{r.tolerance:.3g}"


def _fmt_detectable(r: MetricRow) -> str:
    if r.detectable is None:
        return "-"
    if _is_rate(r.kind, r.metric):
        s = f"{100 * r.detectable:.2f} pp"
    else:
        s = f"{r.detectable:.3g}"
    return s + (" !" if r.games_needed else "")


_STYLE = {"FAIL": "bold red", "missing": "bold red", "pass": "green", "info": "dim", "new": "cyan"}


def render_check(report: CheckReport, console: Any) -> None:
    """Print the check as rich tables (metrics, then targets) and a one-line verdict."""
    from rich.markup import escape as esc
    from rich.table import Table

    b, n = report.baseline, report.now
    console.print(f"[bold]sim check[/bold] {report.run} ({report.game}): baseline {b.get('games')} games "
                  f"seed {b.get('seed')} config {b.get('config_hash')} rev {b.get('git_revision') or '?'}; "
                  f"now {n.get('games')} games seed {n.get('seed')} config {n.get('config_hash')}")
    t = Table(title=f"metrics (Holm across tested metrics, α = {report.alpha:g})", show_lines=False)
    for col, just in (("metric", "left"), ("baseline", "right"), ("now", "right"), ("change", "right"),
                      ("p (Holm)", "right"), ("tolerance", "right"),
                      (f"detectable ({100 * report.power:.0f}%)", "right"), ("verdict", "left")):
        t.add_column(col, justify=just, overflow="fold")
    for r in report.rows:
        style = _STYLE.get(r.verdict, "")
        verdict = f"[{style}]{r.verdict}[/]" if style else r.verdict
        if r.note:
            verdict += f" [dim]({esc(r.note)})[/]"
        t.add_row(esc(r.label), fmt_value(r.a, r.kind, r.metric), fmt_value(r.b, r.kind, r.metric),
                  fmt_change(r.change, r.kind, r.metric, r.a), fmt_p(r.p_holm), _fmt_tol(r), _fmt_detectable(r),
                  verdict)
    console.print(t)
    if report.targets:
        tt = Table(title="targets")
        for col in ("target", "metric", "value", "interval", "verdict"):
            tt.add_column(col, overflow="fold")
        for x in report.targets:
            style = {"FAIL": "bold red", "no match": "bold red", "pass": "green"}[x.verdict]
            ci = ("-" if x.ci_low is None or x.ci_high is None
                  else f"{fmt_value(x.ci_low, x.kind, x.metric)} - {fmt_value(x.ci_high, x.kind, x.metric)}")
            tt.add_row(esc(x.target), esc(x.label), fmt_value(x.value, x.kind, x.metric), ci,
                       f"[{style}]{x.verdict}[/]" + (f" [dim]({esc(x.note)})[/]" if x.note else ""))
        console.print(tt)
    for note in report.notes:
        if not (note == IDENTICAL_MESSAGE and report.exit_code == 0):  # PASS line says it
            console.print(f"note: {note}", markup=False, highlight=False)
    if report.exit_code == 0:
        console.print("[bold green]PASS[/]" + (f": {IDENTICAL_MESSAGE}" if report.identical else ""))
    elif report.exit_code == 2:
        console.print("[bold red]ERROR[/]: target(s) matching no metric: "
                      + esc(", ".join(t.target for t in report.bad_targets)))
    else:
        parts = []
        if report.regressions:
            parts.append("regressions: " + ", ".join(r.label for r in report.regressions))
        if report.missed_targets:
            parts.append("missed targets: " + ", ".join(f"{t.label} ({t.target})" for t in report.missed_targets))
        console.print("[bold red]FAIL[/]: " + esc("; ".join(parts)), highlight=False)


# --- compare --------------------------------------------------------------------------------


@dataclass
class CompareReport:
    """Side-by-side comparison of two runs ``a`` and ``b`` (no pass/fail)."""

    a_label: str
    b_label: str
    alpha: float
    rows: list[MetricRow]
    a_meta: dict
    b_meta: dict
    crn: bool
    notes: list[str] = field(default_factory=list)


CRN_NOTE = ("common random numbers: both runs played the same seed and game indices, so the deal "
            "variance cancels in every change; the two-proportion tests assume independent runs and "
            "are therefore conservative here (real changes may show larger p-values than they deserve)")


def compare_summaries(a: dict, b: dict, a_label: str = "A", b_label: str = "B", alpha: float = 0.05,
                      power: float = 0.8) -> CompareReport:
    """Every metric of ``a`` and ``b`` with change, raw and Holm p-value and significance.

    ``crn`` is set when both ran the same seed and games count (the runner's common random
    numbers). Raises :class:`ConfigError` when the two runs are of different games.
    """
    if a.get("game") != b.get("game"):
        raise ConfigError(b_label, "game", f"{a_label} plays {a.get('game')!r}, {b_label} plays {b.get('game')!r}")
    rows = compare_records(a, b, alpha, power)
    for r in rows:
        if r.tested:
            r.verdict = "significant" if r.significant else "-"
        elif r.verdict == "missing":
            r.verdict, r.note = "only A", f"only in {a_label}"
        elif r.verdict == "new":
            r.verdict, r.note = "only B", f"only in {b_label}"
    crn = a.get("seed") is not None and a.get("seed") == b.get("seed") and a.get("games") == b.get("games")
    rep = CompareReport(a_label, b_label, alpha, rows, _meta(a), _meta(b), crn)
    if crn:
        rep.notes.append(CRN_NOTE)
    else:
        rep.notes.append("independent runs (different seeds or game counts): tests assume independence")
    return rep


def compare_to_json(rep: CompareReport) -> dict:
    """JSON-ready dict (format ``sim-compare/1``)."""
    return {"format": COMPARE_FORMAT, "a": {"label": rep.a_label, **rep.a_meta},
            "b": {"label": rep.b_label, **rep.b_meta}, "alpha": rep.alpha, "common_random_numbers": rep.crn,
            "notes": rep.notes, "metrics": [_row_dict(r) for r in rep.rows]}


def render_compare(rep: CompareReport, console: Any) -> None:
    """Print a comparison as a rich table followed by its notes."""
    from rich.markup import escape as esc
    from rich.table import Table

    t = Table(title=f"{esc(rep.a_label)} vs {esc(rep.b_label)} (Holm across tested metrics, α = {rep.alpha:g})")
    for col, just in (("metric", "left"), (rep.a_label, "right"), (rep.b_label, "right"), ("change", "right"),
                      ("p", "right"), ("p (Holm)", "right"), ("detectable", "right"), ("", "left")):
        t.add_column(esc(col), justify=just, overflow="fold")
    for r in rep.rows:
        mark = f"[bold yellow]{r.verdict}[/]" if r.verdict == "significant" else esc(r.verdict)
        if r.note:
            mark += f" [dim]({esc(r.note)})[/]"
        t.add_row(esc(r.label), fmt_value(r.a, r.kind, r.metric), fmt_value(r.b, r.kind, r.metric),
                  fmt_change(r.change, r.kind, r.metric, r.a), fmt_p(r.p_value), fmt_p(r.p_holm),
                  _fmt_detectable(r), mark)
    console.print(t)
    for note in rep.notes:
        console.print(f"note: {note}", markup=False, highlight=False)

