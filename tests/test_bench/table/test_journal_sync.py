"""The journal's fsyncs: a run's line is fsynced before ``append`` returns; a chunk's line
written with ``later`` is fsynced by the background syncer, and ``close`` returns only once
every line is on disk (or raises the fsync that failed)."""

from __future__ import annotations

import errno
import os
import threading

import pytest

from bench.table import journal as journal_module
from bench.table.journal import Journal


def columns(i: int) -> tuple[dict, dict, int]:
    return {"solver": "native"}, {"key": [f"k{i}a", f"k{i}b"], "t_wall": [0.5, 1.5]}, 2


@pytest.fixture
def fsyncs(monkeypatch):
    """The file size at each fsync the journal makes, and the thread that made it."""
    seen: list[tuple[int, str]] = []
    real = os.fsync

    def recorded(fd):
        real(fd)
        seen.append((os.fstat(fd).st_size, threading.current_thread().name))

    monkeypatch.setattr(journal_module.os, "fsync", recorded)
    return seen


def test_a_runs_line_is_fsynced_before_append_returns(tmp_path, fsyncs):
    journal = Journal(tmp_path / "journal.jsonl")
    journal.append({"key": "a", "status": "solved"})
    size = (tmp_path / "journal.jsonl").stat().st_size
    assert fsyncs == [(size, threading.current_thread().name)]
    journal.close()


def test_chunks_fsynced_later_are_all_on_disk_when_close_returns(tmp_path, fsyncs):
    journal = Journal(tmp_path / "journal.jsonl")
    for i in range(50):
        journal.append_columns(*columns(i), later=True)
    journal.close()
    size = (tmp_path / "journal.jsonl").stat().st_size
    assert fsyncs and fsyncs[-1] == (size, "journal-fsync")
    assert all(name == "journal-fsync" for _, name in fsyncs)
    assert [row["key"] for row in Journal(tmp_path / "journal.jsonl").read()] == \
        [f"k{i}{x}" for i in range(50) for x in "ab"]


def test_a_failed_background_fsync_is_raised(tmp_path, monkeypatch):
    def failing(fd):
        raise OSError(errno.EIO, "input/output error")

    journal = Journal(tmp_path / "journal.jsonl")
    monkeypatch.setattr(journal_module.os, "fsync", failing)
    journal.append_columns(*columns(0), later=True)
    with pytest.raises(OSError, match="input/output error"):
        journal.close()
    assert journal._handle is None  # closed all the same
