"""Property-based fuzzing of every reader (issue 8, "Bad input").

Random and mutated files go to each reader of the project: edge matching (``.emp``, piece lists,
solutions), sliding tiles (Korf's lists), Sudoku (lines, drawn grids), games (``.game``, the
known-values table), DLX (exact cover with colours) and suite TOML. A reader either returns or
raises the project's own error (``InstanceError``, ``SuiteError``) naming the file and, when the
error is about a line, a line the file has, as ``path:LINE:``. Any other exception is a bug, and
so is a hang (a deadline per example). What a reader accepts must survive its own writer: the
instance read back from what was written is the same one.

Seeds are written by the families' own generators and writers, so the core tests need no data;
the shared reference files seed a ``data`` variant. Suites are fuzzed as text and as tables
(values replaced, removed, added, then written back as TOML) with the instance specs resolved by
a stub: the suite reader is under test here, not the generators a mutated number would start.
Besides: a poisoned line must be the line the error names (with form feeds, U+2028 and the like
around it, which are no line breaks), and each bug the fuzzing found has its own input below.

Every property runs derandomized (the same examples on every machine) with ``FAST`` settings;
``test_fuzz_long`` and ``test_the_error_names_the_wrong_line_long`` run each with many more
examples (marked slow).
"""

from __future__ import annotations

import copy
import json
import re
import tempfile
import tomllib
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bench.plan.suite as suite_module
import instances.edgematch as em
import instances.games as gm
import instances.latin as lt
import instances.sudoku as sd
import instances.tiles as tl
from bench.api import ParamError
from bench.plan.specs import InstanceRef
from bench.plan.specs import resolve as real_resolve
from bench.plan.suite import SUITES_DIR, Suite, SuiteError, load_suite, solver_configs
from encoders.support import xcc
from instances.common import Generated, InstanceError
from instances.games.graphs import nim_graph

FAST = settings(max_examples=150, deadline=2000, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.filter_too_much])
LONG = settings(FAST, max_examples=3000)


# --- what a refusal must say ------------------------------------------------------------------


def lines_in(data: bytes) -> int:
    """How many lines a file has, counting every line break any reader may use (LF, CR LF, CR)."""
    return len(re.split(rb"\r\n|\r|\n", data))


def assert_names_file(exc: Exception, path: Path, data: bytes) -> None:
    """The project's error names the file, and a line of it where it names one."""
    message = str(exc)
    assert str(path) in message, f"the error does not name the file: {message!r}"
    line = getattr(exc, "line", None)
    if line is None:  # a suite's TOML syntax error carries its line in the message
        found = re.search(r"at line (\d+)", message)
        line = int(found.group(1)) if found else None
    if line is not None:
        assert 1 <= line <= lines_in(data), f"line {line} of a {lines_in(data)}-line file"
    if getattr(exc, "line", None) is not None:
        assert f"{path}:{line}:" in message, message


def read_or_refuse(read: Callable[[Path], Any], path: Path, data: bytes) -> Any:
    """What ``read(path)`` returns for a file holding ``data``, or None when it refuses it with
    the project's error naming the file (any other exception fails the test)."""
    path.write_bytes(data)
    try:
        return read(path)
    except (InstanceError, SuiteError) as exc:
        assert_names_file(exc, path, data)
        return None


# --- strategies: random text and mutations of valid seeds -------------------------------------

WEIRD = ["", "-", "+", "0", "-0", "-1", "+7", "1.5", "1e3", "nan", "inf", "0x1F", "1_000", "٣",
         "１２", "²", "ı", "é", "\u00a0", "\x00", "\x0c", "\u2028", "#", "|", ":", "=", ",", "..",
         "{", "[", '"', "'", "\\", str(2**31), str(2**63), str(-2**63 - 1), str(10**12),
         str(10**18), str(10**19), "9" * 40, "9" * 5000]
SEPARATORS = [" ", " ", " ", "  ", "\t", " \x0c ", "\x0b"]
LINE_BREAKS = ["\n", "\r\n", "\r", "\x00", "\x0c", "\x1c", "\x85", "\u2028", "\t", "\u00a0"]

numbers = st.one_of(st.integers(-3, 30), st.integers(), st.integers(-2**70, 2**70),
                    st.sampled_from([2**31, 2**32 + 1, 2**63, 10**12, 10**18, 257, 65537]))
weird_tokens = st.one_of(numbers.map(str), st.sampled_from(WEIRD),
                         st.text(max_size=6), st.floats().map(repr))


def junk_text(words: list[str], extra: st.SearchStrategy[str] | None = None
              ) -> st.SearchStrategy[str]:
    """Lines of tokens, mostly a family's keywords and small numbers, so that a parser gets
    deep rather than stopping at the first character."""
    parts = [st.sampled_from(words), st.integers(-2, 12).map(str), weird_tokens]
    if extra is not None:
        parts.append(extra)
    token = st.one_of(*parts)
    line = st.tuples(st.lists(token, max_size=8), st.sampled_from(SEPARATORS)).map(
        lambda t: t[1].join(t[0]))
    return st.tuples(st.lists(line, max_size=12), st.sampled_from(["\n", "\n", "\r\n"])).map(
        lambda t: t[1].join(t[0]))


def _replace_token(draw: st.DrawFn, lines: list[str]) -> None:
    i = draw(st.integers(0, len(lines) - 1))
    tokens = re.split(r"(\s+)", lines[i])
    spots = [j for j, t in enumerate(tokens) if t and not t.isspace()]
    if not spots:
        lines[i] += " " + draw(weird_tokens)
        return
    j = draw(st.sampled_from(spots))
    old = tokens[j]
    if re.fullmatch(r"-?[0-9]{1,18}", old) and draw(st.booleans()):
        tokens[j] = str(int(old) + draw(st.integers(-3, 3)))  # a near miss
    else:
        tokens[j] = draw(weird_tokens)
    lines[i] = "".join(tokens)


def _edit_char(draw: st.DrawFn, lines: list[str]) -> None:
    """Flip a character of a token inside a line (in a grid, a name, a number)."""
    i = draw(st.integers(0, len(lines) - 1))
    if not lines[i]:
        return
    k = draw(st.integers(0, len(lines[i]) - 1))
    char = draw(st.one_of(st.sampled_from(".0123456789ABP!:|-x"),
                          st.characters(exclude_categories=["Cs"])))  # no lone surrogate
    lines[i] = lines[i][:k] + char + lines[i][k + 1:]


