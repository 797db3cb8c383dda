"""The Latin-square family: its files, its checker, the Jacobson-Matthews chain (and how it
mixes), the qwh and qcp generators and what qcp knows about its squares."""

from __future__ import annotations

import itertools
import json
import math
import random
import re
import time
from collections import Counter

import pytest

import instances
from bench.plan.specs import family_of_file, resolve_one
from instances.common import InstanceError
from instances.latin import (
    FAMILY,
    GENERATORS,
    HOLE,
    Instance,
    Solution,
    check,
    read_file,
    read_solution,
    render,
    sniff,
    write_file,
)
from instances.latin.chain import cyclic_square, random_square
from instances.latin.completion import evans_completable, forward_check
from instances.latin.formats import format_pls, parse_pls
from instances.latin.patterns import balanced_cells

QWH, QCP = GENERATORS["qwh"], GENERATORS["qcp"]

#: A partial square of order 5 as lsencode writes it (four columns a number, -1 a hole).
PLS = """order 5
   0   1  -1   3  -1
  -1   4   1   2   0
   2  -1   4   0   1
   1   0  -1   4  -1
  -1   2   0   1   3
"""
#: Its completion.
FILLED = (0, 1, 2, 3, 4,
          3, 4, 1, 2, 0,
          2, 3, 4, 0, 1,
          1, 0, 3, 4, 2,
          4, 2, 0, 1, 3)


def is_latin(order: int, cells: tuple[int, ...] | list[int]) -> bool:
    return all(sorted(cells[r * order:(r + 1) * order]) == list(range(order))
               for r in range(order)) and all(
        sorted(cells[c::order]) == list(range(order)) for c in range(order))


def completions(order: int, cells: list[int], limit: int = 1) -> int:
    """How many completions a partial square has (up to ``limit``), by plain backtracking."""
    cells = list(cells)
    try:
        hole = cells.index(HOLE)
    except ValueError:
        return 1 if is_latin(order, cells) else 0
    r, c = divmod(hole, order)
    used = set(cells[r * order:(r + 1) * order]) | set(cells[c::order])
    found = 0
    for symbol in range(order):
        if symbol not in used:
            cells[hole] = symbol
            found += completions(order, cells, limit - found)
            if found >= limit:
                break
    cells[hole] = HOLE
    return found


def all_squares(order: int) -> list[tuple[int, ...]]:
    """Every Latin square of ``order``, row-major."""
    rows = list(itertools.permutations(range(order)))
    out: list[tuple[int, ...]] = []

    def extend(square: list[tuple[int, ...]]) -> None:
        if len(square) == order:
            out.append(tuple(v for row in square for v in row))
            return
        for row in rows:
            if all(row[c] != other[c] for other in square for c in range(order)):
                extend([*square, row])

    extend([])
    return out


# --- files -------------------------------------------------------------------------------------


def test_the_family_is_declared_through_its_entry_point_only():
    assert "latin" in instances.family_names()
    assert instances.family("latin") is FAMILY


def test_lsencodes_square_parses(tmp_path):
    path = tmp_path / "qwh-5.pls"
    path.write_text(PLS)
    (got,) = read_file(path)
    square = got.instance
    assert square.order == 5 and square.holes == 7 and square.name == "qwh-5"
    assert square.cells[:5] == (0, 1, HOLE, 3, HOLE)
    assert got.secret is None and got.feasible is None
    assert got.params == {"order": 5, "holes": 7, "fraction": 7 / 25}
    assert format_pls(square) == PLS  # written back byte for byte
    assert family_of_file(path) == "latin"


def test_the_example_completes():
    instance, _ = parse_pls(PLS)
    assert is_latin(5, FILLED)
    assert check(instance, Solution(5, FILLED)).solved


