"""The ``adaptive`` table of a generator ladder: parsed, every key and value checked."""

from __future__ import annotations

import pytest

from bench.plan.suite import Adaptive, SuiteError, load_suite

from helpers import cliffbench

HEAD = """
name = "a"
[[solver]]
name = "dfs-restarts"
[[ladder]]
name = "grid"
generator = "edgematch/planted"
params = { border = 2, inner = 4 }
vary = "n"
seeds = [1, 2]
"""


def load(tmp_path, body: str):
    path = tmp_path / "s.toml"
    path.write_text(HEAD + body)
    return load_suite(str(path)), path


def test_an_adaptive_ladder_lists_every_candidate(tmp_path):
    suite, _ = load(tmp_path, "values = [3, 4, 5]\nadaptive = { runs = 4, width = 1.5 }\n")
    (ladder,) = suite.ladders
    assert ladder.adaptive == Adaptive(4, 1.5)
    assert [len(r.refs) for r in ladder.rungs] == [2, 2, 2]
    suite, _ = load(tmp_path, "values = [3, 4]\n")
    assert suite.ladders[0].adaptive is None


@pytest.mark.parametrize(("body", "says"), [
    ("values = [3, 4]\nadaptive = { runs = 4, width = 1, seeds = 2 }\n", "unknown key 'seeds'"),
    ("values = [3, 4]\nadaptive = { width = 1 }\n", "needs 'runs'"),
    ("values = [3, 4]\nadaptive = { runs = 4 }\n", "needs 'width'"),
    ("values = [3, 4]\nadaptive = { runs = 0, width = 1 }\n", "'runs' must be"),
    ("values = [3, 4]\nadaptive = { runs = 2.5, width = 1 }\n", "'runs' must be"),
    ("values = [3, 4]\nadaptive = { runs = true, width = 1 }\n", "'runs' must be"),
    ("values = [3, 4]\nadaptive = { runs = 4, width = 0 }\n", "'width' must be"),
    ("values = [3, 4]\nadaptive = { runs = 4, width = \"1\" }\n", "'width' must be"),
    ("values = [3, 4]\nadaptive = { runs = 4, width = nan }\n", "'width' must be"),
    ("values = [3, 4]\nadaptive = 4\n", "'adaptive' is a table"),
    ("values = [3, 5, 4]\nadaptive = { runs = 4, width = 1 }\n", "increasing"),
    ("values = [\"a\", \"b\"]\nadaptive = { runs = 4, width = 1 }\n", "increasing"),
    ("values = [3]\nadaptive = { runs = 4, width = 1 }\n", "at least two"),
])
def test_bad_adaptive_tables_are_refused_naming_file_and_key(tmp_path, body, says):
    with pytest.raises(SuiteError, match=says) as caught:
        load(tmp_path, body)
    assert str(tmp_path / "s.toml") in str(caught.value)
    assert "ladder 'grid'" in str(caught.value)


def test_adaptive_needs_a_generator_ladder(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text('[[solver]]\nname = "dfs-restarts"\n[[ladder]]\nname = "f"\n'
                    'rungs = [ { label = "4", instances = ["edgematch/planted:n=4,seed=1"] } ]\n'
                    'adaptive = { runs = 4, width = 1 }\n')
    with pytest.raises(SuiteError, match="needs a generator ladder"):
        load_suite(str(path))


def test_the_command_line_exits_2_on_a_bad_adaptive_table(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text(HEAD + "values = [3, 4]\nadaptive = { runs = 4, widht = 1 }\n")
    result = cliffbench("run", str(path), "--results", str(tmp_path / "r"))
    assert result.returncode == 2
    assert "unknown key 'widht'" in result.stderr and str(path) in result.stderr
