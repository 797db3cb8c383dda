"""Paired comparisons: two configs run on the same instances, compared instance by instance.

Contract: :func:`compare` takes the normalised results frame (``bench.views.stats.normalize``)
and returns one row per comparison (:data:`PAIRED_COLUMNS`); it reads nothing else, draws no
random numbers, and tolerates missing optional columns (``repeat``/``seed`` NA pair as equal).

The algorithm:

1. Each run's PAR-2 term: ``t_wall`` for a success, ``2 * budget_s`` for a failure (skipped
   included), the report's convention. Runs without an ``instance_id`` or a term are left out.
2. Two runs are a *pair* when they are of two configs of the same (family, ladder) on the same
   instance with the same ``repeat`` and ``seed``. Only configs within one (family, ladder) are
   compared, each unordered pair of configs once (``config_a`` < ``config_b`` by name), per
   rung and over the whole ladder (rung :data:`WHOLE_LADDER`; a ladder of one rung gets only
   that row), so the number of comparisons stays that of the report's tables.
3. A pair is a *tie* when both runs failed or their terms are within :data:`TIE_SECONDS` or
   :data:`TIE_RELATIVE` of the larger; otherwise it is a win for the smaller term.
4. The sign test: under "neither config is better", each untied pair is a win for A with
   probability 1/2; the two-sided exact binomial p-value of the wins of A among the untied
   pairs (``scipy.stats.binomtest``'s). The Wilcoxon signed-rank test (``scipy.stats.
   wilcoxon``, two-sided, exact for small samples) on the paired differences of terms, ties
   set to zero and dropped (exact up to :data:`EXACT_WILCOXON` differences of distinct sizes,
   else the normal approximation with tie correction), uses the sizes of the differences
   too; a failure's term is an
   artificial 2 x budget, so the sign test is the one the verdict rests on.
5. Holm's step-down correction (Holm, Scand. J. Statist. 1979) over all the comparisons of the
   report, separately for each test: the i-th smallest of m p-values is multiplied by
   m - i + 1, and the adjusted values are made non-decreasing (capped at 1). It controls the
   chance of any false "beats" among all the comparisons at 5%, whatever their dependence.
6. The verdict: "A beats B" where the sign test's Holm-adjusted p < :data:`ALPHA`, else "not
   distinguishable with these seeds" and ``needed_pairs``: the paired instances the
   observed effect would need, :func:`pairs_needed` (the smallest number n of untied pairs
   with the observed win fraction whose exact sign test reaches p < 0.05 / m, m the number of
   comparisons of the report -- the Bonferroni bound, Holm's strictest step, so the verdict
   would hold whatever the comparison's rank -- scaled up by the observed share of ties). NA
   where no effect was observed (as many wins as losses).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd

from bench.stats.confidence import binomial_cdf, binomial_sf

#: The rung of the comparisons over a whole ladder.
WHOLE_LADDER = "(whole ladder)"
#: Terms this close (seconds, or this fraction of the larger) are a tie.
TIE_SECONDS = 0.01
TIE_RELATIVE = 0.02
#: Significance level of the verdicts (after Holm's correction).
ALPHA = 0.05
#: The Wilcoxon test is exact up to this many nonzero differences without tied sizes, the
#: normal approximation (with the tie correction) otherwise (scipy's permutation fallback for
#: small tied samples is far too slow for a report).
EXACT_WILCOXON = 50
#: :func:`pairs_needed` looks no further than this many untied pairs.
MAX_NEEDED = 100_000

PAIRED_COLUMNS: list[str] = [
    "family", "ladder", "rung", "rung_index", "config_a", "config_b", "pairs", "wins_a",
    "ties", "wins_b", "sign_p", "sign_p_holm", "wilcoxon_p", "wilcoxon_p_holm", "better",
    "verdict", "needed_pairs",
]
_PAIR_KEY = ["rung", "rung_index", "instance_id", "repeat", "seed"]


def sign_test_p(wins: np.ndarray, losses: np.ndarray) -> np.ndarray:
    """The two-sided exact binomial (sign test) p-value of ``wins`` of ``wins + losses`` at 1/2,
    elementwise (NaN for no untied pairs): min(1, 2 P(X <= min(wins, losses))), X ~ B(n, 1/2),
    which is ``scipy.stats.binomtest``'s two-sided value, the null being symmetric."""
    w = np.asarray(wins, dtype=float)
    v = np.asarray(losses, dtype=float)
    n = w + v
    p = np.minimum(1.0, 2.0 * binomial_cdf(np.minimum(w, v), n, 0.5))
    return np.where(n > 0, p, np.nan)


