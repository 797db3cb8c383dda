"""Two-player games: the ``games`` family.

The family interface of ``instances`` (see its docstring). Three kinds of instance in
``model``: ``Board`` (m,n,k-games: tic-tac-toe, Connect Four; positions given by the rules in
``rules``), ``GameTree`` (uniform valued trees from a seed) and ``GameGraph`` (explicit
reachability games; ``graphs`` builds them from rules or at random). Answers: a ``Line`` (value
and principal variation) or a ``Labelling`` (every position's label, strategy and layer),
checked by ``check``. Values are for the player to move at the start (+1 win, 0 draw, -1 loss;
a tree's minimax value), and larger is better for the solver's claim: ``OBJECTIVE = "max"``.
"""

from __future__ import annotations

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

__all__ = [
    "GENERATORS", "OBJECTIVE", "SUFFIXES", "Board", "GameGraph", "GameTree", "Instance",
    "Labelling", "Line", "Solution", "board_graph", "check", "fixed_point_attractor",
    "graph_values", "minimax_of_tree", "nim_graph", "parse_known_values", "parse_text",
    "random_graph", "read_file", "read_solution", "render", "subtraction_graph",
    "write_file",
]
