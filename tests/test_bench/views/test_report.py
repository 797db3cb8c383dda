"""Reports from synthetic results frames, with every expected number worked out by hand."""

from __future__ import annotations

import io
import json
import math
import re

import pandas as pd
import pytest

from bench.stats.confidence import FIT_COLUMNS
from bench.views.report import METHODS, fmt_time, render, terminal_summary
from bench.views.stats import (
    CLIFF_COLUMNS,
    DISAGREEMENT_COLUMNS,
    PSEUDO_LADDER,
    SUMMARY_COLUMNS,
    VBS_COLUMNS,
    WRONG_COLUMNS,
    build_report,
    cliffs,
    config_labels,
    disagreements,
    summarize,
    virtual_best,
    wrong_answers,
)

BUDGET = 10.0
RUNGS = ["4", "5", "6", "7"]


def run(solver: str, level: int, inst: int, status: str, t: float | None, **extra) -> dict:
    """One row of the ladder ``L`` (edge matching), instance ``inst`` of rung index ``level``.

    ``extra`` overrides or adds columns (``rung=...`` and ``ladder=...`` included).
    """
    row = {
        "sweep": "t", "family": "edgematch", "instance_id": f"r{level}i{inst}",
        "instance_name": f"board-{RUNGS[level]}-{inst}", "source": "gen", "ladder": "L",
        "rung": RUNGS[level], "rung_index": level, "solver": solver, "repeat": 0, "seed": inst,
        "status": status, "claimed": status if status in ("solved", "infeasible") else None,
        "verified": status == "solved", "verdict": "ok" if status == "solved" else None,
        "t_wall": t, "budget_s": BUDGET, "max_score": 2.0 * (level + 4),
    }
    row.update(extra)
    return row


def ladder_rows() -> list[dict]:
    """Two solvers on rungs 0..3, two instances a rung.

    dfs: 2/2, 1/2, 0/2, skipped x2 -> cliff at rung index 2 ("6"), last full rung "4".
    sat: 2/2, 2/2 (one an infeasible claim), 1/2 + wrong, memout + crash -> cliff "7", last "5".
    The infeasible claim of sat on r1i0 contradicts the verified solution of dfs.
    """
    dfs = {"s_restart": 100}
    sat = {"s_phase": 1}
    return [
        run("dfs", 0, 0, "solved", 1.0, work_nodes=100.0, score=8.0, **dfs),
        run("dfs", 0, 1, "solved", 2.0, work_nodes=300.0, score=8.0, **dfs),
        run("dfs", 1, 0, "solved", 3.0, work_nodes=1000.0, **dfs),
        run("dfs", 1, 1, "timeout", 10.5, work_nodes=5000.0, **dfs),
        run("dfs", 2, 0, "timeout", 10.4, **dfs),
        run("dfs", 2, 1, "timeout", 10.6, **dfs),
        run("dfs", 3, 0, "skipped", None, message="rung 6 failed", **dfs),
        run("dfs", 3, 1, "skipped", None, message="rung 6 failed", **dfs),
        run("sat", 0, 0, "solved", 0.5, work_conflicts=10.0, **sat),
        run("sat", 0, 1, "solved", 0.25, work_conflicts=30.0, **sat),
        run("sat", 1, 0, "infeasible", 0.5, **sat),
        run("sat", 1, 1, "solved", 4.0, **sat),
        run("sat", 2, 0, "wrong", 5.0, claimed="solved", verdict="piece 3 used twice", **sat),
        run("sat", 2, 1, "solved", 8.0, **sat),
        run("sat", 3, 0, "memout", 3.0, **sat),
        run("sat", 3, 1, "crash", None, message="SIGSEGV", **sat),
    ]


@pytest.fixture
def ladder() -> pd.DataFrame:
    return pd.DataFrame(ladder_rows())


def row_of(table: pd.DataFrame, **where) -> pd.Series:
    """The single row of ``table`` matching every column=value given."""
    mask = pd.Series(True, index=table.index)
    for col, value in where.items():
        mask &= table[col] == value
    assert mask.sum() == 1, f"{where}: {mask.sum()} rows"
    return table[mask].iloc[0]


# --------------------------------------------------------------------------------------------
# summarize


def test_summary_shape_and_order(ladder):
    s = summarize(ladder)
    assert list(s.columns) == SUMMARY_COLUMNS
    assert list(zip(s["rung_index"], s["config"], strict=True)) == [
        (0, "dfs"), (0, "sat"), (1, "dfs"), (1, "sat"),
        (2, "dfs"), (2, "sat"), (3, "dfs"), (3, "sat")]
    assert s["rung"].tolist() == ["4", "4", "5", "5", "6", "6", "7", "7"]
    assert (s["runs"] == 2).all()


