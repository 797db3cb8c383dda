"""Pictures of boards (``bench.views.pictures`` and the families' drawers): every family draws to
SVG and PNG, the SVG holds what the board holds (one group per triangle set, tile, stone, digit,
mismatch marker, counted against the instance and the checker), the same input gives the same
bytes, a family without a picture gets a text card, and a broken picture target is refused."""

from __future__ import annotations

import dataclasses
import io
import json
import re
from pathlib import Path

import matplotlib
import pytest

import instances
from bench.plan.specs import resolve_one
from bench.views.pictures import (
    Picture,
    draw,
    draw_figure,
    figure_bytes,
    show,
)
from instances.drawing import PALETTE, colour_of
from instances.edgematch import Solution as EdgeSolution
from instances.edgematch import check as edge_check
from instances.edgematch.picture import mismatched_joins
from instances.family import _LOADED as LOADED_FAMILIES
from instances.games import Line
from instances.sudoku import Instance as SudokuInstance
from instances.sudoku import Solution as SudokuSolution
from instances.tiles import Instance as TilesInstance
from instances.tiles import Solution as TilesSolution

SVG_NS = "{http://www.w3.org/2000/svg}"


def svg_groups(path: Path, prefix: str) -> list:
    """The SVG groups whose id starts with ``prefix`` (matplotlib writes an artist's gid as the
    id of its group)."""
    import xml.etree.ElementTree as ET

    root = ET.parse(path).getroot()
    return [g for g in root.iter(f"{SVG_NS}g") if g.get("id", "").startswith(prefix)]


def shapes_in(group) -> int:
    """Paths (or uses of a shared path) drawn inside one group."""
    return sum(1 for e in group.iter() if e.tag in (f"{SVG_NS}path", f"{SVG_NS}use"))


def both_formats(tmp_path: Path, name: str, instance, solution=None) -> Path:
    """Draw to PNG and SVG; check both are real files; return the SVG."""
    png = draw(instance, solution, tmp_path / f"{name}.png")
    svg = draw(instance, solution, tmp_path / f"{name}.svg")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 5_000
    assert svg.read_text().lstrip().startswith("<?xml") and svg.stat().st_size > 5_000
    return svg


@pytest.fixture(scope="module")
def planted():
    """A planted 6x6 edge-matching board with 2 hints, and its solution."""
    ref = resolve_one("edgematch/planted:n=6,border=3,inner=5,hints=2,seed=3")
    return ref.instance, ref.generated.secret


def broken(instance, solution):
    """The solution with one interior non-hint piece turned a quarter (so it mismatches its
    neighbours and shows grey inwards nowhere: interior pieces carry no grey) and two cells
    emptied: a legal-looking, partial, mismatched board."""
    hinted = {h.row * instance.cols + h.col for h in instance.hints}
    cells = list(solution.cells)
    turn = next(c for c in (14, 15, 20, 21) if c not in hinted)
    piece, rot = cells[turn]
    cells[turn] = (piece, (rot + 1) % 4)
    empty = [c for c in (7, 28) if c not in hinted and c != turn]
    for c in empty:
        cells[c] = None
    return EdgeSolution(instance.rows, instance.cols, tuple(cells)), turn, empty


def test_edgematch_solved_board(tmp_path, planted):
    instance, solution = planted
    svg = both_formats(tmp_path, "solved", instance, solution)
    (triangles,) = svg_groups(svg, "edgematch-triangles")
    assert shapes_in(triangles) == 4 * instance.ncells
    assert svg_groups(svg, "edgematch-empty") == []
    assert svg_groups(svg, "mismatch-") == []
    assert len(svg_groups(svg, "hint-")) == len(instance.hints) == 2
    assert f"score {instance.max_score}/{instance.max_score}" in svg.read_text()


def test_edgematch_partial_board_has_blanks_and_one_marker_per_mismatch(tmp_path, planted):
    instance, solution = planted
    board, turned, empty = broken(instance, solution)
    verdict = edge_check(instance, board)
    assert verdict.score is not None and not verdict.solved
    # joins between two placed cells, minus the matched ones the checker counts
    placed = [v is not None for v in board.cells]
    cols = instance.cols
    both_placed = sum(placed[c] and placed[c + 1] for c in range(instance.ncells)
                      if c % cols + 1 < cols) + \
        sum(placed[c] and placed[c + cols] for c in range(instance.ncells - cols))
    expected = both_placed - verdict.score
    assert expected > 0
    assert len(mismatched_joins(instance, board)) == expected
    assert all(turned in join for join in mismatched_joins(instance, board))

    svg = both_formats(tmp_path, "partial", instance, board)
    assert len(svg_groups(svg, "mismatch-")) == expected
    (triangles,) = svg_groups(svg, "edgematch-triangles")
    assert shapes_in(triangles) == 4 * (instance.ncells - len(empty))
    (blanks,) = svg_groups(svg, "edgematch-empty")
    assert shapes_in(blanks) == len(empty)
    text = svg.read_text()
    assert f"score {verdict.score}/{instance.max_score}" in text
    assert f"{expected} mismatched" in text
    assert f"{instance.ncells - len(empty)}/{instance.ncells} placed" in text


