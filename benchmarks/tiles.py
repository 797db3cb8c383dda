"""Sliding tiles: IDA*'s cost per node, pattern-database lookups, and the 5-5-5 build.

Fixed instances: two of Korf's (1985) 15-puzzles, written out here so that no data folder is
needed: #2 (optimum 55; IDA* with Manhattan generates Korf's 15,300,442 nodes less the root,
``searches.tiles_ida``'s convention) and #5 (optimum 56; about a million nodes with the 5-5-5
tables). The tables are built once per asv run into the benchmark's own folder (``setup_cache``:
asv runs every benchmark of the class in that folder), never into the user's cache.
"""

from __future__ import annotations

import os
import tempfile
import time

import numpy as np

from instances.tiles import Instance
from searches.support import tiles_heuristics, tiles_ida_search
from searches.support import tiles_pdb_lookup as pdb
from searches.support import tiles_pdb_patterns as patterns

from .common import NUMBA_TIMEOUT, ns_per

#: Korf's 15-puzzle #2 and #5 (tiles cell by cell, blank-first goal) and their optima.
KORF_2 = (13, 5, 4, 10, 9, 12, 8, 14, 2, 3, 7, 1, 0, 15, 11, 6)
KORF_5 = (4, 7, 14, 13, 10, 3, 9, 12, 11, 5, 6, 15, 1, 2, 8, 0)
OPTIMA = {KORF_2: 55, KORF_5: 56}
#: The solver's table configuration (``ida-pdb``), on the 5-5-5 partition (built in < 1 s).
PARTITION, RULE, ENCODING, REFLECT = "5-5-5", "minimized", "nibble", True
LOOKUP_STATES = 100_000


def korf(tiles: tuple[int, ...]) -> Instance:
    return Instance(4, 4, tiles, "blank-first", f"korf-{OPTIMA[tiles]}")


def partition_555() -> patterns.Partition:
    return patterns.partition(PARTITION, 4, 4, "blank-first")


def tables_555(cache: str) -> pdb.Heuristic:
    """The 5-5-5 tables from (or built into) the cache folder ``cache``."""
    return pdb.heuristic(partition_555(), RULE, ENCODING, reflect=REFLECT, cache=cache)


def random_states(count: int, seed: int = 1) -> np.ndarray:
    """``count`` uniform permutations of 0..15 (solvable or not: a lookup does not care), one
    a row, the same on every machine."""
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((count, 16)), axis=1)


class IdaManhattan:
    """IDA* with Manhattan distance on Korf #2: the solve's time, per node, and its nodes."""

    timeout = NUMBA_TIMEOUT

    def setup(self) -> None:
        tiles_ida_search.prepare((tiles_heuristics.MANHATTAN,))
        self.instance = korf(KORF_2)

    def _solve(self) -> tiles_ida_search.IdaSearch:
        search = tiles_ida_search.IdaSearch.start(self.instance, tiles_heuristics.MANHATTAN)
        search.run(1 << 62)
        return search

    def time_korf2(self) -> None:
        self._solve()

    def track_ns_per_node(self) -> float:
        """1e9 / this = nodes generated per second."""
        start = time.perf_counter()
        search = self._solve()
        return ns_per(time.perf_counter() - start, search.nodes)

    track_ns_per_node.unit = "ns/node"

    def track_nodes_korf2(self) -> int:
        """Machine-independent: grows if the move order, pruning or bound updates regress."""
        return int(self._solve().nodes)

    track_nodes_korf2.unit = "nodes"


class PdbBuild:
    """Building the 5-5-5 tables (minimized rule, nibble encoding) into a fresh cache folder:
    ``cliffbench pdb build``'s work (BFS, encoding, saving), on numba's threads."""

    timeout = NUMBA_TIMEOUT
    number = 1
    repeat = (1, 5, 20.0)

    def setup(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:  # compiles (or loads) the build kernels
            pdb.heuristic(patterns.partition("1,2/3,4/5,6/7,8", 3, 3, "blank-first"), RULE,
                          ENCODING, cache=tmp)

    def time_build_555(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            tables_555(tmp)


class PdbSearch:
    """The 5-5-5 tables in use: h lookups per second, and IDA* guided by them on Korf #5."""

    timeout = NUMBA_TIMEOUT

    def setup_cache(self) -> str:
        folder = os.path.abspath("pdb")
        tables_555(folder)
        return folder

    def setup(self, cache: str) -> None:
        from searches.tiles_pdb_search import prepare_ida

        prepare_ida()
        self.tables = tables_555(cache)
        self.guide = tiles_heuristics.pdb_tables(self.tables)
        self.wheres = random_states(LOOKUP_STATES)  # read as where[tile] = cell
        pdb.h_many(self.tables.arrays, self.wheres[:10])  # compiles (or loads) the kernel
        self.instance = korf(KORF_5)

    def _solve(self) -> tiles_ida_search.IdaSearch:
        search = tiles_ida_search.IdaSearch.start(self.instance, self.guide)
        search.run(1 << 62)
        return search

    def time_lookups_100k(self, cache: str) -> None:
        """h of 100,000 fixed states (the kernel ``h_many``): 3 patterns and their
        reflections, 6 table reads a state."""
        pdb.h_many(self.tables.arrays, self.wheres)

    def track_ns_per_lookup(self, cache: str) -> float:
        """Per h evaluation (one state: 6 table reads); 1e9 / this = lookups per second."""
        start = time.perf_counter()
        pdb.h_many(self.tables.arrays, self.wheres)
        return ns_per(time.perf_counter() - start, len(self.wheres))

    track_ns_per_lookup.unit = "ns/state"

    def time_ida_pdb_korf5(self, cache: str) -> None:
        self._solve()

    def track_ida_pdb_ns_per_node(self, cache: str) -> float:
        """1e9 / this = nodes generated per second."""
        start = time.perf_counter()
        search = self._solve()
        return ns_per(time.perf_counter() - start, search.nodes)

    track_ida_pdb_ns_per_node.unit = "ns/node"

    def track_ida_pdb_nodes_korf5(self, cache: str) -> int:
        """Machine-independent: grows if the tables, the reflection or pathmax get weaker."""
        return int(self._solve().nodes)

    track_ida_pdb_nodes_korf5.unit = "nodes"
