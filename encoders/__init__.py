"""Models for general solvers, one module per (family, paradigm).

Each module registers its solvers with ``bench.api.solver`` when imported (the entry-point group
``cliffbench.solvers`` names them), and imports nothing of the project but ``bench.api`` and
``instances``.
"""
