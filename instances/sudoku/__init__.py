"""Sudoku of box side 2 to 5 (4x4 to 25x25): the ``sudoku`` family.

Declared as ``FAMILY`` (the contract is ``instances.family.Family``): the types live in
``model``, the file formats in ``formats``, the independent checker in ``check``, the generator
in ``planted`` (with its own small solver in ``reference``), the drawn grid in ``render``."""

from __future__ import annotations

from instances.family import Family, Generator
from instances.sudoku.check import check, check_many, check_texts, units
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
from instances.sudoku.generators import PLANTED
from instances.sudoku.model import SYMBOLS, Instance, Solution
from instances.sudoku.render import render

GENERATORS: dict[str, Generator] = {"planted": PLANTED}

FAMILY = Family(
    name="sudoku",
    summary="Sudoku of any box size: fill the grid so that no row, column or box repeats a digit",
    instance_type=Instance,
    solution_type=Solution,
    suffixes=SUFFIXES,
    read_file=read_file,
    write_file=write_file,
    read_solution=read_solution,
    generators=GENERATORS,
    check=check,
    check_many=check_many,
    check_texts=check_texts,
    render=render,
    sniff=sniff,
    picture="instances.sudoku.picture:draw",
    picture_dpi=80,
    examples=("sudoku/planted:box=2,clues=6,seed=1", "sudoku/planted:box=3,clues=30,seed=1"),
)

__all__ = [
    "FAMILY",
    "GENERATORS",
    "SUFFIXES",
    "SYMBOLS",
    "Instance",
    "Solution",
    "check",
    "check_many",
    "check_texts",
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
