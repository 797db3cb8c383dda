"""The Sudoku family: formats, the checker, the planted generator, file sniffing."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.plan.specs import family_of_file, resolve, resolve_one
from instances.common import InstanceError
from instances.sudoku import (
    GENERATORS,
    Instance,
    Solution,
    check,
    parse_line,
    parse_text,
    read_file,
    read_solution,
    render,
    write_file,
)
from instances.sudoku.reference import count_solutions

from helpers import cliffbench

PLANTED = GENERATORS["planted"]
#: Norvig's first example, as his essay draws it.
DRAWN = """
4 . . |. . . |8 . 5
. 3 . |. . . |. . .
. . . |7 . . |. . .
------+------+------
. 2 . |. . . |. 6 .
. . . |. 8 . |4 . .
. . . |. 1 . |. . .
------+------+------
. . . |6 . 3 |. 7 .
5 . . |2 . . |. . .
1 . 4 |. . . |. . .
"""
NORVIG_LINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def test_a_drawn_grid_reads_as_its_line():
    (drawn,) = parse_text(DRAWN)
    assert drawn.grid == parse_line(NORVIG_LINE).grid
    assert drawn.to_line() == NORVIG_LINE
    assert drawn.clues == 17 and drawn.size == 9


@pytest.mark.parametrize("box", [2, 3, 4, 5])
def test_lines_round_trip_for_every_box(box):
    solution = PLANTED({"box": box, "clues": box**4}, 3).secret
    line = solution.to_line()
    assert len(line) == box**4
    assert parse_line(line).grid == solution.grid
    assert Solution.from_line(line) == solution


def test_zero_is_a_blank_and_the_seed_4x4_reads():
    puzzle = parse_line("1004041001404001")
    assert puzzle.box == 2 and puzzle.grid[:4] == (1, 0, 0, 4)


@pytest.mark.parametrize("line, words", [
    ("4" * 80, "80"),
    ("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4.....A",
     "'A' at position 81"),
])
def test_a_bad_line_says_what_is_wrong(line, words):
    with pytest.raises(InstanceError, match=words):
        parse_line(line)


def test_a_bad_line_in_a_file_names_the_file_and_line(tmp_path):
    path = tmp_path / "set.txt"
    path.write_text(f"# three puzzles\n{NORVIG_LINE}\n{NORVIG_LINE}\n{NORVIG_LINE[:-1]}x\n")
    with pytest.raises(InstanceError) as info:
        read_file(path)
    assert f"{path}:4:" in str(info.value) and "'x'" in str(info.value)


def test_a_drawn_grid_with_too_few_cells_is_refused(tmp_path):
    path = tmp_path / "grid.sdk"
    path.write_text(DRAWN.replace("1 . 4 |", ""))
    with pytest.raises(InstanceError, match="78 grid symbols"):
        read_file(path)


def test_write_then_read_keeps_the_planted_secret(tmp_path):
    gen = PLANTED({"box": 3, "clues": 28}, 5)
    path = tmp_path / "p.sdk"
    write_file(path, gen.instance, gen.secret)
    (back,) = read_file(path)
    assert back.instance.instance_id == gen.instance.instance_id
    assert back.secret == gen.secret and back.feasible is True
    assert read_solution(path, gen.instance) == Solution(3, gen.instance.grid)


def test_read_solution_takes_the_json_that_solve_prints(tmp_path):
    gen = PLANTED({"box": 2, "clues": 6}, 1)
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"solution": {"box": 2, "grid": gen.secret.to_line()}}))
    assert read_solution(path, gen.instance) == gen.secret


def test_the_instance_id_ignores_the_name_and_survives_json():
    puzzle = parse_line(NORVIG_LINE, "a")
    again = Instance.from_json(puzzle.to_json())
    assert again == puzzle
    assert parse_line(NORVIG_LINE, "b").instance_id == puzzle.instance_id


@pytest.mark.parametrize("box", [2, 3, 4, 5])
def test_the_instance_id_is_the_hash_of_the_canonical_json(box):
    from instances.common import instance_hash

    puzzle = PLANTED({"box": box, "clues": box**4 - box**3}, 4).instance
    assert puzzle.instance_id == instance_hash(puzzle.to_json())
    assert Instance.from_json(puzzle.to_json()).instance_id == puzzle.instance_id


# -- the checker --------------------------------------------------------------------------------

def planted_pair(seed=1):
    gen = PLANTED({"box": 3, "clues": 30}, seed)
    return gen.instance, list(gen.secret.grid)


def test_the_checker_accepts_the_planted_solution():
    puzzle, grid = planted_pair()
    assert check(puzzle, Solution(3, tuple(grid))).solved


def test_the_checker_names_a_changed_clue():
    puzzle, grid = planted_pair()
    cell = next(c for c, v in enumerate(puzzle.grid) if v)
    grid[cell] = grid[cell] % 9 + 1
    verdict = check(puzzle, Solution(3, tuple(grid)))
    assert not verdict.legal and "clue" in verdict.reason


@pytest.mark.parametrize("a, b, unit", [(0, 1, "row 1"), (0, 9, "column 1"), (0, 10, "box 1")])
def test_the_checker_names_a_repeated_digit(a, b, unit):
    blank = Instance(3, (0,) * 81)
    grid = [0] * 81
    grid[a] = grid[b] = 7
    verdict = check(blank, Solution(3, tuple(grid)))
    assert not verdict.legal and verdict.reason == f"digit 7 twice in {unit}"


def test_a_swap_of_two_digits_in_a_row_is_caught():
    puzzle, grid = Instance(3, (0,) * 81), planted_pair()[1]
    grid[0], grid[1] = grid[1], grid[0]   # rows stay permutations, columns do not
    assert not check(puzzle, Solution(3, tuple(grid))).legal


def test_a_partial_grid_is_legal_not_solved():
    puzzle, grid = planted_pair()
    blanks = [c for c, v in enumerate(puzzle.grid) if not v][:3]
    for c in blanks:
        grid[c] = 0
    verdict = check(puzzle, Solution(3, tuple(grid)))
    assert verdict.legal and not verdict.solved and "3 cells" in verdict.reason


def test_a_grid_of_another_size_is_illegal():
    puzzle, _ = planted_pair()
    assert not check(puzzle, PLANTED({"box": 2, "clues": 16}, 1).secret).legal


# -- the generator ------------------------------------------------------------------------------

def test_planted_is_deterministic_and_unique():
    a, b = PLANTED({"box": 3, "clues": 26}, 7), PLANTED({"box": 3, "clues": 26}, 7)
    assert a.instance == b.instance and a.secret == b.secret
    assert PLANTED({"box": 3, "clues": 26}, 8).instance != a.instance
    assert count_solutions(a.instance.grid, 3).solutions == 1
    assert a.known_solutions == 1 and a.feasible
    assert a.params["clues_reached"] == a.instance.clues == 26


def test_one_seed_gives_nested_puzzles_down_the_clue_ladder():
    grids = [PLANTED({"box": 3, "clues": k}, 2).instance.grid for k in (36, 30, 24)]
    for more, fewer in zip(grids, grids[1:], strict=False):
        assert all(f == 0 or f == m for m, f in zip(more, fewer, strict=True))
        assert sum(map(bool, fewer)) < sum(map(bool, more))


def test_a_target_below_the_minimum_stops_at_a_minimal_puzzle():
    gen = PLANTED({"box": 2, "clues": 0}, 1)
    reached = gen.params["clues_reached"]
    assert reached == gen.instance.clues > 0
    grid = list(gen.instance.grid)
    for cell in (c for c, v in enumerate(grid) if v):   # no clue can go
        kept, grid[cell] = grid[cell], 0
        assert count_solutions(grid, 2).solutions == 2
        grid[cell] = kept


def test_min_guesses_selects_harder_puzzles():
    gen = PLANTED({"box": 3, "clues": 24, "min_guesses": 12}, 1)
    assert gen.params["guesses"] >= 12
    assert count_solutions(gen.instance.grid, 3).guesses == gen.params["guesses"]


@pytest.mark.parametrize("params, words", [({"box": 6}, "box=6"), ({"clues": 99}, "clues=99"),
                                           ({"min_guesses": -1}, "negative")])
def test_bad_generator_parameters_are_named(params, words):
    with pytest.raises(InstanceError, match=words):
        PLANTED(params, 1)


def test_the_render_draws_boxes():
    text = render(parse_line(NORVIG_LINE))
    assert text.splitlines()[0] == " 4 . . | . . . | 8 . 5"
    assert text.count("+") == 4


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="0123456789.ABCDEFGxyz |-+#\n", max_size=700))
def test_any_text_parses_or_raises_instance_error(text):
    try:
        puzzles = parse_text(text)
    except InstanceError:
        return
    assert all(p.box in (2, 3, 4, 5) for p in puzzles)


# -- files in the harness -----------------------------------------------------------------------

def test_txt_files_are_sniffed_as_sudoku(tmp_path):
    path = tmp_path / "mine.txt"
    path.write_text(NORVIG_LINE + "\n" + NORVIG_LINE + "\n")
    assert family_of_file(path) == "sudoku"
    assert [r.source for r in resolve(str(path))] == [f"{path}:1", f"{path}:2"]


def test_generator_specs_expand():
    refs = resolve("sudoku/planted:clues=30|28,seed=1..2")
    assert len(refs) == 4 and {r.family for r in refs} == {"sudoku"}
    assert resolve_one("sudoku/planted:clues=28,seed=2").generated.params["clues_reached"] == 28


def test_gen_and_verify_on_the_command_line(tmp_path):
    cliffbench("gen", "sudoku/planted:box=2,clues=6,seed=4", "--out", str(tmp_path), check=True)
    (path,) = tmp_path.glob("*.sdk")
    proc = cliffbench("verify", str(path), str(path))
    assert "status   legal" in proc.stdout   # the puzzle's own clues as an answer: not solved
    assert proc.returncode == 1
    assert cliffbench("verify", str(path), str(path), "--partial").returncode == 0
    solution = tmp_path / "answer.txt"
    solution.write_text(read_file(path)[0].secret.to_line() + "\n")
    proc = cliffbench("verify", str(path), str(solution), check=True)
    assert "status   solved" in proc.stdout


def test_a_file_range_names_consecutive_puzzles(tmp_path):
    path = tmp_path / "set.txt"
    path.write_text("\n".join(PLANTED({"box": 2, "clues": 8}, s).instance.to_line()
                              for s in range(1, 6)) + "\n")
    refs = resolve(f"{path}:2..4")
    assert [r.source for r in refs] == [f"{path}:2", f"{path}:3", f"{path}:4"]
    with pytest.raises(InstanceError, match="asks for instance 4..6, the file has 5"):
        resolve(f"{path}:4..6")
    with pytest.raises(InstanceError, match="empty"):
        resolve(f"{path}:3..2")


@pytest.mark.parametrize("box", [2, 3, 4, 5])
def test_many_grids_read_and_write_as_one_at_a_time(box):
    """``grid_rows`` and ``answer_texts`` (many grids at C speed) agree with the grid tuples
    and with ``json.dumps(Solution.to_json())``; a line read as it is written is kept, one
    with ``0`` blanks or lower-case symbols is not (``to_line`` gives the canonical text)."""
    from instances.sudoku.model import answer_texts, grid_rows

    made = [PLANTED({"box": box, "clues": box**4 - box**3}, seed) for seed in (1, 2)]
    puzzles = [Instance.from_json(m.instance.to_json()) for m in made]
    secrets = [m.secret for m in made]
    assert grid_rows(puzzles).tolist() == [list(p.grid) for p in puzzles]
    assert answer_texts(box, grid_rows(secrets)) == [
        json.dumps(s.to_json(), separators=(",", ":")) for s in secrets]
    line = puzzles[0].to_line()
    sloppy = line.replace(".", "0").lower()
    assert Instance.from_line(sloppy, box).to_line() == line
    assert Instance.from_line(sloppy, box).grid == puzzles[0].grid


@pytest.mark.parametrize("box", [2, 3, 4])
def test_a_file_of_bare_lines_reads_as_line_by_line(tmp_path, box):
    """A file whose lines are all canonical grids is read at once (``canonical_lines``): the
    same puzzles, names and ids as one line at a time; a sloppy line (``0`` blanks, lower
    case) or a bad symbol sends the file the slow way, which reads it or names the line."""
    from instances.sudoku.formats import parse_line, parse_with_solutions

    lines = [PLANTED({"box": box, "clues": box**4 // 2}, seed).instance.to_line()
             for seed in (1, 2, 3)]
    for text in ("\n".join(lines) + "\n", "\n".join(lines[:2] + [lines[2].replace(".", "0")])):
        got = [puzzle for puzzle, _ in parse_with_solutions(text, "set.txt")]
        want = [parse_line(line, f"set#{i}") for i, line in enumerate(text.split(), 1)]
        assert [(p.box, p.grid, p.name, p.to_line(), p.instance_id) for p in got] == \
            [(p.box, p.grid, p.name, p.to_line(), p.instance_id) for p in want]
    with pytest.raises(InstanceError, match="set.txt:3: symbol .x. at position 1"):
        parse_with_solutions("\n".join(lines[:2] + ["x" + lines[2][1:]]), "set.txt")


@pytest.mark.parametrize("box", [2, 3])
def test_a_file_of_bare_lines_gets_the_ids_of_its_puzzles(tmp_path, box):
    """``read_file`` of canonical lines hashes them together: each puzzle's id is the hash of
    its canonical JSON, as one read alone has it."""
    from instances.common import instance_hash
    from instances.sudoku.formats import read_file

    lines = [PLANTED({"box": box, "clues": box**4 // 2}, seed).instance.to_line()
             for seed in (1, 2, 3)]
    (tmp_path / "set.txt").write_text("\n".join(lines) + "\n")
    got = [g.instance for g in read_file(tmp_path / "set.txt")]
    assert [p.instance_id for p in got] == [instance_hash(p.to_json()) for p in got]
    assert [p.instance_id for p in got] == [Instance.from_line(line, box).instance_id
                                            for line in lines]


def test_a_blocks_instances_read_together_as_one_at_a_time():
    """``to_json_many`` then ``from_json_many`` (a block's instances, parent to worker, through
    JSON) gives what ``from_json`` of each one's ``to_json`` gives: for one box side or
    several, for lines not in canonical form, and a malformed one is named as ``from_line``
    names it."""
    made = [PLANTED({"box": box, "clues": box**4 // 2}, seed).instance
            for box in (2, 3) for seed in (1, 2)]
    sloppy = {"box": 3, "grids": [made[3].to_line().replace(".", "0")], "names": ["s"]}
    parts = [made[:2], made[2:], made]
    cases = [Instance.to_json_many(part) for part in parts]
    assert "each" in cases[2] and "grids" in cases[0]
    parts.append([Instance.from_line(sloppy["grids"][0], 3, "s")])
    for data, want in zip([*cases, sloppy], parts, strict=True):
        got = Instance.from_json_many(json.loads(json.dumps(data)))
        want = [Instance.from_json(json.loads(json.dumps(p.to_json()))) for p in want]
        assert [(p.box, p.grid, p.name, p.to_line(), p.instance_id) for p in got] == \
            [(p.box, p.grid, p.name, p.to_line(), p.instance_id) for p in want]
    with pytest.raises(InstanceError, match="position 1"):
        Instance.from_json_many({"box": 3, "grids": ["x" + made[3].to_line()[1:]],
                                 "names": ["bad"]})




def test_a_blocks_canonical_lines_read_as_a_sequence_of_their_puzzles():
    """Canonical lines of one box side read back as ``PuzzleLines``: its items, slices and
    iteration are the puzzles ``from_json`` makes one at a time, and ``grid_rows`` reads its
    lines as it reads the puzzles."""
    from instances.sudoku.model import PuzzleLines, grid_rows

    made = [PLANTED({"box": 3, "clues": clues}, seed).instance
            for clues in (17, 30) for seed in (1, 2, 3)]
    got = Instance.from_json_many(json.loads(json.dumps(Instance.to_json_many(made))))
    assert type(got) is PuzzleLines and got.box == 3 and len(got) == 6

    def seen(puzzles):
        return [(p.box, p.grid, p.name, p.to_line(), p.instance_id) for p in puzzles]

    assert seen(got) == seen(made) == seen([got[i] for i in range(6)])
    assert seen(got[1:4]) == seen(made[1:4]) and type(got[1:4]) is PuzzleLines
    assert seen([got[-1]]) == seen(made[-1:])
    assert (grid_rows(got[2:]) == grid_rows(made[2:])).all()
    with pytest.raises(IndexError):
        got[6]
    with pytest.raises(InstanceError):  # a grid not a text: read one at a time, refused
        Instance.from_json_many({"box": 3, "grids": [made[0].to_line(), 7], "names": ["a", "b"]})
    one = Instance.from_json_many({"box": 3, "grids": [made[0].to_line()], "names": [5]})
    assert type(one) is list and one[0].name == "5"  # a name not a text: its text, as from_line
