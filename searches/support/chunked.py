"""Running a compiled search under the harness budget, a chunk of nodes at a time.

numba code cannot read the clock, so a search runs ``search.run(n)`` for at most ``n`` nodes
and returns; between chunks the budget is looked at. The first chunk is a fixed size; later
ones are sized from the node rate measured so far to last about ``chunk_s`` seconds (never past
the budget less ``margin_s``, kept for building the answer), so the check costs nothing and the
search stops in time. The chunk sizes never change what the search does, only where it pauses.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Protocol

from bench.api import Budget


def control(index: int) -> property:
    """A read-only counter of a search's control vector ``ctl`` (the kernel writes it; the
    Python side reads nodes, guesses, ... from it between chunks)."""
    return property(lambda self: int(self.ctl[index]))


class ChunkedSearch(Protocol):
    nodes: int
    status: int

    def run(self, nodes: int) -> int: ...


def run_in_chunks(search: ChunkedSearch, budget: Budget, status: int, paused: int, *,
                  first_chunk: int, min_chunk: int, max_nodes: int = 0,
                  chunk_s: float = 0.05, margin_s: float = 0.02) -> int:
    """Run chunks while the status is ``paused``, until ``max_nodes`` (0 = no limit) or the
    budget ends; returns the last status."""
    rate = 0.0
    while status == paused:
        remaining = budget.remaining() - margin_s
        size = first_chunk if rate == 0 else max(min_chunk, int(rate * min(chunk_s, remaining)))
        if max_nodes:
            size = min(size, max_nodes - search.nodes)
        if remaining <= 0 or size <= 0:
            break
        before, t = search.nodes, time.perf_counter()
        status = search.run(size)
        rate = (search.nodes - before) / max(time.perf_counter() - t, 1e-6)
    return status


@dataclass(frozen=True)
class Chunking:
    """How the searches of one module run in chunks: the status a paused chunk returns and the
    chunk sizes. ``drive`` runs under a budget (the solvers), ``finish`` to the end without one
    (tests and benchmarks)."""

    paused: int
    first_chunk: int = 100_000
    min_chunk: int = 10_000
    chunk_s: float = 0.05
    margin_s: float = 0.02

    def drive(self, search: ChunkedSearch, budget: Budget, max_nodes: int = 0) -> int:
        """Run chunks until the search ends, ``max_nodes`` (0 = no limit) or the budget ends."""
        return run_in_chunks(search, budget, search.status, self.paused,
                             first_chunk=self.first_chunk, min_chunk=self.min_chunk,
                             max_nodes=max_nodes, chunk_s=self.chunk_s, margin_s=self.margin_s)

    def finish(self, search: ChunkedSearch) -> ChunkedSearch:
        while search.run(1 << 62) == self.paused:
            pass
        return search
