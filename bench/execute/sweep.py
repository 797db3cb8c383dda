"""A sweep from start to end: suite -> run grid -> runner -> journal -> table, manifest, report.

Also ``solve_one``: a single run through the same runner and checker (``cliffbench solve``).
"""

from __future__ import annotations

import contextlib
import gc
import json
import math
import shutil
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from bench.api import ParamError
from bench.execute.blocks import ChunkRows
from bench.execute.early import workers_started_early
from bench.execute.lock import keep_lock_until, sweep_lock
from bench.execute.runner import LadderScheduler, Runner, available_cpus
from bench.plan.registry import RegistryError, load_for_names, load_named
from bench.plan.specs import InstanceRef
from bench.plan.suite import (
    MAX_REPEATS,
    SolverConfig,
    Suite,
    SuiteError,
    Task,
    build_tasks,
    checked_override,
    load_suite,
    run_key,
    solver_configs,
    specs_named,
)
from bench.table.ahead import TableAhead
from bench.table.journal import Journal
from bench.table.store import (
    JOURNAL,
    compact,
    environment,
    now,
    write_manifest,
    writes_pending,
)


def prepare_sweep(suite_name: str, *, solvers: list[str] | None = None,
                  timeout: float | None = None, mem: int | None = None,
                  repeats: int | None = None, params: dict[str, str] | None = None,
                  data_dir: str | Path | None = None,
                  plugins: list[str] | tuple[str, ...] = ()) -> tuple[Suite, list[Task]]:
    """Load the suite, apply the command line's overrides (each a finite number above zero,
    checked before anything runs), and expand the run grid. Plugins the suite names
    (``plugins = [...]``) are loaded with those of the command line."""
    timeout = checked_override("timeout", timeout, float)
    mem = checked_override("mem", mem, int)
    repeats = checked_override("repeats", repeats, int)
    if repeats is not None and repeats > MAX_REPEATS:
        raise SuiteError(f"repeats must be at most {MAX_REPEATS}, got {repeats}")
    with collection_paused():
        return _prepare(suite_name, timeout, mem, repeats, solvers, params, data_dir, plugins)


def _prepare(suite_name: str, timeout: float | None, mem: int | None, repeats: int | None,
             solvers: list[str] | None, params: dict[str, str] | None,
             data_dir: str | Path | None, plugins: list[str] | tuple[str, ...]
             ) -> tuple[Suite, list[Task]]:
    """:func:`prepare_sweep` once its overrides are checked."""
    suite = load_suite(suite_name, data_dir)
    if timeout is not None:
        suite.timeout = timeout
    if mem is not None:
        suite.mem = mem
    if repeats is not None:
        suite.repeats = repeats
    entries = suite.solvers
    if solvers:
        named = {e["name"] for e in entries}
        entries = [e for e in entries if e["name"] in solvers]
        entries += [{"name": s} for s in solvers if s not in named]
    if not entries:
        raise SuiteError(f"{suite.path}: no solver to run (give [[solver]] or --solvers)")
    families = {ref.family for ladder in suite.ladders for rung in ladder.rungs
                for ref in rung.refs}
    try:
        registry = load_for_names([e["name"] for e in entries], [*plugins, *suite.plugins],
                                  families)
    except RegistryError as exc:  # a name that means no solver: name the suite file
        raise SuiteError(f"{suite.path}: {exc}") from None
    try:
        configs = solver_configs(entries, registry, params, families)
    except ParamError as exc:  # a [[solver]] table's params (or --param): name the suite file
        given = " (or --param)" if params else ""
        raise SuiteError(f"{suite.path}{given}: {exc}") from None
    return suite, build_tasks(suite, configs)


