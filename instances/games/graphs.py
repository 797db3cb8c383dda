"""Explicit game graphs: built from rules (m,n,k boards, Nim, subtraction games) or at random.

Every builder numbers positions breadth-first from the start (position 0), so the same rules
give the same graph everywhere. A position where the last mover has won is that player's target
(no moves); a position whose player to move has no move is, in Nim and subtraction games (normal
play: who cannot move loses), the opponent's target, and on a full board a dead end (a draw).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable

import numpy as np

from instances.common import InstanceError
from instances.games import rules
from instances.games.model import Board, GameGraph

#: Builders from rules refuse graphs larger than this (they are plain Python).
MAX_BUILT_POSITIONS = 2_000_000

Expand = Callable[[Hashable], tuple[int, int, Iterable[Hashable]]]


def breadth_first(start: Hashable, expand: Expand, name: str) -> GameGraph:
    """The graph reachable from ``start``; ``expand(position)`` gives (owner, target,
    successors)."""
    index = {start: 0}
    order = [start]
    owner: list[int] = []
    target: list[int] = []
    offsets = [0]
    succ: list[int] = []
    head = 0
    while head < len(order):
        position = order[head]
        head += 1
        who, won_by, nexts = expand(position)
        owner.append(who)
        target.append(won_by)
        for after in nexts:
            slot = index.get(after)
            if slot is None:
                slot = index[after] = len(order)
                order.append(after)
                if len(order) > MAX_BUILT_POSITIONS:
                    raise InstanceError(f"{name}: more than {MAX_BUILT_POSITIONS:,} positions; "
                                        "too big to build as an explicit graph (use the rules "
                                        "form)")
            succ.append(slot)
        offsets.append(len(succ))
    return GameGraph(np.array(owner), np.array(offsets), np.array(succ, dtype=np.int64),
                     np.array(target), 0, name)


def board_graph(board: Board) -> GameGraph:
    """Every position reachable from the board's start: a position is its stones (the player
    to move follows from them) and whether the last move won."""
    w, h, k, gravity = board.width, board.height, board.k, board.gravity
    cells, won = rules.replay(w, h, k, gravity, board.moves)

    def expand(position: tuple[tuple[int, ...], int]) -> tuple[int, int, list]:
        cells, won = position
        player = rules.to_move(cells)
        if won:
            return player, won, []
        out = []
        for move in rules.legal_moves(cells, w, h, gravity):
            after, cell = rules.play(cells, w, h, gravity, move, player)
            out.append((after, player if rules.makes_line(after, w, h, k, cell) else 0))
        return player, 0, out

    return breadth_first((cells, won), expand, f"{board.name or board.kind}-graph")


def nim_graph(heaps: tuple[int, ...]) -> GameGraph:
    """Nim, normal play: take any number from one heap; who cannot move loses."""

    def expand(position: tuple[tuple[int, ...], int]) -> tuple[int, int, list]:
        sizes, player = position
        other = 3 - player
        out = [(sizes[:i] + (sizes[i] - take,) + sizes[i + 1:], other)
               for i in range(len(sizes)) for take in range(1, sizes[i] + 1)]
        return player, (other if not out else 0), out

    return breadth_first((tuple(heaps), 1), expand, "nim-" + "-".join(map(str, heaps)))


def subtraction_graph(n: int, take: tuple[int, ...]) -> GameGraph:
    """One heap of ``n``; a move removes one of the amounts in ``take``; who cannot move
    loses."""

    def expand(position: tuple[int, int]) -> tuple[int, int, list]:
        size, player = position
        out = [(size - t, 3 - player) for t in take if t <= size]
        return player, (3 - player if not out else 0), out

    return breadth_first((n, 1), expand, f"subtraction-{n}-" + "-".join(map(str, take)))


def random_graph(positions: int, degree: int, targets: float, seed: int,
                 dead_ends: float = 0.0) -> GameGraph:
    """A random game: owners uniform; a fraction ``targets`` of the positions are player 1's
    targets, as many player 2's, and a fraction ``dead_ends`` have no move (draws); every other
    position has ``degree`` moves to uniform positions (repeats and self-loops allowed). The
    start is the first position that is neither a target nor a dead end."""
    if positions < 1 or degree < 0 or not 0 <= targets <= 0.5 \
            or not 0 <= dead_ends <= 1 - 2 * targets:
        raise InstanceError(f"random-graph: positions={positions}, degree={degree}, "
                            f"targets={targets}, dead_ends={dead_ends}: need positions >= 1, "
                            "degree >= 0, 0 <= targets <= 0.5 and 0 <= dead_ends <= "
                            "1 - 2 targets")
    rng = np.random.Generator(np.random.PCG64(seed))
    owner = rng.integers(1, 3, size=positions, dtype=np.int8)
    draw = rng.random(positions)
    target = np.where(draw < targets, 1, np.where(draw < 2 * targets, 2, 0)).astype(np.int8)
    moving = (target == 0) & (draw >= 2 * targets + dead_ends)
    degrees = np.where(moving, degree, 0).astype(np.int64)
    offsets = np.zeros(positions + 1, dtype=np.int64)
    np.cumsum(degrees, out=offsets[1:])
    succ = rng.integers(0, positions, size=int(offsets[-1]), dtype=np.int32)
    free = np.flatnonzero(moving)
    start = int(free[0]) if len(free) else 0
    name = f"random-graph-{positions}x{degree}-s{seed}"
    return GameGraph(owner, offsets, succ, target, start, name)
