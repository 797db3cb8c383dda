"""Close names for a misspelt one: the "did you mean" of every unknown-name error (solvers,
suites, generators)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` naming the closest candidates (difflib's ratio of at least
    0.6, at most three), or '' when none is close."""
    close = difflib.get_close_matches(word, sorted(set(candidates)), n=3, cutoff=0.6)
    if not close:
        return ""
    return " (did you mean " + " or ".join(repr(c) for c in close) + "?)"
