"""Row groups converted while a sweep runs (``GroupsAhead``): the compaction takes a group's
table from them exactly where converting it again would give the same table, and the file and
the table in memory are those of a compaction without them."""

from __future__ import annotations

import pandas as pd
import pytest

from bench.table import store
from bench.table.journal import Journal


def _chunk(journal, first, size, **same):
    journal.append_columns({"solver": "x", "p_box": 3, **same},
                           {"key": [f"k{i}" for i in range(first, first + size)],
                            "t_wall": [i / 7 for i in range(first, first + size)]}, size)


def _single(journal, i, **extra):
    journal.append({"solver": "x", "p_box": 3, "key": f"k{i}", "t_wall": i / 7, **extra})


def _written(folder, lines, caught_up=True):
    """A journal of ``lines`` (("chunk", size) or ("single", extra columns)), the groups
    caught up after each, and the compaction's groups: whether each was taken ahead."""
    journal = Journal(folder / "journal.jsonl")
    ahead = store.GroupsAhead(journal)
    rows = 0
    for kind, arg in lines:
        if kind == "chunk":
            _chunk(journal, rows, arg)
            rows += arg
        else:
            _single(journal, rows, **arg)
            rows += 1
        if caught_up:
            ahead.catch_up()
    journal.close()
    taken = []
    table_of = ahead.table_of

    def spied(parts, dtypes, first_row):
        made = table_of(parts, dtypes, first_row)
        taken.append(made is not None)
        return made

    ahead.table_of = spied
    store.compact(folder, journal, ahead=ahead)
    return journal, taken


@pytest.fixture
def small_groups(monkeypatch):
    monkeypatch.setattr(store, "ROW_GROUP_ROWS", 4)


def test_whole_groups_are_taken_from_ahead_and_the_table_is_the_same(tmp_path, small_groups):
    """A single row first (a stretch ``read_parts`` makes a new part of), then a stretch of
    two single rows amid chunks: every whole group is taken from ahead, the last (cut by the
    end of the journal) converted by the compaction, and the table reads as ``to_frame`` of
    the rows, as a compaction from the file gives it."""
    lines = [("single", {}), ("chunk", 2), ("chunk", 3), ("single", {}), ("single", {}),
             ("chunk", 2), ("chunk", 3), ("chunk", 2), ("chunk", 1)]
    journal, taken = _written(tmp_path, lines)
    # groups: [1, 2, 3] = 6 rows, [1+1 stretch, 2] = 4, [3, 2] = 5, [1] (the last, not whole
    # while the sweep ran: a next line could have joined it)
    assert taken == [True, True, True, False]
    expected = store.to_frame(journal.read())
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / store.TABLE), expected)
    pd.testing.assert_frame_equal(store.load(tmp_path), expected)


def test_a_group_of_other_dtypes_than_the_tables_is_converted_again(tmp_path, small_groups):
    """A column that only later rows hold (a counter of another solver) is absent from the
    first groups' own dtypes: those are converted again with the table's, a null in it where
    their rows have none; the group that holds it is taken."""
    lines = [("chunk", 4), ("chunk", 4), ("single", {"s_mode": "fast"}), ("chunk", 3)]
    journal, taken = _written(tmp_path, lines)
    assert taken == [False, False, True]
    expected = store.to_frame(journal.read())
    assert expected["s_mode"].isna().sum() == 11
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / store.TABLE), expected)


def test_without_catching_up_nothing_is_taken(tmp_path, small_groups):
    journal, taken = _written(tmp_path, [("chunk", 4), ("chunk", 4), ("chunk", 1)],
                              caught_up=False)
    assert taken == [False, False, False]
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / store.TABLE),
                                  store.to_frame(journal.read()))


def test_a_group_of_other_parts_is_converted_again(tmp_path, small_groups):
    """A group converted ahead from other parts (here: another journal's, of other keys) is
    not taken: the table holds the rows as the compaction reads them."""
    other = Journal(tmp_path / "other" / "journal.jsonl")
    other_ahead = store.GroupsAhead(other)
    other.append_columns({"solver": "x", "p_box": 3},
                         {"key": ["o0", "o1", "o2", "o3"], "t_wall": [0.0, 1.0, 2.0, 3.0]}, 4)
    other_ahead.catch_up()
    journal = Journal(tmp_path / "journal.jsonl")
    ahead = store.GroupsAhead(journal)
    for first in (0, 4):
        _chunk(journal, first, 4)
    journal.close()
    ahead.made = other_ahead.made  # a table of the first group's size and dtypes
    assert ahead.made[0][1] == store.table_dtypes(journal.read_parts()[:1])
    store.compact(tmp_path, journal, ahead=ahead)
    got = pd.read_parquet(tmp_path / store.TABLE)
    assert got["key"].tolist() == [f"k{i}" for i in range(8)]


def test_groups_converted_ahead_are_written_together_in_bigger_row_groups(tmp_path,
                                                                         monkeypatch):
    """The groups converted ahead are written as row groups of ``FILE_GROUP_ROWS`` rows or
    more; a group converted by the compaction is written on its own, the groups before it
    given to the writer before its conversion: ahead groups of 6, 6 and 6 rows, then one of
    3, make row groups of 12, 6 and 3 at ``FILE_GROUP_ROWS = 10``; without catching up, the
    row groups are the groups. The file reads as ``to_frame`` of the rows."""
    import pyarrow.parquet as pq

    monkeypatch.setattr(store, "ROW_GROUP_ROWS", 4)
    monkeypatch.setattr(store, "FILE_GROUP_ROWS", 10)
    for caught_up, sizes in ((True, [12, 6, 3]), (False, [6, 6, 6, 3])):
        folder = tmp_path / str(caught_up)
        journal, taken = _written(folder, [("chunk", 3)] * 7, caught_up)
        assert taken == [caught_up] * 3 + [False]
        meta = pq.ParquetFile(folder / store.TABLE).metadata
        assert [meta.row_group(i).num_rows for i in range(meta.num_row_groups)] == sizes
        pd.testing.assert_frame_equal(pd.read_parquet(folder / store.TABLE),
                                      store.to_frame(journal.read()))
