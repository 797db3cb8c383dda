"""The worker's lines (bench/execute/wire.py) read back as the standard library's would."""

from __future__ import annotations

import json

import numpy as np

from bench.execute.wire import decode, encode


def standard(message):
    """What the parent read before: the standard encoder's line, the standard decoder."""
    return json.loads(json.dumps(message, separators=(",", ":"), default=str))


def same(a, b) -> bool:
    return json.dumps(a, default=str) == json.dumps(b, default=str)  # NaN equal to NaN


def test_a_chunks_rows_read_back_as_sent():
    rows = {"op": "rows", "id": 3, "start": 0, "chunk_wall": 0.25,
            "columns": {"kind": ["outcome", "error"], "claimed": ["solved", None],
                        "solution": ['{"box":3,"grid":"12.\\"é"}', None],
                        "objective": [3, 2.5], "t_wall": [1e-05, 0.1],
                        "work_nodes": [np.float64(2.0), 7.0], "extra": [np.int64(4), {1: [2]}],
                        "message": [None, "ValueError: é\n"]}}
    line = encode(rows)
    assert line.endswith(b"\n") and line.count(b"\n") == 1 and line[:1] == b"{"
    assert same(decode(line), standard(rows))


def test_what_orjson_would_change_goes_the_standard_way():
    """An objective that is not finite, an integer past 64 bits, a lone surrogate, and every
    message other than a chunk's rows: the standard encoder's line (after a space), read by
    the standard decoder, exactly."""
    for message in ({"op": "rows", "columns": {"objective": [float("inf"), None]}},
                    {"op": "rows", "columns": {"objective": [np.float64("nan")]}},
                    {"op": "rows", "columns": {"work_nodes": [2 ** 70]}},
                    {"op": "rows", "columns": {"message": ["\ud800"]}},
                    {"op": "result", "objective": float("nan"), "big": 2 ** 80,
                     "score_trace": [[0.1, float("inf")]]},
                    {"op": "started", "id": 1, "t_prepare": 0.5}):
        line = encode(message)
        assert line[:1] == b" "
        assert same(decode(line), standard(message))
    assert decode(encode({"op": "rows", "columns": {"n": [2 ** 70]}}))["columns"]["n"] \
        == [2 ** 70]


def test_a_chunks_other_number_that_is_not_finite_arrives_null():
    """As the journal would store it (bench/table/journal.py cleans such floats to null)."""
    got = decode(encode({"op": "rows", "columns": {"t_solve": [float("nan"), 1.5]}}))
    assert got["columns"]["t_solve"] == [None, 1.5]


def test_a_message_to_a_worker_reads_as_the_standard_encoders_text():
    """A run or block sent to a worker: by orjson where its text is the standard encoder's
    value (a block's instances, its names), else by the standard encoder (a null, which may
    be a NaN orjson wrote as one; a number past 64 bits; a key that is no text; a lone
    surrogate); either way read back as the standard encoder's line; a value the standard
    encoder refuses is refused as it refuses it."""
    import datetime

    import pytest

    from bench.execute.wire import encode_to_worker

    block = {"op": "run", "task": {"id": 7, "solver": "native", "params": {"unique": True},
                                   "budget_s": 10.0, "block": {"id": "b/é", "instances": {
                                       "box": 3, "grids": ["1." * 40 + "2"] * 3,
                                       "names": ["a#1", 'q"uote', "\u2028"]}}}}
    fast = encode_to_worker(block)
    assert fast[:1] == b"{" and fast.endswith(b"\n") and fast.count(b"\n") == 1
    assert decode(fast) == json.loads(json.dumps(block)) == block
    for value in (float("nan"), float("inf"), None, 2 ** 70, {1: 2}, "\ud800"):
        message = {"op": "run", "task": {"params": {"x": value}}}
        line = encode_to_worker(message)
        assert line[:1] == b" ", value  # the standard way, read by the standard decoder
        assert same(decode(line), json.loads(json.dumps(message)))
    for value in (datetime.date(2026, 12, 5), np.float32(0.5)):
        with pytest.raises(TypeError):
            encode_to_worker({"op": "run", "task": {"params": {"x": value}}})
