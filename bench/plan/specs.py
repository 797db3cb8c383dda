"""Naming an instance: a file, the N-th instance of a file, or a generator spec.

    path/to/board.emp                  every instance in the file
    path/to/korf100.txt:7              the 7th (from 1)
    path/to/top95.txt:1..20            the first 20
    edgematch/planted:n=12,hints=5,seed=3
    edgematch/planted:n=8..10,seed=1|2 ranges (a..b) and alternatives (a|b) expand to a grid

``{data_dir}`` in a spec is replaced by the reference-data folder, and file specs may be globs.
A spec names at most ``MAX_SPEC_INSTANCES`` instances (a range like ``seed=1..10**12`` is refused
before anything is built), and every value is checked by its generator: a bad spec is an
``InstanceError`` that quotes it.
"""

from __future__ import annotations

import glob
import itertools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import instances
from bench.data.fetch import absent_reason, default_data_dir
from bench.names import did_you_mean
from instances.common import Generated, InstanceError, seed_param
from instances.family import NAME

GENERATOR_SPEC = re.compile(
    rf"(?P<family>{NAME.pattern})/(?P<gen>{NAME.pattern})(?::(?P<args>.*))?", re.DOTALL)
# Numbers are ASCII digits, and at most 4,000 of them (int() refuses more than 4,300).
NUMBER = r"[0-9]{1,4000}"
FILE_INDEX = re.compile(rf"(?P<path>.+):(?P<n>{NUMBER})(?:\.\.(?P<m>{NUMBER}))?", re.DOTALL)
RANGE = re.compile(rf"([+-]?{NUMBER})\.\.([+-]?{NUMBER})")
INT = re.compile(rf"[+-]?{NUMBER}")
FLOAT = re.compile(r"[+-]?(?:[0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)(?:[eE][+-]?[0-9]+)?")
#: The most instances one spec expands to (its ranges and alternatives multiplied).
MAX_SPEC_INSTANCES = 100_000


@dataclass(slots=True)
class InstanceRef:
    """An instance as the parent knows it: with its secret, its source and its place on a ladder.
    ``extra_params``: parameter columns of its rows beyond its generator's (None: none; not a
    new empty dict for each of a big file's instances)."""

    family: str
    generated: Generated
    source: str
    ladder: str = ""
    rung: str = ""
    rung_index: int | None = None
    extra_params: dict[str, Any] | None = None

    @property
    def instance(self) -> Any:
        return self.generated.instance

    @property
    def instance_id(self) -> str:
        return self.generated.instance.instance_id


def parse_value(text: str) -> Any:
    """A spec value: int, float, bool or string, as written. Numbers are ASCII: Python's own
    ``int`` would also read '٣', '１２' and '1_000'; those stay strings (and are refused by the
    generator that expects a number)."""
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    if INT.fullmatch(text):
        return int(text)
    if FLOAT.fullmatch(text):
        return float(text)  # an overflow is inf, which the generators refuse
    return text


def expand_values(text: str, limit: int = MAX_SPEC_INSTANCES) -> list[Any]:
    """``1..5`` -> [1, 2, 3, 4, 5]; ``a|b`` -> [a, b]; anything else -> [value]. More than
    ``limit`` values, or an empty range, is an InstanceError (before a list is built)."""
    out: list[Any] = []
    for part in text.split("|"):
        m = RANGE.fullmatch(part.strip())
        if m is None:
            out.append(parse_value(part.strip()))
        else:
            lo, hi = int(m.group(1)), int(m.group(2))
            if hi < lo:
                raise InstanceError(f"the range {lo}..{hi} is empty")
            if hi - lo + 1 > limit - len(out):
                raise _too_many(text, limit)
            out.extend(range(lo, hi + 1))
        if len(out) > limit:
            raise _too_many(text, limit)
    return out


def _too_many(text: str, limit: int) -> InstanceError:
    return InstanceError(f"{text!r} expands to more than {limit:,} values (a spec names at most "
                         f"{MAX_SPEC_INSTANCES:,} instances: its ranges and alternatives "
                         "multiply)")


