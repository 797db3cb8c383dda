"""``nqueens/planted``: a random solution, then ``given`` of its queens kept.

The solution comes from a depth-first search that tries each row's columns in an order drawn
from ``random.Random(seed)``, so the same parameters and seed give the same board everywhere.
The kept queens are a random choice of rows. The instance is feasible by construction (the
planted solution is the secret), though it may have other solutions.
"""

from __future__ import annotations

import random
from typing import Any

from instances.common import Generated, int_param
from instances.family import Generator

from nqueens_family.model import MAX_N, Instance, Solution

WHERE = "nqueens/planted"


def random_solution(n: int, rng: random.Random) -> list[int]:
    """The columns of ``n`` queens no two of which attack each other (n = 1 or n >= 4)."""
    cols: list[int] = []

    def extend(row: int, used: int, diag: int, anti: int) -> bool:
        if row == n:
            return True
        order = list(range(n))
        rng.shuffle(order)
        for col in order:
            bits = (1 << col, 1 << (row + col), 1 << (row - col + n - 1))
            if used & bits[0] or diag & bits[1] or anti & bits[2]:
                continue
            cols.append(col)
            if extend(row + 1, used | bits[0], diag | bits[1], anti | bits[2]):
                return True
            cols.pop()
        return False

    extend(0, 0, 0, 0)
    return cols


def planted(params: dict[str, Any], seed: int) -> Generated:
    n = int_param(WHERE, "n", params["n"], 4, MAX_N)
    given = int_param(WHERE, "given", params["given"], 0, n)
    rng = random.Random(seed)
    cols = random_solution(n, rng)
    rows = sorted(rng.sample(range(n), given))
    instance = Instance(n, tuple((row, cols[row]) for row in rows),
                        f"planted-n{n}-g{given}-s{seed}")
    return Generated(instance, Solution(tuple(cols)), True, {"n": n, "given": given})


PLANTED = Generator("nqueens", "planted",
                    {"n": (8, f"board side, 4..{MAX_N}"), "given": (3, "queens kept, 0..n")},
                    planted, doc=__doc__ or "")
