"""The ladder plot: median time per rung, failures on the budget line, skipped runs apart.

Drawn from the ladder CSV (:func:`bench.views.figures._ladder_table`). An *ordered* ladder (its
rungs are values of one numeric parameter) puts each rung at its value and joins a config's
medians with a line; a categorical one (tree, tic-tac-toe, Nim) gives each rung a slot, sets the
configs side by side in it, and joins nothing. Above the plot, in order: the budget line with
the failed runs on it, the cliff triangles, and (when any run was skipped) a grey band holding
the skipped runs, each in its config's marker, hollow: a skipped run was never made, and is not
drawn as a failure.

Below the times, a second panel on the same x axis: each config's solved fraction per rung
(successes / runs, skipped runs counting as unsolved) with its 95% Wilson interval as error
bars, and the config's fitted cliff (the 50% crossing of the report's logistic fit) as a
diamond on the one-half line with its 95% bootstrap interval as a horizontal error bar; an
end of the interval that lies outside the ladder runs to the edge of the axis and ends in an
arrow head, and a crossing outside the ladder is not drawn.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from bench.stats import confidence
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


def _fractions(ax: Any, x: np.ndarray, sub: pd.DataFrame, look: Look, ordered: bool) -> None:
    """One config's solved fraction per rung with its Wilson interval."""
    runs = floats(sub["runs"])
    with np.errstate(invalid="ignore", divide="ignore"):
        fraction = floats(sub["solved"]) / runs
    low, high = floats(sub["solved_low"]), floats(sub["solved_high"])
    spread = np.nan_to_num(np.clip(np.vstack([fraction - low, high - fraction]), 0, None))
    ax.errorbar(x, fraction, yerr=spread, color=look.colour, marker=look.marker, ms=3,
                ls=look.dash if ordered else "none", lw=0.9, elinewidth=0.7, capsize=1.5,
                zorder=3)


def _fitted_cliff(ax: Any, sub: pd.DataFrame, look: Look, offset: float,
                  edges: tuple[float, float]) -> None:
    """One config's fitted cliff on the one-half line, its interval a horizontal bar (an end
    outside the ladder drawn to the axis edge on that end's side, with an arrow head); nothing
    when the crossing itself lies outside the ladder. ``sub``: the config's rungs in order."""
    row = sub.iloc[0]
    point = float(row["fit_x"]) if pd.notna(row["fit_x"]) else math.nan
    if not math.isfinite(point):
        return
    y = 0.5 + offset
    # the first rung's side of the axis: the left unless the x positions fall along the
    # ladder (a falling ladder, clues, drawn on an index axis)
    first, last = floats(sub["x"])[[0, -1]]
    before, after = edges if first <= last else edges[::-1]
    ends = []
    for column, where in (("fit_x_low", "fit_low_where"), ("fit_x_high", "fit_high_where")):
        value, side = row[column], row[where]
        open_end = pd.isna(value) and isinstance(side, str) and side != confidence.WITHIN
        edge = before if side == confidence.BELOW else after
        ends.append((edge if open_end else float(value) if pd.notna(value) else point,
                     open_end))
    (low, low_open), (high, high_open) = sorted(ends)
    ax.errorbar([point], [y], xerr=[[max(point - low, 0)], [max(high - point, 0)]], ls="",
                marker="D", ms=3.6, color=look.colour, mec="black", mew=0.4, elinewidth=1.0,
                capsize=0 if (low_open or high_open) else 2.0, zorder=5)
    for end, is_open, shape in ((low, low_open, "<"), (high, high_open, ">")):
        if is_open:
            ax.plot([end], [y], ls="", marker=shape, ms=3.5, color=look.colour, zorder=5)


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
    if "fit_x" in table and table["fit_x"].notna().any():
        marks.append(Line2D([], [], ls="-", lw=1.0, marker="D", ms=3.6, color="0.2",
                            mec="black", mew=0.4, label="fitted cliff, 95% interval"))
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
    fig = new_figure(width, 4.1 + 0.2 * rows)
    grid = fig.add_gridspec(2, 1, height_ratios=[2.6, 1.2])
    ax = fig.add_subplot(grid[0])
    below = fig.add_subplot(grid[1], sharex=ax)
    log_axis(ax, "y")
    times = np.concatenate([floats(table[c]) for c in ("t_median", "t_q25", "t_q75")])
    times = times[np.isfinite(times) & (times > 0)]
    budget = finite_max(table["budget_s"])
    line = budget if math.isfinite(budget) else (times.max() * 3 if len(times) else 1.0)
    offsets = _offsets(rungs["x"].to_numpy(float), len(configs), ordered)
    handles = []
    _x_axis(below, rungs, ordered, rung_axis)
    edges = below.get_xlim()
    y_shifts = (np.arange(len(configs)) - (len(configs) - 1) / 2) * min(0.015, 0.12 / len(configs))
    for offset, shift, config in zip(offsets, y_shifts, configs, strict=True):
        sub = table[table["config"] == config].sort_values("rung_index")
        x = floats(sub["x"]) + offset
        handles.append(_medians(ax, x, sub, looks[config], ordered))
        _rows_of_marks(ax, x, sub, looks[config], line)
        _fractions(below, x, sub, looks[config], ordered)
        if "fit_x" in sub:
            _fitted_cliff(below, sub, looks[config], float(shift), edges)
    ax.axhline(line, color="0.45", ls="--", lw=0.7, zorder=1)
    skipped = (floats(table["skipped"]) > 0).any()
    if skipped:
        _skip_band(ax, line)
    top = line * (SKIP_BAND[1] * 1.15 if skipped else CLIFF_ROW * 1.8)
    ax.set_ylim(times.min() / 2.5 if len(times) else line / 1e3, top)
    ax.tick_params(labelbottom=False)
    ax.set_xlabel("")
    below.axhline(0.5, color="0.6", ls=":", lw=0.7, zorder=1)
    below.set_ylim(-0.05, 1.05)
    below.set_yticks([0, 0.5, 1])
    below.set_ylabel("solved\n(95% Wilson)")
    ax.set_ylabel("wall time, s (median, IQR)")
    ax.set_title(title)
    legend_below(fig, [handles, marks])
    return fig
