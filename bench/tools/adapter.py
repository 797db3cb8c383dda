"""A tool adapter as data: a ``[[tool]]`` table of a TOML file.

    [[tool]]
    name = "cadical"                    # registered as <family>/cadical, one per source
    executable = "cadical"              # on PATH, or a path from this file's folder
    package = "cadical"                 # Debian's package, named when the program is missing
    version = ["--version"]             # arguments that make it print its version
    paradigm = "sat"
    input = "cnf"                       # the sources' export it reads, or "family"
    output = "sat-competition"          # how its answer is read (bench.tools.outputs)
    command = ["{executable}", "--seed={seed}", "-t", "{timeout}", "{input}"]
    sources = ["encoders.latin_sat:latin/sat"]   # module : solver whose model it solves
    doc = "CaDiCaL (Biere), Debian's program, on the sources' CNF"

A source is a solver whose model the program solves (``module:family/solver``: the module
that registers it, imported when the tool registers) or, with ``input = "family"``, a family's
own files (``family:edgematch``: the board as ``.emp``, the answer in the family's solution
format, read with ``output = "family"``).

Placeholders of ``command``: ``{executable}`` (the resolved path), ``{input}`` (the input file),
``{output}`` (a file the program writes its answer to, for conventions that read one),
``{timeout}`` (the run's budget in whole seconds, rounded up, at least 1), ``{seconds}`` (the
budget as a decimal), ``{milliseconds}`` (the budget in whole milliseconds, rounded down, at
least 1000: MiniZinc's ``--time-limit``), ``{seed}``, ``{threads}`` (the run's cores) and
``{memory}`` (its memory budget in MB). A program's own limits are a courtesy: the harness's
watchdog is the limit.

Every mistake is one ``ToolError`` naming the file, the tool and the key.

For the odd program, a tool can be declared in Python, in a ``--plugin`` file: build a ``Tool``
(or a subclass whose ``read_answer`` reads an output of its own) and call
``bench.tools.solvers.register_tool(tool, __name__)``.
"""

from __future__ import annotations

import os
import re
import shutil
import string
import subprocess
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from bench.api import PARADIGMS
from bench.tools.outputs import OUTPUTS, Answer

PLACEHOLDERS = ("executable", "input", "output", "timeout", "seconds", "milliseconds", "seed",
                "threads", "memory")
NAME = re.compile(r"^[a-z][a-z0-9_.+-]*$")
SOURCE = re.compile(r"^(family:[a-z][\w-]*|[A-Za-z_][\w.]*:[a-z][\w-]*/[a-z][\w.+-]*)$")
#: The adapters that ship (registered by bench/tools/shipped.py).
SHIPPED = Path(__file__).with_name("shipped.toml")
REQUIRED = ("name", "executable", "paradigm", "input", "output", "command", "sources")
OPTIONAL = ("package", "version", "doc")
VERSION_S = 10.0
#: Keys that make a TOML file a suite (bench/plan/suite.py), whose [[tool]] tables add tools.
SUITE_MARKS = {"ladder", "instances"}


class ToolError(ValueError):
    """A tool adapter that cannot be taken (the message names the file, the tool, the key)."""


@dataclass(frozen=True)
class Tool:
    """One program, and how to run it and read it (see the module docstring)."""

    name: str
    executable: str
    paradigm: str
    input: str
    output: str
    command: tuple[str, ...]
    sources: tuple[str, ...]
    package: str = ""
    version_args: tuple[str, ...] = ()
    doc: str = ""
    origin: str = ""  # the file it was read from

    def path(self) -> str | None:
        """The executable's absolute path, or None when it is not installed: a bare name is
        looked up on PATH, a relative path is taken from the tools file's folder."""
        executable = self.executable
        if "/" in executable and not os.path.isabs(executable) and self.origin:
            executable = str(Path(self.origin).resolve().parent / executable)
        found = shutil.which(executable)
        return os.path.abspath(found) if found else None

    def version(self) -> str | None:
        """The program's version as it prints it (``program_version``), else its Debian
        package's (``package_version``); None if it is not installed or neither says."""
        path = self.path()
        if path is None:
            return None
        return program_version(path, self.version_args) or package_version(self.package)

    def backend(self) -> str:
        """``program-version``, or ``program (not installed)``: what ``cliffbench list`` shows."""
        path = self.path()
        if path is None:
            return f"{self.executable} (not installed)"
        return f"{Path(path).name}-{self.version() or 'unknown'}"

    def missing_message(self) -> str:
        how = f" (Debian: apt-get install {self.package})" if self.package else ""
        return f"program {self.executable!r} of tool {self.name!r} is not installed{how}"

    def read_answer(self, stdout: str, written: str, code: int) -> Answer:
        """The answer in the tool's output convention; a subclass (a tool declared in Python,
        for the odd program) may read its own."""
        return OUTPUTS[self.output].read(stdout, written, code)

    def argv(self, values: dict[str, Any]) -> list[str]:
        """The command line with every placeholder filled in from ``values``."""
        return [part.format(**values) for part in self.command]


@cache
def program_version(path: str, args: tuple[str, ...]) -> str | None:
    """The first version-looking token (``1.5.3``, ``965``) that ``path *args`` prints on
    stdout or stderr, else its first line; None when there are no arguments to ask with or the
    program says nothing in VERSION_S seconds."""
    if not args:
        return None
    try:
        done = subprocess.run([path, *args], capture_output=True, timeout=VERSION_S,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return None
    text = (done.stdout + done.stderr).decode(errors="replace")
    found = re.search(r"\d+(?:\.\d+)+|\b\d{2,}\b", text)
    if found:
        return found.group(0)
    first = text.strip().splitlines()[:1]
    return first[0][:40] if first else None


@cache
def package_version(package: str) -> str | None:
    """The installed version of a Debian package (without its epoch), None where there is no
    such package or no dpkg."""
    if not package or shutil.which("dpkg-query") is None:
        return None
    try:
        done = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package],
                              capture_output=True, timeout=VERSION_S, text=True)
    except (OSError, subprocess.TimeoutExpired):
        return None
    version = done.stdout.strip().split(":", 1)[-1].rsplit("-", 1)[0]  # upstream's part
    return version if done.returncode == 0 and version else None


