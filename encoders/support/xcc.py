"""Exact cover with colours (XCC): Knuth's DLX text format, and a thin wrapper around xcover.

Knuth's Algorithm C (TAOCP 7.2.2.1) covers every *primary* item exactly once and each
*secondary* item at most once, or any number of times by options that all give it the same
colour. That last rule is what edge matching needs (seed 004): a join is not "used once", it is
coloured alike from both sides.

The DLX format (Knuth's dlx1/dlx2 programs, also read by xcover and most other XCC solvers):

    | a comment line starts with a bar
    A B C | X Y          <- the first other line: primary items, a bar, secondary items
    A B X:0 Y:0          <- then one option a line; ``item:colour`` colours a secondary item

Blank lines are skipped as well. A line starting with a bar is always a comment, so the item
line always names a primary item first. The reader is lenient about name lengths (xcover's own test
files use longer names); the writer checks dlx2's limits (item names of at most 8 characters,
colour names of one) unless asked not to, so that what it writes runs under Knuth's programs.

``Problem`` numbers items primary first, then secondary, which is xcover's own convention, so
it passes to ``xcover.algorithm_c`` (the numba kernel behind ``xcover.covers``) as arrays
without any string parsing. xcover has no node or time limits of its own: a search between two
solutions runs until it ends, and only the caller's deadline checks *between* solutions (and the
harness's kill) can stop it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Protocol, TypeVar

import numpy as np

from bench.api import Outcome
from instances.common import InstanceError, text_lines

# dlx2's limits (Knuth's dlx2.w: names of at most 8 characters; colours are one character).
MAX_NAME = 8
MAX_COLOUR = 1

Entry = tuple[int, int]  # (item index, colour index: 0 = none, c >= 1 names colours[c - 1])


@dataclass(frozen=True)
class Problem:
    """An XCC problem. Items are numbered primary first, then secondary; every option is a
    tuple of (item, colour) entries. Immutable, so the xcover arrays can be cached on it."""

    primary: tuple[str, ...]
    secondary: tuple[str, ...]
    options: tuple[tuple[Entry, ...], ...]
    colours: tuple[str, ...] = ()

    @property
    def items(self) -> tuple[str, ...]:
        return self.primary + self.secondary

    def named_option(self, index: int) -> list[str]:
        """An option as DLX tokens: ``item`` or ``item:colour``."""
        names = self.items
        return [names[i] + (f":{self.colours[c - 1]}" if c else "")
                for i, c in self.options[index]]

    def named_options(self) -> list[list[str]]:
        """Every option as DLX tokens (how a round trip is compared)."""
        return [self.named_option(k) for k in range(len(self.options))]

    @cached_property
    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, int]:
        """(options, options_ptr, colours, n_items, n_secondary) as ``algorithm_c`` takes them:
        flat uint32 item numbers, the start of each option, and a colour per entry."""
        lengths = np.fromiter((len(o) for o in self.options), dtype=np.int64,
                              count=len(self.options))
        ptr = np.zeros(len(self.options) + 1, dtype=np.uint32)
        ptr[1:] = np.cumsum(lengths)
        flat = np.fromiter((v for o in self.options for e in o for v in e), dtype=np.uint32,
                           count=2 * int(lengths.sum()))
        return (np.ascontiguousarray(flat[0::2]), ptr, np.ascontiguousarray(flat[1::2]),
                len(self.items), len(self.secondary))


# --- reading ----------------------------------------------------------------------------------


def _content_lines(text: str) -> Iterator[tuple[int, str]]:
    """(line number, line) of the lines that are neither blank nor ``|`` comments.

    Lines end at line breaks only (LF, CR LF, CR): ``str.splitlines`` also splits at form feeds,
    vertical tabs, U+2028 and others, and then the numbers would not match an editor's."""
    for number, line in enumerate(text_lines(text), start=1):
        stripped = line.strip()
        if stripped and not stripped.startswith("|"):
            yield number, stripped


def _item_line(line: str, path: str, number: int) -> tuple[list[str], list[str]]:
    """The primary and secondary item names of the first line, each checked."""
    parts = line.split("|")
    if len(parts) > 2:
        raise InstanceError("the item line has more than one '|'", path, number)
    primary, secondary = parts[0].split(), parts[1].split() if len(parts) == 2 else []
    seen: set[str] = set()
    for name in primary + secondary:
        if ":" in name:
            raise InstanceError(f"item name {name!r} contains ':'", path, number)
        if name in seen:
            raise InstanceError(f"item {name!r} is declared twice", path, number)
        seen.add(name)
    return primary, secondary


def _entry(token: str, index: dict[str, int], n_primary: int, colours: dict[str, int],
           path: str, number: int) -> Entry:
    """One token of an option line, ``item`` or ``item:colour``, as an entry."""
    name, colon, colour = token.partition(":")
    if name not in index:
        raise InstanceError(f"option names unknown item {name!r}", path, number)
    item = index[name]
    if not colon:
        return item, 0
    if item < n_primary:
        raise InstanceError(f"primary item {name!r} cannot take a colour", path, number)
    if not colour or ":" in colour:
        raise InstanceError(f"bad colour in {token!r}", path, number)
    return item, colours.setdefault(colour, len(colours) + 1)


def _option(line: str, index: dict[str, int], n_primary: int, colours: dict[str, int],
            path: str, number: int) -> tuple[Entry, ...]:
    """One option line; an item named twice is an error (Knuth's programs reject it too)."""
    entries = tuple(_entry(t, index, n_primary, colours, path, number) for t in line.split())
    items = [item for item, _ in entries]
    if len(set(items)) != len(items):
        raise InstanceError("option names an item twice", path, number)
    return entries


