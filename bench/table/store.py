"""Where sweeps live: ``results/<sweep>/`` holds ``journal.jsonl`` (the truth, appended per run),
``runs.parquet`` (the journal compacted into the table of bench/table/schema.py) and
``manifest.json`` (how the sweep was made). ``load()`` is the one way in.

pandas is imported by the functions that build or read tables, not with the module: the runner
and ``cliffbench solve`` use ``now()`` and the journal, and must not pay for it.
"""

from __future__ import annotations

import json
import os
import platform
import socket
import subprocess
import sys
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bench.table.journal import Journal
from bench.table.schema import COLUMNS, SCHEMA_VERSION

if TYPE_CHECKING:
    import pandas as pd

JOURNAL = "journal.jsonl"
TABLE = "runs.parquet"
MANIFEST = "manifest.json"
DEFAULT_RESULTS = Path("results")


def sweep_dir(path_or_sweep: str | Path, results: str | Path = DEFAULT_RESULTS) -> Path:
    """A sweep's folder: the path itself when it is one, else ``results/<name>``."""
    path = Path(path_or_sweep)
    if path.is_dir() or path.suffix == ".parquet":
        return path if path.is_dir() else path.parent
    candidate = Path(results) / str(path_or_sweep)
    if candidate.is_dir():
        return candidate
    raise FileNotFoundError(f"no sweep {str(path_or_sweep)!r} (looked for {path} and {candidate})")


def to_frame(rows: list[dict[str, Any]] | dict[str, list[Any]]) -> pd.DataFrame:
    """Rows (or columns: name -> values) to the typed table: schema columns first, in order,
    then p_* and s_* sorted."""
    import pandas as pd

    frame = pd.DataFrame(rows)
    for name, (dtype, _) in COLUMNS.items():
        if name not in frame:
            frame[name] = pd.Series([None] * len(frame), dtype="object")
        frame[name] = frame[name].astype(dtype)
    extra = sorted(c for c in frame.columns if c not in COLUMNS)
    for column in extra:
        values = frame[column]
        dtype = extra_dtype(_kinds(values.tolist(), type(pd.NA)))
        if dtype is not None:
            frame[column] = values.astype(dtype)
        else:
            frame[column] = values.map(lambda v: None if v is None or
                                       (isinstance(v, float) and pd.isna(v)) else str(v)
                                       ).astype("string")
    return frame[list(COLUMNS) + extra]


def extra_dtype(kinds: set[type]) -> str | None:
    """The dtype of a parameter column whose values are of these types (nulls left out):
    ``boolean``, ``Int64``, ``Float64`` or ``string``; None where they mix otherwise (each
    value is then written as its text)."""
    if kinds and kinds <= {int, float, bool} and not (bool in kinds and kinds != {bool}):
        return "boolean" if kinds == {bool} else "Int64" if kinds == {int} else "Float64"
    return "string" if kinds == {str} else None


def _kinds(values: list[Any], na_type: type) -> set[type]:
    """The types of a column's values, nulls (None, NaN, pandas' NA) left out."""
    kinds = set(map(type, values))
    kinds.discard(type(None))
    kinds.discard(na_type)
    if float in kinds and all(v != v for v in values if type(v) is float):
        kinds.discard(float)
    return kinds


def compact(directory: str | Path, journal: Journal | None = None,
            background: bool = False, ahead: Any = None) -> Path:
    """Write ``runs.parquet`` from the journal (atomically: write then rename): straight from
    its parts to Arrow (:func:`write_parts`), or through :func:`to_frame` where a column's
    values do not convert exactly; the file reads back as ``to_frame`` of the columns.
    ``journal``: the object that wrote it, whose parts may be in memory; ``ahead``: its chunks'
    varying columns converted while the sweep ran (bench/table/ahead.py's ``TableAhead``),
    taken where each was converted with the table's column types.

    ``background``: return once the table is converted, its last row groups written and the
    file renamed into place by a thread (the next :func:`load` of the sweep takes the table
    from memory meanwhile; :func:`finish_writing` waits for the file and raises what the
    writing raised). A command that prints a summary next overlaps the two on two cores."""
    finish_writing()  # an earlier compaction's file first (it may be this one's)
    directory = Path(directory)
    journal = journal if journal is not None else Journal(directory / JOURNAL)
    parts = journal.read_parts()
    target = directory / TABLE
    tmp = target.with_suffix(".parquet.tmp")
    _just_written.clear()
    made = write_parts(parts, tmp, background, ahead)
    if made is None:
        to_frame(Journal.columns_of(parts)[0]).to_parquet(tmp, index=False,
                                                          **PARQUET_COMPRESSION)
        os.replace(tmp, target)
        return target
    table, writing = made
    key = str(target.resolve())
    if writing is None:
        os.replace(tmp, target)
        _just_written[key] = (_stamp(target), table)
        return target
    _writing.append(writing.then_rename(tmp, target))
    _being_written[key] = table
    return target


