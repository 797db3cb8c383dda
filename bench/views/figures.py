"""Paper figures from the results table alone.

:func:`make_figures` turns a results DataFrame (as :func:`bench.load` returns it) into every
figure the table supports. This module decides *which numbers* each figure shows and writes them
as a CSV beside the picture; the ``bench.views.fig_*`` drawers (in the style of
:mod:`bench.views.figstyle`) draw them **from that CSV's table**, so the CSV is exactly what is
plotted. The counting conventions are the report's (:mod:`bench.views.stats`): the same configs
(:func:`~bench.views.stats.config_labels`), success statuses, pseudo-ladders, medians, PAR-2 and
cliffs; its functions are called, never re-derived. Legends name each config with the
parameters that tell it apart (:mod:`bench.views.fig_labels`).

Files are ``<sweep>-<kind>[-<ladder>].{pdf,png,csv}`` (the table: ``.md``, ``.tex``, ``.csv``)
plus ``<sweep>-figures.json``, the index of what was made (each figure with a caption, under
``plots``) and what was skipped and why. A ``skipped`` run (the ladder stopped climbing for its
config) is never drawn as a failure: every kind shows it apart. Kinds:

- ``ladder`` (per ladder of two rungs or more): median wall time of the solved runs per rung,
  error bars from the 25th to the 75th percentile (IQR). A ladder is *ordered* when its rungs
  are the values of one numeric parameter, monotone along the ladder (board size 4, 6, 8):
  then the x axis is that parameter and each config is a line. Otherwise (tree, tic-tac-toe,
  Nim) the rungs are categories: each config is a point per rung, side by side, never joined.
  Failed runs sit on the budget line (x: timeout or memout; o: unknown, the solver gave up;
  \\*: crash, error or wrong), skipped runs in a band of their own above it, each config's cliff
  as a triangle. Below it, a panel of the solved fraction per rung with its 95% Wilson interval,
  and each config's fitted cliff (the report's: the 50% crossing of a logistic fit) as a
  point at one half with its 95% bootstrap interval as a horizontal bar (an end outside the
  ladder runs to the axis edge with an arrow).
- ``cactus`` (per ladder): instances solved against time; ``profile``: Dolan-More performance
  profiles (fraction of instances a config solves within a factor tau of the best config). An
  instance's time for a config is the median over its runs, a failure counting as infinite; the
  legend counts the instances solved and those skipped.
- ``score`` (per ladder with ``score_trace``): an anytime search's best score against time, one
  panel per rung, one line per run (held until the run's end).
- ``nodes`` (per ladder with positive ``work_nodes``): node counts on a log scale. A node is
  what its solver counts, so only configs of one paradigm and backend (the IDA* searches,
  minimax and alpha-beta) share a panel; configs with no positive count are left out. Bars per
  instance (rung, then name in natural order: s1, s2, ..., s10) when a ladder has at most
  :data:`BY_INSTANCE_MAX` instances, else the median per rung (the report's ``nodes_median``)
  with IQR whiskers. Hatched bars include failed runs: a count cut by a limit is a lower bound.
- ``heatmap`` (per ladder): solved fraction of the runs made over two instance parameters that
  vary independently (one panel per config), else over rung x config; cells whose runs were
  all skipped are hatched grey, never 0/n; skipped when every cell holds the same fraction (a
  ladder everyone solves says nothing as a heat map).
- ``survival`` (per rung on which a config made at least
  :data:`bench.views.fig_survival.MIN_RUNS` runs: many seeds of one spec, or many instances): the
  empirical survival function P(T > t) of run time on log-log axes, one step line per config
  with that many runs, and of ``work_nodes`` beside it when a config counts nodes; failed runs
  are censored at the budget (:mod:`bench.views.fig_survival`), skipped runs left out; each
  config's legend entry gives its tail index alpha where the tail has the points for a fit
  (:mod:`bench.views.tails`; alpha < 2 is a heavy tail), as do the CSV's ``tail_alpha`` and
  ``tail_points`` columns. Files
  ``<sweep>-survival-<ladder>-<rung>.*``; a ladder without such a rung gets none, and no skip
  note (most sweeps are not built for it).
- ``table``: solved counts and PAR-2 per ladder, rung and config (and the virtual best), as
  Markdown and LaTeX (booktabs); a rung a config skipped reads ``skipped``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from bench.views import (
    fig_captions,
    fig_heat,
    fig_ladder,
    fig_nodes,
    fig_ranked,
    fig_score,
    fig_survival,
    fig_tables,
    figstyle,
    stats,
    tails,
)
from bench.views.fig_labels import fmt_value, legend_labels, natural_key, short_names
from bench.views.stats import PSEUDO_LADDER, VIRTUAL_BEST

#: Figure kinds, in the order they are made and listed.
KINDS = ("ladder", "cactus", "profile", "score", "nodes", "heatmap", "survival", "table")
#: Node bars are drawn per instance up to this many instances in a ladder, per rung above.
BY_INSTANCE_MAX = 12
#: Times below this are raised to it in profiles (a ratio to a zero time is meaningless).
TIME_FLOOR = 1e-6
#: A heat-map axis takes at most this many values; two axes need more than half their grid.
HEAT_MAX_VALUES = 30
#: Failure groups drawn on the budget line of a ladder plot: (CSV column, statuses); skipped
#: runs are counted too, and drawn apart from the failures.
FAILURE_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("out_of_budget", ("timeout", "memout")),
    ("gave_up", ("unknown",)),
    ("failed", ("crash", "error", "wrong")),
    ("skipped", ("skipped",)),
)
_RUNG = ["rung_index", "rung"]


@dataclass
class _Ladder:
    """One ladder's rows, the names it is written under, and its rungs' order.

    ``rung_param`` is the parameter the rungs step when the ladder is ordered (None when the
    rungs are categories); ``positions`` maps each rung_index to its x value then.
    """

    family: str
    ladder: str
    suffix: str
    rows: pd.DataFrame
    rung_param: str | None = None
    positions: dict[int, float] | None = None


@dataclass
class _Out:
    """Where a run of :func:`make_figures` writes, and what it has written so far."""

    out: Path
    sweep: str
    formats: tuple[str, ...]
    looks: dict[tuple[str, str], figstyle.Look]
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

    def family_looks(self, family: str) -> dict[str, figstyle.Look]:
        """Config -> look, for the configs of one family."""
        return {config: look for (fam, config), look in self.looks.items() if fam == family}

    def record(self, kind: str, lad: _Ladder | None, files: list[Path], caption: str,
               rung: str | None = None) -> None:
        self.written += files
        entry = {"kind": kind, "family": lad.family if lad else None,
                 "ladder": lad.ladder if lad else None}
        if rung is not None:  # a figure of one rung (survival) names it
            entry["rung"] = rung
        self.made.append({**entry, "files": [f.name for f in files], "plots": caption})

    def skip(self, kind: str, lad: _Ladder | None, reason: str) -> None:
        self.skipped.append({"kind": kind, "family": lad.family if lad else None,
                             "ladder": lad.ladder if lad else None, "reason": reason})


# --------------------------------------------------------------------------------------------
# Preparing the table


def _prepare(df: pd.DataFrame) -> pd.DataFrame:
    """The report's normalised frame (configs, pseudo-ladders, ``_ok``) plus an instance key, a
    ``_skipped`` flag and each row's legend ``label``."""
    data = stats.normalize(df)  # the report's own conventions, so figures and report agree
    for column in ("score_trace", "paradigm", "backend"):
        if column not in data.columns:
            data[column] = pd.Series(pd.NA, index=data.index, dtype="string")
    names = data["instance_name"].astype("string")
    fallback = pd.Series([f"row{i}" for i in range(len(data))], index=data.index, dtype="string")
    data["instance"] = data["instance_id"].fillna(names).fillna(fallback)
    data["instance_name"] = names.fillna(data["instance"])
    data["_skipped"] = (data["status"] == "skipped").fillna(False).astype(bool)
    labels = legend_labels(data)
    data["label"] = [labels[(f, c)] for f, c in zip(data["family"], data["config"], strict=True)]
    return data


