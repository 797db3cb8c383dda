"""The solved / PAR-2 tables of a sweep, as Markdown and LaTeX (booktabs).

Rendered from the table CSV (:func:`bench.views.figures._solved_table`): per ladder, configs
(named as the figures' legends name them) x rungs, one table of solved counts and one of PAR-2
seconds, the virtual best last below a rule. A rung a config skipped (the ladder stopped climbing
for it) reads ``skipped`` in both, never ``0/3``; a rung partly skipped says how many runs were.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from bench.views.report import fmt_time, markdown_table
from bench.views.stats import VIRTUAL_BEST

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


def _count(value: Any) -> str:
    return "-" if value is None or value is pd.NA else str(int(value))


def _skipped(row: dict[str, Any]) -> int:
    value = row.get("skipped")
    return 0 if value is None or value is pd.NA else int(value)


def solved_cell(row: dict[str, Any]) -> str:
    """``solved/runs``; ``skipped`` when every run was; the skipped count when some were."""
    skipped = _skipped(row)
    if skipped and skipped == row["runs"]:
        return "skipped"
    text = f"{_count(row['solved'])}/{_count(row['runs'])}"
    return text + (f" ({skipped} skipped)" if skipped else "")


def par2_cell(row: dict[str, Any]) -> str:
    """PAR-2 seconds; ``skipped`` when every run was (its PAR-2 is the penalty alone)."""
    skipped = _skipped(row)
    return "skipped" if skipped and skipped == row["runs"] else fmt_time(row["par2"])


def _pivot(rows: pd.DataFrame, configs: list[str], rungs: list[str], cell: Any) -> list[list[str]]:
    """Rows of cells: one per config, one cell per rung (``-`` where it did not run)."""
    found = {(r["config"], r["rung"]): cell(r) for r in rows.to_dict("records")}
    names = dict(zip(rows["config"], rows["label"], strict=True))
    return [[names[c], *[found.get((c, rung), "-") for rung in rungs]] for c in configs]


def render_tables(table: pd.DataFrame, sweep: str) -> tuple[str, str]:
    """Markdown and LaTeX: per ladder, solved counts (of runs) and PAR-2, configs x rungs."""
    md = [f"# Solved counts and PAR-2: {sweep}", "",
          "Solved: runs answered (solved, optimal or infeasible) of the runs planned. "
          "`skipped`: the ladder stopped climbing for that config, so those runs were never "
          "made (not failures; they count as unsolved here). PAR-2: mean wall seconds, a failed "
          "or skipped run counting twice its budget. `virtual best`: per instance, the fastest "
          "config (its counts are instances).", ""]
    tex = [f"% Solved counts and PAR-2: {sweep} (booktabs; \\usepackage{{booktabs}})"]
    for (family, ladder), rows in table.groupby(["family", "ladder"], sort=False):
        rungs = rows[["rung_index", "rung"]].drop_duplicates().sort_values(
            "rung_index", na_position="last")["rung"].tolist()
        configs = list(dict.fromkeys(rows["config"]))
        solved = _pivot(rows, configs, rungs, solved_cell)
        par2 = _pivot(rows, configs, rungs, par2_cell)
        headers = ["config", *[r or "all instances" if r != "all" else "all" for r in rungs]]
        right = [False, *[True] * len(rungs)]
        name = f"{ladder} ({family})"
        md += [f"## {name}", "", "Solved (of runs):", "", markdown_table(headers, solved, right),
               "", "PAR-2 (s):", "", markdown_table(headers, par2, right), ""]
        vbs_row = [configs.index(c) for c in configs if c == VIRTUAL_BEST]
        for what, cells in (("solved (of runs)", solved), ("PAR-2 (s)", par2)):
            tex += ["", latex_table(headers, cells, right, f"{name}: {what}", vbs_row)]
    return "\n".join(md).rstrip() + "\n", "\n".join(tex) + "\n"
