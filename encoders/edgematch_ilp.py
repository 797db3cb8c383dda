"""Edge matching as a 0-1 integer program, solved by HiGHS (highspy) or by CBC (PuLP).

One model builder, two backends (``encoders.support.ilp_backends``), so the two MIP solvers
answer the very same rows and columns (and ``cliffbench export --to mps|lp`` writes that
model). Its shape:

- **Placements.** A binary ``x[cell, piece, rot]`` per frame-legal orientation (grey exactly on
  the cell's outer sides), a symmetric piece's repeated looks once; a hinted cell keeps only its
  pinned placement, with its column fixed to 1, and the hinted piece leaves every other cell.
  These are ``encoders.support.edgematch_placements.cell_placements``, shared so every encoder
  prunes alike.
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

Backends: how each is driven and held to the budget is ``encoders.support.ilp_backends``'s. In
score mode HiGHS's improving-solution callback records ``score_trace``. Neither solver looks at
the clock everywhere: in root processing both can overrun their time limit by a large part of
it (CBC's feasibility pump and heuristics on the zero objective most). There the runner's
kill (the worker's process group, CBC
included, at the budget plus its grace) is the limit, and the row says ``timeout``; CBC ignores
SIGINT meanwhile, so it cannot be asked to stop early and keep its incumbent. CBC's work
counters and the score-mode trace are read back from CBC's log, which PuLP writes to a file:
nodes ("Enumerated nodes"), best bound, gap, and "Integer solution of ... (T seconds)" lines
(CBC's clock starts after PuLP has written the MPS file; the trace is shifted by that start,
estimated from CBC's total wall time).

Piece indices are the instance's 0..P-1; rotations follow ``instances.edgematch.model`` (after
``rot`` clockwise quarter turns side ``s`` shows listed edge ``(s - rot) % 4``); joins are
numbered as ``encoders.support.edgematch_placements.interior_joins`` (horizontal ones
row-major, then vertical ones). Column names in exports: ``x_CELL_PIECE_ROT``, ``y_JOIN_COLOUR``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pulp

from bench.api import Budget, Outcome, Param, solver
from encoders.support import ilp_backends as backends
from encoders.support.edgematch_placements import (
    Join,
    cell_placements,
    hint_positions,
    interior_joins,
    join_domains,
)
from encoders.support.ilp_backends import HIGHS_VERSION, INF, PULP_IO, Program, parse_cbc_log
from encoders.support.margin import time_limit
from instances.edgematch.model import Instance, Solution

MAXIMIZE = ("none", "joins")
# The objective counts joins, an integer: a gap below 1 proves the incumbent optimal. Both
# solvers are told so, each in its own option names.
ABS_GAP = 0.999
HIGHS_GAPS = {"mip_rel_gap": 0.0, "mip_abs_gap": ABS_GAP}
CBC_GAPS = {"gapRel": 0.0, "gapAbs": ABS_GAP}


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


@dataclass(kw_only=True)
class Model(Program):
    """The 0-1 program of a board, and what its columns mean: column ``i < len(placements)`` is
    placement ``placements[i]`` = (cell, piece, rot); the rest are seam colours
    ``seams[i - len(placements)]`` = (join, colour)."""

    NAME: ClassVar[str] = "edgematch"
    TITLE: ClassVar[str] = "edge-matching"
    OBJECTIVE: ClassVar[str] = "joins"

    placements: list[tuple[int, int, int]]
    seams: list[tuple[int, int]]
    empty_rows: list[str] = field(default_factory=list)

    def counters(self) -> dict[str, float]:
        return {**super().counters(), "placements": len(self.placements),
                "seam_vars": len(self.seams)}


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
        return Model(maximize=maximize, col_lower=np.asarray(self.lower),
                     col_upper=np.asarray(self.upper), cost=np.asarray(self.cost),
                     col_names=self.col_names, row_lower=np.asarray(self.row_lower),
                     row_upper=np.asarray(self.row_upper), row_names=self.row_names,
                     starts=np.concatenate([[0], np.cumsum(lengths, dtype=np.int64)])
                     .astype(np.int32),
                     index=concat(self.index, np.int32), value=concat(self.value, np.float64),
                     placements=placements, seams=seams, empty_rows=empty)


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


# --- HiGHS ------------------------------------------------------------------------------------


def watch_incumbents(h: Any, t0: float, trace: list[tuple[float, float]]) -> None:
    """Record (seconds since solve() began, objective) at each improving MIP solution."""

    def improved(event: Any) -> None:
        trace.append((time.perf_counter() - t0, float(event.data_out.objective_function_value)))

    h.cbMipImprovingSolution.subscribe(improved)


def highs_claim(h: Any, model: Model) -> str:
    """HiGHS's model status as a claim (``highs_proof``): without a proof, an incumbent is a
    solved board in the feasibility model, and ``unknown`` in score mode."""
    found = backends.has_point(h)
    proof = backends.highs_proof(h, model)
    if proof is not None:
        return ("optimal" if model.maximize else "solved") if proof else "infeasible"
    return "solved" if found and not model.maximize else "unknown"


def highs_outcome(h: Any, instance: Instance, model: Model) -> Outcome:
    """Claim, board, objective and work counters after a HiGHS run."""
    info = h.getInfo()
    out = Outcome(highs_claim(h, model))
    if backends.has_point(h) and out.status != "infeasible":
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
    backends.warm_highs(build(tiny_instance(), "joins"), **HIGHS_GAPS)


# --- CBC through PuLP -------------------------------------------------------------------------


def cbc_claim(prob: Any, maximize: bool, log_text: str, limit: float) -> str:
    """PuLP's status as a claim. PuLP reads "Stopped on time" with an incumbent as status
    Optimal with solution status IntegerFeasible: only solution status Optimal is a proof (and
    only CBC's log saying so, before its time ``limit``, proves infeasibility:
    ``cbc_proved_infeasible``)."""
    if backends.cbc_proved_infeasible(prob, log_text, limit):
        return "infeasible"
    if prob.sol_status == pulp.LpSolutionOptimal:
        return "optimal" if maximize else "solved"
    if prob.sol_status == pulp.LpSolutionIntegerFeasible and not maximize:
        return "solved"
    return "unknown"


def cbc_outcome(prob: Any, xs: list[Any], instance: Instance, model: Model,
                counters: dict[str, float], log_text: str, limit: float) -> Outcome:
    """Claim, board, objective and counters after a CBC run (of time ``limit``)."""
    out = Outcome(cbc_claim(prob, model.maximize, log_text, limit))
    if out.status == "infeasible":  # the log's word for it, in the row's message
        said = [line.strip() for line in log_text.splitlines()
                if "infeasib" in line.lower() or line.startswith("Result")]
        out.note = "CBC: " + "; ".join(said[-3:])
    if backends.cbc_found(prob) and out.status != "infeasible":
        values = np.asarray([x.varValue or 0.0 for x in xs[:len(model.placements)]])
        out.solution = decode(instance, model, values)
        if model.maximize:
            out.objective = float(pulp.value(prob.objective) or 0.0)
    out.counters = {k: v for k, v in counters.items() if k not in ("cbc_objective", "cbc_wall")}
    return out


def prepare_cbc() -> None:
    """Check that PuLP's bundled CBC runs, on a 2x2 board."""
    backends.warm_cbc(build(tiny_instance(), "joins"), **CBC_GAPS)


