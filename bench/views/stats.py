"""The statistics of a results table: summaries, cliffs, PAR-2, the virtual best, the overview.

Everything here takes a results DataFrame (rows as in :mod:`bench.table.schema`, plus open-ended
``p_*`` / ``s_*`` parameter columns) and nothing else: no journal, no manifest, no solver
registry. So a report can be rebuilt from any ``runs.parquet`` on any machine, and a missing
optional column (say ``work_conflicts``) only leaves its statistic NA. The text of these tables
(Markdown, CSV, JSON, the terminal summary) is :mod:`bench.views.report`'s.

- :func:`normalize` -- the frame every table (and ``bench.views.figures``) computes from: used
  columns present and typed, pseudo-ladders named, configs labelled (:func:`config_labels`:
  the solver name, or ``name[k=v,...]`` from the ``s_*`` parameters that differ between rows
  of that solver of that family).
- :func:`summarize` -- one row per (family, ladder, rung, config): counts per status
  (``solved`` counts every success, ``optimal`` those proven optimal), time statistics over
  successes, PAR-2, successes per second of solving, the encode/solve split, median work
  counters, mean guesses, and the median score where the family has partial scores
  (``max_score`` recorded; an objective such as a path length is not a partial score).
- :func:`cliffs` -- per (family, ladder, config): the first rung solved on less than half of
  its runs, and the last rung solved on all of them; beside them the fitted cliff, the 50%
  crossing of a monotone logistic fit of the solved fraction along the ladder, with its
  bootstrap interval (:mod:`bench.stats.confidence`).
- Intervals (95%, :mod:`bench.stats.confidence`): the summary's solved fraction has a Wilson
  interval (``solved_low``/``solved_high``, fractions of ``runs``), its ``t_median`` and
  ``par2`` seeded percentile-bootstrap intervals (``*_low``/``*_high``).
- :func:`paired` -- configs run on the same instances compared pairwise per rung and per
  ladder: wins, ties, losses on PAR-2 terms, sign test and Wilcoxon signed-rank test, Holm's
  correction over the report (:mod:`bench.views.paired`).
- Run-time distributions (:func:`bench.views.tails.tail_table`): per (rung, config) with at
  least :data:`bench.views.tails.MIN_RUNS` runs, the tail index of its wall times and whether
  the tail is heavy (what the survival figure draws).
- One witness (:func:`bench.views.witnesses.single_witnesses`): the paradigms of a ladder
  that ranks paradigms whose every config shares one engine or one model.
- :func:`virtual_best` -- per rung, what the per-instance fastest config achieves.
- :func:`overview` -- per (family, ladder) a config x rung grid of solved / optimal / failed
  counts, and per config its PAR-2 over the ladder, cliff and mean score fraction, the virtual
  best as one more config (what the terminal summary and the HTML page show first).
- :func:`disagreements` -- instances on which configs contradict each other;
  :func:`wrong_answers` -- the rows the checker (or a known fact) rejected.
- :func:`build_report` gathers the tables into a :class:`Report`.

Conventions:

- Success means a status in :data:`bench.table.schema.SUCCESS` (solved, optimal, infeasible).
  Every other status, ``skipped`` included, is a failure: a skipped run is a run the solver did
  not get to answer, and leaving it out would flatter a solver whose ladder stopped climbing. A
  run with a missing or unknown status is a failure too (it counts in ``runs``, in no status
  column).
- PAR-2 is the mean over runs of ``t_wall`` for a success and ``2 * budget_s`` for any
  failure. A run whose term is NA (a success without ``t_wall``, a failure without
  ``budget_s``) makes the PAR-2 of its group NA rather than silently dropping the run.
- Rows outside ladders (``ladder`` empty or NA) are grouped under their instance's family as
  one pseudo-ladder named :data:`PSEUDO_LADDER` with rung ``""`` and ``rung_index`` NA. Every
  table carries a ``family`` column, so the pseudo-ladders of different families stay apart.
  Pseudo-ladders have no cliff (one rung cannot fall off anything).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from pandas.api.typing import DataFrameGroupBy

from bench.execute.classify import solutions_bucket
from bench.stats import confidence
from bench.table.schema import COLUMNS, PARAM_PREFIX_SOLVER, STATUSES, SUCCESS
from bench.views import paired as paired_view
from bench.views import tails as tails_view
from bench.views import witnesses as witnesses_view

#: The ladder name given to runs outside any ladder (one pseudo-ladder per family).
PSEUDO_LADDER = "(instances)"
#: Failure statuses, in schema order: each gets a count column in the summary.
FAILURES: tuple[str, ...] = tuple(s for s in STATUSES if s not in SUCCESS)


_RUNG_KEYS = ["family", "ladder", "rung", "rung_index"]
SUMMARY_COLUMNS: list[str] = [
    *_RUNG_KEYS, "config", "solver", "runs", "solved", "optimal", *FAILURES,
    "t_median", "t_max", "par2", "per_second", "encode_mean", "solve_mean", "nodes_median",
    "guesses_mean", "conflicts_median", "score_median", "max_score",
    "solved_low", "solved_high", "t_median_low", "t_median_high", "par2_low", "par2_high",
]
CLIFF_COLUMNS: list[str] = [
    "family", "ladder", "config", "solver", "rungs",
    "cliff_rung", "cliff_rung_index", "last_solved_rung", "last_solved_rung_index",
    *confidence.FIT_COLUMNS,
]
VBS_COLUMNS: list[str] = [*_RUNG_KEYS, "instances", "solved", "optimal", "par2"]
DISAGREEMENT_COLUMNS: list[str] = [
    "kind", "family", "ladder", "rung", "instance_id", "instance_name", "configs", "detail",
]
WRONG_COLUMNS: list[str] = [
    "family", "ladder", "rung", "instance_id", "instance_name", "config", "seed", "repeat",
    "claimed", "verdict",
]

# Columns the reports read; any the frame lacks is added as all-NA with its schema dtype.
_USED = ("family", "instance_id", "instance_name", "ladder", "rung", "rung_index", "max_score",
         "solver", "repeat", "seed", "status", "claimed", "verified", "verdict", "score",
         "objective", "t_wall", "t_encode", "t_solve", "budget_s", "work_nodes", "work_conflicts",
         "counters")
_INT_MAX = 2**53


# --------------------------------------------------------------------------------------------
# Normalisation


def _coerce(column: pd.Series, dtype: str) -> pd.Series:
    """Give a column its schema dtype, so Parquet, JSON-lines and hand-built frames agree."""
    if dtype == "string":
        return column.astype("string")
    if dtype == "boolean":
        return column.astype("boolean")
    numeric = pd.to_numeric(column, errors="coerce")
    if dtype == "Int64":
        return numeric.round().astype("Int64")
    return numeric.astype("Float64")


def normalize(df: pd.DataFrame) -> pd.DataFrame:
    """Return a copy with every used column present and typed, pseudo-ladders named, configs set.

    Done once, up front, so the table functions can assume a complete frame and a missing or
    all-NA optional column never raises.
    """
    out = df.reset_index(drop=True)  # a copy; a duplicated index (from concat) would misalign
    for name in _USED:
        dtype = COLUMNS[name][0]
        if name in out.columns:
            out[name] = _coerce(out[name], dtype)
        else:
            out[name] = pd.Series(pd.NA, index=out.index, dtype=dtype)
    out["family"] = out["family"].fillna("")
    out["solver"] = out["solver"].fillna("")
    pseudo = out["ladder"].isna() | (out["ladder"] == "")
    out["ladder"] = out["ladder"].where(~pseudo, PSEUDO_LADDER)
    out["rung"] = out["rung"].fillna("").where(~pseudo, "")
    out["rung_index"] = out["rung_index"].mask(pseudo)
    out["config"] = config_labels(out)
    out["_ok"] = out["status"].isin(list(SUCCESS)).astype(bool)
    out["_optimal"] = out["status"].eq("optimal").fillna(False).astype(bool)
    return out


# --------------------------------------------------------------------------------------------
# Config labels


def fmt_param(value: Any) -> str:
    """A parameter value as it reads in a label: ``3`` not ``3.0``, ``NA`` when unset."""
    if value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        return "NA"
    if isinstance(value, float) and value.is_integer() and abs(value) < _INT_MAX:
        return str(int(value))
    return str(value)


def _varying_params(rows: pd.DataFrame, params: list[str]) -> list[str]:
    """The parameter columns that take more than one value (NA counts as a value) in ``rows``."""
    return [c for c in params if rows[c].nunique(dropna=False) > 1]


def config_labels(df: pd.DataFrame) -> pd.Series:
    """Label each row with its config: the solver name, plus ``[k=v,...]`` for swept params.

    Only the ``s_*`` columns that differ between rows of the same solver of the same family
    appear (``sat`` of edge matching and ``sat`` of Sudoku have different parameters, which is
    no reason to label either), sorted by name, so that a solver run with one parameter set
    keeps its plain name and labels are stable whatever order the runs finished in. Only
    those parameter columns are read, and a label is formatted once per distinct combination
    of their values (:func:`_solver_labels`), not once per row.
    """
    if "solver" not in df.columns or df.empty:
        return pd.Series("", index=df.index, dtype="string")
    frame = df.reset_index(drop=True)  # positions, so a duplicated index cannot mislabel
    solvers = frame["solver"].astype("string").fillna("")
    params = sorted(c for c in frame.columns if str(c).startswith(PARAM_PREFIX_SOLVER))
    swept = frame[params]
    if "cores" in frame.columns:  # runs at different core counts are different configs
        swept = swept.assign(**{f"{PARAM_PREFIX_SOLVER}cores": frame["cores"]})
    if not _varying_params(swept, list(swept.columns)):  # one value each: every label a name
        return solvers.set_axis(df.index).rename(None)
    families = (frame["family"].astype("string").fillna("") if "family" in frame.columns
                else pd.Series("", index=frame.index, dtype="string"))
    labels = np.empty(len(frame), dtype=object)
    for (_, name), rows in frame.groupby([families, solvers], sort=False).indices.items():
        labels[rows] = _solver_labels(name, swept.take(rows))
    return pd.Series(labels, index=df.index, dtype="string")


def _solver_labels(name: str, swept: pd.DataFrame) -> str | np.ndarray:
    """The labels of the rows of one solver of one family, given their parameter columns
    ``swept``: ``name`` when none varies, else one label a row, ``name[k=v,...]`` over the
    varying columns, formatted per distinct combination of their values and spread back."""
    varying = _varying_params(swept, list(swept.columns))
    if not varying:
        return name
    combination = swept.groupby(varying, dropna=False, sort=False).ngroup().to_numpy()
    _, first = np.unique(combination, return_index=True)  # a row of each, in number order
    distinct = swept[varying].iloc[first]
    pairs = [c[len(PARAM_PREFIX_SOLVER):] + "=" + distinct[c].astype(object).map(fmt_param)
             for c in varying]
    texts = name + "[" + pairs[0].str.cat(pairs[1:], sep=",") + "]"
    return texts.to_numpy(dtype=object)[combination]


# --------------------------------------------------------------------------------------------
# Summary


def _empty(columns: list[str]) -> pd.DataFrame:
    """An empty table with the given columns, so renderers and callers see stable keys."""
    return pd.DataFrame({c: pd.Series(dtype="object") for c in columns})


def _order(table: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Sort real ladders before pseudo-ladders, then by ``keys``; rebuild a clean index."""
    pseudo = (table["ladder"] == PSEUDO_LADDER).astype(int).rename("_p")
    ordered = table.assign(_p=pseudo).sort_values(["_p", *keys], kind="stable",
                                                   na_position="last")
    return ordered.drop(columns="_p").reset_index(drop=True)


