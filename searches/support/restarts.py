"""Restart schedules for the randomised searches: how long run number ``i`` may go before the
search starts over with fresh random choices.

- ``luby``: ``unit`` times the i-th term of Luby, Sinclair and Zuckerman's sequence
  1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ..., within a log factor of the best fixed cutoff without
  knowing it, and unbounded, so a search restarted on it stays complete;
- ``geometric``: ``unit * factor ** i``;
- none (``off``): one run, never cut.

The unit is whatever the search counts (nodes for edge matching, fails for Latin squares).
The modes are the positions in each search's own names for them (``luby``, ``geometric``, then
``none`` or ``off``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

MODE_LUBY, MODE_GEOMETRIC, MODE_NONE = 0, 1, 2
#: A run limit that is never reached (counts are int64).
NEVER = 1 << 62
#: What this module's kernels compile in (``searches.support.numba_cache``).
JIT_SOURCES = (__file__,)


@njit(cache=True, nogil=True)
def luby(i: int) -> int:
    """The i-th term (1-based) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 ..."""
    while True:
        k = 1
        while (1 << k) - 1 < i:
            k += 1
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1


@njit(cache=True, nogil=True)
def run_length(mode: int, unit: int, factor: float, run: int) -> int:
    """The limit of run number ``run`` (0-based) under the schedule, at least 1."""
    if mode == MODE_NONE:
        return NEVER
    if mode == MODE_LUBY:
        length = float(unit) * luby(run + 1)
    else:
        length = float(unit) * factor ** run
    return NEVER if length >= NEVER else max(1, np.int64(length))


__all__ = ["JIT_SOURCES", "MODE_GEOMETRIC", "MODE_LUBY", "MODE_NONE", "NEVER", "luby",
           "run_length"]
