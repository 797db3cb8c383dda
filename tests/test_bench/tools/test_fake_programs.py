"""A program's run through the whole harness, with a program that misbehaves on purpose
(tests/plugins/fake_sat.py): every misbehaviour gets the right status and nothing is left
running. The tools file is written here and passed like a plugin (``--tools``)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

import bench

from helpers import ROOT

FAKE = ROOT / "tests" / "plugins" / "fake_sat.py"
PLANTED = "latin/qwh:order=7,fraction=0.5,seed=3"
#: an order-3 square whose givens leave a hole no symbol (row 0 shows 0 and 1, column 2 shows 2)
BLOCKED = '{"family": "latin", "order": 3, "cells": [0, 1, -1, -1, -1, 2, -1, -1, -1]}'


def tools_file(folder: Path, mode: str, extra: tuple[str, ...] = ()) -> str:
    path = folder / f"fake-{mode}.toml"
    command = ", ".join(repr(part) for part in
                        ["{executable}", str(FAKE), mode, "{input}", *extra])
    path.write_text(f'''[[tool]]
name = "fake-{mode}"
executable = {sys.executable!r}
paradigm = "sat"
input = "cnf"
output = "sat-competition"
command = [{command}]
sources = ["encoders.latin_sat:latin/sat"]
''')
    return str(path)


@pytest.fixture(scope="module")
def tools_dir(tmp_path_factory) -> Path:
    """One folder of tools files for the module: a tool registers once per process."""
    return tmp_path_factory.mktemp("tools")


def run(folder: Path, mode: str, spec: str = PLANTED, extra: tuple[str, ...] = (), **kw):
    plugin = tools_file(folder, mode, extra)
    return bench.solve(spec, f"latin/fake-{mode}", plugins=(plugin,), **{"timeout": 30, **kw})


def test_a_good_program_is_solved_and_verified(tools_dir):
    row = run(tools_dir, "good")
    assert row["status"] == "solved" and row["verified"], row
    assert row["paradigm"] == "sat" and row["t_encode"] is not None


def test_an_infeasible_square_is_proved_infeasible(tools_dir, tmp_path):
    path = tmp_path / "blocked.json"
    path.write_text(BLOCKED)
    row = run(tools_dir, "good", spec=str(path))
    assert row["status"] == "infeasible", row


@pytest.mark.parametrize("mode,verdict", [
    ("no-model", "no v lines"),
    ("flipped", ""),
    ("exit-only", ""),
])
def test_a_satisfiable_claim_without_a_good_model_is_wrong(tools_dir, mode, verdict):
    row = run(tools_dir, mode)
    assert row["status"] == "wrong" and row["claimed"] == "solved", row
    assert verdict in (row["message"] or "")


def test_a_status_the_exit_code_contradicts_is_reported(tools_dir):
    row = run(tools_dir, "disagree")
    assert row["status"] == "wrong", row  # an infeasible claim on a planted square
    assert "exit code 10 says solved" in row["message"]


def test_a_crash_is_an_error_with_the_programs_last_words(tools_dir):
    row = run(tools_dir, "crash")
    assert row["status"] == "error" and "exit code 3" in row["message"]
    assert "fake_sat: cannot go on" in row["message"]


def test_a_flood_of_output_is_cut_and_says_so(tools_dir):
    row = run(tools_dir, "flood")
    assert row["status"] == "error" and "output cap" in row["message"], row


def test_a_child_the_program_leaves_behind_is_killed(tools_dir):
    pidfile = tools_dir / "child.pid"
    row = run(tools_dir, "orphan", extra=(str(pidfile),))
    assert row["status"] == "solved", row
    pid = int(pidfile.read_text())
    for _ in range(100):
        if not os.path.exists(f"/proc/{pid}") or _zombie(pid):
            break
        time.sleep(0.05)
    assert not os.path.exists(f"/proc/{pid}") or _zombie(pid), "the child is still running"


def test_a_program_that_ignores_sigterm_is_killed_at_the_budget(tools_dir):
    start = time.monotonic()
    row = run(tools_dir, "stubborn", timeout=1.0)
    assert row["status"] == "timeout" and row["t_wall"] <= 3.0, row
    assert time.monotonic() - start < 30


def test_a_program_past_the_memory_budget_is_killed(tools_dir):
    row = run(tools_dir, "hog", timeout=30, mem=600)
    assert row["status"] == "memout", row
    assert max(row["peak_rss_mb"], row.get("peak_cgroup_mb") or 0) > 600


def test_a_program_that_is_not_installed_gives_an_error_row(tools_dir):
    path = tools_dir / "missing.toml"
    path.write_text('''[[tool]]
name = "absent"
executable = "no-such-sat-program"
package = "no-such-package"
paradigm = "sat"
input = "cnf"
output = "sat-competition"
command = ["{executable}", "{input}"]
sources = ["encoders.latin_sat:latin/sat"]
''')
    row = bench.solve(PLANTED, "latin/absent", plugins=(str(path),), timeout=10)
    assert row["status"] == "error"
    assert "not installed" in row["message"] and "apt-get install no-such-package" in row[
        "message"]


def _zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(")")[-1].split()[0] == "Z"
    except OSError:
        return True


def test_a_tool_declared_in_python_reads_with_its_own_reader():
    row = bench.solve(PLANTED, "latin/fake-class",
                      plugins=(str(ROOT / "tests" / "plugins" / "tool_class.py"),), timeout=30)
    assert row["status"] == "solved" and row["verified"], row
