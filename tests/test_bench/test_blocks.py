"""Block runs (a ladder's ``block = N``): one row per instance, every answer checked, exact
resume, per-instance timeouts, and the suite's checks of the key."""

from __future__ import annotations

import json
import os
import random

import pytest

import bench
from bench.execute.blocks import Block, BlockRuns
from bench.execute.sweep import run_sweep
from bench.plan.suite import SuiteError, load_suite
from bench.table.journal import Journal, _pack, _unpack
from instances.sudoku import Solution, check, check_many
from instances.sudoku.generators import PLANTED

SUITE = """name = "{name}"
timeout = 10
jobs = 1
[[solver]]
name = "native"
[[solver]]
name = "norvig"
[[ladder]]
name = "planted"
generator = "sudoku/planted"
params = {{ box = 3 }}
vary = "clues"
values = [30, 26]
seeds = [1, 2, 3, 4, 5, 6, 7]
block = 3
"""


def write_suite(tmp_path, name="blk", text=SUITE):
    path = tmp_path / f"{name}.toml"
    path.write_text(text.format(name=name))
    return path


def test_block_rows_checked_one_per_instance(tmp_path):
    folder = run_sweep(str(write_suite(tmp_path)), results=tmp_path / "res", progress=False)
    table = bench.load(folder)
    assert len(table) == 2 * 2 * 7
    assert (table["status"] == "solved").all() and table["verified"].all()
    for (solver, rung), group in table.groupby(["solver", "rung"]):
        sizes = group.groupby("block")["block_size"].first().sort_values().tolist()
        assert sizes == [1, 3, 3], (solver, rung)
        assert sorted(group["block_index"]) == [0, 0, 0, 1, 1, 2, 2]
        assert group["block_wall"].notna().all() and group["t_wall"].notna().all()
    native = table[table["solver"] == "native"]
    assert (native["chunk_size"] >= 1).all()
    assert native["counters"].map(lambda c: json.loads(c)["solutions"]).eq(1).all()


def test_a_block_sweep_past_the_journals_memory_makes_the_same_table(tmp_path, monkeypatch):
    """A sweep whose journal stops keeping its rows in memory (past ``KEEP_ROWS``) is
    compacted from the file: the table is the one of a sweep kept in memory throughout (its
    times aside)."""
    import pandas as pd

    import bench.table.journal as journal_module

    kept = bench.load(run_sweep(str(write_suite(tmp_path)), results=tmp_path / "kept",
                                progress=False))
    monkeypatch.setattr(journal_module, "KEEP_ROWS", 5)
    read = bench.load(run_sweep(str(write_suite(tmp_path)), results=tmp_path / "read",
                                progress=False))
    same = [c for c in kept.columns if not c.startswith(("t_", "started", "chunk", "block_wall",
                                                         "peak", "sweep", "limits"))]
    order = ["key"]
    pd.testing.assert_frame_equal(kept[same].sort_values(order).reset_index(drop=True),
                                  read[same].sort_values(order).reset_index(drop=True))


def test_block_resume_is_exact(tmp_path):
    suite = write_suite(tmp_path)
    folder = run_sweep(str(suite), results=tmp_path / "res", progress=False)
    journal = folder / "journal.jsonl"
    lines = journal.read_text().splitlines()
    keys = sorted(row["key"] for row in Journal(journal).read())
    assert len(lines) < len(keys)  # chunks of a block are one line each
    kept = len(lines) // 2
    journal.write_text("\n".join(lines[:kept]) + "\n")  # a kill mid-block
    first = [row["key"] for row in Journal(journal).read()]
    assert 0 < len(first) < len(keys)
    run_sweep(str(suite), results=tmp_path / "res", progress=False, resume=True)
    again = Journal(journal).read()
    assert sorted(row["key"] for row in again) == keys  # none lost, none twice
    assert [row["key"] for row in again[:len(first)]] == first


def test_a_chunk_line_holds_its_constant_columns_once():
    rows = [{"key": f"k{i}", "solver": "native", "t_wall": 0.1 * i, "score": float("nan"),
             "flag": True if i else 1, "note": None if i == 2 else "x"} for i in range(4)]
    rows[3]["extra"] = 7
    chunk = _pack(rows)
    assert chunk["same"] == {"solver": "native", "score": None}
    assert set(chunk["rows"]) == {"key", "t_wall", "flag", "note", "extra"}
    assert chunk["rows"]["extra"] == [None, None, None, 7]
    back = _unpack(json.loads(json.dumps(chunk)))
    assert [type(row["flag"]) for row in back] == [int, bool, bool, bool]
    assert [row["key"] for row in back] == ["k0", "k1", "k2", "k3"]
    assert all(row["score"] is None for row in back) and back[2]["note"] is None


def test_block_key_is_checked(tmp_path):
    bad = SUITE.replace("block = 3", "block = 0")
    with pytest.raises(SuiteError, match="'block' must be a whole number"):
        load_suite(str(write_suite(tmp_path, "bad", bad)))
    both = SUITE.replace("block = 3", "block = 3\nadaptive = {{ runs = 4, width = 1.0 }}")
    with pytest.raises(SuiteError, match="'block' and 'adaptive'"):
        load_suite(str(write_suite(tmp_path, "both", both)))


def test_block_with_dask_is_refused(tmp_path):
    with pytest.raises(SuiteError, match="need the local executor"):
        run_sweep(str(write_suite(tmp_path)), results=tmp_path / "res", progress=False,
                  executor="dask-local")


def test_a_blocks_instance_columns_are_its_runs(tmp_path):
    """A block's instance columns, made column by column, are its runs' ``instance_columns``
    transposed: the same names in the same order, a parameter a run lacks null."""
    from bench.execute.runner import instance_column_lists, instance_columns
    from bench.execute.sweep import prepare_sweep
    from bench.table.journal import transpose

    _, tasks = prepare_sweep(str(write_suite(tmp_path)))
    tasks[1].ref.extra_params = {"hint": "x"}  # (runs of two solvers share an instance)
    tasks[-1].ref.extra_params = {"clues": 99, "later": 1.5}
    want = transpose([instance_columns(task) for task in tasks])
    got = instance_column_lists(tasks)
    assert list(got) == list(want) and got == want
    assert {None, "x"} <= set(got["p_hint"]) and got["p_clues"][-1] == 99