def test_summary_counts(ladder):
    s = summarize(ladder)
    assert s["solved"].tolist() == [2, 2, 1, 2, 0, 1, 0, 0]
    assert s["timeout"].tolist() == [0, 0, 1, 0, 2, 0, 0, 0]
    assert s["skipped"].tolist() == [0, 0, 0, 0, 0, 0, 2, 0]
    assert s["wrong"].tolist() == [0, 0, 0, 0, 0, 1, 0, 0]
    assert s["memout"].tolist() == [0, 0, 0, 0, 0, 0, 0, 1]
    assert s["crash"].tolist() == [0, 0, 0, 0, 0, 0, 0, 1]
    assert s["error"].sum() == 0 and s["unknown"].sum() == 0


def test_summary_par2_by_hand(ladder):
    s = summarize(ladder)
    # dfs: (1+2)/2, (3+20)/2, (20+20)/2, skipped (20+20)/2
    # sat: (0.5+0.25)/2, (0.5+4)/2, wrong (20+8)/2, (20+20)/2
    assert s["par2"].tolist() == pytest.approx([1.5, 0.375, 11.5, 2.25, 20.0, 14.0, 20.0, 20.0])


def test_summary_times_over_successes_only(ladder):
    s = summarize(ladder)
    dfs1 = row_of(s, config="dfs", rung_index=1)
    assert dfs1["t_median"] == 3.0 and dfs1["t_max"] == 3.0  # the 10.5 s timeout is left out
    sat0 = row_of(s, config="sat", rung_index=0)
    assert sat0["t_median"] == pytest.approx(0.375) and sat0["t_max"] == 0.5
    assert pd.isna(row_of(s, config="dfs", rung_index=3)["t_median"])
    sat2 = row_of(s, config="sat", rung_index=2)
    assert sat2["t_median"] == 8.0  # the wrong answer's 5 s is not a success


def test_summary_work_and_score(ladder):
    s = summarize(ladder)
    assert row_of(s, config="dfs", rung_index=0)["nodes_median"] == 200.0
    assert row_of(s, config="dfs", rung_index=1)["nodes_median"] == 3000.0  # timeouts count too
    assert pd.isna(row_of(s, config="dfs", rung_index=2)["nodes_median"])
    assert row_of(s, config="sat", rung_index=0)["conflicts_median"] == 20.0
    assert pd.isna(row_of(s, config="dfs", rung_index=0)["conflicts_median"])
    assert row_of(s, config="dfs", rung_index=0)["score_median"] == 8.0
    assert row_of(s, config="sat", rung_index=3)["max_score"] == 14.0


def test_par2_is_na_when_a_budget_is_missing(ladder):
    ladder.loc[3, "budget_s"] = None  # dfs rung 1, the timeout
    s = summarize(ladder)
    assert pd.isna(row_of(s, config="dfs", rung_index=1)["par2"])
    assert row_of(s, config="dfs", rung_index=0)["par2"] == 1.5


# --------------------------------------------------------------------------------------------
# configs


def test_constant_params_keep_the_plain_name(ladder):
    assert set(config_labels(ladder)) == {"dfs", "sat"}
    # every parameter one value in the whole table: labelled by the frame's own index, as text
    moved = ladder.assign(s_restart=100, s_phase=1).set_axis([7] * len(ladder))
    labels = config_labels(moved)
    assert labels.index.equals(moved.index) and labels.dtype == "string" and labels.name is None
    assert labels.tolist() == moved["solver"].tolist()


def test_swept_params_make_configs():
    rows = [
        run("dfs", 0, 0, "solved", 1.0, s_restart=100, s_order="row", s_seed_mix=1),
        run("dfs", 0, 1, "solved", 1.0, s_restart=100, s_order="row", s_seed_mix=1),
        run("dfs", 0, 0, "solved", 1.0, s_restart=1000.0, s_order="row", s_seed_mix=1),
        run("dfs", 0, 0, "timeout", 9.0, s_restart=1000, s_order="spiral", s_seed_mix=1),
        run("sat", 0, 0, "solved", 1.0, s_restart=None, s_order=None, s_seed_mix=None),
    ]
    labels = config_labels(pd.DataFrame(rows)).tolist()
    assert labels == ["dfs[order=row,restart=100]", "dfs[order=row,restart=100]",
                      "dfs[order=row,restart=1000]", "dfs[order=spiral,restart=1000]", "sat"]
    s = summarize(pd.DataFrame(rows))
    assert s["config"].tolist() == ["dfs[order=row,restart=1000]", "dfs[order=row,restart=100]",
                                    "dfs[order=spiral,restart=1000]", "sat"]
    assert s["solver"].tolist() == ["dfs", "dfs", "dfs", "sat"]
    assert s["runs"].tolist() == [1, 2, 1, 1]