def _rows_where(data: pd.DataFrame, mask: pd.Series) -> pd.DataFrame:
    """The rows of ``data`` where ``mask`` is true (NA is not): ``data`` itself where that is
    every row, and no row taken where it is none (selecting rows takes every column's values,
    dozens of columns of tens of thousands of runs for a block sweep's table)."""
    keep = mask.fillna(False).to_numpy(dtype=bool)
    if keep.all():
        return data
    return data.iloc[:0] if not keep.any() else data[keep]


def _penalised(df: pd.DataFrame) -> pd.Series:
    """Each run's PAR-2 term: its wall time if it succeeded, twice its budget otherwise."""
    return df["t_wall"].where(df["_ok"], 2.0 * df["budget_s"])


def _with_terms(frame: pd.DataFrame, terms: pd.Series) -> pd.DataFrame:
    """``frame`` with the PAR-2 terms of its rows as ``_term`` and ``_missing`` (the term is
    NA), the columns :func:`_par2` reads from a grouping of it."""
    return frame.assign(_term=terms, _missing=terms.isna())


def _par2(g: DataFrameGroupBy) -> pd.Series:
    """Mean of the PAR-2 terms per group of ``g`` (a grouping of a :func:`_with_terms` frame,
    whose keys are factorised once for all its statistics), NA when any term of the group is
    NA."""
    means = g["_term"].sum() / g["_term"].size()
    return means.where(g["_missing"].sum() == 0).astype("Float64")


