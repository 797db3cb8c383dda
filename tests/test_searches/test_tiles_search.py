"""Sliding-tile searches: IDA* (Manhattan, linear conflict) and A*.

The notebook's numbers (Manhattan 32 on its demo board; I1, I2, I3 optimal at 26, 40, 52),
Korf's 1985 node counts reproduced exactly (his count minus one: the start state), A* and
IDA* agreeing on optimal lengths on many boards of several shapes and both goal conventions,
every answer replayed by the family's checker, the incremental heuristics equal to their full
recomputation, linear conflict between Manhattan and the true distance on every 8-puzzle
state, the budget, and unsolvable boards.
"""

from __future__ import annotations

import dataclasses
import os
import random
import time
from functools import cache
from types import SimpleNamespace

import numpy as np
import pytest

from bench.api import Budget, lookup
from instances.tiles import GENERATORS, Instance, Solution, check, read_file
from searches import tiles_astar, tiles_ida
from searches.support import tiles_heuristics
from searches.support import tiles_pdb_lookup as pdb_lookup
from searches.support import tiles_pdb_patterns as patterns
from searches.support.numba_cache import forget_stale_cache, own_dispatchers
from searches.support.tiles_board import board_for, build_board, manhattan_sum
from searches.support.tiles_heuristics import (
    DROPOUT,
    LINEAR_CONFLICT,
    MANHATTAN,
    PDB,
    child_h,
    heuristic_tables,
    root_h,
)
from searches.support.tiles_ida_kernel import SOLVED
from searches.support.tiles_ida_search import IdaSearch
from searches.tiles_astar import AStarSearch

from helpers import budget, eight_puzzle_distances, korf_1985_nodes

NOTEBOOK_DEMO = (7, 12, 11, 2, 10, 0, 4, 6, 9, 3, 5, 8, 13, 15, 1, 14)
SOLVERS = ("ida-manhattan", "ida-lc", "astar-manhattan")


def scramble(rows: int, cols: int, steps: int, seed: int, goal: str = "blank-last") -> Instance:
    params = {"rows": rows, "cols": cols, "steps": steps, "goal": goal}
    return GENERATORS["scramble"](params, seed).instance


def uniform(rows: int, cols: int, seed: int, goal: str = "blank-first") -> Instance:
    return GENERATORS["random"]({"rows": rows, "cols": cols, "goal": goal}, seed).instance


def ida(instance: Instance, kind: int | tiles_heuristics.Heuristic = MANHATTAN) -> IdaSearch:
    search = IdaSearch.start(instance, kind)
    assert search.run(1 << 62) == SOLVED
    return search


def astar(instance: Instance, kind: int | tiles_heuristics.Heuristic = MANHATTAN) -> AStarSearch:
    search = AStarSearch(instance, kind)
    assert search.run(1 << 62) == tiles_astar.SOLVED
    return search


def solved_by(instance: Instance, moves: str) -> bool:
    return check(instance, Solution(moves)).solved


def expired() -> Budget:
    return Budget(wall_s=0.0, mem_mb=2000, deadline=time.monotonic() - 1.0)


@cache
def korf(data) -> tuple[list, dict[int, int]]:
    return read_file(data / "tiles" / "korf100_15puzzle.txt"), korf_1985_nodes(data)


def fewest_listed(data, count: int, skip: tuple[int, ...] = ()) -> list[int]:
    _, listed = korf(data)
    return [i for i in sorted(listed, key=listed.get) if i not in skip][:count]


# --- tables --------------------------------------------------------------------------------------


def test_move_tables_follow_the_order_up_left_right_down_and_skip_the_undo_move():
    board = board_for(3, 4, "blank-first")
    centre = 1 * 4 + 1
    dirs = board.move_dir[centre * 4: centre * 4 + board.move_count[centre]]
    assert "".join("ULRD"[d] for d in dirs) == "ULRD"
    assert list(board.move_cell[centre * 4: centre * 4 + 4]) == [1, 4, 6, 9]
    corner = 0
    assert ["ULRD"[d] for d in board.move_dir[:board.move_count[corner]]] == ["R", "D"]
    # after a move up into the centre, the slice of moves lacks "down"
    s, e = board.succ_start[centre * 5 + 0], board.succ_end[centre * 5 + 0]
    assert "".join("ULRD"[d] for d in board.succ_dir[s:e]) == "ULR"
    s, e = board.succ_start[centre * 5 + 4], board.succ_end[centre * 5 + 4]
    assert "".join("ULRD"[d] for d in board.succ_dir[s:e]) == "ULRD"


