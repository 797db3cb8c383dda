"""Property-based fuzzing of generator parameters and instance specs (issue 8, "Bad input").

Every registered generator of every family gets random parameter dictionaries: its own names
with values that are mostly small and valid (so that the generator gets to work) and sometimes
junk (huge, negative, zero, floats, bools, None, strings, non-ASCII digits), plus names it does
not have. It either generates an instance (the same one twice) or refuses with
``InstanceError``; any other exception is a bug, and so is a hang (a deadline per example).
Random spec strings go to ``bench.plan.specs.resolve`` in the same way: generator specs with ranges,
alternatives and repeated keys, file specs with ``FILE:N`` and ``FILE:N..M``, globs, missing
files, ``{data_dir}`` and junk; a refused generator spec quotes the spec.

Valid values are drawn where generation is cheap (small boards, box 2 or 3, short walks): the
generators' own limits, where generation takes seconds, are measured by ``test_the_limits_
generate_within_seconds`` (slow). Each bug the fuzzing found has its own one-input test below.

Every property runs derandomized with ``FAST`` settings; the ``_long`` variants run many more
examples (marked slow).
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import instances
import instances.edgematch as em
import instances.games as gm
import instances.sudoku as sd
import instances.tiles as tl
from bench.plan.specs import MAX_SPEC_INSTANCES, expand_values, resolve
from instances.common import Generated, InstanceError, read_text
from instances.games.generators import board_graph_bound
from instances.games.graphs import board_graph
from instances.games.model import Board
from instances.sudoku.model import digit_of
from instances.tiles.generators import scramble_walk

from helpers import ROOT

FAST = settings(max_examples=150, deadline=2000, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.filter_too_much])
LONG = settings(FAST, max_examples=3000)

GENERATORS = sorted(f"{family}/{name}" for family, module in instances.families().items()
                    for name in module.generators)

# --- values -----------------------------------------------------------------------------------

words = st.sampled_from
small_moves = st.lists(st.integers(0, 9), max_size=6).map(lambda ms: "-".join(map(str, ms)))
columns = st.lists(st.integers(0, 4), max_size=4).map(lambda ms: "-".join(map(str, ms)))
heaps = st.lists(st.integers(0, 5), min_size=1, max_size=4).map(
    lambda hs: "-".join(map(str, hs)))

#: Valid values where generation is cheap (a few milliseconds to ~50 ms), per generator and
#: parameter. Integer pools are intervals, so that a range drawn inside one stays inside it.
CHEAP: dict[str, dict[str, st.SearchStrategy[Any]]] = {
    "edgematch/planted": {"n": st.integers(2, 6), "rows": st.integers(2, 6),
                          "cols": st.integers(2, 6), "border": st.integers(1, 6),
                          "inner": st.integers(1, 8), "colors": st.integers(2, 12),
                          "hints": st.integers(0, 5)},
    "sudoku/planted": {"box": st.integers(2, 3), "clues": st.integers(0, 81),
                       "min_guesses": st.just(0)},
    "tiles/scramble": {"rows": st.integers(2, 5), "cols": st.integers(2, 5),
                       "steps": st.integers(0, 200), "goal": words(tl.GOALS)},
    "tiles/random": {"rows": st.integers(2, 6), "cols": st.integers(2, 6),
                     "goal": words(tl.GOALS)},
    "games/tictactoe": {"moves": small_moves, "form": words(["rules", "graph"])},
    "games/connect4": {"width": words([4, 4, 3]), "height": st.integers(1, 3),
                       "moves": columns, "form": words(["rules", "graph"])},
    "games/mnk": {"width": st.integers(1, 3), "height": st.integers(1, 3),
                  "k": st.integers(1, 4), "gravity": st.booleans(), "moves": small_moves,
                  "form": words(["rules", "graph"])},
    "games/nim": {"heaps": heaps},
    "games/subtraction": {"n": st.integers(0, 200), "take": heaps},
    "games/random-graph": {"positions": st.integers(1, 2000), "degree": st.integers(0, 10),
                           "targets": st.floats(0, 0.5), "dead_ends": st.floats(0, 1)},
    "latin/qwh": {"order": st.integers(2, 12), "holes": st.integers(0, 144),
                  "fraction": st.floats(0, 1), "pattern": words(["random", "balanced"]),
                  "mix": st.integers(0, 200)},
    # qcp: at most half the cells given (beyond about 60% given it retries 200 times, seconds)
    "latin/qcp": {"order": st.integers(2, 8), "holes": st.integers(32, 64),
                  "fraction": st.floats(0.5, 1), "pattern": words(["random", "balanced"])},
    "games/tree": {"depth": st.integers(0, 6), "arity": st.integers(1, 4),
                   "values": words(["iid", "incremental"]), "low": st.integers(-1000, 1000),
                   "high": st.integers(-1000, 1000)},
}

#: Names always given: Connect Four's default 7 x 6 with a small side builds graphs of up to
#: 300,000 positions, in seconds.
GIVEN = {"games/connect4": ("width", "height")}

#: Integers that no limit admits where they would cost time: below zero, zero, and from 10^8 up
#: (only seeds and tree leaf values take those, and cheaply).
junk_ints = st.one_of(st.integers(-1000, 0), st.integers(10**8, 2**70),
                      words([2**31, 2**32 + 1, 2**63 - 1, 2**63, 10**12, 10**18, 10**40]),
                      words([5000, -5000]).map(lambda d: (1 if d > 0 else -1) * 10**abs(d)))
WEIRD = ["", " ", "-", "+", "x", "-0", "+7", "1.5", "4.0", "1e3", "1e999", "nan", "inf", "-inf",
         "0x1F", "1_000", "٣", "１２", "²", "ı", "é", "\u00a0", "\x00", "true", "True", "None",
         "1-", "-1-2", "1--2", "3-3-4", "1..3", "a|b", "9" * 40, "9" * 5000, "iid ", "graph\n"]
NUMERIC_TEXT = re.compile(r"\s*[+-]?[0-9.eE+-]+\s*")
junk_text = st.one_of(words(WEIRD), st.text(max_size=8).filter(
    lambda s: not NUMERIC_TEXT.fullmatch(s)), junk_ints.filter(lambda n: abs(n) < 10**4000)
    .map(str))
junk_floats = st.floats().filter(lambda x: not (x.is_integer() and abs(x) < 1e8))
junk = st.one_of(junk_ints, junk_floats, st.booleans(), st.none(), junk_text)
UNKNOWN = ["size", "N", "Box", "seed", "seed2", "", " n", "é", "colours", "boxes", "\x00"]


@st.composite
def parameters(draw: st.DrawFn, generator: str) -> dict[str, Any]:
    """A parameter dict: each known name absent (its default), cheap and valid (maybe as text
    or an integral float), or junk (at most two junk names); maybe an unknown name."""
    pools = CHEAP[generator]
    bad = draw(st.sets(words(sorted(pools)), max_size=2))
    params: dict[str, Any] = {}
    for name in sorted(pools):
        if name not in GIVEN.get(generator, ()) and not draw(st.booleans()):
            continue
        if name in bad:
            params[name] = draw(junk)
        else:
            value = draw(pools[name])
            form = draw(st.integers(0, 5))
            if form == 0 and isinstance(value, int) and not isinstance(value, bool):
                value = str(value) if draw(st.booleans()) else float(value)
            params[name] = value
    if draw(st.integers(0, 7)) == 0:
        params[draw(words(UNKNOWN))] = draw(st.one_of(st.integers(0, 5), junk))
    return params


seeds = st.one_of(st.integers(0, 40), st.integers(0, 40), junk_ints)


def generate_or_refuse(generator: str, params: dict[str, Any], seed: int) -> Generated | None:
    family, name = generator.split("/")
    make = instances.family(family).generators[name]
    try:
        got = make(params, seed)
    except InstanceError as exc:
        assert str(exc)
        return None
    assert isinstance(got, Generated)
    assert got.instance.instance_id == make(params, seed).instance.instance_id  # pure
    assert all(isinstance(v, str | int | float | bool) for v in got.params.values()), got.params
    return got


def fuzz_generator(generator: str, config: settings) -> None:
    made: list[Generated] = []

    @config
    @given(parameters(generator), seeds)
    def run(params: dict[str, Any], seed: int) -> None:
        got = generate_or_refuse(generator, params, seed)
        if got is not None:
            made.append(got)

    run()
    assert len(made) >= 10, "the strategy hardly reaches the generator's work"


def test_every_generator_is_fuzzed() -> None:
    assert sorted(CHEAP) == GENERATORS
    for generator in GENERATORS:
        family, name = generator.split("/")
        declared = set(instances.family(family).generators[name].params)
        assert set(CHEAP[generator]) == declared, generator


@pytest.mark.parametrize("generator", GENERATORS)
def test_fuzz_generator(generator: str) -> None:
    fuzz_generator(generator, FAST)


@pytest.mark.slow
@pytest.mark.parametrize("generator", GENERATORS)
def test_fuzz_generator_long(generator: str) -> None:
    fuzz_generator(generator, LONG)


# --- specs ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def spec_files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with small files of each family (three puzzles in one), a file no family reads,
    an empty one and a folder named like a file."""
    folder = tmp_path_factory.mktemp("specs")
    (folder / "puzzles.txt").write_text("".join(
        sd.GENERATORS["planted"]({"box": 2, "clues": 6}, seed).instance.to_line() + "\n"
        for seed in (1, 2, 3)))
    board = em.GENERATORS["planted"]({"n": 3}, 1)
    em.write_file(folder / "board.emp", board.instance, board.secret)
    tl.write_file(folder / "tiles.txt", tl.GENERATORS["random"]({"rows": 3, "cols": 3}, 1)
                  .instance)
    gm.write_file(folder / "nim.game", gm.GENERATORS["nim"]({"heaps": "1-2"}).instance)
    (folder / "notes.dat").write_text("nothing\n")
    (folder / "empty.txt").write_text("")
    (folder / "dir.emp").mkdir()
    return folder


