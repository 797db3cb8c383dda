"""The family's generators: ``latin/qwh`` (a quasigroup with holes) and ``latin/qcp`` (a
quasigroup completion problem), as lsencode (Gomes et al.) makes them.

``latin/qwh`` (Achlioptas, Gomes, Kautz and Selman, "Generating satisfiable problem instances",
AAAI 2000): a uniformly random Latin square of order ``n`` (the Jacobson-Matthews chain of
``chain`` from the cyclic square, stopped at the ``mix``-th proper square it passes through:
``n**2`` unless given, about ``n**3`` moves), then ``holes`` cells
emptied, ``random`` (a uniform set) or ``balanced`` (lsencode's balanced model, see
``patterns``). The square is the secret, so the instance is feasible by construction; it may
have other completions.

``latin/qcp`` (Gomes and Selman, "Problem structure in the presence of perturbations", AAAI
1997; lsencode's ``new qcp`` and ``new bqcp``): the ``n * n - holes`` given cells, picked
``random`` or ``balanced``, get symbols one at a time, each drawn uniformly among those its
row and column do not hold yet; an attempt that leaves an empty cell with no symbol its row
and column allow is dropped and the next one made (at most ``MAX_ATTEMPTS``; the successful
``attempt`` is recorded). That is all lsencode filters: its forward check of the result looks
for two 1s in a line of the incidence cube, which its propagation never makes. The square may
have no completion. What the generator knows is recorded as ``feasible`` (``known_by`` names
the test of ``completion`` that knows it): False when forward checking refutes the square; True
when forward checking completes it (the completion is the secret) or at most ``n - 1`` cells
are given (Evans' bound); None otherwise.

Either takes ``holes`` (a count) or ``fraction`` (of the ``n * n`` cells, rounded half up),
not both; the default fractions are 0.42 for ``qwh`` and 0.58 (42% of the cells given, where
Gomes and Selman put QCP's phase transition) for ``qcp``. Every draw comes from one
``random.Random(seed)``: the same parameters and seed give the same square everywhere.
"""

from __future__ import annotations

import random
from typing import Any

from instances.common import Generated, InstanceError, choice_param, float_param, int_param
from instances.family import Generator
from instances.latin.chain import random_square
from instances.latin.completion import evans_completable, forward_check
from instances.latin.model import HOLE, MAX_ORDER, Instance, Solution
from instances.latin.patterns import PATTERNS, pick_cells

#: Proper squares the chain passes through per call: about ``n`` moves each, a move some
#: microseconds in Python, so this bounds a call to seconds (the default ``n**2`` is below it
#: up to order 100).
MAX_MIX = 10_000
#: Attempts at a QCP square before giving up (lsencode makes 1000; an attempt of order ``n``
#: costs about ``n**3`` steps, and where they fail they almost all do).
MAX_ATTEMPTS = 200
DEFAULT_FRACTION = {"qwh": 0.42, "qcp": 0.58}


def hole_count(where: str, params: dict[str, Any], order: int, kind: str) -> tuple[int, float]:
    """The number of holes and their fraction, from ``holes`` or ``fraction``."""
    cells = order * order
    if params.get("holes") is not None:
        if params.get("fraction") is not None:
            raise InstanceError(f"{where}: give holes or fraction, not both")
        holes = int_param(where, "holes", params["holes"], 0, cells, f"for order={order}")
        return holes, holes / cells
    fraction = params.get("fraction")
    fraction = DEFAULT_FRACTION[kind] if fraction is None else fraction
    fraction = float_param(where, "fraction", fraction, 0.0, 1.0)
    return int(fraction * cells + 0.5), fraction


def order_param(where: str, params: dict[str, Any]) -> int:
    return int_param(where, "order", params.get("order", 10), 2, MAX_ORDER)


def make_qwh(params: dict[str, Any], seed: int) -> Generated:
    where = "latin/qwh"
    n = order_param(where, params)
    holes, fraction = hole_count(where, params, n, "qwh")
    pattern = choice_param(where, "pattern", params.get("pattern", "random"), PATTERNS)
    mix = params.get("mix")
    mix = min(n**2, MAX_MIX) if mix is None else int_param(where, "mix", mix, 0, MAX_MIX)
    rng = random.Random(seed)
    square = random_square(n, mix, rng)
    cells = list(square)
    for cell in pick_cells(n, holes, pattern, rng):
        cells[cell] = HOLE
    name = f"qwh-o{n}-h{holes}{'-bal' if pattern == 'balanced' else ''}-s{seed}"
    resolved = {"order": n, "holes": holes, "fraction": fraction, "pattern": pattern,
                "mix": mix}
    return Generated(Instance(n, tuple(cells), name), Solution(n, tuple(square)), True,
                     resolved)


