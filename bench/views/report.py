"""The report as text: Markdown, CSV and JSON (``cliffbench report``), and the terminal summary.

The tables are :mod:`bench.views.stats`'s; this module only formats them.

- :func:`render` -- a :class:`~bench.views.stats.Report` as ``markdown`` (every table in full;
  per family when there are several, each table with only the columns that family fills),
  ``csv`` or ``json`` (every table as a list of records, NaN written as null).
- :func:`terminal_summary` -- what a finished sweep prints: per family and ladder the
  overview's config x rung grid, no line over :data:`TERMINAL_WIDTH` (rung columns that do not
  fit wrap into further blocks; long labels are cut and footnoted), then the problems and a
  legend.
- The pieces the HTML page (:mod:`bench.views.html`) shares, so both read the same:
  :func:`summary_spec` and :func:`with_score_cell` (which summary columns a table of some of
  its rows shows, and how), :func:`cell_text`, :func:`family_columns`, :func:`score_percent`,
  :func:`score_legend` (what a family's score counts, from its ``score_meaning``), and the cell
  formats :func:`fmt_time` and :func:`fmt_budget`; :func:`markdown_table` is the one pipe table
  (the figures' tables use it too).

CSV layout (``render(report, "csv")``): one header line, then one line per row of the summary
table, comma separated, NA as an empty field, no index. Columns, in this order:

    sweep, family, ladder, rung, rung_index, config, solver,
    runs, solved, optimal, unknown, timeout, memout, crash, error, wrong, skipped,
    t_median, t_max, par2, per_second, encode_mean, solve_mean, nodes_median, guesses_mean,
    conflicts_median, score_median, max_score,
    solved_low, solved_high, t_median_low, t_median_high, par2_low, par2_high,
    cliff_rung, cliff_rung_index, last_solved_rung, last_solved_rung_index, at_cliff,
    fit_axis, fit_cliff, fit_cliff_low, fit_cliff_high, fit_where, fit_low_where,
    fit_high_where

The ``*_low`` / ``*_high`` columns are 95% intervals (:mod:`bench.stats.confidence`): Wilson
for the solved fraction (as fractions of ``runs``), percentile bootstrap for the median time
and PAR-2. The ``cliff_*`` / ``last_solved_*`` and ``fit_*`` columns repeat, on every row of a
(family, ladder, config), that config's entry of :func:`~bench.views.stats.cliffs` (empty when
it never falls, and on pseudo-ladder rows); ``fit_*`` is the fitted cliff, a position on
``fit_axis`` with its interval, empty where it lies outside the ladder (``fit_*where`` then
says on which side). ``at_cliff`` is ``True`` on exactly the row whose rung is the
config's cliff, ``False`` elsewhere, so ``df[df.at_cliff]`` is the cliff table.
``pandas.read_csv`` reads it back as is (pass ``dtype={"rung": str, "cliff_rung": str,
"last_solved_rung": str}`` to keep labels as text).
"""

from __future__ import annotations

import json
import math
import textwrap
from collections.abc import Iterable, Sequence
from typing import Any

import pandas as pd

import instances
from bench.stats import confidence
from bench.views import paired, tails, witnesses
from bench.views.stats import (
    FAILURES,
    PSEUDO_LADDER,
    VIRTUAL_BEST,
    Overview,
    Report,
    build_report,
    fmt_param,
    normalize,
    overview,
)
from instances.common import InstanceError

#: How the intervals and tests are made, said in every rendering (json: ``methods``).
METHODS = {
    "intervals": "95%: Wilson score interval for solved fractions; percentile bootstrap "
                 f"({confidence.RESAMPLES} resamples, seeded by the group) for median times "
                 "and PAR-2",
    "fitted_cliff": "50% crossing of a monotone decreasing logistic fit (maximum likelihood) "
                    "of the solved fraction along the ladder; 95% interval by bootstrap of the "
                    "runs within each rung",
    "paired": "pairs: two configs on the same instance, repeat and seed; PAR-2 terms; "
              "two-sided exact sign test (verdicts) and Wilcoxon signed-rank test, each "
              "Holm-adjusted over all comparisons of the report; beats: adjusted p < 0.05",
    "needed_pairs": "smallest number of paired instances at the observed win fraction (and "
                    "share of ties) whose exact sign test gives p < 0.05/m, m the number of "
                    "comparisons (Bonferroni, Holm's strictest step)",
}
#: The sentence above the summary saying what its intervals are.
INTERVAL_NOTE = ("Intervals are 95%: `solved 95%` is the Wilson interval of the solved "
                 "fraction (solved / runs); `t med 95%` and `PAR-2 95%` are percentile bootstrap "
                 f"intervals ({confidence.RESAMPLES} resamples, seeded by the row's key, so the "
                 "same table gives the same interval).")
#: Output formats of :func:`render`.
FORMATS = ("markdown", "csv", "json")
#: At most this many disagreements / wrong answers are listed in markdown (all in json).
MARKDOWN_ROWS = 50


def render(report: Report, fmt: str = "markdown") -> str:
    """The report as ``markdown``, ``csv`` or ``json`` text (layouts in the module docstring)."""
    if fmt == "markdown":
        return _markdown(report)
    if fmt == "csv":
        return _csv(report)
    if fmt == "json":
        return _json(report)
    raise ValueError(f"unknown report format {fmt!r}: choose one of {', '.join(FORMATS)}")


# --------------------------------------------------------------------------------------------
# JSON and CSV


def _plain(value: Any) -> Any:
    """A cell as a JSON value: NA and NaN become None, NumPy scalars become Python ones."""
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value + 0.0 if isinstance(value, float) else value  # -0.0 becomes 0.0