def test_manhattan_of_the_notebook_demo_is_32():
    instance = scramble(4, 4, 100, 11)
    assert instance.tiles == NOTEBOOK_DEMO
    board = board_for(4, 4, "blank-last")
    assert board.manhattan_of(instance.tiles) == 32
    assert manhattan_sum(board.state(instance.tiles), board.manhattan) == 32
    assert IdaSearch.start(instance).start_h == 32


def test_manhattan_delta_is_the_difference_of_the_sums():
    rng = random.Random(3)
    for rows, cols in ((3, 3), (3, 5), (5, 5)):
        board = build_board(rows, cols, tuple(rng.sample(range(rows * cols), rows * cols)))
        n = board.ncells
        tiles = rng.sample(range(n), n)
        blank = tiles.index(0)
        for i in range(board.move_count[blank]):
            d, src = board.move_dir[blank * 4 + i], board.move_cell[blank * 4 + i]
            after = list(tiles)
            after[blank], after[src] = after[src], 0
            delta = board.manhattan_delta[(tiles[src] * n + blank) * 4 + d]
            assert board.manhattan_of(after) - board.manhattan_of(tiles) == delta


def test_a_cached_kernel_older_than_a_file_it_compiles_in_is_forgotten(tmp_path):
    index, source = tmp_path / "kernel.nbi", tmp_path / "heuristics.py"
    index.write_text("cached")
    source.write_text("edited")
    os.utime(index, (1_000_000, 1_000_000))
    kernel = SimpleNamespace(_cache=SimpleNamespace(_cache_file=SimpleNamespace(
        _index_path=str(index))))
    assert forget_stale_cache([kernel, object()], str(source)) == 1
    assert not index.exists()
    index.write_text("recompiled")  # newer than the source now: kept
    assert forget_stale_cache([kernel], str(source)) == 0 and index.exists()


def test_a_module_covers_its_own_kernels_and_lists_what_they_compile_in():
    """``own_dispatchers`` gives the kernels a module defines, not those it imports; the IDA*
    kernels' ``JIT_SOURCES`` name every file whose code they compile in, down to the
    intrinsics."""
    from searches.support import intrinsics, tiles_heuristics, tiles_ida_kernel, tiles_rank

    own = own_dispatchers(tiles_ida_kernel.__name__)
    assert tiles_ida_kernel.ida_kernel in own and tiles_ida_kernel.is_goal in own
    assert child_h not in own  # imported from tiles_heuristics
    assert child_h in own_dispatchers(tiles_heuristics.__name__)
    sources = tiles_ida_kernel.JIT_SOURCES
    for module in (tiles_ida_kernel, tiles_heuristics, pdb_lookup, tiles_rank, intrinsics):
        assert module.__file__ in sources


# --- heuristics ----------------------------------------------------------------------------------


def walk(instance_tiles: tuple[int, ...], rows: int, cols: int, steps: int, seed: int):
    """States of a random walk, with the move (blank, src, tile, d) that leads to each next."""
    rng = random.Random(seed)
    board = board_for(rows, cols, "blank-first")
    tiles = list(instance_tiles)
    for _ in range(steps):
        blank = tiles.index(0)
        i = rng.randrange(board.move_count[blank])
        d, src = int(board.move_dir[blank * 4 + i]), int(board.move_cell[blank * 4 + i])
        yield list(tiles), blank, src, tiles[src], d
        tiles[blank], tiles[src] = tiles[src], 0


def small_pdb(rows: int, cols: int, goal: str, dual: bool) -> tiles_heuristics.Heuristic:
    """Tables of two or three tiles a pattern (built in milliseconds), minimized rule, with
    the reflection where it is valid and the dual lookup when asked."""
    n = rows * cols
    tiles = list(range(1, n))
    size = 3 if n > 12 else 2
    spec = [tiles[i:i + size] for i in range(0, len(tiles), size)]
    part = patterns.partition(spec, rows, cols, goal)
    reflect = not isinstance(pdb_lookup.reflection(rows, cols, goal), str)
    table = pdb_lookup.heuristic(part, "minimized", "nibble", reflect=reflect)
    return tiles_heuristics.pdb_tables(table, dual=dual)


