"""Reading and writing Latin-square files: lsencode's ``.pls`` and a JSON form.

``.pls`` (the partial Latin squares of lsencode, the generator of the QWH/QCP literature; one
square a file)::

    order 5
       0   1  -1   3  -1
      -1   4   1   2   0
    ...

The first line is ``order N``, then ``N`` lines of ``N`` integers separated by blanks: the
symbols ``0 .. N-1`` of a row, ``-1`` for a hole. lsencode writes each number right-aligned in
four columns, and so does ``write_file``. Blank lines and lines starting with ``#`` are
skipped; a known completion is written after the square as a ``# solution`` line and ``N``
comment lines of symbols (lsencode never reads past the square, so it reads these files too)::

    # solution
    #    0   1   2   3   4
    ...

The JSON form (suffix ``.json``) is ``Instance.to_json()`` with the known completion, if any,
under ``"solution"`` (``Solution.to_json()``); ``sniff`` recognises it by its ``"family":
"latin"``. A square whose given symbols repeat in a row or a column is refused (lsencode
refuses it too), and so is a completion that does not complete its square. Every malformed
file raises ``InstanceError`` naming the file and, where the fault is on one, the line.

A solution file (``read_solution``) is a ``.pls`` square (its ``# solution`` block when it has
one, else the square itself: a square with holes is a partial answer, which the checker judges)
or JSON: what ``cliffbench solve --json`` prints, a ``Solution.to_json()``, or the JSON form.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from instances.common import (
    Generated,
    InstanceError,
    first_content,
    read_text,
    sniff_text,
    text_lines,
)
from instances.latin.check import check
from instances.latin.model import HOLE, MAX_ORDER, Instance, Solution

SUFFIXES = (".pls", ".json")
#: ASCII digits only (``int`` takes '٣' and '1_000'), and short (``int`` refuses long digit
#: strings): the symbols of a square have at most three digits.
_INT = re.compile(r"[-+]?[0-9]{1,12}")


def _number(token: str, path: str | None, line: int) -> int:
    if not _INT.fullmatch(token):
        raise InstanceError(f"{token[:30]!r} is not an integer", path, line)
    return int(token)


def _row(tokens: list[str], order: int, low: int, what: str, path: str | None,
         line: int) -> list[int]:
    """A row of ``order`` symbols in ``low .. order-1``."""
    if len(tokens) != order:
        raise InstanceError(f"a {what} of order {order} has {order} symbols, this line "
                            f"{len(tokens)}", path, line)
    values = [_number(token, path, line) for token in tokens]
    bad = next((v for v in values if not low <= v < order), None)
    if bad is not None:
        raise InstanceError(f"symbol {bad} is outside {low}..{order - 1}", path, line)
    return values


def _clash(rows: list[tuple[int, list[int]]], order: int, path: str | None) -> None:
    """Refuse a square whose symbols repeat in a row or a column, at the line of the repeat."""
    above: list[dict[int, int]] = [{} for _ in range(order)]
    for r, (line, values) in enumerate(rows):
        seen: set[int] = set()
        for c, value in enumerate(values):
            if value == HOLE:
                continue
            if value in seen:
                raise InstanceError(f"symbol {value} twice in row {r}", path, line)
            if value in above[c]:
                raise InstanceError(f"symbol {value} twice in column {c} (rows {above[c][value]}"
                                    f" and {r})", path, line)
            seen.add(value)
            above[c][value] = r


def parse_pls(text: str, path: str | None = None, name: str = "",
              strict: bool = True) -> tuple[Instance, Solution | None]:
    """The square of a ``.pls`` text, and the completion its ``# solution`` block gives (None
    when it has none). ``strict`` refuses a square whose symbols repeat in a line and a block
    that does not complete it; without it (an answer, for the checker to judge) both pass."""
    order = 0
    header: int | None = None
    rows: list[tuple[int, list[int]]] = []
    block: int | None = None  # the line of '# solution'
    solution: list[list[int]] = []
    for number, raw in enumerate(text_lines(text), 1):
        words = raw.split()
        if not words:
            continue
        if words[0].startswith("#"):
            body = " ".join(words)[1:].split()
            if block is not None and len(solution) < order:
                solution.append(_row(body, order, 0, "solution row", path, number))
            elif body == ["solution"]:
                if header is None or len(rows) < order:
                    raise InstanceError(f"'# solution' before the square's {order or 'N'} rows",
                                        path, number)
                if block is not None:
                    raise InstanceError(f"a second '# solution' (the first is line {block})",
                                        path, number)
                block = number
            continue
        if header is None:
            if words[0] != "order" or len(words) != 2:
                raise InstanceError("a .pls file starts with 'order N'", path, number)
            order = _number(words[1], path, number)
            if not 1 <= order <= MAX_ORDER:
                raise InstanceError(f"order {order} is outside 1..{MAX_ORDER}", path, number)
            header = number
            continue
        if len(rows) == order:
            raise InstanceError(f"a square of order {order} has {order} rows, this is one more",
                                path, number)
        rows.append((number, _row(words, order, HOLE, "row", path, number)))
    if header is None:
        raise InstanceError("no 'order N' line", path)
    if len(rows) < order:
        raise InstanceError(f"a square of order {order} has {order} rows, the file "
                            f"{len(rows)}", path)
    if block is not None and len(solution) < order:
        raise InstanceError(f"the solution has {len(solution)} of its {order} rows", path, block)
    if strict:
        _clash(rows, order, path)
    instance = Instance(order, tuple(v for _, values in rows for v in values), name)
    if block is None:
        return instance, None
    secret = Solution(order, tuple(v for values in solution for v in values))
    verdict = check(instance, secret) if strict else None
    if verdict is not None and not verdict.solved:
        raise InstanceError(f"the solution does not complete the square: {verdict.reason}",
                            path, block)
    return instance, secret


def _json(text: str, path: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InstanceError(f"not valid JSON: {exc.msg}", path, exc.lineno) from None
    except ValueError as exc:  # a number too long for int()
        raise InstanceError(f"not valid JSON: {exc}", path) from None
    except RecursionError:
        raise InstanceError("not valid JSON: nested too deeply", path) from None


def parse_json(text: str, path: str = "<json>") -> tuple[Instance, Solution | None]:
    """The square of the JSON form, and its known completion (None when it has none)."""
    data = _json(text, path)
    if not isinstance(data, dict) or data.get("family") != "latin":
        raise InstanceError("not a latin square: the JSON form is an object with "
                            "\"family\": \"latin\"", path)
    try:
        instance = Instance.from_json(data)
        secret = data.get("solution")
        secret = None if secret is None else Solution.from_json(secret, instance)
    except InstanceError as exc:
        raise InstanceError(exc.reason, path) from None
    n = instance.order
    try:
        _clash([(0, list(instance.cells[r * n:(r + 1) * n])) for r in range(n)], n, None)
    except InstanceError as exc:
        raise InstanceError(exc.reason, path) from None
    if secret is not None:
        verdict = check(instance, secret)
        if not verdict.solved:
            raise InstanceError(f"the solution does not complete the square: {verdict.reason}",
                                path)
    return instance, secret


def read_file(path: str | Path) -> list[Generated]:
    """The square of a ``.pls`` or ``.json`` file (one a file), with its known completion as
    the secret where the file holds one (or where it has no hole)."""
    path = Path(path)
    text = read_text(path)
    if path.suffix == ".json":
        instance, secret = parse_json(text, str(path))
    else:
        instance, secret = parse_pls(text, str(path), path.stem)
    if secret is None and HOLE not in instance.cells:
        secret = Solution(instance.order, instance.cells)
    holes = instance.holes
    params = {"order": instance.order, "holes": holes, "fraction": holes / instance.ncells}
    return [Generated(instance, secret, True if secret is not None else None, params,
                      str(path))]


def format_pls(instance: Instance, secret: Solution | None = None) -> str:
    """The ``.pls`` text of a square (and of its completion, as comment lines)."""
    n = instance.order

    def rows(cells: tuple[int, ...], prefix: str) -> list[str]:
        return [prefix + "".join(f"{v:4d}" for v in cells[r * n:(r + 1) * n])
                for r in range(n)]

    lines = [f"order {n}", *rows(instance.cells, "")]
    if secret is not None:
        lines += ["# solution", *rows(secret.cells, "#")]
    return "\n".join(lines) + "\n"


def format_json(instance: Instance, secret: Solution | None = None) -> str:
    """The JSON form, a row of cells a line."""
    n = instance.order

    def rows(cells: tuple[int, ...], indent: str) -> str:
        return (",\n" + indent).join(", ".join(str(v) for v in cells[r * n:(r + 1) * n])
                                     for r in range(n))

    head = {key: value for key, value in instance.to_json().items() if key != "cells"}
    text = "{" + ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in head.items())
    text += ',\n "cells": [\n  ' + rows(instance.cells, "  ") + "]"
    if secret is not None:
        text += (f',\n "solution": {{"order": {secret.order}, "cells": [\n  '
                 + rows(secret.cells, "  ") + "]}")
    return text + "}\n"


def write_file(path: str | Path, instance: Instance, secret: Solution | None = None) -> None:
    """The square (and its completion) as ``.json`` when the path says so, else ``.pls``."""
    path = Path(path)
    text = format_json(instance, secret) if path.suffix == ".json" else format_pls(instance,
                                                                                  secret)
    path.write_text(text, encoding="utf-8")


def sniff(path: str | Path) -> bool:
    """Whether a file is this family's: JSON with ``"family": "latin"``, or text whose first
    line that is neither blank nor a comment is ``order ...``."""
    path = Path(path)
    try:
        if path.suffix == ".json":
            data = json.loads(read_text(path))
            return isinstance(data, dict) and data.get("family") == "latin"
        first = first_content(text_lines(sniff_text(path)[0]))
        return first is not None and first.split()[0] == "order"
    except (InstanceError, ValueError, RecursionError):
        return False


def read_solution(path: str | Path, instance: Instance) -> Solution:
    """An answer for ``instance``: a ``.pls`` square or JSON (see the module docstring)."""
    path = Path(path)
    text = read_text(path)
    if not text.lstrip().startswith("{"):
        square, secret = parse_pls(text, str(path), strict=False)
        return secret if secret is not None else Solution(square.order, square.cells)
    data = _json(text, str(path))
    if isinstance(data, dict) and "solution" in data:
        data = data["solution"]
    if data is None:
        raise InstanceError("the JSON holds no solution (null)", str(path))
    try:
        return Solution.from_json(data, instance)
    except InstanceError as exc:
        raise InstanceError(exc.reason, str(path)) from None


__all__ = ["SUFFIXES", "format_json", "format_pls", "parse_json", "parse_pls", "read_file",
           "read_solution", "sniff", "write_file"]
