"""Pattern-database files and the cache directory.

A file is a versioned header, the payload, and a CRC-32 of both (little-endian throughout)::

    offset  size  field
    0       8     magic  b"CBPDB\\x00\\r\\n" (the CR LF catches text-mode mangling)
    8       4     format version (VERSION)
    12      4     header length in bytes (44 + k)
    16      2     rows                      18  2  cols
    20      1     rule (index in RULES)     21  1  encoding (index in ENCODINGS)
    22      1     goal (index in GOALS)     23  1  k, the number of tiles
    24      4     encoding parameter (minnibble group, else 0)
    28      8     entries (n! / (n - k)!)
    36      8     saturated entries or groups
    44      k     the tiles, one byte each, in rank order
    ...           payload (payload_size(encoding, entries, parameter) bytes)
    end     4     CRC-32 of everything before it

Nothing is pickled: a file from elsewhere is data, never code. A file is written to a temporary
name in the same directory, flushed to disk, and renamed over the target, so a reader never
sees half a file. ``load`` refuses, with the reason, a file that is truncated (or too long),
corrupted (checksum), of another format version, or of another table than the one asked for.

The cache directory (``cached``): a table is loaded when its file is there; otherwise it is
encoded from the byte table of the same pattern and rule when that file is there; otherwise it
is built, and the byte table and the encoded one are saved. A refused file in the cache is
reported (a warning) and replaced.
"""

from __future__ import annotations

import os
import secrets
import struct
import warnings
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from searches.support import tiles_pdb_encode as enc
from searches.support.tiles_pdb_build import ProgressFn, build
from searches.support.tiles_pdb_patterns import GOALS, RULES, Pattern

MAGIC = b"CBPDB\x00\r\n"
VERSION = 1
FIXED = struct.Struct("<8sIIHHBBBBIQQ")  # 44 bytes, then the tiles
CRC = struct.Struct("<I")


class PDBFileError(ValueError):
    """A pattern-database file that cannot be used, with the file and the reason."""


@dataclass(frozen=True)
class Header:
    rows: int
    cols: int
    rule: str
    encoding: str
    goal: str
    tiles: tuple[int, ...]
    param: int
    entries: int
    saturated: int = 0
    version: int = VERSION

    @property
    def pattern(self) -> Pattern:
        return Pattern(self.rows, self.cols, self.goal, self.tiles)

    @property
    def payload_bytes(self) -> int:
        return enc.payload_size(self.encoding, self.entries, self.param)

    def key(self) -> tuple:
        """What identifies the table (not the saturation count, not the version)."""
        return (self.rows, self.cols, self.rule, self.encoding, self.param, self.goal,
                self.tiles)

    def describe(self) -> str:
        param = f" (group {self.param})" if self.encoding == "minnibble" else ""
        return (f"{self.rows}x{self.cols} {self.goal}, tiles {','.join(map(str, self.tiles))}, "
                f"rule {self.rule}, encoding {self.encoding}{param}")

    def pack(self) -> bytes:
        fixed = FIXED.pack(MAGIC, self.version, FIXED.size + len(self.tiles), self.rows,
                           self.cols, RULES.index(self.rule), enc.ENCODINGS.index(self.encoding),
                           GOALS.index(self.goal), len(self.tiles), self.param, self.entries,
                           self.saturated)
        return fixed + bytes(self.tiles)


def header_for(pattern: Pattern, rule: str, encoded: enc.Encoded) -> Header:
    return Header(pattern.rows, pattern.cols, rule, encoded.encoding, pattern.goal,
                  pattern.tiles, encoded.param, pattern.size, encoded.saturated)


