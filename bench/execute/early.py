"""A sweep's workers, started while the sweep is planned.

Planning a big sweep (reading its instance files, hashing every instance and run) keeps the
parent busy for a few microseconds a run, and a worker's start (an interpreter and its
imports) takes a fraction of a second. Started first, the workers boot while the parent
plans, not after it.

What a worker needs before it starts is in the command line and the suite file's head
(:func:`bench.plan.suite.suite_head`: the sweep's name, ``jobs``, ``cores``, plugins); its
log goes to the sweep's ``workers/`` folder, so the sweep's lock is taken first. A sweep that
``--overwrite`` replaces (a folder with a journal) is first set aside, renamed within
``results/`` under the lock (``.NAME.overwritten-PID``, where a kill of the command meanwhile
leaves it), and deleted once the new sweep is planned; if planning fails it is put back as it
was. Nothing starts early (the sweep then starts its workers when it gives out its first runs,
as without this) where the head does not read (the suite's full reading reports the error),
where the executor is not the local one, where the sweep's folder exists and the command
neither resumes nor overwrites it (the command is refused, or a folder without a journal is
run into), or where another cliffbench holds the sweep. If planning then fails, the workers
are stopped and the folders, lock file included, that the start made are removed: a bad suite
still leaves nothing behind, and what it would have overwritten is there again.

Booted, a worker would wait for its first run and only then prepare its solver (load its
compiled kernels: a good part of a second for a numba solver). It is told at once what the sweep
will run first instead (:func:`first_solvers`: the suite's solvers, in the families of its
ladders, in order, told from the suite file and the solver index without reading an instance),
and prepares those whose compiled code is cached while the parent plans, until its first run
comes (bench/execute/worker.py ``Worker.prepare_ahead``); each one's seconds are still its first
run's ``t_prepare``.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bench.execute.lock import sweep_lock
from bench.execute.runner import Runner, RunnerError, available_cpus
from bench.plan.suite import SuiteError, suite_first_runs, suite_head
from bench.table.store import JOURNAL


@dataclass
class EarlyStart:
    """Workers started before planning: the runner holding them, the sweep they are for,
    whether the sweep has begun to run (:meth:`begin`: from then on its folder holds its
    runs, and nothing of it is removed whatever happens), and where the sweep it overwrites
    was set aside (None: none)."""

    runner: Runner
    sweep: str
    begun: bool = False
    replaced: Path | None = None

    def begin(self, sweep: str) -> Runner | None:
        """The sweep ``sweep`` is planned and begins: the runner, where it is the one these
        workers were started for (the sweep it overwrites is then deleted); else None (its
        workers stopped, what it set aside put back: not this sweep's)."""
        self.begun = True
        if sweep == self.sweep:
            if self.replaced is not None:
                shutil.rmtree(self.replaced, ignore_errors=True)
                self.replaced = None
            return self.runner
        self.runner.stop()
        self._put_back()
        return None

    def _put_back(self) -> None:
        """The sweep set aside back in its folder (what the start made there removed)."""
        if self.replaced is not None:
            folder = self.replaced.parent / self.sweep
            shutil.rmtree(folder, ignore_errors=True)
            self.replaced.rename(folder)
            self.replaced = None


@contextlib.contextmanager
def workers_started_early(suite_name: str, *, jobs: int | None, plugins: list[str],
                          results: Path, name: str | None, resume: bool,
                          executor: str, solvers: list[str] | None = None,
                          data_dir: str | Path | None = None,
                          overwrite: bool = False) -> Iterator[EarlyStart | None]:
    """Within: the sweep's workers booting (its lock held), or None where nothing starts early
    (see the module's docstring). They are stopped on leaving (at a clean end the runner's
    ``run`` has stopped them), and where the sweep has not begun (its planning failed) what
    the start made is removed and what it set aside put back."""
    start = _plan_start(suite_name, jobs, plugins, results, name, resume, overwrite, executor)
    if start is None:
        yield None
        return
    runner, sweep, cores = start
    made = [folder for folder in (results, results / sweep) if not folder.exists()]
    lock_file = results / f".{sweep}.lock"
    made_lock = not lock_file.exists()
    early = EarlyStart(runner, sweep)
    stack = contextlib.ExitStack()
    try:
        stack.enter_context(sweep_lock(results, sweep))
        if (results / sweep).exists() and not resume:  # --overwrite of a sweep: set aside
            early.replaced = _set_aside(results, sweep)
        for slot in runner.slots:
            slot.spawn(cores)
    except (SuiteError, OSError):  # another cliffbench holds it; a worker that cannot start
        runner.stop()
        early._put_back()
        stack.close()
        _remove(made, lock_file if made_lock else None)
        yield None
        return
    first = first_solvers(suite_name, solvers, runner.slots[0].plugins, data_dir)
    for slot in runner.slots if first else ():
        with contextlib.suppress(OSError):  # a worker that died is noticed when given a run
            slot.send({"op": "prepare", "solvers": first})
    try:
        with stack:
            try:
                yield early
            finally:
                runner.stop()  # at a clean end, the runner's run has stopped them already
                if not early.begun:  # planning failed (a clean end always begins the sweep)
                    early._put_back()  # under the lock still
    finally:
        if not early.begun:
            _remove(made, lock_file if made_lock else None)


def _set_aside(results: Path, sweep: str) -> Path:
    """The sweep's folder renamed within ``results/`` (a hidden name of this process), where
    it is until the sweep that overwrites it is planned."""
    aside = results / f".{sweep}.overwritten-{os.getpid()}"
    shutil.rmtree(aside, ignore_errors=True)  # a leftover of a process of this pid killed
    (results / sweep).rename(aside)
    return aside


def first_solvers(suite_name: str, solvers: list[str] | None, plugins: list[str],
                  data_dir: str | Path | None) -> list[str]:
    """The solvers (``family/name``) a sweep of the suite will run first, in order: each of
    its ladders' families (:func:`bench.plan.suite.suite_first_runs`), the suite's solver
    names (or ``solvers``, the command line's) in that family; nothing where the suite or a
    plugin (``plugins``: the command line's and the suite's) does not read (the sweep's
    planning then says what is wrong)."""
    from bench.api import REGISTRY, solver_keys
    from bench.plan.registry import load_plugins, solver_index

    try:
        names, families = suite_first_runs(suite_name, data_dir)
        load_plugins(plugins)
        known = {*solver_index(), *REGISTRY}
    except Exception:  # noqa: BLE001 - a hint only: planning reports the error
        return []
    names = list(solvers) if solvers else names
    return list(dict.fromkeys(key for family in families for name in names
                              for key in solver_keys(name, known, family)))


def _plan_start(suite_name: str, jobs: int | None, plugins: list[str], results: Path,
                name: str | None, resume: bool, overwrite: bool, executor: str
                ) -> tuple[Runner, str, int] | None:
    """The runner (its workers not started), the sweep's name and the cores a run, where the
    workers may start early; else None."""
    if executor != "local":
        return None
    try:
        head = suite_head(suite_name)
    except (SuiteError, OSError, ValueError):
        return None  # the suite's full reading says what is wrong
    sweep = name or head.name
    if (results / sweep).exists() and not resume \
            and not (overwrite and (results / sweep / JOURNAL).exists()):
        return None
    jobs = jobs or head.jobs or max(1, len(available_cpus()) // head.cores)
    try:
        runner = Runner(jobs=jobs, cores=head.cores, plugins=[*plugins, *head.plugins],
                        log_dir=results / sweep / "workers")
    except RunnerError:
        return None  # too many cores: the sweep says so when it makes its runner
    return runner, sweep, head.cores


def _remove(made: list[Path], lock_file: Path | None) -> None:
    """The folders an early start made (the sweep's, and ``results/`` if it was new) and its
    lock file."""
    if lock_file is not None:
        lock_file.unlink(missing_ok=True)
    for folder in reversed(made):
        shutil.rmtree(folder, ignore_errors=True)
