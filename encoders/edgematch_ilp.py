"""Edge matching as a 0-1 integer program, solved by HiGHS (highspy) or by CBC (PuLP).

One model builder, two backends, so the two MIP solvers answer the very same rows and columns
(and ``cliffbench export --to mps|lp`` writes that model). Its shape:

- **Placements.** A binary ``x[cell, piece, rot]`` per frame-legal orientation (grey exactly on
  the cell's outer sides), a symmetric piece's repeated looks once; a hinted cell keeps only its
  pinned placement, with its column fixed to 1, and the hinted piece leaves every other cell.
  These are ``encoders.edgematch_placements.cell_placements``, shared so every encoder prunes
  alike.
- ``cell_c``: one placement per cell (= 1); ``piece_p``: one placement per piece (= 1).
- **Seam colours.** Per interior join ``j`` a binary ``y[j, k]`` per colour ``k`` both of its
  cells can show there.

``maximize="none"``, the feasibility model (objective 0):

- ``seam_j``: ``sum_k y[j, k] = 1``;
- ``link_j_c_k``: for each of the join's two cells ``c`` and each colour ``k``, the sum of the
  placements of ``c`` showing ``k`` on the join ``= y[j, k]``. With equality on both sides the
  two cells show the same colour: the link is tight (its LP relaxation already forces the two
  cells' colour distributions on the join to agree), and the seam row is implied by the cell
  rows but kept so that every join reads as one choice of colour;
- a placement showing, on some join, a colour the other cell can never show there could only be
  0, so it gets no column at all (one pass, like the SAT encoder's unit clauses).

``maximize="joins"``, the score mode (Eternity II): every cell still holds exactly one piece, so
every answer is a full legal board, but joins may mismatch:

- ``y[j, k]`` now reads "join ``j`` is matched in colour ``k``"; ``seam_j``: ``sum_k y[j, k] <=
  1``; ``link_j_c_k``: ``y[j, k] <= sum of the placements of c showing k there`` for both cells
  ``c``, i.e. ``y[j, k] <= min(A_k, B_k)`` where ``A_k, B_k`` in {0, 1} say whether each cell
  shows ``k``; objective: maximize ``sum y``.
- Why the optimum is the best score: on any full legal board set ``y[j, k] = 1`` exactly where
  both cells show ``k``; the rows hold and the objective is its number of matched joins. Every
  feasible point has ``y[j, k] = 1`` only where both cells show ``k`` (the links), at most one
  ``k`` per join (a cell shows one colour on a side), so its objective is at most its board's
  matched joins. Hence max objective = max matched joins over full legal boards, and an
  incumbent's objective is a lower bound on its board's score. Placements are not pruned here:
  a mismatching one is legal.

Solving and claims. Feasibility: a solution is ``solved`` (checked by the harness), a proof of
no solution ``infeasible``, else ``unknown``. Score mode: ``optimal`` only when the MIP proved
its incumbent optimal (the objective is an integer, so both solvers are told that a gap below 1
is a proof: relative gap 0, absolute gap 0.999); otherwise ``unknown`` with the best incumbent
board, whose score the harness records. A cell or piece left with no placement at all is
``infeasible`` before any solver runs (``counters["empty_rows"]``).

Backends. ``ilp-highs`` passes the model to HiGHS as CSR arrays, with ``time_limit`` =
``budget.remaining()``, ``threads`` = ``budget.cores``, ``random_seed`` = the run's seed, and a
MIP interrupt callback at the deadline; in score mode an improving-solution callback records
``score_trace``. ``ilp-cbc`` builds a PuLP problem and runs PuLP's bundled CBC as a subprocess
with ``-sec`` = what is left after PuLP's file writing and reading (estimated, ``PULP_IO``).
Neither solver looks at the clock everywhere: in root processing HiGHS overran a 2.45 s limit
by 0.6 s (7x7, score mode) and CBC a 0.53 s limit by 2.7 s (8x8, feasibility; CBC's pump and
heuristics on the zero objective), both measured under load. There the runner's kill (the
worker's process group, CBC included, at the budget plus its grace) is the limit, and the row
says ``timeout``; CBC ignores SIGINT meanwhile, so it cannot be asked to stop early and keep
its incumbent. CBC's work counters and the score-mode trace
are read back from CBC's log, which PuLP writes to a file: nodes ("Enumerated nodes"), best
bound, gap, and "Integer solution of ... (T seconds)" lines (CBC's clock starts after PuLP has
written the MPS file; the trace is shifted by that start, estimated from CBC's total wall time).
With one core CBC runs serially (``threads`` unset): CBC's ``threads 1`` is its parallel
tree search with one worker thread, a different algorithm. PuLP >= 3.3 warns that
``PULP_CBC_CMD`` and direct ``LpVariable`` construction go away in PuLP 4.0; those warnings are
silenced here.

Piece indices are the instance's 0..P-1; rotations follow ``instances.edgematch.model`` (after
``rot`` clockwise quarter turns side ``s`` shows listed edge ``(s - rot) % 4``); joins are
numbered as ``encoders.edgematch_placements.interior_joins`` (horizontal ones row-major, then
vertical ones). Column names in exports: ``x_CELL_PIECE_ROT``, ``y_JOIN_COLOUR``.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import highspy
import numpy as np
import pulp

from bench.api import Budget, Outcome, Param, solver
from encoders.edgematch_placements import (
    Join,
    cell_placements,
    hint_positions,
    interior_joins,
    join_domains,
)
from instances.edgematch.model import Instance, Solution

MAXIMIZE = ("none", "joins")
HIGHS_VERSION = (f"{highspy.HIGHS_VERSION_MAJOR}.{highspy.HIGHS_VERSION_MINOR}."
                 f"{highspy.HIGHS_VERSION_PATCH}")
# Kept off the budget for reading the answer back, so the solver stops before the watchdog.
MARGIN_S = 0.05
# The objective counts joins, an integer: a gap below 1 proves the incumbent optimal.
ABS_GAP = 0.999
# CBC's clock starts after PuLP has written the MPS file, and PuLP reads the answer back after
# it stops. Both cost about 1.3-2 times building the PuLP problem (12x12, 26 colours: build
# 0.5-0.75 s, writeMPS 0.8-1.0 s), so that much is kept off CBC's time limit.
PULP_IO = 2.0
INF = float("inf")


# --- the model --------------------------------------------------------------------------------


@dataclass
class CellOptions:
    """One cell's placements: pieces, rotations, colours shown (rows N, E, S, W), first column."""

    piece: np.ndarray
    rot: np.ndarray
    shown: np.ndarray
    first: int = 0

    def __len__(self) -> int:
        return len(self.piece)

    def columns(self, mask: np.ndarray | None = None) -> np.ndarray:
        """Column numbers of the placements (of those selected by ``mask``)."""
        index = np.arange(len(self)) if mask is None else np.nonzero(mask)[0]
        return self.first + index


