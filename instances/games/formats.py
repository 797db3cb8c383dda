"""Files of the games family: the ``.game`` text format and the known-values table.

A ``.game`` file holds one instance or several; ``#`` starts a comment line::

    board 7 4 4 gravity 3-3-4        # width height k gravity|free [moves]
    value =                          # optional: the known value (+ win, = draw, - loss)
    tree 4 4 iid -1000 1000 7        # depth arity iid|incremental low high seed
    graph 3 0                        # positions start; then one line per position:
    v 0 1 0 1 2                      # v POSITION OWNER TARGET SUCCESSORS...
    v 1 2 1
    v 2 2 2

The known-values table (``known_values.tsv`` of the reference data: game, instance, value,
note, source) reads as instances with their known value: tic-tac-toe, Connect Four boards
("W wide x H high, empty"), Nim heaps, and the subtraction rule "- iff n % K == 0" (as the
heaps n = 2K .. 3K).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np

from instances.common import Generated, InstanceError, read_text, text_lines
from instances.games.graphs import nim_graph, subtraction_graph
from instances.games.model import (
    MAX_TREE_LEAVES,
    Board,
    GameGraph,
    GameTree,
    Instance,
    Solution,
)

SUFFIXES = (".game", ".tsv")
VALUES = {"+": 1.0, "=": 0.0, "-": -1.0}

# ASCII digits only (int() would take '٣', '²' or '1_000'), short enough that int() never meets
# Python's digit limit. The limits below refuse, before anything is built, what a file cannot
# mean: a board whose empty position alone fills the memory, a tree deeper than any that fits
# MAX_TREE_LEAVES, leaf values whose sums overflow int64, a known value that expands to graphs
# of more than MAX_KNOWN_MOVES moves in all (the shipped table's largest, Nim 1,3,5,7, has
# about 6,500).
_INT = re.compile(r"[-+]?[0-9]{1,18}")
MAX_BOARD_CELLS = 4096
MAX_TREE_DEPTH = 64
MAX_LEAF_VALUE = 1 << 40
MAX_KNOWN_MOVES = 100_000


def _ints(words: list[str], path: str | None, number: int) -> list[int]:
    bad = next((w for w in words if not _INT.fullmatch(w)), None)
    if bad is not None:
        raise InstanceError(f"not an integer (at most 18 digits): {bad[:30]!r}", path, number)
    return [int(w) for w in words]


def _within(value: int, low: int, high: int, what: str, path: str | None, number: int,
            rule: str = "") -> int:
    if not low <= value <= high:
        reason = f"{rule} ({what} {value})" if rule else f"{what} {value} is not in {low}..{high}"
        raise InstanceError(reason, path, number)
    return value


def parse_text(text: str, path: str | None = None) -> list[Generated]:
    if path is not None and str(path).endswith(".tsv"):
        return parse_known_values(text, path)
    out: list[Generated] = []
    lines = text_lines(text)
    number = 0
    while number < len(lines):
        words = lines[number].split()
        number += 1
        if not words or words[0].startswith("#"):
            continue
        head = words[0]
        try:
            if head == "board":
                out.append(Generated(_board(words, path, number), None, True))
            elif head == "tree":
                out.append(Generated(_tree(words, path, number), None, True))
            elif head == "graph":
                graph, number = _graph(words, lines, number, path)
                out.append(Generated(graph, None, True))
            elif head == "value":
                if not out or len(words) != 2 or words[1] not in VALUES:
                    raise InstanceError("expected 'value +|=|-' after an instance", path, number)
                last = out[-1]
                out[-1] = Generated(last.instance, None, True, last.params, last.source,
                                    VALUES[words[1]])
            else:
                raise InstanceError(f"unknown line {head!r} (board, tree, graph, v, value)",
                                    path, number)
        except InstanceError as exc:
            if exc.path is None and path is not None:
                raise InstanceError(exc.reason, path, number) from None
            raise
    if not out:
        raise InstanceError("no instance in the file", path)
    return [Generated(g.instance, g.secret, g.feasible, g.params, str(path or ""),
                      g.known_optimum) for g in out]


def _board(words: list[str], path: str | None, number: int) -> Board:
    if len(words) not in (5, 6) or words[4] not in ("gravity", "free"):
        raise InstanceError("expected 'board WIDTH HEIGHT K gravity|free [MOVES]'", path, number)
    width, height, k = _ints(words[1:4], path, number)
    if width >= 1 and height >= 1 and width * height > MAX_BOARD_CELLS:
        raise InstanceError(f"a {width}x{height} board: at most {MAX_BOARD_CELLS} cells", path,
                            number)
    moves = () if len(words) == 5 else tuple(_ints(words[5].split("-"), path, number))
    return Board(width, height, k, words[4] == "gravity", moves)


def _tree(words: list[str], path: str | None, number: int) -> GameTree:
    if len(words) != 7:
        raise InstanceError("expected 'tree DEPTH ARITY iid|incremental LOW HIGH SEED'",
                            path, number)
    depth, arity = _ints(words[1:3], path, number)
    low, high, seed = _ints(words[4:7], path, number)
    _within(depth, 0, MAX_TREE_DEPTH, "tree depth", path, number)
    if arity >= 2 and depth > MAX_TREE_LEAVES.bit_length():  # arity ** depth: not even computed
        raise InstanceError(f"tree of arity {arity} and depth {depth}: more than "
                            f"{MAX_TREE_LEAVES:,} leaves", path, number)
    _within(low, -MAX_LEAF_VALUE, MAX_LEAF_VALUE, "tree low", path, number)
    _within(high, -MAX_LEAF_VALUE, MAX_LEAF_VALUE, "tree high", path, number)
    _within(seed, 0, (1 << 63) - 1, "tree seed", path, number)
    return GameTree(depth, arity, words[3], low, high, seed)


def _graph(words: list[str], lines: list[str], number: int, path: str | None,
           ) -> tuple[GameGraph, int]:
    if len(words) not in (3, 4):
        raise InstanceError("expected 'graph POSITIONS START [NAME]'", path, number)
    n, start = _ints(words[1:3], path, number)
    if n < 1:
        raise InstanceError(f"a graph of {n} positions", path, number)
    owner, target, offsets, succ = [], [], [0], []
    header = number
    for p in range(n):
        fields: list[str] = []
        while not fields or fields[0].startswith("#"):  # blank lines and comments, as anywhere
            if number >= len(lines):
                raise InstanceError(f"the graph declares {n} positions; the file ends after {p}",
                                    path, number)
            fields = lines[number].split()
            number += 1
        if len(fields) < 4 or fields[0] != "v":
            raise InstanceError("expected 'v POSITION OWNER TARGET SUCCESSORS...'", path, number)
        values = _ints(fields[1:], path, number)
        if values[0] != p:
            raise InstanceError(f"expected position {p}, got {values[0]}", path, number)
        owner.append(_within(values[1], 1, 2, "owner", path, number,
                             "every position is owned by player 1 or 2"))
        target.append(_within(values[2], 0, 2, "target", path, number,
                              "targets are 0 (none), 1 or 2"))
        succ.extend(_within(v, 0, n - 1, "move to", path, number,
                            f"a move leads outside positions 0..{n - 1}") for v in values[3:])
        offsets.append(len(succ))
    name = words[3] if len(words) == 4 else ""
    try:
        graph = GameGraph(np.array(owner), np.array(offsets), np.array(succ, dtype=np.int64),
                          np.array(target), start, name)
    except InstanceError as exc:  # the start, or a target with moves: the graph's own line
        raise InstanceError(exc.reason, path, header) from None
    return graph, number


def parse_known_values(text: str, path: str | None = None) -> list[Generated]:
    out: list[Generated] = []
    for number, line in enumerate(text_lines(text), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) < 3:
            raise InstanceError("expected tab-separated game, instance, value, ...", path,
                                number)
        game, what, value = (f.strip() for f in fields[:3])
        note = fields[3] if len(fields) > 3 else ""
        try:
            out.extend(_known(game, what, value, note, path, number))
        except InstanceError as exc:
            if exc.path is None:  # from the model or a graph builder: say where
                raise InstanceError(exc.reason, path, number) from None
            raise
    if not out:
        raise InstanceError("no known value in the file", path)
    return out


def _known(game: str, what: str, value: str, note: str, path: str | None,
           number: int) -> list[Generated]:
    source = str(path or "")
    if game == "tictactoe":
        return [Generated(Board(3, 3, 3, False, (), "tictactoe"), None, True, _counts(note),
                          source, _value(value, path, number))]
    if game == "connect4":
        m = re.fullmatch(r"([0-9]{1,6}) wide x ([0-9]{1,6}) high, empty", what)
        if not m:
            raise InstanceError(f"connect4 instance {what!r}: expected 'W wide x H high, empty'",
                                path, number)
        width, height = int(m.group(1)), int(m.group(2))
        if width * height > MAX_BOARD_CELLS:
            raise InstanceError(f"a {width}x{height} board: at most {MAX_BOARD_CELLS} cells",
                                path, number)
        board = Board(width, height, 4, True, (), f"connect4-{width}x{height}")
        return [Generated(board, None, True, {"width": width, "height": height, **_counts(note)},
                          source, _value(value, path, number))]
    if game == "nim":
        heaps = tuple(int(h) for h in re.findall(r"[0-9]{1,18}", what))
        if not heaps:
            raise InstanceError(f"nim instance {what!r} gives no heap sizes", path, number)
        moves = 1 + sum(heaps)  # positions (product of heap + 1) times moves from each
        for heap in heaps:
            moves *= heap + 1
            if moves > MAX_KNOWN_MOVES:
                raise InstanceError(f"nim heaps {what!r}: more than {MAX_KNOWN_MOVES:,} "
                                    "moves to build", path, number)
        return [Generated(nim_graph(heaps), None, True, {"heaps": "-".join(map(str, heaps))},
                          source, _value(value, path, number))]
    m = re.fullmatch(r"subtraction \{([0-9, ]+)\}", game)  # ASCII spaces: int() takes no other
    rule = re.fullmatch(r"- iff n % ([0-9]{1,18}) == 0", value)
    if m and rule:
        take = tuple(int(t) for t in m.group(1).split(",") if t.strip())
        modulus = int(rule.group(1))
        if not take or min(take) < 1 or len(m.group(1).split(",")) != len(take):
            raise InstanceError(f"{game!r}: the amounts taken are numbers from 1, comma "
                                "separated", path, number)
        if modulus < 1 or 2 * (modulus + 1) * (3 * modulus + 1) * len(take) > MAX_KNOWN_MOVES:
            raise InstanceError(f"rule {value!r}: the heaps n = 2K .. 3K need K from 1 and at "
                                f"most {MAX_KNOWN_MOVES:,} moves to build", path, number)
        return [Generated(subtraction_graph(n, take), None, True,
                          {"n": n, "take": "-".join(map(str, take))}, source,
                          -1.0 if n % modulus == 0 else 1.0)
                for n in range(2 * modulus, 3 * modulus + 1)]
    raise InstanceError(f"unknown game {game!r} (tictactoe, connect4, nim, subtraction)",
                        path, number)


def _value(text: str, path: str | None, number: int) -> float:
    if text not in VALUES:
        raise InstanceError(f"value {text!r} is not +, = or -", path, number)
    return VALUES[text]


def _counts(note: str) -> dict[str, int]:
    """The position counts a note states (``161029 legal positions``, ``5478 reachable
    positions``), as params: the attractor's expansion is compared with them."""
    m = re.search(r"([0-9]{1,18}) (?:legal|reachable) positions", note)
    return {"positions": int(m.group(1))} if m else {}


