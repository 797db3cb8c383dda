"""The runner: the order runs are given out, the local executor, and a run's row.

Every run executes in a worker process (bench/execute/worker.py, held by a bench/execute/slot.py
Slot), never in the parent. The parent:

- gives each idle worker the next run the scheduler releases (ladders climb rung by rung per
  solver, so a solver that fails a rung is not sent higher: those runs become ``skipped`` rows),
  preferring runs of solvers no other worker is compiling (a worker that would only wait for
  that compilation runs something else meanwhile);
- passes on what workers say before their runs start (a first run's compilation) to
  ``on_note``, for the progress line;
- watches every busy worker (the slot's watchdog: past budget + grace its process tree is killed,
  ``timeout``; past the memory budget, summed over the tree, likewise, ``memout``; a worker that
  dies mid-run is a ``crash``; each is replaced);
- checks and classifies every outcome (bench/execute/classify.py) and hands the row to ``on_row``
  (the journal appends and fsyncs it) before it gives out more work.

The Dask executor (bench/execute/dask_executor.py) keeps the scheduler and the rows and moves the
slots onto Dask workers.
"""

from __future__ import annotations

import os
import socket
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.execute.adaptive import AdaptiveStream
from bench.execute.blocks import Block, BlockRuns, ChunkRows, block_payload
from bench.execute.classify import outcome_columns
from bench.execute.limits import process_table
from bench.execute.slot import GRACE_S, MEMORY_POLL_S, POLL_S, RunnerError, Slot
from bench.execute.timeline import stamp
from bench.execute.worker import prepare_key
from bench.plan.suite import Adaptive, Task, task_keys
from bench.table.schema import SUCCESS
from bench.table.store import now

__all__ = ["GRACE_S", "LadderScheduler", "Runner", "RunnerError", "available_cpus",
           "base_row", "result_row", "skipped_row", "task_payload"]


def available_cpus() -> list[int]:
    if hasattr(os, "sched_getaffinity"):
        return sorted(os.sched_getaffinity(0))
    return list(range(os.cpu_count() or 1))


