"""Paper figures from the results table alone (DESIGN.md, "Reports and figures"; issue 7).

:func:`make_figures` turns a results DataFrame (as :func:`bench.load` returns it) into every figure
the table supports. This module decides *which numbers* each figure shows and writes them as a
CSV beside the picture; :mod:`bench.figstyle` decides how they look and draws them **from that
CSV's table**, so the CSV is exactly what is plotted. The counting conventions are the report's
(:mod:`bench.report`): the same configs (:func:`~bench.report.config_labels`), success statuses,
pseudo-ladders, medians, PAR-2 and cliffs; its functions are called, never re-derived.

Files are ``<sweep>-<kind>[-<ladder>].{pdf,png,csv}`` (the table: ``.md``, ``.tex``, ``.csv``)
plus ``<sweep>-figures.json``, the index of what was made and what was skipped and why. Kinds:

- ``ladder`` (per ladder of two rungs or more): median wall time of the solved runs per rung,
  error bars from the 25th to the 75th percentile (IQR), one line per config; runs that failed
  are drawn on the budget line (x: timeout or memout; o: unknown, the solver gave up;
  \\*: crash, error or wrong; dot: skipped), each config's cliff as a triangle above it.
- ``cactus`` (per ladder): instances solved against time; ``profile``: Dolan-More performance
  profiles (fraction of instances a config solves within a factor tau of the best config). An
  instance's time for a config is the median over its runs, a failure counting as infinite.
- ``score`` (per ladder with ``score_trace``): an anytime search's best score against time, one
  panel per rung, one line per run (held until the run's end).
- ``nodes`` (per ladder with ``work_nodes``): node counts on a log scale, one bar per config;
  per instance when a ladder has at most :data:`BY_INSTANCE_MAX` of them, else the median per
  rung (the report's ``nodes_median``) with IQR whiskers. Hatched bars include failed runs: a
  count cut by a limit is a lower bound.
- ``heatmap`` (per ladder): solved fraction over two instance parameters that vary
  independently (one panel per config), else over rung x config; skipped when every cell
  holds the same fraction (a ladder everyone solves says nothing as a heat map).
- ``table``: solved counts and PAR-2 per ladder, rung and config (and the virtual best), as
  Markdown and LaTeX (booktabs).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from bench import figstyle
from bench import report as rpt
from bench.report import PSEUDO_LADDER

#: Figure kinds, in the order they are made and listed.
KINDS = ("ladder", "cactus", "profile", "score", "nodes", "heatmap", "table")
#: Node bars are drawn per instance up to this many instances in a ladder, per rung above.
BY_INSTANCE_MAX = 12
#: Times below this are raised to it in profiles (a ratio to a zero time is meaningless).
TIME_FLOOR = 1e-6
#: A heat-map axis takes at most this many values; two axes need more than half their grid.
HEAT_MAX_VALUES = 30
#: Failure groups drawn on the budget line of a ladder plot: (CSV column, statuses).
FAILURE_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("out_of_budget", ("timeout", "memout")),
    ("gave_up", ("unknown",)),
    ("failed", ("crash", "error", "wrong")),
    ("skipped", ("skipped",)),
)
#: The config label of the virtual best solver's rows in the table.
VIRTUAL_BEST = "virtual best"
_RUNG = ["rung_index", "rung"]


@dataclass
class _Ladder:
    """One ladder's rows and the names it is written under."""

    family: str
    ladder: str
    suffix: str
    rows: pd.DataFrame
    rung_param: str | None = None


@dataclass
class _Out:
    """Where a run of :func:`make_figures` writes, and what it has written so far."""

    out: Path
    sweep: str
    formats: tuple[str, ...]
    colours: dict[str, tuple[str, str]]
    written: list[Path] = field(default_factory=list)
    made: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[dict[str, Any]] = field(default_factory=list)

    def stem(self, kind: str, suffix: str | None) -> Path:
        name = f"{figstyle.slug(self.sweep)}-{kind}" + (f"-{suffix}" if suffix else "")
        return self.out / name

    def csv(self, table: pd.DataFrame, stem: Path) -> Path:
        target = stem.with_name(stem.name + ".csv")
        table.to_csv(target, index=False, lineterminator="\n")
        return target

    def record(self, kind: str, lad: _Ladder | None, files: list[Path], what: str) -> None:
        self.written += files
        self.made.append({"kind": kind, "family": lad.family if lad else None,
                          "ladder": lad.ladder if lad else None,
                          "files": [f.name for f in files], "plots": what})

    def skip(self, kind: str, lad: _Ladder | None, reason: str) -> None:
        self.skipped.append({"kind": kind, "family": lad.family if lad else None,
                             "ladder": lad.ladder if lad else None, "reason": reason})


