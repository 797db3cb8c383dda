"""The ladder plot: median time per rung, failures on the budget line, skipped runs apart.

Drawn from the ladder CSV (:func:`bench.views.figures._ladder_table`). An *ordered* ladder (its
rungs are values of one numeric parameter) puts each rung at its value and joins a config's
medians with a line; a categorical one (tree, tic-tac-toe, Nim) gives each rung a slot, sets the
configs side by side in it, and joins nothing. Above the plot, in order: the budget line with
the failed runs on it, the cliff triangles, and (when any run was skipped) a grey band holding
the skipped runs, each in its config's marker, hollow: a skipped run was never made, and is not
drawn as a failure.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from bench.views.figstyle import (
    Look,
    category_ticks,
    clip_width,
    finite_max,
    floats,
    legend_below,
    legend_rows,
    log_axis,
    new_figure,
    seconds,
)

#: How each failure group is marked on the budget line: (marker, size, filled, legend text).
FAILURE_MARKS: dict[str, tuple[str, float, bool, str]] = {
    "out_of_budget": ("x", 5.0, True, "timeout / memout"),
    "gave_up": ("o", 4.5, False, "unknown"),
    "failed": ("*", 6.0, True, "crash / error / wrong"),
}
#: Heights above the budget line (factors on the log axis): cliff row, skipped band, top.
CLIFF_ROW = 2.0
SKIP_BAND = (2.9, 5.6)
SKIP_ROW = 4.0
#: Share of a categorical rung's slot its configs spread over.
SLOT = 0.8


def _offsets(x: np.ndarray, count: int, ordered: bool) -> np.ndarray:
    """Each config's horizontal shift from its rung: a nudge on an ordered axis (so error bars do
    not hide each other), a side-by-side spread across the slot of a categorical rung."""
    if ordered:
        gaps = np.diff(np.unique(x))
        unit = float(gaps.min()) if len(gaps) else 1.0
        step = unit * min(0.06, 0.5 / count)
    else:
        step = SLOT / count
    return (np.arange(count) - (count - 1) / 2) * step


def _rows_of_marks(ax: Any, x: np.ndarray, sub: pd.DataFrame, look: Look, line: float) -> None:
    """One config's failures on the budget line, its cliff above, its skipped runs in the band."""
    for column, (shape, size, filled, _) in FAILURE_MARKS.items():
        hit = floats(sub[column]) > 0
        if hit.any():
            ax.plot(x[hit], np.full(hit.sum(), line), ls="", marker=shape, ms=size,
                    color=look.colour, mfc=look.colour if filled else "none", mew=0.9, zorder=4)
    cliff = sub["at_cliff"].to_numpy(bool)
    if cliff.any():
        ax.plot(x[cliff], np.full(cliff.sum(), line * CLIFF_ROW), ls="", marker="v", ms=5.5,
                color=look.colour, mec="black", mew=0.4, zorder=5)
    skipped = floats(sub["skipped"]) > 0
    if skipped.any():
        ax.plot(x[skipped], np.full(skipped.sum(), line * SKIP_ROW), ls="", marker=look.marker,
                ms=4.0, color=look.colour, mfc="none", mew=0.9, zorder=4)


def _medians(ax: Any, x: np.ndarray, sub: pd.DataFrame, look: Look, ordered: bool) -> Any:
    """One config's medians with IQR bars, joined by its line only on an ordered ladder."""
    median, low, high = (floats(sub[c]) for c in ("t_median", "t_q25", "t_q75"))
    spread = np.nan_to_num(np.clip(np.vstack([median - low, high - median]), 0, None))
    return ax.errorbar(x, median, yerr=spread, color=look.colour, marker=look.marker, ms=4,
                       ls=look.dash if ordered else "none", lw=1.2, elinewidth=0.8, capsize=1.8,
                       label=look.label, zorder=3)


