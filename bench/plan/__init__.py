"""What to run: instance specs (``specs``), suites of ladders (``suite``, the TOML files in
``suites/``), and the index of registered solvers (``registry``). Nothing here runs a solver.
"""
