"""The independent checker: is a grid a Sudoku solution of its puzzle?

Shares nothing with any solver: units are rebuilt here from the definition (rows, columns,
boxes), and a grid is judged by sets, the slowest and plainest way to say "a permutation".
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import numpy as np
import orjson

from instances.common import Verdict
from instances.sudoku.model import Instance, Solution, code_rows, grid_rows, line_rows, symbol


def units(box: int) -> list[tuple[str, list[int]]]:
    """Every unit of a board as (name, cells): its rows, its columns, its boxes."""
    size = box * box
    rows = [(f"row {r + 1}", [r * size + c for c in range(size)]) for r in range(size)]
    cols = [(f"column {c + 1}", [r * size + c for r in range(size)]) for c in range(size)]
    boxes = [(f"box {b + 1}", [(box * (b // box) + i) * size + box * (b % box) + j
                               for i in range(box) for j in range(box)]) for b in range(size)]
    return rows + cols + boxes


def check(instance: Instance, solution: Solution) -> Verdict:
    """``legal``: same shape, every clue kept, no digit twice in a unit (blanks allowed).
    ``solved``: legal and complete (so every unit is a permutation of 1..size)."""
    if solution.box != instance.box:
        return Verdict(False, False, reason=f"a {solution.box * solution.box}-digit grid for a "
                                            f"{instance.size}-digit puzzle")
    size = instance.size
    for cell, (clue, value) in enumerate(zip(instance.grid, solution.grid, strict=True)):
        if clue and value != clue:
            return Verdict(False, False, reason=f"clue {symbol(clue)} at r{cell // size + 1}"
                                                f"c{cell % size + 1} changed to {symbol(value)}")
    for name, cells in units(instance.box):
        digits = [solution.grid[c] for c in cells if solution.grid[c]]
        if len(set(digits)) != len(digits):
            twice = next(d for d in digits if digits.count(d) > 1)
            return Verdict(False, False, reason=f"digit {symbol(twice)} twice in {name}")
    blanks = sum(v == 0 for v in solution.grid)
    if blanks:
        return Verdict(True, False, reason=f"{blanks} cells left blank")
    return Verdict(True, True)


@cache
def _unit_table(box: int) -> np.ndarray:
    """The cells of every unit, one row per unit (rows, columns, boxes), from ``units``."""
    return np.array([cells for _, cells in units(box)], dtype=np.intp)


def solved_rows(puzzles: np.ndarray, answers: np.ndarray, box: int) -> np.ndarray:
    """For each (puzzle, answer) row pair of one box side: whether the answer keeps every clue
    and each of its units holds every digit 1..size (a solved grid: a unit's ``size`` cells
    showing all ``size`` digits hold each once). A unit is judged by the OR of its cells'
    bits ``1 << digit``: all of 1..size and nothing else (a blank's bit 0, a value past
    ``size`` clamped to bit ``size + 1``, one below 0 to bit 0) is solved."""
    size = box * box
    kept = ((puzzles == 0) | (puzzles == answers)).all(axis=1)
    bits = _bit_table(size)[np.clip(answers, 0, size + 1)]
    full = (1 << (size + 1)) - 2
    return kept & (np.bitwise_or.reduce(bits[:, _unit_table(box)], axis=2) == full).all(axis=1)


@cache
def _bit_table(size: int) -> np.ndarray:
    """``1 << d`` for each d in 0..size + 1, in the smallest integer type that holds them."""
    kind = np.uint16 if size < 15 else np.uint32 if size < 31 else np.uint64
    return np.left_shift(kind(1), np.arange(size + 2, dtype=kind))


#: The verdict on a solved grid (one object: a verdict is immutable).
SOLVED = Verdict(True, True)


def check_texts(instances: list[Instance], texts: list[str | None]) -> list[Verdict | None]:
    """The solved verdict for each answer text that is ``{"box": b, "grid": line}`` of the
    puzzle's box side, whose line read by symbols (``to_line``'s: ``.`` and the box's digits;
    anything else reads as a blank) is a solved grid of the puzzle, judged together as
    arrays; None for every other (not judged here: the harness reads it and asks ``check``,
    which gives the reason). Texts in the compact form solvers write are judged without a
    JSON parse (:func:`judge_compact`)."""
    out: list[Verdict | None] = [None] * len(instances)
    rest = judge_compact(instances, texts, out)
    groups: dict[int, list[tuple[int, str]]] = {}
    for j, data in read_texts([texts[i] for i in rest]):
        i = rest[j]
        instance = instances[i]
        grid = data.get("grid") if type(data) is dict and data.get("box") == instance.box \
            else None
        if type(grid) is str and len(grid) == instance.box ** 4 and grid.isascii():
            groups.setdefault(instance.box, []).append((i, grid))
    for box, members in groups.items():
        puzzles = grid_rows([instances[i] for i, _ in members], np.uint8)
        good = solved_rows(puzzles, line_rows([line for _, line in members], np.uint8), box)
        for (i, _), solved in zip(members, good.tolist(), strict=True):
            if solved:
                out[i] = SOLVED
    return out


def judge_compact(instances: list[Instance], texts: list[str | None],
                  out: list[Verdict | None]) -> list[int]:
    """Where every puzzle has one box side ``b`` and every text is ASCII and as long as
    ``{"box":b,"grid":"LINE"}`` with a line of ``b**4`` characters: the texts of exactly that
    form (no quote, backslash or control character in the line, so that it reads as JSON to
    that object and nothing else) are judged at once, cut from one array of the texts' bytes,
    as :func:`check_texts` judges their parsed line, and ``out`` marked ``SOLVED`` where
    solved; returns the places of the texts left to read (all of them where the texts are not
    all of that length and box)."""
    every = list(range(len(texts)))
    boxes = {instance.box for instance in instances}
    if len(boxes) != 1 or None in texts:
        return every
    box = boxes.pop()
    head = f'{{"box":{box},"grid":"'.encode("ascii")
    width = len(head) + box ** 4 + 2
    joined = "".join(texts)
    if set(map(len, texts)) != {width} or not joined.isascii():
        return every
    rows = np.frombuffer(joined.encode("ascii"), dtype=np.uint8).reshape(len(texts), width)
    lines = rows[:, len(head):-2]
    compact = ((rows[:, :len(head)] == np.frombuffer(head, dtype=np.uint8)).all(axis=1)
               & (rows[:, -2:] == np.frombuffer(b'"}', dtype=np.uint8)).all(axis=1)
               & ~((lines == ord('"')) | (lines == ord("\\")) | (lines < 0x20)).any(axis=1))
    solved = compact & solved_rows(grid_rows(instances, np.uint8), code_rows(lines, np.uint8),
                                   box)
    if solved.all():
        out[:] = [SOLVED] * len(out)
    else:
        for i in np.flatnonzero(solved).tolist():
            out[i] = SOLVED
    return np.flatnonzero(~compact).tolist()


def read_texts(texts: list[str | None]) -> list[tuple[int, Any]]:
    """(place, value) of each JSON text that reads as one value: all of them in one parse of
    ``[text, text, ...]`` where that gives one value a text (a text of two values, ``1,2``,
    or none breaks the count or the parse), else one parse each (those that fail left
    out). The joined parse is orjson's: it refuses ``NaN`` (the texts are then parsed one by
    one) and reads an integer past 64 bits as a float, neither of which is a box side."""
    present = [i for i, text in enumerate(texts) if text is not None]
    try:
        values = orjson.loads("[" + ",".join([texts[i] for i in present]) + "]")
        if len(values) == len(present):
            return list(zip(present, values, strict=True))
    except ValueError:
        pass
    out = []
    for i in present:
        try:
            out.append((i, json.loads(texts[i])))
        except ValueError:
            continue
    return out


def check_many(instances: list[Instance], solutions: list[Solution]) -> list[Verdict]:
    """``check`` of each (puzzle, answer) pair, faster for many: the answers of one box side
    that keep their clues and hold each digit once in every unit are solved, judged together
    as arrays (each unit's sorted cells must be 1..size); every other pair gets ``check``
    itself, so each verdict, reason included, is ``check``'s."""
    out: list[Verdict | None] = [None] * len(instances)
    groups: dict[int, list[int]] = {}
    for i, (instance, solution) in enumerate(zip(instances, solutions, strict=True)):
        if solution.box == instance.box:
            groups.setdefault(instance.box, []).append(i)
    for box, members in groups.items():
        puzzles = grid_rows([instances[i] for i in members])
        answers = grid_rows([solutions[i] for i in members])
        for i, good in zip(members, solved_rows(puzzles, answers, box), strict=True):
            if good:
                out[i] = SOLVED
    return [verdict if verdict is not None else check(instance, solution)
            for verdict, instance, solution in zip(out, instances, solutions, strict=True)]