def _records(table: pd.DataFrame) -> list[dict[str, Any]]:
    """Rows as dicts with the table's columns as keys, in column order."""
    columns = list(table.columns)
    return [{c: _plain(v) for c, v in zip(columns, row, strict=True)}
            for row in table.itertuples(index=False, name=None)]


def _json(report: Report) -> str:
    """The JSON document: every table as a list of records, NaN written as null."""
    doc = {
        "sweep": report.sweep,
        "summary": _records(report.summary),
        "cliffs": _records(report.cliffs),
        "virtual_best": _records(report.virtual_best),
        "disagreements": _records(report.disagreements),
        "wrong": _records(report.wrong),
        "paired": _records(report.paired),
        **({"claims": _records(report.claims)} if report.claims is not None else {}),
        "tails": _records(report.tails),
        "witnesses": _records(report.witnesses),
        "methods": METHODS,
    }
    return json.dumps(doc, indent=2, allow_nan=False) + "\n"


def _csv(report: Report) -> str:
    """The summary joined with each config's cliff (see the module docstring for the layout)."""
    summary = report.summary
    cliff_cols = ["cliff_rung", "cliff_rung_index", "last_solved_rung", "last_solved_rung_index",
                  *confidence.FIT_COLUMNS]
    joined = summary.merge(report.cliffs[["family", "ladder", "config", *cliff_cols]],
                           on=["family", "ladder", "config"], how="left")
    at_cliff = (joined["rung_index"].astype("Float64") ==
                joined["cliff_rung_index"].astype("Float64")).fillna(False)
    joined.insert(joined.columns.get_loc("last_solved_rung_index") + 1, "at_cliff",
                  at_cliff.astype(bool))
    joined.insert(0, "sweep", report.sweep)
    return joined.to_csv(index=False, lineterminator="\n")


# --------------------------------------------------------------------------------------------
# Markdown


def _isna(value: Any) -> bool:
    """True for None, pd.NA and NaN; False for anything else, strings included."""
    return value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value))


def fmt_time(value: Any) -> str:
    """Seconds to 3 significant digits, without exponent for ordinary magnitudes; ``-`` if NA."""
    if _isna(value):
        return "-"
    x = float(f"{float(value):.3g}")
    if x == 0:
        return "0"
    magnitude = math.floor(math.log10(abs(x)))
    if magnitude < -3:
        return f"{x:.3g}"
    decimals = max(0, 2 - magnitude)
    return f"{x:.{decimals}f}"


def _fmt_count(value: Any) -> str:
    """A count or a median of counts: an integer below 10^7, 3 significant digits above."""
    if _isna(value):
        return "-"
    x = float(value)
    return str(round(x)) if abs(x) < 1e7 else f"{x:.3g}"  # an int: -0.4 reads 0, not -0


def _fmt_rate(value: Any) -> str:
    """A rate or a mean count: 3 significant digits, thousands written out; ``-`` if NA."""
    if _isna(value):
        return "-"
    x = float(f"{float(value):.3g}") + 0.0  # -0.0 reads 0
    return f"{x:,.0f}" if abs(x) >= 100 else f"{x:.3g}"


def _fmt_text(value: Any) -> str:
    """A label; NA shows as ``-`` and the pipe is escaped so it cannot break a table."""
    return "-" if _isna(value) else str(value).replace("|", "\\|")