@pytest.fixture
def as_a_worker(monkeypatch):
    """This test process as a worker for one test: what a worker's run sets for its whole
    process (the address-space backstop, the thread-pool variables) is undone after it. Left
    set, the backstop held every later program this process started, headless Chromium among
    them, which dies at start-up (SIGTRAP) without its address space."""
    import resource

    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        monkeypatch.setenv(var, os.environ.get(var, ""))
    limit = resource.getrlimit(resource.RLIMIT_AS)
    yield
    resource.setrlimit(resource.RLIMIT_AS, limit)


def test_a_blocks_last_rows_come_in_one_write_with_its_end(tmp_path, as_a_worker):
    """The worker sends each chunk's rows as it ends, but the last chunk's together with the
    block's result (one ``send``, so one write): the parent reads them together and gives
    out the next block before it makes those rows. Every instance is in exactly one chunk."""
    from bench.execute.blocks import block_payload
    from bench.execute.sweep import prepare_sweep
    from bench.execute.worker import Worker

    _, tasks = prepare_sweep(str(write_suite(tmp_path)))
    block = Block([t for t in tasks if t.block == tasks[0].block])
    worker = Worker([], 1)
    worker.chunk_sizes[block.config.spec.key] = 1  # chunks of 1, 2, ...: several of them
    sends: list[tuple[dict, ...]] = []
    assert worker.run_block(block_payload(block, 7), lambda *m: sends.append(m)) is None
    rows = [m for group in sends for m in group if m["op"] == "rows"]
    assert [len(group) for group in sends].count(2) == 1 and len(sends[-1]) == 2
    assert [m["op"] for m in sends[-1]] == ["rows", "result"] and len(rows) > 1
    covered = [m["start"] + i for m in rows for i in range(len(m["columns"]["kind"]))]
    assert covered == list(range(len(block.tasks)))


def test_check_many_agrees_with_check():
    rng = random.Random(5)
    pairs = []
    for seed in range(1, 9):
        made = PLANTED({"box": 3, "clues": 30}, seed)
        grid = list(made.secret.grid)
        if seed % 2:  # corrupt: swap two cells, or blank one, or change a clue
            i, j = rng.sample(range(81), 2)
            if seed % 4 == 1:
                grid[i], grid[j] = grid[j], grid[i]
            else:
                grid[i] = 0
        pairs.append((made.instance, Solution(3, tuple(grid))))
    many = check_many([p[0] for p in pairs], [p[1] for p in pairs])
    assert many == [check(i, s) for i, s in pairs]
    assert any(not v.solved for v in many) and any(v.solved for v in many)


