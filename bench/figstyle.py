"""The look of cliffbench's figures, and how they are written so that reruns give the same bytes.

Kept apart from :mod:`bench.figures` (which decides *what* is drawn) so that every figure shares
one style, one palette and one way of saving:

- :data:`STYLE` is a small rc dict; :func:`styled` applies it on top of matplotlib's defaults in
  a context manager, so neither the caller's rcParams leak into a figure nor ours into the
  caller's session.
- :func:`palette` maps a sweep's sorted config labels to fixed colours and markers, so a config
  keeps its colour in every figure of a sweep (and the same label set gives the same colours).
- :func:`save` writes a figure through the Agg/PDF/SVG canvases with metadata stripped of dates
  and version strings, so the same table gives byte-identical files.
- :func:`markdown_table` and :func:`latex_table` render the solved/PAR-2 tables.
"""

from __future__ import annotations

import contextlib
import math
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import LogFormatterSciNotation

from bench.report import fmt_time

#: The one style of every figure (applied over matplotlib's defaults by :func:`styled`).
STYLE: dict[str, Any] = {
    "font.family": "DejaVu Sans",
    "font.size": 8,
    "axes.titlesize": 8.5,
    "axes.labelsize": 8,
    "xtick.labelsize": 7,
    "ytick.labelsize": 7,
    "legend.fontsize": 7,
    "legend.frameon": False,
    "axes.grid": True,
    "grid.linewidth": 0.4,
    "grid.alpha": 0.35,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.linewidth": 0.6,
    "lines.linewidth": 1.2,
    "lines.markersize": 4,
    "image.cmap": "viridis",
    "text.usetex": False,
    "figure.dpi": 100,
    "savefig.dpi": 200,
    "pdf.fonttype": 42,  # TrueType, not Type 3: what publishers' checkers ask for
    "ps.fonttype": 42,
    "pdf.compression": 6,
    "hatch.linewidth": 0.6,
    "svg.hashsalt": "cliffbench",  # SVG element ids from a fixed salt, not a random one
    "svg.fonttype": "path",
}

#: Config colours, in the order sorted config labels take them: Okabe-Ito first (readable by
#: colour-blind readers; its yellow is too pale on white), then tab20 shades for big sweeps.
COLOURS: tuple[str, ...] = (
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
    "#d62728", "#9467bd", "#8c564b", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939",
    "#843c39", "#7b4173", "#e377c2", "#aec7e8", "#ff9896",
)
#: Markers cycle with a different period than colours, so no two configs share both.
MARKERS: tuple[str, ...] = ("o", "s", "^", "D", "v", "P", "X", "<", ">", "p", "h", "*")
#: Saving formats :func:`save` knows.
FIGURE_FORMATS = ("pdf", "png", "svg")
# Metadata that would otherwise carry dates or version strings into the files.
_METADATA: dict[str, dict[str, Any]] = {
    "pdf": {"Creator": None, "Producer": None, "CreationDate": None, "ModDate": None},
    "png": {"Software": None},
    "svg": {"Creator": None, "Date": None},
}


@contextlib.contextmanager
def styled() -> Iterator[None]:
    """Apply :data:`STYLE` over matplotlib's defaults for the duration of the block."""
    with matplotlib.rc_context():
        matplotlib.rcdefaults()
        matplotlib.rcParams.update(STYLE)
        yield


def new_figure(width: float, height: float) -> Figure:
    """A figure on the Agg canvas (never pyplot: no global figure manager, no GUI backend),
    laid out by matplotlib's constrained layout (deterministic, and it makes room for legends
    and colour bars)."""
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def save(fig: Figure, stem: Path, formats: Sequence[str]) -> list[Path]:
    """Write ``stem.<fmt>`` for each format, with dates and versions left out of the metadata."""
    written = []
    for fmt in formats:
        target = stem.with_name(f"{stem.name}.{fmt}")
        fig.savefig(target, format=fmt, metadata=_METADATA[fmt])
        written.append(target)
    return written