def summarize(df: pd.DataFrame) -> pd.DataFrame:
    """One row per (family, ladder, rung, config), ordered by ladder, rung_index, config.

    Columns are :data:`SUMMARY_COLUMNS` whatever the input holds: every failure status gets a
    count (0 when absent) so a script reading the table never meets a missing key.
    """
    return _summarize(normalize(df))


def _summarize(data: pd.DataFrame) -> pd.DataFrame:
    """:func:`summarize` on a normalised frame."""
    if data.empty:
        return _empty(SUMMARY_COLUMNS)
    keys = [*_RUNG_KEYS, "config"]
    t_ok = data["t_wall"].where(data["_ok"])
    ok = data["_ok"].to_numpy(dtype=bool)
    work = _with_terms(data, _penalised(data)).assign(
        _t_ok=t_ok, _enc_ok=data["t_encode"].where(ok), _solve_ok=data["t_solve"].where(ok),
        _guesses=_guesses(data["counters"]).where(ok),
        _partial=data["score"].where(data["max_score"].notna()),
        **{f"_{s}": data["status"] == s for s in FAILURES})
    g = work.groupby(keys, dropna=False, sort=False)
    table = pd.DataFrame({
        "solver": g["solver"].first(),
        "runs": g.size(),
        "solved": g["_ok"].sum(),
        "optimal": g["_optimal"].sum(),
        **{s: g[f"_{s}"].sum() for s in FAILURES},
        "t_median": g["_t_ok"].median(),
        "t_max": g["_t_ok"].max(),
        "par2": _par2(g),
        "per_second": g["_ok"].sum() / g["_t_ok"].sum().where(g["_t_ok"].sum() > 0),
        "encode_mean": g["_enc_ok"].mean(),
        "solve_mean": g["_solve_ok"].mean(),
        "nodes_median": g["work_nodes"].median(),
        "guesses_mean": g["_guesses"].mean(),
        "conflicts_median": g["work_conflicts"].median(),
        "score_median": g["_partial"].median(),
        "max_score": g["max_score"].max(),
    })
    for col in ("runs", "solved", "optimal", *FAILURES):
        table[col] = table[col].astype("Int64")
    low, high = confidence.wilson_interval(table["solved"].to_numpy(float),
                                           table["runs"].to_numpy(float))
    table["solved_low"] = pd.array(low, dtype="Float64")
    table["solved_high"] = pd.array(high, dtype="Float64")
    table = table.join(_bootstrap_intervals(data, keys, g.indices))
    table = _no_negative_zero(table.reset_index())
    return _order(table, ["ladder", "family", "rung_index", "config"])[SUMMARY_COLUMNS]


