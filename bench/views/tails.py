"""Heavy tails of run-time distributions: the slope of the survival function's tail.

Gomes, Selman, Crato and Kautz (JAR 2000) showed that backtracking searches on quasigroup
completion have *heavy* run-time tails: on log-log axes the survival function P(T > t) falls as a
straight line, P(T > t) ~ C t^-alpha, instead of bending down as an exponential tail does. With
alpha < 1 the mean run time is infinite (a longer budget only adds longer runs); with
alpha < 2 the variance is; either way restarts pay. So the tail index alpha is the number to
read off a rung's survival figure (bench/views/fig_survival.py).

:func:`tail_fit` estimates it from one config's runs on one rung, the way the figure shows them:

- the empirical survival function at each distinct solved value x, S(x) = (#{solved runs above
  x} + failures) / runs, a failure (any status but success) counted as unsolved at every x (it
  is censored at the budget, so it can only make the tail heavier, never lighter);
- the tail is where S(x) <= ``TAIL_FROM`` (the slower half of the runs) and S(x) > 0;
- alpha is minus the least-squares slope of log S against log x over the tail's points, and
  ``r2`` says how straight that line is. Fewer than ``MIN_POINTS`` tail points give no fit.

The verdict names the class: ``heavy (alpha < 1: infinite mean)``, ``heavy (alpha < 2: infinite
variance)``, or ``not heavy`` (alpha >= 2; an exponential tail's points, read on log-log axes,
give a steep slope that grows with the range). A fit is a description of the runs observed, not
a test: the rung needs many runs (``fig_survival.MIN_RUNS``) for the tail to hold enough points.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

TAIL_FROM = 0.5
MIN_POINTS = 5


@dataclass(frozen=True)
class TailFit:
    """The tail's fitted line: alpha (minus its slope on log-log axes), its r^2, the number of
    points it was fitted on, and the range of x they span."""

    alpha: float
    r2: float
    points: int
    x_from: float
    x_to: float

    @property
    def verdict(self) -> str:
        if self.alpha < 1:
            return "heavy (alpha < 1: infinite mean)"
        if self.alpha < 2:
            return "heavy (alpha < 2: infinite variance)"
        return "not heavy"


def survival_at_solved(solved: np.ndarray, runs: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct solved values and S(x) at each: the fraction of all ``runs`` still unsolved
    after x (failures count as unsolved)."""
    values = np.sort(np.asarray(solved, dtype=float))
    values = values[np.isfinite(values) & (values > 0)]
    distinct, counts = np.unique(values, return_counts=True)
    return distinct, (runs - np.cumsum(counts)) / runs  # the failures stay in the numerator


def tail_fit(solved: np.ndarray, runs: int) -> TailFit | None:
    """The tail index of one config's runs (``solved``: the values of its successes; ``runs``:
    all its runs, failures included), or None when the tail has fewer than MIN_POINTS points."""
    if runs <= 0:
        return None
    x, survival = survival_at_solved(solved, runs)
    tail = (survival <= TAIL_FROM) & (survival > 0)
    if tail.sum() < MIN_POINTS:
        return None
    log_x, log_s = np.log(x[tail]), np.log(survival[tail])
    slope, intercept = np.polyfit(log_x, log_s, 1)
    residual = log_s - (slope * log_x + intercept)
    spread = float(((log_s - log_s.mean()) ** 2).sum())
    r2 = 1.0 - float((residual ** 2).sum()) / spread if spread > 0 else 1.0
    return TailFit(alpha=float(-slope), r2=r2, points=int(tail.sum()),
                   x_from=float(x[tail][0]), x_to=float(x[tail][-1]))


#: A (rung, config) gets a tail row (and a survival figure) when it made this many runs, skipped
#: runs not counted: fewer cannot show a tail.
MIN_RUNS = 20
TAIL_COLUMNS = ["family", "ladder", "rung", "rung_index", "config", "runs", "solved",
                "median_s", "alpha", "r2", "points", "verdict"]


def tail_table(data: pd.DataFrame) -> pd.DataFrame:
    """Per (family, ladder, rung, config) with at least MIN_RUNS runs of a frame normalised by
    ``bench.views.stats.normalize``: its runs, successes, median solved time and the tail fit of
    its wall times (NA, and verdict "too few slow solved runs to fit", where there is none)."""
    rows = []
    used = data[["family", "ladder", "rung", "config", "rung_index", "t_wall", "_ok"]]
    ran = used[data["status"] != "skipped"]
    for keys, group in ran.groupby(["family", "ladder", "rung", "config"], sort=False,
                                   dropna=False):
        if len(group) < MIN_RUNS:
            continue
        times = group["t_wall"].astype("Float64").to_numpy(dtype=float, na_value=np.nan)
        solved = times[group["_ok"].to_numpy(bool) & np.isfinite(times)]
        fit = tail_fit(solved, len(group))
        rows.append([*keys[:3], group["rung_index"].iloc[0], keys[3], len(group), len(solved),
                     float(np.median(solved)) if len(solved) else np.nan,
                     fit.alpha if fit else np.nan, fit.r2 if fit else np.nan,
                     fit.points if fit else 0,
                     fit.verdict if fit else "too few slow solved runs to fit"])
    table = pd.DataFrame(rows, columns=TAIL_COLUMNS)
    return table.sort_values(["family", "ladder", "rung_index", "config"], kind="stable",
                             na_position="last").reset_index(drop=True)
