"""Survival plots: the empirical survival function of run time (and of work) on one rung.

For a rung where a config made many runs (seeds of one instance spec, or many instances),
P(T > t), the fraction of the config's runs not solved within t, against t on log-log axes:
one step line per config, every config of the rung on the same axes, as Gomes, Selman, Crato
and Kautz (JAR 2000) drew the tails of backtracking run times. A power-law tail
(P(T > t) ~ t^-alpha, a heavy tail) is a straight line on these axes; an exponential tail
bends down. A second panel does the same for ``work_nodes`` when some config counts nodes.

:func:`survival_points` computes one curve: with ``runs`` runs of which the solved ones took
``x_1 <= ... <= x_k`` and the other ``f = runs - k`` failed (timeout, memout, unknown, crash,
error, wrong), a failure counts as unsolved at every t, i.e. censored at ``end`` (the budget for
time; for work, the largest count a run reached before the budget cut it). So
``S(x) = (#{i: x_i > x} + f) / runs``: the curve starts at 1, steps down at each distinct
solved value, and ends at ``end`` at ``f / runs``, above 0, when a run failed. The rows of the
survival CSV (:func:`bench.views.figures._survival_tables`) are those corners; :func:`draw_survival`
draws them. A log axis has no 0: a curve that reaches 0 (every run solved) is drawn up to its
last solved value at its last positive level. Each legend entry ends with the config's tail
index alpha (:func:`bench.views.tails.tail_fit`: minus the slope of the curve's slower half on
these axes) where that half holds enough points.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from bench.views import tails
from bench.views.figstyle import (
    Look,
    clip_width,
    finite_max,
    floats,
    legend_below,
    legend_rows,
    log_axis,
    new_figure,
)

#: A rung gets a survival figure when a config made at least this many runs on it (skipped
#: runs not counted); configs with fewer runs there are left out of its figure.
MIN_RUNS = tails.MIN_RUNS
#: The metrics, in panel order: CSV value -> (x label, y label).
METRICS: dict[str, tuple[str, str]] = {
    "time": ("wall time t (s)", "P(T > t): fraction of runs unsolved"),
    "work": ("work w (work_nodes)", "P(W > w)"),
}
PANEL_WIDTH = 3.3
HEIGHT = 2.9
_POINT_ORDER = {"start": 0, "step": 1, "end": 2}


def survival_points(solved: np.ndarray, runs: int, end: float) -> pd.DataFrame:
    """The corners of one empirical survival curve: columns ``point`` (``start``, ``step``,
    ``end``), ``x`` and ``survival`` = P(X > x).

    ``solved`` holds the values (seconds or nodes) of the solved runs; the other ``runs -
    len(solved)`` runs failed and count as unsolved up to ``end`` (the ``end`` row, present
    only when a run failed, sits at ``max(end, largest solved value)``). ``start`` is
    (smallest solved value, 1.0); each ``step`` is a distinct solved value with the fraction of
    runs above it (the failures included)."""
    values = np.sort(np.asarray(solved, dtype=float))
    failed = runs - len(values)
    if runs <= 0 or failed < 0:
        raise ValueError(f"{len(values)} solved runs of {runs}")
    distinct, counts = np.unique(values, return_counts=True)
    above = runs - np.cumsum(counts)
    points = ["start"] * bool(len(distinct)) + ["step"] * len(distinct)
    xs = [*distinct[:1], *distinct]
    ys = [1.0] * bool(len(distinct)) + list(above / runs)
    if failed:
        points.append("end")
        xs.append(max(float(end), float(distinct[-1])) if len(distinct) else float(end))
        ys.append(failed / runs)
    return pd.DataFrame({"point": points, "x": np.asarray(xs, dtype=float),
                         "survival": np.asarray(ys, dtype=float)})


def _curve(sub: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """A config's step corners in drawing order, a final 0 replaced by the level before it."""
    order = sub.assign(_rank=sub["point"].map(_POINT_ORDER)).sort_values(
        ["x", "_rank"], kind="stable")
    xs, ys = floats(order["x"]), floats(order["survival"]).copy()
    for i in range(1, len(ys)):
        if ys[i] <= 0:
            ys[i] = ys[i - 1]
    return xs, ys


