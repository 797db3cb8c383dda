"""The look of cliffbench's figures, and how they are written so that reruns give the same bytes.

Kept apart from :mod:`bench.views.figures` (which decides *what* is drawn) so that every figure
shares one style, one palette, one size rule and one way of saving. The drawers live in
``bench.views.fig_*`` (one module a kind) and take everything they need from here:

- :data:`STYLE` is a small rc dict; :func:`styled` applies it (or another rc dict: the board
  pictures' larger type) on top of matplotlib's defaults in a context manager, so neither the
  caller's rcParams leak into a figure nor ours into the caller's session.
- :func:`looks` gives every (family, config) a :class:`Look`: colour, marker, dash and legend
  label, fixed for the whole sweep, so a config looks the same in every figure, and no two
  configs of a family share a colour.
- :data:`MAX_WIDTH` bounds every figure's width (wide content wraps into rows of panels
  instead), so no figure has to be shrunk until its text is unreadable.
- :func:`legend_below` puts a legend under the axes, in as many columns as the width holds, so
  the axes use the canvas's full width.
- :func:`save` writes a figure through the Agg/PDF/SVG canvases with metadata stripped of dates
  and version strings, so the same table gives byte-identical files.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import LogFormatterSciNotation

from bench.views.report import fmt_time

#: Dots per inch of the raster (PNG) files.
DPI = 200
#: The widest a figure gets, in inches (a paper's full text width): 1360 px at :data:`DPI`.
MAX_WIDTH = 6.8
#: The narrowest a single-panel figure gets, in inches.
MIN_WIDTH = 4.2

#: The one style of every figure (applied over matplotlib's defaults by :func:`styled`).
STYLE: dict[str, Any] = {
    "font.family": "DejaVu Sans",
    "font.size": 8,
    "axes.titlesize": 8.5,
    "axes.labelsize": 8,
    "xtick.labelsize": 7.5,
    "ytick.labelsize": 7.5,
    "legend.fontsize": 7.5,
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
    "savefig.dpi": DPI,
    "pdf.fonttype": 42,  # TrueType, not Type 3: what publishers' checkers ask for
    "ps.fonttype": 42,
    "pdf.compression": 6,
    "hatch.linewidth": 0.6,
    "svg.hashsalt": "cliffbench",  # SVG element ids from a fixed salt, not a random one
    "svg.fonttype": "path",
}

#: Config colours, most distinct first: Okabe-Ito (readable by colour-blind readers; its yellow
#: is too pale on white and its sky blue too close to its blue), then colours picked one by one
#: to lie farthest (CIE Lab) from those before them, none pale: any two differ by a Delta-E of
#: more than 30, where 2 is a just noticeable difference.
COLOURS: tuple[str, ...] = (
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#000000", "#4B0082", "#66A61E",
    "#800000", "#E7298A", "#17BECF", "#8C564B",
)
#: Markers cycle with a period prime to the colours', so no two configs share both.
MARKERS: tuple[str, ...] = ("o", "s", "^", "D", "v", "P", "X", "<", ">", "h", "*")
#: Line dashes, a third cue (period 4) for lines that cross.
DASHES: tuple[Any, ...] = ("solid", (0, (5, 1.6)), (0, (4, 1.4, 1, 1.4)), (0, (1.2, 1.2)))
#: Saving formats :func:`save` knows.
FIGURE_FORMATS = ("pdf", "png", "svg")
# Metadata that would otherwise carry dates or version strings into the files.
_METADATA: dict[str, dict[str, Any]] = {
    "pdf": {"Creator": None, "Producer": None, "CreationDate": None, "ModDate": None},
    "png": {"Software": None},
    "svg": {"Creator": None, "Date": None},
}
#: Inches per character of 7.5 pt legend text, and a legend entry's handle and padding.
CHAR_WIDTH = 0.058
HANDLE_WIDTH = 0.45


@dataclass(frozen=True)
class Look:
    """How one config is drawn in every figure of a sweep."""

    colour: str
    marker: str
    dash: Any
    label: str


@contextlib.contextmanager
def styled(style: dict[str, Any] | None = None) -> Iterator[None]:
    """Apply ``style`` (default :data:`STYLE`) over matplotlib's defaults for the duration of
    the block, and only then: the caller's rcParams neither reach the figure nor change."""
    with matplotlib.rc_context():
        matplotlib.rcdefaults()
        matplotlib.rcParams.update(STYLE if style is None else style)
        yield


