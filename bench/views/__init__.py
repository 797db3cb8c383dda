"""What people look at, all read from the results table: its statistics (``stats``), their text
(``report``: the terminal summary, Markdown, CSV, JSON), the figures (``figures`` and its
``fig_*`` drawers, in the style of ``figstyle``), pictures of boards (``pictures``, each family
drawing its own), and the HTML explorer (``html`` with ``report_runs`` and ``report_boards``).
"""
