"""One witness per paradigm (bench/views/witnesses.py): a ladder that ranks paradigms says when
one paradigm's configs all share an engine or a model, or it has a single config; a ladder of
one paradigm says nothing; native searches are not one witness for sharing their compiler."""

from __future__ import annotations

import json

import pandas as pd

from bench.views.report import render
from bench.views.stats import build_report, normalize
from bench.views.witnesses import single_witnesses


def runs(*configs: tuple[str, str, str], ladder: str = "planted") -> pd.DataFrame:
    """One solved run per (solver, paradigm, backend)."""
    return pd.DataFrame([{"family": "edgematch", "ladder": ladder, "rung": "4", "rung_index": 0,
                          "solver": solver, "paradigm": paradigm, "backend": backend,
                          "status": "solved", "t_wall": 0.1, "budget_s": 10.0,
                          "instance_id": "i1", "seed": 1, "repeat": 0}
                         for solver, paradigm, backend in configs])


def test_a_paradigm_on_one_engine_or_one_config_is_one_witness():
    table = runs(("sat", "sat", "pysat-1.9"), ("cadical", "sat", "pysat-1.9"),
                 ("ilp-highs", "ilp", "highs-1.11"), ("ilp-cbc", "ilp", "cbc-2.10"),
                 ("cpsat", "cpsat", "ortools-9.15"),
                 ("dfs-restarts", "native", "numba-0.68"), ("dfs-breaks", "native", "numba-0.68"))
    found = single_witnesses(normalize(table)).set_index("paradigm")
    assert sorted(found.index) == ["cpsat", "sat"]
    assert "one engine (pysat-1.9)" in found.loc["sat", "note"]
    assert found.loc["cpsat", "note"].startswith("cpsat is one config")


def test_a_shared_model_is_one_witness_whatever_the_engines():
    table = runs(("ilp", "ilp", "highs-1.11"), ("ilp", "ilp", "cbc-2.10"),
                 ("cpsat", "cpsat", "ortools-9.15"), ("sat", "cpsat", "ortools-9.15"))
    table.loc[1, "s_backend"] = "cbc"  # two configs of one solver
    table.loc[0, "s_backend"] = "highs"
    found = single_witnesses(normalize(table)).set_index("paradigm")
    assert "one model (ilp)" in found.loc["ilp", "note"]
    assert "one engine (ortools-9.15)" in found.loc["cpsat", "note"]


def test_a_ladder_of_one_paradigm_ranks_no_paradigm():
    table = runs(("sat", "sat", "pysat-1.9"), ("cadical", "sat", "pysat-1.9"))
    assert single_witnesses(normalize(table)).empty


def test_the_report_says_it_in_markdown_and_json():
    table = runs(("sat", "sat", "pysat-1.9"), ("cpsat", "cpsat", "ortools-9.15"),
                 ("xcc", "xcc", "xcover-0.2"), ("xcc2", "xcc", "xcover-0.2"))
    report = build_report(table, "w")
    text = render(report, "markdown")
    assert "## One witness per paradigm" in text
    assert "all 2 xcc configs share one engine (xcover-0.2)" in text
    doc = json.loads(render(report, "json"))
    assert {row["paradigm"] for row in doc["witnesses"]} == {"sat", "cpsat", "xcc"}
