"""A sweep from start to end: suite -> run grid -> runner -> journal -> table, manifest, report.

Also ``solve_one``: a single run through the same runner and checker (``cliffbench solve``).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from bench.api import ParamError
from bench.journal import Journal
from bench.registry import load_solvers
from bench.runner import LadderScheduler, Runner, available_cpus
from bench.specs import InstanceRef
from bench.store import JOURNAL, compact, environment, now, write_manifest
from bench.suite import (
    SolverConfig,
    Suite,
    SuiteError,
    Task,
    build_tasks,
    load_suite,
    run_key,
    solver_configs,
    specs_named,
)


def prepare_sweep(suite_name: str, *, solvers: list[str] | None = None,
                  timeout: float | None = None, mem: int | None = None,
                  params: dict[str, str] | None = None, data_dir: str | Path | None = None,
                  plugins: list[str] | tuple[str, ...] = ()) -> tuple[Suite, list[Task]]:
    """Load the suite, apply the command line's overrides, and expand the run grid. Plugins the
    suite names (``plugins = [...]``) are loaded with those of the command line."""
    suite = load_suite(suite_name, data_dir)
    registry = load_solvers([*plugins, *suite.plugins])
    if timeout is not None:
        suite.timeout = float(timeout)
    if mem is not None:
        suite.mem = int(mem)
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
        configs = solver_configs(entries, registry, params, families)
    except ParamError as exc:  # a [[solver]] table's params (or --param): name the suite file
        given = " (or --param)" if params else ""
        raise SuiteError(f"{suite.path}{given}: {exc}") from None
    tasks, seen = [], set()
    for task in build_tasks(suite, configs):
        if task.key not in seen:
            seen.add(task.key)
            tasks.append(task)
    return suite, tasks


class Progress:
    """A live bar (rich) with counts per status, elapsed and remaining; quiet off a terminal."""

    def __init__(self, total: int, done: int, enabled: bool):
        self.counts: Counter[str] = Counter()
        self.enabled = enabled
        self.bar = None
        if enabled:
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )
            from rich.progress import (
                Progress as RichProgress,
            )

            self.bar = RichProgress(TextColumn("[bold]{task.description}"), BarColumn(),
                                    MofNCompleteColumn(), TimeElapsedColumn(),
                                    TimeRemainingColumn(), TextColumn("{task.fields[counts]}"),
                                    transient=False)
            self.bar.start()
            self.task = self.bar.add_task("runs", total=total, completed=done, counts="")

    def update(self, row: dict[str, Any]) -> None:
        self.counts[row["status"]] += 1
        if self.bar is not None:
            text = " ".join(f"{k}:{v}" for k, v in sorted(self.counts.items()))
            self.bar.update(self.task, advance=1, counts=text)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def run_sweep(suite_name: str, *, solvers: list[str] | None = None,
              timeout: float | None = None, mem: int | None = None, jobs: int | None = None,
              resume: bool = False, overwrite: bool = False, data_dir: str | Path | None = None,
              plugins: list[str] | tuple[str, ...] = (), params: dict[str, str] | None = None,
              results: str | Path = "results", name: str | None = None,
              progress: bool | None = None, argv: list[str] | None = None,
              executor: str = "local", scheduler: str | None = None) -> Path:
    """Run a suite into ``results/<name>/`` and return that folder.

    ``executor``: ``local`` (worker processes of this machine), ``dask-local`` (a Dask
    LocalCluster of ``jobs`` workers: the Dask path, on one machine) or ``dask`` (the cluster
    whose scheduler is at ``scheduler``)."""
    if executor not in EXECUTORS:
        raise SuiteError(f"unknown executor {executor!r} (known: {', '.join(EXECUTORS)})")
    if (executor == "dask") != (scheduler is not None):
        raise SuiteError("--scheduler ADDRESS goes with --executor dask, and only with it")
    suite, tasks = prepare_sweep(suite_name, solvers=solvers, timeout=timeout, mem=mem,
                                 params=params, data_dir=data_dir, plugins=plugins)
    sweep = name or suite.name
    plugins = [*plugins, *suite.plugins]
    with sweep_lock(Path(results), sweep):
        return _run_locked(suite, tasks, sweep, Path(results) / sweep, jobs=jobs,
                           resume=resume, overwrite=overwrite, plugins=plugins, progress=progress,
                           argv=argv, executor=executor, scheduler=scheduler)


EXECUTORS = ("local", "dask-local", "dask")


@contextlib.contextmanager
def executor_for(executor: str, scheduler: str | None, jobs: int, cores: int,
                 plugins: list[str] | tuple[str, ...], log_dir: Path) -> Iterator[Any]:
    """The runner of an executor (local or Dask), with its cluster client closed at the end."""
    if executor == "local":
        yield Runner(jobs=jobs, cores=cores, plugins=plugins, log_dir=log_dir)
        return
    from bench.dask_executor import DaskRunner, connect, local_cluster, require_dask

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


@contextlib.contextmanager
def sweep_lock(results: Path, sweep: str) -> Iterator[None]:
    """Hold ``results/.<sweep>.lock`` while a sweep runs: a second ``cliffbench run`` of the
    same sweep (a ``--resume`` while the first still runs) would run every pending task a
    second time, on the same cores, and journal it twice. The lock is the kernel's (flock):
    it goes with the process, however that ends."""
    results.mkdir(parents=True, exist_ok=True)
    path = results / f".{sweep}.lock"
    with open(path, "a+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "?"
            raise SuiteError(f"{results / sweep} is being run by another cliffbench (pid "
                             f"{holder}): wait for it to end, or stop it, before running it "
                             "again") from None
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _run_locked(suite: Suite, tasks: list[Task], sweep: str, directory: Path, *,
                jobs: int | None, resume: bool, overwrite: bool,
                plugins: list[str] | tuple[str, ...], progress: bool | None,
                argv: list[str] | None, executor: str = "local",
                scheduler: str | None = None) -> Path:
    journal = Journal(directory / JOURNAL)
    if journal.path.exists() and not resume:
        if not overwrite:
            raise SuiteError(f"{directory} already holds a sweep: pass --resume to continue it "
                             "or --overwrite to start again")
        shutil.rmtree(directory)
    done = {row["key"]: row for row in journal.read()}
    jobs = jobs or suite.jobs or max(1, len(available_cpus()) // suite.cores)
    started = now()
    manifest = {"sweep": sweep, "command": argv or sys.argv, "suite": suite.path,
                "suite_sha256": suite.sha256, "suite_name": suite.name, "executor": executor,
                "scheduler": scheduler,
                "jobs": None if executor == "dask" else jobs,  # a cluster: its worker threads
                "cores_per_run": suite.cores, "budget_s": suite.timeout,
                "budget_mb": suite.mem, "plugins": [str(p) for p in plugins],
                "runs_planned": len(tasks), "started_at": started, "ended_at": None,
                **environment()}
    previous = directory / "manifest.json"
    if resume and previous.exists():
        first = json.loads(previous.read_text())
        manifest["started_at"] = first.get("started_at", started)
        manifest["resumed_at"] = [*first.get("resumed_at", []), started]
    write_manifest(directory, manifest)
    todo = [t for t in tasks if t.key not in done]
    bar = Progress(len(tasks), len(tasks) - len(todo),
                   sys.stderr.isatty() if progress is None else progress)

    def record(row: dict[str, Any]) -> None:
        journal.append(row)
        bar.update(row)

    try:
        with executor_for(executor, scheduler, jobs, suite.cores, plugins,
                          directory / "workers") as runner:
            runner.run(LadderScheduler(tasks, done, suite.abort_fraction), sweep, record)
    finally:
        bar.close()
        journal.close()
        compact(directory)
        manifest["ended_at"] = now()
        write_manifest(directory, manifest)
    return directory


def solve_one(ref: InstanceRef, solver: str, *, timeout: float = 60.0, mem: int = 4000,
              cores: int = 1, seed: int = 1, params: dict[str, Any] | None = None,
              plugins: list[str] | tuple[str, ...] = ()) -> dict[str, Any]:
    """One run of ``solver`` on ``ref`` through a one-worker runner; returns its row."""
    registry = load_solvers(plugins)
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
    runner = Runner(jobs=1, cores=cores, plugins=plugins)
    runner.run(LadderScheduler([task], {}), "solve", rows.append)
    return rows[0]


__all__ = ["SolverConfig", "prepare_sweep", "run_sweep", "solve_one"]
