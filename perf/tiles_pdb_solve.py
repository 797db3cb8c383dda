"""IDA* with pattern databases on Korf's 15-puzzles (or his 24-puzzles), lengths checked.

Loads (or builds into the cache) a partition's tables once, then solves the chosen instances
with the ``ida-pdb`` kernel on the current core and prints per instance the solution length
(replayed by ``instances.tiles.check`` and compared with the published optimum), the nodes
generated, the seconds of CPU time and the node rate; at the end the totals and the mean
nodes per instance, the numbers Korf & Felner (2002) tabulate (the load time is printed
apart: the issue's "after the build"). Several configurations can be compared in one process
(``--config``), on the same instances, each against the same baseline.

    python perf/tiles_pdb_solve.py [--puzzle 15|24] [--ids 1 2 ...|--all]
        [--config 6-6-3:minimized:nibble:reflect ...] [--dual] [--no-pathmax] [--data DIR]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from instances.tiles import Solution, check, read_file
from searches.support import tiles_heuristics, tiles_ida_search
from searches.support import tiles_pdb_patterns as pdb
from searches.support.tiles_ida_kernel import SOLVED
from searches.support.tiles_pdb_store import default_cache
from searches.tiles_pdb_search import loaded

ROOT = Path(__file__).resolve().parents[1]
FILES = {15: "korf100_15puzzle.txt", 24: "korf50_24puzzle.txt"}


def run_config(config: str, instances, args) -> tuple[int, float]:
    spec, rule, encoding, *flags = config.split(":")
    reflect = "reflect" in flags
    first = instances[0].instance
    part = pdb.partition(spec, first.rows, first.cols, first.goal)
    t = time.perf_counter()
    tables = loaded(part, rule, encoding, reflect, default_cache())
    load_s = time.perf_counter() - t
    h = tiles_heuristics.pdb_tables(tables, dual=args.dual, pathmax=not args.no_pathmax)
    tiles_ida_search.IdaSearch.start(first, h).run(10)  # compile or load the kernel
    print(f"\n{config} dual={args.dual} pathmax={not args.no_pathmax}: tables "
          f"{tables.nbytes / 2**20:.0f} MB ({', '.join(tables.sources)}) in {load_s:.1f} s; "
          f"load average {os.getloadavg()[0]:.2f}")
    print(f"{'id':>3} {'len':>3} {'h0':>3} {'nodes':>13} {'cpu s':>7} {'M/s':>6}")
    nodes = cpu = 0.0
    failures = 0
    for ident, generated in zip(args.ids, instances, strict=True):
        search = tiles_ida_search.IdaSearch.start(generated.instance, h)
        c = time.process_time()
        status = search.run(1 << 62)
        c = time.process_time() - c
        moves = search.moves()
        ok = (status == SOLVED and check(generated.instance, Solution(moves)).solved
              and len(moves) == generated.known_optimum)
        failures += not ok
        nodes += search.nodes
        cpu += c
        print(f"{ident:>3} {len(moves):>3}{'' if ok else '!'} {search.start_h:>3} "
              f"{search.nodes:>13,} {c:7.2f} {search.nodes / max(c, 1e-9) / 1e6:6.1f}",
              flush=True)
    print(f"{config}: {len(instances)} instances, {nodes:,.0f} nodes (mean "
          f"{nodes / len(instances):,.0f}), {cpu:.2f} s CPU, {nodes / cpu / 1e6:.1f} M nodes/s; "
          f"load average {os.getloadavg()[0]:.2f}")
    return failures, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--puzzle", type=int, choices=sorted(FILES), default=15)
    parser.add_argument("--ids", type=int, nargs="+", default=None)
    parser.add_argument("--all", action="store_true", help="every instance of the file")
    parser.add_argument("--config", nargs="+", default=None,
                        help="PARTITION:RULE:ENCODING[:reflect] (default 6-6-3 or 6-6-6-6, "
                             "minimized, nibble, reflect)")
    parser.add_argument("--dual", action="store_true", help="add the dual lookup")
    parser.add_argument("--no-pathmax", action="store_true")
    parser.add_argument("--data", type=Path,
                        default=Path(os.environ.get("CLIFFBENCH_DATA", ROOT.parent / "shared"
                                                    / "data")))
    args = parser.parse_args()
    every = read_file(args.data / "tiles" / FILES[args.puzzle])
    if args.all:
        args.ids = list(range(1, len(every) + 1))
    elif args.ids is None:
        args.ids = list(range(1, 11))
    instances = [every[i - 1] for i in args.ids]
    configs = args.config or [("6-6-3" if args.puzzle == 15 else "6-6-6-6")
                              + ":minimized:nibble:reflect"]
    failures = 0
    for config in configs:
        failures += run_config(config, instances, args)[0]
    if failures:
        print(f"{failures} instance(s) not solved at the published optimum")
        sys.exit(1)


if __name__ == "__main__":
    main()
