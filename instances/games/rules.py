"""The rules of m,n,k boards in plain Python: the reference the checker replays lines with.

A board is ``width`` columns by ``height`` rows, cells numbered ``row * width + col`` with row 0
the bottom row; a position is a tuple of cell contents (0 empty, 1 or 2 the player's stone).
With gravity (Connect Four) a move names a column and the stone lands on its lowest empty cell;
without (tic-tac-toe) a move names a cell. The player who just moved wins with ``k`` stones in
a row, a column or a diagonal through the stone played; a full board without such a line is a
draw. Slow on purpose: it shares nothing with the bitboard searches it is used to check.
"""

from __future__ import annotations

DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))  # (dcol, drow): row, column, two diagonals


def landing_cell(cells: tuple[int, ...], width: int, height: int, col: int) -> int | None:
    """The lowest empty cell of a column, None when the column is full."""
    for row in range(height):
        cell = row * width + col
        if cells[cell] == 0:
            return cell
    return None


def legal_moves(cells: tuple[int, ...], width: int, height: int, gravity: bool) -> list[int]:
    if gravity:
        return [c for c in range(width) if cells[(height - 1) * width + c] == 0]
    return [cell for cell, stone in enumerate(cells) if stone == 0]


def makes_line(cells: tuple[int, ...], width: int, height: int, k: int, cell: int) -> bool:
    """Whether the stone on ``cell`` is part of ``k`` of its colour in a row, in any direction."""
    stone = cells[cell]
    row, col = divmod(cell, width)
    for dcol, drow in DIRECTIONS:
        run = 1
        for sign in (1, -1):
            r, c = row + sign * drow, col + sign * dcol
            while 0 <= r < height and 0 <= c < width and cells[r * width + c] == stone:
                run += 1
                r, c = r + sign * drow, c + sign * dcol
        if run >= k:
            return True
    return False


def play(cells: tuple[int, ...], width: int, height: int, gravity: bool, move: int,
         player: int) -> tuple[tuple[int, ...], int]:
    """The position after ``player`` plays ``move``, and the cell the stone went to.
    ValueError for an illegal move."""
    if gravity:
        if not 0 <= move < width:
            raise ValueError(f"column {move} is not on a board {width} wide")
        cell = landing_cell(cells, width, height, move)
        if cell is None:
            raise ValueError(f"column {move} is full")
    else:
        if not 0 <= move < width * height:
            raise ValueError(f"cell {move} is not on a {width}x{height} board")
        if cells[move]:
            raise ValueError(f"cell {move} is taken")
        cell = move
    after = list(cells)
    after[cell] = player
    return tuple(after), cell


def replay(width: int, height: int, k: int, gravity: bool, moves: tuple[int, ...],
           ) -> tuple[tuple[int, ...], int]:
    """The position after ``moves`` from the empty board, and its winner (1 or 2; 0 when nobody
    has won yet). ValueError naming the move when one is illegal or comes after the end."""
    cells = (0,) * (width * height)
    winner = 0
    for number, move in enumerate(moves, 1):
        if winner:
            raise ValueError(f"move {number} ({move}) comes after player {winner} has won")
        player = 1 if number % 2 else 2
        try:
            cells, cell = play(cells, width, height, gravity, move, player)
        except ValueError as exc:
            raise ValueError(f"move {number}: {exc}") from None
        if makes_line(cells, width, height, k, cell):
            winner = player
    return cells, winner


def to_move(cells: tuple[int, ...]) -> int:
    """Player 1 moves when both have played as often."""
    ones, twos = cells.count(1), cells.count(2)
    return 1 if ones == twos else 2


def negamax_value(cells: tuple[int, ...], width: int, height: int, k: int, gravity: bool,
                  memo: dict[tuple[int, ...], int]) -> int:
    """+1 / 0 / -1 for the player to move on a position nobody has won yet (plain memoised
    negamax; for the checker's own value on small boards)."""
    if cells in memo:
        return memo[cells]
    moves = legal_moves(cells, width, height, gravity)
    player = to_move(cells)
    best = 0 if not moves else -1
    for move in moves:
        after, cell = play(cells, width, height, gravity, move, player)
        value = 1 if makes_line(after, width, height, k, cell) else \
            -negamax_value(after, width, height, k, gravity, memo)
        if value > best:
            best = value
            if best == 1:
                break
    memo[cells] = best
    return best


def board_cells(board) -> tuple[int, ...]:
    """The cells of a ``Board``'s start position (its ``moves`` replayed)."""
    return replay(board.width, board.height, board.k, board.gravity, board.moves)[0]


def winner(board) -> int:
    """Who has won at a ``Board``'s start position: 1, 2, or 0 (nobody yet)."""
    return replay(board.width, board.height, board.k, board.gravity, board.moves)[1]
