"""The HTML report: one self-contained page to explore a sweep, built from a small generated
sweep (edge matching and games), and driven in headless Chromium when the machine has it
(``.ci/run`` installs Debian's package): it loads without console errors, a filter changes the
rows shown, a run's drill-down opens, and a screenshot is written."""

from __future__ import annotations

import base64
import fcntl
import html
import json
import os
import re
import resource
import select
import shutil
import subprocess
import time
from pathlib import Path

import pandas as pd
import pytest

import bench
from bench.execute.runner import available_cpus
from bench.views.figures import make_figures
from bench.views.html import Figures, build_page, read_figures, render_page, write_html
from bench.views.report import terminal_summary

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

[[solver]]
name = "dfs-breaks"
params = { restart_unit = 1000 }

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
params = { border = 2, inner = 3, hints = 0 }
vary = "n"
values = [3, 4]
seeds = [1]
"""
RUNS = 4 * 2 + 2 * 2  # two game solvers x 4 trees, two edge-matching solvers x 2 boards

#: Headless, as root, on a closed network (the background-networking flags: else Chromium's
#: refused connections, many at a time); shared memory in /tmp, not /dev/shm (a container's
#: /dev/shm may be small, and Debian's launcher's own check for that fails on some machines);
#: its log on stderr, which the test keeps.
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                  "--enable-logging=stderr"]
DESKTOP = {"width": 1440, "height": 900}


@pytest.fixture(scope="module")
def sweep(tmp_path_factory) -> Path:
    """The sweep's folder, with its figures drawn as ``cliffbench run`` draws them."""
    tmp = tmp_path_factory.mktemp("html")
    suite = tmp / "html-test.toml"
    suite.write_text(SUITE)
    folder = bench.run(str(suite), results=tmp / "results", jobs=JOBS, progress=False)
    make_figures(bench.load(folder), folder / "figures", sweep=folder.name, formats=("png",))
    return folder


@pytest.fixture(scope="module")
def page(sweep) -> Path:
    return write_html(sweep, sweep.parent.parent / "report.html")


def visible_text(html_text: str) -> str:
    """The page without its images' data, script and style: what can show as text."""
    text = re.sub(r'src="data:[^"]*"', 'src=""', html_text)
    text = re.sub(r"<script.*?</script>", "", text, flags=re.S)
    return re.sub(r"<style>.*?</style>", "", text, flags=re.S)


def runs_json(html_text: str) -> list[dict]:
    block = re.search(r'<script type="application/json" id="runs-data">(.*?)</script>',
                      html_text, re.S).group(1)
    return json.loads(block)["runs"]  # the page writes "</" as "<\/", which JSON reads back


def test_the_page_is_one_self_contained_file(page):
    text = page.read_text()
    assert text.startswith("<!DOCTYPE html>")
    assert not re.search(r'(src|href)="(https?:)?//', text)
    assert "<link" not in text and not re.search(r"<script[^>]* src=", text)
    assert len(re.findall(r'src="data:image/webp;base64,', text)) >= 4  # figures and boards


def test_the_summary_has_a_table_per_family_and_ladder(page, sweep):
    text = visible_text(page.read_text())
    assert f"{RUNS} runs" in text and "0 wrong answers, 0 disagreements" in text
    for family, ladder in (("edgematch", "boards"), ("games", "trees")):
        assert f'data-family="{family}" data-ladder="{ladder}"' in text
    # edge matching: no optimal run, a score column; games: optimal answers, no score column
    boards = text.split('data-ladder="boards">', 1)[1].split("</article>", 1)[0]
    trees = text.split('data-ladder="trees">', 1)[1].split("</article>", 1)[0]
    assert ">score</th>" in boards and ">score</th>" not in trees
    assert "solved/failed runs" in boards and "solved/optimal/failed runs" in trees
    assert trees.count(">2/2/0</td>") == 2 * 3  # 2 trees a rung, all proven: 2 configs + best
    for junk in ("None", "nan", "&lt;NA&gt;", "rung_index", ">-0<"):
        assert junk not in text, junk


def test_figures_carry_their_descriptions(page, sweep):
    text = visible_text(page.read_text())
    index = json.loads(next((sweep / "figures").glob("*-figures.json")).read_text())
    drawn = [f for f in index["figures"] if any(n.endswith(".png") for n in f["files"])]
    assert drawn
    for figure in drawn:
        assert html.escape(figure["plots"]) in text, figure["plots"]
        assert not any(name in text for name in figure["files"])  # captions are not file names