def test_a_param_unset_on_some_rows_shows_as_na():
    rows = [run("dfs", 0, 0, "solved", 1.0, s_k=3), run("dfs", 0, 1, "solved", 1.0, s_k=None)]
    assert config_labels(pd.DataFrame(rows)).tolist() == ["dfs[k=3]", "dfs[k=NA]"]


def test_one_name_in_two_families_is_labelled_per_family():
    """``sat`` of edge matching and ``sat`` of Sudoku have other parameters: no label for that;
    a parameter swept within one family still shows."""
    rows = [run("sat", 0, 0, "solved", 1.0, family="edgematch", s_matching="seams"),
            run("sat", 0, 0, "solved", 1.0, family="sudoku", s_encoding="extended"),
            run("sat", 0, 1, "solved", 1.0, family="sudoku", s_encoding="minimal")]
    assert config_labels(pd.DataFrame(rows)).tolist() == [
        "sat", "sat[encoding=extended]", "sat[encoding=minimal]"]


def test_runs_at_different_core_counts_are_different_configs():
    rows = [run("cpsat", 0, 0, "solved", 1.0, cores=1), run("cpsat", 0, 0, "solved", 0.6, cores=2),
            run("dfs", 0, 0, "solved", 1.0, cores=1)]
    assert config_labels(pd.DataFrame(rows)).tolist() == ["cpsat[cores=1]", "cpsat[cores=2]",
                                                          "dfs"]


# --------------------------------------------------------------------------------------------
# cliffs


def test_cliffs(ladder):
    c = cliffs(ladder)
    assert list(c.columns) == CLIFF_COLUMNS
    assert c["config"].tolist() == ["dfs", "sat"]
    dfs, sat = c.iloc[0], c.iloc[1]
    assert (dfs["cliff_rung"], dfs["cliff_rung_index"]) == ("6", 2)
    assert (dfs["last_solved_rung"], dfs["last_solved_rung_index"]) == ("4", 0)
    assert (sat["cliff_rung"], sat["cliff_rung_index"]) == ("7", 3)
    assert (sat["last_solved_rung"], sat["last_solved_rung_index"]) == ("5", 1)
    assert c["rungs"].tolist() == [4, 4]


def test_half_solved_is_not_a_cliff_and_never_falling_is_na():
    rows = [run("a", r, i, "solved" if i == 0 or r == 0 else "timeout", 1.0)
            for r in range(3) for i in range(2)]
    c = cliffs(pd.DataFrame(rows))
    assert pd.isna(c.iloc[0]["cliff_rung"]) and pd.isna(c.iloc[0]["cliff_rung_index"])
    assert c.iloc[0]["last_solved_rung"] == "4"


def test_skipped_rows_make_the_cliff():
    rows = [run("a", 0, 0, "solved", 1.0), run("a", 1, 0, "skipped", None)]
    c = cliffs(pd.DataFrame(rows))
    assert c.iloc[0]["cliff_rung"] == "5"


# --------------------------------------------------------------------------------------------
# virtual best


def test_virtual_best(ladder):
    v = virtual_best(ladder)
    assert list(v.columns) == VBS_COLUMNS
    assert v["rung"].tolist() == RUNGS
    assert v["instances"].tolist() == [2, 2, 2, 2]
    assert v["solved"].tolist() == [2, 2, 1, 0]
    # r0: min(1, .5), min(2, .25); r1: min(3, .5), 4; r2: 20 (timeout/wrong), 8; r3: 20, 20
    assert v["par2"].tolist() == pytest.approx([0.375, 2.25, 14.0, 20.0])


# --------------------------------------------------------------------------------------------
# disagreements and wrong answers


