"""Games through the harness: a small sweep of trees, tic-tac-toe (rules and graph), Nim and a
known value, every games solver; the attractor meets only the instances it takes; every row is
checked and the solvers agree; the CLI solves Connect Four from the empty board."""

from __future__ import annotations

import json

import pytest

import bench
from bench.execute.runner import available_cpus
from bench.views.stats import disagreements

from helpers import cliffbench

JOBS = min(2, len(available_cpus()))

SUITE = """
name = "games-test"
timeout = 60
mem = 4000
early_abort = false

[[solver]]
name = "attractor"

[[solver]]
name = "minimax"

[[solver]]
name = "alphabeta"

[[solver]]
name = "alphabeta-ordered"

[[ladder]]
name = "trees"
rungs = [ { label = "d4b4", instances = ["games/tree:depth=4,arity=4,seed=1..3"] } ]

[[ladder]]
name = "games"
rungs = [
  { label = "tictactoe", instances = ["games/tictactoe", "games/tictactoe:form=graph"] },
  { label = "nim", instances = ["games/nim:heaps=1-3-5-7|3-4-5"] },
]
"""


def test_a_games_sweep_checks_every_row_and_pairs_solvers_with_what_they_take(tmp_path):
    suite = tmp_path / "games.toml"
    suite.write_text(SUITE)
    folder = bench.run(str(suite), results=tmp_path / "results", jobs=JOBS, progress=False)
    df = bench.load(folder)
    # 3 trees x 3 searches (no attractor on trees) + 4 games x 4 solvers.
    assert len(df) == 3 * 3 + 4 * 4
    assert set(df.status) == {"optimal"}, df[df.status != "optimal"][["solver", "message"]]
    assert df.verified.all()
    assert not df[(df.solver == "attractor") & (df.ladder == "trees")].shape[0]
    assert disagreements(df).empty
    values = df[df.ladder == "games"].groupby("instance_name").objective.first().to_dict()
    assert values == {"tictactoe": 0, "tictactoe-graph": 0, "nim-1-3-5-7": -1, "nim-3-4-5": 1}
    trees = df[df.ladder == "trees"]
    nodes = trees.groupby("solver").work_nodes.mean()
    assert nodes["minimax"] == 341 and nodes["alphabeta"] < 341


def test_the_cli_solves_connect_four_from_the_empty_board():
    out = cliffbench("solve", "games/connect4:width=4,height=4", "--solver", "alphabeta-ordered",
                     "--json", check=True)
    answer = json.loads(out.stdout)
    assert answer["status"] == "optimal" and answer["verified"] and answer["objective"] == 0
    assert len(answer["solution"]["moves"]) == 16  # a draw fills the board


def test_a_ladder_can_name_the_solvers_that_climb_it(tmp_path):
    from bench.execute.sweep import prepare_sweep
    from bench.plan.suite import SuiteError

    text = SUITE.replace('rungs = [ { label = "d4b4"',
                         'solvers = ["alphabeta", "minimax"]\nrungs = [ { label = "d4b4"')
    suite = tmp_path / "only.toml"
    suite.write_text(text)
    _, tasks = prepare_sweep(str(suite))
    on_trees = {t.config.label for t in tasks if t.ref.ladder == "trees"}
    assert on_trees == {"alphabeta", "minimax"}
    assert {t.config.label for t in tasks if t.ref.ladder == "games"} == {
        "attractor", "minimax", "alphabeta", "alphabeta-ordered"}
    suite.write_text(text.replace('"alphabeta", "minimax"', '"alphabeta", "negamax"'))
    with pytest.raises(SuiteError, match="'negamax', which is not a solver of the suite"):
        prepare_sweep(str(suite))