def _mark_legend(table: pd.DataFrame, budget: float) -> list[Any]:
    """Legend entries for the budget line and each mark the plot holds."""
    label = f"budget ({seconds(budget)})" if math.isfinite(budget) else "failed (no budget known)"
    marks = [Line2D([], [], color="0.45", ls="--", lw=0.7, label=label)]
    marks += [Line2D([], [], ls="", marker=shape, ms=size, color="0.2",
                     mfc="0.2" if filled else "none", label=text)
              for column, (shape, size, filled, text) in FAILURE_MARKS.items()
              if (floats(table[column]) > 0).any()]
    if table["at_cliff"].any():
        marks.append(Line2D([], [], ls="", marker="v", ms=5.5, color="0.2", mec="black",
                            mew=0.4, label="cliff (< 1/2 solved)"))
    if (floats(table["skipped"]) > 0).any():
        marks.append(Line2D([], [], ls="", marker="s", ms=4, color="0.2", mfc="none",
                            label="skipped (not run)"))
    return marks


def _skip_band(ax: Any, line: float) -> None:
    """The grey band above the cliffs that holds the skipped runs, named at its left end."""
    ax.axhspan(line * SKIP_BAND[0], line * SKIP_BAND[1], color="0.93", lw=0, zorder=0)
    ax.text(0.005, line * SKIP_ROW, "skipped", transform=ax.get_yaxis_transform(),
            ha="left", va="center", fontsize=6.5, color="0.35", zorder=1)


def _x_axis(ax: Any, rungs: pd.DataFrame, ordered: bool, rung_axis: str) -> None:
    """Rung ticks and limits: values on an ordered axis, slots separated by rules otherwise."""
    x = rungs["x"].to_numpy(float)
    labels = [str(r) for r in rungs["rung"]]
    if ordered:  # a rung named otherwise than its value ('I1' at 50 steps) shows both
        labels = [r if r == f"{v:g}" else f"{r}\n{v:g}" for r, v in zip(labels, x, strict=True)]
    category_ticks(ax, labels, x)
    if ordered:
        pad = 0.06 * (x.max() - x.min())
        ax.set_xlim(x.min() - pad, x.max() + pad)
        ax.set_xlabel(rung_axis)
        return
    ax.set_xlim(-0.55, len(x) - 0.45)
    for boundary in np.arange(len(x) - 1) + 0.5:
        ax.axvline(boundary, color="0.85", lw=0.6, zorder=0)
    ax.set_xlabel("rung")


def draw_ladder(table: pd.DataFrame, looks: dict[str, Look], *, title: str,
                rung_axis: str) -> Figure:
    """Median time per rung with IQR bars (lines only on an ordered ladder); failures on the
    budget line, cliffs and the skipped band above it; one legend below the axes."""
    rungs = table[["rung_index", "rung", "x"]].drop_duplicates().sort_values("rung_index")
    ordered = bool(table["ordered"].iloc[0])
    configs = sorted(table["config"].unique())
    slot = 0.55 if ordered else max(0.7, 0.14 * len(configs) + 0.3)
    width = clip_width(max(1.6 + slot * len(rungs), 5.4 if ordered else 0.0))
    marks = _mark_legend(table, finite_max(table["budget_s"]))
    rows = legend_rows([[looks[c].label for c in configs], [m.get_label() for m in marks]],
                       width)
    fig = new_figure(width, 2.9 + 0.2 * rows)
    ax = fig.add_subplot()
    log_axis(ax, "y")
    times = np.concatenate([floats(table[c]) for c in ("t_median", "t_q25", "t_q75")])
    times = times[np.isfinite(times) & (times > 0)]
    budget = finite_max(table["budget_s"])
    line = budget if math.isfinite(budget) else (times.max() * 3 if len(times) else 1.0)
    offsets = _offsets(rungs["x"].to_numpy(float), len(configs), ordered)
    handles = []
    for offset, config in zip(offsets, configs, strict=True):
        sub = table[table["config"] == config].sort_values("rung_index")
        x = floats(sub["x"]) + offset
        handles.append(_medians(ax, x, sub, looks[config], ordered))
        _rows_of_marks(ax, x, sub, looks[config], line)
    ax.axhline(line, color="0.45", ls="--", lw=0.7, zorder=1)
    skipped = (floats(table["skipped"]) > 0).any()
    if skipped:
        _skip_band(ax, line)
    top = line * (SKIP_BAND[1] * 1.15 if skipped else CLIFF_ROW * 1.8)
    ax.set_ylim(times.min() / 2.5 if len(times) else line / 1e3, top)
    _x_axis(ax, rungs, ordered, rung_axis)
    ax.set_ylabel("wall time, s (median, IQR)")
    ax.set_title(title)
    legend_below(fig, [handles, marks])
    return fig
