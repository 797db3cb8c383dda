"""N-queens completion, a cliffbench problem family declared as a plug-in.

``FAMILY`` is what the ``cliffbench.families`` entry point names; the solver lives in
``nqueens_family.backtrack`` (the ``cliffbench.solvers`` entry point). Nothing here imports
the harness: the family's parts (and its checker) stand on their own.
"""

from __future__ import annotations

from instances.family import Family

from nqueens_family.check import check
from nqueens_family.formats import SUFFIXES, read_file, read_solution, render, write_file
from nqueens_family.generators import PLANTED
from nqueens_family.model import Instance, Solution

FAMILY = Family(
    name="nqueens",
    summary="N-queens completion: a queen on every row of an n x n board, some given, no two "
            "attacking",
    instance_type=Instance,
    solution_type=Solution,
    suffixes=SUFFIXES,
    read_file=read_file,
    write_file=write_file,
    read_solution=read_solution,
    generators={"planted": PLANTED},
    check=check,
    render=render,
    picture="nqueens_family.picture:draw",
    examples=("nqueens/planted:n=6,given=2,seed=1", "nqueens/planted:n=12,given=4,seed=2"),
)
