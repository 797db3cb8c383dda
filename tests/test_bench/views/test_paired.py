"""Paired comparisons: the sign test, Wilcoxon, Holm, verdicts and the pairs needed."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from bench.views.paired import WHOLE_LADDER, holm, pairs_needed, sign_test_p
from bench.views.stats import build_report, paired


def test_sign_test_agrees_with_binomtest():
    for w, v in [(0, 13), (7, 3), (10, 10), (1, 0), (30, 12)]:
        assert float(sign_test_p(np.array([w]), np.array([v]))[0]) == pytest.approx(
            sps.binomtest(w, w + v, 0.5).pvalue, rel=1e-12)
    assert np.isnan(sign_test_p(np.array([0]), np.array([0]))[0])


def test_holm_textbook_example():
    # Holm (1979) as in most textbooks: p = 0.01, 0.04, 0.03, 0.005 with m = 4
    adjusted = holm(np.array([0.01, 0.04, 0.03, 0.005]))
    assert adjusted == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm(np.array([0.5, np.nan]))[0] == 0.5 and np.isnan(holm(np.array([np.nan]))[0])
    assert (holm(np.array([0.9, 0.8])) <= 1).all()


def test_pairs_needed_is_the_first_n_that_reaches_significance():
    # 7 wins of 10: 9 of 13 (p=0.27), ...; at f=0.7 the exact test first reaches p<0.05 at n
    n = pairs_needed(7, 3, 0)
    k = round(0.7 * n)
    assert sps.binomtest(k, int(n)).pvalue < 0.05
    assert all(sps.binomtest(round(0.7 * m), m).pvalue >= 0.05 for m in range(1, int(n)))
    assert pairs_needed(7, 3, 10) == np.ceil(n * 2)  # half the pairs tie: twice as many
    assert np.isnan(pairs_needed(5, 5, 0))


def frame(a_times: list[float | None], b_times: list[float | None]) -> pd.DataFrame:
    """Configs a and b on the same instances of one rung (None: a timeout)."""
    rows = []
    for config, times in (("a", a_times), ("b", b_times)):
        for i, t in enumerate(times):
            rows.append({"family": "f", "ladder": "L", "rung": "1", "rung_index": 0,
                         "instance_id": f"i{i}", "solver": config, "seed": i, "repeat": 0,
                         "status": "timeout" if t is None else "solved",
                         "t_wall": 10.2 if t is None else t, "budget_s": 10.0})
    return pd.DataFrame(rows)


def test_a_clear_winner_is_named_with_its_adjusted_p():
    df = frame([0.1] * 12, [1.0] * 10 + [None, None])
    table = paired(df)
    assert list(table["rung"]) == [WHOLE_LADDER]  # one rung: only the ladder row
    row = table.iloc[0]
    assert (row["wins_a"], row["ties"], row["wins_b"]) == (12, 0, 0)
    assert row["sign_p"] == pytest.approx(sps.binomtest(12, 12).pvalue)
    diffs = np.array([0.1 - 1.0] * 10 + [0.1 - 20.0] * 2)
    # tied sizes: the normal approximation with tie correction (paired.EXACT_WILCOXON)
    assert row["wilcoxon_p"] == pytest.approx(sps.wilcoxon(diffs, method="approx").pvalue)
    distinct = frame([0.1 * i for i in range(1, 9)], [1.0 + 0.37 * i for i in range(1, 9)])
    exact = paired(distinct).iloc[0]["wilcoxon_p"]
    assert exact == pytest.approx(sps.wilcoxon(-(0.9 + 0.27 * np.arange(1, 9)),
                                               method="exact").pvalue)
    assert row["verdict"].startswith("a beats b on the whole ladder (p=")
    assert "Holm-adjusted" in row["verdict"] and pd.isna(row["needed_pairs"])


def test_ties_and_an_undecided_comparison():
    # both fail on 3 (ties), equal within the tolerance on 2, a wins 3, b wins 1
    a = [None, None, None, 1.0, 2.0, 0.1, 0.1, 0.1, 5.0]
    b = [None, None, None, 1.005, 2.01, 1.0, 1.0, 1.0, 0.5]
    row = paired(frame(a, b)).iloc[0]
    assert (row["wins_a"], row["ties"], row["wins_b"]) == (3, 5, 1)
    assert row["verdict"] == "not distinguishable with these seeds"
    assert row["needed_pairs"] >= 9


def test_holm_runs_over_every_comparison_of_the_report():
    df = frame([0.1] * 6, [1.0] * 6)
    extra = frame([0.1] * 6, [1.0] * 6).assign(ladder="M")
    table = build_report(pd.concat([df, extra], ignore_index=True)).paired
    assert len(table) == 2
    assert table["sign_p_holm"].to_numpy(float) == pytest.approx(
        2 * table["sign_p"].to_numpy(float))


def test_no_shared_instances_no_comparison():
    df = frame([0.1], [0.2]).assign(instance_id=["x", "y"])
    assert paired(df).empty
    assert build_report(df.drop(columns=["seed", "repeat"])).paired.empty