def programs_stamp(path: str | Path = SHIPPED) -> str:
    """What a solver index built with the tools of ``path`` depends on beyond source code: the
    file itself, and where each program is (and its file's time), since installing or
    removing one changes the backend that ``cliffbench list`` shows."""
    path = Path(path)
    try:
        lines = [f"{path} {path.stat().st_mtime_ns}"]
        tools = load_tools(path)
    except (OSError, ToolError):
        return f"{path} unreadable"
    for tool in tools:
        found = tool.path()
        stamp = os.stat(found).st_mtime_ns if found else 0
        lines.append(f"{tool.name} {found} {stamp}")
    return "\n".join(lines)


def load_tools(path: str | Path) -> list[Tool]:
    """Every ``[[tool]]`` of a TOML file, each checked: a tools file, or a suite that declares
    its own tools (its other keys are the suite's)."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ToolError(f"{path}: no such tools file") from None
    except ValueError as exc:  # TOMLDecodeError, UnicodeDecodeError, a 4300-digit integer
        raise ToolError(f"{path}: not valid TOML: {exc}") from None
    extra = sorted(set(data) - {"tool"})
    if extra and not SUITE_MARKS & set(data):  # a suite's own [[tool]] tables are read alone
        raise ToolError(f"{path}: unknown top-level key {extra[0]!r} (a tools file holds "
                        f"[[tool]] tables)")
    tables = data.get("tool", [])
    if not isinstance(tables, list) or not tables:
        raise ToolError(f"{path}: no [[tool]] table")
    tools = [parse_tool(table, f"{path}: tool {i + 1}", str(path))
             for i, table in enumerate(tables)]
    names = [t.name for t in tools]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ToolError(f"{path}: tool {twice[0]!r} is declared twice")
    return tools


def parse_tool(table: Any, where: str, origin: str = "") -> Tool:
    """One ``[[tool]]`` table as a Tool; ``where`` starts every error message."""
    if not isinstance(table, dict):
        raise ToolError(f"{where}: not a table")
    if isinstance(table.get("name"), str):
        where = f"{where} ({table['name']!r})"
    unknown = sorted(set(table) - set(REQUIRED) - set(OPTIONAL))
    if unknown:
        raise ToolError(f"{where}: unknown key {unknown[0]!r} (known: "
                        f"{', '.join(REQUIRED + OPTIONAL)})")
    for key in REQUIRED:
        if key not in table:
            raise ToolError(f"{where}: missing key {key!r}")
    text = {key: _string(table, key, where) for key in
            ("name", "executable", "paradigm", "input", "output")}
    if not NAME.match(text["name"]):
        raise ToolError(f"{where}: name {text['name']!r} must be lower case letters, digits "
                        f"and ._+- , starting with a letter")
    if text["paradigm"] not in PARADIGMS:
        raise ToolError(f"{where}: paradigm {text['paradigm']!r} is not one of "
                        f"{', '.join(PARADIGMS)}")
    if text["output"] not in OUTPUTS:
        raise ToolError(f"{where}: output {text['output']!r} is not one of "
                        f"{', '.join(OUTPUTS)}")
    command, sources = _listed(table, "command", where), _listed(table, "sources", where)
    for part in command:
        for field in _fields(part, where):
            if field not in PLACEHOLDERS:
                raise ToolError(f"{where}: command placeholder {{{field}}} is not one of "
                                f"{', '.join('{' + p + '}' for p in PLACEHOLDERS)}")
    if not any("{input}" in part for part in command):
        raise ToolError(f"{where}: command never names the {{input}} file")
    if OUTPUTS[text["output"]].needs_file and not any("{output}" in p for p in command):
        raise ToolError(f"{where}: output {text['output']!r} reads the file the program "
                        f"writes: the command must name {{output}}")
    for source in sources:
        if not SOURCE.match(source):
            raise ToolError(f"{where}: source {source!r} is neither 'module:family/solver' (the "
                            f"module that registers the solver, and the solver) nor "
                            f"'family:NAME' (the family's own files)")
    return Tool(name=text["name"], executable=text["executable"], paradigm=text["paradigm"],
                input=text["input"], output=text["output"], command=tuple(command),
                sources=tuple(sources), package=_string(table, "package", where, ""),
                version_args=tuple(_strings(table, "version", where, [])),
                doc=_string(table, "doc", where, ""), origin=origin)


def _string(table: dict, key: str, where: str, default: str | None = None) -> str:
    value = table.get(key, default)
    if not isinstance(value, str) or (default is None and not value):
        raise ToolError(f"{where}: {key} must be a non-empty string")
    return value


def _strings(table: dict, key: str, where: str, default: list | None = None) -> list[str]:
    value = table.get(key, default)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ToolError(f"{where}: {key} must be a list of strings")
    return list(value)


def _listed(table: dict, key: str, where: str) -> list[str]:
    """A required, non-empty list of strings."""
    values = _strings(table, key, where)
    if not values:
        raise ToolError(f"{where}: {key} is empty")
    return values


def _fields(part: str, where: str) -> list[str]:
    try:
        return [field for _, field, _, _ in string.Formatter().parse(part) if field is not None]
    except ValueError as exc:
        raise ToolError(f"{where}: command part {part!r}: {exc}") from None
