"""The tail index of a run-time distribution (bench/views/tails.py), on samples whose tail is
known: Pareto samples of index 0.8 and 1.5 give back their index; an exponential tail is not
heavy; failures (censored at the budget) make a tail heavier, never lighter; too few points give
no fit; the report's run-time distribution section."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from bench.views.report import render
from bench.views.stats import build_report
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


def _runs(solver: str, times: np.ndarray, budget: float) -> pd.DataFrame:
    ok = times <= budget
    return pd.DataFrame({
        "family": "latin", "ladder": "qwh-30", "rung": "0.42", "rung_index": 3,
        "solver": solver, "status": np.where(ok, "solved", "timeout"),
        "t_wall": np.where(ok, times, budget + 1.0), "budget_s": budget,
        "instance_id": [f"i{k}" for k in range(len(times))], "seed": 1, "repeat": 0})


def test_the_report_has_a_run_time_distribution_section_with_each_tail():
    heavy = pareto(0.7, 40, seed=5) * 0.01
    light = np.random.default_rng(9).exponential(0.01, 40) + 0.01
    table = pd.concat([_runs("native", heavy, budget=10.0), _runs("sat", light, budget=10.0),
                       _runs("xcc", light[:10], budget=10.0)], ignore_index=True)
    report = build_report(table, "tails")
    tails = report.tails.set_index("config")
    assert list(tails.index) == ["native", "sat"]  # xcc made too few runs for a tail
    assert tails.loc["native", "verdict"].startswith("heavy")
    assert tails.loc["sat", "verdict"] == "not heavy"
    text = render(report, "markdown")
    assert "## Run-time distributions" in text and "Gomes et al." in text
    assert json.loads(render(report, "json"))["tails"][0]["config"] == "native"


def test_the_html_page_folds_each_ladders_tails_and_names_its_single_witnesses():
    from bench.views.html import Figures, build_page, render_page

    heavy = pareto(0.7, 40, seed=5) * 0.01
    light = np.random.default_rng(9).exponential(0.01, 40) + 0.01
    table = pd.concat([_runs("native", heavy, budget=10.0), _runs("sat", light, budget=10.0)],
                      ignore_index=True)
    table["paradigm"] = np.where(table["solver"] == "native", "native", "sat")
    table["backend"] = np.where(table["solver"] == "native", "numba-0.68", "pysat-1.9")
    text = render_page(build_page(table, "tails", {"jobs": 1}, Figures(note="no figures")))
    assert "Run-time tails (1 heavy of 2)" in text
    assert "sat is one config (sat, pysat-1.9)" in text
