"""What the asv benchmark modules share: a budget that never binds, and the cost per unit.

A benchmark measures a fixed amount of work (a fixed instance solved, a fixed node count), so
the budget is only a safety net: generous, never the thing that stops a search (a search cut by
its budget would measure the budget, not the solver).
"""

from __future__ import annotations

import time

from bench.api import Budget

#: Seconds allowed to one benchmark's setup plus its runs (asv's default is 60): a fresh asv
#: environment compiles the numba kernels on first use, about 20 s a kernel on this machine.
NUMBA_TIMEOUT = 600.0


def open_budget(seconds: float = 600.0, cores: int = 1, mem_mb: int = 4000) -> Budget:
    """A budget starting now that a benchmark never reaches."""
    return Budget(seconds, mem_mb, cores, time.monotonic() + seconds)


def ns_per(seconds: float, count: float) -> float:
    """Nanoseconds per unit of work (a node, a move, a lookup): lower is better, which is how
    asv reads every number (a rate such as nodes/s would be flagged backwards by ``asv
    continuous``); 1e9 / this is the rate."""
    return seconds * 1e9 / max(count, 1)
