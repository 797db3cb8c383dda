"""The results table: one row per run, long format. This module is its single definition.

Columns come in groups: identity, instance, solver, outcome, cost. Parameter columns are open
ended: ``p_<name>`` for an instance's parameters, ``s_<name>`` for a solver's. Bump
``SCHEMA_VERSION`` on any change of name, meaning or type. ``docs/results-schema.md`` is
generated from this module (``python -m bench.table.schema > docs/results-schema.md``; a test
keeps the two equal).
"""

from __future__ import annotations

SCHEMA_VERSION = 4

#: Statuses, one vocabulary. The first four are what a solver may claim; the rest the harness sets.
STATUSES = ("solved", "optimal", "infeasible", "unknown", "timeout", "memout", "crash", "error",
            "wrong", "skipped")
#: Statuses that count as an answer (a success) in reports.
SUCCESS = ("solved", "optimal", "infeasible")

COLUMNS: dict[str, tuple[str, str]] = {
    # identity
    "sweep": ("string", "the sweep's name (its results folder)"),
    "key": ("string", "hash of (solver, params, instance, repeat, seed, budget): a run's identity"),
    "started_at": ("string", "UTC time the solve started (the budget's clock; the time the run "
                             "was handed out if it never started), ISO 8601"),
    # instance
    "family": ("string", "the family's name (a registered family: `cliffbench list`)"),
    "instance_id": ("string", "content hash of the instance's canonical serialisation"),
    "instance_name": ("string", "the instance's name (cosmetic)"),
    "source": ("string", "the generator spec or the file (FILE:N) the instance came from"),
    "ladder": ("string", "the ladder it belongs to ('' outside ladders)"),
    "rung": ("string", "the rung's label (e.g. '12' for n=12)"),
    "rung_index": ("Int64", "the rung's position on its ladder, from 0"),
    "feasible": ("boolean", "True when known to have a solution (planted), NA when unknown"),
    "known_optimum": ("Float64", "known optimal value (e.g. a path length), NA when unknown"),
    "max_score": ("Float64", "the best possible score (e.g. edge matching: its interior joins)"),
    # solver
    "solver": ("string", "registered solver name"),
    "paradigm": ("string", "sat, xcc, cpsat, cp, ilp, clique or native"),
    "backend": ("string", "the solving engine and its version"),
    "repeat": ("Int64", "repeat number, from 0"),
    "seed": ("Int64", "the seed passed to the solver"),
    # outcome
    "status": ("string", "one of STATUSES, after checking"),
    "claimed": ("string", "what the solver claimed (solved, optimal, infeasible, unknown) or NA"),
    "verified": ("boolean", "True when the checker accepted the returned solution as legal"),
    "verdict": ("string", "the checker's reason, or why the status was set"),
    "score": ("Float64", "the checker's score of the returned solution"),
    "objective": ("Float64", "the solver's objective value, if any"),
    "message": ("string", "error message, crash cause, or skip reason"),
    "solution": ("string", "the returned solution as JSON (family format)"),
    # cost
    "t_wall": ("Float64", "wall seconds of the solve call (in the worker)"),
    "t_cpu": ("Float64", "CPU seconds of the run's processes: with a control group (`limits_by` "
                         "cgroup-v1/v2) every member's, from the group's counter; else the "
                         "worker's and its waited-for children's"),
    "t_prepare": ("Float64", "seconds of prepare() paid by this run, its worker's first of "
                             "that solver, whether prepared at the run or while the sweep was "
                             "planned (0 when already paid)"),
    "t_encode": ("Float64", "seconds building a model, when the solver reports it"),
    "t_solve": ("Float64", "seconds solving the model, when the solver reports it"),
    "peak_rss_mb": ("Float64", "peak resident memory of the worker tree during the run, MB"),
    "peak_cgroup_mb": ("Float64", "peak memory the kernel charged to the run's control group "
                                  "(resident and page cache), MB; NA without one"),
    "budget_s": ("Float64", "the wall-clock budget, seconds"),
    "budget_mb": ("Int64", "the memory budget, MB"),
    "cores": ("Int64", "cores given to the run"),
    "work_nodes": ("Float64", "search nodes (or guesses, branches) counted by the solver"),
    "work_conflicts": ("Float64", "conflicts counted by the solver"),
    "work_restarts": ("Float64", "restarts counted by the solver"),
    "solutions": ("string", "solutions the solver counted (a uniqueness proof): '0', '1' or "
                            "'2+'; NA when it did not count"),
    "model_vars": ("Int64", "variables of the model"),
    "model_constraints": ("Int64", "constraints (clauses, rows, options) of the model"),
    "counters": ("string", "every counter the solver reported, as JSON"),
    "score_trace": ("string", "(seconds, score) pairs of an anytime solver, as JSON"),
    "limits": ("string", "how the limits were enforced for this run: executor, the watchdog's "
                         "kill point (budget + grace), the memory watch and the address-space "
                         "backstop, the cores it was pinned to, the host"),
    "limits_by": ("string", "what enforced the limits: cgroup-v1 or cgroup-v2 (the worker's "
                            "control group) or process-tree (session, subreapers and the "
                            "resident-size watch); NA for a run not run"),
    "host": ("string", "machine that ran it (a Dask worker's host with the Dask executors)"),
    # block runs (a ladder's `block = N`: many instances solved by one worker call)
    "block": ("string", "the block the run belongs to (ladder/rung/config/repeat/number), NA "
                        "for a run of its own; its `t_wall`, `t_cpu` and counters are still "
                        "this instance's: the solver's own time for it (to the nanosecond)"),
    "block_size": ("Int64", "the runs its block holds, NA outside blocks"),
    "block_index": ("Int64", "its place in its block, from 0, NA outside blocks"),
    "chunk_size": ("Int64", "the instances of the chunk (one solver call) that solved it, NA "
                            "outside blocks and for a run of a chunk killed in flight"),
    "chunk_wall": ("Float64", "wall seconds of that chunk's solver call, NA outside blocks"),
    "block_wall": ("Float64", "wall seconds of the block's worker call up to the end of that "
                              "chunk (the block's wall time is its rows' largest value; a block "
                              "cut by a kill goes on in a new call, timed afresh), NA outside "
                              "blocks"),
}