def palette(labels: Sequence[str]) -> dict[str, tuple[str, str]]:
    """Config label -> (colour, marker), assigned in sorted label order."""
    ordered = sorted(set(labels))
    return {label: (COLOURS[i % len(COLOURS)], MARKERS[i % len(MARKERS)])
            for i, label in enumerate(ordered)}


def slug(text: str) -> str:
    """A file-name-safe form of a sweep, ladder or family name (stable, lower-risk characters)."""
    cleaned = re.sub(r"[^A-Za-z0-9._+-]+", "-", str(text)).strip("-.")
    return cleaned or "x"


def short_count(value: float) -> str:
    """A node count as it fits above a bar: 653, 65.6k, 20.0M."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    for limit, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= limit:
            return f"{value / limit:.3g}{suffix}"
    return f"{value:.0f}"


# --------------------------------------------------------------------------------------------
# Tables


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[str]],
                   right: Sequence[bool]) -> str:
    """A padded pipe table (readable as plain text), numeric columns right-aligned."""
    widths = [max(3, len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(c.rjust(w) if r else c.ljust(w)
                                 for c, w, r in zip(cells, widths, right, strict=True)) + " |"

    rule = ["-" * (w - 1) + ":" if r else "-" * w for w, r in zip(widths, right, strict=True)]
    return "\n".join([line(headers), line(rule), *(line(r) for r in rows)])


_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
                  "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                  "^": r"\textasciicircum{}"}


def latex_escape(text: str) -> str:
    """Text safe inside a LaTeX table cell."""
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in str(text))


def latex_table(headers: Sequence[str], rows: Sequence[Sequence[str]], right: Sequence[bool],
                caption: str, rules_before: Sequence[int] = ()) -> str:
    """A booktabs ``tabular`` (with a caption comment) ready to ``\\input`` into a paper.

    ``rules_before`` lists row positions preceded by a ``\\midrule`` (e.g. the virtual best row).
    """
    spec = "".join("r" if r else "l" for r in right)
    body = [" & ".join(latex_escape(h) for h in headers) + r" \\", r"\midrule"]
    for i, row in enumerate(rows):
        if i in rules_before:
            body.append(r"\midrule")
        body.append(" & ".join(latex_escape(c) for c in row) + r" \\")
    return "\n".join([f"% {caption}", rf"\begin{{tabular}}{{{spec}}}", r"\toprule", *body,
                      r"\bottomrule", r"\end{tabular}"])


# --------------------------------------------------------------------------------------------
# Drawing: each function draws one kind from the table its CSV holds (see bench.figures)


_SUPERSCRIPT = str.maketrans("-0123456789", "\u207b\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076"
                             "\u2077\u2078\u2079")


class PlainLogFormatter(LogFormatterSciNotation):
    """Log-axis labels as plain text (10\u207b\u00b3, 2\u00d710\u00b9): matplotlib's choice of which
    ticks to label, without mathtext, whose parser costs a tenth of a second per label."""

    def __call__(self, x: float, pos: int | None = None) -> str:
        text = super().__call__(x, pos)
        if not text.startswith("$"):
            return text
        body = text.removeprefix("$\\mathdefault{").removesuffix("}$").replace("\\times", "\u00d7")
        return re.sub(r"\^\{(-?\d+)\}", lambda m: m.group(1).translate(_SUPERSCRIPT), body)


def log_axis(ax: Any, which: str) -> None:
    """Put the ``x`` or ``y`` axis of ``ax`` on a log scale with plain-text labels."""
    getattr(ax, f"set_{which}scale")("log")
    axis = ax.xaxis if which == "x" else ax.yaxis
    axis.set_major_formatter(PlainLogFormatter())
    axis.set_minor_formatter(PlainLogFormatter(labelOnlyBase=False))


def _floats(column: pd.Series) -> np.ndarray:
    """A column as float64, NA as NaN (nullable dtypes refuse a plain ``to_numpy(float)``)."""
    return pd.to_numeric(column, errors="coerce").astype(float).to_numpy()


def _finite_max(column: pd.Series) -> float:
    values = _floats(column)
    values = values[np.isfinite(values)]
    return float(values.max()) if len(values) else math.nan


def legend_width(labels: Any, extra: int = 0) -> float:
    """Inches a legend of these labels takes at the style's 7 pt (extra: characters appended,
    such as a cactus's " (12/20)"): the figure is widened by it, so the axes keep their size."""
    longest = max((len(str(label)) for label in labels), default=0) + extra
    return 0.5 + 0.056 * longest


