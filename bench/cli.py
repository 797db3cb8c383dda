"""The ``cliffbench`` command: list, run, report, figures, show, solve, verify, gen, export,
data, and the commands the families add (the tiles' ``pdb``).

Every error a user can cause (a malformed file, an unknown solver, a bad parameter, a suite that
does not parse, a budget that is not a positive number) is one line on stderr naming the file,
line, option or parameter, and exit status 2, before anything runs. Only what was asked for goes
to stdout. Each command imports what it uses, when it runs: ``--help`` and ``--version`` import
no solver, pandas or numba.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench.api import ParamError
from bench.cliargs import EXIT_USAGE, Parser, integer, positive_number


def _param_pairs(items: list[str]) -> dict[str, str]:
    out = {}
    for item in items:
        if "=" not in item:
            raise ParamError(f"--param {item!r}: expected key=value")
        key, value = item.split("=", 1)
        out[key.strip()] = value.strip()
    return out


def _clean(value: Any) -> Any:
    """JSON has no NaN: non-finite floats become null, in nested values too."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value


def _print_json(data: Any) -> None:
    print(json.dumps(_clean(data), indent=2, sort_keys=False))


# -- list --------------------------------------------------------------------------------------

def solver_listing(plugins: list[str]) -> list[dict[str, Any]]:
    """Every solver's metadata (``SolverSpec.to_json``), sorted by key: installed ones from the
    solver index (no solver module imported), plugin files' from their import."""
    from bench.api import REGISTRY
    from bench.plan.registry import load_plugins, solver_index

    metas = {key: entry["meta"] for key, entry in solver_index().items()}
    load_plugins(plugins)
    metas.update({key: spec.to_json() for key, spec in REGISTRY.items()})
    return [metas[key] for key in sorted(metas)]


def cmd_list(args: argparse.Namespace) -> int:
    import instances
    from bench.plan.suite import shipped_suites

    families = instances.families()
    data = {
        "families": [{"name": n, "summary": m.summary, "suffixes": list(m.suffixes)}
                     for n, m in families.items()],
        "generators": [{"name": f"{n}/{g.name}", "family": n, "doc": g.doc,
                        "params": {k: d for k, (d, _) in g.params.items()}}
                       for n, m in families.items() for g in m.generators.values()],
        "solvers": solver_listing(args.plugin),
        "suites": [{"name": k, "description": v} for k, v in shipped_suites().items()],
    }
    if args.json:
        for solver in data["solvers"]:
            solver.pop("param_specs", None)
        _print_json(data)
        return 0
    print("families:")
    for f in data["families"]:
        print(f"  {f['name']:<12} files: {' '.join(f['suffixes'])}")
    print("generators:")
    for g in data["generators"]:
        params = ", ".join(f"{k}={v}" for k, v in g["params"].items())
        print(f"  {g['name']:<22} {params}")
    print("solvers:")
    width = max([16, *(len(s["name"]) for s in data["solvers"])])
    for s in sorted(data["solvers"], key=lambda s: (s["family"], s["name"])):
        params = ", ".join(f"{k}={v}" for k, v in s["params"].items()) or "-"
        print(f"  {s['name']:<{width}} {s['family']:<10} {s['paradigm']:<7} {s['backend']:<16} "
              f"{params}")
    print("suites:")
    for s in data["suites"]:
        print(f"  {s['name']:<26} {s['description']}")
    return 0


# -- run / report --------------------------------------------------------------------------------

def cmd_run(args: argparse.Namespace) -> int:
    from bench.execute.sweep import run_sweep

    solvers = [s.strip() for s in args.solvers.split(",")] if args.solvers else None
    directory = run_sweep(args.suite, solvers=solvers, timeout=args.timeout, mem=args.mem,
                          jobs=args.jobs, repeats=args.repeats, resume=args.resume,
                          overwrite=args.overwrite,
                          data_dir=args.data_dir, plugins=args.plugin,
                          params=_param_pairs(args.param), results=args.results,
                          name=args.name, argv=["cliffbench", *sys.argv[1:]],
                          executor=args.executor, scheduler=args.scheduler,
                          held=args.held, table_in_background=True)
    from bench.table.store import finish_writing, load
    from bench.views.report import terminal_summary

    table = load(directory)  # once, for the summary and the figures
    if args.held is not None:
        args.held.append(table)
    summary = terminal_summary(table, directory.name, claims=_claims_table(directory, table))
    finish_writing()  # the table's file, written meanwhile, in place before it is named
    print(summary)
    print(f"\nresults: {directory}/runs.parquet (journal.jsonl, manifest.json)")
    if args.no_figures:
        return 0
    from bench.views.figures import make_figures

    made = make_figures(table, directory / "figures", sweep=directory.name, formats=("png",))
    print(f"figures: {directory / 'figures'} ({sum(p.suffix == '.png' for p in made)} PNG, "
          "each with its CSV; `cliffbench figures` for PDF)")
    return 0