def test_edgematch_without_solution_is_hints_and_tray(tmp_path, planted):
    instance, _ = planted
    svg = both_formats(tmp_path, "tray", instance)
    (tray,) = svg_groups(svg, "edgematch-tray")
    assert shapes_in(tray) == 4 * len(instance.pieces)
    (placed,) = svg_groups(svg, "edgematch-triangles")
    assert shapes_in(placed) == 4 * len(instance.hints)
    assert len(svg_groups(svg, "tray-hint-")) == len(instance.hints)


def test_eternity2_tray(tmp_path, shared_data):
    ref = resolve_one(str(shared_data / "edgematch" / "eternity2" / "eternity2_5hints.emp"))
    svg = draw(ref.instance, None, tmp_path / "e2.svg")
    (tray,) = svg_groups(svg, "edgematch-tray")
    assert shapes_in(tray) == 4 * 256
    assert len(svg_groups(svg, "hint-")) == 5


def test_sudoku_clues_and_filled_digits(tmp_path):
    ref = resolve_one("sudoku/planted:box=2,clues=6,seed=2")
    instance, solution = ref.instance, ref.generated.secret
    svg = both_formats(tmp_path, "sudoku", instance, solution)
    assert len(svg_groups(svg, "clue-")) == instance.clues == 6
    assert len(svg_groups(svg, "filled-")) == 16 - 6
    assert svg_groups(svg, "sudoku-conflicts") == []
    assert "solved" in svg.read_text()
    start = both_formats(tmp_path, "sudoku-start", instance)
    assert len(svg_groups(start, "clue-")) == 6 and svg_groups(start, "filled-") == []


