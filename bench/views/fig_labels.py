"""What configs and instances are called in figures: legend labels, tick labels, natural order.

- :func:`legend_labels`: a config's legend text is its solver's name followed by the parameters
  that tell it apart, ``ida-pdb (partition=4-4-4-3, reflect=False)``: those that differ between
  the solver's configs in the table (the ones the report's config label carries) and those set
  away from the solver's registered default (a sweep of one PDB config still says which PDB).
  Defaults come from the solver index (``bench.plan.registry``, no solver imported) when the solver
  is installed; a table from elsewhere with an unknown solver still gets the differing ones.
- :func:`natural_key`: text with its numbers compared as numbers (``s2`` before ``s10``).
- :func:`short_names`: instance names with the parts every name shares left out
  (``planted_n4_b5_i17_h4_s1`` -> ``n4 s1``), so tick labels say what differs.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

_SOLVER_PARAM = "s_"


def fmt_value(value: Any) -> str:
    """A parameter value as it reads in a label: 3 rather than 3.0, NA for a missing one."""
    if value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        return "NA"
    if isinstance(value, bool | np.bool_):
        return str(bool(value))
    if isinstance(value, int | np.integer):
        return str(int(value))
    if isinstance(value, float | np.floating):
        return str(int(value)) if float(value).is_integer() else str(float(value))
    return str(value)


@functools.cache
def registered_defaults(family: str, solver: str) -> dict[str, str] | None:
    """The registered solver's parameter defaults as label text, None when it is not installed
    (or its plugin fails to load: a label is no reason to stop drawing)."""
    try:
        from bench.plan.registry import solver_index

        entry = solver_index().get(f"{family}/{solver}")
    except Exception:  # noqa: BLE001 - any broken plugin only costs the defaults
        return None
    if entry is None:
        return None
    return {name: fmt_value(value) for name, value in entry["meta"]["params"].items()}


def _shown_params(rows: pd.DataFrame, family: str, solver: str) -> list[str]:
    """The ``s_*`` columns a solver's legend labels name: those varying between its rows, and
    those whose (single) value differs from its registered default."""
    params = sorted(c for c in rows.columns if str(c).startswith(_SOLVER_PARAM)
                    and rows[c].notna().any())
    shown = [c for c in params if rows[c].nunique(dropna=False) > 1]
    defaults = registered_defaults(family, solver) or {}
    for column in params:
        name = column.removeprefix(_SOLVER_PARAM)
        values = {fmt_value(v) for v in rows[column].dropna()}
        if column not in shown and name in defaults and values != {defaults[name]}:
            shown.append(column)
    if "cores" in rows.columns and rows["cores"].nunique() > 1:
        shown.append("cores")
    return sorted(shown)


def _label(solver: str, row: dict[str, Any], shown: list[str]) -> str:
    """``solver (k=v, ...)``, or the plain name when no parameter is shown."""
    pairs = [f"{c.removeprefix(_SOLVER_PARAM)}={fmt_value(row[c])}" for c in shown]
    return f"{solver} ({', '.join(pairs)})" if pairs else solver


def legend_labels(data: pd.DataFrame) -> dict[tuple[str, str], str]:
    """(family, config) -> legend text, for every config of a normalised frame (one with the
    report's ``config`` column)."""
    labels: dict[tuple[str, str], str] = {}
    for (family, solver), rows in data.groupby(["family", "solver"], sort=True):
        shown = _shown_params(rows, str(family), str(solver))
        firsts = rows.drop_duplicates("config")
        for row in firsts.to_dict("records"):
            labels[(str(family), str(row["config"]))] = _label(str(solver), row, shown)
    return labels


def natural_key(text: Any) -> tuple[Any, ...]:
    """A sort key comparing the runs of digits in ``text`` as numbers: s2 < s10."""
    parts = re.split(r"(\d+)", str(text))
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in parts if p)


def short_names(names: Sequence[str]) -> list[str]:
    """Names without the tokens (split at ``_``, ``-``, ``.`` and spaces) that all of them
    share; a name left empty keeps its full form."""
    tokens = [re.split(r"[_\-. ]+", str(n)) for n in names]
    if len(tokens) < 2:
        return [str(n) for n in names]
    common = set(tokens[0]).intersection(*map(set, tokens[1:]))
    out = []
    for name, parts in zip(names, tokens, strict=True):
        kept = [p for p in parts if p and p not in common]
        out.append(" ".join(kept) if kept else str(name))
    return out