@pytest.mark.parametrize("suffix", [".pls", ".json"])
def test_files_round_trip_with_their_secret(tmp_path, suffix):
    made = QWH({"order": 7, "fraction": 0.5}, 3)
    path = tmp_path / f"square{suffix}"
    write_file(path, made.instance, made.secret)
    (back,) = read_file(path)
    assert back.instance.instance_id == made.instance.instance_id
    assert back.secret == made.secret and back.feasible is True
    assert sniff(path)
    plain = tmp_path / f"plain{suffix}"
    write_file(plain, made.instance)
    (bare,) = read_file(plain)
    assert bare.instance.cells == made.instance.cells and bare.secret is None
    assert resolve_one(str(path)).instance_id == made.instance.instance_id


def test_the_pls_file_writes_the_secret_as_comments_lsencode_skips(tmp_path):
    made = QWH({"order": 4, "holes": 5}, 1)
    path = tmp_path / "s.pls"
    write_file(path, made.instance, made.secret)
    lines = path.read_text().splitlines()
    assert lines[0] == "order 4" and lines[5] == "# solution"
    assert all(len(line) == 16 for line in lines[1:5])  # four columns a number
    assert [int(v) for line in lines[6:] for v in line[1:].split()] == list(made.secret.cells)


def test_json_form_is_sniffed_by_its_family(tmp_path):
    made = QWH({"order": 4}, 1)
    path = tmp_path / "s.json"
    write_file(path, made.instance)
    data = json.loads(path.read_text())
    assert data["family"] == "latin" and Instance.from_json(data) == made.instance
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"family": "sudoku", "cells": []}))
    assert sniff(path) and not sniff(other)
    with pytest.raises(InstanceError, match="not a latin square"):
        read_file(other)


def test_a_full_square_file_is_its_own_secret(tmp_path):
    path = tmp_path / "full.pls"
    path.write_text(format_pls(Instance(5, FILLED)))
    (got,) = read_file(path)
    assert got.feasible is True and got.secret == Solution(5, FILLED)


BAD_PLS = [  # (text, a part of the message, the line it names or None)
    ("", "no 'order N' line", None),
    ("# only a comment\n", "no 'order N' line", None),
    ("order five\n", "'five' is not an integer", 1),
    ("size 3\n0 1 2\n", "starts with 'order N'", 1),
    ("order 0\n", "outside 1..200", 1),
    ("order 201\n", "outside 1..200", 1),
    ("order 3\n0 1 2\n1 x! 0\n2 0 1\n", "'x!' is not an integer", 3),
    ("order 3\n0 1 2\n1 2\n", "has 3 symbols, this line 2", 3),
    ("order 3\n0 1 2\n1 3 0\n", "symbol 3 is outside -1..2", 3),
    ("order 3\n0 1 2\n1 2 0\n2 0 1\n0 1 2\n", "this is one more", 5),
    ("order 3\n0 1 2\n1 2 0\n", "the file 2", None),
    ("order 3\n0 1 1\n-1 -1 -1\n-1 -1 -1\n", "symbol 1 twice in row 0", 2),
    ("order 3\n0 1 2\n# note\n0 -1 -1\n-1 -1 -1\n", "twice in column 0 (rows 0 and 1)", 4),
    ("order 2\n0 -1\n# solution\n-1 0\n", "before the square's 2 rows", 3),
    ("order 2\n0 -1\n-1 0\n# solution\n# 0 1\n", "the solution has 1 of its 2 rows", 4),
    ("order 2\n0 -1\n-1 0\n# solution\n# 1 0\n# 0 1\n", "does not complete the square", 4),
    ("order 2\n0 -1\n-1 0\n# solution\n# 0 1\n# 1 -1\n", "outside 0..1", 6),
    ("order 2\n0 -1\n-1 0\n# solution\n# 0 1\n# 1 0\n# solution\n", "a second '# solution'",
     7),
    ("order 3\n0 1 ٣\n", "'٣' is not an integer", 2),
    ("order 3\n0 1 " + "9" * 5000 + "\n", "is not an integer", 2),
]


