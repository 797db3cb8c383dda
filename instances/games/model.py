"""The games family: three kinds of instance and two kinds of answer.

- ``Board``: an m,n,k-game from a start position (tic-tac-toe is 3x3 with k = 3; Connect Four
  is 7x6 with k = 4 and gravity). Positions are implicit, given by the rules (``rules``).
- ``GameTree``: a uniform tree of ``arity ** depth`` valued leaves, MAX at the root; its leaves
  are drawn from a seed, so the instance is its parameters.
- ``GameGraph``: an explicit reachability game (the seed's bipartite graph): positions owned by
  player 1 or 2, moves in CSR form, and each player's targets. A play ends on a target (its
  player wins) or at a dead end outside the targets (a draw); a play that never ends is a draw.

Answers: a ``Line`` (a value and a principal variation) for any instance from its start, and a
``Labelling`` (win/draw label, memoryless strategy and attractor layer of every position) for a
whole graph. Arrays travel in JSON as base64 of their zlib-compressed little-endian bytes.
"""

from __future__ import annotations

import base64
import hashlib
import zlib
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from instances.common import InstanceError, instance_hash
from instances.games import rules

MAX_TREE_LEAVES = 1 << 26


def pack(array: np.ndarray, dtype: str) -> str:
    """An array as text: base64 of the zlib-compressed bytes in ``dtype`` (little-endian)."""
    data = np.ascontiguousarray(array, dtype=np.dtype(dtype).newbyteorder("<")).tobytes()
    return base64.b64encode(zlib.compress(data, 6)).decode("ascii")


def unpack(text: str, dtype: str, what: str) -> np.ndarray:
    try:
        data = zlib.decompress(base64.b64decode(text.encode("ascii"), validate=True))
    except (ValueError, zlib.error) as exc:
        raise InstanceError(f"{what}: not base64 of zlib-compressed {dtype} ({exc})") from None
    size = np.dtype(dtype).itemsize
    if len(data) % size:
        raise InstanceError(f"{what}: {len(data)} bytes is not a whole number of {dtype}")
    return np.frombuffer(data, dtype=np.dtype(dtype).newbyteorder("<")).astype(dtype)


def frozen(array: Any, dtype: str) -> np.ndarray:
    out = np.array(array, dtype=dtype, copy=True)
    out.flags.writeable = False
    return out


def moves_text(moves: tuple[int, ...]) -> str:
    """Moves as the generators take them: ``3-3-4`` ("" for none)."""
    return "-".join(map(str, moves))


@dataclass(frozen=True)
class Board:
    """An m,n,k-game at the position after ``moves`` (see ``rules`` for cells and moves)."""

    width: int
    height: int
    k: int
    gravity: bool
    moves: tuple[int, ...] = ()
    name: str = ""

    def __post_init__(self) -> None:
        for label, value in (("width", self.width), ("height", self.height), ("k", self.k)):
            if int(value) < 1:
                raise InstanceError(f"board {label}={value} must be at least 1")
        if self.k > max(self.width, self.height):
            raise InstanceError(f"k={self.k} does not fit on a {self.width}x{self.height} board")
        object.__setattr__(self, "moves", tuple(int(m) for m in self.moves))
        object.__setattr__(self, "gravity", bool(self.gravity))
        try:
            rules.replay(self.width, self.height, self.k, self.gravity, self.moves)
        except ValueError as exc:
            raise InstanceError(f"board moves {moves_text(self.moves)!r}: {exc}") from None

    @property
    def ncells(self) -> int:
        return self.width * self.height

    @property
    def to_move(self) -> int:
        return 1 if len(self.moves) % 2 == 0 else 2

    def cells(self) -> tuple[int, ...]:
        return rules.board_cells(self)

    @property
    def kind(self) -> str:
        if (self.width, self.height, self.k, self.gravity) == (3, 3, 3, False):
            return "tictactoe"
        return "connect4" if self.k == 4 and self.gravity else "mnk"

    def to_json(self) -> dict[str, Any]:
        return {"family": "games", "kind": "board", "width": self.width, "height": self.height,
                "k": self.k, "gravity": self.gravity, "moves": list(self.moves),
                "name": self.name}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Board:
        return cls(int(data["width"]), int(data["height"]), int(data["k"]),
                   bool(data["gravity"]), tuple(int(m) for m in data.get("moves", ())),
                   str(data.get("name", "")))

    @property
    def instance_id(self) -> str:
        return instance_hash(self.to_json())


