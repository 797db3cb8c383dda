"""The solver index: commands that need one solver import one module, and the index is never
stale (it is named by a fingerprint of the entry points and their source files)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from bench.plan import registry

from helpers import ROOT, sudoku_ladder_suite


def run_python(code: str, cache: str) -> str:
    env = {**os.environ, "XDG_CACHE_HOME": cache}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


#: What a command imported of the solvers and their engines. The families' command modules
#: (``Family.commands``: the tiles' ``pdb``, argparse only) are on every command line's parser;
#: package ``__init__`` modules hold only docstrings.
IMPORTED = ("import json, sys; print(json.dumps(sorted(m for m in sys.modules "
            "if m.split('.')[0] in ('searches', 'encoders', 'ortools', 'pysat', 'highspy', "
            "'pandas', 'numba') and m not in ('searches', 'searches.support', "
            "'searches.support.tiles_pdb_cli'))))")


def test_list_imports_no_solver_module_once_the_index_exists(tmp_path):
    build_index(tmp_path)
    (index,) = (tmp_path / "cliffbench").glob("solvers-*.json")
    out = run_python("import contextlib, io\nfrom bench.cli import main\n"
                     "with contextlib.redirect_stdout(io.StringIO()) as text:\n"
                     "    main(['list', '--json'])\n"
                     f"{IMPORTED}\nprint(text.getvalue())", str(tmp_path))
    imported, listing = out.split("\n", 1)
    assert json.loads(imported) == []
    listed = {(s["family"], s["name"]): s for s in json.loads(listing)["solvers"]}
    full = {(s.family, s.name): json.loads(json.dumps(s.to_json()))
            for s in registry.load_solvers().values()
            if s.module.split(".")[0] in ("searches", "encoders")}  # not the tests' plugins
    assert len(full) >= 20
    for key, meta in full.items():
        meta.pop("param_specs")
        assert listed[key] == meta
    assert index.is_file()


def build_index(cache) -> None:
    run_python("from bench.plan.registry import solver_index; solver_index()", str(cache))


def test_one_solver_imports_its_module_only(tmp_path):
    build_index(tmp_path)
    out = run_python("from bench.plan.registry import load_solver\n"
                     "spec = load_solver('sudoku/norvig')\n"
                     "assert spec.module == 'searches.sudoku_norvig'\n" + IMPORTED, str(tmp_path))
    assert json.loads(out) == ["searches.sudoku_norvig"]


def test_a_sweep_plan_imports_the_modules_of_its_solvers_only(tmp_path):
    build_index(tmp_path)
    suite = tmp_path / "s.toml"
    suite.write_text(sudoku_ladder_suite("s", [1, 2], [30], solver="norvig"))
    out = run_python("from bench.execute.sweep import prepare_sweep\n"
                     f"suite, tasks = prepare_sweep({str(suite)!r})\n"
                     "assert len(tasks) == 2\n" + IMPORTED, str(tmp_path))
    assert [m for m in json.loads(out) if m.split(".")[0] in ("searches", "encoders")] \
        == ["searches.sudoku_norvig"]


def test_a_suite_naming_no_solver_is_told_close_names(tmp_path):
    from bench.execute.sweep import prepare_sweep
    from bench.plan.suite import SuiteError

    suite = tmp_path / "s.toml"
    suite.write_text(sudoku_ladder_suite("s", [1], [30], solver="norvgi"))
    with pytest.raises(SuiteError, match=rf"{suite}: unknown solver 'norvgi' \(did you mean "
                                          "'norvig'"):
        prepare_sweep(str(suite))


def test_an_edit_changes_the_fingerprint(tmp_path):
    source = ROOT / "searches" / "__init__.py"
    before = registry.fingerprint()
    stat = source.stat()
    try:
        os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
        assert registry.fingerprint() != before
    finally:
        os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert registry.fingerprint() == before


def test_a_damaged_index_is_rebuilt(tmp_path):
    build_index(tmp_path)
    (index,) = (tmp_path / "cliffbench").glob("solvers-*.json")
    index.write_text("{not json")
    out = run_python("from bench.plan.registry import solver_index\n"
                     "print(len(solver_index()))", str(tmp_path))
    assert int(out) == len(json.loads(index.read_text())["solvers"]) >= 20


def test_an_unknown_name_lists_close_ones_from_the_index(tmp_path):
    build_index(tmp_path)
    out = run_python("from bench.plan.registry import RegistryError, load_named\n"
                     "try:\n    load_named('alphabta')\nexcept RegistryError as exc:\n"
                     f"    print(exc)\n{IMPORTED}", str(tmp_path))
    message, imported = out.strip().split("\n")
    assert "did you mean 'alphabeta'" in message and "known: " in message
    assert not [m for m in json.loads(imported) if m.startswith(("encoders", "ortools"))]


def test_solvers_imported_before_the_index_is_built_are_in_it(tmp_path):
    out = run_python("import encoders.edgematch_cpsat\n"
                     "from bench.plan.registry import solver_index\n"
                     "print(solver_index()['edgematch/cpsat']['module'])", str(tmp_path))
    assert out.strip() == "encoders.edgematch_cpsat"
    out = run_python("from bench.plan.registry import load_named\n"
                     "print(sorted(load_named('cpsat')))", str(tmp_path))
    assert "edgematch/cpsat" in out and "sudoku/cpsat" in out


def test_a_plan_is_freed_though_a_module_it_imported_keeps_an_exception(tmp_path):
    """A module that keeps an exception it caught while imported (as pulp does) keeps the
    frames of its import through the exception's traceback: imported in a thread of its own
    (``imported_apart``), those frames do not lead back into the planning, so the first plan
    of a process is freed once let go, as later ones are."""
    (tmp_path / "keeper.py").write_text(
        "try:\n    raise ImportError('a probe that failed')\n"
        "except ImportError as exc:\n    KEPT = exc\n")
    suite = tmp_path / "s.toml"
    suite.write_text(f'plugins = ["{tmp_path / "keeper.py"}"]\n'
                     + sudoku_ladder_suite("s", [1, 2], [30]))
    out = run_python("import gc, weakref\nfrom bench.execute.sweep import prepare_sweep\n"
                     f"suite, tasks = prepare_sweep({str(suite)!r})\n"
                     "assert tasks and 'keeper' in str(suite.plugins)\n"
                     "plan = weakref.ref(suite)\ndel suite, tasks\n"
                     "gc.unfreeze(); gc.collect()\nprint(plan() is None)", str(tmp_path))
    assert out.strip() == "True"


def test_a_plan_made_alone_is_left_to_the_collector_and_a_sweeps_is_frozen_to_its_end(
        tmp_path, monkeypatch):
    """``prepare_sweep`` on its own freezes nothing (its plan is collected as any objects
    are); ``run_sweep`` keeps its plan out of collections while it runs, and lets it go at
    its end."""
    import gc

    from bench.execute import sweep as sweep_module

    suite = tmp_path / "s.toml"
    suite.write_text(sudoku_ladder_suite("s", [1, 2], [30]))
    before = gc.get_freeze_count()
    _, tasks = sweep_module.prepare_sweep(str(suite))
    assert tasks and gc.get_freeze_count() == before and gc.isenabled()
    seen = []

    def locked(suite, tasks, *args, **kwargs):
        seen.append(gc.get_freeze_count())
        return tmp_path

    monkeypatch.setattr(sweep_module, "_run_locked", locked)
    sweep_module.run_sweep(str(suite), results=tmp_path / "results", progress=False)
    assert seen and seen[0] > before and gc.get_freeze_count() == 0
