"""The games family: boards and their rules, trees, graphs built from rules, the checker (on
answers built here by the seed's own attractor, and on mutations of them), the file formats,
and how the harness judges a claimed value."""

from __future__ import annotations

from collections import deque
from types import SimpleNamespace

import numpy as np
import pytest

from bench.execute.classify import judge
from bench.plan.specs import family_of_file, resolve
from instances.common import Generated, InstanceError
from instances.games import (
    GENERATORS,
    Board,
    GameGraph,
    GameTree,
    Instance,
    Labelling,
    Line,
    Solution,
    board_graph,
    check,
    graph_values,
    minimax_of_tree,
    nim_graph,
    read_file,
    read_solution,
    render,
    rules,
    subtraction_graph,
    write_file,
)

from helpers import cliffbench

TICTACTOE = Board(3, 3, 3, False)


def seed_attractor(graph: GameGraph, player: int) -> tuple[list[int], list[int]]:
    """The seed's OCaml attractor, with layers and the strategy: backwards from the targets, a
    counter of remaining moves per opponent position."""
    n = graph.n
    preds: list[list[int]] = [[] for _ in range(n)]
    for p in range(n):
        for q in graph.successors(p).tolist():
            preds[q].append(p)
    layer = [-1] * n
    move = [-1] * n
    remaining = np.diff(graph.offsets).tolist()
    queue = deque(p for p in range(n) if graph.target[p] == player)
    for p in queue:
        layer[p] = 0
    while queue:
        q = queue.popleft()
        for p in preds[q]:
            if layer[p] >= 0:
                continue
            if graph.owner[p] == player:
                layer[p], move[p] = layer[q] + 1, q
                queue.append(p)
            else:
                remaining[p] -= 1
                if remaining[p] == 0:
                    layer[p] = layer[q] + 1
                    queue.append(p)
    return layer, move


def seed_labelling(graph: GameGraph) -> Labelling:
    label = np.zeros(graph.n, np.int8)
    move = np.full(graph.n, -1, np.int32)
    layer = np.full(graph.n, -1, np.int32)
    for player in (1, 2):
        lay, mv = seed_attractor(graph, player)
        for p in range(graph.n):
            if lay[p] >= 0:
                label[p], layer[p] = player, lay[p]
                if graph.owner[p] == player and graph.target[p] == 0:
                    move[p] = mv[p]
    return Labelling(label, move, layer)


def graph_of(owner, moves, target, start=0) -> GameGraph:
    offsets = np.cumsum([0] + [len(m) for m in moves])
    succ = [q for m in moves for q in m]
    return GameGraph(np.array(owner), offsets, np.array(succ, dtype=np.int64),
                     np.array(target), start)


# A small game: 0 (P1) -> 1, 2; 1 (P2) -> 3 (P1's target), 4; 2 (P2) -> 3; 4 (P1) -> 5 (dead
# end: a draw) or 1 (a cycle); 3 target 1.
SMALL = graph_of([1, 2, 2, 1, 1, 2], [[1, 2], [3, 4], [3], [], [5, 1], []], [0, 0, 0, 1, 0, 0])


# -- boards and rules -----------------------------------------------------------------------------

def test_cells_are_numbered_from_the_bottom_row_and_stones_fall():
    board = Board(4, 4, 4, True, (1, 1, 2))
    cells = board.cells()
    assert cells[1] == 1 and cells[5] == 2 and cells[2] == 1 and board.to_move == 2
    assert render(board).splitlines()[-2:] == [".O..", ".XX."]


def test_bad_moves_are_refused_naming_the_move():
    with pytest.raises(InstanceError, match="move 3: column 0 is full"):
        Board(4, 2, 2, True, (0, 0, 0))
    with pytest.raises(InstanceError, match="comes after player 1 has won"):
        Board(3, 3, 3, False, (0, 3, 1, 4, 2, 5))
    with pytest.raises(InstanceError, match="k=5 does not fit"):
        Board(4, 4, 5, True)


def test_lines_in_every_direction_win():
    for moves, won in (((0, 3, 1, 4, 2), 1), ((0, 1, 3, 4, 6), 1), ((0, 1, 4, 2, 8), 1),
                       ((2, 0, 4, 1, 6), 1), ((0, 2, 1, 4, 3, 6), 2)):
        assert rules.replay(3, 3, 3, False, moves)[1] == won, moves
    # Connect Four, a rising diagonal from the bottom-left corner.
    assert rules.replay(4, 4, 4, True, (0, 1, 1, 2, 2, 3, 2, 3, 3, 0, 3))[1] == 1


