"""The conformance suite (bench/conformance.py) on the built-in families: each family and
every installed solver of it, on the family's declared examples, through the harness.

The same one call a plug-in family's tests make (examples/nqueens/tests/test_nqueens.py).
Edge matching adds a board with no solution, which every solver must prove infeasible.
"""

from __future__ import annotations

import instances
from bench.api import PARADIGMS
from bench.conformance import FamilyConformance

from helpers import ROOT

IMPOSSIBLE_HINT = ROOT / "tests" / "data" / "edgematch_impossible_hint.emp"


class TestEdgematch(FamilyConformance):
    family = "edgematch"
    examples = (*instances.family("edgematch").examples, str(IMPOSSIBLE_HINT))

    def test_every_paradigm_is_covered(self) -> None:
        from bench.plan.registry import solver_index

        paradigms = {solver_index()[key]["meta"]["paradigm"] for key in self.solver_keys()}
        assert paradigms == set(PARADIGMS)


class TestSudoku(FamilyConformance):
    family = "sudoku"


class TestTiles(FamilyConformance):
    family = "tiles"


class TestGames(FamilyConformance):
    family = "games"


class TestLatin(FamilyConformance):
    family = "latin"
