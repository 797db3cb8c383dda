"""The proof that a family is a plug-in: examples/nqueens, a folder of its own, used as its
guide (docs/adding-a-family.md) says, with no edit to the project.

Installing it is emulated without a network: a copy of the folder on ``PYTHONPATH`` and beside
it a ``cliffbench_nqueens-0.1.0.dist-info`` folder (``METADATA`` and an ``entry_points.txt``
written from the example's own ``pyproject.toml``), which is what ``pip install`` leaves in
site-packages for ``importlib.metadata`` to find. Every command runs in a fresh interpreter with
that environment (the workers inherit it) and a cache folder of its own, so that the solver
index of this environment does not replace the user's.

The guide's code blocks are the example's files, whole, and its commands are run here as
written (``pip install`` aside): ``list``, ``run`` of the example's suite, ``report``,
``figures``, ``solve``, ``show``, and the plug-in's own tests (the conformance suite of
bench/conformance.py among them).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

from helpers import ROOT

EXAMPLE = ROOT / "examples" / "nqueens"
GUIDE = ROOT / "docs" / "adding-a-family.md"
FILE_BLOCK = re.compile(r"<!-- file: (?P<path>\S+) -->\n```[a-z]+\n(?P<text>.*?)^```$",
                        re.DOTALL | re.MULTILINE)
COMMANDS = re.compile(r"<!-- commands -->\n```sh\n(?P<text>.*?)^```$", re.DOTALL | re.MULTILINE)


def example_files() -> list[Path]:
    return sorted(p for p in EXAMPLE.rglob("*") if p.suffix in (".py", ".toml")
                  and "__pycache__" not in p.parts)


def dist_info(site: Path) -> Path:
    """What ``pip install`` writes for the example: its metadata and entry points."""
    project = tomllib.loads((EXAMPLE / "pyproject.toml").read_text())["project"]
    folder = site / f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
    folder.mkdir(parents=True)
    (folder / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {project['name']}\n"
                                     f"Version: {project['version']}\n")
    groups = [f"[{group}]\n" + "".join(f"{name} = {value}\n" for name, value in entries.items())
              for group, entries in project["entry-points"].items()]
    (folder / "entry_points.txt").write_text("\n".join(groups))
    return folder


@dataclass
class User:
    """Someone who installed the plug-in, in a copy of the repository's layout (``home``
    holds ``examples/nqueens``): ``user("cliffbench", "list")`` runs a command there as they
    would, failing on a non-zero exit."""

    home: Path
    env: dict[str, str]

    def __call__(self, *args: str) -> subprocess.CompletedProcess:
        command = {"cliffbench": [sys.executable, "-m", "bench.cli"],
                   "pytest": [sys.executable, "-m", "pytest"]}[args[0]] + list(args[1:])
        proc = subprocess.run(command, cwd=self.home, env=self.env, capture_output=True,
                              text=True, timeout=600)
        assert proc.returncode == 0, f"{shlex.join(args)}:\n{proc.stdout}\n{proc.stderr}"
        return proc


@pytest.fixture(scope="module")
def user(tmp_path_factory: pytest.TempPathFactory) -> User:
    home = tmp_path_factory.mktemp("nqueens-user")
    source = home / "examples" / "nqueens"
    shutil.copytree(EXAMPLE, source, ignore=shutil.ignore_patterns("__pycache__", ".*"))
    dist_info(home / "site")
    path = [str(source), str(home / "site"), os.environ.get("PYTHONPATH", "")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, path)),
           "XDG_CACHE_HOME": str(home / "cache")}
    return User(home, env)


def test_the_guide_shows_the_example_file_by_file() -> None:
    text = GUIDE.read_text()
    shown = {m["path"]: m["text"] for m in FILE_BLOCK.finditer(text)}
    assert sorted(shown) == [str(p.relative_to(ROOT)) for p in example_files()]
    for path, body in shown.items():
        assert body == (ROOT / path).read_text(), f"{GUIDE.name} shows another {path}"
    code = len(re.findall(r"^```(?:python|toml)$", text, re.MULTILINE))
    assert code == len(shown), "a code block of the guide is not one of the example's files"


def test_the_guides_commands_work(user: User) -> None:
    lines = [shlex.split(line, comments=True) for line in
             COMMANDS.search(GUIDE.read_text())["text"].splitlines()]
    assert lines[0] == ["pip", "install", "-e", "examples/nqueens"]  # emulated by ``user``
    outputs = {}
    for args in lines[1:]:
        target = None
        if ">" in args:  # cliffbench ... > FILE
            args, target = args[:args.index(">")], args[args.index(">") + 1]
        out = user(*args).stdout
        if target is not None:
            (user.home / target).write_text(out)
        outputs[" ".join(args[:2])] = out
    listed = outputs["cliffbench list"].splitlines()
    assert any(line.split()[:1] == ["nqueens"] for line in listed)
    assert any(line.split()[:2] == ["backtrack", "nqueens"] for line in listed)
    rows = [json.loads(line) for line in
            (user.home / "results" / "nqueens" / "journal.jsonl").read_text().splitlines()]
    assert {r["family"] for r in rows} == {"nqueens"} and len(rows) == 21
    assert all(r["status"] in ("solved", "timeout", "unknown", "skipped") for r in rows), rows
    assert all(r["verified"] for r in rows if r["status"] == "solved")
    assert sum(r["status"] == "solved" for r in rows) >= 15  # the small boards at least
    assert "| planted | 8    | backtrack |    3 |      3 |" in outputs["cliffbench report"]
    figures = outputs["cliffbench figures"].split()
    assert any(f.endswith(".png") for f in figures)
    assert all((user.home / f).is_file() for f in figures)
    answer = json.loads((user.home / "answer.json").read_text())
    assert answer["status"] == "solved" and answer["verified"]
    assert (user.home / "answer.png").read_bytes().startswith(b"\x89PNG")
    summary = outputs["pytest examples/nqueens"].strip().splitlines()[-1].strip("= ")
    assert re.fullmatch(r"\d+ passed in .*", summary), outputs["pytest examples/nqueens"]


def test_the_conformance_suite_runs_in_the_plugins_tests(user: User) -> None:
    ids = user("pytest", "--collect-only", "-q", "examples/nqueens").stdout.split()
    answers = [i for i in ids if "::TestNQueens::test_solver_answers[nqueens/backtrack-" in i]
    assert len(answers) == 2, ids  # the solver on each of the family's two examples


def test_verify_and_a_bare_board(user: User) -> None:
    spec = "nqueens/planted:n=8,given=3,seed=1"
    (user.home / "columns.txt").write_text("3 6 2 7 1 4 5 0\n")
    proc = subprocess.run([sys.executable, "-m", "bench.cli", "verify", spec, "columns.txt"],
                          cwd=user.home, env=user.env, capture_output=True, text=True)
    assert proc.returncode == 1 and "the given queen (7, 5) is missing" in proc.stdout
    assert user("cliffbench", "show", spec, "--out", "board.svg").stdout.strip() == "board.svg"
    assert "\u265b" in (user.home / "board.svg").read_text()  # the family's drawer: queens
