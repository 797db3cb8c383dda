"""Sliding tiles (8-, 15-, 24-puzzle and any rectangle): the ``tiles`` family.

Declared as ``FAMILY`` (the contract is ``instances.family.Family``): types and solvability in
``model``, Korf's lists in ``formats``, the checker in ``check``, the random-walk scramble and
uniform random states in ``generators``, the board in ``render``. ``OBJECTIVE = "min"``: a
solution's score is its length, and fewer moves is better."""

from __future__ import annotations

from instances.family import Family, Generator
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

FAMILY = Family(
    name="tiles",
    summary="sliding tiles (8-, 15-, 24-puzzle, any rectangle): the fewest moves to the goal",
    instance_type=Instance,
    solution_type=Solution,
    suffixes=SUFFIXES,
    read_file=read_file,
    write_file=write_file,
    read_solution=read_solution,
    generators=GENERATORS,
    check=check,
    render=render,
    objective=OBJECTIVE,
    sniff=sniff,
    picture="instances.tiles.picture:draw",
    picture_dpi=100,
    commands="searches.support.tiles_pdb_cli:add_commands",
    examples=("tiles/random:rows=3,cols=3,seed=1", "tiles/scramble:rows=3,cols=3,steps=20,seed=1"),
)

__all__ = [
    "FAMILY",
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