@pytest.mark.parametrize("text, says, line", BAD_PLS, ids=range(len(BAD_PLS)))
def test_a_malformed_pls_names_its_line(tmp_path, text, says, line):
    path = tmp_path / "bad.pls"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InstanceError) as caught:
        read_file(path)
    assert says in str(caught.value)
    assert str(caught.value).startswith(f"{path}:{line}: " if line else f"{path}: ")


BAD_JSON = [
    ('{"family": "latin", "order": 2,\n "cells": [0, 1, 1, x]}', "not valid JSON", 2),
    ('{"family": "latin", "order": 2.0, "cells": [0, 1, 1, 0]}', "order 2.0 is not", None),
    ('{"family": "latin", "order": 2, "cells": [0, 1, 1, true]}', "True is not", None),
    ('{"family": "latin", "order": 2, "cells": [0, 1, 1]}', "3 cells", None),
    ('{"family": "latin", "order": 2, "cells": [0, 0, -1, -1]}', "twice in row 0", None),
    ('{"family": "latin", "order": 2, "cells": [0, -1, -1, 0], "name": 3}', "name", None),
    ('{"family": "latin", "order": 2, "cells": [0, -1, -1, 0], "solution": {"cells": '
     '[0, 1, 0, 1]}}', "does not complete", None),
    ('[1, 2]', "not a latin square", None),
    ('{"a": ' * 100_000, "nested too deeply", None),
]


@pytest.mark.parametrize("text, says, line", BAD_JSON, ids=range(len(BAD_JSON)))
def test_a_malformed_json_square_is_refused(tmp_path, text, says, line):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(InstanceError) as caught:
        read_file(path)
    assert says in str(caught.value)
    assert str(caught.value).startswith(f"{path}:{line}: " if line else f"{path}: ")


def test_solutions_read_from_pls_and_from_solve_json(tmp_path):
    instance, _ = parse_pls(PLS)
    square = tmp_path / "answer.pls"
    square.write_text(format_pls(Instance(5, FILLED)))
    assert read_solution(square, instance) == Solution(5, FILLED)
    printed = tmp_path / "solve.json"
    printed.write_text(json.dumps({"status": "solved", "solution": {"order": 5,
                                                                    "cells": list(FILLED)}}))
    assert read_solution(printed, instance) == Solution(5, FILLED)
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps({"cells": list(FILLED)}))  # the order comes from the instance
    assert read_solution(bare, instance) == Solution(5, FILLED)
    with_block = tmp_path / "with.pls"
    write_file(with_block, instance, Solution(5, FILLED))
    assert read_solution(with_block, instance) == Solution(5, FILLED)


def test_a_wrong_answer_is_read_for_the_checker_to_judge(tmp_path):
    instance, _ = parse_pls(PLS)
    path = tmp_path / "wrong.pls"
    path.write_text("order 5\n" + "   0   0   0   0   0\n" * 5)
    answer = read_solution(path, instance)
    assert not check(instance, answer).legal


@pytest.mark.parametrize("text, says", [
    ('{"status": "unknown", "solution": null}', "no solution"),
    ('{"solution": {"order": 5, "cells": "01234"}}', "a latin solution is"),
    ('{"solution": {"order": [5], "cells": [0]}}', "order [5] is not a whole number"),
    ('{"solution": {"order": 5, "cells": [1.5]}}', "cell value 1.5"),
])
def test_a_malformed_answer_is_refused(tmp_path, text, says):
    instance, _ = parse_pls(PLS)
    path = tmp_path / "answer.json"
    path.write_text(text)
    with pytest.raises(InstanceError, match=re.escape(says)) as caught:
        read_solution(path, instance)
    assert str(caught.value).startswith(f"{path}: ")


def test_render_shows_holes_as_dots():
    instance, _ = parse_pls(PLS)
    assert render(instance).splitlines()[0] == "0 1 . 3 ."
    assert render(instance, Solution(5, FILLED)).splitlines()[0] == "0 1 2 3 4"
    wide = QWH({"order": 12, "holes": 144}, 1).instance
    assert render(wide).splitlines()[0] == " ".join([" ."] * 12)


