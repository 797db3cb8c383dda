"""What a worker reports of the outcomes it got: one run's result fields (:func:`describe`),
and a block's chunk as columns (:func:`chunk_columns`).

A chunk's columns hold one value per instance, in order, under the row's own names where the
row keeps the value as it is (``claimed``, ``solution`` as the answer's JSON text, ``t_wall``,
...); ``kind`` says what became of each solve (``outcome``, or ``error``/``memout`` with a
``message``). The counters go as their values (``counter_values``: name -> one number per
instance, where every one is a finite number: :func:`sent_counters`), of which the parent makes
the row's ``counters`` text and work columns (bench/execute/counters.py's
``counter_columns``), or else as those columns made here. A column no instance has a value in
is left out (the parent reads it as null). The parent checks the answers and classifies each
claim (bench/execute/blocks.py); nothing here judges.
"""

from __future__ import annotations

import json
from typing import Any

from bench.execute.counters import counter_columns, plain_counter_values

#: The encoder of an answer's text (the row's ``solution``), as bench/execute/classify.py has.
ANSWER_JSON = json.JSONEncoder(separators=(",", ":"))
#: The columns of an outcome a chunk carries besides the counters', in the row's order.
OUTCOME_FIELDS = ("claimed", "solution", "objective", "message", "t_encode", "t_solve",
                  "model_vars", "model_constraints", "score_trace")


def describe(outcome: Any, instance: Any) -> dict[str, Any]:
    """One run's outcome as the worker sends it: the claim, the answer as the family's JSON
    form, the counters as floats, the timings and model size, the score trace."""
    from bench.api import Outcome

    if not isinstance(outcome, Outcome):
        raise TypeError(f"solve() returned {type(outcome).__name__}, not an Outcome")
    solution = None
    if outcome.solution is not None:
        solution = outcome.solution.to_json(instance)
    return {"claimed": outcome.status, "solution": solution, "objective": outcome.objective,
            "counters": {k: float(v) for k, v in outcome.counters.items()},
            "t_encode": outcome.t_encode, "t_solve": outcome.t_solve,
            "model_vars": outcome.model_vars, "model_constraints": outcome.model_constraints,
            "score_trace": [list(map(float, p)) for p in outcome.score_trace],
            **({"message": outcome.note} if outcome.note else {})}


def failed_columns(kind: str, message: str, n: int) -> dict[str, list[Any]]:
    """The columns of a chunk none of whose instances got an outcome (the call raised)."""
    return {"kind": [kind] * n, "message": [message] * n}


def outcome_list_columns(outcomes: list[Any], chunk: list[Any]) -> dict[str, list[Any]]:
    """The columns of a chunk from one :class:`bench.api.Outcome` per instance; an outcome that
    cannot be described (not an Outcome, an answer that will not serialise) is that
    instance's ``error``. ``t_wall`` is each outcome's own (None where it gave none)."""
    n = len(chunk)
    columns: dict[str, list[Any]] = {"kind": ["outcome"] * n,
                                     **{name: [None] * n for name in OUTCOME_FIELDS}}
    counters: dict[str, list[Any]] = {}
    for i, (instance, outcome) in enumerate(zip(chunk, outcomes, strict=True)):
        try:
            fields = describe(outcome, instance)
            fields["solution"] = (None if fields["solution"] is None
                                  else ANSWER_JSON.encode(fields["solution"]))
            fields["score_trace"] = json.dumps(fields["score_trace"]) \
                if fields["score_trace"] else None
        except Exception as exc:
            columns["kind"][i] = "error"
            columns["message"][i] = f"{type(exc).__name__}: {exc}"
            continue
        for name in OUTCOME_FIELDS:
            columns[name][i] = fields.get(name)
        for name, value in fields["counters"].items():
            counters.setdefault(name, [None] * n)[i] = value
    columns.update(sent_counters(counters, n))
    columns["t_wall"] = [getattr(outcome, "t_wall", None) for outcome in outcomes]
    return columns


def sent_counters(counters: dict[str, list[Any]], n: int) -> dict[str, Any]:
    """A chunk's counters as sent: ``{"counter_values": ...}`` where JSON carries them
    exactly (``plain_counter_values``), else the row's counter columns made here."""
    plain = plain_counter_values(counters) if counters else None
    return {"counter_values": plain} if plain else counter_columns(counters, n)


def received_counters(columns: dict[str, Any], n: int) -> dict[str, Any]:
    """The row's counter columns of a chunk's ``n`` instances as the worker sent them: made
    here of its ``counter_values``, or as they came."""
    values = columns.get("counter_values")
    return counter_columns(values, n) if values else {}


def outcomes_columns(batch: Any, n: int) -> dict[str, list[Any]]:
    """The columns of a chunk from a batch entry's :class:`bench.api.Outcomes`."""
    if len(batch) != n:
        raise TypeError(f"the batch entry returned {len(batch)} outcomes for {n} instances")
    return {"kind": ["outcome"] * n, "claimed": list(batch.claimed),
            "solution": list(batch.answers), **sent_counters(batch.counters, n),
            "t_wall": batch.t_wall}


def chunk_columns(columns: dict[str, list[Any]], wall: float, cpu: float
                  ) -> dict[str, list[Any]]:
    """A chunk's columns as sent: each instance's ``t_wall`` its own, or an equal share of the
    chunk's ``wall`` where it gave none; ``t_cpu`` the chunk's CPU seconds shared in
    proportion to those times; both to the nanosecond (the clocks' own resolution: digits
    past it are the arithmetic of the shares, and cost their text in every message and
    journal line); columns without a value left out."""
    import numpy as np

    n = len(columns["kind"])
    given = columns.get("t_wall")
    times = np.asarray([None] * n if given is None else given, dtype=np.float64)  # None: NaN
    times = np.where(np.isfinite(times), times, wall / n)
    columns["t_wall"] = np.round(times, 9).tolist()
    columns["t_cpu"] = np.round(times * (cpu / wall), 9).tolist() if wall > 0 else [None] * n
    return {name: values for name, values in columns.items()
            if type(values) is not list or values.count(None) != len(values)}
