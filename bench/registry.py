"""Finding solvers: the ``cliffbench.solvers`` entry-point group, and ``--plugin FILE.py``.

Built-in solvers are listed in the project's own ``pyproject.toml`` under that group, so they
are found exactly as a third-party package's are. A plugin file is imported as a module; its
``@solver`` declarations register as it runs (plugins run code by design: load only files you
trust).
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from importlib.metadata import entry_points
from pathlib import Path

from bench.api import REGISTRY, SolverSpec, lookup, matching

ENTRY_POINT_GROUP = "cliffbench.solvers"


class RegistryError(LookupError):
    """An unknown solver, or a plugin or entry point that fails to load."""


_loaded_entry_points = False
_loaded_plugins: set[str] = set()


def load_entry_points() -> None:
    global _loaded_entry_points
    if _loaded_entry_points:
        return
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            ep.load()
        except Exception as exc:  # a broken plugin must say which one it is
            raise RegistryError(f"entry point {ep.name!r} ({ep.value}) of group "
                                f"{ENTRY_POINT_GROUP} failed to load: {exc}") from exc
    _loaded_entry_points = True


def load_plugin(path: str | Path) -> None:
    """Import a plugin file once (by resolved path); its solvers register as it runs."""
    path = Path(path).resolve()
    if str(path) in _loaded_plugins:
        return
    if not path.is_file():
        raise RegistryError(f"plugin file {path} does not exist")
    module_name = _importable_name(path)
    if module_name is not None:  # a module of an importable package: import it by its name,
        try:                     # so that its solvers (and numba's cache) see one module
            importlib.import_module(module_name)
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
        spec.loader.exec_module(module)
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


def load_solvers(plugins: list[str] | tuple[str, ...] = ()) -> dict[str, SolverSpec]:
    """Every solver: the installed entry points, then the plugin files."""
    load_entry_points()
    for plugin in plugins:
        load_plugin(plugin)
    if not REGISTRY:
        raise RegistryError("no solver is registered: is cliffbench installed "
                            "(pip install -e .)?")
    return REGISTRY


def known_names(solvers: dict[str, SolverSpec]) -> str:
    return ", ".join(sorted({s.name for s in solvers.values()}))


def get_solver(name: str, plugins: list[str] | tuple[str, ...] = (),
               family: str | None = None) -> SolverSpec:
    """The solver a name means (see :func:`bench.api.lookup`), as a RegistryError if none."""
    solvers = load_solvers(plugins)
    if not matching(name):
        raise RegistryError(f"unknown solver {name!r} (known: {known_names(solvers)})")
    try:
        return lookup(name, family)
    except KeyError as exc:
        raise RegistryError(exc.args[0]) from None
