"""Edge-matching files: the ``.emp`` board format and the plain piece list (``.pieces``).

``.emp`` (see ``shared/data/README.md``)::

    # comment                     (also after a line: everything from '#' on is ignored)
    name <string>
    size <rows> <cols>
    colors <K>                    colours 1..K, 0 = grey
    pieces <P>                    optional count, checked against the p lines
    hints <H>                     optional count, checked against the h lines
    <key> <value>                 optional: border_colors, inner_colors (read into the
                                  Instance), target and any other key (kept in Instance.extra)
    solution <n>                  optional count, checked against the s lines
    h <piece_id> <row> <col> <rot>
    p <piece_id> <N> <E> <S> <W>
    s <row> <col> <piece_id> <rot>

Piece ids are the file's own numbers (``Instance.ids``); inside the project a piece is its index
in file order. A plain piece list has one piece a line, ``N E S W``; its board is square unless a
``# size R C`` comment says otherwise. Every malformed input raises ``InstanceError`` naming the
file and the 1-based line, never another exception: files come from outside, and the one line
a user needs is where the file is wrong.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from instances.common import Generated, InstanceError
from instances.edgematch.check import check
from instances.edgematch.model import Hint, Instance, Solution

SUFFIXES = (".emp", ".pieces")

#: Header lines of ``.emp`` and how many integers follow each.
HEADER_INTS = {"size": 2, "colors": 1, "pieces": 1, "hints": 1, "solution": 1,
               "border_colors": 1, "inner_colors": 1}
#: Record lines (one per hint, piece, solution cell) and how many integers follow each.
RECORD_INTS = {"h": 4, "p": 5, "s": 4}
RESERVED = frozenset(HEADER_INTS) | frozenset(RECORD_INTS) | {"name"}

# ASCII digits only (int() would take '٣' and '1_000'), and short enough that int() never hits
# Python's digit limit: a longer number is an error of its own.
_INT = re.compile(r"[-+]?[0-9]{1,18}")
_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*")
_SIZE_COMMENT = re.compile(r"#\s*size\s+(\S+)\s+(\S+)\s*")


# --------------------------------------------------------------------------------------------
# small helpers


def _lines(text: str) -> list[tuple[int, str]]:
    """(1-based number, content without comment) of every non-blank line.

    Splits on '\\n' only (``str.splitlines`` would also split on form feeds and the like, and
    then the numbers would not match what an editor shows).
    """
    out = []
    for number, raw in enumerate(text.split("\n"), start=1):
        body = raw.split("#", 1)[0].strip()
        if body:
            out.append((number, body))
    return out


def _int(token: str, what: str, path: str, line: int) -> int:
    if not _INT.fullmatch(token):
        reason = "is too long a number" if token.lstrip("+-").isdigit() else "is not an integer"
        raise InstanceError(f"{what}: {token[:30]!r} {reason}", path, line)
    return int(token)


def _ints(tokens: list[str], count: int, what: str, path: str, line: int) -> list[int]:
    """Exactly ``count`` integers, or an error saying how many the line has."""
    if len(tokens) != count:
        raise InstanceError(f"a {what} line takes {count} integers, this one has {len(tokens)}",
                            path, line)
    return [_int(t, what, path, line) for t in tokens]


def _decode(data: bytes, path: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InstanceError("not UTF-8 text", path, line) from None


def _read_text(path: str | Path) -> str:
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise InstanceError(f"cannot read the file: {exc.strerror or exc}", str(path)) from None
    return _decode(data, str(path))


# --------------------------------------------------------------------------------------------
# .emp: scan lines into records, then build and validate


@dataclass
class _Emp:
    """The lines of an ``.emp`` file, sorted by kind, each with its line number."""

    headers: dict[str, tuple[int, list[int]]] = field(default_factory=dict)
    name: tuple[int, str] | None = None
    extra: list[tuple[str, str]] = field(default_factory=list)
    extra_lines: dict[str, int] = field(default_factory=dict)
    records: dict[str, list[tuple[int, list[int]]]] = field(
        default_factory=lambda: {"h": [], "p": [], "s": []})


def _scan(lines: list[tuple[int, str]], path: str) -> _Emp:
    """Sort every line into header, record or key; reject what is none of them."""
    emp = _Emp()
    for number, body in lines:
        tokens = body.split()
        head = tokens[0]
        if head == "name":
            if emp.name is not None:
                raise InstanceError(f"a second name line (the first is line {emp.name[0]})",
                                    path, number)
            if len(tokens) < 2:
                raise InstanceError("name line without a name", path, number)
            emp.name = (number, " ".join(tokens[1:]))
        elif head in RECORD_INTS:
            values = _ints(tokens[1:], RECORD_INTS[head], head, path, number)
            emp.records[head].append((number, values))
        elif head in HEADER_INTS:
            if head in emp.headers:
                raise InstanceError(f"a second {head} line (the first is line "
                                    f"{emp.headers[head][0]})", path, number)
            emp.headers[head] = (number, _ints(tokens[1:], HEADER_INTS[head], head, path, number))
        elif _KEY.fullmatch(head) and len(tokens) >= 2:
            if head in emp.extra_lines:
                raise InstanceError(f"a second {head} line (the first is line "
                                    f"{emp.extra_lines[head]})", path, number)
            emp.extra_lines[head] = number
            emp.extra.append((head, " ".join(tokens[1:])))
        else:
            raise InstanceError(f"cannot read a line starting with {head[:30]!r}: expected "
                                "name/size/colors/pieces/hints, 'key value', or an h, p or s line",
                                path, number)
    return emp


def _size(emp: _Emp, path: str) -> tuple[int, int]:
    if "size" not in emp.headers:
        first = emp.records["p"][0][0] if emp.records["p"] else 1
        raise InstanceError("no 'size <rows> <cols>' line before the pieces", path, first)
    line, (rows, cols) = emp.headers["size"]
    if rows < 1 or cols < 1:
        raise InstanceError(f"size {rows} {cols}: rows and cols must be at least 1", path, line)
    return rows, cols


def _colors(emp: _Emp, path: str) -> int | None:
    """The declared K, or None when the file has no colors line (then it is inferred)."""
    if "colors" not in emp.headers:
        return None
    line, (k,) = emp.headers["colors"]
    if k < 0:
        raise InstanceError(f"colors {k}: must be at least 0", path, line)
    return k


def _count(emp: _Emp, header: str, found: int, what: str, path: str) -> None:
    """A declared count (pieces, hints, solution) must equal the number of lines found."""
    if header in emp.headers:
        line, (declared,) = emp.headers[header]
        if declared != found:
            raise InstanceError(f"{header} {declared} declared, but the file has {found} "
                                f"{what} lines", path, line)


def _piece_edges(values: list[int], k: int | None, path: str, line: int) -> tuple[int, ...]:
    for colour in values:
        if colour < 0 or (k is not None and colour > k):
            bound = f"0..{k}" if k is not None else "0 or more"
            raise InstanceError(f"colour {colour} is out of range ({bound})", path, line)
    return tuple(values)


def _pieces(emp: _Emp, k: int | None, path: str) -> tuple[tuple[int, ...], tuple[tuple, ...]]:
    """Ids and edges in file order; a repeated id is an error naming both lines."""
    seen: dict[int, int] = {}
    ids, pieces = [], []
    for line, (pid, *edges) in emp.records["p"]:
        if pid in seen:
            raise InstanceError(f"piece id {pid} appears twice (first on line {seen[pid]})",
                                path, line)
        seen[pid] = line
        ids.append(pid)
        pieces.append(_piece_edges(edges, k, path, line))
    return tuple(ids), tuple(pieces)


def _place(pid: int, row: int, col: int, rot: int, index: dict[int, int],
           rows: int, cols: int, what: str, path: str, line: int) -> int:
    """Validate a (piece id, cell, rotation) of an h or s line; return the piece index."""
    if pid not in index:
        raise InstanceError(f"{what} names piece id {pid}, which no p line defines", path, line)
    if not (0 <= row < rows and 0 <= col < cols):
        raise InstanceError(f"{what} cell ({row},{col}) is off the {rows}x{cols} board",
                            path, line)
    if not 0 <= rot <= 3:
        raise InstanceError(f"{what} rotation {rot} is not one of 0..3", path, line)
    return index[pid]


def _hints(emp: _Emp, index: dict[int, int], rows: int, cols: int,
           path: str) -> tuple[Hint, ...]:
    hints: list[Hint] = []
    cells: dict[tuple[int, int], int] = {}
    pieces: dict[int, int] = {}
    for line, (pid, row, col, rot) in emp.records["h"]:
        piece = _place(pid, row, col, rot, index, rows, cols, "hint", path, line)
        if (row, col) in cells:
            raise InstanceError(f"a second hint for cell ({row},{col}) (first on line "
                                f"{cells[row, col]})", path, line)
        if piece in pieces:
            raise InstanceError(f"piece id {pid} is pinned twice (first on line "
                                f"{pieces[piece]})", path, line)
        cells[row, col], pieces[piece] = line, line
        hints.append(Hint(piece, row, col, rot))
    return tuple(hints)


def _solution_lines(records: Iterable[tuple[int, list[int]]], instance: Instance,
                    path: str) -> Solution:
    """A board from ``s row col id rot`` records; empty cells stay None."""
    index = instance.index_of_id()
    rows, cols = instance.rows, instance.cols
    cells: list[tuple[int, int] | None] = [None] * (rows * cols)
    where: dict[int, int] = {}
    for line, (row, col, pid, rot) in records:
        piece = _place(pid, row, col, rot, index, rows, cols, "solution", path, line)
        cell = row * cols + col
        if cell in where:
            raise InstanceError(f"a second s line for cell ({row},{col}) (first on line "
                                f"{where[cell]})", path, line)
        where[cell] = line
        cells[cell] = (piece, rot)
    return Solution(rows, cols, tuple(cells))


def _split(emp: _Emp, k: int, path: str) -> tuple[int, int]:
    """border_colors / inner_colors when the file gives them (0 = unknown: nothing inferred)."""
    values = {}
    for key in ("border_colors", "inner_colors"):
        values[key] = 0
        if key in emp.headers:
            line, (value,) = emp.headers[key]
            if not 0 <= value <= k:
                raise InstanceError(f"{key} {value} is out of range (0..{k})", path, line)
            values[key] = value
    border, inner = values["border_colors"], values["inner_colors"]
    if border + inner > k:
        line = emp.headers["inner_colors"][0]
        raise InstanceError(f"border_colors {border} + inner_colors {inner} exceed colors {k}",
                            path, line)
    return border, inner


def _params(instance: Instance, stem: str) -> dict[str, Any]:
    return {"rows": instance.rows, "cols": instance.cols, "colors": instance.colors,
            "border_colors": instance.border_colors, "inner_colors": instance.inner_colors,
            "hints": len(instance.hints), "name": stem}


def _generated(instance: Instance, secret: Solution | None, path: str) -> Generated:
    """Wrap an instance; a file's solution proves feasibility only if the checker solves it.

    A full board that is not a solution (say, a record 470/480 board) proves nothing, so
    ``feasible`` stays None then.
    """
    feasible = None
    if secret is not None and secret.placed() == instance.ncells:
        feasible = True if check(instance, secret).solved else None
    return Generated(instance, secret=secret, feasible=feasible,
                     params=_params(instance, Path(path).stem), source=path)


def parse_emp(text: str, path: str = "<text>") -> Generated:
    """An ``.emp`` text as a Generated (the ``s`` lines, if any, as the secret)."""
    emp = _scan(_lines(text), path)
    rows, cols = _size(emp, path)
    declared = _colors(emp, path)
    ids, pieces = _pieces(emp, declared, path)
    _count(emp, "pieces", len(pieces), "p", path)
    if len(pieces) != rows * cols:
        line = emp.headers.get("pieces", emp.headers["size"])[0]
        raise InstanceError(f"a {rows}x{cols} board needs {rows * cols} pieces, the file has "
                            f"{len(pieces)}", path, line)
    k = declared if declared is not None else max(max(p) for p in pieces)
    index = {pid: i for i, pid in enumerate(ids)}
    hints = _hints(emp, index, rows, cols, path)
    _count(emp, "hints", len(hints), "h", path)
    border, inner = _split(emp, k, path)
    instance = Instance(rows=rows, cols=cols, colors=k, pieces=pieces, ids=ids, hints=hints,
                        name=emp.name[1] if emp.name else "", border_colors=border,
                        inner_colors=inner, extra=tuple(emp.extra))
    _count(emp, "solution", len(emp.records["s"]), "s", path)
    # A 'solution' line makes the board the secret even with no s lines (an empty board).
    has_secret = emp.records["s"] or "solution" in emp.headers
    secret = _solution_lines(emp.records["s"], instance, path) if has_secret else None
    return _generated(instance, secret, path)


# --------------------------------------------------------------------------------------------
# plain piece lists


def _is_piece_list(text: str) -> bool:
    """Every non-comment line is four integers (and there is at least one)."""
    lines = _lines(text)
    return bool(lines) and all(
        len(t := body.split()) == 4 and all(_INT.fullmatch(x) for x in t) for _, body in lines)


def _size_comment(text: str, path: str) -> tuple[int, int] | None:
    """The ``# size R C`` comment of a piece list, if it has one."""
    found: tuple[int, int, int] | None = None
    for number, raw in enumerate(text.split("\n"), start=1):
        match = _SIZE_COMMENT.fullmatch(raw.strip())
        if not match:
            continue
        if found is not None:
            raise InstanceError(f"a second '# size' line (the first is line {found[0]})",
                                path, number)
        rows, cols = (_int(t, "size", path, number) for t in match.groups())
        if rows < 1 or cols < 1:
            raise InstanceError(f"size {rows} {cols}: rows and cols must be at least 1",
                                path, number)
        found = (number, rows, cols)
    return None if found is None else (found[1], found[2])


