"""The independent checker: replay the blank's moves from the start, each one legal, and end on
the goal. The score of a solution is its length (fewer is better: ``OBJECTIVE = "min"``); the
harness compares it with the solver's claimed length and with a known optimum."""

from __future__ import annotations

from instances.common import Verdict
from instances.tiles.model import Instance, Solution, apply_moves


def check(instance: Instance, solution: Solution) -> Verdict:
    state, legal_moves = apply_moves(instance, solution.moves)
    if legal_moves < len(solution.moves):
        return Verdict(False, False, None, None,
                       f"move {legal_moves + 1} ({solution.moves[legal_moves]}) takes the blank "
                       "off the board")
    if state != instance.goal_tiles:
        wrong = sum(a != b for a, b in zip(state, instance.goal_tiles, strict=True))
        return Verdict(True, False, None, None,
                       f"after {len(solution.moves)} moves {wrong} cells differ from the goal")
    return Verdict(True, True, len(solution.moves), None)
