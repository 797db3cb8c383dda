"""Recipes: how a reference file is rebuilt from the public files it was derived from.

Each recipe is a plain function ``recipe(sources, **params) -> bytes``: ``sources`` are the
downloaded public files' bytes, in the order the registry lists them (``bench.data.files``),
and ``params`` are the entry's fixed parameters (our own header lines, the official hint
positions). A recipe is deterministic and reads nothing else; the caller checks the result's
sha256 against the recorded hash of our file before anything is written, so a recipe that no
longer fits its source fails loudly instead of installing a different file. Text is read as
UTF-8 with CRLF line ends read as LF; output lines end with LF. Only the standard library is
imported.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Sequence

#: Eternity II colour numbers in jwortmann/Eternity2Puzzles.jl's ``pieces/e2pieces.txt`` that
#: differ from the official numbering (the frame colours 2, 3, 4 are rotated); the rest agree.
JWORTMANN_TO_OFFICIAL = {2: 3, 3: 4, 4: 2}


class RecipeError(ValueError):
    """A source file is not in the shape its recipe expects."""


def text_lines(source: bytes) -> list[str]:
    """The lines of a UTF-8 text, CRLF or LF, without their ends (a final newline adds none)."""
    text = source.decode("utf-8").replace("\r\n", "\n")
    return text.removesuffix("\n").split("\n") if text else []


def joined(lines: Iterable[str]) -> bytes:
    """Lines as bytes, each ending with a newline."""
    return "".join(f"{line}\n" for line in lines).encode("utf-8")


def comments(lines: Iterable[str], mark: str = "#") -> list[str]:
    """Header lines, each behind ``mark`` and a space."""
    return [f"{mark} {line}" for line in lines]


# -- Sudoku ----------------------------------------------------------------------------------------

def count_line_dropped(sources: Sequence[bytes]) -> bytes:
    """A puzzle list whose first line is its number of puzzles (``95``) and whose last line may
    lack its newline, as one puzzle a line: the count line dropped (it must equal the number of
    puzzles that follow), every line ending with a newline."""
    count, *puzzles = text_lines(sources[0])
    if not count.strip().isdigit() or int(count) != len(puzzles):
        raise RecipeError(f"the first line {count!r} is not the number of puzzles "
                          f"({len(puzzles)})")
    return joined(puzzles)


def puzzle_lines(sources: Sequence[bytes], step: int = 1, count: int | None = None) -> bytes:
    """A puzzle list in tdoku's format (``#`` comment lines, one puzzle a line), as one puzzle a
    line: comment and blank lines dropped, then every ``step``-th puzzle from the first, at
    most ``count`` of them (a sample such as "every 49th of the 49,158 17-clue puzzles")."""
    puzzles = [line for line in text_lines(sources[0]) if line.strip() and line[0] != "#"]
    chosen = puzzles[::step][:count]
    if count is not None and len(chosen) < count:
        raise RecipeError(f"{len(puzzles)} puzzles give {len(chosen)} every {step}th, "
                          f"not {count}")
    return joined(chosen)


# -- sliding tiles ---------------------------------------------------------------------------------

def korf15_pairs(source: bytes) -> list[tuple[list[str], list[str]]]:
    """Lee-Li-404/15Puzzle_Search's ``test_full.txt``: per instance a line ``id optimal nodes``
    (sometimes with trailing blanks) and a line of the 16 tiles."""
    lines = [line.split() for line in text_lines(source) if line.strip()]
    pairs = list(zip(lines[0::2], lines[1::2], strict=True))
    for head, tiles in pairs:
        if len(head) != 3 or len(tiles) != 16:
            raise RecipeError(f"instance {' '.join(head)!r}: expected 'id optimal nodes' and "
                              "16 tiles")
    return pairs


def korf15_instances(sources: Sequence[bytes], header: Sequence[str]) -> bytes:
    """Korf's 100 15-puzzles as ``id optimal t0 .. t15`` lines under our header."""
    body = (f"{head[0]} {head[1]} {' '.join(tiles)}" for head, tiles in
            korf15_pairs(sources[0]))
    return joined([*comments(header), *body])


