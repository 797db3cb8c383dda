"""A table written by a thread (``compact(background=True)``): ``load`` takes it from memory
while its file is written, ``finish_writing`` waits for the file and raises what its writing
raised, and the sweep's lock is held until the file is in place."""

from __future__ import annotations

import threading
from concurrent.futures import Future

import pandas as pd
import pyarrow.parquet as pq
import pytest

from bench.execute.lock import keep_lock_until, sweep_lock
from bench.plan.suite import SuiteError
from bench.table import store
from bench.table.journal import Journal


def _journal(folder, rows=11):
    """A journal of chunks of 3 rows (and a last of 2), more than one row group's worth at
    ``ROW_GROUP_ROWS = 4``."""
    journal = Journal(folder / "journal.jsonl")
    for first in range(0, rows - 2, 3):
        journal.append_columns({"solver": "x", "p_box": 3},
                               {"key": [f"k{i}" for i in range(first, first + 3)],
                                "t_wall": [i / 7 for i in range(first, first + 3)]}, 3)
    journal.append_columns({"solver": "x", "p_box": 4},
                           {"key": ["y0", "y1"], "t_wall": [0.5, None]}, 2)
    journal.close()
    return journal


@pytest.fixture
def held_close(monkeypatch):
    """The Parquet writer's close waits for the event given (so the file is not in place
    before the test lets it)."""
    release = threading.Event()
    close = pq.ParquetWriter.close

    def waiting_close(self, *args, **kwargs):
        assert release.wait(30)
        return close(self, *args, **kwargs)

    monkeypatch.setattr(pq.ParquetWriter, "close", waiting_close)
    monkeypatch.setattr(store, "ROW_GROUP_ROWS", 4)
    yield release
    release.set()
    store.finish_writing()


def test_the_table_being_written_loads_from_memory_then_from_its_file(tmp_path, held_close):
    journal = _journal(tmp_path)
    expected = store.to_frame(journal.read())
    target = store.compact(tmp_path, journal, background=True)
    assert not target.exists() and store.writes_pending()  # still being written
    pd.testing.assert_frame_equal(store.load(tmp_path), expected)  # from memory, at once
    assert not target.exists()
    held_close.set()
    store.finish_writing()
    assert target.exists() and not store.writes_pending()
    assert not list(tmp_path.glob("*.tmp"))
    assert pq.ParquetFile(target).metadata.num_row_groups == 2  # 3 + 3 rows, 3 + 2
    pd.testing.assert_frame_equal(pd.read_parquet(target), expected)
    pd.testing.assert_frame_equal(store.load(tmp_path), expected)  # taken once: the file now


def test_a_load_that_needs_the_file_waits_for_it(tmp_path, monkeypatch):
    """A second ``load`` (the table in memory taken already) waits for the writing instead of
    compacting the journal again beside it."""
    monkeypatch.setattr(store, "ROW_GROUP_ROWS", 4)
    journal = _journal(tmp_path)
    store.compact(tmp_path, journal, background=True)
    store.load(tmp_path)
    compactions = []
    monkeypatch.setattr(store, "compact", lambda *a, **k: compactions.append(a))
    pd.testing.assert_frame_equal(store.load(tmp_path), store.to_frame(journal.read()))
    assert compactions == []


def test_a_failed_background_writing_is_raised_and_leaves_no_file(tmp_path, monkeypatch):
    monkeypatch.setattr(store, "ROW_GROUP_ROWS", 4)
    calls = []
    write = pq.ParquetWriter.write_table

    def failing(self, table, *args, **kwargs):
        calls.append(len(table))
        if len(calls) == 2:
            raise OSError("no space left on device")
        return write(self, table, *args, **kwargs)

    monkeypatch.setattr(pq.ParquetWriter, "write_table", failing)
    target = store.compact(tmp_path, _journal(tmp_path), background=True)
    with pytest.raises(OSError, match="no space left"):
        store.finish_writing()
    assert not target.exists() and not list(tmp_path.glob("*.tmp"))
    store.finish_writing()  # raised once


def test_the_sweeps_lock_is_kept_until_its_writing_is_done(tmp_path):
    writing = Future()
    with sweep_lock(tmp_path, "s"):
        keep_lock_until(writing)
    with pytest.raises(SuiteError, match="being run by another cliffbench"):
        with sweep_lock(tmp_path, "s"):
            pass
    writing.set_result(None)
    with sweep_lock(tmp_path, "s"):  # released with the writing's end
        pass
    with sweep_lock(tmp_path, "s"):  # and an ordinary lock is released at its block's end
        pass
