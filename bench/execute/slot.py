"""One worker process and the run it holds: give it a run, watch it, say how the run ended.

Both executors use it: the local runner keeps one slot per job in the parent; the Dask executor
keeps one per Dask worker thread, on the Dask worker. Either way a solve happens in a limited
child process (bench/execute/worker.py), so a crash or a kill takes down that child, never the
process that watches it.

The watchdog is the harness's, not the solver's (BenchExec's rule): past budget + grace the
run's whole process tree is killed (``timeout``); past the memory budget, summed over the tree,
likewise (``memout``); a worker that dies mid-run is a ``crash``. Where the machine allows it
the worker lives in a control group of its own (bench/execute/cgroups.py): the kernel then
holds the memory limit too (a run the kernel killed at it is a ``memout``), the tree's CPU time
and memory peak come from the group's counters, and the kill takes every member of the group.
``poll`` and ``watch_memory`` return the run's *result*: the worker's own message, or one
written here for a run that was killed or died. The parent turns results into rows
(bench/execute/runner.py); nothing here checks an answer. Before a run starts, ``note`` holds
what the worker said it is doing (``compiling <solver> (first run on this machine)``), for the
progress line.
"""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.execute import wire
from bench.execute.cgroups import HEADROOM_MB, Group, open_group
from bench.execute.limits import kill_tree, process_table, resident_mb, run_processes
from bench.execute.timeline import stamp
from bench.table.store import now

GRACE_S = 1.0
STARTUP_LIMIT_S = 600.0
POLL_S = 0.05
MEMORY_POLL_S = 0.1
#: A worker's log (its stdout and stderr: whatever solvers print) is emptied before a run once
#: it is this large, so a chatty solver cannot fill the disk over a long sweep.
LOG_LIMIT_BYTES = 64 * 1024 * 1024


class RunnerError(RuntimeError):
    """The sweep cannot go on (a worker that cannot start at all, too many cores asked)."""