# --------------------------------------------------------------------------------------------
# Preparing the table


def _prepare(df: pd.DataFrame) -> pd.DataFrame:
    """The report's normalised frame (configs, pseudo-ladders, ``_ok``) plus an instance key."""
    data = rpt.normalize(df)  # the report's own conventions, so figures and report agree
    if "score_trace" not in data.columns:
        data["score_trace"] = pd.Series(pd.NA, index=data.index, dtype="string")
    names = data["instance_name"].astype("string")
    fallback = pd.Series([f"row{i}" for i in range(len(data))], index=data.index, dtype="string")
    data["instance"] = data["instance_id"].fillna(names).fillna(fallback)
    data["instance_name"] = names.fillna(data["instance"])
    return data


def _ladders(data: pd.DataFrame) -> list[_Ladder]:
    """Every (family, ladder), real ladders first, each with a unique file-name suffix."""
    keys = data[["family", "ladder"]].drop_duplicates()
    keys = keys.assign(_p=keys["ladder"] == PSEUDO_LADDER).sort_values(["_p", "ladder", "family"])
    shared = keys["ladder"].value_counts()
    out: list[_Ladder] = []
    for family, ladder in zip(keys["family"], keys["ladder"], strict=True):
        if ladder == PSEUDO_LADDER:
            suffix = f"{family}-instances"
        else:
            suffix = f"{family}-{ladder}" if shared[ladder] > 1 else ladder
        base = suffix = figstyle.slug(suffix)
        taken, k = {lad.suffix for lad in out}, 1
        while suffix in taken:  # two names that slug alike ("a b", "a-b") get -2, -3, ...
            k += 1
            suffix = f"{base}-{k}"
        rows = data[(data["family"] == family) & (data["ladder"] == ladder)]
        out.append(_Ladder(family, ladder, suffix, rows, _rung_param(rows)))
    return out


def _param_columns(rows: pd.DataFrame) -> list[str]:
    """The instance parameters that vary over a ladder's rows, with no gap, seeds left out."""
    found = []
    for column in sorted(c for c in rows.columns if str(c).startswith("p_")):
        if column == "p_seed" or column.endswith("_seed") or rows[column].isna().any():
            continue
        if 2 <= rows[column].nunique() <= HEAT_MAX_VALUES:
            found.append(column)
    return found


def _same_partition(rows: pd.DataFrame, a: str, b: str) -> bool:
    """True when two columns are functions of each other (the same axis under two names)."""
    pairs = len(rows[[a, b]].drop_duplicates())
    return pairs == rows[a].nunique() == rows[b].nunique()


def _rung_param(rows: pd.DataFrame) -> str | None:
    """The parameter that the rungs step (one value per rung), preferring the one named by the
    rung labels, then the shortest name: ``p_n`` over ``p_rows``, ``p_inner_colors`` over
    ``p_colors`` on a ladder whose rungs read '6', '7', ..."""
    if rows["rung_index"].nunique() < 2:
        return None
    found = []
    for column in _param_columns(rows):
        if _same_partition(rows, column, "rung_index"):
            labels = rows[column].astype(object).map(_fmt_value) == rows["rung"].astype(object)
            found.append((not bool(labels.all()), len(column), column))
    return min(found)[2] if found else None


def _fmt_value(value: Any) -> str:
    """A parameter value as a label: 3 rather than 3.0."""
    if isinstance(value, float | np.floating) and float(value).is_integer():
        return str(int(value))
    return str(value)


def _pretty(column: str | None) -> str:
    """An axis name from a parameter column: ``p_inner_colors`` -> ``inner colors``."""
    return "rung" if column is None else column.removeprefix("p_").replace("_", " ")


def _rungs(rows: pd.DataFrame) -> pd.DataFrame:
    """A ladder's rungs in order (rung_index, then label)."""
    return rows[_RUNG].drop_duplicates().sort_values(_RUNG, na_position="last").reset_index(
        drop=True)


# --------------------------------------------------------------------------------------------
# The numbers of each kind (each returns the table its CSV holds, or a reason to skip)