def _looks(data: pd.DataFrame) -> dict[tuple[str, str], figstyle.Look]:
    """Every (family, config)'s look, fixed for the sweep."""
    by_family = {str(f): sorted(rows["config"].unique().tolist())
                 for f, rows in data.groupby("family", sort=True)}
    labels = dict(zip(zip(data["family"], data["config"], strict=True), data["label"],
                      strict=True))
    return figstyle.looks(by_family, labels)


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
        param, positions = _ordering(rows)
        out.append(_Ladder(family, ladder, suffix, rows, param, positions))
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
    """The parameter that takes one value per rung, preferring the one named by the rung
    labels, then the shortest name: ``p_n`` over ``p_rows``, ``p_inner_colors`` over
    ``p_colors`` on a ladder whose rungs read '6', '7', ..."""
    if rows["rung_index"].nunique() < 2:
        return None
    found = []
    for column in _param_columns(rows):
        if _same_partition(rows, column, "rung_index"):
            labels = rows[column].astype(object).map(fmt_value) == rows["rung"].astype(object)
            found.append((not bool(labels.all()), len(column), column))
    return min(found)[2] if found else None


def _monotone_numbers(values: pd.Series) -> dict[int, float] | None:
    """rung_index -> value when every value is a number and they strictly rise or fall with the
    rung_index; None otherwise."""
    numbers = pd.to_numeric(values, errors="coerce").astype(float).sort_index()
    if numbers.isna().any() or len(numbers) < 2:
        return None
    steps = np.diff(numbers.to_numpy())
    if not ((steps > 0).all() or (steps < 0).all()):
        return None
    return {int(k): float(v) for k, v in numbers.items()}


