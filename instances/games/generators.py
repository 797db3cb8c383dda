"""The generators of the family, each a pure function of its parameters and seed.

Boards (``tictactoe``, ``connect4``, ``mnk``) take the moves already played as ``3-3-4``
(columns with gravity, cells without) and a ``form``: ``rules`` (the Board itself, positions
implicit) or ``graph`` (every position reachable from it, built as an explicit GameGraph).
``nim`` and ``subtraction`` are graphs (their known value comes from Bouton's rule and from the
``{1..t}`` rule: the heap's size mod t+1). ``random-graph`` draws a reachability game;
``tree`` a uniform valued tree. Seeds matter only to the random ones.
"""

from __future__ import annotations

import re
from functools import reduce
from math import comb, prod
from operator import xor
from typing import Any

from instances.common import (
    Generated,
    InstanceError,
    bool_param,
    choice_param,
    float_param,
    int_param,
    refusal,
    seed_param,
    shown,
)
from instances.family import Generator
from instances.games.graphs import board_graph, nim_graph, random_graph, subtraction_graph
from instances.games.model import MAX_TREE_LEAVES, Board, GameTree

FORMS = ("rules", "graph")

# Limits: each keeps a generator within a few seconds and well under a gigabyte on one core.
#: Board sides (Connect Four is 7 x 6; 32 x 32 is far beyond any search of the project).
MAX_SIDE = 32
#: Board graphs are built in plain Python: refused when an upper bound on their positions
#: (``board_graph_bound``) is above this (tic-tac-toe's is 6,046, Connect Four 4 x 4's
#: 201,755 for 161,029 positions).
MAX_BOARD_GRAPH = 300_000
#: Nim and subtraction graphs: a bound on their moves.
MAX_GRAPH_MOVES = 3_000_000
#: Random graphs: a bound on positions x degree (5 x 10^7 moves at most; the games-graphs suite
#: goes to 10^6 positions of 10 moves).
MAX_POSITIONS = 10_000_000
MAX_DEGREE = 1000
MAX_RANDOM_MOVES = 50_000_000
#: Trees: the leaves are capped by the model (MAX_TREE_LEAVES); depth so that arity ** depth
#: stays a small number to compute (the games-trees suite goes to depth 12, arity 4).
MAX_TREE_DEPTH = 64
#: Leaf values and increments: an incremental path sum of 64 of them stays far inside int64.
MAX_LEAF_VALUE = 10**12
#: Numbers in a ``3-3-4`` list, and their digits.
MAX_NUMBERS = 4096
_NUMBERS = re.compile(r"[0-9]{1,18}(?:-[0-9]{1,18})*")


def numbers(text: Any, what: str, where: str = "games") -> tuple[int, ...]:
    """``"3-3-4"`` (or one number, or "") as a tuple of non-negative integers (ASCII digits:
    ``int`` would also read '٣' and trip on '²')."""
    if text is None or text == "":
        return ()
    if isinstance(text, int) and not isinstance(text, bool):
        text = str(text) if 0 <= text < 10**18 else text
    if not isinstance(text, str) or not _NUMBERS.fullmatch(text.replace(" ", "")):
        raise InstanceError(f"{where}: {what}={shown(text)}: expected non-negative numbers "
                            "(up to 18 digits) joined by '-'")
    parts = text.replace(" ", "").split("-")
    if len(parts) > MAX_NUMBERS:
        raise InstanceError(f"{where}: {what} lists {len(parts)} numbers (at most "
                            f"{MAX_NUMBERS})")
    return tuple(int(p) for p in parts)