@dataclass
class Slot:
    """One worker process (respawned after a kill or a crash) and the run it holds."""

    index: int | str
    cpus: list[int]
    plugins: list[str]
    log_dir: Path
    grace_s: float = GRACE_S
    executor: str = "local"
    proc: subprocess.Popen | None = None
    rfd: int = -1
    wfd: int = -1
    buffer: bytes = b""
    task: Any = None           # whatever the caller gives (a Task), returned untouched
    payload: dict[str, Any] = field(default_factory=dict)
    phase: str = "idle"  # idle | starting | solving
    sent_at: float = 0.0
    started_at: float = 0.0
    started_iso: str = ""
    t_prepare: float | None = None
    as_limit_mb: int | None = None
    peak_mb: float = 0.0
    note: str | None = None  # what the worker said it is doing before the run starts
    memory_polled: float = 0.0  # when run_one last summed the tree's memory
    seen: set[tuple[int, int]] = field(default_factory=set)  # (pid, start) ever in the run
    group: Group | None = None  # the worker's control group, where the machine allows one
    worker_pid: int | None = None
    cpu_at_start: float | None = None  # the group's CPU seconds when the solve started
    oom_at_give: int = 0  # the group's oom_kill count when the run was handed out
    limits_by: str = "process-tree"  # what enforces the limits of the worker's runs
    group_name: str = ""
    messages: deque = field(default_factory=deque)
    # a block run (bench/execute/blocks.py): the chunk in flight (start, size, since) and the
    # chunks' result messages not yet taken by the runner
    chunk: tuple[int, int, float] | None = None
    block_messages: list = field(default_factory=list)
    last_rows: float = 0.0
    # the block sent ahead of the one running (``send_ahead``): (its task, its payload)
    ahead: tuple[Any, dict[str, Any]] | None = None
    pipe_bytes: int = 0  # what the pipe to the worker holds

    @property
    def log_path(self) -> Path:
        return self.log_dir / f"worker{self.index}.log"

    @property
    def scratch(self) -> Path:
        """The worker's temporary folder (its ``TMPDIR``): whatever a solver writes there and
        does not remove (PuLP's model files, when CBC is killed mid-run) goes with the worker."""
        return self.log_dir / f"scratch{self.index}"

    def spawn(self, cores: int) -> None:
        down_r, down_w = os.pipe()
        up_r, up_w = os.pipe()
        for fd in (down_w, up_w):
            widen_pipe(fd)
        threads = str(max(1, len(self.cpus) or cores))
        self.scratch.mkdir(parents=True, exist_ok=True)
        scratch = str(self.scratch)
        env = {**os.environ, "NUMBA_NUM_THREADS": threads, "OMP_NUM_THREADS": threads,
               "OPENBLAS_NUM_THREADS": threads, "MKL_NUM_THREADS": threads,
               "TMPDIR": scratch, "TMP": scratch, "TEMP": scratch}
        # the guard (bench/execute/guard.py) is the worker's parent: it outlives the worker to end
        # whatever the run left, and ends everything if this process dies
        self.group = open_group(str(self.index))
        self.worker_pid = None  # a new worker: its pid comes with its "ready"
        self.limits_by = self.group.mechanism if self.group else "process-tree"
        self.group_name = self.group.memory.name if self.group else ""
        joins = ["--cgroup", ",".join(self.group.procs_files())] if self.group else []
        cmd = [sys.executable, "-m", "bench.execute.guard", "--pass-fds", f"{down_r},{up_w}",
               "--parent", str(os.getpid()), *joins, "--",
               sys.executable, "-m", "bench.execute.worker", "--read-fd", str(down_r),
               "--write-fd", str(up_w), "--cpus", ",".join(map(str, self.cpus))]
        for plugin in self.plugins:
            cmd += ["--plugin", plugin]
        self.log_dir.mkdir(parents=True, exist_ok=True)
        open(self.log_path, "wb").close()
        with open(self.log_path, "ab") as log:  # appending: emptying it later stays safe
            self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                         pass_fds=(down_r, up_w), start_new_session=True, env=env)
        os.close(down_r)
        os.close(up_w)
        self.rfd, self.wfd, self.buffer = up_r, down_w, b""
        self.pipe_bytes = pipe_size(down_w)
        os.set_blocking(self.rfd, False)

    def send(self, message: dict[str, Any]) -> None:
        self._write(wire.encode_to_worker(message))

    def _write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            written = os.write(self.wfd, view)
            view = view[written:]

    def give(self, task: Any, payload: dict[str, Any]) -> None:
        """Send a run to the worker (started first if there is none); ``poll`` says how it
        goes. Until the solve starts, ``note`` holds what the worker said it is doing (a first
        run's compilation)."""
        if self.proc is None:
            self.spawn(payload.get("cores", 1))
        else:
            self._limit_log()
        self.block_messages = []
        if self.group is not None:
            try:
                self.group.set_memory_limit(payload["mem_mb"])
            except OSError:  # the worker already holds more than this run's limit: a fresh one
                self.kill()
                self.spawn(payload.get("cores", 1))
                if self.group is not None:
                    self.group.set_memory_limit(payload["mem_mb"])
        self._begin(task, payload)
        try:
            self.send(self._run_message(payload))
        except (BrokenPipeError, OSError):
            pass  # a dead worker is noticed by the poll and the run recorded as a crash

    def _run_message(self, payload: dict[str, Any]) -> dict[str, Any]:
        return {"op": "run", "task": {**payload, "kernel_memory": self.group is not None}}

    def _begin(self, task: Any, payload: dict[str, Any]) -> None:
        """The slot's state for a run handed to its worker (sent now, or sent ahead and begun
        now): nothing of it measured yet."""
        self.task, self.payload, self.phase, self.note = task, payload, "starting", None
        self.peak_mb, self.t_prepare, self.as_limit_mb = 0.0, None, None
        self.seen, self.cpu_at_start = set(), None
        self.chunk, self.last_rows = None, 0.0
        if self.group is not None:
            self.group.reset_peak()
            self.oom_at_give = self.group.oom_kills()
        self.sent_at = time.monotonic()
        self.started_iso = now()

    def send_ahead(self, task: Any, payload: dict[str, Any]) -> bool:
        """Send the worker its next block while its current one runs, so that it begins the
        next as soon as it sends the current one's result instead of waiting for the parent
        to read that and answer (a block ladder's pipeline, bench/execute/blocks.py). The
        caller's part: the current run is a block of the same solver with the same memory
        and cores (the worker's limits stay as they are), whose solver's entry is its batch
        entry (it starts no process, so that the end of a block needs no sweep of its
        processes by the slot: the worker ends its own descendants). Refused (False) while
        one is ahead, before the current block has started, or when the message would not
        fit in the pipe at once (the write must not wait for the worker: the watchdog would
        wait with it). ``poll`` begins the block when the current one's result comes; after
        a kill or a death the block was never begun and ``take_ahead`` gives it back."""
        if self.ahead is not None or self.phase != "solving" or self.proc is None:
            return False
        data = wire.encode_to_worker(self._run_message(payload))
        if len(data) > self.pipe_bytes:
            return False
        try:
            self._write(data)
        except (BrokenPipeError, OSError):
            return False  # a dead worker is noticed by the poll
        self.ahead = (task, payload)
        stamp("ahead")
        return True

    def take_ahead(self) -> Any:
        """The task of the block sent ahead that the worker never began (its run was killed or
        it died: the slot is idle), else None; the slot forgets it."""
        if self.ahead is None or self.task is not None:
            return None
        task, self.ahead = self.ahead[0], None
        return task

    def read(self) -> bool:
        """Move whole lines into ``messages``; False at end of file (the worker is gone)."""
        while True:
            try:
                chunk = os.read(self.rfd, PIPE_BYTES)
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
                self.messages.append(wire.decode(line))
        return True

    def _limit_log(self) -> None:
        try:
            if os.path.getsize(self.log_path) > LOG_LIMIT_BYTES:
                os.truncate(self.log_path, 0)
        except OSError:
            pass

    def log_tail(self, limit: int = 1500) -> str:
        try:
            with open(self.log_path, "rb") as fh:
                fh.seek(max(0, os.path.getsize(self.log_path) - limit))
                data = fh.read()
        except OSError:
            return ""
        return data.decode("utf-8", "replace").strip()

    # -- the watchdog --------------------------------------------------------------------------

    def poll(self) -> dict[str, Any] | None:
        """Read the worker's messages and apply the wall-clock limits; the result of a run that
        ended, else None."""
        alive = self.read()
        while self.messages:
            message = self.messages.popleft()
            op = message.get("op")
            if op == "fatal":
                raise RunnerError(f"a worker could not start: {message.get('message')}")
            if op == "ready":  # the worker is up: its pid, spared by the end-of-run sweep
                self.worker_pid = message.get("pid")
            if op == "preparing" and self.task is not None:  # a first run's compilation
                self.note = message.get("note")
            if op == "started":  # the solve begins: the budget's clock starts here
                self.phase, self.started_at = "solving", time.monotonic()
                self.note = None
                self.started_iso = now()
                self.t_prepare = message.get("t_prepare")
                self.as_limit_mb = message.get("as_limit_mb")
                if self.group is not None:
                    self.cpu_at_start = self.group.cpu_seconds()
            elif op == "chunk" and self.task is not None:  # a block's chunk: its budgets
                self.chunk = (message["start"], message["n"], time.monotonic())
            elif op == "rows" and self.task is not None:  # a block's chunk has ended
                self.block_messages.append(message)
                self.chunk, self.last_rows = None, time.monotonic()
            elif op == "result" and self.task is not None:
                return self._finished(message)
        if self.task is None:
            return None
        if not alive or (self.proc is not None and self.proc.poll() is not None):
            return self._crashed()
        clock = time.monotonic()
        budget = self.payload["budget_s"]
        if self.phase == "solving" and "block" in self.payload:
            return self._watch_block(clock, budget)
        if self.phase == "solving" and clock - self.started_at > budget + self.grace_s:
            return self._killed("timeout", f"killed at {clock - self.started_at:.2f} s "
                                           f"(budget {budget} s + grace {self.grace_s} s)")
        if self.phase == "starting" and clock - self.sent_at > STARTUP_LIMIT_S:
            return self._killed("timeout",
                                f"worker start-up and prepare() exceeded {STARTUP_LIMIT_S} s")
        return None

    def _watch_block(self, clock: float, budget: float) -> dict[str, Any] | None:
        """A block's wall limit: its chunk in flight may take one budget per instance plus
        the grace; between chunks (the worker sending one, starting the next) one budget."""
        if self.chunk is not None:
            _, size, since = self.chunk
            allowed = size * budget
        else:
            since, allowed = self.last_rows or self.started_at, budget
        if clock - since > allowed + self.grace_s:
            what = f"a chunk of {self.chunk[1]} instance(s)" if self.chunk else "between chunks"
            return self._killed("timeout", f"block killed {clock - since:.2f} s into {what} "
                                           f"(budget {allowed:g} s + grace {self.grace_s} s)")
        return None

    def watch_memory(self, table: dict) -> dict[str, Any] | None:
        """Sum the resident size of the run's processes (``table``: limits.process_table());
        the result of a run killed for memory, else None."""
        if self.task is None or self.proc is None:
            return None
        pids = run_processes(self.proc.pid, table)
        if self.group is not None:
            pids |= self.group.pids() & table.keys()
        self.seen |= {(pid, table[pid].started) for pid in pids if pid in table}
        mb = resident_mb(pids - {self.proc.pid})  # the guard is the harness's, not the run's
        self.peak_mb = max(self.peak_mb, mb)
        budget = self.payload["mem_mb"]
        if mb > budget:
            return self._killed("memout", f"killed at {mb:.0f} MB resident (budget {budget} MB)")
        return None

    def wait(self, timeout: float = POLL_S) -> None:
        if self.rfd >= 0:
            select.select([self.rfd], [], [], timeout)

    def limits_note(self) -> str:
        """How this run's limits were enforced (the row's ``limits`` column)."""
        cpus = ",".join(map(str, self.cpus)) or "not pinned"
        if self.limits_by != "process-tree":
            kernel = (f"{self.limits_by} {self.group_name}: kernel memory limit "
                      f"budget + {HEADROOM_MB} MB, CPU time and peak from the group, kill of "
                      f"every member")
            tree = "the group's processes"
        else:
            backstop = f"{self.as_limit_mb} MB" if self.as_limit_mb else "not set"
            kernel = f"process tree: RLIMIT_AS backstop {backstop}"
            tree = "the worker's process tree"
        return (f"executor {self.executor}; wall: watchdog SIGKILLs {tree} at budget + "
                f"{self.grace_s:g} s (polled every {POLL_S:g} s); memory: resident size of the "
                f"tree polled every {MEMORY_POLL_S:g} s; {kernel}; cpus {cpus}; "
                f"host {socket.gethostname()}")

    # -- how a run ends --------------------------------------------------------------------------

    def _elapsed(self) -> float | None:
        return time.monotonic() - self.started_at if self.phase == "solving" else None

    def _close_run(self, result: dict[str, Any]) -> dict[str, Any]:
        result.setdefault("t_prepare", self.t_prepare)
        watched = self.peak_mb or None
        reported = result.get("peak_rss_mb")
        result["peak_rss_mb"] = max(v for v in (watched, reported, 0.0) if v is not None) or None
        if self.group is not None:
            self._group_measures(result)
        result["limits_by"] = self.limits_by
        result["started_at"] = self.started_iso
        result["limits"] = self.limits_note()
        result["host"] = socket.gethostname()
        self.task, self.phase, self.payload, self.note = None, "idle", {}, None
        return result

    def _group_measures(self, result: dict[str, Any]) -> None:
        """The group's word on the run: its CPU time and peak, and a kill at the kernel's
        memory limit, which makes the run a ``memout`` whatever the worker said."""
        group = self.group
        cpu = group.cpu_seconds()
        if cpu is not None and self.cpu_at_start is not None:
            # the group's counter holds the worker and its children, but a running task's
            # time reaches it at the next tick or switch: a sub-tick run may read 0 there,
            # while the worker's own count (exact, a lower bound of the group's) does not
            own = result.get("t_cpu")
            result["t_cpu"] = max(cpu - self.cpu_at_start, float(own or 0.0))
        result["peak_cgroup_mb"] = group.peak_mb()
        killed = group.oom_kills() - self.oom_at_give
        if killed > 0:
            said = result.get("message")
            result["kind"] = "memout"
            result["message"] = (
                f"the kernel killed {killed} process{'es' if killed > 1 else ''} of the run at its "
                f"{group.mechanism} memory limit ({self.payload['mem_mb']} MB budget + "
                f"{HEADROOM_MB} MB)" + (f"; the run said: {said}" if said else ""))

    def _finished(self, message: dict[str, Any]) -> dict[str, Any]:
        ahead, self.ahead = self.ahead, None
        if self.group is not None and self.proc is not None and self.worker_pid \
                and ahead is None:
            # what the run left, the group knows (no pid yet: nothing of the run can be left);
            # with a block ahead the worker has begun it, and ended the last one's descendants
            self.group.kill(spare=frozenset({self.proc.pid, self.worker_pid}))
        result = self._close_run(dict(message))
        if ahead is not None:
            self._begin(*ahead)
        return result

    def _in_flight(self) -> dict[str, Any]:
        """A block's chunk in flight when the run was killed or died (start, size), if any."""
        if self.chunk is None:
            return {}
        start, size, since = self.chunk
        return {"chunk_start": start, "chunk_size": size,
                "chunk_elapsed": time.monotonic() - since}

    def _killed(self, status: str, message: str) -> dict[str, Any]:
        result = {"kind": status, "message": message, "t_wall": self._elapsed(),
                  **self._in_flight()}
        if self.group is not None:
            self._group_measures(result)  # before the kill removes the group
        self.kill()
        return self._close_run(result)

    def _crashed(self) -> dict[str, Any]:
        code = self.proc.wait() if self.proc is not None else None
        if code is not None and code < 0:
            cause = f"worker killed by {signal.Signals(-code).name}"
        else:
            cause = f"worker exited with code {code}"
        tail = self.log_tail()
        message = cause + (f"; last output: {tail[-800:]}" if tail else "")
        result = {"kind": "crash", "message": message, "t_wall": self._elapsed(),
                  **self._in_flight()}
        if self.group is not None:
            self._group_measures(result)  # a worker the kernel killed at its limit: memout
        self.kill()
        return self._close_run(result)

    # -- the process -----------------------------------------------------------------------------

    def kill(self) -> None:
        """End the worker and everything it owns, orphans it left included, and empty its
        temporary folder."""
        if self.proc is not None:
            if self.group is not None:
                self.group.kill()  # the guard included: every member, frozen then killed
            kill_tree(self.proc.pid, also=self.seen, freeze_root=False)  # the guard acts
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
        if self.group is not None:
            self.group.remove()
            self.group = None
        shutil.rmtree(self.scratch, ignore_errors=True)
        self.close()

    def close(self) -> None:
        for fd in (self.rfd, self.wfd):
            if fd >= 0:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self.proc, self.rfd, self.wfd, self.buffer = None, -1, -1, b""
        self.messages.clear()

    def stop(self) -> None:
        if self.proc is not None and self.phase == "idle":
            try:
                self.send({"op": "exit"})
                self.proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self.kill()
        self.task, self.phase = None, "idle"


