"""The HTML report: one self-contained page to explore a sweep's results.

``cliffbench report SWEEP --html FILE`` writes it. Everything is inline (the style
``html_report.css``, the script ``html_report.js``, the figures and pictures as PNG data, the
runs as JSON), so the file can be mailed or archived and opens without a network. In order:

- a headline (runs, answered, proven optimal, failed, wrong answers, disagreements) and a
  filter bar that stays on screen (family, ladder, config, rung, status, free text);
- the wrong answers and the disagreements (first: a reader must not miss them), each with a
  link to its runs;
- per family and ladder: the config x rung grid of :func:`bench.views.stats.overview` (the
  terminal summary's, cells shaded by the fraction solved; a click on a cell filters the runs
  to it; the legend under it says what the family's score counts), the full statistics per
  rung (``bench.views.stats``'s summary, only the columns that hold values for the family),
  the figures ``cliffbench run``/``figures`` left in the sweep's ``figures/`` folder with the
  captions of ``<sweep>-figures.json``, and each config's best answer drawn by
  :mod:`bench.views.report_boards`;
- every run in a table the filters act on, sortable by any column, each row opening its
  drill-down: the instance and its parameters, the solver and its parameters, the outcome and
  verdict, the costs, the counters, the limits, and the picture of its answer where one was
  drawn;
- the manifest (how the sweep was made) as a readable table.

The tables are ``bench.views.stats``'s, with the cell formats of ``bench.views.report``, so the
page and ``cliffbench report`` never disagree. The filters also hide the summaries of the
ladders and configs not chosen. Figures are read, not drawn: a sweep without a ``figures/``
folder gets a note saying how to make them.
"""

from __future__ import annotations

import base64
import html
import json
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from bench.stats import confidence
from bench.table.store import MANIFEST, load, sweep_dir
from bench.views import report as rpt
from bench.views import stats, tails, witnesses
from bench.views.claims import sweep_claims
from bench.views.report_boards import Picture, compact_image, draw_pictures
from bench.views.report_runs import run_records

#: The folder of a sweep where ``cliffbench run`` and ``cliffbench figures`` write figures.
FIGURES = "figures"
#: Figures wider than this many times their height take a whole row of the page.
WIDE_ASPECT = 2.2
#: Headings of the figure kinds of ``bench.views.figures`` (an unknown kind shows its own name).
KIND_TITLES = {
    "ladder": "Ladder plot", "cactus": "Cactus plot", "profile": "Performance profile",
    "score": "Score against time", "nodes": "Search nodes", "heatmap": "Solved fraction",
    "survival": "Survival of run time",
}
_ASSETS = Path(__file__).parent
_e = html.escape


def asset(name: str) -> str:
    """The text of one of the page's inline assets (``html_report.css``, ``html_report.js``)."""
    return (_ASSETS / name).read_text(encoding="utf-8")


# --------------------------------------------------------------------------------------------
# What the page is built from


@dataclass
class FigureFile:
    """One figure of ``<sweep>-figures.json``, its PNG read in and turned to WebP."""

    family: str
    ladder: str
    kind: str
    plots: str
    webp: bytes
    width: int
    height: int


@dataclass
class Figures:
    """The figures of a sweep's folder, what was skipped and why, or why there are none."""

    made: list[FigureFile] = field(default_factory=list)
    skipped: list[dict[str, Any]] = field(default_factory=list)
    note: str = ""


def _figures_index(folder: Path, sweep: str) -> Path | None:
    """The ``*-figures.json`` of ``folder`` that belongs to ``sweep`` (the only one, else the
    one whose ``sweep`` field says so)."""
    candidates = sorted(folder.glob("*-figures.json"))
    for path in candidates:
        try:
            if json.loads(path.read_text()).get("sweep") == sweep:
                return path
        except ValueError:
            continue
    return candidates[0] if len(candidates) == 1 else None


def read_figures(folder: Path, sweep: str) -> Figures:
    """The PNG figures listed in the folder's figures index, each with its description, as
    lossless WebP (:func:`bench.views.report_boards.compact_image`)."""
    index = _figures_index(folder, sweep) if folder.is_dir() else None
    if index is None:
        return Figures(note=f"No figures in {folder}: `cliffbench figures {sweep}` draws them "
                            "(`cliffbench run` does, unless given --no-figures).")
    doc = json.loads(index.read_text())
    made = []
    for entry in doc.get("figures", []):
        pngs = [name for name in entry.get("files", []) if name.endswith(".png")]
        if pngs and (folder / pngs[0]).is_file():
            image = compact_image((folder / pngs[0]).read_bytes())
            made.append(FigureFile(entry.get("family") or "", entry.get("ladder") or "",
                                   entry.get("kind", ""), entry.get("plots", ""), *image))
    note = "" if made or not doc.get("figures") else (
        f"The figures in {folder} have no PNG: `cliffbench figures {sweep} --formats png` "
        "draws them.")
    return Figures(made=made, skipped=list(doc.get("skipped", [])), note=note)


