"""Latin squares with holes (quasigroup completion): the ``latin`` family.

Declared as ``FAMILY`` (the contract is ``instances.family.Family``) and found, like any
plug-in, through its ``cliffbench.families`` entry point only. The types live in ``model``, the
files (lsencode's ``.pls``, a JSON form) in ``formats``, the independent checker in ``check``,
the generators ``qwh`` and ``qcp`` in ``generators`` (the random Latin square of ``chain``, the
cell patterns of ``patterns``, what ``completion`` can tell about a square's completions), the
text in ``render`` and the picture in ``picture``.
"""

from __future__ import annotations

from instances.family import Family
from instances.latin.check import check
from instances.latin.formats import (
    SUFFIXES,
    read_file,
    read_solution,
    sniff,
    write_file,
)
from instances.latin.generators import GENERATORS
from instances.latin.model import HOLE, MAX_ORDER, Instance, Solution
from instances.latin.render import render

FAMILY = Family(
    name="latin",
    summary="Latin squares with holes: fill every hole so that no row or column repeats a "
            "symbol (QWH: planted, QCP: may have no completion)",
    instance_type=Instance,
    solution_type=Solution,
    suffixes=SUFFIXES,
    read_file=read_file,
    write_file=write_file,
    read_solution=read_solution,
    generators=GENERATORS,
    check=check,
    render=render,
    sniff=sniff,
    picture="instances.latin.picture:draw",
    picture_dpi=80,
    examples=(
        "latin/qwh:order=5,fraction=0.4,seed=1",
        "latin/qwh:order=8,fraction=0.42,pattern=balanced,seed=2",
        "latin/qwh:order=12,fraction=0.42,seed=3",
        "latin/qcp:order=7,fraction=0.5,seed=1",  # forward checking refutes it
        "latin/qcp:order=8,fraction=0.5,seed=9",  # the generator cannot tell
    ),
)

__all__ = ["FAMILY", "GENERATORS", "HOLE", "MAX_ORDER", "SUFFIXES", "Instance", "Solution",
           "check", "read_file", "read_solution", "render", "sniff", "write_file"]
