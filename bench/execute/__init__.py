"""Running a sweep: the grid of runs (``sweep``), the executor that hands them to workers
(``runner``, ``slot``, ``dask_executor``), the worker that solves one run (``worker``, under
``guard`` and ``limits``), and the classification of what came back (``classify``). ``chaos``
holds the misbehaving solvers the fault tests and ``perf/limits_overshoot.py`` run.
"""
