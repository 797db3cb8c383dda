"""The Sudoku grid: one data structure, explained once.

- A puzzle of box side ``box`` (2, 3, 4 or 5) has ``size = box * box`` digits, 1..size, and
  ``size * size`` cells numbered row-major: ``cell = row * size + col``. Boxes are numbered the
  same way: ``(row // box) * box + col // box``.
- A grid is a tuple of ints, one per cell: 0 is a blank, 1..size a digit. A puzzle's grid holds
  its clues; a solution's grid is complete (a partial one, with blanks, is legal if it keeps
  every clue and repeats no digit in a unit).
- As text, digits are the symbols ``123456789ABCDEFGHIJKLMNOP`` (the first ``size`` of them) and
  a blank is ``.`` (``0`` is read as a blank too): 81 characters for a 9x9 puzzle, the format of
  every Sudoku collection.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from instances.common import InstanceError, text_hash, text_hashes

SYMBOLS = "123456789ABCDEFGHIJKLMNOP"
BLANKS = ".0"
BOXES = (2, 3, 4, 5)


def box_of_length(ncells: int) -> int | None:
    """The box side of a grid of ``ncells`` cells (16 -> 2, 81 -> 3, ...), None if none."""
    for box in BOXES:
        if box ** 4 == ncells:
            return box
    return None


def symbol(digit: int) -> str:
    return "." if digit == 0 else SYMBOLS[digit - 1]


#: ``digit_of`` as tables, one per board size: every symbol a reader takes -> its digit (the
#: fast path of ``grid_of_line``; a character missing from the table gets the slow path's
#: message). ``SYMBOL_OF[d]``: the symbol of digit d (``.`` for 0), for ``to_line``.
DIGIT_TABLES = {box * box: {**{b: 0 for b in BLANKS},
                            **{c: i + 1 for i, c in enumerate(SYMBOLS[:box * box])},
                            **{c.lower(): i + 1 for i, c in enumerate(SYMBOLS[:box * box])
                               if c.isalpha()}}
                for box in BOXES}
SYMBOL_OF = (".", *SYMBOLS)
#: The same tables for ``bytes.translate``: each ASCII code of a symbol -> its digit, every
#: other code -> 255 (not a digit of that size).
BYTE_TABLES = {size: bytes(table.get(chr(code), 255) for code in range(256))
               for size, table in DIGIT_TABLES.items()}
#: The same for the symbols ``to_line`` writes only (``.`` and the upper-case symbols): a
#: line of no 255 in its translation is ``to_line``'s text of a grid of that size.
CANONICAL_TABLES = {box * box: bytes(SYMBOL_OF.index(chr(code)) if chr(code) in SYMBOL_OF[
    :box * box + 1] else 255 for code in range(256)) for box in BOXES}


def digit_of(char: str, size: int) -> int | None:
    """The digit a character stands for on a board of ``size`` digits (0 for a blank), None
    for anything else: one ASCII character only ('ı'.upper() is 'I', and "" or "12" are no
    symbol)."""
    if len(char) != 1 or not char.isascii():
        return None
    if char in BLANKS:
        return 0
    index = SYMBOLS.find(char.upper())
    return index + 1 if 0 <= index < size else None


def _checked_grid(box: int, grid: tuple[int, ...], what: str) -> tuple[int, ...]:
    if box not in BOXES:
        raise InstanceError(f"{what}: box side {box} is not one of {list(BOXES)}")
    size = box * box
    if len(grid) != size * size:
        raise InstanceError(f"{what}: {len(grid)} cells, a box of {box} needs {size * size}")
    if type(grid) is not tuple or set(map(type, grid)) != {int}:
        grid = tuple(map(int, grid))
    if min(grid) >= 0 and max(grid) <= size:
        return grid
    bad = next((v for v in grid if not 0 <= v <= size), None)
    if bad is not None:
        raise InstanceError(f"{what}: value {bad} is outside 0..{size}")
    return grid


@dataclass(frozen=True)
class Instance:
    """A Sudoku puzzle: its box side and its clues. ``name`` is cosmetic, not part of the id."""

    box: int
    grid: tuple[int, ...]
    name: str = ""
    #: No partial credit (the harness reads ``max_score`` where a family has one; present,
    #: so that reading it never falls through to ``__getattr__``, which raises).
    max_score: ClassVar[None] = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "grid", _checked_grid(self.box, self.grid, "sudoku puzzle"))

    def __getattr__(self, name: str) -> Any:
        return _lazy_grid(self, name)

    @property
    def size(self) -> int:
        return self.box * self.box

    @property
    def ncells(self) -> int:
        return self.size * self.size

    @property
    def clues(self) -> int:
        line = self.__dict__.get("_line")
        if line is not None:
            return len(line) - line.count(".")
        return len(self.grid) - self.grid.count(0)

    def grid_array(self) -> np.ndarray:
        """The clues as a new flat int32 array (0 = blank), for solvers."""
        return np.asarray(self.grid, dtype=np.int32)

    def to_line(self) -> str:
        """The grid as one line (``.`` for a blank); the line it was read from, where that is
        this text already."""
        return self.__dict__.get("_line") or "".join(map(SYMBOL_OF.__getitem__, self.grid))

    def to_json(self) -> dict[str, Any]:
        """The canonical serialisation (sent to workers, hashed for the id)."""
        return {"family": "sudoku", "box": self.box, "grid": self.to_line(), "name": self.name}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Instance:
        box = int(data["box"])
        return cls.from_line(str(data["grid"]), box, str(data.get("name", "")))

    @staticmethod
    def to_json_many(puzzles: list[Instance]) -> dict[str, Any]:
        """Many puzzles (a block's, sent to a worker) as one JSON value that
        :meth:`from_json_many` reads back: their box side, lines and names, or, for puzzles of
        several box sides, each one's ``to_json()``."""
        boxes = {puzzle.box for puzzle in puzzles}
        if len(boxes) != 1:
            return {"each": [puzzle.to_json() for puzzle in puzzles]}
        return {"box": boxes.pop(), "grids": [puzzle.to_line() for puzzle in puzzles],
                "names": [puzzle.name for puzzle in puzzles]}

    @classmethod
    def from_json_many(cls, data: dict[str, Any]) -> Sequence[Instance]:
        """The puzzles :meth:`to_json_many` gave, as ``from_json`` reads each: where all their
        lines are canonical (checked together), as :class:`PuzzleLines` (each puzzle made when
        it is asked for), else read one at a time."""
        if "each" in data:
            return [cls.from_json(one) for one in data["each"]]
        box, grids, names = int(data["box"]), data["grids"], data["names"]
        if len(grids) != len(names):
            raise ValueError(f"{len(grids)} grids and {len(names)} names")
        try:
            "".join(names)  # every name a text: a join of anything else raises
            together = all_canonical(grids, box)  # every grid a text, and canonical
        except TypeError:
            together = False
        if together:
            return PuzzleLines(cls, box, grids, names)
        return [cls.from_line(str(grid), box, str(name))
                for grid, name in zip(grids, names, strict=True)]

    @classmethod
    def from_line(cls, text: str, box: int, name: str = "") -> Instance:
        """The puzzle of a one-line grid of a known box side (a bad symbol names its
        position)."""
        return _read_line(cls, box, text, name)

    @property
    def instance_id(self) -> str:
        """The content hash of ``to_json()`` (its name left out), computed once and kept (in
        the instance's ``__dict__``: ``functools.cached_property`` takes a lock each first
        time); the canonical JSON text is written here (the grid's symbols need no escaping),
        which is what ``instance_hash(self.to_json())`` hashes."""
        known = self.__dict__.get("_instance_id")
        if known is None:
            known = self.__dict__["_instance_id"] = text_hash(_id_text(self.box, self.to_line()))
        return known


@dataclass(frozen=True)
class Solution:
    """A filled (or partly filled) grid of the same shape as its puzzle."""

    box: int
    grid: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "grid", _checked_grid(self.box, self.grid, "sudoku solution"))

    def __getattr__(self, name: str) -> Any:
        return _lazy_grid(self, name)

    @classmethod
    def from_array(cls, box: int, values: Any) -> Solution:
        return cls(box, tuple(int(v) for v in np.asarray(values).ravel()))

    @classmethod
    def from_line(cls, text: str) -> Solution:
        box = box_of_length(len(text.strip()))
        if box is None:
            raise InstanceError(f"a solution line of {len(text.strip())} symbols is no grid")
        return cls(box, grid_of_line(text.strip(), box))

    def to_line(self) -> str:
        """As :meth:`Instance.to_line`."""
        return self.__dict__.get("_line") or "".join(map(SYMBOL_OF.__getitem__, self.grid))

    def to_json(self, instance: Instance | None = None) -> dict[str, Any]:
        return {"box": self.box, "grid": self.to_line()}

    @classmethod
    def from_json(cls, data: dict[str, Any], instance: Instance | None = None) -> Solution:
        box = int(data.get("box", instance.box if instance is not None else 0))
        return _read_line(cls, box, str(data["grid"]))


