"""Rate of the ``attractor`` solver: moves per second on a random game graph, positions per
second of the Connect Four expansion.

1. A random game graph of the family (``random-graph``: by default 1,100,000 positions x 10
   moves, 1 % of the positions each player's targets: 10.8 M moves), solved whole after the
   kernels are compiled. Timed separately: the predecessor lists (the counting sort), the two
   attractors (targets labelled, counters set, queues run), and their total; printed as
   seconds and millions of moves per second, by wall clock and by CPU time (the CPU rate is the
   one-core figure when other processes share the core). Best of ``--repeats``.
2. Connect Four from the empty board (4x4, 5x4, 4x5 by default): the expansion into the graph
   of reachable positions (allocation included), then predecessors + attractors; positions and
   moves per second. The position counts are checked against Tromp's (161,029, 3,945,711 and
   1,706,255) and the value against the known draw.

    python perf/games_attractor_rate.py [--positions 1100000] [--degree 10]
        [--targets 0.01] [--seed 1] [--repeats 3] [--boards 4x4 5x4 4x5]
"""

from __future__ import annotations

import argparse
import os
import time

import numba
import numpy as np

from bench.api import Budget
from instances.games import GENERATORS, Board
from searches.games_attractor import prepare, solve_board
from searches.support.games_attract import (
    CTL_SLOTS,
    DONE,
    PAUSED,
    attract,
    build_predecessors,
    mark_targets,
    seed_attractor,
)
from searches.support.games_expand import Expansion

KNOWN_POSITIONS = {(4, 4): 161_029, (5, 4): 3_945_711, (4, 5): 1_706_255}


def clocks() -> tuple[float, float]:
    return time.perf_counter(), time.process_time()


def since(start: tuple[float, float]) -> tuple[float, float]:
    wall, cpu = clocks()
    return wall - start[0], cpu - start[1]


def attractor_phases(owner, offsets, succ, target) -> tuple[tuple[float, float], ...]:
    """(wall, cpu) seconds of the predecessor build and of the two attractors."""
    n = owner.shape[0]
    t = clocks()
    pred_off, pred = build_predecessors(offsets, succ)
    t_pred = since(t)
    label = np.empty(n, np.int8)
    layer = np.empty(n, np.int32)
    move = np.empty(n, np.int32)
    remaining = np.empty(n, np.int32)
    queue = np.empty(n, np.int32)
    ctl = np.zeros(CTL_SLOTS, np.int64)
    t = clocks()
    mark_targets(target, label, layer, move)
    for player in (1, 2):
        seed_attractor(player, owner, offsets, label, remaining, queue, ctl)
        while attract(player, owner, pred_off, pred, remaining, label, layer, move, queue, ctl,
                      1 << 62) == PAUSED:
            pass
    t_attr = since(t)
    attracted = np.count_nonzero(label)
    print(f"  attracted {attracted:,} of {n:,} positions ({attracted / n:.1%}), layers up to "
          f"{layer.max()}, predecessor moves scanned {int(ctl[3]):,}")
    return t_pred, t_attr


def random_graph_rate(args: argparse.Namespace) -> None:
    params = {"positions": args.positions, "degree": args.degree, "targets": args.targets}
    t = time.perf_counter()
    graph = GENERATORS["random-graph"](params, args.seed).instance
    print(f"random-graph {params} seed {args.seed}: {graph.n:,} positions, {graph.m:,} moves "
          f"(generated in {time.perf_counter() - t:.2f} s)")
    best: dict[str, tuple[float, float]] = {}
    for _ in range(args.repeats):
        t_pred, t_attr = attractor_phases(graph.owner, graph.offsets, graph.succ, graph.target)
        total = (t_pred[0] + t_attr[0], t_pred[1] + t_attr[1])
        for name, value in (("predecessors", t_pred), ("attractors", t_attr), ("total", total)):
            old = best.get(name)
            best[name] = value if old is None else (min(old[0], value[0]), min(old[1], value[1]))
    print(f"best of {args.repeats}:  {'':12} {'wall s':>7} {'cpu s':>7} {'M moves/s wall':>15} "
          f"{'M moves/s cpu':>14}")
    for name, (wall, cpu) in best.items():
        print(f"  {name:<22} {wall:7.3f} {cpu:7.3f} {graph.m / wall / 1e6:15.1f} "
              f"{graph.m / max(cpu, 1e-9) / 1e6:14.1f}")


def connect4_rate(width: int, height: int) -> None:
    board = Board(width, height, 4, True)
    t = clocks()
    expansion = Expansion.start(board, 10**9)
    status = expansion.run(1 << 62)
    wall, cpu = since(t)
    assert status == DONE
    n, m = expansion.positions, expansion.moves
    known = KNOWN_POSITIONS.get((width, height))
    mark = "" if known is None else (" = Tromp's" if n == known else f" != Tromp's {known:,}")
    print(f"connect4 {width}x{height}: {n:,} positions{mark}, {m:,} moves; expansion "
          f"{wall:.3f} s wall {cpu:.3f} s cpu: {n / wall / 1e6:.2f} M positions/s wall, "
          f"{n / cpu / 1e6:.2f} cpu")
    t = clocks()
    outcome = solve_board(board, Budget(600.0, 16000, deadline=time.monotonic() + 600), 10**9)
    wall, cpu = since(t)
    print(f"  whole solve: value {outcome.objective:+.0f} ({outcome.status}); encode "
          f"{outcome.t_encode:.3f} s + solve {outcome.t_solve:.3f} s wall; {wall:.3f} s wall "
          f"{cpu:.3f} s cpu; layers {outcome.counters.get('layers')}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=1_100_000)
    parser.add_argument("--degree", type=int, default=10)
    parser.add_argument("--targets", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--boards", nargs="*", default=["4x4", "5x4", "4x5"])
    args = parser.parse_args()

    t = time.perf_counter()
    prepare()
    print(f"numba {numba.__version__}; prepare (compile or cache load) "
          f"{time.perf_counter() - t:.2f} s; load average {os.getloadavg()[0]:.2f} on "
          f"{os.cpu_count()} cores; affinity {sorted(os.sched_getaffinity(0))}")
    random_graph_rate(args)
    for text in args.boards:
        width, height = (int(x) for x in text.split("x"))
        connect4_rate(width, height)


if __name__ == "__main__":
    main()
