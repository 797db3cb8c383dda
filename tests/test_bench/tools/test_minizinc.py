"""The ``cp`` paradigm: the CP-SAT encoders' MiniZinc exports (``write_mzn``/``read_mzn``) and the
shipped ``gecode`` tool, MiniZinc with Gecode on them, through the harness and its checker.

The structure and round-trip tests need nothing installed; those that run MiniZinc skip with a
reason when ``minizinc`` or its Gecode back end is absent (``.ci/run`` installs Debian's
``minizinc`` and ``flatzinc``)."""

from __future__ import annotations

import functools
import shutil
import subprocess

import pytest

import bench
import instances
from bench.api import REGISTRY, ParamError
from bench.plan.specs import resolve_one
from bench.tools.adapter import SHIPPED, load_tools
from bench.tools.outputs import OUTPUTS
from encoders import edgematch_cpsat, latin_cpsat, sudoku_cpsat
from instances.latin.model import Instance as LatinSquare

from helpers import ROOT

ENCODERS = {"edgematch": edgematch_cpsat, "sudoku": sudoku_cpsat, "latin": latin_cpsat}
SOLVABLE = [
    "edgematch/planted:n=4,seed=2",
    "edgematch/planted:n=5,hints=2,seed=1",
    "edgematch/planted:n=4,border=5,inner=17,hints=0,seed=4",  # hintless: the symmetry pin
    "sudoku/planted:box=2,clues=6,seed=1",
    "sudoku/planted:box=3,clues=24,seed=4",
    "sudoku/planted:box=4,clues=120,seed=1",
    "latin/qwh:order=12,fraction=0.45,seed=2",
]
IMPOSSIBLE_HINT = str(ROOT / "tests" / "data" / "edgematch_impossible_hint.emp")
#: an order-3 square whose givens leave a hole no symbol (test_debian_programs.py's)
BLOCKED = LatinSquare(3, (0, 1, -1, -1, -1, 2, -1, -1, -1))
#: a board Gecode's default search does not solve in 10 s (measured: about 10 s unfinished)
HARD = "edgematch/planted:n=12,seed=1"
TOOL = next(tool for tool in load_tools(SHIPPED) if tool.name == "gecode")


@functools.cache
def gecode_missing() -> str:
    """Why MiniZinc with Gecode cannot run here, "" when it can."""
    if shutil.which("minizinc") is None:
        return "minizinc is not installed (Debian: apt-get install minizinc flatzinc)"
    done = subprocess.run(["minizinc", "--solvers"], capture_output=True, text=True, timeout=30)
    if "org.gecode.gecode" not in done.stdout:
        return "minizinc has no Gecode solver (Debian: apt-get install flatzinc)"
    return ""


@pytest.fixture
def gecode() -> None:
    """Skips the test, saying why, where MiniZinc with Gecode cannot run."""
    if gecode_missing():
        pytest.skip(gecode_missing())


needs_gecode = pytest.mark.usefixtures("gecode")


def family_of(spec: str) -> str:
    return resolve_one(spec).family


def planted_values(spec: str) -> dict[str, list[int]]:
    """What a program would print for the planted solution of ``spec``."""
    secret = resolve_one(spec).generated.secret
    if family_of(spec) == "edgematch":
        return {"piece": [p for p, _ in secret.cells], "rot": [r for _, r in secret.cells]}
    if family_of(spec) == "sudoku":
        return {"grid": list(secret.grid)}
    return {"square": list(secret.cells)}


# -- the files ------------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", SOLVABLE)
def test_the_export_is_one_self_contained_model(spec, tmp_path):
    ref = resolve_one(spec)
    path = tmp_path / "model.mzn"
    ENCODERS[ref.family].write_mzn(ref.instance, path)
    text = path.read_text(encoding="ascii")
    assert text.startswith(f"% cliffbench {ref.family} CP model")
    assert ref.instance.instance_id in text.splitlines()[2]
    assert 'include "all_different_int.mzn";' in text and "globals.mzn" not in text
    assert text.count("solve satisfy;") == 1 and "include" not in text.split("solve")[1]
    names = planted_values(spec)
    for name in names:
        assert f"{name} :: add_to_output;" in text and f'"{name} = \\({name});\\n"' in text
    assert max(len(line) for line in text.splitlines()) <= 100


