"""Edge matching as a CP-SAT decision model: seed 004's structured model.

Seed 004 credits the move of the cliff to the *formulation*: "one integer variable per cell
ranging over piece ids under an AllDifferent, piece-and-rotation indices channelled by Element
tables to per-side colour variables, posed as a decision question". This module is that model:

- per cell a piece variable (AllDifferent over all cells) and a rotation variable 0..3;
- per interior join one colour variable, *shared* by the two cells it separates, so a match
  across a join holds by construction (no equality constraint, no mismatch to count);
- frame sides are grey constants, so they never become variables;
- per cell one channelling constraint from (piece, rotation) to the colours of its non-frame
  sides. ``channel="table"`` is one AddAllowedAssignments whose tuples are only the
  frame-legal orientations of that cell (grey exactly on its outer sides), which removes most
  (piece, rotation) pairs before search; ``channel="element"`` is the seed's wording: an
  oriented-piece index ``o = 4 * piece + rot`` over the same frame-legal values, with one
  AddElement per non-frame side.

With ``maximize="none"`` there is no objective: a partial board is never returned, so the
answer is ``solved`` or ``infeasible`` (or ``unknown`` when the budget ran out).

With ``maximize="joins"`` (score mode, for boards that may have no full solution, such as
Eternity II) a join no longer shares one colour variable: each of its two cells shows its own
colour there, a Boolean ``matched`` implies the two are equal, and the objective maximises the
matched joins. Every board is then a legal full board with some joins mismatched; the answer
is ``optimal`` when CP-SAT proves its score best, else ``unknown`` with the best board found
(the harness scores it), and each improving board is recorded in the run's ``score_trace``.

``cliffbench export BOARD --to mzn FILE`` writes the decision model in MiniZinc
(``write_mzn``), in the seed's Element form, for any FlatZinc solver (the ``gecode`` tool of
``bench.tools`` runs it): per cell (1-based, row-major) ``piece`` under one AllDifferent
(``distinct``: ``encoders.support.minizinc``), ``rot`` 0..3 and the oriented piece ``oriented
= 4 * piece + rot``, its domain the cell's frame-legal orientations (every rotation kept, as
here), channelled to ``piece`` and ``rot`` by two Element tables (``piece_of``, ``rot_of``:
domain-consistent both ways, which ``4 * piece + rot`` as a sum is not) and to the colour of
each open side by ``shows[side, oriented]``, which is the shared ``colour`` variable of that
join. Frame sides have no variable: the frame-legal domains show grey there. Hints fix
``piece`` and ``rot``; ``symmetry="hints"`` pins the same corner piece as here. A 5x5 board:
25 + 25 + 25 cell variables and 40 join colours, one AllDifferent, 50 channelling and 80 side
Element constraints. Score mode has no such export: ``maximize="joins"`` is refused
(``channel``, ``workers`` and ``log`` are CP-SAT's own and do not change the file).
``read_mzn`` decodes a program's ``piece`` and ``rot`` values.

Piece indices are the instance's internal 0..P-1; rotations follow
``instances.edgematch.model`` (after ``rot`` clockwise quarter turns side ``s`` shows listed
edge ``(s - rot) % 4``); cells, sides and joins are numbered as in
``encoders.support.edgematch_placements``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import ortools

from bench.api import Budget, Outcome, Param, ParamError, solver
from encoders.support import minizinc
from encoders.support.edgematch_placements import (
    Frame,
    check_hints,
    fits_frame,
    frame_sides,  # noqa: F401  (re-exported, as the tests reach it)
    join_of,
    open_sides,
    per_frame_pattern,
    symmetry_pin,
)
from encoders.support.margin import time_limit
from instances.edgematch.model import Instance, Solution, rotated

CHANNELS = ("table", "element")
SYMMETRY = ("hints", "none")
MAXIMIZE = ("none", "joins")


@dataclass
class Encoding:
    """A built model and the variables a solution is read from."""

    model: Any
    piece: list[Any]
    rot: list[Any]
    stats: dict[str, int] = field(default_factory=dict)
    matched: list[Any] = field(default_factory=list)


# --- orientations -----------------------------------------------------------------------------


def fitting(instance: Instance, frame: Frame) -> list[tuple[int, int, tuple[int, ...]]]:
    """(piece, rot, colours on the non-frame sides) of every orientation that fits a cell with
    this frame pattern: grey exactly on its outer sides. A corner cell keeps about one
    orientation of each corner piece and none of the others, which is most of the pruning of
    this model. Listed in piece, then rotation order.

    Unlike ``edgematch_placements.cell_placements``, every rotation is kept, a symmetric
    piece's repeats included: here the rotation is a variable, which a hint fixes and the
    answer is read from, so a rotation missing from the table would be forbidden (a hint at a
    repeated rotation would make the board infeasible)."""
    out = []
    for p, edges in enumerate(instance.pieces):
        for rot in range(4):
            shown = rotated(edges, rot)
            if fits_frame(shown, frame):
                out.append((p, rot, tuple(shown[s] for s in range(4) if not frame[s])))
    return out


def all_orientations(instance: Instance) -> list[list[tuple[int, int, tuple[int, ...]]]]:
    """The fitting orientations of every cell, computed once per frame pattern, since building
    them is most of the encoding time on big boards. Hints prune nothing here: ``_add_hints``
    fixes the hinted cells' variables instead."""
    return per_frame_pattern(instance, lambda frame: fitting(instance, frame))