def parse_args(args: str, spec: str) -> dict[str, list[Any]]:
    """Each key's values; their product (the instances the spec names) is at most
    MAX_SPEC_INSTANCES."""
    params: dict[str, list[Any]] = {}
    count = 1
    for item in filter(None, (a.strip() for a in args.split(","))):
        if "=" not in item:
            raise InstanceError(f"instance spec {spec!r}: {item!r} is not key=value")
        key, value = (part.strip() for part in item.split("=", 1))
        if key in params:
            raise InstanceError(f"instance spec {spec!r}: {key!r} is given twice")
        try:
            params[key] = expand_values(value, MAX_SPEC_INSTANCES // count)
        except InstanceError as exc:
            raise InstanceError(f"instance spec {spec!r}: {key}: {exc}") from None
        count *= len(params[key])
    return params


def generate(family: str, name: str, params: dict[str, Any], spec: str) -> InstanceRef:
    module = instances.family(family)
    generator = module.generators.get(name)
    if generator is None:
        raise InstanceError(f"instance spec {spec!r}: family {family!r} has no generator "
                            f"{name!r}{did_you_mean(name, list(module.generators))}; it has: "
                            f"{', '.join(module.generators)}")
    params = dict(params)
    try:
        seed = seed_param(f"{family}/{name}", params.pop("seed", 1))
        generated = generator(params, seed)
    except InstanceError as exc:
        raise InstanceError(f"instance spec {spec!r}: {exc}") from None
    canonical = ",".join(f"{k}={v}" for k, v in sorted({**params, "seed": seed}.items()))
    return InstanceRef(family, generated, f"{family}/{name}:{canonical}")


def family_of_file(path: Path) -> str:
    """The family that reads a file: by its suffix, and where several families read that suffix
    (Sudoku collections and Korf's lists are both ``.txt``), by each one's ``sniff(path)``."""
    readers = [name for name, family in instances.families().items()
               if path.suffix in family.suffixes]
    if len(readers) > 1:
        readers = [name for name in readers if instances.family(name).reads(path)]
        if len(readers) != 1:
            raise InstanceError(f"{path.suffix!r} files are read by several families and "
                                f"{'none' if not readers else 'more than one'} recognises this "
                                "one (a malformed file?)", path=str(path))
    if not readers:
        raise InstanceError(f"no family reads {path.suffix!r} files", path=str(path))
    return readers[0]


def read_refs(path: Path, index: range | None) -> list[InstanceRef]:
    """The instances of a file: all, or those of ``index`` (numbered from 1)."""
    family = family_of_file(path)
    loaded = instances.family(family).read_file(path)
    if index is not None:
        if not (1 <= index.start and index.stop - 1 <= len(loaded)):
            asked = index.start if len(index) == 1 else f"{index.start}..{index.stop - 1}"
            raise InstanceError(f"asks for instance {asked}, the file has {len(loaded)}",
                                path=str(path))
        return [InstanceRef(family, loaded[i - 1], f"{path}:{i}") for i in index]
    if len(loaded) == 1:
        return [InstanceRef(family, loaded[0], str(path))]
    prefix = f"{path}:"
    return [InstanceRef(family, g, f"{prefix}{i}") for i, g in enumerate(loaded, 1)]


def resolve(spec: str, data_dir: str | Path | None = None) -> list[InstanceRef]:
    """Every instance a spec names, in a stable order."""
    target = _target(spec, data_dir)
    if target.generator is not None:
        family, name, args = target.generator
        grid = parse_args(args, target.spec)
        names = list(grid)
        combos = itertools.product(*(grid[k] for k in names))
        return [generate(family, name, dict(zip(names, c, strict=True)), target.spec)
                for c in combos]
    return [ref for p in target.paths for ref in read_refs(Path(p), target.index)]


def spec_family(spec: str, data_dir: str | Path | None = None) -> str | None:
    """The family of the instances a spec names, told without making or reading them (a
    generator's family, or the family that reads its first file, by suffix and sniff); None
    where the spec names none (:func:`resolve` says why)."""
    try:
        target = _target(spec, data_dir)
        return target.generator[0] if target.generator is not None \
            else family_of_file(Path(target.paths[0]))
    except InstanceError:
        return None


@dataclass
class _Target:
    """What a spec names: a generator's (family, name, arguments), or files (the instances
    ``index`` of each, all where None); ``spec`` with ``{data_dir}`` replaced."""

    spec: str
    generator: tuple[str, str, str] | None = None
    paths: list[str] | None = None
    index: range | None = None


def _target(spec: str, data_dir: str | Path | None) -> _Target:
    """What ``spec`` names (:class:`_Target`); an InstanceError where it names nothing."""
    if "{data_dir}" in spec:
        if data_dir is None:
            data_dir = default_data_dir()
        if data_dir is None:

            raise InstanceError(f"instance spec {spec!r} needs the reference data: "
                                f"{absent_reason()}, or pass --data-dir")
        spec = spec.replace("{data_dir}", str(data_dir))
    m = GENERATOR_SPEC.fullmatch(spec)
    if m and m.group("family") in instances.family_names() and not _exists(spec):
        return _Target(spec, generator=(m.group("family"), m.group("gen"), m.group("args") or ""))
    given, index = spec, None
    m_index = FILE_INDEX.fullmatch(spec)
    if m_index and not _exists(spec):
        first = int(m_index.group("n"))
        last = int(m_index.group("m") or first)
        if last < first:
            raise InstanceError(f"instance spec {spec!r}: the range {first}..{last} is empty")
        spec, index = m_index.group("path"), range(first, last + 1)
    if any(ch in spec for ch in "*?["):  # a glob names the files it matches, not folders
        paths = [p for p in sorted(glob.glob(spec)) if _exists(p, Path.is_file)]
        if not paths:
            raise InstanceError(f"instance spec {spec!r} matches no file")
    elif _exists(spec, Path.is_file):
        paths = [spec]
    else:
        what = "is a folder, not a file" if _exists(spec, Path.is_dir) else \
            "no such file or generator"
        raise InstanceError(f"instance spec {spec!r}: {what}")
    return _Target(given, paths=paths, index=index)


def _exists(text: str, test: Any = Path.exists) -> bool:
    """``Path(text).exists()`` (or ``test``), False where the name cannot be a file: too long
    for the system (OSError) or holding a NUL (ValueError)."""
    try:
        return bool(test(Path(text)))
    except (OSError, ValueError):
        return False


def resolve_one(spec: str, data_dir: str | Path | None = None) -> InstanceRef:
    refs = resolve(spec, data_dir)
    if len(refs) != 1:
        raise InstanceError(f"instance spec {spec!r} names {len(refs)} instances, expected one "
                            "(use FILE:N)")
    return refs[0]
