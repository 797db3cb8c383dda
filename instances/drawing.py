"""The family drawers' shared matplotlib kit: board axes, sizing, titles, ink, the numbered
palette, and the text card.

A family's picture drawer (``Family.picture``, called as ``draw(figure, instance, solution,
title)``) fills a fresh matplotlib ``Figure`` that the harness made and saves. The harness
applies its picture style (rcParams) around the call, so what reads the style here reads
``matplotlib.rcParams`` at call time (``set_title``'s wrap width follows ``axes.titlesize``).
A board is drawn in board units: one unit a cell, ``0..width`` x ``0..height``, rows growing
downwards unless the board counts them upwards (Connect Four).

Sizing (``size_board``): the longer side of the board takes ``units x inches_per_unit`` inches,
clamped to ``lo..hi``; the other side scales with it; a fixed margin and a band a title line are
added, and the figure gets the constrained layout. Font sizes and line widths follow
``points_per_unit`` (the points one unit spans), so a small board has large type and a large
board thin lines.

Nothing here imports the harness; only matplotlib.
"""

from __future__ import annotations

import colorsys
import textwrap
from typing import Any

import matplotlib
from matplotlib.colors import to_rgb
from matplotlib.figure import Figure

#: Colour 0, the grey of the frame.
GREY = "#9b9b9b"
#: Colours 1, 2, ... : Kelly's colours of maximum contrast (white, black and grey left out; the
#: two nearest the others moved past 22, the colours of Eternity II), then more, hand-picked to
#: stay apart from them; beyond the list, hues spaced by the golden angle (``colour_of``).
PALETTE: tuple[str, ...] = (
    "#f3c300", "#875692", "#f38400", "#a1caf1", "#be0032", "#c2b280", "#008856", "#e68fac",
    "#0067a5", "#f99379", "#604e97", "#5cd69e", "#b3446c", "#dcd300", "#882d17", "#8db600",
    "#654522", "#c8a2ff", "#2b3d26", "#1ce6ff", "#ff4ad6", "#003f7f", "#f6a600", "#e25822",
    "#1a1a1a", "#ffff99", "#9c6b2f", "#00584e", "#ffc4e1", "#7a0a8a",
)


def colour_of(colour: int) -> str:
    """The fixed colour of a colour number: grey for 0, ``PALETTE`` for 1..30, then hues spaced
    by the golden angle (distinct, and the same for the same number on every board)."""
    if colour <= 0:
        return GREY
    if colour <= len(PALETTE):
        return PALETTE[colour - 1]
    hue = ((colour - len(PALETTE)) * 0.618033988749895) % 1.0
    red, green, blue = colorsys.hsv_to_rgb(hue, 0.55 + 0.35 * (colour % 2), 0.85)
    return f"#{round(red * 255):02x}{round(green * 255):02x}{round(blue * 255):02x}"


def ink_on(colour: str) -> str:
    """Black or white, whichever reads on ``colour``."""
    red, green, blue = to_rgb(colour)
    return "black" if 0.299 * red + 0.587 * green + 0.114 * blue > 0.5 else "white"


def size_board(figure: Figure, width: float, height: float, inches_per_unit: float, *,
               lo: float = 3.0, hi: float = 9.0, title_lines: int = 2) -> None:
    """Size ``figure`` to the board: the longer side between ``lo`` and ``hi`` inches, room for
    the title lines on top; constrained layout."""
    longest = max(width, height)
    scale = min(hi, max(lo, longest * inches_per_unit)) / longest
    extra = 0.3 + 0.22 * title_lines
    figure.set_size_inches(width * scale + 0.3, height * scale + extra)
    figure.set_layout_engine("constrained")


def board_axes(figure: Figure, width: float, height: float, *, y_up: bool = False) -> Any:
    """Axes showing ``0..width`` x ``0..height`` board units, square, without ticks; rows grow
    downwards unless ``y_up``."""
    axes = figure.add_subplot()
    axes.set_xlim(-0.02 * width, 1.02 * width)
    limits = (-0.02 * height, 1.02 * height)
    axes.set_ylim(limits if y_up else limits[::-1])
    axes.set_aspect("equal")
    axes.set_axis_off()
    return axes


def points_per_unit(figure: Figure, units: float, longest_units: float) -> float:
    """About how many points one board unit spans (for font sizes and line widths)."""
    inches = figure.get_figwidth() - 0.3
    return 72.0 * inches / max(units, longest_units)


def set_title(axes: Any, first: str, rest: str) -> None:
    """The title: the name, then the status lines, each wrapped to the figure's width."""
    fontsize = matplotlib.rcParams["axes.titlesize"]
    width = max(30, int(axes.figure.get_figwidth() * 72 / (0.56 * float(fontsize))))
    lines = [part for line in (first + ("\n" + rest if rest else "")).split("\n")
             for part in textwrap.wrap(line, width) or [""]]
    axes.set_title("\n".join(lines), loc="center")


def checked_line(verdict: Any) -> str:
    """The checker's word on an answer, as the card's last line."""
    return "checked: " + ("correct" if verdict.solved else verdict.reason or "legal")


def text_card(figure: Figure, text: str, title: str) -> None:
    """A card: ``text`` in a monospaced font under a left-aligned ``title``, the figure as tall
    as the text."""
    figure.set_size_inches(6.0, 0.45 + 0.19 * (text.count("\n") + 1))
    figure.set_layout_engine("constrained")
    axes = figure.add_subplot()
    axes.set_axis_off()
    axes.text(0.0, 1.0, text, ha="left", va="top", family="DejaVu Sans Mono", fontsize=9,
              wrap=True, transform=axes.transAxes, gid="card")
    axes.set_title(title, loc="left")


__all__ = ["GREY", "PALETTE", "board_axes", "checked_line", "colour_of", "ink_on",
           "points_per_unit", "set_title", "size_board", "text_card"]
