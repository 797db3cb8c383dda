"""A block sent ahead (``Slot.send_ahead``): begun when the current block's result comes, given
back when the worker dies first, and taken from the queue only where it may go ahead."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

import bench
from bench.execute.blocks import Block
from bench.execute.runner import LadderScheduler
from bench.execute.slot import Slot, pipe_size
from bench.execute.sweep import prepare_sweep, run_sweep

from helpers import sudoku_ladder_suite

#: A stand-in worker speaking the slot's protocol: it starts the block it is given, reads the
#: block sent ahead, then either dies (``die``) or ends both blocks in turn.
FAKE_WORKER = r"""
import json, os, sys
inbox, out = os.fdopen(int(sys.argv[1])), os.fdopen(int(sys.argv[2]), "w")
def send(message):
    out.write(json.dumps(message) + "\n")
    out.flush()
first = json.loads(inbox.readline())["task"]
send({"op": "started", "id": first["id"], "t_prepare": 0.25})
ahead = json.loads(inbox.readline())["task"]
if sys.argv[3] == "die":
    os._exit(3)
send({"op": "result", "id": first["id"], "kind": "block", "t_wall": 0.5})
send({"op": "started", "id": ahead["id"], "t_prepare": 0.0})
send({"op": "result", "id": ahead["id"], "kind": "block", "t_wall": 0.75})
inbox.readline()
"""


def fake_slot(tmp_path, mode: str) -> Slot:
    """A slot holding the stand-in worker (no control group: its limits are the tree's)."""
    down_r, down_w = os.pipe()
    up_r, up_w = os.pipe()
    slot = Slot("t", [], [], tmp_path)
    slot.proc = subprocess.Popen([sys.executable, "-c", FAKE_WORKER, str(down_r), str(up_w),
                                  mode], pass_fds=(down_r, up_w))
    os.close(down_r)
    os.close(up_w)
    slot.rfd, slot.wfd, slot.pipe_bytes = up_r, down_w, pipe_size(down_w)
    os.set_blocking(up_r, False)
    return slot


def payload(run_id: int) -> dict:
    return {"id": run_id, "budget_s": 30.0, "mem_mb": 500, "cores": 1,
            "block": {"id": f"b{run_id}", "instances": []}}


def poll_until(slot: Slot, done) -> dict | None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        slot.wait()
        result = slot.poll()
        if done(result):
            return result
    raise AssertionError("the stand-in worker did not answer in 30 s")


def solving(slot: Slot) -> Slot:
    """``slot`` once it has been given block A and the worker said it began it."""
    slot.give("A", payload(1))
    poll_until(slot, lambda result: slot.phase == "solving")
    return slot


def test_a_block_sent_ahead_begins_when_the_current_one_ends(tmp_path):
    slot = fake_slot(tmp_path, "end")
    try:
        assert not slot.send_ahead("B", payload(2))  # nothing solving yet: refused
        assert solving(slot).send_ahead("B", payload(2))
        assert not slot.send_ahead("C", payload(3))  # one ahead at a time
        first = poll_until(slot, lambda result: result is not None)
        assert first["kind"] == "block" and first["t_wall"] == 0.5
        assert slot.task == "B" and slot.payload["id"] == 2 and slot.ahead is None
        assert slot.take_ahead() is None  # it was begun, not given back
        second = poll_until(slot, lambda result: result is not None)
        assert second["kind"] == "block" and second["t_wall"] == 0.75
        assert second["t_prepare"] == 0.0 and slot.task is None and slot.phase == "idle"
    finally:
        slot.stop()


def test_a_block_sent_ahead_to_a_worker_that_dies_is_given_back(tmp_path):
    slot = solving(fake_slot(tmp_path, "die"))
    try:
        assert slot.send_ahead("B", payload(2))
        result = poll_until(slot, lambda result: result is not None)
        assert result["kind"] == "crash" and "exited with code 3" in result["message"]
        assert slot.task is None and slot.take_ahead() == "B"
        assert slot.take_ahead() is None  # given back once
    finally:
        slot.stop()


def test_a_block_too_big_for_the_pipe_is_not_sent_ahead(tmp_path):
    slot = solving(fake_slot(tmp_path, "end"))
    try:
        big = payload(2)
        big["block"]["instances"] = ["x" * 64] * (slot.pipe_bytes // 64 + 1)
        assert not slot.send_ahead("B", big) and slot.ahead is None
    finally:
        slot.kill()




def scheduler_of(tmp_path, seeds: int, block: int) -> LadderScheduler:
    suite = tmp_path / "ahead.toml"
    suite.write_text(sudoku_ladder_suite("ahead", list(range(1, seeds + 1)), [30, 26],
                                         extra=f"block = {block}"))
    _, tasks = prepare_sweep(str(suite))
    return LadderScheduler(tasks, {})


def test_only_the_next_block_of_the_same_stream_goes_ahead(tmp_path):
    scheduler = scheduler_of(tmp_path, 7, 3)
    first = scheduler.next_task()
    assert isinstance(first, Block) and len(first.tasks) == 3
    second = scheduler.next_block_like(first)
    assert isinstance(second, Block) and second.stream == first.stream
    assert second.key != first.key and [t.block_index for t in second.tasks] == [0, 1, 2]
    third = scheduler.next_block_like(second)
    assert len(third.tasks) == 1  # the rung's last, smaller block
    assert scheduler.next_block_like(third) is None  # the next rung is not open yet
    scheduler.requeue(third.tasks)  # given back: it goes out again, first
    again = scheduler.next_task()
    assert [t.key for t in again.tasks] == [t.key for t in third.tasks]


@pytest.mark.parametrize("statuses", [["solved"] * 3, ["solved", "unknown", "timeout"],
                                      ["unknown"] * 3])
def test_a_chunks_runs_counted_together_are_counted_as_each_run(tmp_path, statuses):
    """``finished_block_runs`` leaves the scheduler as ``finished_many`` run by run does: the
    same open runs, tallies, next rung or skipped rungs (an abort at any failure)."""
    schedulers = [scheduler_of(tmp_path, 3, 3) for _ in range(2)]
    for scheduler in schedulers:
        scheduler.abort_fraction = 1 / 3
    blocks = [scheduler.next_task() for scheduler in schedulers]
    schedulers[0].finished_block_runs(blocks[0], blocks[0].tasks, statuses)
    schedulers[1].finished_many(blocks[1].tasks, statuses)
    left, right = schedulers
    assert (left.open, left.tally, left.current) == (right.open, right.tally, right.current)
    assert [[t.key for t in q] for q in left.queue.values()] == \
        [[t.key for t in q] for q in right.queue.values()]
    assert [(t.key, why) for t, why in left.take_skipped()] == \
        [(t.key, why) for t, why in right.take_skipped()]


@pytest.mark.parametrize("block", [40, 7])
def test_a_sweep_with_blocks_sent_ahead_has_each_row_once(tmp_path, block):
    suite = tmp_path / "ahead.toml"
    suite.write_text(sudoku_ladder_suite("ahead", list(range(1, 121)), [30, 26],
                                         extra=f"block = {block}"))
    folder = run_sweep(str(suite), results=tmp_path / "res", progress=False)
    table = bench.load(folder)
    assert len(table) == 240 and table["key"].is_unique
    assert (table["status"] == "solved").all() and table["verified"].all()
    for _, group in table.groupby("rung"):
        assert sorted(group["block_index"].tolist()) == sorted(
            i for size in group.groupby("block")["block_size"].first() for i in range(size))


DYING_PLUGIN = '''
import os
import time

from bench.api import Outcome, solver


def batch(instances, budget, seed):
    """Gives up on each puzzle, but dies (the whole worker) at the one of ``DIE_AT`` clues,
    after a pause in which the runner sends the next block ahead."""
    out = []
    for instance in instances:
        if sum(1 for v in instance.grid if v) == DIE_AT:
            time.sleep(1.0)
            os._exit(9)
        out.append(Outcome("unknown", t_wall=0.0))
    return out


@solver("dies-in-block", family="sudoku", paradigm="native", backend="python", batch=batch)
def one(instance, budget, seed):
    return batch([instance], budget, seed)[0]
'''


def test_a_block_ahead_of_a_worker_that_dies_goes_out_again(tmp_path):
    """Every planned run has exactly one row when the worker dies while a block is ahead: the
    chunk in flight is a ``crash``, the rest of its block and the block sent ahead are solved
    by a fresh worker."""
    from bench.execute import slot as slot_module

    sent = []
    real = slot_module.Slot.send_ahead

    def counted(self, task, payload):
        sent.append(real(self, task, payload))
        return sent[-1]

    plugin = tmp_path / "dying.py"
    plugin.write_text(DYING_PLUGIN.replace("DIE_AT", "27"))
    suite = tmp_path / "dying.toml"
    suite.write_text(sudoku_ladder_suite("ahead", [1, 2, 3, 4, 5, 6], [27], "dies-in-block",
                                         extra="block = 2"))
    monkey = pytest.MonkeyPatch()
    monkey.setattr(slot_module.Slot, "send_ahead", counted)
    try:
        folder = run_sweep(str(suite), results=tmp_path / "res", progress=False,
                           plugins=[str(plugin)])
    finally:
        monkey.undo()
    table = bench.load(folder)
    assert len(table) == 6 and table["key"].is_unique
    assert (table["status"] == "crash").all()  # each puzzle kills its worker in turn
    assert True in sent  # a block did go ahead of a worker that then died
