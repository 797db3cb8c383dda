"""The HTML report: one self-contained page a person opens instead of reading a Parquet file.

``cliffbench report SWEEP --html FILE`` writes it. Everything is inline (CSS, the figures as
PNG data, the boards as SVG), so the file can be mailed or archived and opens without a network.
It holds, in this order: what was run (the manifest), the wrong answers and the disagreements
(first: a reader must not miss them), the report's tables (summary, cliffs, virtual best
solver), the figures of ``bench.figures``, and the best board of each edge-matching run family
(each solver config on each ladder: its highest-scoring checked board, drawn by
``bench.pictures``). The tables are ``bench.report``'s, so the page and ``cliffbench report``
never disagree.
"""

from __future__ import annotations

import base64
import html
import json
import tempfile
from pathlib import Path
from typing import Any

import pandas as pd

from bench.report import Report, build_report
from bench.store import MANIFEST, load, sweep_dir

#: Boards drawn at most (the best of each edge-matching solver config and ladder).
MAX_BOARDS = 12

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 78em; color: #222; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: right; }
th { background: #f0f0f0; } td:first-child, th:first-child { text-align: left; }
.none { color: #2a7a2a; } .alert { color: #b00020; font-weight: bold; }
figure { display: inline-block; margin: 0.5em; vertical-align: top; }
figure img, figure svg { max-width: 36em; height: auto; border: 1px solid #eee; }
figcaption { font-size: 0.8em; color: #555; }
"""


def table_html(table: pd.DataFrame, table_id: str) -> str:
    """A report table as HTML (every cell escaped; NA shown as -)."""
    if table.empty:
        return '<p class="none">none</p>'
    return table.map(cell_text).to_html(index=False, escape=True, table_id=table_id, border=0)


def cell_text(value: Any) -> str:
    """A table cell as people read it: NA as -, floats to 4 significant digits."""
    if value is None or value is pd.NA or (isinstance(value, float) and value != value):
        return "-"
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def manifest_html(manifest: dict[str, Any]) -> str:
    rows = "".join(f"<tr><th>{html.escape(str(k))}</th><td>{html.escape(_flat(v))}</td></tr>"
                   for k, v in sorted(manifest.items()))
    return f'<table id="manifest">{rows}</table>'


def _flat(value: Any) -> str:
    if isinstance(value, (dict, list)):
        return json.dumps(value, sort_keys=True)
    return str(value)


def figures_html(df: pd.DataFrame, sweep: str) -> str:
    """Every figure ``bench.figures`` makes of the table, as inline PNGs with their names."""
    from bench.figures import make_figures

    with tempfile.TemporaryDirectory() as tmp:
        paths = make_figures(df, Path(tmp), sweep=sweep, formats=("png",))
        pngs = sorted(p for p in paths if p.suffix == ".png")
        parts = []
        for png in pngs:
            data = base64.b64encode(png.read_bytes()).decode("ascii")
            parts.append(f'<figure><img alt="{html.escape(png.stem)}" '
                         f'src="data:image/png;base64,{data}"><figcaption>'
                         f"{html.escape(png.stem)}</figcaption></figure>")
    return "".join(parts) or '<p class="none">no figure for this table</p>'


def best_boards(df: pd.DataFrame) -> pd.DataFrame:
    """Per edge-matching solver config and ladder, its highest-scoring checked board."""
    boards = df[(df["family"] == "edgematch") & df["verified"].fillna(False).astype(bool)
                & df["solution"].notna() & df["score"].notna()]
    if boards.empty:
        return boards
    ranked = boards.sort_values(["score", "t_wall"], ascending=[False, True], kind="stable")
    key = ["ladder", "solver"] + sorted(c for c in df.columns if c.startswith("s_"))
    best = ranked.drop_duplicates(subset=key, keep="first")
    return best.sort_values(["ladder", "solver"], kind="stable").head(MAX_BOARDS)


def boards_html(df: pd.DataFrame) -> str:
    """The best boards drawn as inline SVG (``bench.pictures``); a board whose instance cannot
    be read back (a file moved away) is listed, not drawn."""
    best = best_boards(df)
    if best.empty:
        return ""
    import instances
    from bench.pictures import draw_figure, figure_bytes
    from bench.specs import resolve

    family = instances.family("edgematch")
    parts = []
    for row in best.itertuples(index=False):
        caption = (f"{row.ladder} / {row.solver}: {row.instance_name or row.instance_id}, "
                   f"score {row.score:g}" + (f"/{row.max_score:g}" if pd.notna(row.max_score)
                                             else ""))
        try:
            ref = next(r for r in resolve(row.source) if r.instance_id == row.instance_id)
            solution = family.Solution.from_json(json.loads(row.solution), ref.instance)
            text = figure_bytes(draw_figure(ref.instance, solution, title=caption),
                                "svg").decode()
            body = text[text.index("<svg"):]
        except Exception as exc:  # a board that cannot be drawn is named, not fatal
            body = f'<p class="alert">not drawn: {html.escape(str(exc))}</p>'
        parts.append(f"<figure>{body}<figcaption>{html.escape(caption)}</figcaption></figure>")
    return "<h2>Best boards</h2>" + "".join(parts)


def render_html(report: Report, df: pd.DataFrame, manifest: dict[str, Any]) -> str:
    sweep = report.sweep
    wrong, disagree = len(report.wrong), len(report.disagreements)
    alert = (f'<p class="{"alert" if wrong or disagree else "none"}">{wrong} wrong answers, '
             f"{disagree} disagreements, {len(df)} runs</p>")
    sections = [
        f"<h1>cliffbench report: {html.escape(sweep)}</h1>",
        alert,
        "<h2>Wrong answers</h2>", table_html(report.wrong, "wrong"),
        "<h2>Disagreements</h2>", table_html(report.disagreements, "disagreements"),
        "<h2>Summary</h2>", table_html(report.summary, "summary"),
        "<h2>Cliffs</h2>", table_html(report.cliffs, "cliffs"),
        "<h2>Virtual best solver</h2>", table_html(report.virtual_best, "virtual-best"),
        "<h2>Figures</h2>", figures_html(df, sweep),
        boards_html(df),
        "<h2>Manifest</h2>", manifest_html(manifest),
    ]
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>cliffbench: {html.escape(sweep)}</title><style>{STYLE}</style></head>"
            "<body>\n" + "\n".join(sections) + "\n</body></html>\n")


def write_html(sweep: str | Path, out: str | Path, results: str | Path = "results") -> Path:
    """The sweep's report as one self-contained HTML file."""
    directory = sweep_dir(sweep, results)
    df = load(directory)
    manifest_path = directory / MANIFEST
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    page = render_html(build_report(df, sweep=directory.name), df, manifest)
    out = Path(out)
    out.write_text(page)
    return out
