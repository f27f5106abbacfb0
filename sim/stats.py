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


# --- changes between two runs, paired (same deals) or not -----------------------------------


def ratio_influence(num, den) -> tuple[float, np.ndarray]:
    """The ratio estimator ``r = sum(num) / sum(den)`` over games and its per-game
    linearisation ``u_g = (num_g - r den_g) / mean(den)`` (delta method): ``var(r) ≈
    var(u) / n``. ``num``, ``den``: float arrays [games] (den = 1 for a per-game value).
    Returns (r, u); r is NaN and u zeros when ``sum(den) == 0``."""
    x = np.asarray(num, dtype=float)
    t = np.asarray(den, dtype=float)
    tot = t.sum()
    if tot <= 0:
        return float("nan"), np.zeros_like(x)
    r = float(x.sum() / tot)
    return r, (x - r * t) / t.mean()


def _is_binary(x: np.ndarray) -> bool:
    return bool(np.all((x == 0) | (x == 1)))


def paired_change(a_num, a_den, b_num, b_den, alpha: float = 0.05) -> dict:
    """The change ``r_b - r_a`` of a per-game ratio measured on the SAME games (same seed and
    game indices on both sides), with its paired test and ``1 - alpha`` interval.

    Inputs: float arrays [games], game g of ``a`` and of ``b`` at the same position. The test:

    * ``mcnemar``: a yes/no outcome per game (den = 1, num in {0, 1}): statsmodels
      ``mcnemar`` on the 2x2 table of the two sides (exact binomial when fewer than 25
      discordant games, else the chi-square without continuity correction); interval: the
      paired Wald interval of the difference of proportions.
    * ``paired t``: a value per game (den = 1): scipy ``ttest_rel``; t interval.
    * ``paired ratio``: a share of summed counts (den varies, e.g. turns under a weather /
      turns): delta-method z on the per-game differences of the linearised ratios
      (:func:`ratio_influence`).

    Returns ``{"change", "se", "ci_low", "ci_high", "p_value", "corr", "test", "n"}``; corr is
    the per-game correlation of the two sides (NaN when one side is constant). Raises
    ValueError for arrays of different lengths or fewer than 2 games.
    """
    from scipy import stats as st

    an, ad, bn, bd = (np.asarray(v, dtype=float) for v in (a_num, a_den, b_num, b_den))
    n = an.size
    if not (ad.size == bn.size == bd.size == n) or n < 2:
        raise ValueError(f"paired arrays need the same length >= 2, got {an.size}, {ad.size}, {bn.size}, {bd.size}")
    ra, ua = ratio_influence(an, ad)
    rb, ub = ratio_influence(bn, bd)
    d = ub - ua
    change = rb - ra
    se = float(d.std(ddof=1) / np.sqrt(n))
    with np.errstate(invalid="ignore", divide="ignore"):
        corr = float(np.corrcoef(ua, ub)[0, 1]) if ua.std() > 0 and ub.std() > 0 else float("nan")
    z = st.norm.ppf(1 - alpha / 2)
    unit = bool(np.all(ad == 1) and np.all(bd == 1))
    if unit and _is_binary(an) and _is_binary(bn):
        from statsmodels.stats.contingency_tables import mcnemar

        b01 = int(((an == 0) & (bn == 1)).sum())
        b10 = int(((an == 1) & (bn == 0)).sum())
        b11 = int(((an == 1) & (bn == 1)).sum())
        b00 = n - b01 - b10 - b11
        disc = b01 + b10
        p = 1.0 if disc == 0 else float(mcnemar([[b00, b10], [b01, b11]], exact=disc < 25, correction=False).pvalue)
        test = "mcnemar"
    elif unit:
        test = "paired t"
        if se == 0:
            p = 1.0 if change == 0 else 0.0
        else:
            p = float(st.ttest_rel(bn, an).pvalue)
            z = st.t.ppf(1 - alpha / 2, n - 1)
    else:
        test = "paired ratio"
        p = (1.0 if change == 0 else 0.0) if se == 0 else float(2 * st.norm.sf(abs(change) / se))
    return {"change": float(change), "se": se, "ci_low": float(change - z * se), "ci_high": float(change + z * se),
            "p_value": p, "corr": corr, "test": test, "n": int(n)}


def unpaired_change(value_a: float, se_a: float, value_b: float, se_b: float, alpha: float = 0.05) -> dict:
    """The change ``b - a`` of two independent estimates with standard errors ``se_*``:
    normal (Wald) z-test and ``1 - alpha`` interval. Used for shares of summed counts (the
    ratio estimator's delta-method se, :func:`sim.metrics.ratio`) and, with the binomial or
    sample se, for rates and means of independent runs. Returns
    ``{"change", "se", "ci_low", "ci_high", "p_value", "test"}``."""
    from scipy.stats import norm

    change = float(value_b - value_a)
    se = float(np.hypot(se_a, se_b))
    z = norm.ppf(1 - alpha / 2)
    p = (1.0 if change == 0 else 0.0) if se == 0 else float(2 * norm.sf(abs(change) / se))
    return {"change": change, "se": se, "ci_low": change - z * se, "ci_high": change + z * se, "p_value": p,
            "test": "unpaired z"}


def two_proportion_interval(x_a: int, n_a: int, x_b: int, n_b: int, alpha: float = 0.05) -> tuple[float, float]:
    """Newcombe (hybrid Wilson score) ``1 - alpha`` interval of ``x_b/n_b - x_a/n_a`` for two
    independent proportions (statsmodels ``confint_proportions_2indep``, method "newcomb")."""
    from statsmodels.stats.proportion import confint_proportions_2indep

    lo, hi = confint_proportions_2indep(x_b, n_b, x_a, n_a, method="newcomb", compare="diff", alpha=alpha)
    return float(lo), float(hi)


def welch_interval(mean_a: float, sd_a: float, n_a: int, mean_b: float, sd_b: float, n_b: int,
                   alpha: float = 0.05) -> tuple[float, float]:
    """Normal ``1 - alpha`` interval of ``mean_b - mean_a`` for independent runs
    (``z·sqrt(sd_a²/n_a + sd_b²/n_b)``; the games counts make the t quantile the normal one)."""
    from scipy.stats import norm

    half = norm.ppf(1 - alpha / 2) * float(np.sqrt(sd_a**2 / n_a + sd_b**2 / n_b))
    d = mean_b - mean_a
    return float(d - half), float(d + half)


def sprt_llr(change: float, se: float, delta: float) -> float:
    """Log-likelihood ratio of H1: |change| = ``delta`` against H0: change = 0 for a normal
    estimate ``change`` with standard error ``se`` (the two-sided SPRT of a change, folded on
    |change|): ``(|change| delta - delta²/2) / se²``. +inf / -inf when se is 0."""
    if se <= 0:
        return float("inf") if abs(change) >= delta / 2 and change != 0 else float("-inf")
    return (abs(change) * delta - delta * delta / 2) / (se * se)


def sprt_bounds(alpha: float, power: float) -> tuple[float, float]:
    """Wald's SPRT bounds (lower, upper) on the log-likelihood ratio for false-alarm rate
    ``alpha`` and ``power``: accept H0 below ``log((1-power)/(1-alpha))``, H1 above
    ``log(power/alpha)``."""
    return float(np.log((1 - power) / (1 - alpha))), float(np.log(power / alpha))
