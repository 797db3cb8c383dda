"""The processes a run owns: finding them, their resident size, killing them, and the ties
(dying with the parent, adopting orphans) that keep them findable.

A run owns its worker process and everything the worker started. Two facts make that set
findable from ``/proc`` without cgroups (which a cluster account rarely has):

- a worker runs under its guard (bench/execute/guard.py) in a session of its own
  (``start_new_session``), so what it spawns shares that session id, and killing the process
  group ends them;
- the worker and its guard are child subreapers (``PR_SET_CHILD_SUBREAPER``), so a descendant
  that left the session (``setsid``, a double fork) is re-parented to them, not to init: it stays
  in the guard's tree of parent links.

So a run's processes are the guard's session plus its descendants. Their summed resident size is
the memory the run uses; to kill them, the tree is first frozen (SIGSTOP, repeated until no new
member appears, so nothing forks away mid-kill), then killed (SIGKILL).
"""

from __future__ import annotations

import ctypes
import os
import signal
import threading
import time
from collections import defaultdict
from dataclasses import dataclass

PAGE_MB = os.sysconf("SC_PAGE_SIZE") / (1024 * 1024)
PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36


@dataclass(frozen=True)
class Proc:
    """One line of the process table: enough to build trees and to tell a reused pid."""

    pid: int
    ppid: int
    session: int
    started: int  # clock ticks after boot: a pid reused later has another start time


def process_table() -> dict[int, Proc]:
    """Every process this user can see, from one pass over /proc."""
    table: dict[int, Proc] = {}
    try:
        pids = [p for p in os.listdir("/proc") if p.isdigit()]
    except OSError:
        return table
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", "rb") as fh:
                stat = fh.read()
            # the command name may hold spaces and parentheses: fields start after the last ')'
            fields = stat[stat.rindex(b")") + 2:].split()
            table[int(pid)] = Proc(int(pid), int(fields[1]), int(fields[3]), int(fields[19]))
        except (OSError, ValueError, IndexError):
            continue
    return table


def run_processes(root: int, table: dict[int, Proc]) -> set[int]:
    """The processes a run owns: ``root``'s session and every descendant of ``root`` (root
    included when it is alive)."""
    children: dict[int, list[int]] = defaultdict(list)
    for proc in table.values():
        children[proc.ppid].append(proc.pid)
    session = [p.pid for p in table.values() if p.session == root]
    owned: set[int] = set()
    stack = session + ([root] if root in table else [])
    while stack:  # the session's members and the root, and everything below them
        pid = stack.pop()
        if pid not in owned:
            owned.add(pid)
            stack.extend(children.get(pid, ()))
    return owned


def resident_mb(pids: set[int]) -> float:
    """Summed resident size of ``pids`` (those that still exist), MB."""
    total = 0.0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/statm", "rb") as fh:
                total += int(fh.read().split()[1]) * PAGE_MB
        except (OSError, ValueError, IndexError):
            continue
    return total


def pids_with_command(*parts: bytes) -> list[int]:
    """Live processes whose command line holds every one of ``parts`` (how tests and the chaos
    verifier find processes that should be gone)."""
    found = []
    for pid in (p for p in os.listdir("/proc") if p.isdigit()):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                cmd = fh.read()
        except OSError:
            continue
        if all(part in cmd for part in parts):
            found.append(int(pid))
    return found


def session_pids(session: int) -> list[int]:
    return [p.pid for p in process_table().values() if p.session == session]


def _signal(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def kill_tree(root: int, also: set[tuple[int, int]] = frozenset(), spare: int | None = None,
              rounds: int = 20, freeze_root: bool = True) -> int:
    """Freeze then SIGKILL every process ``root`` owns (see ``run_processes``), plus ``also``:
    (pid, start time) pairs seen in the tree earlier (orphans of a root that already died, which
    init adopted). ``spare`` is a pid left alive (a worker cleaning up after its own run).
    ``freeze_root=False`` kills the root without stopping it first: a guard root
    (bench/execute/guard.py) must stay able to act, for if the caller dies between the freeze and
    the kill, the guard is the one left to end the frozen tree (a stopped guard would hold it
    stopped forever). Returns how many processes were frozen and killed."""
    frozen: set[int] = set()
    for _ in range(rounds):
        table = process_table()
        members = run_processes(root, table)
        members |= {pid for pid, started in also if pid in table
                    and table[pid].started == started}
        members.discard(spare)
        if not freeze_root:
            members.discard(root)
        fresh = members - frozen
        if not fresh:
            break
        for pid in fresh:
            _signal(pid, signal.SIGSTOP)
        frozen |= fresh
    if spare is None:
        try:
            os.killpg(root, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if not freeze_root:
            _signal(root, signal.SIGKILL)
    for pid in frozen:
        _signal(pid, signal.SIGKILL)
    return len(frozen)


def die_with_parent(sig: int, watch: int | None = None) -> None:
    """Be sent ``sig`` when the parent dies (PR_SET_PDEATHSIG; nothing where the call is not
    available). With ``watch`` (the parent's pid), also a daemon thread that sends ``sig`` to
    this process group once the parent pid is no longer ``watch``: a parent that died before
    the prctl took effect is caught too."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, sig, 0, 0, 0)
    except (OSError, AttributeError):
        pass
    if watch is None:
        return

    def check() -> None:
        while True:
            if os.getppid() != watch:
                os.killpg(0, sig)
            time.sleep(0.5)

    threading.Thread(target=check, daemon=True).start()


def become_subreaper() -> bool:
    """Adopt orphaned descendants (Linux >= 3.4); False where the call is not available."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def reap_children() -> None:
    """Collect exited children (adopted orphans become this process's zombies)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def has_children() -> bool:
    """Whether this process has a child, from /proc/self/task/*/children (no scan of /proc);
    True when the kernel does not offer that file, so callers then look the long way."""
    try:
        tasks = os.listdir("/proc/self/task")
        for tid in tasks:
            with open(f"/proc/self/task/{tid}/children", "rb") as fh:
                if fh.read().strip():
                    return True
    except OSError:
        return True
    return False


def end_own_descendants(timeout: float = 2.0) -> int:
    """A worker after a run: kill what the run left running (a helper that outlived its solver)
    and reap it. Returns how many processes were killed. A subreaper adopts every orphan below
    it, so a process with no child has nothing below it: the usual case costs no scan."""
    if not has_children():
        return 0
    me = os.getpid()
    killed = kill_tree(me, spare=me)
    deadline = time.monotonic() + timeout
    while killed and time.monotonic() < deadline:
        reap_children()
        if not (run_processes(me, process_table()) - {me}):
            break
        time.sleep(0.01)
    reap_children()
    return killed
