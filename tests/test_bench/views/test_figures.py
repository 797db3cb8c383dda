"""Paper figures from the results table (bench/views/figures.py): file names, the numbers in each
CSV (equal to bench.views.stats's), kinds skipped when the table has nothing for them,
byte-identical files for the same table, a real tiny sweep of game trees through the harness, and
what a reviewer checks in the drawn figures themselves (the matplotlib artists, caught as they are
saved): categorical ladders never joined by lines, skipped runs never drawn as failures, node bars
only for comparable counts in natural order, legends naming the distinguishing parameters, distinct
and stable colours, bounded widths, the canvas used, real captions."""

from __future__ import annotations

import json
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
import pytest

import bench
from bench.views import figstyle
from bench.views.figures import make_figures
from bench.views.stats import cliffs, summarize, virtual_best

SWEEP = "toy"
KINDS = ("ladder", "cactus", "profile", "score", "nodes", "heatmap")
CONFIGS = ("dfs[restart=geometric]", "dfs[restart=luby]", "fast", "slow")


def _run(solver: str, n: int, colors: int, seed: int, **extra: object) -> dict[str, object]:
    """One row of the hand-made table, every figure column filled with a plain default."""
    row = {"sweep": SWEEP, "family": "edgematch", "ladder": "grid", "rung": str(n),
           "rung_index": {4: 0, 6: 1, 8: 2}[n], "instance_id": f"i-{n}-{colors}-{seed}",
           "instance_name": f"n{n}-c{colors}-s{seed}", "p_n": n, "p_colors": colors,
           "p_seed": seed, "solver": solver, "repeat": 0, "seed": 1, "status": "solved",
           "t_wall": 0.001 * n * colors + 0.0001 * seed, "budget_s": 10.0, "max_score": 40.0,
           "score": 40.0, "work_nodes": float(n * colors * 100 + seed), "score_trace": None,
           "s_restart": None}
    row.update(extra)
    return row


def _table() -> pd.DataFrame:
    """A ladder n = 4, 6, 8 crossed with colours 5, 9 (two seeds): four configs, every failure
    kind, score traces on the dfs runs; plus a one-rung Sudoku pseudo-ladder with no nodes and
    no traces, for which most kinds must be skipped."""
    rows = []
    for n in (4, 6, 8):
        for colors in (5, 9):
            for seed in (1, 2):
                rows.append(_run("fast", n, colors, seed))
                if n == 8:
                    slow = {"status": "timeout", "t_wall": 11.0, "work_nodes": 5e6}
                elif n == 6 and colors == 9:
                    slow = {"status": "unknown" if seed == 1 else "error", "t_wall": 3.0}
                else:
                    slow = {"t_wall": 2.0 * n + seed}
                rows.append(_run("slow", n, colors, seed, **slow))
                for restart in ("luby", "geometric"):
                    trace = json.dumps([[0.05, 20.0], [0.2 * seed, 40.0 if n < 8 else 30.0]])
                    dfs = ({"status": "skipped", "t_wall": None, "score_trace": None}
                           if n == 8 and restart == "geometric" else
                           {"status": "unknown", "t_wall": 9.0, "score": 30.0,
                            "score_trace": trace} if n == 8 else
                           {"t_wall": 0.2 * seed + (0.1 if restart == "luby" else 0.0),
                            "score_trace": trace})
                    rows.append(_run("dfs", n, colors, seed, s_restart=restart, work_nodes=None,
                                     **dfs))
    for k in range(3):
        rows.append({"sweep": SWEEP, "family": "sudoku", "ladder": "", "rung": "",
                     "rung_index": None, "instance_id": f"s-{k}", "instance_name": f"puzzle{k}",
                     "solver": "norvig", "repeat": 0, "seed": 1, "status": "solved",
                     "t_wall": 0.01 * (k + 1), "budget_s": 5.0})
    frame = pd.DataFrame(rows)
    frame["rung_index"] = frame["rung_index"].astype("Int64")
    frame["p_n"] = frame["p_n"].astype("Int64")
    frame["p_colors"] = frame["p_colors"].astype("Int64")
    return frame


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple:
    """The figures of the hand-made table, made twice into two folders."""
    df = _table()
    first, second = tmp_path_factory.mktemp("one"), tmp_path_factory.mktemp("two")
    rc_before = dict(matplotlib.rcParams)
    files = make_figures(df, first, sweep=SWEEP)
    again = make_figures(df.copy(), second, sweep=SWEEP)
    assert dict(matplotlib.rcParams) == rc_before, "make_figures changed the caller's rcParams"
    return df, first, files, second, again


