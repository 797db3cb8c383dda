"""Planted Eternity-like boards (issue 20 point 4): an edgematch solver (score mode, or the exact
``dfs-restarts``) on the cliff ladder's planted boards, one core per run.

Generates ``edgematch/planted`` with the given parameters (default: 13x13, 5 frame + 17 inner
colours, 5 hints, as in the edgematch-paradigms ladder) for each instance seed, runs the solver
(solver seed 1) for the given seconds, re-checks the board with the family's checker and prints
per board whether it is solved, the best score of the maximum, when it was reached and the CPU
seconds.

    python perf/eternity_planted.py [--solver lns|dfs-breaks|dfs-restarts] [--seconds 300]
        [--seeds 1 2 3 4 5] [--n 13] [--border 5] [--inner 17] [--hints 5] [--param NAME=VALUE ...]
"""

from __future__ import annotations

import argparse
import time

from eternity_score import parse_params  # the sibling script (perf/ is on the path)

from bench.api import REGISTRY, Budget
from instances.edgematch import GENERATORS, check
from searches import edgematch_breaks, edgematch_dfs, edgematch_lns  # noqa: F401 (solvers)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--solver", default="lns")
    parser.add_argument("--seconds", type=float, default=300.0)
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    parser.add_argument("--n", type=int, default=13)
    parser.add_argument("--border", type=int, default=5)
    parser.add_argument("--inner", type=int, default=17)
    parser.add_argument("--hints", default="5")
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args()

    spec = REGISTRY[f"edgematch/{args.solver}"]
    params = spec.resolve(parse_params(args.param))
    spec.prepare()
    hints = args.hints if args.hints == "max" else int(args.hints)
    gen = {"n": args.n, "border": args.border, "inner": args.inner, "hints": hints}
    print(f"{spec.name}: planted {gen}, {args.seconds:g} s per board, params {params}")
    solved = 0
    for seed in args.seeds:
        instance = GENERATORS["planted"](gen, seed).instance
        budget = Budget(wall_s=args.seconds, mem_mb=4000, cores=1,
                        deadline=time.monotonic() + args.seconds)
        cpu = time.process_time()
        out = spec.solve(instance, budget, seed=1, **params)
        cpu = time.process_time() - cpu
        verdict = check(instance, out.solution)
        # a score-mode solver's board is legal and worth what it claims; an exact search's
        # (dfs-restarts) is a solution or its deepest partial board, which claims no score
        ok = verdict.legal and verdict.score == out.objective if out.objective is not None \
            else verdict.solved == (out.status == "solved")
        when = next((t for t, s in out.score_trace if s >= verdict.score), None)
        solved += verdict.solved
        print(f"instance seed {seed}: {'SOLVED' if verdict.solved else 'unsolved'}  best "
              f"{verdict.score}/{verdict.max_score}"
              f"{'' if when is None else f' at {when:.1f} s'}  cpu {cpu:.0f} s  "
              f"{'checked' if ok else 'REJECTED: ' + (verdict.reason or 'score')}", flush=True)
    print(f"solved {solved} of {len(args.seeds)}")


if __name__ == "__main__":
    main()
