"""The independent checker of edge-matching answers.

Written from the rules alone, sharing nothing with any solver or encoder, so that a bug in a
solver cannot hide behind the same bug here. The rules, checked in this order (the verdict names
the first one broken, with its cell):

1. the board has the instance's dimensions;
2. every non-empty cell holds a valid piece index and a rotation 0..3;
3. no piece is used twice;
4. every hint is kept: its cell, if filled, holds the pinned piece at the pinned rotation, and the
   pinned piece stands nowhere else (an empty hint cell on a partial board is allowed);
5. grey faces the outside and only the outside: a placed frame cell shows grey exactly on its
   outer sides, a placed interior cell shows no grey.

A board obeying all five is *legal*, even if partial or mismatched. Its *score* is the number of
interior joins whose two cells are placed and show the same colour; it is *solved* when it is
legal, full and scores ``instance.max_score``.
"""

from __future__ import annotations

import operator
from typing import Any

from instances.common import InstanceError, Verdict
from instances.edgematch.model import E, Instance, N, S, W, rotated

SIDE_NAMES = "NESW"
Board = list[tuple[int, int] | None]


def _shape_problem(instance: Instance, solution: Any) -> str:
    """Rule 1: dimensions and cell count (tolerating objects that are not Solutions at all)."""
    rows, cols = getattr(solution, "rows", None), getattr(solution, "cols", None)
    if (rows, cols) != (instance.rows, instance.cols):
        return f"the board is {rows}x{cols}, the instance is {instance.rows}x{instance.cols}"
    try:
        count = len(solution.cells)
    except (AttributeError, TypeError):
        return "the solution has no list of cells"
    if count != instance.ncells:
        return f"the board lists {count} cells, a {rows}x{cols} board has {instance.ncells}"
    return ""


def _cell_value(value: Any, pieces: int) -> tuple[int, int] | str:
    """Rule 2 for one cell: ``(piece, rot)`` as plain ints, or what is wrong with it."""
    try:
        piece, rot = value
        if isinstance(piece, bool) or isinstance(rot, bool):
            raise TypeError
        piece, rot = operator.index(piece), operator.index(rot)
    except (TypeError, ValueError):
        return f"holds {value!r}, not a (piece, rotation) pair of integers"
    if not 0 <= piece < pieces:
        return f"holds piece index {piece}, not one of 0..{pieces - 1}"
    if not 0 <= rot <= 3:
        return f"holds rotation {rot}, not one of 0..3"
    return piece, rot


def _board(instance: Instance, solution: Any) -> tuple[Board, str]:
    """Rules 1-2: the cells as plain ``(piece, rot)`` tuples, or the first problem found."""
    problem = _shape_problem(instance, solution)
    if problem:
        return [], problem
    board: Board = []
    for cell, value in enumerate(solution.cells):
        if value is None:
            board.append(None)
            continue
        checked = _cell_value(value, len(instance.pieces))
        if isinstance(checked, str):
            return [], f"cell {_rc(instance, cell)} {checked}"
        board.append(checked)
    return board, ""


def _rc(instance: Instance, cell: int) -> str:
    return f"({cell // instance.cols},{cell % instance.cols})"


def _duplicate_problem(instance: Instance, board: Board) -> str:
    """Rule 3: each piece at most once."""
    where: dict[int, int] = {}
    for cell, value in enumerate(board):
        if value is None:
            continue
        if value[0] in where:
            return (f"piece id {instance.ids[value[0]]} used twice (cells "
                    f"{_rc(instance, where[value[0]])} and {_rc(instance, cell)})")
        where[value[0]] = cell
    return ""


