"""Edge matching as SAT (python-sat): placement variables, exactly-one, two ways to match edges.

The model, in the order it is built:

- **Placements.** One Boolean ``x[cell, piece, rot]`` per placement of
  ``encoders.support.edgematch_placements``, that is per *frame-legal* orientation: grey
  exactly on the cell's outer sides, so a corner cell keeps about one orientation of each corner
  piece and nothing else. Rotations of a piece that show the same four colours (a piece like
  ``(a, b, a, b)``) are kept once, since they are the same placement to every constraint.
  A hint leaves its cell one placement (the pinned rotation, exactly), adds it as a unit clause,
  and removes every other placement of the hinted piece.
- **Exactly one placement per cell and per piece**: one at-least-one clause plus an at-most-one
  constraint whose CNF encoding is the parameter ``amo`` (``pysat.card.EncType`` names).
- **Matching** (parameter ``matching``), the two encodings the issue compares:
  ``conflicts`` is seed 004's: a binary clause ``-x_a v -x_b`` for every pair of placements on
  the two cells of an interior join that show different colours there. Simple and propagation
  is direct, but the clause count grows with the square of the placements per cell.
  ``seams`` is Heule's (2008): per interior join one Boolean per colour both of its cells can
  show; a placement implies the colour of each of its seams (``-x v y[join, colour]``, or
  ``-x`` when the other cell can never show that colour), and at most one colour holds per
  seam (at least one is implied by the cell's placement). Linear in the placements.

There is no symmetry breaking and no objective: the answer is ``solved``, ``infeasible`` or
``unknown``. Piece indices are the instance's 0..P-1; rotations follow
``instances.edgematch.model`` (after ``rot`` clockwise quarter turns side ``s`` shows listed edge
``(s - rot) % 4``). Variables are numbered placements first (cell row-major, then piece, then
rotation), then seam colours, then the auxiliary variables of the at-most-one encodings;
``write_cnf`` states the same rule in its DIMACS header and lists the first two kinds.

Time limits, the engines and the clause store are ``encoders.support.sat_engine``'s: the MiniSat
family is interrupted at the budget and answers ``unknown``; CaDiCaL, Lingeling and Kissat cannot
be, and the runner's watchdog kills the worker (status ``timeout``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pysat
from pysat.card import CardEnc, EncType

from bench.api import Budget, Outcome, Param, solver
from encoders.support import sat_engine
from encoders.support.edgematch_placements import (
    Join,
    Placement,
    cell_placements,
    distinct_orientations,  # noqa: F401  (re-exported, as the tests reach it)
    fits_frame,  # noqa: F401  (re-exported)
    frame_sides,  # noqa: F401  (re-exported)
    hint_positions,
    interior_joins,
    join_domains,
)
from encoders.support.margin import stop_time
from encoders.support.sat_engine import ENGINES, Cnf
from instances.edgematch.model import Instance, Solution

AMO_ENCODINGS = ("pairwise", "seqcounter", "ladder", "bitwise", "totalizer", "mtotalizer",
                 "kmtotalizer", "cardnetwrk", "sortnetwrk")
MATCHINGS = ("conflicts", "seams")
# Defaults, measured on planted 6x6-8x8 boards (5 frame + 17 inner colours): seams encode about
# 15 times faster than conflicts and solve faster; seqcounter was the fastest at-most-one.
DEFAULT_AMO, DEFAULT_MATCHING, DEFAULT_ENGINE = "seqcounter", "seams", "cadical195"

# --- the model --------------------------------------------------------------------------------


@dataclass
class CellVars:
    """One cell's placement variables and the colours each shows (rows N, E, S, W)."""

    vars: np.ndarray
    shown: np.ndarray


@dataclass
class Encoding:
    """The CNF and the table a model is decoded with: placement ``var`` is ``placements[var -
    1]`` = (cell, piece, rot); seams lists (var, join, colour)."""

    cnf: Cnf
    placements: list[tuple[int, int, int]]
    seams: list[tuple[int, int, int]]
    amo: str
    matching: str


