"""Sliding tiles (8-, 15-, 24-puzzle and any rectangle): the ``tiles`` family.

The family interface of ``instances`` (see its docstring): types and solvability in ``model``,
Korf's lists in ``formats``, the checker in ``check``, the notebook's scramble and uniform
random states in ``generators``, the board in ``render``. ``OBJECTIVE = "min"``: a solution's
score is its length, and fewer moves is better.
"""

from __future__ import annotations

from instances import Generator
from instances.tiles.check import check
from instances.tiles.formats import (
    SUFFIXES,
    parse_text,
    read_file,
    read_solution,
    sniff,
    write_file,
)
from instances.tiles.generators import RANDOM, SCRAMBLE
from instances.tiles.model import GOALS, Instance, Solution, apply_moves, goal_state, solvable
from instances.tiles.render import render

OBJECTIVE = "min"
GENERATORS: dict[str, Generator] = {"scramble": SCRAMBLE, "random": RANDOM}

__all__ = [
    "GENERATORS",
    "GOALS",
    "OBJECTIVE",
    "SUFFIXES",
    "Instance",
    "Solution",
    "apply_moves",
    "check",
    "goal_state",
    "parse_text",
    "read_file",
    "read_solution",
    "render",
    "sniff",
    "solvable",
    "write_file",
]