def _hint_problem(instance: Instance, board: Board) -> str:
    """Rule 4: each hint in its cell at its rotation; its piece nowhere else."""
    at = {value[0]: cell for cell, value in enumerate(board) if value is not None}
    for hint in instance.hints:
        pid = instance.ids[hint.piece]
        cell = hint.row * instance.cols + hint.col
        if not (0 <= hint.row < instance.rows and 0 <= hint.col < instance.cols):
            return f"hint piece id {pid} is pinned off the board at ({hint.row},{hint.col})"
        value = board[cell]
        if value is not None and value != (hint.piece, hint.rot):
            return (f"hint cell ({hint.row},{hint.col}) must hold piece id {pid} turned "
                    f"{hint.rot}, it holds id {instance.ids[value[0]]} turned {value[1]}")
        if hint.piece in at and at[hint.piece] != cell:
            return (f"hint piece id {pid} stands at {_rc(instance, at[hint.piece])}, not at its "
                    f"pinned cell ({hint.row},{hint.col})")
    return ""


def _outer_sides(instance: Instance, row: int, col: int) -> tuple[bool, bool, bool, bool]:
    """Which sides (N, E, S, W) of a cell face the outside of the board."""
    return (row == 0, col == instance.cols - 1, row == instance.rows - 1, col == 0)


def _grey_problem(instance: Instance, board: Board) -> str:
    """Rule 5: grey on exactly the outer sides of every placed cell."""
    for cell, value in enumerate(board):
        if value is None:
            continue
        row, col = divmod(cell, instance.cols)
        shown = rotated(instance.pieces[value[0]], value[1])
        for side, outer in enumerate(_outer_sides(instance, row, col)):
            if outer and shown[side] != 0:
                return (f"frame cell ({row},{col}) shows colour {shown[side]} on its outer "
                        f"{SIDE_NAMES[side]} side, where grey belongs")
            if not outer and shown[side] == 0:
                return (f"cell ({row},{col}) shows grey on its inner {SIDE_NAMES[side]} side "
                        "(grey only faces the outside)")
    return ""


def _joins(instance: Instance, board: Board) -> tuple[int, tuple[int, int] | None]:
    """Matched interior joins, and the first placed mismatched join (its two cells)."""
    cols, matched, first = instance.cols, 0, None
    shown = [None if v is None else rotated(instance.pieces[v[0]], v[1]) for v in board]
    for cell, here in enumerate(shown):
        if here is None:
            continue
        row, col = divmod(cell, cols)
        neighbours = []
        if col + 1 < cols:
            neighbours.append((cell + 1, E, W))
        if row + 1 < instance.rows:
            neighbours.append((cell + cols, S, N))
        for other, mine, theirs in neighbours:
            there = shown[other]
            if there is None:
                continue
            if here[mine] == there[theirs]:
                matched += 1
            elif first is None:
                first = (cell, other)
    return matched, first


def score(instance: Instance, solution: Any) -> int:
    """Matched interior joins of a board (partial or full, legal or not).

    Raises InstanceError when the board cannot be read (wrong size, a bad cell): then there is
    nothing to count.
    """
    board, problem = _board(instance, solution)
    if problem:
        raise InstanceError(problem)
    return _joins(instance, board)[0]


def check(instance: Instance, solution: Any) -> Verdict:
    """The verdict on an answer: legal (rules 1-5), score, and solved (legal, full, max score).

    The score is reported for every readable board, legal or not, so a report can still show
    how far an illegal answer got; it is None only when rules 1-2 fail.
    """
    best = instance.max_score
    board, problem = _board(instance, solution)
    if problem:
        return Verdict(False, False, None, best, problem)
    matched, first = _joins(instance, board)
    for rule in (_duplicate_problem, _hint_problem, _grey_problem):
        problem = rule(instance, board)
        if problem:
            return Verdict(False, False, matched, best, problem)
    empty = sum(value is None for value in board)
    if empty:
        return Verdict(True, False, matched, best,
                       f"board incomplete: {empty} of {instance.ncells} cells empty")
    if matched < best:
        where = "" if first is None else (
            f", the first between {_rc(instance, first[0])} and {_rc(instance, first[1])}")
        return Verdict(True, False, matched, best,
                       f"score {matched}/{best}: {best - matched} joins mismatched{where}")
    return Verdict(True, True, matched, best, "")
