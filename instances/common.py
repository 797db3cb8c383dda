"""What every family shares: the error for bad input, the checker's verdict, content hashes.

This module (like all of ``instances/``) imports nothing else of the project: checkers must stay
independent of every solver and of the harness.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Iterable
from dataclasses import MISSING, dataclass, field, fields
from numbers import Integral, Real
from pathlib import Path
from typing import Any


class InstanceError(ValueError):
    """Bad input: a malformed file, an out-of-range parameter, an unknown generator.

    The message names where the problem is (``path:line``, or the parameter) and why, so the CLI
    can print it as the one line a user needs.
    """

    def __init__(self, reason: str, path: str | None = None, line: int | None = None):
        self.reason = reason
        self.path = path
        self.line = line
        where = ""
        if path is not None:
            where = f"{path}:{line}: " if line is not None else f"{path}: "
        super().__init__(where + reason)


@dataclass(frozen=True)
class Verdict:
    """What a family's checker says of an answer.

    ``legal``: the answer obeys every rule (a partial board can be legal). ``solved``: it is a
    complete, correct answer. ``score``/``max_score``: partial credit where the family has one
    (edge matching: matched interior joins), else None. ``reason``: why it is not legal or not
    solved ("" when solved).
    """

    legal: bool
    solved: bool
    score: int | None = None
    max_score: int | None = None
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"legal": self.legal, "solved": self.solved, "score": self.score,
                "max_score": self.max_score, "reason": self.reason}


@dataclass(frozen=True)
class Generated:
    """An instance as a generator or a file gives it, with what solvers must never see.

    ``secret`` is a known solution (a planted board, the solution lines of a file) or None.
    ``feasible`` is True when the instance is known to have a solution (planted), None when
    unknown. ``params`` are the generator's resolved parameters (or those a file declares), which
    become the ``p_*`` columns of the results table (read only: a file's puzzles of equal
    parameters may share one dict). ``known_optimum``/``max_score`` where known.
    ``known_solutions``: how many solutions the instance has where that is known (1 for a
    planted Sudoku, unique by construction).
    """

    instance: Any
    secret: Any = None
    feasible: bool | None = None
    params: dict[str, Any] = field(default_factory=dict)
    source: str = ""
    known_optimum: float | None = None
    known_solutions: int | None = None


def generated_each(instances: list[Any], params: list[dict[str, Any]], source: str,
                   **common: Any) -> list[Generated]:
    """``Generated(instance, params=params, source=source, **common)`` of each instance with
    its parameters, made at once for a file's tens of thousands: each object's fields are set
    together from one template (the frozen dataclass's ``__init__`` sets them one by one
    through ``object.__setattr__``), the same fields and values as ``__init__`` gives."""
    names = {f.name for f in fields(Generated)}
    unknown = set(common) - names
    if unknown:
        raise TypeError(f"Generated has no field {sorted(unknown)[0]!r}")
    given = {**common, "source": source}
    template = {f.name: given.get(f.name, None if f.default is MISSING else f.default)
                for f in fields(Generated)}  # instance and params are each object's own
    factories = {f.name: f.default_factory for f in fields(Generated)
                 if f.default_factory is not MISSING and f.name not in {*given, "params"}}
    made = []
    new = object.__new__
    for instance, own in zip(instances, params, strict=True):
        one = new(Generated)
        state = one.__dict__
        state.update(template)
        state["instance"] = instance
        state["params"] = own
        if factories:  # a mutable default of each object's own
            state.update({name: make() for name, make in factories.items()})
        made.append(one)
    return made


def content_hash(payload: Any, length: int = 16) -> str:
    """A stable hash of a JSON-serialisable value (sorted keys, no whitespace): ids and keys."""
    return text_hash(json.dumps(payload, sort_keys=True, separators=(",", ":")), length)


def text_hash(text: str, length: int = 16) -> str:
    """:func:`content_hash` of a value whose canonical JSON text is ``text`` (a family that
    writes that text itself, faster than the encoder, gets the same id)."""
    return hashlib.sha256(text.encode()).hexdigest()[:length]


def text_hashes(texts: list[str], length: int = 16) -> list[str]:
    """:func:`text_hash` of each text, in one pass."""
    sha256 = hashlib.sha256
    return [sha256(text.encode()).hexdigest()[:length] for text in texts]


def instance_hash(record: dict[str, Any]) -> str:
    """An instance's id from its ``to_json()`` record: the :func:`content_hash` of everything
    but its ``name``, so renaming an instance keeps its id."""
    return content_hash({key: value for key, value in record.items() if key != "name"})


def text_lines(text: str) -> list[str]:
    """The lines of a text, split at line breaks only (LF, CR LF, CR).

    ``str.splitlines`` also splits at form feeds, vertical tabs, U+2028 and others, and then
    the line numbers in messages would not match what an editor shows.
    """
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    return lines[:-1] if not lines[-1] else lines


def read_text(path: str | Path) -> str:
    """A file's text, decoded as UTF-8 whatever the locale says; InstanceError naming the file
    when it cannot be read or decoded (a NUL in the name is a ValueError of ``open``)."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, ValueError) as exc:
        raise InstanceError(f"cannot read: {exc}", str(path)) from None


#: How much of a file a family's sniffer reads (``head_text``): enough for the first lines of
#: any collection, a small part of a big one.
SNIFF_BYTES = 1 << 16


