"""The problem families, and the contract they keep (``instances.family``).

A family is one declared ``Family`` object (its types, file readers and writers, generators,
checker, text renderer; optionally its score's meaning, a picture drawer, CLI commands), found
through the ``cliffbench.families`` entry-point group: the built-in families exactly as a
plug-in's. ``family(name)`` loads one, ``families()`` all, ``family_names()`` lists them
without importing any.

Nothing under ``instances`` imports ``bench``, ``encoders`` or ``searches``: a family and its
checker stand on their own.
"""

from __future__ import annotations

from instances.common import Generated, InstanceError, Verdict
from instances.family import (
    Family,
    FamilyError,
    Generator,
    families,
    family,
    family_names,
)

__all__ = ["Family", "FamilyError", "Generated", "Generator", "InstanceError", "Verdict",
           "families", "family", "family_names"]