# --- model ------------------------------------------------------------------------------------


def _domain(values: set[int]) -> Any:
    """A CP-SAT domain of ``values``; an empty set becomes {-1}, which no tuple or element
    holds, so an impossible cell makes the model infeasible instead of invalid."""
    from ortools.sat.python import cp_model

    return cp_model.Domain.FromValues(sorted(values) or [-1])


def _join_domains(instance: Instance, legal: list[list]) -> dict[int, set[int]]:
    """Per join, the colours both of its cells can show there: tighter domains for presolve
    (read from the tables, which hold only the open sides' colours)."""
    seen: dict[int, list[set[int]]] = {}
    for cell, tuples in enumerate(legal):
        sides = open_sides(instance.rows, instance.cols, cell)
        for k, side in enumerate(sides):
            join = join_of(instance.rows, instance.cols, cell, side)
            seen.setdefault(join, []).append({t[2][k] for t in tuples})
    return {join: set.intersection(*sets) for join, sets in seen.items()}


def _shown_domains(instance: Instance, legal: list[list]) -> dict[tuple[int, int], set[int]]:
    """Per (join, cell), the colours that cell can show on that join (score mode: the two
    sides of a join are separate variables, so each keeps its own domain)."""
    shown: dict[tuple[int, int], set[int]] = {}
    for cell, tuples in enumerate(legal):
        for k, side in enumerate(open_sides(instance.rows, instance.cols, cell)):
            join = join_of(instance.rows, instance.cols, cell, side)
            shown.setdefault((join, cell), set()).update(t[2][k] for t in tuples)
    return shown


def _side_colours(model: Any, instance: Instance, legal: list[list], maximize: str
                  ) -> tuple[dict[tuple[int, int], Any], list[Any]]:
    """The colour variable each cell shows on each of its joins, keyed (join, cell), and the
    ``matched`` Booleans of score mode. In decision mode both cells of a join get the same
    variable, so a match holds by construction."""
    if maximize == "none":
        joins = {j: model.new_int_var_from_domain(_domain(values), f"j{j}")
                 for j, values in sorted(_join_domains(instance, legal).items())}
        return {(j, c): joins[j] for j, c in _shown_domains(instance, legal)}, []
    sides = {key: model.new_int_var_from_domain(_domain(values), f"j{key[0]}c{key[1]}")
             for key, values in sorted(_shown_domains(instance, legal).items())}
    by_join: dict[int, list[Any]] = {}
    for (join, _), var in sorted(sides.items()):
        by_join.setdefault(join, []).append(var)
    matched = []
    for join, (a, b) in sorted(by_join.items()):
        m = model.new_bool_var(f"m{join}")
        model.add(a == b).only_enforce_if(m)
        matched.append(m)
    model.maximize(sum(matched))
    return sides, matched


def _channel_table(model: Any, piece: Any, rot: Any, sides: list[Any], tuples: list) -> None:
    """One table over (piece, rot, side colours) holding only the frame-legal orientations."""
    model.add_allowed_assignments([piece, rot, *sides], [(p, r, *cols) for p, r, cols in tuples])


def side_tables(instance: Instance) -> list[list[int]]:
    """Per side s, the colour each oriented piece ``4 * piece + rot`` shows there."""
    shown = [rotated(edges, r) for edges in instance.pieces for r in range(4)]
    return [[colours[s] for colours in shown] for s in range(4)]