def _bootstrap_intervals(data: pd.DataFrame, keys: list[str],
                         groups: dict[Any, np.ndarray]) -> pd.DataFrame:
    """Per group of ``keys`` (``groups``: each group's key and row positions, a grouping's
    ``indices``): the bootstrap intervals of the median wall time of the successes and of
    PAR-2 (NA where PAR-2 is, a term being NA), each seeded by the group's key."""
    t_wall = data["t_wall"].to_numpy(dtype=float, na_value=np.nan)
    ok = data["_ok"].to_numpy(dtype=bool)
    terms = _penalised(data).to_numpy(dtype=float, na_value=np.nan)
    rows = {}
    for key, idx in groups.items():
        times = t_wall[idx][ok[idx]]
        times = times[~np.isnan(times)]
        t_low, t_high = confidence.bootstrap_interval(
            times, "median", confidence.seed_of("t_median", *key))
        mine = terms[idx]
        p_low, p_high = ((np.nan, np.nan) if np.isnan(mine).any() else
                         confidence.bootstrap_interval(mine, "mean",
                                                       confidence.seed_of("par2", *key)))
        rows[key] = (t_low, t_high, p_low, p_high)
    names = ["t_median_low", "t_median_high", "par2_low", "par2_high"]
    index = pd.MultiIndex.from_tuples(list(rows), names=keys)
    frame = pd.DataFrame(list(rows.values()), index=index, columns=names)
    return frame.astype("Float64")


def _no_negative_zero(table: pd.DataFrame) -> pd.DataFrame:
    """Turn every float ``-0.0`` into ``0.0`` (adding ``0.0`` does it), so no format prints -0."""
    floats = [c for c in table.columns if pd.api.types.is_float_dtype(table[c])]
    return table.assign(**{c: table[c] + 0.0 for c in floats})


#: The ``guesses`` counter in a ``counters`` text (bench/execute/counters.py writes it so).
GUESSES = r'"guesses":\s*(-?[0-9][0-9.eE+-]*)'


def _guesses(counters: pd.Series) -> pd.Series:
    """The ``guesses`` counter of each run (Sudoku's difficulty measure, tdoku's), NA where
    absent: read out of the JSON text by a pattern, once per distinct text (a block's runs
    repeat a few texts many times), then spread back to the rows."""
    codes, texts = pd.factorize(counters.astype("string"))  # NA: code -1
    found = pd.Series(texts, dtype="string").str.extract(GUESSES, expand=False)
    values = pd.to_numeric(found, errors="coerce").astype("Float64").array
    return pd.Series(values.take(codes, allow_fill=True), index=counters.index)


# --------------------------------------------------------------------------------------------
# Cliffs


def _cliff_of(rungs: pd.DataFrame) -> dict[str, Any]:
    """The cliff of one config on one ladder, given its summary rows sorted by rung_index.

    The cliff is the first rung solved on less than half of its runs; the last solved rung is
    the highest rung solved on all of its runs (a config may solve a rung above its cliff when
    seeds vary, and both facts are worth seeing).
    """
    falls = rungs[2 * rungs["solved"] < rungs["runs"]]
    full = rungs[(rungs["solved"] == rungs["runs"]) & (rungs["runs"] > 0)]
    first = falls.iloc[0] if len(falls) else None
    last = full.iloc[-1] if len(full) else None
    return {
        "rungs": len(rungs),
        "cliff_rung": first["rung"] if first is not None else pd.NA,
        "cliff_rung_index": first["rung_index"] if first is not None else pd.NA,
        "last_solved_rung": last["rung"] if last is not None else pd.NA,
        "last_solved_rung_index": last["rung_index"] if last is not None else pd.NA,
    }


def _cliffs_from_summary(summary: pd.DataFrame) -> pd.DataFrame:
    """Cliffs from an already computed summary (avoids summarising twice in a report)."""
    ladders = summary[summary["ladder"] != PSEUDO_LADDER] if len(summary) else summary
    if ladders.empty:
        return _empty(CLIFF_COLUMNS)
    rows = []
    axes = _rung_axes(ladders)
    for (family, ladder, config), rungs in ladders.groupby(["family", "ladder", "config"],
                                                            sort=False):
        ordered = rungs.sort_values("rung_index", kind="stable", na_position="last")
        rows.append({"family": family, "ladder": ladder, "config": config,
                     "solver": ordered["solver"].iloc[0], **_cliff_of(ordered),
                     **_fitted_cliff(family, ladder, config, ordered, axes[(family, ladder)])})
    table = pd.DataFrame(rows)
    for col in ("rungs", "cliff_rung_index", "last_solved_rung_index"):
        table[col] = table[col].astype("Int64")
    for col in ("cliff_rung", "last_solved_rung"):
        table[col] = table[col].astype("string")
    for col in confidence.FIT_COLUMNS:
        table[col] = table[col].astype("Float64" if col in confidence.FIT_NUMBERS else "string")
    return _order(table, ["ladder", "family", "config"])[CLIFF_COLUMNS]


#: A ladder's fitting axis: its name, each rung_index's position on it, whether values fall.
_Axis = tuple[str, dict[Any, float], bool]