@dataclass(frozen=True)
class GameTree:
    """A uniform game tree: ``arity ** depth`` leaves, MAX at the root, levels alternating.

    Nodes are numbered per level: child ``c`` of node ``i`` is node ``i * arity + c`` one level
    down. ``values="iid"``: each leaf uniform in ``low..high``. ``values="incremental"``: each
    edge carries an increment uniform in ``low..high`` and a node's value is the sum from the
    root (the leaf value is the sum of its path), so a node's partial sum is an informative
    static estimate, as a game's evaluation function is (Fuller, Gaschnig and Gillogly's model).
    """

    depth: int
    arity: int
    values: str = "iid"
    low: int = -1000
    high: int = 1000
    seed: int = 1
    name: str = ""

    def __post_init__(self) -> None:
        if self.depth < 0 or self.arity < 1:
            raise InstanceError(f"tree depth={self.depth}, arity={self.arity}: need depth >= 0 "
                                "and arity >= 1")
        if self.arity ** self.depth > MAX_TREE_LEAVES:
            raise InstanceError(f"tree of arity {self.arity} and depth {self.depth} has "
                                f"{self.arity ** self.depth:,} leaves (at most "
                                f"{MAX_TREE_LEAVES:,})")
        if self.values not in ("iid", "incremental"):
            raise InstanceError(f"tree values={self.values!r} is not 'iid' or 'incremental'")
        if self.low > self.high:
            raise InstanceError(f"tree low={self.low} is above high={self.high}")

    @property
    def leaf_count(self) -> int:
        return self.arity ** self.depth

    @property
    def node_count(self) -> int:
        return sum(self.arity ** t for t in range(self.depth + 1))

    def levels(self) -> list[np.ndarray]:
        """Every depth's static estimates in one draw: ``levels()[t]`` holds the ``arity ** t``
        nodes at depth ``t`` (an incremental tree's partial sums; zeros above the leaves of an
        iid tree), and ``levels()[depth]`` the leaves. New arrays on every call."""
        rng = np.random.Generator(np.random.PCG64(self.seed))
        if self.values == "iid":
            leaves = rng.integers(self.low, self.high + 1, size=self.leaf_count, dtype=np.int64)
            return [np.zeros(self.arity ** t, np.int64) for t in range(self.depth)] + [leaves]
        level = np.zeros(1, dtype=np.int64)
        levels = [level]
        for t in range(1, self.depth + 1):
            step = rng.integers(self.low, self.high + 1, size=self.arity ** t, dtype=np.int64)
            level = np.repeat(level, self.arity) + step
            levels.append(level)
        return levels

    def leaves(self) -> np.ndarray:
        """The leaf values in level order (a new array)."""
        return self.levels()[-1]

    def estimates(self, t: int) -> np.ndarray:
        """Static estimates of the ``arity ** t`` nodes at depth ``t`` (see ``levels``)."""
        if not 0 <= t <= self.depth:
            raise ValueError(f"depth {t} is not in 0..{self.depth}")
        return self.levels()[t]

    def to_json(self) -> dict[str, Any]:
        return {"family": "games", "kind": "tree", "depth": self.depth, "arity": self.arity,
                "values": self.values, "low": self.low, "high": self.high, "seed": self.seed,
                "name": self.name}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameTree:
        return cls(int(data["depth"]), int(data["arity"]), str(data.get("values", "iid")),
                   int(data.get("low", -1000)), int(data.get("high", 1000)),
                   int(data.get("seed", 1)), str(data.get("name", "")))

    @property
    def instance_id(self) -> str:
        return instance_hash(self.to_json())


