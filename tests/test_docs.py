"""The documentation cannot drift from the code: the generated pages are what their generators
print, every link and every path or module it names exists, the README stays short, and the
suites page covers every shipped suite and its example loads."""

from __future__ import annotations

import importlib
import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest

from bench.plan.registry import solver_index
from bench.plan.suite import SUITES_DIR, load_suite
from bench.table.schema import COLUMNS, SCHEMA_VERSION, STATUS_MEANINGS, STATUSES, schema_markdown

from helpers import ROOT, cliffbench

DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
README_MAX_BYTES = 13_000


def text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def cli_reference():
    spec = importlib.util.spec_from_file_location("cli_reference", DOCS / "cli_reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_results_schema_page_is_what_the_schema_module_generates():
    page = text(DOCS / "results-schema.md")
    assert page == schema_markdown(), \
        "docs/results-schema.md is stale: python -m bench.table.schema > docs/results-schema.md"
    assert f"Schema version {SCHEMA_VERSION}" in page
    for name in COLUMNS:
        assert f"| `{name}` |" in page, name


def test_every_status_has_a_meaning():
    assert tuple(STATUS_MEANINGS) == STATUSES


def test_the_family_column_names_no_family():
    meaning = COLUMNS["family"][1]
    assert not any(name in meaning for name in ("edgematch", "sudoku", "tiles", "games"))


def test_the_cli_page_holds_every_commands_help_as_the_parser_prints_it():
    if sys.version_info[:2] != (3, 11):  # argparse's help layout changes between versions
        pytest.skip("docs/cli.md is generated with Python 3.11's argparse")
    reference = cli_reference()
    page = text(DOCS / "cli.md")
    assert reference.with_reference(page) == page, \
        "docs/cli.md is stale: run python docs/cli_reference.py"
    generated = reference.generated()
    from bench.cli import build_parser

    for path, _ in reference.commands(build_parser()):
        assert f"`{' '.join(('cliffbench', *path))}`" in generated


def test_the_cli_reference_walks_nested_and_family_commands():
    from bench.cli import build_parser

    paths = [path for path, _ in cli_reference().commands(build_parser())]
    assert () in paths and ("run",) in paths and ("data", "fetch") in paths


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    body = re.sub(r"```.*?```", "", text(path), flags=re.S)
    return {slug(m.group(1)) for m in re.finditer(r"^#+ (.+)$", body, re.M)}


LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_relative_link_points_at_a_file_and_heading_that_exist(page):
    for target in LINK.findall(text(page)):
        if re.match(r"[a-z]+:", target):
            continue
        file_part, _, anchor = target.partition("#")
        linked = (page.parent / file_part).resolve() if file_part else page
        assert linked.exists(), f"{page.name}: link to {target} (no {linked})"
        if anchor and linked.suffix == ".md":
            assert anchor in anchors(linked), f"{page.name}: link to {target} (no such heading)"


def test_the_readme_links_every_page_of_docs():
    readme = text(ROOT / "README.md")
    for page in DOCS.glob("*.md"):
        assert f"](docs/{page.name})" in readme, page.name


PATH = re.compile(r"(?<![\w/.$~<-])((?:bench|instances|searches|encoders|perf|benchmarks|tests"
                  r"|docs)/[\w./*<>-]*)")
MODULE = re.compile(r"(?<![\w/.-])((?:bench|instances|searches|encoders)(?:\.[A-Za-z_]\w*)+)")


#: Where a path a page names may start: the project, or an example's own folder (a page that
#: walks through an example names its files as that example's project sees them).
BASES = [ROOT, *sorted(p for p in ROOT.glob("examples/*") if p.is_dir())]


def exists(path: str) -> bool:
    for base in BASES:
        matches = list(base.glob(path.rstrip("/"))) if "*" in path else [base / path]
        if matches and all(m.exists() for m in matches):
            return True
    return False


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_path_a_page_names_exists(page):
    for found in PATH.findall(text(page)):
        path = found.rstrip(".,:;)")
        if "<" in path or "NAME" in path:
            continue
        assert exists(path), f"{page.name} names {path}"


def importable(dotted: str) -> bool:
    """Whether ``dotted`` is a module, or an attribute of one (``bench.api.Param``)."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        name = ".".join(parts[:cut])
        try:
            found = importlib.util.find_spec(name)
        except ModuleNotFoundError:
            found = None
        if found is not None:
            obj = importlib.import_module(name)
            for attribute in parts[cut:]:
                if not hasattr(obj, attribute):
                    return False
                obj = getattr(obj, attribute)
            return True
    return False


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_module_a_page_names_exists(page):
    for dotted in sorted(set(MODULE.findall(text(page)))):
        dotted = dotted.rstrip(".")
        if dotted.endswith((".py", ".toml", ".md", ".json")):
            continue
        assert importable(dotted), f"{page.name} names {dotted}"


def test_the_readme_is_short():
    size = len((ROOT / "README.md").read_bytes())
    assert size <= README_MAX_BYTES, f"README.md is {size} bytes: move detail into docs/"


def test_the_suites_page_covers_every_shipped_suite():
    page = text(DOCS / "suites.md")
    for suite in sorted(SUITES_DIR.glob("*.toml")):
        assert f"`{suite.stem}`" in page, suite.stem


def test_the_suites_page_example_loads(tmp_path):
    example = re.search(r"```toml\n(.*?)```", text(DOCS / "suites.md"), re.S).group(1)
    (tmp_path / "my_solvers.py").write_text("")
    path = tmp_path / "my-sweep.toml"
    path.write_text(example)
    suite = load_suite(str(path))
    assert [ladder.name for ladder in suite.ladders][:2] == ["planted-c22", "tiles"]
    names = {key.split("/", 1)[1] for key in solver_index()}
    assert {entry["name"] for entry in suite.solvers} <= names


def benchmark_classes() -> list[str]:
    """``module.Class`` of every asv benchmark class (one with a time_ or track_ method)."""
    import ast

    found = []
    for path in sorted((ROOT / "benchmarks").glob("*.py")):
        for node in ast.parse(text(path)).body:
            if isinstance(node, ast.ClassDef) and any(
                    isinstance(item, ast.FunctionDef)
                    and item.name.startswith(("time_", "track_", "mem_", "peakmem_"))
                    for item in node.body):
                found.append(f"{path.stem}.{node.name}")
    return found


def test_the_performance_page_names_every_perf_script_and_asv_benchmark():
    page = text(DOCS / "performance.md")
    for script in sorted((ROOT / "perf").glob("*.py")):
        assert f"python perf/{script.name}" in page, script.name
    classes = benchmark_classes()
    assert classes
    for name in classes:
        assert f"| `{name}` |" in page, name


#: File names the pages use for a user's own files, not the project's.
USER_FILES = {"my_solver.py", "my_solvers.py", "slurm_sweep.py"}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_python_file_a_page_names_is_in_the_project(page):
    ours = {p.name for top in ("bench", "instances", "searches", "encoders", "perf",
                               "benchmarks", "tests", "docs", "examples")
            for p in (ROOT / top).rglob("*.py")}
    for name in sorted(set(re.findall(r"(?<![\w/.*-])(\w+\.py)\b", text(page)))):
        placeholder = name[:-3].isupper()  # FILE.py, a metavar
        assert name in ours or name in USER_FILES or placeholder, f"{page.name} names {name}"


def machine_readable() -> str:
    page = " ".join(text(DOCS / "cli.md").split())
    return page.split("## Machine-readable output (stable keys)", 1)[1].split("## ", 1)[0]


def test_the_list_json_keys_are_the_documented_ones():
    documented = {}
    for key, fields in re.findall(r'"(\w+)": \[\{(.*?)\}\]', machine_readable()):
        fields = re.sub(r"\{[^{}]*\}", "", fields)
        documented[key] = {field.split(":")[0].strip() for field in fields.split(",")}
    data = json.loads(cliffbench("list", "--json", check=True).stdout)
    assert set(documented) == set(data)
    for key, records in data.items():
        assert records, key
        assert set(records[0]) == documented[key], key


def test_the_solve_and_verify_json_keys_are_the_documented_ones(tmp_path):
    text_ = machine_readable()
    both = text_.split("`verify --json`:", 1)[1].split("`solve` adds", 1)
    base = set(re.findall(r"`(\w+)`", both[0]))
    added = set(re.findall(r"`(\w+)`", both[1].split("`verify`'s status", 1)[0]))
    readme = text(ROOT / "README.md").split("## A solver in ten lines", 1)[1]
    plugin = tmp_path / "my_solver.py"
    plugin.write_text(re.search(r"```python\n(.*?)```", readme, re.S).group(1))
    spec = "edgematch/planted:n=5,hints=1"
    solved = cliffbench("solve", spec, "--solver", "hints-only", "--plugin", str(plugin),
                        "--json", check=True).stdout
    (tmp_path / "answer.json").write_text(solved)
    verified = cliffbench("verify", spec, str(tmp_path / "answer.json"), "--json").stdout
    assert set(json.loads(verified)) == base
    assert set(json.loads(solved)) == base | added
