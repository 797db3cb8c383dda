"""Reading and writing Sudoku files.

Two formats, as the field writes them:

- **One puzzle a line** (every collection: Norvig's sets, top1465, the 17-clue list, tdoku's
  benchmark files): the first whitespace-separated token of a line is the grid, 16 / 81 / 256 /
  625 symbols, ``.`` or ``0`` for a blank; the rest of the line (a rating, a name) is ignored.
- **A grid drawn over several lines** (Norvig's tolerant ``grid_values``): every symbol and blank
  in the file counts, in reading order; anything else (spaces, ``|``, ``-``, ``+``) is ignored.
  The file holds one puzzle.

Lines starting with ``#`` are comments in both. A file is read line by line if its first content
line starts with a grid token, else as one drawn grid. A solution file holds one grid in either
format (or the JSON that ``cliffbench solve --json`` prints).
"""

from __future__ import annotations

import json
from pathlib import Path

from instances.common import (
    Generated,
    InstanceError,
    first_content,
    generated_each,
    read_text,
    sniff_text,
    text_lines,
)
from instances.sudoku.model import (
    BLANKS,
    DIGIT_TABLES,
    SYMBOLS,
    Instance,
    Solution,
    box_of_length,
    canonical_lines,
    clue_counts,
    digit_of,
)

SUFFIXES = (".sdk", ".sudoku", ".txt")
_DRAWING = set(" \t|-+")


def grid_token(text: str) -> str | None:
    """The first token of a line when it is a one-line grid (right length, valid symbols)."""
    token = text.split(maxsplit=1)[0] if text.split() else ""
    box = box_of_length(len(token))
    if box is None:
        return None
    size = box * box
    if set(token) <= DIGIT_TABLES[size].keys():
        return token
    return token if all(_digit(ch, size) is not None for ch in token) else None


def _digit(char: str, size: int) -> int | None:
    """``digit_of`` for ASCII only: 'ı'.upper() is 'I', which is no reason to read it as 18."""
    return digit_of(char, size) if char.isascii() else None


def parse_line(text: str, name: str = "") -> Instance:
    """A puzzle from its one-line form; raises InstanceError saying what is wrong with it."""
    words = text.split(maxsplit=1)
    return _puzzle_of_token(words[0] if words else "", name)


def _puzzle_of_token(token: str, name: str) -> Instance:
    """The puzzle of a line's first word."""
    box = box_of_length(len(token))
    if box is None:
        raise InstanceError(f"a grid line has 16, 81, 256 or 625 symbols, this one {len(token)}")
    return Instance.from_line(token, box, name)


def parse_drawn(text: str, name: str = "", path: str | None = None) -> Instance:
    """A puzzle drawn over several lines (Norvig's tolerant format)."""
    symbols: list[tuple[str, int]] = []
    for number, line in enumerate(text_lines(text), 1):
        if line.lstrip().startswith("#"):
            continue
        for char in line:
            if char in _DRAWING:
                continue
            if not (char.isascii() and (char.upper() in SYMBOLS or char in BLANKS)):
                raise InstanceError(f"character {char!r} is neither a digit, a blank (. 0) nor "
                                    "a drawing character (space | - +)", path, number)
            symbols.append((char, number))
    box = box_of_length(len(symbols))
    if box is None:
        raise InstanceError(f"found {len(symbols)} grid symbols; a puzzle has 16, 81, 256 or 625",
                            path)
    size = box * box
    for char, number in symbols:
        if digit_of(char, size) is None:
            raise InstanceError(f"symbol {char!r} is not a digit of a {size}x{size} grid", path,
                                number)
    return Instance(box, tuple(digit_of(ch, size) or 0 for ch, _ in symbols), name)


def parse_text(text: str, path: str | None = None) -> list[Instance]:
    """Every puzzle of a file's text (line format, or one drawn grid)."""
    return [puzzle for puzzle, _ in parse_with_solutions(text, path)]


def parse_with_solutions(text: str, path: str | None = None
                         ) -> list[tuple[Instance, Solution | None]]:
    """Every puzzle of a file's text, each with the solution a ``# solution GRID`` comment line
    right after it gives (as ``write_file`` writes a planted puzzle's secret), else None."""
    lines = text_lines(text)
    puzzles = _bare_puzzles(lines, path)
    if puzzles is not None:
        return [(puzzle, None) for puzzle in puzzles]
    first = first_content(lines)
    if first is None:
        raise InstanceError("no puzzle in the file", path)
    stem = _stem(path)
    if grid_token(first) is None:
        return [(parse_drawn(text, stem, path), None)]
    out: list[tuple[Instance, Solution | None]] = []
    for number, line in enumerate(lines, 1):
        words = line.split()
        if len(words) == 3 and words[:2] == ["#", "solution"] and out and out[-1][1] is None:
            try:
                if not words[2].isascii():
                    raise InstanceError(f"a solution grid of other than ASCII symbols: "
                                        f"{words[2][:30]!r}")
                out[-1] = (out[-1][0], Solution.from_line(words[2]))
            except InstanceError as exc:
                raise InstanceError(exc.reason, path, number) from None
            continue
        if not words or words[0].startswith("#"):
            continue
        try:
            out.append((_puzzle_of_token(words[0], f"{stem}#{len(out) + 1}"), None))
        except InstanceError as exc:
            raise InstanceError(exc.reason, path, number) from None
    return out