def writes_pending() -> list[Any]:
    """The futures of the background compactions not finished yet (each done once its file
    is in place, or its writing failed)."""
    return [future for future in _writing if not future.done()]


def finish_writing() -> None:
    """Wait for the tables :func:`compact` left to a thread, and raise the first error one
    of them met (the file is then not in place; the journal still holds every row)."""
    errors = []
    while _writing:
        error = _writing.pop(0).exception()
        if error is not None:
            errors.append(error)
    _being_written.clear()
    if errors:
        raise errors[0]


#: The rows of a row group of the table: a bigger table is converted one row group at a time
#: while a thread writes the one before (Parquet's encoder releases the GIL), so that its
#: conversion and its writing overlap on two cores.
ROW_GROUP_ROWS = 8192


class GroupWriting:
    """A Parquet file's row groups written by one thread, in the order given: ``finished``
    holds the futures of each write and of the writer's close."""

    def __init__(self, writer: Any):
        from concurrent.futures import ThreadPoolExecutor

        self.writer = writer
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="compact")
        self.finished: list[Any] = []

    def write(self, table: Any) -> None:
        self.finished.append(self.pool.submit(self.writer.write_table, table))

    def close(self) -> None:
        self.finished.append(self.pool.submit(self.writer.close))

    def then_rename(self, tmp: Path, target: Path) -> Any:
        """Leave the rest to the thread, which renames the file ``tmp`` to ``target`` after
        the writes and the close where each succeeded (else removes it and raises the first
        error); returns the future of that last step."""

        def put_in_place() -> None:
            for future in self.finished:
                if future.exception() is not None:
                    tmp.unlink(missing_ok=True)
                    raise future.exception()
            os.replace(tmp, target)

        renamed = self.pool.submit(put_in_place)
        self.pool.shutdown(wait=False)
        return renamed

    def wait(self) -> None:
        """Wait for every write and the close; raise the first error."""
        self.pool.shutdown(wait=True)
        for future in self.finished:
            future.result()


