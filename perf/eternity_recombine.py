"""Eternity II: how lns' recombinations of an elite pool begin, with and without their broken
joins pinned (issue 20 point 2: a recombined run that never got going).

Fills a pool of ``--boards`` boards with one lns solve of ``--seconds`` (seed 1, ``tail_rows=5
break_slack=0`` as the hour runs, restarts after 4 turns without a gain, every restart fresh:
the best boards of its runs, region moves' work included), then draws ``--draws`` recombinations
from it as lns does (``recombine``, seeds 1000, 1001, ...) and begins each child's dfs-breaks
search twice: with every drawn cell pinned (what lns did before ``unpin_broken``) and with the
cells of the broken joins among the pins and hints freed (what it does now). Each search is
driven for ``--nodes`` nodes or ``--cap-s`` seconds, whichever comes first. A search *spins*
when its runs end exhausted within a few nodes each (more than ``--spin-runs`` runs begun), so
that its nodes go by a round of Python a run; per way of pinning the script prints how many
spun, the median nodes per second, and the median pins.

    python perf/eternity_recombine.py [--boards 6] [--seconds 120] [--draws 100] [--nodes 2000000]
        [--cap-s 2] [--spin-runs 100]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from eternity_score import BOARD

from bench.api import Budget
from instances.edgematch import read_file
from searches import edgematch_lns as lns
from searches.support.edgematch_search import drive

SETTING = {"tail_rows": 5, "break_slack": 0}


def pool_of(instance, size: int, seconds: float) -> list[tuple[int, np.ndarray]]:
    """The elite pool (``size`` boards) of one lns solve of ``seconds`` with restarts after 4
    turns without a gain and every restart fresh (``elite_share=0``), as it stands at the end:
    the best boards of its runs, region moves' work included."""
    pools: list[list[tuple[int, np.ndarray]]] = []
    keep = lns.elite_insert

    def kept(pool, board, breaks, n):  # the solve's own pool, seen as it is updated
        keep(pool, board, breaks, n)
        pools[:] = [pool]

    lns.elite_insert = kept
    try:
        lns.solve(instance, Budget(seconds, 4000, 1, time.monotonic() + seconds), 1,
                  **SETTING, restart_after=4, elite=size, elite_share=0.0)
    finally:
        lns.elite_insert = keep
    return list(pools[0])


#: lns' parameters in the hour runs' setting.
P = {**lns.DEFAULTS, **SETTING}


def begin(instance, pinned: np.ndarray, seed: int, nodes: int, cap_s: float
          ) -> tuple[int, int, float]:
    """Runs begun, nodes and seconds of the child's dfs-breaks search driven for ``nodes`` nodes
    or ``cap_s`` seconds."""
    dfs = lns.breaks_search(lns.pinned_instance(instance, pinned), seed, P["tail_rows"],
                            lns.schedule_of(P))
    t = time.perf_counter()
    drive(dfs, Budget(cap_s, 4000, 1, time.monotonic() + cap_s), nodes, 4_000_000, [], t)
    return int(dfs.state[lns.S_RESTARTS]), dfs.nodes, time.perf_counter() - t


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--boards", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--draws", type=int, default=100)
    parser.add_argument("--nodes", type=int, default=2_000_000)
    parser.add_argument("--cap-s", type=float, default=2.0)
    parser.add_argument("--spin-runs", type=int, default=100)
    args = parser.parse_args()
    instance = read_file(BOARD)[0].instance
    lns.prepare()
    pool = pool_of(instance, args.boards, args.seconds)
    print(f"pool of {len(pool)} boards, scores "
          f"{[instance.max_score - b for b, _ in pool]}; {args.draws} recombinations, each "
          f"search driven for {args.nodes:,} nodes or {args.cap_s:g} s")
    ways = {"pins as drawn": [], "broken joins freed": []}
    for k in range(args.draws):
        seed = 1000 + k
        rng = np.random.default_rng(seed)
        drawn = lns.recombine(pool, instance.cols, P["elite_rows_min"], P["elite_rows_max"], rng)
        for way, pinned in (("pins as drawn", drawn),
                            ("broken joins freed", lns.unpin_broken(instance, drawn))):
            runs, nodes, seconds = begin(instance, pinned, seed, args.nodes, args.cap_s)
            ways[way].append((runs > args.spin_runs, nodes / max(seconds, 1e-9),
                              int((pinned >= 0).sum())))
    for way, rows in ways.items():
        spun = sum(s for s, _, _ in rows)
        rate = statistics.median(r for _, r, _ in rows) / 1e6
        pins = statistics.median(n for _, _, n in rows)
        print(f"{way:>20}: {spun} of {len(rows)} spun; median {rate:.1f} M nodes/s, "
              f"median {pins:g} cells pinned")


if __name__ == "__main__":
    main()