def _channel_element(model: Any, instance: Instance, cell: int, piece: Any, rot: Any,
                     sides: list[Any], tuples: list, tables: list[list[int]]) -> None:
    """The seed's Element form: o = 4 * piece + rot over the frame-legal values, and per
    non-frame side ``colour = tables[side][o]``."""
    oriented = model.new_int_var_from_domain(_domain({4 * p + r for p, r, _ in tuples}),
                                             f"o{cell}")
    model.add(oriented == 4 * piece + rot)
    for side, var in zip(open_sides(instance.rows, instance.cols, cell), sides, strict=True):
        model.add_element(oriented, tables[side], var)


def _break_symmetry(model: Any, instance: Instance, piece: list[Any], legal: list[list]) -> bool:
    """Without hints, a solved board turned a quarter turn (square) or a half turn (rectangle)
    is solved too, so the search would meet every solution four (two) times. Pin one corner
    piece to the top-left corner (square) or keep it out of the two bottom corners (rectangle):
    each class of turned solutions keeps one member (``edgematch_placements.symmetry_pin``).
    On a square the one constraint ``piece[home] == pin`` is enough: AllDifferent keeps the
    piece off the other cells. Returns whether a constraint was added."""
    pin = symmetry_pin(instance, legal)
    if pin is None:
        return False
    if pin.home is not None:
        model.add(piece[pin.home] == pin.piece)
    else:
        for cell in pin.barred:
            model.add(piece[cell] != pin.piece)
    return True


def _add_hints(model: Any, instance: Instance, piece: list[Any], rot: list[Any]) -> None:
    """Fix the hinted cells' piece and rotation (a hint outside the board is bad input)."""
    check_hints(instance)
    for h in instance.hints:
        cell = h.row * instance.cols + h.col
        model.add(piece[cell] == h.piece)
        model.add(rot[cell] == h.rot)


def build(instance: Instance, channel: str = "table", symmetry: str = "hints",
          maximize: str = "none") -> Encoding:
    """The decision (or score) model of ``instance``; see the module docstring for its shape."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    legal = all_orientations(instance)
    tables = side_tables(instance) if channel == "element" else []
    shown, matched = _side_colours(model, instance, legal, maximize)
    piece, rot = [], []
    for cell, tuples in enumerate(legal):
        piece.append(model.new_int_var_from_domain(_domain({p for p, _, _ in tuples}),
                                                   f"p{cell}"))
        rot.append(model.new_int_var(0, 3, f"r{cell}"))
        sides = [shown[join_of(instance.rows, instance.cols, cell, s), cell]
                 for s in open_sides(instance.rows, instance.cols, cell)]
        if channel == "table":
            _channel_table(model, piece[cell], rot[cell], sides, tuples)
        else:
            _channel_element(model, instance, cell, piece[cell], rot[cell], sides, tuples,
                             tables)
    model.add_all_different(piece)
    _add_hints(model, instance, piece, rot)
    pinned = symmetry == "hints" and _break_symmetry(model, instance, piece, legal)
    stats = {"orientations": sum(map(len, legal)), "symmetry_pinned": int(pinned)}
    return Encoding(model, piece, rot, stats, matched)


# --- MiniZinc ---------------------------------------------------------------------------------


MZN_MODEL = (
    "array[CELL] of var 0..pieces - 1: piece :: add_to_output;",
    "array[CELL] of var 0..3: rot :: add_to_output;",
    "array[CELL] of var ORIENTED: oriented;",
    "array[1..joins] of var 1..colours: colour;",
    "constraint distinct(piece);",
    "constraint forall(c in CELL)(oriented[c] in fits[c]);",
    "constraint forall(c in CELL)(",
    "    piece[c] = piece_of[oriented[c]] /\\ rot[c] = rot_of[oriented[c]]);",
    "constraint forall(c in CELL, s in 0..3 where join_at[c, s] > 0)(",
    "    colour[join_at[c, s]] = shows[s, oriented[c]]);",
)


def _join_number(rows: int, cols: int, cell: int, side: int) -> int:
    """The join on ``side`` of ``cell`` numbered from 1 (``join_of`` + 1), 0 on the frame."""
    join = join_of(rows, cols, cell, side)
    return 0 if join is None else join + 1


def _mzn_data(instance: Instance, legal: list[list]) -> list[str]:
    """The data items of ``write_mzn``'s model: sizes, the shows table, the joins of each
    cell's sides, the frame-legal oriented pieces of each cell."""
    rows, cols, n = instance.rows, instance.cols, len(instance.pieces)
    colours = max([instance.colors, *(c for edges in instance.pieces for c in edges)])
    joins = rows * (cols - 1) + (rows - 1) * cols
    join_at = [[_join_number(rows, cols, cell, s) for s in range(4)]
               for cell in range(rows * cols)]
    fits = [minizinc.set_literal((4 * p + r for p, r, _ in tuples), "      ")
            for tuples in legal]
    return [f"int: rows = {rows};", f"int: cols = {cols};", f"int: pieces = {n};",
            f"int: colours = {colours};", f"int: joins = {joins};",
            "% cell = row * cols + col + 1 (rows and columns from 0, row-major)",
            "set of int: CELL = 1..rows * cols;",
            "% oriented piece o = 4 * piece + rot (piece from 0, rot clockwise quarter turns)",
            "set of int: ORIENTED = 0..4 * pieces - 1;",
            "array[ORIENTED] of int: piece_of = array1d(ORIENTED, [o div 4 | o in ORIENTED]);",
            "array[ORIENTED] of int: rot_of = array1d(ORIENTED, [o mod 4 | o in ORIENTED]);",
            "% shows[side, o]: the colour o shows on side 0 N, 1 E, 2 S, 3 W (0 is grey)",
            minizinc.assign("array[0..3, ORIENTED] of 0..colours: shows",
                            minizinc.array2d(side_tables(instance), 0, 0)),
            "% join_at[cell, side]: the interior join there (horizontal joins first, row by",
            "% row, then vertical ones, from 1), 0 on the frame",
            minizinc.assign("array[CELL, 0..3] of 0..joins: join_at",
                            minizinc.array2d(join_at, 1, 0)),
            "% fits[cell]: the oriented pieces that show grey exactly on its frame sides",
            minizinc.assign("array[CELL] of set of ORIENTED: fits",
                            minizinc.array1d_by_line(fits))]


