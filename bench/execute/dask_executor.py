"""The Dask executor: the same runs, checks and journal, with the solves on a dask.distributed
cluster.

What moves is only the watching: each Dask worker thread keeps a Slot (bench/execute/slot.py), i.e.
a limited bench/execute/worker.py child process with its watchdog and memory watch, and a Dask task
is one run given to that slot. A solver that crashes or is killed takes its child down, never
the Dask worker. What stays in the parent is everything that makes a row trustworthy: the
ladder scheduler, the checker and the classification (``bench.execute.runner.result_row``), and the
journal, appended and fsynced as each future completes. A run whose Dask worker is lost (a node
gone) is retried by Dask; if it never finishes it becomes a ``crash`` row naming the lost
worker.

What a slot's worker says before its run starts (a first run's compilation) reaches the
parent as a Dask event (``log_event`` on the worker, ``subscribe_topic`` in the client), so the
progress line shows it as with the local executor.

One Dask thread runs one run at a time: start workers with ``--nthreads`` equal to the runs a
machine should hold (cores / cores per run), and ``--memory-limit 0`` (the slot enforces each
run's budget; Dask's own limit would restart a worker for its child's memory).
"""

from __future__ import annotations

import logging
import os
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.execute.runner import (
    LadderScheduler,
    RunnerError,
    available_cpus,
    result_row,
    skipped_row,
    task_payload,
)
from bench.execute.slot import GRACE_S, Slot, run_one

#: Slots of this process, one per (Dask worker thread, plugins): a worker process and its
#: imports and prepare() are reused across the runs that thread is given, as locally.
_SLOTS: dict[tuple[int, tuple[str, ...]], Slot] = {}
_SLOTS_LOCK = threading.Lock()


def _slot_for(plugins: tuple[str, ...], log_dir: str, grace_s: float, cores: int,
              executor: str, pin: bool) -> Slot:
    key = (threading.get_ident(), plugins)
    with _SLOTS_LOCK:
        slot = _SLOTS.get(key)
        if slot is None:
            from distributed import get_worker

            name = get_worker().name
            cpus: list[int] = []
            if pin and isinstance(name, int):
                mine = available_cpus()[name * cores:(name + 1) * cores]
                cpus = mine if len(mine) == cores else []
            folder = Path(log_dir)
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError:  # the parent's folder is not on this machine
                folder = Path(tempfile.mkdtemp(prefix="cliffbench-dask-workers-"))
            index = f"-dask-{name}-{len(_SLOTS)}".replace("/", "_").replace(":", "_")
            slot = Slot(index, cpus, list(plugins), folder, grace_s=grace_s, executor=executor)
            _SLOTS[key] = slot
    return slot


def run_remote(payload: dict[str, Any], plugins: tuple[str, ...], log_dir: str,
               grace_s: float = GRACE_S, pin: bool = False,
               executor: str = "dask", topic: str | None = None) -> dict[str, Any]:
    """On a Dask worker: one run in this thread's slot, watched to its end; its result. Its
    notes go to the client as events of ``topic``."""
    slot = _slot_for(plugins, log_dir, grace_s, payload["cores"], executor, pin)
    try:
        return run_one(slot, payload, _event_sender(topic, str(slot.index)))
    except RunnerError as exc:
        slot.kill()
        return {"kind": "fatal", "message": str(exc)}


def _event_sender(topic: str | None, slot: str) -> Callable[[str | None], None] | None:
    """A function that sends a slot's note to the client as an event of ``topic`` (a lost
    event only costs the progress line a note)."""
    if topic is None:
        return None
    from distributed import get_worker

    worker = get_worker()

    def send(note: str | None) -> None:
        try:
            worker.log_event(topic, {"slot": slot, "note": note})
        except Exception:
            pass

    return send


class NoteBoard:
    """The notes of every slot of the cluster, from the events of one sweep's topic; tells
    ``on_note`` the sorted notes each time they change."""

    def __init__(self, on_note: Callable[[list[str]], None]):
        self.on_note = on_note
        self.notes: dict[str, str] = {}
        self.lock = threading.Lock()

    def __call__(self, event: tuple[float, dict[str, Any]]) -> None:
        message = event[1]
        with self.lock:
            if message.get("note"):
                self.notes[message["slot"]] = message["note"]
            else:
                self.notes.pop(message.get("slot"), None)
            notes = sorted(set(self.notes.values()))
        self.on_note(notes)


