"""asv benchmarks of edge matching: the family's own costs, dfs-restarts' search speed, and
the encoders (run ``asv run`` from the project folder; ``asv.conf.json`` points at this folder;
the other families' benchmarks are the sibling modules: harness, tiles, sudoku, games).

Every instance is the family's planted generator at a fixed seed: the same board on every
machine, no data folder needed.
"""

from __future__ import annotations

import time

import instances
from bench.api import REGISTRY
from bench.plan.registry import load_solvers
from encoders import (
    edgematch_clique,
    edgematch_cpsat,
    edgematch_ilp,
    edgematch_sat,
    edgematch_xcc,
)

from .common import NUMBA_TIMEOUT, ns_per, open_budget

PLANTED = instances.family("edgematch").generators["planted"]
#: The board dfs-restarts solves in the track benchmark (about 28 M nodes, 0.3 s) and its seed.
SOLVE_BOARD, SOLVE_SEED = ({"n": 10, "hints": 5}, 2), 1


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
    """Search speed of dfs-restarts: a fixed node count on a planted 12x12 (no budget noise),
    and the nodes it needs to solve a planted 10x10 (machine-independent)."""

    nodes = 5_000_000
    timeout = NUMBA_TIMEOUT

    def setup(self):
        load_solvers()
        self.spec = REGISTRY["edgematch/dfs-restarts"]
        self.spec.prepare()
        self.instance = PLANTED({"n": 12, "hints": 5}, 1).instance
        self.params = {**self.spec.defaults(), "max_nodes": self.nodes}
        self.solvable = PLANTED(*SOLVE_BOARD).instance

    def _run(self):
        return self.spec.solve(self.instance, open_budget(), 1, **self.params)

    def time_5M_nodes_12x12(self):
        self._run()

    def track_ns_per_node(self):
        """1e9 / this = nodes per second (about 100 M on this machine's core)."""
        start = time.perf_counter()
        outcome = self._run()
        return ns_per(time.perf_counter() - start, outcome.counters["nodes"])

    track_ns_per_node.unit = "ns/node"

    def track_nodes_to_solve_10x10(self):
        """Nodes to solve the planted 10x10 (seed 2) with solver seed 1: the restart schedule
        and the shuffles are seeded, so the count is exact; it grows if the search gets worse."""
        outcome = self.spec.solve(self.solvable, open_budget(), SOLVE_SEED,
                                  **self.spec.defaults())
        if outcome.status != "solved":
            raise RuntimeError(f"dfs-restarts did not solve the planted 10x10: {outcome.status}")
        return int(outcome.counters["nodes"])

    track_nodes_to_solve_10x10.unit = "nodes"


class CpsatSmall:
    """CP-SAT on a planted 8x8 with one worker: model building plus solving."""

    def setup(self):
        load_solvers()
        self.spec = REGISTRY["edgematch/cpsat"]
        self.instance = PLANTED({"n": 8, "hints": 5}, 1).instance

    def time_planted_8(self):
        self.spec.solve(self.instance, open_budget(60.0), 1, **self.spec.defaults())


def _clique_graph(instance):
    """The clique solver's encode step (placements, exact edge count, the igraph graph) with
    its default parameters."""
    defaults = REGISTRY["edgematch/clique"].defaults()
    return edgematch_clique._encode(instance, defaults["symmetry"], defaults["max_edges"],
                                    16000)


def _clique_size(instance) -> tuple[int, int]:
    """Vertices and edges, counted without building the graph (1.5 s of the encode)."""
    symmetry = REGISTRY["edgematch/clique"].defaults()["symmetry"]
    placements = edgematch_clique.placements(instance, symmetry)
    return placements.count, edgematch_clique.count_edges(instance, placements)


def _sized(encode, size):
    return lambda instance: size(encode(instance))


#: paradigm -> (encode the board with the solver's defaults, the model's (variables,
#: constraints) as the solver reports them in model_vars / model_constraints)
ENCODERS = {
    "sat": (edgematch_sat.encode, _sized(edgematch_sat.encode,
                                         lambda e: (e.cnf.nvars, e.cnf.nclauses))),
    "xcc": (edgematch_xcc.build, _sized(edgematch_xcc.build,
                                        lambda m: (len(m.problem.items), len(m.problem.options)))),
    "cpsat": (edgematch_cpsat.build, _sized(edgematch_cpsat.build, lambda e: (
        len(e.model.proto.variables), len(e.model.proto.constraints)))),
    "ilp": (edgematch_ilp.build, _sized(edgematch_ilp.build, lambda m: (m.ncols, m.nrows))),
    "clique": (_clique_graph, _clique_size),
}


class EdgematchEncode:
    """Encode time per paradigm on a fixed planted 8x8 (5 hints, seed 1), and the model's size
    (machine-independent: an encoding that grew shows here before it shows in solve times)."""

    params = list(ENCODERS)
    param_names = ["paradigm"]
    repeat = (1, 10, 10.0)

    def setup(self, paradigm):
        load_solvers()
        self.instance = PLANTED({"n": 8, "hints": 5}, 1).instance
        self.encode, self.size = ENCODERS[paradigm]

    def time_encode_8x8(self, paradigm):
        self.encode(self.instance)

    def track_model_vars_8x8(self, paradigm):
        return int(self.size(self.instance)[0])

    track_model_vars_8x8.unit = "variables"

    def track_model_constraints_8x8(self, paradigm):
        return int(self.size(self.instance)[1])

    track_model_constraints_8x8.unit = "constraints"