def write_parts(parts: list[tuple[dict[str, Any], dict[str, list[Any]], int]], path: Path,
                background: bool = False, ahead: Any = None
                ) -> tuple[Any, GroupWriting | None] | None:
    """Write the table of the journal's parts (``Journal.read_parts``) to ``path`` as
    Parquet, row group by row group (:data:`ROW_GROUP_ROWS` rows or so, whole parts each),
    and return it as Arrow with, where ``background`` and it has more than one row group, the
    :class:`GroupWriting` still writing its last ones (None: the file is complete); None,
    with nothing meant to be kept at ``path``, where a column does not convert exactly
    (:func:`arrow_table`). ``ahead``: a ``TableAhead``, whose converted chunks make a group's
    table where each was converted with these column types (bench/table/ahead.py)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    dtypes = table_dtypes(parts)
    if dtypes is None:
        return None
    groups = row_groups(parts, ROW_GROUP_ROWS)
    schema = arrow_schema(dtypes)

    def converted(index: int) -> Any:
        made = None if ahead is None else ahead.table(groups[index], dtypes)
        return made if made is not None else arrow_table(groups[index], dtypes, schema)

    first = converted(0)
    if first is None:
        return None
    shared = [name for name in schema.names if name not in OWN_VALUE_COLUMNS]
    options = {"use_dictionary": shared, "write_statistics": shared, **PARQUET_COMPRESSION}
    if len(groups) == 1:
        pq.write_table(first, path, **options)
        return first, None
    tables = [first]
    writing = GroupWriting(pq.ParquetWriter(path, schema, **options))
    writing.write(first)
    for index in range(1, len(groups)):
        table = converted(index)
        if table is None:
            writing.close()
            writing.wait()  # the writer's own error, if any, is raised here
            return None
        tables.append(table)
        writing.write(table)
    writing.close()
    if not background:
        writing.wait()
        writing = None
    return pa.concat_tables(tables), writing


def row_groups(parts: list[tuple[dict[str, Any], dict[str, list[Any]], int]], rows: int
               ) -> list[list[tuple[dict[str, Any], dict[str, list[Any]], int]]]:
    """The parts in consecutive groups of about ``rows`` rows (whole parts; at least one
    group, even of no part)."""
    groups: list[list[tuple[dict[str, Any], dict[str, list[Any]], int]]] = [[]]
    held = 0
    for part in parts:
        if held >= rows:
            groups.append([])
            held = 0
        groups[-1].append(part)
        held += part[2]
    return groups


#: The columns whose value is a run's own in nearly every row (its key, its instance, its
#: answer): Parquet's dictionary encoding is not tried on them (it would only fill a dictionary
#: to its limit and give up), nor their statistics (a minimum and a maximum key or answer says
#: nothing); the other columns repeat a few values and are dictionary-encoded.
OWN_VALUE_COLUMNS = frozenset({"key", "instance_id", "instance_name", "source", "solution",
                               "score_trace"})

#: The table's compression: zstd at its fastest level, which writes about as fast as Parquet's
#: default (snappy) and fewer bytes (the answers, keys and texts compress better).
PARQUET_COMPRESSION = {"compression": "zstd", "compression_level": 1}

#: The Arrow type of each dtype of the table.
ARROW_TYPES = {"string": "string", "Float64": "float64", "Int64": "int64", "boolean": "bool_"}


def to_arrow(columns: dict[str, list[Any]], n: int) -> Any:
    """The typed table of :func:`to_frame` of columns (name -> ``n`` values each) as an Arrow
    table with pandas' metadata (so that reading it gives the same frame), made at C speed
    (:func:`arrow_table`); None when a column does not convert to its type exactly (a value
    of another type: ``to_frame`` then converts it as it does)."""
    parts = [({}, columns, n)]
    dtypes = table_dtypes(parts)
    return None if dtypes is None else arrow_table(parts, dtypes, arrow_schema(dtypes))


def table_dtypes(parts: list[tuple[dict[str, Any], dict[str, list[Any]], int]]
                 ) -> dict[str, str] | None:
    """The dtype of each column of the table of the parts, in order (the schema's columns,
    then the others sorted, as :func:`to_frame` orders them); None where an extra column's
    values mix types that convert only as texts."""
    import pandas as pd

    dtypes = {name: dtype for name, (dtype, _) in COLUMNS.items()}
    for name in sorted({name for same, varying, _ in parts for name in (*same, *varying)}
                       - COLUMNS.keys()):
        dtype = extra_dtype(_part_kinds(parts, name, type(pd.NA)))
        if dtype is None:
            return None
        if dtype == "Int64" and _has_null(parts, name):
            dtype = "Float64"  # as to_frame's: pandas reads whole numbers with nulls as floats
        dtypes[name] = dtype
    return dtypes


def arrow_schema(dtypes: dict[str, str]) -> Any:
    """The Arrow schema, pandas' metadata included, of a table of these column dtypes."""
    import pandas as pd
    import pyarrow as pa

    empty = pd.DataFrame({name: pd.Series([], dtype=dtype) for name, dtype in dtypes.items()})
    return pa.Schema.from_pandas(empty, preserve_index=False)