def test_tictactoe_is_a_draw_by_the_plain_rules():
    assert rules.negamax_value(TICTACTOE.cells(), 3, 3, 3, False, {}) == 0
    # X in the centre, O on an edge: X wins.
    assert rules.negamax_value(Board(3, 3, 3, False, (4, 1)).cells(), 3, 3, 3, False, {}) == 1


def test_the_reachable_positions_of_tictactoe_and_connect_four_4x4():
    assert board_graph(TICTACTOE).n == 5478
    graph = board_graph(Board(4, 4, 4, True))
    assert graph.n == 161_029  # Tromp's count of legal positions
    assert graph_values(graph)[graph.start] == 0  # a draw


# -- trees ------------------------------------------------------------------------------------

def subtree_value(tree: GameTree, leaves: list[int], t: int, i: int) -> int:
    """Plain recursive minimax of node ``i`` at depth ``t``."""
    if t == tree.depth:
        return leaves[i]
    kids = [subtree_value(tree, leaves, t + 1, i * tree.arity + c) for c in range(tree.arity)]
    return max(kids) if t % 2 == 0 else min(kids)


def brute_minimax(tree: GameTree) -> int:
    return subtree_value(tree, tree.leaves().tolist(), 0, 0)


def test_trees_are_pure_functions_of_their_parameters():
    a = GENERATORS["tree"]({"depth": 3, "arity": 3}, 7).instance
    b = GameTree.from_json(a.to_json())
    assert a.instance_id == b.instance_id and (a.leaves() == b.leaves()).all()
    assert a.instance_id != GENERATORS["tree"]({"depth": 3, "arity": 3}, 8).instance.instance_id
    assert a.leaves().min() >= -1000 and a.leaves().max() <= 1000 and len(a.leaves()) == 27


def test_incremental_trees_sum_their_paths():
    tree = GameTree(3, 2, "incremental", -5, 5, 3)
    e1, e2, leaves = tree.estimates(1), tree.estimates(2), tree.leaves()
    assert (leaves == tree.estimates(3)).all()
    steps2, steps3 = e2 - np.repeat(e1, 2), leaves - np.repeat(e2, 2)
    assert np.abs(steps2).max() <= 5 and np.abs(steps3).max() <= 5 and tree.estimates(0)[0] == 0
    assert not GameTree(2, 2, "iid").estimates(1).any()


@pytest.mark.parametrize("seed", range(1, 21))
def test_the_checkers_minimax_is_minimax(seed):
    tree = GameTree(3 + seed % 3, 2 + seed % 3, "iid", -9, 9, seed)
    assert minimax_of_tree(tree) == brute_minimax(tree)


def best_line(tree: GameTree) -> tuple[int, ...]:
    leaves = tree.leaves().tolist()
    line, node = [], 0
    for t in range(tree.depth):
        values = [subtree_value(tree, leaves, t + 1, node * tree.arity + c)
                  for c in range(tree.arity)]
        pick = values.index(max(values) if t % 2 == 0 else min(values))
        line.append(pick)
        node = node * tree.arity + pick
    return tuple(line)


def test_tree_lines_are_checked_down_to_their_leaf():
    tree = GameTree(4, 3, "iid", -50, 50, 11)
    value, line = minimax_of_tree(tree), best_line(tree)
    assert check(tree, Line(value, line)).solved
    index = lambda path: sum(c * 3 ** (3 - i) for i, c in enumerate(path))  # noqa: E731
    for path in np.ndindex(3, 3, 3, 3):
        if tree.leaves()[index(path)] != value:   # a leaf of another value: the line lies
            assert f"not {value}" in check(tree, Line(value, path)).reason
            break
    assert not check(tree, Line(value, line[:3])).legal
    # A line to a real leaf that is not the minimax value: legal, not solved.
    other = path
    leaf_value = int(tree.leaves()[index(other)])
    verdict = check(tree, Line(leaf_value, other))
    assert verdict.legal and not verdict.solved and verdict.score == value


# -- graphs and labellings -----------------------------------------------------------------------

