"""Running one program: its output to files of capped size, and nothing of it left behind.

The program runs as a child of the run's worker, in a process group of its own, in a folder of
its own (its working directory). Its stdout and stderr go to files there, never to a pipe, so a
program that floods its output cannot block, and past ``cap_bytes`` together it is killed and
the run says its output was cut. When it ends, whatever is left of its process group (a child
that outlived it) is killed. The budget is not watched here: the harness's watchdog kills the
worker's whole process tree at the budget (bench/execute/slot.py), this program included.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

#: Output kept of a run (stdout and stderr together) before the program is killed.
OUTPUT_CAP_BYTES = 64 * 1024 * 1024
POLL_S = 0.02


@dataclass(frozen=True)
class Ran:
    """How a program run ended: its exit code (negative: killed by that signal), its stdout
    (the first ``cap_bytes`` of it), the end of its stderr, its wall seconds, and whether the
    output was cut at the cap."""

    code: int
    stdout: str
    stderr_tail: str
    seconds: float
    cut: bool


def run_program(argv: list[str], folder: Path, cap_bytes: int = OUTPUT_CAP_BYTES) -> Ran:
    """Run ``argv`` in ``folder`` to its end (or to the output cap)."""
    out_path, err_path = folder / "stdout.txt", folder / "stderr.txt"
    start = time.perf_counter()
    cut = False
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        proc = subprocess.Popen(argv, cwd=folder, stdin=subprocess.DEVNULL, stdout=out,
                                stderr=err, start_new_session=True)
        try:
            while True:
                try:
                    proc.wait(timeout=POLL_S)
                    break
                except subprocess.TimeoutExpired:
                    pass
                if _size(out_path, err_path) > cap_bytes:
                    cut = True
                    _kill_group(proc.pid)
                    proc.wait()
                    break
        finally:
            _kill_group(proc.pid)  # a child the program left behind goes with it
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    seconds = time.perf_counter() - start
    with open(out_path, "rb") as fh:
        stdout = fh.read(cap_bytes).decode(errors="replace")
    with open(err_path, "rb") as fh:
        fh.seek(max(0, os.path.getsize(err_path) - 2000))
        tail = fh.read().decode(errors="replace")
    return Ran(proc.returncode, stdout, tail, seconds, cut)


def _size(*paths: Path) -> int:
    return sum(os.path.getsize(p) for p in paths)


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