def clip_width(width: float) -> float:
    """A wanted figure width clipped to [:data:`MIN_WIDTH`, :data:`MAX_WIDTH`] inches."""
    return min(MAX_WIDTH, max(MIN_WIDTH, width))


def new_figure(width: float, height: float) -> Figure:
    """A figure on the Agg canvas (never pyplot: no global figure manager, no GUI backend),
    laid out by matplotlib's constrained layout (deterministic, and it makes room for legends
    and colour bars). The width is clipped by :func:`clip_width`."""
    fig = Figure(figsize=(clip_width(width), height), layout="constrained")
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


# --------------------------------------------------------------------------------------------
# The palette


def _slots(configs_by_family: dict[str, list[str]]) -> dict[tuple[str, str], int]:
    """A palette slot per (family, config), unique within a family.

    Families are taken in sorted order, configs in sorted order; a config name already given a
    slot in an earlier family keeps it when that slot is free here (``cpsat`` of Sudoku looks
    like ``cpsat`` of edge matching), the others take the lowest free slots.
    """
    known: dict[str, int] = {}
    slots: dict[tuple[str, str], int] = {}
    for family in sorted(configs_by_family):
        configs = sorted(set(configs_by_family[family]))
        chosen: dict[str, int] = {}
        for config in configs:  # a known name claims its slot, first come first served
            if config in known and known[config] not in chosen.values():
                chosen[config] = known[config]
        free = (k for k in itertools.count() if k not in set(chosen.values()))
        for config in configs:
            if config not in chosen:
                chosen[config] = next(free)
            slots[(family, config)] = chosen[config]
            known.setdefault(config, chosen[config])
    return slots


def looks(configs_by_family: dict[str, list[str]],
          labels: dict[tuple[str, str], str]) -> dict[tuple[str, str], Look]:
    """(family, config) -> its :class:`Look`: colour, marker and dash from its palette slot
    (the three cues cycle with periods 12, 11 and 4), legend text from ``labels``."""
    return {key: Look(COLOURS[slot % len(COLOURS)], MARKERS[slot % len(MARKERS)],
                      DASHES[slot % len(DASHES)], labels.get(key, key[1]))
            for key, slot in _slots(configs_by_family).items()}


# --------------------------------------------------------------------------------------------
# Text


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


def seconds(value: float) -> str:
    """A budget as it reads in a label: 30 s, 0.5 s."""
    return f"{float(fmt_time(value)):g} s"


def pretty_param(column: str | None) -> str:
    """An axis name from a parameter column: ``p_inner_colors`` -> ``inner colors``."""
    return "rung" if column is None else str(column).removeprefix("p_").replace("_", " ")


# --------------------------------------------------------------------------------------------
# Axes


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


def floats(column: pd.Series) -> np.ndarray:
    """A column as float64, NA as NaN (nullable dtypes refuse a plain ``to_numpy(float)``)."""
    return pd.to_numeric(column, errors="coerce").astype(float).to_numpy()


def finite_max(column: pd.Series) -> float:
    """The largest finite value of a column, NaN when it has none."""
    values = floats(column)
    values = values[np.isfinite(values)]
    return float(values.max()) if len(values) else math.nan


def _widest(labels: Sequence[str]) -> int:
    """Characters on the longest line of any label."""
    return max((len(line) for label in labels for line in label.split("\n")), default=0)