def _csv(folder: Path, name: str) -> pd.DataFrame:
    return pd.read_csv(folder / f"{SWEEP}-{name}.csv", dtype={"rung": str, "cliff_rung": str},
                       keep_default_na=True)


def test_every_kind_the_table_supports_is_written_under_a_deterministic_name(made):
    _, folder, files, _, _ = made
    expected = {f"{SWEEP}-{kind}-grid.{ext}" for kind in KINDS for ext in ("pdf", "png", "csv")}
    expected |= {f"{SWEEP}-cactus-sudoku-instances.{ext}" for ext in ("pdf", "png", "csv")}
    expected |= {f"{SWEEP}-table.{ext}" for ext in ("md", "tex", "csv")}
    expected.add(f"{SWEEP}-figures.json")
    assert {f.name for f in files} == expected
    assert {f.name for f in folder.iterdir()} == expected
    assert (folder / f"{SWEEP}-ladder-grid.pdf").read_bytes().startswith(b"%PDF")
    assert (folder / f"{SWEEP}-ladder-grid.png").read_bytes().startswith(b"\x89PNG")


def test_kinds_without_data_are_skipped_and_the_index_says_why(made):
    _, folder, _, _, _ = made
    index = json.loads((folder / f"{SWEEP}-figures.json").read_text())
    skipped = {(s["kind"], s["family"]): s["reason"] for s in index["skipped"]}
    assert skipped == {("ladder", "sudoku"): "fewer than two rungs",
                       ("profile", "sudoku"): "one config only",
                       ("score", "sudoku"): "no score_trace",
                       ("nodes", "sudoku"): "no work_nodes",
                       ("heatmap", "sudoku"): "fewer than two rungs and no two varying parameters"}
    made_files = {f for entry in index["figures"] for f in entry["files"]}
    assert made_files == {f.name for f in folder.iterdir()} - {f"{SWEEP}-figures.json"}


def test_the_same_table_gives_byte_identical_files(made):
    _, first, files, second, again = made
    assert [f.name for f in files] == [f.name for f in again]
    for name in sorted(f.name for f in files):
        assert (first / name).read_bytes() == (second / name).read_bytes(), name


def test_the_ladder_csv_holds_the_reports_medians_counts_and_cliffs(made):
    df, folder, _, _, _ = made
    ladder = _csv(folder, "ladder-grid")
    assert set(ladder["rung_param"]) == {"p_n"}
    assert set(ladder["config"]) == set(CONFIGS)
    summary = summarize(df)
    summary = summary[summary["ladder"] == "grid"]
    merged = ladder.merge(summary, on=["rung", "config"], suffixes=("", "_report"))
    assert len(merged) == len(ladder) == 12
    assert (merged["runs"] == merged["runs_report"]).all()
    assert (merged["solved"] == merged["solved_report"]).all()
    assert np.allclose(merged["t_median"].astype(float),
                       merged["t_median_report"].astype(float), equal_nan=True)
    slow8 = ladder[(ladder["config"] == "slow") & (ladder["rung"] == "8")].iloc[0]
    assert (slow8["solved"], slow8["out_of_budget"], slow8["runs"]) == (0, 4, 4)
    assert pd.isna(slow8["t_median"]) and slow8["budget_s"] == 10.0
    slow6 = ladder[(ladder["config"] == "slow") & (ladder["rung"] == "6")].iloc[0]
    assert (slow6["solved"], slow6["gave_up"], slow6["failed"]) == (2, 1, 1)
    assert slow6["t_median"] == pytest.approx(13.5)  # solved runs: 13 and 14 seconds
    assert slow6["t_q25"] == pytest.approx(13.25) and slow6["t_q75"] == pytest.approx(13.75)
    geometric8 = ladder[(ladder["config"] == CONFIGS[0]) & (ladder["rung"] == "8")].iloc[0]
    assert geometric8["skipped"] == 4
    report_cliffs = cliffs(df).set_index("config")["cliff_rung"]
    flagged = ladder[ladder["at_cliff"]].set_index("config")["rung"]
    assert flagged.to_dict() == report_cliffs.dropna().to_dict() == {
        CONFIGS[0]: "8", CONFIGS[1]: "8", "slow": "8"}