@st.composite
def mutated(draw: st.DrawFn, seeds: list[str], words: list[str] | None = None) -> bytes:
    """A valid seed with one to four edits: delete, duplicate, swap or insert lines, replace a
    token (a near-miss number, a huge, negative, float, non-ASCII or empty one), change a
    character, insert a NUL, CR or other break; and at the end maybe a truncation at any byte
    (which can cut a multi-byte character in half)."""
    lines = draw(st.sampled_from(seeds)).split("\n")
    for _ in range(draw(st.integers(1, 4))):
        if not lines:
            lines = [""]
        op = draw(st.sampled_from(["delete", "duplicate", "swap", "insert", "token", "token",
                                   "token", "char", "break"]))
        i = draw(st.integers(0, len(lines) - 1))
        if op == "delete" and len(lines) > 1:
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "insert":
            lines.insert(i, draw(junk_text(words or ["#"])).replace("\n", " "))
        elif op == "token":
            _replace_token(draw, lines)
        elif op == "char":
            _edit_char(draw, lines)
        else:
            k = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:k] + draw(st.sampled_from(LINE_BREAKS)) + lines[i][k:]
    data = "\n".join(lines).encode("utf-8")
    if draw(st.integers(0, 5)) == 0:
        data = data[:draw(st.integers(0, len(data)))]
    return data


def as_bytes(strategy: st.SearchStrategy[str]) -> st.SearchStrategy[bytes]:
    return strategy.map(lambda text: text.encode("utf-8"))


@st.composite
def not_utf8(draw: st.DrawFn, seeds: list[str]) -> bytes:
    """A seed (or random bytes) with a byte sequence that is not UTF-8 somewhere in it."""
    data = draw(st.one_of(st.sampled_from(seeds).map(str.encode), st.binary(max_size=200)))
    bad = draw(st.sampled_from([b"\xff", b"\xc3", b"\xe2\x82", b"\xed\xa0\x80", b"\x80",
                                b"\xf8\x88\x80\x80\x80", b"\xfe\xff"]))
    k = draw(st.integers(0, len(data)))
    data = data[:k] + bad + data[k:]
    try:  # the bytes around may complete the sequence ('\xc3' then '\x80' is 'À')
        data.decode("utf-8")
    except UnicodeDecodeError:
        return data
    return data + b"\xff"


# --- seeds: written by each family's generators and writers -----------------------------------


def _write(writer: Callable[..., None], name: str, *args: Any, **kw: Any) -> str:
    """The text a family's writer writes."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        writer(path, *args, **kw)
        return path.read_text()


@cache
def emp_seeds() -> list[str]:
    planted = em.GENERATORS["planted"]
    square = planted({"n": 3, "hints": 1}, 2)
    rect = planted({"rows": 2, "cols": 3, "colors": 4}, 5)
    bare = planted({"n": 2, "colors": 3}, 1)
    pieces = "\n".join(" ".join(map(str, p)) for p in square.instance.pieces)
    rect_pieces = "# size 2 3\n" + "\n".join(" ".join(map(str, p))
                                            for p in rect.instance.pieces)
    commented = em.format_emp(bare.instance).replace("colors", "target 470\ncolors", 1)
    commented = commented.replace("\n", "   # note\n", 3)
    return [em.format_emp(square.instance, square.secret),
            em.format_emp(rect.instance, rect.secret), commented, pieces, rect_pieces]


@cache
def emp_solution_seeds() -> tuple[em.Instance, list[str]]:
    g = em.GENERATORS["planted"]({"n": 3, "hints": 1}, 2)
    s_lines = [line for line in em.format_emp(g.instance, g.secret).split("\n")
               if line.startswith("s ")]
    cells = [[int(x) for x in line.split()[1:]] for line in s_lines]
    answer = {"status": "solved", "solution": {"rows": 3, "cols": 3, "cells": cells}}
    return g.instance, ["\n".join(s_lines), json.dumps(answer, indent=1),
                        json.dumps({"rows": 3, "cols": 3, "cells": cells[:4]})]


@cache
def answered() -> dict[str, Any]:
    """The instance each family's solution reader reads an answer for."""
    return {"emp": emp_solution_seeds()[0],
            "tiles": tl.GENERATORS["random"]({"rows": 3, "cols": 3}, 1).instance,
            "sudoku": sd.GENERATORS["planted"]({"box": 2, "clues": 6}, 1).instance,
            "games": nim_graph((1, 2)),
            "latin": lt.GENERATORS["qwh"]({"order": 4, "holes": 6}, 1).instance}


def answer_reader(family: str) -> Callable[[Path], Any]:
    read = {"emp": em.read_solution, "tiles": tl.read_solution, "sudoku": sd.read_solution,
            "games": gm.read_solution, "latin": lt.read_solution}[family]
    return lambda path: read(path, answered()[family])


@cache
def tiles_seeds() -> list[str]:
    scramble = tl.GENERATORS["scramble"]({"rows": 3, "cols": 3, "steps": 12}, 4)
    moves = scramble.secret if isinstance(scramble.secret, tl.Solution) else None
    written = _write(tl.write_file, "s.txt", scramble.instance, moves, 12)
    fifteen = [tl.GENERATORS["random"]({"rows": 4, "cols": 4}, s).instance for s in (1, 2)]
    korf = "# Korf-style list: id optimal t0 .. t15\n" + "\n".join(
        f"{i} {50 + i} " + " ".join(map(str, inst.tiles)) for i, inst in enumerate(fifteen, 1))
    plain = "\n".join(" ".join(map(str, tl.GENERATORS["random"]({"rows": 3, "cols": 3}, s)
                                   .instance.tiles)) for s in (3, 4, 5))
    rect = tl.GENERATORS["random"]({"rows": 2, "cols": 3, "goal": "blank-last"}, 6).instance
    rectangle = f"size 2 3\ngoal blank-last\n7 - {' '.join(map(str, rect.tiles))}\n# solution L"
    return [written, korf, plain, rectangle]


