"""Encodings of the pattern databases: every lossless one gives the byte values exactly, along
random walks with the incremental update a search uses (the relative ones from a start value
found by descent), and the lossy one never exceeds them."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from instances.tiles import GENERATORS
from searches.support import tiles_pdb_encode as enc
from searches.support.tiles_pdb_build import build
from searches.support.tiles_pdb_lookup import (
    Heuristic,
    assemble,
    h_init,
    h_move,
    pattern_value,
    where_of,
)
from searches.support.tiles_pdb_patterns import Pattern, partition

RULE_ENCODINGS = [("ignored", e) for e in enc.ENCODINGS] + [
    ("minimized", e) for e in ("byte", "nibble", "minnibble")]


@cache
def table(tiles: tuple[int, ...], rule: str) -> np.ndarray:
    return build(Pattern(4, 4, "blank-first", tiles), rule).table


def make(rule: str, encoding: str, param: int = 0, reflect: bool = False) -> Heuristic:
    """The 5-5-5 heuristic from tables built once for the whole file."""
    part = partition("5-5-5", 4, 4)
    payloads = [enc.encode(table(p, rule), len(p), 16, part.pattern(j).manhattan_rows(),
                           encoding, param) for j, p in enumerate(part.patterns)]
    return assemble(part, rule, payloads, reflect)


def walk(start: tuple[int, ...], steps: int, seed: int, cols: int = 4) -> list[tuple]:
    """A seeded random walk of the blank: (state's where array, tile moved) per step."""
    rng = np.random.default_rng(seed)
    n = len(start)
    rows = n // cols
    where = where_of(start)
    out = []
    for _ in range(steps):
        b = int(where[0])
        r, c = divmod(b, cols)
        options = [x for x, ok in ((b - cols, r > 0), (b + cols, r < rows - 1),
                                   (b - 1, c > 0), (b + 1, c < cols - 1)) if ok]
        dst = options[rng.integers(len(options))]
        tile = int(np.nonzero(where == dst)[0][0])
        where = where.copy()
        where[tile], where[0] = b, dst
        out.append((where, tile))
    return out


@pytest.mark.parametrize("reflect", [False, True])
@pytest.mark.parametrize(("rule", "encoding"), RULE_ENCODINGS)
def test_incremental_values_along_random_walks(rule: str, encoding: str, reflect: bool) -> None:
    reference = make(rule, "byte", reflect=reflect)
    h = make(rule, encoding, 64 if encoding == "minnibble" else 0, reflect)
    assert h.saturated == 0
    npat = 3
    lossy = False
    for seed in (1, 2, 3):
        start = GENERATORS["random"]({"rows": 4, "cols": 4}, seed).instance.tiles
        where = where_of(start)
        rwhere = np.empty_like(where)
        vals = np.empty(npat + 1, dtype=np.int64)
        rvals = np.empty(npat + 1, dtype=np.int64)
        got = [h_init(h.arrays, where, rwhere, vals, rvals)]
        states = [where]
        for where, tile in walk(start, 150, seed):
            got.append(h_move(h.arrays, where, rwhere, tile, vals, rvals))
            states.append(where)
        want = [reference(np.argsort(w)) for w in states]
        if encoding == "minnibble":
            assert all(g <= w for g, w in zip(got, want, strict=True))
            lossy |= got != want
        else:
            assert got == want, (rule, encoding, reflect, seed)
    assert lossy == (encoding == "minnibble")  # lossy indeed, on these walks


def test_undo_by_the_reverse_move_restores_everything() -> None:
    h = make("ignored", "bit", reflect=True)
    start = GENERATORS["random"]({"rows": 4, "cols": 4}, 9).instance.tiles
    where = where_of(start)
    rwhere = np.empty_like(where)
    vals = np.empty(4, dtype=np.int64)
    rvals = np.empty(4, dtype=np.int64)
    h0 = h_init(h.arrays, where, rwhere, vals, rvals)
    saved = (vals.copy(), rvals.copy(), rwhere.copy())
    (after, tile), = walk(start, 1, 4)
    h_move(h.arrays, after, rwhere, tile, vals, rvals)
    back = after.copy()
    back[tile], back[0] = after[0], after[tile]
    assert h_move(h.arrays, back, rwhere, tile, vals, rvals) == h0
    for a, b in zip(saved, (vals, rvals, rwhere), strict=True):
        assert (a == b).all()


@pytest.mark.parametrize("rule", ["ignored", "minimized"])
def test_nibbles_decode_to_the_table_and_minnibble_stays_below(rule: str) -> None:
    pattern = Pattern(4, 4, "blank-first", (1, 2, 3, 6, 7))
    t = table(pattern.tiles, rule)
    md = pattern.manhattan_rows()
    weights = enc.radix_products(pattern.k, pattern.n)
    nib = enc.encode(t, pattern.k, pattern.n, md, "nibble")
    assert nib.payload.size == (t.size + 1) // 2 and nib.saturated == 0
    out = np.empty(t.size, dtype=np.int64)
    enc.decode_nibble(nib.payload, pattern.k, pattern.n, weights, md, out)
    assert (out == t).all()
    for group in (2, 16):
        lossy = enc.encode(t, pattern.k, pattern.n, md, "minnibble", group)
        assert lossy.payload.size == ((t.size + group - 1) // group + 1) // 2
        enc.decode_minnibble(lossy.payload, pattern.k, pattern.n, weights, md,
                             group.bit_length() - 1, out)
        assert (out <= t).all() and (out < t).any()
        assert ((out - t) % 2 == 0).all()  # the Manhattan part stays exact


def test_residue_encodings_hold_the_residues() -> None:
    pattern = Pattern(4, 4, "blank-first", (1, 2, 3, 6, 7))
    t = table(pattern.tiles, "ignored").astype(np.int64)
    md = pattern.manhattan_rows()
    mod3 = enc.encode(t.astype(np.uint8), pattern.k, pattern.n, md, "mod3").payload
    assert mod3.size == (t.size + 4) // 5 and mod3.max() < 243
    digits = enc.MOD3_LUT.reshape(256, 5)[mod3].reshape(-1)[:t.size]
    assert (digits == t % 3).all()
    bits = enc.encode(t.astype(np.uint8), pattern.k, pattern.n, md, "bit").payload
    assert bits.size == (t.size + 7) // 8
    assert (np.unpackbits(bits, bitorder="little")[:t.size] == (t >> 1) & 1).all()


def test_descent_recovers_the_start_value() -> None:
    byte = make("ignored", "byte")
    for encoding in ("mod3", "bit"):
        h = make("ignored", encoding)
        for seed in range(10):
            tiles = GENERATORS["random"]({"rows": 4, "cols": 4}, 100 + seed).instance.tiles
            where = where_of(tiles)
            for j in range(3):
                assert (pattern_value(h.arrays, j, where)
                        == pattern_value(byte.arrays, j, where))


def test_nibble_saturation_is_counted_and_stays_below() -> None:
    pattern = Pattern(3, 3, "blank-first", (1,))
    md = pattern.manhattan_rows()
    excess = np.array([0, 3, 15, 16, 40, 7, 1, 2, 99])
    t = (md[0] + 2 * excess).astype(np.uint8)
    nib = enc.encode(t, 1, 9, md, "nibble")
    assert nib.saturated == 3
    out = np.empty(9, dtype=np.int64)
    enc.decode_nibble(nib.payload, 1, 9, enc.radix_products(1, 9), md, out)
    assert (out == md[0] + 2 * np.minimum(excess, 15)).all()


def test_encoding_parameters_are_checked() -> None:
    assert enc.check_encoding("minnibble") == enc.DEFAULT_GROUP
    assert enc.check_encoding("nibble", 7) == 0
    for bad in (3, 1, 12):
        with pytest.raises(ValueError, match="power of 2"):
            enc.check_encoding("minnibble", bad)
    with pytest.raises(ValueError, match="encoding"):
        enc.check_encoding("gzip")
