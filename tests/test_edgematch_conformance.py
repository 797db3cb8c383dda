"""Every registered edge-matching solver, held to the same contract on the same boards.

A new solver (a plugin included, once registered) is tested here without a line of its own:
it must solve small planted boards with answers the checker accepts, and prove a board with an
impossible hint infeasible (or at least never claim it solved).
"""

from __future__ import annotations

import pytest

from bench.api import REGISTRY
from bench.registry import load_solvers
from instances.edgematch import GENERATORS, Hint, Instance, check

from helpers import budget

load_solvers()
# the built-in solvers: not the misbehaving ones other test modules load (tests/plugins/faulty.py,
# bench/chaos.py)
SOLVERS = sorted(name for name, spec in REGISTRY.items()
                 if spec.family == "edgematch" and not spec.name.startswith(("test-", "chaos-")))


def solve(name: str, instance: Instance, seconds: float = 20.0):
    spec = REGISTRY[name]
    if spec.prepare is not None:
        spec.prepare()
    return spec.solve(instance, budget(seconds), 1, **spec.defaults())


@pytest.mark.parametrize("hints", [0, "max"])
@pytest.mark.parametrize("n", [4, 5])
@pytest.mark.parametrize("name", SOLVERS)
def test_solves_small_planted_boards_with_checked_answers(name, n, hints):
    instance = GENERATORS["planted"]({"n": n, "border": 5, "inner": 17, "hints": hints},
                                     n + (5 if hints == "max" else 0)).instance
    out = solve(name, instance)
    assert out.status == "solved", f"{name}: {out.status}"
    verdict = check(instance, out.solution)
    assert verdict.solved, verdict.reason
    for h in instance.hints:
        assert out.solution.cells[h.row * instance.cols + h.col] == (h.piece, h.rot)


@pytest.mark.parametrize("name", SOLVERS)
def test_an_impossible_hint_is_never_solved(name):
    """The planted top-left corner piece, pinned at the top-left turned the wrong way."""
    gen = GENERATORS["planted"]({"n": 4, "border": 2, "inner": 4}, 1)
    piece, rot = gen.secret.cells[0]
    instance = Instance(rows=4, cols=4, colors=6, pieces=gen.instance.pieces,
                        hints=(Hint(piece, 0, 0, (rot + 1) % 4),))
    out = solve(name, instance)
    assert out.status == "infeasible", f"{name}: {out.status}"


def test_every_paradigm_is_covered():
    assert {REGISTRY[s].paradigm for s in SOLVERS} == {"native", "cpsat", "sat", "xcc", "ilp",
                                                       "clique"}