@dataclass
class Model:
    """A 0-1 program in backend-neutral arrays (rows in CSR), and what its columns mean:
    column ``i < len(placements)`` is placement ``placements[i]`` = (cell, piece, rot); the
    rest are seam colours ``seams[i - len(placements)]`` = (join, colour)."""

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
    placements: list[tuple[int, int, int]]
    seams: list[tuple[int, int]]
    empty_rows: list[str] = field(default_factory=list)

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


def concat(parts: list[np.ndarray], dtype: Any) -> np.ndarray:
    return np.concatenate(parts).astype(dtype) if parts else np.zeros(0, dtype)


class Builder:
    """Collects columns and rows, then freezes them into a Model."""

    def __init__(self) -> None:
        self.lower: list[float] = []
        self.upper: list[float] = []
        self.cost: list[float] = []
        self.col_names: list[str] = []
        self.row_lower: list[float] = []
        self.row_upper: list[float] = []
        self.row_names: list[str] = []
        self.index: list[np.ndarray] = []
        self.value: list[np.ndarray] = []

    def add_columns(self, names: list[str], cost: float = 0.0) -> int:
        """Binary columns (bounds 0..1); returns the first one's number."""
        first = len(self.cost)
        self.col_names += names
        self.lower += [0.0] * len(names)
        self.upper += [1.0] * len(names)
        self.cost += [cost] * len(names)
        return first

    def add_row(self, name: str, cols: np.ndarray, coefs: np.ndarray, lower: float,
                upper: float) -> None:
        self.row_names.append(name)
        self.index.append(np.asarray(cols, dtype=np.int32))
        self.value.append(np.asarray(coefs, dtype=np.float64))
        self.row_lower.append(lower)
        self.row_upper.append(upper)

    def freeze(self, maximize: bool, placements: list[tuple[int, int, int]],
               seams: list[tuple[int, int]]) -> Model:
        lengths = [len(i) for i in self.index]
        empty = [name for name, n in zip(self.row_names, lengths, strict=True) if n == 0]
        return Model(maximize, np.asarray(self.lower), np.asarray(self.upper),
                     np.asarray(self.cost), self.col_names, np.asarray(self.row_lower),
                     np.asarray(self.row_upper), self.row_names,
                     np.concatenate([[0], np.cumsum(lengths, dtype=np.int64)]).astype(np.int32),
                     concat(self.index, np.int32), concat(self.value, np.float64),
                     placements, seams, empty)


