"""Edge matching (Eternity II and its smaller cousins): the ``edgematch`` family.

The family interface of ``instances`` (see its docstring): the types live in ``model``, the file
formats in ``formats``, the independent checker in ``check``, the generator in ``planted``, the
text board in ``render``.
"""

from __future__ import annotations

from instances import Generator
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
from instances.edgematch.model import Hint, Instance, Solution, rotated
from instances.edgematch.planted import PLANTED, hint_cells
from instances.edgematch.render import render

GENERATORS: dict[str, Generator] = {"planted": PLANTED}

__all__ = [
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