def _stem(path: str | None) -> str:
    """What a file's puzzles are named after (``stem#1``, ``stem#2``, ...)."""
    return Path(path).stem if path else "sudoku"


def _bare_puzzles(lines: list[str], path: str | None) -> list[Instance] | None:
    """The puzzles of a file's lines where every line is ``to_line``'s text of a grid of one
    box side (no comment, no blank line: the common collection), read at once; else None."""
    box = box_of_length(len(lines[0])) if lines else None
    if box is None:
        return None
    stem = _stem(path)
    return canonical_lines(Instance, box, lines, [f"{stem}#{i}" for i in range(1, len(lines) + 1)],
                           ids=True)


def read_file(path: str | Path) -> list[Generated]:
    """Every puzzle of a file. A puzzle with a ``# solution`` line is known feasible (the line is
    its secret); of the others nothing is promised."""
    path = Path(path)
    text = read_text(path)
    out = []
    source = str(path)
    lines = text_lines(text)
    puzzles = _bare_puzzles(lines, source)
    if puzzles is not None:
        box = puzzles[0].box
        counts = clue_counts(lines)  # one parameters dict for the puzzles of each count
        params = {clues: {"box": box, "clues": clues} for clues in set(counts)}
        return generated_each(puzzles, [params[clues] for clues in counts], source)
    read = parse_with_solutions(text, source)
    if all(secret is None for _, secret in read):  # a file of bare puzzles
        puzzles = [puzzle for puzzle, _ in read]
        return generated_each(puzzles, [{"box": p.box, "clues": p.clues} for p in puzzles],
                              source)
    for puzzle, secret in read:
        feasible = True if secret is not None else None
        out.append(Generated(puzzle, secret, feasible, {"box": puzzle.box, "clues": puzzle.clues},
                             source))
    return out


#: How many lines of a one-puzzle-a-line file :func:`sniff` reads (a reader names a bad line
#: further down when the file is read).
SNIFF_LINES = 100


def sniff(path: str | Path) -> bool:
    """Whether a file (of a suffix other families read too) looks like Sudoku puzzles: its
    first :data:`SNIFF_LINES` lines from its first puzzle (of what ``sniff_text`` reads) when
    it holds a puzzle a line, else the whole drawn grid."""
    try:
        text, whole = sniff_text(path)
        lines = text_lines(text)
        first = first_content(lines)
        if first is not None and grid_token(first) is not None:  # comments above it not counted
            text = "\n".join(lines[:lines.index(first) + SNIFF_LINES])
        elif not whole:
            text = read_text(path)
        parse_text(text, str(path))
    except (OSError, UnicodeDecodeError, InstanceError):
        return False
    return True


def write_file(path: str | Path, instance: Instance, secret: Solution | None = None) -> None:
    """One puzzle a line; a known solution goes in a comment line after it."""
    lines = [instance.to_line()]
    if secret is not None:
        lines.append(f"# solution {secret.to_line()}")
    Path(path).write_text("\n".join(lines) + "\n")


def read_solution(path: str | Path, instance: Instance) -> Solution:
    """A solution grid (one line, drawn, or the JSON of ``cliffbench solve --json``)."""
    path = Path(path)
    text = read_text(path)
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise InstanceError(f"not valid JSON: {exc}", str(path)) from None
        except RecursionError:
            raise InstanceError("not valid JSON: nested too deeply", str(path)) from None
        data = data.get("solution", data) if isinstance(data, dict) else data
        if not isinstance(data, dict) or not isinstance(data.get("grid"), str):
            raise InstanceError("JSON without a solution grid (a string)", str(path))
        if not data["grid"].isascii():
            raise InstanceError("a solution grid of other than ASCII symbols", str(path))
        try:
            return Solution.from_json(data, instance)
        except InstanceError as exc:
            raise InstanceError(exc.reason, str(path)) from None
        except (ValueError, TypeError, OverflowError) as exc:
            raise InstanceError(f"not a solution: {exc}", str(path)) from None
    (grid,) = parse_text(text, str(path))[:1]
    return Solution(grid.box, grid.grid)