# --- the checker ---------------------------------------------------------------------------------


def test_the_checker_accepts_a_completion_and_names_each_broken_rule():
    instance, _ = parse_pls(PLS)
    assert check(instance, Solution(5, FILLED)).solved
    cells = list(FILLED)
    cells[0], cells[1] = cells[1], cells[0]  # a given cell changed
    assert "given cell (0, 0) = 0 became 1" in check(instance, Solution(5, tuple(cells))).reason
    row = list(FILLED)
    row[2], row[4] = 4, 4  # row 0: 0 1 4 3 4
    verdict = check(instance, Solution(5, tuple(row)))
    assert not verdict.legal and "row 0 holds symbol 4 twice" in verdict.reason
    swapped = list(FILLED)
    swapped[5], swapped[6] = FILLED[6], FILLED[5]  # row 1 stays a permutation, column 0 not
    verdict = check(Instance(5, (HOLE,) * 25), Solution(5, tuple(swapped)))
    assert not verdict.legal and "column 0 holds symbol 4 twice" in verdict.reason
    partial = list(FILLED)
    partial[2] = HOLE
    verdict = check(instance, Solution(5, tuple(partial)))
    assert verdict.legal and not verdict.solved and "1 cells left empty" in verdict.reason
    assert "order 4" in check(instance, Solution(4, tuple(range(4)) * 4)).reason
    assert "not a latin solution" in check(instance, FILLED).reason


def test_solutions_refuse_what_is_not_one():
    with pytest.raises(InstanceError):
        Solution(5, FILLED[:-1])
    with pytest.raises(InstanceError):
        Solution.from_json({"order": 5, "cells": list(FILLED[:-1])})
    with pytest.raises(InstanceError):
        Solution.from_json({"order": True, "cells": [0]})
    assert Solution.from_json(Solution(5, FILLED).to_json()) == Solution(5, FILLED)


# --- the chain -----------------------------------------------------------------------------------


def chi_square(counts: Counter, support: list[tuple[int, ...]], samples: int) -> float:
    expected = samples / len(support)
    assert set(counts) <= set(support), "the chain made something that is no Latin square"
    return sum((counts.get(s, 0) - expected) ** 2 / expected for s in support)


def chi_square_bound(freedom: int, z: float = 3.719) -> float:
    """The chi-square quantile a statistic of ``freedom`` degrees exceeds with probability
    about 1e-4 (Wilson and Hilferty's cube-root normal approximation, ``z`` the normal
    quantile)."""
    k = 2 / (9 * freedom)
    return freedom * (1 - k + z * math.sqrt(k)) ** 3


@pytest.mark.parametrize("order, samples", [(3, 2400), (4, 5760)])
def test_the_chain_samples_latin_squares_uniformly(order, samples):
    """Independent chains (``n**2`` proper visits each, as ``qwh`` makes by default) against
    the exact uniform distribution over all 12 (order 3) or 576 (order 4) squares; the same
    test refuses chains stopped at their first proper visit, still near the cyclic start."""
    support = all_squares(order)
    assert len(support) == {3: 12, 4: 576}[order]
    rng = random.Random(20250101 + order)
    mixed = Counter(tuple(random_square(order, order**2, rng)) for _ in range(samples))
    bound = chi_square_bound(len(support) - 1)
    assert chi_square(mixed, support, samples) < bound
    short = Counter(tuple(random_square(order, 1, rng)) for _ in range(samples))
    assert chi_square(short, support, samples) > bound


def intercalates(order: int, cells: list[int]) -> int:
    """The 2 x 2 Latin subsquares (rows r1 < r2, columns c1 < c2)."""
    count = 0
    for r1, r2 in itertools.combinations(range(order), 2):
        a, b = cells[r1 * order:(r1 + 1) * order], cells[r2 * order:(r2 + 1) * order]
        for c1, c2 in itertools.combinations(range(order), 2):
            count += a[c1] == b[c2] and a[c2] == b[c1]
    return count


