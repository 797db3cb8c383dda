"""A tool adapter as registered solvers: one per source, in the source's family.

A source is either a solver's model (``module:family/solver``: the solver's export writes the
input file, ``SolverSpec.exports``, and its reader decodes the answer through the same variable
map, ``SolverSpec.reads``) or the family's own files (``family:NAME``, with ``input =
"family"``: the family's ``write_file`` writes the instance in its first format, ``.emp`` or
``.pls``, and its ``read_solution`` reads the program's solution).

A tool's run, in the worker (the harness owns its limits as for any solver):

1. the source writes the instance's model or file to a folder of the run's own (under the
   worker's ``TMPDIR``), with the run's export parameters;
2. the program runs on it (``bench.tools.program``), its command line filled in with the file,
   the budget, the seed, the cores and the memory;
3. the tool's output convention reads the claim and the values (``bench.tools.outputs``);
4. the source decodes the values to the family's solution; the harness's checker then judges
   it like any other solver's answer.

A claim the output contradicts (a status line against the exit code, a model that does not
read) keeps the claim, drops the solution and says why in the row's ``message``: the harness
then records a ``solved`` claim without a solution as ``wrong``. A program that is missing, or
that ends without an answer, makes the run an ``error`` saying so. The tool's parameters are
the source solver's export parameters (those the export function names), with its defaults.
"""

from __future__ import annotations

import importlib
import inspect
import math
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import instances
from bench.api import REGISTRY, Budget, Outcome, Param, SolverSpec, register
from bench.tools.adapter import Tool, ToolError
from bench.tools.outputs import NoAnswer
from bench.tools.program import run_program

FAMILY_INPUT = "family"


@dataclass(frozen=True)
class Source:
    """What a tool solves: ``write(instance, path, **params)`` makes its input file,
    ``read(instance, values, **params)`` the family's solution of its answer (None: none)."""

    family: str
    name: str
    suffix: str
    write: Callable[..., None]
    read: Callable[..., Any]
    params: tuple[Param, ...] = ()
    accepts: Callable[[Any], bool] | None = None


def source_of(tool: Tool, source: str) -> Source:
    """The source a tool names, its module imported, checked to write and read the tool's
    input format."""
    where = f"{tool.origin or 'tools'}: tool {tool.name!r}: source {source!r}"
    module, key = source.split(":", 1)
    if module == "family":
        return family_source(tool, key, where)
    if tool.input == FAMILY_INPUT:
        raise ToolError(f"{where}: input 'family' takes 'family:NAME' sources")
    try:
        importlib.import_module(module)
    except ImportError as exc:
        raise ToolError(f"{where}: cannot import {module}: {exc}") from None
    spec = REGISTRY.get(key)
    if spec is None:
        raise ToolError(f"{where}: module {module} registers no solver {key!r}")
    for what, table in (("export", spec.exports), ("read", spec.reads)):
        if tool.input not in table:
            raise ToolError(f"{where}: {key} does not {what} {tool.input!r} (it "
                            f"{what}s: {', '.join(sorted(table)) or 'nothing'})")
    read = spec.reads[tool.input]
    return Source(spec.family, spec.key, f".{tool.input}", spec.exports[tool.input],
                  lambda instance, values, **params: read(instance, set(values), **params)
                  if tool.input == "cnf" else read(instance, values, **params),
                  export_params(spec, tool.input), spec.accepts)


def family_source(tool: Tool, name: str, where: str) -> Source:
    if tool.input != FAMILY_INPUT:
        raise ToolError(f"{where}: a family source takes input = 'family'")
    try:
        family = instances.family(name)
    except Exception as exc:
        raise ToolError(f"{where}: {exc}") from None

    def write(instance: Any, path: Path, **_: Any) -> None:
        family.write_file(path, instance, None)

    def read(instance: Any, text: str, **_: Any) -> Any:
        answer = Path(tempfile.mkdtemp(prefix="cliffbench-answer-")) / "answer.txt"
        try:
            answer.write_text(text)
            return family.read_solution(answer, instance)
        except ValueError:
            return None
        finally:
            shutil.rmtree(answer.parent, ignore_errors=True)

    return Source(name, f"{name} files", family.suffixes[0], write, read)


def export_params(spec: SolverSpec, fmt: str) -> tuple[Param, ...]:
    """The source's parameters that its export in ``fmt`` takes by name."""
    signature = inspect.signature(spec.exports[fmt])
    named = {name for name, p in list(signature.parameters.items())[2:]
             if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    return tuple(p for p in spec.params if p.name in named)


def register_tool(tool: Tool, module: str) -> list[SolverSpec]:
    """Register ``tool`` once per source (``module`` is what the registry records as the
    declaring module); the specs registered."""
    specs = []
    backend = tool.backend()
    for name in tool.sources:
        source = source_of(tool, name)
        doc = tool.doc or f"the program {tool.executable} on {source.name}"
        specs.append(register(SolverSpec(
            name=tool.name, family=source.family, paradigm=tool.paradigm, backend=backend,
            params=source.params, solve=program_solver(tool, source), doc=doc, module=module,
            accepts=source.accepts, missing=tool_missing(tool))))
    return specs


def tool_missing(tool: Tool) -> Callable[[], str]:
    """``SolverSpec.missing`` of a tool: why its program cannot run here, "" when it can."""
    return lambda: tool.missing_message() if tool.path() is None else ""


def program_solver(tool: Tool, source: Source) -> Callable[..., Outcome]:
    """The solve function of ``tool`` on ``source`` (see the module docstring)."""

    def solve(instance: Any, budget: Budget, seed: int, **params: Any) -> Outcome:
        path = tool.path()
        if path is None:
            raise RuntimeError(tool.missing_message())
        folder = Path(tempfile.mkdtemp(prefix=f"cliffbench-{tool.name}-"))
        try:
            start = time.perf_counter()
            input_path = folder / f"input{source.suffix}"
            source.write(instance, input_path, **params)
            t_encode = time.perf_counter() - start
            left = budget.remaining()
            if left <= 0:
                return Outcome("unknown", t_encode=t_encode, note="the budget ran out while "
                               "the input file was written")
            answer_path = folder / "answer.txt"
            values = {"executable": path, "input": str(input_path), "output": str(answer_path),
                      "timeout": max(1, math.ceil(left)), "seconds": f"{left:.3f}",
                      "milliseconds": max(1000, int(left * 1000)),
                      "seed": int(seed), "threads": budget.cores, "memory": budget.mem_mb}
            ran = run_program(tool.argv(values), folder)
            if ran.cut:
                raise RuntimeError(f"{tool.executable} printed more than the output cap; "
                                   f"its output was cut and the program killed")
            written = answer_path.read_text(errors="replace") if answer_path.exists() else ""
            try:
                answer = tool.read_answer(ran.stdout, written, ran.code)
            except NoAnswer as exc:
                raise RuntimeError(f"{tool.executable}: {exc}; its last output: "
                                   f"{ran.stderr_tail[-800:] or ran.stdout[-800:]}") from None
            solution, note = None, answer.problem
            if answer.claim == "solved" and answer.values is not None and not note:
                solution = source.read(instance, answer.values, **params)
                if solution is None:
                    note = f"the answer does not read as a {source.family} solution"
            out = Outcome(answer.claim, solution=solution, t_encode=t_encode,
                          t_solve=ran.seconds, note=f"{tool.executable}: {note}" if note else "")
            out.counters = {"input_bytes": input_path.stat().st_size, "exit_code": ran.code}
            return out
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    solve.__doc__ = tool.doc
    return solve
