"""Survival figures (bench/views/fig_survival.py, drawn by bench/views/figures.py): the values of
the empirical survival function, failures censored at the budget (a curve with failures ends
there, above 0), the many-runs threshold (skipped runs not counted), the work panel only for
configs that count nodes, the files and index entries written, the same bytes twice, and what the
drawn figure shows. Synthetic tables only: no solver runs."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bench.views import figstyle
from bench.views.fig_survival import MIN_RUNS, survival_points
from bench.views.figures import make_figures

SWEEP = "tails"
BUDGET = 5.0


def test_the_survival_function_steps_down_at_each_distinct_solved_value():
    points = survival_points(np.array([3.0, 1.0, 2.0, 2.0]), runs=6, end=BUDGET)
    assert points["point"].tolist() == ["start", "step", "step", "step", "end"]
    assert points["x"].tolist() == [1.0, 1.0, 2.0, 3.0, BUDGET]
    assert np.allclose(points["survival"], [1.0, 5 / 6, 3 / 6, 2 / 6, 2 / 6])


def test_failures_are_censored_at_the_end_and_keep_the_curve_above_zero():
    every_run_solved = survival_points(np.array([1.0, 2.0]), runs=2, end=BUDGET)
    assert every_run_solved["point"].tolist() == ["start", "step", "step"]
    assert every_run_solved["survival"].tolist() == [1.0, 0.5, 0.0]  # no failure, no end
    none_solved = survival_points(np.array([]), runs=3, end=BUDGET)
    assert none_solved.to_dict("list") == {"point": ["end"], "x": [BUDGET], "survival": [1.0]}
    late = survival_points(np.array([7.0]), runs=2, end=BUDGET)  # solved past the budget
    assert late["x"].tolist() == [7.0, 7.0, 7.0] and late["survival"].iloc[-1] == 0.5
    with pytest.raises(ValueError):
        survival_points(np.array([1.0, 2.0]), runs=1, end=BUDGET)


def _row(solver: str, rung: int, k: int, restarts: str | None, **extra: object) -> dict:
    row = {"sweep": SWEEP, "family": "puzzle", "ladder": "grid", "rung": f"r{rung}",
           "rung_index": rung, "instance_id": f"i-{rung}-{k}", "instance_name": f"r{rung}-s{k}",
           "p_order": 30, "p_seed": k, "solver": solver, "repeat": 0, "seed": 1,
           "status": "solved", "budget_s": BUDGET, "work_nodes": None, "s_restarts": restarts}
    row.update(extra)
    return row


def _table(on_first: int = 30, on_second: int = MIN_RUNS - 1) -> pd.DataFrame:
    """Rung r0: ``on_first`` runs of native without restarts (a heavy tail, the slowest cut by
    the budget) and with restarts (every run solved, nodes counted by both), and 10 of cpsat
    (too few, no nodes). Rung r1: ``on_second`` runs of each native config made, plus skipped
    ones (never counted)."""
    rows = []
    for k in range(on_first):
        t = 0.01 * (k + 1) ** 2
        if t > BUDGET:
            rows.append(_row("native", 0, k, "off", status="timeout", t_wall=BUDGET + 0.5,
                             work_nodes=5e6))
        else:
            rows.append(_row("native", 0, k, "off", t_wall=t, work_nodes=1e3 * (k + 1) ** 2))
        rows.append(_row("native", 0, k, "luby", t_wall=0.05 * (1 + k % 7),
                         work_nodes=float(0 if k == 0 else 100 * (1 + k % 7))))
    rows += [_row("cpsat", 0, k, None, t_wall=0.2) for k in range(10)]
    for k in range(on_second + 3):
        for restarts in ("off", "luby"):
            made = {"t_wall": 0.1} if k < on_second else {"status": "skipped", "t_wall": None}
            rows.append(_row("native", 1, k, restarts, **made))
    frame = pd.DataFrame(rows)
    frame["rung_index"] = frame["rung_index"].astype("Int64")
    return frame


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Path], dict, Path]:
    folder, again = tmp_path_factory.mktemp("one"), tmp_path_factory.mktemp("two")
    figures: dict[str, object] = {}
    save = figstyle.save

    def keep(fig, stem, formats):
        figures[stem.name] = fig
        return save(fig, stem, formats)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(figstyle, "save", keep)
        files = make_figures(_table(), folder, sweep=SWEEP, formats=("png",))
    make_figures(_table(), again, sweep=SWEEP, formats=("png",))
    return folder, files, figures, again


def _survival_csv(folder: Path) -> pd.DataFrame:
    return pd.read_csv(folder / f"{SWEEP}-survival-grid-r0.csv")


def test_one_figure_per_rung_with_enough_runs_and_its_csv(made):
    folder, files, _, again = made
    names = {f.name for f in files}
    survival = sorted(n for n in names if "-survival-" in n)
    assert survival == [f"{SWEEP}-survival-grid-r0.csv", f"{SWEEP}-survival-grid-r0.png"]
    index = json.loads((folder / f"{SWEEP}-figures.json").read_text())
    entry = next(e for e in index["figures"] if e["kind"] == "survival")
    assert entry["rung"] == "r0" and entry["ladder"] == "grid" and entry["family"] == "puzzle"
    assert sorted(entry["files"]) == survival
    assert not any(s["kind"] == "survival" for s in index["skipped"])
    assert all("rung" not in e for e in index["figures"] if e["kind"] != "survival")
    for name in survival:
        assert (folder / name).read_bytes() == (again / name).read_bytes(), name


def test_the_csv_holds_each_configs_curve_with_failures_censored_at_the_budget(made):
    table = _survival_csv(made[0])
    time = table[table["metric"] == "time"]
    assert set(time["config"]) == {"native[restarts=off]", "native[restarts=luby]"}
    off = time[time["config"] == "native[restarts=off]"]
    solved = np.array([0.01 * (k + 1) ** 2 for k in range(30) if 0.01 * (k + 1) ** 2 <= BUDGET])
    expected = survival_points(solved, 30, BUDGET)
    assert off["point"].tolist() == expected["point"].tolist()
    assert np.allclose(off["x"], expected["x"]) and np.allclose(off["survival"],
                                                                 expected["survival"])
    end = off[off["point"] == "end"].iloc[0]
    assert end["x"] == BUDGET and end["survival"] == pytest.approx(8 / 30)
    assert (off["runs"] == 30).all() and (off["solved"] == 22).all()
    assert (off["censored"] == 8).all()
    luby = time[time["config"] == "native[restarts=luby]"]
    assert "end" not in set(luby["point"]) and luby["survival"].iloc[-1] == 0.0


def test_work_is_drawn_for_the_configs_that_count_nodes(made):
    table = _survival_csv(made[0])
    work = table[table["metric"] == "work"]
    assert set(work["config"]) == {"native[restarts=off]", "native[restarts=luby]"}
    off = work[work["config"] == "native[restarts=off]"]
    assert off["x"].iloc[-1] == 5e6 and off["point"].iloc[-1] == "end"  # the largest count
    luby = work[work["config"] == "native[restarts=luby]"]
    assert luby["x"].min() == 1.0  # a count of 0 stands at 1 on the log axis


def test_the_threshold_counts_the_runs_made(tmp_path):
    files = make_figures(_table(on_first=MIN_RUNS - 1, on_second=MIN_RUNS), tmp_path,
                         sweep=SWEEP, formats=("png",))
    assert sorted(f.name for f in files if "-survival-" in f.name) == [
        f"{SWEEP}-survival-grid-r1.csv", f"{SWEEP}-survival-grid-r1.png"]
    table = pd.read_csv(tmp_path / f"{SWEEP}-survival-grid-r1.csv")
    assert set(table["runs"]) == {MIN_RUNS}  # the skipped runs are not among them
    quiet = tmp_path / "quiet"
    files = make_figures(_table(on_first=MIN_RUNS - 1, on_second=MIN_RUNS - 1), quiet,
                         sweep=SWEEP, formats=("png",))
    assert not any("-survival-" in f.name for f in files)


def test_the_caption_says_what_is_censored_and_what_was_left_out(made):
    index = json.loads((made[0] / f"{SWEEP}-figures.json").read_text())
    caption = next(e for e in index["figures"] if e["kind"] == "survival")["plots"]
    assert caption.startswith("grid (puzzle), rung r0. Survival of run time on rung r0")
    assert "censored at the 5 s budget" in caption and "stays above 0" in caption
    assert "work_nodes" in caption
    assert f"fewer than {MIN_RUNS} runs made here, left out: cpsat" in caption


def test_the_figure_is_log_log_with_the_censored_curve_ending_at_the_budget(made):
    fig = made[2][f"{SWEEP}-survival-grid-r0"]
    time_ax, work_ax = fig.axes[:2]
    assert [ax.get_xscale() for ax in (time_ax, work_ax)] == ["log", "log"]
    assert time_ax.get_yscale() == "log"
    steps = [line for line in time_ax.get_lines() if len(line.get_xdata()) > 2]
    assert len(steps) == 2
    ends = {float(line.get_xdata()[-1]): float(line.get_ydata()[-1]) for line in steps}
    assert ends[BUDGET] == pytest.approx(8 / 30)
    assert all(y > 0 for line in steps for y in line.get_ydata())
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    off = [entry for entry in legend if entry.startswith("native (restarts=off): 22/30 solved")]
    assert len(off) == 1 and ", tail \u03b1 " in off[0]  # its slower half is fitted