@pytest.mark.parametrize("kind", [MANHATTAN, LINEAR_CONFLICT, DROPOUT, PDB, "pdb+dual"])
@pytest.mark.parametrize("shape", [(3, 3), (4, 4), (3, 4), (4, 3), (5, 5), (2, 6), (2, 7)])
@pytest.mark.parametrize("goal", ["blank-first", "blank-last"])
def test_incremental_heuristic_equals_its_full_recomputation(kind, shape, goal):
    rows, cols = shape
    tables = board_for(rows, cols, goal)
    if kind == "pdb+dual" and goal != "blank-first":
        pytest.skip("the dual lookup needs the blank-first goal")
    if kind in (PDB, "pdb+dual"):
        heuristic = small_pdb(rows, cols, goal, dual=kind == "pdb+dual")
    else:
        heuristic = heuristic_tables(tables, kind)
    kind = heuristic.kind
    args = (heuristic.t8, heuristic.tu8, heuristic.t64)
    P, pos = heuristic.arrays, np.zeros(3 * rows * cols, np.int64)
    hs = np.zeros((2, heuristic.width), np.int64)
    fresh = np.zeros((1, heuristic.width), np.int64)
    start = uniform(rows, cols, 5, goal).tiles
    for tiles, blank, src, tile, d in walk(start, rows, cols, 300, seed=rows * cols):
        board = tables.state(tiles)
        h = root_h(kind, board, blank, *args, hs, P, pos)
        hc = child_h(kind, board, blank, src, tile, d, h, *args, hs, 0, P, pos)
        after = list(tiles)
        after[blank], after[src] = tile, 0
        assert hc == root_h(kind, tables.state(after), src, *args, fresh, P, pos)
        assert (hs[1] == fresh[0]).all()  # the per-depth state too


@pytest.mark.parametrize("goal", ["blank-first", "blank-last"])
def test_linear_conflict_between_manhattan_and_the_true_distance_on_every_8_puzzle(goal):
    dist = eight_puzzle_distances(goal)
    assert len(dist) == 181_440
    tables = board_for(3, 3, goal)
    lc = heuristic_tables(tables, LINEAR_CONFLICT)
    hs = np.zeros((1, 1), np.int64)
    above = 0
    for state, d in dist.items():
        board = tables.state(state)
        blank = state.index(0)
        m = root_h(MANHATTAN, board, blank, lc.t8, lc.tu8, lc.t64, hs, lc.arrays, hs[0])
        h = root_h(LINEAR_CONFLICT, board, blank, lc.t8, lc.tu8, lc.t64, hs, lc.arrays, hs[0])
        assert m <= h <= d, (state, m, h, d)
        assert (h - m) % 2 == 0
        above += h > m
    assert above > 50_000  # it is not Manhattan in disguise


def test_linear_conflict_counts_a_reversed_pair_and_a_full_reversal():
    # blank-first 3x3 goal: row 0 = 0 1 2. Tiles 2 and 1 swapped in row 0: +2.
    tables = board_for(3, 3, "blank-first")
    lc = heuristic_tables(tables, LINEAR_CONFLICT)
    hs = np.zeros((1, 1), np.int64)

    def h(tiles):
        board = tables.state(tiles)
        args = (lc.t8, lc.tu8, lc.t64, hs, lc.arrays, hs[0])
        return (root_h(LINEAR_CONFLICT, board, tiles.index(0), *args)
                - root_h(MANHATTAN, board, tiles.index(0), *args))

    assert h((0, 2, 1, 3, 4, 5, 6, 7, 8)) == 2
    # row 1 reversed (5 4 3): two of the three tiles must leave the row: +4
    assert h((0, 1, 2, 5, 4, 3, 6, 7, 8)) == 4
    # column 0 holds 6, 3 in place of 3, 6 (goal cells 3 and 6): +2
    assert h((0, 1, 2, 6, 4, 5, 3, 7, 8)) == 2


# --- IDA*: the notebook and Korf ---------------------------------------------------------------


