"""A worker's control group: the kernel's memory limit, memory peak, CPU time and kill for a
run's whole process tree.

A process cannot leave the control group it was born in unless it has the rights to write to
another one's ``cgroup.procs``; a solver program that forks, calls ``setsid`` or double-forks
stays inside. So where the machine lets this process make control groups (root with the cgroup
v1 ``memory`` and ``cpuacct`` controllers mounted, or a cgroup v2 subtree delegated to it with
the ``memory`` controller), each worker, with its guard, lives in a group of its own. The guard
joins it before it starts the worker (bench/execute/guard.py ``--cgroup``), so everything below
is born in it. BenchExec's measurements are the model:

- memory: ``memory.limit_in_bytes`` (v1) or ``memory.max`` (v2) is the run's budget plus
  ``HEADROOM_MB`` (the guard and the page cache of the run's files); past it the kernel reclaims
  the cache, then kills a process of the group, and its ``oom_kill`` counter says so. The peak
  (``memory.max_usage_in_bytes``, reset before each run; v2's ``memory.peak`` cannot be reset
  before Linux 6.12, so there it is the worker's life's peak) counts resident memory *and* page
  cache, as the kernel charges them;
- CPU time: ``cpuacct.usage`` (v1) or ``cpu.stat``'s ``usage_usec`` (v2), read when the run
  starts and when it ends: every process of the tree, those nobody waited for included;
- kill: the group is frozen (v1 ``freezer.state``, v2 ``cgroup.freeze``; v2's ``cgroup.kill``
  when the kernel has it), every member is sent SIGKILL, the group is thawed, until it is
  empty; after a run that ended by itself, whatever the run left besides the guard and the
  worker is killed the same way.

Elsewhere (no rights, no controllers) ``open_group`` returns None and the harness keeps its
process-tree mechanism (bench/execute/limits.py): the session and subreaper ties, the summed
resident size, SIGSTOP then SIGKILL. ``CLIFFBENCH_LIMITS=process`` in the environment chooses
that mechanism even where control groups are possible. The row's ``limits_by`` column names the
mechanism that enforced the run's limits.
"""

from __future__ import annotations

import itertools
import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path

HEADROOM_MB = 64
PREFIX = "cliffbench-"  # a group's name: cliffbench-<harness pid>-<slot>-<n>
MB = 1024 * 1024
ENV_CHOICE = "CLIFFBENCH_LIMITS"
_names = itertools.count()


@dataclass
class Group:
    """One worker's control group: ``dirs`` are its folders (one per v1 controller, or the one
    v2 folder), ``version`` 1 or 2."""

    version: int
    memory: Path
    cpu: Path
    freezer: Path | None

    @property
    def mechanism(self) -> str:
        return f"cgroup-v{self.version}"

    @property
    def dirs(self) -> list[Path]:
        return list(dict.fromkeys(d for d in (self.memory, self.cpu, self.freezer) if d))

    def procs_files(self) -> list[str]:
        """The files a process writes its pid to, to join (the guard's ``--cgroup``)."""
        return [str(d / "cgroup.procs") for d in self.dirs]

    # -- limits and counters -------------------------------------------------------------------

    def set_memory_limit(self, budget_mb: int) -> None:
        """The kernel's limit for the next run: the budget plus HEADROOM_MB. Raises OSError when
        the kernel refuses it (the group already holds more than the new limit)."""
        limit = (int(budget_mb) + HEADROOM_MB) * MB
        if self.version == 1:
            memory = self.memory / "memory.limit_in_bytes"
            swap = self.memory / "memory.memsw.limit_in_bytes"  # memory plus swap
            # v1 keeps memsw >= memory at every step: raise memsw first, lower memory first
            order = [swap, memory] if limit > (_read_int(memory) or 0) else [memory, swap]
            for path in order:
                if path.exists():
                    _write(path, limit)
        else:
            _write(self.memory / "memory.max", limit)
            if (self.memory / "memory.swap.max").exists():
                _write(self.memory / "memory.swap.max", 0)

    def reset_peak(self) -> bool:
        """Start the peak afresh (v1); False where the kernel cannot (v2 before 6.12)."""
        try:
            _write(self.memory / ("memory.max_usage_in_bytes" if self.version == 1
                                  else "memory.peak"), 0)
            return True
        except OSError:
            return False

    def peak_mb(self) -> float | None:
        name = "memory.max_usage_in_bytes" if self.version == 1 else "memory.peak"
        value = _read_int(self.memory / name)
        return None if value is None else value / MB

    def oom_kills(self) -> int:
        """How many processes of the group the kernel killed at its memory limit, so far."""
        name = "memory.oom_control" if self.version == 1 else "memory.events"
        return _read_keyed(self.memory / name).get("oom_kill", 0)

    def cpu_seconds(self) -> float | None:
        """CPU time of every process that has been in the group, user and system."""
        if self.version == 1:
            value = _read_int(self.cpu / "cpuacct.usage")
            return None if value is None else value / 1e9
        usec = _read_keyed(self.cpu / "cpu.stat").get("usage_usec")
        return None if usec is None else usec / 1e6

    # -- membership and kill -------------------------------------------------------------------

    def pids(self) -> set[int]:
        try:
            text = (self.cpu / "cgroup.procs").read_text()
        except OSError:
            return set()
        return {int(p) for p in text.split()}

    def kill(self, spare: frozenset[int] = frozenset(), timeout: float = 5.0) -> int:
        """Kill every member but ``spare``: frozen first, so none forks away mid-kill. Returns
        how many were sent SIGKILL."""
        killed = 0
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            victims = self.pids() - spare
            if not victims:
                break
            if not spare and self.version == 2 and (self.cpu / "cgroup.kill").exists():
                _write(self.cpu / "cgroup.kill", 1)
                killed += len(victims)
            else:
                self._freeze(True)
                try:
                    for pid in self.pids() - spare:
                        try:
                            os.kill(pid, signal.SIGKILL)
                            killed += 1
                        except ProcessLookupError:
                            pass
                finally:
                    self._freeze(False)
            time.sleep(0.005)
        return killed

    def _freeze(self, frozen: bool) -> None:
        if self.freezer is None:
            return
        try:
            if self.version == 1:
                _write(self.freezer / "freezer.state", "FROZEN" if frozen else "THAWED")
                if frozen:
                    _wait_for(lambda: (self.freezer / "freezer.state").read_text().strip()
                              == "FROZEN")
            else:
                _write(self.freezer / "cgroup.freeze", 1 if frozen else 0)
        except OSError:
            pass

    def remove(self) -> None:
        """Kill what is left and remove the folders (a member's exit can lag its kill)."""
        self.kill()
        for folder in self.dirs:
            for _ in range(200):
                try:
                    folder.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.01)


