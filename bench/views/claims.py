"""Claims, checked: published numbers set against the same numbers computed from a results table.

A claims file (TOML: ``X.claims.toml`` beside a suite file ``X.toml``; a shipped suite's is
``bench/plan/claims/X.toml``, outside ``plan/suites/`` where every ``*.toml`` is a suite; the
shipped one is ``bench/plan/claims/paper.toml``) is a list of ``[[claim]]`` tables.
:func:`load_claims` reads one (a :class:`ClaimsError` names the file, the claim and the key
of anything wrong);
:func:`evaluate` computes every claim on a results table and returns :data:`CLAIM_COLUMNS`;
:func:`claims_for_sweep` finds a sweep's claims file from its ``manifest.json``.

The file format, per ``[[claim]]``:

- ``id`` (unique), ``source`` (the seed document or paper, and where in it), ``claim`` (in
  words), ``published`` (a number), ``unit``, ``quote`` (the published text, verbatim),
  ``conditions`` (how it was measured there, in words) -- all required but ``quote`` and
  ``unit``.
- ``tolerance``: one of ``{ absolute = A }`` (|ours - published| <= A), ``{ relative = R }``
  (<= R |published|) or ``{ factor = F }`` (ours and published within a factor F of each
  other; both positive).
- ``bound`` (optional): ``"lower"`` when the published number is a lower bound (a search cut
  at a limit): ours at or above it, or within the tolerance of it, reproduces it; ``"upper"``
  likewise the other way.
- ``absent`` (optional): why the table may lack the rows (``"the paper suite does not run
  Korf's 100"``); said in the verdict's reason when they are missing.
- ``[claim.requires]`` (optional): conditions the claim names, as ``column = value`` or
  ``column = { min = X, max = Y }`` over the selected rows (say ``budget_s = { min = 300 }``
  for a number published under a 300 s timeout); a selected row outside them makes the claim
  "not comparable".
- ``[claim.ours]``: how to compute ours. Selectors ``family``, ``ladder``, ``rung``,
  ``config``, ``solver``, ``source`` (each a string or a list of strings; a row matches when
  its value is one of them) and ``params`` (a table of parameter columns and values, say
  ``{ s_partition = "5-5-5" }``, for a config whose label the table spells otherwise) pick
  rows of the normalized table (:func:`bench.views.stats.normalize`); ``kind`` is one of the
  vocabulary below.

The vocabulary (``kind``):

- ``mean`` / ``median`` of ``column`` (a table column such as ``work_nodes`` or ``t_wall``, or
  ``counters.NAME``, a counter from the ``counters`` JSON) over the selected rows; ``rows =
  "solved"`` (the default: successes only) or ``"all"``. Interval: percentile bootstrap over
  the rows (:func:`bench.stats.confidence.bootstrap_interval`, seeded by the claim's id).
- ``solved_fraction``: successes / runs of the selected rows. Interval: Wilson.
- ``ratio``: ``[claim.ours.numerator]`` over ``[claim.ours.denominator]``, each a ``mean`` or
  ``median`` as above (their selectors add to the outer ones). Interval: bootstrap; when both
  sides hold the same instances, instances are resampled jointly (paired), else each side on
  its own; seeded by the claim's id.
- ``cliff_rung``: the first rung of ``config`` on ``ladder`` solved on less than half of its
  runs (:func:`bench.views.stats.cliffs`), as a number (the rung label); no interval.
- ``fitted_cliff``: the 50% crossing of the logistic fit of that config's solved fraction
  (:func:`bench.stats.confidence.fit_cliff`, via :func:`bench.views.stats.cliffs`), with its
  bootstrap interval.

The verdict rules, in order:

1. ``not comparable`` when a computation selects no rows (the reason names the selectors of
   the missing rows, after the claim's ``absent`` reason when it gives one), when a selected
   row breaks ``requires`` (the reason names the condition and what the table holds), or when
   the statistic is undefined (no solved rows to take a mean of, one rung for a cliff).
2. ``reproduced`` when ours is within the tolerance of the published value (or on the right
   side of a ``bound``).
3. ``differs`` otherwise, the reason saying by how much; a cliff that never falls (or is fitted
   outside the ladder) differs from a published cliff rung.

Intervals are 95% and depend on the table and the claim's id only, so the same table gives the
same table of claims.
"""