class DaskRunner:
    """Runs tasks on a Dask cluster through ``client``; see the module docstring."""

    def __init__(self, client: Any, plugins: list[str] | tuple[str, ...] = (),
                 log_dir: str | Path | None = None, grace_s: float = GRACE_S,
                 pin: bool = False, executor: str = "dask"):
        self.client = client
        self.plugins = tuple(str(Path(p).resolve()) for p in plugins)
        self.log_dir = str(log_dir or tempfile.mkdtemp(prefix="cliffbench-workers-"))
        self.grace_s = grace_s
        self.pin = pin
        self.executor = executor
        self.run_ids = 0

    def capacity(self) -> int:
        """Runs the cluster holds at once: its worker threads (waits for a first worker)."""
        threads = sum(self.client.nthreads().values())
        if threads == 0:
            self.client.wait_for_workers(1)
            threads = sum(self.client.nthreads().values())
        return max(1, threads)

    def run(self, scheduler: LadderScheduler, sweep: str,
            on_row: Callable[[dict[str, Any]], None],
            on_note: Callable[[list[str]], None] | None = None) -> None:
        """Until the scheduler has nothing left: submit runs up to the cluster's capacity and
        report each row as its future completes; ``on_note`` as for the local runner."""
        from distributed import as_completed

        topic = f"cliffbench-notes-{sweep}-{os.getpid()}"
        if on_note is not None:
            self.client.subscribe_topic(topic, NoteBoard(on_note))
        ended = as_completed()
        inflight: dict[Any, Any] = {}
        try:
            while True:
                for task, reason in scheduler.take_skipped():
                    on_row(skipped_row(task, sweep, reason))
                self._submit(scheduler, sweep, inflight, ended,
                             topic if on_note is not None else None)
                if not inflight:
                    if scheduler.idle():
                        return
                    continue
                future = next(ended)
                task = inflight.pop(future)
                row = result_row(task, self._result(future), sweep)
                on_row(row)
                scheduler.finished(task, row)
        finally:
            for future in inflight:
                future.cancel()
            if on_note is not None:
                self.client.unsubscribe_topic(topic)

    def _submit(self, scheduler: LadderScheduler, sweep: str, inflight: dict[Any, Any],
                ended: Any, topic: str | None) -> None:
        """Submit the scheduler's next runs while the cluster has threads free."""
        capacity = self.capacity()
        while len(inflight) < capacity:
            task = scheduler.next_task()
            if task is None:
                return
            self.run_ids += 1
            future = self.client.submit(
                run_remote, task_payload(task, self.run_ids), self.plugins,
                self.log_dir, self.grace_s, self.pin, self.executor, topic, pure=False,
                key=f"cliffbench-{sweep}-{task.key}-{os.getpid()}-{self.run_ids}")
            inflight[future] = task
            ended.add(future)

    @staticmethod
    def _result(future: Any) -> dict[str, Any]:
        try:
            result = future.result()
        except Exception as exc:  # KilledWorker, a lost connection: the run never finished
            return {"kind": "crash", "message": f"the Dask worker running it was lost: "
                                                f"{type(exc).__name__}: {exc}"}
        if result.get("kind") == "fatal":
            raise RunnerError(result["message"])
        return result


def local_cluster(jobs: int) -> Any:
    """``--executor dask-local``: a LocalCluster of ``jobs`` single-thread worker processes."""
    from distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                           memory_limit=0, dashboard_address=None, silence_logs=logging.ERROR)
    return Client(cluster)


def connect(address: str) -> Any:
    """``--executor dask --scheduler ADDRESS``: a client of a running cluster."""
    from distributed import Client

    try:
        return Client(address, timeout="30s")
    except OSError as exc:
        raise RunnerError(f"cannot reach the Dask scheduler at {address}: {exc}") from None


def require_dask() -> None:
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise RunnerError("the Dask executors need dask.distributed: pip install "
                          "'cliffbench[dask]'") from None