def _claims_table(directory: Path, table: Any, path: str | None = None) -> Any:
    """The claims table of a sweep (bench.views.claims), None when it has no claims file."""
    from bench.views.claims import sweep_claims

    return sweep_claims(directory, table, path, normalized=False)


def _report_text(sweep: str | Path, fmt: str, results: str = "results",
                 claims: str | None = None) -> str:
    from bench.table.store import load, sweep_dir
    from bench.views.report import render
    from bench.views.stats import build_report

    directory = sweep_dir(sweep, results)
    table = load(directory)
    report = build_report(table, sweep=directory.name)
    report.claims = _claims_table(directory, table, claims)
    return render(report, fmt)


def cmd_report(args: argparse.Namespace) -> int:
    if args.html:
        from bench.views.html import write_html

        print(write_html(args.sweep, args.html, args.results, claims=args.claims))
        return 0
    print(_report_text(args.sweep, args.format, args.results, args.claims))
    return 0


def cmd_figures(args: argparse.Namespace) -> int:
    from bench.table.store import load, sweep_dir
    from bench.views.figures import make_figures

    if args.run:  # run (or resume) the suite of that name first: one command, every figure
        from bench.execute.sweep import run_sweep

        run_sweep(args.sweep, timeout=args.timeout, jobs=args.jobs, resume=True,
                  data_dir=args.data_dir, plugins=args.plugin, results=args.results,
                  argv=["cliffbench", *sys.argv[1:]])
    directory = sweep_dir(args.sweep, args.results)
    out = Path(args.out) if args.out else directory / "figures"
    out.mkdir(parents=True, exist_ok=True)
    formats = tuple(f.strip() for f in args.formats.split(",") if f.strip())
    for path in make_figures(load(directory), out, sweep=directory.name, formats=formats):
        print(path)
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    import instances
    from bench.plan.specs import resolve_one
    from bench.views.pictures import draw

    ref = resolve_one(args.instance, args.data_dir)
    solution = None
    if args.solution:
        solution = instances.family(ref.family).read_solution(Path(args.solution), ref.instance)
    print(draw(ref.instance, solution, Path(args.out)))
    return 0


# -- solve / verify --------------------------------------------------------------------------------

SOLVE_KEYS = ("status", "verified", "verdict", "score", "max_score", "objective", "t_wall")


def cmd_solve(args: argparse.Namespace) -> int:
    import instances
    from bench.execute.sweep import solve_one
    from bench.plan.specs import resolve_one

    ref = resolve_one(args.instance, args.data_dir)
    row = solve_one(ref, args.solver, timeout=args.timeout, mem=args.mem, cores=args.cores,
                    seed=args.seed, params=_param_pairs(args.param), plugins=args.plugin)
    module = instances.family(ref.family)
    solution_json = json.loads(row["solution"]) if row.get("solution") else None
    counters = json.loads(row["counters"]) if row.get("counters") else {}
    out = {k: row.get(k) for k in SOLVE_KEYS}
    out.update(solver=args.solver, instance=ref.source, instance_id=ref.instance_id,
               claimed=row.get("claimed"), message=row.get("message"), counters=counters,
               t_cpu=row.get("t_cpu"), t_prepare=row.get("t_prepare"),
               t_encode=row.get("t_encode"), t_solve=row.get("t_solve"),
               peak_rss_mb=row.get("peak_rss_mb"),
               score_trace=json.loads(row["score_trace"]) if row.get("score_trace") else [],
               solution=solution_json)
    if args.json:
        _print_json(out)
    else:
        t_wall = f"{out['t_wall']:.3f} s" if out["t_wall"] is not None else "-"
        print(f"status   {out['status']}  (claimed {out['claimed'] or '-'})")
        print(f"verdict  {out['verdict'] or out['message'] or '-'}")
        print(f"time     {t_wall}")
        if out["max_score"] is not None and out["score"] is not None:
            print(f"score    {score_text(out['score'], out['max_score'])}")
        if counters:
            print("counters " + ", ".join(f"{k}={v:g}" for k, v in sorted(counters.items())))
        if solution_json is not None:
            solution = module.solution_from_json(solution_json, ref.instance)
            print(module.render(ref.instance, solution))
    return 0 if out["status"] not in ("wrong", "error", "crash") else 1