def test_sudoku_25x25_marks_a_repeated_digit(tmp_path):
    box, size = 5, 25
    full = [(box * (r % box) + r // box + c) % size + 1 for r in range(size) for c in range(size)]
    clues = tuple(v if (i * 7) % 3 == 0 else 0 for i, v in enumerate(full))
    instance = SudokuInstance(box, clues, "pattern")
    wrong = list(full)
    blank_cell = next(i for i in range(size) if not clues[i])
    wrong[blank_cell] = full[blank_cell + 1] if clues[blank_cell + 1] else full[blank_cell - 1]
    svg = draw(instance, SudokuSolution(box, tuple(wrong)), tmp_path / "s25.svg")
    (conflicts,) = svg_groups(svg, "sudoku-conflicts")
    assert shapes_in(conflicts) >= 2  # the digit and the one it repeats
    assert "illegal" in svg.read_text()


def test_tiles_board_after_moves(tmp_path):
    instance = TilesInstance(3, 3, (1, 2, 3, 4, 5, 6, 0, 7, 8), "blank-last", "two-off")
    solution = TilesSolution("RR")
    svg = both_formats(tmp_path, "tiles", instance, solution)
    assert len(svg_groups(svg, "tile-")) == 8
    assert len(svg_groups(svg, "blank")) == 1
    assert "after 2 moves: goal reached" in svg.read_text()
    start = draw(instance, None, tmp_path / "start.svg")
    assert "start" in start.read_text() and len(svg_groups(start, "tile-")) == 8
    illegal = draw(instance, TilesSolution("L"), tmp_path / "illegal.svg")
    assert "after 0 of 1 moves" in illegal.read_text()


def test_connect_four_discs_and_a_win(tmp_path):
    board = resolve_one("games/connect4:moves=3-3-2-4-4-2-5-1-1-5-3-6").instance
    svg = both_formats(tmp_path, "c4", board)
    assert len(svg_groups(svg, "stone-1-")) == 6 and len(svg_groups(svg, "stone-2-")) == 6
    assert len(svg_groups(svg, "hole-")) == 42 - 12
    won = draw(board, Line(1, (6, 0, 6, 0, 6, 1, 6)), tmp_path / "won.svg")
    assert len(svg_groups(won, "winning-")) == 4
    assert "red wins" in won.read_text()
    bad = draw(board, Line(1, (9,)), tmp_path / "bad.svg")
    assert "not legal" in bad.read_text() and len(svg_groups(bad, "stone-")) == 12


def test_tictactoe_and_tree_card(tmp_path):
    board = resolve_one("games/tictactoe:moves=4-0-2").instance
    svg = both_formats(tmp_path, "ttt", board, Line(0, (6, 3, 5, 1, 7, 8)))
    assert len(svg_groups(svg, "stone-1-")) == 5 and len(svg_groups(svg, "stone-2-")) == 4
    assert "draw" in svg.read_text()
    tree = resolve_one("games/tree:depth=2,arity=2").instance
    card = both_formats(tmp_path, "tree", tree)
    assert "depth 2, arity 2" in card.read_text()


def test_same_input_same_bytes(tmp_path, planted):
    instance, solution = planted
    board, _, _ = broken(instance, solution)
    for suffix in ("svg", "png"):
        first = draw(instance, board, tmp_path / f"a.{suffix}").read_bytes()
        second = draw(instance, board, tmp_path / f"b.{suffix}").read_bytes()
        assert first == second
    svg = (tmp_path / "a.svg").read_text()
    assert "<dc:date>" not in svg and "Matplotlib v" not in svg
    assert b"Software" not in (tmp_path / "a.png").read_bytes()
    # a caller saving the figure itself (the HTML report) gets the same bytes as draw
    figure = draw_figure(instance, board)
    assert isinstance(figure, Picture)
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg")
    assert buffer.getvalue().encode() == (tmp_path / "a.svg").read_bytes()
    assert figure_bytes(draw_figure(instance, board), "png") == (tmp_path / "a.png").read_bytes()


def test_style_does_not_leak_and_bad_suffix(tmp_path, planted):
    instance, solution = planted
    before = dict(matplotlib.rcParams)
    draw(instance, solution, tmp_path / "x.svg", title="custom title")
    assert dict(matplotlib.rcParams) == before
    assert "custom title" in (tmp_path / "x.svg").read_text()
    with pytest.raises(ValueError, match="svg or .png"):
        draw(instance, solution, tmp_path / "x.pdf")
    assert not (tmp_path / "x.pdf").exists()
    with matplotlib.rc_context({"font.size": 23, "lines.linewidth": 9, "svg.hashsalt": None}):
        draw(instance, solution, tmp_path / "y.svg", title="custom title")
    assert (tmp_path / "y.svg").read_bytes() == (tmp_path / "x.svg").read_bytes()


def test_show_reads_spec_and_solve_json(tmp_path, planted):
    instance, solution = planted
    spec = "edgematch/planted:n=6,border=3,inner=5,hints=2,seed=3"
    answer = tmp_path / "answer.json"
    answer.write_text(json.dumps({"status": "solved",
                                  "solution": solution.to_json(instance)}))
    out = show(spec, answer, tmp_path / "shown.svg")
    (triangles,) = svg_groups(out, "edgematch-triangles")
    assert shapes_in(triangles) == 4 * 36
    assert instances.family("edgematch").check(instance, solution).solved


def test_palette_is_distinct_and_fixed():
    colours = [colour_of(c) for c in range(0, 60)]
    assert len(set(colours)) == 60
    assert colours[1:23] == list(PALETTE[:22])
    assert all(re.fullmatch(r"#[0-9a-f]{6}", c) for c in colours)


def sudoku_with(monkeypatch, **changes) -> None:
    """The sudoku family with ``changes`` in the loaded-family cache, for one test."""
    changed = dataclasses.replace(instances.family("sudoku"), **changes)
    monkeypatch.setitem(LOADED_FAMILIES, "sudoku", changed)


def test_a_family_without_a_picture_gets_a_text_card(tmp_path, monkeypatch):
    ref = resolve_one("sudoku/planted:box=2,clues=6,seed=2")
    instance, solution = ref.instance, ref.generated.secret
    sudoku_with(monkeypatch, picture=None)
    assert instances.family("sudoku").drawer() is None
    svg = both_formats(tmp_path, "card", instance, solution)
    assert len(svg_groups(svg, "card")) == 1 and svg_groups(svg, "clue-") == []
    text = svg.read_text()
    assert "checked: correct" in text and f"sudoku: {instance.name}" in text
    wrong = SudokuSolution(2, tuple(0 if v else 1 for v in instance.grid))
    assert "checked: correct" not in draw(instance, wrong, tmp_path / "wrong.svg").read_text()
    start = draw(instance, None, tmp_path / "start.svg", title="a title")
    assert len(svg_groups(start, "card")) == 1
    assert "checked" not in start.read_text() and "a title" in start.read_text()


@pytest.mark.parametrize("target", ["instances.sudoku.no_such_module:draw",
                                    "instances.sudoku.picture:no_such_drawer"])
def test_a_broken_picture_target_is_a_family_error_naming_it(tmp_path, monkeypatch, target):
    instance = resolve_one("sudoku/planted:box=2,clues=6,seed=2").instance
    sudoku_with(monkeypatch, picture=target)
    with pytest.raises(instances.FamilyError, match=re.escape(f"sudoku.picture = {target!r}")):
        draw(instance, None, tmp_path / "broken.svg")
    assert not (tmp_path / "broken.svg").exists()
