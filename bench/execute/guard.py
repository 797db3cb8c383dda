"""``python -m bench.execute.guard -- CMD ...``: start a worker and outlive it, so nothing it starts
can.

A run's processes must end with the run, whatever ends it: a kill by the watchdog, a crash of
the worker, or the death of the parent (a SIGKILL of ``cliffbench run``, a lost Dask worker).
The worker is a child subreaper, so a process a solver starts in a session of its own still
hangs below it, but when the worker itself dies those orphans would go to init. The guard is the
worker's parent and a subreaper too: they come to it instead. It runs no solver code, so it is
always able to act:

- when the worker exits, the guard kills everything left below it and exits the way the worker
  did (same exit code, or killed by the same signal), so the runner sees the worker's end;
- when its own parent dies (PR_SET_PDEATHSIG delivers SIGTERM), it kills the worker and
  everything below it, then exits. ``--parent PID`` names that parent (the runner): a runner
  killed while the guard was still starting, before the prctl, leaves it another parent, and
  the guard then exits at once (or, once the worker runs, within a second).

It waits in ``sigtimedwait`` on SIGCHLD and SIGTERM: no polling, no CPU while runs go on.
With ``--cgroup FILE,...`` (the ``cgroup.procs`` files of the worker's control group,
bench/execute/cgroups.py) it joins that group before it starts the worker, so the worker and all
it starts are born in it.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys

from bench.execute.cgroups import join
from bench.execute.limits import become_subreaper, die_with_parent, kill_tree


def end_like(status: int) -> None:
    """Exit as the worker did: by the same signal (no core file), or with the same code."""
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        signal.signal(sig, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {sig})
        os.kill(os.getpid(), sig)
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)


def guard(cmd: list[str], pass_fds: tuple[int, ...], cgroup: list[str],
          parent: int | None = None) -> None:
    """Start ``cmd`` (the worker) and outlive it, as the module says; ``parent``: the pid of
    the runner that started this guard (None: the parent it has now)."""
    parent = os.getppid() if parent is None else parent
    join(cgroup)  # before anything starts: the worker is born in the run's control group
    become_subreaper()
    signal.signal(signal.SIGTERM, lambda *_: None)  # a handler, so an early SIGTERM is kept
    die_with_parent(signal.SIGTERM)
    if os.getppid() != parent:  # the runner died before the prctl: no worker to start
        os._exit(1)
    worker = subprocess.Popen(cmd, pass_fds=pass_fds)
    for fd in pass_fds:  # the worker holds the pipes: their ends must close when it dies
        os.close(fd)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGCHLD, signal.SIGTERM})
    status = None
    while status is None:
        if os.getppid() != parent:  # the runner is gone (it may have died before the prctl)
            kill_tree(os.getpid(), spare=os.getpid())
            os._exit(1)
        while True:  # reap: the worker, or orphans adopted from below it
            try:
                pid, code = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                pid = 0
            if pid == 0:
                break
            if pid == worker.pid:
                status = code
        if status is None:
            signal.sigtimedwait({signal.SIGCHLD, signal.SIGTERM}, 1.0)
    worker.returncode = status  # already reaped above
    kill_tree(os.getpid(), spare=os.getpid())
    end_like(status)


def main() -> None:
    argv = sys.argv[1:]
    fds: tuple[int, ...] = ()
    cgroup: list[str] = []
    parent = None
    while argv[:1] in (["--pass-fds"], ["--cgroup"], ["--parent"]):
        if argv[0] == "--pass-fds":
            fds = tuple(int(f) for f in argv[1].split(",") if f)
        elif argv[0] == "--parent":
            parent = int(argv[1])
        else:
            cgroup = [f for f in argv[1].split(",") if f]
        argv = argv[2:]
    if argv[:1] == ["--"]:
        argv = argv[1:]
    if not argv:
        sys.exit("usage: python -m bench.execute.guard [--pass-fds A,B] [--cgroup F,G] "
                 "[--parent PID] -- CMD ...")
    guard(argv, fds, cgroup, parent)


if __name__ == "__main__":
    main()