def save(path: str | Path, header: Header, payload: np.ndarray) -> Path:
    """Write atomically: a temporary file in the same directory, fsync, rename."""
    path = Path(path)
    if payload.size != header.payload_bytes:
        raise PDBFileError(f"{path}: payload of {payload.size} bytes, the header needs "
                           f"{header.payload_bytes}")
    path.parent.mkdir(parents=True, exist_ok=True)
    head = header.pack()
    crc = zlib.crc32(memoryview(np.ascontiguousarray(payload)), zlib.crc32(head))
    tmp = path.parent / f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the umask applies
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(head)
            out.write(memoryview(np.ascontiguousarray(payload)))
            out.write(CRC.pack(crc))
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def read_header(path: str | Path) -> tuple[Header, int]:
    """The header of a file and its length; refuses a file that is not one of ours, of
    another version, or shorter than its header says."""
    path = Path(path)
    try:
        with open(path, "rb") as f:
            fixed = f.read(FIXED.size)
            if len(fixed) < FIXED.size:
                if not MAGIC.startswith(fixed[:len(MAGIC)]) or not fixed:
                    raise PDBFileError(f"{path}: not a pattern-database file (no magic)")
                raise PDBFileError(f"{path}: truncated ({len(fixed)} bytes, not even a header)")
            (magic, version, head_len, rows, cols, rule, encoding, goal, k, param, entries,
             saturated) = FIXED.unpack(fixed)
            if magic != MAGIC:
                raise PDBFileError(f"{path}: not a pattern-database file (bad magic)")
            if version != VERSION:
                age = "an older" if version < VERSION else "a newer"
                raise PDBFileError(f"{path}: {age} format (version {version}; this library "
                                   f"reads version {VERSION}): rebuild the table")
            tiles = f.read(k)
    except OSError as exc:
        raise PDBFileError(f"{path}: cannot read: {exc}") from None
    if len(tiles) < k or head_len != FIXED.size + k:
        raise PDBFileError(f"{path}: truncated or malformed header")
    try:
        header = Header(rows, cols, RULES[rule], enc.ENCODINGS[encoding], GOALS[goal],
                        tuple(tiles), param, entries, saturated, version)
        expected = header.pattern.size
        if param != enc.check_encoding(header.encoding, param):  # 0 is no minnibble group
            raise ValueError(f"encoding parameter {param} for {header.encoding}")
    except (IndexError, ValueError) as exc:
        raise PDBFileError(f"{path}: malformed header ({exc})") from None
    if list(header.tiles) != sorted(set(header.tiles)):
        raise PDBFileError(f"{path}: malformed header (tiles {list(header.tiles)} are not "
                           "in rank order)")
    if entries != expected:
        raise PDBFileError(f"{path}: header says {entries} entries, the pattern has {expected}")
    return header, head_len


def load(path: str | Path, expect: Header | None = None) -> tuple[Header, np.ndarray]:
    """Header and payload of a file, checked end to end; ``expect`` (its ``key()``) names the
    table wanted, and a file of another table is refused."""
    path = Path(path)
    header, head_len = read_header(path)
    if expect is not None and expect.key() != header.key():
        raise PDBFileError(f"{path}: a different table: the file holds {header.describe()}; "
                           f"wanted {expect.describe()}")
    want = head_len + header.payload_bytes + CRC.size
    size = path.stat().st_size
    if size != want:
        what = "truncated" if size < want else "longer than its header says"
        raise PDBFileError(f"{path}: {what} ({size} bytes, expected {want})")
    with open(path, "rb") as f:
        head = f.read(head_len)
        payload = np.fromfile(f, dtype=np.uint8, count=header.payload_bytes)
        tail = f.read(CRC.size)
    if payload.size != header.payload_bytes or len(tail) != CRC.size:
        raise PDBFileError(f"{path}: truncated while reading")
    if zlib.crc32(memoryview(payload), zlib.crc32(head)) != CRC.unpack(tail)[0]:
        raise PDBFileError(f"{path}: corrupted (checksum mismatch)")
    return header, payload


# --- the cache directory ----------------------------------------------------------------------


