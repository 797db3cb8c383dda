"""A solver's counters as the row says them: the ``counters`` column (every counter, as JSON
text with sorted names) and the columns taken out of it (``work_nodes``, ``work_conflicts``,
``work_restarts``, the ``solutions`` bucket).

One place for both the parent (bench/execute/classify.py, a run's row; bench/execute/blocks.py,
a block's chunk, whose counters the worker sends as their values where JSON carries them
exactly) and the worker (a chunk's columns made ready where it does not), so that a row says
the same whatever way it came. Many rows at once (:func:`counter_columns`) are written
from the columns without a dict per row where every row has every counter.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

#: The encoder of the ``counters`` column (one, not one per ``json.dumps`` call).
COUNTERS_JSON = json.JSONEncoder(sort_keys=True)


def solutions_bucket(count: Any) -> str | None:
    """A solution count as the ``solutions`` column says it: "0", "1", "2+" (None if absent)."""
    if isinstance(count, bool) or not isinstance(count, int | float) or count != count:
        return None
    return "0" if count <= 0 else "1" if count < 2 else "2+"


def work_columns(counters: dict[str, Any]) -> dict[str, Any]:
    """The columns a row takes out of a run's counters (None where it has no such counter)."""
    return {"work_nodes": counters.get("nodes", counters.get("branches")),
            "work_conflicts": counters.get("conflicts"),
            "work_restarts": counters.get("restarts"),
            "solutions": solutions_bucket(counters.get("solutions"))}


def counters_text(counters: dict[str, Any]) -> str | None:
    """The ``counters`` column of one run (None for no counters)."""
    return COUNTERS_JSON.encode(counters) if counters else None


def _number_arrays(counters: dict[str, list[Any]], names: list[str]) -> list[Any] | None:
    """Each named counter column as a float64 array, where every value is a plain number (an
    int, a float or a bool, NumPy's included; None if one is not, or an int is too big for a
    NumPy integer): one NumPy conversion a column, whose type says it (a text, a null or a
    huge int makes it another kind)."""
    arrays = []
    for name in names:
        array = np.asarray(counters[name])
        if array.ndim != 1 or array.dtype.kind not in "biuf":
            return None
        arrays.append(array.astype(np.float64, copy=False))
    return arrays


def _written_as_integers(array: Any) -> bool:
    """Whether ``float.__repr__`` writes every value as its integer and ``.0`` (a whole number
    below 1e16, not -0.0), so that ``%d.0`` of the integer is the same text, faster."""
    return bool(((array == np.trunc(array)) & (np.abs(array) < 1e16)
                 & ~((array == 0) & np.signbit(array))).all())


def plain_counter_values(counters: dict[str, list[Any]]) -> dict[str, list[Any]] | None:
    """The counters (name -> one value per run) as plain Python numbers, where every value
    of every counter is a finite int, float or bool (NumPy's included): what JSON carries
    exactly, so that :func:`counter_columns` of them at the other end of a pipe says what it
    says here (a worker sends a chunk's counters so: bench/execute/described.py); None where
    one is not (a null, a text, an integer too big for NumPy, a NaN or an infinity)."""
    plain = {}
    for name in sorted(counters):
        array = np.asarray(counters[name])
        if array.ndim != 1 or array.dtype.kind not in "biuf" \
                or (array.dtype.kind == "f" and not np.isfinite(array).all()):
            return None
        plain[name] = array.tolist()
    return plain


def counter_columns(counters: dict[str, list[Any]], n: int) -> dict[str, list[Any]]:
    """The ``counters`` and work columns of ``n`` runs from counters given as columns (name ->
    one value per run, None where a run has no such counter), each value made a float.

    Where every run has every counter and every value is finite, the text is written from a
    template (the encoder's own text: sorted names, ``float.__repr__``); otherwise run by run,
    through the encoder."""
    names = sorted(counters)
    complete = all(None not in counters[name] for name in names)
    arrays = _number_arrays(counters, names) if names and complete else None
    if arrays is not None:
        values = {name: array.tolist() for name, array in zip(names, arrays, strict=True)}
    else:
        values = {name: [None if v is None else float(v) for v in counters[name]]
                  for name in names}
    if arrays is not None and all(np.isfinite(array).all() for array in arrays):
        whole = all(_written_as_integers(array) for array in arrays)
        template = "{" + ", ".join(f"{json.dumps(name)}: {'%d.0' if whole else '%r'}"
                                   for name in names) + "}"
        rows = zip(*(array.astype(np.int64).tolist() if whole else values[name]
                     for name, array in zip(names, arrays, strict=True)), strict=True)
        texts = _each_formatted(template, rows) if whole else [template % row for row in rows]
    else:
        texts = [counters_text({k: v for k, v in zip(names, row, strict=True) if v is not None})
                 for row in zip(*values.values(), strict=True)] if names else [None] * n
    none = [None] * n
    nodes = values.get("nodes") or values.get("branches") or none
    if "nodes" in values and "branches" in values and None in values["nodes"]:
        nodes = [a if a is not None else b for a, b in zip(values["nodes"], values["branches"],
                                                              strict=True)]
    return {"counters": texts, "work_nodes": nodes,
            "work_conflicts": values.get("conflicts") or none,
            "work_restarts": values.get("restarts") or none,
            "solutions": _buckets(values["solutions"]) if "solutions" in values else none}


def _buckets(counts: list[Any]) -> list[str | None]:
    """:func:`solutions_bucket` of each count, each distinct count judged once."""
    bucket_of = {count: _BUCKET_OF.get(count) or solutions_bucket(count) for count in set(counts)}
    return list(map(bucket_of.__getitem__, counts))


def _each_formatted(template: str, rows: Any) -> list[str]:
    """``template % row`` of each row of integers, each distinct row formatted once (a chunk's
    runs often repeat their counters: a puzzle solved without a guess, at the root). Integers
    only: equal floats may differ in their text (0.0 and -0.0)."""
    made: dict[tuple[Any, ...], str] = {}
    get = made.get
    texts = []
    for row in rows:
        text = get(row)
        if text is None:
            text = made[row] = template % row
        texts.append(text)
    return texts


#: The bucket of the usual solution counts (floats here: ``counter_columns`` makes every
#: counter one), looked up instead of judged one by one.
_BUCKET_OF = {0.0: "0", 1.0: "1", 2.0: "2+"}
