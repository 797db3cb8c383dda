"""Helpers the tests import: paths, a command-line runner, and the edge-matching solvers'
budgets and boards, the true distances of the 8-puzzle."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections import deque
from functools import cache
from pathlib import Path

from bench.api import Budget
from instances.edgematch import GENERATORS, Instance, rotated
from searches.tiles_board import board_for

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


# --- edge matching ----------------------------------------------------------------------------


def budget(seconds: float = 10.0, cores: int = 1) -> Budget:
    """A budget starting now, with room in memory."""
    return Budget(wall_s=seconds, mem_mb=2000, cores=cores,
                  deadline=time.monotonic() + seconds)


def planted(n: int, hints: int = 0, border: int = 2, inner: int = 4, seed: int = 1,
            **more) -> Instance:
    """A small planted board; few colours so that the small ones are not trivial."""
    params = {"n": n, "border": border, "inner": inner, "hints": hints, **more}
    return GENERATORS["planted"](params, seed).instance


def board(grid: list[list[tuple[int, int, int, int]]], turns: int = 1) -> Instance:
    """An instance whose pieces are ``grid``'s cells (as shown on the board), each listed
    turned back by ``turns`` quarter turns, so the identity placement is not the stored one."""
    pieces = tuple(rotated(edges, -turns % 4) for row in grid for edges in row)
    return Instance(rows=len(grid), cols=len(grid[0]), colors=9, pieces=pieces)


@cache
def eight_puzzle_distances(goal: str) -> dict[tuple[int, ...], int]:
    """The true distance to the goal of every solvable 8-puzzle state (a full BFS)."""
    start = tuple(board_for(3, 3, goal).goal)
    tables = board_for(3, 3, goal)
    dist = {start: 0}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        blank = state.index(0)
        for i in range(tables.move_count[blank]):
            src = tables.move_cell[blank * 4 + i]
            nxt = list(state)
            nxt[blank], nxt[src] = nxt[src], 0
            nxt = tuple(nxt)
            if nxt not in dist:
                dist[nxt] = dist[state] + 1
                queue.append(nxt)
    return dist