def score_text(score: float, max_score: float) -> str:
    """``476/480`` (scores are counts of matched joins; no ``.0``)."""
    return f"{score:g}/{max_score:g}"


def cmd_verify(args: argparse.Namespace) -> int:
    import instances
    from bench.plan.specs import resolve_one

    ref = resolve_one(args.instance, args.data_dir)
    module = instances.family(ref.family)
    solution = module.read_solution(Path(args.solution), ref.instance)
    verdict = module.check(ref.instance, solution)
    status = "solved" if verdict.solved else "legal" if verdict.legal else "wrong"
    out = {"status": status, "verified": verdict.legal, "verdict": verdict.reason or status,
           "score": verdict.score, "max_score": verdict.max_score, "objective": None,
           "t_wall": None, "counters": {}, "solution": solution.to_json(ref.instance)}
    if args.json:
        _print_json(out)
    else:
        print(f"status   {status}\nverdict  {out['verdict']}")
        if verdict.max_score is not None and verdict.score is not None:
            print(f"score    {score_text(verdict.score, verdict.max_score)}")
        print(module.render(ref.instance, solution))
    return verify_exit_status(verdict, args.partial)


def verify_exit_status(verdict: Any, partial: bool) -> int:
    """0 when the board solves the instance (or, with ``--partial``, is legal), else 1."""
    return 0 if verdict.solved or (partial and verdict.legal) else 1


# -- gen ----------------------------------------------------------------------------------------

def cmd_gen(args: argparse.Namespace) -> int:
    import instances
    from bench.plan.specs import resolve

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for ref in resolve(args.spec, args.data_dir):
        module = instances.family(ref.family)
        name = getattr(ref.instance, "name", "") or ref.instance_id
        path = out / f"{name}{module.suffixes[0]}"
        secret = None if args.no_solution else ref.generated.secret
        module.write_file(path, ref.instance, secret)
        print(path)
    return 0


# -- export ---------------------------------------------------------------------------------------

def cmd_export(args: argparse.Namespace) -> int:
    from bench.plan.registry import load_solvers
    from bench.plan.specs import resolve_one

    ref = resolve_one(args.instance, args.data_dir)
    registry = load_solvers(args.plugin)
    able = sorted(s.name for s in registry.values()
                  if s.family == ref.family and args.to in s.exports)
    if args.solver:
        wanted = args.solver.split("/", 1)[-1]
        able = [n for n in able if n == wanted]
    if not able:
        raise ParamError(f"--to {args.to}: no {ref.family} solver"
                         f"{' named ' + repr(args.solver) if args.solver else ''} exports it")
    if len(able) > 1:
        raise ParamError(f"--to {args.to}: several solvers export it ({', '.join(able)}): "
                         "choose one with --solver")
    spec = registry[f"{ref.family}/{able[0]}"]
    params = spec.resolve(_param_pairs(args.param))
    with stdout_to_stderr():  # solver libraries print banners (HiGHS) on the C level
        spec.exports[args.to](ref.instance, Path(args.file), **params)
    print(args.file)
    return 0