@pytest.mark.parametrize("kind", [MANHATTAN, LINEAR_CONFLICT])
@pytest.mark.parametrize("steps,seed,length", [(50, 11, 26), (70, 23, 40), (90, 41, 52)])
def test_notebook_instances_are_solved_at_their_optimum(kind, steps, seed, length):
    instance = scramble(4, 4, steps, seed)
    search = ida(instance, kind)
    assert len(search.moves()) == length
    assert solved_by(instance, search.moves())


@pytest.mark.data
def test_korf_node_counts_minus_one_on_the_fastest_instances(shared_data):
    instances, listed = korf(shared_data)
    for ident in fewest_listed(shared_data, 8, skip=(42,)):
        generated = instances[ident - 1]
        search = ida(generated.instance)
        assert search.nodes == listed[ident] - 1, ident
        assert len(search.moves()) == generated.known_optimum
        assert solved_by(generated.instance, search.moves())


@pytest.mark.data
def test_korf_42_is_one_digit_off_in_the_listing(shared_data):
    """Instance 42 is the one exception: Korf's count minus one would be 877,022, we generate
    877,822. The listed 877,023 and our count plus one, 877,823, differ in one digit (the
    hundreds), which reads as a misprint in the listing; the count is pinned here so that any
    change of the search shows."""
    instances, listed = korf(shared_data)
    search = ida(instances[41].instance)
    assert listed[42] == 877_023
    assert search.nodes == 877_822
    ours, theirs = str(search.nodes + 1), str(listed[42])
    assert sum(a != b for a, b in zip(ours, theirs, strict=True)) == 1


@pytest.mark.data
@pytest.mark.slow
def test_korf_node_counts_minus_one_up_to_100_million_nodes(shared_data):
    instances, listed = korf(shared_data)
    idents = [i for i in fewest_listed(shared_data, 100, skip=(42,)) if listed[i] < 100_000_000]
    assert len(idents) > 50
    for ident in idents:
        search = ida(instances[ident - 1].instance)
        assert search.nodes == listed[ident] - 1, ident
        assert len(search.moves()) == instances[ident - 1].known_optimum


@pytest.mark.data
def test_mean_manhattan_of_korf_100_is_37_05(shared_data):
    instances, _ = korf(shared_data)
    starts = [IdaSearch.start(g.instance).start_h for g in instances]
    assert len(starts) == 100
    assert sum(starts) == 3705
    lc = [IdaSearch.start(g.instance, LINEAR_CONFLICT).start_h for g in instances]
    assert all(m <= h <= g.known_optimum for m, h, g in zip(starts, lc, instances, strict=True))
    assert sum(lc) > sum(starts)


@pytest.mark.data
def test_linear_conflict_agrees_and_generates_fewer_nodes(shared_data):
    instances, _ = korf(shared_data)
    for ident in fewest_listed(shared_data, 4):
        instance = instances[ident - 1].instance
        plain, lc = ida(instance, MANHATTAN), ida(instance, LINEAR_CONFLICT)
        assert len(lc.moves()) == len(plain.moves())
        assert lc.nodes < plain.nodes
        assert solved_by(instance, lc.moves())


def test_chunks_and_stack_growth_do_not_change_the_search():
    instance = scramble(4, 4, 70, 23)
    whole = ida(instance)
    pieces = IdaSearch.start(instance, MANHATTAN, depth=4)  # grows several times
    chunks = 0
    while pieces.run(997) != SOLVED:
        chunks += 1
    assert chunks > 100
    assert (pieces.nodes, pieces.expanded, pieces.iterations) == (
        whole.nodes, whole.expanded, whole.iterations)
    assert pieces.moves() == whole.moves()


def test_counters_of_a_tiny_search_by_hand():
    # blank-last 3x3, blank at cell 7 (tiles 1..7, 0, 8): one move right solves it.
    instance = Instance(3, 3, (1, 2, 3, 4, 5, 6, 7, 0, 8), "blank-last")
    search = ida(instance)
    # h = 1, threshold 1: the root (blank at 7) generates U (f=3), L (f=3), R (the goal, f=1):
    # three nodes, one expansion (the root), one iteration.
    assert search.moves() == "R"
    assert (search.nodes, search.expanded, search.iterations) == (3, 1, 1)