def _read_line(cls: type, box: int, text: str, *rest: Any) -> Any:
    """``cls(box, grid, *rest)`` of a one-line grid. A line that is ``to_line``'s text already
    (the box's symbols and ``.``, of its length) is checked at once and kept, and its grid
    decoded on first use (``_lazy_grid``: a block's instances and answers are read by the
    tens of thousands, and its solvers and checkers take the lines); any other line is
    decoded now (a bad symbol names its position)."""
    if len(text) == box ** 4 and _canonical(text, box):
        made = object.__new__(cls)
        made.__dict__.update(zip(("box", "name"), (box, *rest), strict=False))
        made.__dict__["_line"] = text
        return made
    return _read(cls, box, grid_of_line(text, box), *rest, line=text)


def _id_text(box: int, line: str) -> str:
    """The canonical JSON text of a puzzle's ``to_json()`` without its name (what its instance
    id hashes), from its box side and its ``to_line`` text (whose symbols need no escaping)."""
    return f'{{"box":{box},"family":"sudoku","grid":"{line}"}}'


def canonical_lines(cls: type, box: int, lines: list[str], names: list[str],
                    ids: bool = False) -> list[Any] | None:
    """``cls(box, grid, name)`` of each line, as :func:`_read_line` reads it, where every line
    is ``to_line``'s text of the box already (checked together: one translate of their join);
    None where one is not (each is then read on its own, and a bad one named). ``ids``: each
    puzzle's ``instance_id`` is computed here too, in one pass (a file's puzzles, which
    planning hashes every one of; a worker's are never hashed)."""
    if not all_canonical(lines, box):
        return None
    made = []
    new = object.__new__
    for line, name in zip(lines, names, strict=True):
        one = new(cls)
        state = one.__dict__
        state["box"] = box
        state["name"] = name
        state["_line"] = line
        made.append(one)
    if ids:
        for one, known in zip(made, text_hashes([_id_text(box, line) for line in lines]),
                              strict=True):
            one.__dict__["_instance_id"] = known
    return made


