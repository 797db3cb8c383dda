"""The reference data: where it goes, how it is checked, and the ``cliffbench data`` command.

``cliffbench data fetch`` puts every file of the registry (``bench.data.files``) into the
data folder, each checked against the sha256 recorded for it:

- from a mirror of the data folder (``--mirror URL`` or ``$CLIFFBENCH_DATA_MIRROR``), which
  serves each file at ``URL/<path in the data folder>`` (a lab's copy, or ``../shared/data``
  over HTTP); every file is downloaded as is;
- else from the files' public origins: a ``direct`` file is downloaded as is, a ``derived`` one
  is rebuilt from its downloaded sources by its recipe (``bench.data.recipes``), a
  ``generated`` one is built; a ``mirror`` file (no public original of our bytes) is skipped
  with a note.

A file already in place with the right sha256 is not downloaded again. Downloads go through
pooch into a staging folder inside the data folder; a file is moved into place (``os.replace``)
only once its sha256 matches, so a failed or refused download leaves nothing half-written. The
data folder is ``--data-dir``, else ``$CLIFFBENCH_DATA``, else ``fetch_dir()``:
``$XDG_DATA_HOME/cliffbench/data`` (``~/.local/share/cliffbench/data``). pooch and requests are
imported only by the functions that download.
"""

from __future__ import annotations

import argparse
import contextlib
import fnmatch
import hashlib
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from bench.data.files import FILES, DataFile
from bench.data.recipes import RECIPES, RecipeError

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2
MIRROR_ENV = "CLIFFBENCH_DATA_MIRROR"
SUITES_DIR = Path(__file__).resolve().parents[1] / "plan" / "suites"
SUITE_DATA = re.compile(r"\{data_dir\}/([^\"':]+)")


class DataError(Exception):
    """A fetch or a name the user gave went wrong (one line naming the file or URL)."""


# -- where the data is ---------------------------------------------------------------------------

def fetch_dir() -> Path:
    """The folder ``cliffbench data fetch`` fills by default: ``$CLIFFBENCH_DATA`` when set,
    else ``$XDG_DATA_HOME/cliffbench/data`` (``~/.local/share/cliffbench/data`` without
    ``XDG_DATA_HOME``)."""
    env = os.environ.get("CLIFFBENCH_DATA")
    if env:
        return Path(env)
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "cliffbench" / "data"



def default_data_dir() -> Path | None:
    """The reference-data folder ``{data_dir}`` stands for when no ``--data-dir`` is given, the
    first that applies: ``$CLIFFBENCH_DATA`` when set (a folder that does not exist means no
    data: it hides the others); ``../shared/data`` beside the working folder, then beside the
    project; the folder ``cliffbench data fetch`` fills (``fetch_dir()``) when it
    holds at least one file with its recorded sha256. None when none applies."""
    import os

    env = os.environ.get("CLIFFBENCH_DATA")
    if env:
        return Path(env) if Path(env).is_dir() else None
    here = Path(__file__).resolve().parents[2]
    for candidate in (Path.cwd().parent / "shared" / "data", here.parent / "shared" / "data"):
        if candidate.is_dir():
            return candidate
    fetched = fetch_dir()
    return fetched if holds_verified_file(fetched) else None


def absent_reason() -> str:
    """Why no data folder was found: the places looked at, and the way to fill one."""
    env = os.environ.get("CLIFFBENCH_DATA")
    if env:
        return (f"no reference data: $CLIFFBENCH_DATA is {env}, not a folder "
                "(`cliffbench data fetch` fills it)")
    return ("no reference data (looked at ../shared/data beside the working folder and beside "
            f"the project, and at {fetch_dir()}); `cliffbench data fetch` fills the last")


def sha256_of(path: Path) -> str:
    """The sha256 of a file's bytes, read in blocks."""
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@dataclass(frozen=True)
class Check:
    """A registered file in a folder: ``ok``, ``missing`` or ``bad`` (``actual`` its sha256)."""

    entry: DataFile
    state: str
    actual: str | None = None


def check(entry: DataFile, folder: Path) -> Check:
    """Whether ``folder`` holds ``entry`` with its recorded sha256."""
    path = folder / entry.path
    if not path.is_file():
        return Check(entry, "missing")
    actual = sha256_of(path)
    return Check(entry, "ok" if actual == entry.sha256 else "bad", actual)


def holds_verified_file(folder: Path) -> bool:
    """Whether ``folder`` holds at least one registered file with its recorded sha256."""
    return folder.is_dir() and any(check(e, folder).state == "ok" for e in FILES.values())