def at_most_one(cnf: Cnf, lits: list[int], amo: str) -> None:
    """At most one of ``lits`` true, in the chosen pysat.card encoding."""
    if len(lits) < 2:
        return
    enc = CardEnc.atmost(lits, 1, top_id=cnf.nvars, encoding=getattr(EncType, amo))
    cnf.nvars = max(cnf.nvars, enc.nv)
    cnf.add(enc.clauses)


def exactly_one(cnf: Cnf, lits: list[int], amo: str) -> None:
    """One at-least-one clause (empty when nothing fits: the board is infeasible) + AMO."""
    cnf.add([list(lits)])
    at_most_one(cnf, lits, amo)


def number_placements(cnf: Cnf, legal: list[list[Placement]]
                      ) -> tuple[list[CellVars], list[tuple[int, int, int]]]:
    """Variables 1..X for the placements, cell by cell, in piece then rotation order."""
    cells, table = [], []
    for cell, options in enumerate(legal):
        first = cnf.new_vars(len(options))
        cells.append(CellVars(np.arange(first, first + len(options), dtype=np.int32),
                              np.asarray([s for _, _, s in options], dtype=np.int32)
                              .reshape(len(options), 4)))
        table.extend((cell, p, r) for p, r, _ in options)
    return cells, table


def one_per_cell_and_piece(cnf: Cnf, cells: list[CellVars], table: list[tuple[int, int, int]],
                           npieces: int, amo: str) -> None:
    """Exactly one placement per cell and exactly one per piece (P = cells)."""
    for cv in cells:
        exactly_one(cnf, cv.vars.tolist(), amo)
    by_piece: list[list[int]] = [[] for _ in range(npieces)]
    for var, (_, piece, _) in enumerate(table, start=1):
        by_piece[piece].append(var)
    for lits in by_piece:
        exactly_one(cnf, lits, amo)


def hint_units(cnf: Cnf, instance: Instance, table: list[tuple[int, int, int]]) -> None:
    """A unit clause per kept hint (a hint that is not frame-legal has no variable; its cell's
    empty at-least-one clause already says so)."""
    for i in hint_positions(instance, table):
        cnf.add([[i + 1]])


def match_by_conflicts(cnf: Cnf, cells: list[CellVars], joins: list[Join]) -> None:
    """Seed 004: ``-x_a v -x_b`` for each pair across a join showing different colours."""
    for a, side_a, b, side_b in joins:
        ca, cb = cells[a].shown[:, side_a], cells[b].shown[:, side_b]
        i, j = np.nonzero(ca[:, None] != cb[None, :])
        cnf.add_array(np.stack([-cells[a].vars[i], -cells[b].vars[j]], axis=1))


def seam_links(cnf: Cnf, cv: CellVars, side: int, domain: np.ndarray, first: int) -> None:
    """``-x v y[colour]`` for each placement of the cell; ``-x`` when the colour it shows is
    outside the seam's domain (the other cell never shows it)."""
    colours = cv.shown[:, side]
    at = np.searchsorted(domain, colours).clip(0, max(len(domain) - 1, 0))
    known = domain[at] == colours if len(domain) else np.zeros(len(colours), dtype=bool)
    cnf.add_array(np.stack([-cv.vars[known], first + at[known]], axis=1))
    cnf.add([[-int(v)] for v in cv.vars[~known]])


def match_by_seams(cnf: Cnf, cells: list[CellVars], joins: list[Join],
                   amo: str) -> list[tuple[int, int, int]]:
    """Heule 2008: per join one variable per colour both cells can show, implied by the
    placements, at most one per join. Returns the seam table (var, join, colour)."""
    seams = []
    domains = join_domains([cv.shown for cv in cells], joins)
    for join, ((a, side_a, b, side_b), domain) in enumerate(zip(joins, domains, strict=True)):
        first = cnf.new_vars(len(domain))
        seams.extend((first + k, join, int(c)) for k, c in enumerate(domain))
        seam_links(cnf, cells[a], side_a, domain, first)
        seam_links(cnf, cells[b], side_b, domain, first)
        at_most_one(cnf, list(range(first, first + len(domain))), amo)
    return seams


