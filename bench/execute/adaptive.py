"""Adaptive ladders: per solver config, runs placed where they tell most about its cliff.

A generator ladder with ``adaptive = { runs = N, width = W }`` (bench/plan/suite.py) lists
every (value, seed, repeat) candidate as a task, as any ladder does, so keys and ``--resume``
work unchanged; but for each solver config (a stream: (ladder, config label)) only the
candidates chosen here become runs. The rest are never run and are not rows (no ``skipped``
row either): the manifest's ``runs_planned`` is then an upper bound (``runs_planned_up_to``).

Contract:

- Decisions are made one at a time per stream, in batches: a batch is chosen, every run of it
  finishes, then the next batch is chosen from the stream's finished rows only (solved or not
  per rung, ``status`` in ``SUCCESS``). Nothing else enters a decision (no clock, no global
  random state, no other stream's rows, no order in which the batch's runs ended), so the
  same outcomes always give the same choices, and a resumed sweep, replaying the journal's
  rows through the same decisions, chooses the same runs (a batch cut by a kill is finished
  first, then the decisions go on). Two runs of one stream never race for a decision; other
  streams run meanwhile.
- Within a rung, candidates are taken in the plan's order (seed by seed, repeat by repeat):
  the k runs of a rung are always its first k candidates.
- A stream spends at most N runs, and stops early once the fitted cliff's 95% interval
  (bench/stats/confidence.py's :func:`~bench.stats.confidence.fit_cliff` on the rungs it ran,
  at their ``vary`` values, its bootstrap seeded by the stream's name) lies inside the ladder
  and is at most W wide, or once no candidate is left.

The algorithm (:func:`decide`), from the per-rung counts of the rungs run so far:

1. Start: the two ends and the middle rung, :data:`FIRST` candidates each.
2. Fit the cliff (decreasing logistic, 50% crossing) and bracket it by the rungs run so far:
   ``lo`` the highest run rung at or below it, ``hi`` the lowest above it (a crossing below
   the ladder has no ``lo``, one beyond it no ``hi``).
3. Narrow enough: stop, once ``lo`` and ``hi`` have :data:`BRACKET` runs each (or no
   candidate left); until then :data:`STEP` more at whichever is short. Not narrow enough, and
   rungs not yet run lie between ``lo`` and ``hi`` (or past the end missing its side): bisect,
   the middle one of them, :data:`FIRST` candidates.
4. Otherwise (``lo`` and ``hi`` neighbours, or the ladder's end) add :data:`STEP` more
   candidates at each of ``lo`` and ``hi``; when those are used up, at the nearest rungs to
   the crossing that still have candidates.
5. The batch is cut to the runs left of the budget (rungs in the order chosen).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from bench.plan.suite import Adaptive, Task
from bench.stats import confidence
from bench.table.schema import SUCCESS

#: Candidates per rung when a rung is first run (the start, a bisection).
FIRST = 2
#: Candidates added per rung beside the crossing once the bracket is one rung wide.
STEP = 2
#: Runs each rung bracketing the crossing needs (or all its candidates) before a narrow
#: interval may stop a stream: where every rung is solved on all or none of its runs the
#: interval is the gap between them, however few the runs.
BRACKET = 4


@dataclass(frozen=True)
class Decision:
    """A batch, as (rung, runs) pairs in order; empty with ``stopped`` saying why."""

    batch: tuple[tuple[int, int], ...]
    stopped: str = ""
    fit: confidence.FittedCliff | None = None


def decide(positions: list[float], solved: list[int], runs: list[int], left: list[int],
           spent: int, spec: Adaptive, seed: int) -> Decision:
    """The next batch of a stream (module docstring, steps 1-5).

    ``positions``: the ``vary`` value of each rung, increasing (a ladder whose values fall
    passes them negated); ``solved``, ``runs``: the
    stream's finished runs per rung; ``left``: candidates not yet taken per rung; ``spent``:
    runs taken so far; ``seed``: the fit's bootstrap seed. A pure function of its arguments.
    """
    count = len(positions)
    observed = [i for i in range(count) if runs[i] > 0]
    fit = None
    if len(observed) >= 2:  # the fit first: a stream that stops still reports its cliff
        x = np.array([positions[i] for i in observed], dtype=float)
        fit = confidence.fit_cliff(x, np.array([solved[i] for i in observed]),
                                   np.array([runs[i] for i in observed]), "rung", seed)
    budget = spec.runs - spent
    if budget <= 0:
        return Decision((), f"budget of {spec.runs} runs spent", fit)
    if not any(left):
        return Decision((), "every candidate run", fit)
    if fit is None:
        fresh = [i for i in (0, count // 2, count - 1) if left[i] and not runs[i]]
        fresh = list(dict.fromkeys(fresh)) or [i for i in range(count) if left[i]
                                                and not runs[i]][:3]
        wants = [(i, FIRST) for i in fresh] or [(i, STEP) for i in observed if left[i]]
        if not wants:
            wants = [(next(i for i in range(count) if left[i]), STEP)]
    else:
        crossing = (fit.cliff if fit.where == confidence.WITHIN
                    else -np.inf if fit.where == confidence.BELOW else np.inf)
        below = [i for i in observed if positions[i] <= crossing]
        above = [i for i in observed if positions[i] > crossing]
        lo = below[-1] if below else -1
        hi = above[0] if above else count
        thin = [i for i in (lo, hi) if 0 <= i < count and runs[i] < BRACKET and left[i]]
        if fit.low_where == fit.high_where == confidence.WITHIN \
                and fit.high - fit.low <= spec.width + 1e-12:
            if not thin:
                return Decision((), f"interval {fit.high - fit.low:g} wide, at most "
                                    f"{spec.width:g}", fit)
            wants = [(i, STEP) for i in thin]
        elif between := [i for i in range(lo + 1, hi) if left[i] and not runs[i]]:
            wants = [(between[(len(between) - 1) // 2], FIRST)]
        else:
            wants = [(i, STEP) for i in (lo, hi) if 0 <= i < count and left[i]]
            if not wants:
                centre = crossing if np.isfinite(crossing) else (
                    positions[0] if crossing < 0 else positions[-1])
                nearest = sorted((i for i in range(count) if left[i]),
                                 key=lambda i: (abs(positions[i] - centre), i))
                wants = [(i, STEP) for i in nearest[:2]]
    batch = []
    for rung, want in wants:
        take = min(want, left[rung], budget)
        if take > 0:
            batch.append((rung, take))
            budget -= take
    return Decision(tuple(batch), fit=fit)


class AdaptiveStream:
    """One (adaptive ladder, config) stream's state: the candidates per rung, what was taken
    and what finished. :meth:`next_batch` asks :func:`decide` once the last batch finished."""

    def __init__(self, name: tuple[str, str], rungs: list[list[Task]], spec: Adaptive):
        self.name, self.rungs, self.spec = name, rungs, spec
        values = [self._position(r, i) for i, r in enumerate(rungs)]
        #: the fit's axis runs the way the ladder climbs: values that fall (clues) are negated
        self.sign = -1.0 if len(values) > 1 and values[-1] < values[0] else 1.0
        self.positions = [self.sign * v for v in values]
        self.taken = [0] * len(rungs)
        self.solved = [0] * len(rungs)
        self.runs = [0] * len(rungs)
        self.seed = confidence.seed_of("adaptive", *name)
        self.stopped = ""
        self.decisions = 0
        self.fit: confidence.FittedCliff | None = None

    @staticmethod
    def _position(rung: list[Task], index: int) -> float:
        try:
            return float(rung[0].ref.rung) if rung else float(index)
        except (TypeError, ValueError):
            return float(index)

    @property
    def spent(self) -> int:
        return sum(self.taken)

    def planned(self) -> int:
        """The most runs this stream can make: its budget, or its candidates if fewer."""
        return min(self.spec.runs, sum(len(r) for r in self.rungs))

    def next_batch(self) -> list[Task]:
        """The next batch's tasks (call only once every task taken so far has finished);
        empty once the stream has stopped."""
        if self.stopped:
            return []
        left = [len(r) - t for r, t in zip(self.rungs, self.taken, strict=True)]
        decision = decide(self.positions, self.solved, self.runs, left, self.spent, self.spec,
                          self.seed)
        self.decisions += 1
        self.fit = decision.fit
        if not decision.batch:
            self.stopped = decision.stopped
            return []
        out = []
        for rung, take in decision.batch:
            out.extend(self.rungs[rung][self.taken[rung]:self.taken[rung] + take])
            self.taken[rung] += take
        return out

    def record(self, task: Task, status: str | None) -> None:
        """A finished run of this stream and its status (fresh, or a resumed sweep's)."""
        index = task.ref.rung_index or 0
        self.runs[index] += 1
        self.solved[index] += status in SUCCESS

    def summary(self) -> dict[str, Any]:
        """For the manifest: runs made, why the stream stopped, the last fitted interval."""
        cliff = low = high = None
        if self.fit is not None:
            numbers = [None if c is None else self.sign * c for c in
                       (self.fit.columns()[k] for k in confidence.FIT_NUMBERS)]
            cliff, low, high = numbers[0], *(numbers[1:] if self.sign > 0 else numbers[:0:-1])
        return {"ladder": self.name[0], "config": self.name[1], "runs": self.spent,
                "budget": self.spec.runs, "width": self.spec.width,
                "stopped": self.stopped or "not finished",
                "cliff": cliff, "low": low, "high": high,
                "runs_per_rung": {str(t[0].ref.rung) if t else str(i): n
                                  for i, (t, n) in enumerate(zip(self.rungs, self.runs,
                                                                 strict=True)) if n}}