@contextlib.contextmanager
def stdout_to_stderr() -> Iterator[None]:
    """Send what is written to file descriptor 1 (by Python or by C code) to stderr meanwhile,
    so that stdout holds only the output that was asked for."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        os.dup2(2, 1)
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


# -- the parser -----------------------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="cliffbench", description="On the same ladder of planted instances, "
                    "where does each solving paradigm fall off its cliff? Run `cliffbench run "
                    "quick` for the main job, `cliffbench COMMAND --help` for each command.")
    parser.add_argument("--version", action="version", version=f"cliffbench {version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                parser_class=Parser)
    instance_help = "FILE, FILE:N or family/generator:key=value,..."

    def common(p: argparse.ArgumentParser, data: bool = True) -> None:
        p.add_argument("--plugin", action="append", default=[], metavar="FILE.py",
                       help="a Python file that registers solvers (runs its code); repeatable")
        p.add_argument("--tools", action="append", dest="plugin", metavar="FILE.toml",
                       help="a tools file: adapters that run solver programs as solvers "
                            "(docs/tools.md); repeatable")
        if data:
            p.add_argument("--data-dir", default=None, metavar="DIR",
                           help="reference data folder (default: $CLIFFBENCH_DATA, else "
                                "../shared/data when present, else where `cliffbench data "
                                "fetch` put it)")

    def params(p: argparse.ArgumentParser, what: str) -> None:
        p.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                       help=f"a solver parameter ({what}); repeatable")

    p = sub.add_parser("list", help="families, generators, solvers (parameters, defaults), "
                                    "suites")
    p.add_argument("--json", action="store_true", help="machine-readable (stable keys)")
    common(p, data=False)
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("run", help="run a sweep (a shipped suite name or a TOML file)")
    p.add_argument("suite", help="a shipped suite (`cliffbench list`) or a suite file")
    p.add_argument("--solvers", metavar="A,B", help="comma-separated solver names "
                                                    "(default: the suite's)")
    p.add_argument("--timeout", type=positive_number(float), metavar="S",
                   help="wall seconds per run (default: the suite's)")
    p.add_argument("--mem", type=positive_number(int), metavar="MB",
                   help="memory per run, MB (default: the suite's)")
    p.add_argument("--jobs", type=positive_number(int), metavar="N",
                   help="parallel runs (default: the suite's, else cores / cores per run)")
    p.add_argument("--repeats", type=positive_number(int), metavar="N",
                   help="runs of each (solver, instance) pair, each with its own seed "
                        "(default: the suite's)")
    p.add_argument("--resume", action="store_true", help="continue a sweep: skip finished runs")
    p.add_argument("--overwrite", action="store_true", help="delete an existing sweep first")
    params(p, "for every solver of the suite that has it")
    p.add_argument("--results", default="results", metavar="DIR", help="results folder")
    p.add_argument("--name", help="sweep name (default: the suite's)")
    p.add_argument("--executor", choices=("local", "dask-local", "dask"), default="local",
                   help="where runs execute: worker processes here (local), a Dask LocalCluster "
                        "of --jobs workers (dask-local), or a Dask cluster (dask, with "
                        "--scheduler)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="with --executor dask: the scheduler, e.g. tcp://head:8786")
    p.add_argument("--no-figures", action="store_true",
                   help="skip the figures (PNG and CSV under the sweep's figures/)")
    common(p)
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("report", help="report of a sweep (a name under results/ or a folder)")
    p.add_argument("sweep", help="a sweep name under --results, or a sweep folder")
    p.add_argument("--format", choices=("markdown", "csv", "json"), default="markdown",
                   help="output format")
    p.add_argument("--html", metavar="FILE", help="write one self-contained HTML page instead")
    p.add_argument("--claims", metavar="FILE",
                   help="check the published claims of this claims file (default: the "
                        "X.claims.toml beside the sweep's suite X.toml, when there is one)")
    p.add_argument("--results", default="results", metavar="DIR", help="results folder")
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("figures", help="a sweep's figures (PDF, PNG and the CSV of each)")
    p.add_argument("sweep", help="a sweep name under --results, or a sweep folder")
    p.add_argument("--out", metavar="DIR", help="folder (default: the sweep's figures/)")
    p.add_argument("--formats", default="pdf,png", help="comma-separated: pdf, png, svg")
    p.add_argument("--results", default="results", metavar="DIR", help="results folder")
    p.add_argument("--run", action="store_true",
                   help="run (or resume) the suite SWEEP first, e.g. `figures paper --run`")
    p.add_argument("--timeout", type=positive_number(float), metavar="S",
                   help="with --run: wall seconds per run (default: the suite's)")
    p.add_argument("--jobs", type=positive_number(int), metavar="N",
                   help="with --run: parallel runs (default: cores / cores per run)")
    common(p)
    p.set_defaults(func=cmd_figures)

    p = sub.add_parser("show", help="draw an instance, or a solution on it, as SVG or PNG")
    p.add_argument("instance", help=instance_help)
    p.add_argument("solution", nargs="?", help="the family's solution format, or solve --json")
    p.add_argument("--out", required=True, metavar="FILE", help="FILE.svg or FILE.png")
    common(p)
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("solve", help="one run through the runner and the checker")
    p.add_argument("instance", help=instance_help)
    p.add_argument("--solver", required=True, metavar="NAME",
                   help="a solver name (`cliffbench list`), or family/name")
    p.add_argument("--timeout", type=positive_number(float), default=60.0, metavar="S",
                   help="wall seconds")
    p.add_argument("--mem", type=positive_number(int), default=4000, metavar="MB",
                   help="memory, MB")
    p.add_argument("--cores", type=positive_number(int), default=1, metavar="N",
                   help="cores (threads) for the solver")
    p.add_argument("--seed", type=integer, default=1, metavar="N", help="the solver's seed")
    params(p, "of this solver")
    p.add_argument("--json", action="store_true", help="machine-readable (stable keys)")
    common(p)
    p.set_defaults(func=cmd_solve)

    p = sub.add_parser("verify", help="check a solution file against an instance (exit 0 only "
                                      "when it solves it)")
    p.add_argument("instance", help=instance_help)
    p.add_argument("solution", help="the family's solution format, or solve --json output")
    p.add_argument("--partial", action="store_true",
                   help="exit 0 for a legal partial or mismatched board too")
    p.add_argument("--json", action="store_true", help="machine-readable (stable keys)")
    common(p)
    p.set_defaults(func=cmd_verify)

    p = sub.add_parser("export", help="write a solver's model in a standard format")
    p.add_argument("instance", help=instance_help)
    p.add_argument("--to", required=True, metavar="FORMAT",
                   help="cnf, dlx, mps, lp, mzn, ... (`cliffbench list --json` lists each "
                        "solver's)")
    p.add_argument("file", help="the file to write")
    p.add_argument("--solver", metavar="NAME",
                   help="which solver's model, when several export the format")
    params(p, "of the exporting solver")
    common(p)
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("gen", help="write generated instances as files")
    p.add_argument("spec", help="family/generator:key=value,... (a..b and a|b expand)")
    p.add_argument("--out", required=True, metavar="DIR", help="folder to write into")
    p.add_argument("--no-solution", action="store_true", help="omit the planted solution")
    common(p)
    p.set_defaults(func=cmd_gen)

    from bench.data.fetch import add_data_parser

    add_data_parser(sub)

    from bench.plan.family_index import add_family_commands

    add_family_commands(sub)
    return parser


def version() -> str:
    """The installed distribution's version (the source tree's when run uninstalled)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    try:
        return dist_version("cliffbench")
    except PackageNotFoundError:
        return "(not installed)"