def parse_pieces(text: str, path: str = "<text>") -> Generated:
    """A plain piece list: ``N E S W`` a line, ids 1..P in order, colours 0..max."""
    records = [(number, _ints(body.split(), 4, "piece", path, number))
               for number, body in _lines(text)]
    if not records:
        raise InstanceError("no pieces in the file", path, 1)
    pieces = tuple(_piece_edges(values, None, path, number) for number, values in records)
    size = _size_comment(text, path)
    if size is None:
        side = math.isqrt(len(pieces))
        if side * side != len(pieces):
            raise InstanceError(f"{len(pieces)} pieces do not make a square board; give the size "
                                "with a '# size <rows> <cols>' comment", path, records[0][0])
        size = (side, side)
    rows, cols = size
    if rows * cols != len(pieces):
        raise InstanceError(f"a {rows}x{cols} board needs {rows * cols} pieces, the file has "
                            f"{len(pieces)}", path, records[0][0])
    k = max(max(p) for p in pieces)
    instance = Instance(rows=rows, cols=cols, colors=k, pieces=pieces)
    return _generated(instance, None, path)


def parse_text(text: str, path: str = "<text>") -> Generated:
    """Either format: ``.pieces`` by suffix or when every line is four integers, else ``.emp``."""
    if str(path).endswith(".pieces") or _is_piece_list(text):
        return parse_pieces(text, path)
    return parse_emp(text, path)


