"""A uniformly random Latin square: the Markov chain of Jacobson and Matthews (1996).

A Latin square of order ``n`` is its *incidence cube*: ``n**3`` entries ``M[r][c][s]``, 1 where
cell ``(r, c)`` holds symbol ``s``, so that every line of the cube (fix two coordinates, run
the third) sums to 1. Jacobson and Matthews ("Generating uniformly distributed random Latin
squares", J. Combin. Designs 4, 1996) widen the state space to *improper* cubes: every line
still sums to 1, but exactly one entry is -1 (its three lines then hold two 1s each). A move:

- from a proper cube, pick an entry ``(r, c, s)`` that is 0, uniformly; let ``r'``, ``c'``,
  ``s'`` be the positions of the 1s in its three lines;
- from an improper cube, take the -1 entry ``(r, c, s)`` and pick ``r'``, ``c'``, ``s'`` each
  uniformly among the two 1s of its line;
- then add 1 to ``(r, c, s)``, ``(r, c', s')``, ``(r', c, s')``, ``(r', c', s)`` and subtract
  1 from ``(r, c, s')``, ``(r, c', s)``, ``(r', c, s)``, ``(r', c', s')``: every line keeps its
  sum; the cube is improper afterwards exactly when ``(r', c', s')`` was 0 (it is the new -1).

The chain is connected and its stationary distribution is uniform on the proper cubes (their
theorem); so is that of the chain watched only at its proper cubes (the trace of a chain on a
subset keeps the stationary distribution restricted to it). ``random_square`` starts from the
cyclic square ``(r + c) mod n`` and stops at the ``visits``-th proper cube it passes through
after a move: a count fixed in advance, so the output tends to the uniform distribution.
Stopping instead at the first proper cube after a fixed number of moves is biased: the proper
square ending an improper excursion is more likely one with many improper neighbours, that is
few intercalates (2 x 2 Latin subsquares) in it and its conjugates. At order 4 that rule
visibly favours the squares of the cyclic group's type: those of the Klein group's type have
no improper neighbour at all (every 0 of their cube lies in a 2 x 2 x 2 box of four 1s).

How long to run is not known in theory; the QWH literature makes about ``n**3`` moves (and
lsencode counts its shuffles in proper squares). Roughly one move in ``n`` ends on a proper cube,
so the default of ``n**2`` visits is about ``n**3`` moves. That is generous by a simple count:
a move rewrites four cells of the square, so ``n**3`` moves rewrite every cell about ``4 n``
times over, far beyond the ``ln(n**2)`` passes a coupon collector needs to touch each cell
once. The family's tests check the output against the exact uniform distribution where every
square can be listed (12 of order 3, 576 of order 4: a chi-square statistic over many
independent chains), and check that the mean number of intercalates of order-11 squares after
``n**2`` visits is that after four times as many.

Plain Python: three indexes find the 1s of a line in O(1) (``at_rc`` the symbols of a cell,
``at_rs`` the columns of a symbol in a row, ``at_cs`` the rows of a symbol in a column: one
entry each, two on the lines of the -1), so a move costs a few dozen list operations.
"""

from __future__ import annotations

import random


def cyclic_square(order: int) -> list[int]:
    """The square ``(r + c) mod n``, row-major."""
    return [(r + c) % order for r in range(order) for c in range(order)]


def random_square(order: int, visits: int, rng: random.Random) -> list[int]:
    """A Latin square of ``order`` (row-major symbols): the ``visits``-th proper cube the
    chain passes through, from the cyclic square (which ``visits=0`` returns)."""
    n = order
    cube = [0] * (n * n * n)  # entry (r, c, s) at (r * n + c) * n + s
    at_rc: list[list[int]] = [[] for _ in range(n * n)]  # [r * n + c] -> symbols s
    at_rs: list[list[int]] = [[] for _ in range(n * n)]  # [r * n + s] -> columns c
    at_cs: list[list[int]] = [[] for _ in range(n * n)]  # [c * n + s] -> rows r
    for r in range(n):
        for c in range(n):
            s = (r + c) % n
            cube[(r * n + c) * n + s] = 1
            at_rc[r * n + c].append(s)
            at_rs[r * n + s].append(c)
            at_cs[c * n + s].append(r)

    def add(r: int, c: int, s: int) -> None:
        i = (r * n + c) * n + s
        value = cube[i]
        cube[i] = value + 1
        if value == 0:
            at_rc[r * n + c].append(s)
            at_rs[r * n + s].append(c)
            at_cs[c * n + s].append(r)

    def sub(r: int, c: int, s: int) -> None:
        i = (r * n + c) * n + s
        value = cube[i]
        cube[i] = value - 1
        if value == 1:
            at_rc[r * n + c].remove(s)
            at_rs[r * n + s].remove(c)
            at_cs[c * n + s].remove(r)

    rand = rng.random
    improper: tuple[int, int, int] | None = None
    seen = 0
    while seen < visits:
        if improper is None:
            while True:  # a 0 entry, uniformly: reject the 1s (one in n)
                r, c, s = int(rand() * n), int(rand() * n), int(rand() * n)
                if cube[(r * n + c) * n + s] == 0:
                    break
            r2, c2, s2 = at_cs[c * n + s][0], at_rs[r * n + s][0], at_rc[r * n + c][0]
        else:
            r, c, s = improper
            r2 = at_cs[c * n + s][rand() < 0.5]
            c2 = at_rs[r * n + s][rand() < 0.5]
            s2 = at_rc[r * n + c][rand() < 0.5]
        add(r, c, s)
        add(r, c2, s2)
        add(r2, c, s2)
        add(r2, c2, s)
        sub(r, c, s2)
        sub(r, c2, s)
        sub(r2, c, s)
        sub(r2, c2, s2)
        improper = (r2, c2, s2) if cube[(r2 * n + c2) * n + s2] < 0 else None
        seen += improper is None
    return [at_rc[cell][0] for cell in range(n * n)]


__all__ = ["cyclic_square", "random_square"]