@contextlib.contextmanager
def collection_paused(frozen: bool = False) -> Iterator[None]:
    """No cyclic garbage collection inside (reference counting still frees), and where
    ``frozen`` (a sweep's plan, which it keeps to its end) what is alive at the end left out
    of later collections until :func:`plan_released`: planning makes a few objects per run
    and no cycles, and each collection would walk every object made so far, tens of thousands
    of runs' worth in a big grid, for as long as the sweep lasts. Not frozen (a plan made
    alone, by :func:`prepare_sweep`), the next collection walks the plan once, as it would
    any objects."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
        if frozen:
            gc.freeze()
    finally:
        if was:
            gc.enable()


def kept_out_of_collections() -> None:
    """What is alive now left out of later cyclic collections, until :func:`plan_released`:
    after a block's chunk is journaled, that is its rows (kept by the journal for the
    compaction, thousands of lists and texts a chunk) and the runner's state, which would
    otherwise be walked again by every collection for the rest of the sweep."""
    gc.freeze()


@contextlib.contextmanager
def plan_released() -> Iterator[None]:
    """At the end, the objects :func:`collection_paused` left out are collected as usual
    again."""
    try:
        yield
    finally:
        gc.unfreeze()


#: Off a terminal, a progress line is printed at least this often (seconds) ...
LINE_INTERVAL_S = 30.0
#: ... and each time another such fraction of the runs is done.
LINE_STEP = 0.05


def duration(seconds: float) -> str:
    """``under 1 s``, ``45 s``, ``2 min 05 s``, ``1 h 02 min``."""
    seconds = max(0, round(seconds))
    if seconds < 1:
        return "under 1 s"
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


def status_counts(counts: Counter[str]) -> str:
    """``solved 40, timeout 3``: the statuses, most frequent first."""
    return ", ".join(f"{status} {n}" for status, n in counts.most_common())


def progress_mode(progress: bool | None) -> str:
    """``bar`` on a terminal (or when asked), ``lines`` off one, ``quiet`` when turned off."""
    if progress is None:
        return "bar" if sys.stderr.isatty() else "lines"
    return "bar" if progress else "quiet"


def noted_bar() -> type:
    """rich's Progress with a line under the bar for each note (what the workers compile)."""
    from rich.progress import Progress as RichProgress
    from rich.text import Text

    class NotedBar(RichProgress):
        notes: list[str] = []

        def get_renderables(self):
            yield self.make_tasks_table(self.tasks)
            for note in self.notes:
                yield Text(note, style="yellow")

    return NotedBar


