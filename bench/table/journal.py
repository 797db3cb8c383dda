"""The run journal: one JSON line per finished run, flushed and fsynced before the next is
scheduled, so a crash or a kill of the parent never loses a finished row.

A block's chunk (bench/execute/blocks.py: many runs finished at once) is one line too, in
columns: ``{"same": {"solver": "native", ...}, "rows": {"key": [...], "t_wall": [...], ...}}``:
a column with one value for the whole chunk (the solver, the rung, the limits, the status of a
chunk all solved) once under ``same``, every other one under ``rows`` as a list as long as the
chunk, a row without that column holding null there. It is written with one call of the JSON
encoder instead of one per row, and read back as the rows it holds, in order.

A chunk's line is written (flushed to the system) at once like any other, but fsynced in the
background (``append_columns(..., later=True)``, the runner's block path: the fsync of one chunk
overlaps the making of the next chunk's rows instead of holding it up): a kill of the parent
loses no row the system was given; a power cut may lose the chunks written since the last fsync,
whose runs ``--resume`` runs again. ``close`` waits for the last fsync.

A line cut by a kill mid-write is the only damage a journal can take; reading repairs it
(the partial line is dropped with a warning, the file truncated to its last whole line).
"""

from __future__ import annotations

import json
import math
import os
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson


def _clean(value: Any) -> Any:
    """JSON has no NaN: floats that are not finite become null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


#: orjson's options for a journal line: keys that are not text written as text and NumPy's
#: numbers as numbers (as the standard encoder writes them), a newline at the end.
_LINE_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_SERIALIZE_NUMPY | orjson.OPT_APPEND_NEWLINE


def line_bytes(value: Any) -> bytes:
    """One journal line: ``value`` as compact JSON (UTF-8) and a newline. orjson writes it (the
    standard library's encoder is about ten times slower, and a block's chunk line holds a
    thousand rows); what orjson refuses (an integer past 64 bits, a lone surrogate, a type
    neither knows) goes to the standard encoder, which writes it or raises as before. Floats
    are finite here (:func:`_clean`); a non-finite one nested in a value is written null."""
    try:
        return orjson.dumps(value, option=_LINE_OPTIONS)
    except TypeError:
        return (json.dumps(value, separators=(",", ":")) + "\n").encode()


def _pack(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Rows to a chunk line's two parts (:func:`split_columns`)."""
    return split_columns({}, transpose(rows), len(rows))


def split_columns(same: dict[str, Any], columns: dict[str, list[Any]], n: int
           ) -> dict[str, dict[str, Any]]:
    """Columns to a chunk line's two parts: ``same``, the given constant columns and each
    column whose value (and its type) is one for every row, given once; ``rows``, every other
    column as a list as long as the chunk (null where a row has none). Columns in the order
    given; non-finite floats made null."""
    return _split_kinds(same, columns, n)[0]


def _split_kinds(same: dict[str, Any], columns: dict[str, list[Any]], n: int
                 ) -> tuple[dict[str, dict[str, Any]], set[type]]:
    """:func:`split_columns`, and the types of the values its ``rows`` hold."""
    same = {name: _clean(value) for name, value in same.items()}
    varying = {}
    held: set[type] = set()
    for name, values in columns.items():
        kinds = set(map(type, values))
        if float in kinds and not _finite(values):
            values = [_clean(v) for v in values]
            kinds = set(map(type, values))
        if len(kinds) == 1 and _all_equal(values, n):
            same[name] = values[0]
        else:
            varying[name] = values
            held |= kinds
    return {"same": same, "rows": varying}, held


