"""Suites: declarative sweeps in TOML, and the run grid they expand to.

A suite names solvers (with parameters), instances (specs, files, or ladders of rungs) and the
budgets. ``bench/plan/suites/*.toml`` are the shipped ones; any path works too::

    name = "quick"
    description = "..."
    timeout = 10          # wall seconds per run
    mem = 4000            # MB per run
    cores = 1             # cores per run
    repeats = 1
    seed = 1              # solver seed of repeat 0 (repeat r gets seed + r)
    abort_fraction = 1.0  # a ladder stops climbing for a solver once this fraction of a rung fails
    early_abort = true    # false: every rung runs whatever failed below (a peak in mid-ladder)
    plugins = ["my_solvers.py"]  # (optional) solver plugin files, relative to this file

    [[tool]]                         # (optional) a solver program, as in a tools file
    name = "kissat"                  # (docs/tools.md); a suite names it like any solver
    executable = "kissat"
    paradigm = "sat"
    input = "cnf"
    output = "sat-competition"
    command = ["{executable}", "--seed={seed}", "{input}"]
    sources = ["encoders.latin_sat:latin/sat"]

    [[solver]]
    name = "dfs-restarts"
    params = { restart_unit = 100000 }

    [[ladder]]                       # a generator ladder: one rung per value of `vary`
    name = "planted-c22"
    generator = "edgematch/planted"
    params = { border = 5, inner = 17, hints = 5 }
    vary = "n"
    values = [8, 9, 10]
    seeds = [1, 2, 3]

    [[ladder]]                       # a ladder of files, one list of specs per rung
    name = "shared-c22"
    solvers = ["xcc", "sat"]         # (optional) only these solvers (names or labels) climb it
    rungs = [ { label = "8", instances = ["{data_dir}/edgematch/ladder_c22/ladder_n8_*.emp"] } ]

    instances = ["edgematch/planted:n=5,seed=1"]   # (top level) runs outside any ladder

Every key and value is checked when the file loads (unknown keys in any table are refused,
budgets are positive, ``repeats`` is at most 1000); an error names the file and the table or
key.
"""

from __future__ import annotations

import hashlib
import json
import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.api import ParamError, SolverSpec, solver_keys, unknown_solver
from bench.names import did_you_mean
from bench.plan.specs import InstanceRef, resolve, spec_family
from instances.common import InstanceError, content_hash

SUITES_DIR = Path(__file__).parent / "suites"

#: The keys of a [[solver]] table, of a [[ladder]] table and of one of its rungs: another key
#: is a typo ('seed' for 'seeds') that would otherwise be ignored without a word.
SOLVER_KEYS = {"name", "label", "params"}
LADDER_KEYS = {"name", "generator", "params", "vary", "values", "seeds", "rungs", "solvers",
               "adaptive", "block"}
#: The most instances one block may hold (a typo of a few digits).
MAX_BLOCK = 100_000
RUNG_KEYS = {"label", "instances"}
#: The keys of a generator ladder's ``adaptive`` table (bench/execute/adaptive.py).
ADAPTIVE_KEYS = {"runs", "width"}

SUITE_KEYS = {"name", "description", "timeout", "mem", "cores", "repeats", "seed", "plugins",
              "abort_fraction", "early_abort", "jobs", "solver", "ladder", "instances", "tool"}


class SuiteError(ValueError):
    """A suite file that cannot be used; the message names the file and the key."""


@dataclass(frozen=True)
class SolverConfig:
    """A solver with its full parameter set; ``label`` tells configs of one solver apart."""

    spec: SolverSpec
    params: dict[str, Any]
    label: str

    @property
    def name(self) -> str:
        return self.spec.name


@dataclass
class Rung:
    label: str
    index: int
    refs: list[InstanceRef]


@dataclass(frozen=True)
class Adaptive:
    """An adaptive ladder's budget: at most ``runs`` runs per solver config, and stop once the
    fitted cliff's 95% interval is at most ``width`` in the ``vary`` parameter's units
    (bench/execute/adaptive.py places the runs)."""

    runs: int
    width: float


@dataclass
class Ladder:
    """An ordered list of rungs; top-level instances form the ladder named ''. An adaptive
    ladder (``adaptive`` set) lists every (value, seed) candidate as its rungs' refs; only those
    its scheduler chooses become runs."""

    name: str
    rungs: list[Rung]
    solvers: tuple[str, ...] | None = None
    adaptive: Adaptive | None = None
    block: int | None = None  # consecutive instances of a rung solved by one worker call

    def runs(self, config: SolverConfig) -> bool:
        """Whether a solver config climbs this ladder: every one, or those the ladder's
        ``solvers`` names (by label, or by solver name for all its configs)."""
        return self.solvers is None or config.label in self.solvers \
            or config.name in self.solvers