def _entry(look: Look, sub: pd.DataFrame) -> str:
    """A config's legend text: its label, how many of its runs were solved, and its tail index
    where the tail could be fitted (bench/views/tails.py)."""
    first = sub.iloc[0]
    text = f"{look.label}: {int(first['solved'])}/{int(first['runs'])} solved"
    alpha = first.get("tail_alpha", math.nan)
    if isinstance(alpha, float | int) and math.isfinite(alpha):
        text += f", tail \u03b1 {alpha:.2g}"
    return text


def _panel(ax: Any, table: pd.DataFrame, looks: dict[str, Look], metric: str) -> list[Any]:
    """The step lines of one metric, a hollow marker where a curve is censored; the handles."""
    handles = []
    for config in sorted(table["config"].unique()):
        sub = table[table["config"] == config]
        look = looks[config]
        xs, ys = _curve(sub)
        style = {"color": look.colour, "ls": look.dash, "label": _entry(look, sub)}
        if len(xs) > 1:
            every = max(1, len(xs) // 6)
            handle, = ax.step(xs, ys, where="post", marker=look.marker, ms=3.0,
                              markevery=(1, every), **style)
        else:
            handle = Line2D([], [], marker=look.marker, ms=3.0, **style)
        handles.append(handle)
        ends = sub[sub["point"] == "end"]
        if len(ends):
            ax.plot(floats(ends["x"]), floats(ends["survival"]), ls="", marker=look.marker,
                    ms=5, mfc="white", mec=look.colour, mew=1.0)
    log_axis(ax, "x")
    log_axis(ax, "y")
    x_label, y_label = METRICS[metric]
    ax.set_xlabel(x_label)
    ax.set_ylabel(y_label)
    return handles


def draw_survival(table: pd.DataFrame, looks: dict[str, Look], *, title: str,
                  rung_axis: str) -> Figure:
    """P(X > x) against x, log-log, one step line per config: run time, then work when some
    config counts nodes; the budget dashed on the time panel."""
    metrics = [m for m in METRICS if (table["metric"] == m).any()]
    time = table[table["metric"] == "time"]
    labels = [_entry(looks[c], time[time["config"] == c]) for c in sorted(time["config"].unique())]
    width = clip_width(PANEL_WIDTH * len(metrics) + 0.3)
    fig = new_figure(width, HEIGHT + 0.2 * legend_rows([labels], width))
    axes = fig.subplots(1, len(metrics), sharey=True, squeeze=False).ravel()
    runs = max(int(finite_max(table["runs"])), 1)
    handles: list[Any] = []
    for ax, metric in zip(axes, metrics, strict=True):
        rows = table[table["metric"] == metric]
        drawn = _panel(ax, rows, looks, metric)
        handles = handles or drawn
        xs = floats(rows["x"])
        xs = xs[np.isfinite(xs) & (xs > 0)]
        if len(xs):
            ax.set_xlim(xs.min() / 1.6, xs.max() * 1.6)
        if metric == "time":
            budget = finite_max(rows["budget_s"])
            if np.isfinite(budget):
                ax.axvline(budget, color="0.45", ls="--", lw=0.7)
                ax.set_xlabel(METRICS[metric][0] + " (dashed: the budget)")
        if len(metrics) > 1:
            ax.set_title("run time" if metric == "time" else "work", fontsize=7.5)
        if ax is not axes[0]:
            ax.set_ylabel("")
    axes[0].set_ylim(0.6 / runs, 1.35)
    legend_below(fig, [handles])
    fig.suptitle(title, fontsize=8.5)
    return fig