def test_the_small_graph_by_the_seed_attractor():
    answer = seed_labelling(SMALL)
    assert answer.label.tolist() == [1, 0, 1, 1, 0, 0]
    assert answer.layer.tolist() == [2, -1, 1, 0, -1, -1] and answer.move[0] == 2
    assert check(SMALL, answer).solved and check(SMALL, answer).score == 1


def test_the_checker_rejects_each_kind_of_false_labelling():
    good = seed_labelling(SMALL)

    def changed(**arrays) -> Labelling:
        parts = {"label": good.label.copy(), "move": good.move.copy(),
                 "layer": good.layer.copy()}
        for name, (index, value) in arrays.items():
            parts[name][index] = value
        return Labelling(**parts)

    cases = {
        "labelled a draw but player 1 can force": changed(label=([0, 2], 0), layer=([0, 2], -1),
                                                          move=(0, -1)),
        "strategy move": changed(move=(0, 1)),               # 1 is not a P1 win
        "has a move that escapes": changed(label=(1, 1), layer=(1, 5)),
        "target but labelled": changed(label=(3, 2)),
        "not a move to a win": changed(layer=(0, 1)),         # 2 is not below 1
    }
    for reason, answer in cases.items():
        verdict = check(SMALL, answer)
        assert not verdict.solved and reason in verdict.reason, (reason, verdict)
    assert not check(SMALL, Labelling(good.label[:3], good.move[:3], good.layer[:3])).legal


@pytest.mark.parametrize("heaps", [(1, 2, 3), (1, 3, 5, 7), (3, 4, 5), (2, 2), (1, 4, 6)])
def test_nim_graphs_follow_boutons_rule(heaps):
    graph = nim_graph(heaps)
    answer = seed_labelling(graph)
    assert check(graph, answer).solved
    xor = 0
    for h in heaps:
        xor ^= h
    assert check(graph, answer).score == (1 if xor else -1)
    assert GENERATORS["nim"]({"heaps": "-".join(map(str, heaps))}).known_optimum == \
        (1 if xor else -1)


def test_subtraction_games_lose_on_multiples_of_four():
    for n in range(0, 14):
        graph = subtraction_graph(n, (1, 2, 3))
        assert check(graph, seed_labelling(graph)).score == (-1 if n % 4 == 0 else 1)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_graphs_the_seed_attractor_and_the_fixed_point_agree(seed):
    graph = GENERATORS["random-graph"]({"positions": 400, "degree": 2, "targets": 0.1,
                                        "dead_ends": 0.1}, seed).instance
    answer = seed_labelling(graph)
    assert check(graph, answer).solved
    assert (answer.label == graph_values(graph)).all()
    assert set(answer.label.tolist()) == {0, 1, 2}


def test_graph_lines_are_replayed():
    assert check(SMALL, Line(1, (2, 3))).solved
    assert "leaves the value at position 1" in check(SMALL, Line(1, (1, 3))).reason
    assert not check(SMALL, Line(1, (3,))).legal         # 3 is not a move from 0
    assert not check(SMALL, Line(0, (2, 3))).legal       # the line ends in a win
    assert check(SMALL, Line(0)).score == 1 and not check(SMALL, Line(0)).solved


def test_board_lines_are_replayed_and_valued():
    draw = (4, 0, 1, 7, 6, 2, 3, 5, 8)
    assert check(TICTACTOE, Line(0, draw)).solved
    assert "not legal" in check(TICTACTOE, Line(0, (4, 4))).reason
    assert "before the game ends" in check(TICTACTOE, Line(0, draw[:5])).reason
    assert "ends with value 0" in check(TICTACTOE, Line(1, draw)).reason
    # O blunders: X wins; the claim "X loses" contradicts the line.
    won = Board(3, 3, 3, False, (4, 1))
    verdict = check(won, Line(1, (0, 8, 6, 2, 3)))
    assert verdict.solved and verdict.score == 1


# -- formats, JSON, the harness ----------------------------------------------------------------

def test_json_round_trips_for_every_kind():
    for instance in (Board(7, 4, 4, True, (3, 3)), GameTree(4, 4, "incremental"), SMALL,
                     nim_graph((1, 2))):
        back = Instance.from_json(instance.to_json())
        assert back.instance_id == instance.instance_id
    answer = seed_labelling(SMALL)
    back = Solution.from_json(answer.to_json(SMALL), SMALL)
    assert isinstance(back, Labelling) and (back.layer == answer.layer).all()
    assert Solution.from_json(Line(1, (2, 3)).to_json()) == Line(1, (2, 3))


