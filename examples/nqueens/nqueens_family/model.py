"""N-queens completion: an ``n`` x ``n`` board with some queens given; place a queen on every
row so that no two queens share a column or a diagonal.

Squares are ``(row, col)`` from 0, row 0 at the top. An answer gives the column of each row's
queen. The id is a hash of the board side and the given queens (the name is cosmetic).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from instances.common import InstanceError, content_hash

MAX_N = 32


@dataclass(frozen=True)
class Instance:
    """A board side and the given queens, ``(row, col)`` pairs (kept sorted)."""

    n: int
    given: tuple[tuple[int, int], ...]
    name: str = ""

    def __post_init__(self) -> None:
        if not 1 <= self.n <= MAX_N:
            raise InstanceError(f"board side {self.n} is outside 1..{MAX_N}")
        given = tuple(sorted((int(row), int(col)) for row, col in self.given))
        for row, col in given:
            if not (0 <= row < self.n and 0 <= col < self.n):
                raise InstanceError(f"the queen ({row}, {col}) is off the {self.n}x{self.n} board")
        if len(set(given)) != len(given):
            raise InstanceError("a square is given twice")
        object.__setattr__(self, "given", given)

    def to_json(self) -> dict[str, Any]:
        return {"family": "nqueens", "n": self.n, "given": [list(q) for q in self.given],
                "name": self.name}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Instance:
        return cls(int(data["n"]), tuple((int(r), int(c)) for r, c in data["given"]),
                   str(data.get("name", "")))

    @property
    def instance_id(self) -> str:
        return content_hash({"family": "nqueens", "n": self.n,
                             "given": [list(q) for q in self.given]})


@dataclass(frozen=True)
class Solution:
    """``cols[row]``: the column of the queen on ``row``."""

    cols: tuple[int, ...]

    def to_json(self, instance: Instance | None = None) -> dict[str, Any]:
        return {"queens": list(self.cols)}

    @classmethod
    def from_json(cls, data: Any, instance: Instance | None = None) -> Solution:
        queens = data.get("queens") if isinstance(data, dict) else None
        if not isinstance(queens, list) or not all(
                isinstance(c, int) and not isinstance(c, bool) for c in queens):
            raise InstanceError('an answer is {"queens": [the column of each row\'s queen]}')
        return cls(tuple(queens))