def korf15_nodes(sources: Sequence[bytes], header: Sequence[str]) -> bytes:
    """The node counts Korf (1985) lists, as ``id optimal nodes`` lines under our header."""
    body = (" ".join(head) for head, _ in korf15_pairs(sources[0]))
    return joined([*comments(header), *body])


KORF24_ROW = re.compile(r"^ *(\d+) ([\d,]+) +(\d+) +(\d+) *$")


def korf24_rows(source: bytes) -> list[tuple[str, list[str], str, str]]:
    """clausecker/24puzzle's ``doc/korf.txt``: rows ``id t0,t1,..,t24 dist expansions`` under
    a few lines of prose."""
    rows = []
    for line in text_lines(source):
        m = KORF24_ROW.match(line)
        if m:
            tiles = m.group(2).split(",")
            if len(tiles) != 25:
                raise RecipeError(f"instance {m.group(1)}: {len(tiles)} tiles, not 25")
            rows.append((m.group(1), tiles, m.group(3), m.group(4)))
    return rows


def korf24_instances(sources: Sequence[bytes], header: Sequence[str]) -> bytes:
    """Korf and Felner's 50 24-puzzles as ``id optimal t0 .. t24`` lines under our header."""
    body = (f"{i} {dist} {' '.join(tiles)}" for i, tiles, dist, _ in korf24_rows(sources[0]))
    return joined([*comments(header), *body])


def korf24_nodes(sources: Sequence[bytes], header: Sequence[str]) -> bytes:
    """Korf and Felner's published node counts as ``id optimal nodes`` lines under our header."""
    body = (f"{i} {dist} {nodes}" for i, _, dist, nodes in korf24_rows(sources[0]))
    return joined([*comments(header), *body])


# -- edge matching ---------------------------------------------------------------------------------

def emp_text(name: str, rows: int, cols: int, colors: int, header: Sequence[str],
             hints: Sequence[tuple[int, int, int, int]],
             pieces: Sequence[tuple[int, Sequence[int]]]) -> bytes:
    """An ``.emp`` board (``../shared/data/README.md``): header comments, the size lines, ``h id
    row col rot`` hint lines by piece id, ``p id N E S W`` piece lines in the given order."""
    lines = [*comments(header), f"name {name}", f"size {rows} {cols}", f"colors {colors}",
             f"pieces {len(pieces)}", f"hints {len(hints)}"]
    lines += [f"h {p} {r} {c} {rot}" for p, r, c, rot in sorted(hints)]
    lines += [f"p {ident} {' '.join(map(str, edges))}" for ident, edges in pieces]
    return joined(lines)


def eternity2_emp(sources: Sequence[bytes], name: str, header: Sequence[str],
                  hints: Sequence[Sequence[int]]) -> bytes:
    """The official Eternity II set from jwortmann's ``pieces/e2pieces.txt`` (256 lines ``N E S
    W``, piece ids = line numbers, 0 = grey): the frame colours renumbered to the official
    numbering (``JWORTMANN_TO_OFFICIAL``), with the given hints (``piece row col rot``)."""
    pieces = [[int(x) for x in line.split()] for line in text_lines(sources[0]) if line.strip()]
    if len(pieces) != 256 or any(len(p) != 4 for p in pieces):
        raise RecipeError("expected 256 lines of 4 edge colours")
    official = [(i, [JWORTMANN_TO_OFFICIAL.get(c, c) for c in edges])
                for i, edges in enumerate(pieces, 1)]
    return emp_text(name, 16, 16, 22, header, [tuple(h) for h in hints], official)


def clue_emp(sources: Sequence[bytes], name: str, rows: int, cols: int,
             header: Sequence[str], footer: Sequence[str]) -> bytes:
    """An Eternity II clue puzzle from a piece list (``id N E S W`` lines, or ``N E S W`` lines
    whose ids are the line numbers), its colours compacted to 1..K in the order of their
    labels (0 stays grey); the header says which labels became 1..K."""
    listed = [[int(x) for x in line.split()] for line in text_lines(sources[0]) if line.strip()]
    if any(len(p) not in (4, 5) for p in listed) or len(listed) != rows * cols:
        raise RecipeError(f"expected {rows * cols} lines of 4 edge colours (with or without "
                          "an id)")
    pieces = [(p[0], p[1:]) if len(p) == 5 else (i, p) for i, p in enumerate(listed, 1)]
    labels = sorted({c for _, edges in pieces for c in edges if c})
    number = {label: k for k, label in enumerate(labels, 1)}
    compact = [(i, [number.get(c, 0) for c in edges]) for i, edges in pieces]
    note = f"colours compacted to 1..{len(labels)} (original labels {labels})"
    return emp_text(name, rows, cols, len(labels), [*header, note, *footer], [], compact)