#: The pipes to and from a worker hold this much (Linux: up to ``/proc/sys/fs/pipe-max-size``,
#: 1 MiB by default), so that a block's instances and a chunk's rows (hundreds of kilobytes)
#: pass in one write, not in 64 KiB pieces each waiting for the reader to be scheduled.
PIPE_BYTES = 1 << 20


def pipe_size(fd: int) -> int:
    """What a pipe holds (``F_GETPIPE_SZ``), or the 4 KiB POSIX promises where that is not
    known."""
    import fcntl

    if hasattr(fcntl, "F_GETPIPE_SZ"):
        with contextlib.suppress(OSError):
            return fcntl.fcntl(fd, fcntl.F_GETPIPE_SZ)
    return 4096


def widen_pipe(fd: int) -> None:
    """Ask for a pipe of ``PIPE_BYTES`` (where the system has ``F_SETPIPE_SZ``; a refusal
    leaves it as it is)."""
    import fcntl

    if hasattr(fcntl, "F_SETPIPE_SZ"):
        with contextlib.suppress(OSError):
            fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, PIPE_BYTES)


def run_one(slot: Slot, payload: dict[str, Any],
            on_note: Callable[[str | None], None] | None = None) -> dict[str, Any]:
    """Give one run to ``slot`` and watch it to its end: the result (any kind). ``on_note`` is
    told the slot's note each time it changes (a first run's compilation), and None at the
    end if it was told one."""
    slot.give(payload["id"], payload)
    note = None
    try:
        while True:
            result = _watch_once(slot)
            if on_note is not None and slot.note != note:
                note = slot.note
                on_note(note)
            if result is not None:
                return result
    finally:
        if on_note is not None and note is not None:
            on_note(None)


def _watch_once(slot: Slot) -> dict[str, Any] | None:
    """Wait up to POLL_S for the worker, then apply the limits (memory every MEMORY_POLL_S):
    the run's result if it ended, else None."""
    slot.wait()
    result = slot.poll()
    clock = time.monotonic()
    if result is None and clock - slot.memory_polled >= MEMORY_POLL_S:
        slot.memory_polled = clock
        result = slot.watch_memory(process_table())
    return result
