"""What a generator can know cheaply about a partial Latin square's completions.

- ``forward_check``: unit propagation on the incidence cube. A hole whose row and column leave
  one symbol gets it; a symbol that a row (or a column) lacks and can place in one hole only
  goes there; repeated to a fixpoint. It fails (None) when a hole has no symbol left or a line
  has nowhere to put a symbol it lacks: then the square has no completion. When it fills every
  hole, the result is a completion.
- ``evans_completable``: a partial square of order ``n`` with at most ``n - 1`` filled cells
  always has a completion (Evans' conjecture, proved by Smetaniuk 1981 and by Andersen and
  Hilton 1983).

A square is a row-major list of symbols, ``-1`` a hole; rows and columns are kept as bitmasks
of the symbols they hold.
"""

from __future__ import annotations

from instances.latin.model import HOLE


def masks(order: int, cells: list[int]) -> tuple[list[int], list[int]] | None:
    """The symbols each row and each column holds (bitmasks), or None when a line holds a
    symbol twice."""
    rows, cols = [0] * order, [0] * order
    for cell, value in enumerate(cells):
        if value == HOLE:
            continue
        r, c = divmod(cell, order)
        bit = 1 << value
        if rows[r] & bit or cols[c] & bit:
            return None
        rows[r] |= bit
        cols[c] |= bit
    return rows, cols


def forward_check(order: int, cells: list[int]) -> list[int] | None:
    """The square after propagation to a fixpoint (see the module docstring), or None when the
    propagation finds that it has no completion."""
    n, full = order, (1 << order) - 1
    found = masks(n, cells)
    if found is None:
        return None
    rows, cols = found
    square = list(cells)
    holes = {cell for cell, value in enumerate(square) if value == HOLE}

    def place(cell: int, symbol: int) -> None:
        r, c = divmod(cell, n)
        square[cell] = symbol
        rows[r] |= 1 << symbol
        cols[c] |= 1 << symbol
        holes.discard(cell)

    changed = True
    while changed and holes:
        changed = False
        for cell in sorted(holes):
            if cell not in holes:
                continue
            r, c = divmod(cell, n)
            free = full & ~(rows[r] | cols[c])
            if not free:
                return None
            if free & (free - 1) == 0:
                place(cell, free.bit_length() - 1)
                changed = True
        for line in range(n):
            for own, members in ((rows, range(line * n, line * n + n)),
                                 (cols, range(line, n * n, n))):
                open_cells = [cell for cell in members if cell in holes]
                if not open_cells:
                    continue
                lacks = full & ~own[line]
                once = twice = 0
                for cell in open_cells:
                    free = full & ~(rows[cell // n] | cols[cell % n])
                    twice |= once & free
                    once |= free
                if lacks & ~once:
                    return None
                single = once & ~twice & lacks
                while single:
                    bit = single & -single
                    single &= single - 1
                    where = [cell for cell in open_cells if cell in holes
                             and not (rows[cell // n] | cols[cell % n]) & bit]
                    if len(where) != 1:
                        return None
                    place(where[0], bit.bit_length() - 1)
                    changed = True
    return square


def evans_completable(order: int, cells: list[int]) -> bool:
    """Whether the square has at most ``order - 1`` filled cells (then it has a completion)."""
    return sum(value != HOLE for value in cells) <= order - 1


__all__ = ["evans_completable", "forward_check", "masks"]
