"""The table converted while the sweep runs (bench/table/ahead.py): each chunk converted as it
is written, a row group joined from its chunks' tables only where each was made of that chunk
with the whole table's column types."""

from __future__ import annotations

import pandas as pd
import pyarrow.parquet as pq
import pytest

from bench.execute.sweep import run_sweep
from bench.table import store
from bench.table.ahead import TableAhead
from bench.table.journal import Journal


@pytest.fixture(autouse=True)
def small_groups(monkeypatch):
    """Row groups of 4 rows (chunks of 3: a group is two chunks)."""
    monkeypatch.setattr(store, "ROW_GROUP_ROWS", 4)


def _chunk(journal, first, p_x=7, size=3, p_y=None):
    journal.append_columns({"solver": "x", "p_x": p_x},
                           {"key": [f"k{i}" for i in range(first, first + size)],
                            "t_wall": [i / 7 for i in range(first, first + size)],
                            **({"p_y": p_y} if p_y else {})}, size)


def _converted(monkeypatch):
    """The row groups store.arrow_table converts from their rows (the first key of each), not
    from columns converted ahead, from now on."""
    made = []
    convert = store.arrow_table

    def counting(parts, dtypes, schema):
        keys = next(iter(parts))[1]["key"]
        if type(keys) is list:
            made.append(keys[0])
        return convert(parts, dtypes, schema)

    monkeypatch.setattr(store, "arrow_table", counting)
    return made


def test_chunks_are_converted_as_they_come_and_their_groups_joined(tmp_path, monkeypatch):
    journal = Journal(tmp_path / "journal.jsonl")
    ahead = TableAhead(journal)
    assert ahead.step() and ahead.ready  # pandas and pyarrow imported: a step's work
    assert not ahead.step()  # nothing written yet
    made = _converted(monkeypatch)
    _chunk(journal, 0)
    assert ahead.step() and not ahead.step() and len(ahead.made_of) == 1
    for first in (3, 6):
        _chunk(journal, first)
    assert ahead.step() and ahead.step() and not ahead.step() and len(ahead.made_of) == 3
    _chunk(journal, 9, size=2)  # written after the last step: converted by the compaction
    journal.close()
    expected = store.to_frame(journal.read())
    made.clear()
    store.compact(tmp_path, journal, ahead=ahead)
    assert made == ["k6"]  # the second group (chunks 6 and 9); the first made of its arrays
    assert len(ahead.made_of) == 1  # chunk 6's, not taken; chunks 0 and 3's let go
    pd.testing.assert_frame_equal(store.load(tmp_path), expected)
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / store.TABLE), expected)


def test_a_group_whose_column_types_changed_is_converted_again(tmp_path, monkeypatch):
    """An extra column of whole numbers that a later chunk holds a null in reads as floats:
    the chunks converted ahead with it as integers are not taken, their groups converted from
    their rows; a column with one value a chunk is the compaction's alone (its type changing,
    integers then a null, costs nothing ahead)."""
    journal = Journal(tmp_path / "journal.jsonl")
    ahead = TableAhead(journal)
    ahead.ready = True
    for first in (0, 3, 6):
        _chunk(journal, first, p_y=[1, 2, 3])
        assert ahead.step()
    _chunk(journal, 9, p_x=None, p_y=[4, None, 5])
    assert ahead.step()
    journal.close()
    expected = store.to_frame(journal.read())
    assert str(expected["p_y"].dtype) == "Float64" and str(expected["p_x"].dtype) == "Float64"
    made = _converted(monkeypatch)
    store.compact(tmp_path, journal, ahead=ahead)
    assert made == ["k0", "k6"]
    pd.testing.assert_frame_equal(store.load(tmp_path), expected)


def test_a_column_with_one_value_a_chunk_may_change_type(tmp_path, monkeypatch):
    journal = Journal(tmp_path / "journal.jsonl")
    ahead = TableAhead(journal)
    ahead.ready = True
    for first in (0, 3, 6):
        _chunk(journal, first)
        assert ahead.step()
    _chunk(journal, 9, p_x=None)
    assert ahead.step()
    journal.close()
    expected = store.to_frame(journal.read())
    assert str(expected["p_x"].dtype) == "Float64"
    made = _converted(monkeypatch)
    store.compact(tmp_path, journal, ahead=ahead)
    assert made == []  # both groups made of the arrays converted ahead
    assert pq.ParquetFile(tmp_path / store.TABLE).metadata.num_row_groups == 2  # not to_frame's
    pd.testing.assert_frame_equal(store.load(tmp_path), expected)
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / store.TABLE), expected)