FILES = ["puzzles.txt", "board.emp", "tiles.txt", "nim.game", "notes.dat", "empty.txt",
         "dir.emp", "missing.emp", "*.txt", "*.emp", "*.nothing", "[", "p*zzles.txt", "*"]
index_text = st.one_of(st.integers(-1, 5).map(str), words(["0", "1..3", "2..1", "3..99",
                                                           "1..1000000000000", "9" * 30, "٣"]))


@st.composite
def value_text(draw: st.DrawFn, pool: st.SearchStrategy[Any], many: bool) -> str:
    """A spec value: a cheap valid value; when ``many``, a range of up to three values inside
    the pool (or an empty one) or two alternatives; a range too big to expand; or junk."""
    kind = draw(st.integers(0, 9))
    if kind <= 5 or (kind == 6 and not many):
        return str(draw(pool)).lower()
    if kind == 6:
        a, b = draw(pool), draw(pool)
        if not (isinstance(a, int) and isinstance(b, int)) or isinstance(a, bool):
            return f"{a}|{b}".lower()
        if abs(b - a) > 2:  # a wide range is as cheap as a narrow one to check, not to make
            b = a + (2 if b > a else -2)
        return f"{min(a, b)}..{max(a, b)}" if draw(st.integers(0, 3)) else f"{b}..{a}"
    if kind == 7:
        return draw(words([f"1..{MAX_SPEC_INSTANCES + 1}", "1..1000000000000", "-5..-9",
                           "0..10**12", f"1..{10**40}", "1|2|3..100001"]))
    return draw(junk_text).replace(",", ";")