def holm(pvalues: np.ndarray) -> np.ndarray:
    """Holm's step-down adjusted p-values (NaN entries left NaN and not counted in m)."""
    p = np.asarray(pvalues, dtype=float)
    out = np.full(p.shape, np.nan)
    real = np.flatnonzero(~np.isnan(p))
    m = len(real)
    if m == 0:
        return out
    order = real[np.argsort(p[real], kind="stable")]
    scaled = p[order] * (m - np.arange(m))
    out[order] = np.minimum(1.0, np.maximum.accumulate(scaled))
    return out


def pairs_needed(wins: int, losses: int, ties: int, alpha: float = ALPHA) -> float:
    """Paired instances the observed effect would need: the smallest n of untied pairs whose
    exact two-sided sign test at the observed win fraction f (round(f n) wins of n) gives
    p < ``alpha``, divided by the observed share of untied pairs; NaN when wins == losses, inf
    when more than :data:`MAX_NEEDED` untied pairs would be needed."""
    untied = wins + losses
    if untied == 0 or wins == losses:
        return float("nan")
    f = max(wins, losses) / untied
    start = 1
    for stop in (256, 8192, MAX_NEEDED):  # in growing chunks: most effects need few pairs
        n = np.arange(start, stop + 1)
        k = np.round(f * n)
        hit = np.flatnonzero(2.0 * binomial_sf(k - 1, n, 0.5) < alpha)
        if len(hit):
            return float(math.ceil(n[hit[0]] * (untied + ties) / untied))
        start = stop + 1
    return float("inf")


def _wilcoxon_p(differences: np.ndarray) -> float:
    """Two-sided Wilcoxon signed-rank p-value of the nonzero differences; NaN for none."""
    d = differences[differences != 0]
    if len(d) == 0:
        return float("nan")
    from scipy.stats import wilcoxon  # here: scipy.stats is slow to import

    sizes = np.abs(d)
    exact = len(d) <= EXACT_WILCOXON and len(np.unique(sizes)) == len(sizes)
    return float(wilcoxon(d, zero_method="wilcox", alternative="two-sided",
                          method="exact" if exact else "approx").pvalue)


def _runs(data: pd.DataFrame) -> pd.DataFrame:
    """One row per (family, ladder, pair key, config): its term and success (first of any
    duplicates), the keys' NA filled so they compare equal."""
    term = data["t_wall"].where(data["_ok"], 2.0 * data["budget_s"]).astype(float)
    runs = pd.DataFrame({
        "family": data["family"], "ladder": data["ladder"], "rung": data["rung"].fillna(""),
        "rung_index": data["rung_index"].astype("Float64").fillna(-1).astype(float),
        "instance_id": data["instance_id"], "repeat": data["repeat"].fillna(-1),
        "seed": data["seed"].fillna(-1), "config": data["config"], "ok": data["_ok"],
        "term": term,
    })
    runs = runs[runs["instance_id"].notna() & runs["term"].notna()]
    return runs.drop_duplicates(["family", "ladder", *_PAIR_KEY, "config"])


def _pair_rows(family: str, ladder: str, runs: pd.DataFrame) -> list[dict]:
    """Every comparison of one ladder: its counts and raw p-values."""
    terms = runs.pivot(index=_PAIR_KEY, columns="config", values="term")
    oks = runs.pivot(index=_PAIR_KEY, columns="config", values="ok")
    rungs = terms.index.get_level_values("rung").to_numpy(dtype=object)
    index = terms.index.get_level_values("rung_index").to_numpy(dtype=float)
    several = len(set(rungs)) > 1
    rows = []
    for a, b in itertools.combinations(sorted(terms.columns), 2):
        both = terms[a].notna().to_numpy() & terms[b].notna().to_numpy()
        if not both.any():
            continue
        ta, tb = terms[a].to_numpy(float)[both], terms[b].to_numpy(float)[both]
        failed = ~oks[a].to_numpy(dtype=bool, na_value=False)[both] & \
            ~oks[b].to_numpy(dtype=bool, na_value=False)[both]
        diff = ta - tb
        tie = failed | (np.abs(diff) <= np.maximum(TIE_SECONDS,
                                                   TIE_RELATIVE * np.maximum(ta, tb)))
        diff = np.where(tie, 0.0, diff)
        groups = [(WHOLE_LADDER, np.nan, np.ones(len(diff), dtype=bool))]
        if several:
            mine_rungs, mine_index = rungs[both], index[both]
            for r, i in sorted(set(zip(mine_rungs, mine_index, strict=True)),
                               key=lambda ri: (ri[1], str(ri[0]))):
                groups.append((r, i, (mine_rungs == r) & (mine_index == i)))
        for rung, rung_index, mask in groups:
            d = diff[mask]
            rows.append({"family": family, "ladder": ladder, "rung": rung,
                         "rung_index": rung_index if rung_index >= 0 else np.nan,
                         "config_a": a, "config_b": b, "pairs": int(mask.sum()),
                         "wins_a": int((d < 0).sum()), "ties": int((d == 0).sum()),
                         "wins_b": int((d > 0).sum()), "wilcoxon_p": _wilcoxon_p(d)})
    return rows


