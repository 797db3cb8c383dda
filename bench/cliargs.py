"""The command line's argument plumbing, shared by ``bench.cli`` and the CLI commands a family
adds (``Family.commands``): a parser whose errors are one line and exit 2, help that shows
defaults, and argument types for counts and budgets. Standard library only.
"""

from __future__ import annotations

import argparse
import math
from typing import Any

EXIT_USAGE = 2


class HelpWithDefaults(argparse.HelpFormatter):
    """Each option's help ends with its default, where it has one worth saying (not None,
    False or an empty list, and not when the help already says it)."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        default = action.default
        if ("default" in text or default in (None, False, [], argparse.SUPPRESS)
                or not action.option_strings):
            return text
        return f"{text} (default: %(default)s)"


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors (``cliffbench run: error: ...``) and defaults in the help."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpWithDefaults)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> Any:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def positive_number(kind: type) -> Any:
    """An argparse type: a finite number above zero (a budget, a count of jobs or cores)."""

    def parse(text: str) -> Any:
        try:
            value = kind(text)
            if not math.isfinite(value) or value <= 0:
                raise ValueError
        except (TypeError, ValueError, OverflowError):
            noun = "whole number" if kind is int else "number"
            raise argparse.ArgumentTypeError(f"must be a positive {noun}, got {text!r}") from None
        return value

    parse.__name__ = f"positive {kind.__name__}"
    return parse


def integer(text: str) -> int:
    """An argparse type: a whole number (a seed may be 0)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {text!r}")
    return value


__all__ = ["EXIT_USAGE", "HelpWithDefaults", "Parser", "integer", "positive_number"]