def test_each_config_has_its_best_answer_drawn_once(page):
    text = page.read_text()
    boards = text.split('data-ladder="boards">', 1)[1].split("</article>", 1)[0]
    assert "Best answers" in boards and "best of" in boards
    ids = re.findall(r'id="pic-(\d+)"', text)
    assert len(ids) == len(set(ids)) >= 2
    runs = runs_json(text)
    with_picture = [r for r in runs if "picture" in r]
    assert {r["family"] for r in with_picture} == {"edgematch", "games"}
    assert all(r["picture"] in map(int, ids) for r in with_picture)


def test_every_run_is_in_the_explorer_without_nulls(page):
    runs = runs_json(page.read_text())
    assert len(runs) == RUNS and [r["id"] for r in runs] == list(range(RUNS))

    def nulls(value):
        if isinstance(value, dict):
            return any(v is None or nulls(v) for v in value.values())
        return False

    assert not any(nulls(r) for r in runs)
    run = next(r for r in runs if r["solver"] == "dfs-breaks")
    assert run["solver_params"]["restart_unit"] == 1000 and "n" in run["params"]
    assert "counters" in run and "limits" in run and run["status"] in ("solved", "unknown")


def test_the_manifest_is_a_readable_table(page):
    text = visible_text(page.read_text())
    manifest = text.split('id="manifest"', 1)[1].split("</table>", 1)[0]
    assert "<th>command</th><td><code>" in manifest
    assert "Dask scheduler" not in manifest  # unset for the local executor: not shown
    assert "{" not in manifest and "None" not in manifest
    assert "<th>packages</th><td><ul><li>" in manifest


def synthetic_runs() -> pd.DataFrame:
    """Four runs of one edge-matching ladder: a wrong answer with a hostile verdict, an
    infeasible claim against a checked solution (a disagreement), a timeout; no answers to
    draw (no ``solution`` column)."""
    base = {"family": "edgematch", "ladder": "L", "budget_s": 10.0, "max_score": 8.0,
            "instance_name": "<b>board</b>", "counters": '{"nodes": 5}'}
    return pd.DataFrame([
        {**base, "instance_id": "i1", "rung": "4", "rung_index": 0, "solver": "dfs",
         "status": "solved", "verified": True, "t_wall": 1.0, "score": 8.0},
        {**base, "instance_id": "i1", "rung": "4", "rung_index": 0, "solver": "sat",
         "status": "infeasible", "claimed": "infeasible", "t_wall": 0.5},
        {**base, "instance_id": "i2", "rung": "5", "rung_index": 1, "solver": "dfs",
         "status": "timeout", "t_wall": 10.4},
        {**base, "instance_id": "i2", "rung": "5", "rung_index": 1, "solver": "sat",
         "status": "wrong", "claimed": "solved", "t_wall": 2.0,
         "verdict": "</script><script>alert(1)</script> piece 3 used twice"},
    ])


def test_wrong_answers_and_disagreements_come_first_and_escaped():
    page = build_page(synthetic_runs(), "synthetic", {"scheduler": None, "jobs": 1},
                      Figures(note="no figures"))
    text = render_page(page)
    body = visible_text(text)
    assert body.index("1 wrong answer</h2>") < body.index("1 disagreement</h2>") \
        < body.index('id="family-edgematch"')
    assert '<span class="alert">1 wrong answer, 1 disagreement</span>' in body
    assert "&lt;/script&gt;&lt;script&gt;alert(1)" in body and "<b>board" not in body
    assert 'data-run="3"' in body and 'data-text="i2"' not in body  # the wrong run opens
    assert 'data-text="i1"' in body  # the disagreement filters to its instance
    runs = runs_json(text)  # the hostile verdict cannot end the JSON's script element
    assert runs[3]["verdict"].startswith("</script>") and runs[3]["counters"] == {"nodes": 5}
    assert ">0/1!</td>" in body  # rung 5 of sat: its one run is a wrong answer
    assert "Dask scheduler" not in body and "<th>jobs</th><td>1</td>" in body
    assert "Best answers" not in body and "no figures" in body