@cache
def sudoku_seeds() -> list[str]:
    small = sd.GENERATORS["planted"]({"box": 2, "clues": 6}, 1)
    written = _write(sd.write_file, "p.txt", small.instance, small.secret)
    nine = [sd.GENERATORS["planted"]({"box": 3, "clues": 30}, s).instance for s in (1, 2, 3)]
    lines = "# three puzzles\n" + "\n".join(f"{p.to_line()} rating{i} name"
                                            for i, p in enumerate(nine))
    line = nine[0].to_line()
    rows = [line[r * 9:(r + 1) * 9] for r in range(9)]
    drawn = []
    for r, row in enumerate(rows):
        drawn.append(" ".join(row[0:3]) + " | " + " ".join(row[3:6]) + " | "
                     + " ".join(row[6:9]))
        if r in (2, 5):
            drawn.append("------+-------+------")
    return [written, lines, "\n".join(drawn) + "\n"]


@cache
def latin_seeds(suffix: str = ".pls") -> list[str]:
    """Squares as the latin family writes them (with and without a secret), or as lsencode
    does."""
    qwh = lt.GENERATORS["qwh"]({"order": 5, "holes": 9}, 2)
    balanced = lt.GENERATORS["qwh"]({"order": 6, "fraction": 0.5, "pattern": "balanced"}, 3)
    qcp = lt.GENERATORS["qcp"]({"order": 5, "fraction": 0.6}, 4)
    written = [_write(lt.write_file, f"s{suffix}", qwh.instance, qwh.secret),
               _write(lt.write_file, f"b{suffix}", balanced.instance),
               _write(lt.write_file, f"q{suffix}", qcp.instance, qcp.secret)]
    if suffix == ".pls":
        written.append("order 3\n   0  -1   2\n  -1  -1  -1\n   2   0  -1\n")
    return written


@cache
def latin_answer_seeds() -> list[str]:
    """An answer to ``answered()["latin"]`` as a ``.pls`` square and as solve's JSON."""
    answer = lt.GENERATORS["qwh"]({"order": 4, "holes": 6}, 1).secret
    return [lt.formats.format_pls(lt.Instance(4, answer.cells)),
            json.dumps({"status": "solved", "solution": answer.to_json()})]


@cache
def games_seeds() -> list[str]:
    board = gm.Board(4, 4, 4, True, (1, 2))
    tree = gm.GameTree(3, 2, "iid", -10, 10, 5)
    graph = nim_graph((1, 2))
    texts = [_write(gm.write_file, "b.game", board, known=0.0),
             _write(gm.write_file, "t.game", tree),
             _write(gm.write_file, "g.game", graph, known=1.0)]
    return texts + ["\n".join(texts)]


KNOWN_VALUES = "\n".join([
    "# game\tinstance\tvalue\tnote\tsource",
    "tictactoe\tempty 3x3 board, X to move\t=\t5478 reachable positions\tfolklore",
    "connect4\t4 wide x 4 high, empty\t=\t161029 legal positions\tTromp",
    "nim\theaps 1,2,3\t-\tnim-sum 0\tBouton",
    "nim\theaps 3,4\t+\tnim-sum 7\tBouton",
    "subtraction {1,2,3}\tone heap of n, take 1..3\t- iff n % 4 == 0\t\tfolklore",
]) + "\n"

DLX_SEEDS = [
    "| A simple example of color controls\nA B C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nX:0 Y:1\n"
    "B X:1\nC Y:1\n",
    "| toy\np q r | x y\np q x y:A\np r x:A y\np x:B\nq x:A\nr y:B\n",
    "1 2 3 s1 s2 s3 s4 s5 s6\n1 s1 s3\n1 s2 s4\n2 s1 s4\n2 s2 s5\n3 s1 s5\n3 s2 s6\n",
]

SUITE_SEEDS = [
    """name = "fuzz"
description = "a seed for the fuzzer"
instances = ["games/tree:depth=2,arity=2,seed=1"]
timeout = 10
mem = 3000
cores = 1
repeats = 2
seed = 7
abort_fraction = 0.5
early_abort = true
jobs = 2

[[solver]]
name = "dfs-restarts"
params = { restart_unit = 1000 }

[[solver]]
name = "norvig"
label = "norvig-plain"

[[ladder]]
name = "planted"
generator = "edgematch/planted"
params = { border = 2, inner = 3, hints = 0 }
vary = "n"
values = [3, 4]
seeds = [1, 2]
solvers = ["dfs-restarts"]

[[ladder]]
name = "files"
rungs = [
  { label = "a", instances = ["sudoku/planted:box=2,clues=6,seed=1..2"] },
  { label = "b", instances = ["tiles/random:rows=3,cols=3,seed=1"] },
]
""",
    """# comments and a table of solvers only
[[solver]]
name = "sat"
[[solver]]
name = "xcc"
params = {}
[[ladder]]
rungs = [ { instances = ["edgematch/planted:n=3,seed=1"] } ]
""",
]


# --- properties ---------------------------------------------------------------------------------
# Each takes the folder to write its files in and one drawn example; FAST and LONG run them.


def _same_after_writing(read: Callable[[Path], list[Generated]], write: Callable[..., None],
                        got: list[Generated], folder: Path, suffix: str) -> None:
    """What a reader accepts, its writer writes and the reader reads back as the same instance
    (and the same known solution)."""
    for g in got:
        back_path = folder / f"back{suffix}"
        write(back_path, g.instance, g.secret)
        (back,) = read(back_path)[:1]
        assert back.instance.instance_id == g.instance.instance_id
        if g.secret is not None and hasattr(g.secret, "to_json"):
            assert back.secret is not None
            assert back.secret.to_json(g.instance) == g.secret.to_json(g.instance)


def prop_emp(folder: Path, data: bytes, suffix: str = ".emp") -> None:
    got = read_or_refuse(em.read_file, folder / f"board{suffix}", data)
    if got is not None:
        (g,) = got
        assert g.instance.ncells == len(g.instance.pieces)
        _same_after_writing(em.read_file, em.write_file, got, folder, ".emp")


def prop_emp_solution(folder: Path, data: bytes) -> None:
    instance = answered()["emp"]
    got = read_or_refuse(answer_reader("emp"), folder / "answer.sol", data)
    if got is not None:
        assert (got.rows, got.cols) == (instance.rows, instance.cols)
        em.check(instance, got)  # any board it gives, the checker judges


