"""Block runs: many instances of one solver config solved by one worker call, one row each.

A ladder with ``block = N`` (bench/plan/suite.py) groups each rung's runs, per solver config
and repeat, into blocks of ``N`` consecutive runs; the scheduler hands a block's queued runs
out together as one :class:`Block`. The worker (bench/execute/worker.py ``run_block``) solves
them in chunks and sends each chunk's results as soon as it has them; the parent turns every
result into its own row (checked by the family's checker like any run's, batched where the
family has ``check_many``) and journals it at once, so a kill never loses a finished row.

Limits stay the harness's. Time: a chunk of ``k`` instances may take ``k`` per-instance
budgets plus the grace (the watchdog, bench/execute/slot.py), and an instance whose own time
is past its budget plus the grace is a ``timeout`` row. Memory: the block's process tree is held
to the per-instance memory budget (the instances are solved one after another in one process).
A kill (timeout, memout) or a crash gives every instance of the chunk in flight that status;
the block's runs not yet begun go back to the queue, to a fresh worker.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bench.plan.suite import Task


@dataclass
class Block:
    """The queued runs of one block (all of it, or what a resume or a kill left), in order."""

    tasks: list[Task]

    @property
    def config(self) -> Any:
        return self.tasks[0].config

    @property
    def key(self) -> str:
        return self.tasks[0].block

    @property
    def budget_s(self) -> float:
        return self.tasks[0].budget_s

    @property
    def stream(self) -> tuple[str, str]:
        return self.tasks[0].stream


def block_payload(block: Block, run_id: int) -> dict[str, Any]:
    """What the worker is sent: the solver, its budget per instance, the instances in order."""
    first = block.tasks[0]
    return {"id": run_id, "solver": first.config.spec.key, "params": first.config.params,
            "seed": first.seed, "budget_s": first.budget_s, "mem_mb": first.mem_mb,
            "cores": first.cores,
            "block": {"id": first.block,
                      "instances": [t.ref.instance.to_json() for t in block.tasks]}}


def block_columns(task: Task, message: dict[str, Any] | None, chunk_size: int | None
                  ) -> dict[str, Any]:
    """The block columns of a row: the block's id, size, the run's place in it, and the
    chunk's and the worker call's wall times (None where the chunk never reported)."""
    message = message or {}
    return {"block": task.block, "block_size": task.block_size,
            "block_index": task.block_index, "chunk_size": chunk_size,
            "chunk_wall": message.get("chunk_wall"), "block_wall": message.get("block_wall")}


def over_budget(result: dict[str, Any], budget_s: float, grace_s: float) -> dict[str, Any]:
    """An outcome whose own time is past the per-instance budget plus the grace is a
    ``timeout`` (as the watchdog would have made it had it run alone); its answer is still
    checked and kept."""
    wall = result.get("t_wall")
    if result.get("kind") == "outcome" and wall is not None and wall > budget_s + grace_s:
        note = (f"the solver's own time {wall:.3f} s in the block is past the budget "
                f"{budget_s:g} s + grace {grace_s:g} s")
        return {**result, "over_budget": note}
    return result


class BlockRuns:
    """A block in flight, as the parent sees it: which of its runs have rows, and the rows of
    each chunk the worker reports (checked and classified here) and of how the block ended."""

    def __init__(self, block: Block, grace_s: float):
        self.block, self.grace_s = block, grace_s
        self.reported: set[int] = set()
        self.prepare_paid = False
        self.shared_columns: dict[str, Any] | None = None

    def rows(self, messages: list[dict[str, Any]], slot: Any, sweep: str
             ) -> list[tuple[Task, dict[str, Any]]]:
        """The rows of the chunks ``messages`` report (``slot``: the worker's, for the limits
        columns)."""
        from bench.execute.classify import check_many

        out = []
        for message in messages:
            start, results = message["start"], message["results"]
            tasks = self.block.tasks[start:start + len(results)]
            shared = {"started_at": slot.started_iso, "limits": slot.limits_note(),
                      "limits_by": slot.limits_by, "host": slot_host(),
                      "peak_rss_mb": message.get("peak_rss_mb")}
            for offset, (task, result, verdict) in enumerate(
                    zip(tasks, results, check_many(tasks, results), strict=True)):
                result = over_budget(result, task.budget_s, self.grace_s)
                result["t_prepare"] = 0.0 if self.prepare_paid else slot.t_prepare
                self.prepare_paid = True
                out.append((task, self._row(task, result, verdict, shared, message, sweep)))
                self.reported.add(start + offset)
        return out

    def _row(self, task: Task, result: dict[str, Any], verdict: Any, shared: dict[str, Any],
             message: dict[str, Any] | None, sweep: str) -> dict[str, Any]:
        from bench.execute.classify import outcome_columns
        from bench.execute.runner import instance_columns, run_columns

        if self.shared_columns is None:  # the same for every run of the block
            self.shared_columns = run_columns(task, sweep)
        row = {**self.shared_columns, **instance_columns(task),
               **outcome_columns(task, result, verdict)}
        row.update({k: v for k, v in shared.items() if v is not None})
        row.update(block_columns(task, message, len(message["results"]) if message else None))
        if result.get("over_budget"):
            row["status"] = "timeout"
            row["message"] = result["over_budget"]
        return row

    def ended(self, result: dict[str, Any], sweep: str
              ) -> tuple[list[tuple[Task, dict[str, Any]]], list[Task]]:
        """The rows of the block's runs that got none, and the runs to queue again.

        A block that ended normally leaves none (a run it did not report is an ``error``). A
        kill or a crash gives its status to the runs of the chunk in flight (when no chunk
        was, to the first run without a row, so a worker that dies before it solves anything
        cannot go round for ever); the runs after them go back to the queue. An ``error`` of
        the worker itself (not of a solve) is every remaining run's."""
        missing = [i for i in range(len(self.block.tasks)) if i not in self.reported]
        kind = result.get("kind")
        if kind == "block" or not missing:
            blamed, rest = missing, []
            result = {**result, "kind": "error",
                      "message": "the block ended without a result for this run"}
        elif kind == "error":
            blamed, rest = missing, []
        else:
            start, size = result.get("chunk_start"), result.get("chunk_size")
            flight = set(range(start, start + size)) if start is not None else set()
            blamed = [i for i in missing if i in flight] or missing[:1]
            rest = [i for i in missing if i not in blamed and i > max(blamed)]
            blamed = [i for i in missing if i not in rest]
        shared = {"started_at": result.get("started_at"), "limits": result.get("limits"),
                  "limits_by": result.get("limits_by"), "host": result.get("host"),
                  "peak_rss_mb": result.get("peak_rss_mb"),
                  "peak_cgroup_mb": result.get("peak_cgroup_mb")}
        rows = []
        for i in blamed:
            task = self.block.tasks[i]
            run = {"kind": result["kind"], "t_prepare": 0.0 if self.prepare_paid
                   else result.get("t_prepare"),
                   "message": f"{result.get('message')} (block {task.block}: run "
                              f"{task.block_index + 1} of {task.block_size}, in the chunk "
                              "in flight)" if kind != "block" else result["message"]}
            if result.get("chunk_elapsed") is not None and result.get("chunk_size"):
                run["t_wall"] = result["chunk_elapsed"] / result["chunk_size"]
            self.prepare_paid = True
            rows.append((task, self._row(task, run, None, shared, None, sweep)))
        return rows, [self.block.tasks[i] for i in rest]


def slot_host() -> str:
    import socket

    return socket.gethostname()