@dataclass
class Suite:
    name: str
    description: str
    path: str
    sha256: str
    solvers: list[dict[str, Any]]
    ladders: list[Ladder]
    timeout: float = 60.0
    mem: int = 4000
    cores: int = 1
    repeats: int = 1
    seed: int = 1
    abort_fraction: float = 1.0
    jobs: int | None = None
    plugins: list[str] = field(default_factory=list)
    raw: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class Task:
    """One run: (solver config, instance, repeat) under a budget. ``key`` is its identity: the
    key given, or (given None) made by ``keys`` (its config's :class:`RunKeys`) when first
    asked, which a block ladder's runs are mostly not before they run (:attr:`identity` tells
    runs apart while a sweep is planned)."""

    given_key: str | None = field(compare=False)
    ref: InstanceRef
    config: SolverConfig
    repeat: int
    seed: int
    budget_s: float
    mem_mb: int
    cores: int
    block: str = ""  # the block's id ('' outside blocks: a run of its own)
    block_index: int = 0  # the position in its block, from 0
    block_size: int = 1  # the instances its block holds
    keys: RunKeys | None = field(default=None, repr=False, compare=False)

    @property
    def key(self) -> str:
        if self.given_key is None:
            self.given_key = self.keys.key(self.ref.instance_id)
        return self.given_key

    @property
    def identity(self) -> Any:
        """What is equal for two runs exactly when their keys are: the instance id with the
        key's text around it (:meth:`RunKeys.key`), whether the key is made yet or not (a
        block's first run's is, its others' mostly not); the key itself where it is not
        made by a :class:`RunKeys` with that text."""
        keys = self.keys
        if keys is None or keys.head is None:
            return self.key
        return (keys.head, self.ref.instance_id, keys.tail)

    @property
    def stream(self) -> tuple[str, str]:
        return (self.ref.ladder, self.config.label)


def find_suite(name_or_path: str) -> Path:
    path = Path(name_or_path)
    if path.is_file():
        return path
    shipped = SUITES_DIR / f"{name_or_path}.toml"
    if shipped.is_file():
        return shipped
    shipped_names = sorted(p.stem for p in SUITES_DIR.glob("*.toml"))
    raise SuiteError(f"no suite file or shipped suite named {name_or_path!r}"
                     f"{did_you_mean(name_or_path, shipped_names)}; shipped: "
                     f"{', '.join(shipped_names)}")


def shipped_suites() -> dict[str, str]:
    """Shipped suite names and their descriptions."""
    out = {}
    for p in sorted(SUITES_DIR.glob("*.toml")):
        try:
            out[p.stem] = tomllib.loads(p.read_text()).get("description", "")
        except tomllib.TOMLDecodeError:
            out[p.stem] = "(unreadable)"
    return out


#: The least value of each number of a suite (a budget of 0 s or 0 cores runs nothing), and
#: the most repeats: a typo of a few digits must not expand to a run grid that never ends.
LEAST = {"timeout": 1e-3, "mem": 1, "cores": 1, "repeats": 1, "seed": 0, "jobs": 1,
         "abort_fraction": 0.0}
MAX_REPEATS = 1000


def _number(raw: dict[str, Any], key: str, default: Any, kind: type, path: Path) -> Any:
    value = raw.get(key, default)
    if value is None:
        return None
    try:
        if isinstance(value, bool) or not math.isfinite(float(value)):
            raise ValueError
        value = kind(value)
    except (TypeError, ValueError, OverflowError):
        raise SuiteError(f"{path}: {key!r} must be a {kind.__name__}, got {value!r}") from None
    if value < LEAST.get(key, 0):
        raise SuiteError(f"{path}: {key!r} must be at least {LEAST.get(key, 0)}, got {value!r}")
    if key == "repeats" and value > MAX_REPEATS:
        raise SuiteError(f"{path}: 'repeats' {value} is more than {MAX_REPEATS}")
    return value