@dataclass
class Page:
    """Everything one page shows, computed once."""

    sweep: str
    data: pd.DataFrame
    report: stats.Report
    view: stats.Overview
    figures: Figures
    pictures: list[Picture]
    manifest: dict[str, Any]


def build_page(df: pd.DataFrame, sweep: str, manifest: dict[str, Any], figures: Figures) -> Page:
    """Compute the report, the overview and the pictures of a results frame."""
    data = stats.normalize(df)
    report = stats.build_report(data, sweep=sweep, normalized=True)
    view = stats.overview(data, normalized=True, report=report)
    return Page(sweep=sweep, data=data, report=report, view=view, figures=figures,
                pictures=draw_pictures(data), manifest=manifest)


# --------------------------------------------------------------------------------------------
# Small pieces


def _plural(count: int, word: str) -> str:
    """``1 run``, ``2 runs``."""
    return f"{count} {word}{'s' * (count != 1)}"


def _attrs(**values: Any) -> str:
    """HTML attributes from keyword arguments (``class_`` -> ``class``, ``data_x`` ->
    ``data-x``); None values are left out."""
    return "".join(f' {k.rstrip("_").replace("_", "-")}="{_e(str(v))}"'
                   for k, v in values.items() if v is not None)


def _table(headers: list[tuple[str, bool]], rows: list[str], table_id: str | None = None,
           box: str = "scroll", kind: str = "") -> str:
    """A sortable table (``kind``: more classes, ``grid`` for a config x rung grid) inside a
    scroller (``box``: its class, ``scroll tall`` for a long list); ``headers`` are
    (title, is_text) pairs."""
    head = "".join(f'<th{_attrs(class_="text" if text else None)}>{_e(title)}</th>'
                   for title, text in headers)
    classes = f"sortable {kind}".strip()
    return (f'<div class="{box}"><table{_attrs(id=table_id, class_=classes)}>'
            f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>")


def _img(webp: bytes | str, width: int, height: int, alt: str, **attrs: Any) -> str:
    """An inline WebP image (bytes, or base64 text) with its pixel size, so the page does not
    jump while it loads."""
    data = webp if isinstance(webp, str) else base64.b64encode(webp).decode("ascii")
    return (f'<img{_attrs(**attrs)} alt="{_e(alt)}" width="{width}" height="{height}" '
            f'src="data:image/webp;base64,{data}">')


def _number(value: Any) -> str | None:
    """A cell's raw value for sorting (``data-v``), None when NA."""
    if value is None or value is pd.NA or (isinstance(value, float) and value != value):
        return None
    return f"{float(value):.6g}"


def _label(value: Any) -> str:
    """A label as the page shows it: NA as an empty string, no Markdown escaping."""
    return "" if value is None or value is pd.NA or value != value else str(value)


# --------------------------------------------------------------------------------------------
# Headline, filters, problems


def headline_html(page: Page) -> str:
    """The title, one line of counts (red when an answer is wrong or configs disagree), links."""
    data, report = page.data, page.report
    ok, optimal = int(data["_ok"].sum()), int(data["_optimal"].sum())
    wrong, disagree = len(report.wrong), len(report.disagreements)
    cls = "alert" if wrong or disagree else "ok"
    families = data["family"].nunique()
    counts = (f"{_plural(len(data), 'run')} · {families} famil{'ies' if families != 1 else 'y'}"
              f" · {ok} answered ({optimal} proven optimal) · {len(data) - ok} failed · ")
    alerts = f"{_plural(wrong, 'wrong answer')}, {_plural(disagree, 'disagreement')}"
    links = "".join(f'<a href="#family-{_e(f)}">{_e(f)}</a>'
                    for f in sorted(data["family"].unique()))
    note = f'<p class="note">{_e(page.figures.note)}</p>' if page.figures.note else ""
    return (f"<h1>cliffbench report: {_e(page.sweep)}</h1>"
            f'<p id="headline">{_e(counts)}<span class="{cls}">{_e(alerts)}</span></p>'
            f'<nav class="toc">{links}<a href="#runs-section">all runs</a>'
            f'<a href="#manifest-section">how it was made</a></nav>{note}')


def filters_html() -> str:
    """The filter bar; the script fills the choices from the runs."""
    selects = "".join(f'<label>{name} <select id="filter-{name}"><option value="">all'
                      f"</option></select></label>"
                      for name in ("family", "ladder", "config", "rung", "status"))
    return (f'<div id="filters">{selects}<label>text <input id="filter-text" type="search" '
            'placeholder="instance, verdict, message"></label>'
            '<button id="filter-reset" type="button">show all</button>'
            '<span id="shown"></span></div>')


def _run_ids(data: pd.DataFrame, mask: pd.Series) -> list[int]:
    """Positions of the rows of a normalised frame that ``mask`` selects."""
    return [i for i, hit in enumerate(mask.fillna(False).to_numpy(dtype=bool)) if hit]


def _wrong_rows(data: pd.DataFrame) -> list[str]:
    """One row per wrong answer, with a link that opens its run."""
    rows = []
    for i in _run_ids(data, data["status"] == "wrong"):
        run = data.iloc[i]
        cells = [run["ladder"], run["rung"], run["instance_name"] or run["instance_id"],
                 run["config"], run["claimed"]]
        tds = "".join(f'<td class="text">{_e(_label(c))}</td>' for c in cells)
        tds += f'<td class="long">{_e(_label(run["verdict"]))}</td>'
        rows.append(f'<tr>{tds}<td><a href="#runs-section" data-run="{i}">open</a></td></tr>')
    return rows


def _disagreement_rows(table: pd.DataFrame) -> list[str]:
    """One row per disagreement, with a link that filters the runs to its instance."""
    rows = []
    for row in table.itertuples(index=False):
        cells = [row.kind, row.ladder, row.rung, row.instance_name or row.instance_id]
        tds = "".join(f'<td class="text">{_e(_label(c))}</td>' for c in cells)
        tds += f'<td class="long">{_e(_label(row.detail))}</td>'
        rows.append(f'<tr>{tds}<td><a href="#runs-section" data-text="{_e(row.instance_id)}">'
                    "runs</a></td></tr>")
    return rows


def problems_html(page: Page) -> str:
    """The wrong answers and disagreements, or one line saying there are none."""
    wrong, disagree = page.report.wrong, page.report.disagreements
    if wrong.empty and disagree.empty:
        return ('<p class="ok">No wrong answers: the checker accepted every answer returned, '
                "and no configs contradict each other.</p>")
    parts = []
    if not wrong.empty:
        headers = [(h, True) for h in ("ladder", "rung", "instance", "config", "claimed",
                                       "verdict", "run")]
        parts.append(f'<h2 class="alert">{_plural(len(wrong), "wrong answer")}</h2>'
                     + _table(headers, _wrong_rows(page.data), "wrong", "scroll tall"))
    if not disagree.empty:
        headers = [(h, True) for h in ("kind", "ladder", "rung", "instance", "detail", "runs")]
        parts.append(f'<h2 class="alert">{_plural(len(disagree), "disagreement")}</h2>'
                     + _table(headers, _disagreement_rows(disagree), "disagreements",
                              "scroll tall"))
    return "".join(parts)


# --------------------------------------------------------------------------------------------
# Per family and ladder


def _shade(solved: int, runs: int) -> str:
    """A cell's background: red (nothing solved) through yellow to green (all solved)."""
    fraction = solved / runs if runs else 0.0
    return f"background:hsl({round(120 * fraction)},60%,86%)"


def _cell_title(cell: Any, with_optimal: bool) -> str:
    """A grid cell's tooltip: its counts spelled out."""
    unit = "instances" if cell.config == stats.VIRTUAL_BEST else "runs"
    return (f"{int(cell.solved)} solved"
            + (f" ({int(cell.optimal)} proven optimal)" if with_optimal else "")
            + f", {int(cell.failed)} failed of {int(cell.runs)} {unit}"
            + (f", {int(cell.skipped)} skipped" if cell.skipped else "")
            + (f", {int(cell.wrong)} wrong" if cell.wrong else ""))


def _grid_cell(cell: Any, with_optimal: bool, family: str, ladder: str) -> str:
    """One cell of the config x rung grid: the counts, shaded, a click away from its runs
    (the virtual best's cells show the runs of every config)."""
    runs, solved = int(cell.runs), int(cell.solved)
    text = rpt.cell_text(cell, with_optimal)
    skipped = text == "skip"
    classes = "cell" + (" skip" if skipped else "") + (" wrong" if cell.wrong else "")
    attrs = _attrs(class_=classes, title=_cell_title(cell, with_optimal),
                   data_v=f"{solved / runs:.4g}" if runs else None, data_family=family,
                   data_ladder=ladder,
                   data_config=None if cell.config == stats.VIRTUAL_BEST else cell.config,
                   data_rung=cell.rung, style=None if skipped else _shade(solved, runs))
    return f"<td{attrs}>{_e(text)}</td>"


def _grid_row(config: str, rungs: list[str], cells: dict[str, str], tail: list[str]) -> str:
    """One config's row of the grid: its cells per rung, then its cliff, PAR-2 and score."""
    vbs = config == stats.VIRTUAL_BEST
    attrs = _attrs(class_="vbs" if vbs else None, data_config=None if vbs else config)
    tds = "".join(cells.get(r, "<td></td>") for r in rungs)  # blank: no run there
    return f'<tr{attrs}><td class="text">{_e(config)}</td>{tds}{"".join(tail)}</tr>'


def _tail_cells(total: Any, rung_index: dict[str, Any], pseudo: bool,
                with_score: bool, fits: dict[str, Any]) -> list[str]:
    """A config's cliff (sorts by rung), fitted cliff with its 95% interval (sorts by
    position), PAR-2 and score cells."""
    tail = []
    if not pseudo:
        cliff = _label(total.cliff_rung)
        order = rung_index.get(cliff, 10**9) if cliff else 10**9
        tail.append(f'<td class="text" data-v="{order}">{_e(cliff or "never")}</td>')
        fit = fits.get(total.config)
        if fit is None:
            tail.append("<td></td>")
        else:
            outside = {confidence.BELOW: "-1e9", confidence.BEYOND: "1e9"}
            key = _number(fit.fit_cliff) or outside.get(_label(fit.fit_where))
            tail.append(f'<td{_attrs(class_="text", data_v=key)}>{_e(rpt.fit_text(fit))}</td>')
    tail.append(f'<td{_attrs(data_v=_number(total.par2))}>{_e(rpt.fmt_time(total.par2))}</td>')
    if with_score:
        vbs = total.config == stats.VIRTUAL_BEST
        text = "" if vbs else rpt.score_percent(total.score_fraction)
        tail.append(f'<td{_attrs(data_v=_number(total.score_fraction))}>{_e(text)}</td>')
    return tail


def grid_html(page: Page, family: str, ladder: str) -> str:
    """The ladder's config x rung table (cells ``solved[/optimal]/failed``), cliff, PAR-2."""
    view = page.view
    cells = view.cells[(view.cells["family"] == family) & (view.cells["ladder"] == ladder)]
    totals = view.totals[(view.totals["family"] == family) & (view.totals["ladder"] == ladder)]
    with_optimal, with_score = rpt.family_columns(view, family)
    pseudo = ladder == stats.PSEUDO_LADDER
    order = cells.drop_duplicates("rung")
    rungs = list(order["rung"])
    rung_index = dict(zip(order["rung"], order["rung_index"].fillna(0), strict=True))
    by_config: dict[str, dict[str, str]] = {}
    for cell in cells.itertuples(index=False):
        by_config.setdefault(cell.config, {})[cell.rung] = _grid_cell(cell, with_optimal,
                                                                      family, ladder)
    cliffs = page.report.cliffs
    fits = {c.config: c for c in cliffs[(cliffs["family"] == family)
                                        & (cliffs["ladder"] == ladder)].itertuples()}
    rows = [_grid_row(t.config, rungs, by_config.get(t.config, {}),
                      _tail_cells(t, rung_index, pseudo, with_score, fits))
            for t in totals.itertuples(index=False)]
    headers = [("config", True), *((r or "all", False) for r in rungs)]
    headers += ([] if pseudo else [("cliff", True), ("fitted cliff (95%)", True)])
    headers += [("PAR-2 s", False)]
    headers += [("score", False)] if with_score else []
    return _table(headers, rows, kind="grid") + _grid_legend(with_optimal,
                                                             family if with_score else None)


def _grid_legend(with_optimal: bool, family: str | None) -> str:
    """The line under a grid saying what its cells and columns hold (``family``: the family
    whose score column the grid shows, None when it shows none)."""
    form = "solved/optimal/failed" if with_optimal else "solved/failed"
    legend = (f"Cells: {form} runs of the config on the rung (the virtual best counts "
              "instances); a click shows those runs. cliff: first rung solved on less than "
              "half its runs. fitted cliff: 50% crossing of a monotone logistic fit of the solved "
              "fraction along the ladder (rung value, else rung index), with its 95% bootstrap "
              "interval. PAR-2: mean seconds a run, a failure counting twice its budget."
              + ("" if family is None else " " + rpt.score_legend([family])))
    return f'<p class="note">{_e(legend)}</p>'


def stats_html(page: Page, family: str, ladder: str) -> str:
    """The ladder's full statistics per rung and config, folded (only columns with values)."""
    summary = page.report.summary
    rows = rpt.with_score_cell(summary[(summary["family"] == family)
                                       & (summary["ladder"] == ladder)])
    spec = [s for s in rpt.summary_spec(rows, text=_label) if s[1] not in ("family", "ladder")]
    body = []
    for _, row in rows.iterrows():
        tds = "".join(
            f'<td{_attrs(class_=None if right else "text", data_v=_sort_key(row, col))}>'
            f"{_e(fmt(row[col]))}</td>" for _, col, fmt, right in spec)
        body.append(f'<tr{_attrs(data_config=row["config"])}>{tds}</tr>')
    headers = [(h, not right) for h, _, _, right in spec]
    return ("<details><summary>Every statistic per rung and config</summary>"
            f'<p class="note">{_e(rpt.INTERVAL_NOTE.replace("`", ""))}</p>'
            + _table(headers, body) + "</details>")


def paired_html(page: Page, family: str, ladder: str) -> str:
    """The ladder's paired comparisons, folded: per rung and over the ladder, each with its
    counts, Holm-adjusted p-values and verdict (nothing when no two configs share instances)."""
    table = page.report.paired
    mine = table[(table["family"] == family) & (table["ladder"] == ladder)] if len(table) \
        else table
    if mine.empty:
        return ""
    body = []
    for row in mine.itertuples(index=False):
        cells = [(row.rung, True, _number(row.rung_index)), (row.config_a, True, None),
                 (row.config_b, True, None), (row.pairs, False, _number(row.pairs)),
                 (row.wins_a, False, _number(row.wins_a)), (row.ties, False, _number(row.ties)),
                 (row.wins_b, False, _number(row.wins_b)),
                 (rpt._fmt_p(row.sign_p_holm), False, _number(row.sign_p_holm)),
                 (rpt._fmt_p(row.wilcoxon_p_holm), False, _number(row.wilcoxon_p_holm)),
                 (row.verdict, True, None),
                 (rpt._fmt_needed(row.needed_pairs), False, _number(row.needed_pairs))]
        tds = "".join(f'<td{_attrs(class_="text" if text else None, data_v=key)}>'
                      f"{_e(_label(value))}</td>" for value, text, key in cells)
        beats = " beats " in str(row.verdict)
        pair = json.dumps([row.config_a, row.config_b])
        body.append(f'<tr{_attrs(class_="beats" if beats else None, data_configs=pair)}>'
                    f"{tds}</tr>")
    headers = [("rung", True), ("A", True), ("B", True), ("pairs", False), ("W", False),
               ("T", False), ("L", False), ("sign p (Holm)", False),
               ("Wilcoxon p (Holm)", False), ("verdict", True), ("needed", False)]
    wins = int(mine["verdict"].str.contains(" beats ").sum())
    note = rpt.PAIRED_NOTE.format(m=len(table))
    return (f"<details><summary>Paired comparisons ({_plural(len(mine), 'comparison')}, "
            f"{wins} telling configs apart)</summary><p class=\"note\">{_e(note)}</p>"
            + _table(headers, body) + "</details>")


def _of_ladder(table: pd.DataFrame, family: str, ladder: str) -> pd.DataFrame:
    return table[(table["family"] == family) & (table["ladder"] == ladder)] if len(table) \
        else table


def tails_html(page: Page, family: str, ladder: str) -> str:
    """The ladder's run-time tails, folded: per rung and config with many runs, the tail index
    and its verdict (bench/views/tails.py; nothing when no rung has that many runs)."""
    mine = _of_ladder(page.report.tails, family, ladder)
    if mine.empty:
        return ""
    body = []
    for row in mine.itertuples(index=False):
        cells = [(row.rung, True, _number(row.rung_index)), (row.config, True, None),
                 (row.runs, False, _number(row.runs)), (row.solved, False, _number(row.solved)),
                 (rpt.fmt_time(row.median_s), False, _number(row.median_s)),
                 ("" if pd.isna(row.alpha) else f"{row.alpha:.2f}", False, _number(row.alpha)),
                 ("" if pd.isna(row.r2) else f"{row.r2:.2f}", False, _number(row.r2)),
                 (row.verdict, True, None)]
        tds = "".join(f'<td{_attrs(class_="text" if text else None, data_v=key)}>'
                      f"{_e(_label(value))}</td>" for value, text, key in cells)
        body.append(f'<tr{_attrs(data_config=row.config)}>{tds}</tr>')
    headers = [("rung", True), ("config", True), ("runs", False), ("solved", False),
               ("t median", False), ("tail alpha", False), ("r2", False), ("tail", True)]
    heavy = int(mine["verdict"].str.startswith("heavy").sum())
    return (f"<details><summary>Run-time tails ({heavy} heavy of {len(mine)})</summary>"
            f'<p class="note">{_e(rpt.TAILS_NOTE.format(runs=tails.MIN_RUNS))}</p>'
            + _table(headers, body) + "</details>")


def witnesses_html(page: Page, family: str, ladder: str) -> str:
    """The ladder's single witnesses, as a note (nothing when there are none)."""
    mine = _of_ladder(page.report.witnesses, family, ladder)
    if mine.empty:
        return ""
    return f'<p class="note witness">{_e(witnesses.ladder_note(mine))}.</p>'


def _sort_key(row: pd.Series, column: str) -> str | None:
    """What a statistics cell sorts by: the rung's index for the rung, else the raw number."""
    if column == "rung":
        return _number(row["rung_index"])
    value = row[column]
    return _number(value) if isinstance(value, int | float) else None


def _figure_html(figure: FigureFile) -> str:
    """One figure at a readable width (a wide one across the page), its kind and description
    as the caption."""
    wide = figure.width > WIDE_ASPECT * figure.height
    title = KIND_TITLES.get(figure.kind, figure.kind)
    caption = f"<b>{_e(title)}</b>: {_e(figure.plots)}" if figure.plots else f"<b>{_e(title)}</b>"
    img = _img(figure.webp, figure.width, figure.height, f"{title}, {figure.ladder}")
    return (f'<figure{_attrs(class_="wide" if wide else None)}>{img}'
            f"<figcaption>{caption} (click to enlarge)</figcaption></figure>")


def figures_html(page: Page, family: str, ladder: str) -> str:
    """The ladder's figures, and the kinds not drawn for it with the reason."""
    made = [f for f in page.figures.made if (f.family, f.ladder) == (family, ladder)]
    skipped = [s for s in page.figures.skipped
               if (s.get("family"), s.get("ladder")) == (family, ladder)]
    parts = [f'<div class="figs">{"".join(_figure_html(f) for f in made)}</div>'] if made else []
    if skipped:
        reasons = "; ".join(f"{KIND_TITLES.get(s.get('kind'), s.get('kind'))}: {s.get('reason')}"
                            for s in skipped)
        parts.append(f'<p class="note">Not drawn: {_e(reasons)}</p>')
    return "".join(parts)


def _board_html(picture: Picture, number: int, ladder: str, first: bool) -> str:
    """One drawn answer, captioned with the configs it is the best of (each opens its run)."""
    runs = [(i, config) for i, lad, config in picture.runs if lad == ladder]
    links = ", ".join(f'<a href="#runs-section" data-run="{i}">{_e(c)}</a>' for i, c in runs)
    ident = f"pic-{number}" if first else None
    if picture.error:
        body = f'<p class="note"{_attrs(id=ident)}>not drawn: {_e(picture.error)}</p>'
    else:
        body = _img(picture.webp_base64, picture.width, picture.height, "answer", id=ident)
    return f"<figure>{body}<figcaption>best of {links}</figcaption></figure>"


def boards_html(page: Page, family: str, ladder: str, placed: set[int]) -> str:
    """The best answer of each config on the ladder, drawn; ``placed`` tracks the pictures
    already on the page, so each keeps one id (the drill-downs copy it from there)."""
    parts = []
    for number, picture in enumerate(page.pictures):
        if picture.family != family or all(lad != ladder for _, lad, _ in picture.runs):
            continue
        parts.append(_board_html(picture, number, ladder, number not in placed))
        placed.add(number)
    if not parts:
        return ""
    return ("<h4>Best answers</h4><p class=\"note\">Each config's best checked answer on this "
            "ladder (highest score, then highest rung); configs with the same answer share a "
            f'picture.</p><div class="boards">{"".join(parts)}</div>')


def _ladder_meta(page: Page, family: str, ladder: str) -> str:
    """A line under the ladder's title: rungs, runs, configs, budget."""
    rows = page.data[(page.data["family"] == family) & (page.data["ladder"] == ladder)]
    budgets = sorted({rpt.fmt_budget(b) for b in rows["budget_s"].dropna()}, key=float)
    budget = (f"budget {' to '.join(dict.fromkeys([budgets[0], budgets[-1]]))} s" if budgets
              else "no budget recorded")
    rungs = rows["rung"].nunique()
    configs = rows["config"].nunique()
    return (f"{_plural(rungs, 'rung')} · {_plural(len(rows), 'run')} · "
            f"{_plural(configs, 'config')} · {budget}")


def ladder_html(page: Page, family: str, ladder: str, placed: set[int]) -> str:
    """One ladder: title, grid, statistics, figures, best answers."""
    name = f"{family} instances outside ladders" if ladder == stats.PSEUDO_LADDER else ladder
    return (f'<article class="ladder"{_attrs(data_family=family, data_ladder=ladder)}>'
            f'<h3>{_e(name)}</h3><p class="meta">{_e(_ladder_meta(page, family, ladder))}</p>'
            + grid_html(page, family, ladder) + stats_html(page, family, ladder)
            + paired_html(page, family, ladder) + tails_html(page, family, ladder)
            + witnesses_html(page, family, ladder)
            + figures_html(page, family, ladder) + boards_html(page, family, ladder, placed)
            + "</article>")


def families_html(page: Page) -> str:
    """A section per family (alphabetical), its ladders in the report's order."""
    ladders = page.view.totals[["family", "ladder"]].drop_duplicates()
    placed: set[int] = set()
    parts = []
    for family in sorted(ladders["family"].unique()):
        own = ladders[ladders["family"] == family]["ladder"]
        body = "".join(ladder_html(page, family, ladder, placed) for ladder in own)
        parts.append(f'<section class="family"{_attrs(id=f"family-{family}")}>'
                     f"<h2>{_e(family)}</h2>{body}</section>")
    return "".join(parts) + _other_figures(page, ladders)


def _other_figures(page: Page, ladders: pd.DataFrame) -> str:
    """Figures of no ladder on the page (a stale figures folder), so none is lost."""
    known = set(zip(ladders["family"], ladders["ladder"], strict=True))
    rest = [f for f in page.figures.made if (f.family, f.ladder) not in known]
    if not rest:
        return ""
    return ("<h2>Other figures</h2><p class=\"note\">In the figures folder, of no ladder of "
            f'this table.</p><div class="figs">{"".join(_figure_html(f) for f in rest)}</div>')


# --------------------------------------------------------------------------------------------
# Runs and manifest


def claims_html(page: Page) -> str:
    """The claims section: published numbers beside ours (:mod:`bench.views.claims`); nothing
    when the sweep's suite has no claims file."""
    claims = page.report.claims
    if claims is None:
        return ""
    headers = [("claim", True), ("source", True), ("what", True), ("published", True),
                ("ours", True), ("verdict", True), ("why", True)]
    rows = []
    for r in claims.itertuples():
        cells = [f"<td>{_e(_label(v))}</td>" for v in (r.id, r.source, r.claim)]
        cells.append(f'<td{_attrs(title=r.quote or None)}>{_e(_label(r.published))}</td>')
        cells.append(f"<td>{_e(_label(r.ours))}</td>")
        verdict = str(r.verdict).replace(" ", "-")
        cells.append(f'<td{_attrs(class_=f"verdict {verdict}")}>{_e(_label(r.verdict))}</td>')
        cells.append(f'<td{_attrs(title=r.conditions or None)}>{_e(_label(r.why))}</td>')
        rows.append(f"<tr>{''.join(cells)}</tr>")
    return ('<section id="claims-section"><h2>Claims, checked</h2><p class="note">Each '
            "published number beside ours from this table, with a 95% interval where the "
            "computation has one (hover a published number for its quote, a reason for the "
            "conditions; docs/reading-results.md, \u201cClaims, checked\u201d).</p>"
            + _table(headers, rows, table_id="claims") + "</section>")


def runs_html() -> str:
    """The runs explorer's frame; the script fills the table from the runs' JSON."""
    return ('<section id="runs-section"><h2>All runs</h2><p class="note">Filter with the bar '
            "above; click a column to sort, a run to open it.</p>"
            '<div class="scroll"><table id="runs" class="sortable"><thead></thead><tbody>'
            '</tbody></table></div><button id="more" type="button" class="hidden"></button>'
            "</section>")


def _manifest_value(key: str, value: Any) -> str | None:
    """One manifest entry as HTML, None to leave it out (an entry that does not apply)."""
    if key == "command" and isinstance(value, list):
        return f"<code>{_e(shlex.join(str(v) for v in value))}</code>"
    if key == "ended_at" and value is None:
        return "not recorded (the sweep was still running, or was stopped)"
    if value is None or value == "":
        return None
    if isinstance(value, dict):
        items = "".join(f"<li>{_e(str(k))} <code>{_e(str(v))}</code></li>"
                        for k, v in sorted(value.items()))
        return f"<ul>{items}</ul>" if items else "none"
    if isinstance(value, list):
        return _e(", ".join(str(v) for v in value)) if value else "none"
    if isinstance(value, float):
        return _e(rpt.fmt_budget(value))
    return _e(str(value))


#: Manifest keys in reading order, with their labels; any other key follows under its name.
MANIFEST_LABELS = {
    "sweep": "sweep", "suite_name": "suite", "suite": "suite file", "suite_sha256": "suite sha256",
    "command": "command", "started_at": "started", "ended_at": "ended",
    "runs_planned": "runs planned", "budget_s": "budget (s a run)",
    "budget_mb": "memory budget (MB a run)", "cores_per_run": "cores a run", "jobs": "jobs",
    "executor": "executor", "scheduler": "Dask scheduler", "host": "host",
    "cpu_model": "CPU", "cpu_count": "cores", "memory_mb": "memory (MB)",
    "platform": "platform", "python": "Python", "packages": "packages",
    "plugins": "plugins", "git_commit": "git commit", "schema_version": "schema version",
}


def manifest_html(manifest: dict[str, Any]) -> str:
    """The manifest as a two-column table: known keys first, labelled; nothing unset shown."""
    keys = [k for k in MANIFEST_LABELS if k in manifest]
    keys += sorted(k for k in manifest if k not in MANIFEST_LABELS)
    rows = []
    for key in keys:
        value = _manifest_value(key, manifest[key])
        if value is not None:
            rows.append(f"<tr><th>{_e(MANIFEST_LABELS.get(key, key))}</th><td>{value}</td></tr>")
    body = (f'<table id="manifest"><tbody>{"".join(rows)}</tbody></table>' if rows
            else '<p class="note">no manifest.json in the sweep folder</p>')
    return f'<section id="manifest-section"><h2>How this sweep was made</h2>{body}</section>'


def data_script(page: Page) -> str:
    """The runs as JSON in a non-executing script element (``</`` escaped so it cannot end
    the element), each run that has a drawn answer pointing at its picture."""
    records = run_records(page.data)
    for number, picture in enumerate(page.pictures):
        for run_id, _, _ in picture.runs:
            records[run_id]["picture"] = number
    text = json.dumps({"runs": records}, separators=(",", ":"), ensure_ascii=False)
    return ('<script type="application/json" id="runs-data">'
            + text.replace("</", "<\\/") + "</script>")


# --------------------------------------------------------------------------------------------
# The page


def render_page(page: Page) -> str:
    """The whole document."""
    body = "".join([headline_html(page), filters_html(), problems_html(page),
                    families_html(page), claims_html(page), runs_html(),
                    manifest_html(page.manifest),
                    data_script(page), f"<script>{asset('html_report.js')}</script>"])
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>cliffbench: {_e(page.sweep)}</title>"
            f"<style>{asset('html_report.css')}</style></head>\n<body>{body}</body></html>\n")


def write_html(sweep: str | Path, out: str | Path, results: str | Path = "results",
               claims: str | Path | None = None) -> Path:
    """The sweep's report as one self-contained HTML file; returns its path (``claims``: a
    claims file, else the one beside the sweep's suite, if any: :mod:`bench.views.claims`)."""
    directory = sweep_dir(sweep, results)
    df = load(directory)
    manifest_path = directory / MANIFEST
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    figures = read_figures(directory / FIGURES, directory.name)
    out = Path(out)
    page = build_page(df, directory.name, manifest, figures)
    page.report.claims = sweep_claims(directory, page.data, claims)
    out.write_text(render_page(page), encoding="utf-8")
    return out
