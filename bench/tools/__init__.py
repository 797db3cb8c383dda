"""Other people's solver programs on the same ladders: tool adapters (BenchExec's design).

Glossary:

- **program**: a solver that is not ours, an executable found on ``PATH`` (CaDiCaL, MiniSat,
  PicoSAT, ...), run once per run as a child of the run's worker process.
- **tool adapter** (``Tool``): data that says how to run a program and read it, nothing more:
  the executable, how its version is read, the command line with placeholders, the input
  format and the output convention. It measures nothing and limits nothing: the harness owns
  the budget, the watchdog and the measurement, for the program's whole process tree, as for
  any solver (bench/execute/slot.py).
- **source**: the solver whose model the program solves: its export writes the input file
  (``SolverSpec.exports``) and its reader decodes the program's answer through the same
  variable map (``SolverSpec.reads``). A tool is registered once per source, in the source's
  family, under the tool's name (``latin/cadical``), with the source's export parameters as
  its own; the family's checker judges its answers like any other solver's.
- **output convention** (``outputs``): how an answer is read from what the program printed
  or wrote, e.g. the SAT competition's (``s SATISFIABLE`` and ``v`` lines, exit codes 10 and
  20).

Modules: ``adapter`` (the adapter as data, from a TOML file), ``outputs`` (the conventions),
``program`` (running one program with its output captured to files of capped size),
``solvers`` (a tool as a registered solver), ``shipped`` (the adapters that ship, registered
through the ``cliffbench.solvers`` entry point like any solver module).
"""
