"""The lines between a worker and the parent: one JSON value a line, read back as sent.

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

The parent's messages to a worker (a run, or a block with its instances: tens of thousands of
texts) are written by orjson where its text holds no ``null`` (orjson writes a float that is
not finite as null, which a message without a null cannot have met) and orjson knows every
value as the standard encoder does; else by the standard encoder after a space, as above.
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


#: What orjson is told to leave to the standard encoder: the values it would write where the
#: standard encoder refuses them (dates, dataclasses, subclasses of str, int, dict or list).
_STANDARD_ONLY = (orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
                  | orjson.OPT_PASSTHROUGH_SUBCLASS)


def encode_to_worker(message: dict[str, Any]) -> bytes:
    """One line (newline included) of a message to a worker, which :func:`decode` reads as
    the standard encoder's text would be read: by orjson where that is exactly it (no null in
    the text, every value one orjson writes as the standard encoder does), else by the
    standard encoder after a space (which raises what it raises)."""
    try:
        data = orjson.dumps(message, option=_STANDARD_ONLY | orjson.OPT_APPEND_NEWLINE)
        if b"null" not in data:
            return data
    except TypeError:
        pass
    return (" " + json.dumps(message, separators=(",", ":")) + "\n").encode()


def decode(line: bytes) -> Any:
    """The value of one line :func:`encode` wrote."""
    if line[:1] == b"{":
        try:
            return orjson.loads(line)
        except orjson.JSONDecodeError:
            pass
    return json.loads(line)
