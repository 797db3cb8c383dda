"""The quotient diagnostics of the notebook's section 12: its numbers, and the generalised module
against an independent brute force (pure Python, dictionaries, the notebook's own formulas) on
other boards and other group splits."""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from math import comb, log2

import numpy as np
import pytest

from searches.support.tiles_quotient import (
    World,
    conditional_mutual_information,
    fibre_mutual_information,
    group_commutation,
    occupancy,
    placements,
    policy_move,
    report,
    sub_config,
)


@pytest.fixture(scope="module")
def notebook() -> dict:
    return report()


# --- the notebook's numbers -------------------------------------------------------------------


def test_the_notebook_entropies_and_chain_rule(notebook: dict) -> None:
    assert notebook["states"] == 60480
    assert round(notebook["H(X)"], 4) == 15.8842
    assert notebook["S_B fibres"] == 84 == comb(9, 3)
    assert notebook["S_B fibre sizes"] == [720]
    assert round(notebook["H(S_B)"], 4) == 6.3923
    assert round(notebook["H(X|S_B)"], 4) == 9.4919
    assert abs(notebook["chain rule residual S_B"]) < 1e-9
    assert notebook["Q' fibres"] == 10
    assert notebook["Q' fibre sizes"] == [19440] + [6480] * 6 + [720] * 3
    assert round(notebook["H(Q')"], 4) == 2.8262
    assert abs(notebook["chain rule residual Q'"]) < 1e-9


def test_the_notebook_witness(notebook: dict) -> None:
    assert round(notebook["H(X_A)"], 4) == round(notebook["H(X_B)"], 4) == 8.9773
    assert round(notebook["I(X_A;X_B)"], 6) == 2.070389
    assert abs(notebook["I(X_A;X_B|S_B)"]) < 1e-9
    assert round(notebook["I(X_A;X_B|Q')"], 6) == 1.582975
    # data processing: the coarser quotient explains less
    assert notebook["I(X_A;X_B)"] >= notebook["I(X_A;X_B|Q')"] >= notebook["I(X_A;X_B|S_B)"]


def test_the_notebook_commutation(notebook: dict) -> None:
    assert notebook["S_B commuting fibres"] == 80
    assert notebook["S_B states in non-commuting fibres"] == 2880
    assert [3, 4, 5] in notebook["S_B non-commuting fibres"]
    assert notebook["S_B most successors"] == ([3, 4, 5], 7)
    assert notebook["group Z_9 -> Z_3 commuting pairs"] == 81


def test_conditional_information_is_the_mean_over_fibres() -> None:
    world = World()
    states = world.states()
    a = sub_config(states, world.group_a, world.ncells)
    b = sub_config(states, world.group_b, world.ncells)
    q = occupancy(states, world.group_a)  # the other group's occupancy: also a common quotient
    _, sizes, info = fibre_mutual_information(a, b, q)
    mean = float((sizes * info).sum() / sizes.sum())
    assert mean == pytest.approx(conditional_mutual_information(a, b, q), abs=1e-9)
    assert abs(mean) < 1e-9


def test_swapping_the_groups_keeps_the_information_and_breaks_the_commutation() -> None:
    # mu prefers low tiles: with B the low tiles, every move of B changes S_B somewhere.
    swapped = report(World(group_a=(3, 4, 5), group_b=(0, 1, 2)))
    assert round(swapped["I(X_A;X_B)"], 6) == 2.070389
    assert swapped["S_B commuting fibres"] == 0


# --- the generalisation against an independent brute force ------------------------------------


def h(counter: Counter) -> float:
    total = sum(counter.values())
    return -sum(v / total * log2(v / total) for v in counter.values())


def mi(pairs: list) -> float:
    return h(Counter(p[0] for p in pairs)) + h(Counter(p[1] for p in pairs)) - h(Counter(pairs))