def _config_legend(ax: Any, handles: list[Any], *, title: str | None = None) -> Any:
    """The configs' legend, outside the axes on the right (labels can be long)."""
    return ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0),
                     title=title, borderaxespad=0.0, handlelength=1.8)


def _rung_ticks(ax: Any, labels: list[str]) -> None:
    """Rung labels on the x axis, tilted when they would not fit side by side."""
    long = sum(len(str(s)) for s in labels) > 6 * max(len(labels), 1) or len(labels) > 16
    ax.set_xticks(range(len(labels)), [str(s) for s in labels],
                  rotation=35 if long else 0, ha="right" if long else "center")
    ax.set_xlim(-0.6, len(labels) - 0.4)
    ax.grid(axis="x", visible=False)


#: How each failure group of a ladder plot is marked on the budget line.
_FAILURE_MARKS: dict[str, tuple[str, float, bool, str]] = {
    "out_of_budget": ("x", 5.0, True, "timeout / memout"),
    "gave_up": ("o", 4.5, False, "unknown (gave up)"),
    "failed": ("*", 6.0, True, "crash / error / wrong"),
    "skipped": (".", 4.0, True, "skipped (ladder stopped)"),
}


def draw_ladder(table: pd.DataFrame, colours: dict[str, tuple[str, str]], *, title: str,
                rung_param: str) -> Figure:
    """Median time per rung with IQR bars; failures on the budget line; cliffs flagged above."""
    rungs = table[["rung_index", "rung"]].drop_duplicates().sort_values("rung_index")
    position = {r: i for i, r in enumerate(rungs["rung_index"])}
    configs = sorted(table["config"].unique())
    fig = new_figure(max(3.4, 0.4 * len(rungs) + 1.4) + legend_width(configs, 10), 3.0)
    ax = fig.add_subplot()
    log_axis(ax, "y")
    times = np.concatenate([_floats(table[c]) for c in ("t_median", "t_q25", "t_q75")])
    times = times[np.isfinite(times) & (times > 0)]
    budget = _finite_max(table["budget_s"])
    line = budget if math.isfinite(budget) else (times.max() * 3 if len(times) else 1.0)
    flag = line * 2.2
    step = min(0.09, 0.6 / len(configs))
    handles = []
    for i, config in enumerate(configs):
        sub = table[table["config"] == config]
        x = sub["rung_index"].map(position).to_numpy(float) + (i - (len(configs) - 1) / 2) * step
        median, low, high = (_floats(sub[c]) for c in ("t_median", "t_q25", "t_q75"))
        spread = np.nan_to_num(np.clip(np.vstack([median - low, high - median]), 0, None))
        colour, marker = colours[config]
        handles.append(ax.errorbar(x, median, yerr=spread, color=colour, marker=marker, ms=3.5,
                                   lw=1.1, elinewidth=0.7, capsize=1.5, label=config, zorder=3))
        for column, (shape, size, filled, _) in _FAILURE_MARKS.items():
            hit = _floats(sub[column]) > 0
            if hit.any():
                ax.plot(x[hit], np.full(hit.sum(), line), ls="", marker=shape, ms=size,
                        color=colour, mfc=colour if filled else "none", mew=0.9, zorder=4)
        cliff = sub["at_cliff"].to_numpy(bool)
        if cliff.any():
            ax.plot(x[cliff], np.full(cliff.sum(), flag), ls="", marker="v", ms=5.5, color=colour,
                    mec="black", mew=0.4, zorder=5)
    ax.axhline(line, color="0.45", ls="--", lw=0.7, zorder=1)
    ax.set_ylim(times.min() / 2.5 if len(times) else line / 1e3, flag * 1.9)
    _rung_ticks(ax, rungs["rung"].tolist())
    ax.set_xlabel(rung_param)
    ax.set_ylabel("wall time, s (median and IQR of solved runs)")
    ax.set_title(title)
    _config_legend(ax, handles)
    label = f"budget ({_seconds(budget)})" if math.isfinite(budget) else "failed (no budget known)"
    marks = [Line2D([], [], color="0.45", ls="--", lw=0.7, label=label)]
    marks += [Line2D([], [], ls="", marker=shape, ms=size, color="0.2",
                    mfc="0.2" if filled else "none", label=text)
             for column, (shape, size, filled, text) in _FAILURE_MARKS.items()
             if (_floats(table[column]) > 0).any()]
    if table["at_cliff"].any():
        marks.append(Line2D([], [], ls="", marker="v", ms=5.5, color="0.2", mec="black",
                            mew=0.4, label="cliff (first rung solved < 1/2)"))
    fig.legend(handles=marks, loc="outside right lower")
    return fig


