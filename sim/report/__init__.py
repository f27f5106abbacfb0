"""Reports of a run.

* :func:`write_report` (``sim.report.writer``) writes ``reports/<run>/``: report.md and
  report.html, summary.json, games.parquet, config.toml, manifest.json, plots/*.png.
* ``sim.report.compare_plots.compare_plots`` overlays two runs (for ``sim compare``).
* ``sim.report.format`` formats metric records (``fmt_interval``...) for the CLI too.

Importing this package is cheap: polars, matplotlib and markdown are imported inside the
functions that need them.
"""

from __future__ import annotations

from sim.report.writer import write_report

__all__ = ["write_report"]
