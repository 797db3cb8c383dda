"""Native searches, one module per (family, algorithm); numba for every hot loop.

Each module registers its solvers with ``bench.api.solver`` when imported (the entry-point group
``cliffbench.solvers`` names them), and imports nothing of the project but ``bench.api`` and
``instances``.
"""