def test_a_journal_with_a_single_run_row_is_left_to_the_compaction(tmp_path, monkeypatch):
    journal = Journal(tmp_path / "journal.jsonl")
    ahead = TableAhead(journal)
    ahead.ready = True
    _chunk(journal, 0)
    journal.append({"key": "single", "solver": "x", "p_x": 7, "t_wall": 0.5})
    for first in (3, 6, 9):
        _chunk(journal, first)
    assert ahead.step() and len(ahead.made_of) == 1  # the first chunk; the run's row stops it
    assert not ahead.step() and ahead.off and ahead.made_of == {}
    journal.close()
    expected = store.to_frame(journal.read())
    store.compact(tmp_path, journal, ahead=ahead)
    pd.testing.assert_frame_equal(store.load(tmp_path), expected)


def test_a_journal_read_from_its_file_is_left_to_the_compaction(tmp_path):
    """A resumed sweep's journal holds rows this object did not write."""
    first = Journal(tmp_path / "journal.jsonl")
    _chunk(first, 0)
    first.close()
    journal = Journal(tmp_path / "journal.jsonl")
    ahead = TableAhead(journal)
    for start in (3, 6, 9):
        _chunk(journal, start)
    assert journal.kept_parts() is None
    assert not ahead.step() and ahead.off


def test_a_block_sweep_converts_its_table_while_it_runs(tmp_path, monkeypatch):
    """Through ``run_sweep``: the runner calls the conversion when it would wait for its
    worker, and the table, its groups made ahead taken, reads as ``to_frame`` of the rows."""
    import bench
    from bench.execute import sweep

    made = []

    class Watched(TableAhead):
        def __init__(self, journal):
            super().__init__(journal)
            self.steps, self.taken = 0, 0
            made.append(self)

        def step(self):
            self.steps += 1
            return super().step()

        def table(self, group, dtypes):
            found = super().table(group, dtypes)
            self.taken += found is not None
            return found

    monkeypatch.setattr(sweep, "TableAhead", Watched)
    suite = tmp_path / "blk.toml"
    suite.write_text('name = "blk"\ntimeout = 10\njobs = 1\n[[solver]]\nname = "norvig"\n'
                     '[[ladder]]\nname = "planted"\ngenerator = "sudoku/planted"\n'
                     'params = { box = 3 }\nvary = "clues"\nvalues = [30, 28]\n'
                     'seeds = [1, 2, 3, 4, 5, 6, 7, 8, 9]\nblock = 3\n')
    folder = run_sweep(str(suite), results=tmp_path / "res", progress=False)
    (ahead,) = made
    assert ahead.steps >= 1 and not ahead.off
    assert ahead.taken >= 1  # a row group joined from the chunks made ahead
    table = bench.load(folder)
    assert len(table) == 18 and table["verified"].all()
    pd.testing.assert_frame_equal(
        table, store.to_frame(Journal(folder / "journal.jsonl").read()))


def test_a_value_arrow_refuses_is_left_to_the_compaction(tmp_path):
    """An integer past 64 bits in a chunk: its columns are not converted ahead, and the
    compaction (which could not convert it either, before: it raised) makes the table through
    ``to_frame``."""
    journal = Journal(tmp_path / "journal.jsonl")
    ahead = TableAhead(journal)
    ahead.ready = True
    _chunk(journal, 0)
    journal.append_columns({"solver": "x"}, {"key": ["big0", "big1"],
                                             "work_nodes": [2**70, 1]}, 2)
    assert ahead.step() and ahead.step() and not ahead.off
    assert [made[2] is None for made in ahead.made_of.values()] == [False, True]
    journal.close()
    expected = store.to_frame(journal.read())
    store.compact(tmp_path, journal, ahead=ahead)
    pd.testing.assert_frame_equal(store.load(tmp_path), expected)


def test_a_conversion_that_fails_stops_the_conversion_not_the_sweep(tmp_path, monkeypatch):
    journal = Journal(tmp_path / "journal.jsonl")
    ahead = TableAhead(journal)
    ahead.ready = True
    _chunk(journal, 0)

    def failing(part, dtypes):
        raise MemoryError("no memory for the arrays")

    monkeypatch.setattr(store, "varying_arrays", failing)
    assert not ahead.step() and ahead.off and ahead.made_of == {}
