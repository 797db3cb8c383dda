"""A SAT program for the tool adapters' tests, that behaves or misbehaves on purpose.

    python fake_sat.py MODE FILE.cnf [PIDFILE]

It solves the DIMACS file with python-sat (MiniSat 2.2) and answers in the SAT competition's
convention (``s`` and ``v`` lines, exit 10 or 20), bent by MODE:

- ``good``: the right answer;
- ``no-model``: ``s SATISFIABLE`` and no ``v`` line;
- ``flipped``: a satisfiable claim with every variable of the model flipped;
- ``exit-only``: no status line, the flipped model, exit code 10;
- ``disagree``: ``s UNSATISFIABLE`` with exit code 10;
- ``crash``: a message on stderr, exit code 3;
- ``flood``: writes stdout without end;
- ``orphan``: starts a child that sleeps for a minute (its pid to PIDFILE), then answers well;
- ``stubborn``: ignores SIGTERM and sleeps for a minute;
- ``hog``: touches memory, 50 MB at a time, up to 4 GB, then sleeps.
"""

import os
import signal
import subprocess
import sys
import time

from pysat.formula import CNF
from pysat.solvers import Solver


def answer(path):
    with Solver(name="minisat22", bootstrap_with=CNF(from_file=path).clauses) as sat:
        return sat.solve(), sat.get_model() or []


def main():
    mode, path = sys.argv[1], sys.argv[2]
    if mode == "crash":
        print("fake_sat: cannot go on", file=sys.stderr)
        sys.exit(3)
    if mode == "flood":
        line = "c " + "x" * 1000 + "\n"
        while True:
            sys.stdout.write(line)
    if mode == "hog":
        blocks = []
        for _ in range(80):
            blocks.append(bytearray(50 * 1024 * 1024))
            time.sleep(0.01)
        time.sleep(60)
    if mode == "stubborn":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        time.sleep(60)
    if mode == "orphan":
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        with open(sys.argv[3], "w") as fh:
            fh.write(str(child.pid))
    sat, model = answer(path)
    if mode == "disagree":
        print("s UNSATISFIABLE")
        sys.exit(10)
    if not sat:
        print("s UNSATISFIABLE")
        sys.exit(20)
    if mode in ("flipped", "exit-only"):
        model = [-lit for lit in model]
    if mode != "exit-only":
        print("s SATISFIABLE")
    if mode != "no-model":
        print("v " + " ".join(map(str, model)) + " 0")
    sys.stdout.flush()
    os._exit(10)


if __name__ == "__main__":
    main()
