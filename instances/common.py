"""What every family shares: the error for bad input, the checker's verdict, content hashes.

This module (like all of ``instances/``) imports nothing else of the project: checkers must stay
independent of every solver and of the harness.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


class InstanceError(ValueError):
    """Bad input: a malformed file, an out-of-range parameter, an unknown generator.

    The message names where the problem is (``path:line``, or the parameter) and why, so the CLI
    can print it as the one line a user needs.
    """

    def __init__(self, reason: str, path: str | None = None, line: int | None = None):
        self.reason = reason
        self.path = path
        self.line = line
        where = ""
        if path is not None:
            where = f"{path}:{line}: " if line is not None else f"{path}: "
        super().__init__(where + reason)


@dataclass(frozen=True)
class Verdict:
    """What a family's checker says of an answer.

    ``legal``: the answer obeys every rule (a partial board can be legal). ``solved``: it is a
    complete, correct answer. ``score``/``max_score``: partial credit where the family has one
    (edge matching: matched interior joins), else None. ``reason``: why it is not legal or not
    solved ("" when solved).
    """

    legal: bool
    solved: bool
    score: int | None = None
    max_score: int | None = None
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"legal": self.legal, "solved": self.solved, "score": self.score,
                "max_score": self.max_score, "reason": self.reason}


@dataclass(frozen=True)
class Generated:
    """An instance as a generator or a file gives it, with what solvers must never see.

    ``secret`` is a known solution (a planted board, the solution lines of a file) or None.
    ``feasible`` is True when the instance is known to have a solution (planted), None when
    unknown. ``params`` are the generator's resolved parameters (or those a file declares), which
    become the ``p_*`` columns of the results table. ``known_optimum``/``max_score`` where known.
    ``known_solutions``: how many solutions the instance has where that is known (1 for a
    planted Sudoku, unique by construction).
    """

    instance: Any
    secret: Any = None
    feasible: bool | None = None
    params: dict[str, Any] = field(default_factory=dict)
    source: str = ""
    known_optimum: float | None = None
    known_solutions: int | None = None


def content_hash(payload: Any, length: int = 16) -> str:
    """A stable hash of a JSON-serialisable value (sorted keys, no whitespace): ids and keys."""
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:length]


def read_text(path: str | Path) -> str:
    """A file's text; InstanceError naming the file when it cannot be read or decoded."""
    try:
        return Path(path).read_text()
    except (OSError, UnicodeDecodeError) as exc:
        raise InstanceError(f"cannot read: {exc}", str(path)) from None