def checked_override(option: str, value: Any, kind: type) -> Any:
    """A number given for a run from outside a suite file (``--timeout``, ``mem=`` from Python,
    ...): a finite ``kind`` above zero, else a SuiteError naming the option; None stays None."""
    if value is None:
        return None
    try:
        if isinstance(value, bool) or not math.isfinite(float(value)) or float(value) <= 0:
            raise ValueError
        if kind is int and float(value) != int(value):
            raise ValueError
        return kind(value)
    except (TypeError, ValueError, OverflowError):
        noun = "whole number" if kind is int else "number"
        raise SuiteError(f"{option} must be a positive {noun}, got {value!r}") from None


def _read_suite(path: Path) -> tuple[str, dict[str, Any]]:
    """A suite file's text and its TOML, its keys checked."""
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as exc:
        raise SuiteError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise SuiteError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    try:
        raw = tomllib.loads(text)
    except ValueError as exc:  # TOMLDecodeError, or an integer of more than 4300 digits
        raise SuiteError(f"{path}: not valid TOML: {exc}") from None
    unknown = sorted(set(raw) - SUITE_KEYS)
    if unknown:
        known = ", ".join(sorted(SUITE_KEYS))
        raise SuiteError(f"{path}: unknown key {unknown[0]!r} (known: {known})")
    return text, raw


@dataclass(frozen=True)
class SuiteHead:
    """What a sweep's workers need before the sweep is planned, from its suite file alone: the
    suite's name, ``jobs`` (None: not given), ``cores`` and plugin files (its own tools'
    file included), each as :func:`load_suite` reads it."""

    name: str
    jobs: int | None
    cores: int
    plugins: list[str]


def suite_head(name_or_path: str) -> SuiteHead:
    """The head of a suite (:class:`SuiteHead`), read without its ladders or instances; a
    SuiteError where :func:`load_suite` would give one for those keys."""
    path = find_suite(name_or_path)
    _, raw = _read_suite(path)
    plugins = _plugins(raw.get("plugins", []), path)
    if "tool" in raw:
        plugins.append(_own_tools(path))
    return SuiteHead(str(raw.get("name", path.stem)), _number(raw, "jobs", None, int, path),
                     _number(raw, "cores", 1, int, path), plugins)


