"""Solver names are unique within a family, not across families: ``sat`` is one solver for
edge matching and another for Sudoku; ``family/name`` always says which."""

from __future__ import annotations

import pytest

from bench.api import REGISTRY, Outcome, lookup, matching, solver
from bench.plan.registry import RegistryError, get_solver
from bench.plan.suite import SuiteError, solver_configs, specs_named


@pytest.fixture()
def twins():
    """``test-twin`` registered for both families (removed afterwards)."""
    made = []
    for family in ("edgematch", "sudoku"):
        @solver("test-twin", family=family, paradigm="native", backend="none")
        def solve(instance, budget, seed):
            return Outcome("unknown")
        made.append(f"{family}/test-twin")
    yield
    for key in made:
        REGISTRY.pop(key, None)


def test_a_name_in_two_families_is_two_solvers(twins):
    assert [s.key for s in matching("test-twin")] == ["edgematch/test-twin", "sudoku/test-twin"]
    assert lookup("test-twin", "sudoku").family == "sudoku"
    assert lookup("sudoku/test-twin").key == "sudoku/test-twin"
    with pytest.raises(KeyError, match="several families"):
        lookup("test-twin")
    with pytest.raises(RegistryError, match="several families"):
        get_solver("test-twin")
    with pytest.raises(RegistryError, match="unknown solver 'test-none'"):
        get_solver("test-none")


def test_a_suite_entry_meets_each_family_it_has_instances_of(twins):
    both = solver_configs([{"name": "test-twin"}], REGISTRY, families={"edgematch", "sudoku"})
    assert sorted(c.spec.key for c in both) == ["edgematch/test-twin", "sudoku/test-twin"]
    one = solver_configs([{"name": "test-twin"}], REGISTRY, families={"sudoku"})
    assert [c.spec.key for c in one] == ["sudoku/test-twin"]
    qualified = solver_configs([{"name": "edgematch/test-twin"}], REGISTRY)
    assert [c.spec.key for c in qualified] == ["edgematch/test-twin"]


def test_a_solver_for_no_family_of_the_suite_is_refused(twins):
    with pytest.raises(SuiteError, match="which this suite has no instance of"):
        specs_named("sudoku/test-twin", REGISTRY, families={"edgematch"})


def test_registering_the_same_family_and_name_twice_from_two_modules_fails(twins):
    def other(instance, budget, seed):
        return Outcome("unknown")
    other.__module__ = "somewhere.else"
    with pytest.raises(ValueError, match="registered twice"):
        solver("test-twin", family="sudoku", paradigm="native", backend="none")(other)


def test_a_plugin_file_inside_a_package_is_imported_under_its_package_name():
    """``--plugin searches/sudoku_norvig.py`` is the installed module, not a second copy that
    would register its solvers twice (numba's cache imports the module by its package name)."""
    from bench.plan.registry import load_plugin, load_solvers

    from helpers import ROOT

    load_solvers()
    load_plugin(ROOT / "searches" / "sudoku_norvig.py")
    assert REGISTRY["sudoku/norvig"].module == "searches.sudoku_norvig"
