"""The guard (bench/execute/guard.py) knows which runner started it: a runner that died while
the guard was still starting (its parent is then another process) gets no worker started."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def _guarded(marker: Path, parent: int) -> subprocess.CompletedProcess:
    """The guard run with ``--parent`` on a command that leaves ``marker`` and exits."""
    command = [sys.executable, "-c", f"open({str(marker)!r}, 'w').close()"]
    return subprocess.run([sys.executable, "-m", "bench.execute.guard", "--parent", str(parent),
                           "--", *command], cwd=ROOT, capture_output=True, timeout=60)


def test_a_guard_whose_runner_is_gone_starts_no_worker(tmp_path):
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()  # a pid that is not the guard's parent (its process has ended)
    done = _guarded(tmp_path / "started", gone.pid)
    assert done.returncode != 0
    assert not (tmp_path / "started").exists()


def test_a_guard_whose_runner_lives_runs_the_worker(tmp_path):
    import os

    done = _guarded(tmp_path / "started", os.getpid())  # this process is its parent
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "started").exists()