def select(names: Sequence[str]) -> list[DataFile]:
    """The entries that ``names`` name (a path in the data folder, or a folder of it such as
    ``sudoku`` or ``edgematch/clues``), in registry order; every entry when ``names`` is empty.
    An unknown name is a ``DataError`` listing the folders."""
    if not names:
        return list(FILES.values())
    chosen: list[DataFile] = []
    for name in names:
        key = name.strip("/")
        found = [e for e in FILES.values() if e.path == key or e.path.startswith(key + "/")]
        if not found:
            folders = sorted({p.rsplit("/", 1)[0] for p in FILES})
            raise DataError(f"no reference file or folder {name!r} (folders: "
                            f"{', '.join(folders)}; `cliffbench data list` lists the files)")
        chosen += [e for e in found if e not in chosen]
    return [e for e in FILES.values() if e in chosen]


def suite_patterns() -> dict[str, list[str]]:
    """Per shipped suite, the data-folder patterns its ``{data_dir}/...`` specs name (a file
    index such as ``:1..20`` cut off; globs kept)."""
    return {toml.stem: SUITE_DATA.findall(toml.read_text(encoding="utf-8"))
            for toml in sorted(SUITES_DIR.glob("*.toml"))}


def suites_using(path: str) -> list[str]:
    """The shipped suites that read the data file ``path``."""
    return [name for name, patterns in suite_patterns().items()
            if any(fnmatch.fnmatchcase(path, p) for p in patterns)]


# -- downloading ---------------------------------------------------------------------------------

@contextlib.contextmanager
def quiet_pooch() -> Iterator[None]:
    """pooch's own log lines (a line per download, the hash of an unhashed file) held back;
    this module says what it fetched."""
    import pooch

    logger = pooch.get_logger()
    level = logger.level
    logger.setLevel("WARNING")
    try:
        yield
    finally:
        logger.setLevel(level)


def download(url: str, target: Path) -> Path:
    """``url`` downloaded by pooch to ``target`` (a new file's name: pooch writes it in one
    step once the download is complete). A network failure (no route, an HTTP error such as
    404) is a ``DataError`` naming the URL."""
    import pooch
    import requests

    try:
        with quiet_pooch():
            return Path(pooch.retrieve(url, known_hash=None, fname=target.name,
                                       path=target.parent, progressbar=False))
    except requests.exceptions.HTTPError as exc:
        status = exc.response.status_code if exc.response is not None else "?"
        raise DataError(f"cannot download {url}: HTTP {status}") from None
    except (requests.exceptions.RequestException, OSError) as exc:
        raise DataError(f"cannot download {url}: {failure_reason(exc)}") from None


def failure_reason(exc: BaseException) -> str:
    """A network failure in a few words: the system's ``[Errno N] reason`` when the message
    holds one (requests nests it deep in a long text), else the exception's type and text."""
    m = re.search(r"\[Errno -?\d+\] [^'\")\]]+", str(exc))
    return m.group(0) if m else f"{type(exc).__name__}: {exc}"


def checked_hash(actual: str, expected: str, what: str, url: str) -> None:
    """A ``DataError`` naming the file, the URL and both hashes when they differ."""
    if actual != expected:
        raise DataError(f"{what}: {url} has sha256 {actual}, expected {expected}; refused, "
                        "nothing written")


def install_file(staged: Path, target: Path) -> None:
    """A verified staged file moved into place in one step (same file system), readable as a
    file the user creates (the staging files are private to the user)."""
    umask = os.umask(0)
    os.umask(umask)
    staged.chmod(0o666 & ~umask)
    target.parent.mkdir(parents=True, exist_ok=True)
    os.replace(staged, target)


def install_bytes(data: bytes, target: Path, staging: Path) -> None:
    """Verified bytes written to the staging folder, then moved into place."""
    staged = staging / f"built-{target.name}"
    staged.write_bytes(data)
    install_file(staged, target)


