"""Property-based fuzzing of pattern-database files (issue 8, "Bad input").

A small saved table (the 8-puzzle's tiles 1-4, 3,024 entries; a 2x3 board's tiles 1-3) in every
encoding gets random byte flips, truncations, extensions and header field changes (with its
checksum kept, or recomputed so that the header checks themselves are reached). ``load`` must
refuse each with ``PDBFileError`` naming the file, never raise anything else, and never accept
a file whose content differs from the table asked for; ``cached`` on a cache directory holding
such a file warns and gives back a table equal to the original (rebuilt from the byte table or
from scratch), and leaves a good file behind.
"""

from __future__ import annotations

import struct
import tempfile
import warnings
import zlib
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from searches.support import tiles_pdb_encode as enc
from searches.support import tiles_pdb_store as store
from searches.support.tiles_pdb_build import build
from searches.support.tiles_pdb_patterns import Pattern

FAST = settings(max_examples=150, deadline=2000, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow])
LONG = settings(FAST, max_examples=3000)

RULE = "ignored"
PATTERNS = (Pattern(3, 3, "blank-first", (1, 2, 3, 4)), Pattern(2, 3, "blank-last", (1, 2, 3)))
ENCODINGS = (("byte", 0), ("nibble", 0), ("mod3", 0), ("bit", 0), ("minnibble", 4))

#: The header's fields after the magic: (name, offset, struct format); then the tile bytes.
FIELDS = (("version", 8, "<I"), ("header length", 12, "<I"), ("rows", 16, "<H"),
          ("cols", 18, "<H"), ("rule", 20, "<B"), ("encoding", 21, "<B"), ("goal", 22, "<B"),
          ("k", 23, "<B"), ("param", 24, "<I"), ("entries", 28, "<Q"), ("saturated", 36, "<Q"))
SATURATED = (36, 44)  # bytes of the one field that is not part of what a table is


@cache
def original(pattern: Pattern, encoding: str, param: int) -> tuple[bytes, store.Header,
                                                                      np.ndarray]:
    """The bytes of a saved table, its header and its payload."""
    table = build(pattern, RULE).table
    got = enc.encode(table, pattern.k, pattern.n, pattern.manhattan_rows(), encoding, param)
    header = store.header_for(pattern, RULE, got)
    with tempfile.TemporaryDirectory() as folder:
        path = store.save(Path(folder) / "t.pdb", header, got.payload)
        return path.read_bytes(), header, got.payload.copy()


def with_crc(data: bytearray) -> bytes:
    """The bytes with their checksum recomputed, as a careful forger would."""
    body = bytes(data[:-4])
    return body + struct.pack("<I", zlib.crc32(body))


@st.composite
def damaged(draw: st.DrawFn) -> tuple[Pattern, str, int, bytes, bool]:
    """(pattern, encoding, param, damaged bytes, checksum recomputed)."""
    pattern = draw(st.sampled_from(PATTERNS))
    encoding, param = draw(st.sampled_from(ENCODINGS))
    data = bytearray(original(pattern, encoding, param)[0])
    kind = draw(st.sampled_from(["flip", "truncate", "extend", "field", "field", "field", "tile"]))
    recomputed = False
    if kind == "flip":  # distinct bytes: two flips of one byte could cancel
        for at in draw(st.sets(st.integers(0, len(data) - 1), min_size=1, max_size=8)):
            data[at] ^= draw(st.integers(1, 255))
    elif kind == "truncate":
        data = data[:draw(st.integers(0, len(data) - 1))]
    elif kind == "extend":
        data += draw(st.binary(min_size=1, max_size=64))
    else:
        if kind == "field":
            _, offset, fmt = draw(st.sampled_from(FIELDS))
            width = struct.calcsize(fmt)
            old = struct.unpack_from(fmt, data, offset)[0]
            new = draw(st.one_of(st.integers(0, 8), st.integers(0, 256 ** width - 1),
                                 st.sampled_from([old + 1, old - 1, old * 2]))
                       .filter(lambda v, o=old, w=width: v != o and 0 <= v < 256 ** w))
            struct.pack_into(fmt, data, offset, new)
        else:
            at = 44 + draw(st.integers(0, pattern.k - 1))
            data[at] = draw(st.integers(0, 255).filter(lambda v, o=data[at]: v != o))
        recomputed = draw(st.booleans())
        if recomputed:
            data = bytearray(with_crc(data))
    assert bytes(data) != original(pattern, encoding, param)[0]
    return pattern, encoding, param, bytes(data), recomputed


