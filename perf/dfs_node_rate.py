"""Node rate of the dfs-restarts kernel: millions of placements per second on one core.

Generates planted boards (12x12 and 16x16, 5 frame + 17 inner colours, 5 hints, as seed 004's
ladder), compiles and warms the kernel, then searches each board for a fixed number of nodes
with the solver's default schedule (restarts and their reshuffles included in the time) and
prints nodes, seconds and M nodes/s per board, and the median. The node counts are
deterministic (fixed seeds); only the seconds vary.

    python perf/dfs_node_rate.py [--nodes 300000000] [--sizes 12 16] [--seeds 1 2 3]
        [--restart luby|geometric|none] [--unit NODES] [--factor F]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numba

from bench.api import REGISTRY
from instances.edgematch import GENERATORS
from instances.edgematch.model import Instance
from searches.edgematch_dfs import (
    EXHAUSTED,
    RESTART_MODES,
    SOLVED,
    Search,
    build_tables,
    prepare,
)

DEFAULTS = REGISTRY["edgematch/dfs-restarts"].defaults()


def planted_board(n: int, border: int, inner: int, hints: int, seed: int) -> Instance:
    """The family's planted n x n board."""
    params = {"n": n, "border": border, "inner": inner, "hints": hints}
    return GENERATORS["planted"](params, seed).instance


def measure(instance: Instance, nodes: int, seed: int, args: argparse.Namespace,
            ) -> tuple[int, float, str]:
    """Search ``nodes`` nodes in one chunk: the nodes searched, the seconds, and a note when
    the search stopped before (a solved board or an exhausted tree measures less)."""
    search = Search.start(build_tables(instance), len(instance.pieces), seed,
                          RESTART_MODES.index(args.restart), args.unit, args.factor)
    t = time.perf_counter()
    status = search.run(nodes)
    seconds = time.perf_counter() - t
    note = {SOLVED: "  (stopped early: solved)", EXHAUSTED: "  (stopped early: exhausted)"}
    return search.nodes, seconds, note.get(status, "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nodes", type=int, default=300_000_000)
    parser.add_argument("--sizes", type=int, nargs="+", default=[12, 16])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--restart", choices=RESTART_MODES, default=DEFAULTS["restart"])
    parser.add_argument("--unit", type=int, default=DEFAULTS["restart_unit"])
    parser.add_argument("--factor", type=float, default=DEFAULTS["restart_factor"])
    args = parser.parse_args()

    t = time.perf_counter()
    prepare()
    print(f"numba {numba.__version__}; prepare (compile or cache load) "
          f"{time.perf_counter() - t:.2f} s; schedule {args.restart}, unit {args.unit}, "
          f"factor {args.factor}")
    rates = []
    for size in args.sizes:
        for seed in args.seeds:
            instance = planted_board(size, 5, 17, 5, seed)
            measure(instance, 100_000, seed, args)  # warm caches
            nodes, seconds, note = measure(instance, args.nodes, seed, args)
            rate = nodes / seconds / 1e6
            rates.append(rate)
            print(f"{size:>2}x{size:<2} seed {seed}: {nodes:>11,} nodes  {seconds:6.2f} s  "
                  f"{rate:6.1f} M nodes/s{note}")
    print(f"median {statistics.median(rates):.1f} M nodes/s over {len(rates)} boards")


if __name__ == "__main__":
    main()