# --- the solvers ------------------------------------------------------------------------------


def tiny_instance() -> Instance:
    """A 2x2 board (four copies of one corner piece) for ``prepare``."""
    return Instance(rows=2, cols=2, colors=1, pieces=((0, 1, 1, 0),) * 4)


def settle(out: Outcome, instance: Instance) -> Outcome:
    """A claim of a solved or optimal board stands only on a full board (every row makes it
    full; this guards against reading back a solution wrongly), else it is ``unknown``."""
    full = out.solution is not None and out.solution.placed() == instance.ncells
    if out.status in ("solved", "optimal") and not full:
        out.status = "unknown"
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
        early = backends.sized(early, model, time.perf_counter() - t0, 0.0)
    return t0, model, early


PARAMS = [
    Param("maximize", "none", "'none': feasibility model (a solved board or nothing); 'joins': "
          "score mode, a full legal board maximizing matched interior joins", choices=MAXIMIZE),
    Param("log", False, "print the MIP solver's log"),
]


def write_mps(instance: Instance, path: Path | str, maximize: str = "none",
              **_solver_only: Any) -> None:
    """``cliffbench export INSTANCE --to mps FILE``: the model (feasibility, or score mode with
    ``-p maximize=joins``) as free MPS, columns named ``x_CELL_PIECE_ROT`` / ``y_JOIN_COLOUR``."""
    backends.write_model(build(instance, maximize), path, ".mps")