# -- exact cover with colours ----------------------------------------------------------------------

def comments_replaced(sources: Sequence[bytes], title: str) -> bytes:
    """An exact-cover file with ``//`` comment lines (xcover's test inputs) in Knuth's format:
    the comments and blank lines dropped, one ``| title`` line first."""
    kept = [line for line in text_lines(sources[0]) if line.strip() and
            not line.startswith("//")]
    return joined([f"| {title}", *kept])


DLX2_EXAMPLE = re.compile(r"\\vcenter\{\\halign\{\\tt#\\cr\n(.*?)\}\}\n\$\$", re.DOTALL)


def dlx2_example(sources: Sequence[bytes], suffix: str) -> bytes:
    """The first displayed test case of Knuth's ``dlx2.w`` (a TeX ``\\halign`` of ``\\cr``-ended
    lines) in Knuth's input format: ``\\char"7C\\ `` read as ``| ``, the comment line
    followed by ``suffix``."""
    m = DLX2_EXAMPLE.search("\n".join(text_lines(sources[0])))
    if not m:
        raise RecipeError("no \\vcenter{\\halign{...}} test case found")
    lines = [line.removesuffix("\\cr").replace('\\char"7C\\ ', "| ")
             for line in m.group(1).split("\n")]
    if not lines or not lines[0].startswith("| "):
        raise RecipeError("the test case does not start with a comment line")
    return joined([lines[0] + suffix, *lines[1:]])


def python_test_dlx(sources: Sequence[bytes], function: str, title: str) -> bytes:
    """A coloured exact-cover problem written as the literals ``primary``, ``secondary`` and
    ``options`` of a test function (xcover's ``test_xcover.py``), in Knuth's format: a ``|
    title`` line, the items (primary ``|`` secondary), one option a line."""
    tree = ast.parse(sources[0].decode("utf-8"))
    found = [node for node in ast.walk(tree)
             if isinstance(node, ast.FunctionDef) and node.name == function]
    if not found:
        raise RecipeError(f"no function {function!r}")
    wanted = ("primary", "secondary", "options")
    values = {target.id: ast.literal_eval(node.value) for node in ast.walk(found[0])
              if isinstance(node, ast.Assign) for target in node.targets
              if isinstance(target, ast.Name) and target.id in wanted}
    if not set(wanted) <= values.keys():
        raise RecipeError(f"{function!r} does not assign primary, secondary and options")
    items = f"{' '.join(values['primary'])} | {' '.join(values['secondary'])}"
    return joined([f"| {title}", items, *(" ".join(option) for option in values["options"])])


def queens_dlx(sources: Sequence[bytes], n: int, title: str) -> bytes:
    """The n-queens problem as exact cover (built, nothing is downloaded): rows ``r*`` and
    columns ``c*`` primary, the diagonals ``a{r+c}`` and anti-diagonals ``b{r-c+n-1}``
    secondary; one option ``r c a b`` a square, row by row."""
    primary = [f"r{i}" for i in range(n)] + [f"c{i}" for i in range(n)]
    secondary = [f"a{i}" for i in range(2 * n - 1)] + [f"b{i}" for i in range(2 * n - 1)]
    options = [f"r{r} c{c} a{r + c} b{r - c + n - 1}" for r in range(n) for c in range(n)]
    return joined([f"| {title}", f"{' '.join(primary)} | {' '.join(secondary)}", *options])


#: The recipes by the name the registry gives them.
RECIPES: dict[str, Callable[..., bytes]] = {f.__name__: f for f in (
    count_line_dropped, puzzle_lines, korf15_instances, korf15_nodes, korf24_instances,
    korf24_nodes, eternity2_emp, clue_emp, comments_replaced, dlx2_example, python_test_dlx,
    queens_dlx)}