def test_infeasible_claim_against_a_verified_solution(ladder):
    d = disagreements(ladder)
    assert list(d.columns) == DISAGREEMENT_COLUMNS
    assert len(d) == 1
    row = d.iloc[0]
    assert row["kind"] == "infeasible-vs-solution"
    assert row["instance_id"] == "r1i0" and row["rung"] == "5" and row["ladder"] == "L"
    assert row["configs"] == "dfs, sat"
    assert row["detail"] == "infeasible (sat); verified solution (dfs)"


def test_an_unverified_solution_is_no_contradiction(ladder):
    ladder.loc[2, "verified"] = False  # dfs's answer on r1i0
    assert disagreements(ladder).empty


def test_optimal_objectives_and_solution_counts_disagree():
    base = {"ladder": "", "rung": None, "rung_index": None, "family": "tiles"}
    rows = [
        run("ida", 0, 0, "optimal", 1.0, objective=20.0, **base),
        run("astar", 0, 0, "optimal", 2.0, objective=22.0, **base),
        run("bfs", 0, 0, "optimal", 2.0, objective=20.0, **base),
        run("ida", 0, 1, "optimal", 1.0, objective=30.0, **base),
        run("astar", 0, 1, "optimal", 1.0, objective=30.0, **base),
        run("dlx", 0, 2, "solved", 1.0, counters='{"solutions": 1}', **base),
        run("sat", 0, 2, "solved", 1.0, counters='{"solutions": 3}', **base),
        run("cp", 0, 2, "timeout", 9.0, counters='{"solutions": 0}', **base),
        run("cp", 0, 3, "solved", 1.0, counters="not json", **base),
    ]
    d = disagreements(pd.DataFrame(rows))
    assert d["kind"].tolist() == ["optimal-objective", "solution-count"]
    assert d["instance_id"].tolist() == ["r0i0", "r0i2"]
    assert d["ladder"].tolist() == [PSEUDO_LADDER, PSEUDO_LADDER]
    assert d.iloc[0]["detail"] == "objective 20 (bfs, ida); 22 (astar)"
    assert d.iloc[0]["configs"] == "astar, bfs, ida"
    assert d.iloc[1]["detail"] == "solutions 1 (dlx); 2+ (sat)"  # the timeout proves nothing


def test_wrong_answers(ladder):
    w = wrong_answers(ladder)
    assert list(w.columns) == WRONG_COLUMNS
    assert len(w) == 1
    assert (w.iloc[0]["config"], w.iloc[0]["instance_id"]) == ("sat", "r2i0")
    assert (w.iloc[0]["claimed"], w.iloc[0]["verdict"]) == ("solved", "piece 3 used twice")


def test_rows_where_keeps_the_frame_or_takes_the_rows():
    from bench.views.stats import _rows_where

    frame = pd.DataFrame({"status": pd.array(["solved", "wrong", None], dtype="string"),
                          "t": [1.0, 2.0, 3.0]})
    assert _rows_where(frame, frame["status"].notna().astype(bool) | True) is frame
    none = _rows_where(frame, frame["status"].eq("timeout"))
    assert none.empty and list(none.columns) == ["status", "t"]
    some = _rows_where(frame, frame["status"].eq("wrong"))  # NA is not a match
    assert some["t"].tolist() == [2.0]


def test_wrong_answers_of_a_ladder_without_one(ladder):
    right = ladder[ladder["status"] != "wrong"]
    assert wrong_answers(right).empty
    assert list(wrong_answers(right).columns) == WRONG_COLUMNS


# --------------------------------------------------------------------------------------------
# pseudo-ladders and robustness


def test_runs_outside_ladders_form_one_pseudo_ladder_per_family(ladder):
    extra = pd.DataFrame([
        run("norvig", 0, 7, "solved", 0.01, family="sudoku", ladder="", rung="", rung_index=None),
        run("norvig", 0, 8, "timeout", 10.0, family="sudoku", ladder=None, rung=None,
            rung_index=None),
        run("ida", 0, 9, "solved", 2.0, family="tiles", ladder="", rung="", rung_index=None),
    ])
    s = summarize(pd.concat([ladder, extra], ignore_index=True))
    tail = s.iloc[8:]
    assert tail["ladder"].tolist() == [PSEUDO_LADDER, PSEUDO_LADDER]
    assert tail["family"].tolist() == ["sudoku", "tiles"]
    assert tail["rung"].tolist() == ["", ""]
    assert tail["runs"].tolist() == [2, 1]
    assert tail["par2"].tolist() == pytest.approx([(0.01 + 20.0) / 2, 2.0])
    c = cliffs(pd.concat([ladder, extra], ignore_index=True))
    assert c["ladder"].tolist() == ["L", "L"]


