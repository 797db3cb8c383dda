"""The shipped tool adapters (``shipped.toml`` beside this file), registered on import: the
``cliffbench.solvers`` entry point ``tools`` names this module, so the programs are found and
listed exactly as the solver modules are."""

from __future__ import annotations

from bench.tools.adapter import SHIPPED, load_tools
from bench.tools.solvers import register_tool

__all__ = ["SHIPPED"]

for _tool in load_tools(SHIPPED):
    register_tool(_tool, __name__)
