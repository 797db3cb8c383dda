"""asv benchmarks: the hot paths whose regressions users would feel (run ``asv run`` or
``asv dev`` from the project folder; ``asv.conf.json`` points here)."""

from __future__ import annotations

import time

import instances
from bench.api import REGISTRY, Budget
from bench.registry import load_solvers

PLANTED = instances.family("edgematch").GENERATORS["planted"]


class EdgematchGenerateAndCheck:
    """The family's own costs: building a planted 16x16 board and checking its solution."""

    def setup(self):
        self.generated = PLANTED({"n": 16, "hints": 5}, 1)
        self.check = instances.family("edgematch").check

    def time_planted_16(self):
        PLANTED({"n": 16, "hints": 5}, 2)

    def time_check_16(self):
        self.check(self.generated.instance, self.generated.secret)


class DfsRestarts:
    """Search speed of dfs-restarts: a fixed node count on a planted 12x12 (no budget noise)."""

    nodes = 5_000_000

    def setup(self):
        load_solvers()
        self.spec = REGISTRY["edgematch/dfs-restarts"]
        self.spec.prepare()
        self.instance = PLANTED({"n": 12, "hints": 5}, 1).instance
        self.params = {**self.spec.defaults(), "max_nodes": self.nodes}

    def _run(self):
        budget = Budget(600, 4000, 1, time.monotonic() + 600)
        return self.spec.solve(self.instance, budget, 1, **self.params)

    def time_5M_nodes_12x12(self):
        self._run()

    def track_nodes_per_second(self):
        start = time.perf_counter()
        outcome = self._run()
        return outcome.counters["nodes"] / (time.perf_counter() - start)

    track_nodes_per_second.unit = "nodes/s"


class CpsatSmall:
    """CP-SAT on a planted 8x8 with one worker: model building plus solving."""

    def setup(self):
        load_solvers()
        self.spec = REGISTRY["edgematch/cpsat"]
        self.instance = PLANTED({"n": 8, "hints": 5}, 1).instance

    def time_planted_8(self):
        budget = Budget(60, 4000, 1, time.monotonic() + 60)
        self.spec.solve(self.instance, budget, 1, **self.spec.defaults())
