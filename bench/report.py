"""Reports computed from the results table alone (DESIGN.md, "Reports and figures").

Everything here takes a results DataFrame (rows as in :mod:`bench.schema`, plus open-ended ``p_*``
/ ``s_*`` parameter columns) and nothing else: no journal, no manifest, no solver registry. A
report can therefore be rebuilt from any ``runs.parquet`` on any machine, and a missing optional
column (say ``work_conflicts``) only leaves its statistic NA.

Public functions:

- :func:`config_labels` -- the row key of a solver: its name, or ``name[k=v,...]`` built from the
  ``s_*`` parameters that differ between rows of that solver (so a parameter sweep of one solver
  shows as several configs, and a solver run with one parameter set keeps its plain name).
- :func:`summarize` -- one row per (ladder, rung, config): counts per status (``solved``
  counts every success, ``optimal`` those of them proven optimal), time statistics over
  successes, PAR-2, throughput (successes per second of solving, the shoot-out figure), the
  encode/solve split, median work counters, mean guesses, and the median score where the
  family has partial scores (``max_score`` known: edge matching's matched joins; a tile path's
  length or a game's value is an objective, not a partial score, and leaves it NA).
- :func:`cliffs` -- per (ladder, config): the first rung solved on less than half of its runs,
  and the last rung solved on all of them.
- :func:`virtual_best` -- per (ladder, rung): what the per-instance fastest config achieves.
- :func:`disagreements` -- instances on which configs contradict each other.
- :func:`wrong_answers` -- the rows the checker (or a known fact) rejected, with their verdict.
- :func:`normalize` -- the frame every table (and ``bench.figures``) computes from: columns
  typed, pseudo-ladders named, configs labelled.
- :func:`build_report` gathers all of these into a :class:`Report`; :func:`render` prints it as
  ``markdown`` (every table in full; per family when there are several, each table with only
  the columns that family fills), ``csv`` or ``json``.
- :func:`overview` -- per (family, ladder) a config x rung grid of solved / optimal / failed
  counts and per config its PAR-2 over the ladder, cliff and mean score fraction, with the
  virtual best as one more config; what :func:`terminal_summary` (printed at the end of a
  sweep, no line over :data:`TERMINAL_WIDTH`) and the HTML page (``bench.html``) show first.
- :func:`summary_spec` and :func:`with_score_cell` -- which summary columns a table of some of
  its rows should show, and how to format them (the Markdown report's and the HTML page's).

Conventions:

- Success means a status in :data:`bench.schema.SUCCESS` (solved, optimal, infeasible). Every
  other status, ``skipped`` included, is a failure: a skipped run is a run the solver did not get
  to answer, and leaving it out would flatter a solver whose ladder stopped climbing. A run
  with a missing or unknown status is a failure too (it counts in ``runs``, in no status column).
- PAR-2 is the mean over runs of ``t_wall`` for a success and ``2 * budget_s`` for any failure.
  A run whose term is NA (a success without ``t_wall``, a failure without ``budget_s``) makes the
  PAR-2 of its group NA rather than silently dropping the run.
- Rows outside ladders (``ladder`` empty or NA) are grouped under their instance's family as one
  pseudo-ladder named :data:`PSEUDO_LADDER` with rung ``""`` and ``rung_index`` NA. Every table
  carries a ``family`` column, so the pseudo-ladders of different families stay apart.
  Pseudo-ladders have no cliff (one rung cannot fall off anything) and are left out of
  :func:`cliffs`.

CSV layout (``render(report, "csv")``): one header line, then one line per row of the summary
table, comma separated, NA as an empty field, no index. Columns, in this order:

    sweep, family, ladder, rung, rung_index, config, solver,
    runs, solved, optimal, unknown, timeout, memout, crash, error, wrong, skipped,
    t_median, t_max, par2, per_second, encode_mean, solve_mean, nodes_median, guesses_mean,
    conflicts_median, score_median, max_score,
    cliff_rung, cliff_rung_index, last_solved_rung, last_solved_rung_index, at_cliff

The four ``cliff_*`` / ``last_solved_*`` columns repeat, on every row of a (family, ladder,
config), that config's entry of :func:`cliffs` (empty when it never falls, and on pseudo-ladder
rows). ``at_cliff`` is ``True`` on exactly the row whose rung is the config's cliff, ``False``
elsewhere, so ``df[df.at_cliff]`` is the cliff table. ``pandas.read_csv`` reads it back as is
(pass ``dtype={"rung": str, "cliff_rung": str, "last_solved_rung": str}`` to keep labels as text).
"""

from __future__ import annotations

import json
import math
import textwrap
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from bench.classify import solutions_bucket
from bench.schema import COLUMNS, PARAM_PREFIX_SOLVER, STATUSES, SUCCESS

#: The ladder name given to runs outside any ladder (one pseudo-ladder per family).
PSEUDO_LADDER = "(instances)"
#: Failure statuses, in schema order: each gets a count column in the summary.
FAILURES: tuple[str, ...] = tuple(s for s in STATUSES if s not in SUCCESS)
#: Output formats of :func:`render`.
FORMATS = ("markdown", "csv", "json")
#: At most this many disagreements / wrong answers are listed in markdown (all in json).
MARKDOWN_ROWS = 50

