"""The independent checker of the games family.

- A ``Labelling`` of a ``GameGraph`` is checked position by position, as the definition of a
  winning strategy reads: a position labelled a win for player P is P's target (layer 0), or P
  owns it and its strategy moves to a P-win of a smaller layer, or the opponent owns it, it has
  moves, and every move goes to a P-win of a smaller layer. By induction on the layer, P's
  strategy then reaches P's target within ``layer`` moves against every reply. Draws are
  checked against a second, simple computation: each player's attractor as the seed defines it,
  ``A_{k+1} = A_k ∪ {p of P: some move into A_k} ∪ {p of the opponent, with moves: every move
  into A_k}``, iterated over all positions at once (numpy) until nothing joins; a draw must be
  in neither.
- A ``Line`` is replayed: a Board's moves with the plain rules (``rules``), a tree's child
  indices down to a leaf, a graph's positions along its moves; it must end where its value says.
  The value itself is recomputed where that is cheap: a tree's minimax (up to 2^24 leaves, by
  numpy reductions level by level), a graph's attractors, a board with at most
  ``OWN_VALUE_EMPTY_CELLS`` empty cells (plain memoised negamax). Elsewhere the value stands
  on the line, on a known value, and on the other solvers' agreement (the report).

The verdict's score is the value (the checker's own where it has one). Nothing here imports a
solver.
"""

from __future__ import annotations

import numpy as np

from instances.common import Verdict
from instances.games import rules
from instances.games.model import Board, GameGraph, GameTree, Labelling, Line

OWN_VALUE_EMPTY_CELLS = 12
OWN_TREE_LEAVES = 1 << 24


def sources(graph: GameGraph) -> np.ndarray:
    """The position each move leaves from (the CSR rows, spelled out)."""
    return np.repeat(np.arange(graph.n, dtype=np.int64), np.diff(graph.offsets))


def fixed_point_attractor(graph: GameGraph, player: int) -> np.ndarray:
    """The layer at which each position joins ``player``'s attractor (-1: never), by the
    seed's definition iterated on every position at once."""
    degree = np.diff(graph.offsets)
    src = sources(graph)
    inside = graph.target == player
    layer = np.where(inside, 0, -1).astype(np.int64)
    mine = graph.owner == player
    k = 0
    while True:
        hits = np.bincount(src, weights=inside[graph.succ], minlength=graph.n)
        joins = ~inside & ((mine & (hits > 0)) | (~mine & (degree > 0) & (hits == degree)))
        if not joins.any():
            return layer
        k += 1
        layer[joins] = k
        inside |= joins


def graph_values(graph: GameGraph) -> np.ndarray:
    """0 draw, or the player who forces a win, for every position (two fixed points)."""
    label = np.zeros(graph.n, dtype=np.int8)
    for player in (1, 2):
        label[fixed_point_attractor(graph, player) >= 0] = player
    return label


def value_for_owner(label: int, owner: int) -> int:
    return 0 if label == 0 else (1 if label == owner else -1)


def check_labelling(graph: GameGraph, answer: Labelling) -> Verdict:
    n = graph.n
    if not (len(answer.label) == len(answer.move) == len(answer.layer) == n):
        return Verdict(False, False, None, None, f"a labelling of {n} positions needs {n} "
                       f"labels, moves and layers; got {len(answer.label)}, "
                       f"{len(answer.move)}, {len(answer.layer)}")
    label, move, layer = (a.astype(np.int64) for a in (answer.label, answer.move, answer.layer))
    if not np.isin(label, (0, 1, 2)).all():
        return Verdict(False, False, None, None, "labels are 0 (draw), 1 or 2")
    value = value_for_owner(int(label[graph.start]), int(graph.owner[graph.start]))
    problem = strategy_problem(graph, label, move, layer)
    if not problem:
        truth = graph_values(graph)
        wrong_draws = np.flatnonzero((label == 0) & (truth != 0))
        if len(wrong_draws):
            p = int(wrong_draws[0])
            problem = (f"position {p} is labelled a draw but player {truth[p]} can force a win "
                       f"({len(wrong_draws)} such positions)")
    return Verdict(True, not problem, value, None, problem)


def strategy_problem(graph: GameGraph, label: np.ndarray, move: np.ndarray,
                     layer: np.ndarray) -> str:
    """Why the labelled wins are not backed by strategies, or "" (see the module docstring)."""
    target = graph.target.astype(np.int64)
    wrong_target = np.flatnonzero((target > 0) & (label != target))
    if len(wrong_target):
        p = int(wrong_target[0])
        return f"position {p} is player {target[p]}'s target but labelled {label[p]}"
    won = (label > 0) & (target == 0)
    if np.any((label > 0) & (layer < 0)):
        return f"position {int(np.flatnonzero((label > 0) & (layer < 0))[0])} is a win " \
               "without a layer"
    src = sources(graph)
    dst = graph.succ.astype(np.int64)
    good_edge = (label[dst] == label[src]) & (layer[dst] < layer[src])
    degree = np.diff(graph.offsets)
    owner = graph.owner.astype(np.int64)
    # The winner moves: its strategy must be one of its moves, into a smaller layer.
    chosen = (dst == move[src]) & good_edge
    has_choice = np.bincount(src, weights=chosen, minlength=graph.n) > 0
    bad = np.flatnonzero(won & (owner == label) & ~has_choice)
    if len(bad):
        p = int(bad[0])
        return (f"position {p} is labelled a win for its owner (player {label[p]}, layer "
                f"{layer[p]}) but its strategy move {move[p]} is not a move to a win of a "
                "smaller layer")
    # The loser moves: every move must stay in the winner's region, one layer nearer.
    good_count = np.bincount(src, weights=good_edge, minlength=graph.n)
    bad = np.flatnonzero(won & (owner != label) & ((degree == 0) | (good_count < degree)))
    if len(bad):
        p = int(bad[0])
        return (f"position {p} is labelled a win for player {label[p]} (layer {layer[p]}) but "
                f"its owner has a move that escapes (or no move at all)")
    return ""