def _ladder_table(lad: _Ladder, summary: pd.DataFrame, cliffs: pd.DataFrame
                 ) -> pd.DataFrame | str:
    """Per (rung, config): runs, solved and median time (the report's), IQR, failures, cliff."""
    rows = lad.rows
    if rows["rung_index"].nunique() < 2:
        return "fewer than two rungs"
    columns = {f"_{name}": rows["status"].isin(list(statuses)).fillna(False)
               for name, statuses in FAILURE_GROUPS}
    work = rows.assign(_t=rows["t_wall"].where(rows["_ok"]).astype(float), **columns)
    g = work.groupby([*_RUNG, "config"], dropna=False, sort=True)
    extra = pd.DataFrame({
        "t_q25": g["_t"].quantile(0.25), "t_q75": g["_t"].quantile(0.75),
        **{name: g[f"_{name}"].sum().astype("Int64") for name, _ in FAILURE_GROUPS},
        "budget_s": g["budget_s"].max(),
    }).reset_index()
    mine = summary[(summary["family"] == lad.family) & (summary["ladder"] == lad.ladder)]
    table = mine[["family", "ladder", *_RUNG, "config", "runs", "solved", "t_median"]].merge(
        extra, on=[*_RUNG, "config"], how="left")
    cliff = cliffs[(cliffs["family"] == lad.family) & (cliffs["ladder"] == lad.ladder)]
    table = table.merge(cliff[["config", "cliff_rung", "cliff_rung_index"]], on="config",
                        how="left")
    table["at_cliff"] = (table["rung_index"].astype("Float64")
                         == table["cliff_rung_index"].astype("Float64")).fillna(False).astype(bool)
    table.insert(2, "rung_param", lad.rung_param or "")
    ordered = table.sort_values(["rung_index", "config"], kind="stable").reset_index(drop=True)
    return ordered.drop(columns=["cliff_rung_index"])


def _instance_costs(rows: pd.DataFrame) -> pd.DataFrame:
    """Instance x config seconds: the median over runs, a failure (or no time) infinite."""
    t = rows["t_wall"].astype(float).where(rows["_ok"].to_numpy(), np.inf).fillna(np.inf)
    t = t.clip(lower=TIME_FLOOR)
    costs = rows.assign(_cost=t).groupby(["instance", "config"], sort=True)["_cost"].median()
    return costs.unstack("config").fillna(np.inf)


def _cactus_table(lad: _Ladder) -> pd.DataFrame | str:
    """Per config, its solved instances ranked by time: (solved = k, seconds of the k-th)."""
    costs = _instance_costs(lad.rows)
    parts = []
    for config in costs.columns:
        times = np.sort(costs[config].to_numpy())
        times = times[np.isfinite(times)]
        if len(times) == 0:  # a row saying it solved nothing, so its legend entry stays
            times = np.array([np.nan])
        parts.append(pd.DataFrame({"config": config, "solved": np.arange(1, len(times) + 1)
                                   if np.isfinite(times[0]) else [0], "seconds": times}))
    table = pd.concat(parts, ignore_index=True)
    if not table["solved"].any():
        return "no instance solved"
    table.insert(0, "family", lad.family)
    table.insert(1, "ladder", lad.ladder)
    table["instances"] = len(costs)
    table["budget_s"] = float(lad.rows["budget_s"].max()) if lad.rows["budget_s"].notna().any() \
        else math.nan
    return table


def _profile_table(lad: _Ladder) -> pd.DataFrame | str:
    """Dolan-More: per config, the fraction of instances within each ratio tau of the best."""
    costs = _instance_costs(lad.rows)
    if costs.shape[1] < 2:
        return "one config only"
    best = costs.min(axis=1)
    if not np.isfinite(best).any():
        return "no instance solved"
    ratios = costs.div(best.where(np.isfinite(best), np.nan), axis=0).fillna(np.inf)
    parts = []
    for config in ratios.columns:
        taus = np.sort(ratios[config].to_numpy())
        taus = taus[np.isfinite(taus)]
        frame = pd.DataFrame({"config": config, "tau": taus,
                              "fraction": np.arange(1, len(taus) + 1) / len(costs)})
        if frame.empty:  # solved nothing: one row at fraction 0 keeps it in the legend
            frame = pd.DataFrame({"config": [config], "tau": [np.nan], "fraction": [0.0]})
        parts.append(frame.drop_duplicates("tau", keep="last"))
    table = pd.concat(parts, ignore_index=True)
    table.insert(0, "family", lad.family)
    table.insert(1, "ladder", lad.ladder)
    table["instances"] = len(costs)
    return table