def test_n_squared_visits_reach_the_intercalate_count_of_longer_runs():
    """Order 11: the cyclic start has no intercalate, a uniform square about n**2 / 4. The mean
    count after n**2 proper visits matches that after 4 n**2 (within four standard errors),
    while after the first visit it is still far below."""
    n, samples = 11, 120
    rng = random.Random(7)
    assert intercalates(n, cyclic_square(n)) == 0

    def stats(visits: int) -> tuple[float, float]:
        counts = [intercalates(n, random_square(n, visits, rng)) for _ in range(samples)]
        mean = sum(counts) / samples
        return mean, sum((c - mean) ** 2 for c in counts) / (samples - 1) / samples

    (short, v_short), (mixed, v_mixed), (long, v_long) = (stats(v) for v in
                                                           (1, n**2, 4 * n**2))
    assert abs(mixed - long) < 4 * math.sqrt(v_mixed + v_long)
    assert long - short > 4 * math.sqrt(v_short + v_long)


def test_the_chain_is_fast_enough_for_order_30():
    rng = random.Random(1)
    start = time.perf_counter()
    square = random_square(30, 30**2, rng)
    assert time.perf_counter() - start < 2.0  # well under a second on an idle machine
    assert is_latin(30, square)


# --- qwh -----------------------------------------------------------------------------------------


def test_qwh_is_deterministic_and_planted():
    first, again = QWH({"order": 9, "fraction": 0.4}, 5), QWH({"order": 9, "fraction": 0.4}, 5)
    assert first.instance == again.instance and first.secret == again.secret
    assert QWH({"order": 9, "fraction": 0.4}, 6).instance != first.instance
    assert first.feasible is True and is_latin(9, first.secret.cells)
    assert check(first.instance, first.secret).solved
    assert first.instance.holes == 32 == first.params["holes"]  # 0.4 * 81 = 32.4
    assert first.params == {"order": 9, "holes": 32, "fraction": 0.4, "pattern": "random",
                            "mix": 81}


@pytest.mark.parametrize("params, holes", [
    ({"order": 10, "holes": 0}, 0), ({"order": 10, "holes": 100}, 100),
    ({"order": 10}, 42), ({"order": 10, "fraction": 0.345}, 35), ({"order": 2, "holes": 3}, 3),
])
def test_qwh_punches_the_holes_asked(params, holes):
    made = QWH(params, 1)
    assert made.instance.holes == holes == made.params["holes"]
    assert check(made.instance, made.secret).solved


def test_the_same_seed_keeps_the_square_across_hole_counts():
    """The square is drawn before the holes: a ladder of hole counts empties one square."""
    squares = {QWH({"order": 8, "holes": h}, 4).secret for h in (10, 20, 30)}
    assert len(squares) == 1


@pytest.mark.parametrize("order, holes", [(10, 42), (12, 61), (20, 168), (30, 378)])
def test_balanced_holes_spread_evenly(order, holes):
    made = QWH({"order": order, "holes": holes, "pattern": "balanced"}, 2)
    empty = [v == HOLE for v in made.instance.cells]
    rows = [sum(empty[r * order:(r + 1) * order]) for r in range(order)]
    cols = [sum(empty[c::order]) for c in range(order)]
    share = holes // order  # every line gets it, give or take one
    assert sum(rows) == sum(cols) == holes
    assert set(rows + cols) <= {share - 1, share, share + 1}
    uniform = QWH({"order": order, "holes": holes}, 2).instance.cells
    spread = [sum(v == HOLE for v in uniform[r * order:(r + 1) * order]) for r in range(order)]
    assert max(spread) - min(spread) > 2  # what a uniform set of cells looks like


