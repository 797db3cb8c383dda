"""The layers, as the imports say them: every import in the project goes downward.

From the bottom: the families (``instances``), the contracts plug-ins import (``bench.api``,
``bench.cliargs``), the solvers (``searches``, ``encoders``, and ``bench.tools``, which makes
solvers of other people's programs), the table (``bench.table``), the
reference data (``bench.data``), defining sweeps (``bench.plan``), running them
(``bench.execute``), the views (``bench.views``), and on top the command line, the conformance
suite and the ``bench`` package's own functions. Imports inside functions count too: a lazy
import is still a dependency. Modules of one layer may import each other.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: Module prefixes from the bottom up (the longest matching prefix decides a module's layer).
LAYERS = (
    ("instances",),
    ("bench.api", "bench.cliargs", "bench.names", "bench.stats"),
    ("searches", "encoders", "bench.tools"),
    ("bench.table",),
    ("bench.data",),
    ("bench.plan",),
    ("bench.execute",),
    ("bench.views",),
    ("bench.cli", "bench.conformance", "bench"),
)


def layer_of(module: str) -> int | None:
    best: tuple[int, int] | None = None
    for rank, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if module == prefix or module.startswith(prefix + "."):
                if best is None or len(prefix) > best[0]:
                    best = (len(prefix), rank)
    return None if best is None else best[1]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> list[tuple[int, str]]:
    """(line, imported module) of every import statement in the file, relative ones resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module_name(path).rsplit(".", 1)[0] if path.name != "__init__.py" \
        else module_name(path)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module or ""
            found.append((node.lineno, target))
            # ``from bench import views`` imports the subpackage bench.views
            found += [(node.lineno, f"{target}.{alias.name}") for alias in node.names
                      if layer_of(f"{target}.{alias.name}") != layer_of(target)]
    return found


SOURCES = sorted(p for top in ("instances", "bench", "searches", "encoders")
                 for p in (ROOT / top).rglob("*.py"))


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_go_downward(path):
    own = layer_of(module_name(path))
    assert own is not None, f"{path} is in no layer: add its package to LAYERS"
    upward = [f"line {line}: {target} ({LAYERS[layer_of(target)][0]} is above "
              f"{LAYERS[own][0]})" for line, target in imports_of(path)
              if layer_of(target) is not None and layer_of(target) > own]
    assert not upward, f"{path.relative_to(ROOT)} imports upward:\n" + "\n".join(upward)


def test_the_installed_package_holds_no_perf_scripts_or_benchmarks():
    assert not (ROOT / "bench" / "perf").exists() and not (ROOT / "bench" / "asv").exists()
    assert (ROOT / "perf").is_dir() and (ROOT / "benchmarks").is_dir()


def test_modules_that_register_solvers_are_the_entry_points():
    """A module of ``searches``/``encoders`` that declares solvers (``@solver``) sits at the top
    of its package and is a ``cliffbench.solvers`` entry point; support modules are in
    ``support/`` and declare none."""
    import tomllib

    declared = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
                   ["entry-points"]["cliffbench.solvers"].values())
    for top in ("searches", "encoders"):
        for path in sorted((ROOT / top).rglob("*.py")):
            registers = "@solver(" in path.read_text(encoding="utf-8")
            name = module_name(path)
            if registers:
                assert name in declared, f"{name} registers solvers but is no entry point"
                assert path.parent == ROOT / top, f"{name} registers solvers outside {top}/"
            elif path.name != "__init__.py":
                assert path.parent.name == "support", f"{name} registers nothing: support/"


#: What in bench/ may name a family: modules that declare solvers of one, as any plug-in does
#: (the chaos suite's misbehaving solvers run on edge-matching boards), and the reference data's
#: list and recipes (``bench/data``: its files live in one folder per family, and converting a
#: source's format is that format's business).
NAMES_ALLOWED = ("bench/execute/chaos.py", "bench/data/")


def family_words(path: Path, names: set[str]) -> list[str]:
    """Where a module's code (not its docstrings or comments) names a family: a string that is a
    family's name or starts with ``<name>/``, or an identifier or attribute of that name."""
    import io
    import tokenize

    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {node.body[0].value.lineno for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                       ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)
                  and isinstance(node.body[0].value.value, str)}
    found = []
    tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
    for token in tokens:
        if token.type == tokenize.STRING and token.start[0] not in docstrings:
            try:
                value = ast.literal_eval(token.string)
            except (ValueError, SyntaxError):  # an f-string
                value = token.string
            if isinstance(value, str) and any(value == n or value.startswith(f"{n}/")
                                              for n in names):
                found.append(f"line {token.start[0]}: {token.string}")
        elif token.type == tokenize.NAME and token.string in names:
            found.append(f"line {token.start[0]}: {token.string}")
    return found


def test_nothing_in_the_harness_names_a_family():
    """Every family arrives through its declaration: the harness's code (docstrings and
    comments aside) holds no family's name."""
    import instances

    names = set(instances.family_names())
    assert {"edgematch", "sudoku", "tiles", "games"} <= names
    hits = {str(p.relative_to(ROOT)): family_words(p, names)
            for p in sorted((ROOT / "bench").rglob("*.py"))
            if not str(p.relative_to(ROOT)).startswith(NAMES_ALLOWED)}
    assert {path: lines for path, lines in hits.items() if lines} == {}