def _ordering(rows: pd.DataFrame) -> tuple[str | None, dict[int, float] | None]:
    """Whether a ladder's rungs are an ordered parameter: (the parameter, rung -> its value).

    Ordered when one instance parameter takes one numeric value per rung, monotone along the
    ladder, or (with no such parameter) when the rung labels themselves are such numbers;
    otherwise (None, None): the rungs are categories (tree, tic-tac-toe, Nim), or the one
    parameter per rung is not monotone (Sudoku's clue counts 6, 30, 17, 110 over box sizes).
    """
    indexed = rows[rows["rung_index"].notna()]
    if indexed["rung_index"].nunique() < 2:
        return None, None
    param = _rung_param(indexed)
    by_rung = indexed.groupby("rung_index", sort=True)
    source = by_rung[param].first() if param else by_rung["rung"].first()
    positions = _monotone_numbers(source)
    return (param, positions) if positions else (None, None)


def _rungs(rows: pd.DataFrame) -> pd.DataFrame:
    """A ladder's rungs in order (rung_index, then label)."""
    return rows[_RUNG].drop_duplicates().sort_values(_RUNG, na_position="last").reset_index(
        drop=True)


def _labels_of(lad: _Ladder, configs: pd.Series) -> list[str]:
    """The legend labels of these configs of the ladder's family."""
    labels = lad.rows.drop_duplicates("config").set_index("config")["label"]
    return [labels[c] for c in configs]


# --------------------------------------------------------------------------------------------
# The numbers of each kind (each returns the table its CSV holds, or a reason to skip)


def _ladder_table(lad: _Ladder, summary: pd.DataFrame, cliffs: pd.DataFrame
                  ) -> pd.DataFrame | str:
    """Per (rung, config): runs, solved and median time (the report's), IQR, failures, skipped
    runs, cliff, and ``x``: the rung's parameter value (ordered ladders) or its position."""
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
    table = mine[["family", "ladder", *_RUNG, "config", "runs", "solved", "solved_low",
                  "solved_high", "t_median"]].merge(extra, on=[*_RUNG, "config"], how="left")
    cliff = cliffs[(cliffs["family"] == lad.family) & (cliffs["ladder"] == lad.ladder)]
    table = table.merge(cliff[["config", "cliff_rung", "cliff_rung_index", "fit_axis",
                               "fit_cliff", "fit_cliff_low", "fit_cliff_high", "fit_where",
                               "fit_low_where", "fit_high_where"]],
                        on="config", how="left")
    table["at_cliff"] = (table["rung_index"].astype("Float64")
                         == table["cliff_rung_index"].astype("Float64")).fillna(False).astype(bool)
    table.insert(2, "rung_param", lad.rung_param or "")
    table.insert(3, "ordered", lad.positions is not None)
    order = {int(r): i for i, r in enumerate(_rungs(rows)["rung_index"])}
    where = lad.positions or order
    table.insert(6, "x", table["rung_index"].map(lambda r: where[int(r)]).astype(float))
    table.insert(8, "label", _labels_of(lad, table["config"]))
    table = _fit_on_x(table)
    ordered = table.sort_values(["rung_index", "config"], kind="stable").reset_index(drop=True)
    return ordered.drop(columns=["cliff_rung_index", "fit_axis", "fit_cliff", "fit_cliff_low",
                                 "fit_cliff_high"])