def test_cactus_and_profile_rank_each_instance_by_its_median_time(made):
    df, folder, _, _, _ = made
    cactus = _csv(folder, "cactus-grid")
    fast = cactus[cactus["config"] == "fast"]
    grid = df[(df["ladder"] == "grid") & (df["solver"] == "fast")]
    assert list(fast["solved"]) == list(range(1, 13))
    assert np.allclose(fast["seconds"], np.sort(grid["t_wall"].astype(float)))
    assert set(cactus["instances"]) == {12}
    assert cactus.groupby("config")["solved"].max().to_dict() == {
        CONFIGS[0]: 8, CONFIGS[1]: 8, "fast": 12, "slow": 6}
    profile = _csv(folder, "profile-grid")
    # fast is the fastest on every instance: all of them within tau = 1
    fast_profile = profile[profile["config"] == "fast"]
    assert list(fast_profile["tau"]) == [1.0] and list(fast_profile["fraction"]) == [1.0]
    times = grid.set_index("instance_id")["t_wall"].astype(float)
    slow_runs = df[(df["solver"] == "slow") & (df["status"] == "solved")]
    ratios = np.sort(slow_runs["t_wall"].to_numpy(float) / times[slow_runs["instance_id"]])
    slow = profile[profile["config"] == "slow"]
    assert np.allclose(slow["tau"], ratios)
    assert list(slow["fraction"]) == pytest.approx([k / 12 for k in range(1, 7)])
    sudoku = _csv(folder, "cactus-sudoku-instances")
    assert list(sudoku["seconds"]) == pytest.approx([0.01, 0.02, 0.03])


def test_score_csv_holds_every_trace_point_and_the_score_held_to_the_runs_end(made):
    _, folder, _, _, _ = made
    score = _csv(folder, "score-grid")
    run = score[(score["instance_name"] == "n8-c5-s2") & (score["config"] == CONFIGS[1])]
    assert list(run["seconds"]) == pytest.approx([0.05, 0.4, 9.0])
    assert list(run["score"]) == [20.0, 30.0, 30.0]
    assert list(run["end"]) == [False, False, True]
    assert list(run["fraction"]) == pytest.approx([0.5, 0.75, 0.75])
    assert set(score["config"]) == set(CONFIGS[:2])  # skipped runs have no trace


def test_node_bars_are_per_instance_with_failures_flagged(made):
    _, folder, _, _, _ = made
    nodes = _csv(folder, "nodes-grid")
    assert set(nodes["group_by"]) == {"instance"} and set(nodes["config"]) == {"fast", "slow"}
    fast = nodes[(nodes["config"] == "fast") & (nodes["instance_name"] == "n6-c9-s2")].iloc[0]
    assert fast["nodes_median"] == 6 * 9 * 100 + 2 and fast["all_solved"]
    slow = nodes[(nodes["config"] == "slow") & (nodes["rung"] == "8")]
    assert set(slow["nodes_median"]) == {5e6} and not slow["all_solved"].any()


def test_the_heat_map_crosses_the_rung_parameter_with_the_other_varying_one(made):
    _, folder, _, _, _ = made
    heat = _csv(folder, "heatmap-grid")
    assert set(heat["x"]) == {"p_n"} and set(heat["y"]) == {"p_colors"}
    slow = heat[heat["config"] == "slow"].set_index(["x_value", "y_value"])
    assert slow.loc[(8, 5), "fraction"] == 0.0 and slow.loc[(4, 9), "fraction"] == 1.0
    assert slow.loc[(6, 9), ["solved", "runs"]].tolist() == [0, 2]
    assert slow.loc[(6, 5), ["x_order", "y_order"]].tolist() == [1, 0]
    assert len(heat) == 4 * 3 * 2


def test_the_table_holds_the_reports_par2_and_the_virtual_best(made):
    df, folder, _, _, _ = made
    table = _csv(folder, "table")
    table["rung"] = table["rung"].fillna("")
    summary = summarize(df)
    merged = table.merge(summary, on=["family", "ladder", "rung", "config"],
                         suffixes=("", "_report"))
    assert len(merged) == len(summary)
    assert np.allclose(merged["par2"], merged["par2_report"].astype(float))
    assert (merged["solved"] == merged["solved_report"]).all()
    slow_all = table[(table["config"] == "slow") & (table["rung"] == "all")].iloc[0]
    rows = df[(df["solver"] == "slow")]
    terms = np.where(rows["status"] == "solved", rows["t_wall"], 2 * rows["budget_s"])
    assert slow_all["par2"] == pytest.approx(terms.mean())
    assert (slow_all["solved"], slow_all["runs"]) == (6, 12)
    vbs = virtual_best(df)
    best = table[(table["config"] == "virtual best") & (table["rung"] != "all")
                 & (table["ladder"] == "grid")]
    assert np.allclose(best.sort_values("rung")["par2"],
                       vbs[vbs["ladder"] == "grid"].sort_values("rung")["par2"].astype(float))
    md = (folder / f"{SWEEP}-table.md").read_text()
    tex = (folder / f"{SWEEP}-table.tex").read_text()
    assert "| slow " in md and "6/12" in md
    assert r"\toprule" in tex and "dfs (restart=luby)" in tex and "virtual best" in tex


