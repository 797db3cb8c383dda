"""Misbehaving solvers for the runner's tests, loaded with ``--plugin`` like any third party's.

Each does one thing wrong, so each failure class of the runner can be provoked on purpose.
"""

import os
import tempfile
import time
from pathlib import Path

from bench.api import Outcome, Param, solver
from instances.edgematch.model import Solution


@solver("test-sleep", family="edgematch", paradigm="native", backend="python",
        params=[Param("seconds", 60.0)])
def sleep_past_budget(instance, budget, seed, seconds):
    """Sleeps, ignoring its budget: the watchdog must kill it (timeout)."""
    time.sleep(seconds)
    return Outcome("unknown")


@solver("test-litter", family="edgematch", paradigm="native", backend="python",
        params=[Param("report", "")])
def litter_and_sleep(instance, budget, seed, report):
    """Leaves a file in its temporary folder, writes that file's path to ``report``, then
    sleeps past its budget: the harness must remove the file with the killed worker."""
    fd, litter = tempfile.mkstemp(suffix="-litter.mps")
    os.close(fd)
    Path(report).write_text(litter)
    time.sleep(60)
    return Outcome("unknown")


@solver("test-alloc", family="edgematch", paradigm="native", backend="python",
        params=[Param("mb", 3000)])
def allocate_past_budget(instance, budget, seed, mb):
    """Touches ``mb`` MB of memory, holding it: the memory watch must kill it (memout)."""
    blocks = []
    for _ in range(mb // 50):
        blocks.append(bytearray(50 * 1024 * 1024))
        time.sleep(0.01)
    time.sleep(30)
    return Outcome("unknown")


@solver("test-abort", family="edgematch", paradigm="native", backend="python")
def abort_worker(instance, budget, seed):
    """Aborts the worker process (crash)."""
    os.abort()


@solver("test-raise", family="edgematch", paradigm="native", backend="python")
def raise_error(instance, budget, seed):
    """Raises (error, with the message kept)."""
    raise RuntimeError("deliberate failure for the test")


@solver("test-corrupt", family="edgematch", paradigm="native", backend="python")
def corrupt_board(instance, budget, seed):
    """Claims solved with every cell holding piece 0 (wrong: a piece used many times)."""
    cells = tuple((0, 0) for _ in range(instance.rows * instance.cols))
    return Outcome("solved", solution=Solution(instance.rows, instance.cols, cells))


@solver("test-infeasible", family="edgematch", paradigm="native", backend="python")
def claim_infeasible(instance, budget, seed):
    """Claims infeasible (wrong on a planted instance)."""
    return Outcome("infeasible")


@solver("test-noop", family="edgematch", paradigm="native", backend="python",
        params=[Param("delay", 0.0, min=0.0)])
def give_up(instance, budget, seed, delay):
    """Returns unknown at once (or after ``delay`` s): measures the runner's overhead."""
    if delay:
        time.sleep(delay)
    return Outcome("unknown", counters={"nodes": 0})


_HELD: list[bytearray] = []


@solver("test-hold", family="edgematch", paradigm="native", backend="python",
        params=[Param("mb", 600)])
def hold_memory(instance, budget, seed, mb=600):
    """Touches ``mb`` MB and keeps it after the run returns (a module-level list), so the
    worker still holds it when its next run starts."""
    _HELD.append(bytearray(mb * 1024 * 1024))
    return Outcome("unknown")