def test_game_files_round_trip_and_name_bad_lines(tmp_path):
    path = tmp_path / "g.game"
    write_file(path, SMALL, known=1)
    loaded = read_file(path)
    assert loaded[0].instance.instance_id == SMALL.instance_id
    assert loaded[0].known_optimum == 1.0
    write_file(tmp_path / "b.game", Board(5, 4, 4, True, (2, 2)))
    assert read_file(tmp_path / "b.game")[0].instance == Board(5, 4, 4, True, (2, 2))
    (tmp_path / "bad.game").write_text("graph 2 0\nv 0 1 0 1\nv 1 3 0\n")
    with pytest.raises(InstanceError, match=r"bad.game:3: every position is owned"):
        read_file(tmp_path / "bad.game")
    (tmp_path / "short.game").write_text("# x\ngraph 3 0\nv 0 1 0 1\n")
    with pytest.raises(InstanceError, match=r"short.game:3: the graph declares 3"):
        read_file(tmp_path / "short.game")
    assert family_of_file(path) == "games"


def test_solutions_are_read_from_solve_json(tmp_path):
    path = tmp_path / "answer.json"
    path.write_text('{"status": "optimal", "solution": {"value": 0, "moves": [4, 0, 1, 7, 6, '
                    '2, 3, 5, 8]}}')
    assert check(TICTACTOE, read_solution(path, TICTACTOE)).solved


def test_generators_by_spec():
    refs = resolve("games/connect4:width=4..5,height=4,moves=1-2")
    assert [r.instance.width for r in refs] == [4, 5] and refs[0].instance.moves == (1, 2)
    graph = resolve("games/tictactoe:form=graph")[0].instance
    assert isinstance(graph, GameGraph) and graph.n == 5478
    with pytest.raises(InstanceError, match="heaps="):
        resolve("games/nim:heaps=a-b")


@pytest.mark.data
def test_the_known_values_table_reads(shared_data):
    loaded = read_file(shared_data / "games" / "known_values.tsv")
    names = [g.instance.name for g in loaded if isinstance(g.instance, Board)]
    assert names[:5] == ["tictactoe", "connect4-4x4", "connect4-5x4", "connect4-4x5",
                         "connect4-7x6"]
    assert loaded[0].params["positions"] == 5478 and loaded[4].known_optimum == 1.0
    for g in loaded:
        if isinstance(g.instance, GameGraph):
            assert check(g.instance, seed_labelling(g.instance)).score == g.known_optimum


def task(generated: Generated):
    return SimpleNamespace(ref=SimpleNamespace(family="games", instance=generated.instance,
                                               generated=generated))


def test_a_value_against_the_known_one_and_the_checkers():
    draw = {"value": 0, "moves": [4, 0, 1, 7, 6, 2, 3, 5, 8]}
    known = Generated(TICTACTOE, known_optimum=0.0, feasible=True)
    assert judge(task(known), {"claimed": "optimal", "objective": 0,
                               "solution": draw})["status"] == "optimal"
    out = judge(task(Generated(TICTACTOE, known_optimum=1.0, feasible=True)),
                {"claimed": "optimal", "objective": 0, "solution": draw})
    assert out["status"] == "wrong" and "known optimum is 1" in out["verdict"]
    # X wins after 4, 1: a draw line there is not a line that ends the game as claimed.
    won = Board(3, 3, 3, False, (4, 1))
    out = judge(task(Generated(won, feasible=True)),
                {"claimed": "optimal", "objective": 0, "solution": {"value": 0, "moves": []}})
    assert out["status"] == "wrong"


def test_the_cli_makes_and_shows_games(tmp_path):
    out = cliffbench("gen", "games/connect4:width=5,height=4,moves=2-2", "--out",
                     str(tmp_path), check=True)
    assert out.returncode == 0
    files = list(tmp_path.iterdir())
    assert len(files) == 1 and files[0].suffix == ".game"
    shown = render(read_file(files[0])[0].instance)
    assert shown.splitlines()[-2:] == ["..O..", "..X.."]
