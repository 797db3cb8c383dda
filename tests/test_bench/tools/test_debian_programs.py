"""The shipped adapters on Debian's programs (cadical, minisat, picosat, cryptominisat5, cbc,
glpsol): each answers like the in-process solver of its source on the same model file, a
solvable instance and an infeasible one of every family it is registered in. A program that is
not installed skips its tests (``.ci/run`` installs them); the conformance suite also runs each
installed one on every example of its families."""

from __future__ import annotations

import json

import pytest

import bench
from bench.tools.adapter import SHIPPED, load_tools

TOOLS = {tool.name: tool for tool in load_tools(SHIPPED)}
SOLVABLE = {"latin": "latin/qwh:order=12,fraction=0.45,seed=2",
            "sudoku": "sudoku/planted:box=3,clues=24,seed=4",
            "edgematch": "edgematch/planted:n=4,seed=2"}
#: an order-3 square whose givens leave a hole no symbol
BLOCKED = {"family": "latin", "order": 3, "cells": [0, 1, -1, -1, -1, 2, -1, -1, -1]}
CASES = [(name, source.split(":")[0], source.split(":")[1].split("/")[0])
         for name, tool in sorted(TOOLS.items()) for source in tool.sources]


@pytest.mark.parametrize("name,module,family", CASES,
                         ids=[f"{name}-{family}" for name, _, family in CASES])
def test_the_program_agrees_with_the_in_process_solver(name, module, family, tmp_path):
    tool = TOOLS[name]
    if tool.path() is None:
        pytest.skip(tool.missing_message())
    source = next(s for s in tool.sources if s.startswith(f"{module}:"))
    library_solver = source.split(":")[1]
    program = bench.solve(SOLVABLE[family], f"{family}/{name}", timeout=60)
    library = bench.solve(SOLVABLE[family], library_solver, timeout=60)
    assert program["status"] == library["status"] == "solved", (program, library)
    assert program["verified"] and program["backend"] == tool.backend()
    assert program["message"] is None, program["message"]
    if family == "latin":
        path = tmp_path / "blocked.json"
        path.write_text(json.dumps(BLOCKED))
        assert bench.solve(str(path), f"latin/{name}", timeout=60)["status"] == "infeasible"


@pytest.mark.parametrize("name", ["cbc", "glpk"])
def test_an_ilp_program_on_the_edge_matching_score_model_is_an_error_that_says_why(name):
    """Only the feasibility model's answer is read: a score model's claim (an optimum, an
    incumbent at a stop) is not in the solution file's conventions. (GLPK does not even read
    that file: free MPS has no OBJSENSE section for it; its error is its own.)"""
    tool = TOOLS[name]
    if tool.path() is None:
        pytest.skip(tool.missing_message())
    row = bench.solve(SOLVABLE["edgematch"], f"edgematch/{name}", timeout=60, maximize="joins")
    assert row["status"] == "error", row
    assert ("maximize='none' only" if name == "cbc" else "glpsol") in row["message"], row
