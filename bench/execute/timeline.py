"""Event stamps of a sweep's pipeline (the parent's runner loop, the worker's blocks), for
``perf/block_timeline.py``; off unless the environment names a folder for them.

With ``CLIFFBENCH_TIMELINE=DIR`` set when a process imports this module, :func:`stamp` appends
``<monotonic seconds> <event>`` to ``DIR/<role>-<pid>.tl`` (``role``: ``parent`` or
``worker``), buffered and written when the process exits normally (a killed worker's stamps are
lost). ``time.monotonic`` is one clock for every process of a machine, so the files of a sweep's
parent and workers merge into one timeline. Unset, :func:`stamp` does nothing: the call sites
cost a function call each, a few a block.
"""

from __future__ import annotations

import atexit
import os
import time
from pathlib import Path

#: The folder the stamps go to (None: stamps are off).
FOLDER = os.environ.get("CLIFFBENCH_TIMELINE") or None

_events: list[tuple[float, str]] = []
#: What this process is in the sweep (its file's name begins with it).
ROLE = "parent"


def stamp(event: str) -> None:
    """Note that ``event`` happens now (nothing where stamps are off)."""
    if FOLDER is not None:
        _events.append((time.monotonic(), event))


def set_role(role: str) -> None:
    """Name this process's file after its role (``worker`` in a worker)."""
    global ROLE
    ROLE = role


def _write() -> None:
    if FOLDER is None or not _events:
        return
    path = Path(FOLDER) / f"{ROLE}-{os.getpid()}.tl"
    with open(path, "a") as fh:
        fh.writelines(f"{t:.6f} {event}\n" for t, event in _events)
    _events.clear()


atexit.register(_write)