class Fetcher:
    """One ``fetch`` run: the data folder, its staging folder (made on the first download or
    build, so that a folder already complete is only read), and the sources already downloaded
    (two files derived from one source download it once)."""

    def __init__(self, folder: Path, mirror: str | None) -> None:
        self.folder, self.mirror = folder, mirror
        self.made: Path | None = None
        self.sources: dict[str, bytes] = {}
        self.downloads = 0

    @property
    def staging(self) -> Path:
        """The staging folder, a hidden folder of the data folder (the same file system, so a
        file moves into place in one step)."""
        if self.made is None:
            try:
                self.folder.mkdir(parents=True, exist_ok=True)
                self.made = Path(tempfile.mkdtemp(prefix=".cliffbench-fetch-", dir=self.folder))
            except OSError as exc:
                raise DataError(f"cannot write to the data folder {self.folder}: "
                                f"{exc.strerror}") from None
        return self.made

    def close(self) -> None:
        """The staging folder removed, with whatever a failure left in it."""
        if self.made is not None:
            shutil.rmtree(self.made, ignore_errors=True)

    def download(self, url: str) -> Path:
        """``url`` downloaded to a new file of the staging folder."""
        self.downloads += 1
        return download(url, self.staging / f"download-{self.downloads}")

    def from_mirror(self, entry: DataFile) -> str:
        """The file as the mirror serves it, checked and moved into place."""
        url = f"{self.mirror.rstrip('/')}/{entry.path}"
        staged = self.download(url)
        checked_hash(sha256_of(staged), entry.sha256, entry.path, url)
        install_file(staged, self.folder / entry.path)
        return f"fetched from {url}"

    def source(self, url: str, expected: str | None, what: str) -> bytes:
        """A source's bytes (downloaded once per run), checked when its hash is recorded."""
        if url not in self.sources:
            data = self.download(url).read_bytes()
            if expected is not None:
                checked_hash(hashlib.sha256(data).hexdigest(), expected,
                             f"{what} (a source)", url)
            self.sources[url] = data
        return self.sources[url]

    def from_origin(self, entry: DataFile) -> str:
        """The file downloaded as is (``direct``), or rebuilt from its sources by its recipe,
        checked and moved into place."""
        urls = ", ".join(s.url for s in entry.sources)
        if entry.origin == "direct":
            data = self.source(entry.sources[0].url, None, entry.path)
            checked_hash(hashlib.sha256(data).hexdigest(), entry.sha256, entry.path, urls)
            install_bytes(data, self.folder / entry.path, self.staging)
            return f"fetched from {urls}"
        sources = [self.source(s.url, s.sha256, entry.path) for s in entry.sources]
        try:
            data = RECIPES[entry.recipe](sources, **entry.params)
        except (RecipeError, UnicodeDecodeError, SyntaxError) as exc:
            raise DataError(f"{entry.path}: cannot rebuild it from {urls}: {exc}") from None
        where = f"the rebuild from {urls}" if urls else f"the output of {entry.recipe}"
        checked_hash(hashlib.sha256(data).hexdigest(), entry.sha256, entry.path, where)
        install_bytes(data, self.folder / entry.path, self.staging)
        return f"built by {entry.recipe}" + (f" from {urls}" if urls else "")

    def fetch(self, entry: DataFile) -> tuple[str, str]:
        """``(state, detail)`` for one entry: present, fetched, built or skipped."""
        if check(entry, self.folder).state == "ok":
            return "present", "sha256 ok, not downloaded again"
        if self.mirror:
            return "fetched", self.from_mirror(entry)
        if entry.origin == "mirror":
            return "skipped", "no public original: only a mirror has it (--mirror URL)"
        detail = self.from_origin(entry)
        return ("fetched" if entry.origin == "direct" else "built"), detail


def checked_mirror(mirror: str | None) -> str | None:
    """The mirror URL, refused unless it is http(s) or ftp."""
    if mirror and not re.match(r"^(https?|ftp)://", mirror):
        raise DataError(f"--mirror {mirror!r}: not a URL (http://, https:// or ftp://)")
    return mirror or None


def fetch(entries: Sequence[DataFile], folder: Path, mirror: str | None = None,
          say: Callable[[str], None] = print) -> dict[str, int]:
    """Every entry put into ``folder`` (see the module's docstring), a line said per file; the
    count of files per state. The first failure stops the run with a ``DataError``; the files
    already in place are verified ones."""
    fetcher = Fetcher(folder, checked_mirror(mirror))
    counts: dict[str, int] = {}
    try:
        for entry in entries:
            state, detail = fetcher.fetch(entry)
            counts[state] = counts.get(state, 0) + 1
            say(f"{state:8} {entry.path}: {detail}")
    finally:
        fetcher.close()
    return counts


# -- the command ---------------------------------------------------------------------------------

def folder_of(args: argparse.Namespace, for_fetch: bool) -> Path:
    """The data folder a subcommand works on: ``--data-dir``, else the fetch folder
    (``fetch``), else the folder the suites read (``verify``, ``list``), else the fetch
    folder."""
    if args.data_dir:
        return Path(args.data_dir)
    if for_fetch:
        return fetch_dir()

    return default_data_dir() or fetch_dir()


