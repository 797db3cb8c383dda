"""What a general solver keeps off its budget: the time to read its answer back, so that it
stops before the harness's watchdog does.

The margin is ``MARGIN_S``, or 5 % of the budget when that is less (a tiny budget keeps most of
its time). ``time_limit`` is what is left as a duration, for an engine's own time limit
(CP-SAT, HiGHS, CBC); ``stop_time`` the same as a ``time.monotonic()`` instant, for a caller
that checks the clock itself (SAT engines, xcover between two solutions).
"""

from __future__ import annotations

from bench.api import Budget

MARGIN_S = 0.05


def margin(budget: Budget) -> float:
    """The seconds kept off ``budget``: ``MARGIN_S``, or 5 % of the budget when less."""
    return min(MARGIN_S, 0.05 * budget.wall_s)


def time_limit(budget: Budget) -> float:
    """What is left of the budget, minus the margin (may be negative: no time left)."""
    return budget.remaining() - margin(budget)


def stop_time(budget: Budget) -> float:
    """The ``time.monotonic()`` instant to stop by: the deadline less the margin."""
    return budget.deadline - margin(budget)
