"""The sliding-tile family: goals, solvability, Korf's lists, the notebook's scramble, the
checker, and how the harness judges a length against a known optimum."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from bench.execute.classify import judge
from bench.plan.specs import family_of_file, resolve
from instances.common import Generated, InstanceError
from instances.tiles import (
    GENERATORS,
    Instance,
    Solution,
    apply_moves,
    check,
    goal_state,
    read_file,
    read_solution,
    render,
    solvable,
    write_file,
)

from helpers import cliffbench

SCRAMBLE, RANDOM = GENERATORS["scramble"], GENERATORS["random"]
#: The notebook's demo instance: scramble(GOAL, 100, seed=11), blank last.
DEMO = (7, 12, 11, 2, 10, 0, 4, 6, 9, 3, 5, 8, 13, 15, 1, 14)


def test_the_two_goal_conventions():
    assert goal_state(3, 3, "blank-first") == (0, 1, 2, 3, 4, 5, 6, 7, 8)
    assert goal_state(3, 3, "blank-last") == (1, 2, 3, 4, 5, 6, 7, 8, 0)


def test_the_notebook_scramble_is_reproduced_exactly():
    gen = SCRAMBLE({"steps": 100}, 11)
    assert gen.instance.tiles == DEMO and gen.instance.goal == "blank-last"
    assert check(gen.instance, gen.secret).solved and len(gen.secret) == 100


@pytest.mark.parametrize("rows, cols", [(2, 2), (3, 3), (3, 4), (4, 4), (5, 5)])
def test_a_swap_of_two_tiles_is_unsolvable_and_scrambles_are_solvable(rows, cols):
    for seed in range(5):
        state = list(SCRAMBLE({"rows": rows, "cols": cols, "steps": 30}, seed).instance.tiles)
        assert solvable(tuple(state), rows, cols, "blank-last")
        a, b = state.index(1), state.index(2)
        state[a], state[b] = state[b], state[a]
        assert not solvable(tuple(state), rows, cols, "blank-last")


def test_solvability_counts_half_of_the_2x2_states():
    import itertools
    states = list(itertools.permutations(range(4)))
    assert sum(solvable(s, 2, 2, "blank-first") for s in states) == 12


def test_random_is_deterministic_solvable_and_varied():
    a, b = RANDOM({"rows": 4, "cols": 4}, 5), RANDOM({"rows": 4, "cols": 4}, 5)
    assert a.instance == b.instance and a.instance.solvable
    assert len({RANDOM({}, s).instance.tiles for s in range(20)}) == 20


def test_the_checker_replays_the_moves():
    instance = Instance(3, 3, (1, 2, 3, 4, 5, 6, 7, 0, 8), "blank-last")
    assert check(instance, Solution("R")).solved and check(instance, Solution("R")).score == 1
    assert check(instance, Solution("LRR")).score == 3
    off = check(instance, Solution("DR"))
    assert not off.legal and "move 1 (D)" in off.reason
    short = check(instance, Solution(""))
    assert short.legal and not short.solved and "2 cells differ" in short.reason
    assert apply_moves(instance, "RL")[0] == instance.tiles


def test_a_bad_board_or_move_is_refused():
    with pytest.raises(InstanceError, match="each of 0..8 once"):
        Instance(3, 3, (1, 1, 3, 4, 5, 6, 7, 0, 8))
    with pytest.raises(InstanceError, match="'X'"):
        Solution("UX")


def test_korf_lines_read_with_optimum_and_a_bad_line_names_its_place(tmp_path):
    path = tmp_path / "k.txt"
    path.write_text("# two\n1 57 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3\n"
                    "2 - 1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n")
    first, second = read_file(path)
    assert first.known_optimum == 57 and first.instance.rows == 4
    assert first.instance.goal == "blank-first" and second.known_optimum is None
    path.write_text("1 57 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3\n1 2 3\n")
    with pytest.raises(InstanceError) as info:
        read_file(path)
    assert f"{path}:2:" in str(info.value) and "3 numbers" in str(info.value)


def test_a_rectangle_needs_its_size_line(tmp_path):
    path = tmp_path / "r.tiles"
    path.write_text("size 3 4\ngoal blank-last\n1 2 3 4 5 6 7 8 9 10 11 0\n")
    (gen,) = read_file(path)
    assert (gen.instance.rows, gen.instance.cols) == (3, 4)
    assert check(gen.instance, Solution("")).solved


def test_write_then_read_keeps_the_walk_back(tmp_path):
    gen = SCRAMBLE({"rows": 3, "cols": 3, "steps": 20}, 2)
    path = tmp_path / "s.tiles"
    write_file(path, gen.instance, gen.secret)
    (back,) = read_file(path)
    assert back.instance.instance_id == gen.instance.instance_id and back.secret == gen.secret
    answer = tmp_path / "moves.txt"
    answer.write_text(gen.secret.moves + "\n")
    assert read_solution(answer, gen.instance) == gen.secret


def test_render_draws_the_board():
    assert render(Instance(3, 3, (1, 2, 3, 4, 5, 6, 7, 0, 8), "blank-last")).splitlines() == [
        "1 2 3", "4 5 6", "7 . 8"]


# -- judging a length ----------------------------------------------------------------------------

def task(generated: Generated):
    return SimpleNamespace(ref=SimpleNamespace(family="tiles", instance=generated.instance,
                                               generated=generated))


def outcome(claimed: str, moves: str, objective=None):
    return {"claimed": claimed, "objective": objective, "solution": {"moves": moves}}


ONE_AWAY = Instance(3, 3, (1, 2, 3, 4, 5, 6, 7, 0, 8), "blank-last")


def test_an_optimal_claim_at_the_known_optimum_stands():
    g = Generated(ONE_AWAY, known_optimum=1.0, feasible=True)
    assert judge(task(g), outcome("optimal", "R", 1))["status"] == "optimal"


def test_an_optimal_claim_longer_than_the_known_optimum_is_wrong():
    g = Generated(ONE_AWAY, known_optimum=1.0, feasible=True)
    out = judge(task(g), outcome("optimal", "LRR", 3))
    assert out["status"] == "wrong" and "known optimum is 1" in out["verdict"]
    assert judge(task(g), outcome("solved", "LRR", 3))["status"] == "solved"


def test_a_solution_shorter_than_the_known_optimum_is_wrong():
    g = Generated(ONE_AWAY, known_optimum=3.0, feasible=True)
    out = judge(task(g), outcome("solved", "R", 1))
    assert out["status"] == "wrong" and "beats the known optimum" in out["verdict"]


def test_a_claimed_length_the_moves_do_not_have_is_wrong():
    g = Generated(ONE_AWAY, feasible=True)
    out = judge(task(g), outcome("optimal", "R", 3))
    assert out["status"] == "wrong" and "checker scores 1" in out["verdict"]


# -- files in the harness ------------------------------------------------------------------------

def test_generator_specs_and_the_gen_command(tmp_path):
    refs = resolve("tiles/scramble:rows=3,cols=3,steps=10|20,seed=1..2")
    assert len(refs) == 4 and {r.family for r in refs} == {"tiles"}
    cliffbench("gen", "tiles/random:rows=3,cols=3,seed=4", "--out", str(tmp_path), check=True)
    (path,) = tmp_path.glob("*.tiles")
    expected = RANDOM({"rows": 3, "cols": 3}, 4).instance
    assert read_file(path)[0].instance.instance_id == expected.instance_id


@pytest.mark.data
def test_korf_lists_read_and_are_told_from_sudoku(shared_data: Path):
    korf = shared_data / "tiles" / "korf100_15puzzle.txt"
    assert family_of_file(korf) == "tiles"
    assert family_of_file(shared_data / "sudoku" / "top95.txt") == "sudoku"
    refs = resolve(str(korf))
    assert len(refs) == 100 and all(r.generated.instance.solvable for r in refs)
    assert [r.generated.known_optimum for r in refs[:3]] == [57, 55, 59]
    twenty_four = read_file(shared_data / "tiles" / "korf50_24puzzle.txt")
    assert len(twenty_four) == 50 and twenty_four[0].instance.rows == 5
