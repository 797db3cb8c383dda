"""The contract test of a family and of every solver of it, for pytest: ``FamilyConformance``.

A family's tests get the whole suite with one class::

    from bench.conformance import FamilyConformance

    class TestNQueens(FamilyConformance):
        family = "nqueens"

The instances are the family's ``examples`` (``Family.examples``: small generator specs; a
subclass may set ``examples`` to other specs or files), the solvers every installed solver of
the family (the ``cliffbench.solvers`` entry points). The checks, one test each:

- the contract: the family loads, ``contract_breaches`` is empty, each example names one
  instance of the family, no two the same; the text renderer and the picture drawer (if any)
  draw each example, bare and with its answer;
- generators are deterministic: an example resolved twice, and in a fresh interpreter with
  another hash seed, has the same ``instance_id``; an instance's JSON (what a worker gets)
  gives the same instance back;
- files round-trip: ``write_file`` to a file of the family's first suffix, read back by the
  harness (``bench.plan.specs.resolve``: suffix, sniffing, ``read_file``), gives the same
  instance, and a secret read back is a solution;
- answers round-trip: every known answer (the generator's secret, the solvers' checked
  answers) through JSON and ``Family.solution_from_json``, and through ``read_solution`` of
  what ``cliffbench solve --json`` prints, is the same answer, still solved;
- a broken answer is rejected: answers no family can accept (values of another type; a known
  answer whose longest list or string lost its last element: a grid short of a cell, a path
  short of its last move; where an example is known to have one solution, another example's
  answer) are refused by ``solution_from_json`` or not solved by ``check``;
- every solver answers every example it takes, through the harness's runner (a worker
  process, the watchdog, the checker in the parent), with ``budget_s`` a run: the status is
  solved, optimal or infeasible, agrees with what is known (``wrong`` otherwise: see
  bench/execute/classify.py), a returned answer is verified, the run ends within its budget plus
  the harness's grace. A solver that does not take an example says so in its declaration
  (``accepts``: the skip quotes its docstring); one that takes none of them fails;
- every solver stops at its budget: given ``tight_budget_s`` on the last example it takes
  (after its other runs, so that no compilation is left), it returns on its own, any claim,
  within the budget plus the grace (killed by the watchdog is ``timeout``, a failure). An
  example a solver finishes within the grace cannot catch one that ignores its budget:
  examples are small so that the suite stays cheap.

All runs of a class are made once (a class-scoped fixture: one runner, one worker, each
solver imported and prepared once; numba compiles once per machine).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import instances
from bench.execute.runner import GRACE_S, LadderScheduler, Runner
from bench.plan.registry import load_solver, solver_index
from bench.plan.specs import InstanceRef, resolve, resolve_one
from bench.plan.suite import SolverConfig, Task, run_key
from bench.table.schema import SUCCESS
from bench.views.pictures import draw_figure, figure_bytes
from instances.family import contract_breaches

#: JSON values that answer no instance of any family.
GARBAGE: tuple[Any, ...] = (None, 0, "not an answer", ["not", "an", "answer"],
                            {"not an answer": True})

#: The fresh interpreter's script: each spec's instance_id, as JSON.
IDS_SCRIPT = ("import json, sys\nfrom bench.plan.specs import resolve_one\n"
              "print(json.dumps({s: resolve_one(s).instance_id for s in sys.argv[1:]}))")


@dataclass
class Runs:
    """The rows of a class's runs: ``answers[(solver, example)]`` (None where the solver does
    not take the example), ``budget[solver]`` (None where it takes no example)."""

    answers: dict[tuple[str, str], dict[str, Any] | None]
    budget: dict[str, dict[str, Any] | None]
    refs: dict[str, InstanceRef]


def shortened(data: Any) -> Any:
    """``data`` with the last element of its longest list or string removed (None if it has
    neither)."""
    places: list[tuple[int, tuple[Any, ...]]] = []

    def walk(value: Any, path: tuple[Any, ...]) -> None:
        if isinstance(value, (list, str)) and value:
            places.append((len(value), path))
        if isinstance(value, list):
            for i, item in enumerate(value):
                walk(item, (*path, i))
        elif isinstance(value, dict):
            for key, item in value.items():
                walk(item, (*path, key))

    walk(data, ())
    if not places:
        return None
    _, path = max(places, key=lambda place: place[0])
    if not path:
        return data[:-1]
    copy = json.loads(json.dumps(data))
    parent = copy
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = parent[path[-1]][:-1]
    return copy


def verdict_of(family: Any, instance: Any, data: Any) -> tuple[bool, str]:
    """(solved, why not) of an answer's JSON: refused by ``solution_from_json`` is not solved."""
    try:
        solution = family.solution_from_json(data, instance)
    except Exception as exc:  # a malformed answer: refused, as the contract asks
        return False, f"refused: {type(exc).__name__}: {exc}"
    verdict = family.check(instance, solution)
    return bool(verdict.solved), verdict.reason