def test_unknown_formats_are_refused(tmp_path):
    with pytest.raises(ValueError, match="jpg"):
        make_figures(_table(), tmp_path, sweep=SWEEP, formats=("pdf", "jpg"))


TREES = """
name = "figure-trees"
timeout = 30
mem = 2000
early_abort = false

[[solver]]
name = "minimax"

[[solver]]
name = "alphabeta"

[[solver]]
name = "alphabeta-ordered"

[[ladder]]
name = "trees"
generator = "games/tree"
params = { arity = 2, values = "iid" }
vary = "depth"
values = [3, 4, 5]
seeds = [1, 2]
"""


def test_a_real_sweep_of_game_trees_gives_its_figures(tmp_path):
    suite = tmp_path / "trees.toml"
    suite.write_text(TREES)
    folder = bench.run(str(suite), results=tmp_path / "results", jobs=1, progress=False)
    df = bench.load(folder)
    assert set(df["status"]) == {"optimal"}
    out = tmp_path / "figures"
    files = make_figures(df, out, sweep="trees", formats=("png",))
    names = {f.name for f in files}
    for kind in ("ladder", "cactus", "profile", "nodes"):
        assert {f"trees-{kind}-trees.png", f"trees-{kind}-trees.csv"} <= names
    assert not any(name.startswith(("trees-score", "trees-heatmap")) for name in names)
    assert not any(name.endswith(".pdf") for name in names)
    nodes = pd.read_csv(out / "trees-nodes-trees.csv")
    minimax = nodes[nodes["config"] == "minimax"].groupby("rung")["nodes_median"].first()
    assert minimax.to_dict() == {3: 15, 4: 31, 5: 63}  # a full binary tree, root included
    ladder = pd.read_csv(out / "trees-ladder-trees.csv")
    report = summarize(df).set_index(["rung", "config"])["t_median"].astype(float)
    mine = ladder.assign(rung=ladder["rung"].astype(str)).set_index(["rung", "config"])
    assert np.allclose(mine["t_median"], report.loc[mine.index])



# --------------------------------------------------------------------------------------------
# What the drawn figures show (the artists of each figure, caught as make_figures saves it)


def _draw(df: pd.DataFrame, folder: Path, sweep: str = SWEEP) -> dict[str, object]:
    """Every figure make_figures draws of ``df``, by file stem, as it is saved (PNG only)."""
    figures: dict[str, object] = {}
    save = figstyle.save

    def keep(fig, stem, formats):
        figures[stem.name] = fig
        return save(fig, stem, formats)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(figstyle, "save", keep)
        make_figures(df, folder, sweep=sweep, formats=("png",))
    return figures


@pytest.fixture(scope="module")
def drawn(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, object], Path]:
    folder = tmp_path_factory.mktemp("drawn")
    return _draw(_table(), folder), folder


def _bars_table() -> pd.DataFrame:
    """A tiles ladder of categorical rungs: 'random' (instances r-s1, r-s2, r-s10, their ids
    sorting the other way round) then 'I1' and 'I2' (one instance each, an even number of
    steps that does not rise with the rungs). Configs: ida-manhattan and ida-pdb (partition
    4-4-4-3, no reflection: registered solvers of one paradigm and backend), sat (counts of
    another kind), cpsat (only zero counts) and xcc (no counts, and it does not take I2)."""
    instances = [("random", 0, "z3", "r-s1", 1, None), ("random", 0, "z2", "r-s2", 2, None),
                 ("random", 0, "z1", "r-s10", 10, None), ("I1", 1, "a1", "scramble-50", 11, 50),
                 ("I2", 2, "a2", "scramble-30", 23, 30)]
    configs = [("ida-manhattan", "native", "numba-0.68.1", {}, 1.0),
               ("ida-pdb", "native", "numba-0.68.1",
                {"s_partition": "4-4-4-3", "s_reflect": False, "s_rule": "minimized"}, 0.1),
               ("sat", "sat", "pysat-1.9", {}, 0.01), ("cpsat", "cpsat", "ortools-9.15", {}, 0.0),
               ("xcc", "xcc", "xcover-0.2", {}, None)]
    rows = []
    for rung, index, iid, name, seed, steps in instances:
        for solver, paradigm, backend, params, scale in configs:
            if solver == "xcc" and rung == "I2":
                continue
            rows.append({"sweep": "bars", "family": "tiles", "ladder": "bars", "rung": rung,
                         "rung_index": index, "instance_id": iid, "instance_name": name,
                         "source": f"tiles/x:seed={seed}", "p_rows": 4, "p_steps": steps,
                         "solver": solver, "paradigm": paradigm, "backend": backend,
                         "repeat": 0, "seed": 1, "status": "optimal",
                         "t_wall": 0.01 * (index + 1) * (1 + len(solver) / 10),
                         "budget_s": 5.0, "work_nodes": None if scale is None
                         else scale * 1000 * (seed + 1), **params})
    frame = pd.DataFrame(rows)
    frame["rung_index"] = frame["rung_index"].astype("Int64")
    return frame


