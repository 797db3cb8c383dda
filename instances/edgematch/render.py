"""The board as text, for people: piece id and rotation per cell, then the score."""

from __future__ import annotations

from typing import Any

from instances.edgematch.check import check
from instances.edgematch.model import Instance


def _label(instance: Instance, value: Any) -> str:
    """``17/1`` (external id / rotation), ``.`` for an empty cell, ``?`` for a bad one."""
    if value is None:
        return "."
    try:
        piece, rot = value
        if not 0 <= piece < len(instance.ids):
            return "?"
        return f"{instance.ids[piece]}/{rot}"
    except (TypeError, ValueError):
        return "?"


def render(instance: Instance, solution: Any) -> str:
    """A right-aligned grid of ``id/rot`` cells, then ``score S/M`` and the verdict.

    Never raises on a bad board (it is for looking at wrong answers too): cells that cannot be
    read show as ``?`` and the verdict line says what is wrong.
    """
    rows = getattr(solution, "rows", instance.rows)
    cols = getattr(solution, "cols", instance.cols)
    cells = list(getattr(solution, "cells", ()))
    labels = [_label(instance, v) for v in cells]
    width = max([len(x) for x in labels] + [len(str(max(instance.ids, default=0))) + 2]) + 2
    lines = [f"{instance.name or 'edgematch'} {instance.rows}x{instance.cols}"]
    for row in range(rows):
        part = labels[row * cols:(row + 1) * cols]
        lines.append("".join(label.rjust(width) for label in part))
    verdict = check(instance, solution)
    shown = "-" if verdict.score is None else verdict.score
    status = "solved" if verdict.solved else ("legal" if verdict.legal else "illegal")
    note = f"{status}: {verdict.reason}" if verdict.reason else status
    lines.append(f"score {shown}/{verdict.max_score}  ({note})")
    return "\n".join(lines)
