"""Helpers the tests import: paths and a command-line runner."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FAULTY = ROOT / "tests" / "plugins" / "faulty.py"


def data_dir() -> Path | None:
    env = os.environ.get("CLIFFBENCH_DATA")
    candidate = Path(env) if env else ROOT.parent / "shared" / "data"
    return candidate if candidate.is_dir() else None


def cliffbench(*args: str, cwd: Path | None = None, timeout: float = 300,
               check: bool = False) -> subprocess.CompletedProcess:
    """Run the command line as a user would (a fresh interpreter)."""
    proc = subprocess.run([sys.executable, "-m", "bench.cli", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout)
    if check and proc.returncode != 0:
        raise AssertionError(f"cliffbench {' '.join(args)} failed ({proc.returncode}):\n"
                             f"{proc.stdout}\n{proc.stderr}")
    return proc
