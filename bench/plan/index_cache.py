"""Indexes of what entry points declare, cached so a command need not import every plug-in.

Importing every solver module (numba, OR-Tools, HiGHS, ...) or every family (NumPy) would cost
each command more than the command itself. An **index** says what each entry point declares. It
is a JSON file in the user's cache folder (``$XDG_CACHE_HOME/cliffbench``), named by a
fingerprint of what it was built from: the entry points (name, target, where their distribution
is installed and when) and, for each top-level package or module they live in, the path, size
and modification time of every ``.py`` file. Any edit, install or upgrade changes the
fingerprint, so a stale index is never read: it is rebuilt by importing everything once.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

#: Indexes of one kind kept in the cache folder (one per environment and source state).
KEEP = 8


def cache_folder() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "cliffbench"


def source_files(module: str) -> list[Path]:
    """The ``.py`` files of the top-level package (or the single module) ``module`` is in."""
    top = module.split(".", 1)[0]
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return []
    if spec is None:
        return []
    if spec.submodule_search_locations:
        files: list[Path] = []
        for folder in spec.submodule_search_locations:
            files.extend(sorted(Path(folder).rglob("*.py")))
        return files
    return [Path(spec.origin)] if spec.origin else []


def distribution_stamp(ep: Any) -> str:
    """Where the entry point's distribution is installed and when (its metadata folder names
    the version; reading the metadata itself would cost more than all the rest)."""
    dist = getattr(ep, "dist", None)
    folder = getattr(dist, "_path", None)
    if folder is None:
        return f"{dist.name} {dist.version}" if dist is not None else "-"
    try:
        return f"{folder} {Path(folder).stat().st_mtime_ns}"
    except OSError:
        return str(folder)


def fingerprint(salt: str, points: Iterable[Any]) -> str:
    """A hash of ``salt``, the entry points and every source file their packages hold."""
    h = hashlib.sha256(f"{salt} {sys.version}".encode())
    tops: set[str] = set()
    for ep in points:
        h.update(f"{ep.name}={ep.value} {distribution_stamp(ep)}\n".encode())
        tops.add(ep.value.split(".", 1)[0])
    for top in sorted(tops):
        for path in source_files(top):
            try:
                st = path.stat()
            except OSError:
                continue
            h.update(f"{path} {st.st_size} {st.st_mtime_ns}\n".encode())
    return h.hexdigest()[:24]


def write_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.replace(tmp, path)


def cached_index(kind: str, version: int, print_: str,
                 build: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """The index ``<kind>-<print_>.json`` from the cache when present and of ``version``,
    else ``build()`` (a dict with ``"version": version``), written there for next time (the
    ``KEEP`` newest of that kind stay, so environments sharing the cache folder do not rebuild
    each other's; a read-only cache folder only costs the rebuild)."""
    path = cache_folder() / f"{kind}-{print_}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("version") != version:
            raise ValueError("old index")
        return data
    except (OSError, ValueError):
        pass
    data = build()
    try:
        write_atomically(path, json.dumps(data))
        older = sorted(path.parent.glob(f"{kind}-*.json"), key=lambda p: p.stat().st_mtime)
        for old in older[:-KEEP]:
            old.unlink(missing_ok=True)
    except OSError:
        pass
    return data


__all__ = ["cache_folder", "cached_index", "distribution_stamp", "fingerprint", "source_files",
           "write_atomically"]