@st.composite
def generator_spec(draw: st.DrawFn) -> str:
    """``family/generator:key=value,...``: the names right or wrong, known and unknown keys (a
    key may repeat), at most one of them with several values, maybe an item without '='."""
    generator = draw(words(GENERATORS))
    family, name = generator.split("/")
    if draw(st.integers(0, 7)) == 0:
        family = draw(words(["nope", "Sudoku", "games ", "tiles", "edgematch"]))
    if draw(st.integers(0, 7)) == 0:
        name = draw(words(["plant", "x", "random_graph", "planted", "tree"]))
    pools = {**CHEAP[generator], "seed": st.integers(0, 30)}
    key = st.one_of(words(sorted(pools)), words(sorted(pools)), words(sorted(pools)),
                    words(UNKNOWN))
    keys = [*GIVEN.get(generator, ()), *draw(st.lists(key, max_size=4))]
    many = draw(st.integers(-1, len(keys) - 1))
    items = [f"{key}={draw(value_text(pools.get(key, st.integers(0, 5)), i == many))}"
             for i, key in enumerate(keys)]
    if draw(st.integers(0, 7)) == 0:
        items.append(draw(words(["novalue", "=3", "a==b", " ", ""])))
    args = ",".join(items)
    return f"{family}/{name}" + (f":{args}" if args or draw(st.booleans()) else "")