def prop_tiles(folder: Path, data: bytes) -> None:
    path = folder / "list.txt"
    got = read_or_refuse(tl.read_file, path, data)
    assert tl.formats.sniff(path) is (got is not None)
    if got is not None:
        for g in got:
            back = folder / "back.tiles"
            tl.write_file(back, g.instance, g.secret)
            assert tl.read_file(back)[0].instance.instance_id == g.instance.instance_id


def prop_tiles_solution(folder: Path, data: bytes) -> None:
    instance = answered()["tiles"]
    got = read_or_refuse(answer_reader("tiles"), folder / "moves.sol", data)
    if got is not None:
        tl.check(instance, got)


def prop_sudoku(folder: Path, data: bytes) -> None:
    path = folder / "puzzles.txt"
    got = read_or_refuse(sd.read_file, path, data)
    assert sd.formats.sniff(path) is (got is not None)
    if got is not None:
        _same_after_writing(sd.read_file, sd.write_file, got, folder, ".sdk")


def prop_sudoku_line(folder: Path, text: str) -> None:
    try:
        puzzle = sd.parse_line(text)
    except InstanceError:
        return
    assert sd.parse_line(puzzle.to_line()) == puzzle


def prop_sudoku_solution(folder: Path, data: bytes) -> None:
    puzzle = answered()["sudoku"]
    got = read_or_refuse(answer_reader("sudoku"), folder / "grid.sol", data)
    if got is not None:
        sd.check(puzzle, got)


def prop_latin(folder: Path, data: bytes, suffix: str = ".pls") -> None:
    got = read_or_refuse(lt.read_file, folder / f"square{suffix}", data)
    if got is not None:
        (g,) = got
        assert g.instance.order ** 2 == len(g.instance.cells)
        _same_after_writing(lt.read_file, lt.write_file, got, folder, suffix)


def prop_latin_solution(folder: Path, data: bytes) -> None:
    square = answered()["latin"]
    got = read_or_refuse(answer_reader("latin"), folder / "square.sol", data)
    if got is not None:
        lt.check(square, got)


def prop_games(folder: Path, data: bytes) -> None:
    got = read_or_refuse(gm.read_file, folder / "games.game", data)
    if got is not None:
        for g in got:
            back = folder / "back.game"
            gm.write_file(back, g.instance, known=g.known_optimum)
            (again,) = gm.read_file(back)
            assert again.instance.instance_id == g.instance.instance_id
            assert again.known_optimum == g.known_optimum


def prop_known_values(folder: Path, data: bytes) -> None:
    got = read_or_refuse(gm.read_file, folder / "known.tsv", data)
    if got is not None:
        assert all(g.known_optimum in (-1.0, 0.0, 1.0) for g in got)


def prop_games_solution(folder: Path, data: bytes) -> None:
    graph = answered()["games"]
    got = read_or_refuse(answer_reader("games"), folder / "line.json", data)
    if got is not None:
        gm.check(graph, got)


def prop_dlx(folder: Path, data: bytes) -> None:
    got = read_or_refuse(xcc.read_dlx, folder / "problem.dlx", data)
    if got is not None and not xcc.dlx_problems(got, strict=False):
        back = folder / "back.dlx"
        xcc.write_dlx(got, back, strict=False)
        again = xcc.read_dlx(back)
        assert (again.primary, again.secondary) == (got.primary, got.secondary)
        assert again.named_options() == got.named_options()


# --- suites ---------------------------------------------------------------------------------------

_FAKE: dict[str, Generated] = {}


def _fake_ref(spec: str) -> InstanceRef:
    """A real small instance of the family a spec names (edge matching for files)."""
    family = spec.split("/", 1)[0] if spec.split("/", 1)[0] in _families() else "edgematch"
    if family not in _FAKE:
        _FAKE[family] = {
            "edgematch": lambda: em.GENERATORS["planted"]({"n": 2, "colors": 3}, 1),
            "sudoku": lambda: sd.GENERATORS["planted"]({"box": 2, "clues": 6}, 1),
            "tiles": lambda: tl.GENERATORS["random"]({"rows": 3, "cols": 3}, 1),
            "games": lambda: gm.GENERATORS["tree"]({"depth": 2, "arity": 2}, 1),
        }[family]()
    return InstanceRef(family, copy.copy(_FAKE[family]), spec)


def _families() -> tuple[str, ...]:
    return ("edgematch", "sudoku", "tiles", "games")


def stub_resolve(spec: Any, data_dir: Any = None) -> list[InstanceRef]:
    """``bench.plan.specs.resolve`` for the suite fuzzer: instant, so that a mutated number in a
    spec cannot start a huge generation (the generators are not what is fuzzed here). A string
    spec gives one instance, or the project's error when it holds '!' or a control character;
    anything else goes to the real resolve, as a suite would send it."""
    if not isinstance(spec, str):
        return real_resolve(spec, data_dir)
    if "!" in spec or not spec.isprintable():
        raise InstanceError(f"instance spec {spec!r}: no such file or generator (fuzz stub)")
    return [_fake_ref(spec)]


@cache
def _registry() -> dict[str, Any]:
    from bench.plan.registry import load_solvers

    return load_solvers()


def check_suite(suite: Suite) -> None:
    """A loaded suite holds values of the right types and ranges, and its solver entries
    resolve to configs or to the project's errors."""
    assert isinstance(suite.timeout, float) and 0 < suite.timeout < float("inf")
    for value in (suite.mem, suite.cores, suite.repeats):
        assert isinstance(value, int) and not isinstance(value, bool) and value >= 1
    assert isinstance(suite.seed, int) and not isinstance(suite.seed, bool)
    assert suite.jobs is None or (isinstance(suite.jobs, int) and suite.jobs >= 1)
    assert 0 < suite.abort_fraction <= 1 or suite.abort_fraction == float("inf")
    assert suite.ladders and all(isinstance(r.refs, list) for ld in suite.ladders
                                 for r in ld.rungs)
    for ladder in suite.ladders:
        assert ladder.solvers is None or all(isinstance(s, str) for s in ladder.solvers)
    for entry in suite.solvers:
        assert isinstance(entry["name"], str)
        assert isinstance(entry.get("params", {}), dict)
        assert isinstance(entry.get("label", ""), str)
    families = {ref.family for ld in suite.ladders for r in ld.rungs for ref in r.refs}
    try:
        configs = solver_configs(suite.solvers, _registry(), families=families)
    except (SuiteError, ParamError):
        return
    refs = sum(len(r.refs) for ld in suite.ladders for r in ld.rungs)
    if refs * len(configs) * suite.repeats <= 20_000:
        try:
            suite_module.build_tasks(suite, configs)
        except SuiteError as exc:  # a ladder's 'solvers' naming none of the suite's
            assert str(exc).startswith(f"{suite.path}: ")