_RUNG_KEYS = ["family", "ladder", "rung", "rung_index"]
SUMMARY_COLUMNS: list[str] = [
    *_RUNG_KEYS, "config", "solver", "runs", "solved", "optimal", *FAILURES,
    "t_median", "t_max", "par2", "per_second", "encode_mean", "solve_mean", "nodes_median",
    "guesses_mean", "conflicts_median", "score_median", "max_score",
]
CLIFF_COLUMNS: list[str] = [
    "family", "ladder", "config", "solver", "rungs",
    "cliff_rung", "cliff_rung_index", "last_solved_rung", "last_solved_rung_index",
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


def _fmt_param(value: Any) -> str:
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
    keeps its plain name and labels are stable whatever order the runs finished in.
    """
    if "solver" not in df.columns or df.empty:
        return pd.Series("", index=df.index, dtype="string")
    frame = df.reset_index(drop=True)  # positions, so a duplicated index cannot mislabel
    labels = pd.Series("", index=frame.index, dtype="string")
    solvers = frame["solver"].astype("string").fillna("")
    params = sorted(c for c in frame.columns if str(c).startswith(PARAM_PREFIX_SOLVER))
    if "cores" in frame.columns:  # runs at different core counts are different configs
        frame = frame.assign(**{f"{PARAM_PREFIX_SOLVER}cores": frame["cores"]})
        params.append(f"{PARAM_PREFIX_SOLVER}cores")
    families = (frame["family"].astype("string").fillna("") if "family" in frame.columns
                else pd.Series("", index=frame.index, dtype="string"))
    for (_, name), rows in frame.groupby([families, solvers], sort=False):
        varying = _varying_params(rows, params)
        label = pd.Series(name, index=rows.index, dtype="string")
        if varying:
            pairs = [c[len(PARAM_PREFIX_SOLVER):] + "=" + rows[c].astype(object).map(_fmt_param)
                     for c in varying]
            label = label + "[" + pairs[0].str.cat(pairs[1:], sep=",") + "]"
        labels[rows.index] = label
    return labels.set_axis(df.index)


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


def _penalised(df: pd.DataFrame) -> pd.Series:
    """Each run's PAR-2 term: its wall time if it succeeded, twice its budget otherwise."""
    return df["t_wall"].where(df["_ok"], 2.0 * df["budget_s"])


def _par2(terms: pd.Series, groups: list[str], frame: pd.DataFrame) -> pd.Series:
    """Mean of the PAR-2 terms per group, NA when any term of the group is NA."""
    g = frame.assign(_term=terms, _missing=terms.isna()).groupby(groups, dropna=False, sort=False)
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
    work = data.assign(_t_ok=t_ok, _enc_ok=data["t_encode"].where(ok),
                       _solve_ok=data["t_solve"].where(ok),
                       _guesses=data["counters"].map(_guesses).astype("Float64").where(ok),
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
        "par2": _par2(_penalised(data), keys, data),
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
    table = _no_negative_zero(table.reset_index())
    return _order(table, ["ladder", "family", "rung_index", "config"])[SUMMARY_COLUMNS]


def _no_negative_zero(table: pd.DataFrame) -> pd.DataFrame:
    """Turn every float ``-0.0`` into ``0.0`` (adding ``0.0`` does it), so no format prints -0."""
    floats = [c for c in table.columns if pd.api.types.is_float_dtype(table[c])]
    return table.assign(**{c: table[c] + 0.0 for c in floats})


def _guesses(counters: Any) -> float | None:
    """The ``guesses`` counter of a run (Sudoku's difficulty measure, tdoku's), None if absent."""
    if not isinstance(counters, str) or '"guesses"' not in counters:
        return None
    value = json.loads(counters).get("guesses")
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) \
        else None


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
    for (family, ladder, config), rungs in ladders.groupby(["family", "ladder", "config"],
                                                            sort=False):
        ordered = rungs.sort_values("rung_index", kind="stable", na_position="last")
        rows.append({"family": family, "ladder": ladder, "config": config,
                     "solver": ordered["solver"].iloc[0], **_cliff_of(ordered)})
    table = pd.DataFrame(rows)
    for col in ("rungs", "cliff_rung_index", "last_solved_rung_index"):
        table[col] = table[col].astype("Int64")
    for col in ("cliff_rung", "last_solved_rung"):
        table[col] = table[col].astype("string")
    return _order(table, ["ladder", "family", "config"])[CLIFF_COLUMNS]


def cliffs(df: pd.DataFrame) -> pd.DataFrame:
    """Per (family, ladder, config): where it first falls below half solved, and its last full rung.

    Skipped runs count as runs not solved, so a ladder that stopped climbing shows its cliff at
    the rung where the config stopped being able to answer. ``cliff_rung`` is NA for a config
    that never falls; ``last_solved_rung`` is NA for one that never solves a whole rung.
    """
    return _cliffs_from_summary(summarize(df))


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


def _vbs_instances(data: pd.DataFrame) -> pd.DataFrame:
    """The virtual best per instance: ``ok`` (anyone succeeded), ``optimal``, PAR-2 ``term``.

    One row per (family, ladder, rung, rung_index, instance_id) of a normalised frame; rows
    without an instance id are left out.
    """
    data = data[data["instance_id"].notna()]
    if data.empty:
        return pd.DataFrame(columns=[*_RUNG_KEYS, "instance_id", "best", "ok", "optimal",
                                     "budget", "term"])
    per_instance = data.assign(_t_ok=data["t_wall"].where(data["_ok"])).groupby(
        [*_RUNG_KEYS, "instance_id"], dropna=False, sort=False).agg(
        best=("_t_ok", "min"), ok=("_ok", "any"), optimal=("_optimal", "any"),
        budget=("budget_s", "max"))
    per_instance["term"] = per_instance["best"].where(per_instance["ok"],
                                                      2.0 * per_instance["budget"])
    return per_instance.reset_index()


def _virtual_best(data: pd.DataFrame) -> pd.DataFrame:
    """:func:`virtual_best` on a normalised frame."""
    per_instance = _vbs_instances(data)
    if per_instance.empty:
        return _empty(VBS_COLUMNS)
    g = per_instance.groupby(_RUNG_KEYS, dropna=False, sort=False)
    table = pd.DataFrame({
        "instances": g.size().astype("Int64"),
        "solved": g["ok"].sum().astype("Int64"),
        "optimal": g["optimal"].sum().astype("Int64"),
        "par2": _par2(per_instance["term"], _RUNG_KEYS, per_instance),
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
             normalized: bool = False) -> Overview:
    """The :class:`Overview` of a results frame (``summary``: its :func:`summarize`, when the
    caller has it already; ``normalized``: ``df`` is :func:`normalize`'s output already)."""
    data = df if normalized else normalize(df)
    return _overview(data, _summarize(data) if summary is None else summary)


def _overview(data: pd.DataFrame, summary: pd.DataFrame) -> Overview:
    """:func:`overview` on a normalised frame and its summary."""
    if summary.empty:
        return Overview(_empty(OVERVIEW_CELL_COLUMNS), _empty(OVERVIEW_TOTAL_COLUMNS))
    vbs = _vbs_instances(data)
    vbs_cells = _vbs_cells(vbs)
    cells = pd.concat([_config_cells(summary), vbs_cells], ignore_index=True)
    totals = pd.concat([_config_totals(data, summary), _vbs_totals(vbs, vbs_cells)],
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


def _config_totals(data: pd.DataFrame, summary: pd.DataFrame) -> pd.DataFrame:
    """Per (family, ladder, config): runs, PAR-2 over the ladder, cliff, mean score fraction."""
    keys = ["family", "ladder", "config"]
    fraction = (data["score"] / data["max_score"]).where(data["max_score"] > 0)
    g = data.assign(_fraction=fraction).groupby(keys, dropna=False, sort=False)
    totals = pd.DataFrame({"runs": g.size().astype("Int64"),
                           "par2": _par2(_penalised(data), keys, data),
                           "score_fraction": g["_fraction"].mean()}).reset_index()
    cliff = _cliffs_from_summary(summary)[[*keys, "cliff_rung"]]
    return _no_negative_zero(totals.merge(cliff, on=keys, how="left"))


def _vbs_totals(vbs: pd.DataFrame, vbs_cells: pd.DataFrame) -> pd.DataFrame:
    """Per (family, ladder): the virtual best's instances, PAR-2 and cliff (no score)."""
    if vbs.empty:
        return _empty(OVERVIEW_TOTAL_COLUMNS)
    keys = ["family", "ladder"]
    g = vbs.groupby(keys, dropna=False, sort=False)
    totals = pd.DataFrame({"runs": g.size().astype("Int64"),
                           "par2": _par2(vbs["term"], keys, vbs)}).reset_index()
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


def _solutions_bucket(counters: Any) -> str | None:
    """The uniqueness answer in a ``counters`` JSON: "0", "1" or "2+"; None when absent."""
    if not isinstance(counters, str) or not counters:
        return None
    try:
        value = json.loads(counters)
    except ValueError:
        return None
    return solutions_bucket(value.get("solutions") if isinstance(value, dict) else None)


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
    counters = data["counters"].astype(object).where(data["_ok"])
    return {KINDS[0]: says, KINDS[1]: objective, KINDS[2]: counters.map(_solutions_bucket)}


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
    values = by_value.index.get_level_values("_says").map(_fmt_param)
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
    data = data[data["instance_id"].notna()]
    if data.empty:
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
    wrong = data[data["status"].eq("wrong").fillna(False).to_numpy(dtype=bool)]
    if wrong.empty:
        return _empty(WRONG_COLUMNS)
    ordered = _order(wrong[WRONG_COLUMNS + ["rung_index"]],
                     ["ladder", "family", "rung_index", "instance_id", "config", "seed", "repeat"])
    return ordered[WRONG_COLUMNS]


# --------------------------------------------------------------------------------------------
# The report


@dataclass
class Report:
    """All tables of a sweep's report; :func:`render` turns it into text."""

    sweep: str = ""
    summary: pd.DataFrame = field(default_factory=lambda: _empty(SUMMARY_COLUMNS))
    cliffs: pd.DataFrame = field(default_factory=lambda: _empty(CLIFF_COLUMNS))
    virtual_best: pd.DataFrame = field(default_factory=lambda: _empty(VBS_COLUMNS))
    disagreements: pd.DataFrame = field(default_factory=lambda: _empty(DISAGREEMENT_COLUMNS))
    wrong: pd.DataFrame = field(default_factory=lambda: _empty(WRONG_COLUMNS))


def build_report(df: pd.DataFrame, sweep: str = "", *, normalized: bool = False) -> Report:
    """Compute every table of the report from the results frame (``normalized``: ``df`` is
    already :func:`normalize`'s output, so it is not normalised again)."""
    data = df if normalized else normalize(df)
    summary = _summarize(data)
    return Report(sweep=sweep, summary=summary, cliffs=_cliffs_from_summary(summary),
                  virtual_best=_virtual_best(data), disagreements=_disagreements(data),
                  wrong=_wrong_answers(data))


def render(report: Report, fmt: str = "markdown") -> str:
    """The report as ``markdown``, ``csv`` or ``json`` text (layouts in the module docstring)."""
    if fmt == "markdown":
        return _markdown(report)
    if fmt == "csv":
        return _csv(report)
    if fmt == "json":
        return _json(report)
    raise ValueError(f"unknown report format {fmt!r}: choose one of {', '.join(FORMATS)}")


# --------------------------------------------------------------------------------------------
# JSON and CSV


def _plain(value: Any) -> Any:
    """A cell as a JSON value: NA and NaN become None, NumPy scalars become Python ones."""
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value + 0.0 if isinstance(value, float) else value  # -0.0 becomes 0.0


def _records(table: pd.DataFrame) -> list[dict[str, Any]]:
    """Rows as dicts with the table's columns as keys, in column order."""
    columns = list(table.columns)
    return [{c: _plain(v) for c, v in zip(columns, row, strict=True)}
            for row in table.itertuples(index=False, name=None)]


def _json(report: Report) -> str:
    """The JSON document: every table as a list of records, NaN written as null."""
    doc = {
        "sweep": report.sweep,
        "summary": _records(report.summary),
        "cliffs": _records(report.cliffs),
        "virtual_best": _records(report.virtual_best),
        "disagreements": _records(report.disagreements),
        "wrong": _records(report.wrong),
    }
    return json.dumps(doc, indent=2, allow_nan=False) + "\n"


def _csv(report: Report) -> str:
    """The summary joined with each config's cliff (see the module docstring for the layout)."""
    summary = report.summary
    cliff_cols = ["cliff_rung", "cliff_rung_index", "last_solved_rung", "last_solved_rung_index"]
    joined = summary.merge(report.cliffs[["family", "ladder", "config", *cliff_cols]],
                           on=["family", "ladder", "config"], how="left")
    at_cliff = (joined["rung_index"].astype("Float64") ==
                joined["cliff_rung_index"].astype("Float64")).fillna(False)
    joined["at_cliff"] = at_cliff.astype(bool)
    joined.insert(0, "sweep", report.sweep)
    return joined.to_csv(index=False, lineterminator="\n")


# --------------------------------------------------------------------------------------------
# Markdown


def _isna(value: Any) -> bool:
    """True for None, pd.NA and NaN; False for anything else, strings included."""
    return value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value))


def fmt_time(value: Any) -> str:
    """Seconds to 3 significant digits, without exponent for ordinary magnitudes; ``-`` if NA."""
    if _isna(value):
        return "-"
    x = float(f"{float(value):.3g}")
    if x == 0:
        return "0"
    magnitude = math.floor(math.log10(abs(x)))
    if magnitude < -3:
        return f"{x:.3g}"
    decimals = max(0, 2 - magnitude)
    return f"{x:.{decimals}f}"


def _fmt_count(value: Any) -> str:
    """A count or a median of counts: an integer below 10^7, 3 significant digits above."""
    if _isna(value):
        return "-"
    x = float(value)
    return str(round(x)) if abs(x) < 1e7 else f"{x:.3g}"  # an int: -0.4 reads 0, not -0


def _fmt_rate(value: Any) -> str:
    """A rate or a mean count: 3 significant digits, thousands written out; ``-`` if NA."""
    if _isna(value):
        return "-"
    x = float(f"{float(value):.3g}") + 0.0  # -0.0 reads 0
    return f"{x:,.0f}" if abs(x) >= 100 else f"{x:.3g}"


def _fmt_text(value: Any) -> str:
    """A label; NA shows as ``-`` and the pipe is escaped so it cannot break a table."""
    return "-" if _isna(value) else str(value).replace("|", "\\|")


def _fmt_cliff(value: Any) -> str:
    """A cliff rung; a config that never falls reads ``never`` rather than a blank."""
    return "never" if _isna(value) else _fmt_text(value)


def _md_table(headers: list[str], rows: list[list[str]], right: set[int]) -> str:
    """A pipe table whose columns are padded to equal width (readable as plain text too)."""
    widths = [max(len(h), 3, *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]

    def line(cells: list[str]) -> str:
        padded = [c.rjust(w) if i in right else c.ljust(w)
                  for i, (c, w) in enumerate(zip(cells, widths, strict=True))]
        return "| " + " | ".join(padded) + " |"

    rule = ["-" * (w - 1) + ":" if i in right else "-" * w for i, w in enumerate(widths)]
    return "\n".join([line(headers), line(rule), *(line(r) for r in rows)])


def _columns_view(table: pd.DataFrame, spec: list[tuple[str, str, Any, bool]]) -> str:
    """Render ``table`` with (header, column, formatter, right-aligned) specs, in order."""
    headers = [h for h, _, _, _ in spec]
    right = {i for i, (_, _, _, r) in enumerate(spec) if r}
    cells = [[fmt(v) for v in table[col].astype(object)] for _, col, fmt, _ in spec]
    rows = [list(r) for r in zip(*cells, strict=True)] if cells else []
    return _md_table(headers, rows, right)


def _capped(title: str, table: pd.DataFrame, spec: list[tuple[str, str, Any, bool]]) -> str:
    """A section listing at most :data:`MARKDOWN_ROWS` rows, saying how many were left out.

    A broken solver can be wrong on every instance of a sweep; the terminal summary should
    still fit on a screen, and the full list is in the json report.
    """
    text = f"## {title}\n\n" + _columns_view(table.head(MARKDOWN_ROWS), spec)
    if len(table) > MARKDOWN_ROWS:
        text += f"\n\n... and {len(table) - MARKDOWN_ROWS} more (the json report lists all)"
    return text


def _has_values(table: pd.DataFrame, column: str) -> bool:
    """True when the column holds at least one value worth a table column."""
    return bool(table[column].notna().any())


#: A column of a rendered table: (header, column of the frame, formatter, right-aligned).
ColumnSpec = tuple[str, str, Any, bool]


def summary_spec(summary: pd.DataFrame, text: Any = None) -> list[ColumnSpec]:
    """The columns worth showing of (a part of) the summary: keys, counts, then statistics.

    ``family`` appears only when the rows hold several; ``optimal`` and each failure status
    only when some row counts one; a statistic only when some row holds a value; the score
    (``score/max``, from :func:`with_score_cell`) only where the family has partial scores.
    So a table of one family carries no column that means nothing for it. ``text`` formats the
    label columns (default: Markdown's, NA as ``-`` and pipes escaped).
    """
    text = _fmt_text if text is None else text
    spec: list[ColumnSpec] = []
    if summary["family"].nunique() > 1:
        spec.append(("family", "family", text, False))
    spec += [("ladder", "ladder", text, False), ("rung", "rung", text, False),
             ("config", "config", text, False), ("runs", "runs", _fmt_count, True),
             ("solved", "solved", _fmt_count, True)]
    counts = ["optimal", *FAILURES]
    spec += [(s, s, _fmt_count, True) for s in counts if (summary[s].fillna(0) > 0).any()]
    stats = [("t med", "t_median", fmt_time), ("t max", "t_max", fmt_time),
             ("PAR-2", "par2", fmt_time), ("per s", "per_second", _fmt_rate),
             ("encode", "encode_mean", fmt_time), ("solve", "solve_mean", fmt_time),
             ("nodes", "nodes_median", _fmt_count), ("guesses", "guesses_mean", _fmt_rate),
             ("conflicts", "conflicts_median", _fmt_count), ("score/max", "_score", text)]
    spec += [(h, c, f, True) for h, c, f in stats if c in summary and _has_values(summary, c)]
    return spec


def with_score_cell(summary: pd.DataFrame) -> pd.DataFrame:
    """The summary plus ``_score``: ``median/max`` as one cell, NA where ``max_score`` is NA.

    Only a family with partial scores records ``max_score``, so elsewhere the cell stays NA
    and :func:`summary_spec` leaves the column out.
    """
    def cell(median: Any, best: Any) -> Any:
        return pd.NA if _isna(best) else f"{_fmt_count(median)}/{_fmt_count(best)}"
    scores = [cell(m, b) for m, b in zip(summary["score_median"], summary["max_score"],
                                         strict=True)]
    return summary.assign(_score=pd.Series(scores, index=summary.index, dtype=object))


def _md_summary(report: Report) -> str:
    """The summary section: one table, or one subsection per family when there are several.

    Per family, so that each table keeps only the columns that family fills.
    """
    if report.summary.empty:
        return "## Summary\n\nno runs"
    summary = with_score_cell(report.summary)
    families = sorted(set(summary["family"]))
    if len(families) == 1:
        return "## Summary\n\n" + _columns_view(summary, summary_spec(summary))
    parts = []
    for family in families:
        rows = summary[summary["family"] == family]
        parts.append(f"### {family or '(no family)'}\n\n" + _columns_view(rows, summary_spec(rows)))
    return "## Summary\n\n" + "\n\n".join(parts)


def _md_virtual_best(report: Report) -> str:
    """The virtual best solver section (omitted when there are no instances)."""
    if report.virtual_best.empty:
        return ""
    spec = [("ladder", "ladder", _fmt_text, False), ("rung", "rung", _fmt_text, False),
            ("instances", "instances", _fmt_count, True), ("solved", "solved", _fmt_count, True)]
    if (report.virtual_best["optimal"].fillna(0) > 0).any():
        spec.append(("optimal", "optimal", _fmt_count, True))
    spec.append(("PAR-2", "par2", fmt_time, True))
    if report.virtual_best["family"].nunique() > 1:
        spec.insert(0, ("family", "family", _fmt_text, False))
    return "## Virtual best solver\n\n" + _columns_view(report.virtual_best, spec)


def _md_cliffs(report: Report) -> str:
    """The cliffs section: where each config first solves less than half of a rung."""
    if report.cliffs.empty:
        return "## Cliffs\n\nno ladders"
    spec = [("ladder", "ladder", _fmt_text, False), ("config", "config", _fmt_text, False),
            ("cliff at rung", "cliff_rung", _fmt_cliff, False),
            ("last fully solved", "last_solved_rung", _fmt_text, False)]
    if report.cliffs["family"].nunique() > 1:
        spec.insert(0, ("family", "family", _fmt_text, False))
    return ("## Cliffs\n\nFirst rung solved on less than half of its runs (skipped runs count "
            "as unsolved).\n\n" + _columns_view(report.cliffs, spec))


def _md_disagreements(report: Report) -> str:
    """The disagreements section; says ``none`` when every config agrees."""
    if report.disagreements.empty:
        return "## Disagreements\n\nnone"
    spec = [("kind", "kind", _fmt_text, False), ("ladder", "ladder", _fmt_text, False),
            ("rung", "rung", _fmt_text, False),
            ("instance", "instance_id", lambda v: _fmt_text(v)[:12], False),
            ("detail", "detail", _fmt_text, False)]
    return _capped("Disagreements", report.disagreements, spec)


def _md_wrong(report: Report) -> str:
    """The wrong answers section; says ``none`` when the checker rejected nothing."""
    if report.wrong.empty:
        return "## Wrong answers\n\nnone"
    spec = [("ladder", "ladder", _fmt_text, False), ("rung", "rung", _fmt_text, False),
            ("instance", "instance_id", lambda v: _fmt_text(v)[:12], False),
            ("config", "config", _fmt_text, False), ("seed", "seed", _fmt_count, True),
            ("claimed", "claimed", _fmt_text, False), ("verdict", "verdict", _fmt_text, False)]
    return _capped("Wrong answers", report.wrong, spec)


def _markdown(report: Report) -> str:
    """The human summary printed at the end of a sweep."""
    title = f"# cliffbench report: {report.sweep}" if report.sweep else "# cliffbench report"
    sections = [title, _md_summary(report), _md_virtual_best(report), _md_cliffs(report),
                _md_disagreements(report), _md_wrong(report)]
    return "\n\n".join(s for s in sections if s) + "\n"


# --------------------------------------------------------------------------------------------
# The terminal summary

#: No line of :func:`terminal_summary` is longer than this.
TERMINAL_WIDTH = 100
#: Config labels and rung labels longer than these are cut and footnoted.
CONFIG_WIDTH = 34
RUNG_WIDTH = 12
#: At most this many wrong answers / disagreements are listed in the terminal summary.
TERMINAL_PROBLEMS = 10
_GAP = "  "
#: The legend's sentences: (text, the cell or column it explains; None: always shown).
_LEGEND: tuple[tuple[str, str | None], ...] = (
    ("cell: solved/optimal/failed runs of a config on a rung (solved/failed where no run of "
     "the family is optimal).", None),
    ("blank: no run there.", ""),
    ("skip: every run skipped (the ladder stopped climbing).", "skip"),
    ("!: a wrong answer among them.", "!"),
    ("virtual best: per instance the best config (counts instances).", None),
    ("cliff: first rung solved on less than half of its runs.", "cliff"),
    ("PAR-2: mean seconds per run, a failure counting twice its budget.", None),
    ("score: mean % of the joins matched by the boards returned.", "score"),
    ('Glossary: README.md, "Reading the summary".', None),
)


class _Footnotes:
    """Cuts labels that are too long for their column and remembers what each cut stands for.

    A cut label keeps its first characters and ends with a marker ``~1``, ``~2``, ...; the
    same label always gets the same marker, so a cut rung reads the same in the header and in
    the cliff column, and :meth:`lines` lists every marker with its full label.
    """

    def __init__(self) -> None:
        self.markers: dict[str, str] = {}

    def cut(self, label: str, width: int) -> str:
        if len(label) <= width:
            return label
        marker = self.markers.setdefault(label, f"~{len(self.markers) + 1}")
        return label[:width - len(marker)] + marker

    def lines(self) -> list[str]:
        return [line for label, marker in self.markers.items()
                for line in _wrap(f"{marker} {label}", indent="   ")]


def _wrap(text: str, indent: str = "") -> list[str]:
    """``text`` wrapped to :data:`TERMINAL_WIDTH` (long words broken), later lines indented."""
    return textwrap.wrap(text, TERMINAL_WIDTH, subsequent_indent=indent,
                         break_on_hyphens=False) or [""]


def _fit(text: str) -> str:
    """One line cut to :data:`TERMINAL_WIDTH`, ending in ``~`` when something was cut."""
    return text if len(text) <= TERMINAL_WIDTH else text[:TERMINAL_WIDTH - 1] + "~"


def cell_text(cell: Any, with_optimal: bool) -> str:
    """One grid cell of :class:`Overview` (a row of its ``cells``) as the summaries show it:
    ``solved/optimal/failed`` (``solved/failed`` without ``with_optimal``), ``skip`` when every
    run was skipped, and a trailing ``!`` when one of them was a wrong answer."""
    if cell.runs > 0 and cell.skipped == cell.runs:
        return "skip"
    counts = [cell.solved, cell.optimal, cell.failed] if with_optimal \
        else [cell.solved, cell.failed]
    return "/".join(str(int(c)) for c in counts) + ("!" if cell.wrong > 0 else "")


def family_columns(view: Overview, family: str) -> tuple[bool, bool]:
    """Whether a family's grids show ``optimal`` counts (some run of it is optimal) and a
    ``score`` column (it has partial scores)."""
    optimal = view.cells.loc[view.cells["family"] == family, "optimal"]
    scores = view.totals.loc[view.totals["family"] == family, "score_fraction"]
    return bool((optimal > 0).any()), bool(scores.notna().any())


def _plain_label(value: Any) -> str:
    """A label for plain text: NA as ``-``, nothing escaped."""
    return "-" if _isna(value) else str(value)


def score_percent(fraction: Any) -> str:
    """A score fraction as a percent (``-`` if NA); ``100%`` only when every join matched."""
    if _isna(fraction):
        return "-"
    return "100%" if fraction >= 1 else f"{min(99.9, math.floor(fraction * 1000) / 10):.1f}%"


def _text_rows(headers: list[str], rows: list[list[str]]) -> list[str]:
    """Columns padded to their widest cell, the first left-aligned, the rest right-aligned."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]

    def line(cells: list[str]) -> str:
        first = cells[0].ljust(widths[0])
        rest = [c.rjust(w) for c, w in zip(cells[1:], widths[1:], strict=True)]
        return _GAP.join([first, *rest]).rstrip()

    return [line(headers), *(line(r) for r in rows)]


def _chunks(widths: list[int], room: int, tail: int) -> list[list[int]]:
    """Split column positions into runs that fit ``room`` characters, the last one with ``tail``.

    ``widths`` are each column's width with its gap. Built from the right, so the last chunk
    (the one that also holds the tail columns) is as full as it can be.
    """
    chunks: list[list[int]] = []
    current: list[int] = []
    used, budget = 0, room - tail
    for i in reversed(range(len(widths))):
        if current and used + widths[i] > budget:
            chunks.append(current)
            current, used, budget = [], 0, room
        current.insert(0, i)
        used += widths[i]
    chunks.append(current)
    return chunks[::-1]


def _grid_lines(configs: list[str], rungs: list[str], grid: list[list[str]],
                tail_headers: list[str], tail: list[list[str]]) -> list[str]:
    """The config x rung table, its rung columns wrapped into blocks of at most the width."""
    config_w = max(len("config"), *(len(c) for c in configs))
    col_w = [max(len(r), *(len(row[i]) for row in grid)) + len(_GAP) for i, r in enumerate(rungs)]
    tail_w = sum(max(len(h), *(len(row[i]) for row in tail)) + len(_GAP)
                 for i, h in enumerate(tail_headers))
    lines: list[str] = []
    blocks = _chunks(col_w, TERMINAL_WIDTH - config_w, tail_w) if rungs else [[]]
    for b, block in enumerate(blocks):
        last = b == len(blocks) - 1
        headers = ["config", *(rungs[i] for i in block), *(tail_headers if last else [])]
        rows = [[c, *(grid[k][i] for i in block), *(tail[k] if last else [])]
                for k, c in enumerate(configs)]
        lines += ([""] if b else []) + _text_rows(headers, rows)
    return lines


def _ladder_title(family: str, ladder: str, cells: pd.DataFrame, budgets: pd.Series,
                  with_optimal: bool) -> str:
    """The line above a ladder's table: what it is, how many runs a cell, the budget."""
    real = cells[cells["config"] != VIRTUAL_BEST]
    per_cell = sorted({int(r) for r in real["runs"]})
    runs = (f"{per_cell[0]}" if len(per_cell) == 1 else f"{per_cell[0]}-{per_cell[-1]}")
    seconds = sorted({fmt_budget(b) for b in budgets.dropna()}, key=float)
    budget = (f"budget {seconds[0]} s" if len(seconds) == 1
              else f"budgets {seconds[0]}-{seconds[-1]} s" if seconds else "no budget")
    rungs = cells["rung"].nunique()
    what = (f"{family}: instances outside ladders" if ladder == PSEUDO_LADDER
            else f"{family} / {ladder}: {rungs} rung{'s' * (rungs != 1)}")
    form = "solved/optimal/failed" if with_optimal else "solved/failed"
    return f"{what}, {runs} run{'s' * (runs != '1')} a cell, {budget}, cell = {form}"


def fmt_budget(value: Any) -> str:
    """A budget in seconds as it was given: ``10``, ``2.5``."""
    return _fmt_param(float(value))


def _ladder_tail(totals: pd.DataFrame, pseudo: bool, with_score: bool,
                 notes: _Footnotes) -> tuple[list[str], list[list[str]]]:
    """The columns after the rungs: headers, and per config its cliff (not on a pseudo-ladder:
    one rung cannot fall off anything), PAR-2 and, with partial scores, score."""
    headers = ([] if pseudo else ["cliff"]) + ["PAR-2"] + (["score"] if with_score else [])
    rows = []
    for total in totals.itertuples():
        cliff = "never" if _isna(total.cliff_rung) else notes.cut(str(total.cliff_rung),
                                                                  RUNG_WIDTH)
        score = "" if total.config == VIRTUAL_BEST else score_percent(total.score_fraction)
        rows.append(([] if pseudo else [cliff]) + [fmt_time(total.par2)]
                    + ([score] if with_score else []))
    return headers, rows


def _marks(grid: list[list[str]]) -> set[str]:
    """The special cells a grid holds, for the legend: ``""`` (blank), ``skip``, ``!``."""
    cells = {c for row in grid for c in row}
    return ({"", "skip"} & cells) | ({"!"} if any(c.endswith("!") for c in cells) else set())


def _ladder_text(family: str, ladder: str, view: Overview,
                 budgets: pd.Series) -> tuple[str, set[str]]:
    """One ladder's block (title, config x rung grid with its tail columns, footnotes), and the
    marks and tail headers it uses, for the legend."""
    cells = view.cells[(view.cells["family"] == family) & (view.cells["ladder"] == ladder)]
    totals = view.totals[(view.totals["family"] == family) & (view.totals["ladder"] == ladder)]
    with_optimal, with_score = family_columns(view, family)
    notes = _Footnotes()
    rung_labels = list(cells.drop_duplicates("rung")["rung"])
    by_key = {(c.config, c.rung): cell_text(c, with_optimal) for c in cells.itertuples()}
    grid = [[by_key.get((config, r), "") for r in rung_labels] for config in totals["config"]]
    rungs = [notes.cut(r or "all", RUNG_WIDTH) for r in rung_labels]
    tail_headers, tail = _ladder_tail(totals, ladder == PSEUDO_LADDER, with_score, notes)
    configs = [notes.cut(c, CONFIG_WIDTH) for c in totals["config"]]
    title = _wrap(_ladder_title(family, ladder, cells, budgets, with_optimal), indent="  ")
    text = "\n".join([*title, *_grid_lines(configs, rungs, grid, tail_headers, tail),
                      *notes.lines()])
    return text, _marks(grid) | set(tail_headers)


def _headline(data: pd.DataFrame, sweep: str, wrong: int, disagree: int) -> list[str]:
    """The first lines: how many runs, answered, proven optimal, failed, wrong, disagreeing."""
    runs, ok = len(data), int(data["_ok"].sum())
    families = data["family"].nunique()
    configs = len(data[["family", "config"]].drop_duplicates())
    text = (f"cliffbench {sweep}: {runs} runs of {configs} solver configs on "
            f"{families} famil{'ies' if families != 1 else 'y'}; {ok} answered "
            f"({int(data['_optimal'].sum())} proven optimal), {runs - ok} failed; "
            f"{wrong} wrong answer{'s' * (wrong != 1)}, {disagree} disagreement"
            f"{'s' * (disagree != 1)}.")
    return _wrap(text, indent="  ")


def _problem_lines(title: str, table: pd.DataFrame, line_of: Any) -> list[str]:
    """A titled list of at most :data:`TERMINAL_PROBLEMS` problems, each one cut line."""
    if table.empty:
        return []
    lines = [title, *(_fit("  " + line_of(row))
                      for row in table.head(TERMINAL_PROBLEMS).itertuples())]
    if len(table) > TERMINAL_PROBLEMS:
        lines.append(f"  ... and {len(table) - TERMINAL_PROBLEMS} more "
                     "(cliffbench report --format json lists all)")
    return lines


def _problems(wrong: pd.DataFrame, disagree: pd.DataFrame) -> list[str]:
    """The wrong answers and the disagreements, listed (nothing when there are none)."""
    def where(row: Any) -> str:
        return f"{row.ladder} {row.rung} {_plain_label(row.instance_name or row.instance_id)}"

    lines = _problem_lines("Wrong answers (rejected by the checker):", wrong,
                           lambda r: f"{where(r)} {r.config}: {_plain_label(r.verdict)}")
    more = _problem_lines("Disagreements between configs:", disagree,
                          lambda r: f"{where(r)} {r.kind}: {_plain_label(r.detail)}")
    return lines + ([""] if lines and more else []) + more


def terminal_summary(table: pd.DataFrame, sweep: str) -> str:
    """What a finished sweep prints: a few lines a ladder, no line over :data:`TERMINAL_WIDTH`.

    A headline (runs, answered, proven optimal, failed, wrong answers, disagreements), then per
    family and ladder a table of its configs (and the virtual best) against its rungs: each
    cell ``solved/optimal/failed`` (``solved/failed`` where the family has no optimal run), then
    the config's cliff, its PAR-2 over the ladder and, where the family has partial scores,
    the mean fraction of the score. Rung columns that do not fit are wrapped into further
    blocks; long labels are cut and footnoted. Then the wrong answers and disagreements, and a
    legend. README.md ("Reading the summary") explains every column.
    """
    data = normalize(table)
    if data.empty:
        return f"cliffbench {sweep}: no runs\n"
    summary = _summarize(data)
    view = _overview(data, summary)
    wrong, disagree = _wrong_answers(data), _disagreements(data)
    blocks = ["\n".join(_headline(data, sweep, len(wrong), len(disagree)))]
    ladders = view.totals[["family", "ladder"]].drop_duplicates()
    ladders = ladders.sort_values("family", kind="stable")
    marks: set[str] = set()
    for family, ladder in ladders.itertuples(index=False):
        budgets = data.loc[(data["family"] == family) & (data["ladder"] == ladder), "budget_s"]
        text, used = _ladder_text(family, ladder, view, budgets)
        blocks.append(text)
        marks |= used
    problems = _problems(wrong, disagree)
    if problems:
        blocks.append("\n".join(problems))
    blocks.append("\n".join(_legend(marks) + [
        _fit(f"Every statistic: cliffbench report {sweep}"),
        _fit(f"A page to explore the runs: cliffbench report {sweep} --html FILE")]))
    return "\n\n".join(blocks) + "\n"


def _legend(marks: set[str]) -> list[str]:
    """The legend lines: the sentences always shown, and those of the ``marks`` the tables use."""
    return _wrap(" ".join(text for text, needs in _LEGEND if needs is None or needs in marks))
