"""A worker process: receives runs, calls solvers, sends back what they claimed.

Started by the runner in a session of its own (so the watchdog can kill its whole process group,
children included), pinned to its cores, and reused across runs: a solver's module is imported
(``bench.plan.registry.load_solver``: that module only) and its ``prepare()`` run (numba
compilation, loading tables) once per worker, on the first run of that solver, or before it where
a worker started while its sweep is planned is told what the sweep will run first (``{"op":
"prepare", "solvers": [...]}``: those whose compiled code is cached are loaded then, until a run
comes; ``Worker.prepare_ahead``). It talks over two
pipes, one JSON object per line, never over stdout/stderr (a solver may print anything there).

Compilation happens once per machine, not once per worker: ``prepare()`` runs under an
inter-process lock (``fcntl.flock``) in the user's cache folder, one per compilation (a numba
solver's prepare function, else its backend library) and cache (numba's folder), so a second
worker preparing the same solver waits for the first to write numba's on-disk cache and then
loads it. After a successful prepare a stamp beside the lock lists the numba kernels it
compiled; a start whose stamp is missing, or whose kernels numba's cache no longer holds for
the current sources, is a first run on this machine and says so to the parent
(``{"op": "preparing", "note": "compiling <solver> (first run on this machine)"}``), which shows
it in the progress line.

It never checks answers: the parent does that. It dies with the parent
(``bench.execute.limits.die_with_parent``: PR_SET_PDEATHSIG and a thread that watches the parent
pid), taking its process group with it. It is a child subreaper:
a process a solver starts stays its descendant even if it leaves the session, and whatever a run
leaves running is killed when the run ends (bench/execute/limits.py), so nothing outlives its run.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import hashlib
import json
import os
import resource
import select
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import instances
from bench.execute import described, wire
from bench.execute.ending import exit_unfreed
from bench.execute.limits import become_subreaper, die_with_parent, end_own_descendants
from bench.execute.timeline import set_role, stamp

MB = 1024 * 1024
#: RLIMIT_AS is a backstop only (the runner's resident-size watch enforces the budget): address
#: space reserved by numba's LLVM and by solver thread pools is several times what they use.
AS_BACKSTOP_FACTOR = 4
AS_BACKSTOP_FLOOR_MB = 16384
#: A batch entry's chunks of a block aim at this many seconds (sized from its rate so far, in
#: this block and the solver's blocks before it) and hold at most BLOCK_CHUNK_MAX instances: a
#: kill loses only the chunk in flight, and each chunk costs the parent one journal fsync.
BLOCK_CHUNK_S = 0.25
BLOCK_CHUNK_MAX = 4096


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


# -- preparing a solver once per machine ---------------------------------------------------------

STAMP_VERSION = 1
#: Sends messages to the parent: one or more, in one write (read together).
Notify = Callable[..., None]


def prepare_folder() -> Path | None:
    """Where the prepare locks and stamps live: ``$XDG_CACHE_HOME/cliffbench/prepare`` (else
    ``~/.cache/...``, the solver index's folder), or a per-user temporary folder when that
    cannot be made; None when neither can (prepare then runs unlocked)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    for folder in (Path(base) / "cliffbench" / "prepare",
                   Path(tempfile.gettempdir()) / f"cliffbench-prepare-{os.getuid()}"):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            return folder
        except OSError:
            continue
    return None


def prepare_key(spec: Any) -> str:
    """What a lock and a stamp are per, i.e. what one compilation serves: a native numba
    solver's prepare function (solvers that share one, as minimax and alpha-beta do, share its
    kernels), else the solver's backend (both ``xcc`` solvers compile xcover's kernels)."""
    if not spec.backend.startswith("numba"):
        return f"backend {spec.backend}"
    prepare = spec.prepare
    name = getattr(prepare, "__qualname__", None)
    module = getattr(prepare, "__module__", None)
    return f"{module}.{name}" if name and module else spec.key


def cache_place(spec: Any) -> str:
    """Where what a prepare compiles is cached, so that a lock and a stamp are shared only by
    workers that share that cache: numba's ``NUMBA_CACHE_DIR`` and, for a native solver, its
    prepare's source file (numba caches beside it: two checkouts compile apart), for a library
    the interpreter's installation (a venv's site-packages)."""
    numba_dir = os.environ.get("NUMBA_CACHE_DIR", "")
    if not spec.backend.startswith("numba"):
        return f"{sys.prefix} {numba_dir}"
    module = sys.modules.get(getattr(spec.prepare, "__module__", None) or "")
    return f"{getattr(module, '__file__', '')} {numba_dir}"


def stamp_base(folder: Path, key: str, place: str) -> Path:
    """``folder/<hash of key and place>``: the stem of the ``.lock`` and ``.json`` files."""
    return folder / hashlib.sha256(f"{key}\n{place}".encode()).hexdigest()[:24]


def read_stamp(path: Path) -> dict[str, Any] | None:
    try:
        stamp = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return stamp if isinstance(stamp, dict) else None


def stamp_is_current(stamp: dict[str, Any] | None, key: str) -> bool:
    """Whether a prepare of ``key`` would load rather than compile: the stamp is of this key and
    this Python, and numba's cache still holds each kernel it lists with as many signatures as
    when it was written (numba's own reading of its index: a missing or stale index, or one of
    another numba version, holds none)."""
    from searches.support.numba_cache import cached_on_disk

    if not stamp or stamp.get("version") != STAMP_VERSION or stamp.get("key") != key:
        return False
    if stamp.get("python") != sys.version:
        return False
    return all(cached_on_disk(module, name) >= count
               for module, name, count in stamp.get("kernels", []))


def write_stamp(path: Path, key: str, kernels: list[tuple[str, str]]) -> None:
    """Write the stamp of ``key``: each of ``kernels`` (module, name) with the signatures
    numba's cache now holds for it. Atomically: a reader sees the old stamp or the new one."""
    from searches.support.numba_cache import cached_on_disk

    listed = sorted([module, name, cached_on_disk(module, name)] for module, name in kernels)
    stamp = {"version": STAMP_VERSION, "key": key, "python": sys.version, "kernels": listed}
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(stamp, fh)
    os.replace(tmp, path)


@contextlib.contextmanager
def machine_lock(path: Path | None) -> Iterator[None]:
    """Hold an exclusive ``flock`` on ``path`` (blocking until the holder lets go); the kernel
    drops it when the holder dies, however it ends. Unlocked when the file cannot be opened."""
    try:
        handle = open(path, "a") if path is not None else None
    except OSError:
        handle = None
    if handle is None:
        yield
        return
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def first_run_note(spec: Any) -> str:
    """What the progress line says while a first run prepares."""
    verb = "compiling" if spec.backend.startswith("numba") else "preparing"
    return f"{verb} {spec.key} (first run on this machine)"


def prepare_once(spec: Any, notify: Notify) -> float:
    """Run ``spec.prepare()`` under its machine-wide lock (one per :func:`prepare_key` and
    :func:`cache_place`); the seconds it took, waiting for another worker's compilation
    included.

    Before waiting, a first run on this machine (see :func:`stamp_is_current`) tells the
    parent (``notify``); after it, the stamp lists the kernels this prepare compiled (or
    loaded), found by counting every module's compiled signatures before and after, each with
    the signatures numba's cache holds for it."""
    from searches.support.numba_cache import compiled_since, overload_counts

    start = time.perf_counter()
    key = prepare_key(spec)
    base = _stamp_base(spec)
    stamp_path = base.with_suffix(".json") if base is not None else None
    first = not _loads(base, key)
    if first:
        notify({"op": "preparing", "solver": spec.key, "note": first_run_note(spec)})
    with machine_lock(base.with_suffix(".lock") if base is not None else None):
        before = overload_counts() if first else {}
        spec.prepare()
        if first and stamp_path is not None:
            with contextlib.suppress(OSError):
                write_stamp(stamp_path, key, list(compiled_since(before)))
    return time.perf_counter() - start


def _stamp_base(spec: Any) -> Path | None:
    """The stem of ``spec``'s prepare lock and stamp (:func:`stamp_base`), None where there is
    no folder for them."""
    folder = prepare_folder()
    return stamp_base(folder, prepare_key(spec), cache_place(spec)) if folder is not None \
        else None


def prepare_loads(spec: Any) -> bool:
    """Whether ``spec.prepare()`` would load what an earlier one compiled on this machine (its
    stamp is current: :func:`stamp_is_current`) rather than compile."""
    return _loads(_stamp_base(spec), prepare_key(spec))


def _loads(base: Path | None, key: str) -> bool:
    """Whether the stamp at ``base`` (:func:`_stamp_base`) is current for ``key``."""
    return base is not None and stamp_is_current(read_stamp(base.with_suffix(".json")), key)


class Worker:
    """Runs the tasks a worker is given; each solver's module is imported and its ``prepare()``
    run on the first task of that solver (``family/name``). Plugin files are imported at once:
    one that fails to load here (a Dask worker without it) stops the sweep with its error."""

    def __init__(self, plugins: list[str], cores: int):
        from bench.plan.registry import load_plugins

        load_plugins(plugins)
        self.plugins = plugins
        self.cores = cores
        self.specs: dict[str, Any] = {}
        self.prepared: set[str] = set()
        self.prepared_ahead: dict[str, float] = {}  # seconds, for each one's first run's row
        self.chunk_sizes: dict[str, int] = {}  # per solver: the next block's first chunk

    def solver(self, key: str) -> Any:
        """The solver ``key``, its declaring module imported on first use."""
        if key not in self.specs:
            from bench.plan.registry import load_solver

            self.specs[key] = load_solver(key, self.plugins)
        return self.specs[key]

    def prepare(self, spec: Any, notify: Notify) -> float:
        """``prepare()`` once per worker and solver (see :func:`prepare_once`); its seconds:
        those of the preparation, at the solver's first run (or, once, where it was prepared
        ahead: :meth:`prepare_ahead`), else 0."""
        if spec.key in self.prepared:
            return self.prepared_ahead.pop(spec.key, 0.0)
        seconds = prepare_once(spec, notify) if spec.prepare is not None else 0.0
        self.prepared.add(spec.key)
        return seconds

    def prepare_ahead(self, keys: list[str], pending: Callable[[], bool]) -> None:
        """Prepare the solvers ``keys`` before a run asks for them (a worker started while its
        sweep is planned: bench/execute/early.py), in order, until ``pending()`` says a
        message waits: each whose preparation loads what an earlier one compiled on this
        machine (:func:`prepare_loads`); a first compilation is left to the solver's first
        run, which tells the parent it compiles. A solver that does not load, or whose
        ``prepare()`` fails, is left to its first run (which then says why). The seconds
        are its first run's ``t_prepare``."""
        for key in keys:
            if pending():
                return
            try:
                spec = self.solver(key)
                if spec.key in self.prepared or spec.prepare is None or not prepare_loads(spec):
                    continue
                seconds = prepare_once(spec, lambda message: None)
            except Exception:  # noqa: BLE001 - the first run prepares again and reports it
                continue
            self.prepared.add(spec.key)
            self.prepared_ahead[spec.key] = seconds

    def run(self, task: dict[str, Any], send: Notify) -> dict[str, Any]:
        spec = self.solver(task["solver"])
        t_prepare = self.prepare(spec, lambda message: send({**message, "id": task["id"]}))
        module = instances.family(spec.family)
        instance = module.instance_from_json(task["instance"])
        limit_threads(task["cores"])
        # with a control group the kernel holds the memory limit (bench/execute/cgroups.py);
        # the address-space backstop would only break programs that reserve much and use little
        as_limit_mb = None if task.get("kernel_memory") else set_memory_backstop(task["mem_mb"])
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
            result.update(kind="memout", message="MemoryError: an allocation was refused (the "
                          "address-space backstop, or more than the machine can give)")
        except Exception as exc:
            tail = "".join(traceback.format_exception(exc)[-3:])
            result.update(kind="error", message=f"{type(exc).__name__}: {exc}\n{tail}"[:4000])
        else:
            result.update(kind="outcome", **described.describe(outcome, instance))
        result["t_wall"] = time.monotonic() - start
        result["t_cpu"] = cpu_seconds() - cpu0
        result["peak_rss_mb"] = peak_rss_mb()
        left = end_own_descendants()
        if left:
            note = f"the run left {left} process(es) running; killed when it ended"
            result["message"] = f"{result['message']}; {note}" if result.get("message") else note
        return result

    def run_block(self, task: dict[str, Any], send: Notify) -> None:
        """A block: its instances solved in chunks, each chunk's results sent as they come.

        Before each chunk the worker says ``{"op": "chunk", "start": i, "n": k}`` (the
        watchdog gives it ``k`` budgets), after it ``{"op": "rows", ...}`` with the chunk's
        columns (bench/execute/described.py: one value per instance of its claim, answer,
        own time, counters), so that a kill loses only the
        chunk in flight. A solver with a batch entry (``spec.batch``) gets each chunk in one
        call, chunks sized from its rate to last about ``BLOCK_CHUNK_S``; one without is called
        per instance, each a chunk of one with a budget of its own. The last message is the
        block's ``result`` (its wall time), sent in one write with the last chunk's rows
        (``send(rows, result)``), so that the parent reads the two together and gives the
        worker its next block before it makes those rows; returns None."""
        spec = self.solver(task["solver"])
        t_prepare = self.prepare(spec, lambda message: send({**message, "id": task["id"]}))
        family = instances.family(spec.family)
        items = family.instances_from_json(task["block"]["instances"])
        stamp("instances")
        limit_threads(task["cores"])
        as_limit_mb = None if task.get("kernel_memory") else set_memory_backstop(task["mem_mb"])
        reset_peak_rss()
        send({"op": "started", "id": task["id"], "t_prepare": t_prepare,
              "as_limit_mb": as_limit_mb})
        per_s, params = task["budget_s"], task["params"]
        start, done, size = time.monotonic(), 0, self.chunk_sizes.get(task["solver"], 1)
        rows = None
        while done < len(items):
            chunk = items[done:done + (size if spec.batch else 1)]
            send({"op": "chunk", "id": task["id"], "start": done, "n": len(chunk)})
            cpu0, t0 = cpu_seconds(), time.monotonic()
            stamp("chunk<")
            columns = self._chunk(spec, chunk, per_s, task, params)
            stamp("chunk>")
            wall = time.monotonic() - t0
            rows = {"op": "rows", "id": task["id"], "start": done, "columns": columns,
                    "chunk_wall": wall, "chunk_cpu": cpu_seconds() - cpu0,
                    "block_wall": time.monotonic() - start, "peak_rss_mb": peak_rss_mb()}
            done += len(chunk)
            if done < len(items):
                send(rows)
            if spec.batch:
                rate = len(chunk) / max(wall, 1e-6)
                size = max(1, min(BLOCK_CHUNK_MAX, 2 * size, int(rate * BLOCK_CHUNK_S)))
                self.chunk_sizes[task["solver"]] = size
        left = end_own_descendants()
        result = {"op": "result", "id": task["id"], "kind": "block", "t_prepare": t_prepare,
                  "t_wall": time.monotonic() - start, "peak_rss_mb": peak_rss_mb()}
        if left:
            result["message"] = f"the block left {left} process(es) running; killed when it ended"
        stamp("send<")
        send(*([rows] if rows is not None else []), result)
        stamp("send>")
        return None

    def _chunk(self, spec: Any, chunk: list[Any], per_s: float, task: dict[str, Any],
               params: dict[str, Any]) -> dict[str, list[Any]]:
        """The columns of one chunk (bench/execute/described.py): the batch entry's outcomes,
        or one ``solve`` call's."""
        from bench.api import Budget, Outcomes

        mem, cores, seed = task["mem_mb"], task["cores"], task["seed"]
        t0, cpu0 = time.monotonic(), cpu_seconds()
        try:
            if spec.batch:
                budget = Budget(per_s, mem, cores, t0 + per_s * len(chunk))
                got = spec.batch(chunk, budget, seed, **params)
                outcomes = got if isinstance(got, Outcomes) else list(got)
                if len(outcomes) != len(chunk):
                    raise TypeError(f"the batch entry returned {len(outcomes)} outcomes for "
                                    f"{len(chunk)} instances")
            else:
                outcomes = [spec.solve(chunk[0], Budget(per_s, mem, cores, t0 + per_s), seed,
                                       **params)]
        except MemoryError:
            return described.failed_columns("memout", "MemoryError: an allocation was refused",
                                             len(chunk))
        except Exception as exc:
            tail = "".join(traceback.format_exception(exc)[-3:])
            message = f"{type(exc).__name__}: {exc}\n{tail}"[:4000]
            return described.failed_columns("error", message, len(chunk))
        wall, cpu = time.monotonic() - t0, cpu_seconds() - cpu0
        if isinstance(outcomes, Outcomes):
            columns = described.outcomes_columns(outcomes, len(chunk))
        else:
            columns = described.outcome_list_columns(outcomes, chunk)
        return described.chunk_columns(columns, wall, cpu)


def readable(inbox: Any) -> bool:
    """Whether the parent has written something this worker has not read yet, in the pipe or
    already in ``inbox``'s buffer (a buffered reader of the pipe; a look, no wait: the buffer
    is peeked at with the pipe made non-blocking for that moment)."""
    if select.select([inbox], [], [], 0)[0]:
        return True
    fd = inbox.fileno()
    os.set_blocking(fd, False)
    try:
        return bool(inbox.peek(1))
    except BlockingIOError:
        return False
    finally:
        os.set_blocking(fd, True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.execute.worker")
    parser.add_argument("--read-fd", type=int, required=True)
    parser.add_argument("--write-fd", type=int, required=True)
    parser.add_argument("--parent", type=int, default=None,
                        help="pid to die with (default: the parent, bench.execute.guard)")
    parser.add_argument("--cpus", default="")
    parser.add_argument("--plugin", action="append", default=[])
    args = parser.parse_args(argv)
    die_with_parent(signal.SIGKILL, watch=os.getppid() if args.parent is None else args.parent)
    become_subreaper()
    cpus = [int(c) for c in args.cpus.split(",") if c]
    if cpus and hasattr(os, "sched_setaffinity"):
        try:
            os.sched_setaffinity(0, cpus)
        except OSError:
            pass
    inbox = os.fdopen(args.read_fd, "rb")  # lines of UTF-8 JSON, read as bytes (wire.decode)
    outbox = os.fdopen(args.write_fd, "wb")

    def send(*messages: dict[str, Any]) -> None:
        outbox.write(b"".join(map(wire.encode, messages)))
        outbox.flush()

    try:
        worker = Worker(args.plugin, max(1, len(cpus)))
    except Exception as exc:
        send({"op": "fatal", "message": f"{type(exc).__name__}: {exc}"})
        return
    send({"op": "ready", "pid": os.getpid()})
    set_role("worker")
    for line in inbox:
        stamp("line")
        message = wire.decode(line)
        if message.get("op") == "exit":
            break
        if message.get("op") == "prepare":  # what the sweep will run first, while it is planned
            worker.prepare_ahead(message.get("solvers", []), lambda: readable(inbox))
            stamp("prepared")
            continue
        try:
            if "block" in message["task"]:
                worker.run_block(message["task"], send)
            else:
                send(worker.run(message["task"], send))
        except Exception as exc:  # a bug outside the solver: report it, stay alive
            send({"op": "result", "id": message["task"]["id"], "kind": "error",
                  "message": f"worker: {type(exc).__name__}: {exc}"})
    end_own_descendants()
    exit_unfreed(0)  # told to stop, every result sent: the sweep waits for this process's end


if __name__ == "__main__":
    main()