def _poly_mul(a: list[int], b: list[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


def board_graph_bound(board: Board) -> int:
    """An upper bound on the positions reachable from a board: for each number t of stones
    still to come, the ways to place them (any empty cells; with gravity, t stones stacked on
    the columns) times the ways to split them between the players (the mover has ceil(t/2))."""
    cells = board.cells()
    if board.gravity:
        ways = [1]
        for col in range(board.width):
            free = sum(cells[row * board.width + col] == 0 for row in range(board.height))
            ways = _poly_mul(ways, [1] * (free + 1))
    else:
        empty = cells.count(0)
        ways = [comb(empty, t) for t in range(empty + 1)]
    return sum(n * comb(t, (t + 1) // 2) for t, n in enumerate(ways))


def board_generated(board: Board, form: str, params: dict[str, Any], where: str) -> Generated:
    form = choice_param(where, "form", form, FORMS)
    if form == "graph":
        bound = board_graph_bound(board)
        if bound > MAX_BOARD_GRAPH:
            raise InstanceError(f"{where}: form=graph: a {board.width}x{board.height} board "
                                f"may reach {bound:,} positions, more than the "
                                f"{MAX_BOARD_GRAPH:,} a graph is built for (use form=rules)")
    instance = board if form == "rules" else board_graph(board)
    return Generated(instance, None, True, {**params, "form": form})


def make_mnk(params: dict[str, Any], seed: int, kind: str = "") -> Generated:
    where = f"games/{kind or 'mnk'}"
    width = int_param(where, "width", params["width"], 1, MAX_SIDE)
    height = int_param(where, "height", params["height"], 1, MAX_SIDE)
    k = int_param(where, "k", params["k"], 1, MAX_SIDE)
    gravity = bool_param(where, "gravity", params["gravity"])
    moves = numbers(params["moves"], "moves", where)
    seed_param(where, seed)
    kind = kind or ("connect4" if k == 4 and gravity else "mnk")
    name = kind if kind == "tictactoe" else f"{kind}-{width}x{height}"
    name += f"-{'-'.join(map(str, moves))}" if moves else ""
    board = Board(width, height, k, gravity, moves, name)
    resolved = {"width": width, "height": height, "k": k, "gravity": gravity,
                "moves": "-".join(map(str, moves))}
    return board_generated(board, params["form"], resolved, where)


def make_connect4(params: dict[str, Any], seed: int) -> Generated:
    return make_mnk({**params, "k": 4, "gravity": True}, seed, "connect4")


def make_tictactoe(params: dict[str, Any], seed: int) -> Generated:
    return make_mnk({**params, "width": 3, "height": 3, "k": 3, "gravity": False}, seed,
                    "tictactoe")


def _graph_moves(where: str, what: str, moves: int) -> None:
    if moves > MAX_GRAPH_MOVES:
        raise InstanceError(f"{where}: {what} may have {moves:,} moves, more than the "
                            f"{MAX_GRAPH_MOVES:,} a graph is built for")


def make_nim(params: dict[str, Any], seed: int) -> Generated:
    where = "games/nim"
    heaps = numbers(params["heaps"], "heaps", where)
    seed_param(where, seed)
    if not heaps:
        raise InstanceError(f"{where}: heaps must name at least one heap, e.g. heaps=1-3-5-7")
    # positions: each heap's size and the player to move; each has at most sum(heaps) moves
    _graph_moves(where, f"heaps={'-'.join(map(str, heaps))}",
                 2 * prod(h + 1 for h in heaps) * sum(heaps))
    bouton = 1.0 if reduce(xor, heaps, 0) else -1.0
    return Generated(nim_graph(heaps), None, True, {"heaps": "-".join(map(str, heaps))},
                     known_optimum=bouton)


def make_subtraction(params: dict[str, Any], seed: int) -> Generated:
    where = "games/subtraction"
    n = int_param(where, "n", params["n"], 0, MAX_GRAPH_MOVES)
    take = numbers(params["take"], "take", where)
    seed_param(where, seed)
    if not take or 0 in take:
        raise InstanceError(f"{where}: n={n}, take={shown(params['take'])}: need positive "
                            "amounts to take")
    _graph_moves(where, f"n={n} with {len(take)} amounts", 2 * (n + 1) * len(take))
    known = None
    if max(take) == len(take) and sorted(take) == list(range(1, len(take) + 1)):  # 1..t
        known = -1.0 if n % (len(take) + 1) == 0 else 1.0
    return Generated(subtraction_graph(n, take), None, True,
                     {"n": n, "take": "-".join(map(str, take))}, known_optimum=known)


def make_random_graph(params: dict[str, Any], seed: int) -> Generated:
    where = "games/random-graph"
    positions = int_param(where, "positions", params["positions"], 1, MAX_POSITIONS)
    degree = int_param(where, "degree", params["degree"], 0, MAX_DEGREE)
    targets = float_param(where, "targets", params["targets"], 0.0, 0.5)
    dead_ends = float_param(where, "dead_ends", params["dead_ends"], 0.0, 1.0)
    seed = seed_param(where, seed)
    if positions * degree > MAX_RANDOM_MOVES:
        raise refusal(where, "degree", degree, "is too large for this many positions",
                      f"positions x degree <= {MAX_RANDOM_MOVES:,}; positions={positions}")
    graph = random_graph(positions, degree, targets, seed, dead_ends)
    return Generated(graph, None, True, {"positions": positions, "degree": degree,
                                         "targets": targets, "dead_ends": dead_ends})


def make_tree(params: dict[str, Any], seed: int) -> Generated:
    where = "games/tree"
    depth = int_param(where, "depth", params["depth"], 0, MAX_TREE_DEPTH)
    arity = int_param(where, "arity", params["arity"], 1, MAX_TREE_LEAVES)
    values = choice_param(where, "values", params["values"], ("iid", "incremental"))
    low = int_param(where, "low", params["low"], -MAX_LEAF_VALUE, MAX_LEAF_VALUE)
    high = int_param(where, "high", params["high"], -MAX_LEAF_VALUE, MAX_LEAF_VALUE)
    seed = seed_param(where, seed)
    tree = GameTree(depth, arity, values, low, high, seed,
                    f"tree-d{depth}-b{arity}-{values}-s{seed}")
    resolved = {"depth": depth, "arity": arity, "values": values, "low": low, "high": high}
    return Generated(tree, None, True, resolved)


_FORM = {"form": ("rules", "rules (positions implicit) or graph (every reachable position; "
                           "small boards)")}
_MOVES = {"moves": ("", "moves already played, e.g. 3-3-4 (columns with gravity, else cells)")}

GENERATORS: dict[str, Generator] = {
    "tictactoe": Generator("games", "tictactoe", {**_MOVES, **_FORM}, make_tictactoe,
                           "tic-tac-toe (3x3, three in a row) from the position after moves"),
    "connect4": Generator("games", "connect4", {"width": (7, "columns, 1..32"),
                                                "height": (6, "rows, 1..32"),
                                                **_MOVES, **_FORM}, make_connect4,
                          "Connect Four on a width x height board (four in a row, gravity)"),
    "mnk": Generator("games", "mnk", {"width": (3, "columns, 1..32"),
                                      "height": (3, "rows, 1..32"),
                                      "k": (3, "stones in a row to win, 1..32"),
                                      "gravity": (False, "stones drop to the lowest empty cell"),
                                      **_MOVES, **_FORM}, make_mnk,
                     "any m,n,k-game, with or without gravity"),
    "nim": Generator("games", "nim", {"heaps": ("1-3-5-7", "heap sizes")}, make_nim,
                     "Nim, normal play, as an explicit graph"),
    "subtraction": Generator("games", "subtraction",
                             {"n": (10, "heap size (2 (n + 1) x amounts <= 3,000,000)"),
                              "take": ("1-2-3", "amounts a move takes")},
                             make_subtraction, "a subtraction game, normal play, as a graph"),
    "random-graph": Generator("games", "random-graph",
                              {"positions": (1000, "positions, 1..10**7"),
                               "degree": (3, "moves of each non-target position, 0..1000 "
                                             "(positions x degree <= 5 x 10**7)"),
                               "targets": (0.05, "fraction of positions that are each "
                                                 "player's targets"),
                               "dead_ends": (0.0, "fraction of positions without moves "
                                                  "(draws)")},
                              make_random_graph, "a random reachability game"),
    "tree": Generator("games", "tree",
                      {"depth": (4, "levels below the root, 0..64"),
                       "arity": (4, "children a node (arity ** depth <= 2**26 leaves)"),
                       "values": ("iid", "iid leaves, or incremental (path sums)"),
                       "low": (-1000, "smallest leaf value / edge increment (|low| <= "
                                      "10**12)"),
                       "high": (1000, "largest leaf value / edge increment (|high| <= "
                                      "10**12)")},
                      make_tree, "a uniform game tree with seeded leaf values"),
}
