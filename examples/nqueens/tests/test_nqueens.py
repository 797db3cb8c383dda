"""The N-queens family's tests: cliffbench's conformance suite (one class: the family's parts
and every solver of it, through the harness), then checks of its own."""

from __future__ import annotations

import time

import pytest
from bench.api import Budget
from bench.conformance import FamilyConformance
from instances.common import InstanceError

from nqueens_family import FAMILY
from nqueens_family.backtrack import solve
from nqueens_family.model import Instance, Solution


class TestNQueens(FamilyConformance):
    family = "nqueens"


def test_the_checker_names_what_is_wrong() -> None:
    instance = Instance(4, ((0, 1),))
    assert FAMILY.check(instance, Solution((1, 3, 0, 2))).solved
    assert "attack" in FAMILY.check(instance, Solution((1, 3, 0, 1))).reason
    assert "missing" in FAMILY.check(instance, Solution((2, 0, 3, 1))).reason


def test_a_corner_queen_on_four_rows_is_infeasible() -> None:
    """4 queens have two solutions, (1, 3, 0, 2) and (2, 0, 3, 1): neither uses a corner."""
    budget = Budget(5.0, 1000, 1, time.monotonic() + 5.0)
    assert solve(Instance(4, ((0, 0),)), budget, 1).status == "infeasible"


def test_a_malformed_file_names_its_line(tmp_path) -> None:
    path = tmp_path / "bad.queens"
    path.write_text("# two boards\n.Q..\n...Q\nQ...\n..Q.\n\nQ..\n.x.\n...\n")
    with pytest.raises(InstanceError, match="bad.queens:8"):
        FAMILY.read_file(path)
