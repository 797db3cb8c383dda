"""The family index: what the command line needs to know of every declared family without
importing it (a family's modules import NumPy, which would cost ``cliffbench --help`` more
than everything else it does): each family's summary, suffixes, generators and the target of
its CLI commands. Cached and fingerprinted like the solver index (``bench.plan.index_cache``),
from the ``cliffbench.families`` entry points.
"""

from __future__ import annotations

from typing import Any

from bench.plan import index_cache

INDEX_VERSION = 1

_index: dict[str, Any] | None = None


def fingerprint() -> str:
    """A hash of the family entry points and of every source file of their packages."""
    from instances.family import entry_points

    return index_cache.fingerprint(f"families v{INDEX_VERSION}", entry_points().values())


def _build() -> dict[str, Any]:
    import instances

    return {"version": INDEX_VERSION, "families": {
        name: {"summary": family.summary, "suffixes": list(family.suffixes),
               "generators": list(family.generators), "commands": family.commands}
        for name, family in instances.families().items()}}


def family_index() -> dict[str, dict[str, Any]]:
    """``name -> {"summary", "suffixes", "generators", "commands"}`` for every declared family,
    from the cache when it is current (a family that breaks the contract raises FamilyError
    here, as it does on load)."""
    global _index
    if _index is None:
        _index = index_cache.cached_index("families", INDEX_VERSION, fingerprint(), _build)
    return _index["families"]


def add_family_commands(subparsers: Any) -> None:
    """Add every family's CLI commands (``Family.commands``), importing only their modules."""
    from instances.family import resolve_target

    for name, entry in family_index().items():
        if entry["commands"]:
            resolve_target(entry["commands"], f"{name}.commands")(subparsers)


__all__ = ["add_family_commands", "family_index", "fingerprint"]