def cell_options(instance: Instance) -> list[CellOptions]:
    """The shared placements of every cell (``cell_placements``), as arrays."""
    out = []
    for options in cell_placements(instance):
        shown = np.asarray([s for _, _, s in options], dtype=np.int32).reshape(len(options), 4)
        out.append(CellOptions(np.asarray([p for p, _, _ in options], dtype=np.int32),
                               np.asarray([r for _, r, _ in options], dtype=np.int32), shown))
    return out


def prune_unmatchable(cells: list[CellOptions], joins: list[Join],
                      domains: list[np.ndarray]) -> list[CellOptions]:
    """Feasibility model only: drop placements showing, on some join, a colour outside its
    domain (the equality links would force them to 0 anyway). This is where the ILP departs
    from the shared placements on purpose: the score mode keeps them (a mismatch is legal
    there), and the SAT encoder rules them out by unit clauses instead."""
    keep = [np.ones(len(c), dtype=bool) for c in cells]
    for (a, sa, b, sb), domain in zip(joins, domains, strict=True):
        keep[a] &= np.isin(cells[a].shown[:, sa], domain)
        keep[b] &= np.isin(cells[b].shown[:, sb], domain)
    return [CellOptions(c.piece[k], c.rot[k], c.shown[k]) for c, k in zip(cells, keep,
                                                                           strict=True)]


def add_placements(b: Builder, cells: list[CellOptions]) -> list[tuple[int, int, int]]:
    """A column per placement, cell by cell; sets each cell's ``first``."""
    table = []
    for cell, opts in enumerate(cells):
        names = [f"x_{cell}_{p}_{r}" for p, r in zip(opts.piece.tolist(), opts.rot.tolist(),
                                                      strict=True)]
        opts.first = b.add_columns(names)
        table += [(cell, p, r) for p, r in zip(opts.piece.tolist(), opts.rot.tolist(),
                                               strict=True)]
    return table


def add_assignment(b: Builder, cells: list[CellOptions], npieces: int) -> None:
    """``cell_c`` and ``piece_p``: exactly one placement each."""
    for cell, opts in enumerate(cells):
        b.add_row(f"cell_{cell}", opts.columns(), np.ones(len(opts)), 1.0, 1.0)
    by_piece: list[list[np.ndarray]] = [[] for _ in range(npieces)]
    for opts in cells:
        for p in np.unique(opts.piece).tolist():
            by_piece[p].append(opts.columns(opts.piece == p))
    for p, parts in enumerate(by_piece):
        cols = np.concatenate(parts) if parts else np.zeros(0, np.int32)
        b.add_row(f"piece_{p}", cols, np.ones(len(cols)), 1.0, 1.0)


def add_seams(b: Builder, cells: list[CellOptions], joins: list[Join],
              domains: list[np.ndarray], score: bool) -> list[tuple[int, int]]:
    """Per join the colour columns, the one-colour row and the two cells' link rows (equal,
    or in score mode ``y <= placements showing k``); returns the seam table."""
    seams: list[tuple[int, int]] = []
    one = (-INF, 1.0) if score else (1.0, 1.0)
    link = (0.0, INF) if score else (0.0, 0.0)
    for j, ((a, sa, c, sc), domain) in enumerate(zip(joins, domains, strict=True)):
        colours = domain.tolist()
        if not colours:
            continue  # feasibility: the pruning left a cell empty; score: nothing to match
        first = b.add_columns([f"y_{j}_{k}" for k in colours], cost=1.0 if score else 0.0)
        seams += [(j, k) for k in colours]
        b.add_row(f"seam_{j}", np.arange(first, first + len(colours)), np.ones(len(colours)),
                  *one)
        for cell, side in ((a, sa), (c, sc)):
            shown = cells[cell].shown[:, side]
            for i, k in enumerate(colours):
                members = cells[cell].columns(shown == k)
                b.add_row(f"link_{j}_{cell}_{k}", np.append(members, first + i),
                          np.append(np.ones(len(members)), -1.0), *link)
    return seams


