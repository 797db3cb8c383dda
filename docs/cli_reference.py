"""The generated half of docs/cli.md: every command's ``--help``, as the parser prints it.

``python docs/cli_reference.py`` rewrites the block between the two markers in docs/cli.md
(the prose around it is written by hand); ``--check`` exits 1 when the file differs from what
the parser prints (tests/test_docs.py runs that check, so the reference cannot drift). The help
is rendered 100 columns wide whatever the terminal, and walks every subcommand, nested ones
(``data fetch``) and those a family adds (``pdb``) included.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from pathlib import Path

CLI_MD = Path(__file__).resolve().parent / "cli.md"
BEGIN = "<!-- BEGIN GENERATED: python docs/cli_reference.py (do not edit by hand) -->"
END = "<!-- END GENERATED -->"
WIDTH = "100"


def commands(parser: argparse.ArgumentParser,
             path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...],
                                                           argparse.ArgumentParser]]:
    """(command path, parser) for ``parser`` and every subcommand below it, in declared order."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from commands(sub, (*path, name))


def generated() -> str:
    """The reference block: one heading and one ``--help`` text per command."""
    from bench.cli import build_parser

    saved = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = WIDTH
    try:
        parts = []
        for path, parser in commands(build_parser()):
            heading = "#" * (3 if len(path) <= 1 else 4)
            name = " ".join(("cliffbench", *path))
            parts.append(f"{heading} `{name}`\n\n```text\n{parser.format_help().rstrip()}\n```\n")
    finally:
        if saved is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = saved
    return f"{BEGIN}\n\n" + "\n".join(parts) + f"\n{END}"


def with_reference(text: str) -> str:
    """``text`` (docs/cli.md) with its generated block replaced by the current one."""
    head, begin, rest = text.partition(BEGIN)
    _, end, tail = rest.partition(END)
    if not begin or not end:
        raise ValueError(f"{CLI_MD} lacks the markers {BEGIN!r} ... {END!r}")
    return head + generated() + tail


def main(argv: list[str]) -> int:
    current = CLI_MD.read_text(encoding="utf-8")
    wanted = with_reference(current)
    if "--check" in argv:
        if current != wanted:
            print(f"{CLI_MD} is out of date: run python docs/cli_reference.py", file=sys.stderr)
            return 1
        return 0
    CLI_MD.write_text(wanted, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
