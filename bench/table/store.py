"""Where sweeps live: ``results/<sweep>/`` holds ``journal.jsonl`` (the truth, appended per run),
``runs.parquet`` (the journal compacted into the table of bench/table/schema.py) and
``manifest.json`` (how the sweep was made). ``load()`` is the one way in.

pandas is imported by the functions that build or read tables, not with the module: the runner
and ``cliffbench solve`` use ``now()`` and the journal, and must not pay for it.
"""

from __future__ import annotations

import json
import os
import platform
import socket
import subprocess
import sys
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bench.table.journal import Journal
from bench.table.schema import COLUMNS, SCHEMA_VERSION

if TYPE_CHECKING:
    import pandas as pd

JOURNAL = "journal.jsonl"
TABLE = "runs.parquet"
MANIFEST = "manifest.json"
DEFAULT_RESULTS = Path("results")


def sweep_dir(path_or_sweep: str | Path, results: str | Path = DEFAULT_RESULTS) -> Path:
    """A sweep's folder: the path itself when it is one, else ``results/<name>``."""
    path = Path(path_or_sweep)
    if path.is_dir() or path.suffix == ".parquet":
        return path if path.is_dir() else path.parent
    candidate = Path(results) / str(path_or_sweep)
    if candidate.is_dir():
        return candidate
    raise FileNotFoundError(f"no sweep {str(path_or_sweep)!r} (looked for {path} and {candidate})")


def to_frame(rows: list[dict[str, Any]] | dict[str, list[Any]]) -> pd.DataFrame:
    """Rows (or columns: name -> values) to the typed table: schema columns first, in order,
    then p_* and s_* sorted."""
    import pandas as pd

    frame = pd.DataFrame(rows)
    for name, (dtype, _) in COLUMNS.items():
        if name not in frame:
            frame[name] = pd.Series([None] * len(frame), dtype="object")
        frame[name] = frame[name].astype(dtype)
    extra = sorted(c for c in frame.columns if c not in COLUMNS)
    for column in extra:
        values = frame[column]
        kinds = _kinds(values.tolist(), type(pd.NA))
        if kinds and kinds <= {int, float, bool} and not (bool in kinds and kinds != {bool}):
            frame[column] = values.astype("boolean" if kinds == {bool} else
                                          "Int64" if kinds == {int} else "Float64")
        elif kinds == {str}:
            frame[column] = values.astype("string")
        else:
            frame[column] = values.map(lambda v: None if v is None or
                                       (isinstance(v, float) and pd.isna(v)) else str(v)
                                       ).astype("string")
    return frame[list(COLUMNS) + extra]


def _kinds(values: list[Any], na_type: type) -> set[type]:
    """The types of a column's values, nulls (None, NaN, pandas' NA) left out."""
    kinds = set(map(type, values))
    kinds.discard(type(None))
    kinds.discard(na_type)
    if float in kinds and all(v != v for v in values if type(v) is float):
        kinds.discard(float)
    return kinds


def compact(directory: str | Path) -> Path:
    """Write ``runs.parquet`` from the journal (atomically: write then rename)."""
    directory = Path(directory)
    columns, _ = Journal(directory / JOURNAL).read_columns()
    frame = to_frame(columns)
    target = directory / TABLE
    tmp = target.with_suffix(".parquet.tmp")
    frame.to_parquet(tmp, index=False)
    os.replace(tmp, target)
    return target


def load(path_or_sweep: str | Path, results: str | Path = DEFAULT_RESULTS) -> pd.DataFrame:
    """The results table of a sweep (a name under ``results/``, a folder, or a Parquet file).

    When the journal is newer than the table (a sweep still running, or killed), the table is
    compacted again first, so ``load`` always sees every finished run.
    """
    import pandas as pd

    path = Path(path_or_sweep)
    if path.suffix == ".parquet" and path.is_file() and not (path.parent / JOURNAL).exists():
        return pd.read_parquet(path)
    directory = sweep_dir(path_or_sweep, results)
    table, journal = directory / TABLE, directory / JOURNAL
    if journal.exists() and (not table.exists()
                             or journal.stat().st_mtime_ns > table.stat().st_mtime_ns):
        compact(directory)
    if not table.exists():
        raise FileNotFoundError(f"{directory} holds no {TABLE} and no {JOURNAL}")
    return pd.read_parquet(table)


def _git_commit() -> str | None:
    root = Path(__file__).resolve().parents[2]
    try:
        out = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True,
                             text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _memory_mb() -> int | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) // 1024
    except OSError:
        pass
    return None


PACKAGES = ("numpy", "numba", "pandas", "pyarrow", "ortools", "python-sat", "highspy", "pulp",
            "xcover", "igraph", "rich", "dask", "distributed")


def environment() -> dict[str, Any]:
    versions = {}
    for name in PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return {
        "git_commit": _git_commit(),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "host": socket.gethostname(),
        "cpu_model": _cpu_model(),
        "cpu_count": os.cpu_count(),
        "memory_mb": _memory_mb(),
        "packages": versions,
    }


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def write_manifest(directory: str | Path, manifest: dict[str, Any]) -> Path:
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    target = directory / MANIFEST
    tmp = target.with_suffix(".json.tmp")
    tmp.write_text(json.dumps({"schema_version": SCHEMA_VERSION, **manifest}, indent=2,
                              sort_keys=True, default=str) + "\n")
    os.replace(tmp, target)
    return target