def prop_suite(folder: Path, data: bytes) -> None:
    got = read_or_refuse(load_suite, folder / "suite.toml", data)
    if got is not None:
        check_suite(got)


def toml_value(value: Any) -> str:
    """A value as inline TOML (what the suite fuzzer writes back after changing a table)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return {"nan": "nan", "inf": "inf", "-inf": "-inf"}.get(repr(value), repr(value))
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + "}"


def toml_text(raw: dict[str, Any]) -> str:
    """A suite's tables as TOML: the keys first, then the arrays of tables ([[solver]])."""
    tables = {k: v for k, v in raw.items()
              if isinstance(v, list) and v and all(isinstance(x, dict) for x in v)}
    out = [f"{json.dumps(k)} = {toml_value(v)}" for k, v in raw.items() if k not in tables]
    for key, entries in tables.items():
        for entry in entries:
            out.append(f"\n[[{json.dumps(key)}]]")
            out += [f"{json.dumps(k)} = {toml_value(v)}" for k, v in entry.items()]
    return "\n".join(out) + "\n"


def _places(value: Any, at: tuple = ()) -> list[tuple]:
    """The path of every value inside a suite's tables (keys and list indices)."""
    found = [at] if at else []
    items = value.items() if isinstance(value, dict) else enumerate(value) \
        if isinstance(value, list) else ()
    for key, inner in items:
        found += _places(inner, (*at, key))
    return found


SUITE_KEYS_SEEN = sorted({"name", "params", "label", "generator", "vary", "values", "seeds",
                          "rungs", "instances", "solvers", *suite_module.SUITE_KEYS})
toml_values = st.recursive(
    st.one_of(st.integers(-3, 40), numbers, st.floats(), st.booleans(), st.text(max_size=8),
              st.sampled_from(["sat", "norvig", "edgematch/planted", "n", "seed", "x!",
                               "games/tree:depth=2", ""])),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.sampled_from(SUITE_KEYS_SEEN), inner, max_size=3),
    max_leaves=6)


@st.composite
def suite_tables(draw: st.DrawFn, seeds: list[str]) -> bytes:
    """A seed suite read as tables, with one to three values replaced (by a number, huge or
    negative, a float, nan, a string, a list, a table), removed or added, written back as
    TOML: past the syntax, into the checks of the keys and tables."""
    raw = copy.deepcopy(tomllib.loads(draw(st.sampled_from(seeds))))
    for _ in range(draw(st.integers(1, 3))):
        places = _places(raw)
        if not places:
            break
        where = draw(st.sampled_from(places))
        parent: Any = raw
        for key in where[:-1]:
            parent = parent[key]
        op = draw(st.sampled_from(["replace", "replace", "delete", "add"]))
        if op == "replace":
            parent[where[-1]] = draw(toml_values)
        elif op == "delete":
            del parent[where[-1]]
        elif isinstance(parent, dict):
            parent[draw(st.sampled_from(SUITE_KEYS_SEEN))] = draw(toml_values)
    return toml_text(raw).encode()


