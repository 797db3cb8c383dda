"""The tail index of a run-time distribution (bench/views/tails.py), on samples whose tail is
known: Pareto samples of index 0.8 and 1.5 give back their index; an exponential tail is not
heavy; failures (censored at the budget) make a tail heavier, never lighter; too few points give
no fit."""

from __future__ import annotations

import numpy as np
import pytest

from bench.views.tails import MIN_POINTS, survival_at_solved, tail_fit


def pareto(alpha: float, n: int, seed: int) -> np.ndarray:
    """n samples with P(T > t) = t^-alpha for t >= 1 (inverse transform)."""
    return np.random.default_rng(seed).random(n) ** (-1.0 / alpha)


@pytest.mark.parametrize("alpha", [0.8, 1.5])
def test_a_pareto_sample_gives_back_its_index(alpha):
    fit = tail_fit(pareto(alpha, 4000, seed=7), 4000)
    assert fit is not None and fit.alpha == pytest.approx(alpha, rel=0.12)
    assert fit.r2 > 0.97
    assert fit.verdict.startswith("heavy")
    assert ("infinite mean" in fit.verdict) == (alpha < 1)


def test_an_exponential_tail_is_not_heavy():
    times = np.random.default_rng(3).exponential(1.0, 4000) + 1.0
    fit = tail_fit(times, 4000)
    assert fit is not None and fit.alpha > 2 and fit.verdict == "not heavy"


def test_the_survival_counts_failures_as_unsolved():
    x, s = survival_at_solved(np.array([1.0, 2.0, 2.0, 4.0]), runs=5)
    assert list(x) == [1.0, 2.0, 4.0]
    assert list(s) == pytest.approx([0.8, 0.4, 0.2])


def test_failures_make_the_tail_heavier():
    times = pareto(1.5, 2000, seed=11)
    budget = np.quantile(times, 0.9)
    solved = times[times <= budget]
    censored = tail_fit(solved, len(times))
    as_if_none_failed = tail_fit(solved, len(solved))
    assert censored.alpha < as_if_none_failed.alpha


def test_too_few_points_in_the_tail_give_no_fit():
    assert tail_fit(np.arange(1.0, 2 * MIN_POINTS - 1), 2 * MIN_POINTS - 2) is None
    assert tail_fit(np.array([]), 10) is None
    assert tail_fit(np.array([1.0]), 0) is None
