"""docs/tools.md's example, exactly as the page shows it: the tools file is the page's, and the
command the page gives solves the board; the same program proves a board infeasible."""

from __future__ import annotations

import re
import shlex

import bench
from bench.cli import main

from helpers import ROOT

PAGE = ROOT / "docs" / "tools.md"
TOOLS = ROOT / "examples" / "own_program" / "tools.toml"


def blocks(kind: str) -> list[str]:
    return re.findall(rf"```{kind}\n(.*?)```", PAGE.read_text(), flags=re.S)


def test_the_page_shows_the_tools_file_as_it_is():
    assert TOOLS.read_text() in blocks("toml")
    assert sum(1 for line in TOOLS.read_text().splitlines() if line.strip()) <= 10


def test_the_pages_command_solves_the_board(monkeypatch, capsys):
    (command,) = blocks("sh")
    words = shlex.split(command)
    assert words[0] == "cliffbench"
    monkeypatch.chdir(ROOT)
    assert main(words[1:] + ["--json"]) == 0
    out = capsys.readouterr().out
    assert '"status": "solved"' in out and '"verified": true' in out


def test_the_program_proves_an_impossible_board_infeasible():
    row = bench.solve(str(ROOT / "tests" / "data" / "edgematch_impossible_hint.emp"),
                      "edgematch/edge-dfs", plugins=(str(TOOLS),), timeout=30)
    assert row["status"] == "infeasible", row
