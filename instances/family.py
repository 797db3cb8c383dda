"""The family contract: what a problem family declares, and how the declared families are found.

A family is one ``Family`` object. Built-in families and plug-ins are found the same way, through
the ``cliffbench.families`` entry-point group: each entry is ``name = "module:ATTRIBUTE"`` and
names a ``Family`` whose ``name`` is the entry's name. A plug-in's ``pyproject.toml``::

    [project.entry-points."cliffbench.families"]
    nqueens = "nqueens_family:FAMILY"

Every part the harness calls is a field. The required ones (types, suffixes, readers and writers,
generators, checker, text renderer) have no default, so a declaration that leaves one out cannot
be built; ``load_family`` turns that, a wrong type or a name that disagrees with its entry into a
``FamilyError`` naming the entry point and the part. The optional ones default to "the family
has none": no partial score, no file sniffing, no picture (a text card of ``render`` stands in),
no CLI commands.

Parts that need heavy imports are given as ``"module:function"`` strings and imported only
when used: ``picture`` (matplotlib) and ``commands`` (which may reach into a family's solvers,
as the tiles' ``pdb`` command does). Nothing here imports ``bench``, ``encoders`` or ``searches``.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from instances.common import Generated, InstanceError, Verdict, seed_param

#: The entry-point group families are found in.
GROUP = "cliffbench.families"
#: What a family's or a generator's name may be (specs read ``family/generator:...``).
NAME = re.compile(r"[a-z][a-z0-9_-]*")


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


class FamilyError(InstanceError):
    """A declared family that breaks the contract (refused at load), or an unknown name."""


@dataclass(frozen=True)
class Family:
    """One problem family, as the harness sees it.

    Required:

    - ``name``: the family's name, as in specs (``name/generator:...``) and the table's
      ``family`` column: a lower-case letter, then letters, digits, ``_`` or ``-`` (``NAME``).
    - ``summary``: one line saying what the puzzle is (``cliffbench list``, the docs).
    - ``instance_type``: the immutable instance class: ``from_json(data)``, ``to_json()`` (with a
      ``"family"`` key equal to ``name``), ``instance_id`` (content hash), ``name``.
    - ``solution_type``: the answer type: ``from_json(data, instance)``, and
      ``to_json(instance)`` on its values.
    - ``suffixes``: file name endings ``read_file`` reads (``(".emp", ".txt")``).
    - ``read_file(path) -> list[Generated]``: every instance of a file, with its known solution
      as the secret where the file holds one; a malformed file raises ``InstanceError`` naming
      the line.
    - ``write_file(path, instance, secret=None)``: the inverse of ``read_file``.
    - ``read_solution(path, instance) -> Solution``: the family's solution format, or the JSON
      ``cliffbench solve --json`` prints.
    - ``generators``: ``{name: Generator}``, each a pure function of (params, seed).
    - ``check(instance, solution) -> Verdict``: the independent checker; it imports nothing of
      the solvers or the harness.
    - ``render(instance, solution=None) -> str``: the board as text, for people.

    Optional:

    - ``objective``: ``"max"`` (a larger checked score is better; the default) or ``"min"``
      (sliding tiles: a solution's score is its length).
    - ``score_meaning``: what a partial score counts, for legends (``"joins matched"``); empty
      when the family has no partial score.
    - ``check_many(instances, solutions) -> list[Verdict]``: the checker on many answers at
      once (a block's chunk), the same verdicts as ``check`` one by one, only faster; like
      ``check`` it imports nothing of the solvers or the harness.
    - ``check_texts(instances, texts) -> list[Verdict | None]``: the checker on many answers
      given as the text of their JSON (a block's chunk, as the worker sends it), for those
      it can judge at once; None for every other (the harness then reads the answer and
      checks it with ``check_many`` or ``check``). A verdict it gives must be ``check``'s.
    - ``sniff(path) -> bool``: whether a file with one of the suffixes is this family's, for
      suffixes that two families share (``.txt``).
    - ``picture``: ``"module:function"`` of the picture drawer, called as
      ``function(figure, instance, solution, title)`` on a fresh matplotlib ``Figure``, which it
      sizes (``figure.set_size_inches``) and fills.
    - ``picture_dpi``: the resolution of its PNG pictures in reports.
    - ``commands``: ``"module:function"`` called with the CLI's subparsers to add the family's
      own subcommands; each parser it adds sets ``func`` (``args -> exit code``). The module
      should import little (``bench.cliargs`` has the CLI's parser plumbing): ``cliffbench
      --help`` imports it.
    - ``examples``: a few small generator specs (``"sudoku/planted:box=2,clues=6,seed=1"``),
      each naming one instance every solver of the family answers within a few seconds: the
      instances of the conformance suite (``bench.conformance``).
    """

    name: str
    summary: str
    instance_type: type
    solution_type: type
    suffixes: tuple[str, ...]
    read_file: Callable[[Path], list[Generated]]
    write_file: Callable[..., None]
    read_solution: Callable[[Path, Any], Any]
    generators: Mapping[str, Any]
    check: Callable[[Any, Any], Verdict]
    render: Callable[..., str]
    objective: str = "max"
    score_meaning: str = ""
    sniff: Callable[[Path], bool] | None = None
    picture: str | None = None
    picture_dpi: int = 80
    commands: str | None = None
    examples: tuple[str, ...] = ()
    check_many: Callable[[Any, Any], list[Verdict]] | None = None
    check_texts: Callable[[Any, Any], list[Verdict | None]] | None = None

    def instance_from_json(self, data: dict[str, Any]) -> Any:
        """The instance ``instance.to_json()`` gave."""
        return self.instance_type.from_json(data)

    def instances_to_json(self, instances: list[Any]) -> Any:
        """Many instances (a block's, sent to a worker) as one JSON value: the instance type's
        ``to_json_many`` where it has one (all at once), else the list of each one's
        ``to_json()``. :meth:`instances_from_json` reads it back."""
        many = getattr(self.instance_type, "to_json_many", None)
        return many(instances) if many is not None else [i.to_json() for i in instances]

    def instances_from_json(self, data: Any) -> list[Any]:
        """The instances :meth:`instances_to_json` gave: the instance type's
        ``from_json_many`` where it has one (read together), else one ``from_json`` each."""
        many = getattr(self.instance_type, "from_json_many", None)
        return many(data) if many is not None else [self.instance_from_json(d) for d in data]

    def solution_from_json(self, data: Any, instance: Any) -> Any:
        """The answer ``solution.to_json(instance)`` gave (a malformed one raises)."""
        return self.solution_type.from_json(data, instance)

    def reads(self, path: Path) -> bool:
        """Whether ``path`` is one of this family's files (its suffix, then its sniffer)."""
        return path.suffix in self.suffixes and (self.sniff is None or self.sniff(path))

    def drawer(self) -> Callable[..., None] | None:
        """The picture drawer (imported now), or None when the family has no picture."""
        if self.picture is None:
            return None
        return resolve_target(self.picture, f"{self.name}.picture")


def resolve_target(target: str, what: str) -> Any:
    """The object a ``"module:attribute"`` part names (imported now)."""
    module, _, attribute = target.partition(":")
    try:
        return getattr(importlib.import_module(module), attribute)
    except (ImportError, AttributeError) as exc:
        raise FamilyError(f"family part {what} = {target!r} cannot be loaded: {exc}") from exc


_CALLABLE = ("read_file", "write_file", "read_solution", "check", "render")
_OPTIONAL_CALLABLE = ("sniff", "check_many", "check_texts")
_TARGETS = ("picture", "commands")


def contract_breaches(family: Any, name: str | None = None) -> list[str]:
    """What ``family`` lacks or gets wrong for the contract (empty when it keeps it)."""
    if not isinstance(family, Family):
        return [f"is a {type(family).__name__}, not an instances.Family"]
    problems = []
    if name is not None and family.name != name:
        problems.append(f"declares name {family.name!r}, not its entry point's {name!r}")
    if not isinstance(family.name, str) or not NAME.fullmatch(family.name):
        problems.append(f"name {family.name!r} must be a lower-case letter, then letters, "
                        "digits, '_' or '-'")
    if not hasattr(family.instance_type, "from_json"):
        problems.append("instance_type must be a class with from_json")
    if not hasattr(family.solution_type, "from_json"):
        problems.append("solution_type must be a class with from_json")
    if not family.suffixes or not all(isinstance(s, str) and s.startswith(".")
                                      for s in family.suffixes):
        problems.append(f"suffixes {family.suffixes!r} must be file endings like '.txt'")
    problems += [f"{part} is not callable" for part in _CALLABLE
                 if not callable(getattr(family, part))]
    problems += [f"{part} is not callable" for part in _OPTIONAL_CALLABLE
                 if getattr(family, part) is not None and not callable(getattr(family, part))]
    problems += [f"{part} must be 'module:function', not {getattr(family, part)!r}"
                 for part in _TARGETS if getattr(family, part) is not None
                 and ":" not in str(getattr(family, part))]
    if not isinstance(family.generators, Mapping) or not all(
            callable(g) and hasattr(g, "params") for g in family.generators.values()):
        problems.append("generators must map names to instances.Generator")
    else:
        problems += [f"generator name {name!r} must be a lower-case letter, then letters, "
                     "digits, '_' or '-'" for name in family.generators
                     if not isinstance(name, str) or not NAME.fullmatch(name)]
    if family.objective not in ("max", "min"):
        problems.append(f"objective {family.objective!r} must be 'max' or 'min'")
    return problems


def _missing_part(exc: TypeError) -> str:
    """``check`` from "__init__() missing 1 required positional argument: 'check'"."""
    text = str(exc)
    if "missing" in text and "argument" in text:
        return "missing " + text.split(":", 1)[1].strip()
    return text


def load_family(entry: metadata.EntryPoint) -> Family:
    """The family an entry point names, checked against the contract."""
    where = f"family {entry.name!r} (entry point {entry.value!r})"
    try:
        family = entry.load()
    except TypeError as exc:  # a Family(...) call without a required part
        raise FamilyError(f"{where} is refused: {_missing_part(exc)}") from exc
    except Exception as exc:
        raise FamilyError(f"{where} cannot be imported: {type(exc).__name__}: {exc}") from exc
    problems = contract_breaches(family, entry.name)
    if problems:
        raise FamilyError(f"{where} is refused: " + "; ".join(problems))
    return family


_FOUND: dict[str, metadata.EntryPoint] | None = None
_LOADED: dict[str, Family] = {}


def entry_points() -> dict[str, metadata.EntryPoint]:
    """The declared families' entry points by name (the first of a duplicated name wins)."""
    global _FOUND
    if _FOUND is None:
        found: dict[str, metadata.EntryPoint] = {}
        for entry in metadata.entry_points(group=GROUP):
            found.setdefault(entry.name, entry)
        _FOUND = found
    return _FOUND


def family_names() -> tuple[str, ...]:
    """The declared families' names, in the order their entry points are declared (no family
    is imported)."""
    return tuple(entry_points())


def family(name: str) -> Family:
    """The family called ``name`` (imported and checked on first use)."""
    if name not in _LOADED:
        entries = entry_points()
        if name not in entries:
            raise FamilyError(f"unknown family {name!r} (known: {', '.join(sorted(entries))})")
        _LOADED[name] = load_family(entries[name])
    return _LOADED[name]


def families() -> dict[str, Family]:
    """Every declared family, loaded."""
    return {name: family(name) for name in family_names()}


__all__ = ["GROUP", "Family", "FamilyError", "Generator", "contract_breaches", "entry_points",
           "families", "family", "family_names", "load_family", "resolve_target"]