from __future__ import annotations

import json
import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from bench.stats import confidence
from bench.views.stats import _cliffs_from_summary, _summarize, fmt_param

#: The claims table's columns (:func:`evaluate`).
CLAIM_COLUMNS: list[str] = [
    "id", "source", "claim", "published", "ours", "verdict", "why",
    "published_value", "unit", "ours_value", "ours_low", "ours_high", "tolerance",
    "conditions", "quote",
]
#: The verdicts.
REPRODUCED, DIFFERS, NOT_COMPARABLE = "reproduced", "differs", "not comparable"
#: The computations of ``[claim.ours]``.
KINDS = ("mean", "median", "solved_fraction", "ratio", "cliff_rung", "fitted_cliff")
SELECTORS = ("family", "ladder", "rung", "config", "solver", "source")
CLAIM_KEYS = {"id", "source", "claim", "published", "unit", "quote", "conditions", "tolerance",
              "bound", "absent", "requires", "ours"}
_REQUIRED = ("id", "source", "claim", "published", "conditions", "tolerance", "ours")
_STAT_KEYS = {"kind", "column", "rows", "params", *SELECTORS}
_OURS_KEYS = _STAT_KEYS | {"numerator", "denominator"}
#: The suffix of a suite's claims file: ``X.toml`` has ``X.claims.toml`` beside it.
SUFFIX = ".claims.toml"
#: The shipped suites' claims files: ``plan/suites/X.toml`` has ``plan/claims/X.toml``.
SHIPPED = Path(__file__).resolve().parent.parent / "plan" / "claims"
SUITES = Path(__file__).resolve().parent.parent / "plan" / "suites"


class ClaimsError(ValueError):
    """A claims file that cannot be used; the message names the file, the claim and the key."""


@dataclass(frozen=True)
class Claim:
    """One ``[[claim]]`` of a claims file, checked (see the module docstring)."""

    id: str
    source: str
    claim: str
    published: float
    unit: str
    conditions: str
    tolerance: tuple[str, float]
    ours: dict[str, Any]
    quote: str = ""
    bound: str = ""
    absent: str = ""
    requires: dict[str, Any] = field(default_factory=dict)


# --------------------------------------------------------------------------------------------
# Loading


