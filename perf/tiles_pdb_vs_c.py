"""The numba PDB IDA* against a plain C one (perf/tiles_pdb_ida.c), on the same instances.

Loads (or builds into the cache) a partition's tables, exports them for the C program (a text
spec: the patterns, the reflection, the Manhattan table; and the payload bytes as they are in
memory), compiles ``perf/tiles_pdb_ida.c`` with ``$CC`` (default ``cc``) and ``--cflags``
(default ``-O2 -march=native``: numba compiles for the host's CPU, so the C gets the same
instruction set; without it ``__builtin_popcountll`` is no POPCNT instruction but a software
count) when a compiler is there, else says so and runs the numba side alone. Then
solves each instance with the numba kernel and with the C program, on one core each (CPU time
of the process), and prints per instance both node counts (equal when the two searches are the
same search: same move order, same tables, same pathmax), both CPU times, and at the end the
totals, both node rates and the ratio ours/C of the rates.

    python perf/tiles_pdb_vs_c.py [--puzzle 15|24] [--ids 1 2 ...|--all]
        [--config 6-6-3:minimized:nibble:reflect] [--no-pathmax] [--cflags "-O2 -march=native"]
        [--general]

``--general`` runs the general kernel of every heuristic kind (``tiles_ida_kernel``) instead of
the PDB kind's specialised one (``tiles_pdb_ida_kernel``): the same search, for comparison.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from instances.tiles import read_file
from searches.support import tiles_heuristics, tiles_ida_search, tiles_pdb_ida_kernel
from searches.support import tiles_pdb_patterns as pdb
from searches.support.tiles_ida_kernel import SOLVED
from searches.support.tiles_pdb_store import default_cache
from searches.tiles_pdb_search import loaded

ROOT = Path(__file__).resolve().parents[1]
SOURCE = Path(__file__).with_name("tiles_pdb_ida.c")
FILES = {15: "korf100_15puzzle.txt", 24: "korf50_24puzzle.txt"}


def export(P, cols: int, pathmax: bool, folder: Path) -> tuple[Path, Path]:
    """The spec and the payload file the C program reads (see its header comment)."""
    if int(P.enc.max()) != int(P.enc.min()) or int(P.enc[0]) != 1:
        raise SystemExit("the C reference reads the nibble encoding only")
    lines = [f"{P.n} {cols} {P.npat} {P.reflect} {int(pathmax)}"]
    for j in range(P.npat):
        k = int(P.k[j])
        lines.append(f"{k} {int(P.offset[j])} " + " ".join(map(str, P.tiles[j, :k])))
    for row in (P.sigma, P.tcell, P.md.reshape(-1)):
        lines.append(" ".join(map(str, row)))
    spec, data = folder / "spec.txt", folder / "tables.bin"
    spec.write_text("\n".join(lines) + "\n")
    P.data.tofile(data)
    return spec, data


def compile_c(folder: Path, cflags: str) -> Path | None:
    cc = os.environ.get("CC", "cc")
    if shutil.which(cc) is None:
        print(f"no C compiler ({cc}): the C reference is skipped")
        return None
    exe = folder / "tiles_pdb_ida"
    subprocess.run([cc, *cflags.split(), "-o", str(exe), str(SOURCE)], check=True)
    return exe


def run_c(exe: Path, spec: Path, data: Path, ids, instances) -> dict[int, tuple[int, float, int]]:
    lines = "".join(f"{i} {' '.join(map(str, g.instance.tiles))}\n"
                    for i, g in zip(ids, instances, strict=True))
    out = subprocess.run([str(exe), str(spec), str(data)], input=lines, text=True,
                         capture_output=True, check=True).stdout
    got = {}
    for line in out.split("\n"):
        if line:
            i, nodes, cpu, length = line.split()
            got[int(i)] = (int(nodes), float(cpu), int(length))
    return got


def search_kernel(h, specialise: bool) -> bool:
    """Whether the specialised PDB kernel runs (else the general one)."""
    return specialise and tiles_pdb_ida_kernel.specialised(h.t64, h.pdb) is not None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--puzzle", type=int, choices=sorted(FILES), default=15)
    parser.add_argument("--ids", type=int, nargs="+", default=None)
    parser.add_argument("--all", action="store_true", help="every instance of the file")
    parser.add_argument("--config", default=None,
                        help="PARTITION:RULE:nibble[:reflect] (default 6-6-3 or 6-6-6-6, "
                             "minimized, nibble, reflect)")
    parser.add_argument("--no-pathmax", action="store_true")
    parser.add_argument("--cflags", default="-O2 -march=native")
    parser.add_argument("--general", action="store_true",
                        help="the general kernel instead of the specialised PDB one")
    parser.add_argument("--data", type=Path,
                        default=Path(os.environ.get("CLIFFBENCH_DATA", ROOT.parent / "shared"
                                                    / "data")))
    args = parser.parse_args()
    every = read_file(args.data / "tiles" / FILES[args.puzzle])
    ids = list(range(1, len(every) + 1)) if args.all else (args.ids or list(range(1, 11)))
    instances = [every[i - 1] for i in ids]
    config = args.config or (("6-6-3" if args.puzzle == 15 else "6-6-6-6")
                             + ":minimized:nibble:reflect")
    spec_name, rule, encoding, *flags = config.split(":")
    first = instances[0].instance
    part = pdb.partition(spec_name, first.rows, first.cols, first.goal)
    if first.goal != "blank-first":
        raise SystemExit("the C reference takes the blank-first goal")
    t = time.perf_counter()
    tables = loaded(part, rule, encoding, "reflect" in flags, default_cache())
    load_s = time.perf_counter() - t
    pathmax = not args.no_pathmax
    h = tiles_heuristics.pdb_tables(tables, pathmax=pathmax)
    specialise = not args.general
    tiles_ida_search.IdaSearch.start(first, h, specialise=specialise).run(10)  # compile/load
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        spec, data = export(tables.arrays, first.cols, pathmax, folder)
        exe = compile_c(folder, args.cflags)
        c_runs = run_c(exe, spec, data, ids, instances) if exe else {}
    kernel = "specialised" if search_kernel(h, specialise) else "general"
    print(f"{config} pathmax={pathmax}, {kernel} kernel: tables {tables.nbytes / 2**20:.0f} MB "
          f"in {load_s:.1f} s; C: {os.environ.get('CC', 'cc')} {args.cflags}; load average "
          f"{os.getloadavg()[0]:.2f}")
    print(f"{'id':>3} {'len':>3} {'nodes':>13} {'C nodes':>13} {'cpu s':>7} {'C cpu s':>7} "
          f"{'M/s':>6} {'C M/s':>6}")
    ours_nodes = ours_cpu = c_nodes = c_cpu = 0.0
    failures = 0
    for ident, generated in zip(ids, instances, strict=True):
        search = tiles_ida_search.IdaSearch.start(generated.instance, h, specialise=specialise)
        c = time.process_time()
        status = search.run(1 << 62)
        c = time.process_time() - c
        length = len(search.moves())
        cn, cc, cl = c_runs.get(ident, (0, 0.0, length))
        ok = status == SOLVED and length == generated.known_optimum == cl
        failures += not ok
        ours_nodes += search.nodes
        ours_cpu += c
        c_nodes += cn
        c_cpu += cc
        print(f"{ident:>3} {length:>3}{'' if ok else '!'} {search.nodes:>13,} {cn:>13,} "
              f"{c:7.2f} {cc:7.2f} {search.nodes / max(c, 1e-9) / 1e6:6.2f} "
              f"{cn / max(cc, 1e-9) / 1e6:6.2f}", flush=True)
    ours_rate = ours_nodes / max(ours_cpu, 1e-9)
    print(f"ours: {ours_nodes:,.0f} nodes, {ours_cpu:.2f} s CPU, {ours_rate / 1e6:.2f} M nodes/s")
    if c_runs:
        c_rate = c_nodes / max(c_cpu, 1e-9)
        same = "same node counts" if ours_nodes == c_nodes else "NODE COUNTS DIFFER"
        print(f"C:    {c_nodes:,.0f} nodes, {c_cpu:.2f} s CPU, {c_rate / 1e6:.2f} M nodes/s")
        print(f"ratio ours/C (node rate): {ours_rate / c_rate:.2f}x; time C/ours "
              f"{c_cpu / max(ours_cpu, 1e-9):.2f}x; {same}; load average "
              f"{os.getloadavg()[0]:.2f}")
    if failures:
        print(f"{failures} instance(s) not solved at the published optimum")
        sys.exit(1)


if __name__ == "__main__":
    main()
