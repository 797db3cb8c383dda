"""What the encoders are built from; nothing here registers a solver.

``margin`` (the time a solver keeps off its budget), ``xcc`` (the DLX format and xcover),
``sat_engine`` (pysat engines under a budget, CNF), ``ilp_backends`` (one 0-1 program for HiGHS
and CBC), ``minizinc`` (MiniZinc files, the ``mzn`` exports), ``edgematch_placements`` (the
frame-legal placements every edge-matching model shares), ``sudoku_model`` (units, candidates
and the answer rule every Sudoku model shares).
"""
