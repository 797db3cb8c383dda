"""Block runs: many instances of one solver config solved by one worker call, one row each.

A ladder with ``block = N`` (bench/plan/suite.py) groups each rung's runs, per solver config
and repeat, into blocks of ``N`` consecutive runs; the scheduler hands a block's queued runs
out together as one :class:`Block`. The worker (bench/execute/worker.py ``run_block``) solves
them in chunks and sends each chunk's columns as soon as it has them
(bench/execute/described.py); the parent turns them into a :class:`ChunkRows`, one row per
instance (checked by the family's checker like any run's, batched where the family has
``check_texts`` or ``check_many``), and journals it at once as one line, so a kill never
loses a finished row.

Limits stay the harness's. Time: a chunk of ``k`` instances may take ``k`` per-instance
budgets plus the grace (the watchdog, bench/execute/slot.py), and an instance whose own time
is past its budget plus the grace is a ``timeout`` row. Memory: the block's process tree is held
to the per-instance memory budget (the instances are solved one after another in one process).
A kill (timeout, memout) or a crash gives every instance of the chunk in flight that status;
the block's runs not yet begun go back to the queue, to a fresh worker, as does a block sent
ahead (a batch entry's next block of the same stream, sent while the current one runs:
bench/execute/slot.py ``send_ahead``) that the worker never began.
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
    """What the worker is sent: the solver, its budget per instance, the instances in order
    (as one JSON value: the family's ``instances_to_json``)."""
    import instances

    first = block.tasks[0]
    family = instances.family(first.ref.family)
    return {"id": run_id, "solver": first.config.spec.key, "params": first.config.params,
            "seed": first.seed, "budget_s": first.budget_s, "mem_mb": first.mem_mb,
            "cores": first.cores,
            "block": {"id": first.block, "instances": family.instances_to_json(
                [task.ref.instance for task in block.tasks])}}


def block_columns(task: Task, message: dict[str, Any] | None, chunk_size: int | None
                  ) -> dict[str, Any]:
    """The block columns of a row: the block's id, size, the run's place in it, and the
    chunk's and the worker call's wall times (None where the chunk never reported)."""
    message = message or {}
    return {"block": task.block, "block_size": task.block_size,
            "block_index": task.block_index, "chunk_size": chunk_size,
            "chunk_wall": message.get("chunk_wall"), "block_wall": message.get("block_wall")}


#: The outcome columns of a chunk's rows, in the row's order (bench/execute/classify.py's
#: ``outcome_columns``); those the worker does not send are null.
OUTCOME_ORDER = ("claimed", "verified", "verdict", "score", "objective", "message", "solution",
                 "t_wall", "t_cpu", "t_prepare", "t_encode", "t_solve", "peak_rss_mb",
                 "peak_cgroup_mb", "work_nodes", "work_conflicts", "work_restarts", "solutions",
                 "model_vars", "model_constraints", "counters", "score_trace", "status")


@dataclass
class ChunkRows:
    """The rows of a block's chunk, as columns: ``same`` holds the columns with one value for
    every row (the solver, the rung, the limits, the chunk's times), ``varying`` the others
    (name -> one value per row, in the order of ``tasks``)."""

    tasks: list[Task]
    same: dict[str, Any]
    varying: dict[str, list[Any]]

    def column(self, name: str) -> list[Any]:
        """One column, a value per row."""
        values = self.varying.get(name)
        return values if values is not None else [self.same.get(name)] * len(self.tasks)

    def rows(self) -> list[dict[str, Any]]:
        """The rows themselves (the constant columns first)."""
        names = list(self.varying)
        return [{**self.same, **dict(zip(names, values, strict=True))}
                for values in zip(*self.varying.values(), strict=True)]


class BlockRuns:
    """A block in flight, as the parent sees it: which of its runs have rows, and the rows of
    each chunk the worker reports (checked and classified here) and of how the block ended."""

    def __init__(self, block: Block, grace_s: float):
        self.block, self.grace_s = block, grace_s
        self.reported: set[int] = set()
        self.prepare_paid = False
        self.shared_columns: dict[str, Any] | None = None
        self.instance_columns: tuple[dict[str, Any], dict[str, list[Any]]] | None = None
        self.known_alike: bool | None = None

    def chunk(self, message: dict[str, Any], slot: Any, sweep: str) -> ChunkRows:
        """The rows of the chunk a ``rows`` message reports (``slot``: the worker's, for the
        limits columns): every answer checked (in one call of the family's ``check_texts``
        or ``check_many`` where it has one), every claim judged, an instance whose own time
        is past the budget plus the grace made a ``timeout``."""
        from bench.execute.classify import check_texts
        from bench.execute.described import received_counters

        start, columns = message["start"], message["columns"]
        kinds = columns["kind"]
        n = len(kinds)
        if "counter_values" in columns:
            columns = {**columns, **received_counters(columns, n)}
        tasks = self.block.tasks[start:start + n]
        if len(tasks) != n:
            raise ValueError(f"block {self.block.key}: a chunk of {n} runs from run {start} "
                             f"of {len(self.block.tasks)}")
        none = [None] * n
        out = {name: list(columns.get(name, none)) for name in OUTCOME_ORDER}
        out["status"] = list(kinds)
        texts = [text if kind == "outcome" else None
                 for kind, text in zip(kinds, out["solution"], strict=True)]
        verdicts = check_texts(tasks, texts)
        self._judge(tasks, kinds, verdicts, out)
        limit = self.block.budget_s + self.grace_s
        for i in [i for i, wall in enumerate(out["t_wall"]) if wall is not None and wall > limit
                  and kinds[i] == "outcome"]:
            out["status"][i] = "timeout"
            out["message"][i] = (f"the solver's own time {out['t_wall'][i]:.3f} s in the block "
                                 f"is past the budget {self.block.budget_s:g} s + grace "
                                 f"{self.grace_s:g} s")
        out["t_prepare"] = [0.0] * n
        if not self.prepare_paid:
            out["t_prepare"][0] = slot.t_prepare
            self.prepare_paid = True
        self.reported.update(range(start, start + n))
        same = {**self._shared(tasks[0], sweep),
                **{k: v for k, v in {"started_at": slot.started_iso,
                                     "limits": slot.limits_note(), "limits_by": slot.limits_by,
                                     "host": slot_host(),
                                     "peak_rss_mb": message.get("peak_rss_mb")}.items()
                   if v is not None},
                **{k: v for k, v in block_columns(tasks[0], message, n).items()
                   if k != "block_index"}}  # the run's place in the block varies
        constant, columns = self._instance_columns()
        same.update({name: value for name, value in constant.items() if name not in same})
        varying = {name: values[start:start + n] for name, values in columns.items()}
        for name, values in out.items():
            if name in same:
                continue
            if values.count(None) == n:  # no row has it (most outcome columns of a batch)
                same[name] = None
            else:
                varying[name] = values
        return ChunkRows(tasks, same, varying)

    def _judge(self, tasks: list[Task], kinds: list[str], verdicts: list[Any],
               out: dict[str, list[Any]]) -> None:
        """Judge the claims of a chunk's ``outcome`` rows (``judge_claim``), written into
        ``out``'s columns. A claim's judgement depends on the run only through what its
        instance is known to be, and a block's rows mostly make the same claim with the same
        verdict (the one solved verdict of a batch checker): a chunk whose rows all do, on
        instances all known alike, is judged once; else each distinct (claim, verdict,
        objective, solutions, what is known) once (the verdicts list keeps its verdicts
        alive, so their ids are theirs)."""
        from bench.execute.classify import judge_claim

        claimed, objective, solutions = out["claimed"], out["objective"], out["solutions"]
        n = len(kinds)
        if kinds.count("outcome") == n and self._known_alike() and all(
                column.count(column[0]) == n for column in (claimed, verdicts, objective,
                                                            solutions)):
            judged = judge_claim(tasks[0], claimed[0], verdicts[0], objective[0], solutions[0])
            out.update({name: [value] * n for name, value in judged.items()})
            return
        judgements: dict[tuple[Any, ...], dict[str, Any]] = {}
        for i, (task, kind) in enumerate(zip(tasks, kinds, strict=True)):
            if kind != "outcome":
                continue
            known = task.ref.generated
            claim = (claimed[i], id(verdicts[i]), objective[i], solutions[i], known.feasible,
                     known.known_solutions, known.known_optimum)
            judged = judgements.get(claim)
            if judged is None:
                judged = judgements[claim] = judge_claim(task, claimed[i], verdicts[i],
                                                         objective[i], solutions[i])
            for name, value in judged.items():
                out[name][i] = value

    def _known_alike(self) -> bool:
        """Whether every run's instance of the block is known alike (``feasible``,
        ``known_solutions``, ``known_optimum``: all ``judge_claim`` reads of it; computed
        once)."""
        if self.known_alike is None:
            known = [(g.feasible, g.known_solutions, g.known_optimum)
                     for g in (task.ref.generated for task in self.block.tasks)]
            self.known_alike = known.count(known[0]) == len(known)
        return self.known_alike

    def _shared(self, task: Task, sweep: str) -> dict[str, Any]:
        """The run columns every run of the block shares (computed once)."""
        from bench.execute.runner import run_columns

        if self.shared_columns is None:
            self.shared_columns = run_columns(task, sweep)
        return self.shared_columns

    def _instance_columns(self) -> tuple[dict[str, Any], dict[str, list[Any]]]:
        """The instance columns of every run of the block, and its place in it (computed
        once), as those with one value for the whole block (the family's parameters of a
        file's puzzles, a null optimum) and the others, a value per run."""
        from bench.execute.runner import instance_column_lists
        from bench.table.journal import split_columns

        if self.instance_columns is None:
            tasks = self.block.tasks
            split = split_columns({}, {**instance_column_lists(tasks),
                                       "block_index": [task.block_index for task in tasks]},
                                  len(tasks))
            self.instance_columns = (split["same"], split["rows"])
        return self.instance_columns

    def _row(self, task: Task, result: dict[str, Any], shared: dict[str, Any], sweep: str
             ) -> dict[str, Any]:
        """The row of a run the block's end gave its status (no chunk reported it)."""
        from bench.execute.classify import outcome_columns
        from bench.execute.runner import instance_columns

        row = {**self._shared(task, sweep), **instance_columns(task),
               **outcome_columns(task, result)}
        row.update({k: v for k, v in shared.items() if v is not None})
        row.update(block_columns(task, None, None))
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
            rows.append((task, self._row(task, run, shared, sweep)))
        return rows, [self.block.tasks[i] for i in rest]


def slot_host() -> str:
    import socket

    return socket.gethostname()
