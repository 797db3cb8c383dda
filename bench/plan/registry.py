"""Finding solvers: the ``cliffbench.solvers`` entry-point group, and ``--plugin FILE.py``.

Built-in solvers are listed in the project's own ``pyproject.toml`` under that group, so they
are found exactly as a third-party package's are. A plugin file is imported as a module; its
``@solver`` declarations register as it runs (plugins run code by design: load only files you
trust). A ``.toml`` plugin file is a tools file: its tool adapters register as solvers
(bench/tools/; they run programs, so the same trust applies).

Importing every solver module costs numba, OR-Tools, HiGHS, ... in each process, so a command
that needs one solver imports one module. The **solver index** says which entry point declares
which solver, with the metadata ``cliffbench list`` shows (cached and fingerprinted as
``bench.plan.index_cache`` says: never stale).
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
import threading
from collections.abc import Callable
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from bench.api import REGISTRY, SolverSpec, lookup, solver_keys, unknown_solver
from bench.plan import index_cache

ENTRY_POINT_GROUP = "cliffbench.solvers"
INDEX_VERSION = 1


class RegistryError(LookupError):
    """An unknown solver, or a plugin or entry point that fails to load."""


_loaded_entry_points = False
_loaded_plugins: set[str] = set()
_loaded_modules: set[str] = set()


def _entry_points() -> list[Any]:
    return sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda ep: ep.name)


def imported_apart(load: Callable[[], Any]) -> Any:
    """``load()`` (an import) run in a thread of its own, waited for; what it returned, or
    raised, is this call's.

    A module may keep an exception it caught while it was imported (pulp keeps those of its
    solver probes). The exception's traceback holds the frames of the import and, through
    each frame's ``f_back``, every frame that led to it: imported in the caller's thread,
    those are the caller's frames, whose locals (a sweep's plan, when the import happens
    while it is planned) would then stay alive as long as the module. In a thread of its
    own, the chain ends where the thread began."""
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append((True, load()))
        except BaseException as exc:  # noqa: B036 - handed to the caller, which raises it
            outcome.append((False, exc))

    thread = threading.Thread(target=run, name="cliffbench-import", daemon=True)
    thread.start()
    thread.join()
    done, value = outcome[0]
    if not done:
        raise value
    return value


def _load_entry_point(ep: Any) -> None:
    try:
        imported_apart(ep.load)
    except Exception as exc:  # a broken plugin must say which one it is
        raise RegistryError(f"entry point {ep.name!r} ({ep.value}) of group "
                            f"{ENTRY_POINT_GROUP} failed to load: {exc}") from exc
    _loaded_modules.add(ep.value)


def load_entry_points() -> None:
    """Import every module of the entry-point group (each registers its solvers)."""
    global _loaded_entry_points
    if _loaded_entry_points:
        return
    for ep in _entry_points():
        _load_entry_point(ep)
    _loaded_entry_points = True


def load_plugin(path: str | Path) -> None:
    """Import a plugin file once (by resolved path); its solvers register as it runs. A
    ``.toml`` file is a tools file instead: its tool adapters register (bench/tools/)."""
    path = Path(path).resolve()
    if str(path) in _loaded_plugins:
        return
    if not path.is_file():
        raise RegistryError(f"plugin file {path} does not exist")
    if path.suffix == ".toml":
        from bench.tools.adapter import ToolError, load_tools
        from bench.tools.solvers import register_tool

        try:
            for tool in load_tools(path):
                register_tool(tool, f"tools file {path}")
        except (ToolError, ValueError) as exc:
            raise RegistryError(str(exc)) from None
        _loaded_plugins.add(str(path))
        return
    module_name = _importable_name(path)
    if module_name is not None:  # a module of an importable package: import it by its name,
        try:                     # so that its solvers (and numba's cache) see one module
            imported_apart(lambda: importlib.import_module(module_name))
        except Exception as exc:
            raise RegistryError(f"plugin file {path} failed to load: {exc}") from exc
        _loaded_plugins.add(str(path))
        return
    digest = hashlib.sha256(str(path).encode()).hexdigest()[:10]
    name = f"cliffbench_plugin_{path.stem}_{digest}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise RegistryError(f"plugin file {path} cannot be imported")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        imported_apart(lambda: spec.loader.exec_module(module))
    except Exception as exc:
        del sys.modules[name]
        raise RegistryError(f"plugin file {path} failed to load: {exc}") from exc
    _loaded_plugins.add(str(path))


def _importable_name(path: Path) -> str | None:
    """The dotted name under which ``path`` is importable as a module of a package (e.g.
    ``searches.tiles_ida``: the folders above it that hold an ``__init__.py``), or None."""
    parts = [path.stem]
    folder = path.parent
    while (folder / "__init__.py").is_file():
        parts.insert(0, folder.name)
        folder = folder.parent
    if len(parts) < 2 or not all(p.isidentifier() for p in parts):
        return None
    name = ".".join(parts)
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin or Path(spec.origin).resolve() != path:
        return None
    return name


def load_plugins(plugins: list[str] | tuple[str, ...] = ()) -> None:
    for plugin in plugins:
        load_plugin(plugin)


def load_solvers(plugins: list[str] | tuple[str, ...] = ()) -> dict[str, SolverSpec]:
    """Every solver: the installed entry points, then the plugin files."""
    load_entry_points()
    load_plugins(plugins)
    if not REGISTRY:
        raise RegistryError("no solver is registered: is cliffbench installed "
                            "(pip install -e .)?")
    return REGISTRY


# -- the solver index --------------------------------------------------------------------------

def fingerprint() -> str:
    """A hash of the solver entry points, of every source file their packages hold, and of
    the shipped tool adapters' file and programs (installing one changes its backend)."""
    from bench.tools.adapter import programs_stamp

    return index_cache.fingerprint(f"v{INDEX_VERSION}\n{programs_stamp()}", _entry_points())