def preassign(order: int, given: list[int], rng: random.Random) -> list[int] | None:
    """Symbols for the ``given`` cells in their order, each uniform among those its row and
    column lack; None when an empty cell is left with no symbol (lsencode's check)."""
    n, full = order, (1 << order) - 1
    rows, cols = [0] * n, [0] * n
    square = [HOLE] * (n * n)
    for cell in given:
        r, c = divmod(cell, n)
        free = full & ~(rows[r] | cols[c])
        symbols = [k for k in range(n) if free >> k & 1]
        symbol = symbols[rng.randrange(len(symbols))]
        square[cell] = symbol
        rows[r] |= 1 << symbol
        cols[c] |= 1 << symbol
        for other in (*range(r * n, r * n + n), *range(c, n * n, n)):
            if square[other] == HOLE and not full & ~(rows[other // n] | cols[other % n]):
                return None
    return square


def make_qcp(params: dict[str, Any], seed: int) -> Generated:
    where = "latin/qcp"
    n = order_param(where, params)
    holes, fraction = hole_count(where, params, n, "qcp")
    pattern = choice_param(where, "pattern", params.get("pattern", "random"), PATTERNS)
    rng = random.Random(seed)
    attempt, square = 0, preassign(n, pick_cells(n, n * n - holes, pattern, rng), rng)
    while square is None:
        attempt += 1
        if attempt == MAX_ATTEMPTS:
            raise InstanceError(f"{where}: none of {MAX_ATTEMPTS} attempts gave the "
                                f"{n * n - holes} cells of order {n} symbols without leaving "
                                "an empty cell with none (with so many given cells, random "
                                "symbols clash: give more holes)")
        square = preassign(n, pick_cells(n, n * n - holes, pattern, rng), rng)
    secret, feasible, known_by = None, None, ""
    propagated = forward_check(n, square)
    if propagated is None:
        feasible, known_by = False, "forward-check"
    elif HOLE not in propagated:
        secret, feasible, known_by = Solution(n, tuple(propagated)), True, "forward-check"
    elif evans_completable(n, square):
        feasible, known_by = True, "evans"
    name = f"qcp-o{n}-h{holes}{'-bal' if pattern == 'balanced' else ''}-s{seed}"
    resolved = {"order": n, "holes": holes, "fraction": fraction, "pattern": pattern,
                "attempt": attempt, "known_by": known_by}
    return Generated(Instance(n, tuple(square), name), secret, feasible, resolved)


_ORDER = f"the square's order n, 2..{MAX_ORDER}"
_HOLES = "empty cells, 0..n*n (give holes or fraction)"
_PATTERN = ("which cells: random (uniform) or balanced (lsencode's: about as many in every row "
            "and column)")

QWH = Generator(
    family="latin",
    name="qwh",
    params={
        "order": (10, _ORDER),
        "holes": (None, _HOLES),
        "fraction": (None, "holes as a fraction of the n*n cells, 0..1 (0.42 when neither is "
                           "given)"),
        "pattern": ("random", "holes " + _PATTERN),
        "mix": (None, f"proper squares the Jacobson-Matthews chain passes through, "
                      f"0..{MAX_MIX:,} (n**2 when not given, at most that: about n**3 moves)"),
    },
    make=make_qwh,
    doc=__doc__ or "",
)

QCP = Generator(
    family="latin",
    name="qcp",
    params={
        "order": (10, _ORDER),
        "holes": (None, _HOLES),
        "fraction": (None, "holes as a fraction of the n*n cells, 0..1 (0.58 when neither is "
                           "given: 42% of the cells given)"),
        "pattern": ("random", "given cells " + _PATTERN),
    },
    make=make_qcp,
    doc=__doc__ or "",
)

GENERATORS: dict[str, Generator] = {"qwh": QWH, "qcp": QCP}

__all__ = ["GENERATORS", "MAX_ATTEMPTS", "MAX_MIX", "QCP", "QWH", "make_qcp", "make_qwh",
           "preassign"]