# --- A* ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("goal", ["blank-first", "blank-last"])
def test_astar_and_ida_agree_on_random_8_puzzles(goal):
    dist = eight_puzzle_distances(goal)
    for seed in range(25):
        instance = uniform(3, 3, seed, goal)
        a, b = astar(instance), ida(instance)
        c = ida(instance, LINEAR_CONFLICT)
        assert len(a.moves()) == len(b.moves()) == len(c.moves()) == dist[instance.tiles]
        assert a.reopened == 0  # Manhattan is consistent
        for moves in (a.moves(), b.moves(), c.moves()):
            assert solved_by(instance, moves)


@pytest.mark.parametrize("shape", [(2, 2), (2, 3), (3, 4), (4, 3), (2, 5), (4, 4), (5, 5)])
@pytest.mark.parametrize("goal", ["blank-first", "blank-last"])
def test_every_board_shape_and_goal(shape, goal):
    rows, cols = shape
    for seed in (1, 2):
        instance = scramble(rows, cols, 34, seed, goal)
        a = astar(instance, LINEAR_CONFLICT)
        assert a.reopened == 0
        for kind in (MANHATTAN, LINEAR_CONFLICT):
            b = ida(instance, kind)
            assert len(b.moves()) == len(a.moves()) <= 34
            assert solved_by(instance, b.moves())
        assert solved_by(instance, a.moves())


def test_astar_on_easy_15_puzzles_matches_ida():
    for steps, seed in ((50, 11), (70, 23)):
        instance = scramble(4, 4, steps, seed)
        a, b = astar(instance), ida(instance)
        assert len(a.moves()) == len(b.moves())
        assert a.stored <= a.nodes + 1
        assert a.expanded < b.expanded  # no repeated work


def test_astar_grows_its_arrays():
    instance = scramble(4, 4, 70, 23)
    small = AStarSearch(instance, MANHATTAN, capacity=64)
    assert small.run(1 << 62) == tiles_astar.SOLVED
    big = astar(instance)
    assert small.capacity > 64
    assert (small.expanded, small.nodes, small.moves()) == (big.expanded, big.nodes, big.moves())


def centre_free_manhattan(goal: str) -> tiles_heuristics.Heuristic:
    """Manhattan on the 8-puzzle but for a tile in the centre cell, which counts 0: admissible
    (never above Manhattan) and not consistent (a tile 3 moves from home that slides into the
    centre drops h by 3). Tables of the MANHATTAN kind, so the kernels are the solvers' own."""
    tables = board_for(3, 3, goal)
    n = tables.ncells
    terms = tables.manhattan.reshape(n, n).astype(np.int64)
    terms[:, 4] = 0
    delta = np.zeros((n, n, 4), np.int64)
    for blank in range(n):
        for i in range(tables.move_count[blank]):
            d, src = tables.move_dir[blank * 4 + i], tables.move_cell[blank * 4 + i]
            delta[:, blank, d] = terms[:, blank] - terms[:, src]
    holed = dataclasses.replace(tables, manhattan=terms.reshape(-1).astype(np.int8),
                                manhattan_delta=delta.reshape(-1).astype(np.int8))
    return heuristic_tables(holed, MANHATTAN)


def reopenings_on_optimal_paths(goal: str, h: int | tiles_heuristics.Heuristic) -> int:
    """A* and IDA* with ``h`` on 30 uniform 8-puzzles: each path optimal (by the BFS distances)
    and solving; the states A* reopened, summed."""
    dist = eight_puzzle_distances(goal)
    reopened = 0
    for seed in range(30):
        instance = uniform(3, 3, seed, goal)
        a = astar(instance, h)
        for search in (a, ida(instance, h)):
            assert len(search.moves()) == dist[instance.tiles]
            assert solved_by(instance, search.moves())
        reopened += a.reopened
    return reopened


@pytest.mark.parametrize("goal", ["blank-first", "blank-last"])
def test_astar_reopens_under_an_inconsistent_heuristic_and_stays_optimal(goal):
    """Under an admissible heuristic that is not consistent (``centre_free_manhattan``) A*
    meets some expanded states again by cheaper paths, reopens them, and still returns optimal
    lengths; IDA* with it too. (The same with DROPOUT's own kernels, which only the tests use,
    is ``test_the_dropout_kernels_reopen_and_stay_optimal``, under ``-m slow``: compiling them
    costs more than half a minute.)"""
    assert reopenings_on_optimal_paths(goal, centre_free_manhattan(goal)) > 0


