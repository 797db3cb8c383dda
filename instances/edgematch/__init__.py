"""Edge matching (Eternity II and its smaller cousins): the ``edgematch`` family.

Declared as ``FAMILY`` (the contract is ``instances.family.Family``): the types live in
``model``, the file formats in ``formats``, the independent checker in ``check``, the generator
in ``planted``, the text board in ``render``."""

from __future__ import annotations

from instances.edgematch.check import check, score
from instances.edgematch.formats import (
    SUFFIXES,
    format_emp,
    parse_solution,
    parse_text,
    read_file,
    read_solution,
    write_file,
)
from instances.edgematch.generators import PLANTED, hint_cells
from instances.edgematch.model import Hint, Instance, Solution, rotated
from instances.edgematch.render import render
from instances.family import Family, Generator

GENERATORS: dict[str, Generator] = {"planted": PLANTED}

FAMILY = Family(
    name="edgematch",
    summary="edge matching: square pieces with coloured sides, placed and turned so that every "
            "join matches (Eternity II)",
    instance_type=Instance,
    solution_type=Solution,
    suffixes=SUFFIXES,
    read_file=read_file,
    write_file=write_file,
    read_solution=read_solution,
    generators=GENERATORS,
    check=check,
    render=render,
    score_meaning="joins matched",
    picture="instances.edgematch.picture:draw",
    picture_dpi=80,
    examples=("edgematch/planted:n=4,border=5,inner=17,hints=0,seed=4",
              "edgematch/planted:n=4,border=5,inner=17,hints=max,seed=9",
              "edgematch/planted:n=5,border=5,inner=17,hints=0,seed=5",
              "edgematch/planted:n=5,border=5,inner=17,hints=max,seed=10"),
)

__all__ = [
    "FAMILY",
    "GENERATORS",
    "SUFFIXES",
    "Hint",
    "Instance",
    "Solution",
    "check",
    "format_emp",
    "hint_cells",
    "parse_solution",
    "parse_text",
    "read_file",
    "read_solution",
    "render",
    "rotated",
    "score",
    "write_file",
]
