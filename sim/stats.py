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


# --- comparison of two runs (``sim check`` / ``sim compare``) ---------------------------------


def two_proportion_test(x_a: int, n_a: int, x_b: int, n_b: int) -> tuple[float, float]:
    """Two-sided two-proportion z-test (pooled variance, statsmodels ``proportions_ztest``) of
    H0: the two runs have the same rate.

    ``x_*`` successes out of ``n_*`` trials (ints, n > 0). Returns ``(z, p)`` with z signed as
    rate_b - rate_a. When the pooled rate is 0 or 1 (both runs all-failure or all-success) the
    test is undefined and ``(0.0, 1.0)`` is returned. Raises ValueError when a count is
    negative, a total is 0 or successes exceed trials.
    """
    from statsmodels.stats.proportion import proportions_ztest

    if min(n_a, n_b) <= 0 or min(x_a, x_b) < 0 or x_a > n_a or x_b > n_b:
        raise ValueError(f"bad counts: {x_a}/{n_a} vs {x_b}/{n_b}")
    pooled = (x_a + x_b) / (n_a + n_b)
    if pooled <= 0.0 or pooled >= 1.0:
        return 0.0, 1.0
    z, p = proportions_ztest([x_b, x_a], [n_b, n_a], alternative="two-sided")
    return float(z), float(p)


def mean_difference_test(
    mean_a: float, sd_a: float, n_a: int, mean_b: float, sd_b: float, n_b: int
) -> tuple[float, float]:
    """Two-sided Welch t-test of H0: equal means, from summary statistics
    (scipy ``ttest_ind_from_stats``, ``equal_var=False``). With the game counts of a
    simulation it is the normal z-test of a difference of means.

    ``sd_*`` are sample standard deviations of one game's value, ``n_*`` game counts (>= 2).
    Returns ``(t, p)`` with t signed as mean_b - mean_a. When both sds are 0 the test is
    degenerate: ``(0, 1)`` for equal means, ``(±inf, 0)`` otherwise. Raises ValueError for
    n < 2 or a negative sd.
    """
    from scipy.stats import ttest_ind_from_stats

    if min(n_a, n_b) < 2 or min(sd_a, sd_b) < 0:
        raise ValueError(f"bad summary statistics: sd {sd_a}, {sd_b}; n {n_a}, {n_b}")
    if sd_a == 0 and sd_b == 0:
        if mean_a == mean_b:
            return 0.0, 1.0
        return float(np.sign(mean_b - mean_a) * np.inf), 0.0
    t, p = ttest_ind_from_stats(mean_b, sd_b, n_b, mean_a, sd_a, n_a, equal_var=False)
    return float(t), float(p)


def paired_difference(b: int, c: int, n: int) -> tuple[float, float, float, float]:
    """Difference of two success rates measured on the same ``n`` trials (two policies in the
    same seat of the same deals: common random numbers), from the discordant counts: ``b``
    trials only A succeeded, ``c`` only B.

    Returns ``(d, low, high, p)``: ``d = (b - c) / n`` (rate of A minus rate of B, a fraction),
    its 95 % Wald interval for paired proportions (``se = sqrt(b + c - (b - c)^2 / n) / n``,
    clipped to [-1, 1]) and the two-sided exact McNemar p-value (binomial test of ``b`` out of
    ``b + c`` at 1/2; 1.0 when no trial is discordant). Pairing removes the variance the two
    rates share through the deals, so the test is sharper than a two-sample test. Raises
    ValueError for negative counts or ``b + c > n``.
    """
    from scipy.stats import binomtest

    if min(b, c) < 0 or n <= 0 or b + c > n:
        raise ValueError(f"bad paired counts: b={b}, c={c}, n={n}")
    d = (b - c) / n
    se = float(np.sqrt(max(b + c - (b - c) ** 2 / n, 0.0))) / n
    p = 1.0 if b + c == 0 else float(binomtest(int(b), int(b + c), 0.5).pvalue)
    return float(d), max(-1.0, d - Z95 * se), min(1.0, d + Z95 * se), min(1.0, p)