def arrow_table(parts: list[tuple[dict[str, Any], dict[str, list[Any]], int]],
                dtypes: dict[str, str], schema: Any) -> Any:
    """The Arrow table (of ``schema``) of the parts' rows, each column of its dtype; None
    where a value does not convert to it exactly. A part's varying column may be given
    converted already (:func:`varying_arrays`: an Arrow array of the column's type)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    arrays = []
    pool = table_memory_pool()
    for name, dtype in dtypes.items():
        kind = getattr(pa, ARROW_TYPES[dtype])()
        pieces = []
        for values, size in _runs(parts, name):
            if type(values) is list:
                array = _list_array(values, dtype, pool)
                if array is None:
                    return None
                pieces.append(array)
            elif isinstance(values, pa.Array):
                pieces.append(values)
            elif values is None:
                pieces.append(pa.nulls(size, kind, memory_pool=pool))
            elif type(values) not in _EXACT[dtype]:
                return None
            else:
                pieces.append(_repeated(values, size, kind, pool))
        if not pieces:  # no part, no row
            pieces.append(pa.nulls(0, kind, memory_pool=pool))
        # one chunk: the table's columns as one array each, as pandas works on them fastest
        array = pa.concat_arrays(pieces, memory_pool=pool) if len(pieces) != 1 else pieces[0]
        if dtype == "Float64" and pc.any(pc.is_nan(array)).as_py():
            return None  # a NaN: to_frame makes it a null
        arrays.append(array)
    return pa.Table.from_arrays(arrays, schema=schema)


def varying_arrays(part: tuple[dict[str, Any], dict[str, list[Any]], int],
                   dtypes: dict[str, str]) -> dict[str, Any] | None:
    """Each varying column of a part as the Arrow array :func:`arrow_table` makes of it with
    these dtypes (a dtype for each); None where a value does not convert."""
    pool = table_memory_pool()
    arrays = {}
    for name, values in part[1].items():
        array = _list_array(values, dtypes[name], pool)
        if array is None:
            return None
        arrays[name] = array
    return arrays


def _list_array(values: list[Any], dtype: str, pool: Any) -> Any:
    """The Arrow array of a list of values of a column's dtype, made exactly; None where a
    value does not convert (of another type, or an integer past 64 bits)."""
    import pyarrow as pa

    if not _converts(values, dtype):
        return None
    try:
        return pa.array(values, type=getattr(pa, ARROW_TYPES[dtype])(), memory_pool=pool)
    except (pa.ArrowInvalid, OverflowError):  # an integer past 64 bits
        return None


def _runs(parts: list[tuple[dict[str, Any], dict[str, list[Any]], int]], name: str
          ) -> list[tuple[Any, int]]:
    """A column of the parts as runs in order: ``(values, size)`` where the column varies (a
    list; consecutive parts' lists joined, so that Arrow converts them in one call and need
    not concatenate arrays), ``(value, size)`` where consecutive parts hold one value (of one
    type; None for nulls, a row without the column included), merged."""
    runs: list[tuple[Any, int]] = []
    made = False  # whether the last run's list was made here (the parts' own are not changed)
    for same, varying, size in parts:
        values = varying.get(name)
        if values is None:
            value = same.get(name)
            if runs and type(runs[-1][0]) is type(value) is not list \
                    and runs[-1][0] == value:
                runs[-1] = (value, runs[-1][1] + size)
                continue
            runs.append((value, size))
        elif runs and type(runs[-1][0]) is list:
            merged = runs[-1][0] if made else list(runs[-1][0])
            merged.extend(values)
            runs[-1], made = (merged, runs[-1][1] + size), True
        else:
            runs.append((values, size))
            made = False
    return runs


def table_memory_pool() -> Any:
    """The Arrow memory pool the table is built in: jemalloc's where this pyarrow has it, else
    the default. In a sweep's parent, pyarrow's default on Linux (mimalloc) often makes the
    conversion of a block sweep's columns (tens of thousands of values each) several times
    slower (``perf/run_phases.py`` times the phase). The pool is passed to each call; the
    process's default pool is left as it is."""
    import pyarrow as pa

    try:
        return pa.jemalloc_memory_pool()
    except NotImplementedError:
        return pa.default_memory_pool()


def _repeated(value: Any, size: int, kind: Any, pool: Any = None) -> Any:
    """``size`` copies of one value as an Arrow array of type ``kind``: a text's bytes laid
    out once each (Arrow's own repeat copies a string value by value)."""
    import numpy as np
    import pyarrow as pa

    if type(value) is str:
        data = value.encode()
        if size * len(data) < 2**31:  # the string type's offsets are 32-bit
            offsets = np.arange(0, (size + 1) * len(data), len(data) or 1, dtype=np.int32) \
                if data else np.zeros(size + 1, dtype=np.int32)
            return pa.StringArray.from_buffers(size, pa.py_buffer(offsets),
                                               pa.py_buffer(data * size))
    return pa.repeat(pa.scalar(value, type=kind), size, memory_pool=pool)


