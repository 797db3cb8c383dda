"""The program's end (bench/execute/ending.py ``exit_unfreed``, which the command line and the
workers end with): the process ends without freeing its objects, after what a normal exit does
that anyone sees (exit handlers, flushed streams, the threads still working), with the
command's status."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from helpers import cliffbench


def program(source: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(source)], capture_output=True,
                          text=True, timeout=60)


def test_the_exit_runs_the_handlers_flushes_and_frees_nothing():
    """An object's finaliser that a normal exit runs (module teardown) is not run; the exit
    handlers are, and what was written but not flushed arrives."""
    source = """
        import atexit, sys
        from bench.execute.ending import exit_unfreed

        class Noisy:
            def __del__(self):
                print("freed", flush=True)

        kept = Noisy()
        atexit.register(lambda: print("handler"))
        sys.stdout.write("unflushed ")
        sys.stderr.write("err ")
        exit_unfreed(3)
    """
    proc = program(source)
    assert (proc.returncode, proc.stdout, proc.stderr) == (3, "unflushed handler\n", "err ")
    normal = program(source.replace("exit_unfreed(3)", "sys.exit(3)"))
    assert normal.stdout == "unflushed handler\nfreed\n"  # what the normal exit does more


def test_a_thread_still_working_gets_the_normal_exit():
    proc = program("""
        import threading, time
        from bench.execute.ending import exit_unfreed

        def late():
            time.sleep(0.3)
            print("late", flush=True)

        threading.Thread(target=late).start()
        exit_unfreed(5)
    """)
    assert (proc.returncode, proc.stdout) == (5, "late\n")


def test_a_run_as_the_program_ends_with_its_summary_and_status(tmp_path):
    suite = tmp_path / "tiny.toml"
    suite.write_text('name = "tiny"\ntimeout = 10\n[[solver]]\nname = "native"\n'
                     '[[ladder]]\nname = "l"\nblock = 3\n'
                     'rungs = [ { label = "r", instances = ["sudoku/planted:box=2,clues=6,'
                     'seed=1..5"] } ]\n')
    proc = cliffbench("run", str(suite), "--results", str(tmp_path / "results"), "--no-figures")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.rstrip().endswith(f"results: {tmp_path / 'results' / 'tiny'}/runs.parquet "
                                         "(journal.jsonl, manifest.json)")
    import pandas as pd

    table = pd.read_parquet(tmp_path / "results" / "tiny" / "runs.parquet")
    assert len(table) == 5 and set(table["status"]) == {"solved"}
    bad = cliffbench("run", str(tmp_path / "missing.toml"))
    assert bad.returncode == 2 and "no suite file" in bad.stderr
