"""Tool adapters as data: the shipped file, and one clear error per mistake."""

from __future__ import annotations

import pytest

from bench.api import REGISTRY
from bench.tools.adapter import Tool, ToolError, load_tools, parse_tool
from bench.tools.shipped import SHIPPED

GOOD = {"name": "prog", "executable": "prog", "paradigm": "sat", "input": "cnf",
        "output": "sat-competition", "command": ["{executable}", "{input}"],
        "sources": ["encoders.latin_sat:latin/sat"]}


def test_the_shipped_adapters_load_and_register_per_source():
    tools = load_tools(SHIPPED)
    assert {t.name for t in tools} == {"cadical", "minisat", "picosat", "cryptominisat", "cbc",
                                       "glpk", "gecode"}
    for tool in tools:
        for source in tool.sources:
            family = source.split(":")[1].split("/")[0]
            spec = REGISTRY[f"{family}/{tool.name}"]
            assert spec.paradigm == tool.paradigm and spec.module == "bench.tools.shipped"
            assert spec.backend == tool.backend()


@pytest.mark.parametrize("change,message", [
    ({"colour": "red"}, "unknown key 'colour'"),
    ({"name": None}, "missing key 'name'"),
    ({"name": "Prog"}, "must be lower case"),
    ({"paradigm": "magic"}, "paradigm 'magic'"),
    ({"output": "smoke"}, "output 'smoke'"),
    ({"command": ["{executable}", "{inptu}"]}, "placeholder {inptu}"),
    ({"command": ["{executable}"]}, "never names the {input}"),
    ({"output": "minisat"}, "must name {output}"),
    ({"sources": ["latin/sat"]}, "is neither 'module:family/solver'"),
    ({"command": "prog {input}"}, "command must be a list of strings"),
])
def test_a_bad_table_is_one_error_naming_the_tool_and_key(change, message):
    table = {k: v for k, v in {**GOOD, **change}.items() if v is not None}
    with pytest.raises(ToolError, match="tools.toml: tool 1") as caught:
        parse_tool(table, "tools.toml: tool 1")
    assert message in str(caught.value)


def test_a_file_is_checked_whole(tmp_path):
    path = tmp_path / "tools.toml"
    path.write_text("[[tool]]\nname = 'a'\n[[tool]]\n")
    with pytest.raises(ToolError, match=f"{path}: tool 1 \\('a'\\): missing key"):
        load_tools(path)
    path.write_text("x = 1\n")
    with pytest.raises(ToolError, match="unknown top-level key 'x'"):
        load_tools(path)
    path.write_text("[[tool\n")
    with pytest.raises(ToolError, match="not valid TOML"):
        load_tools(path)


def test_a_program_that_is_not_installed_says_so():
    tool = Tool(**{**{k: v for k, v in GOOD.items() if k not in ("command", "sources")},
                   "executable": "no-such-program-here"}, command=("{executable}", "{input}"),
                sources=("encoders.latin_sat:latin/sat",), package="no-such-package")
    assert tool.path() is None and tool.version() is None
    assert tool.backend() == "no-such-program-here (not installed)"
    assert "apt-get install no-such-package" in tool.missing_message()


def test_the_command_line_fills_every_placeholder():
    tool = parse_tool({**GOOD, "command": ["{executable}", "-t", "{timeout}", "--seed={seed}",
                                           "{input}", "{output}", "{threads}", "{memory}",
                                           "--ms={milliseconds}"]},
                      "t")
    argv = tool.argv({"executable": "/bin/prog", "input": "in.cnf", "output": "out",
                      "timeout": 3, "seconds": "2.5", "milliseconds": 2500, "seed": 7,
                      "threads": 1, "memory": 900})
    assert argv == ["/bin/prog", "-t", "3", "--seed=7", "in.cnf", "out", "1", "900",
                    "--ms=2500"]


def test_installing_a_program_changes_the_solver_index_fingerprint(tmp_path, monkeypatch):
    from bench.plan.registry import fingerprint
    from bench.tools.adapter import programs_stamp

    monkeypatch.setenv("PATH", str(tmp_path))
    before, index_before = programs_stamp(), fingerprint()
    program = tmp_path / "picosat"
    program.write_text("#!/bin/sh\nexit 0\n")
    program.chmod(0o755)
    assert f"picosat {program} " in programs_stamp()
    assert programs_stamp() != before and fingerprint() != index_before
