"""The verdict of balance regression: tolerances, balance targets, ``sim check``'s
pass/fail (:func:`check_summary`) and ``sim compare``'s side by side (:func:`compare_summaries`).

Only **headline** metrics are gated (:mod:`sim.check.paired`: the common ones and the game's
``HEADLINE``); the others are information. A gated metric (see :mod:`sim.check.stats` for the
tests, paired on a shared seed) **fails** when its Holm-adjusted p-value (family = the tested
headline metrics) is below ``alpha`` AND ``|change|`` exceeds
its tolerance: ``tolerance`` (absolute) for rates, ``mean_tolerance`` (relative to the
baseline mean) for means, ``tolerances[metric]`` (same unit as its kind's default) overriding
either. Holm keeps the chance that an unchanged game fails at <= ``alpha`` however the metrics
correlate; the tolerance keeps a huge run from failing on changes too small to matter. A
sequential check (:func:`sequential_decision`) uses each metric's SPRT only to decide when to
stop playing; its verdict is the same rule at the look it stopped at. A headline metric of the baseline missing from the run fails (the baseline is
stale); a new metric is informational. A tolerance smaller than what the check's most games can
detect is replaced by that detectable change, and the output says so (:func:`check_summary`;
docs/checks.md has the figures per shipped config).

A run is **identical** to its baseline when config hash, seed, games and the game's rules
version (``GameDef.version``) are equal and so is every metric value. A baseline recorded
before rules versions existed (no ``rules_version``) is compared on config, seed and games,
with a note; when the rules version differs the check says so in one line and decides
statistically, as for a changed config.

Targets (``[[checks.targets]]``) are absolute bounds on the point estimate of this run, e.g.
``{metric="win_rate", by={seat="*"}, min=0.22, max=0.28}``. A ``by`` value ``"*"`` matches any
value of that key; a record matches when its ``by`` has exactly the target's keys. A target
matching no record is a config error (exit code 2).

The ``[checks]`` table's models (:class:`CheckConfig`, :class:`Target`) live in
:mod:`sim.config` with the rest of the schema.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from sim.check.stats import MetricRow, compare_records, is_rate, worst_detectable
from sim.config import CheckConfig, Target
from sim.errors import ConfigError
from sim.jsonio import strict
from sim.records import metric_key, metric_label

IDENTICAL_MESSAGE = "identical to baseline (same config, seed and code)"
PREDATES_RULES_NOTE = ("the baseline predates rules versions (no rules_version): compared on config, seed "
                       "and games only; record it again to pin the rules version")
CRN_NOTE = ("common random numbers: both runs played the same seed and game indices; metrics with "
            "per-game outcomes on both sides are tested paired (the deal's luck cancels as far as the "
            "correlation shows), the others with independent-run tests, which are conservative here")


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


def check_metric_names(checks: CheckConfig, names: Any, source: str) -> None:
    """Raise :class:`ConfigError` (file ``source``, key ``checks.targets[i].metric``,
    ``checks.targets[i].by`` or ``checks.tolerances.<key>``) when a target or a tolerance
    names a metric not in ``names`` (the run's metric catalogue, :func:`sim.api.metric_names`:
    a set of names, or a dict name -> the sets of ``by`` keys of its records, when the
    target's ``by`` keys are checked too), before anything is played."""
    from sim.config import excerpt

    known = ", ".join(sorted(names))
    check_record_names([(f"checks.targets[{i}]", t.metric, t.by) for i, t in enumerate(checks.targets)],
                       names, source)
    for k in checks.tolerances:
        base = k.split("[", 1)[0]
        if base not in names:
            raise ConfigError(source, f"checks.tolerances.{excerpt(k)[1:-1]}",
                              f"unknown metric {excerpt(base)}; this config's metrics are {known}")


def check_record_names(items: list[tuple[str, str, dict]], names: Any, source: str) -> None:
    """Raise :class:`ConfigError` (file ``source``, key ``WHERE.metric`` or ``WHERE.by``) for
    the first ``(where, metric, by)`` whose metric is not in ``names`` (a set of metric names,
    or a dict name -> the sets of ``by`` keys its records may have, when the grouping is checked
    too): a ``[checks]`` target, a ``[tune]`` target or preference."""
    from sim.config import excerpt

    known = ", ".join(sorted(names))
    for where, metric, by in items:
        if metric not in names:
            raise ConfigError(source, f"{where}.metric", f"unknown metric {excerpt(metric)}; this config's metrics "
                              f"are {known}")
        if isinstance(names, dict) and frozenset(by) not in names[metric]:
            shapes = sorted("{" + ", ".join(sorted(k)) + "}" for k in names[metric])
            raise ConfigError(source, f"{where}.by", f"{metric} has no records grouped by {{{', '.join(sorted(by))}}}; "
                              f"its groupings are {', '.join(shapes)}")


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
            row = TargetRow(t.label(r), r["metric"], dict(r.get("by") or {}), r.get("kind", ""), v, t.min, t.max,
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
    def moved(self) -> list[MetricRow]:
        """Gated metrics that changed significantly (after Holm) but within their tolerance:
        they pass, and the PASS line names them (a designer sees the movement)."""
        return [r for r in self.rows if r.headline and r.verdict == "pass" and r.significant]

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


_META = ("game", "run", "config_hash", "seed", "games", "rules_version", "package_version", "git_revision",
         "created")


def _meta(d: dict) -> dict:
    return {k: d.get(k) for k in _META if k in d}


def tolerance_for(row: MetricRow, checks: CheckConfig) -> float | None:
    """Absolute threshold on |change| for ``row`` (None for untested kinds).

    ``checks.tolerances`` is looked up by the row's label (``win_rate[seat=0]``), then by its
    metric name (``win_rate``), then the kind's default applies.
    """
    def own(default: float) -> float:
        return checks.tolerances.get(row.label, checks.tolerances.get(row.metric, default))

    if is_rate(row):
        return own(checks.tolerance)
    if row.kind == "mean":
        rel = own(checks.mean_tolerance)
        return rel * abs(row.a) if row.a else rel
    return None


def policy_files_note(baseline: dict, manifest: dict | None) -> str | None:
    """One line when the user policy files of the run (``manifest["policy_files"]``) are not
    the ones the baseline was recorded with (another content: its sha256; another file), else
    None. A baseline without ``policy_files`` and a run without user policies agree."""
    base = {p.get("name"): p.get("sha256") for p in baseline.get("policy_files") or []}
    now = {p.get("name"): p.get("sha256") for p in (manifest or {}).get("policy_files") or []}
    if base == now:
        return None
    parts = []
    for name in sorted(set(base) | set(now), key=str):
        b, n = base.get(name), now.get(name)
        if b != n:
            parts.append(f"{name}: baseline {(b or 'none')[:12]}, now {(n or 'none')[:12]}")
    return ("user policy file changed since the baseline (sha256) - " + "; ".join(parts)
            + " (the check decides statistically, as for a changed config)")


def check_summary(baseline: dict, summary: dict, checks: CheckConfig | None = None,
                  manifest: dict | None = None, per_game: dict | None = None,
                  max_games: int | None = None) -> CheckReport:
    """Compare a run's ``summary`` with a ``baseline`` (see the module docstring for the rule)
    and apply ``checks.targets`` to the run.

    Raises :class:`ConfigError` when the baseline belongs to another game (bad input).
    ``identical`` is set when config hash, seed, games, rules version (unless the baseline
    predates rules versions) and every metric value are equal.

    Only headline metrics (:mod:`sim.check.paired`) are gated (and form the Holm family);
    the rest are information. ``per_game``: this run's per-game headline outcomes
    (:func:`sim.check.paired.per_game`); with the baseline's (its ``per_game`` entry) and the
    same seed, headline changes are tested paired.

    **Tolerances the games can detect.** A gated metric whose tolerance (non-zero) is smaller
    than the change the check can detect at its most games (``max_games``, default this run's:
    :func:`sim.check.stats.detectable_at`, at ``checks.power`` and α/m, with this comparison's
    own standard error, paired where paired) is gated at that detectable change instead: its
    ``tolerance`` becomes the detectable change and ``tolerance_set`` keeps the configured
    one; ``games_needed`` is then the games per run (baseline and check) that would enforce
    the configured tolerance, and one note lists them. A check so gated detects a change of
    every gated metric's (effective) tolerance with the stated power, and says which metrics'
    tolerances are not the configured ones.
    """
    from sim.check.paired import decode
    from sim.check.stats import detectable_at

    checks = checks or CheckConfig()
    if baseline.get("game") != summary.get("game"):
        raise ConfigError(baseline.get("_path", "baseline"), "game",
                          f"baseline is for {baseline.get('game')!r}, this run plays {summary.get('game')!r}")
    base_pg = decode(baseline.get("per_game"))
    rows = compare_records(baseline, summary, checks.alpha, checks.power, base_pg, per_game, family="headline")
    m = max(sum(r.tested and r.headline for r in rows), 1)
    played = int(summary.get("games") or 0)
    most = max(int(max_games or 0), played)
    # the same config and rules produce the same records: one in the baseline only is stale
    same_config = (baseline.get("config_hash") == summary.get("config_hash")
                   and baseline.get("rules_version") in (None, summary.get("rules_version")))
    for r in rows:
        if r.verdict in ("missing", "new"):
            if not r.headline and r.verdict == "missing" and same_config:
                r.note = "in the baseline only, and this run has the baseline's config: a stale record"
            elif not r.headline and r.verdict == "missing":
                r.verdict = "info"
                r.note = "in the baseline only (information metric)"
            continue
        r.tolerance = tolerance_for(r, checks) if r.tested else None
        if not r.tested or not r.headline:
            r.verdict = "info"
            continue
        reach = detectable_at(r, most, checks.alpha / m, checks.power) if most else None
        if reach is None and r.detectable is not None and most == played:
            reach = r.detectable
        if r.tolerance and reach is not None and math.isfinite(reach) and reach > r.tolerance:
            r.games_needed = math.ceil(most * (reach / r.tolerance) ** 2)
            r.tolerance_set, r.tolerance = r.tolerance, reach
        if r.significant and r.change is not None and abs(r.change) > r.tolerance:
            r.verdict = "FAIL"
            r.note = r.note or "significant and beyond tolerance"
        else:
            r.verdict = "pass"
            if r.significant:
                r.note = "significant but within tolerance"
    now = _meta(summary)
    if manifest:
        now.setdefault("git_revision", manifest.get("git_revision"))
        versions = manifest.get("versions") or {}
        if isinstance(versions, dict) and "sim" in versions:
            now.setdefault("package_version", versions["sim"])
    report = CheckReport(summary["game"], summary.get("run", ""), checks.alpha, checks.power, _meta(baseline),
                         now, rows, evaluate_targets(summary, checks.targets))
    same_inputs = all(baseline.get(k) == summary.get(k) for k in ("config_hash", "seed", "games"))
    base_rules, now_rules = baseline.get("rules_version"), summary.get("rules_version")
    if base_rules is None:
        report.notes.append(PREDATES_RULES_NOTE)
    elif base_rules != now_rules:
        same_inputs = False
        report.notes.append(f"rules version changed: baseline {base_rules}, now {now_rules or '?'} "
                            "(the check decides statistically, as for a changed config)")
    pnote = policy_files_note(baseline, manifest)
    if pnote:
        same_inputs = False
        report.notes.append(pnote)
    same_values = (
        {metric_key(r): strict(r.get("value")) for r in baseline["metrics"]}
        == {metric_key(r): strict(r.get("value")) for r in summary["metrics"]}
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
    report.notes.append(detect_line(rows, summary.get("games"), checks, m, most))
    fpa = first_player_note(summary)
    if fpa:
        report.notes.append(fpa)
    raised = [r for r in rows if r.headline and r.tolerance_set is not None]
    if raised:
        from sim.report.format import fmt_tolerance

        worst = max(r.games_needed or 0 for r in raised)
        shown = ", ".join(f"{r.label} {fmt_tolerance(r.tolerance_set, r.meta, r.a)} -> "
                          f"{fmt_tolerance(r.tolerance, r.meta, r.a)}" for r in raised[:6])
        more = f" and {len(raised) - 6} more" if len(raised) > 6 else ""
        report.notes.append(
            f"tolerance = what {most:,} games can detect ({100 * checks.power:.0f}% power, α/{m}, "
            f"{'paired' if any(_paired_power(r) for r in raised) else 'unpaired'}) "
            f"for {len(raised)} gated metric(s) marked '!', whose configured tolerance is smaller: {shown}{more}; "
            f"about {worst:,} games per run (baseline and check) would enforce the configured tolerances"
        )
    return report


def _paired_power(r: MetricRow) -> bool:
    """True when the row's detectable change comes from a paired se (a paired row whose games
    all agree states the unpaired one: the paired spread of a real change is unknown)."""
    a = r._power_args
    return len(a) >= 3 and a[0] == "se" and a[2] == "paired"


def _row_se(r: MetricRow, alpha: float) -> float | None:
    """Standard error of a row's change: the test's own, else from its interval."""
    if r.se is not None:
        return r.se
    if r.ci_low is None or r.ci_high is None:
        return None
    from scipy.stats import norm

    return (r.ci_high - r.ci_low) / (2 * float(norm.ppf(1 - alpha / 2)))


def sequential_decision(report: CheckReport, checks: CheckConfig) -> dict[str, str]:
    """The SPRT state of every gated metric of ``report`` at one look: label -> "inside"
    (H0: no change, accepted), "outside" (H1: |change| = tolerance, accepted: the metric
    fails) or "open" (keep playing).

    Each gated metric runs Wald's SPRT of H0: change = 0 against H1: |change| = its
    tolerance on the normal approximation of its change (paired where the baseline has the
    games' outcomes), with false-alarm rate ``alpha / m`` (m = gated metrics: Bonferroni, so
    an unchanged game fails with probability <= alpha) and power ``checks.power`` at a change
    of the tolerance (:func:`sim.stats.sprt_llr`, :func:`sim.stats.sprt_bounds`). Looks are
    few (``checks.looks``, doubling game counts), which only makes the test more conservative
    than Wald's continuous bounds. A metric without tolerance or standard error stays "open".
    """
    from sim.stats import sprt_bounds, sprt_llr

    gated = [r for r in report.rows if r.headline and r.tested]
    m = max(len(gated), 1)
    lo, hi = sprt_bounds(checks.alpha / m, checks.power)
    out: dict[str, str] = {}
    for r in gated:
        se = _row_se(r, checks.alpha)
        if se is None or not r.tolerance or r.change is None:
            out[r.label] = "open"
            continue
        llr = sprt_llr(r.change, se, r.tolerance)
        out[r.label] = "outside" if llr >= hi else "inside" if llr <= lo else "open"
    return out


def apply_sequential(report: CheckReport, state: dict[str, str], checks: CheckConfig, games: int,
                     max_games: int, looks: list[int]) -> None:
    """Note a sequential check's SPRT states on its last look's rows and add the note. The
    verdicts stay the stated rule's (significant and beyond the tolerance, set by
    :func:`check_summary`): the SPRT decides when the check stops, never whether a metric
    fails, so a change smaller than its tolerance cannot fail because the SPRT leans to H1
    (which it does from about half the tolerance)."""
    for r in report.rows:
        st = state.get(r.label)
        if st == "inside":
            r.note = r.note or "SPRT: no change accepted"
        elif st == "outside" and r.verdict != "FAIL":
            r.note = r.note or ("SPRT leans to a change of the tolerance, but the change is not significant and "
                                "beyond it")
        elif st == "open" and r.verdict == "pass":
            r.note = r.note or "SPRT undecided at the most games"
    m = max(len(state), 1)
    n_open = sum(v != "inside" for v in state.values()) if games == max_games else 0
    report.notes.append(
        f"sequential check (SPRT per gated metric, H0 no change vs H1 |change| = tolerance, false alarm "
        f"{checks.alpha:g}/{m} each, power {100 * checks.power:.0f}%; it decides when to stop, the verdict is "
        f"significant and beyond the tolerance): looks at {', '.join(map(str, looks))} games, "
        f"stopped at {games} of at most {max_games}"
        + (f"; {n_open} metric(s) without an SPRT decision of no change at the most games" if n_open else ""))


def detect_line(rows: list[MetricRow], games: Any, checks: CheckConfig, m: int, most: int | None = None) -> str:
    """One line: what the gate can detect at the games it played (worst gated rate in points,
    worst gated mean relative to its baseline), and how (paired or unpaired); a sequential
    check that stopped before its most games (``most``) says so."""

    gated = [r for r in rows if r.headline and r.tested and r.detectable is not None]
    if not gated:
        return f"at {games} games no headline metric was tested"
    paired = sum(1 for r in gated if r.test and r.test.startswith(("mcnemar", "paired")))
    same = sum(1 for r in gated if r.test and r.test.startswith(("mcnemar", "paired")) and not _paired_power(r))
    parts = []
    rate, mean = worst_detectable(gated, shares=True)
    if rate is not None:
        parts.append(f"rate changes of {100 * rate.detectable:.2f} points (worst {rate.label})")
    if mean is not None:
        parts.append(f"mean changes of {100 * mean.detectable / abs(mean.a):.2f}% (worst {mean.label})")
    how = f"{paired} of {len(gated)} paired on the baseline's deals" if paired else "unpaired"
    if same:
        how += (f"; {same} with every game equal to the baseline's, for which the unpaired detectable "
                "change is stated" if same < paired else ", every game equal to the baseline's: the unpaired "
                "detectable change is stated")
    if most and games and most > int(games):
        games = f"{games} games (a sequential look; at most {most})"
    else:
        games = f"{games} games"
    return (f"at {games} this check detects {' and '.join(parts) or 'nothing'} with "
            f"{100 * checks.power:.0f}% power at α/{m} ({len(gated)} gated headline metrics, {how})")


def first_player_note(summary: dict) -> str | None:
    """The condition of ``first_player_advantage``: which policies sat where and whether the
    seats rotated; with fixed seats of different policies it says the figure mixes the seat
    and the policies. None for a game without the metric."""
    fpa = [r for r in summary.get("metrics", []) if r.get("metric") == "first_player_advantage"]
    if not fpa:
        return None
    if fpa[0].get("doc"):  # a game whose first player is not seat 0 says who it is
        return f"first_player_advantage: {fpa[0]['doc']}"
    seats = summary.get("seats") or []
    kinds = sorted(set(map(str, seats)))
    if summary.get("rotate_seats"):
        return (f"first_player_advantage: seat 0's win rate minus 1/{len(seats)}, seats rotated over "
                f"{', '.join(kinds)}: a seat effect (every policy sat first equally often)")
    if len(kinds) == 1:
        return (f"first_player_advantage: seat 0's win rate minus 1/{len(seats)}, fixed seats, every seat "
                f"plays {kinds[0]}: a seat effect")
    return f"first_player_advantage: {first_player_caveat(summary)}"


def first_player_caveat(summary: dict) -> str | None:
    """The caveat of ``first_player_advantage`` with fixed seats of different policies (it
    mixes the seat's effect with the policies'), for ``sim check``, ``sim run`` and the report;
    None when the seats rotate, every seat plays one policy, the game says who plays first
    (a ``doc``), or there is no such metric."""
    fpa = [r for r in summary.get("metrics", []) if r.get("metric") == "first_player_advantage"]
    seats = [str(s) for s in summary.get("seats") or []]
    if not fpa or fpa[0].get("doc") or summary.get("rotate_seats") or len(set(seats)) < 2:
        return None
    return (f"seat 0's win rate minus 1/{len(seats)} with fixed seats of different policies "
            f"({', '.join(seats)}): it mixes the seat's effect with the policies'; set rotate_seats = true to "
            "measure the seat alone")


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


def compare_summaries(a: dict, b: dict, a_label: str = "A", b_label: str = "B", alpha: float = 0.05,
                      power: float = 0.8, per_game_a: dict | None = None,
                      per_game_b: dict | None = None, unpaired_why: str = "") -> CompareReport:
    """Every metric of ``a`` and ``b`` with change, raw and Holm p-value and significance.

    ``crn`` is set when both ran the same seed and games count (the runner's common random
    numbers). Raises :class:`ConfigError` when the two runs are of different games.
    ``per_game_*``: per-game headline outcomes (:mod:`sim.check.paired`) of the sides; with
    the same seed the headline changes are tested paired (on the common game indices).
    When no metric could be paired a note starting "unpaired:" says why (``unpaired_why``:
    the caller's reason, e.g. a report folder without games.parquet).
    """
    if a.get("game") != b.get("game"):
        raise ConfigError(b_label, "game", f"{a_label} plays {a.get('game')!r}, {b_label} plays {b.get('game')!r}")
    rows = compare_records(a, b, alpha, power, per_game_a, per_game_b)
    for r in rows:
        if r.tested:
            r.verdict = "significant" if r.significant else "-"
        elif r.verdict == "missing":
            r.verdict, r.note = "only A", f"only in {a_label}"
        elif r.verdict == "new":
            r.verdict, r.note = "only B", f"only in {b_label}"
    same_seed = a.get("seed") is not None and a.get("seed") == b.get("seed")
    crn = same_seed and a.get("games") == b.get("games")
    rep = CompareReport(a_label, b_label, alpha, rows, _meta(a), _meta(b), crn)
    pr = [r for r in rows if r.test and r.test.startswith(("mcnemar", "paired"))]
    if crn:
        rep.notes.append(CRN_NOTE)
    if pr:
        m = min(a.get("games") or 0, b.get("games") or 0)
        rep.notes.append(f"{len(pr)} metric(s) tested paired per game index"
                         + ("" if crn else f" (the first {m} games of both)")
                         + " (column 'test'); the per-game correlation the pairing found is in column 'corr' "
                         "(0: pairing gains nothing)")
    elif not same_seed:
        rep.notes.append("unpaired: independent runs (different seeds): tests assume independence")
    else:
        rep.notes.append("unpaired: same seed, but per-game outcomes are missing on "
                         + ("both sides" if per_game_a is None and per_game_b is None else "one side")
                         + (f" ({unpaired_why})" if unpaired_why else "")
                         + ": tests assume independence (conservative under common random numbers)")
    return rep