def _fit_on_x(table: pd.DataFrame) -> pd.DataFrame:
    """The fitted cliff and its interval (the report's, on its axis: rung value or
    rung_index) as x positions of the plot (``fit_x``, ``fit_x_low``, ``fit_x_high``),
    interpolated between the rungs' positions; NaN outside the ladder (``fit_where`` says
    which side)."""
    rungs = table.drop_duplicates("rung_index").sort_values("rung_index")
    index = rungs["rung_index"].to_numpy(float)
    x = rungs["x"].to_numpy(float)
    values = {"rung_index": index}
    try:
        values["rung"] = np.array([float(r) for r in rungs["rung"]])
    except ValueError:
        pass
    out = {}
    for name, column in (("fit_x", "fit_cliff"), ("fit_x_low", "fit_cliff_low"),
                         ("fit_x_high", "fit_cliff_high")):
        at = []
        for axis, value in zip(table["fit_axis"], table[column], strict=True):
            known = isinstance(axis, str) and axis in values and not pd.isna(value)
            if known:  # np.interp wants increasing positions: a falling ladder's reversed
                xp = values[axis]
                ahead = len(xp) < 2 or xp[-1] >= xp[0]
                at.append(float(np.interp(float(value), xp if ahead else xp[::-1],
                                          x if ahead else x[::-1])))
            else:
                at.append(np.nan)
        out[name] = at
    return table.assign(**out)


def _instance_costs(rows: pd.DataFrame) -> pd.DataFrame:
    """Instance x config seconds: the median over runs, a failure (or no time) infinite."""
    t = rows["t_wall"].astype(float).where(rows["_ok"].to_numpy(), np.inf).fillna(np.inf)
    t = t.clip(lower=TIME_FLOOR)
    costs = rows.assign(_cost=t).groupby(["instance", "config"], sort=True)["_cost"].median()
    return costs.unstack("config").fillna(np.inf)


def _skipped_instances(rows: pd.DataFrame) -> pd.Series:
    """Per config, how many instances it skipped (every run of the instance skipped)."""
    per_instance = rows.groupby(["config", "instance"], sort=True)["_skipped"].all()
    return per_instance.groupby("config").sum().astype(int)


def _with_config_columns(lad: _Ladder, table: pd.DataFrame, instances: int) -> pd.DataFrame:
    """A cactus or profile table with its ladder, the configs' labels, and per config the
    instances it skipped and those it never ran (it does not take them: the attractor and
    valued trees); neither is a failure, though neither is solved."""
    skipped = _skipped_instances(lad.rows)
    ran = lad.rows.groupby("config")["instance"].nunique()
    table.insert(0, "family", lad.family)
    table.insert(1, "ladder", lad.ladder)
    table.insert(3, "label", _labels_of(lad, table["config"]))
    table["instances"] = instances
    table["skipped"] = table["config"].map(skipped).fillna(0).astype(int)
    table["not_run"] = instances - table["config"].map(ran).astype(int)
    return table


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
    table = _with_config_columns(lad, table, len(costs))
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
    return _with_config_columns(lad, pd.concat(parts, ignore_index=True), len(costs))


def _trace_points(run: Any) -> tuple[list[tuple[float, float]], bool]:
    """A run's score trace as (seconds, score) points, and whether a last point was added to
    hold the last score until the run's end; no points when the trace is malformed."""
    try:
        trace = json.loads(run.score_trace)
    except (TypeError, ValueError):
        return [], False
    points = [(float(p[0]), float(p[1])) for p in trace if isinstance(p, list | tuple)
              and len(p) == 2 and all(isinstance(v, int | float) for v in p)]
    held = bool(points) and not pd.isna(run.t_wall) and run.t_wall > points[-1][0]
    if held:
        points.append((float(run.t_wall), points[-1][1]))
    return points, held


def _score_table(lad: _Ladder) -> pd.DataFrame | str:
    """Every point of every score trace, plus a last point holding the score to the run's end."""
    rows = lad.rows[lad.rows["score_trace"].notna()]
    records = []
    for run in rows.itertuples(index=False):
        points, held = _trace_points(run)
        for i, (seconds, score) in enumerate(points):
            records.append({"rung_index": run.rung_index, "rung": run.rung, "config": run.config,
                            "label": run.label, "instance": run.instance,
                            "instance_name": run.instance_name, "repeat": run.repeat,
                            "seed": run.seed, "status": run.status, "point": i,
                            "end": held and i == len(points) - 1, "seconds": seconds,
                            "score": score, "max_score": run.max_score})
    if not records:
        return "no score_trace"
    table = pd.DataFrame(records)
    table["max_score"] = table["max_score"].astype("Float64")
    table["fraction"] = (table["score"] / table["max_score"]).astype("Float64")
    table.insert(0, "family", lad.family)
    table.insert(1, "ladder", lad.ladder)
    return table.sort_values([*_RUNG, "config", "instance", "repeat", "seed", "point"],
                             kind="stable").reset_index(drop=True)


# --- node bars