def check_graph_line(graph: GameGraph, line: Line) -> Verdict:
    truth = graph_values(graph)
    own = value_for_owner(int(truth[graph.start]), int(graph.owner[graph.start]))
    position = graph.start
    for step, after in enumerate(line.moves, 1):
        if after not in set(graph.successors(position).tolist()):
            return Verdict(False, False, None, None,
                           f"step {step}: position {after} is not a move from {position}")
        position = after
    if line.moves or graph.offsets[position + 1] == graph.offsets[position]:
        if graph.offsets[position + 1] > graph.offsets[position]:
            return Verdict(False, False, None, None,
                           f"the line stops at position {position}, which is not the end")
        ends = value_for_owner(int(graph.target[position]), int(graph.owner[graph.start]))
        if ends != line.value:
            return Verdict(False, False, None, None, f"the line ends with value {ends} for the "
                           f"start's owner, not the claimed {line.value}")
    elif line.value != 0:
        return Verdict(False, False, None, None, "a win needs the line that reaches it")
    if line.value != own:
        return Verdict(True, False, own, None,
                       f"claimed value {line.value}; the attractors give {own}")
    off = next((p for p in line.moves if truth[p] != truth[graph.start]), None)
    if off is not None:
        return Verdict(True, False, own, None, f"the line leaves the value at position {off}: "
                       "a principal variation keeps it")
    return Verdict(True, True, own, None)


def minimax_of_tree(tree: GameTree) -> int:
    """The root's value by plain minimax: the leaves reduced one level at a time."""
    values = tree.leaves()
    for t in range(tree.depth - 1, -1, -1):
        values = values.reshape(-1, tree.arity)
        values = values.max(axis=1) if t % 2 == 0 else values.min(axis=1)
    return int(values[0])


def check_tree_line(tree: GameTree, line: Line) -> Verdict:
    if len(line.moves) != tree.depth or any(not 0 <= c < tree.arity for c in line.moves):
        return Verdict(False, False, None, None, f"a line of a tree of depth {tree.depth} is "
                       f"{tree.depth} child indices in 0..{tree.arity - 1}")
    leaf = 0
    for child in line.moves:
        leaf = leaf * tree.arity + child
    reached = int(tree.leaves()[leaf])
    if reached != line.value:
        return Verdict(False, False, None, None,
                       f"the line reaches leaf {leaf} of value {reached}, not {line.value}")
    if tree.leaf_count > OWN_TREE_LEAVES:
        return Verdict(True, True, line.value, None)
    own = minimax_of_tree(tree)
    if own != line.value:
        return Verdict(True, False, own, None, f"claimed value {line.value}; minimax gives {own}")
    return Verdict(True, True, own, None)


def check_board_line(board: Board, line: Line) -> Verdict:
    w, h, k, gravity = board.width, board.height, board.k, board.gravity
    try:
        cells, won = rules.replay(w, h, k, gravity, board.moves + line.moves)
    except ValueError as exc:
        return Verdict(False, False, None, None, f"the line is not legal: {exc} (moves counted "
                       f"from the empty board; the start has {len(board.moves)})")
    if not won and rules.legal_moves(cells, w, h, gravity):
        return Verdict(False, False, None, None, f"the line stops after {len(line.moves)} moves "
                       "before the game ends")
    ends = 0 if not won else (1 if won == board.to_move else -1)
    if ends != line.value:
        return Verdict(False, False, None, None, f"the line ends with value {ends} for the "
                       f"player to move, not the claimed {line.value}")
    start, start_won = rules.replay(w, h, k, gravity, board.moves)
    if start_won or start.count(0) > OWN_VALUE_EMPTY_CELLS:
        return Verdict(True, True, line.value, None)
    own = rules.negamax_value(start, w, h, k, gravity, {}) if start.count(0) else 0
    if own != line.value:
        return Verdict(True, False, own, None, f"claimed value {line.value}; the rules give {own}")
    return Verdict(True, True, own, None)


def check(instance: Board | GameTree | GameGraph, solution: Line | Labelling) -> Verdict:
    if isinstance(solution, Labelling):
        if not isinstance(instance, GameGraph):
            return Verdict(False, False, None, None, "a labelling answers a game graph only")
        return check_labelling(instance, solution)
    if isinstance(instance, GameGraph):
        return check_graph_line(instance, solution)
    if isinstance(instance, GameTree):
        return check_tree_line(instance, solution)
    return check_board_line(instance, solution)
