"""Pictures of boards: an instance, or the board a solution leads to, as SVG or PNG.

The drawing belongs to the families; this module is the plumbing around it. Each family
declares its drawer as ``Family.picture`` (``"module:function"``, imported on first use):
``function(figure, instance, solution, title)`` fills a fresh ``Figure`` made here, sizing it
itself (``figure.set_size_inches``, and ``figure.set_layout_engine`` if it needs one).
``draw_figure`` finds the family from the instance (the ``"family"`` key of its
``to_json()``), makes a ``Picture``, and calls the drawer inside ``style()``. A family without a
picture gets a text card instead: its ``render(instance, solution)`` and, with a solution, the
checker's word, under the instance's name (``instances.drawing.text_card``). A ``picture``
target that cannot be imported is the ``FamilyError`` naming it; no figure is made.

The style (``STYLE``: the figures' style of ``bench.views.figstyle`` with larger type) is
applied over matplotlib's defaults in a context manager, so the caller's rcParams neither
change nor reach the picture. A ``Picture`` is a Figure whose own ``savefig`` applies the style
again (a fixed ``svg.hashsalt``) and metadata without dates or versions, so the same input
gives the same bytes however it is saved. No pyplot (no global figure list, nothing to close);
PNG goes through Agg.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from matplotlib.figure import Figure

import instances
from bench.views.figstyle import STYLE as FIGURE_STYLE
from bench.views.figstyle import styled
from instances.common import InstanceError
from instances.drawing import checked_line, text_card

#: The figures' style (``bench.views.figstyle``: its font, fixed SVG hash salt, font embedding),
#: with the type larger and the resolution lower: a board is looked at alone, not set in a column.
STYLE: dict[str, Any] = {
    **FIGURE_STYLE,
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.grid": False,
    "figure.facecolor": "white",
    "savefig.facecolor": "white",
    "savefig.dpi": 120,
    "path.simplify": False,
}
#: Metadata written into the files: no dates, no matplotlib version (identical bytes).
METADATA: dict[str, dict[str, str | None]] = {
    "svg": {"Date": None, "Creator": "cliffbench"},
    "png": {"Software": None},
}
FORMATS = ("svg", "png")


def style() -> Any:
    """The pictures' rc settings over matplotlib's defaults for the duration of a draw or a
    save, and only then: the caller's rcParams reach neither the picture nor its bytes."""
    return styled(STYLE)


class Picture(Figure):
    """A Figure whose ``savefig`` always writes identical bytes for identical pictures: the
    style (with its fixed ``svg.hashsalt``) and ``METADATA`` are applied at save time too, so a
    caller that saves the figure itself (the HTML report) gets the same file as ``draw``."""

    def savefig(self, fname: Any, *args: Any, **kwargs: Any) -> None:
        fmt = kwargs.get("format")
        if fmt is None and isinstance(fname, (str, Path)):
            fmt = Path(fname).suffix.lower().lstrip(".")
        if fmt in METADATA:
            kwargs.setdefault("metadata", METADATA[fmt])
        with style():
            super().savefig(fname, *args, **kwargs)


def family_of(instance: Any) -> instances.Family:
    """The family an instance belongs to (the ``"family"`` of its ``to_json()``)."""
    to_json = getattr(instance, "to_json", None)
    if to_json is None:
        raise TypeError(f"no picture for a {type(instance).__name__}: not a family's instance")
    return instances.family(to_json()["family"])


def draw_card(family: instances.Family, figure: Figure, instance: Any, solution: Any,
              title: str | None) -> None:
    """The picture of a family without one: its text rendering (and the checker's word on a
    solution) as a card under the instance's name."""
    text = family.render(instance, solution)
    if solution is not None:
        text += "\n" + checked_line(family.check(instance, solution))
    name = getattr(instance, "name", "")
    text_card(figure, text, title or (f"{family.name}: {name}" if name else family.name))


def draw_figure(instance: Any, solution: Any = None, *, title: str | None = None,
                family: str | None = None) -> Figure:
    """The picture of an instance (or of the board ``solution`` leads to) as a Figure.

    ``title`` replaces the first title line (the instance's name); the line with the score or
    the move count stays below it. ``figure.savefig`` (or ``save_figure``, ``figure_bytes``)
    writes deterministic bytes. ``family``: the instance's family when the caller knows it
    (else it is read from ``instance.to_json()``, which serialises a big game graph).
    """
    declared = instances.family(family) if family else family_of(instance)
    drawer = declared.drawer()
    with style():
        figure = Picture()
        if drawer is None:
            draw_card(declared, figure, instance, solution, title)
        else:
            drawer(figure, instance, solution, title)
    return figure


def save_figure(figure: Figure, out: str | Path | io.IOBase, fmt: str | None = None) -> None:
    """Write a picture as SVG or PNG (by ``fmt``, else by the file's suffix) with identical
    bytes for identical figures."""
    if fmt is None:
        fmt = Path(str(out)).suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise ValueError(f"pictures are {' or '.join(FORMATS)}, not {fmt!r} ({out})")
    with style():
        figure.savefig(out, format=fmt, metadata=METADATA[fmt])  # also for a plain Figure


def figure_bytes(figure: Figure, fmt: str = "svg") -> bytes:
    """A saved picture in memory (the HTML report embeds these)."""
    buffer = io.BytesIO()
    save_figure(figure, buffer, fmt)
    return buffer.getvalue()


def draw(instance: Any, solution: Any = None, out: str | Path | None = None, *,
         title: str | None = None) -> Path:
    """Draw an instance (and solution) to ``out``, an ``.svg`` or ``.png`` file; returns it.
    Another suffix is an ``InstanceError`` (bad input: the CLI prints it as one line), raised
    before anything is drawn or written."""
    if out is None:
        raise InstanceError("a picture needs an output file, .svg or .png")
    out = Path(out)
    fmt = out.suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise InstanceError(f"pictures are .svg or .png, not {out.suffix or 'no suffix'!r}",
                            path=str(out))
    figure = draw_figure(instance, solution, title=title)
    out.parent.mkdir(parents=True, exist_ok=True)
    save_figure(figure, out, fmt)
    return out


def show(spec: str, solution_path: str | Path | None = None, out: str | Path | None = None, *,
         data_dir: str | Path | None = None, title: str | None = None) -> Path:
    """``cliffbench show INSTANCE [SOLUTION] --out FILE``: resolve one instance spec, read the
    solution file (the family's format or ``cliffbench solve --json`` output), draw."""
    from bench.plan.specs import resolve_one

    ref = resolve_one(spec, data_dir)
    solution = None
    if solution_path is not None:
        solution = instances.family(ref.family).read_solution(Path(solution_path), ref.instance)
    return draw(ref.instance, solution, out, title=title)


__all__ = ["FORMATS", "METADATA", "STYLE", "Picture", "draw", "draw_card", "draw_figure",
           "family_of", "figure_bytes", "save_figure", "show", "style"]
