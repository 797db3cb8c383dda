"""A 0-1 program in CSR arrays, and driving HiGHS (highspy) or CBC (PuLP) on it under a budget.

The ILP encoders of every family (``edgematch_ilp``, ``sudoku_ilp``) build a ``Program`` (their
``Model`` subclasses it with what the columns mean) and hand it here, so both MIP solvers answer
the very same rows and columns, and ``cliffbench export --to mps|lp`` writes that model.

HiGHS takes the rows as CSR arrays, with ``time_limit``, ``threads`` = ``budget.cores``,
``random_seed`` and a MIP interrupt callback at the deadline (``stop_at``). CBC is PuLP's
bundled binary, run as a subprocess on a PuLP problem with ``-sec`` = what is left after PuLP's
file writing and reading (estimated, ``PULP_IO``); CBC ignores SIGINT, so past that the
runner's kill (the worker's process group, CBC included) is the limit. Its work counters are
read back from its log, which PuLP writes to a file. With one core CBC runs serially
(``threads`` unset): CBC's ``threads 1`` is its parallel tree search with one worker thread, a
different algorithm. PuLP >= 3.3 warns that ``PULP_CBC_CMD`` and direct ``LpVariable``
construction go away in PuLP 4.0; those warnings are silenced here.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import highspy
import numpy as np
import pulp

from bench.api import Outcome

HIGHS_VERSION = (f"{highspy.HIGHS_VERSION_MAJOR}.{highspy.HIGHS_VERSION_MINOR}."
                 f"{highspy.HIGHS_VERSION_PATCH}")
# CBC's clock starts after PuLP has written the MPS file, and PuLP reads the answer back after
# it stops. Both cost about 1.3-2 times building the PuLP problem (12x12 edge matching, 26
# colours: build 0.5-0.75 s, writeMPS 0.8-1.0 s), so that much is kept off CBC's time limit.
PULP_IO = 2.0
INF = float("inf")


# --- the program ------------------------------------------------------------------------------


@dataclass(kw_only=True)
class Program:
    """A 0-1 program in backend-neutral arrays: row ``r`` has the columns
    ``index[starts[r]:starts[r + 1]]`` with the coefficients ``value[...]`` (CSR) and bounds
    ``row_lower[r]..row_upper[r]``. A family's subclass names it: ``NAME`` (the PuLP problem),
    ``TITLE`` (in HiGHS's errors), ``OBJECTIVE`` (the PuLP objective)."""

    NAME: ClassVar[str] = "program"
    TITLE: ClassVar[str] = "0-1"
    OBJECTIVE: ClassVar[str] = "objective"

    maximize: bool
    col_lower: np.ndarray
    col_upper: np.ndarray
    cost: np.ndarray
    col_names: list[str]
    row_lower: np.ndarray
    row_upper: np.ndarray
    row_names: list[str]
    starts: np.ndarray
    index: np.ndarray
    value: np.ndarray

    @property
    def ncols(self) -> int:
        return len(self.cost)

    @property
    def nrows(self) -> int:
        return len(self.row_lower)

    @property
    def nnz(self) -> int:
        return len(self.index)

    def rows(self) -> Iterator[tuple[str, np.ndarray, np.ndarray, float, float]]:
        """(name, columns, coefficients, lower, upper) per row, for row-by-row backends."""
        for r in range(self.nrows):
            lo, hi = self.starts[r], self.starts[r + 1]
            yield (self.row_names[r], self.index[lo:hi], self.value[lo:hi],
                   float(self.row_lower[r]), float(self.row_upper[r]))

    def counters(self) -> dict[str, float]:
        """The model's size as counters (a family's model adds its own)."""
        return {"rows": self.nrows, "columns": self.ncols, "nonzeros": self.nnz}


def sized(out: Outcome, model: Program, t_encode: float, t_solve: float) -> Outcome:
    """The model's size and the encode/solve split into ``out`` (model counters first)."""
    out.counters = {**model.counters(), **out.counters}
    out.model_vars, out.model_constraints = model.ncols, model.nrows
    out.t_encode, out.t_solve = t_encode, t_solve
    return out


# --- HiGHS ------------------------------------------------------------------------------------


def to_highs(model: Program, names: bool = False) -> Any:
    """A silent Highs holding the model (names only when it is going to be written)."""
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = model.ncols, model.nrows
    lp.col_cost_, lp.col_lower_, lp.col_upper_ = model.cost, model.col_lower, model.col_upper
    lp.row_lower_, lp.row_upper_ = model.row_lower, model.row_upper
    lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
    lp.a_matrix_.num_col_, lp.a_matrix_.num_row_ = model.ncols, model.nrows
    lp.a_matrix_.start_, lp.a_matrix_.index_ = model.starts, model.index
    lp.a_matrix_.value_ = model.value
    lp.integrality_ = [highspy.HighsVarType.kInteger] * model.ncols
    lp.sense_ = highspy.ObjSense.kMaximize if model.maximize else highspy.ObjSense.kMinimize
    if names:
        lp.col_names_, lp.row_names_ = model.col_names, model.row_names
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    if h.passModel(lp) == highspy.HighsStatus.kError:
        raise RuntimeError(f"HiGHS rejected the {model.TITLE} model")
    return h


def configure_highs(h: Any, limit: float, cores: int, seed: int, log: bool,
                    **options: float) -> None:
    """Pass the budget on (and ``options``, HiGHS option names). HiGHS sizes one process-wide
    thread pool when it first solves and refuses a later run asking for another size, so the
    pool is reset first (a worker may run budgets of different cores)."""
    highspy.Highs.resetGlobalScheduler(True)
    for name, value in (("time_limit", float(limit)), ("threads", int(cores)),
                        ("random_seed", int(seed) % (2**31)), *options.items(),
                        ("output_flag", bool(log))):
        h.setOptionValue(name, value)


def stop_at(h: Any, deadline: float) -> None:
    """Interrupt the MIP at its next interrupt callback after ``deadline``
    (``time.monotonic()``), incumbent kept. HiGHS checks ``time_limit`` only now and then:
    on a 7x7 edge-matching score model the callback came 13 times in 2 s (stopping a 2.0 s run
    at 2.04 s) but neither it nor ``time_limit`` fired inside one 0.9 s root LP re-solve, so a
    run can still overrun by about one such solve (the runner's kill is the backstop)."""

    def check(event: Any) -> None:
        if time.monotonic() >= deadline:
            event.interrupt()

    h.cbMipInterrupt.subscribe(check)


def highs_proof(h: Any, model: Program) -> bool | None:
    """What HiGHS's model status proves: True, its point is optimal (or the model empty);
    False, no point exists (a bounded 0-1 program is never unbounded, so 'unbounded or
    infeasible' is infeasible); None, neither (stopped). A model or solver error is a bug and
    raises."""
    ms, S = h.getModelStatus(), highspy.HighsModelStatus
    if ms in (S.kOptimal, S.kModelEmpty):
        return True
    if ms in (S.kInfeasible, S.kUnboundedOrInfeasible):
        return False
    if ms in (S.kLoadError, S.kModelError, S.kPresolveError, S.kSolveError, S.kPostsolveError):
        raise RuntimeError(f"HiGHS failed on the {model.TITLE} model: "
                           f"{h.modelStatusToString(ms)}")
    return None


def has_point(h: Any) -> bool:
    """Whether HiGHS holds a feasible point (an incumbent, or the optimum)."""
    return h.getInfo().primal_solution_status == highspy.kSolutionStatusFeasible


def warm_highs(model: Program, **options: float) -> None:
    """Load HiGHS (its banner prints here, once per process) and solve a tiny model."""
    h = to_highs(model)
    configure_highs(h, 10.0, 1, 0, False, **options)
    h.run()


def column_values(model: Program, values: dict[Any, float]) -> np.ndarray:
    """The column vector of another program's answer: ``values`` maps column names (CBC's
    solution file) or 0-based column numbers (GLPK's) to values; a column left out is 0.
    Raises KeyError on a name the model does not have."""
    out = np.zeros(len(model.col_names))
    index = {name: i for i, name in enumerate(model.col_names)}
    for key, value in values.items():
        out[index[key] if isinstance(key, str) else int(key)] = value
    return out


def write_model(model: Program, path: Path | str, suffix: str) -> None:
    """Write the model through HiGHS, which picks the format by the file name's suffix: it
    writes to a temporary ``.mps``/``.lp`` name and the file is moved to ``path``."""
    h = to_highs(model, names=True)
    folder = tempfile.mkdtemp(prefix="cliffbench-ilp-")
    try:
        tmp = os.path.join(folder, f"model{suffix}")
        if h.writeModel(tmp) == highspy.HighsStatus.kError:
            raise RuntimeError(f"HiGHS could not write {suffix} to {path}")
        shutil.move(tmp, str(path))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# --- CBC through PuLP -------------------------------------------------------------------------


@contextlib.contextmanager
def quiet_pulp() -> Iterator[None]:
    """PuLP >= 3.3 warns (DeprecationWarning) on APIs it drops in 4.0; they work until then."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        yield


def to_pulp(model: Program) -> tuple[Any, list[Any]]:
    """A PuLP problem of the model and its variables (column order)."""
    with quiet_pulp():
        prob = pulp.LpProblem(model.NAME, pulp.LpMaximize if model.maximize
                              else pulp.LpMinimize)
        xs = [pulp.LpVariable(name, lo, hi, cat=pulp.LpInteger) for name, lo, hi in
              zip(model.col_names, model.col_lower.tolist(), model.col_upper.tolist(),
                  strict=True)]
        prob += pulp.LpAffineExpression([(xs[i], c) for i, c in
                                         enumerate(model.cost.tolist()) if c]), model.OBJECTIVE
        for name, cols, coefs, lo, hi in model.rows():
            expr = pulp.LpAffineExpression([(xs[i], c) for i, c in
                                            zip(cols.tolist(), coefs.tolist(), strict=True)])
            sense, rhs = ((pulp.LpConstraintEQ, lo) if lo == hi else
                          (pulp.LpConstraintLE, hi) if lo == -INF else (pulp.LpConstraintGE, lo))
            prob += pulp.LpConstraint(expr, sense, name, rhs)
    return prob, xs


def cbc_command(limit: float, cores: int, seed: int, log_path: str, **options: Any) -> Any:
    """PuLP's bundled CBC, held to the budget; serial with one core (see the module doc);
    ``options`` are more of ``PULP_CBC_CMD``'s arguments (gaps)."""
    with quiet_pulp():
        return pulp.PULP_CBC_CMD(msg=False, timeLimit=limit,
                                 threads=cores if cores > 1 else None, logPath=log_path,
                                 options=[f"randomCbcSeed {int(seed) % (2**31)}"], **options)


def run_cbc(prob: Any, limit: float, cores: int, seed: int, log: bool,
            **options: Any) -> tuple[str, float]:
    """Solve with CBC; returns its log and the wall seconds the whole call took (PuLP writing
    the MPS file, CBC, PuLP reading the answer)."""
    folder = tempfile.mkdtemp(prefix="cliffbench-cbc-")
    try:
        log_path = os.path.join(folder, "cbc.log")
        start = time.perf_counter()
        command = cbc_command(limit, cores, seed, log_path, **options)
        command.tmpDir = folder  # PuLP's model and answer files go with the folder
        with quiet_pulp():
            prob.solve(command)
        took = time.perf_counter() - start
        text = Path(log_path).read_text(errors="replace") if os.path.exists(log_path) else ""
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if log:
        print(text)
    return text, took


def cbc_proved_infeasible(prob: Any, log_text: str, limit: float | None = None) -> bool:
    """Whether CBC proved the program infeasible: PuLP read that status and CBC's own log says
    so ("Problem is infeasible", "Problem proven infeasible"). A run its time limit stopped
    proves nothing, whatever PuLP read, and without a log there is no proof. Nor is a claim
    taken that CBC made once its wall clock (the log's last "Wallclock seconds") had reached
    ``CLOCK_SHARE`` of its time ``limit``: CBC's preprocessing is known to call some feasible
    programs infeasible (coin-or/Cbc issues 466, 740, 747), planted feasible boards have been
    claimed infeasible on a loaded machine at short limits, and a claim made at the limit is
    where a proof and a cut-off cannot be told apart: it is ``unknown``, never wrong."""
    text = log_text.lower()
    if limit is not None:
        walls = re.findall(r"wallclock seconds\):\s+" + FLOAT, text)
        if walls and float(walls[-1]) >= CLOCK_SHARE * limit:
            return False
    return (prob.status == pulp.LpStatusInfeasible and "infeasible" in text
            and "stopped on time" not in text)


#: The share of its time limit from which CBC's infeasibility claims are not taken.
CLOCK_SHARE = 0.9


def cbc_found(prob: Any) -> bool:
    """Whether CBC left a point in the variables (optimal, or an incumbent when stopped)."""
    return prob.sol_status in (pulp.LpSolutionOptimal, pulp.LpSolutionIntegerFeasible)


def warm_cbc(model: Program, **options: Any) -> None:
    """Check that PuLP's bundled CBC runs, on a tiny model."""
    with quiet_pulp():
        if not pulp.PULP_CBC_CMD().available():
            raise RuntimeError("PuLP's bundled CBC is not available on this machine")
    prob, _ = to_pulp(model)
    run_cbc(prob, 10.0, 1, 0, False, **options)


FLOAT = r"(-?[\d.]+(?:e[-+]?\d+)?)"
CBC_FIELDS = {"nodes": r"Enumerated nodes:\s+" + FLOAT,
              "cbc_objective": r"Objective value:\s+" + FLOAT,
              "best_bound": r"(?:Lower|Upper) bound:\s+" + FLOAT,
              "iterations": r"Total iterations:\s+" + FLOAT,
              "cbc_wall": r"Time \(Wallclock seconds\):\s+" + FLOAT}
CBC_INCUMBENT = re.compile(r"Integer solution of " + FLOAT + r" found.*?\(" + FLOAT
                           + r" seconds\)")


def parse_cbc_log(text: str, maximize: bool) -> tuple[dict[str, float], list[tuple[float, float]]]:
    """Counters from CBC's closing summary, and (CBC seconds, objective) of each incumbent.

    The summary speaks the model's sense ("Objective value", and "Upper bound" when
    maximizing, "Lower bound" when minimizing; no bound line once optimal). With ``-max`` CBC
    minimizes the negated objective, so its "Integer solution of -58" lines are turned back.
    CBC's own "Gap" is (objective - bound) / bound with a sign; ``gap`` here is HiGHS's
    definition, |bound - objective| / max(1, |objective|), so the two backends compare."""
    counters = {}
    for name, pattern in CBC_FIELDS.items():
        found = re.search(pattern, text)
        if found:
            counters[name] = float(found.group(1))
    if "cbc_objective" in counters:
        counters.setdefault("best_bound", counters["cbc_objective"])
        counters["gap"] = (abs(counters["best_bound"] - counters["cbc_objective"])
                           / max(1.0, abs(counters["cbc_objective"])))
    sign = -1.0 if maximize else 1.0
    trace = [(float(t), sign * float(v)) for v, t in CBC_INCUMBENT.findall(text)]
    return counters, trace
