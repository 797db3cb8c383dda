"""Claims, checked (bench.views.claims): loading, the computations, the verdicts, the file."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from bench.views import claims as cl
from bench.views.stats import normalize

SHIPPED = Path(cl.__file__).resolve().parent.parent / "plan" / "claims" / "paper.toml"


def _rows() -> pd.DataFrame:
    rows = []
    for i in range(6):  # two configs on the same six instances
        for config, nodes in (("minimax", 100.0), ("alphabeta", 50.0 + i)):
            rows.append({"family": "games", "ladder": "trees", "rung": "4", "rung_index": 0,
                         "solver": config, "instance_id": f"i{i}", "status": "optimal",
                         "t_wall": 0.01 * (i + 1), "budget_s": 2.0, "work_nodes": nodes,
                         "counters": json.dumps({"h_start": 30 + i})})
    for n, k in ((6, 3), (8, 3), (10, 1), (12, 0)):  # a cliff at 10
        for seed in range(3):
            rows.append({"family": "edgematch", "ladder": "cliff", "rung": str(n),
                         "rung_index": (n - 6) // 2, "solver": "dfs", "instance_id": f"e{n}{seed}",
                         "status": "solved" if seed < k else "unknown", "t_wall": 1.0,
                         "budget_s": 2.0})
    return normalize(pd.DataFrame(rows))


def _write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "x.claims.toml"
    path.write_text(body, encoding="utf-8")
    return path


HEAD = '''[[claim]]
id = "{id}"
source = "test"
claim = "a number"
published = {published}
conditions = "here"
tolerance = {tolerance}
'''


def _one(tmp_path: Path, ours: str, published: float, tolerance: str = "{ relative = 0.1 }",
         extra: str = "") -> pd.Series:
    body = HEAD.format(id="c", published=published, tolerance=tolerance) + extra + ours
    return cl.check(_write(tmp_path, body), _rows()).iloc[0]


def test_mean_reproduced_with_interval(tmp_path):
    row = _one(tmp_path, '[claim.ours]\nkind = "mean"\ncolumn = "work_nodes"\n'
               'config = "alphabeta"\n', 52.5)
    assert row["verdict"] == cl.REPRODUCED and row["ours_value"] == pytest.approx(52.5)
    assert row["ours_low"] <= 52.5 <= row["ours_high"] and row["ours_low"] < row["ours_high"]


def test_median_of_a_counter_differs(tmp_path):
    row = _one(tmp_path, '[claim.ours]\nkind = "median"\ncolumn = "counters.h_start"\n'
               'config = "minimax"\n', 50)
    assert row["ours_value"] == pytest.approx(32.5)
    assert row["verdict"] == cl.DIFFERS and "off by 35%" in row["why"]


def test_solved_fraction_wilson(tmp_path):
    row = _one(tmp_path, '[claim.ours]\nkind = "solved_fraction"\nladder = "cliff"\n'
               'rung = "10"\n', 0.3, "{ absolute = 0.05 }")
    assert row["ours_value"] == pytest.approx(1 / 3) and row["verdict"] == cl.REPRODUCED
    assert 0 < row["ours_low"] < 1 / 3 < row["ours_high"] < 1


def test_ratio_paired_and_deterministic(tmp_path):
    ours = ('[claim.ours]\nkind = "ratio"\nladder = "trees"\n[claim.ours.numerator]\n'
            'column = "work_nodes"\nconfig = "alphabeta"\n[claim.ours.denominator]\n'
            'column = "work_nodes"\nconfig = "minimax"\n')
    first = _one(tmp_path, ours, 0.54, "{ absolute = 0.1 }")
    again = _one(tmp_path, ours, 0.54, "{ absolute = 0.1 }")
    assert first["ours_value"] == pytest.approx(0.525) and first["verdict"] == cl.REPRODUCED
    assert (first["ours_low"], first["ours_high"]) == (again["ours_low"], again["ours_high"])
    assert first["ours_low"] < 0.525 < first["ours_high"]


def test_cliff_rung_and_fitted_cliff(tmp_path):
    rung = _one(tmp_path, '[claim.ours]\nkind = "cliff_rung"\nladder = "cliff"\n'
                'config = "dfs"\n', 10, "{ absolute = 0 }")
    assert rung["ours_value"] == 10 and rung["verdict"] == cl.REPRODUCED
    fit = _one(tmp_path, '[claim.ours]\nkind = "fitted_cliff"\nladder = "cliff"\n'
               'config = "dfs"\n', 9, "{ absolute = 1 }")
    assert 8 < fit["ours_value"] < 10 and fit["verdict"] == cl.REPRODUCED


def test_factor_tolerance_and_lower_bound(tmp_path):
    row = _one(tmp_path, '[claim.ours]\nkind = "mean"\ncolumn = "t_wall"\nconfig = "minimax"\n',
               0.1, "{ factor = 3 }")
    assert row["verdict"] == cl.REPRODUCED and "factor" in row["why"]
    row = _one(tmp_path, '[claim.ours]\nkind = "mean"\ncolumn = "work_nodes"\n'
               'config = "minimax"\n', 20, extra='bound = "lower"\n')
    assert row["verdict"] == cl.REPRODUCED and "lower bound" in row["why"]


def test_not_comparable_missing_rows_names_them(tmp_path):
    row = _one(tmp_path, '[claim.ours]\nkind = "mean"\ncolumn = "work_nodes"\n'
               'ladder = "korf100"\n', 37.1, extra='absent = "no Korf here"\n')
    assert row["verdict"] == cl.NOT_COMPARABLE
    assert row["why"].startswith("no Korf here") and "ladder=korf100" in row["why"]


def test_not_comparable_conditions(tmp_path):
    row = _one(tmp_path, '[claim.ours]\nkind = "solved_fraction"\nladder = "cliff"\n'
               '[claim.requires]\nbudget_s = { min = 300 }\n', 0.8)
    assert row["verdict"] == cl.NOT_COMPARABLE
    assert "budget_s >= 300" in row["why"] and "budget_s 2" in row["why"]


def test_malformed_file_names_file_claim_and_key(tmp_path):
    body = HEAD.format(id="bad", published=1, tolerance="{ within = 2 }") + \
        '[claim.ours]\nkind = "mean"\ncolumn = "t_wall"\n'
    path = _write(tmp_path, body)
    with pytest.raises(cl.ClaimsError, match=r"x\.claims\.toml: claim 'bad': key 'tolerance'"):
        cl.load_claims(path)
    body = HEAD.format(id="bad", published=1, tolerance="{ absolute = 0 }") + \
        '[claim.ours]\nkind = "mode"\n'
    with pytest.raises(cl.ClaimsError, match=r"claim 'bad': key 'ours.kind'"):
        cl.load_claims(_write(tmp_path, body))


def test_claims_found_from_the_manifest(tmp_path):
    suite = tmp_path / "mine.toml"
    suite.write_text("", encoding="utf-8")
    (tmp_path / "mine.claims.toml").write_text("", encoding="utf-8")
    sweep = tmp_path / "sweep"
    sweep.mkdir()
    (sweep / "manifest.json").write_text(json.dumps({"suite": str(suite)}), encoding="utf-8")
    assert cl.claims_for_sweep(sweep) == tmp_path / "mine.claims.toml"
    (sweep / "manifest.json").write_text(json.dumps({"suite": "/elsewhere/paper.toml",
                                                     "suite_name": "paper"}))
    assert cl.claims_for_sweep(sweep) == SHIPPED


def test_shipped_claims_name_what_the_paper_suite_declares():
    from bench.data.fetch import default_data_dir
    from bench.plan.suite import load_suite

    claims = cl.load_claims(SHIPPED)
    assert len(claims) >= 10
    folder = default_data_dir()
    if folder is None:
        pytest.skip("the paper suite's Norvig ladder reads the reference data, absent here")
    suite = load_suite("paper", data_dir=folder)
    ladders = {lad.name: lad for lad in suite.ladders}
    solvers = {s.get("label") or s["name"] for s in suite.solvers} | \
        {s["name"] for s in suite.solvers}
    for claim in claims:
        specs = [claim.ours, *(claim.ours.get(k) for k in ("numerator", "denominator"))]
        named = {k: v for spec in specs if spec for k, v in spec.items() if k in cl.SELECTORS}
        ladder = named.get("ladder") or claim.ours.get("ladder")
        if claim.absent:
            continue  # rows the suite is known not to have: said in the verdict
        assert ladder in ladders, (claim.id, ladder)
        for key in ("config", "solver"):
            for spec in specs:
                if spec and key in spec:
                    assert spec[key] in solvers, (claim.id, spec[key])
        rungs = {r.label for r in ladders[ladder].rungs}
        for spec in specs:
            if spec and "rung" in spec:
                assert spec["rung"] in rungs, (claim.id, spec["rung"])


def test_sweep_claims_normalizes_a_raw_table_only_when_it_has_a_claims_file(tmp_path,
                                                                           monkeypatch):
    import bench.views.stats as stats

    raw = _rows().drop(columns=["config", "_ok", "_optimal"])
    sweep = tmp_path / "sweep"
    sweep.mkdir()  # no manifest, so no claims file: the table is not normalized at all
    monkeypatch.setattr(stats, "normalize", lambda _: pytest.fail("normalized for nothing"))
    assert cl.sweep_claims(sweep, raw, normalized=False) is None
    monkeypatch.undo()
    path = _write(tmp_path, HEAD.format(id="c", published=52.5, tolerance="{ relative = 0.1 }")
                  + '[claim.ours]\nkind = "mean"\ncolumn = "work_nodes"\nconfig = "alphabeta"\n')
    got = cl.sweep_claims(sweep, raw, path, normalized=False)
    assert got.equals(cl.sweep_claims(sweep, _rows(), path))
    assert got.iloc[0]["verdict"] == cl.REPRODUCED
