"""Identity of a metric record (the ``summary.json`` shape ``{"metric", "by", ...}``).

A metric is identified by its name and the canonical JSON of its ``by`` grouping, and is
labelled ``name[key=value,...]``. Imported by :mod:`sim.config` (balance targets) and
:mod:`sim.check` (comparisons); it imports nothing of ``sim`` so neither depends on the other.
"""

from __future__ import annotations

import json
from typing import Any


def closest_names(name: str, names, n: int = 3, cutoff: float = 0.5, same_prefix: bool = True) -> list[str]:
    """Up to ``n`` names of ``names`` closest to ``name`` (difflib, similarity at least
    ``cutoff``), for "did you mean"; with ``same_prefix``, when none is that close, the names
    sharing ``name``'s first ``_`` word (``stall`` of ``stall_rat``)."""
    import difflib

    names = sorted(names)
    close = difflib.get_close_matches(name, names, n=n, cutoff=cutoff)
    if not close and same_prefix:
        close = [x for x in names if x.split("_")[0] == name.split("_")[0]][:n]
    return close


def metric_key(rec: dict) -> tuple[str, str]:
    """Identity of a metric record: (name, canonical JSON of ``by``, key order ignored)."""
    return rec["metric"], json.dumps(rec.get("by") or {}, sort_keys=True, default=str)


def metric_label(metric: str, by: dict | None) -> str:
    """Human label: ``win_rate[seat=0]``, ``rank_share[seat=1,rank=2]``, ``stall_rate``."""
    if not by:
        return metric
    return f"{metric}[{','.join(f'{k}={v}' for k, v in by.items())}]"


def same_value(a: Any, b: Any) -> bool:
    """True when two ``by`` values name the same group (``0`` and ``"0"`` do: TOML targets
    and JSON records may spell a seat either way)."""
    return a == b or str(a) == str(b)