@pytest.fixture
def stubbed_resolve(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(suite_module, "resolve", stub_resolve)


# --- the table of properties ----------------------------------------------------------------------

EMP_WORDS = ["size", "colors", "pieces", "hints", "solution", "name", "border_colors",
             "inner_colors", "p", "p", "p", "h", "s", "target", "#", "# size 2 2"]
TILES_WORDS = ["size", "goal", "blank-first", "blank-last", "#", "# solution", "-", "?", "UDLR",
               "2", "3", "4"]
LATIN_WORDS = ["order", "order 3", "-1", "-1", "0", "1", "2", "3", "#", "# solution", "#  0"]
SUDOKU_WORDS = [".", "0", "1", "9", "A", "G", "P", "|", "-", "+", "#", "# solution",
                "------+------"]
GAMES_WORDS = ["board", "tree", "graph", "v", "v", "value", "+", "=", "-", "gravity", "free",
               "iid", "incremental", "#", "3-3-4", "1-2"]
TSV_WORDS = ["tictactoe", "connect4", "nim", "subtraction {1,2,3}", "4 wide x 4 high, empty",
             "heaps 1,2,3", "=", "+", "-", "- iff n % 4 == 0", "161029 legal positions", "\t",
             "\t", "\t"]
DLX_WORDS = ["|", "A", "B", "C", "X", "Y", "X:0", "Y:1", "A:1", "p", ":", "X:", "::"]
SOLUTION_WORDS = ["s", "s", "{", "}", '"cells":', '"solution":', "[", "]", "null", "U", "D", "L",
                  "R", '"moves":', '"grid":', '"value":', '"label":']
SUITE_WORDS = ["[[solver]]", "[[ladder]]", "name", "=", '"sat"', "timeout", "mem", "repeats",
               "params", "{", "}", "[", "]", "rungs", "instances", "generator", "vary", "values",
               '"edgematch/planted"', "seeds", "true", "nan", "inf", '"x"', ",", "."]

grids = st.text(alphabet=".0123456789ABCDEFGP!x", min_size=16, max_size=16) | st.text(
    alphabet=".0123456789ABCDEFGP!x", min_size=81, max_size=81)


def _cases() -> dict[str, tuple[Callable[..., None], st.SearchStrategy]]:
    emp_fixed = emp_seeds()
    _, sol = emp_solution_seeds()
    tiles, sudoku, games = tiles_seeds(), sudoku_seeds(), games_seeds()
    suites = SUITE_SEEDS + [p.read_text() for p in sorted(SUITES_DIR.glob("*.toml"))]
    latin, latin_json = latin_seeds(), latin_seeds(".json")
    every = (emp_fixed + tiles + sudoku + games + latin + latin_json + DLX_SEEDS
             + [KNOWN_VALUES] + SUITE_SEEDS)
    return {
        "emp-random": (prop_emp, as_bytes(junk_text(EMP_WORDS))),
        "emp-mutated": (prop_emp, mutated(emp_fixed, EMP_WORDS)),
        "pieces-mutated": (lambda f, d: prop_emp(f, d, ".pieces"),
                           mutated(emp_fixed[3:], EMP_WORDS)),
        "emp-solution": (prop_emp_solution, mutated(sol, SOLUTION_WORDS)
                         | as_bytes(junk_text(SOLUTION_WORDS))),
        "tiles-random": (prop_tiles, as_bytes(junk_text(TILES_WORDS))),
        "tiles-mutated": (prop_tiles, mutated(tiles, TILES_WORDS)),
        "tiles-solution": (prop_tiles_solution,
                           mutated(["UDLR", '{"solution": {"moves": "RDLU", "length": 4}}'],
                                   SOLUTION_WORDS) | as_bytes(junk_text(SOLUTION_WORDS))),
        "sudoku-random": (prop_sudoku, as_bytes(junk_text(SUDOKU_WORDS, grids))),
        "sudoku-mutated": (prop_sudoku, mutated(sudoku, SUDOKU_WORDS)),
        "sudoku-line": (prop_sudoku_line, st.one_of(grids, st.text(max_size=90),
                                                    junk_text(SUDOKU_WORDS, grids))),
        "sudoku-solution": (prop_sudoku_solution, mutated(
            [sudoku[0].split("# solution ")[1], '{"solution": {"box": 2, "grid": "'
             + sudoku[0].split("# solution ")[1].strip() + '"}}'], SOLUTION_WORDS)),
        "latin-random": (prop_latin, as_bytes(junk_text(LATIN_WORDS))),
        "latin-mutated": (prop_latin, mutated(latin, LATIN_WORDS)),
        "latin-json-mutated": (lambda f, d: prop_latin(f, d, ".json"),
                               mutated(latin_json, SOLUTION_WORDS + ['"family":', '"latin"',
                                                                     '"order":', "-1"])),
        "latin-solution": (prop_latin_solution, mutated(latin_answer_seeds(),
                                                        SOLUTION_WORDS + LATIN_WORDS)
                           | as_bytes(junk_text(SOLUTION_WORDS + LATIN_WORDS))),
        "games-random": (prop_games, as_bytes(junk_text(GAMES_WORDS))),
        "games-mutated": (prop_games, mutated(games, GAMES_WORDS)),
        "known-values": (prop_known_values, mutated([KNOWN_VALUES], TSV_WORDS)
                         | as_bytes(junk_text(TSV_WORDS))),
        "games-solution": (prop_games_solution, mutated(
            ['{"solution": {"value": 1, "moves": [1, 2]}}',
             json.dumps({"status": "solved", "solution": gm.Labelling(
                 [0] * 6, [-1] * 6, [-1] * 6).to_json()})], SOLUTION_WORDS)
                           | as_bytes(junk_text(SOLUTION_WORDS))),
        "dlx-random": (prop_dlx, as_bytes(junk_text(DLX_WORDS))),
        "dlx-mutated": (prop_dlx, mutated(DLX_SEEDS, DLX_WORDS)),
        "suite-mutated": (prop_suite, mutated(suites, SUITE_WORDS)),
        "suite-random": (prop_suite, as_bytes(junk_text(SUITE_WORDS))),
        "suite-tables": (prop_suite, suite_tables(suites)),
        "not-utf8": (prop_not_utf8, not_utf8(every)),
    }


def prop_not_utf8(folder: Path, data: bytes) -> None:
    """Bytes that are not UTF-8 are refused by every reader with the project's error."""
    readers: list[tuple[str, Callable[[Path], Any]]] = [
        ("x.emp", em.read_file), ("x.pieces", em.read_file), ("x.txt", tl.read_file),
        ("y.txt", sd.read_file), ("x.game", gm.read_file), ("x.tsv", gm.read_file),
        ("x.pls", lt.read_file), ("x.json", lt.read_file),
        ("x.dlx", xcc.read_dlx), ("x.toml", load_suite),
        *((f"{family}.sol", answer_reader(family)) for family in answered())]
    for name, read in readers:
        path = folder / name
        assert read_or_refuse(read, path, data) is None, name


CASES = _cases()


# --- the right line: a poisoned line is the one the error names -------------------------------

NOT_BREAKS = ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]


def _poison_last(line: str, poison: str, index: int = -1) -> str:
    body, mark, comment = line.partition("#")
    words = body.split()
    words[index] = poison
    return " ".join(words) + (" " + mark + comment if mark else "")


def _poison_games(line: str) -> str:
    return _poison_last(line, "x!", 1 if line.startswith("graph") else -1)


def _poison_grid(line: str) -> str:
    token, _, rest = line.partition(" ")
    middle = len(token) // 2
    return token[:middle] + "!" + token[middle + 1:] + (" " + rest if rest else "")


def _poison_field(line: str) -> str:
    fields = line.split("\t")
    fields[2] = "x!"
    return "\t".join(fields)


def _poison_cases() -> dict[str, tuple[list[str], str, Callable[[str], str], str,
                                        Callable[[Path], Any]]]:
    """Seeds, the lines that can be poisoned (a pattern), how, the suffix and the reader."""
    emp, sudoku = emp_seeds(), sudoku_seeds()
    return {
        "emp": (emp[:3], r"(p|h|s|size|colors|pieces|hints|solution) .*",
                lambda line: _poison_last(line, "x!"), ".emp", em.read_file),
        "pieces": (emp[3:], r"[0-9].*", lambda line: _poison_last(line, "x!"), ".pieces",
                   em.read_file),
        "tiles": (tiles_seeds(), r"[^#].*", lambda line: _poison_last(line, "x!"), ".txt",
                  tl.read_file),
        "sudoku": (sudoku[:2], r"[.0-9A-P]{16,}.*", _poison_grid, ".txt", sd.read_file),
        "games": (games_seeds(), r"(board|tree|graph|v) .*", _poison_games, ".game",
                  gm.read_file),
        "known": ([KNOWN_VALUES], r"[^#].*", _poison_field, ".tsv", gm.read_file),
        "latin": (latin_seeds(), r"(order|\s*-?[0-9]).*", lambda line: _poison_last(line, "x!"),
                  ".pls", lt.read_file),
        "dlx": (DLX_SEEDS, r"[^|].*", lambda line: _poison_last(line, "zz!:x:"), ".dlx",
                xcc.read_dlx),
        "suite": (SUITE_SEEDS, r"[^#].*", lambda line: "= =", ".toml", load_suite),
    }