def _node_panels(rows: pd.DataFrame) -> pd.Series:
    """Per row, the node-bar panel it belongs to: its paradigm and backend (version left out),
    configs of which count nodes alike; its solver's name when neither is known."""
    paradigm = rows["paradigm"].astype("string").fillna("")
    backend = rows["backend"].astype("string").fillna("").str.replace(
        r"-\d[\w.+]*$", "", regex=True)
    key = paradigm + ", " + backend
    return key.where((paradigm != "") | (backend != ""), rows["solver"].astype("string"))


def _panel_titles(rows: pd.DataFrame) -> dict[str, str]:
    """Panel key -> title: its solvers, then the paradigm and backend they share (each left out
    when it only repeats a solver's name)."""
    titles = {}
    for key, sub in rows.groupby("panel", sort=True):
        solvers = sorted(sub["solver"].astype(str).unique())
        shared = [p for p in str(key).split(", ") if p and p not in solvers
                  and key != solvers[0]]
        titles[str(key)] = ", ".join(solvers) + (f" ({', '.join(shared)})" if shared else "")
    return titles


def _counted_configs(rows: pd.DataFrame) -> list[str]:
    """The configs with at least one positive node count (a zero cannot stand on a log axis,
    and a solver reporting only zeros does not count nodes)."""
    counts = rows.assign(_n=rows["work_nodes"].astype(float)).groupby("config")["_n"].max()
    return sorted(counts[counts > 0].index)


def _node_ticks(groups: pd.DataFrame, by_instance: bool) -> list[str]:
    """Tick labels of the bar groups: per rung, its label; per instance, its name without the
    parts the other instances of its rung share (drawn over the rung's label), empty when the
    rung holds this one instance."""
    if not by_instance:
        return groups["rung"].astype(str).tolist()
    ticks = {}
    for _, sub in groups.groupby("rung", sort=False):
        names = sub["instance_name"].astype(str).tolist()
        shorts = short_names(names) if len(names) > 1 else [""]
        for index, short in zip(sub.index, shorts, strict=True):
            ticks[index] = short if len(short) <= 24 else short[:23] + "~"
    return [ticks[i] for i in groups.index]


def _instance_seeds(rows: pd.DataFrame) -> pd.Series:
    """Each row's instance seed: ``p_seed``, else the ``seed=N`` of its source spec, else NaN."""
    seeds = pd.Series(math.nan, index=rows.index, dtype=float)
    if "source" in rows.columns:
        found = rows["source"].astype("string").str.extract(r"(?:^|[:,])seed=(\d+)")[0]
        seeds = pd.to_numeric(found, errors="coerce").astype(float)
    if "p_seed" in rows.columns:
        seeds = pd.to_numeric(rows["p_seed"], errors="coerce").astype(float).fillna(seeds)
    return seeds


def _node_groups(rows: pd.DataFrame, by_instance: bool) -> pd.DataFrame:
    """The bar groups (instances or rungs) in natural order with their tick labels: by rung,
    then by the instance's seed, then by its name with numbers compared as numbers (s1, s2,
    ..., s10)."""
    keys = [*_RUNG, "instance", "instance_name"] if by_instance else _RUNG
    groups = rows.assign(_seed=_instance_seeds(rows))[[*keys, "_seed"]].drop_duplicates(keys)
    groups = groups.assign(_rank=groups["rung_index"].astype("Float64").fillna(math.inf),
                           _seed=groups["_seed"].fillna(math.inf) if by_instance else 0.0,
                           _name=groups["instance_name" if by_instance else "rung"].map(
                               natural_key))
    groups = groups.sort_values(["_rank", "_seed", "_name"], kind="stable")
    groups = groups.drop(columns=["_rank", "_seed", "_name"]).reset_index(drop=True)
    groups["tick"] = _node_ticks(groups, by_instance)
    groups["group"] = range(len(groups))
    return groups