def _rung_axes(ladders: pd.DataFrame) -> dict[tuple[str, str], _Axis]:
    """Per (family, ladder): the axis its rungs are fitted on, each rung_index's position
    there and whether those fall as the ladder climbs
    (:func:`bench.stats.confidence.rung_axis`, over every rung of the ladder)."""
    axes = {}
    rungs = ladders[ladders["rung_index"].notna()].drop_duplicates(
        ["family", "ladder", "rung_index"])
    for (family, ladder), own in rungs.groupby(["family", "ladder"], sort=False):
        axis = confidence.rung_axis([str(r) for r in own["rung"]],
                                    own["rung_index"].to_numpy(dtype=float))
        axes[(family, ladder)] = (axis.name, dict(zip(own["rung_index"], axis.positions,
                                                       strict=True)), axis.falling)
    return axes


def _fitted_cliff(family: str, ladder: str, config: str, rungs: pd.DataFrame,
                  axis: _Axis) -> dict[str, Any]:
    """The fitted cliff columns of one config (:data:`bench.stats.confidence.FIT_COLUMNS`);
    all NA with fewer than two rungs run."""
    name, position, falling = axis
    rungs = rungs[rungs["rung_index"].notna() & (rungs["runs"].fillna(0) > 0)]
    if len(rungs) < 2:
        return dict.fromkeys(confidence.FIT_COLUMNS, pd.NA)
    fit = confidence.fit_cliff(rungs["rung_index"].map(position).to_numpy(dtype=float),
                               rungs["solved"].to_numpy(dtype=float),
                               rungs["runs"].to_numpy(dtype=float), name,
                               confidence.seed_of("cliff", family, ladder, config),
                               falling=falling)
    return fit.columns()


def cliffs(df: pd.DataFrame) -> pd.DataFrame:
    """Per (family, ladder, config): where it first falls below half solved, and its last full rung.

    Skipped runs count as runs not solved, so a ladder that stopped climbing shows its cliff at
    the rung where the config stopped being able to answer. ``cliff_rung`` is NA for a config
    that never falls; ``last_solved_rung`` is NA for one that never solves a whole rung.
    """
    return _cliffs_from_summary(summarize(df))


def paired(df: pd.DataFrame) -> pd.DataFrame:
    """Pairwise comparisons of the configs of each (family, ladder) on the runs they share
    (:func:`bench.views.paired.compare`: per rung and over the ladder, Holm-adjusted)."""
    return paired_view.compare(normalize(df))


# --------------------------------------------------------------------------------------------
# Virtual best solver


def virtual_best(df: pd.DataFrame) -> pd.DataFrame:
    """Per (family, ladder, rung): solved count and PAR-2 of the virtual best solver.

    Per instance, the virtual best takes the fastest success among all configs (and repeats);
    an instance nobody answered costs twice its budget (the largest budget it was run with).
    It is optimal on an instance when any config proved optimality there. ``instances`` counts
    distinct instance ids; rows without an id are ignored.
    """
    return _virtual_best(normalize(df))


#: The columns of the virtual best per instance (:func:`_vbs_instances`).
_VBS_INSTANCE_COLUMNS = [*_RUNG_KEYS, "instance_id", "best", "ok", "optimal", "budget", "term"]


def _vbs_instances(data: pd.DataFrame) -> pd.DataFrame:
    """The virtual best per instance: ``ok`` (anyone succeeded), ``optimal``, PAR-2 ``term``.

    One row per (family, ladder, rung, rung_index, instance_id) of a normalised frame, in the
    order the frame first has them; rows without an instance id are left out. Where every
    instance id is run once (a throughput block's runs), each row is its own instance's best
    and is taken as it is, with no grouping.
    """
    data = _rows_where(data, data["instance_id"].notna())
    if data.empty:
        return pd.DataFrame(columns=_VBS_INSTANCE_COLUMNS)
    keys = [*_RUNG_KEYS, "instance_id"]
    t_ok = data["t_wall"].where(data["_ok"])
    if data["instance_id"].is_unique:
        per_instance = pd.DataFrame({**{k: data[k] for k in keys}, "best": t_ok,
                                     "ok": data["_ok"], "optimal": data["_optimal"],
                                     "budget": data["budget_s"]}).reset_index(drop=True)
    else:
        per_instance = data.assign(_t_ok=t_ok).groupby(keys, dropna=False, sort=False).agg(
            best=("_t_ok", "min"), ok=("_ok", "any"), optimal=("_optimal", "any"),
            budget=("budget_s", "max")).reset_index()
    per_instance["term"] = per_instance["best"].where(per_instance["ok"],
                                                      2.0 * per_instance["budget"])
    return per_instance


def _virtual_best(data: pd.DataFrame) -> pd.DataFrame:
    """:func:`virtual_best` on a normalised frame."""
    return _vbs_table(_vbs_instances(data))


def _vbs_table(per_instance: pd.DataFrame) -> pd.DataFrame:
    """:func:`virtual_best` from the virtual best per instance (:func:`_vbs_instances`)."""
    if per_instance.empty:
        return _empty(VBS_COLUMNS)
    g = _with_terms(per_instance, per_instance["term"]).groupby(_RUNG_KEYS, dropna=False,
                                                                 sort=False)
    table = pd.DataFrame({
        "instances": g.size().astype("Int64"),
        "solved": g["ok"].sum().astype("Int64"),
        "optimal": g["optimal"].sum().astype("Int64"),
        "par2": _par2(g),
    }).reset_index()
    return _order(table, ["ladder", "family", "rung_index"])[VBS_COLUMNS]


# --------------------------------------------------------------------------------------------
# The ladder overview (what the terminal summary and the HTML page show first)