def test_empty_frame():
    for frame in (pd.DataFrame(), pd.DataFrame(columns=["status", "solver"])):
        report = build_report(frame, sweep="empty")
        assert list(report.summary.columns) == SUMMARY_COLUMNS
        assert report.summary.empty and report.cliffs.empty and report.virtual_best.empty
        doc = json.loads(render(report, "json"))
        assert doc == {"sweep": "empty", "summary": [], "cliffs": [], "virtual_best": [],
                       "disagreements": [], "wrong": [], "paired": [], "tails": [],
                       "witnesses": [], "methods": METHODS}
        assert "no runs" in render(report, "markdown")
        assert pd.read_csv(io.StringIO(render(report, "csv"))).empty


def test_only_skipped_rows():
    rows = [run("a", r, 0, "skipped", None) for r in range(2)]
    report = build_report(pd.DataFrame(rows))
    assert report.summary["solved"].tolist() == [0, 0]
    assert report.summary["par2"].tolist() == [20.0, 20.0]
    assert report.summary["t_median"].isna().all()
    assert report.cliffs.iloc[0]["cliff_rung"] == "4"
    assert pd.isna(report.cliffs.iloc[0]["last_solved_rung"])
    assert report.virtual_best["solved"].tolist() == [0, 0]
    for fmt in ("markdown", "csv", "json"):
        assert render(report, fmt)


def test_missing_optional_columns(ladder):
    slim = ladder.drop(columns=["work_conflicts", "work_nodes", "score", "max_score", "verified",
                                "claimed", "instance_name", "verdict", "s_restart", "s_phase"])
    report = build_report(slim)
    assert report.summary["conflicts_median"].isna().all()
    assert report.summary["par2"].tolist() == pytest.approx(
        [1.5, 0.375, 11.5, 2.25, 20.0, 14.0, 20.0, 20.0])
    assert report.disagreements.empty  # nothing verified without the column
    md = render(report, "markdown")
    assert "conflicts" not in md and "nodes" not in md
    json.loads(render(report, "json"))


def test_duplicated_index_and_scattered_na(ladder):
    ladder.index = [0] * len(ladder)  # as pd.concat leaves it without ignore_index
    frame = ladder.reset_index(drop=True)
    frame.loc[0, "status"] = None  # dfs rung 0 loses a success: 1 solved, PAR-2 (20 + 2) / 2
    frame.index = [0] * len(frame)
    s = summarize(frame)
    assert s["solved"].tolist() == [1, 2, 1, 2, 0, 1, 0, 0]
    assert s["par2"].iloc[0] == 11.0
    assert set(config_labels(frame)) == {"dfs", "sat"}
    assert len(wrong_answers(frame)) == 1


def test_na_everywhere_in_a_column(ladder):
    ladder["t_wall"] = None
    ladder["status"] = None
    report = build_report(ladder)
    assert report.summary["solved"].sum() == 0
    assert report.summary["par2"].tolist() == [20.0] * 8
    assert report.wrong.empty
    json.loads(render(report, "json"))


# --------------------------------------------------------------------------------------------
# rendering


def test_json_round_trip(ladder):
    doc = json.loads(render(build_report(ladder, sweep="quick"), "json"))
    assert list(doc) == ["sweep", "summary", "cliffs", "virtual_best", "disagreements", "wrong",
                         "paired", "tails", "witnesses", "methods"]
    assert doc["sweep"] == "quick"
    assert len(doc["summary"]) == 8 and list(doc["summary"][0]) == SUMMARY_COLUMNS
    top = doc["summary"][6]
    assert (top["config"], top["skipped"], top["par2"]) == ("dfs", 2, 20.0)
    assert top["t_median"] is None  # NaN -> null
    assert doc["cliffs"][0]["cliff_rung_index"] == 2
    assert doc["virtual_best"][1]["par2"] == 2.25
    assert doc["disagreements"][0]["kind"] == "infeasible-vs-solution"
    assert doc["wrong"][0]["verdict"] == "piece 3 used twice"


