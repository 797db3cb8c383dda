"""The command line as a user meets it: machine-readable keys, files, plugins, clear errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from helpers import FAULTY, ROOT, cliffbench

SPEC = "edgematch/planted:n=5,hints=2,seed=3"


def test_list_json_has_the_documented_keys():
    out = json.loads(cliffbench("list", "--json", check=True).stdout)
    assert set(out) == {"families", "generators", "solvers", "suites"}
    solvers = {s["name"]: s for s in out["solvers"]}
    for name in ("dfs-restarts", "cpsat"):
        assert {"name", "family", "paradigm", "backend", "params"} <= set(solvers[name])
    assert solvers["cpsat"]["paradigm"] == "cpsat"
    assert solvers["dfs-restarts"]["paradigm"] == "native"
    assert "edgematch/planted" in {g["name"] for g in out["generators"]}
    suites = {s["name"] for s in out["suites"]}
    assert {"quick", "edgematch-seed", "edgematch-shared-ladder"} <= suites


def test_solve_json_then_verify_json_agree(tmp_path):
    proc = cliffbench("solve", SPEC, "--solver", "cpsat", "--timeout", "30", "--json", check=True)
    solved = json.loads(proc.stdout)
    for key in ("status", "verified", "verdict", "score", "max_score", "objective", "t_wall",
                "counters", "solution"):
        assert key in solved
    assert solved["status"] == "solved" and solved["verified"] is True
    assert solved["score"] == solved["max_score"] == 40
    answer = tmp_path / "answer.json"
    answer.write_text(proc.stdout)
    checked = json.loads(cliffbench("verify", SPEC, str(answer), "--json", check=True).stdout)
    assert checked["status"] == "solved" and checked["score"] == 40


def test_verify_reads_s_lines_and_rejects_a_broken_board(tmp_path):
    out = tmp_path / "gen"
    cliffbench("gen", SPEC, "--out", str(out), check=True)
    (board,) = list(out.glob("*.emp"))
    s_lines = [line for line in board.read_text().splitlines() if line.startswith("s ")]
    good = tmp_path / "good.txt"
    good.write_text("\n".join(s_lines) + "\n")
    assert json.loads(cliffbench("verify", str(board), str(good), "--json").stdout)["status"] \
        == "solved"
    partial = tmp_path / "partial.txt"
    partial.write_text("\n".join(s_lines[:7]) + "\n")
    result = json.loads(cliffbench("verify", str(board), str(partial), "--json").stdout)
    assert result["status"] == "legal" and result["verified"] is True and result["score"] < 40
    first = s_lines[0].split()
    second = s_lines[1].split()
    twice = tmp_path / "twice.txt"
    twice.write_text(f"s {first[1]} {first[2]} {first[3]} {first[4]}\n"
                     f"s {second[1]} {second[2]} {first[3]} {first[4]}\n")
    proc = cliffbench("verify", str(board), str(twice), "--json")
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["status"] == "wrong"


def test_gen_writes_files_that_solve_by_path(tmp_path):
    out = tmp_path / "gen"
    proc = cliffbench("gen", "edgematch/planted:n=4,seed=1..3", "--out", str(out), check=True)
    files = sorted(out.glob("*.emp"))
    assert len(files) == 3 and len(proc.stdout.split()) == 3
    solved = json.loads(cliffbench("solve", str(files[0]), "--solver", "dfs-restarts",
                                   "--json", check=True).stdout)
    assert solved["status"] == "solved"


def test_param_reaches_the_solver_and_bad_params_are_named():
    proc = cliffbench("solve", SPEC, "--solver", "dfs-restarts", "--param", "max_nodes=1",
                      "--json")
    data = json.loads(proc.stdout)
    assert data["counters"]["nodes"] <= 1 and data["status"] in ("unknown", "solved")
    bad = cliffbench("solve", SPEC, "--solver", "dfs-restarts", "--param", "restart=often")
    assert bad.returncode == 2
    assert "restart" in bad.stderr and "often" in bad.stderr
    unknown = cliffbench("solve", SPEC, "--solver", "dfs-restarts", "--param", "colour=3")
    assert unknown.returncode == 2 and "colour" in unknown.stderr


def test_errors_are_one_line_naming_the_culprit(tmp_path):
    proc = cliffbench("solve", SPEC, "--solver", "no-such-solver")
    assert proc.returncode == 2 and "no-such-solver" in proc.stderr
    assert "Traceback" not in proc.stderr
    broken = tmp_path / "broken.emp"
    broken.write_text("name x\nsize 2 2\ncolors 3\npieces 4\nhints 0\np 1 0 1 x 0\n")
    proc = cliffbench("solve", str(broken), "--solver", "cpsat")
    assert proc.returncode == 2 and f"{broken}:6" in proc.stderr and "Traceback" not in proc.stderr
    suite = tmp_path / "bad.toml"
    suite.write_text("name = 'x'\ntimeout = 'soon'\ninstances = ['edgematch/planted:n=3']\n")
    proc = cliffbench("run", str(suite))
    assert proc.returncode == 2 and "timeout" in proc.stderr
    proc = cliffbench("solve", "edgematch/planted:n=1", "--solver", "cpsat")
    assert proc.returncode == 2 and "n" in proc.stderr


def test_a_plugin_file_registers_and_is_checked_like_builtins():
    proc = cliffbench("solve", SPEC, "--solver", "test-corrupt", "--plugin", str(FAULTY),
                      "--json")
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["status"] == "wrong"


def test_an_installed_entry_point_registers_a_solver(tmp_path):
    """A package's entry point in group cliffbench.solvers is found like the built-ins."""
    site = tmp_path / "site"
    (site / "extra_solvers-1.0.dist-info").mkdir(parents=True)
    (site / "extra_solvers-1.0.dist-info" / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: extra-solvers\nVersion: 1.0\n")
    (site / "extra_solvers-1.0.dist-info" / "entry_points.txt").write_text(
        "[cliffbench.solvers]\nextra = extra_solvers\n")
    (site / "extra_solvers.py").write_text(
        "from bench.api import Outcome, solver\n\n"
        "@solver('extra-giveup', family='edgematch', paradigm='native', backend='python')\n"
        "def solve(instance, budget, seed):\n"
        "    return Outcome('unknown')\n")
    env = {**os.environ, "PYTHONPATH": f"{site}{os.pathsep}{ROOT}"}
    proc = subprocess.run([sys.executable, "-m", "bench.cli", "solve", SPEC, "--solver",
                           "extra-giveup", "--json"], capture_output=True, text=True, env=env,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["status"] == "unknown"


def test_report_formats(tmp_path):
    suite = tmp_path / "s.toml"
    suite.write_text("name = 'rep'\ntimeout = 20\n[[solver]]\nname = 'dfs-restarts'\n"
                     "[[ladder]]\nname = 'l'\ngenerator = 'edgematch/planted'\n"
                     "params = { border = 2, inner = 3 }\nvary = 'n'\nvalues = [3, 4]\n"
                     "seeds = [1]\n")
    results = tmp_path / "results"
    run = cliffbench("run", str(suite), "--results", str(results), check=True)
    assert "dfs-restarts" in run.stdout
    # `run` draws the sweep's figures (PNG and CSV) unless told not to.
    assert (results / "rep" / "figures" / "rep-ladder-l.png").exists()
    assert (results / "rep" / "figures" / "rep-ladder-l.csv").exists()
    as_json = json.loads(cliffbench("report", str(results / "rep"), "--format", "json",
                                    check=True).stdout)
    assert {"sweep", "summary", "cliffs", "disagreements"} <= set(as_json)
    csv = cliffbench("report", "rep", "--results", str(results), "--format", "csv",
                     check=True).stdout
    assert "dfs-restarts" in csv
    assert Path(results / "rep" / "runs.parquet").exists()


def test_score_mode_reaches_the_row_with_its_trace():
    proc = cliffbench("solve", SPEC, "--solver", "cpsat", "--param", "maximize=joins", "--json",
                      check=True)
    out = json.loads(proc.stdout)
    assert out["status"] == "optimal" and out["objective"] == out["max_score"] == 40
    assert out["score_trace"] and out["score_trace"][-1][1] == 40