@st.composite
def file_spec(draw: st.DrawFn, folder: Path) -> str:
    base = draw(st.one_of(st.just(str(folder)), st.just("{data_dir}")))
    spec = f"{base}/{draw(words(FILES))}"
    if draw(st.booleans()):
        spec += ":" + draw(index_text)
    return spec


def specs(folder: Path) -> st.SearchStrategy[str]:
    return st.one_of(generator_spec(), generator_spec(), file_spec(folder),
                     st.text(max_size=30), words(["x" * 5000, "a\x00b", "a\x00b:3", "", ":",
                                                  "sudoku/", "/planted", "{data_dir}"]))


def resolve_or_refuse(spec: str, folder: Path) -> list[Any] | None:
    try:
        refs = resolve(spec, data_dir=folder)
    except InstanceError as exc:
        full = spec.replace("{data_dir}", str(folder))
        generator_form = re.fullmatch(r"(edgematch|sudoku|tiles|games)/[a-z0-9_-]+(:.*)?", full,
                                      re.DOTALL)
        if generator_form:
            assert f"instance spec {full!r}" in str(exc), (full, str(exc))
        return None
    assert len(refs) <= MAX_SPEC_INSTANCES
    assert all(isinstance(ref.instance_id, str) for ref in refs)
    return refs


def fuzz_specs(folder: Path, config: settings) -> None:
    resolved: list[list[Any]] = []

    @config
    @given(specs(folder))
    def run(spec: str) -> None:
        refs = resolve_or_refuse(spec, folder)
        if refs:
            resolved.append(refs)

    run()
    assert len(resolved) >= 10, "the strategy hardly reaches the generators and readers"


