"""The run journal: one JSON line per finished run, flushed and fsynced before the next is
scheduled, so a crash or a kill of the parent never loses a finished row.

A line cut by a kill mid-write is the only damage a journal can take; reading repairs it
(the partial line is dropped with a warning, the file truncated to its last whole line).
"""

from __future__ import annotations

import json
import math
import os
import warnings
from pathlib import Path
from typing import Any


def _clean(value: Any) -> Any:
    """JSON has no NaN: floats that are not finite become null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


class Journal:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._handle = None

    def read(self) -> list[dict[str, Any]]:
        """Every whole row; a cut last line is repaired (dropped, with a warning)."""
        if not self.path.exists():
            return []
        data = self.path.read_bytes()
        rows = []
        good_end = 0
        for line_no, line in enumerate(data.split(b"\n"), 1):
            if not line.strip():
                good_end += len(line) + 1
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                rest = data[good_end:]
                if rest.count(b"\n") > 1 or (rest.count(b"\n") == 1 and not rest.endswith(b"\n")):
                    raise ValueError(f"{self.path}:{line_no}: corrupt journal line "
                                     "(not the last one: refusing to guess)") from None
                warnings.warn(f"{self.path}:{line_no}: the last journal line was cut mid-write; "
                              "dropping it (that run will be redone)", stacklevel=2)
                with open(self.path, "r+b") as fh:
                    fh.truncate(good_end)
                break
            rows.append(row)
            good_end += len(line) + 1
        return rows

    def append(self, row: dict[str, Any]) -> None:
        self.append_many([row])

    def append_many(self, rows: list[dict[str, Any]]) -> None:
        """Append rows (a block's chunk) with one write and one fsync."""
        if self._handle is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._handle = open(self.path, "a", encoding="utf-8")
        dumps = json.dumps
        text = "".join(dumps({k: _clean(v) for k, v in row.items()}, separators=(",", ":"))
                       + "\n" for row in rows)
        self._handle.write(text)
        self._handle.flush()
        os.fsync(self._handle.fileno())

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None