class LadderScheduler:
    """Releases runs stream by stream, rung by rung, and stops a stream that fails a rung.

    A stream is (ladder, solver config). Its next rung opens only when every run of the current
    one has finished; if the fraction failed reaches ``abort_fraction``, every run of the higher
    rungs becomes a ``skipped`` row with the reason. ``done`` rows (a resumed sweep) count as
    finished runs without running again. Streams take turns; one whose solver another worker
    is compiling (``compiling``, set by the runner) waits its turn while others have runs.

    A stream of an adaptive ladder (``adaptive``: ladder name -> its budget) does not climb:
    bench/execute/adaptive.py's :class:`AdaptiveStream` chooses its next batch of candidates
    each time the last one has finished; candidates never chosen give no row.
    """

    def __init__(self, tasks: list[Task], done: dict[str, dict[str, Any]],
                 abort_fraction: float = 1.0, adaptive: dict[str, Adaptive] | None = None):
        self.done = done
        self.abort_fraction = abort_fraction
        self.streams: OrderedDict[tuple[str, str], list[list[Task]]] = OrderedDict()
        place, members = None, []  # the last run's (ladder, config, rung) and that rung's list
        for task in tasks:  # a rung's runs mostly come one after another: looked up once
            ref = task.ref
            here = (ref.ladder, task.config.label, ref.rung_index or 0)
            if here != place:
                place = here
                rungs = self.streams.setdefault(here[:2], [])
                while len(rungs) <= here[2]:
                    rungs.append([])
                members = rungs[here[2]]
            members.append(task)
        self.current: dict[tuple[str, str], int] = {s: -1 for s in self.streams}
        self.queue: dict[tuple[str, str], deque[Task]] = {s: deque() for s in self.streams}
        self.open: dict[tuple[str, str], int] = {s: 0 for s in self.streams}
        self.tally: dict[tuple[str, str], list[int]] = {s: [0, 0] for s in self.streams}
        self.skipped: list[tuple[Task, str]] = []
        self.compiling: set[str] = set()
        self.order = deque(self.streams)
        self.adaptive = {s: AdaptiveStream(s, rungs, (adaptive or {})[s[0]])
                         for s, rungs in self.streams.items() if s[0] in (adaptive or {})}
        for stream in self.streams:
            self._advance(stream)

    def planned(self) -> tuple[int, bool]:
        """(the most runs this scheduler can give or skip, whether that is an upper bound: some
        stream is adaptive)."""
        fixed = sum(len(t) for s, rungs in self.streams.items() if s not in self.adaptive
                    for t in rungs)
        return fixed + sum(a.planned() for a in self.adaptive.values()), bool(self.adaptive)

    def adaptive_summary(self) -> list[dict[str, Any]]:
        """Per adaptive stream: runs made, why it stopped, its last fitted interval."""
        return [a.summary() for a in self.adaptive.values()]

    def _advance(self, stream: tuple[str, str]) -> None:
        """Open the next non-empty rung of a stream, counting runs already done."""
        if stream in self.adaptive:
            self._advance_adaptive(stream)
            return
        rungs = self.streams[stream]
        while self.open[stream] == 0 and not self.queue[stream]:
            index = self.current[stream]
            if index >= 0 and self._fails(stream):
                label = rungs[index][0].ref.rung if rungs[index] else str(index)
                solved, total = self.tally[stream]
                reason = (f"ladder stopped climbing: {stream[1]} solved {solved}/{total} "
                          f"at rung {label}")
                for higher in rungs[index + 1:]:
                    self.skipped.extend((t, reason) for t in higher if t.key not in self.done)
                self.current[stream] = len(rungs)
                return
            if index + 1 >= len(rungs):
                self.current[stream] = len(rungs)
                return
            self.current[stream] = index + 1
            self.tally[stream] = [0, 0]
            if not self.done:  # a new sweep: the whole rung runs
                self.queue[stream].extend(rungs[index + 1])
                continue
            for task in rungs[index + 1]:
                if task.key in self.done:
                    self._count(stream, self.done[task.key].get("status"))
                else:
                    self.queue[stream].append(task)

    def _advance_adaptive(self, stream: tuple[str, str]) -> None:
        """Once an adaptive stream's batch has finished, its next one; runs of it already done
        (a resumed sweep) count at once, so the replay makes the same decisions."""
        chooser = self.adaptive[stream]
        while self.open[stream] == 0 and not self.queue[stream]:
            batch = chooser.next_batch()
            if not batch:
                return
            for task in batch:
                if task.key in self.done:
                    chooser.record(task, self.done[task.key].get("status"))
                else:
                    self.queue[stream].append(task)

    def _fails(self, stream: tuple[str, str]) -> bool:
        solved, total = self.tally[stream]
        return total > 0 and (total - solved) / total >= self.abort_fraction - 1e-12

    def _count(self, stream: tuple[str, str], status: str | None) -> None:
        self.tally[stream][1] += 1
        if status in SUCCESS:
            self.tally[stream][0] += 1

    def next_task(self) -> Task | Block | None:
        """The next run, one stream after another in turn; None when no stream has one now.

        A stream whose next run's solver has its prepare key (bench/worker.prepare_key: what
        one compilation serves) in ``compiling`` (another worker is compiling it: the runner
        keeps the set) is passed over while another stream has a run, so that worker's
        neighbours run something else instead of waiting for its compilation."""
        passed = None
        for _ in range(len(self.order)):
            stream = self.order[0]
            self.order.rotate(-1)
            queue = self.queue[stream]
            if not queue:
                continue
            if prepare_key(queue[0].config.spec) not in self.compiling:
                return self._take(stream)
            passed = passed or stream
        return self._take(passed) if passed is not None else None

    def _take(self, stream: tuple[str, str]) -> Task | Block:
        """The stream's next run; a run of a block comes with every queued run of its block
        (they are queued together, in order), as one :class:`Block`."""
        queue = self.queue[stream]
        task = queue.popleft()
        self.open[stream] += 1
        if not task.block:
            return task
        members = [task]
        while queue and queue[0].block == task.block:
            members.append(queue.popleft())
            self.open[stream] += 1
        return Block(members)

    def next_block_like(self, block: Block) -> Block | None:
        """The next block of ``block``'s stream, when that stream's next queued run begins
        one with the same memory and cores (to be sent ahead to the worker solving
        ``block``), else None."""
        queue = self.queue.get(block.stream)
        if not queue or not queue[0].block or queue[0].block == block.key:
            return None
        first, last = queue[0], block.tasks[-1]
        if (first.mem_mb, first.cores) != (last.mem_mb, last.cores):
            return None
        taken = self._take(block.stream)
        assert isinstance(taken, Block)  # its head is a block's run
        return taken

    def requeue(self, tasks: list[Task]) -> None:
        """Put runs handed out but never started (the rest of a killed block) back at the head
        of their stream's queue, in order: they go out again, to a fresh worker."""
        for task in reversed(tasks):
            self.open[task.stream] -= 1
            self.queue[task.stream].appendleft(task)

    def finished(self, task: Task, row: dict[str, Any]) -> None:
        self.finished_many([task], [row["status"]])

    def finished_block_runs(self, block: Block, tasks: list[Task], statuses: list[str]
                            ) -> None:
        """Runs of ``block`` (a chunk of it) ended with these statuses: counted together
        where its stream is not adaptive (a block's runs are all of its stream)."""
        stream = block.stream
        if stream in self.adaptive:
            self.finished_many(tasks, statuses)
            return
        self.open[stream] -= len(tasks)
        self.tally[stream][1] += len(tasks)
        self.tally[stream][0] += sum(map(SUCCESS.__contains__, statuses))
        self._advance(stream)

    def finished_many(self, tasks: list[Task], statuses: list[str]) -> None:
        """Runs ended with these statuses, counted run by run."""
        for task, status in zip(tasks, statuses, strict=True):
            stream = task.stream
            self.open[stream] -= 1
            if stream in self.adaptive:
                self.adaptive[stream].record(task, status)
            else:
                self._count(stream, status)
        for stream in dict.fromkeys(task.stream for task in tasks):
            self._advance(stream)

    def take_skipped(self) -> list[tuple[Task, str]]:
        out, self.skipped = self.skipped, []
        return out

    def idle(self) -> bool:
        return all(not q for q in self.queue.values()) and not self.skipped