#: The config label of the virtual best solver's rows in the overview.
VIRTUAL_BEST = "virtual best"
OVERVIEW_CELL_COLUMNS: list[str] = [*_RUNG_KEYS, "config", "runs", "solved", "optimal",
                                    "failed", "skipped", "wrong"]
OVERVIEW_TOTAL_COLUMNS: list[str] = ["family", "ladder", "config", "runs", "par2", "cliff_rung",
                                     "score_fraction"]


@dataclass
class Overview:
    """Per (family, ladder): a config x rung grid of counts, and one line of totals per config.

    ``cells`` (:data:`OVERVIEW_CELL_COLUMNS`): per (family, ladder, rung, config) the runs,
    ``solved`` (successes), ``optimal`` (of those, proven optimal), ``failed`` (the rest,
    ``skipped`` included), ``skipped`` and ``wrong``. ``totals``
    (:data:`OVERVIEW_TOTAL_COLUMNS`): per (family, ladder, config) its runs, PAR-2 over the
    whole ladder, cliff rung (NA when it never falls, and on pseudo-ladders) and
    ``score_fraction``, the mean of ``score / max_score`` over its runs that returned a scored
    board (NA where the family has no partial scores). Both hold the virtual best as config
    :data:`VIRTUAL_BEST`, last in its ladder, counting instances rather than runs.
    """

    cells: pd.DataFrame
    totals: pd.DataFrame


def overview(df: pd.DataFrame, summary: pd.DataFrame | None = None, *,
             normalized: bool = False, report: Report | None = None) -> Overview:
    """The :class:`Overview` of a results frame (``summary``: its :func:`summarize`, when the
    caller has it already; ``normalized``: ``df`` is :func:`normalize`'s output already;
    ``report``: its :func:`build_report`, whose summary, cliffs and virtual best per instance
    are then used rather than computed again)."""
    data = df if normalized else normalize(df)
    if report is not None:
        return _overview(data, report.summary, report.cliffs, report.vbs_instances)
    summary = _summarize(data) if summary is None else summary
    return _overview(data, summary, _cliffs_from_summary(summary), _vbs_instances(data))


def _overview(data: pd.DataFrame, summary: pd.DataFrame, cliffs: pd.DataFrame,
              vbs: pd.DataFrame) -> Overview:
    """:func:`overview` on a normalised frame, its summary, its cliffs and its virtual best
    per instance (:func:`_vbs_instances`)."""
    if summary.empty:
        return Overview(_empty(OVERVIEW_CELL_COLUMNS), _empty(OVERVIEW_TOTAL_COLUMNS))
    vbs_cells = _vbs_cells(vbs)
    cells = pd.concat([_config_cells(summary), vbs_cells], ignore_index=True)
    totals = pd.concat([_config_totals(data, cliffs), _vbs_totals(vbs, vbs_cells)],
                       ignore_index=True)
    return Overview(_vbs_last(cells, ["rung_index"])[OVERVIEW_CELL_COLUMNS],
                    _vbs_last(totals, [])[OVERVIEW_TOTAL_COLUMNS])


