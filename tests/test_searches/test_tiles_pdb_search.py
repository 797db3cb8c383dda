"""Searches guided by pattern databases: ``ida-pdb`` and ``astar-pdb``.

The kernels' PDB kind against the library (singleton patterns with the ignored rule are
Manhattan distance, so IDA* must generate exactly Korf's 1985 counts through the PDB code
path), optimal lengths on the 8-puzzle for every configuration (minimized rule, reflection,
dual lookup, pathmax) against a full BFS, the dual lookup's validity (exhaustively: only with
the blank in its goal cell), A* reopening under an inconsistent heuristic, Korf's 15-puzzles
with 5-5-5 tables, the solvers through the harness, and the refusals.
"""

from __future__ import annotations

import itertools
import os

import numpy as np
import pytest

import bench
from instances.tiles import GENERATORS, Instance, read_file
from searches import tiles_pdb_search
from searches.support import tiles_heuristics, tiles_rank
from searches.support import tiles_pdb_ida_kernel as pdb_kernel
from searches.support import tiles_pdb_lookup as lookup
from searches.support import tiles_pdb_patterns as patterns
from searches.support.tiles_ida_kernel import SOLVED
from searches.support.tiles_ida_search import IdaSearch
from searches.tiles_astar import AStarSearch

from helpers import eight_puzzle_distances, korf_1985_nodes

EIGHT_CONFIGS = [  # (rule, encoding, reflect, dual, pathmax)
    ("ignored", "byte", False, False, False),
    ("minimized", "nibble", False, False, False),
    ("minimized", "nibble", True, False, True),
    ("minimized", "byte", True, True, True),
    ("minimized", "nibble", True, True, False),
    ("ignored", "mod3", True, False, True),
    ("ignored", "bit", False, False, True),
    ("minimized", "minnibble", True, True, True),
]


def eight_distances() -> dict[tuple[int, ...], int]:
    return eight_puzzle_distances("blank-first")


def inverse(state: tuple[int, ...]) -> tuple[int, ...]:
    out = [0] * len(state)
    for cell, tile in enumerate(state):
        out[tile] = cell
    return tuple(out)


def test_dual_state_has_the_distance_only_with_the_blank_home():
    """Why the dual is looked up only where the blank is in its goal cell: there the inverse
    permutation is exactly as far from the goal (all 20,160 such states); elsewhere it is
    often not even reachable (80,640 of the 161,280 others) or at another distance."""
    dist = eight_distances()
    home = [s for s in dist if s[0] == 0]
    assert len(home) == 20_160
    assert all(dist[inverse(s)] == dist[s] for s in home)
    away = [s for s in dist if s[0] != 0]
    unreachable = sum(inverse(s) not in dist for s in away)
    assert unreachable == 80_640
    assert any(inverse(s) in dist and dist[inverse(s)] != dist[s] for s in away)


def eight_pdb(rule: str, encoding: str, reflect: bool, dual: bool, pathmax: bool,
              spec: str = "4-4") -> tiles_heuristics.Heuristic:
    part = patterns.partition(spec, 3, 3)
    table = lookup.heuristic(part, rule, encoding, reflect=reflect)
    return tiles_heuristics.pdb_tables(table, dual=dual, pathmax=pathmax)


def random_eight(count: int, seed: int) -> list[Instance]:
    params = {"rows": 3, "cols": 3, "goal": "blank-first"}
    return [GENERATORS["random"](params, seed + i).instance for i in range(count)]


@pytest.mark.parametrize("config", EIGHT_CONFIGS, ids=lambda c: "-".join(map(str, c)))
def test_ida_and_astar_with_tables_are_optimal_on_the_8_puzzle(config):
    dist = eight_distances()
    h = eight_pdb(*config)
    for instance in random_eight(25, seed=100):
        optimum = dist[instance.tiles]
        search = IdaSearch.start(instance, h)
        assert search.run(1 << 40) == SOLVED
        assert len(search.moves()) == optimum
        assert search.start_h <= optimum
        if config[1] not in ("mod3", "bit"):  # A* recomputes h from scratch at expansions
            a = AStarSearch(instance, h)
            assert a.run(1 << 30) == SOLVED and len(a.moves()) == optimum