@dataclass(frozen=True, eq=False)
class GameGraph:
    """An explicit reachability game (see the module docstring); arrays are read-only."""

    owner: np.ndarray
    offsets: np.ndarray
    succ: np.ndarray
    target: np.ndarray
    start: int = 0
    name: str = ""

    def __post_init__(self) -> None:
        owner, offsets = frozen(self.owner, "int8"), frozen(self.offsets, "int64")
        succ, target = frozen(self.succ, "int32"), frozen(self.target, "int8")
        n = len(owner)
        problem = ""
        if n == 0:
            problem = "a game graph needs at least one position"
        elif len(offsets) != n + 1 or len(target) != n:
            problem = (f"{n} positions need {n + 1} offsets and {n} targets; got "
                       f"{len(offsets)} and {len(target)}")
        elif offsets[0] != 0 or offsets[-1] != len(succ) or np.any(np.diff(offsets) < 0):
            problem = "offsets must rise from 0 to the number of moves"
        elif not np.isin(owner, (1, 2)).all():
            problem = "every position is owned by player 1 or 2"
        elif not np.isin(target, (0, 1, 2)).all():
            problem = "targets are 0 (none), 1 or 2"
        elif len(succ) and (succ.min() < 0 or succ.max() >= n):
            problem = f"a move leads outside positions 0..{n - 1}"
        elif np.any((target > 0) & (np.diff(offsets) > 0)):
            bad = int(np.flatnonzero((target > 0) & (np.diff(offsets) > 0))[0])
            problem = f"target position {bad} has moves (play stops on a target)"
        elif not 0 <= int(self.start) < n:
            problem = f"start {self.start} is not a position"
        if problem:
            raise InstanceError(problem)
        for name, value in (("owner", owner), ("offsets", offsets), ("succ", succ),
                            ("target", target)):
            object.__setattr__(self, name, value)
        object.__setattr__(self, "start", int(self.start))

    @property
    def n(self) -> int:
        return len(self.owner)

    @property
    def m(self) -> int:
        return len(self.succ)

    def successors(self, p: int) -> np.ndarray:
        return self.succ[self.offsets[p]:self.offsets[p + 1]]

    def to_json(self) -> dict[str, Any]:
        return {"family": "games", "kind": "graph", "n": self.n, "m": self.m,
                "start": self.start, "owner": pack(self.owner, "int8"),
                "offsets": pack(self.offsets, "int64"), "succ": pack(self.succ, "int32"),
                "target": pack(self.target, "int8"), "name": self.name}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameGraph:
        return cls(unpack(data["owner"], "int8", "owner"),
                   unpack(data["offsets"], "int64", "offsets"),
                   unpack(data["succ"], "int32", "succ"),
                   unpack(data["target"], "int8", "target"),
                   int(data.get("start", 0)), str(data.get("name", "")))

    @cached_property
    def instance_id(self) -> str:
        digest = hashlib.sha256(f"graph:{self.n}:{self.m}:{self.start}:".encode())
        for array in (self.owner, self.offsets, self.succ, self.target):
            digest.update(array.astype(array.dtype.newbyteorder("<")).tobytes())
        return digest.hexdigest()[:16]


@dataclass(frozen=True)
class Line:
    """A value and a principal variation (what the moves are depends on the instance: a
    Board's columns or cells, a tree's child indices, a graph's positions after the start)."""

    value: int
    moves: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "value", int(self.value))
        object.__setattr__(self, "moves", tuple(int(m) for m in self.moves))

    def to_json(self, instance: Any = None) -> dict[str, Any]:
        return {"value": self.value, "moves": list(self.moves)}

    @classmethod
    def from_json(cls, data: dict[str, Any], instance: Any = None) -> Line:
        return cls(int(data["value"]), tuple(int(m) for m in data.get("moves", ())))


@dataclass(frozen=True, eq=False)
class Labelling:
    """The whole graph solved: ``label`` (0 draw, or the player who forces a win), ``move``
    (the strategy of a position won by its owner, -1 elsewhere), ``layer`` (moves within which
    the winner reaches its target; 0 on targets, -1 on draws)."""

    label: np.ndarray
    move: np.ndarray
    layer: np.ndarray

    def __post_init__(self) -> None:
        object.__setattr__(self, "label", frozen(self.label, "int8"))
        object.__setattr__(self, "move", frozen(self.move, "int32"))
        object.__setattr__(self, "layer", frozen(self.layer, "int32"))

    def to_json(self, instance: Any = None) -> dict[str, Any]:
        return {"labels": len(self.label), "label": pack(self.label, "int8"),
                "move": pack(self.move, "int32"), "layer": pack(self.layer, "int32")}

    @classmethod
    def from_json(cls, data: dict[str, Any], instance: Any = None) -> Labelling:
        return cls(unpack(data["label"], "int8", "label"), unpack(data["move"], "int32", "move"),
                   unpack(data["layer"], "int32", "layer"))


class Instance:
    """The family's entry point for the harness: a games instance is a ``Board``, a
    ``GameTree`` or a ``GameGraph``; ``from_json`` reads any of them by its ``kind``."""

    KINDS: dict[str, type] = {"board": Board, "tree": GameTree, "graph": GameGraph}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Board | GameTree | GameGraph:
        kind = data.get("kind")
        if kind not in Instance.KINDS:
            raise InstanceError(f"a games instance has kind board, tree or graph; got {kind!r}")
        return Instance.KINDS[kind].from_json(data)


class Solution:
    """The family's answers: a ``Line``, or a ``Labelling`` of a whole graph."""

    @staticmethod
    def from_json(data: dict[str, Any], instance: Any = None) -> Line | Labelling:
        return Labelling.from_json(data) if "label" in data else Line.from_json(data)
