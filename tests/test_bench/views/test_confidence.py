"""The report's intervals and fitted cliffs, against textbook values and scipy."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from bench.stats import confidence
from bench.stats.confidence import (
    BELOW,
    BEYOND,
    WITHIN,
    bootstrap_interval,
    fit_cliff,
    rung_axis,
    seed_of,
    wilson_interval,
)
from bench.views.stats import build_report, cliffs, summarize


def test_wilson_textbook_values():
    low, high = wilson_interval(8, 10)
    assert (float(low), float(high)) == pytest.approx((0.4902, 0.9433), abs=1e-4)
    low, high = wilson_interval(0, 10)  # Brown, Cai and DasGupta: 0 of 10 -> [0, 0.278]
    assert float(low) == 0.0 and float(high) == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson_interval(10, 10)
    assert float(high) == 1.0 and float(low) == pytest.approx(0.7225, abs=1e-4)
    low, high = wilson_interval(np.array([8, 3]), np.array([10, 0]))
    assert low[0] == pytest.approx(0.4902, abs=1e-4) and np.isnan(low[1]) and np.isnan(high[1])


def test_wilson_agrees_with_scipy():
    for k, n in [(1, 7), (13, 40), (50, 50), (0, 3)]:
        ci = sps.binomtest(k, n).proportion_ci(0.95, method="wilson")
        low, high = wilson_interval(k, n)
        assert (float(low), float(high)) == pytest.approx((ci.low, ci.high), abs=1e-9)


def test_bootstrap_matches_scipy_and_is_deterministic():
    values = np.random.default_rng(3).lognormal(0, 1, size=40)
    ours = bootstrap_interval(values, "median", seed_of("x"))
    assert ours == bootstrap_interval(values, "median", seed_of("x"))  # same key, same interval
    assert bootstrap_interval(values, "mean", seed_of("x")) != \
        bootstrap_interval(values, "mean", seed_of("y"))  # another key, other resamples
    theirs = sps.bootstrap((values,), np.median, n_resamples=20000, method="percentile",
                           random_state=np.random.default_rng(1)).confidence_interval
    width = theirs.high - theirs.low
    assert ours[0] == pytest.approx(theirs.low, abs=0.15 * width)
    assert ours[1] == pytest.approx(theirs.high, abs=0.15 * width)
    assert bootstrap_interval(np.array([2.0]), "mean", 1) == (2.0, 2.0)
    assert all(np.isnan(bootstrap_interval(np.array([]), "mean", 1)))


@pytest.mark.parametrize("n", [3001, 3000])
def test_the_ideal_bootstrap_of_many_values_agrees_with_resampling(monkeypatch, n):
    values = np.random.default_rng(n).lognormal(0, 1, size=n)
    ideal = {s: bootstrap_interval(values, s, seed_of("x")) for s in ("median", "mean")}
    assert bootstrap_interval(values[::-1], "median", 5) == ideal["median"]  # no resamples
    monkeypatch.setattr(confidence, "IDEAL_FROM", 10**9)  # resample as for a small group
    for statistic, (low, high) in ideal.items():
        drawn = bootstrap_interval(values, statistic, seed_of("x"), resamples=4000)
        width = drawn[1] - drawn[0]
        assert low == pytest.approx(drawn[0], abs=0.1 * width), statistic
        assert high == pytest.approx(drawn[1], abs=0.1 * width), statistic
    assert ideal["median"][0] < np.median(values) < ideal["median"][1]


def _all_j_median_interval(x: np.ndarray) -> tuple[float, float]:
    """The ideal bootstrap's median interval as it was first computed: the binomial tail
    (``scipy.special.bdtrc``) at every j in 1..n, then ``searchsorted``."""
    from scipy.special import bdtrc

    n, tail = len(x), (1 - confidence.LEVEL) / 2
    j = np.arange(1, n + 1)
    bounds = []
    for k in sorted({(n + 1) // 2, n // 2 + 1}):
        at_most = bdtrc(k - 1, n, j / n)
        low = int(np.searchsorted(at_most, tail, side="left"))
        high = int(np.searchsorted(at_most, 1 - tail, side="left"))
        bounds.append((x[min(low, n - 1)], x[min(high, n - 1)]))
    return float(np.mean([b[0] for b in bounds])), float(np.mean([b[1] for b in bounds]))


def test_the_ideal_median_interval_is_the_all_j_search():
    """Bisection on j picks the same order statistics as the tail at every j did, for counts
    from IDEAL_FROM to 100,000, odd and even, on continuous values and on values with ties."""
    rng = np.random.default_rng(20)
    counts = [confidence.IDEAL_FROM, confidence.IDEAL_FROM + 1, 49158, 49159, 99999, 100000,
              *rng.integers(confidence.IDEAL_FROM, 100001, size=10)]
    for n in counts:
        for x in (rng.lognormal(0, 1, size=n), rng.integers(0, 5, size=n) * 0.25,
                  np.round(rng.exponential(1e-4, size=n), 6)):
            x = np.sort(x)
            assert bootstrap_interval(x, "median", 1) == _all_j_median_interval(x), n


def test_the_binomial_upper_tail_is_scipys():
    """``binomial_upper_tail`` (no SciPy) against ``scipy.special.bdtrc``, far tails and
    degenerate p and k included."""
    from scipy.special import bdtrc

    from bench.stats.confidence import binomial_upper_tail

    rng = np.random.default_rng(7)
    for n in (1, 2, 7, 40, 2000, 49158, 100000):
        for k in {0, 1, n // 3, (n + 1) // 2, n, n + 1}:
            for p in (0.0, 1.0, 1 / n, 0.5, 1 - 1 / n, *rng.random(5)):
                ours = binomial_upper_tail(k, n, p)
                theirs = 1.0 if k <= 0 else 0.0 if k > n else float(bdtrc(k - 1, n, p))
                assert ours == pytest.approx(theirs, rel=1e-8, abs=1e-30), (k, n, p)


def test_seed_of_does_not_depend_on_hash_randomisation():
    assert seed_of("t_median", "latin", "qwh", "10", 0, "sat") == \
        seed_of("t_median", "latin", "qwh", "10", 0, "sat")
    assert seed_of("a", "b") != seed_of("ab")


def test_logistic_crossing_recovers_a_known_crossing():
    x = np.arange(0.0, 11.0)
    n = np.full(11, 4000.0)
    k = np.round(n / (1 + np.exp(1.3 * (x - 6.3))))
    fit = fit_cliff(x, k, n, "rung", seed_of("known"))
    assert fit.where == WITHIN and fit.cliff == pytest.approx(6.3, abs=0.02)
    assert fit.low < 6.3 < fit.high and fit.high - fit.low < 0.2


def test_crossings_outside_the_ladder_and_separation():
    x, n = np.arange(5.0), np.full(5, 6.0)
    solved_all = fit_cliff(x, n, n, "rung", 1)
    assert (solved_all.where, solved_all.low_where, solved_all.high_where) == (BEYOND,) * 3
    assert np.isnan(solved_all.cliff)
    none = fit_cliff(x, np.zeros(5), n, "rung", 1)
    assert none.where == BELOW
    # solved on rungs 0-2, failed on 3-4: the data place the crossing only between 2 and 3
    split = fit_cliff(x, np.array([6, 6, 6, 0, 0.0]), n, "rung", 1)
    assert 2 <= split.cliff <= 3 and (split.low, split.high) == (2.0, 3.0)


def test_rung_axis():
    assert rung_axis(["4", "6", "8"], np.array([0, 1, 2])).name == "rung"
    assert not rung_axis(["4", "6", "8"], np.array([0, 1, 2])).falling
    assert rung_axis(["9x9", "16x16"], np.array([0, 1])).name == "rung_index"
    clues = rung_axis(["30", "26", "22"], np.array([0, 1, 2]))  # falling: fewer clues, harder
    assert clues.name == "rung" and clues.falling and list(clues.positions) == [30, 26, 22]
    assert rung_axis(["6", "8", "7"], np.array([0, 1, 2])).name == "rung_index"  # not monotone


def test_a_falling_ladder_is_fitted_on_its_values():
    """Clues 30..22 (harder as they fall): the same crossing as the negated rising ladder, in
    clue values, the interval's ends in numeric order, the side of the ladder kept."""
    x, n = np.array([30, 28, 26, 24, 22.0]), np.full(5, 6.0)
    k = np.array([6, 6, 4, 1, 0.0])
    falling = fit_cliff(x, k, n, "rung", 1, falling=True)
    rising = fit_cliff(-x, k, n, "rung", 1)
    assert falling.cliff == pytest.approx(-rising.cliff)
    assert (falling.low, falling.high) == pytest.approx((-rising.high, -rising.low))
    assert 24 < falling.low < falling.cliff < falling.high < 28
    easy = fit_cliff(x, np.array([6, 6, 6, 5, 4.0]), n, "rung", 1, falling=True)
    assert easy.where == BEYOND and easy.low_where == BEYOND and np.isnan(easy.low)


