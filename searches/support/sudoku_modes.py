"""The contract of the ``native`` sudoku solver's two kernels (``sudoku_band9``, 9x9 only, and
``sudoku_general``, box 2..5): modes, the control vector, what a search returns and counts.

A kernel's ``mode`` is a deduction level (its low two bits), each level including the one
before, plus the flag ``FIRST_MRV`` for plain branching (below):

- ``SINGLES`` (0): naked singles (a cell with one candidate) and hidden singles (a digit with
  one place in a row, column or box);
- ``LOCKED`` (1): locked candidates, both ways and both orientations: *pointing* (a digit of
  a box confined to one segment, i.e. the box's cells on one row or column, leaves the rest of
  that line) and *claiming* (a digit of a line confined to one segment leaves the rest of the
  box);
- ``SUBSETS`` (2): tdoku's *triads*: a segment has exactly ``box`` cells, so it holds exactly
  ``box`` digits. If only ``box`` digits can still go in it, they all must (they leave the rest
  of its line and of its box); if ``box`` digits are already forced into it (by pointing or
  claiming reasoning: confined there within its line or within its box), its cells hold
  nothing else. Fewer possible or more forced digits is a contradiction.

Two kernels, because the fastest layout for 9x9 does not scale. Both compute the same fixpoint
(the closure of the same monotone rules does not depend on the order they fire in) and choose
the same branch, so they search the same tree: the same guesses and nodes on every puzzle (a
test checks it). The branch: the *guess* ``cell = v`` on a cell with the fewest candidates
(MRV), ties broken towards the cell whose candidates touch the most near-solved peers (each
unsolved peer sharing a candidate weighs ``64 >> its candidate count``: a bivalue peer 16, a
trivalue one 8, ...; with ``FIRST_MRV``, the first such cell), the lowest value first; its
alternative is ``cell != v``, propagated in the parent state. ``guesses`` counts those binary
decisions, as tdoku's ``num_guesses`` does (a cell tried out to its k-th value costs k - 1);
``nodes`` counts the states propagated: the root, each guess, each negation. The search stops
at ``limit`` solutions (2 proves uniqueness).

No allocation inside the search: the state is a flat int64 vector, copied on each guess into
the next row of a preallocated stack (one row per pending guess; depth <= cells). The search
is resumable: ``ctl`` holds (depth, phase, solutions, guesses, nodes); it returns PAUSED when
``nodes`` reaches ``node_cap`` and continues exactly there when called again, so Python can
read the clock between chunks (numba cannot).

Both kernels compile their inner functions with numba's ``_nrt=False``: they never allocate,
and without the runtime's reference counting a call does not pay an atomic increment and
decrement per array argument. State copies are explicit loops (a slice assignment may allocate
a temporary), and nothing is force-inlined (LLVM inlines what pays).
"""

from __future__ import annotations

# Deduction levels, the low two bits of a kernel's ``mode``; FIRST_MRV (a flag of ``mode``)
# turns the branching weights off: the first cell with the fewest candidates, as plain MRV.
SINGLES, LOCKED, SUBSETS = 0, 1, 2
LEVELS = ("singles", "locked", "subsets")
FIRST_MRV = 4
# What the searches return, and the slots of ``ctl``.
PAUSED, DONE = 0, 1
C_DEPTH, C_PHASE, C_SOLUTIONS, C_GUESSES, C_NODES = range(5)
CTL_SLOTS = 5
DECIDE, BACKTRACK = 0, 1
NO_CAP = 1 << 62