def read_file(path: str | Path) -> list[Generated]:
    """Every instance of a file (one per file in both formats), with its secret if it has one."""
    return [parse_text(_read_text(path), str(path))]


# --------------------------------------------------------------------------------------------
# writing


def _writable(text: str, what: str) -> str:
    """A name or value that reads back exactly: one line, no '#', no stray spaces."""
    if "#" in text or text != " ".join(text.split()):
        raise InstanceError(f"{what} {text!r} cannot be written to .emp (it has '#', a line "
                            "break or extra spaces)")
    return text


def format_emp(instance: Instance, secret: Solution | None = None) -> str:
    """The ``.emp`` text of an instance (and of a known solution, as ``s`` lines)."""
    out = [f"# cliffbench edgematch instance {instance.instance_id}"]
    if instance.name:
        out.append(f"name {_writable(instance.name, 'name')}")
    out += [f"size {instance.rows} {instance.cols}", f"colors {instance.colors}",
            f"pieces {len(instance.pieces)}", f"hints {len(instance.hints)}"]
    if instance.border_colors:
        out.append(f"border_colors {instance.border_colors}")
    if instance.inner_colors:
        out.append(f"inner_colors {instance.inner_colors}")
    for key, value in instance.extra:
        if key in RESERVED or not _KEY.fullmatch(key):
            raise InstanceError(f"extra key {key!r} cannot be written to .emp")
        out.append(f"{key} {_writable(value, f'value of {key}')}")
    placed = _secret_lines(instance, secret)
    if secret is not None:
        out.append(f"solution {len(placed)}")
    out += [f"h {instance.ids[h.piece]} {h.row} {h.col} {h.rot}" for h in instance.hints]
    out += [f"p {pid} {' '.join(map(str, edges))}"
            for pid, edges in zip(instance.ids, instance.pieces, strict=True)]
    return "\n".join(out + placed) + "\n"