def ladder(seed: int = 0, drop: tuple[str, ...] = ()) -> pd.DataFrame:
    """Two configs on six rungs of ten seeds; the minimal columns, optional ones dropped."""
    rng = np.random.default_rng(seed)
    rows = []
    for config, cliff in (("a", 2.0), ("b", 3.5)):
        for r in range(6):
            for s in range(10):
                ok = rng.random() < 1 / (1 + np.exp(2 * (r - cliff)))
                rows.append({"family": "f", "ladder": "L", "rung": str(10 + 2 * r),
                             "rung_index": r, "instance_id": f"r{r}s{s}", "solver": config,
                             "seed": s, "repeat": 0, "status": "solved" if ok else "timeout",
                             "t_wall": float(rng.uniform(0.1, 1)) if ok else 5.5,
                             "budget_s": 5.0})
    return pd.DataFrame(rows).drop(columns=list(drop))


def test_the_report_carries_intervals_and_fitted_cliffs():
    df = ladder()
    s = summarize(df)
    assert ((s["solved_low"] <= s["solved"] / s["runs"])
            & (s["solved"] / s["runs"] <= s["solved_high"])).all()
    solved = s[s["solved"] > 1]
    assert ((solved["t_median_low"] <= solved["t_median"])
            & (solved["t_median"] <= solved["t_median_high"])).all()
    assert ((s["par2_low"] <= s["par2"]) & (s["par2"] <= s["par2_high"])).all()
    c = cliffs(df).set_index("config")
    assert c.loc["a", "fit_axis"] == "rung"  # rungs 10, 12, ...: fitted on their values
    assert 10 <= c.loc["a", "fit_cliff"] < c.loc["b", "fit_cliff"] <= 20
    assert c.loc["a", "fit_cliff_low"] <= c.loc["a", "fit_cliff"] <= c.loc["a", "fit_cliff_high"]