def _nodes_table(lad: _Ladder, summary: pd.DataFrame) -> pd.DataFrame | str:
    """Median ``work_nodes`` per (panel, instance or rung, config), with IQR, solved and skipped
    counts, for the configs with a positive count; the slots a config skipped or has no count
    for are rows with no median. ``position`` is the bar group's place in its panel."""
    counted = lad.rows[lad.rows["work_nodes"].notna()]
    if counted.empty:
        return "no work_nodes"
    configs = _counted_configs(counted)
    if not configs:
        return "no positive work_nodes (a zero has no place on a log axis)"
    by_instance = lad.rows["instance"].nunique() <= BY_INSTANCE_MAX
    rows = lad.rows[lad.rows["config"].isin(configs)]
    rows = rows.assign(panel=_node_panels(rows), _n=rows["work_nodes"].astype(float))
    groups = _node_groups(rows, by_instance)
    keys = [c for c in groups.columns if c not in ("tick", "group")]
    g = rows.groupby(["panel", *keys, "config", "label"], dropna=False, sort=True)
    table = pd.DataFrame({"runs": g.size(), "solved": g["_ok"].sum(),
                          "skipped": g["_skipped"].sum(), "counted": g["_n"].count(),
                          "nodes_median": g["_n"].median(), "nodes_q25": g["_n"].quantile(0.25),
                          "nodes_q75": g["_n"].quantile(0.75)}).reset_index()
    if not by_instance:  # the report's nodes_median, so the bars are the report's numbers
        mine = summary[(summary["family"] == lad.family) & (summary["ladder"] == lad.ladder)]
        table = table.drop(columns="nodes_median").merge(
            mine[[*_RUNG, "config", "nodes_median"]], on=[*_RUNG, "config"], how="left")
    table = table.merge(groups, on=keys, how="left")
    table["position"] = table.groupby("panel")["group"].rank(method="dense").astype(int) - 1
    table["all_solved"] = table["solved"] == table["runs"]
    titles = _panel_titles(rows)
    table["panel_title"] = table["panel"].map(titles)
    panels = sorted(table["panel"].unique(), key=natural_key)
    table["panel_index"] = table["panel"].map({p: i for i, p in enumerate(panels)})
    table.insert(0, "family", lad.family)
    table.insert(1, "ladder", lad.ladder)
    table.insert(2, "group_by", "instance" if by_instance else "rung")
    columns = ["family", "ladder", "group_by", "panel_index", "panel", "panel_title", *keys,
               "tick", "position",
               "config", "label", "runs", "solved", "skipped", "counted", "all_solved",
               "nodes_median", "nodes_q25", "nodes_q75"]
    ordered = table.sort_values(["panel_index", "group", "config"], kind="stable")
    return ordered[columns].reset_index(drop=True)


# --- heat map


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
    return sorted(values) if numeric else sorted(values, key=natural_key)


