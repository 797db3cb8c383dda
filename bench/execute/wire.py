"""The lines a worker sends the parent: one JSON value a line, read back as sent.

The standard library's encoder writes every message, except a block's ``rows`` (a chunk of
up to thousands of answers, the one message sent per instance solved), which orjson writes
about ten times faster. Their texts differ in three ways, handled so that the parent reads
what the standard encoder would have given it:

- orjson refuses an integer past 64 bits and a lone surrogate: the standard encoder writes
  that message;
- orjson writes a float that is not finite as null: a chunk whose ``objective`` column (the
  one number a claim is judged by) holds one is written by the standard encoder (``NaN``,
  ``Infinity``); any other such number of a chunk (a counter, a model size) arrives null, as
  the journal would store it;
- orjson reads a large integer as a float: a line the standard encoder wrote begins with a
  space and is read by the standard decoder; a line orjson wrote holds none.

Values neither encoder knows are sent as their text (``default=str``), NumPy's floats (a float
subclass) as numbers, as the standard encoder writes them.
"""

from __future__ import annotations

import json
import math
from typing import Any

import orjson


def _default(value: Any) -> Any:
    """What orjson writes for a value it does not know: a float subclass as a float (NumPy's
    floats), anything else as its text, as ``json.dumps(..., default=str)`` does."""
    return float(value) if isinstance(value, float) else str(value)


def _finite_objectives(message: dict[str, Any]) -> bool:
    """Whether a ``rows`` message's ``objective`` column has no float that is not finite."""
    values = message.get("columns", {}).get("objective") or ()
    return all(math.isfinite(v) for v in values if isinstance(v, float))


def encode(message: dict[str, Any]) -> bytes:
    """One line (newline included): by orjson for a ``rows`` message it writes as the standard
    encoder would be read, else by the standard encoder after a space."""
    if message.get("op") == "rows" and _finite_objectives(message):
        try:
            return orjson.dumps(message, default=_default,
                                option=orjson.OPT_NON_STR_KEYS | orjson.OPT_APPEND_NEWLINE)
        except TypeError:
            pass
    return (" " + json.dumps(message, separators=(",", ":"), default=str) + "\n").encode()


def decode(line: bytes) -> Any:
    """The value of one line :func:`encode` wrote."""
    if line[:1] == b"{":
        try:
            return orjson.loads(line)
        except orjson.JSONDecodeError:
            pass
    return json.loads(line)