def fix_hints(b: Builder, instance: Instance, table: list[tuple[int, int, int]]) -> None:
    """A hinted placement's column gets lower bound 1 (a pruned one left its cell empty)."""
    for i in hint_positions(instance, table):
        b.lower[i] = 1.0


def build(instance: Instance, maximize: str = "none") -> Model:
    """The 0-1 program of ``instance``; see the module docstring for its shape."""
    if maximize not in MAXIMIZE:
        raise ValueError(f"maximize {maximize!r}: expected one of {MAXIMIZE}")
    if len(instance.pieces) != instance.ncells:
        raise ValueError(f"the ILP model places every piece once: {len(instance.pieces)} "
                         f"pieces for {instance.ncells} cells")
    score = maximize == "joins"
    cells = cell_options(instance)
    joins = interior_joins(instance.rows, instance.cols)
    domains = join_domains([c.shown for c in cells], joins)
    if not score:  # feasibility: a placement no neighbour can match gets no column
        cells = prune_unmatchable(cells, joins, domains)
    b = Builder()
    table = add_placements(b, cells)
    add_assignment(b, cells, len(instance.pieces))
    seams = add_seams(b, cells, joins, domains, score)
    fix_hints(b, instance, table)
    return b.freeze(score, table, seams)


def decode(instance: Instance, model: Model, values: np.ndarray) -> Solution:
    """The board of a MIP solution: per cell its placement at 1 (None where none is)."""
    cells: list[tuple[int, int] | None] = [None] * instance.ncells
    chosen = np.nonzero(np.asarray(values[:len(model.placements)]) > 0.5)[0]
    for i in chosen.tolist():
        cell, piece, rot = model.placements[i]
        cells[cell] = (piece, rot)
    return Solution(instance.rows, instance.cols, tuple(cells))


def model_counters(model: Model) -> dict[str, float]:
    return {"rows": model.nrows, "columns": model.ncols, "nonzeros": model.nnz,
            "placements": len(model.placements), "seam_vars": len(model.seams)}


# --- HiGHS ------------------------------------------------------------------------------------


def to_highs(model: Model, names: bool = False) -> Any:
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
    status = h.passModel(lp)
    if status == highspy.HighsStatus.kError:
        raise RuntimeError("HiGHS rejected the edge-matching model")
    return h


def configure_highs(h: Any, limit: float, cores: int, seed: int, log: bool) -> None:
    """Pass the budget on. HiGHS sizes one process-wide thread pool when it first solves and
    refuses a later run asking for another size, so the pool is reset first (a worker may
    run budgets of different cores)."""
    highspy.Highs.resetGlobalScheduler(True)
    for name, value in (("time_limit", float(limit)), ("threads", int(cores)),
                        ("random_seed", int(seed) % (2**31)), ("mip_rel_gap", 0.0),
                        ("mip_abs_gap", ABS_GAP), ("output_flag", bool(log))):
        h.setOptionValue(name, value)


def stop_at(h: Any, deadline: float) -> None:
    """Interrupt the MIP at its next interrupt callback after ``deadline``
    (``time.monotonic()``), incumbent kept. HiGHS checks ``time_limit`` only now and then:
    on a 7x7 score model the callback came 13 times in 2 s (stopping a 2.0 s run at 2.04 s)
    but neither it nor ``time_limit`` fired inside one 0.9 s root LP re-solve, so a run can
    still overrun by about one such solve (the runner's kill is the backstop)."""

    def check(event: Any) -> None:
        if time.monotonic() >= deadline:
            event.interrupt()

    h.cbMipInterrupt.subscribe(check)