def load_suite(name_or_path: str, data_dir: str | Path | None = None) -> Suite:
    path = find_suite(name_or_path)
    text, raw = _read_suite(path)
    solvers = _solver_entries(raw.get("solver", []), path)
    entries = raw.get("ladder", [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise SuiteError(f"{path}: 'ladder' is a list of [[ladder]] tables")
    specs = _specs(raw.get("instances", []), f"{path}: 'instances'")
    try:
        ladders = [_ladder(entry, i, path, data_dir) for i, entry in enumerate(entries)]
        loose = [ref for spec in specs for ref in resolve(spec, data_dir)]
    except InstanceError as exc:
        raise SuiteError(f"{path}: {exc}") from None
    if loose:
        ladders.append(Ladder("", [Rung("", 0, loose)]))
    if not ladders:
        raise SuiteError(f"{path}: the suite names no instance ([[ladder]] or instances)")
    fraction = _number(raw, "abort_fraction", 1.0, float, path)
    if not 0.0 < fraction <= 1.0:
        raise SuiteError(f"{path}: 'abort_fraction' must be in (0, 1], got {fraction}")
    early_abort = raw.get("early_abort", True)
    if not isinstance(early_abort, bool):
        raise SuiteError(f"{path}: 'early_abort' must be true or false, got {early_abort!r}")
    if not early_abort:
        fraction = float("inf")  # no rung's failures ever reach it
    plugins = _plugins(raw.get("plugins", []), path)
    if "tool" in raw:  # the suite's own tools: the suite file is their tools file
        plugins.append(_own_tools(path))
    return Suite(
        name=str(raw.get("name", path.stem)), description=str(raw.get("description", "")),
        path=str(path), sha256=hashlib.sha256(text.encode()).hexdigest(), solvers=solvers,
        ladders=ladders, timeout=_number(raw, "timeout", 60.0, float, path),
        mem=_number(raw, "mem", 4000, int, path), cores=_number(raw, "cores", 1, int, path),
        repeats=_number(raw, "repeats", 1, int, path), seed=_number(raw, "seed", 1, int, path),
        abort_fraction=fraction, jobs=_number(raw, "jobs", None, int, path), plugins=plugins,
        raw=raw)


def _own_tools(path: Path) -> str:
    """The suite file as the tools file of its ``[[tool]]`` tables, each checked here."""
    from bench.tools.adapter import ToolError, load_tools

    try:
        load_tools(path)
    except ToolError as exc:
        raise SuiteError(str(exc)) from None
    return str(path.resolve())


def _plugins(given: Any, path: Path) -> list[str]:
    """``plugins = ["file.py", ...]``: solver plugin files the suite needs, relative to the
    suite file's folder (the shipped chaos suite loads bench/execute/chaos.py this way)."""
    if not isinstance(given, list) or not all(isinstance(p, str) for p in given):
        raise SuiteError(f"{path}: 'plugins' is a list of plugin file paths")
    out = []
    for name in given:
        try:
            plugin = (path.parent / name).resolve()
        except (OSError, ValueError) as exc:  # a NUL in the name, a symlink loop
            raise SuiteError(f"{path}: plugin file {name!r}: {exc}") from None
        if not plugin.is_file():
            raise SuiteError(f"{path}: plugin file {name!r} not found (looked for {plugin})")
        out.append(str(plugin))
    return out


def _solver_entries(given: Any, path: Path) -> list[dict[str, Any]]:
    """The [[solver]] tables: each a name (a string), maybe a label and a params table."""
    if not isinstance(given, list) or not all(isinstance(s, dict) for s in given):
        raise SuiteError(f"{path}: 'solver' is a list of [[solver]] tables")
    for i, entry in enumerate(given, 1):
        where = f"{path}: [[solver]] {i}"
        _known_keys(entry, SOLVER_KEYS, where)
        if not isinstance(entry.get("name"), str) or not entry["name"]:
            raise SuiteError(f"{where}: needs a name (a string)")
        if not isinstance(entry.get("params", {}), dict):
            raise SuiteError(f"{where} ({entry['name']}): 'params' is a table")
        if not isinstance(entry.get("label", ""), str):
            raise SuiteError(f"{where} ({entry['name']}): 'label' is a string")
    return given


def _known_keys(table: dict[str, Any], known: set[str], where: str) -> None:
    unknown = sorted(set(table) - known)
    if unknown:
        raise SuiteError(f"{where}: unknown key {unknown[0]!r} (known: "
                         f"{', '.join(sorted(known))})")


def _specs(given: Any, where: str) -> list[str]:
    """A list of instance specs (strings)."""
    if not isinstance(given, list) or not all(isinstance(x, str) for x in given):
        raise SuiteError(f"{where} is a list of instance specs (strings)")
    return given


def _scalars(given: Any, where: str) -> None:
    """Values that go into a generator spec: numbers, strings or booleans."""
    if not all(isinstance(v, (str, int, float)) for v in given):
        raise SuiteError(f"{where} holds numbers, strings or booleans only")


def suite_first_runs(name_or_path: str, data_dir: str | Path | None = None
                     ) -> tuple[list[str], list[str]]:
    """The names of a suite's [[solver]] entries and the families of its ladders (then of its
    loose instances), in order, each told from its first instance spec (a generator's
    family, or the family of its first file by suffix and sniff) without making or reading an
    instance: what the suite's first runs will be, for the workers started before it is
    planned to prepare (bench/execute/early.py). A family not told is left out; a SuiteError
    where the file does not read."""
    path = find_suite(name_or_path)
    _, raw = _read_suite(path)
    names = [str(entry["name"]) for entry in _solver_entries(raw.get("solver", []), path)]
    first_specs = []
    for entry in raw.get("ladder", []) if isinstance(raw.get("ladder"), list) else []:
        if not isinstance(entry, dict):
            continue
        if isinstance(entry.get("generator"), str):
            first_specs.append(entry["generator"])
        elif isinstance(entry.get("rungs"), list) and entry["rungs"] \
                and isinstance(entry["rungs"][0], dict):
            first_specs.extend(entry["rungs"][0].get("instances", [])[:1])
    loose = raw.get("instances")
    if isinstance(loose, list):
        first_specs.extend(loose[:1])
    families = [spec_family(spec, data_dir) for spec in first_specs if isinstance(spec, str)]
    return names, list(dict.fromkeys(f for f in families if f is not None))


def _ladder(entry: dict[str, Any], i: int, path: Path, data_dir: str | Path | None) -> Ladder:
    name = str(entry.get("name", f"ladder{i + 1}"))
    where = f"ladder {name!r}"
    _known_keys(entry, LADDER_KEYS, f"{path}: {where}")
    adaptive = _adaptive(entry, f"{path}: {where}") if "adaptive" in entry else None
    if "generator" in entry:
        gen, vary = entry["generator"], entry.get("vary")
        values, seeds = entry.get("values"), entry.get("seeds", [1])
        if not vary or not isinstance(values, list) or not values:
            raise SuiteError(f"{path}: {where}: a generator ladder needs 'vary' and 'values'")
        if vary == "seed":
            raise SuiteError(f"{path}: {where}: seeds are not a rung: list them in 'seeds'")
        if not isinstance(gen, str) or not isinstance(vary, str):
            raise SuiteError(f"{path}: {where}: 'generator' and 'vary' are strings")
        if not isinstance(seeds, list) or not all(isinstance(x, int) and not isinstance(x, bool)
                                                  and x >= 0 for x in seeds):
            raise SuiteError(f"{path}: {where}: 'seeds' is a list of integers from 0")
        if not isinstance(entry.get("params", {}), dict):
            raise SuiteError(f"{path}: {where}: 'params' is a table")
        params = dict(entry.get("params", {}))
        _scalars(values, f"{path}: {where}: 'values'")
        _scalars(params.values(), f"{path}: {where}: 'params'")
        rungs = []
        for index, value in enumerate(values):
            refs = []
            for seed in seeds:
                given = {**params, vary: value, "seed": seed}
                args = ",".join(f"{k}={v}" for k, v in given.items())
                refs.extend(resolve(f"{gen}:{args}", data_dir))
            rungs.append(Rung(str(value), index, refs))
    elif "rungs" in entry:
        rungs = []
        if not isinstance(entry["rungs"], list):
            raise SuiteError(f"{path}: {where}: 'rungs' is a list of tables")
        for index, rung in enumerate(entry["rungs"]):
            if not isinstance(rung, dict) or "instances" not in rung:
                raise SuiteError(f"{path}: {where}: rung {index + 1} has no 'instances'")
            _known_keys(rung, RUNG_KEYS, f"{path}: {where}: rung {index + 1}")
            specs = _specs(rung["instances"], f"{path}: {where}: rung {index + 1}: 'instances'")
            refs = [ref for spec in specs for ref in resolve(spec, data_dir)]
            rungs.append(Rung(str(rung.get("label", index)), index, refs))
    else:
        raise SuiteError(f"{path}: {where}: give either 'generator' (with vary/values) or 'rungs'")
    for rung in rungs:
        label, index = rung.label, rung.index
        for ref in rung.refs:
            ref.ladder = name
            ref.rung = label
            ref.rung_index = index
    block = _block(entry, f"{path}: {where}") if "block" in entry else None
    only = entry.get("solvers")
    if only is not None and (not isinstance(only, list) or not all(isinstance(x, str)
                                                                     for x in only)):
        raise SuiteError(f"{path}: {where}: 'solvers' is a list of solver names or labels")
    return Ladder(name, rungs, tuple(only) if only is not None else None, adaptive, block)


def _block(entry: dict[str, Any], where: str) -> int:
    """``block = N``: runs of N consecutive instances of a rung (per solver config and repeat)
    go to a worker as one task; N a whole number from 1 to MAX_BLOCK; not with ``adaptive``."""
    value = entry["block"]
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_BLOCK:
        raise SuiteError(f"{where}: 'block' must be a whole number from 1 to {MAX_BLOCK}, got "
                         f"{value!r}")
    if "adaptive" in entry:
        raise SuiteError(f"{where}: 'block' and 'adaptive' do not go together (an adaptive "
                         "ladder chooses its runs one batch at a time)")
    return value


#: The most runs an adaptive ladder may spend per config (a typo of a few digits).
MAX_ADAPTIVE_RUNS = 100000


def _adaptive(entry: dict[str, Any], where: str) -> Adaptive:
    """``adaptive = { runs = N, width = W }`` of a generator ladder whose ``values`` are numbers
    in increasing or decreasing order (the cliff is a position on them): N a whole number from
    1, W a number above zero in the ``vary`` parameter's units."""
    table = entry["adaptive"]
    if "generator" not in entry:
        raise SuiteError(f"{where}: 'adaptive' needs a generator ladder (generator, vary, "
                         "values, seeds), not 'rungs'")
    if not isinstance(table, dict):
        raise SuiteError(f"{where}: 'adaptive' is a table: adaptive = {{ runs = N, width = W }}")
    _known_keys(table, ADAPTIVE_KEYS, f"{where}: 'adaptive'")
    for key in sorted(ADAPTIVE_KEYS - set(table)):
        raise SuiteError(f"{where}: 'adaptive' needs {key!r}")
    runs, width = table["runs"], table["width"]
    if isinstance(runs, bool) or not isinstance(runs, int) or not 1 <= runs <= MAX_ADAPTIVE_RUNS:
        raise SuiteError(f"{where}: 'adaptive': 'runs' must be a whole number from 1 to "
                         f"{MAX_ADAPTIVE_RUNS}, got {runs!r}")
    if isinstance(width, bool) or not isinstance(width, (int, float)) \
            or not math.isfinite(width) or width <= 0:
        raise SuiteError(f"{where}: 'adaptive': 'width' must be a number above 0, got {width!r}")
    values = entry.get("values")
    if not isinstance(values, list):
        raise SuiteError(f"{where}: a generator ladder needs 'vary' and 'values'")
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values) \
            or not (all(b > a for a, b in zip(values, values[1:], strict=False))
                    or all(b < a for a, b in zip(values, values[1:], strict=False))):
        raise SuiteError(f"{where}: 'adaptive' needs 'values' that are numbers in increasing "
                         f"or decreasing order (the way the ladder gets harder), got {values!r}")
    if len(values) < 2:
        raise SuiteError(f"{where}: 'adaptive' needs at least two 'values'")
    return Adaptive(int(runs), float(width))


def specs_named(name: str, registry: dict[str, SolverSpec],
                families: set[str] | None = None) -> list[SolverSpec]:
    """The solvers an entry's name means: ``family/name`` or ``name`` in each family that has
    it, kept to ``families`` (those of the suite's instances) when given."""
    by_key = {s.key: s for s in registry.values()}
    found = [by_key[key] for key in solver_keys(name, by_key)]
    if not found:
        raise SuiteError(unknown_solver(name, (s.name for s in registry.values())))
    if families is not None:
        kept = [s for s in found if s.family in families]
        if not kept:
            raise SuiteError(f"solver {name!r} is for {', '.join(s.family for s in found)}, "
                             f"which this suite has no instance of "
                             f"({', '.join(sorted(families)) or 'none'})")
        found = kept
    return found


def solver_configs(entries: list[dict[str, Any]], registry: dict[str, SolverSpec],
                   overrides: dict[str, str] | None = None,
                   families: set[str] | None = None) -> list[SolverConfig]:
    """Resolve each [[solver]] entry to its configs (one per family that has the name, among
    ``families`` when given); ``overrides`` (from --param) apply to every solver that has the
    parameter, and must fit at least one."""
    overrides = overrides or {}
    used: set[str] = set()
    configs: list[SolverConfig] = []
    for entry in entries:
        for spec in specs_named(entry["name"], registry, families):
            configs.append(_config(entry, spec, overrides, used))
    unused = sorted(set(overrides) - used)
    if unused:
        raise ParamError(f"--param {unused[0]}: none of the solvers "
                         f"({', '.join(c.name for c in configs)}) has that parameter")
    labels = [(c.spec.family, c.label) for c in configs]
    if len(set(labels)) != len(labels):
        raise SuiteError("two solver entries have the same name and parameters; give one a label")
    return configs


def _config(entry: dict[str, Any], spec: SolverSpec, overrides: dict[str, str],
            used: set[str]) -> SolverConfig:
    """One entry's config for one solver; records which overrides it took in ``used``."""
    name = spec.name
    given = dict(entry.get("params", {}))
    names = {p.name for p in spec.params}
    for key, value in overrides.items():
        if key in names:
            given[key] = value
            used.add(key)
    params = spec.resolve(given)
    changed = {k: v for k, v in params.items() if v != spec.defaults()[k]}
    label = entry.get("label") or (
        name + ("[" + ",".join(f"{k}={v}" for k, v in sorted(changed.items())) + "]"
                if changed else ""))
    return SolverConfig(spec, params, label)


def run_key(config: SolverConfig, instance_id: str, repeat: int, seed: int, budget_s: float,
            mem_mb: int, cores: int) -> str:
    return content_hash({"solver": config.name, "params": config.params,
                         "instance": instance_id, "repeat": repeat, "seed": seed,
                         "budget_s": budget_s, "mem_mb": mem_mb, "cores": cores}, 20)


class RunKeys:
    """:func:`run_key` for many instances of one (config, repeat, seed, budget, memory, cores):
    the hashed text is the same, its parts around the instance id serialised once (a block
    ladder has tens of thousands of runs)."""

    MARK = "\x00instance\x00"

    def __init__(self, config: SolverConfig, repeat: int, seed: int, budget_s: float,
                 mem_mb: int, cores: int):
        text = json.dumps({"solver": config.name, "params": config.params, "instance": self.MARK,
                           "repeat": repeat, "seed": seed, "budget_s": budget_s,
                           "mem_mb": mem_mb, "cores": cores}, sort_keys=True,
                          separators=(",", ":"))
        mark = json.dumps(self.MARK)
        head, tail = text.split(mark) if text.count(mark) == 1 else (None, None)
        #: The text before and after the instance id, with the id's quotes (None: no fast way).
        self.head = None if head is None else head + '"'
        self.tail = None if tail is None else '"' + tail
        self.args = (config, repeat, seed, budget_s, mem_mb, cores)

    def key(self, instance_id: str) -> str:
        """``run_key(config, instance_id, ...)`` of this one's config, repeat, seed and budget."""
        if self.head is None or not (instance_id.isascii() and instance_id.isalnum()):
            config, repeat, seed, budget_s, mem_mb, cores = self.args  # JSON might escape it
            return run_key(config, instance_id, repeat, seed, budget_s, mem_mb, cores)
        return hashlib.sha256(f"{self.head}{instance_id}{self.tail}".encode()).hexdigest()[:20]

    def keys(self, instance_ids: list[str]) -> list[str]:
        """:meth:`key` of each instance id, in one pass where none needs escaping in JSON."""
        joined = "".join(instance_ids)
        if self.head is None or not (joined.isascii() and joined.isalnum()):
            return [self.key(instance_id) for instance_id in instance_ids]
        head, tail, sha256 = self.head, self.tail, hashlib.sha256
        return [sha256(f"{head}{instance_id}{tail}".encode()).hexdigest()[:20]
                for instance_id in instance_ids]


def task_keys(tasks: list[Task], instance_ids: list[str]) -> list[str]:
    """Each run's key (``instance_ids``: each run's instance id, in order), those not made
    yet made together (:meth:`RunKeys.keys`) where all runs are of one :class:`RunKeys`, as a
    block's runs are; each run keeps its key."""
    keys = tasks[0].keys if tasks else None
    if keys is None or any(task.keys is not keys for task in tasks):
        return [task.key for task in tasks]
    missing = [i for i, task in enumerate(tasks) if task.given_key is None]
    for i, key in zip(missing, keys.keys([instance_ids[i] for i in missing]), strict=True):
        tasks[i].given_key = key
    return [task.given_key for task in tasks]


def build_tasks(suite: Suite, configs: list[SolverConfig]) -> list[Task]:
    """The run grid, ladder by ladder, rung by rung, each rung's instances in order, and for
    each its solver configs in order, then its repeats; a solver only meets the instances it
    takes: those of its family that it accepts. A run planned twice (by two rungs, or a file
    holding an instance twice) is kept where it first comes (:func:`distinct_runs`), and a
    block ladder's rungs are cut into blocks of the runs kept."""
    tasks: list[Task] = []
    declared = {e.get("label", e["name"]) for e in suite.solvers} \
        | {str(e["name"]).split("/")[-1] for e in suite.solvers}
    runs = RepeatRuns(suite)
    blocked = []  # (first run, end, ladder, rung label, block size) of each block ladder's rung
    for ladder in suite.ladders:
        unknown = sorted(set(ladder.solvers or ()) - declared)
        if unknown:
            raise SuiteError(f"{suite.path}: ladder {ladder.name!r}: 'solvers' names "
                             f"{unknown[0]!r}, which is not a solver of the suite")
        climbing = [config for config in configs if ladder.runs(config)]
        for rung in ladder.rungs:
            start = len(tasks)
            tasks.extend(rung_tasks(rung.refs, climbing, runs))
            if ladder.block:
                blocked.append((start, len(tasks), ladder.name, rung.label, ladder.block))
    kept = distinct_runs(tasks)
    alive = None if kept is tasks else {id(task) for task in kept}
    for start, end, ladder_name, label, size in blocked:
        members = tasks[start:end] if alive is None else \
            [task for task in tasks[start:end] if id(task) in alive]
        assign_blocks(members, ladder_name, label, size)
    return kept


def distinct_runs(tasks: list[Task]) -> list[Task]:
    """The runs, each once: a run planned twice (by two rungs, or a file holding an instance
    twice) kept where it first comes (the list itself where none is)."""
    if _distinct_instances(tasks):
        return tasks
    identities = [task.identity for task in tasks]
    if len(set(identities)) == len(identities):
        return tasks
    out, seen = [], set()
    for task, identity in zip(tasks, identities, strict=True):
        if identity not in seen:
            seen.add(identity)
            out.append(task)
    return out


def _distinct_instances(tasks: list[Task]) -> bool:
    """Whether no run is planned twice, told from the instance ids alone: True where every
    run's key is made by a :class:`RunKeys` of its own text (``Task.identity`` is then that
    text around the instance id) and the runs of each such text are of distinct instances;
    False where that does not show it."""
    keys = [task.keys for task in tasks]
    makers = set(keys)
    if None in makers or any(maker.head is None for maker in makers) \
            or len({(maker.head, maker.tail) for maker in makers}) != len(makers):
        return False
    ids = [task.ref.generated.instance.instance_id for task in tasks]
    if len(makers) == 1:
        return len(set(ids)) == len(ids)
    return len(set(zip(map(id, keys), ids, strict=True))) == len(ids)


class RepeatRuns:
    """A suite's repeats of each solver config: (repeat, seed, :class:`RunKeys`) for each,
    made on first use and kept."""

    def __init__(self, suite: Suite):
        self.suite = suite
        self.made: dict[int, tuple[SolverConfig, list[tuple[int, int, RunKeys]]]] = {}

    def of(self, config: SolverConfig) -> list[tuple[int, int, RunKeys]]:
        known = self.made.get(id(config))
        if known is None:
            suite = self.suite
            known = self.made[id(config)] = (config, [
                (repeat, suite.seed + repeat, RunKeys(config, repeat, suite.seed + repeat,
                                                      suite.timeout, suite.mem, suite.cores))
                for repeat in range(suite.repeats)])
        return known[1]


def rung_tasks(refs: list[InstanceRef], configs: list[SolverConfig],
               runs: RepeatRuns) -> list[Task]:
    """The runs of one rung's instances, in order: for each instance, each config of its
    family (in ``configs``' order) that accepts it, in each of the suite's repeats."""
    families = {family: [(config, None if config.spec.accepts is None
                          else config.spec.applies_to, runs.of(config))
                         for config in configs if config.spec.family == family]
                for family in dict.fromkeys(ref.family for ref in refs)}
    if len(families) == 1:
        (plans,) = families.values()
        if all(applies is None for _, applies, _ in plans):
            return _same_runs_tasks(refs, plans, runs.suite)
    budget_s, mem_mb, cores = runs.suite.timeout, runs.suite.mem, runs.suite.cores
    out = []
    for ref in refs:
        for config, applies, repeats in families[ref.family]:
            if applies is not None and not applies(ref.instance):
                continue
            for repeat, seed, keys in repeats:
                out.append(Task(None, ref, config, repeat, seed, budget_s, mem_mb, cores,
                                keys=keys))
    return out


def _same_runs_tasks(refs: list[InstanceRef], plans: list[tuple[SolverConfig, Any, Any]],
                     suite: Suite) -> list[Task]:
    """:func:`rung_tasks` of instances that all meet the same runs (of one family, and no
    config choosing among them), in one pass; each run's key is made by its (config, repeat)'s
    :class:`RunKeys` when first asked."""
    if not plans:
        return []
    columns = [(config, repeat, seed, keys)
               for config, _, repeats in plans for repeat, seed, keys in repeats]
    budget_s, mem_mb, cores = suite.timeout, suite.mem, suite.cores
    return [Task(None, ref, config, repeat, seed, budget_s, mem_mb, cores, keys=keys)
            for ref in refs for config, repeat, seed, keys in columns]


def assign_blocks(tasks: list[Task], ladder: str, rung: str, size: int) -> None:
    """Group one rung's runs into blocks: per (solver config, repeat), ``size`` consecutive
    runs in the rung's order, the last block holding the rest. A block's id names its ladder,
    rung, config, repeat and number (``ladder/rung/label/r0/b3``) and hashes its first run's
    key, so it is the same on every machine and on ``--resume``."""
    groups: dict[tuple[str, int], list[Task]] = {}
    for task in tasks:
        group = (task.config.label, task.repeat)
        members = groups.get(group)
        if members is None:
            members = groups[group] = []
        members.append(task)
    for (label, repeat), members in groups.items():
        for number, first in enumerate(range(0, len(members), size)):
            chunk = members[first:first + size]
            block = f"{ladder}/{rung}/{label}/r{repeat}/b{number}-{chunk[0].key[:8]}"
            held = len(chunk)
            for index, task in enumerate(chunk):
                task.block = block
                task.block_index = index
                task.block_size = held