def category_ticks(ax: Any, labels: Sequence[str], positions: Sequence[float] | None = None,
                   width: float | None = None) -> float:
    """Category labels on the x axis that fit side by side in ``width`` inches (the figure's,
    by default): as they are, else broken at their spaces onto lines, else tilted. Returns how
    far (points) the labels reach below the axis, for a second row of labels under them."""
    labels = [str(s) for s in labels]
    positions = list(range(len(labels))) if positions is None else list(positions)
    room = 0.95 * (width or ax.figure.get_figwidth()) / max(len(labels), 1)
    if _widest(labels) * CHAR_WIDTH > room:
        broken = [s.replace(" ", "\n") for s in labels]
        labels = broken if _widest(broken) * CHAR_WIDTH <= room else labels
    tilt = _widest(labels) * CHAR_WIDTH > room
    ax.set_xticks(positions, labels, rotation=35 if tilt else 0,
                  ha="right" if tilt else "center", rotation_mode="anchor" if tilt else "default")
    ax.grid(axis="x", visible=False)
    size = float(matplotlib.rcParams["xtick.labelsize"])
    if tilt:
        return _widest(labels) * CHAR_WIDTH * 72 * 0.57 + size
    lines = max((s.count("\n") + 1 for s in labels if s), default=0)
    return lines * size * 1.25


# --------------------------------------------------------------------------------------------
# Legends and panel grids


def _legend_grid(groups: Sequence[Sequence[Any]], ncols: int) -> list[list[Any]]:
    """The rows of a legend of ``ncols`` columns (entries, None where a row ends early), each
    group starting on a new row."""
    rows: list[list[Any]] = []
    for group in groups:
        for start in range(0, len(group), ncols):
            row: list[Any] = list(group[start:start + ncols])
            rows.append(row + [None] * (ncols - len(row)))
    return rows


def _grid_width(rows: list[list[Any]]) -> float:
    """Inches a legend grid takes: per column, a handle and its longest label."""
    columns = zip(*rows, strict=True)
    return sum(HANDLE_WIDTH + 0.1 + CHAR_WIDTH * max(len(c or "") for c in column)
               for column in columns)


def legend_columns(groups: Sequence[Sequence[str]], width: float) -> int:
    """The most legend columns for which the groups' labels fit side by side in ``width``
    inches (each column as wide as its longest label)."""
    most = max((len(g) for g in groups), default=1)
    for ncols in range(most, 1, -1):
        if _grid_width(_legend_grid(groups, ncols)) <= width:
            return ncols
    return 1


def legend_rows(groups: Sequence[Sequence[str]], width: float) -> int:
    """How many rows :func:`legend_below` needs for these groups of labels in ``width``
    inches."""
    if not any(groups):
        return 0
    return len(_legend_grid(groups, legend_columns(groups, width - 0.2)))


def legend_below(fig: Figure, groups: Sequence[Sequence[Any]]) -> Any:
    """One legend under the axes holding ``groups`` of handles (configs, then marks), each
    group starting on a new row, in as many columns as the figure's width holds."""
    groups = [list(g) for g in groups if len(g)]
    if not groups:
        return None
    labels = [[h.get_label() for h in g] for g in groups]
    ncols = legend_columns(labels, fig.get_figwidth() - 0.2)
    blank = Line2D([], [], ls="", label=" ")
    rows = [[blank if h is None else h for h in row] for row in _legend_grid(groups, ncols)]
    # matplotlib fills a legend column by column: lay the rows out in that order
    ordered = [rows[r][c] for c in range(ncols) for r in range(len(rows))]
    return fig.legend(handles=ordered, loc="outside lower center", ncols=ncols,
                      handlelength=2.4, columnspacing=1.0)


def grid_shape(count: int, panel_width: float, width: float = MAX_WIDTH) -> tuple[int, int]:
    """(rows, columns) of a grid of ``count`` panels each wanting ``panel_width`` inches, as many
    a row as ``width`` holds, the rows as even as they can be."""
    ncols = max(1, min(count, int(width // max(panel_width, 0.1))))
    nrows = math.ceil(count / ncols)
    return nrows, math.ceil(count / nrows)
