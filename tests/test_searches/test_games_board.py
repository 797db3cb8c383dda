"""The native negamax on m,n,k boards (searches.support.games_board) and its bitboards
(searches.support.games_bitboard), against the plain rules of instances.games and known values."""

from __future__ import annotations

import random
import time

import numpy as np
import pytest

from bench.api import Budget
from instances.games import Board, Line, check, parse_known_values, rules
from searches.support import games_bitboard as bb
from searches.support import games_board as gb

ALL = gb.VARIANTS  # (prune, ordered, table)
PRUNED = [v for v in ALL if v[0]]
TABLED = [v for v in ALL if v[0] or v[2]]  # what finishes on small Connect Four boards
TICTACTOE = Board(3, 3, 3, False)


def ids(flags: tuple[bool, bool, bool]) -> str:
    prune, ordered, table = flags
    return ("ab" if prune else "mm") + ("-ord" if ordered else "") + ("-tt" if table else "")


def budget(seconds: float = 60.0) -> Budget:
    return Budget(wall_s=seconds, mem_mb=0, deadline=time.monotonic() + seconds)


def solve(board: Board, flags, **kw) -> gb.BoardResult:
    prune, ordered, table = flags
    return gb.solve_board(board, budget(), prune=prune, ordered=ordered, table=table, **kw)


def assert_line(board: Board, result: gb.BoardResult) -> None:
    """The family's checker accepts the line (legal, to a terminal position, agreeing)."""
    verdict = check(board, Line(result.value, result.line))
    assert verdict.legal and verdict.solved, verdict


def random_position(rng: random.Random, width: int, height: int, k: int, gravity: bool,
                    stones: int) -> Board:
    """A position after ``stones`` random moves in which nobody has won yet."""
    while True:
        cells, moves = (0,) * (width * height), []
        for number in range(stones):
            move = rng.choice(rules.legal_moves(cells, width, height, gravity))
            cells, cell = rules.play(cells, width, height, gravity, move, 1 + number % 2)
            moves.append(move)
            if rules.makes_line(cells, width, height, k, cell):
                break
        else:
            return Board(width, height, k, gravity, tuple(moves))


# --- bitboards ----------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(3, 3, 3, False), (7, 6, 4, True), (4, 4, 4, True),
                                   (5, 5, 4, False), (8, 7, 5, True), (6, 5, 4, False),
                                   (2, 2, 1, False), (1, 8, 8, True)])
def test_bitboards_follow_the_rules(shape):
    """Moves, wins, winning cells, play and keys on random games, cell by cell."""
    width, height, k, gravity = shape
    geo = bb.geometry(width, height, k, gravity)
    out = np.zeros(64, np.int64)
    rng = random.Random(width * 100 + height)
    seen: dict[int, tuple[int, ...]] = {}
    for _ in range(25):
        cells, player = (0,) * (width * height), 1
        while True:
            cur, mask = bb.position_from_cells(cells, player, geo)
            legal = rules.legal_moves(cells, width, height, gravity)
            n = bb.legal_bits(mask, geo, out)
            assert [bb.move_of_bit(b, geo) for b in out[:n]] == legal
            assert seen.setdefault(int(bb.position_key(cur, mask, geo)), cells) == cells
            for who, stones in ((player, cur), (3 - player, cur ^ mask)):
                wins = int(bb.winning_cells(stones, geo))
                for cell in range(width * height):
                    after = cells[:cell] + (who,) + cells[cell + 1:]
                    bit = int(geo[bb.G_CELLBIT + cell])
                    assert bool(wins >> bit & 1) == rules.makes_line(after, width, height, k,
                                                                       cell)
            if not legal:
                assert bb.is_full(mask, geo)
                break
            move = rng.choice(legal)
            bit = bb.bit_of_move(move, mask, geo)
            cells, cell = rules.play(cells, width, height, gravity, move, player)
            player = 3 - player
            c, m = bb.play(cur, mask, bit)
            assert bb.position_from_cells(cells, player, geo) == (c, m)
            assert tuple(map(int, bb.undo(c, m, bit))) == (int(cur), int(mask))
            won = rules.makes_line(cells, width, height, k, cell)
            assert bb.mover_won(c, m, geo) == won
            if won:
                break


def test_bitboard_limits():
    with pytest.raises(ValueError):
        bb.geometry(8, 8, 4, True)  # 8 x 9 = 72 bits
    assert bb.key_is_unique(bb.geometry(6, 5, 4, False))  # base 3: 30 cells
    assert not bb.key_is_unique(bb.geometry(9, 5, 3, False))  # 45 cells
    geo = bb.geometry(4, 4, 4, True)
    assert bb.bit_of_move(4, np.uint64(0), geo) == -1
    full_column = np.uint64(0b1111)
    assert bb.bit_of_move(0, full_column, geo) == -1 and bb.bit_of_move(1, full_column, geo) == 5


