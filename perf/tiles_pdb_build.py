"""Build times and memory of the sliding-tile pattern databases.

For each partition and blank rule: builds every table (layered BFS, numba, ``--threads``
threads), then encodes it in every encoding, and prints per pattern the entries, the BFS
layers, the states expanded, the build seconds, the working memory besides the table (the 2-bit
states of the minimized rule, the block flags), and the payload bytes and encoding seconds of
each encoding; then the partition's total time (wall, and CPU summed over the threads: on a
shared machine the CPU seconds are the steadier number) and the peak resident size. Nothing
is written to disk. The first pass compiles the kernels (cached by numba afterwards); use
``--warm`` to build a small table first so that compilation stays out of the numbers.

    NUMBA_NUM_THREADS=2 python perf/tiles_pdb_build.py [--puzzle 15]
        [--partitions 5-5-5 6-6-3] [--rules ignored minimized] [--threads 2] [--warm]
        [--encodings byte nibble mod3 bit minnibble]

The targets of issue 4, on 2 cores: 5-5-5 under 10 s, 6-6-3 under 60 s, 7-8 with the
minimized rule under 10 minutes (about 1.6 GB: the 8-tile byte table is 519 MB and its 2-bit
states 1.04 GB).
"""

from __future__ import annotations

import argparse
import resource
import time

import numba

from searches.support import tiles_pdb_build as pdb_build
from searches.support import tiles_pdb_encode as enc
from searches.support import tiles_pdb_patterns as pdb


def megabytes(b: float) -> str:
    return f"{b / 1e6:9.2f}"


def run(puzzle: str, name: str, rule: str, threads: int, encodings: list[str]) -> float:
    rows, cols = pdb.puzzle_shape(puzzle)
    part = pdb.partition(name, rows, cols)
    total = total_cpu = 0.0
    print(f"\n{rows}x{cols} {name} rule={rule} threads={threads}")
    print(f"  {'tiles':28s} {'entries':>11s} {'layers':>6s} {'expanded':>13s} {'build s':>8s} "
          f"{'cpu s':>7s} "
          f"{'work MB':>9s}  " + "  ".join(f"{e + ' MB':>12s} {'s':>5s}" for e in encodings))
    for j in range(len(part.patterns)):
        pattern = part.pattern(j)
        cpu = time.process_time()
        result = pdb_build.build(pattern, rule, threads)
        cpu = time.process_time() - cpu
        total += result.seconds
        total_cpu += cpu
        cells = []
        for e in encodings:
            t = time.perf_counter()
            param = enc.DEFAULT_GROUP if e == "minnibble" else 0
            got = enc.encode(result.table, pattern.k, pattern.n, pattern.manhattan_rows(), e,
                             param)
            sat = f"!{got.saturated}" if got.saturated else ""
            cells.append(f"{megabytes(got.payload.size):>12s} {time.perf_counter() - t:5.2f}{sat}")
        print(f"  {pattern.label:28s} {pattern.size:11,d} {len(result.layers):6d} "
              f"{sum(result.layers):13,d} {result.seconds:8.2f} {cpu:7.2f} "
              f"{megabytes(result.work_bytes)}  "
              + "  ".join(cells), flush=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"  total build {total:.2f} s wall, {total_cpu:.2f} s cpu (all threads); "
          f"peak resident {peak:.0f} MB")
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--puzzle", default="15")
    parser.add_argument("--partitions", nargs="+", default=["5-5-5", "6-6-3"])
    parser.add_argument("--rules", nargs="+", default=["ignored", "minimized"])
    parser.add_argument("--threads", type=int, default=numba.config.NUMBA_NUM_THREADS)
    parser.add_argument("--encodings", nargs="+", default=list(enc.ENCODINGS))
    parser.add_argument("--warm", action="store_true", help="compile on a small table first")
    args = parser.parse_args()
    if args.threads > numba.config.NUMBA_NUM_THREADS:
        parser.error(f"--threads {args.threads}: numba allows {numba.config.NUMBA_NUM_THREADS} "
                     "here (set NUMBA_NUM_THREADS)")
    print(f"numba {numba.__version__}, threading layer after the first build below; "
          f"threads {args.threads}")
    if args.warm:
        for rule in args.rules:
            small = pdb.Pattern(3, 3, "blank-first", (1, 2, 3))
            table = pdb_build.build(small, rule, args.threads).table
            for e in args.encodings:
                enc.encode(table, 3, 9, small.manhattan_rows(), e,
                           enc.DEFAULT_GROUP if e == "minnibble" else 0)
    for name in args.partitions:
        for rule in args.rules:
            run(args.puzzle, name, rule, args.threads, args.encodings)
    print(f"\nthreading layer: {numba.threading_layer()}")


if __name__ == "__main__":
    main()