def load_claims(path: str | Path) -> list[Claim]:
    """The claims of a claims file, each checked; a :class:`ClaimsError` otherwise."""
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ClaimsError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except ValueError as exc:  # TOMLDecodeError, UnicodeDecodeError, a 4300-digit integer
        raise ClaimsError(f"{path}: not valid TOML: {exc}") from None
    unknown = sorted(set(raw) - {"claim"})
    if unknown:
        raise ClaimsError(f"{path}: unknown key {unknown[0]!r} (a claims file holds [[claim]])")
    entries = raw.get("claim", [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise ClaimsError(f"{path}: 'claim' is a list of [[claim]] tables")
    claims, seen = [], set()
    for i, entry in enumerate(entries):
        claim = _claim(entry, f"{path}: claim {entry.get('id', f'#{i + 1}')!r}")
        if claim.id in seen:
            raise ClaimsError(f"{path}: claim {claim.id!r}: key 'id': used twice")
        seen.add(claim.id)
        claims.append(claim)
    return claims


def _claim(entry: dict[str, Any], where: str) -> Claim:
    """One ``[[claim]]`` table checked; ``where`` names the file and the claim."""
    unknown = sorted(set(entry) - CLAIM_KEYS)
    if unknown:
        raise ClaimsError(f"{where}: unknown key {unknown[0]!r} "
                          f"(known: {', '.join(sorted(CLAIM_KEYS))})")
    for key in _REQUIRED:
        if key not in entry:
            raise ClaimsError(f"{where}: key {key!r}: missing")
    for key in ("id", "source", "claim", "conditions", "unit", "quote", "absent"):
        if key in entry and not isinstance(entry[key], str):
            raise ClaimsError(f"{where}: key {key!r}: a string")
    published = entry["published"]
    if isinstance(published, bool) or not isinstance(published, int | float):
        raise ClaimsError(f"{where}: key 'published': a number, not {published!r}")
    bound = entry.get("bound", "")
    if bound not in ("", "lower", "upper"):
        raise ClaimsError(f"{where}: key 'bound': 'lower' or 'upper', not {bound!r}")
    requires = entry.get("requires", {})
    if not isinstance(requires, dict):
        raise ClaimsError(f"{where}: key 'requires': a table of column = value or "
                          "{ min, max }")
    for column, want in requires.items():
        if isinstance(want, dict) and (not want or set(want) - {"min", "max"}):
            raise ClaimsError(f"{where}: key 'requires.{column}': {{ min = X, max = Y }}")
    return Claim(id=entry["id"], source=entry["source"], claim=entry["claim"],
                 published=float(published), unit=entry.get("unit", ""),
                 conditions=entry["conditions"], tolerance=_tolerance(entry["tolerance"], where),
                 ours=_ours(entry["ours"], where), quote=entry.get("quote", ""), bound=bound,
                 absent=entry.get("absent", ""), requires=requires)


def _tolerance(value: Any, where: str) -> tuple[str, float]:
    """``{ absolute = A }``, ``{ relative = R }`` or ``{ factor = F }`` as (kind, amount)."""
    if not isinstance(value, dict) or len(value) != 1 or \
            next(iter(value)) not in ("absolute", "relative", "factor"):
        raise ClaimsError(f"{where}: key 'tolerance': one of {{ absolute = A }}, "
                          f"{{ relative = R }}, {{ factor = F }}, not {value!r}")
    kind, amount = next(iter(value.items()))
    if isinstance(amount, bool) or not isinstance(amount, int | float) or amount < 0 or \
            (kind == "factor" and amount < 1):
        raise ClaimsError(f"{where}: key 'tolerance.{kind}': a number >= "
                          f"{1 if kind == 'factor' else 0}, not {amount!r}")
    return kind, float(amount)


def _selectors(table: dict[str, Any], where: str, key: str) -> None:
    """Check the selectors of a computation: strings or lists of strings."""
    for name in SELECTORS:
        value = table.get(name)
        if value is None:
            continue
        if isinstance(value, str) or (isinstance(value, list) and value and
                                      all(isinstance(v, str) for v in value)):
            continue
        raise ClaimsError(f"{where}: key '{key}.{name}': a string or a list of strings")


def _stat(table: Any, where: str, key: str, kinds: tuple[str, ...]) -> dict[str, Any]:
    """A ``mean`` / ``median`` (or, at the top, any kind) computation checked."""
    if not isinstance(table, dict):
        raise ClaimsError(f"{where}: key {key!r}: a table")
    allowed = _OURS_KEYS if key == "ours" else _STAT_KEYS
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise ClaimsError(f"{where}: unknown key '{key}.{unknown[0]}' "
                          f"(known: {', '.join(sorted(allowed))})")
    kind = table.get("kind", "mean" if key != "ours" else None)
    if kind not in kinds:
        raise ClaimsError(f"{where}: key '{key}.kind': one of {', '.join(kinds)}, not {kind!r}")
    _selectors(table, where, key)
    if not isinstance(table.get("params", {}), dict):
        raise ClaimsError(f"{where}: key '{key}.params': a table of column = value "
                          "(say s_partition = '5-5-5')")
    if kind in ("mean", "median") and not isinstance(table.get("column"), str):
        raise ClaimsError(f"{where}: key '{key}.column': missing (the column to take the "
                          f"{kind} of, e.g. 'work_nodes' or 'counters.expanded')")
    if table.get("rows", "solved") not in ("solved", "all"):
        raise ClaimsError(f"{where}: key '{key}.rows': 'solved' or 'all', "
                          f"not {table['rows']!r}")
    if kind in ("cliff_rung", "fitted_cliff"):
        for need in ("ladder", "config"):
            if not isinstance(table.get(need), str):
                raise ClaimsError(f"{where}: key '{key}.{need}': one name, for a {kind}")
    return {**table, "kind": kind}


def _ours(table: Any, where: str) -> dict[str, Any]:
    """The ``[claim.ours]`` computation checked; a ratio's two sides too."""
    ours = _stat(table, where, "ours", KINDS)
    if ours["kind"] == "ratio":
        for side in ("numerator", "denominator"):
            if side not in ours:
                raise ClaimsError(f"{where}: key 'ours.{side}': missing (a ratio divides two "
                                  "statistics)")
            ours[side] = _stat(ours[side], where, f"ours.{side}", ("mean", "median"))
    elif "numerator" in ours or "denominator" in ours:
        raise ClaimsError(f"{where}: key 'ours.numerator': only for kind = 'ratio'")
    return ours


# --------------------------------------------------------------------------------------------
# Finding a sweep's claims file


def claims_file_of_suite(suite: str | Path) -> Path | None:
    """The claims file of the suite file ``X.toml``: ``X.claims.toml`` beside it, or for a
    shipped suite ``plan/claims/X.toml``; None when there is none."""
    path = Path(suite)
    if path.suffix != ".toml":
        return None
    candidate = path.with_name(path.stem + SUFFIX)
    if candidate.is_file():
        return candidate
    shipped = SHIPPED / path.name
    try:
        is_shipped = path.resolve().parent == SUITES.resolve()
    except OSError:
        is_shipped = False
    return shipped if is_shipped and shipped.is_file() else None


def claims_for_sweep(directory: str | Path) -> Path | None:
    """The claims file of a sweep: from its ``manifest.json``'s ``suite`` (the suite file it
    ran), else from the shipped suite of its ``suite_name``; None when there is none."""
    try:
        manifest = json.loads((Path(directory) / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(manifest, dict):
        return None
    found = None
    if isinstance(manifest.get("suite"), str):
        found = claims_file_of_suite(manifest["suite"])
    name = manifest.get("suite_name")
    if found is None and isinstance(name, str) and name:
        found = claims_file_of_suite(SUITES / f"{name}.toml")
    return found


# --------------------------------------------------------------------------------------------
# Evaluation


def _select(data: pd.DataFrame, spec: dict[str, Any]) -> pd.DataFrame:
    """The rows matching every selector of ``spec``."""
    mask = np.ones(len(data), dtype=bool)
    for name in SELECTORS:
        want = spec.get(name)
        if want is None:
            continue
        values = [want] if isinstance(want, str) else list(want)
        column = data[name].astype("string") if name in data.columns else \
            pd.Series(pd.NA, index=data.index, dtype="string")
        mask &= column.isin(values).fillna(False).to_numpy(dtype=bool)
    for name, want in (spec.get("params") or {}).items():
        column = data[name] if name in data.columns else pd.Series(pd.NA, index=data.index)
        mask &= column.astype(object).map(fmt_param).eq(fmt_param(want)).to_numpy(dtype=bool)
    return data[mask]


def _described(spec: dict[str, Any]) -> str:
    """The selectors of a computation as ``ladder=notebook, config=ida-pdb``."""
    parts = []
    for name in SELECTORS:
        want = spec.get(name)
        if want is not None:
            parts.append(f"{name}={want if isinstance(want, str) else '|'.join(want)}")
    parts += [f"{k}={fmt_param(v)}" for k, v in (spec.get("params") or {}).items()]
    return ", ".join(parts) or "any row"


def _column(rows: pd.DataFrame, column: str) -> np.ndarray:
    """A column's values as floats, ``counters.NAME`` read from the counters JSON."""
    if column.startswith("counters."):
        name = column[len("counters."):]

        def counter(text: Any) -> float:
            try:
                value = json.loads(text).get(name) if isinstance(text, str) else None
            except (ValueError, AttributeError):
                value = None
            ok = isinstance(value, int | float) and not isinstance(value, bool)
            return float(value) if ok else float("nan")
        return np.array([counter(t) for t in rows["counters"]], dtype=float)
    if column not in rows.columns:
        return np.full(len(rows), np.nan)
    return pd.to_numeric(rows[column], errors="coerce").to_numpy(dtype=float, na_value=np.nan)


class _NotComparable(Exception):
    """Raised inside a computation: the claim is not comparable, for the reason given."""


def _stat_rows(data: pd.DataFrame, spec: dict[str, Any], claim: Claim) -> pd.DataFrame:
    """The rows a statistic uses: selected, every requirement met, solved ones if asked."""
    rows = _select(data, spec)
    if rows.empty:
        absent = f"{claim.absent}; " if claim.absent else ""
        raise _NotComparable(f"{absent}the table has no rows with {_described(spec)}")
    _check_requires(rows, claim)
    if spec.get("rows", "solved") == "solved":
        solved = rows[rows["_ok"]]
        if solved.empty:
            raise _NotComparable(f"no solved rows among the {len(rows)} with "
                                 f"{_described(spec)}")
        rows = solved
    return rows


def _check_requires(rows: pd.DataFrame, claim: Claim) -> None:
    """Raise :class:`_NotComparable` when a selected row breaks a condition the claim names."""
    for column, want in claim.requires.items():
        values = rows[column] if column in rows.columns else pd.Series(pd.NA, index=rows.index)
        if isinstance(want, dict):
            number = pd.to_numeric(values, errors="coerce")
            bad = number.isna()
            if "min" in want:
                bad |= number < want["min"]
            if "max" in want:
                bad |= number > want["max"]
            said = " and ".join(f"{column} {'>=' if k == 'min' else '<='} {fmt_param(v)}"
                                for k, v in want.items())
        else:
            bad = values.astype(object).map(lambda v, w=want: fmt_param(v) != fmt_param(w))
            said = f"{column} = {fmt_param(want)}"
        bad = bad.fillna(True).to_numpy(dtype=bool)
        if bad.any():
            seen = sorted({fmt_param(v) for v in values[bad].astype(object)})
            raise _NotComparable(f"published with {said} ({claim.conditions}); ours has "
                                 f"{column} {', '.join(seen[:4])}")


def _statistic(x: np.ndarray, kind: str) -> float:
    return float(np.median(x) if kind == "median" else np.mean(x))


def _plain_stat(data: pd.DataFrame, spec: dict[str, Any], claim: Claim,
                ) -> tuple[float, float, float]:
    rows = _stat_rows(data, spec, claim)
    x = _column(rows, spec["column"])
    x = x[~np.isnan(x)]
    if len(x) == 0:
        raise _NotComparable(f"no {spec['column']} on the rows with {_described(spec)}")
    low, high = confidence.bootstrap_interval(x, spec["kind"],
                                              confidence.seed_of("claim", claim.id))
    return _statistic(x, spec["kind"]), low, high


def _fraction(data: pd.DataFrame, spec: dict[str, Any], claim: Claim,
              ) -> tuple[float, float, float]:
    rows = _stat_rows(data, {**spec, "rows": "all"}, claim)
    k, n = float(rows["_ok"].sum()), float(len(rows))
    low, high = confidence.wilson_interval(k, n)
    return k / n, float(low), float(high)


def _per_instance(rows: pd.DataFrame, column: str) -> pd.Series:
    """A side of a ratio as one value a row, indexed by instance id (for paired resampling)."""
    return pd.Series(_column(rows, column), index=rows["instance_id"].astype(object).to_numpy())


def _ratio(data: pd.DataFrame, spec: dict[str, Any], claim: Claim,
           ) -> tuple[float, float, float]:
    sides = []
    for side in ("numerator", "denominator"):
        inner = {**{k: v for k, v in spec.items() if k in SELECTORS}, **spec[side]}
        rows = _stat_rows(data, inner, claim)
        values = _per_instance(rows, inner["column"]).dropna()
        if values.empty:
            raise _NotComparable(f"no {inner['column']} on the rows with {_described(inner)}")
        sides.append((values, inner["kind"]))
    (top, top_kind), (bottom, bottom_kind) = sides
    below = _statistic(bottom.to_numpy(), bottom_kind)
    if below == 0:
        raise _NotComparable("the denominator is 0")
    point = _statistic(top.to_numpy(), top_kind) / below
    rng = np.random.default_rng(confidence.seed_of("claim", claim.id))
    same = (top.index.is_unique and bottom.index.is_unique and
            set(top.index) == set(bottom.index) and top.index.notna().all())
    draws = []
    if same:  # the same instances on both sides: resample instances jointly
        keys = sorted(top.index, key=str)
        a, b = top.loc[keys].to_numpy(), bottom.loc[keys].to_numpy()
        for _ in range(confidence.RESAMPLES):
            pick = rng.integers(0, len(keys), len(keys))
            draws.append((_statistic(a[pick], top_kind), _statistic(b[pick], bottom_kind)))
    else:
        a, b = np.sort(top.to_numpy()), np.sort(bottom.to_numpy())
        for _ in range(confidence.RESAMPLES):
            draws.append((_statistic(a[rng.integers(0, len(a), len(a))], top_kind),
                          _statistic(b[rng.integers(0, len(b), len(b))], bottom_kind)))
    pairs = np.array(draws)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratios = pairs[:, 0] / pairs[:, 1]
    ratios = ratios[np.isfinite(ratios)]
    tail = 100 * (1 - confidence.LEVEL) / 2
    low, high = (np.percentile(ratios, [tail, 100 - tail]) if len(ratios)
                 else (np.nan, np.nan))
    return point, float(low), float(high)


def _cliff(data: pd.DataFrame, spec: dict[str, Any], claim: Claim,
           ) -> tuple[float, float, float]:
    rows = _stat_rows(data, {**spec, "rows": "all"}, claim)
    table = _cliffs_from_summary(_summarize(rows))
    mine = table[(table["ladder"] == spec["ladder"]) & (table["config"] == spec["config"])]
    if mine.empty:
        raise _NotComparable(f"{spec['config']} has no cliff on {spec['ladder']} (pseudo-ladder)")
    row = mine.iloc[0]
    last_rung = str(rows.sort_values("rung_index")["rung"].iloc[-1])
    if spec["kind"] == "cliff_rung":
        rung = row["cliff_rung"]
        if pd.isna(rung):
            raise _Differs(f"{spec['config']} never falls below half on {spec['ladder']} "
                           f"(up to rung {last_rung})")
        try:
            value = float(rung)
        except ValueError:
            raise _NotComparable(f"the cliff rung {rung!r} is not a number") from None
        return value, float("nan"), float("nan")
    if pd.isna(row["fit_axis"]):
        raise _NotComparable(f"fewer than two rungs of {spec['config']} on {spec['ladder']}")
    if row["fit_axis"] != "rung":
        raise _NotComparable(f"the rungs of {spec['ladder']} are not numbers to fit along")
    if pd.isna(row["fit_cliff"]):
        raise _Differs(f"the fitted cliff lies {row['fit_where']}")
    return (float(row["fit_cliff"]),
            float(row["fit_cliff_low"]) if pd.notna(row["fit_cliff_low"]) else float("nan"),
            float(row["fit_cliff_high"]) if pd.notna(row["fit_cliff_high"]) else float("nan"))


class _Differs(Exception):
    """Raised inside a computation: ours has no number but plainly differs (a cliff that never
    falls, against a published cliff rung)."""


_COMPUTE = {"mean": _plain_stat, "median": _plain_stat, "solved_fraction": _fraction,
            "ratio": _ratio, "cliff_rung": _cliff, "fitted_cliff": _cliff}


def fmt_number(value: float) -> str:
    """A number as the claims table shows it: 4 significant digits, thousands apart."""
    if value is None or not math.isfinite(value):
        return "NA"
    if value == int(value) and abs(value) < 1e15:
        return f"{int(value):,}"
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.4g}"


def _tolerance_text(claim: Claim) -> str:
    kind, amount = claim.tolerance
    text = {"absolute": f"+/- {fmt_number(amount)}", "relative": f"+/- {amount:.0%}",
            "factor": f"x{fmt_number(amount)}"}[kind]
    return text + (f", published is a {claim.bound} bound" if claim.bound else "")


def _judge(claim: Claim, ours: float) -> tuple[str, str]:
    """(verdict, why) for ours against the published value and the claim's tolerance."""
    pub = claim.published
    kind, amount = claim.tolerance
    if kind == "absolute":
        within = abs(ours - pub) <= amount + 1e-12
        gap = f"off by {fmt_number(abs(ours - pub))}"
    elif kind == "relative":
        within = abs(ours - pub) <= amount * abs(pub) + 1e-12
        gap = f"off by {abs(ours - pub) / abs(pub):.0%}" if pub else "published is 0"
    else:
        within = ours > 0 and pub > 0 and max(ours / pub, pub / ours) <= amount + 1e-12
        gap = (f"a factor {max(ours / pub, pub / ours):.3g} apart" if ours > 0 and pub > 0
               else "not both positive")
    if claim.bound == "lower" and ours >= pub:
        return REPRODUCED, "at or above the published lower bound"
    if claim.bound == "upper" and ours <= pub:
        return REPRODUCED, "at or below the published upper bound"
    tol = _tolerance_text(claim)
    return (REPRODUCED, f"{gap}, within {tol}") if within else (DIFFERS, f"{gap}; tolerance {tol}")


def evaluate(claims: list[Claim], data: pd.DataFrame) -> pd.DataFrame:
    """The claims table (:data:`CLAIM_COLUMNS`) of ``claims`` on a normalized results table."""
    rows = []
    for claim in claims:
        unit = f" {claim.unit}" if claim.unit else ""
        value = low = high = float("nan")
        try:
            value, low, high = _COMPUTE[claim.ours["kind"]](data, claim.ours, claim)
            verdict, why = _judge(claim, value)
        except _NotComparable as exc:
            verdict, why = NOT_COMPARABLE, str(exc)
        except _Differs as exc:
            verdict, why = DIFFERS, str(exc)
        if math.isfinite(value):
            ours = fmt_number(value)
            if math.isfinite(low) and math.isfinite(high) and not low == high == value:
                ours += f" [{fmt_number(low)}, {fmt_number(high)}]"
            ours += unit
        else:
            ours = "—"
        rows.append({"id": claim.id, "source": claim.source, "claim": claim.claim,
                     "published": fmt_number(claim.published) + unit, "ours": ours,
                     "verdict": verdict, "why": why, "published_value": claim.published,
                     "unit": claim.unit, "ours_value": value, "ours_low": low, "ours_high": high,
                     "tolerance": _tolerance_text(claim), "conditions": claim.conditions,
                     "quote": claim.quote})
    table = pd.DataFrame(rows, columns=CLAIM_COLUMNS)
    for col in ("published_value", "ours_value", "ours_low", "ours_high"):
        table[col] = table[col].astype("Float64")
    return table


def check(path: str | Path, data: pd.DataFrame) -> pd.DataFrame:
    """:func:`evaluate` the claims file at ``path`` on a normalized results table."""
    return evaluate(load_claims(path), data)


def sweep_claims(directory: str | Path, data: pd.DataFrame,
                 path: str | Path | None = None, normalized: bool = True
                 ) -> pd.DataFrame | None:
    """The claims table of a sweep: the claims file ``path`` when given, else the one its
    suite has (:func:`claims_for_sweep`), on the results table ``data`` (normalized here
    unless ``normalized``, and only when there is a claims file); None when there is none."""
    found = Path(path) if path is not None else claims_for_sweep(directory)
    if found is None:
        return None
    if not normalized:
        from bench.views.stats import normalize

        data = normalize(data)
    return check(found, data)