def test_a_sweep_without_figures_says_how_to_make_them(tmp_path):
    figures = read_figures(tmp_path / "figures", "nothing")
    assert not figures.made and "cliffbench figures nothing" in figures.note


def test_the_cli_writes_the_page(page, sweep, tmp_path):
    out = tmp_path / "again.html"
    proc = cliffbench("report", str(sweep), "--html", str(out), check=True)
    assert proc.stdout.strip() == str(out)
    assert out.read_text() == page.read_text()  # the same table gives the same page


def test_the_terminal_summary_of_a_real_sweep_fits_100_columns(sweep):
    text = terminal_summary(bench.load(sweep), sweep.name)
    assert max(len(line) for line in text.splitlines()) <= 100
    assert "edgematch / boards:" in text and "games / trees:" in text
    assert "dfs-breaks" in text and "None" not in text


# --------------------------------------------------------------------------------------------
# headless Chromium, driven over the DevTools protocol on a pipe (no Python dependency)


class DevTools:
    """Chromium started with ``--remote-debugging-pipe``: it reads commands from fd 3 and
    writes answers and events to fd 4, each a JSON message ending in a NUL byte."""

    def __init__(self, browser: str, profile: Path, timeout: float = 60.0):
        profile.mkdir(parents=True, exist_ok=True)
        self.log_path = profile / "chromium-stderr.txt"
        self.log = open(self.log_path, "wb")  # noqa: SIM115 (closed in close())
        commands_r, self.commands = os.pipe()
        self.replies, replies_w = os.pipe()

        def as_fd_3_and_4() -> None:
            """In the child, before the other fds are closed: the pipe ends become fds 3 and 4
            (through copies above 10, so that neither overwrites the other), and the address
            space is as large as the hard limit allows: Chromium reserves far more than it
            uses, and dies at start-up (SIGTRAP, nothing on stderr) under a limit that this
            test process may hold (a worker's backstop, were a test to leave it set)."""
            high_r = fcntl.fcntl(commands_r, fcntl.F_DUPFD, 10)
            high_w = fcntl.fcntl(replies_w, fcntl.F_DUPFD, 10)
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)
            _, hard = resource.getrlimit(resource.RLIMIT_AS)
            resource.setrlimit(resource.RLIMIT_AS, (hard, hard))

        self.proc = subprocess.Popen(
            [browser, *CHROMIUM_FLAGS, "--remote-debugging-pipe", f"--user-data-dir={profile}",
             "about:blank"], pass_fds=(3, 4), preexec_fn=as_fd_3_and_4,
            stdout=subprocess.DEVNULL, stderr=self.log)
        os.close(commands_r)
        os.close(replies_w)
        self.timeout, self.next_id, self.buffer = timeout, 0, b""
        self.events: list[dict] = []
        self.session: str | None = None

    def _message(self, deadline: float) -> dict:
        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.replies], [], [], left)[0]:
                raise TimeoutError("chromium did not answer")
            chunk = os.read(self.replies, 1 << 20)
            if not chunk:
                raise ChromiumDied(self.death())
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def send(self, method: str, **params) -> dict:
        """One command (on the page's session once attached); its result."""
        self.next_id += 1
        command = {"id": self.next_id, "method": method, "params": params}
        if self.session and not method.startswith(("Target.", "Browser.")):
            command["sessionId"] = self.session
        try:
            os.write(self.commands, json.dumps(command).encode() + b"\0")
        except BrokenPipeError:
            raise ChromiumDied(self.death()) from None
        deadline = time.monotonic() + self.timeout
        while True:
            message = self._message(deadline)
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)

    def wait_for(self, method: str) -> dict:
        deadline = time.monotonic() + self.timeout
        for event in self.events:
            if event.get("method") == method:
                return event
        while True:
            event = self._message(deadline)
            self.events.append(event)
            if event.get("method") == method:
                return event

    def evaluate(self, expression: str):
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True,
                           awaitPromise=True)
        if "exceptionDetails" in result:
            raise AssertionError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def open(self, url: str, width: int, height: int) -> None:
        target = self.send("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.send("Target.attachToTarget", targetId=target,
                                 flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.send(f"{domain}.enable")
        self.send("Emulation.setDeviceMetricsOverride", width=width, height=height,
                  deviceScaleFactor=1, mobile=False)
        self.send("Page.navigate", url=url)
        self.wait_for("Page.loadEventFired")

    def death(self) -> str:
        """Why the DevTools pipe closed: chromium's exit status and the end of its stderr."""
        try:
            code = self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            code = "still running"
        self.log.flush()
        tail = self.log_path.read_bytes()[-2000:].decode("utf-8", "replace").strip()
        return f"chromium closed its DevTools pipe (exit status {code}); its stderr ends:\n{tail}"

    def errors(self) -> list[str]:
        """Console errors, uncaught exceptions and error log entries seen so far."""
        found = []
        for event in self.events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.exceptionThrown":
                found.append(json.dumps(params["exceptionDetails"])[:500])
            elif method == "Runtime.consoleAPICalled" and params.get("type") == "error":
                found.append(json.dumps(params.get("args"))[:500])
            elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
                found.append(params["entry"].get("text", "")[:500])
        return found

    def screenshot(self, out: Path, width: int) -> Path:
        """The whole page at ``width`` CSS pixels as a PNG."""
        height = self.evaluate("document.documentElement.scrollHeight")
        shot = self.send("Page.captureScreenshot", format="png", captureBeyondViewport=True,
                         clip={"x": 0, "y": 0, "width": width, "height": height, "scale": 1})
        out.write_bytes(base64.b64decode(shot["data"]))
        return out

    def close(self) -> None:
        try:
            self.send("Browser.close")
            self.proc.wait(timeout=20)
        except (RuntimeError, OSError, subprocess.TimeoutExpired):  # a dead browser too
            self.proc.kill()
            self.proc.wait()
        finally:
            os.close(self.commands)
            os.close(self.replies)
            self.log.close()


class ChromiumDied(RuntimeError):
    """Chromium's browser process ended while a command waited for its answer."""


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.skip("chromium is not installed (apt-get install chromium; .ci/run does)")
    return found


ROWS = "[...document.querySelectorAll('#runs tbody tr.run')]"


def test_headless_chromium_explores_the_page(page, tmp_path):
    browser = DevTools(chromium(), tmp_path / "profile")
    try:
        browser.open(page.as_uri(), **DESKTOP)
        assert browser.evaluate("document.body.dataset.ready") == "yes"
        assert browser.errors() == []
        assert browser.evaluate(f"{ROWS}.length") == RUNS
        # nothing overflows the page sideways: wide tables scroll inside their own box
        assert browser.evaluate("document.documentElement.scrollWidth") <= DESKTOP["width"]

        shot = browser.screenshot(tmp_path / "report.png", DESKTOP["width"])
        print(f"screenshot: {shot}")

        browser.evaluate("(() => { const s = document.getElementById('filter-family');"
                         " s.value = 'games'; s.dispatchEvent(new Event('change')); })()")
        families = browser.evaluate(f"{ROWS}.map(r => r.cells[0].textContent)")
        assert families == ["games"] * 8
        assert browser.evaluate("document.querySelector('article[data-ladder=boards]')"
                                ".classList.contains('hidden')")
        assert browser.evaluate("document.getElementById('shown').textContent") == \
            f"8 of {RUNS} runs"

        browser.evaluate(f"{ROWS}[0].click()")
        detail = browser.evaluate("document.querySelector('#runs tr.detail').innerText")
        for part in ("Instance", "Instance parameters", "Solver", "Outcome", "Cost",
                     "Counters", "Run"):
            assert f"{part}\n" in detail, part

        browser.evaluate("document.getElementById('filter-reset').click()")
        assert browser.evaluate(f"{ROWS}.length") == RUNS
        browser.evaluate("document.querySelector('article[data-ladder=boards] .boards a')"
                         ".click()")
        assert browser.evaluate("document.querySelector('#runs tr.detail img') !== null")

        browser.evaluate("document.querySelector('article[data-ladder=boards] td.cell')"
                         ".click()")
        shown = browser.evaluate(f"{ROWS}.map(r => [r.cells[1].textContent,"
                                 " r.cells[2].textContent])")
        assert shown and all(cells == ["boards", "3"] for cells in shown)
        assert browser.errors() == []
    finally:
        browser.close()


@pytest.mark.data
def test_the_paper_figures_come_from_one_command(shared_data, tmp_path):
    """`cliffbench figures paper --run --timeout 2`: the sweep, then every figure behind the
    seeds' claims (a short budget: the edge-matching ladder stops at its cliff sooner)."""
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
