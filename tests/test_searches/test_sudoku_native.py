"""The ``native`` sudoku solver: checked answers on every box size, exact solution counts (0, 1,
2) against a brute-force counter, both kernels agreeing node for node, the budget, and the
reference collections (every puzzle solved and proved unique)."""

from __future__ import annotations

import random
import time
from functools import cache

import numpy as np
import pytest

from bench.api import Budget, lookup
from instances.sudoku import GENERATORS, Instance, Solution, check, read_file
from searches.sudoku_native import Search, solve
from searches.support import sudoku_modes as modes

from helpers import budget


@cache
def planted(box: int, clues: int, seed: int):
    return GENERATORS["planted"]({"box": box, "clues": clues}, seed)


def expired() -> Budget:
    return Budget(wall_s=0.0, mem_mb=2000, deadline=time.monotonic() - 1.0)


MODES = [modes.SUBSETS, modes.LOCKED, modes.SINGLES, modes.SUBSETS | modes.FIRST_MRV,
         modes.SINGLES | modes.FIRST_MRV]


def count(instance: Instance, mode: int = modes.SUBSETS, fast9: bool = True) -> Search:
    """The whole counting search (up to 2), without a budget."""
    search = Search.start(instance, 2, mode, fast9).root()
    assert search.run(10**9) == modes.DONE
    return search