def test_the_pdb_kind_with_single_tiles_is_manhattan_to_the_node(shared_data):
    """Patterns of one tile under the ignored rule are Manhattan distance: IDA* through the
    PDB kind (the views it keeps, its per-depth sums, the reflected lookup, which is also
    Manhattan) must generate exactly the nodes of the Manhattan kernel, Korf's count minus
    one."""
    instances = read_file(shared_data / "tiles" / "korf100_15puzzle.txt")
    listed = korf_1985_nodes(shared_data)
    singles = patterns.partition([[t] for t in range(1, 16)], 4, 4)
    for reflect in (False, True):
        table = lookup.heuristic(singles, "ignored", "byte", reflect=reflect)
        h = tiles_heuristics.pdb_tables(table, pathmax=False)
        for ident in sorted(listed, key=listed.get)[:3]:
            instance = instances[ident - 1].instance
            search = IdaSearch.start(instance, h)
            assert search.run(1 << 40) == SOLVED
            manhattan = IdaSearch.start(instance, tiles_heuristics.MANHATTAN)
            assert manhattan.run(1 << 40) == SOLVED
            assert search.nodes == manhattan.nodes, (ident, reflect)
            assert search.moves() == manhattan.moves()
            if ident != 42:  # listed as 877,023: a misprint of 877,823 (test_tiles_search)
                assert search.nodes == listed[ident] - 1, (ident, reflect)


def test_pathmax_and_dual_cut_nodes_on_the_8_puzzle():
    """Totals over many boards: the reflection, pathmax and the dual lookup each generate no
    more nodes in all than the configuration without them (minimized 4-4)."""
    boards = random_eight(60, seed=7)
    totals = {}
    for name, args in {"plain": (False, False, False), "reflect": (True, False, False),
                       "pathmax": (True, False, True), "dual": (True, True, True)}.items():
        h = eight_pdb("minimized", "nibble", *args)
        nodes = 0
        for instance in boards:
            search = IdaSearch.start(instance, h)
            assert search.run(1 << 40) == SOLVED
            nodes += search.nodes
        totals[name] = nodes
    assert totals["reflect"] < totals["plain"]
    assert totals["pathmax"] <= totals["reflect"]
    assert totals["dual"] <= totals["pathmax"]


def test_astar_reopens_under_the_inconsistent_minimized_tables():
    h = eight_pdb("minimized", "nibble", True, False, False)
    dist = eight_distances()
    reopened = 0
    for instance in random_eight(40, seed=3):
        a = AStarSearch(instance, h)
        assert a.run(1 << 30) == SOLVED and len(a.moves()) == dist[instance.tiles]
        reopened += a.reopened
    consistent = eight_pdb("ignored", "byte", False, False, False)
    for instance in random_eight(10, seed=3):
        a = AStarSearch(instance, consistent)
        assert a.run(1 << 30) == SOLVED and a.reopened == 0
    print(f"A* with minimized 4-4 + reflection: {reopened} reopenings on 40 boards")
    assert reopened > 0


@pytest.mark.data
def test_korf_15_puzzles_with_555_tables(shared_data, tmp_path, monkeypatch):
    """5-5-5 minimized with the reflection (built into a fresh cache in seconds): Korf's
    optimal lengths on his ten instances that need the fewest nodes with it."""
    monkeypatch.setenv("CLIFFBENCH_PDB_CACHE", str(tmp_path))
    tiles_pdb_search.loaded.cache_clear()
    instances = read_file(shared_data / "tiles" / "korf100_15puzzle.txt")
    for ident in (2, 4, 6, 8, 9, 12, 13, 16, 20, 26):
        generated = instances[ident - 1]
        h = tiles_pdb_search.guiding(generated.instance, "5-5-5", "minimized", "nibble", True,
                                     True)
        search = IdaSearch.start(generated.instance, h)
        assert search.run(50_000_000) == SOLVED, ident
        assert len(search.moves()) == generated.known_optimum
    assert len(list(tmp_path.glob("*.pdb"))) == 6  # bytes and nibbles of three patterns


@pytest.mark.parametrize("solver", ["ida-pdb", "astar-pdb"])
def test_solvers_through_the_harness(solver, tmp_path, monkeypatch):
    monkeypatch.setenv("CLIFFBENCH_PDB_CACHE", str(tmp_path))
    for seed in (1, 2):
        row = bench.solve(f"tiles/random:rows=3,cols=3,goal=blank-first,seed={seed}", solver,
                          timeout=120, dual=True)
        assert row["status"] == "optimal" and row["verified"], row
        assert row["objective"] == eight_distances()[tuple(
            GENERATORS["random"]({"rows": 3, "cols": 3, "goal": "blank-first"}, seed)
            .instance.tiles)]


