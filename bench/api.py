"""The one module of the harness that solvers import: how a solver declares itself, what it gets
(a ``Budget``) and what it returns (an ``Outcome``).

A solver is data plus two functions (benchopt's idea: parameters are declared, not parsed):

    from bench.api import Outcome, Param, solver

    @solver("my-dfs", family="edgematch", paradigm="native", backend="numba",
            params=[Param("restart_unit", 100_000, min=1)])
    def solve(instance, budget, seed, restart_unit):
        ...
        return Outcome("solved", solution=board, counters={"nodes": n})

The harness owns limits and measurement (BenchExec's rule): a solver only builds, runs and
interprets. It should still pass the budget on (time limit, threads = ``budget.cores``) so that
it stops on its own, but the runner kills it at the budget plus a grace whatever it does.

Built-in solvers use exactly this decorator and are found through the same entry-point group
(``cliffbench.solvers``) as third-party plugins. This module imports nothing of the project
but ``instances/`` and ``bench.names`` (the "did you mean" of its messages).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from bench.names import did_you_mean

PARADIGMS = ("sat", "xcc", "cpsat", "cp", "ilp", "clique", "native")
CLAIMS = ("solved", "optimal", "infeasible", "unknown")


class ParamError(ValueError):
    """A solver parameter that is unknown, of the wrong type or out of range (names it)."""


@dataclass(frozen=True)
class Param:
    """One parameter of a solver: its default, and what values it takes.

    The type is the default's type unless given. ``choices`` restricts to a set; ``min``/``max``
    bound a number. ``parse`` turns a command-line string or a TOML value into a checked value.
    """

    name: str
    default: Any
    help: str = ""
    choices: tuple[Any, ...] | None = None
    min: float | None = None
    max: float | None = None
    type: type | None = None

    @property
    def kind(self) -> type:
        return self.type or type(self.default)

    def parse(self, value: Any, solver: str = "") -> Any:
        where = f"parameter {self.name!r}" + (f" of solver {solver!r}" if solver else "")
        kind = self.kind
        try:
            if isinstance(value, str) and kind is not str:
                if kind is bool:
                    low = value.strip().lower()
                    if low not in ("1", "0", "true", "false", "yes", "no", "on", "off"):
                        raise ValueError(value)
                    value = low in ("1", "true", "yes", "on")
                elif kind is int:
                    value = int(float(value)) if "e" in value.lower() else int(value)
                else:
                    value = kind(value)
            elif kind is float and isinstance(value, int) and not isinstance(value, bool):
                value = float(value)
            elif kind is int and isinstance(value, float) and value.is_integer():
                value = int(value)
        except (TypeError, ValueError):
            raise ParamError(f"{where}: {value!r} is not a {kind.__name__}") from None
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ParamError(f"{where}: {value!r} is not a {kind.__name__}")
        if self.choices is not None and value not in self.choices:
            raise ParamError(f"{where}: {value!r} is not one of {list(self.choices)}")
        if self.min is not None and value < self.min:
            raise ParamError(f"{where}: {value!r} is below the minimum {self.min}")
        if self.max is not None and value > self.max:
            raise ParamError(f"{where}: {value!r} is above the maximum {self.max}")
        return value

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "default": self.default,
                               "type": self.kind.__name__, "help": self.help}
        if self.choices is not None:
            out["choices"] = list(self.choices)
        if self.min is not None:
            out["min"] = self.min
        if self.max is not None:
            out["max"] = self.max
        return out


@dataclass(frozen=True)
class Budget:
    """What a run may use. ``deadline`` is a ``time.monotonic()`` instant set when solving starts.

    Solvers pass ``cores`` on as their thread count and ``remaining()`` as their own time limit.
    """

    wall_s: float
    mem_mb: int
    cores: int = 1
    deadline: float = float("inf")

    def remaining(self) -> float:
        return max(0.0, self.deadline - time.monotonic())

    def expired(self) -> bool:
        return time.monotonic() >= self.deadline


@dataclass
class Outcome:
    """What a solver claims. The harness checks it; it never trusts it.

    ``status``: one of ``solved``, ``optimal``, ``infeasible``, ``unknown``. ``solution``: the
    family's Solution (also a partial one with ``unknown``: its score is recorded). ``counters``:
    work done, by name; ``nodes``, ``conflicts``, ``restarts`` become columns, the rest is kept
    as JSON. ``t_encode``/``t_solve`` split the solver's time when it knows the split;
    ``model_vars``/``model_constraints`` give the size of a model. ``score_trace``: (seconds,
    score) pairs of an anytime solver. ``note``: what the row's ``message`` should say about
    the run (a program's output that contradicts itself), "" for nothing. ``t_wall``: the
    solver's own wall seconds for this instance, which a batch entry (``solver(batch=...)``)
    must give for each outcome it returns (the harness times a plain ``solve`` call itself).
    """

    status: str
    solution: Any = None
    objective: float | None = None
    counters: dict[str, float] = field(default_factory=dict)
    t_encode: float | None = None
    t_solve: float | None = None
    model_vars: int | None = None
    model_constraints: int | None = None
    score_trace: list[tuple[float, float]] = field(default_factory=list)
    note: str = ""
    t_wall: float | None = None

    def __post_init__(self) -> None:
        if self.status not in CLAIMS:
            raise ValueError(f"Outcome status {self.status!r} is not one of {CLAIMS}")


@dataclass
class Outcomes:
    """A batch entry's outcomes as columns, one entry per instance in order: the form that
    stays cheap for tens of thousands of small instances, where a list of :class:`Outcome`
    costs an object and a family Solution each.

    ``claimed``: each instance's claim (one of ``CLAIMS``). ``answers``: each answer as the
    text of the family's JSON answer (what ``json.dumps(solution.to_json(instance),
    separators=(",", ":"))`` gives), or None; the harness checks it like any answer. ``t_wall``:
    each instance's own wall seconds. ``counters``: name -> one number per instance (None where
    that instance has no such counter).
    """

    claimed: list[str]
    answers: list[str | None]
    t_wall: list[float]
    counters: dict[str, list[float | None]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        n = len(self.claimed)
        sizes = {"answers": len(self.answers), "t_wall": len(self.t_wall),
                 **{f"counters[{k!r}]": len(v) for k, v in self.counters.items()}}
        wrong = {k: v for k, v in sizes.items() if v != n}
        if wrong:
            raise ValueError(f"Outcomes of {n} claims with columns of other lengths: {wrong}")
        bad = set(self.claimed) - set(CLAIMS)
        if bad:
            raise ValueError(f"Outcomes claims {sorted(bad)} are not among {CLAIMS}")

    def __len__(self) -> int:
        return len(self.claimed)


@dataclass(frozen=True)
class SolverSpec:
    """A registered solver: what ``cliffbench list`` shows and the runner calls."""

    name: str
    family: str
    paradigm: str
    backend: str
    params: tuple[Param, ...]
    solve: Callable[..., Outcome]
    prepare: Callable[[], Any] | None = None
    doc: str = ""
    module: str = ""
    exports: dict[str, Callable[..., None]] = field(default_factory=dict)
    accepts: Callable[[Any], bool] | None = None
    reads: dict[str, Callable[..., Any]] = field(default_factory=dict)
    missing: Callable[[], str] | None = None
    batch: Callable[..., list[Outcome] | Outcomes] | None = None

    def unavailable(self) -> str:
        """Why the solver cannot run on this machine (a program that is not installed), or ""
        when it can."""
        return self.missing() if self.missing is not None else ""

    def applies_to(self, instance: Any) -> bool:
        """Whether the solver takes this kind of instance of its family (a suite's grid pairs
        it only with those: the attractor solves game graphs and boards, not valued trees)."""
        return self.accepts is None or bool(self.accepts(instance))

    @property
    def key(self) -> str:
        """``family/name``: names are unique within a family (both families have a ``sat``)."""
        return f"{self.family}/{self.name}"

    def defaults(self) -> dict[str, Any]:
        return {p.name: p.default for p in self.params}

    def resolve(self, given: dict[str, Any]) -> dict[str, Any]:
        """Defaults overlaid with ``given``, each checked; an unknown name is a ParamError."""
        known = {p.name: p for p in self.params}
        for name in given:
            if name not in known:
                raise ParamError(f"solver {self.name!r} has no parameter {name!r}"
                                 f" (it has: {', '.join(known) or 'none'})")
        return {name: p.parse(given.get(name, p.default), self.name) if name in given
                else p.default for name, p in known.items()}

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "family": self.family, "paradigm": self.paradigm,
                "backend": self.backend, "params": {p.name: p.default for p in self.params},
                "param_specs": [p.to_json() for p in self.params], "doc": self.doc,
                "exports": sorted(self.exports)}


#: Every registered solver by ``family/name`` (:attr:`SolverSpec.key`).
REGISTRY: dict[str, SolverSpec] = {}


def register(spec: SolverSpec) -> SolverSpec:
    """Add a solver; registering the same family/name from another module is an error."""
    from instances import family_names

    if spec.family not in family_names():
        raise ValueError(f"solver {spec.name!r}: unknown family {spec.family!r} (declared "
                         f"families: {', '.join(family_names())})")
    if spec.paradigm not in PARADIGMS:
        raise ValueError(f"solver {spec.name!r}: unknown paradigm {spec.paradigm!r}")
    if "/" in spec.name:
        raise ValueError(f"solver {spec.name!r}: a name cannot hold '/'")
    old = REGISTRY.get(spec.key)
    if old is not None and old.module != spec.module:
        raise ValueError(f"solver {spec.key!r} is registered twice ({old.module}, {spec.module})")
    REGISTRY[spec.key] = spec
    return spec


def solver_keys(name: str, keys: Iterable[str], family: str | None = None) -> list[str]:
    """The solver keys (``family/name``) among ``keys`` that a user's name means, sorted:
    ``family/name`` means that one, a plain ``name`` the solver of that name in every family
    (in ``family`` only, when given). The one resolution of solver names: the registry, the
    solver index and suites all resolve through it."""
    if "/" in name:
        family_part, name = name.split("/", 1)
        if family is not None and family_part != family:
            return []
        family = family_part
    return sorted(key for key in set(keys) if key.split("/", 1)[1] == name
                  and (family is None or key.split("/", 1)[0] == family))


def unknown_solver(name: str, names: Iterable[str], family: str | None = None) -> str:
    """The message for a name that means no solver: the close ones among ``names`` (solver
    names without family), then all of them. ``family``: the one asked for, else the
    ``family/`` part of ``name``."""
    if "/" in name:
        family_part, name = name.split("/", 1)
        family = family or family_part
    known = sorted(set(names))
    where = f" for {family}" if family else ""
    return (f"unknown solver {name!r}{where}{did_you_mean(name, known)}; "
            f"known: {', '.join(known)}")


def matching(name: str, family: str | None = None) -> list[SolverSpec]:
    """The registered solvers a user's name means (:func:`solver_keys`), in family order."""
    return [REGISTRY[key] for key in solver_keys(name, REGISTRY, family)]


