"""Bitboards for m,n,k boards (tic-tac-toe, Connect Four, any ``Board`` of ``instances.games``).

The layout is the classic Connect Four one (Tromp; Pons's solver): column ``c`` holds bits
``c * (height + 1)`` up to ``c * (height + 1) + height - 1``, bottom to top, and one more bit,
the *sentinel* at ``c * (height + 1) + height``, is always empty. A board fits when
``width * (height + 1) <= 64``. A position is two words, Pons's pair:

- ``cur``: the stones of the player to move;
- ``mask``: all stones (so the other player's stones are ``cur ^ mask``).

Why the sentinel row: a shift by ``1`` (vertical), ``height + 1`` (horizontal), ``height``
or ``height + 2`` (the two diagonals) moves every cell to its neighbour in that direction,
and every step that would leave the board lands on a sentinel bit or outside the used bits,
which hold no stone. So ``k`` in a row is ``log2 k`` shift-and steps per direction for any
``k`` (3 for tic-tac-toe, 4 for Connect Four), with no wrap-around. Nothing in the layout
needs gravity: without gravity every empty cell is a move, the rest is the same.

API (all ``@njit``; words are ``np.uint64``, ``geo`` is the board's ``geometry`` array):

- ``geometry(width, height, k, gravity) -> np.ndarray[uint64]``: the board's constants, read
  with the ``G_*`` slots (``G_BOARD``: every cell's bit; ``G_BOTTOM``: row 0's bits;
  ``G_KEY``: which ``position_key`` is used; ``G_CELLBIT + cell``: the bit of a Board cell).
- ``k_in_row(stones, geo) -> bool``: whether ``stones`` hold ``k`` in a row anywhere.
- ``winning_cells(stones, geo) -> uint64``: the empty-or-not cells of the board that would
  complete ``k`` in a row for ``stones`` (mask them with the empty cells, or the playable ones).
- ``playable(mask, geo) -> uint64``: the cells a move can fill (the lowest empty cell of each
  column with gravity, every empty cell without).
- ``legal_bits(mask, geo, out) -> int``: the moves' bits in the natural move order (columns
  0..width-1, or cells 0..width*height-1 in the Board's numbering), written to ``out``.
- ``play(cur, mask, bit) -> (cur, mask)``: the position after the player to move fills
  ``bit``; the side to move changes. ``undo(cur, mask, bit)`` is its inverse.
- ``mover_won(cur, mask, geo) -> bool``: the player who just moved (``cur ^ mask``) has won.
- ``is_full(mask, geo) -> bool``.
- ``position_key(cur, mask, geo) -> uint64``: a unique key of the position (the side to move
  is ``popcount(mask) % 2``, so it is in the key too): ``cur + mask + bottom`` with gravity
  (Tromp's key: per column ``2**h + (cur's bits)``, below the sentinel), ``mask << nbits | cur``
  without gravity when ``2 * nbits <= 64``, else the base-3 rank of the cells (needs
  ``width * height <= 40``). ``key_is_unique(geo)`` says whether the board has one.
- ``move_of_bit(bit, geo) -> int``: the Board move (column, or cell) that fills ``bit``;
  ``bit_of_move(move, mask, geo) -> int``: its inverse (-1 when illegal).

Python side: ``geometry_of(board)``, ``position_of(board, geo) -> (cur, mask)`` (the
``Board``'s start position after its ``moves``), ``position_from_cells(cells, to_move, geo)``.

The functions are plain ``@njit`` (no numba-level inlining): LLVM inlines them into the
kernels that call them, and ``k_in_row`` / ``winning_cells`` call ``k_in_row_of`` /
``winning_cells_of`` with ``k`` a constant for k = 3 and 4, so that their loops unroll (as
fast as inlining them by hand, at a tenth of the compile time). numba returns words to Python
as ints; the functions cast what they get back to uint64. A cached kernel in another file
holds the compiled code of these functions: such a module puts ``games_bitboard.JIT_SOURCES``
in its own (``searches.support.numba_cache``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from searches.support import intrinsics
from searches.support.intrinsics import lowest_bit_index
from searches.support.numba_cache import forget_stale_cache, own_dispatchers

#: The files this module's kernels compile code from (see ``numba_cache``).
JIT_SOURCES = (__file__, *intrinsics.JIT_SOURCES)

# Slots of the geometry array (uint64).
G_WIDTH, G_HEIGHT, G_K, G_GRAVITY, G_NBITS, G_NCELLS, G_BOARD, G_BOTTOM, G_KEY = range(9)
G_CELLBIT = 9  # G_CELLBIT + cell: the bit of Board cell ``cell`` (row * width + col)
GEO_SIZE = G_CELLBIT + 64
# position_key kinds
KEY_GRAVITY, KEY_PACKED, KEY_BASE3, KEY_NONE = 0, 1, 2, 3
MAX_BASE3_CELLS = 40  # 3**40 < 2**64

ONE = np.uint64(1)
ZERO = np.uint64(0)


def geometry(width: int, height: int, k: int, gravity: bool) -> np.ndarray:
    """The constants of a board, as one uint64 array (see the ``G_*`` slots)."""
    h1 = height + 1
    nbits = width * h1
    if nbits > 64:
        raise ValueError(f"a {width}x{height} board needs {nbits} bits: more than 64")
    if k < 1:
        raise ValueError(f"k={k} must be at least 1")
    geo = np.zeros(GEO_SIZE, np.uint64)
    board = bottom = 0
    for col in range(width):
        bottom |= 1 << (col * h1)
        for row in range(height):
            bit = col * h1 + row
            board |= 1 << bit
            geo[G_CELLBIT + row * width + col] = bit
    if gravity:
        key = KEY_GRAVITY
    elif 2 * nbits <= 64:
        key = KEY_PACKED
    elif width * height <= MAX_BASE3_CELLS:
        key = KEY_BASE3
    else:
        key = KEY_NONE
    geo[:G_CELLBIT] = [width, height, k, int(bool(gravity)), nbits, width * height, board,
                       bottom, key]
    return geo


def geometry_of(board) -> np.ndarray:
    """``geometry`` of an ``instances.games.Board``."""
    return geometry(board.width, board.height, board.k, board.gravity)


def position_from_cells(cells, to_move: int, geo: np.ndarray) -> tuple[np.uint64, np.uint64]:
    """``(cur, mask)`` of a position given as Board cells (0 empty, 1 / 2 a player's stone)
    with ``to_move`` (1 or 2) to play."""
    cur = mask = 0
    for cell, stone in enumerate(cells):
        if stone:
            bit = 1 << int(geo[G_CELLBIT + cell])
            mask |= bit
            if stone == to_move:
                cur |= bit
    return np.uint64(cur), np.uint64(mask)


def position_of(board, geo: np.ndarray | None = None) -> tuple[np.uint64, np.uint64]:
    """``(cur, mask)`` of a Board's start position (its ``moves`` played from the empty board)."""
    if geo is None:
        geo = geometry_of(board)
    return position_from_cells(board.cells(), board.to_move, geo)


@njit(cache=True, nogil=True)
def shr(x, n):
    """``x >> n``, 0 when ``n >= 64`` (LLVM leaves such a shift undefined)."""
    return x >> n if n < np.uint64(64) else ZERO


@njit(cache=True, nogil=True)
def shl(x, n):
    return x << n if n < np.uint64(64) else ZERO


@njit(cache=True, nogil=True)
def direction(d, geo):
    """The shift of direction ``d``: 1 (a column), ``height`` (a diagonal), ``height + 1`` (a
    row), ``height + 2`` (the other diagonal)."""
    return ONE if d == 0 else geo[G_HEIGHT] + np.uint64(d - 1)


@njit(cache=True, nogil=True)
def k_in_row_of(stones, geo, k):
    """Whether ``stones`` hold ``k`` in a row, a column or a diagonal. Per direction: ``m``
    marks the cells that start a run of ``r`` stones; doubling ``r`` while ``2r <= k``, then
    one overlapping step to ``k`` (runs of ``r`` at ``x`` and at ``x + (k - r)`` cover ``k``)."""
    stones = np.uint64(stones)  # a no-op on words; Python ints come in as int64
    kk = np.uint64(k)
    for d in range(4):
        s = direction(d, geo)
        m = stones
        r = ONE
        while r + r <= kk:
            m &= shr(m, r * s)
            r += r
        if r < kk:
            m &= shr(m, (kk - r) * s)
        if m:
            return True
    return False


@njit(cache=True, nogil=True)
def winning_cells_of(stones, geo, k):
    """The cells (bits of the board, filled or not) that would give ``stones`` ``k`` in a row:
    per direction, a cell ``x`` with ``a`` stones just after it and ``k - 1 - a`` just before,
    for each ``a``. A step off the board meets a sentinel or an unused bit, which holds no
    stone, so no line wraps around. ``k (k - 1)`` shifts a direction, no allocation."""
    stones = np.uint64(stones)
    won = ZERO
    for d in range(4):
        s = direction(d, geo)
        for a in range(k):
            m = ~ZERO
            for i in range(1, a + 1):
                m &= shr(stones, np.uint64(i) * s)
            for i in range(1, k - a):
                m &= shl(stones, np.uint64(i) * s)
            won |= m
    return won & geo[G_BOARD]


# The two functions above with ``k`` a compile-time constant for tic-tac-toe and Connect Four
# (their loops then unroll: the ordering of the searches spends most of its time here).
@njit(cache=True, nogil=True)
def k_in_row(stones, geo):
    """Whether ``stones`` hold the board's ``k`` in a row (see ``k_in_row_of``)."""
    k = geo[G_K]
    if k == 4:
        return k_in_row_of(stones, geo, 4)
    if k == 3:
        return k_in_row_of(stones, geo, 3)
    return k_in_row_of(stones, geo, int(k))


@njit(cache=True, nogil=True)
def winning_cells(stones, geo):
    """The cells that would complete the board's ``k`` in a row (see ``winning_cells_of``)."""
    k = geo[G_K]
    if k == 4:
        return winning_cells_of(stones, geo, 4)
    if k == 3:
        return winning_cells_of(stones, geo, 3)
    return winning_cells_of(stones, geo, int(k))


@njit(cache=True, nogil=True)
def playable(mask, geo):
    """The cells a move can fill: with gravity the lowest empty cell of each non-full column
    (``mask + bottom``: the carry of each column's run of stones), else every empty cell."""
    mask = np.uint64(mask)
    if geo[G_GRAVITY]:
        return (mask + geo[G_BOTTOM]) & geo[G_BOARD]
    return ~mask & geo[G_BOARD]


@njit(cache=True, nogil=True)
def legal_bits(mask, geo, out):
    """The legal moves' bits in the natural order (columns left to right, or Board cells in
    increasing order) written to ``out``; returns how many."""
    free = playable(mask, geo)
    n = 0
    if geo[G_GRAVITY]:
        h1 = int(geo[G_HEIGHT]) + 1
        for col in range(int(geo[G_WIDTH])):
            column = free >> np.uint64(col * h1)
            if column & ((ONE << np.uint64(h1)) - ONE):
                out[n] = col * h1 + lowest_bit_index(column)
                n += 1
    else:
        for cell in range(int(geo[G_NCELLS])):
            bit = geo[G_CELLBIT + cell]
            if (free >> bit) & ONE:
                out[n] = int(bit)
                n += 1
    return n


@njit(cache=True, nogil=True)
def play(cur, mask, bit):
    """The player to move fills ``bit``: the other player becomes the one to move, so the new
    ``cur`` is the old opponent's stones (``cur ^ mask`` before the stone is added)."""
    cur, mask = np.uint64(cur), np.uint64(mask)
    return cur ^ mask, mask | (ONE << np.uint64(bit))


@njit(cache=True, nogil=True)
def undo(cur, mask, bit):
    """The inverse of ``play(cur, mask, bit)``."""
    mask = np.uint64(mask) ^ (ONE << np.uint64(bit))
    return np.uint64(cur) ^ mask, mask


@njit(cache=True, nogil=True)
def mover_won(cur, mask, geo):
    """Whether the player who just moved (stones ``cur ^ mask``) has ``k`` in a row."""
    return k_in_row(np.uint64(cur) ^ np.uint64(mask), geo)


@njit(cache=True, nogil=True)
def is_full(mask, geo):
    return np.uint64(mask) == geo[G_BOARD]


@njit(cache=True, nogil=True)
def base3_key(cur, mask, geo):
    """The position as a base-3 number over the Board cells: 0 empty, 1 the player to move,
    2 the other (unique for ``width * height <= 40``)."""
    key = ZERO
    three = np.uint64(3)
    for cell in range(int(geo[G_NCELLS])):
        bit = geo[G_CELLBIT + cell]
        digit = ZERO
        if (mask >> bit) & ONE:
            digit = ONE if (cur >> bit) & ONE else np.uint64(2)
        key = key * three + digit
    return key


@njit(cache=True, nogil=True)
def position_key(cur, mask, geo):
    """A unique key of the position (see the module docstring): with gravity Tromp's
    ``cur + mask + bottom`` (never 0), without it ``mask`` and ``cur`` side by side when both
    fit in a word, else the base-3 rank. ``KEY_NONE`` boards get the packed pair, not unique."""
    kind = geo[G_KEY]
    cur, mask = np.uint64(cur), np.uint64(mask)
    if kind == KEY_GRAVITY:
        return cur + mask + geo[G_BOTTOM]
    if kind == KEY_BASE3:
        return base3_key(cur, mask, geo)
    return (mask << geo[G_NBITS]) | cur


def key_is_unique(geo: np.ndarray) -> bool:
    return int(geo[G_KEY]) != KEY_NONE


@njit(cache=True, nogil=True)
def move_of_bit(bit, geo):
    """The Board move that fills ``bit``: its column with gravity, else its cell."""
    h1 = int(geo[G_HEIGHT]) + 1
    col, row = divmod(int(bit), h1)
    if geo[G_GRAVITY]:
        return col
    return row * int(geo[G_WIDTH]) + col


@njit(cache=True, nogil=True)
def bit_of_move(move, mask, geo):
    """The bit a Board move fills in the position ``mask``; -1 when the move is illegal."""
    free = playable(mask, geo)
    if geo[G_GRAVITY]:
        if move < 0 or move >= int(geo[G_WIDTH]):
            return -1
        h1 = int(geo[G_HEIGHT]) + 1
        column = (free >> np.uint64(move * h1)) & ((ONE << np.uint64(h1)) - ONE)
        if column == ZERO:
            return -1
        return move * h1 + lowest_bit_index(column)
    if move < 0 or move >= int(geo[G_NCELLS]):
        return -1
    bit = geo[G_CELLBIT + move]
    return int(bit) if (free >> bit) & ONE else -1


forget_stale_cache(own_dispatchers(__name__), *JIT_SOURCES)
