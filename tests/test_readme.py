"""The README's promises that code can check: the two quick-start commands and CI, the layers of
its picture, the table of what is there, the everyday commands, and the solver in ten lines."""

from __future__ import annotations

import importlib.util
import json
import re
import shlex
import subprocess
import sys
import tomllib

import instances
from bench.cli import build_parser
from bench.plan.registry import solver_index

from helpers import ROOT, cliffbench

README = (ROOT / "README.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    """The README's text under ``## title``, up to the next such heading."""
    assert f"\n## {title}\n" in README, f"the README has no section {title!r}"
    return README.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def block(text: str, language: str) -> str:
    found = re.search(rf"```{language}\n(.*?)```", text, re.S)
    assert found, f"no ```{language} block"
    return found.group(1)


def quick_start() -> list[str]:
    return [line for line in block(section("Quick start"), "sh").splitlines() if line.strip()]


def test_quick_start_is_two_commands_install_and_run_then_test():
    install_run, test = quick_start()
    assert install_run.endswith("cliffbench run quick")
    assert "pip install" in install_run and "pip install" in test
    assert test.endswith("pytest")


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert quick_start()[1] in ci


def test_the_picture_shows_the_layers_in_import_order_and_both_entry_points():
    picture = block(section("The architecture in one picture"), "text")
    top_down = ["bench.cli", "bench.views", "bench.execute", "bench.plan", "bench.data",
                "bench.table", "searches/ encoders/", "bench.api", "instances/"]
    lines = [line.strip() for line in picture.splitlines()]
    positions = [next(i for i, line in enumerate(lines) if line.startswith(layer))
                 for layer in top_down]
    assert positions == sorted(positions)
    assert "cliffbench.solvers" in picture and "cliffbench.families" in picture
    for layer in top_down:
        for name in layer.replace("/", "").split():
            assert importlib.util.find_spec(name) is not None, name


def built_in() -> tuple[set[str], set[str]]:
    """The project's own family names and solver modules (pyproject.toml's entry points), so a
    plug-in installed beside it changes nothing here."""
    points = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"]
    return set(points["cliffbench.families"]), set(points["cliffbench.solvers"].values())


def test_what_is_there_names_every_family_generator_and_solver():
    families, modules = built_in()
    rows = [line for line in section("What is there").splitlines()
            if line.startswith("| `")]
    table = {}
    for row in rows:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        if len(cells) == 4:
            table[cells[0].strip("`")] = (set(re.findall(r"`([^`]+)`", cells[2])),
                                          set(re.findall(r"`([^`]+)`", cells[3])))
    assert set(table) == families
    solvers: dict[str, set[str]] = {name: set() for name in families}
    for key, entry in solver_index().items():
        if entry["module"] in modules:
            family, name = key.split("/", 1)
            solvers[family].add(name)
    for name in families:
        generators, names = table[name]
        assert generators == set(instances.family(name).generators), name
        assert names == solvers[name], name


def everyday_commands() -> list[list[str]]:
    commands = []
    for line in block(section("Everyday commands"), "sh").splitlines():
        words = shlex.split(line, comments=True)
        if words:
            assert words[0] == "cliffbench", line
            commands.append(words[1:])
    return commands


def test_every_everyday_command_parses():
    parser = build_parser()
    for words in everyday_commands():
        parser.parse_args(words[:words.index(">")] if ">" in words else words)


def test_the_everyday_solve_verify_show_and_gen_lines_run_as_written(tmp_path):
    wanted = ("solve", "verify", "show", "gen")
    lines = [line for line in block(section("Everyday commands"), "sh").splitlines()
             if line.split()[1:2] and line.split()[1] in wanted]
    assert [line.split()[1] for line in lines] == list(wanted)
    env_python = f"{shlex.quote(sys.executable)} -m bench.cli"
    for line in lines:
        command = env_python + line.split("#", 1)[0].strip()[len("cliffbench"):]
        proc = subprocess.run(command, shell=True, cwd=tmp_path, capture_output=True,
                              text=True, timeout=300)
        assert proc.returncode == 0, f"{line}\n{proc.stdout}\n{proc.stderr}"
    assert json.loads((tmp_path / "answer.json").read_text())["status"] == "solved"
    assert (tmp_path / "board.png").read_bytes()[:4] == b"\x89PNG"
    assert len(list((tmp_path / "boards").iterdir())) == 5


def test_the_solver_in_ten_lines_runs_as_documented(tmp_path):
    code = block(section("A solver in ten lines"), "python")
    assert len(code.strip().splitlines()) <= 12
    plugin = tmp_path / "my_solver.py"
    plugin.write_text(code)
    proc = cliffbench("solve", "edgematch/planted:n=8,hints=5", "--solver", "hints-only",
                      "--plugin", str(plugin), "--json", check=True)
    out = json.loads(proc.stdout)
    assert out["status"] == "unknown" and out["verified"] is True
    assert len(out["solution"]["cells"]) == 5


def test_the_guide_to_adding_a_solver_starts_from_the_same_solver():
    guide = (ROOT / "docs" / "adding-a-solver.md").read_text(encoding="utf-8")
    assert block(guide, "python") == block(section("A solver in ten lines"), "python")