POISON = _poison_cases()


@st.composite
def poisoned(draw: st.DrawFn, case: str) -> tuple[str, int]:
    """A seed with one line made wrong, and blank lines, comments and characters that are no
    line break (form feed, U+2028, ...) added before and after it; returns the text and the
    1-based number of the wrong line."""
    seeds, pattern, poison, _, _ = POISON[case]
    lines = draw(st.sampled_from(seeds)).split("\n")
    candidates = [i for i, line in enumerate(lines) if re.fullmatch(pattern, line)]
    target = draw(st.sampled_from(candidates))
    lines[target] = poison(lines[target])
    comment = {"dlx": "|", "suite": "#", "known": "#"}.get(case, "#")
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, len(lines)))
        tail = "" if case == "suite" else draw(st.sampled_from(NOT_BREAKS))
        lines.insert(at, draw(st.sampled_from(["", f"{comment} note{tail} more", "   "])))
        if at <= target:
            target += 1
    if case not in ("suite", "known") and draw(st.booleans()):
        lines[target] += draw(st.sampled_from(NOT_BREAKS))  # trailing space of another kind
    return "\n".join(lines), target + 1


def _run_poisoned(case: str, folder: Path, chosen: settings) -> None:
    _, _, _, suffix, read = POISON[case]

    @chosen
    @given(poisoned(case))
    def example(drawn: tuple[str, int]) -> None:
        text, line = drawn
        path = folder / f"poisoned{suffix}"
        path.write_text(text, encoding="utf-8", newline="")
        with pytest.raises((InstanceError, SuiteError)) as caught:
            read(path)
        message = str(caught.value)
        assert (f"{path}:{line}:" in message if case != "suite"
                else f"{path}:" in message and f"at line {line}," in message), (line, message)

    example()


@pytest.mark.parametrize("case", sorted(POISON))
def test_the_error_names_the_wrong_line(case: str, tmp_path: Path) -> None:
    _run_poisoned(case, tmp_path, settings(FAST, max_examples=60))


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(POISON))
def test_the_error_names_the_wrong_line_long(case: str, tmp_path: Path) -> None:
    _run_poisoned(case, tmp_path, LONG)


def _run(name: str, folder: Path, chosen: settings) -> None:
    prop, strategy = CASES[name]

    @chosen
    @given(strategy)
    def example(drawn: Any) -> None:
        prop(folder, drawn)

    example()


def _head(path: Path, lines: int = 15) -> str:
    return "\n".join(path.read_text().split("\n")[:lines]) + "\n"


SHARED = {  # family -> (the files under shared/data that seed it, the property)
    "edgematch": ("edgematch/clues/*.emp", prop_emp),
    "eternity2": ("edgematch/eternity2/*.emp", prop_emp),
    "tiles": ("tiles/*.txt", prop_tiles),
    "sudoku": ("sudoku/*.txt", prop_sudoku),
    "games": ("games/*.tsv", prop_known_values),
    "xcc": ("xcc/*.dlx", prop_dlx),
}


@pytest.mark.data
@pytest.mark.parametrize("family", sorted(SHARED))
def test_fuzz_shared_files(family: str, shared_data: Path, tmp_path: Path) -> None:
    """The reference files, mutated: the readers' real inputs (the long ones cut to their
    first lines, which keeps every example small)."""
    pattern, prop = SHARED[family]
    files = sorted(shared_data.glob(pattern))
    assert files, pattern
    whole = family in ("eternity2", "edgematch", "games")  # their counts must add up
    seeds = [f.read_text() if whole else _head(f) for f in files]
    for seed in seeds:  # the files as they are
        prop(tmp_path, seed.encode())

    @settings(FAST, max_examples=60)
    @given(mutated(seeds))
    def example(drawn: bytes) -> None:
        prop(tmp_path, drawn)

    example()


@pytest.mark.parametrize("name", sorted(CASES))
def test_fuzz(name: str, tmp_path: Path, stubbed_resolve: None) -> None:
    _run(name, tmp_path, FAST)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CASES))
def test_fuzz_long(name: str, tmp_path: Path, stubbed_resolve: None) -> None:
    _run(name, tmp_path, LONG)


# --- the bugs the fuzzing found, one input each ---------------------------------------------------

GRID_625 = ("." * 624) + "ı"  # a 25x25 grid whose last symbol is a dotless i, not an I
REFUSED = [  # (file name, reader, content, a part of the message, the line it names)
    ("a.txt", tl.read_file, "size ² 3\n", "is not an integer", 1),
    ("b.txt", tl.read_file, "0 1 2 3 4 5 6 7 ８\n", "is not an integer", 1),
    ("c.txt", tl.read_file, "# a\x0cb\x1cc\n0 1 2 3 4 5 6 x! 8\n", "is not an integer", 2),
    ("d.txt", tl.read_file, "size 100000 100000\n", "at most 65536 cells", 1),
    ("e.txt", sd.read_file, GRID_625 + "\n", "character 'ı'", 1),
    ("f.txt", sd.read_file, "# a\u2028b\n" + "." * 80 + "!\n", "'!'", 2),
    ("g.game", gm.read_file, "tree 1000000000000 2 iid -1 1 1\n", "tree depth", 1),
    ("h.game", gm.read_file, "tree 30 2 iid -1 1 1\n", "leaves", 1),
    ("i.game", gm.read_file, "board 100000 100000 3 free\n", "at most 4096 cells", 1),
    ("j.game", gm.read_file, "graph 2 0\nv 0 257 0 1\nv 1 1 1\n", "(owner 257)", 2),
    ("k.game", gm.read_file, f"graph 2 0\nv 0 1 0 {2**32 + 1}\nv 1 1 1\n", "a move leads outside",
     2),
    ("l.game", gm.read_file, "graph 2 7\nv 0 1 0 1\nv 1 2 1\n", "start 7", 1),
    ("m.game", gm.read_file, "board 3 3 3 free ٣\n", "not an integer", 1),
    ("n.tsv", gm.read_file, "subtraction {1,2,3}\tx\t- iff n % 0 == 0\n", "K from 1", 1),
    ("o.tsv", gm.read_file, "nim\theaps 99999999\t+\n", "moves to build", 1),
    ("p.tsv", gm.read_file, "connect4\t٣ wide x 4 high, empty\t=\n", "expected 'W wide", 1),
    ("q.tsv", gm.read_file, "#\nconnect4\t1 wide x 1 high, empty\t=\n", "does not fit", 2),
    ("r.tsv", gm.read_file, "subtraction {1,,2}\tx\t- iff n % 4 == 0\n", "amounts taken", 1),
    ("s.dlx", xcc.read_dlx, "A B\n| a\x0cnote\nA zz\n", "unknown item 'zz'", 3),
]