def _vbs_last(table: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Order by ladder, family, ``keys``, then configs by name with the virtual best last."""
    flagged = table.assign(_v=table["config"] == VIRTUAL_BEST)
    return _order(flagged, ["ladder", "family", *keys, "_v", "config"]).drop(columns="_v")


def _config_cells(summary: pd.DataFrame) -> pd.DataFrame:
    """The grid's counts of every real config, from the summary."""
    cells = summary[[*_RUNG_KEYS, "config", "runs", "solved", "optimal", "skipped", "wrong"]]
    return cells.assign(failed=(cells["runs"] - cells["solved"]).astype("Int64"))


def _vbs_cells(vbs: pd.DataFrame) -> pd.DataFrame:
    """The grid's counts of the virtual best: per rung, instances anyone solved (or proved)."""
    if vbs.empty:
        return _empty(OVERVIEW_CELL_COLUMNS)
    g = vbs.groupby(_RUNG_KEYS, dropna=False, sort=False)
    cells = pd.DataFrame({"runs": g.size(), "solved": g["ok"].sum(),
                          "optimal": g["optimal"].sum()}).reset_index()
    cells = cells.assign(config=VIRTUAL_BEST, failed=cells["runs"] - cells["solved"],
                         skipped=0, wrong=0)
    for col in ("runs", "solved", "optimal", "failed", "skipped", "wrong"):
        cells[col] = cells[col].astype("Int64")
    return cells


def _config_totals(data: pd.DataFrame, cliffs: pd.DataFrame) -> pd.DataFrame:
    """Per (family, ladder, config): runs, PAR-2 over the ladder, cliff (from ``cliffs``, the
    cliffs table), mean score fraction."""
    keys = ["family", "ladder", "config"]
    fraction = (data["score"] / data["max_score"]).where(data["max_score"] > 0)
    g = _with_terms(data, _penalised(data)).assign(_fraction=fraction).groupby(
        keys, dropna=False, sort=False)
    totals = pd.DataFrame({"runs": g.size().astype("Int64"), "par2": _par2(g),
                           "score_fraction": g["_fraction"].mean()}).reset_index()
    cliff = cliffs[[*keys, "cliff_rung"]]
    return _no_negative_zero(totals.merge(cliff, on=keys, how="left"))


def _vbs_totals(vbs: pd.DataFrame, vbs_cells: pd.DataFrame) -> pd.DataFrame:
    """Per (family, ladder): the virtual best's instances, PAR-2 and cliff (no score)."""
    if vbs.empty:
        return _empty(OVERVIEW_TOTAL_COLUMNS)
    keys = ["family", "ladder"]
    g = _with_terms(vbs, vbs["term"]).groupby(keys, dropna=False, sort=False)
    totals = pd.DataFrame({"runs": g.size().astype("Int64"), "par2": _par2(g)}).reset_index()
    cliff_of = {key: _cliff_of(rungs.sort_values("rung_index", kind="stable"))["cliff_rung"]
                for key, rungs in vbs_cells.groupby(keys, sort=False)}
    real = totals["ladder"] != PSEUDO_LADDER
    cliff = [cliff_of[(f, lad)] if r else pd.NA
             for f, lad, r in zip(totals["family"], totals["ladder"], real, strict=True)]
    return totals.assign(config=VIRTUAL_BEST, cliff_rung=pd.Series(cliff, dtype="string"),
                         score_fraction=pd.Series(pd.NA, index=totals.index, dtype="Float64"))


# --------------------------------------------------------------------------------------------
# Disagreements and wrong answers


def _claims(data: pd.DataFrame) -> pd.Series:
    """What each run claimed: ``claimed`` when recorded, else a claim-like status."""
    claim_like = data["status"].where(data["status"].isin(["solved", "optimal", "infeasible",
                                                           "unknown"]))
    return data["claimed"].fillna(claim_like)


def counters_of(text: Any) -> dict[str, Any] | None:
    """The ``counters`` column's JSON object as a dict; None when absent or unreadable."""
    if not isinstance(text, str) or not text:
        return None
    try:
        counters = json.loads(text)
    except ValueError:
        return None
    return counters if isinstance(counters, dict) else None


def _solutions_bucket(text: Any) -> str | None:
    """The uniqueness answer in a ``counters`` JSON: "0", "1" or "2+"; None when absent."""
    counters = counters_of(text)
    return None if counters is None else solutions_bucket(counters.get("solutions"))


_INSTANCE = ["family", "instance_id"]
#: Disagreement kinds, in the order they are listed for one instance.
KINDS = ("infeasible-vs-solution", "optimal-objective", "solution-count")


def _statements(data: pd.DataFrame) -> dict[str, pd.Series]:
    """Per kind, what each run asserts about its instance (NA when it asserts nothing).

    ``infeasible-vs-solution``: "infeasible" for an infeasible claim, "verified solution" for a
    checked solution with status solved or optimal. ``optimal-objective``: the objective of an
    optimal claim. ``solution-count``: the uniqueness bucket ("0", "1", "2+") of a finished run.
    """
    claims = _claims(data)
    infeasible = ((claims == "infeasible") | (data["status"] == "infeasible")).fillna(False)
    solution = (data["status"].isin(["solved", "optimal"]) & data["verified"].fillna(False))
    says = pd.Series(None, index=data.index, dtype=object)
    says[infeasible.to_numpy(dtype=bool)] = "infeasible"
    says[solution.to_numpy(dtype=bool)] = "verified solution"
    optimal = ((claims == "optimal") & data["objective"].notna()).fillna(False)
    objective = data["objective"].round(9).astype(object).where(optimal.to_numpy(dtype=bool))
    return {KINDS[0]: says, KINDS[1]: objective, KINDS[2]: _buckets(data).where(data["_ok"])}


def _buckets(data: pd.DataFrame) -> pd.Series:
    """Each run's ``solutions`` bucket: its column, else (a table written before the column
    was) read from its counters."""
    buckets = data["solutions"].astype(object) if "solutions" in data \
        else pd.Series(None, index=data.index, dtype=object)
    missing = buckets.isna() & data["counters"].astype("string").str.contains(
        '"solutions"', regex=False).fillna(False).astype(bool)
    if missing.any():
        buckets[missing] = data.loc[missing, "counters"].astype(object).map(_solutions_bucket)
    return buckets.where(buckets.notna(), None)


def _contradicted(data: pd.DataFrame, says: pd.Series) -> pd.Series:
    """Per instance: True when its runs' statements of this kind contradict each other."""
    return data.assign(_says=says).groupby(_INSTANCE, sort=False)["_says"].nunique() > 1


def _kind_table(data: pd.DataFrame, kind: str, says: pd.Series) -> pd.DataFrame:
    """The disagreements of one kind: per contradicted instance, who said what.

    ``detail`` reads ``value (configA, configB); value2 (configC)``, values in increasing order;
    ``configs`` lists every config that made a statement. Vectorised over instances, because a
    broken solver can make every instance of a big sweep disagree.
    """
    hit = _contradicted(data, says)
    keys = pd.MultiIndex.from_frame(data[_INSTANCE])
    mask = keys.isin(hit[hit].index) & says.notna().to_numpy()
    pairs = (data.assign(_says=says)[mask][[*_INSTANCE, "_says", "config"]]
             .drop_duplicates().sort_values([*_INSTANCE, "_says", "config"]))
    if pairs.empty:
        return _empty([*_INSTANCE, "kind", "configs", "detail"])
    by_value = pairs.groupby([*_INSTANCE, "_says"], sort=True)["config"].agg(", ".join)
    values = by_value.index.get_level_values("_says").map(fmt_param)
    text = pd.Series([f"{v} ({c})" for v, c in zip(values, by_value, strict=True)],
                     index=by_value.index)
    prefix = {KINDS[1]: "objective ", KINDS[2]: "solutions "}.get(kind, "")
    detail = prefix + text.groupby(level=[0, 1], sort=True).agg("; ".join)
    configs = pairs.groupby(_INSTANCE, sort=True)["config"].agg(
        lambda c: ", ".join(sorted(set(c))))
    return pd.DataFrame({"kind": kind, "configs": configs, "detail": detail}).reset_index()


def disagreements(df: pd.DataFrame) -> pd.DataFrame:
    """Instances on which configs (or repeats) contradict each other.

    Kinds (:data:`KINDS`): ``infeasible-vs-solution`` (an infeasible claim while another run
    returned a solution the checker accepted, with status solved/optimal),
    ``optimal-objective`` (runs claiming optimal report different objectives),
    ``solution-count`` (finished runs reporting a ``solutions`` counter disagree on 0 / 1 / 2+;
    only successes count, since a run cut short proves nothing about uniqueness). One row per
    (instance, kind), ordered by family, instance id and kind.
    """
    return _disagreements(normalize(df))


def _disagreements(data: pd.DataFrame) -> pd.DataFrame:
    """:func:`disagreements` on a normalised frame."""
    data = _rows_where(data, data["instance_id"].notna())
    if data.empty or not data.duplicated(_INSTANCE).any():  # one run an instance: no contest
        return _empty(DISAGREEMENT_COLUMNS)
    tables = [_kind_table(data, kind, says) for kind, says in _statements(data).items()]
    found = pd.concat([t for t in tables if not t.empty] or [tables[0]], ignore_index=True)
    if found.empty:
        return _empty(DISAGREEMENT_COLUMNS)
    where = data.groupby(_INSTANCE, sort=False)[["ladder", "rung", "instance_name"]].first()
    found = found.merge(where.reset_index(), on=_INSTANCE, how="left")
    found["_k"] = found["kind"].map(KINDS.index)
    found = found.sort_values([*_INSTANCE, "_k"], kind="stable").reset_index(drop=True)
    return found[DISAGREEMENT_COLUMNS]


def wrong_answers(df: pd.DataFrame) -> pd.DataFrame:
    """Every run with status ``wrong``, with what it claimed and why it was rejected."""
    return _wrong_answers(normalize(df))


def _wrong_answers(data: pd.DataFrame) -> pd.DataFrame:
    """:func:`wrong_answers` on a normalised frame."""
    wrong = _rows_where(data, data["status"].eq("wrong"))
    if wrong.empty:
        return _empty(WRONG_COLUMNS)
    ordered = _order(wrong[WRONG_COLUMNS + ["rung_index"]],
                     ["ladder", "family", "rung_index", "instance_id", "config", "seed", "repeat"])
    return ordered[WRONG_COLUMNS]


# --------------------------------------------------------------------------------------------
# The report


@dataclass
class Report:
    """All tables of a sweep's report; :func:`bench.views.report.render` turns it into text."""

    sweep: str = ""
    summary: pd.DataFrame = field(default_factory=lambda: _empty(SUMMARY_COLUMNS))
    cliffs: pd.DataFrame = field(default_factory=lambda: _empty(CLIFF_COLUMNS))
    virtual_best: pd.DataFrame = field(default_factory=lambda: _empty(VBS_COLUMNS))
    disagreements: pd.DataFrame = field(default_factory=lambda: _empty(DISAGREEMENT_COLUMNS))
    wrong: pd.DataFrame = field(default_factory=lambda: _empty(WRONG_COLUMNS))
    paired: pd.DataFrame = field(default_factory=lambda: _empty(paired_view.PAIRED_COLUMNS))
    #: The claims table (:func:`bench.views.claims.evaluate`) when the sweep's suite has a
    #: claims file (or one was given); None otherwise.
    claims: pd.DataFrame | None = None
    tails: pd.DataFrame = field(default_factory=lambda: _empty(tails_view.TAIL_COLUMNS))
    witnesses: pd.DataFrame = field(
        default_factory=lambda: _empty(witnesses_view.WITNESS_COLUMNS))
    #: The virtual best per instance (:func:`_vbs_instances`), which :func:`overview` takes
    #: from a report rather than computing it again; not a table of the report's text.
    vbs_instances: pd.DataFrame = field(
        default_factory=lambda: pd.DataFrame(columns=_VBS_INSTANCE_COLUMNS), repr=False)


def build_report(df: pd.DataFrame, sweep: str = "", *, normalized: bool = False) -> Report:
    """Compute every table of the report from the results frame (``normalized``: ``df`` is
    already :func:`normalize`'s output, so it is not normalised again)."""
    data = df if normalized else normalize(df)
    summary = _summarize(data)
    per_instance = _vbs_instances(data)
    return Report(sweep=sweep, summary=summary, cliffs=_cliffs_from_summary(summary),
                  virtual_best=_vbs_table(per_instance), disagreements=_disagreements(data),
                  wrong=_wrong_answers(data), paired=paired_view.compare(data),
                  tails=tails_view.tail_table(data),
                  witnesses=witnesses_view.single_witnesses(data),
                  vbs_instances=per_instance)