def only_saturated_differs(a: bytes, b: bytes) -> bool:
    return len(a) == len(b) and all(x == y for i, (x, y) in enumerate(zip(a, b, strict=True))
                                    if not SATURATED[0] <= i < SATURATED[1]
                                    and i < len(a) - 4)


def check_refused(folder: Path, case: tuple[Pattern, str, int, bytes, bool]) -> None:
    pattern, encoding, param, data, recomputed = case
    pristine, header, payload = original(pattern, encoding, param)
    path = folder / "damaged.pdb"
    path.write_bytes(data)
    try:
        got_header, got = store.load(path, header)
    except store.PDBFileError as exc:
        assert str(path) in str(exc)
    else:  # accepted: the table asked for, byte for byte (the saturation count aside)
        assert recomputed and only_saturated_differs(data, pristine), "a damaged file accepted"
        assert got_header.key() == header.key() and np.array_equal(got, payload)
    try:  # without a table to compare with: only a file whose checksum holds can pass
        got_header, got = store.load(path)
        store.describe(path)
    except store.PDBFileError as exc:
        assert str(path) in str(exc)
    else:
        assert recomputed
        assert got.size == got_header.payload_bytes
        assert got_header.entries == got_header.pattern.size


def check_rebuilt(case: tuple[Pattern, str, int, bytes, bool], byte_file_too: bool) -> None:
    pattern, encoding, param, data, _ = case
    pristine, header, payload = original(pattern, encoding, param)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        target = folder / store.file_name(pattern, RULE, encoding, param)
        byte_path = folder / store.file_name(pattern, RULE, "byte")
        byte_bytes = original(pattern, "byte", 0)[0]
        byte_path.write_bytes(data[::-1] if byte_file_too else byte_bytes)
        target.write_bytes(data)
        try:
            store.load(target, header)
            refused = False
        except store.PDBFileError:
            refused = True
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            got, source = store.cached(pattern, RULE, encoding, param, cache=folder)
        assert np.array_equal(got.payload, payload)
        if refused:
            said = [str(w.message) for w in caught]
            assert any("refused, rebuilding" in m and str(target) in m for m in said), said
            assert source in ("encoded from bytes", "built")
        _, again = store.load(target, header)
        assert np.array_equal(again, payload)


def _run(test, chosen: settings) -> None:
    chosen(test)()


@pytest.mark.parametrize("chosen", [pytest.param(FAST, id="fast"),
                                    pytest.param(LONG, id="long", marks=pytest.mark.slow)])
def test_damaged_files_are_refused_naming_the_file(chosen: settings, tmp_path: Path) -> None:
    @given(damaged())
    def example(case: tuple[Pattern, str, int, bytes, bool]) -> None:
        check_refused(tmp_path, case)

    _run(example, chosen)


@pytest.mark.parametrize("chosen", [pytest.param(settings(FAST, max_examples=60), id="fast"),
                                    pytest.param(LONG, id="long", marks=pytest.mark.slow)])
def test_the_cache_warns_and_rebuilds_the_same_table(chosen: settings) -> None:
    @given(damaged(), st.booleans())
    def example(case: tuple[Pattern, str, int, bytes, bool], byte_file_too: bool) -> None:
        check_rebuilt(case, byte_file_too)

    _run(example, chosen)


# --- the bugs the fuzzing found ------------------------------------------------------------------


@pytest.mark.parametrize("offset, fmt, value, says", [
    (24, "<I", 0, "encoding parameter 0"),       # minnibble group 0: was ZeroDivisionError
    (24, "<I", 3, "a power of 2"),                # not a group minnibble has
])
def test_a_bad_minnibble_group_is_refused(offset: int, fmt: str, value: int, says: str,
                                          tmp_path: Path) -> None:
    data = bytearray(original(PATTERNS[0], "minnibble", 4)[0])
    struct.pack_into(fmt, data, offset, value)
    path = tmp_path / "t.pdb"
    path.write_bytes(with_crc(data))
    with pytest.raises(store.PDBFileError, match=says):
        store.load(path)


def test_a_parameter_on_another_encoding_and_unsorted_tiles_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "t.pdb"
    data = bytearray(original(PATTERNS[0], "nibble", 0)[0])
    struct.pack_into("<I", data, 24, 8)
    path.write_bytes(with_crc(data))
    with pytest.raises(store.PDBFileError, match="encoding parameter 8 for nibble"):
        store.load(path)
    data = bytearray(original(PATTERNS[0], "nibble", 0)[0])
    data[44], data[45] = data[45], data[44]  # tiles 2,1,3,4: not the rank order
    path.write_bytes(with_crc(data))
    with pytest.raises(store.PDBFileError, match="not in rank order"):
        store.load(path)
