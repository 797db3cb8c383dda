"""Alpha-beta on random trees: the seed's claim, which definition gives its 54 %, the minimal tree,
and the node rate.

The seed (chapter 27.3): "200 trees of depth 4 and arity 4: 200/200 equal values, the tree
explored at 54 % in arbitrary order". Alpha-beta's and minimax's values are compared on the
family's trees (``GENERATORS["tree"]``, seeds 1..N); the fraction explored is printed three
ways -- nodes entered with the root (out of 341), without it (out of 340), leaves (out of 256)
-- for several leaf-value models and both cut rules:

- leaf models: ``distinct`` (uniform in +-10^9: ties almost never), ``wide`` (-1000..1000, the
  family's default), ``int21`` (-10..10), ``digits`` (0..9); with few values ties are frequent,
  and ties are what the two cut rules treat differently;
- cut rules: ``<=`` (the seed's OCaml: cut when ``beta <= alpha``) and ``<`` (strict: cut only
  when ``beta < alpha``; the same values, fewer cuts).

What it shows (20,000 trees, seeds 1..20000): with near-continuous leaves (the family's default
-1000..1000, or +-10^9) alpha-beta enters 49.8-49.9 % of the nodes (root included; 49.7 %
without it) and 44.0-44.1 % of the leaves, under either rule -- the issue's simulation. Under
the seed's ``<=`` ties only add cuts, so no leaf model gets it above 50 % (-10..10: 46.3 %;
0..9: 42.8 %). The seed's 54 % is the strict rule with small integer leaves: ``<`` on -10..10
gives 53.7 % of the nodes (54.0 % on the first 200 seeds, +-1.4 % at two standard errors),
48.0 % of the leaves; the scan over -k..k shows the strict fraction falling from 76.6 % (k=1) to
49.9 % (k=1000), crossing 54 % near k=10. The seed's OCaml (``<=``, floats) would print 49.8 %.

Then the perfect-ordering reference (children sorted by their true minimax value): its leaves
against Knuth and Moore's ``b^ceil(d/2) + b^floor(d/2) - 1`` (31 for depth 4, arity 4), and the
node rate of minimax and alpha-beta on larger trees (the kernel only: trees drawn and keys
computed before the clock starts; one core, single-threaded).

    python perf/games_alphabeta_trees.py [--counts 200 20000] [--depth 4] [--arity 4]
        [--scan-count 20000] [--scan 1 2 5 10 20 50 1000] [--rate-depth 10] [--rate-arity 4]
        [--rate-seeds 5]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from instances.games import GENERATORS, GameTree
from searches.support.games_tree import (
    TreeSearch,
    flat_levels,
    minimax_levels,
    order_keys,
    perfect_ordering_leaves,
    prepare,
)

#: leaf-value model -> (low, high) of the family's iid trees
MODELS = {"distinct": (-10**9, 10**9), "wide": (-1000, 1000), "int21": (-10, 10),
          "digits": (0, 9)}
RULES = {"<=": False, "<": True}


def family_tree(depth: int, arity: int, low: int, high: int, seed: int) -> GameTree:
    params = {"depth": depth, "arity": arity, "values": "iid", "low": low, "high": high}
    return GENERATORS["tree"](params, seed).instance


def explore(depth: int, arity: int, count: int, low: int, high: int) -> dict[str, np.ndarray]:
    """Per tree (seeds 1..count): equal values with minimax, and nodes/leaves of alpha-beta
    under each cut rule and of the perfect ordering."""
    blank = np.zeros(arity ** depth, np.int64)
    minimax = TreeSearch.start(blank, arity, depth, prune=False)
    searches = {rule: TreeSearch.start(blank, arity, depth, strict=strict)
                for rule, strict in RULES.items()}
    levels = flat_levels(minimax_levels(blank, arity, depth))
    oracle = TreeSearch.start(blank, arity, depth, keys=levels)
    out: dict[str, list] = {"equal": [], "oracle_leaves": [], "distinct_leaves": []}
    for rule in RULES:
        out[f"nodes{rule}"], out[f"leaves{rule}"] = [], []
    for seed in range(1, count + 1):
        leaves = family_tree(depth, arity, low, high, seed).leaves()
        value = minimax.restart(leaves).finish().value
        equal = True
        for rule, search in searches.items():
            search.restart(leaves).finish()
            equal &= search.value == value
            out[f"nodes{rule}"].append(search.nodes)
            out[f"leaves{rule}"].append(search.leaf_count)
        out["equal"].append(equal)
        oracle.restart(leaves, flat_levels(minimax_levels(leaves, arity, depth))).finish()
        out["oracle_leaves"].append(oracle.leaf_count)
        out["distinct_leaves"].append(len(np.unique(leaves)) == len(leaves))
    return {k: np.array(v) for k, v in out.items()}


def fractions_table(depth: int, arity: int, counts: list[int]) -> None:
    nodes = sum(arity ** t for t in range(depth + 1))
    leaves = arity ** depth
    print(f"alpha-beta vs minimax on iid trees of depth {depth}, arity {arity} ({nodes} nodes "
          f"with the root, {leaves} leaves), in index order")
    print("(nodes+root: mean fraction +- 2 standard errors of the mean over the trees)")
    print(f"{'trees':>6} {'model':>8} {'values':>14} {'cut':>3} {'equal':>11} "
          f"{'nodes+root':>17} {'nodes-root':>10} {'leaves':>7}")
    perfect = perfect_ordering_leaves(arity, depth)
    oracle_lines = []
    for count in counts:
        for model, (low, high) in MODELS.items():
            t = time.perf_counter()
            r = explore(depth, arity, count, low, high)
            for rule in RULES:
                n = r[f"nodes{rule}"]
                f_root = n.mean() / nodes
                two_se = 2 * n.std(ddof=1) / nodes / np.sqrt(len(n))
                f_noroot = (n - 1).mean() / (nodes - 1)
                f_leaves = r[f"leaves{rule}"].mean() / leaves
                print(f"{count:>6} {model:>8} {f'{low}..{high}':>14} {rule:>3} "
                      f"{r['equal'].sum():>5}/{count:<5} {f_root:>9.2%} +-{two_se:>5.2%} "
                      f"{f_noroot:>10.2%} {f_leaves:>7.2%}")
            distinct = r["distinct_leaves"]
            ol = r["oracle_leaves"]
            oracle_lines.append(
                f"{count:>6} {model:>8}: oracle leaves min {ol.min()}, max {ol.max()} "
                f"(trees with distinct leaves: {distinct.sum()})  "
                f"[{time.perf_counter() - t:.1f} s for the model]")
    print()
    print(f"perfect ordering (children by true minimax value), Knuth-Moore "
          f"b^ceil(d/2)+b^floor(d/2)-1 = {perfect} leaves:")
    for line in oracle_lines:
        print(line)


def range_scan(depth: int, arity: int, count: int, halves: list[int]) -> None:
    """Both cut rules over symmetric integer ranges -k..k: where the strict rule's fraction
    meets the seed's 54 %."""
    nodes = sum(arity ** t for t in range(depth + 1))
    print()
    print(f"nodes entered with the root, {count} trees, leaves uniform in -k..k "
          "(the fewer the values, the more ties):")
    print(f"{'k':>6} {'values':>7} {'<=':>8} {'<':>8}")
    for k in halves:
        r = explore(depth, arity, count, -k, k)
        print(f"{k:>6} {2 * k + 1:>7} {r['nodes<='].mean() / nodes:>8.2%} "
              f"{r['nodes<'].mean() / nodes:>8.2%}")