def encode(instance: Instance, amo: str = DEFAULT_AMO,
           matching: str = DEFAULT_MATCHING) -> Encoding:
    """The CNF of ``instance``; see the module docstring for its shape."""
    if len(instance.pieces) != instance.ncells:
        raise ValueError(f"the SAT model places every piece once: {len(instance.pieces)} pieces "
                         f"for {instance.ncells} cells")
    if amo not in AMO_ENCODINGS or matching not in MATCHINGS:
        raise ValueError(f"amo {amo!r} / matching {matching!r}: expected one of "
                         f"{AMO_ENCODINGS} / {MATCHINGS}")
    cnf = Cnf()
    cells, table = number_placements(cnf, cell_placements(instance))
    one_per_cell_and_piece(cnf, cells, table, len(instance.pieces), amo)
    hint_units(cnf, instance, table)
    joins = interior_joins(instance.rows, instance.cols)
    seams: list[tuple[int, int, int]] = []
    if matching == "conflicts":
        match_by_conflicts(cnf, cells, joins)
    else:
        seams = match_by_seams(cnf, cells, joins, amo)
    return Encoding(cnf, table, seams, amo, matching)


def decode(instance: Instance, enc: Encoding, model: list[int]) -> Solution:
    """The board from a model: the true placement of every cell."""
    cells: list[tuple[int, int] | None] = [None] * instance.ncells
    for var, (cell, piece, rot) in enumerate(enc.placements, start=1):
        if model[var - 1] > 0:
            cells[cell] = (piece, rot)
    return Solution(instance.rows, instance.cols, tuple(cells))


# --- DIMACS -----------------------------------------------------------------------------------


def dimacs_comments(instance: Instance, enc: Encoding) -> list[str]:
    """The comment lines: the instance and the variable mapping."""
    x, s = len(enc.placements), len(enc.seams)
    lines = [
        "cliffbench edgematch SAT model (encoders/edgematch_sat.py, solver 'sat')",
        f"instance {instance.instance_id} {' '.join(instance.name.split()) or '-'}: "
        f"{instance.rows}x"
        f"{instance.cols}, {len(instance.pieces)} pieces, {len(instance.hints)} hints",
        f"amo={enc.amo} matching={enc.matching}",
        f"variables 1..{x}: placements x[cell, piece, rot], numbered by cell (row-major, "
        "0-based), then piece index (0-based), then rot (clockwise quarter turns; side s shows "
        "listed edge (s - rot) % 4); only frame-legal orientations, a symmetric piece's "
        "repeated looks once; listed as 'x VAR CELL PIECE ROT'",
        f"variables {x + 1}..{x + s}: seam colours y[join, colour], listed as 'y VAR JOIN "
        "COLOUR'; joins numbered horizontal ((r,c)-(r,c+1), row-major) first, then vertical "
        "((r,c)-(r+1,c), row-major)" if s else "no seam variables",
        f"variables {x + s + 1}..{enc.cnf.nvars}: auxiliary variables of the at-most-one "
        "encodings",
    ]
    lines += [f"x {v} {cell} {p} {r}" for v, (cell, p, r) in enumerate(enc.placements, start=1)]
    lines += [f"y {v} {join} {colour}" for v, join, colour in enc.seams]
    return lines


def write_cnf(instance: Instance, path: Path | str, amo: str = DEFAULT_AMO,
              matching: str = DEFAULT_MATCHING, **_solver_only: Any) -> None:
    """``cliffbench export INSTANCE --to cnf FILE``: the model as DIMACS CNF (the solver's other
    parameters, like ``engine``, do not change the CNF and are ignored)."""
    enc = encode(instance, amo, matching)
    with open(Path(path), "w", encoding="ascii", errors="replace") as out:
        sat_engine.write_dimacs(out, dimacs_comments(instance, enc), enc.cnf)


