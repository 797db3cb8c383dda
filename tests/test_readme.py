"""The README's promises that code can check: the two quick-start commands, CI, the schema."""

from __future__ import annotations

import json
import re

from bench.schema import COLUMNS, SCHEMA_VERSION

from helpers import ROOT, cliffbench


def quick_start() -> list[str]:
    text = (ROOT / "README.md").read_text()
    section = text.split("## Quick start", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    return [line for line in block.splitlines() if line.strip()]


def test_quick_start_is_two_commands_install_and_run_then_test():
    install_run, test = quick_start()
    assert install_run.endswith("cliffbench run quick")
    assert "pip install" in install_run and "pip install" in test
    assert test.endswith("pytest")


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert quick_start()[1] in ci


def test_readme_documents_every_column_of_this_schema_version():
    text = (ROOT / "README.md").read_text()
    assert f"Schema version {SCHEMA_VERSION}" in text
    for name in COLUMNS:
        assert f"| `{name}` |" in text, name


def test_the_plugin_example_runs_as_documented(tmp_path):
    text = (ROOT / "README.md").read_text()
    section = text.split("## Writing a solver (plugins)", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert len(code.strip().splitlines()) <= 12
    plugin = tmp_path / "my_solver.py"
    plugin.write_text(code)
    proc = cliffbench("solve", "edgematch/planted:n=8,hints=5", "--solver", "hints-only",
                      "--plugin", str(plugin), "--json", check=True)
    out = json.loads(proc.stdout)
    assert out["status"] == "unknown" and out["verified"] is True
    assert len(out["solution"]["cells"]) == 5
