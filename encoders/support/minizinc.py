"""Writing MiniZinc models (``.mzn``) and reading their values back: what the ``mzn`` exports of
the CP-SAT encoders share.

An export is one self-contained file: ``%`` comments that say what it is, the model, and its
data inline as MiniZinc literals (no ``.dzn`` beside it), so ``minizinc --solver gecode
FILE.mzn`` (or any FlatZinc back end) runs it as it is. ``model_text`` assembles it from the
parts an encoder gives; the literal helpers below write the data:

- ``array2d``: a two-dimensional array of equal rows, ``[| 1, 2 | 3, 4 |]`` for index sets
  ``1..rows`` x ``1..cols``, else ``array2d(A..B, C..D, [row-major values])`` (an array must
  be assigned a literal of its own index sets);
- ``set_literal``: a set of integers, ``{1, 3, 4}`` (``{}`` when empty), and
  ``array1d_by_line``, an array of such literals one to a line.

Long literals are wrapped into lines of at most ``WIDTH`` characters (MiniZinc does not mind;
a reader does); ``assign`` writes a data item with its literal on lines of its own.

Every model ends with ``output_item``: the model's answer variables printed as ``name = [v, v,
...];`` assignments, the values flat and row-major, so a program that runs it without
``--output-mode dzn`` prints what the ``minizinc`` output convention reads. The same variables
carry ``:: add_to_output``, so ``--output-mode dzn`` prints exactly them.

Gecode-friendly, which Debian's packages make a matter of care: Debian's Gecode 6.2
(``flatzinc``) ships a MiniZinc library older than its MiniZinc 2.6. Through ``globals.mzn``
that library's ``inverse`` does not type-check, which fails every model that includes it; and
it names its AllDifferent ``all_different_int``, not MiniZinc 2.3's ``fzn_all_different_int``,
so ``alldifferent`` from ``alldifferent.mzn`` is decomposed into pairwise disequalities (no
global propagator: an order-30 Latin square that Gecode's propagator completes in 0.1 s is
still open after 20 s). So every model starts with ``PRELUDE``: it includes
``all_different_int.mzn`` only (Gecode's native declaration under Gecode; MiniZinc's standard
definition, which calls ``fzn_all_different_int``, under any other back end) and defines
``distinct(x)`` as ``all_different_int(x) :: domain_propagation`` (Gecode's domain-consistent
propagator); the models say ``distinct`` for AllDifferent. MiniZinc 2.6 warns on stderr that
``all_different_int`` is deprecated, and still compiles it as above.

The way back, ``ints_of``: the values a program gave for one name (a dict name -> list of ints,
row-major, as ``bench.tools.outputs`` reads them), checked for their count and range, else
None: an encoder's reader turns None into "the answer does not decode".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

WIDTH = 96
PRELUDE = (
    'include "all_different_int.mzn";',
    "% AllDifferent, domain-consistent (why all_different_int: encoders/support/minizinc.py)",
    "predicate distinct(array[int] of var int: x) = all_different_int(x) :: domain_propagation;",
)


def wrapped(prefix: str, items: Iterable[str], suffix: str, indent: str = "    ") -> str:
    """``prefix``, ``items`` joined by ``", "``, then ``suffix``, broken after a comma into lines
    of at most ``WIDTH`` characters, each after the first starting with ``indent``; the first
    is measured as if it stood after ``indent`` too (where ``assign`` puts it). An item longer
    than a line stands on a line of its own."""
    lines: list[str] = []
    line, empty = prefix, True
    for item in items:
        candidate = line + item if empty else f"{line}, {item}"
        lead = 0 if lines else len(indent)  # the first line stands after an indent too
        if not empty and lead + len(candidate) > WIDTH:
            lines.append(line + ",")
            candidate = indent + item
        line, empty = candidate, False
    return "\n".join([*lines, line + suffix])


def array2d(rows: Sequence[Sequence[Any]], first_row: int = 1, first_col: int = 1,
            indent: str = "    ") -> str:
    """A two-dimensional array literal of ``rows`` (all of one length), row ``first_row`` and
    column ``first_col`` first: the ``[| ... |]`` form, a row a line, on 1-based index sets,
    else ``array2d`` over the row-major values."""
    ncols = len(rows[0]) if rows else 0
    if any(len(row) != ncols for row in rows):
        raise ValueError("array2d: rows of different lengths")
    if first_row == 1 and first_col == 1:
        lines = [wrapped(f"{indent}{'[|' if i == 0 else ' |'} ", (str(v) for v in row), "",
                         indent + "   ") for i, row in enumerate(rows)]
        return "\n".join(lines)[len(indent):] + f"\n{indent} |]"
    flat = (str(v) for row in rows for v in row)
    return wrapped(f"array2d({first_row}..{first_row + len(rows) - 1}, "
                   f"{first_col}..{first_col + ncols - 1}, [", flat, "])", indent)


def assign(declaration: str, literal: str) -> str:
    """A data item: ``declaration =``, then the literal on lines of its own, indented."""
    return f"{declaration} =\n    {literal};"


def set_literal(values: Iterable[int], indent: str = "     ") -> str:
    """A set of integers, sorted: ``{1, 3, 4}``; ``{}`` when empty (wrapped as ``wrapped``)."""
    return wrapped("{", (str(v) for v in sorted(set(values))), "}", indent)


def array1d_by_line(literals: Sequence[str], indent: str = "    ") -> str:
    """A one-dimensional array literal (index set ``1..len``) of literals written already
    (sets, say), each on lines of its own."""
    return "[" + f",\n{indent} ".join(literals) + "]"


def output_item(names: Sequence[str]) -> str:
    """The output item that prints each of ``names`` as ``name = [flat values];``."""
    parts = ", ".join(f'"{name} = \\({name});\\n"' for name in names)
    return f"output [{parts}];"


def model_text(comments: Sequence[str], data: Sequence[str], model: Sequence[str],
               outputs: Sequence[str]) -> str:
    """The whole file: ``%`` comment lines, ``PRELUDE``, the data items (``int: n = 9;``), the
    model items (variables, constraints, the solve item), then ``output_item(outputs)``."""
    head = [f"% {line}" if line else "%" for line in comments]
    blocks = [head, list(PRELUDE), list(data), list(model), [output_item(outputs)]]
    return "\n\n".join("\n".join(block) for block in blocks if block) + "\n"


def write_model(path: Path | str, text: str) -> None:
    """Write a model's text (ASCII: a name with other characters is written escaped)."""
    Path(path).write_text(text.encode("ascii", "backslashreplace").decode("ascii"),
                          encoding="ascii")


def comment_safe(text: str) -> str:
    """``text`` on one line, for a ``%`` comment."""
    return " ".join(str(text).split()) or "-"


def ints_of(values: dict[str, list[int]], name: str, count: int, low: int,
            high: int) -> list[int] | None:
    """The ``count`` values a program gave for ``name``, each in ``low..high``, or None (the
    name is missing, or its values are too few, too many or out of range)."""
    found = values.get(name)
    if found is None or len(found) != count:
        return None
    if any(not isinstance(v, int) or not low <= v <= high for v in found):
        return None
    return list(found)
