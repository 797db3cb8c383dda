"""The tiles family's ``cliffbench pdb`` command: build a partition's pattern databases into the
cache (a bar by BFS layer, then time and memory), or describe one table file.

Declared by the family (``instances.tiles.FAMILY.commands``) and added to the CLI by
``add_commands``; the pattern-database modules are imported only when the command runs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from bench.cliargs import EXIT_USAGE, integer, positive_number


def add_commands(sub: Any) -> None:
    """Add ``pdb build`` and ``pdb info`` to the CLI's subparsers."""
    p = sub.add_parser("pdb", help="sliding-tile pattern databases: build into the cache, info")
    pdb_sub = p.add_subparsers(dest="pdb_command", required=True, metavar="ACTION")
    b = pdb_sub.add_parser("build", help="build (or load, or encode) a partition's tables")
    b.add_argument("--puzzle", default="15", help="8, 15, 24 or ROWSxCOLS")
    b.add_argument("--partition", required=True,
                   help="a preset (4-4-4-3, 5-5-5, 6-6-3, 7-8, 6-6-6-6, 4-4, ...) or tile "
                        "lists 1,2,3/4,5,6")
    b.add_argument("--rule", default="minimized", help="ignored or minimized")
    b.add_argument("--encoding", default="nibble",
                   help="byte, nibble, mod3, bit, minnibble")
    b.add_argument("--param", type=integer, default=0, help="minnibble group (a power of 2)")
    b.add_argument("--goal", default="blank-first", help="blank-first or blank-last")
    b.add_argument("--cache", metavar="DIR",
                   help="cache directory (default $CLIFFBENCH_PDB_CACHE or "
                        "~/.cache/cliffbench/pdb)")
    b.add_argument("--threads", type=positive_number(int), metavar="N",
                   help="numba threads (default: all)")
    i = pdb_sub.add_parser("info", help="describe and check a table file")
    i.add_argument("file", help="a pattern-database file")
    p.set_defaults(func=cmd_pdb)


def cmd_pdb(args: argparse.Namespace) -> int:
    """Build a partition's pattern databases into the cache (a bar by BFS layer, then time and
    memory), or describe one file."""
    import resource
    import time

    from searches.support import tiles_pdb_encode as encode
    from searches.support import tiles_pdb_patterns as pdb
    from searches.support import tiles_pdb_store as store
    from searches.support.tiles_pdb_lookup import check_combination

    try:
        if args.pdb_command == "info":
            for key, value in store.describe(args.file).items():
                print(f"{key:14s} {value}")
            return 0
        rows, cols = pdb.puzzle_shape(args.puzzle)
        part = pdb.partition(args.partition, rows, cols, args.goal)
        check_combination(args.rule, args.encoding, False, rows, cols, args.goal)
        param = encode.check_encoding(args.encoding, args.param)
        cache = Path(args.cache) if args.cache else store.default_cache()
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

        console = Console(stderr=True)
        bar = Progress(TextColumn("[bold]{task.description}"), BarColumn(),
                       TextColumn("layer {task.completed:>3.0f}"), TimeElapsedColumn(),
                       TextColumn("{task.fields[states]}"), console=console,
                       disable=not console.is_terminal)

        def size(b: float) -> str:
            return next(f"{b / 1000 ** i:.1f} {u}B" for i, u in ((3, "G"), (2, "M"), (1, "k"))
                        if b >= 1000 ** i) if b >= 1000 else f"{int(b)} B"

        start = time.perf_counter()
        total = 0
        with bar:
            for j, tiles in enumerate(part.patterns):
                pattern = part.pattern(j)
                task = bar.add_task(f"pattern {j + 1}/{len(part.patterns)} ({pattern.k} tiles)",
                                    total=None, states="")

                def progress(layer: int, expanded: int, seconds: float, task=task) -> None:
                    bar.update(task, completed=layer + 1, states=f"{expanded:,} states")

                t = time.perf_counter()
                got, source = store.cached(pattern, args.rule, args.encoding, param, cache,
                                           threads=args.threads, progress=progress)
                bar.update(task, total=bar.tasks[task].completed or 1,
                           completed=bar.tasks[task].completed or 1)
                total += got.payload.size
                what = "loaded from the cache" if source == "cache" else source
                print(f"pattern {','.join(map(str, tiles))}: {what} in "
                      f"{time.perf_counter() - t:.1f} s, {size(got.payload.size)} "
                      f"({args.encoding}), saturated {got.saturated}")
                print(f"  {cache / store.file_name(pattern, args.rule, args.encoding, param)}",
                      flush=True)
        entries = sum(part.pattern(j).size for j in range(len(part.patterns)))
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"total {time.perf_counter() - start:.1f} s, {size(total)} of tables, "
              f"peak memory {peak:.0f} MB")
        print("sizes by encoding: " + ", ".join(
            f"{e} {size(b)}" for e, b in store.sizes(entries, param or 8).items()))
        return 0
    except ValueError as exc:  # PDBError, PDBFileError, bad numbers
        print(f"cliffbench: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