def task_payload(task: Task, run_id: int) -> dict[str, Any]:
    return {"id": run_id, "solver": task.config.spec.key, "params": task.config.params,
            "instance": task.ref.instance.to_json(), "seed": task.seed,
            "budget_s": task.budget_s, "mem_mb": task.mem_mb, "cores": task.cores}


def base_row(task: Task, sweep: str) -> dict[str, Any]:
    """Identity, instance and solver columns of a run (all but its outcome)."""
    return {**run_columns(task, sweep), **instance_columns(task)}


def run_columns(task: Task, sweep: str) -> dict[str, Any]:
    """The columns of a run that its block's runs share: where it stands (sweep, ladder, rung),
    the solver config, the repeat, seed and limits."""
    ref, spec = task.ref, task.config.spec
    row: dict[str, Any] = {
        "sweep": sweep, "started_at": None, "family": ref.family,
        "ladder": ref.ladder, "rung": ref.rung, "rung_index": ref.rung_index,
        "solver": spec.name, "paradigm": spec.paradigm, "backend": spec.backend,
        "repeat": task.repeat, "seed": task.seed,
        "budget_s": task.budget_s, "budget_mb": task.mem_mb, "cores": task.cores,
        "limits": None, "limits_by": None, "host": socket.gethostname(),
    }
    for key, value in task.config.params.items():
        row[f"s_{key}"] = value
    return row


def instance_columns(task: Task) -> dict[str, Any]:
    """The columns of a run that are its instance's (and its key)."""
    ref, generated = task.ref, task.ref.generated
    instance = ref.instance
    row: dict[str, Any] = {
        "key": task.key, "instance_id": ref.instance_id,
        "instance_name": getattr(instance, "name", ""), "source": ref.source,
        "feasible": generated.feasible, "known_optimum": generated.known_optimum,
        "max_score": getattr(instance, "max_score", None),
    }
    for key, value in {**generated.params, **(ref.extra_params or {})}.items():
        row[f"p_{key}"] = value
    return row


def instance_column_lists(tasks: list[Task]) -> dict[str, list[Any]]:
    """:func:`instance_columns` of many runs, as columns (a block's), made column by column:
    the same names in the same order, null where a run has no such parameter."""
    from bench.table.journal import transpose

    refs = [task.ref for task in tasks]
    generated = [ref.generated for ref in refs]
    ids = [g.instance.instance_id for g in generated]
    columns: dict[str, list[Any]] = {
        "key": task_keys(tasks, ids), "instance_id": ids,
        "instance_name": [getattr(g.instance, "name", "") for g in generated],
        "source": [ref.source for ref in refs], "feasible": [g.feasible for g in generated],
        "known_optimum": [g.known_optimum for g in generated],
        "max_score": [getattr(g.instance, "max_score", None) for g in generated],
    }
    params = transpose([{**g.params, **ref.extra_params} if ref.extra_params else g.params
                        for g, ref in zip(generated, refs, strict=True)])
    columns.update({f"p_{key}": values for key, values in params.items()})
    return columns


