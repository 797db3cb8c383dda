"""Adaptive ladders: decisions from finished rows only, the same on a resume; a real sweep."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pandas as pd

from bench.execute.adaptive import FIRST, decide
from bench.execute.runner import LadderScheduler
from bench.execute.sweep import prepare_sweep, run_sweep
from bench.plan.suite import Adaptive

from helpers import FAULTY

SUITE = """
name = "adaptive-test"
timeout = 5
mem = 2000
[[solver]]
name = "dfs-restarts"
[[solver]]
name = "test-noop"
[[ladder]]
name = "grid"
generator = "edgematch/planted"
params = {{ border = 2, inner = 4 }}
vary = "n"
values = [3, 4, 5, 6, 7, 8, 9]
seeds = [1, 2, 3, 4, 5]
adaptive = {{ runs = {runs}, width = {width} }}
"""


def suite_file(tmp_path: Path, runs: int = 14, width: float = 1.0) -> Path:
    path = tmp_path / "adaptive.toml"
    path.write_text(SUITE.format(runs=runs, width=width))
    return path


def outcome(task, cliff: float = 6.0) -> dict:
    """A fake run: solved below ``cliff``, with a little noise fixed by the run's key."""
    noise = random.Random(task.key).random()
    solved = float(task.ref.rung) + noise - 0.5 < cliff
    return {"key": task.key, "status": "solved" if solved else "timeout"}


def drive(tasks, done, adaptive, order: str = "fifo", stop_after: int | None = None):
    """Run the scheduler with fake outcomes: hand out every released task, finish them in
    ``order``; stop after ``stop_after`` finished runs (a kill). Returns the rows made."""
    scheduler = LadderScheduler(tasks, done, 1.0, adaptive)
    rows = []
    while True:
        assert not scheduler.take_skipped()
        batch = []
        while (task := scheduler.next_task()) is not None:
            batch.append(task)
        if not batch:
            assert scheduler.idle()
            return rows, scheduler
        if order == "lifo":
            batch.reverse()
        for task in batch:
            if stop_after is not None and len(rows) >= stop_after:
                return rows, scheduler
            row = outcome(task)
            rows.append(row)
            scheduler.finished(task, row)


def test_decide_starts_at_the_ends_and_the_middle_then_bisects():
    spec = Adaptive(runs=20, width=1.0)
    positions = [3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]
    first = decide(positions, [0] * 7, [0] * 7, [5] * 7, 0, spec, 1)
    assert first.batch == ((0, FIRST), (3, FIRST), (6, FIRST))
    # solved at 3 and 6, failed at 9: the crossing lies between 6 and 9, bisect there
    solved, runs = [2, 0, 0, 2, 0, 0, 0], [2, 0, 0, 2, 0, 0, 2]
    second = decide(positions, solved, runs, [3, 5, 5, 3, 5, 5, 3], 6, spec, 1)
    assert second.batch == ((4, FIRST),)
    # the budget cuts a batch; a spent one stops
    assert decide(positions, [0] * 7, [0] * 7, [5] * 7, 19, spec, 1).batch == ((0, 1),)
    assert decide(positions, solved, runs, [5] * 7, 20, spec, 1).stopped.startswith("budget")


def test_same_outcomes_give_the_same_choices_in_any_order(tmp_path):
    _, tasks = prepare_sweep(str(suite_file(tmp_path)), solvers=["dfs-restarts"],
                             plugins=[FAULTY])
    assert len(tasks) == 35
    rows_a, sched_a = drive(tasks, {}, {"grid": Adaptive(14, 1.0)}, "fifo")
    rows_b, sched_b = drive(tasks, {}, {"grid": Adaptive(14, 1.0)}, "lifo")
    assert sorted(r["key"] for r in rows_a) == sorted(r["key"] for r in rows_b)
    assert len(rows_a) <= 14
    (summary,) = sched_a.adaptive_summary()
    assert summary == sched_b.adaptive_summary()[0]
    assert summary["low"] is not None and summary["low"] <= 6.0 <= summary["high"]
    assert sched_a.planned() == (14, True)


