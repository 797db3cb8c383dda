"""Node-count bars: one panel per group of configs whose counts are comparable.

Drawn from the nodes CSV (:func:`bench.views.figures._nodes_table`). Each panel (a paradigm and
backend: the IDA* searches, or minimax and alpha-beta) has its own log axis, its bar groups
(instances or rungs) in the CSV's natural order, and one bar per config of the panel. A hatched
bar includes a failed run (a lower bound); a slot where a config ran but has no bar says why:
``0`` (a zero count, which a log axis cannot show), ``skipped``, or ``no count``. Panels are
packed into rows no wider than :data:`bench.views.figstyle.MAX_WIDTH`, each panel as wide as its
bars need; one legend below names every config drawn.
"""

from __future__ import annotations

from typing import Any

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from bench.views.figstyle import (
    MAX_WIDTH,
    Look,
    category_ticks,
    clip_width,
    floats,
    legend_below,
    legend_rows,
    log_axis,
    new_figure,
    short_count,
)

ROW_HEIGHT = 2.2
BAR_WIDTH = 0.13
#: The narrowest slot a bar group gets (inches): room for a tick such as "15".
MIN_SLOT = 0.15
#: Inches a bar's count label ("1.43k", 5.5 pt) takes when written level.
COUNT_WIDTH = 0.24
#: Bars are labelled with their count while a panel holds at most this many.
LABELLED_BARS = 36
LOWER_BOUND = "hatched: a run failed (a lower bound)"


def _panel_width(panel: pd.DataFrame) -> float:
    """Inches a panel's bars want: a slot per bar group, a bar per config in it."""
    groups, configs = panel["position"].nunique(), panel["config"].nunique()
    return 0.6 + groups * max(MIN_SLOT, BAR_WIDTH * configs + 0.06)


def _pack(widths: list[float], room: float) -> list[list[int]]:
    """Panels (by index) into rows, in order, each row's wanted widths summing to at most room
    (a panel wider than room gets a row of its own)."""
    rows: list[list[int]] = []
    used = room
    for i, width in enumerate(widths):
        if used + width > room:
            rows.append([])
            used = 0.0
        rows[-1].append(i)
        used += width
    return rows


def _slot_note(ax: Any, x: float, row: Any) -> None:
    """Why a config's slot has no bar: a zero count, a skipped run, or no count at all."""
    if not pd.isna(row.nodes_median) and row.nodes_median == 0:
        text = "0"
    elif row.skipped == row.runs:
        text = "skipped"
    else:
        text = "no count"
    ax.text(x, 0.02, text, transform=ax.get_xaxis_transform(), ha="center", va="bottom",
            rotation=0 if text == "0" else 90, fontsize=6, color="0.35")


def _bars(ax: Any, sub: pd.DataFrame, look: Look, offset: float, width: float,
          by_instance: bool, labelled: bool, rotate: bool) -> None:
    """One config's bars in a panel: hatched where a run failed, labelled with their count."""
    x = floats(sub["position"]) + offset
    height = floats(sub["nodes_median"])
    drawn = np.isfinite(height) & (height > 0)
    whiskers = None if by_instance else np.nan_to_num(np.clip(np.vstack(
        [height - floats(sub["nodes_q25"]), floats(sub["nodes_q75"]) - height]), 0, None))
    bars = ax.bar(x[drawn], height[drawn], width * 0.92, color=look.colour,
                  yerr=None if whiskers is None else whiskers[:, drawn],
                  error_kw={"elinewidth": 0.6, "capsize": 1.2, "ecolor": "0.25"})
    complete = sub["all_solved"].to_numpy(bool)[drawn]
    for patch, whole in zip(bars.patches, complete, strict=True):
        if not whole:
            patch.set_facecolor(matplotlib.colors.to_rgba(look.colour, 0.3))
            patch.set_edgecolor(look.colour)
            patch.set_hatch("////")
    if labelled:  # above the bar, or above its whisker when it has one
        tops = height if whiskers is None else np.fmax(height, floats(sub["nodes_q75"]))
        for xi, h, top in zip(x[drawn], height[drawn], tops[drawn], strict=True):
            ax.annotate(short_count(h), (xi, top), xytext=(0, 1.5), textcoords="offset points",
                        ha="center", va="bottom", fontsize=5.5, rotation=90 if rotate else 0)
    for xi, row in zip(x[~drawn], sub[~drawn].itertuples(index=False), strict=True):
        _slot_note(ax, xi, row)