def all_canonical(lines: list[str], box: int) -> bool:
    """Whether every line is ``to_line``'s text of a grid of the box side (checked together:
    their lengths, then one translate of their join)."""
    return set(map(len, lines)) <= {box ** 4} and _canonical("".join(lines), box)


class PuzzleLines(Sequence):
    """Many puzzles of one box side as the sequence of their ``to_line`` texts and names (a
    block's, as its worker reads them): each :class:`Instance` (or ``cls``) made when it is
    asked for, as :func:`canonical_lines` makes it; a slice is again one. Readers of many
    puzzles' grids (:func:`grid_rows`) take ``lines`` as they are, and ``box`` says every
    puzzle's box side without making them. The lines are ``to_line``'s texts of the box side
    (:func:`all_canonical`, which the maker checks: :meth:`Instance.from_json_many`)."""

    __slots__ = ("cls", "box", "lines", "names")

    def __init__(self, cls: type, box: int, lines: list[str], names: list[str]):
        if len(lines) != len(names):
            raise ValueError(f"{len(lines)} lines and {len(names)} names")
        self.cls, self.box, self.lines, self.names = cls, box, lines, names

    def __len__(self) -> int:
        return len(self.lines)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return PuzzleLines(self.cls, self.box, self.lines[index], self.names[index])
        (made,) = canonical_lines(self.cls, self.box, [self.lines[index]], [self.names[index]])
        return made

    def __iter__(self) -> Iterator[Any]:
        return iter(canonical_lines(self.cls, self.box, self.lines, self.names))


def _canonical(text: str, box: int) -> bool:
    """Whether ``text`` is made of the symbols ``to_line`` writes for a box side of ``box``
    only (``.`` and the upper-case symbols; a box side other than 2..5 has none)."""
    table = CANONICAL_TABLES.get(box * box)
    return table is not None and text.isascii() \
        and b"\xff" not in text.encode("ascii").translate(table)


def clue_counts(lines: list[str]) -> list[int]:
    """The clues (symbols other than ``.``) of each of many lines of ``to_line``'s text, all
    of one length."""
    if not lines:
        return []
    codes = np.frombuffer("".join(lines).encode("ascii"), dtype=np.uint8)
    return (codes.reshape(len(lines), -1) != ord(".")).sum(axis=1).tolist()