def read_file(path: str | Path) -> list[Generated]:
    path = Path(path)
    text = read_text(path)
    return parse_text(text, str(path))


def write_file(path: str | Path, instance: Board | GameTree | GameGraph, secret=None,
               known: float | None = None) -> None:
    lines = ["# cliffbench games file"]
    if isinstance(instance, Board):
        moves = "-".join(map(str, instance.moves))
        lines.append(f"board {instance.width} {instance.height} {instance.k} "
                     f"{'gravity' if instance.gravity else 'free'}" + (f" {moves}" if moves
                                                                        else ""))
    elif isinstance(instance, GameTree):
        lines.append(f"tree {instance.depth} {instance.arity} {instance.values} {instance.low} "
                     f"{instance.high} {instance.seed}")
    else:
        lines.append(f"graph {instance.n} {instance.start}"
                     + (f" {instance.name}" if instance.name and " " not in instance.name
                        else ""))
        for p in range(instance.n):
            succ = " ".join(map(str, instance.successors(p).tolist()))
            lines.append(f"v {p} {instance.owner[p]} {instance.target[p]} {succ}".rstrip())
    if known is not None:
        lines.append("value " + {1: "+", 0: "=", -1: "-"}[int(known)])
    Path(path).write_text("\n".join(lines) + "\n")


def read_solution(path: str | Path, instance: Board | GameTree | GameGraph):
    """The JSON that ``cliffbench solve --json`` prints (or its ``solution`` part)."""
    text = read_text(path)
    try:
        data = json.loads(text)
        return Solution.from_json(data.get("solution", data), instance)
    except (ValueError, KeyError, AttributeError, TypeError, OverflowError,
            InstanceError) as exc:
        raise InstanceError(f"not a solution: {exc}", str(path)) from None
    except RecursionError:
        raise InstanceError("not a solution: JSON nested too deeply", str(path)) from None


__all__ = ["SUFFIXES", "Instance", "parse_known_values", "parse_text", "read_file",
           "read_solution", "write_file"]