def test_refusals_name_the_reason(tmp_path, monkeypatch):
    monkeypatch.setenv("CLIFFBENCH_PDB_CACHE", str(tmp_path))
    tiles_pdb_search.loaded.cache_clear()
    fifteen = Instance(4, 4, tuple(range(16)))
    with pytest.raises(patterns.PDBError, match="cliffbench pdb build --puzzle 4x4"):
        tiles_pdb_search.guiding(fifteen, "7-8", "minimized", "nibble", True, False)
    last = Instance(3, 3, (1, 2, 3, 4, 5, 6, 7, 0, 8), "blank-last")
    with pytest.raises(patterns.PDBError, match="blank-first goal"):
        tiles_pdb_search.guiding(last, "auto", "minimized", "nibble", True, True)
    with pytest.raises(patterns.PDBError, match="absolute encoding"):
        tiles_pdb_search.guiding(fifteen, "4-4-4-3", "ignored", "mod3", False, True)
    with pytest.raises(patterns.PDBError, match="automatic partition"):
        tiles_pdb_search.partition_of(Instance(3, 4, tuple(range(12))), "auto")
    eight = Instance(3, 3, tuple(range(9)))
    assert tiles_pdb_search.partition_of(eight, "5-5-5|4-4").label == "4-4"
    assert tiles_pdb_search.partition_of(fifteen, "4-4|5-5-5").label == "5-5-5"
    with pytest.raises(patterns.PDBError, match="no preset partition '7-8' for the 3x3"):
        tiles_pdb_search.partition_of(eight, "6-6-3|7-8")
    row = bench.solve("tiles/random:rows=4,cols=4,seed=1", "ida-pdb", timeout=60,
                      partition="7-8")
    assert row["status"] == "error" and "cliffbench pdb build" in row["message"]
    assert not np.isnan(row["t_wall"])


PINNED_NODES = {  # config -> nodes generated on random_eight(6, seed=7), as measured
    ("minimized", "nibble", False, False, False): [3077, 31, 358, 184, 200, 162],
    ("minimized", "nibble", True, False, True): [1919, 31, 148, 113, 150, 124],
    ("minimized", "byte", True, True, True): [1753, 31, 142, 112, 146, 81],
}


@pytest.mark.parametrize("config", sorted(PINNED_NODES), ids=lambda c: "-".join(map(str, c)))
def test_pdb_ida_node_counts_do_not_change(config):
    """A faster kernel must be the same search: the node counts of a few small instances are
    pinned (move order, reflection, pathmax and the dual lookup all move them)."""
    h = eight_pdb(*config)
    got = []
    for instance in random_eight(6, seed=7):
        search = IdaSearch.start(instance, h)
        assert search.run(1 << 40) == SOLVED
        got.append(int(search.nodes))
    assert got == PINNED_NODES[config]


SPECIALISED_CONFIGS = [  # (rule, encoding, reflect, pathmax): the absolute ones, no dual
    (rule, encoding, reflect, pathmax)
    for rule in ("ignored", "minimized") for encoding in ("byte", "nibble", "minnibble")
    for reflect in (False, True) for pathmax in (False, True)]


@pytest.mark.parametrize("config", SPECIALISED_CONFIGS, ids=lambda c: "-".join(map(str, c)))
def test_specialised_pdb_kernel_is_the_general_search(config):
    """The PDB kind's specialised kernel (``tiles_pdb_ida_kernel``), with the tables ranked
    and spread, is the general kernel's search node for node: same counters and moves, run
    whole or resumed in small chunks (a chunk recomputes its state from the board)."""
    rule, encoding, reflect, pathmax = config
    h = eight_pdb(rule, encoding, reflect, False, pathmax)
    for instance in random_eight(8, seed=11):
        general = IdaSearch.start(instance, h, specialise=False)
        assert general.specialised is None and general.run(1 << 40) == SOLVED
        expect = (general.nodes, general.expanded, general.iterations, general.moves())
        for layout in (pdb_kernel.RANKED, pdb_kernel.SPREAD):
            whole = IdaSearch.start(instance, h)
            chunked = IdaSearch.start(instance, h)
            whole.specialised = chunked.specialised = pdb_kernel.specialised(h.t64, h.pdb,
                                                                             layout)
            assert whole.run(1 << 40) == SOLVED
            while chunked.run(37) != SOLVED:
                pass
            assert (whole.nodes, whole.expanded, whole.iterations, whole.moves()) == expect
            assert (chunked.nodes, chunked.expanded, chunked.iterations,
                    chunked.moves()) == expect