def write_lp(instance: Instance, path: Path | str, maximize: str = "none",
             **_solver_only: Any) -> None:
    """``cliffbench export INSTANCE --to lp FILE``: the same model in CPLEX LP format."""
    backends.write_model(build(instance, maximize), path, ".lp")


def read_mps(instance: Instance, values: dict[Any, float], maximize: str = "none",
             **_params: Any) -> Solution | None:
    """``reads["mps"]``: the board of another program's answer to ``write_mps``'s feasibility
    file (column values by name or number), or None when a column is not the model's. The score
    model is not read: its programs' claims (an optimum, an incumbent at a stop) say nothing the
    output conventions carry, so a run asking for it is an error that says so."""
    if maximize != "none":
        raise ValueError(f"a program's answer is read for maximize='none' only (the "
                         f"feasibility model), not maximize={maximize!r}")
    model = build(instance, maximize)
    try:
        return decode(instance, model, backends.column_values(model, values))
    except (KeyError, IndexError):
        return None


EXPORTS: dict[str, Callable[..., None]] = {"mps": write_mps, "lp": write_lp}
READS: dict[str, Callable[..., Any]] = {"mps": read_mps}


@solver("ilp-highs", family="edgematch", paradigm="ilp", backend=f"highs-{HIGHS_VERSION}",
        params=PARAMS, prepare=prepare_highs, exports=EXPORTS, reads=READS)
def solve_highs(instance: Instance, budget: Budget, seed: int, maximize: str = "none",
                log: bool = False) -> Outcome:
    """0-1 ILP on HiGHS: placements, one per cell and piece, seam colours linked by equality."""
    t0, model, early = build_or_answer(instance, maximize, budget)
    if early is not None:
        return early
    h = backends.to_highs(model)
    limit = time_limit(budget)
    backends.configure_highs(h, limit, budget.cores, seed or 0, log, **HIGHS_GAPS)
    backends.stop_at(h, time.monotonic() + limit)
    trace: list[tuple[float, float]] = []
    if model.maximize:
        watch_incumbents(h, t0, trace)
    t_encode = time.perf_counter() - t0
    h.run()
    out = settle(highs_outcome(h, instance, model), instance)
    out.score_trace = trace
    return backends.sized(out, model, t_encode, time.perf_counter() - t0 - t_encode)


@solver("ilp-cbc", family="edgematch", paradigm="ilp", backend=f"cbc-pulp-{pulp.__version__}",
        params=PARAMS, prepare=prepare_cbc)
def solve_cbc(instance: Instance, budget: Budget, seed: int, maximize: str = "none",
              log: bool = False) -> Outcome:
    """0-1 ILP on CBC (PuLP's bundled binary): the same model as ilp-highs."""
    t0, model, early = build_or_answer(instance, maximize, budget)
    if early is not None:
        return early
    t_build = time.perf_counter()
    prob, xs = backends.to_pulp(model)
    t_encode = time.perf_counter() - t0
    limit = time_limit(budget) - PULP_IO * (time.perf_counter() - t_build)
    if limit <= 0:
        return backends.sized(Outcome("unknown"), model, t_encode, 0.0)
    text, took = backends.run_cbc(prob, limit, budget.cores, seed or 0, log, **CBC_GAPS)
    counters, cbc_trace = parse_cbc_log(text, model.maximize)
    out = settle(cbc_outcome(prob, xs, instance, model, counters, text, limit), instance)
    if model.maximize:
        # CBC's clock starts after PuLP wrote the file: place its start by its own wall time.
        start = t_encode + max(0.0, took - counters.get("cbc_wall", took))
        out.score_trace = [(start + t, v) for t, v in cbc_trace]
    return backends.sized(out, model, t_encode, time.perf_counter() - t0 - t_encode)
