"""A board for people, and the board a solution leads to."""

from __future__ import annotations

from instances.tiles.model import Instance, Solution, apply_moves


def render(instance: Instance, solution: Solution | None = None) -> str:
    state = instance.tiles if solution is None else apply_moves(instance, solution.moves)[0]
    width = len(str(instance.ncells - 1))
    lines = [" ".join((str(t) if t else ".").rjust(width)
                      for t in state[r * instance.cols:(r + 1) * instance.cols])
             for r in range(instance.rows)]
    if solution is not None:
        lines.insert(0, f"{len(solution)} moves: {solution.moves}")
    return "\n".join(lines)
