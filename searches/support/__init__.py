"""What the native solvers of ``searches`` are built from; nothing here registers a solver.

Shared by every family: ``numba_cache`` (which kernels depend on which files, for numba's
on-disk cache), ``intrinsics`` (popcount, lowest set bit, prefetch), ``chunked`` (running a
kernel a chunk of nodes at a time under a budget).

Per family:

- edge matching: ``edgematch_tables`` (oriented pieces, hints), ``edgematch_search`` (the
  depth-first kernel of dfs-restarts and dfs-breaks, its restarts and its driver);
- sudoku: ``sudoku_modes`` (the kernels' contract), ``sudoku_band9`` (9x9), ``sudoku_general``
  (any size);
- sliding tiles: ``tiles_board`` (move tables), ``tiles_rank`` (placement ranks),
  ``tiles_pdb_patterns``, ``tiles_pdb_build``, ``tiles_pdb_encode``, ``tiles_pdb_lookup``,
  ``tiles_pdb_store`` (pattern databases: what a table is about, its BFS, its encodings, the
  partition's heuristic, files), ``tiles_heuristics`` and ``tiles_pdb_adapter`` (the
  heuristics IDA* and A* plug in), ``tiles_ida_kernel`` and ``tiles_ida_search`` (IDA*),
  ``tiles_quotient`` (the seed's quotient-graph study), ``tiles_pdb_cli`` (the ``pdb`` command);
- games: ``games_bitboard``, ``games_board`` (negamax on boards), ``games_tree``,
  ``games_graph_search``, ``games_attract`` (attractors), ``games_expand`` (a board's graph).
"""