def test_the_first_balanced_round_is_a_permutation_matrix():
    cells = balanced_cells(9, 9, random.Random(3))
    assert sorted(c // 9 for c in cells) == list(range(9))
    assert sorted(c % 9 for c in cells) == list(range(9))


@pytest.mark.parametrize("params, says", [
    ({"order": 1}, "order=1 is too small"),
    ({"order": 201}, "order=201 is too large"),
    ({"fraction": 1.5}, "fraction=1.5 is too large"),
    ({"fraction": -0.1}, "fraction=-0.1 is negative"),
    ({"holes": 101}, "holes=101 is too large"),
    ({"holes": 5, "fraction": 0.5}, "not both"),
    ({"pattern": "diagonal"}, "pattern='diagonal' is not one of them"),
    ({"mix": -1}, "mix=-1 is negative"),
    ({"colours": 3}, "has no parameter 'colours'"),
])
def test_qwh_refuses_bad_parameters(params, says):
    with pytest.raises(InstanceError, match=says):
        QWH(params, 1)


def test_the_generation_times_stay_small():
    start = time.perf_counter()
    QWH({"order": 30, "fraction": 0.42, "pattern": "balanced"}, 1)
    assert time.perf_counter() - start < 3.0


# --- qcp -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("pattern", ["random", "balanced"])
def test_qcp_squares_are_partial_latin_squares(pattern):
    for seed in range(1, 21):
        made = QCP({"order": 8, "fraction": 0.55, "pattern": pattern}, seed)
        assert made.instance.holes == 35 == made.params["holes"]
        assert made.params["known_by"] == ("forward-check" if made.feasible is not None else "")
        assert (made.feasible is False) == (forward_check(8, list(made.instance.cells)) is None)
        assert QCP({"order": 8, "fraction": 0.55, "pattern": pattern}, seed) == made


def test_what_qcp_knows_is_true():
    """Every claim about many small squares, against plain backtracking: a completion where the
    generator says feasible, none where it says infeasible."""
    known = Counter()
    for seed in range(1, 120):
        for fraction in (0.4, 0.5, 0.6):
            made = QCP({"order": 6, "fraction": fraction}, seed)
            cells = list(made.instance.cells)
            known[made.feasible, made.params["known_by"]] += 1
            if made.feasible is not None:
                assert completions(6, cells) == int(made.feasible)
            if made.secret is not None:
                assert check(made.instance, made.secret).solved
    assert set(known) == {(True, "forward-check"), (False, "forward-check"), (None, "")}


def test_qcp_with_few_given_cells_is_feasible_by_evans_bound():
    made = QCP({"order": 9, "holes": 81 - 8}, 3)
    assert made.feasible is True and made.params["known_by"] == "evans"
    assert evans_completable(9, list(made.instance.cells))
    assert not evans_completable(9, list(QCP({"order": 9, "holes": 81 - 9}, 3).instance.cells))
    full = QCP({"order": 5, "holes": 0}, 3)
    assert full.feasible is True and full.secret.cells == full.instance.cells


def test_forward_checking_sees_a_symbol_with_no_place():
    """Row 0 lacks 0, 1 and 2, and the columns of its three holes hold 0 below: each hole
    keeps two options, so only the test of the lines (where lsencode's check looks for
    nothing) finds that 0 has no place."""
    H = HOLE
    cells = [H, H, H, 3, 4,
             0, H, H, H, H,
             H, 0, H, H, H,
             H, H, 0, H, H,
             H, H, H, H, H]
    assert forward_check(5, cells) is None and completions(5, cells) == 0
    assert forward_check(5, [H] * 25) == [H] * 25


def test_forward_checking_completes_what_singletons_force():
    instance, _ = parse_pls(PLS)
    assert forward_check(5, list(instance.cells)) == list(FILLED)


def test_qcp_gives_up_with_a_clear_error_when_no_attempt_passes():
    with pytest.raises(InstanceError, match="none of 200 attempts"):
        QCP({"order": 12, "holes": 2}, 1)


def test_the_examples_cover_a_known_infeasible_square():
    feasible = [resolve_one(spec).generated.feasible for spec in FAMILY.examples]
    assert False in feasible and True in feasible