@pytest.fixture(scope="module")
def bars(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, object], Path]:
    folder = tmp_path_factory.mktemp("bars")
    return _draw(_bars_table(), folder, "bars"), folder


def _errorbars(fig) -> list[tuple[str, object]]:
    """(legend label, data line) of every error-bar plot of a figure's first axes (one per
    config; a ladder figure's second axes hold the solved fractions and fitted cliffs)."""
    from matplotlib.container import ErrorbarContainer

    return [(c.get_label(), c.lines[0]) for c in fig.axes[0].containers
            if isinstance(c, ErrorbarContainer)]


def _errorbar_lines(fig) -> list:
    """The data lines of every error-bar plot of a figure (one per config)."""
    return [line for _, line in _errorbars(fig)]


def _legend_texts(fig) -> list[str]:
    legends = list(fig.legends) + [ax.get_legend() for ax in fig.axes if ax.get_legend()]
    return [t.get_text() for legend in legends for t in legend.get_texts()]


def _joining_lines(fig) -> list:
    """Lines that join points at different x and different y (not rules, not lone marks)."""
    found = []
    for ax in fig.axes:
        for line in ax.get_lines():
            if line.get_linestyle() in ("None", "", " ") or len(line.get_xdata()) < 2:
                continue
            x, y = np.asarray(line.get_xdata(), float), np.asarray(line.get_ydata(), float)
            keep = np.isfinite(x) & np.isfinite(y)
            if len(set(x[keep])) > 1 and len(set(y[keep])) > 1:
                found.append(line)
    return found


def test_an_ordered_ladder_is_drawn_as_lines_a_categorical_one_as_points(drawn, bars):
    figures, folder = drawn
    assert all(line.get_linestyle() != "None" for line in
               _errorbar_lines(figures[f"{SWEEP}-ladder-grid"]))
    ordered = _csv(folder, "ladder-grid")
    # rungs random, I1, I2: no numeric parameter per rung (p_steps is 50 then 30 on I1, I2,
    # missing on random), so no order: points side by side, nothing joined
    figures, folder = bars
    fig = figures["bars-ladder-bars"]
    assert len(_errorbar_lines(fig)) == 5
    assert all(line.get_linestyle() == "None" for line in _errorbar_lines(fig))
    assert _joining_lines(fig) == []
    assert fig.axes[-1].get_xlabel() == "rung"
    ladder = pd.read_csv(folder / "bars-ladder-bars.csv")
    assert set(ladder["ordered"]) == {False} and ladder["rung_param"].isna().all()
    assert set(ordered["ordered"]) == {True}


def test_a_numeric_parameter_that_does_not_rise_along_the_ladder_is_no_order(tmp_path):
    frame = _table()
    frame = frame[frame["family"] == "edgematch"].copy()
    frame["rung"] = frame["rung"].map({"4": "small", "6": "large", "8": "medium"})
    frame["p_n"] = frame["p_n"].map({4: 4, 6: 9, 8: 6}).astype("Int64")
    figures = _draw(frame, tmp_path)
    assert _joining_lines(figures[f"{SWEEP}-ladder-grid"]) == []
    assert set(pd.read_csv(tmp_path / f"{SWEEP}-ladder-grid.csv")["ordered"]) == {False}


