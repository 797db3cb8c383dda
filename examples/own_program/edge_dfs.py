#!/usr/bin/env python3
"""A user's own edge-matching program, to run on cliffbench's ladders through a tools file.

    edge_dfs.py BOARD.emp

Reads an ``.emp`` board, fills the cells row by row with every piece and turn that fits
(grey exactly on the outer sides, colours matching the placed neighbours, hints kept) and
backtracks; prints the solution as ``s row col piece_id rot`` lines and exits 0, or exits 20
when the board has none. Plain depth-first search: small boards only.
"""

import sys


def read(path):
    rows = cols = 0
    pieces, hints = [], {}
    for line in open(path):
        words = line.split("#")[0].split()
        if words[:1] == ["size"]:
            rows, cols = int(words[1]), int(words[2])
        elif words[:1] == ["p"]:
            pieces.append((int(words[1]), tuple(int(w) for w in words[2:6])))
        elif words[:1] == ["h"]:
            piece, row, col, rot = (int(w) for w in words[1:5])
            hints[row * cols + col] = (piece, rot)
    return rows, cols, pieces, hints


def turned(edges, rot):  # N, E, S, W after rot clockwise quarter turns
    return tuple(edges[(side - rot) % 4] for side in range(4))


def solve(rows, cols, pieces, hints):
    board, used = [], set()

    def fits(cell, shown):
        row, col = divmod(cell, cols)
        outer = (row == 0, col == cols - 1, row == rows - 1, col == 0)
        if any(out != (colour == 0) for out, colour in zip(outer, shown, strict=True)):
            return False
        west = board[cell - 1][2] if col else None
        north = board[cell - cols][2] if row else None
        return (west is None or west[1] == shown[3]) and (north is None or north[2] == shown[0])

    def place(cell):
        if cell == rows * cols:
            return True
        for index, (piece, edges) in enumerate(pieces):
            for rot in range(4):
                if index in used or hints.get(cell, (piece, rot)) != (piece, rot):
                    continue
                shown = turned(edges, rot)
                if fits(cell, shown):
                    board.append((piece, rot, shown))
                    used.add(index)
                    if place(cell + 1):
                        return True
                    board.pop()
                    used.discard(index)
        return False

    return board if place(0) else None


if __name__ == "__main__":
    rows, cols, pieces, hints = read(sys.argv[1])
    board = solve(rows, cols, pieces, hints)
    if board is None:
        sys.exit(20)
    for cell, (piece, rot, _) in enumerate(board):
        print(f"s {cell // cols} {cell % cols} {piece} {rot}")