def test_csv_round_trip(ladder):
    text = render(build_report(ladder, sweep="quick"), "csv")
    back = pd.read_csv(io.StringIO(text), dtype={"rung": str, "cliff_rung": str,
                                                 "last_solved_rung": str})
    assert list(back.columns) == ["sweep", *SUMMARY_COLUMNS, "cliff_rung", "cliff_rung_index",
                                  "last_solved_rung", "last_solved_rung_index", "at_cliff",
                                  *FIT_COLUMNS]
    assert len(back) == 8 and (back["sweep"] == "quick").all()
    assert back["par2"].tolist() == pytest.approx([1.5, 0.375, 11.5, 2.25, 20.0, 14.0, 20.0,
                                                   20.0])
    at = back[back["at_cliff"]]
    assert list(zip(at["config"], at["rung"], strict=True)) == [("dfs", "6"), ("sat", "7")]
    assert back.loc[back["config"] == "sat", "last_solved_rung"].tolist() == ["5"] * 4
    assert math.isnan(back.loc[6, "t_median"])


def test_markdown(ladder):
    md = render(build_report(ladder, sweep="quick"), "markdown")
    assert md.startswith("# cliffbench report: quick\n")
    for section in ("## Summary", "## Virtual best solver", "## Cliffs", "## Disagreements",
                    "## Wrong answers"):
        assert section in md
    summary = md.split("## Summary\n\n")[1].split("\n\n")[0].splitlines()
    assert len({len(line) for line in summary}) == 1  # aligned columns
    assert len(summary) == 2 + 8
    assert "| L      | 5    | dfs    |    2 |      1 |" in summary[4]
    assert "11.5" in summary[4] and "3.00" in summary[4]
    assert "error" not in summary[0] and "unknown" not in summary[0]  # absent statuses dropped
    assert "infeasible (sat); verified solution (dfs)" in md
    assert "piece 3 used twice" in md


def test_markdown_says_none(ladder):
    clean = ladder[~ladder["status"].isin(["wrong", "infeasible"])]
    md = render(build_report(clean), "markdown")
    assert "## Disagreements\n\nnone\n" in md
    assert "## Wrong answers\n\nnone\n" in md


def test_markdown_caps_long_lists():
    rows = [run("bad", 0, i, "wrong", 1.0, verdict=f"oops {i}") for i in range(53)]
    md = render(build_report(pd.DataFrame(rows)), "markdown")
    wrong = md.split("## Wrong answers\n\n")[1]
    assert wrong.count("| oops ") == 50
    assert wrong.endswith("\n\n... and 3 more (the json report lists all)\n")
    assert len(json.loads(render(build_report(pd.DataFrame(rows)), "json"))["wrong"]) == 53


def test_unknown_format(ladder):
    with pytest.raises(ValueError, match="unknown report format 'html'"):
        render(build_report(ladder), "html")


@pytest.mark.parametrize(("seconds", "text"), [
    (1234.5, "1230"), (12.345, "12.3"), (1.5, "1.50"), (0.012345, "0.0123"), (9.996, "10.0"),
    (0, "0"), (0.00001234, "1.23e-05"), (None, "-"), (float("nan"), "-"),
])
def test_fmt_time(seconds, text):
    assert fmt_time(seconds) == text


def test_throughput_split_and_guesses_are_over_successes():
    rows = [run("native", 0, 0, "solved", 0.5, t_encode=0.1, t_solve=0.4,
                counters=json.dumps({"guesses": 3})),
            run("native", 0, 1, "solved", 1.5, t_encode=0.3, t_solve=1.2,
                counters=json.dumps({"guesses": 5})),
            run("native", 0, 2, "timeout", 10.5, counters=json.dumps({"guesses": 900}))]
    (row,) = summarize(pd.DataFrame(rows)).to_dict("records")
    assert row["per_second"] == pytest.approx(2 / 2.0)   # two solved in 2 s of solving
    assert row["encode_mean"] == pytest.approx(0.2) and row["solve_mean"] == pytest.approx(0.8)
    assert row["guesses_mean"] == pytest.approx(4.0)     # the timeout's 900 is left out
    text = render(build_report(pd.DataFrame(rows)))
    header = next(line for line in text.splitlines() if line.startswith("| ladder"))
    assert {"per s", "encode", "solve", "guesses"} <= {h.strip() for h in header.split("|")}


# --------------------------------------------------------------------------------------------
# optimal counts, partial scores, negative zeros


def test_optimal_is_counted_among_the_solved():
    base = {"family": "tiles", "max_score": None}
    rows = [run("ida", 0, 0, "optimal", 1.0, **base), run("ida", 0, 1, "solved", 2.0, **base),
            run("bfs", 0, 0, "timeout", 10.5, **base), run("bfs", 0, 1, "optimal", 3.0, **base)]
    report = build_report(pd.DataFrame(rows))
    s = report.summary
    assert list(zip(s["config"], s["solved"], s["optimal"], strict=True)) == [
        ("bfs", 1, 1), ("ida", 2, 1)]
    assert report.virtual_best[["instances", "solved", "optimal"]].values.tolist() == [[2, 2, 2]]
    header = render(report).split("## Summary\n\n")[1].splitlines()[0]
    assert "| optimal |" in header and "score" not in header


