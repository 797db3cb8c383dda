"""The score trace: an anytime search's best score against time, one panel per rung.

Drawn from the score CSV (:func:`bench.views.figures._score_table`): one step line per run in its
config's colour and dash, a dot at each improvement, the line held to the run's end. Panels wrap
into rows so the figure keeps :data:`bench.views.figstyle.MAX_WIDTH`; the legend sits below them.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from bench.views.figstyle import (
    MAX_WIDTH,
    Look,
    clip_width,
    floats,
    grid_shape,
    legend_below,
    legend_rows,
    log_axis,
    new_figure,
)

PANEL_WIDTH = 1.75
PANEL_HEIGHT = 1.6
_RUN = ["config", "instance", "repeat", "seed"]


def _rung_rows(table: pd.DataFrame, index: Any, rung: Any) -> pd.DataFrame:
    """The points of one rung (a rung_index NA stands for the pseudo-ladder's one rung)."""
    same = table["rung_index"].isna() if pd.isna(index) else \
        table["rung_index"].astype("Float64") == index
    return table[same.fillna(False).astype(bool) & (table["rung"] == rung)]


def _panel(ax: Any, sub: pd.DataFrame, looks: dict[str, Look], y_column: str) -> None:
    """Every run of one rung as a step line with a dot per improvement."""
    for key, run in sub.groupby(_RUN, sort=True, dropna=False):
        look = looks[key[0]]
        x, y = floats(run["seconds"]), floats(run[y_column])
        ax.step(x, y, where="post", color=look.colour, ls=look.dash, lw=0.9, alpha=0.85)
        points = ~run["end"].to_numpy(bool)
        ax.plot(x[points], y[points], ls="", marker=".", ms=3, color=look.colour, alpha=0.85)
    log_axis(ax, "x")


def draw_score(table: pd.DataFrame, looks: dict[str, Look], *, title: str,
               rung_axis: str) -> Figure:
    """One panel per rung, one step line per run: best score so far against time."""
    rungs = table[["rung_index", "rung"]].drop_duplicates().sort_values(["rung_index", "rung"])
    nrows, ncols = grid_shape(len(rungs), PANEL_WIDTH, MAX_WIDTH - 0.4)
    configs = sorted(table["config"].unique())
    labels = [looks[c].label for c in configs]
    width = clip_width(PANEL_WIDTH * ncols + 0.5)
    fig = new_figure(width, PANEL_HEIGHT * nrows + 0.55 + 0.2 * legend_rows([labels], width))
    axes = fig.subplots(nrows, ncols, sharex=True, sharey=True, squeeze=False).ravel()
    fraction = bool(table["fraction"].notna().all())
    y_column = "fraction" if fraction else "score"
    for ax, (index, rung) in zip(axes, rungs.itertuples(index=False, name=None), strict=False):
        _panel(ax, _rung_rows(table, index, rung), looks, y_column)
        ax.set_title(f"{rung_axis} = {rung}" if rung != "" else "all instances", fontsize=7.5)
    for i, ax in enumerate(axes):
        if i >= len(rungs):
            ax.set_visible(False)
            continue
        if i + ncols >= len(rungs):  # nothing drawn below it: this panel carries the x label
            ax.set_xlabel("wall time (s)")
            ax.xaxis.set_tick_params(labelbottom=True)
        if i % ncols == 0:
            ax.set_ylabel("score / max score" if fraction else "score")
    handles = [Line2D([], [], color=looks[c].colour, ls=looks[c].dash, label=looks[c].label)
               for c in configs]
    legend_below(fig, [handles])
    fig.suptitle(title, fontsize=8.5)
    return fig