def lookup(name: str, family: str | None = None) -> SolverSpec:
    """The one solver ``name`` means (``sat`` with ``family="sudoku"``, or ``sudoku/sat``);
    KeyError when none (:func:`unknown_solver`'s message) or several (the message lists them)."""
    found = matching(name, family)
    if len(found) == 1:
        return found[0]
    if not found:
        raise KeyError(unknown_solver(name, (s.name for s in REGISTRY.values()), family))
    raise KeyError(f"solver {name!r} exists in several families "
                   f"({', '.join(s.family for s in found)}): say which, e.g. {found[0].key!r}")


def solver(name: str, *, family: str, paradigm: str, backend: str,
           params: list[Param] | tuple[Param, ...] = (),
           prepare: Callable[[], Any] | None = None,
           exports: dict[str, Callable[..., None]] | None = None,
           accepts: Callable[[Any], bool] | None = None,
           reads: dict[str, Callable[..., Any]] | None = None,
           batch: Callable[..., list[Outcome] | Outcomes] | None = None,
           ) -> Callable[[Callable[..., Outcome]], Callable[..., Outcome]]:
    """Declare ``solve(instance, budget, seed, **params) -> Outcome`` as a solver.

    ``exports`` maps a standard file format ("cnf", "dlx", "mps", "lp", ...) to
    ``write(instance, path, **params)``, which writes the solver's model of the instance in that
    format (``cliffbench export INSTANCE --to FORMAT FILE``). ``reads`` maps an exported format
    to ``read(instance, answer, **params)``, the way back: the family's solution of another
    program's answer to that file (for "cnf", the true variables, a set of ints), through the
    variable map the export used, or None when the answer decodes to no solution (a program
    of ``bench.tools`` then stands on the solver's model). ``accepts(instance)`` says which
    instances of the family the solver takes, where that is not all of them.

    ``batch`` is the optional throughput entry, used for the runs of a ladder that declares
    blocks (``block = N``): ``batch(instances, budget, seed, **params) -> list[Outcome]``, one
    outcome per instance in order (``instances``: a sequence, which a family may make lazily,
    each instance when it is asked for: Sudoku's ``PuzzleLines``, whose ``lines`` its grid
    readers take as they are), each with its own ``t_wall`` (and counters), or the same as
    one :class:`Outcomes` (columns: the cheaper form for many small instances). ``budget`` is
    the per-instance budget, its ``deadline`` that of the whole call (as many budgets as
    instances); an instance that needs more than ``budget.wall_s`` should stop as ``unknown``
    (the harness makes an outcome whose ``t_wall`` is past the budget plus the grace a
    ``timeout``). A solver without one is called instance by instance inside the block.
    """

    def wrap(solve: Callable[..., Outcome]) -> Callable[..., Outcome]:
        register(SolverSpec(name=name, family=family, paradigm=paradigm, backend=backend,
                            params=tuple(params), solve=solve, prepare=prepare,
                            doc=(solve.__doc__ or "").strip().split("\n")[0],
                            module=solve.__module__, exports=dict(exports or {}),
                            accepts=accepts, reads=dict(reads or {}), batch=batch))
        return solve

    return wrap
