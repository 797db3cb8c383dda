"""The solved-fraction heat map: rung x config, or two instance parameters per config.

Drawn from the heat-map CSV (:func:`bench.views.figures._heatmap_table`). A cell's colour is the
solved fraction of the runs *made* there, its text ``solved/made``; a cell whose runs were all
skipped (the ladder stopped climbing) is hatched light grey and reads ``skipped``, so it never
looks like a cell of failures (dark, ``0/3``); a cell with no run at all stays blank. Panels
(one per config) wrap into rows no wider than :data:`bench.views.figstyle.MAX_WIDTH`.
"""

from __future__ import annotations

from typing import Any

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from bench.views.figstyle import (
    CHAR_WIDTH,
    MAX_WIDTH,
    Look,
    floats,
    grid_shape,
    new_figure,
    pretty_param,
)

CELL_HEIGHT = 0.27
#: Tall enough for the colour bar's label beside a grid of two or three rows.
MIN_HEIGHT = 2.4
#: Cells are written in (solved/made) while a panel holds at most this many.
TEXT_CELLS = 200
SKIPPED_FACE = "0.93"


def _axis_labels(table: pd.DataFrame, axis: str) -> list[str]:
    """A heat-map axis's value labels, by their position along the axis."""
    pairs = table[[f"{axis}_order", f"{axis}_value"]].drop_duplicates().sort_values(
        f"{axis}_order")
    return pairs[f"{axis}_value"].astype(str).tolist()


def _cell_text(row: Any) -> str:
    """``solved/made``, with the skipped runs of a partly skipped cell under it."""
    if row.attempted == 0:
        return "skipped"
    text = f"{row.solved}/{row.attempted}"
    return text + (f"\n+{row.skipped} skipped" if row.skipped else "")


def _skipped_cells(ax: Any, sub: pd.DataFrame) -> None:
    """Hatch the cells whose runs were all skipped."""
    for row in sub[sub["attempted"] == 0].itertuples(index=False):
        ax.add_patch(Rectangle((row.x_order - 0.5, row.y_order - 0.5), 1, 1,
                               facecolor=SKIPPED_FACE, edgecolor="0.72", hatch="////", lw=0,
                               zorder=2))


def _panel(ax: Any, sub: pd.DataFrame, shape: tuple[int, int], by_config: bool) -> Any:
    """One grid of cells; returns the image (for the colour bar)."""
    grid = np.full(shape, np.nan)
    rows, cols = sub["y_order"].to_numpy(int), sub["x_order"].to_numpy(int)
    grid[rows, cols] = floats(sub["fraction"])
    cmap = matplotlib.colormaps["viridis"].with_extremes(bad="white")
    image = ax.imshow(np.ma.masked_invalid(grid), cmap=cmap, vmin=0.0, vmax=1.0, aspect="auto",
                      origin="lower" if by_config else "upper", interpolation="nearest")
    _skipped_cells(ax, sub)
    if grid.size <= TEXT_CELLS:
        for row in sub.itertuples(index=False):
            dark = row.attempted > 0 and float(row.fraction) < 0.6
            ax.text(row.x_order, row.y_order, _cell_text(row), ha="center", va="center",
                    fontsize=6 if row.skipped == 0 or row.attempted == 0 else 5,
                    color="white" if dark else ("0.35" if row.attempted == 0 else "black"),
                    zorder=3)
    ax.grid(visible=False)
    ax.tick_params(length=0)
    return image


def _size(x_count: int, y_labels: list[str], panels: int, by_config: bool
          ) -> tuple[float, float, int, int]:
    """(width, height, rows, columns) of the figure: cells wide enough for their text, panels
    wrapped so the width stays within :data:`MAX_WIDTH`."""
    label_w = 0.3 + CHAR_WIDTH * max((len(s) for s in y_labels), default=1)
    cell_w = 0.42 if by_config else 0.55
    panel_w = cell_w * x_count + (0.35 if by_config else 0.0)
    nrows, ncols = grid_shape(panels, panel_w, MAX_WIDTH - label_w - 0.9)
    width = ncols * panel_w + label_w + 0.9
    height = max(MIN_HEIGHT, nrows * (CELL_HEIGHT * len(y_labels) + 0.75) + 0.5)
    return width, height, nrows, ncols


def draw_heatmap(table: pd.DataFrame, looks: dict[str, Look], *, title: str,
                 rung_axis: str) -> Figure:
    """Solved fraction per cell: panels per config over two parameters, or rung x config."""
    x_name, y_name = table["x"].iloc[0], table["y"].iloc[0]
    by_config = y_name != "config"
    panels = sorted(table["config"].unique()) if by_config else [None]
    x_labels = _axis_labels(table, "x")
    y_labels = _axis_labels(table, "y")
    if not by_config:  # rows are configs: name them as the legends do
        y_labels = [looks[c].label if c in looks else c for c in y_labels]
    width, height, nrows, ncols = _size(len(x_labels), y_labels, len(panels), by_config)
    fig = new_figure(width, height)
    axes = fig.subplots(nrows, ncols, squeeze=False, sharex=True, sharey=True).ravel()
    image = None
    for ax, config in zip(axes, panels, strict=False):
        sub = table if config is None else table[table["config"] == config]
        image = _panel(ax, sub, (len(y_labels), len(x_labels)), by_config)
        tilt = len(x_labels) > 12 and max(len(v) for v in x_labels) > 3
        ax.set_xticks(range(len(x_labels)), x_labels, rotation=90 if tilt else 0)
        ax.set_yticks(range(len(y_labels)), y_labels)
        if config is not None:
            ax.set_title(looks[config].label, fontsize=7.5, color=looks[config].colour)
    for ax in axes[len(panels):]:
        ax.set_visible(False)
    fig.colorbar(image, ax=axes[:len(panels)].tolist(), label="solved fraction of runs made",
                 shrink=0.9, aspect=25)
    fig.supxlabel(rung_axis if x_name == "rung" else pretty_param(x_name), fontsize=8)
    if by_config:
        fig.supylabel(pretty_param(y_name), fontsize=8)
    fig.suptitle(title, fontsize=8.5)
    return fig
