"""Every run of a sweep as a plain record, for the run explorer of the HTML page
(bench/views/html.py).

:func:`run_records` turns a frame normalised by :func:`bench.views.stats.normalize` into one dict
a run: the columns the explorer's table shows and sorts on, and what its drill-down shows (the
instance, its ``p_*`` parameters, the solver and its ``s_*`` parameters, the outcome, the costs,
the counters, how the limits were enforced). NA values are left out of a record, so the page
never shows ``None``; ``-0.0`` becomes ``0``, floats keep 6 significant digits, and the
``counters`` JSON is parsed into a dict. The solution and the score trace are not copied (they
are big, and the page shows a solution as a picture instead).
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

from bench.table.schema import PARAM_PREFIX_INSTANCE, PARAM_PREFIX_SOLVER
from bench.views.stats import counters_of

#: Columns copied into every record under their own names (when not NA).
RECORD_COLUMNS: tuple[str, ...] = (
    "family", "ladder", "rung", "rung_index", "config", "solver", "paradigm", "backend",
    "instance_id", "instance_name", "source", "feasible", "known_optimum", "max_score",
    "repeat", "seed", "cores", "status", "claimed", "verified", "verdict", "score", "objective",
    "solutions", "message", "t_wall", "t_cpu", "t_prepare", "t_encode", "t_solve",
    "peak_rss_mb", "peak_cgroup_mb", "budget_s", "budget_mb", "work_nodes", "work_conflicts",
    "work_restarts",
    "model_vars", "model_constraints", "limits", "limits_by", "host", "started_at", "key",
)


def plain(value: Any) -> Any:
    """A cell as a JSON value, or None for NA: NumPy scalars become Python ones, floats are
    rounded to 6 significant digits (``-0.0`` to ``0``), integral floats become ints."""
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        value = float(f"{value:.6g}") + 0.0
        return int(value) if value.is_integer() and abs(value) < 2**53 else value
    return value


def parsed_counters(text: Any) -> dict[str, Any] | None:
    """The ``counters`` column's JSON as a dict of plain values; None when absent or unreadable."""
    counters = counters_of(text)
    if counters is None:
        return None
    return {str(k): plain(v) if isinstance(v, int | float) else v for k, v in counters.items()}


def _params(row: dict[str, Any], prefix: str) -> dict[str, Any]:
    """The row's parameters of one kind (``p_`` or ``s_``), prefix dropped, NA left out."""
    out = {}
    for column, value in row.items():
        if column.startswith(prefix):
            value = plain(value)
            if value is not None:
                out[column[len(prefix):]] = value
    return out


def run_record(row: dict[str, Any], index: int) -> dict[str, Any]:
    """One run's record: ``id`` (its position), the copied columns, ``params``,
    ``solver_params`` and ``counters``; NA and empty values left out."""
    record: dict[str, Any] = {"id": index}
    for column in RECORD_COLUMNS:
        value = plain(row.get(column))
        if value is not None and value != "":
            record[column] = value
    for name, prefix in (("params", PARAM_PREFIX_INSTANCE), ("solver_params", PARAM_PREFIX_SOLVER)):
        values = _params(row, prefix)
        if values:
            record[name] = values
    counters = parsed_counters(row.get("counters"))
    if counters:
        record["counters"] = counters
    return record


def run_records(data: pd.DataFrame) -> list[dict[str, Any]]:
    """A record per row of a normalised frame, ``id`` being the row's position."""
    columns = [c for c in data.columns if not str(c).startswith("_")]
    rows = data[columns].astype(object).to_dict("records")
    return [run_record(row, i) for i, row in enumerate(rows)]