def test_fuzz_specs(spec_files: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(spec_files)  # a junk glob like '*' looks here, not at the project
    fuzz_specs(spec_files, FAST)


@pytest.mark.slow
def test_fuzz_specs_long(spec_files: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(spec_files)
    fuzz_specs(spec_files, LONG)


def test_file_specs_resolve(spec_files: Path) -> None:
    """The spec fuzzing's files are readable: its successes are real ones."""
    assert len(resolve(f"{spec_files}/puzzles.txt")) == 3
    assert len(resolve("{data_dir}/puzzles.txt:2..3", spec_files)) == 2
    assert [r.family for r in resolve(f"{spec_files}/*.emp:1")] == ["edgematch"]
    with pytest.raises(InstanceError, match="asks for instance 4, the file has 3"):
        resolve(f"{spec_files}/puzzles.txt:4")
    with pytest.raises(InstanceError, match="dir.emp': is a folder, not a file"):
        resolve(f"{spec_files}/dir.emp")
    with pytest.raises(InstanceError, match="matches no file"):
        resolve(f"{spec_files}/dir.e?p")


# --- the bugs the fuzzing found, one input each ----------------------------------------------


def refused(spec: str, *says: str, within: float = 5.0) -> str:
    """The message of the InstanceError ``resolve(spec)`` raises, within ``within`` seconds of
    this process's CPU time (each of these once hung or ran out of memory; CPU time, so that a
    machine busy with other work does not fail it: a bounded search such as 150 generator
    attempts takes its CPU seconds whatever the load), checked to name the spec and
    ``says``."""
    start = time.process_time()
    with pytest.raises(InstanceError) as info:
        resolve(spec)
    assert time.process_time() - start < within, spec
    message = str(info.value)
    assert f"instance spec {spec!r}" in message, message
    for words_ in says:
        assert words_ in message, message
    return message


@pytest.mark.parametrize(("spec", "says"), [
    ("sudoku/planted:clues=x", "clues='x' is not an integer"),
    ("tiles/scramble:steps=x", "steps='x' is not an integer"),
    ("games/tree:arity=x", "arity='x' is not an integer"),
    ("edgematch/planted:seed=x", "seed='x' is not an integer"),
    ("sudoku/planted:seed=x", "seed='x'"),
    ("tiles/random:seed=x", "seed='x'"),
    ("games/nim:seed=x", "seed='x'"),
    ("games/random-graph:seed=-1", "seed=-1 is negative"),  # numpy refuses negative seeds
    ("games/tree:seed=1.5", "seed=1.5 is not an integer"),
    ("games/random-graph:targets=x", "targets='x' is not a number"),
    ("games/mnk:gravity=1", "gravity=1 is not true or false"),
    ("games/tree:values=IID", "values='IID' is not one of them"),
    ("games/nim:heaps=²", "heaps='²'"),  # '²'.isdigit() is True, int('²') a ValueError
    ("games/tictactoe:moves=" + "9" * 5000, "moves="),  # int() of 5,000 digits: ValueError
    ("edgematch/planted:n=٣", "n='٣' is not an integer"),  # int('٣') is 3
    ("edgematch/planted:n=1_0", "n='1_0' is not an integer"),
    ("edgematch/planted:n=true", "n=True is not an integer"),  # a bool is not an int
])
def test_a_bad_value_is_refused_naming_the_spec_and_parameter(spec: str, says: str) -> None:
    refused(spec, says)


@pytest.mark.parametrize(("spec", "says"), [
    ("edgematch/planted:n=1000000", "n=1000000 is too large (parameter 'n' takes an integer "
                                    "in 2..32)"),
    ("sudoku/planted:min_guesses=99999", "in 150 attempts"),
    ("sudoku/planted:box=5,clues=0", "clues=0 is too small"),
    ("sudoku/planted:box=4,clues=50", "in 106..256"),
    ("tiles/random:cols=1000000000", "cols=1000000000 is too large"),
    ("tiles/scramble:steps=1000000000000", "in 0..1000000"),
    ("games/tree:depth=1000000000000", "depth=1000000000000 is too large"),
    ("games/tree:depth=27,arity=2", "134,217,728 leaves"),
    ("games/connect4:width=100000,height=100000", "width=100000 is too large"),
    ("games/connect4:form=graph", "more than the 300,000 a graph is built for"),
    ("games/mnk:width=4,height=4,form=graph", "10,165,779 positions"),
    ("games/random-graph:positions=1000000000000", "positions=1000000000000 is too large"),
    ("games/random-graph:positions=1000000,degree=1000", "positions x degree <= 50,000,000"),
    ("games/nim:heaps=1000000", "more than the 3,000,000"),
    ("games/nim:heaps=" + "-".join(["1"] * 40), "more than the 3,000,000"),
    ("games/subtraction:n=1000000000000", "n=1000000000000 is too large"),
    ("games/subtraction:n=1000000,take=1-2", "more than the 3,000,000"),
])
def test_a_value_that_would_hang_is_refused_at_once(spec: str, says: str) -> None:
    refused(spec, says)


def test_a_large_amount_to_take_is_a_game_without_moves() -> None:
    """Whether the amounts are 1..t (the game's known value) was checked by building the list
    1..max(take): take=100000000 asked for a list of 10^8 numbers (a MemoryError under a limit)."""
    start = time.perf_counter()
    (ref,) = resolve("games/subtraction:n=5,take=100000000")
    assert time.perf_counter() - start < 1.0
    assert ref.instance.n == 1 and ref.generated.known_optimum is None
    assert resolve("games/subtraction:n=8,take=3-1-2")[0].generated.known_optimum == -1.0
    assert resolve("games/subtraction:n=7,take=1-2-3")[0].generated.known_optimum == 1.0


@pytest.mark.parametrize(("spec", "says"), [
    ("edgematch/planted:seed=1..1000000000000", "more than 100,000 values"),
    ("edgematch/planted:n=2..5,seed=1..50000", "'1..50000' expands to more than 25,000"),
    ("edgematch/planted:seed=1|2|3..100001", "more than 100,000 values"),
    ("edgematch/planted:seed=5..1", "the range 5..1 is empty"),
    ("edgematch/planted:seed=1,seed=2", "'seed' is given twice"),
    ("edgematch/planted:seed=1..2,n=1..70000", "expands to more than 50,000 values"),
])
def test_a_spec_expands_to_at_most_a_bounded_grid(spec: str, says: str) -> None:
    refused(spec, says, within=1.0)


def test_expand_values_refuses_before_building() -> None:
    assert expand_values("1..3|7") == [1, 2, 3, 7]
    assert expand_values("-2..-1") == [-2, -1]
    assert len(expand_values(f"1..{MAX_SPEC_INSTANCES}")) == MAX_SPEC_INSTANCES
    with pytest.raises(InstanceError, match="more than 100,000"):
        expand_values(f"0..{MAX_SPEC_INSTANCES}")
    with pytest.raises(InstanceError, match="more than 10 values"):
        expand_values("1|2|3|4|5|6|7|8|9|10|11", limit=10)
    assert expand_values("٣..٥") == ["٣..٥"]  # not a range: a string the generator refuses


@pytest.mark.parametrize("spec", ["x" * 5000, "x/" * 3000 + "a.emp:2", "a\x00b.emp",
                                  "a\x00b.emp:3", "x" * 5000 + "*"])
def test_a_spec_that_cannot_be_a_file_name_is_refused(spec: str) -> None:
    """Path.exists() raises OSError for a name too long for the system (it was let through)."""
    with pytest.raises(InstanceError, match="no such file|matches no file"):
        resolve(spec)


def test_read_text_is_utf8_whatever_the_locale(tmp_path: Path) -> None:
    """A UTF-8 file reads the same under the C locale (ASCII) as under a UTF-8 one; before, the
    locale's encoding refused it."""
    path = tmp_path / "named.txt"
    line = sd.GENERATORS["planted"]({"box": 2, "clues": 6}, 1).instance.to_line()
    path.write_bytes(f"# grille de Léa — ①\n{line}\n".encode())
    code = ("import locale; from instances.common import read_text; "  # ASCII: argv is decoded
            "from instances.sudoku import read_file; "  # with the locale's encoding too
            f"assert read_text({str(path)!r}).startswith('# grille de L\\xe9a'); "
            f"print(locale.getpreferredencoding(False), len(read_file({str(path)!r})))")
    env = {**os.environ, "LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0",
           "PYTHONCOERCECLOCALE": "0", "PYTHONPATH": str(ROOT / "tests")}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    encoding, count = done.stdout.split()
    assert encoding != "UTF-8" and count == "1"  # the C locale really was in force


def test_read_text_refuses_other_encodings_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "latin.txt"
    path.write_bytes("# Léa\n".encode("latin-1"))
    with pytest.raises(InstanceError, match=re.escape(f"{path}: cannot read")):
        read_text(path)
    with pytest.raises(InstanceError, match="cannot read"):
        read_text(tmp_path / "a\x00b")


def test_digit_of_is_ascii_only() -> None:
    assert digit_of("I", 25) == 18 and digit_of("i", 25) == 18
    assert digit_of("ı", 25) is None  # 'ı'.upper() == 'I'
    assert digit_of("İ", 25) is None
    assert digit_of(".", 9) == 0 and digit_of("0", 9) == 0 and digit_of("9", 9) == 9
    assert digit_of("", 9) is None and digit_of("12", 9) is None and digit_of("٣", 9) is None
    line = "ı" + "." * 624
    with pytest.raises(InstanceError, match="'ı' at position 1"):
        sd.Solution.from_json({"box": 5, "grid": line})


# --- the limits ------------------------------------------------------------------------------


@pytest.mark.parametrize(("generator", "params"), [
    ("edgematch/planted", {"n": 32}), ("edgematch/planted", {"rows": 2, "cols": 32}),
    ("edgematch/planted", {"n": 3, "border": 1000, "inner": 1000}),
    ("tiles/random", {"rows": 32, "cols": 32}), ("tiles/scramble", {"rows": 5, "cols": 5}),
    ("games/tree", {"depth": 64, "arity": 1}), ("games/tree", {"depth": 12, "arity": 4}),
    ("games/tree", {"depth": 1, "arity": 2**26, "low": -10**12, "high": 10**12}),
    ("games/connect4", {"width": 32, "height": 32, "moves": "0-0-31"}),
    ("games/mnk", {"width": 3, "height": 4, "k": 3, "form": "graph"}),
])
def test_values_at_the_limits_generate(generator: str, params: dict[str, Any]) -> None:
    family, name = generator.split("/")
    assert instances.family(family).generators[name](params, 2**63 - 1).instance.instance_id


def test_an_unreachable_difficulty_gives_up_after_its_attempts() -> None:
    with pytest.raises(InstanceError, match="needed 100000 guesses in 1000 attempts"):
        sd.GENERATORS["planted"]({"box": 2, "clues": 0, "min_guesses": 100_000}, 1)


@pytest.mark.parametrize(("generator", "params", "name"), [
    ("edgematch/planted", {"n": 33}, "n"), ("edgematch/planted", {"inner": 1001}, "inner"),
    ("edgematch/planted", {"colors": 2001}, "colors"),
    ("tiles/random", {"cols": 33}, "cols"), ("tiles/scramble", {"steps": 10**6 + 1}, "steps"),
    ("games/tree", {"depth": 65, "arity": 1}, "depth"),
    ("games/tree", {"high": 10**12 + 1}, "high"), ("games/connect4", {"height": 33}, "height"),
    ("games/random-graph", {"positions": 10**7 + 1}, "positions"),
    ("games/random-graph", {"degree": 1001}, "degree"),
    ("games/random-graph", {"targets": 0.51}, "targets"),
    ("sudoku/planted", {"min_guesses": 100_001}, "min_guesses"),
    ("sudoku/planted", {"box": 4, "clues": 105}, "clues"),
    ("sudoku/planted", {"box": 5, "clues": 329}, "clues"),
])
def test_values_beyond_the_limits_are_refused(generator: str, params: dict[str, Any],
                                              name: str) -> None:
    family, gen = generator.split("/")
    with pytest.raises(InstanceError, match=f"{re.escape(generator)}: {name}=.* is too "
                                            f"(large|small) \\(parameter '{name}' takes"):
        instances.family(family).generators[gen](params, 1)
    with pytest.raises(InstanceError, match=f"{re.escape(generator)}: seed=-1 is negative"):
        instances.family(family).generators[gen]({}, -1)


@pytest.mark.slow
@pytest.mark.parametrize(("generator", "params", "seed"), [
    ("edgematch/planted", {"n": 32, "colors": 2}, 1),  # the repair never succeeds: 1.7 s
    ("sudoku/planted", {"box": 4, "clues": 106}, 12),  # 1.9 s
    ("sudoku/planted", {"box": 5, "clues": 330}, 8),  # 2.3 s
    ("sudoku/planted", {"box": 3, "clues": 81, "min_guesses": 1}, 1),  # 150 attempts
    ("sudoku/planted", {"box": 4, "clues": 256, "min_guesses": 1}, 1),
    ("sudoku/planted", {"box": 5, "clues": 625, "min_guesses": 1}, 1),
    ("tiles/scramble", {"rows": 32, "cols": 32, "steps": 10**6}, 1),  # 1 s
    ("games/connect4", {"width": 4, "height": 4, "form": "graph"}, 1),  # 1.2 s
    ("games/mnk", {"width": 12, "height": 1, "k": 12, "form": "graph"}, 1),  # 1.3 s
    ("games/nim", {"heaps": "9-9-9-9-2"}, 1),  # 2.3 million moves bound, 0.7 s
    ("games/subtraction", {"n": 999_999, "take": "1"}, 1),
    ("games/random-graph", {"positions": 10**7, "degree": 5}, 1),  # 2.1 s, 0.9 GB
])
def test_the_limits_generate_within_seconds(generator: str, params: dict[str, Any],
                                            seed: int) -> None:
    family, name = generator.split("/")
    start = time.perf_counter()
    try:
        instances.family(family).generators[name](params, seed)
    except InstanceError as exc:
        assert "attempts" in str(exc)
    assert time.perf_counter() - start < 10


@pytest.mark.parametrize(("width", "height", "k", "gravity", "moves"), [
    (3, 3, 3, False, ()), (3, 3, 3, False, (4, 0)), (2, 2, 2, False, ()), (1, 1, 1, False, ()),
    (4, 3, 4, True, ()), (3, 3, 3, True, ()), (3, 2, 3, True, (1, 1)), (4, 2, 3, False, (0,)),
    (5, 1, 5, False, ()),
])
def test_the_board_graph_bound_is_an_upper_bound(width: int, height: int, k: int,
                                                 gravity: bool, moves: tuple[int, ...]) -> None:
    board = Board(width, height, k, gravity, moves)
    built = board_graph(board).n
    bound = board_graph_bound(board)
    assert built <= bound <= 3 ** (width * height)
    assert bound < 1.5 * built or built < 100  # tight enough to admit what can be built


def test_the_board_graph_bound_of_tictactoe() -> None:
    assert board_graph_bound(Board(3, 3, 3, False)) == 6046  # 5,478 positions built
    assert board_graph_bound(Board(4, 4, 4, True)) == 201_755  # 161,029


def notebook_walk(rows: int, cols: int, goal: str, steps: int,
                  rng: random.Random) -> tuple[tuple[int, ...], str]:
    """The seed notebook's scramble as it was written (a copy of the board per neighbour)."""
    state, previous = tl.goal_state(rows, cols, goal), None
    walk = []
    for _ in range(steps):
        blank = state.index(0)
        options = []
        row, col = divmod(blank, cols)
        for ok, target, move in ((row > 0, blank - cols, "U"), (row < rows - 1, blank + cols, "D"),
                                 (col > 0, blank - 1, "L"), (col < cols - 1, blank + 1, "R")):
            if ok:
                after = list(state)
                after[blank], after[target] = after[target], 0
                if tuple(after) != previous:
                    options.append((tuple(after), move))
        previous = state
        state, move = rng.choice(options)
        walk.append(move)
    return state, "".join(walk)


@FAST
@given(st.integers(2, 5), st.integers(2, 5), words(tl.GOALS), st.integers(0, 300),
       st.integers(0, 2**64))
def test_the_scramble_walk_is_the_notebooks(rows: int, cols: int, goal: str, steps: int,
                                            seed: int) -> None:
    """The O(1)-a-step walk (needed for 10^6 steps) makes the notebook's choices."""
    assert scramble_walk(rows, cols, goal, steps, random.Random(seed)) == \
        notebook_walk(rows, cols, goal, steps, random.Random(seed))


def test_the_notebook_demo_scramble_is_unchanged() -> None:
    got = tl.GENERATORS["scramble"]({"rows": 4, "cols": 4, "goal": "blank-last", "steps": 100},
                                    11)
    assert got.instance.tiles == (7, 12, 11, 2, 10, 0, 4, 6, 9, 3, 5, 8, 13, 15, 1, 14)


def test_huge_values_are_shown_by_their_size() -> None:
    """A 5,000-digit integer cannot be printed (int -> str is limited to 4,300 digits)."""
    with pytest.raises(InstanceError, match="about 5001 digits"):
        em.GENERATORS["planted"]({"n": 10**5000}, 1)
