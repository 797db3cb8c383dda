"""Models for general solvers, one module per (family, paradigm).

Each module at this level registers its solvers with ``bench.api.solver`` when imported (the
entry-point group ``cliffbench.solvers`` names them): ``edgematch_sat``, ``edgematch_xcc``,
``edgematch_cpsat``, ``edgematch_ilp``, ``edgematch_clique``, ``sudoku_sat``, ``sudoku_xcc``,
``sudoku_cpsat``, ``sudoku_ilp``. What they share registers nothing and is in
``encoders.support``. They import nothing of the project but ``bench.api`` and ``instances``.
"""
