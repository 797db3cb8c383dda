"""Statistics that need nothing of the project: estimators and their intervals (``confidence``),
used by the report (bench/views/) and by the adaptive ladders' scheduler (bench/execute/). A
layer of its own, beside bench.api: it imports only NumPy and SciPy."""