def _secret_lines(instance: Instance, secret: Solution | None) -> list[str]:
    if secret is None:
        return []
    if (secret.rows, secret.cols) != (instance.rows, instance.cols):
        raise InstanceError(f"the solution is {secret.rows}x{secret.cols}, the instance "
                            f"{instance.rows}x{instance.cols}")
    return [f"s {cell // secret.cols} {cell % secret.cols} {instance.ids[v[0]]} {v[1]}"
            for cell, v in enumerate(secret.cells) if v is not None]


def write_file(path: str | Path, instance: Instance, secret: Solution | None = None) -> None:
    """Write ``.emp`` (whatever the suffix): ``read_file`` gives back the same instance."""
    Path(path).write_text(format_emp(instance, secret))


# --------------------------------------------------------------------------------------------
# solutions


def _json_int(value: Any, what: str, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InstanceError(f"{what}: {value!r} is not an integer", path)
    return value


def _json_solution(data: Any, instance: Instance, path: str) -> Solution:
    """``{"rows", "cols", "cells": [[r, c, id, rot], ...]}``, or that under a "solution" key."""
    if isinstance(data, dict) and "solution" in data and "cells" not in data:
        data = data["solution"]
        if data is None:
            raise InstanceError("the answer holds no solution (\"solution\": null)", path)
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        raise InstanceError("expected an object with a \"cells\" list (or a \"solution\" "
                            "object holding one)", path)
    rows = _json_int(data.get("rows", instance.rows), "rows", path)
    cols = _json_int(data.get("cols", instance.cols), "cols", path)
    if (rows, cols) != (instance.rows, instance.cols):
        raise InstanceError(f"the solution is {rows}x{cols}, the instance "
                            f"{instance.rows}x{instance.cols}", path)
    records = []
    for i, entry in enumerate(data["cells"]):
        if not isinstance(entry, list) or len(entry) != 4:
            raise InstanceError(f"cells[{i}]: expected [row, col, piece_id, rot]", path)
        records.append((i, [_json_int(v, f"cells[{i}]", path) for v in entry]))
    try:
        return _solution_lines(records, instance, path)
    except InstanceError as exc:  # the "line" is the index into cells: say so
        raise InstanceError(f"cells[{exc.line}]: {exc.reason}", path) from None


def parse_solution(text: str, instance: Instance, path: str = "<text>") -> Solution:
    """A solution text: JSON (starts with '{') or ``s row col id rot`` lines (others ignored)."""
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InstanceError(f"bad JSON: {exc.msg}", path, exc.lineno) from None
        except ValueError as exc:  # an integer past Python's digit limit
            raise InstanceError(f"bad JSON: {exc}", path) from None
        except RecursionError:
            raise InstanceError("bad JSON: nested too deeply", path) from None
        return _json_solution(data, instance, path)
    records = [(number, _ints(body.split()[1:], 4, "s", path, number))
               for number, body in _lines(text) if body.split()[0] == "s"]
    return _solution_lines(records, instance, path)


def read_solution(path: str | Path, instance: Instance) -> Solution:
    """A solution file for ``instance``: ``s`` lines or the JSON of ``cliffbench solve --json``."""
    return parse_solution(_read_text(path), instance, str(path))