def node_rate(depth: int, arity: int, seeds: list[int]) -> None:
    print()
    print(f"node rate on trees of depth {depth}, arity {arity} "
          f"({sum(arity ** t for t in range(depth + 1)):,} nodes), one core; kernel time only")
    print(f"{'values':>12} {'search':>22} {'nodes/tree':>12} {'leaves/tree':>12} "
          f"{'seconds':>8} {'M nodes/s':>9}")
    for values in ("iid", "incremental"):
        trees = [GameTree(depth, arity, values=values, low=-1000, high=1000, seed=s)
                 for s in seeds]
        levels = [t.levels() for t in trees]
        leaves = [lv[-1] for lv in levels]
        setups = {"minimax": (False, "none"), "alphabeta": (True, "none"),
                  "alphabeta estimate": (True, "estimate"),
                  "alphabeta oracle": (True, "oracle")}
        for label, (prune, order) in setups.items():
            keys = [order_keys(t, order, lv) for t, lv in zip(trees, levels, strict=True)]
            searches = [TreeSearch.start(lv, arity, depth, prune=prune, keys=k)
                        for lv, k in zip(leaves, keys, strict=True)]
            repeat = 1 if not prune else 20
            total_nodes = total_leaves = 0
            seconds = 0.0
            for search, lv, k in zip(searches, leaves, keys, strict=True):
                for _ in range(repeat):
                    search.restart(lv, k)
                    t = time.perf_counter()
                    search.finish()
                    seconds += time.perf_counter() - t
                    total_nodes += search.nodes
                    total_leaves += search.leaf_count
            runs = repeat * len(searches)
            print(f"{values:>12} {label:>22} {total_nodes / runs:>12,.0f} "
                  f"{total_leaves / runs:>12,.0f} {seconds:>8.3f} "
                  f"{total_nodes / seconds / 1e6:>9.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--counts", type=int, nargs="+", default=[200, 20_000])
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--arity", type=int, default=4)
    parser.add_argument("--scan-count", type=int, default=20_000)
    parser.add_argument("--scan", type=int, nargs="*", default=[1, 2, 5, 10, 20, 50, 1000])
    parser.add_argument("--rate-depth", type=int, default=10)
    parser.add_argument("--rate-arity", type=int, default=4)
    parser.add_argument("--rate-seeds", type=int, default=5)
    args = parser.parse_args()
    prepare()
    fractions_table(args.depth, args.arity, args.counts)
    if args.scan:
        range_scan(args.depth, args.arity, args.scan_count, args.scan)
    node_rate(args.rate_depth, args.rate_arity, list(range(1, args.rate_seeds + 1)))


if __name__ == "__main__":
    main()