def _mzn_fixings(instance: Instance, legal: list[list], symmetry: str) -> list[str]:
    """The hints' constraints, then the symmetry pin's (as ``_break_symmetry``)."""
    check_hints(instance)
    out = [f"constraint piece[{h.row * instance.cols + h.col + 1}] = {h.piece} /\\ "
           f"rot[{h.row * instance.cols + h.col + 1}] = {h.rot};  % hint"
           for h in instance.hints]
    pin = symmetry_pin(instance, legal) if symmetry == "hints" else None
    if pin is not None and pin.home is not None:
        out.append(f"constraint piece[{pin.home + 1}] = {pin.piece};  % symmetry: a corner "
                   f"piece at home")
    elif pin is not None:
        out += [f"constraint piece[{cell + 1}] != {pin.piece};  % symmetry: not this corner"
                for cell in pin.barred]
    return out


def write_mzn(instance: Instance, path: Path | str, symmetry: str = "hints",
              **params: Any) -> None:
    """``cliffbench export BOARD --to mzn FILE``: the decision model in MiniZinc, its data
    inline (see the module docstring). ``maximize="joins"`` is refused: score mode has no
    MiniZinc form here."""
    if params.get("maximize", "none") != "none":
        raise ParamError(f"the mzn export is the decision model (maximize='none'), not "
                         f"maximize={params['maximize']!r}")
    legal = all_orientations(instance)
    fixings = _mzn_fixings(instance, legal, symmetry)
    comments = ["cliffbench edgematch CP model (encoders/edgematch_cpsat.py): seed 004's "
                "AllDifferent + Element", "form, a decision model; symmetry=" + symmetry,
                f"board {instance.instance_id} {minizinc.comment_safe(instance.name)}: "
                f"{instance.rows}x{instance.cols}, {len(instance.pieces)} pieces, "
                f"{len(instance.hints)} hints"]
    model = [*MZN_MODEL, *fixings, "solve satisfy;"]
    minizinc.write_model(path, minizinc.model_text(
        comments, _mzn_data(instance, legal), model, ["piece", "rot"]))


def read_mzn(instance: Instance, values: dict[str, list[int]],
             **_params: Any) -> Solution | None:
    """``reads["mzn"]``: the board of a program's answer to ``write_mzn``'s model (its ``piece``
    and ``rot`` values per cell, row-major), or None when there is none: a name missing, too
    few or too many values, a piece or rotation out of range."""
    cells = instance.ncells
    piece = minizinc.ints_of(values, "piece", cells, 0, len(instance.pieces) - 1)
    rot = minizinc.ints_of(values, "rot", cells, 0, 3)
    if piece is None or rot is None:
        return None
    return Solution(instance.rows, instance.cols, tuple(zip(piece, rot, strict=True)))


# --- solving ----------------------------------------------------------------------------------