def skipped_row(task: Task, sweep: str, reason: str) -> dict[str, Any]:
    return {**base_row(task, sweep), "started_at": now(), "status": "skipped", "message": reason,
            "limits": "not run"}


def result_row(task: Task, result: dict[str, Any], sweep: str) -> dict[str, Any]:
    """The row of a run that ended (bench/execute/slot.py's result, from any executor): checked and
    classified here, in the parent."""
    row = {**base_row(task, sweep), **outcome_columns(task, result)}
    for key in ("started_at", "limits", "limits_by", "host"):
        if result.get(key) is not None:
            row[key] = result[key]
    return row


class Runner:
    """The local executor: ``jobs`` workers of ``cores`` cores each, pinned to disjoint cores,
    watched from this process; see the module docstring."""

    executor = "local"

    def __init__(self, jobs: int = 1, cores: int = 1, plugins: list[str] | tuple[str, ...] = (),
                 log_dir: str | Path | None = None, grace_s: float = GRACE_S):
        cpus = available_cpus()
        if jobs < 1 or cores < 1:
            raise RunnerError("--jobs and cores must be at least 1")
        if jobs * cores > len(cpus):
            raise RunnerError(f"{jobs} jobs x {cores} cores = {jobs * cores} cores, but this "
                              f"machine gives {len(cpus)}: lower --jobs")
        if log_dir is None:
            import tempfile

            log_dir = tempfile.mkdtemp(prefix="cliffbench-workers-")
        self.slots = [Slot(i, cpus[i * cores:(i + 1) * cores], [str(p) for p in plugins],
                           Path(log_dir), grace_s=grace_s) for i in range(jobs)]
        self.grace_s = grace_s
        self.run_ids = 0
        self.last_memory = 0.0
        self.blocks: dict[int, BlockRuns] = {}

    def serves(self, jobs: int, cores: int, plugins: list[str] | tuple[str, ...],
               log_dir: str | Path) -> bool:
        """Whether this runner is the one ``Runner(jobs, cores, plugins, log_dir)`` would be
        (its workers on the same cores, with the same plugins and logs)."""
        made = [(slot.cpus, slot.plugins, slot.log_dir) for slot in self.slots]
        cpus = available_cpus()
        return made == [(cpus[i * cores:(i + 1) * cores], [str(p) for p in plugins],
                         Path(log_dir)) for i in range(jobs)]

    def stop(self) -> None:
        """End every worker (and what its run left)."""
        for slot in self.slots:
            slot.stop()

    def run(self, scheduler: LadderScheduler, sweep: str,
            on_row: Callable[[dict[str, Any]], None],
            on_note: Callable[[list[str]], None] | None = None,
            on_chunk: Callable[[ChunkRows], None] | None = None,
            on_idle: Callable[[], Any] | None = None) -> None:
        """Until the scheduler has nothing left: give out runs, watch them, report rows.
        ``on_note`` is told what the workers say they are doing before their runs start (a
        first run's compilation), sorted, each time that changes. ``on_chunk``, when given,
        takes the rows of a block's chunk at once, as columns (one journal write), else
        ``on_row`` each. ``on_idle`` is called, when given, each time this process would wait
        with nothing from the workers to read, again while it says it did something and
        nothing has come: a short piece of work that would otherwise be done after the sweep
        (a chunk of the table converted: bench/table/ahead.py)."""
        notes: list[str] = []

        def emit(rows: list[tuple[Task, dict[str, Any]]]) -> None:
            for task, row in rows:
                on_row(row)
                scheduler.finished(task, row)

        def emit_chunk(block: Block, chunk: ChunkRows) -> None:
            if on_chunk is not None:
                on_chunk(chunk)
            else:
                for row in chunk.rows():
                    on_row(row)
            scheduler.finished_block_runs(block, chunk.tasks, chunk.column("status"))

        try:
            while True:
                for task, reason in scheduler.take_skipped():
                    on_row(skipped_row(task, sweep, reason))
                self._give_out(scheduler)
                busy = [s for s in self.slots if s.phase != "idle"]
                if not busy:
                    if scheduler.idle():
                        return
                    continue
                if not any(slot.messages for slot in busy):  # read, not handled: no wait
                    if on_idle is not None and not self._readable(busy):
                        stamp("idle<")
                        while on_idle() and not self._readable(busy):
                            pass
                        stamp("idle>")
                    stamp("wait<")
                    self._readable(busy, POLL_S)
                    stamp("wait>")
                ended = self._ended(busy)
                for slot in busy:  # a block sent ahead to a worker that was killed or died
                    ahead = slot.take_ahead()
                    if ahead is not None:
                        scheduler.requeue(ahead.tasks)
                # a freed worker gets its next run before the rows of what it finished are
                # made (a block's may take as long as its solving): the two then overlap
                self._give_out(scheduler)
                stamp("given")
                for slot, unit, result, messages in ended:
                    if isinstance(unit, Block):
                        runs = self.blocks.setdefault(id(unit), BlockRuns(unit, self.grace_s))
                        for message in messages:
                            emit_chunk(unit, runs.chunk(message, slot, sweep))
                        if result is not None:
                            del self.blocks[id(unit)]
                            rows, rest = runs.ended(result, sweep)
                            emit(rows)
                            if rest:
                                scheduler.requeue(rest)
                    elif result is not None:
                        row = result_row(unit, result, sweep)
                        on_row(row)
                        scheduler.finished(unit, row)
                stamp("recorded")
                now_notes = sorted({s.note for s in self.slots if s.note})
                if on_note is not None and now_notes != notes:
                    on_note(now_notes)
                notes = now_notes
        finally:
            self.stop()

    def _give_out(self, scheduler: LadderScheduler) -> None:
        """A run for every idle worker that the scheduler has one for, preferring solvers no
        other worker is compiling; and to a worker solving a block of a batch entry, the next
        block of its stream sent ahead (``Slot.send_ahead``), so that it never waits for
        this process between blocks."""
        for slot in self.slots:
            if slot.phase != "idle":
                self._send_ahead(slot, scheduler)
                continue
            scheduler.compiling = {prepare_key(s.task.config.spec) for s in self.slots if s.note}
            task = scheduler.next_task()
            if task is not None:
                self.run_ids += 1
                payload = (block_payload(task, self.run_ids) if isinstance(task, Block)
                           else task_payload(task, self.run_ids))
                slot.give(task, payload)

    def _send_ahead(self, slot: Slot, scheduler: LadderScheduler) -> None:
        """The next block of the stream of the block ``slot`` solves, sent ahead where the
        slot takes one (see ``Slot.send_ahead``); a block it refuses goes back to the queue."""
        block = slot.task
        if not isinstance(block, Block) or slot.ahead is not None or slot.phase != "solving" \
                or block.config.spec.batch is None:
            return
        after = scheduler.next_block_like(block)
        if after is None:
            return
        self.run_ids += 1
        if not slot.send_ahead(after, block_payload(after, self.run_ids)):
            scheduler.requeue(after.tasks)

    def _ended(self, busy: list[Slot]) -> list[tuple[Slot, Any, dict[str, Any] | None, list]]:
        """(slot, its run, result, block messages) of each slot whose run ended (finished,
        died, or killed by the watchdog for time or, every MEMORY_POLL_S, for memory) or whose
        block reported chunks; the result is None while a block goes on."""
        ended = []
        for slot in busy:
            task = slot.task
            result = slot.poll()
            messages, slot.block_messages = slot.block_messages, []
            if result is not None or messages:
                ended.append((slot, task, result, messages))
        clock = time.monotonic()
        if clock - self.last_memory >= MEMORY_POLL_S:
            self.last_memory = clock
            table = process_table()
            for slot in busy:
                task = slot.task
                if task is None:
                    continue
                result = slot.watch_memory(table)
                if result is not None:
                    messages, slot.block_messages = slot.block_messages, []
                    ended.append((slot, task, result, messages))
        return ended

    @staticmethod
    def _readable(busy: list[Slot], wait_s: float = 0.0) -> bool:
        """Whether a worker has written something not read yet, waiting up to ``wait_s`` for
        it (0: a look, no wait)."""
        import select

        fds = [s.rfd for s in busy if s.rfd >= 0]
        return bool(fds) and bool(select.select(fds, [], [], wait_s)[0])
