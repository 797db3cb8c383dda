"""Reading and writing sliding-tile instances: Korf's lists and their plain cousin.

One instance a line, integers separated by spaces; ``#`` starts a comment line::

    # Korf (1985) 100 random 15-puzzle instances. Format: id optimal_length t0 .. t15
    1 57 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3

A line holds either the ``n`` tiles (cell by cell, row-major, 0 the blank) or ``id optimal``
and then the ``n`` tiles (``-`` for an unknown optimum). Without a ``size ROWS COLS`` line the
board is square and ``n`` says its side (9, 16, 25, ...). The goal is Korf's, blank first,
unless a ``goal blank-last`` line says otherwise. A ``# solution MOVES`` line right after an
instance gives a known solution (as ``gen`` writes a scramble's walk back).
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

from instances.common import Generated, InstanceError, read_text, sniff_text, text_lines
from instances.tiles.model import GOALS, Instance, Solution

SUFFIXES = (".tiles", ".txt")

# ASCII digits only (int() would take '٣', '²' or '1_000'), short enough that int() never meets
# Python's digit limit; a board of more cells than MAX_CELLS is refused before anything is built.
_INT = re.compile(r"[-+]?[0-9]{1,18}")
MAX_CELLS = 1 << 16


def _integer(word: str, what: str, path: str | None, number: int) -> int:
    if not _INT.fullmatch(word):
        raise InstanceError(f"{what}: {word[:30]!r} is not an integer (at most 18 digits)",
                            path, number)
    return int(word)


def _square_side(count: int) -> int | None:
    if count < 4:
        return None
    side = math.isqrt(count)
    return side if side * side == count else None


def _shape(count: int, size: tuple[int, int] | None) -> tuple[int, int, bool] | None:
    """(rows, cols, with_id_and_optimum) for a line of ``count`` numbers, None if none fits."""
    if size is not None:
        n = size[0] * size[1]
        return (*size, False) if count == n else (*size, True) if count == n + 2 else None
    if (side := _square_side(count)) is not None:
        return side, side, False
    if (side := _square_side(count - 2)) is not None:
        return side, side, True
    return None


def parse_text(text: str, path: str | None = None) -> list[Generated]:
    """Every instance of a file's text, with its listed optimum and any known solution."""
    size: tuple[int, int] | None = None
    goal = "blank-first"
    out: list[Generated] = []
    stem = Path(path).stem if path else "tiles"
    for number, line in enumerate(text_lines(text), 1):
        words = line.split()
        if not words:
            continue
        if words[:2] == ["#", "solution"] and len(words) == 3 and out:
            last = out[-1]
            try:
                secret = Solution(words[2].upper())
            except InstanceError as exc:
                raise InstanceError(exc.reason, path, number) from None
            out[-1] = Generated(last.instance, secret, True, last.params, last.source,
                                last.known_optimum)
            continue
        if words[0].startswith("#"):
            continue
        if words[0] == "size":
            if len(words) != 3:
                raise InstanceError("expected 'size ROWS COLS'", path, number)
            rows, cols = (_integer(w, "size", path, number) for w in words[1:])
            if not (2 <= rows and 2 <= cols and rows * cols <= MAX_CELLS):
                raise InstanceError(f"size {rows} {cols}: a board is 2x2 at least and has at "
                                    f"most {MAX_CELLS} cells", path, number)
            size = (rows, cols)
            continue
        if words[0] == "goal":
            if len(words) != 2 or words[1] not in GOALS:
                raise InstanceError(f"expected 'goal {' or '.join(GOALS)}'", path, number)
            goal = words[1]
            continue
        out.append(_instance_line(words, size, goal, f"{stem}#{len(out) + 1}", path, number))
    if not out:
        raise InstanceError("no instance in the file", path)
    return out


def _instance_line(words: list[str], size: tuple[int, int] | None, goal: str, name: str,
                   path: str | None, number: int) -> Generated:
    shape = _shape(len(words), size)
    if shape is None:
        raise InstanceError(f"{len(words)} numbers: not the tiles of a board, with or without "
                            "'id optimal' in front (give a 'size ROWS COLS' line for a "
                            "rectangle)", path, number)
    rows, cols, with_id = shape
    head, tiles = (words[:2], words[2:]) if with_id else ([], words)
    values = tuple(_integer(t, "tile", path, number) for t in tiles)
    optimum = None if not head or head[1] in ("-", "?") else _integer(head[1], "optimum", path,
                                                                        number)
    if optimum is not None and optimum < 0:
        raise InstanceError(f"optimum {optimum} is negative", path, number)
    label = f"{name.split('#')[0]}#{head[0]}" if head else name
    try:
        instance = Instance(rows, cols, values, goal, label)
    except InstanceError as exc:
        raise InstanceError(exc.reason, path, number) from None
    params = {"rows": rows, "cols": cols, "goal": goal}
    return Generated(instance, None, True if instance.solvable else None, params, str(path or ""),
                     float(optimum) if optimum is not None else None)


def read_file(path: str | Path) -> list[Generated]:
    path = Path(path)
    text = read_text(path)
    return parse_text(text, str(path))


def sniff(path: str | Path) -> bool:
    """Whether a file (of a suffix other families read too) looks like tile instances: what
    ``sniff_text`` reads of it reads as such (a reader names a bad line further down when the
    file is read)."""
    try:
        parse_text(sniff_text(path)[0], str(path))
    except InstanceError:
        return False
    return True


def write_file(path: str | Path, instance: Instance, secret: Solution | None = None,
               optimum: int | None = None) -> None:
    lines = [f"size {instance.rows} {instance.cols}", f"goal {instance.goal}",
             f"1 {optimum if optimum is not None else '-'} " + " ".join(map(str, instance.tiles))]
    if secret is not None and secret.moves:
        lines.append(f"# solution {secret.moves}")
    Path(path).write_text("\n".join(lines) + "\n")


def read_solution(path: str | Path, instance: Instance) -> Solution:
    """The blank's moves (a line of U/D/L/R), or the JSON that ``cliffbench solve --json``
    prints."""
    path = Path(path)
    text = read_text(path).strip()
    try:
        if text.startswith("{"):
            data = json.loads(text)
            return Solution.from_json(data.get("solution", data), instance)
        return Solution("".join(text.split()).upper())
    except (ValueError, KeyError, AttributeError, TypeError, InstanceError) as exc:
        raise InstanceError(f"not a solution: {exc}", str(path)) from None
    except RecursionError:
        raise InstanceError("not a solution: JSON nested too deeply", str(path)) from None