@pytest.mark.slow
@pytest.mark.parametrize("goal", ["blank-first", "blank-last"])
def test_the_dropout_kernels_reopen_and_stay_optimal(goal):
    """DROPOUT (Manhattan where cell 0 holds an odd tile, else 0) is admissible but not
    consistent: A* meets some expanded states again by cheaper paths, reopens them, and still
    returns optimal lengths; IDA* with it too (and its per-depth state, the Manhattan value,
    is carried along the stack as a pattern database's values would be)."""
    assert reopenings_on_optimal_paths(goal, DROPOUT) > 0


# --- the registered solvers ----------------------------------------------------------------------


@pytest.mark.parametrize("name", SOLVERS)
def test_registered_solvers_claim_optimal_with_checked_moves(name):
    spec = lookup(name, "tiles")
    assert spec.family == "tiles" and spec.paradigm == "native"
    for instance, length in ((scramble(4, 4, 50, 11), 26), (scramble(4, 4, 70, 23), 40),
                             (scramble(3, 3, 30, 2, "blank-first"), None)):
        out = spec.solve(instance, budget(20), 0, **spec.defaults())
        assert out.status == "optimal"
        assert out.objective == len(out.solution.moves)
        assert check(instance, out.solution).solved
        if length is not None:
            assert out.objective == length
        assert out.counters["nodes"] > 0 and out.counters["expanded"] > 0
        if name.startswith("ida"):
            assert out.counters["iterations"] >= 1


@pytest.mark.parametrize("name", SOLVERS)
def test_unsolvable_board_is_infeasible_at_once(name):
    spec = lookup(name, "tiles")
    goal = list(range(16))
    goal[1], goal[2] = goal[2], goal[1]
    instance = Instance(4, 4, tuple(goal), "blank-first")
    assert not instance.solvable
    out = spec.solve(instance, budget(5), 0, **spec.defaults())
    assert out.status == "infeasible"
    assert out.counters["nodes"] == 0


@pytest.mark.data
@pytest.mark.parametrize("name", SOLVERS)
def test_budget_expiry_gives_unknown(name, shared_data):
    spec = lookup(name, "tiles")
    instances, _ = korf(shared_data)
    hard = instances[87].instance  # #88: 6 billion nodes for IDA* with Manhattan
    out = spec.solve(hard, expired(), 0, **spec.defaults())
    assert out.status == "unknown" and out.solution is None
    t = time.monotonic()
    out = spec.solve(hard, budget(0.4), 0, **spec.defaults())
    assert out.status == "unknown"
    assert out.counters["nodes"] > 0
    assert time.monotonic() - t < 2.0


def test_max_nodes_gives_unknown():
    spec = lookup("ida-manhattan", "tiles")
    out = spec.solve(scramble(4, 4, 90, 41), budget(20), 0, max_nodes=100_000)
    assert out.status == "unknown"
    assert out.counters["nodes"] == 100_000


def test_astar_memory_budget_gives_unknown():
    spec = lookup("astar-manhattan", "tiles")
    tight = Budget(wall_s=20, mem_mb=8, deadline=time.monotonic() + 20)
    out = spec.solve(scramble(4, 4, 90, 41), tight, 0, **spec.defaults())
    assert out.status == "unknown"
    assert out.counters["out_of_memory"] == 1


def test_the_solved_start_needs_no_move():
    for name in SOLVERS:
        spec = lookup(name, "tiles")
        instance = Instance(3, 4, tuple(board_for(3, 4, "blank-last").goal), "blank-last")
        out = spec.solve(instance, budget(5), 0, **spec.defaults())
        assert out.status == "optimal" and out.objective == 0 and out.solution.moves == ""


def test_modules_register_their_solvers():
    assert tiles_ida.solve_manhattan is lookup("ida-manhattan", "tiles").solve
    assert tiles_ida.solve_linear_conflict is lookup("ida-lc", "tiles").solve
    assert tiles_astar.solve is lookup("astar-manhattan", "tiles").solve
