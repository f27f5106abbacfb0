"""Balance regression: baselines, metric-by-metric comparison of two runs, balance targets
(``sim baseline`` / ``sim check`` / ``sim compare``, :mod:`sim.cli_regress`).

* :mod:`sim.check.files`: the summary and baseline file schemas, loading them (malformed
  records rejected), :func:`make_baseline`;
* :mod:`sim.check.stats`: the per-metric tests, :func:`compare_records`, minimum detectable
  change;
* :mod:`sim.check.gate`: tolerances, targets and the verdict (:func:`check_summary`,
  :func:`compare_summaries`);
* :mod:`sim.check.render`: JSON, JUnit and rich tables.

Record identity is :mod:`sim.records`, strict JSON writing :mod:`sim.jsonio`, number
formatting :mod:`sim.report.format`. Importing this package loads pydantic and numpy only;
scipy, statsmodels and rich load inside the functions that use them.
"""

from __future__ import annotations

from sim.check.files import (
    BASELINE_FORMAT,
    MetricRecord,
    check_records,
    load_baseline,
    load_summary,
    make_baseline,
    record_problem,
)
from sim.check.gate import (
    CRN_NOTE,
    IDENTICAL_MESSAGE,
    PREDATES_RULES_NOTE,
    CheckReport,
    CompareReport,
    TargetRow,
    check_summary,
    checks_of,
    compare_summaries,
    evaluate_targets,
    tolerance_for,
)
from sim.check.render import (
    CHECK_FORMAT,
    COMPARE_FORMAT,
    check_to_json,
    check_to_junit,
    compare_to_json,
    render_check,
    render_compare,
)
from sim.check.stats import RATE_KINDS, MetricRow, compare_records, is_rate
from sim.config import CheckConfig, Target
from sim.jsonio import write_json
from sim.records import metric_key, metric_label, same_value
from sim.stats import min_detectable_change

__all__ = [
    "BASELINE_FORMAT", "CHECK_FORMAT", "COMPARE_FORMAT", "CRN_NOTE", "IDENTICAL_MESSAGE", "PREDATES_RULES_NOTE",
    "RATE_KINDS", "CheckConfig", "CheckReport", "CompareReport", "MetricRecord", "MetricRow", "Target",
    "TargetRow", "check_records", "check_summary", "check_to_json", "check_to_junit", "checks_of",
    "compare_records", "compare_summaries", "compare_to_json", "evaluate_targets", "is_rate", "load_baseline",
    "load_summary", "make_baseline", "metric_key", "metric_label", "min_detectable_change", "record_problem",
    "render_check", "render_compare", "same_value", "tolerance_for", "write_json",
]
