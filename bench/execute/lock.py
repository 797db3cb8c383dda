"""The sweep's lock: one ``cliffbench run`` of a sweep at a time."""

from __future__ import annotations

import contextlib
import fcntl
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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
            if _kept_for:  # a descriptor of its own keeps the lock until they are done
                _close_when_done(os.dup(handle.fileno()), _kept_for[:])
                _kept_for.clear()
            else:
                fcntl.flock(handle, fcntl.LOCK_UN)


#: What the lock held now waits for before it is released, after its ``with`` block: the
#: futures of work the sweep left to a thread (its table's writing: bench/table/store.py
#: ``compact(background=True)``), so that no other run of the sweep starts meanwhile.
_kept_for: list[Any] = []


def keep_lock_until(future: Any) -> None:
    """Keep the sweep lock held now until ``future`` (a ``concurrent.futures.Future``) is
    done, past the end of its ``with`` block."""
    _kept_for.append(future)


def _close_when_done(descriptor: int, futures: list[Any]) -> None:
    """Close ``descriptor`` (the lock's last one, so the kernel releases the lock) once every
    future is done: in the thread that finishes the last of them, or now."""
    left = [len(futures)]
    guard = threading.Lock()

    def one_done(_: Any) -> None:
        with guard:
            left[0] -= 1
            last = left[0] == 0
        if last:
            os.close(descriptor)

    for future in futures:
        future.add_done_callback(one_done)