def reachable_positions(width: int, height: int, k: int, gravity: bool) -> int:
    """Positions reachable from the empty board (play stops at a win), ply by ply."""
    geo = bb.geometry(width, height, k, gravity)
    out = np.zeros(64, np.int64)
    level = {(np.uint64(0), np.uint64(0))}
    total = 0
    while level:
        total += len(level)
        after = set()
        for cur, mask in level:
            if bb.mover_won(cur, mask, geo):
                continue
            for bit in out[:bb.legal_bits(mask, geo, out)]:
                c, m = bb.play(cur, mask, bit)
                after.add((c, m))
        level = after
    return total


def test_bitboards_count_the_known_positions():
    assert reachable_positions(3, 3, 3, False) == 5478
    assert reachable_positions(4, 4, 4, True) == 161029


# --- tic-tac-toe --------------------------------------------------------------------------------


@pytest.mark.parametrize("flags", ALL, ids=ids)
def test_tictactoe_is_a_draw(flags):
    result = solve(TICTACTOE, flags)
    assert result.status == "optimal" and result.value == 0
    assert len(result.line) == 9
    assert_line(TICTACTOE, result)
    c = result.counters
    assert c["nodes"] >= c["leaves"] + c["tt_hits"] and c["pv_nodes"] >= 0
    if flags[2]:
        assert 0 < c["table_entries"] <= 4520  # the non-terminal positions


@pytest.mark.parametrize("ordered", [False, True])
def test_minimax_visits_the_whole_game_tree(ordered):
    """549,946 nodes with the root; 255,168 complete games (leaves), in either move order."""
    result = solve(TICTACTOE, (False, ordered, False))
    assert result.counters["nodes"] == 549946
    assert result.counters["leaves"] == 255168
    assert result.counters["cutoffs"] == result.counters["tt_hits"] == 0


def tictactoe_graph() -> tuple[int, int, int]:
    """Non-terminal positions, moves out of them, and those moves that end the game."""
    seen: set[tuple[int, ...]] = set()
    stack = [(0,) * 9]
    inner = edges = terminal_edges = 0
    while stack:
        cells = stack.pop()
        if cells in seen:
            continue
        seen.add(cells)
        moves = rules.legal_moves(cells, 3, 3, False)
        if not moves:
            continue
        inner += 1
        for move in moves:
            after, cell = rules.play(cells, 3, 3, False, move, rules.to_move(cells))
            edges += 1
            if rules.makes_line(after, 3, 3, 3, cell) or 0 not in after:
                terminal_edges += 1
                seen.add(after)
            else:
                stack.append(after)
    return inner, edges, terminal_edges


def test_minimax_with_the_table_visits_each_move_once():
    """With an exact table big enough not to lose an entry, each non-terminal position is
    expanded once: the nodes are the moves out of them plus the root."""
    inner, edges, terminal_edges = tictactoe_graph()
    assert inner == 4520
    result = solve(TICTACTOE, (False, False, True), table_bits=24)
    c = result.counters
    assert c["table_entries"] == inner
    assert c["nodes"] == edges + 1
    assert c["leaves"] == terminal_edges
    assert c["tt_hits"] == edges + 1 - terminal_edges - inner


def test_alpha_beta_visits_fewer_nodes():
    nodes = {flags: solve(TICTACTOE, flags).counters["nodes"] for flags in ALL}
    assert nodes[(True, False, False)] < nodes[(False, False, False)]
    assert nodes[(True, True, False)] < nodes[(True, False, False)]
    assert nodes[(True, True, True)] < nodes[(True, True, False)]
    assert nodes[(False, False, True)] < nodes[(False, False, False)]


# --- known positions ----------------------------------------------------------------------------


@pytest.mark.parametrize("flags", ALL, ids=ids)
def test_an_immediate_win(flags):
    """X (0, 1) to move with cell 2 free: a win, in one move when wins are tried first."""
    board = Board(3, 3, 3, False, (0, 3, 1, 4))
    result = solve(board, flags)
    assert result.value == 1
    assert_line(board, result)
    if flags[1]:
        assert result.line == (2,)


@pytest.mark.parametrize("flags", ALL, ids=ids)
def test_a_fork_loses(flags):
    """O to move against X's two open threats (cells 3 and 7), without a win of its own."""
    board = Board(3, 3, 3, False, (0, 4, 8, 2, 6))
    geo = bb.geometry_of(board)
    cur, mask = bb.position_of(board, geo)
    free = ~int(mask) & int(geo[bb.G_BOARD])
    assert bin(int(bb.winning_cells(cur ^ mask, geo)) & free).count("1") == 2
    assert int(bb.winning_cells(cur, geo)) & free == 0
    result = solve(board, flags)
    assert result.value == -1
    assert_line(board, result)


@pytest.mark.parametrize("flags", TABLED, ids=ids)
def test_connect_four_open_three_loses(flags):
    """5x4: X holds the bottom row's columns 1-3 with 0 and 4 empty; O cannot block both."""
    board = Board(5, 4, 4, True, (2, 2, 1, 1, 3))
    result = solve(board, flags)
    assert result.value == -1
    assert_line(board, result)