def _budget_marks(fig, budget: float) -> int:
    """How many marks (points without a line) sit exactly on the budget line."""
    count = 0
    for ax in fig.axes:
        for line in ax.get_lines():
            y = np.asarray(line.get_ydata(), float)
            if line.get_linestyle() == "None" and len(y) and np.all(y == budget):
                count += len(y)
    return count


def test_skipped_runs_are_never_drawn_as_failures(drawn, bars):
    figures, folder = drawn
    # the failures on the 10 s budget line: slow at 8 (timeout), slow at 6 (unknown, error),
    # dfs luby at 8 (unknown); dfs geometric at 8 was skipped and is not among them
    ladder = figures[f"{SWEEP}-ladder-grid"]
    assert _budget_marks(ladder, 10.0) == 4
    above = [line for line in ladder.axes[0].get_lines() if line.get_linestyle() == "None"
             and len(line.get_ydata()) and np.all(np.asarray(line.get_ydata()) > 25.0)
             and line.get_markerfacecolor() == "none"]
    assert len(above) == 1 and len(above[0].get_xdata()) == 1  # one skipped (rung, config)
    heat = _csv(folder, "heatmap-grid")
    cells = heat[(heat["config"] == CONFIGS[0]) & (heat["x_value"] == 8)]
    assert set(cells["attempted"]) == {0} and cells["fraction"].isna().all()
    panel = next(ax for ax in figures[f"{SWEEP}-heatmap-grid"].axes
                 if ax.get_title() == "dfs (restart=geometric)")
    texts = {(round(t.get_position()[0]), t.get_text()) for t in panel.texts}
    assert {text for x, text in texts if x == 2} == {"skipped"}
    hatched = [p for p in panel.patches if p.get_hatch()]
    assert len(hatched) == 2  # n = 8 at both colour counts
    md = (folder / f"{SWEEP}-table.md").read_text()
    row = next(line for line in md.splitlines() if line.startswith("| dfs (restart=geometric)"))
    assert [cell.strip() for cell in row.split("|")[2:5]] == ["4/4", "4/4", "skipped"]
    cactus = _legend_texts(figures[f"{SWEEP}-cactus-grid"])
    assert "dfs (restart=geometric): 8/12, 4 skipped" in cactus
    assert "slow: 6/12" in cactus
    # an instance a config does not take is neither a failure nor a skip
    assert "xcc: 4/5, 1 not run" in _legend_texts(bars[0]["bars-cactus-bars"])


def test_node_bars_keep_comparable_counts_apart_in_natural_order(bars):
    figures, folder = bars
    nodes = pd.read_csv(folder / "bars-nodes-bars.csv")
    assert set(nodes["config"]) == {"ida-manhattan", "ida-pdb", "sat"}  # cpsat: zeros, xcc: none
    panels = nodes.groupby("panel")["config"].agg(lambda c: tuple(sorted(set(c))))
    assert sorted(panels) == [("ida-manhattan", "ida-pdb"), ("sat",)]
    order = nodes[nodes["config"] == "sat"].sort_values("position")["instance_name"].tolist()
    assert order == ["r-s1", "r-s2", "r-s10", "scramble-50", "scramble-30"]
    fig = figures["bars-nodes-bars"]
    with_bars = [ax for ax in fig.axes if ax.patches]
    assert len(with_bars) == 2
    assert sorted(len(ax.patches) for ax in with_bars) == [5, 10]
    legend = _legend_texts(fig)
    assert not any(text.startswith(("cpsat", "xcc")) for text in legend)
    ticks = [t.get_text() for t in with_bars[0].get_xticklabels()]
    assert ticks[:3] == ["s1", "s2", "s10"]


def test_legends_name_the_parameters_that_tell_configs_apart(drawn, bars):
    figures, _ = drawn
    legend = _legend_texts(figures[f"{SWEEP}-ladder-grid"])
    assert {"dfs (restart=geometric)", "dfs (restart=luby)", "fast", "slow"} <= set(legend)
    figures, folder = bars
    legend = _legend_texts(figures["bars-ladder-bars"])
    # one ida-pdb config: its parameters set away from the registered defaults say which one
    assert "ida-pdb (partition=4-4-4-3, reflect=False)" in legend
    assert "ida-manhattan" in legend
    ladder = pd.read_csv(folder / "bars-ladder-bars.csv")
    assert set(ladder.loc[ladder["config"] == "ida-pdb", "label"]) == {
        "ida-pdb (partition=4-4-4-3, reflect=False)"}


