"""The ``.queens`` text format, which is also the board as ``render`` draws it.

A file holds boards separated by blank lines. A board is ``n`` lines of ``n`` characters,
``Q`` a given queen and ``.`` an empty square; a line ``# solution 3 6 2 7 1 4 0 5`` under it
(the column of each row's queen) is its known solution; other ``#`` lines are comments::

    # planted: n=4, 1 given
    .Q..
    ....
    ....
    ....
    # solution 1 3 0 2
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from instances.common import Generated, InstanceError, read_text, text_lines

from nqueens_family.model import Instance, Solution

SUFFIXES = (".queens",)


def render(instance: Instance, solution: Solution | None = None) -> str:
    """The board: ``Q`` a given queen, ``q`` a queen of the answer, ``.`` an empty square."""
    rows = [["."] * instance.n for _ in range(instance.n)]
    for row, col in enumerate(solution.cols if solution is not None else ()):
        if row < instance.n and 0 <= col < instance.n:
            rows[row][col] = "q"
    for row, col in instance.given:
        rows[row][col] = "Q"
    return "\n".join("".join(row) for row in rows)


def parse_columns(text: str, path: str | Path, line: int | None = None) -> Solution:
    """``3 6 2 7 ...`` as an answer."""
    try:
        return Solution(tuple(int(word) for word in text.split()))
    except ValueError:
        raise InstanceError(f"a solution is the column of each row's queen, got {text!r}",
                            str(path), line) from None


def read_file(path: str | Path) -> list[Generated]:
    """Every board of a file, with its solution line as the secret where it has one."""
    out: list[Generated] = []
    board: list[str] = []
    secret: Solution | None = None
    lines = text_lines(read_text(path))
    for number, line in enumerate([*lines, ""], 1):  # a blank line closes the last board
        text = line.strip()
        if text.startswith("# solution"):
            secret = parse_columns(text.removeprefix("# solution"), path, number)
        elif text.startswith("#"):
            continue
        elif text:
            if set(text) - {"Q", "."}:
                raise InstanceError("a board line is made of Q and .", str(path), number)
            board.append(text)
        elif board:
            if any(len(row) != len(board) for row in board):
                raise InstanceError(f"a board of {len(board)} lines has {len(board)} squares "
                                    "a line", str(path), number - 1)
            given = tuple((r, c) for r, row in enumerate(board)
                          for c, char in enumerate(row) if char == "Q")
            try:
                instance = Instance(len(board), given, f"{Path(path).stem}-{len(out) + 1}")
            except InstanceError as exc:
                raise InstanceError(exc.reason, str(path), number - 1) from None
            out.append(Generated(instance, secret, True if secret is not None else None,
                                 {"n": instance.n, "given": len(given)}, str(path)))
            board, secret = [], None
    return out


def write_file(path: str | Path, instance: Instance, secret: Solution | None = None) -> None:
    """One board (``read_file``'s inverse)."""
    text = render(instance) + "\n"
    if secret is not None:
        text += "# solution " + " ".join(map(str, secret.cols)) + "\n"
    Path(path).write_text(text, encoding="utf-8")


def read_solution(path: str | Path, instance: Instance) -> Solution:
    """An answer: a line of columns, or the JSON ``cliffbench solve --json`` prints."""
    text = read_text(path).strip()
    if not text.startswith("{"):
        return parse_columns(text.removeprefix("# solution"), path)
    try:
        data: Any = json.loads(text)
    except ValueError as exc:
        raise InstanceError(f"not valid JSON: {exc}", str(path)) from None
    return Solution.from_json(data.get("solution", data) if isinstance(data, dict) else data,
                              instance)