def _all_equal(values: list[Any], n: int) -> bool:
    """Whether the ``n`` values are all equal to the first (its last and middle ones looked at
    first: a column that varies mostly shows it there, without a pass over all of them)."""
    first = values[0]
    return values[-1] == first and values[n // 2] == first and values.count(first) == n


def _chunk_part(line: dict[str, Any]) -> tuple[dict[str, Any], dict[str, list[Any]], int]:
    """A chunk line as a (same, varying, size) part."""
    varying = line["rows"]
    return line.get("same", {}), varying, len(next(iter(varying.values()))) if varying else 0


def _single_rows_merged(items: Any) -> Iterator[tuple[dict[str, Any], dict[str, list[Any]], int]]:
    """(same, varying, size) parts in order from items each a part or a single row (a dict):
    each stretch of single rows transposed into one part."""
    single: list[dict[str, Any]] = []
    for item in items:
        if type(item) is dict:
            single.append(item)
            continue
        if single:
            yield {}, transpose(single), len(single)
            single = []
        yield item
    if single:
        yield {}, transpose(single), len(single)


def transpose(rows: list[dict[str, Any]]) -> dict[str, list[Any]]:
    """Rows to columns: the union of their names in first-seen order, null where a row has
    none (rows of one layout are transposed at C speed; rows that are all one object, as a
    file's puzzles of equal parameters share one, are not walked)."""
    first = rows[0]
    if all(row is first for row in rows):
        return {name: [value] * len(rows) for name, value in first.items()}
    names = tuple(rows[0])
    if all(tuple(row) == names for row in rows):
        return dict(zip(names, map(list, zip(*(row.values() for row in rows), strict=True)),
                        strict=True))
    union = dict.fromkeys(names)
    for row in rows:
        union.update(dict.fromkeys(row))
    return {name: [row.get(name) for row in rows] for name in union}


def _finite(values: list[Any]) -> bool:
    """Whether no value is a NaN or an infinity (a float sum propagates them; an overflow only
    sends the column the slow way; ``filter(None, ...)`` drops the nulls, and the zeros, which
    are finite)."""
    try:
        return math.isfinite(sum(filter(None, values)))
    except TypeError:  # strings beside the floats
        return not any(type(v) is float and not math.isfinite(v) for v in values)


#: The most rows a journal keeps in memory (beyond, :meth:`Journal.read_columns` reads the
#: file: a sweep's parent should not grow without bound).
KEEP_ROWS = 1_000_000
#: The values JSON reads back as they were written.
_PLAIN = frozenset({str, int, float, bool, type(None)})


def _plain(values: Any) -> bool:
    """Whether every value is text, a number, a bool or null."""
    return set(map(type, values)) <= _PLAIN


def _is_chunk(line: dict[str, Any]) -> bool:
    """Whether a journal line is a block's chunk (a row always has its ``key``)."""
    return "rows" in line and "key" not in line


def _unpack(chunk: dict[str, Any]) -> list[dict[str, Any]]:
    """A chunk line back to its rows, in order, each with the columns in the order written
    (the constant ones first)."""
    same, varying = chunk.get("same", {}), chunk["rows"]
    names = list(varying)
    return [{**same, **dict(zip(names, values, strict=True))}
            for values in zip(*varying.values(), strict=True)]


class Journal:
    """A sweep's journal file. What this object appends to a journal that was empty when it
    began is also kept in memory, as the columns it wrote (after their cleaning), so that
    :meth:`read_columns` need not read the file back. Only text, numbers, bools and nulls are
    kept (JSON gives those back unchanged; a tuple would come back a list): a journal holding
    anything else, or more than ``KEEP_ROWS`` rows, is read from the file."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._handle = None
        self._syncer: Syncer | None = None
        self._kept: list[tuple[dict[str, Any], dict[str, list[Any]], int]] | None = None

    def read(self) -> list[dict[str, Any]]:
        """Every whole row; a cut last line is repaired (dropped, with a warning)."""
        rows: list[dict[str, Any]] = []
        for line in self._lines():
            if _is_chunk(line):
                rows.extend(_unpack(line))
            else:
                rows.append(line)
        return rows

    def read_columns(self) -> tuple[dict[str, list[Any]], int]:
        """Every whole row as columns (each a list as long as the rows, null where a row has
        no such column) and the number of rows; repaired as :meth:`read` repairs. Read from
        memory where this object wrote the whole journal with plain values."""
        return self.columns_of(self.read_parts())

    def read_parts(self) -> list[tuple[dict[str, Any], dict[str, list[Any]], int]]:
        """Every whole row as parts in order: ``(same, varying, size)``, ``size`` rows whose
        columns in ``same`` have one value for all and those in ``varying`` one each (a
        chunk line, or single-row lines transposed together); a column in neither is null in
        those rows. From memory where this object wrote the whole journal with plain values,
        else from the file, repaired as :meth:`read` repairs."""
        if self._kept is None:
            return list(self._parts())
        return list(_single_rows_merged(  # a run's row is kept as a part of one row
            {name: values[0] for name, values in varying.items()} if size == 1 and not same
            else (same, varying, size) for same, varying, size in self._kept))

    def kept_parts(self) -> list[tuple[dict[str, Any], dict[str, list[Any]], int]] | None:
        """The parts this object keeps in memory, as it appended them (a run's row a part of
        one row, not merged with its neighbours as :meth:`read_parts` merges them; not to be
        changed); an empty list before the first line of a new journal; None where the rows
        are read from the file (a journal begun by another, or grown past ``KEEP_ROWS``)."""
        if self._kept is None and self._handle is None and not self.path.exists():
            return []
        return self._kept

    @staticmethod
    def columns_of(parts: Any) -> tuple[dict[str, list[Any]], int]:
        """Columns of (same, varying, size) parts in order."""
        columns: dict[str, list[Any]] = {}
        n = 0

        def add(part: dict[str, list[Any]], size: int) -> None:
            nonlocal n
            for name, values in part.items():
                column = columns.setdefault(name, [])
                column.extend([None] * (n - len(column)))
                column.extend(values)
            n += size
            for column in columns.values():
                column.extend([None] * (n - len(column)))

        for same, varying, size in parts:
            add({**{k: [v] * size for k, v in same.items()}, **varying}, size)
        return columns, n

    def _parts(self) -> Any:
        """The file's lines as (same, varying, size) parts, runs of single-row lines
        transposed together."""
        return _single_rows_merged(_chunk_part(line) if _is_chunk(line) else line
                                   for line in self._lines())

    def _lines(self) -> list[dict[str, Any]]:
        """Every whole line, parsed; a cut last line is dropped with a warning and the file
        truncated to its last whole line."""
        if not self.path.exists():
            return []
        data = self.path.read_bytes()
        lines = []
        good_end = 0
        for line_no, line in enumerate(data.split(b"\n"), 1):
            if not line.strip():
                good_end += len(line) + 1
                continue
            try:
                parsed = json.loads(line)
            except json.JSONDecodeError:
                rest = data[good_end:]
                if rest.count(b"\n") > 1 or (rest.count(b"\n") == 1 and not rest.endswith(b"\n")):
                    raise ValueError(f"{self.path}:{line_no}: corrupt journal line "
                                     "(not the last one: refusing to guess)") from None
                warnings.warn(f"{self.path}:{line_no}: the last journal line was cut mid-write; "
                              "dropping it (that run will be redone)", stacklevel=3)
                with open(self.path, "r+b") as fh:
                    fh.truncate(good_end)
                break
            lines.append(parsed)
            good_end += len(line) + 1
        return lines

    def append(self, row: dict[str, Any]) -> None:
        self.append_many([row])

    def append_many(self, rows: list[dict[str, Any]]) -> None:
        """Append rows (a block's chunk) with one write and one fsync."""
        if len(rows) > 1:
            chunk = _pack(rows)
            self._write(line_bytes(chunk), chunk, len(rows),
                        all(_plain(values) for values in chunk["rows"].values()))
        else:
            for row in rows:
                clean = {k: _clean(v) for k, v in row.items()}
                self._write(line_bytes(clean),
                            {"same": {}, "rows": {k: [v] for k, v in clean.items()}}, 1,
                            _plain(clean.values()))

    def append_columns(self, same: dict[str, Any], varying: dict[str, list[Any]], n: int,
                       later: bool = False) -> None:
        """Append ``n`` rows given as columns (``same``: one value for all; ``varying``: a
        list of ``n`` each) as one chunk line, with one write and one fsync (``later``: the
        fsync in the background, see the module's docstring)."""
        if n == 1:  # a run's row in the file; kept as a part of one row (its ``same`` apart)
            row = {**same, **{name: values[0] for name, values in varying.items()}}
            clean = {k: _clean(v) for k, v in row.items()}
            part = {"same": {k: clean[k] for k in same if k not in varying},
                    "rows": {k: [clean[k]] for k in varying}}
            self._write(line_bytes(clean), part, 1, _plain(clean.values()), later)
        elif n:
            chunk, kinds = _split_kinds(same, varying, n)
            self._write(line_bytes(chunk), chunk, n, kinds <= _PLAIN, later)

    def _write(self, line: bytes, chunk: dict[str, dict[str, Any]], n: int, plain: bool,
               later: bool = False) -> None:
        """Write a line (of ``chunk``'s ``n`` rows) and fsync it (now, or ``later`` by the
        background syncer), and keep the chunk while the journal is this object's alone
        (begun empty) and holds plain values only (``plain``: whether its ``rows`` do)."""
        if self._handle is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._handle = open(self.path, "ab")
            self._kept = [] if self._handle.tell() == 0 else None
            self._kept_rows = 0
        if self._kept is not None:
            self._kept_rows += n
            if self._kept_rows <= KEEP_ROWS and plain and _plain(chunk["same"].values()):
                self._kept.append((chunk["same"], chunk["rows"], n))
            else:
                self._kept = None
        self._handle.write(line)
        self._handle.flush()
        if later:
            if self._syncer is None:
                self._syncer = Syncer(self._handle.fileno())
            self._syncer.ask()
        else:
            os.fsync(self._handle.fileno())

    def close(self) -> None:
        """Close the file, once every line is fsynced (an fsync the background syncer could
        not make is raised here)."""
        if self._handle is not None:
            try:
                if self._syncer is not None:
                    self._syncer.finish()
            finally:
                self._syncer = None
                self._handle.close()
                self._handle = None


class Syncer:
    """fsyncs one open file in a thread of its own each time it is asked: what was written
    before an ``ask`` is on disk by the end of the next fsync the thread makes (asks that come
    while it fsyncs are served by one more). An fsync that fails is raised by the next ``ask``
    or by ``finish``, which makes the last fsync and ends the thread."""

    def __init__(self, fd: int):
        self.fd = fd
        self.wanted = threading.Event()
        self.ending = False
        self.error: OSError | None = None
        self.thread = threading.Thread(target=self._run, name="journal-fsync", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while True:
            self.wanted.wait()
            self.wanted.clear()
            ending = self.ending
            try:
                os.fsync(self.fd)
            except OSError as exc:
                self.error = exc
            if ending:
                return

    def ask(self) -> None:
        if self.error is not None:
            raise self.error
        self.wanted.set()

    def finish(self) -> None:
        self.ending = True
        self.wanted.set()
        self.thread.join()
        if self.error is not None:
            raise self.error