def _part_kinds(parts: list[tuple[dict[str, Any], dict[str, list[Any]], int]], name: str,
                na_type: type) -> set[type]:
    """:func:`_kinds` of a column of the parts."""
    kinds: set[type] = set()
    for same, varying, _ in parts:
        if name in varying:
            kinds |= _kinds(varying[name], na_type)
        elif name in same:
            kinds |= _kinds([same[name]], na_type)
    return kinds


def _has_null(parts: list[tuple[dict[str, Any], dict[str, list[Any]], int]], name: str
              ) -> bool:
    """Whether a column of the parts has a null (None, or a row without it)."""
    for same, varying, size in parts:
        if name in varying:
            if None in varying[name]:
                return True
        elif size and (name not in same or same[name] is None):
            return True
    return False


#: The Python types a column of each dtype may hold for :func:`to_arrow` (nulls aside).
_EXACT = {"string": {str}, "Float64": {float, int}, "Int64": {int}, "boolean": {bool}}


def _converts(values: list[Any], dtype: str) -> bool:
    """Whether every value is null or of a type the dtype takes as it is (a float in an
    integer column, a number in a string column: ``to_frame``'s conversions decide; so does
    a NaN, which :func:`to_arrow` looks for in the array)."""
    kinds = set(map(type, values))
    kinds.discard(type(None))
    return kinds <= _EXACT[dtype]


def load(path_or_sweep: str | Path, results: str | Path = DEFAULT_RESULTS) -> pd.DataFrame:
    """The results table of a sweep (a name under ``results/``, a folder, or a Parquet file).

    When the journal is newer than the table (a sweep still running, or killed), the table is
    compacted again first, so ``load`` always sees every finished run.
    """
    import pandas as pd

    path = Path(path_or_sweep)
    if path.suffix == ".parquet" and path.is_file() and not (path.parent / JOURNAL).exists():
        return pd.read_parquet(path)
    directory = sweep_dir(path_or_sweep, results)
    table, journal = directory / TABLE, directory / JOURNAL
    being_written = _being_written.pop(str(table.resolve()), None)
    if being_written is not None:  # compact(background=True)'s: what the file will hold
        return being_written.to_pandas()
    finish_writing()
    if journal.exists() and (not table.exists()
                             or journal.stat().st_mtime_ns > table.stat().st_mtime_ns):
        compact(directory)
    if not table.exists():
        raise FileNotFoundError(f"{directory} holds no {TABLE} and no {JOURNAL}")
    written = _just_written.pop(str(table.resolve()), None)
    if written is not None and written[0] == _stamp(table):
        return written[1].to_pandas()
    return pd.read_parquet(table)


#: The Arrow table :func:`compact` wrote last, by file, with the file's stamp: the next
#: :func:`load` of that file (the sweep's summary, right after) takes it instead of reading
#: the file back, once; any change to the file since makes it stale.
_just_written: dict[str, tuple[tuple[int, int], Any]] = {}

#: The Arrow table of each file a background :func:`compact` is writing (taken, once, by the
#: next :func:`load` of it), and the futures of those writings' last steps.
_being_written: dict[str, Any] = {}
_writing: list[Any] = []


def _stamp(path: Path) -> tuple[int, int]:
    """A file's modification time and size."""
    stat = path.stat()
    return stat.st_mtime_ns, stat.st_size


def _git_commit() -> str | None:
    root = Path(__file__).resolve().parents[2]
    try:
        out = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True,
                             text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _memory_mb() -> int | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) // 1024
    except OSError:
        pass
    return None


PACKAGES = ("numpy", "numba", "pandas", "pyarrow", "ortools", "python-sat", "highspy", "pulp",
            "xcover", "igraph", "rich", "dask", "distributed")


def environment() -> dict[str, Any]:
    versions = {}
    for name in PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return {
        "git_commit": _git_commit(),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "host": socket.gethostname(),
        "cpu_model": _cpu_model(),
        "cpu_count": os.cpu_count(),
        "memory_mb": _memory_mb(),
        "packages": versions,
    }


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def write_manifest(directory: str | Path, manifest: dict[str, Any]) -> Path:
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    target = directory / MANIFEST
    tmp = target.with_suffix(".json.tmp")
    tmp.write_text(json.dumps({"schema_version": SCHEMA_VERSION, **manifest}, indent=2,
                              sort_keys=True, default=str) + "\n")
    os.replace(tmp, target)
    return target
