"""The asv benchmarks run, as asv would run them (setup_cache, setup, each benchmark once), on
small settings; the machine-independent ``track_`` counters are checked exactly.

A benchmark that breaks (an API it calls changed, an instance it builds moved) fails here in CI
instead of showing up as a silent n/a in the next ``asv continuous``. A counter that changes is
either a regression of the search or a deliberate change: then update the number here and say
why in the commit.
"""

from __future__ import annotations

import importlib
import inspect
import itertools
import pkgutil
from typing import Any

import pytest

import benchmarks

PREFIXES = ("time_", "track_", "mem_", "peakmem_", "timeraw_")
#: Class attributes set smaller for the test (the benchmarks' own sizes are asv's business).
SMALL = {"RunnerOverhead": {"runs": 12}, "DfsRestarts": {"nodes": 200_000}}


def benchmark_modules() -> list[Any]:
    return [importlib.import_module(info.name)
            for info in pkgutil.iter_modules(benchmarks.__path__, "benchmarks.")]


def benchmark_classes() -> dict[str, type]:
    found = {}
    for module in benchmark_modules():
        for name, value in vars(module).items():
            if (inspect.isclass(value) and value.__module__ == module.__name__
                    and any(m.startswith(PREFIXES) for m in dir(value))):
                found[f"{module.__name__.rsplit('.', 1)[1]}.{name}"] = value
    return found


CLASSES = benchmark_classes()


def combinations(cls: type) -> list[tuple]:
    params = getattr(cls, "params", [])
    if not params:
        return [()]
    if not isinstance(params[0], (list, tuple)):  # one parameter, given as a flat list
        params = [params]
    return list(itertools.product(*params))


def run_class(cls: type, folder) -> dict[tuple[str, tuple], Any]:
    """Every benchmark of ``cls`` once per parameter combination: {(method, params): value}.

    ``setup_cache`` runs once in ``folder`` (asv runs the class's benchmarks in the folder
    where it ran) and its value goes first to ``setup`` and to each benchmark, as in asv. A
    ``setup`` that raises NotImplementedError skips that combination, as asv does."""
    bench_obj = cls()
    for name, value in SMALL.get(cls.__name__, {}).items():
        setattr(bench_obj, name, value)
    lead = (bench_obj.setup_cache(),) if hasattr(cls, "setup_cache") else ()
    methods = sorted(m for m in dir(cls) if m.startswith(PREFIXES))
    results = {}
    for combo in combinations(cls):
        args = (*lead, *combo)
        try:
            if hasattr(bench_obj, "setup"):
                bench_obj.setup(*args)
        except NotImplementedError:
            continue
        for method in methods:
            results[method, combo] = getattr(bench_obj, method)(*args)
        if hasattr(bench_obj, "teardown"):
            bench_obj.teardown(*args)
    return results


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict[str, dict]:
    """Each class run once for every test of this file (the whole file: about 20 s)."""
    cache: dict[str, dict] = {}

    def get(name: str) -> dict:
        if name not in cache:
            folder = tmp_path_factory.mktemp(name.replace(".", "-"))
            with pytest.MonkeyPatch.context() as mp:
                mp.chdir(folder)
                cache[name] = run_class(CLASSES[name], folder)
        return cache[name]

    return get


def test_every_module_has_benchmarks():
    names = {name.split(".")[0] for name in CLASSES}
    assert names == {"benchmarks", "harness", "tiles", "sudoku", "games"}


#: Benchmarks that time a sweep's workers: they run alone when the tests run in parallel.
TIMED = {"harness.RunnerOverhead"}


@pytest.mark.parametrize("name", [
    pytest.param(name, marks=(pytest.mark.serial,) if name in TIMED else ())
    for name in sorted(CLASSES)])
def test_benchmarks_run(results, name):
    got = results(name)
    assert got, f"{name}: no benchmark ran"
    for (method, combo), value in got.items():
        if method.startswith("track_"):
            assert isinstance(value, (int, float)) and value > 0, (name, method, combo, value)
        else:
            assert value is None, (name, method, combo, value)


# --- the machine-independent counters ---------------------------------------------------------


def tracks(got: dict, method: str) -> dict[tuple, Any]:
    return {combo: value for (m, combo), value in got.items() if m == method}


def test_ida_manhattan_nodes_are_korfs(results):
    # Korf (1985) lists 15,300,442 nodes for #2; searches.tiles_ida does not count the root
    assert tracks(results("tiles.IdaManhattan"), "track_nodes_korf2") == {(): 15_300_441}


def test_ida_pdb_nodes(results):
    got = results("tiles.PdbSearch")
    assert tracks(got, "track_ida_pdb_nodes_korf5") == {(): 1_036_485}


def test_alphabeta_connect4_nodes(results):
    got = tracks(results("games.AlphaBetaConnect4"), "track_nodes_5x4")
    assert got == {("alphabeta",): 612_701, ("alphabeta-ordered",): 99_408}


def test_attractor_counts(results):
    got = results("games.AttractorRandomGraph")
    assert tracks(got, "track_moves_scanned") == {(): 2_345_133}
    assert tracks(got, "track_positions_won_by_1") == {(): 172_282}


def test_dfs_restarts_nodes_to_solve(results):
    got = tracks(results("benchmarks.DfsRestarts"), "track_nodes_to_solve_10x10")
    assert got == {(): 27_980_577}


def test_sudoku_search_counts(results):
    got = tracks(results("sudoku.SudokuSets"), "track_search_nodes")
    assert got == {("norvig", "minimal"): 51, ("norvig", "guessing"): 74,
                   ("native", "minimal"): 44, ("native", "guessing"): 50}


def test_encoder_model_sizes(results):
    got = results("benchmarks.EdgematchEncode")
    sizes = {combo[0]: (value, got["track_model_constraints_8x8", combo])
             for combo, value in tracks(got, "track_model_vars_8x8").items()}
    assert sizes == {"sat": (15_399, 46_481), "xcc": (240, 4_441), "cpsat": (240, 75),
                     "ilp": (3_017, 2_560), "clique": (4_441, 8_735_645)}


@pytest.mark.serial
def test_runner_overhead_is_small(results):
    got = tracks(results("harness.RunnerOverhead"), "track_overhead_median")
    assert ("1",) in got and ("2-on-1-core",) in got  # "2" needs a second core
    assert all(0 < ms < 1000 for ms in got.values())  # a loose bound: the test core is shared
