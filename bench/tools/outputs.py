"""How a program's answer is read: one reader per output convention.

A reader takes what the program printed (stdout), the file it wrote (``{output}``, for the
conventions that need one, else ""), and its exit code, and returns an ``Answer``: the claim
(``solved``, ``infeasible`` or ``unknown``), the values it gave (for a CNF, the set of true
variables; for MiniZinc, a dict name -> list of ints; for the family's own format, the
solution's text), and ``problem``, why the output contradicts itself ("" when it does not).
Nothing here decides whether an answer is right: the source's reader decodes the values and
the family's checker judges the solution.

- ``sat-competition``: the SAT competition's rules. ``s SATISFIABLE``, ``s UNSATISFIABLE`` or
  ``s UNKNOWN`` on a line, the model on ``v`` lines of literals ending with ``0``, exit code
  10 for satisfiable and 20 for unsatisfiable. CaDiCaL, PicoSAT, Kissat, CryptoMiniSat, ...
- ``minisat``: MiniSat's result file (its second argument): ``SAT`` then the literals and
  ``0``, or ``UNSAT``, or ``INDET``; exit codes 10 and 20 as above.
- ``cbc-solution``: CBC's solution file (``-solve -solu {output}``): a status line
  (``Optimal``, ``Infeasible``, ``Stopped on time``, ...) then ``index name value reduced-cost``
  lines, the columns left out being 0. An incumbent found before a stop is a solution; the
  relaxation's values (``no integer solution``) are not.
- ``glpk-solution``: GLPK's raw solution file (``glpsol -w {output}``): ``s mip ROWS COLS
  STATUS OBJECTIVE`` with STATUS ``o`` (optimal), ``f`` (feasible), ``n`` (no feasible
  solution) or ``u`` (undefined: stopped), then ``j COLUMN VALUE`` lines by column number.
- ``minizinc``: MiniZinc's solution stream on stdout (``minizinc --output-mode dzn``, or a
  model whose output item prints the same): each solution is ``name = value;`` assignments
  followed by ``----------``, the last printed being the answer; ``==========`` after it means
  the search is complete, ``=====UNSATISFIABLE=====`` that there is no solution,
  ``=====UNKNOWN=====`` (or no marker at all, exit code 0) that the search stopped without
  one; ``=====ERROR=====``, or a nonzero exit code without any marker, is no answer. A value
  is an integer, ``true``/``false``, a flat list ``[1, 2]`` (``[0: 1, 1: 2]`` with its
  indices), a 2-D literal ``[| 1, 2 | 3, 4 |]`` or ``arrayNd(RANGES, [...])``; the values are a
  dict name -> list of ints, row-major.
- ``family``: the family's own solution format (what its ``read_solution`` reads), in the
  ``{output}`` file when the command names one, else on stdout; exit code 0 with a solution
  for solved, 20 for "no solution exists".

An exit code that says neither, with no status line, is not an answer: the reader raises
``NoAnswer`` (the run becomes an ``error`` with the program's last words).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

SAT_EXIT, UNSAT_EXIT = 10, 20


class NoAnswer(RuntimeError):
    """The program stopped without an answer in its convention (a crash, a usage error)."""


@dataclass(frozen=True)
class Answer:
    """What a program claims, and the values it gave (None: none given, or not readable)."""

    claim: str
    values: Any = None
    problem: str = ""


@dataclass(frozen=True)
class Convention:
    """An output convention: its reader, and whether it reads a file the program writes."""

    read: Callable[[str, str, int], Answer]
    needs_file: bool = False
    doc: str = ""


def literals(lines: list[str], where: str) -> tuple[frozenset[int] | None, str]:
    """The true variables of model lines (integers ending with 0), or None and why not: a token
    that is no integer, a variable set both ways, no terminating 0."""
    true: set[int] = set()
    false: set[int] = set()
    ended = False
    for line in lines:
        for token in line.split():
            try:
                lit = int(token)
            except ValueError:
                return None, f"{where}: {token!r} is not a literal"
            if lit == 0:
                ended = True
                continue
            (true if lit > 0 else false).add(abs(lit))
    both = true & false
    if both:
        return None, f"{where}: variable {min(both)} is set both true and false"
    if not ended:
        return None, f"{where}: the model does not end with 0"
    return frozenset(true), ""


def exit_claim(code: int) -> str | None:
    return {SAT_EXIT: "solved", UNSAT_EXIT: "infeasible"}.get(code)


def agreed(status: str | None, code: int, what: str) -> tuple[str, str]:
    """The claim from a status word and the exit code, and a problem when they disagree."""
    by_code = exit_claim(code)
    if status is None:
        if by_code is None:
            raise NoAnswer(f"exit code {code} and no {what}")
        return by_code, ""
    if by_code is not None and by_code != status:
        return status, f"{what} says {status}, exit code {code} says {by_code}"
    return status, ""


SAT_WORDS = {"SATISFIABLE": "solved", "UNSATISFIABLE": "infeasible", "UNKNOWN": "unknown"}


def read_sat_competition(stdout: str, _file: str, code: int) -> Answer:
    statuses, model = [], []
    for line in stdout.splitlines():
        if line.startswith("s "):
            word = line[2:].strip()
            if word not in SAT_WORDS:
                return Answer("unknown", None, f"status line {line.strip()!r} is not one of "
                                               f"s SATISFIABLE|UNSATISFIABLE|UNKNOWN")
            statuses.append(SAT_WORDS[word])
        elif line.startswith("v ") or line.strip() == "v":
            model.append(line[1:])
    if len(set(statuses)) > 1:
        return Answer("unknown", None, f"status lines disagree: {', '.join(statuses)}")
    claim, problem = agreed(statuses[0] if statuses else None, code, "the s line")
    if claim != "solved":
        return Answer(claim, None, problem or ("v lines without a satisfiable claim"
                                               if model else ""))
    if not model:
        return Answer("solved", None, problem or "satisfiable, but no v lines (no model)")
    true, why = literals(model, "v lines")
    return Answer("solved", true, problem or why)


MINISAT_WORDS = {"SAT": "solved", "UNSAT": "infeasible", "INDET": "unknown"}


def read_minisat(_stdout: str, file: str, code: int) -> Answer:
    lines = file.splitlines()
    word = lines[0].strip() if lines else None
    if word is not None and word not in MINISAT_WORDS:
        return Answer("unknown", None, f"result file starts {word!r}, not SAT, UNSAT or INDET")
    claim, problem = agreed(MINISAT_WORDS.get(word) if word else None, code, "the result file")
    if claim != "solved":
        return Answer(claim, None, problem)
    if len(lines) < 2:
        return Answer("solved", None, problem or "SAT, but the result file holds no model")
    true, why = literals(lines[1:], "result file")
    return Answer("solved", true, problem or why)


def read_cbc(_stdout: str, file: str, code: int) -> Answer:
    lines = file.splitlines()
    if not lines:
        raise NoAnswer(f"exit code {code} and no solution file")
    status = lines[0].lower()
    if status.startswith("infeasible") or status.startswith("integer infeasible"):
        return Answer("infeasible")
    if not (status.startswith("optimal") or status.startswith("stopped")) \
            or "no integer solution" in status:
        return Answer("unknown")
    values: dict[str, float] = {}
    for number, line in enumerate(lines[1:], start=2):
        words = line.replace("**", " ").split()
        if not words:
            continue
        try:
            values[words[1]] = float(words[2])
        except (IndexError, ValueError):
            return Answer("solved", None, f"solution file line {number}: {line.strip()!r} is "
                                          f"not 'index name value reduced-cost'")
    return Answer("solved", values)


GLPK_STATUS = {"o": "solved", "f": "solved", "n": "infeasible", "u": "unknown"}


def read_glpk(_stdout: str, file: str, code: int) -> Answer:
    head = next((line.split() for line in file.splitlines() if line.startswith("s ")), None)
    if head is None:
        raise NoAnswer(f"exit code {code} and no solution line in the solution file")
    if len(head) < 5 or head[1] != "mip" or head[4] not in GLPK_STATUS:
        return Answer("unknown", None, f"solution line {' '.join(head)!r} is not "
                                       f"'s mip ROWS COLS o|f|n|u OBJECTIVE'")
    claim = GLPK_STATUS[head[4]]
    if claim != "solved":
        return Answer(claim)
    values: dict[int, float] = {}
    for line in file.splitlines():
        if line.startswith("j "):
            words = line.split()
            try:
                values[int(words[1]) - 1] = float(words[2])
            except (IndexError, ValueError):
                return Answer("solved", None, f"column line {line.strip()!r} is not 'j N VALUE'")
    return Answer("solved", values)


def read_family(stdout: str, file: str, code: int) -> Answer:
    if code == UNSAT_EXIT:
        return Answer("infeasible")
    if code != 0:
        raise NoAnswer(f"exit code {code} (0 with a solution, or 20 for none)")
    text = file if file.strip() else stdout
    if not text.strip():
        return Answer("solved", None, "exit code 0 and no solution printed")
    return Answer("solved", text)


SOLUTION_END, SEARCH_COMPLETE = "----------", "=========="
MZN_STATUS = {"=====UNSATISFIABLE=====": "infeasible", "=====UNKNOWN=====": "unknown",
              "=====UNBOUNDED=====": "unknown", "=====UNSATorUNBOUNDED=====": "unknown",
              "=====ERROR=====": "error"}
MZN_ASSIGNMENT = re.compile(r"([A-Za-z][A-Za-z0-9_]*)\s*=\s*([^;]*);")
MZN_ARRAY_ND = re.compile(r"^array\d+d\s*\((.*)\)$", re.DOTALL)


def mzn_ints(value: str) -> list[int] | None:
    """The integers of one MiniZinc value, row-major: ``5``, ``true``, ``[1, 2]``, ``[0: 1,
    1: 2]`` (indices dropped), ``[| 1, 2 | 3, 4 |]``, ``array2d(1..2, 1..2, [1, 2, 3, 4])``;
    None for anything else (a set, a float, a string)."""
    value = value.strip()
    nd = MZN_ARRAY_ND.match(value)
    if nd:  # the index sets come first; the values are the last bracketed list
        value = nd.group(1)[nd.group(1).find("["):] if "[" in nd.group(1) else ""
    if value.startswith("[|") and value.endswith("|]"):
        value = "[" + value[2:-2].replace("|", ",") + "]"
    if value.startswith("[") and value.endswith("]"):
        tokens = [t.split(":")[-1].strip() for t in value[1:-1].split(",")]
        tokens = [t for t in tokens if t]
    else:
        tokens = [value]
    out = []
    for token in tokens:
        if token in ("true", "false"):
            out.append(int(token == "true"))
            continue
        try:
            out.append(int(token))
        except ValueError:
            return None
    return out


def mzn_values(text: str) -> tuple[dict[str, list[int]], str]:
    """The assignments of one solution's text (``%`` comment lines left out), and a problem
    when one of them is no integer value or none is there at all."""
    text = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("%"))
    values: dict[str, list[int]] = {}
    for name, value in MZN_ASSIGNMENT.findall(text):
        ints = mzn_ints(value)
        if ints is None:
            return {}, f"the value of {name} is not integers: {' '.join(value.split())[:80]!r}"
        values[name] = ints
    if not values:
        return {}, f"a solution ({SOLUTION_END}) without 'name = value;' assignments"
    return values, ""


def read_minizinc(stdout: str, _file: str, code: int) -> Answer:
    """The last solution MiniZinc printed, or its status marker (see the module docstring)."""
    lines = [line.strip() for line in stdout.splitlines()]
    statuses = {MZN_STATUS[line] for line in lines if line in MZN_STATUS}
    if "error" in statuses:
        raise NoAnswer("=====ERROR=====")
    ends = [i for i, line in enumerate(lines) if line == SOLUTION_END]
    if not ends:
        if "infeasible" in statuses:
            return Answer("infeasible")
        if statuses or code == 0:
            return Answer("unknown")
        raise NoAnswer(f"exit code {code} and no solution or status line")
    if "infeasible" in statuses:
        return Answer("unknown", None, "a solution and =====UNSATISFIABLE===== both")
    start = ends[-2] + 1 if len(ends) > 1 else 0
    chunk = "\n".join(line for line in lines[start:ends[-1]] if line != SEARCH_COMPLETE)
    values, problem = mzn_values(chunk)
    return Answer("solved", values or None, problem)


OUTPUTS: dict[str, Convention] = {
    "sat-competition": Convention(read_sat_competition, doc="s and v lines, exit 10/20"),
    "minisat": Convention(read_minisat, needs_file=True,
                          doc="MiniSat's result file: SAT and the literals, UNSAT, INDET"),
    "cbc-solution": Convention(read_cbc, needs_file=True,
                               doc="CBC's solution file: a status line, then index name value"),
    "glpk-solution": Convention(read_glpk, needs_file=True,
                                doc="GLPK's raw solution file: s mip ... STATUS, j lines"),
    "minizinc": Convention(read_minizinc, doc="MiniZinc's dzn solutions ending ----------, "
                           "=====UNSATISFIABLE=====, =====UNKNOWN====="),
    "family": Convention(read_family, doc="the family's solution format; exit 0, or 20 for none"),
}