def _build_index() -> dict[str, Any]:
    """Import every entry point, one at a time, and note which solvers each one registered;
    a solver registered before (its module imported earlier in this process) is noted under
    the entry point of its declaring module."""
    solvers: dict[str, Any] = {}
    points = _entry_points()
    for ep in points:
        before = set(REGISTRY)
        _load_entry_point(ep)
        for key in sorted(set(REGISTRY) - before):
            solvers[key] = {"module": ep.value, "meta": REGISTRY[key].to_json()}
    modules = {ep.value for ep in points}
    for key, spec in sorted(REGISTRY.items()):
        if key not in solvers and spec.module in modules:
            solvers[key] = {"module": spec.module, "meta": spec.to_json()}
    global _loaded_entry_points
    _loaded_entry_points = True
    return {"version": INDEX_VERSION, "solvers": solvers}


_index: dict[str, Any] | None = None


def solver_index() -> dict[str, dict[str, Any]]:
    """``family/name`` -> ``{"module": entry-point module, "meta": SolverSpec.to_json()}`` for
    every installed solver (plugin files not included), from the cache when it is current."""
    global _index
    if _index is not None:
        return _index["solvers"]
    data = index_cache.cached_index("solvers", INDEX_VERSION, fingerprint(), _build_index)
    _index = data
    return data["solvers"]


def _import_declaring(key: str) -> None:
    entry = solver_index().get(key)
    if entry is None or entry["module"] in _loaded_modules:
        return
    for ep in _entry_points():
        if ep.value == entry["module"]:
            _load_entry_point(ep)
            return


def load_solver(key: str, plugins: list[str] | tuple[str, ...] = ()) -> SolverSpec:
    """The solver ``family/name``, importing only the module that declares it (plugin files
    first, then the index; everything, if the index does not know it)."""
    load_plugins(plugins)
    if key not in REGISTRY:
        _import_declaring(key)
    if key not in REGISTRY:
        load_entry_points()
    if key not in REGISTRY:
        raise RegistryError(unknown_solver(key, all_names(plugins)))
    return REGISTRY[key]


def load_named(name: str, plugins: list[str] | tuple[str, ...] = ()) -> dict[str, SolverSpec]:
    """The solvers ``name`` (``sat`` or ``sudoku/sat``) means (:func:`bench.api.solver_keys`
    over the index and the plugin files), each module imported, as a registry of just those;
    a RegistryError naming close names when there is none."""
    load_plugins(plugins)
    keys = solver_keys(name, {*solver_index(), *REGISTRY})
    if not keys:
        raise RegistryError(unknown_solver(name, all_names(plugins)))
    return {key: load_solver(key, plugins) for key in keys}


def load_for_names(names: list[str], plugins: list[str] | tuple[str, ...] = (),
                   families: set[str] | None = None) -> dict[str, SolverSpec]:
    """The solvers a suite's names mean, as a registry of just those, each declaring module
    imported and no other (a sweep's parent imports what it runs, not every engine): a
    name's solvers of ``families`` where it has some there, else all of its (the suite's
    resolution then says which families the name is for). A name that means no solver is a
    RegistryError naming close names, as :func:`load_named`'s."""
    load_plugins(plugins)
    known = {*solver_index(), *REGISTRY}
    chosen: dict[str, SolverSpec] = {}
    for name in names:
        keys = solver_keys(name, known)
        if not keys:
            raise RegistryError(unknown_solver(name, all_names(plugins)))
        if families is not None:
            keys = [key for key in keys if key.split("/", 1)[0] in families] or keys
        for key in keys:
            chosen[key] = load_solver(key, plugins)
    return chosen


def all_names(plugins: list[str] | tuple[str, ...] = ()) -> list[str]:
    """Every solver name (without family), installed or from plugin files."""
    load_plugins(plugins)
    return sorted({k.split("/", 1)[1] for k in {*solver_index(), *REGISTRY}})


def get_solver(name: str, plugins: list[str] | tuple[str, ...] = (),
               family: str | None = None) -> SolverSpec:
    """The solver a name means (see :func:`bench.api.lookup`), as a RegistryError if none."""
    load_solvers(plugins)
    try:
        return lookup(name, family)
    except KeyError as exc:
        raise RegistryError(exc.args[0]) from None
