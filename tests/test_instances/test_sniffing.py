"""A file's family is told from its head: ``head_text`` and the sniffers of the families that
share a suffix (Sudoku collections and Korf's lists are both ``.txt``), on files far bigger
than the head."""

from __future__ import annotations

import pytest

from bench.plan.specs import family_of_file
from instances.common import SNIFF_BYTES, InstanceError, head_text
from instances.latin.formats import sniff as latin_sniff
from instances.sudoku.formats import read_file as read_sudoku
from instances.sudoku.formats import sniff as sudoku_sniff
from instances.tiles.formats import sniff as tiles_sniff

PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
KORF_LINE = "1 57 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"


def test_a_small_file_is_read_whole(tmp_path):
    path = tmp_path / "small.txt"
    path.write_text("a\nb")
    assert head_text(path) == ("a\nb", True)


def test_a_big_file_gives_its_whole_lines_within_the_limit(tmp_path):
    path = tmp_path / "big.txt"
    path.write_text("".join(f"{i:09d}\n" for i in range(100)))  # 10 bytes a line
    text, whole = head_text(path, limit=35)
    assert (text, whole) == ("000000000\n000000001\n000000002\n", False)
    path.write_bytes(b"x" * 30 + b"\r" + b"y" * 30)  # a lone CR ends a line too
    assert head_text(path, limit=35) == ("x" * 30 + "\r", False)
    path.write_text("z" * 100 + "\n")  # no line ends within the limit: the whole file
    assert head_text(path, limit=35) == ("z" * 100 + "\n", True)


def test_a_head_that_is_not_utf8_is_refused_naming_the_file(tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes(b"caf\xe9\n" * 10)
    with pytest.raises(InstanceError, match="latin1.txt"):
        head_text(path)


def test_a_big_sudoku_collection_is_told_from_its_head(tmp_path):
    path = tmp_path / "many.txt"
    lines = [PUZZLE] * (3 * SNIFF_BYTES // 82)
    lines[-1] = "not a puzzle"  # past the head: the reader names it, the sniffer never sees it
    path.write_text("\n".join(lines) + "\n")
    assert sudoku_sniff(path) and not tiles_sniff(path)
    assert family_of_file(path) == "sudoku"
    with pytest.raises(InstanceError, match=f":{len(lines)}:"):
        read_sudoku(path)


def test_korf_lines_behind_a_long_comment_are_still_tiles(tmp_path):
    path = tmp_path / "korf.txt"
    comment = "# " + "x" * 78 + "\n"
    path.write_text(comment * (2 * SNIFF_BYTES // len(comment)) + KORF_LINE + "\n")
    assert tiles_sniff(path) and not sudoku_sniff(path)
    assert family_of_file(path) == "tiles"


def test_a_long_comment_before_puzzles_is_not_tiles(tmp_path):
    path = tmp_path / "puzzles.txt"
    comment = "# " + "x" * 78 + "\n"
    path.write_text(comment * (2 * SNIFF_BYTES // len(comment)) + PUZZLE + "\n")
    assert not tiles_sniff(path)
    assert family_of_file(path) == "sudoku"


def test_a_latin_square_behind_a_long_comment_is_still_latin(tmp_path):
    path = tmp_path / "square.pls"
    comment = "# " + "x" * 78 + "\n"
    path.write_text(comment * (2 * SNIFF_BYTES // len(comment)) + "order 2\n1 .\n. .\n")
    assert latin_sniff(path)
    path.write_text(comment * (2 * SNIFF_BYTES // len(comment)) + "size 2 2\n")
    assert not latin_sniff(path)


def test_the_sniffers_do_not_read_past_the_head(tmp_path):
    """Bytes that do not decode, past the head: the family is told all the same (its reader
    then names the file), which reading the whole file to sniff it could not do."""
    path = tmp_path / "cut.txt"
    head = (PUZZLE + "\n") * (2 * SNIFF_BYTES // 82)
    path.write_bytes(head.encode() + b"\xff\xfe\n")
    assert family_of_file(path) == "sudoku"
    with pytest.raises(InstanceError, match="cut.txt.*decode"):
        read_sudoku(path)
