"""Two-player games: the ``games`` family.

Declared as ``FAMILY`` (the contract is ``instances.family.Family``). Three kinds of instance in
``model``: ``Board`` (m,n,k-games: tic-tac-toe, Connect Four; positions given by the rules in
``rules``), ``GameTree`` (uniform valued trees from a seed) and ``GameGraph`` (explicit
reachability games; ``graphs`` builds them from rules or at random). Answers: a ``Line`` (value
and principal variation) or a ``Labelling`` (every position's label, strategy and layer),
checked by ``check``. Values are for the player to move at the start (+1 win, 0 draw, -1 loss;
a tree's minimax value), and larger is better for the solver's claim: ``OBJECTIVE = "max"``.
"""

from __future__ import annotations

from instances.family import Family
from instances.games.check import check, fixed_point_attractor, graph_values, minimax_of_tree
from instances.games.formats import (
    SUFFIXES,
    parse_known_values,
    parse_text,
    read_file,
    read_solution,
    write_file,
)
from instances.games.generators import GENERATORS
from instances.games.graphs import board_graph, nim_graph, random_graph, subtraction_graph
from instances.games.model import (
    Board,
    GameGraph,
    GameTree,
    Instance,
    Labelling,
    Line,
    Solution,
)
from instances.games.render import render

OBJECTIVE = "max"

FAMILY = Family(
    name="games",
    summary="two-player games (tic-tac-toe, Connect Four, game trees and graphs): the value "
            "under perfect play",
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
    picture="instances.games.picture:draw",
    picture_dpi=120,
    examples=("games/tree:depth=3,arity=3,seed=1", "games/tictactoe", "games/nim:heaps=1-2-3"),
)

__all__ = [
    "FAMILY",
    "GENERATORS", "OBJECTIVE", "SUFFIXES", "Board", "GameGraph", "GameTree", "Instance",
    "Labelling", "Line", "Solution", "board_graph", "check", "fixed_point_attractor",
    "graph_values", "minimax_of_tree", "nim_graph", "parse_known_values", "parse_text",
    "random_graph", "read_file", "read_solution", "render", "subtraction_graph",
    "write_file",
]
