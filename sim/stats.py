"""Interval estimates and tests used by metrics, reports and `sim check`.

Proportions get Wilson score intervals (statsmodels), means get normal-theory intervals.
"""

from __future__ import annotations

import numpy as np

Z95 = 1.959963984540054


def wilson(successes, n, alpha: float = 0.05) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for ``successes`` out of ``n`` (scalars or arrays of ints).

    Returns (low, high) as float arrays in [0, 1]; where n == 0 both are NaN.
    """
    from statsmodels.stats.proportion import proportion_confint

    s = np.asarray(successes, dtype=float)
    m = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        lo, hi = proportion_confint(s, np.where(m > 0, m, 1), alpha=alpha, method="wilson")
    lo = np.where(m > 0, lo, np.nan)
    hi = np.where(m > 0, hi, np.nan)
    return lo, hi


def mean_interval(mean: float, sd: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Normal interval ``mean ± z·sd/√n``; (nan, nan) when n < 2."""
    if n < 2:
        return float("nan"), float("nan")
    half = z * sd / np.sqrt(n)
    return float(mean - half), float(mean + half)
