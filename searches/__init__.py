"""Native searches; numba for every hot loop.

Each module at this level registers solvers with ``bench.api.solver`` when imported (the
entry-point group ``cliffbench.solvers`` names them): ``edgematch_dfs``, ``edgematch_breaks``,
``sudoku_norvig``, ``sudoku_native``, ``tiles_ida``, ``tiles_astar``, ``tiles_pdb_search``,
``games_attractor``, ``games_search``. What they are built from registers nothing and is in
``searches.support``. The solvers import nothing of the project but ``bench.api`` and
``instances``.
"""
