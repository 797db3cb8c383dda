"""`cliffbench data`: the registry of reference files, its recipes, fetching from a mirror (a
local HTTP server on 127.0.0.1 serving the data folder; nothing here reaches the network),
refusals, verify and list, and the data folder the suites read (``default_data_dir``)."""

from __future__ import annotations

import argparse
import dataclasses
import fnmatch
import functools
import hashlib
import http.server
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.data import fetch as data
from bench.data import recipes
from bench.data.files import FILES, Source
from bench.data.recipes import RECIPES, RecipeError

COMMIT_URL = re.compile(r"^https://raw\.githubusercontent\.com/[\w.-]+/[\w.-]+/[0-9a-f]{40}/\S+$")


# -- helpers ---------------------------------------------------------------------------------------

class Server:
    """A local HTTP server on 127.0.0.1 (a free port) serving a folder; counts the requests."""

    def __init__(self, folder: Path) -> None:
        self.paths: list[str] = []
        server = self

        class Handler(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                server.paths.append(self.path)

        handler = functools.partial(Handler, directory=str(folder))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join()


@pytest.fixture
def serve(monkeypatch: pytest.MonkeyPatch) -> Iterator:
    """``serve(folder)`` starts a server on it (closed after the test); no proxy, no mirror from
    the environment."""
    for name in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy",
                 "ALL_PROXY", data.MIRROR_ENV):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    servers: list[Server] = []

    def start(folder: Path) -> Server:
        servers.append(Server(folder))
        return servers[-1]

    yield start
    for server in servers:
        server.close()


def run(*argv: str) -> int:
    """``cliffbench data ARGV`` through the parser ``add_data_parser`` builds: its exit code."""
    parser = argparse.ArgumentParser(prog="cliffbench")
    data.add_data_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["data", *argv])
    return args.func(args)