def _fmt_p(p: float) -> str:
    """A p-value as it reads in a verdict: 2 significant digits, ``<0.0001`` below."""
    return "<0.0001" if p < 1e-4 else f"{p:.2g}"


def _verdicts(table: pd.DataFrame) -> pd.DataFrame:
    """``better``, ``verdict`` and ``needed_pairs`` of each comparison (module docstring, 6)."""
    better, verdict, needed = [], [], []
    alpha = ALPHA / max(1, int(table["sign_p"].notna().sum()))
    for row in table.itertuples(index=False):
        where = "the whole ladder" if row.rung == WHOLE_LADDER else f"rung {row.rung}"
        winner = (row.config_a if row.wins_a > row.wins_b else
                  row.config_b if row.wins_b > row.wins_a else None)
        better.append(winner)
        if winner is not None and row.sign_p_holm < ALPHA:
            loser = row.config_b if winner == row.config_a else row.config_a
            verdict.append(f"{winner} beats {loser} on {where} "
                           f"(p={_fmt_p(row.sign_p_holm)}, Holm-adjusted)")
            needed.append(np.nan)
        else:
            verdict.append("not distinguishable with these seeds")
            needed.append(pairs_needed(row.wins_a, row.wins_b, row.ties, alpha))
    return table.assign(better=pd.Series(better, index=table.index, dtype="string"),
                        verdict=pd.Series(verdict, index=table.index, dtype="string"),
                        needed_pairs=pd.Series(needed, index=table.index, dtype="Float64"))


def _several_configs(data: pd.DataFrame) -> bool:
    """Whether some (family, ladder) of ``data`` has runs of two configs or more: where none
    has, there is no pair to compare, and the per-run table is not built."""
    configs = data[["family", "ladder", "config"]].drop_duplicates()
    return bool(configs.duplicated(["family", "ladder"]).any())


def compare(data: pd.DataFrame) -> pd.DataFrame:
    """Every paired comparison of the report (module docstring), ordered by family, ladder,
    the whole ladder first then rung, config_a, config_b."""
    rows: list[dict] = []
    if len(data) and _several_configs(data):
        for (family, ladder), mine in _runs(data).groupby(["family", "ladder"], sort=True):
            if mine["config"].nunique() > 1:
                rows += _pair_rows(family, ladder, mine)
    if not rows:
        return pd.DataFrame({c: pd.Series(dtype="object") for c in PAIRED_COLUMNS})
    table = pd.DataFrame(rows)
    table["sign_p"] = sign_test_p(table["wins_a"], table["wins_b"])
    table["sign_p_holm"] = holm(table["sign_p"].to_numpy())
    table["wilcoxon_p_holm"] = holm(table["wilcoxon_p"].to_numpy())
    table = _verdicts(table)
    for col in ("pairs", "wins_a", "ties", "wins_b"):
        table[col] = table[col].astype("Int64")
    for col in ("rung_index", "sign_p", "sign_p_holm", "wilcoxon_p", "wilcoxon_p_holm"):
        table[col] = table[col].astype("Float64")
    for col in ("family", "ladder", "rung", "config_a", "config_b"):
        table[col] = table[col].astype("string")
    whole = (table["rung"] != WHOLE_LADDER).astype(int)
    table = table.assign(_w=whole).sort_values(
        ["family", "ladder", "_w", "rung_index", "config_a", "config_b"], kind="stable")
    return table.drop(columns="_w").reset_index(drop=True)[PAIRED_COLUMNS]