def cmd_fetch(args: argparse.Namespace) -> int:
    """Fetch the chosen files; 0 when every file that has a source is in place."""
    folder = folder_of(args, for_fetch=True)
    mirror = args.mirror if args.mirror is not None else os.environ.get(MIRROR_ENV)
    counts = fetch(select(args.names), folder, mirror)
    skipped = counts.pop("skipped", 0)
    done = ", ".join(f"{n} {state}" for state, n in counts.items()) or "nothing"
    print(f"{folder}: {done}" + (f"; {skipped} skipped (no public original: fetch them with "
                                 f"--mirror URL or ${MIRROR_ENV})" if skipped else ""))
    return EXIT_OK


def cmd_verify(args: argparse.Namespace) -> int:
    """One line per file (ok, missing, bad); 1 when any is missing or bad."""
    folder = folder_of(args, for_fetch=False)
    checks = [check(entry, folder) for entry in select(args.names)]
    for c in checks:
        extra = f" (sha256 {c.actual}, expected {c.entry.sha256})" if c.state == "bad" else ""
        print(f"{c.state:8} {c.entry.path}{extra}")
    problems = sum(c.state != "ok" for c in checks)
    print(f"{folder}: {len(checks) - problems} ok, "
          f"{sum(c.state == 'missing' for c in checks)} missing, "
          f"{sum(c.state == 'bad' for c in checks)} bad")
    return EXIT_PROBLEMS if problems else EXIT_OK


def origin_line(entry: DataFile) -> str:
    """Where a file comes from, in a few words and its URLs."""
    urls = " + ".join(s.url for s in entry.sources)
    if entry.origin == "direct":
        return f"downloaded as is from {urls}"
    if entry.origin == "derived":
        return f"rebuilt by {entry.recipe} from {urls}"
    if entry.origin == "generated":
        return f"built by {entry.recipe} (nothing downloaded)"
    return "mirror only"


def cmd_list(args: argparse.Namespace) -> int:
    """Each file: whether it is in the folder, where it comes from, the suites that read it."""
    folder = folder_of(args, for_fetch=False)
    print(f"reference data folder: {folder}")
    for entry in select(args.names):
        state = check(entry, folder).state
        suites = suites_using(entry.path)
        used = f"  (suites: {', '.join(suites)})" if suites else ""
        print(f"{state:8} {entry.path}  {entry.size:,} bytes, {entry.origin}{used}")
        print(f"         {origin_line(entry)}")
        if entry.note:
            print(f"         {entry.note}")
    return EXIT_OK


def cmd_data(args: argparse.Namespace) -> int:
    """``cliffbench data fetch|verify|list``: the exit code; a user's error is one line on
    stderr (``cliffbench: error: ...``) and 2."""
    run = {"fetch": cmd_fetch, "verify": cmd_verify, "list": cmd_list}[args.data_command]
    try:
        return run(args)
    except BrokenPipeError:  # `cliffbench data list | head`: the caller's main handles it
        raise
    except (DataError, OSError) as exc:  # OSError: a file that cannot be written or read
        print(f"cliffbench: error: {exc}", file=sys.stderr)
        return EXIT_USAGE


def add_data_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """The ``data`` subcommand with ``fetch``, ``verify`` and ``list``; ``func`` is
    ``cmd_data``."""
    p = subparsers.add_parser(
        "data", help="the reference data (Korf, Norvig, tdoku, Eternity II, ...): fetch it "
        "with checksums, verify it, list where it comes from")
    p.set_defaults(func=cmd_data)
    sub = p.add_subparsers(dest="data_command", required=True, metavar="ACTION",
                           parser_class=type(p))
    names = {"nargs": "*", "metavar": "NAME", "help": "a file or folder of the data folder "
             "(e.g. sudoku/top95.txt, edgematch/clues); default: every file"}
    place = ("data folder (default: $CLIFFBENCH_DATA, else "
             "~/.local/share/cliffbench/data, or under $XDG_DATA_HOME)")
    look = ("data folder (default: the one the suites read: $CLIFFBENCH_DATA, else "
            "../shared/data when present, else the fetch folder)")
    f = sub.add_parser("fetch", help="download the files (or rebuild them from their public "
                       "sources) and check each one's sha256")
    f.add_argument("names", **names)
    f.add_argument("--data-dir", default=None, metavar="DIR", help=place)
    f.add_argument("--mirror", default=None, metavar="URL",
                   help=f"a mirror of the data folder serving URL/<path> (default: "
                        f"${MIRROR_ENV}, else the public origins)")
    v = sub.add_parser("verify", help="check every file's sha256: ok, missing or bad (exit 1 "
                       "when any is missing or bad)")
    v.add_argument("names", **names)
    v.add_argument("--data-dir", default=None, metavar="DIR", help=look)
    ls = sub.add_parser("list", help="what is in the data folder and where each file comes "
                        "from")
    ls.add_argument("names", **names)
    ls.add_argument("--data-dir", default=None, metavar="DIR", help=look)
    return p
