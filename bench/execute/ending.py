"""How a cliffbench process ends when its work is done: without freeing what it made.

A big sweep's parent holds a few objects for each run it planned and each row it kept, and a
worker the solvers' modules and their compiled code; a normal exit frees them one by one (and
tears the modules down), which takes longer than a sweep's summary. :func:`exit_unfreed` ends
the process as mypy's ``hard_exit`` does (Clang's driver skips the same work with
``-disable-free``), after what else a normal exit does that anyone sees.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import sys
import threading
from typing import NoReturn


def exit_unfreed(code: int) -> NoReturn:
    """End the process with status ``code`` without freeing its objects one by one. What else a
    normal exit does is done first: where a thread other than the main one is still working
    (not a daemon), the exit is the normal one, which waits for it; the exit handlers run
    (``atexit``: logging's last flush, the temporary folders' removal, the event stamps'
    file); the standard streams are flushed."""
    main_thread = threading.main_thread()
    if any(t is not main_thread and t.is_alive() and not t.daemon for t in threading.enumerate()):
        sys.exit(code)
    try:
        atexit._run_exitfuncs()  # the handlers a normal exit runs (the interpreter's own call)
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):  # a closed pipe: its reader wanted no more
                stream.flush()
        os._exit(int(code or 0))