def notebook_move(s: tuple, rows: int, cols: int) -> tuple:
    """mu: the lowest tile with a free neighbour moves to its lowest free neighbour."""
    cells = range(rows * cols)
    free = set(cells) - set(s)
    for i, c in enumerate(s):
        near = [d for d in cells if abs(d // cols - c // cols) + abs(d % cols - c % cols) == 1]
        targets = sorted(d for d in near if d in free)
        if targets:
            return s[:i] + (targets[0],) + s[i + 1 :]
    return s


def brute_force(rows: int, cols: int, n_tiles: int, group_a: tuple, group_b: tuple) -> dict:
    """The notebook's section re-done with tuples and dictionaries, fibre by fibre."""
    states = list(itertools.permutations(range(rows * cols), n_tiles))

    def s_b(s):
        return frozenset(s[i] for i in group_b)

    def q_p(s):
        return tuple(sum(1 for i in group_b if s[i] // cols == r) for r in range(rows))

    def move(s):
        return notebook_move(s, rows, cols)

    def split(s):
        return tuple(s[i] for i in group_a), tuple(s[i] for i in group_b)

    def cmi(quotient):
        fibres = defaultdict(list)
        for s in states:
            fibres[quotient(s)].append(split(s))
        return sum(len(f) / len(states) * mi(f) for f in fibres.values())

    successors = defaultdict(set)
    for s in states:
        successors[s_b(s)].add(s_b(move(s)))
    return {
        "states": len(states),
        "H(S_B)": h(Counter(map(s_b, states))),
        "H(Q')": h(Counter(map(q_p, states))),
        "I(X_A;X_B)": mi([split(s) for s in states]),
        "I(X_A;X_B|S_B)": cmi(s_b),
        "I(X_A;X_B|Q')": cmi(q_p),
        "S_B commuting fibres": sum(len(v) == 1 for v in successors.values()),
    }


@pytest.mark.parametrize(
    ("rows", "cols", "n_tiles", "group_a", "group_b"),
    [
        (2, 3, 4, (0, 2), (1, 3)),  # interleaved groups
        (2, 3, 4, (3,), (0, 1)),  # a tile in neither group; B are the low tiles
        (3, 2, 3, (0,), (1, 2)),  # tall board
        (2, 2, 2, (1,), (0,)),
        (2, 4, 5, (0, 1, 2), (3, 4)),
        (3, 3, 4, (2, 3), (0, 1)),
    ],
)
def test_generalisation_matches_brute_force(rows, cols, n_tiles, group_a, group_b) -> None:
    got = report(World(rows, cols, n_tiles, group_a, group_b))
    want = brute_force(rows, cols, n_tiles, group_a, group_b)
    assert got["states"] == want["states"]
    assert got["S_B commuting fibres"] == want["S_B commuting fibres"]
    for key in ("H(S_B)", "H(Q')", "I(X_A;X_B)", "I(X_A;X_B|S_B)", "I(X_A;X_B|Q')"):
        assert got[key] == pytest.approx(want[key], abs=1e-9), key
    assert abs(got["chain rule residual S_B"]) < 1e-9
    assert abs(got["chain rule residual Q'"]) < 1e-9


@pytest.mark.parametrize(("rows", "cols", "n_tiles"), [(3, 3, 6), (2, 3, 4), (3, 2, 5), (2, 2, 4)])
def test_policy_move_is_the_notebook_move(rows: int, cols: int, n_tiles: int) -> None:
    world = World(rows, cols, n_tiles, (0,), (1,))
    states = world.states()
    want = [notebook_move(tuple(map(int, s)), rows, cols) for s in states]
    assert (policy_move(states, world) == np.array(want)).all()


def test_the_brute_force_reproduces_the_notebook_commutation() -> None:
    # Independent of the NumPy move: 80/84 also by the tuple-and-dict count on the 3x3 world.
    assert brute_force(3, 3, 6, (0, 1, 2), (3, 4, 5))["S_B commuting fibres"] == 80


def test_small_boards_differ_from_the_notebook() -> None:
    # A wrong generalisation that kept 3x3 constants would not move these numbers.
    small = report(World(2, 3, 4, (0, 2), (1, 3)))
    assert small["states"] == 360
    assert small["S_B fibres"] == comb(6, 2)
    assert small["I(X_A;X_B)"] != pytest.approx(2.070389, abs=1e-3)


@pytest.mark.parametrize(("n", "k"), [(1, 1), (4, 2), (6, 3), (9, 6), (5, 5)])
def test_placements_are_itertools_permutations(n: int, k: int) -> None:
    assert (placements(n, k) == np.array(list(itertools.permutations(range(n), k)))).all()


def test_group_control_fails_when_d_does_not_divide_n() -> None:
    assert group_commutation(9, 3) == 81
    pairs = sum((x + t) % 9 % 4 == (x % 4 + t) % 4 for x in range(9) for t in range(9))
    assert group_commutation(9, 4) == pairs < 81


def test_world_rejects_bad_groups() -> None:
    with pytest.raises(ValueError):
        World(group_a=(0, 1), group_b=(1, 2))
    with pytest.raises(ValueError):
        World(n_tiles=10)