def watch_incumbents(h: Any, t0: float, trace: list[tuple[float, float]]) -> None:
    """Record (seconds since solve() began, objective) at each improving MIP solution."""

    def improved(event: Any) -> None:
        trace.append((time.perf_counter() - t0, float(event.data_out.objective_function_value)))

    h.cbMipImprovingSolution.subscribe(improved)


def highs_claim(h: Any, model: Model) -> str:
    """HiGHS's model status as a claim (a bounded 0-1 program is never unbounded, so
    'unbounded or infeasible' is infeasible); a model or solver error is a bug and raises."""
    ms, S = h.getModelStatus(), highspy.HighsModelStatus
    has_solution = h.getInfo().primal_solution_status == highspy.kSolutionStatusFeasible
    if ms in (S.kOptimal, S.kModelEmpty):
        return "optimal" if model.maximize else "solved"
    if ms in (S.kInfeasible, S.kUnboundedOrInfeasible):
        return "infeasible"
    if ms in (S.kLoadError, S.kModelError, S.kPresolveError, S.kSolveError, S.kPostsolveError):
        raise RuntimeError(f"HiGHS failed on the edge-matching model: {h.modelStatusToString(ms)}")
    return "solved" if has_solution and not model.maximize else "unknown"


def highs_outcome(h: Any, instance: Instance, model: Model) -> Outcome:
    """Claim, board, objective and work counters after a HiGHS run."""
    info = h.getInfo()
    out = Outcome(highs_claim(h, model))
    if info.primal_solution_status == highspy.kSolutionStatusFeasible \
            and out.status != "infeasible":
        out.solution = decode(instance, model, np.asarray(h.getSolution().col_value))
        if model.maximize:
            out.objective = float(info.objective_function_value)
    out.counters = {"nodes": float(info.mip_node_count),
                    "simplex_iterations": float(info.simplex_iteration_count)}
    if np.isfinite(info.mip_dual_bound):
        out.counters["best_bound"] = float(info.mip_dual_bound)
    if out.solution is not None and np.isfinite(info.mip_gap):
        out.counters["gap"] = float(info.mip_gap)
    return out


def prepare_highs() -> None:
    """Load HiGHS (its banner prints here, once per process) and solve a 2x2 board."""
    h = to_highs(build(tiny_instance(), "joins"))
    configure_highs(h, 10.0, 1, 0, False)
    h.run()


# --- CBC through PuLP -------------------------------------------------------------------------


@contextlib.contextmanager
def quiet_pulp() -> Iterator[None]:
    """PuLP >= 3.3 warns (DeprecationWarning) on APIs it drops in 4.0; they work until then."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        yield


def to_pulp(model: Model) -> tuple[Any, list[Any]]:
    """A PuLP problem of the model and its variables (column order)."""
    with quiet_pulp():
        prob = pulp.LpProblem("edgematch", pulp.LpMaximize if model.maximize
                              else pulp.LpMinimize)
        xs = [pulp.LpVariable(name, lo, hi, cat=pulp.LpInteger) for name, lo, hi in
              zip(model.col_names, model.col_lower.tolist(), model.col_upper.tolist(),
                  strict=True)]
        prob += pulp.LpAffineExpression([(xs[i], c) for i, c in
                                         enumerate(model.cost.tolist()) if c]), "joins"
        for name, cols, coefs, lo, hi in model.rows():
            expr = pulp.LpAffineExpression([(xs[i], c) for i, c in
                                            zip(cols.tolist(), coefs.tolist(), strict=True)])
            sense, rhs = ((pulp.LpConstraintEQ, lo) if lo == hi else
                          (pulp.LpConstraintLE, hi) if lo == -INF else (pulp.LpConstraintGE, lo))
            prob += pulp.LpConstraint(expr, sense, name, rhs)
    return prob, xs


def cbc_command(limit: float, cores: int, seed: int, log_path: str) -> Any:
    """PuLP's bundled CBC, held to the budget; serial with one core (see the module doc)."""
    with quiet_pulp():
        return pulp.PULP_CBC_CMD(msg=False, timeLimit=limit,
                                 threads=cores if cores > 1 else None, gapRel=0.0,
                                 gapAbs=ABS_GAP, logPath=log_path,
                                 options=[f"randomCbcSeed {int(seed) % (2**31)}"])


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