def test_solved_rows_is_checks_solved_on_near_misses():
    """The array judgement calls a grid solved exactly when ``check`` does, on grids one
    change from solved: two cells of a row swapped (every row still holds each digit once),
    a blank, a digit past the size (no solution at all), a clue overwritten, two rows of a
    band swapped."""
    import numpy as np

    from instances.sudoku.check import solved_rows

    rng = random.Random(11)
    for box in (2, 3, 4):
        size = box * box
        made = [PLANTED({"box": box, "clues": box**4 // 2}, seed) for seed in (1, 2, 3)]
        instances, grids = [], []
        for gen in made:
            secret = list(gen.secret.grid)
            for change in range(6):
                grid = list(secret)
                row, i, j = rng.randrange(size), *rng.sample(range(size), 2)
                if change == 1:
                    grid[row * size + i], grid[row * size + j] = \
                        grid[row * size + j], grid[row * size + i]
                elif change == 2:
                    grid[rng.randrange(size * size)] = 0
                elif change == 3:
                    grid[rng.randrange(size * size)] = size + 1
                elif change == 4:
                    clue = next(c for c, v in enumerate(gen.instance.grid) if v)
                    grid[clue] = grid[clue] % size + 1
                elif change == 5:
                    a, b = rng.sample(range(box), 2)
                    grid[a * size:(a + 1) * size], grid[b * size:(b + 1) * size] = \
                        grid[b * size:(b + 1) * size], grid[a * size:(a + 1) * size]
                instances.append(gen.instance)
                grids.append(grid)
        got = solved_rows(np.array([i.grid for i in instances]), np.array(grids), box)
        want = [max(g) <= size and check(i, Solution(box, tuple(g))).solved
                for i, g in zip(instances, grids, strict=True)]  # past the size: malformed
        assert got.tolist() == want and any(want) and not all(want)
        # a digit that a shift of 64 bits would wrap onto a missing one (65 -> 1) solves nothing
        wrapped = np.array(made[0].secret.grid)
        wrapped[wrapped == 1] = 65
        assert not solved_rows(np.array([made[0].instance.grid]), wrapped[None, :], box)[0]


def test_check_texts_judges_only_what_check_calls_solved():
    """The family's ``check_texts`` gives ``check``'s verdict or none; through the harness
    (bench.execute.classify.check_texts) every text gets ``check``'s verdict, a text that
    does not read its malformed-answer verdict."""
    from bench.execute.classify import check_solution
    from bench.execute.classify import check_texts as harness_check_texts
    from instances.sudoku import check_texts

    made = [PLANTED({"box": box, "clues": box**4 - box**3}, seed)
            for box in (2, 3, 4) for seed in (1, 2)]
    cases = []
    for gen in made:
        line, box = gen.secret.to_line(), gen.instance.box
        cases += [(gen.instance, json.dumps({"box": box, "grid": line})),
                  (gen.instance, json.dumps({"grid": line, "box": box}, indent=1)),
                  (gen.instance, json.dumps({"box": box, "grid": line.lower()})),
                  (gen.instance, json.dumps({"box": box, "grid": line[1:] + line[0]})),
                  (gen.instance, json.dumps({"box": box, "grid": "." + line[1:]})),
                  (gen.instance, json.dumps({"box": box, "grid": "0" + line[1:]})),
                  (gen.instance, json.dumps({"box": box + 1, "grid": line})),
                  (gen.instance, json.dumps({"box": box, "grid": line + "1"})),
                  (gen.instance, json.dumps({"box": box, "grid": "é" + line[1:]})),
                  (gen.instance, json.dumps([box, line])), (gen.instance, "{not json"),
                  (gen.instance, None)]
    quick = check_texts([c[0] for c in cases], [c[1] for c in cases])
    for (instance, text), verdict in zip(cases, quick, strict=True):
        if verdict is not None:
            assert verdict == check(instance, Solution.from_json(json.loads(text), instance))
    # the line as written, reordered keys; lower case too where the box has no letters
    assert sum(v is not None for v in quick) == sum(3 if g.instance.box < 4 else 2
                                                   for g in made)
    block = block_of_cases(cases)
    full = harness_check_texts(block, [c[1] for c in cases])
    for task, (_, text), verdict in zip(block, cases, full, strict=True):
        if text is None:
            assert verdict is None
        elif text == "{not json":
            assert not verdict.legal and "malformed" in verdict.reason
        else:
            assert verdict == check_solution(task, json.loads(text))[1], text


def test_compact_answer_texts_are_judged_as_their_parse_is():
    """A chunk of texts of one length for one box side goes through ``judge_compact`` (no
    JSON parse): each verdict is the one a parse of the text and ``check`` give (solved, or
    none), whatever the text holds in the compact form's place (an escape, a quote, a control
    character, another head, a wrong digit)."""
    from instances.sudoku.check import check_texts, judge_compact

    def parsed_verdict(instance, text):
        try:
            data = json.loads(text)
            solution = Solution.from_json(data, instance)
        except (ValueError, TypeError, KeyError):
            return None
        if type(data.get("grid")) is not str or data.get("box") != instance.box:
            return None
        verdict = check(instance, solution)
        return verdict if verdict.solved else None

    made = [PLANTED({"box": 3, "clues": 30}, seed) for seed in range(1, 4)]
    first = '{"box":3,"grid":"'  # the compact form's head
    cases = []
    for gen in made:
        line = gen.secret.to_line()
        cases += [(gen.instance, head + text + tail) for head, text, tail in (
            (first, line, '"}'), (first, line[1:3] + line[0] + line[3:], '"}'),
            (first, line[:10] + "\\u0031" + line[16:], '"}'),
            (first, line[:10] + '"' + line[11:], '"}'),
            (first, line[:10] + "\n" + line[11:], '"}'), (first, line[:80] + ".", '"}'),
            (first.replace("box", "xox"), line, '"}'), (first.replace("3", "4"), line, '"}'),
            (first, line[:80], '" }'))]
    instances, texts = [c[0] for c in cases], [c[1] for c in cases]
    assert len(set(map(len, texts))) == 1
    out = [None] * len(texts)
    left = judge_compact(instances, texts, out)
    assert len(left) == 6 * len(made)  # the first three of each are in the compact form
    got = check_texts(instances, texts)
    assert got == [parsed_verdict(instance, text) for instance, text in cases]
    assert sum(v is not None for v in got) == len(made)


def block_of_cases(cases):
    """Runs whose instances are the cases' (only ``ref.instance`` and the family are read)."""
    from types import SimpleNamespace

    return [SimpleNamespace(ref=SimpleNamespace(instance=instance, family="sudoku"))
            for instance, _ in cases]


class FakeSlot:
    started_iso, limits_by, t_prepare = "2026-01-01T00:00:00Z", "process-tree", 0.5

    @staticmethod
    def limits_note():
        return "test"


def block_of(tmp_path, n=5):
    from bench.execute.sweep import prepare_sweep

    _, tasks = prepare_sweep(str(write_suite(tmp_path)))
    first = tasks[0].block
    return Block([t for t in tasks if t.block == first][:n])


def test_block_kill_keeps_finished_rows_and_requeues_the_rest(tmp_path):
    block = block_of(tmp_path)
    runs = BlockRuns(block, grace_s=1.0)
    made = PLANTED({"box": 3, "clues": 30}, 1)
    answer = {"kind": ["outcome"], "claimed": ["solved"], "t_wall": [0.001],
              "solution": [json.dumps(made.secret.to_json())]}
    chunk = runs.chunk({"start": 0, "columns": answer, "chunk_wall": 0.001,
                        "block_wall": 0.002}, FakeSlot(), "s")
    rows = chunk.rows()
    assert len(rows) == 1 and rows[0]["t_prepare"] == 0.5
    assert rows[0]["status"] == "solved" and rows[0]["verified"]
    killed, rest = runs.ended({"kind": "timeout", "message": "killed", "chunk_start": 1,
                               "chunk_size": 1, "chunk_elapsed": 11.0}, "s")
    assert [t.block_index for t, _ in killed] == [1]
    assert killed[0][1]["status"] == "timeout" and killed[0][1]["t_wall"] == 11.0
    assert [t.block_index for t in rest] == [2]


def test_a_chunks_claims_are_judged_as_each_run_alone(tmp_path):
    """A chunk judges each distinct claim once: every row's status, verified and verdict are
    still what ``judge_claim`` gives its run alone (a right answer, a count of 2+ on a puzzle
    known to be unique, a changed digit, no answer; the same claim again after them)."""
    from bench.execute.classify import judge_claim

    block = block_of(tmp_path, 3)
    tasks = block.tasks
    secrets = [task.ref.generated.secret for task in tasks]
    assert all(task.ref.generated.known_solutions == 1 for task in tasks)
    broken = list(secrets[2].grid)
    broken[0] = broken[0] % 9 + 1
    answers = [secrets[0], secrets[1], Solution(3, tuple(broken)), None, secrets[1]]
    rows_of = [0, 1, 2, 0, 1]  # two runs met twice: the chunk covers the block's runs in turn
    claims = ["solved", "solved", "solved", "solved", "solved"]
    buckets = ["1", "2+", "1", None, "1"]
    want = []
    for answer, run, claim, bucket in zip(answers, rows_of, claims, buckets, strict=True):
        verdict = None if answer is None else check(tasks[run].ref.instance, answer)
        want.append(judge_claim(tasks[run], claim, verdict, None, bucket))
    for start in range(0, 5, 3):  # chunks of the block's runs: 0, 1, 2 then 0, 1 again
        part = slice(start, min(start + 3, 5))
        columns = {"kind": ["outcome"] * len(answers[part]), "claimed": claims[part],
                   "solutions": buckets[part], "t_wall": [0.001] * len(answers[part]),
                   "solution": [None if a is None else json.dumps(a.to_json())
                                for a in answers[part]]}
        runs = BlockRuns(block, grace_s=1.0)
        rows = runs.chunk({"start": 0, "columns": columns}, FakeSlot(), "s").rows()
        for row, judged in zip(rows, want[part], strict=True):
            assert row["status"] == judged["status"]
            assert row["verdict"] == judged.get("verdict")
            assert row["verified"] == judged.get("verified")
    assert [w["status"] for w in want] == ["solved", "wrong", "wrong", "wrong", "solved"]
    # a chunk whose rows all claim alike is judged once: still each run's own judgement
    for claim, answer, bucket in (("solved", True, "1"), ("infeasible", False, "0"),
                                  ("unknown", False, None), ("solved", False, None)):
        texts = [json.dumps(s.to_json()) if answer else None for s in secrets]
        columns = {"kind": ["outcome"] * 3, "claimed": [claim] * 3, "solutions": [bucket] * 3,
                   "t_wall": [0.001] * 3, "solution": texts}
        rows = BlockRuns(block, grace_s=1.0).chunk({"start": 0, "columns": columns},
                                                   FakeSlot(), "s").rows()
        for task, secret, row in zip(tasks, secrets, rows, strict=True):
            verdict = check(task.ref.instance, secret) if answer else None
            judged = judge_claim(task, claim, verdict, None, bucket)
            assert {k: row[k] for k in judged} == judged, claim


def test_block_own_time_past_budget_is_a_timeout(tmp_path):
    block = block_of(tmp_path, 1)
    runs = BlockRuns(block, grace_s=1.0)
    task = block.tasks[0]
    result = {"kind": ["outcome"], "claimed": ["unknown"], "t_wall": [task.budget_s + 2.0]}
    (row,) = runs.chunk({"start": 0, "columns": result}, FakeSlot(), "s").rows()
    assert row["status"] == "timeout" and "past the budget" in row["message"]


def test_run_keys_of_many_instances_are_run_key_itself():
    from bench.plan.registry import load_solver
    from bench.plan.suite import RunKeys, SolverConfig, run_key

    spec = load_solver("sudoku/native", [])
    for params in (spec.resolve({}), {"odd": "é\x00\"", "list": [1, 2.5]}):
        config = SolverConfig(spec, params, "x")
        keys = RunKeys(config, 2, 7, 10.0, 4000, 1)
        for instance_id in ("ba4455f16c205b95", "not a hash: é"):
            assert keys.key(instance_id) == run_key(config, instance_id, 2, 7, 10.0, 4000, 1)


def test_run_keys_made_together_are_each_ones_key():
    """``RunKeys.keys`` gives ``key`` of each id, ids that JSON escapes (a non-ASCII letter is
    alphanumeric to Python, and escaped by ``json.dumps``) among them."""
    from bench.plan.registry import load_solver
    from bench.plan.suite import RunKeys, SolverConfig, run_key

    spec = load_solver("sudoku/native", [])
    config = SolverConfig(spec, spec.resolve({}), "x")
    keys = RunKeys(config, 0, 1, 10.0, 4000, 1)
    for ids in (["ba4455f16c205b95", "00ff"], ["ba4455f16c205b95", "é1"], ["a b"], ["é"], []):
        assert keys.keys(ids) == [keys.key(i) for i in ids] \
            == [run_key(config, i, 0, 1, 10.0, 4000, 1) for i in ids]


def test_a_blocks_keys_made_together_are_each_runs_key(tmp_path):
    """``task_keys`` of a block's runs (of one ``RunKeys``; those without a key yet keyed
    together) is each run's ``run_key``, and each run keeps its key; runs of several configs
    give theirs one by one."""
    from bench.execute.sweep import prepare_sweep
    from bench.plan.suite import run_key, task_keys

    _, tasks = prepare_sweep(str(write_suite(tmp_path)))

    def defined(task):
        return run_key(task.config, task.ref.instance_id, task.repeat, task.seed,
                       task.budget_s, task.mem_mb, task.cores)

    native = [t for t in tasks if t.config.name == "native"][:5]  # a block's first has its key
    assert [t.given_key is None for t in native] == [False, True, True, False, True]
    ids = [t.ref.instance_id for t in native]
    assert task_keys(native, ids) == [defined(t) for t in native]
    assert [t.given_key for t in native] == [defined(t) for t in native]
    mixed = [t for t in tasks if t.config.name == "norvig"][:2] + native[:2]
    assert task_keys(mixed, [t.ref.instance_id for t in mixed]) == [defined(t) for t in mixed]


def naive_grid(suite, configs):
    """The run grid as its definition says: for each ladder, rung and instance in turn, each
    config of the instance's family that climbs the ladder and accepts the instance, in each
    repeat, keyed by ``run_key``, a key met before left out; a block ladder's runs grouped by
    ``assign_blocks``."""
    from bench.plan.suite import Task, assign_blocks, run_key

    tasks, seen = [], set()
    for ladder in suite.ladders:
        for rung in ladder.rungs:
            start = len(tasks)
            for ref in rung.refs:
                for config in configs:
                    if config.spec.family != ref.family or not ladder.runs(config) \
                            or not config.spec.applies_to(ref.instance):
                        continue
                    for repeat in range(suite.repeats):
                        seed = suite.seed + repeat
                        key = run_key(config, ref.instance_id, repeat, seed, suite.timeout,
                                      suite.mem, suite.cores)
                        if key in seen:
                            continue
                        seen.add(key)
                        tasks.append(Task(key, ref, config, repeat, seed, suite.timeout,
                                          suite.mem, suite.cores))
            if ladder.block:
                assign_blocks(tasks[start:], ladder.name, rung.label, ladder.block)
    return tasks


@pytest.mark.parametrize("name", ["block", "quick", "games-graphs", "latin-tails"])
def test_the_run_grid_is_its_definition(tmp_path, name):
    """``build_tasks`` (a rung's keys made together where every instance meets the same runs)
    plans what :func:`naive_grid` plans: the same runs in the same order, keys and blocks."""
    from bench.plan.registry import load_solvers
    from bench.plan.suite import build_tasks, solver_configs

    if name == "block":  # two configs and two repeats of a block ladder, and a mixed rung
        text = SUITE.replace("jobs = 1", "jobs = 1\nrepeats = 2\ninstances = [\"sudoku/planted:"
                             "box=2,clues=8,seed=1..3\", \"games/tree:seed=1\"]")
        suite = load_suite(str(write_suite(tmp_path, text=text)))
    else:
        suite = load_suite(name)
    families = {ref.family for ladder in suite.ladders for rung in ladder.rungs
                for ref in rung.refs}
    configs = solver_configs(suite.solvers, load_solvers(suite.plugins), None, families)
    got, want = build_tasks(suite, configs), naive_grid(suite, configs)
    fields = ("key", "repeat", "seed", "budget_s", "mem_mb", "cores", "block", "block_index",
              "block_size")
    assert [(t.ref, t.config, *(getattr(t, f) for f in fields)) for t in got] \
        == [(t.ref, t.config, *(getattr(t, f) for f in fields)) for t in want]


LINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def planned_file_ladder(tmp_path, lines, solvers, rungs):
    """The runs planned for a block ladder (``block = 2``) over a file of ``lines``: one rung
    per entry of ``rungs``, labelled a, b, ..., each the file's path with that suffix (``""``:
    all of it, ``":3"``: its third puzzle)."""
    from bench.execute.sweep import prepare_sweep

    (tmp_path / "p.txt").write_text("\n".join(lines) + "\n")
    given = ",\n".join(f'{{ label = "{chr(97 + i)}", instances = ["{tmp_path / "p.txt"}{r}"] }}'
                       for i, r in enumerate(rungs))
    suite = tmp_path / "file.toml"
    suite.write_text('name = "file"\ntimeout = 10\n'
                     + "".join(f'[[solver]]\nname = "{name}"\n' for name in solvers)
                     + f'[[ladder]]\nname = "file"\nblock = 2\nrungs = [ {given} ]\n')
    return prepare_sweep(str(suite))[1]


def test_a_run_planned_twice_runs_once_and_its_key_waits(tmp_path):
    """A puzzle twice in a file and again on another rung is planned once per solver; a block
    ladder's keys are not made while the sweep is planned (but a block's first run's, which
    its id holds), and are ``run_key``'s when asked."""
    from bench.plan.suite import run_key

    tasks = planned_file_ladder(tmp_path, [LINE, LINE.replace("4", ".", 1), LINE],
                                ["native", "norvig"], ["", ":3"])
    assert [(t.ref.rung, t.config.label, t.ref.source.rsplit(":", 1)[1]) for t in tasks] == [
        ("a", "native", "1"), ("a", "norvig", "1"), ("a", "native", "2"), ("a", "norvig", "2")]
    assert [t.given_key is None for t in tasks] == [False, False, True, True]
    assert len({t.key for t in tasks}) == 4
    for t in tasks:
        assert t.key == run_key(t.config, t.ref.instance_id, t.repeat, t.seed, t.budget_s,
                                t.mem_mb, t.cores)


def test_the_journal_read_as_columns_is_the_rows(tmp_path):
    from bench.table.store import to_frame

    journal = Journal(tmp_path / "journal.jsonl")
    journal.append({"key": "a", "status": "solved", "t_wall": 0.5, "p_box": 3})
    journal.append_many([{"key": f"b{i}", "status": "solved", "t_wall": i / 10,
                          "s_mode": "x"} for i in range(3)])
    journal.append({"key": "c", "status": "timeout", "t_wall": float("nan")})
    columns, n = journal.read_columns()
    rows = journal.read()
    assert n == len(rows) == 5 and all(len(c) == n for c in columns.values())
    assert columns["p_box"] == [3, None, None, None, None]
    assert columns["s_mode"] == [None, "x", "x", "x", None]
    assert [r["key"] for r in rows] == columns["key"] == ["a", "b0", "b1", "b2", "c"]
    import pandas as pd

    pd.testing.assert_frame_equal(to_frame(rows), to_frame(columns))


def test_a_chunk_leaves_out_only_columns_without_a_value():
    import numpy as np

    from bench.execute.described import chunk_columns

    columns = {"kind": ["outcome"] * 3, "objective": [None, None, None],
               "counters": [None, "{}", None], "t_wall": [None, 0.5, None],
               "work_nodes": [np.int64(0), 0, 0.0], "score_trace": [None] * 3}
    sent = chunk_columns(columns, wall=1.0, cpu=2.0)
    assert set(sent) == {"kind", "counters", "t_wall", "t_cpu", "work_nodes"}
    third = round(1 / 3, 9)  # to the nanosecond
    assert sent["t_wall"] == [third, 0.5, third]  # its own, else a share of the chunk's
    assert sent["t_cpu"] == [round(2 / 3, 9), 1.0, round(2 / 3, 9)]
    times = np.array([0.25, float("nan"), float("inf")])  # a batch's array, not finite: shared
    sent = chunk_columns({"kind": ["outcome"] * 3, "t_wall": times,
                          "counter_values": {"nodes": [1, 2, 3]}}, wall=0.75, cpu=0.0)
    assert sent["t_wall"] == [0.25, 0.25, 0.25] and sent["t_cpu"] == [0.0] * 3
    assert sent["counter_values"] == {"nodes": [1, 2, 3]}  # kept: not a list of values
    assert "t_cpu" not in chunk_columns({"kind": ["outcome"]}, wall=0.0, cpu=0.0)


def test_a_chunks_counters_read_as_the_rows_do():
    """The template the columns are written with gives the encoder's own text, and the work
    columns are those a single run's row takes."""
    import numpy as np

    from bench.execute.counters import (
        counter_columns,
        counters_text,
        solutions_bucket,
        work_columns,
    )

    counters = {"nodes": [3, 1.5, None], "branches": [9, 9, 9], "solutions": [1, 2, 0],
                "restarts": [0, 1, 2]}
    got = counter_columns(counters, 3)
    for i in range(3):
        one = {k: float(v[i]) for k, v in counters.items() if v[i] is not None}
        assert got["counters"][i] == counters_text(one)
        for name, value in work_columns(one).items():
            assert got[name][i] == value, (name, i)
    counts = [0, 1, 2, 3, -1.0, 0.5, 1.5, 2.0, float("nan"), None, True]  # looked up or judged
    assert counter_columns({"solutions": counts}, len(counts))["solutions"] == \
        [solutions_bucket(None if v is None else float(v)) for v in counts]
    complete = counter_columns({"b": [1, 2], "a": [0.5, float("nan")]}, 2)
    assert complete["counters"] == [counters_text({"a": 0.5, "b": 1.0}),
                                    counters_text({"a": float("nan"), "b": 2.0})]
    assert counter_columns({}, 2) == {k: [None, None] for k in
                                      ("counters", "work_nodes", "work_conflicts",
                                       "work_restarts", "solutions")}
    # whole numbers are written as integers and ".0", others by repr: the same text either way
    for column in ([1, 2, True], [-0.0, 1.0, 2.0], [1e16, 9999999999999998.0, 3.0],
                   [2 ** 60, 3, 4], [0.1, 2.0, -7.0], [1e308, 1e308, 1.0],
                   [np.int64(5), np.float32(0.5), np.bool_(True)], [2 ** 70, 1, 2],
                   [-1, 2 ** 63, 3], ["3", 1, 2]):
        got = counter_columns({"nodes": column, "guesses": [0, 1, 2]}, 3)["counters"]
        assert got == [counters_text({"guesses": float(g), "nodes": float(v)})
                       for g, v in zip([0, 1, 2], column, strict=True)], column
    # rows that repeat (formatted once each) and equal floats of other texts (each its own)
    for column in ([4, 4, 1, 4], [0.0, -0.0, 0.0, -0.0]):
        got = counter_columns({"nodes": column, "guesses": [0, 0, 0, 0]}, 4)["counters"]
        assert got == [counters_text({"guesses": 0.0, "nodes": float(v)}) for v in column]


def test_a_chunks_counters_sent_as_values_make_the_rows_columns_they_made_in_the_worker():
    """A worker sends a chunk's counters as their values where JSON carries every one exactly
    (finite plain numbers), and the parent's counter columns of what it reads are those the
    worker would have made; any other counter (a null, a NaN, an infinity, a text, a huge
    int) sends the columns made in the worker."""
    import numpy as np

    from bench.execute import wire
    from bench.execute.counters import counter_columns
    from bench.execute.described import received_counters, sent_counters

    for counters in ({"nodes": [3, 1, 2], "guesses": [0.5, 2.0, -0.0], "fast9": [1, 1, 1]},
                     {"nodes": [np.int64(5), np.int64(7), 2], "ok": [True, False, True]},
                     {"nodes": [3, None, 2]}, {"nodes": [1.0, float("nan"), 2.0]},
                     {"nodes": [1.0, float("inf"), 2.0]}, {"nodes": ["3", 1, 2]},
                     {"nodes": [2 ** 70, 1, 2]}, {}):
        sent = sent_counters(counters, 3)
        plain = all(v is not None and not isinstance(v, str) and abs(float(v)) < float("inf")
                    and abs(v) < 2 ** 63 for values in counters.values() for v in values)
        assert ("counter_values" in sent) == (plain and bool(counters)), counters
        read = wire.decode(wire.encode({"op": "rows", "columns": sent}))["columns"]
        made = received_counters(read, 3) if "counter_values" in read else read
        before = wire.decode(wire.encode({"op": "rows", "columns": counter_columns(counters, 3)}))
        assert made == before["columns"], counters  # the worker's own, as the pipe carries it


def test_the_table_written_straight_from_columns_reads_as_to_frame(tmp_path):
    """``compact`` writes Arrow straight from the journal's columns where every value has its
    column's type, else goes through ``to_frame``: either way the file reads back as
    ``to_frame`` of the columns."""
    import pandas as pd

    from bench.table.store import TABLE, compact, to_arrow, to_frame

    exact = [{"key": f"k{i}", "status": "solved", "t_wall": i / 3, "work_nodes": i,
              "verified": bool(i % 2), "p_box": 3, "s_mode": "x", "p_ratio": [1, 2.5][i % 2],
              "solution": None if i % 3 else '{"box":3}'} for i in range(5)]
    mixed = [{**exact[0], "p_odd": 1}, {**exact[1], "p_odd": "a"}]  # p_odd: as text
    nan = [{**exact[0], "objective": float("nan")}]
    for rows, straight in ((exact, True), (mixed, False), (exact + [{"key": "z"}], True)):
        folder = tmp_path / str(len(rows))
        journal = Journal(folder / "journal.jsonl")
        journal.append_many(rows)
        journal.close()
        columns, n = journal.read_columns()
        assert (to_arrow(columns, n) is not None) == straight
        compact(folder)
        pd.testing.assert_frame_equal(pd.read_parquet(folder / TABLE), to_frame(columns))
    columns = {k: [v] for k, v in nan[0].items()}
    assert to_arrow(columns, 1) is None  # the NaN is to_frame's to make a null


def test_the_table_is_built_in_its_own_memory_pool(monkeypatch):
    """``to_arrow`` converts the columns into ``table_memory_pool`` (jemalloc's where pyarrow
    has it), not into the process's default pool: a pool standing in for it holds the
    answers' bytes while the table lives."""
    import pyarrow as pa

    from bench.table import store

    try:
        chosen = pa.jemalloc_memory_pool()
    except NotImplementedError:
        chosen = pa.default_memory_pool()
    assert store.table_memory_pool().backend_name == chosen.backend_name
    pool, n = pa.proxy_memory_pool(pa.default_memory_pool()), 10_000
    monkeypatch.setattr(store, "table_memory_pool", lambda: pool)

    def held(width: int) -> int:
        before = pool.bytes_allocated()
        table = store.to_arrow({"key": [f"k{i}" for i in range(n)],
                                "solution": ["5" * width] * n}, n)
        assert table.column("solution")[0].as_py() == "5" * width
        return pool.bytes_allocated() - before

    assert held(81) - held(1) >= 80 * n


def test_a_table_of_chunks_reads_as_to_frame_of_their_rows(tmp_path):
    """Chunks whose constant columns change from one to the next (a text, an empty text, a
    null, a column absent) are written part by part, runs of one value merged, and read
    back as ``to_frame`` of the same rows."""
    import pandas as pd

    from bench.table.store import TABLE, compact, to_frame

    journal = Journal(tmp_path / "journal.jsonl")
    journal.append({"key": "a", "status": "solved", "t_wall": 0.5, "p_box": 3, "solver": "x"})
    journal.append_columns({"solver": "x", "family": "sudoku", "t_prepare": 0.0},
                           {"key": ["b", "c"], "t_wall": [0.1, None], "s_mode": ["", "y"]}, 2)
    journal.append_columns({"solver": "y", "family": "sudoku", "s_mode": ""},
                           {"key": ["d", "e"], "t_wall": [0.1, 0.2]}, 2)
    journal.append_columns({"solver": "y", "family": "", "s_mode": "", "p_box": 4},
                           {"key": ["f", "g"], "t_wall": [0.1, 0.2]}, 2)
    journal.close()
    compact(tmp_path, journal)
    got = pd.read_parquet(tmp_path / TABLE)
    pd.testing.assert_frame_equal(got, to_frame(journal.read()))
    assert got["family"].tolist()[1:] == ["sudoku"] * 4 + [""] * 2


def test_answer_texts_read_together_only_when_each_is_one_value():
    from instances.sudoku.check import read_texts

    assert read_texts(['{"a": 1}', None, "[3]"]) == [(0, {"a": 1}), (2, [3])]
    assert read_texts(['{"a": 1}', None, "1,2", "[3]"]) == [(0, {"a": 1}), (3, [3])]
    assert read_texts(["1]", "[2"]) == []  # together they would read as one list
    assert read_texts(["", '"x"']) == [(1, "x")]


def test_the_journal_kept_in_memory_reads_as_its_file(tmp_path):
    """What a journal object wrote to a journal begun empty is read from memory, the same
    as a fresh reader reads the file; a value JSON would change (a tuple) or a journal begun
    by another sends the reader to the file."""
    rows = [{"key": "a", "status": "solved", "t_wall": float("inf"), "p_box": 3}]
    chunk = ({"solver": "x", "t_prepare": float("nan")},
             {"key": ["b", "c"], "t_wall": [0.5, None], "s_mode": ["é\n", "y"]})
    journal = Journal(tmp_path / "journal.jsonl")
    journal.append_many(rows)
    journal.append_columns(*chunk, 2)
    journal.append_many([{"key": f"d{i}", "flag": bool(i)} for i in range(3)])
    assert journal._kept is not None
    journal.close()
    assert journal.read_columns() == Journal(journal.path).read_columns()
    journal.append_many(rows)  # a journal this object did not begin: not kept
    assert journal._kept is None
    odd = Journal(tmp_path / "odd.jsonl")
    odd.append_many([{"key": "t", "p_shape": (3, 4)}, {"key": "u", "p_shape": [1]}])
    assert odd._kept is None
    assert odd.read_columns()[0]["p_shape"] == [[3, 4], [1]]
    for shapes in ([(3, 4), [1]], [(3, 4), (3, 4)]):  # a chunk's column that varies, or not
        chunked = Journal(tmp_path / f"chunked{len(set(map(type, shapes)))}.jsonl")
        chunked.append_columns({"solver": "x"}, {"key": ["t", "u"], "p_shape": shapes}, 2)
        assert chunked._kept is None
        assert chunked.read_columns()[0]["p_shape"] == [list(shape) for shape in shapes]


def test_a_journal_line_reads_as_the_standard_encoders():
    """``line_bytes`` (orjson, the standard encoder where orjson refuses) reads back as the
    standard library's own line: text, numbers, NumPy's numbers, keys that are not text,
    nested lists; an integer past 64 bits and a lone surrogate (orjson refuses both) too."""
    import numpy as np

    from bench.table.journal import line_bytes

    values = [{"same": {"solver": "x", "n": 3, "f": 0.1, "tiny": 5e-324, "big": 1e300},
               "rows": {"key": ["a", "é\n\"q\""], "t": [1e-05, -0.0], "b": [True, None]}},
              {"np": np.float64(1.5), "i": np.int64(7), 1: "one", "nested": [[1, 2], {"k": []}]},
              {"huge": 2 ** 70, "negative": -2 ** 64}, {"odd": "\ud800"}]
    for value in values:
        line = line_bytes(value)
        assert line.endswith(b"\n") and line.count(b"\n") == 1
        standard = json.dumps(value, separators=(",", ":"),
                              default=lambda v: v.item())  # NumPy's numbers as numbers
        assert json.loads(line) == json.loads(standard)
    assert json.loads(line_bytes(values[2]))["huge"] == 2 ** 70  # exact, not a float


def test_the_table_just_written_loads_as_the_file_reads(tmp_path):
    """``load`` right after ``compact`` takes the table compact made, once, and only while
    the file is the one it wrote; it equals the file read back."""
    import pandas as pd

    from bench.table import store

    journal = Journal(tmp_path / "journal.jsonl")
    journal.append_many([{"key": f"k{i}", "status": "solved", "t_wall": i / 7, "p_box": 3}
                         for i in range(4)])
    journal.close()
    store.compact(tmp_path, journal)
    assert len(store._just_written) == 1
    first = bench.load(tmp_path)
    assert not store._just_written  # taken once
    pd.testing.assert_frame_equal(first, pd.read_parquet(tmp_path / store.TABLE))
    store.compact(tmp_path)
    first.head(2).to_parquet(tmp_path / store.TABLE, index=False)  # the file changed since
    import os

    os.utime(tmp_path / "journal.jsonl", ns=(0, 0))  # and is newer than the journal
    pd.testing.assert_frame_equal(bench.load(tmp_path), first.head(2))  # read from the file


def test_a_block_sweep_stamps_its_pipeline_where_asked(tmp_path):
    """With ``CLIFFBENCH_TIMELINE`` set, the parent and the worker of a block sweep each leave
    their stamps (bench/execute/timeline.py) in order on one clock (the worker: each line it
    reads, then per block its instances, chunks and last rows sent; first, started while the
    sweep is planned, the solvers it prepared ahead); unset, none are written."""
    import os
    import subprocess
    import sys

    stamps = tmp_path / "stamps"
    stamps.mkdir()
    suite = write_suite(tmp_path, text=SUITE.replace('[[solver]]\nname = "norvig"\n', ""))
    for folder in (stamps, None):
        env = {**os.environ, "CLIFFBENCH_TIMELINE": str(folder)} if folder else \
            {k: v for k, v in os.environ.items() if k != "CLIFFBENCH_TIMELINE"}
        subprocess.run([sys.executable, "-m", "bench.cli", "run", str(suite), "--results",
                        str(tmp_path / "res"), "--overwrite", "--no-figures"], check=True,
                       env=env, capture_output=True, timeout=300)
    parent, worker = (list(stamps.glob(f"{role}-*.tl")) for role in ("parent", "worker"))
    assert len(parent) == 1 and len(worker) == 1
    events = {role: [line.split(" ", 1) for line in path[0].read_text().splitlines()]
              for role, path in (("parent", parent), ("worker", worker))}
    names = [name for _, name in events["worker"]]
    assert names[:6] == ["line", "prepared", "line", "instances", "chunk<", "chunk>"]
    assert names[-2:] == ["send>", "line"]  # the last line read says exit
    assert names.count("send>") == names.count("line") - 2 >= 2  # not the prepare's, exit's
    assert {"wait<", "wait>", "given", "recorded"} <= {name for _, name in events["parent"]}
    clocks = [float(clock) for role in events.values() for clock, _ in role]
    assert max(clocks) - min(clocks) < 300


def test_a_table_of_many_row_groups_reads_as_to_frame(tmp_path, monkeypatch):
    """A table of more rows than ``ROW_GROUP_ROWS`` is written group by group (the next group
    converted while a thread writes the last): the file holds several row groups and reads
    back, from the file and from the table kept for ``load``, as ``to_frame`` of the rows; a
    value that does not convert as it is, in the last group only (a number in a text column),
    sends the whole table through ``to_frame``."""
    import pandas as pd
    import pyarrow.parquet as pq

    from bench.table import store

    monkeypatch.setattr(store, "ROW_GROUP_ROWS", 4)
    for name, message in (("exact", "late"), ("mixed", 42)):
        folder = tmp_path / name
        journal = Journal(folder / "journal.jsonl")
        for first in range(0, 9, 3):  # chunks of 3 rows, then one of 2: groups of 6 and 5
            journal.append_columns({"solver": "x", "p_box": 3},
                                   {"key": [f"k{i}" for i in range(first, first + 3)],
                                    "t_wall": [i / 7 for i in range(first, first + 3)],
                                    "s_mode": ["x" if first < 6 else "y"] * 2 + [None]}, 3)
        journal.append_columns({"solver": "x", "p_box": 4},
                               {"key": ["k9", "k10"], "t_wall": [0.5, None],
                                "message": [message, None]}, 2)
        journal.close()
        expected = store.to_frame(journal.read())
        store.compact(folder)
        pd.testing.assert_frame_equal(pd.read_parquet(folder / store.TABLE), expected)
        groups = pq.ParquetFile(folder / store.TABLE).metadata.num_row_groups
        assert groups == (2 if name == "exact" else 1), (name, groups)
        pd.testing.assert_frame_equal(store.load(folder), expected)


def test_a_run_twice_in_a_file_runs_once_where_one_of_them_begins_a_block(tmp_path):
    """A block's first run has its key made while the sweep is planned (its block's id holds
    it), the others not yet: a puzzle that begins one block and comes again later is still
    one run, and the blocks are cut from the runs kept."""
    a, c = LINE.replace("4", ".", 1), LINE.replace("8", ".", 1)
    tasks = planned_file_ladder(tmp_path, [LINE, a, c, LINE], ["native"], [""])  # [1, 2], [3, 4]
    assert [t.ref.source.rsplit(":", 1)[1] for t in tasks] == ["1", "2", "3"]
    assert len({t.key for t in tasks}) == 3
    assert [(t.block_index, t.block_size) for t in tasks] == [(0, 2), (1, 2), (0, 1)]


def test_a_files_puzzles_of_one_clue_count_share_their_parameters(tmp_path):
    """A one-puzzle-a-line file's puzzles of equal clue counts share one parameters dict (its
    values each puzzle's), and rows that all are one dict transpose as rows that are not."""
    from bench.table.journal import transpose
    from instances.sudoku import read_file

    lines = [LINE, LINE.replace("4", ".", 1), LINE[::-1], LINE.replace("8", ".", 1)]
    (tmp_path / "p.txt").write_text("\n".join(lines) + "\n")
    got = read_file(tmp_path / "p.txt")
    assert [g.params for g in got] == [{"box": 3, "clues": 81 - x.count(".")} for x in lines]
    assert got[0].params is got[2].params and got[1].params is got[3].params
    assert got[0].params is not got[1].params
    shared = [got[0].params] * 5
    assert transpose(shared) == transpose([dict(row) for row in shared]) \
        == {"box": [3] * 5, "clues": [17] * 5}
    mixed = [{"x": 1}, {"x": 1.0}, {"x": True}]  # equal dicts, not one: each value its own
    assert [type(v) for v in transpose(mixed)["x"]] == [int, float, bool]
