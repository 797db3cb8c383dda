"""Sudoku of box side 2 to 5 (4x4 to 25x25): the ``sudoku`` family.

The family interface of ``instances`` (see its docstring): the types live in ``model``, the file
formats in ``formats``, the independent checker in ``check``, the generator in ``planted`` (with
its own small solver in ``reference``), the drawn grid in ``render``.
"""

from __future__ import annotations

from instances import Generator
from instances.sudoku.check import check, units
from instances.sudoku.formats import (
    SUFFIXES,
    parse_drawn,
    parse_line,
    parse_text,
    read_file,
    read_solution,
    sniff,
    write_file,
)
from instances.sudoku.model import SYMBOLS, Instance, Solution
from instances.sudoku.planted import PLANTED
from instances.sudoku.render import render

GENERATORS: dict[str, Generator] = {"planted": PLANTED}

__all__ = [
    "GENERATORS",
    "SUFFIXES",
    "SYMBOLS",
    "Instance",
    "Solution",
    "check",
    "parse_drawn",
    "parse_line",
    "parse_text",
    "read_file",
    "read_solution",
    "render",
    "sniff",
    "units",
    "write_file",
]