@pytest.mark.parametrize("flags", ALL, ids=ids)
def test_terminal_starts(flags):
    won = Board(3, 3, 3, False, (0, 3, 1, 4, 2))  # X has the bottom row
    result = solve(won, flags)
    assert (result.status, result.value, result.line) == ("optimal", -1, ())
    assert result.counters["nodes"] == result.counters["leaves"] == 1
    full = Board(3, 3, 3, False, (4, 0, 8, 2, 1, 7, 6, 3, 5))
    assert not rules.winner(full) and 0 not in full.cells()
    result = solve(full, flags)
    assert (result.status, result.value, result.line) == ("optimal", 0, ())


# --- Connect Four -------------------------------------------------------------------------------


@pytest.mark.parametrize("flags", TABLED, ids=ids)
def test_connect_four_4x4_is_a_draw(flags):
    board = Board(4, 4, 4, True)
    result = solve(board, flags)
    assert result.status == "optimal" and result.value == 0
    assert len(result.line) == 16
    assert_line(board, result)


@pytest.mark.data
def test_known_connect_four_values(shared_data):
    """Every Connect Four board of the known-values file up to 20 cells, by ab-ord-tt."""
    known = parse_known_values((shared_data / "games" / "known_values.tsv").read_text())
    boards = [g for g in known if isinstance(g.instance, Board) and g.instance.ncells <= 20]
    assert len(boards) == 4  # tic-tac-toe, 4x4, 5x4, 4x5
    for g in boards:
        result = solve(g.instance, (True, True, True))
        assert result.value == g.known_optimum, g.instance
        assert_line(g.instance, result)


@pytest.mark.parametrize("shape, stones", [((4, 4), 6), ((5, 4), 10)])
def test_minimax_agrees_with_alpha_beta(shape, stones):
    """Random mid-game positions: every variant gives the plain rules' value, and a line."""
    width, height = shape
    rng = random.Random(width * 10 + stones)
    for _ in range(6):
        board = random_position(rng, width, height, 4, True, stones)
        expected = rules.negamax_value(board.cells(), width, height, 4, True, {})
        for flags in ALL:
            result = solve(board, flags)
            assert result.value == expected, (board.moves, flags)
            assert_line(board, result)


def test_a_board_without_gravity_keyed_in_base_3():
    """6x5, k = 4, no gravity (36 bits: the table's key is the base-3 rank)."""
    rng = random.Random(7)
    geo = bb.geometry(6, 5, 4, False)
    assert int(geo[bb.G_KEY]) == bb.KEY_BASE3
    for _ in range(3):
        board = random_position(rng, 6, 5, 4, False, 21)
        values = {flags: solve(board, flags) for flags in TABLED}
        assert len({r.value for r in values.values()}) == 1
        for result in values.values():
            assert_line(board, result)


# --- chunks, limits -----------------------------------------------------------------------------


@pytest.mark.parametrize("flags, board", [((True, True, True), Board(4, 4, 4, True)),
                                          ((True, False, True), Board(4, 4, 4, True)),
                                          ((False, False, False), TICTACTOE),
                                          ((False, True, True), TICTACTOE)],
                         ids=["ab-ord-tt", "ab-tt", "mm", "mm-ord-tt"])
def test_chunks_do_not_change_the_search(flags, board):
    prune, ordered, table = flags
    geo = bb.geometry_of(board)
    cur, mask = bb.position_of(board, geo)
    wts = gb.window_weights(geo)
    runs = []
    for chunk in (1 << 40, 997, 1):
        search = gb.BoardSearch.start(geo, wts, cur, mask, prune=prune, ordered=ordered,
                                      table=gb.Table(16 if table else 0))
        while search.run(chunk if chunk > 1 else 1 + search.nodes % 5) != gb.DONE:
            pass
        runs.append((search.value, search.nodes, search.leaves, search.tt_hits,
                     search.cutoffs, search.table.entries()))
        if chunk == 1 and board.ncells > 9:
            break  # one node at a time is for tic-tac-toe's size only
    assert runs[1] == runs[0] and runs[-1] == runs[0]


def test_limits_give_unknown():
    result = solve(TICTACTOE, (False, False, False), max_nodes=1000)
    assert result.status == "unknown" and result.value is None
    assert result.counters["nodes"] == 1000
    expired = Budget(wall_s=1, mem_mb=0, deadline=time.monotonic() - 1)
    result = gb.solve_board(TICTACTOE, expired, prune=True, ordered=True, table=True)
    assert result.status == "unknown"


@pytest.mark.parametrize("shape, value", [((5, 4), 0), ((6, 4), -1), ((4, 5), 0), ((4, 6), 0),
                                          ((4, 7), 0), ((5, 5), 0),
                                          pytest.param((7, 4), 0, marks=pytest.mark.slow)])
def test_connect_four_up_to_28_cells(shape, value):
    """John Tromp's table (tromp.github.io/c4/c4.html): 6x4 is a second-player win, the
    others draws. Under a second each with ab-ord-tt; 7x4 (10 M nodes) a few seconds."""
    board = Board(*shape, 4, True)
    result = solve(board, (True, True, True))
    assert result.value == value
    assert_line(board, result)
