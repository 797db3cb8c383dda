"""The results table: one row per run, long format. This module is its single definition.

Column groups (DESIGN.md): identity, instance, solver, outcome, cost. Parameter columns are open
ended: ``p_<name>`` for an instance's parameters, ``s_<name>`` for a solver's. Bump
``SCHEMA_VERSION`` on any change of name, meaning or type; the README documents the table.
"""

from __future__ import annotations

SCHEMA_VERSION = 2

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
    "family": ("string", "edgematch, tiles, sudoku or games"),
    "instance_id": ("string", "content hash of the instance's canonical serialisation"),
    "instance_name": ("string", "the instance's name (cosmetic)"),
    "source": ("string", "the generator spec or the file (FILE:N) the instance came from"),
    "ladder": ("string", "the ladder it belongs to ('' outside ladders)"),
    "rung": ("string", "the rung's label (e.g. '12' for n=12)"),
    "rung_index": ("Int64", "the rung's position on its ladder, from 0"),
    "feasible": ("boolean", "True when known to have a solution (planted), NA when unknown"),
    "known_optimum": ("Float64", "known optimal value (e.g. a path length), NA when unknown"),
    "max_score": ("Float64", "the best possible score (edge matching: interior joins)"),
    # solver
    "solver": ("string", "registered solver name"),
    "paradigm": ("string", "sat, xcc, cpsat, ilp, clique or native"),
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
    "t_cpu": ("Float64", "CPU seconds of the worker and its children during the run"),
    "t_prepare": ("Float64", "seconds of prepare() paid by this run (0 when already paid)"),
    "t_encode": ("Float64", "seconds building a model, when the solver reports it"),
    "t_solve": ("Float64", "seconds solving the model, when the solver reports it"),
    "peak_rss_mb": ("Float64", "peak resident memory of the worker tree during the run, MB"),
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
    "host": ("string", "machine that ran it (a Dask worker's host with the Dask executors)"),
}

PARAM_PREFIX_INSTANCE = "p_"
PARAM_PREFIX_SOLVER = "s_"