def test_a_falling_ladder_reports_its_cliff_in_clues():
    """The same outcomes with rung labels 30, 28, ... 20 (clues: fewer is harder) give the
    rising ladder's crossing mirrored, in clue values, its interval in numeric order."""
    rising, falling = ladder(), ladder()
    falling["rung"] = (30 - 2 * falling["rung_index"]).astype(str)
    up = cliffs(rising).set_index("config")
    down = cliffs(falling).set_index("config")
    assert (down["fit_axis"] == "rung").all()
    # rung r is 10 + 2r rising and 30 - 2r falling: a crossing at x rising is at 40 - x
    assert (down["fit_cliff"] + up["fit_cliff"]).to_numpy() == pytest.approx([40.0, 40.0])
    assert (down["fit_cliff_low"] + up["fit_cliff_high"]).to_numpy() == pytest.approx([40, 40])
    assert down.loc["a", "fit_cliff"] > down.loc["b", "fit_cliff"]  # b lasts longer
    assert (down["fit_cliff_low"] <= down["fit_cliff"]).all()


def test_same_table_same_intervals_whatever_the_row_order():
    df = ladder()
    one = build_report(df)
    two = build_report(df.sample(frac=1.0, random_state=5))
    pd.testing.assert_frame_equal(one.summary, two.summary)
    pd.testing.assert_frame_equal(one.cliffs, two.cliffs)


def test_old_sweeps_without_optional_columns():
    report = build_report(ladder(drop=("seed", "repeat", "budget_s")))
    s = report.summary  # no budget: PAR-2 and its interval NA where a run failed
    assert (s["par2_low"].isna() == s["par2"].isna()).all() and s["par2"].isna().any()
    assert report.summary["solved_low"].notna().all()
    assert report.cliffs["fit_cliff"].notna().all()
    assert set(confidence.FIT_COLUMNS) <= set(report.cliffs.columns)


def test_the_binomial_and_normal_functions_are_scipy_stats():
    """``binomial_cdf``/``binomial_sf`` (scipy.special's) give ``scipy.stats.binom``'s values,
    out of range k included; ``normal_quantile`` is ``norm.ppf``."""
    import numpy as np
    from scipy.stats import binom, norm

    from bench.stats.confidence import binomial_cdf, binomial_sf, normal_quantile

    for n in (0, 1, 2, 7, 40):
        k = np.arange(-2, n + 3)
        for p in (0.0, 0.5, 1.0, 0.3, np.linspace(0.0, 1.0, len(k))):
            assert np.allclose(binomial_cdf(k, n, p), binom.cdf(k, n, p), rtol=1e-12, atol=0)
            assert np.allclose(binomial_sf(k, n, p), binom.sf(k, n, p), rtol=1e-12, atol=0)
    for q in (0.975, 0.995, 0.5, 0.025, 1e-9):
        assert np.isclose(normal_quantile(q), norm.ppf(q), rtol=1e-15, atol=0)


def test_a_report_does_not_import_scipy_stats():
    """Everything a run's summary and the report use but the Wilcoxon test goes without
    ``scipy.stats``, which is slow to import, and a small rung's intervals without SciPy at
    all: a fresh interpreter shows what is loaded."""
    import subprocess
    import sys

    code = ("import sys, bench.views.report, bench.views.stats, bench.views.paired, "
            "bench.stats.confidence as c; c.wilson_interval(3, 10); "
            "c.bootstrap_interval(list(range(50)), 'mean', 1); "
            "assert 'scipy' not in sys.modules, 'scipy imported'; "
            "c.bootstrap_interval(list(range(5000)), 'median', 1); "
            "assert 'scipy.stats' not in sys.modules, 'scipy.stats imported'")
    subprocess.run([sys.executable, "-c", code], check=True)
