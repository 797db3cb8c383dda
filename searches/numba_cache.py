"""numba's on-disk cache and the jitted functions it compiles in from other files.

numba keys a cached kernel on its own source file only, yet the kernel holds the compiled code of
every jitted function it calls. A module whose kernels call another file's jitted functions (the
A* kernels call ``tiles_ida``'s heuristics, the attractor's expansion and the board search call
``games_bitboard``'s primitives) calls :func:`forget_stale_cache` at import with those files.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any


def forget_stale_cache(dispatchers: Iterable[Any], *sources: str) -> int:
    """Drop numba's cached index of each dispatcher older than any of ``sources``.

    numba's cache is keyed on the source file of the function only, yet a cached kernel holds
    the compiled code of every jitted function it calls: the A* kernels (in ``tiles_astar``)
    compile in ``tiles_ida``'s heuristics, so an edit of ``tiles_ida.py`` would otherwise leave
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
