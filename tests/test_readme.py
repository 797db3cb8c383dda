"""The README's promises that code can check: the two quick-start commands, CI, the schema."""

from __future__ import annotations

import re

from helpers import ROOT

from bench.schema import COLUMNS, SCHEMA_VERSION


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
