"""The family contract as code (``instances.family``): the four built-in families are declared
``Family`` objects found through the ``cliffbench.families`` entry points, and a declaration
that breaks the contract is refused at load with a message naming what is wrong."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import textwrap
from importlib import metadata

import pytest

import instances
from instances.family import Family, FamilyError, contract_breaches, load_family

BUILT_IN = ("edgematch", "games", "sudoku", "tiles")


def test_the_built_in_families_are_entry_points_keeping_the_contract():
    assert set(BUILT_IN) <= set(instances.family_names())
    for name in BUILT_IN:
        family = instances.family(name)
        assert isinstance(family, Family) and family.name == name
        assert contract_breaches(family, name) == []
        assert family.generators and family.suffixes and family.summary


def test_parts_the_harness_used_to_look_up_by_name_come_from_the_declaration():
    assert instances.family("tiles").objective == "min"
    assert instances.family("edgematch").objective == "max"
    assert instances.family("edgematch").score_meaning == "joins matched"
    assert instances.family("sudoku").score_meaning == ""
    assert instances.family("tiles").commands.endswith(":add_commands")
    assert all(instances.family(n).picture for n in BUILT_IN)


def write_module(tmp_path, monkeypatch, name, source):
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(source))
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop(name, None)


SUDOKU_PARTS = """
    import instances.sudoku as s
    from instances.family import Family
    """


def entry(name, value):
    return metadata.EntryPoint(name=name, value=value, group="cliffbench.families")


def test_a_declaration_missing_a_required_part_is_refused_naming_it(tmp_path, monkeypatch):
    write_module(tmp_path, monkeypatch, "fam_missing", SUDOKU_PARTS + """
    FAMILY = Family(name="mini", summary="x", instance_type=s.Instance,
                    solution_type=s.Solution, suffixes=(".mini",), read_file=s.read_file,
                    write_file=s.write_file, read_solution=s.read_solution,
                    generators=s.GENERATORS, render=s.render)
    """)
    with pytest.raises(FamilyError, match=r"family 'mini' .*refused: missing .*'check'"):
        load_family(entry("mini", "fam_missing:FAMILY"))


def test_a_declaration_breaking_the_contract_is_refused_with_every_breach(tmp_path,
                                                                         monkeypatch):
    write_module(tmp_path, monkeypatch, "fam_broken", SUDOKU_PARTS + """
    import dataclasses
    FAMILY = dataclasses.replace(s.FAMILY, name="other", suffixes=("txt",), check=42,
                                 objective="least", picture="no colon")
    """)
    with pytest.raises(FamilyError) as caught:
        load_family(entry("mini", "fam_broken:FAMILY"))
    text = str(caught.value)
    for breach in ("not its entry point's 'mini'", "suffixes", "check is not callable",
                   "objective 'least'", "picture must be 'module:function'"):
        assert breach in text


def test_an_entry_point_naming_something_else_or_failing_to_import_is_refused(tmp_path,
                                                                             monkeypatch):
    write_module(tmp_path, monkeypatch, "fam_other", "FAMILY = {'name': 'mini'}\n")
    with pytest.raises(FamilyError, match="is a dict, not an instances.Family"):
        load_family(entry("mini", "fam_other:FAMILY"))
    write_module(tmp_path, monkeypatch, "fam_crash", "raise RuntimeError('no luck')\n")
    with pytest.raises(FamilyError, match="cannot be imported: RuntimeError: no luck"):
        load_family(entry("mini", "fam_crash:FAMILY"))


def test_an_unknown_family_names_the_known_ones():
    with pytest.raises(FamilyError, match="unknown family 'chess' .*edgematch"):
        instances.family("chess")


def test_optional_parts_default_to_none():
    bare = dataclasses.replace(instances.family("sudoku"), picture=None, sniff=None,
                               commands=None)
    assert bare.drawer() is None and contract_breaches(bare) == []
    assert bare.reads(__import__("pathlib").Path("x.txt"))
    with pytest.raises(FamilyError, match="sudoku.picture = 'nowhere:draw' cannot be loaded"):
        dataclasses.replace(bare, picture="nowhere:draw").drawer()


def test_a_solver_of_an_undeclared_family_is_refused():
    from bench.api import Outcome, solver

    with pytest.raises(ValueError, match="unknown family 'chess' \\(declared families: "):
        @solver("test-chess", family="chess", paradigm="native", backend="none")
        def solve(instance, budget, seed):
            return Outcome("unknown")


def test_help_lists_a_family_command_without_importing_any_family(tmp_path):
    """``cliffbench --help`` reads the family index (the family's command module only)."""
    code = ("import sys, bench.cli\n"
            "try:\n    bench.cli.main(['--help'])\nexcept SystemExit:\n    pass\n"
            "print('numpy' in sys.modules, 'instances.tiles' in sys.modules)")
    env = {"XDG_CACHE_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    first = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env=env, check=True)
    assert "pdb " in first.stdout  # the tiles' command, added from the family's declaration
    again = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env=env, check=True)
    assert again.stdout.strip().endswith("False False"), again.stdout
    assert list(tmp_path.glob("cliffbench/families-*.json"))


def test_generated_each_is_generated_of_each():
    """``generated_each`` (a file's instances made at once) gives what ``Generated(...)`` gives,
    field for field, each its own parameters; a field Generated lacks is refused."""
    from instances.common import Generated, generated_each

    made = generated_each(["a", "b"], [{"x": 1}, {"x": 2}], "file.txt", feasible=True,
                          known_solutions=1)
    want = [Generated(name, None, True, {"x": x}, "file.txt", known_solutions=1)
            for name, x in (("a", 1), ("b", 2))]
    assert made == want and [vars(m) for m in made] == [vars(w) for w in want]
    assert made[0].params is not made[1].params
    with pytest.raises(TypeError, match="no field 'colour'"):
        generated_each(["a"], [{}], "f", colour=1)