def _heat_cells(rows: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Per cell: runs, skipped, attempted (runs made), solved, and the solved fraction of the
    runs made (NA where every run was skipped)."""
    g = rows.groupby(keys, sort=False, dropna=False)
    table = pd.DataFrame({"runs": g.size(), "skipped": g["_skipped"].sum(),
                          "solved": g["_ok"].sum()}).reset_index()
    table.insert(len(table.columns) - 1, "attempted", table["runs"] - table["skipped"])
    made = table["attempted"].where(table["attempted"] > 0)
    table["fraction"] = (table["solved"] / made).astype("Float64")
    return table


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
    table = _heat_cells(rows, ["config", x_col, y_col] if axes else [x_col, y_col])
    table = table.rename(columns={x_col: "x_value", y_col: "y_value"})
    if not axes:
        table["config"] = table["y_value"]
    table["x_order"] = table["x_value"].map({v: i for i, v in enumerate(x_values)})
    table["y_order"] = table["y_value"].map({v: i for i, v in enumerate(y_values)})
    table["x_value"] = table["x_value"].map(fmt_value)
    table["y_value"] = table["y_value"].map(fmt_value)
    shown = table["fraction"].fillna(-1.0)  # an all-skipped cell differs from any fraction
    if shown.nunique() == 1:
        return f"solved fraction {fmt_value(float(shown.iloc[0]))} in every cell"
    table.insert(0, "family", lad.family)
    table.insert(1, "ladder", lad.ladder)
    table.insert(3, "x", x_name)
    table.insert(4, "y", y_name)
    table["label"] = _labels_of(lad, table["config"])
    table = table[["family", "ladder", "config", "label", "x", "x_value", "x_order", "y",
                   "y_value", "y_order", "runs", "skipped", "attempted", "solved", "fraction"]]
    return table.sort_values(["config", "y_order", "x_order"], kind="stable").reset_index(
        drop=True)


# --- survival of run time and work, per rung with many runs


def _survival_curve(rows: pd.DataFrame, metric: str) -> pd.DataFrame:
    """One config's survival corners on one rung (:func:`fig_survival.survival_points`), with
    its counts: ``time`` from ``t_wall`` (raised to :data:`TIME_FLOOR`), censored at the budget
    (the largest time, when no budget is known); ``work`` from ``work_nodes`` (a 0 raised to 1:
    a log axis has no 0), censored at the largest count a run reached. A solved run with no
    value is left out; a failed one needs none."""
    ok = rows["_ok"].to_numpy(bool)
    if metric == "time":
        values = np.maximum(figstyle.floats(rows["t_wall"]), TIME_FLOOR)
        budget = figstyle.finite_max(rows["budget_s"])
    else:
        values = np.maximum(figstyle.floats(rows["work_nodes"]), 1.0)
        budget = math.nan
    solved = values[ok & np.isfinite(values)]
    runs = len(solved) + int((~ok).sum())
    known = values[np.isfinite(values)]
    end = budget if math.isfinite(budget) else float(known.max()) if len(known) else 1.0
    points = fig_survival.survival_points(solved, runs, end)
    first = rows.iloc[0]
    tail = tails.tail_fit(solved, runs)
    head = {"metric": metric, "config": first["config"], "label": first["label"], "runs": runs,
            "solved": len(solved), "censored": runs - len(solved), "budget_s": budget,
            "tail_alpha": tail.alpha if tail else math.nan,
            "tail_points": tail.points if tail else 0}
    return pd.concat([pd.DataFrame([head] * len(points)), points], axis=1)


def _survival_tables(lad: _Ladder) -> list[tuple[str, pd.DataFrame]]:
    """Per rung on which some config made at least :data:`fig_survival.MIN_RUNS` runs (skipped
    runs not counted), in rung order: the rung's label and its survival CSV, every config with
    that many runs there, for time and (the configs with a positive ``work_nodes``) work."""
    made = lad.rows[~lad.rows["_skipped"]]
    out = []
    for (index, rung), rows in made.groupby(_RUNG, dropna=False, sort=True):
        counts = rows.groupby("config").size()
        configs = sorted(counts[counts >= fig_survival.MIN_RUNS].index)
        parts = []
        for metric in fig_survival.METRICS:
            for config in configs:
                mine = rows[rows["config"] == config]
                if metric == "work" and not (figstyle.floats(mine["work_nodes"]) > 0).any():
                    continue
                parts.append(_survival_curve(mine, metric))
        if not parts:
            continue
        table = pd.concat(parts, ignore_index=True)
        table.insert(0, "family", lad.family)
        table.insert(1, "ladder", lad.ladder)
        table.insert(2, "rung_index", index)
        table.insert(3, "rung", rung)
        table["rung_index"] = table["rung_index"].astype("Int64")
        out.append((str(rung), table))
    return out


def _survivals(ctx: _Out, lad: _Ladder) -> None:
    """Write the survival figure of every rung of the ladder that has one."""
    taken: set[str] = set()
    for rung, table in _survival_tables(lad):
        base = suffix = f"{lad.suffix}-{figstyle.slug(rung)}" if rung else lad.suffix
        k = 1
        while suffix in taken:  # two rung labels that slug alike
            k += 1
            suffix = f"{base}-{k}"
        taken.add(suffix)
        title = f"{_title(lad)}, rung {rung}" if rung else _title(lad)
        _one(ctx, "survival", lad, table, suffix=suffix, title=title, rung=rung)


# --- the solved / PAR-2 table


def _solved_table(summary: pd.DataFrame, vbs: pd.DataFrame,
                  labels: dict[tuple[str, str], str]) -> pd.DataFrame | str:
    """Solved, skipped and PAR-2 per (ladder, rung, config) from the report, ladder totals (rung
    'all', PAR-2 the run-weighted mean of the rungs', i.e. the mean over all runs), virtual
    best rows (no skipped count: it skips nothing a config ran); ``label`` names each config
    as the legends do."""
    if summary.empty:
        return "no runs"
    per_rung = summary[["family", "ladder", *_RUNG, "config", "runs", "solved", "skipped",
                        "par2"]].copy()
    best = vbs.rename(columns={"instances": "runs"})[["family", "ladder", *_RUNG, "runs",
                                                      "solved", "par2"]].copy()
    best["config"] = VIRTUAL_BEST
    best["skipped"] = pd.NA
    per_rung = pd.concat([per_rung, best[per_rung.columns]], ignore_index=True)
    weighted = per_rung.assign(_w=per_rung["par2"].astype("Float64") * per_rung["runs"])
    g = weighted.groupby(["family", "ladder", "config"], sort=False)
    totals = pd.DataFrame({"runs": g["runs"].sum(), "solved": g["solved"].sum(),
                           "skipped": g["skipped"].sum(min_count=1),
                           "par2": (g["_w"].sum(min_count=1) / g["runs"].sum()).where(
                               g["par2"].count() == g.size())}).reset_index()
    totals["rung"] = "all"
    totals["rung_index"] = pd.NA
    table = pd.concat([per_rung, totals[per_rung.columns]], ignore_index=True)
    for column in ("runs", "solved", "skipped", "rung_index"):
        table[column] = table[column].astype("Int64")
    table["par2"] = table["par2"].astype("Float64")
    table.insert(table.columns.get_loc("config") + 1, "label", [
        labels.get((f, c), c) for f, c in zip(table["family"], table["config"], strict=True)])
    table["_total"] = table["rung"] == "all"
    table["_vbs"] = table["config"] == VIRTUAL_BEST
    table["_p"] = table["ladder"] == PSEUDO_LADDER
    table = table.sort_values(["_p", "ladder", "family", "_vbs", "config", "_total",
                               "rung_index"], kind="stable", na_position="last")
    return table.drop(columns=["_total", "_vbs", "_p"]).reset_index(drop=True)


# --------------------------------------------------------------------------------------------
# The entry point


_DRAWERS: dict[str, Callable[..., Any]] = {
    "ladder": fig_ladder.draw_ladder, "cactus": fig_ranked.draw_cactus,
    "profile": fig_ranked.draw_profile, "score": fig_score.draw_score,
    "nodes": fig_nodes.draw_nodes, "heatmap": fig_heat.draw_heatmap,
    "survival": fig_survival.draw_survival,
}


def make_figures(df: pd.DataFrame, out: Path, *, sweep: str,
                 formats: Sequence[str] = ("pdf", "png")) -> list[Path]:
    """Write every figure the table supports into ``out``; return the files written.

    Each figure is written in ``formats`` (any of pdf, png, svg) and as the CSV of the numbers
    it plots; the Markdown/LaTeX table and ``<sweep>-figures.json`` (what was made, with a
    caption each, and each kind skipped with its reason) come last. The same table gives
    byte-identical files.
    """
    formats = tuple(dict.fromkeys(formats))
    unknown = [f for f in formats if f not in figstyle.FIGURE_FORMATS]
    if unknown:
        raise ValueError(f"unknown figure format {unknown[0]!r}: choose among "
                         f"{', '.join(figstyle.FIGURE_FORMATS)}")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    data = _prepare(df)
    ctx = _Out(out, sweep, formats, _looks(data))
    summary = stats.summarize(df)
    cliffs = stats.cliffs(df)
    with figstyle.styled():
        for lad in _ladders(data):
            tables = {"ladder": _ladder_table(lad, summary, cliffs), "cactus": _cactus_table(lad),
                      "profile": _profile_table(lad), "score": _score_table(lad),
                      "nodes": _nodes_table(lad, summary), "heatmap": _heatmap_table(lad)}
            for kind, table in tables.items():
                _one(ctx, kind, lad, table)
            _survivals(ctx, lad)
    _tables(ctx, _solved_table(summary, stats.virtual_best(df), {
        key: look.label for key, look in ctx.looks.items()}))
    index = out / f"{figstyle.slug(sweep)}-figures.json"
    doc = {"sweep": sweep, "formats": list(formats), "figures": ctx.made, "skipped": ctx.skipped}
    index.write_text(json.dumps(doc, indent=2) + "\n")
    return [*ctx.written, index]


def _one(ctx: _Out, kind: str, lad: _Ladder, table: pd.DataFrame | str, *,
         suffix: str | None = None, title: str | None = None, rung: str | None = None) -> None:
    """Write one figure and its CSV, or note why the kind was skipped for this ladder; a
    figure of one rung gives its own file suffix, title and rung."""
    if isinstance(table, str):
        ctx.skip(kind, lad, table)
        return
    stem = ctx.stem(kind, lad.suffix if suffix is None else suffix)
    axis = figstyle.pretty_param(lad.rung_param)
    title = _title(lad) if title is None else title
    fig = _DRAWERS[kind](table, ctx.family_looks(lad.family), title=title, rung_axis=axis)
    files = figstyle.save(fig, stem, ctx.formats) + [ctx.csv(table, stem)]
    ctx.record(kind, lad, files, f"{title}. {fig_captions.CAPTIONS[kind](lad, table)}",
               rung=rung)


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
    md, tex = fig_tables.render_tables(table, ctx.sweep)
    files = []
    for text, ext in ((md, "md"), (tex, "tex")):
        target = stem.with_name(f"{stem.name}.{ext}")
        target.write_text(text)
        files.append(target)
    files.append(ctx.csv(table, stem))
    ladders = table[["family", "ladder"]].drop_duplicates()
    ctx.record("table", None, files,
               f"Solved runs (of runs made) and PAR-2 seconds per rung and config for each of "
               f"{len(ladders)} ladder{'s' if len(ladders) != 1 else ''}, with the virtual best "
               "solver; a rung a config skipped reads 'skipped'.")