def run_cbc(prob: Any, limit: float, cores: int, seed: int, log: bool
            ) -> tuple[dict[str, float], list[tuple[float, float]], float]:
    """Solve with CBC; returns its log's counters and incumbents, and the wall seconds the
    whole call took (PuLP writing the MPS file, CBC, PuLP reading the answer)."""
    folder = tempfile.mkdtemp(prefix="cliffbench-cbc-")
    try:
        log_path = os.path.join(folder, "cbc.log")
        start = time.perf_counter()
        with quiet_pulp():
            prob.solve(cbc_command(limit, cores, seed, log_path))
        took = time.perf_counter() - start
        text = Path(log_path).read_text(errors="replace") if os.path.exists(log_path) else ""
        if log:
            print(text)
        return *parse_cbc_log(text, prob.sense == pulp.LpMaximize), took
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def cbc_claim(prob: Any, maximize: bool) -> str:
    """PuLP's status as a claim. PuLP reads "Stopped on time" with an incumbent as status
    Optimal with solution status IntegerFeasible: only solution status Optimal is a proof."""
    if prob.status == pulp.LpStatusInfeasible:
        return "infeasible"
    if prob.sol_status == pulp.LpSolutionOptimal:
        return "optimal" if maximize else "solved"
    if prob.sol_status == pulp.LpSolutionIntegerFeasible and not maximize:
        return "solved"
    return "unknown"


def cbc_outcome(prob: Any, xs: list[Any], instance: Instance, model: Model,
                counters: dict[str, float]) -> Outcome:
    """Claim, board, objective and counters after a CBC run."""
    out = Outcome(cbc_claim(prob, model.maximize))
    found = prob.sol_status in (pulp.LpSolutionOptimal, pulp.LpSolutionIntegerFeasible)
    if found and out.status != "infeasible":
        values = np.asarray([x.varValue or 0.0 for x in xs[:len(model.placements)]])
        out.solution = decode(instance, model, values)
        if model.maximize:
            out.objective = float(pulp.value(prob.objective) or 0.0)
    out.counters = {k: v for k, v in counters.items() if k not in ("cbc_objective", "cbc_wall")}
    return out


def prepare_cbc() -> None:
    """Check that PuLP's bundled CBC runs, on a 2x2 board."""
    with quiet_pulp():
        if not pulp.PULP_CBC_CMD().available():
            raise RuntimeError("PuLP's bundled CBC is not available on this machine")
    prob, _ = to_pulp(build(tiny_instance(), "joins"))
    run_cbc(prob, 10.0, 1, 0, False)


# --- the solvers ------------------------------------------------------------------------------


def tiny_instance() -> Instance:
    """A 2x2 board (four copies of one corner piece) for ``prepare``."""
    return Instance(rows=2, cols=2, colors=1, pieces=((0, 1, 1, 0),) * 4)


def time_limit(budget: Budget) -> float:
    """What is left of the budget, minus a margin that shrinks with tiny budgets."""
    return budget.remaining() - min(MARGIN_S, 0.05 * budget.wall_s)


def settle(out: Outcome, instance: Instance) -> Outcome:
    """A claim of a solved or optimal board stands only on a full board (every row makes it
    full; this guards against reading back a solution wrongly), else it is ``unknown``."""
    full = out.solution is not None and out.solution.placed() == instance.ncells
    if out.status in ("solved", "optimal") and not full:
        out.status = "unknown"
    return out


def sized(out: Outcome, model: Model, t_encode: float, t_solve: float) -> Outcome:
    """Model size and the encode/solve split into ``out`` (model counters first)."""
    out.counters = {**model_counters(model), **out.counters}
    out.model_vars, out.model_constraints = model.ncols, model.nrows
    out.t_encode, out.t_solve = t_encode, t_solve
    return out


def trivial(model: Model, budget: Budget) -> Outcome | None:
    """The answer when no solver is needed: a row with no placement at all (a cell or piece
    nothing fits) proves infeasibility; no time left is unknown."""
    if model.empty_rows:
        out = Outcome("infeasible")
        out.counters["empty_rows"] = float(len(model.empty_rows))
        return out
    if time_limit(budget) <= 0:
        return Outcome("unknown")
    return None