def head_text(path: str | Path, limit: int = SNIFF_BYTES) -> tuple[str, bool]:
    """The beginning of a file's text and whether it is the whole file: all of it when it
    holds at most ``limit`` bytes, else its lines that end within the first ``limit`` bytes
    (the whole file where no line does). Decoded as UTF-8 and refused as :func:`read_text`
    refuses, so that a sniffer reads a big collection's head, not all of it."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)
            whole = len(data) <= limit
            if not whole:
                cut = max(data.rfind(b"\n", 0, limit), data.rfind(b"\r", 0, limit))
                if cut < 0:
                    data, whole = data + handle.read(), True
                else:
                    data = data[:cut + 1]
        return data.decode("utf-8"), whole
    except (OSError, ValueError) as exc:  # UnicodeDecodeError is a ValueError
        raise InstanceError(f"cannot read: {exc}", str(path)) from None


def sniff_text(path: str | Path) -> tuple[str, bool]:
    """What a sniffer reads of a file, and whether it is the whole file: its head
    (:func:`head_text`), or the whole file where the head holds nothing but blank and ``#``
    comment lines."""
    text, whole = head_text(path)
    if not whole and first_content(text_lines(text)) is None:
        return read_text(path), True
    return text, whole


def first_content(lines: list[str]) -> str | None:
    """The first line that is neither blank nor a ``#`` comment, None if there is none."""
    return next((line for line in lines if line.strip() and not line.lstrip().startswith("#")),
                None)


# --------------------------------------------------------------------------------------------
# generator parameters
#
# A generator's parameters come from a spec string (already numbers, booleans or strings), a
# suite's TOML or Python. Each one is checked for its type and for a range whose upper limit
# keeps the generator within a few seconds and well under a gigabyte: a parameter that asks for
# more is refused before any work is done, with the allowed range in the message.

#: Seeds are non-negative (numpy's generators refuse negative ones) and fit the int64 column.
MAX_SEED = 2**63 - 1

_ASCII_INT = re.compile(r"[+-]?[0-9]{1,30}")
_ASCII_REAL = re.compile(r"[+-]?(?:[0-9]{1,30}(?:\.[0-9]{0,30})?|\.[0-9]{1,30})"
                         r"(?:[eE][+-]?[0-9]{1,3})?")


def shown(value: Any) -> str:
    """A value as a message shows it: huge integers by their size, long texts cut short (a
    5,000-digit integer cannot even be turned into a string by default)."""
    if isinstance(value, Integral) and not isinstance(value, bool) \
            and int(value).bit_length() > 64:
        digits = int(int(value).bit_length() * math.log10(2)) + 1
        return f"{'-' if value < 0 else ''}<an integer of about {digits} digits>"
    text = repr(value)
    return text if len(text) <= 40 else text[:36] + "...'"


def refusal(where: str, name: str, value: Any, problem: str, allowed: str,
            why: str = "") -> InstanceError:
    """The error for a bad parameter: ``generator: name=value problem (parameter 'name' takes
    allowed; why)``."""
    reason = f"; {why}" if why else ""
    return InstanceError(f"{where}: {name}={shown(value)} {problem} (parameter {name!r} takes "
                         f"{allowed}{reason})")


def _check_range(where: str, name: str, value: Any, number: float, lo: float, hi: float,
                 allowed: str, why: str) -> None:
    if number < lo:
        problem = "is negative" if number < 0 <= lo else "is too small"
        raise refusal(where, name, value, problem, allowed, why)
    if number > hi:
        raise refusal(where, name, value, "is too large", allowed, why)


def int_param(where: str, name: str, value: Any, lo: int, hi: int, why: str = "") -> int:
    """An integer parameter in ``lo..hi``: an int (a bool is not one), an integral float (a
    spec's ``4.0``) or ASCII digits; else InstanceError naming the generator (``where``), the
    parameter and the range, and ``why`` the range is what it is."""
    allowed = f"an integer in {lo}..{hi}"
    if isinstance(value, Integral) and not isinstance(value, bool):
        number = int(value)
    elif isinstance(value, float) and value.is_integer():
        number = int(value)
    elif isinstance(value, str) and _ASCII_INT.fullmatch(value.strip()):
        number = int(value)
    else:
        raise refusal(where, name, value, "is not an integer", allowed, why)
    _check_range(where, name, value, number, lo, hi, allowed, why)
    return number


def float_param(where: str, name: str, value: Any, lo: float, hi: float, why: str = "") -> float:
    """A real parameter in ``lo..hi``: an int or a finite float (not a bool, not NaN), or its
    ASCII decimal text."""
    allowed = f"a number in {lo}..{hi}"
    number: float = math.nan
    if isinstance(value, Integral) and not isinstance(value, bool):
        number = int(value)  # compared as an int: float(10**400) would overflow
    elif isinstance(value, Real) and not isinstance(value, bool):
        number = float(value)
    elif isinstance(value, str) and _ASCII_REAL.fullmatch(value.strip()):
        number = float(value)
    if isinstance(number, float) and not math.isfinite(number):
        problem = "is not finite" if isinstance(value, float) else "is not a number"
        raise refusal(where, name, value, problem, allowed, why)
    _check_range(where, name, value, number, lo, hi, allowed, why)
    return float(number)


def bool_param(where: str, name: str, value: Any) -> bool:
    """A yes/no parameter: a bool, or the text true/false (an int is not a bool)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    raise refusal(where, name, value, "is not true or false", "true or false")


def choice_param(where: str, name: str, value: Any, choices: Iterable[str]) -> str:
    """A parameter that names one of ``choices`` (exactly, as text)."""
    options = tuple(choices)
    if isinstance(value, str) and value in options:
        return value
    raise refusal(where, name, value, "is not one of them", "one of " + ", ".join(options))


def seed_param(where: str, seed: Any) -> int:
    """A generator's seed: an integer in 0..2**63-1."""
    return int_param(where, "seed", seed, 0, MAX_SEED)
