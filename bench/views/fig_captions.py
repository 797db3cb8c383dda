"""Captions: one sentence or three under each figure, from the table it plots.

They are the ``plots`` of ``<sweep>-figures.json`` (the HTML report prints them under the
figures): what is plotted against what, how failures and skipped runs are shown, and what was
left out, each only when the figure holds it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Protocol

import pandas as pd

from bench.views.fig_survival import MIN_RUNS
from bench.views.figstyle import finite_max, floats, pretty_param, seconds


class LadderView(Protocol):
    """What a caption needs of a ladder (``bench.views.figures._Ladder``)."""

    rung_param: str | None
    positions: dict[int, float] | None
    rows: pd.DataFrame




def _config_count(table: pd.DataFrame) -> str:
    """"N solver configs", from the table's ``config`` column."""
    configs = table["config"].nunique()
    return f"{configs} solver config{'s' if configs != 1 else ''}"


def _budget_text(table: pd.DataFrame) -> str:
    """"the 10 s budget", or "the budget" when the table knows none."""
    budget = finite_max(table["budget_s"]) if "budget_s" in table else math.nan
    return f"the {seconds(budget)} budget" if math.isfinite(budget) else "the budget"


def _caption_ladder(lad: LadderView, table: pd.DataFrame) -> str:
    """The ladder plot: lines on an ordered ladder, points on a categorical one; the marks."""
    if lad.positions is not None:
        layout = (f"against {pretty_param(lad.rung_param)}, one line per config "
                  f"({_config_count(table)})")
    else:
        layout = (f"per rung (the rungs are categories, not a parameter: each config is a "
                  f"point, {_config_count(table)} side by side)")
    text = (f"Median wall time of the solved runs {layout}; bars span the 25th to 75th "
            f"percentile. Failed runs sit on {_budget_text(table)} line (x timeout or memout, "
            "o unknown, * crash, error or wrong)")
    if (floats(table["skipped"]) > 0).any():
        text += "; runs skipped after the ladder stopped climbing are marked in a band above it"
    if table["at_cliff"].any():
        text += "; a triangle marks each config's cliff (first rung solved on less than half)"
    return text + (". Below: the solved fraction per rung with its 95% Wilson interval, and "
                   "each config's fitted cliff (50% crossing of a logistic fit) as a diamond "
                   "with its 95% bootstrap interval.")


def _caption_cactus(lad: LadderView, table: pd.DataFrame) -> str:
    """The cactus plot and its legend's counts."""
    total = int(table["instances"].iloc[0])
    return (f"Cactus plot: instances solved (of {total}) against wall time, one step line per "
            f"config ({_config_count(table)}); an instance's time is the median over its runs. "
            "The legend gives each config's solved instances, and those it skipped or does not "
            "take (never failures).")


def _caption_profile(lad: LadderView, table: pd.DataFrame) -> str:
    """The performance profile: what tau is, which way is better."""
    total = int(table["instances"].iloc[0])
    return (f"Dolan-More performance profile over {total} instances: the fraction of instances "
            "each config solves within a factor \u03c4 of the fastest config on that instance "
            "(a failure never counts); higher and further left is better. The legend counts "
            "each config's solved, skipped and not-run instances.")


def _caption_score(lad: LadderView, table: pd.DataFrame) -> str:
    """The score traces: score or its fraction of the maximum, per run."""
    y = "score / max score" if bool(table["fraction"].notna().all()) else "score"
    return (f"Anytime runs: best {y} found so far against wall time, one panel per rung, one "
            f"step line per run ({_config_count(table)}), held to the run's end.")


def _caption_nodes(lad: LadderView, table: pd.DataFrame) -> str:
    """The node bars: per instance or rung, the panels, hatches, empty slots, configs left
    out."""
    panels = table["panel"].nunique()
    per = "instance" if table["group_by"].iloc[0] == "instance" else "rung (whiskers: IQR)"
    text = (f"Search nodes (work_nodes, log scale), median over runs per {per}. A node is "
            "what its solver counts, so configs share a panel only when they have the same "
            f"paradigm and backend ({panels} panel{'s' if panels != 1 else ''})")
    drawn = floats(table["nodes_median"]) > 0
    if (drawn & ~table["all_solved"].to_numpy(bool)).any():
        text += "; hatched bars include a failed run, so the count is a lower bound"
    if (~drawn).any():
        text += "; a slot without a bar reads 0 (a zero count), skipped, or no count"
    left_out = sorted(set(lad.rows["config"]) - set(table["config"]))
    if left_out:
        text += f"; no positive count from {', '.join(left_out)}, left out"
    return text + "."


def _caption_heatmap(lad: LadderView, table: pd.DataFrame) -> str:
    """The heat map: its axes, and the skipped cells when there are any."""
    x_name, y_name = table["x"].iloc[0], table["y"].iloc[0]
    if y_name == "config":
        grid = f"rung x config ({_config_count(table)})"
    else:
        grid = (f"{pretty_param(x_name)} x {pretty_param(y_name)}, one panel "
                "per config")
    text = f"Solved fraction of the runs made, over {grid}; cells read solved/made"
    if (table["skipped"] > 0).any():
        text += "; hatched grey cells were skipped (not run), which is not a failure"
    return text + "."


def _caption_survival(lad: LadderView, table: pd.DataFrame) -> str:
    """The survival plot: what is plotted, the censoring, the work panel, configs left out."""
    time = table[table["metric"] == "time"]
    counts = sorted(set(time.drop_duplicates("config")["runs"].astype(int)))
    runs = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]} to {counts[-1]}"
    rung = str(table["rung"].iloc[0])
    where = f"on rung {rung}" if rung else "over all instances"
    text = (f"Survival of run time {where}: P(T > t), the fraction of a config's runs ({runs} "
            f"each) not solved within t, against t on log-log axes, one step line per config "
            f"({_config_count(time)}). A failed run counts as unsolved at every t (censored at "
            f"{_budget_text(time)}), so a curve with failures stays above 0 and ends at the "
            "budget, at the fraction that failed (hollow marker)")
    if (table["metric"] == "work").any():
        text += ("; beside it the same for work_nodes (the configs that count nodes), ending at "
                 "the largest count a run reached: a node is what its solver counts, so compare "
                 "slopes, not positions")
    text += (". A heavy tail (P(T > t) falling as a power of t: Gomes, Selman, Crato and Kautz, "
             "JAR 2000) is a straight line here; restarts bend it down")
    same = lad.rows["rung"].astype(str) == rung
    if table["rung_index"].notna().any():
        same &= lad.rows["rung_index"].astype("Float64") == float(table["rung_index"].iloc[0])
    rows = lad.rows[same.fillna(False).astype(bool)]
    left_out = sorted(set(rows.loc[~rows["_skipped"], "config"]) - set(table["config"]))
    if left_out:
        text += (f"; fewer than {MIN_RUNS} runs made here, left out: "
                 f"{', '.join(left_out)}")
    if rows["_skipped"].any():
        text += "; skipped runs (never made) are left out"
    return text + "."


CAPTIONS: dict[str, Callable[[LadderView, pd.DataFrame], str]] = {
    "ladder": _caption_ladder, "cactus": _caption_cactus, "profile": _caption_profile,
    "score": _caption_score, "nodes": _caption_nodes, "heatmap": _caption_heatmap,
    "survival": _caption_survival,
}