@pytest.mark.parametrize("encoding", ["byte", "nibble", "minnibble"])
def test_spread_tables_hold_the_ranked_entries(encoding):
    """Every placement's entry in the spread table (``tiles_pdb_layout``) is the ranked
    table's, at the index of its cells; the indices with a repeated cell hold 0."""
    part = patterns.partition("1,2,3/4,5,6,7/8", 3, 3)
    P = lookup.heuristic(part, "minimized", encoding).arrays
    T = pdb_kernel.kernel_tables(P, pdb_kernel.SPREAD)
    nibbles = encoding != "byte"
    shift = int(P.shift[0]) if encoding == "minnibble" else 0
    for j in range(int(P.npat)):
        k = int(P.k[j])
        placements = [c for c in itertools.product(range(9), repeat=k) if len(set(c)) == k]
        assert len(placements) == tiles_rank.count(9, k)
        for r, cells in enumerate(placements):  # rank order is the cells' order
            index = sum(c * 9 ** (k - 1 - i) for i, c in enumerate(cells))
            g = r >> shift
            want = (P.data[P.offset[j] + g // 2] >> 4 * (g % 2)) & 15 if nibbles else \
                P.data[P.offset[j] + r]
            got = (T.data[T.offset[j] + index // 2] >> 4 * (index % 2)) & 15 if nibbles else \
                T.data[T.offset[j] + index]
            assert got == want, (j, cells)


def test_dual_and_relative_encodings_keep_the_general_kernel():
    assert IdaSearch.start(random_eight(1, 3)[0],
                           eight_pdb("minimized", "nibble", True, True, True)).specialised is None
    assert IdaSearch.start(random_eight(1, 3)[0],
                           eight_pdb("ignored", "mod3", True, False, True)).specialised is None


KORF_663_NODES = {1: 124_697, 2: 68_601, 3: 1_280_422, 4: 22_436, 5: 263_577}


@pytest.mark.data
def test_korf_15_puzzles_with_663_tables_keep_their_node_counts(shared_data, tmp_path,
                                                                 monkeypatch):
    """6-6-3 minimized, nibble, reflection and pathmax on Korf's #1-5 (what
    perf/tiles_pdb_vs_c.py measures; the C reference generates the same counts): both kernels
    generate the pinned numbers of nodes. The tables come from $CLIFFBENCH_PDB_CACHE when it
    is set, else are built into a fresh cache (seconds)."""
    if not os.environ.get("CLIFFBENCH_PDB_CACHE"):
        monkeypatch.setenv("CLIFFBENCH_PDB_CACHE", str(tmp_path))
    tiles_pdb_search.loaded.cache_clear()
    instances = read_file(shared_data / "tiles" / "korf100_15puzzle.txt")
    for ident, nodes in KORF_663_NODES.items():
        generated = instances[ident - 1]
        h = tiles_pdb_search.guiding(generated.instance, "6-6-3", "minimized", "nibble", True,
                                     False)
        for specialise in (True, False):
            search = IdaSearch.start(generated.instance, h, specialise=specialise)
            assert search.run(1 << 40) == SOLVED, ident
            assert len(search.moves()) == generated.known_optimum
            assert search.nodes == nodes, (ident, specialise)


def cached_or_skip(instance: Instance, spec: str) -> tiles_heuristics.Heuristic:
    """The minimized nibble tables of ``spec`` with the reflection from the cache, or a skip
    naming the command that builds them (minutes)."""
    tiles_pdb_search.loaded.cache_clear()
    try:
        return tiles_pdb_search.guiding(instance, spec, "minimized", "nibble", True, False)
    except patterns.PDBError as exc:
        pytest.skip(str(exc))


@pytest.mark.slow
@pytest.mark.data
def test_korf100_with_78_tables_keep_their_node_count(shared_data):
    """7-8 minimized, nibble, reflection and pathmax on Korf's 100: the count both kernels
    and the C reference generate (perf/tiles_pdb_vs_c.py --all --config
    7-8:minimized:nibble:reflect), from the cache."""
    instances = read_file(shared_data / "tiles" / "korf100_15puzzle.txt")
    h = cached_or_skip(instances[0].instance, "7-8")
    total = 0
    for generated in instances:
        search = IdaSearch.start(generated.instance, h)
        assert search.run(1 << 40) == SOLVED
        assert len(search.moves()) == generated.known_optimum
        total += search.nodes
    assert total == 3_672_935


@pytest.mark.slow
@pytest.mark.data
def test_korf_24_puzzles_38_and_40_keep_their_node_counts(shared_data):
    """6-6-6-6 minimized, nibble, reflection and pathmax on Korf & Felner's #38 and #40: the
    counts both kernels and the C reference generate (perf/tiles_pdb_vs_c.py --puzzle 24
    --ids 38 40), from the cache."""
    instances = read_file(shared_data / "tiles" / "korf50_24puzzle.txt")
    h = cached_or_skip(instances[0].instance, "6-6-6-6")
    for ident, nodes in ((38, 37_583_776), (40, 63_859_641)):
        search = IdaSearch.start(instances[ident - 1].instance, h)
        assert search.run(1 << 40) == SOLVED
        assert len(search.moves()) == instances[ident - 1].known_optimum
        assert search.nodes == nodes, ident