def _score_table(lad: _Ladder) -> pd.DataFrame | str:
    """Every point of every score trace, plus a last point holding the score to the run's end."""
    rows = lad.rows[lad.rows["score_trace"].notna()]
    records = []
    for run in rows.itertuples(index=False):
        try:
            trace = json.loads(run.score_trace)
        except ValueError:
            continue
        points = [(float(p[0]), float(p[1])) for p in trace if isinstance(p, list | tuple)
                  and len(p) == 2 and all(isinstance(v, int | float) for v in p)]
        if not points:
            continue
        end = run.t_wall if not pd.isna(run.t_wall) and run.t_wall > points[-1][0] else None
        if end is not None:
            points.append((float(end), points[-1][1]))
        for i, (seconds, score) in enumerate(points):
            records.append({"rung_index": run.rung_index, "rung": run.rung, "config": run.config,
                            "instance": run.instance, "instance_name": run.instance_name,
                            "repeat": run.repeat, "seed": run.seed, "status": run.status,
                            "point": i, "end": end is not None and i == len(points) - 1,
                            "seconds": seconds, "score": score, "max_score": run.max_score})
    if not records:
        return "no score_trace"
    table = pd.DataFrame(records)
    table["max_score"] = table["max_score"].astype("Float64")
    table["fraction"] = (table["score"] / table["max_score"]).astype("Float64")
    table.insert(0, "family", lad.family)
    table.insert(1, "ladder", lad.ladder)
    return table.sort_values([*_RUNG, "config", "instance", "repeat", "seed", "point"],
                             kind="stable").reset_index(drop=True)


def _nodes_table(lad: _Ladder, summary: pd.DataFrame) -> pd.DataFrame | str:
    """Median ``work_nodes`` per instance (small ladders) or per rung, with IQR and solved."""
    rows = lad.rows[lad.rows["work_nodes"].notna()]
    if rows.empty:
        return "no work_nodes"
    by_instance = lad.rows["instance"].nunique() <= BY_INSTANCE_MAX
    keys = [*_RUNG, "instance", "instance_name"] if by_instance else _RUNG
    work = rows.assign(_n=rows["work_nodes"].astype(float))
    g = work.groupby([*keys, "config"], dropna=False, sort=True)
    table = pd.DataFrame({"runs": g.size(), "solved": g["_ok"].sum(),
                          "nodes_median": g["_n"].median(), "nodes_q25": g["_n"].quantile(0.25),
                          "nodes_q75": g["_n"].quantile(0.75)})
    table = table.reset_index()
    if not by_instance:  # the report's nodes_median, so the bars are the report's numbers
        mine = summary[(summary["family"] == lad.family) & (summary["ladder"] == lad.ladder)]
        table = table.drop(columns="nodes_median").merge(
            mine[[*_RUNG, "config", "nodes_median"]], on=[*_RUNG, "config"], how="left")
    table["all_solved"] = table["solved"] == table["runs"]
    table.insert(0, "family", lad.family)
    table.insert(1, "ladder", lad.ladder)
    table.insert(2, "group_by", "instance" if by_instance else "rung")
    columns = ["family", "ladder", "group_by", *keys, "config", "runs", "solved", "all_solved",
               "nodes_median", "nodes_q25", "nodes_q75"]
    return table[columns].sort_values([*keys, "config"], kind="stable").reset_index(drop=True)


def _heat_axes(lad: _Ladder) -> tuple[str, str] | None:
    """Two instance parameters that vary independently over a ladder (more than half of their
    value grid present, neither a function of the other), the rung's parameter first if it is
    one of them; None when the ladder varies one thing only."""
    rows = lad.rows
    params = _param_columns(rows)
    kept: list[str] = []  # one name per axis: p_rows, p_cols and p_n step together
    for column in sorted(params, key=lambda c: (c != lad.rung_param, len(c), c)):
        if not any(_same_partition(rows, column, k) for k in kept):
            kept.append(column)
    best = None
    for i, a in enumerate(kept):
        for b in kept[i + 1:]:
            na, nb = rows[a].nunique(), rows[b].nunique()
            pairs = len(rows[[a, b]].drop_duplicates())
            if pairs in (na, nb) or 2 * pairs <= na * nb:
                continue  # one is a function of the other, or most of the grid is empty
            rank = (lad.rung_param not in (a, b), -pairs / (na * nb), -pairs, a, b)
            if best is None or rank < best[0]:
                best = (rank, a, b)
    if best is None:
        return None
    a, b = best[1], best[2]
    if a != lad.rung_param and (rows[b].nunique(), b) > (rows[a].nunique(), a):
        a, b = b, a  # the axis with more values runs along x
    return a, b