def build_or_answer(instance: Instance, maximize: str, budget: Budget
                    ) -> tuple[float, Model, Outcome | None]:
    """Start of both solvers: the clock, the model, and the answer when no solver is needed."""
    t0 = time.perf_counter()
    model = build(instance, maximize)
    early = trivial(model, budget)
    if early is not None:
        early = sized(early, model, time.perf_counter() - t0, 0.0)
    return t0, model, early


PARAMS = [
    Param("maximize", "none", "'none': feasibility model (a solved board or nothing); 'joins': "
          "score mode, a full legal board maximizing matched interior joins", choices=MAXIMIZE),
    Param("log", False, "print the MIP solver's log"),
]


def write_model(instance: Instance, path: Path | str, suffix: str, maximize: str) -> None:
    """Write the model through HiGHS, which picks the format by the file name's suffix: it
    writes to a temporary ``.mps``/``.lp`` name and the file is moved to ``path``."""
    h = to_highs(build(instance, maximize), names=True)
    folder = tempfile.mkdtemp(prefix="cliffbench-ilp-")
    try:
        tmp = os.path.join(folder, f"model{suffix}")
        if h.writeModel(tmp) == highspy.HighsStatus.kError:
            raise RuntimeError(f"HiGHS could not write {suffix} to {path}")
        shutil.move(tmp, str(path))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def write_mps(instance: Instance, path: Path | str, maximize: str = "none",
              **_solver_only: Any) -> None:
    """``cliffbench export INSTANCE --to mps FILE``: the model (feasibility, or score mode with
    ``-p maximize=joins``) as free MPS, columns named ``x_CELL_PIECE_ROT`` / ``y_JOIN_COLOUR``."""
    write_model(instance, path, ".mps", maximize)


def write_lp(instance: Instance, path: Path | str, maximize: str = "none",
             **_solver_only: Any) -> None:
    """``cliffbench export INSTANCE --to lp FILE``: the same model in CPLEX LP format."""
    write_model(instance, path, ".lp", maximize)


EXPORTS: dict[str, Callable[..., None]] = {"mps": write_mps, "lp": write_lp}


@solver("ilp-highs", family="edgematch", paradigm="ilp", backend=f"highs-{HIGHS_VERSION}",
        params=PARAMS, prepare=prepare_highs, exports=EXPORTS)
def solve_highs(instance: Instance, budget: Budget, seed: int, maximize: str = "none",
                log: bool = False) -> Outcome:
    """0-1 ILP on HiGHS: placements, one per cell and piece, seam colours linked by equality."""
    t0, model, early = build_or_answer(instance, maximize, budget)
    if early is not None:
        return early
    h = to_highs(model)
    limit = time_limit(budget)
    configure_highs(h, limit, budget.cores, seed or 0, log)
    stop_at(h, time.monotonic() + limit)
    trace: list[tuple[float, float]] = []
    if model.maximize:
        watch_incumbents(h, t0, trace)
    t_encode = time.perf_counter() - t0
    h.run()
    out = settle(highs_outcome(h, instance, model), instance)
    out.score_trace = trace
    return sized(out, model, t_encode, time.perf_counter() - t0 - t_encode)


@solver("ilp-cbc", family="edgematch", paradigm="ilp", backend=f"cbc-pulp-{pulp.__version__}",
        params=PARAMS, prepare=prepare_cbc)
def solve_cbc(instance: Instance, budget: Budget, seed: int, maximize: str = "none",
              log: bool = False) -> Outcome:
    """0-1 ILP on CBC (PuLP's bundled binary): the same model as ilp-highs."""
    t0, model, early = build_or_answer(instance, maximize, budget)
    if early is not None:
        return early
    t_build = time.perf_counter()
    prob, xs = to_pulp(model)
    t_encode = time.perf_counter() - t0
    limit = time_limit(budget) - PULP_IO * (time.perf_counter() - t_build)
    if limit <= 0:
        return sized(Outcome("unknown"), model, t_encode, 0.0)
    counters, cbc_trace, took = run_cbc(prob, limit, budget.cores, seed or 0, log)
    out = settle(cbc_outcome(prob, xs, instance, model, counters), instance)
    if model.maximize:
        # CBC's clock starts after PuLP wrote the file: place its start by its own wall time.
        start = t_encode + max(0.0, took - counters.get("cbc_wall", took))
        out.score_trace = [(start + t, v) for t, v in cbc_trace]
    return sized(out, model, t_encode, time.perf_counter() - t0 - t_encode)