PARAM_PREFIX_INSTANCE = "p_"
PARAM_PREFIX_SOLVER = "s_"

#: What each status means, in the order of STATUSES (the schema document's list).
STATUS_MEANINGS = {
    "solved": "an answer the family's checker accepted",
    "optimal": "solved, and proven optimal (a shortest tile path, a game's exact value)",
    "infeasible": "the solver proved there is no solution (on an instance known to be feasible "
                  "the claim is `wrong`)",
    "unknown": "stopped inside its budget without an answer (a partial answer is still checked "
               "and scored)",
    "timeout": "killed by the watchdog at its wall budget plus the grace",
    "memout": "its process tree went over the memory budget",
    "crash": "the worker died (the signal and the last output are in `message`)",
    "error": "the solver raised an exception (its message is in `message`)",
    "wrong": "the checker rejected the answer, or the claim contradicts what is known "
             "(`verdict` says why)",
    "skipped": "not run: the ladder stopped climbing for this config (the reason is in "
               "`message`)",
}


def schema_markdown() -> str:
    """The results schema as a Markdown document (``docs/results-schema.md``)."""
    def cell(text: str) -> str:
        return text.replace("|", "\\|")

    lines = [
        "# The results table",
        "",
        "<!-- Generated by `python -m bench.table.schema > docs/results-schema.md` from",
        "     bench/table/schema.py, the table's single definition: edit that module, not this",
        "     file (tests/test_docs.py keeps the two equal). -->",
        "",
        "`results/<sweep>/` holds `journal.jsonl` (one JSON line per finished run, or per chunk",
        "of a block's runs in columns, fsynced: the truth), `runs.parquet` (the journal",
        "compacted into this table; `bench.load(sweep)` compacts again when the journal is",
        "newer) and `manifest.json` (how the sweep was made: command line, suite file and its",
        "sha256, executor, jobs, budgets, plugins, git commit, Python and package versions, CPU",
        "model, cores, memory, start and end times, schema version).",
        "",
        f"Schema version {SCHEMA_VERSION}, one row per run (a change of a column's name, "
        "meaning or type bumps it).",
        "",
        "## Statuses",
        "",
        "The first four are what a solver may claim; the harness sets the others.",
        ", ".join(f"`{s}`" for s in SUCCESS) + " count as answered (a success) in reports.",
        "",
        *(f"- `{status}`: {STATUS_MEANINGS[status]}" for status in STATUSES),
        "",
        "## Columns",
        "",
        "| column | type | meaning |",
        "|---|---|---|",
        *(f"| `{name}` | {kind} | {cell(meaning)} |" for name, (kind, meaning) in COLUMNS.items()),
        "",
        "## Parameter columns",
        "",
        f"Then one `{PARAM_PREFIX_INSTANCE}<name>` column per instance parameter (`p_rows`, "
        "`p_seed`, ...)",
        f"and one `{PARAM_PREFIX_SOLVER}<name>` column per solver parameter (`s_restart_unit`, "
        "...): which",
        "ones a sweep has depends on its instances and solvers.",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    print(schema_markdown(), end="")
