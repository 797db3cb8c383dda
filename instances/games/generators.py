"""The generators of the family, each a pure function of its parameters and seed.

Boards (``tictactoe``, ``connect4``, ``mnk``) take the moves already played as ``3-3-4``
(columns with gravity, cells without) and a ``form``: ``rules`` (the Board itself, positions
implicit) or ``graph`` (every position reachable from it, built as an explicit GameGraph).
``nim`` and ``subtraction`` are graphs (their known value comes from Bouton's rule and from the
``{1..t}`` rule: the heap's size mod t+1). ``random-graph`` draws a reachability game;
``tree`` a uniform valued tree. Seeds matter only to the random ones.
"""

from __future__ import annotations

from functools import reduce
from operator import xor
from typing import Any

from instances import Generator
from instances.common import Generated, InstanceError
from instances.games.graphs import board_graph, nim_graph, random_graph, subtraction_graph
from instances.games.model import Board, GameTree

FORMS = ("rules", "graph")


def numbers(text: Any, what: str) -> tuple[int, ...]:
    """``"3-3-4"`` (or one number, or "") as a tuple of non-negative integers."""
    if text is None or text == "":
        return ()
    parts = str(text).replace(" ", "").split("-")
    if not all(p.isdigit() for p in parts):
        raise InstanceError(f"{what}={text!r}: expected non-negative numbers joined by '-'")
    return tuple(int(p) for p in parts)


def board_generated(board: Board, form: str, params: dict[str, Any]) -> Generated:
    if form not in FORMS:
        raise InstanceError(f"form={form!r} is not one of {list(FORMS)}")
    instance = board if form == "rules" else board_graph(board)
    return Generated(instance, None, True, params)


def make_mnk(params: dict[str, Any], seed: int, kind: str = "") -> Generated:
    width, height, k = int(params["width"]), int(params["height"]), int(params["k"])
    gravity = params["gravity"]
    if not isinstance(gravity, bool):
        raise InstanceError(f"gravity={gravity!r} is not true or false")
    moves = numbers(params["moves"], "moves")
    kind = kind or ("connect4" if k == 4 and gravity else "mnk")
    name = kind if kind == "tictactoe" else f"{kind}-{width}x{height}"
    name += f"-{'-'.join(map(str, moves))}" if moves else ""
    board = Board(width, height, k, gravity, moves, name)
    resolved = {"width": width, "height": height, "k": k, "gravity": gravity,
                "moves": "-".join(map(str, moves)), "form": params["form"]}
    return board_generated(board, str(params["form"]), resolved)


def make_connect4(params: dict[str, Any], seed: int) -> Generated:
    return make_mnk({**params, "k": 4, "gravity": True}, seed)


def make_tictactoe(params: dict[str, Any], seed: int) -> Generated:
    return make_mnk({**params, "width": 3, "height": 3, "k": 3, "gravity": False}, seed,
                    "tictactoe")


def make_nim(params: dict[str, Any], seed: int) -> Generated:
    heaps = numbers(params["heaps"], "heaps")
    if not heaps:
        raise InstanceError("nim: heaps must name at least one heap, e.g. heaps=1-3-5-7")
    bouton = 1.0 if reduce(xor, heaps, 0) else -1.0
    return Generated(nim_graph(heaps), None, True, {"heaps": "-".join(map(str, heaps))},
                     known_optimum=bouton)


def make_subtraction(params: dict[str, Any], seed: int) -> Generated:
    n, take = int(params["n"]), numbers(params["take"], "take")
    if n < 0 or not take or 0 in take:
        raise InstanceError(f"subtraction: n={n}, take={params['take']!r}: need n >= 0 and "
                            "positive amounts to take")
    known = None
    if sorted(take) == list(range(1, max(take) + 1)):
        known = -1.0 if n % (max(take) + 1) == 0 else 1.0
    return Generated(subtraction_graph(n, take), None, True,
                     {"n": n, "take": "-".join(map(str, take))}, known_optimum=known)


def make_random_graph(params: dict[str, Any], seed: int) -> Generated:
    positions, degree = int(params["positions"]), int(params["degree"])
    targets, dead_ends = float(params["targets"]), float(params["dead_ends"])
    graph = random_graph(positions, degree, targets, seed, dead_ends)
    return Generated(graph, None, True, {"positions": positions, "degree": degree,
                                         "targets": targets, "dead_ends": dead_ends})


def make_tree(params: dict[str, Any], seed: int) -> Generated:
    tree = GameTree(int(params["depth"]), int(params["arity"]), str(params["values"]),
                    int(params["low"]), int(params["high"]), seed,
                    f"tree-d{params['depth']}-b{params['arity']}-{params['values']}-s{seed}")
    resolved = {k: params[k] for k in ("depth", "arity", "values", "low", "high")}
    return Generated(tree, None, True, resolved)


_FORM = {"form": ("rules", "rules (positions implicit) or graph (every reachable position)")}
_MOVES = {"moves": ("", "moves already played, e.g. 3-3-4 (columns with gravity, else cells)")}

GENERATORS: dict[str, Generator] = {
    "tictactoe": Generator("games", "tictactoe", {**_MOVES, **_FORM}, make_tictactoe,
                           "tic-tac-toe (3x3, three in a row) from the position after moves"),
    "connect4": Generator("games", "connect4", {"width": (7, "columns"), "height": (6, "rows"),
                                                **_MOVES, **_FORM}, make_connect4,
                          "Connect Four on a width x height board (four in a row, gravity)"),
    "mnk": Generator("games", "mnk", {"width": (3, "columns"), "height": (3, "rows"),
                                      "k": (3, "stones in a row to win"),
                                      "gravity": (False, "stones drop to the lowest empty cell"),
                                      **_MOVES, **_FORM}, make_mnk,
                     "any m,n,k-game, with or without gravity"),
    "nim": Generator("games", "nim", {"heaps": ("1-3-5-7", "heap sizes")}, make_nim,
                     "Nim, normal play, as an explicit graph"),
    "subtraction": Generator("games", "subtraction",
                             {"n": (10, "heap size"), "take": ("1-2-3", "amounts a move takes")},
                             make_subtraction, "a subtraction game, normal play, as a graph"),
    "random-graph": Generator("games", "random-graph",
                              {"positions": (1000, "positions"),
                               "degree": (3, "moves of each non-target position"),
                               "targets": (0.05, "fraction of positions that are each "
                                                 "player's targets"),
                               "dead_ends": (0.0, "fraction of positions without moves "
                                                  "(draws)")},
                              make_random_graph, "a random reachability game"),
    "tree": Generator("games", "tree",
                      {"depth": (4, "levels below the root"), "arity": (4, "children a node"),
                       "values": ("iid", "iid leaves, or incremental (path sums)"),
                       "low": (-1000, "smallest leaf value / edge increment"),
                       "high": (1000, "largest leaf value / edge increment")},
                      make_tree, "a uniform game tree with seeded leaf values"),
}
