"""Pattern-database files (header, payload, checksum; atomic writes; refusals), the cache
directory, and ``cliffbench pdb``."""

from __future__ import annotations

import struct
import warnings
from pathlib import Path

import numpy as np
import pytest

from searches.support import tiles_pdb_encode as enc
from searches.support import tiles_pdb_store as store
from searches.support.tiles_pdb_build import build
from searches.support.tiles_pdb_lookup import heuristic
from searches.support.tiles_pdb_patterns import Pattern, partition

from helpers import cliffbench

PATTERN = Pattern(3, 3, "blank-first", (1, 2, 3, 4))


def saved(tmp_path: Path, encoding: str = "nibble", param: int = 0) -> tuple[Path, np.ndarray]:
    table = build(PATTERN, "ignored").table
    got = enc.encode(table, PATTERN.k, PATTERN.n, PATTERN.manhattan_rows(), encoding, param)
    path = tmp_path / "t.pdb"
    store.save(path, store.header_for(PATTERN, "ignored", got), got.payload)
    return path, got.payload


def test_round_trip_and_no_temporary_left(tmp_path: Path) -> None:
    for encoding, param in (("byte", 0), ("nibble", 0), ("mod3", 0), ("bit", 0),
                            ("minnibble", 4)):
        path, payload = saved(tmp_path, encoding, param)
        header, back = store.load(path)
        assert (back == payload).all()
        assert header.encoding == encoding and header.param == param
        assert header.tiles == PATTERN.tiles and header.rule == "ignored"
        assert header.entries == PATTERN.size == 3024
        size = store.FIXED.size + PATTERN.k + payload.size + 4
        assert path.stat().st_size == size
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.pdb"]


def test_truncated_file_is_refused(tmp_path: Path) -> None:
    path, _ = saved(tmp_path)
    data = path.read_bytes()
    for cut in (len(data) - 1, len(data) // 2, 30, 0):
        path.write_bytes(data[:cut])
        with pytest.raises(store.PDBFileError, match="truncated|not a pattern-database"):
            store.load(path)


def test_corrupted_file_is_refused(tmp_path: Path) -> None:
    path, _ = saved(tmp_path)
    data = bytearray(path.read_bytes())
    data[100] ^= 0x10
    path.write_bytes(bytes(data))
    with pytest.raises(store.PDBFileError, match="corrupted"):
        store.load(path)


def test_older_version_and_foreign_files_are_refused(tmp_path: Path) -> None:
    path, _ = saved(tmp_path)
    data = bytearray(path.read_bytes())
    struct.pack_into("<I", data, 8, store.VERSION - 1)
    path.write_bytes(bytes(data))
    with pytest.raises(store.PDBFileError, match="older format"):
        store.load(path)
    path.write_bytes(b"PK\x03\x04 certainly not a table" * 4)
    with pytest.raises(store.PDBFileError, match="not a pattern-database file"):
        store.load(path)


def test_a_different_table_is_refused(tmp_path: Path) -> None:
    path, _ = saved(tmp_path)
    header, _ = store.load(path)
    for change in ({"tiles": (1, 2, 3, 5)}, {"rule": "minimized"}, {"goal": "blank-last"},
                   {"encoding": "byte"}):
        other = store.Header(**{**header.__dict__, **change})
        with pytest.raises(store.PDBFileError, match="a different table"):
            store.load(path, other)


def test_cache_loads_encodes_from_bytes_or_builds(tmp_path: Path) -> None:
    got, source = store.cached(PATTERN, "minimized", "nibble", cache=tmp_path)
    assert source == "built"
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [store.file_name(PATTERN, "minimized", "byte"),
                     store.file_name(PATTERN, "minimized", "nibble")]
    again, source = store.cached(PATTERN, "minimized", "nibble", cache=tmp_path)
    assert source == "cache" and (again.payload == got.payload).all()
    lossy, source = store.cached(PATTERN, "minimized", "minnibble", 4, cache=tmp_path)
    assert source == "encoded from bytes"
    assert (tmp_path / store.file_name(PATTERN, "minimized", "minnibble", 4)).exists()
    # a damaged cache file is refused with a warning and replaced
    target = tmp_path / store.file_name(PATTERN, "minimized", "nibble")
    target.write_bytes(target.read_bytes()[:-10])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fixed, source = store.cached(PATTERN, "minimized", "nibble", cache=tmp_path)
    assert source == "encoded from bytes" and "truncated" in str(caught[0].message)
    assert (fixed.payload == got.payload).all()
    assert store.load(target)[0].encoding == "nibble"


def test_heuristic_through_the_cache_equals_the_built_one(tmp_path: Path) -> None:
    part = partition("4-4", 3, 3)
    states = np.array([[8, 7, 6, 5, 4, 3, 2, 1, 0], [1, 2, 0, 3, 4, 5, 6, 7, 8]])
    fresh = heuristic(part, "minimized", "nibble", reflect=True).many(states)
    first = heuristic(part, "minimized", "nibble", reflect=True, cache=str(tmp_path))
    second = heuristic(part, "minimized", "nibble", reflect=True, cache=str(tmp_path))
    assert first.sources == ("built", "built") and second.sources == ("cache", "cache")
    assert (first.many(states) == fresh).all() and (second.many(states) == fresh).all()


def test_cli_pdb_build_and_info(tmp_path: Path) -> None:
    proc = cliffbench("pdb", "build", "--puzzle", "8", "--partition", "4-4", "--rule",
                      "minimized", "--encoding", "nibble", "--cache", str(tmp_path), check=True)
    assert "pattern 1,2,3,4: built" in proc.stdout and "peak memory" in proc.stdout
    assert "sizes by encoding: byte 6.0 kB" in proc.stdout
    again = cliffbench("pdb", "build", "--puzzle", "8", "--partition", "4-4", "--encoding",
                       "nibble", "--cache", str(tmp_path), check=True)
    assert again.stdout.count("loaded from the cache") == 2
    byte_file = tmp_path / store.file_name(PATTERN, "minimized", "byte")
    info = cliffbench("pdb", "info", str(byte_file), check=True)
    assert "checksum       ok" in info.stdout and "tiles          [1, 2, 3, 4]" in info.stdout
    byte_file.write_bytes(byte_file.read_bytes()[:-1])
    bad = cliffbench("pdb", "info", str(byte_file))
    assert bad.returncode == 2 and "truncated" in bad.stderr
    refused = cliffbench("pdb", "build", "--puzzle", "8", "--partition", "4-4", "--rule",
                         "minimized", "--encoding", "mod3", "--cache", str(tmp_path))
    assert refused.returncode == 2 and "relative" in refused.stderr