def default_cache() -> Path:
    """``$CLIFFBENCH_PDB_CACHE``, else ``$XDG_CACHE_HOME/cliffbench/pdb`` (~/.cache)."""
    env = os.environ.get("CLIFFBENCH_PDB_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "cliffbench" / "pdb"


def file_name(pattern: Pattern, rule: str, encoding: str, param: int = 0) -> str:
    extra = str(param) if encoding == "minnibble" else ""
    return (f"tiles{pattern.rows}x{pattern.cols}-{pattern.goal}-{rule}-t{pattern.label}-"
            f"{encoding}{extra}.pdb")


def _try_load(path: Path, expect: Header) -> np.ndarray | None:
    if not path.exists():
        return None
    try:
        return load(path, expect)[1]
    except PDBFileError as exc:
        warnings.warn(f"refused, rebuilding: {exc}", stacklevel=3)
        return None


def cached(pattern: Pattern, rule: str, encoding: str, param: int = 0,
           cache: str | Path | None = None, threads: int | None = None,
           progress: ProgressFn | None = None) -> tuple[enc.Encoded, str]:
    """The encoded table and where it came from: ``cache``, ``encoded from bytes`` or
    ``built`` (then saved, with its byte table)."""
    param = enc.check_encoding(encoding, param)
    folder = Path(cache) if cache is not None else default_cache()
    target = folder / file_name(pattern, rule, encoding, param)
    expect = Header(pattern.rows, pattern.cols, rule, encoding, pattern.goal, pattern.tiles,
                    param, pattern.size)
    payload = _try_load(target, expect)
    if payload is not None:
        header, _ = read_header(target)
        return enc.Encoded(encoding, param, payload, header.saturated), "cache"
    bytes_path = folder / file_name(pattern, rule, "byte")
    bytes_expect = Header(pattern.rows, pattern.cols, rule, "byte", pattern.goal,
                          pattern.tiles, 0, pattern.size)
    table = _try_load(bytes_path, bytes_expect)
    source = "encoded from bytes"
    if table is None:
        table = build(pattern, rule, threads, progress).table
        save(bytes_path, header_for(pattern, rule, enc.Encoded("byte", 0, table)), table)
        source = "built"
    if encoding == "byte":
        return enc.Encoded("byte", 0, table), source
    encoded = enc.encode(table, pattern.k, pattern.n, pattern.manhattan_rows(), encoding, param)
    save(target, header_for(pattern, rule, encoded), encoded.payload)
    return encoded, source


def describe(path: str | Path) -> dict:
    """What ``cliffbench pdb info`` prints: the header, sizes, and (checked end to end) a
    summary of the entries."""
    header, payload = load(path)
    out = {"file": str(path), "version": header.version, "board": f"{header.rows}x{header.cols}",
           "goal": header.goal, "rule": header.rule, "encoding": header.encoding,
           "param": header.param, "tiles": list(header.tiles), "entries": header.entries,
           "payload_bytes": int(payload.size), "file_bytes": Path(path).stat().st_size,
           "saturated": header.saturated, "checksum": "ok"}
    if header.encoding == "byte":
        reached = payload[payload != enc.UNSEEN]
        out.update(max=int(reached.max()), mean=round(float(reached.mean()), 4),
                   unreachable=int(payload.size - reached.size),
                   histogram=np.bincount(reached).tolist())
    elif header.encoding in ("nibble", "minnibble"):
        nibbles = np.stack([payload & 15, payload >> 4], axis=1).reshape(-1)
        out.update(mean_excess=round(float(nibbles.mean()), 4), max_excess=int(nibbles.max()))
    return out


def sizes(entries: int, group: int = enc.DEFAULT_GROUP) -> dict[str, int]:
    """Payload bytes of a table of ``entries`` entries in every encoding."""
    return {e: enc.payload_size(e, entries, group if e == "minnibble" else 0)
            for e in enc.ENCODINGS}