def usage_errors() -> tuple[type[BaseException], ...]:
    """The exception types that mean bad input, from the modules this run imported (a module
    that was never imported raised nothing): one line and exit 2, never a traceback."""
    where = {"bench.api": "ParamError", "bench.plan.registry": "RegistryError",
             "bench.execute.runner": "RunnerError", "bench.plan.suite": "SuiteError",
             "bench.tools.adapter": "ToolError", "bench.views.claims": "ClaimsError",
             "instances.common": "InstanceError"}
    found: list[type[BaseException]] = [FileNotFoundError]
    for module_name, name in where.items():
        module = sys.modules.get(module_name)
        if module is not None:
            found.append(getattr(module, name))
    return tuple(found)


def main(argv: list[str] | None = None) -> int:
    """The program: run the command ``argv`` (by default the command line's) names and return
    its exit status. Run as the program (``argv`` None), it does not return: the process ends
    with ``exit_unfreed`` (bench/execute/ending.py), what the command made (a big sweep's
    plan, its rows, its table: ``args.held``) left alive to the end rather than freed object
    by object."""
    args = build_parser().parse_args(argv)
    args.held = [] if argv is None else None
    code = _command(args)
    if argv is None:
        from bench.execute.ending import exit_unfreed

        exit_unfreed(code)
    return code


def _command(args: argparse.Namespace) -> int:
    """The command's exit status (its usage errors and an interrupt made a message and one)."""
    try:
        return args.func(args)
    except KeyboardInterrupt:
        print("cliffbench: interrupted (finished runs are in the journal; use --resume)",
              file=sys.stderr)
        return 130
    except BrokenPipeError:  # `cliffbench list | head`: the reader has all it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as exc:
        if not isinstance(exc, usage_errors()):
            raise
        print(f"cliffbench: error: {exc}", file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
