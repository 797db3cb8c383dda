"""The results table: its one definition (``schema``), the append-only journal a sweep writes
as runs finish (``journal``), and the Parquet table it is compacted into (``store``).

Imports only ``bench.api``-free standard and data libraries: everything above reads or writes
the table through here.
"""
