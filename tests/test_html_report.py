"""The HTML report: one self-contained page with the tables, the figures and the best boards,
rendered by headless Chromium when the machine has it (``.ci/run`` installs Debian's package)."""

from __future__ import annotations

import re
import shutil
import subprocess

import numpy as np
import pytest

import bench
from bench.html import write_html
from bench.runner import available_cpus

from helpers import cliffbench

JOBS = min(2, len(available_cpus()))

SUITE = """
name = "html-test"
timeout = 30
mem = 3000

[[solver]]
name = "minimax"

[[solver]]
name = "alphabeta"

[[solver]]
name = "dfs-restarts"

[[ladder]]
name = "trees"
generator = "games/tree"
params = { arity = 3 }
vary = "depth"
values = [3, 4]
seeds = [1, 2]

[[ladder]]
name = "boards"
generator = "edgematch/planted"
params = { border = 2, inner = 3 }
vary = "n"
values = [3, 4]
seeds = [1]
"""

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("html")
    suite = tmp / "html-test.toml"
    suite.write_text(SUITE)
    folder = bench.run(str(suite), results=tmp / "results", jobs=JOBS, progress=False)
    out = write_html(folder, tmp / "report.html")
    return out


def test_the_page_holds_the_tables_figures_and_boards(page):
    text = page.read_text()
    for table in ("summary", "cliffs", "virtual-best", "manifest"):
        assert f'id="{table}"' in text, table
    assert "0 wrong answers, 0 disagreements, 10 runs" in text
    assert len(re.findall(r'src="data:image/png;base64,', text)) >= 2  # ladder, cactus, ...
    # The best board of each edge-matching ladder and config: one here, drawn inline.
    assert text.count("<svg") == 1 and "boards / dfs-restarts: " in text
    # Self-contained: nothing is fetched (SVG's xmlns is a name, not a request).
    assert not re.search(r'(src|href)="(https?:)?//', text)


def test_the_cli_writes_the_page(page, tmp_path):
    out = tmp_path / "again.html"
    proc = cliffbench("report", str(page.parent / "results" / "html-test"), "--html", str(out),
                      check=True)
    assert proc.stdout.strip() == str(out) and out.read_text().startswith("<!DOCTYPE html>")


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.skip("chromium is not installed (.ci/run installs Debian's package)")
    return found


def test_headless_chromium_renders_the_page(page, tmp_path):
    browser = chromium()
    shot = tmp_path / "shot.png"
    common = [browser, *CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'profile'}"]
    subprocess.run([*common, f"--screenshot={shot}", "--window-size=1280,2000",
                    page.as_uri()], check=True, capture_output=True, timeout=120)
    import matplotlib.image

    pixels = matplotlib.image.imread(shot)
    assert pixels.shape[0] >= 1000 and pixels.shape[1] >= 1000
    assert len(np.unique(pixels.reshape(-1, pixels.shape[-1]), axis=0)) > 50  # not blank
    dom = subprocess.run([*common, "--dump-dom", page.as_uri()], check=True,
                         capture_output=True, text=True, timeout=120).stdout
    assert 'id="summary"' in dom and dom.count("<table") >= 4


@pytest.mark.data
def test_the_paper_figures_come_from_one_command(shared_data, tmp_path):
    """`cliffbench figures paper --run --timeout 2`: the sweep, then every figure behind the
    seeds' claims (a short budget: the edge-matching ladder stops at its cliff sooner)."""
    import json

    out = tmp_path / "figs"
    cliffbench("figures", "paper", "--run", "--timeout", "2", "--results",
               str(tmp_path / "results"), "--out", str(out), "--formats", "png",
               "--data-dir", str(shared_data), check=True, timeout=900)
    index = json.loads((out / "paper-figures.json").read_text())
    made = {(f["kind"], f["ladder"]) for f in index["figures"]}
    for ladder in ("edgematch-cliff", "notebook", "norvig", "alphabeta-trees"):
        assert ("ladder", ladder) in made or ("nodes", ladder) in made, (ladder, made)
    assert ("nodes", "notebook") in made and ("nodes", "alphabeta-trees") in made
    assert (out / "paper-table.md").exists() and (out / "paper-table.tex").exists()