def holm(pvalues, alpha: float = 0.05) -> tuple[np.ndarray, np.ndarray]:
    """Holm step-down correction (statsmodels ``multipletests(method="holm")``).

    ``pvalues``: 1-D array-like of raw p-values (NaN allowed: left out of the family, never
    rejected, adjusted p NaN). Returns ``(reject, p_adjusted)``: bool and float arrays of the
    same length; ``reject`` controls the familywise error rate at ``alpha`` under any
    dependence between the tests.
    """
    from statsmodels.stats.multitest import multipletests

    p = np.asarray(pvalues, dtype=float).ravel()
    reject = np.zeros(p.shape, dtype=bool)
    adj = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    if ok.any():
        r, a, _, _ = multipletests(p[ok], alpha=alpha, method="holm")
        reject[ok] = r
        adj[ok] = a
    return reject, adj


_Z_SUM: dict[tuple[float, float], float] = {}


def _z_sum(alpha: float, power: float) -> float:
    """z_{1-alpha/2} + z_{power} (cached: scipy's ppf costs ~0.2 ms a call)."""
    key = (float(alpha), float(power))
    if key not in _Z_SUM:
        from scipy.stats import norm

        if not (0 < alpha < 1 and 0 < power < 1):
            raise ValueError(f"alpha and power must be in (0, 1), got {alpha}, {power}")
        _Z_SUM[key] = float(norm.ppf(1 - alpha / 2) + norm.ppf(power))
    return _Z_SUM[key]


def min_detectable_change(p: float, n_a: int, n_b: int, alpha: float = 0.05, power: float = 0.8) -> float:
    """Smallest absolute change of a rate that a two-sided two-proportion test at level
    ``alpha`` detects with probability ``power``, when the first run has ``n_a`` trials and
    the second ``n_b``:

        Δ = (z_{1-α/2} + z_{power}) · sqrt(p̃ (1 - p̃) (1/n_a + 1/n_b))

    (normal approximation, variance at the baseline rate). ``p`` is the baseline rate in
    [0, 1]; p̃ clips it to [1/n, 1 - 1/n] with n = min(n_a, n_b), so a rate never seen (0) still
    gets a finite, honest answer (about 4/n) rather than 0. Returns a rate difference
    (0.01 = one percentage point); ``inf`` when a count is 0. With ``m`` metrics under Holm
    correction, pass ``alpha / m`` for the change a lone moved metric needs.
    """
    n = min(n_a, n_b)
    if n <= 0:
        return float("inf")
    q = min(max(float(p), 1.0 / n), 1.0 - 1.0 / n) if n > 1 else 0.5
    return _z_sum(alpha, power) * float(np.sqrt(q * (1 - q) * (1.0 / n_a + 1.0 / n_b)))


def min_detectable_mean_change(
    sd_a: float, n_a: int, sd_b: float, n_b: int, alpha: float = 0.05, power: float = 0.8
) -> float:
    """Smallest absolute change of a mean that a two-sided test of means at ``alpha`` detects
    with probability ``power``: ``(z_{1-α/2} + z_{power}) · sqrt(sd_a²/n_a + sd_b²/n_b)``
    (same units as the mean; ``inf`` when a count is 0)."""
    if min(n_a, n_b) <= 0:
        return float("inf")
    return _z_sum(alpha, power) * float(np.sqrt(sd_a**2 / n_a + sd_b**2 / n_b))


def games_for_change(p: float, change: float, alpha: float = 0.05, power: float = 0.8) -> int:
    """Trials per run (both runs the same size) for :func:`min_detectable_change` to reach
    ``change``: ``n = 2 p̃(1-p̃) (z_{1-α/2} + z_{power})² / change²``, rounded up, with
    p̃ = p clipped to [change, 1 - change] so a zero rate still needs a finite count.
    Raises ValueError unless 0 < change < 1."""
    if not 0 < change < 1:
        raise ValueError(f"change must be in (0, 1), got {change}")
    q = min(max(float(p), change), 1 - change)
    return int(np.ceil(2 * q * (1 - q) * _z_sum(alpha, power) ** 2 / change**2))