def open_group(label: str) -> Group | None:
    """A new control group below this process's own, named after ``label``; None where this
    process cannot make one with a memory and a CPU counter (or ``CLIFFBENCH_LIMITS=process``)."""
    if os.environ.get(ENV_CHOICE, "auto") == "process":
        return None
    name = f"{PREFIX}{os.getpid()}-{label}-{next(_names)}"
    mounts = cgroup_mounts()
    own = own_cgroups()
    group = _open_v2(mounts, own, name) or _open_v1(mounts, own, name)
    if group is not None:
        for folder in group.dirs:
            remove_stale(folder.parent)
    return group


def remove_stale(parent: Path) -> int:
    """Remove the empty groups that a harness killed before it could remove them left in
    ``parent`` (named after a process that is gone); how many were removed."""
    removed = 0
    try:
        folders = [f for f in parent.iterdir() if f.name.startswith(PREFIX) and f.is_dir()]
    except OSError:
        return 0
    for folder in folders:
        pid = folder.name[len(PREFIX):].split("-", 1)[0]
        if not pid.isdigit() or os.path.exists(f"/proc/{pid}"):
            continue
        try:
            folder.rmdir()  # refused while a member is alive: then it is not stale
            removed += 1
        except OSError:
            pass
    return removed


def _open_v1(mounts: dict[str, Path], own: dict[str, str], name: str) -> Group | None:
    made: list[Path] = []
    try:
        folders = {}
        for controller in ("memory", "cpuacct", "freezer"):
            if controller not in mounts or controller not in own:
                if controller == "freezer":
                    continue
                return None
            folder = mounts[controller] / own[controller].lstrip("/") / name
            folder.mkdir()
            made.append(folder)
            folders[controller] = folder
        return Group(1, folders["memory"], folders["cpuacct"], folders.get("freezer"))
    except OSError:
        for folder in made:
            try:
                folder.rmdir()
            except OSError:
                pass
        return None


def _open_v2(mounts: dict[str, Path], own: dict[str, str], name: str) -> Group | None:
    if "" not in mounts or "" not in own:
        return None
    parent = mounts[""] / own[""].lstrip("/")
    try:
        if "memory" not in (parent / "cgroup.subtree_control").read_text().split():
            return None
        folder = parent / name
        folder.mkdir()
    except OSError:
        return None
    return Group(2, folder, folder, folder)


def cgroup_mounts() -> dict[str, Path]:
    """Where each v1 controller is mounted, and the v2 hierarchy under the key ''."""
    mounts: dict[str, Path] = {}
    try:
        lines = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return mounts
    for line in lines:
        before, _, after = line.partition(" - ")
        fields, tail = before.split(), after.split()
        if len(fields) < 5 or len(tail) < 3:
            continue
        point = Path(fields[4].replace("\\040", " "))
        if tail[0] == "cgroup2":
            mounts.setdefault("", point)
        elif tail[0] == "cgroup":
            for option in tail[2].split(","):
                mounts.setdefault(option, point)
    return mounts


def own_cgroups() -> dict[str, str]:
    """This process's cgroup path per v1 controller, and its v2 path under ''."""
    own: dict[str, str] = {}
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return own
    for line in lines:
        _, controllers, path = line.split(":", 2)
        for controller in controllers.split(",") if controllers else [""]:
            own[controller] = path
    return own


def join(procs_files: list[str]) -> None:
    """Move this process into a group (its ``cgroup.procs`` files): what it starts is born
    there. Raises OSError when it cannot."""
    for path in procs_files:
        with open(path, "w") as fh:
            fh.write(str(os.getpid()))


def _write(path: Path, value: object) -> None:
    with open(path, "w") as fh:
        fh.write(str(value))


def _read_int(path: Path) -> int | None:
    try:
        return int(path.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def _read_keyed(path: Path) -> dict[str, int]:
    """A flat keyed file (``oom_kill 3`` per line) as a dict."""
    out: dict[str, int] = {}
    try:
        for line in path.read_text().splitlines():
            key, _, value = line.partition(" ")
            if value.strip().lstrip("-").isdigit():
                out[key] = int(value)
    except OSError:
        pass
    return out


def _wait_for(condition, timeout: float = 1.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.001)