@needs_gecode
@pytest.mark.parametrize("spec", [*SOLVABLE, IMPOSSIBLE_HINT])
def test_the_export_compiles_to_flatzinc(spec, tmp_path):
    ref = resolve_one(spec)
    path = tmp_path / "model.mzn"
    ENCODERS[ref.family].write_mzn(ref.instance, path)
    done = subprocess.run(["minizinc", "--solver", "gecode", "--compile", str(path), "-o",
                           str(tmp_path / "model.fzn")], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    flat = (tmp_path / "model.fzn").read_text()
    assert "all_different" in flat  # Gecode's own propagator, not pairwise disequalities


def test_the_edgematch_export_pins_a_corner_only_when_asked(tmp_path):
    instance = resolve_one(SOLVABLE[2]).instance
    for symmetry, pins in (("hints", 1), ("none", 0)):
        path = tmp_path / f"{symmetry}.mzn"
        edgematch_cpsat.write_mzn(instance, path, symmetry=symmetry)
        assert path.read_text().count("% symmetry:") == pins
    hinted = resolve_one(SOLVABLE[1]).instance
    edgematch_cpsat.write_mzn(hinted, tmp_path / "hints.mzn")
    assert (tmp_path / "hints.mzn").read_text().count("% hint") == len(hinted.hints) > 0


def test_score_mode_has_no_minizinc_form(tmp_path):
    instance = resolve_one(SOLVABLE[0]).instance
    with pytest.raises(ParamError, match="decision model"):
        edgematch_cpsat.write_mzn(instance, tmp_path / "x.mzn", maximize="joins")
    edgematch_cpsat.write_mzn(instance, tmp_path / "x.mzn", maximize="none", channel="table")
    assert (tmp_path / "x.mzn").exists()


# -- reading values back -------------------------------------------------------------------------


@pytest.mark.parametrize("spec", SOLVABLE)
def test_the_planted_solution_reads_back(spec):
    ref = resolve_one(spec)
    solution = ENCODERS[ref.family].read_mzn(ref.instance, planted_values(spec))
    assert solution == ref.generated.secret
    assert instances.family(ref.family).check(ref.instance, solution).solved


@pytest.mark.parametrize("spec", [SOLVABLE[1], SOLVABLE[4], SOLVABLE[6]])
def test_values_that_are_no_solution_do_not_read(spec):
    ref = resolve_one(spec)
    read = ENCODERS[ref.family].read_mzn
    values = planted_values(spec)
    name = next(iter(values))
    assert read(ref.instance, {}) is None
    assert read(ref.instance, {**values, name: values[name][:-1]}) is None  # one short
    assert read(ref.instance, {**values, name: [*values[name], values[name][0]]}) is None
    assert read(ref.instance, {**values, name: [-5] + values[name][1:]}) is None  # range
    assert read(ref.instance, {**values, name: [99] + values[name][1:]}) is None


# -- the tool ------------------------------------------------------------------------------------


def test_the_tool_is_declared_with_each_cpsat_model_and_its_parameters():
    import bench.tools.shipped  # noqa: F401  (registers the shipped tools)

    assert "{milliseconds}" in TOOL.command and TOOL.paradigm == "cp"
    for family in ENCODERS:
        spec = REGISTRY[f"{family}/gecode"]
        assert spec.paradigm == "cp" and "mzn" in REGISTRY[f"{family}/cpsat"].exports
    assert [p.name for p in REGISTRY["edgematch/gecode"].params] == ["symmetry"]
    assert REGISTRY["sudoku/gecode"].params == () == REGISTRY["latin/gecode"].params


@needs_gecode
def test_the_programs_own_output_reads_to_a_checked_solution(tmp_path):
    """The convention on what Gecode really prints, without the harness."""
    for spec in (SOLVABLE[1], SOLVABLE[5]):
        ref = resolve_one(spec)
        path = tmp_path / "model.mzn"
        ENCODERS[ref.family].write_mzn(ref.instance, path)
        for mode in (["--output-mode", "dzn"], []):  # dzn, or the model's own output item
            done = subprocess.run(["minizinc", "--solver", "gecode", *mode, str(path)],
                                  capture_output=True, text=True, timeout=60)
            answer = OUTPUTS["minizinc"].read(done.stdout, "", done.returncode)
            assert answer.claim == "solved" and not answer.problem, done.stdout
            solution = ENCODERS[ref.family].read_mzn(ref.instance, answer.values)
            assert instances.family(ref.family).check(ref.instance, solution).solved


@needs_gecode
@pytest.mark.parametrize("spec", SOLVABLE)
def test_gecode_solves_and_the_checker_accepts(spec):
    family = family_of(spec)
    row = bench.solve(spec, f"{family}/gecode", timeout=60)
    assert row["status"] == "solved" and row["verified"], row
    assert row["paradigm"] == "cp" and row["backend"] == TOOL.backend()
    assert row["message"] is None, row["message"]


@needs_gecode
def test_gecode_proves_the_infeasible_ones_infeasible():
    assert bench.solve(BLOCKED, "latin/gecode", timeout=60)["status"] == "infeasible"
    row = bench.solve(IMPOSSIBLE_HINT, "edgematch/gecode", timeout=60)
    assert row["status"] == "infeasible", row


@needs_gecode
def test_gecode_stops_at_its_own_time_limit():
    """``{milliseconds}`` reaches MiniZinc: on a board it does not solve in the budget it ends
    on its own, unknown, before the watchdog's kill (which would be a timeout)."""
    row = bench.solve(HARD, "edgematch/gecode", timeout=2.0)
    assert row["status"] == "unknown", row
    assert row["t_wall"] < 2.9, row


@needs_gecode
def test_the_symmetry_parameter_reaches_the_model():
    row = bench.solve(SOLVABLE[2], "edgematch/gecode", timeout=60, symmetry="none")
    assert row["status"] == "solved" and row["verified"], row
    assert row["s_symmetry"] == "none"


def test_the_cli_exports_mzn(tmp_path, capsys):
    from bench.cli import main

    path = tmp_path / "board.mzn"
    assert main(["export", SOLVABLE[0], "--to", "mzn", str(path)]) == 0
    assert path.read_text().startswith("% cliffbench edgematch CP model")
    assert main(["export", SOLVABLE[0], "--to", "mzn", str(tmp_path / "no.mzn"), "--param",
                 "maximize=joins"]) == 2
    assert "decision model" in capsys.readouterr().err
    assert not (tmp_path / "no.mzn").exists()



def test_the_literals_wrap_and_keep_their_index_sets():
    from encoders.support import minizinc

    assert minizinc.array2d([[1, 2], [3, 4]]) == "[| 1, 2\n     | 3, 4\n     |]"
    assert minizinc.array2d([[1, 2], [3, 4]], 0, 0) == "array2d(0..1, 0..1, [1, 2, 3, 4])"
    assert minizinc.set_literal([3, 1, 3]) == "{1, 3}" and minizinc.set_literal([]) == "{}"
    long = minizinc.set_literal(range(100))
    assert all(len(line) <= minizinc.WIDTH for line in long.splitlines()) and long.count("\n")
    assert [int(v) for v in long.strip("{}").replace("\n", "").split(",")] == list(range(100))
    with pytest.raises(ValueError, match="different lengths"):
        minizinc.array2d([[1, 2], [3]])
