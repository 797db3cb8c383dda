"""A sweep's workers start while it is planned (bench/execute/early.py), and never at the cost
of what is already there: a bad suite leaves nothing behind, an existing or busy sweep's
folder is not touched."""

from __future__ import annotations

import os

import pytest

import bench
from bench.execute import sweep as sweep_module
from bench.execute.lock import sweep_lock
from bench.execute.slot import Slot
from bench.plan.suite import SuiteError

from helpers import sudoku_ladder_suite


@pytest.fixture
def events(monkeypatch):
    """What happens, in order: ``spawn`` (a worker started, its pid kept) and ``plan`` (the
    sweep planned)."""
    seen: list[tuple[str, int | None]] = []
    spawn, prepare = Slot.spawn, sweep_module.prepare_sweep

    def spawned(self, cores):
        spawn(self, cores)
        seen.append(("spawn", self.proc.pid))

    def planned(*args, **kwargs):
        seen.append(("plan", None))
        return prepare(*args, **kwargs)

    monkeypatch.setattr(Slot, "spawn", spawned)
    monkeypatch.setattr(sweep_module, "prepare_sweep", planned)
    return seen


def suite(tmp_path, extra: str = "") -> str:
    path = tmp_path / "early.toml"
    path.write_text(sudoku_ladder_suite("early", [1, 2, 3, 4], [30], extra=extra))
    return str(path)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie not yet reaped by its parent is gone too
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_the_workers_start_before_the_sweep_is_planned(tmp_path, events):
    folder = sweep_module.run_sweep(suite(tmp_path), results=tmp_path / "r", progress=False)
    assert [kind for kind, _ in events][:2] == ["spawn", "plan"]
    assert [kind for kind, _ in events].count("spawn") == 1  # the same worker ran the sweep
    table = bench.load(folder)
    assert len(table) == 4 and (table["status"] == "solved").all()
    assert (folder / "workers" / "worker0.log").exists()
    assert not any(alive(pid) for kind, pid in events if kind == "spawn")


def test_a_suite_that_fails_its_planning_leaves_nothing_behind(tmp_path, events):
    bad = suite(tmp_path, extra="block = 0")  # the head reads; the ladder does not
    with pytest.raises(SuiteError, match="block"):
        sweep_module.run_sweep(bad, results=tmp_path / "r", progress=False)
    assert [kind for kind, _ in events] == ["spawn", "plan"]
    assert not (tmp_path / "r").exists()
    assert not any(alive(pid) for kind, pid in events if kind == "spawn")
    (tmp_path / "r").mkdir()  # results/ there before: only what the start made goes
    with pytest.raises(SuiteError, match="block"):
        sweep_module.run_sweep(bad, results=tmp_path / "r", progress=False)
    assert list((tmp_path / "r").iterdir()) == []


def test_an_existing_sweep_is_not_touched_before_it_is_refused(tmp_path, events):
    log = tmp_path / "r" / "early" / "workers" / "worker0.log"
    log.parent.mkdir(parents=True)
    log.write_text("the last sweep's log")
    (tmp_path / "r" / "early" / "journal.jsonl").write_text("")
    with pytest.raises(SuiteError, match="already holds a sweep"):
        sweep_module.run_sweep(suite(tmp_path), results=tmp_path / "r", progress=False)
    assert log.read_text() == "the last sweep's log"
    assert "spawn" not in [kind for kind, _ in events]


def test_a_sweep_another_cliffbench_runs_is_not_touched(tmp_path, events):
    log = tmp_path / "r" / "early" / "workers" / "worker0.log"
    log.parent.mkdir(parents=True)
    log.write_text("the running sweep's log")
    with sweep_lock(tmp_path / "r", "early"):
        with pytest.raises(SuiteError, match="being run by another"):
            sweep_module.run_sweep(suite(tmp_path), results=tmp_path / "r", progress=False,
                                   resume=True)
    assert log.read_text() == "the running sweep's log"
    assert not any(alive(pid) for kind, pid in events if kind == "spawn")


def test_overwrite_and_resume_with_workers_started_early(tmp_path, events):
    results = tmp_path / "r"
    first = sweep_module.run_sweep(suite(tmp_path), results=results, progress=False)
    keys = sorted(bench.load(first)["key"])
    journal = first / "journal.jsonl"
    lines = journal.read_text().splitlines()
    journal.write_text(lines[0] + "\n")  # a sweep killed after its first chunk
    events.clear()
    again = sweep_module.run_sweep(suite(tmp_path), results=results, progress=False,
                                   resume=True)
    assert [kind for kind, _ in events][:2] == ["spawn", "plan"]  # resumed: started early
    assert sorted(bench.load(again)["key"]) == keys
    events.clear()
    over = sweep_module.run_sweep(suite(tmp_path), results=results, progress=False,
                                  overwrite=True)
    assert [kind for kind, _ in events][:2] == ["spawn", "plan"]  # overwritten: started early
    assert sorted(bench.load(over)["key"]) == keys
    assert sorted(path.name for path in results.iterdir()) == [".early.lock", "early"]


def test_a_sweep_to_overwrite_is_put_back_when_the_planning_fails(tmp_path, events):
    """``--overwrite`` sets the old sweep aside while the workers start and the sweep is
    planned; a suite that then fails its planning leaves it as it was, and one that plans
    replaces it."""
    results = tmp_path / "r"
    first = sweep_module.run_sweep(suite(tmp_path), results=results, progress=False)
    before = {path.relative_to(first): path.read_bytes() for path in first.rglob("*")
              if path.is_file()}
    events.clear()
    with pytest.raises(SuiteError, match="block"):
        sweep_module.run_sweep(suite(tmp_path, extra="block = 0"), results=results,
                               progress=False, overwrite=True)
    assert [kind for kind, _ in events] == ["spawn", "plan"]  # set aside, then put back
    assert not any(alive(pid) for kind, pid in events if kind == "spawn")
    after = {path.relative_to(first): path.read_bytes() for path in first.rglob("*")
             if path.is_file()}
    assert after == before
    assert sorted(path.name for path in results.iterdir()) == [".early.lock", "early"]
    (first / "runs.parquet").unlink()  # the new sweep's table is its own
    sweep_module.run_sweep(suite(tmp_path), results=results, progress=False, overwrite=True)
    assert (first / "runs.parquet").exists() and len(bench.load(first)) == 4
    assert sorted(path.name for path in results.iterdir()) == [".early.lock", "early"]
