"""From what a worker reports to the row's outcome columns: the checker runs here, in the parent.

The status vocabulary is bench/table/schema.py's. A solver's claim is never taken on trust: a
claimed solution the family's checker rejects, an ``infeasible`` claim on an instance known to be
feasible, or an optimum that contradicts a known one is ``wrong``.
"""

from __future__ import annotations

import json
from typing import Any

import instances
from bench.execute.counters import counters_text, solutions_bucket, work_columns
from bench.execute.described import ANSWER_JSON
from bench.plan.suite import Task


def check_solution(task: Task, solution_json: Any) -> tuple[Any, Any]:
    """(Solution, Verdict) of a returned answer; a malformed answer is an illegal one."""
    module = instances.family(task.ref.family)
    instance = task.ref.instance
    try:
        solution = module.solution_from_json(solution_json, instance)
        return solution, module.check(instance, solution)
    except Exception as exc:  # the answer is the solver's: any defect in it is its failure
        return None, malformed(instance, exc)


def malformed(instance: Any, exc: Exception) -> Any:
    """The verdict on an answer that is no solution of the family at all."""
    from instances.common import Verdict

    return Verdict(False, False, None, getattr(instance, "max_score", None),
                   f"malformed solution: {type(exc).__name__}: {exc}")


def check_texts(tasks: list[Task], texts: list[str | None]) -> list[Any]:
    """:func:`check_answers` of answers given as their JSON text (a block's chunk): first the
    family's ``check_texts`` where it has one (the answers it judges at once), then the rest
    read and checked; a text that is no JSON is a malformed answer."""
    verdicts: list[Any] = [None] * len(tasks)
    if not tasks:
        return verdicts
    quick = getattr(instances.family(tasks[0].ref.family), "check_texts", None)
    if quick is not None:
        verdicts = list(quick([task.ref.instance for task in tasks], texts))
    rest = [i for i, text in enumerate(texts) if text is not None and verdicts[i] is None]
    answers: list[Any] = []
    for i in rest:
        try:
            answers.append(json.loads(texts[i]))
        except (TypeError, ValueError) as exc:
            answers.append(None)
            verdicts[i] = malformed(tasks[i].ref.instance, exc)
    for i, verdict in zip(rest, check_answers([tasks[i] for i in rest], answers), strict=True):
        if verdicts[i] is None:
            verdicts[i] = verdict
    return verdicts


def check_answers(tasks: list[Task], answers: list[Any]) -> list[Any]:
    """The verdict on each answer (the family's JSON form; None where there is none), every
    answer checked: in one call of the family's ``check_many`` where it has one (a block's
    chunk), else one ``check`` each. A malformed answer is an illegal one, as in
    :func:`check_solution`."""
    verdicts: list[Any] = [None] * len(tasks)
    if not tasks:
        return verdicts
    module = instances.family(tasks[0].ref.family)
    batch = getattr(module, "check_many", None)
    pending: list[tuple[int, Any, Any]] = []
    for i, (task, answer) in enumerate(zip(tasks, answers, strict=True)):
        if answer is None:
            continue
        instance = task.ref.instance
        if batch is None:
            verdicts[i] = check_solution(task, answer)[1]
            continue
        try:
            pending.append((i, instance, module.solution_from_json(answer, instance)))
        except Exception as exc:
            verdicts[i] = malformed(instance, exc)
    if pending:
        got = batch([p[1] for p in pending], [p[2] for p in pending])
        for (i, _, _), verdict in zip(pending, got, strict=True):
            verdicts[i] = verdict
    return verdicts


def outcome_columns(task: Task, result: dict[str, Any], verdict: Any = None) -> dict[str, Any]:
    """The outcome and cost columns of a finished run (any ``kind`` a worker or watchdog gives);
    ``verdict``: the checker's verdict on its answer when already made
    (:func:`check_answers`)."""
    kind = result["kind"]
    counters = result.get("counters") or {}
    row: dict[str, Any] = {
        "claimed": result.get("claimed"),
        "verified": None,
        "verdict": None,
        "score": None,
        "objective": result.get("objective"),
        "message": result.get("message"),
        "solution": None,
        "t_wall": result.get("t_wall"),
        "t_cpu": result.get("t_cpu"),
        "t_prepare": result.get("t_prepare"),
        "t_encode": result.get("t_encode"),
        "t_solve": result.get("t_solve"),
        "peak_rss_mb": result.get("peak_rss_mb"),
        "peak_cgroup_mb": result.get("peak_cgroup_mb"),
        **work_columns(counters),
        "model_vars": result.get("model_vars"),
        "model_constraints": result.get("model_constraints"),
        "counters": counters_text(counters),
        "score_trace": json.dumps(result["score_trace"]) if result.get("score_trace") else None,
    }
    if kind != "outcome":
        row["status"] = kind
        return row
    row.update(judge(task, result, verdict))
    return row