def _lab(colour: str) -> np.ndarray:
    """CIE Lab (D65) of a matplotlib colour."""
    rgb = np.array(matplotlib.colors.to_rgb(colour))
    rgb = np.where(rgb > 0.04045, ((rgb + 0.055) / 1.055) ** 2.4, rgb / 12.92)
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722],
                    [0.0193, 0.1192, 0.9505]]) @ rgb / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


QUICK_CONFIGS = {
    "edgematch": ["clique", "cpsat", "dfs-breaks", "dfs-restarts", "ilp-cbc", "ilp-highs", "sat",
                  "xcc"],
    "games": ["alphabeta", "alphabeta-ordered", "attractor", "minimax"],
    "sudoku": ["cpsat", "ilp-cbc", "ilp-highs", "native", "norvig",
               "norvig+hidden-singles+naked-pairs", "norvig-noprop", "sat", "xcc"],
    "tiles": ["astar-manhattan", "ida-lc", "ida-manhattan", "ida-pdb"],
}


def _palette_table() -> pd.DataFrame:
    """The quick suite's configs of every family, two rungs of one instance each."""
    rows = []
    for family, solvers in QUICK_CONFIGS.items():
        for k, solver in enumerate(solvers):
            for rung in (1, 2):
                rows.append({"sweep": "pal", "family": family, "ladder": f"{family}-l",
                             "rung": str(rung), "rung_index": rung - 1, "p_n": rung,
                             "instance_id": f"{family}-{rung}", "instance_name": f"i{rung}",
                             "solver": solver, "repeat": 0, "seed": 1, "status": "solved",
                             "t_wall": 0.01 * (k + 1) * rung, "budget_s": 10.0})
    frame = pd.DataFrame(rows)
    frame["rung_index"] = frame["rung_index"].astype("Int64")
    return frame


def test_configs_are_told_apart_by_colour_and_keep_their_look_in_every_figure(tmp_path):
    figures = _draw(_palette_table(), tmp_path, "pal")
    seen: dict[tuple[str, str], tuple] = {}
    for family in QUICK_CONFIGS:
        looks = {}
        for kind in ("ladder", "cactus", "profile"):
            fig = figures[f"pal-{kind}-{family}-l"]
            lines = (_errorbars(fig) if kind == "ladder" else
                     [(line.get_label(), line) for line in fig.axes[0].get_lines()
                      if line.get_label()[0] != "_"])
            for label, line in lines:
                config = label.split(": ")[0].split(" (")[0]
                look = (matplotlib.colors.to_hex(line.get_color()), line.get_marker())
                assert looks.setdefault(config, look) == look, (family, kind, config)
        assert set(looks) == set(QUICK_CONFIGS[family])
        colours = [look[0] for look in looks.values()]
        distance = min(np.linalg.norm(_lab(a) - _lab(b)) for i, a in enumerate(colours)
                       for b in colours[i + 1:])
        assert distance > 25, (family, distance)  # cpsat, ilp-highs, sat were three blues
        seen.update({(family, c): look for c, look in looks.items()})
    for config in ("cpsat", "ilp-highs", "sat", "xcc", "ilp-cbc"):  # one look in both families
        assert seen[("edgematch", config)] == seen[("sudoku", config)], config