def _lazy_grid(made: Any, name: str) -> Any:
    """The ``grid`` of a puzzle or solution read from its line (``_read_line``), decoded now
    and kept; any other missing attribute is missing."""
    line = made.__dict__.get("_line") if name == "grid" else None
    if line is None:
        raise AttributeError(name)
    grid = tuple(line.encode("ascii").translate(BYTE_TABLES[made.box * made.box]))
    made.__dict__["grid"] = grid
    return grid


def _read(cls: type, box: int, grid: tuple[int, ...], *rest: Any, line: str = "") -> Any:
    """``cls(box, grid, *rest)`` of a grid ``grid_of_line`` read from ``line``, whose values
    are digits of the box already: where the box and the length are right the values are not
    checked again (a block's instances and answers are read by the tens of thousands), and a
    line that is ``to_line``'s text already (no ``0`` blank, no lower-case symbol) is kept as
    that text."""
    if box not in BOXES or len(grid) != box ** 4:
        return cls(box, grid, *rest)
    made = object.__new__(cls)
    made.__dict__.update(zip(("box", "grid", "name"), (box, grid, *rest), strict=False))
    if "0" not in line and line == line.upper():
        made.__dict__["_line"] = line
    return made


#: The digit of each character code of a line that ``to_line`` writes (0 for the rest).
_DIGIT_OF_CODE = np.zeros(256, dtype=np.uint8)
_DIGIT_OF_CODE[[ord(c) for c in SYMBOL_OF]] = np.arange(len(SYMBOL_OF))
#: The character code of each digit's symbol.
_CODE_OF_DIGIT = np.frombuffer("".join(SYMBOL_OF).encode("ascii"), dtype=np.uint8)


def grid_rows(grids: list[Any], dtype: Any = np.int64) -> np.ndarray:
    """The grids of many puzzles or solutions of one box side as one ``(n, cells)`` array of
    ``dtype`` (0 = blank), read from their lines at C speed."""
    if type(grids) is PuzzleLines:
        return line_rows(grids.lines, dtype)
    lines = [grid.__dict__.get("_line") for grid in grids]  # to_line's own, kept on reading
    if None in lines:
        lines = [grid.to_line() for grid in grids]
    return line_rows(lines, dtype)


def line_rows(lines: list[str], dtype: Any = np.int64) -> np.ndarray:
    """Lines of one length as one ``(n, cells)`` array (of ``dtype``) of the digits
    ``to_line`` writes (``.`` -> 0, ``1`` -> 1, ...); any other character reads as 0. Lines
    must be ASCII."""
    if not lines:
        return np.zeros((0, 0), dtype=dtype)
    text = "".join(lines).encode("ascii")
    return code_rows(np.frombuffer(text, dtype=np.uint8).reshape(len(lines), -1), dtype)


def code_rows(codes: np.ndarray, dtype: Any = np.int64) -> np.ndarray:
    """The digits of lines given as their ASCII codes (an ``(n, cells)`` uint8 array), as
    :func:`line_rows` reads them (a digit is below 256: uint8 holds every box side's)."""
    return _DIGIT_OF_CODE[codes].astype(dtype, copy=False)


def answer_texts(box: int, grids: np.ndarray) -> list[str]:
    """The JSON text (compact separators) of ``Solution(box, grid).to_json()`` for each row of
    ``grids`` (``(n, cells)``, digits 0..size): many answers at once."""
    cells = box ** 4
    text = _CODE_OF_DIGIT[np.asarray(grids).reshape(-1, cells)].tobytes().decode("ascii")
    head = f'{{"box":{box},"grid":"'
    return [f'{head}{text[i:i + cells]}"}}' for i in range(0, len(text), cells)]


def grid_of_line(text: str, box: int) -> tuple[int, ...]:
    """The digits of a one-line grid of a known box side; a bad symbol names its position."""
    size = box * box
    table = BYTE_TABLES.get(size)
    if table is not None and text.isascii():
        digits = text.encode("ascii").translate(table)
        if b"\xff" not in digits:
            return tuple(digits)  # the slow path names a bad symbol and its position
    digits = []
    for position, char in enumerate(text, 1):
        digit = digit_of(char, size)
        if digit is None:
            raise InstanceError(f"symbol {char!r} at position {position} is not a digit of a "
                                f"{size}x{size} grid ({SYMBOLS[:size]}, or . / 0 for a blank)")
        digits.append(digit)
    return tuple(digits)
