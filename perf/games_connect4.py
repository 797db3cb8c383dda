"""Connect Four from the empty board on every board of at most 28 cells, by the native negamax.

Each board (4x4, 5x4, 6x4, 7x4, 4x5, 4x6, 4x7, 5x5: width x height) is solved by alpha-beta
with move ordering and the transposition table, and by the other variants of
``searches.support.games_board`` asked for with ``--variants`` (those that do not finish within
``--limit`` seconds print ``unknown``). Per run: the value for the first player (+1 / 0 / -1),
John Tromp's published value for that board (``TROMP`` below) and whether they agree, whether
the principal line replays legally to a result that agrees with the value (plain rules,
``instances.games.rules``), the nodes, the seconds of wall and of CPU time (the search and the
line, the table included), and millions of nodes per CPU second. The CPU-time
rate is the one-core figure when other processes share the core; the load average is printed.

    python perf/games_connect4.py [--boards 7x4 5x5 ...] [--variants ab-ord-tt ab-tt ...]
        [--limit 60] [--table-bits 22]

``--variants all``: the eight (``ab``/``mm`` = alpha-beta / minimax, ``-ord`` = ordered,
``-tt`` = with the table).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numba

from bench.api import Budget
from instances.games import Board
from instances.games.rules import replay
from searches.support.games_board import prepare_board, solve_board

BOARDS = ["4x4", "5x4", "6x4", "7x4", "4x5", "4x6", "4x7", "5x5"]
# John Tromp's table of Connect Four results by board size ("John's Connect Four Playground",
# http://tromp.github.io/c4/c4.html, formerly homepages.cwi.nl/~tromp/c4/c4.html): '=' a draw,
# '+' a first-player win, '-' a second-player win; width x height -> value for the first player.
TROMP = {"4x4": 0, "5x4": 0, "6x4": -1, "7x4": 0, "4x5": 0, "4x6": 0, "4x7": 0, "5x5": 0,
         "6x5": 0, "7x5": 0, "5x6": 0, "6x6": -1, "7x6": 1}
VARIANTS = {"ab-ord-tt": (True, True, True), "ab-tt": (True, False, True),
            "ab-ord": (True, True, False), "ab": (True, False, False),
            "mm-ord-tt": (False, True, True), "mm-tt": (False, False, True),
            "mm-ord": (False, True, False), "mm": (False, False, False)}


def line_agrees(board: Board, value: int, line: tuple[int, ...]) -> bool:
    """The line replays legally from the board's position to its end (a win or a full board)
    with the result ``value`` for the player to move at the start."""
    try:
        cells, winner = replay(board.width, board.height, board.k, board.gravity,
                               board.moves + line)
    except ValueError:
        return False
    if winner:
        return value == (1 if winner == board.to_move else -1)
    return all(cells) and value == 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--boards", nargs="+", default=BOARDS)
    parser.add_argument("--variants", nargs="+", default=["ab-ord-tt"],
                        choices=[*VARIANTS, "all"])
    parser.add_argument("--limit", type=float, default=60.0, help="seconds per run")
    parser.add_argument("--table-bits", type=int, default=22)
    args = parser.parse_args()
    if "all" in args.variants:
        args.variants = list(VARIANTS)

    t = time.perf_counter()
    prepare_board()
    print(f"numba {numba.__version__}; prepare (compile or cache load) "
          f"{time.perf_counter() - t:.2f} s; table 2^{args.table_bits} slots; "
          f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(f"{'board':>5} {'variant':>10} {'value':>5} {'tromp':>5} {'line':>4} {'nodes':>13} "
          f"{'pv':>6} {'wall s':>7} {'cpu s':>7} {'M/s cpu':>8}")
    failures = 0
    for name in args.boards:
        width, height = map(int, name.split("x"))
        board = Board(width, height, 4, True)
        for variant in args.variants:
            prune, ordered, table = VARIANTS[variant]
            budget = Budget(wall_s=args.limit, mem_mb=0,
                            deadline=time.monotonic() + args.limit)
            wall, cpu = time.perf_counter(), time.process_time()
            result = solve_board(board, budget, prune=prune, ordered=ordered, table=table,
                                 table_bits=args.table_bits)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            c = result.counters
            known = TROMP.get(name)
            if result.status == "optimal":
                ok_line = line_agrees(board, result.value, result.line)
                agree = known is None or known == result.value
                failures += (not ok_line) + (not agree)
                value = f"{result.value:+d}" + ("" if agree else "!")
                line = "ok" if ok_line else "BAD"
            else:
                value, line = "?", "-"
            print(f"{name:>5} {variant:>10} {value:>5} "
                  f"{'?' if known is None else f'{known:+d}':>5} {line:>4} "
                  f"{int(c['nodes']):>13,} {int(c['pv_nodes']):>6} {wall:7.2f} {cpu:7.2f} "
                  f"{c['nodes'] / max(cpu, 1e-9) / 1e6:8.2f}", flush=True)
    print(f"load average {os.getloadavg()[0]:.2f}")
    if failures:
        print(f"{failures} check(s) failed (a value against Tromp's table, or a bad line)")
        sys.exit(1)


if __name__ == "__main__":
    main()
