"""The checker's array judgement, compiled: many (puzzle, answer) grids of one box side judged
in one pass, for the checker's batch paths (``check.solved_rows``, ``check.judge_compact``).

Glossary (as in ``check``): a *unit* is a row, column or box, given as the cells it holds (one
row of ``units`` per unit); a grid is *solved* when it keeps every clue of its puzzle and each
unit's cells show every digit 1..size. A unit is judged by the OR of its cells' bits
``1 << digit``: all of 1..size and nothing else is ``full = (1 << (size + 1)) - 2`` (a blank's
bit 0, a digit past ``size`` clamped to bit ``size + 1``, one below 0 to bit 0, so that
neither can complete a unit). Imports nothing of the solvers or the harness.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def _row_solved(puzzle: np.ndarray, answer: np.ndarray, units: np.ndarray, size: int) -> bool:
    """Whether one answer (its digits) keeps the puzzle's clues and fills every unit."""
    for cell in range(puzzle.shape[0]):
        if puzzle[cell] != 0 and puzzle[cell] != answer[cell]:
            return False
    full = (np.int64(1) << (size + 1)) - 2
    for unit in range(units.shape[0]):
        seen = np.int64(0)
        for k in range(units.shape[1]):
            digit = np.int64(answer[units[unit, k]])
            if digit < 0:
                digit = 0
            elif digit > size:
                digit = size + 1
            seen |= np.int64(1) << digit
        if seen != full:
            return False
    return True


@njit(cache=True)
def solved_digit_rows(puzzles: np.ndarray, answers: np.ndarray, units: np.ndarray, size: int,
                      out: np.ndarray) -> None:
    """``out[i]``: whether ``answers[i]`` (digits) solves ``puzzles[i]`` (digits, 0 blank)."""
    for i in range(puzzles.shape[0]):
        out[i] = _row_solved(puzzles[i], answers[i], units, size)


@njit(cache=True)
def judge_compact_rows(rows: np.ndarray, head: np.ndarray, tail: np.ndarray,
                       puzzles: np.ndarray, digit_of_code: np.ndarray, units: np.ndarray,
                       size: int, compact: np.ndarray, solved: np.ndarray) -> None:
    """For each row of answer bytes (``rows``, one answer text a row, all of one length):
    ``compact[i]``, whether it is ``head``, a line, then ``tail``, the line holding no quote,
    backslash or control character (so that the text reads as JSON to exactly that object);
    ``solved[i]``, whether it is compact and its line, read by ``digit_of_code`` (each
    character code's digit, 0 for what is no symbol), solves ``puzzles[i]``."""
    cells = puzzles.shape[1]
    begin = head.shape[0]
    answer = np.zeros(cells, dtype=np.int64)
    for i in range(rows.shape[0]):
        row = rows[i]
        good = True
        for k in range(begin):
            if row[k] != head[k]:
                good = False
                break
        for k in range(tail.shape[0]):
            if row[begin + cells + k] != tail[k]:
                good = False
        for cell in range(cells):
            code = row[begin + cell]
            if code == 34 or code == 92 or code < 32:  # '"', '\\', a control character
                good = False
            answer[cell] = digit_of_code[code]
        compact[i] = good
        solved[i] = good and _row_solved(puzzles[i], answer, units, size)
