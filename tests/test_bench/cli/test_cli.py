"""The command line as a user meets it: machine-readable keys, files, plugins, clear errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

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


def test_verify_exits_zero_only_for_a_solution(tmp_path):
    """A script can trust verify's exit status: 0 for a solution; 1 for a legal board that is
    not one (a partial board, or a full one with mismatched joins) unless --partial; 1 for an
    illegal board whatever the flags."""
    out = tmp_path / "gen"
    cliffbench("gen", SPEC, "--out", str(out), check=True)
    (board,) = list(out.glob("*.emp"))
    s_lines = [line.split() for line in board.read_text().splitlines() if line.startswith("s ")]
    cells = {(int(r), int(c)): (p, rot) for _, r, c, p, rot in s_lines}

    def write(name: str, placed: dict) -> str:
        path = tmp_path / name
        path.write_text("".join(f"s {r} {c} {p} {rot}\n" for (r, c), (p, rot) in placed.items()))
        return str(path)

    swapped = dict(cells)
    swapped[1, 1], swapped[3, 3] = cells[3, 3], cells[1, 1]  # two inner pieces change places
    partial = dict(list(cells.items())[:7])
    for name, placed, rc, rc_partial in (("good", cells, 0, 0), ("swapped", swapped, 1, 0),
                                         ("partial", partial, 1, 0)):
        path = write(f"{name}.txt", placed)
        plain = cliffbench("verify", str(board), path)
        assert plain.returncode == rc, (name, plain.stdout, plain.stderr)
        assert cliffbench("verify", str(board), path, "--partial").returncode == rc_partial
    mismatched = json.loads(cliffbench("verify", str(board), write("s.txt", swapped),
                                       "--json").stdout)
    assert mismatched["status"] == "legal" and mismatched["score"] < mismatched["max_score"]
    twice = dict(cells)
    twice[0, 0] = cells[0, 1]  # one piece on two cells: illegal
    assert cliffbench("verify", str(board), write("twice.txt", twice), "--partial"
                      ).returncode == 1


BAD_NUMBERS = [("run", "quick", "--timeout", "-1"), ("run", "quick", "--timeout", "nan"),
               ("run", "quick", "--timeout", "inf"), ("run", "quick", "--mem", "-1"),
               ("run", "quick", "--jobs", "0"), ("run", "quick", "--mem", "1.5"),
               ("run", "quick", "--repeats", "0"),
               ("solve", SPEC, "--solver", "cpsat", "--timeout", "-5"),
               ("solve", SPEC, "--solver", "cpsat", "--mem", "-1"),
               ("solve", SPEC, "--solver", "cpsat", "--cores", "0"),
               ("figures", "quick", "--run", "--timeout", "0")]


def test_every_budget_a_user_types_is_checked_before_anything_runs(tmp_path):
    """--timeout, --mem, --jobs, --cores: a finite number above zero, else one line naming
    the option, exit 2, and nothing run (no results folder)."""
    for args in BAD_NUMBERS:
        proc = cliffbench(*args, "--results", str(tmp_path / "r")) if args[0] != "solve" \
            else cliffbench(*args)
        option = args[-2]
        assert proc.returncode == 2, (args, proc.stdout, proc.stderr)
        assert option in proc.stderr and args[-1] in proc.stderr, proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1 and proc.stdout == ""
    assert not (tmp_path / "r").exists()


def test_budgets_in_a_suite_file_are_checked(tmp_path):
    for key, value in (("timeout", "-1"), ("timeout", "nan"), ("mem", "0"), ("jobs", "0"),
                       ("cores", "-2"), ("repeats", "0"), ("timeout", "inf")):
        suite = tmp_path / f"{key}.toml"
        suite.write_text(f"name = 'x'\n{key} = {value}\n"
                         "instances = ['edgematch/planted:n=3']\n[[solver]]\nname = 'cpsat'\n")
        proc = cliffbench("run", str(suite), "--results", str(tmp_path / "r"))
        assert proc.returncode == 2 and key in proc.stderr and str(suite) in proc.stderr
    assert not (tmp_path / "r").exists()


def test_version_and_help_on_every_option():
    from bench.cli import build_parser

    proc = cliffbench("--version", check=True)
    assert proc.stdout.startswith("cliffbench ") and proc.stdout.split()[1][0].isdigit()

    def parsers(parser):
        yield parser
        for action in parser._actions:
            for sub in getattr(action, "choices", None) or {}:
                if isinstance(action.choices, dict):
                    yield from parsers(action.choices[sub])

    for parser in parsers(build_parser()):
        for action in parser._actions:
            if action.option_strings and action.dest != "help":
                assert action.help, f"{parser.prog} {action.option_strings[0]} has no help"
    text = cliffbench("solve", "--help", check=True).stdout
    assert "(default: 60.0)" in text and "(default: 4000)" in text


def test_misspelt_names_get_a_suggestion():
    proc = cliffbench("solve", SPEC, "--solver", "dfs-restart")
    assert proc.returncode == 2 and "did you mean 'dfs-restarts'" in proc.stderr
    proc = cliffbench("run", "quik")
    assert proc.returncode == 2 and "did you mean 'quick'" in proc.stderr
    proc = cliffbench("solve", "edgematch/plantd:n=4", "--solver", "cpsat")
    assert proc.returncode == 2 and "did you mean 'planted'" in proc.stderr
    proc = cliffbench("solve", "edgematch/planted:n=5,hints=5", "--solver", "cpsat")
    assert proc.returncode == 2 and "hints=5 but a 5x5 board has only 2" in proc.stderr


def test_export_writes_only_the_file_name_to_stdout(tmp_path):
    """Solver libraries print banners (HiGHS on the C level): stdout holds the asked output."""
    target = tmp_path / "model.mps"
    proc = cliffbench("export", SPEC, "--to", "mps", str(target), check=True)
    assert proc.stdout == f"{target}\n" and target.stat().st_size > 0


def test_budgets_given_from_python_are_checked_too(tmp_path):
    """bench.execute and bench.solve take the same numbers as the command line: a SuiteError naming
    the option, before anything runs."""
    import bench
    from bench.plan.suite import SuiteError

    for options in ({"timeout": -1}, {"timeout": float("nan")}, {"mem": 0}, {"jobs": 0},
                    {"repeats": 0}, {"repeats": 10**6}, {"timeout": True}):
        name = next(iter(options))
        with pytest.raises(SuiteError, match=name):
            bench.run("quick", results=tmp_path / "r", **options)
    for options in ({"timeout": 0}, {"mem": -5}, {"cores": 0}, {"cores": 1.5}):
        with pytest.raises(SuiteError, match=next(iter(options))):
            bench.solve(SPEC, "cpsat", **options)
    assert not (tmp_path / "r").exists()


def test_repeats_from_the_command_line_multiply_the_runs(tmp_path):
    suite = tmp_path / "s.toml"
    suite.write_text("name = 's'\ntimeout = 20\ninstances = ['edgematch/planted:n=3,seed=1']\n"
                     "[[solver]]\nname = 'dfs-restarts'\n")
    cliffbench("run", str(suite), "--repeats", "3", "--results", str(tmp_path / "r"),
               "--no-figures", check=True)
    rows = [json.loads(line) for line in (tmp_path / "r" / "s" / "journal.jsonl").open()]
    assert sorted((r["repeat"], r["seed"]) for r in rows) == [(0, 1), (1, 2), (2, 3)]