def test_a_score_without_max_score_is_no_partial_score():
    """A tile path's length or a game's value is an objective: no score column, no -0."""
    rows = [run("minimax", 0, 0, "optimal", 1.0, family="games", max_score=None, score=-0.0,
                work_nodes=-0.0),
            run("minimax", 0, 1, "optimal", 1.0, family="games", max_score=None, score=-364.0)]
    report = build_report(pd.DataFrame(rows))
    assert report.summary["score_median"].isna().all()
    md = render(report)
    assert "score" not in md and "-364" not in md and "-0" not in md and "None" not in md
    (record,) = json.loads(render(report, "json"))["summary"]
    assert record["score_median"] is None
    assert record["nodes_median"] == 0 and math.copysign(1, record["nodes_median"]) == 1
    assert ",-0.0," not in render(report, "csv")


def test_markdown_gives_each_family_its_own_columns(ladder):
    games = pd.DataFrame([run("minimax", 0, 0, "optimal", 1.0, family="games", ladder="G",
                              max_score=None, score=1.0)])
    md = render(build_report(pd.concat([ladder, games], ignore_index=True)))
    summary = md.split("## Summary\n\n")[1].split("## Virtual best")[0]
    edgematch, games_part = summary.split("### games\n\n")
    assert edgematch.startswith("### edgematch\n\n")
    assert "score/max" in edgematch and "| optimal |" not in edgematch
    assert "score/max" not in games_part and "| optimal |" in games_part
    assert "timeout" in edgematch and "timeout" not in games_part


# --------------------------------------------------------------------------------------------
# terminal summary


def ladder_table(text: str, title: str) -> list[str]:
    """The lines of the ladder whose title starts with ``title``: its first block of lines
    and the blocks after it that continue its table (they start with the ``config`` header)."""
    blocks = text.split("\n\n")
    (start,) = [i for i, b in enumerate(blocks) if b.startswith(title)]
    end = start + 1
    while end < len(blocks) and blocks[end].startswith("config "):
        end += 1
    return "\n".join(blocks[start:end]).splitlines()


def test_terminal_summary_by_hand(ladder):
    text = terminal_summary(ladder, "quick")
    headline = " ".join(text.split("\n\n")[0].split())
    assert headline == ("cliffbench quick: 16 runs of 2 solver configs on 1 family; 8 answered "
                        "(0 proven optimal), 8 failed; 1 wrong answer, 1 disagreement.")
    lines = ladder_table(text, "edgematch / L:")
    assert lines[0] == "edgematch / L: 4 rungs, 2 runs a cell, budget 10 s, cell = solved/failed"
    assert lines[1].split() == ["config", "4", "5", "6", "7", "cliff", "fit", "PAR-2", "score"]
    # PAR-2 over the ladder: dfs (1+2+3+20+20+20+20+20)/8 = 13.25, sat 73.25/8 = 9.16; the
    # virtual best takes sat's 0.5 s infeasible claim on r1i0, and fails r2i0 and rung 7.
    # fitted cliffs: dfs falls between rungs 4 and 6 (1/2 on 5), sat between 5 and 7
    assert lines[2].split() == ["dfs", "2/0", "1/1", "0/2", "skip", "6", "4.96", "(4.41-5.5)",
                                "13.2", "100%"]
    assert lines[3].split() == ["sat", "2/0", "2/0", "1/1!", "0/2", "7", "6.04", "(5.5-6.59)",
                                "9.16", "-"]
    assert lines[4].split() == ["virtual", "best", "2/0", "2/0", "1/1", "0/2", "7", "9.16"]
    assert "Wrong answers (rejected by the checker):\n  L 6 board-6-0 sat: piece 3 used twice" \
        in text
    assert "L 5 board-5-0 infeasible-vs-solution: infeasible (sat); verified solution (dfs)" \
        in text
    legend = text.split("\n\n")[-1]
    assert "skip: every run skipped" in legend and "!: a wrong answer" in legend
    assert "blank: no run there" not in legend


