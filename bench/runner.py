"""The runner: worker processes, a watchdog, a memory watch, and the order runs are given out.

Every run executes in a worker process (bench/worker.py), never in the parent. The parent:

- gives each idle worker the next run the scheduler releases (ladders climb rung by rung per
  solver, so a solver that fails a rung is not sent higher: those runs become ``skipped`` rows);
- watches every busy worker: past budget + grace its process group is killed (``timeout``); past
  the memory budget, summed over the worker's whole session, likewise (``memout``); a worker that
  dies mid-run is a ``crash``; each is replaced;
- checks and classifies every outcome (bench/classify.py) and hands the row to ``on_row`` (the
  journal appends and fsyncs it) before it gives out more work.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.classify import outcome_columns
from bench.limits import kill_session, session_rss_mb
from bench.schema import SUCCESS
from bench.store import now
from bench.suite import Task

GRACE_S = 1.0
STARTUP_LIMIT_S = 600.0
POLL_S = 0.05
LIMITS_NOTE = ("wall: watchdog killpg at budget+{grace}s; "
               "mem: session RSS watch + RLIMIT_AS backstop")


class RunnerError(RuntimeError):
    """The sweep cannot go on (a worker that cannot start at all, too many cores asked)."""


def available_cpus() -> list[int]:
    if hasattr(os, "sched_getaffinity"):
        return sorted(os.sched_getaffinity(0))
    return list(range(os.cpu_count() or 1))


@dataclass
class Slot:
    """One worker process and the run it holds."""

    index: int
    cpus: list[int]
    plugins: list[str]
    log_dir: Path
    proc: subprocess.Popen | None = None
    rfd: int = -1
    wfd: int = -1
    buffer: bytes = b""
    task: Task | None = None
    phase: str = "idle"  # idle | starting | solving
    sent_at: float = 0.0
    started_at: float = 0.0
    started_iso: str = ""
    t_prepare: float | None = None
    peak_mb: float = 0.0
    messages: deque = field(default_factory=deque)

    @property
    def log_path(self) -> Path:
        return self.log_dir / f"worker{self.index}.log"

    def spawn(self) -> None:
        down_r, down_w = os.pipe()
        up_r, up_w = os.pipe()
        cores = str(max(1, len(self.cpus)))
        env = {**os.environ, "NUMBA_NUM_THREADS": cores, "OMP_NUM_THREADS": cores,
               "OPENBLAS_NUM_THREADS": cores, "MKL_NUM_THREADS": cores}
        cmd = [sys.executable, "-m", "bench.worker", "--read-fd", str(down_r),
               "--write-fd", str(up_w), "--parent", str(os.getpid()),
               "--cpus", ",".join(map(str, self.cpus))]
        for plugin in self.plugins:
            cmd += ["--plugin", plugin]
        self.log_dir.mkdir(parents=True, exist_ok=True)
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                         pass_fds=(down_r, up_w), start_new_session=True, env=env)
        os.close(down_r)
        os.close(up_w)
        self.rfd, self.wfd, self.buffer = up_r, down_w, b""
        os.set_blocking(self.rfd, False)

    def send(self, message: dict[str, Any]) -> None:
        data = (json.dumps(message, separators=(",", ":")) + "\n").encode()
        view = memoryview(data)
        while view:
            written = os.write(self.wfd, view)
            view = view[written:]

    def give(self, task: Task, payload: dict[str, Any]) -> None:
        if self.proc is None:
            self.spawn()
        self.task, self.phase, self.peak_mb, self.t_prepare = task, "starting", 0.0, None
        self.sent_at = time.monotonic()
        self.started_iso = now()
        try:
            self.send({"op": "run", "task": payload})
        except (BrokenPipeError, OSError):
            pass  # a dead worker is noticed by the poll and the run recorded as a crash

    def read(self) -> bool:
        """Move whole lines into ``messages``; False at end of file (the worker is gone)."""
        while True:
            try:
                chunk = os.read(self.rfd, 1 << 16)
            except BlockingIOError:
                break
            except OSError:
                return False
            if not chunk:
                return False
            self.buffer += chunk
        *lines, self.buffer = self.buffer.split(b"\n")
        for line in lines:
            if line.strip():
                self.messages.append(json.loads(line))
        return True

    def log_tail(self, limit: int = 1500) -> str:
        try:
            data = self.log_path.read_bytes()[-limit:]
        except OSError:
            return ""
        return data.decode("utf-8", "replace").strip()

    def kill(self) -> None:
        if self.proc is not None:
            kill_session(self.proc.pid)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
        self.close()

    def close(self) -> None:
        for fd in (self.rfd, self.wfd):
            if fd >= 0:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self.proc, self.rfd, self.wfd, self.buffer = None, -1, -1, b""
        self.task, self.phase = None, "idle"
        self.messages.clear()

    def stop(self) -> None:
        if self.proc is not None and self.phase == "idle":
            try:
                self.send({"op": "exit"})
                self.proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self.kill()


class LadderScheduler:
    """Releases runs stream by stream, rung by rung, and stops a stream that fails a rung.

    A stream is (ladder, solver config). Its next rung opens only when every run of the current
    one has finished; if the fraction failed reaches ``abort_fraction``, every run of the higher
    rungs becomes a ``skipped`` row with the reason. ``done`` rows (a resumed sweep) count as
    finished runs without running again.
    """

    def __init__(self, tasks: list[Task], done: dict[str, dict[str, Any]],
                 abort_fraction: float = 1.0):
        self.done = done
        self.abort_fraction = abort_fraction
        self.streams: OrderedDict[tuple[str, str], list[list[Task]]] = OrderedDict()
        for task in tasks:
            rungs = self.streams.setdefault(task.stream, [])
            index = task.ref.rung_index or 0
            while len(rungs) <= index:
                rungs.append([])
            rungs[index].append(task)
        self.current: dict[tuple[str, str], int] = {s: -1 for s in self.streams}
        self.queue: dict[tuple[str, str], deque[Task]] = {s: deque() for s in self.streams}
        self.open: dict[tuple[str, str], int] = {s: 0 for s in self.streams}
        self.tally: dict[tuple[str, str], list[int]] = {s: [0, 0] for s in self.streams}
        self.skipped: list[tuple[Task, str]] = []
        self.order = deque(self.streams)
        for stream in self.streams:
            self._advance(stream)

    def _advance(self, stream: tuple[str, str]) -> None:
        """Open the next non-empty rung of a stream, counting runs already done."""
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
            for task in rungs[index + 1]:
                if task.key in self.done:
                    self._count(stream, self.done[task.key])
                else:
                    self.queue[stream].append(task)

    def _fails(self, stream: tuple[str, str]) -> bool:
        solved, total = self.tally[stream]
        return total > 0 and (total - solved) / total >= self.abort_fraction - 1e-12

    def _count(self, stream: tuple[str, str], row: dict[str, Any]) -> None:
        self.tally[stream][1] += 1
        if row.get("status") in SUCCESS:
            self.tally[stream][0] += 1

    def next_task(self) -> Task | None:
        for _ in range(len(self.order)):
            stream = self.order[0]
            self.order.rotate(-1)
            if self.queue[stream]:
                self.open[stream] += 1
                return self.queue[stream].popleft()
        return None

    def finished(self, task: Task, row: dict[str, Any]) -> None:
        stream = task.stream
        self.open[stream] -= 1
        self._count(stream, row)
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
    ref, generated, spec = task.ref, task.ref.generated, task.config.spec
    instance = ref.instance
    max_score = getattr(instance, "max_score", None)
    row: dict[str, Any] = {
        "sweep": sweep, "key": task.key, "started_at": None,
        "family": ref.family, "instance_id": ref.instance_id,
        "instance_name": getattr(instance, "name", ""), "source": ref.source,
        "ladder": ref.ladder, "rung": ref.rung, "rung_index": ref.rung_index,
        "feasible": generated.feasible, "known_optimum": generated.known_optimum,
        "max_score": max_score,
        "solver": spec.name, "paradigm": spec.paradigm, "backend": spec.backend,
        "repeat": task.repeat, "seed": task.seed,
        "budget_s": task.budget_s, "budget_mb": task.mem_mb, "cores": task.cores,
        "limits": LIMITS_NOTE.format(grace=GRACE_S), "host": socket.gethostname(),
    }
    for key, value in {**generated.params, **ref.extra_params}.items():
        row[f"p_{key}"] = value
    for key, value in task.config.params.items():
        row[f"s_{key}"] = value
    return row


def skipped_row(task: Task, sweep: str, reason: str) -> dict[str, Any]:
    return {**base_row(task, sweep), "started_at": now(), "status": "skipped", "message": reason}


class Runner:
    """Runs tasks on ``jobs`` workers of ``cores`` cores each; see the module docstring."""

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
                           Path(log_dir)) for i in range(jobs)]
        self.grace_s = grace_s
        self.run_ids = 0

    def run(self, scheduler: LadderScheduler, sweep: str,
            on_row: Callable[[dict[str, Any]], None]) -> None:
        """Until the scheduler has nothing left: give out runs, watch them, report rows."""
        last_mem_poll = 0.0
        try:
            while True:
                for task, reason in scheduler.take_skipped():
                    on_row(skipped_row(task, sweep, reason))
                for slot in self.slots:
                    if slot.phase == "idle":
                        task = scheduler.next_task()
                        if task is not None:
                            self.run_ids += 1
                            slot.give(task, task_payload(task, self.run_ids))
                busy = [s for s in self.slots if s.phase != "idle"]
                if not busy:
                    if scheduler.idle():
                        return
                    continue
                self._wait(busy)
                rows = [row for slot in busy for row in self._service(slot, sweep)]
                clock = time.monotonic()
                if clock - last_mem_poll >= 0.1:
                    last_mem_poll = clock
                    rows += self._watch_memory(sweep)
                for row in rows:
                    task = row.pop("_task")
                    on_row(row)
                    scheduler.finished(task, row)
        finally:
            for slot in self.slots:
                slot.stop()

    @staticmethod
    def _wait(busy: list[Slot]) -> None:
        import select

        fds = [s.rfd for s in busy if s.rfd >= 0]
        if fds:
            select.select(fds, [], [], POLL_S)

    def _service(self, slot: Slot, sweep: str) -> list[dict[str, Any]]:
        """Read a busy worker's messages and apply the watchdog; the rows of finished runs."""
        alive = slot.read()
        while slot.messages:
            message = slot.messages.popleft()
            op = message.get("op")
            if op == "fatal":
                raise RunnerError(f"a worker could not start: {message.get('message')}")
            if op == "started":
                slot.phase, slot.started_at = "solving", time.monotonic()
                slot.t_prepare = message.get("t_prepare")
            elif op == "result" and slot.task is not None:
                row = self._row(slot, message, sweep)
                slot.task, slot.phase = None, "idle"
                return [row]
        if slot.task is None:
            return []
        if not alive or (slot.proc is not None and slot.proc.poll() is not None):
            return [self._crashed(slot, sweep)]
        clock = time.monotonic()
        task = slot.task
        if slot.phase == "solving" and clock - slot.started_at > task.budget_s + self.grace_s:
            return [self._killed(slot, sweep, "timeout",
                                 f"killed at {clock - slot.started_at:.2f} s "
                                 f"(budget {task.budget_s} s + grace {self.grace_s} s)")]
        if slot.phase == "starting" and clock - slot.sent_at > STARTUP_LIMIT_S:
            return [self._killed(slot, sweep, "timeout",
                                 f"worker start-up and prepare() exceeded {STARTUP_LIMIT_S} s")]
        return []

    def _watch_memory(self, sweep: str) -> list[dict[str, Any]]:
        busy = {s.proc.pid: s for s in self.slots if s.task is not None and s.proc is not None}
        rows = []
        for session, mb in session_rss_mb(set(busy)).items():
            slot = busy[session]
            slot.peak_mb = max(slot.peak_mb, mb)
            if mb > slot.task.mem_mb:
                rows.append(self._killed(slot, sweep, "memout",
                                         f"killed at {mb:.0f} MB resident "
                                         f"(budget {slot.task.mem_mb} MB)"))
        return rows

    def _elapsed(self, slot: Slot) -> float | None:
        return time.monotonic() - slot.started_at if slot.phase == "solving" else None

    def _row(self, slot: Slot, result: dict[str, Any], sweep: str) -> dict[str, Any]:
        task = slot.task
        row = {**base_row(task, sweep), "started_at": slot.started_iso,
               **outcome_columns(task, result), "_task": task}
        watched = slot.peak_mb or None
        reported = row.get("peak_rss_mb")
        row["peak_rss_mb"] = max(v for v in (watched, reported, 0.0) if v is not None) or None
        return row

    def _killed(self, slot: Slot, sweep: str, status: str, message: str) -> dict[str, Any]:
        elapsed = self._elapsed(slot)
        result = {"kind": status, "message": message, "t_wall": elapsed,
                  "t_prepare": slot.t_prepare, "peak_rss_mb": slot.peak_mb or None}
        row = {**base_row(slot.task, sweep), "started_at": slot.started_iso,
               **outcome_columns(slot.task, result), "_task": slot.task}
        slot.kill()
        return row

    def _crashed(self, slot: Slot, sweep: str) -> dict[str, Any]:
        code = slot.proc.wait() if slot.proc is not None else None
        if code is not None and code < 0:
            cause = f"worker killed by {signal.Signals(-code).name}"
        else:
            cause = f"worker exited with code {code}"
        tail = slot.log_tail()
        message = cause + (f"; last output: {tail[-800:]}" if tail else "")
        result = {"kind": "crash", "message": message, "t_wall": self._elapsed(slot),
                  "t_prepare": slot.t_prepare, "peak_rss_mb": slot.peak_mb or None}
        row = {**base_row(slot.task, sweep), "started_at": slot.started_iso,
               **outcome_columns(slot.task, result), "_task": slot.task}
        slot.kill()
        return row
