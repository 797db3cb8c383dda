"""Searches guided by pattern databases: the solvers ``ida-pdb`` and ``astar-pdb``.

The heuristic is a partition's additive tables (``searches.support.tiles_pdb_lookup``) under a
blank rule and an encoding, maxed with the lookup of the state reflected about the main diagonal
(``reflect``) and with the lookup of the dual state (``dual``: the inverse permutation, valid
for Korf's blank-first goal). Korf & Felner's configurations are the presets: 6-6-3 and 7-8
for the 15-puzzle, 6-6-6-6 for the 24-puzzle, each with the minimized blank rule and the
reflection. The minimized rule, the reflection and the dual lookup make the heuristic
inconsistent (admissible still): IDA* then profits from bidirectional pathmax (``pathmax``,
on by default; it never fires on a consistent one), and A* reopens states (counted).

Tables come from the cache directory (``$CLIFFBENCH_PDB_CACHE``, else
``~/.cache/cliffbench/pdb``; ``cliffbench pdb build`` fills it). A table missing from it is built
during the run, and saved, only when it is small (``BUILD_LIMIT`` placements: every table of
the 8-puzzle, the 15-puzzle's patterns of up to 6 tiles); a larger one is refused with the
command that builds it, since its build is minutes of work that a per-run time limit would
cut. Loading is part of the encode time; a worker keeps the last tables it loaded, so a sweep
loads them once per worker, not once per run.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from pathlib import Path

import numba

from bench.api import Budget, Outcome, Param, solver
from instances.tiles import Instance
from searches import tiles_astar, tiles_ida
from searches.support import tiles_pdb_encode as enc
from searches.support import tiles_pdb_ida_kernel as pdb_kernel
from searches.support import tiles_pdb_lookup as lookup
from searches.support import tiles_pdb_patterns as patterns
from searches.support import tiles_pdb_store as store
from searches.support.tiles_heuristics import Heuristic, pdb_tables
from searches.support.tiles_ida_search import IdaSearch, solve_ida
from searches.support.tiles_pdb_adapter import check_dual
from searches.support.tiles_pdb_patterns import PDBError

#: The partition ``auto`` picks, by number of cells.
AUTO_PARTITION = {9: "4-4", 16: "6-6-3", 25: "6-6-6-6"}
#: Placements of the largest table a run may build (a 6-tile pattern of the 15-puzzle has 5.8 M).
BUILD_LIMIT = 6_000_000


def partition_of(instance: Instance, spec: str) -> patterns.Partition:
    """The partition ``spec`` on the instance's board: a preset, tile lists, ``auto``, or
    several of those separated by ``|``, the first valid on the board taken (``4-4|5-5-5``:
    one per board size, for a suite whose ladder climbs from the 8- to the 15-puzzle)."""
    reasons = []
    for choice in spec.split("|"):
        choice = choice.strip()
        if choice == "auto":
            if instance.ncells not in AUTO_PARTITION or instance.rows != instance.cols:
                reasons.append(f"no automatic partition for the {instance.rows}x"
                               f"{instance.cols} board")
                continue
            choice = AUTO_PARTITION[instance.ncells]
        try:
            return patterns.partition(choice, instance.rows, instance.cols, instance.goal)
        except PDBError as exc:
            reasons.append(str(exc))
    raise PDBError("; ".join(reasons) + " (give tile lists such as "
                             "partition=1,2,3/4,5,6/7,8)")


def refuse_large_builds(part: patterns.Partition, rule: str, encoding: str,
                        cache: Path) -> None:
    """Raise, naming the command to run, if a table missing from ``cache`` is too big to build
    inside a run."""
    for j in range(len(part.patterns)):
        pattern = part.pattern(j)
        present = any((cache / store.file_name(pattern, rule, e)).exists()
                      for e in (encoding, "byte"))
        if not present and pattern.size > BUILD_LIMIT:
            raise PDBError(
                f"the {rule} table of tiles {pattern.label} ({pattern.size:,} placements) is not "
                f"in the cache {cache}; build it once with: cliffbench pdb build --puzzle "
                f"{part.rows}x{part.cols} --goal {part.goal} --partition {part.label} --rule "
                f"{rule} --encoding {encoding}")


@functools.lru_cache(maxsize=4)  # a suite's configurations alternate run by run: keep them all
def loaded(part: patterns.Partition, rule: str, encoding: str, reflect: bool,
           cache: Path) -> lookup.Heuristic:
    """The tables, loaded (or built) once per worker and kept for the next runs."""
    refuse_large_builds(part, rule, encoding, cache)
    return lookup.heuristic(part, rule, encoding, reflect=reflect, cache=str(cache))


def guiding(instance: Instance, partition: str, rule: str, encoding: str, reflect: bool,
            dual: bool, pathmax: bool = True) -> Heuristic:
    """The kernels' heuristic for these parameters (everything checked before any build)."""
    part = partition_of(instance, partition)
    lookup.check_combination(rule, encoding, reflect, part.rows, part.cols, part.goal)
    if dual:
        check_dual(part.goal, encoding)
    pdb = loaded(part, rule, encoding, reflect, store.default_cache())
    return pdb_tables(pdb, dual, pathmax)


