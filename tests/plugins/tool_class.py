"""A tool declared in Python (bench/tools/adapter.py: "for the odd program"): the fake SAT
program of fake_sat.py, with an answer reader of its own that takes only its ``v`` lines and
its exit code, registered from a ``--plugin`` file."""

import sys
from dataclasses import dataclass
from pathlib import Path

from bench.tools.adapter import Tool
from bench.tools.outputs import Answer, literals
from bench.tools.solvers import register_tool

FAKE = Path(__file__).with_name("fake_sat.py")


@dataclass(frozen=True)
class VLinesOnly(Tool):
    def read_answer(self, stdout, written, code):
        if code == 20:
            return Answer("infeasible")
        lines = [line[1:] for line in stdout.splitlines() if line.startswith("v")]
        true, why = literals(lines, "v lines")
        return Answer("solved", true, why)


register_tool(VLinesOnly(name="fake-class", executable=sys.executable, paradigm="sat",
                         input="cnf", output="sat-competition",
                         command=("{executable}", str(FAKE), "good", "{input}"),
                         sources=("encoders.latin_sat:latin/sat",)), __name__)
