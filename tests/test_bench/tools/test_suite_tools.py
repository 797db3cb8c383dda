"""A suite that declares its own solver program (``[[tool]]`` tables in the suite file): the
suite names it like any solver, its runs are checked like any other, and a mistake in the table
is one error naming the suite file and the key, with exit code 2."""

from __future__ import annotations

import sys

import bench

from helpers import ROOT, cliffbench

FAKE = ROOT / "tests" / "plugins" / "fake_sat.py"

SUITE = f'''name = "own-tool"
timeout = 30
[[tool]]
name = "fake-inline"
executable = {sys.executable!r}
paradigm = "sat"
input = "cnf"
output = "sat-competition"
command = ["{{executable}}", {str(FAKE)!r}, "good", "{{input}}"]
sources = ["encoders.latin_sat:latin/sat"]
{{extra}}
[[solver]]
name = "fake-inline"
[[solver]]
name = "sat"
[[ladder]]
name = "squares"
generator = "latin/qwh"
params = {{ order = 6, fraction = 0.5 }}
vary = "order"
values = [5, 6]
seeds = [1, 2]
'''


def test_a_suites_own_tool_runs_beside_the_in_process_solver(tmp_path):
    path = tmp_path / "own-tool.toml"
    path.write_text(SUITE.replace("{extra}", ""))
    cliffbench("run", str(path), "--results", str(tmp_path), "--jobs", "1", "--no-figures",
               check=True, timeout=300)
    table = bench.load(tmp_path / "own-tool")
    assert len(table) == 8
    assert set(table.solver) == {"fake-inline", "sat"}
    assert (table.status == "solved").all() and table.verified.all()
    mine = table[table.solver == "fake-inline"]
    assert mine.backend.str.startswith("python").all()


def test_a_mistake_in_a_suites_tool_names_the_suite_and_the_key(tmp_path):
    path = tmp_path / "own-tool.toml"
    path.write_text(SUITE.replace("{extra}", 'colour = "blue"'))
    proc = cliffbench("run", str(path), "--results", str(tmp_path), "--no-figures")
    assert proc.returncode == 2
    assert str(path) in proc.stderr and "'colour'" in proc.stderr