@pytest.mark.parametrize("name, read, text, says, line", REFUSED,
                         ids=[r[0] for r in REFUSED])
def test_found_bugs_are_refused_with_the_line(name: str, read: Callable[[Path], Any],
                                              text: str, says: str, line: int,
                                              tmp_path: Path) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8", newline="")
    with pytest.raises(InstanceError) as caught:
        read(path)
    assert says in str(caught.value) and f"{path}:{line}:" in str(caught.value)


def test_a_graph_may_hold_blank_lines_and_comments(tmp_path: Path) -> None:
    path = tmp_path / "g.game"
    path.write_text("graph 2 0\n\n# the start\nv 0 1 0 1\n   \nv 1 2 1\nvalue +\n")
    (got,) = gm.read_file(path)
    assert got.instance.n == 2 and got.known_optimum == 1.0


SOLUTIONS_REFUSED = [  # (reader of a solution for some instance, content)
    ("emp", '{"rows": 3, "cols": 3, "cells": [[0, 0, 1' + "0" * 5000 + ", 0]]}"),
    ("tiles", '{"a": ' * 100_000),
    ("sudoku", '{"a": ' * 100_000),
    ("sudoku", '{"solution": {"box": [2], "grid": "1234341221434321"}}'),
    ("sudoku", '{"solution": {"box": 1e400, "grid": "1234341221434321"}}'),
    ("games", '{"solution": {"value": [1]}}'),
    ("games", '{"solution": {"value": Infinity}}'),
    ("games", '{"a": ' * 100_000),
]


@pytest.mark.parametrize("family, text", SOLUTIONS_REFUSED,
                         ids=[f"{f}-{i}" for i, (f, _) in enumerate(SOLUTIONS_REFUSED)])
def test_found_bugs_in_solution_files(family: str, text: str, tmp_path: Path) -> None:
    path = tmp_path / "answer.json"
    path.write_text(text)
    with pytest.raises(InstanceError, match=re.escape(str(path))):
        answer_reader(family)(path)


# --- suites: the key or table at fault, the line of a TOML error, a bad instance file ------------

TREE = "instances = ['games/tree:depth=1,arity=2']\n"  # one small instance
SUITE_REFUSED = [  # (the suite's text, a part of the message)
    ('timeout = "soon"\n' + TREE, "'timeout' must be a float"),
    ("timeout = nan\n" + TREE, "'timeout' must be a float"),
    ("timeout = 0\n" + TREE, "'timeout' must be at least"),
    ("mem = inf\n" + TREE, "'mem' must be a int"),
    ("cores = true\n" + TREE, "'cores' must be a int"),
    ("repeats = 1000000000\n" + TREE, "'repeats' 1000000000 is more than 1000"),
    ("ladder = 5\n", "'ladder' is a list of [[ladder]] tables"),
    ("instances = [1]\n", "'instances' is a list of instance specs"),
    ("[[solver]]\nname = 5\n[[ladder]]\nrungs = []\n", "[[solver]] 1: needs a name"),
    ("[[solver]]\nname = 'sat'\nparams = 3\n", "[[solver]] 1 (sat): 'params' is a table"),
    ("[[ladder]]\nname = 'up'\ngenerator = 'edgematch/planted'\nvary = 'n'\nvalues = [3]\n"
     "seeds = 'ab'\n", "ladder 'up': 'seeds' is a list of integers"),
    ("[[ladder]]\nname = 'up'\ngenerator = 'edgematch/planted'\nvary = 'n'\nvalues = [[3]]\n",
     "ladder 'up': 'values' holds numbers"),
    ("[[ladder]]\nname = 'up'\nrungs = [3]\n", "ladder 'up': rung 1 has no 'instances'"),
    ("[[ladder]]\nname = 'up'\nrungs = [{instances = 'x'}]\n",
     "ladder 'up': rung 1: 'instances' is a list"),
    ("name = 'x'\n\n[[solver]]\nname = = 'sat'\n", "at line 4,"),
    ("instances = ['edgematch/planted:n=-3']\n", "edgematch/planted: n=-3 is negative"),
    ('plugins = ["a\\u0000b"]\n' + TREE, "plugin file 'a\\x00b'"),
]


@pytest.mark.parametrize("text, says", SUITE_REFUSED, ids=range(len(SUITE_REFUSED)))
def test_a_bad_suite_names_the_file_and_the_key(text: str, says: str, tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(SuiteError) as caught:
        load_suite(str(path))
    assert str(caught.value).startswith(f"{path}: ") and says in str(caught.value)


def test_a_suite_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_bytes(b"name = '\xff'\n")
    with pytest.raises(SuiteError, match=re.escape(f"{path}: not UTF-8")):
        load_suite(str(path))


def test_a_suite_naming_a_bad_instance_file_says_both_files(tmp_path: Path) -> None:
    board = tmp_path / "bad.emp"
    board.write_text("size 2 2\ncolors 3\np 1 0 0 1 x\n")
    suite = tmp_path / "s.toml"
    suite.write_text(f'[[ladder]]\nname = "files"\nrungs = [{{ instances = ["{board}"] }}]\n')
    with pytest.raises(SuiteError) as caught:
        load_suite(str(suite))
    assert str(caught.value).startswith(f"{suite}: ") and f"{board}:3:" in str(caught.value)