def row_text(row: dict[str, Any]) -> str:
    """A run's outcome for a failure message."""
    why = row.get("verdict") or row.get("message") or ""
    return f"{row['status']} (claimed {row.get('claimed')}; {why}; t_wall {row.get('t_wall')})"


def example_id(spec: str) -> str:
    """A test id for an example: the spec, or a file's name."""
    return Path(spec).name if os.sep in spec and Path(spec).is_file() else spec


def accepts_reason(spec: Any) -> str:
    """Why a solver does not take an instance, from its declared ``accepts``."""
    doc = (getattr(spec.accepts, "__doc__", None) or "").strip().split("\n")[0]
    name = getattr(spec.accepts, "__name__", "accepts")
    return f"{spec.key} declares it does not take this instance ({name}: {doc or 'no reason'})"


class FamilyConformance:
    """Subclass it in a test module, setting ``family``; see the module docstring."""

    #: The family's name (its ``cliffbench.families`` entry point).
    family: str = ""
    #: Instance specs to use instead of the family's declared ``examples``.
    examples: tuple[str, ...] | None = None
    #: The budget of each answer run, and the tight budget the solvers must stop at.
    budget_s: float = 10.0
    tight_budget_s: float = 0.05
    mem_mb: int = 3000

    # -- what is tested ---------------------------------------------------------------------

    @classmethod
    def declared(cls) -> Any:
        if not cls.family:
            raise TypeError(f"{cls.__name__}: set family = '<the family's name>'")
        return instances.family(cls.family)

    @classmethod
    def example_specs(cls) -> tuple[str, ...]:
        return tuple(cls.examples if cls.examples is not None else cls.declared().examples)

    @classmethod
    def solver_keys(cls) -> list[str]:
        """Every installed solver of the family (``family/name``)."""
        return sorted(key for key, entry in solver_index().items()
                      if entry["meta"]["family"] == cls.family)

    def pytest_generate_tests(self, metafunc: Any) -> None:
        names = metafunc.fixturenames
        specs, solvers = self.example_specs(), self.solver_keys()
        if "solver" in names and "example" in names:
            pairs = [(s, e) for s in solvers for e in specs]
            metafunc.parametrize(("solver", "example"), pairs,
                                 ids=[f"{s}-{example_id(e)}" for s, e in pairs])
        elif "example" in names:
            metafunc.parametrize("example", specs, ids=[example_id(e) for e in specs])
        elif "solver" in names:
            metafunc.parametrize("solver", solvers)

    # -- the runs, once per class -----------------------------------------------------------

    @pytest.fixture(scope="class")
    @classmethod
    def runs(cls, tmp_path_factory: Any) -> Runs:
        """Every solver on every example it takes (``budget_s``), then on the last one it takes
        with ``tight_budget_s``, in one runner of one worker."""
        refs = {spec: resolve_one(spec) for spec in cls.example_specs()}
        tasks: list[Task] = []
        where: dict[str, tuple[str, str | None]] = {}

        def add(config: SolverConfig, spec: str, budget: float, kind: str) -> None:
            ref = refs[spec]
            key = run_key(config, ref.instance_id, 0, 1, budget, cls.mem_mb, 1)
            tasks.append(Task(key, ref, config, 0, 1, budget, cls.mem_mb, 1))
            where[key] = (config.spec.key, spec if kind == "answer" else None)

        answers: dict[tuple[str, str], dict[str, Any] | None] = {}
        budget: dict[str, dict[str, Any] | None] = {}
        for key in cls.solver_keys():
            spec = load_solver(key)
            if spec.unavailable():  # a program that is not installed: its tests skip
                continue
            config = SolverConfig(spec, spec.defaults(), spec.name)
            taken = [s for s in refs if spec.applies_to(refs[s].instance)]
            answers.update({(key, s): None for s in refs})
            budget[key] = None
            for s in taken:
                add(config, s, cls.budget_s, "answer")
            if taken:
                add(config, taken[-1], cls.tight_budget_s, "budget")
        rows: list[dict[str, Any]] = []
        runner = Runner(jobs=1, log_dir=tmp_path_factory.mktemp("conformance-workers"))
        runner.run(LadderScheduler(tasks, {}), f"conformance-{cls.family}", rows.append)
        for row in rows:
            solver, spec = where[row["key"]]
            if spec is None:
                budget[solver] = row
            else:
                answers[(solver, spec)] = row
        return Runs(answers, budget, refs)

    @pytest.fixture(scope="class")
    @classmethod
    def fresh_ids(cls) -> dict[str, str]:
        """Each example's instance_id as a fresh interpreter with another hash seed has it."""
        env = {**os.environ, "PYTHONHASHSEED": "4242"}
        proc = subprocess.run([sys.executable, "-c", IDS_SCRIPT, *cls.example_specs()],
                              capture_output=True, text=True, env=env, timeout=300)
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout.strip().splitlines()[-1])

    def known_answers(self, example: str, runs: Runs) -> list[Any]:
        """The JSON of every answer known to solve the example: the secret, then the
        solvers' verified ones (each once)."""
        ref = runs.refs[example]
        found: list[Any] = []
        if ref.generated.secret is not None:
            found.append(ref.generated.secret.to_json(ref.instance))
        for (_, spec), row in sorted(runs.answers.items()):
            if spec == example and row and row["verified"] and row["status"] in SUCCESS:
                found.append(json.loads(row["solution"]))
        unique = {json.dumps(a, sort_keys=True): a for a in found}
        return list(unique.values())

    # -- the family -------------------------------------------------------------------------

    def test_contract(self) -> None:
        family = self.declared()
        assert contract_breaches(family, self.family) == []
        specs = self.example_specs()
        assert specs, (f"family {self.family!r} declares no examples: give Family(examples="
                       f"('{self.family}/<generator>:<params>', ...)), a few small instances")
        ids = {}
        for spec in specs:
            refs = resolve(spec)
            assert len(refs) == 1, f"example {spec!r} names {len(refs)} instances, not one"
            assert refs[0].family == self.family, f"example {spec!r} is of {refs[0].family}"
            ids.setdefault(refs[0].instance_id, []).append(spec)
        same = [names for names in ids.values() if len(names) > 1]
        assert not same, f"examples {same[0]} are the same instance"

    def test_renders_and_draws(self, example: str, runs: Runs) -> None:
        family, ref = self.declared(), runs.refs[example]
        answers = [family.solution_from_json(a, ref.instance)
                   for a in self.known_answers(example, runs)[:1]]
        for answer in [None, *answers]:
            text = family.render(ref.instance, answer)
            assert isinstance(text, str) and text.strip()
            figure = draw_figure(ref.instance, answer)  # the family's drawer, or a text card
            assert figure.axes, "the picture has nothing drawn"
            assert figure_bytes(figure, "png").startswith(b"\x89PNG")

    def test_generator_is_deterministic(self, example: str, fresh_ids: dict[str, str]) -> None:
        family = self.declared()
        first, again = resolve_one(example), resolve_one(example)
        assert first.instance.to_json() == again.instance.to_json()
        assert first.instance_id == again.instance_id
        assert fresh_ids[example] == first.instance_id, "another interpreter made another instance"
        data = json.loads(json.dumps(first.instance.to_json()))
        assert data["family"] == self.family
        assert family.instance_from_json(data).instance_id == first.instance_id

    def test_file_round_trip(self, example: str, tmp_path: Path) -> None:
        family, ref = self.declared(), resolve_one(example)
        path = tmp_path / f"example{family.suffixes[0]}"
        family.write_file(path, ref.instance, ref.generated.secret)
        back = resolve(str(path))
        assert [(r.family, r.instance_id) for r in back] == [(self.family, ref.instance_id)]
        secret = back[0].generated.secret
        if secret is not None:
            assert family.check(back[0].instance, secret).solved

    def test_answers_round_trip(self, example: str, runs: Runs, tmp_path: Path) -> None:
        family, instance = self.declared(), runs.refs[example].instance
        answers = self.known_answers(example, runs)
        if not answers:
            pytest.skip(f"no answer of {example} is known (no secret, no solver's answer)")
        for data in answers:
            data = json.loads(json.dumps(data))
            solution = family.solution_from_json(data, instance)
            assert solution.to_json(instance) == data
            assert family.check(instance, solution).solved
            path = tmp_path / "solve.json"  # what `cliffbench solve --json` prints
            path.write_text(json.dumps({"status": "solved", "solution": data}))
            assert family.read_solution(path, instance).to_json(instance) == data

    def test_broken_answers_are_rejected(self, example: str, runs: Runs) -> None:
        family, ref = self.declared(), runs.refs[example]
        broken = [(f"the value {value!r}", value) for value in GARBAGE]
        answers = self.known_answers(example, runs)
        if answers and shortened(answers[0]) is not None:
            broken.append(("a known answer shortened by one element", shortened(answers[0])))
        if ref.generated.known_solutions == 1:
            for other in runs.refs:
                theirs = self.known_answers(other, runs) if other != example else []
                broken += [(f"the answer of {other}", a) for a in theirs if a not in answers]
        for what, data in broken:
            solved, _ = verdict_of(family, ref.instance, data)
            assert not solved, f"{what} was accepted as a solution of {example}"

    # -- the solvers ------------------------------------------------------------------------

    @staticmethod
    def skip_unavailable(solver: str) -> None:
        why = load_solver(solver).unavailable()
        if why:
            pytest.skip(why)

    def test_solver_takes_an_example(self, solver: str, runs: Runs) -> None:
        self.skip_unavailable(solver)
        assert runs.budget[solver] is not None, (
            f"{solver} takes none of the examples {list(runs.refs)}: add one it takes")

    def test_solver_answers(self, solver: str, example: str, runs: Runs) -> None:
        self.skip_unavailable(solver)
        row = runs.answers[(solver, example)]
        if row is None:
            pytest.skip(accepts_reason(load_solver(solver)))
        assert row["status"] in SUCCESS, f"{solver} on {example}: {row_text(row)}"
        feasible = runs.refs[example].generated.feasible
        if feasible is False:
            assert row["status"] == "infeasible", f"{solver} on {example}: {row_text(row)}"
        if row["status"] != "infeasible" or row["solution"] is not None:
            assert row["verified"], f"{solver} on {example}: {row_text(row)}"
        assert row["t_wall"] <= self.budget_s + GRACE_S, f"{solver}: {row_text(row)}"

    def test_solver_stops_at_its_budget(self, solver: str, runs: Runs) -> None:
        self.skip_unavailable(solver)
        row = runs.budget[solver]
        if row is None:
            pytest.skip(f"{solver} takes no example (test_solver_takes_an_example fails)")
        assert row["status"] not in ("timeout", "memout", "crash", "error", "wrong"), (
            f"{solver} given {self.tight_budget_s} s: {row_text(row)}")
        assert row["t_wall"] <= self.tight_budget_s + GRACE_S, f"{solver}: {row_text(row)}"


__all__ = ["FamilyConformance", "Runs", "shortened", "verdict_of"]