def _ticks(ax: Any, panel: pd.DataFrame, width: float, by_instance: bool) -> None:
    """Bar-group ticks; per instance, the rungs' labels on a second row, centred under their
    instances, rungs parted by rules."""
    ticks = panel[["position", "tick", "rung"]].drop_duplicates("position").sort_values(
        "position")
    positions = ticks["position"].to_numpy(float)
    depth = category_ticks(ax, ticks["tick"].tolist(), positions, width)
    ax.set_xlim(-0.6, len(ticks) - 0.4)
    if not by_instance:
        return
    spans = ticks.groupby("rung", sort=False)["position"].agg(["min", "max"])
    ax.xaxis.remove_overlapping_locs = False  # a rung's centre may sit on an instance's tick
    ax.set_xticks(((spans["min"] + spans["max"]) / 2).tolist(), spans.index.astype(str).tolist(),
                  minor=True)
    ax.tick_params(axis="x", which="minor", length=0, pad=7 + depth)
    if len(spans) < len(ticks):  # some rung holds several instances: part the rungs
        for boundary in spans["max"].to_numpy(float)[:-1] + 0.5:
            ax.axvline(boundary, color="0.8", lw=0.6, zorder=0)


def _panel(ax: Any, panel: pd.DataFrame, looks: dict[str, Look], width: float,
           rung_axis: str) -> None:
    """One panel: bar groups along x, a bar per config, its own log axis."""
    by_instance = panel["group_by"].iloc[0] == "instance"
    configs = sorted(panel["config"].unique())
    bar = 0.8 / len(configs)
    groups = panel["position"].nunique()
    labelled = groups * len(configs) <= LABELLED_BARS
    level = 0.8 * (width - 0.6) / max(groups * len(configs), 1) >= COUNT_WIDTH
    log_axis(ax, "y")
    for i, config in enumerate(configs):
        sub = panel[panel["config"] == config]
        _bars(ax, sub, looks[config], (i - (len(configs) - 1) / 2) * bar, bar, by_instance,
              labelled, rotate=not level)
    _ticks(ax, panel, width, by_instance)
    if not by_instance:
        ax.set_xlabel(rung_axis)
    ax.margins(y=0.15)
    ax.set_title(str(panel["panel_title"].iloc[0]), fontsize=7.5)


def draw_nodes(table: pd.DataFrame, looks: dict[str, Look], *, title: str,
               rung_axis: str) -> Figure:
    """Grouped bars of median node counts, one log-scale panel per comparable group."""
    panels = [sub for _, sub in table.groupby("panel_index", sort=True)]
    wanted = [_panel_width(p) for p in panels]
    rows = _pack(wanted, MAX_WIDTH - 0.2)
    width = clip_width(max(sum(wanted[i] for i in row) for row in rows) + 0.3)
    configs = sorted(table["config"].unique())
    labels = [[looks[c].label for c in configs], [LOWER_BOUND]]
    fig = new_figure(width, ROW_HEIGHT * len(rows) + 0.45 + 0.2 * legend_rows(labels, width))
    bands = fig.subfigures(len(rows), 1, squeeze=False).ravel()
    widest = max(sum(wanted[i] for i in row) for row in rows)
    for band, row in zip(bands, rows, strict=True):
        ratios = [wanted[i] for i in row]
        spare = widest - sum(ratios)  # a short row keeps its panels' widths, not stretched
        axes = band.subplots(1, len(row) + (spare > 0.3), squeeze=False,
                             width_ratios=ratios + ([spare] if spare > 0.3 else [])).ravel()
        if spare > 0.3:
            axes[-1].set_visible(False)
        for ax, i in zip(axes, row, strict=False):
            _panel(ax, panels[i], looks, (width - 0.3) * wanted[i] / widest, rung_axis)
        axes[0].set_ylabel("work_nodes (median" + (")" if table["group_by"].iloc[0] ==
                                                    "instance" else ", IQR)"))
    handles = [Patch(color=looks[c].colour, label=looks[c].label) for c in configs]
    partial = ~table["all_solved"].to_numpy(bool) & (floats(table["nodes_median"]) > 0)
    hatch = [Patch(facecolor="white", edgecolor="0.3", hatch="////", label=LOWER_BOUND)]
    legend_below(fig, [handles, hatch if partial.any() else []])
    fig.suptitle(title, fontsize=8.5)
    return fig
