"""Watching a worker from outside: the resident size of its whole process tree, and killing it.

A worker runs in a session of its own (``start_new_session``), so every process it starts
(a CBC subprocess, a solver's helper) shares its session id. Summing the resident size of all
processes in that session is the memory the run uses, whatever it spawned; killing the process
group ends all of them.
"""

from __future__ import annotations

import os
import signal
from collections import defaultdict

PAGE_MB = os.sysconf("SC_PAGE_SIZE") / (1024 * 1024)


def session_rss_mb(sessions: set[int]) -> dict[int, float]:
    """Resident MB per session id, for the given sessions, from /proc."""
    totals: dict[int, float] = defaultdict(float)
    if not sessions:
        return totals
    try:
        pids = [p for p in os.listdir("/proc") if p.isdigit()]
    except OSError:
        return totals
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", "rb") as fh:
                stat = fh.read()
            # the command name may hold spaces and parentheses: fields start after the last ')'
            fields = stat[stat.rindex(b")") + 2:].split()
            session = int(fields[3])
            if session not in sessions:
                continue
            with open(f"/proc/{pid}/statm", "rb") as fh:
                resident_pages = int(fh.read().split()[1])
        except (OSError, ValueError, IndexError):
            continue
        totals[session] += resident_pages * PAGE_MB
    return totals


def session_pids(session: int) -> list[int]:
    out = []
    for pid in (p for p in os.listdir("/proc") if p.isdigit()):
        try:
            with open(f"/proc/{pid}/stat", "rb") as fh:
                stat = fh.read()
            if int(stat[stat.rindex(b")") + 2:].split()[3]) == session:
                out.append(int(pid))
        except (OSError, ValueError, IndexError):
            continue
    return out


def kill_session(session: int) -> None:
    """SIGKILL the process group, then any straggler of the session (a child that made its own
    process group stays in the session)."""
    try:
        os.killpg(session, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    for pid in session_pids(session):
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