def judge(task: Task, result: dict[str, Any], checked: Any = None) -> dict[str, Any]:
    """Status, verified, verdict, score and solution text of an outcome a solver returned
    (``checked``: the checker's verdict on its answer when already made)."""
    answer, verdict = result.get("solution"), None
    if answer is not None:
        verdict = checked if checked is not None else check_solution(task, answer)[1]
    counters = result.get("counters") or {}
    out = judge_claim(task, result["claimed"], verdict, result.get("objective"),
                      solutions_bucket(counters.get("solutions")))
    if answer is not None:
        out["solution"] = ANSWER_JSON.encode(answer)
    return out


def judge_claim(task: Task, claimed: str, verdict: Any, objective: float | None,
                solutions: str | None) -> dict[str, Any]:
    """Status, verified, verdict and score of a claim, given the checker's verdict on its
    answer (None: it returned none) and its ``solutions`` bucket (bench/execute/counters.py).
    Of the run it reads only its family and what its instance is known to be (``feasible``,
    ``known_solutions``, ``known_optimum``): a block's rows are judged once per distinct
    claim on that (bench/execute/blocks.py)."""
    out: dict[str, Any] = {"status": claimed}
    if verdict is not None:
        out["verified"] = bool(verdict.legal)
        out["verdict"] = verdict.reason or ("solved" if verdict.solved else "legal")
        out["score"] = verdict.score
    generated = task.ref.generated
    if claimed in ("solved", "optimal"):
        if verdict is None:
            return {**out, "status": "wrong", "verdict": f"claimed {claimed} without a solution"}
        minimizing = instances.family(task.ref.family).objective == "min"
        problem = (claim_problem(claimed, verdict, generated, objective, minimizing)
                   or count_problem(solutions, claimed, generated))
        if problem:
            return {**out, "status": "wrong", "verdict": problem}
    elif claimed == "infeasible":
        if generated.feasible:
            return {**out, "status": "wrong",
                    "verdict": "claimed infeasible on an instance known to have a solution"}
        if solutions not in (None, "0"):
            return {**out, "status": "wrong", "verdict": "claimed infeasible while counting "
                                                        "solutions"}
    elif claimed == "unknown" and verdict is not None:
        if not verdict.legal:
            return {**out, "status": "wrong",
                    "verdict": f"checker rejected the returned partial answer: {verdict.reason}"}
        if verdict.solved:
            out["status"] = "solved"
            out["verdict"] = "solved (the solver claimed unknown)"
    return out


def count_problem(bucket: str | None, claimed: str, generated: Any) -> str:
    """Why a solution count (its ``solutions`` bucket) that comes with a solution is wrong, or
    "": a found solution is at least one, and a puzzle known to be unique has exactly one."""
    if bucket == "0":
        return f"claimed {claimed} with a solution but counted 0 solutions"
    if bucket == "2+" and generated.known_solutions == 1:
        return "counted 2+ solutions on an instance known to have exactly one"
    return ""


def claim_problem(claimed: str, verdict: Any, generated: Any, objective: float | None,
                  minimizing: bool = False) -> str:
    """Why a ``solved``/``optimal`` claim is wrong, or "" when the checker bears it out.

    ``solved`` needs the checker's ``solved``. ``optimal`` needs it too, except in score mode on
    an instance not known to be feasible: there a legal board whose score the solver proved best
    (an unsolvable board's best partial match) is an honest optimum. Either way an objective
    must agree with the checker's score and with a known optimum. Where the family minimizes
    (``objective="min"``: a sliding-tile solution's length), a checked solution better than a
    known optimum means the claim or the known value is wrong: it is flagged.
    """
    score_mode_optimum = (claimed == "optimal" and verdict.legal and verdict.score is not None
                          and not generated.feasible)
    if not verdict.solved and not score_mode_optimum:
        return f"checker rejected the claimed solution: {verdict.reason or 'not solved'}"
    if objective is not None and verdict.score is not None \
            and abs(objective - verdict.score) > 1e-9:
        return f"claimed objective {objective:g} but the checker scores {verdict.score}"
    known = generated.known_optimum
    value = objective if objective is not None else verdict.score
    if claimed == "optimal" and known is not None and value is not None \
            and abs(value - known) > 1e-9:
        return f"claimed optimum {value:g} but the known optimum is {known:g}"
    if minimizing and known is not None and verdict.score is not None \
            and verdict.score < known - 1e-9:
        return f"a solution of {verdict.score} beats the known optimum {known:g}"
    return ""
