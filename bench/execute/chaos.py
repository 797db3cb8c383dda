"""Misbehaving solvers, on purpose: the harness's promises under every fault a long sweep meets.

A plugin (the shipped ``chaos`` suite loads it with ``plugins = ["../../execute/chaos.py"]``;
any suite can with ``--plugin``), never an entry point: no ordinary sweep can pick these up. Each
solver does one thing wrong, and ``EXPECTED`` says how the harness must classify its runs:

=====================  ==============================================================  ========
solver                 what it does                                                    status
=====================  ==============================================================  ========
chaos-abort            ``os.abort()``                                                  crash
chaos-segfault         reads address 0 through ``ctypes`` (SIGSEGV, as a C bug does)  crash
chaos-hang             ignores SIGTERM and its budget, sleeping or spinning            timeout
chaos-orphan           starts a process in a session of its own that outlives it,      unknown
                       then returns (the harness must end that process)
chaos-memory           touches memory past the run's budget (50 MB blocks, or bursts)  memout
chaos-wrong            claims ``solved`` with every piece placed, rotated at random    wrong
chaos-raise            raises                                                          error
chaos-chatty           prints megabytes to stdout and stderr, then gives up            unknown
=====================  ==============================================================  ========

And misbehaving *programs*, other people's solvers as the harness meets them: the tools of
``chaos_programs.toml`` (the suite loads it as a second plugin) run ``chaos_program.sh``, a
shell program, on the CNF of ``edgematch/sat``, each in one mode:

==============================  ===================================================  ========
tool                            what the program does                                status
==============================  ===================================================  ========
chaos-program-orphan            starts a process in a session of its own that         unknown
                                outlives it, then answers ``s UNKNOWN``
chaos-program-stubborn          ignores SIGTERM and sleeps past its budget            timeout
chaos-program-flood             writes stdout without end (cut at the output cap)     error
chaos-program-memory            holds ever more memory                                memout
chaos-program-wrong             ``s SATISFIABLE`` with a model that is not one         wrong
chaos-program-no-model          ``s SATISFIABLE`` with no ``v`` line                  wrong
chaos-program-exit10            exit code 10, no status line, a model that is not one  wrong
==============================  ===================================================  ========

``python -m bench.execute.chaos verify results/chaos`` reads a sweep and says whether the harness
kept them: every planned run has exactly one row (rows lost = 0), every chaos run has its expected
status, every good run is solved and verified, and no process of the chaos solvers is alive.
"""

from __future__ import annotations

import ctypes
import os
import random
import signal
import subprocess
import sys
import time

from bench.api import Outcome, Param, solver
from bench.execute.limits import pids_with_command
from instances.edgematch.model import Solution

#: How the harness must classify each chaos solver's runs.
EXPECTED = {"chaos-abort": "crash", "chaos-segfault": "crash", "chaos-hang": "timeout",
            "chaos-orphan": "unknown", "chaos-memory": "memout", "chaos-wrong": "wrong",
            "chaos-raise": "error", "chaos-chatty": "unknown",
            "chaos-program-orphan": "unknown", "chaos-program-stubborn": "timeout",
            "chaos-program-flood": "error", "chaos-program-memory": "memout",
            "chaos-program-wrong": "wrong", "chaos-program-no-model": "wrong",
            "chaos-program-exit10": "wrong"}
#: In the command line of every process chaos-orphan (and chaos_program.sh's orphan mode)
#: starts: how a test finds survivors.
ORPHAN_MARK = "cliffbench-chaos-orphan"

FAMILY = {"family": "edgematch", "paradigm": "native", "backend": "chaos"}


@solver("chaos-abort", **FAMILY)
def abort(instance, budget, seed):
    """Aborts the worker (SIGABRT)."""
    os.abort()


@solver("chaos-segfault", **FAMILY)
def segfault(instance, budget, seed):
    """Dereferences a null pointer in C: the worker dies of SIGSEGV."""
    ctypes.string_at(0)
    return Outcome("unknown")  # not reached


