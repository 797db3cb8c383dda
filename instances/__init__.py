"""The problem families. Each is a module ``instances.<family>`` exposing the same names:

- ``Instance``, ``Solution``: immutable types; ``Instance.to_json()/from_json()`` is the canonical
  serialisation, ``Instance.instance_id`` its content hash; ``Solution.to_json(instance)`` and
  ``Solution.from_json(data, instance)``.
- ``SUFFIXES``: file name endings the family reads.
- ``read_file(path) -> list[Generated]``: every instance of a file (with its known solution, if
  the file holds one, as the secret); malformed files raise ``InstanceError`` naming the line.
- ``write_file(path, instance, secret=None)``.
- ``read_solution(path, instance) -> Solution``: the family's solution format, or the JSON that
  ``cliffbench solve --json`` prints.
- ``check(instance, solution) -> Verdict``: the independent checker.
- ``render(instance, solution) -> str``: the board as text, for people.
- ``GENERATORS``: ``{name: Generator}``.

Nothing here imports ``bench``, ``encoders`` or ``searches``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from instances.common import Generated, InstanceError, seed_param

FAMILY_NAMES = ("edgematch", "sudoku", "tiles", "games")


@dataclass(frozen=True)
class Generator:
    """A pure function ``(params, seed) -> Generated`` with its parameters declared.

    ``params`` maps each parameter name to ``(default, help)``; a default of None means
    required or derived. ``make`` receives every declared name (defaults filled in) and the seed.
    """

    family: str
    name: str
    params: dict[str, tuple[Any, str]]
    make: Callable[[dict[str, Any], int], Generated]
    doc: str = ""

    def __call__(self, params: dict[str, Any] | None = None, seed: int = 1) -> Generated:
        given = dict(params or {})
        unknown = sorted(set(given) - set(self.params))
        if unknown:
            raise InstanceError(f"generator {self.family}/{self.name} has no parameter "
                                f"{unknown[0]!r} (it has: {', '.join(self.params)})")
        full = {name: given.get(name, default) for name, (default, _) in self.params.items()}
        return self.make(full, seed_param(f"{self.family}/{self.name}", seed))


def family(name: str) -> ModuleType:
    if name not in FAMILY_NAMES:
        raise InstanceError(f"unknown family {name!r} (known: {', '.join(FAMILY_NAMES)})")
    return importlib.import_module(f"instances.{name}")


def families() -> dict[str, ModuleType]:
    return {name: family(name) for name in FAMILY_NAMES}


__all__ = ["FAMILY_NAMES", "Generated", "Generator", "InstanceError", "families", "family"]
