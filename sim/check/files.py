r"""Files of balance regression: the ``summary.json`` and baseline schemas, reading them
(with every record checked for being well formed) and making a baseline from a run.

A summary (and a baseline, which adds the keys of :data:`BASELINE_FORMAT`) looks like::

    {"game", "title", "run", "mode", "seed", "games", "config_hash", "rules_version",
     "seats": [labels],
     "metrics": [{"metric", "by", "value", "ci_low", "ci_high", "n", "kind", "sd"?}, ...]}

Every metric record must carry the keys ``metric, by, value, ci_low, ci_high, n, kind``
(``null`` where a number does not exist, e.g. the interval of a quantile), and is
**malformed** (the file is rejected, :class:`sim.errors.ConfigError` naming the file and the
metric, exit code 2 in the CLI) when:

* a number is not finite (NaN, ``Infinity``): strict JSON has ``null`` for "no number";
* its ``value`` is ``null`` although it counts ``n > 0`` trials (nothing to compare);
* only one end of its interval is given, or ``ci_low > ci_high``;
* its ``value`` lies outside its own interval ``[ci_low, ci_high]``;
* it is a count or a mean of counts (kind ``count``, or ``mean`` with a non-negative value)
  whose ``ci_low`` is below 0;
* a number is out of range: any number beyond ±\ :data:`MAX_ABS`, a rate (kind
  ``proportion``, ``share``, ``p_value``) or its interval outside [0, 1], an ``n`` that is not
  a whole number in 0 .. 2**63-1;
* it contradicts itself: a rate with a value although it counts ``n = 0`` trials, a
  ``by`` that is not a table, or a seat index the file's ``seats`` do not have.

A file is also refused when it holds no metrics, or its ``games`` (1 .. 2**63-1) or
``seed`` (0 .. 2**63-1) is out of range; a JSON file nested deeper than
:data:`sim.config.MAX_DEPTH` is not read.

Record identity (:func:`metric_key`, :func:`metric_label`) lives in :mod:`sim.records`.
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import os
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from sim.errors import ConfigError
from sim.records import metric_key, metric_label

BASELINE_FORMAT = "sim-baseline/1"
MAX_JSON_BYTES = 200_000_000
"""Largest baseline / summary file read (bytes)."""
MAX_ABS = 1e15
"""Largest magnitude of a number in a metric record (beyond it, changes overflow)."""
RATE_KINDS_01 = ("proportion", "share", "p_value")
"""Kinds whose value and interval lie in [0, 1]."""
REQUIRED_KEYS = ("metric", "by", "value", "ci_low", "ci_high", "n", "kind")


class MetricRecord(BaseModel):
    """One metric record as stored in summary.json / a baseline (extra keys kept)."""

    model_config = ConfigDict(extra="allow")

    metric: str
    by: dict[str, Any] = Field(default_factory=dict)
    value: float | None
    ci_low: float | None = None
    ci_high: float | None = None
    n: int | None = Field(None, ge=0, le=2**63 - 1)
    kind: str
    sd: float | None = Field(None, ge=0)


class _SummaryFile(BaseModel):
    model_config = ConfigDict(extra="allow")

    game: str
    run: str = ""
    seed: int | None = Field(None, ge=0, le=2**63 - 1)
    games: int | None = Field(None, gt=0, le=2**63 - 1)
    config_hash: str | None = None
    rules_version: str | None = None
    seats: list[str | int] | None = None
    metrics: list[MetricRecord]


class _BaselineFile(_SummaryFile):
    format: Literal["sim-baseline/1"]
    run: str
    seed: int = Field(ge=0, le=2**63 - 1)
    games: int = Field(gt=0, le=2**63 - 1)
    config_hash: str
    package_version: str | None = None
    git_revision: str | None = None
    created: str | None = None


def _read_json(path: Path, what: str) -> Any:
    try:
        is_file = path.is_file()
        is_dir = not is_file and path.is_dir()
    except OSError as e:  # a name too long, a path through a file ...
        raise ConfigError(str(path), "", f"cannot read: {e.strerror or e}") from None
    if not is_file:
        hint = " (a folder)" if is_dir else ""
        if what == "baseline" and not is_dir and not os.path.lexists(path):
            hint = "; record one with `sim baseline CONFIG`"
        raise ConfigError(str(path), "", f"no such {what} file{hint}")
    from sim.config import MAX_DEPTH

    try:
        if path.stat().st_size > MAX_JSON_BYTES:
            raise ConfigError(str(path), "", f"larger than {MAX_JSON_BYTES // 1_000_000} MB: not a {what} file")
        data = json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as e:
        raise ConfigError(str(path), "", f"not UTF-8 text: {e}") from None
    except json.JSONDecodeError as e:
        raise ConfigError(str(path), "", f"not valid JSON: {e}") from None
    except RecursionError:
        raise ConfigError(str(path), "", f"nested more than {MAX_DEPTH} levels deep") from None
    except OSError as e:
        raise ConfigError(str(path), "", f"cannot read: {e.strerror or e}") from None
    if _depth(data) > MAX_DEPTH:
        raise ConfigError(str(path), "", f"nested more than {MAX_DEPTH} levels deep")
    return data


def _depth(x: Any, d: int = 0) -> int:
    if d > 64:
        return d
    if isinstance(x, dict):
        return max((_depth(v, d + 1) for v in x.values()), default=d + 1)
    if isinstance(x, list):
        return max((_depth(v, d + 1) for v in x), default=d + 1)
    return d


def record_problem(rec: dict) -> str | None:
    """Why metric record ``rec`` is malformed (see the module docstring), or None when it is
    well formed. ``rec`` is a plain dict as read from JSON."""
    if not isinstance(rec, dict):
        return "not a JSON object"
    missing = [k for k in REQUIRED_KEYS if k not in rec]
    if missing:
        return f"missing key(s) {', '.join(missing)}"
    for k in ("value", "ci_low", "ci_high", "sd"):
        x = rec.get(k)
        if x is None:
            continue
        if isinstance(x, bool) or not isinstance(x, int | float):
            return f"{k} is not a number"
        if isinstance(x, float) and not math.isfinite(x):
            return f"{k} is {x} (not a finite number; write null for no number)"
        if abs(x) > MAX_ABS:
            return f"{k} {x:g} is out of range (beyond ±{MAX_ABS:g})"
    v, lo, hi, n = rec["value"], rec["ci_low"], rec["ci_high"], rec["n"]
    if n is not None and (isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 2**63 - 1):
        return "n is not a whole number in 0 .. 2**63-1"
    if not isinstance(rec["by"], dict):
        return "by is not a table"
    if rec["kind"] in RATE_KINDS_01:
        for k, x in (("value", v), ("ci_low", lo), ("ci_high", hi)):
            if x is not None and not 0 <= x <= 1:
                return f"{k} {x!r} of a {rec['kind']} is outside [0, 1]"
        if rec["kind"] != "p_value" and n == 0 and v is not None:
            return f"a {rec['kind']} of 0 trials has a value ({v!r})"
    if v is None:
        return f"value is null although n = {n}" if n else None
    if (lo is None) != (hi is None):
        return f"only one end of the interval is given (ci_low {lo}, ci_high {hi})"
    if lo is None:
        return None
    if lo > hi:
        return f"ci_low {lo!r} is above ci_high {hi!r}"
    if not lo <= v <= hi:
        return f"value {v!r} is outside its own interval [{lo!r}, {hi!r}]"
    if lo < 0 and (rec["kind"] == "count" or (rec["kind"] == "mean" and v >= 0)):
        return f"ci_low {lo!r} is below 0 for a count (value {v!r})"
    return None


def check_records(records: list[dict], path: str | Path) -> None:
    """Raise :class:`ConfigError` (file ``path``, key ``metrics.<i>``, the metric's label and
    the reason) for the first malformed record, or for a metric listed twice."""
    from sim.config import cut

    if not records:
        raise ConfigError(str(path), "metrics", "no metrics (an empty list): nothing to compare")
    seen: set[tuple[str, str]] = set()
    for i, r in enumerate(records):
        if not isinstance(r, dict):
            raise ConfigError(str(path), f"metrics.{i}", "malformed record: not a JSON object")
        label = cut(metric_label(str(r.get("metric", "?")), r.get("by") if isinstance(r.get("by"), dict) else None),
                    80)
        problem = record_problem(r)
        if problem:
            raise ConfigError(str(path), f"metrics.{i}", f"malformed record {label}: {problem}")
        k = metric_key(r)
        if k in seen:
            raise ConfigError(str(path), f"metrics.{i}", f"duplicate metric {label}")
        seen.add(k)


def _validate(data: Any, model: type[BaseModel], path: Path) -> dict:
    if not isinstance(data, dict):
        raise ConfigError(str(path), "", f"expected a JSON object, got {type(data).__name__}")
    if model is _BaselineFile and data.get("format") != BASELINE_FORMAT:
        from sim.config import excerpt

        raise ConfigError(str(path), "format", f"expected {BASELINE_FORMAT!r}, got {excerpt(data.get('format'))}")
    from sim.config import cut

    try:
        model.model_validate(data)
    except ValidationError as e:
        err = e.errors()[0]
        key = cut(".".join(str(p) for p in err["loc"]), 80)
        raise ConfigError(str(path), key, cut(err["msg"], 200)) from None
    # the records as written (pydantic would fill absent keys with None and hide them)
    check_records(data["metrics"], path)
    seats = data.get("seats")
    if isinstance(seats, list):
        for i, r in enumerate(data["metrics"]):
            s = r["by"].get("seat")
            if s is not None and (isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < len(seats)):
                raise ConfigError(str(path), f"metrics.{i}",
                                  f"record {cut(metric_label(r['metric'], r['by']), 80)} names seat {cut(repr(s), 20)} "
                                  f"but the file has {len(seats)} seats")
    out = dict(data)
    out["metrics"] = [dict(r) for r in data["metrics"]]
    out["_path"] = str(path)
    return out


def load_baseline(path: str | Path) -> dict:
    """Read and validate a baseline file; raises :class:`ConfigError` (missing, not JSON,
    not an object, wrong ``format``, missing/mistyped keys, malformed or duplicate metric
    records). The dict returned carries ``_path`` (the file read)."""
    path = Path(path)
    return _validate(_read_json(path, "baseline"), _BaselineFile, path)


def load_summary(path: str | Path) -> dict:
    """Read and validate a ``summary.json`` (or a report folder holding one); raises
    :class:`ConfigError` as :func:`load_baseline` does."""
    path = Path(path)
    if path.is_dir():
        path = path / "summary.json"
    return _validate(_read_json(path, "summary"), _SummaryFile, path)


def make_baseline(summary: dict, manifest: dict | None = None, created: str | None = None) -> dict:
    """A baseline dict (format ``sim-baseline/1``) from a run's summary and manifest.

    Keys: format, game, run, config_hash, seed, games, rules_version (the game's
    ``GameDef.version``), package_version, git_revision, created (ISO 8601 UTC), plus title,
    mode, seats and the metric records as in the summary; ``policy_files`` (name, path,
    sha256 of each user policy file, docs/policies.md) when the run had user policies.
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
        "rules_version": summary.get("rules_version", manifest.get("rules_version")),
        "seats": summary.get("seats"),
        "package_version": versions.get("sim", sim.__version__) if isinstance(versions, dict) else sim.__version__,
        "git_revision": manifest.get("git_revision"),
        "created": created or _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat(),
        "metrics": [dict(r) for r in summary["metrics"]],
        **({"policy_files": manifest["policy_files"]} if manifest.get("policy_files") else {}),
    }