def pattern_grid(box: int, rng: random.Random) -> list[int]:
    """A complete grid: the shifted-rows pattern with digits, bands, stacks, rows within a band
    and columns within a stack shuffled (cheap at any size)."""
    size = box * box

    def order() -> list[int]:
        groups = rng.sample(range(box), box)
        return [g * box + i for g in groups for i in rng.sample(range(box), box)]

    digits = rng.sample(range(1, size + 1), size)
    rows, cols = order(), order()
    return [digits[(box * (r % box) + r // box + c) % size] for r in rows for c in cols]


def brute_count(grid: list[int] | tuple[int, ...], box: int, limit: int = 2) -> int:
    """Solutions of a small grid by plain backtracking, counted up to ``limit``."""
    size = box * box
    g = list(grid)

    def fits(cell: int, v: int) -> bool:
        r, c = divmod(cell, size)
        for p in range(size * size):
            if p == cell or g[p] != v:
                continue
            pr, pc = divmod(p, size)
            if pr == r or pc == c or (pr // box, pc // box) == (r // box, c // box):
                return False
        return True

    if any(v and not fits(cell, v) for cell, v in enumerate(g)):
        return 0

    def rec() -> int:
        if 0 not in g:
            return 1
        cell = g.index(0)
        found = 0
        for v in range(1, size + 1):
            if fits(cell, v):
                g[cell] = v
                found += rec()
                g[cell] = 0
                if found >= limit:
                    break
        return min(found, limit)

    return rec()


def deadly_rectangle(grid: tuple[int, ...], box: int) -> list[int] | None:
    """Four cells of a full grid, two rows of one band by two columns of two stacks, reading
    a b / b a: blanking them leaves exactly two solutions (the swap)."""
    size = box * box
    for r1 in range(size):
        for r2 in range(r1 + 1, (r1 // box + 1) * box):
            for c1 in range(size):
                for c2 in range((c1 // box + 1) * box, size):
                    a, b = grid[r1 * size + c1], grid[r1 * size + c2]
                    if grid[r2 * size + c1] == b and grid[r2 * size + c2] == a:
                        return [r1 * size + c1, r1 * size + c2, r2 * size + c1, r2 * size + c2]
    return None


# --- answers ----------------------------------------------------------------------------------


def test_registered():
    spec = lookup("native", family="sudoku")
    assert spec.paradigm == "native" and spec.backend.startswith("numba-")
    assert spec.defaults()["unique"] is True


@pytest.mark.parametrize("box,clues,seed", [(2, 5, 1), (2, 6, 2), (3, 24, 1), (3, 26, 2),
                                            (4, 120, 1), (5, 450, 1)])
@pytest.mark.parametrize("deduction,branching", [(level, "weighted") for level in modes.LEVELS]
                         + [("singles", "first")])
def test_planted_solved_and_unique(box, clues, seed, deduction, branching):
    generated = planted(box, clues, seed)
    for fast9 in (True, False):
        outcome = solve(generated.instance, budget(), 1, deduction=deduction,
                        branching=branching, fast9=fast9)
        assert outcome.status == "solved"
        assert check(generated.instance, outcome.solution).solved
        assert outcome.solution.grid == generated.secret.grid
        assert outcome.counters["solutions"] == 1
        assert outcome.counters["fast9"] == int(fast9 and box == 3)
        guesses = outcome.counters["guesses"]  # each adds its node, and maybe its negation
        assert 1 + guesses <= outcome.counters["nodes"] <= 1 + 2 * guesses


@pytest.mark.parametrize("box,seed", [(2, 1), (3, 1), (3, 2), (4, 1)])
def test_two_solutions_counted(box, seed):
    cells = None
    while cells is None:  # a 4x4 grid may have no such rectangle: the next seed
        secret = planted(box, box**4 // 2, seed).secret.grid
        cells = deadly_rectangle(secret, box)
        seed += 100
    grid = tuple(0 if c in cells else v for c, v in enumerate(secret))
    instance = Instance(box, grid)
    outcome = solve(instance, budget(), 1)
    assert outcome.status == "solved" and outcome.counters["solutions"] == 2
    assert check(instance, outcome.solution).solved
    swapped = list(secret)
    a, b, c, d = cells
    swapped[a], swapped[b], swapped[c], swapped[d] = secret[b], secret[a], secret[d], secret[c]
    assert outcome.solution.grid in (secret, tuple(swapped))
    first = solve(instance, budget(), 1, unique=False)
    assert first.status == "solved" and "solutions" not in first.counters
    assert first.counters["nodes"] <= outcome.counters["nodes"]


def test_unsolvable_with_consistent_clues():
    # cell (0, 0): its row holds 1-4, its column 5-8, its box 9: no digit is left for it
    grid = [0] * 81
    for col, v in zip(range(3, 7), (1, 2, 3, 4), strict=True):
        grid[col] = v
    for row, v in zip(range(3, 7), (5, 6, 7, 8), strict=True):
        grid[row * 9] = v
    grid[10] = 9
    instance = Instance(3, tuple(grid))
    assert check(instance, Solution(3, tuple(grid))).legal  # no clue contradicts another
    for fast9 in (True, False):
        outcome = solve(instance, budget(), 1, fast9=fast9)
        assert outcome.status == "infeasible" and outcome.counters["solutions"] == 0
        assert outcome.solution is None


def test_unsolvable_only_search_proves():
    """A planted puzzle plus one clue that no clue contradicts but the unique solution does:
    the root propagation does not see it, the search must exhaust the tree."""
    generated = planted(3, 24, 1)
    instance, secret = generated.instance, generated.secret.grid
    for cell in range(81):
        if instance.grid[cell]:
            continue
        for v in range(1, 10):
            grid = list(instance.grid)
            grid[cell] = v
            wrong = Instance(3, tuple(grid))
            if v == secret[cell] or not check(wrong, Solution(3, tuple(grid))).legal:
                continue
            search = Search.start(wrong, 2).root()
            if not search.feasible:
                continue
            for fast9 in (True, False):
                outcome = solve(wrong, budget(), 1, fast9=fast9)
                assert outcome.status == "infeasible" and outcome.counters["solutions"] == 0
                assert outcome.counters["guesses"] > 0
            return
    pytest.fail("no wrong clue survives the root propagation")


@pytest.mark.parametrize("box", [2, 3, 4])
def test_contradicting_clues(box):
    size = box * box
    grid = [0] * size**2
    grid[0] = grid[size - 1] = 1  # the same digit twice in row 0
    outcome = solve(Instance(box, tuple(grid)), budget(), 1)
    assert outcome.status == "infeasible" and outcome.counters["solutions"] == 0


def test_counts_agree_with_brute_force_4x4():
    rng = random.Random(20261129)
    seen = {0: 0, 1: 0, 2: 0}
    for _ in range(300):
        if rng.random() < 0.5:  # clues of one full grid: 1 or 2 solutions
            full = pattern_grid(2, rng)
            grid = [v if rng.random() < 0.3 else 0 for v in full]
        else:  # random clues: often none
            grid = [rng.randint(1, 4) if rng.random() < 0.25 else 0 for _ in range(16)]
        expected = brute_count(grid, 2)
        seen[expected] += 1
        for mode in MODES:
            search = count(Instance(2, tuple(grid)), mode)
            assert search.solutions == expected, (grid, mode)
            if expected:
                assert check(Instance(2, tuple(grid)), search.first()).solved
    assert min(seen.values()) >= 20  # every count was exercised


def test_kernels_agree_node_for_node():
    """The band-word and the per-cell kernels make the same deductions and the same branches,
    in every mode: the same counts, guesses, nodes and first solution (0, 1 or 2 solutions)."""
    rng = random.Random(7)
    counts = set()
    for k in range(40):
        full = planted(3, 26, 1 + k % 3).secret.grid
        grid = tuple(v if rng.random() < (0.25, 0.33, 0.45)[k % 3] else 0 for v in full)
        if k % 4 == 0:  # an extra clue, often a wrong one
            cell = rng.randrange(81)
            grid = grid[:cell] + (rng.randint(1, 9),) + grid[cell + 1:]
        instance = Instance(3, grid)
        for mode in MODES:
            band, cells = count(instance, mode, True), count(instance, mode, False)
            assert band.fast9 and not cells.fast9
            assert (band.solutions, band.guesses, band.nodes) == (
                cells.solutions, cells.guesses, cells.nodes)
            assert np.array_equal(band.out, cells.out)
            counts.add(band.solutions)
    assert counts == {0, 1, 2}


def test_each_level_cuts_guesses():
    """40% of a 16x16 grid's cells (two solutions): 48 guesses with singles, 35 with locked
    candidates, 32 with subsets; the same count and a valid first solution at each level."""
    rng = random.Random(10)
    grid = tuple(v if rng.random() < 0.4 else 0 for v in planted(4, 120, 1).secret.grid)
    instance = Instance(4, grid)
    searches = [count(instance, level) for level in range(len(modes.LEVELS))]
    assert [s.solutions for s in searches] == [2, 2, 2]
    assert searches[0].guesses > searches[1].guesses > searches[2].guesses
    assert all(check(instance, s.first()).solved for s in searches)


# --- the budget -------------------------------------------------------------------------------


def test_expired_budget_is_unknown():
    generated = planted(3, 24, 1)
    assert count(generated.instance).guesses > 0
    outcome = solve(generated.instance, expired(), 1)
    assert outcome.status == "unknown" and "solutions" not in outcome.counters


def test_node_limit_is_unknown_and_resumes_identically():
    instance = planted(3, 24, 1).instance
    whole = count(instance)
    outcome = solve(instance, budget(), 1, max_nodes=2)
    assert outcome.status == "unknown" and outcome.counters["nodes"] == 2
    search = Search.start(instance, 2).root()
    while search.run(1) == modes.PAUSED:  # one node per chunk: the same search
        pass
    assert (search.solutions, search.guesses, search.nodes) == (1, whole.guesses, whole.nodes)


def test_count_cut_short_is_not_unique():
    """The empty 16x16 grid: first solution at node 179, the second at 180. Stopped in
    between, the answer is unknown with the first grid and ``solutions_found``."""
    empty = Instance(4, (0,) * 256)
    cut = solve(empty, budget(), 1, max_nodes=179)
    assert cut.status == "unknown" and cut.counters["solutions_found"] == 1
    assert "solutions" not in cut.counters and check(empty, cut.solution).solved
    whole = solve(empty, budget(), 1, max_nodes=180)
    assert whole.status == "solved" and whole.counters["solutions"] == 2


def with_wrong_clue(box: int, seed: int, fraction: float) -> Instance:
    """A fraction of a full grid's clues, plus one clue the grid contradicts and no clue does."""
    size = box * box
    rng = random.Random(seed)
    full = pattern_grid(box, rng)
    grid = [v if rng.random() < fraction else 0 for v in full]
    blanks = [c for c in range(size * size) if not grid[c]]
    rng.shuffle(blanks)
    for cell in blanks:
        values = [v for v in range(1, size + 1) if v != full[cell]]
        rng.shuffle(values)
        for v in values:
            trial = tuple(grid[:cell] + [v] + grid[cell + 1:])
            if check(Instance(box, trial), Solution(box, trial)).legal:
                return Instance(box, trial)
    raise AssertionError("no wrong clue fits")


def test_budget_stops_a_hard_25x25():
    """This 25x25 puzzle takes 217,112 nodes (3 s here) to find its two solutions."""
    instance = with_wrong_clue(5, 14, 0.45)
    t = time.monotonic()
    outcome = solve(instance, budget(0.3), 1)
    elapsed = time.monotonic() - t
    assert outcome.status == "unknown" and 100 < outcome.counters["nodes"] < 217_112
    assert elapsed < 1.5


# --- the reference collections ----------------------------------------------------------------


@pytest.mark.data
@pytest.mark.parametrize("name", ["top95.txt", "hardest.txt"])
def test_collections_solved_and_unique(shared_data, name):
    spec = lookup("native", family="sudoku")
    puzzles = read_file(shared_data / "sudoku" / name)
    assert len(puzzles) >= 11
    for generated in puzzles:
        outcome = spec.solve(generated.instance, budget(), 1, **spec.defaults())
        assert outcome.status == "solved", generated.instance.name
        assert check(generated.instance, outcome.solution).solved
        assert outcome.counters["solutions"] == 1


def test_the_batch_entry_says_what_solve_says_of_each_puzzle():
    """Claims, answers and counters of ``solve_batch`` (the kernel's columns, puzzles it
    stops at ``max_nodes`` or its cap searched again, other sizes one call each; batches of
    every kind of claim, and of solved puzzles only) are those of ``solve`` on each puzzle
    alone; each answer's text is the family's JSON of it. So are those of a batch given as
    a worker reads it (``PuzzleLines``: each puzzle made when asked for)."""
    import json

    from instances.sudoku.model import PuzzleLines
    from searches.sudoku_native import solve_batch

    puzzles = [planted(3, clues, seed).instance for clues in (17, 24, 30) for seed in (1, 2)]
    two = Instance(3, tuple([v if i > 12 else 0 for i, v in enumerate(puzzles[-1].grid)]))
    bad = Instance(3, (1, 1) + puzzles[0].grid[2:])
    nines = [*puzzles, two, bad]  # all on the kernel: its columns taken whole
    mixed = [*puzzles, planted(2, 6, 1).instance, two, bad, planted(4, 120, 1).instance]
    solved = list(puzzles)  # every one solved by the kernel: one claim, an answer each
    lazy = [Instance.from_json_many(Instance.to_json_many(batch)) for batch in (nines, solved)]
    assert all(type(batch) is PuzzleLines for batch in lazy)
    for puzzles, params in [(batch, params) for batch in (mixed, nines, solved, *lazy)
                            for params in (
            {}, {"unique": False}, {"max_nodes": 2}, {"fast9": False})]:
        got = solve_batch(puzzles, budget(10), 0, **params)
        assert len(got) == len(puzzles) and all(t > 0 for t in got.t_wall)
        for i, puzzle in enumerate(puzzles):
            alone = solve(puzzle, budget(10), 0, **params)
            assert got.claimed[i] == alone.status, (params, i)
            answer = None if alone.solution is None else json.dumps(
                alone.solution.to_json(puzzle), separators=(",", ":"))
            assert got.answers[i] == answer, (params, i)
            counters = {k: v[i] for k, v in got.counters.items() if v[i] is not None}
            assert counters == alone.counters, (params, i)