def _seconds(value: float) -> str:
    """A budget as it reads in a label: 30 s, 0.5 s."""
    return f"{float(fmt_time(value)):g} s"


def _ranked_lines(ax: Any, table: pd.DataFrame, colours: dict[str, tuple[str, str]],
                  x_column: str, y_column: str, start: float, stop: float, total: float,
                  scale: float) -> list[Any]:
    """Step lines of a cactus or profile: from (start, 0) through the ranked points to stop."""
    handles = []
    for config in sorted(table["config"].unique()):
        sub = table[table["config"] == config]
        x, y = _floats(sub[x_column]), _floats(sub[y_column])
        keep = np.isfinite(x)
        x, y = x[keep], y[keep]
        colour, marker = colours[config]
        reached = y[-1] if len(y) else 0.0
        text = f"{config} ({reached * scale:.0f}/{total:.0f})"
        if len(x):
            xs = np.concatenate([[min(start, x[0])], x, [max(stop, x[-1])]])
            ys = np.concatenate([[0.0], y, [y[-1]]])
            every = max(1, len(xs) // 6)
            handle, = ax.step(xs, ys, where="post", color=colour, marker=marker, ms=3,
                              markevery=(1, every), label=text)
        else:
            handle = Line2D([], [], color=colour, marker=marker, ms=3, label=text)
        handles.append(handle)
    return handles


def draw_cactus(table: pd.DataFrame, colours: dict[str, tuple[str, str]], *, title: str,
                rung_param: str) -> Figure:
    """Instances solved (y) against wall time (x, log), one step line per config."""
    fig = new_figure(3.6 + legend_width(table["config"].unique(), 8), 3.0)
    ax = fig.add_subplot()
    log_axis(ax, "x")
    total = float(table["instances"].iloc[0])
    budget = _finite_max(table["budget_s"])
    seconds = _floats(table["seconds"])
    seconds = seconds[np.isfinite(seconds)]
    start = seconds.min() if len(seconds) else 1.0
    stop = budget if math.isfinite(budget) else (seconds.max() if len(seconds) else 1.0)
    handles = _ranked_lines(ax, table, colours, "seconds", "solved", start, stop, total, 1.0)
    ax.axhline(total, color="0.45", ls=":", lw=0.7)
    if math.isfinite(budget):
        ax.axvline(budget, color="0.45", ls="--", lw=0.7)
    ax.set_ylim(0, total * 1.05)
    ax.set_xlabel("wall time (s)")
    ax.set_ylabel(f"instances solved (of {total:.0f})")
    ax.set_title(title)
    _config_legend(ax, handles)
    return fig


def draw_profile(table: pd.DataFrame, colours: dict[str, tuple[str, str]], *, title: str,
                 rung_param: str) -> Figure:
    """Dolan-More profiles: fraction of instances within tau of the best, log tau axis."""
    fig = new_figure(3.6 + legend_width(table["config"].unique(), 8), 3.0)
    ax = fig.add_subplot()
    log_axis(ax, "x")
    taus = _floats(table["tau"])
    taus = taus[np.isfinite(taus)]
    stop = max(2.0, taus.max() * 1.5) if len(taus) else 2.0
    total = float(table["instances"].iloc[0])
    handles = _ranked_lines(ax, table, colours, "tau", "fraction", 1.0, stop, total, total)
    ax.set_xlim(1.0, stop)
    ax.set_ylim(0, 1.03)
    ax.set_xlabel("\u03c4 (time / best config's time on the instance)")
    ax.set_ylabel("fraction of instances within \u03c4")
    ax.set_title(title)
    _config_legend(ax, handles)
    return fig


def draw_score(table: pd.DataFrame, colours: dict[str, tuple[str, str]], *, title: str,
               rung_param: str) -> Figure:
    """One panel per rung, one step line per run: best score so far against time."""
    rungs = table[["rung_index", "rung"]].drop_duplicates().sort_values(["rung_index", "rung"])
    ncols = min(5, len(rungs))
    nrows = math.ceil(len(rungs) / ncols)
    configs = sorted(table["config"].unique())
    fig = new_figure(max(1.8 * ncols + 0.6, min(len(configs), 4) * legend_width(configs)),
                     1.5 * nrows + 0.8 + 0.15 * math.ceil(len(configs) / 4))
    axes = fig.subplots(nrows, ncols, sharex=True, sharey=True, squeeze=False).ravel()
    fraction = bool(table["fraction"].notna().all())
    y_column = "fraction" if fraction else "score"
    runs = ["config", "instance", "repeat", "seed"]
    for ax, (index, rung) in zip(axes, rungs.itertuples(index=False, name=None), strict=False):
        sub = table[(table["rung_index"].astype("Float64") == index) if not pd.isna(index)
                    else table["rung_index"].isna()]
        sub = sub[sub["rung"] == rung]
        for key, run in sub.groupby(runs, sort=True, dropna=False):
            colour, _ = colours[key[0]]
            x, y = _floats(run["seconds"]), _floats(run[y_column])
            ax.step(x, y, where="post", color=colour, lw=0.8, alpha=0.8)
            points = ~run["end"].to_numpy(bool)
            ax.plot(x[points], y[points], ls="", marker=".", ms=2.5, color=colour, alpha=0.8)
        log_axis(ax, "x")
        ax.set_title(f"{rung_param} = {rung}" if rung != "" else "all instances", fontsize=7.5)
    for i, ax in enumerate(axes):
        if i >= len(rungs):
            ax.set_visible(False)
            continue
        if i + ncols >= len(rungs):  # nothing drawn below it: this panel carries the x label
            ax.set_xlabel("wall time (s)")
            ax.xaxis.set_tick_params(labelbottom=True)
        if i % ncols == 0:
            ax.set_ylabel("score / max score" if fraction else "score")
    handles = [Line2D([], [], color=colours[c][0], label=c) for c in configs]
    fig.legend(handles=handles, loc="outside lower center", ncols=min(len(handles), 4))
    fig.suptitle(title, fontsize=8.5)
    return fig


def draw_nodes(table: pd.DataFrame, colours: dict[str, tuple[str, str]], *, title: str,
               rung_param: str) -> Figure:
    """Grouped bars of median node counts on a log axis; hatched where a run failed."""
    by_instance = table["group_by"].iloc[0] == "instance"
    keys = ["rung_index", "rung", "instance", "instance_name"] if by_instance else \
        ["rung_index", "rung"]
    groups = table[keys].drop_duplicates().sort_values(keys).reset_index(drop=True)
    position = {tuple(g): i for i, g in enumerate(groups.itertuples(index=False, name=None))}
    configs = sorted(table["config"].unique())
    width = 0.8 / len(configs)
    bars = len(groups) * len(configs)
    fig = new_figure(min(10.0, max(3.4, 0.16 * bars + 1.2)) + legend_width(
        [*configs, "a run failed: count is a lower bound"]), 3.0)
    ax = fig.add_subplot()
    log_axis(ax, "y")
    handles = []
    for i, config in enumerate(configs):
        sub = table[table["config"] == config]
        sub = sub[_floats(sub["nodes_median"]) > 0]
        colour, _ = colours[config]
        x = np.array([position[tuple(k)] for k in sub[keys].itertuples(index=False, name=None)],
                     dtype=float) + (i - (len(configs) - 1) / 2) * width
        height = _floats(sub["nodes_median"])
        whiskers = None if by_instance else np.nan_to_num(np.clip(np.vstack(
            [height - _floats(sub["nodes_q25"]), _floats(sub["nodes_q75"]) - height]), 0, None))
        drawn = ax.bar(x, height, width * 0.92, color=colour, yerr=whiskers, label=config,
                       error_kw={"elinewidth": 0.6, "capsize": 1.2, "ecolor": "0.25"})
        for patch, complete in zip(drawn.patches, sub["all_solved"].to_numpy(bool), strict=True):
            if not complete:
                patch.set_facecolor(matplotlib.colors.to_rgba(colour, 0.35))
                patch.set_edgecolor(colour)
                patch.set_hatch("////")
        handles.append(Patch(color=colour, label=config))
        if bars <= 40:
            for xi, h in zip(x, height, strict=True):
                ax.annotate(short_count(h), (xi, h), xytext=(0, 1.5), textcoords="offset points",
                            ha="center", va="bottom", fontsize=5.5,
                            rotation=90 if len(configs) > 2 else 0)
    if not table["all_solved"].all():
        handles.append(Patch(facecolor="white", edgecolor="0.3", hatch="////",
                             label="a run failed: count is a lower bound"))
    labels = _group_labels(groups, by_instance)
    _rung_ticks(ax, labels)
    ax.margins(y=0.12)
    ax.set_xlabel("instance" if by_instance else rung_param)
    ax.set_ylabel("work_nodes (median over runs" + (")" if by_instance else ", IQR)"))
    ax.set_title(title)
    _config_legend(ax, handles)
    return fig


def _group_labels(groups: pd.DataFrame, by_instance: bool) -> list[str]:
    """Bar group labels: the rung; per instance its name, under its rung when a rung holds one
    instance (the notebook's 'I1', 'I2', 'I3')."""
    if not by_instance:
        return groups["rung"].astype(str).tolist()
    names = groups["instance_name"].astype(str).map(lambda n: n if len(n) <= 28 else n[:27] + "~")
    single = groups["rung"].map(groups["rung"].value_counts()) == 1
    return [f"{rung}\n{name}" if one and rung else name
            for rung, name, one in zip(groups["rung"], names, single, strict=True)]


def draw_heatmap(table: pd.DataFrame, colours: dict[str, tuple[str, str]], *, title: str,
                 rung_param: str) -> Figure:
    """Solved fraction per cell: panels per config over two parameters, or rung x config."""
    x_name, y_name = table["x"].iloc[0], table["y"].iloc[0]
    by_config = y_name != "config"
    panels = sorted(table["config"].unique()) if by_config else [None]
    x_labels = _axis_labels(table, "x")
    y_labels = _axis_labels(table, "y")
    ncols = min(4, len(panels))
    nrows = math.ceil(len(panels) / ncols)
    cell_w = 0.3 if len(x_labels) < 12 else 0.26
    width = ncols * (cell_w * len(x_labels) + 0.7) + 1.8 + (0 if by_config else 1.2)
    fig = new_figure(width, nrows * (0.26 * len(y_labels) + 0.8) + 0.4)
    axes = fig.subplots(nrows, ncols, squeeze=False, sharex=True, sharey=True).ravel()
    cmap = matplotlib.colormaps["viridis"].with_extremes(bad="0.9")
    image = None
    for ax, config in zip(axes, panels, strict=False):
        sub = table if config is None else table[table["config"] == config]
        grid = np.full((len(y_labels), len(x_labels)), np.nan)
        rows, cols = sub["y_order"].to_numpy(int), sub["x_order"].to_numpy(int)
        grid[rows, cols] = _floats(sub["fraction"])
        image = ax.imshow(np.ma.masked_invalid(grid), cmap=cmap, vmin=0.0, vmax=1.0,
                          aspect="auto", origin="lower" if by_config else "upper",
                          interpolation="nearest")
        if grid.size <= 160:
            for r, c, k, n, f in zip(rows, cols, sub["solved"], sub["runs"], _floats(
                    sub["fraction"]), strict=True):
                ax.text(c, r, f"{k}/{n}", ha="center", va="center", fontsize=5.5,
                        color="white" if f < 0.6 else "black")
        tilt = len(x_labels) > 12 and max(len(v) for v in x_labels) > 3
        ax.set_xticks(range(len(x_labels)), x_labels, rotation=90 if tilt else 0)
        ax.set_yticks(range(len(y_labels)), y_labels)
        ax.grid(visible=False)
        ax.tick_params(length=0)
        if config is not None:
            ax.set_title(config, fontsize=7.5, color=colours[config][0])
    for ax in axes[len(panels):]:
        ax.set_visible(False)
    fig.colorbar(image, ax=axes[:len(panels)].tolist(), label="solved fraction", shrink=0.9,
                 aspect=25)
    fig.supxlabel(rung_param if x_name == "rung" else _pretty_param(x_name), fontsize=8)
    if by_config:
        fig.supylabel(_pretty_param(y_name), fontsize=8)
    fig.suptitle(title, fontsize=8.5)
    return fig


def _axis_labels(table: pd.DataFrame, axis: str) -> list[str]:
    """A heat-map axis's value labels, by their position along the axis."""
    pairs = table[[f"{axis}_order", f"{axis}_value"]].drop_duplicates().sort_values(
        f"{axis}_order")
    return pairs[f"{axis}_value"].astype(str).tolist()


def _pretty_param(column: str) -> str:
    return column.removeprefix("p_").replace("_", " ")


# --------------------------------------------------------------------------------------------
# The solved / PAR-2 tables


def render_tables(table: pd.DataFrame, sweep: str) -> tuple[str, str]:
    """Markdown and LaTeX: per ladder, solved counts (of runs) and PAR-2, configs x rungs."""
    md = [f"# Solved counts and PAR-2: {sweep}", "",
          "Solved: runs answered (solved, optimal or infeasible) of runs made. PAR-2: mean wall "
          "seconds, a failed run (skipped included) counting twice its budget. `virtual best`: "
          "per instance, the fastest config (its counts are instances).", ""]
    tex = [f"% Solved counts and PAR-2: {sweep} (booktabs; \\usepackage{{booktabs}})"]
    for (family, ladder), rows in table.groupby(["family", "ladder"], sort=False):
        rungs = rows[["rung_index", "rung"]].drop_duplicates().sort_values(
            "rung_index", na_position="last")["rung"].tolist()
        configs = list(dict.fromkeys(rows["config"]))
        solved = _pivot(rows, configs, rungs,
                        lambda r: f"{_count(r['solved'])}/{_count(r['runs'])}")
        par2 = _pivot(rows, configs, rungs, lambda r: fmt_time(r["par2"]))
        headers = ["config", *[r or "all instances" if r != "all" else "all" for r in rungs]]
        right = [False, *[True] * len(rungs)]
        name = f"{ladder} ({family})"
        md += [f"## {name}", "", "Solved (of runs):", "", markdown_table(headers, solved, right),
               "", "PAR-2 (s):", "", markdown_table(headers, par2, right), ""]
        vbs_row = [configs.index(c) for c in configs if c == "virtual best"]
        for what, cells in (("solved (of runs)", solved), ("PAR-2 (s)", par2)):
            tex += ["", latex_table(headers, cells, right, f"{name}: {what}", vbs_row)]
    return "\n".join(md).rstrip() + "\n", "\n".join(tex) + "\n"


def _pivot(rows: pd.DataFrame, configs: list[str], rungs: list[str], cell: Any) -> list[list[str]]:
    """Rows of cells: one per config, one cell per rung (``-`` where it did not run)."""
    found = {(r["config"], r["rung"]): cell(r) for r in rows.to_dict("records")}
    return [[c, *[found.get((c, rung), "-") for rung in rungs]] for c in configs]


def _count(value: Any) -> str:
    return "-" if value is None or value is pd.NA else str(int(value))
