"""The sweep's lock: one ``cliffbench run`` of a sweep at a time."""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path

from bench.plan.suite import SuiteError


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