def read_cnf(instance: Instance, true: set[int], amo: str = DEFAULT_AMO,
             matching: str = DEFAULT_MATCHING, **_solver_only: Any) -> Solution | None:
    """``reads["cnf"]``: the board of another program's answer to ``write_cnf``'s file (its
    true variables), through the same encoding's placement variables; the checker judges it
    (a cell no placement covers is left empty)."""
    enc = encode(instance, amo, matching)
    return decode(instance, enc, sat_engine.model_of(true, enc.cnf.nvars))


# --- solving ----------------------------------------------------------------------------------


def prepare() -> None:
    """Load the default engine's library and run the encoder once on a 2x2 board."""
    tiny = Instance(rows=2, cols=2, colors=1, pieces=((0, 1, 1, 0),) * 4)
    sat = sat_engine.make_engine(DEFAULT_ENGINE, encode(tiny).cnf, 0)
    sat.solve()
    sat.delete()


PARAMS = [
    Param("amo", DEFAULT_AMO, "at-most-one encoding (pysat.card.EncType) of the one-per-cell, "
          "one-per-piece and one-colour-per-seam constraints", choices=AMO_ENCODINGS),
    Param("matching", DEFAULT_MATCHING, "edge matching: 'conflicts' (binary clauses between "
          "mismatched neighbouring placements, seed 004) or 'seams' (a colour variable per "
          "join and colour, Heule 2008)", choices=MATCHINGS),
    Param("engine", DEFAULT_ENGINE, "pysat SAT solver; only the MiniSat family (glucose*, "
          "maple*, minisat22, ...) stops inside the budget, CaDiCaL, lingeling and kissat404 "
          "are killed by the runner", choices=ENGINES),
]


def model_counters(enc: Encoding) -> dict[str, float]:
    """The model's size, also kept as counters (variables, clauses, placements, seam vars)."""
    return {"variables": enc.cnf.nvars, "clauses": enc.cnf.nclauses,
            "placements": len(enc.placements), "seam_vars": len(enc.seams)}


def read_answer(out: Outcome, answer: bool | None, instance: Instance, enc: Encoding,
                sat: Any) -> None:
    """Status, board and the engine's work counters into ``out``."""
    out.status = {True: "solved", False: "infeasible", None: "unknown"}[answer]
    if answer:
        out.solution = decode(instance, enc, sat.get_model())
    out.counters.update(sat_engine.work_counters(sat_engine.engine_stats(sat)))


@solver("sat", family="edgematch", paradigm="sat", backend=f"pysat-{pysat.__version__}",
        params=PARAMS, prepare=prepare, exports={"cnf": write_cnf}, reads={"cnf": read_cnf})
def solve(instance: Instance, budget: Budget, seed: int, amo: str = DEFAULT_AMO,
          matching: str = DEFAULT_MATCHING, engine: str = DEFAULT_ENGINE) -> Outcome:
    """SAT: frame-legal placement variables, exactly-one, conflict or seam matching."""
    start = time.perf_counter()
    enc = encode(instance, amo, matching)
    sat = sat_engine.make_engine(engine, enc.cnf, seed or 0)
    try:
        out = Outcome("unknown", counters=model_counters(enc), model_vars=enc.cnf.nvars,
                      model_constraints=enc.cnf.nclauses, t_solve=0.0)
        enc.cnf.blocks.clear()  # the solver holds the clauses now
        out.t_encode = time.perf_counter() - start
        limit = stop_time(budget) - time.monotonic()
        if limit > 0:
            start = time.perf_counter()
            answer = sat_engine.run_engine(sat, engine, limit)
            out.t_solve = time.perf_counter() - start
            read_answer(out, answer, instance, enc, sat)
        return out
    finally:
        sat.delete()