def _fmt_cliff(value: Any) -> str:
    """A cliff rung; a config that never falls reads ``never`` rather than a blank."""
    return "never" if _isna(value) else _fmt_text(value)


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[str]],
                   right: Sequence[bool]) -> str:
    """A pipe table whose columns are padded to equal width (readable as plain text too), the
    columns whose ``right`` is true right-aligned."""
    widths = [max(len(h), 3, *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        padded = [c.rjust(w) if r else c.ljust(w)
                  for c, w, r in zip(cells, widths, right, strict=True)]
        return "| " + " | ".join(padded) + " |"

    rule = ["-" * (w - 1) + ":" if r else "-" * w for w, r in zip(widths, right, strict=True)]
    return "\n".join([line(headers), line(rule), *(line(r) for r in rows)])


def _columns_view(table: pd.DataFrame, spec: list[tuple[str, str, Any, bool]]) -> str:
    """Render ``table`` with (header, column, formatter, right-aligned) specs, in order."""
    headers = [h for h, _, _, _ in spec]
    right = [r for _, _, _, r in spec]
    cells = [[fmt(v) for v in table[col].astype(object)] for _, col, fmt, _ in spec]
    rows = [list(r) for r in zip(*cells, strict=True)] if cells else []
    return markdown_table(headers, rows, right)


def _capped(title: str, table: pd.DataFrame, spec: list[tuple[str, str, Any, bool]]) -> str:
    """A section listing at most :data:`MARKDOWN_ROWS` rows, saying how many were left out.

    A broken solver can be wrong on every instance of a sweep; the terminal summary should
    still fit on a screen, and the full list is in the json report.
    """
    text = f"## {title}\n\n" + _columns_view(table.head(MARKDOWN_ROWS), spec)
    if len(table) > MARKDOWN_ROWS:
        text += f"\n\n... and {len(table) - MARKDOWN_ROWS} more (the json report lists all)"
    return text


def _has_values(table: pd.DataFrame, column: str) -> bool:
    """True when the column holds at least one value worth a table column."""
    return bool(table[column].notna().any())


#: A column of a rendered table: (header, column of the frame, formatter, right-aligned).
ColumnSpec = tuple[str, str, Any, bool]


def summary_spec(summary: pd.DataFrame, text: Any = None) -> list[ColumnSpec]:
    """The columns worth showing of (a part of) the summary: keys, counts, then statistics.

    ``family`` appears only when the rows hold several; ``optimal`` and each failure status
    only when some row counts one; a statistic only when some row holds a value; the score
    (``score/max``, from :func:`with_score_cell`) only where the family has partial scores.
    So a table of one family carries no column that means nothing for it. ``text`` formats the
    label columns (default: Markdown's, NA as ``-`` and pipes escaped).
    """
    text = _fmt_text if text is None else text
    spec: list[ColumnSpec] = []
    if summary["family"].nunique() > 1:
        spec.append(("family", "family", text, False))
    spec += [("ladder", "ladder", text, False), ("rung", "rung", text, False),
             ("config", "config", text, False), ("runs", "runs", _fmt_count, True),
             ("solved", "solved", _fmt_count, True)]
    counts = ["optimal", *FAILURES]
    spec += [(s, s, _fmt_count, True) for s in counts if (summary[s].fillna(0) > 0).any()]
    stats = [("t med", "t_median", fmt_time), ("t max", "t_max", fmt_time),
             ("PAR-2", "par2", fmt_time), ("per s", "per_second", _fmt_rate),
             ("encode", "encode_mean", fmt_time), ("solve", "solve_mean", fmt_time),
             ("nodes", "nodes_median", _fmt_count), ("guesses", "guesses_mean", _fmt_rate),
             ("conflicts", "conflicts_median", _fmt_count), ("score/max", "_score", text)]
    if "_solved_ci" in summary:  # the 95% intervals, each beside its statistic
        stats[1:1] = [("t med 95%", "_t_ci", text)]
        stats.insert(0, ("solved 95%", "_solved_ci", text))
        stats.insert(stats.index(("PAR-2", "par2", fmt_time)) + 1,
                     ("PAR-2 95%", "_par2_ci", text))
    spec += [(h, c, f, True) for h, c, f in stats if c in summary and _has_values(summary, c)]
    return spec


def with_score_cell(summary: pd.DataFrame) -> pd.DataFrame:
    """The summary plus ``_score``: ``median/max`` as one cell, NA where ``max_score`` is NA.

    Only a family with partial scores records ``max_score``, so elsewhere the cell stays NA
    and :func:`summary_spec` leaves the column out.
    """
    def cell(median: Any, best: Any) -> Any:
        return pd.NA if _isna(best) else f"{_fmt_count(median)}/{_fmt_count(best)}"
    scores = [cell(m, b) for m, b in zip(summary["score_median"], summary["max_score"],
                                         strict=True)]
    return summary.assign(_score=pd.Series(scores, index=summary.index, dtype=object),
                          **interval_cells(summary))


def fmt_interval(low: Any, high: Any, fmt: Any = None) -> Any:
    """An interval as one cell, ``low-high`` in ``fmt`` (default :func:`fmt_time`); NA if
    either end is."""
    fmt = fmt_time if fmt is None else fmt
    return pd.NA if _isna(low) or _isna(high) else f"{fmt(low)}-{fmt(high)}"


def _fmt_fraction(value: Any) -> str:
    """A fraction with two decimals: ``0.49``."""
    return "-" if _isna(value) else f"{float(value):.2f}"


def interval_cells(summary: pd.DataFrame) -> dict[str, pd.Series]:
    """The summary's 95% intervals as text cells: ``_solved_ci`` (the solved fraction's
    Wilson interval), ``_t_ci`` and ``_par2_ci`` (bootstrap intervals, seconds)."""
    if "solved_low" not in summary:
        return {}
    def cells(low: str, high: str, fmt: Any) -> pd.Series:
        values = [fmt_interval(a, b, fmt) for a, b in zip(summary[low], summary[high],
                                                           strict=True)]
        return pd.Series(values, index=summary.index, dtype=object)
    return {"_solved_ci": cells("solved_low", "solved_high", _fmt_fraction),
            "_t_ci": cells("t_median_low", "t_median_high", fmt_time),
            "_par2_ci": cells("par2_low", "par2_high", fmt_time)}


def _fmt_position(value: float) -> str:
    """A fitted position on a ladder's axis, 3 significant digits."""
    return f"{float(f'{float(value):.3g}'):g}"


def fit_text(row: Any, compact: bool = False) -> str:
    """A config's fitted cliff as text, from a row of the cliffs table: ``15.4 (14.7-16.1)``,
    or where it lies outside the ladder ``below the first rung`` / ``beyond the last rung``
    (``compact``: ``<first`` / ``>last``, for the terminal); ``-`` where there is no fit."""
    def end(value: Any, where: Any) -> str:
        if not _isna(value):
            return _fmt_position(value)
        if compact:
            return {confidence.BELOW: "<first", confidence.BEYOND: ">last"}.get(where, "-")
        return "-" if _isna(where) else str(where)
    where = getattr(row, "fit_where", pd.NA)
    if _isna(where):
        return "-"
    point = end(row.fit_cliff, where)
    low, high = end(row.fit_cliff_low, row.fit_low_where), end(row.fit_cliff_high,
                                                               row.fit_high_where)
    if low == high == point:
        return point
    return f"{point} ({low} to {high})" if not compact else f"{point} ({low}-{high})"


def _md_summary(report: Report) -> str:
    """The summary section: one table, or one subsection per family when there are several.

    Per family, so that each table keeps only the columns that family fills.
    """
    if report.summary.empty:
        return "## Summary\n\nno runs"
    summary = with_score_cell(report.summary)
    families = sorted(set(summary["family"]))
    head, tail = "## Summary\n\n", f"\n\n{INTERVAL_NOTE}"
    if len(families) == 1:
        return head + _columns_view(summary, summary_spec(summary)) + tail
    parts = []
    for family in families:
        rows = summary[summary["family"] == family]
        parts.append(f"### {family or '(no family)'}\n\n" + _columns_view(rows, summary_spec(rows)))
    return head + "\n\n".join(parts) + tail


def _md_virtual_best(report: Report) -> str:
    """The virtual best solver section (omitted when there are no instances)."""
    if report.virtual_best.empty:
        return ""
    spec = [("ladder", "ladder", _fmt_text, False), ("rung", "rung", _fmt_text, False),
            ("instances", "instances", _fmt_count, True), ("solved", "solved", _fmt_count, True)]
    if (report.virtual_best["optimal"].fillna(0) > 0).any():
        spec.append(("optimal", "optimal", _fmt_count, True))
    spec.append(("PAR-2", "par2", fmt_time, True))
    if report.virtual_best["family"].nunique() > 1:
        spec.insert(0, ("family", "family", _fmt_text, False))
    return "## Virtual best solver\n\n" + _columns_view(report.virtual_best, spec)


def _md_cliffs(report: Report) -> str:
    """The cliffs section: where each config first solves less than half of a rung."""
    if report.cliffs.empty:
        return "## Cliffs\n\nno ladders"
    spec = [("ladder", "ladder", _fmt_text, False), ("config", "config", _fmt_text, False),
            ("cliff at rung", "cliff_rung", _fmt_cliff, False),
            ("last fully solved", "last_solved_rung", _fmt_text, False)]
    if report.cliffs["family"].nunique() > 1:
        spec.insert(0, ("family", "family", _fmt_text, False))
    table = report.cliffs.assign(_fit=[fit_text(r) for r in report.cliffs.itertuples()])
    spec += [("fitted cliff (95% CI)", "_fit", _fmt_text, False),
             ("on", "fit_axis", _fmt_text, False)]
    return ("## Cliffs\n\nFirst rung solved on less than half of its runs (skipped runs count "
            "as unsolved); fitted cliff: the 50% crossing of a monotone decreasing logistic "
            "fit (maximum likelihood) of the solved fraction against the rung value (`on` "
            "`rung`) or rung_index, its 95% interval from "
            f"{confidence.RESAMPLES} bootstrap resamples of the runs within each rung.\n\n"
            + _columns_view(table, spec))


def paired_lines(table: pd.DataFrame, family: str, ladder: str, most: int = 3) -> list[str]:
    """The terminal's line about a ladder's paired comparisons over the whole ladder: the
    verdicts that tell configs apart (at most ``most``), or that none does; nothing when no
    two configs shared instances."""
    mine = table[(table["family"] == family) & (table["ladder"] == ladder)
                 & (table["rung"] == paired.WHOLE_LADDER)] if len(table) else table
    if mine.empty:
        return []
    beats = [v.replace(" on the whole ladder", "").replace(", Holm-adjusted", "")
             for v in mine["verdict"] if " beats " in v]
    head = "paired over the ladder (sign test, Holm-adjusted): "
    if not beats:
        return _wrap(head + f"no config beats another with these seeds ({len(mine)} pair"
                     f"{'s' * (len(mine) != 1)} of configs).", indent="  ")
    more = f"; and {len(beats) - most} more" if len(beats) > most else ""
    return _wrap(head + "; ".join(beats[:most]) + more + ".", indent="  ")


def _fmt_p(value: Any) -> str:
    """A p-value to 2 significant digits (``<0.0001`` below)."""
    if _isna(value):
        return "-"
    return "<0.0001" if value < 1e-4 else f"{float(value):.2g}"


def _fmt_needed(value: Any) -> str:
    """Paired instances needed: a count, ``>100000``, or blank where not asked."""
    if _isna(value):
        return ""
    return f">{paired.MAX_NEEDED}" if math.isinf(value) else str(int(value))


PAIRED_NOTE = ("Configs run on the same instances (same instance, repeat and seed), compared "
               "pair by pair on PAR-2 terms: W/T/L are A's wins, ties (both failed, or within "
               f"{paired.TIE_SECONDS} s or {paired.TIE_RELATIVE:.0%}) and losses. p: two-sided "
               "exact sign test on the untied pairs, and Wilcoxon signed-rank test on the "
               "differences; both Holm-adjusted over all {m} comparisons of this report. A "
               "beats B only where the sign test's adjusted p < 0.05. needed: paired "
               "instances the observed win fraction (and share of ties) would need for the "
               "exact sign test to reach p < 0.05/{m} (Bonferroni, Holm's strictest step).")


def _md_paired(report: Report) -> str:
    """The paired comparisons: every whole-ladder comparison, then the per-rung ones that tell
    configs apart (all in json)."""
    table = report.paired
    if table.empty:
        return "## Paired comparisons\n\nnone (no two configs ran on the same instances)"
    keep = (table["rung"] == paired.WHOLE_LADDER) | table["verdict"].str.contains(" beats ")
    shown = table[keep.fillna(False).to_numpy(dtype=bool)]
    spec = [("ladder", "ladder", _fmt_text, False), ("rung", "rung", _fmt_text, False),
            ("A", "config_a", _fmt_text, False), ("B", "config_b", _fmt_text, False),
            ("pairs", "pairs", _fmt_count, True), ("W", "wins_a", _fmt_count, True),
            ("T", "ties", _fmt_count, True), ("L", "wins_b", _fmt_count, True),
            ("sign p (Holm)", "sign_p_holm", _fmt_p, True),
            ("Wilcoxon p (Holm)", "wilcoxon_p_holm", _fmt_p, True),
            ("verdict", "verdict", _fmt_text, False), ("needed", "needed_pairs", _fmt_needed,
                                                       True)]
    if table["family"].nunique() > 1:
        spec.insert(0, ("family", "family", _fmt_text, False))
    rest = len(table) - len(shown)
    note = PAIRED_NOTE.format(m=len(table)) + (
        f" Shown: every comparison over a whole ladder and the per-rung ones that tell configs "
        f"apart; {rest} more per-rung comparisons are in the json report." if rest else "")
    return _capped("Paired comparisons", shown, spec).replace(
        "## Paired comparisons\n\n", f"## Paired comparisons\n\n{note}\n\n", 1)


def _md_witnesses(report: Report) -> str:
    """Where a ranking of paradigms rests on one engine or one model (nothing when none)."""
    table = report.witnesses
    if not len(table):
        return ""
    lines = [f"- {family} / {ladder}: {witnesses.ladder_note(rows)}"
             for (family, ladder), rows in table.groupby(["family", "ladder"], sort=False)]
    return ("## One witness per paradigm\n\nA ladder ranks paradigms, but these paradigms' "
            "configs share one engine or one model (`backend`, `solver`): what the ladder says "
            "of the paradigm, it says of that engine or model.\n\n" + "\n".join(lines))


def witness_lines(table: pd.DataFrame, family: str, ladder: str) -> list[str]:
    """The terminal's line about a ladder's single witnesses (none when there are none)."""
    mine = table[(table["family"] == family) & (table["ladder"] == ladder)] if len(table) \
        else table
    if not len(mine):
        return []
    return _wrap(f"{witnesses.ladder_note(mine)}.", "  ")


TAILS_NOTE = ("Rungs where a config made at least {runs} runs. tail alpha: minus the "
              "least-squares slope of log P(T > t) against log t over the slower half of the "
              "runs (failures count as unsolved: censored at the budget), Gomes et al. (JAR "
              "2000); alpha < 1: infinite mean, alpha < 2: infinite variance (heavy: restarts "
              "pay). The survival figures draw these curves.")


def _md_tails(report: Report) -> str:
    """Run-time distributions: each (rung, config) with many runs, its tail index and verdict;
    nothing when no rung has that many runs."""
    table = report.tails
    if not len(table):
        return ""
    spec = [("family", "family", _fmt_text, False), ("ladder", "ladder", _fmt_text, False),
            ("rung", "rung", _fmt_text, False), ("config", "config", _fmt_text, False),
            ("runs", "runs", _fmt_count, True), ("solved", "solved", _fmt_count, True),
            ("t median", "median_s", fmt_time, True),
            ("tail alpha", "alpha", lambda v: "" if _isna(v) else f"{v:.2f}", True),
            ("r2", "r2", lambda v: "" if _isna(v) else f"{v:.2f}", True),
            ("points", "points", _fmt_count, True), ("tail", "verdict", _fmt_text, False)]
    note = TAILS_NOTE.format(runs=tails.MIN_RUNS)
    text = _capped("Run-time distributions", table, spec)
    return text.replace("## Run-time distributions\n\n",
                        f"## Run-time distributions\n\n{note}\n\n", 1)


def _md_disagreements(report: Report) -> str:
    """The disagreements section; says ``none`` when every config agrees."""
    if report.disagreements.empty:
        return "## Disagreements\n\nnone"
    spec = [("kind", "kind", _fmt_text, False), ("ladder", "ladder", _fmt_text, False),
            ("rung", "rung", _fmt_text, False),
            ("instance", "instance_id", lambda v: _fmt_text(v)[:12], False),
            ("detail", "detail", _fmt_text, False)]
    return _capped("Disagreements", report.disagreements, spec)


def _md_wrong(report: Report) -> str:
    """The wrong answers section; says ``none`` when the checker rejected nothing."""
    if report.wrong.empty:
        return "## Wrong answers\n\nnone"
    spec = [("ladder", "ladder", _fmt_text, False), ("rung", "rung", _fmt_text, False),
            ("instance", "instance_id", lambda v: _fmt_text(v)[:12], False),
            ("config", "config", _fmt_text, False), ("seed", "seed", _fmt_count, True),
            ("claimed", "claimed", _fmt_text, False), ("verdict", "verdict", _fmt_text, False)]
    return _capped("Wrong answers", report.wrong, spec)


def _markdown(report: Report) -> str:
    """The human summary printed at the end of a sweep."""
    title = f"# cliffbench report: {report.sweep}" if report.sweep else "# cliffbench report"
    sections = [title, _md_summary(report), _md_virtual_best(report), _md_cliffs(report),
                _md_paired(report), _md_witnesses(report), _md_tails(report),
                _md_disagreements(report),
                _md_wrong(report), md_claims(report.claims)]
    return "\n\n".join(s for s in sections if s) + "\n"


# --------------------------------------------------------------------------------------------
# The terminal summary

#: No line of :func:`terminal_summary` is longer than this.
TERMINAL_WIDTH = 100
#: Config labels and rung labels longer than these are cut and footnoted.
CONFIG_WIDTH = 34
RUNG_WIDTH = 12
#: At most this many wrong answers / disagreements are listed in the terminal summary.
TERMINAL_PROBLEMS = 10
_GAP = "  "
#: The score column's sentence, given what the family's score counts (its ``score_meaning``).
SCORE_LEGEND = "{column}: mean % of the {meaning} by the boards returned."
#: What a score counts for a family that does not say (or is not installed here).
SCORE_MEANING = "best score reached"
#: The legend's sentences: (text, the cell or column it explains; None: always shown).
_LEGEND: tuple[tuple[str, str | None], ...] = (
    ("cell: solved/optimal/failed runs of a config on a rung (solved/failed where no run of "
     "the family is optimal).", None),
    ("blank: no run there.", ""),
    ("skip: every run skipped (the ladder stopped climbing).", "skip"),
    ("!: a wrong answer among them.", "!"),
    ("virtual best: per instance the best config (counts instances).", None),
    ("cliff: first rung solved on less than half of its runs.", "cliff"),
    ("fit: 50% crossing of a logistic fit of the solved fraction along the ladder (rung "
     "value, else rung index), its 95% bootstrap interval in brackets; <first / >last: "
     "outside the ladder.",
     "cliff"),
    ("PAR-2: mean seconds per run, a failure counting twice its budget.", None),
    (SCORE_LEGEND, "score"),
    ("Glossary: docs/reading-results.md.", None),
)


class _Footnotes:
    """Cuts labels that are too long for their column and remembers what each cut stands for.

    A cut label keeps its first characters and ends with a marker ``~1``, ``~2``, ...; the
    same label always gets the same marker, so a cut rung reads the same in the header and in
    the cliff column, and :meth:`lines` lists every marker with its full label.
    """

    def __init__(self) -> None:
        self.markers: dict[str, str] = {}

    def cut(self, label: str, width: int) -> str:
        if len(label) <= width:
            return label
        marker = self.markers.setdefault(label, f"~{len(self.markers) + 1}")
        return label[:width - len(marker)] + marker

    def lines(self) -> list[str]:
        return [line for label, marker in self.markers.items()
                for line in _wrap(f"{marker} {label}", indent="   ")]


def _wrap(text: str, indent: str = "") -> list[str]:
    """``text`` wrapped to :data:`TERMINAL_WIDTH` (long words broken), later lines indented."""
    return textwrap.wrap(text, TERMINAL_WIDTH, subsequent_indent=indent,
                         break_on_hyphens=False) or [""]


def _fit(text: str) -> str:
    """One line cut to :data:`TERMINAL_WIDTH`, ending in ``~`` when something was cut."""
    return text if len(text) <= TERMINAL_WIDTH else text[:TERMINAL_WIDTH - 1] + "~"


def cell_text(cell: Any, with_optimal: bool) -> str:
    """One grid cell of :class:`Overview` (a row of its ``cells``) as the summaries show it:
    ``solved/optimal/failed`` (``solved/failed`` without ``with_optimal``), ``skip`` when every
    run was skipped, and a trailing ``!`` when one of them was a wrong answer."""
    if cell.runs > 0 and cell.skipped == cell.runs:
        return "skip"
    counts = [cell.solved, cell.optimal, cell.failed] if with_optimal \
        else [cell.solved, cell.failed]
    return "/".join(str(int(c)) for c in counts) + ("!" if cell.wrong > 0 else "")


def family_columns(view: Overview, family: str) -> tuple[bool, bool]:
    """Whether a family's grids show ``optimal`` counts (some run of it is optimal) and a
    ``score`` column (it has partial scores)."""
    optimal = view.cells.loc[view.cells["family"] == family, "optimal"]
    scores = view.totals.loc[view.totals["family"] == family, "score_fraction"]
    return bool((optimal > 0).any()), bool(scores.notna().any())


def _plain_label(value: Any) -> str:
    """A label for plain text: NA as ``-``, nothing escaped."""
    return "-" if _isna(value) else str(value)


def score_percent(fraction: Any) -> str:
    """A score fraction as a percent (``-`` if NA); ``100%`` only for the maximum score."""
    if _isna(fraction):
        return "-"
    return "100%" if fraction >= 1 else f"{min(99.9, math.floor(fraction * 1000) / 10):.1f}%"


def _text_rows(headers: list[str], rows: list[list[str]]) -> list[str]:
    """Columns padded to their widest cell, the first left-aligned, the rest right-aligned."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]

    def line(cells: list[str]) -> str:
        first = cells[0].ljust(widths[0])
        rest = [c.rjust(w) for c, w in zip(cells[1:], widths[1:], strict=True)]
        return _GAP.join([first, *rest]).rstrip()

    return [line(headers), *(line(r) for r in rows)]


def _chunks(widths: list[int], room: int, tail: int) -> list[list[int]]:
    """Split column positions into runs that fit ``room`` characters, the last one with ``tail``.

    ``widths`` are each column's width with its gap. Built from the right, so the last chunk
    (the one that also holds the tail columns) is as full as it can be.
    """
    chunks: list[list[int]] = []
    current: list[int] = []
    used, budget = 0, room - tail
    for i in reversed(range(len(widths))):
        if current and used + widths[i] > budget:
            chunks.append(current)
            current, used, budget = [], 0, room
        current.insert(0, i)
        used += widths[i]
    chunks.append(current)
    return chunks[::-1]


def _grid_lines(configs: list[str], rungs: list[str], grid: list[list[str]],
                tail_headers: list[str], tail: list[list[str]]) -> list[str]:
    """The config x rung table, its rung columns wrapped into blocks of at most the width."""
    config_w = max(len("config"), *(len(c) for c in configs))
    col_w = [max(len(r), *(len(row[i]) for row in grid)) + len(_GAP) for i, r in enumerate(rungs)]
    tail_w = sum(max(len(h), *(len(row[i]) for row in tail)) + len(_GAP)
                 for i, h in enumerate(tail_headers))
    lines: list[str] = []
    blocks = _chunks(col_w, TERMINAL_WIDTH - config_w, tail_w) if rungs else [[]]
    for b, block in enumerate(blocks):
        last = b == len(blocks) - 1
        headers = ["config", *(rungs[i] for i in block), *(tail_headers if last else [])]
        rows = [[c, *(grid[k][i] for i in block), *(tail[k] if last else [])]
                for k, c in enumerate(configs)]
        lines += ([""] if b else []) + _text_rows(headers, rows)
    return lines


def _ladder_title(family: str, ladder: str, cells: pd.DataFrame, budgets: pd.Series,
                  with_optimal: bool) -> str:
    """The line above a ladder's table: what it is, how many runs a cell, the budget."""
    real = cells[cells["config"] != VIRTUAL_BEST]
    per_cell = sorted({int(r) for r in real["runs"]})
    runs = (f"{per_cell[0]}" if len(per_cell) == 1 else f"{per_cell[0]}-{per_cell[-1]}")
    seconds = sorted({fmt_budget(b) for b in budgets.dropna().unique()}, key=float)
    budget = (f"budget {seconds[0]} s" if len(seconds) == 1
              else f"budgets {seconds[0]}-{seconds[-1]} s" if seconds else "no budget")
    rungs = cells["rung"].nunique()
    what = (f"{family}: instances outside ladders" if ladder == PSEUDO_LADDER
            else f"{family} / {ladder}: {rungs} rung{'s' * (rungs != 1)}")
    form = "solved/optimal/failed" if with_optimal else "solved/failed"
    return f"{what}, {runs} run{'s' * (runs != '1')} a cell, {budget}, cell = {form}"


def fmt_budget(value: Any) -> str:
    """A budget in seconds as it was given: ``10``, ``2.5``."""
    return fmt_param(float(value))


def _ladder_tail(totals: pd.DataFrame, pseudo: bool, with_score: bool,
                 notes: _Footnotes, fits: dict[str, str]) -> tuple[list[str], list[list[str]]]:
    """The columns after the rungs: headers, and per config its cliff and fitted cliff (not
    on a pseudo-ladder: one rung cannot fall off anything), PAR-2 and, with partial scores,
    score."""
    headers = ([] if pseudo else ["cliff", "fit"]) + ["PAR-2"] + (
        ["score"] if with_score else [])
    rows = []
    for total in totals.itertuples():
        cliff = "never" if _isna(total.cliff_rung) else notes.cut(str(total.cliff_rung),
                                                                  RUNG_WIDTH)
        fit = "" if total.config == VIRTUAL_BEST else fits.get(total.config, "-")
        score = "" if total.config == VIRTUAL_BEST else score_percent(total.score_fraction)
        rows.append(([] if pseudo else [cliff, fit]) + [fmt_time(total.par2)]
                    + ([score] if with_score else []))
    return headers, rows


def _marks(grid: list[list[str]]) -> set[str]:
    """The special cells a grid holds, for the legend: ``""`` (blank), ``skip``, ``!``."""
    cells = {c for row in grid for c in row}
    return ({"", "skip"} & cells) | ({"!"} if any(c.endswith("!") for c in cells) else set())


def _ladder_text(family: str, ladder: str, view: Overview, budgets: pd.Series,
                 report: Report) -> tuple[str, set[str]]:
    """One ladder's block (title, config x rung grid with its tail columns, footnotes), and the
    marks and tail headers it uses, for the legend."""
    cells = view.cells[(view.cells["family"] == family) & (view.cells["ladder"] == ladder)]
    totals = view.totals[(view.totals["family"] == family) & (view.totals["ladder"] == ladder)]
    with_optimal, with_score = family_columns(view, family)
    notes = _Footnotes()
    rung_labels = list(cells.drop_duplicates("rung")["rung"])
    by_key = {(c.config, c.rung): cell_text(c, with_optimal) for c in cells.itertuples()}
    grid = [[by_key.get((config, r), "") for r in rung_labels] for config in totals["config"]]
    rungs = [notes.cut(r or "all", RUNG_WIDTH) for r in rung_labels]
    cliffs = report.cliffs[(report.cliffs["family"] == family)
                           & (report.cliffs["ladder"] == ladder)]
    fits = {c.config: fit_text(c, compact=True) for c in cliffs.itertuples()}
    tail_headers, tail = _ladder_tail(totals, ladder == PSEUDO_LADDER, with_score, notes, fits)
    configs = [notes.cut(c, CONFIG_WIDTH) for c in totals["config"]]
    title = _wrap(_ladder_title(family, ladder, cells, budgets, with_optimal), indent="  ")
    text = "\n".join([*title, *_grid_lines(configs, rungs, grid, tail_headers, tail),
                      *notes.lines(), *paired_lines(report.paired, family, ladder),
                      *witness_lines(report.witnesses, family, ladder)])
    return text, _marks(grid) | set(tail_headers)


def _headline(data: pd.DataFrame, sweep: str, wrong: int, disagree: int) -> list[str]:
    """The first lines: how many runs, answered, proven optimal, failed, wrong, disagreeing."""
    runs, ok = len(data), int(data["_ok"].sum())
    families = data["family"].nunique()
    configs = len(data[["family", "config"]].drop_duplicates())
    text = (f"cliffbench {sweep}: {runs} runs of {configs} solver configs on "
            f"{families} famil{'ies' if families != 1 else 'y'}; {ok} answered "
            f"({int(data['_optimal'].sum())} proven optimal), {runs - ok} failed; "
            f"{wrong} wrong answer{'s' * (wrong != 1)}, {disagree} disagreement"
            f"{'s' * (disagree != 1)}.")
    return _wrap(text, indent="  ")


def _problem_lines(title: str, table: pd.DataFrame, line_of: Any) -> list[str]:
    """A titled list of at most :data:`TERMINAL_PROBLEMS` problems, each one cut line."""
    if table.empty:
        return []
    lines = [title, *(_fit("  " + line_of(row))
                      for row in table.head(TERMINAL_PROBLEMS).itertuples())]
    if len(table) > TERMINAL_PROBLEMS:
        lines.append(f"  ... and {len(table) - TERMINAL_PROBLEMS} more "
                     "(cliffbench report --format json lists all)")
    return lines


def _problems(wrong: pd.DataFrame, disagree: pd.DataFrame) -> list[str]:
    """The wrong answers and the disagreements, listed (nothing when there are none)."""
    def where(row: Any) -> str:
        return f"{row.ladder} {row.rung} {_plain_label(row.instance_name or row.instance_id)}"

    lines = _problem_lines("Wrong answers (rejected by the checker):", wrong,
                           lambda r: f"{where(r)} {r.config}: {_plain_label(r.verdict)}")
    more = _problem_lines("Disagreements between configs:", disagree,
                          lambda r: f"{where(r)} {r.kind}: {_plain_label(r.detail)}")
    return lines + ([""] if lines and more else []) + more


def terminal_summary(table: pd.DataFrame, sweep: str,
                     claims: pd.DataFrame | None = None) -> str:
    """What a finished sweep prints: a few lines a ladder, no line over :data:`TERMINAL_WIDTH`.

    A headline (runs, answered, proven optimal, failed, wrong answers, disagreements), then per
    family and ladder a table of its configs (and the virtual best) against its rungs: each
    cell ``solved/optimal/failed`` (``solved/failed`` where the family has no optimal run), then
    the config's cliff, its PAR-2 over the ladder and, where the family has partial scores,
    the mean fraction of the score. Rung columns that do not fit are wrapped into further
    blocks; long labels are cut and footnoted. Then the wrong answers and disagreements, and a
    legend. docs/reading-results.md explains every column.
    """
    data = normalize(table)
    if data.empty:
        return f"cliffbench {sweep}: no runs\n"
    report = build_report(data, sweep, normalized=True)
    view = overview(data, normalized=True, report=report)
    wrong, disagree = report.wrong, report.disagreements
    blocks = ["\n".join(_headline(data, sweep, len(wrong), len(disagree)))]
    ladders = view.totals[["family", "ladder"]].drop_duplicates()
    ladders = ladders.sort_values("family", kind="stable")
    marks: set[str] = set()
    scored: dict[str, None] = {}  # the families whose tables have a score column, in order
    for family, ladder in ladders.itertuples(index=False):
        budgets = data.loc[(data["family"] == family) & (data["ladder"] == ladder), "budget_s"]
        text, used = _ladder_text(family, ladder, view, budgets, report)
        blocks.append(text)
        marks |= used
        if "score" in used:
            scored[family] = None
    problems = _problems(wrong, disagree)
    if problems:
        blocks.append("\n".join(problems))
    if claims_lines(claims):  # claims, checked (``claims``: bench.views.claims.evaluate's)
        blocks.append("\n".join(claims_lines(claims)))
    blocks.append("\n".join(_legend(marks, list(scored)) + [
        _fit(f"Every statistic: cliffbench report {sweep}"),
        _fit(f"A page to explore the runs: cliffbench report {sweep} --html FILE")]))
    return "\n\n".join(blocks) + "\n"


def _legend(marks: set[str], scored: list[str]) -> list[str]:
    """The legend lines: the sentences always shown, and those of the ``marks`` the tables use
    (the score's says what the ``scored`` families' scores count)."""
    return _wrap(" ".join(score_legend(scored) if text == SCORE_LEGEND else text
                          for text, needs in _LEGEND if needs is None or needs in marks))


def score_meaning(family: str) -> str:
    """What a family's partial score counts (``instances.family(name).score_meaning``, say
    ``joins matched``); :data:`SCORE_MEANING` where it does not say or is not installed."""
    try:
        meaning = instances.family(family).score_meaning
    except InstanceError:
        meaning = ""
    return meaning or SCORE_MEANING


def score_legend(families: Iterable[str]) -> str:
    """The score column's sentence for the tables of ``families``: one :data:`SCORE_LEGEND`,
    or, where their scores count different things, one per meaning naming its families."""
    by_meaning: dict[str, list[str]] = {}
    for family in dict.fromkeys(families):
        by_meaning.setdefault(score_meaning(family), []).append(family)
    if len(by_meaning) <= 1:
        return SCORE_LEGEND.format(column="score", meaning=next(iter(by_meaning), SCORE_MEANING))
    return " ".join(SCORE_LEGEND.format(column=f"score ({', '.join(names)})", meaning=meaning)
                    for meaning, names in by_meaning.items())


# --------------------------------------------------------------------------------------------
# Claims, checked (bench.views.claims)


def md_claims(claims: pd.DataFrame | None) -> str:
    """The claims section: each published number beside ours and the verdict; "" without a
    claims file."""
    if claims is None:
        return ""
    if claims.empty:
        return "## Claims, checked\n\nthe claims file holds no claim"
    rows = [[_fmt_text(r.id), _fmt_text(r.source), _fmt_text(r.claim), _fmt_text(r.published),
             _fmt_text(r.ours), _fmt_text(r.verdict), _fmt_text(r.why)]
            for r in claims.itertuples()]
    counts = claims["verdict"].value_counts()
    said = ", ".join(f"{counts[v]} {v}" for v in ("reproduced", "differs", "not comparable")
                     if v in counts)
    return ("## Claims, checked\n\n" + said + " (ours: the value and its 95% interval; "
            "docs/reading-results.md, \"Claims, checked\").\n\n" + markdown_table(
                ["claim", "source", "what", "published", "ours", "verdict", "why"], rows,
                [False, False, False, True, True, False, False]))


def claims_lines(claims: pd.DataFrame | None) -> list[str]:
    """The claims table of the terminal summary: one cut line a claim; [] without claims."""
    if claims is None or claims.empty:
        return []
    width = max(len(str(i)) for i in claims["id"])
    lines = ["Claims, checked (published -> ours; `cliffbench report` says why):"]
    for r in claims.itertuples():
        lines.append(_fit(f"  {r.verdict:<14} {str(r.id):<{width}}  {r.published} -> {r.ours}"))
    return lines