def long_rows() -> list[dict]:
    """Four families: a 30-rung ladder with long rung labels and configs with long parameter
    values, games with optimal answers, tiles outside ladders, wrong answers with long verdicts.
    """
    rows = []
    rung_labels = [f"n={n}" if n % 7 else f"boards-of-side-{n}-with-22-colours" for n in range(30)]
    strategies = ["luby-geometric-restarts-with-a-very-long-name", "luby-geometric-restarts-2"]
    for level, label in enumerate(rung_labels):
        for strategy in strategies:
            status = "solved" if level < 20 else "timeout"
            rows.append(run("dfs-restarts-with-a-long-name", level % 4, level, status, 1.5,
                            rung=label, rung_index=level, s_strategy=strategy,
                            score=2.0 * (level % 4 + 4), ladder="edgematch-planted-long-ladder"))
        rows.append(run("sat", level % 4, level, "wrong", 1.0, rung=label, rung_index=level,
                        ladder="edgematch-planted-long-ladder", claimed="solved",
                        verdict="piece 3 used twice " * 10))
    for level in range(3):
        for name in ("alphabeta-ordered", "norvig+hidden-singles+naked-pairs+x-wings"):
            rows.append(run(name, level, 0, "optimal", 0.01, family="games", ladder="trees",
                            rung=f"depth-{level}", rung_index=level, max_score=None))
    rows.append(run("ida-pdb", 0, 0, "optimal", 1.0, family="tiles", ladder="", rung="",
                    rung_index=None, max_score=None, s_partition="4-4"))
    return rows


def test_terminal_summary_fits_100_columns_and_says_everything():
    text = terminal_summary(pd.DataFrame(long_rows()), "long")
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 100
    for bad in ("None", "nan", "<NA>"):
        assert bad not in text, bad
    assert not re.search(r"(?<![\w-])-0(?![\d.])", text)  # no negative zero
    long = ladder_table(text, "edgematch / edgematch-planted-long-ladder")
    headers = [line.split() for line in long if line.startswith("config ")]
    assert len(headers) >= 3  # 30 rungs: wrapped into blocks, the totals in the last one
    assert [h.count("cliff") for h in headers] == [0] * (len(headers) - 1) + [1]
    assert sum(len(h) - 1 for h in headers) == 30 + 4  # cliff, fit, PAR-2, score
    for label in ("dfs-restarts-with-a-long-name[strategy=luby-geometric-restarts-2]",
                  "dfs-restarts-with-a-long-name[strategy=luby-geometric-restarts-with-a-very-"
                  "long-name]", "boards-of-side-7-with-22-colours"):
        assert label in text.replace("\n   ", ""), label  # spelled out in a footnote
    cut = [w for line in long for w in line.split() if "~" in w]
    assert len({w for w in cut if w.startswith("dfs")}) == 2  # two configs, two markers
    games = ladder_table(text, "games / trees")
    assert "cell = solved/optimal/failed" in games[0] and "score" not in games[1]
    assert games[2].split()[1:4] == ["1/1/0"] * 3
    tiles = ladder_table(text, "tiles: instances outside ladders")
    assert tiles[1].split() == ["config", "all", "PAR-2"]  # one rung cannot fall: no cliff
    assert "... and 20 more (cliffbench report --format json lists all)" in text


def test_terminal_summary_of_nothing():
    assert terminal_summary(pd.DataFrame(), "empty") == "cliffbench empty: no runs\n"


def test_counters_read_out_of_the_text_as_json_reads_them():
    """The guesses of a run and its solutions bucket, read for every row at once, are what
    parsing each ``counters`` text gives (a table without the ``solutions`` column too)."""
    import json

    import pandas as pd

    from bench.execute.counters import solutions_bucket
    from bench.views.stats import _buckets, _guesses

    texts = ['{"fast9": 1.0, "guesses": 12.0, "nodes": 3.0}', '{"guesses": 1e-05}', None,
             '{"guesses_x": 3.0, "solutions": 2.0}', '{"guesses": -2, "solutions": 1}', "{}"]
    got = _guesses(pd.Series(texts, dtype="string"))
    want = [json.loads(t).get("guesses") if t else None for t in texts]
    assert [None if pd.isna(g) else g for g in got] == want
    frame = pd.DataFrame({"counters": pd.Series(texts, dtype="string")})
    buckets = [solutions_bucket(json.loads(t).get("solutions")) if t else None for t in texts]
    assert _buckets(frame).tolist() == buckets
    frame["solutions"] = pd.Series(["1", None, None, "2+", "1", None], dtype="string")
    assert _buckets(frame).tolist() == ["1", None, None, "2+", "1", None]
