"""The table written while a sweep runs (bench/table/growing.py): its row groups become the
table only where they are exactly what compaction would write from the journal; otherwise the
file is deleted and the table is written from the journal as before."""

from __future__ import annotations

import os
import subprocess
import sys

import pandas as pd
import pyarrow.parquet as pq
import pytest

from bench.table import growing as growing_module
from bench.table import store
from bench.table.growing import GrowingTable, remove_stale
from bench.table.journal import Journal


@pytest.fixture
def small_groups(monkeypatch):
    """Row groups of 4 rows, so that a few chunks make several."""
    monkeypatch.setattr(store, "ROW_GROUP_ROWS", 4)


def chunk(first: int, size: int = 3, **columns) -> tuple[dict, dict, int]:
    varying = {"key": [f"k{i}" for i in range(first, first + size)],
               "t_wall": [i / 7 for i in range(first, first + size)]}
    varying.update(columns)
    return {"solver": "x", "p_box": 3}, varying, size


def journaled(folder, chunks) -> tuple[Journal, GrowingTable]:
    """The chunks appended to a new journal, the growing table taking each as the sweep's
    parent does."""
    journal = Journal(folder / store.JOURNAL)
    growing = GrowingTable(folder)
    for same, varying, size in chunks:
        journal.append_columns(same, varying, size, later=True)
        growing.take(journal)
    journal.close()
    return journal, growing


def not_written_again(monkeypatch):
    """Compaction's own writing made to fail, so that a table it returns is the growing
    one."""
    def refused(*args, **kwargs):
        raise AssertionError("the table was written from the journal")

    monkeypatch.setattr(store, "write_parts", refused)


def test_the_growing_table_is_the_table_compaction_writes(tmp_path, small_groups, monkeypatch):
    journal, growing = journaled(tmp_path, [chunk(i) for i in range(0, 15, 3)])
    assert growing.path.exists() and len(growing.tables) == 2  # 6 and 6 rows; 3 left
    expected = store.to_frame(journal.read())
    not_written_again(monkeypatch)
    store.compact(tmp_path, journal, growing)
    assert not growing.path.exists()
    table = tmp_path / store.TABLE
    pd.testing.assert_frame_equal(pd.read_parquet(table), expected)
    assert pq.ParquetFile(table).metadata.num_row_groups == 3
    pd.testing.assert_frame_equal(store.load(tmp_path), expected)


def test_single_rows_grow_the_table_as_compaction_reads_them(tmp_path, small_groups,
                                                              monkeypatch):
    """Runs' rows one by one (not in blocks), between chunks: the growing table takes them
    as compaction does (each stretch of single rows read together), and is the table."""
    journal = Journal(tmp_path / store.JOURNAL)
    growing = GrowingTable(tmp_path)
    for i in range(7):
        journal.append({"key": f"r{i}", "solver": "y", "p_box": 3, "t_wall": i / 3,
                        **({"s_seed": i} if i % 2 else {})})
        growing.take(journal)
        if i == 3:
            journal.append_columns(*chunk(100))
            growing.take(journal)
    journal.close()
    assert growing.tables
    expected = store.to_frame(journal.read())
    not_written_again(monkeypatch)
    store.compact(tmp_path, journal, growing)
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / store.TABLE), expected)


@pytest.mark.parametrize("late", [
    {"s_depth": [1, None, 2]},  # whole numbers that meet a null: a float column in the end
    {"p_extra": ["a", "b", "c"]},  # a column the first group did not have
    {"message": [1, 2, 3]},  # numbers in a text column: to_frame converts them
], ids=["int-meets-null", "new-column", "not-exact"])
def test_a_later_row_that_changes_the_table_sends_it_through_compaction(
        tmp_path, small_groups, late):
    early = {"s_depth": [1, 2, 3]} if "s_depth" in late else {}
    chunks = [chunk(0, **early), chunk(3, **early), chunk(6, **late)]
    journal, growing = journaled(tmp_path, chunks)
    expected = store.to_frame(journal.read())
    store.compact(tmp_path, journal, growing)
    assert not growing.path.exists()
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / store.TABLE), expected)
    assert not list(tmp_path.glob("*.growing"))


def test_a_resumed_journal_grows_no_table(tmp_path, small_groups):
    first = Journal(tmp_path / store.JOURNAL)
    first.append_columns(*chunk(0))
    first.close()
    journal, growing = journaled(tmp_path, [chunk(i) for i in range(3, 15, 3)])
    assert growing.given_up and not growing.path.exists()
    expected = store.to_frame(journal.read())
    assert len(expected) == 15
    store.compact(tmp_path, journal, growing)
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / store.TABLE), expected)


def test_fewer_rows_than_a_group_are_written_by_compaction(tmp_path):
    journal, growing = journaled(tmp_path, [chunk(0), chunk(3)])
    assert growing.dtypes is None and not growing.path.exists()
    store.compact(tmp_path, journal, growing)
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / store.TABLE),
                                  store.to_frame(journal.read()))


def test_a_write_that_fails_sends_the_table_through_compaction(tmp_path, small_groups,
                                                               monkeypatch):
    journal = Journal(tmp_path / store.JOURNAL)
    growing = GrowingTable(tmp_path)
    journal.append_columns(*chunk(0))
    journal.append_columns(*chunk(3))
    growing.take(journal)

    def full(table):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(growing.writer, "write_table", full, raising=False)
    for first in (6, 9, 12):
        journal.append_columns(*chunk(first))
        growing.take(journal)
    journal.close()
    store.compact(tmp_path, journal, growing)
    assert growing.given_up and not growing.path.exists()
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / store.TABLE),
                                  store.to_frame(journal.read()))


def test_a_dead_processs_growing_table_is_removed(tmp_path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()
    stale = tmp_path / f"{store.TABLE}.{dead}{growing_module.SUFFIX}"
    live = tmp_path / f"{store.TABLE}.{os.getpid()}{growing_module.SUFFIX}"
    for path in (stale, live):
        path.write_bytes(b"PAR1")
    remove_stale(tmp_path)
    assert not stale.exists() and live.exists()


def test_a_block_sweep_grows_its_table(tmp_path, small_groups, monkeypatch):
    """A block sweep's table is the growing one, and reads as compaction of its journal file
    (in a fresh process's terms: no journal object, nothing in memory)."""
    from bench.execute.sweep import run_sweep

    suite = tmp_path / "grow.toml"
    suite.write_text("""name = "grow"
timeout = 10
jobs = 1
[[solver]]
name = "native"
[[ladder]]
name = "planted"
generator = "sudoku/planted"
params = { box = 3 }
vary = "clues"
values = [30]
seeds = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]
block = 5
""")
    finished = []
    real = GrowingTable.finish

    def finish(self, journal):
        table = real(self, journal)
        finished.append(table)
        return table

    monkeypatch.setattr(GrowingTable, "finish", finish)
    folder = run_sweep(str(suite), results=tmp_path / "results", progress=False)
    assert len(finished) == 1 and finished[0] is not None and finished[0].num_rows == 14
    grown = pd.read_parquet(folder / store.TABLE)
    assert pq.ParquetFile(folder / store.TABLE).metadata.num_row_groups > 1
    assert not list(folder.glob("*.growing"))
    store.compact(folder)
    pd.testing.assert_frame_equal(grown, pd.read_parquet(folder / store.TABLE))
