"""What both native edge-matching searches build from an instance before searching: the
oriented pieces, the hints and the pieces left free.

An oriented piece is ``o = 4 * piece + rot``; side s (N, E, S, W) of it shows listed edge
``(s - rot) % 4``. A rotation that repeats a lower one of the same piece (a symmetric piece:
a-b-a-b, a-a-a-a) is left out of the free pieces, so it is never tried twice at one place, and
so is every piece a hint pins: it can stand only in its hinted cell. Colours are written in
keys as digits of base ``c1`` (colours + 1, grey being 0).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from instances.edgematch.model import Instance


class Pieces(NamedTuple):
    """The oriented pieces of an instance, as the searches' tables are built from them."""

    colours: np.ndarray  # (4P, 4): the colours on sides N, E, S, W of each oriented piece
    c1: int  # the radix of a colour in a key: the largest colour + 1
    pinned: dict[int, int]  # hinted cell -> its pinned oriented piece (the first hint of a cell)
    clashes: set[int]  # cells that two different hints pin (no board satisfies both)
    free: np.ndarray  # distinct orientations of the pieces no hint pins, increasing


def oriented_colours(instance: Instance) -> np.ndarray:
    """(4P, 4) colours on sides N, E, S, W of oriented piece ``4 * piece + rot``: side s shows
    listed edge (s - rot) % 4, which is ``np.roll`` by rot along the sides."""
    edges = instance.edges_array()
    out = np.empty((4 * len(edges), 4), dtype=np.int32)
    for rot in range(4):
        out[rot::4] = np.roll(edges, rot, axis=1)
    return out


def distinct_orientations(colours: np.ndarray) -> np.ndarray:
    """Oriented pieces that differ from every lower rotation of the same piece: a symmetric
    piece (a-b-a-b, a-a-a-a) would otherwise be tried twice or four times at the same place."""
    rows = [tuple(c) for c in colours.tolist()]
    keep = [o for o in range(len(rows)) if rows[o] not in rows[o - (o & 3):o]]
    return np.asarray(keep, dtype=np.int64)


def pinned_cells(instance: Instance) -> tuple[dict[int, int], set[int]]:
    """Hinted cells -> pinned oriented piece, and the cells two different hints pin (no board
    can satisfy both, so such a cell gets an empty candidate list)."""
    pinned: dict[int, int] = {}
    clashes: set[int] = set()
    for h in instance.hints:
        if not (0 <= h.row < instance.rows and 0 <= h.col < instance.cols):
            raise ValueError(f"hint {h} is off the {instance.rows}x{instance.cols} board")
        if not (0 <= h.piece < len(instance.pieces) and 0 <= h.rot < 4):
            raise ValueError(f"hint {h} names no piece/rotation of the instance")
        cell, o = h.row * instance.cols + h.col, 4 * h.piece + h.rot
        if pinned.setdefault(cell, o) != o:
            clashes.add(cell)
    return pinned, clashes


def pieces(instance: Instance) -> Pieces:
    """The oriented pieces, the colour radix, the hints and the free pieces of ``instance``."""
    colours = oriented_colours(instance)
    c1 = max(int(instance.colors), int(colours.max(initial=0))) + 1
    pinned, clashes = pinned_cells(instance)
    hinted_pieces = {o >> 2 for o in pinned.values()}
    free = np.asarray([o for o in distinct_orientations(colours) if o >> 2 not in hinted_pieces],
                      dtype=np.int64)
    return Pieces(colours, c1, pinned, clashes, free)


def tiny_instance() -> Instance:
    """A 2x2 board (four copies of one corner piece) that makes every kernel compile."""
    return Instance(rows=2, cols=2, colors=1, pieces=((0, 1, 1, 0),) * 4)