def sha(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


def leftovers(folder: Path) -> list[Path]:
    """Every file under ``folder`` (staging folders included)."""
    return sorted(p for p in folder.rglob("*") if p.is_file() or p.name.startswith("."))


# -- the registry ----------------------------------------------------------------------------------

def test_every_entry_says_how_it_is_got():
    """Each origin has what it needs: a direct file one source with our hash, a derived one a
    known recipe and sources, a generated one a recipe and no source, a mirror-only one a note
    saying why; every URL pins a commit, and an unestablished source hash is explained."""
    for path, entry in FILES.items():
        assert entry.path == path and len(entry.sha256) == 64 and entry.size > 0
        assert entry.origin in ("direct", "derived", "generated", "mirror"), path
        for source in entry.sources:
            assert COMMIT_URL.match(source.url), source.url
            if source.sha256 is None:
                assert "not established" in entry.note, path
        if entry.origin == "direct":
            assert [s.sha256 for s in entry.sources] == [entry.sha256], path
        if entry.origin in ("derived", "generated"):
            assert entry.recipe in RECIPES, path
            assert bool(entry.sources) == (entry.origin == "derived"), path
        if entry.origin == "mirror":
            assert not entry.sources and entry.note, path


def test_every_file_a_suite_reads_is_registered():
    patterns = [p for ps in data.suite_patterns().values() for p in ps]
    assert patterns
    for pattern in patterns:
        assert any(fnmatch.fnmatchcase(path, pattern) for path in FILES), pattern
    assert data.suites_using("tiles/korf100_15puzzle.txt") == ["korf100"]
    assert "games-known" in data.suites_using("games/known_values.tsv")


@pytest.mark.data
def test_the_registry_is_the_shared_data(shared_data):
    """Every recorded hash and size is the file's, and every data file but the README is
    registered."""
    for path, entry in FILES.items():
        content = (shared_data / path).read_bytes()
        assert (sha(content), len(content)) == (entry.sha256, entry.size), path
    on_disk = {str(p.relative_to(shared_data)) for p in shared_data.rglob("*") if p.is_file()}
    assert on_disk - FILES.keys() == {"README.md"}


# -- recipes ---------------------------------------------------------------------------------------

def test_count_line_dropped_checks_the_count():
    assert recipes.count_line_dropped([b"2\nab\ncd"]) == b"ab\ncd\n"
    with pytest.raises(RecipeError, match="number of puzzles"):
        recipes.count_line_dropped([b"3\nab\ncd\n"])


def test_puzzle_lines_drop_comments_and_sample():
    source = b"# header\r\n#\r\n" + b"".join(b"p%d\r\n" % i for i in range(10)) + b"\r\n"
    assert recipes.puzzle_lines([source]) == b"".join(b"p%d\n" % i for i in range(10))
    assert recipes.puzzle_lines([source], step=4, count=3) == b"p0\np4\np8\n"
    with pytest.raises(RecipeError, match="not 4"):
        recipes.puzzle_lines([source], step=4, count=4)


def test_korf_lists_are_reformatted():
    lee = b"7 42 1234   \n" + " ".join(map(str, range(16))).encode() + b"\n"
    assert recipes.korf15_instances([lee], ["h"]) == (
        b"# h\n7 42 " + " ".join(map(str, range(16))).encode() + b"\n")
    assert recipes.korf15_nodes([lee], ["h"]) == b"# h\n7 42 1234\n"
    row = f" 3 {','.join(map(str, range(25)))}  97   21148144928\n".encode()
    clausecker = b"50 random instances\n\nno initial state dist\n" + row
    assert recipes.korf24_nodes([clausecker], ["a", "b"]) == b"# a\n# b\n3 97 21148144928\n"
    assert recipes.korf24_instances([clausecker], []).startswith(b"3 97 0 1 2 ")


def test_clue_colours_are_compacted_in_label_order():
    pieces = b"9 4 0 1\n0 0 5 9\n7 4 0 0\n0 7 5 0\n"
    got = recipes.clue_emp([pieces], "tiny", 2, 2, ["title"], ["end"]).decode()
    assert "# colours compacted to 1..5 (original labels [1, 4, 5, 7, 9])" in got
    assert got.splitlines()[-4:] == ["p 1 5 2 0 1", "p 2 0 0 3 5", "p 3 4 2 0 0",
                                     "p 4 0 4 3 0"]
    assert "colors 5" in got and "hints 0" in got and got.index("# end") < got.index("name")


def test_eternity2_frame_colours_are_renumbered():
    lines = b"0 0 2 3\n" + b"6 7 8 4\n" * 255
    got = recipes.eternity2_emp([lines], "e2", ["h"], [(139, 8, 7, 0)]).decode().splitlines()
    assert got[:7] == ["# h", "name e2", "size 16 16", "colors 22", "pieces 256", "hints 1",
                       "h 139 8 7 0"]
    assert got[7:9] == ["p 1 0 0 3 4", "p 2 6 7 8 2"]
    with pytest.raises(RecipeError, match="256"):
        recipes.eternity2_emp([lines[:-8]], "e2", [], [])


def test_exact_cover_recipes():
    assert recipes.comments_replaced([b"// c\n\nA B\nA\n"], "t") == b"| t\nA B\nA\n"
    knuth = (b'text\n$$\n\\vcenter{\\halign{\\tt#\\cr\n\\char"7C\\ Example\\cr\n'
             b'A B \\char"7C\\ X\\cr\nA X:0\\cr}}\n$$\nmore\n')
    assert recipes.dlx2_example([knuth], " (k)") == b"| Example (k)\nA B | X\nA X:0\n"
    test = (b"def test_x():\n    primary = ['p']\n    secondary = ['x']\n"
            b"    options = [['p', 'x:A']]\n    sols = list(covers(options))\n")
    assert recipes.python_test_dlx([test], "test_x", "t") == b"| t\np | x\np x:A\n"
    with pytest.raises(RecipeError, match="no function"):
        recipes.python_test_dlx([test], "test_y", "t")
    queens = recipes.queens_dlx([], 4, "q").decode().splitlines()
    assert queens[1] == "r0 r1 r2 r3 c0 c1 c2 c3 | a0 a1 a2 a3 a4 a5 a6 b0 b1 b2 b3 b4 b5 b6"
    assert queens[2] == "r0 c0 a0 b3" and queens[-1] == "r3 c3 a6 b3" and len(queens) == 18


def test_the_generated_file_is_built_without_a_download(tmp_path):
    entry = FILES["xcc/queens8_secondary.dlx"]
    assert data.fetch([entry], tmp_path, say=lambda line: None) == {"built": 1}
    assert sha((tmp_path / entry.path).read_bytes()) == entry.sha256


# -- fetching from a mirror ------------------------------------------------------------------------

@pytest.mark.data
def test_mirror_fetch_puts_every_file_in_place(shared_data, serve, tmp_path, capsys):
    mirror = serve(shared_data)
    out = tmp_path / "data"
    assert run("fetch", "--data-dir", str(out), "--mirror", mirror.url) == 0
    said = capsys.readouterr().out
    assert f"{out}: {len(FILES)} fetched" in said
    assert all(data.check(e, out).state == "ok" for e in FILES.values())
    assert not [p for p in out.iterdir() if p.name.startswith(".")]  # no staging left
    assert run("verify", "--data-dir", str(out)) == 0


@pytest.mark.data
def test_the_mirror_can_come_from_the_environment(shared_data, serve, tmp_path, monkeypatch):
    mirror = serve(shared_data)
    monkeypatch.setenv(data.MIRROR_ENV, mirror.url)
    assert run("fetch", "--data-dir", str(tmp_path), "games") == 0
    assert (tmp_path / "games" / "known_values.tsv").read_bytes() == (
        shared_data / "games" / "known_values.tsv").read_bytes()


@pytest.mark.data
def test_a_corrupted_file_is_refused_and_nothing_is_written(shared_data, serve, tmp_path,
                                                            capsys):
    served = tmp_path / "served"
    shutil.copytree(shared_data / "sudoku", served / "sudoku")
    target = served / "sudoku" / "top95.txt"
    corrupted = bytearray(target.read_bytes())
    corrupted[100] ^= 1
    target.write_bytes(bytes(corrupted))
    mirror, out = serve(served), tmp_path / "out"
    assert run("fetch", "--data-dir", str(out), "--mirror", mirror.url,
               "sudoku/top95.txt") == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and err.startswith("cliffbench: error: sudoku/top95.txt")
    assert FILES["sudoku/top95.txt"].sha256 in err and sha(bytes(corrupted)) in err
    assert leftovers(out) == []


@pytest.mark.data
def test_a_verified_file_is_not_downloaded_again(shared_data, serve, tmp_path, capsys):
    mirror, out = serve(shared_data), tmp_path / "out"
    assert run("fetch", "--data-dir", str(out), "--mirror", mirror.url, "tiles") == 0
    assert len(mirror.paths) == 4
    capsys.readouterr()
    before = out.stat().st_mtime_ns
    assert run("fetch", "--data-dir", str(out), "--mirror", mirror.url, "tiles") == 0
    assert len(mirror.paths) == 4
    assert out.stat().st_mtime_ns == before  # not even a staging folder made and removed
    said = capsys.readouterr().out
    assert said.count("not downloaded again") == 4 and f"{out}: 4 present" in said


def test_network_failures_are_one_line_naming_the_url(serve, tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    mirror = serve(empty)
    assert run("fetch", "--data-dir", str(tmp_path / "out"), "--mirror", mirror.url,
               "games") == 2
    err = capsys.readouterr().err
    assert err == (f"cliffbench: error: cannot download {mirror.url}/games/known_values.tsv: "
                   "HTTP 404\n")
    closed = Server(empty)
    closed.close()  # a port nobody listens on any more
    assert run("fetch", "--data-dir", str(tmp_path / "out"), "--mirror", closed.url,
               "games") == 2
    err = capsys.readouterr().err
    assert err.startswith(f"cliffbench: error: cannot download {closed.url}/games/")
    assert err.count("\n") == 1 and "Traceback" not in err
    assert leftovers(tmp_path / "out") == []


def test_bad_input_is_exit_2(tmp_path, capsys):
    assert run("fetch", "--data-dir", str(tmp_path), "--mirror", "/a/folder") == 2
    assert "not a URL" in capsys.readouterr().err
    assert run("verify", "--data-dir", str(tmp_path), "sudoku/nope.txt") == 2
    err = capsys.readouterr().err
    assert err.startswith("cliffbench: error: no reference file or folder 'sudoku/nope.txt'")


def test_without_a_mirror_the_mirror_only_files_are_skipped(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv(data.MIRROR_ENV, raising=False)
    assert run("fetch", "--data-dir", str(tmp_path), "games") == 0
    said = capsys.readouterr().out
    assert "skipped  games/known_values.tsv: no public original" in said
    assert "1 skipped" in said and leftovers(tmp_path) == []


# -- rebuilding from public sources (served locally) -----------------------------------------------

def with_source(path: str, url: str, source_sha: str | None) -> data.DataFile:
    """The registry entry of ``path`` with its one source moved to ``url``."""
    return dataclasses.replace(FILES[path], sources=(Source(url, source_sha),))


@pytest.mark.data
@pytest.mark.parametrize("name", ["top95", "hardest"])
def test_norvig_sets_are_rebuilt_from_the_counted_copy(shared_data, serve, tmp_path, name):
    """The copy's bytes (a count line, no final newline) rebuilt from ours have the recorded
    source hash, and the recipe turns them back into ours."""
    ours = (shared_data / "sudoku" / f"{name}.txt").read_bytes()
    count = ours.count(b"\n")
    copy = f"{count}\n".encode() + ours.removesuffix(b"\n")
    entry = FILES[f"sudoku/{name}.txt"]
    assert sha(copy) == entry.sources[0].sha256
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "copy.txt").write_bytes(copy)
    url = serve(tmp_path / "src").url + "/copy.txt"
    out = tmp_path / "out"
    assert data.fetch([with_source(entry.path, url, sha(copy))], out,
                      say=lambda line: None) == {"built": 1}
    assert (out / entry.path).read_bytes() == ours


@pytest.mark.data
def test_a_rebuild_that_differs_or_a_changed_source_is_refused(shared_data, serve, tmp_path):
    ours = (shared_data / "xcc" / "langford8.txt").read_bytes()
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "l.txt").write_bytes(ours.replace(b"8 s7 s16\n", b"8 s7 s15\n"))
    url = serve(tmp_path / "src").url + "/l.txt"
    out = tmp_path / "out"
    entry = with_source("xcc/langford8.dlx", url, None)
    with pytest.raises(data.DataError, match=f"xcc/langford8.dlx: the rebuild from {url} has "
                                             f"sha256 [0-9a-f]{{64}}, expected {entry.sha256}"):
        data.fetch([entry], out, say=lambda line: None)
    recorded = with_source("xcc/langford8.dlx", url, FILES["xcc/langford8.txt"].sha256)
    with pytest.raises(data.DataError, match=r"\(a source\): .* expected 9490bbfa"):
        data.fetch([recorded], out, say=lambda line: None)
    assert leftovers(out) == []


# -- verify, list, the default folder --------------------------------------------------------------

@pytest.mark.data
def test_verify_reports_ok_missing_and_bad(shared_data, tmp_path, capsys):
    for name, content in (("hardest.txt", None), ("top95.txt", b"changed\n")):
        (tmp_path / "sudoku").mkdir(exist_ok=True)
        (tmp_path / "sudoku" / name).write_bytes(
            content or (shared_data / "sudoku" / name).read_bytes())
    assert run("verify", "--data-dir", str(tmp_path), "sudoku") == 1
    lines = capsys.readouterr().out.splitlines()
    assert "ok       sudoku/hardest.txt" in lines and "missing  sudoku/easy50.txt" in lines
    changed = sha(b"changed\n")
    assert (f"bad      sudoku/top95.txt (sha256 {changed}, expected "
            f"{FILES['sudoku/top95.txt'].sha256})") in lines
    assert lines[-1] == f"{tmp_path}: 1 ok, 4 missing, 1 bad"
    assert run("verify", "--data-dir", str(tmp_path), "sudoku/hardest.txt") == 0


def test_list_says_what_is_there_and_where_it_comes_from(tmp_path, capsys):
    (tmp_path / "xcc").mkdir()
    (tmp_path / "xcc" / "queens8_secondary.dlx").write_bytes(recipes.queens_dlx(
        [], **FILES["xcc/queens8_secondary.dlx"].params))
    assert run("list", "--data-dir", str(tmp_path)) == 0
    said = capsys.readouterr().out
    assert said.startswith(f"reference data folder: {tmp_path}\n")
    assert "ok       xcc/queens8_secondary.dlx  1,012 bytes, generated" in said
    assert "missing  tiles/korf100_15puzzle.txt  4,563 bytes, derived  (suites: korf100)" in said
    assert FILES["tiles/korf100_15puzzle.txt"].sources[0].url in said
    assert "mirror only" in said and said.count("\nmissing  ") == len(FILES) - 1


def test_default_data_dir_order(tmp_path, monkeypatch):
    """$CLIFFBENCH_DATA first (a missing folder means none), then ../shared/data beside the
    working folder or the project, then the fetch folder once it holds a verified file."""
    project = tmp_path / "clone" / "main"
    monkeypatch.setattr(data, "__file__", str(project / "bench" / "data" / "fetch.py"))
    (tmp_path / "cwd" / "here").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "cwd" / "here")  # nothing beside it
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("CLIFFBENCH_DATA", str(tmp_path))
    assert data.default_data_dir() == tmp_path
    monkeypatch.setenv("CLIFFBENCH_DATA", str(tmp_path / "nowhere"))
    assert data.default_data_dir() is None
    monkeypatch.delenv("CLIFFBENCH_DATA")
    fetched = tmp_path / "xdg" / "cliffbench" / "data"
    assert data.fetch_dir() == fetched
    assert data.default_data_dir() is None
    (fetched / "xcc").mkdir(parents=True)
    (fetched / "xcc" / "queens8_secondary.dlx").write_bytes(b"not the file\n")
    assert data.default_data_dir() is None  # a file that fails its hash does not count
    data.fetch([FILES["xcc/queens8_secondary.dlx"]], fetched, say=lambda line: None)
    assert data.default_data_dir() == fetched
    shared = tmp_path / "clone" / "shared" / "data"
    shared.mkdir(parents=True)
    assert data.default_data_dir() == shared  # beside the project
    beside_cwd = tmp_path / "work" / "shared" / "data"
    beside_cwd.mkdir(parents=True)
    (tmp_path / "work" / "main").mkdir()
    monkeypatch.chdir(tmp_path / "work" / "main")
    assert data.default_data_dir() == beside_cwd  # beside the working folder comes first


def test_importing_the_command_stays_light():
    code = ("import sys, bench.data.fetch; "
            "print(sorted(m for m in ('pooch', 'requests', 'pandas', 'numpy') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"