@solver("chaos-hang", **FAMILY, params=[Param("spin", False, help="busy-loop instead of sleep")])
def hang(instance, budget, seed, spin):
    """Ignores SIGTERM and never looks at its budget: only a SIGKILL ends it."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    while True:
        if spin:
            sum(range(100_000))
        else:
            time.sleep(1.0)


@solver("chaos-orphan", **FAMILY, params=[Param("seconds", 3600.0, min=0.0)])
def orphan(instance, budget, seed, seconds):
    """Starts a process in a new session (out of the worker's process group) that sleeps for
    ``seconds``, and returns at once: the run is over, its helper is not."""
    code = f"import time; time.sleep({seconds!r})  # {ORPHAN_MARK}"
    subprocess.Popen([sys.executable, "-c", code, ORPHAN_MARK], start_new_session=True,
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL)
    return Outcome("unknown")


@solver("chaos-memory", **FAMILY, params=[
    Param("factor", 3.0, min=1.0, help="allocate this multiple of the budget"),
    Param("chunk_mb", 50, min=1, help="in blocks of this size (a large one is a burst)")])
def memory(instance, budget, seed, factor, chunk_mb):
    """Touches ``factor`` times its memory budget, ``chunk_mb`` at a time, and holds it."""
    held = []
    for _ in range(max(1, int(budget.mem_mb * factor) // chunk_mb)):
        held.append(bytearray(chunk_mb * 1024 * 1024))  # zero-filled: every page is touched
    time.sleep(3600)
    return Outcome("unknown")


@solver("chaos-wrong", **FAMILY)
def wrong(instance, budget, seed):
    """Every piece once, in order, each at a random rotation, claimed solved."""
    rng = random.Random(seed)
    cells = tuple((piece, rng.randrange(4)) for piece in range(instance.rows * instance.cols))
    return Outcome("solved", solution=Solution(instance.rows, instance.cols, cells))


@solver("chaos-raise", **FAMILY)
def fail(instance, budget, seed):
    """Raises, as a solver with a bug does."""
    raise RuntimeError("chaos-raise: a deliberate exception")


@solver("chaos-chatty", **FAMILY, params=[Param("mb", 4, min=0)])
def chatty(instance, budget, seed, mb):
    """Writes ``mb`` MB to stdout and to stderr (through Python and through the C file
    descriptors), then gives up."""
    line = "x" * 1023 + "\n"
    for _ in range(mb * 512):
        sys.stdout.write(line)
        sys.stderr.write(line)
    sys.stdout.flush()
    os.write(1, line.encode() * (mb * 512))
    return Outcome("unknown")


def survivors() -> list[int]:
    """Pids of processes chaos-orphan started that are still alive."""
    return pids_with_command(ORPHAN_MARK.encode())


def verify(folder: str) -> dict:
    """What a chaos sweep shows: runs planned and recorded, faults injected, each status
    counted, rows lost, misclassified runs, survivors. ``ok`` when the harness kept every
    promise."""
    import json
    from pathlib import Path

    from bench.table.store import load

    table = load(folder, "results")
    manifest = json.loads((Path(folder) / "manifest.json").read_text())
    faults = table[table.solver.isin(list(EXPECTED))]
    good = table[~table.solver.isin(list(EXPECTED))]
    expected = faults.solver.map(EXPECTED)
    misclassified = faults[faults.status != expected]
    bad_good = good[~good.status.isin(["solved", "optimal"]) | (good.verified != True)]  # noqa: E712
    out = {
        "runs_planned": int(manifest["runs_planned"]), "rows": len(table),
        "unique_keys": int(table.key.nunique()),
        "rows_lost": int(manifest["runs_planned"]) - int(table.key.nunique()),
        "faults_injected": len(faults),
        "fault_fraction": round(len(faults) / max(1, len(table)), 3),
        "status_counts": {k: int(v) for k, v in table.status.value_counts().items()},
        "faults_by_solver": {k: int(v) for k, v in faults.solver.value_counts().items()},
        "misclassified": [f"{r.solver} on {r.source}: {r.status} (expected "
                          f"{EXPECTED[r.solver]}): {r.message}"
                          for r in misclassified.itertuples()],
        "good_runs_not_solved": len(bad_good),
        "survivors": survivors(),
    }
    out["ok"] = (out["rows_lost"] == 0 and out["rows"] == out["unique_keys"]
                 and not out["misclassified"] and not out["good_runs_not_solved"]
                 and not out["survivors"])
    return out


def main(argv: list[str] | None = None) -> int:
    import argparse
    import json

    parser = argparse.ArgumentParser(prog="python -m bench.execute.chaos",
                                     description="check a chaos sweep (see the module docstring)")
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("verify")
    check.add_argument("folder", help="the sweep's results folder, e.g. results/chaos")
    args = parser.parse_args(argv)
    report = verify(args.folder)
    print(json.dumps(report, indent=2))
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
