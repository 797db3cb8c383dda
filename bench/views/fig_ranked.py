"""Ranked-time plots: the cactus plot and Dolan-More performance profiles.

Both draw, per config, a step line through its ranked points (from the cactus or profile CSV,
:mod:`bench.views.figures`), and name each config in a legend below the axes with how many instances
it solved and, apart, how many it skipped or does not take (such an instance was never
attempted; it is not a failure, though it is not solved either).
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
    finite_max,
    floats,
    legend_below,
    legend_rows,
    log_axis,
    new_figure,
)

WIDTH = 5.6
HEIGHT = 3.0


def _entry(look: Look, sub: pd.DataFrame, reached: float, total: float) -> str:
    """A config's legend text: its label, solved of total, and the instances it skipped or
    never ran."""
    notes = [f"{reached:.0f}/{total:.0f}"]
    for column, text in (("skipped", "skipped"), ("not_run", "not run")):
        count = int(sub[column].iloc[0]) if column in sub and len(sub) else 0
        if count:
            notes.append(f"{count} {text}")
    return f"{look.label}: {', '.join(notes)}"


def _ranked_lines(ax: Any, table: pd.DataFrame, looks: dict[str, Look], x_column: str,
                  y_column: str, start: float, stop: float, total: float,
                  scale: float) -> list[Any]:
    """Step lines of a cactus or profile: from (start, 0) through the ranked points to stop."""
    handles = []
    for config in sorted(table["config"].unique()):
        sub = table[table["config"] == config]
        x, y = floats(sub[x_column]), floats(sub[y_column])
        keep = np.isfinite(x)
        x, y = x[keep], y[keep]
        look = looks[config]
        text = _entry(look, sub, (y[-1] if len(y) else 0.0) * scale, total)
        style = {"color": look.colour, "marker": look.marker, "ms": 3.5, "ls": look.dash,
                 "label": text}
        if len(x):
            xs = np.concatenate([[min(start, x[0])], x, [max(stop, x[-1])]])
            ys = np.concatenate([[0.0], y, [y[-1]]])
            every = max(1, len(xs) // 6)
            handle, = ax.step(xs, ys, where="post", markevery=(1, every), **style)
        else:
            handle = Line2D([], [], **style)
        handles.append(handle)
    return handles


def _figure(table: pd.DataFrame, looks: dict[str, Look]) -> tuple[Figure, Any]:
    """A one-axes figure tall enough for a legend of the table's configs below it."""
    labels = [_entry(looks[c], table[table["config"] == c], 99, 99)
              for c in table["config"].unique()]
    fig = new_figure(WIDTH, HEIGHT + 0.2 * legend_rows([labels], WIDTH))
    return fig, fig.add_subplot()


def draw_cactus(table: pd.DataFrame, looks: dict[str, Look], *, title: str,
                rung_axis: str) -> Figure:
    """Instances solved (y) against wall time (x, log), one step line per config."""
    fig, ax = _figure(table, looks)
    log_axis(ax, "x")
    total = float(table["instances"].iloc[0])
    budget = finite_max(table["budget_s"])
    times = floats(table["seconds"])
    times = times[np.isfinite(times)]
    start = times.min() if len(times) else 1.0
    stop = budget if math.isfinite(budget) else (times.max() if len(times) else 1.0)
    handles = _ranked_lines(ax, table, looks, "seconds", "solved", start, stop, total, 1.0)
    ax.axhline(total, color="0.45", ls=":", lw=0.7)
    if math.isfinite(budget):
        ax.axvline(budget, color="0.45", ls="--", lw=0.7)
    ax.set_ylim(0, total * 1.05)
    ax.set_xlabel("wall time (s)" + (" (dashed: the budget)" if math.isfinite(budget) else ""))
    ax.set_ylabel(f"instances solved (of {total:.0f})")
    ax.set_title(title)
    legend_below(fig, [handles])
    return fig


def draw_profile(table: pd.DataFrame, looks: dict[str, Look], *, title: str,
                 rung_axis: str) -> Figure:
    """Dolan-More profiles: fraction of instances within tau of the best, log tau axis."""
    fig, ax = _figure(table, looks)
    log_axis(ax, "x")
    taus = floats(table["tau"])
    taus = taus[np.isfinite(taus)]
    stop = max(2.0, taus.max() * 1.5) if len(taus) else 2.0
    total = float(table["instances"].iloc[0])
    handles = _ranked_lines(ax, table, looks, "tau", "fraction", 1.0, stop, total, total)
    ax.set_xlim(1.0, stop)
    ax.set_ylim(0, 1.03)
    ax.set_xlabel("\u03c4 (time / best config's time on the instance)")
    ax.set_ylabel("fraction of instances within \u03c4")
    ax.set_title(title)
    legend_below(fig, [handles])
    return fig