def with_tables(instance: Instance, guide: tuple,
                search: Callable[[Heuristic], Outcome]) -> Outcome:
    """The shared body of the solvers: unsolvable by parity before any table is loaded, else
    the search with the tables (their loading counted as encode time, their size reported)."""
    if not instance.solvable:
        return Outcome("infeasible", counters={"nodes": 0})
    t0 = time.perf_counter()
    h = guiding(instance, *guide)
    t_load = time.perf_counter() - t0
    outcome = search(h)
    outcome.counters["pdb_mb"] = round(h.arrays.data.nbytes / 2**20, 1)
    outcome.t_encode = (outcome.t_encode or 0.0) + t_load
    return outcome


PARAMS = [
    Param("partition", "auto", "a preset (4-4-4-3, 5-5-5, 6-6-3, 7-8; 6-6-6-6; 4-4 ...), tile "
          "lists 1,2,3/4,5,6/..., auto (4-4, 6-6-3, 6-6-6-6 by board), or A|B: the first "
          "valid on the board"),
    Param("rule", "minimized", "the blank rule of the tables", choices=patterns.RULES),
    Param("encoding", "nibble", "how the tables are stored", choices=enc.ENCODINGS),
    Param("reflect", True, "max with the lookup of the state reflected about the diagonal"),
    Param("dual", False, "max with the lookup of the dual state (blank-first goal)"),
]
BACKEND = f"numba-{numba.__version__}"


def tiny_tables(encoding: str = "byte") -> tuple[Instance, lookup.Heuristic]:
    """An 8-puzzle board and tables of two tiles a pattern (built in milliseconds, not
    cached): what ``prepare`` compiles the kernels on."""
    part = patterns.partition("1,2/3,4/5,6/7,8", 3, 3, "blank-first")
    return (Instance(3, 3, (3, 1, 2, 4, 0, 5, 6, 7, 8)),
            lookup.heuristic(part, "minimized", encoding, reflect=True))


def prepare_ida() -> None:
    """Compile (or load from numba's cache) the table-guided IDA* kernels once per worker: the
    general one (the dual lookup) and the specialised ones (byte and nibble reads, the tables
    ranked and spread)."""
    instance, pdb = tiny_tables()
    IdaSearch.start(instance, pdb_tables(pdb, dual=True)).run(1000)
    for tables in (pdb, tiny_tables("nibble")[1]):
        h = pdb_tables(tables)
        for layout in (pdb_kernel.RANKED, pdb_kernel.SPREAD):
            search = IdaSearch.start(instance, h)
            search.specialised = pdb_kernel.specialised(h.t64, h.pdb, layout)
            search.run(1000)


def prepare_astar() -> None:
    """The same for A*."""
    instance, pdb = tiny_tables()
    tiles_astar.AStarSearch(instance, pdb_tables(pdb, dual=True)).run(100)


@solver("ida-pdb", family="tiles", paradigm="native", backend=BACKEND, prepare=prepare_ida,
        params=[*PARAMS, Param("pathmax", True, "bidirectional pathmax (inconsistent h)"),
                *tiles_ida.PARAMS])
def solve_ida_pdb(instance: Instance, budget: Budget, seed: int, partition: str = "auto",
                  rule: str = "minimized", encoding: str = "nibble", reflect: bool = True,
                  dual: bool = False, pathmax: bool = True, max_nodes: int = 0) -> Outcome:
    """IDA* with additive pattern databases (Korf & Felner 2002), reflected and dual lookups,
    bidirectional pathmax; tables loaded once per worker (their loading is encode time)."""
    return with_tables(instance, (partition, rule, encoding, reflect, dual, pathmax),
                       lambda h: solve_ida(instance, budget, h, max_nodes))


@solver("astar-pdb", family="tiles", paradigm="native", backend=BACKEND, prepare=prepare_astar,
        params=PARAMS)
def solve_astar_pdb(instance: Instance, budget: Budget, seed: int, partition: str = "auto",
                    rule: str = "minimized", encoding: str = "nibble", reflect: bool = True,
                    dual: bool = False) -> Outcome:
    """A* with additive pattern databases; reopens the states an inconsistent heuristic
    (minimized rule, reflection, dual) closed too early (``reopened``)."""
    return with_tables(instance, (partition, rule, encoding, reflect, dual),
                       lambda h: tiles_astar.solve_astar(instance, budget, h))