def _configure(cp_solver: Any, budget: Budget, seed: int, workers: int, log: bool,
               limit: float) -> None:
    """Pass the budget on: threads, time limit, memory, and the run's seed."""
    params = cp_solver.parameters
    params.num_workers = workers or budget.cores
    params.max_time_in_seconds = limit
    params.max_memory_in_mb = max(1, int(budget.mem_mb))
    params.random_seed = int(seed) % (2**31)
    params.log_search_progress = log


def _read_solution(cp_solver: Any, instance: Instance, enc: Encoding) -> Solution:
    cells = tuple((int(cp_solver.value(p)), int(cp_solver.value(r)))
                  for p, r in zip(enc.piece, enc.rot, strict=True))
    return Solution(instance.rows, instance.cols, cells)


def _outcome(status: Any, cp_solver: Any, instance: Instance, enc: Encoding) -> Outcome:
    """Map CP-SAT's status to the harness's claims; an invalid model is a bug, so it raises."""
    from ortools.sat.python import cp_model

    if enc.matched and status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        claim = "optimal" if status == cp_model.OPTIMAL else "unknown"
        return Outcome(claim, solution=_read_solution(cp_solver, instance, enc),
                       objective=float(cp_solver.objective_value))
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Outcome("solved", solution=_read_solution(cp_solver, instance, enc))
    if status == cp_model.INFEASIBLE:
        return Outcome("infeasible")
    if status == cp_model.MODEL_INVALID:
        raise RuntimeError(f"CP-SAT rejected the edge-matching model: {enc.model.validate()}")
    return Outcome("unknown")


def prepare() -> None:
    """Import CP-SAT and solve a two-variable model, so no timed run pays the import."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    x = model.new_int_var(0, 3, "x")
    y = model.new_int_var(0, 3, "y")
    model.add_all_different([x, y])
    model.add_allowed_assignments([x, y], [(1, 2), (2, 1)])
    cp_solver = cp_model.CpSolver()
    cp_solver.parameters.num_workers = 1
    cp_solver.solve(model)


PARAMS = [
    Param("workers", 0, "CP-SAT num_workers; 0 means the run's cores (budget.cores)", min=0),
    Param("channel", "table", "piece+rotation to side colours: one table per cell (frame-legal "
          "orientations only) or Element on the oriented-piece index", choices=CHANNELS),
    Param("symmetry", "hints", "'hints': when the board has no hints, pin a corner piece to "
          "break the board's rotations; 'none': add nothing", choices=SYMMETRY),
    Param("maximize", "none", "'none': the decision model; 'joins': score mode, maximise the "
          "matched joins of a full legal board", choices=MAXIMIZE),
    Param("log", False, "print CP-SAT's search log"),
]


def _trace_callback(start: float, trace: list[tuple[float, float]]) -> Any:
    """Records (seconds since ``start``, score) at every improving board of score mode."""
    from ortools.sat.python import cp_model

    class Trace(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            trace.append((time.perf_counter() - start, float(self.objective_value)))

    return Trace()


@solver("cpsat", family="edgematch", paradigm="cpsat", backend=f"ortools-{ortools.__version__}",
        params=PARAMS, prepare=prepare, exports={"mzn": write_mzn}, reads={"mzn": read_mzn})
def solve(instance: Instance, budget: Budget, seed: int, workers: int = 0,
          channel: str = "table", symmetry: str = "hints", maximize: str = "none",
          log: bool = False) -> Outcome:
    """CP-SAT decision model: AllDifferent pieces, shared join colours, per-cell frame tables."""
    from ortools.sat.python import cp_model

    start = time.perf_counter()
    enc = build(instance, channel, symmetry, maximize)
    proto = enc.model.proto
    sizes = {"model_vars": len(proto.variables), "model_constraints": len(proto.constraints)}
    t_encode = time.perf_counter() - start
    limit = time_limit(budget)
    if limit <= 0:
        return Outcome("unknown", t_encode=t_encode, t_solve=0.0, **sizes)
    cp_solver = cp_model.CpSolver()
    _configure(cp_solver, budget, seed, workers, log, limit)
    trace: list[tuple[float, float]] = []
    start = time.perf_counter()
    callback = _trace_callback(start, trace) if enc.matched else None
    status = cp_solver.solve(enc.model, callback)
    out = _outcome(status, cp_solver, instance, enc)
    out.score_trace = trace
    out.t_encode, out.t_solve = t_encode, time.perf_counter() - start
    out.model_vars, out.model_constraints = sizes["model_vars"], sizes["model_constraints"]
    out.counters = {"nodes": cp_solver.num_branches, "conflicts": cp_solver.num_conflicts,
                    "wall_time": cp_solver.wall_time, **enc.stats}
    return out
