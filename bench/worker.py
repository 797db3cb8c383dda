"""A worker process: receives runs, calls solvers, sends back what they claimed.

Started by the runner in a session of its own (so the watchdog can kill its whole process group,
children included), pinned to its cores, and reused across runs: imports and ``prepare()`` (numba
compilation, loading tables) are paid once per worker and solver. It talks over two pipes, one
JSON object per line, never over stdout/stderr (a solver may print anything there).

It never checks answers: the parent does that. It dies with the parent (PR_SET_PDEATHSIG and a
thread that watches the parent pid), taking its process group with it. It is a child subreaper:
a process a solver starts stays its descendant even if it leaves the session, and whatever a run
leaves running is killed when the run ends (bench/limits.py), so nothing outlives its run.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import resource
import signal
import sys
import threading
import time
import traceback
from typing import Any

import instances
from bench.limits import become_subreaper, end_own_descendants

MB = 1024 * 1024
#: RLIMIT_AS is a backstop only (the runner's resident-size watch enforces the budget): address
#: space reserved by numba's LLVM and by solver thread pools is many times what they use
#: (measured here: a worker that compiled dfs-restarts and ran CP-SAT on 2 threads reserved
#: 873 MB of address space for 294 MB resident).
AS_BACKSTOP_FACTOR = 4
AS_BACKSTOP_FLOOR_MB = 16384


def die_with_parent(parent: int) -> None:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass

    def watch() -> None:
        while True:
            if os.getppid() != parent:
                os.killpg(0, signal.SIGKILL)
            time.sleep(0.5)

    threading.Thread(target=watch, daemon=True).start()


def set_memory_backstop(mem_mb: int) -> int:
    limit_mb = max(mem_mb * AS_BACKSTOP_FACTOR, mem_mb + AS_BACKSTOP_FLOOR_MB)
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = limit_mb * MB
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    return limit_mb


def reset_peak_rss() -> bool:
    """Writing 5 to clear_refs resets VmHWM, so the peak is per run, not per worker life."""
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


def peak_rss_mb() -> float | None:
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def limit_threads(cores: int) -> None:
    """Libraries that size thread pools at import read these; numba is told directly."""
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = str(cores)
    if "numba" in sys.modules:
        import numba

        numba.set_num_threads(min(cores, numba.config.NUMBA_NUM_THREADS))


class Worker:
    def __init__(self, plugins: list[str], cores: int):
        from bench.registry import load_solvers

        self.registry = load_solvers(plugins)
        self.cores = cores
        self.prepared: set[str] = set()

    def run(self, task: dict[str, Any], send) -> dict[str, Any]:
        spec = self.registry[task["solver"]]
        t_prepare = 0.0
        if spec.key not in self.prepared:
            start = time.perf_counter()
            if spec.prepare is not None:
                spec.prepare()
            t_prepare = time.perf_counter() - start
            self.prepared.add(spec.key)
        module = instances.family(spec.family)
        instance = module.Instance.from_json(task["instance"])
        limit_threads(task["cores"])
        as_limit_mb = set_memory_backstop(task["mem_mb"])
        reset_peak_rss()
        from bench.api import Budget

        send({"op": "started", "id": task["id"], "t_prepare": t_prepare,
              "as_limit_mb": as_limit_mb})
        cpu0 = cpu_seconds()
        start = time.monotonic()
        budget = Budget(task["budget_s"], task["mem_mb"], task["cores"], start + task["budget_s"])
        result: dict[str, Any] = {"op": "result", "id": task["id"], "t_prepare": t_prepare}
        try:
            outcome = spec.solve(instance, budget, task["seed"], **task["params"])
        except MemoryError:
            result.update(kind="memout", message="MemoryError (address-space backstop reached)")
        except Exception as exc:
            tail = "".join(traceback.format_exception(exc)[-3:])
            result.update(kind="error", message=f"{type(exc).__name__}: {exc}\n{tail}"[:4000])
        else:
            result.update(kind="outcome", **self.describe(outcome, instance))
        result["t_wall"] = time.monotonic() - start
        result["t_cpu"] = cpu_seconds() - cpu0
        result["peak_rss_mb"] = peak_rss_mb()
        left = end_own_descendants()
        if left:
            note = f"the run left {left} process(es) running; killed when it ended"
            result["message"] = f"{result['message']}; {note}" if result.get("message") else note
        return result

    @staticmethod
    def describe(outcome, instance) -> dict[str, Any]:
        from bench.api import Outcome

        if not isinstance(outcome, Outcome):
            raise TypeError(f"solve() returned {type(outcome).__name__}, not an Outcome")
        solution = None
        if outcome.solution is not None:
            solution = outcome.solution.to_json(instance)
        return {"claimed": outcome.status, "solution": solution, "objective": outcome.objective,
                "counters": {k: float(v) for k, v in outcome.counters.items()},
                "t_encode": outcome.t_encode, "t_solve": outcome.t_solve,
                "model_vars": outcome.model_vars, "model_constraints": outcome.model_constraints,
                "score_trace": [list(map(float, p)) for p in outcome.score_trace]}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.worker")
    parser.add_argument("--read-fd", type=int, required=True)
    parser.add_argument("--write-fd", type=int, required=True)
    parser.add_argument("--parent", type=int, default=None,
                        help="pid to die with (default: the parent, bench.guard)")
    parser.add_argument("--cpus", default="")
    parser.add_argument("--plugin", action="append", default=[])
    args = parser.parse_args(argv)
    die_with_parent(os.getppid() if args.parent is None else args.parent)
    become_subreaper()
    cpus = [int(c) for c in args.cpus.split(",") if c]
    if cpus and hasattr(os, "sched_setaffinity"):
        try:
            os.sched_setaffinity(0, cpus)
        except OSError:
            pass
    inbox = os.fdopen(args.read_fd, "r", encoding="utf-8")
    outbox = os.fdopen(args.write_fd, "w", encoding="utf-8")

    def send(message: dict[str, Any]) -> None:
        outbox.write(json.dumps(message, separators=(",", ":"), default=str) + "\n")
        outbox.flush()

    try:
        worker = Worker(args.plugin, max(1, len(cpus)))
    except Exception as exc:
        send({"op": "fatal", "message": f"{type(exc).__name__}: {exc}"})
        return
    send({"op": "ready", "pid": os.getpid()})
    for line in inbox:
        message = json.loads(line)
        if message.get("op") == "exit":
            break
        try:
            send(worker.run(message["task"], send))
        except Exception as exc:  # a bug outside the solver: report it, stay alive
            send({"op": "result", "id": message["task"]["id"], "kind": "error",
                  "message": f"worker: {type(exc).__name__}: {exc}"})


if __name__ == "__main__":
    main()
