"""Opponents as data: legal moves only, the perfect one never loses, heuristics keep their word."""

from __future__ import annotations

from functools import cache

import pytest

from reference.board import CELLS, EMPTY, Board, O, X, play, to_move, winner
from reference.outcome import Outcome
from reference.positions import NO_POSITION, OpponentTable, Result, position_graph, result_of
from reference.study.opponents import (
    defensive_opponent,
    perfect_opponent,
    positional_opponent,
    random_opponent,
)

TABLES = {"random": random_opponent, "perfect": perfect_opponent,
          "positional": positional_opponent, "defensive": defensive_opponent}


@cache
def forced_value(board: Board) -> int:
    """This test's own minimax: +1 if X can force a win, -1 if O can, 0 otherwise."""
    mark = winner(board)
    if mark is not None:
        return 1 if mark == X else -1
    values = [forced_value(play(board, c)) for c in CELLS if board[c] == EMPTY]
    if not values:
        return 0
    return max(values) if to_move(board) == X else min(values)


@pytest.mark.parametrize("name", sorted(TABLES))
def test_every_opponent_move_is_one_legal_move_and_every_open_position_has_one(name: str) -> None:
    graph = position_graph()
    table = TABLES[name]()
    assert len(table) == len(graph.boards) == 5478
    for p, row in enumerate(table):
        legal = {c for c in graph.children[p] if c != NO_POSITION}
        assert set(row) <= legal, graph.boards[p]
        assert bool(row) == (graph.results[p] is Result.ONGOING), graph.boards[p]


@pytest.mark.parametrize("side", [X, O])
def test_the_perfect_player_never_loses_from_any_reachable_position(side: str) -> None:
    """Exhaustive: from every position not already lost, whatever the other side plays."""
    graph = position_graph()
    table = perfect_opponent()
    lost_for_side = 1 if side == O else -1  # the forced value that means `side` loses

    @cache
    def can_lose(p: int) -> bool:
        """True when a line of the other side's play, against the table's moves, ends in a loss."""
        result = graph.results[p]
        if result is not Result.ONGOING:
            return result is result_of(side, Outcome.LOSS)
        if to_move(graph.boards[p]) == side:
            return any(can_lose(child) for child in table[p])
        return any(can_lose(child) for child in graph.children[p] if child != NO_POSITION)

    checked = 0
    for p, board in enumerate(graph.boards):
        if forced_value(board) != lost_for_side:
            assert not can_lose(p), f"the perfect {side} can lose from {board}"
            checked += 1
    assert not can_lose(0)
    assert checked > 2000  # not vacuous: thousands of positions are checked


def _moves(table: OpponentTable, board: Board) -> set[int]:
    """The cells the table may play on this board."""
    graph = position_graph()
    p = graph.index[board]
    return {c for c in CELLS if graph.children[p][c] in table[p]}


def test_the_defensive_player_completes_its_line_else_blocks_else_plays_anywhere() -> None:
    table = defensive_opponent()
    assert _moves(table, "XX.O.O..X") == {4}       # O completes its own row
    assert _moves(table, "XX..O....") == {2}       # O blocks X's top row
    assert _moves(table, "X........") == {1, 2, 3, 4, 5, 6, 7, 8}
    assert _moves(table, "OO.XX....") == {5}       # X to move completes its row rather than block
    graph = position_graph()
    for p, board in enumerate(graph.boards):
        if graph.results[p] is not Result.ONGOING:
            continue
        mark = to_move(board)
        winning = {c for c in CELLS if board[c] == EMPTY and winner(play(board, c)) == mark}
        if winning:
            assert _moves(table, board) == winning, board


def test_the_positional_player_takes_the_centre_then_a_corner_then_a_side() -> None:
    table = positional_opponent()
    assert _moves(table, "X........") == {4}
    assert _moves(table, "....X....") == {0, 2, 6, 8}
    assert _moves(table, "OXO.X.XOX") == {3, 5}