def test_a_resume_in_the_middle_makes_the_same_choices(tmp_path):
    _, tasks = prepare_sweep(str(suite_file(tmp_path)), solvers=["dfs-restarts"],
                             plugins=[FAULTY])
    spec = {"grid": Adaptive(14, 0.5)}
    whole, _ = drive(tasks, {}, spec)
    for cut in (1, 5, 7, len(whole) - 1):
        first, _ = drive(tasks, {}, spec, stop_after=cut)
        done = {r["key"]: r for r in first}
        rest, _ = drive(tasks, done, spec)
        assert not set(done) & {r["key"] for r in rest}
        assert [r["key"] for r in first + rest] == [r["key"] for r in whole]


def test_a_real_adaptive_sweep(tmp_path, faulty):
    """A real sweep: every run an ordinary row, at most the budget per config, an honest
    planned count; its resume runs nothing more."""
    path = suite_file(tmp_path, runs=8, width=10.0)
    out = run_sweep(str(path), results=tmp_path / "results", progress=False, plugins=[faulty])
    table = pd.read_parquet(out / "runs.parquet")
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["runs_planned"] == 16 and manifest["runs_planned_up_to"] is True
    counts = table.groupby("solver").size()
    assert (counts <= 8).all() and len(counts) == 2
    assert "skipped" not in set(table.status)   # the unchosen candidates are no rows
    assert table.key.is_unique
    assert {s["config"] for s in manifest["adaptive"]} == {"dfs-restarts", "test-noop"}
    again = run_sweep(str(path), results=tmp_path / "results", progress=False, resume=True,
                      plugins=[faulty])
    assert len(pd.read_parquet(again / "runs.parquet")) == len(table)


def test_a_falling_ladder_is_fitted_the_way_it_climbs(tmp_path):
    """Values that fall (clues): the cliff is placed on them all the same."""
    path = tmp_path / "falling.toml"
    path.write_text(SUITE.format(runs=14, width=1.0).replace(
        "values = [3, 4, 5, 6, 7, 8, 9]", "values = [9, 8, 7, 6, 5, 4, 3]"))
    _, tasks = prepare_sweep(str(path), solvers=["dfs-restarts"], plugins=[FAULTY])

    def falling(task, cliff: float = 6.0) -> dict:
        noise = random.Random(task.key).random()
        solved = float(task.ref.rung) - noise + 0.5 > cliff
        return {"key": task.key, "status": "solved" if solved else "timeout"}

    scheduler = LadderScheduler(tasks, {}, 1.0, {"grid": Adaptive(14, 1.0)})
    while (batch := list(iter(scheduler.next_task, None))):
        for task in batch:
            scheduler.finished(task, falling(task))
    (summary,) = scheduler.adaptive_summary()
    assert summary["low"] <= 6.0 <= summary["high"] and summary["low"] < summary["high"]
    assert summary["runs"] <= 14


def test_a_narrow_gap_stops_only_once_the_bracketing_rungs_have_enough_runs():
    spec = Adaptive(runs=40, width=1.0)
    positions = [3.0, 4.0, 5.0, 6.0, 7.0]
    # 4 solved on all, 5 on none: the interval is the gap 4..5, one wide; 2 runs each is thin
    thin = decide(positions, [2, 2, 0, 0, 0], [2, 2, 2, 0, 2], [3, 3, 3, 5, 3], 8, spec, 1)
    assert not thin.stopped and thin.batch == ((1, 2), (2, 2))
    enough = decide(positions, [2, 4, 0, 0, 0], [2, 4, 4, 0, 2], [3, 1, 1, 5, 3], 12, spec, 1)
    assert enough.stopped.startswith("interval 1 wide")
