"""numba's on-disk cache: the jitted functions it compiles in from other files, and what a
process has compiled and would find cached.

numba keys a cached kernel on its own source file only, yet the kernel holds the compiled code of
every jitted function and intrinsic it calls. So each module with cached kernels that call
another file's jitted code declares ``JIT_SOURCES``, the files its kernels compile code from
(itself, then the ``JIT_SOURCES`` of every module it calls into, so the list is transitive), and
calls ``forget_stale_cache(own_dispatchers(__name__), *JIT_SOURCES)`` at import (plus any kernel
it keeps outside its top level, such as a dict of specialisations): an edit of any of those
files then makes numba recompile the kernels on first use.

The worker (bench/execute/worker.py) notes which kernels a solver's ``prepare()`` compiled
(:func:`overload_counts` before, :func:`compiled_since` after) and, on the next start, whether
numba's cache still holds them (:func:`cached_on_disk`): whether that start compiles or loads.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Iterable
from typing import Any


def forget_stale_cache(dispatchers: Iterable[Any], *sources: str) -> int:
    """Drop numba's cached index of each dispatcher older than any of ``sources``.

    numba's cache is keyed on the source file of the function only, yet a cached kernel holds
    the compiled code of every jitted function it calls: the A* kernels (in ``tiles_astar``)
    compile in the heuristics of ``tiles_heuristics``, so an edit there would otherwise leave
    them running the old heuristic (with a new table layout: garbage). A module whose kernels
    call another file's jitted functions calls this at import with those files; numba then
    recompiles on first use. Returns the number of indexes dropped."""
    newest = max(os.stat(source).st_mtime for source in sources)
    dropped = 0
    for dispatcher in dispatchers:
        try:
            index = dispatcher._cache._cache_file._index_path
            if os.stat(index).st_mtime < newest:
                os.remove(index)
                dropped += 1
        except (AttributeError, OSError):  # not cached yet, or a numba without these names
            pass
    return dropped


def own_dispatchers(module: str) -> list[Any]:
    """The numba dispatchers that module ``module`` (imported) defines at its top level, not
    those it imports: what its :func:`forget_stale_cache` call covers, so that a kernel added
    later is covered too."""
    from numba.core.dispatcher import Dispatcher

    return [value for value in vars(sys.modules[module]).values()
            if issubclass(type(value), Dispatcher) and value.py_func.__module__ == module]


def module_dispatchers() -> dict[tuple[str, str], Any]:
    """Every numba dispatcher an imported module defines at its top level, by (module, name).

    A dispatcher imported into another module (``from searches.support.tiles_heuristics
    import child_h``) is listed once, under the module that defines it. Empty when numba was
    never imported."""
    if "numba" not in sys.modules:
        return {}
    from numba.core.dispatcher import Dispatcher

    found: dict[tuple[str, str], Any] = {}
    for module in list(sys.modules.values()):
        try:
            values = list(vars(module).values())
        except TypeError:  # not a module (sys.modules may hold anything)
            continue
        for value in values:
            if issubclass(type(value), Dispatcher):  # type(): a proxy may lie in __class__
                func = value.py_func
                found[(func.__module__, func.__name__)] = value
    return found


def overload_counts() -> dict[tuple[str, str], int]:
    """How many compiled signatures each dispatcher of :func:`module_dispatchers` holds."""
    return {name: len(d.overloads) for name, d in module_dispatchers().items()}


def compiled_since(before: dict[tuple[str, str], int]) -> dict[tuple[str, str], int]:
    """The dispatchers that gained compiled signatures since ``before`` (an
    :func:`overload_counts`), with their counts now."""
    return {name: count for name, count in overload_counts().items()
            if count > before.get(name, 0)}


def cached_on_disk(module: str, name: str) -> int:
    """How many signatures numba's on-disk index holds for ``module.name`` that a process would
    load rather than compile: numba's own reading of its index, which is empty when the index is
    missing, of another numba version, or stale (numba stamps it with a hash of the source file).
    The module is imported if it is not yet (a solver may import its library only when it
    prepares). 0 for a module or dispatcher that is gone, one not cached (``cache=False``), or a
    numba whose index reads otherwise."""
    try:
        dispatcher = getattr(importlib.import_module(module), name, None)
        return len(dispatcher._cache._cache_file._load_index())
    except Exception:  # gone, not cached, or another numba: nothing known to be cached
        return 0
