"""Paper figures from the results table (bench/figures.py): file names, the numbers in each CSV
(equal to bench.report's), kinds skipped when the table has nothing for them, byte-identical
files for the same table, and a real tiny sweep of game trees through the harness."""

from __future__ import annotations

import json
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
import pytest

import bench
from bench.figures import make_figures
from bench.report import cliffs, summarize, virtual_best

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
    assert r"\toprule" in tex and r"dfs[restart=luby]" in tex and "virtual best" in tex


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