def _axis_order(rows: pd.DataFrame, column: str, rung_param: str | None) -> list[Any]:
    """A heat-map axis's values in reading order: the rungs' order, else numeric or text."""
    if column == rung_param:
        return list(rows.sort_values(_RUNG)[column].drop_duplicates())
    values = rows[column].drop_duplicates().tolist()
    numeric = all(isinstance(v, int | float | np.integer | np.floating) for v in values)
    return sorted(values) if numeric else sorted(values, key=str)


def _heatmap_table(lad: _Ladder) -> pd.DataFrame | str:
    """Solved fraction per cell: (x, y) = two instance parameters per config, else rung x config.
    ``x_order`` / ``y_order`` give each value's position along its axis."""
    rows = lad.rows
    axes = _heat_axes(lad)
    if axes is None and rows["rung_index"].nunique() < 2:
        return "fewer than two rungs and no two varying parameters"
    if axes is None:
        x_col, y_col, x_name, y_name = "rung", "config", "rung", "config"
        x_values = _rungs(rows)["rung"].tolist()
        y_values = sorted(rows["config"].unique())
    else:
        x_col, y_col = axes
        x_name, y_name = x_col, y_col
        x_values = _axis_order(rows, x_col, lad.rung_param)
        y_values = _axis_order(rows, y_col, lad.rung_param)
    keys = ["config", x_col, y_col] if axes else [x_col, y_col]
    g = rows.groupby(keys, sort=False, dropna=False)["_ok"]
    table = pd.DataFrame({"runs": g.size(), "solved": g.sum()}).reset_index()
    table = table.rename(columns={x_col: "x_value", y_col: "y_value"})
    if not axes:
        table["config"] = table["y_value"]
    table["x_order"] = table["x_value"].map({v: i for i, v in enumerate(x_values)})
    table["y_order"] = table["y_value"].map({v: i for i, v in enumerate(y_values)})
    table["x_value"] = table["x_value"].map(_fmt_value)
    table["y_value"] = table["y_value"].map(_fmt_value)
    table["fraction"] = table["solved"] / table["runs"]
    if table["fraction"].nunique() == 1:
        return f"solved fraction {_fmt_value(table['fraction'].iloc[0])} in every cell"
    table.insert(0, "family", lad.family)
    table.insert(1, "ladder", lad.ladder)
    table.insert(3, "x", x_name)
    table.insert(4, "y", y_name)
    table = table[["family", "ladder", "config", "x", "x_value", "x_order", "y", "y_value",
                   "y_order", "runs", "solved", "fraction"]]
    return table.sort_values(["config", "y_order", "x_order"], kind="stable").reset_index(
        drop=True)


def _solved_table(summary: pd.DataFrame, vbs: pd.DataFrame) -> pd.DataFrame | str:
    """Solved and PAR-2 per (ladder, rung, config) from the report, ladder totals (rung 'all',
    PAR-2 the run-weighted mean of the rungs', i.e. the mean over all runs), virtual best rows."""
    if summary.empty:
        return "no runs"
    per_rung = summary[["family", "ladder", *_RUNG, "config", "runs", "solved", "par2"]].copy()
    best = vbs.rename(columns={"instances": "runs"})[["family", "ladder", *_RUNG, "runs",
                                                      "solved", "par2"]].copy()
    best["config"] = VIRTUAL_BEST
    per_rung = pd.concat([per_rung, best[per_rung.columns]], ignore_index=True)
    weighted = per_rung.assign(_w=per_rung["par2"].astype("Float64") * per_rung["runs"])
    g = weighted.groupby(["family", "ladder", "config"], sort=False)
    totals = pd.DataFrame({"runs": g["runs"].sum(), "solved": g["solved"].sum(),
                           "par2": (g["_w"].sum(min_count=1) / g["runs"].sum()).where(
                               g["par2"].count() == g.size())}).reset_index()
    totals["rung"] = "all"
    totals["rung_index"] = pd.NA
    table = pd.concat([per_rung, totals[per_rung.columns]], ignore_index=True)
    for column in ("runs", "solved", "rung_index"):
        table[column] = table[column].astype("Int64")
    table["par2"] = table["par2"].astype("Float64")
    table["_total"] = table["rung"] == "all"
    table["_vbs"] = table["config"] == VIRTUAL_BEST
    table["_p"] = table["ladder"] == PSEUDO_LADDER
    table = table.sort_values(["_p", "ladder", "family", "_vbs", "config", "_total",
                               "rung_index"], kind="stable", na_position="last")
    return table.drop(columns=["_total", "_vbs", "_p"]).reset_index(drop=True)