def _wide_table() -> pd.DataFrame:
    """Twelve rungs of one instance, eleven configs of eleven paradigm/backend pairs with long
    names and node counts: the table that made the node bars 2500 px wide."""
    rows = []
    for k in range(11):
        solver = f"a-solver-with-a-long-name-{k:02d}"
        for rung in range(12):
            rows.append({"sweep": "wide", "family": "edgematch", "ladder": "wide",
                         "rung": str(rung + 3), "rung_index": rung, "p_n": rung + 3,
                         "instance_id": f"w{rung}", "instance_name": f"board-n{rung + 3}-s1",
                         "solver": solver, "paradigm": "native", "backend": f"engine{k}-1.0",
                         "repeat": 0, "seed": 1, "status": "solved" if rung < 8 + k % 4 else
                         "timeout", "t_wall": 0.001 * (k + 1) * 2 ** rung, "budget_s": 10.0,
                         "work_nodes": float(10 ** (1 + rung // 2) + k)})
    frame = pd.DataFrame(rows)
    frame["rung_index"] = frame["rung_index"].astype("Int64")
    return frame


def test_every_figure_stays_within_a_readable_width(drawn, bars, tmp_path):
    _draw(_wide_table(), tmp_path, "wide")
    folders = [drawn[1], bars[1], tmp_path]
    pngs = [png for folder in folders for png in sorted(folder.glob("*.png"))]
    assert len(pngs) >= 15
    for png in pngs:
        width = matplotlib.image.imread(png).shape[1]
        assert width <= 1400, (png.name, width)
    assert (tmp_path / "wide-nodes-wide.png").exists()


def test_single_panel_figures_give_the_axes_most_of_the_canvas(drawn):
    figures, _ = drawn
    for kind in ("ladder", "cactus", "profile"):
        fig = figures[f"{SWEEP}-{kind}-grid"]
        box = fig.axes[0].get_position()
        assert box.width > 0.7, (kind, box.width)  # a legend beside the axes left them 45%


def test_the_index_gives_every_figure_a_caption(drawn, bars):
    for _, folder in (drawn, bars):
        index = json.loads(next(folder.glob("*-figures.json")).read_text())
        for entry in index["figures"]:
            caption = entry["plots"]
            assert caption.endswith(".") and len(caption) > 80, entry
            if entry["ladder"]:
                pseudo = entry["ladder"] == "(instances)"
                name = f"{entry['family']} instances" if pseudo else entry["ladder"]
                assert caption.startswith(name), caption
    captions = {(e["kind"], e["ladder"]): e["plots"] for e in json.loads(
        (drawn[1] / f"{SWEEP}-figures.json").read_text())["figures"]}
    assert "against n, one line per config" in captions[("ladder", "grid")]
    assert "skipped" in captions[("heatmap", "grid")]
    bars_index = json.loads((bars[1] / "bars-figures.json").read_text())["figures"]
    ladder = next(e for e in bars_index if e["kind"] == "ladder")["plots"]
    assert "categories" in ladder and "one line" not in ladder
    nodes = next(e for e in bars_index if e["kind"] == "nodes")["plots"]
    assert "no positive count from cpsat, xcc, left out" in nodes


def _falling_ladder(solved: list[int]) -> pd.DataFrame:
    """Clues 40, 38, ... 30 (fewer is harder), four seeds a rung, ``solved`` of them each."""
    rows = []
    for index, (clues, wins) in enumerate(zip(range(40, 29, -2), solved, strict=True)):
        for seed in range(4):
            ok = seed < wins
            rows.append({"sweep": "fall", "family": "sudoku", "ladder": "clues",
                         "rung": str(clues), "rung_index": index, "p_clues": clues,
                         "instance_id": f"c{clues}s{seed}", "instance_name": f"c{clues}s{seed}",
                         "solver": "norvig", "repeat": 0, "seed": seed,
                         "status": "solved" if ok else "timeout",
                         "t_wall": 0.1 if ok else 5.5, "budget_s": 5.0})
    frame = pd.DataFrame(rows)
    frame["rung_index"] = frame["rung_index"].astype("Int64")
    return frame


def _fitted_marks(fig) -> dict[str, list[float]]:
    """The x of the ladder figure's fitted-cliff marks: the diamond, the open-end arrows."""
    marks: dict[str, list[float]] = {}
    for line in fig.axes[-1].get_lines():
        if line.get_marker() in ("D", "<", ">"):
            marks.setdefault(line.get_marker(), []).extend(np.asarray(line.get_xdata(), float))
    return marks


def test_a_falling_ladder_draws_its_fitted_cliff_at_its_clue_value(tmp_path):
    """Solved on 40-36 and failed from 34: the x axis is the clues, and the fitted cliff's
    diamond sits at the report's value, inside the gap between 36 and 34 the data leave."""
    fig = _draw(_falling_ladder([4, 4, 4, 0, 0, 0]), tmp_path, "fall")["fall-ladder-clues"]
    (x,) = _fitted_marks(fig)["D"]
    assert 34 <= x <= 36
    fit = pd.read_csv(tmp_path / "fall-ladder-clues.csv")
    assert fit["fit_x"].dropna().iloc[0] == pytest.approx(x)


def test_a_falling_ladder_draws_an_open_end_on_the_side_of_its_last_rung(tmp_path):
    """Solved to the end but 1 of 4 on the last rung (30 clues): the interval's lower end lies
    beyond the last rung, which is the axis's left (clues rise to the right): the arrow
    points left, from the left edge."""
    fig = _draw(_falling_ladder([4, 4, 4, 4, 3, 1]), tmp_path, "fall")["fall-ladder-clues"]
    marks = _fitted_marks(fig)
    (x,) = marks["D"]
    assert 30 <= x <= 32 and ">" not in marks
    (arrow,) = marks["<"]
    assert arrow < 30 and arrow == pytest.approx(fig.axes[-1].get_xlim()[0])
