"""Time the HTML report of a finished sweep; prints seconds and bytes, one JSON line a build.

    python perf/html_report.py quick [--results results] [--repeat 3]

Each build is what ``cliffbench report SWEEP --html FILE`` does (load the table, compute the
report, draw the best answers, read the figures, write the page), timed from the start of
``write_html`` to the file on disk, in this process (imports paid before the first build are
not counted; the first build pays matplotlib's first drawing). ``seconds`` is wall time,
``cpu_seconds`` this process's CPU time (what the build costs on a machine that other work
shares). Also prints how the page's bytes split between the images (figures and pictures), the
runs' JSON and the rest.
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
import time
from pathlib import Path

import bench.views.html  # noqa: F401  (imported before timing, as the CLI has it by then)
from bench.views.html import write_html


def parts(text: str) -> dict[str, int]:
    """Bytes of the page's inline images (figures and pictures), its runs' JSON, and the rest."""
    images = sum(len(m) for m in re.findall(r'src="data:image/[a-z]+;base64,[^"]*"', text))
    data = re.search(r'<script type="application/json" id="runs-data">.*?</script>', text, re.S)
    runs = len(data.group(0)) if data else 0
    return {"images": images, "runs_json": runs, "other": len(text) - images - runs}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("sweep", help="a sweep's name under --results, or its folder")
    ap.add_argument("--results", default="results")
    ap.add_argument("--repeat", type=int, default=1, help="builds to time")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "report.html"
        for build in range(1, args.repeat + 1):
            start, cpu = time.perf_counter(), time.process_time()
            write_html(args.sweep, out, args.results)
            seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
            text = out.read_text(encoding="utf-8")
            print(json.dumps({"build": build, "seconds": round(seconds, 3),
                              "cpu_seconds": round(cpu, 3),
                              "bytes": out.stat().st_size, **parts(text)}), flush=True)


if __name__ == "__main__":
    main()