class Progress:
    """What a sweep shows on stderr while it runs: runs done of the total, counts per status,
    the time left, and what the workers are compiling.

    ``mode`` ``bar`` is a live rich bar; ``lines`` (off a terminal: a log, a CI job) prints a
    plain flushed line when the sweep starts, at least every ``LINE_INTERVAL_S`` seconds (a
    thread's clock, so a long compilation still gets its lines), each time another
    ``LINE_STEP`` of the runs is done, as soon as a worker starts a first-run compilation, and
    at the end; ``quiet`` prints nothing. A resumed sweep first says how many runs are already
    done and how many remain (``up_to``: "up to" that many, when an adaptive ladder may stop
    early: bench/execute/adaptive.py). The time left is estimated from run times only, preparation
    (numba compilation) left out: the mean ``t_wall`` of the runs that ran (resumed ones
    included) times the runs left, over the runs the executor holds at once (``workers``; None
    until a Dask cluster says, counted as 1); while a worker is compiling the line says the
    estimate is of runs only ("about 5 s of runs left, plus compiling")."""

    def __init__(self, name: str, total: int, done_rows: list[dict[str, Any]],
                 workers: int | None, mode: str, stream: Any = None,
                 clock: Callable[[], float] = time.monotonic, up_to: bool = False):
        self.name, self.total, self.workers, self.mode = name, total, workers, mode
        self.up_to = "up to " if up_to else ""
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock
        self.counts: Counter[str] = Counter()
        self.done, self.run_seconds, self.timed = 0, 0.0, 0
        for row in done_rows:
            self._count(row)
        self.notes: list[str] = []
        self.shown_notes: set[str] = set()
        self.started = self.last_line = clock()
        self.last_text = ""
        self.step = max(1, math.ceil(total * LINE_STEP))
        self.next_step = (self.done // self.step + 1) * self.step
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.bar = self.ticker = None
        if mode != "quiet":
            self.say(self.opening())
        if mode == "bar":
            self._start_bar()
        elif mode == "lines":
            self.ticker = threading.Thread(target=self._tick, daemon=True)
            self.ticker.start()

    def _count(self, row: dict[str, Any]) -> None:
        self._count_runs([row["status"]], [row.get("t_wall")])

    def _count_runs(self, statuses: list[str], walls: list[float | None]) -> None:
        self.counts.update(statuses)
        self.done += len(statuses)
        for status, wall in zip(statuses, walls, strict=True):
            if status != "skipped":
                self.run_seconds += float(wall or 0.0)
                self.timed += 1

    def opening(self) -> str:
        """The first line: the runs to make, and on a resume how many are already done."""
        left = self.total - self.done
        if self.done:
            return (f"{self.name}: resuming: {self.done} of {self.up_to}{self.total} runs "
                    f"already done, {self.up_to}{left} to run")
        where = f" on {self.workers} worker(s)" if self.workers else ""
        return f"{self.name}: {self.up_to}{self.total} runs{where}"

    def eta(self) -> float | None:
        """Seconds left by the run times so far (None before any run ended)."""
        if not self.timed:
            return None
        return (self.total - self.done) * (self.run_seconds / self.timed) / (self.workers or 1)

    def eta_text(self) -> str:
        """The estimate in words; while a worker compiles, said to exclude the compilation
        (which the run times cannot foresee)."""
        left = self.eta()
        if left is None:
            return "time left unknown"
        text = "under 1 s" if left < 0.5 else f"about {duration(left)}"
        return f"{text} of runs left, plus compiling" if self.notes else f"{text} left"

    def line(self) -> str:
        """One plain progress line."""
        share = 100 * self.done / self.total if self.total else 100.0
        parts = [f"{self.name}: {self.done}/{self.up_to}{self.total} runs ({share:.0f}%), "
                 f"{duration(self.clock() - self.started)} elapsed"]
        if self.counts:
            parts.append(status_counts(self.counts))
        if self.done < self.total:
            parts.append(self.eta_text())
        parts.extend(self.notes)
        return " | ".join(parts)

    def say(self, text: str) -> None:
        print(text, file=self.stream, flush=True)
        self.last_line, self.last_text = self.clock(), text

    def update(self, row: dict[str, Any]) -> None:
        """A run ended (or was skipped)."""
        with self.lock:
            self._count(row)
            if self.mode == "lines" and self.done >= self.next_step:
                self.next_step = (self.done // self.step + 1) * self.step
                self.say(self.line())
            self._refresh_bar(advance=1)

    def update_many(self, statuses: list[str], walls: list[float | None]) -> None:
        """Runs of a block's chunk ended, with these statuses and times."""
        with self.lock:
            self._count_runs(statuses, walls)
            if self.mode == "lines" and self.done >= self.next_step:
                self.next_step = (self.done // self.step + 1) * self.step
                self.say(self.line())
            self._refresh_bar(advance=len(statuses))

    def note(self, notes: list[str]) -> None:
        """What the workers are doing before their runs start (first-run compilations)."""
        with self.lock:
            self.notes = list(notes)
            fresh = set(notes) - self.shown_notes
            self.shown_notes |= fresh
            if self.mode == "lines" and fresh:
                self.say(self.line())
            self._refresh_bar()

    def tick(self) -> None:
        """Print a line if none was printed for ``LINE_INTERVAL_S`` seconds (lines mode)."""
        with self.lock:
            if self.clock() - self.last_line >= LINE_INTERVAL_S:
                self.say(self.line())

    def _tick(self) -> None:
        while not self.stop.wait(min(1.0, LINE_INTERVAL_S / 4)):
            self.tick()

    def _start_bar(self) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

        self.bar = noted_bar()(TextColumn("[bold]{task.description}"), BarColumn(bar_width=30),
                               MofNCompleteColumn(), TimeElapsedColumn(),
                               TextColumn("{task.fields[eta]}"),
                               TextColumn("{task.fields[counts]}"),
                               console=Console(file=self.stream), transient=False)
        self.bar.start()
        self.task = self.bar.add_task(self.name, total=self.total, completed=self.done,
                                      eta="", counts=status_counts(self.counts))

    def _refresh_bar(self, advance: int = 0) -> None:
        if self.bar is not None:
            eta = self.eta_text() if self.done < self.total else ""
            self.bar.notes = list(self.notes)
            self.bar.update(self.task, advance=advance, counts=status_counts(self.counts),
                            eta=eta)

    def close(self) -> None:
        """Stop the bar or the ticker; off a terminal, a last line."""
        self.stop.set()
        if self.ticker is not None:
            self.ticker.join()
        with self.lock:
            if self.bar is not None:
                self.bar.stop()
            self.notes = []
            if self.mode == "lines" and self.line() != self.last_text:
                self.say(self.line())


def run_sweep(suite_name: str, *, solvers: list[str] | None = None,
              timeout: float | None = None, mem: int | None = None, jobs: int | None = None,
              repeats: int | None = None, resume: bool = False, overwrite: bool = False,
              data_dir: str | Path | None = None,
              plugins: list[str] | tuple[str, ...] = (), params: dict[str, str] | None = None,
              results: str | Path = "results", name: str | None = None,
              progress: bool | None = None, argv: list[str] | None = None,
              executor: str = "local", scheduler: str | None = None,
              held: list[Any] | None = None, table_in_background: bool = False) -> Path:
    """Run a suite into ``results/<name>/`` and return that folder.

    ``executor``: ``local`` (worker processes of this machine), ``dask-local`` (a Dask
    LocalCluster of ``jobs`` workers: the Dask path, on one machine) or ``dask`` (the cluster
    whose scheduler is at ``scheduler``). ``held``: where the sweep's plan and journal (with
    the rows it kept) are put to stay alive after it returns, for a program that ends without
    freeing them (bench/execute/ending.py's ``exit_unfreed``). ``table_in_background``: return
    once the table is made, its file finished by a thread (bench/table/store.py's ``compact``;
    ``load`` takes the table from memory meanwhile, ``finish_writing`` waits for the file),
    the sweep's lock held until it is in place."""
    if executor not in EXECUTORS:
        raise SuiteError(f"unknown executor {executor!r} (known: {', '.join(EXECUTORS)})")
    if (executor == "dask") != (scheduler is not None):
        raise SuiteError("--scheduler ADDRESS goes with --executor dask, and only with it")
    jobs = checked_override("jobs", jobs, int)
    with workers_started_early(suite_name, jobs=jobs, plugins=list(plugins),
                               results=Path(results), name=name, resume=resume,
                               executor=executor, solvers=solvers,
                               data_dir=data_dir, overwrite=overwrite) as early:
        with collection_paused(frozen=True):  # the plan is kept to the sweep's end
            suite, tasks = prepare_sweep(suite_name, solvers=solvers, timeout=timeout,
                                         mem=mem, repeats=repeats, params=params,
                                         data_dir=data_dir, plugins=plugins)
        if held is not None:
            held.append(tasks)
        with plan_released():
            blocked = [ladder.name for ladder in suite.ladders if ladder.block]
            if blocked and executor != "local":
                raise SuiteError(f"{suite.path}: ladder {blocked[0]!r} declares 'block': block "
                                 f"runs need the local executor, not {executor}")
            sweep = name or suite.name
            plugins = [*plugins, *suite.plugins]
            # whatever happens now, the sweep's folder is kept (and what it overwrites gone)
            started = early.begin(sweep) if early is not None else None
            # an early start holds the sweep's lock already
            with sweep_lock(Path(results), sweep) if started is None else contextlib.nullcontext():
                return _run_locked(suite, tasks, sweep, Path(results) / sweep, jobs=jobs,
                                   resume=resume, overwrite=overwrite, plugins=plugins,
                                   progress=progress, argv=argv, executor=executor,
                                   scheduler=scheduler, early_runner=started, held=held,
                                   table_in_background=table_in_background)


EXECUTORS = ("local", "dask-local", "dask")


@contextlib.contextmanager
def executor_for(executor: str, scheduler: str | None, jobs: int, cores: int,
                 plugins: list[str] | tuple[str, ...], log_dir: Path,
                 started: Runner | None = None) -> Iterator[Any]:
    """The runner of an executor (local or Dask), with its cluster client closed at the end.
    ``started``: a local runner whose workers started while the sweep was planned
    (bench/execute/early.py), used where it is the one this sweep needs, else stopped."""
    if executor == "local":
        if started is not None and started.serves(jobs, cores, plugins, log_dir):
            yield started
            return
        if started is not None:
            started.stop()
        yield Runner(jobs=jobs, cores=cores, plugins=plugins, log_dir=log_dir)
        return
    from bench.execute.dask_executor import DaskRunner, connect, local_cluster, require_dask

    require_dask()
    if executor == "dask-local":
        if jobs * cores > len(available_cpus()):
            raise SuiteError(f"{jobs} jobs x {cores} cores is more than this machine's "
                             f"{len(available_cpus())} cores: lower --jobs")
        client = local_cluster(jobs)
    else:
        client = connect(scheduler)
    try:
        yield DaskRunner(client, plugins, log_dir, pin=executor == "dask-local",
                         executor=executor)
    finally:
        cluster = getattr(client, "cluster", None) if executor == "dask-local" else None
        client.close()
        if cluster is not None:
            cluster.close()


def _run_locked(suite: Suite, tasks: list[Task], sweep: str, directory: Path, *,
                jobs: int | None, resume: bool, overwrite: bool,
                plugins: list[str] | tuple[str, ...], progress: bool | None,
                argv: list[str] | None, executor: str = "local",
                scheduler: str | None = None, early_runner: Runner | None = None,
                held: list[Any] | None = None, table_in_background: bool = False) -> Path:
    journal = Journal(directory / JOURNAL)
    if held is not None:
        held.append(journal)
    if journal.path.exists() and not resume:
        if not overwrite:
            raise SuiteError(f"{directory} already holds a sweep: pass --resume to continue it "
                             "or --overwrite to start again")
        shutil.rmtree(directory)
    done = {row["key"]: row for row in journal.read()}
    jobs = jobs or suite.jobs or max(1, len(available_cpus()) // suite.cores)
    started = now()
    adaptive = {ladder.name: ladder.adaptive for ladder in suite.ladders if ladder.adaptive}
    # the order runs are given out in (``scheduler`` is a Dask scheduler's address)
    order = LadderScheduler(tasks, done, suite.abort_fraction, adaptive)
    planned, up_to = order.planned()
    manifest = {"sweep": sweep, "command": argv or sys.argv, "suite": suite.path,
                "suite_sha256": suite.sha256, "suite_name": suite.name, "executor": executor,
                "scheduler": scheduler,
                "jobs": None if executor == "dask" else jobs,  # a cluster: its worker threads
                "cores_per_run": suite.cores, "budget_s": suite.timeout,
                "budget_mb": suite.mem, "plugins": [str(p) for p in plugins],
                "runs_planned": planned, "runs_planned_up_to": up_to,
                "started_at": started, "ended_at": None,
                **environment()}
    previous = directory / "manifest.json"
    if resume and previous.exists():
        first = json.loads(previous.read_text())
        manifest["started_at"] = first.get("started_at", started)
        manifest["resumed_at"] = [*first.get("resumed_at", []), started]
    write_manifest(directory, manifest)
    done_rows = [done[t.key] for t in tasks if t.key in done] if done else []
    bar = Progress(sweep, planned, done_rows, None if executor == "dask" else jobs,
                   progress_mode(progress), up_to=up_to)

    def record(row: dict[str, Any]) -> None:
        journal.append(row)
        bar.update(row)

    ahead = TableAhead(journal)  # the table's chunks converted while the sweep runs

    def record_chunk(chunk: ChunkRows) -> None:
        journal.append_columns(chunk.same, chunk.varying, len(chunk.tasks), later=True)
        bar.update_many(chunk.column("status"), chunk.column("t_wall"))
        kept_out_of_collections()

    try:
        with executor_for(executor, scheduler, jobs, suite.cores, plugins,
                          directory / "workers", early_runner) as runner:
            if executor == "dask":
                bar.workers = runner.capacity()
            if executor == "local":
                runner.run(order, sweep, record, bar.note, on_chunk=record_chunk,
                           on_idle=ahead.step)
            else:
                runner.run(order, sweep, record, bar.note)
    finally:
        bar.close()
        journal.close()
        compact(directory, journal, background=table_in_background, ahead=ahead)
        for writing in writes_pending():
            keep_lock_until(writing)
        if adaptive:
            manifest["adaptive"] = order.adaptive_summary()
        manifest["ended_at"] = now()
        write_manifest(directory, manifest)
    return directory


def solve_one(ref: InstanceRef, solver: str, *, timeout: float = 60.0, mem: int = 4000,
              cores: int = 1, seed: int = 1, params: dict[str, Any] | None = None,
              plugins: list[str] | tuple[str, ...] = ()) -> dict[str, Any]:
    """One run of ``solver`` on ``ref`` through a one-worker runner; returns its row. Only the
    modules declaring the solvers ``solver`` names are imported."""
    timeout = checked_override("timeout", timeout, float)
    mem = checked_override("mem", mem, int)
    cores = checked_override("cores", cores, int)
    registry = load_named(solver, plugins)
    specs = specs_named(solver, registry)
    if ref.family not in {s.family for s in specs}:
        raise SuiteError(f"solver {solver!r} is for {', '.join(s.family for s in specs)}, the "
                         f"instance is {ref.family}")
    (config,) = solver_configs([{"name": solver, "params": params or {}}], registry,
                               families={ref.family})
    if not config.spec.applies_to(ref.instance):
        raise SuiteError(f"solver {solver!r} does not take this kind of {ref.family} instance "
                         f"({type(ref.instance).__name__})")
    config = replace(config, label=config.name)
    key = run_key(config, ref.instance_id, 0, seed, timeout, mem, cores)
    task = Task(key, ref, config, 0, seed, float(timeout), int(mem), int(cores))
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="cliffbench-solve-") as log_dir:
        runner = Runner(jobs=1, cores=cores, plugins=plugins, log_dir=log_dir)
        runner.run(LadderScheduler([task], {}), "solve", rows.append)
    return rows[0]


__all__ = ["SolverConfig", "prepare_sweep", "run_sweep", "solve_one"]
