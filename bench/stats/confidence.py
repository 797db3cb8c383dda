"""Intervals for the report: solved fractions, medians, PAR-2, and the fitted cliff of a config.

Contract: every function here takes numbers computed from the results table alone (counts,
times, PAR-2 terms) and returns plain numbers; nothing reads a journal, a clock or global random
state, so the same table always gives the same intervals. All intervals are two-sided at
:data:`LEVEL` (95%).

- :func:`wilson_interval` -- the Wilson score interval of a binomial proportion k/n
  (Wilson, JASA 1927): the set of p that a two-sided score test at 5% would not reject. It
  stays inside [0, 1] and is sensible at k = 0 and k = n, where the textbook Wald interval
  collapses. 8 of 10 gives 0.490..0.943.
- :func:`bootstrap_interval` -- the percentile bootstrap interval of a statistic (the median of
  successful wall times, the mean of PAR-2 terms): :data:`RESAMPLES` resamples with
  replacement, the 2.5th and 97.5th percentiles of the statistic over them. The generator is a
  ``numpy.random.Generator`` seeded by :func:`seed_of` the group's key (SHA-256 of its text),
  so an interval depends on its group's values and key and on nothing else -- not on the
  order the groups are computed in, not on another group. From :data:`IDEAL_FROM` values on
  (a throughput block's rung holds tens of thousands of runs, where drawing 1000 resamples of
  them costs seconds) no resample is drawn: the interval is the *ideal* bootstrap's, the limit
  of infinitely many resamples, read off the bootstrap distribution itself. For the median the
  resample's k-th order statistic is at most x_(j) exactly when at least k of the n draws fall
  on x_(1..j), so P(X*_(k) <= x_(j)) = P(Binomial(n, j/n) >= k) and the percentile bounds are
  order statistics found from that binomial tail (Efron, *The Jackknife, the Bootstrap and
  Other Resampling Plans*, 1982, ch. 10); the tail rises with j, so each bound is the first j
  where it reaches its level, found by bisection on j with the tail summed for one p at a
  time (:func:`binomial_upper_tail`, no SciPy). An even count's median, the mean of its two
  middle order statistics, takes the mean of their two bounds. For the mean the bootstrap
  distribution is the plug-in mean with standard deviation sd/sqrt(n) (sd with divisor n), and
  at these counts it is normal (central limit theorem): mean -+ z sd/sqrt(n).
- :func:`fit_cliff` -- the cliff as a point on the ladder with an interval. The solved
  fraction per rung is fitted against the rung's position (its numeric value where every rung
  label is a number increasing, or decreasing, with rung_index, else rung_index:
  :func:`rung_axis`) by a logistic curve monotone decreasing the way the ladder climbs,
  p(x) = 1 / (1 + exp(-(a + b x))) with b <= 0 (x negated on a falling ladder), fitted by
  maximum likelihood on the per-rung counts (Newton's method, vectorised over resamples; a
  small ridge penalty :data:`RIDGE` on b keeps the slope finite when the rungs separate
  perfectly, solved below and failed above, where the plain maximum likelihood slope is
  infinite; b is fitted on positions scaled to [0, 1]). The cliff is the 50% crossing
  x = -a / b. Its interval: resample the runs within each rung (with replacement, the rung's
  run count kept, which is a binomial draw of the rung's successes at its observed fraction),
  refit, and take the percentile interval of the crossings. Where the rungs separate perfectly
  (every rung solved on all or none of its runs) resampling cannot move the crossing, and the
  data place it only somewhere between the last solved rung and the first failed one: the
  interval is widened to that gap. A fit whose best slope is not
  negative is flat (b = 0): its crossing is below the first rung when the pooled fraction is
  under one half, beyond the last otherwise. A crossing before the first rung's position
  reads "below the first rung", one past the last "beyond the last rung": the ladder says
  nothing about where, only that.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

#: Two-sided confidence level of every interval.
LEVEL = 0.95
#: Bootstrap resamples per interval.
RESAMPLES = 1000
#: From this many values on, the ideal bootstrap's interval (no resamples drawn).
IDEAL_FROM = 2000
#: Ridge penalty on the logistic slope (positions scaled to [0, 1]); small, so it matters only
#: where the data separate perfectly.
RIDGE = 0.05
#: Newton iterations of the logistic fit (it converges in far fewer; the rest are no-ops).
NEWTON_STEPS = 60
#: Where a fitted crossing lies relative to the ladder.
WITHIN, BELOW, BEYOND = "within", "below the first rung", "beyond the last rung"
#: The fitted cliff's columns in the report's cliffs table (:meth:`FittedCliff.columns`).
FIT_COLUMNS = ("fit_axis", "fit_cliff", "fit_cliff_low", "fit_cliff_high", "fit_where",
               "fit_low_where", "fit_high_where")
#: Those of them that hold positions (the rest are text).
FIT_NUMBERS = ("fit_cliff", "fit_cliff_low", "fit_cliff_high")


def seed_of(*key: object) -> int:
    """A 64-bit seed from a group's key: the same key always gives the same stream, whatever
    Python's hash randomisation (SHA-256 of the key's text, not ``hash``)."""
    text = "\x1f".join(str(k) for k in key)
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "little")


def binomial_cdf(k: Any, n: Any, p: Any) -> np.ndarray:
    """P(X <= k) for X ~ Binomial(n, p), elementwise: ``scipy.stats.binom.cdf``'s values (0
    for k below 0, 1 from k = n on), computed as it computes them, by ``scipy.special.bdtr``
    (``scipy.stats`` itself is slow to import, and every command that reports would pay it)."""
    from scipy.special import bdtr

    k, n = np.asarray(k, dtype=float), np.asarray(n).astype(np.int64)
    return np.where(k < 0, 0.0, np.where(k >= n, 1.0, bdtr(np.clip(k, 0, n), n, p)))


def binomial_sf(k: Any, n: Any, p: Any) -> np.ndarray:
    """P(X > k) for X ~ Binomial(n, p), elementwise: ``scipy.stats.binom.sf``'s values, by
    ``scipy.special.bdtrc`` (as :func:`binomial_cdf`)."""
    from scipy.special import bdtrc

    k, n = np.asarray(k, dtype=float), np.asarray(n).astype(np.int64)
    return np.where(k < 0, 1.0, np.where(k >= n, 0.0, bdtrc(np.clip(k, 0, n), n, p)))


def normal_quantile(q: float) -> float:
    """The standard normal distribution's ``q`` quantile, by the standard library
    (``statistics.NormalDist``: Wichura's AS 241, to a unit in the last place of
    ``scipy.stats.norm.ppf``), so that a report of small rungs imports no SciPy at all."""
    from statistics import NormalDist

    return NormalDist().inv_cdf(q)


def wilson_interval(successes: np.ndarray | float, trials: np.ndarray | float,
                    level: float = LEVEL) -> tuple[np.ndarray, np.ndarray]:
    """The Wilson score interval (low, high) of ``successes`` of ``trials``, elementwise;
    NaN where there are no trials."""
    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    z = normal_quantile(0.5 + level / 2)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z / (1 + z * z / n) * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
        low = np.where(n > 0, np.clip(centre - half, 0.0, 1.0), np.nan)
        high = np.where(n > 0, np.clip(centre + half, 0.0, 1.0), np.nan)
    # at k = 0 (k = n) the bound is exactly 0 (1); rounding must not move it
    low = np.where((k == 0) & (n > 0), 0.0, low)
    high = np.where((k == n) & (n > 0), 1.0, high)
    return low, high


def bootstrap_interval(values: np.ndarray, statistic: str, seed: int,
                       resamples: int = RESAMPLES, level: float = LEVEL) -> tuple[float, float]:
    """The percentile bootstrap interval of ``statistic`` ("median" or "mean") of ``values``,
    from ``resamples`` resamples drawn by ``numpy.random.default_rng(seed)``; NaN for no
    values, the value itself for one."""
    x = np.sort(np.asarray(values, dtype=float))  # sorted: the rows' order cannot matter
    if len(x) == 0:
        return float("nan"), float("nan")
    if len(x) == 1 or np.all(x == x[0]):
        return float(x[0]), float(x[0])
    if len(x) >= IDEAL_FROM:
        return _ideal_bootstrap_interval(x, statistic, level)
    rng = np.random.default_rng(seed)
    draws = x[rng.integers(0, len(x), size=(resamples, len(x)))]
    stats = np.median(draws, axis=1) if statistic == "median" else draws.mean(axis=1)
    tail = 100 * (1 - level) / 2
    low, high = np.percentile(stats, [tail, 100 - tail])
    return float(low), float(high)


def _ideal_bootstrap_interval(x: np.ndarray, statistic: str, level: float
                              ) -> tuple[float, float]:
    """The percentile interval of the bootstrap distribution itself (no resampling) of the
    median or the mean of the sorted values ``x`` (see the module's contract)."""
    n, tail = len(x), (1 - level) / 2
    if statistic == "mean":
        half = float(normal_quantile(1 - tail) * x.std() / np.sqrt(n))
        centre = float(x.mean())
        return centre - half, centre + half
    bounds = []
    for k in sorted({(n + 1) // 2, n // 2 + 1}):     # the middle order statistic(s)
        low, high = (_first_reaching(level, k, n) for level in (tail, 1 - tail))
        bounds.append((x[low - 1], x[high - 1]))
    return float(np.mean([b[0] for b in bounds])), float(np.mean([b[1] for b in bounds]))


def _first_reaching(level: float, k: int, n: int) -> int:
    """The smallest j in 1..n with P(X*_(k) <= x_(j)) = P(Binomial(n, j/n) >= k) >= ``level``
    (0 < level <= 1), by bisection on j: the tail rises with j and is 1 at j = n, so only the
    crossing is looked for, never the whole curve."""
    below, reaching = 0, n  # the tail at ``below`` (0 taken as no mass) is under the level
    while reaching - below > 1:
        middle = (below + reaching) // 2
        if binomial_upper_tail(k, n, middle / n) >= level:
            reaching = middle
        else:
            below = middle
    return reaching


#: Binomial terms under exp(-TERM_CUTOFF) times the largest are left out of
#: :func:`binomial_upper_tail`'s sums.
TERM_CUTOFF = 80.0


def binomial_upper_tail(k: int, n: int, p: float) -> float:
    """P(X >= k) for X ~ Binomial(n, p), one ``p`` at a time, without SciPy.

    The terms P(X = i) are summed over a window about the mode m = floor((n + 1) p), relative
    to P(X = m): their logarithms are cumulative sums of the log ratios
    log(P(X = i + 1) / P(X = i)) = log((n - i) / (i + 1)) + log(p / (1 - p)), so no factorial
    is formed. The window starts at about 13 standard deviations either side (where a normal
    shape is down to exp(-80)) and is doubled until each end is 0 or n or holds a term under
    exp(-:data:`TERM_CUTOFF`) times the mode's; the pmf is log-concave, so it falls off faster
    still beyond. The tail is the window's terms from k on over all its terms: two sums of
    positive numbers, with no cancellation, so the only error is the rounding of the summed
    log ratios, far below the step of the tail from one j / n to the next that
    :func:`_first_reaching` resolves. A tail under about exp(-:data:`TERM_CUTOFF`) reads 0, one
    that close to 1 reads 1.
    """
    if k > n or (k > 0 and p <= 0.0):
        return 0.0
    if k <= 0 or p >= 1.0:
        return 1.0
    mode = min(n, int((n + 1) * p))
    width = int(13 * math.sqrt(n * p * (1 - p))) + 40
    log_odds = math.log(p) - math.log1p(-p)
    while True:
        first, last = max(0, mode - width), min(n, mode + width)
        i = np.arange(first, last, dtype=float)
        logs = np.concatenate(([0.0], np.cumsum(np.log((n - i) / (i + 1)) + log_odds)))
        logs -= logs[mode - first]
        if (first == 0 or logs[0] < -TERM_CUTOFF) and (last == n or logs[-1] < -TERM_CUTOFF):
            break
        width *= 2
    terms = np.exp(logs)
    return float(terms[max(k - first, 0):].sum() / terms.sum())


# --------------------------------------------------------------------------------------------
# The fitted cliff


class RungAxis(NamedTuple):
    """What a ladder's rungs are fitted on: ``name`` ("rung": the labels' values, or
    "rung_index"), each rung's ``positions`` there, and whether the values ``fall`` as the
    ladder climbs (clues: fewer is harder)."""

    name: str
    positions: np.ndarray
    falling: bool = False


def rung_axis(labels: list[str], rung_index: np.ndarray) -> RungAxis:
    """The positions a ladder's rungs are fitted at: the label values when every label is a
    number and they strictly increase, or strictly decrease (``falling``), with rung_index;
    else rung_index itself."""
    order = np.argsort(np.asarray(rung_index, dtype=float), kind="stable")
    try:
        values = np.array([float(label) for label in labels])
    except (TypeError, ValueError):
        values = None
    if values is not None and np.all(np.isfinite(values)):
        steps = np.diff(values[order])
        if len(values) < 2 or np.all(steps > 0):
            return RungAxis("rung", values)
        if np.all(steps < 0):
            return RungAxis("rung", values, falling=True)
    return RungAxis("rung_index", np.asarray(rung_index, dtype=float))


def _logistic_crossings(x: np.ndarray, k: np.ndarray, n: np.ndarray) -> np.ndarray:
    """The 50% crossing of the monotone decreasing logistic fit, per row of ``k``.

    ``x``: rung positions scaled to [0, 1], shape (R,); ``k``: successes, shape (B, R);
    ``n``: runs per rung, shape (R,). Returns shape (B,), in scaled positions; -inf / +inf for
    a flat fit whose fraction is under / at least one half.
    """
    b_count = k.shape[0]
    a = np.zeros(b_count)
    b = np.zeros(b_count)
    for _ in range(NEWTON_STEPS):
        p = 1.0 / (1.0 + np.exp(-(a[:, None] + b[:, None] * x)))
        resid = k - n * p                          # d loglik / d eta per rung
        w = n * p * (1 - p)
        g_a = resid.sum(axis=1)
        g_b = (resid * x).sum(axis=1) - RIDGE * b
        h_aa = w.sum(axis=1) + 1e-9
        h_ab = (w * x).sum(axis=1)
        h_bb = (w * x * x).sum(axis=1) + RIDGE
        det = h_aa * h_bb - h_ab * h_ab
        step_a = (h_bb * g_a - h_ab * g_b) / det
        step_b = (h_aa * g_b - h_ab * g_a) / det
        longest = np.maximum(np.abs(step_a), np.abs(step_b))
        scale = np.minimum(1.0, 10.0 / np.maximum(longest, 1e-300))  # damped
        a += scale * step_a
        b += scale * step_b
        if np.max(np.abs(scale * step_a) + np.abs(scale * step_b)) < 1e-10:
            break
    pooled = k.sum(axis=1) / n.sum()
    flat = b >= -1e-9   # the constrained fit (b <= 0) is flat when the free one rises
    with np.errstate(divide="ignore", invalid="ignore"):
        crossing = np.where(flat, np.where(pooled < 0.5, -np.inf, np.inf), -a / b)
    return crossing


@dataclass(frozen=True)
class FittedCliff:
    """The fitted 50% crossing of one config on one ladder and its bootstrap interval.

    ``axis``: what positions mean ("rung": the rung labels' values; "rung_index");
    ``cliff``, ``low``, ``high``: positions on that axis, NaN where the value lies outside the
    ladder (``where``, ``low_where``, ``high_where`` then say on which side: :data:`BELOW` or
    :data:`BEYOND`; :data:`WITHIN` otherwise).
    """

    axis: str
    cliff: float
    low: float
    high: float
    where: str
    low_where: str
    high_where: str

    def columns(self) -> dict[str, object]:
        """As the report's cliff columns (:data:`FIT_COLUMNS`), NaN positions as NA."""
        def number(x: float) -> object:
            return x if np.isfinite(x) else None
        values = (self.axis, number(self.cliff), number(self.low), number(self.high),
                  self.where, self.low_where, self.high_where)
        return dict(zip(FIT_COLUMNS, values, strict=True))


def _place(value: float, first: float, last: float) -> tuple[float, str]:
    """A crossing as (position, where): NaN and the side when it lies outside [first, last]."""
    if value < first:
        return float("nan"), BELOW
    if value > last:
        return float("nan"), BEYOND
    return float(value), WITHIN


def _separation_gap(x: np.ndarray, k: np.ndarray, n: np.ndarray) -> tuple[float, float] | None:
    """(last fully solved rung, first fully failed rung) when every rung is solved on all or
    none of its runs, the solved ones all below the failed ones; None otherwise."""
    order = np.argsort(x, kind="stable")
    x, k, n = x[order], k[order], n[order]
    full, empty = k == n, k == 0
    if not np.all(full | empty) or not full.any() or not empty.any():
        return None
    last_full, first_empty = np.flatnonzero(full)[-1], np.flatnonzero(empty)[0]
    return (float(x[last_full]), float(x[first_empty])) if last_full < first_empty else None


def fit_cliff(positions: np.ndarray, solved: np.ndarray, runs: np.ndarray, axis: str,
              seed: int, resamples: int = RESAMPLES, level: float = LEVEL,
              falling: bool = False) -> FittedCliff:
    """The fitted cliff of one config on one ladder (see the module docstring): ``positions``
    of its rungs on ``axis``, ``solved`` and ``runs`` per rung; bootstrap drawn from
    ``numpy.random.default_rng(seed)``. ``falling``: the positions fall as the ladder climbs;
    the curve is then fitted on the negated positions (decreasing in the ladder's direction)
    and the answer given back in the positions' own values: ``low`` <= ``high`` as numbers,
    ``where`` still saying which end of the ladder (first rung / last rung) a value lies past.
    """
    if falling:
        fit = fit_cliff(-np.asarray(positions, dtype=float), solved, runs, axis, seed,
                        resamples, level)
        return FittedCliff(axis, -fit.cliff, -fit.high, -fit.low, fit.where, fit.high_where,
                           fit.low_where)
    x = np.asarray(positions, dtype=float)
    k = np.asarray(solved, dtype=float)
    n = np.asarray(runs, dtype=float)
    keep = n > 0
    x, k, n = x[keep], k[keep], n[keep]
    first, last = float(x.min()), float(x.max())
    span = last - first if last > first else 1.0
    scaled = (x - first) / span
    point = _logistic_crossings(scaled, k[None, :], n)[0] * span + first
    rng = np.random.default_rng(seed)
    draws = rng.binomial(n.astype(np.int64), k / n, size=(resamples, len(n))).astype(float)
    crossings = _logistic_crossings(scaled, draws, n) * span + first
    tail = 100 * (1 - level) / 2
    bounds = np.percentile(np.clip(crossings, first - 10 * span, last + 10 * span),
                           [tail, 100 - tail], method="linear")
    gap = _separation_gap(x, k, n)
    if gap is not None:  # resampling 0/n and n/n rungs cannot move the crossing: the data
        bounds = [min(bounds[0], gap[0]), max(bounds[1], gap[1])]  # place it only in the gap
    cliff, where = _place(point, first, last)
    low, low_where = _place(float(bounds[0]), first, last)
    high, high_where = _place(float(bounds[1]), first, last)
    return FittedCliff(axis, cliff, low, high, where, low_where, high_where)
