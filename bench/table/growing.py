"""The table written while a sweep runs: Parquet row groups made from the journal's rows as
they come, so that compaction at the end has only the last rows left to write.

A sweep's parent journals each chunk of rows, then waits for the worker's next
(bench/execute/sweep.py). Each time, :class:`GrowingTable` takes the parts the journal keeps in
memory (bench/table/journal.py: what it wrote, as columns), and once those it holds make
``ROW_GROUP_ROWS`` rows or more, converts them to Arrow (bench/table/store.py
``arrow_table``) and has a thread write them as the next row group of a file of its own in the
sweep's folder. The file's schema comes from the dtypes of the first group's parts
(``table_dtypes``).

At the end, ``compact(directory, journal, growing)`` makes that file ``runs.parquet`` only
where it holds exactly what compaction would write from the whole journal: every part the
journal holds, in order, and the dtypes of all of them those of its schema (a later row can
change a column's: a column of whole numbers that meets a null becomes a float column, a new
parameter column appears). Otherwise the file is deleted and compaction writes the table from
the journal as before, as it does for a table of one row group, a resumed sweep (its journal's
earlier rows are not in memory) and a journal that stopped keeping its rows. Nothing here is
needed for a row to be safe: the journal is the truth.
"""

from __future__ import annotations

import os
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from bench.table import store
from bench.table.journal import Journal, merged_parts

#: A journal's part: ``(same, varying, size)`` (bench/table/journal.py).
Part = tuple[dict[str, Any], dict[str, list[Any]], int]
#: The end of a growing table's file name, after the table's and the process id.
SUFFIX = ".growing"


class GrowingTable:
    """The row groups of a sweep's table, written as its rows are journaled; see the module's
    docstring. ``take`` after each journal append, ``finish`` (by ``compact``) at the end."""

    def __init__(self, directory: str | Path):
        self.path = Path(directory) / f"{store.TABLE}.{os.getpid()}{SUFFIX}"
        self.taken = 0  # the journal's parts taken so far
        self.pending: list[Part] = []  # taken, not yet converted
        self.pending_rows = 0
        self.dtypes: dict[str, str] | None = None
        self.schema: Any = None
        self.writer: Any = None
        self.pool: ThreadPoolExecutor | None = None
        self.written: Future[Any] | None = None
        self.tables: list[Any] = []  # the groups written, for compact to hand to load
        self.given_up = False

    def take(self, journal: Journal) -> None:
        """Take the parts the journal kept since the last call, and write them as a row group
        once they hold ``ROW_GROUP_ROWS`` rows or more. A journal that keeps no parts (a
        resumed sweep's), a value that does not convert, or a column the schema lacks ends
        the file: compaction then writes the table as before (any real fault there again)."""
        if self.given_up:
            return
        kept = journal.kept_parts()
        if kept is None or len(kept) < self.taken:
            self.discard()
            return
        new = kept[self.taken:]
        self.taken = len(kept)
        self.pending.extend(new)
        self.pending_rows += sum(size for _, _, size in new)
        if self.pending_rows >= store.ROW_GROUP_ROWS:
            self._write_pending()

    def finish(self, journal: Journal) -> Any:
        """The whole table as Arrow, its file complete at :attr:`path`, where it is exactly
        what compaction would write from ``journal``; else None (the file deleted). A sweep
        of fewer rows than a row group never began one: None."""
        if self.given_up or self.dtypes is None:
            self.discard()
            return None
        self.take(journal)
        kept = journal.kept_parts()
        if self.given_up or kept is None or store.table_dtypes(kept) != self.dtypes:
            self.discard()
            return None
        if self.pending:
            self._write_pending()
        try:
            if self.written is not None:
                self.written.result()
            self.writer.close()
        except Exception:  # noqa: BLE001 - compaction writes the table and meets it again
            self.discard()
            return None
        finally:
            self._end_pool()
        if self.given_up:
            return None
        import pyarrow as pa

        return pa.concat_tables(self.tables)

    def discard(self) -> None:
        """Give up: the writing stopped, the file deleted, nothing kept."""
        self.given_up = True
        self.pending, self.tables = [], []
        try:
            if self.written is not None:
                self.written.result()
        except Exception:  # noqa: BLE001 - the file is deleted anyway
            pass
        self._end_pool()
        if self.writer is not None:
            try:
                self.writer.close()
            except Exception:  # noqa: BLE001
                pass
            self.writer = None
        self.path.unlink(missing_ok=True)

    def _write_pending(self) -> None:
        """Convert the parts taken and have the thread write them as the next row group,
        once the one before is written (its error, if any, ends the file)."""
        try:
            table = self._converted(merged_parts(self.pending))
            if table is not None and self.written is not None:
                self.written.result()
        except Exception:  # noqa: BLE001 - compaction writes the table and meets it again
            table = None
        if table is None:
            self.discard()
            return
        self.written = self.pool.submit(self.writer.write_table, table)
        self.tables.append(table)
        self.pending, self.pending_rows = [], 0

    def _converted(self, parts: list[Part]) -> Any:
        """The parts as an Arrow table of the file's schema (made, and the file opened, from
        the first group's dtypes); None where they do not fit it."""
        if self.dtypes is None:
            import pyarrow.parquet as pq

            dtypes = store.table_dtypes(parts)
            if dtypes is None:
                return None
            self.dtypes, self.schema = dtypes, store.arrow_schema(dtypes)
            self.writer = pq.ParquetWriter(self.path, self.schema,
                                           **store.parquet_options(self.schema))
            self.pool = ThreadPoolExecutor(1, thread_name_prefix="growing-table")
        elif any(name not in self.dtypes for same, varying, _ in parts
                 for name in (*same, *varying)):
            return None
        return store.arrow_table(parts, self.dtypes, self.schema)

    def _end_pool(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True)
            self.pool = None


def remove_stale(directory: Path) -> None:
    """Delete the growing tables a process that is gone left in a sweep's folder (it was
    killed before its compaction)."""
    for path in directory.glob(f"{store.TABLE}.*{SUFFIX}"):
        pid = path.name[len(store.TABLE) + 1:-len(SUFFIX)]
        if pid.isdigit() and not _alive(int(pid)):
            path.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's
        return True
    return True