def parse_dlx(text: str, path: str = "<string>") -> Problem:
    """A Problem from DLX text; any malformed line raises InstanceError naming path and line."""
    lines = _content_lines(text)
    first = next(lines, None)
    if first is None:
        raise InstanceError("no item line (the file is empty or all comments)", path)
    primary, secondary = _item_line(first[1], path, first[0])
    index = {name: i for i, name in enumerate(primary + secondary)}
    colours: dict[str, int] = {}
    options = tuple(_option(line, index, len(primary), colours, path, number)
                    for number, line in lines)
    return Problem(tuple(primary), tuple(secondary), options, tuple(colours))


def read_dlx(path: str | Path) -> Problem:
    """A Problem from a DLX file (see ``parse_dlx``)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InstanceError(f"cannot read: {exc}", str(path)) from None
    return parse_dlx(text, str(path))


# --- writing ----------------------------------------------------------------------------------


def _bad_name(name: str, limit: int | None) -> str:
    """Why ``name`` cannot stand in a DLX file ("" when it can)."""
    if not name or any(ch.isspace() or ch in ":|" for ch in name):
        return f"name {name!r} is empty or holds a space, ':' or '|'"
    if limit is not None and len(name) > limit:
        return f"name {name!r} has {len(name)} characters; dlx2 allows at most {limit}"
    return ""


def dlx_problems(problem: Problem, strict: bool = True) -> str:
    """Why ``problem`` cannot be written as DLX ("" when it can). ``strict`` adds dlx2's
    limits: item names of at most 8 characters, colour names of exactly one."""
    if not problem.primary:
        return "there is no primary item"
    for name in problem.items:
        if reason := _bad_name(name, MAX_NAME if strict else None):
            return "item " + reason
    for colour in problem.colours:
        if reason := _bad_name(colour, MAX_COLOUR if strict else None):
            return "colour " + reason
    return ""


def format_dlx(problem: Problem, comments: Iterable[str] = ()) -> str:
    """DLX text of ``problem`` (unchecked; ``write_dlx`` checks first)."""
    head = [f"| {c}".rstrip() for c in comments]
    items = " ".join(problem.primary)
    if problem.secondary:
        items += " | " + " ".join(problem.secondary)
    body = [" ".join(tokens) for tokens in problem.named_options()]
    return "\n".join([*head, items, *body]) + "\n"


def write_dlx(problem: Problem, path: str | Path, comments: Iterable[str] = (),
              strict: bool = True) -> None:
    """Write ``problem`` to ``path``; a name the format (or dlx2, when strict) cannot hold
    raises InstanceError before anything is written."""
    if reason := dlx_problems(problem, strict):
        raise InstanceError(f"cannot write DLX: {reason}", str(path))
    Path(path).write_text(format_dlx(problem, comments), encoding="utf-8")


# --- solving ----------------------------------------------------------------------------------


class Model(Protocol):
    """An encoder's model: the XCC problem (and whatever it needs to read a solution back)."""

    @property
    def problem(self) -> Problem: ...


M = TypeVar("M", bound=Model)


def encoded(build: Callable[[object], M], instance: object) -> tuple[M, float]:
    """``build(instance)`` with its problem's xcover arrays made, and the seconds both took:
    the encoding time of an XCC solver."""
    start = time.perf_counter()
    model = build(instance)
    _ = model.problem.arrays
    return model, time.perf_counter() - start


def sized(out: Outcome, problem: Problem, t_encode: float, t_solve: float) -> Outcome:
    """The problem's size (``options`` and ``items`` counters first; the model's variables are
    the items, its constraints the options) and the encode/solve split into ``out``."""
    out.counters = {"options": len(problem.options), "items": len(problem.items), **out.counters}
    out.model_vars, out.model_constraints = len(problem.items), len(problem.options)
    out.t_encode, out.t_solve = t_encode, t_solve
    return out


def solutions(problem: Problem) -> Iterator[list[int]]:
    """Every solution, as a list of option indices, in xcover's order (a generator: the numba
    kernel returns to Python at each solution, and only there)."""
    from xcover import algorithm_c

    options, ptr, colours, n_items, n_secondary = problem.arrays
    if n_items == n_secondary:  # no primary item: the empty selection is the one solution
        yield []
        return
    if not problem.options:  # primary items and nothing to cover them (xcover would answer
        return               # the empty selection): no solution
    for found in algorithm_c(options, ptr, colours, np.uint32(n_items), np.uint32(n_secondary)):
        yield [int(k) for k in found]


def first_solution(problem: Problem) -> list[int] | None:
    """The first solution xcover finds, or None when there is none."""
    return next(solutions(problem), None)


@dataclass(frozen=True)
class Count:
    """A count of solutions: ``complete`` is False when the deadline stopped it early, and then
    ``solutions`` is a lower bound. ``first`` is the first solution found (None if none)."""

    solutions: int
    first: list[int] | None
    complete: bool


def count_solutions(problem: Problem, deadline: float = float("inf"),
                    most: int | None = None) -> Count:
    """Count every solution, or up to ``most`` of them (a count that reaches ``most`` is
    complete: it answered what was asked, as "is the solution unique?" with ``most=2``),
    stopping at the first solution found after ``deadline`` (a ``time.monotonic()`` instant).
    The search between two solutions cannot be interrupted."""
    total, first = 0, None
    for found in solutions(problem):
        total += 1
        if first is None:
            first = found
        if total == most:
            return Count(total, first, True)
        if time.monotonic() >= deadline:
            return Count(total, first, False)
    return Count(total, first, True)