# --------------------------------------------------------------------------------------------
# The entry point


def make_figures(df: pd.DataFrame, out: Path, *, sweep: str,
                 formats: Sequence[str] = ("pdf", "png")) -> list[Path]:
    """Write every figure the table supports into ``out``; return the files written.

    Each figure is written in ``formats`` (any of pdf, png, svg) and as the CSV of the numbers
    it plots; the Markdown/LaTeX table and ``<sweep>-figures.json`` (what was made, and each
    kind skipped with its reason) come last. The same table gives byte-identical files.
    """
    formats = tuple(dict.fromkeys(formats))
    unknown = [f for f in formats if f not in figstyle.FIGURE_FORMATS]
    if unknown:
        raise ValueError(f"unknown figure format {unknown[0]!r}: choose among "
                         f"{', '.join(figstyle.FIGURE_FORMATS)}")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    data = _prepare(df)
    ctx = _Out(out, sweep, formats, figstyle.palette(data["config"].unique().tolist()))
    summary = rpt.summarize(df)
    cliffs = rpt.cliffs(df)
    with figstyle.styled():
        for lad in _ladders(data):
            _one(ctx, "ladder", lad, _ladder_table(lad, summary, cliffs), figstyle.draw_ladder)
            _one(ctx, "cactus", lad, _cactus_table(lad), figstyle.draw_cactus)
            _one(ctx, "profile", lad, _profile_table(lad), figstyle.draw_profile)
            _one(ctx, "score", lad, _score_table(lad), figstyle.draw_score)
            _one(ctx, "nodes", lad, _nodes_table(lad, summary), figstyle.draw_nodes)
            _one(ctx, "heatmap", lad, _heatmap_table(lad), figstyle.draw_heatmap)
    _tables(ctx, _solved_table(summary, rpt.virtual_best(df)))
    index = out / f"{figstyle.slug(sweep)}-figures.json"
    doc = {"sweep": sweep, "formats": list(formats), "figures": ctx.made, "skipped": ctx.skipped}
    index.write_text(json.dumps(doc, indent=2) + "\n")
    return [*ctx.written, index]


_WHAT = {
    "ladder": "median wall time of solved runs per rung (error bars: IQR), failures on the "
              "budget line, cliffs marked",
    "cactus": "instances solved against time (an instance's time: median over its runs)",
    "profile": "Dolan-More performance profile: fraction of instances within tau of the best",
    "score": "best score (fraction of max_score when known) against time, per run",
    "nodes": "work_nodes on a log scale (median per instance or per rung, whiskers: IQR)",
    "heatmap": "solved fraction per cell",
}


def _one(ctx: _Out, kind: str, lad: _Ladder, table: pd.DataFrame | str, draw: Any) -> None:
    """Write one figure and its CSV, or note why the kind was skipped for this ladder."""
    if isinstance(table, str):
        ctx.skip(kind, lad, table)
        return
    stem = ctx.stem(kind, lad.suffix)
    fig = draw(table, ctx.colours, title=_title(lad), rung_param=_pretty(lad.rung_param))
    files = figstyle.save(fig, stem, ctx.formats) + [ctx.csv(table, stem)]
    what = _WHAT[kind]
    if kind == "heatmap":
        what += f" over {table['x'].iloc[0]} x {table['y'].iloc[0]}"
    if kind == "nodes":
        what += f", by {table['group_by'].iloc[0]}"
    ctx.record(kind, lad, files, what)


def _title(lad: _Ladder) -> str:
    """A figure title: the ladder, and its family when the name does not say it."""
    name = f"{lad.family} instances" if lad.ladder == PSEUDO_LADDER else lad.ladder
    return name if lad.family in name else f"{name} ({lad.family})"


def _tables(ctx: _Out, table: pd.DataFrame | str) -> None:
    """The solved/PAR-2 tables as Markdown and LaTeX, and their CSV."""
    if isinstance(table, str):
        ctx.skip("table", None, table)
        return
    stem = ctx.stem("table", None)
    md, tex = figstyle.render_tables(table, ctx.sweep)
    files = []
    for text, ext in ((md, "md"), (tex, "tex")):
        target = stem.with_name(f"{stem.name}.{ext}")
        target.write_text(text)
        files.append(target)
    files.append(ctx.csv(table, stem))
    ctx.record("table", None, files, "solved counts and PAR-2 per ladder, rung and config")
