"""A sweep's table converted while the sweep runs: the varying columns of each block chunk the
journal keeps (its keys, answers, times, counters: a value a run) made Arrow arrays as soon as
the chunk is written, in the moments the parent would otherwise wait for its workers
(bench/execute/runner.py's ``on_idle``), so that the compaction at the end (bench/table/store.py
``compact``) is left the columns with one value a chunk, one array a run of equal values.

Only a journal of block chunks is converted ahead: its parts are the chunks the journal keeps
in memory, the very objects the compaction reads (``Journal.kept_parts``). A journal that holds
a single run's row (the compaction merges neighbouring ones into one part) or is read back from
its file is left to the compaction. A chunk's columns are converted with its own column types
(``table_dtypes`` of the chunk); the compaction makes a row group's table (``arrow_table``)
from its chunks' arrays where each chunk's columns were converted with the whole table's types,
else converts the group as usual: a column whose type differs between chunks (a null among an
extra column's integers, a parameter only some runs have) costs the group a second conversion,
never a different table.
"""

from __future__ import annotations

from typing import Any

from bench.table import store
from bench.table.journal import Journal

Part = tuple[dict[str, Any], dict[str, list[Any]], int]


class TableAhead:
    """The journal's chunks converted and not taken yet: for each, the chunk (held, so that
    the compaction can tell it by identity), the type each varying column was converted with,
    and its arrays (None where a value did not convert: the compaction then finds the same).
    What is taken is let go; where the journal stops keeping its parts in memory, all is."""

    def __init__(self, journal: Journal):
        self.journal = journal
        self.converted = 0  # the journal's parts converted so far
        #: what was made of each part not taken yet, by the ids of its two dicts (the part is
        #: held, so the ids are its own)
        self.made_of: dict[tuple[int, int], tuple[Part, dict[str, str] | None, Any]] = {}
        self.off = False  # the journal is not one of chunks in memory: nothing is done ahead
        self.ready = False  # pandas and pyarrow imported (the first step's work)
        self._schemas: dict[tuple[tuple[str, str], ...], Any] = {}

    def step(self) -> bool:
        """Convert the next chunk not converted yet (the first call: import pandas and
        pyarrow), where there is one; whether there was."""
        if self.off:
            return False
        parts = self.journal.kept_parts()
        if parts is None:
            self._stop()
            return False
        if not self.ready:  # the libraries it converts with, imported while the workers start
            import pandas  # noqa: F401
            import pyarrow  # noqa: F401

            self.ready = True
            return True
        if len(parts) == self.converted:
            return False
        part = parts[self.converted]
        if part[2] == 1 and not part[0]:  # a run's row: the compaction merges it with others
            self._stop()
            return False
        try:
            dtypes = store.table_dtypes([({}, part[1], part[2])])  # its varying columns' types
            arrays = None if dtypes is None else store.varying_arrays(part, dtypes)
        except Exception:  # a value Arrow refuses: the compaction, which decides, meets it
            self._stop()
            return False
        made = None if arrays is None else {name: dtypes[name] for name in arrays}
        self.made_of[(id(part[0]), id(part[1]))] = (part, made, arrays)
        self.converted += 1
        return True

    def _stop(self) -> None:
        """Nothing more done ahead, and what was made let go."""
        self.off, self.made_of = True, {}

    def table(self, group: list[Part], dtypes: dict[str, str]) -> Any:
        """The table of a row group (``arrow_table`` of its parts, their varying columns
        taken as converted ahead, then let go), where each part's were converted with these
        column types, else None."""
        given = []
        for same, varying, size in group:
            made = self.made_of.get((id(same), id(varying)))
            if made is None or made[0][0] is not same or made[0][1] is not varying \
                    or made[0][2] != size or made[2] is None \
                    or any(dtypes.get(name) != dtype for name, dtype in made[1].items()):
                return None
            given.append((same, made[2], size))
        if not given:
            return None
        for same, varying, _ in group:
            del self.made_of[(id(same), id(varying))]
        return store.arrow_table(given, dtypes, self._schema(dtypes))

    def _schema(self, dtypes: dict[str, str]) -> Any:
        key = tuple(dtypes.items())
        if key not in self._schemas:
            self._schemas[key] = store.arrow_schema(dtypes)
        return self._schemas[key]
